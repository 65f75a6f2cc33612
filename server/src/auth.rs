//! Sign-in and sign-out as plain form posts (they work without JavaScript),
//! and the guard that refuses cross-site writes.
//!
//! Sessions live in the database (`db::sessions`); the browser holds only a
//! random token in an HttpOnly, SameSite=Lax cookie (also Secure with
//! `--secure-cookies`, or behind a trusted proxy that says https). Failed
//! sign-ins are counted per name and client address, per address and per
//! name (`db::sessions::throttled`); past a limit, sign-in answers 429. Every non-GET request
//! whose `Origin` (or, lacking it, `Referer`) names another site is refused, so
//! forms and server functions are CSRF-safe.

use app::ssr::{cookie, SESSION_COOKIE};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use axum::{Form, Router};
use serde::Deserialize;

use crate::security::{plain_page, secure_cookie, ClientAddress};
use crate::AppState;

/// Largest sign-in or sign-out form accepted.
pub const MAX_FORM_BYTES: usize = 16 * 1024;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/auth/signin", post(sign_in))
        .route("/auth/signout", post(sign_out))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_FORM_BYTES))
}

#[derive(Debug, Deserialize)]
pub struct SignInForm {
    name: Option<String>,
    password: Option<String>,
    /// Where to go once signed in (a path of this site).
    next: Option<String>,
}

fn session_cookie(token: &str, max_age_secs: i64, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_secs}{secure}"
    )
}

/// 429 with `Retry-After`, and a page that says why (the form posts without
/// JavaScript, so the browser shows this body).
fn too_many_attempts(retry_after_secs: i64) -> Response {
    let minutes = (retry_after_secs + 59) / 60;
    let mut res = plain_page(
        StatusCode::TOO_MANY_REQUESTS,
        "Sign in 登录",
        &format!(
            "<p class=\"error-box\" role=\"alert\" data-testid=\"sign-in-error\">\
             Too many failed attempts: try again in {minutes} minute(s). \
             失败次数过多，请 {minutes} 分钟后再试。</p>\
             <p><a href=\"/signin\">Back to sign-in 返回登录</a></p>"
        ),
    );
    if let Ok(value) = retry_after_secs.to_string().parse() {
        res.headers_mut().insert(header::RETRY_AFTER, value);
    }
    res
}

fn back_to_sign_in(code: &str, next: Option<&str>) -> Response {
    let next = next.map_or_else(String::new, |n| format!("&next={}", app::url::encode(n)));
    Redirect::to(&format!("/signin?error={code}{next}")).into_response()
}

/// `next` if it is a path of this site to go back to after signing in (so
/// never another site: no `//host`, no scheme, no backslash).
fn local_path(next: Option<&str>) -> Option<&str> {
    next.filter(|p| {
        p.starts_with('/')
            && !p.starts_with("//")
            && !p.contains('\\')
            && !p.chars().any(char::is_control)
    })
}

async fn sign_in(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Form(form): Form<SignInForm>,
) -> Response {
    let name = form.name.unwrap_or_default();
    let password = form.password.unwrap_or_default();
    let next = local_path(form.next.as_deref());
    if name.trim().is_empty() || password.is_empty() {
        return back_to_sign_in("missing", next);
    }
    match try_sign_in(&state, &name, &password, &address).await {
        Ok(Some(token)) => {
            let max_age = db::sessions::SESSION_DAYS * 24 * 3600;
            let secure = secure_cookie(&state, &headers);
            (
                [(header::SET_COOKIE, session_cookie(&token, max_age, secure))],
                Redirect::to(next.unwrap_or("/")),
            )
                .into_response()
        }
        Ok(None) => back_to_sign_in("invalid", next),
        Err(SignInRefused::Throttled { retry_after_secs }) => too_many_attempts(retry_after_secs),
        Err(SignInRefused::Internal(db::DbError::Busy(e))) => {
            tracing::warn!("sign-in: database busy: {e}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, services::error::RETRY_AFTER_SECS)],
                "the server is busy; try again in a moment",
            )
                .into_response()
        }
        Err(SignInRefused::Internal(e)) => {
            tracing::error!("sign-in failed: {e}");
            (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
        }
    }
}

enum SignInRefused {
    Throttled { retry_after_secs: i64 },
    Internal(db::DbError),
}

impl From<db::DbError> for SignInRefused {
    fn from(e: db::DbError) -> Self {
        SignInRefused::Internal(e)
    }
}

/// Checks the password unless the name or the address is throttled;
/// returns a session token.
async fn try_sign_in(
    state: &AppState,
    name: &str,
    password: &str,
    address: &str,
) -> Result<Option<String>, SignInRefused> {
    if let Some(retry_after_secs) = db::sessions::throttled(&state.db, name, address).await? {
        return Err(SignInRefused::Throttled { retry_after_secs });
    }
    match db::users::verify(&state.db, name, password).await? {
        Some(user) => {
            db::sessions::clear_failures(&state.db, name).await?;
            Ok(Some(db::sessions::create(&state.db, &user).await?))
        }
        None => {
            db::sessions::record_failure(&state.db, name, address).await?;
            Ok(None)
        }
    }
}

async fn sign_out(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Some(token) = cookie(&headers, SESSION_COOKIE) {
        if let Err(e) = db::sessions::delete(&state.db, token).await {
            tracing::error!("sign-out failed: {e}");
        }
    }
    let secure = secure_cookie(&state, &headers);
    (
        [(header::SET_COOKIE, session_cookie("", 0, secure))],
        Redirect::to("/"),
    )
        .into_response()
}

/// The `host[:port]` of an absolute URL such as an `Origin` or `Referer` value.
fn url_host(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    Some(rest.split(['/', '?', '#']).next().unwrap_or(rest))
}

/// Refuses writes (any method but GET, HEAD, OPTIONS) sent from another site.
pub async fn same_origin_writes(req: Request, next: Next) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(req).await;
    }
    let headers = req.headers();
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let source = headers
        .get(header::ORIGIN)
        .or_else(|| headers.get(header::REFERER))
        .and_then(|v| v.to_str().ok());
    match (source, host) {
        (Some(source), Some(host)) if url_host(source) != Some(host) => (
            StatusCode::FORBIDDEN,
            "cross-site request refused: this form must be sent from this site",
        )
            .into_response(),
        _ => next.run(req).await,
    }
}

#[cfg(test)]
mod tests {
    use super::url_host;

    #[test]
    fn only_paths_of_this_site_are_gone_back_to() {
        assert_eq!(
            super::local_path(Some("/review?lang=en")),
            Some("/review?lang=en")
        );
        for bad in [
            "//evil.example",
            "https://evil.example",
            "/\\evil",
            "review",
            "/a\nb",
        ] {
            assert_eq!(super::local_path(Some(bad)), None, "{bad}");
        }
    }

    #[test]
    fn hosts_are_read_from_origins_and_referers() {
        assert_eq!(url_host("http://127.0.0.1:3000"), Some("127.0.0.1:3000"));
        assert_eq!(
            url_host("https://example.org/signin?x=1"),
            Some("example.org")
        );
        assert_eq!(url_host("null"), None);
    }
}

/// The user of an API request (API token or session), or a 401 JSON error.
#[derive(Debug, Clone)]
pub struct SignedIn(pub db::users::User);

impl axum::extract::FromRequestParts<AppState> for SignedIn {
    type Rejection = crate::error::ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        app::ssr::request_user(&state.db, &parts.headers)
            .await?
            .map(SignedIn)
            .ok_or(crate::error::ApiError::Unauthorized)
    }
}

impl SignedIn {
    /// The user, if their role allows `permission`; else a 403 JSON error.
    pub fn require(
        self,
        permission: engine::accounts::Permission,
    ) -> Result<db::users::User, crate::error::ApiError> {
        if self.0.allows(permission) {
            Ok(self.0)
        } else {
            Err(crate::error::ApiError::Forbidden)
        }
    }
}
