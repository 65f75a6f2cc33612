//! The PLawBench leaderboard views (`docs/benchmarks/plawbench.md` §B7),
//! built from a [`ScoreDocument`] and, where they need per-run counts, the
//! scored runs the document was summarised from.
//!
//! - [`Column`]: the columns by their URL keys (`sort=task2_facts`), each
//!   naming a [`Metric`]; [`column_metric`] / [`Column::key`] round-trip.
//! - [`build_table`]: the **official ranking** ([`Table`]): Family
//!   (`model_family`) · Model · the ten official columns in the README's
//!   order ([`Column::OFFICIAL`]); cells mean ± sample std over runs, kept
//!   as ratios and formatted ×100 with two decimals by [`format_cell`]; the
//!   best mean of each column ([`Column::better`]: every official column is
//!   a score, best highest). Rows are grouped by Family,
//!   alphabetically without regard to case (the README's Claude, DeepSeek,
//!   Doubao, …, Gemini, GLM, GPT, Grok, Kimi, Qwen), entries without a
//!   family last, each family's entries in document order; [`View::sort`]
//!   orders them by one column instead, best first, absent values last
//!   (ties keep the grouped order).
//! - [`settings`]: what tells apart the entries of one model: every entry
//!   key field whose value differs between them (judges, parse mode,
//!   aggregation, …); `None` for a model with one entry.
//! - [`evalscope_view`]: one entry as evalscope reports it: a row per
//!   subset with `num` (scored items), `acc`, the four section metrics of
//!   `case_analysis`, unavailable and truncated counts, and the `OVERALL`
//!   row, each as evalscope's report computes it: a subset's score is the
//!   mean over the usable items of every run, pooled as evalscope pools its
//!   repeats, rounded to 4 decimals; `OVERALL` is the `num`-weighted mean
//!   of those rounded scores, rounded ([`super::evalscope::evalscope_overall`]).
//! - [`category_table`]: Task 2 by category: the categories (in
//!   [`CATEGORIES`] order, then any others alphabetically) × the entries
//!   with `case_analysis`, mean `acc` and the scored items `n` per cell.
//! - Exports: [`to_csv`] / [`category_to_csv`] (ratios at full precision,
//!   through [`crate::spreadsheet`], so no cell runs as a formula),
//!   [`to_latex`] / [`category_to_latex`] (booktabs, ×100, best in bold,
//!   LaTeX's special characters escaped and CJK passed through, so it needs
//!   a CJK-capable engine such as XeLaTeX with `xeCJK`), [`caption`] and
//!   [`category_caption`]. Every table is serde data: its JSON is
//!   `serde_json::to_string(&table)`.
//!
//! Depends on [`super::score`], [`super::dataset`], [`super::run`],
//! [`crate::metrics`], [`crate::spreadsheet`] and serde_json.
//!
//! # Example
//!
//! ```
//! use engine::plawbench::dataset::parse_dataset;
//! use engine::plawbench::leaderboard::{build_table, format_cell, Column, View};
//! use engine::plawbench::run::parse_run;
//! use engine::plawbench::score::score_entries;
//! use engine::plawbench::synthetic::{dataset_file, run_file, OFFICIAL_SIZES};
//!
//! let dataset = parse_dataset(&dataset_file(&OFFICIAL_SIZES, 1)).unwrap();
//! let runs: Vec<_> = [("A", 1), ("A", 2), ("B", 1)]
//!     .iter()
//!     .map(|&(model, run)| parse_run(&run_file(&dataset, model, run, 1, 9), &dataset).unwrap())
//!     .collect();
//! let doc = score_entries(&runs, &dataset);
//! let table = build_table(&doc, &View::from_query(Some("overall")));
//! assert_eq!(table.columns[0], Column::Overall);
//! assert_eq!(table.rows.len(), 2);
//! let overall = |row: usize| table.rows[row].cells[0].unwrap();
//! assert!(overall(0).mean >= overall(1).mean);
//! assert!(format_cell(&table.rows.iter().find(|r| r.runs == 2).unwrap().cells[0].unwrap()).contains(" ± "));
//! ```

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::dataset::{Section, Task, CATEGORIES};
use super::evalscope::{evalscope_overall, evalscope_round};
use super::score::{EntryScores, Metric, RunScores, ScoreDocument};
use crate::core::columns::{Better, Scale};
use crate::core::entry::EntryKey;
use crate::core::panel::describe;
use crate::core::table::latex_escape;
use crate::metrics::{mean_std, MeanStd};
use crate::vocab::vocabulary;

vocabulary! {
    /// A column of the PLawBench leaderboard by its URL key; each names a
    /// [`Metric`] ([`Column::metric`]). The English label is the official
    /// column name.
    Column, kind "column" {
        /// (Task1 + Task2 + Task3) / 3.
        Overall = "overall", zh "总分", en "Overall";
        /// `acc` of `case_analysis`.
        Task2 = "task2", zh "任务二均分", en "Task2-Avg";
        /// `conclusion_acc` of `case_analysis`.
        Task2Conclusion = "task2_conclusion", zh "任务二·结论", en "Task2-Conclusion";
        /// `fact_acc` of `case_analysis`.
        Task2Facts = "task2_facts", zh "任务二·案件事实", en "Task2-Facts";
        /// `reasoning_acc` of `case_analysis`.
        Task2Reasoning = "task2_reasoning", zh "任务二·推理过程", en "Task2-Reasoning";
        /// `law_acc` of `case_analysis`.
        Task2Statute = "task2_statute", zh "任务二·法条依据", en "Task2-Statute";
        /// `acc` of `legal_consultation`.
        Task1 = "task1", zh "任务一", en "Task1";
        /// (Task3-Plaintiff + Task3-Defendant) / 2.
        Task3 = "task3", zh "任务三均分", en "Task3-Avg";
        /// `acc` of `plaintiff_statement`.
        Task3Plaintiff = "task3_plaintiff", zh "任务三·起诉状", en "Task3-Plaintiff";
        /// `acc` of `defendant_statement`.
        Task3Defendant = "task3_defendant", zh "任务三·答辩状", en "Task3-Defendant";
        /// evalscope's `OVERALL`: the mean over every scored item.
        PerSampleOverall = "per_sample_overall", zh "逐样本总分", en "OVERALL";
    }
}

impl Column {
    /// The official ranking's score columns, in the README's order.
    pub const OFFICIAL: [Column; 10] = [
        Column::Overall,
        Column::Task2,
        Column::Task2Conclusion,
        Column::Task2Facts,
        Column::Task2Reasoning,
        Column::Task2Statute,
        Column::Task1,
        Column::Task3,
        Column::Task3Plaintiff,
        Column::Task3Defendant,
    ];

    /// Which way is better: every column is a score (an `acc`), best highest.
    ///
    /// ```
    /// use engine::core::columns::Better;
    /// use engine::plawbench::leaderboard::Column;
    /// assert!(Column::ALL.into_iter().all(|c| c.better() == Better::Higher));
    /// ```
    pub const fn better(self) -> Better {
        Better::Higher
    }

    /// The scale the official ranking shows the column on: ×100, as the
    /// PLawBench README's table does.
    pub const fn scale(self) -> Scale {
        Scale::Hundred
    }

    /// The column's name in words, as pages show it: the Chinese label, or
    /// in English words rather than the official `Task2-Avg` style names
    /// (which the exports and a page's tooltip keep, [`Column::label_en`]).
    ///
    /// ```
    /// use engine::lang::Lang;
    /// use engine::plawbench::leaderboard::Column;
    /// assert_eq!(Column::Task2.words(Lang::En), "Task 2 average");
    /// assert_eq!(Column::Task2.words(Lang::Zh), "任务二均分");
    /// ```
    pub const fn words(self, lang: crate::lang::Lang) -> &'static str {
        if let crate::lang::Lang::Zh = lang {
            return self.label_zh();
        }
        match self {
            Column::Overall => "Overall",
            Column::Task2 => "Task 2 average",
            Column::Task2Conclusion => "Task 2 conclusion",
            Column::Task2Facts => "Task 2 facts",
            Column::Task2Reasoning => "Task 2 reasoning",
            Column::Task2Statute => "Task 2 statutes",
            Column::Task1 => "Task 1",
            Column::Task3 => "Task 3 average",
            Column::Task3Plaintiff => "Task 3 plaintiff",
            Column::Task3Defendant => "Task 3 defendant",
            Column::PerSampleOverall => "Per-item overall",
        }
    }

    /// The URL key (the wire string).
    ///
    /// ```
    /// use engine::plawbench::leaderboard::Column;
    /// assert_eq!(Column::Task2Statute.key(), "task2_statute");
    /// ```
    pub const fn key(self) -> &'static str {
        self.as_str()
    }

    /// The score the column shows.
    ///
    /// ```
    /// use engine::plawbench::dataset::Section;
    /// use engine::plawbench::leaderboard::Column;
    /// use engine::plawbench::score::Metric;
    /// assert_eq!(Column::Task2Statute.metric(), Metric::Task2Section(Section::Law));
    /// ```
    pub const fn metric(self) -> Metric {
        match self {
            Column::Overall => Metric::Overall,
            Column::Task2 => Metric::Task2,
            Column::Task2Conclusion => Metric::Task2Section(Section::Conclusion),
            Column::Task2Facts => Metric::Task2Section(Section::Facts),
            Column::Task2Reasoning => Metric::Task2Section(Section::Reasoning),
            Column::Task2Statute => Metric::Task2Section(Section::Law),
            Column::Task1 => Metric::Task1,
            Column::Task3 => Metric::Task3,
            Column::Task3Plaintiff => Metric::Task3Plaintiff,
            Column::Task3Defendant => Metric::Task3Defendant,
            Column::PerSampleOverall => Metric::PerSampleOverall,
        }
    }

    /// The column that shows `metric` (every metric has one).
    ///
    /// ```
    /// use engine::plawbench::leaderboard::Column;
    /// use engine::plawbench::score::Metric;
    /// assert!(Metric::ALL.into_iter().all(|m| Column::of(m).metric() == m));
    /// ```
    pub const fn of(metric: Metric) -> Column {
        match metric {
            Metric::Overall => Column::Overall,
            Metric::Task2 => Column::Task2,
            Metric::Task2Section(Section::Conclusion) => Column::Task2Conclusion,
            Metric::Task2Section(Section::Facts) => Column::Task2Facts,
            Metric::Task2Section(Section::Reasoning) => Column::Task2Reasoning,
            Metric::Task2Section(Section::Law) => Column::Task2Statute,
            Metric::Task1 => Column::Task1,
            Metric::Task3 => Column::Task3,
            Metric::Task3Plaintiff => Column::Task3Plaintiff,
            Metric::Task3Defendant => Column::Task3Defendant,
            Metric::PerSampleOverall => Column::PerSampleOverall,
        }
    }
}

/// The metric behind a column's URL key; `None` for an unknown key. The
/// inverse of `Column::of(metric).key()`.
///
/// ```
/// use engine::plawbench::dataset::Section;
/// use engine::plawbench::leaderboard::{column_metric, Column};
/// use engine::plawbench::score::Metric;
///
/// assert_eq!(column_metric("task2_facts"), Some(Metric::Task2Section(Section::Facts)));
/// assert_eq!(column_metric("per_sample_overall"), Some(Metric::PerSampleOverall));
/// assert_eq!(column_metric("Task2-Facts"), None);
/// for metric in Metric::ALL {
///     assert_eq!(column_metric(Column::of(metric).key()), Some(metric));
/// }
/// ```
pub fn column_metric(key: &str) -> Option<Metric> {
    Column::parse(key).map(Column::metric)
}

/// How the official ranking is ordered: grouped by Family (`sort` `None`),
/// or by one column, best first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The column rows are sorted by; `None` groups them by Family.
    pub sort: Option<Column>,
}

impl View {
    /// Reads the page's `sort` query: a column key sorts by that column;
    /// absent, `family` or an unknown key groups by Family (as LexPilot's
    /// leaderboard falls back to its defaults).
    ///
    /// ```
    /// use engine::plawbench::leaderboard::{Column, View};
    /// assert_eq!(View::from_query(Some("overall")).sort, Some(Column::Overall));
    /// assert_eq!(View::from_query(Some("family")).sort, None);
    /// assert_eq!(View::from_query(None), View::default());
    /// ```
    pub fn from_query(sort: Option<&str>) -> View {
        View {
            sort: sort.and_then(Column::parse),
        }
    }
}

/// The official ranking, ready to render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// The score columns, [`Column::OFFICIAL`] (Family and Model come first
    /// in every rendering).
    pub columns: Vec<Column>,
    /// The column the rows are sorted by; `None` when grouped by Family.
    pub sort: Option<Column>,
    /// One per entry of the document.
    pub rows: Vec<Row>,
    /// Per column, the best mean of any row ([`Column::better`]); `None`
    /// when no row has one.
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
            .copied();
        match (cell.flatten(), self.best.get(column).copied().flatten()) {
            (Some(cell), Some(best)) => cell.mean == best,
            _ => false,
        }
    }
}

/// One entry of the official ranking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The entry's index in the score document's `entries`.
    pub entry: usize,
    /// The evaluated model.
    pub model: String,
    /// The Family column (`model_family`).
    pub model_family: Option<String>,
    /// What sets the entry apart from the other entries of its model
    /// ([`settings`]); `None` when the model has one entry.
    pub setting: Option<String>,
    /// The entry's key: every header field its runs share.
    pub key: EntryKey,
    /// How many runs the entry has.
    pub runs: usize,
    /// Items left out of the scores, over every task and run.
    pub unavailable: usize,
    /// Drafting answers cut at the token limit, over every run.
    pub truncated: usize,
    /// One per [`Table::columns`]; `None` where the entry has no value.
    pub cells: Vec<Option<MeanStd>>,
}

impl Row {
    /// The model, with its setting in parentheses when it has one.
    pub fn label(&self) -> String {
        label(&self.model, self.setting.as_deref())
    }
}

fn label(model: &str, setting: Option<&str>) -> String {
    match setting {
        Some(setting) => format!("{model} ({setting})"),
        None => model.to_owned(),
    }
}

/// The entry's value of `metric`: mean ± std over its runs; `None` when the
/// entry lacks the metric's tasks or has no scored instance of it.
///
/// ```
/// use engine::plawbench::leaderboard::entry_metric;
/// use engine::core::entry::EntryKey;
/// use engine::plawbench::score::{summarise_entry, Metric, RunScores};
///
/// let empty = RunScores { tasks: Default::default(), per_sample_overall: None, by_category: Default::default() };
/// let entry = summarise_entry(EntryKey::default(), &[empty]);
/// assert_eq!(entry_metric(&entry, Metric::Overall), None);
/// ```
pub fn entry_metric(entry: &EntryScores, metric: Metric) -> Option<MeanStd> {
    match metric {
        Metric::Overall => entry.overall.flatten(),
        Metric::Task2 => entry.task2?.acc,
        Metric::Task2Section(section) => {
            let task2 = entry.task2?;
            match section {
                Section::Conclusion => task2.conclusion_acc,
                Section::Facts => task2.fact_acc,
                Section::Reasoning => task2.reasoning_acc,
                Section::Law => task2.law_acc,
            }
        }
        Metric::Task1 => entry.task1.flatten(),
        Metric::Task3 => entry.task3?.avg.flatten(),
        Metric::Task3Plaintiff => entry.task3?.plaintiff.flatten(),
        Metric::Task3Defendant => entry.task3?.defendant.flatten(),
        Metric::PerSampleOverall => entry.per_sample_overall,
    }
}

/// Families alphabetically without regard to case (then exactly, so that
/// the order is total), entries without a family last.
fn family_order(a: Option<&str>, b: Option<&str>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => a.to_lowercase().cmp(&b.to_lowercase()).then(a.cmp(b)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// The entries' indices grouped by Family, each family in document order.
fn grouped(entries: &[EntryScores]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&a, &b| {
        family_order(
            entries[a].model_family.as_deref(),
            entries[b].model_family.as_deref(),
        )
    });
    order
}

/// The best mean of each column, as the column's [`Better`] says.
fn best_of(cells: &[&[Option<MeanStd>]], columns: &[Column]) -> Vec<Option<f64>> {
    columns
        .iter()
        .enumerate()
        .map(|(c, column)| {
            column.better().best(
                cells
                    .iter()
                    .filter_map(|row| row.get(c).copied().flatten().map(|m| m.mean)),
            )
        })
        .collect()
}

/// Builds the official ranking of every entry of `doc`, ordered as `view`
/// says (see the [module documentation](self)).
///
/// ```
/// use engine::plawbench::leaderboard::{build_table, View};
/// use engine::core::entry::EntryKey;
/// use engine::plawbench::score::{summarise_runs, RunScores};
///
/// let empty = RunScores { tasks: Default::default(), per_sample_overall: None, by_category: Default::default() };
/// let key = |model: &str| EntryKey { model: model.into(), ..EntryKey::default() };
/// let doc = summarise_runs([(key("B"), empty.clone()), (key("A"), empty)], &[]);
/// let table = build_table(&doc, &View::default());
/// assert_eq!(table.rows.iter().map(|r| r.model.as_str()).collect::<Vec<_>>(), ["B", "A"]);
/// assert_eq!(table.best, vec![None; 10]);
/// ```
pub fn build_table(doc: &ScoreDocument, view: &View) -> Table {
    let settings = settings(&doc.entries);
    let mut order = grouped(&doc.entries);
    if let Some(column) = view.sort {
        let value = |i: usize| entry_metric(&doc.entries[i], column.metric()).map(|m| m.mean);
        order.sort_by(|&a, &b| column.better().best_first(value(a), value(b)));
    }
    let columns = Column::OFFICIAL.to_vec();
    let rows: Vec<Row> = order
        .into_iter()
        .map(|i| {
            let entry = &doc.entries[i];
            Row {
                entry: i,
                model: entry.model.clone(),
                model_family: entry.model_family.clone(),
                setting: settings[i].clone(),
                key: entry.key.clone(),
                runs: entry.runs,
                unavailable: entry.counts.unavailable.values().sum(),
                truncated: entry.counts.truncated.values().sum(),
                cells: columns
                    .iter()
                    .map(|c| entry_metric(entry, c.metric()))
                    .collect(),
            }
        })
        .collect();
    let cells: Vec<&[Option<MeanStd>]> = rows.iter().map(|r| r.cells.as_slice()).collect();
    let best = best_of(&cells, &columns);
    Table {
        columns,
        sort: view.sort,
        rows,
        best,
    }
}

/// For each entry, what tells it apart from the other entries of the same
/// model: `name: value` for every entry key field whose value differs
/// between them, joined by `; ` (judges, parse mode, aggregation and
/// attempts first, by short names). Values are shown for people (a panel
/// as its judge models); when that would show two entries of a model alike,
/// that model's settings show the values as JSON. `None` for a model with
/// one entry (and for entries whose keys are equal).
///
/// ```
/// use engine::plawbench::leaderboard::settings;
/// use engine::core::entry::EntryKey;
/// use engine::plawbench::score::{summarise_runs, RunScores};
///
/// let empty = RunScores { tasks: Default::default(), per_sample_overall: None, by_category: Default::default() };
/// let key = |model: &str, parse: &str, judge: &str| {
///     let mut key = EntryKey { model: model.into(), ..EntryKey::default() };
///     key.extra.insert("judge_parse".into(), parse.into());
///     key.extra.insert("judges".into(), serde_json::json!([{"model": judge}]));
///     key
/// };
/// let doc = summarise_runs(
///     [key("M", "strict", "J"), key("M", "lenient", "J"), key("M", "lenient", "K"), key("N", "strict", "J")]
///         .map(|k| (k, empty.clone())),
///     &[],
/// );
/// assert_eq!(settings(&doc.entries), [
///     Some("judges: J; parse: strict".to_owned()),
///     Some("judges: J; parse: lenient".to_owned()),
///     Some("judges: K; parse: lenient".to_owned()),
///     None,
/// ]);
/// ```
pub fn settings(entries: &[EntryScores]) -> Vec<Option<String>> {
    let keys: Vec<&EntryKey> = entries.iter().map(|e| &e.key).collect();
    crate::core::panel::settings_of(&keys)
}

/// An official cell as the ranking prints it: the mean ×100 to 2 decimals,
/// with `± std` (×100) when the entry has more than one run with a value.
///
/// ```
/// use engine::metrics::MeanStd;
/// use engine::plawbench::leaderboard::format_cell;
/// assert_eq!(format_cell(&MeanStd { mean: 0.5053, std: None }), "50.53");
/// assert_eq!(format_cell(&MeanStd { mean: 0.53724, std: Some(0.0105) }), "53.72 ± 1.05");
/// ```
pub fn format_cell(m: &MeanStd) -> String {
    Scale::Hundred.cell(m)
}

/// A score as evalscope reports it: the ratio to 4 decimals, with `± std`
/// over runs when there is one.
///
/// ```
/// use engine::metrics::MeanStd;
/// use engine::plawbench::leaderboard::format_ratio;
/// assert_eq!(format_ratio(&MeanStd { mean: 0.59284, std: None }), "0.5928");
/// assert_eq!(format_ratio(&MeanStd { mean: 0.5, std: Some(0.01) }), "0.5000 ± 0.0100");
/// ```
pub fn format_ratio(m: &MeanStd) -> String {
    match m.std {
        Some(std) => format!("{:.4} ± {std:.4}", m.mean),
        None => format!("{:.4}", m.mean),
    }
}

/// A cell as LaTeX: ×100 to 2 decimals, `$\pm$` std, bold when best,
/// `--` when absent.
fn latex_cell(cell: Option<MeanStd>, best: bool) -> String {
    let Some(m) = cell else {
        return "--".to_owned();
    };
    let value = match m.std {
        Some(std) => format!("{:.2}$\\pm${:.2}", m.mean * 100.0, std * 100.0),
        None => format!("{:.2}", m.mean * 100.0),
    };
    if best {
        format!("\\textbf{{{value}}}")
    } else {
        value
    }
}

fn csv_value(value: Option<f64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// The official ranking as CSV: `family,model,setting,runs,unavailable,
/// truncated`, then per column `<key>_mean` and `<key>_std` as ratios at
/// full precision (empty where there is no value), rows in table order,
/// every cell through [`crate::spreadsheet`].
///
/// ```
/// use engine::plawbench::leaderboard::{build_table, to_csv, View};
/// use engine::core::entry::EntryKey;
/// use engine::plawbench::score::{summarise_runs, RunScores};
///
/// let empty = RunScores { tasks: Default::default(), per_sample_overall: None, by_category: Default::default() };
/// let doc = summarise_runs([(EntryKey { model: "=cmd".into(), ..EntryKey::default() }, empty)], &[]);
/// let csv = to_csv(&build_table(&doc, &View::default()));
/// assert!(csv.starts_with("family,model,setting,runs,unavailable,truncated,overall_mean,overall_std,task2_mean,"));
/// assert!(csv.ends_with("\n,'=cmd,,1,0,0,,,,,,,,,,,,,,,,,,,,\n"));
/// ```
pub fn to_csv(table: &Table) -> String {
    let mut header: Vec<String> = [
        "family",
        "model",
        "setting",
        "runs",
        "unavailable",
        "truncated",
    ]
    .map(str::to_owned)
    .into();
    for column in &table.columns {
        header.push(format!("{}_mean", column.key()));
        header.push(format!("{}_std", column.key()));
    }
    let mut records = vec![header];
    for row in &table.rows {
        let mut record = vec![
            row.model_family.clone().unwrap_or_default(),
            row.model.clone(),
            row.setting.clone().unwrap_or_default(),
            row.runs.to_string(),
            row.unavailable.to_string(),
            row.truncated.to_string(),
        ];
        for cell in &row.cells {
            record.push(csv_value(cell.map(|m| m.mean)));
            record.push(csv_value(cell.and_then(|m| m.std)));
        }
        records.push(record);
    }
    crate::spreadsheet::to_csv(records)
}

fn latex_open(out: &mut String, column_spec: &str) {
    out.push_str("\\begin{table*}[t]\n\\centering\n\\small\n");
    out.push_str(&format!("\\begin{{tabular}}{{{column_spec}}}\n\\toprule\n"));
}

fn latex_close(out: &mut String, caption: &str) {
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    out.push_str(&format!(
        "\\caption{{{}}}\n\\end{{table*}}\n",
        latex_escape(caption)
    ));
}

/// The official ranking as a LaTeX `table*` (needs `booktabs`, and a CJK
/// setup for Chinese names): Family, Model (with its setting), the ten
/// columns ×100 with `$\pm$` std, the best of each column in bold, `--`
/// where there is no value. Grouped by Family, each family is a block with
/// its name on its first row and `\midrule` between blocks; sorted, every
/// row names its family.
///
/// ```
/// use engine::plawbench::leaderboard::{build_table, to_latex, View};
/// use engine::core::entry::EntryKey;
/// use engine::plawbench::score::{summarise_runs, RunScores};
///
/// let empty = RunScores { tasks: Default::default(), per_sample_overall: None, by_category: Default::default() };
/// let doc = summarise_runs([(EntryKey { model: "通义_1".into(), ..EntryKey::default() }, empty)], &[]);
/// let tex = to_latex(&build_table(&doc, &View::default()), "PLawBench");
/// assert!(tex.contains("Family & Model & Overall & Task2-Avg"));
/// assert!(tex.contains("-- & 通义\\_1 & -- &"));
/// ```
pub fn to_latex(table: &Table, caption: &str) -> String {
    let mut out = String::new();
    latex_open(&mut out, &format!("ll{}", "c".repeat(table.columns.len())));
    out.push_str("Family & Model");
    for column in &table.columns {
        out.push_str(&format!(" & {}", latex_escape(column.label_en())));
    }
    out.push_str(" \\\\\n\\midrule\n");
    let mut block: Option<Option<&str>> = None;
    for (r, row) in table.rows.iter().enumerate() {
        let family = row.model_family.as_deref();
        let shown = if table.sort.is_some() {
            Some(family)
        } else if block != Some(family) {
            if block.is_some() {
                out.push_str("\\midrule\n");
            }
            block = Some(family);
            Some(family)
        } else {
            None
        };
        let family_text = match shown {
            Some(Some(name)) => latex_escape(name),
            Some(None) => "--".to_owned(),
            None => String::new(),
        };
        out.push_str(&format!("{family_text} & {}", latex_escape(&row.label())));
        for (c, cell) in row.cells.iter().enumerate() {
            out.push_str(&format!(" & {}", latex_cell(*cell, table.is_best(r, c))));
        }
        out.push_str(" \\\\\n");
    }
    latex_close(&mut out, caption);
    out
}

/// The judge panel every row shares, as its models joined by ` + `; `None`
/// when the rows differ or none is recorded.
fn shared_judges<'a>(keys: impl IntoIterator<Item = &'a EntryKey>) -> Option<String> {
    let panels: BTreeSet<String> = keys
        .into_iter()
        .map(|k| describe(k.extra.get("judges")))
        .collect();
    match panels.into_iter().collect::<Vec<_>>().as_slice() {
        [only] if only != "none" => Some(only.clone()),
        _ => None,
    }
}

/// A caption for the official ranking: what the numbers are, how the rows
/// are ordered and, when every row has the same judge panel, its judges.
///
/// ```
/// use engine::plawbench::leaderboard::{build_table, caption, View};
/// use engine::core::entry::EntryKey;
/// use engine::plawbench::score::{summarise_runs, RunScores};
///
/// let empty = RunScores { tasks: Default::default(), per_sample_overall: None, by_category: Default::default() };
/// let mut key = EntryKey { model: "M".into(), ..EntryKey::default() };
/// key.extra.insert("judges".into(), serde_json::json!([{"model": "gpt-4.1"}]));
/// let doc = summarise_runs([(key, empty)], &[]);
/// assert_eq!(
///     caption(&build_table(&doc, &View::from_query(Some("overall")))),
///     "PLawBench official ranking: scores ×100, best of each column in bold; sorted by Overall; judges: gpt-4.1."
/// );
/// ```
pub fn caption(table: &Table) -> String {
    let mut text = String::from("PLawBench official ranking: scores ×100");
    if table.rows.iter().any(|r| r.runs > 1) {
        text.push_str(", mean ± sample std over runs");
    }
    text.push_str(", best of each column in bold; ");
    match table.sort {
        Some(column) => text.push_str(&format!("sorted by {}", column.label_en())),
        None => text.push_str("grouped by family"),
    }
    if let Some(judges) = shared_judges(table.rows.iter().map(|r| &r.key)) {
        text.push_str(&format!("; judges: {judges}"));
    }
    text.push('.');
    text
}

/// The runs of `runs` (each with its entry key, as given to
/// [`super::score::summarise_runs`]) that belong to the entry `key`.
///
/// ```
/// use engine::plawbench::leaderboard::runs_of;
/// use engine::core::entry::EntryKey;
/// use engine::plawbench::score::RunScores;
///
/// let empty = RunScores { tasks: Default::default(), per_sample_overall: None, by_category: Default::default() };
/// let key = |model: &str| EntryKey { model: model.into(), ..EntryKey::default() };
/// let runs = [(key("A"), empty.clone()), (key("B"), empty.clone()), (key("A"), empty)];
/// assert_eq!(runs_of(&runs, &key("A")).count(), 2);
/// ```
pub fn runs_of<'a>(
    runs: &'a [(EntryKey, RunScores)],
    key: &'a EntryKey,
) -> impl Iterator<Item = &'a RunScores> + 'a {
    runs.iter().filter(move |(k, _)| k == key).map(|(_, s)| s)
}

/// One entry as evalscope reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalscopeView {
    /// The runs summarised.
    pub runs: usize,
    /// One per subset any run contains, in [`Task::ALL`] order, then the
    /// `OVERALL` row; empty when no run contains a task.
    pub rows: Vec<EvalscopeRow>,
}

/// A subset of the evalscope view, or its `OVERALL` row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalscopeRow {
    /// The subset; `None` for `OVERALL`.
    pub subset: Option<Task>,
    /// evalscope's `num`: the scored (usable) items, over the runs.
    pub num: usize,
    /// `acc` as evalscope's report gives it: `mean` pools the scored items
    /// of every run (Σ accᵣ·nᵣ / Σ nᵣ, as evalscope averages the samples of
    /// all its repeats) rounded to 4 decimals; for `OVERALL`, evalscope's
    /// `OVERALL` of the pooled subsets ([`evalscope_overall`]). `std` is
    /// the sample std of the runs' own values (per-run `acc`, per-run
    /// per-sample overall), which evalscope does not report.
    pub acc: Option<MeanStd>,
    /// For `case_analysis`, the four section metrics, likewise.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sections: BTreeMap<Section, Option<MeanStd>>,
    /// Items left out (unavailable), over the runs.
    pub unavailable: usize,
    /// Answers cut at the token limit, over the runs.
    pub truncated: usize,
}

impl EvalscopeRow {
    /// The row's name as evalscope prints it: the subset, or `OVERALL`.
    pub fn name(&self) -> &'static str {
        self.subset.map_or("OVERALL", Task::as_str)
    }
}

/// The pooled mean of (value, n) pairs and its n: Σ v·n / Σ n over the
/// pairs with a value and n > 0.
fn pooled(values: impl IntoIterator<Item = (Option<f64>, usize)>) -> Option<(f64, usize)> {
    let (sum, num) = values
        .into_iter()
        .filter_map(|(v, n)| v.map(|v| (v, n)))
        .filter(|&(_, n)| n > 0)
        .fold((0.0, 0usize), |(sum, num), (v, n)| {
            (sum + v * n as f64, num + n)
        });
    (num > 0).then(|| (sum / num as f64, num))
}

/// The evalscope view of one entry from its runs' scores (see
/// [`runs_of`]): per subset `num`, `acc` (show it with [`format_ratio`]),
/// the section metrics of `case_analysis`, unavailable and truncated
/// counts; then `OVERALL`. Several runs are pooled as evalscope pools the
/// samples of its repeats: a subset's score is the mean over the scored
/// items of every run (not the mean of the run means), rounded to 4
/// decimals, and `OVERALL` is computed from those as evalscope's report
/// computes it ([`evalscope_overall`]).
///
/// ```
/// use engine::plawbench::dataset::{parse_dataset, Task};
/// use engine::plawbench::leaderboard::{evalscope_view, format_ratio};
/// use engine::plawbench::run::parse_run;
/// use engine::plawbench::score::score_run;
/// use engine::plawbench::synthetic::{dataset_file, run_file, OFFICIAL_SIZES};
///
/// let dataset = parse_dataset(&dataset_file(&OFFICIAL_SIZES, 1)).unwrap();
/// let run = parse_run(&run_file(&dataset, "M", 1, 1, 4), &dataset).unwrap();
/// let scores = score_run(&run, &dataset);
/// let view = evalscope_view([&scores]);
/// let names: Vec<&str> = view.rows.iter().map(|r| r.name()).collect();
/// assert_eq!(names, ["case_analysis", "legal_consultation", "plaintiff_statement", "defendant_statement", "OVERALL"]);
/// let case = &view.rows[0];
/// assert_eq!(case.num + case.unavailable, 250);
/// assert_eq!(case.sections.len(), 4);
/// assert_eq!(view.rows[4].num, view.rows[..4].iter().map(|r| r.num).sum::<usize>());
/// assert_eq!(format_ratio(&view.rows[4].acc.unwrap()).len(), 6);
/// ```
pub fn evalscope_view<'a>(runs: impl IntoIterator<Item = &'a RunScores>) -> EvalscopeView {
    let runs: Vec<&RunScores> = runs.into_iter().collect();
    // The pooled mean as evalscope reports it, with the std of the runs' values.
    let summary = |values: Vec<(Option<f64>, usize)>| {
        let (mean, _) = pooled(values.iter().copied())?;
        let per_run: Vec<f64> = values.iter().filter_map(|v| v.0).collect();
        let std = mean_std(&per_run).and_then(|m| m.std);
        Some(MeanStd {
            mean: evalscope_round(mean),
            std,
        })
    };
    // The unrounded pooled acc and num per subset, for OVERALL.
    let mut subsets: Vec<(f64, usize)> = Vec::new();
    let mut rows: Vec<EvalscopeRow> = Task::ALL
        .into_iter()
        .filter(|task| runs.iter().any(|r| r.tasks.contains_key(task)))
        .map(|task| {
            let scores: Vec<_> = runs.iter().filter_map(|r| r.tasks.get(&task)).collect();
            let sections = if task == Task::CaseAnalysis {
                Section::ALL
                    .into_iter()
                    .map(|s| {
                        let values = scores
                            .iter()
                            .map(|t| {
                                let n = t.section_scored.get(&s).copied().unwrap_or(t.scored);
                                (t.sections.get(&s).copied().flatten(), n)
                            })
                            .collect();
                        (s, summary(values))
                    })
                    .collect()
            } else {
                BTreeMap::new()
            };
            let acc: Vec<(Option<f64>, usize)> = scores.iter().map(|t| (t.acc, t.scored)).collect();
            subsets.extend(pooled(acc.iter().copied()));
            EvalscopeRow {
                subset: Some(task),
                num: scores.iter().map(|t| t.scored).sum(),
                acc: summary(acc),
                sections,
                unavailable: scores.iter().map(|t| t.unavailable).sum(),
                truncated: scores.iter().map(|t| t.truncated).sum(),
            }
        })
        .collect();
    if !rows.is_empty() {
        let per_run: Vec<f64> = runs.iter().filter_map(|r| r.per_sample_overall).collect();
        let overall = EvalscopeRow {
            subset: None,
            num: rows.iter().map(|r| r.num).sum(),
            acc: evalscope_overall(subsets).map(|mean| MeanStd {
                mean,
                std: mean_std(&per_run).and_then(|m| m.std),
            }),
            sections: BTreeMap::new(),
            unavailable: rows.iter().map(|r| r.unavailable).sum(),
            truncated: rows.iter().map(|r| r.truncated).sum(),
        };
        rows.push(overall);
    }
    EvalscopeView {
        runs: runs.len(),
        rows,
    }
}

/// Task 2 by category: a row per category, a column per entry with
/// `case_analysis`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryTable {
    /// The columns, in the official ranking's grouped order.
    pub entries: Vec<CategoryEntry>,
    /// One per category.
    pub rows: Vec<CategoryRow>,
}

/// One column of the category table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryEntry {
    /// The entry's index in the score document's `entries`.
    pub entry: usize,
    /// The evaluated model.
    pub model: String,
    /// Its `model_family`.
    pub model_family: Option<String>,
    /// What sets the entry apart from others of its model ([`settings`]).
    pub setting: Option<String>,
    /// How many runs the entry has.
    pub runs: usize,
}

impl CategoryEntry {
    /// The model, with its setting in parentheses when it has one.
    pub fn label(&self) -> String {
        label(&self.model, self.setting.as_deref())
    }
}

/// One category of the category table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryRow {
    /// The category label.
    pub category: String,
    /// One per [`CategoryTable::entries`].
    pub cells: Vec<CategoryCell>,
    /// The best mean of the row (Task 2's [`Column::better`]); `None` when
    /// no cell has one.
    pub best: Option<f64>,
}

/// One entry on one category.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CategoryCell {
    /// Mean `acc` of the category's scored items, mean ± std over runs.
    pub acc: Option<MeanStd>,
    /// The category's scored items, over the entry's runs.
    pub n: usize,
}

/// The categories in [`CATEGORIES`] order, then the others alphabetically.
fn category_order(a: &str, b: &str) -> Ordering {
    let rank = |c: &str| CATEGORIES.iter().position(|k| *k == c);
    match (rank(a), rank(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

/// Builds Task 2 by category: the entries of `doc` with `case_analysis`
/// as columns, each category they have as a row (see the [module
/// documentation](self)). Means come from the document; `n` counts the
/// scored items of the entry's runs in `runs` (the runs with their entry
/// keys that the document was summarised from).
///
/// ```
/// use engine::plawbench::dataset::{parse_dataset, Task, CATEGORIES};
/// use engine::plawbench::leaderboard::category_table;
/// use engine::plawbench::run::parse_run;
/// use engine::plawbench::score::{score_run, summarise_runs};
/// use engine::plawbench::synthetic::{dataset_file, run_file, OFFICIAL_SIZES};
///
/// let dataset = parse_dataset(&dataset_file(&OFFICIAL_SIZES, 1)).unwrap();
/// let scored: Vec<_> = (1..=2)
///     .map(|r| parse_run(&run_file(&dataset, "M", r, 1, 2), &dataset).unwrap())
///     .map(|run| (run.header.entry_key(), score_run(&run, &dataset)))
///     .collect();
/// let doc = summarise_runs(scored.clone(), &dataset);
/// let table = category_table(&doc, &scored);
/// assert_eq!(table.rows.iter().map(|r| r.category.as_str()).collect::<Vec<_>>(), CATEGORIES);
/// let scored_cases: usize = scored.iter().map(|(_, s)| s.tasks[&Task::CaseAnalysis].scored).sum();
/// assert_eq!(table.rows.iter().map(|r| r.cells[0].n).sum::<usize>(), scored_cases);
/// ```
pub fn category_table(doc: &ScoreDocument, runs: &[(EntryKey, RunScores)]) -> CategoryTable {
    let settings = settings(&doc.entries);
    let columns: Vec<usize> = grouped(&doc.entries)
        .into_iter()
        .filter(|&i| doc.entries[i].by_category.is_some())
        .collect();
    let mut categories: Vec<&str> = columns
        .iter()
        .flat_map(|&i| doc.entries[i].by_category.iter().flatten())
        .map(|(c, _)| c.as_str())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    categories.sort_by(|a, b| category_order(a, b));
    let rows = categories
        .into_iter()
        .map(|category| {
            let cells: Vec<CategoryCell> = columns
                .iter()
                .map(|&i| {
                    let entry = &doc.entries[i];
                    CategoryCell {
                        acc: entry
                            .by_category
                            .as_ref()
                            .and_then(|c| c.get(category).copied().flatten()),
                        n: runs_of(runs, &entry.key)
                            .filter_map(|r| r.by_category.get(category))
                            .map(|c| c.n)
                            .sum(),
                    }
                })
                .collect();
            let best = Column::Task2
                .better()
                .best(cells.iter().filter_map(|c| c.acc.map(|m| m.mean)));
            CategoryRow {
                category: category.to_owned(),
                cells,
                best,
            }
        })
        .collect();
    let entries = columns
        .into_iter()
        .map(|i| {
            let entry = &doc.entries[i];
            CategoryEntry {
                entry: i,
                model: entry.model.clone(),
                model_family: entry.model_family.clone(),
                setting: settings[i].clone(),
                runs: entry.runs,
            }
        })
        .collect();
    CategoryTable { entries, rows }
}

/// The category table as CSV: `category`, then per entry (by its label)
/// `<label> mean`, `<label> std` (ratios at full precision) and
/// `<label> n`, every cell through [`crate::spreadsheet`].
///
/// ```
/// use engine::metrics::MeanStd;
/// use engine::plawbench::leaderboard::{category_to_csv, CategoryCell, CategoryEntry, CategoryRow, CategoryTable};
///
/// let table = CategoryTable {
///     entries: vec![CategoryEntry { entry: 0, model: "M".into(), model_family: None, setting: None, runs: 1 }],
///     rows: vec![CategoryRow { category: "个人生活".into(), cells: vec![CategoryCell { acc: Some(MeanStd { mean: 0.5, std: None }), n: 22 }], best: Some(0.5) }],
/// };
/// assert_eq!(category_to_csv(&table), "category,M mean,M std,M n\n个人生活,0.5,,22\n");
/// ```
pub fn category_to_csv(table: &CategoryTable) -> String {
    let mut header = vec!["category".to_owned()];
    for entry in &table.entries {
        let label = entry.label();
        header.push(format!("{label} mean"));
        header.push(format!("{label} std"));
        header.push(format!("{label} n"));
    }
    let mut records = vec![header];
    for row in &table.rows {
        let mut record = vec![row.category.clone()];
        for cell in &row.cells {
            record.push(csv_value(cell.acc.map(|m| m.mean)));
            record.push(csv_value(cell.acc.and_then(|m| m.std)));
            record.push(cell.n.to_string());
        }
        records.push(record);
    }
    crate::spreadsheet::to_csv(records)
}

/// The category table as a LaTeX `table*` (booktabs): a row per category,
/// a column per entry, each cell the mean ×100 (`$\pm$` std) with `n` in
/// parentheses, the best of each category in bold, `--` where there is no
/// value.
///
/// ```
/// use engine::metrics::MeanStd;
/// use engine::plawbench::leaderboard::{category_to_latex, CategoryCell, CategoryEntry, CategoryRow, CategoryTable};
///
/// let entry = |model: &str| CategoryEntry { entry: 0, model: model.into(), model_family: None, setting: None, runs: 1 };
/// let cell = |mean: f64, n| CategoryCell { acc: Some(MeanStd { mean, std: None }), n };
/// let table = CategoryTable {
///     entries: vec![entry("A&B"), entry("C")],
///     rows: vec![CategoryRow { category: "个人生活".into(), cells: vec![cell(0.5, 22), cell(0.25, 21)], best: Some(0.5) }],
/// };
/// let tex = category_to_latex(&table, "by category");
/// assert!(tex.contains("Category & A\\&B & C \\\\"));
/// assert!(tex.contains("个人生活 & \\textbf{50.00} (22) & 25.00 (21) \\\\"));
/// ```
pub fn category_to_latex(table: &CategoryTable, caption: &str) -> String {
    let mut out = String::new();
    latex_open(&mut out, &format!("l{}", "c".repeat(table.entries.len())));
    out.push_str("Category");
    for entry in &table.entries {
        out.push_str(&format!(" & {}", latex_escape(&entry.label())));
    }
    out.push_str(" \\\\\n\\midrule\n");
    for row in &table.rows {
        out.push_str(&latex_escape(&row.category));
        for cell in &row.cells {
            let best = matches!((cell.acc, row.best), (Some(m), Some(b)) if m.mean == b);
            let text = latex_cell(cell.acc, best);
            if cell.acc.is_some() {
                out.push_str(&format!(" & {text} ({})", cell.n));
            } else {
                out.push_str(&format!(" & {text}"));
            }
        }
        out.push_str(" \\\\\n");
    }
    latex_close(&mut out, caption);
    out
}

/// A caption for the category table.
///
/// ```
/// use engine::plawbench::leaderboard::{category_caption, CategoryTable};
/// let table = CategoryTable { entries: vec![], rows: vec![] };
/// assert_eq!(category_caption(&table), "PLawBench Task 2 (case analysis) by category: mean acc ×100 (n scored items), best of each category in bold.");
/// ```
pub fn category_caption(table: &CategoryTable) -> String {
    let over_runs = if table.entries.iter().any(|e| e.runs > 1) {
        ", mean ± sample std over runs"
    } else {
        ""
    };
    format!(
        "PLawBench Task 2 (case analysis) by category: mean acc ×100{over_runs} \
         (n scored items), best of each category in bold."
    )
}

/// The (view, column) pairs a reference row ([`crate::reference`]) may
/// give on this leaderboard: the official ranking (`official`) and its ten
/// columns ([`Column::OFFICIAL`]), values ×100 as the README writes them.
///
/// ```
/// let pairs = engine::plawbench::leaderboard::reference_columns();
/// assert_eq!(pairs.len(), 10);
/// assert_eq!(pairs[0], ("official".to_owned(), "overall".to_owned()));
/// ```
pub fn reference_columns() -> Vec<(String, String)> {
    Column::OFFICIAL
        .into_iter()
        .map(|c| (REFERENCE_VIEW.to_owned(), c.key().to_owned()))
        .collect()
}

/// The one view of PLawBench reference rows: the official ranking.
pub const REFERENCE_VIEW: &str = "official";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plawbench::score::{Counts, Task2Summary, Task3Summary};
    use proptest::prelude::*;
    use serde_json::Value;

    /// The official ranking of §B5 (README @ f6ee07b), Family | Model |
    /// the ten columns.
    const OFFICIAL: &str = "
Claude | Claude-sonnet-4-20250514 | 53.55 | 55.91 | 62.57 | 79.75 | 49.54 | 35.66 | 58.24 | 46.48 | 39.60 | 53.35
Claude | Claude-sonnet-4-5-20250929 | 65.88 | 67.57 | 67.61 | 88.32 | 64.05 | 47.22 | 70.98 | 59.67 | 52.05 | 67.29
Claude | Claude-opus-4-5-20251101 | 66.47 | 68.00 | 69.82 | 83.61 | 65.49 | 53.61 | 68.92 | 62.27 | 56.54 | 68.01
DeepSeek | DeepSeek-V3.2 | 57.97 | 64.01 | 65.56 | 82.89 | 61.64 | 43.27 | 60.12 | 46.48 | 44.43 | 48.52
DeepSeek | DeepSeek-V3.2-thinking-inner | 63.23 | 64.11 | 63.91 | 86.35 | 60.24 | 44.19 | 72.09 | 55.87 | 46.13 | 65.61
Doubao | Doubao-seed-1-6-250615 | 63.88 | 61.79 | 64.53 | 83.12 | 56.87 | 43.69 | 75.02 | 59.95 | 48.59 | 71.32
Ernie | Ernie-5.0-thinking-preview | 51.39 | 62.89 | 64.17 | 85.84 | 58.33 | 40.96 | 27.79 | 47.94 | 46.70 | 49.18
Gemini | Gemini-2.5-flash | 62.07 | 63.85 | 64.94 | 88.95 | 60.64 | 37.00 | 68.77 | 54.65 | 46.44 | 62.87
Gemini | Gemini-2.5-pro | 64.05 | 64.14 | 68.12 | 78.48 | 64.49 | 43.15 | 70.31 | 59.73 | 55.35 | 64.11
Gemini | Gemini-3.0-pro-preview | 66.35 | 64.95 | 72.03 | 77.79 | 65.00 | 46.42 | 70.17 | 66.13 | 63.84 | 68.42
GLM | Glm-4.6 | 60.49 | 61.37 | 66.34 | 77.05 | 60.00 | 42.26 | 63.19 | 57.21 | 51.65 | 62.77
GPT | GPT-4o-20240806 | 35.76 | 41.66 | 54.79 | 67.90 | 34.46 | 15.82 | 47.86 | 17.86 | 17.81 | 17.92
GPT | GPT-5-0807-global | 67.76 | 62.92 | 66.77 | 86.21 | 60.27 | 34.18 | 78.71 | 68.54 | 61.05 | 76.03
GPT | GPT-5.2-1211-global | 69.67 | 66.37 | 69.93 | 88.26 | 60.38 | 48.59 | 79.57 | 68.58 | 58.25 | 63.42
Grok | Grok-4.1-fast | 52.67 | 58.17 | 63.32 | 89.94 | 53.37 | 21.55 | 59.07 | 39.23 | 30.25 | 48.22
Kimi | Kimi-k2 | 57.27 | 60.26 | 64.62 | 80.96 | 56.66 | 40.27 | 62.73 | 48.66 | 41.78 | 55.54
Qwen | Qwen-4b-instruct-2507 | 50.53 | 53.72 | 52.61 | 89.98 | 44.77 | 23.76 | 58.49 | 39.37 | 31.08 | 47.66
Qwen | Qwen-4b-thinking-2507 | 44.80 | 52.70 | 56.61 | 89.97 | 45.97 | 26.73 | 41.88 | 39.83 | 30.22 | 49.44
Qwen | Qwen-8b | 43.11 | 49.91 | 53.65 | 77.92 | 42.72 | 27.62 | 48.96 | 30.46 | 31.27 | 29.64
Qwen | Qwen3-30b-a3b-instruct-2507 | 55.73 | 59.81 | 59.65 | 90.13 | 53.44 | 32.60 | 61.19 | 45.30 | 32.21 | 58.39
Qwen | Qwen3-30b-a3b-thinking-2507 | 50.29 | 51.19 | 57.74 | 75.43 | 44.77 | 30.60 | 52.01 | 47.63 | 39.61 | 55.65
Qwen | Qwen3-235b-a22b-instruct-2507 | 63.08 | 65.57 | 64.34 | 91.90 | 60.07 | 42.52 | 67.79 | 55.78 | 42.04 | 69.51
Qwen | Qwen3-235b-a22b-thinking-2507 | 62.82 | 64.26 | 64.39 | 88.68 | 59.93 | 41.97 | 61.32 | 61.41 | 51.95 | 70.86
Qwen | Qwen3-max | 64.75 | 67.17 | 67.52 | 90.97 | 62.75 | 45.10 | 75.76 | 53.38 | 49.33 | 57.43
";

    /// An entry with the ten official values (ratios) in column order,
    /// each with `std` when `runs` > 1.
    fn entry(
        family: Option<&str>,
        model: &str,
        values: [Option<f64>; 10],
        runs: usize,
    ) -> EntryScores {
        let cell = |k: usize| {
            values[k].map(|mean| MeanStd {
                mean,
                std: (runs > 1).then_some(0.01),
            })
        };
        let mut key = EntryKey {
            model: model.to_owned(),
            ..EntryKey::default()
        };
        if let Some(family) = family {
            key.extra.insert("model_family".into(), family.into());
        }
        EntryScores {
            model: model.to_owned(),
            model_family: family.map(str::to_owned),
            family: None,
            runs,
            overall: Some(cell(0)),
            task1: Some(cell(6)),
            task2: Some(Task2Summary {
                acc: cell(1),
                conclusion_acc: cell(2),
                fact_acc: cell(3),
                reasoning_acc: cell(4),
                law_acc: cell(5),
            }),
            task3: Some(Task3Summary {
                avg: Some(cell(7)),
                plaintiff: Some(cell(8)),
                defendant: Some(cell(9)),
            }),
            per_sample_overall: cell(1),
            by_category: None,
            counts: Counts::default(),
            key,
        }
    }

    fn official() -> Vec<EntryScores> {
        OFFICIAL
            .trim()
            .lines()
            .map(|line| {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                let mut values = [None; 10];
                for (v, text) in values.iter_mut().zip(&cells[2..]) {
                    *v = text.parse::<f64>().ok().map(|x| x / 100.0);
                }
                entry(Some(cells[0]), cells[1], values, 1)
            })
            .collect()
    }

    fn doc(entries: Vec<EntryScores>) -> ScoreDocument {
        ScoreDocument {
            benchmark: crate::benchmark::Benchmark::Plawbench,
            dataset: None,
            items: BTreeMap::new(),
            entries,
        }
    }

    fn models(table: &Table) -> Vec<&str> {
        table.rows.iter().map(|r| r.model.as_str()).collect()
    }

    #[test]
    fn the_official_ranking_groups_families_as_the_readme_does() {
        let readme = official();
        // Family blocks given in reverse order, each block in README order.
        let mut shuffled: Vec<EntryScores> = Vec::new();
        let mut blocks: Vec<Vec<EntryScores>> = Vec::new();
        for e in readme.clone() {
            match blocks.last_mut() {
                Some(block) if block[0].model_family == e.model_family => block.push(e),
                _ => blocks.push(vec![e]),
            }
        }
        for block in blocks.into_iter().rev() {
            shuffled.extend(block);
        }
        let table = build_table(&doc(shuffled), &View::default());
        let expected: Vec<&str> = readme.iter().map(|e| e.model.as_str()).collect();
        assert_eq!(models(&table), expected);
        assert_eq!(
            table
                .columns
                .iter()
                .map(|c| c.label_en())
                .collect::<Vec<_>>(),
            [
                "Overall",
                "Task2-Avg",
                "Task2-Conclusion",
                "Task2-Facts",
                "Task2-Reasoning",
                "Task2-Statute",
                "Task1",
                "Task3-Avg",
                "Task3-Plaintiff",
                "Task3-Defendant"
            ]
        );
        let qwen4b = table
            .rows
            .iter()
            .find(|r| r.model == "Qwen-4b-instruct-2507")
            .expect("a row");
        let shown: Vec<String> = qwen4b.cells.iter().flatten().map(format_cell).collect();
        assert_eq!(
            shown,
            [
                "50.53", "53.72", "52.61", "89.98", "44.77", "23.76", "58.49", "39.37", "31.08",
                "47.66"
            ]
        );
        // The best of each column, bold in the README.
        let best: Vec<String> = table
            .best
            .iter()
            .map(|b| format!("{:.2}", b.expect("a best") * 100.0))
            .collect();
        assert_eq!(
            best,
            [
                "69.67", "68.00", "72.03", "91.90", "65.49", "53.61", "79.57", "68.58", "63.84",
                "76.03"
            ]
        );
        assert!(table.rows.iter().all(|r| r.setting.is_none()));
    }

    #[test]
    fn sorting_by_a_column_orders_every_row_highest_first() {
        let mut entries = official();
        entries.push(entry(None, "No-Task", [None; 10], 1));
        let table = build_table(&doc(entries), &View::from_query(Some("overall")));
        assert_eq!(
            &models(&table)[..3],
            [
                "GPT-5.2-1211-global",
                "GPT-5-0807-global",
                "Claude-opus-4-5-20251101"
            ]
        );
        assert_eq!(models(&table).last(), Some(&"No-Task"));
        assert!(table.is_best(0, 0));
        assert!(!table.is_best(1, 0));
        let by_facts = build_table(&doc(official()), &View::from_query(Some("task2_facts")));
        assert_eq!(models(&by_facts)[0], "Qwen3-235b-a22b-instruct-2507");
        assert_eq!(by_facts.sort, Some(Column::Task2Facts));
    }

    #[test]
    fn entries_without_a_family_come_last_and_families_ignore_case() {
        let values = [Some(0.5); 10];
        let table = build_table(
            &doc(vec![
                entry(None, "X", values, 1),
                entry(Some("qwen"), "Q", values, 1),
                entry(Some("Claude"), "C", values, 1),
                entry(Some("通义"), "T", values, 1),
            ]),
            &View::default(),
        );
        assert_eq!(models(&table), ["C", "Q", "T", "X"]);
    }

    #[test]
    fn every_column_key_round_trips_and_matches_the_metric_labels() {
        assert_eq!(Column::ALL.map(Column::metric), Metric::ALL);
        for column in Column::ALL {
            assert_eq!(Column::of(column.metric()), column);
            assert_eq!(Column::parse(column.key()), Some(column));
            assert_eq!(column.label_en(), column.metric().label());
            assert_eq!(
                serde_json::to_value(column).expect("serialises"),
                Value::from(column.key())
            );
        }
        assert_eq!(&Column::ALL[..10], Column::OFFICIAL);
        assert_eq!(column_metric("sort"), None);
    }

    #[test]
    fn entries_of_one_model_are_told_apart_by_what_differs() {
        let values = [Some(0.5); 10];
        let mut strict = entry(Some("Qwen"), "Qwen3-max", values, 1);
        let mut lenient = strict.clone();
        let mut median = strict.clone();
        for (e, parse, aggregation) in [
            (&mut strict, "strict", "mean"),
            (&mut lenient, "lenient", "mean"),
            (&mut median, "lenient", "median"),
        ] {
            e.key.extra.insert("judge_parse".into(), parse.into());
            e.key
                .extra
                .insert("judge_aggregation".into(), aggregation.into());
            e.key.extra.insert(
                "judges".into(),
                serde_json::json!([{"model": "gpt-4.1"}, {"model": "qwen3-max"}]),
            );
        }
        let other = entry(Some("Qwen"), "Qwen-8b", values, 1);
        let table = build_table(&doc(vec![strict, lenient, median, other]), &View::default());
        let labels: Vec<String> = table.rows.iter().map(Row::label).collect();
        assert_eq!(
            labels,
            [
                "Qwen3-max (parse: strict; aggregation: mean)",
                "Qwen3-max (parse: lenient; aggregation: mean)",
                "Qwen3-max (parse: lenient; aggregation: median)",
                "Qwen-8b"
            ]
        );
        assert_eq!(
            caption(&table),
            "PLawBench official ranking: scores ×100, best of each column in bold; grouped by family."
        );
    }

    #[test]
    fn alike_settings_fall_back_to_json() {
        let values = [Some(0.5); 10];
        let mut a = entry(None, "M", values, 1);
        let mut b = a.clone();
        a.key
            .extra
            .insert("judges".into(), serde_json::json!([{"model": "J"}]));
        b.key.extra.insert(
            "judges".into(),
            serde_json::json!([{"model": "J", "vendor": "v"}]),
        );
        let shown = settings(&[a, b]);
        assert_eq!(
            shown,
            [
                Some(r#"judges: [{"model":"J"}]"#.to_owned()),
                Some(r#"judges: [{"model":"J","vendor":"v"}]"#.to_owned())
            ]
        );
    }

    #[test]
    fn csv_and_latex_of_the_official_ranking() {
        let mut entries = official();
        entries.truncate(2);
        entries[1].runs = 3;
        entries[1].overall = Some(Some(MeanStd {
            mean: 0.6588,
            std: Some(0.0123),
        }));
        entries[1].model = "=Claude_4.5 & co".into();
        let table = build_table(&doc(entries), &View::default());
        let csv = to_csv(&table);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[1].starts_with("Claude,Claude-sonnet-4-20250514,,1,0,0,0.5355,,"));
        assert!(
            lines[2].starts_with("Claude,'=Claude_4.5 & co,,3,0,0,0.6588,0.0123,"),
            "{csv}"
        );

        let tex = to_latex(&table, &caption(&table));
        assert!(tex.contains("\\begin{tabular}{llcccccccccc}\n\\toprule\n"));
        assert!(
            tex.contains("Claude & Claude-sonnet-4-20250514 & 53.55 & "),
            "{tex}"
        );
        assert!(
            tex.contains(
                " & =Claude\\_4.5 \\& co & \\textbf{65.88$\\pm$1.23} & \\textbf{67.57} & "
            ),
            "{tex}"
        );
        assert!(tex.contains("\\caption{PLawBench official ranking: scores ×100, mean ± sample std over runs, best of each column in bold; grouped by family.}"), "{tex}");
        assert_eq!(tex.matches("\\midrule").count(), 1, "one family, one block");
    }

    #[test]
    fn the_table_round_trips_through_json() {
        let table = build_table(&doc(official()), &View::from_query(Some("task1")));
        let json = serde_json::to_value(&table).expect("serialises");
        assert_eq!(json["columns"][3], "task2_facts");
        assert_eq!(json["sort"], "task1");
        assert_eq!(json["rows"][0]["model"], "GPT-5.2-1211-global");
        let back: Table = serde_json::from_value(json).expect("deserialises");
        assert_eq!(back, table);
    }

    fn run_scores(by_category: &[(&str, Option<f64>, usize)]) -> RunScores {
        use crate::plawbench::score::{CategoryScore, TaskScores};
        let n: usize = by_category.iter().map(|c| c.2).sum();
        RunScores {
            tasks: [(
                Task::CaseAnalysis,
                TaskScores {
                    items: n,
                    scored: n,
                    unavailable: 0,
                    truncated: 0,
                    acc: Some(0.5),
                    sections: BTreeMap::new(),
                    section_scored: BTreeMap::new(),
                },
            )]
            .into(),
            per_sample_overall: Some(0.5),
            by_category: by_category
                .iter()
                .map(|&(c, acc, n)| (c.to_owned(), CategoryScore { acc, n }))
                .collect(),
        }
    }

    #[test]
    fn the_category_table_orders_categories_as_the_dataset_and_counts_over_runs() {
        let key = |model: &str| EntryKey {
            model: model.into(),
            ..EntryKey::default()
        };
        let runs = vec![
            (
                key("A"),
                run_scores(&[
                    ("个人生活", Some(0.5), 2),
                    ("诉讼仲裁", Some(0.25), 1),
                    ("其他", None, 0),
                ]),
            ),
            (
                key("A"),
                run_scores(&[
                    ("个人生活", Some(0.7), 2),
                    ("诉讼仲裁", Some(0.75), 1),
                    ("其他", None, 0),
                ]),
            ),
            (key("B"), run_scores(&[("个人生活", Some(0.9), 1)])),
        ];
        let document = crate::plawbench::score::summarise_runs(runs.clone(), &[]);
        let table = category_table(&document, &runs);
        let categories: Vec<&str> = table.rows.iter().map(|r| r.category.as_str()).collect();
        assert_eq!(categories, ["诉讼仲裁", "个人生活", "其他"]);
        let personal = &table.rows[1];
        assert_eq!(personal.cells[0].n, 4);
        assert!((personal.cells[0].acc.expect("a mean").mean - 0.6).abs() < 1e-15);
        assert_eq!(personal.best, Some(0.9));
        assert_eq!(table.rows[0].cells[1], CategoryCell { acc: None, n: 0 });
        let csv = category_to_csv(&table);
        assert!(
            csv.starts_with("category,A mean,A std,A n,B mean,B std,B n\n诉讼仲裁,0.5,"),
            "{csv}"
        );
        let tex = category_to_latex(&table, &category_caption(&table));
        assert!(
            tex.contains("个人生活 & 60.00$\\pm$14.14 (4) & \\textbf{90.00} (1) \\\\"),
            "{tex}"
        );
        assert!(tex.contains("其他 & -- & -- \\\\"), "{tex}");
        assert!(tex.contains("mean ± sample std over runs"));
    }

    #[test]
    fn the_evalscope_view_sums_counts_over_runs() {
        let view = evalscope_view(&[
            run_scores(&[("个人生活", Some(0.5), 3)]),
            run_scores(&[("个人生活", Some(0.5), 2)]),
        ]);
        assert_eq!(view.runs, 2);
        assert_eq!(view.rows.len(), 2);
        assert_eq!(
            (view.rows[0].name(), view.rows[0].num),
            ("case_analysis", 5)
        );
        assert_eq!(
            view.rows[0].acc,
            Some(MeanStd {
                mean: 0.5,
                std: Some(0.0)
            })
        );
        assert_eq!((view.rows[1].name(), view.rows[1].num), ("OVERALL", 5));
        assert!(evalscope_view([]).rows.is_empty());
    }

    fn arbitrary_entry() -> impl Strategy<Value = EntryScores> {
        (
            proptest::option::of(prop_oneof![
                Just("Qwen"),
                Just("qwen"),
                Just("GPT"),
                Just("Claude")
            ]),
            prop_oneof![Just("A"), Just("B"), Just("=C")],
            proptest::array::uniform10(proptest::option::of(0.0f64..=1.0)),
            1usize..4,
            prop_oneof![Just("strict"), Just("lenient")],
            prop_oneof![Just("J"), Just("K")],
        )
            .prop_map(|(family, model, values, runs, parse, judge)| {
                let mut e = entry(family, model, values, runs);
                e.key.extra.insert("judge_parse".into(), parse.into());
                e.key
                    .extra
                    .insert("judges".into(), serde_json::json!([{ "model": judge }]));
                e
            })
    }

    fn arbitrary_entries() -> impl Strategy<Value = Vec<EntryScores>> {
        proptest::collection::vec(arbitrary_entry(), 0..12).prop_map(|entries| {
            // Entries are unique by key, as summarise_runs makes them.
            let mut unique: Vec<EntryScores> = Vec::new();
            for e in entries {
                if !unique.iter().any(|u| u.key == e.key) {
                    unique.push(e);
                }
            }
            unique
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn rows_are_the_entries_ordered_as_asked(entries in arbitrary_entries(), sort in proptest::option::of(proptest::sample::select(Column::ALL.to_vec()))) {
            let document = doc(entries);
            let table = build_table(&document, &View { sort });
            let mut seen: Vec<usize> = table.rows.iter().map(|r| r.entry).collect();
            seen.sort_unstable();
            prop_assert_eq!(seen, (0..document.entries.len()).collect::<Vec<_>>());
            for pair in table.rows.windows(2) {
                let (a, b) = (&pair[0], &pair[1]);
                match sort {
                    None => {
                        let order = family_order(a.model_family.as_deref(), b.model_family.as_deref());
                        prop_assert!(order != Ordering::Greater);
                        if order == Ordering::Equal {
                            prop_assert!(a.entry < b.entry, "document order within a family");
                        }
                    }
                    Some(column) => {
                        let value = |r: &Row| entry_metric(&document.entries[r.entry], column.metric()).map(|m| m.mean);
                        prop_assert!(column.better().best_first(value(a), value(b)) != Ordering::Greater);
                    }
                }
            }
            for (c, best) in table.best.iter().enumerate() {
                let means: Vec<f64> = table.rows.iter().filter_map(|r| r.cells[c].map(|m| m.mean)).collect();
                prop_assert_eq!(best.is_some(), !means.is_empty());
                if let Some(best) = best {
                    prop_assert!(means.iter().all(|m| m <= best));
                    prop_assert!((0..table.rows.len()).any(|r| table.is_best(r, c)));
                }
            }
        }

        #[test]
        fn entries_of_one_model_have_distinct_settings(entries in arbitrary_entries()) {
            let shown = settings(&entries);
            for (i, a) in entries.iter().enumerate() {
                let others = entries.iter().filter(|b| b.model == a.model).count();
                prop_assert_eq!(shown[i].is_some(), others > 1);
                for (j, b) in entries.iter().enumerate().skip(i + 1) {
                    if a.model == b.model {
                        prop_assert_ne!(&shown[i], &shown[j]);
                    }
                }
            }
        }

        #[test]
        fn csv_has_a_record_per_row_and_no_formula(entries in arbitrary_entries()) {
            let table = build_table(&doc(entries), &View::default());
            let csv = to_csv(&table);
            let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(csv.as_bytes());
            let records: Vec<csv::StringRecord> = reader.records().collect::<Result<_, _>>().expect("CSV reads back");
            prop_assert_eq!(records.len(), table.rows.len());
            for (record, row) in records.iter().zip(&table.rows) {
                prop_assert_eq!(record.len(), 6 + 2 * table.columns.len());
                prop_assert!(!record[1].starts_with('='));
                let overall: Option<f64> = record[6].parse().ok();
                prop_assert_eq!(overall, row.cells[0].map(|m| m.mean));
            }
        }
    }
}
