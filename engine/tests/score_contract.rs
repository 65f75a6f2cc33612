//! The score document of `docs/formats.md` §5 against the contract example:
//! a 24-case dataset and four runs (two models × two runs) scored
//! independently with scikit-learn (`fixtures/contract-example/`).

use std::path::{Path, PathBuf};

use engine::lexpilot::dataset::{parse_dataset_reader, Case};
use engine::lexpilot::run::{parse_run_reader, Run};
use engine::lexpilot::score::{score_entries, score_run, Metric, ScoreDocument};
use engine::vocab::{Class, LjpSetup};
use serde_json::Value;

const RUN_FILES: [&str; 4] = [
    "run_m0_1.jsonl",
    "run_m0_2.jsonl",
    "run_m1_1.jsonl",
    "run_m1_2.jsonl",
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/contract-example")
        .join(name)
}

fn reader(name: &str) -> std::io::BufReader<std::fs::File> {
    let path = fixture(name);
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    std::io::BufReader::new(file)
}

fn dataset() -> Vec<Case> {
    parse_dataset_reader(reader("dataset.jsonl")).unwrap_or_else(|e| panic!("{e}"))
}

fn runs(dataset: &[Case]) -> Vec<Run> {
    RUN_FILES
        .iter()
        .map(|name| {
            parse_run_reader(reader(name), dataset).unwrap_or_else(|e| panic!("{name}: {e}"))
        })
        .collect()
}

fn expected() -> Value {
    let text = std::fs::read_to_string(fixture("expected-score.json"))
        .unwrap_or_else(|e| panic!("cannot read expected-score.json: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("expected-score.json: {e}"))
}

/// Compares two JSON values: same structure, same key sets, same array order,
/// equal strings, booleans and nulls, numbers within 1e-9. Collects every
/// difference with its path.
fn differences(path: &str, actual: &Value, expected: &Value, found: &mut Vec<String>) {
    match (actual, expected) {
        (Value::Number(a), Value::Number(e)) => {
            let (a, e) = (a.as_f64(), e.as_f64());
            let close = matches!((a, e), (Some(a), Some(e)) if (a - e).abs() <= 1e-9);
            if !close {
                found.push(format!("{path}: {a:?} != expected {e:?}"));
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
        (Value::Array(a), Value::Array(e)) => {
            if a.len() != e.len() {
                found.push(format!(
                    "{path}: {} elements, expected {}",
                    a.len(),
                    e.len()
                ));
            }
            for (i, (a, e)) in a.iter().zip(e).enumerate() {
                differences(&format!("{path}[{i}]"), a, e, found);
            }
        }
        (a, e) if a == e => {}
        (a, e) => found.push(format!("{path}: {a} != expected {e}")),
    }
}

#[test]
fn the_contract_example_scores_as_expected() {
    let dataset = dataset();
    let runs = runs(&dataset);
    let document = score_entries(&runs, &dataset);
    let actual = serde_json::to_value(&document).unwrap_or_else(|e| panic!("{e}"));

    let mut found = Vec::new();
    differences("$", &actual, &expected(), &mut found);
    assert!(
        found.is_empty(),
        "{} differences:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_document_reads_back_to_the_same_json() {
    let dataset = dataset();
    let document = score_entries(&runs(&dataset), &dataset).with_dataset("contract-example");
    let json = serde_json::to_string(&document).unwrap_or_else(|e| panic!("{e}"));
    let back: ScoreDocument = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    // serde_json's float parsing may differ from the written number in the last
    // bit, so the read-back document is compared with the JSON read as a value,
    // whose numbers are parsed the same way: absent and null keys must survive.
    let as_value: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(serde_json::to_value(&back).ok(), Some(as_value));
    assert_eq!(back.dataset.as_deref(), Some("contract-example"));
}

#[test]
fn unavailable_items_are_counted_and_left_out() {
    let dataset = dataset();
    let runs = runs(&dataset);
    let scores = score_run(&runs[0], &dataset);
    assert_eq!(scores.unavailable.total(), 2);
    assert_eq!(scores.unavailable.lca, 1);
    assert_eq!(scores.unavailable.ljp.get(&LjpSetup::Interaction), Some(&1));
    let lca = scores
        .lca
        .as_ref()
        .and_then(|b| b.overall.as_ref())
        .expect("LCA scores");
    assert_eq!(lca.n, 2 * dataset.len() - 1);
    let family_claims = scores.ljp[&LjpSetup::Interaction]
        .get(Some(Class::Family))
        .and_then(|s| s.as_ref())
        .map(|s| s.claims);
    let all_family_claims: usize = dataset
        .iter()
        .filter(|c| c.class == Class::Family)
        .map(|c| c.claims.len())
        .sum();
    // PUB-0000 (family, 2 claims) is unavailable in the interaction setup.
    assert_eq!(family_claims, Some(all_family_claims - 2));
    assert_eq!(scores.metric(Metric::LcaMacroF1, Some(Class::Misc)), None);
}

#[test]
fn entries_keep_the_order_of_first_appearance() {
    let dataset = dataset();
    let mut runs = runs(&dataset);
    runs.reverse();
    let document = score_entries(&runs, &dataset);
    let models: Vec<&str> = document.entries.iter().map(|e| e.model.as_str()).collect();
    assert_eq!(models, ["Model-1", "Model-0"]);
    assert!(document.entries.iter().all(|e| e.runs == 2));
    assert_eq!(
        document.entries[0].key.judge.as_deref(),
        Some("DeepSeek-R1")
    );
}

#[test]
fn the_comparison_notices_numbers_keys_and_nulls() {
    let expected = serde_json::json!({"a": {"mean": 0.5, "std": null}, "b": [1, 2]});
    let mut found = Vec::new();
    differences("$", &expected, &expected, &mut found);
    assert!(found.is_empty(), "{found:?}");
    let actual = serde_json::json!({"a": {"mean": 0.5 + 1e-8, "std": 0.0}, "c": [1, 2]});
    differences("$", &actual, &expected, &mut found);
    assert_eq!(
        found,
        [
            "$.a.mean: Some(0.50000001) != expected Some(0.5)",
            "$.a.std: 0.0 != expected null",
            "$.b: missing key",
            "$.c: unexpected key",
        ]
    );
}
