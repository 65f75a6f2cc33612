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
//! - [`ClientAddress`]: the address sign-in throttling counts a failure
//!   against: the TCP peer, or behind a trusted proxy the last
//!   `X-Forwarded-For` entry.

use std::net::SocketAddr;

use axum::body::{to_bytes, Body};
use axum::extract::{ConnectInfo, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

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
