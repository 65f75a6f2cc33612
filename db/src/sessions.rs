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
/// Failed sign-ins allowed for one account name from one client address
/// within [`THROTTLE_WINDOW_MINUTES`].
pub const MAX_FAILURES: i64 = 5;
/// Failed sign-ins allowed from one client address, whatever the names.
pub const MAX_FAILURES_PER_ADDRESS: i64 = 20;
/// Failed sign-ins allowed for one account name from every address together.
pub const MAX_FAILURES_PER_NAME: i64 = 100;
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
        "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
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
         WHERE s.token_hash = $1 AND s.expires_at > $2",
    )
    .bind(hash(token))
    .bind(now())
    .fetch_optional(db.pool())
    .await?;
    row.map(crate::users::to_user).transpose()
}

/// Ends a session (no error if it does not exist).
pub async fn delete(db: &Db, token: &str) -> Result<()> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1 OR expires_at <= $2")
        .bind(hash(token))
        .bind(now())
        .execute(db.pool())
        .await?;
    Ok(())
}

/// Whether sign-in for `name` from client `address` is refused for now, and
/// if so for how many more seconds: after [`MAX_FAILURES`] failures for the
/// name from that address, [`MAX_FAILURES_PER_ADDRESS`] from the address for
/// any names, or [`MAX_FAILURES_PER_NAME`] for the name from anywhere, within
/// the last [`THROTTLE_WINDOW_MINUTES`]. So one client cannot guess across
/// many names, and cannot lock an account for its owner by failing a few
/// times; only many clients together hold a name back.
pub async fn throttled(db: &Db, name: &str, address: &str) -> Result<Option<i64>> {
    let now = Utc::now();
    let since = stamp(now - Duration::minutes(THROTTLE_WINDOW_MINUTES));
    let name = name.trim();
    let buckets = [
        (
            "SELECT at FROM sign_in_failures WHERE name = $1 AND address = $2 AND at > $3 ORDER BY at DESC LIMIT 1 OFFSET $4",
            Some(name),
            Some(address),
            MAX_FAILURES,
        ),
        (
            "SELECT at FROM sign_in_failures WHERE address = $1 AND at > $2 ORDER BY at DESC LIMIT 1 OFFSET $3",
            None,
            Some(address),
            MAX_FAILURES_PER_ADDRESS,
        ),
        (
            "SELECT at FROM sign_in_failures WHERE name = $1 AND at > $2 ORDER BY at DESC LIMIT 1 OFFSET $3",
            Some(name),
            None,
            MAX_FAILURES_PER_NAME,
        ),
    ];
    let mut wait: Option<i64> = None;
    for (sql, name, address, limit) in buckets {
        // The limit-th newest failure: while it is in the window, the bucket is full.
        let mut query = sqlx::query_scalar::<_, String>(sql);
        if let Some(name) = name {
            query = query.bind(name);
        }
        if let Some(address) = address {
            query = query.bind(address);
        }
        let full_since: Option<String> = query
            .bind(&since)
            .bind(limit - 1)
            .fetch_optional(db.pool())
            .await?;
        if let Some(at) = full_since.and_then(|at| chrono::DateTime::parse_from_rfc3339(&at).ok()) {
            let free_at = at.with_timezone(&Utc) + Duration::minutes(THROTTLE_WINDOW_MINUTES);
            let secs = (free_at - now).num_seconds().max(1);
            wait = Some(wait.map_or(secs, |w| w.max(secs)));
        }
    }
    Ok(wait)
}

/// Records a failed sign-in for `name` from `address`, and forgets failures
/// that have left the window.
pub async fn record_failure(db: &Db, name: &str, address: &str) -> Result<()> {
    let since = stamp(Utc::now() - Duration::minutes(THROTTLE_WINDOW_MINUTES));
    sqlx::query("DELETE FROM sign_in_failures WHERE at <= $1")
        .bind(since)
        .execute(db.pool())
        .await?;
    sqlx::query("INSERT INTO sign_in_failures (name, address, at) VALUES ($1, $2, $3)")
        .bind(name.trim())
        .bind(address)
        .bind(now())
        .execute(db.pool())
        .await?;
    Ok(())
}

pub async fn clear_failures(db: &Db, name: &str) -> Result<()> {
    sqlx::query("DELETE FROM sign_in_failures WHERE name = $1")
        .bind(name.trim())
        .execute(db.pool())
        .await?;
    Ok(())
}
