//! The items behind one leaderboard cell: for one entry's runs, one task (and
//! LJP setup) and the cases of one class (or all cases), every case with what
//! each run did on it, the gold it is scored against and whether it counts as
//! right, wrong or unavailable; for LJP also the 3×3 confusion matrix of gold
//! against predicted verdicts.
//!
//! - [`drilldown`] builds a [`Drilldown`] from the dataset and the runs.
//! - [`Cell`] names a cell: [`Cell::of_column`] for a column of a leaderboard
//!   [`View`], [`Cell::from_query`] for the drill-down page's query.
//! - The result is plain serde data ([`CaseDrill`], [`CaseItems`], …) for the
//!   page to render; nothing here is scored differently from [`crate::lexpilot::score`]:
//!   an LCA item is right when its label matches the consultation (`predict`
//!   for `complete`, `ask` for `underspecified`), a DCG item when a request was
//!   accepted, an LJP claim when the predicted verdict is the gold one. An
//!   unavailable item is never wrong: it carries its reason instead.
//!
//! # Decisions the contract leaves open
//!
//! - **Columns.** Only the runs that contain the task (for LJP, the setup)
//!   are columns, in the order given; the others have nothing behind the cell.
//! - **Cases** are those of the class (all cases for "overall") in dataset
//!   order. A parsed run ([`crate::lexpilot::run::parse_run`]) has an item for every one;
//!   for a hand-built run that lacks one, the cell is `None`. LJP predictions
//!   whose length is not the case's claim count are shown as missing, as
//!   scoring ignores them.
//! - **Confusion matrix**: rows gold, columns predicted, both in
//!   [`Verdict::ALL`] order, summed over the columns' runs; unavailable items
//!   are left out, as they are of the QWK.
//!
//! Depends on [`crate::lexpilot::dataset`], [`crate::lexpilot::run`], [`crate::metrics`] and
//! [`crate::vocab`].
//!
//! # Example
//!
//! ```
//! use engine::lexpilot::dataset::parse_dataset;
//! use engine::lexpilot::drilldown::{drilldown, CaseItems, Outcome};
//! use engine::lexpilot::run::{parse_run, Task};
//! use engine::vocab::{Class, LjpSetup, Verdict};
//!
//! let dataset = parse_dataset(
//!     r#"{"case_id": "A", "cause": "离婚纠纷", "class": "family", "plaintiff_type": "natural", "claims": [{"id": "c1", "text": "判令离婚", "verdict": "supported"}, {"id": "c2", "text": "判令赔偿", "verdict": "dismissed"}], "focal_points": [], "key_facts": [], "missing_facts": [], "consultations": {"complete": [{"role": "user", "content": "甲"}], "underspecified": [{"role": "user", "content": "乙"}]}}"#,
//! )
//! .unwrap();
//! let run = parse_run(
//!     r#"{"kind": "run", "model": "M", "run": 1}
//! {"kind": "ljp", "case_id": "A", "setup": "gold", "predictions": ["supported", "partially_supported"], "response": "支持；部分支持"}
//! "#,
//!     &dataset,
//! )
//! .unwrap();
//!
//! let drill = drilldown(&dataset, &[run], Task::Ljp, LjpSetup::Gold, Some(Class::Family));
//! let CaseItems::Ljp { claims, replies } = &drill.cases[0].items else { panic!() };
//! assert_eq!(claims[1].gold, Verdict::Dismissed);
//! assert_eq!(claims[1].runs[0].as_ref().unwrap().outcome, Outcome::Wrong);
//! assert_eq!(replies[0].as_ref().unwrap().response.as_deref(), Some("支持；部分支持"));
//! let confusion = drill.confusion.unwrap();
//! assert_eq!(confusion[2][1], 1); // gold dismissed, predicted partially supported
//! assert_eq!((drill.runs[0].correct, drill.runs[0].wrong), (1, 1));
//! ```

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::core::dialogue::Turn;
use crate::lexpilot::dataset::Case;
use crate::lexpilot::leaderboard::View;
use crate::lexpilot::run::{DcgRequest, LcaItem, LjpItem, Run, Task};
use crate::metrics::ConfusionMatrix;
use crate::vocab::{Class, Consultation, LcaLabel, LjpSetup, Verdict, Vocabulary};

/// One leaderboard cell: a task, for LJP a setup (ignored otherwise, as in
/// [`View`]), and a class or overall (`None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// The task.
    pub task: Task,
    /// The LJP setup; meaningless for LCA and DCG.
    pub setup: LjpSetup,
    /// The class; `None` for overall.
    pub class: Option<Class>,
}

impl Cell {
    /// The cell behind column `column` (a key of
    /// [`Table::columns`](crate::lexpilot::leaderboard::Table::columns)) of `view`.
    /// A class column is that class in the view's setup; `overall_<setup>`
    /// is overall in that setup; every other column (overall, Acc_C, Acc_U,
    /// gain, relative degradation) is overall, and for LJP in the
    /// interaction setup, the one that both gain and degradation compare.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::lexpilot::drilldown::Cell;
    /// use engine::lexpilot::leaderboard::View;
    /// use engine::lexpilot::run::Task;
    /// use engine::vocab::{Class, LjpSetup};
    ///
    /// let view = View::from_query(Some("ljp".into()), Some("direct".into()), None);
    /// let tort = Cell::of_column(&view, "tort");
    /// assert_eq!((tort.task, tort.setup, tort.class), (Task::Ljp, LjpSetup::Direct, Some(Class::Tort)));
    /// let gold = Cell::of_column(&view, "overall_gold");
    /// assert_eq!((gold.setup, gold.class), (LjpSetup::Gold, None));
    /// assert_eq!(Cell::of_column(&view, "gain").setup, LjpSetup::Interaction);
    /// ```
    pub fn of_column(view: &View, column: &str) -> Cell {
        let overall = |setup| Cell {
            task: view.task,
            setup,
            class: None,
        };
        if let Some(class) = Class::parse(column) {
            return Cell {
                task: view.task,
                setup: view.setup,
                class: Some(class),
            };
        }
        match column.strip_prefix("overall_").and_then(LjpSetup::parse) {
            Some(setup) => overall(setup),
            None if view.task == Task::Ljp => overall(LjpSetup::Interaction),
            None => overall(view.setup),
        }
    }

    /// Reads the drill-down query: `task` (required), `setup` (for LJP;
    /// interaction when absent, as on the leaderboard) and `class` (a class,
    /// or `overall` or absent for all cases). An unknown value is an error
    /// that names the values allowed.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::lexpilot::drilldown::Cell;
    /// use engine::vocab::{Class, LjpSetup};
    ///
    /// let cell = Cell::from_query(Some("ljp"), None, Some("family")).unwrap();
    /// assert_eq!((cell.setup, cell.class), (LjpSetup::Interaction, Some(Class::Family)));
    /// assert_eq!(Cell::from_query(Some("dcg"), Some("any"), Some("overall")).unwrap().class, None);
    /// assert!(Cell::from_query(Some("ljp"), None, Some("torts")).unwrap_err().contains("family"));
    /// assert!(Cell::from_query(None, None, None).is_err());
    /// ```
    pub fn from_query(
        task: Option<&str>,
        setup: Option<&str>,
        class: Option<&str>,
    ) -> Result<Cell, String> {
        let task = match task {
            Some(task) => Task::parse(task).ok_or_else(|| {
                format!(
                    "unknown task \"{task}\"; expected one of {}",
                    Task::expected()
                )
            })?,
            None => return Err(format!("name a task: task= one of {}", Task::expected())),
        };
        let setup = match setup.filter(|_| task == Task::Ljp) {
            Some(setup) => LjpSetup::parse(setup).ok_or_else(|| {
                format!(
                    "unknown setup \"{setup}\"; expected one of {}",
                    LjpSetup::expected()
                )
            })?,
            None => LjpSetup::Interaction,
        };
        let class = match class {
            None | Some("overall") => None,
            Some(class) => Some(Class::parse(class).ok_or_else(|| {
                format!(
                    "unknown class \"{class}\"; expected overall or one of {}",
                    Class::expected()
                )
            })?),
        };
        Ok(Cell { task, setup, class })
    }
}

/// Cases per page of a drill-down: the tallies and the confusion matrix
/// count every case of the cell, the page shows this many cases' items.
pub const CASES_PER_PAGE: u32 = 25;

/// Everything behind one leaderboard cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Drilldown {
    /// The task of the cell.
    pub task: Task,
    /// The LJP setup; `None` for LCA and DCG.
    pub setup: Option<LjpSetup>,
    /// The class of the cell; `None` for overall.
    pub class: Option<Class>,
    /// One column per run that contains the task (and setup), with its tally
    /// over the cases below.
    pub runs: Vec<RunTally>,
    /// For LJP: gold (rows) against predicted (columns) verdicts, both in
    /// [`Verdict::ALL`] order, summed over the runs; unavailable items left out.
    pub confusion: Option<[[u64; 3]; 3]>,
    /// The cases of the class, in dataset order.
    pub cases: Vec<CaseDrill>,
}

/// How one run fared on the cell's instances (consultations for LCA, cases
/// for DCG, claims for LJP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunTally {
    /// The run number of the run's header.
    pub run: u32,
    /// Instances scored as right.
    pub correct: usize,
    /// Instances scored as wrong.
    pub wrong: usize,
    /// Instances left out as unavailable.
    pub unavailable: usize,
    /// Instances whose judge's label is kept back while experts review it
    /// ([`Drilldown::hide_verdicts`]).
    #[serde(default)]
    pub hidden: usize,
}

/// What an instance counts as in the score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// Matches the gold (for DCG: a request was accepted).
    Correct,
    /// Does not match the gold (for DCG: no request was accepted).
    Wrong,
    /// Not labelled, so not scored; the run says why.
    Unavailable {
        /// The item's `unavailable` reason.
        reason: String,
    },
    /// The judge's label is under blind expert review and kept back until
    /// the item is final ([`Drilldown::hide_verdicts`]).
    Hidden,
}

impl Outcome {
    fn of(unavailable: Option<&str>, correct: bool) -> Self {
        match unavailable {
            Some(reason) => Self::Unavailable {
                reason: reason.to_owned(),
            },
            None if correct => Self::Correct,
            None => Self::Wrong,
        }
    }
}

/// One case and what each run did on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseDrill {
    /// The case.
    pub case_id: String,
    /// Its cause of action (Chinese name).
    pub cause: String,
    /// Its class.
    pub class: Class,
    /// The task's items, one per run in [`Drilldown::runs`] order.
    pub items: CaseItems,
}

/// A case's items for the cell's task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "task", rename_all = "snake_case")]
pub enum CaseItems {
    /// One row per consultation, complete first.
    Lca {
        /// The two consultations.
        consultations: Vec<LcaRow>,
    },
    /// The underspecified consultation's requests.
    Dcg {
        /// The key facts the consultation leaves out: what a request should ask for.
        missing_facts: Vec<String>,
        /// One per run.
        runs: Vec<Option<DcgCell>>,
    },
    /// One row per claim, then each run's reply.
    Ljp {
        /// The case's claims, in claim order.
        claims: Vec<ClaimRow>,
        /// One per run: the reply the verdicts were read from.
        replies: Vec<Option<LjpReply>>,
    },
}

/// One consultation of a case (LCA).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LcaRow {
    /// The consultation, which is the gold: `complete` wants `predict`,
    /// `underspecified` wants `ask`.
    pub gold: Consultation,
    /// One per run.
    pub runs: Vec<Option<LcaCell>>,
}

/// One run's item on one consultation (LCA).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LcaCell {
    /// The judge's label; `None` when unavailable.
    pub label: Option<LcaLabel>,
    /// Right, wrong or unavailable.
    pub outcome: Outcome,
    /// The model's reply.
    pub response: Option<String>,
}

/// One run's item on a case (DCG).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DcgCell {
    /// The requests with the judge's acceptance.
    pub requests: Vec<DcgRequest>,
    /// Correct when at least one request was accepted.
    pub outcome: Outcome,
}

/// One claim of a case (LJP).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimRow {
    /// The claim's id in the case.
    pub id: String,
    /// The claim as filed.
    pub text: String,
    /// The court's verdict.
    pub gold: Verdict,
    /// One per run.
    pub runs: Vec<Option<ClaimCell>>,
}

/// One run's prediction on one claim (LJP).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimCell {
    /// The predicted verdict; `None` when the item is unavailable.
    pub predicted: Option<Verdict>,
    /// Right, wrong or unavailable.
    pub outcome: Outcome,
}

/// One run's reply on a case (LJP).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LjpReply {
    /// Why the item could not be labelled, if so.
    pub unavailable: Option<String>,
    /// The model's final reply.
    pub response: Option<String>,
    /// The interaction dialogue, when the run kept it.
    pub dialogue: Option<Vec<Turn>>,
}

/// The items behind the cell (`task`, `setup` for LJP, `class` or overall) of
/// the entry whose runs are `runs`, over `dataset`, the cases the runs were
/// made on. `setup` is ignored unless `task` is LJP. See the
/// [module documentation](self) for the rules and an example.
pub fn drilldown(
    dataset: &[Case],
    runs: &[Run],
    task: Task,
    setup: LjpSetup,
    class: Option<Class>,
) -> Drilldown {
    let runs: Vec<&Run> = runs
        .iter()
        .filter(|run| match task {
            Task::Ljp => run.ljp.iter().any(|item| item.setup == setup),
            _ => run.has(task),
        })
        .collect();
    let cases: Vec<&Case> = dataset
        .iter()
        .filter(|case| class.is_none_or(|c| case.class == c))
        .collect();
    let cases: Vec<CaseDrill> = match task {
        Task::Lca => {
            let items = index(
                &runs,
                |run| run.lca.iter(),
                |i| (&*i.case_id, i.consultation),
            );
            cases
                .iter()
                .map(|case| {
                    let consultations = Consultation::ALL
                        .into_iter()
                        .map(|gold| LcaRow {
                            gold,
                            runs: items
                                .iter()
                                .map(|run| run.get(&(&*case.case_id, gold)).map(|i| lca_cell(i)))
                                .collect(),
                        })
                        .collect();
                    case_drill(case, CaseItems::Lca { consultations })
                })
                .collect()
        }
        Task::Dcg => {
            let items = index(&runs, |run| run.dcg.iter(), |i| &*i.case_id);
            cases
                .iter()
                .map(|case| {
                    let runs = items
                        .iter()
                        .map(|run| {
                            run.get(&*case.case_id).map(|i| DcgCell {
                                requests: i.requests.clone(),
                                outcome: Outcome::of(
                                    i.unavailable.as_deref(),
                                    i.hit() == Some(true),
                                ),
                            })
                        })
                        .collect();
                    let missing_facts = case.missing_key_facts().map(|k| k.text.clone()).collect();
                    case_drill(
                        case,
                        CaseItems::Dcg {
                            missing_facts,
                            runs,
                        },
                    )
                })
                .collect()
        }
        Task::Ljp => {
            let items = index(
                &runs,
                |run| run.ljp.iter().filter(|i| i.setup == setup),
                |i| &*i.case_id,
            );
            cases
                .iter()
                .map(|case| {
                    let found: Vec<Option<&LjpItem>> = items
                        .iter()
                        .map(|run| run.get(&*case.case_id).copied())
                        .collect();
                    let claims = case
                        .claims
                        .iter()
                        .enumerate()
                        .map(|(n, claim)| ClaimRow {
                            id: claim.id.clone(),
                            text: claim.text.clone(),
                            gold: claim.verdict,
                            runs: found
                                .iter()
                                .map(|item| claim_cell(case, (*item)?, n))
                                .collect(),
                        })
                        .collect();
                    let replies = found
                        .iter()
                        .map(|item| {
                            item.map(|i| LjpReply {
                                unavailable: i.unavailable.clone(),
                                response: i.response.clone(),
                                dialogue: i.dialogue.clone(),
                            })
                        })
                        .collect();
                    case_drill(case, CaseItems::Ljp { claims, replies })
                })
                .collect()
        }
    };
    let numbers: Vec<u32> = runs.iter().map(|run| run.header.run).collect();
    Drilldown {
        task,
        setup: (task == Task::Ljp).then_some(setup),
        class,
        runs: tallies(&numbers, &cases),
        confusion: (task == Task::Ljp).then(|| confusion(&cases)),
        cases,
    }
}

/// A judge verdict to keep back from a drill-down: the one of run `run` on
/// case `case_id`, for `target` (an LCA consultation, an LJP setup; `None`
/// for DCG), as a review item names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HiddenVerdict {
    /// The run number.
    pub run: u32,
    /// The case.
    pub case_id: String,
    /// The consultation (LCA) or setup (LJP); `None` for DCG.
    pub target: Option<String>,
}

impl Drilldown {
    /// Every text the page shows for the items: replies, requests and the
    /// turns of interaction dialogues, for marking citations in them.
    pub fn texts(&self) -> Vec<&str> {
        let mut out = Vec::new();
        for case in &self.cases {
            match &case.items {
                CaseItems::Lca { consultations } => out.extend(
                    consultations
                        .iter()
                        .flat_map(|row| row.runs.iter().flatten())
                        .filter_map(|cell| cell.response.as_deref()),
                ),
                CaseItems::Dcg { runs, .. } => out.extend(
                    runs.iter()
                        .flatten()
                        .flat_map(|cell| cell.requests.iter())
                        .filter_map(|r| r.text.as_deref()),
                ),
                CaseItems::Ljp { claims, replies } => {
                    out.extend(claims.iter().map(|c| c.text.as_str()));
                    for reply in replies.iter().flatten() {
                        out.extend(reply.response.as_deref());
                        out.extend(reply.dialogue.iter().flatten().map(|t| t.content.as_str()));
                    }
                }
            }
        }
        out
    }

    /// Keeps back the judge's labels of `hidden` (judge verdicts that experts
    /// are reviewing blind): their label, request decisions or predicted
    /// verdicts become `None` and their outcome [`Outcome::Hidden`], and the
    /// tallies and the confusion matrix are recounted without them, so that
    /// nothing on the page gives them away. Verdicts of other tasks, setups
    /// or runs, and of cases not in the cell, are ignored.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::lexpilot::dataset::parse_dataset;
    /// use engine::lexpilot::drilldown::{drilldown, CaseItems, HiddenVerdict, Outcome};
    /// use engine::lexpilot::run::{parse_run, Task};
    /// use engine::vocab::LjpSetup;
    ///
    /// let dataset = parse_dataset(
    ///     r#"{"case_id": "A", "cause": "离婚纠纷", "class": "family", "plaintiff_type": "natural", "claims": [{"id": "c1", "text": "判令离婚", "verdict": "supported"}], "focal_points": [], "key_facts": [], "missing_facts": [], "consultations": {"complete": [{"role": "user", "content": "甲"}], "underspecified": [{"role": "user", "content": "乙"}]}}"#,
    /// )
    /// .unwrap();
    /// let run = parse_run(
    ///     r#"{"kind": "run", "model": "M", "run": 1}
    /// {"kind": "lca", "case_id": "A", "consultation": "complete", "label": "predict"}
    /// {"kind": "lca", "case_id": "A", "consultation": "underspecified", "label": "predict"}
    /// "#,
    ///     &dataset,
    /// )
    /// .unwrap();
    /// let mut drill = drilldown(&dataset, &[run], Task::Lca, LjpSetup::Gold, None);
    /// drill.hide_verdicts(&[HiddenVerdict { run: 1, case_id: "A".into(), target: Some("underspecified".into()) }]);
    /// let CaseItems::Lca { consultations } = &drill.cases[0].items else { panic!() };
    /// let hidden = consultations[1].runs[0].as_ref().unwrap();
    /// assert_eq!((hidden.label, &hidden.outcome), (None, &Outcome::Hidden));
    /// assert_eq!((drill.runs[0].correct, drill.runs[0].wrong, drill.runs[0].hidden), (1, 0, 1));
    /// ```
    pub fn hide_verdicts(&mut self, hidden: &[HiddenVerdict]) {
        let numbers: Vec<u32> = self.runs.iter().map(|t| t.run).collect();
        let setup = self.setup.map(|s| s.as_str());
        for verdict in hidden {
            let Some(column) = numbers.iter().position(|&n| n == verdict.run) else {
                continue;
            };
            let target = verdict.target.as_deref();
            for case in self
                .cases
                .iter_mut()
                .filter(|c| c.case_id == verdict.case_id)
            {
                match &mut case.items {
                    CaseItems::Lca { consultations } => {
                        for row in consultations
                            .iter_mut()
                            .filter(|row| Some(row.gold.as_str()) == target)
                        {
                            if let Some(cell) = row.runs[column].as_mut() {
                                cell.label = None;
                                cell.outcome = Outcome::Hidden;
                            }
                        }
                    }
                    CaseItems::Dcg { runs, .. } => {
                        if let Some(cell) = runs[column].as_mut() {
                            for request in &mut cell.requests {
                                request.accepted = None;
                            }
                            cell.outcome = Outcome::Hidden;
                        }
                    }
                    CaseItems::Ljp { claims, .. } if target == setup => {
                        for row in claims.iter_mut() {
                            if let Some(cell) = row.runs[column].as_mut() {
                                cell.predicted = None;
                                cell.outcome = Outcome::Hidden;
                            }
                        }
                    }
                    CaseItems::Ljp { .. } => {}
                }
            }
        }
        self.runs = tallies(&numbers, &self.cases);
        if self.confusion.is_some() {
            self.confusion = Some(confusion(&self.cases));
        }
    }
}

/// Per run, the items `items` picks out of it, keyed by `key`.
fn index<'a, T: 'a, K: Eq + std::hash::Hash, I: Iterator<Item = &'a T>>(
    runs: &[&'a Run],
    items: impl Fn(&'a Run) -> I,
    key: impl Fn(&'a T) -> K,
) -> Vec<HashMap<K, &'a T>> {
    runs.iter()
        .map(|run| items(run).map(|i| (key(i), i)).collect())
        .collect()
}

fn case_drill(case: &Case, items: CaseItems) -> CaseDrill {
    CaseDrill {
        case_id: case.case_id.clone(),
        cause: case.cause.clone(),
        class: case.class,
        items,
    }
}

fn lca_cell(item: &LcaItem) -> LcaCell {
    let wanted = match item.consultation {
        Consultation::Complete => LcaLabel::Predict,
        Consultation::Underspecified => LcaLabel::Ask,
    };
    LcaCell {
        label: item.label,
        outcome: Outcome::of(item.unavailable.as_deref(), item.label == Some(wanted)),
        response: item.response.clone(),
    }
}

/// The prediction of `item` on claim `n` of `case`; `None` when a labelled
/// item's predictions do not line up with the claims (scoring skips those).
fn claim_cell(case: &Case, item: &LjpItem, n: usize) -> Option<ClaimCell> {
    if let Some(reason) = &item.unavailable {
        return Some(ClaimCell {
            predicted: None,
            outcome: Outcome::Unavailable {
                reason: reason.clone(),
            },
        });
    }
    let predictions = item.predictions.as_ref()?;
    if predictions.len() != case.claims.len() {
        return None;
    }
    let predicted = predictions[n];
    Some(ClaimCell {
        predicted: Some(predicted),
        outcome: Outcome::of(None, predicted == case.claims[n].verdict),
    })
}

/// The outcomes of the `run`-th column on `case`: one per instance of the task.
fn outcomes(case: &CaseDrill, run: usize) -> Vec<&Outcome> {
    match &case.items {
        CaseItems::Lca { consultations } => consultations
            .iter()
            .filter_map(|row| Some(&row.runs[run].as_ref()?.outcome))
            .collect(),
        CaseItems::Dcg { runs, .. } => runs[run].as_ref().map(|c| &c.outcome).into_iter().collect(),
        CaseItems::Ljp { claims, .. } => claims
            .iter()
            .filter_map(|row| Some(&row.runs[run].as_ref()?.outcome))
            .collect(),
    }
}

/// The tally of each column (run numbers `runs`, in column order).
fn tallies(runs: &[u32], cases: &[CaseDrill]) -> Vec<RunTally> {
    runs.iter()
        .enumerate()
        .map(|(n, &run)| {
            let mut tally = RunTally {
                run,
                correct: 0,
                wrong: 0,
                unavailable: 0,
                hidden: 0,
            };
            for outcome in cases.iter().flat_map(|case| outcomes(case, n)) {
                match outcome {
                    Outcome::Correct => tally.correct += 1,
                    Outcome::Wrong => tally.wrong += 1,
                    Outcome::Unavailable { .. } => tally.unavailable += 1,
                    Outcome::Hidden => tally.hidden += 1,
                }
            }
            tally
        })
        .collect()
}

/// Gold against predicted verdicts over every labelled claim of `cases`.
fn confusion(cases: &[CaseDrill]) -> [[u64; 3]; 3] {
    let (gold, predicted): (Vec<u8>, Vec<u8>) = cases
        .iter()
        .filter_map(|case| match &case.items {
            CaseItems::Ljp { claims, .. } => Some(claims),
            _ => None,
        })
        .flatten()
        .flat_map(|row| {
            row.runs
                .iter()
                .filter_map(|cell| cell.as_ref()?.predicted)
                .map(|p| (row.gold.code(), p.code()))
        })
        .unzip();
    let mut counts = [[0; 3]; 3];
    // Verdict codes are 0..3 and the slices are paired, so the matrix exists.
    if let Some(matrix) = ConfusionMatrix::from_labels(&gold, &predicted, Verdict::ALL.len()) {
        for (row, counted) in counts.iter_mut().zip(matrix.rows()) {
            row.copy_from_slice(counted);
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexpilot::dataset::parse_dataset;
    use crate::lexpilot::run::parse_run;
    use serde_json::{json, Value};

    /// One dataset line: a case of `cause` with the given gold verdicts.
    fn case_json(case_id: &str, cause: &str, class: &str, verdicts: &[&str]) -> Value {
        json!({
            "case_id": case_id,
            "cause": cause,
            "class": class,
            "plaintiff_type": "natural",
            "claims": verdicts
                .iter()
                .enumerate()
                .map(|(i, v)| json!({"id": format!("c{}", i + 1), "text": format!("诉请{}", i + 1), "verdict": v}))
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

    fn lines(values: &[Value]) -> String {
        values.iter().map(|v| format!("{v}\n")).collect()
    }

    /// A (family, supported + dismissed), B (tort, partially supported),
    /// C (family, dismissed).
    fn tiny_dataset() -> Vec<Case> {
        parse_dataset(&lines(&[
            case_json("A", "离婚纠纷", "family", &["supported", "dismissed"]),
            case_json("B", "名誉权纠纷", "tort", &["partially_supported"]),
            case_json("C", "离婚纠纷", "family", &["dismissed"]),
        ]))
        .expect("a valid dataset")
    }

    fn header(run: u32) -> Value {
        json!({"kind": "run", "model": "M", "family": "open", "run": run})
    }

    /// Run 1: every task. LCA predicts everywhere (so complete is right,
    /// underspecified wrong) except A/underspecified, which is unavailable.
    /// DCG: A hit, B missed, C unavailable. LJP gold: A [supported,
    /// partially], B [partially], C unavailable; LJP direct: all supported.
    fn run_one(dataset: &[Case]) -> Run {
        let mut v = vec![header(1)];
        for id in ["A", "B", "C"] {
            v.push(json!({"kind": "lca", "case_id": id, "consultation": "complete", "label": "predict", "response": format!("{id}：判决预测")}));
            if id == "A" {
                v.push(json!({"kind": "lca", "case_id": id, "consultation": "underspecified", "label": null, "unavailable": "judge timed out"}));
            } else {
                v.push(json!({"kind": "lca", "case_id": id, "consultation": "underspecified", "label": "predict", "response": "直接预测"}));
            }
        }
        v.push(json!({"kind": "dcg", "case_id": "A", "requests": [{"text": "请问有无借条？", "accepted": false}, {"text": "请问何时付款？", "accepted": true}]}));
        v.push(json!({"kind": "dcg", "case_id": "B", "requests": [{"text": "请问？", "accepted": false}]}));
        v.push(json!({"kind": "dcg", "case_id": "C", "unavailable": "no reply"}));
        v.push(json!({"kind": "ljp", "case_id": "A", "setup": "gold", "predictions": ["supported", "partially_supported"], "response": "第1项支持，第2项部分支持。"}));
        v.push(json!({"kind": "ljp", "case_id": "B", "setup": "gold", "predictions": ["partially_supported"]}));
        v.push(json!({"kind": "ljp", "case_id": "C", "setup": "gold", "predictions": null, "unavailable": "unparseable"}));
        for id in ["A", "B", "C"] {
            let n = dataset
                .iter()
                .find(|c| c.case_id == id)
                .map_or(0, |c| c.claims.len());
            v.push(json!({"kind": "ljp", "case_id": id, "setup": "direct", "predictions": vec!["supported"; n]}));
        }
        parse_run(&lines(&v), dataset).expect("a valid run")
    }

    /// Run 2: LJP gold only, every claim dismissed.
    fn run_two(dataset: &[Case]) -> Run {
        let mut v = vec![header(2)];
        for case in dataset {
            let predictions = vec!["dismissed"; case.claims.len()];
            v.push(json!({"kind": "ljp", "case_id": case.case_id, "setup": "gold", "predictions": predictions, "response": "全部驳回"}));
        }
        parse_run(&lines(&v), dataset).expect("a valid run")
    }

    fn ids(drill: &Drilldown) -> Vec<&str> {
        drill.cases.iter().map(|c| c.case_id.as_str()).collect()
    }

    #[test]
    fn lca_marks_each_consultation_against_its_gold() {
        let dataset = tiny_dataset();
        let runs = [run_one(&dataset), run_two(&dataset)];
        let drill = drilldown(
            &dataset,
            &runs,
            Task::Lca,
            LjpSetup::Gold,
            Some(Class::Family),
        );
        assert_eq!(ids(&drill), ["A", "C"]);
        assert_eq!(drill.setup, None);
        assert_eq!(drill.confusion, None);
        // Run 2 has no LCA, so it is no column.
        assert_eq!(
            drill.runs,
            [RunTally {
                run: 1,
                correct: 2,
                wrong: 1,
                unavailable: 1,
                hidden: 0
            }]
        );
        let CaseItems::Lca { consultations } = &drill.cases[0].items else {
            panic!("LCA items")
        };
        assert_eq!(consultations[0].gold, Consultation::Complete);
        let complete = consultations[0].runs[0].as_ref().expect("an item");
        assert_eq!(complete.label, Some(LcaLabel::Predict));
        assert_eq!(complete.outcome, Outcome::Correct);
        assert_eq!(complete.response.as_deref(), Some("A：判决预测"));
        let underspecified = consultations[1].runs[0].as_ref().expect("an item");
        assert_eq!(underspecified.label, None);
        assert_eq!(
            underspecified.outcome,
            Outcome::Unavailable {
                reason: "judge timed out".into()
            }
        );
        let CaseItems::Lca { consultations } = &drill.cases[1].items else {
            panic!("LCA items")
        };
        assert_eq!(
            consultations[1].runs[0].as_ref().map(|c| &c.outcome),
            Some(&Outcome::Wrong)
        );
    }

    #[test]
    fn dcg_shows_requests_and_hits() {
        let dataset = tiny_dataset();
        let drill = drilldown(
            &dataset,
            &[run_one(&dataset)],
            Task::Dcg,
            LjpSetup::Gold,
            None,
        );
        assert_eq!(ids(&drill), ["A", "B", "C"]);
        let outcome = |case: usize| match &drill.cases[case].items {
            CaseItems::Dcg { runs, .. } => runs[0].as_ref().map(|c| c.outcome.clone()),
            _ => None,
        };
        assert_eq!(outcome(0), Some(Outcome::Correct));
        assert_eq!(outcome(1), Some(Outcome::Wrong));
        assert_eq!(
            outcome(2),
            Some(Outcome::Unavailable {
                reason: "no reply".into()
            })
        );
        let CaseItems::Dcg {
            missing_facts,
            runs,
        } = &drill.cases[0].items
        else {
            panic!("DCG items")
        };
        assert_eq!(missing_facts, &["关键事实"]);
        let requests = &runs[0].as_ref().expect("an item").requests;
        assert_eq!(requests[1].text.as_deref(), Some("请问何时付款？"));
        assert_eq!(requests[1].accepted, Some(true));
        assert_eq!(
            (
                drill.runs[0].correct,
                drill.runs[0].wrong,
                drill.runs[0].unavailable
            ),
            (1, 1, 1)
        );
    }

    #[test]
    fn ljp_compares_each_claim_and_sums_the_confusion_matrix_over_runs() {
        let dataset = tiny_dataset();
        let runs = [run_one(&dataset), run_two(&dataset)];
        let drill = drilldown(
            &dataset,
            &runs,
            Task::Ljp,
            LjpSetup::Gold,
            Some(Class::Family),
        );
        assert_eq!(drill.setup, Some(LjpSetup::Gold));
        assert_eq!(ids(&drill), ["A", "C"]);
        assert_eq!(drill.runs.iter().map(|t| t.run).collect::<Vec<_>>(), [1, 2]);
        // Run 1: A c1 right, A c2 wrong, C unavailable. Run 2: A c1 wrong, A c2 and C right.
        assert_eq!(
            (
                drill.runs[0].correct,
                drill.runs[0].wrong,
                drill.runs[0].unavailable
            ),
            (1, 1, 1)
        );
        assert_eq!(
            (
                drill.runs[1].correct,
                drill.runs[1].wrong,
                drill.runs[1].unavailable
            ),
            (2, 1, 0)
        );
        // Rows gold (supported, partially, dismissed), columns predicted.
        assert_eq!(drill.confusion, Some([[1, 0, 1], [0, 0, 0], [0, 1, 2]]));

        let CaseItems::Ljp { claims, replies } = &drill.cases[0].items else {
            panic!("LJP items")
        };
        assert_eq!(claims.len(), 2);
        assert_eq!(
            (claims[1].id.as_str(), claims[1].text.as_str()),
            ("c2", "诉请2")
        );
        assert_eq!(claims[1].gold, Verdict::Dismissed);
        let cell = |row: &ClaimRow, run: usize| row.runs[run].clone().expect("a cell");
        assert_eq!(
            cell(&claims[1], 0),
            ClaimCell {
                predicted: Some(Verdict::PartiallySupported),
                outcome: Outcome::Wrong
            }
        );
        assert_eq!(cell(&claims[1], 1).outcome, Outcome::Correct);
        assert_eq!(
            replies[0].as_ref().and_then(|r| r.response.as_deref()),
            Some("第1项支持，第2项部分支持。")
        );
        let CaseItems::Ljp { claims, replies } = &drill.cases[1].items else {
            panic!("LJP items")
        };
        assert_eq!(
            cell(&claims[0], 0),
            ClaimCell {
                predicted: None,
                outcome: Outcome::Unavailable {
                    reason: "unparseable".into()
                }
            }
        );
        assert_eq!(
            replies[0].as_ref().and_then(|r| r.unavailable.as_deref()),
            Some("unparseable")
        );
    }

    #[test]
    fn ljp_takes_only_the_setup_asked_for() {
        let dataset = tiny_dataset();
        let runs = [run_one(&dataset), run_two(&dataset)];
        let drill = drilldown(&dataset, &runs, Task::Ljp, LjpSetup::Direct, None);
        assert_eq!(drill.runs.len(), 1, "run 2 has no direct setup");
        // Every claim predicted supported: the first column holds all four.
        assert_eq!(drill.confusion, Some([[1, 0, 0], [1, 0, 0], [2, 0, 0]]));
        let none = drilldown(&dataset, &runs, Task::Ljp, LjpSetup::Interaction, None);
        assert!(none.runs.is_empty());
        assert_eq!(none.confusion, Some([[0; 3]; 3]));
        assert_eq!(none.cases.len(), 3, "the cases are listed even with no run");
    }

    #[test]
    fn items_missing_from_a_hand_built_run_are_none() {
        let dataset = tiny_dataset();
        let mut run = run_one(&dataset);
        run.dcg.retain(|i| i.case_id != "B");
        run.ljp
            .iter_mut()
            .filter(|i| i.case_id == "B")
            .for_each(|i| i.predictions = Some(vec![]));
        let dcg = drilldown(
            &dataset,
            std::slice::from_ref(&run),
            Task::Dcg,
            LjpSetup::Gold,
            Some(Class::Tort),
        );
        assert!(matches!(&dcg.cases[0].items, CaseItems::Dcg { runs, .. } if runs[0].is_none()));
        let ljp = drilldown(
            &dataset,
            &[run],
            Task::Ljp,
            LjpSetup::Gold,
            Some(Class::Tort),
        );
        assert!(
            matches!(&ljp.cases[0].items, CaseItems::Ljp { claims, .. } if claims[0].runs[0].is_none())
        );
        assert_eq!(ljp.confusion, Some([[0; 3]; 3]));
    }

    #[test]
    fn every_leaderboard_column_names_a_cell() {
        let lca = View::from_query(Some("lca".into()), None, None);
        for column in ["overall", "acc_complete", "acc_underspecified"] {
            let cell = Cell::of_column(&lca, column);
            assert_eq!((cell.task, cell.class), (Task::Lca, None), "{column}");
        }
        assert_eq!(Cell::of_column(&lca, "misc").class, Some(Class::Misc));
        let ljp = View::from_query(Some("ljp".into()), Some("gold".into()), None);
        let degradation = Cell::of_column(&ljp, "relative_degradation");
        assert_eq!(
            (degradation.setup, degradation.class),
            (LjpSetup::Interaction, None)
        );
        assert_eq!(
            Cell::of_column(&ljp, "overall_direct").setup,
            LjpSetup::Direct
        );
        assert_eq!(Cell::of_column(&ljp, "family").setup, LjpSetup::Gold);
    }

    #[test]
    fn the_query_names_what_is_wrong() {
        let err = |t, s, c| Cell::from_query(t, s, c).unwrap_err();
        assert_eq!(
            err(Some("ljpp"), None, None),
            "unknown task \"ljpp\"; expected one of lca, dcg, ljp"
        );
        assert!(err(Some("ljp"), Some("golden"), None).contains("direct, interaction, gold"));
        // A setup is only read for LJP.
        assert!(Cell::from_query(Some("lca"), Some("golden"), None).is_ok());
        assert!(err(Some("lca"), None, Some("")).starts_with("unknown class \"\""));
    }

    #[test]
    fn the_drilldown_round_trips_through_json() {
        let dataset = tiny_dataset();
        let drill = drilldown(
            &dataset,
            &[run_one(&dataset)],
            Task::Ljp,
            LjpSetup::Gold,
            None,
        );
        let json = serde_json::to_value(&drill).expect("serialises");
        assert_eq!(json["cases"][0]["items"]["task"], "ljp");
        assert_eq!(
            json["cases"][2]["items"]["claims"][0]["runs"][0]["outcome"]["status"],
            "unavailable"
        );
        let back: Drilldown = serde_json::from_value(json).expect("deserialises");
        assert_eq!(back, drill);
    }
}
