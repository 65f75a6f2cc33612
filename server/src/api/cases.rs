//! `GET /api/cases` (filtered, paged summaries) and `GET /api/cases/{case_id}`
//! (the case as in docs/formats.md §2).

use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use engine::core::paging::{paging, Page};
use engine::lexpilot::dataset::Case;
use engine::lexpilot::query::{CaseFilter, CaseSummary};
use engine::vocab::{Class, FocalPointType, PlaintiffType, Verdict};
use serde::{Deserialize, Serialize};

use super::current_dataset;
use crate::error::ApiError;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/cases", get(list))
        .route("/cases/{case_id}", get(one))
}

/// The query string, taken as text so that a bad value gets a message naming it.
#[derive(Debug, Default, Deserialize)]
pub struct ListQuery {
    class: Option<String>,
    cause: Option<String>,
    plaintiff_type: Option<String>,
    verdict: Option<String>,
    focal_point_type: Option<String>,
    seed: Option<String>,
    q: Option<String>,
    page: Option<String>,
    per_page: Option<String>,
}

fn field<T>(
    name: &str,
    value: Option<String>,
    parse: impl Fn(&str) -> Option<T>,
    expected: &str,
) -> Result<Option<T>, ApiError> {
    match value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => parse(v).map(Some).ok_or_else(|| {
            ApiError::bad_request(format!(
                "query parameter {name}: {v:?} is not valid; expected {expected}"
            ))
        }),
    }
}

fn names<T: Copy>(all: &[T], name: impl Fn(T) -> &'static str) -> String {
    all.iter().map(|v| name(*v)).collect::<Vec<_>>().join(", ")
}

impl ListQuery {
    fn into_filter(self) -> Result<(CaseFilter, u32, u32), ApiError> {
        let filter = CaseFilter {
            class: field(
                "class",
                self.class,
                Class::parse,
                &names(&Class::ALL, Class::as_str),
            )?,
            cause: field(
                "cause",
                self.cause,
                |c| engine::vocab::cause(c).map(|k| k.name_zh.to_owned()),
                "a cause of action of Table 10",
            )?,
            plaintiff_type: field(
                "plaintiff_type",
                self.plaintiff_type,
                PlaintiffType::parse,
                &names(&PlaintiffType::ALL, PlaintiffType::as_str),
            )?,
            verdict: field(
                "verdict",
                self.verdict,
                Verdict::parse,
                &names(&Verdict::ALL, Verdict::as_str),
            )?,
            focal_point_type: field(
                "focal_point_type",
                self.focal_point_type,
                FocalPointType::parse,
                &names(&FocalPointType::ALL, FocalPointType::as_str),
            )?,
            seed: field(
                "seed",
                self.seed,
                |s| s.parse::<bool>().ok(),
                "true or false",
            )?,
            q: self.q.filter(|q| !q.trim().is_empty()),
        };
        let page = field(
            "page",
            self.page,
            |p| p.parse::<u32>().ok(),
            "a positive integer",
        )?;
        let per_page = field(
            "per_page",
            self.per_page,
            |p| p.parse::<u32>().ok(),
            "a positive integer",
        )?;
        let (page, per_page) = paging(page, per_page);
        Ok((filter, page, per_page))
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct CaseListResponse {
    pub dataset: String,
    pub dataset_version: i64,
    #[serde(flatten)]
    pub page: Page<CaseSummary>,
}

async fn list(
    State(state): State<AppState>,
    Query(query): Query<ListQuery>,
) -> Result<Json<CaseListResponse>, ApiError> {
    let (filter, page, per_page) = query.into_filter()?;
    let dataset = current_dataset(&state).await?;
    let page = db::cases::list(&state.db, dataset.id, &filter, page, per_page).await?;
    Ok(Json(CaseListResponse {
        dataset: dataset.name,
        dataset_version: dataset.version,
        page,
    }))
}

async fn one(
    State(state): State<AppState>,
    Path(case_id): Path<String>,
) -> Result<Json<Case>, ApiError> {
    let dataset = current_dataset(&state).await?;
    Ok(Json(
        db::cases::get(&state.db, dataset.id, &case_id).await?.case,
    ))
}
