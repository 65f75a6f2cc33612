//! `POST /api/evalscope`: evalscope's PLawBench output as a zip archive of
//! its output folder (the body), imported into the current PLawBench
//! dataset (researchers and admins). `?check=true` converts, reconciles
//! and runs the store's own checks without writing (200 with what would be
//! stored and, in `plan`, what each run would do; or the status and error
//! the import would answer, 409 or 403, saying what `?replace=true` or
//! `?first_run=` would change); otherwise every run is stored in
//! one transaction (201), or nothing: 422 with `errors: [{file, line,
//! item_id, field, message}]` for output that cannot be imported, 409 for a
//! run stored already unless `?replace=true`. `?first_run=N` numbers
//! generation 0 as run N; `?family=` and `?model_family=` go into the
//! headers. The archive is read within the limits of
//! [`services::evalscope`] (per file, in total, imports at once: 503 with
//! `Retry-After` when the server runs as many as it may).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use db::runs::OnDuplicate;
use engine::accounts::Permission;
use engine::benchmark::Benchmark;
use engine::plawbench::evalscope::ImportOptions;
use serde::Deserialize;
use serde_json::json;

use super::current_dataset_of;
use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/evalscope", post(import))
}

#[derive(Debug, Default, Deserialize)]
pub struct ImportQuery {
    #[serde(default)]
    check: bool,
    #[serde(default)]
    replace: bool,
    first_run: Option<u32>,
    family: Option<String>,
    model_family: Option<String>,
}

async fn import(
    State(state): State<AppState>,
    user: SignedIn,
    Query(query): Query<ImportQuery>,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<serde_json::Value>), ApiError> {
    let user = user.require(Permission::UploadRun)?;
    let body = body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge(format!(
            "the archive is larger than {} MiB",
            crate::MAX_BODY_BYTES / (1024 * 1024)
        )),
        _ => ApiError::bad_request(format!("cannot read the request body: {e}")),
    })?;
    let family = match query.family.as_deref() {
        None => None,
        Some(f) => Some(engine::core::entry::Family::parse(f).ok_or_else(|| {
            ApiError::bad_request(format!(
                "query parameter family: {f:?} is not valid; expected legal, open or closed"
            ))
        })?),
    };
    let options = ImportOptions {
        first_run: query.first_run.unwrap_or(1).max(1),
        dataset: None,
        family,
        model_family: query.model_family,
    };
    let dataset = current_dataset_of(&state, Benchmark::Plawbench).await?;
    // The turn is held until the import has answered: reading, converting
    // and storing all count against the bound.
    let _turn = state.imports.enter().await?;
    let files = services::evalscope::read_upload(body).await?;
    let first_run = options.first_run;
    let prepared = services::evalscope::prepare(&state.db, &dataset, files, options).await?;
    let report = serde_json::to_value(&prepared.preview).map_err(ApiError::internal)?;
    let on_duplicate = OnDuplicate::replacing(
        query.replace,
        engine::accounts::Replacer::of(user.id, user.role),
    );
    if query.check {
        let plan =
            services::evalscope::plan(&state.db, &dataset, &prepared, on_duplicate, first_run)
                .await?;
        return Ok((
            StatusCode::OK,
            Json(json!({ "import": report, "stored": [], "plan": plan })),
        ));
    }
    let stored =
        services::evalscope::store(&state.db, &dataset, prepared, Some(user.id), on_duplicate)
            .await?;
    let runs: Vec<&db::runs::RunInfo> = stored.iter().map(|(info, _)| info).collect();
    Ok((
        StatusCode::CREATED,
        Json(json!({ "import": report, "stored": runs })),
    ))
}
