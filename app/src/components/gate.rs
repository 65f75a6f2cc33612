//! [`Gate`]: a page only some roles may use. The server decides (through
//! [`check_access`]): a visitor without the permission gets the page's
//! status 401 (not signed in) or 403 (wrong role) and a message with a
//! sign-in link, never the page's forms. The writes behind a page check the
//! role again on their own.

use engine::accounts::Permission;
use leptos::prelude::*;

use crate::components::labels::{ErrorBox, Loading};
use crate::server_fns::auth::check_access;

#[component]
pub fn Gate(permission: Permission, children: ChildrenFn) -> impl IntoView {
    let access = Resource::new(move || permission, check_access);
    view! {
        <Suspense fallback=Loading>
            {move || {
                let children = children.clone();
                Suspend::new(async move {
                    match access.await {
                        Ok(()) => children().into_any(),
                        Err(error) => view! {
                            <section class="panel narrow" data-testid="access-refused">
                                <ErrorBox error />
                                <p><a href="/signin">"Sign in 登录"</a></p>
                            </section>
                        }
                        .into_any(),
                    }
                })
            }}
        </Suspense>
    }
}
