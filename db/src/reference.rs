//! Reference rows (`reference_rows`, migration 0020): a benchmark's
//! published or lab-own figures ([`engine::reference`]). An import replaces
//! every row of its (benchmark, origin) in one transaction; reading gives a
//! benchmark's rows, each with its origin, in origin then file order.

use engine::benchmark::Benchmark;
use engine::reference::ReferenceRow;

use crate::{begin_write, now, Db, Result};

/// What an import did: rows stored, and rows of the same origin it replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replaced {
    pub stored: usize,
    pub replaced: usize,
}

/// Stores `rows` as `benchmark`'s rows of `origin`, replacing the ones
/// stored before under that origin, in one transaction.
pub async fn import(
    db: &Db,
    benchmark: Benchmark,
    origin: &str,
    by: Option<&str>,
    rows: &[ReferenceRow],
) -> Result<Replaced> {
    let mut tx = begin_write(db).await?;
    let replaced = sqlx::query("DELETE FROM reference_rows WHERE benchmark = $1 AND origin = $2")
        .bind(benchmark.as_str())
        .bind(origin)
        .execute(&mut *tx)
        .await?
        .rows_affected() as usize;
    let at = now();
    for (position, r) in rows.iter().enumerate() {
        sqlx::query(
            "INSERT INTO reference_rows (benchmark, origin, position, model, family, view,
                 column_key, value, source, imported_by, imported_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(benchmark.as_str())
        .bind(origin)
        .bind(position as i64)
        .bind(&r.model)
        .bind(&r.family)
        .bind(&r.view)
        .bind(&r.column)
        .bind(r.value)
        .bind(&r.source)
        .bind(by)
        .bind(&at)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    db.notify(crate::events::Change::ReferenceImported {
        benchmark: benchmark.as_str().to_owned(),
    })
    .await;
    Ok(Replaced {
        stored: rows.len(),
        replaced,
    })
}

type Stored = (
    String,
    i64,
    String,
    Option<String>,
    String,
    String,
    f64,
    String,
);

/// How many reference rows of `benchmark` `origin` has.
pub async fn count(db: &Db, benchmark: Benchmark, origin: &str) -> Result<usize> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM reference_rows WHERE benchmark = $1 AND origin = $2",
    )
    .bind(benchmark.as_str())
    .bind(origin)
    .fetch_one(db.pool())
    .await?;
    Ok(usize::try_from(n).unwrap_or_default())
}

/// `benchmark`'s reference rows with their origins: the published ones
/// first, then each lab origin by name, each in its file's order.
pub async fn rows(db: &Db, benchmark: Benchmark) -> Result<Vec<(ReferenceRow, String)>> {
    let stored: Vec<Stored> = sqlx::query_as(
        "SELECT origin, position, model, family, view, column_key, value, source
           FROM reference_rows WHERE benchmark = $1
          ORDER BY CASE WHEN origin = 'published' THEN 0 ELSE 1 END, origin, position",
    )
    .bind(benchmark.as_str())
    .fetch_all(db.pool())
    .await?;
    Ok(stored
        .into_iter()
        .map(|(origin, _, model, family, view, column, value, source)| {
            (
                ReferenceRow {
                    model,
                    family,
                    view,
                    column,
                    value,
                    source,
                },
                origin,
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(model: &str, value: f64) -> ReferenceRow {
        ReferenceRow {
            model: model.to_owned(),
            family: Some("closed".to_owned()),
            view: "lca".to_owned(),
            column: "overall".to_owned(),
            value,
            source: "paper".to_owned(),
        }
    }

    #[tokio::test]
    async fn an_import_replaces_its_origin_only() {
        let db = Db::open_in_memory().await.expect("db");
        let b = Benchmark::Lexpilot;
        import(&db, b, "published", None, &[row("A", 0.5), row("B", 0.6)])
            .await
            .expect("import");
        import(&db, b, "lab", Some("admin"), &[row("A", 0.4)])
            .await
            .expect("import");
        let again = import(&db, b, "lab", None, &[row("C", 0.3)])
            .await
            .expect("import");
        assert_eq!(
            again,
            Replaced {
                stored: 1,
                replaced: 1
            }
        );
        let stored = rows(&db, b).await.expect("rows");
        let seen: Vec<(&str, &str, f64)> = stored
            .iter()
            .map(|(r, o)| (o.as_str(), r.model.as_str(), r.value))
            .collect();
        assert_eq!(
            seen,
            [
                ("published", "A", 0.5),
                ("published", "B", 0.6),
                ("lab", "C", 0.3)
            ]
        );
        assert!(rows(&db, Benchmark::Plawbench)
            .await
            .expect("rows")
            .is_empty());
    }
}
