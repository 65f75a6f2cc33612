//! Rejection rules of the run file (`docs/formats.md` §3): each test breaks one
//! rule of an otherwise valid run and checks the line and field reported.

use engine::core::entry::Family;
use engine::core::errors::{RunError, MAX_ERRORS};
use engine::lexpilot::dataset::{parse_dataset, Case};
use engine::lexpilot::run::{parse_run, parse_run_reader, Task};
use engine::vocab::{LjpSetup, CAUSES};
use serde_json::{json, Value};

/// One dataset line: a case of the given cause with `claims` claims.
fn case_json(case_id: &str, cause: &str, class: &str, claims: usize) -> Value {
    let verdicts = ["supported", "partially_supported", "dismissed"];
    json!({
        "case_id": case_id,
        "cause": cause,
        "class": class,
        "plaintiff_type": "natural",
        "claims": (0..claims)
            .map(|i| json!({"id": format!("c{}", i + 1), "text": "诉请", "verdict": verdicts[i % 3]}))
            .collect::<Vec<_>>(),
        "focal_points": [{"id": "f1", "text": "争议焦点", "type": "other"}],
        "key_facts": [{"id": "k1", "focal_point": "f1", "text": "关键事实"}],
        "missing_facts": ["k1"],
        "consultations": {
            "complete": [{"role": "user", "content": "完整的陈述"}],
            "underspecified": [{"role": "user", "content": "缺失的陈述"}]
        }
    })
}

fn dataset_of(lines: &[Value]) -> Vec<Case> {
    let text: String = lines.iter().map(|v| format!("{v}\n")).collect();
    parse_dataset(&text).unwrap_or_else(|e| panic!("a valid dataset: {e}"))
}

/// Three cases: A (family, 2 claims), B (tort, 1 claim), C (family, 1 claim).
fn tiny_dataset() -> Vec<Case> {
    dataset_of(&[
        case_json("A", "离婚纠纷", "family", 2),
        case_json("B", "名誉权纠纷", "tort", 1),
        case_json("C", "离婚纠纷", "family", 1),
    ])
}

/// `n` cases cycling through the 36 causes, with one to three claims each.
fn generated_dataset(n: usize) -> Vec<Case> {
    let lines: Vec<Value> = (0..n)
        .map(|i| {
            let cause = &CAUSES[i % CAUSES.len()];
            case_json(
                &format!("LP-{i:04}"),
                cause.name_zh,
                cause.class.as_str(),
                1 + i % 3,
            )
        })
        .collect();
    dataset_of(&lines)
}

/// Builds a valid run as JSON lines (the header, then every item of every
/// task for every case), with methods to break it. Line `n` of the file is
/// `lines[n - 1]`.
#[derive(Clone)]
struct RunBuilder {
    lines: Vec<Value>,
}

impl RunBuilder {
    fn header() -> Value {
        json!({
            "kind": "run", "model": "GPT-5.6-Sol", "family": "closed", "run": 1,
            "dataset": "lexpilot-demo", "judge": "DeepSeek-R1",
            "user_model": "DeepSeek-V4.1-Flash", "created_at": "2026-11-29T10:00:00Z"
        })
    }

    fn full(dataset: &[Case]) -> Self {
        let mut lines = vec![Self::header()];
        for case in dataset {
            for (consultation, label) in [("complete", "predict"), ("underspecified", "ask")] {
                lines.push(json!({"kind": "lca", "case_id": case.case_id,
                    "consultation": consultation, "label": label, "response": "……"}));
            }
        }
        for case in dataset {
            lines.push(json!({"kind": "dcg", "case_id": case.case_id, "requests": [
                {"text": "请问……？", "accepted": false}, {"text": "请问……？", "accepted": true}
            ]}));
        }
        for setup in ["direct", "interaction", "gold"] {
            for case in dataset {
                let predictions: Vec<&str> =
                    case.claims.iter().map(|c| c.verdict.as_str()).collect();
                lines.push(
                    json!({"kind": "ljp", "case_id": case.case_id, "setup": setup,
                    "predictions": predictions, "response": "……",
                    "dialogue": [{"role": "assistant", "content": "请问……？"},
                                 {"role": "user", "content": "……"}]}),
                );
            }
        }
        Self { lines }
    }

    /// The 1-based line of the first item matching every (key, value) given.
    fn line_of(&self, fields: &[(&str, &str)]) -> usize {
        let index = self
            .lines
            .iter()
            .position(|v| {
                fields
                    .iter()
                    .all(|(k, want)| v.get(*k) == Some(&json!(want)))
            })
            .unwrap_or_else(|| panic!("no line with {fields:?}"));
        index + 1
    }

    /// Sets the value at a JSON pointer of a line, creating the last key.
    fn set(mut self, line: usize, pointer: &str, v: Value) -> Self {
        let (parent, key) = pointer.rsplit_once('/').expect("a JSON pointer");
        match self.lines[line - 1]
            .pointer_mut(parent)
            .expect("an existing parent")
        {
            Value::Object(map) => {
                map.insert(key.to_owned(), v);
            }
            Value::Array(items) => items[key.parse::<usize>().expect("an index")] = v,
            other => panic!("cannot set {pointer} inside {other}"),
        }
        self
    }

    /// Removes a key of a line.
    fn remove(mut self, line: usize, key: &str) -> Self {
        let map = self.lines[line - 1]
            .as_object_mut()
            .expect("an object line");
        map.remove(key).expect("an existing key");
        self
    }

    fn remove_line(mut self, line: usize) -> Self {
        self.lines.remove(line - 1);
        self
    }

    /// Appends a line (a copy of line `copy_of`, with changes made through `set`).
    fn push_copy(mut self, copy_of: usize) -> Self {
        self.lines.push(self.lines[copy_of - 1].clone());
        self
    }

    fn push(mut self, line: Value) -> Self {
        self.lines.push(line);
        self
    }

    fn last(&self) -> usize {
        self.lines.len()
    }

    fn text(&self) -> String {
        self.lines.iter().map(|v| format!("{v}\n")).collect()
    }
}

fn errors(text: &str, dataset: &[Case]) -> Vec<RunError> {
    match parse_run(text, dataset) {
        Ok(run) => panic!(
            "expected errors, parsed a run of {} lca items",
            run.lca.len()
        ),
        Err(e) => e.0,
    }
}

/// Asserts the run fails with exactly one error, at `field` of `line`.
fn single_error(b: &RunBuilder, line: usize, field: &str) -> RunError {
    let errors = errors(&b.text(), &tiny_dataset());
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = errors.into_iter().next().expect("one error");
    assert_eq!((e.line, e.field.as_str()), (line, field), "{e}");
    e
}

fn valid() -> RunBuilder {
    RunBuilder::full(&tiny_dataset())
}

#[test]
fn the_builder_makes_a_valid_run() {
    let dataset = tiny_dataset();
    let run = parse_run(&valid().text(), &dataset).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(run.header.model, "GPT-5.6-Sol");
    assert_eq!(run.header.family, Some(Family::Closed));
    assert_eq!(run.header.run, 1);
    assert_eq!(run.header.judge.as_deref(), Some("DeepSeek-R1"));
    assert_eq!((run.lca.len(), run.dcg.len(), run.ljp.len()), (6, 3, 9));
    assert_eq!(run.tasks(), Task::ALL);
    assert_eq!(run.ljp_setups(), LjpSetup::ALL);
    assert_eq!(run.unavailable().total(), 0);
    assert_eq!(run.ljp[0].dialogue.as_ref().map(Vec::len), Some(2));
}

#[test]
fn a_run_reads_back_from_its_own_jsonl() {
    let dataset = tiny_dataset();
    let b = valid()
        .set(2, "/label", Value::Null)
        .set(2, "/unavailable", json!("judge timed out"))
        .set(1, "/seed_of_sampling", json!(17));
    let run = parse_run(&b.text(), &dataset).unwrap_or_else(|e| panic!("{e}"));
    let again = parse_run(&run.to_jsonl(), &dataset).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again, run);
}

#[test]
fn optional_fields_may_be_absent_or_null_and_unknown_keys_are_kept_or_ignored() {
    let dataset = tiny_dataset();
    let dcg = valid().line_of(&[("kind", "dcg")]);
    let ljp = valid().line_of(&[("kind", "ljp")]);
    let b = valid()
        .remove(1, "family")
        .remove(1, "judge")
        .set(1, "/user_model", Value::Null)
        .set(1, "/pipeline", json!({"version": 3}))
        .remove(2, "response")
        .set(2, "/annotator", json!("张三"))
        .set(dcg, "/requests/0/text", Value::Null)
        .remove(ljp, "dialogue")
        .set(ljp, "/response", Value::Null);
    let run = parse_run(&b.text(), &dataset).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(run.header.family, None);
    assert_eq!(run.header.judge, None);
    assert_eq!(run.header.user_model, None);
    assert_eq!(
        run.header.extra.get("pipeline"),
        Some(&json!({"version": 3}))
    );
    assert_eq!(run.header.extra.len(), 1);
    assert_eq!(run.lca[0].response, None);
    assert_eq!(run.dcg[0].requests[0].text, None);
    assert_eq!((&run.ljp[0].dialogue, &run.ljp[0].response), (&None, &None));
}

#[test]
fn a_run_may_contain_any_subset_of_tasks_and_setups() {
    let dataset = tiny_dataset();
    let mut b = RunBuilder {
        lines: vec![RunBuilder::header()],
    };
    for line in valid().lines {
        if line["setup"] == "gold" {
            b = b.push(line);
        }
    }
    let run = parse_run(&b.text(), &dataset).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(run.tasks(), [Task::Ljp]);
    assert_eq!(run.ljp_setups(), [LjpSetup::Gold]);
}

#[test]
fn blank_lines_and_a_byte_order_mark_are_allowed_and_lines_still_count() {
    let dataset = tiny_dataset();
    let text = format!("\u{feff}{}\n\n", valid().text());
    assert!(parse_run(&text, &dataset).is_ok());

    let broken = valid().set(3, "/label", json!("guess")).text();
    let text = format!("\n{}", broken);
    let errors = errors(&text, &dataset);
    assert_eq!((errors[0].line, errors[0].field.as_str()), (4, "label"));
}

// Header rules.

#[test]
fn the_first_line_must_be_the_header() {
    let dataset = tiny_dataset();
    let mut b = valid();
    b.lines.swap(0, 1);
    let errors = errors(&b.text(), &dataset);
    let found: Vec<(usize, &str)> = errors.iter().map(|e| (e.line, e.field.as_str())).collect();
    assert_eq!(found, [(1, "kind"), (2, "kind")], "{errors:#?}");
    assert!(errors[0].message.contains("run header"), "{}", errors[0]);
    assert!(
        errors[1].message.contains("second run header"),
        "{}",
        errors[1]
    );
}

#[test]
fn a_second_header_is_rejected() {
    let b = valid().push(RunBuilder::header());
    let e = single_error(&b, b.last(), "kind");
    assert!(e.message.contains("line 1"), "{e}");
}

#[test]
fn model_is_required_and_not_empty() {
    single_error(&valid().remove(1, "model"), 1, "model");
    single_error(&valid().set(1, "/model", json!("  ")), 1, "model");
    single_error(&valid().set(1, "/model", json!(5)), 1, "model");
}

#[test]
fn run_is_a_whole_number_of_at_least_one() {
    single_error(&valid().remove(1, "run"), 1, "run");
    for bad in [json!(0), json!(-1), json!(1.5), json!("1"), Value::Null] {
        let e = single_error(&valid().set(1, "/run", bad.clone()), 1, "run");
        assert!(e.message.contains("from 1"), "{bad}: {e}");
    }
}

#[test]
fn family_is_a_known_family() {
    let e = single_error(
        &valid().set(1, "/family", json!("proprietary")),
        1,
        "family",
    );
    assert!(e.message.contains("legal, open, closed"), "{e}");
}

#[test]
fn the_benchmark_is_lexpilot_when_given_and_another_benchmark_is_refused() {
    let dataset = tiny_dataset();
    let explicit = valid().set(1, "/benchmark", json!("lexpilot"));
    let run = parse_run(&explicit.text(), &dataset).unwrap_or_else(|e| panic!("{e}"));
    assert!(run.header.extra.is_empty(), "benchmark is no extra key");
    assert_eq!(
        run.header.entry_key(),
        parse_run(&valid().text(), &dataset)
            .expect("valid")
            .header
            .entry_key(),
        "an explicit lexpilot is the same entry as none"
    );
    let other = single_error(
        &valid().set(1, "/benchmark", json!("plawbench")),
        1,
        "benchmark",
    );
    assert!(other.message.contains("PLawBench run"), "{other}");
    let unknown = single_error(
        &valid().set(1, "/benchmark", json!("lawbench")),
        1,
        "benchmark",
    );
    assert!(
        unknown.message.contains("lexpilot, dlawbench, plawbench"),
        "{unknown}"
    );
}

#[test]
fn model_names_follow_the_name_rule() {
    for (model, message) in [
        (json!("bad\u{0}name"), "control character"),
        (json!("m".repeat(201)), "at most 200"),
    ] {
        let e = single_error(&valid().set(1, "/model", model), 1, "model");
        assert!(e.message.contains(message), "{e}");
    }
    single_error(&valid().set(1, "/judge", json!("J\nudge")), 1, "judge");
}

#[test]
fn header_text_fields_are_strings() {
    single_error(
        &valid().set(1, "/judge", json!(["DeepSeek-R1"])),
        1,
        "judge",
    );
}

#[test]
fn an_empty_file_or_a_header_alone_has_no_items() {
    let dataset = tiny_dataset();
    for text in ["", "\n\n"] {
        let errors = errors(text, &dataset);
        assert_eq!(errors.len(), 1, "{errors:#?}");
        assert_eq!(errors[0].line, 1);
        assert!(errors[0].message.contains("no items"), "{}", errors[0]);
    }
    let header_only = RunBuilder {
        lines: vec![RunBuilder::header()],
    };
    let errors = errors(&header_only.text(), &dataset);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].line, 1);
    assert!(errors[0].message.contains("no items"), "{}", errors[0]);
}

// Line rules.

#[test]
fn invalid_json_and_non_objects_are_reported_by_line() {
    let dataset = tiny_dataset();
    let mut text = valid().text();
    text.push_str("{\"kind\": \"lca\",\n[1, 2]\n");
    let errors = errors(&text, &dataset);
    let last = valid().last();
    let found: Vec<(usize, &str)> = errors.iter().map(|e| (e.line, e.field.as_str())).collect();
    assert_eq!(found, [(last + 1, ""), (last + 2, "")], "{errors:#?}");
    assert!(
        errors[0].message.starts_with("invalid JSON"),
        "{}",
        errors[0]
    );
    assert!(errors[1].message.contains("JSON object"), "{}", errors[1]);
}

#[test]
fn a_line_that_is_not_utf8_is_reported() {
    let dataset = tiny_dataset();
    let mut bytes = valid().text().into_bytes();
    bytes.extend_from_slice(b"{\"kind\": \"lca\", \"case_id\": \"\xff\"}\n");
    let errors = match parse_run_reader(bytes.as_slice(), &dataset) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e.0,
    };
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].line, valid().last() + 1);
    assert!(errors[0].message.contains("UTF-8"), "{}", errors[0]);
}

#[test]
fn an_unknown_kind_is_rejected() {
    let b = valid().push(json!({"kind": "summary", "case_id": "A"}));
    let e = single_error(&b, b.last(), "kind");
    assert!(e.message.contains("lca, dcg, ljp"), "{e}");
    let b = valid().push(json!({"case_id": "A"}));
    single_error(&b, b.last(), "kind");
}

#[test]
fn an_unknown_case_id_is_rejected() {
    let b = valid().push_copy(2);
    let last = b.last();
    let b = b.set(last, "/case_id", json!("Z"));
    let e = single_error(&b, last, "case_id");
    assert_eq!(e.case_id.as_deref(), Some("Z"));
    assert!(e.message.contains("unknown case_id \"Z\""), "{e}");
}

#[test]
fn case_id_is_required() {
    let b = valid().push(json!({"kind": "dcg", "requests": []}));
    single_error(&b, b.last(), "case_id");
}

// Duplicates.

#[test]
fn a_duplicate_lca_item_names_the_first_line() {
    let b = valid();
    let first = b.line_of(&[("case_id", "B"), ("consultation", "underspecified")]);
    let b = b.push_copy(first);
    let e = single_error(&b, b.last(), "consultation");
    assert_eq!(e.case_id.as_deref(), Some("B"));
    assert!(e.message.contains(&format!("line {first}")), "{e}");
    assert!(e.message.contains("(B, underspecified)"), "{e}");
}

#[test]
fn a_duplicate_dcg_item_names_the_first_line() {
    let b = valid();
    let first = b.line_of(&[("kind", "dcg"), ("case_id", "C")]);
    let b = b.push_copy(first);
    let e = single_error(&b, b.last(), "case_id");
    assert!(e.message.contains(&format!("line {first}")), "{e}");
}

#[test]
fn a_duplicate_ljp_item_names_the_first_line() {
    let b = valid();
    let first = b.line_of(&[("case_id", "A"), ("setup", "gold")]);
    let b = b.push_copy(first);
    let e = single_error(&b, b.last(), "setup");
    assert!(e.message.contains(&format!("line {first}")), "{e}");
    assert!(e.message.contains("(A, gold)"), "{e}");
}

// Coverage.

#[test]
fn an_lca_task_must_cover_every_case_and_consultation() {
    let b = valid();
    let gone = b.line_of(&[("case_id", "B"), ("consultation", "complete")]);
    let b = b.remove_line(gone);
    let first_lca = b.line_of(&[("kind", "lca")]);
    let e = single_error(&b, first_lca, "case_id");
    assert!(e.message.contains("5 of the 6"), "{e}");
    assert!(e.message.contains("missing: (B, complete)"), "{e}");
}

#[test]
fn a_dcg_task_must_cover_every_case() {
    let b = valid();
    let gone = b.line_of(&[("kind", "dcg"), ("case_id", "A")]);
    let b = b.remove_line(gone);
    let first_dcg = b.line_of(&[("kind", "dcg")]);
    let e = single_error(&b, first_dcg, "case_id");
    assert!(e.message.contains("missing: A."), "{e}");
}

#[test]
fn each_ljp_setup_present_must_cover_every_case() {
    let b = valid();
    let gone = b.line_of(&[("case_id", "C"), ("setup", "interaction")]);
    let b = b.remove_line(gone);
    let first_interaction = b.line_of(&[("setup", "interaction")]);
    let e = single_error(&b, first_interaction, "case_id");
    assert!(e.message.contains("setup interaction"), "{e}");
    assert!(e.message.contains("missing: C."), "{e}");
}

#[test]
fn missing_cases_are_listed_up_to_five_then_counted() {
    let dataset = generated_dataset(9);
    let text = format!(
        "{}\n{}\n",
        RunBuilder::header(),
        json!({"kind": "dcg", "case_id": "LP-0004", "requests": []})
    );
    let errors = errors(&text, &dataset);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!((errors[0].line, errors[0].field.as_str()), (2, "case_id"));
    let m = &errors[0].message;
    assert!(m.contains("cover 1 of the 9 cases"), "{m}");
    assert!(
        m.contains("8 missing: LP-0000, LP-0001, LP-0002, LP-0003, LP-0005 and 3 more."),
        "{m}"
    );
}

// Item contents.

#[test]
fn dcg_holds_at_most_two_requests() {
    let b = valid();
    let line = b.line_of(&[("kind", "dcg")]);
    let three = json!([{"accepted": false}, {"accepted": false}, {"accepted": true}]);
    let e = single_error(&b.set(line, "/requests", three), line, "requests");
    assert!(e.message.contains("at most 2"), "{e}");
}

#[test]
fn dcg_requests_are_required_in_an_available_item() {
    let b = valid();
    let line = b.line_of(&[("kind", "dcg")]);
    single_error(&b.clone().remove(line, "requests"), line, "requests");
    single_error(
        &b.set(line, "/requests", json!({"accepted": true})),
        line,
        "requests",
    );
}

#[test]
fn ljp_predictions_give_one_verdict_per_claim() {
    let b = valid();
    let line = b.line_of(&[("case_id", "A"), ("setup", "direct")]);
    let e = single_error(
        &b.set(line, "/predictions", json!(["supported"])),
        line,
        "predictions",
    );
    assert!(
        e.message
            .contains("has 1 verdict but case A has 2 claims (c1, c2)"),
        "{e}"
    );
}

#[test]
fn unknown_vocabulary_values_name_the_allowed_ones() {
    let b = valid();
    let lca = b.line_of(&[("kind", "lca")]);
    let ljp = b.line_of(&[("kind", "ljp")]);
    let cases: [(usize, &str, Value, &str, &str); 3] = [
        (lca, "/label", json!("guess"), "label", "predict, ask"),
        (
            ljp,
            "/predictions/0",
            json!("won"),
            "predictions[0]",
            "supported, partially_supported, dismissed",
        ),
        (
            ljp,
            "/dialogue/0/role",
            json!("judge"),
            "dialogue[0].role",
            "user, assistant",
        ),
    ];
    for (line, pointer, value, field, allowed) in cases {
        let e = single_error(&b.clone().set(line, pointer, value), line, field);
        assert!(e.message.contains(allowed), "{e}");
    }
}

#[test]
fn an_unknown_consultation_or_setup_also_leaves_its_slot_uncovered() {
    let dataset = tiny_dataset();
    let b = valid();
    let lca = b.line_of(&[("kind", "lca")]);
    let ljp = b.line_of(&[("kind", "ljp")]);
    let cases = [
        (
            lca,
            "/consultation",
            json!("partial"),
            "consultation",
            "complete, underspecified",
        ),
        (
            ljp,
            "/setup",
            json!("oracle"),
            "setup",
            "direct, interaction, gold",
        ),
    ];
    for (line, pointer, value, field, allowed) in cases {
        let errors = errors(&b.clone().set(line, pointer, value).text(), &dataset);
        assert_eq!(errors.len(), 2, "{errors:#?}");
        assert_eq!((errors[0].line, errors[0].field.as_str()), (line, field));
        assert!(errors[0].message.contains(allowed), "{}", errors[0]);
        assert_eq!(errors[1].field, "case_id");
        assert!(errors[1].message.contains("missing: "), "{}", errors[1]);
    }
}

#[test]
fn wrongly_typed_fields_are_rejected() {
    let b = valid();
    let dcg = b.line_of(&[("kind", "dcg")]);
    let ljp = b.line_of(&[("kind", "ljp")]);
    single_error(
        &b.clone().set(dcg, "/requests/1/accepted", json!("yes")),
        dcg,
        "requests[1].accepted",
    );
    single_error(
        &b.clone().set(dcg, "/requests/1", json!("请问")),
        dcg,
        "requests[1]",
    );
    single_error(
        &b.clone().set(ljp, "/predictions", json!("supported")),
        ljp,
        "predictions",
    );
    single_error(&b.clone().set(ljp, "/response", json!(1)), ljp, "response");
    single_error(&b.set(2, "/unavailable", json!(true)), 2, "unavailable");
}

// Unavailable items.

#[test]
fn unavailable_items_have_no_label_and_are_kept() {
    let dataset = tiny_dataset();
    let b = valid();
    let dcg = b.line_of(&[("kind", "dcg"), ("case_id", "B")]);
    let ljp = b.line_of(&[("kind", "ljp"), ("case_id", "A")]);
    let b = b
        .set(2, "/label", Value::Null)
        .set(
            2,
            "/unavailable",
            json!("judge reply did not name a strategy"),
        )
        .set(dcg, "/requests/0/accepted", Value::Null)
        .set(dcg, "/requests/1/accepted", Value::Null)
        .set(dcg, "/unavailable", json!("judge timed out"))
        .set(ljp, "/predictions", Value::Null)
        .set(ljp, "/unavailable", json!("verdict extraction failed"));
    let run = parse_run(&b.text(), &dataset).unwrap_or_else(|e| panic!("{e}"));
    let counts = run.unavailable();
    assert_eq!((counts.lca, counts.dcg, counts.total()), (1, 1, 3));
    assert_eq!(counts.ljp.get(&LjpSetup::Direct), Some(&1));
    assert_eq!(counts.ljp.get(&LjpSetup::Gold), Some(&0));
    assert_eq!(run.lca.len(), 6);
    assert_eq!(run.dcg[1].hit(), None);
}

#[test]
fn an_unavailable_dcg_item_may_omit_its_requests() {
    let dataset = tiny_dataset();
    let b = valid();
    let dcg = b.line_of(&[("kind", "dcg")]);
    let b = b
        .remove(dcg, "requests")
        .set(dcg, "/unavailable", json!("the model did not reply"));
    let run = parse_run(&b.text(), &dataset).unwrap_or_else(|e| panic!("{e}"));
    assert!(run.dcg[0].requests.is_empty());
}

#[test]
fn an_unavailable_item_must_not_carry_a_label() {
    let b = valid();
    let dcg = b.line_of(&[("kind", "dcg")]);
    let ljp = b.line_of(&[("kind", "ljp")]);
    let e = single_error(
        &b.clone().set(2, "/unavailable", json!("timeout")),
        2,
        "label",
    );
    assert!(e.message.contains("must be null"), "{e}");
    single_error(
        &b.clone().set(ljp, "/unavailable", json!("timeout")),
        ljp,
        "predictions",
    );
    // Request 0 is already null; request 1 still carries a judgement.
    let b =
        b.set(dcg, "/requests/0/accepted", Value::Null)
            .set(dcg, "/unavailable", json!("timeout"));
    single_error(&b, dcg, "requests[1].accepted");
}

#[test]
fn an_item_without_a_label_must_say_why() {
    let b = valid();
    let dcg = b.line_of(&[("kind", "dcg")]);
    let ljp = b.line_of(&[("kind", "ljp")]);
    let e = single_error(&b.clone().set(2, "/label", Value::Null), 2, "label");
    assert!(e.message.contains("unavailable"), "{e}");
    single_error(&b.clone().remove(2, "label"), 2, "label");
    single_error(
        &b.clone().set(ljp, "/predictions", Value::Null),
        ljp,
        "predictions",
    );
    single_error(
        &b.set(dcg, "/requests/1/accepted", Value::Null),
        dcg,
        "requests[1].accepted",
    );
}

#[test]
fn the_reason_for_unavailable_is_not_empty() {
    let b = valid()
        .set(2, "/label", Value::Null)
        .set(2, "/unavailable", json!(" "));
    single_error(&b, 2, "unavailable");
}

// Collecting errors.

#[test]
fn errors_of_every_line_are_collected_in_line_order() {
    let dataset = tiny_dataset();
    let b = valid()
        .set(3, "/label", json!("guess"))
        .set(5, "/consultation", json!("partial"))
        .set(1, "/run", json!(0));
    let found: Vec<(usize, String)> = errors(&b.text(), &dataset)
        .into_iter()
        .map(|e| (e.line, e.field))
        .collect();
    // Line 5 was (B, underspecified): that pair is now reported missing, on
    // the line of the first lca item, after the errors of single lines.
    assert_eq!(
        found,
        [
            (1, "run".to_owned()),
            (3, "label".to_owned()),
            (5, "consultation".to_owned()),
            (2, "case_id".to_owned()),
        ]
    );
}

#[test]
fn errors_beyond_the_cap_are_counted() {
    let dataset = tiny_dataset();
    let mut b = valid();
    for _ in 0..MAX_ERRORS + 20 {
        b = b.push(json!({"kind": "lca", "case_id": "Z"}));
    }
    let errors = errors(&b.text(), &dataset);
    assert_eq!(errors.len(), MAX_ERRORS + 1);
    let summary = &errors[MAX_ERRORS];
    assert!(summary.message.contains("more error"), "{summary}");
}

// Size.

#[test]
fn a_full_run_of_432_cases_streams_from_a_reader() {
    let dataset = generated_dataset(432);
    let text = RunBuilder::full(&dataset).text();
    let reader = std::io::BufReader::with_capacity(4096, text.as_bytes());
    let run = parse_run_reader(reader, &dataset).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (run.lca.len(), run.dcg.len(), run.ljp.len()),
        (864, 432, 1296)
    );
    assert_eq!(run.ljp.last().map(|i| i.case_id.as_str()), Some("LP-0431"));
    let again = parse_run(&run.to_jsonl(), &dataset).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again, run);
}
