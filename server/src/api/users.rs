//! `GET /api/users`: the accounts (admins only).

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use engine::accounts::Permission;

use crate::auth::SignedIn;
use crate::error::ApiError;
use crate::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/users", get(list))
}

async fn list(
    State(state): State<AppState>,
    user: SignedIn,
) -> Result<Json<Vec<db::users::User>>, ApiError> {
    user.require(Permission::ManageUsers)?;
    Ok(Json(db::users::list(&state.db).await?))
}
