//! The shipped demo dataset keeps the promises the UI makes about it.

use std::collections::HashMap;

use engine::lexpilot::dataset::parse_dataset;
use engine::vocab::{Consultation, CAUSES};
use server::demo::DEMO_DATASET;

#[test]
fn two_cases_per_cause_one_of_them_a_seed() {
    let cases = parse_dataset(DEMO_DATASET).expect("the demo passes the validator");
    assert_eq!(cases.len(), 72);
    let mut per_cause: HashMap<&str, (usize, usize)> = HashMap::new();
    for case in &cases {
        let entry = per_cause.entry(case.cause.as_str()).or_default();
        entry.0 += 1;
        entry.1 += usize::from(case.seed);
    }
    for cause in CAUSES {
        assert_eq!(
            per_cause.get(cause.name_zh),
            Some(&(2, 1)),
            "{}",
            cause.name_zh
        );
    }
}

#[test]
fn dialogues_are_paired_and_the_missing_facts_really_missing() {
    for case in parse_dataset(DEMO_DATASET).expect("valid") {
        let turns = case.consultations.complete.len();
        assert!((4..=8).contains(&turns), "{}: {turns} turns", case.case_id);
        assert!(!case.missing_facts.is_empty(), "{}", case.case_id);
        for fact in case.missing_key_facts() {
            let quote = fact
                .quote
                .as_deref()
                .unwrap_or_else(|| panic!("{}: {} has a quote", case.case_id, fact.id));
            let said = |c: Consultation| case.turns(c).iter().any(|t| t.content.contains(quote));
            assert!(
                said(Consultation::Complete),
                "{}: {} stated in the complete one",
                case.case_id,
                fact.id
            );
            assert!(
                !said(Consultation::Underspecified),
                "{}: {} absent from the underspecified one",
                case.case_id,
                fact.id
            );
        }
    }
}

#[test]
fn every_verdict_is_used_in_fair_measure() {
    let cases = parse_dataset(DEMO_DATASET).expect("valid");
    let stats = engine::lexpilot::stats::dataset_stats(&cases);
    for n in [
        stats.verdicts.supported,
        stats.verdicts.partially_supported,
        stats.verdicts.dismissed,
    ] {
        assert!(
            n * 5 >= stats.claims,
            "each verdict is at least a fifth of the claims: {:?}",
            stats.verdicts
        );
    }
}

/// The simulated demo runs are valid run files on the demo dataset, and score
/// in the order their generator intends (legal < open < closed on LCA).
#[test]
fn the_simulated_demo_runs_parse_and_score() {
    let cases = parse_dataset(DEMO_DATASET).expect("valid");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/runs");
    let mut runs = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("runs folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    names.sort();
    for path in names {
        let text = std::fs::read_to_string(&path).expect("readable");
        let run = engine::lexpilot::run::parse_run(&text, &cases)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            run.header.model.contains("(simulated)"),
            "{}",
            path.display()
        );
        runs.push(run);
    }
    assert_eq!(runs.len(), 9);
    let doc = engine::lexpilot::score::score_entries(&runs, &cases);
    assert_eq!(doc.entries.len(), 3);
    let f1 = |model: &str| {
        doc.entries
            .iter()
            .find(|e| e.model.contains(model))
            .and_then(|e| e.lca.as_ref())
            .and_then(|l| l.overall)
            .and_then(|s| s.macro_f1)
            .map(|m| m.mean)
            .expect("an LCA score")
    };
    assert!(f1("LawAssist") < f1("OpenChat") && f1("OpenChat") < f1("Frontier"));
}
