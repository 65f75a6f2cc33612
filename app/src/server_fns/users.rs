//! Account management (admins only; checked here on the server).

use leptos::prelude::*;

use crate::types::UserView;

#[server(prefix = "/sfn")]
pub async fn list_users() -> Result<Vec<UserView>, ServerFnError> {
    use crate::ssr::{db, fail, require};
    require(engine::accounts::Permission::ManageUsers).await?;
    let users = db::users::list(&db()?).await.map_err(fail)?;
    Ok(users.into_iter().map(UserView::from).collect())
}

#[server(prefix = "/sfn")]
pub async fn create_user(
    name: String,
    role: String,
    password: String,
) -> Result<UserView, ServerFnError> {
    use crate::ssr::{db, fail, require, set_status};
    require(engine::accounts::Permission::ManageUsers).await?;
    let Some(role) = engine::accounts::Role::parse(&role) else {
        set_status(axum::http::StatusCode::BAD_REQUEST);
        return Err(ServerFnError::new(format!("unknown role {role:?}")));
    };
    let user = db::users::create(&db()?, &name, role, &password)
        .await
        .map_err(fail)?;
    Ok(UserView::from(user))
}

/// Designates expert `name` as adjudicator (`on`), or withdraws it. 400 for
/// an account that is not an expert (admins adjudicate anyway), 404 for an
/// unknown name.
#[server(prefix = "/sfn")]
pub async fn set_adjudicator(name: String, on: bool) -> Result<UserView, ServerFnError> {
    use crate::ssr::{db, fail, require};
    require(engine::accounts::Permission::ManageUsers).await?;
    let user = db::users::set_adjudicator(&db()?, &name, on)
        .await
        .map_err(fail)?;
    Ok(UserView::from(user))
}

/// Gives account `name` a new password (an admin's reset; at least 8
/// characters, stored as argon2id) and ends every session of the account.
/// 404 for an unknown name, 400 for a short password.
#[server(prefix = "/sfn")]
pub async fn reset_password(name: String, password: String) -> Result<UserView, ServerFnError> {
    use crate::ssr::{db, fail, require};
    require(engine::accounts::Permission::ManageUsers).await?;
    let user = db::users::set_password(&db()?, &name, &password)
        .await
        .map_err(fail)?;
    Ok(UserView::from(user))
}
