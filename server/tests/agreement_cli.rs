//! `lexpilot agreement` as a maintainer runs it: the JSON report reproduces
//! the scikit-learn / statsmodels figures of the engine's agreement fixture,
//! the table names every pair, and bad files fail with exit code 1 and
//! messages naming the file, line and field.

mod common;

use common::cli::{lexpilot, text, write};
use common::json::assert_close;
use serde_json::Value;

const FIXTURE: &str = include_str!("../../engine/tests/fixtures/agreement/reference.json");
const VERDICTS: &str = "supported,partially_supported,dismissed";

/// The first fixture case with an ordinal order and at least three pairs.
fn ordinal_case() -> Value {
    let fixture: Value = serde_json::from_str(FIXTURE).expect("the fixture parses");
    fixture["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| {
            !c["ordinal"].is_null() && c["expected"]["pairs"].as_array().map_or(0, Vec::len) >= 3
        })
        .cloned()
        .expect("an ordinal case with three annotators or more")
}

fn jsonl(annotations: &Value) -> String {
    annotations
        .as_array()
        .expect("annotations")
        .iter()
        .map(|a| format!("{a}\n"))
        .collect()
}

#[test]
fn json_output_is_the_reference_report() {
    let case = ordinal_case();
    let dir = tempfile::tempdir().expect("dir");
    let file = write(
        dir.path(),
        "annotations.jsonl",
        &jsonl(&case["annotations"]),
    );

    let out = lexpilot(&["agreement", &file, "--json", "--ordinal", VERDICTS], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_close(&report, &case["expected"], "report", 1e-12);

    // Without an order, every qwk is null and the rest is unchanged.
    let out = lexpilot(&["agreement", &file, "--json"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let plain: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let mut expected = case["expected"].clone();
    for pair in expected["pairs"].as_array_mut().expect("pairs") {
        pair["qwk"] = Value::Null;
    }
    assert_close(&plain, &expected, "report", 1e-12);
}

#[test]
fn the_table_lists_every_pair_and_fleiss_kappa() {
    let dir = tempfile::tempdir().expect("dir");
    let file = write(
        dir.path(),
        "lca.jsonl",
        "{\"item\": \"LCA-01\", \"annotator\": \"专家甲\", \"label\": \"predict\"}\n\
         {\"item\": \"LCA-01\", \"annotator\": \"专家乙\", \"label\": \"predict\"}\n\
         {\"item\": \"LCA-02\", \"annotator\": \"专家甲\", \"label\": \"ask\"}\n\
         {\"item\": \"LCA-02\", \"annotator\": \"专家乙\", \"label\": \"predict\"}\n\
         {\"item\": \"LCA-03\", \"annotator\": \"专家甲\", \"label\": \"ask\"}\n\
         {\"item\": \"LCA-03\", \"annotator\": \"专家乙\", \"label\": \"ask\"}\n",
    );
    let out = lexpilot(&["agreement", &file], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "{table}");
    assert!(lines[0].starts_with("annotator a") && lines[0].ends_with("kappa"));
    assert!(!lines[0].contains("QWK"));
    assert!(
        lines[1].starts_with("专家乙") && lines[1].contains("专家甲") && lines[1].contains("66.7%"),
        "{table}"
    );
    assert!(lines[1].ends_with("0.4000"), "{table}");
    assert_eq!(
        lines[2],
        "Fleiss' kappa (items labelled by every annotator): 0.3333"
    );

    let with_order = lexpilot(&["agreement", &file, "--ordinal", "predict,ask"], None);
    assert!(with_order.status.success());
    assert!(text(&with_order.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .ends_with("QWK"));
}

#[test]
fn errors_name_the_file_line_and_field_and_exit_1() {
    let dir = tempfile::tempdir().expect("dir");
    let bad = write(
        dir.path(),
        "bad.jsonl",
        "{\"item\": \"c1\", \"annotator\": \"专家甲\", \"label\": \"supported\"}\n\
         {\"item\": \"c1\", \"annotator\": \"专家乙\", \"label\": 2}\n\
         {\"item\": \"c1\", \"annotator\": \"专家甲\", \"label\": \"dismissed\"}\n\
         {\"item\": \"c2\", \"annotator\": \"专家甲\", \"label\": \"won\"}\n",
    );
    let out = lexpilot(&["agreement", &bad, "--json", "--ordinal", VERDICTS], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.jsonl: line 2, field label: expected a string, got a number"),
        "{err}"
    );
    assert!(
        err.contains(
            "bad.jsonl: line 3, field item: item \"c1\" is already labelled by annotator \
             \"专家甲\" on line 1"
        ),
        "{err}"
    );
    assert!(
        err.contains("bad.jsonl: line 4, field label: label \"won\" is not in the ordinal order"),
        "{err}"
    );

    let good = write(
        dir.path(),
        "good.jsonl",
        "{\"item\": \"c1\", \"annotator\": \"专家甲\", \"label\": \"supported\"}\n",
    );
    let repeated = lexpilot(
        &["agreement", &good, "--ordinal", "supported,supported"],
        None,
    );
    assert_eq!(repeated.status.code(), Some(1));
    assert!(text(&repeated.stderr).contains("--ordinal"));

    let empty = write(dir.path(), "empty.jsonl", "\n");
    let out = lexpilot(&["agreement", &empty], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("empty.jsonl: the file holds no annotations"));

    let missing = dir.path().join("missing.jsonl");
    let out = lexpilot(&["agreement", &missing.to_string_lossy()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("missing.jsonl"));
}
