//! PLawBench scores against reference values computed independently by
//! `tests/reference/plawbench_scores.py` (Python, standard library), which
//! wrote the dataset, the runs and `expected.json` under
//! `tests/fixtures/plawbench/reference/`: clamping, the §B4.1 test vectors,
//! unavailable seats and items, panels of 1, 2 and 3 judges with mean and
//! median, absent tasks, repeats; and the §B5 P7 row that holds.

use std::path::{Path, PathBuf};

use engine::plawbench::dataset::Task;
use engine::plawbench::dataset::{parse_dataset, Item};
use engine::plawbench::run::{parse_run, Run};
use engine::plawbench::score::{score_entries, score_item, Metric, RunScores, TaskScores};
use serde_json::Value;

const TOLERANCE: f64 = 1e-12;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/plawbench/reference")
}

fn read(name: &str) -> String {
    let path = dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn expected() -> Value {
    serde_json::from_str(&read("expected.json")).expect("expected.json")
}

fn dataset() -> Vec<Item> {
    parse_dataset(&read("dataset.jsonl")).unwrap_or_else(|e| panic!("{e}"))
}

fn runs(dataset: &[Item], expected: &Value) -> Vec<(String, Run)> {
    expected["runs"]
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
/// equal strings and nulls, numbers within [`TOLERANCE`].
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

#[test]
fn item_values_match_the_reference() {
    let dataset = dataset();
    let expected = expected();
    let mut found = Vec::new();
    let mut compared = 0;
    for (name, run) in runs(&dataset, &expected) {
        for judged in &run.items {
            let item = dataset
                .iter()
                .find(|i| i.item_id == judged.item_id)
                .expect("an item");
            let panel = score_item(item, judged, run.header.judge_aggregation).panel;
            let actual = match panel {
                None => Value::Null,
                Some(p) => {
                    let mut v = serde_json::Map::new();
                    v.insert("acc".into(), Value::from(p.acc));
                    for (s, x) in p.sections {
                        v.insert(s.metric().into(), Value::from(x));
                    }
                    Value::Object(v)
                }
            };
            let want = &expected["items"][&name][&judged.item_id];
            differences(
                &format!("{name}/{}", judged.item_id),
                &actual,
                want,
                &mut found,
            );
            compared += 1;
        }
    }
    assert!(compared > 50, "{compared} items compared");
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_score_document_matches_the_reference() {
    let dataset = dataset();
    let expected = expected();
    let runs: Vec<Run> = runs(&dataset, &expected)
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    let document = serde_json::to_value(score_entries(&runs, &dataset)).expect("serialises");
    let mut found = Vec::new();
    differences("", &document, &expected["document"], &mut found);
    assert!(found.is_empty(), "{}", found.join("\n"));

    // What the reference covers, stated.
    let entries = document["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 4);
    assert_eq!(entries[0]["runs"], 3);
    assert!(entries[0]["overall"]["std"].is_f64());
    assert!(entries[2].get("overall").is_none() && entries[2].get("task3").is_none());
    assert!(
        entries[3]["task3"].get("avg").is_none() && entries[3]["task3"]["plaintiff"].is_object()
    );
    assert_eq!(entries[0]["counts"]["truncated"]["plaintiff_statement"], 1);
    assert_eq!(entries[1]["counts"]["unavailable"]["legal_consultation"], 1);
}

#[test]
fn the_b4_1_test_vectors_hold() {
    let dataset = dataset();
    let expected = expected();
    let runs = runs(&dataset, &expected);
    let value = |run: usize, id: &str| {
        let run = &runs[run].1;
        let judged = run.items.iter().find(|i| i.item_id == id).expect(id);
        let item = dataset.iter().find(|i| i.item_id == id).expect(id);
        score_item(item, judged, run.header.judge_aggregation)
            .panel
            .expect("scored")
    };
    let vector = value(0, "case_analysis-1");
    assert_eq!(vector.acc, 0.5);
    assert_eq!(
        vector.sections.values().copied().collect::<Vec<_>>(),
        [1.0, 0.75, 0.5, 0.0]
    );
    assert_eq!(value(0, "legal_consultation-1").acc, 1.0);
    assert_eq!(value(1, "legal_consultation-1").acc, 0.0);
}

#[test]
fn the_p7_row_recomputes_its_overall() {
    // Qwen-4b-instruct-2507: Task1 58.49, Task2-Avg 53.72, Task3-Avg 39.37 (from
    // Task3-Plaintiff 31.08 and Task3-Defendant 47.66) → Overall 50.53.
    let task = |acc: f64| TaskScores {
        items: 1,
        scored: 1,
        unavailable: 0,
        truncated: 0,
        acc: Some(acc),
        sections: Default::default(),
        section_scored: Default::default(),
    };
    let scores = RunScores {
        tasks: [
            (Task::LegalConsultation, task(0.5849)),
            (Task::CaseAnalysis, task(0.5372)),
            (Task::PlaintiffStatement, task(0.3108)),
            (Task::DefendantStatement, task(0.4766)),
        ]
        .into(),
        per_sample_overall: None,
        by_category: Default::default(),
    };
    let t3 = scores.metric(Metric::Task3).expect("both drafting tasks");
    assert!((t3 * 100.0 - 39.37).abs() < 0.005 + 1e-9);
    let overall = scores.metric(Metric::Overall).expect("all three tasks") * 100.0;
    // Half a unit in the last printed digit plus the inputs' rounding (3 × 0.005 / 3).
    assert!((overall - 50.53).abs() <= 0.005 + 0.005, "{overall}");
    assert_eq!(format!("{overall:.2}"), "50.53");
}
