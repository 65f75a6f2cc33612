//! The site header: navigation and who is signed in.

use leptos::prelude::*;

use crate::server_fns::auth::who_am_i;

#[component]
pub fn Header() -> impl IntoView {
    let user = Resource::new(|| (), |_| who_am_i());
    view! {
        <header class="site-header">
            <a class="brand" href="/">
                "LexPilot "
                <span class="brand-sub">"Workbench"</span>
            </a>
            <nav class="site-nav" aria-label="Main">
                <a href="/">"Overview 概览"</a>
                <a href="/cases">"Cases 案例"</a>
                <a href="/leaderboard">"Leaderboard 排行榜"</a>
                <a href="/plawbench" class="bench-link" title="PLawBench 实务法律评测: items and leaderboard">"PLawBench"</a>
                <a href="/dlawbench" class="bench-link" title="DLawBench 多轮法律咨询: cases, style sensitivity and leaderboard">"DLawBench"</a>
            </nav>
            <div class="account">
                <Suspense fallback=|| ()>
                    {move || Suspend::new(async move {
                        match user.await {
                            Ok(Some(u)) => {
                                let upload = u
                                    .allows(engine::accounts::Permission::UploadRun)
                                    .then(|| view! { <a href="/runs/upload">"Upload 上传"</a> });
                                let review = u
                                    .allows(engine::accounts::Permission::Review)
                                    .then(|| view! { <a href="/review">"Review 审核"</a> });
                                let admin = (u.role == engine::accounts::Role::Admin)
                                    .then(|| view! { <a href="/admin/users">"Accounts 账户"</a> });
                                let benchmark = u
                                    .allows(engine::accounts::Permission::RunBenchmark)
                                    .then(|| view! { <a href="/admin/runs">"Benchmark 评测"</a> });
                                view! {
                                    {upload}
                                    {review}
                                    {admin}
                                    {benchmark}
                                    <span class="user" data-testid="current-user">
                                        {u.name}
                                        <span class="role">{u.role.label_zh()} " · " {u.role.as_str()}</span>
                                        {u.adjudicator.then(|| view! { <span class="role" title="Designated adjudicator 指定裁决人">"裁决 adjudicator"</span> })}
                                    </span>
                                    <form method="post" action="/auth/signout" class="inline">
                                        <button type="submit" class="link-button">"Sign out 退出"</button>
                                    </form>
                                }
                                    .into_any()
                            }
                            _ => view! { <a href="/signin" class="sign-in-link">"Sign in 登录"</a> }.into_any(),
                        }
                    })}
                </Suspense>
            </div>
        </header>
    }
}
