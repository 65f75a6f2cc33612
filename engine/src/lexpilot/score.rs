//! The scores of `docs/formats.md` §4 for runs, and the score document of §5
//! for leaderboard entries.
//!
//! - [`score_run`]: one run's [`RunScores`]: for each task (and LJP setup) it
//!   contains, the scores over all cases pooled and over each class's cases,
//!   and how many items were unavailable.
//! - [`score_entries`]: groups runs into leaderboard entries and summarises
//!   each score over an entry's runs as mean and sample std; the
//!   [`ScoreDocument`] serialises with serde_json to exactly the §5 JSON.
//!   [`summarise_entry`] does the same for one entry's stored run scores.
//! - [`score_ci`]: a bootstrap confidence interval of one [`Metric`] of a run,
//!   resampling cases.
//!
//! The numbers themselves come from [`crate::metrics`] (F1, recall, accuracy,
//! QWK, mean and std, bootstrap); this module only decides what is pooled with
//! what. Depends on [`crate::lexpilot::dataset`], [`crate::lexpilot::run`], [`crate::metrics`] and
//! [`crate::vocab`].
//!
//! # Decisions the contract leaves open
//!
//! - **Runs and the dataset.** Runs are scored against the dataset they were
//!   parsed with ([`crate::lexpilot::run::parse_run`]). An item naming no case of the
//!   dataset, or LJP predictions whose length is not the case's claim count,
//!   cannot occur in a parsed run; if a hand-built run has them, they are
//!   ignored rather than panicking.
//! - **Unavailable items** are left out of every metric and counted in
//!   [`RunScores::unavailable`]. A set whose items are all unavailable has no
//!   score for that run (`None`).
//! - **Entries.** [`crate::lexpilot::entries::group_runs`] decides which runs
//!   form one entry: runs of one model that agree on the dataset, the judge,
//!   the user model where they use one and, task by task, the prompts, even
//!   when each contains other tasks or LJP setups. Entries, and runs within
//!   them, keep the order in which their first run appears in the input.
//!   Duplicate runs (same model and run number) are the storage layer's to
//!   reject; here every run given is counted.
//! - **Means over runs.** A score's mean and std are over the runs of the entry
//!   that have a value for it: runs without the task or setup, and runs where
//!   it is undefined (say a QWK whose instances share one verdict), are left
//!   out; the std is null when one run remains and the whole score is null when
//!   none does. `runs` counts every run of the entry.
//! - **Table 3 across runs.** `gain` and `relative_degradation` compare the
//!   entry's mean QWKs of the setups (§4), never QWKs paired within a run: an
//!   entry whose Direct, Interaction-Based and Gold-Standard LJP come from
//!   three separate runs has them as every other entry does. Where every run
//!   has both setups, the gain is also the mean of the runs' own gains (a
//!   mean is linear); the relative degradation, a ratio, is of the means.
//! - **Absent and null.** A task (or LJP setup) that no run of the entry
//!   contains is absent. For LCA and DCG a class with no case in the dataset is
//!   null; for LJP such a class keeps one key per setup, each null, and has no
//!   `gain` and `relative_degradation` (as in the contract example). Otherwise
//!   `gain` and `relative_degradation` are always present, null when an
//!   input mean is missing or null, or (for the degradation) when the gold mean
//!   is 0.
//! - **The `dataset` key** of §5 is written only when the caller names the
//!   dataset ([`ScoreDocument::with_dataset`]): run headers may disagree on it.
//!
//! # Example
//!
//! ```
//! use engine::lexpilot::dataset::parse_dataset;
//! use engine::lexpilot::run::parse_run;
//! use engine::lexpilot::score::{score_entries, score_run, Metric};
//! use engine::vocab::Class;
//!
//! let case = |id: &str, verdict: &str| {
//!     format!(
//!         r#"{{"case_id": "{id}", "cause": "离婚纠纷", "class": "family",
//!         "plaintiff_type": "natural",
//!         "claims": [{{"id": "c1", "text": "判令离婚", "verdict": "{verdict}"}}],
//!         "focal_points": [], "key_facts": [], "missing_facts": [],
//!         "consultations": {{"complete": [{{"role": "user", "content": "我要离婚。"}}],
//!         "underspecified": [{{"role": "user", "content": "能离婚吗？"}}]}}}}"#
//!     )
//!     .replace('\n', " ")
//! };
//! let dataset = parse_dataset(&(case("A", "supported") + "\n" + &case("B", "dismissed"))).unwrap();
//!
//! let run = parse_run(
//!     r#"{"kind": "run", "model": "M", "family": "open", "run": 1}
//! {"kind": "dcg", "case_id": "A", "requests": [{"accepted": false}, {"accepted": true}]}
//! {"kind": "dcg", "case_id": "B", "requests": [], "unavailable": "no reply"}
//! {"kind": "ljp", "case_id": "A", "setup": "gold", "predictions": ["supported"]}
//! {"kind": "ljp", "case_id": "B", "setup": "gold", "predictions": ["dismissed"]}
//! "#,
//!     &dataset,
//! )
//! .unwrap();
//!
//! let scores = score_run(&run, &dataset);
//! assert_eq!(scores.metric(Metric::DcgAccuracy, None), Some(1.0)); // B is not scored
//! assert_eq!(scores.unavailable.dcg, 1);
//! assert_eq!(scores.metric(Metric::LjpQwk(engine::vocab::LjpSetup::Gold), Some(Class::Family)), Some(1.0));
//! assert_eq!(scores.metric(Metric::LcaMacroF1, None), None); // no LCA in this run
//!
//! let json = serde_json::to_value(score_entries(&[run], &dataset).with_dataset("demo")).unwrap();
//! assert_eq!(json["dataset"], "demo");
//! assert_eq!(json["entries"][0]["dcg"]["overall"]["accuracy"]["mean"], 1.0);
//! assert!(json["entries"][0]["dcg"]["by_class"]["tort"].is_null());
//! assert!(json["entries"][0].get("lca").is_none());
//! assert!(json["entries"][0]["ljp"]["overall"]["gain"].is_null());
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Deserializer, Serialize};

use crate::core::entry::{EntryKey, Family};
use crate::lexpilot::dataset::Case;
use crate::lexpilot::entries::Entry;
use crate::lexpilot::run::{Part, Run, Task, UnavailableCounts};
use crate::metrics::{
    accuracy, bootstrap_ci, lca_scores, mean_std, paired_bootstrap, quadratic_weighted_kappa,
    weighted_kappa, ClassCounts, ConfusionMatrix, KappaWeights, LcaScores, MeanStd,
    PairedBootstrap,
};
use crate::vocab::{Class, Consultation, LcaLabel, LjpSetup, Verdict};

/// A score over all cases pooled (`overall`) and over the cases of each of the
/// six classes (`by_class`, every class present, in [`Class::ALL`] order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Breakdown<T> {
    /// Over every case of the dataset, pooled (never a mean of classes).
    pub overall: T,
    /// Over the cases of each class.
    pub by_class: BTreeMap<Class, T>,
}

impl<T> Breakdown<T> {
    /// The score over all cases (`None`) or over one class's cases.
    pub fn get(&self, class: Option<Class>) -> Option<&T> {
        match class {
            None => Some(&self.overall),
            Some(class) => self.by_class.get(&class),
        }
    }

    fn build(mut score: impl FnMut(Option<Class>) -> T) -> Self {
        Self {
            overall: score(None),
            by_class: Class::ALL
                .into_iter()
                .map(|c| (c, score(Some(c))))
                .collect(),
        }
    }
}

/// DCG of one run over a set of cases.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DcgScores {
    /// The share of cases with at least one accepted request.
    pub accuracy: f64,
    /// The cases scored (unavailable items left out).
    pub cases: usize,
}

/// LJP of one run in one setup over a set of cases.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LjpScores {
    /// Quadratic weighted kappa pooled over claims; `None` when the expected
    /// disagreement is 0.
    pub qwk: Option<f64>,
    /// The claims scored (unavailable items left out).
    pub claims: usize,
}

/// One run's scores. A set of cases with nothing scored in it (a class with
/// no case, or whose items are all unavailable) is `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunScores {
    /// LCA, when the run contains it.
    pub lca: Option<Breakdown<Option<LcaScores>>>,
    /// DCG, when the run contains it.
    pub dcg: Option<Breakdown<Option<DcgScores>>>,
    /// LJP, for each setup the run contains.
    pub ljp: BTreeMap<LjpSetup, Breakdown<Option<LjpScores>>>,
    /// Items left out as unavailable, per task.
    pub unavailable: UnavailableCounts,
}

/// One number of a run's scores, to pick it out of [`RunScores`] or to
/// bootstrap it ([`score_ci`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// LCA Macro-F1 over `complete` and `underspecified`.
    LcaMacroF1,
    /// LCA recall of `complete` (Acc_C).
    LcaAccComplete,
    /// LCA recall of `underspecified` (Acc_U).
    LcaAccUnderspecified,
    /// DCG accuracy.
    DcgAccuracy,
    /// LJP quadratic weighted kappa in one setup.
    LjpQwk(LjpSetup),
}

impl Metric {
    /// Every metric, in the order tables list them.
    pub const ALL: [Metric; 7] = [
        Self::LcaMacroF1,
        Self::LcaAccComplete,
        Self::LcaAccUnderspecified,
        Self::DcgAccuracy,
        Self::LjpQwk(LjpSetup::Direct),
        Self::LjpQwk(LjpSetup::Interaction),
        Self::LjpQwk(LjpSetup::Gold),
    ];

    /// A short English label, as the paper's tables name the score.
    ///
    /// ```
    /// use engine::lexpilot::score::Metric;
    /// use engine::vocab::LjpSetup;
    /// assert_eq!(Metric::LjpQwk(LjpSetup::Gold).label(), "LJP QWK (gold)");
    /// ```
    pub fn label(self) -> String {
        match self {
            Self::LcaMacroF1 => "LCA Macro-F1".into(),
            Self::LcaAccComplete => "LCA Acc_C".into(),
            Self::LcaAccUnderspecified => "LCA Acc_U".into(),
            Self::DcgAccuracy => "DCG accuracy".into(),
            Self::LjpQwk(setup) => format!("LJP QWK ({})", setup.as_str()),
        }
    }

    /// The label in `lang`, with the LJP setup named in words
    /// (`LJP QWK (Gold-Standard)`, `LJP QWK（交互预测）`).
    ///
    /// ```
    /// use engine::lang::Lang;
    /// use engine::lexpilot::score::Metric;
    /// use engine::vocab::LjpSetup;
    /// assert_eq!(Metric::LjpQwk(LjpSetup::Gold).label_in(Lang::En), "LJP QWK (Gold-Standard)");
    /// assert_eq!(Metric::DcgAccuracy.label_in(Lang::Zh), "DCG 准确率");
    /// ```
    pub fn label_in(self, lang: crate::lang::Lang) -> String {
        use crate::lang::Lang;
        match (self, lang) {
            (Self::DcgAccuracy, Lang::Zh) => "DCG 准确率".into(),
            (Self::LjpQwk(setup), Lang::Zh) => format!("LJP QWK（{}）", setup.label_zh()),
            (Self::LjpQwk(setup), Lang::En) => format!("LJP QWK ({})", setup.label_en()),
            _ => self.label(),
        }
    }

    /// The task the metric scores.
    pub fn task(self) -> Task {
        match self {
            Self::LcaMacroF1 | Self::LcaAccComplete | Self::LcaAccUnderspecified => Task::Lca,
            Self::DcgAccuracy => Task::Dcg,
            Self::LjpQwk(_) => Task::Ljp,
        }
    }

    fn of_lca(self, s: &LcaScores) -> Option<f64> {
        match self {
            Self::LcaMacroF1 => Some(s.macro_f1),
            Self::LcaAccComplete => s.acc_complete,
            Self::LcaAccUnderspecified => s.acc_underspecified,
            Self::DcgAccuracy | Self::LjpQwk(_) => None,
        }
    }
}

impl RunScores {
    /// The parts of the run scored: its tasks, LJP by setup.
    pub fn parts(&self) -> BTreeSet<Part> {
        let lca = self.lca.as_ref().map(|_| Part::Lca);
        let dcg = self.dcg.as_ref().map(|_| Part::Dcg);
        lca.into_iter()
            .chain(dcg)
            .chain(self.ljp.keys().map(|&setup| Part::Ljp(setup)))
            .collect()
    }

    /// The value of `metric` over all cases (`class` `None`) or one class;
    /// `None` when the run lacks the task or setup, or the value is undefined.
    pub fn metric(&self, metric: Metric, class: Option<Class>) -> Option<f64> {
        match metric {
            Metric::LcaMacroF1 | Metric::LcaAccComplete | Metric::LcaAccUnderspecified => {
                metric.of_lca(self.lca.as_ref()?.get(class)?.as_ref()?)
            }
            Metric::DcgAccuracy => Some(self.dcg.as_ref()?.get(class)?.as_ref()?.accuracy),
            Metric::LjpQwk(setup) => self.ljp.get(&setup)?.get(class)?.as_ref()?.qwk,
        }
    }
}

/// Scores one run over the dataset it was made on (§4): for each task and LJP
/// setup the run contains, over all cases pooled and over each class.
///
/// - LCA: every labelled (case, consultation) is an instance; truth is its
///   consultation, the prediction `complete` for `predict` and
///   `underspecified` for `ask` ([`lca_scores`]).
/// - DCG: the share of cases with at least one accepted request ([`accuracy`]).
/// - LJP: QWK over the three verdicts, pooled over the claims of the cases
///   ([`quadratic_weighted_kappa`]).
///
/// See the [module documentation](self) for an example.
pub fn score_run(run: &Run, dataset: &[Case]) -> RunScores {
    let instances = Instances::new(run, dataset);
    let cases = |class| cases_of(dataset, class);
    RunScores {
        lca: run
            .has(Task::Lca)
            .then(|| Breakdown::build(|class| instances.lca(&cases(class)))),
        dcg: run
            .has(Task::Dcg)
            .then(|| Breakdown::build(|class| instances.dcg(&cases(class)))),
        ljp: run
            .ljp_setups()
            .into_iter()
            .map(|setup| {
                let scores = Breakdown::build(|class| instances.ljp(setup, &cases(class)));
                (setup, scores)
            })
            .collect(),
        unavailable: run.unavailable(),
    }
}

/// The score document of §5.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreDocument {
    /// The dataset's name, written only when given ([`ScoreDocument::with_dataset`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// The number of cases in the dataset.
    pub cases: usize,
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

/// One leaderboard entry: the runs of one model in one setting, summarised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryScores {
    /// The evaluated model.
    pub model: String,
    /// The model's group.
    pub family: Option<Family>,
    /// How many runs the entry has.
    pub runs: usize,
    /// LCA; absent when no run contains it. A class without cases is null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lca: Option<Breakdown<Option<LcaSummary>>>,
    /// DCG; absent when no run contains it. A class without cases is null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dcg: Option<Breakdown<Option<DcgSummary>>>,
    /// LJP; absent when no run contains it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ljp: Option<Breakdown<LjpSummary>>,
    /// Items left out as unavailable, summed over the entry's runs and tasks
    /// (for flagging the entry; §5 does not write it).
    #[serde(skip)]
    pub unavailable: usize,
    /// Everything that sets the entry apart (judge, user model, …), which §5
    /// does not write.
    #[serde(skip)]
    pub key: EntryKey,
}

/// LCA of an entry over a set of cases.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LcaSummary {
    /// Macro-F1 over the runs.
    pub macro_f1: Option<MeanStd>,
    /// Acc_C over the runs.
    pub acc_complete: Option<MeanStd>,
    /// Acc_U over the runs.
    pub acc_underspecified: Option<MeanStd>,
}

/// DCG of an entry over a set of cases.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DcgSummary {
    /// Accuracy over the runs.
    pub accuracy: Option<MeanStd>,
}

/// LJP of an entry in one setup over a set of cases.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SetupSummary {
    /// QWK over the runs.
    pub qwk: Option<MeanStd>,
}

/// LJP of an entry over a set of cases: each setup its runs contain (null for
/// a class without cases), and the comparisons of the setups' mean QWKs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LjpSummary {
    /// One key per setup the entry's runs contain.
    #[serde(flatten)]
    pub setups: BTreeMap<LjpSetup, Option<SetupSummary>>,
    /// mean QWK(interaction) − mean QWK(direct). Absent (`None`) for a class
    /// without cases, null (`Some(None)`) when undefined.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub gain: Option<Option<f64>>,
    /// (mean QWK(gold) − mean QWK(interaction)) / mean QWK(gold). Absent and
    /// null as `gain`; also null when the gold mean is 0.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub relative_degradation: Option<Option<f64>>,
}

impl LjpSummary {
    /// The summary of these setups' QWKs over a set of cases that has some:
    /// Table 3's gain and relative degradation from their means.
    ///
    /// ```
    /// use engine::lexpilot::score::LjpSummary;
    /// use engine::metrics::MeanStd;
    /// use engine::vocab::LjpSetup;
    ///
    /// let qwk = |mean| Some(MeanStd { mean, std: None });
    /// let ljp = LjpSummary::of_setups(
    ///     [(LjpSetup::Direct, qwk(0.4)), (LjpSetup::Interaction, qwk(0.5)), (LjpSetup::Gold, qwk(0.8))].into(),
    /// );
    /// assert!((ljp.gain.flatten().unwrap() - 0.1).abs() < 1e-12);
    /// assert!((ljp.relative_degradation.flatten().unwrap() - 0.375).abs() < 1e-12);
    /// ```
    pub fn of_setups(qwk: BTreeMap<LjpSetup, Option<MeanStd>>) -> Self {
        let mean = |setup| qwk.get(&setup).copied().flatten().map(|s| s.mean);
        let gain = mean(LjpSetup::Interaction)
            .zip(mean(LjpSetup::Direct))
            .map(|(interaction, direct)| interaction - direct);
        let relative_degradation = mean(LjpSetup::Gold)
            .zip(mean(LjpSetup::Interaction))
            .filter(|&(gold, _)| gold != 0.0)
            .map(|(gold, interaction)| (gold - interaction) / gold);
        LjpSummary {
            setups: qwk
                .iter()
                .map(|(&s, &qwk)| (s, Some(SetupSummary { qwk })))
                .collect(),
            gain: Some(gain),
            relative_degradation: Some(relative_degradation),
        }
    }
}

/// A key that is present, possibly null (absent keys take the `default`).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<f64>>, D::Error> {
    Option::<f64>::deserialize(d).map(Some)
}

/// Groups runs into leaderboard entries and summarises each (§3, §5); see the
/// [module documentation](self) for the rules and an example.
pub fn score_entries(runs: &[Run], dataset: &[Case]) -> ScoreDocument {
    let scored: Vec<_> = runs
        .iter()
        .map(|run| (run.header.entry_key(), score_run(run, dataset)))
        .collect();
    summarise_runs(scored, dataset)
}

/// Like [`score_entries`], for runs already scored (say, scores kept beside
/// stored runs): groups them into entries
/// ([`group_runs`](crate::lexpilot::entries::group_runs)) in order of first
/// appearance and summarises each.
pub fn summarise_runs(
    runs: impl IntoIterator<Item = (EntryKey, RunScores)>,
    dataset: &[Case],
) -> ScoreDocument {
    <crate::lexpilot::LexPilot as crate::benchmark::Suite>::summarise(
        runs.into_iter().collect(),
        dataset,
    )
}

/// The score document of entries already summarised ([`summarise_entry`]),
/// in the order given.
pub fn document(entries: Vec<EntryScores>, dataset: &[Case]) -> ScoreDocument {
    ScoreDocument {
        dataset: None,
        cases: dataset.len(),
        entries,
    }
}

/// The score document of `entries`, grouped
/// ([`group_runs`](crate::lexpilot::entries::group_runs)) from runs whose
/// scores are `runs`, in the same order: for a caller that keeps which runs
/// each entry has.
pub fn summarise_entries(
    entries: Vec<Entry>,
    runs: &[RunScores],
    dataset: &[Case],
) -> ScoreDocument {
    let entries = entries
        .into_iter()
        .map(|entry| {
            let scores: Vec<RunScores> = entry
                .runs
                .iter()
                .filter_map(|&i| runs.get(i).cloned())
                .collect();
            summarise_entry(entry.key, &scores, dataset)
        })
        .collect();
    document(entries, dataset)
}

/// Summarises the scores of one entry's runs (from [`score_run`]) over the
/// dataset they were made on, as [`score_entries`] does for each entry.
///
/// Each score is over the runs that contain its task or setup, so runs that
/// each contain only some of them make one entry as well as runs of every
/// task do; Table 3's `gain` and `relative_degradation` compare the setups'
/// means over the entry's runs, whichever runs these are (see the
/// [module documentation](self)).
///
/// # Examples
///
/// Direct, Interaction-Based and Gold-Standard LJP of one model, each made by
/// a job of its own (so in runs 1, 2 and 3): the gain is the interaction
/// run's QWK less the direct run's.
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::lexpilot::run::parse_run;
/// use engine::lexpilot::score::{score_entries, score_run, Metric};
/// use engine::vocab::LjpSetup::{self, Direct, Gold, Interaction};
///
/// let case = |id: &str, verdict: &str| format!(r#"{{"case_id": "{id}", "cause": "离婚纠纷", "class": "family",
///   "plaintiff_type": "natural", "claims": [{{"id": "c1", "text": "判令离婚", "verdict": "{verdict}"}}],
///   "focal_points": [], "key_facts": [], "missing_facts": [],
///   "consultations": {{"complete": [{{"role": "user", "content": "甲"}}],
///                      "underspecified": [{{"role": "user", "content": "乙"}}]}}}}"#).replace('\n', " ");
/// let truth = ["supported", "partially_supported", "dismissed", "dismissed"];
/// let ids = ["A", "B", "C", "D"];
/// let dataset = parse_dataset(&ids.iter().zip(truth).map(|(id, v)| case(id, v)).collect::<Vec<_>>().join("\n")).unwrap();
/// let run = |n: u32, setup: LjpSetup, predicted: [&str; 4]| {
///     let mut text = format!(r#"{{"kind": "run", "model": "M", "run": {n}}}"#);
///     for (id, p) in ids.iter().zip(predicted) {
///         text += &format!("\n{{\"kind\": \"ljp\", \"case_id\": \"{id}\", \"setup\": \"{setup}\", \"predictions\": [\"{p}\"]}}");
///     }
///     parse_run(&text, &dataset).unwrap()
/// };
/// let runs = [
///     run(1, Direct, ["supported", "supported", "supported", "dismissed"]),
///     run(2, Interaction, ["supported", "dismissed", "dismissed", "dismissed"]),
///     run(3, Gold, ["supported", "partially_supported", "dismissed", "dismissed"]),
/// ];
/// let doc = score_entries(&runs, &dataset);
/// assert_eq!(doc.entries.len(), 1);
/// let ljp = &doc.entries[0].ljp.as_ref().unwrap().overall;
///
/// let qwk = |run: usize, setup| score_run(&runs[run], &dataset).metric(Metric::LjpQwk(setup), None).unwrap();
/// let (direct, interaction, gold) = (qwk(0, Direct), qwk(1, Interaction), qwk(2, Gold));
/// assert_eq!(ljp.gain, Some(Some(interaction - direct)));
/// assert_eq!(ljp.relative_degradation, Some(Some((gold - interaction) / gold)));
/// assert!(interaction > direct && gold == 1.0);
/// ```
pub fn summarise_entry(key: EntryKey, runs: &[RunScores], dataset: &[Case]) -> EntryScores {
    let has_cases = |class: Option<Class>| match class {
        None => !dataset.is_empty(),
        Some(class) => dataset.iter().any(|case| case.class == class),
    };
    let summary = |metric: Metric, class: Option<Class>| {
        let values: Vec<f64> = runs
            .iter()
            .filter_map(|r| r.metric(metric, class))
            .collect();
        mean_std(&values)
    };

    let lca = runs.iter().any(|r| r.lca.is_some()).then(|| {
        Breakdown::build(|class| {
            has_cases(class).then(|| LcaSummary {
                macro_f1: summary(Metric::LcaMacroF1, class),
                acc_complete: summary(Metric::LcaAccComplete, class),
                acc_underspecified: summary(Metric::LcaAccUnderspecified, class),
            })
        })
    });
    let dcg = runs.iter().any(|r| r.dcg.is_some()).then(|| {
        Breakdown::build(|class| {
            has_cases(class).then(|| DcgSummary {
                accuracy: summary(Metric::DcgAccuracy, class),
            })
        })
    });
    let setups: BTreeSet<LjpSetup> = runs.iter().flat_map(|r| r.ljp.keys().copied()).collect();
    let ljp = (!setups.is_empty()).then(|| {
        Breakdown::build(|class| {
            if !has_cases(class) {
                return LjpSummary {
                    setups: setups.iter().map(|&s| (s, None)).collect(),
                    gain: None,
                    relative_degradation: None,
                };
            }
            LjpSummary::of_setups(
                setups
                    .iter()
                    .map(|&s| (s, summary(Metric::LjpQwk(s), class)))
                    .collect(),
            )
        })
    });

    EntryScores {
        model: key.model.clone(),
        family: key.family,
        runs: runs.len(),
        lca,
        dcg,
        ljp,
        unavailable: runs.iter().map(|r| r.unavailable.total()).sum(),
        key,
    }
}

/// A percentile bootstrap confidence interval of one metric of a run, over
/// all cases (`class` `None`) or one class's cases: cases are drawn with
/// replacement, each carrying all its items ([`bootstrap_ci`], same `seed`,
/// same interval). `None` when the run lacks the task or setup, the set has
/// no case, or no resample gives a value.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::lexpilot::run::parse_run;
/// use engine::lexpilot::score::{score_ci, Metric};
///
/// let case = |id: &str| format!(r#"{{"case_id": "{id}", "cause": "离婚纠纷", "class": "family",
///   "plaintiff_type": "natural", "claims": [{{"id": "c1", "text": "判令离婚", "verdict": "supported"}}],
///   "focal_points": [], "key_facts": [], "missing_facts": [],
///   "consultations": {{"complete": [{{"role": "user", "content": "甲"}}],
///                      "underspecified": [{{"role": "user", "content": "乙"}}]}}}}"#).replace('\n', " ");
/// let ids = ["A", "B", "C", "D"];
/// let dataset = parse_dataset(&ids.map(case).join("\n")).unwrap();
/// let mut run = String::from(r#"{"kind": "run", "model": "M", "run": 1}"#);
/// for (id, accepted) in ids.iter().zip([true, true, false, true]) {
///     run += &format!("\n{{\"kind\": \"dcg\", \"case_id\": \"{id}\", \"requests\": [{{\"accepted\": {accepted}}}]}}");
/// }
/// let run = parse_run(&run, &dataset).unwrap();
///
/// let (lo, hi) = score_ci(&run, &dataset, Metric::DcgAccuracy, None, 500, 7, 0.9).unwrap();
/// assert!(lo <= 0.75 && 0.75 <= hi);
/// assert_eq!(score_ci(&run, &dataset, Metric::DcgAccuracy, None, 500, 7, 0.9), Some((lo, hi)));
/// assert_eq!(score_ci(&run, &dataset, Metric::LcaMacroF1, None, 500, 7, 0.9), None);
/// ```
pub fn score_ci(
    run: &Run,
    dataset: &[Case],
    metric: Metric,
    class: Option<Class>,
    resamples: usize,
    seed: u64,
    level: f64,
) -> Option<(f64, f64)> {
    if !run.has(metric.task()) {
        return None;
    }
    let instances = Instances::new(run, dataset);
    let units = cases_of(dataset, class);
    let statistic = |sample: &[usize]| {
        let cases: Vec<usize> = sample.iter().map(|&i| units[i]).collect();
        instances.counted_metric(metric, &cases)
    };
    bootstrap_ci(units.len(), statistic, resamples, seed, level)
}

/// An entry's runs made ready for resampling cases: the statistic of an entry
/// is the mean over its runs of one metric, and [`EntrySample::ci`] and
/// [`compare_entries`] recompute it on resamples of the dataset's cases, each
/// case carrying all its items in every run.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::lexpilot::run::parse_run;
/// use engine::lexpilot::score::{compare_entries, EntrySample, Metric};
///
/// let case = |id: &str| format!(r#"{{"case_id": "{id}", "cause": "离婚纠纷", "class": "family",
///   "plaintiff_type": "natural", "claims": [{{"id": "c1", "text": "判令离婚", "verdict": "supported"}}],
///   "focal_points": [], "key_facts": [], "missing_facts": [],
///   "consultations": {{"complete": [{{"role": "user", "content": "甲"}}],
///                      "underspecified": [{{"role": "user", "content": "乙"}}]}}}}"#).replace('\n', " ");
/// let ids = ["A", "B", "C", "D", "E", "F"];
/// let dataset = parse_dataset(&ids.map(case).join("\n")).unwrap();
/// let run = |model: &str, n: u32, hits: [bool; 6]| {
///     let mut text = format!(r#"{{"kind": "run", "model": "{model}", "run": {n}}}"#);
///     for (id, hit) in ids.iter().zip(hits) {
///         text += &format!("\n{{\"kind\": \"dcg\", \"case_id\": \"{id}\", \"requests\": [{{\"accepted\": {hit}}}]}}");
///     }
///     parse_run(&text, &dataset).unwrap()
/// };
/// let strong = EntrySample::new(&[run("S", 1, [true; 6]), run("S", 2, [true, true, true, true, true, false])], &dataset);
/// let weak = EntrySample::new(&[run("W", 1, [false, false, true, false, false, false])], &dataset);
///
/// // The entry's mean over its two runs is 11/12; its interval contains it.
/// let (lo, hi) = strong.ci(Metric::DcgAccuracy, None, 1000, 7, 0.95).unwrap();
/// assert!(lo <= 11.0 / 12.0 && 11.0 / 12.0 <= hi);
///
/// let cmp = compare_entries(&strong, &weak, Metric::DcgAccuracy, None, 1000, 7, 0.95).unwrap();
/// assert!((cmp.diff - (11.0 / 12.0 - 1.0 / 6.0)).abs() < 1e-12);
/// assert!(cmp.ci.0 > 0.0 && cmp.p_value < 0.05);
/// ```
pub struct EntrySample {
    runs: Vec<Instances>,
    tasks: BTreeSet<Task>,
    classes: Vec<Class>,
}

impl EntrySample {
    /// Gathers the items of `runs` (one entry's) per case of `dataset`.
    pub fn new(runs: &[Run], dataset: &[Case]) -> Self {
        Self {
            runs: runs
                .iter()
                .map(|run| Instances::new(run, dataset))
                .collect(),
            tasks: runs
                .iter()
                .flat_map(|run| Task::ALL.into_iter().filter(|&t| run.has(t)))
                .collect(),
            classes: dataset.iter().map(|case| case.class).collect(),
        }
    }

    /// The cases of `class` (or all), as indices into the dataset.
    fn units(&self, class: Option<Class>) -> Vec<usize> {
        (0..self.classes.len())
            .filter(|&i| class.is_none_or(|c| self.classes[i] == c))
            .collect()
    }

    /// The mean over the runs of `metric` on `cases`, indices into the
    /// dataset (runs where it is undefined left out); `None` when no run
    /// gives a value. The paper's per-cause and per-focal-point-type figures
    /// ([`crate::lexpilot::paper`]) are this over their cases.
    pub fn value_over(&self, metric: Metric, cases: &[usize]) -> Option<f64> {
        let values: Vec<f64> = self
            .runs
            .iter()
            .filter_map(|run| run.counted_metric(metric, cases))
            .collect();
        (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
    }

    /// The entry's mean of `metric` over all cases or one class's (the mean
    /// over its runs where the metric is defined); `None` when no run gives one.
    pub fn value(&self, metric: Metric, class: Option<Class>) -> Option<f64> {
        self.value_over(metric, &self.units(class))
    }

    /// A percentile bootstrap interval of the entry's mean of `metric` over
    /// all cases or one class's ([`bootstrap_ci`]; same seed, same interval).
    /// `None` when no run has the task, the set has no case, or no resample
    /// gives a value.
    pub fn ci(
        &self,
        metric: Metric,
        class: Option<Class>,
        resamples: usize,
        seed: u64,
        level: f64,
    ) -> Option<(f64, f64)> {
        if !self.tasks.contains(&metric.task()) {
            return None;
        }
        let units = self.units(class);
        let statistic = |sample: &[usize]| {
            let cases: Vec<usize> = sample.iter().map(|&i| units[i]).collect();
            self.value_over(metric, &cases)
        };
        bootstrap_ci(units.len(), statistic, resamples, seed, level)
    }
}

/// The paired bootstrap of entry A's mean of `metric` against entry B's on
/// the same dataset: both are recomputed on the same resamples of cases
/// ([`paired_bootstrap`]), giving the difference A − B on all cases, its
/// percentile interval and a two-sided p-value. `None` when either entry
/// lacks the task or the two were not sampled from datasets of the same size.
pub fn compare_entries(
    a: &EntrySample,
    b: &EntrySample,
    metric: Metric,
    class: Option<Class>,
    resamples: usize,
    seed: u64,
    level: f64,
) -> Option<PairedBootstrap> {
    if a.classes != b.classes
        || !a.tasks.contains(&metric.task())
        || !b.tasks.contains(&metric.task())
    {
        return None;
    }
    let units = a.units(class);
    let cases = |sample: &[usize]| -> Vec<usize> { sample.iter().map(|&i| units[i]).collect() };
    paired_bootstrap(
        units.len(),
        |sample| a.value_over(metric, &cases(sample)),
        |sample| b.value_over(metric, &cases(sample)),
        resamples,
        seed,
        level,
    )
}

/// The indices of the dataset's cases of `class`, or of all cases.
fn cases_of(dataset: &[Case], class: Option<Class>) -> Vec<usize> {
    dataset
        .iter()
        .enumerate()
        .filter(|(_, case)| class.is_none_or(|c| case.class == c))
        .map(|(i, _)| i)
        .collect()
}

/// A run's scored instances, gathered per case of the dataset (by index), so
/// that any set of cases, or a resample of one, is scored the same way.
/// Unavailable items contribute nothing.
struct Instances {
    /// (truth is complete, predicted complete) of each labelled consultation.
    lca_pairs: Vec<Vec<(bool, bool)>>,
    /// Whether a request was accepted.
    dcg_hits: Vec<Option<bool>>,
    /// (truth, predicted) verdict codes of each claim, per setup.
    ljp_claims: BTreeMap<LjpSetup, Vec<Vec<(u8, u8)>>>,
    /// The same, as per-case confusion counts, which resampling sums
    /// (`[truth * 2 + predicted]`, complete = 0, underspecified = 1).
    lca_counts: Vec<[u64; 4]>,
    /// Per setup, per case, `[truth * 3 + predicted]` over verdict codes.
    ljp_counts: BTreeMap<LjpSetup, Vec<[u64; 9]>>,
}

impl Instances {
    fn new(run: &Run, dataset: &[Case]) -> Self {
        let index: rustc_hash::FxHashMap<&str, usize> = dataset
            .iter()
            .enumerate()
            .map(|(i, case)| (case.case_id.as_str(), i))
            .collect();
        let case_of = |id: &str| index.get(id).copied();

        let mut lca_pairs = vec![Vec::new(); dataset.len()];
        for item in &run.lca {
            if let (Some(case), Some(label)) = (case_of(&item.case_id), item.label) {
                lca_pairs[case].push((
                    item.consultation == Consultation::Complete,
                    label == LcaLabel::Predict,
                ));
            }
        }
        let mut dcg_hits = vec![None; dataset.len()];
        for item in &run.dcg {
            if let Some(case) = case_of(&item.case_id) {
                dcg_hits[case] = item.hit();
            }
        }
        let mut ljp_claims = BTreeMap::new();
        for item in &run.ljp {
            let claims = ljp_claims
                .entry(item.setup)
                .or_insert_with(|| vec![Vec::new(); dataset.len()]);
            let (Some(case), Some(predictions)) = (case_of(&item.case_id), &item.predictions)
            else {
                continue;
            };
            let truth = &dataset[case].claims;
            if truth.len() == predictions.len() {
                claims[case] = truth
                    .iter()
                    .zip(predictions)
                    .map(|(claim, p)| (claim.verdict.code(), p.code()))
                    .collect();
            }
        }
        let code = |complete: bool| usize::from(!complete);
        let lca_counts = lca_pairs
            .iter()
            .map(|pairs| {
                let mut m = [0; 4];
                for &(truth, pred) in pairs {
                    m[code(truth) * 2 + code(pred)] += 1;
                }
                m
            })
            .collect();
        let ljp_counts = ljp_claims
            .iter()
            .map(|(&setup, cases)| {
                let per_case = cases
                    .iter()
                    .map(|claims| {
                        let mut m = [0; 9];
                        for &(truth, pred) in claims {
                            m[usize::from(truth) * 3 + usize::from(pred)] += 1;
                        }
                        m
                    })
                    .collect();
                (setup, per_case)
            })
            .collect();
        Self {
            lca_pairs,
            dcg_hits,
            ljp_claims,
            lca_counts,
            ljp_counts,
        }
    }

    /// [`Instances::metric`] computed from summed per-case counts instead of
    /// gathered instances: the same formulas on the same counts (so the same
    /// values), without allocating per call, for resampling.
    fn counted_metric(&self, metric: Metric, cases: &[usize]) -> Option<f64> {
        match metric {
            Metric::LcaMacroF1 | Metric::LcaAccComplete | Metric::LcaAccUnderspecified => {
                let mut m = [0u64; 4];
                for &c in cases {
                    for (sum, n) in m.iter_mut().zip(self.lca_counts[c]) {
                        *sum += n;
                    }
                }
                if m.iter().sum::<u64>() == 0 {
                    return None;
                }
                let class = |k: usize| ClassCounts {
                    true_positives: m[k * 2 + k],
                    false_positives: m[(1 - k) * 2 + k],
                    false_negatives: m[k * 2 + (1 - k)],
                };
                match metric {
                    Metric::LcaMacroF1 => Some((class(0).f1() + class(1).f1()) / 2.0),
                    Metric::LcaAccComplete => class(0).recall(),
                    _ => class(1).recall(),
                }
            }
            Metric::DcgAccuracy => {
                let (mut hits, mut n) = (0usize, 0usize);
                for hit in cases.iter().filter_map(|&c| self.dcg_hits[c]) {
                    n += 1;
                    hits += usize::from(hit);
                }
                (n > 0).then(|| hits as f64 / n as f64)
            }
            Metric::LjpQwk(setup) => {
                let per_case = self.ljp_counts.get(&setup)?;
                let mut m = vec![0u64; 9];
                for &c in cases {
                    for (sum, n) in m.iter_mut().zip(per_case[c]) {
                        *sum += n;
                    }
                }
                if m.iter().sum::<u64>() == 0 {
                    return None;
                }
                weighted_kappa(
                    &ConfusionMatrix::from_counts(Verdict::ALL.len(), m)?,
                    KappaWeights::Quadratic,
                )
            }
        }
    }

    fn lca(&self, cases: &[usize]) -> Option<LcaScores> {
        let pairs: Vec<(bool, bool)> = cases
            .iter()
            .flat_map(|&c| self.lca_pairs[c].iter().copied())
            .collect();
        lca_scores(&pairs)
    }

    fn dcg(&self, cases: &[usize]) -> Option<DcgScores> {
        let hits: Vec<bool> = cases.iter().filter_map(|&c| self.dcg_hits[c]).collect();
        accuracy(&hits).map(|accuracy| DcgScores {
            accuracy,
            cases: hits.len(),
        })
    }

    fn ljp(&self, setup: LjpSetup, cases: &[usize]) -> Option<LjpScores> {
        let claims = self.ljp_claims.get(&setup)?;
        let (truth, pred): (Vec<u8>, Vec<u8>) = cases
            .iter()
            .flat_map(|&c| claims[c].iter().copied())
            .unzip();
        (!truth.is_empty()).then(|| LjpScores {
            qwk: quadratic_weighted_kappa(&truth, &pred, Verdict::ALL.len()),
            claims: truth.len(),
        })
    }

    /// `metric` from the gathered instances: the reference the counted path
    /// ([`Instances::counted_metric`]) is tested against.
    #[cfg(test)]
    fn metric(&self, metric: Metric, cases: &[usize]) -> Option<f64> {
        match metric {
            Metric::LcaMacroF1 | Metric::LcaAccComplete | Metric::LcaAccUnderspecified => {
                metric.of_lca(&self.lca(cases)?)
            }
            Metric::DcgAccuracy => self.dcg(cases).map(|s| s.accuracy),
            Metric::LjpQwk(setup) => self.ljp(setup, cases)?.qwk,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::Xoshiro256StarStar;

    /// Resampling sums per-case counts; it must give exactly what gathering
    /// the instances gives, on any multiset of cases.
    #[test]
    fn counted_metrics_equal_gathered_metrics_bit_for_bit() {
        let dataset =
            crate::lexpilot::dataset::parse_dataset(&crate::lexpilot::synthetic::dataset_file(2))
                .unwrap_or_default();
        assert!(!dataset.is_empty());
        let mut rng = Xoshiro256StarStar::seed_from_u64(11);
        for model in 0..3 {
            let text = crate::lexpilot::synthetic::run_file(&dataset, model, 1, 3);
            let Ok(run) = crate::lexpilot::run::parse_run(&text, &dataset) else {
                panic!("a valid synthetic run");
            };
            let instances = Instances::new(&run, &dataset);
            for size in [0, 1, 5, dataset.len()] {
                for _ in 0..20 {
                    let cases: Vec<usize> = (0..size)
                        .map(|_| (rng.next_u64() % dataset.len() as u64) as usize)
                        .collect();
                    for metric in Metric::ALL {
                        let gathered = instances.metric(metric, &cases);
                        let counted = instances.counted_metric(metric, &cases);
                        assert_eq!(
                            gathered.map(f64::to_bits),
                            counted.map(f64::to_bits),
                            "{metric:?} on {cases:?}"
                        );
                    }
                }
            }
        }
    }
}
