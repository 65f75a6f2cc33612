//! LexPilot Workbench UI: the Leptos application shared by the server
//! (feature `ssr`, which renders pages and runs server functions) and the
//! browser (feature `hydrate`, which the `frontend` crate compiles to wasm).
//!
//! - [`routes`]: every route of the app, in one place.
//! - [`pages`]: one module per page (`XPage` components).
//! - [`components`]: pieces shared by pages (`XTable`, `XView`).
//! - [`server_fns`]: server functions by domain; each authorises, calls `db` or
//!   `engine`, and maps to a [`types`] DTO. Server-only helpers live in
//!   [`ssr`] (compiled with `ssr` only).
//! - [`charts`] (server only): SVG charts drawn with plotters.
//! - [`types`]: the DTOs that cross from server to browser.
//! - [`url`]: percent-encoding for the links pages build.
//!
//! Depends on `engine` (pure domain types) everywhere, and under `ssr` on
//! `services` (the runtime: state, ingest, read models, jobs) and `db`.

#![recursion_limit = "256"]

#[cfg(feature = "ssr")]
pub mod charts;
pub mod components;
pub mod pages;
pub mod routes;
pub mod server_fns;
#[cfg(feature = "ssr")]
pub mod ssr;
pub mod types;
pub mod url;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Stylesheet, Title};

pub use routes::App;

/// The HTML document around the app, rendered on the server. It also sets the
/// page's Content-Security-Policy, which lets only the scripts of this render
/// (carrying its nonce) run.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    ssr::content_security_policy();
    view! {
        <!DOCTYPE html>
        <html lang="zh-CN">
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
                <HydrationScripts options />
                <MetaTags />
            </head>
            <body>
                <App />
            </body>
        </html>
    }
}

/// Document-wide head content: the stylesheet and the default title.
#[component]
pub fn Head() -> impl IntoView {
    provide_meta_context();
    view! {
        <Stylesheet id="leptos" href="/pkg/lexpilot.css" />
        <Title formatter=|text: String| {
            head_text(if text.is_empty() { "LexPilot Workbench".to_owned() } else { format!("{text} · LexPilot Workbench") })
        } />
    }
}

/// The title as it goes into the document. On the server it is written into
/// the HTML of `<head>` verbatim (leptos_meta does not escape it), and titles
/// carry stored names (a model, a case id), so it is escaped here; in the
/// browser it is set as `document.title`, which is text already.
#[cfg(feature = "ssr")]
fn head_text(title: String) -> String {
    html_escape::encode_text(&title).into_owned()
}

#[cfg(not(feature = "ssr"))]
fn head_text(title: String) -> String {
    title
}
