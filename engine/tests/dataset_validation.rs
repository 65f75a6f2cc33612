//! Rejection rules of the dataset file (`docs/formats.md` §2): each test breaks
//! one rule of an otherwise valid case and checks the line and field reported.
//! The warnings of the paper's construction rules
//! (`engine::lexpilot::dataset::warnings`) are checked the same way, and the
//! shipped demo dataset keeps every rule.

use engine::core::errors::{DatasetError, DatasetWarning, MAX_ERRORS};
use engine::lexpilot::dataset::{
    check_dataset, parse_case, parse_dataset, parse_dataset_reader, validate_case,
};
use engine::vocab::{Class, Consultation, CAUSES};
use serde_json::{json, Value};

/// Builds one valid dataset line, with methods to break it.
#[derive(Clone)]
struct CaseBuilder {
    value: Value,
}

impl CaseBuilder {
    fn new(case_id: &str) -> Self {
        let value = json!({
            "case_id": case_id,
            "case_number": "（2021）粤0106民初1234号",
            "cause": "离婚后财产纠纷",
            "class": "family",
            "province": "广东",
            "plaintiff_type": "natural",
            "profile": {"age": 41, "gender": "男", "occupation": "司机", "hobby": "钓鱼"},
            "provisions_cited": 3,
            "claims": [
                {"id": "c1", "text": "判令被告返还房屋份额款20万元", "verdict": "partially_supported"},
                {"id": "c2", "text": "诉讼费由被告承担", "verdict": "supported"}
            ],
            "focal_points": [
                {"id": "f1", "text": "涉案房屋出资情况及份额", "type": "rights_allocation"},
                {"id": "f2", "text": "被告是否已经返还款项", "type": "factual_conduct"}
            ],
            "key_facts": [
                {"id": "k1", "focal_point": "f1", "text": "首付款由原告父亲支付", "quote": "首付款是我父亲付的"},
                {"id": "k2", "focal_point": "f2", "text": "被告未返还任何款项"}
            ],
            "missing_facts": ["k1"],
            "consultations": {
                "complete": [
                    {"role": "user", "content": "离婚后房子归她，首付款是我父亲付的。"},
                    {"role": "assistant", "content": "她有没有还过钱？"},
                    {"role": "user", "content": "一分钱都没还。"}
                ],
                "underspecified": [
                    {"role": "user", "content": "离婚后房子归她，我能要回钱吗？"},
                    {"role": "assistant", "content": "她有没有还过钱？"},
                    {"role": "user", "content": "一分钱都没还。"}
                ]
            },
            "seed": false
        });
        Self { value }
    }

    /// Sets the value at a JSON pointer (`/claims/1/verdict`), creating the
    /// last key if the object lacks it.
    fn set(mut self, pointer: &str, v: Value) -> Self {
        let (parent, key) = pointer.rsplit_once('/').expect("a JSON pointer");
        match self.value.pointer_mut(parent).expect("an existing parent") {
            Value::Object(map) => {
                map.insert(key.to_owned(), v);
            }
            Value::Array(items) => items[key.parse::<usize>().expect("an index")] = v,
            other => panic!("cannot set {pointer} inside {other}"),
        }
        self
    }

    /// Removes the key or element at a JSON pointer.
    fn remove(mut self, pointer: &str) -> Self {
        let (parent, key) = pointer.rsplit_once('/').expect("a JSON pointer");
        match self.value.pointer_mut(parent).expect("an existing parent") {
            Value::Object(map) => {
                map.remove(key).expect("an existing key");
            }
            Value::Array(items) => {
                items.remove(key.parse::<usize>().expect("an index"));
            }
            other => panic!("cannot remove {pointer} from {other}"),
        }
        self
    }

    fn line(&self) -> String {
        self.value.to_string()
    }
}

fn file(lines: &[CaseBuilder]) -> String {
    lines.iter().map(|b| b.line() + "\n").collect()
}

fn errors(text: &str) -> Vec<DatasetError> {
    match parse_dataset(text) {
        Ok(cases) => panic!("expected errors, parsed {} cases", cases.len()),
        Err(e) => e.0,
    }
}

/// Parses a one-line file and asserts it fails with exactly one error, at
/// `field` of line 1.
fn single_error(b: CaseBuilder, field: &str) -> DatasetError {
    let errors = errors(&file(&[b]));
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = errors.into_iter().next().expect("one error");
    assert_eq!((e.line, e.field.as_str()), (1, field), "{e}");
    e
}

#[test]
fn the_builder_makes_a_valid_case() {
    let cases =
        parse_dataset(&file(&[CaseBuilder::new("LP-1"), CaseBuilder::new("LP-2")])).expect("valid");
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[1].case_id, "LP-2");
    assert_eq!(
        cases[0].key_facts[0].quote.as_deref(),
        Some("首付款是我父亲付的")
    );
}

#[test]
fn optional_fields_may_be_absent_or_null() {
    let absent = CaseBuilder::new("LP-1")
        .remove("/case_number")
        .remove("/province")
        .remove("/profile")
        .remove("/provisions_cited")
        .remove("/seed")
        .remove("/key_facts/0/quote");
    let null = CaseBuilder::new("LP-2")
        .set("/case_number", Value::Null)
        .set("/province", Value::Null)
        .set("/profile", Value::Null)
        .set("/provisions_cited", Value::Null)
        .set("/seed", Value::Null)
        .set("/key_facts/0/quote", Value::Null);
    let cases = parse_dataset(&file(&[absent, null])).expect("valid");
    for case in &cases {
        assert_eq!(case.case_number, None);
        assert_eq!(case.profile, None);
        assert_eq!(case.provisions_cited, None);
        assert!(!case.seed);
        assert_eq!(case.key_facts[0].quote, None);
    }
}

#[test]
fn unknown_keys_are_ignored_and_unknown_profile_keys_kept() {
    let b = CaseBuilder::new("LP-1").set("/annotator", json!("张三"));
    let cases = parse_dataset(&b.line()).expect("valid");
    let profile = cases[0].profile.as_ref().expect("a profile");
    assert_eq!(profile.age, Some(41));
    assert_eq!(profile.extra.get("hobby"), Some(&json!("钓鱼")));
    assert_eq!(profile.extra.len(), 1);
}

#[test]
fn duplicate_case_id_names_both_lines() {
    let text = file(&[
        CaseBuilder::new("LP-1"),
        CaseBuilder::new("LP-2"),
        CaseBuilder::new("LP-1"),
    ]);
    let errors = errors(&text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!((errors[0].line, errors[0].field.as_str()), (3, "case_id"));
    assert_eq!(errors[0].case_id.as_deref(), Some("LP-1"));
    assert!(errors[0].message.contains("line 1"), "{}", errors[0]);
}

#[test]
fn a_case_breaking_another_rule_still_claims_its_id() {
    let text = file(&[
        CaseBuilder::new("LP-1").set("/class", json!("tort")),
        CaseBuilder::new("LP-1"),
    ]);
    let found: Vec<(usize, String)> = errors(&text)
        .into_iter()
        .map(|e| (e.line, e.field))
        .collect();
    assert_eq!(found, [(1, "class".into()), (2, "case_id".into())]);
}

#[test]
fn empty_case_id_is_rejected() {
    let e = single_error(CaseBuilder::new(""), "case_id");
    assert_eq!(e.case_id, None);
    single_error(CaseBuilder::new("  "), "case_id");
    // Two empty ids are two empty ids, not also a duplicate.
    let errors = errors(&file(&[CaseBuilder::new(""), CaseBuilder::new("")]));
    assert_eq!(errors.len(), 2, "{errors:#?}");
}

#[test]
fn claims_must_not_be_empty() {
    single_error(CaseBuilder::new("LP-1").set("/claims", json!([])), "claims");
}

#[test]
fn claim_ids_must_be_unique() {
    let e = single_error(
        CaseBuilder::new("LP-1").set("/claims/1/id", json!("c1")),
        "claims[1].id",
    );
    assert!(e.message.contains("claims[0]"), "{e}");
}

#[test]
fn claim_text_must_not_be_empty() {
    single_error(
        CaseBuilder::new("LP-1").set("/claims/1/text", json!(" ")),
        "claims[1].text",
    );
}

#[test]
fn claim_ids_must_not_be_empty() {
    single_error(
        CaseBuilder::new("LP-1").set("/claims/0/id", json!("")),
        "claims[0].id",
    );
}

#[test]
fn focal_point_ids_must_be_unique() {
    // f2 is still named by key_facts[1], so the duplicate is the only problem.
    let b = CaseBuilder::new("LP-1")
        .set("/focal_points/1/id", json!("f1"))
        .set("/key_facts/1/focal_point", json!("f1"));
    single_error(b, "focal_points[1].id");
}

#[test]
fn key_fact_ids_must_be_unique() {
    single_error(
        CaseBuilder::new("LP-1").set("/key_facts/1/id", json!("k1")),
        "key_facts[1].id",
    );
}

#[test]
fn key_fact_must_name_a_focal_point() {
    let e = single_error(
        CaseBuilder::new("LP-1").set("/key_facts/1/focal_point", json!("f9")),
        "key_facts[1].focal_point",
    );
    assert!(e.message.contains("\"f9\""), "{e}");
}

#[test]
fn missing_facts_must_name_key_facts() {
    let e = single_error(
        CaseBuilder::new("LP-1").set("/missing_facts", json!(["k1", "k7"])),
        "missing_facts[1]",
    );
    assert!(e.message.contains("\"k7\""), "{e}");
}

#[test]
fn quote_must_occur_in_the_complete_consultation() {
    single_error(
        CaseBuilder::new("LP-1").set("/key_facts/1/quote", json!("他从来没有付过钱")),
        "key_facts[1].quote",
    );
    // Present in the underspecified consultation only: still rejected.
    single_error(
        CaseBuilder::new("LP-1").set("/key_facts/1/quote", json!("我能要回钱吗")),
        "key_facts[1].quote",
    );
    single_error(
        CaseBuilder::new("LP-1").set("/key_facts/1/quote", json!("")),
        "key_facts[1].quote",
    );
}

#[test]
fn quote_may_come_from_any_turn_of_the_complete_consultation() {
    let b = CaseBuilder::new("LP-1").set("/key_facts/1/quote", json!("一分钱都没还"));
    assert!(parse_dataset(&b.line()).is_ok());
}

#[test]
fn consultations_must_not_be_empty() {
    for kind in Consultation::ALL {
        let b = CaseBuilder::new("LP-1").set(&format!("/consultations/{kind}"), json!([]));
        single_error(b, &format!("consultations.{kind}"));
    }
}

#[test]
fn consultations_must_start_with_a_user_turn() {
    for kind in Consultation::ALL {
        let b = CaseBuilder::new("LP-1")
            .set(&format!("/consultations/{kind}/0/role"), json!("assistant"));
        single_error(b, &format!("consultations.{kind}[0].role"));
    }
}

#[test]
fn consultations_must_end_on_a_user_turn() {
    for kind in Consultation::ALL {
        let b = CaseBuilder::new("LP-1")
            .set(&format!("/consultations/{kind}/2/role"), json!("assistant"));
        let e = single_error(b, &format!("consultations.{kind}[2].role"));
        assert_eq!(
            e.message,
            "a consultation ends on a user turn (the model answers it), not assistant"
        );
    }
    // One turn that is the advisor's is reported once, as the wrong start.
    let b = CaseBuilder::new("LP-1")
        .set(
            "/consultations/complete",
            json!([{"role": "assistant", "content": "请讲。"}]),
        )
        .set(
            "/consultations/underspecified",
            json!([{"role": "assistant", "content": "请讲。"}]),
        )
        .remove("/key_facts/0/quote");
    let found: Vec<String> = errors(&b.line()).into_iter().map(|e| e.field).collect();
    assert_eq!(
        found,
        [
            "consultations.complete[0].role",
            "consultations.underspecified[0].role"
        ]
    );
}

#[test]
fn consultations_must_have_the_same_number_of_turns() {
    let b = CaseBuilder::new("LP-1")
        .remove("/consultations/underspecified/2")
        .remove("/consultations/underspecified/1");
    let e = single_error(b, "consultations.underspecified");
    assert!(
        e.message.contains("has 1 turn") && e.message.contains("has 3"),
        "{e}"
    );
}

#[test]
fn turn_content_must_not_be_empty() {
    let b = CaseBuilder::new("LP-1").set("/consultations/complete/1/content", json!(""));
    single_error(b, "consultations.complete[1].content");
}

#[test]
fn at_most_one_seed_per_cause() {
    let text = file(&[
        CaseBuilder::new("LP-1").set("/seed", json!(true)),
        CaseBuilder::new("LP-2")
            .set("/seed", json!(true))
            .set("/cause", json!("离婚纠纷")),
        CaseBuilder::new("LP-3"),
        CaseBuilder::new("LP-4").set("/seed", json!(true)),
    ]);
    let errors = errors(&text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!((errors[0].line, errors[0].field.as_str()), (4, "seed"));
    assert!(
        errors[0].message.contains("LP-1 on line 1"),
        "{}",
        errors[0]
    );
}

#[test]
fn cause_must_be_one_of_the_36() {
    let e = single_error(
        CaseBuilder::new("LP-1").set("/cause", json!("Divorce Dispute")),
        "cause",
    );
    assert!(e.message.contains("\"Divorce Dispute\""), "{e}");
}

#[test]
fn class_must_be_the_class_of_the_cause() {
    let e = single_error(
        CaseBuilder::new("LP-1").set("/class", json!("tort")),
        "class",
    );
    assert!(e.message.contains("family"), "{e}");
}

#[test]
fn every_cause_is_accepted_with_its_class_and_rejected_with_another() {
    for (i, cause) in CAUSES.iter().enumerate() {
        let own = CaseBuilder::new(&format!("LP-{i}"))
            .set("/cause", json!(cause.name_zh))
            .set("/class", json!(cause.class.as_str()));
        assert!(parse_dataset(&own.line()).is_ok(), "{}", cause.name_zh);
        for class in Class::ALL.into_iter().filter(|&c| c != cause.class) {
            single_error(own.clone().set("/class", json!(class)), "class");
        }
    }
}

#[test]
fn vocabulary_values_must_be_exact() {
    let cases = [
        ("/class", "Family", "class"),
        ("/plaintiff_type", "natural_person", "plaintiff_type"),
        ("/claims/1/verdict", "won", "claims[1].verdict"),
        ("/claims/0/verdict", "Supported", "claims[0].verdict"),
        ("/focal_points/0/type", "ownership", "focal_points[0].type"),
        (
            "/consultations/complete/1/role",
            "lawyer",
            "consultations.complete[1].role",
        ),
    ];
    for (pointer, value, field) in cases {
        let e = single_error(CaseBuilder::new("LP-1").set(pointer, json!(value)), field);
        assert!(e.message.contains(&format!("\"{value}\"")), "{e}");
        assert!(e.message.contains("expected one of"), "{e}");
    }
}

#[test]
fn unknown_verdict_message_reads_well() {
    let e = single_error(
        CaseBuilder::new("LP-0003").set("/claims/1/verdict", json!("won")),
        "claims[1].verdict",
    );
    assert_eq!(
        e.to_string(),
        "line 1 (LP-0003), field claims[1].verdict: unknown verdict \"won\"; \
         expected one of supported, partially_supported, dismissed"
    );
}

#[test]
fn missing_required_fields_are_named() {
    let required = [
        ("/cause", "cause"),
        ("/class", "class"),
        ("/plaintiff_type", "plaintiff_type"),
        ("/claims", "claims"),
        ("/focal_points", "focal_points"),
        ("/key_facts", "key_facts"),
        ("/missing_facts", "missing_facts"),
        ("/consultations", "consultations"),
        ("/consultations/complete", "consultations.complete"),
        (
            "/consultations/underspecified",
            "consultations.underspecified",
        ),
        ("/claims/0/id", "claims[0].id"),
        ("/claims/0/text", "claims[0].text"),
        ("/claims/1/verdict", "claims[1].verdict"),
        ("/focal_points/1/type", "focal_points[1].type"),
        ("/key_facts/0/focal_point", "key_facts[0].focal_point"),
        ("/key_facts/1/text", "key_facts[1].text"),
        (
            "/consultations/underspecified/2/role",
            "consultations.underspecified[2].role",
        ),
        (
            "/consultations/complete/0/content",
            "consultations.complete[0].content",
        ),
    ];
    for (pointer, field) in required {
        let e = single_error(CaseBuilder::new("LP-1").remove(pointer), field);
        assert_eq!(e.message, "missing required field");
        assert_eq!(e.case_id.as_deref(), Some("LP-1"));
    }
    let e = single_error(CaseBuilder::new("LP-1").remove("/case_id"), "case_id");
    assert_eq!(e.case_id, None);
}

#[test]
fn wrong_types_are_named() {
    let wrong = [
        ("/case_id", json!(17), "case_id"),
        ("/provisions_cited", json!("3"), "provisions_cited"),
        ("/provisions_cited", json!(-1), "provisions_cited"),
        ("/provisions_cited", json!(2.5), "provisions_cited"),
        ("/profile", json!("司机"), "profile"),
        ("/profile/age", json!(4_294_967_296_u64), "profile.age"),
        ("/profile/gender", json!(1), "profile.gender"),
        ("/seed", json!("yes"), "seed"),
        ("/claims", json!({"c1": "x"}), "claims"),
        ("/claims/0", json!("c1"), "claims[0]"),
        ("/claims/0/verdict", json!(0), "claims[0].verdict"),
        ("/missing_facts/0", json!(1), "missing_facts[0]"),
        ("/consultations", json!([]), "consultations"),
        (
            "/consultations/complete/0/content",
            Value::Null,
            "consultations.complete[0].content",
        ),
    ];
    for (pointer, value, field) in wrong {
        single_error(CaseBuilder::new("LP-1").set(pointer, value), field);
    }
}

#[test]
fn every_problem_of_a_line_is_reported() {
    let b = CaseBuilder::new("LP-1")
        .set("/claims/0/verdict", json!("won"))
        .set("/focal_points/1/type", json!("x"))
        .remove("/plaintiff_type");
    let errors = errors(&b.line());
    let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "plaintiff_type",
            "claims[0].verdict",
            "focal_points[1].type"
        ]
    );
    assert!(errors.iter().all(|e| e.line == 1));
}

#[test]
fn errors_of_all_lines_are_reported_in_line_order() {
    let text = file(&[
        CaseBuilder::new("LP-1"),
        CaseBuilder::new("LP-2").set("/claims/1/verdict", json!("won")),
        CaseBuilder::new("LP-3"),
        CaseBuilder::new("LP-4").set("/class", json!("misc")),
    ]);
    let errors = errors(&text);
    let found: Vec<(usize, &str, Option<&str>)> = errors
        .iter()
        .map(|e| (e.line, e.field.as_str(), e.case_id.as_deref()))
        .collect();
    assert_eq!(
        found,
        [
            (2, "claims[1].verdict", Some("LP-2")),
            (4, "class", Some("LP-4"))
        ]
    );
}

#[test]
fn invalid_json_names_the_line_and_column() {
    let good = CaseBuilder::new("LP-1").line();
    let text = format!("{good}\n{{\"case_id\": \"LP-2\",, }}\n");
    let errors = errors(&text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!((errors[0].line, errors[0].field.as_str()), (2, ""));
    assert!(
        errors[0].message.starts_with("invalid JSON at column 20: "),
        "{}",
        errors[0]
    );
    assert!(!errors[0].message.contains("line 1"), "{}", errors[0]);
}

#[test]
fn invalid_json_columns_count_characters() {
    let errors = errors("{\"case_id\": \"案件一\" \"cause\": 1}\n");
    // The `"` opening `"cause"` is the 19th character (the 25th byte).
    assert!(
        errors[0].message.starts_with("invalid JSON at column 19: "),
        "{}",
        errors[0]
    );
}

#[test]
fn a_line_that_is_not_an_object_is_rejected() {
    let errors = errors("[1, 2]\n");
    assert_eq!((errors[0].line, errors[0].field.as_str()), (1, ""));
    assert!(errors[0].message.contains("an array"), "{}", errors[0]);
}

#[test]
fn invalid_utf8_names_the_line() {
    let mut bytes = file(&[CaseBuilder::new("LP-1")]).into_bytes();
    bytes.extend_from_slice(b"{\"case_id\": \"\xff\xfe\"}\n");
    bytes.extend_from_slice(CaseBuilder::new("LP-3").line().as_bytes());
    let errors = parse_dataset_reader(bytes.as_slice())
        .expect_err("invalid")
        .0;
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].line, 2);
    assert!(errors[0].message.contains("UTF-8"), "{}", errors[0]);
}

#[test]
fn blank_lines_are_skipped_but_counted() {
    let a = CaseBuilder::new("LP-1").line();
    let b = CaseBuilder::new("LP-2").set("/class", json!("tort")).line();
    let text = format!("\n{a}\n   \n\t\n{b}\n\n");
    let errors = errors(&text);
    assert_eq!(errors[0].line, 5);

    let cases = parse_dataset(&format!("\n{a}\r\n \n")).expect("valid");
    assert_eq!(cases.len(), 1);
}

#[test]
fn a_byte_order_mark_is_tolerated() {
    let text = format!("\u{feff}{}\n", CaseBuilder::new("LP-1").line());
    assert_eq!(parse_dataset(&text).expect("valid").len(), 1);
}

#[test]
fn empty_input_has_no_cases() {
    assert_eq!(parse_dataset("").expect("valid"), []);
    assert_eq!(parse_dataset("\n \n").expect("valid"), []);
}

#[test]
fn errors_are_capped_with_a_count_of_the_rest() {
    let text: String = (0..MAX_ERRORS + 50)
        .map(|i| {
            let bad = CaseBuilder::new(&format!("LP-{i}")).set("/class", json!("tort"));
            bad.line() + "\n"
        })
        .collect();
    let errors = errors(&text);
    assert_eq!(errors.len(), MAX_ERRORS + 1);
    assert_eq!(errors[MAX_ERRORS - 1].line, MAX_ERRORS);
    let last = &errors[MAX_ERRORS];
    assert_eq!(last.line, MAX_ERRORS + 1);
    assert!(last.message.contains("… and 50 more errors"), "{last}");
}

#[test]
fn errors_display_one_per_line() {
    let text = file(&[
        CaseBuilder::new("LP-1").set("/claims", json!([])),
        CaseBuilder::new("LP-2").set("/seed", json!(1)),
    ]);
    let err = parse_dataset(&text).expect_err("invalid");
    assert_eq!(
        err.to_string(),
        "line 1 (LP-1), field claims: must list at least one claim\n\
         line 2 (LP-2), field seed: expected true or false, got a number"
    );
}

#[test]
fn parse_case_and_validate_case_check_one_case() {
    let line = CaseBuilder::new("LP-9").line();
    let mut case = parse_case(&line, 7).expect("valid");
    assert!(validate_case(&case, 7).is_empty());

    case.class = Class::Misc;
    case.consultations.underspecified.pop();
    let errors = validate_case(&case, 7);
    let found: Vec<(usize, &str)> = errors.iter().map(|e| (e.line, e.field.as_str())).collect();
    assert_eq!(
        found,
        [
            (7, "class"),
            (7, "consultations.underspecified[1].role"),
            (7, "consultations.underspecified")
        ]
    );

    let errors = parse_case("{", 3).expect_err("invalid JSON");
    assert_eq!(errors[0].line, 3);
}

/// The warnings of a file that parses, asserting it has no error.
fn warnings(lines: &[CaseBuilder]) -> Vec<DatasetWarning> {
    let check = check_dataset(&file(lines));
    if let Err(errors) = check.cases {
        panic!("expected a valid file: {errors}");
    }
    check.warnings
}

/// The builder with the advisor asking, in both consultations, for the
/// missing key fact k1, which the complete consultation's user then gives.
fn asking_for_k1(question: &str, underspecified_reply: &str) -> CaseBuilder {
    CaseBuilder::new("LP-2")
        .set("/consultations/complete/1/content", json!(question))
        .set(
            "/consultations/complete/2/content",
            json!("首付款是我父亲付的，一分钱都没还。"),
        )
        .set("/consultations/underspecified/1/content", json!(question))
        .set(
            "/consultations/underspecified/2/content",
            json!(underspecified_reply),
        )
}

#[test]
fn the_builder_has_no_warnings() {
    assert_eq!(warnings(&[CaseBuilder::new("LP-1")]), []);
}

#[test]
fn a_dodged_question_about_a_missing_fact_is_a_warning() {
    // The complete consultation answers the same question with the fact.
    let found = warnings(&[
        CaseBuilder::new("LP-1"),
        asking_for_k1("首付款是谁付的？", "这个我记不清了。"),
    ]);
    assert_eq!(found.len(), 1, "{found:#?}");
    let w = &found[0];
    assert_eq!(
        (w.line, w.case_id.as_deref(), w.field.as_str()),
        (2, Some("LP-2"), "consultations.underspecified[2].content")
    );
    assert!(w.message.contains("\"记不清\""), "{w}");
    assert!(
        w.message.contains("turn 1 about missing key fact k1"),
        "{w}"
    );
}

#[test]
fn a_question_sharing_words_with_a_missing_fact_asks_about_it() {
    // Not the complete consultation's question, but three bigrams of k1
    // (首付, 付款, 父亲): it asks about the fact.
    let b = asking_for_k1("首付款是谁付的？", "这我不太清楚。").set(
        "/consultations/underspecified/1/content",
        json!("首付款是您父亲出的吗？"),
    );
    let found = warnings(&[b]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message.contains("\"不太清楚\""), "{}", found[0]);
}

#[test]
fn a_dodge_that_is_not_about_a_missing_fact_is_no_warning() {
    // k2 (nothing repaid) is not missing, and the question shares nothing with k1.
    let b = CaseBuilder::new("LP-1").set(
        "/consultations/underspecified/2/content",
        json!("这个我不清楚。"),
    );
    assert_eq!(warnings(&[b]), []);
    // Nor is a dodge after a remark that asks nothing.
    let b = asking_for_k1("首付款是谁付的？", "这个我记不清了。").set(
        "/consultations/underspecified/1/content",
        json!("首付款的事先放一放。"),
    );
    assert_eq!(warnings(&[b]), []);
}

#[test]
fn content_the_complete_consultation_lacks_is_a_warning() {
    let b = CaseBuilder::new("LP-1").set(
        "/consultations/underspecified/2/content",
        json!("一分钱都没还，她还把车卖了，这能行吗？"),
    );
    let found = warnings(&[CaseBuilder::new("LP-0"), b]);
    assert_eq!(found.len(), 1, "{found:#?}");
    let w = &found[0];
    assert_eq!(
        (w.line, w.field.as_str()),
        (2, "consultations.underspecified[2].content")
    );
    assert_eq!(
        w.message,
        "says what no user turn of consultations.complete says: \"她还把车卖了\"; the complete \
         consultation holds every fact of the underspecified one"
    );
}

#[test]
fn content_is_compared_without_punctuation_and_across_turns() {
    // Said in another turn of the complete consultation, with other punctuation;
    // questions, dodges and short clauses state no fact.
    let b = CaseBuilder::new("LP-1").set(
        "/consultations/underspecified/2/content",
        json!("离婚后，房子归她！一分钱都没还。是的，这我不清楚，我能要回来吗？"),
    );
    assert_eq!(warnings(&[b]), []);
}

#[test]
fn warnings_do_not_refuse_a_file_and_come_with_its_errors() {
    let dodging = asking_for_k1("首付款是谁付的？", "这个我记不清了。");
    assert!(parse_dataset(&file(std::slice::from_ref(&dodging))).is_ok());

    let broken = dodging.set("/class", json!("tort"));
    let check = check_dataset(&file(&[broken]));
    assert_eq!(check.cases.expect_err("invalid").0[0].field, "class");
    assert_eq!(check.warnings.len(), 1);
}

#[test]
fn the_demo_dataset_keeps_every_rule() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../server/data/demo-synthetic.jsonl");
    let text = std::fs::read_to_string(path).expect("the demo dataset");
    let check = check_dataset(&text);
    let cases = check.cases.expect("the demo dataset has no error");
    assert_eq!(cases.len(), 72);
    let shown: Vec<String> = check.warnings.iter().map(ToString::to_string).collect();
    assert!(shown.is_empty(), "{}", shown.join("\n"));
    for case in &cases {
        let number = case.case_number.as_deref().unwrap_or_default();
        assert!(number.ends_with("（虚构）"), "{}: {number}", case.case_id);
    }
}
