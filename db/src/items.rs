//! Reading the items of the benchmarks kept in the generic item table
//! (every benchmark but LexPilot): the filtered, paged list, single items
//! with their neighbours, and every item of a version through the handle's
//! bounded cache. Items are stored as their engine writes them and read
//! back as the caller's type, the benchmark's item.
//!
//! The SQL filter here must agree with [`ItemFilter::matches`], the
//! reference meaning of a filter; the tests check that it does.

use std::sync::Arc;

use engine::core::paging::{ItemFilter, Page};
use serde::de::DeserializeOwned;

use crate::{push_search, Db, DbError, Result, Sql};

fn parse<T: DeserializeOwned>(data: &str) -> Result<T> {
    serde_json::from_str(data).map_err(|e| DbError::Corrupt(format!("stored item: {e}")))
}

fn push_filter(qb: &mut Sql<'_>, db: &Db, dataset_id: i64, f: &ItemFilter) {
    qb.push(" FROM items i WHERE i.dataset_id = ")
        .bind(dataset_id);
    if let Some(facet) = &f.facet {
        qb.push(" AND i.facet = ").bind(facet.clone());
    }
    if let Some(category) = &f.category {
        qb.push(" AND i.category = ").bind(category.clone());
    }
    if let Some(q) = f.search_term() {
        // A plain substring test, ASCII folded, as the filter's `matches` does.
        push_search(qb, db.backend(), "i.search_text", q);
    }
}

/// One page of the items of `dataset_id` passing `filter`, in dataset order.
pub async fn list<T: DeserializeOwned>(
    db: &Db,
    dataset_id: i64,
    filter: &ItemFilter,
    page: u32,
    per_page: u32,
) -> Result<Page<T>> {
    let mut count = Sql::new("SELECT COUNT(*)");
    push_filter(&mut count, db, dataset_id, filter);
    let total: i64 = sqlx::query_scalar_with(&count.text, count.args)
        .fetch_one(db.pool())
        .await?;

    let mut rows = Sql::new("SELECT i.data");
    push_filter(&mut rows, db, dataset_id, filter);
    rows.push(" ORDER BY i.position LIMIT ")
        .bind(i64::from(per_page))
        .push(" OFFSET ")
        .bind(i64::from(page.saturating_sub(1)) * i64::from(per_page));
    let data: Vec<String> = sqlx::query_scalar_with(&rows.text, rows.args)
        .fetch_all(db.pool())
        .await?;
    Ok(Page {
        items: data.iter().map(|d| parse(d)).collect::<Result<Vec<_>>>()?,
        total: u64::try_from(total).unwrap_or(0),
        page,
        per_page,
    })
}

/// The distinct categories of the items of `dataset_id` with `facet`, in
/// name order (for a filter's choices).
pub async fn categories(db: &Db, dataset_id: i64, facet: &str) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar(
        "SELECT DISTINCT category FROM items WHERE dataset_id = $1 AND facet = $2 AND category <> ''
         ORDER BY category",
    )
    .bind(dataset_id)
    .bind(facet)
    .fetch_all(db.pool())
    .await?)
}

/// An item with the ids of the items before and after it in dataset order.
#[derive(Debug, Clone)]
pub struct ItemWithNeighbours<T> {
    pub item: T,
    /// From 0.
    pub position: i64,
    pub previous: Option<String>,
    pub next: Option<String>,
}

/// The item `item_id` of `dataset_id`, or `NotFound`.
pub async fn get<T: DeserializeOwned>(
    db: &Db,
    dataset_id: i64,
    item_id: &str,
) -> Result<ItemWithNeighbours<T>> {
    let row: Option<(String, i64)> =
        sqlx::query_as("SELECT data, position FROM items WHERE dataset_id = $1 AND item_id = $2")
            .bind(dataset_id)
            .bind(item_id)
            .fetch_optional(db.pool())
            .await?;
    let (data, position) = row.ok_or_else(|| DbError::NotFound(format!("no item {item_id}")))?;
    let neighbour = |pos: i64| {
        sqlx::query_scalar::<_, String>(
            "SELECT item_id FROM items WHERE dataset_id = $1 AND position = $2",
        )
        .bind(dataset_id)
        .bind(pos)
        .fetch_optional(db.pool())
    };
    let previous = neighbour(position - 1).await?;
    let next = neighbour(position + 1).await?;
    Ok(ItemWithNeighbours {
        item: parse(&data)?,
        position,
        previous,
        next,
    })
}

/// Every item of `dataset_id`, in dataset order, parsed once per version
/// and kept in the handle's bounded cache (keyed by the version's id and
/// content hash; a version never changes).
pub async fn all<T: DeserializeOwned + Send + Sync + 'static>(
    db: &Db,
    dataset_id: i64,
) -> Result<Arc<Vec<T>>> {
    let hash: String = sqlx::query_scalar("SELECT content_hash FROM datasets WHERE id = $1")
        .bind(dataset_id)
        .fetch_optional(db.pool())
        .await?
        .ok_or_else(|| DbError::NotFound(format!("no dataset with id {dataset_id}")))?;
    let key = (dataset_id, hash);
    if let Some(items) = db.cached_cases::<T>(&key) {
        return Ok(items);
    }
    let data: Vec<String> =
        sqlx::query_scalar("SELECT data FROM items WHERE dataset_id = $1 ORDER BY position")
            .bind(dataset_id)
            .fetch_all(db.pool())
            .await?;
    let items = Arc::new(data.iter().map(|d| parse(d)).collect::<Result<Vec<T>>>()?);
    db.cache_cases(key, Arc::clone(&items));
    Ok(items)
}

#[cfg(test)]
mod tests {
    use engine::benchmark::Benchmark;
    use engine::core::paging::{ItemFilter, Listed};
    use engine::plawbench::dataset::{parse_dataset, Item};

    use super::*;
    use crate::datasets::{import_items, ImportOutcome, ImportSource};

    const DEMO: &str = include_str!("../../server/data/plawbench/demo.jsonl");

    async fn demo() -> (Db, i64, Vec<Item>) {
        let db = Db::open_for_test(None).await.expect("db");
        let items = parse_dataset(DEMO).expect("the demo parses");
        let src = ImportSource {
            name: "plaw-demo",
            source: "test",
            synthetic: true,
        };
        let outcome = import_items(&db, src, Benchmark::Plawbench, &items)
            .await
            .expect("import");
        (db, outcome.dataset().id, items)
    }

    #[tokio::test]
    async fn the_sql_filter_agrees_with_the_reference() {
        let (db, id, items) = demo().await;
        let categories: Vec<Option<String>> = std::iter::once(None)
            .chain(items.iter().filter_map(|i| i.category.clone()).map(Some))
            .collect();
        let facets = [None, Some("case_analysis"), Some("legal_consultation")];
        for facet in facets {
            for category in &categories {
                for q in [None, Some("合同"), Some("CASE_ANALYSIS-1"), Some("  ")] {
                    let filter = ItemFilter {
                        facet: facet.map(str::to_owned),
                        category: category.clone(),
                        q: q.map(str::to_owned),
                    };
                    let page: Page<Item> = list(&db, id, &filter, 1, 200).await.expect("list");
                    let expected: Vec<&str> = items
                        .iter()
                        .filter(|i| filter.matches(*i))
                        .map(|i| i.item_id())
                        .collect();
                    let got: Vec<&str> = page.items.iter().map(|i| i.item_id()).collect();
                    assert_eq!(got, expected, "{filter:?}");
                    assert_eq!(page.total, expected.len() as u64);
                }
            }
        }
    }

    #[tokio::test]
    async fn items_read_back_as_imported_with_neighbours_and_pages() {
        let (db, id, items) = demo().await;
        let all: Arc<Vec<Item>> = all(&db, id).await.expect("all");
        assert_eq!(*all, items);
        let again: Arc<Vec<Item>> = super::all(&db, id).await.expect("cached");
        assert!(
            Arc::ptr_eq(&all, &again),
            "the second read is the cached one"
        );
        let second = get::<Item>(&db, id, &items[1].item_id).await.expect("get");
        assert_eq!(second.item, items[1]);
        assert_eq!(second.previous.as_deref(), Some(items[0].item_id.as_str()));
        assert_eq!(second.next.as_deref(), Some(items[2].item_id.as_str()));
        assert!(matches!(
            get::<Item>(&db, id, "nope").await,
            Err(DbError::NotFound(m)) if m.contains("nope")
        ));
        let page2: Page<Item> = list(&db, id, &ItemFilter::default(), 2, 5)
            .await
            .expect("page");
        assert_eq!(page2.items, items[5..10]);
        assert_eq!(page2.pages(), items.len().div_ceil(5) as u32);
    }

    #[tokio::test]
    async fn a_reimport_is_a_no_op_and_a_name_keeps_its_benchmark() {
        let (db, id, items) = demo().await;
        let src = ImportSource {
            name: "plaw-demo",
            source: "test",
            synthetic: true,
        };
        let again = import_items(&db, src.clone(), Benchmark::Plawbench, &items)
            .await
            .expect("again");
        assert!(matches!(again, ImportOutcome::Unchanged(ref d) if d.id == id));
        let changed = import_items(&db, src.clone(), Benchmark::Plawbench, &items[1..])
            .await
            .expect("changed");
        assert_eq!(changed.dataset().version, 2);
        let current = crate::datasets::current(&db, Benchmark::Plawbench)
            .await
            .expect("current")
            .expect("a version");
        assert_eq!(current.id, changed.dataset().id);
        assert_eq!(
            crate::datasets::current(&db, Benchmark::Lexpilot)
                .await
                .expect("current"),
            None,
            "no LexPilot dataset"
        );
        assert!(matches!(
            import_items(&db, src, Benchmark::Dlawbench, &items).await,
            Err(DbError::Conflict(m)) if m.contains("plawbench")
        ));
        let facets = categories(&db, id, "case_analysis")
            .await
            .expect("categories");
        assert!(!facets.is_empty() && facets.windows(2).all(|w| w[0] < w[1]));
    }
}
