//! What a page shows and its export writes, built once for both, so that
//! an export never holds more (or other) than its page: the items behind
//! a leaderboard cell of each benchmark with what blind review keeps back,
//! the comparison of two LexPilot entries, a model's entries, and the
//! review dashboard as its viewer may see it.
//!
//! Blind review: judge verdicts (LexPilot), rubric verdicts (PLawBench)
//! and panel decisions (DLawBench) open for review are kept back from
//! every viewer but those who manage review (admins)
//! ([`sees_open_review`], [`Sight`]): a drill-down hides them in the
//! items it shows, and the figures of the comparison and the model page
//! are the read models' for the viewer's sight, which leave them out
//! (each says how many it left out). An expert's dashboard counts only
//! the items they have submitted (`db::review::dashboard`).
//!
//! Messages of the errors the pages show in their language take a
//! [`Lang`]; the rest are English, as the API's.

use std::sync::Arc;

use db::datasets::DatasetInfo;
use db::users::User;
use db::Db;
use engine::core::entry::EntryKey;
use engine::lang::Lang;
use engine::lexpilot::drilldown::{drilldown, Cell, Drilldown};
use engine::lexpilot::model::{model_entries as entries_of, CompareRow, ModelEntry, RunRow};
use engine::lexpilot::run::Run;
use engine::lexpilot::score::{Metric, RunScores};
use engine::review::Dashboard;
use engine::vocab::{Class, Vocabulary};

use crate::read::{DlawRuns, DlawSnapshot, PlawRuns, PlawSnapshot, Sight};
use crate::{AppState, Error, Result};

/// Whether `viewer` sees what is open for blind review: admins (who
/// manage review) do, everyone else (anonymous visitors included) does not.
pub fn sees_open_review(viewer: Option<&User>) -> bool {
    Sight::of(viewer) == Sight::Full
}

/// The items behind one LexPilot leaderboard cell of one model.
#[derive(Debug, Clone)]
pub struct LexpilotCell {
    /// The model's stored runs (every task), by run number.
    pub runs: Vec<Run>,
    /// How many leaderboard entries the runs form.
    pub entries: usize,
    /// Every case of the cell with what each run did, the judge's labels
    /// under review kept back unless the viewer sees them.
    pub drill: Drilldown,
}

/// The items behind `cell` of `model`'s row on `dataset`, as `viewer` may
/// see them; 404 when the model has no run, or no run with the task (or
/// LJP setup).
pub async fn lexpilot_cell(
    state: &AppState,
    dataset: &DatasetInfo,
    model: &str,
    cell: Cell,
    viewer: Option<&User>,
) -> Result<LexpilotCell> {
    let db = &state.db;
    let stored = state.read.model_runs(db, dataset, model).await?;
    if stored.is_empty() {
        return Err(Error::NotFound(format!(
            "no run of model \"{model}\" has been uploaded for this dataset"
        )));
    }
    let cases = db::cases::all(db, dataset.id).await?;
    let runs: Vec<Run> = stored.iter().map(|(_, run)| run.clone()).collect();
    let mut drill = drilldown(&cases, &runs, cell.task, cell.setup, cell.class);
    if !sees_open_review(viewer) {
        let open = db::review::open_judge_verdicts(db, &dataset.name, model, cell.task).await?;
        drill.hide_verdicts(&open);
    }
    if drill.runs.is_empty() {
        let what = match cell.task {
            engine::lexpilot::run::Task::Ljp => format!("LJP in the {} setup", cell.setup),
            task => task.as_str().to_uppercase(),
        };
        return Err(Error::NotFound(format!(
            "no run of model \"{model}\" contains {what}"
        )));
    }
    let entries =
        engine::lexpilot::entries::group_runs(stored.iter().map(|(key, run)| (key, run.parts())))
            .len();
    Ok(LexpilotCell {
        runs,
        entries,
        drill,
    })
}

/// The rubric verdicts or panel decisions of `model` on `dataset_name` to
/// keep back from `viewer`, as (run, item or case, target): those open for
/// blind review, unless the viewer sees them; `None` when nothing is kept
/// back. The PLawBench and DLawBench drill-downs both ask this.
pub async fn hidden_rubric_verdicts(
    db: &Db,
    dataset_name: &str,
    model: &str,
    viewer: Option<&User>,
) -> Result<Option<Vec<(u32, String, Option<String>)>>> {
    if sees_open_review(viewer) {
        return Ok(None);
    }
    let open = db::review::open_rubric_verdicts(db, dataset_name, model).await?;
    Ok((!open.is_empty()).then_some(open))
}

/// The index in `doc` of the PLawBench entry of `model` shown with
/// `setting` on the leaderboard, or a 404 in `lang`.
pub fn plaw_entry(
    doc: &engine::plawbench::score::ScoreDocument,
    model: &str,
    setting: Option<&str>,
    lang: Lang,
) -> Result<usize> {
    let settings = engine::plawbench::leaderboard::settings(&doc.entries);
    doc.entries
        .iter()
        .zip(&settings)
        .position(|(e, s)| e.model == model && s.as_deref() == setting)
        .ok_or_else(|| {
            let setting = setting.map(|s| format!(" ({s})")).unwrap_or_default();
            Error::NotFound(match lang {
                Lang::Zh => format!("模型 {model}{setting} 没有 PLawBench 条目"),
                Lang::En => format!("no PLawBench entry of model {model}{setting}"),
            })
        })
}

/// The items behind one PLawBench leaderboard cell of one entry.
pub struct PlawCell {
    /// Every row of the cell (not one page), with the verdicts under
    /// review kept back unless the viewer sees them.
    pub drill: engine::plawbench::drilldown::CellDrilldown,
    /// The snapshot the cell was read from.
    pub snapshot: Arc<PlawSnapshot>,
    runs: Arc<PlawRuns>,
    key: EntryKey,
}

impl PlawCell {
    /// The entry's stored runs.
    pub fn entry_runs(&self) -> impl Iterator<Item = &engine::plawbench::run::Run> {
        self.runs
            .iter()
            .filter(|(k, _)| *k == self.key)
            .map(|(_, r)| r)
    }
}

/// The items behind the cell of `metric` of entry (`model`, `setting`) on
/// `dataset`, of one `case_analysis` category or all, as `viewer` may see
/// them; 404 (in `lang`) for an entry the leaderboard does not have.
#[expect(
    clippy::too_many_arguments,
    reason = "the cell's coordinates, each a query parameter"
)]
pub async fn plaw_cell(
    state: &AppState,
    dataset: &DatasetInfo,
    model: &str,
    setting: Option<&str>,
    metric: engine::plawbench::score::Metric,
    category: Option<&str>,
    viewer: Option<&User>,
    lang: Lang,
) -> Result<PlawCell> {
    let sight = Sight::of(viewer);
    let (snapshot, runs) = state.read.plaw_runs(&state.db, dataset, sight).await?;
    let entry = plaw_entry(&snapshot.document, model, setting, lang)?;
    let key = snapshot.document.entries[entry].key.clone();
    let of_entry: Vec<(u32, &engine::plawbench::run::Run)> = runs
        .iter()
        .filter(|(k, _)| *k == key)
        .map(|(_, r)| (r.header.run, r))
        .collect();
    let mut drill = engine::plawbench::drilldown::cell_items(
        &snapshot.items,
        &of_entry,
        metric,
        category.filter(|c| !c.is_empty()),
    );
    if let Some(open) = hidden_rubric_verdicts(&state.db, &dataset.name, model, viewer).await? {
        let open: Vec<(u32, String)> = open.into_iter().map(|(run, item, _)| (run, item)).collect();
        drill.hide_verdicts(&open);
    }
    Ok(PlawCell {
        drill,
        snapshot,
        runs,
        key,
    })
}

/// The index in `doc` of the DLawBench entry of `model` shown with
/// `setting` on the leaderboard, or a 404 in `lang`.
pub fn dlaw_entry(
    doc: &engine::dlawbench::score::ScoreDocument,
    model: &str,
    setting: Option<&str>,
    lang: Lang,
) -> Result<usize> {
    use engine::dlawbench::leaderboard::{main_table, TableView};
    main_table(doc, &TableView::default())
        .rows
        .iter()
        .find(|r| r.model == model && r.setting.as_deref() == setting)
        .map(|r| r.entry)
        .ok_or_else(|| {
            let setting = setting.map(|s| format!(" ({s})")).unwrap_or_default();
            Error::NotFound(match lang {
                Lang::Zh => format!("模型 {model}{setting} 没有 DLawBench 条目"),
                Lang::En => format!("no DLawBench entry of model {model}{setting}"),
            })
        })
}

/// The (run, case, style) sessions of `model` whose panel decisions are
/// kept back from `viewer` ([`hidden_rubric_verdicts`]).
pub async fn hidden_sessions(
    db: &Db,
    dataset_name: &str,
    model: &str,
    viewer: Option<&User>,
) -> Result<Option<Vec<(u32, String, engine::dlawbench::dataset::Style)>>> {
    use engine::dlawbench::dataset::Style;
    Ok(hidden_rubric_verdicts(db, dataset_name, model, viewer)
        .await?
        .map(|open| {
            open.into_iter()
                .filter_map(|(run, case, style)| Some((run, case, Style::parse(&style?)?)))
                .collect()
        }))
}

/// The (run, case, style) sessions of `model` whose client style is under
/// blind review, kept from `viewer` (`None`: the viewer sees them, or there
/// are none; [`db::review::open_client_styles`]).
pub async fn styles_under_review(
    db: &Db,
    dataset_name: &str,
    model: &str,
    viewer: Option<&User>,
) -> Result<Option<Vec<(u32, String, engine::dlawbench::dataset::Style)>>> {
    use engine::dlawbench::dataset::Style;
    if sees_open_review(viewer) {
        return Ok(None);
    }
    let open: Vec<_> = db::review::open_client_styles(db, dataset_name, model)
        .await?
        .into_iter()
        .filter_map(|(run, case, style)| Some((run, case, Style::parse(&style)?)))
        .collect();
    Ok((!open.is_empty()).then_some(open))
}

/// The sessions behind one DLawBench leaderboard cell of one entry.
pub struct DlawCell {
    /// Every session of the cell, with the values under review kept back
    /// unless the viewer sees them.
    pub cell: engine::dlawbench::drilldown::CellSessions,
    /// The snapshot the cell was read from.
    pub snapshot: Arc<DlawSnapshot>,
    runs: Arc<DlawRuns>,
    key: EntryKey,
}

impl DlawCell {
    /// The entry's stored runs.
    pub fn entry_runs(&self) -> impl Iterator<Item = &engine::dlawbench::run::Run> {
        self.runs
            .iter()
            .filter(|(k, _)| *k == self.key)
            .map(|(_, r)| r)
    }
}

/// The sessions behind the cell of `metric` at `level` in `view` of entry
/// (`model`, `setting`) on `dataset`, as `viewer` may see them; 404 (in
/// `lang`) for an entry the leaderboard does not have.
#[expect(
    clippy::too_many_arguments,
    reason = "the cell's coordinates, each a query parameter"
)]
pub async fn dlaw_cell(
    state: &AppState,
    dataset: &DatasetInfo,
    model: &str,
    setting: Option<&str>,
    metric: engine::dlawbench::score::Metric,
    view: engine::dlawbench::score::View,
    level: &engine::dlawbench::drilldown::Level,
    viewer: Option<&User>,
    lang: Lang,
) -> Result<DlawCell> {
    let sight = Sight::of(viewer);
    let (snapshot, runs) = state.read.dlaw_runs(&state.db, dataset, sight).await?;
    let entry = dlaw_entry(&snapshot.document, model, setting, lang)?;
    let key = snapshot.document.entries[entry].key.clone();
    let of_entry: Vec<&engine::dlawbench::run::Run> = runs
        .iter()
        .filter(|(k, _)| *k == key)
        .map(|(_, r)| r)
        .collect();
    let mut cell = engine::dlawbench::drilldown::cell_sessions(
        &snapshot.items,
        &of_entry,
        metric,
        view,
        level,
    );
    if let Some(hidden) = hidden_sessions(&state.db, &dataset.name, model, viewer).await? {
        cell.hide_values(&hidden);
    }
    if let Some(under_review) = styles_under_review(&state.db, &dataset.name, model, viewer).await?
    {
        cell.leave_out(&under_review);
    }
    Ok(DlawCell {
        cell,
        snapshot,
        runs,
        key,
    })
}

/// The `class` query parameter of a LexPilot page: a class, or all cases
/// (absent, empty or `overall`); 400 naming the classes otherwise.
pub fn class_param(class: Option<&str>) -> Result<Option<Class>> {
    match class.filter(|c| !c.is_empty() && *c != "overall") {
        None => Ok(None),
        Some(c) => Class::parse(c).map(Some).ok_or_else(|| {
            Error::Invalid(format!(
                "unknown class \"{c}\"; expected overall or one of {}",
                Class::expected()
            ))
        }),
    }
}

/// Two LexPilot entries compared, or only the pickers.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// Every entry's model name, for the pickers.
    pub models: Vec<String>,
    /// Per score, A against B; empty without both.
    pub rows: Vec<CompareRow>,
    /// How many judge decisions under blind review the figures leave out.
    pub left_out: usize,
}

/// Entry `a` against entry `b` (by model; the first entry of that model)
/// on every score, over all cases or `class`, by paired bootstrap over the
/// cases, in the figures of `sight` (scores named in `lang`). Without
/// both, only the pickers; 404 for a model without an entry; 409 for
/// entries made with different settings.
pub async fn compare(
    state: &AppState,
    dataset: &DatasetInfo,
    a: Option<&str>,
    b: Option<&str>,
    class: Option<Class>,
    sight: Sight,
    lang: Lang,
) -> Result<Comparison> {
    // Only the two entries' runs are read for resampling.
    let (snapshot, ea, eb, models) = loop {
        let snapshot = state.read.snapshot(&state.db, dataset, sight).await?;
        let mut models: Vec<String> = Vec::new();
        for key in snapshot.keys() {
            if !models.contains(&key.model) {
                models.push(key.model.clone());
            }
        }
        let entry = |name: Option<&str>| -> Result<Option<usize>> {
            match name.filter(|n| !n.is_empty()) {
                None => Ok(None),
                Some(n) => snapshot.entry_of(n).map(Some).ok_or_else(|| {
                    Error::NotFound(format!("no entry of model \"{n}\" on this dataset"))
                }),
            }
        };
        let (ea, eb) = (entry(a)?, entry(b)?);
        let (Some(ea), Some(eb)) = (ea, eb) else {
            return Ok(Comparison {
                models,
                rows: Vec::new(),
                left_out: snapshot.left_out,
            });
        };
        let entries = &snapshot.document.entries;
        let reasons = engine::lexpilot::entries::not_comparable(&entries[ea].key, &entries[eb].key);
        if !reasons.is_empty() {
            return Err(Error::Conflict(format!(
                "{} and {} cannot be compared: they were produced with different settings ({})",
                entries[ea].model,
                entries[eb].model,
                reasons.join("; ")
            )));
        }
        match state
            .read
            .sample_entries(&state.db, &snapshot, &[ea, eb])
            .await
        {
            Ok(()) => break (snapshot, ea, eb, models),
            // A run of one was replaced meanwhile: a newer snapshot has it.
            Err(Error::Conflict(_)) => continue,
            Err(e) => return Err(e),
        }
    };
    let left_out = snapshot.left_out;
    let results = state
        .read
        .compare(&snapshot, ea, eb, Metric::ALL.to_vec(), class)
        .await?;
    let value =
        |entry: usize, metric, class| snapshot.sample(entry).and_then(|s| s.value(metric, class));
    let rows = results
        .into_iter()
        .map(|(metric, result)| CompareRow {
            metric: metric.label_in(lang),
            a: value(ea, metric, class),
            b: value(eb, metric, class),
            result,
        })
        .filter(|r| r.a.is_some() || r.b.is_some())
        .collect();
    Ok(Comparison {
        models,
        rows,
        left_out,
    })
}

/// A model's entries as its page shows them.
#[derive(Debug, Clone)]
pub struct ModelEntries {
    /// Its stored runs grouped into the leaderboard's entries.
    pub entries: Vec<ModelEntry>,
    /// How many judge decisions under blind review the figures leave out
    /// (of every run on the dataset, as the leaderboard's).
    pub left_out: usize,
}

/// Every stored run of `model` on `dataset`, grouped into the entries the
/// leaderboard makes of them, each run scored as the leaderboard counts it
/// for `sight` (public figures without the decisions under blind review);
/// rows named in `lang`. 404 when it has none. A run stored after the
/// snapshot was read waits for the next one.
pub async fn model_entries(
    state: &AppState,
    dataset: &DatasetInfo,
    model: &str,
    sight: Sight,
    lang: Lang,
) -> Result<ModelEntries> {
    let db = &state.db;
    let runs = db::runs::model_runs(db, dataset.id, model).await?;
    if runs.is_empty() {
        return Err(Error::NotFound(format!(
            "no run of model \"{model}\" has been uploaded for this dataset"
        )));
    }
    let snapshot = state.read.snapshot(db, dataset, sight).await?;
    let runs: Vec<(RunRow, EntryKey, RunScores)> = runs
        .into_iter()
        .filter_map(|run| {
            let scores = snapshot.run_scores(run.info.id)?.clone();
            let row = RunRow {
                run: run.info.run_number,
                created_at: run.info.created_at,
                uploaded_by: run.uploaded_by,
                unavailable: run.info.unavailable,
            };
            Some((row, run.entry_key, scores))
        })
        .collect();
    Ok(ModelEntries {
        entries: entries_of(&runs, &snapshot.cases, lang),
        left_out: snapshot.left_out,
    })
}

/// The datasets review spans: the current version of every hosted
/// benchmark that has one, LexPilot first (empty when there is none).
pub async fn review_datasets(db: &Db) -> Result<Vec<DatasetInfo>> {
    let mut datasets = Vec::new();
    for benchmark in engine::benchmark::Benchmark::ALL {
        if !benchmark.hosted() {
            continue;
        }
        if let Some(d) = db::datasets::current(db, benchmark).await? {
            datasets.push(d);
        }
    }
    Ok(datasets)
}

/// The agreement dashboard of `datasets` ([`review_datasets`]) for
/// `viewer`: adjudicators get figures over every item and the
/// disagreements; an expert figures over the items they have submitted
/// only and no disagreement list.
pub async fn review_dashboard(
    db: &Db,
    datasets: &[DatasetInfo],
    viewer: &User,
) -> Result<Dashboard> {
    let mut boards = Vec::new();
    for dataset in datasets {
        boards.push(db::review::dashboard(db, &dataset.name, viewer).await?);
    }
    Ok(merge_boards(boards))
}

/// One dashboard of several datasets' dashboards: rows, sheet rows and
/// disagreements one after the other, progress summed per expert.
fn merge_boards(boards: Vec<Dashboard>) -> Dashboard {
    let mut merged = Dashboard {
        rows: Vec::new(),
        sheets: Vec::new(),
        client_style: Vec::new(),
        disagreements: Vec::new(),
        progress: Vec::new(),
        items: 0,
        items_final: 0,
        items_in_adjudication: 0,
    };
    let mut progress: std::collections::BTreeMap<String, engine::review::ExpertProgress> =
        std::collections::BTreeMap::new();
    for board in boards {
        merged.rows.extend(board.rows);
        merged.sheets.extend(board.sheets);
        merged.client_style.extend(board.client_style);
        merged.disagreements.extend(board.disagreements);
        merged.items += board.items;
        merged.items_final += board.items_final;
        merged.items_in_adjudication += board.items_in_adjudication;
        for p in board.progress {
            progress.entry(p.expert.clone()).or_default().merge(p);
        }
    }
    merged.progress = progress
        .into_iter()
        .map(|(expert, p)| engine::review::ExpertProgress { expert, ..p })
        .collect();
    merged
}
