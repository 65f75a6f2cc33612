//! The Targeted vs Off-target experiment against the stub over real HTTP:
//! retries after rejected dialogues, a judge reply that does not parse, an
//! unresolved case, predictions on the validated dialogues only, scores and
//! Table 4, and a resumed job that asks nothing again.

mod common;

use engine::lexpilot::paper::table_4;
use engine::lexpilot::score::ScoreDocument;
use engine::lexpilot::targeted::{
    parse_targeted, score_targeted, Condition, ItemStatus, MAX_ATTEMPTS,
};
use engine::metrics::quadratic_weighted_kappa;
use engine::vocab::{Role, Verdict};
use pipeline::stub::{targeted::oracle, PromptKind, Stub};
use pipeline::targeted::{Config, Job};
use pipeline::CancellationToken;

fn config(base_url: &str, dir: &std::path::Path) -> Config {
    let common = common::config(base_url, dir);
    let mut config = Config::new(
        common.model,
        common.user,
        common.judges[0].clone(),
        dir.to_owned(),
    );
    config.retry = common.retry;
    config.limits = common.limits;
    config.dataset_name = common.dataset_name;
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_experiment_retries_rejections_keeps_unresolved_cases_and_scores_table_4() {
    let cases = common::demo_cases(8);
    assert!(cases.iter().all(|c| !c.missing_facts.is_empty()));
    let stub = Stub::start(oracle(&cases)).await.expect("stub starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut cfg = config(&stub.base_url, dir.path());
    cfg.runs = 2;
    let job = Job::new(cfg.clone(), cases.clone()).expect("valid config");
    assert_eq!(job.total_items(), 2 * 8 * 2);
    let outputs = job.run(CancellationToken::new()).await.expect("job runs");
    assert_eq!(outputs.len(), 2);

    let gold = |i: usize| -> Vec<Verdict> { cases[i].claims.iter().map(|c| c.verdict).collect() };
    let mut all_scores = Vec::new();
    for output in &outputs {
        assert!(output
            .path
            .to_string_lossy()
            .ends_with(&format!("Test-Model.targeted.run{}.jsonl", output.run)));
        let text = std::fs::read_to_string(&output.path).expect("result file");
        let run = parse_targeted(&text, &cases).expect("a valid result file");
        assert_eq!(run, output.parsed);
        assert_eq!(run.items.len(), 16);
        let h = &run.header;
        assert_eq!(h.judge.as_deref(), Some("Test-Judge"));
        assert_eq!(h.user_model.as_deref(), Some("Test-User"));
        let prompts = h.extra["prompts"].as_object().expect("prompt hashes");
        for name in [
            "targeted_construct.v1",
            "offtarget_construct.v1",
            "targeted_validate.v1",
            "user_standard.v1",
            "ljp_direct.v1",
            "judge_ljp.v1",
        ] {
            assert_eq!(prompts[name].as_str().map(str::len), Some(64), "{name}");
        }
        assert_eq!(h.extra["workbench_prompts"][0], "targeted_construct.v1");

        for (i, case) in cases.iter().enumerate() {
            let item = |c| {
                run.items
                    .iter()
                    .find(|it| it.case_id == case.case_id && it.condition == c)
                    .expect("an item per case and condition")
            };
            let t = item(Condition::Targeted);
            assert_eq!(t.status, Some(ItemStatus::Accepted), "{}", case.case_id);
            assert_eq!(t.attempts.len(), if i % 3 == 1 { 2 } else { 1 }, "{i}");
            if i % 3 == 1 {
                assert!(!t.attempts[0].accepted);
                assert!(
                    t.attempts[0].reasons[0].ends_with(": absent"),
                    "{:?}",
                    t.attempts[0].reasons
                );
            }
            assert_eq!(t.predictions.as_deref(), Some(&gold(i)[..]));
            let d = t.dialogue.as_ref().expect("the validated dialogue");
            assert_eq!(d.len(), 6, "three rounds");
            assert_eq!(d[0].role, Role::Assistant);

            let o = item(Condition::OffTarget);
            if i % 4 == 3 {
                assert_eq!(o.status, Some(ItemStatus::Unresolved));
                assert_eq!(o.attempts.len(), MAX_ATTEMPTS);
                assert!(o.attempts.iter().all(|a| !a.accepted
                    && a.reasons
                        .iter()
                        .any(|r| r.contains("recovered (user turn 1)"))));
                assert_eq!(o.predictions, None);
            } else {
                assert_eq!(o.status, Some(ItemStatus::Accepted));
                let expected_attempts = if i % 4 == 1 { 2 } else { 1 };
                assert_eq!(o.attempts.len(), expected_attempts, "{i}");
                if i % 4 == 1 {
                    assert!(o.attempts[0].reasons[0].starts_with("beyond_scope"));
                }
                let supported = vec![Verdict::Supported; case.claims.len()];
                assert_eq!(o.predictions, Some(supported));
            }
        }

        let scores = score_targeted(&run, &cases);
        let t = &scores.conditions[&Condition::Targeted];
        let o = &scores.conditions[&Condition::OffTarget];
        assert_eq!((t.accepted, t.unresolved), (8, 0));
        assert_eq!(t.attempts, 8 + 3, "cases 1, 4 and 7 take two attempts");
        assert_eq!(t.qwk, Some(1.0));
        assert_eq!((o.accepted, o.unresolved), (6, 2));
        assert_eq!(
            o.unresolved_cases,
            [cases[3].case_id.clone(), cases[7].case_id.clone()]
        );
        assert_eq!(o.attempts, 6 + 2 + 2 * MAX_ATTEMPTS);
        let scored: Vec<usize> = (0..8).filter(|i| i % 4 != 3).collect();
        let truth: Vec<u8> = scored
            .iter()
            .flat_map(|&i| gold(i))
            .map(|v| v.code())
            .collect();
        let pred = vec![Verdict::Supported.code(); truth.len()];
        assert_eq!(o.claims, truth.len());
        assert_eq!(o.qwk, quadratic_weighted_kappa(&truth, &pred, 3));
        all_scores.push(scores);
    }

    // Construction and validation went to the stub; a judge reply that does
    // not parse (cases 2 and 5, first ask) was asked again.
    assert!(stub.count(PromptKind::TargetedConstruct) > 0);
    assert!(stub.count(PromptKind::OffTargetConstruct) > 0);
    assert_eq!(stub.count(PromptKind::Unknown), 0);
    let validations = stub.count(PromptKind::TargetedValidate);
    // Per run: 11 targeted and 18 off-target attempts, plus one retried
    // reply per distinct validation prompt of cases 2 and 5 (case 2: one
    // attempt per condition; case 5: one targeted, two off-target); the
    // second run's identical prompts are answered at once.
    assert_eq!(validations, 2 * (11 + 18) + 5);

    let empty: ScoreDocument = serde_json::from_str(r#"{"cases": 8, "entries": []}"#).expect("doc");
    let (table, unresolved) = table_4(&empty, &all_scores);
    assert_eq!(table.rows.len(), 1);
    assert_eq!(table.rows[0].label, "Test-Model");
    assert_eq!(table.text(0, 0), "—", "no Direct runs stored");
    assert_eq!(table.text(0, 1), "1.0000 ± 0.0000");
    assert_eq!(unresolved.len(), 2);
    assert_eq!(unresolved[0].runs, [1, 2]);

    // Resumed from the cache: nothing is asked again, the files are equal.
    let before: Vec<String> = outputs
        .iter()
        .map(|o| std::fs::read_to_string(&o.path).expect("file"))
        .collect();
    stub.reset();
    let again = Job::new(cfg, cases.clone())
        .expect("valid config")
        .run(CancellationToken::new())
        .await
        .expect("job runs again");
    assert_eq!(stub.requests(), 0, "every call came from the cache");
    for (output, text) in again.iter().zip(&before) {
        assert_eq!(
            output.parsed.items,
            parse_targeted(text, &cases).expect("valid").items
        );
    }
}
