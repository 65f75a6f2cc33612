//! The LexPilot paper's results beyond the per-task leaderboard, as views of
//! a score document (and, for the figures over causes and focal points, of
//! the entries' runs made ready for resampling, [`EntrySample`]):
//!
//! - **Table 3** ([`table_3`]): LJP QWK under the three setups per entry,
//!   each entry's gain and relative degradation, and the cross-model rows:
//!   the mean of the per-entry gains and the mean of the per-entry relative
//!   degradations (the paper's 0.041 and 23.84%; a ratio of averages would
//!   give 23.48%, so it is not what is shown).
//! - **Table 4** ([`table_4`]): per model, Direct LJP QWK (the entry's
//!   own Direct runs) beside the Targeted and Off-target QWK of the
//!   experiment of [`crate::lexpilot::targeted`], mean ± std over its result
//!   runs, with the accepted and unresolved cases and the construction
//!   attempts per run; the unresolved cases are listed beside it
//!   ([`Table4Unresolved`]).
//! - **Table 15** ([`table_15`]): Interaction-Based QWK per model under the
//!   standard user, delayed disclosure and self-correction
//!   (`user_condition` of the entries' runs).
//! - **Tables 16 and 17** ([`ljp_by_class`]): LJP QWK per class under the
//!   Gold-Standard and Interaction-Based setups.
//! - **Figure 3** ([`figure_3`]): LCA Macro-F1 and DCG accuracy per cause of
//!   action against its complexity (the mean number of provisions its
//!   judgments cite), one point per cause and entry, and per entry the
//!   association (Pearson's r, Spearman's ρ) over the causes.
//! - **Figure 4** ([`figure_4`]): (a) DCG accuracy per focal-point type per
//!   entry, a case counting under the type of every focal point its missing
//!   facts bear on; (b) DCG accuracy per class, the mean over the
//!   closed-source entries as the paper, or over every entry
//!   ([`Figure4bModels`]); (c) focal points per type in each class.
//!
//! The views read the entries run under the standard user (no
//! `user_condition`, or `standard`) except Table 15. Every table is a
//! [`PaperTable`], exported as CSV ([`to_csv`]), JSON (serde) or LaTeX
//! ([`to_latex`]) the same way.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::core::columns::Better;
use crate::core::entry::{EntryKey, Family};
use crate::core::table::latex_escape;
use crate::lexpilot::dataset::Case;
use crate::lexpilot::leaderboard::format_cell;
use crate::lexpilot::score::{EntrySample, EntryScores, LjpSummary, Metric, ScoreDocument};
use crate::lexpilot::targeted::{Condition, ConditionScores, TargetedScores};
use crate::metrics::{mean_std, pearson, spearman, MeanStd};
use crate::vocab::{Class, FocalPointType, LjpSetup};

/// How a column's values are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// A score: `mean ± std` to 4 decimals.
    Score,
    /// A share as a percentage to 2 decimals (`23.84%`).
    Percent,
    /// A number to 2 decimals (provisions per case).
    Number,
    /// A whole count.
    Count,
}

impl Format {
    /// `m` written in this format.
    ///
    /// ```
    /// use engine::lexpilot::paper::Format;
    /// use engine::metrics::MeanStd;
    ///
    /// let m = MeanStd { mean: 0.238390, std: None };
    /// assert_eq!(Format::Percent.show(&m), "23.84%");
    /// assert_eq!(Format::Score.show(&MeanStd { mean: 0.5, std: Some(0.01) }), "0.5000 ± 0.0100");
    /// assert_eq!(Format::Count.show(&MeanStd { mean: 26.0, std: None }), "26");
    /// ```
    pub fn show(self, m: &MeanStd) -> String {
        match self {
            Format::Score => format_cell(m),
            Format::Percent => match m.std {
                Some(std) => format!("{:.2}% ± {:.2}", m.mean * 100.0, std * 100.0),
                None => format!("{:.2}%", m.mean * 100.0),
            },
            Format::Number => format!("{:.2}", m.mean),
            Format::Count => format!("{:.0}", m.mean),
        }
    }
}

/// One column of a [`PaperTable`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Column {
    /// A stable key (CSV headers).
    pub key: String,
    /// The header as the paper writes it.
    pub label: String,
    pub format: Format,
    /// Which way is better (a relative degradation is best lowest; counts,
    /// complexities and correlations have no best).
    pub better: Better,
}

/// One row of a [`PaperTable`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaperRow {
    /// The block the row belongs to (the model's family, a model), written
    /// once per block as the paper does.
    pub group: Option<String>,
    /// The row's name (a model, a cause, a class).
    pub label: String,
    /// The entry of the score document behind the row, where there is one.
    pub entry: Option<usize>,
    /// One cell per column.
    pub cells: Vec<Option<MeanStd>>,
    /// A cross-row summary (the mean over models).
    pub summary: bool,
    /// How the row's values are written, when not as its columns say (a row
    /// of counts under score columns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<Format>,
}

/// A table of the paper, ready to render or export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaperTable {
    /// `table_3`, `table_4`, `table_15`, `table_16`, `table_17`, `figure_3`,
    /// `figure_3_association`, `figure_4a`, `figure_4b`, `figure_4c`.
    pub name: String,
    /// What the paper's caption says it holds.
    pub caption: String,
    /// The header of the row-name column(s): (group, label).
    pub heads: (String, String),
    pub columns: Vec<Column>,
    pub rows: Vec<PaperRow>,
}

impl PaperTable {
    /// The formatted text of row `row`'s cell in column `col`, `—` when empty.
    pub fn text(&self, row: usize, col: usize) -> String {
        match self.rows[row].cells.get(col).copied().flatten() {
            Some(m) => self.rows[row]
                .format
                .unwrap_or(self.columns[col].format)
                .show(&m),
            None => "—".to_owned(),
        }
    }
}

fn column(key: &str, label: &str, format: Format, better: Better) -> Column {
    Column {
        key: key.to_owned(),
        label: label.to_owned(),
        format,
        better,
    }
}

fn value(mean: f64) -> MeanStd {
    MeanStd { mean, std: None }
}

fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let values: Vec<f64> = values.into_iter().collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The user condition of an entry's runs; `standard` when they name none.
pub fn user_condition(entry: &EntryScores) -> &str {
    entry
        .key
        .extra
        .get("user_condition")
        .and_then(|v| v.as_str())
        .unwrap_or("standard")
}

/// The positions of the entries run under the standard user, families in the
/// paper's order (legal, open, closed, then none), document order within.
fn standard_entries(doc: &ScoreDocument) -> Vec<usize> {
    let mut entries: Vec<usize> = (0..doc.entries.len())
        .filter(|&i| user_condition(&doc.entries[i]) == "standard")
        .collect();
    entries.sort_by_key(|&i| family_rank(doc.entries[i].family));
    entries
}

fn family_rank(f: Option<Family>) -> usize {
    match f {
        Some(Family::Legal) => 0,
        Some(Family::Open) => 1,
        Some(Family::Closed) => 2,
        None => 3,
    }
}

fn family_label(f: Option<Family>) -> String {
    f.map_or("Other", |f| f.label_en()).to_owned()
}

fn qwk(ljp: &LjpSummary, setup: LjpSetup) -> Option<MeanStd> {
    ljp.setups.get(&setup).copied().flatten()?.qwk
}

/// Table 3: per standard-user entry with LJP, QWK under Direct,
/// Interaction-Based and Gold-Standard prediction, the gain (interaction −
/// direct) and the relative degradation ((gold − interaction) / gold), then
/// the row over models: the mean of the entries' gains and the mean of their
/// relative degradations, each over the entries that have one.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::paper::table_3;
/// use engine::lexpilot::score::ScoreDocument;
///
/// let entry = |model: &str, d: f64, i: f64, g: f64| format!(
///     r#"{{"model": "{model}", "runs": 5, "ljp": {{"overall": {{
///         "direct": {{"qwk": {{"mean": {d}}}}}, "interaction": {{"qwk": {{"mean": {i}}}}},
///         "gold": {{"qwk": {{"mean": {g}}}}}, "gain": {}, "relative_degradation": {}}},
///         "by_class": {{}}}}}}"#, i - d, (g - i) / g);
/// let doc: ScoreDocument = serde_json::from_str(&format!(
///     r#"{{"cases": 2, "entries": [{}, {}]}}"#,
///     entry("A", 0.4, 0.5, 1.0), entry("B", 0.2, 0.2, 0.4),
/// )).unwrap();
/// let table = table_3(&doc);
/// let average = table.rows.last().unwrap();
/// assert!(average.summary);
/// // Gains 0.1 and 0: mean 0.05. Degradations 0.5 and 0.5: mean 50%.
/// assert_eq!(table.text(2, 3), "0.0500");
/// assert_eq!(table.text(2, 4), "50.00%");
/// ```
pub fn table_3(doc: &ScoreDocument) -> PaperTable {
    let columns = vec![
        column("direct", "Direct", Format::Score, Better::Higher),
        column(
            "interaction",
            "Interaction-Based",
            Format::Score,
            Better::Higher,
        ),
        column("gold", "Gold-Standard", Format::Score, Better::Higher),
        column("gain", "Gain", Format::Score, Better::Higher),
        column(
            "relative_degradation",
            "Rel. degradation",
            Format::Percent,
            Better::Lower,
        ),
    ];
    let mut rows: Vec<PaperRow> = standard_entries(doc)
        .into_iter()
        .filter_map(|i| {
            let e = &doc.entries[i];
            let ljp = &e.ljp.as_ref()?.overall;
            Some(PaperRow {
                group: Some(family_label(e.family)),
                label: e.model.clone(),
                entry: Some(i),
                cells: vec![
                    qwk(ljp, LjpSetup::Direct),
                    qwk(ljp, LjpSetup::Interaction),
                    qwk(ljp, LjpSetup::Gold),
                    ljp.gain.flatten().map(value),
                    ljp.relative_degradation.flatten().map(value),
                ],
                summary: false,
                format: None,
            })
        })
        .collect();
    if !rows.is_empty() {
        let over = |col: usize| mean(rows.iter().filter_map(|r| r.cells[col].map(|m| m.mean)));
        let models = rows.len();
        rows.push(PaperRow {
            group: None,
            label: format!("Mean over {models} models"),
            entry: None,
            cells: vec![None, None, None, over(3).map(value), over(4).map(value)],
            summary: true,
            format: None,
        });
    }
    PaperTable {
        name: "table_3".into(),
        caption: "Table 3: LJP QWK under the three setups, with the gain of interaction and the relative degradation against gold; the last row averages the per-model values".into(),
        heads: ("Category".into(), "Model".into()),
        columns,
        rows,
    }
}

/// One unresolved case of Table 4: a model, a condition, a case and the
/// runs in which every construction attempt was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table4Unresolved {
    pub model: String,
    pub condition: Condition,
    pub case_id: String,
    pub runs: Vec<u32>,
}

/// Table 4: for each model with Targeted vs Off-target results (`results`,
/// one per result file; files with equal entry keys are one row), Direct
/// QWK from the model's standard-user entry in `doc` (when it has Direct
/// runs), Targeted and Off-target QWK as mean ± std over the row's runs,
/// and, per condition, the accepted and unresolved cases and the
/// construction attempts, each the mean over the runs. Rows in the paper's
/// family order. Also every unresolved case with its runs.
///
/// # Examples
///
/// ```
/// use std::collections::BTreeMap;
///
/// use engine::lexpilot::paper::table_4;
/// use engine::core::entry::EntryKey;
/// use engine::lexpilot::score::ScoreDocument;
/// use engine::lexpilot::targeted::{Condition, ConditionScores, TargetedScores};
///
/// let scores = |qwk, unresolved: &[&str]| ConditionScores {
///     qwk: Some(qwk), claims: 10, accepted: 4 - unresolved.len(), unresolved: unresolved.len(),
///     unavailable: 0, attempts: 6, unresolved_cases: unresolved.iter().map(|s| s.to_string()).collect(),
/// };
/// let run = |run, t, o| TargetedScores {
///     key: EntryKey { model: "M".into(), ..EntryKey::default() },
///     run,
///     conditions: BTreeMap::from([(Condition::Targeted, scores(t, &[])), (Condition::OffTarget, scores(o, &["LP-9"]))]),
/// };
/// let doc: ScoreDocument = serde_json::from_str(r#"{"cases": 4, "entries": [{"model": "M", "runs": 1,
///     "ljp": {"overall": {"direct": {"qwk": {"mean": 0.43}}}, "by_class": {}}}]}"#).unwrap();
/// let (table, unresolved) = table_4(&doc, &[run(1, 0.5, 0.3), run(2, 0.6, 0.4)]);
/// assert_eq!(table.text(0, 0), "0.4300");
/// assert_eq!(table.text(0, 1), "0.5500 ± 0.0707");
/// assert_eq!(table.text(0, 2), "0.3500 ± 0.0707");
/// assert_eq!(unresolved[0].runs, [1, 2]);
/// ```
pub fn table_4(
    doc: &ScoreDocument,
    results: &[TargetedScores],
) -> (PaperTable, Vec<Table4Unresolved>) {
    let mut columns = vec![
        column("direct", "Direct", Format::Score, Better::Higher),
        column("targeted", "Targeted", Format::Score, Better::Higher),
        column("off_target", "Off-target", Format::Score, Better::Higher),
    ];
    for c in Condition::ALL {
        let (key, label) = (c.as_str(), c.label_en());
        columns.push(column(
            &format!("{key}_accepted"),
            &format!("{label} accepted"),
            Format::Number,
            Better::Neither,
        ));
        columns.push(column(
            &format!("{key}_unresolved"),
            &format!("{label} unresolved"),
            Format::Number,
            Better::Neither,
        ));
        columns.push(column(
            &format!("{key}_attempts"),
            &format!("{label} attempts"),
            Format::Number,
            Better::Neither,
        ));
    }
    columns.push(column("runs", "Runs", Format::Count, Better::Neither));

    let mut groups: Vec<(&EntryKey, Vec<&TargetedScores>)> = Vec::new();
    for r in results {
        match groups.iter_mut().find(|(k, _)| **k == r.key) {
            Some((_, runs)) => runs.push(r),
            None => groups.push((&r.key, vec![r])),
        }
    }
    groups.sort_by_key(|(k, _)| family_rank(k.family));
    let mut unresolved: Vec<Table4Unresolved> = Vec::new();
    let rows = groups
        .iter()
        .map(|(key, runs)| {
            let of = |c: Condition| -> Vec<&ConditionScores> {
                runs.iter().filter_map(|r| r.conditions.get(&c)).collect()
            };
            let qwk = |c: Condition| {
                let values: Vec<f64> = of(c).iter().filter_map(|s| s.qwk).collect();
                mean_std(&values)
            };
            let count = |c: Condition, pick: fn(&ConditionScores) -> usize| {
                let values: Vec<f64> = of(c).iter().map(|s| pick(s) as f64).collect();
                mean(values).map(value)
            };
            let direct = standard_entries(doc)
                .into_iter()
                .map(|i| &doc.entries[i])
                .filter(|e| e.model == key.model)
                .find_map(|e| qwk_of(e, LjpSetup::Direct));
            let mut cells = vec![direct, qwk(Condition::Targeted), qwk(Condition::OffTarget)];
            for c in Condition::ALL {
                cells.push(count(c, |s| s.accepted));
                cells.push(count(c, |s| s.unresolved));
                cells.push(count(c, |s| s.attempts));
            }
            cells.push(Some(value(runs.len() as f64)));
            for c in Condition::ALL {
                for r in runs {
                    let Some(s) = r.conditions.get(&c) else {
                        continue;
                    };
                    for case_id in &s.unresolved_cases {
                        let found = unresolved.iter_mut().find(|u| {
                            u.model == key.model && u.condition == c && u.case_id == *case_id
                        });
                        match found {
                            Some(u) => u.runs.push(r.run),
                            None => unresolved.push(Table4Unresolved {
                                model: key.model.clone(),
                                condition: c,
                                case_id: case_id.clone(),
                                runs: vec![r.run],
                            }),
                        }
                    }
                }
            }
            PaperRow {
                group: Some(family_label(key.family)),
                label: key.model.clone(),
                entry: None,
                cells,
                summary: false,
                format: None,
            }
        })
        .collect();
    unresolved.iter_mut().for_each(|u| u.runs.sort_unstable());
    let table = PaperTable {
        name: "table_4".into(),
        caption: "Table 4: LJP QWK on the underspecified consultations under Direct prediction and after Targeted and Off-target clarification (constructed, validated dialogues); accepted and unresolved cases and construction attempts are means per run".into(),
        heads: ("Category".into(), "Model".into()),
        columns,
        rows,
    };
    (table, unresolved)
}

fn qwk_of(e: &EntryScores, setup: LjpSetup) -> Option<MeanStd> {
    qwk(&e.ljp.as_ref()?.overall, setup)
}

/// The user conditions of Table 15, in its order, with the paper's headers.
pub const CONDITIONS: [(&str, &str); 3] = [
    ("standard", "Standard"),
    ("delayed", "Delayed Disclosure"),
    ("self_correction", "Self-Correction"),
];

/// Table 15: Interaction-Based LJP QWK of each model under each user
/// condition, for the models that have an entry under a non-standard one
/// (the first entry of each model and condition).
pub fn table_15(doc: &ScoreDocument) -> PaperTable {
    let mut models: Vec<(String, Option<Family>)> = Vec::new();
    let mut cells: BTreeMap<(String, String), MeanStd> = BTreeMap::new();
    for e in &doc.entries {
        let Some(ljp) = &e.ljp else { continue };
        let Some(q) = qwk(&ljp.overall, LjpSetup::Interaction) else {
            continue;
        };
        let condition = user_condition(e).to_owned();
        if !models.iter().any(|(m, _)| *m == e.model) {
            models.push((e.model.clone(), e.family));
        }
        cells.entry((e.model.clone(), condition)).or_insert(q);
    }
    models.retain(|(m, _)| {
        cells
            .keys()
            .any(|(model, condition)| model == m && condition != "standard")
    });
    models.sort_by_key(|(_, f)| family_rank(*f));
    PaperTable {
        name: "table_15".into(),
        caption: "Table 15: Interaction-Based LJP QWK under the standard user and the two non-ideal user conditions".into(),
        heads: ("Category".into(), "Model".into()),
        columns: CONDITIONS
            .iter()
            .map(|(key, label)| column(key, label, Format::Score, Better::Higher))
            .collect(),
        rows: models
            .into_iter()
            .map(|(model, family)| PaperRow {
                group: Some(family_label(family)),
                cells: CONDITIONS
                    .iter()
                    .map(|(c, _)| cells.get(&(model.clone(), (*c).to_owned())).copied())
                    .collect(),
                label: model,
                entry: None,
                summary: false,
                format: None,
            })
            .collect(),
    }
}

/// Table 16 (`setup` Gold-Standard) or 17 (Interaction-Based): LJP QWK of
/// each standard-user entry per class and overall under `setup`.
pub fn ljp_by_class(doc: &ScoreDocument, setup: LjpSetup) -> PaperTable {
    let (name, number) = match setup {
        LjpSetup::Gold => ("table_16", 16),
        LjpSetup::Interaction => ("table_17", 17),
        LjpSetup::Direct => ("ljp_direct_by_class", 0),
    };
    let mut columns: Vec<Column> = Class::ALL
        .iter()
        .map(|c| column(c.as_str(), c.label_en(), Format::Score, Better::Higher))
        .collect();
    columns.push(column("overall", "Overall", Format::Score, Better::Higher));
    let rows = standard_entries(doc)
        .into_iter()
        .filter_map(|i| {
            let e = &doc.entries[i];
            let ljp = e.ljp.as_ref()?;
            ljp.overall.setups.contains_key(&setup).then(|| PaperRow {
                group: Some(family_label(e.family)),
                label: e.model.clone(),
                entry: Some(i),
                cells: Class::ALL
                    .iter()
                    .map(|c| qwk(ljp.by_class.get(c)?, setup))
                    .chain(std::iter::once(qwk(&ljp.overall, setup)))
                    .collect(),
                summary: false,
                format: None,
            })
        })
        .collect();
    let caption = if number == 0 {
        format!("LJP QWK per class under the {} setup", setup.label_en())
    } else {
        format!(
            "Table {number}: LJP QWK per class under the {} setup",
            setup.label_en()
        )
    };
    PaperTable {
        name: name.into(),
        caption,
        heads: ("Category".into(), "Model".into()),
        columns,
        rows,
    }
}

/// One cause of action of the dataset with its complexity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cause {
    pub cause: String,
    pub class: Class,
    /// Its cases, as indices into the dataset.
    pub cases: Vec<usize>,
    /// The mean number of provisions its judgments cite, over its cases
    /// that say (`provisions_cited`); `None` when none does.
    pub complexity: Option<f64>,
}

/// The causes of the dataset in order of first appearance, classes in
/// [`Class::ALL`] order.
pub fn causes(cases: &[Case]) -> Vec<Cause> {
    let mut causes: Vec<Cause> = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        match causes.iter_mut().find(|c| c.cause == case.cause) {
            Some(c) => c.cases.push(i),
            None => causes.push(Cause {
                cause: case.cause.clone(),
                class: case.class,
                cases: vec![i],
                complexity: None,
            }),
        }
    }
    for cause in &mut causes {
        cause.complexity = mean(
            cause
                .cases
                .iter()
                .filter_map(|&i| cases[i].provisions_cited.map(f64::from)),
        );
    }
    causes.sort_by_key(|c| Class::ALL.iter().position(|k| *k == c.class));
    causes
}

/// One point of Figure 3: an entry's scores on one cause.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CausePoint {
    pub cause: String,
    pub class: Class,
    pub complexity: f64,
    /// LCA Macro-F1 over the cause's consultations (mean over runs).
    pub lca: Option<f64>,
    /// DCG accuracy over the cause's cases (mean over runs).
    pub dcg: Option<f64>,
}

/// One entry's points of Figure 3 and their association with complexity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComplexitySeries {
    pub entry: usize,
    pub model: String,
    pub points: Vec<CausePoint>,
    /// Pearson's r of complexity against LCA / DCG over the causes.
    pub lca_pearson: Option<f64>,
    pub dcg_pearson: Option<f64>,
    /// Spearman's ρ of the same.
    pub lca_spearman: Option<f64>,
    pub dcg_spearman: Option<f64>,
}

/// Figure 3 with its two tables (the points; the association per entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure3 {
    pub series: Vec<ComplexitySeries>,
    pub points: PaperTable,
    pub association: PaperTable,
}

/// Figure 3 over the standard-user entries with LCA or DCG; `samples` are
/// the document's entries made ready for resampling, in its order, on
/// `cases`, the dataset the document was scored on. Causes whose cases cite
/// no provision count are left out.
pub fn figure_3(doc: &ScoreDocument, samples: &[&EntrySample], cases: &[Case]) -> Figure3 {
    let causes: Vec<Cause> = causes(cases)
        .into_iter()
        .filter(|c| c.complexity.is_some())
        .collect();
    let series: Vec<ComplexitySeries> = standard_entries(doc)
        .into_iter()
        .filter(|&i| doc.entries[i].lca.is_some() || doc.entries[i].dcg.is_some())
        .filter_map(|i| {
            let sample = samples.get(i)?;
            let points: Vec<CausePoint> = causes
                .iter()
                .map(|c| CausePoint {
                    cause: c.cause.clone(),
                    class: c.class,
                    complexity: c.complexity.unwrap_or_default(),
                    lca: sample.value_over(Metric::LcaMacroF1, &c.cases),
                    dcg: sample.value_over(Metric::DcgAccuracy, &c.cases),
                })
                .collect();
            let pairs = |pick: fn(&CausePoint) -> Option<f64>| -> (Vec<f64>, Vec<f64>) {
                points
                    .iter()
                    .filter_map(|p| Some((p.complexity, pick(p)?)))
                    .unzip()
            };
            let (lx, ly) = pairs(|p| p.lca);
            let (dx, dy) = pairs(|p| p.dcg);
            Some(ComplexitySeries {
                entry: i,
                model: doc.entries[i].model.clone(),
                lca_pearson: pearson(&lx, &ly),
                dcg_pearson: pearson(&dx, &dy),
                lca_spearman: spearman(&lx, &ly),
                dcg_spearman: spearman(&dx, &dy),
                points,
            })
        })
        .collect();
    let points = PaperTable {
        name: "figure_3".into(),
        caption: "Figure 3: LCA Macro-F1 and DCG accuracy per cause of action against case complexity (mean provisions cited per judgment)".into(),
        heads: ("Model".into(), "Cause".into()),
        columns: vec![
            column(
                "complexity",
                "Provisions cited",
                Format::Number,
                Better::Neither,
            ),
            column("lca", "LCA Macro-F1", Format::Score, Better::Higher),
            column("dcg", "DCG accuracy", Format::Score, Better::Higher),
        ],
        rows: series
            .iter()
            .flat_map(|s| {
                s.points.iter().map(|p| PaperRow {
                    group: Some(s.model.clone()),
                    label: p.cause.clone(),
                    entry: Some(s.entry),
                    cells: vec![
                        Some(value(p.complexity)),
                        p.lca.map(value),
                        p.dcg.map(value),
                    ],
                    summary: false,
                    format: None,
                })
            })
            .collect(),
    };
    let association = PaperTable {
        name: "figure_3_association".into(),
        caption: "Figure 3: association of case complexity with LCA and DCG over the causes".into(),
        heads: ("Category".into(), "Model".into()),
        columns: vec![
            column("lca_pearson", "LCA r", Format::Score, Better::Neither),
            column("dcg_pearson", "DCG r", Format::Score, Better::Neither),
            column("lca_spearman", "LCA ρ", Format::Score, Better::Neither),
            column("dcg_spearman", "DCG ρ", Format::Score, Better::Neither),
        ],
        rows: series
            .iter()
            .map(|s| PaperRow {
                group: Some(family_label(doc.entries[s.entry].family)),
                label: s.model.clone(),
                entry: Some(s.entry),
                cells: [s.lca_pearson, s.dcg_pearson, s.lca_spearman, s.dcg_spearman]
                    .map(|v| v.map(value))
                    .into(),
                summary: false,
                format: None,
            })
            .collect(),
    };
    Figure3 {
        series,
        points,
        association,
    }
}

/// The focal-point types each case's missing facts bear on (distinct, in
/// [`FocalPointType::ALL`] order).
pub fn missing_fact_types(case: &Case) -> Vec<FocalPointType> {
    let types: Vec<FocalPointType> = case
        .missing_key_facts()
        .filter_map(|k| case.focal_points.iter().find(|f| f.id == k.focal_point))
        .map(|f| f.r#type)
        .collect();
    FocalPointType::ALL
        .into_iter()
        .filter(|t| types.contains(t))
        .collect()
}

/// Figure 4's three panels as tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure4 {
    /// (a) DCG accuracy per focal-point type, one row per entry, then the
    /// number of cases behind each type.
    pub by_type: PaperTable,
    /// (b) DCG accuracy per class, the mean over the entries.
    pub by_class: PaperTable,
    /// (c) Focal points per type (columns) in each class (rows).
    pub types_per_class: PaperTable,
}

/// Which entries Figure 4 (b) averages over: the paper's three
/// closed-source models ("Figure 4 (b) shows markedly lower average DCG
/// accuracy across the three closed-source models", the group its analysis
/// of Figures 3 and 4 uses), so by default the entries of family `closed`;
/// or every entry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure4bModels {
    /// The closed-source entries, as the paper.
    #[default]
    Closed,
    /// Every standard-user entry with DCG.
    All,
}

impl Figure4bModels {
    /// Both choices, the default first.
    pub const ALL: [Figure4bModels; 2] = [Figure4bModels::Closed, Figure4bModels::All];

    /// The query value (`closed`, `all`).
    pub fn as_str(self) -> &'static str {
        match self {
            Figure4bModels::Closed => "closed",
            Figure4bModels::All => "all",
        }
    }

    /// The choice a query value names; `None` for anything else.
    ///
    /// ```
    /// use engine::lexpilot::paper::Figure4bModels;
    /// assert_eq!(Figure4bModels::parse("all"), Some(Figure4bModels::All));
    /// assert_eq!(Figure4bModels::parse("open"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Figure4bModels> {
        Figure4bModels::ALL.into_iter().find(|m| m.as_str() == s)
    }

    fn takes(self, family: Option<Family>) -> bool {
        self == Figure4bModels::All || family == Some(Family::Closed)
    }
}

/// Figure 4 over the standard-user entries with DCG, `samples` and `cases`
/// as for [`figure_3`]; panel (b) over the entries `models` names.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_dataset;
/// use engine::lexpilot::paper::figure_4;
/// use engine::lexpilot::score::ScoreDocument;
///
/// let case = |id: &str, ty: &str| format!(r#"{{"case_id": "{id}", "cause": "银行卡纠纷", "class": "finance_contract",
///   "plaintiff_type": "natural", "claims": [{{"id": "c1", "text": "还款", "verdict": "supported"}}],
///   "focal_points": [{{"id": "f1", "text": "借款金额", "type": "{ty}"}}],
///   "key_facts": [{{"id": "k1", "focal_point": "f1", "text": "借了五万"}}], "missing_facts": ["k1"],
///   "consultations": {{"complete": [{{"role": "user", "content": "借了五万"}}],
///                      "underspecified": [{{"role": "user", "content": "借了钱"}}]}}}}"#).replace('\n', " ");
/// let cases = parse_dataset(&[case("A", "amount_assessment"), case("B", "amount_assessment")].join("\n")).unwrap();
/// let figure = figure_4(&ScoreDocument { dataset: None, cases: 2, entries: vec![] }, &[], &cases, Default::default());
/// let c = &figure.types_per_class;
/// let finance = c.rows.iter().position(|r| r.label == "Finance Contract").unwrap();
/// let amount = c.columns.iter().position(|col| col.key == "amount_assessment").unwrap();
/// assert_eq!(c.text(finance, amount), "2");
/// ```
pub fn figure_4(
    doc: &ScoreDocument,
    samples: &[&EntrySample],
    cases: &[Case],
    models: Figure4bModels,
) -> Figure4 {
    let type_cases: Vec<Vec<usize>> = FocalPointType::ALL
        .iter()
        .map(|t| {
            (0..cases.len())
                .filter(|&i| missing_fact_types(&cases[i]).contains(t))
                .collect()
        })
        .collect();
    let entries: Vec<usize> = standard_entries(doc)
        .into_iter()
        .filter(|&i| doc.entries[i].dcg.is_some())
        .collect();
    let type_columns: Vec<Column> = FocalPointType::ALL
        .iter()
        .map(|t| column(t.as_str(), t.label_en(), Format::Score, Better::Higher))
        .collect();
    let mut by_type_rows: Vec<PaperRow> = entries
        .iter()
        .filter_map(|&i| {
            let sample = samples.get(i)?;
            Some(PaperRow {
                group: Some(family_label(doc.entries[i].family)),
                label: doc.entries[i].model.clone(),
                entry: Some(i),
                cells: type_cases
                    .iter()
                    .map(|cases| {
                        (!cases.is_empty())
                            .then(|| sample.value_over(Metric::DcgAccuracy, cases))
                            .flatten()
                            .map(value)
                    })
                    .collect(),
                summary: false,
                format: None,
            })
        })
        .collect();
    by_type_rows.push(PaperRow {
        group: None,
        label: "Cases".into(),
        entry: None,
        cells: type_cases
            .iter()
            .map(|c| Some(value(c.len() as f64)))
            .collect(),
        summary: true,
        format: Some(Format::Count),
    });
    let averaged: Vec<usize> = entries
        .iter()
        .copied()
        .filter(|&i| models.takes(doc.entries[i].family))
        .collect();
    let (caption, label) = match models {
        Figure4bModels::Closed => (
            "Figure 4 (b): DCG accuracy per class, the mean over the closed-source models",
            match averaged.len() {
                1 => "Mean over 1 closed-source model".to_owned(),
                n => format!("Mean over {n} closed-source models"),
            },
        ),
        Figure4bModels::All => (
            "Figure 4 (b): DCG accuracy per class, the mean over all models",
            format!("Mean over {} models", averaged.len()),
        ),
    };
    let by_class = PaperTable {
        name: "figure_4b".into(),
        caption: caption.into(),
        heads: (String::new(), "Models".into()),
        columns: Class::ALL
            .iter()
            .map(|c| column(c.as_str(), c.label_en(), Format::Score, Better::Higher))
            .collect(),
        rows: if averaged.is_empty() {
            Vec::new()
        } else {
            vec![PaperRow {
                group: None,
                label,
                entry: None,
                cells: Class::ALL
                    .iter()
                    .map(|c| {
                        mean(averaged.iter().filter_map(|&i| {
                            doc.entries[i]
                                .dcg
                                .as_ref()?
                                .get(Some(*c))?
                                .as_ref()?
                                .accuracy
                                .map(|m| m.mean)
                        }))
                        .map(value)
                    })
                    .collect(),
                summary: true,
                format: None,
            }]
        },
    };
    let types_per_class = PaperTable {
        name: "figure_4c".into(),
        caption: "Figure 4 (c): focal points per type in each class".into(),
        heads: (String::new(), "Class".into()),
        columns: FocalPointType::ALL
            .iter()
            .map(|t| column(t.as_str(), t.label_en(), Format::Count, Better::Neither))
            .collect(),
        rows: Class::ALL
            .iter()
            .map(|class| PaperRow {
                group: None,
                label: class.label_en().to_owned(),
                entry: None,
                cells: FocalPointType::ALL
                    .iter()
                    .map(|t| {
                        let n = cases
                            .iter()
                            .filter(|c| c.class == *class)
                            .flat_map(|c| &c.focal_points)
                            .filter(|f| f.r#type == *t)
                            .count();
                        Some(value(n as f64))
                    })
                    .collect(),
                summary: false,
                format: None,
            })
            .collect(),
    };
    Figure4 {
        by_type: PaperTable {
            name: "figure_4a".into(),
            caption: "Figure 4 (a): DCG accuracy per focal-point type of the missing facts".into(),
            heads: ("Category".into(), "Model".into()),
            columns: type_columns,
            rows: by_type_rows,
        },
        by_class,
        types_per_class,
    }
}

/// Every view of the paper over one snapshot, for the page and the export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaperViews {
    pub table_3: PaperTable,
    pub table_4: PaperTable,
    /// The unresolved cases of Table 4.
    pub table_4_unresolved: Vec<Table4Unresolved>,
    pub table_15: PaperTable,
    pub table_16: PaperTable,
    pub table_17: PaperTable,
    pub figure_3: Figure3,
    pub figure_4: Figure4,
}

impl PaperViews {
    /// All views of `doc` (see [`figure_3`] for `samples` and `cases`,
    /// [`table_4`] for `targeted` and [`figure_4`] for `figure_4b`).
    pub fn of(
        doc: &ScoreDocument,
        samples: &[&EntrySample],
        cases: &[Case],
        targeted: &[TargetedScores],
        figure_4b: Figure4bModels,
    ) -> Self {
        let (table_4, table_4_unresolved) = table_4(doc, targeted);
        Self {
            table_3: table_3(doc),
            table_4,
            table_4_unresolved,
            table_15: table_15(doc),
            table_16: ljp_by_class(doc, LjpSetup::Gold),
            table_17: ljp_by_class(doc, LjpSetup::Interaction),
            figure_3: figure_3(doc, samples, cases),
            figure_4: figure_4(doc, samples, cases, figure_4b),
        }
    }

    /// Every table, in the paper's order.
    pub fn tables(&self) -> [&PaperTable; 10] {
        [
            &self.table_3,
            &self.table_4,
            &self.table_15,
            &self.table_16,
            &self.table_17,
            &self.figure_3.points,
            &self.figure_3.association,
            &self.figure_4.by_type,
            &self.figure_4.by_class,
            &self.figure_4.types_per_class,
        ]
    }

    /// The table named `name` ([`PaperTable::name`]).
    pub fn table(&self, name: &str) -> Option<&PaperTable> {
        self.tables().into_iter().find(|t| t.name == name)
    }
}

/// The table as CSV: the two row-name columns, then per column `<key>_mean`
/// and `<key>_std` (empty where there is no value); text a spreadsheet
/// would read as a formula is neutralised ([`crate::spreadsheet`]).
pub fn to_csv(table: &PaperTable) -> String {
    let mut header = vec!["group".to_owned(), "row".to_owned()];
    for c in &table.columns {
        header.push(format!("{}_mean", c.key));
        header.push(format!("{}_std", c.key));
    }
    let mut records = vec![header];
    for row in &table.rows {
        let mut record = vec![row.group.clone().unwrap_or_default(), row.label.clone()];
        for cell in &row.cells {
            record.push(cell.map(|m| m.mean.to_string()).unwrap_or_default());
            record.push(
                cell.and_then(|m| m.std)
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
            );
        }
        records.push(record);
    }
    crate::spreadsheet::to_csv(records)
}

/// The table as a LaTeX `table*` (needs `booktabs`): the group written once
/// per block with `\midrule` between blocks, a summary row below a rule,
/// values as the page writes them.
pub fn to_latex(table: &PaperTable) -> String {
    let mut out = String::from("\\begin{table*}[t]\n\\centering\n\\small\n");
    out.push_str(&format!(
        "\\begin{{tabular}}{{ll{}}}\n\\toprule\n",
        "c".repeat(table.columns.len())
    ));
    out.push_str(&format!(
        "{} & {}",
        latex_escape(&table.heads.0),
        latex_escape(&table.heads.1)
    ));
    for c in &table.columns {
        out.push_str(&format!(" & {}", latex_escape(&c.label)));
    }
    out.push_str(" \\\\\n\\midrule\n");
    let mut last: Option<&Option<String>> = None;
    for (r, row) in table.rows.iter().enumerate() {
        let group = if last != Some(&row.group) {
            if last.is_some() {
                out.push_str("\\midrule\n");
            }
            last = Some(&row.group);
            row.group.clone().unwrap_or_default()
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{} & {}",
            latex_escape(&group),
            latex_escape(&row.label)
        ));
        for c in 0..table.columns.len() {
            let text = table.text(r, c).replace('—', "--").replace('±', "$\\pm$");
            out.push_str(&format!(" & {}", text.replace('%', "\\%")));
        }
        out.push_str(" \\\\\n");
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    out.push_str(&format!(
        "\\caption{{{}}}\n\\end{{table*}}\n",
        latex_escape(&table.caption)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexpilot::dataset::parse_dataset;
    use crate::lexpilot::run::parse_run;
    use crate::lexpilot::score::score_entries;

    fn case(id: &str, cause: &str, class: &str, provisions: u32, ty: &str) -> String {
        format!(
            r#"{{"case_id": "{id}", "cause": "{cause}", "class": "{class}", "plaintiff_type": "natural",
              "provisions_cited": {provisions},
              "claims": [{{"id": "c1", "text": "请求", "verdict": "supported"}}],
              "focal_points": [{{"id": "f1", "text": "争议", "type": "{ty}"}}, {{"id": "f2", "text": "其他", "type": "other"}}],
              "key_facts": [{{"id": "k1", "focal_point": "f1", "text": "事实"}}], "missing_facts": ["k1"],
              "consultations": {{"complete": [{{"role": "user", "content": "事实"}}],
                                 "underspecified": [{{"role": "user", "content": "缺"}}]}}}}"#
        )
        .replace('\n', " ")
    }

    #[test]
    fn figures_3_and_4_follow_the_cases_behind_each_point() {
        let cases = parse_dataset(
            &[
                case("A", "离婚纠纷", "family", 2, "liability_allocation"),
                case("B", "离婚纠纷", "family", 4, "liability_allocation"),
                case(
                    "C",
                    "银行卡纠纷",
                    "finance_contract",
                    6,
                    "amount_assessment",
                ),
                case(
                    "D",
                    "银行卡纠纷",
                    "finance_contract",
                    8,
                    "amount_assessment",
                ),
            ]
            .join("\n"),
        )
        .expect("dataset");
        let mut text =
            String::from(r#"{"kind": "run", "model": "M", "family": "closed", "run": 1}"#);
        for (id, accepted) in [("A", true), ("B", true), ("C", false), ("D", true)] {
            text += &format!(
                "\n{{\"kind\": \"dcg\", \"case_id\": \"{id}\", \"requests\": [{{\"accepted\": {accepted}}}]}}"
            );
        }
        let run = parse_run(&text, &cases).expect("run");
        let doc = score_entries(std::slice::from_ref(&run), &cases);
        let sample = EntrySample::new(std::slice::from_ref(&run), &cases);
        let samples = [&sample];

        let figure = figure_3(&doc, &samples, &cases);
        let series = &figure.series[0];
        let points: Vec<(&str, f64, Option<f64>)> = series
            .points
            .iter()
            .map(|p| (p.cause.as_str(), p.complexity, p.dcg))
            .collect();
        assert_eq!(
            points,
            [("离婚纠纷", 3.0, Some(1.0)), ("银行卡纠纷", 7.0, Some(0.5))]
        );
        // Two causes: a falling line.
        assert_eq!(series.dcg_pearson, Some(-1.0));
        assert_eq!(series.lca_pearson, None, "the run has no LCA");
        assert_eq!(figure.points.rows.len(), 2);
        assert_eq!(figure.association.text(0, 1), "-1.0000");

        let figure = figure_4(&doc, &samples, &cases, Figure4bModels::Closed);
        let col =
            |t: &PaperTable, key: &str| t.columns.iter().position(|c| c.key == key).expect(key);
        let a = &figure.by_type;
        assert_eq!(a.text(0, col(a, "liability_allocation")), "1.0000");
        assert_eq!(a.text(0, col(a, "amount_assessment")), "0.5000");
        // No missing fact bears on an `other` focal point: no figure.
        assert_eq!(a.text(0, col(a, "other")), "—");
        assert_eq!(
            a.text(1, col(a, "amount_assessment")),
            "2",
            "cases per type"
        );
        let b = &figure.by_class;
        assert_eq!(b.text(0, col(b, "finance_contract")), "0.5000");
        let c = &figure.types_per_class;
        assert_eq!(
            c.text(0, col(c, "other")),
            "2",
            "family holds two `other` focal points"
        );
        assert_eq!(to_csv(c).lines().count(), 1 + Class::ALL.len());
        assert!(to_latex(a).contains("Amount Assessment"));
    }

    #[test]
    fn figure_4b_averages_the_closed_source_models_unless_all_are_chosen() {
        let cases = parse_dataset(
            &[
                case("A", "离婚纠纷", "family", 2, "liability_allocation"),
                case("B", "离婚纠纷", "family", 2, "liability_allocation"),
                case(
                    "C",
                    "银行卡纠纷",
                    "finance_contract",
                    6,
                    "amount_assessment",
                ),
                case(
                    "D",
                    "银行卡纠纷",
                    "finance_contract",
                    6,
                    "amount_assessment",
                ),
            ]
            .join("\n"),
        )
        .expect("dataset");
        // Accepted requests per case A, B, C, D: family and finance accuracy
        // are (0.5, 1.0), (1.0, 0.0) and (0.0, 0.5).
        let models = [
            ("Closed-1", "closed", [true, false, true, true]),
            ("Closed-2", "closed", [true, true, false, false]),
            ("Open-1", "open", [false, false, false, true]),
        ];
        let runs: Vec<_> = models
            .iter()
            .map(|(model, family, accepted)| {
                let mut text = format!(
                    r#"{{"kind": "run", "model": "{model}", "family": "{family}", "run": 1}}"#
                );
                for (id, ok) in ["A", "B", "C", "D"].iter().zip(accepted) {
                    text += &format!(
                        "\n{{\"kind\": \"dcg\", \"case_id\": \"{id}\", \"requests\": [{{\"accepted\": {ok}}}]}}"
                    );
                }
                parse_run(&text, &cases).expect("run")
            })
            .collect();
        let doc = score_entries(&runs, &cases);
        let owned: Vec<EntrySample> = runs
            .iter()
            .map(|r| EntrySample::new(std::slice::from_ref(r), &cases))
            .collect();
        let samples: Vec<&EntrySample> = owned.iter().collect();
        let b = |models| figure_4(&doc, &samples, &cases, models).by_class;
        let col =
            |t: &PaperTable, key: &str| t.columns.iter().position(|c| c.key == key).expect(key);

        // By hand: closed (0.5 + 1.0) / 2 and (1.0 + 0.0) / 2; all three
        // (0.5 + 1.0 + 0.0) / 3 and (1.0 + 0.0 + 0.5) / 3.
        let closed = b(Figure4bModels::default());
        assert_eq!(closed.rows[0].label, "Mean over 2 closed-source models");
        assert_eq!(closed.text(0, col(&closed, "family")), "0.7500");
        assert_eq!(closed.text(0, col(&closed, "finance_contract")), "0.5000");
        let all = b(Figure4bModels::All);
        assert_eq!(all.rows[0].label, "Mean over 3 models");
        assert_eq!(all.text(0, col(&all, "family")), "0.5000");
        assert_eq!(all.text(0, col(&all, "finance_contract")), "0.5000");

        // Without a closed-source entry the default has no row to draw.
        let open_only = score_entries(&runs[2..], &cases);
        let open = figure_4(&open_only, &samples[2..], &cases, Figure4bModels::Closed).by_class;
        assert!(open.rows.is_empty());
    }
}
