//! The scoring rules of `docs/formats.md` §4–§5 on small hand-made runs, and
//! properties that hold for every generated run.

use std::num::NonZeroU64;

use engine::lexpilot::dataset::{parse_dataset, Case};
use engine::lexpilot::run::{parse_run, DcgItem, DcgRequest, LcaItem, LjpItem, Run, RunHeader};
use engine::lexpilot::score::{score_ci, score_entries, score_run, Metric, RunScores};
use engine::metrics::Xoshiro256StarStar;
use engine::vocab::{Class, Consultation, LcaLabel, LjpSetup, Verdict, CAUSES};
use proptest::prelude::*;
use serde_json::{json, Value};
use Verdict::{Dismissed as D, PartiallySupported as P, Supported as S};

/// A dataset of one case per entry: (index into the 36 causes, claim verdicts).
fn dataset(cases: &[(usize, Vec<Verdict>)]) -> Vec<Case> {
    let text: String = cases
        .iter()
        .enumerate()
        .map(|(i, (cause, verdicts))| {
            let cause = &CAUSES[*cause];
            let claims: Vec<Value> = verdicts
                .iter()
                .enumerate()
                .map(|(j, v)| json!({"id": format!("c{j}"), "text": "诉请", "verdict": v}))
                .collect();
            let case = json!({
                "case_id": format!("K{i}"), "cause": cause.name_zh, "class": cause.class,
                "plaintiff_type": "natural", "claims": claims,
                "focal_points": [], "key_facts": [], "missing_facts": [],
                "consultations": {"complete": [{"role": "user", "content": "甲"}],
                                  "underspecified": [{"role": "user", "content": "乙"}]}
            });
            format!("{case}\n")
        })
        .collect();
    parse_dataset(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// Index of the first cause of a class in Table 10.
fn cause_of(class: Class) -> usize {
    CAUSES
        .iter()
        .position(|c| c.class == class)
        .unwrap_or_else(|| panic!("a cause of {class}"))
}

fn header(model: &str, run: u32) -> RunHeader {
    RunHeader {
        model: model.into(),
        family: None,
        run,
        dataset: None,
        judge: None,
        user_model: None,
        created_at: None,
        extra: Default::default(),
    }
}

fn empty_run(model: &str, run: u32) -> Run {
    Run {
        header: header(model, run),
        lca: Vec::new(),
        dcg: Vec::new(),
        ljp: Vec::new(),
    }
}

fn ljp_items(setup: LjpSetup, predictions: &[Option<Vec<Verdict>>]) -> Vec<LjpItem> {
    predictions
        .iter()
        .enumerate()
        .map(|(i, p)| LjpItem {
            case_id: format!("K{i}"),
            setup,
            predictions: p.clone(),
            response: None,
            dialogue: None,
            unavailable: p.is_none().then(|| "no verdict".into()),
        })
        .collect()
}

fn dcg_items(accepted: &[Option<bool>]) -> Vec<DcgItem> {
    accepted
        .iter()
        .enumerate()
        .map(|(i, a)| DcgItem {
            case_id: format!("K{i}"),
            requests: vec![DcgRequest {
                text: None,
                accepted: *a,
            }],
            unavailable: a.is_none().then(|| "timeout".into()),
        })
        .collect()
}

/// Three family cases with verdicts S, P, D and one tort case with S.
fn three_family_one_tort() -> Vec<Case> {
    dataset(&[
        (cause_of(Class::Family), vec![S]),
        (cause_of(Class::Family), vec![P]),
        (cause_of(Class::Family), vec![D]),
        (cause_of(Class::Tort), vec![S]),
    ])
}

fn entry_json(runs: &[Run], dataset: &[Case]) -> Value {
    let doc = serde_json::to_value(score_entries(runs, dataset)).unwrap_or_else(|e| panic!("{e}"));
    doc["entries"][0].clone()
}

// Rules.

#[test]
fn absent_tasks_and_setups_are_absent_and_classes_without_cases_null() {
    let dataset = three_family_one_tort();
    let mut run = empty_run("M", 1);
    run.ljp = ljp_items(
        LjpSetup::Gold,
        &[Some(vec![S]), Some(vec![P]), Some(vec![D]), Some(vec![S])],
    );
    let entry = entry_json(&[run], &dataset);

    assert!(
        entry.get("lca").is_none() && entry.get("dcg").is_none(),
        "{entry}"
    );
    let overall = &entry["ljp"]["overall"];
    assert!(overall.get("direct").is_none() && overall.get("interaction").is_none());
    assert_eq!(overall["gold"]["qwk"], json!({"mean": 1.0, "std": null}));
    // A missing setup makes gain and degradation null, not absent.
    assert_eq!(overall["gain"], Value::Null);
    assert_eq!(overall["relative_degradation"], Value::Null);
    assert!(overall.as_object().is_some_and(|o| o.contains_key("gain")));
    // The tort class has one claim, all "supported": its QWK is undefined.
    assert_eq!(
        entry["ljp"]["by_class"]["tort"]["gold"],
        json!({"qwk": null})
    );
    // Misc has no case: its setups are null and it has no comparison.
    assert_eq!(entry["ljp"]["by_class"]["misc"], json!({"gold": null}));
    assert_eq!(entry["family"], Value::Null);
    assert_eq!(entry["runs"], 1);
}

#[test]
fn lca_and_dcg_classes_without_cases_are_null() {
    let dataset = three_family_one_tort();
    let mut run = empty_run("M", 1);
    run.dcg = dcg_items(&[Some(true), Some(false), None, Some(true)]);
    for (i, _) in dataset.iter().enumerate() {
        for c in Consultation::ALL {
            run.lca.push(LcaItem {
                case_id: format!("K{i}"),
                consultation: c,
                label: Some(LcaLabel::Predict),
                response: None,
                unavailable: None,
            });
        }
    }
    let entry = entry_json(&[run], &dataset);
    for task in ["lca", "dcg"] {
        assert_eq!(entry[task]["by_class"]["misc"], Value::Null, "{task}");
        assert!(entry[task]["by_class"]["family"].is_object(), "{task}");
    }
    // K2 is unavailable: 1 of the 2 family cases scored has an accepted request.
    assert_eq!(entry["dcg"]["by_class"]["family"]["accuracy"]["mean"], 0.5);
    assert_eq!(
        entry["dcg"]["overall"]["accuracy"]["mean"],
        json!(2.0 / 3.0)
    );
    // Always "predict": F1(complete) = 2/3, F1(underspecified) = 0.
    let lca = &entry["lca"]["overall"];
    assert_eq!(lca["macro_f1"]["mean"], json!(1.0 / 3.0));
    assert_eq!(lca["acc_complete"]["mean"], 1.0);
    assert_eq!(lca["acc_underspecified"]["mean"], 0.0);
}

#[test]
fn gain_and_degradation_come_from_the_mean_qwks() {
    let dataset = three_family_one_tort();
    let truth = || vec![Some(vec![S]), Some(vec![P]), Some(vec![D]), Some(vec![S])];
    let mut run = empty_run("M", 1);
    // Gold perfect (1), interaction constant (0), direct reversed (−1 on family).
    run.ljp = ljp_items(LjpSetup::Gold, &truth());
    run.ljp.extend(ljp_items(
        LjpSetup::Interaction,
        &[Some(vec![P]), Some(vec![P]), Some(vec![P]), Some(vec![P])],
    ));
    run.ljp.extend(ljp_items(
        LjpSetup::Direct,
        &[Some(vec![D]), Some(vec![P]), Some(vec![S]), Some(vec![D])],
    ));
    let entry = entry_json(&[run], &dataset);
    let family = &entry["ljp"]["by_class"]["family"];
    assert_eq!(family["gold"]["qwk"]["mean"], 1.0);
    assert_eq!(family["interaction"]["qwk"]["mean"], 0.0);
    assert_eq!(family["direct"]["qwk"]["mean"], -1.0);
    assert_eq!(family["gain"], 1.0);
    assert_eq!(family["relative_degradation"], 1.0);
}

#[test]
fn relative_degradation_is_null_when_the_gold_mean_is_zero() {
    let dataset = three_family_one_tort();
    let constant = || vec![Some(vec![P]), Some(vec![P]), Some(vec![P]), Some(vec![P])];
    let mut run = empty_run("M", 1);
    run.ljp = ljp_items(LjpSetup::Gold, &constant());
    run.ljp
        .extend(ljp_items(LjpSetup::Interaction, &constant()));
    let entry = entry_json(&[run], &dataset);
    let overall = &entry["ljp"]["overall"];
    assert_eq!(overall["gold"]["qwk"]["mean"], 0.0);
    assert_eq!(overall["relative_degradation"], Value::Null);
}

#[test]
fn runs_without_a_value_are_left_out_of_mean_and_std() {
    let dataset = three_family_one_tort();
    let mut first = empty_run("M", 1);
    first.ljp = ljp_items(
        LjpSetup::Gold,
        &[Some(vec![S]), Some(vec![P]), Some(vec![D]), Some(vec![S])],
    );
    // The second run's tort item is unavailable; its family items all agree.
    let mut second = empty_run("M", 2);
    second.ljp = ljp_items(
        LjpSetup::Gold,
        &[Some(vec![S]), Some(vec![P]), Some(vec![D]), None],
    );
    let mut third = empty_run("M", 3);
    third.dcg = dcg_items(&[Some(true), Some(true), Some(true), Some(true)]);

    let entry = entry_json(&[first.clone(), second, third], &dataset);
    assert_eq!(entry["runs"], 3);
    assert_eq!(
        entry["ljp"]["by_class"]["family"]["gold"]["qwk"],
        json!({"mean": 1.0, "std": 0.0})
    );
    // Tort: run 1 has one agreeing claim (undefined QWK), run 2 none, run 3 no LJP.
    assert_eq!(
        entry["ljp"]["by_class"]["tort"]["gold"],
        json!({"qwk": null})
    );
    // DCG from the third run alone: std is null.
    assert_eq!(
        entry["dcg"]["overall"]["accuracy"],
        json!({"mean": 1.0, "std": null})
    );

    // Run 1's tort class was scored (one claim) but its QWK is undefined.
    let scores = score_run(&first, &dataset);
    let tort = scores.ljp[&LjpSetup::Gold]
        .get(Some(Class::Tort))
        .copied()
        .flatten();
    assert_eq!(tort.map(|s| (s.qwk, s.claims)), Some((None, 1)));
}

#[test]
fn entries_are_runs_of_one_model_and_setting() {
    let dataset = three_family_one_tort();
    let with_dcg = |model: &str, run: u32, judge: Option<&str>| {
        let mut r = empty_run(model, run);
        r.header.judge = judge.map(Into::into);
        r.header.created_at = Some(format!("2026-11-{run:02}"));
        r.dcg = dcg_items(&[Some(true), Some(false), Some(true), Some(true)]);
        r
    };
    let runs = [
        with_dcg("B", 1, Some("J1")),
        with_dcg("A", 1, Some("J1")),
        with_dcg("B", 2, Some("J1")),
        with_dcg("B", 3, Some("J2")),
    ];
    let doc = score_entries(&runs, &dataset);
    let summary: Vec<(&str, Option<&str>, usize)> = doc
        .entries
        .iter()
        .map(|e| (e.model.as_str(), e.key.judge.as_deref(), e.runs))
        .collect();
    assert_eq!(
        summary,
        [
            ("B", Some("J1"), 2),
            ("A", Some("J1"), 1),
            ("B", Some("J2"), 1)
        ]
    );
    let json = serde_json::to_value(&doc).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["cases"], 4);
    assert!(json.get("dataset").is_none());
}

#[test]
fn bootstrap_intervals_hold_the_point_estimate_of_a_class() {
    let dataset = three_family_one_tort();
    let mut run = empty_run("M", 1);
    run.dcg = dcg_items(&[Some(true), Some(false), Some(true), Some(false)]);
    let family = Some(Class::Family);
    let point = score_run(&run, &dataset).metric(Metric::DcgAccuracy, family);
    assert_eq!(point, Some(2.0 / 3.0));
    let (lo, hi) = score_ci(&run, &dataset, Metric::DcgAccuracy, family, 400, 1, 0.95)
        .unwrap_or_else(|| panic!("an interval"));
    assert!(
        (0.0..=2.0 / 3.0).contains(&lo) && (2.0 / 3.0..=1.0).contains(&hi),
        "{lo} {hi}"
    );
    assert_eq!(
        score_ci(
            &run,
            &dataset,
            Metric::DcgAccuracy,
            Some(Class::Misc),
            400,
            1,
            0.95
        ),
        None
    );
}

// Properties.

/// One generated case: its cause, its claims' verdicts, and the run's items
/// (`None` marks an unavailable item).
#[derive(Debug, Clone)]
struct GenCase {
    cause: usize,
    truth: Vec<Verdict>,
    /// Predicted complete? for the complete and the underspecified consultation.
    lca: [Option<bool>; 2],
    dcg: Option<Vec<bool>>,
    ljp: [Option<Vec<Verdict>>; 3],
}

fn verdict() -> impl Strategy<Value = Verdict> {
    prop::sample::select(Verdict::ALL.to_vec())
}

fn gen_case() -> impl Strategy<Value = GenCase> {
    // Causes of four classes only, so that some classes have no case.
    let causes: Vec<usize> = CAUSES
        .iter()
        .enumerate()
        .filter(|(_, c)| c.class != Class::Misc && c.class != Class::FinanceContract)
        .map(|(i, _)| i)
        .collect();
    (prop::sample::select(causes), 1usize..4).prop_flat_map(|(cause, claims)| {
        let predictions = || prop::option::weighted(0.9, prop::collection::vec(verdict(), claims));
        (
            Just(cause),
            prop::collection::vec(verdict(), claims),
            [
                prop::option::weighted(0.9, any::<bool>()),
                prop::option::weighted(0.9, any::<bool>()),
            ],
            prop::option::weighted(0.9, prop::collection::vec(any::<bool>(), 0..=2)),
            [predictions(), predictions(), predictions()],
        )
            .prop_map(|(cause, truth, lca, dcg, ljp)| GenCase {
                cause,
                truth,
                lca,
                dcg,
                ljp,
            })
    })
}

fn build(cases: &[GenCase]) -> (Vec<Case>, Run) {
    let dataset = dataset(
        &cases
            .iter()
            .map(|c| (c.cause, c.truth.clone()))
            .collect::<Vec<_>>(),
    );
    let mut run = empty_run("M", 1);
    for (i, c) in cases.iter().enumerate() {
        let id = format!("K{i}");
        for (consultation, predicted_complete) in Consultation::ALL.into_iter().zip(c.lca) {
            run.lca.push(LcaItem {
                case_id: id.clone(),
                consultation,
                label: predicted_complete
                    .map(|p| if p { LcaLabel::Predict } else { LcaLabel::Ask }),
                response: None,
                unavailable: predicted_complete.is_none().then(|| "unlabelled".into()),
            });
        }
        run.dcg.push(DcgItem {
            case_id: id.clone(),
            requests: c
                .dcg
                .clone()
                .unwrap_or_default()
                .into_iter()
                .map(|a| DcgRequest {
                    text: Some("请问？".into()),
                    accepted: Some(a),
                })
                .collect(),
            unavailable: c.dcg.is_none().then(|| "unjudged".into()),
        });
        for (setup, predictions) in LjpSetup::ALL.into_iter().zip(&c.ljp) {
            run.ljp.push(LjpItem {
                case_id: id.clone(),
                setup,
                predictions: predictions.clone(),
                response: None,
                dialogue: None,
                unavailable: predictions.is_none().then(|| "no verdict".into()),
            });
        }
    }
    (dataset, run)
}

fn shuffle<T>(items: &mut [T], rng: &mut Xoshiro256StarStar) {
    for i in (1..items.len()).rev() {
        let bound = NonZeroU64::new(i as u64 + 1).unwrap_or(NonZeroU64::MIN);
        let j = rng.below(bound) as usize;
        items.swap(i, j);
    }
}

fn all_values(scores: &RunScores) -> Vec<(Metric, Option<Class>, Option<f64>)> {
    let metrics = [
        Metric::LcaMacroF1,
        Metric::LcaAccComplete,
        Metric::LcaAccUnderspecified,
        Metric::DcgAccuracy,
        Metric::LjpQwk(LjpSetup::Direct),
        Metric::LjpQwk(LjpSetup::Interaction),
        Metric::LjpQwk(LjpSetup::Gold),
    ];
    let classes = std::iter::once(None).chain(Class::ALL.map(Some));
    classes
        .flat_map(|class| metrics.map(|m| (m, class, scores.metric(m, class))))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn scores_do_not_depend_on_item_order(cases in prop::collection::vec(gen_case(), 1..12), seed: u64) {
        let (dataset, run) = build(&cases);
        let mut shuffled = run.clone();
        let mut rng = Xoshiro256StarStar::seed_from_u64(seed);
        shuffle(&mut shuffled.lca, &mut rng);
        shuffle(&mut shuffled.dcg, &mut rng);
        shuffle(&mut shuffled.ljp, &mut rng);
        prop_assert_eq!(score_run(&shuffled, &dataset), score_run(&run, &dataset));
    }

    #[test]
    fn a_generated_run_reads_back_from_its_jsonl(cases in prop::collection::vec(gen_case(), 1..12)) {
        let (dataset, run) = build(&cases);
        match parse_run(&run.to_jsonl(), &dataset) {
            Ok(again) => prop_assert_eq!(again, run),
            Err(e) => prop_assert!(false, "{}", e),
        }
    }

    #[test]
    fn a_perfect_run_scores_one(cases in prop::collection::vec(gen_case(), 1..12)) {
        let perfect: Vec<GenCase> = cases
            .into_iter()
            .map(|c| GenCase {
                lca: [Some(true), Some(false)],
                dcg: Some(vec![false, true]),
                ljp: [Some(c.truth.clone()), Some(c.truth.clone()), Some(c.truth.clone())],
                ..c
            })
            .collect();
        let (dataset, run) = build(&perfect);
        let scores = score_run(&run, &dataset);
        for (metric, class, value) in all_values(&scores) {
            let has_cases = class.is_none_or(|c| dataset.iter().any(|case| case.class == c));
            match metric {
                // QWK is undefined where every claim has one and the same verdict.
                Metric::LjpQwk(_) => {
                    prop_assert!(value.is_none_or(|v| v == 1.0), "{:?} {:?} {:?}", metric, class, value);
                    prop_assert!(has_cases || value.is_none());
                }
                _ => prop_assert_eq!(value, has_cases.then_some(1.0), "{:?} {:?}", metric, class),
            }
        }
        let claims: Vec<Verdict> = dataset.iter().flat_map(|c| c.claims.iter().map(|cl| cl.verdict)).collect();
        let varied = claims.iter().any(|&v| v != claims[0]);
        prop_assert_eq!(scores.metric(Metric::LjpQwk(LjpSetup::Gold), None), varied.then_some(1.0));
    }

    #[test]
    fn one_run_is_its_own_mean_and_a_repeated_run_has_std_zero(
        cases in prop::collection::vec(gen_case(), 1..12),
    ) {
        let (dataset, run) = build(&cases);
        let scores = score_run(&run, &dataset);
        let mut again = run.clone();
        again.header.run = 2;
        for (runs, std) in [(vec![run.clone()], None), (vec![run, again], Some(0.0))] {
            let doc = score_entries(&runs, &dataset);
            prop_assert_eq!(doc.entries.len(), 1);
            let entry = &doc.entries[0];
            let lca = entry.lca.as_ref().and_then(|b| b.overall.as_ref());
            let macro_f1 = lca.and_then(|s| s.macro_f1);
            let expected = scores.metric(Metric::LcaMacroF1, None);
            prop_assert_eq!(macro_f1.map(|m| m.mean), expected);
            prop_assert_eq!(macro_f1.and_then(|m| m.std), expected.and(std));
            for setup in LjpSetup::ALL {
                let qwk = entry
                    .ljp
                    .as_ref()
                    .and_then(|b| b.overall.setups.get(&setup).copied().flatten())
                    .and_then(|s| s.qwk);
                prop_assert_eq!(qwk.map(|m| m.mean), scores.metric(Metric::LjpQwk(setup), None));
            }
        }
    }
}
