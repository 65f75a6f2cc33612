//! The dataset file of `docs/formats.md` §2: one case per line.
//!
//! - Types: [`Case`] and its parts, serde-compatible with the contract.
//! - Parsing: [`parse_dataset`] / [`parse_dataset_reader`] read JSON Lines and
//!   return every case, or every error found (up to
//!   [`MAX_ERRORS`](crate::core::errors::MAX_ERRORS)), each naming its 1-based line,
//!   the case and the JSON path of the field at fault.
//!   [`parse_case`] does the same for one case's JSON text.
//! - Validation: [`validate_case`] checks the rules that concern one case; the
//!   rules across cases (unique `case_id`, one seed per cause) are checked while
//!   parsing a file.
//! - Warnings: [`case_warnings`] suspects the rules of the paper's
//!   construction that text alone cannot settle (a dodged question about a
//!   missing fact, content the complete consultation lacks); they are listed
//!   beside the errors by [`check_dataset`] and never refuse a file (see
//!   [`warnings`] for the exact heuristics).
//! - Writing: [`to_jsonl`], which [`parse_dataset`] reads back unchanged.
//!
//! Lines are first read into a [`serde_json::Value`] and then walked field by
//! field, so that a wrong type, a missing field or an unknown vocabulary value
//! is reported with its path (`claims[1].verdict`), which serde's own errors do
//! not give. Depends on serde, serde_json and [`crate::vocab`]; reads through
//! [`std::io::BufRead`] only, never the file system.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::io::BufRead;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::core::dialogue::Turn;
use crate::core::errors::{DatasetError, DatasetErrors, DatasetWarning};
use crate::core::lines::{
    describe, is_blank, json_message, keys, line_error, read_lines, ErrorLog, LineReader, Object,
    TurnLine,
};
use crate::vocab::{cause, Class, Consultation, FocalPointType, PlaintiffType, Role, Verdict};

pub mod warnings;
pub use warnings::case_warnings;

/// One case: a first-instance civil judgment with its claims, focal points of
/// dispute, key facts and the pair of consultations built from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// Unique within a dataset file, e.g. `LP-0001`.
    pub case_id: String,
    /// The court's case number, e.g. `（2021）粤0106民初1234号`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case_number: Option<String>,
    /// The Chinese name of the cause of action, one of [`crate::vocab::CAUSES`].
    pub cause: String,
    /// The class of `cause`.
    pub class: Class,
    /// The province or region of the court.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub province: Option<String>,
    /// Whether the primary plaintiff is a natural person.
    pub plaintiff_type: PlaintiffType,
    /// The user profile the consultations were written for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<Profile>,
    /// How many legal provisions the judgment cites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisions_cited: Option<u32>,
    /// The plaintiff's claims with the court's verdicts; never empty.
    pub claims: Vec<Claim>,
    /// The focal points of dispute.
    pub focal_points: Vec<FocalPoint>,
    /// The facts the court relied on, each tied to a focal point.
    pub key_facts: Vec<KeyFact>,
    /// Ids of the key facts the underspecified consultation leaves out.
    pub missing_facts: Vec<String>,
    /// The complete and the underspecified consultation.
    pub consultations: Consultations,
    /// Whether this is the expert-authored seed pair of its cause.
    #[serde(default)]
    pub seed: bool,
}

/// The simulated user's profile. Every field is optional; keys this type does
/// not know are kept in `extra` and written back.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Age in years.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub age: Option<u32>,
    /// Gender, free text (`男`, `女`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gender: Option<String>,
    /// Occupation, free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occupation: Option<String>,
    /// Personality description, free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub personality: Option<String>,
    /// For a non-natural plaintiff, the role of the person speaking for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Any other keys, kept as they are.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One claim of the plaintiff and the court's verdict on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    /// Unique within the case, e.g. `c1`.
    pub id: String,
    /// The claim as filed.
    pub text: String,
    /// The court's verdict.
    pub verdict: Verdict,
}

/// One focal point of dispute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FocalPoint {
    /// Unique within the case, e.g. `f1`.
    pub id: String,
    /// The focal point as the court framed it.
    pub text: String,
    /// Its type (paper, Table 18).
    pub r#type: FocalPointType,
}

/// One fact the court relied on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyFact {
    /// Unique within the case, e.g. `k1`.
    pub id: String,
    /// The id of the focal point it bears on.
    pub focal_point: String,
    /// The fact.
    pub text: String,
    /// Our extension: an exact substring of one turn of the complete
    /// consultation where the fact is stated, so that it can be marked there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
}

/// The two consultations of a case, paired turn for turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Consultations {
    /// Holds every key fact.
    pub complete: Vec<Turn>,
    /// Leaves the missing key facts out.
    pub underspecified: Vec<Turn>,
}

impl Case {
    /// The turns of one of the two consultations.
    pub fn turns(&self, c: Consultation) -> &[Turn] {
        match c {
            Consultation::Complete => &self.consultations.complete,
            Consultation::Underspecified => &self.consultations.underspecified,
        }
    }

    /// Every text of the case a page shows: claims, focal points, key facts
    /// and the turns of both consultations (for marking citations in them).
    pub fn texts(&self) -> impl Iterator<Item = &str> + '_ {
        self.claims
            .iter()
            .map(|c| c.text.as_str())
            .chain(self.focal_points.iter().map(|f| f.text.as_str()))
            .chain(self.key_facts.iter().map(|k| k.text.as_str()))
            .chain(
                self.consultations
                    .complete
                    .iter()
                    .chain(&self.consultations.underspecified)
                    .map(|t| t.content.as_str()),
            )
    }

    /// The key facts named in `missing_facts`, in `key_facts` order.
    pub fn missing_key_facts(&self) -> impl Iterator<Item = &KeyFact> {
        self.key_facts
            .iter()
            .filter(|k| self.missing_facts.contains(&k.id))
    }

    /// The length of one consultation in characters (Unicode scalar values),
    /// summed over its turns.
    pub fn chars(&self, c: Consultation) -> usize {
        self.turns(c)
            .iter()
            .map(|t| t.content.chars().count())
            .sum()
    }
}

/// What [`check_dataset`] finds in a file: its cases or its errors, and the
/// warnings beside them (of every case that could be read, valid or not).
#[derive(Debug, Clone, PartialEq)]
pub struct DatasetCheck {
    /// Every case, or every error ([`parse_dataset`]'s answer).
    pub cases: Result<Vec<Case>, DatasetErrors>,
    /// Every warning, in line order.
    pub warnings: Vec<DatasetWarning>,
}

/// Parses and validates a whole dataset file held in memory.
///
/// Blank (whitespace-only) lines are skipped; line numbers count them. Returns
/// every case in file order, or every error found (see [`DatasetErrors`]).
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::vocab::Verdict;
///
/// let line = r#"{"case_id": "LP-0001", "cause": "离婚后财产纠纷", "class": "family",
///   "plaintiff_type": "natural",
///   "claims": [{"id": "c1", "text": "判令被告返还房屋份额款20万元", "verdict": "partially_supported"}],
///   "focal_points": [{"id": "f1", "text": "涉案房屋出资情况", "type": "rights_allocation"}],
///   "key_facts": [{"id": "k1", "focal_point": "f1", "text": "首付款由原告父亲支付"}],
///   "missing_facts": ["k1"],
///   "consultations": {"complete": [{"role": "user", "content": "首付款是我父亲付的。"}],
///                     "underspecified": [{"role": "user", "content": "房子怎么分？"}]}}"#
///     .replace('\n', " ");
///
/// let cases = parse_dataset(&format!("{line}\n")).expect("a valid dataset");
/// assert_eq!(cases[0].claims[0].verdict, Verdict::PartiallySupported);
/// assert!(!cases[0].seed);
///
/// let errors = parse_dataset(&line.replace("partially_supported", "won")).unwrap_err();
/// assert_eq!(
///     errors.to_string(),
///     "line 1 (LP-0001), field claims[0].verdict: unknown verdict \"won\"; \
///      expected one of supported, partially_supported, dismissed"
/// );
/// ```
pub fn parse_dataset(text: &str) -> Result<Vec<Case>, DatasetErrors> {
    parse_dataset_reader(text.as_bytes())
}

/// Parses and validates a dataset file line by line from a reader, as
/// [`parse_dataset`] does. A line that is not UTF-8 is reported and skipped; a
/// read failure is reported and ends the parse.
pub fn parse_dataset_reader<R: BufRead>(reader: R) -> Result<Vec<Case>, DatasetErrors> {
    // The warnings' heuristics cost more than the rules: not run for a caller
    // that would drop them.
    read_dataset_reader(reader, false).cases
}

/// [`parse_dataset`] with the warnings of [`case_warnings`] beside its answer.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::check_dataset;
///
/// let line = r#"{"case_id": "LP-0001", "cause": "离婚后财产纠纷", "class": "family",
///   "plaintiff_type": "natural",
///   "claims": [{"id": "c1", "text": "判令被告返还房屋份额款20万元", "verdict": "partially_supported"}],
///   "focal_points": [{"id": "f1", "text": "涉案房屋出资情况", "type": "rights_allocation"}],
///   "key_facts": [{"id": "k1", "focal_point": "f1", "text": "首付款由原告父亲支付"}],
///   "missing_facts": ["k1"],
///   "consultations": {"complete": [{"role": "user", "content": "首付款是我父亲付的。"}],
///                     "underspecified": [{"role": "user", "content": "房子是婚后买的。"}]}}"#
///     .replace('\n', " ");
///
/// let check = check_dataset(&format!("{line}\n"));
/// assert_eq!(check.cases.expect("valid").len(), 1);
/// assert_eq!(
///     check.warnings[0].to_string(),
///     "line 1 (LP-0001), field consultations.underspecified[0].content: says what no user \
///      turn of consultations.complete says: \"房子是婚后买的\"; the complete consultation \
///      holds every fact of the underspecified one"
/// );
/// ```
pub fn check_dataset(text: &str) -> DatasetCheck {
    check_dataset_reader(text.as_bytes())
}

/// [`check_dataset`] reading line by line, as [`parse_dataset_reader`] does.
pub fn check_dataset_reader<R: BufRead>(reader: R) -> DatasetCheck {
    read_dataset_reader(reader, true)
}

/// The cases or errors of a dataset file, and its warnings if `warn` (else
/// none): the errors never depend on `warn`.
fn read_dataset_reader<R: BufRead>(reader: R, warn: bool) -> DatasetCheck {
    let mut errors = ErrorLog::default();
    let mut warnings = Vec::new();
    let mut cases = Vec::new();
    let mut first_line_of_id: HashMap<String, usize> = HashMap::new();
    let mut seed_of_cause: HashMap<String, (String, usize)> = HashMap::new();

    let read = read_lines(reader, |line, text| {
        let text = match text {
            Ok(text) => text,
            Err(e) => {
                errors.push(e);
                return;
            }
        };
        let case = match read_case(text, line) {
            Ok(case) => case,
            Err(line_errors) => {
                line_errors.into_iter().for_each(|e| errors.push(e));
                return;
            }
        };
        // A case that breaks a per-case rule still takes part in the checks
        // across cases, so that its id and seed are not reused unnoticed.
        validate_case(&case, line)
            .into_iter()
            .for_each(|e| errors.push(e));
        if warn {
            warnings.extend(case_warnings(&case, line));
        }

        // An empty id is reported by `validate_case`, not also as a duplicate.
        if !is_blank(&case.case_id) {
            match first_line_of_id.entry(case.case_id.clone()) {
                Entry::Occupied(first) => errors.push(case_error(
                    &case,
                    line,
                    "case_id",
                    format!(
                        "duplicate case_id \"{}\"; it is first used on line {}",
                        case.case_id,
                        first.get()
                    ),
                )),
                Entry::Vacant(slot) => {
                    slot.insert(line);
                }
            }
        }
        if case.seed {
            match seed_of_cause.entry(case.cause.clone()) {
                Entry::Occupied(first) => {
                    let (first_id, first_line) = first.get();
                    errors.push(case_error(
                        &case,
                        line,
                        "seed",
                        format!(
                            "a second seed case for cause {}; the seed is already {first_id} \
                             on line {first_line}",
                            case.cause
                        ),
                    ));
                }
                Entry::Vacant(slot) => {
                    slot.insert((case.case_id.clone(), line));
                }
            }
        }
        cases.push(case);
    });
    if let Err(e) = read {
        errors.push(e);
    }

    DatasetCheck {
        cases: errors.finish().map(|()| cases),
        warnings,
    }
}

/// Parses one case from its JSON text and checks the per-case rules
/// ([`validate_case`]). `line` is the line number to put in errors.
pub fn parse_case(json: &str, line: usize) -> Result<Case, Vec<DatasetError>> {
    let case = read_case(json, line)?;
    let errors = validate_case(&case, line);
    if errors.is_empty() {
        Ok(case)
    } else {
        Err(errors)
    }
}

/// Reads one case from its JSON text, checking its structure (fields, types,
/// vocabulary values) but not the rules of [`validate_case`].
fn read_case(json: &str, line: usize) -> Result<Case, Vec<DatasetError>> {
    if let Some(case) = fast_case(json, line) {
        return Ok(case);
    }
    slow_case(json, line)
}

/// [`read_case`] through a [`Value`], field by field, naming every problem.
fn slow_case(json: &str, line: usize) -> Result<Case, Vec<DatasetError>> {
    let value: Value = match serde_json::from_str(json) {
        Ok(value) => value,
        Err(e) => return Err(vec![line_error(line, json_message(&e, json))]),
    };
    let mut reader = LineReader::new(line);
    match reader.case(&value) {
        Some(case) if reader.errors.is_empty() => Ok(case),
        _ => Err(reader.errors),
    }
}

/// The fast path of [`read_case`] for a line whose structure is right,
/// which is nearly every line: read straight into its types rather than
/// through a [`Value`] (see [`Object`]). `None` for a line that
/// [`slow_case`] would refuse or that this reader does not take (a key with
/// an escape, a key given twice), which is then read field by field.
fn fast_case(json: &str, line: usize) -> Option<Case> {
    let Object(keys) = serde_json::from_str::<Object<CaseKeys>>(json).ok()?;
    let profile = match keys.profile.flatten() {
        None => None,
        // A profile keeps the keys it does not know: read as the slow path
        // reads it, so the two never differ.
        Some(v) => {
            let mut reader = LineReader::new(line);
            let profile = reader.profile(&v, "profile");
            if !reader.errors.is_empty() {
                return None;
            }
            Some(profile?)
        }
    };
    let turns = |turns: Option<Option<Vec<Object<TurnLine>>>>| list(turns, TurnLine::turn);
    let Object(consultations) = keys.consultations.flatten()?;
    Some(Case {
        case_id: keys.case_id.flatten()?,
        case_number: keys.case_number.flatten(),
        cause: keys.cause.flatten()?,
        class: Class::parse(keys.class.flatten()?)?,
        province: keys.province.flatten(),
        plaintiff_type: PlaintiffType::parse(keys.plaintiff_type.flatten()?)?,
        profile,
        provisions_cited: keys.provisions_cited.flatten(),
        claims: list(keys.claims, |c: ClaimKeys| {
            Some(Claim {
                id: c.id.flatten()?,
                text: c.text.flatten()?,
                verdict: Verdict::parse(c.verdict.flatten()?)?,
            })
        })?,
        focal_points: list(keys.focal_points, |f: FocalPointKeys| {
            Some(FocalPoint {
                id: f.id.flatten()?,
                text: f.text.flatten()?,
                r#type: FocalPointType::parse(f.r#type.flatten()?)?,
            })
        })?,
        key_facts: list(keys.key_facts, |k: KeyFactKeys| {
            Some(KeyFact {
                id: k.id.flatten()?,
                focal_point: k.focal_point.flatten()?,
                text: k.text.flatten()?,
                quote: k.quote.flatten(),
            })
        })?,
        missing_facts: keys.missing_facts.flatten()?,
        consultations: Consultations {
            complete: turns(consultations.complete)?,
            underspecified: turns(consultations.underspecified)?,
        },
        seed: keys.seed.flatten().unwrap_or(false),
    })
}

/// The items of a required list, or `None` if it is absent or null or one
/// of them is not taken.
fn list<K, T>(
    items: Option<Option<Vec<Object<K>>>>,
    read: impl Fn(K) -> Option<T>,
) -> Option<Vec<T>> {
    items
        .flatten()?
        .into_iter()
        .map(|Object(k)| read(k))
        .collect()
}

keys! {
    /// A case as [`fast_case`] reads it: vocabulary words borrowed (one with
    /// an escape is left to the slow path), texts owned.
    CaseKeys<'a> {
        case_id: String,
        case_number: String,
        cause: String,
        class: &'a str,
        province: String,
        plaintiff_type: &'a str,
        profile: Value,
        provisions_cited: u32,
        claims: Vec<Object<ClaimKeys<'a>>>,
        focal_points: Vec<Object<FocalPointKeys<'a>>>,
        key_facts: Vec<Object<KeyFactKeys<'a>>>,
        missing_facts: Vec<String>,
        consultations: Object<ConsultationsKeys<'a>>,
        seed: bool,
    }
}

keys! {
    /// A claim as [`fast_case`] reads it.
    ClaimKeys<'a> { id: String, text: String, verdict: &'a str, }
}

keys! {
    /// A focal point as [`fast_case`] reads it.
    FocalPointKeys<'a> { id: String, text: String, r#type = "type": &'a str, }
}

keys! {
    /// A key fact as [`fast_case`] reads it.
    KeyFactKeys<'a> { id: String, focal_point: String, text: String, quote: String, }
}

keys! {
    /// The two consultations as [`fast_case`] reads them.
    ConsultationsKeys<'a> {
        complete: Vec<Object<TurnLine<'a>>>,
        underspecified: Vec<Object<TurnLine<'a>>>,
    }
}

/// Checks the rules of `docs/formats.md` §2 that concern one case, reporting
/// each violation with `line`:
///
/// - `case_id`, claim, focal point and key fact ids and texts, and turn
///   contents are not empty (nor only whitespace);
/// - `case_id` is a name ([`crate::names`]: at most 200 characters, no
///   control characters);
/// - `cause` is one of the 36 causes and `class` is that cause's class;
/// - `claims` is not empty; claim, focal point and key fact ids are unique;
/// - every `key_facts[].focal_point` names a focal point, every `missing_facts`
///   entry a key fact, and every `key_facts[].quote` occurs verbatim in a turn of
///   the complete consultation;
/// - both consultations are non-empty, start and end with a `user` turn and
///   have the same number of turns.
///
/// The softer rules of the paper's construction, which a human should look
/// at but which do not refuse a file, are [`case_warnings`].
pub fn validate_case(case: &Case, line: usize) -> Vec<DatasetError> {
    let mut errors = Vec::new();
    let mut fail =
        |field: String, message: String| errors.push(case_error(case, line, &field, message));

    if is_blank(&case.case_id) {
        fail("case_id".into(), EMPTY.into());
    } else if let Err(message) = crate::names::check_id(&case.case_id) {
        fail("case_id".into(), message);
    }

    match cause(&case.cause) {
        None => fail(
            "cause".into(),
            format!(
                "unknown cause \"{}\"; expected the Chinese name of one of the 36 causes of \
                 action of the LexPilot paper's Table 10, such as 离婚纠纷",
                case.cause
            ),
        ),
        Some(known) if known.class != case.class => fail(
            "class".into(),
            format!(
                "class \"{}\" does not match cause {}, which belongs to class {}",
                case.class, case.cause, known.class
            ),
        ),
        Some(_) => {}
    }

    if case.claims.is_empty() {
        fail("claims".into(), "must list at least one claim".into());
    }
    check_ids(
        case.claims.iter().map(|c| c.id.as_str()),
        "claims",
        "claim",
        &mut fail,
    );
    for (i, claim) in case.claims.iter().enumerate() {
        if is_blank(&claim.text) {
            fail(format!("claims[{i}].text"), EMPTY.into());
        }
    }

    let focal_ids = check_ids(
        case.focal_points.iter().map(|f| f.id.as_str()),
        "focal_points",
        "focal point",
        &mut fail,
    );
    for (i, focal) in case.focal_points.iter().enumerate() {
        if is_blank(&focal.text) {
            fail(format!("focal_points[{i}].text"), EMPTY.into());
        }
    }

    let fact_ids = check_ids(
        case.key_facts.iter().map(|k| k.id.as_str()),
        "key_facts",
        "key fact",
        &mut fail,
    );
    let complete = &case.consultations.complete;
    for (i, fact) in case.key_facts.iter().enumerate() {
        if !focal_ids.contains(fact.focal_point.as_str()) {
            fail(
                format!("key_facts[{i}].focal_point"),
                format!(
                    "names no focal point of this case: \"{}\" (focal points: {})",
                    fact.focal_point,
                    listing(case.focal_points.iter().map(|f| f.id.as_str()))
                ),
            );
        }
        if is_blank(&fact.text) {
            fail(format!("key_facts[{i}].text"), EMPTY.into());
        }
        // An empty complete consultation is reported once, below, not per quote.
        if let Some(quote) = &fact.quote {
            if quote.is_empty() {
                fail(format!("key_facts[{i}].quote"), EMPTY.into());
            } else if !complete.is_empty()
                && !complete.iter().any(|t| t.content.contains(quote.as_str()))
            {
                fail(
                    format!("key_facts[{i}].quote"),
                    "does not occur verbatim in any turn of consultations.complete".into(),
                );
            }
        }
    }

    for (i, id) in case.missing_facts.iter().enumerate() {
        if !fact_ids.contains(id.as_str()) {
            fail(
                format!("missing_facts[{i}]"),
                format!(
                    "names no key fact of this case: \"{id}\" (key facts: {})",
                    listing(case.key_facts.iter().map(|k| k.id.as_str()))
                ),
            );
        }
    }

    for kind in Consultation::ALL {
        let path = format!("consultations.{kind}");
        let turns = case.turns(kind);
        match turns.first() {
            None => fail(path.clone(), "must have at least one turn".into()),
            Some(first) if first.role != Role::User => fail(
                format!("{path}[0].role"),
                format!("a consultation starts with a user turn, not {}", first.role),
            ),
            Some(_) => {}
        }
        // The model under evaluation answers the history, so its last turn is
        // the user's (the paper's H_n ends on u_n). A one-turn consultation that
        // starts wrongly is reported once, above.
        if let Some(last) = turns.last().filter(|_| turns.len() > 1) {
            if last.role != Role::User {
                fail(
                    format!("{path}[{}].role", turns.len() - 1),
                    format!(
                        "a consultation ends on a user turn (the model answers it), not {}",
                        last.role
                    ),
                );
            }
        }
        for (i, turn) in turns.iter().enumerate() {
            if is_blank(&turn.content) {
                fail(format!("{path}[{i}].content"), EMPTY.into());
            }
        }
    }
    let (complete, underspecified) = (
        case.consultations.complete.len(),
        case.consultations.underspecified.len(),
    );
    if complete > 0 && underspecified > 0 && complete != underspecified {
        fail(
            "consultations.underspecified".into(),
            format!(
                "has {underspecified} turns but consultations.complete has {complete}; \
                 the two are paired turn for turn"
            ),
        );
    }

    errors
}

/// Writes cases as JSON Lines, one case per line, each line `\n`-terminated.
/// [`parse_dataset`] reads the result back into equal cases.
pub fn to_jsonl(cases: &[Case]) -> String {
    let mut out = String::new();
    for case in cases {
        // Serialising a `Case` cannot fail: it holds only strings, numbers,
        // booleans, sequences and string-keyed maps.
        let line = serde_json::to_string(case).expect("a Case always serialises to JSON");
        out.push_str(&line);
        out.push('\n');
    }
    out
}

const EMPTY: &str = "must not be empty";

fn listing<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    let ids: Vec<&str> = ids.collect();
    if ids.is_empty() {
        "none".into()
    } else {
        ids.join(", ")
    }
}

/// Reports empty and duplicate ids of the list at `list` and returns the set of
/// its ids.
fn check_ids<'a>(
    ids: impl Iterator<Item = &'a str>,
    list: &str,
    what: &str,
    fail: &mut impl FnMut(String, String),
) -> HashSet<&'a str> {
    let mut first_index: HashMap<&str, usize> = HashMap::new();
    for (i, id) in ids.enumerate() {
        if is_blank(id) {
            fail(format!("{list}[{i}].id"), EMPTY.into());
        } else if let Some(first) = first_index.get(id) {
            fail(
                format!("{list}[{i}].id"),
                format!("duplicate {what} id \"{id}\"; {list}[{first}] already has it"),
            );
        } else {
            first_index.insert(id, i);
        }
    }
    first_index.into_keys().collect()
}

fn case_error(case: &Case, line: usize, field: &str, message: String) -> DatasetError {
    DatasetError {
        line,
        case_id: (!is_blank(&case.case_id)).then(|| case.case_id.clone()),
        field: field.into(),
        message,
    }
}

/// The readers of a case and its parts, on top of the generic ones of
/// [`crate::core::lines`].
impl LineReader {
    fn case(&mut self, v: &Value) -> Option<Case> {
        let Some(obj) = v.as_object() else {
            self.fail(
                "",
                format!(
                    "expected a JSON object (one case per line), got {}",
                    describe(v)
                ),
            );
            return None;
        };
        // Read first, so that the errors of the other fields name the case.
        let case_id = self.required(obj, "", "case_id", Self::string);
        self.case_id = case_id.clone().filter(|id| !is_blank(id));

        let case_number = self.optional(obj, "", "case_number", Self::string);
        let cause = self.required(obj, "", "cause", Self::string);
        let class = self.required(obj, "", "class", Self::vocab::<Class>);
        let province = self.optional(obj, "", "province", Self::string);
        let plaintiff_type = self.required(obj, "", "plaintiff_type", Self::vocab::<PlaintiffType>);
        let profile = self.optional(obj, "", "profile", Self::profile);
        let provisions_cited = self.optional(obj, "", "provisions_cited", |r, v, p| {
            r.whole_number(v, p, 0)
        });
        let claims = self.required(obj, "", "claims", |r, v, p| r.list(v, p, Self::claim));
        let focal_points = self.required(obj, "", "focal_points", |r, v, p| {
            r.list(v, p, Self::focal_point)
        });
        let key_facts = self.required(obj, "", "key_facts", |r, v, p| r.list(v, p, Self::key_fact));
        let missing_facts = self.required(obj, "", "missing_facts", |r, v, p| {
            r.list(v, p, Self::string)
        });
        let consultations = self.required(obj, "", "consultations", Self::consultations);
        let seed = self.optional(obj, "", "seed", Self::boolean);

        Some(Case {
            case_id: case_id?,
            case_number: case_number?,
            cause: cause?,
            class: class?,
            province: province?,
            plaintiff_type: plaintiff_type?,
            profile: profile?,
            provisions_cited: provisions_cited?,
            claims: claims?,
            focal_points: focal_points?,
            key_facts: key_facts?,
            missing_facts: missing_facts?,
            consultations: consultations?,
            seed: seed?.unwrap_or(false),
        })
    }

    fn profile(&mut self, v: &Value, path: &str) -> Option<Profile> {
        let obj = self.object(v, path)?;
        let age = self.optional(obj, path, "age", |r, v, p| r.whole_number(v, p, 0));
        let gender = self.optional(obj, path, "gender", Self::string);
        let occupation = self.optional(obj, path, "occupation", Self::string);
        let personality = self.optional(obj, path, "personality", Self::string);
        let role = self.optional(obj, path, "role", Self::string);
        let extra = obj
            .iter()
            .filter(|(k, _)| {
                !["age", "gender", "occupation", "personality", "role"].contains(&k.as_str())
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Some(Profile {
            age: age?,
            gender: gender?,
            occupation: occupation?,
            personality: personality?,
            role: role?,
            extra,
        })
    }

    fn claim(&mut self, v: &Value, path: &str) -> Option<Claim> {
        let obj = self.object(v, path)?;
        let id = self.required(obj, path, "id", Self::string);
        let text = self.required(obj, path, "text", Self::string);
        let verdict = self.required(obj, path, "verdict", Self::vocab::<Verdict>);
        Some(Claim {
            id: id?,
            text: text?,
            verdict: verdict?,
        })
    }

    fn focal_point(&mut self, v: &Value, path: &str) -> Option<FocalPoint> {
        let obj = self.object(v, path)?;
        let id = self.required(obj, path, "id", Self::string);
        let text = self.required(obj, path, "text", Self::string);
        let r#type = self.required(obj, path, "type", Self::vocab::<FocalPointType>);
        Some(FocalPoint {
            id: id?,
            text: text?,
            r#type: r#type?,
        })
    }

    fn key_fact(&mut self, v: &Value, path: &str) -> Option<KeyFact> {
        let obj = self.object(v, path)?;
        let id = self.required(obj, path, "id", Self::string);
        let focal_point = self.required(obj, path, "focal_point", Self::string);
        let text = self.required(obj, path, "text", Self::string);
        let quote = self.optional(obj, path, "quote", Self::string);
        Some(KeyFact {
            id: id?,
            focal_point: focal_point?,
            text: text?,
            quote: quote?,
        })
    }

    fn consultations(&mut self, v: &Value, path: &str) -> Option<Consultations> {
        let obj = self.object(v, path)?;
        let complete = self.required(obj, path, "complete", |r, v, p| r.list(v, p, Self::turn));
        let underspecified = self.required(obj, path, "underspecified", |r, v, p| {
            r.list(v, p, Self::turn)
        });
        Some(Consultations {
            complete: complete?,
            underspecified: underspecified?,
        })
    }

    pub(crate) fn turn(&mut self, v: &Value, path: &str) -> Option<Turn> {
        let obj = self.object(v, path)?;
        let role = self.required(obj, path, "role", Self::vocab::<Role>);
        let content = self.required(obj, path, "content", Self::string);
        Some(Turn {
            role: role?,
            content: content?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path takes the lines it can and gives for them exactly what
    /// reading field by field gives; every other line is read field by field.
    #[test]
    fn the_fast_path_reads_as_the_field_by_field_path() {
        let file = crate::lexpilot::synthetic::dataset_file(1);
        let line = file.lines().next().expect("a case");
        let with = |extra: &str| line.replacen('{', &format!("{{{extra},"), 1);
        let set = |old: &str, new: &str| {
            assert!(line.contains(old), "{old}");
            line.replacen(old, new, 1)
        };
        let (seed, profile) = (r#""seed":true"#, r#""profile":{"age":26,"gender":"女"}"#);
        let (cited, verdict) = (r#""provisions_cited":2"#, r#""verdict":"supported""#);
        let taken = [
            line.to_owned(),
            with(r#""x": {"y": [1, {"z": null}]}"#),
            set(seed, r#""seed":false"#),
            set(seed, r#""seed":null"#),
            set(cited, r#""provisions_cited":4294967295"#),
            set(
                profile,
                r#""profile":{"age":30,"gender":"女","x":[1],"x":2}"#,
            ),
            set(profile, r#""profile":null,"case_number":null"#).replacen(
                r#""case_number":"（2023）粤0101民初1号","#,
                "",
                1,
            ),
            set(verdict, r#""verdict":"supported","quote":null"#),
        ];
        let left = [
            set(verdict, r#""verdict":"supp\u006frted""#),
            with(r#""cause": "离婚纠纷""#),
            with(r#""x": "\ud800""#),
            with(r#""x": 1e999"#),
            set(cited, r#""provisions_cited":-1"#),
            set(cited, r#""provisions_cited":3.0"#),
            set(cited, r#""provisions_cited":4294967296"#),
            set(profile, r#""profile":{"age":"30"}"#),
            set(profile, r#""profile":[]"#),
            set(r#"{"id":"c1","#, r#"["c1","#),
            set(verdict, r#""verdict":"won""#),
            set(r#""missing_facts":["#, r#""missing_facts":[null,"#),
            set(r#""role":"user""#, r#""role":"User""#),
            "[1]".to_owned(),
            "{}".to_owned(),
        ];
        for text in &taken {
            let fast = fast_case(text, 7).unwrap_or_else(|| panic!("not taken: {text}"));
            assert_eq!(Ok(fast), slow_case(text, 7), "{text}");
        }
        for text in &left {
            assert_eq!(fast_case(text, 7), None, "{text}");
            assert_eq!(read_case(text, 7), slow_case(text, 7), "{text}");
        }
    }

    /// Reading without the warnings gives what the check gives, cases or
    /// errors alike, on a valid file, one with warnings and one with errors.
    #[test]
    fn parse_without_warnings_keeps_the_answer_of_the_check() {
        let valid = crate::lexpilot::synthetic::dataset_file(2);
        let warned = valid.replace("这个我说不太清楚。", "首付款是我父亲付的。");
        let broken = warned
            .replacen("\"verdict\":\"supported\"", "\"verdict\":\"won\"", 1)
            .replacen('\n', "\n{\n", 1);
        let (with_warnings, with_errors) = (check_dataset(&warned), check_dataset(&broken));
        assert!(with_warnings.cases.is_ok() && !with_warnings.warnings.is_empty());
        assert_eq!(
            with_errors.cases.as_ref().map_err(|e| e.0.len()).err(),
            Some(2)
        );
        for text in [valid, warned, broken] {
            assert_eq!(parse_dataset(&text), check_dataset(&text).cases);
        }
    }
}
