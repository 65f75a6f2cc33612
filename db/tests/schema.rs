//! The two backends' migrations give one logical schema: the same tables,
//! with the same columns in the same order (name, type class, nullability),
//! the same indexes (PostgreSQL's own `*_trgm` search indexes aside) and the
//! same foreign keys. Needs a PostgreSQL server ([`db::TEST_PG_ENV`]);
//! `scripts/test.sh` starts one and runs this on it.

use std::collections::BTreeSet;

use db::{Backend, Db};

/// Columns that are yes/no flags: INTEGER 0/1 on SQLite, BOOLEAN on PostgreSQL.
const FLAGS: &[&str] = &["cases.seed", "datasets.synthetic", "users.adjudicator"];

/// `(table, column, type class, not null)` in table name and column order.
type Column = (String, String, &'static str, bool);

fn class(table: &str, column: &str, declared: &str) -> &'static str {
    let declared = declared.to_ascii_lowercase();
    if FLAGS.contains(&format!("{table}.{column}").as_str()) && declared != "text" {
        return "flag";
    }
    if declared == "boolean" {
        "flag"
    } else if declared.contains("int") {
        "integer"
    } else if declared.contains("char") || declared == "text" {
        "text"
    } else if declared.contains("real") || declared.contains("double") {
        "float"
    } else if declared.contains("blob") || declared == "bytea" {
        "blob"
    } else {
        "other"
    }
}

async fn sqlite_columns(db: &Db) -> Vec<Column> {
    let rows: Vec<(String, String, String, i64, i64)> = sqlx::query_as(
        "SELECT m.name, p.name, p.type, p.\"notnull\", p.pk
         FROM sqlite_master m JOIN pragma_table_info(m.name) p
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_sqlx_migrations'
         ORDER BY m.name, p.cid",
    )
    .fetch_all(db.pool())
    .await
    .expect("SQLite columns");
    rows.into_iter()
        .map(|(table, column, declared, not_null, pk)| {
            let class = class(&table, &column, &declared);
            // A primary key never holds NULL in what the workbench writes
            // (SQLite would accept one in a text key; PostgreSQL refuses).
            (table, column, class, not_null == 1 || pk > 0)
        })
        .collect()
}

async fn pg_columns(db: &Db) -> Vec<Column> {
    let rows: Vec<(String, String, String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, data_type::text, is_nullable::text
         FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name <> '_sqlx_migrations'
         ORDER BY table_name, ordinal_position",
    )
    .fetch_all(db.pool())
    .await
    .expect("PostgreSQL columns");
    rows.into_iter()
        .map(|(table, column, declared, nullable)| {
            let class = class(&table, &column, &declared);
            (table, column, class, nullable == "NO")
        })
        .collect()
}

async fn sqlite_indexes(db: &Db) -> BTreeSet<String> {
    sqlx::query_scalar::<_, String>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
    )
    .fetch_all(db.pool())
    .await
    .expect("SQLite indexes")
    .into_iter()
    .collect()
}

async fn pg_indexes(db: &Db) -> BTreeSet<String> {
    // Indexes made by CREATE INDEX, not those behind a key constraint.
    sqlx::query_scalar::<_, String>(
        "SELECT i.relname::text FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_class t ON t.oid = x.indrelid
         WHERE t.relnamespace = 'public'::regnamespace
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)",
    )
    .fetch_all(db.pool())
    .await
    .expect("PostgreSQL indexes")
    .into_iter()
    .filter(|name| !name.ends_with("_trgm"))
    .collect()
}

/// `(table, column, referenced table, referenced column, on delete)`.
type ForeignKey = (String, String, String, String, String);

async fn sqlite_foreign_keys(db: &Db) -> BTreeSet<ForeignKey> {
    let rows: Vec<(String, String, String, Option<String>, String)> = sqlx::query_as(
        "SELECT m.name, f.\"from\", f.\"table\", f.\"to\", f.on_delete
         FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
         WHERE m.type = 'table'",
    )
    .fetch_all(db.pool())
    .await
    .expect("SQLite foreign keys");
    rows.into_iter()
        .map(|(table, column, to_table, to_column, on_delete)| {
            // A bare REFERENCES t names t's primary key, `id` in this schema.
            let to_column = to_column.unwrap_or_else(|| "id".to_owned());
            (table, column, to_table, to_column, on_delete.to_uppercase())
        })
        .collect()
}

async fn pg_foreign_keys(db: &Db) -> BTreeSet<ForeignKey> {
    let rows: Vec<(String, String, String, String, String)> = sqlx::query_as(
        "SELECT t.relname::text, a.attname::text, ft.relname::text, fa.attname::text,
                c.confdeltype::text
         FROM pg_constraint c
         JOIN pg_class t ON t.oid = c.conrelid
         JOIN pg_class ft ON ft.oid = c.confrelid
         JOIN LATERAL unnest(c.conkey, c.confkey) AS k(col, fcol) ON TRUE
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col
         JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = k.fcol
         WHERE c.contype = 'f' AND t.relnamespace = 'public'::regnamespace",
    )
    .fetch_all(db.pool())
    .await
    .expect("PostgreSQL foreign keys");
    rows.into_iter()
        .map(|(table, column, to_table, to_column, action)| {
            let on_delete = match action.as_str() {
                "c" => "CASCADE",
                "n" => "SET NULL",
                "d" => "SET DEFAULT",
                "r" => "RESTRICT",
                _ => "NO ACTION",
            };
            (table, column, to_table, to_column, on_delete.to_owned())
        })
        .collect()
}

#[tokio::test]
async fn both_backends_migrate_to_the_same_tables_columns_indexes_and_keys() {
    if std::env::var(db::TEST_PG_ENV).map_or(true, |url| url.is_empty()) {
        eprintln!("skipped: {} names no PostgreSQL server", db::TEST_PG_ENV);
        return;
    }
    let sqlite = Db::open_in_memory().await.expect("SQLite migrates");
    let pg = Db::open_for_test(None).await.expect("PostgreSQL migrates");
    assert_eq!(pg.backend(), Backend::Postgres);

    let (left, right) = (sqlite_columns(&sqlite).await, pg_columns(&pg).await);
    let tables: BTreeSet<&str> = left.iter().map(|c| c.0.as_str()).collect();
    assert!(tables.len() >= 20, "{tables:?}");
    for table in tables.union(&right.iter().map(|c| c.0.as_str()).collect()) {
        let of = |cols: &[Column]| -> Vec<Column> {
            cols.iter().filter(|c| c.0 == *table).cloned().collect()
        };
        assert_eq!(
            of(&left),
            of(&right),
            "table {table}: SQLite, then PostgreSQL"
        );
    }
    assert_eq!(sqlite_indexes(&sqlite).await, pg_indexes(&pg).await);
    let keys = sqlite_foreign_keys(&sqlite).await;
    assert!(!keys.is_empty());
    assert_eq!(keys, pg_foreign_keys(&pg).await);
}
