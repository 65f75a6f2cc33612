//! Writing and reading back datasets, the contract example fixture, and the
//! parser's behaviour on corrupted input.

use std::collections::HashSet;

use engine::core::dialogue::Turn;
use engine::core::errors::MAX_ERRORS;
use engine::lexpilot::dataset::{
    parse_dataset, parse_dataset_reader, to_jsonl, Case, Claim, Consultations, FocalPoint, KeyFact,
    Profile,
};
use engine::vocab::{Class, Consultation, FocalPointType, PlaintiffType, Role, Verdict, CAUSES};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

const CONTRACT_EXAMPLE: &str = include_str!("fixtures/contract-example/dataset.jsonl");

#[test]
fn the_contract_example_parses() {
    let cases = parse_dataset(CONTRACT_EXAMPLE).expect("the contract example is valid");
    assert_eq!(cases.len(), 24);
    assert_eq!(cases[0].case_id, "PUB-0000");
    assert_eq!(cases[0].cause, "离婚纠纷");
    assert_eq!(cases[0].class, Class::Family);
    assert_eq!(cases[0].claims[0].verdict, Verdict::Dismissed);
    assert_eq!(cases[0].turns(Consultation::Complete).len(), 3);
    assert!(cases.iter().all(|c| c.seed));
    let classes: HashSet<Class> = cases.iter().map(|c| c.class).collect();
    assert!(!classes.contains(&Class::FinanceContract) && !classes.contains(&Class::Misc));
}

#[test]
fn the_contract_example_round_trips() {
    let cases = parse_dataset(CONTRACT_EXAMPLE).expect("valid");
    let written = to_jsonl(&cases);
    assert_eq!(written.lines().count(), 24);
    assert_eq!(parse_dataset(&written).expect("valid"), cases);
    // Our writer emits the same JSON values as the fixture, line by line.
    for (ours, theirs) in written.lines().zip(CONTRACT_EXAMPLE.lines()) {
        let ours: Value = serde_json::from_str(ours).expect("JSON");
        let theirs: Value = serde_json::from_str(theirs).expect("JSON");
        assert_eq!(ours, theirs);
    }
}

fn sample_case() -> Case {
    let turn = |role, content: &str| Turn {
        role,
        content: content.into(),
    };
    Case {
        case_id: "LP-0001".into(),
        case_number: None,
        cause: "借款合同纠纷".into(),
        class: Class::FinanceContract,
        province: Some("广东".into()),
        plaintiff_type: PlaintiffType::NonNatural,
        profile: Some(Profile {
            role: Some("法务专员".into()),
            ..Profile::default()
        }),
        provisions_cited: None,
        claims: vec![Claim {
            id: "c1".into(),
            text: "判令被告归还借款10万元".into(),
            verdict: Verdict::Supported,
        }],
        focal_points: vec![FocalPoint {
            id: "f1".into(),
            text: "借款本金数额".into(),
            r#type: FocalPointType::AmountAssessment,
        }],
        key_facts: vec![KeyFact {
            id: "k1".into(),
            focal_point: "f1".into(),
            text: "原告转账10万元".into(),
            quote: Some("转账10万元".into()),
        }],
        missing_facts: vec!["k1".into()],
        consultations: Consultations {
            complete: vec![turn(Role::User, "公司向他转账10万元，他不还。")],
            underspecified: vec![turn(Role::User, "他欠公司钱不还。")],
        },
        seed: false,
    }
}

#[test]
fn to_jsonl_writes_one_line_per_case_without_absent_fields() {
    let case = sample_case();
    let mut other = sample_case();
    other.case_id = "LP-0002".into();
    let written = to_jsonl(&[case.clone(), other.clone()]);
    assert_eq!(written.matches('\n').count(), 2);
    assert!(written.ends_with('\n'));
    let first: Value = serde_json::from_str(written.lines().next().expect("a line")).expect("JSON");
    assert_eq!(first.get("case_number"), None);
    assert_eq!(first.get("provisions_cited"), None);
    assert_eq!(first["profile"], json!({"role": "法务专员"}));
    assert_eq!(first["focal_points"][0]["type"], json!("amount_assessment"));
    assert_eq!(first["seed"], json!(false));
    assert_eq!(parse_dataset(&written).expect("valid"), [case, other]);
    assert_eq!(to_jsonl(&[]), "");
}

#[test]
fn case_helpers() {
    let mut case = sample_case();
    case.key_facts.push(KeyFact {
        id: "k2".into(),
        focal_point: "f1".into(),
        text: "被告未还款".into(),
        quote: None,
    });
    let missing: Vec<&str> = case.missing_key_facts().map(|k| k.id.as_str()).collect();
    assert_eq!(missing, ["k1"]);
    assert_eq!(case.chars(Consultation::Complete), 15);
    assert_eq!(case.chars(Consultation::Underspecified), 8);
    assert_eq!(
        case.turns(Consultation::Underspecified)[0].content,
        "他欠公司钱不还。"
    );
}

#[test]
fn serde_deserialize_accepts_what_parse_accepts() {
    let line = to_jsonl(&[sample_case()]);
    let via_serde: Case = serde_json::from_str(line.trim_end()).expect("deserialises");
    assert_eq!(via_serde, sample_case());
}

// ---- property tests ----

fn text() -> impl Strategy<Value = String> {
    // Chinese, ASCII, quotes, backslashes, braces and newlines; never blank.
    "[a-z0-9一-龥\"\\\\/{} \n\t，。]{0,12}".prop_map(|s| format!("字{s}"))
}

fn pick<T: Clone + std::fmt::Debug + 'static>(all: &[T]) -> impl Strategy<Value = T> {
    prop::sample::select(all.to_vec())
}

fn extra_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        text().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        Just(Value::Null),
        prop::collection::vec(text(), 0..3).prop_map(Value::from),
    ]
}

fn profile() -> impl Strategy<Value = Profile> {
    (
        prop::option::of(any::<u32>()),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::collection::btree_map("x_[a-z]{1,6}", extra_value(), 0..3),
    )
        .prop_map(
            |(age, gender, occupation, personality, role, extra)| Profile {
                age,
                gender,
                occupation,
                personality,
                role,
                extra: extra.into_iter().collect::<Map<String, Value>>(),
            },
        )
}

/// One valid case; `case_id` and `seed` are fixed up by [`valid_cases`].
fn valid_case() -> impl Strategy<Value = Case> {
    let meta = (
        0..CAUSES.len(),
        prop::option::of(text()),
        prop::option::of(text()),
        pick(&PlaintiffType::ALL),
        prop::option::of(profile()),
        prop::option::of(any::<u32>()),
        any::<bool>(),
    );
    let claims = prop::collection::vec((text(), pick(&Verdict::ALL)), 1..4);
    let focal_points = prop::collection::vec((text(), pick(&FocalPointType::ALL)), 0..3);
    // (text, focal point index, missing?, quote: (turn, start, length))
    let key_facts = prop::collection::vec(
        (
            text(),
            any::<prop::sample::Index>(),
            any::<bool>(),
            prop::option::of((
                any::<prop::sample::Index>(),
                any::<prop::sample::Index>(),
                1..6usize,
            )),
        ),
        0..4,
    );
    let turns = prop::collection::vec((pick(&Role::ALL), text(), text()), 1..5);
    (meta, claims, focal_points, key_facts, turns).prop_map(
        |(meta, claims, focal_points, key_facts, turns)| {
            let (cause, case_number, province, plaintiff_type, profile, provisions_cited, seed) =
                meta;
            let complete: Vec<Turn> = turns
                .iter()
                .enumerate()
                .map(|(i, (role, content, _))| Turn {
                    // A consultation starts and ends on a user turn.
                    role: if i == 0 || i + 1 == turns.len() {
                        Role::User
                    } else {
                        *role
                    },
                    content: content.clone(),
                })
                .collect();
            let underspecified: Vec<Turn> = turns
                .iter()
                .enumerate()
                .map(|(i, (role, _, content))| Turn {
                    // A consultation starts and ends on a user turn.
                    role: if i == 0 || i + 1 == turns.len() {
                        Role::User
                    } else {
                        *role
                    },
                    content: content.clone(),
                })
                .collect();
            let focal_points: Vec<FocalPoint> = focal_points
                .into_iter()
                .enumerate()
                .map(|(i, (text, r#type))| FocalPoint {
                    id: format!("f{}", i + 1),
                    text,
                    r#type,
                })
                .collect();
            let key_facts: Vec<(KeyFact, bool)> = if focal_points.is_empty() {
                Vec::new()
            } else {
                key_facts
                    .into_iter()
                    .enumerate()
                    .map(|(i, (text, focal, missing, quote))| {
                        let quote = quote.map(|(turn, start, len)| {
                            let chars: Vec<char> = turn.get(&complete).content.chars().collect();
                            let start = start.index(chars.len());
                            let end = (start + len).min(chars.len());
                            chars[start..end].iter().collect::<String>()
                        });
                        let fact = KeyFact {
                            id: format!("k{}", i + 1),
                            focal_point: focal.get(&focal_points).id.clone(),
                            text,
                            quote,
                        };
                        (fact, missing)
                    })
                    .collect()
            };
            let missing_facts = key_facts
                .iter()
                .filter(|(_, missing)| *missing)
                .map(|(k, _)| k.id.clone())
                .collect();
            Case {
                case_id: String::new(),
                case_number,
                cause: CAUSES[cause].name_zh.into(),
                class: CAUSES[cause].class,
                province,
                plaintiff_type,
                profile,
                provisions_cited,
                claims: claims
                    .into_iter()
                    .enumerate()
                    .map(|(i, (text, verdict))| Claim {
                        id: format!("c{}", i + 1),
                        text,
                        verdict,
                    })
                    .collect(),
                focal_points,
                key_facts: key_facts.into_iter().map(|(k, _)| k).collect(),
                missing_facts,
                consultations: Consultations {
                    complete,
                    underspecified,
                },
                seed,
            }
        },
    )
}

/// A valid dataset: unique ids, at most one seed per cause.
fn valid_cases() -> impl Strategy<Value = Vec<Case>> {
    prop::collection::vec(valid_case(), 0..6).prop_map(|mut cases| {
        let mut seeded = HashSet::new();
        for (i, case) in cases.iter_mut().enumerate() {
            case.case_id = format!("LP-{i:04}");
            case.seed = case.seed && seeded.insert(case.cause.clone());
        }
        cases
    })
}

#[derive(Debug, Clone)]
enum Corruption {
    Delete(prop::sample::Index, usize),
    Insert(prop::sample::Index, Vec<u8>),
    Replace(prop::sample::Index, u8),
    Newline(prop::sample::Index),
}

fn corruption() -> impl Strategy<Value = Corruption> {
    prop_oneof![
        (any::<prop::sample::Index>(), 1..20usize).prop_map(|(i, n)| Corruption::Delete(i, n)),
        (
            any::<prop::sample::Index>(),
            prop_oneof![
                prop::collection::vec(any::<u8>(), 1..4),
                prop::sample::select(vec![
                    b"\"".to_vec(),
                    b"}".to_vec(),
                    b",".to_vec(),
                    b"null".to_vec(),
                    b"\"won\"".to_vec(),
                    "\u{feff}".as_bytes().to_vec(),
                ]),
            ]
        )
            .prop_map(|(i, bytes)| Corruption::Insert(i, bytes)),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Corruption::Replace(i, b)),
        any::<prop::sample::Index>().prop_map(Corruption::Newline),
    ]
}

fn corrupt(mut bytes: Vec<u8>, corruptions: &[Corruption]) -> Vec<u8> {
    for c in corruptions {
        if bytes.is_empty() {
            break;
        }
        match c {
            Corruption::Delete(at, n) => {
                let start = at.index(bytes.len());
                let end = (start + n).min(bytes.len());
                bytes.drain(start..end);
            }
            Corruption::Insert(at, new) => {
                let at = at.index(bytes.len());
                bytes.splice(at..at, new.iter().copied());
            }
            Corruption::Replace(at, b) => {
                let at = at.index(bytes.len());
                bytes[at] = *b;
            }
            Corruption::Newline(at) => {
                let at = at.index(bytes.len());
                bytes.insert(at, b'\n');
            }
        }
    }
    bytes
}

/// The number of lines of a file as the parser counts them.
fn line_count(bytes: &[u8]) -> usize {
    bytes.split(|&b| b == b'\n').count() - usize::from(bytes.ends_with(b"\n"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn to_jsonl_then_parse_is_identity(cases in valid_cases()) {
        let written = to_jsonl(&cases);
        prop_assert_eq!(written.lines().count(), cases.len());
        prop_assert_eq!(parse_dataset(&written), Ok(cases.clone()));
        prop_assert_eq!(parse_dataset_reader(written.as_bytes()), Ok(cases.clone()));
        // serde's derived Deserialize (used for single cases) reads the same.
        for (line, case) in written.lines().zip(&cases) {
            prop_assert_eq!(&serde_json::from_str::<Case>(line).expect("deserialises"), case);
        }
    }

    #[test]
    fn corrupted_files_give_errors_with_lines_in_range(
        cases in valid_cases().prop_filter("some cases", |c| !c.is_empty()),
        corruptions in prop::collection::vec(corruption(), 1..5),
    ) {
        let bytes = corrupt(to_jsonl(&cases).into_bytes(), &corruptions);
        let lines = line_count(&bytes);
        if let Err(errors) = parse_dataset_reader(bytes.as_slice()) {
            prop_assert!(!errors.0.is_empty());
            prop_assert!(errors.0.len() <= MAX_ERRORS + 1);
            for e in &errors.0 {
                prop_assert!((1..=lines).contains(&e.line), "{} not in 1..={}", e, lines);
                prop_assert!(!e.message.is_empty());
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let lines = line_count(&bytes);
        if let Err(errors) = parse_dataset_reader(bytes.as_slice()) {
            for e in &errors.0 {
                prop_assert!((1..=lines).contains(&e.line), "{} not in 1..={}", e, lines);
            }
        }
    }
}
