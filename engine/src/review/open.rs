//! Public figures while judge decisions are under blind review: the rule
//! is on [`OpenDecision`].

use serde::{Deserialize, Serialize};

use crate::lexpilot::run::Task;

/// A judge decision of one run that is open for blind review, named as its
/// review item names it.
///
/// A decision that a review item holds open (drawn for review, no
/// final label yet) is **left out of every figure anyone but a review
/// manager sees**, as if its run had never contained it: the run is scored
/// again without it ([`crate::benchmark::Suite::withhold`], then
/// [`crate::benchmark::Suite::score`]) and every aggregate (score documents,
/// leaderboards and their views, exports, charts, intervals, comparisons)
/// is built from those scores. A public figure is then a function of the
/// visible decisions alone: "entry mean × n minus every visible item"
/// recovers nothing, at any precision. A decision is what its review item
/// names:
///
/// - LexPilot: a (case, consultation) LCA item, a case's DCG item, a
///   (case, setup) LJP item ([`crate::review::judge_decisions`]);
/// - PLawBench: one judged item of a run
///   ([`crate::plawbench::review::judge_decisions`]);
/// - DLawBench: one (case, style) session, every value of its panel
///   ([`crate::dlawbench::review::judge_decisions`]).
///
/// Once the item is final the decision counts again. With nothing open the
/// figures are exactly those of the kept scores.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct OpenDecision {
    /// The case (LexPilot, DLawBench) or item (PLawBench).
    pub case_id: String,
    /// LexPilot's task; `None` for the other benchmarks.
    pub task: Option<Task>,
    /// LexPilot's consultation (LCA) or setup (LJP), `None` for DCG;
    /// PLawBench's task; DLawBench's style.
    pub target: Option<String>,
}

impl OpenDecision {
    /// Whether this names the decision of `task` on `case_id` with `target`.
    ///
    /// ```
    /// use engine::lexpilot::run::Task;
    /// use engine::review::OpenDecision;
    ///
    /// let open = OpenDecision { case_id: "A".into(), task: Some(Task::Lca), target: Some("complete".into()) };
    /// assert!(open.names(Some(Task::Lca), "A", Some("complete")));
    /// assert!(!open.names(Some(Task::Lca), "A", Some("underspecified")));
    /// assert!(!open.names(Some(Task::Ljp), "A", Some("complete")));
    /// ```
    pub fn names(&self, task: Option<Task>, case_id: &str, target: Option<&str>) -> bool {
        self.task == task && self.case_id == case_id && self.target.as_deref() == target
    }
}
