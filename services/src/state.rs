//! The application state: one per server process, cheap to clone.

use std::ops::Deref;
use std::sync::Arc;

use axum::extract::FromRef;
use db::Db;
use leptos::config::LeptosOptions;

use crate::jobs::JobManager;
use crate::read::ReadModels;

/// State shared by every handler and server function, created once at start
/// ([`AppState::new`]). A clone is one reference count: middleware and
/// handlers clone it on every request, and a cached page is served in a few
/// microseconds.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> AppState {
        AppState(Arc::new(shared))
    }
}

impl Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> LeptosOptions {
        state.leptos_options.clone()
    }
}

/// What [`AppState`] holds.
#[derive(Debug)]
pub struct Shared {
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
    /// The built site's files with their content hashes, for links that
    /// browsers may cache for a year.
    pub assets: crate::pages::Assets,
    /// The reading pages rendered for anonymous visitors.
    pub pages: crate::pages::PageCache,
    /// The bound on evalscope imports running at once.
    pub imports: crate::evalscope::ImportGate,
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
