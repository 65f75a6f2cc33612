//! Sign in: a plain form posted to `/auth/signin` (works without JavaScript);
//! the server redirects back here with `?error=` when it refuses.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::components::labels::Loading;
use crate::server_fns::auth::who_am_i;

/// The message for an `error` code the server puts in the redirect.
pub fn sign_in_error(code: &str) -> &'static str {
    match code {
        "invalid" => "Wrong name or password. 用户名或密码错误。",
        "throttled" => {
            "Too many failed attempts: try again in 15 minutes. 失败次数过多，请15分钟后再试。"
        }
        "missing" => "Enter a name and a password. 请输入用户名和密码。",
        _ => "Sign-in failed. 登录失败。",
    }
}

#[component]
pub fn SignInPage() -> impl IntoView {
    let query = use_query_map();
    let error = move || query.with(|q| q.get("error")).map(|c| sign_in_error(&c));
    let next = move || query.with(|q| q.get("next"));
    let user = Resource::new(|| (), |_| who_am_i());
    view! {
        <Title text="Sign in" />
        <section class="panel narrow">
            <h1>"Sign in 登录"</h1>
            <Suspense fallback=Loading>
                {move || Suspend::new(async move {
                    let signed_in = user.await.ok().flatten();
                    view! {
                        {signed_in.map(|u| view! {
                            <p class="info">"You are signed in as " <strong>{u.name}</strong> " (" {u.role.as_str()} ")."</p>
                        })}
                        {error().map(|msg| view! { <p class="error-box" role="alert" data-testid="sign-in-error">{msg}</p> })}
                        <form method="post" action="/auth/signin" class="stack" data-testid="sign-in-form">
                            {next().map(|next| view! { <input type="hidden" name="next" value=next /> })}
                            <label class="field">
                                <span>"Name 用户名"</span>
                                <input name="name" autocomplete="username" required />
                            </label>
                            <label class="field">
                                <span>"Password 密码"</span>
                                <input name="password" type="password" autocomplete="current-password" required />
                            </label>
                            <button type="submit" class="primary">"Sign in 登录"</button>
                        </form>
                        <p class="muted">
                            "Accounts are created by an admin. 账户由管理员创建。 Reading cases needs no account."
                        </p>
                    }
                })}
            </Suspense>
        </section>
    }
}
