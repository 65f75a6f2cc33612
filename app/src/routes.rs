//! Every route of the app. Pages render fully on the server before the first
//! byte (`SsrMode::Async`), so they read the same with JavaScript off and
//! a missing case answers with HTTP 404. Pages only some roles may use name
//! their permission in [`PAGE_PERMISSIONS`]; the server refuses them to
//! everyone else before rendering (anonymous visitors are sent to sign in).

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{path, SsrMode};

use engine::accounts::Permission;

use crate::components::header::Header;
use crate::pages::admin_runs::AdminRunsPage;
use crate::pages::admin_users::AdminUsersPage;
use crate::pages::case_edit::CaseEditPage;
use crate::pages::case_list::CaseListPage;
use crate::pages::case_page::CasePage;
use crate::pages::compare::ComparePage;
use crate::pages::dlawbench::case::DlawCasePage;
use crate::pages::dlawbench::cases::DlawCasesPage;
use crate::pages::dlawbench::drilldown::{DlawCellPage, DlawSessionPage};
use crate::pages::dlawbench::leaderboard::DlawLeaderboardPage;
use crate::pages::dlawbench::overview::DlawOverviewPage;
use crate::pages::drilldown::DrilldownPage;
use crate::pages::fidelity_probes::FidelityProbesPage;
use crate::pages::leaderboard::LeaderboardPage;
use crate::pages::model::ModelPage;
use crate::pages::not_found::NotFoundPage;
use crate::pages::overview::OverviewPage;
use crate::pages::paper::PaperPageView;
use crate::pages::plawbench::drilldown::{PlawCellPage, PlawItemRunPage};
use crate::pages::plawbench::item::PlawItemPage;
use crate::pages::plawbench::items::PlawItemsPage;
use crate::pages::plawbench::leaderboard::PlawLeaderboardPage;
use crate::pages::plawbench::overview::PlawOverviewPage;
use crate::pages::review::ReviewQueuePage;
use crate::pages::review_admin::{AdjudicationPage, AgreementPage, ReviewManagePage};
use crate::pages::review_item::ReviewItemPage;
use crate::pages::sign_in::SignInPage;
use crate::pages::upload::UploadPage;
use crate::Head;

/// The pages only some roles may use, by route, with the permission each
/// needs. `:name` matches one path segment.
pub const PAGE_PERMISSIONS: [(&str, Permission); 10] = [
    ("/cases/:case_id/edit", Permission::Adjudicate),
    ("/runs/upload", Permission::UploadRun),
    ("/review", Permission::Review),
    ("/review/items/:id", Permission::Review),
    ("/review/manage", Permission::ManageReview),
    ("/review/adjudication", Permission::Adjudicate),
    ("/review/agreement", Permission::Review),
    ("/review/fidelity", Permission::Review),
    ("/admin/users", Permission::ManageUsers),
    ("/admin/runs", Permission::RunBenchmark),
];

/// The reading pages: open to everyone, rendered completely on the server,
/// and shipped without the wasm app. Their links and forms are plain ones,
/// and a small script (`public/live.js`) keeps the pages that show live data
/// up to date; an anonymous visitor's copy is rendered once per data
/// generation and served from memory (`server::pages`).
pub const READING_PAGES: [&str; 20] = [
    "/",
    "/cases",
    "/cases/:case_id",
    "/leaderboard",
    "/leaderboard/items",
    "/models/:model",
    "/compare",
    "/paper",
    "/plawbench",
    "/plawbench/items",
    "/plawbench/items/:item_id",
    "/plawbench/leaderboard",
    "/plawbench/leaderboard/items",
    "/plawbench/leaderboard/item",
    "/dlawbench",
    "/dlawbench/cases",
    "/dlawbench/cases/:case_id",
    "/dlawbench/leaderboard",
    "/dlawbench/leaderboard/sessions",
    "/dlawbench/leaderboard/session",
];

/// The benchmark whose data the reading page at `path` shows: PLawBench's
/// and DLawBench's under their prefixes, LexPilot's elsewhere, and every
/// benchmark's on the overview (`None`). Its cached copy stays fresh while
/// another benchmark's runs are stored.
///
/// ```
/// use app::routes::reading_page_benchmark;
///
/// assert_eq!(reading_page_benchmark("/plawbench/leaderboard"), Some("plawbench"));
/// assert_eq!(reading_page_benchmark("/dlawbench"), Some("dlawbench"));
/// assert_eq!(reading_page_benchmark("/paper"), Some("lexpilot"));
/// assert_eq!(reading_page_benchmark("/"), None);
/// ```
pub fn reading_page_benchmark(path: &str) -> Option<&'static str> {
    use engine::benchmark::Benchmark;
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    match first {
        "" => None,
        "plawbench" => Some(Benchmark::Plawbench.as_str()),
        "dlawbench" => Some(Benchmark::Dlawbench.as_str()),
        _ => Some(Benchmark::Lexpilot.as_str()),
    }
}

/// Whether `path` (without its query) is one of [`READING_PAGES`].
///
/// ```
/// use app::routes::is_reading_page;
///
/// assert!(is_reading_page("/"));
/// assert!(is_reading_page("/cases/LP-0001"));
/// assert!(is_reading_page("/leaderboard/items"));
/// assert!(!is_reading_page("/cases/LP-0001/edit"));
/// assert!(!is_reading_page("/review"));
/// assert!(!is_reading_page("/pkg/lexpilot.css"));
/// ```
pub fn is_reading_page(path: &str) -> bool {
    READING_PAGES.iter().any(|route| route_matches(route, path))
}

/// Whether `path` is the route `route`, whose `:name` segments match any
/// one non-empty segment. A trailing slash is ignored.
fn route_matches(route: &str, path: &str) -> bool {
    let path = match path.trim_end_matches('/') {
        "" => "/",
        p => p,
    };
    if route == "/" {
        return path == "/";
    }
    let pattern: Vec<&str> = route.split('/').collect();
    let segments: Vec<&str> = path.split('/').collect();
    pattern.len() == segments.len()
        && pattern
            .iter()
            .zip(&segments)
            .all(|(p, s)| p.starts_with(':') && !s.is_empty() || p == s)
}

/// The permission the page at `path` needs, if it is one of
/// [`PAGE_PERMISSIONS`].
///
/// ```
/// use app::routes::page_permission;
/// use engine::accounts::Permission;
///
/// assert_eq!(page_permission("/cases/LP-0001/edit"), Some(Permission::Adjudicate));
/// assert_eq!(page_permission("/review/"), Some(Permission::Review));
/// assert_eq!(page_permission("/cases/LP-0001"), None);
/// assert_eq!(page_permission("/review/items/7/x"), None);
/// ```
pub fn page_permission(path: &str) -> Option<Permission> {
    PAGE_PERMISSIONS
        .iter()
        .find_map(|(route, permission)| route_matches(route, path).then_some(*permission))
}

#[component]
pub fn App() -> impl IntoView {
    crate::components::i18n::provide_lang();
    view! {
        <Head />
        <Router>
            <Header />
            <main id="main">
                <Routes fallback=NotFoundPage>
                    <Route path=path!("/") view=OverviewPage ssr=SsrMode::Async />
                    <Route path=path!("/cases") view=CaseListPage ssr=SsrMode::Async />
                    <Route path=path!("/cases/:case_id") view=CasePage ssr=SsrMode::Async />
                    <Route path=path!("/cases/:case_id/edit") view=CaseEditPage ssr=SsrMode::Async />
                    <Route path=path!("/leaderboard") view=LeaderboardPage ssr=SsrMode::Async />
                    <Route path=path!("/leaderboard/items") view=DrilldownPage ssr=SsrMode::Async />
                    <Route path=path!("/models/:model") view=ModelPage ssr=SsrMode::Async />
                    <Route path=path!("/compare") view=ComparePage ssr=SsrMode::Async />
                    <Route path=path!("/paper") view=PaperPageView ssr=SsrMode::Async />
                    <Route path=path!("/plawbench") view=PlawOverviewPage ssr=SsrMode::Async />
                    <Route path=path!("/plawbench/items") view=PlawItemsPage ssr=SsrMode::Async />
                    <Route path=path!("/plawbench/items/:item_id") view=PlawItemPage ssr=SsrMode::Async />
                    <Route path=path!("/plawbench/leaderboard") view=PlawLeaderboardPage ssr=SsrMode::Async />
                    <Route path=path!("/plawbench/leaderboard/items") view=PlawCellPage ssr=SsrMode::Async />
                    <Route path=path!("/plawbench/leaderboard/item") view=PlawItemRunPage ssr=SsrMode::Async />
                    <Route path=path!("/dlawbench") view=DlawOverviewPage ssr=SsrMode::Async />
                    <Route path=path!("/dlawbench/cases") view=DlawCasesPage ssr=SsrMode::Async />
                    <Route path=path!("/dlawbench/cases/:case_id") view=DlawCasePage ssr=SsrMode::Async />
                    <Route path=path!("/dlawbench/leaderboard") view=DlawLeaderboardPage ssr=SsrMode::Async />
                    <Route path=path!("/dlawbench/leaderboard/sessions") view=DlawCellPage ssr=SsrMode::Async />
                    <Route path=path!("/dlawbench/leaderboard/session") view=DlawSessionPage ssr=SsrMode::Async />
                    <Route path=path!("/runs/upload") view=UploadPage ssr=SsrMode::Async />
                    <Route path=path!("/review") view=ReviewQueuePage ssr=SsrMode::Async />
                    <Route path=path!("/review/items/:id") view=ReviewItemPage ssr=SsrMode::Async />
                    <Route path=path!("/review/manage") view=ReviewManagePage ssr=SsrMode::Async />
                    <Route path=path!("/review/adjudication") view=AdjudicationPage ssr=SsrMode::Async />
                    <Route path=path!("/review/agreement") view=AgreementPage ssr=SsrMode::Async />
                    <Route path=path!("/review/fidelity") view=FidelityProbesPage ssr=SsrMode::Async />
                    <Route path=path!("/signin") view=SignInPage ssr=SsrMode::Async />
                    <Route path=path!("/admin/users") view=AdminUsersPage ssr=SsrMode::Async />
                    <Route path=path!("/admin/runs") view=AdminRunsPage ssr=SsrMode::Async />
                </Routes>
            </main>
            <Hydrated />
        </Router>
    }
}

/// Sets `data-hydrated` on `<body>` once the wasm app has taken over, so tests
/// (and people) know clicks are handled client-side.
#[component]
fn Hydrated() -> impl IntoView {
    Effect::new(move |_| {
        #[cfg(feature = "hydrate")]
        if let Some(body) = document().body() {
            let _ = body.set_attribute("data-hydrated", "true");
        }
    });
}
