//! The site header: navigation, the language switch and who is signed in.

use leptos::prelude::*;

use crate::components::i18n::{lang, LangSwitch};
use crate::server_fns::auth::who_am_i;

#[component]
pub fn Header() -> impl IntoView {
    let user = Resource::new(|| (), |_| who_am_i());
    let lang = lang();
    let t = move |zh, en| lang.t(zh, en);
    view! {
        <header class="site-header">
            <a class="brand" href="/">
                "LexPilot "
                <span class="brand-sub">"Workbench"</span>
            </a>
            <nav class="site-nav" aria-label=t("主导航", "Main")>
                <a href="/">{t("概览", "Overview")}</a>
                <a href="/cases">{t("案例", "Cases")}</a>
                <a href="/leaderboard">{t("排行榜", "Leaderboard")}</a>
                <a href="/plawbench" class="bench-link" title=t("PLawBench 实务法律评测：题目与排行榜", "PLawBench: practical-law items and leaderboard")>"PLawBench"</a>
                <a href="/dlawbench" class="bench-link" title=t("DLawBench 多轮法律咨询：案例、风格敏感性与排行榜", "DLawBench: multi-turn consultations, style sensitivity and leaderboard")>"DLawBench"</a>
            </nav>
            <div class="account">
                <LangSwitch />
                <Suspense fallback=|| ()>
                    {move || Suspend::new(async move {
                        match user.await {
                            Ok(Some(u)) => {
                                let upload = u
                                    .allows(engine::accounts::Permission::UploadRun)
                                    .then(|| view! { <a href="/runs/upload">{t("上传", "Upload")}</a> });
                                let review = u
                                    .allows(engine::accounts::Permission::Review)
                                    .then(|| view! { <a href="/review">{t("审核", "Review")}</a> });
                                let admin = (u.role == engine::accounts::Role::Admin)
                                    .then(|| view! { <a href="/admin/users">{t("账户", "Accounts")}</a> });
                                let benchmark = u
                                    .allows(engine::accounts::Permission::RunBenchmark)
                                    .then(|| view! { <a href="/admin/runs">{t("评测", "Benchmark")}</a> });
                                view! {
                                    {upload}
                                    {review}
                                    {admin}
                                    {benchmark}
                                    <span class="user" data-testid="current-user">
                                        {u.name}
                                        <span class="role">{u.role.label(lang)}</span>
                                        {u.adjudicator.then(|| view! { <span class="role" title=t("指定裁决人", "Designated adjudicator")>{t("裁决", "adjudicator")}</span> })}
                                    </span>
                                    <form method="post" action="/auth/signout" class="inline">
                                        <button type="submit" class="link-button">{t("退出", "Sign out")}</button>
                                    </form>
                                }
                                    .into_any()
                            }
                            _ => view! { <a href="/signin" class="sign-in-link">{t("登录", "Sign in")}</a> }.into_any(),
                        }
                    })}
                </Suspense>
            </div>
        </header>
    }
}
