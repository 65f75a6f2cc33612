//! Reading cases: the filtered, paged list and single cases with their neighbours.
//!
//! The SQL filter here must agree with [`CaseFilter::matches`], the reference
//! meaning of a filter; the tests check that it does.

use std::sync::Arc;

use engine::core::paging::Page;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::query::{CaseFilter, CaseSummary};

use crate::{push_search, Db, DbError, Result, Sql};

fn parse(data: &str) -> Result<Case> {
    serde_json::from_str(data).map_err(|e| DbError::Corrupt(format!("stored case: {e}")))
}

fn push_filter(qb: &mut Sql<'_>, db: &Db, dataset_id: i64, f: &CaseFilter) {
    qb.push(" FROM cases c WHERE c.dataset_id = ")
        .bind(dataset_id);
    if let Some(class) = f.class {
        qb.push(" AND c.class = ").bind(class.as_str());
    }
    if let Some(cause) = &f.cause {
        qb.push(" AND c.cause = ").bind(cause.clone());
    }
    if let Some(p) = f.plaintiff_type {
        qb.push(" AND c.plaintiff_type = ").bind(p.as_str());
    }
    if let Some(seed) = f.seed {
        qb.push(" AND c.seed = ").bind(seed);
    }
    if let Some(v) = f.verdict {
        qb.push(" AND EXISTS (SELECT 1 FROM case_claims k WHERE k.case_pk = c.id AND k.verdict = ")
            .bind(v.as_str())
            .push(")");
    }
    if let Some(t) = f.focal_point_type {
        qb.push(
            " AND EXISTS (SELECT 1 FROM case_focal_points p WHERE p.case_pk = c.id AND p.point_type = ",
        )
        .bind(t.as_str())
        .push(")");
    }
    if let Some(q) = f.search_term() {
        // A plain substring test, ASCII folded, as the filter's `matches` does.
        push_search(qb, db.backend(), "c.search_text", q);
    }
}

/// One page of the cases of `dataset_id` passing `filter`, in dataset order.
pub async fn list(
    db: &Db,
    dataset_id: i64,
    filter: &CaseFilter,
    page: u32,
    per_page: u32,
) -> Result<Page<CaseSummary>> {
    let mut count = Sql::new("SELECT COUNT(*)");
    push_filter(&mut count, db, dataset_id, filter);
    let total: i64 = sqlx::query_scalar_with(&count.text, count.args)
        .fetch_one(db.pool())
        .await?;

    let mut rows = Sql::new("SELECT c.data");
    push_filter(&mut rows, db, dataset_id, filter);
    rows.push(" ORDER BY c.position LIMIT ")
        .bind(i64::from(per_page))
        .push(" OFFSET ")
        .bind(i64::from(page.saturating_sub(1)) * i64::from(per_page));
    let data: Vec<String> = sqlx::query_scalar_with(&rows.text, rows.args)
        .fetch_all(db.pool())
        .await?;
    let items = data
        .iter()
        .map(|d| parse(d).map(|c| CaseSummary::of(&c)))
        .collect::<Result<Vec<_>>>()?;
    Ok(Page {
        items,
        total: u64::try_from(total).unwrap_or(0),
        page,
        per_page,
    })
}

/// A case with the ids of the cases before and after it in dataset order.
#[derive(Debug, Clone)]
pub struct CaseWithNeighbours {
    pub case: Case,
    pub position: i64,
    pub previous: Option<String>,
    pub next: Option<String>,
}

/// The case `case_id` of `dataset_id`, or `NotFound`.
pub async fn get(db: &Db, dataset_id: i64, case_id: &str) -> Result<CaseWithNeighbours> {
    let row: Option<(String, i64)> =
        sqlx::query_as("SELECT data, position FROM cases WHERE dataset_id = $1 AND case_id = $2")
            .bind(dataset_id)
            .bind(case_id)
            .fetch_optional(db.pool())
            .await?;
    let (data, position) = row.ok_or_else(|| DbError::NotFound(format!("no case {case_id}")))?;
    let neighbour = |pos: i64| {
        sqlx::query_scalar::<_, String>(
            "SELECT case_id FROM cases WHERE dataset_id = $1 AND position = $2",
        )
        .bind(dataset_id)
        .bind(pos)
        .fetch_optional(db.pool())
    };
    let previous = neighbour(position - 1).await?;
    let next = neighbour(position + 1).await?;
    Ok(CaseWithNeighbours {
        case: parse(&data)?,
        position,
        previous,
        next,
    })
}

/// Every case of `dataset_id`, in dataset order. Parsed once per dataset
/// version and kept in the handle's bounded cache ([`Db`]), keyed by the
/// version's id and content hash (a version's cases never change): overview,
/// leaderboard, uploads and drill-downs all need the whole set.
pub async fn all(db: &Db, dataset_id: i64) -> Result<Arc<Vec<Case>>> {
    let mut conn = db.pool().acquire().await?;
    all_on(&mut conn, db, dataset_id).await
}

/// [`all`] read on `conn` (say, inside a transaction), through the same cache.
pub(crate) async fn all_on(
    conn: &mut sqlx::AnyConnection,
    db: &Db,
    dataset_id: i64,
) -> Result<Arc<Vec<Case>>> {
    let hash: String = sqlx::query_scalar("SELECT content_hash FROM datasets WHERE id = $1")
        .bind(dataset_id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| DbError::NotFound(format!("no dataset with id {dataset_id}")))?;
    let key = (dataset_id, hash);
    if let Some(cases) = db.cached_cases(&key) {
        return Ok(cases);
    }
    let data: Vec<String> =
        sqlx::query_scalar("SELECT data FROM cases WHERE dataset_id = $1 ORDER BY position")
            .bind(dataset_id)
            .fetch_all(&mut *conn)
            .await?;
    let cases = Arc::new(data.iter().map(|d| parse(d)).collect::<Result<Vec<_>>>()?);
    db.cache_cases(key, Arc::clone(&cases));
    Ok(cases)
}
