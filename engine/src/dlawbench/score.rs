//! DLawBench scores (`docs/benchmarks/dlawbench.md` §A4): per judge, per
//! panel and session, per run, and the score document of leaderboard
//! entries.
//!
//! - [`Metric`]: the five component metrics and the two derived ones, in
//!   the leaderboard's order; [`View`]: null-as-zero (the headline) and
//!   valid-only (a diagnostic).
//! - [`judge_values`] (§A4.1): one judge's rates over the case's facts and
//!   rubric lists; fidelity is null without claims (→C-D6).
//! - [`median`] and [`score_session`] (§A4.2, §A4.3): each component is
//!   Python's `statistics.median` of the seated, available, non-null judge
//!   values (three → the middle one, two → their mean, one → the value),
//!   unavailable below the header's `min_valid_judges`; the derived values
//!   come from the panel components (→C-D8). A session is degraded when a
//!   component has fewer values than seated judges.
//! - [`score_run`] (§A4.4): per jurisdiction, jurisdiction × style and
//!   domain the mean over sessions with a value in the view (task failures
//!   are 0 in null-as-zero and left out in valid-only; unavailable sessions
//!   and metrics are left out of both and counted); overall and per style
//!   the equal-weighted mean of the jurisdictions; style gaps against
//!   cooperative. Overall, per-jurisdiction and domain values need all four
//!   styles (→C-D11). Also conditional correctness and the panel
//!   diagnostics (per judge, recused and unavailable seats, |median − mean|
//!   on three-judge sessions).
//! - [`item_decisions`] (§A6.8, →C-D13): the panel's item-level decision
//!   for judge–human agreement: the majority of the seated judges, ties
//!   left out.
//! - [`summarise_runs`] (§A4.5, §A4.7): groups scored runs into entries and
//!   reports every value as mean ± sample std over runs; [`ScoreDocument`]
//!   serialises to the §A4.7 JSON.
//!
//! Depends on [`super::dataset`], [`super::run`] and [`crate::metrics`].
//!
//! # Example
//!
//! The §A4.6 worked session: three judges, then A recused.
//!
//! ```
//! use engine::dlawbench::score::{median, Metric};
//! // FR of judges A, B, C: 0.5, 0.25, 0.5.
//! assert_eq!(median(&[0.5, 0.25, 0.5]), Some(0.5));
//! // After A recuses, B and C are averaged.
//! assert_eq!(median(&[0.25, 0.5]), Some(0.375));
//! assert_eq!(Metric::Resolution.components(), Some((Metric::FactResolution, Metric::IssueResolution)));
//! ```

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::dataset::{jurisdictions, Case, Jurisdiction, Style};
use super::run::{Decisions, Run, RunHeader, Session, Status};
use crate::benchmark::Benchmark;
use crate::core::entry::{EntryKey, Family};
use crate::metrics::{mean_std, MeanStd};
use crate::vocab::vocabulary;

vocabulary! {
    /// The seven metrics, in the leaderboard's order (§A1.1, §A6.1).
    Metric, kind "metric" {
        /// (fact_coverage + inquiry) / 2.
        Elicitation = "elicitation", zh "信息获取", en "Elicitation";
        /// Annotated facts the memo mentions.
        FactCoverage = "fact_coverage", zh "事实覆盖", en "Fact Coverage";
        /// Inquiry rubric items the lawyer's questions satisfy.
        Inquiry = "inquiry", zh "追问", en "Inquiry";
        /// (fact_resolution + issue_resolution) / 2.
        Resolution = "resolution", zh "问题解决", en "Resolution";
        /// Annotated facts the memo states in the court-record view.
        FactResolution = "fact_resolution", zh "事实纠正", en "Fact Resolution";
        /// Issue-resolution rubric items the memo satisfies.
        IssueResolution = "issue_resolution", zh "争点解决", en "Issue Resolution";
        /// Memo claims supported by the record.
        Fidelity = "fidelity", zh "忠实度", en "Fidelity";
    }
}

vocabulary! {
    /// How task failures enter a mean (§A4.3).
    View, kind "view" {
        /// Task failures count as 0 (the headline).
        NullAsZero = "null_as_zero", zh "失败计零", en "Null as zero";
        /// Task failures are left out (a diagnostic).
        ValidOnly = "valid_only", zh "仅有效会话", en "Valid only";
    }
}

/// Null-as-zero, the headline.
impl Default for View {
    fn default() -> Self {
        View::NullAsZero
    }
}

impl Metric {
    /// The five metrics a judge decides.
    pub const COMPONENTS: [Metric; 5] = [
        Metric::FactCoverage,
        Metric::Inquiry,
        Metric::FactResolution,
        Metric::IssueResolution,
        Metric::Fidelity,
    ];

    /// The three abilities the leaderboard leads with.
    pub const ABILITIES: [Metric; 3] = [Metric::Elicitation, Metric::Resolution, Metric::Fidelity];

    /// Which way is better: every metric is a share of facts, rubric items
    /// or claims, best highest.
    ///
    /// ```
    /// use engine::core::columns::Better;
    /// use engine::dlawbench::score::Metric;
    /// assert!(Metric::ALL.into_iter().all(|m| m.better() == Better::Higher));
    /// ```
    pub const fn better(self) -> crate::core::columns::Better {
        crate::core::columns::Better::Higher
    }

    /// The two components a derived metric averages; `None` for a component.
    pub const fn components(self) -> Option<(Metric, Metric)> {
        match self {
            Metric::Elicitation => Some((Metric::FactCoverage, Metric::Inquiry)),
            Metric::Resolution => Some((Metric::FactResolution, Metric::IssueResolution)),
            _ => None,
        }
    }
}

/// Values per metric; a metric without a value is left out.
pub type Values = BTreeMap<Metric, f64>;

/// One judge's values on one session (§A4.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeValues {
    /// The five components; fidelity is absent when the memo has no claims.
    pub values: Values,
    /// |correct| / |covered|; `None` when nothing is covered.
    pub conditional_correctness: Option<f64>,
}

/// One judge's rates from its decisions on `case` (§A4.1). Every value is
/// in [0, 1] for decisions a parsed run holds.
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset;
/// use engine::dlawbench::run::Decisions;
/// use engine::dlawbench::score::{judge_values, Metric};
///
/// let case = &parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}, {"id": "F2", "type": "undisputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}, {"id": "R2", "text": "r"}]}"#).unwrap()[0];
/// let d = Decisions { inquiry: vec![1], issue: vec![1, 0], covered: vec!["F1".into()], correct: vec![], claims_total: 0, claims_grounded: 0, ungrounded_claims: None, incorrect: None };
/// let v = judge_values(case, &d);
/// assert_eq!((v.values[&Metric::FactCoverage], v.values[&Metric::IssueResolution]), (0.5, 0.5));
/// assert_eq!(v.values.get(&Metric::Fidelity), None); // no claims (→C-D6)
/// assert_eq!(v.conditional_correctness, Some(0.0));
/// ```
pub fn judge_values(case: &Case, d: &Decisions) -> JudgeValues {
    let rate = |n: usize, of: usize| n as f64 / of as f64;
    let hits = |bits: &[u8]| bits.iter().filter(|&&b| b == 1).count();
    let mut values = Values::new();
    values.insert(
        Metric::FactCoverage,
        rate(d.covered.len(), case.facts.len()),
    );
    values.insert(
        Metric::FactResolution,
        rate(d.correct.len(), case.facts.len()),
    );
    values.insert(
        Metric::Inquiry,
        rate(hits(&d.inquiry), case.inquiry_rubrics.len()),
    );
    values.insert(
        Metric::IssueResolution,
        rate(hits(&d.issue), case.issue_rubrics.len()),
    );
    if d.claims_total > 0 {
        values.insert(
            Metric::Fidelity,
            f64::from(d.claims_grounded) / f64::from(d.claims_total),
        );
    }
    JudgeValues {
        values,
        conditional_correctness: (!d.covered.is_empty())
            .then(|| rate(d.correct.len(), d.covered.len())),
    }
}

/// Python's `statistics.median`: the middle value, or the mean of the two
/// middle values of an even-sized list; `None` for no value (§A4.2).
///
/// ```
/// use engine::dlawbench::score::median;
/// assert_eq!(median(&[1.0, 1.0, 0.0]), Some(1.0));
/// assert_eq!(median(&[0.0, 0.0, 1.0]), Some(0.0));
/// assert_eq!(median(&[1.0, 0.0]), Some(0.5));
/// assert_eq!(median(&[]), None);
/// ```
pub fn median(values: &[f64]) -> Option<f64> {
    crate::core::panel::aggregate(values, crate::core::panel::Aggregation::Median)
}

/// The arithmetic mean; `None` for no value.
fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// How a session enters the scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// `submitted` or `horizon`: scored by the panel.
    Judged,
    /// A task failure: 0 in null-as-zero, left out in valid-only.
    Failure,
    /// Not scorable for pipeline reasons: left out of both, counted.
    Unavailable,
}

/// One session's panel and values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionScore {
    /// How it enters the scores.
    pub outcome: Outcome,
    /// Per header seat, the judge's values; `None` for a recused or
    /// unavailable seat (and every seat of a session not judged).
    pub judges: Vec<Option<JudgeValues>>,
    /// The panel values of a judged session, the derived ones included; a
    /// metric that is unavailable is left out.
    pub values: Values,
    /// The panel's conditional correctness (median of the judges that
    /// have one).
    pub conditional_correctness: Option<f64>,
    /// Seated (not recused) judges.
    pub seated: usize,
    /// Per component, how many judge values the panel combined.
    pub valid: BTreeMap<Metric, usize>,
    /// Whether a component had fewer values than seated judges.
    pub degraded: bool,
}

impl SessionScore {
    /// The session's value of `metric` in `view`: the panel value of a
    /// judged session, 0 for a task failure in null-as-zero; `None` when the
    /// session or metric is left out.
    ///
    /// ```
    /// use engine::dlawbench::score::{Metric, Outcome, SessionScore, View};
    /// let failed = SessionScore { outcome: Outcome::Failure, judges: vec![], values: Default::default(),
    ///     conditional_correctness: None, seated: 0, valid: Default::default(), degraded: false };
    /// assert_eq!(failed.value(Metric::Inquiry, View::NullAsZero), Some(0.0));
    /// assert_eq!(failed.value(Metric::Inquiry, View::ValidOnly), None);
    /// ```
    pub fn value(&self, metric: Metric, view: View) -> Option<f64> {
        match (self.outcome, view) {
            (Outcome::Judged, _) => self.values.get(&metric).copied(),
            (Outcome::Failure, View::NullAsZero) => Some(0.0),
            (Outcome::Failure, View::ValidOnly) | (Outcome::Unavailable, _) => None,
        }
    }
}

/// Scores one session against its case with the header's panel (§A4.2,
/// §A4.3).
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset;
/// use engine::dlawbench::run::parse_run;
/// use engine::dlawbench::score::{score_session, Metric};
///
/// let dataset = parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap();
/// let seat = |j: &str, fc: &str| format!(r#"{{"judge": "{j}", "recused": false, "decisions": {{"inquiry": [1], "issue": [0], "covered": [{fc}], "correct": [], "claims_total": 4, "claims_grounded": 3}}}}"#);
/// let run = parse_run(&format!(
///     "{}\n{{\"kind\": \"session\", \"case_id\": \"C\", \"style\": \"cooperative\", \"status\": \"submitted\", \"turns_used\": 0, \"memo\": \"m\", \"panel\": [{}, {}, {{\"judge\": \"J3\", \"recused\": false, \"unavailable\": \"3 parse errors\"}}]}}\n",
///     r#"{"kind": "run", "benchmark": "dlawbench", "model": "M", "run": 1, "judges": [{"model": "J1"}, {"model": "J2"}, {"model": "J3"}]}"#,
///     seat("J1", r#""F1""#), seat("J2", ""),
/// ), &dataset).unwrap();
/// let score = score_session(&dataset[0], &run.sessions[0], &run.header);
/// assert_eq!(score.values[&Metric::FactCoverage], 0.5); // the mean of 1 and 0
/// assert_eq!(score.values[&Metric::Elicitation], 0.75); // (0.5 + 1) / 2
/// assert!(score.degraded); // J3 sat but gave nothing
/// ```
pub fn score_session(case: &Case, session: &Session, header: &RunHeader) -> SessionScore {
    let judges: Vec<Option<JudgeValues>> = session
        .panel
        .iter()
        .map(
            |seat| match (&seat.decisions, seat.recused, &seat.unavailable) {
                (Some(d), false, None) => Some(judge_values(case, d)),
                _ => None,
            },
        )
        .collect();
    let outcome = if session.unavailable.is_some() {
        Outcome::Unavailable
    } else if session.status.is_failure() {
        Outcome::Failure
    } else {
        Outcome::Judged
    };
    if outcome != Outcome::Judged {
        return SessionScore {
            outcome,
            judges: session.panel.iter().map(|_| None).collect(),
            values: Values::new(),
            conditional_correctness: None,
            seated: 0,
            valid: BTreeMap::new(),
            degraded: false,
        };
    }
    let seated = session.panel.iter().filter(|s| !s.recused).count();
    let minimum = header.min_valid_judges as usize;
    let mut values = Values::new();
    let mut valid = BTreeMap::new();
    for metric in Metric::COMPONENTS {
        let v: Vec<f64> = judges
            .iter()
            .flatten()
            .filter_map(|j| j.values.get(&metric).copied())
            .collect();
        valid.insert(metric, v.len());
        if v.len() >= minimum {
            if let Some(m) = median(&v) {
                values.insert(metric, m);
            }
        }
    }
    for metric in [Metric::Elicitation, Metric::Resolution] {
        if let Some((a, b)) = metric.components() {
            if let (Some(a), Some(b)) = (values.get(&a), values.get(&b)) {
                values.insert(metric, (a + b) / 2.0);
            }
        }
    }
    let cc: Vec<f64> = judges
        .iter()
        .flatten()
        .filter_map(|j| j.conditional_correctness)
        .collect();
    SessionScore {
        outcome,
        judges,
        degraded: valid.values().any(|&n| n < seated),
        values,
        conditional_correctness: median(&cc),
        seated,
        valid,
    }
}

/// The panel's decision on each rubric item of one session, for
/// judge–human agreement (§A6.8, →C-D13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemDecisions {
    /// Per Inquiry rubric item; `None` for a tie.
    pub inquiry: Vec<Option<u8>>,
    /// Per Issue-resolution rubric item; `None` for a tie.
    pub issue: Vec<Option<u8>>,
}

/// The strict majority of the seated judges that gave decisions, item by
/// item; a tie (two judges who disagree) is `None`, left out of agreement
/// and counted. `None` when no seated judge decided (a task failure, an
/// unavailable session or panel).
///
/// ```
/// use engine::dlawbench::run::{Decisions, Seat, Session, Status};
/// use engine::dlawbench::dataset::Style;
/// use engine::dlawbench::score::item_decisions;
///
/// let seat = |judge: &str, inquiry: Vec<u8>| Seat { judge: judge.into(), recused: false, rationale: None, unavailable: None,
///     decisions: Some(Decisions { inquiry, issue: vec![1], covered: vec![], correct: vec![], claims_total: 0, claims_grounded: 0, ungrounded_claims: None, incorrect: None }) };
/// let mut session = Session { case_id: "C".into(), style: Style::Cooperative, status: Status::Submitted, turns_used: 0, error: None,
///     dialogue: None, memo: Some("m".into()), panel: vec![seat("A", vec![1, 0]), seat("B", vec![1, 1]), seat("C", vec![0, 1])], unavailable: None };
/// assert_eq!(item_decisions(&session).unwrap().inquiry, [Some(1), Some(1)]);
/// session.panel[0].recused = true;
/// session.panel[0].decisions = None;
/// assert_eq!(item_decisions(&session).unwrap().inquiry, [None, Some(1)]); // 1–1, then 2–0
/// ```
pub fn item_decisions(session: &Session) -> Option<ItemDecisions> {
    if session.unavailable.is_some() || session.status.is_failure() {
        return None;
    }
    let decided: Vec<&Decisions> = session
        .panel
        .iter()
        .filter(|s| !s.recused)
        .filter_map(|s| s.decisions.as_ref())
        .collect();
    if decided.is_empty() {
        return None;
    }
    let majority = |pick: fn(&Decisions) -> &[u8]| -> Vec<Option<u8>> {
        let len = decided.iter().map(|d| pick(d).len()).min().unwrap_or(0);
        (0..len)
            .map(|k| {
                let ones = decided.iter().filter(|d| pick(d)[k] == 1).count();
                let zeros = decided.len() - ones;
                match ones.cmp(&zeros) {
                    std::cmp::Ordering::Greater => Some(1),
                    std::cmp::Ordering::Less => Some(0),
                    std::cmp::Ordering::Equal => None,
                }
            })
            .collect()
    };
    Some(ItemDecisions {
        inquiry: majority(|d| &d.inquiry),
        issue: majority(|d| &d.issue),
    })
}

/// A mean over a group of sessions and how many sessions it has.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// The mean; `None` when no session of the group has a value.
    pub mean: Option<f64>,
    /// Sessions with a value.
    pub n: usize,
}

/// A group's cells per metric.
pub type Group = BTreeMap<Metric, Cell>;

/// A value per metric; null where there is none.
pub type Means = BTreeMap<Metric, Option<f64>>;

/// One view of one run (§A4.4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ViewScores {
    /// (M_cn + M_us) / 2 (or the one jurisdiction's value); `None` unless
    /// the run has all four styles.
    pub overall: Option<Means>,
    /// Per jurisdiction, over every style; empty unless all four styles.
    pub by_jurisdiction: BTreeMap<Jurisdiction, Group>,
    /// Per style the jurisdiction-mean form (→C-D9).
    pub by_style: BTreeMap<Style, Means>,
    /// Per jurisdiction and style.
    pub by_jurisdiction_style: BTreeMap<Jurisdiction, BTreeMap<Style, Group>>,
    /// Per `jurisdiction/domain`; empty unless all four styles.
    pub by_domain: BTreeMap<String, Group>,
    /// Per style other than cooperative, M_s − M_cooperative; present when
    /// the run has both styles.
    pub style_gap: BTreeMap<Style, Means>,
}

/// |median − mean| on the sessions where a metric had three judge values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Gap {
    /// The sessions.
    pub sessions: usize,
    /// The mean |median − mean|; `None` without sessions.
    pub mean_abs: Option<f64>,
    /// The share of sessions with |median − mean| > 0.05.
    pub share_over_005: Option<f64>,
}

/// One judge seat over a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeStats {
    /// The judge model.
    pub judge: String,
    /// Judged sessions where it sat and gave decisions.
    pub scored: usize,
    /// Judged sessions where it recused.
    pub recused: usize,
    /// Judged sessions where it sat and gave none.
    pub unavailable: usize,
    /// Its mean value per component over the sessions it scored.
    pub mean: Means,
}

/// The panel diagnostics of a run (§A6.6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PanelStats {
    /// Per header judge, in header order.
    pub judges: Vec<JudgeStats>,
    /// Per metric (the derived ones from median vs mean components).
    pub median_mean_gap: BTreeMap<Metric, Gap>,
}

/// Failures, left-out sessions and seats of a run (or an entry).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Every session.
    pub sessions: usize,
    /// Sessions the panel scored.
    pub judged: usize,
    /// Task failures by status (`empty_memo`, `no_memo`, `lawyer_error`).
    pub failures: BTreeMap<Status, usize>,
    /// Sessions marked unavailable.
    pub unavailable: usize,
    /// Judged sessions with a component from fewer judges than sat.
    pub degraded: usize,
    /// Recused seats of judged sessions.
    pub recused_seats: usize,
    /// Seated judges of judged sessions that gave no decisions.
    pub judge_unavailable_seats: usize,
    /// Judged sessions without a value of a metric (fidelity without
    /// claims, too few valid judges).
    pub unavailable_metrics: BTreeMap<Metric, usize>,
}

impl Counts {
    /// Every task failure.
    pub fn failed(&self) -> usize {
        self.failures.values().sum()
    }

    fn add(&mut self, other: &Counts) {
        self.sessions += other.sessions;
        self.judged += other.judged;
        for (status, n) in &other.failures {
            *self.failures.entry(*status).or_insert(0) += n;
        }
        self.unavailable += other.unavailable;
        self.degraded += other.degraded;
        self.recused_seats += other.recused_seats;
        self.judge_unavailable_seats += other.judge_unavailable_seats;
        for (metric, n) in &other.unavailable_metrics {
            *self.unavailable_metrics.entry(*metric).or_insert(0) += n;
        }
    }
}

/// What scoring one run gives (kept with the run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunScores {
    /// The styles the run contains, in [`Style::ALL`] order.
    pub styles: Vec<Style>,
    /// The dataset's jurisdictions.
    pub jurisdictions: Vec<Jurisdiction>,
    /// The headline view.
    pub null_as_zero: ViewScores,
    /// The diagnostic view.
    pub valid_only: ViewScores,
    /// Conditional correctness in the overall form (judged sessions only).
    pub conditional_correctness: Option<f64>,
    /// Conditional correctness per jurisdiction.
    pub conditional_correctness_by_jurisdiction: BTreeMap<Jurisdiction, Option<f64>>,
    /// The panel diagnostics.
    pub panel: PanelStats,
    /// Failures, left-out sessions and seats.
    pub counts: Counts,
}

impl RunScores {
    /// The view's scores.
    pub fn view(&self, view: View) -> &ViewScores {
        match view {
            View::NullAsZero => &self.null_as_zero,
            View::ValidOnly => &self.valid_only,
        }
    }

    /// Whether the run has every style, which overall values need.
    pub fn complete(&self) -> bool {
        self.styles.len() == Style::ALL.len()
    }
}

/// The pooled mean of `metric` over `sessions` in `view`.
fn cell(sessions: &[&SessionScore], metric: Metric, view: View) -> Cell {
    let values: Vec<f64> = sessions
        .iter()
        .filter_map(|s| s.value(metric, view))
        .collect();
    Cell {
        mean: mean(&values),
        n: values.len(),
    }
}

fn group(sessions: &[&SessionScore], view: View) -> Group {
    Metric::ALL
        .into_iter()
        .map(|m| (m, cell(sessions, m, view)))
        .collect()
}

/// The equal-weighted mean over jurisdictions of their group means; null
/// when one of them has none.
fn across(groups: &[&Group]) -> Means {
    Metric::ALL
        .into_iter()
        .map(|m| {
            let values: Option<Vec<f64>> = groups
                .iter()
                .map(|g| g.get(&m).and_then(|c| c.mean))
                .collect();
            (m, values.as_deref().and_then(mean))
        })
        .collect()
}

/// One scored session with where it sits.
struct Placed {
    jurisdiction: Jurisdiction,
    domain: String,
    style: Style,
    score: SessionScore,
    /// Per seat of the session, whether it recused.
    recused: Vec<bool>,
}

fn view_scores(
    placed: &[Placed],
    jurisdictions: &[Jurisdiction],
    styles: &[Style],
    view: View,
) -> ViewScores {
    let complete = styles.len() == Style::ALL.len();
    let select = |keep: &dyn Fn(&Placed) -> bool| -> Vec<&SessionScore> {
        placed
            .iter()
            .filter(|p| keep(p))
            .map(|p| &p.score)
            .collect()
    };
    let by_jurisdiction_style: BTreeMap<Jurisdiction, BTreeMap<Style, Group>> = jurisdictions
        .iter()
        .map(|&j| {
            let per_style = styles
                .iter()
                .map(|&s| {
                    (
                        s,
                        group(&select(&|p| p.jurisdiction == j && p.style == s), view),
                    )
                })
                .collect();
            (j, per_style)
        })
        .collect();
    let by_style: BTreeMap<Style, Means> = styles
        .iter()
        .map(|s| {
            let groups: Vec<&Group> = by_jurisdiction_style.values().map(|g| &g[s]).collect();
            (*s, across(&groups))
        })
        .collect();
    let style_gap = match by_style.get(&Style::Cooperative) {
        Some(base) => by_style
            .iter()
            .filter(|(s, _)| **s != Style::Cooperative)
            .map(|(s, means)| {
                let gap = Metric::ALL
                    .into_iter()
                    .map(|m| {
                        let d = match (means[&m], base[&m]) {
                            (Some(a), Some(b)) => Some(a - b),
                            _ => None,
                        };
                        (m, d)
                    })
                    .collect();
                (*s, gap)
            })
            .collect(),
        None => BTreeMap::new(),
    };
    let (by_jurisdiction, overall, by_domain) = if complete {
        let by_jurisdiction: BTreeMap<Jurisdiction, Group> = jurisdictions
            .iter()
            .map(|&j| (j, group(&select(&|p| p.jurisdiction == j), view)))
            .collect();
        let overall = across(&by_jurisdiction.values().collect::<Vec<_>>());
        let mut domains: Vec<&str> = placed.iter().map(|p| p.domain.as_str()).collect();
        domains.sort_unstable();
        domains.dedup();
        let by_domain = domains
            .into_iter()
            .map(|d| (d.to_owned(), group(&select(&|p| p.domain == d), view)))
            .collect();
        (by_jurisdiction, Some(overall), by_domain)
    } else {
        (BTreeMap::new(), None, BTreeMap::new())
    };
    ViewScores {
        overall,
        by_jurisdiction,
        by_style,
        by_jurisdiction_style,
        by_domain,
        style_gap,
    }
}

fn panel_stats(placed: &[Placed], header: &RunHeader) -> PanelStats {
    let judged: Vec<&Placed> = placed
        .iter()
        .filter(|p| p.score.outcome == Outcome::Judged)
        .collect();
    let judges = header
        .judges
        .iter()
        .enumerate()
        .map(|(k, seat)| {
            let mut stats = JudgeStats {
                judge: seat.model.clone(),
                scored: 0,
                recused: 0,
                unavailable: 0,
                mean: Means::new(),
            };
            let mut values: BTreeMap<Metric, Vec<f64>> = BTreeMap::new();
            for p in &judged {
                let (Some(judge), Some(&recused)) = (p.score.judges.get(k), p.recused.get(k))
                else {
                    continue;
                };
                match (judge, recused) {
                    (Some(v), _) => {
                        stats.scored += 1;
                        for (m, x) in &v.values {
                            values.entry(*m).or_default().push(*x);
                        }
                    }
                    (None, true) => stats.recused += 1,
                    (None, false) => stats.unavailable += 1,
                }
            }
            stats.mean = Metric::COMPONENTS
                .into_iter()
                .map(|m| (m, values.get(&m).and_then(|v| mean(v))))
                .collect();
            stats
        })
        .collect();
    let mut gaps: BTreeMap<Metric, Vec<f64>> =
        Metric::ALL.into_iter().map(|m| (m, Vec::new())).collect();
    for p in &judged {
        let three = |m: Metric| -> Option<Vec<f64>> {
            let v: Vec<f64> = p
                .score
                .judges
                .iter()
                .flatten()
                .filter_map(|j| j.values.get(&m).copied())
                .collect();
            (v.len() == 3).then_some(v)
        };
        // Three values always have a median and a mean.
        let centre = |v: &[f64]| (median(v).unwrap_or(0.0), mean(v).unwrap_or(0.0));
        for m in Metric::ALL {
            let gap = match m.components() {
                None => three(m).map(|v| {
                    let (by_median, by_mean) = centre(&v);
                    (by_median - by_mean).abs()
                }),
                Some((a, b)) => three(a).zip(three(b)).map(|(va, vb)| {
                    let ((ma, ea), (mb, eb)) = (centre(&va), centre(&vb));
                    ((ma + mb) / 2.0 - (ea + eb) / 2.0).abs()
                }),
            };
            if let Some(g) = gap {
                gaps.entry(m).or_default().push(g);
            }
        }
    }
    let median_mean_gap = gaps
        .into_iter()
        .map(|(m, v)| {
            let over = v.iter().filter(|&&g| g > 0.05).count();
            let gap = Gap {
                sessions: v.len(),
                mean_abs: mean(&v),
                share_over_005: (!v.is_empty()).then(|| over as f64 / v.len() as f64),
            };
            (m, gap)
        })
        .collect();
    PanelStats {
        judges,
        median_mean_gap,
    }
}

/// Scores one run against the cases it was validated on (see the
/// [module documentation](self)). Sessions naming no case (which a parsed
/// run has not) are skipped.
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset;
/// use engine::dlawbench::run::parse_run;
/// use engine::dlawbench::score::{score_run, Metric};
///
/// let dataset = parse_dataset(r#"{"case_id": "C", "jurisdiction": "cn", "domain": "labor", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap();
/// let run = parse_run(concat!(
///     r#"{"kind": "run", "benchmark": "dlawbench", "model": "M", "run": 1, "horizon": 2, "judges": [{"model": "J"}]}"#, "\n",
///     r#"{"kind": "session", "case_id": "C", "style": "cooperative", "status": "submitted", "turns_used": 1, "memo": "m", "panel": [{"judge": "J", "recused": false, "decisions": {"inquiry": [1], "issue": [1], "covered": ["F1"], "correct": ["F1"], "claims_total": 2, "claims_grounded": 1}}]}"#, "\n",
///     r#"{"kind": "session", "case_id": "C", "style": "withdrawn", "status": "no_memo", "turns_used": 2}"#, "\n",
/// ), &dataset).unwrap();
/// let scores = score_run(&run, &dataset);
/// assert_eq!(scores.null_as_zero.overall, None); // two styles only (→C-D11)
/// assert_eq!(scores.null_as_zero.style_gap[&engine::dlawbench::dataset::Style::Withdrawn][&Metric::Resolution], Some(-1.0));
/// assert_eq!(scores.counts.failed(), 1);
/// ```
pub fn score_run(run: &Run, dataset: &[Case]) -> RunScores {
    let index: HashMap<&str, &Case> = dataset.iter().map(|c| (c.case_id.as_str(), c)).collect();
    let placed: Vec<Placed> = run
        .sessions
        .iter()
        .filter_map(|s| {
            let case = index.get(s.case_id.as_str())?;
            Some(Placed {
                jurisdiction: case.jurisdiction,
                domain: case.domain_key(),
                style: s.style,
                score: score_session(case, s, &run.header),
                recused: s.panel.iter().map(|seat| seat.recused).collect(),
            })
        })
        .collect();
    let styles = run.styles();
    let jurisdictions = jurisdictions(dataset);
    let mut counts = Counts {
        sessions: placed.len(),
        failures: [Status::EmptyMemo, Status::NoMemo, Status::LawyerError]
            .into_iter()
            .map(|s| (s, 0))
            .collect(),
        ..Counts::default()
    };
    for (p, session) in placed.iter().zip(
        run.sessions
            .iter()
            .filter(|s| index.contains_key(s.case_id.as_str())),
    ) {
        match p.score.outcome {
            Outcome::Unavailable => counts.unavailable += 1,
            Outcome::Failure => *counts.failures.entry(session.status).or_insert(0) += 1,
            Outcome::Judged => {
                counts.judged += 1;
                counts.degraded += usize::from(p.score.degraded);
                counts.recused_seats += session.panel.iter().filter(|s| s.recused).count();
                counts.judge_unavailable_seats += session
                    .panel
                    .iter()
                    .zip(&p.score.judges)
                    .filter(|(seat, values)| !seat.recused && values.is_none())
                    .count();
                for m in Metric::ALL {
                    if !p.score.values.contains_key(&m) {
                        *counts.unavailable_metrics.entry(m).or_insert(0) += 1;
                    }
                }
            }
        }
    }
    let cc_by_jurisdiction: BTreeMap<Jurisdiction, Option<f64>> = jurisdictions
        .iter()
        .map(|&j| {
            let values: Vec<f64> = placed
                .iter()
                .filter(|p| p.jurisdiction == j)
                .filter_map(|p| p.score.conditional_correctness)
                .collect();
            (j, mean(&values))
        })
        .collect();
    let conditional_correctness = cc_by_jurisdiction
        .values()
        .copied()
        .collect::<Option<Vec<f64>>>()
        .as_deref()
        .and_then(mean);
    RunScores {
        null_as_zero: view_scores(&placed, &jurisdictions, &styles, View::NullAsZero),
        valid_only: view_scores(&placed, &jurisdictions, &styles, View::ValidOnly),
        panel: panel_stats(&placed, &run.header),
        styles,
        jurisdictions,
        conditional_correctness,
        conditional_correctness_by_jurisdiction: cc_by_jurisdiction,
        counts,
    }
}

/// A summary per metric: mean ± sample std over the runs with a value;
/// null when none has one.
pub type Summary = BTreeMap<Metric, Option<MeanStd>>;

/// One view of an entry (§A4.7). A level no run of the entry has is absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ViewSummary {
    /// The headline values; absent unless a run has all four styles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overall: Option<Summary>,
    /// Per jurisdiction.
    pub by_jurisdiction: BTreeMap<Jurisdiction, Summary>,
    /// Per style.
    pub by_style: BTreeMap<Style, Summary>,
    /// Per jurisdiction and style.
    pub by_jurisdiction_style: BTreeMap<Jurisdiction, BTreeMap<Style, Summary>>,
    /// Per `jurisdiction/domain`.
    pub by_domain: BTreeMap<String, Summary>,
    /// Per style other than cooperative, the gap to cooperative.
    pub style_gap: BTreeMap<Style, Summary>,
}

/// |median − mean| of an entry, per metric.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GapSummary {
    /// Three-judge sessions, over every run.
    pub sessions: usize,
    /// Mean |median − mean| over runs.
    pub mean_abs: Option<MeanStd>,
    /// Share of sessions over 0.05, over runs.
    pub share_over_005: Option<MeanStd>,
}

/// One judge of an entry's panel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeSummary {
    /// The judge model.
    pub judge: String,
    /// Sessions it scored, over every run.
    pub scored: usize,
    /// Seats it recused, over every run.
    pub recused: usize,
    /// Seats it left unavailable, over every run.
    pub unavailable: usize,
    /// Its mean value per component, mean ± std over runs.
    pub mean: Summary,
}

/// The diagnostics of an entry (§A6.6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnostics {
    /// |correct| / |covered|, overall form.
    pub conditional_correctness: Option<MeanStd>,
    /// Per jurisdiction.
    pub conditional_correctness_by_jurisdiction: BTreeMap<Jurisdiction, Option<MeanStd>>,
    /// Per judge of the panel, in header order.
    pub judges: Vec<JudgeSummary>,
    /// |median − mean| on three-judge sessions.
    pub median_mean_gap: BTreeMap<Metric, GapSummary>,
}

/// One leaderboard entry: the runs of one model in one setting (§A4.7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryScores {
    /// The lawyer model.
    pub model: String,
    /// Its group.
    pub family: Option<Family>,
    /// How many runs the entry has.
    pub runs: usize,
    /// Whether the dataset has one jurisdiction only (overall is then that
    /// jurisdiction's value).
    pub single_jurisdiction: bool,
    /// The styles any run of the entry contains.
    pub styles: Vec<Style>,
    /// The headline view.
    pub null_as_zero: ViewSummary,
    /// The diagnostic view.
    pub valid_only: ViewSummary,
    /// Conditional correctness and the panel diagnostics.
    pub diagnostics: Diagnostics,
    /// Summed over the entry's runs.
    pub counts: Counts,
    /// Everything that sets the entry apart, which §A4.7 does not write.
    #[serde(skip)]
    pub key: EntryKey,
}

impl EntryScores {
    /// The view's summary.
    pub fn view(&self, view: View) -> &ViewSummary {
        match view {
            View::NullAsZero => &self.null_as_zero,
            View::ValidOnly => &self.valid_only,
        }
    }

    /// The entry's overall value of `metric` in `view`.
    pub fn overall(&self, metric: Metric, view: View) -> Option<MeanStd> {
        self.view(view)
            .overall
            .as_ref()?
            .get(&metric)
            .copied()
            .flatten()
    }
}

/// The score document of §A4.7.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreDocument {
    /// Always [`Benchmark::Dlawbench`].
    pub benchmark: Benchmark,
    /// The dataset's name, written only when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// The dataset's cases per jurisdiction.
    pub cases: BTreeMap<Jurisdiction, usize>,
    /// The four styles, in [D]'s order.
    pub styles: Vec<Style>,
    /// One entry per model and setting, in order of first appearance.
    pub entries: Vec<EntryScores>,
}

impl ScoreDocument {
    /// The document with its dataset named.
    pub fn with_dataset(self, name: impl Into<String>) -> Self {
        Self {
            dataset: Some(name.into()),
            ..self
        }
    }
}

/// Mean ± std over runs of one value per run, for each key any run has.
fn summarise_map<K: Ord + Clone, T>(
    maps: &[&BTreeMap<K, T>],
    mut each: impl FnMut(&[&T]) -> Summary,
) -> BTreeMap<K, Summary> {
    let mut keys: Vec<&K> = maps.iter().flat_map(|m| m.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .map(|k| {
            let values: Vec<&T> = maps.iter().filter_map(|m| m.get(k)).collect();
            (k.clone(), each(&values))
        })
        .collect()
}

fn summary_of(values: &[Option<f64>]) -> Option<MeanStd> {
    let present: Vec<f64> = values.iter().flatten().copied().collect();
    mean_std(&present)
}

fn summarise_means(runs: &[&Means]) -> Summary {
    Metric::ALL
        .into_iter()
        .map(|m| {
            let values: Vec<Option<f64>> =
                runs.iter().map(|r| r.get(&m).copied().flatten()).collect();
            (m, summary_of(&values))
        })
        .collect()
}

fn summarise_groups(runs: &[&Group]) -> Summary {
    Metric::ALL
        .into_iter()
        .map(|m| {
            let values: Vec<Option<f64>> = runs
                .iter()
                .map(|g| g.get(&m).and_then(|c| c.mean))
                .collect();
            (m, summary_of(&values))
        })
        .collect()
}

fn summarise_view(views: &[&ViewScores]) -> ViewSummary {
    let overall: Vec<&Means> = views.iter().filter_map(|v| v.overall.as_ref()).collect();
    let by_js: Vec<&BTreeMap<Jurisdiction, BTreeMap<Style, Group>>> =
        views.iter().map(|v| &v.by_jurisdiction_style).collect();
    ViewSummary {
        overall: (!overall.is_empty()).then(|| summarise_means(&overall)),
        by_jurisdiction: summarise_map(
            &views.iter().map(|v| &v.by_jurisdiction).collect::<Vec<_>>(),
            summarise_groups,
        ),
        by_style: summarise_map(
            &views.iter().map(|v| &v.by_style).collect::<Vec<_>>(),
            summarise_means,
        ),
        by_jurisdiction_style: {
            let mut keys: Vec<Jurisdiction> =
                by_js.iter().flat_map(|m| m.keys().copied()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter()
                .map(|j| {
                    let maps: Vec<&BTreeMap<Style, Group>> =
                        by_js.iter().filter_map(|m| m.get(&j)).collect();
                    (j, summarise_map(&maps, summarise_groups))
                })
                .collect()
        },
        by_domain: summarise_map(
            &views.iter().map(|v| &v.by_domain).collect::<Vec<_>>(),
            summarise_groups,
        ),
        style_gap: summarise_map(
            &views.iter().map(|v| &v.style_gap).collect::<Vec<_>>(),
            summarise_means,
        ),
    }
}

/// Summarises one entry's run scores (§A4.5): each value's mean and sample
/// std over the runs that have it.
pub fn summarise_entry(
    key: EntryKey,
    runs: &[RunScores],
    single_jurisdiction: bool,
) -> EntryScores {
    let mut styles: Vec<Style> = runs.iter().flat_map(|r| r.styles.iter().copied()).collect();
    styles.sort();
    styles.dedup();
    let mut counts = Counts::default();
    for run in runs {
        counts.add(&run.counts);
    }
    let judges = runs.first().map(|r| r.panel.judges.len()).unwrap_or(0);
    let judges = (0..judges)
        .map(|k| {
            let stats: Vec<&JudgeStats> =
                runs.iter().filter_map(|r| r.panel.judges.get(k)).collect();
            JudgeSummary {
                judge: stats[0].judge.clone(),
                scored: stats.iter().map(|s| s.scored).sum(),
                recused: stats.iter().map(|s| s.recused).sum(),
                unavailable: stats.iter().map(|s| s.unavailable).sum(),
                mean: Metric::COMPONENTS
                    .into_iter()
                    .map(|m| {
                        let v: Vec<Option<f64>> = stats
                            .iter()
                            .map(|s| s.mean.get(&m).copied().flatten())
                            .collect();
                        (m, summary_of(&v))
                    })
                    .collect(),
            }
        })
        .collect();
    let median_mean_gap = Metric::ALL
        .into_iter()
        .map(|m| {
            let gaps: Vec<Gap> = runs
                .iter()
                .map(|r| r.panel.median_mean_gap.get(&m).copied().unwrap_or_default())
                .collect();
            let summary = GapSummary {
                sessions: gaps.iter().map(|g| g.sessions).sum(),
                mean_abs: summary_of(&gaps.iter().map(|g| g.mean_abs).collect::<Vec<_>>()),
                share_over_005: summary_of(
                    &gaps.iter().map(|g| g.share_over_005).collect::<Vec<_>>(),
                ),
            };
            (m, summary)
        })
        .collect();
    let mut cc_keys: Vec<Jurisdiction> = runs
        .iter()
        .flat_map(|r| r.conditional_correctness_by_jurisdiction.keys().copied())
        .collect();
    cc_keys.sort();
    cc_keys.dedup();
    EntryScores {
        model: key.model.clone(),
        family: key.family,
        runs: runs.len(),
        single_jurisdiction,
        styles,
        null_as_zero: summarise_view(&runs.iter().map(|r| &r.null_as_zero).collect::<Vec<_>>()),
        valid_only: summarise_view(&runs.iter().map(|r| &r.valid_only).collect::<Vec<_>>()),
        diagnostics: Diagnostics {
            conditional_correctness: summary_of(
                &runs
                    .iter()
                    .map(|r| r.conditional_correctness)
                    .collect::<Vec<_>>(),
            ),
            conditional_correctness_by_jurisdiction: cc_keys
                .into_iter()
                .map(|j| {
                    let v: Vec<Option<f64>> = runs
                        .iter()
                        .map(|r| {
                            r.conditional_correctness_by_jurisdiction
                                .get(&j)
                                .copied()
                                .flatten()
                        })
                        .collect();
                    (j, summary_of(&v))
                })
                .collect(),
            judges,
            median_mean_gap,
        },
        counts,
        key,
    }
}

/// Groups scored runs by entry key in order of first appearance and
/// summarises each group (§A4.7).
///
/// ```
/// use engine::dlawbench::score::{summarise_runs, ScoreDocument};
/// let doc: ScoreDocument = summarise_runs([], &[]);
/// assert_eq!(serde_json::to_value(&doc).unwrap()["styles"][3], "adversarial");
/// ```
pub fn summarise_runs(
    runs: impl IntoIterator<Item = (EntryKey, RunScores)>,
    dataset: &[Case],
) -> ScoreDocument {
    <crate::dlawbench::DLawBench as crate::benchmark::Suite>::summarise(
        runs.into_iter().collect(),
        dataset,
    )
}

/// The cases of `dataset` by jurisdiction.
fn cases_by_jurisdiction(dataset: &[Case]) -> BTreeMap<Jurisdiction, usize> {
    let mut cases = BTreeMap::new();
    for case in dataset {
        *cases.entry(case.jurisdiction).or_insert(0) += 1;
    }
    cases
}

/// Whether every case of `dataset` is of one jurisdiction (an entry's
/// summary then says so).
pub fn single_jurisdiction(dataset: &[Case]) -> bool {
    cases_by_jurisdiction(dataset).len() == 1
}

/// The score document of entries already summarised ([`summarise_entry`]),
/// in the order given.
pub fn document(entries: Vec<EntryScores>, dataset: &[Case]) -> ScoreDocument {
    ScoreDocument {
        benchmark: Benchmark::Dlawbench,
        dataset: None,
        cases: cases_by_jurisdiction(dataset),
        styles: Style::ALL.to_vec(),
        entries,
    }
}

/// [`score_run`] for each run, then [`summarise_runs`].
pub fn score_entries(runs: &[Run], dataset: &[Case]) -> ScoreDocument {
    summarise_runs(
        runs.iter()
            .map(|run| (run.header.entry_key(), score_run(run, dataset))),
        dataset,
    )
}
