//! Accounts (admins only): the list, a form to add one (the role offered
//! first is the least privileged, [`Role::LEAST_PRIVILEGED`]), a form to
//! reset an account's password (which signs the account out everywhere),
//! and for each expert whether they are designated to adjudicate review
//! items. The server refuses all of it to anyone else, whatever the page
//! shows.

use engine::accounts::Role;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::labels::{error_message, ErrorBox, Loading};
use crate::server_fns::users::{list_users, CreateUser, ResetPassword, SetAdjudicator};

#[component]
pub fn AdminUsersPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let create = ServerAction::<CreateUser>::new();
    let designate = ServerAction::<SetAdjudicator>::new();
    let reset = ServerAction::<ResetPassword>::new();
    let users = Resource::new(
        move || (create.version().get(), designate.version().get()),
        |_| list_users(),
    );
    view! {
        <Title text=lang.t("账户", "Accounts") />
        <section class="panel">
            <h1>{lang.t("账户", "Accounts")}</h1>
            <Suspense fallback=Loading>
                {move || Suspend::new(async move {
                    match users.await {
                        Ok(list) => view! {
                            <table class="stats" data-testid="users-table">
                                <thead><tr><th>{lang.t("用户名", "Name")}</th><th>{lang.t("角色", "Role")}</th><th>{lang.t("裁决", "Adjudicates")}</th></tr></thead>
                                <tbody>
                                    {list.into_iter().map(|u| {
                                        let (name, testid) = (u.name.clone(), format!("designate-{}", u.name));
                                        let adjudicates = match u.role {
                                            Role::Admin => view! { <span>{lang.t("✓（管理员）", "✓ (admin)")}</span> }.into_any(),
                                            Role::Expert => view! {
                                                <ActionForm action=designate attr:class="inline">
                                                    <input type="hidden" name="name" value=name />
                                                    <input type="hidden" name="on" value=(!u.adjudicator).to_string() />
                                                    {if u.adjudicator { "✓ " } else { "" }}
                                                    <button type="submit" class="small" data-testid=testid>
                                                        {if u.adjudicator { lang.t("撤销", "Withdraw") } else { lang.t("指定为裁决人", "Designate") }}
                                                    </button>
                                                </ActionForm>
                                            }.into_any(),
                                            Role::Researcher => view! { <span>"—"</span> }.into_any(),
                                        };
                                        view! {
                                            <tr data-testid=format!("user-{}", u.name)>
                                                <td>{u.name.clone()}</td>
                                                <td>{u.role.label(lang)}</td>
                                                <td>{adjudicates}</td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                            {move || designate.value().get().and_then(Result::err).map(|e| view! { <p class="error-box" role="alert">{error_message(&e)}</p> })}
                        }.into_any(),
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
        <section class="panel narrow">
            <h2>{lang.t("新增账户", "Add an account")}</h2>
            <ActionForm action=create attr:class="stack">
                <label class="field"><span>{lang.t("用户名", "Name")}</span><input name="name" required /></label>
                <label class="field">
                    <span>{lang.t("角色", "Role")}</span>
                    <select name="role" data-testid="new-role">
                        {Role::ALL.iter().map(|r| view! {
                            <option value=r.as_str() selected=*r == Role::LEAST_PRIVILEGED>{r.label(lang)}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label class="field"><span>{lang.t("密码（至少 8 个字符）", "Password (8+ characters)")}</span><input name="password" type="password" autocomplete="new-password" required minlength="8" /></label>
                <button type="submit" class="primary">{lang.t("添加", "Add")}</button>
            </ActionForm>
            {move || create.value().get().map(|r| match r {
                Ok(u) => view! { <p class="info">{lang.t("已创建 ", "Created ")} {u.name} {lang.t("。", ".")}</p> }.into_any(),
                Err(e) => view! { <p class="error-box" role="alert">{error_message(&e)}</p> }.into_any(),
            })}
        </section>
        <section class="panel narrow">
            <h2>{lang.t("重置密码", "Reset a password")}</h2>
            <p class="muted">{lang.t(
                "新密码立即生效，该账户在所有设备上的登录都会结束。",
                "The new password takes effect at once, and the account is signed out everywhere.",
            )}</p>
            <ActionForm action=reset attr:class="stack" attr:data-testid="reset-password">
                <label class="field"><span>{lang.t("用户名", "Name")}</span><input name="name" required autocomplete="off" /></label>
                <label class="field"><span>{lang.t("新密码（至少 8 个字符）", "New password (8+ characters)")}</span><input name="password" type="password" autocomplete="new-password" required minlength="8" /></label>
                <button type="submit" class="primary">{lang.t("重置", "Reset")}</button>
            </ActionForm>
            {move || reset.value().get().map(|r| match r {
                Ok(u) => view! {
                    <p class="info" role="status" data-testid="password-reset">{match lang {
                        crate::components::i18n::Lang::Zh => format!("已为 {} 设置新密码，其登录已全部结束。", u.name),
                        crate::components::i18n::Lang::En => format!("{} has a new password and was signed out everywhere.", u.name),
                    }}</p>
                }.into_any(),
                Err(e) => view! { <p class="error-box" role="alert">{error_message(&e)}</p> }.into_any(),
            })}
        </section>
    }
}
