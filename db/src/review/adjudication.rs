//! Adjudication: the queue of items waiting for an adjudicator, with every
//! label, and the final label an adjudicator records. Who may decide which
//! item, when, and what a decision adopts are the engine's rules
//! ([`engine::review::ItemRecord::check_adjudication`],
//! [`engine::review::ItemRecord::adjudicated_label`]).

use engine::accounts::Permission;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::run::Task;
use engine::review::{check_reason, FinalSource, NotAdjudicable, ReviewKind, Viewer};

use super::corrections::{apply_seed_correction, seed_case_change, Adopting};
use super::labels::insert_history;
use super::{as_viewer, case_on, invalid, record_on, records, to_json, Submission};
use crate::events::Change;
use crate::revisions::{CorrectionOutcome, Rescore};
use crate::users::User;
use crate::{now, Db, DbError, Result};

/// Proof that an account may adjudicate: an admin, or an expert an admin
/// designated ([`crate::users::set_adjudicator`]). It opens the adjudication
/// queue, which shows every label of the items waiting there. A designated
/// expert never adjudicates an item assigned to them
/// ([`engine::review::ItemRecord::may_decide`]), and stays blind on their own
/// items until they submit, like any expert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjudicator(User);

impl Adjudicator {
    /// The account, if it may adjudicate.
    pub fn of(user: User) -> Option<Self> {
        user.allows(Permission::Adjudicate)
            .then_some(Adjudicator(user))
    }

    pub fn user(&self) -> &User {
        &self.0
    }

    fn viewer(&self) -> Viewer {
        as_viewer(&self.0)
    }
}

/// An item waiting for an adjudicator.
#[derive(Debug, Clone, PartialEq)]
pub struct AdjudicationEntry {
    pub id: i64,
    pub kind: ReviewKind,
    pub case_id: String,
    pub task: Option<Task>,
    pub target: Option<String>,
    pub submissions: Vec<Submission>,
    pub judge_label: Option<String>,
    /// For a seed dialogue: the case has been corrected since the item was
    /// made, so no expert's corrected case can be applied over it (the
    /// experts may agree and the item still wait here).
    pub case_changed: bool,
    /// For a seed dialogue: the case as the item shows it, which the
    /// experts' corrected cases change.
    pub case: Option<Case>,
}

/// What an adjudication did besides recording the final label.
#[derive(Debug, Clone, PartialEq)]
pub struct Adjudicated {
    /// The correction it applied (a seed dialogue adjudicated `correct`), in
    /// the same transaction: its revision and the new dataset version.
    pub correction: Option<CorrectionOutcome>,
}

/// The items of the dataset waiting for an adjudicator (every expert
/// submitted, they disagree), by id, with every label; for a designated
/// expert, without the items assigned to them
/// ([`engine::review::ItemRecord::waits_for`]).
pub async fn adjudication_queue(
    db: &Db,
    dataset_name: &str,
    adjudicator: &Adjudicator,
) -> Result<Vec<AdjudicationEntry>> {
    let items = records(db, dataset_name).await?;
    let viewer = adjudicator.viewer();
    let mut conn = db.pool().acquire().await?;
    let newest = crate::revisions::newest_version(&mut conn, dataset_name).await?;
    let mut queue = Vec::new();
    for item in items.iter().filter(|i| i.waits_for(&viewer)) {
        let (case, case_changed) = if item.kind == ReviewKind::SeedDialogue {
            let (shown, newer) =
                seed_case_change(&mut conn, db, dataset_name, item, newest.id).await?;
            (Some(shown), newer.is_some())
        } else {
            (None, false)
        };
        queue.push(AdjudicationEntry {
            id: item.id,
            kind: item.kind,
            case_id: item.case_id.clone(),
            task: item.task,
            target: item.target.clone(),
            submissions: item.submissions(),
            judge_label: item.judge_label.clone(),
            case_changed,
            case,
        });
    }
    Ok(queue)
}

/// Records the final label of an item whose experts disagreed (or revises an
/// earlier adjudication), with the reason, and keeps it in the history.
///
/// The label is checked as an expert's is. For a seed dialogue it is
/// `approve`, or `correct` to adopt the experts' corrected case (when they
/// proposed one, or the same one), or `correct:NAME` to adopt expert NAME's
/// ([`engine::review::ItemRecord::adjudicated_label`]); a correction is saved
/// in the same transaction as the final label (a case revision by the
/// adjudicator and a new dataset version), so either both are stored or
/// neither. Refused without a reason; for an item that is not waiting for
/// adjudication (not every expert has submitted, or they agreed); for a
/// designated expert, on an item assigned to them (forbidden); and for a
/// correction when the case has been corrected since the item was made
/// (nothing is applied over the newer revision: adjudicate `approve` and
/// correct the case on its page).
pub async fn adjudicate(
    db: &Db,
    id: i64,
    adjudicator: &Adjudicator,
    label: &str,
    reason: &str,
    rescore: &Rescore,
) -> Result<Adjudicated> {
    check_reason(reason).map_err(invalid)?;
    let mut tx = crate::begin_write(db).await?;
    let (row, item) = record_on(&mut tx, id).await?;
    item.check_adjudication(&adjudicator.viewer())
        .map_err(|refused| match refused {
            NotAdjudicable::OwnItem { .. } => DbError::Forbidden(refused.to_string()),
            NotAdjudicable::ExpertsAgree { .. } | NotAdjudicable::AwaitingExperts { .. } => {
                DbError::Conflict(refused.to_string())
            }
        })?;
    let case = case_on(&mut tx, db, item.dataset_id, &item.case_id).await?;
    let checked = item
        .adjudicated_label(case.as_ref(), label)
        .map_err(invalid)?;
    let saved = match &checked.proposal {
        None => None,
        Some(corrected) => {
            let why = item.adjudicated_correction_reason(reason);
            let applied = apply_seed_correction(
                &mut tx,
                db,
                Adopting {
                    dataset_name: &row.dataset_name,
                    item: &item,
                    corrected,
                    author: adjudicator.user(),
                    why: &why,
                },
                rescore,
            )
            .await?;
            match applied {
                Ok(saved) => Some(saved),
                Err(newer) => {
                    return Err(DbError::Conflict(format!(
                        "case {} has been corrected since this item was made (revision {}{}: {}); \
                         the experts' corrected case was made from the older one, so nothing was \
                         saved. Adjudicate approve, and correct the case on its page.",
                        item.case_id,
                        newer.revision,
                        newer
                            .author
                            .as_deref()
                            .map(|a| format!(" by {a}"))
                            .unwrap_or_default(),
                        newer.reason
                    )))
                }
            }
        }
    };
    let label = checked.label;
    let proposal = checked.proposal.as_ref().map(to_json).transpose()?;
    let at = now();
    sqlx::query(
        "UPDATE review_items SET final_label = $1, final_proposal = $2,
             final_source = $3, final_reason = $4, final_by = $5, final_at = $6
         WHERE id = $7",
    )
    .bind(&label)
    .bind(&proposal)
    .bind(FinalSource::Adjudicated.as_str())
    .bind(reason)
    .bind(adjudicator.user().id)
    .bind(&at)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    insert_history(
        &mut tx,
        id,
        adjudicator.user(),
        "adjudicate",
        &label,
        reason,
        proposal.as_deref(),
        &at,
    )
    .await?;
    tx.commit().await?;
    db.notify(Change::ReviewChanged { item_id: id }).await;
    let correction = match saved {
        Some(saved) => Some(saved.announce(db).await?),
        None => None,
    };
    Ok(Adjudicated { correction })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{
        correct_on_its_page, failing_check, first_items, fixture, pass, rescore, seed_item,
        versions,
    };
    use super::super::{
        assign, create_case_check_items, create_seed_items, dashboard, export, item_for_viewer,
        item_row, item_rows, submit, ItemStatus, Manager, Submitted,
    };
    use super::*;

    #[tokio::test]
    async fn a_third_expert_gives_fleiss_kappa_and_seed_corrections_are_adopted_by_name() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙", "丙"]).await;
        create_seed_items(&db, &dataset, &admin)
            .await
            .expect("items");
        let names: Vec<String> = ["甲", "乙", "丙"].map(String::from).to_vec();
        let first = item_rows(&db, &dataset.name).await.expect("items")[0].id;
        assert_eq!(assign(&db, first, &names).await.expect("assign"), 3);
        let view = item_for_viewer(&db, first, &experts[0])
            .await
            .expect("item");
        let case = view.case.expect("the seed case");
        let mut edited = case.clone();
        edited.consultations.underspecified[0]
            .content
            .push_str("请问怎么办？");
        let mut other = case.clone();
        other.consultations.underspecified[0]
            .content
            .push_str("麻烦您看看。");
        let json = |c: &Case| serde_json::to_string(c).expect("json");
        submit(
            &db,
            first,
            &experts[0],
            "correct",
            "",
            Some(&json(&edited)),
            None,
            rescore(),
        )
        .await
        .expect("correct");
        submit(
            &db,
            first,
            &experts[1],
            "correct",
            "",
            Some(&json(&other)),
            None,
            rescore(),
        )
        .await
        .expect("correct");
        submit(
            &db,
            first,
            &experts[2],
            "approve",
            "",
            None,
            None,
            rescore(),
        )
        .await
        .expect("approve");

        let adjudicator = Adjudicator::of(admin.clone()).expect("admin");
        let waiting = adjudication_queue(&db, &dataset.name, &adjudicator)
            .await
            .expect("queue");
        assert_eq!(waiting.len(), 1);
        assert_eq!(waiting[0].submissions.len(), 3);
        assert!(matches!(
            adjudicate(&db, first, &adjudicator, "correct", "取乙的版本", rescore()).await,
            Err(DbError::Invalid(message)) if message.contains("correct:NAME")
        ));
        adjudicate(
            &db,
            first,
            &adjudicator,
            "correct:乙",
            "取乙的版本",
            rescore(),
        )
        .await
        .expect("adjudicated");
        let done = item_for_viewer(&db, first, &admin).await.expect("item");
        let revealed = done.revealed.expect("revealed");
        assert_eq!(revealed.final_label.as_deref(), Some("correct"));
        assert_eq!(revealed.final_proposal, Some(other));

        let board = dashboard(&db, &dataset.name, &admin).await.expect("board");
        let seed_row = &board.rows[0];
        assert_eq!(seed_row.n_pairs, 1);
        // One unit, three raters: a kappa over fewer than two items says
        // nothing, so it is left empty (shown as "—"), not 0.
        assert_eq!(seed_row.fleiss_kappa, None);
        assert_eq!(board.disagreements, [first]);
        assert_eq!(board.items_final, 1);
        let expert_board = dashboard(&db, &dataset.name, &experts[0])
            .await
            .expect("board");
        assert!(expert_board.disagreements.is_empty());
        assert_eq!(Manager::of(experts[0].clone()), None);
        let manager = Manager::of(admin.clone()).expect("an admin manages review");
        let exported = export(&db, &manager).await.expect("export");
        assert_eq!(exported.len(), 36);
        assert_eq!(exported[0].history.len(), 4);
        assert_eq!(exported[0].final_by.as_deref(), Some("admin"));
    }

    #[tokio::test]
    async fn a_designated_expert_adjudicates_other_items_but_never_their_own() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙", "丙"]).await;
        create_case_check_items(&db, &dataset, &admin)
            .await
            .expect("items");
        let ids = first_items(&db, &dataset, 2).await;
        let (other, own) = (ids[0], ids[1]);
        assign(&db, other, &["甲".into(), "乙".into()])
            .await
            .expect("assign");
        assign(&db, own, &["甲".into(), "丙".into()])
            .await
            .expect("assign");
        assert_eq!(
            Adjudicator::of(experts[2].clone()),
            None,
            "not yet designated"
        );
        assert!(matches!(
            crate::users::set_adjudicator(&db, "admin", true).await,
            Err(DbError::Invalid(message)) if message.contains("only an expert")
        ));
        let designated = crate::users::set_adjudicator(&db, "丙", true)
            .await
            .expect("designate");
        assert!(designated.adjudicator);
        let reread = crate::users::by_name(&db, "丙").await.expect("read");
        assert_eq!(reread.as_ref(), Some(&designated), "the flag is stored");
        let adjudicator = Adjudicator::of(designated.clone()).expect("designated");
        assert_eq!(
            Manager::of(designated.clone()),
            None,
            "no export for experts"
        );

        // Blind on their own item until they submit, though 甲 has submitted.
        submit(&db, own, &experts[0], &pass(), "", None, None, rescore())
            .await
            .expect("submit");
        let blind = item_for_viewer(&db, own, &designated).await.expect("item");
        assert_eq!(blind.revealed, None);
        assert_eq!(blind.status, ItemStatus::Todo);
        // Another's item: they see every label, as an adjudicator.
        submit(&db, other, &experts[0], &pass(), "", None, None, rescore())
            .await
            .expect("submit");
        let seen = item_for_viewer(&db, other, &designated)
            .await
            .expect("item");
        assert_eq!(seen.revealed.map(|r| r.others.len()), Some(1));

        submit(
            &db,
            other,
            &experts[1],
            &failing_check(),
            "有手机号",
            None,
            None,
            rescore(),
        )
        .await
        .expect("submit");
        submit(
            &db,
            own,
            &designated,
            &failing_check(),
            "有手机号",
            None,
            None,
            rescore(),
        )
        .await
        .expect("submit");
        let waiting: Vec<i64> = adjudication_queue(&db, &dataset.name, &adjudicator)
            .await
            .expect("queue")
            .iter()
            .map(|e| e.id)
            .collect();
        assert_eq!(waiting, [other], "their own item is not in their queue");
        assert!(matches!(
            adjudicate(&db, own, &adjudicator, &pass(), "我看没问题", rescore()).await,
            Err(DbError::Forbidden(_))
        ));
        adjudicate(
            &db,
            other,
            &adjudicator,
            &failing_check(),
            "确有手机号",
            rescore(),
        )
        .await
        .expect("adjudicated by the designated expert");
        let admin_queue =
            adjudication_queue(&db, &dataset.name, &Adjudicator::of(admin).expect("admin"))
                .await
                .expect("queue");
        assert_eq!(admin_queue.iter().map(|e| e.id).collect::<Vec<_>>(), [own]);

        let withdrawn = crate::users::set_adjudicator(&db, "丙", false)
            .await
            .expect("withdraw");
        assert_eq!(Adjudicator::of(withdrawn), None);
    }

    #[tokio::test]
    async fn a_seed_correction_over_a_newer_revision_stores_nothing() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        let (id, mine) = seed_item(&db, &dataset, &admin, "（甲的补充）").await;
        let mut theirs = mine.clone();
        theirs.consultations.underspecified[0]
            .content
            .push_str("（乙的补充）");
        let json = |c: &Case| serde_json::to_string(c).expect("json");
        submit(
            &db,
            id,
            &experts[0],
            "correct",
            "",
            Some(&json(&mine)),
            None,
            rescore(),
        )
        .await
        .expect("submit");
        submit(
            &db,
            id,
            &experts[1],
            "correct",
            "",
            Some(&json(&theirs)),
            None,
            rescore(),
        )
        .await
        .expect("submit");
        // Meanwhile the case is corrected on its page.
        correct_on_its_page(&db, &dataset, &mine.case_id, &admin).await;
        assert_eq!(versions(&db).await, 2);

        let adjudicator = Adjudicator::of(admin.clone()).expect("admin");
        let waiting = adjudication_queue(&db, &dataset.name, &adjudicator)
            .await
            .expect("queue");
        assert!(waiting[0].case_changed);
        assert!(matches!(
            adjudicate(&db, id, &adjudicator, "correct:甲", "取甲的版本", rescore()).await,
            Err(DbError::Conflict(message)) if message.contains("revision 2 by admin")
        ));
        assert_eq!(versions(&db).await, 2, "no dataset version was made");
        let row = item_row(&db, id).await.expect("row");
        assert_eq!(row.final_label, None, "nor the final label stored");
        let adjudications: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM review_label_history WHERE action = 'adjudicate'",
        )
        .fetch_one(db.pool())
        .await
        .expect("count");
        assert_eq!(adjudications, 0);
        adjudicate(
            &db,
            id,
            &adjudicator,
            "approve",
            "改在案例页修改",
            rescore(),
        )
        .await
        .expect("approve");

        // Two experts agreeing on a correction made from the older case: the
        // item waits for an adjudicator instead.
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        let (id, mine) = seed_item(&db, &dataset, &admin, "（补充）").await;
        correct_on_its_page(&db, &dataset, &mine.case_id, &admin).await;
        submit(
            &db,
            id,
            &experts[0],
            "correct",
            "",
            Some(&json(&mine)),
            None,
            rescore(),
        )
        .await
        .expect("submit");
        let outcome = submit(
            &db,
            id,
            &experts[1],
            "correct",
            "",
            Some(&json(&mine)),
            None,
            rescore(),
        )
        .await
        .expect("submit");
        assert_eq!(outcome, Submitted::default());
        assert_eq!(versions(&db).await, 2);
        let waiting =
            adjudication_queue(&db, &dataset.name, &Adjudicator::of(admin).expect("admin"))
                .await
                .expect("queue");
        assert_eq!(waiting.len(), 1);
        assert!(waiting[0].case_changed);
    }
}
