//! API tokens: long-lived bearer credentials for scripts, one account each.
//! The token is shown once, at creation; the table keeps only its SHA-256.

use crate::sessions::{hash, random_token};
use crate::users::User;
use crate::{now, Db, Result};

/// Prefix that makes a LexPilot token recognisable in logs and secret scanners.
pub const TOKEN_PREFIX: &str = "lpt_";

/// Creates a token for `user` and returns it (the only time it is visible).
pub async fn create(db: &Db, user: &User) -> Result<String> {
    let token = format!("{TOKEN_PREFIX}{}", random_token());
    sqlx::query("INSERT INTO api_tokens (token_hash, user_id, created_at) VALUES ($1, $2, $3)")
        .bind(hash(&token))
        .bind(user.id)
        .bind(now())
        .execute(db.pool())
        .await?;
    Ok(token)
}

/// The account a token belongs to.
pub async fn user(db: &Db, token: &str) -> Result<Option<User>> {
    let row: Option<crate::users::UserRow> = sqlx::query_as(
        "SELECT u.id, u.name, u.role, u.adjudicator FROM api_tokens t JOIN users u ON u.id = t.user_id
         WHERE t.token_hash = $1",
    )
    .bind(hash(token))
    .fetch_optional(db.pool())
    .await?;
    row.map(crate::users::to_user).transpose()
}
