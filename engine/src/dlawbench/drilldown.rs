//! DLawBench drill-downs (`docs/benchmarks/dlawbench.md` §A6.7): the
//! sessions behind a leaderboard cell, and one session in full.
//!
//! - [`cell_sessions`]: for a metric, a view and a [`Level`] (overall, a
//!   jurisdiction, a style, a jurisdiction × style, a domain), every session
//!   of each run that enters the cell, with its value, and the cell's value
//!   recomputed from them the way [`super::score`] computes it (the
//!   jurisdiction-mean form for overall and style cells).
//! - [`session_detail`]: one session: the case's fact pairs side by side
//!   (client belief vs court record, disputed flagged); the dialogue with
//!   turn numbers and the style; the memo; per judge its decisions (fact
//!   covered / correct, rubric hits, grounded claims), values, rationale
//!   and recusal; the panel values and the degraded flag.
//!
//! Depends on [`super::dataset`], [`super::run`] and [`super::score`].

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::dataset::{Case, FactType, Jurisdiction, Language, Style};
use super::run::{Action, Decisions, Role, Run, Status};
use super::score::{score_session, JudgeValues, Metric, Outcome, Values, View};
use crate::lang::Lang;

/// Which group of sessions a leaderboard cell averages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "level", rename_all = "snake_case")]
pub enum Level {
    /// The headline: the mean of the jurisdictions.
    Overall,
    /// One jurisdiction, every style.
    Jurisdiction {
        /// The jurisdiction.
        jurisdiction: Jurisdiction,
    },
    /// One style, the mean of the jurisdictions.
    Style {
        /// The style.
        style: Style,
    },
    /// One jurisdiction and style.
    JurisdictionStyle {
        /// The jurisdiction.
        jurisdiction: Jurisdiction,
        /// The style.
        style: Style,
    },
    /// One `jurisdiction/domain`.
    Domain {
        /// The domain key.
        domain: String,
    },
}

impl Level {
    /// The level a drill-down query names: a `jurisdiction` (`cn`, `us`), a
    /// `style`, both, a `domain` (`jurisdiction/domain`, alone), or none
    /// (overall); empty values count as absent. An unknown value is an
    /// error in `lang` naming the values allowed.
    ///
    /// ```
    /// use engine::dlawbench::dataset::{Jurisdiction, Style};
    /// use engine::dlawbench::drilldown::Level;
    /// use engine::lang::Lang;
    ///
    /// assert_eq!(Level::from_query(Some("us"), Some(""), None, Lang::En), Ok(Level::Jurisdiction { jurisdiction: Jurisdiction::Us }));
    /// assert_eq!(Level::from_query(None, Some("withdrawn"), None, Lang::En), Ok(Level::Style { style: Style::Withdrawn }));
    /// assert!(Level::from_query(Some("uk"), None, None, Lang::En).unwrap_err().contains("cn or us"));
    /// assert!(Level::from_query(Some("us"), None, Some("us/torts"), Lang::En).is_err());
    /// ```
    pub fn from_query(
        jurisdiction: Option<&str>,
        style: Option<&str>,
        domain: Option<&str>,
        lang: Lang,
    ) -> Result<Level, String> {
        fn given(v: Option<&str>) -> Option<&str> {
            v.filter(|v| !v.is_empty())
        }
        let jurisdiction = given(jurisdiction)
            .map(|j| {
                Jurisdiction::parse(j).ok_or_else(|| match lang {
                    Lang::Zh => format!("未知的法域 {j:?}；应为 cn 或 us"),
                    Lang::En => format!("unknown jurisdiction {j:?}; expected cn or us"),
                })
            })
            .transpose()?;
        let style = given(style)
            .map(|s| {
                Style::parse(s).ok_or_else(|| {
                    let expected = Style::ALL.map(Style::as_str).join(", ");
                    match lang {
                        Lang::Zh => format!("未知的风格 {s:?}；应为以下之一：{expected}"),
                        Lang::En => format!("unknown style {s:?}; expected one of {expected}"),
                    }
                })
            })
            .transpose()?;
        Ok(match (given(domain), jurisdiction, style) {
            (Some(domain), None, None) => Level::Domain {
                domain: domain.to_owned(),
            },
            (Some(_), _, _) => {
                return Err(lang
                    .t(
                        "领域单元格不带法域或风格",
                        "a domain cell has no jurisdiction or style",
                    )
                    .into())
            }
            (None, None, None) => Level::Overall,
            (None, Some(jurisdiction), None) => Level::Jurisdiction { jurisdiction },
            (None, None, Some(style)) => Level::Style { style },
            (None, Some(jurisdiction), Some(style)) => Level::JurisdictionStyle {
                jurisdiction,
                style,
            },
        })
    }

    fn contains(&self, case: &Case, style: Style) -> bool {
        match self {
            Level::Overall => true,
            Level::Jurisdiction { jurisdiction } => case.jurisdiction == *jurisdiction,
            Level::Style { style: s } => style == *s,
            Level::JurisdictionStyle {
                jurisdiction,
                style: s,
            } => case.jurisdiction == *jurisdiction && style == *s,
            Level::Domain { domain } => case.domain_key() == *domain,
        }
    }

    /// Whether the cell is the mean of jurisdiction means.
    fn across_jurisdictions(&self) -> bool {
        matches!(self, Level::Overall | Level::Style { .. })
    }
}

/// One session of a cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionRow {
    /// Its index in the run's sessions ([`session_detail`]).
    pub index: usize,
    /// The case.
    pub case_id: String,
    /// The case's jurisdiction.
    pub jurisdiction: Jurisdiction,
    /// The style.
    pub style: Style,
    /// How it ended.
    pub status: Status,
    /// How it enters the scores.
    pub outcome: Outcome,
    /// Its value in the view; `None` when left out.
    pub value: Option<f64>,
    /// Whether the value is kept back while the session is under review.
    #[serde(default)]
    pub hidden: bool,
    /// Whether the panel was degraded.
    pub degraded: bool,
}

/// One run's part of a cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunCell {
    /// The run number.
    pub run: u32,
    /// The cell's value in this run, recomputed from the sessions.
    pub value: Option<f64>,
    /// The sessions, in file order.
    pub sessions: Vec<SessionRow>,
}

/// The sessions behind one leaderboard cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellSessions {
    /// The metric.
    pub metric: Metric,
    /// The view.
    pub view: View,
    /// The group.
    pub level: Level,
    /// One per run of the entry, in the order given.
    pub runs: Vec<RunCell>,
    /// How many sessions are not listed because their client style is
    /// under blind review ([`CellSessions::leave_out`]); written only when
    /// there are some.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub under_style_review: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The sessions of each of `runs` (one entry's) behind the cell of
/// `metric` at `level` in `view`.
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset;
/// use engine::dlawbench::drilldown::{cell_sessions, Level};
/// use engine::dlawbench::run::parse_run;
/// use engine::dlawbench::score::{Metric, View};
///
/// let dataset = parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap();
/// let run = parse_run(concat!(
///     r#"{"kind": "run", "benchmark": "dlawbench", "model": "M", "run": 1, "horizon": 1, "judges": [{"model": "J"}]}"#, "\n",
///     r#"{"kind": "session", "case_id": "C", "style": "dependent", "status": "no_memo", "turns_used": 1}"#, "\n",
/// ), &dataset).unwrap();
/// let cell = cell_sessions(&dataset, &[&run], Metric::Inquiry, View::NullAsZero, &Level::Style { style: engine::dlawbench::dataset::Style::Dependent });
/// assert_eq!((cell.runs[0].value, cell.runs[0].sessions[0].value), (Some(0.0), Some(0.0)));
/// let valid = cell_sessions(&dataset, &[&run], Metric::Inquiry, View::ValidOnly, &Level::Overall);
/// assert_eq!(valid.runs[0].value, None);
/// ```
pub fn cell_sessions(
    dataset: &[Case],
    runs: &[&Run],
    metric: Metric,
    view: View,
    level: &Level,
) -> CellSessions {
    let index: HashMap<&str, &Case> = dataset.iter().map(|c| (c.case_id.as_str(), c)).collect();
    let jurisdictions = super::dataset::jurisdictions(dataset);
    let runs = runs
        .iter()
        .map(|run| {
            let sessions: Vec<SessionRow> = run
                .sessions
                .iter()
                .enumerate()
                .filter_map(|(i, s)| {
                    let case = index.get(s.case_id.as_str())?;
                    if !level.contains(case, s.style) {
                        return None;
                    }
                    let score = score_session(case, s, &run.header);
                    Some(SessionRow {
                        index: i,
                        case_id: s.case_id.clone(),
                        jurisdiction: case.jurisdiction,
                        style: s.style,
                        status: s.status,
                        outcome: score.outcome,
                        value: score.value(metric, view),
                        hidden: false,
                        degraded: score.degraded,
                    })
                })
                .collect();
            let mean_of = |rows: &mut dyn Iterator<Item = &SessionRow>| {
                let v: Vec<f64> = rows.filter_map(|r| r.value).collect();
                (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
            };
            let value = if level.across_jurisdictions() {
                let means: Option<Vec<f64>> = jurisdictions
                    .iter()
                    .map(|&j| mean_of(&mut sessions.iter().filter(|r| r.jurisdiction == j)))
                    .collect();
                means
                    .filter(|m| !m.is_empty())
                    .map(|m| m.iter().sum::<f64>() / m.len() as f64)
            } else {
                mean_of(&mut sessions.iter())
            };
            RunCell {
                run: run.header.run,
                value,
                sessions,
            }
        })
        .collect();
    CellSessions {
        metric,
        view,
        level: level.clone(),
        runs,
        under_style_review: 0,
    }
}

/// One fact pair, side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FactRow {
    /// The fact id.
    pub id: String,
    /// Its type.
    pub fact_type: FactType,
    /// Whether the court record corrects the client (highlighted).
    pub disputed: bool,
    /// What the client believes.
    pub client_belief: String,
    /// What the court found.
    pub court_record: String,
}

/// One turn of the dialogue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnRow {
    /// 0 for the opening; a lawyer's k-th question and the client's answer
    /// to it are turn k.
    pub turn: u32,
    /// Who speaks.
    pub role: Role,
    /// For a lawyer turn, `ask`.
    pub action: Option<Action>,
    /// What was said.
    pub content: String,
}

/// One judge's mark on one fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactMark {
    /// The fact.
    pub fact_id: String,
    /// Mentioned in the memo.
    pub covered: bool,
    /// Stated in the court-record view.
    pub correct: bool,
    /// Why it is wrong, when the judge said.
    pub reason: Option<String>,
}

/// One judge's decision on one rubric item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RubricMark {
    /// The rubric id.
    pub id: String,
    /// Its text.
    pub text: String,
    /// Whether the judge found it satisfied.
    pub hit: bool,
}

/// One judge's seat in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeDetail {
    /// The judge model.
    pub judge: String,
    /// Whether it recused.
    pub recused: bool,
    /// Why a seated judge gave nothing.
    pub unavailable: Option<String>,
    /// Its rationale.
    pub rationale: Option<String>,
    /// Its decisions as stored.
    pub decisions: Option<Decisions>,
    /// Per fact, its marks (empty without decisions).
    pub facts: Vec<FactMark>,
    /// Per Inquiry rubric item.
    pub inquiry: Vec<RubricMark>,
    /// Per Issue-resolution rubric item.
    pub issue: Vec<RubricMark>,
    /// Its values.
    pub values: Option<JudgeValues>,
}

/// One session in full.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionDetail {
    /// The case.
    pub case_id: String,
    /// Its title, when the dataset gives one.
    pub title: Option<serde_json::Value>,
    /// Its jurisdiction.
    pub jurisdiction: Jurisdiction,
    /// Its language.
    pub language: Language,
    /// Its domain key.
    pub domain: String,
    /// The style.
    pub style: Style,
    /// How it ended.
    pub status: Status,
    /// Questions asked, of the horizon.
    pub turns_used: u32,
    /// The run's horizon.
    pub horizon: u32,
    /// Why the session was not scored, if so.
    pub unavailable: Option<String>,
    /// Why the lawyer failed, for a `lawyer_error` session that says.
    #[serde(default)]
    pub error: Option<String>,
    /// The fact pairs.
    pub facts: Vec<FactRow>,
    /// The dialogue (empty when the run kept none).
    pub dialogue: Vec<TurnRow>,
    /// The memo.
    pub memo: Option<String>,
    /// One per seat, in panel order.
    pub judges: Vec<JudgeDetail>,
    /// How it enters the scores.
    pub outcome: Outcome,
    /// The panel values of a judged session.
    pub panel: Values,
    /// Panel conditional correctness.
    pub conditional_correctness: Option<f64>,
    /// Whether a component had fewer values than seated judges.
    pub degraded: bool,
    /// Whether the panel's decisions are kept back ([`SessionDetail::hide_panel`]).
    #[serde(default)]
    pub panel_hidden: bool,
}

impl SessionDetail {
    /// Keeps back everything the panel decided (each judge's decisions,
    /// rationale and name, the panel values, conditional correctness): what
    /// an expert must not see of a session open for blind review.
    ///
    /// ```
    /// use engine::dlawbench::dataset::parse_dataset;
    /// use engine::dlawbench::drilldown::session_detail;
    /// use engine::dlawbench::run::parse_run;
    ///
    /// let dataset = parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap();
    /// let run = parse_run(concat!(
    ///     r#"{"kind": "run", "benchmark": "dlawbench", "model": "M", "run": 1, "judges": [{"model": "J"}]}"#, "\n",
    ///     r#"{"kind": "session", "case_id": "C", "style": "cooperative", "status": "submitted", "turns_used": 0, "memo": "m", "panel": [{"judge": "J", "recused": false, "decisions": {"inquiry": [1], "issue": [0], "covered": ["F1"], "correct": [], "claims_total": 1, "claims_grounded": 1}}]}"#, "\n",
    /// ), &dataset).unwrap();
    /// let mut detail = session_detail(&dataset[0], &run, 0).unwrap();
    /// detail.hide_panel();
    /// assert!(detail.panel_hidden && detail.judges.is_empty() && detail.panel.is_empty());
    /// assert_eq!(detail.memo.as_deref(), Some("m"), "the interview stays");
    /// ```
    pub fn hide_panel(&mut self) {
        self.judges.clear();
        self.panel.clear();
        self.conditional_correctness = None;
        self.panel_hidden = true;
    }
}

impl CellSessions {
    /// Keeps back the values of the sessions `hidden` names (run, case,
    /// style): sessions open for blind review.
    pub fn hide_values(&mut self, hidden: &[(u32, String, Style)]) {
        for run in &mut self.runs {
            let number = run.run;
            let mut any = false;
            for session in &mut run.sessions {
                if hidden
                    .iter()
                    .any(|(r, c, s)| *r == number && *c == session.case_id && *s == session.style)
                {
                    session.value = None;
                    session.hidden = true;
                    any = true;
                }
            }
            if any {
                run.value = None;
            }
        }
    }

    /// Leaves out of the listing the sessions `under_review` names (run,
    /// case, style): those whose simulated client's style experts are
    /// naming blind, which a listing would give away (a style's cell lists
    /// exactly that style's sessions). The run values stay: they are the
    /// cell's, and name no session.
    pub fn leave_out(&mut self, under_review: &[(u32, String, Style)]) {
        for run in &mut self.runs {
            let number = run.run;
            let before = run.sessions.len();
            run.sessions.retain(|session| {
                !under_review
                    .iter()
                    .any(|(r, c, s)| *r == number && *c == session.case_id && *s == session.style)
            });
            self.under_style_review += before - run.sessions.len();
        }
    }
}

fn marks(rubrics: &[super::dataset::Rubric], bits: &[u8]) -> Vec<RubricMark> {
    rubrics
        .iter()
        .zip(bits)
        .map(|(r, &b)| RubricMark {
            id: r.id.clone(),
            text: r.text.clone(),
            hit: b == 1,
        })
        .collect()
}

/// Session `index` of `run`, in full, against its `case`; `None` when the
/// run has no such session or it is of another case.
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset;
/// use engine::dlawbench::drilldown::session_detail;
/// use engine::dlawbench::run::parse_run;
///
/// let dataset = parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap();
/// let run = parse_run(concat!(
///     r#"{"kind": "run", "benchmark": "dlawbench", "model": "M", "run": 1, "judges": [{"model": "J"}]}"#, "\n",
///     r#"{"kind": "session", "case_id": "C", "style": "cooperative", "status": "submitted", "turns_used": 1, "dialogue": [{"role": "client", "content": "o"}, {"role": "lawyer", "action": "ask", "content": "When?"}, {"role": "client", "content": "May."}], "memo": "m", "panel": [{"judge": "J", "recused": false, "decisions": {"inquiry": [1], "issue": [0], "covered": ["F1"], "correct": [], "claims_total": 1, "claims_grounded": 1}, "rationale": "adopts the belief"}]}"#, "\n",
/// ), &dataset).unwrap();
/// let detail = session_detail(&dataset[0], &run, 0).unwrap();
/// assert_eq!(detail.dialogue.iter().map(|t| t.turn).collect::<Vec<_>>(), [0, 1, 1]);
/// assert!(detail.facts[0].disputed);
/// assert_eq!((detail.judges[0].facts[0].covered, detail.judges[0].facts[0].correct), (true, false));
/// assert!(detail.judges[0].inquiry[0].hit);
/// ```
pub fn session_detail(case: &Case, run: &Run, index: usize) -> Option<SessionDetail> {
    let session = run
        .sessions
        .get(index)
        .filter(|s| s.case_id == case.case_id)?;
    let score = score_session(case, session, &run.header);
    let mut asked = 0;
    let dialogue = session
        .dialogue
        .iter()
        .flatten()
        .map(|t| {
            if t.role == Role::Lawyer {
                asked += 1;
            }
            TurnRow {
                turn: asked,
                role: t.role,
                action: t.action,
                content: t.content.clone(),
            }
        })
        .collect();
    let judges = session
        .panel
        .iter()
        .zip(&score.judges)
        .map(|(seat, values)| {
            let d = seat.decisions.as_ref();
            let reasons: BTreeMap<&str, Option<&String>> = d
                .and_then(|d| d.incorrect.as_ref())
                .into_iter()
                .flatten()
                .map(|i| (i.fact_id.as_str(), i.reason.as_ref()))
                .collect();
            JudgeDetail {
                judge: seat.judge.clone(),
                recused: seat.recused,
                unavailable: seat.unavailable.clone(),
                rationale: seat.rationale.clone(),
                decisions: seat.decisions.clone(),
                facts: d.map_or_else(Vec::new, |d| {
                    case.facts
                        .iter()
                        .map(|f| FactMark {
                            fact_id: f.id.clone(),
                            covered: d.covered.contains(&f.id),
                            correct: d.correct.contains(&f.id),
                            reason: reasons.get(f.id.as_str()).copied().flatten().cloned(),
                        })
                        .collect()
                }),
                inquiry: d.map_or_else(Vec::new, |d| marks(&case.inquiry_rubrics, &d.inquiry)),
                issue: d.map_or_else(Vec::new, |d| marks(&case.issue_rubrics, &d.issue)),
                values: values.clone(),
            }
        })
        .collect();
    Some(SessionDetail {
        case_id: case.case_id.clone(),
        title: case.title.clone(),
        jurisdiction: case.jurisdiction,
        language: case.language,
        domain: case.domain.clone(),
        style: session.style,
        status: session.status,
        turns_used: session.turns_used,
        horizon: run.header.horizon,
        unavailable: session.unavailable.clone(),
        error: session.error.clone(),
        facts: case
            .facts
            .iter()
            .map(|f| FactRow {
                id: f.id.clone(),
                fact_type: f.fact_type,
                disputed: f.fact_type == FactType::Disputed,
                client_belief: f.client_belief.clone(),
                court_record: f.court_record.clone(),
            })
            .collect(),
        dialogue,
        memo: session.memo.clone(),
        judges,
        outcome: score.outcome,
        panel: score.values,
        conditional_correctness: score.conditional_correctness,
        degraded: score.degraded,
        panel_hidden: false,
    })
}
