//! Sign in: a plain form posted to `/auth/signin` (works without JavaScript);
//! the server redirects back here with `?error=` when it refuses.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::components::i18n::Lang;
use crate::components::labels::Loading;
use crate::server_fns::auth::who_am_i;

/// The message for an `error` code the server puts in the redirect.
pub fn sign_in_error(lang: Lang, code: &str) -> &'static str {
    match code {
        "invalid" => lang.t("用户名或密码错误。", "Wrong name or password."),
        "throttled" => lang.t(
            "失败次数过多，请15分钟后再试。",
            "Too many failed attempts: try again in 15 minutes.",
        ),
        "missing" => lang.t("请输入用户名和密码。", "Enter a name and a password."),
        _ => lang.t("登录失败。", "Sign-in failed."),
    }
}

#[component]
pub fn SignInPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let query = use_query_map();
    let error = move || {
        query
            .with(|q| q.get("error"))
            .map(|c| sign_in_error(lang, &c))
    };
    let next = move || query.with(|q| q.get("next"));
    let user = Resource::new(|| (), |_| who_am_i());
    view! {
        <Title text=lang.t("登录", "Sign in") />
        <section class="panel narrow">
            <h1>{lang.t("登录", "Sign in")}</h1>
            <Suspense fallback=Loading>
                {move || Suspend::new(async move {
                    let signed_in = user.await.ok().flatten();
                    view! {
                        {signed_in.map(|u| view! {
                            <p class="info">{lang.t("你已登录为 ", "You are signed in as ")} <strong>{u.name}</strong> {lang.t("（", " (")} {u.role.label(lang)} {lang.t("）。", ").")}</p>
                        })}
                        {error().map(|msg| view! { <p class="error-box" role="alert" data-testid="sign-in-error">{msg}</p> })}
                        <form method="post" action="/auth/signin" class="stack" data-testid="sign-in-form">
                            {next().map(|next| view! { <input type="hidden" name="next" value=next /> })}
                            <label class="field">
                                <span>{lang.t("用户名", "Name")}</span>
                                <input name="name" autocomplete="username" required />
                            </label>
                            <label class="field">
                                <span>{lang.t("密码", "Password")}</span>
                                <input name="password" type="password" autocomplete="current-password" required />
                            </label>
                            <button type="submit" class="primary">{lang.t("登录", "Sign in")}</button>
                        </form>
                        <p class="muted">
                            {lang.t("账户由管理员创建。阅读案例无需账户。", "Accounts are created by an admin. Reading cases needs no account.")}
                        </p>
                    }
                })}
            </Suspense>
        </section>
    }
}
