//! The LexPilot paper's user-simulator fidelity study (Appendix E.3.2,
//! Table 13) and the DCG judge's alignment with factual recovery (E.3.3):
//! the pure rules of it.
//!
//! - **Probes.** Per sampled case ([`sample_cases`]: two per cause, the
//!   paper's 72 cases) experts write a [`Probe`]: the missing fact it
//!   targets, three questions for it, A (direct), B (indirect, everyday
//!   language) and C (broad: the legal concept without a concrete request),
//!   the minimum sufficient answer and the permitted disclosures they agreed
//!   on (never shown to the simulator), and, where the case allows it, D
//!   (withheld): the key facts with the target and anything sufficient to
//!   infer it removed, under which A is asked again. A probe file is JSON
//!   Lines, read by [`parse_probes`] against the dataset (line, case and
//!   field of every error).
//! - **Replies.** The workbench asks the simulator once per condition from a
//!   fresh copy of the case's underspecified consultation, the question as
//!   the advisor's turn ([`Probe::question`], [`Probe::simulator_case`]),
//!   and, withholding the replies, the main evaluation's DCG judge once per
//!   A–C question. The result file ([`FidelityRun`], [`parse_fidelity`])
//!   holds one [`FidelityReply`] per probe and condition.
//! - **Labels.** Two experts label every reply blind on its [`sheet`], one
//!   0/1 mark per criterion ([`Criterion`]): the answer is sufficient (A, B)
//!   or appropriately uncertain (D; not asked of C), over-disclosure, factual
//!   error. The review workflow's own rules (blind labels, agreement,
//!   adjudication) apply as to every score sheet ([`crate::review::Sheet`]).
//! - **Table 13.** [`study`] gives, per condition, the rates over the
//!   replies with a final label, DCG+ (the judge's acceptance of the
//!   question, over every judged question), the paired case bootstrap
//!   interval of B − A answer rates, the agreement before adjudication per
//!   criterion, the A/D pair rate and the conditional failure rate of
//!   accepted A/B requests (E.3.3).
//!
//! # The probe file
//!
//! ```json
//! {"case_id": "LP-0001", "fact": "k2", "direct": "借条上写的还款日期是哪天？",
//!  "indirect": "他当时说什么时候还钱？", "broad": "借款合同的履行期限有什么规定？",
//!  "minimum_answer": "说出约定的还款日期", "permitted": "可说明约定的形式",
//!  "withheld_key_facts": ["2020年3月被告向原告借款5万元。"]}
//! ```
//!
//! `fact` is one of the case's `missing_facts`; `withheld_key_facts`, when
//! present, is the simulator's whole key-fact list under D (each a non-empty
//! text, none the target fact's), and `null` or absent when the case keeps
//! A–C only. One probe per case. Keys starting with `_` are notes and are
//! ignored (`lexpilot experiment fidelity-sample` lists the missing facts
//! under `_missing_facts`); any other unknown key is an error.
//!
//! # The result file
//!
//! Line 1 `{"kind": "fidelity_run", "user_model": …, "judge": …, "dataset":
//! …, "created_at": …, …}` (other keys kept), then one line per probe and
//! condition `{"kind": "fidelity_reply", "case_id", "condition", "question",
//! "reply", "dcg_accepted", "unavailable"}`: `reply` null only when
//! `unavailable` says why; `dcg_accepted` null for D and when the judge gave
//! no valid reply.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::benchmark::Benchmark;
use crate::core::columns::Better;
use crate::core::errors::DatasetError;
use crate::lexpilot::dataset::{Case, KeyFact};
use crate::lexpilot::paper::{Column, Format, PaperRow, PaperTable};
use crate::metrics::{paired_bootstrap, MeanStd, PairedBootstrap, Xoshiro256StarStar};
use crate::review::{Sheet, SheetUnit};
use crate::vocab::vocabulary;

vocabulary! {
    /// The four probe conditions of Table 13.
    Condition, kind "condition" {
        /// A asks explicitly for the missing fact.
        Direct = "direct", zh "A 直接提问", en "A: Direct";
        /// B asks for the same fact in everyday language or through a cue.
        Indirect = "indirect", zh "B 间接提问", en "B: Indirect";
        /// C mentions the legal concept without a concrete factual request.
        Broad = "broad", zh "C 宽泛提问", en "C: Broad";
        /// D repeats A with the fact removed from the simulator's input.
        Withheld = "withheld", zh "D 信息缺失", en "D: Withheld";
    }
}

vocabulary! {
    /// What an expert marks of each reply (E.3.2, criteria 1 to 3).
    Criterion, kind "criterion" {
        /// A/B: the answer is correct and sufficient; D: it acknowledges the
        /// missing information appropriately. Not asked of C.
        Answer = "answer", zh "回答充分（D：恰当表示不知）", en "Answer sufficient (D: appropriate uncertainty)";
        /// The reply discloses hidden facts beyond the agreed permissions.
        OverDisclosure = "over_disclosure", zh "过度披露", en "Over-disclosure";
        /// Unsupported assertions, contradictions or entity confusion.
        Error = "error", zh "事实错误", en "Factual error";
    }
}

/// The sheet task of fidelity replies (a review item's `sheet.task`).
pub const SHEET_TASK: &str = "simulator_fidelity";
/// Causes sampled per cause (E.3.2: two per cause, 72 cases).
pub const PER_CAUSE: usize = 2;
/// Resamples of the paired case bootstrap.
pub const RESAMPLES: usize = 2000;
/// Its seed, fixed so that the page and the export agree.
pub const SEED: u64 = 13;

/// The probes of one case, as experts wrote them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    pub case_id: String,
    /// The id of the targeted missing key fact.
    pub fact: String,
    /// A: the direct question.
    pub direct: String,
    /// B: the indirect question.
    pub indirect: String,
    /// C: the broad question.
    pub broad: String,
    /// The minimum sufficient answer agreed before generation.
    pub minimum_answer: String,
    /// What a reply may disclose besides it (may be empty).
    #[serde(default)]
    pub permitted: String,
    /// D's key facts (the simulator's whole list); `None` keeps A–C only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withheld_key_facts: Option<Vec<String>>,
}

impl Probe {
    /// The conditions this probe is asked under: A–C, and D when it has
    /// withheld key facts.
    pub fn conditions(&self) -> Vec<Condition> {
        Condition::ALL
            .into_iter()
            .filter(|c| *c != Condition::Withheld || self.withheld_key_facts.is_some())
            .collect()
    }

    /// The question asked under `condition` (D repeats A).
    pub fn question(&self, condition: Condition) -> &str {
        match condition {
            Condition::Direct | Condition::Withheld => &self.direct,
            Condition::Indirect => &self.indirect,
            Condition::Broad => &self.broad,
        }
    }

    /// The case as the simulator sees it under `condition`: unchanged but
    /// for D, whose key facts are the probe's withheld list (ids `d1`, `d2`,
    /// … on the target's focal point).
    pub fn simulator_case(&self, case: &Case, condition: Condition) -> Case {
        let mut case = case.clone();
        if let (Condition::Withheld, Some(facts)) = (condition, &self.withheld_key_facts) {
            let focal = case
                .key_facts
                .iter()
                .find(|k| k.id == self.fact)
                .map(|k| k.focal_point.clone())
                .unwrap_or_default();
            case.key_facts = facts
                .iter()
                .enumerate()
                .map(|(i, text)| KeyFact {
                    id: format!("d{}", i + 1),
                    focal_point: focal.clone(),
                    text: text.clone(),
                    quote: None,
                })
                .collect();
            case.missing_facts.clear();
        }
        case
    }

    /// The rules one probe keeps against its `case` (the rest of the
    /// [module documentation](self)'s rules are about the file): each
    /// broken one as `(field, message)`, in field order; empty when the
    /// probe can be stored.
    ///
    /// ```
    /// use engine::lexpilot::fidelity::Probe;
    /// let cases = engine::lexpilot::dataset::parse_dataset(&engine::lexpilot::synthetic::dataset_file(2)).unwrap();
    /// let case = cases.iter().find(|c| !c.missing_facts.is_empty()).unwrap();
    /// let mut probe = Probe::draft(case);
    /// assert_eq!(probe.check(case).iter().map(|(f, _)| f.as_str()).collect::<Vec<_>>(),
    ///            ["direct", "indirect", "broad", "minimum_answer"]);
    /// probe.direct = "借款是哪天？".into();
    /// probe.indirect = "他什么时候拿的钱？".into();
    /// probe.broad = "借款合同怎么规定？".into();
    /// probe.minimum_answer = "日期".into();
    /// assert!(probe.check(case).is_empty());
    /// probe.fact = "k99".into();
    /// assert_eq!(probe.check(case)[0].0, "fact");
    /// ```
    pub fn check(&self, case: &Case) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if !case.missing_facts.contains(&self.fact) {
            out.push((
                "fact".to_owned(),
                format!(
                    "{:?} is not a missing fact of the case; expected one of {}",
                    self.fact,
                    case.missing_facts.join(", ")
                ),
            ));
        }
        for (field, text) in [
            ("direct", &self.direct),
            ("indirect", &self.indirect),
            ("broad", &self.broad),
            ("minimum_answer", &self.minimum_answer),
        ] {
            if text.trim().is_empty() {
                out.push((field.to_owned(), "must not be empty".into()));
            }
        }
        if let Some(facts) = &self.withheld_key_facts {
            let target = case
                .key_facts
                .iter()
                .find(|k| k.id == self.fact)
                .map(|k| k.text.trim());
            if facts.is_empty() {
                out.push((
                    "withheld_key_facts".to_owned(),
                    "is empty; leave it out (or null) to keep A–C only".into(),
                ));
            }
            for (i, f) in facts.iter().enumerate() {
                let field = format!("withheld_key_facts[{i}]");
                if f.trim().is_empty() {
                    out.push((field, "must not be empty".into()));
                } else if Some(f.trim()) == target {
                    out.push((field, format!("is the withheld fact {} itself", self.fact)));
                }
            }
        }
        out
    }

    /// A probe of `case` to fill in: its first missing fact targeted, the
    /// questions and answers empty, and D's key facts the case's key facts
    /// that are not missing (the experts then remove anything sufficient to
    /// infer the target).
    pub fn draft(case: &Case) -> Probe {
        Probe {
            case_id: case.case_id.clone(),
            fact: case.missing_facts.first().cloned().unwrap_or_default(),
            direct: String::new(),
            indirect: String::new(),
            broad: String::new(),
            minimum_answer: String::new(),
            permitted: String::new(),
            withheld_key_facts: Some(
                case.key_facts
                    .iter()
                    .filter(|k| !case.missing_facts.contains(&k.id))
                    .map(|k| k.text.clone())
                    .collect(),
            ),
        }
    }
}

fn error(line: usize, case_id: Option<&str>, field: &str, message: String) -> DatasetError {
    DatasetError {
        line,
        case_id: case_id.map(str::to_owned),
        field: field.to_owned(),
        message,
    }
}

/// Each non-empty line of `text` as a JSON object, with its line number;
/// the lines that are not are errors.
fn objects(text: &str, errors: &mut Vec<DatasetError>) -> Vec<(usize, Map<String, Value>)> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let raw = raw.trim_start_matches('\u{feff}');
        if raw.trim().is_empty() {
            continue;
        }
        match serde_json::from_str(raw) {
            Ok(Value::Object(map)) => out.push((n + 1, map)),
            Ok(_) => errors.push(error(n + 1, None, "", "not a JSON object".into())),
            Err(e) => errors.push(error(n + 1, None, "", format!("invalid JSON: {e}"))),
        }
    }
    out
}

fn case_id_of(map: &Map<String, Value>) -> Option<String> {
    map.get("case_id")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// Reads a probe file against the dataset's `cases`, checking every rule of
/// the [module documentation](self); every error names its line, case and
/// field.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::fidelity::parse_probes;
/// let cases = engine::lexpilot::dataset::parse_dataset(&engine::lexpilot::synthetic::dataset_file(2)).unwrap();
/// let case = cases.iter().find(|c| !c.missing_facts.is_empty()).unwrap();
/// let line = serde_json::json!({"case_id": case.case_id, "fact": case.missing_facts[0],
///     "direct": "借款是哪天？", "indirect": "他什么时候拿的钱？", "broad": "借款合同怎么规定？",
///     "minimum_answer": "日期"});
/// let probes = parse_probes(&line.to_string(), &cases).unwrap();
/// assert_eq!(probes[0].conditions().len(), 3);
///
/// let bad = line.to_string().replace(&case.missing_facts[0], "k99");
/// let errors = parse_probes(&bad, &cases).unwrap_err();
/// assert_eq!((errors[0].line, errors[0].field.as_str()), (1, "fact"));
/// ```
pub fn parse_probes(text: &str, cases: &[Case]) -> Result<Vec<Probe>, Vec<DatasetError>> {
    let by_id: HashMap<&str, &Case> = cases.iter().map(|c| (c.case_id.as_str(), c)).collect();
    let mut errors = Vec::new();
    let mut probes = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (line, mut map) in objects(text, &mut errors) {
        let id = case_id_of(&map);
        // Keys starting with `_` are notes (the template's `_missing_facts`).
        map.retain(|k, _| !k.starts_with('_'));
        let probe: Probe = match serde_json::from_value(Value::Object(map)) {
            Ok(p) => p,
            Err(e) => {
                let message = e.to_string();
                let field = message
                    .split('`')
                    .nth(1)
                    .filter(|_| message.contains("field"))
                    .unwrap_or("")
                    .to_owned();
                errors.push(error(line, id.as_deref(), &field, message));
                continue;
            }
        };
        let at = |field: &str, message: String| error(line, Some(&probe.case_id), field, message);
        let Some(case) = by_id.get(probe.case_id.as_str()) else {
            errors.push(at(
                "case_id",
                format!("no case {} in the dataset", probe.case_id),
            ));
            continue;
        };
        if let Some(first) = seen.insert(probe.case_id.clone(), line) {
            errors.push(at(
                "case_id",
                format!("a second probe of the case (the first is on line {first})"),
            ));
        }
        for (field, message) in probe.check(case) {
            errors.push(at(&field, message));
        }
        probes.push(probe);
    }
    errors.sort_by_key(|e| e.line);
    if errors.is_empty() {
        Ok(probes)
    } else {
        Err(errors)
    }
}

/// One case to write a probe for, with what the expert needs beside the
/// form: the case's cause, its key facts (marked when missing) and the
/// stored probe, else a [`Probe::draft`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeCase {
    pub case_id: String,
    pub cause: String,
    /// `(id, text, missing)` of every key fact.
    pub key_facts: Vec<(String, String, bool)>,
    pub probe: Probe,
    /// Whether `probe` is stored (else it is the draft).
    pub written: bool,
}

/// The probe-writing sheet of a dataset version: the sampled cases
/// ([`sample_cases`], [`PER_CAUSE`] per cause from [`SEED`]) and any other
/// case with a stored probe, in dataset order; `fixed` once the study's
/// replies exist (its probes can no longer change).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeSheet {
    pub cases: Vec<ProbeCase>,
    pub fixed: bool,
}

impl ProbeSheet {
    /// The sheet of `cases` with the probes `stored`.
    ///
    /// ```
    /// use engine::lexpilot::fidelity::{ProbeSheet, Probe, PER_CAUSE};
    /// let cases = engine::lexpilot::dataset::parse_dataset(&engine::lexpilot::synthetic::dataset_file(3)).unwrap();
    /// let sheet = ProbeSheet::of(&cases, Vec::new(), false);
    /// let causes: std::collections::BTreeSet<_> = cases.iter().filter(|c| !c.missing_facts.is_empty()).map(|c| &c.cause).collect();
    /// assert!(sheet.cases.len() <= causes.len() * PER_CAUSE && !sheet.cases.is_empty());
    /// assert_eq!(sheet.written(), 0);
    ///
    /// // A stored probe of a case not drawn is listed too, as written.
    /// let other = cases.iter().find(|c| !c.missing_facts.is_empty() && sheet.cases.iter().all(|s| s.case_id != c.case_id));
    /// if let Some(other) = other {
    ///     let sheet = ProbeSheet::of(&cases, vec![Probe::draft(other)], false);
    ///     assert!(sheet.cases.iter().any(|c| c.case_id == other.case_id && c.written));
    ///     assert_eq!(sheet.written(), 1);
    /// }
    /// ```
    pub fn of(cases: &[Case], stored: Vec<Probe>, fixed: bool) -> ProbeSheet {
        let mut stored: HashMap<String, Probe> =
            stored.into_iter().map(|p| (p.case_id.clone(), p)).collect();
        let drawn: HashSet<String> = sample_cases(cases, PER_CAUSE, SEED).into_iter().collect();
        let cases = cases
            .iter()
            .filter_map(|c| {
                let probe = stored.remove(&c.case_id);
                if probe.is_none() && !drawn.contains(&c.case_id) {
                    return None;
                }
                Some(ProbeCase {
                    case_id: c.case_id.clone(),
                    cause: c.cause.clone(),
                    key_facts: c
                        .key_facts
                        .iter()
                        .map(|k| {
                            (
                                k.id.clone(),
                                k.text.clone(),
                                c.missing_facts.contains(&k.id),
                            )
                        })
                        .collect(),
                    written: probe.is_some(),
                    probe: probe.unwrap_or_else(|| Probe::draft(c)),
                })
            })
            .collect();
        ProbeSheet { cases, fixed }
    }

    /// How many of the cases have a stored probe.
    pub fn written(&self) -> usize {
        self.cases.iter().filter(|c| c.written).count()
    }
}

/// The probe file of `probes` (one line each).
pub fn probes_to_jsonl(probes: &[Probe]) -> String {
    probes
        .iter()
        .filter_map(|p| serde_json::to_string(p).ok())
        .map(|l| l + "\n")
        .collect()
}

/// The cases to write probes for: `per_cause` cases of every cause (all of
/// a cause that has fewer) among the cases with a missing fact, drawn
/// reproducibly from `seed`, in dataset order.
///
/// ```
/// use engine::lexpilot::fidelity::sample_cases;
/// let cases = engine::lexpilot::dataset::parse_dataset(&engine::lexpilot::synthetic::dataset_file(2)).unwrap();
/// let drawn = sample_cases(&cases, 2, 1);
/// assert_eq!(drawn, sample_cases(&cases, 2, 1));
/// let causes: std::collections::HashSet<_> = cases.iter().map(|c| &c.cause).collect();
/// assert!(drawn.len() <= 2 * causes.len());
/// ```
pub fn sample_cases(cases: &[Case], per_cause: usize, seed: u64) -> Vec<String> {
    let mut by_cause: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        if !c.missing_facts.is_empty() {
            by_cause.entry(&c.cause).or_default().push(i);
        }
    }
    let mut rng = Xoshiro256StarStar::seed_from_u64(seed);
    let mut chosen: Vec<usize> = Vec::new();
    for (_, mut idx) in by_cause {
        // A partial Fisher–Yates shuffle: the first `per_cause` are the draw.
        for k in 0..idx.len().min(per_cause) {
            let rest = std::num::NonZeroU64::new((idx.len() - k) as u64);
            let j = k + rest.map_or(0, |r| rng.below(r) as usize);
            idx.swap(k, j);
        }
        chosen.extend(idx.into_iter().take(per_cause));
    }
    chosen.sort_unstable();
    chosen
        .into_iter()
        .map(|i| cases[i].case_id.clone())
        .collect()
}

/// The result file's header: who replied and judged, and what else the
/// pipeline recorded (prompt hashes, generation settings).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FidelityHeader {
    /// The user model (the simulator).
    pub user_model: String,
    /// The DCG judge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The simulator's reply to one probe question, and the DCG judge's
/// decision on the question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FidelityReply {
    pub case_id: String,
    pub condition: Condition,
    pub question: String,
    pub reply: Option<String>,
    /// The DCG judge's acceptance of the question (A–C).
    pub dcg_accepted: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
}

/// A result file: the header and one reply per probe and condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FidelityRun {
    pub header: FidelityHeader,
    pub replies: Vec<FidelityReply>,
}

/// The kind of the header line.
pub const HEADER_KIND: &str = "fidelity_run";
/// The kind of a reply line.
pub const ITEM_KIND: &str = "fidelity_reply";

impl FidelityRun {
    /// The result file as JSON Lines.
    pub fn to_jsonl(&self) -> String {
        let mut header = serde_json::to_value(&self.header).unwrap_or_default();
        if let Value::Object(m) = &mut header {
            m.insert("kind".into(), HEADER_KIND.into());
        }
        let mut out = format!("{header}\n");
        for r in &self.replies {
            let mut line = serde_json::to_value(r).unwrap_or_default();
            if let Value::Object(m) = &mut line {
                m.insert("kind".into(), ITEM_KIND.into());
            }
            out.push_str(&format!("{line}\n"));
        }
        out
    }
}

/// Reads a result file against the `probes` it was made from: a header,
/// then exactly one reply per probe and condition, each asking the probe's
/// question; errors name line, case and field.
pub fn parse_fidelity(text: &str, probes: &[Probe]) -> Result<FidelityRun, Vec<DatasetError>> {
    let mut errors = Vec::new();
    let mut lines = objects(text, &mut errors).into_iter();
    let Some((line, mut head)) = lines.next() else {
        errors.push(error(1, None, "", "the file is empty".into()));
        return Err(errors);
    };
    if head.remove("kind").as_ref().and_then(Value::as_str) != Some(HEADER_KIND) {
        errors.push(error(
            line,
            None,
            "kind",
            format!("the first line must be the header (\"kind\": \"{HEADER_KIND}\")"),
        ));
        return Err(errors);
    }
    let header: FidelityHeader = match serde_json::from_value(Value::Object(head)) {
        Ok(h) => h,
        Err(e) => {
            errors.push(error(line, None, "", format!("invalid header: {e}")));
            return Err(errors);
        }
    };
    let expected: HashMap<(&str, Condition), &str> = probes
        .iter()
        .flat_map(|p| {
            p.conditions()
                .into_iter()
                .map(move |c| ((p.case_id.as_str(), c), p.question(c)))
        })
        .collect();
    let mut seen: HashSet<(String, Condition)> = HashSet::new();
    let mut replies = Vec::new();
    for (line, mut map) in lines {
        let id = case_id_of(&map);
        let at = |field: &str, message: String| error(line, id.as_deref(), field, message);
        let kind = map.remove("kind");
        if kind.as_ref().and_then(Value::as_str) != Some(ITEM_KIND) {
            errors.push(at(
                "kind",
                format!(
                    "expected \"{ITEM_KIND}\", got {}",
                    kind.unwrap_or(Value::Null)
                ),
            ));
            continue;
        }
        let reply: FidelityReply = match serde_json::from_value(Value::Object(map)) {
            Ok(r) => r,
            Err(e) => {
                errors.push(at("", e.to_string()));
                continue;
            }
        };
        let key = (reply.case_id.as_str(), reply.condition);
        match expected.get(&key) {
            None => errors.push(at(
                "condition",
                format!(
                    "no probe asks case {} under {}",
                    reply.case_id, reply.condition
                ),
            )),
            Some(q) if q.trim() != reply.question.trim() => errors.push(at(
                "question",
                "is not the probe's question for this condition".into(),
            )),
            Some(_) => {}
        }
        if reply.reply.is_none() && reply.unavailable.is_none() {
            errors.push(at("reply", "is null without \"unavailable\"".into()));
        }
        if reply.condition == Condition::Withheld && reply.dcg_accepted.is_some() {
            errors.push(at(
                "dcg_accepted",
                "D is not judged: it must be null".into(),
            ));
        }
        if !seen.insert((reply.case_id.clone(), reply.condition)) {
            errors.push(at(
                "condition",
                "a second reply of this case and condition".into(),
            ));
        }
        replies.push(reply);
    }
    let mut missing: Vec<_> = expected
        .keys()
        .filter(|(id, c)| !seen.contains(&((*id).to_owned(), *c)))
        .collect();
    missing.sort();
    for (id, c) in missing {
        errors.push(error(
            0,
            Some(id),
            "condition",
            format!("the file has no reply of case {id} under {c}"),
        ));
    }
    if errors.is_empty() {
        Ok(FidelityRun { header, replies })
    } else {
        Err(errors)
    }
}

/// The score sheet an expert labels a reply of `condition` on: one 0/1 mark
/// per criterion that applies (no answer mark for C).
///
/// ```
/// use engine::lexpilot::fidelity::{sheet, Condition};
///
/// assert_eq!(sheet(Condition::Direct).units.len(), 3);
/// assert_eq!(sheet(Condition::Broad).units.len(), 2);
/// assert_eq!(sheet(Condition::Direct).canonical("answer=1, over_disclosure=0, error=0").unwrap(),
///            r#"{"answer":1,"over_disclosure":0,"error":0}"#);
/// ```
pub fn sheet(condition: Condition) -> Sheet {
    let units = Criterion::ALL
        .into_iter()
        .filter(|c| *c != Criterion::Answer || condition != Condition::Broad)
        .map(|c| SheetUnit {
            key: c.as_str().to_owned(),
            name: format!("{} {}", c.label_zh(), c.label_en()),
            max: 1.0,
            step: 1.0,
            group: None,
        })
        .collect();
    Sheet {
        benchmark: Benchmark::Lexpilot,
        task: SHEET_TASK.to_owned(),
        units,
        groups: Vec::new(),
    }
}

/// One reply's marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marks {
    /// `None` for C.
    pub answer: Option<bool>,
    pub over_disclosure: bool,
    pub error: bool,
}

impl Marks {
    /// The marks of stored sheet label `stored` of a reply of `condition`.
    pub fn read(condition: Condition, stored: &str) -> Option<Marks> {
        let value: Map<String, Value> = serde_json::from_str(stored).ok()?;
        let mark = |c: Criterion| {
            value
                .get(c.as_str())
                .and_then(Value::as_f64)
                .map(|p| p >= 1.0)
        };
        let answer = match condition {
            Condition::Broad => None,
            _ => Some(mark(Criterion::Answer)?),
        };
        Some(Marks {
            answer,
            over_disclosure: mark(Criterion::OverDisclosure)?,
            error: mark(Criterion::Error)?,
        })
    }

    fn get(&self, c: Criterion) -> Option<bool> {
        match c {
            Criterion::Answer => self.answer,
            Criterion::OverDisclosure => Some(self.over_disclosure),
            Criterion::Error => Some(self.error),
        }
    }

    /// Factual recovery (E.3.3): sufficient, no over-disclosure, no error.
    pub fn recovers(&self) -> bool {
        self.answer == Some(true) && !self.over_disclosure && !self.error
    }
}

/// One reply with what the review made of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelledReply {
    pub case_id: String,
    pub condition: Condition,
    pub dcg_accepted: Option<bool>,
    /// The final label (agreed or adjudicated), once there is one.
    pub final_marks: Option<Marks>,
    /// The blind labels of the first two experts who submitted.
    pub blind: Vec<Marks>,
}

/// A share: `k` of `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    pub k: usize,
    pub n: usize,
}

impl Share {
    fn of(hits: impl Iterator<Item = bool>) -> Share {
        let (mut k, mut n) = (0, 0);
        for h in hits {
            n += 1;
            k += usize::from(h);
        }
        Share { k, n }
    }

    /// `k / n`; `None` when `n` is 0.
    pub fn rate(&self) -> Option<f64> {
        (self.n > 0).then(|| self.k as f64 / self.n as f64)
    }
}

/// The agreement before adjudication on one criterion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CriterionAgreement {
    pub criterion: Criterion,
    /// Replies both experts marked the same, of those two experts marked.
    pub agree: Share,
}

/// Table 13 and the figures around it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Study {
    /// Table 13: rows A–D; Answer, OD, Error, DCG+.
    pub table: PaperTable,
    /// Per condition and column, the counts behind each rate (the same
    /// order as the table's cells).
    pub counts: Vec<Vec<Option<Share>>>,
    /// Replies in all, and with a final label.
    pub replies: usize,
    pub labelled: usize,
    /// Indirect minus direct answer rate over the cases whose A and B both
    /// have a final label, with its paired case bootstrap interval.
    pub b_minus_a: Option<PairedBootstrap>,
    pub paired_cases: usize,
    /// Agreement before adjudication per criterion.
    pub agreement: Vec<CriterionAgreement>,
    /// Cases whose A is sufficient and whose D is appropriately uncertain,
    /// of the cases with both labelled.
    pub a_d_pairs: Share,
    /// Accepted A/B requests whose reply fails factual recovery, of the
    /// accepted A/B requests with a final label (E.3.3).
    pub accepted_failures: Share,
}

/// Table 13 over `replies`; see the [module documentation](self).
///
/// ```
/// use engine::lexpilot::fidelity::{study, Condition, LabelledReply, Marks};
///
/// let marks = |answer| Marks { answer, over_disclosure: false, error: false };
/// let reply = |case: &str, condition, accepted, m| LabelledReply {
///     case_id: case.into(), condition, dcg_accepted: accepted, final_marks: Some(m), blind: vec![m, m],
/// };
/// let replies = vec![
///     reply("c1", Condition::Direct, Some(true), marks(Some(true))),
///     reply("c1", Condition::Indirect, Some(true), marks(Some(false))),
///     reply("c1", Condition::Broad, Some(false), marks(None)),
/// ];
/// let s = study(&replies);
/// assert_eq!(s.table.text(0, 0), "100.00%");
/// assert_eq!(s.table.text(1, 0), "0.00%");
/// assert_eq!(s.table.text(2, 0), "—");
/// assert_eq!(s.table.text(2, 3), "0.00%");
/// assert_eq!(s.b_minus_a.unwrap().diff, -1.0);
/// assert_eq!((s.accepted_failures.k, s.accepted_failures.n), (1, 2));
/// ```
pub fn study(replies: &[LabelledReply]) -> Study {
    let of = |c: Condition| replies.iter().filter(move |r| r.condition == c);
    let finals = |c: Condition| of(c).filter_map(|r| r.final_marks);
    let mut counts = Vec::new();
    let mut rows = Vec::new();
    for c in Condition::ALL {
        let answer = (c != Condition::Broad).then(|| Share::of(finals(c).filter_map(|m| m.answer)));
        let od = Share::of(finals(c).map(|m| m.over_disclosure));
        let err = Share::of(finals(c).map(|m| m.error));
        let dcg =
            (c != Condition::Withheld).then(|| Share::of(of(c).filter_map(|r| r.dcg_accepted)));
        let cells = [answer, Some(od), Some(err), dcg];
        rows.push(PaperRow {
            group: None,
            label: c.label_en().to_owned(),
            entry: None,
            cells: cells
                .iter()
                .map(|s| {
                    s.and_then(|s| s.rate())
                        .map(|mean| MeanStd { mean, std: None })
                })
                .collect(),
            summary: false,
            format: None,
        });
        counts.push(cells.to_vec());
    }
    let column = |key: &str, label: &str, better| Column {
        key: key.to_owned(),
        label: label.to_owned(),
        format: Format::Percent,
        better,
    };
    let table = PaperTable {
        name: "table_13".into(),
        caption: "Table 13: User-simulator fidelity on expert-authored probes: answer, \
                  over-disclosure (OD) and factual-error rates over the labelled replies, and \
                  the DCG judge's acceptance of each question (DCG+)"
            .into(),
        heads: (String::new(), "Condition".into()),
        columns: vec![
            // Whether the simulator should answer depends on the condition
            // (a withheld fact should not be told); over-disclosure and
            // factual errors are always worse.
            column("answer", "Answer", Better::Neither),
            column("od", "OD", Better::Lower),
            column("error", "Error", Better::Lower),
            column("dcg_plus", "DCG+", Better::Neither),
        ],
        rows,
    };

    let final_of = |c: Condition| -> HashMap<&str, Marks> {
        of(c)
            .filter_map(|r| Some((r.case_id.as_str(), r.final_marks?)))
            .collect()
    };
    let (a, b, d) = (
        final_of(Condition::Direct),
        final_of(Condition::Indirect),
        final_of(Condition::Withheld),
    );
    let mut pairs: Vec<(f64, f64)> = a
        .iter()
        .filter_map(|(id, ma)| {
            let mb = b.get(id)?;
            Some((
                f64::from(u8::from(ma.answer?)),
                f64::from(u8::from(mb.answer?)),
            ))
        })
        .collect();
    pairs.sort_by(|x, y| x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal));
    let mean = |pick: fn(&(f64, f64)) -> f64| {
        let pairs = &pairs;
        move |s: &[usize]| {
            (!s.is_empty())
                .then(|| s.iter().map(|&i| pick(&pairs[i])).sum::<f64>() / s.len() as f64)
        }
    };
    let b_minus_a = paired_bootstrap(
        pairs.len(),
        mean(|p| p.1),
        mean(|p| p.0),
        RESAMPLES,
        SEED,
        0.95,
    );

    let agreement = Criterion::ALL
        .into_iter()
        .map(|criterion| CriterionAgreement {
            criterion,
            agree: Share::of(
                replies
                    .iter()
                    .filter(|r| r.blind.len() >= 2)
                    .filter_map(|r| Some(r.blind[0].get(criterion)? == r.blind[1].get(criterion)?)),
            ),
        })
        .collect();
    let a_d_pairs = Share::of(a.iter().filter_map(|(id, ma)| {
        let md = d.get(id)?;
        Some(ma.answer? && md.answer?)
    }));
    let accepted_failures = Share::of(
        replies
            .iter()
            .filter(|r| matches!(r.condition, Condition::Direct | Condition::Indirect))
            .filter(|r| r.dcg_accepted == Some(true))
            .filter_map(|r| Some(!r.final_marks?.recovers())),
    );
    Study {
        table,
        counts,
        replies: replies.len(),
        labelled: replies.iter().filter(|r| r.final_marks.is_some()).count(),
        paired_cases: pairs.len(),
        b_minus_a,
        agreement,
        a_d_pairs,
        accepted_failures,
    }
}

/// Table 13 with who made it: what the paper page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyView {
    /// The simulator studied.
    pub user_model: String,
    /// The DCG judge.
    pub judge: Option<String>,
    /// Probes (cases) written.
    pub probes: usize,
    pub study: Study,
}

/// `0..n` in an order drawn from `seed` (Fisher–Yates): the order replies
/// enter the review queue, so that an expert meets the conditions mixed.
///
/// ```
/// use engine::lexpilot::fidelity::shuffled;
///
/// let mut order = shuffled(10, 3);
/// assert_eq!(order, shuffled(10, 3));
/// order.sort();
/// assert_eq!(order, (0..10).collect::<Vec<_>>());
/// ```
pub fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = Xoshiro256StarStar::seed_from_u64(seed);
    for k in (1..n).rev() {
        let bound = std::num::NonZeroU64::new(k as u64 + 1);
        order.swap(k, bound.map_or(0, |b| rng.below(b) as usize));
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels reproducing the counts behind the paper's Table 13 over 72
    /// cases (E.3.2, E.3.3): answer 68, 66, —, 67; over-disclosure 2, 3, 4,
    /// 2; error 1, 2, 1, 3; DCG+ 69, 67, 4; agreement before adjudication
    /// 201/216, 258/288 and 280/288; 10 of the 136 accepted A/B fail.
    fn paper_replies() -> Vec<LabelledReply> {
        let counts: [(Condition, usize, usize, usize, usize); 4] = [
            (Condition::Direct, 68, 2, 1, 69),
            (Condition::Indirect, 66, 3, 2, 67),
            (Condition::Broad, 0, 4, 1, 4),
            (Condition::Withheld, 67, 2, 3, 0),
        ];
        let mut out = Vec::new();
        for (c, answered, od, err, accepted) in counts {
            for i in 0..72 {
                let marks = Marks {
                    answer: (c != Condition::Broad).then_some(i < answered),
                    // Faults on the first replies, which the judge accepted:
                    // with the one unanswered accepted reply of each, 4 of
                    // A's and 6 of B's accepted requests fail.
                    over_disclosure: i < od,
                    error: (od..od + err).contains(&i),
                };
                out.push(LabelledReply {
                    case_id: format!("c{i:02}"),
                    condition: c,
                    dcg_accepted: (c != Condition::Withheld).then_some(i < accepted),
                    final_marks: Some(marks),
                    blind: vec![marks, marks],
                });
            }
        }
        // Disagreements before adjudication: 15 on the answer mark of A, B
        // or D, 30 on over-disclosure, 8 on error.
        let flip = |r: &mut LabelledReply, c: Criterion| {
            let m = &mut r.blind[1];
            match c {
                Criterion::Answer => m.answer = m.answer.map(|a| !a),
                Criterion::OverDisclosure => m.over_disclosure = !m.over_disclosure,
                Criterion::Error => m.error = !m.error,
            }
        };
        let answerable: Vec<usize> = (0..out.len())
            .filter(|&i| out[i].condition != Condition::Broad)
            .collect();
        for &i in answerable.iter().take(15) {
            flip(&mut out[i], Criterion::Answer);
        }
        for i in 0..30 {
            flip(&mut out[i * 9], Criterion::OverDisclosure);
        }
        for i in 0..8 {
            flip(&mut out[i * 31 + 1], Criterion::Error);
        }
        out
    }

    #[test]
    fn table_13_reproduces_the_papers_rates_from_its_counts() {
        let s = study(&paper_replies());
        let row = |r: usize| -> Vec<String> { (0..4).map(|c| s.table.text(r, c)).collect() };
        // The paper writes one decimal: 94.4%, 2.8%, 1.4%, 95.8%, …
        assert_eq!(row(0), ["94.44%", "2.78%", "1.39%", "95.83%"]);
        assert_eq!(row(1), ["91.67%", "4.17%", "2.78%", "93.06%"]);
        assert_eq!(row(2), ["—", "5.56%", "1.39%", "5.56%"]);
        assert_eq!(row(3), ["93.06%", "2.78%", "4.17%", "—"]);
        let agree: Vec<(usize, usize)> =
            s.agreement.iter().map(|a| (a.agree.k, a.agree.n)).collect();
        assert_eq!(agree, [(201, 216), (258, 288), (280, 288)]);
        assert_eq!(format!("{:.1}", 100.0 * 201.0 / 216.0), "93.1");
        assert_eq!((s.accepted_failures.n, s.accepted_failures.k), (136, 10));
        assert_eq!(
            format!("{:.1}", 100.0 * s.accepted_failures.rate().unwrap()),
            "7.4"
        );
        let diff = s.b_minus_a.unwrap();
        assert!((diff.diff - (-2.0 / 72.0)).abs() < 1e-12, "{}", diff.diff);
        assert!(diff.ci.0 <= diff.diff && diff.diff <= diff.ci.1);
        // A two-reply gap in 72 pairs cannot be told from none.
        assert!(diff.ci.0 < 0.0 && diff.ci.1 >= 0.0, "{:?}", diff.ci);
        assert_eq!(
            (s.a_d_pairs.n, s.replies, s.labelled, s.paired_cases),
            (72, 288, 288, 72)
        );
    }

    #[test]
    fn rates_count_only_labelled_replies_and_dcg_counts_every_judged_question() {
        let mut replies = paper_replies();
        for r in replies.iter_mut().filter(|r| r.case_id == "c00") {
            r.final_marks = None;
        }
        let s = study(&replies);
        assert_eq!(s.labelled, 284);
        assert_eq!(s.counts[0][0], Some(Share { k: 67, n: 71 }));
        assert_eq!(s.counts[0][3], Some(Share { k: 69, n: 72 }));
        assert_eq!(s.paired_cases, 71);
    }

    #[test]
    fn marks_read_the_sheet_label_of_each_condition() {
        let stored = sheet(Condition::Withheld)
            .canonical("answer=1,over_disclosure=0,error=1")
            .unwrap();
        assert_eq!(
            Marks::read(Condition::Withheld, &stored),
            Some(Marks {
                answer: Some(true),
                over_disclosure: false,
                error: true
            })
        );
        let broad = sheet(Condition::Broad)
            .canonical("over_disclosure=1,error=0")
            .unwrap();
        assert_eq!(Marks::read(Condition::Broad, &broad).unwrap().answer, None);
        assert!(sheet(Condition::Broad)
            .canonical("answer=1,over_disclosure=1,error=0")
            .is_err());
        assert_eq!(Marks::read(Condition::Direct, &broad), None);
    }

    fn demo() -> Vec<Case> {
        crate::lexpilot::dataset::parse_dataset(&crate::lexpilot::synthetic::dataset_file(2))
            .unwrap()
    }

    fn probe_line(case: &Case) -> Value {
        serde_json::json!({"case_id": case.case_id, "fact": case.missing_facts[0],
            "direct": "A?", "indirect": "B?", "broad": "C?", "minimum_answer": "M",
            "withheld_key_facts": ["剩下的事实"]})
    }

    #[test]
    fn probe_files_report_every_broken_rule_with_line_and_field() {
        let cases = demo();
        let with: Vec<&Case> = cases
            .iter()
            .filter(|c| !c.missing_facts.is_empty())
            .take(2)
            .collect();
        let mut second = probe_line(with[1]);
        second["broad"] = "  ".into();
        let target = with[1]
            .key_facts
            .iter()
            .find(|k| k.id == with[1].missing_facts[0])
            .unwrap()
            .text
            .clone();
        second["withheld_key_facts"] = serde_json::json!([target]);
        let mut unknown = probe_line(with[0]);
        unknown["directt"] = "typo".into();
        let text = [
            probe_line(with[0]).to_string(),
            second.to_string(),
            probe_line(with[0]).to_string(),
            unknown.to_string(),
            "not json".into(),
            serde_json::json!({"case_id": "NOPE", "fact": "k1", "direct": "a", "indirect": "b",
                "broad": "c", "minimum_answer": "m"})
            .to_string(),
        ]
        .join("\n");
        let errors = parse_probes(&text, &cases).unwrap_err();
        let found: Vec<(usize, &str)> = errors.iter().map(|e| (e.line, e.field.as_str())).collect();
        assert_eq!(
            found,
            [
                (2, "broad"),
                (2, "withheld_key_facts[0]"),
                (3, "case_id"),
                (4, "directt"),
                (5, ""),
                (6, "case_id")
            ],
            "{errors:?}"
        );
    }

    #[test]
    fn withheld_replaces_the_simulators_key_facts_and_other_conditions_keep_them() {
        let cases = demo();
        let case = cases.iter().find(|c| !c.missing_facts.is_empty()).unwrap();
        let probe: Probe = serde_json::from_value(probe_line(case)).unwrap();
        assert_eq!(probe.simulator_case(case, Condition::Direct), *case);
        let d = probe.simulator_case(case, Condition::Withheld);
        assert_eq!(d.key_facts.len(), 1);
        assert_eq!(d.key_facts[0].text, "剩下的事实");
        assert_eq!(
            probe.question(Condition::Withheld),
            probe.question(Condition::Direct)
        );
        assert_eq!(probe.conditions(), Condition::ALL);
    }

    #[test]
    fn result_files_round_trip_and_must_cover_every_probe_condition() {
        let cases = demo();
        let case = cases.iter().find(|c| !c.missing_facts.is_empty()).unwrap();
        let probe: Probe = serde_json::from_value(probe_line(case)).unwrap();
        let run = FidelityRun {
            header: FidelityHeader {
                user_model: "U".into(),
                judge: Some("J".into()),
                dataset: None,
                created_at: None,
                extra: Map::new(),
            },
            replies: probe
                .conditions()
                .into_iter()
                .map(|c| FidelityReply {
                    case_id: case.case_id.clone(),
                    condition: c,
                    question: probe.question(c).into(),
                    reply: Some("不清楚".into()),
                    dcg_accepted: (c != Condition::Withheld).then_some(true),
                    unavailable: None,
                })
                .collect(),
        };
        let text = run.to_jsonl();
        assert_eq!(
            parse_fidelity(&text, std::slice::from_ref(&probe)).unwrap(),
            run
        );
        let short: String = text.lines().take(4).map(|l| format!("{l}\n")).collect();
        let errors = parse_fidelity(&short, &[probe]).unwrap_err();
        assert!(
            errors[0].message.contains("under D: Withheld")
                || errors[0].message.contains("withheld"),
            "{errors:?}"
        );
    }

    #[test]
    fn the_sample_takes_two_cases_of_every_cause_with_a_missing_fact() {
        let cases =
            crate::lexpilot::dataset::parse_dataset(&crate::lexpilot::synthetic::dataset_file(5))
                .unwrap();
        let drawn = sample_cases(&cases, PER_CAUSE, 7);
        assert_eq!(drawn.len(), 72);
        let mut per: HashMap<&str, usize> = HashMap::new();
        for id in &drawn {
            let c = cases.iter().find(|c| &c.case_id == id).unwrap();
            assert!(!c.missing_facts.is_empty());
            *per.entry(&c.cause).or_default() += 1;
        }
        assert!(per.values().all(|&n| n <= PER_CAUSE));
        assert_ne!(drawn, sample_cases(&cases, PER_CAUSE, 8));
    }
}
