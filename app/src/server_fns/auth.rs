//! Who is signed in. Signing in and out are plain form posts handled by the
//! server (`/auth/signin`, `/auth/signout`), so they work without JavaScript.

use leptos::prelude::*;

use crate::types::UserView;

#[server(prefix = "/sfn")]
pub async fn who_am_i() -> Result<Option<UserView>, ServerFnError> {
    let user = crate::ssr::current_user().await?;
    Ok(user.map(UserView::from))
}
