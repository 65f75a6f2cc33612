//! Server-side sessions and sign-in throttling.
//!
//! The browser holds a random 256-bit token; the table stores only its SHA-256,
//! so a leaked database does not hand out live sessions.

use chrono::{Duration, Utc};
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::users::User;
use crate::{now, Db, Result};

/// How long a session lasts after sign-in.
pub const SESSION_DAYS: i64 = 7;
/// Failed sign-ins allowed per account name within [`THROTTLE_WINDOW_MINUTES`].
pub const MAX_FAILURES: i64 = 5;
pub const THROTTLE_WINDOW_MINUTES: i64 = 15;

/// SHA-256 of a token, as stored.
pub(crate) fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

fn stamp(t: chrono::DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Starts a session for `user` and returns the token for the cookie.
/// 256 random bits from the OS, hex-encoded.
pub(crate) fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

pub async fn create(db: &Db, user: &User) -> Result<String> {
    let token = random_token();
    sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
    )
    .bind(hash(&token))
    .bind(user.id)
    .bind(now())
    .bind(stamp(Utc::now() + Duration::days(SESSION_DAYS)))
    .execute(db.pool())
    .await?;
    Ok(token)
}

/// The user of a live session.
pub async fn user(db: &Db, token: &str) -> Result<Option<User>> {
    let row: Option<crate::users::UserRow> = sqlx::query_as(
        "SELECT u.id, u.name, u.role, u.adjudicator FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.token_hash = ? AND s.expires_at > ?",
    )
    .bind(hash(token))
    .bind(now())
    .fetch_optional(db.pool())
    .await?;
    row.map(crate::users::to_user).transpose()
}

/// Ends a session (no error if it does not exist).
pub async fn delete(db: &Db, token: &str) -> Result<()> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = ? OR expires_at <= ?")
        .bind(hash(token))
        .bind(now())
        .execute(db.pool())
        .await?;
    Ok(())
}

/// Whether sign-in for `name` is refused for now, after too many recent failures.
pub async fn throttled(db: &Db, name: &str) -> Result<bool> {
    let since = stamp(Utc::now() - Duration::minutes(THROTTLE_WINDOW_MINUTES));
    let failures: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM sign_in_failures WHERE name = ? AND at > ?")
            .bind(name.trim())
            .bind(since)
            .fetch_one(db.pool())
            .await?;
    Ok(failures >= MAX_FAILURES)
}

pub async fn record_failure(db: &Db, name: &str) -> Result<()> {
    sqlx::query("INSERT INTO sign_in_failures (name, at) VALUES (?, ?)")
        .bind(name.trim())
        .bind(now())
        .execute(db.pool())
        .await?;
    Ok(())
}

pub async fn clear_failures(db: &Db, name: &str) -> Result<()> {
    sqlx::query("DELETE FROM sign_in_failures WHERE name = ?")
        .bind(name.trim())
        .execute(db.pool())
        .await?;
    Ok(())
}
