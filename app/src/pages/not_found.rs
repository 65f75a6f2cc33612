use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn NotFoundPage() -> impl IntoView {
    #[cfg(feature = "ssr")]
    crate::ssr::set_status(axum::http::StatusCode::NOT_FOUND);
    view! {
        <Title text="Not found" />
        <section class="panel">
            <h1>"Page not found 页面不存在"</h1>
            <p>
                "There is nothing at this address. "
                <a href="/">"Back to the overview"</a>
            </p>
        </section>
    }
}
