//! Leaderboard tables (the paper's Tables 2, 3 and 14) built from a score
//! document: one view per task, rows the entries grouped by family, columns
//! the six classes and overall (plus Acc_C / Acc_U for LCA; the three setups,
//! gain and relative degradation for LJP), cells mean ± sample std; and the
//! same tables as CSV and as a LaTeX table in the paper's layout. Every
//! column declares which way is better ([`Column::better`]): the best of a
//! column (bold on the page and in LaTeX) and a sort by it follow that, so
//! the lowest relative degradation is the best one.

use serde::{Deserialize, Serialize};

use crate::core::columns::Better;
use crate::core::table::latex_escape;

use crate::core::entry::Family;
use crate::lexpilot::run::Task;
use crate::lexpilot::score::{EntryScores, Metric, ScoreDocument};
use crate::metrics::MeanStd;
use crate::vocab::{Class, LjpSetup};

/// What the page shows: a task, for LJP the setup of the per-class columns,
/// and the column rows are sorted by (best first) within each family.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    pub task: Task,
    pub setup: LjpSetup,
    pub sort: Option<String>,
}

impl View {
    pub fn from_query(task: Option<String>, setup: Option<String>, sort: Option<String>) -> View {
        View {
            task: task.as_deref().and_then(Task::parse).unwrap_or(Task::Lca),
            setup: setup
                .as_deref()
                .and_then(LjpSetup::parse)
                .unwrap_or(LjpSetup::Interaction),
            sort,
        }
    }
}

/// One column of a [`Table`]. Its JSON is `[key, label, better]`: the
/// `[key, label]` pairs the export has always written, with the direction
/// third.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "(String, String, Better)", into = "(String, String, Better)")]
pub struct Column {
    /// The URL and CSV key (`tort`, `overall_gold`, `relative_degradation`).
    pub key: String,
    /// The header as the paper writes it.
    pub label: String,
    /// Which way is better: the relative degradation is best lowest.
    pub better: Better,
}

impl From<(String, String, Better)> for Column {
    fn from((key, label, better): (String, String, Better)) -> Column {
        Column { key, label, better }
    }
}

impl From<Column> for (String, String, Better) {
    fn from(c: Column) -> Self {
        (c.key, c.label, c.better)
    }
}

/// A table ready to render: its columns, rows with their cells, and per
/// column the best mean (the highest, or the lowest where lower is better).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    pub best: Vec<Option<f64>>,
}

impl Table {
    /// Whether the cell in `row`, `column` holds its column's best mean
    /// (ties are all best).
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The row's entry: its index in the score document's `entries`.
    pub entry: usize,
    pub model: String,
    /// What sets the entry apart from other rows of the same model: its user
    /// condition when not the standard user (`lexpilot run --user-condition`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting: Option<String>,
    pub family: Option<Family>,
    pub runs: usize,
    /// Items the entry's runs left unavailable (excluded from its scores).
    pub unavailable: usize,
    /// Why the entry cannot be compared with the rest (with the entry most
    /// others are comparable with,
    /// [`crate::lexpilot::entries::not_comparable_with_most`]); empty when it can.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_comparable: Vec<String>,
    pub cells: Vec<Option<MeanStd>>,
}

impl Row {
    /// The model, with the entry's setting in parentheses when it has one.
    pub fn label(&self) -> String {
        match &self.setting {
            Some(setting) => format!("{} ({setting})", self.model),
            None => self.model.clone(),
        }
    }
}

type Pick = Box<dyn Fn(&EntryScores) -> Option<MeanStd>>;

/// A column and how its cells are read from an entry.
struct Picked {
    column: Column,
    pick: Pick,
}

fn picked(key: impl Into<String>, label: impl Into<String>, better: Better, pick: Pick) -> Picked {
    Picked {
        column: Column {
            key: key.into(),
            label: label.into(),
            better,
        },
        pick,
    }
}

fn per_class(
    pick: impl Fn(&EntryScores, Option<Class>) -> Option<MeanStd> + Copy + 'static,
) -> Vec<Picked> {
    Class::ALL
        .into_iter()
        .map(|c| {
            picked(
                c.as_str(),
                c.label_en(),
                Better::Higher,
                Box::new(move |e: &EntryScores| pick(e, Some(c))),
            )
        })
        .chain(std::iter::once(picked(
            "overall",
            "Overall",
            Better::Higher,
            Box::new(move |e: &EntryScores| pick(e, None)),
        )))
        .collect()
}

fn scalar(value: Option<Option<f64>>) -> Option<MeanStd> {
    value.flatten().map(|mean| MeanStd { mean, std: None })
}

fn columns(view: &View) -> Vec<Picked> {
    match view.task {
        Task::Lca => {
            let mut cols = per_class(|e, c| e.lca.as_ref()?.get(c)?.as_ref()?.macro_f1);
            cols.push(picked(
                "acc_complete",
                "Acc_C",
                Better::Higher,
                Box::new(|e| e.lca.as_ref()?.overall.as_ref()?.acc_complete),
            ));
            cols.push(picked(
                "acc_underspecified",
                "Acc_U",
                Better::Higher,
                Box::new(|e| e.lca.as_ref()?.overall.as_ref()?.acc_underspecified),
            ));
            cols
        }
        Task::Dcg => per_class(|e, c| e.dcg.as_ref()?.get(c)?.as_ref()?.accuracy),
        Task::Ljp => {
            let setup = view.setup;
            let mut cols: Vec<Picked> = Class::ALL
                .into_iter()
                .map(|c| {
                    let pick: Pick = Box::new(move |e: &EntryScores| {
                        e.ljp
                            .as_ref()?
                            .by_class
                            .get(&c)?
                            .setups
                            .get(&setup)
                            .copied()
                            .flatten()?
                            .qwk
                    });
                    picked(c.as_str(), c.label_en(), Better::Higher, pick)
                })
                .collect();
            for s in LjpSetup::ALL {
                let pick: Pick = Box::new(move |e: &EntryScores| {
                    e.ljp
                        .as_ref()?
                        .overall
                        .setups
                        .get(&s)
                        .copied()
                        .flatten()?
                        .qwk
                });
                cols.push(picked(
                    format!("overall_{}", s.as_str()),
                    format!("Overall {}", s.label_en()),
                    Better::Higher,
                    pick,
                ));
            }
            cols.push(picked(
                "gain",
                "Gain",
                Better::Higher,
                Box::new(|e| scalar(e.ljp.as_ref().map(|l| l.overall.gain.flatten()))),
            ));
            // (gold − interaction) / gold: what the model loses by asking
            // instead of being told, so the smallest is best.
            cols.push(picked(
                "relative_degradation",
                "Rel. degradation",
                Better::Lower,
                Box::new(|e| {
                    scalar(
                        e.ljp
                            .as_ref()
                            .map(|l| l.overall.relative_degradation.flatten()),
                    )
                }),
            ));
            cols
        }
    }
}

/// The metric and class behind column `key` of `view`, which a confidence
/// interval resamples; `None` for the derived LJP columns (gain, relative
/// degradation) and unknown keys.
///
/// ```
/// use engine::lexpilot::leaderboard::{column_metric, View};
/// use engine::lexpilot::score::Metric;
/// use engine::vocab::{Class, LjpSetup};
///
/// let ljp = View::from_query(Some("ljp".into()), Some("direct".into()), None);
/// assert_eq!(column_metric(&ljp, "tort"), Some((Metric::LjpQwk(LjpSetup::Direct), Some(Class::Tort))));
/// assert_eq!(column_metric(&ljp, "overall_gold"), Some((Metric::LjpQwk(LjpSetup::Gold), None)));
/// assert_eq!(column_metric(&ljp, "gain"), None);
/// let lca = View::from_query(None, None, None);
/// assert_eq!(column_metric(&lca, "acc_complete"), Some((Metric::LcaAccComplete, None)));
/// ```
pub fn column_metric(view: &View, key: &str) -> Option<(Metric, Option<Class>)> {
    let class = match key {
        "overall" => None,
        _ => Class::parse(key).map(Some).unwrap_or(None),
    };
    let known_class = key == "overall" || class.is_some();
    match view.task {
        Task::Lca => match key {
            "acc_complete" => Some((Metric::LcaAccComplete, None)),
            "acc_underspecified" => Some((Metric::LcaAccUnderspecified, None)),
            _ => known_class.then_some((Metric::LcaMacroF1, class)),
        },
        Task::Dcg => known_class.then_some((Metric::DcgAccuracy, class)),
        Task::Ljp => match key.strip_prefix("overall_").and_then(LjpSetup::parse) {
            Some(setup) => Some((Metric::LjpQwk(setup), None)),
            None => (class.is_some()).then_some((Metric::LjpQwk(view.setup), class)),
        },
    }
}

fn family_rank(f: Option<Family>) -> usize {
    match f {
        Some(Family::Legal) => 0,
        Some(Family::Open) => 1,
        Some(Family::Closed) => 2,
        None => 3,
    }
}

/// Column `key`'s name in `lang` (its English `label` as [`build_table`]
/// names it): in Chinese a class is named short (pages show the full name
/// as the tooltip), the overall, gain and degradation columns in words.
/// The pages and the model page's export name columns with it.
pub fn column_label(lang: crate::lang::Lang, key: &str, label: &str) -> String {
    if lang == crate::lang::Lang::En {
        return label.to_owned();
    }
    let class = |k: &str| match Class::parse(k)? {
        Class::Family => Some("婚姻家庭继承"),
        Class::RealRights => Some("物权"),
        Class::Tort => Some("侵权"),
        Class::ServiceContract => Some("劳动服务合同"),
        Class::FinanceContract => Some("交易金融合同"),
        Class::Misc => Some("其他"),
    };
    if let Some(short) = class(key) {
        return short.to_owned();
    }
    if let Some(setup) = key.strip_prefix("overall_").and_then(LjpSetup::parse) {
        return format!("总体 · {}", setup.label_zh());
    }
    match key {
        "overall" => "总体".to_owned(),
        "gain" => "增益".to_owned(),
        "relative_degradation" => "相对下降".to_owned(),
        _ => label.to_owned(),
    }
}

/// Builds the table of `view` from the score document: entries that lack the
/// task are left out; rows are grouped by family (legal, open, closed, other)
/// and, within a family, sorted by the `sort` column (best first as the
/// column's [`Better`] says, missing last); each column's best follows it too.
pub fn build_table(doc: &ScoreDocument, view: &View) -> Table {
    let cols = columns(view);
    let keys: Vec<&crate::core::entry::EntryKey> = doc.entries.iter().map(|e| &e.key).collect();
    let flags = crate::lexpilot::entries::not_comparable_with_most(&keys);
    let mut rows: Vec<Row> = doc
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| match view.task {
            Task::Lca => e.lca.is_some(),
            Task::Dcg => e.dcg.is_some(),
            Task::Ljp => e.ljp.is_some(),
        })
        .map(|(entry, e)| Row {
            entry,
            model: e.model.clone(),
            setting: e
                .key
                .extra
                .get("user_condition")
                .and_then(|v| v.as_str())
                .filter(|c| *c != "standard")
                .map(str::to_owned),
            family: e.family,
            runs: e.runs,
            unavailable: e.unavailable,
            not_comparable: flags.get(entry).cloned().unwrap_or_default(),
            cells: cols.iter().map(|c| (c.pick)(e)).collect(),
        })
        .collect();
    let columns: Vec<Column> = cols.into_iter().map(|c| c.column).collect();
    let sort_index = view
        .sort
        .as_deref()
        .and_then(|key| columns.iter().position(|c| c.key == key));
    rows.sort_by(|a, b| {
        let by_family = family_rank(a.family).cmp(&family_rank(b.family));
        let by_value = sort_index.map_or(std::cmp::Ordering::Equal, |i| {
            let value = |r: &Row| r.cells[i].map(|m| m.mean);
            columns[i].better.best_first(value(a), value(b))
        });
        by_family.then(by_value)
    });
    let best = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            c.better
                .best(rows.iter().filter_map(|r| r.cells[i].map(|m| m.mean)))
        })
        .collect();
    Table {
        columns,
        rows,
        best,
    }
}

/// A cell as the tables print it: `mean ± std` to 4 decimals, or the mean alone
/// when there is no std (one run, or a derived figure such as the gain).
///
/// ```
/// use engine::metrics::MeanStd;
/// let cell = MeanStd { mean: 0.72116, std: Some(0.009) };
/// assert_eq!(engine::lexpilot::leaderboard::format_cell(&cell), "0.7212 ± 0.0090");
/// ```
pub fn format_cell(m: &MeanStd) -> String {
    match m.std {
        Some(std) => format!("{:.4} ± {std:.4}", m.mean),
        None => format!("{:.4}", m.mean),
    }
}

/// The table as CSV: `model,family,runs`, then per column `<key>_mean` and
/// `<key>_std` (empty where there is no value); a model name that a
/// spreadsheet would read as a formula is neutralised
/// ([`crate::spreadsheet`]).
pub fn to_csv(table: &Table) -> String {
    let mut header = vec!["model".to_owned(), "family".to_owned(), "runs".to_owned()];
    for column in &table.columns {
        header.push(format!("{}_mean", column.key));
        header.push(format!("{}_std", column.key));
    }
    let mut records = vec![header];
    for row in &table.rows {
        let mut record = vec![
            row.label(),
            row.family
                .map(|f| f.as_str().to_owned())
                .unwrap_or_default(),
            row.runs.to_string(),
        ];
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

/// The table as a LaTeX `table*` in the paper's layout (needs `booktabs`): a
/// header row, then each family as a block with its name in the first column
/// (`\midrule` between blocks), values to 4 decimals with `$\pm$` std, and the
/// best value of each column in bold (the lowest where lower is better).
pub fn to_latex(table: &Table, caption: &str) -> String {
    let mut out = String::from("\\begin{table*}[t]\n\\centering\n\\small\n");
    out.push_str(&format!(
        "\\begin{{tabular}}{{ll{}}}\n\\toprule\n",
        "c".repeat(table.columns.len())
    ));
    out.push_str("Category & Model");
    for column in &table.columns {
        out.push_str(&format!(" & {}", latex_escape(&column.label)));
    }
    out.push_str(" \\\\\n\\midrule\n");
    let mut last: Option<Option<Family>> = None;
    for (r, row) in table.rows.iter().enumerate() {
        let category = if last != Some(row.family) {
            if last.is_some() {
                out.push_str("\\midrule\n");
            }
            last = Some(row.family);
            row.family.map_or("Other", |f| f.label_en())
        } else {
            ""
        };
        out.push_str(&format!(
            "{} & {}",
            latex_escape(category),
            latex_escape(&row.label())
        ));
        for (c, cell) in row.cells.iter().enumerate() {
            let text = match cell {
                None => "--".to_owned(),
                Some(m) => {
                    let value = match m.std {
                        Some(std) => format!("{:.4}$\\pm${std:.4}", m.mean),
                        None => format!("{:.4}", m.mean),
                    };
                    if table.is_best(r, c) {
                        format!("\\textbf{{{value}}}")
                    } else {
                        value
                    }
                }
            };
            out.push_str(&format!(" & {text}"));
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

/// A caption for the table of `view`, e.g. `LJP (QWK, interaction per class)`.
pub fn caption(view: &View) -> String {
    match view.task {
        Task::Lca => "LCA (Macro-F1 per class; Acc_C and Acc_U overall)".to_owned(),
        Task::Dcg => "DCG (accuracy per class)".to_owned(),
        Task::Ljp => format!("LJP (QWK, {} setup per class)", view.setup.as_str()),
    }
}

/// The (view, column) pairs a reference row ([`crate::reference`]) may
/// give on this leaderboard: `lca` and `dcg` with their columns (the
/// paper's Tables 2 and 14), `ljp` with the columns that do not depend on
/// the setup (`overall_direct`, `overall_interaction`, `overall_gold`,
/// `gain`, `relative_degradation`: Table 3), and `ljp/<setup>` with the
/// per-class QWK under that setup (Tables 16 and 17).
///
/// ```
/// let pairs = engine::lexpilot::leaderboard::reference_columns();
/// assert!(pairs.contains(&("lca".into(), "acc_underspecified".into())));
/// assert!(pairs.contains(&("ljp".into(), "overall_gold".into())));
/// assert!(pairs.contains(&("ljp/direct".into(), "tort".into())));
/// assert!(!pairs.contains(&("ljp".into(), "tort".into())));
/// ```
pub fn reference_columns() -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for task in Task::ALL {
        for setup in LjpSetup::ALL {
            let view = View {
                task,
                setup,
                sort: None,
            };
            for key in columns(&view).into_iter().map(|c| c.column.key) {
                let name = reference_view(&view, &key);
                if !pairs.iter().any(|(v, k)| *v == name && *k == key) {
                    pairs.push((name, key));
                }
            }
        }
    }
    // Each task's own view first, then its per-setup views.
    pairs.sort_by_key(|(v, _)| {
        let task = v.split('/').next().and_then(Task::parse);
        (
            Task::ALL.iter().position(|t| Some(*t) == task),
            v.contains('/'),
        )
    });
    pairs
}

/// The reference view that gives column `key` of `view`: the task, and
/// for LJP's per-class columns the task and setup (`ljp/direct`).
pub fn reference_view(view: &View, key: &str) -> String {
    let per_setup = view.task == Task::Ljp && Class::parse(key).is_some();
    if per_setup {
        format!("{}/{}", view.task.as_str(), view.setup.as_str())
    } else {
        view.task.as_str().to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(model: &str, family: Option<Family>, f1: Option<f64>) -> EntryScores {
        let summary = f1.map(|mean| crate::lexpilot::score::LcaSummary {
            macro_f1: Some(MeanStd {
                mean,
                std: Some(0.01),
            }),
            acc_complete: None,
            acc_underspecified: None,
        });
        EntryScores {
            model: model.to_owned(),
            family,
            runs: 2,
            lca: Some(crate::lexpilot::score::Breakdown {
                overall: summary,
                by_class: Class::ALL.into_iter().map(|c| (c, None)).collect(),
            }),
            dcg: None,
            ljp: None,
            unavailable: 0,
            key: Default::default(),
        }
    }

    fn doc(entries: Vec<EntryScores>) -> ScoreDocument {
        ScoreDocument {
            dataset: None,
            cases: 10,
            entries,
        }
    }

    #[test]
    fn rows_group_by_family_then_sort_best_first() {
        let d = doc(vec![
            entry("C1", Some(Family::Closed), Some(0.6)),
            entry("L1", Some(Family::Legal), Some(0.4)),
            entry("C2", Some(Family::Closed), Some(0.7)),
            entry("O1", Some(Family::Open), None),
        ]);
        let view = View {
            task: Task::Lca,
            setup: LjpSetup::Interaction,
            sort: Some("overall".into()),
        };
        let t = build_table(&d, &view);
        let models: Vec<_> = t.rows.iter().map(|r| r.model.as_str()).collect();
        assert_eq!(models, ["L1", "O1", "C2", "C1"]);
        let overall = t
            .columns
            .iter()
            .position(|c| c.key == "overall")
            .expect("overall column");
        assert_eq!(t.best[overall], Some(0.7));
        assert_eq!(t.best[0], None, "a column with no value has no best");
    }

    /// Three entries whose LJP interaction QWK is 0.5, 0.6 and 0.7 against a
    /// gold QWK of 0.8: the relative degradations are 0.375, 0.25 and 0.125.
    fn ljp_doc() -> ScoreDocument {
        let entry = |model: &str, interaction: f64| {
            let gold = 0.8;
            format!(
                r#"{{"model": "{model}", "family": "open", "runs": 1, "ljp": {{"overall": {{
                    "interaction": {{"qwk": {{"mean": {interaction}}}}}, "gold": {{"qwk": {{"mean": {gold}}}}},
                    "gain": 0.1, "relative_degradation": {}}}, "by_class": {{}}}}}}"#,
                (gold - interaction) / gold
            )
        };
        serde_json::from_str(&format!(
            r#"{{"cases": 3, "entries": [{}, {}, {}]}}"#,
            entry("Worst", 0.5),
            entry("Middle", 0.6),
            entry("Best", 0.7),
        ))
        .expect("a score document")
    }

    #[test]
    fn the_lowest_relative_degradation_is_best_and_sorts_first() {
        let view = View::from_query(
            Some("ljp".into()),
            None,
            Some("relative_degradation".into()),
        );
        let table = build_table(&ljp_doc(), &view);
        let col = table
            .columns
            .iter()
            .position(|c| c.key == "relative_degradation")
            .expect("the column");
        assert_eq!(table.columns[col].better, Better::Lower);
        let models: Vec<&str> = table.rows.iter().map(|r| r.model.as_str()).collect();
        assert_eq!(models, ["Best", "Middle", "Worst"], "best first");
        let least = table.rows[0].cells[col].expect("a value").mean;
        assert!((least - 0.125).abs() < 1e-12);
        assert_eq!(table.best[col], Some(least));
        assert!(table.is_best(0, col) && !table.is_best(2, col));
        // Higher-is-better columns keep the highest.
        let interaction = table
            .columns
            .iter()
            .position(|c| c.key == "overall_interaction")
            .expect("the column");
        assert_eq!(table.best[interaction], Some(0.7));
    }

    #[test]
    fn latex_bolds_the_lowest_relative_degradation() {
        let view = View::from_query(Some("ljp".into()), None, None);
        let tex = to_latex(&build_table(&ljp_doc(), &view), "LJP");
        let line = |model: &str| {
            tex.lines()
                .find(|l| l.contains(&format!("& {model} &")))
                .unwrap_or_else(|| panic!("no row of {model} in {tex}"))
                .to_owned()
        };
        assert!(line("Best").ends_with(r"& \textbf{0.1250} \\"), "{tex}");
        assert!(line("Worst").ends_with(r"& 0.3750 \\"), "{tex}");
    }

    #[test]
    fn entries_without_the_task_are_left_out() {
        let d = doc(vec![entry("A", None, Some(0.5))]);
        let view = View::from_query(Some("dcg".into()), None, None);
        assert!(build_table(&d, &view).rows.is_empty());
        assert_eq!(
            View::from_query(Some("nope".into()), None, None).task,
            Task::Lca
        );
    }

    #[test]
    fn entries_of_one_model_under_other_user_conditions_are_told_apart() {
        let standard = entry("M", Some(Family::Open), Some(0.6));
        let mut adversarial = entry("M", Some(Family::Open), Some(0.5));
        adversarial
            .key
            .extra
            .insert("user_condition".into(), "adversarial".into());
        let table = build_table(
            &doc(vec![standard, adversarial]),
            &View::from_query(None, None, None),
        );
        let labels: Vec<String> = table.rows.iter().map(Row::label).collect();
        assert_eq!(labels, ["M", "M (adversarial)"]);
        assert!(to_csv(&table).contains("\nM (adversarial),open,2,"));
    }
}

#[cfg(test)]
mod export_tests {
    use super::*;

    fn table() -> Table {
        let cell = |mean, std| Some(MeanStd { mean, std });
        Table {
            columns: vec![
                Column {
                    key: "overall".into(),
                    label: "Overall".into(),
                    better: Better::Higher,
                },
                Column {
                    key: "gain".into(),
                    label: "Gain".into(),
                    better: Better::Higher,
                },
            ],
            rows: vec![
                Row {
                    entry: 0,
                    model: "A_1 & co".into(),
                    setting: None,
                    family: Some(Family::Legal),
                    runs: 2,
                    unavailable: 0,
                    not_comparable: Vec::new(),
                    cells: vec![cell(0.5, Some(0.01)), None],
                },
                Row {
                    entry: 1,
                    model: "B, \"quoted\"".into(),
                    setting: None,
                    family: Some(Family::Closed),
                    runs: 1,
                    unavailable: 0,
                    not_comparable: Vec::new(),
                    cells: vec![cell(0.7, None), cell(0.1, None)],
                },
            ],
            best: vec![Some(0.7), Some(0.1)],
        }
    }

    #[test]
    fn csv_has_a_mean_and_a_std_column_per_score_and_quotes_where_needed() {
        let csv = to_csv(&table());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "model,family,runs,overall_mean,overall_std,gain_mean,gain_std"
        );
        assert_eq!(lines[1], "A_1 & co,legal,2,0.5,0.01,,");
        assert_eq!(lines[2], "\"B, \"\"quoted\"\"\",closed,1,0.7,,0.1,");
    }

    #[test]
    fn latex_escapes_groups_by_family_and_bolds_the_best() {
        let tex = to_latex(&table(), "LCA_1");
        assert!(
            tex.contains(r"Legal LLMs & A\_1 \& co & 0.5000$\pm$0.0100 & -- \\"),
            "{tex}"
        );
        assert!(
            tex.contains("\\midrule\nClosed-Source General LLMs & B, \"quoted\" & \\textbf{0.7000} & \\textbf{0.1000}"),
            "{tex}"
        );
        assert!(tex.contains(r"\caption{LCA\_1}"));
    }
}
