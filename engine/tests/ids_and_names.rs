//! Issue 39, point 6: ids that pages link to (`/cases/{id}`,
//! `/plawbench/items/{id}`, `/dlawbench/cases/{id}`) hold no `/`, and
//! names hold no bidirectional control; each refused with its line and
//! field, on every benchmark's shipped demo data.

use engine::benchmark::{LexPilot, Suite};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../server/data");

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{DATA}/{path}")).expect("demo data")
}

/// The demo dataset `path` with the first line's `from` written as `to`.
fn first_line_with(path: &str, from: &str, to: &str) -> String {
    let text = read(path);
    let (first, rest) = text.split_once('\n').expect("lines");
    assert!(first.contains(from), "{from} in {path}");
    format!("{}\n{rest}", first.replacen(from, to, 1))
}

#[test]
fn an_id_with_a_slash_is_refused_on_every_benchmark() {
    let lexpilot = first_line_with("demo-synthetic.jsonl", "\"DEMO-0001\"", "\"DEMO/0001\"");
    let errors = engine::lexpilot::dataset::parse_dataset(&lexpilot).expect_err("refused");
    let e = &errors.0[0];
    assert_eq!((e.line, e.field.as_str()), (1, "case_id"), "{errors}");
    assert!(e.message.contains("\"/\" at character 5"), "{errors}");

    let plaw = first_line_with(
        "plawbench/demo.jsonl",
        "\"case_analysis-1\"",
        "\"case_analysis\\\\1\"",
    );
    let errors = engine::plawbench::dataset::parse_dataset(&plaw).expect_err("refused");
    let e = &errors.0[0];
    assert_eq!((e.line, e.field.as_str()), (1, "item_id"), "{errors}");
    assert!(e.message.contains("cannot contain /"), "{errors}");

    let dlaw = first_line_with(
        "dlawbench/demo.jsonl",
        "\"DL-SYN-CN-01\"",
        "\"DL/SYN-CN-01\"",
    );
    let errors = engine::dlawbench::dataset::parse_dataset(&dlaw).expect_err("refused");
    let e = &errors.0[0];
    assert_eq!((e.line, e.field.as_str()), (1, "case_id"), "{errors}");
    assert!(e.message.contains("\"/\" at character 3"), "{errors}");
}

#[test]
fn a_model_name_with_a_bidirectional_control_is_refused() {
    let cases = LexPilot::parse_dataset(&read("demo-synthetic.jsonl")).expect("the demo dataset");
    let run = read("runs/sim-frontier-2-run1.jsonl").replacen(
        "Sim-Frontier-2 (simulated)",
        "Sim-Frontier-2\u{202E}detalumis",
        1,
    );
    let errors = LexPilot::parse_run(run.as_bytes(), &cases).expect_err("refused");
    let e = &errors.0[0];
    assert_eq!((e.line, e.field.as_str()), (1, "model"), "{errors}");
    assert!(
        e.message.contains("bidirectional control U+202E"),
        "{errors}"
    );

    // PLawBench's model family too.
    let plaw = engine::plawbench::dataset::parse_dataset(&read("plawbench/demo.jsonl"))
        .expect("the demo dataset");
    let header = r#"{"kind": "run", "benchmark": "plawbench", "model": "M", "model_family": "Q\u2066wen", "run": 1, "judges": [{"model": "J"}]}"#;
    let errors = engine::plawbench::run::parse_run(header, &plaw).expect_err("refused");
    assert!(
        errors
            .0
            .iter()
            .any(|e| e.field == "model_family" && e.message.contains("U+2066")),
        "{errors}"
    );
}
