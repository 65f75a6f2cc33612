//! DLawBench scores against reference values computed independently by
//! `tests/reference/dlawbench_scores.py` (Python, standard library), which
//! wrote the datasets, the runs and `expected.json` under
//! `tests/fixtures/dlawbench/reference/`: the §A4.6 worked session with
//! three judges and after recusal, unavailable seats, fidelity without
//! claims, every task-failure status in both views, an unavailable session,
//! `min_valid_judges`, a lone judge, runs missing styles, a Chinese-law-only
//! dataset, and repeats.

use std::path::{Path, PathBuf};

use engine::dlawbench::dataset::{parse_dataset, Case};
use engine::dlawbench::run::{parse_run, Run};
use engine::dlawbench::score::{score_entries, score_session, Metric, Outcome, View};
use serde_json::Value;

const TOLERANCE: f64 = 1e-12;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dlawbench/reference")
}

fn read(name: &str) -> String {
    let path = dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn expected() -> Value {
    serde_json::from_str(&read("expected.json")).expect("expected.json")
}

fn dataset(name: &str) -> Vec<Case> {
    parse_dataset(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn runs(dataset_name: &str, dataset: &[Case], expected: &Value) -> Vec<(String, Run)> {
    expected["runs"][dataset_name]
        .as_array()
        .expect("run names")
        .iter()
        .map(|name| {
            let name = name.as_str().expect("a name").to_owned();
            let run = parse_run(&read(&name), dataset).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, run)
        })
        .collect()
}

/// Every difference between two JSON values: same keys, same array order,
/// equal strings, booleans and nulls, numbers within [`TOLERANCE`].
fn differences(path: &str, actual: &Value, expected: &Value, found: &mut Vec<String>) {
    match (actual, expected) {
        (Value::Number(a), Value::Number(e)) => {
            let (a, e) = (
                a.as_f64().unwrap_or(f64::NAN),
                e.as_f64().unwrap_or(f64::NAN),
            );
            if (a - e).abs() > TOLERANCE {
                found.push(format!("{path}: {a} != expected {e}"));
            }
        }
        (Value::Object(a), Value::Object(e)) => {
            let mut keys: Vec<&String> = a.keys().chain(e.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let here = format!("{path}.{key}");
                match (a.get(key), e.get(key)) {
                    (Some(a), Some(e)) => differences(&here, a, e, found),
                    (Some(_), None) => found.push(format!("{here}: unexpected key")),
                    (None, _) => found.push(format!("{here}: missing key")),
                }
            }
        }
        (Value::Array(a), Value::Array(e)) if a.len() == e.len() => {
            for (i, (a, e)) in a.iter().zip(e).enumerate() {
                differences(&format!("{path}[{i}]"), a, e, found);
            }
        }
        (a, e) if a == e => {}
        (a, e) => found.push(format!("{path}: {a} != expected {e}")),
    }
}

const DATASETS: [&str; 2] = ["dataset.jsonl", "dataset_cn.jsonl"];

#[test]
fn session_values_match_the_reference() {
    let expected = expected();
    let mut found = Vec::new();
    let mut compared = 0;
    for name in DATASETS {
        let dataset = dataset(name);
        for (run_name, run) in runs(name, &dataset, &expected) {
            for (k, session) in run.sessions.iter().enumerate() {
                let case = dataset
                    .iter()
                    .find(|c| c.case_id == session.case_id)
                    .expect("a case");
                let score = score_session(case, session, &run.header);
                let actual = serde_json::json!({
                    "outcome": match score.outcome {
                        Outcome::Judged => "judged",
                        Outcome::Failure => "failure",
                        Outcome::Unavailable => "unavailable",
                    },
                    "values": score.values,
                    "degraded": score.degraded,
                });
                differences(
                    &format!("{run_name}[{k}]"),
                    &actual,
                    &expected["sessions"][&run_name][k],
                    &mut found,
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 120, "{compared} sessions compared");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn documents_match_the_reference() {
    let expected = expected();
    for name in DATASETS {
        let dataset = dataset(name);
        let runs: Vec<Run> = runs(name, &dataset, &expected)
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        let doc = serde_json::to_value(score_entries(&runs, &dataset)).expect("a document");
        let mut found = Vec::new();
        differences(name, &doc, &expected["documents"][name], &mut found);
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}

fn close(actual: f64, expected: f64) -> bool {
    (actual - expected).abs() < 1e-6
}

#[test]
fn the_worked_session_gives_the_contract_values() {
    let expected = expected();
    let dataset = dataset("dataset.jsonl");
    let runs = runs("dataset.jsonl", &dataset, &expected);
    let value = |run: &str, metric: Metric| {
        let (_, run) = runs.iter().find(|(n, _)| n == run).expect("the run");
        score_session(&dataset[0], &run.sessions[0], &run.header).values[&metric]
    };
    // §A4.6, three judges (median).
    for (metric, want) in [
        (Metric::FactCoverage, 0.75),
        (Metric::FactResolution, 0.5),
        (Metric::Inquiry, 0.666667),
        (Metric::IssueResolution, 0.5),
        (Metric::Fidelity, 0.9),
        (Metric::Elicitation, 0.708333),
        (Metric::Resolution, 0.5),
    ] {
        assert!(close(value("run_alpha_1.jsonl", metric), want), "{metric}");
    }
    // GPT-5.1 recused for GPT-5.5: Claude and Gemini are averaged.
    for (metric, want) in [
        (Metric::FactCoverage, 0.75),
        (Metric::FactResolution, 0.375),
        (Metric::Inquiry, 0.666667),
        (Metric::IssueResolution, 0.5),
        (Metric::Fidelity, 0.875),
        (Metric::Elicitation, 0.708333),
        (Metric::Resolution, 0.4375),
    ] {
        assert!(close(value("run_gpt_1.jsonl", metric), want), "{metric}");
    }
}

#[test]
fn failures_count_zero_only_in_null_as_zero_and_partial_runs_have_no_overall() {
    let expected = expected();
    let dataset = dataset("dataset.jsonl");
    let runs: Vec<Run> = runs("dataset.jsonl", &dataset, &expected)
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    let doc = score_entries(&runs, &dataset);
    let entry = |model: &str| doc.entries.iter().find(|e| e.model == model).expect(model);
    let alpha = entry("Sim-Alpha");
    assert_eq!(alpha.runs, 3);
    assert_eq!(alpha.counts.failed(), 4);
    assert_eq!(alpha.counts.unavailable, 1);
    for metric in Metric::ALL {
        let naz = alpha.overall(metric, View::NullAsZero).expect("overall");
        let valid = alpha.overall(metric, View::ValidOnly).expect("overall");
        assert!(valid.mean >= naz.mean, "{metric}");
        assert!(naz.std.is_some());
    }
    let partial = entry("Sim-Beta");
    assert!(partial.null_as_zero.overall.is_none());
    assert!(partial.null_as_zero.by_jurisdiction.is_empty());
    assert_eq!(partial.null_as_zero.style_gap.len(), 1);
    assert!(entry("Sim-Delta").null_as_zero.style_gap.is_empty());
    assert!(entry("GPT-5.5").counts.unavailable_metrics[&Metric::FactCoverage] >= 1);
    // 5 cases × 4 styles, one of them no_memo: GPT-5.1 recused from the other 19.
    assert_eq!(entry("GPT-5.5").diagnostics.judges[0].recused, 19);

    let cn = self::dataset("dataset_cn.jsonl");
    let cn_runs: Vec<Run> = self::runs("dataset_cn.jsonl", &cn, &expected)
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    let doc = score_entries(&cn_runs, &cn);
    let gamma = &doc.entries[0];
    assert!(gamma.single_jurisdiction);
    let overall = gamma
        .overall(Metric::Resolution, View::NullAsZero)
        .expect("overall");
    let cn_only = gamma.null_as_zero.by_jurisdiction[&engine::dlawbench::dataset::Jurisdiction::Cn]
        [&Metric::Resolution]
        .expect("cn");
    assert!(close(overall.mean, cn_only.mean));
}

/// [D]'s Table 22 for every metric, every three-judge observation of every
/// run pooled, against the Python reference's pooling of its own
/// per-session |median − mean| values.
#[test]
fn table_22_matches_the_reference_for_every_metric() {
    use engine::dlawbench::leaderboard::aggregation_table;
    use engine::dlawbench::score::score_run;

    let expected = expected();
    for name in DATASETS {
        let dataset = dataset(name);
        let scored: Vec<_> = runs(name, &dataset, &expected)
            .into_iter()
            .map(|(_, r)| (r.header.entry_key(), score_run(&r, &dataset)))
            .collect();
        let table = aggregation_table(&scored);
        assert_eq!(table.runs, scored.len());
        assert_eq!(table.rows.len(), Metric::ALL.len(), "{name}: every metric");
        let rows: serde_json::Map<String, Value> = table
            .rows
            .iter()
            .map(|r| {
                let row = serde_json::json!({
                    "observations": r.observations,
                    "mean_abs": r.mean_abs,
                    "share_over_005": r.share_over_005,
                });
                (r.metric.as_str().to_owned(), row)
            })
            .collect();
        let mut found = Vec::new();
        differences(
            name,
            &Value::Object(rows),
            &expected["table_22"][name],
            &mut found,
        );
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}
