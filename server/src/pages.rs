//! Serving the reading pages and the site's files fast.
//!
//! - [`reading_pages`]: a reading page (`app::routes::READING_PAGES`) is sent
//!   without inline scripts (the shell links `live.js` instead of the wasm
//!   app) under [`READING_CSP`]. An anonymous visitor's copy (no session
//!   cookie, no token) is rendered once per epoch of the data
//!   ([`services::pages::PageCache`]; concurrent visitors of a cold page wait
//!   for one render) and then served from memory, gzipped
//!   when the client accepts it, with an `ETag` that answers a matching
//!   `If-None-Match` with 304. Signed-in visitors' pages are rendered for
//!   them every time and never cached, so no one gets a page rendered for
//!   someone else.
//! - [`versioned_files`]: `/v/<hash>/<path>` is the site's file at `<path>`;
//!   while `<hash>` is the file's content hash it may be cached for a year
//!   (`immutable`), otherwise (a page of an older build) it is revalidated.
//!   The files themselves are served gzipped from the `.gz` copies the
//!   site build writes.

use std::sync::Arc;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use services::pages::CachedPage;

use crate::AppState;

/// The policy of a reading page: its only script is the site's own
/// `live.js`; nothing inline runs.
pub const READING_CSP: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The largest page rendered into memory (larger ones are an error).
const MAX_PAGE_BYTES: usize = 16 * 1024 * 1024;

/// Serves reading pages as the module docs say; every other request passes.
pub async fn reading_pages(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if req.method() != Method::GET || !app::routes::is_reading_page(req.uri().path()) {
        return next.run(req).await;
    }
    let anonymous = !req.headers().contains_key(header::AUTHORIZATION)
        && app::ssr::cookie(req.headers(), app::ssr::SESSION_COOKIE).is_none();
    let asked = Asked::of(req.headers());
    let url = req.uri().to_string();
    // One copy per language: the same URL reads in Chinese or in English.
    let lang = app::components::i18n::request_lang(req.uri(), req.headers());
    let key = format!("{}:{url}", lang.code());
    let benchmark = app::routes::reading_page_benchmark(req.uri().path());
    // Anonymous visitors of one cold page wait for one render.
    let _render = if anonymous {
        if let Some(page) = state.pages.get(&key, benchmark) {
            return asked.answer(&page);
        }
        let render = state.pages.render(&key).await;
        if let Some(page) = state.pages.get(&key, benchmark) {
            return asked.answer(&page);
        }
        Some(render)
    } else {
        None
    };
    let epoch = state.pages.epoch(benchmark);
    let res = next.run(req).await;
    let (parts, body) = res.into_parts();
    let html = match to_bytes(body, MAX_PAGE_BYTES).await {
        Ok(html) => without_inline_scripts(&html),
        Err(e) => {
            tracing::error!("reading page {url} could not be rendered: {e}");
            return (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response();
        }
    };
    let cacheable = anonymous
        && parts.status == StatusCode::OK
        && !parts.headers.contains_key(header::SET_COOKIE);
    if !cacheable {
        let mut res = Response::from_parts(parts, Body::from(html));
        res.headers_mut().remove(header::CONTENT_LENGTH);
        reading_headers(res.headers_mut());
        return res;
    }
    let page = Arc::new(CachedPage::new(html, epoch));
    state.pages.put(&key, benchmark, page.clone());
    asked.answer(&page)
}

/// The query of `GET /lang`.
#[derive(serde::Deserialize)]
pub struct Switch {
    to: Option<String>,
    back: Option<String>,
}

/// `GET /lang?to=zh|en&back=PATH`: the language switch. Keeps the choice in
/// the `lang` cookie for a year and returns to `back` (a path on this site,
/// without its `lang` parameter; `/` otherwise) with 303. An unknown
/// language is a 400 that says which are known.
pub async fn switch_lang(Query(switch): Query<Switch>) -> Response {
    let Some(lang) = switch.to.as_deref().and_then(engine::lang::Lang::parse) else {
        return (StatusCode::BAD_REQUEST, "to: expected a language, zh or en").into_response();
    };
    let back = app::components::i18n::switch_back(switch.back.as_deref());
    let cookie = format!(
        "{}={}; Path=/; Max-Age=31536000; SameSite=Lax",
        engine::lang::COOKIE,
        lang.code()
    );
    let mut res = (StatusCode::SEE_OTHER, [(header::LOCATION, back)]).into_response();
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        res.headers_mut().insert(header::SET_COOKIE, value);
    }
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// What a request asks of a cached page.
struct Asked {
    gzip: bool,
    if_none_match: Option<String>,
}

impl Asked {
    fn of(headers: &HeaderMap) -> Asked {
        let gzip = headers
            .get_all(header::ACCEPT_ENCODING)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|coding| {
                let mut parts = coding.split(';');
                let name = parts.next().unwrap_or("").trim();
                let refused =
                    parts.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
                (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
            });
        let if_none_match = headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        Asked {
            gzip,
            if_none_match,
        }
    }

    fn answer(&self, page: &CachedPage) -> Response {
        let fresh = self.if_none_match.as_deref().is_some_and(|tags| {
            tags.split(',')
                .map(|t| t.trim().trim_start_matches("W/"))
                .any(|t| t == page.etag || t == "*")
        });
        let mut res = if fresh {
            StatusCode::NOT_MODIFIED.into_response()
        } else if self.gzip {
            let mut res = Response::new(Body::from(page.gzip.clone()));
            res.headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            res
        } else {
            Response::new(Body::from(page.body.clone()))
        };
        let h = res.headers_mut();
        if !fresh {
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            );
        }
        if let Ok(tag) = HeaderValue::from_str(&page.etag) {
            h.insert(header::ETAG, tag);
        }
        reading_headers(h);
        res
    }
}

/// The headers every reading page carries: its policy, and that a browser
/// must ask again (cheaply, with the `ETag`) before reusing it.
fn reading_headers(h: &mut HeaderMap) {
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(READING_CSP),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::VARY,
        HeaderValue::from_static("Cookie, Authorization, Accept-Encoding, Accept-Language"),
    );
}

/// `html` without its inline scripts (`<script` elements with no `src`):
/// on a reading page those are only the hydration data Leptos appends,
/// which nothing reads there. Stored text cannot open a `<script`: it is
/// escaped wherever it is shown.
fn without_inline_scripts(html: &[u8]) -> Bytes {
    const OPEN: &[u8] = b"<script";
    const CLOSE: &[u8] = b"</script>";
    let mut out = Vec::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = find(rest, OPEN) {
        let tag_end = find(&rest[at..], b">").map_or(rest.len(), |e| at + e + 1);
        let inline = !rest[at..tag_end]
            .windows(5)
            .any(|w| w.eq_ignore_ascii_case(b" src="));
        let Some(close) = find(&rest[tag_end..], CLOSE).map(|c| tag_end + c + CLOSE.len()) else {
            break;
        };
        out.extend_from_slice(&rest[..at]);
        if !inline {
            out.extend_from_slice(&rest[at..close]);
        }
        rest = &rest[close..];
    }
    out.extend_from_slice(rest);
    Bytes::from(out)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Serves `/v/<hash>/<path>` as the site's `<path>` (see the module docs);
/// every other request passes.
pub async fn versioned_files(
    State(state): State<AppState>,
    mut req: Request,
    next: Next,
) -> Response {
    let Some((path, current)) = state
        .assets
        .resolve(req.uri().path())
        .map(|(p, current)| (p.to_owned(), current))
    else {
        return next.run(req).await;
    };
    let Ok(uri) = path.parse::<Uri>() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    *req.uri_mut() = uri;
    let mut res = next.run(req).await;
    if res.status() == StatusCode::OK {
        let policy = if current {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_scripts_go_and_linked_ones_stay() {
        let html = br#"<head><script type="module" src="/v/abc/live.js"></script></head><body><p>a &lt;script&gt; b</p><script nonce="x">__RESOLVED_RESOURCES=[];</script></body>"#;
        let out = without_inline_scripts(html);
        assert_eq!(
            &out[..],
            br#"<head><script type="module" src="/v/abc/live.js"></script></head><body><p>a &lt;script&gt; b</p></body>"#
        );
    }

    #[test]
    fn gzip_is_sent_only_to_clients_that_take_it() {
        let mut h = HeaderMap::new();
        assert!(!Asked::of(&h).gzip);
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip, deflate, br"),
        );
        assert!(Asked::of(&h).gzip);
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("br, gzip;q=0"),
        );
        assert!(!Asked::of(&h).gzip);
    }
}
