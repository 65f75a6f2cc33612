//! Every route of the app. Pages render fully on the server before the first
//! byte (`SsrMode::Async`), so they read the same with JavaScript off and
//! a missing case answers with HTTP 404. Pages only some roles may use are
//! wrapped in a [`Gate`] naming the permission, here in one place.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{path, SsrMode};

use engine::accounts::Permission;

use crate::components::gate::Gate;
use crate::components::header::Header;
use crate::pages::admin_runs::AdminRunsPage;
use crate::pages::admin_users::AdminUsersPage;
use crate::pages::case_edit::CaseEditPage;
use crate::pages::case_list::CaseListPage;
use crate::pages::case_page::CasePage;
use crate::pages::compare::ComparePage;
use crate::pages::drilldown::DrilldownPage;
use crate::pages::leaderboard::LeaderboardPage;
use crate::pages::model::ModelPage;
use crate::pages::not_found::NotFoundPage;
use crate::pages::overview::OverviewPage;
use crate::pages::review::ReviewQueuePage;
use crate::pages::review_admin::{AdjudicationPage, AgreementPage, ReviewManagePage};
use crate::pages::review_item::ReviewItemPage;
use crate::pages::sign_in::SignInPage;
use crate::pages::upload::UploadPage;
use crate::Head;

#[component]
pub fn App() -> impl IntoView {
    view! {
        <Head />
        <Router>
            <Header />
            <main id="main">
                <Routes fallback=NotFoundPage>
                    <Route path=path!("/") view=OverviewPage ssr=SsrMode::Async />
                    <Route path=path!("/cases") view=CaseListPage ssr=SsrMode::Async />
                    <Route path=path!("/cases/:case_id") view=CasePage ssr=SsrMode::Async />
                    <Route path=path!("/cases/:case_id/edit") view=|| view! { <Gate permission=Permission::Adjudicate><CaseEditPage /></Gate> } ssr=SsrMode::Async />
                    <Route path=path!("/leaderboard") view=LeaderboardPage ssr=SsrMode::Async />
                    <Route path=path!("/leaderboard/items") view=DrilldownPage ssr=SsrMode::Async />
                    <Route path=path!("/models/:model") view=ModelPage ssr=SsrMode::Async />
                    <Route path=path!("/compare") view=ComparePage ssr=SsrMode::Async />
                    <Route path=path!("/runs/upload") view=|| view! { <Gate permission=Permission::UploadRun><UploadPage /></Gate> } ssr=SsrMode::Async />
                    <Route path=path!("/review") view=|| view! { <Gate permission=Permission::Review><ReviewQueuePage /></Gate> } ssr=SsrMode::Async />
                    <Route path=path!("/review/items/:id") view=|| view! { <Gate permission=Permission::Review><ReviewItemPage /></Gate> } ssr=SsrMode::Async />
                    <Route path=path!("/review/manage") view=|| view! { <Gate permission=Permission::ManageReview><ReviewManagePage /></Gate> } ssr=SsrMode::Async />
                    <Route path=path!("/review/adjudication") view=|| view! { <Gate permission=Permission::Adjudicate><AdjudicationPage /></Gate> } ssr=SsrMode::Async />
                    <Route path=path!("/review/agreement") view=|| view! { <Gate permission=Permission::Review><AgreementPage /></Gate> } ssr=SsrMode::Async />
                    <Route path=path!("/signin") view=SignInPage ssr=SsrMode::Async />
                    <Route path=path!("/admin/users") view=|| view! { <Gate permission=Permission::ManageUsers><AdminUsersPage /></Gate> } ssr=SsrMode::Async />
                    <Route path=path!("/admin/runs") view=|| view! { <Gate permission=Permission::RunBenchmark><AdminRunsPage /></Gate> } ssr=SsrMode::Async />
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
