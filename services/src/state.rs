//! The application state: one per server process, cheap to clone.

use axum::extract::FromRef;
use db::Db;
use leptos::config::LeptosOptions;

use crate::jobs::JobManager;
use crate::read::ReadModels;

/// State shared by every handler and server function, created once at start.
#[derive(Clone, Debug, FromRef)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub db: Db,
    /// The benchmark jobs this process runs.
    pub jobs: JobManager,
    /// How the server stands towards the network: cookies, proxies.
    pub network: Network,
    /// The figures derived from stored runs, with their caches.
    pub read: ReadModels,
    /// The imported statutes, indexed for citation lookup.
    pub statutes: crate::statutes::StatuteCache,
}

/// How the server is reached, which decides what it may trust of a request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Network {
    /// Mark the session cookie `Secure`: the site is served over https.
    pub secure_cookies: bool,
    /// A reverse proxy stands in front: take the client's address from the
    /// last `X-Forwarded-For` entry (for sign-in throttling), and mark the
    /// session cookie `Secure` when `X-Forwarded-Proto` is `https`.
    pub behind_proxy: bool,
}
