//! Corrections of a case: its revision history with the changes between
//! revisions, and saving a correction (admins, who adjudicate) against the
//! revision the editor started from.

use engine::lexpilot::dataset::Case;
use engine::review::FieldChange;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// The history of a case: every revision, newest first, each with what it
/// changed from the one before; and the revision it stands at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseHistory {
    pub case_id: String,
    pub current_revision: i64,
    pub revisions: Vec<RevisionView>,
}

/// One revision and its changes from the previous one (none for the first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RevisionView {
    pub revision: i64,
    pub author: Option<String>,
    pub reason: String,
    pub dataset_version: i64,
    pub created_at: String,
    pub changes: Vec<FieldChange>,
}

/// What saving did: saved, or refused because someone saved first (with
/// their version, to review before trying again).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CorrectionResult {
    Saved {
        revision: i64,
        dataset_version: i64,
        runs_carried: usize,
        runs_dropped: Vec<String>,
    },
    Stale {
        revision: i64,
        author: Option<String>,
        reason: String,
        case: Box<Case>,
    },
}

/// The revisions of `case_id` in the current dataset's name; empty when it
/// was never corrected (it stands at revision 1).
#[server(prefix = "/sfn")]
pub async fn get_case_history(case_id: String) -> Result<CaseHistory, ServerFnError> {
    use crate::ssr::{current_dataset, db, fail};

    let db = db()?;
    let dataset = current_dataset(&db).await?;
    let revisions = db::revisions::history(&db, &dataset.name, &case_id)
        .await
        .map_err(fail)?;
    let current_revision = revisions.last().map_or(1, |r| r.revision);
    let mut views: Vec<RevisionView> = revisions
        .iter()
        .enumerate()
        .map(|(i, r)| RevisionView {
            revision: r.revision,
            author: r.author.clone(),
            reason: r.reason.clone(),
            dataset_version: r.dataset_version,
            created_at: r.created_at.clone(),
            changes: i
                .checked_sub(1)
                .map(|p| engine::review::diff_cases(&revisions[p].case, &r.case))
                .unwrap_or_default(),
        })
        .collect();
    views.reverse();
    Ok(CaseHistory {
        case_id,
        current_revision,
        revisions: views,
    })
}

/// Saves `case` (JSON, §2) as the next revision of its case if the case still
/// stands at `base_revision`; admins only. A new dataset version results, with
/// the stored runs re-scored on it.
#[server(prefix = "/sfn")]
pub async fn save_case_correction(
    case: String,
    base_revision: i64,
    reason: String,
) -> Result<CorrectionResult, ServerFnError> {
    use axum::http::StatusCode;
    use db::revisions::CorrectionOutcome;
    use engine::accounts::Permission;

    use crate::ssr::{current_dataset, db, fail, require, set_status};

    let user = require(Permission::Adjudicate).await?;
    let case: Case = serde_json::from_str(&case).map_err(|e| {
        set_status(StatusCode::BAD_REQUEST);
        ServerFnError::new(format!("the corrected case is not a valid case: {e}"))
    })?;
    let db = db()?;
    let dataset = current_dataset(&db).await?;
    let outcome = db::revisions::correct_case(
        &db,
        &dataset.name,
        &case,
        base_revision,
        &user,
        &reason,
        services::ingest::rescore(
            dataset
                .benchmark()
                .unwrap_or(engine::benchmark::Benchmark::Lexpilot),
        ),
    )
    .await
    .map_err(fail)?;
    Ok(match outcome {
        CorrectionOutcome::Saved {
            revision,
            dataset,
            runs_carried,
            runs_dropped,
        } => CorrectionResult::Saved {
            revision,
            dataset_version: dataset.version,
            runs_carried,
            runs_dropped,
        },
        CorrectionOutcome::Stale { current } => {
            set_status(StatusCode::CONFLICT);
            CorrectionResult::Stale {
                revision: current.revision,
                author: current.author,
                reason: current.reason,
                case: Box::new(current.case),
            }
        }
    })
}
