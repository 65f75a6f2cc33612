//! The DLawBench dataset file (`docs/benchmarks/dlawbench.md` §A1): one case
//! per line, with its fact pairs and its two rubric lists.
//!
//! - Vocabularies (§A1.1): [`Jurisdiction`], [`Language`], [`FactType`],
//!   [`Style`] (the four narrative styles, in [D]'s order) and the
//!   recommended domain keys with their labels ([`DOMAINS`],
//!   [`domain_label`]). `domain` itself is free text.
//! - Types: [`Case`], [`Fact`] (client belief vs court record), [`Rubric`].
//! - Parsing: [`parse_dataset`] / [`parse_dataset_reader`] return every case
//!   or every error found, each naming its 1-based line, the case and the
//!   field ([`DatasetErrors`], the form every benchmark shares).
//! - Writing: [`to_jsonl`], which [`parse_dataset`] reads back unchanged.
//! - Statistics (§A1.2a, the dataset page): [`stats`].
//!
//! # Rules (reject, naming line and field)
//!
//! `case_id` is a name ([`crate::names`]) unique in the file;
//! `jurisdiction` `cn` or `us`; `language` `zh` or `en`, defaulting to `zh`
//! for `cn` and `en` for `us`; `domain` and `opening` non-blank strings;
//! `facts`, `inquiry_rubrics` and `issue_rubrics` non-empty arrays; each
//! fact has an `id` matching `^[A-Za-z0-9_.-]{1,32}$`, unique in the case,
//! a `type` (`undisputed` or `disputed`) and non-blank `client_belief` and
//! `court_record`; each rubric an `id` (a non-blank string unique in its
//! list) and a non-blank `text`. `title`, `source` and `notes` may hold any
//! JSON and are kept for display; other keys are ignored.
//!
//! Depends on serde, serde_json, [`crate::core::lines`], [`crate::names`] and
//! [`crate::vocab`].

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::BufRead;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::core::errors::{DatasetError, DatasetErrors};
use crate::core::lines::{is_blank, json_message, line_error, read_lines, ErrorLog, LineReader};
use crate::vocab::vocabulary;

vocabulary! {
    /// The law a case is decided under.
    Jurisdiction, kind "jurisdiction" {
        /// Chinese law.
        Cn = "cn", zh "中国法", en "Chinese law";
        /// U.S. law.
        Us = "us", zh "美国法", en "U.S. law";
    }
}

vocabulary! {
    /// The language of a case's texts.
    Language, kind "language" {
        /// Chinese.
        Zh = "zh", zh "中文", en "Chinese";
        /// English.
        En = "en", zh "英文", en "English";
    }
}

vocabulary! {
    /// Whether the court record agrees with the client's belief.
    FactType, kind "fact type" {
        /// The client account and the court record align.
        Undisputed = "undisputed", zh "无争议", en "Undisputed";
        /// The court record corrects, narrows or rejects the client's view.
        Disputed = "disputed", zh "有争议", en "Disputed";
    }
}

vocabulary! {
    /// The client's narrative style (§A2.2), in [D]'s order; the wire names
    /// are the pipeline's `UserCondition`'s.
    Style, kind "style" {
        /// Informative, responsive, easy to interview.
        Cooperative = "cooperative", zh "合作型", en "Cooperative";
        /// Unsure what matters, defers to the lawyer.
        Dependent = "dependent", zh "依赖型", en "Dependent";
        /// Reluctant to elaborate; short, evasive answers.
        Withdrawn = "withdrawn", zh "退缩型", en "Withdrawn";
        /// Questions and challenges the lawyer.
        Adversarial = "adversarial", zh "对抗型", en "Adversarial";
    }
}

impl Jurisdiction {
    /// The language a case of this jurisdiction is in when it names none.
    ///
    /// ```
    /// use engine::dlawbench::dataset::{Jurisdiction, Language};
    /// assert_eq!(Jurisdiction::Us.default_language(), Language::En);
    /// ```
    pub const fn default_language(self) -> Language {
        match self {
            Jurisdiction::Cn => Language::Zh,
            Jurisdiction::Us => Language::En,
        }
    }
}

/// The recommended domain keys (§A1.1) with their Chinese and English
/// labels. A dataset may use others.
pub const DOMAINS: [(&str, &str, &str); 11] = [
    (
        "marriage_family_inheritance",
        "婚姻家庭与继承",
        "Marriage, family and inheritance",
    ),
    ("labor", "劳动争议", "Labour"),
    ("personality_rights", "人格权", "Personality rights"),
    (
        "privacy_data_protection",
        "隐私与数据保护",
        "Privacy and data protection",
    ),
    ("criminal", "刑事", "Criminal law"),
    ("contracts", "合同", "Contracts"),
    ("bankruptcy", "破产", "Bankruptcy"),
    ("immigration", "移民", "Immigration"),
    ("torts", "侵权", "Torts"),
    ("intellectual_property", "知识产权", "Intellectual property"),
    ("civil_rights", "民权", "Civil rights"),
];

/// The (Chinese, English) labels of a recommended domain key; `None` for
/// any other domain, which pages show as it is.
///
/// ```
/// use engine::dlawbench::dataset::domain_label;
/// assert_eq!(domain_label("torts"), Some(("侵权", "Torts")));
/// assert_eq!(domain_label("maritime"), None);
/// ```
pub fn domain_label(domain: &str) -> Option<(&'static str, &'static str)> {
    DOMAINS
        .iter()
        .find(|(key, _, _)| *key == domain)
        .map(|&(_, zh, en)| (zh, en))
}

/// One fact pair: what the client believes and what the court found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    /// Unique within the case.
    pub id: String,
    /// Whether the court record corrects the client.
    #[serde(rename = "type")]
    pub fact_type: FactType,
    /// Shown to the client simulator.
    pub client_belief: String,
    /// Shown to the judges only.
    pub court_record: String,
}

/// One Inquiry or Issue-resolution rubric item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rubric {
    /// Unique within its list.
    pub id: String,
    /// What the lawyer should ask or the memo should say.
    pub text: String,
}

/// One case of the dataset (§A1.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// Unique in the file.
    pub case_id: String,
    /// The label the lawyer is shown.
    pub jurisdiction: Jurisdiction,
    /// The language of the case's texts.
    pub language: Language,
    /// Free text; see [`DOMAINS`].
    pub domain: String,
    /// The neutral opening statement: the client's first message.
    pub opening: String,
    /// The fact pairs, in annotation order.
    pub facts: Vec<Fact>,
    /// Intake questions and verification steps.
    pub inquiry_rubrics: Vec<Rubric>,
    /// Final-memo analysis points.
    pub issue_rubrics: Vec<Rubric>,
    /// For display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Value>,
    /// For display (`{court, year, citation, url}` by convention).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Value>,
    /// For display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<Value>,
}

impl Case {
    /// The fact with id `id`.
    pub fn fact(&self, id: &str) -> Option<&Fact> {
        self.facts.iter().find(|f| f.id == id)
    }

    /// How many of the case's facts are disputed.
    pub fn disputed(&self) -> usize {
        self.facts
            .iter()
            .filter(|f| f.fact_type == FactType::Disputed)
            .count()
    }

    /// `jurisdiction/domain`, the key of the domain views (§A4.4).
    ///
    /// ```
    /// use engine::dlawbench::dataset::parse_dataset;
    /// let cases = parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap();
    /// assert_eq!(cases[0].domain_key(), "us/torts");
    /// ```
    pub fn domain_key(&self) -> String {
        domain_key(self.jurisdiction, &self.domain)
    }
}

/// `jurisdiction/domain`: how the score document keys a domain.
pub fn domain_key(jurisdiction: Jurisdiction, domain: &str) -> String {
    format!("{}/{domain}", jurisdiction.as_str())
}

/// Parses and validates a whole dataset file held in memory; see
/// [`parse_dataset_reader`].
///
/// # Examples
///
/// ```
/// use engine::dlawbench::dataset::{parse_dataset, Language};
///
/// let line = r#"{"case_id": "DL-CN-0001", "jurisdiction": "cn", "domain": "marriage_family_inheritance", "opening": "律师您好……", "facts": [{"id": "F1", "type": "disputed", "client_belief": "房子跟继母没关系。", "court_record": "房屋属夫妻共同财产。"}], "inquiry_rubrics": [{"id": "Q1", "text": "询问购房时间"}], "issue_rubrics": [{"id": "R1", "text": "遗嘱只能处分本人份额"}]}"#;
/// let cases = parse_dataset(line).unwrap();
/// assert_eq!(cases[0].language, Language::Zh);
///
/// let bad = line.replace(r#""id": "F1""#, r#""id": "F 1""#).replace(r#""type": "disputed""#, r#""type": "Disputed""#);
/// assert_eq!(
///     parse_dataset(&bad).unwrap_err().to_string(),
///     "line 1 (DL-CN-0001), field facts[0].id: \"F 1\" is not a fact id (1 to 32 of A-Z a-z 0-9 _ . -)\n\
///      line 1 (DL-CN-0001), field facts[0].type: unknown fact type \"Disputed\"; expected one of undisputed, disputed"
/// );
/// ```
pub fn parse_dataset(text: &str) -> Result<Vec<Case>, DatasetErrors> {
    parse_dataset_reader(text.as_bytes())
}

/// Parses and validates a dataset file line by line from a reader: every
/// case in file order, or every error found (up to
/// [`MAX_ERRORS`](crate::core::errors::MAX_ERRORS), then a count). Blank lines are
/// skipped and counted.
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset_reader;
/// let errors = parse_dataset_reader("\nnot json\n".as_bytes()).unwrap_err();
/// assert_eq!(errors.0[0].line, 2);
/// ```
pub fn parse_dataset_reader<R: BufRead>(reader: R) -> Result<Vec<Case>, DatasetErrors> {
    let mut errors = ErrorLog::default();
    let mut cases = Vec::new();
    let mut first_line_of_id: HashMap<String, usize> = HashMap::new();
    let result = read_lines(reader, |line, text| {
        let text = match text {
            Ok(text) => text,
            Err(e) => return errors.push(e),
        };
        let value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(e) => return errors.push(line_error(line, json_message(&e, text))),
        };
        let case = match read_case(&value, line) {
            Ok(case) => case,
            Err(line_errors) => return line_errors.into_iter().for_each(|e| errors.push(e)),
        };
        match first_line_of_id.entry(case.case_id.clone()) {
            Entry::Occupied(first) => errors.push(DatasetError {
                line,
                case_id: Some(case.case_id.clone()),
                field: "case_id".into(),
                message: format!(
                    "duplicate case_id \"{}\"; it is first used on line {}",
                    case.case_id,
                    first.get()
                ),
            }),
            Entry::Vacant(slot) => {
                slot.insert(line);
            }
        }
        cases.push(case);
    });
    if let Err(e) = result {
        errors.push(e);
    }
    errors.finish().map(|()| cases)
}

/// Whether `id` matches `^[A-Za-z0-9_.-]{1,32}$`.
fn is_fact_id(id: &str) -> bool {
    (1..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// The readers of a DLawBench case.
impl LineReader {
    /// A string that is not blank after trimming.
    pub(crate) fn text(&mut self, v: &Value, path: &str) -> Option<String> {
        let s = self.string(v, path)?;
        if is_blank(&s) {
            self.fail(path, "must not be empty".into());
            return None;
        }
        Some(s)
    }

    /// A required, non-empty array read element by element.
    fn dlaw_list<T>(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        what: &str,
        read: crate::core::lines::Read<T>,
    ) -> Option<Vec<T>> {
        let Some(v) = obj.get(key) else {
            self.fail(key, "missing required field".into());
            return None;
        };
        let list = self.list(v, key, read)?;
        if list.is_empty() {
            self.fail(key, format!("must list at least one {what}"));
            return None;
        }
        Some(list)
    }

    fn dlaw_fact(&mut self, v: &Value, path: &str) -> Option<Fact> {
        let obj = self.object(v, path)?;
        let id = self.required(obj, path, "id", Self::string);
        if let Some(id) = &id {
            if !is_fact_id(id) {
                self.fail(
                    &format!("{path}.id"),
                    format!("\"{id}\" is not a fact id (1 to 32 of A-Z a-z 0-9 _ . -)"),
                );
            }
        }
        let fact_type = self.required(obj, path, "type", Self::vocab::<FactType>);
        let client_belief = self.required(obj, path, "client_belief", Self::text);
        let court_record = self.required(obj, path, "court_record", Self::text);
        Some(Fact {
            id: id.filter(|id| is_fact_id(id))?,
            fact_type: fact_type?,
            client_belief: client_belief?,
            court_record: court_record?,
        })
    }

    fn dlaw_rubric(&mut self, v: &Value, path: &str) -> Option<Rubric> {
        let obj = self.object(v, path)?;
        let id = self.required(obj, path, "id", Self::text);
        let text = self.required(obj, path, "text", Self::text);
        Some(Rubric {
            id: id?,
            text: text?,
        })
    }

    /// Reports every id of `ids` used before in the same list.
    fn unique_ids<'a>(&mut self, key: &str, ids: impl Iterator<Item = &'a str>) {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (i, id) in ids.enumerate() {
            if let Some(first) = seen.insert(id, i) {
                self.fail(
                    &format!("{key}[{i}].id"),
                    format!("duplicate id \"{id}\"; {key}[{first}] already uses it"),
                );
                seen.insert(id, first);
            }
        }
    }
}

/// Reads and checks one case from the JSON value of its line.
fn read_case(value: &Value, line: usize) -> Result<Case, Vec<DatasetError>> {
    let mut r = LineReader::new(line);
    let Some(obj) = r.object(value, "") else {
        return Err(r.errors);
    };
    let case_id = r.required(obj, "", "case_id", LineReader::string);
    if let Some(id) = &case_id {
        if let Err(message) = crate::names::check_id(id) {
            r.fail("case_id", message);
        } else {
            r.case_id = Some(id.clone());
        }
    }
    let jurisdiction = r.required(obj, "", "jurisdiction", LineReader::vocab::<Jurisdiction>);
    let language = r.optional(obj, "", "language", LineReader::vocab::<Language>);
    let domain = r.required(obj, "", "domain", LineReader::text);
    let opening = r.required(obj, "", "opening", LineReader::text);
    let facts = r.dlaw_list(obj, "facts", "fact pair", LineReader::dlaw_fact);
    let inquiry = r.dlaw_list(
        obj,
        "inquiry_rubrics",
        "rubric item",
        LineReader::dlaw_rubric,
    );
    let issue = r.dlaw_list(obj, "issue_rubrics", "rubric item", LineReader::dlaw_rubric);
    if let Some(facts) = &facts {
        r.unique_ids("facts", facts.iter().map(|f| f.id.as_str()));
    }
    if let Some(list) = &inquiry {
        r.unique_ids("inquiry_rubrics", list.iter().map(|q| q.id.as_str()));
    }
    if let Some(list) = &issue {
        r.unique_ids("issue_rubrics", list.iter().map(|q| q.id.as_str()));
    }
    let kept = |key: &str| obj.get(key).filter(|v| !v.is_null()).cloned();
    match (
        case_id,
        jurisdiction,
        language,
        domain,
        opening,
        facts,
        inquiry,
        issue,
    ) {
        (
            Some(case_id),
            Some(jurisdiction),
            Some(language),
            Some(domain),
            Some(opening),
            Some(facts),
            Some(inquiry_rubrics),
            Some(issue_rubrics),
        ) if r.errors.is_empty() => Ok(Case {
            case_id,
            jurisdiction,
            language: language.unwrap_or(jurisdiction.default_language()),
            domain,
            opening,
            facts,
            inquiry_rubrics,
            issue_rubrics,
            title: kept("title"),
            source: kept("source"),
            notes: kept("notes"),
        }),
        _ => Err(r.errors),
    }
}

/// Writes cases as JSON Lines, one per `\n`-terminated line.
/// [`parse_dataset`] reads the result back into equal cases.
pub fn to_jsonl(cases: &[Case]) -> String {
    let mut out = String::new();
    for case in cases {
        // A case holds strings, vocabulary values and JSON values only.
        if let Ok(line) = serde_json::to_string(case) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// The corpus statistics of one group of cases (§A1.2a).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupStats {
    /// Cases in the group.
    pub cases: usize,
    /// Case-style cells: 4 × cases.
    pub cells: usize,
    /// Σ facts per case.
    pub fact_pairs: usize,
    /// fact_pairs / cases; `None` without cases.
    pub facts_per_case: Option<f64>,
    /// The mean over cases of (disputed facts ÷ facts in the case); for
    /// "all", over all cases pooled (§A5 D5).
    pub disputed_share: Option<f64>,
    /// Σ Inquiry rubric items.
    pub inquiry_rubrics: usize,
    /// Σ Issue-resolution rubric items.
    pub issue_rubrics: usize,
}

/// One domain of one jurisdiction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DomainStats {
    /// The jurisdiction the domain sits in.
    pub jurisdiction: Jurisdiction,
    /// The domain key.
    pub domain: String,
    /// Its cases.
    pub cases: usize,
    /// cases ÷ the jurisdiction's cases.
    pub share: f64,
}

/// The dataset page's statistics (Table 2 analogue, Figure 3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Every case.
    pub all: GroupStats,
    /// Per jurisdiction the dataset has.
    pub by_jurisdiction: BTreeMap<Jurisdiction, GroupStats>,
    /// Per (jurisdiction, domain), jurisdictions in order, then most cases
    /// first, then by key.
    pub domains: Vec<DomainStats>,
}

fn group_stats<'a>(cases: impl Iterator<Item = &'a Case> + Clone) -> GroupStats {
    let n = cases.clone().count();
    let fact_pairs: usize = cases.clone().map(|c| c.facts.len()).sum();
    let shares: Vec<f64> = cases
        .clone()
        .map(|c| c.disputed() as f64 / c.facts.len() as f64)
        .collect();
    GroupStats {
        cases: n,
        cells: n * Style::ALL.len(),
        fact_pairs,
        facts_per_case: (n > 0).then(|| fact_pairs as f64 / n as f64),
        disputed_share: (n > 0).then(|| shares.iter().sum::<f64>() / n as f64),
        inquiry_rubrics: cases.clone().map(|c| c.inquiry_rubrics.len()).sum(),
        issue_rubrics: cases.map(|c| c.issue_rubrics.len()).sum(),
    }
}

/// The §A1.2a statistics of a dataset, per jurisdiction and for all cases.
///
/// ```
/// use engine::dlawbench::dataset::{parse_dataset, stats, Jurisdiction};
///
/// let line = |id: &str, j: &str, types: &[&str]| {
///     let facts: Vec<String> = types.iter().enumerate().map(|(i, t)| format!(r#"{{"id": "F{i}", "type": "{t}", "client_belief": "b", "court_record": "r"}}"#)).collect();
///     format!(r#"{{"case_id": "{id}", "jurisdiction": "{j}", "domain": "torts", "opening": "o", "facts": [{}], "inquiry_rubrics": [{{"id": "Q1", "text": "q"}}], "issue_rubrics": [{{"id": "R1", "text": "r"}}]}}"#, facts.join(", "))
/// };
/// let text = [line("A", "cn", &["disputed", "undisputed"]), line("B", "cn", &["disputed"]), line("C", "us", &["undisputed"])].join("\n");
/// let s = stats(&parse_dataset(&text).unwrap());
/// assert_eq!((s.all.cases, s.all.cells, s.all.fact_pairs), (3, 12, 4));
/// assert_eq!(s.by_jurisdiction[&Jurisdiction::Cn].disputed_share, Some(0.75));
/// // Pooled over cases: (0.5 + 1 + 0) / 3, not the mean of 0.75 and 0.
/// assert_eq!(s.all.disputed_share, Some(0.5));
/// assert_eq!(s.domains[0].share, 1.0);
/// ```
pub fn stats(cases: &[Case]) -> Stats {
    let by_jurisdiction: BTreeMap<Jurisdiction, GroupStats> = Jurisdiction::ALL
        .into_iter()
        .filter(|j| cases.iter().any(|c| c.jurisdiction == *j))
        .map(|j| {
            (
                j,
                group_stats(cases.iter().filter(move |c| c.jurisdiction == j)),
            )
        })
        .collect();
    let mut counts: BTreeMap<(Jurisdiction, &str), usize> = BTreeMap::new();
    for case in cases {
        *counts
            .entry((case.jurisdiction, case.domain.as_str()))
            .or_insert(0) += 1;
    }
    let mut domains: Vec<DomainStats> = counts
        .into_iter()
        .map(|((jurisdiction, domain), n)| DomainStats {
            jurisdiction,
            domain: domain.to_owned(),
            cases: n,
            share: n as f64 / by_jurisdiction[&jurisdiction].cases as f64,
        })
        .collect();
    domains.sort_by(|a, b| {
        a.jurisdiction
            .cmp(&b.jurisdiction)
            .then(b.cases.cmp(&a.cases))
            .then(a.domain.cmp(&b.domain))
    });
    Stats {
        all: group_stats(cases.iter()),
        by_jurisdiction,
        domains,
    }
}

/// The jurisdictions a dataset has, in [`Jurisdiction::ALL`] order.
pub fn jurisdictions(cases: &[Case]) -> Vec<Jurisdiction> {
    let present: HashSet<Jurisdiction> = cases.iter().map(|c| c.jurisdiction).collect();
    Jurisdiction::ALL
        .into_iter()
        .filter(|j| present.contains(j))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE: &str = r#"{"case_id": "C1", "jurisdiction": "us", "language": "en", "domain": "torts", "title": "T", "source": {"court": "X", "year": 2020}, "opening": "o", "facts": [{"id": "F1", "type": "undisputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#;

    #[test]
    fn a_case_round_trips_with_its_display_fields() {
        let cases = parse_dataset(CASE).unwrap();
        assert_eq!(cases[0].source.as_ref().unwrap()["year"], 2020);
        assert_eq!(parse_dataset(&to_jsonl(&cases)).unwrap(), cases);
    }

    #[test]
    fn every_case_error_is_named() {
        let bad = CASE
            .replace(r#""jurisdiction": "us""#, r#""jurisdiction": "US""#)
            .replace(r#""opening": "o""#, r#""opening": "  ""#)
            .replace(
                r#"[{"id": "Q1", "text": "q"}]"#,
                r#"[{"id": "Q1", "text": "q"}, {"id": "Q1", "text": ""}]"#,
            )
            .replace(r#"[{"id": "R1", "text": "r"}]"#, "[]")
            .replace(r#""client_belief": "b", "#, "");
        let errors = parse_dataset(&format!("{CASE}\n{bad}\n{CASE}")).unwrap_err();
        let found: Vec<(usize, &str)> = errors
            .0
            .iter()
            .map(|e| (e.line, e.field.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (2, "jurisdiction"),
                (2, "opening"),
                (2, "facts[0].client_belief"),
                (2, "inquiry_rubrics[1].text"),
                (2, "issue_rubrics"),
                (3, "case_id"),
            ],
            "{errors}"
        );
    }

    #[test]
    fn duplicate_fact_ids_are_refused() {
        let bad = CASE.replace(
            r#"[{"id": "F1", "type": "undisputed", "client_belief": "b", "court_record": "r"}]"#,
            r#"[{"id": "F1", "type": "undisputed", "client_belief": "b", "court_record": "r"}, {"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}]"#,
        );
        assert_eq!(
            parse_dataset(&bad).unwrap_err().to_string(),
            "line 1 (C1), field facts[1].id: duplicate id \"F1\"; facts[0] already uses it"
        );
    }
}
