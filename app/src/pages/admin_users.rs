//! Accounts (admins only): the list and a form to add one. The server refuses
//! both to anyone else, whatever the page shows.

use engine::accounts::Role;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::labels::{error_message, ErrorBox, Loading};
use crate::server_fns::users::{list_users, CreateUser};

#[component]
pub fn AdminUsersPage() -> impl IntoView {
    let create = ServerAction::<CreateUser>::new();
    let users = Resource::new(move || create.version().get(), |_| list_users());
    view! {
        <Title text="Accounts" />
        <section class="panel">
            <h1>"Accounts 账户"</h1>
            <Suspense fallback=Loading>
                {move || Suspend::new(async move {
                    match users.await {
                        Ok(list) => view! {
                            <table class="stats" data-testid="users-table">
                                <thead><tr><th>"Name 用户名"</th><th>"Role 角色"</th></tr></thead>
                                <tbody>
                                    {list.into_iter().map(|u| view! {
                                        <tr><td>{u.name}</td><td>{u.role.label_zh()} " · " {u.role.as_str()}</td></tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
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
