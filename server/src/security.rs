//! What every response carries and what every request is checked for, beyond
//! the role checks of each handler:
//!
//! - [`headers`]: `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`,
//!   `Referrer-Policy: same-origin` on every response, and a
//!   Content-Security-Policy on those that lack one: pages get theirs from
//!   the app shell (`app::ssr::content_security_policy`, with the nonce of
//!   the render), everything else [`STRICT_CSP`].
//! - [`server_fn_input`]: a server-function call whose input cannot be read
//!   (missing fields, a number that is not one, broken JSON) answers 400
//!   with the reason, and one over the body limit 413, instead of the 500
//!   that the server-function layer gives every error it did not raise.
//! - [`page_roles`]: a page only some roles may use
//!   (`app::routes::PAGE_PERMISSIONS`) is refused before it renders: an
//!   anonymous visitor is sent to sign in (and back after), another role
//!   gets 403 with a page saying so. The writes behind every page check the
//!   role again on their own.
//! - [`ClientAddress`]: the address sign-in throttling counts a failure
//!   against: the TCP peer, or behind a trusted proxy the last
//!   `X-Forwarded-For` entry.

use std::net::SocketAddr;

use axum::body::{to_bytes, Body};
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::Method;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};

use crate::AppState;

/// The policy of every response that is not a page: nothing may be loaded
/// from it, run in it, or frame it.
pub const STRICT_CSP: &str = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/// Adds the security headers to every response (see the module docs).
pub async fn headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(STRICT_CSP),
        );
    }
    res
}

/// Where server functions are served.
const SERVER_FN_PREFIX: &str = "/sfn/";
/// How the server-function layer names errors in reading a call's input.
const INPUT_ERRORS: [&str; 3] = ["Args|", "Deserialization|", "MissingArg|"];
/// The largest error body looked into; input errors are short.
const MAX_ERROR_BODY: usize = 64 * 1024;

/// Maps a server-function call's unreadable input to 400 (413 when the body
/// is over the limit), and leaves every other response as it is.
pub async fn server_fn_input(req: Request, next: Next) -> Response {
    if !req.uri().path().starts_with(SERVER_FN_PREFIX) {
        return next.run(req).await;
    }
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > crate::MAX_BODY_BYTES) {
        return too_large();
    }
    let res = next.run(req).await;
    if res.status() != StatusCode::INTERNAL_SERVER_ERROR {
        return res;
    }
    let (parts, body) = res.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_ERROR_BODY).await else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response();
    };
    let text = String::from_utf8_lossy(&bytes);
    match INPUT_ERRORS.iter().find_map(|p| text.strip_prefix(p)) {
        Some(reason) if reason.contains("length limit exceeded") => too_large(),
        Some(reason) => {
            let message = format!("the request's input cannot be read: {reason}");
            let mut res = Response::from_parts(parts, Body::from(message));
            *res.status_mut() = StatusCode::BAD_REQUEST;
            res.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            res.headers_mut().remove(header::CONTENT_LENGTH);
            res
        }
        None => Response::from_parts(parts, Body::from(bytes)),
    }
}

fn too_large() -> Response {
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "the request is larger than the limit of {} MiB",
            crate::MAX_BODY_BYTES / (1024 * 1024)
        ),
    )
        .into_response()
}

/// The client a request comes from, as sign-in throttling counts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientAddress(pub String);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let forwarded = state
            .network
            .behind_proxy
            .then(|| {
                parts
                    .headers
                    .get_all("x-forwarded-for")
                    .iter()
                    .filter_map(|v| v.to_str().ok())
                    .flat_map(|v| v.split(','))
                    .map(str::trim)
                    .rfind(|v| !v.is_empty())
                    .map(str::to_owned)
            })
            .flatten();
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip().to_string());
        Ok(ClientAddress(forwarded.or(peer).unwrap_or_default()))
    }
}

/// Whether the session cookie is to be marked `Secure` for a request with
/// these headers: always with `--secure-cookies`, and behind a trusted proxy
/// when it says the client used https.
pub fn secure_cookie(state: &AppState, headers: &axum::http::HeaderMap) -> bool {
    state.network.secure_cookies
        || (state.network.behind_proxy
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https")))
}

/// The policy of the small pages the server writes itself (refusals): their
/// stylesheet and nothing else.
pub const PLAIN_PAGE_CSP: &str = "default-src 'none'; style-src 'self'; frame-ancestors 'none'";

/// A page the server writes itself, outside the app: `status`, a heading and
/// a message (HTML, already escaped), styled like the app.
pub fn plain_page(status: StatusCode, title: &str, body: &str) -> Response {
    let page = format!(
        "<!DOCTYPE html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · LexPilot Workbench</title>\
         <link rel=\"stylesheet\" href=\"/pkg/lexpilot.css\"></head><body>\
         <header class=\"site-header\"><a class=\"brand\" href=\"/\">LexPilot \
         <span class=\"brand-sub\">Workbench</span></a></header><main id=\"main\">\
         <section class=\"panel narrow\"><h1>{title}</h1>{body}</section></main></body></html>"
    );
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, PLAIN_PAGE_CSP),
        ],
        page,
    )
        .into_response()
}

/// Refuses a role-only page to those without the role (see the module docs).
pub async fn page_roles(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if !matches!(*req.method(), Method::GET | Method::HEAD) {
        return next.run(req).await;
    }
    let Some(permission) = app::routes::page_permission(req.uri().path()) else {
        return next.run(req).await;
    };
    let user = match app::ssr::request_user(&state.db, req.headers()).await {
        Ok(user) => user,
        Err(e) => return crate::error::ApiError::from(e).into_response(),
    };
    match user {
        Some(user) if user.allows(permission) => next.run(req).await,
        Some(user) => plain_page(
            StatusCode::FORBIDDEN,
            "Not for your role 无权访问",
            &format!(
                "<p class=\"error-box\" role=\"alert\" data-testid=\"access-refused\">\
                 You are signed in as {} ({}); this page is not for your role. \
                 您的角色无权使用此页面。</p><p><a href=\"/\">Overview 概览</a></p>",
                html_escape::encode_text(&user.name),
                user.role.as_str()
            ),
        ),
        None => {
            let back = req
                .uri()
                .path_and_query()
                .map_or("/", |p| p.as_str())
                .to_owned();
            Redirect::to(&format!("/signin?next={}", app::url::encode(&back))).into_response()
        }
    }
}
