//! Accounts (admins only): the list, a form to add one, and for each expert
//! whether they are designated to adjudicate review items. The server refuses
//! all of it to anyone else, whatever the page shows.

use engine::accounts::Role;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::labels::{error_message, ErrorBox, Loading};
use crate::server_fns::users::{list_users, CreateUser, SetAdjudicator};

#[component]
pub fn AdminUsersPage() -> impl IntoView {
    let create = ServerAction::<CreateUser>::new();
    let designate = ServerAction::<SetAdjudicator>::new();
    let users = Resource::new(
        move || (create.version().get(), designate.version().get()),
        |_| list_users(),
    );
    view! {
        <Title text="Accounts" />
        <section class="panel">
            <h1>"Accounts 账户"</h1>
            <Suspense fallback=Loading>
                {move || Suspend::new(async move {
                    match users.await {
                        Ok(list) => view! {
                            <table class="stats" data-testid="users-table">
                                <thead><tr><th>"Name 用户名"</th><th>"Role 角色"</th><th>"Adjudicates 裁决"</th></tr></thead>
                                <tbody>
                                    {list.into_iter().map(|u| {
                                        let (name, testid) = (u.name.clone(), format!("designate-{}", u.name));
                                        let adjudicates = match u.role {
                                            Role::Admin => view! { <span>"✓ (admin 管理员)"</span> }.into_any(),
                                            Role::Expert => view! {
                                                <ActionForm action=designate attr:class="inline">
                                                    <input type="hidden" name="name" value=name />
                                                    <input type="hidden" name="on" value=(!u.adjudicator).to_string() />
                                                    {if u.adjudicator { "✓ " } else { "" }}
                                                    <button type="submit" class="small" data-testid=testid>
                                                        {if u.adjudicator { "Withdraw 撤销" } else { "Designate 指定为裁决人" }}
                                                    </button>
                                                </ActionForm>
                                            }.into_any(),
                                            Role::Researcher => view! { <span>"—"</span> }.into_any(),
                                        };
                                        view! {
                                            <tr data-testid=format!("user-{}", u.name)>
                                                <td>{u.name.clone()}</td>
                                                <td>{u.role.label_zh()} " · " {u.role.as_str()}</td>
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
            <h2>"Add an account 新增账户"</h2>
            <ActionForm action=create attr:class="stack">
                <label class="field"><span>"Name 用户名"</span><input name="name" required /></label>
                <label class="field">
                    <span>"Role 角色"</span>
                    <select name="role">
                        {Role::ALL.iter().map(|r| view! { <option value=r.as_str()>{r.label_zh()} " · " {r.as_str()}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field"><span>"Password 密码 (8+ characters)"</span><input name="password" type="password" autocomplete="new-password" required minlength="8" /></label>
                <button type="submit" class="primary">"Add 添加"</button>
            </ActionForm>
            {move || create.value().get().map(|r| match r {
                Ok(u) => view! { <p class="info">"Created " {u.name} "."</p> }.into_any(),
                Err(e) => view! { <p class="error-box" role="alert">{error_message(&e)}</p> }.into_any(),
            })}
        </section>
    }
}
