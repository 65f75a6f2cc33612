//! The LexPilot server: [`router`] builds the whole axum app (pages, server
//! functions, the JSON API, sign-in) for a given [`AppState`]; `main.rs` holds
//! the CLI that opens the database and serves it.
//!
//! - [`api`]: the JSON API for scripts under `/api/` (one file per resource).
//! - [`auth`]: sign-in and sign-out form posts, and the same-origin guard.
//! - [`config`]: site options (where the compiled site is, the address).
//! - [`demo`]: the synthetic demo dataset compiled into the binary.
//! - [`error`]: the API error type and its HTTP mapping.
//! - [`pages`]: reading pages without inline scripts, cached for anonymous
//!   visitors per data epoch with `ETag`s and gzip; the site's files under
//!   content-hashed links.
//! - [`report`]: plain-text score tables for the terminal.
//! - [`suites`]: what the command line needs of each hosted benchmark.
//! - [`security`]: security headers on every response, server-function input
//!   errors as 400/413, the client address sign-in throttling counts.
//!
//! Error policy: users get a clear message and a 4xx for what they can fix;
//! anything else is logged with its cause and answered with a generic 500.

#![recursion_limit = "256"]

pub mod api;
pub mod auth;
pub mod config;
pub mod demo;
pub mod error;
pub mod pages;
pub mod report;
pub mod security;
pub mod suites;

pub use services::{AppState, Network};

use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::Router;
use leptos::prelude::provide_context;
use leptos_axum::{generate_route_list, AxumRouteListing, LeptosRoutes};
use tower_http::compression::CompressionLayer;
use tower_http::trace::TraceLayer;

/// Largest request body accepted anywhere: a run file upload (through the API
/// or the upload page's server functions). Sign-in forms have a far smaller
/// limit of their own ([`auth::MAX_FORM_BYTES`]).
pub const MAX_BODY_BYTES: usize = api::MAX_RUN_BYTES;

/// The app's routes, generated once per process. Generating them renders the
/// app once with resource loading switched off by a process-wide flag of
/// Leptos (`SuppressResourceLoad`): a page that another application of the
/// same process starts to render meanwhile would wait for its data for ever.
/// The routes depend on the code alone, so one generation serves every
/// router (tests build one per test, in parallel with other tests' renders).
fn routes() -> Vec<AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<AxumRouteListing>> = std::sync::OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(app::App)).clone()
}

/// The path of every page the app routes (axum's form: `/cases/{case_id}`),
/// as [`router`] serves them; tests that must visit every page take their
/// list from here, so a new page is one they cover or fail on.
pub fn page_paths() -> Vec<String> {
    routes().iter().map(|r| r.path().to_owned()).collect()
}

/// The whole application for `state`, ready to serve or to call with `oneshot`.
///
/// Two routers: the outer one does what every request needs (trace,
/// compression, security headers, content-hashed file links, cached
/// reading pages) and hands the rest to the inner one, which routes. So a
/// cached page is answered before routing, without cloning a route's
/// service stack, and a `/v/<hash>/…` link is routed as the file it names.
pub fn router(state: AppState) -> Router {
    let routes = routes();
    let shell_options = state.leptos_options.clone();
    let context_state = state.clone();
    let app = Router::new()
        .nest("/api", api::router())
        .merge(auth::router())
        .route("/lang", axum::routing::get(pages::switch_lang))
        .leptos_routes_with_context(
            &state,
            routes,
            move || provide_context(context_state.clone()),
            move || app::shell(shell_options.clone()),
        )
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(
            app::shell,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            security::page_roles,
        ))
        .layer(middleware::from_fn(security::server_fn_input))
        .layer(middleware::from_fn(auth::same_origin_writes))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state.clone());
    Router::new()
        .fallback_service(app)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            pages::reading_pages,
        ))
        .layer(middleware::from_fn_with_state(
            state,
            pages::versioned_files,
        ))
        .layer(middleware::from_fn(security::headers))
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
}
