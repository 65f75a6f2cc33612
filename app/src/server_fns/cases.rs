//! Case browsing: the filtered list and the single case.

use engine::lexpilot::query::CaseFilter;
use leptos::prelude::*;
use leptos::server_fn;

use crate::types::{CaseDetail, CaseList};

/// JSON-encoded: a filter with every field unset has nothing to put in a form body.
#[server(prefix = "/sfn", input = server_fn::codec::Json)]
pub async fn list_cases(filter: CaseFilter, page: u32) -> Result<CaseList, ServerFnError> {
    use crate::ssr::{current_dataset, dataset_view, db, fail};
    let db = db()?;
    let dataset = current_dataset(&db).await?;
    let (page, per_page) = engine::core::paging::paging(Some(page), None);
    let page = db::cases::list(&db, dataset.id, &filter, page, per_page)
        .await
        .map_err(fail)?;
    Ok(CaseList {
        dataset: dataset_view(&dataset),
        page,
    })
}

#[server(prefix = "/sfn")]
pub async fn get_case(case_id: String) -> Result<CaseDetail, ServerFnError> {
    use crate::ssr::{current_dataset, dataset_view, fail, state};
    let state = state()?;
    let db = &state.db;
    let dataset = current_dataset(db).await?;
    let found = db::cases::get(db, dataset.id, &case_id)
        .await
        .map_err(fail)?;
    let statutes = state.statutes.index(db).await.map_err(fail)?;
    let marks = statutes.mark_map(found.case.texts());
    Ok(CaseDetail {
        marks,
        dataset: dataset_view(&dataset),
        case: found.case,
        position: found.position + 1,
        previous: found.previous,
        next: found.next,
    })
}
