//! The DLawBench leaderboard views (`docs/benchmarks/dlawbench.md` §A6),
//! pure functions over a [`ScoreDocument`] and, where they need per-run
//! session counts, the scored runs it was summarised from.
//!
//! - [`rank_order`] (§A4.5, →C-D12): overall null-as-zero Resolution,
//!   highest first; ties by Elicitation, then Fidelity, then model name;
//!   entries without an overall value last.
//! - [`main_table`] (§A6.1, §A6.2): one row per entry, the seven metrics
//!   grouped under Elicitation · Resolution · Fidelity ([`COLUMN_GROUPS`]),
//!   overall or one jurisdiction ([`TableView`]), null-as-zero or
//!   valid-only, with failure and unavailable counts, the best mean of
//!   each column (as [`Metric::better`] says), and a [`Badge`] for runs
//!   missing styles (→C-D11).
//! - [`style_table`] (§A6.3): per entry the four styles × the seven
//!   metrics and Δ vs cooperative, and the mean over entries per style
//!   (the Figure 5 analogue).
//! - [`domain_table`] (§A6.4): (jurisdiction, domain) rows × selected
//!   entries (default the top 6 by rank) × the three abilities, with the
//!   session count n per cell.
//! - [`diagnostics`] (§A6.6): conditional correctness beside FC and FR,
//!   [`pearson`] r between entry-level E, R and F, and the panel
//!   diagnostics (per judge, recused and unavailable seats, |median − mean|).
//! - [`aggregation_table`] (§A6.6, [D] Table 22): per metric, over every
//!   three-judge observation of every run, the mean |median − mean| and
//!   the share above 0.05.
//! - Exports: [`to_csv`], [`to_latex`] and [`caption`] for the main
//!   table, [`domain_to_csv`]; every table is serde data for JSON.
//!
//! Depends on [`super::score`], [`super::dataset`], [`crate::metrics`],
//! [`crate::spreadsheet`] and the LaTeX escaping and entry settings of the
//! other leaderboards.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::dataset::{domain_label, Jurisdiction, Style};
use super::score::{
    Diagnostics, EntryScores, GapSummary, JudgeSummary, Metric, RunScores, ScoreDocument, Summary,
    View,
};
use crate::core::columns::Better;
use crate::core::entry::{EntryKey, Family};
use crate::core::table::latex_escape;
use crate::metrics::MeanStd;
use crate::vocab::vocabulary;

/// The column groups of the main table: each ability and its columns.
pub const COLUMN_GROUPS: [(Metric, &[Metric]); 3] = [
    (
        Metric::Elicitation,
        &[Metric::Elicitation, Metric::FactCoverage, Metric::Inquiry],
    ),
    (
        Metric::Resolution,
        &[
            Metric::Resolution,
            Metric::FactResolution,
            Metric::IssueResolution,
        ],
    ),
    (Metric::Fidelity, &[Metric::Fidelity]),
];

vocabulary! {
    /// A warning shown beside an entry.
    Badge, kind "badge" {
        /// Only cooperative sessions: no overall, and cooperative-only
        /// evaluation inflates measured quality.
        CooperativeOnly = "cooperative_only", zh "仅合作型", en "Cooperative only";
        /// Some styles but not all four: no overall.
        PartialStyles = "partial_styles", zh "风格不全", en "Partial styles";
        /// The dataset has one jurisdiction: overall is that jurisdiction.
        SingleJurisdiction = "single_jurisdiction", zh "单一法域", en "Single jurisdiction";
    }
}

fn badge(entry: &EntryScores) -> Option<Badge> {
    if entry.styles == [Style::Cooperative] {
        Some(Badge::CooperativeOnly)
    } else if entry.styles.len() < Style::ALL.len() {
        Some(Badge::PartialStyles)
    } else if entry.single_jurisdiction {
        Some(Badge::SingleJurisdiction)
    } else {
        None
    }
}

/// Highest first, absent values last.
fn highest_first(a: Option<f64>, b: Option<f64>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => b.total_cmp(&a),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// The cells of one level of an entry: overall, or one jurisdiction.
fn level(entry: &EntryScores, view: View, jurisdiction: Option<Jurisdiction>) -> Option<&Summary> {
    let v = entry.view(view);
    match jurisdiction {
        None => v.overall.as_ref(),
        Some(j) => v.by_jurisdiction.get(&j),
    }
}

fn value(summary: Option<&Summary>, metric: Metric) -> Option<f64> {
    summary?.get(&metric).copied().flatten().map(|m| m.mean)
}

/// The entries' indices in rank order at a level (overall when
/// `jurisdiction` is `None`), always by null-as-zero values (§A4.5).
fn order_at(doc: &ScoreDocument, jurisdiction: Option<Jurisdiction>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..doc.entries.len()).collect();
    let key =
        |i: usize, m: Metric| value(level(&doc.entries[i], View::NullAsZero, jurisdiction), m);
    order.sort_by(|&a, &b| {
        highest_first(key(a, Metric::Resolution), key(b, Metric::Resolution))
            .then(highest_first(
                key(a, Metric::Elicitation),
                key(b, Metric::Elicitation),
            ))
            .then(highest_first(
                key(a, Metric::Fidelity),
                key(b, Metric::Fidelity),
            ))
            .then_with(|| doc.entries[a].model.cmp(&doc.entries[b].model))
    });
    order
}

/// The entries' indices in rank order (see the [module documentation](self)).
///
/// ```
/// use engine::dlawbench::leaderboard::rank_order;
/// use engine::dlawbench::score::summarise_runs;
/// assert!(rank_order(&summarise_runs([], &[])).is_empty());
/// ```
pub fn rank_order(doc: &ScoreDocument) -> Vec<usize> {
    order_at(doc, None)
}

/// Which table: the view and the level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableView {
    /// Null-as-zero (the default) or valid-only.
    pub view: View,
    /// Overall (`None`) or one jurisdiction's table.
    pub jurisdiction: Option<Jurisdiction>,
}

impl TableView {
    /// Reads the page's `view` and `jurisdiction` queries; unknown values
    /// fall back to the defaults (null-as-zero, overall).
    ///
    /// ```
    /// use engine::dlawbench::dataset::Jurisdiction;
    /// use engine::dlawbench::leaderboard::TableView;
    /// use engine::dlawbench::score::View;
    /// let v = TableView::from_query(Some("valid_only"), Some("cn"));
    /// assert_eq!((v.view, v.jurisdiction), (View::ValidOnly, Some(Jurisdiction::Cn)));
    /// assert_eq!(TableView::from_query(Some("x"), None).view, View::NullAsZero);
    /// ```
    pub fn from_query(view: Option<&str>, jurisdiction: Option<&str>) -> TableView {
        TableView {
            view: view.and_then(View::parse).unwrap_or_default(),
            jurisdiction: jurisdiction.and_then(Jurisdiction::parse),
        }
    }
}

/// One entry of the main table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// 1-based rank; `None` for an entry without values at this level.
    pub rank: Option<usize>,
    /// The entry's index in the score document.
    pub entry: usize,
    /// The lawyer model.
    pub model: String,
    /// Its group (the badge).
    pub family: Option<Family>,
    /// What sets it apart from the other entries of its model.
    pub setting: Option<String>,
    /// How many runs.
    pub runs: usize,
    /// Task failures, over every run.
    pub failures: usize,
    /// Unavailable sessions, over every run.
    pub unavailable: usize,
    /// Degraded sessions, over every run.
    pub degraded: usize,
    /// A warning, if any.
    pub badge: Option<Badge>,
    /// One per [`Table::columns`].
    pub cells: Vec<Option<MeanStd>>,
}

/// The main or a jurisdiction leaderboard, ready to render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Which view and level.
    pub view: View,
    /// `None` for the overall table.
    pub jurisdiction: Option<Jurisdiction>,
    /// The seven metrics in [`COLUMN_GROUPS`] order.
    pub columns: Vec<Metric>,
    /// Rows in rank order.
    pub rows: Vec<Row>,
    /// Per column, the best mean of any row ([`Metric::better`]).
    pub best: Vec<Option<f64>>,
}

impl Table {
    /// Whether the cell holds its column's best mean (ties are all best).
    pub fn is_best(&self, row: usize, column: usize) -> bool {
        let cell = self
            .rows
            .get(row)
            .and_then(|r| r.cells.get(column))
            .copied()
            .flatten();
        match (cell, self.best.get(column).copied().flatten()) {
            (Some(cell), Some(best)) => cell.mean == best,
            _ => false,
        }
    }
}

fn settings(doc: &ScoreDocument) -> Vec<Option<String>> {
    let keys: Vec<&EntryKey> = doc.entries.iter().map(|e| &e.key).collect();
    crate::core::panel::settings_of(&keys)
}

/// The main leaderboard (or one jurisdiction's), as `view` says.
///
/// ```
/// use engine::dlawbench::leaderboard::{main_table, TableView};
/// use engine::dlawbench::score::summarise_runs;
/// let table = main_table(&summarise_runs([], &[]), &TableView::default());
/// assert_eq!(table.columns.len(), 7);
/// assert!(table.rows.is_empty());
/// ```
pub fn main_table(doc: &ScoreDocument, view: &TableView) -> Table {
    let columns: Vec<Metric> = COLUMN_GROUPS
        .iter()
        .flat_map(|(_, c)| c.iter().copied())
        .collect();
    let settings = settings(doc);
    let chosen = view.view;
    let mut rank = 0;
    let rows: Vec<Row> = order_at(doc, view.jurisdiction)
        .into_iter()
        .map(|i| {
            let entry = &doc.entries[i];
            let cells: Vec<Option<MeanStd>> = columns
                .iter()
                .map(|m| {
                    level(entry, chosen, view.jurisdiction)
                        .and_then(|s| s.get(m).copied().flatten())
                })
                .collect();
            let ranked = value(
                level(entry, View::NullAsZero, view.jurisdiction),
                Metric::Resolution,
            )
            .is_some();
            Row {
                rank: ranked.then(|| {
                    rank += 1;
                    rank
                }),
                entry: i,
                model: entry.model.clone(),
                family: entry.family,
                setting: settings[i].clone(),
                runs: entry.runs,
                failures: entry.counts.failed(),
                unavailable: entry.counts.unavailable,
                degraded: entry.counts.degraded,
                badge: badge(entry),
                cells,
            }
        })
        .collect();
    let best = columns
        .iter()
        .enumerate()
        .map(|(c, metric)| {
            metric
                .better()
                .best(rows.iter().filter_map(|r| r.cells[c].map(|m| m.mean)))
        })
        .collect();
    Table {
        view: chosen,
        jurisdiction: view.jurisdiction,
        columns,
        rows,
        best,
    }
}

/// A value as the leaderboard prints it: 3 decimals, `± std` when the
/// entry has more than one run with a value.
///
/// ```
/// use engine::metrics::MeanStd;
/// use engine::dlawbench::leaderboard::format_cell;
/// assert_eq!(format_cell(&MeanStd { mean: 0.7065, std: None }), "0.707");
/// assert_eq!(format_cell(&MeanStd { mean: 0.5, std: Some(0.0123) }), "0.500 ± 0.012");
/// ```
pub fn format_cell(m: &MeanStd) -> String {
    crate::core::columns::Scale::Unit.cell(m)
}

fn csv_value(value: Option<f64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// The table as CSV: `rank,model,family,setting,runs,failures,
/// unavailable,degraded,badge`, then per column `<metric>_mean` and
/// `<metric>_std` at full precision, every cell through
/// [`crate::spreadsheet`].
///
/// ```
/// use engine::dlawbench::leaderboard::{main_table, to_csv, TableView};
/// use engine::dlawbench::score::summarise_runs;
/// let csv = to_csv(&main_table(&summarise_runs([], &[]), &TableView::default()));
/// assert!(csv.starts_with("rank,model,family,setting,runs,failures,unavailable,degraded,badge,elicitation_mean,elicitation_std,fact_coverage_mean,"));
/// ```
pub fn to_csv(table: &Table) -> String {
    let mut header: Vec<String> = [
        "rank",
        "model",
        "family",
        "setting",
        "runs",
        "failures",
        "unavailable",
        "degraded",
        "badge",
    ]
    .map(str::to_owned)
    .into();
    for m in &table.columns {
        header.push(format!("{}_mean", m.as_str()));
        header.push(format!("{}_std", m.as_str()));
    }
    let mut records = vec![header];
    for row in &table.rows {
        let mut record = vec![
            row.rank.map(|r| r.to_string()).unwrap_or_default(),
            row.model.clone(),
            row.family
                .map(|f| f.as_str().to_owned())
                .unwrap_or_default(),
            row.setting.clone().unwrap_or_default(),
            row.runs.to_string(),
            row.failures.to_string(),
            row.unavailable.to_string(),
            row.degraded.to_string(),
            row.badge.map(|b| b.as_str().to_owned()).unwrap_or_default(),
        ];
        for cell in &row.cells {
            record.push(csv_value(cell.map(|m| m.mean)));
            record.push(csv_value(cell.and_then(|m| m.std)));
        }
        records.push(record);
    }
    crate::spreadsheet::to_csv(records)
}

fn latex_cell(cell: Option<MeanStd>, best: bool) -> String {
    let Some(m) = cell else {
        return "--".to_owned();
    };
    let text = match m.std {
        Some(std) => format!("{:.3}$\\pm${std:.3}", m.mean),
        None => format!("{:.3}", m.mean),
    };
    if best {
        format!("\\textbf{{{text}}}")
    } else {
        text
    }
}

/// The table as a LaTeX `table*` (booktabs): Rank, Model, Family, then the
/// seven metrics under their three ability headers (`\cmidrule`), 3
/// decimals with `$\pm$` std, the best of each column bold, `--` where
/// there is no value.
///
/// ```
/// use engine::dlawbench::leaderboard::{main_table, to_latex, TableView};
/// use engine::dlawbench::score::summarise_runs;
/// let tex = to_latex(&main_table(&summarise_runs([], &[]), &TableView::default()), "DLawBench");
/// assert!(tex.contains("\\multicolumn{3}{c}{Elicitation} & \\multicolumn{3}{c}{Resolution} & Fidelity"));
/// ```
pub fn to_latex(table: &Table, caption: &str) -> String {
    let mut out = String::from("\\begin{table*}[t]\n\\centering\n\\small\n");
    out.push_str(&format!(
        "\\begin{{tabular}}{{rll{}}}\n\\toprule\n",
        "c".repeat(table.columns.len())
    ));
    out.push_str(" & & ");
    let mut at = 4;
    let mut rules = Vec::new();
    for (ability, columns) in COLUMN_GROUPS {
        out.push_str(" & ");
        if columns.len() > 1 {
            out.push_str(&format!(
                "\\multicolumn{{{}}}{{c}}{{{}}}",
                columns.len(),
                ability.label_en()
            ));
        } else {
            out.push_str(ability.label_en());
        }
        rules.push(format!("\\cmidrule(lr){{{at}-{}}}", at + columns.len() - 1));
        at += columns.len();
    }
    out.push_str(" \\\\\n");
    out.push_str(&rules.join(" "));
    out.push_str("\nRank & Model & Family");
    for m in &table.columns {
        out.push_str(&format!(" & {}", latex_escape(m.label_en())));
    }
    out.push_str(" \\\\\n\\midrule\n");
    for (r, row) in table.rows.iter().enumerate() {
        out.push_str(&format!(
            "{} & {} & {}",
            row.rank
                .map(|n| n.to_string())
                .unwrap_or_else(|| "--".into()),
            latex_escape(&match &row.setting {
                Some(s) => format!("{} ({s})", row.model),
                None => row.model.clone(),
            }),
            row.family.map_or("--", |f| f.as_str()),
        ));
        for (c, cell) in row.cells.iter().enumerate() {
            out.push_str(&format!(" & {}", latex_cell(*cell, table.is_best(r, c))));
        }
        out.push_str(" \\\\\n");
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    out.push_str(&format!(
        "\\caption{{{}}}\n\\end{{table*}}\n",
        latex_escape(caption)
    ));
    out
}

/// A caption for the table: the level, the view, how rows are ordered.
///
/// ```
/// use engine::dlawbench::leaderboard::{caption, main_table, TableView};
/// use engine::dlawbench::score::summarise_runs;
/// let table = main_table(&summarise_runs([], &[]), &TableView::from_query(Some("valid_only"), Some("us")));
/// assert_eq!(caption(&table), "DLawBench, U.S. law, valid-only means (task failures left out): ranked by Resolution (null-as-zero), best of each column in bold.");
/// ```
pub fn caption(table: &Table) -> String {
    let level = match table.jurisdiction {
        None => "mean of Chinese-law and U.S.-law values".to_owned(),
        Some(j) => j.label_en().to_owned(),
    };
    let view = match table.view {
        View::NullAsZero => "null-as-zero means (task failures count 0)",
        View::ValidOnly => "valid-only means (task failures left out)",
    };
    let runs = if table.rows.iter().any(|r| r.runs > 1) {
        ", mean ± sample std over runs"
    } else {
        ""
    };
    format!("DLawBench, {level}, {view}{runs}: ranked by Resolution (null-as-zero), best of each column in bold.")
}

/// One entry of the style table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StyleEntry {
    /// The entry's index in the score document.
    pub entry: usize,
    /// The lawyer model.
    pub model: String,
    /// A warning, if any.
    pub badge: Option<Badge>,
    /// Per style the entry has, every metric.
    pub styles: BTreeMap<Style, Summary>,
    /// Per style other than cooperative, Δ vs cooperative.
    pub gap: BTreeMap<Style, Summary>,
}

/// Style sensitivity (Figure 5, Figures 6–8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StyleTable {
    /// The view.
    pub view: View,
    /// Entries in rank order.
    pub entries: Vec<StyleEntry>,
    /// Per style, the mean over entries of each metric (entries with a
    /// value); the summary card.
    pub summary: BTreeMap<Style, BTreeMap<Metric, Option<f64>>>,
    /// Per style other than cooperative, the mean over entries of Δ.
    pub summary_gap: BTreeMap<Style, BTreeMap<Metric, Option<f64>>>,
}

fn mean_over(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let v: Vec<f64> = values.flatten().collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn card(
    entries: &[StyleEntry],
    pick: impl Fn(&StyleEntry) -> &BTreeMap<Style, Summary>,
) -> BTreeMap<Style, BTreeMap<Metric, Option<f64>>> {
    Style::ALL
        .into_iter()
        .filter(|s| entries.iter().any(|e| pick(e).contains_key(s)))
        .map(|s| {
            let metrics = Metric::ALL
                .into_iter()
                .map(|m| {
                    let values = entries.iter().map(|e| {
                        pick(e)
                            .get(&s)
                            .and_then(|x| x.get(&m).copied().flatten())
                            .map(|x| x.mean)
                    });
                    (m, mean_over(values))
                })
                .collect();
            (s, metrics)
        })
        .collect()
}

/// The style table of `doc` in `view`.
///
/// ```
/// use engine::dlawbench::leaderboard::style_table;
/// use engine::dlawbench::score::{summarise_runs, View};
/// assert!(style_table(&summarise_runs([], &[]), View::NullAsZero).summary.is_empty());
/// ```
pub fn style_table(doc: &ScoreDocument, view: View) -> StyleTable {
    let entries: Vec<StyleEntry> = rank_order(doc)
        .into_iter()
        .map(|i| {
            let e = &doc.entries[i];
            StyleEntry {
                entry: i,
                model: e.model.clone(),
                badge: badge(e),
                styles: e.view(view).by_style.clone(),
                gap: e.view(view).style_gap.clone(),
            }
        })
        .collect();
    StyleTable {
        view,
        summary: card(&entries, |e| &e.styles),
        summary_gap: card(&entries, |e| &e.gap),
        entries,
    }
}

/// One cell of the domain table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DomainCell {
    /// Mean ± std over the entry's runs.
    pub value: Option<MeanStd>,
    /// Sessions behind it, over every run.
    pub n: usize,
}

/// One (jurisdiction, domain) row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DomainRow {
    /// The jurisdiction.
    pub jurisdiction: Jurisdiction,
    /// The domain key.
    pub domain: String,
    /// Its (Chinese, English) labels, when it is a recommended key.
    pub label: Option<(String, String)>,
    /// Per selected entry, per [`Metric::ABILITIES`].
    pub cells: Vec<Vec<DomainCell>>,
}

/// The domain table (Table 17).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DomainTable {
    /// The view.
    pub view: View,
    /// The selected entries' indices, and their models.
    pub entries: Vec<(usize, String)>,
    /// Rows by jurisdiction, then domain key.
    pub rows: Vec<DomainRow>,
}

/// How many entries the domain table shows by default.
pub const DOMAIN_TABLE_ENTRIES: usize = 6;

/// The domain table of `doc`: the `selected` entries (indices into
/// `doc.entries`; default the top [`DOMAIN_TABLE_ENTRIES`] by rank), their
/// values from the document and the session counts from `runs` (each run's
/// scores with its entry key, as given to [`super::score::summarise_runs`]).
///
/// ```
/// use engine::dlawbench::leaderboard::domain_table;
/// use engine::dlawbench::score::{summarise_runs, View};
/// assert!(domain_table(&summarise_runs([], &[]), &[], View::NullAsZero, None).rows.is_empty());
/// ```
pub fn domain_table(
    doc: &ScoreDocument,
    runs: &[(EntryKey, RunScores)],
    view: View,
    selected: Option<&[usize]>,
) -> DomainTable {
    let chosen: Vec<usize> = match selected {
        Some(s) => s
            .iter()
            .copied()
            .filter(|&i| i < doc.entries.len())
            .collect(),
        None => rank_order(doc)
            .into_iter()
            .take(DOMAIN_TABLE_ENTRIES)
            .collect(),
    };
    let mut keys: Vec<&String> = chosen
        .iter()
        .flat_map(|&i| doc.entries[i].view(view).by_domain.keys())
        .collect();
    keys.sort();
    keys.dedup();
    let rows = keys
        .into_iter()
        .filter_map(|key| {
            let (j, domain) = key.split_once('/')?;
            let jurisdiction = Jurisdiction::parse(j)?;
            let cells = chosen
                .iter()
                .map(|&i| {
                    let entry = &doc.entries[i];
                    let summary = entry.view(view).by_domain.get(key);
                    Metric::ABILITIES
                        .into_iter()
                        .map(|m| DomainCell {
                            value: summary.and_then(|s| s.get(&m).copied().flatten()),
                            n: runs
                                .iter()
                                .filter(|(k, _)| *k == entry.key)
                                .filter_map(|(_, r)| {
                                    r.view(view).by_domain.get(key)?.get(&m).map(|c| c.n)
                                })
                                .sum(),
                        })
                        .collect()
                })
                .collect();
            Some(DomainRow {
                jurisdiction,
                domain: domain.to_owned(),
                label: domain_label(domain).map(|(zh, en)| (zh.to_owned(), en.to_owned())),
                cells,
            })
        })
        .collect();
    DomainTable {
        view,
        entries: chosen
            .iter()
            .map(|&i| (i, doc.entries[i].model.clone()))
            .collect(),
        rows,
    }
}

/// The domain table as CSV: `jurisdiction,domain`, then per entry and
/// ability `<model>:<metric>_mean`, `_std` and `_n`.
pub fn domain_to_csv(table: &DomainTable) -> String {
    let mut header = vec!["jurisdiction".to_owned(), "domain".to_owned()];
    for (_, model) in &table.entries {
        for m in Metric::ABILITIES {
            for part in ["mean", "std", "n"] {
                header.push(format!("{model}:{}_{part}", m.as_str()));
            }
        }
    }
    let mut records = vec![header];
    for row in &table.rows {
        let mut record = vec![row.jurisdiction.as_str().to_owned(), row.domain.clone()];
        for cells in &row.cells {
            for cell in cells {
                record.push(csv_value(cell.value.map(|m| m.mean)));
                record.push(csv_value(cell.value.and_then(|m| m.std)));
                record.push(cell.n.to_string());
            }
        }
        records.push(record);
    }
    crate::spreadsheet::to_csv(records)
}

pub use crate::review::pearson;

/// Pearson r between entry-level abilities (overall null-as-zero means of
/// the entries that have all three).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Correlations {
    /// The entries used.
    pub entries: usize,
    /// Elicitation vs Resolution.
    pub elicitation_resolution: Option<f64>,
    /// Elicitation vs Fidelity.
    pub elicitation_fidelity: Option<f64>,
    /// Resolution vs Fidelity.
    pub resolution_fidelity: Option<f64>,
}

/// One entry of the diagnostics page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiagnosticRow {
    /// The entry's index in the score document.
    pub entry: usize,
    /// The lawyer model.
    pub model: String,
    /// Overall Fact Coverage (null-as-zero).
    pub fact_coverage: Option<MeanStd>,
    /// Overall Fact Resolution (null-as-zero).
    pub fact_resolution: Option<MeanStd>,
    /// Conditional correctness and the panel diagnostics.
    pub diagnostics: Diagnostics,
    /// Task failures, over every run.
    pub failures: usize,
    /// Unavailable sessions.
    pub unavailable: usize,
    /// Degraded sessions.
    pub degraded: usize,
    /// Recused seats.
    pub recused_seats: usize,
    /// Unavailable judge seats.
    pub judge_unavailable_seats: usize,
}

impl DiagnosticRow {
    /// The panel's judges.
    pub fn judges(&self) -> &[JudgeSummary] {
        &self.diagnostics.judges
    }

    /// |median − mean| of one metric.
    pub fn gap(&self, metric: Metric) -> Option<&GapSummary> {
        self.diagnostics.median_mean_gap.get(&metric)
    }
}

/// The columns of the diagnostics table by key, each with which way is
/// better: failures, unavailable sessions and seats, degraded panels and
/// the judges' |median − mean| are better low; recused seats follow the
/// panel's vendors and have no best.
///
/// ```
/// use engine::core::columns::Better;
/// use engine::dlawbench::leaderboard::DIAGNOSTIC_COLUMNS;
/// let better = |key| DIAGNOSTIC_COLUMNS.iter().find(|(k, _)| *k == key).map(|(_, b)| *b);
/// assert_eq!(better("median_mean_gap"), Some(Better::Lower));
/// assert_eq!(better("conditional_correctness"), Some(Better::Higher));
/// ```
pub const DIAGNOSTIC_COLUMNS: [(&str, Better); 9] = [
    ("conditional_correctness", Better::Higher),
    ("fact_coverage", Better::Higher),
    ("fact_resolution", Better::Higher),
    ("failures", Better::Lower),
    ("unavailable", Better::Lower),
    ("degraded", Better::Lower),
    ("recused_seats", Better::Neither),
    ("judge_unavailable_seats", Better::Lower),
    ("median_mean_gap", Better::Lower),
];

/// The diagnostics page (§A6.6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiagnosticsView {
    /// Entries in rank order.
    pub rows: Vec<DiagnosticRow>,
    /// Between entry-level abilities.
    pub correlations: Correlations,
}

/// The diagnostics of `doc`.
///
/// ```
/// use engine::dlawbench::leaderboard::diagnostics;
/// use engine::dlawbench::score::summarise_runs;
/// assert_eq!(diagnostics(&summarise_runs([], &[])).correlations.elicitation_resolution, None);
/// ```
pub fn diagnostics(doc: &ScoreDocument) -> DiagnosticsView {
    let rows = rank_order(doc)
        .into_iter()
        .map(|i| {
            let e = &doc.entries[i];
            DiagnosticRow {
                entry: i,
                model: e.model.clone(),
                fact_coverage: e.overall(Metric::FactCoverage, View::NullAsZero),
                fact_resolution: e.overall(Metric::FactResolution, View::NullAsZero),
                diagnostics: e.diagnostics.clone(),
                failures: e.counts.failed(),
                unavailable: e.counts.unavailable,
                degraded: e.counts.degraded,
                recused_seats: e.counts.recused_seats,
                judge_unavailable_seats: e.counts.judge_unavailable_seats,
            }
        })
        .collect();
    let triples: Vec<[f64; 3]> = doc
        .entries
        .iter()
        .filter_map(|e| {
            let v = |m| e.overall(m, View::NullAsZero).map(|x| x.mean);
            Some([
                v(Metric::Elicitation)?,
                v(Metric::Resolution)?,
                v(Metric::Fidelity)?,
            ])
        })
        .collect();
    let column = |k: usize| triples.iter().map(|t| t[k]).collect::<Vec<_>>();
    let (e, r, f) = (column(0), column(1), column(2));
    DiagnosticsView {
        rows,
        correlations: Correlations {
            entries: triples.len(),
            elicitation_resolution: pearson(&e, &r),
            elicitation_fidelity: pearson(&e, &f),
            resolution_fidelity: pearson(&r, &f),
        },
    }
}

/// One metric of [`AggregationTable`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AggregationRow {
    pub metric: Metric,
    /// Three-judge observations: sessions where the metric (for a derived
    /// one, both its components) had three judge values.
    pub observations: usize,
    /// The mean |median − mean| over them; `None` without any.
    pub mean_abs: Option<f64>,
    /// The share of them with |median − mean| > 0.05.
    pub share_over_005: Option<f64>,
}

/// [D]'s Table 22: how far the median the panel uses lies from a mean of
/// the three judges, per metric, every three-judge observation of every
/// stored run pooled (as the paper pools its 168,383).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AggregationTable {
    /// The runs pooled.
    pub runs: usize,
    /// One row per metric, in [`Metric::ALL`] order.
    pub rows: Vec<AggregationRow>,
}

/// Table 22 over `runs` (each run's scores with its entry key, as for
/// [`domain_table`]): each run's per-metric gap ([`super::score::Gap`]),
/// weighted by its observations.
///
/// ```
/// use engine::dlawbench::leaderboard::aggregation_table;
/// let table = aggregation_table(&[]);
/// assert_eq!(table.rows.len(), 7);
/// assert_eq!(table.rows[0].mean_abs, None);
/// ```
pub fn aggregation_table(runs: &[(EntryKey, RunScores)]) -> AggregationTable {
    let rows = Metric::ALL
        .into_iter()
        .map(|metric| {
            let gaps: Vec<_> = runs
                .iter()
                .filter_map(|(_, r)| r.panel.median_mean_gap.get(&metric))
                .filter(|g| g.sessions > 0)
                .collect();
            let observations: usize = gaps.iter().map(|g| g.sessions).sum();
            let weighted = |pick: fn(&super::score::Gap) -> Option<f64>| {
                (observations > 0).then(|| {
                    gaps.iter()
                        .map(|g| pick(g).unwrap_or(0.0) * g.sessions as f64)
                        .sum::<f64>()
                        / observations as f64
                })
            };
            // The share of a run is k / n: its count of sessions over 0.05
            // is a whole number, recovered exactly.
            let over: f64 = gaps
                .iter()
                .map(|g| (g.share_over_005.unwrap_or(0.0) * g.sessions as f64).round())
                .sum();
            AggregationRow {
                metric,
                observations,
                mean_abs: weighted(|g| g.mean_abs),
                share_over_005: (observations > 0).then(|| over / observations as f64),
            }
        })
        .collect();
    AggregationTable {
        runs: runs.len(),
        rows,
    }
}

/// The (view, column) pairs a reference row ([`crate::reference`]) may
/// give on this leaderboard: the main table's seven metrics
/// ([`COLUMN_GROUPS`]) in each of its views, `null_as_zero` and
/// `valid_only` for the overall table (the paper's Table 4 is the
/// null-as-zero one) and `<view>/<jurisdiction>` for a jurisdiction's
/// (Tables 15 and 16).
///
/// ```
/// let pairs = engine::dlawbench::leaderboard::reference_columns();
/// assert_eq!(pairs.len(), 6 * 7);
/// assert!(pairs.contains(&("null_as_zero".into(), "resolution".into())));
/// assert!(pairs.contains(&("valid_only/us".into(), "fidelity".into())));
/// ```
pub fn reference_columns() -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for view in View::ALL {
        for jurisdiction in std::iter::once(None).chain(Jurisdiction::ALL.map(Some)) {
            let name = reference_view(&TableView { view, jurisdiction });
            for (_, metrics) in COLUMN_GROUPS {
                for m in metrics {
                    pairs.push((name.clone(), m.as_str().to_owned()));
                }
            }
        }
    }
    pairs
}

/// The reference view of a table: `null_as_zero`, or `null_as_zero/cn`.
pub fn reference_view(view: &TableView) -> String {
    match view.jurisdiction {
        None => view.view.as_str().to_owned(),
        Some(j) => format!("{}/{}", view.view.as_str(), j.as_str()),
    }
}
