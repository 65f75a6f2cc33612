//! Accounts. Passwords are stored only as argon2id PHC strings.

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use engine::accounts::{Permission, Role, Standing};
use serde::{Deserialize, Serialize};

use crate::{now, Db, DbError, Result};

/// A stored account, without its password hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    pub id: i64,
    pub name: String,
    pub role: Role,
    /// An expert an admin designated to adjudicate review items.
    #[serde(default)]
    pub adjudicator: bool,
}

impl User {
    /// What the account may do: its role's permissions, and adjudication for
    /// a designated expert ([`Standing::allows`]).
    pub fn allows(&self, permission: Permission) -> bool {
        self.standing().allows(permission)
    }

    pub fn standing(&self) -> Standing {
        Standing {
            role: self.role,
            adjudicator: self.adjudicator,
        }
    }
}

/// `id, name, role, adjudicator` as selected from `users`.
pub(crate) type UserRow = (i64, String, String, crate::Flag);

pub(crate) fn to_user((id, name, role, adjudicator): UserRow) -> Result<User> {
    let role = Role::parse(&role).ok_or_else(|| DbError::Corrupt(format!("role {role:?}")))?;
    Ok(User {
        id,
        name,
        role,
        adjudicator: adjudicator.0,
    })
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
    if let Err(message) = engine::names::check_name(name) {
        return Err(DbError::Invalid(format!("the user name {message}")));
    }
    let hash = hash_password(password)?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO users (name, role, password_hash, created_at) VALUES ($1, $2, $3, $4)
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
        adjudicator: false,
    })
}

/// The argon2id PHC string of `password`, refused when it is shorter than
/// [`MIN_PASSWORD_CHARS`].
fn hash_password(password: &str) -> Result<String> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(DbError::Invalid(format!(
            "a password needs at least {MIN_PASSWORD_CHARS} characters"
        )));
    }
    let salt = SaltString::generate(&mut OsRng);
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| DbError::Invalid(format!("cannot hash password: {e}")))?
        .to_string())
}

/// Gives account `name` the password `password` (an admin's reset) and ends
/// every session of the account, in one transaction, so that whoever held
/// the old password is signed out; the account's sign-in failures are
/// forgotten, so its owner can sign in at once. API tokens are kept: they
/// are made on the server's command line, not with the password.
/// `NotFound` for an unknown name, `Invalid` for a short password.
pub async fn set_password(db: &Db, name: &str, password: &str) -> Result<User> {
    let hash = hash_password(password)?;
    let user = by_name(db, name.trim())
        .await?
        .ok_or_else(|| DbError::NotFound(format!("no account named {}", name.trim())))?;
    let mut tx = db.pool().begin().await?;
    sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
        .bind(hash)
        .bind(user.id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(user.id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM sign_in_failures WHERE name = $1")
        .bind(&user.name)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(user)
}

/// A hash of a random password, made once with the parameters every account's
/// hash has: what [`verify`] checks a password against when no account has
/// the name.
fn unknown_account_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(crate::sessions::random_token().as_bytes(), &salt)
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

/// The account `name` if `password` is its password. Takes as long for a
/// name no account has as for a wrong password.
pub async fn verify(db: &Db, name: &str, password: &str) -> Result<Option<User>> {
    let row: Option<(i64, String, String, crate::Flag, String)> = sqlx::query_as(
        "SELECT id, name, role, adjudicator, password_hash FROM users WHERE name = $1",
    )
    .bind(name.trim())
    .fetch_optional(db.pool())
    .await?;
    let Some((id, name, role, adjudicator, hash)) = row else {
        // Spend the time a real check takes, so that how long a refusal
        // takes does not tell whether the account exists.
        if let Ok(parsed) = PasswordHash::new(unknown_account_hash()) {
            let _ = Argon2::default().verify_password(password.as_bytes(), &parsed);
        }
        return Ok(None);
    };
    let parsed = PasswordHash::new(&hash).map_err(|e| DbError::Corrupt(format!("hash: {e}")))?;
    if Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_err()
    {
        return Ok(None);
    }
    to_user((id, name, role, adjudicator)).map(Some)
}

pub async fn by_name(db: &Db, name: &str) -> Result<Option<User>> {
    let row: Option<UserRow> =
        sqlx::query_as("SELECT id, name, role, adjudicator FROM users WHERE name = $1")
            .bind(name)
            .fetch_optional(db.pool())
            .await?;
    row.map(to_user).transpose()
}

pub async fn list(db: &Db) -> Result<Vec<User>> {
    let rows: Vec<UserRow> =
        sqlx::query_as("SELECT id, name, role, adjudicator FROM users ORDER BY name")
            .fetch_all(db.pool())
            .await?;
    rows.into_iter().map(to_user).collect()
}

/// Designates expert `name` as adjudicator (`on`) or withdraws it. Only an
/// expert account can be designated (admins adjudicate anyway); withdrawing
/// works for any account. Returns the account as it now stands.
pub async fn set_adjudicator(db: &Db, name: &str, on: bool) -> Result<User> {
    let user = by_name(db, name.trim())
        .await?
        .ok_or_else(|| DbError::NotFound(format!("no account named {}", name.trim())))?;
    if on && user.role != Role::Expert {
        return Err(DbError::Invalid(format!(
            "{} is {} {}; only an expert account can be designated adjudicator",
            user.name,
            if user.role == Role::Admin { "an" } else { "a" },
            user.role.as_str()
        )));
    }
    sqlx::query("UPDATE users SET adjudicator = $1 WHERE id = $2")
        .bind(on)
        .bind(user.id)
        .execute(db.pool())
        .await?;
    Ok(User {
        adjudicator: on,
        ..user
    })
}
