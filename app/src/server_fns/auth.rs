//! Who is signed in. Signing in and out are plain form posts handled by the
//! server (`/auth/signin`, `/auth/signout`), so they work without JavaScript.

use leptos::prelude::*;

use crate::types::UserView;

#[server(prefix = "/sfn")]
pub async fn who_am_i() -> Result<Option<UserView>, ServerFnError> {
    let user = crate::ssr::current_user().await?;
    Ok(user.map(UserView::from))
}

/// Ok when the signed-in user's role allows `permission`; else 401 (not
/// signed in) or 403, with the status set on the page being rendered.
#[server(prefix = "/sfn")]
pub async fn check_access(permission: engine::accounts::Permission) -> Result<(), ServerFnError> {
    crate::ssr::require(permission).await.map(|_| ())
}
