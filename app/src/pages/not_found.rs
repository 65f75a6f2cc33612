use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn NotFoundPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    #[cfg(feature = "ssr")]
    crate::ssr::set_status(axum::http::StatusCode::NOT_FOUND);
    view! {
        <Title text=lang.t("页面不存在", "Not found") />
        <section class="panel">
            <h1>{lang.t("页面不存在", "Page not found")}</h1>
            <p>
                {lang.t("此地址没有内容。", "There is nothing at this address. ")}
                <a href="/">{lang.t("返回概览", "Back to the overview")}</a>
            </p>
        </section>
    }
}
