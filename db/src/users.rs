//! Accounts. Passwords are stored only as argon2id PHC strings.

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use engine::accounts::Role;
use serde::{Deserialize, Serialize};

use crate::{now, Db, DbError, Result};

/// A stored account, without its password hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    pub id: i64,
    pub name: String,
    pub role: Role,
}

pub(crate) fn to_user((id, name, role): (i64, String, String)) -> Result<User> {
    let role = Role::parse(&role).ok_or_else(|| DbError::Corrupt(format!("role {role:?}")))?;
    Ok(User { id, name, role })
}

/// Smallest accepted password length, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// Creates an account; `Conflict` if the name is taken, `Invalid` for an empty
/// name or a password shorter than [`MIN_PASSWORD_CHARS`].
pub async fn create(db: &Db, name: &str, role: Role, password: &str) -> Result<User> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 64 {
        return Err(DbError::Invalid(
            "a user name needs 1 to 64 characters".into(),
        ));
    }
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(DbError::Invalid(format!(
            "a password needs at least {MIN_PASSWORD_CHARS} characters"
        )));
    }
    let salt = SaltString::generate(&mut OsRng);
    let hash = Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| DbError::Invalid(format!("cannot hash password: {e}")))?
        .to_string();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO users (name, role, password_hash, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO NOTHING RETURNING id",
    )
    .bind(name)
    .bind(role.as_str())
    .bind(hash)
    .bind(now())
    .fetch_optional(db.pool())
    .await?
    .ok_or_else(|| DbError::Conflict(format!("a user named {name} exists already")))?;
    Ok(User {
        id,
        name: name.to_owned(),
        role,
    })
}

/// The account `name` if `password` is its password.
pub async fn verify(db: &Db, name: &str, password: &str) -> Result<Option<User>> {
    let row: Option<(i64, String, String, String)> =
        sqlx::query_as("SELECT id, name, role, password_hash FROM users WHERE name = ?")
            .bind(name.trim())
            .fetch_optional(db.pool())
            .await?;
    let Some((id, name, role, hash)) = row else {
        return Ok(None);
    };
    let parsed = PasswordHash::new(&hash).map_err(|e| DbError::Corrupt(format!("hash: {e}")))?;
    if Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_err()
    {
        return Ok(None);
    }
    to_user((id, name, role)).map(Some)
}

pub async fn by_name(db: &Db, name: &str) -> Result<Option<User>> {
    let row: Option<(i64, String, String)> =
        sqlx::query_as("SELECT id, name, role FROM users WHERE name = ?")
            .bind(name)
            .fetch_optional(db.pool())
            .await?;
    row.map(to_user).transpose()
}

pub async fn list(db: &Db) -> Result<Vec<User>> {
    let rows: Vec<(i64, String, String)> =
        sqlx::query_as("SELECT id, name, role FROM users ORDER BY name")
            .fetch_all(db.pool())
            .await?;
    rows.into_iter().map(to_user).collect()
}
