//! Server-only helpers for server functions: the shared [`AppState`], reading
//! the session cookie, and mapping storage errors to user-facing ones.

use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use db::users::User;
use db::{Db, DbError};
use leptos::prelude::*;
use leptos_axum::ResponseOptions;
pub use services::{AppState, Network};

use crate::types::DatasetView;

/// Name of the session cookie (HttpOnly, SameSite=Lax).
pub const SESSION_COOKIE: &str = "lexpilot_session";

/// Sets the Content-Security-Policy of the page being rendered: scripts run
/// only with this render's nonce (the hydration scripts and resource data
/// carry it; anything that found its way into the HTML does not), the wasm
/// app may compile, everything else comes from this site, and no other site
/// may frame the page.
pub fn content_security_policy() {
    let (Some(nonce), Some(res)) = (leptos::nonce::use_nonce(), use_context::<ResponseOptions>())
    else {
        return;
    };
    let policy = format!(
        "default-src 'self'; script-src 'nonce-{nonce}' 'strict-dynamic' 'wasm-unsafe-eval'; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    );
    if let Ok(value) = axum::http::HeaderValue::from_str(&policy) {
        res.insert_header(axum::http::header::CONTENT_SECURITY_POLICY, value);
    }
}

/// Whether the page being rendered is a reading page
/// ([`crate::routes::READING_PAGES`]): it ships without the wasm app, and
/// nothing is serialised for hydration.
pub fn light_page() -> bool {
    use_context::<Parts>().is_some_and(|p| crate::routes::is_reading_page(p.uri.path()))
}

/// The link of the site's file at `path` with its content hash
/// ([`services::pages::Assets::url`]), which browsers may cache for a year.
pub fn asset(path: &str) -> String {
    use_context::<AppState>().map_or_else(|| path.to_owned(), |s| s.assets.url(path))
}

/// The application state the router provides to pages and server functions.
pub fn state() -> Result<AppState, ServerFnError> {
    use_context::<AppState>().ok_or_else(|| ServerFnError::new("application state is missing"))
}

/// A runtime error as the server function's error: the status of the one
/// mapping ([`services::error`]) on the response, the user-facing message
/// in the body (`Retry-After` with a 503).
pub fn fail(e: impl Into<services::Error>) -> ServerFnError {
    let e = e.into();
    if let Some(res) = use_context::<ResponseOptions>() {
        res.set_status(e.status());
        if let Some(seconds) = e.retry_after() {
            res.insert_header(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from_static(seconds),
            );
        }
    }
    ServerFnError::new(e.to_string())
}

/// The database, from the state the router provides to server functions.
pub fn db() -> Result<Db, ServerFnError> {
    use_context::<AppState>()
        .map(|s| s.db.clone())
        .ok_or_else(|| ServerFnError::new("application state is missing"))
}

/// The value of cookie `name` in `headers`.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The token of an `Authorization: Bearer TOKEN` header.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// The user a request acts for: an API token's account when it carries
/// `Authorization: Bearer`, else the session's. A bearer token that is not
/// valid never falls back to the cookie.
pub async fn request_user(db: &Db, headers: &HeaderMap) -> Result<Option<User>, DbError> {
    if let Some(token) = bearer(headers) {
        return db::tokens::user(db, token).await;
    }
    match cookie(headers, SESSION_COOKIE) {
        Some(token) => db::sessions::user(db, token).await,
        None => Ok(None),
    }
}

/// The signed-in user of the current server-function or page request.
pub async fn current_user() -> Result<Option<User>, ServerFnError> {
    let db = db()?;
    let Some(parts) = use_context::<Parts>() else {
        return Ok(None);
    };
    request_user(&db, &parts.headers).await.map_err(internal)
}

/// Logs an internal error and returns a generic message for the user.
pub fn internal(e: impl std::fmt::Display) -> ServerFnError {
    fail(services::Error::internal(e))
}

/// Sets the response status (for page renders and server-function calls alike).
pub fn set_status(status: StatusCode) {
    if let Some(res) = use_context::<ResponseOptions>() {
        res.set_status(status);
    }
}

/// The LexPilot dataset version pages show, or a 404 error when none is imported.
pub async fn current_dataset(db: &Db) -> Result<db::datasets::DatasetInfo, ServerFnError> {
    current_dataset_of(db, engine::benchmark::Benchmark::Lexpilot).await
}

/// The current dataset version of `benchmark`, or a 404 error when none is imported.
pub async fn current_dataset_of(
    db: &Db,
    benchmark: engine::benchmark::Benchmark,
) -> Result<db::datasets::DatasetInfo, ServerFnError> {
    db::datasets::current(db, benchmark)
        .await
        .map_err(fail)?
        .ok_or_else(|| {
            fail(DbError::NotFound(match crate::components::i18n::lang() {
                crate::components::i18n::Lang::Zh => {
                    format!("尚未导入 {} 数据集", benchmark.label_en())
                }
                crate::components::i18n::Lang::En => {
                    format!("no {} dataset has been imported yet", benchmark.label_en())
                }
            }))
        })
}

pub fn dataset_view(d: &db::datasets::DatasetInfo) -> DatasetView {
    DatasetView {
        name: d.name.clone(),
        version: d.version,
        synthetic: d.synthetic,
        case_count: d.case_count,
        imported_at: d.created_at.clone(),
    }
}

/// The signed-in user if their role allows `permission`; otherwise an error
/// with status 401 (not signed in) or 403 (wrong role). Every server function
/// that writes or reads something private starts with this.
pub async fn require(permission: engine::accounts::Permission) -> Result<User, ServerFnError> {
    let lang = crate::components::i18n::lang();
    match current_user().await? {
        None => {
            set_status(StatusCode::UNAUTHORIZED);
            Err(ServerFnError::new(lang.t("请先登录", "sign in first")))
        }
        Some(user) if !user.allows(permission) => {
            set_status(StatusCode::FORBIDDEN);
            Err(ServerFnError::new(
                lang.t("您的角色无权进行此操作", "your role may not do this"),
            ))
        }
        Some(user) => Ok(user),
    }
}

/// Whose figures the signed-in user gets: every judge decision counted for
/// those who manage review (admins); for everyone else the public figures,
/// which leave out the decisions under blind review
/// ([`engine::review::OpenDecision`]).
pub async fn sight() -> Result<services::read::Sight, ServerFnError> {
    Ok(services::read::Sight::of(current_user().await?.as_ref()))
}

/// How figures for `sight` on `dataset` stand to blind review: the
/// `left_out` decisions of public figures, or, for full ones, the decisions
/// open for review that everyone else's figures leave out.
pub async fn blind_review(
    db: &db::Db,
    dataset: &db::datasets::DatasetInfo,
    sight: services::read::Sight,
    left_out: usize,
) -> Result<crate::types::BlindReview, ServerFnError> {
    let counted = match sight {
        services::read::Sight::Public => 0,
        services::read::Sight::Full => services::read::under_review(db, dataset)
            .await
            .map_err(fail)?,
    };
    Ok(crate::types::BlindReview { left_out, counted })
}

/// The rubric verdicts of `model` on dataset `dataset_name` to keep back from
/// the signed-in user, as (run, item or case, target): those open for blind
/// review, unless the user manages review (an admin); `None` when nothing is
/// kept back. The PLawBench and DLawBench drill-downs both ask this.
pub async fn hidden_rubric_verdicts(
    db: &db::Db,
    dataset_name: &str,
    model: &str,
) -> Result<Option<Vec<(u32, String, Option<String>)>>, ServerFnError> {
    let viewer = current_user().await?;
    services::views::hidden_rubric_verdicts(db, dataset_name, model, viewer.as_ref())
        .await
        .map_err(fail)
}
