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
#[cfg(feature = "ssr")]
use leptos_meta::MetaTags;
use leptos_meta::{provide_meta_context, Title};

pub use routes::App;

/// The HTML document around the app, rendered on the server.
///
/// A reading page ([`routes::READING_PAGES`]) loads no wasm: it is complete
/// as rendered, nothing is serialised for hydration, and `live.js` (a few
/// KB) keeps its live parts current; its Content-Security-Policy is set
/// where the page is served (`server::pages`). Every other page hydrates,
/// and allows only the scripts of its own render (carrying its nonce).
/// Links to the site's files carry their content hash.
#[cfg(feature = "ssr")]
pub fn shell(options: LeptosOptions) -> impl IntoView {
    use leptos::nonce::use_nonce;

    components::i18n::provide_lang();
    let lang = components::i18n::lang();
    let light = ssr::light_page();
    if light {
        if let Some(context) = Owner::current_shared_context() {
            context.set_is_hydrating(false);
        }
    } else {
        ssr::content_security_policy();
    }
    let scripts = if light {
        view! { <script type="module" src=ssr::asset("/live.js")></script> }.into_any()
    } else {
        let pkg = format!("/{}/{}", options.site_pkg_dir, options.output_name);
        let js = ssr::asset(&format!("{pkg}.js"));
        let wasm = ssr::asset(&format!("{pkg}_bg.wasm"));
        let start = format!(
            "import init, {{ hydrate }} from {js:?}; init({{ module_or_path: {wasm:?} }}).then(hydrate);"
        );
        view! {
            <link rel="modulepreload" href=js.clone() />
            <link rel="preload" href=wasm r#as="fetch" r#type="application/wasm" crossorigin="anonymous" />
            <script type="module" nonce=use_nonce()>{start}</script>
        }
        .into_any()
    };
    view! {
        <!DOCTYPE html>
        <html lang=lang.html()>
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <link rel="icon" href=ssr::asset("/favicon.svg") type="image/svg+xml" />
                <link rel="stylesheet" id="leptos" href=ssr::asset("/pkg/lexpilot.css") />
                {scripts}
                <MetaTags />
            </head>
            <body>
                <App />
            </body>
        </html>
    }
}

/// Document-wide head content: the default title (the stylesheet is the
/// shell's).
#[component]
pub fn Head() -> impl IntoView {
    provide_meta_context();
    view! {
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
