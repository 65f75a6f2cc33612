//! `GET /api/export/<page>?<the page's query>&format=csv|json|latex[&table=…][&lang=zh|en]`:
//! the tables of the drill-downs, the compare page, a model page and the
//! agreement dashboard as files. The path is the page's own under
//! `/api/export`, the query the page's state (every row is written, not
//! one page of them), so a page links its exports by prefixing its URL.
//!
//! | path | `table` | who |
//! |---|---|---|
//! | `/leaderboard/items` | `items` (default), `runs`, `confusion` (LJP) | anyone |
//! | `/plawbench/leaderboard/items` | `items` (default), `runs` | anyone |
//! | `/dlawbench/leaderboard/sessions` | `sessions` (default), `runs` | anyone |
//! | `/compare` | one table | anyone |
//! | `/models/{model}` | `runs` (default), `lca`, `dcg`, `ljp` | anyone |
//! | `/review/agreement` | `agreement` (default), `sheets`, `panel`, `progress` | experts, admins |
//!
//! Each table is built by `services::views`, the same function its page
//! renders from, with the same viewer: what blind review keeps back from
//! the page (judge verdicts, rubric verdicts, panel decisions open for
//! review; everything but an expert's own submitted items on the
//! dashboard) is not in the file. The figures of the comparison and the
//! model page leave out the judge decisions under blind review as their
//! pages do (all counted for an admin), and their files say how many in
//! the `X-Blind-Review-Left-Out` header, as the leaderboard's export does. One writer ([`engine::core::table`]) makes
//! every format. Headers are in the page's language: `lang`, else the
//! `lang` cookie, else `Accept-Language`, else the page's default.

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use db::datasets::DatasetInfo;
use db::users::User;
use engine::accounts::Permission;
use engine::benchmark::Benchmark;
use engine::core::table::{Format, Table};
use engine::lang::Lang;
use engine::lexpilot::run::Task;
use serde::Deserialize;

use super::{current_dataset, current_dataset_of, sight, with_left_out};
use crate::error::ApiError;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/export/leaderboard/items", get(lexpilot_cell))
        .route("/export/plawbench/leaderboard/items", get(plaw_cell))
        .route("/export/dlawbench/leaderboard/sessions", get(dlaw_cell))
        .route("/export/compare", get(compare))
        .route("/export/models/{model}", get(model))
        .route("/export/review/agreement", get(agreement))
}

/// What every export reads besides its page's state.
#[derive(Debug, Default, Deserialize)]
pub struct FileQuery {
    format: Option<String>,
    table: Option<String>,
    lang: Option<String>,
}

impl FileQuery {
    /// The format asked for (CSV when none); 400 for another, or for
    /// LaTeX when `latex` is false.
    fn format(&self, latex: bool) -> Result<Format, ApiError> {
        let name = self.format.as_deref().unwrap_or("csv");
        match Format::parse(name) {
            Some(Format::Latex) if !latex => Err(ApiError::bad_request(
                "this table exports as csv or json, not latex",
            )),
            Some(format) => Ok(format),
            None => Err(ApiError::bad_request(format!(
                "query parameter format: {name:?} is not valid; expected csv, json or latex"
            ))),
        }
    }

    /// The `table` asked for, one of `names` (the first when none).
    fn table<'a>(&self, names: &[&'a str]) -> Result<&'a str, ApiError> {
        let Some(asked) = self.table.as_deref() else {
            return Ok(names[0]);
        };
        names.iter().copied().find(|n| *n == asked).ok_or_else(|| {
            ApiError::bad_request(format!(
                "query parameter table: {asked:?} is not valid; expected {}",
                names.join(", ")
            ))
        })
    }

    /// The language of the labels: as the page negotiates it.
    fn lang(&self, headers: &HeaderMap, fallback: Lang) -> Lang {
        let accept = headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok());
        engine::lang::negotiate(
            self.lang.as_deref(),
            app::ssr::cookie(headers, engine::lang::COOKIE),
            accept,
            fallback,
        )
    }
}

/// The user the request acts for (session or API token), if any.
async fn viewer(state: &AppState, headers: &HeaderMap) -> Result<Option<User>, ApiError> {
    Ok(app::ssr::request_user(&state.db, headers).await?)
}

/// `table` as a download in `format`, named after `parts`.
fn file(table: &Table, format: Format, parts: &[&str]) -> Response {
    let stem = parts.join("-");
    let ascii = ascii_name(&stem);
    let disposition = format!(
        "attachment; filename=\"{ascii}.{ext}\"; filename*=UTF-8''{}.{ext}",
        app::url::encode(&stem),
        ext = format.extension()
    );
    (
        [
            (header::CONTENT_TYPE, format.content_type().to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        table.write(format),
    )
        .into_response()
}

/// A file name stem of ASCII letters, digits, `.`, `_` and `-` only (every
/// other run of characters one `-`), for clients without `filename*`.
fn ascii_name(stem: &str) -> String {
    let mut out = String::new();
    for c in stem.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_') {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out: String = out.trim_matches(['-', '.']).chars().take(120).collect();
    if out.is_empty() {
        "export".to_owned()
    } else {
        out
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct LexpilotCellQuery {
    model: Option<String>,
    task: Option<String>,
    setup: Option<String>,
    class: Option<String>,
}

/// The LexPilot drill-down (`/leaderboard/items`).
async fn lexpilot_cell(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<LexpilotCellQuery>,
    Query(f): Query<FileQuery>,
) -> Result<Response, ApiError> {
    use engine::lexpilot::drilldown::Cell;
    use engine::lexpilot::exports::{confusion_table, drilldown_items, drilldown_runs};

    let which = f.table(&["items", "runs", "confusion"])?;
    // The items are the model's replies: nothing to typeset.
    let format = f.format(which != "items")?;
    let lang = f.lang(&headers, Lang::En);
    let cell = Cell::from_query(q.task.as_deref(), q.setup.as_deref(), q.class.as_deref())
        .map_err(ApiError::bad_request)?;
    let model = q.model.unwrap_or_default();
    let dataset = current_dataset(&state).await?;
    let viewer = viewer(&state, &headers).await?;
    let found =
        services::views::lexpilot_cell(&state, &dataset, &model, cell, viewer.as_ref()).await?;
    let drill = &found.drill;
    let table = match which {
        "runs" => drilldown_runs(drill, &model, lang),
        "confusion" => confusion_table(drill, &model, lang)
            .ok_or_else(|| ApiError::bad_request("only an LJP cell has a confusion matrix"))?,
        _ => drilldown_items(drill, &model, lang),
    };
    let setup = (cell.task == Task::Ljp).then(|| cell.setup.as_str());
    let class = cell.class.map_or("overall", |c| c.as_str());
    let mut parts = vec![dataset.name.as_str(), model.as_str(), cell.task.as_str()];
    parts.extend(setup);
    parts.extend([class, which]);
    Ok(file(&table, format, &parts))
}

#[derive(Debug, Default, Deserialize)]
pub struct PlawCellQuery {
    model: Option<String>,
    setting: Option<String>,
    column: Option<String>,
    category: Option<String>,
}

/// The PLawBench drill-down (`/plawbench/leaderboard/items`).
async fn plaw_cell(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<PlawCellQuery>,
    Query(f): Query<FileQuery>,
) -> Result<Response, ApiError> {
    use engine::plawbench::exports::{cell_items_table, cell_runs_table};
    use engine::plawbench::leaderboard::{column_metric, Column};

    let which = f.table(&["items", "runs"])?;
    let format = f.format(true)?;
    let lang = f.lang(&headers, Lang::En);
    let column = q.column.unwrap_or_else(|| Column::Overall.key().to_owned());
    let metric = column_metric(&column).ok_or_else(|| {
        ApiError::bad_request(format!(
            "query parameter column: {column:?} is not valid; expected one of {}",
            Column::ALL.map(Column::key).join(", ")
        ))
    })?;
    let model = q.model.unwrap_or_default();
    let setting = q.setting.filter(|s| !s.is_empty());
    let category = q.category.filter(|c| !c.is_empty());
    let dataset = current_dataset_of(&state, Benchmark::Plawbench).await?;
    let viewer = viewer(&state, &headers).await?;
    let found = services::views::plaw_cell(
        &state,
        &dataset,
        &model,
        setting.as_deref(),
        metric,
        category.as_deref(),
        viewer.as_ref(),
        lang,
    )
    .await?;
    let table = match which {
        "runs" => cell_runs_table(&found.drill, &model, lang),
        _ => cell_items_table(&found.drill, &model, lang),
    };
    let mut parts = vec!["plawbench", dataset.name.as_str(), model.as_str(), &column];
    parts.extend(category.as_deref());
    parts.push(which);
    Ok(file(&table, format, &parts))
}

#[derive(Debug, Default, Deserialize)]
pub struct DlawCellQuery {
    model: Option<String>,
    setting: Option<String>,
    metric: Option<String>,
    scores: Option<String>,
    jurisdiction: Option<String>,
    style: Option<String>,
    domain: Option<String>,
}

/// The DLawBench drill-down (`/dlawbench/leaderboard/sessions`).
async fn dlaw_cell(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<DlawCellQuery>,
    Query(f): Query<FileQuery>,
) -> Result<Response, ApiError> {
    use engine::dlawbench::drilldown::Level;
    use engine::dlawbench::exports::{cell_runs_table, cell_sessions_table};
    use engine::dlawbench::score::{Metric, View};

    let which = f.table(&["sessions", "runs"])?;
    let format = f.format(true)?;
    let lang = f.lang(&headers, Lang::En);
    let metric_name = q
        .metric
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| Metric::Resolution.as_str().to_owned());
    let metric = Metric::parse(&metric_name).ok_or_else(|| {
        ApiError::bad_request(format!(
            "query parameter metric: {metric_name:?} is not valid; expected one of {}",
            Metric::ALL.map(Metric::as_str).join(", ")
        ))
    })?;
    let view = match q.scores.as_deref().filter(|s| !s.is_empty()) {
        None => View::NullAsZero,
        Some(s) => View::parse(s).ok_or_else(|| {
            ApiError::bad_request(format!(
                "query parameter scores: {s:?} is not valid; expected null_as_zero or valid_only"
            ))
        })?,
    };
    let level = Level::from_query(
        q.jurisdiction.as_deref(),
        q.style.as_deref(),
        q.domain.as_deref(),
        Lang::En,
    )
    .map_err(ApiError::bad_request)?;
    let model = q.model.unwrap_or_default();
    let setting = q.setting.filter(|s| !s.is_empty());
    let dataset = current_dataset_of(&state, Benchmark::Dlawbench).await?;
    let viewer = viewer(&state, &headers).await?;
    let found = services::views::dlaw_cell(
        &state,
        &dataset,
        &model,
        setting.as_deref(),
        metric,
        view,
        &level,
        viewer.as_ref(),
        lang,
    )
    .await?;
    let table = match which {
        "runs" => cell_runs_table(&found.cell, &model, lang),
        _ => cell_sessions_table(&found.cell, &model, lang),
    };
    let parts = [
        "dlawbench",
        dataset.name.as_str(),
        model.as_str(),
        metric.as_str(),
        which,
    ];
    Ok(file(&table, format, &parts))
}

#[derive(Debug, Default, Deserialize)]
pub struct CompareQuery {
    a: Option<String>,
    b: Option<String>,
    class: Option<String>,
}

/// The comparison of two entries (`/compare`); 400 without both.
async fn compare(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<CompareQuery>,
    Query(f): Query<FileQuery>,
) -> Result<Response, ApiError> {
    let format = f.format(true)?;
    let lang = f.lang(&headers, Lang::En);
    let class = services::views::class_param(q.class.as_deref())?;
    let (Some(a), Some(b)) = (q.a.filter(|a| !a.is_empty()), q.b.filter(|b| !b.is_empty())) else {
        return Err(ApiError::bad_request(
            "name the two entries to compare: a= and b=",
        ));
    };
    let dataset = current_dataset(&state).await?;
    let sight = sight(&state, &headers).await?;
    let comparison =
        services::views::compare(&state, &dataset, Some(&a), Some(&b), class, sight, lang).await?;
    let table = engine::lexpilot::exports::compare_table(&comparison.rows, &a, &b, class, lang);
    let class = class.map_or("overall", |c| c.as_str());
    Ok(with_left_out(
        file(
            &table,
            format,
            &["compare", dataset.name.as_str(), &a, &b, class],
        ),
        comparison.left_out,
    ))
}

/// A model page's tables (`/models/{model}`): its runs, or one task's scores.
async fn model(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(model): Path<String>,
    Query(f): Query<FileQuery>,
) -> Result<Response, ApiError> {
    use engine::lexpilot::exports::{model_runs, model_scores};

    let which = f.table(&["runs", "lca", "dcg", "ljp"])?;
    let format = f.format(true)?;
    let lang = f.lang(&headers, Lang::En);
    let dataset: DatasetInfo = current_dataset(&state).await?;
    let sight = sight(&state, &headers).await?;
    let found = services::views::model_entries(&state, &dataset, &model, sight, lang).await?;
    let entries = &found.entries;
    let table = match Task::parse(which) {
        None => model_runs(&model, entries, lang),
        Some(task) => model_scores(&model, entries, task, lang).ok_or_else(|| {
            ApiError::not_found(format!(
                "no run of model \"{model}\" contains {}",
                task.as_str().to_uppercase()
            ))
        })?,
    };
    Ok(with_left_out(
        file(
            &table,
            format,
            &["model", dataset.name.as_str(), &model, which],
        ),
        found.left_out,
    ))
}

/// One table of the agreement dashboard (`/review/agreement`), as the
/// signed-in expert or admin sees it; 401 without an account, 403 for
/// another role.
async fn agreement(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(f): Query<FileQuery>,
) -> Result<Response, ApiError> {
    use engine::review::{dashboard_table, DashboardTable};

    let user = viewer(&state, &headers)
        .await?
        .ok_or(ApiError::Unauthorized)?;
    if !user.allows(Permission::Review) {
        return Err(ApiError::Forbidden);
    }
    let which = match f.table.as_deref() {
        None => DashboardTable::Agreement,
        Some(name) => DashboardTable::parse(name).ok_or_else(|| {
            ApiError::bad_request(format!(
                "query parameter table: {name:?} is not valid; expected {}",
                DashboardTable::ALL.map(DashboardTable::as_str).join(", ")
            ))
        })?,
    };
    let format = f.format(true)?;
    // The expert pages are Chinese unless asked otherwise.
    let lang = f.lang(&headers, Lang::Zh);
    let datasets = services::views::review_datasets(&state.db).await?;
    if datasets.is_empty() {
        return Err(ApiError::not_found("no dataset has been imported yet"));
    }
    let board = services::views::review_dashboard(&state.db, &datasets, &user).await?;
    let table = dashboard_table(&board, which, lang);
    Ok(file(&table, format, &["agreement", which.as_str()]))
}

#[cfg(test)]
mod tests {
    use super::ascii_name;

    #[test]
    fn file_names_keep_ascii_and_fold_the_rest() {
        assert_eq!(
            ascii_name("demo-Sim A (simulated)-ljp-gold"),
            "demo-Sim-A-simulated-ljp-gold"
        );
        assert_eq!(ascii_name("通义千问"), "export");
        assert_eq!(ascii_name("a\"b\r\nc"), "a-b-c");
    }
}
