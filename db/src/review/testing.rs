//! Fixtures shared by the review storage tests.

use engine::accounts::Role;
use engine::lexpilot::dataset::{parse_dataset, Case};
use engine::review::{CaseCheck, CheckOutcome};

use super::{assign, case_of, create_seed_items, item_row, item_rows};
use crate::datasets::{import, DatasetInfo, ImportSource};
use crate::users::User;
use crate::Db;

/// A database with 36 synthetic cases (each a seed), an admin and the
/// experts named.
pub(super) async fn fixture(experts: &[&str]) -> (Db, DatasetInfo, User, Vec<User>) {
    let db = Db::open_for_test(None).await.expect("database");
    let cases = parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).expect("cases");
    let src = ImportSource {
        name: "synthetic",
        source: "test",
        synthetic: true,
    };
    let dataset = import(&db, src, &cases)
        .await
        .expect("import")
        .dataset()
        .clone();
    let admin = crate::users::create(&db, "admin", Role::Admin, "password-1")
        .await
        .expect("admin");
    let mut users = Vec::new();
    for name in experts {
        users.push(
            crate::users::create(&db, name, Role::Expert, "password-1")
                .await
                .expect("expert"),
        );
    }
    (db, dataset, admin, users)
}

pub(super) fn pass() -> String {
    serde_json::to_string(&CaseCheck::all_pass()).expect("json")
}

pub(super) fn failing_check() -> String {
    let mut check = CaseCheck::all_pass();
    check.anonymization.outcome = CheckOutcome::Fail;
    check.anonymization.comment = "第3轮有手机号".into();
    serde_json::to_string(&check).expect("json")
}

/// Case-check item ids of `dataset`, the first `n`.
pub(super) async fn first_items(db: &Db, dataset: &DatasetInfo, n: usize) -> Vec<i64> {
    item_rows(db, &dataset.name).await.expect("items")[..n]
        .iter()
        .map(|i| i.id)
        .collect()
}

/// The seed item of the first seed case, assigned to the two experts, and
/// its case with `extra` appended to the first underspecified turn.
pub(super) async fn seed_item(
    db: &Db,
    dataset: &DatasetInfo,
    admin: &User,
    extra: &str,
) -> (i64, Case) {
    create_seed_items(db, dataset, admin).await.expect("items");
    let id = item_rows(db, &dataset.name).await.expect("items")[0].id;
    assign(db, id, &["甲".into(), "乙".into()])
        .await
        .expect("assign");
    let case = case_of(
        db,
        dataset.id,
        &item_row(db, id).await.expect("row").case_id,
    )
    .await
    .expect("case")
    .expect("stored");
    let mut edited = case;
    edited.consultations.underspecified[0]
        .content
        .push_str(extra);
    (id, edited)
}

/// An admin corrects case `case_id` directly (revision 2).
pub(super) async fn correct_on_its_page(
    db: &Db,
    dataset: &DatasetInfo,
    case_id: &str,
    admin: &User,
) {
    let mut direct = case_of(db, dataset.id, case_id)
        .await
        .expect("case")
        .expect("stored");
    direct.key_facts[0].text.push_str("（管理员核对）");
    crate::revisions::correct_case(db, &dataset.name, &direct, 1, admin, "补充要点", rescore())
        .await
        .expect("direct correction");
}

pub(super) async fn versions(db: &Db) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM datasets")
        .fetch_one(db.pool())
        .await
        .expect("count")
}

/// Re-scoring of stored runs on a corrected version, as the runtime does it
/// for LexPilot.
pub(crate) fn rescore() -> &'static crate::revisions::Rescore {
    &|items, cases| {
        let run = engine::lexpilot::run::parse_run(items, cases).ok()?;
        serde_json::to_string(&engine::lexpilot::score::score_run(&run, cases)).ok()
    }
}
