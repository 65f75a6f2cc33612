//! Experts' labels: a submission checked by [`engine::review::ItemRecord::check_label`]
//! and stored with its blind label ([`engine::review::ItemRecord::submits_blind`]),
//! the agreement it may complete ([`engine::review::ItemRecord::blind_agreement`])
//! with the seed correction that agreement applies, and the label history
//! every submission and adjudication is kept in.

use engine::review::{check_comment, FinalSource};
use sqlx::{Any, Transaction};

use super::corrections::{apply_seed_correction, Adopting};
use super::{case_of, invalid, not_found, record, record_on, to_json};
use crate::events::Change;
use crate::revisions::{CorrectionOutcome, Rescore};
use crate::users::User;
use crate::{now, Db, DbError, Result};

/// The most time one submission records: a page left open overnight is not
/// a day's work.
pub const MAX_SECONDS: u32 = 4 * 3600;

/// The longest "unclear" comment, in characters.
pub const MAX_UNCLEAR_CHARS: usize = 2000;

/// Flags item `id` as unclear for `expert` with `comment` (why), without
/// labelling it; an empty `comment` clears the flag. Refused for an item
/// not assigned to the expert (not found) or one they have submitted (the
/// flag marks an item they cannot label yet).
pub async fn flag_unclear(db: &Db, id: i64, expert: &User, comment: &str) -> Result<()> {
    let comment = comment.trim();
    if comment.chars().count() > MAX_UNCLEAR_CHARS {
        return Err(DbError::Invalid(format!(
            "unclear: at most {MAX_UNCLEAR_CHARS} characters"
        )));
    }
    let (flag, at) = match comment {
        "" => (None, None),
        c => (Some(c), Some(now())),
    };
    let done = sqlx::query(
        "UPDATE review_assignments SET unclear = $1, unclear_at = $2
         WHERE item_id = $3 AND expert_id = $4 AND submitted_at IS NULL",
    )
    .bind(flag)
    .bind(at)
    .bind(id)
    .bind(expert.id)
    .execute(db.pool())
    .await?;
    if done.rows_affected() == 0 {
        let (_, item) = record(db, id).await?;
        return Err(match item.assignment(expert.id) {
            None => not_found(id),
            Some(_) => DbError::Conflict(format!(
                "review item {id} is labelled; revise the label instead of flagging it"
            )),
        });
    }
    db.notify(Change::ReviewChanged { item_id: id }).await;
    Ok(())
}

/// What a submission did besides recording the label.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Submitted {
    /// Every expert has submitted and they agree: the item is final.
    pub final_label: Option<String>,
    /// The correction the agreement applied (every expert proposed the same
    /// corrected seed case), in the same transaction.
    pub correction: Option<CorrectionOutcome>,
}

/// Records `expert`'s label (and comment; and for a seed correction the
/// corrected case, JSON) for item `id`, replacing an earlier submission, and
/// keeps it in the history. Refused for an item not assigned to the expert
/// (not found), a final item, or a label outside the item's label space
/// ([`engine::review::checked_label`]; a seed correction is checked with
/// [`engine::review::apply_correction`] and must change something).
///
/// When every expert has submitted and their blind labels agree, the item
/// becomes final. If they agree on a corrected seed case, the correction is
/// saved in the same transaction (a case revision by the expert who
/// submitted last and a new dataset version, [`crate::revisions`]), unless
/// the case has been corrected since the item was made: then nothing is
/// applied over the newer revision and the item waits for an adjudicator.
///
/// `seconds` is the active time the page measured for this submission
/// (capped at [`MAX_SECONDS`]); it is kept in the history and added to the
/// expert's time on the item. A submission clears the expert's "unclear"
/// flag: the item is no longer open for them.
#[expect(clippy::too_many_arguments, reason = "one column each")]
pub async fn submit(
    db: &Db,
    id: i64,
    expert: &User,
    label: &str,
    comment: &str,
    proposal: Option<&str>,
    seconds: Option<u32>,
    rescore: &Rescore,
) -> Result<Submitted> {
    let seconds = seconds.map(|s| s.min(MAX_SECONDS));
    let (row, item) = record(db, id).await?;
    if item.assignment(expert.id).is_none() {
        return Err(not_found(id));
    }
    let case = case_of(db, item.dataset_id, &item.case_id).await?;
    let checked = item
        .check_label(case.as_ref(), label, proposal)
        .map_err(invalid)?;
    check_comment(comment, "comment").map_err(invalid)?;
    let label = checked.label;
    let proposal = checked.proposal.as_ref().map(to_json).transpose()?;

    let mut tx = crate::begin_write(db).await?;
    let at = now();
    let blind = record_on(&mut tx, id).await?.1.submits_blind(expert.id);
    let done = sqlx::query(
        "UPDATE review_assignments
         SET label = $1, comment = $2, proposal = $3, submitted_at = $4, draft = NULL, draft_at = NULL,
             seconds = CASE WHEN $5 IS NULL THEN seconds ELSE COALESCE(seconds, 0) + $6 END,
             unclear = NULL, unclear_at = NULL,
             blind_label = CASE WHEN $7 THEN $8 ELSE blind_label END,
             blind_proposal = CASE WHEN $9 THEN $10 ELSE blind_proposal END
         WHERE item_id = $11 AND expert_id = $12
           AND (SELECT final_label FROM review_items WHERE id = $13) IS NULL",
    )
    .bind(&label)
    .bind(comment)
    .bind(&proposal)
    .bind(&at)
    .bind(seconds.map(i64::from))
    .bind(seconds.map(i64::from))
    .bind(blind)
    .bind(&label)
    .bind(blind)
    .bind(&proposal)
    .bind(id)
    .bind(expert.id)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 0 {
        return Err(DbError::Conflict(format!(
            "review item {id} is final; its labels can no longer change"
        )));
    }
    insert_history(
        &mut tx,
        id,
        expert,
        "submit",
        &label,
        comment,
        proposal.as_deref(),
        &at,
    )
    .await?;
    if seconds.is_some() {
        sqlx::query(
            "UPDATE review_label_history SET seconds = $1
             WHERE id = (SELECT MAX(id) FROM review_label_history WHERE item_id = $2)",
        )
        .bind(seconds.map(i64::from))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    }
    let (_, submitted) = record_on(&mut tx, id).await?;
    let mut outcome = Submitted::default();
    let mut saved = None;
    if let Some(agreement) = submitted.blind_agreement() {
        let applicable = match &agreement.proposal {
            None => true,
            Some(corrected) => {
                let why = submitted.agreed_correction_reason();
                let applied = apply_seed_correction(
                    &mut tx,
                    db,
                    Adopting {
                        dataset_name: &row.dataset_name,
                        item: &submitted,
                        corrected,
                        author: expert,
                        why: &why,
                    },
                    rescore,
                )
                .await?;
                match applied {
                    Ok(s) => {
                        saved = Some(s);
                        true
                    }
                    Err(_changed) => false,
                }
            }
        };
        if applicable {
            sqlx::query(
                "UPDATE review_items SET final_label = $1, final_proposal = $2,
                     final_source = $3, final_reason = NULL, final_by = NULL, final_at = $4
                 WHERE id = $5",
            )
            .bind(&agreement.label)
            .bind(agreement.proposal.as_ref().map(to_json).transpose()?)
            .bind(FinalSource::Agreed.as_str())
            .bind(&at)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            outcome.final_label = Some(agreement.label);
        }
    }
    tx.commit().await?;
    db.notify(Change::ReviewChanged { item_id: id }).await;
    if let Some(saved) = saved {
        outcome.correction = Some(saved.announce(db).await?);
    }
    Ok(outcome)
}

/// Keeps one submission or adjudication in the label history, on `tx`.
#[expect(clippy::too_many_arguments, reason = "one column each")]
pub(super) async fn insert_history(
    tx: &mut Transaction<'_, Any>,
    item_id: i64,
    author: &User,
    action: &str,
    label: &str,
    comment: &str,
    proposal: Option<&str>,
    at: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO review_label_history
             (item_id, author_id, author, action, label, comment, proposal, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(item_id)
    .bind(author.id)
    .bind(&author.name)
    .bind(action)
    .bind(label)
    .bind(comment)
    .bind(proposal)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{fixture, pass, rescore, seed_item};
    use super::super::{
        adjudicate, auto_assign, case_of, create_case_check_items, item_for_viewer, queue,
        Adjudicator, ItemStatus,
    };
    use super::*;

    #[tokio::test]
    async fn labels_stay_hidden_until_the_viewer_submits_and_final_items_are_frozen() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        create_case_check_items(&db, &dataset, &admin)
            .await
            .expect("items");
        auto_assign(&db, &dataset.name, None).await.expect("assign");
        let id = queue(&db, &dataset.name, &experts[0]).await.expect("queue")[0].id;
        submit(
            &db,
            id,
            &experts[0],
            &pass(),
            "都没问题",
            None,
            None,
            rescore(),
        )
        .await
        .expect("submit");
        let before = item_for_viewer(&db, id, &experts[1]).await.expect("item");
        assert_eq!(before.revealed, None);
        assert_eq!(before.status, ItemStatus::Todo);
        assert!(before.case.is_some());
        let first = item_for_viewer(&db, id, &experts[0]).await.expect("item");
        assert_eq!(first.status, ItemStatus::Submitted);
        assert!(first.revealed.is_some_and(|r| r.others.is_empty()));
        let as_admin = item_for_viewer(&db, id, &admin).await.expect("item");
        assert_eq!(
            as_admin.revealed.map(|r| r.others.len()),
            Some(1),
            "adjudicators see every label"
        );

        submit(&db, id, &experts[1], &pass(), "", None, None, rescore())
            .await
            .expect("submit");
        let after = item_for_viewer(&db, id, &experts[1]).await.expect("item");
        assert_eq!(after.status, ItemStatus::Final);
        let revealed = after.revealed.expect("revealed");
        assert_eq!(revealed.others[0].comment, "都没问题");
        assert_eq!(revealed.final_source, Some(FinalSource::Agreed));
        assert!(matches!(
            submit(&db, id, &experts[1], &pass(), "", None, None, rescore()).await,
            Err(DbError::Conflict(_))
        ));
        let adjudicator = Adjudicator::of(admin).expect("an admin adjudicates");
        assert!(matches!(
            adjudicate(&db, id, &adjudicator, &pass(), "重新判断", rescore()).await,
            Err(DbError::Conflict(message)) if message.contains("nothing to adjudicate")
        ));
        assert_eq!(Adjudicator::of(experts[0].clone()), None);
    }

    #[tokio::test]
    async fn two_experts_agreeing_on_a_seed_correction_save_it_with_the_final_label() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        let (id, edited) = seed_item(&db, &dataset, &admin, "（补充：合同于2023年签订）").await;
        let json = serde_json::to_string(&edited).expect("json");
        let first = submit(
            &db,
            id,
            &experts[0],
            "correct",
            "补充签订时间",
            Some(&json),
            None,
            rescore(),
        )
        .await
        .expect("submit");
        assert_eq!(first, Submitted::default());
        let second = submit(
            &db,
            id,
            &experts[1],
            "correct",
            "",
            Some(&json),
            None,
            rescore(),
        )
        .await
        .expect("submit");
        assert_eq!(second.final_label.as_deref(), Some("correct"));
        let Some(CorrectionOutcome::Saved {
            revision,
            dataset: v2,
            ..
        }) = second.correction
        else {
            panic!("the agreed correction is saved: {second:?}");
        };
        assert_eq!((revision, v2.version), (2, 2));
        let stored = case_of(&db, v2.id, &edited.case_id).await.expect("case");
        assert_eq!(stored.as_ref(), Some(&edited));
        let history = crate::revisions::history(&db, &dataset.name, &edited.case_id)
            .await
            .expect("history");
        assert_eq!(history[1].author.as_deref(), Some("乙"));
        assert!(
            history[1].reason.contains("agreed by 甲, 乙"),
            "{}",
            history[1].reason
        );
        assert!(history[1].reason.contains("补充签订时间"));

        // A correction that changes nothing is refused at submission.
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        let (id, _) = seed_item(&db, &dataset, &admin, "").await;
        let unchanged = case_of(&db, dataset.id, &edited.case_id)
            .await
            .expect("case")
            .expect("stored");
        assert!(matches!(
            submit(&db, id, &experts[0], "correct", "", Some(&serde_json::to_string(&unchanged).expect("json")), None, rescore()).await,
            Err(DbError::Invalid(message)) if message.contains("changes nothing")
        ));
    }

    #[tokio::test]
    async fn a_label_records_its_time_and_clears_the_unclear_flag() {
        let (db, dataset, admin, experts) = fixture(&["甲", "乙"]).await;
        create_case_check_items(&db, &dataset, &admin)
            .await
            .expect("items");
        auto_assign(&db, &dataset.name, None).await.expect("assign");
        let id = queue(&db, &dataset.name, &experts[0]).await.expect("queue")[0].id;

        flag_unclear(&db, id, &experts[0], "  第三轮的金额看不清  ")
            .await
            .expect("flag");
        let entry = |q: Vec<engine::review::QueueEntry>| q.into_iter().find(|e| e.id == id);
        let flagged = entry(queue(&db, &dataset.name, &experts[0]).await.expect("queue"));
        assert!(flagged.is_some_and(|e| e.unclear && e.status == ItemStatus::Todo));
        let other = entry(queue(&db, &dataset.name, &experts[1]).await.expect("queue"));
        assert!(
            other.is_some_and(|e| !e.unclear),
            "the flag is the expert's own"
        );
        assert!(matches!(
            flag_unclear(&db, id, &admin, "不是我的条目").await,
            Err(DbError::NotFound(_))
        ));
        let long = "长".repeat(MAX_UNCLEAR_CHARS + 1);
        assert!(matches!(
            flag_unclear(&db, id, &experts[0], &long).await,
            Err(DbError::Invalid(message)) if message.contains("unclear")
        ));

        // Two submissions: their times add up; one left open all night is capped.
        submit(&db, id, &experts[0], &pass(), "", None, Some(40), rescore())
            .await
            .expect("submit");
        submit(
            &db,
            id,
            &experts[0],
            &pass(),
            "复核",
            None,
            Some(90_000),
            rescore(),
        )
        .await
        .expect("revise");
        let (_, item) = super::super::record(&db, id).await.expect("record");
        let mine = item.assignment(experts[0].id).expect("assigned");
        assert_eq!(mine.seconds, Some(40 + MAX_SECONDS));
        assert_eq!(mine.unclear, None, "labelling clears the flag");
        assert!(matches!(
            flag_unclear(&db, id, &experts[0], "again").await,
            Err(DbError::Conflict(_))
        ));
        // A label without a time (the API, an old page) adds nothing.
        submit(&db, id, &experts[1], &pass(), "", None, None, rescore())
            .await
            .expect("submit");
        let (_, item) = super::super::record(&db, id).await.expect("record");
        assert_eq!(
            item.assignment(experts[1].id).expect("assigned").seconds,
            None
        );

        let manager = super::super::Manager::of(admin).expect("an admin manages");
        let exported = super::super::export(&db, &manager).await.expect("export");
        let line = exported.iter().find(|i| i.item_id == id).expect("exported");
        let times: Vec<(String, Option<u32>)> = line
            .labels
            .iter()
            .map(|l| (l.expert.clone(), l.seconds))
            .collect();
        assert_eq!(
            times,
            [
                ("乙".to_owned(), None),
                ("甲".to_owned(), Some(40 + MAX_SECONDS))
            ]
        );
        let history: Vec<Option<u32>> = line.history.iter().map(|h| h.seconds).collect();
        assert_eq!(history, [Some(40), Some(MAX_SECONDS), None]);
        let csv = engine::review::export_csv(&exported);
        let header: Vec<&str> = csv.lines().next().expect("header").split(',').collect();
        assert_eq!(header[header.len() - 2..], ["seconds", "unclear"]);
        assert!(csv
            .lines()
            .any(|l| l.starts_with(&format!("{id},"))
                && l.contains(&format!(",{},", 40 + MAX_SECONDS))));
    }
}
