//! Expert review over HTTP, on the demo dataset and its stored runs: the
//! review server functions called as the browser calls them (same-origin
//! url-encoded posts with the session cookie) and the export endpoint.
//! Blindness before submission, role checks, a full round from creation to
//! adjudication with the dashboard checked against `engine::agreement`,
//! refused labels leaving nothing behind, drafts, and the judge sample.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use axum::http::StatusCode;
use common::{enc, Team, TestApp, TestResponse};
use engine::accounts::Role;
use engine::agreement::{agreement_report, Annotation};
use engine::review::{CaseCheck, CheckResult};
use leptos::server_fn::ServerFn;
use serde_json::Value;

use app::server_fns::review::{
    Adjudicate, AdjudicationQueue, AssignReview, AssignReviews, CreateReviewItems, GetReviewItem,
    LoadReviewDashboard, MyQueue, ReassignReviews, ReviewItems, SaveReviewDraft, SubmitReview,
};

const PASSWORD: &str = "a-long-password";

/// Calls server function `F` with a url-encoded body, as a form or the
/// hydrated page does. Keys go as they are, so that a list can be sent as
/// `experts[0]=…&experts[1]=…`.
async fn call<F: ServerFn>(
    app: &TestApp,
    cookie: Option<&str>,
    pairs: &[(&str, &str)],
) -> TestResponse {
    app.call::<F>(cookie, pairs).await
}

/// The JSON of a call that must succeed.
async fn ok<F: ServerFn>(app: &TestApp, cookie: &str, pairs: &[(&str, &str)]) -> Value {
    let res = call::<F>(app, Some(cookie), pairs).await;
    assert_eq!(res.status, StatusCode::OK, "{}: {}", F::PATH, res.body);
    if res.body.is_empty() {
        Value::Null
    } else {
        res.json()
    }
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(app.db.pool())
        .await
        .expect("count")
}

/// What a refused write must leave unchanged: history, submitted labels,
/// final labels, drafts.
async fn label_state(app: &TestApp) -> [i64; 4] {
    [
        count(app, "SELECT COUNT(*) FROM review_label_history").await,
        count(
            app,
            "SELECT COUNT(*) FROM review_assignments WHERE submitted_at IS NOT NULL",
        )
        .await,
        count(
            app,
            "SELECT COUNT(*) FROM review_items WHERE final_label IS NOT NULL",
        )
        .await,
        count(
            app,
            "SELECT COUNT(*) FROM review_assignments WHERE draft IS NOT NULL",
        )
        .await,
    ]
}

async fn create(r: &Team, kind: &str, extra: &[(&str, &str)]) -> Value {
    let mut pairs = vec![("kind", kind)];
    pairs.extend_from_slice(extra);
    ok::<CreateReviewItems>(&r.app, &r.admin, &pairs).await
}

/// Creates a small LCA judge sample (2 per model, 6 in all) and assigns it.
async fn lca_sample(r: &Team) -> Vec<i64> {
    let created = create(
        r,
        "judge_verdict",
        &[
            ("task", "lca"),
            ("per_model", "2"),
            ("cap", "6"),
            ("seed", "11"),
        ],
    )
    .await;
    assert_eq!(created["created"], 6, "{created}");
    ok::<AssignReviews>(&r.app, &r.admin, &[]).await;
    sqlx::query_scalar("SELECT id FROM review_items WHERE task = 'lca' ORDER BY id")
        .fetch_all(r.app.db.pool())
        .await
        .expect("ids")
}

async fn ids(app: &TestApp, kind: &str) -> Vec<i64> {
    sqlx::query_scalar("SELECT id FROM review_items WHERE kind = $1 ORDER BY id")
        .bind(kind)
        .fetch_all(app.db.pool())
        .await
        .expect("ids")
}

async fn judge_label(app: &TestApp, id: i64) -> String {
    sqlx::query_scalar("SELECT judge_label FROM review_items WHERE id = $1")
        .bind(id)
        .fetch_one(app.db.pool())
        .await
        .expect("judge label")
}

async fn submit(
    r: &Team,
    cookie: &str,
    id: i64,
    label: &str,
    comment: &str,
) -> (StatusCode, Value, String) {
    let res = call::<SubmitReview>(
        &r.app,
        Some(cookie),
        &[
            ("id", &id.to_string()),
            ("label", label),
            ("comment", comment),
        ],
    )
    .await;
    let json = serde_json::from_str(&res.body).unwrap_or(Value::Null);
    (res.status, json, res.body)
}

async fn item(r: &Team, cookie: &str, id: i64) -> TestResponse {
    call::<GetReviewItem>(&r.app, Some(cookie), &[("id", &id.to_string())]).await
}

fn check_json(check: &CaseCheck) -> String {
    serde_json::to_string(check).expect("json")
}

#[tokio::test]
async fn an_expert_sees_no_other_label_and_no_judge_label_before_submitting() {
    let r = Team::demo().await;
    let items = lca_sample(&r).await;
    let id = items[0];
    let judge = judge_label(&r.app, id).await;
    let other = if judge == "ask" { "predict" } else { "ask" };

    // Before anyone submits: nothing revealed.
    let first = item(&r, &r.expert_a, id).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    let first = first.json();
    assert!(first["revealed"].is_null());
    assert_eq!(first["labels"], serde_json::json!(["predict", "ask"]));
    assert!(
        first["input"]["response"].is_string(),
        "the model's reply is shown"
    );
    assert!(first["case"]["claims"].is_array(), "the case is shown");

    let (status, after, body) = submit(&r, &r.expert_a, id, other, "A-SECRET-COMMENT").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(after["submitted"], true);
    assert_eq!(after["revealed"]["judge_label"], judge.as_str());
    assert_eq!(after["revealed"]["others"], serde_json::json!([]));

    // B has not submitted: no route shows A's label or the judge's.
    let seen = item(&r, &r.expert_b, id).await;
    assert_eq!(seen.status, StatusCode::OK);
    assert!(seen.json()["revealed"].is_null(), "{}", seen.body);
    assert!(seen.json()["my_label"].is_null());
    assert!(!seen.body.contains("A-SECRET-COMMENT"));
    assert!(!seen.body.contains("judge_label\":\""));
    assert_eq!(seen.json()["status"], "todo");

    let queue = call::<MyQueue>(&r.app, Some(&r.expert_b), &[]).await;
    assert_eq!(queue.status, StatusCode::OK);
    assert!(!queue.body.contains("A-SECRET-COMMENT"));
    let queue = queue.json();
    assert_eq!(queue["total"], 6);
    assert_eq!(queue["done_count"], 0);
    assert!(queue["todo"]
        .as_array()
        .is_some_and(|todo| todo.iter().all(|i| i["status"] == "todo")));

    let board = call::<LoadReviewDashboard>(&r.app, Some(&r.expert_b), &[]).await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.body);
    let board = board.json();
    assert_eq!(
        board["rows"],
        serde_json::json!([]),
        "no figure over unseen labels"
    );
    assert_eq!(board["disagreements"], serde_json::json!([]));
    assert!(board["progress"].as_array().is_some_and(|p| p
        .iter()
        .any(|e| e["expert"] == "expert-a" && e["done"] == 1)));

    for format in ["jsonl", "csv"] {
        let export = r
            .app
            .get_with_cookie(
                &format!("/api/review/export?format={format}"),
                Some(&r.expert_b),
            )
            .await;
        assert_eq!(export.status, StatusCode::FORBIDDEN);
        assert!(!export.body.contains("A-SECRET-COMMENT"));
    }

    // An expert not assigned gets a 404 like that of an item that does not exist.
    r.app.user("expert-c", Role::Expert, PASSWORD).await;
    let c = r.app.sign_in("expert-c", PASSWORD).await;
    let hidden = item(&r, &c, id).await;
    let missing = item(&r, &c, 999_999).await;
    assert_eq!(hidden.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(
        hidden.body.replace(&id.to_string(), "N"),
        missing.body.replace("999999", "N")
    );
    let (status, _, _) = submit(&r, &c, id, "ask", "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Once B submits, B sees A's label and comment and the judge's label.
    let (status, after, body) = submit(&r, &r.expert_b, id, other, "B agrees").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let revealed = &after["revealed"];
    assert_eq!(revealed["judge_label"], judge.as_str());
    assert_eq!(
        revealed["others"],
        serde_json::json!([["expert-a", other, "A-SECRET-COMMENT"]])
    );
    assert_eq!(revealed["final_label"], other);
    assert_eq!(revealed["final_source"], "agreed");
    assert_eq!(after["status"], "final");

    let board = ok::<LoadReviewDashboard>(&r.app, &r.expert_b, &[]).await;
    assert_eq!(board["rows"][0]["n_items"], 1);
    assert_eq!(board["rows"][0]["overruled"], 1);
}

#[tokio::test]
async fn revising_to_match_after_the_reveal_goes_to_adjudication() {
    let r = Team::demo().await;
    let items = lca_sample(&r).await;
    let (id, blind_revision) = (items[0], items[1]);

    // A and B disagree blind; B sees A's label in the reply, then revises to it.
    submit(&r, &r.expert_a, id, "ask", "").await;
    let (status, after, body) = submit(&r, &r.expert_b, id, "predict", "").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        after["revealed"]["others"][0][1], "ask",
        "A's label is revealed to B"
    );
    let (status, after, body) = submit(&r, &r.expert_b, id, "ask", "changed my mind").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(after["status"], "adjudication", "{after}");
    assert!(after["revealed"]["final_label"].is_null());
    let final_label: Option<String> =
        sqlx::query_scalar("SELECT final_label FROM review_items WHERE id = $1")
            .bind(id)
            .fetch_one(r.app.db.pool())
            .await
            .expect("item");
    assert_eq!(
        final_label, None,
        "a revision after the reveal never makes an item agreed"
    );
    let queue = ok::<AdjudicationQueue>(&r.app, &r.admin, &[]).await;
    let waiting = queue
        .as_array()
        .and_then(|q| q.iter().find(|e| e["id"] == id))
        .cloned()
        .expect("the item waits for an adjudicator");
    assert_eq!(
        waiting["revised"],
        serde_json::json!([["expert-b", "predict"]]),
        "the adjudicator sees B's blind label"
    );
    // The agreement figures count the blind labels: one pair, disagreeing.
    let board = ok::<LoadReviewDashboard>(&r.app, &r.admin, &[]).await;
    let lca = board["rows"]
        .as_array()
        .and_then(|rows| {
            rows.iter()
                .find(|row| row["task"] == "lca" && row["class"].is_null())
        })
        .cloned()
        .expect("an LCA row");
    assert_eq!(lca["n_pairs"], 1, "{lca}");
    assert_eq!(lca["human_agreement"], 0.0, "{lca}");

    // A revision while nobody else has submitted is still blind: A changes
    // their mind before B labels, B then agrees, and the item is agreed.
    submit(&r, &r.expert_a, blind_revision, "ask", "").await;
    submit(&r, &r.expert_a, blind_revision, "predict", "").await;
    let (_, after, body) = submit(&r, &r.expert_b, blind_revision, "predict", "").await;
    assert_eq!(after["status"], "final", "{body}");
    assert_eq!(after["revealed"]["final_source"], "agreed");
}

#[tokio::test]
async fn the_drilldown_keeps_back_judge_labels_under_review_from_all_but_admins() {
    use app::server_fns::drilldown::GetCellItems;

    let r = Team::demo().await;
    let items = lca_sample(&r).await;
    let (model, run, case_id, target): (String, i64, String, String) =
        sqlx::query_as("SELECT model, run_number, case_id, target FROM review_items WHERE id = $1")
            .bind(items[0])
            .fetch_one(r.app.db.pool())
            .await
            .expect("item");
    let open_of_model: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM review_items WHERE model = $1 AND task = 'lca'")
            .bind(&model)
            .fetch_one(r.app.db.pool())
            .await
            .expect("count");
    let pairs = [("model", model.as_str()), ("task", "lca")];
    // The cell of the item: (label, outcome status) for its run and consultation.
    let cell_of = |drill: &Value| {
        let column = drill["drill"]["runs"]
            .as_array()
            .and_then(|runs| runs.iter().position(|t| t["run"] == run))
            .expect("a column for the run");
        let case = drill["drill"]["cases"]
            .as_array()
            .and_then(|cases| cases.iter().find(|c| c["case_id"] == case_id.as_str()))
            .expect("the case");
        let row = case["items"]["consultations"]
            .as_array()
            .and_then(|rows| rows.iter().find(|row| row["gold"] == target.as_str()))
            .expect("the consultation");
        let cell = &row["runs"][column];
        (cell["label"].clone(), cell["outcome"]["status"].clone())
    };
    let hidden_in = |drill: &Value| -> u64 {
        drill["drill"]["runs"]
            .as_array()
            .map(|runs| runs.iter().filter_map(|t| t["hidden"].as_u64()).sum())
            .unwrap_or_default()
    };

    // Every page of the cell's cases, in one drill.
    async fn every_page(r: &Team, viewer: Option<&str>, pairs: &[(&str, &str)]) -> Value {
        let res = call::<GetCellItems>(&r.app, viewer, pairs).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        let mut drill = res.json();
        let (total, per_page) = (
            drill["cases_page"]["total"].as_u64().expect("total"),
            drill["cases_page"]["per_page"].as_u64().expect("per page"),
        );
        for page in 2..=total.div_ceil(per_page) {
            let mut paged = pairs.to_vec();
            let n = page.to_string();
            paged.push(("page", &n));
            let next = call::<GetCellItems>(&r.app, viewer, &paged).await.json();
            assert_eq!(next["cases_page"]["page"], page);
            let cases = next["drill"]["cases"].as_array().expect("cases").clone();
            drill["drill"]["cases"]
                .as_array_mut()
                .expect("cases")
                .extend(cases);
        }
        assert_eq!(
            drill["drill"]["cases"].as_array().map(Vec::len),
            Some(total as usize)
        );
        drill
    }

    for viewer in [Some(r.expert_a.as_str()), Some(r.researcher.as_str()), None] {
        let drill = every_page(&r, viewer, &pairs).await;
        assert_eq!(cell_of(&drill), (Value::Null, Value::from("hidden")));
        assert_eq!(hidden_in(&drill), open_of_model as u64);
    }
    // The page of the drill-down that shows the item's case.
    let position = every_page(&r, Some(&r.expert_a), &pairs).await["drill"]["cases"]
        .as_array()
        .and_then(|cases| cases.iter().position(|c| c["case_id"] == case_id.as_str()))
        .expect("the case");
    let page_number = position / engine::lexpilot::drilldown::CASES_PER_PAGE as usize + 1;
    let page = r
        .app
        .get_with_cookie(
            &format!(
                "/leaderboard/items?model={}&task=lca&page={page_number}",
                enc(&model)
            ),
            Some(&r.expert_a),
        )
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("data-testid=\"hidden-verdict\""));

    let admin = every_page(&r, Some(&r.admin), &pairs).await;
    let (label, _) = cell_of(&admin);
    assert_eq!(label, Value::from(judge_label(&r.app, items[0]).await));
    assert_eq!(hidden_in(&admin), 0);

    // Once final, the label is shown to everyone.
    submit(&r, &r.expert_a, items[0], "ask", "").await;
    submit(&r, &r.expert_b, items[0], "ask", "").await;
    let drill = every_page(&r, Some(&r.expert_a), &pairs).await;
    assert_eq!(
        cell_of(&drill).0,
        Value::from(judge_label(&r.app, items[0]).await)
    );
    assert_eq!(hidden_in(&drill), open_of_model as u64 - 1);
}

#[tokio::test]
async fn every_review_function_checks_the_role() {
    let r = Team::demo().await;
    let items = lca_sample(&r).await;
    let id = items[0].to_string();

    async fn refused<F: ServerFn>(r: &Team, pairs: &[(&str, &str)], who: &[&str]) {
        let anonymous = call::<F>(&r.app, None, pairs).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED, "{}", F::PATH);
        for cookie in who {
            let res = call::<F>(&r.app, Some(cookie), pairs).await;
            assert_eq!(
                res.status,
                StatusCode::FORBIDDEN,
                "{}: {}",
                F::PATH,
                res.body
            );
        }
    }

    let before = label_state(&r.app).await;
    let items_before = count(&r.app, "SELECT COUNT(*) FROM review_items").await;
    let assignments_before = count(&r.app, "SELECT COUNT(*) FROM review_assignments").await;

    // Admin actions: neither researchers nor experts.
    let admin_only = [r.researcher.as_str(), r.expert_a.as_str()];
    refused::<CreateReviewItems>(&r, &[("kind", "case_check")], &admin_only).await;
    refused::<AssignReviews>(&r, &[], &admin_only).await;
    refused::<AssignReview>(&r, &[("id", &id), ("experts[0]", "expert-a")], &admin_only).await;
    refused::<AdjudicationQueue>(&r, &[], &admin_only).await;
    refused::<ReviewItems>(&r, &[], &admin_only).await;
    refused::<ReassignReviews>(&r, &[("from", "expert-a")], &admin_only).await;
    refused::<Adjudicate>(
        &r,
        &[("id", &id), ("label", "ask"), ("reason", "r")],
        &admin_only,
    )
    .await;

    // Expert actions: not researchers.
    let experts_only = [r.researcher.as_str()];
    refused::<MyQueue>(&r, &[], &experts_only).await;
    refused::<GetReviewItem>(&r, &[("id", &id)], &experts_only).await;
    refused::<SaveReviewDraft>(&r, &[("id", &id), ("draft", "x")], &experts_only).await;
    refused::<SubmitReview>(
        &r,
        &[("id", &id), ("label", "ask"), ("comment", "")],
        &experts_only,
    )
    .await;
    refused::<LoadReviewDashboard>(&r, &[], &experts_only).await;

    assert_eq!(label_state(&r.app).await, before);
    assert_eq!(
        count(&r.app, "SELECT COUNT(*) FROM review_items").await,
        items_before
    );
    assert_eq!(
        count(&r.app, "SELECT COUNT(*) FROM review_assignments").await,
        assignments_before
    );

    // The export: admins only, by session or by API token.
    assert_eq!(
        r.app.get("/api/review/export").await.status,
        StatusCode::UNAUTHORIZED
    );
    for cookie in [&r.researcher, &r.expert_a] {
        let res = r
            .app
            .get_with_cookie("/api/review/export", Some(cookie))
            .await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
    }
    let res = r
        .app
        .get_with_cookie("/api/review/export", Some(&r.admin))
        .await;
    assert_eq!(res.status, StatusCode::OK);
    let admin = db::users::by_name(&r.app.db, "admin")
        .await
        .expect("query")
        .expect("admin");
    let token = db::tokens::create(&r.app.db, &admin).await.expect("token");
    let req = axum::http::Request::get("/api/review/export?format=csv")
        .header(axum::http::header::HOST, "127.0.0.1:3000")
        .header(axum::http::header::AUTHORIZATION, format!("Bearer {token}"))
        .body(axum::body::Body::empty())
        .expect("request");
    let res = r.app.send(req).await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(res.body.starts_with("item_id,dataset,kind,task"));
    let bad = r
        .app
        .get_with_cookie("/api/review/export?format=xml", Some(&r.admin))
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);

    // The explicit assignment works for an admin, with repeated fields.
    r.app.user("expert-c", Role::Expert, PASSWORD).await;
    let made = ok::<AssignReview>(
        &r.app,
        &r.admin,
        &[
            ("id", &id),
            ("experts[0]", "expert-c"),
            ("experts[1]", "expert-a"),
        ],
    )
    .await;
    assert_eq!(made, 1, "expert-a was assigned already");
}

/// The labels the two experts give in the full round.
const LCA_A: [&str; 6] = ["predict", "ask", "ask", "predict", "ask", "predict"];
const LCA_B: [&str; 6] = ["predict", "ask", "ask", "predict", "predict", "predict"];

#[tokio::test]
async fn a_full_round_ends_in_adjudication_and_the_dashboard_agrees_with_the_engine() {
    let r = Team::demo().await;
    let created = create(&r, "case_check", &[]).await;
    assert_eq!(created["created"], 72);
    let lca = lca_sample(&r).await;
    let checks = ids(&r.app, "case_check").await;
    assert_eq!(
        count(&r.app, "SELECT COUNT(*) FROM review_assignments").await,
        2 * 78,
        "every item got two experts"
    );
    let again = create(&r, "case_check", &[]).await;
    assert_eq!(
        (again["created"].clone(), again["existing"].clone()),
        (0.into(), 72.into())
    );

    // LCA: the experts disagree on the fifth item only.
    for (i, &id) in lca.iter().enumerate() {
        assert_eq!(
            submit(&r, &r.expert_a, id, LCA_A[i], "").await.0,
            StatusCode::OK
        );
        assert_eq!(
            submit(&r, &r.expert_b, id, LCA_B[i], "").await.0,
            StatusCode::OK
        );
    }
    // Case checks: four items; the third split on anonymization.
    let pass = CaseCheck::all_pass();
    let mut incomplete = CaseCheck::all_pass();
    incomplete.completeness = CheckResult::fail("缺少借款金额");
    let mut leaked = CaseCheck::all_pass();
    leaked.anonymization = CheckResult::fail("第2轮有手机号");
    let check_a = [&pass, &pass, &pass, &incomplete];
    let check_b = [&pass, &pass, &leaked, &incomplete];
    for i in 0..4 {
        let (sa, _, body) = submit(&r, &r.expert_a, checks[i], &check_json(check_a[i]), "").await;
        assert_eq!(sa, StatusCode::OK, "{body}");
        let (sb, _, body) = submit(&r, &r.expert_b, checks[i], &check_json(check_b[i]), "").await;
        assert_eq!(sb, StatusCode::OK, "{body}");
    }

    // The two disagreements wait for the admin, with both labels and the judge's.
    let queue = ok::<AdjudicationQueue>(&r.app, &r.admin, &[]).await;
    let waiting: BTreeSet<i64> = queue
        .as_array()
        .map(|q| q.iter().filter_map(|i| i["id"].as_i64()).collect())
        .unwrap_or_default();
    assert_eq!(waiting, BTreeSet::from([lca[4], checks[2]]));
    let lca_entry = queue
        .as_array()
        .and_then(|q| q.iter().find(|i| i["id"] == lca[4]))
        .cloned()
        .unwrap_or_default();
    assert_eq!(lca_entry["labels"][0][1], "ask");
    assert_eq!(lca_entry["labels"][1][1], "predict");
    assert_eq!(
        lca_entry["judge_label"],
        judge_label(&r.app, lca[4]).await.as_str()
    );
    let a_queue = ok::<MyQueue>(&r.app, &r.expert_a, &[]).await;
    assert_eq!(a_queue["in_adjudication"].as_array().map(Vec::len), Some(2));
    assert_eq!(a_queue["done_count"], 10);
    assert_eq!(a_queue["total"], 78);

    // A reason is required.
    let no_reason = call::<Adjudicate>(
        &r.app,
        Some(&r.admin),
        &[
            ("id", &lca[4].to_string()),
            ("label", "ask"),
            ("reason", " "),
        ],
    )
    .await;
    assert_eq!(no_reason.status, StatusCode::BAD_REQUEST);
    ok::<Adjudicate>(
        &r.app,
        &r.admin,
        &[
            ("id", &lca[4].to_string()),
            ("label", "ask"),
            ("reason", "答复要求补充借款时间"),
        ],
    )
    .await;
    ok::<Adjudicate>(
        &r.app,
        &r.admin,
        &[
            ("id", &checks[2].to_string()),
            ("label", &check_json(&leaked)),
            ("reason", "确有未脱敏的手机号"),
        ],
    )
    .await;
    // An item the experts agreed on is not adjudicated.
    let agreed = call::<Adjudicate>(
        &r.app,
        Some(&r.admin),
        &[
            ("id", &lca[0].to_string()),
            ("label", "ask"),
            ("reason", "x"),
        ],
    )
    .await;
    assert_eq!(agreed.status, StatusCode::CONFLICT);
    assert_eq!(
        ok::<AdjudicationQueue>(&r.app, &r.admin, &[]).await,
        serde_json::json!([])
    );

    // The dashboard's figures, recomputed with engine::agreement.
    let board = ok::<LoadReviewDashboard>(&r.app, &r.admin, &[]).await;
    let rows = board["rows"].as_array().cloned().unwrap_or_default();
    let row = |kind: &str, task: Option<&str>| {
        rows.iter()
            .find(|row| {
                row["kind"] == kind
                    && row["task"] == task.map_or(Value::Null, Into::into)
                    && row["class"].is_null()
            })
            .cloned()
            .unwrap_or_else(|| panic!("no row for {kind} {task:?}"))
    };
    let annotation = |item: String, annotator: &str, label: &str| Annotation {
        item,
        annotator: annotator.into(),
        label: label.into(),
    };
    let close = |got: &Value, want: Option<f64>| match (got.as_f64(), want) {
        (Some(g), Some(w)) => (g - w).abs() < 1e-12,
        (None, None) => true,
        _ => false,
    };

    let lca_row = row("judge_verdict", Some("lca"));
    let mut human = Vec::new();
    let mut judge = Vec::new();
    for (i, &id) in lca.iter().enumerate() {
        human.push(annotation(id.to_string(), "expert-a", LCA_A[i]));
        human.push(annotation(id.to_string(), "expert-b", LCA_B[i]));
        let final_label = if i == 4 { "ask" } else { LCA_A[i] };
        judge.push(annotation(
            id.to_string(),
            "judge",
            &judge_label(&r.app, id).await,
        ));
        judge.push(annotation(id.to_string(), "final", final_label));
    }
    let human_report = agreement_report(&human, None).expect("report");
    let judge_report = agreement_report(&judge, None).expect("report");
    assert_eq!(lca_row["n_items"], 6);
    assert_eq!(lca_row["n_pairs"], 6);
    assert!(close(
        &lca_row["human_agreement"],
        human_report.pairs[0].agreement
    ));
    assert!(
        close(&lca_row["human_kappa"], human_report.pairs[0].kappa),
        "{lca_row}"
    );
    assert_eq!(lca_row["n_judged"], 6);
    assert!(close(
        &lca_row["judge_agreement"],
        judge_report.pairs[0].agreement
    ));
    assert!(
        close(&lca_row["judge_kappa"], judge_report.pairs[0].kappa),
        "{lca_row}"
    );
    let overruled = judge
        .chunks(2)
        .filter(|pair| pair[0].label != pair[1].label)
        .count();
    assert_eq!(lca_row["overruled"], overruled);
    assert!(lca_row["qwk"].is_null() && lca_row["fleiss_kappa"].is_null());
    let per_class: u64 = rows
        .iter()
        .filter(|row| row["task"] == "lca" && !row["class"].is_null())
        .filter_map(|row| row["n_items"].as_u64())
        .sum();
    assert_eq!(per_class, 6, "the class rows split the items");

    let check_row = row("case_check", None);
    let mut units = Vec::new();
    for i in 0..4 {
        for (expert, check) in [("expert-a", check_a[i]), ("expert-b", check_b[i])] {
            for (kind, result) in check.results() {
                units.push(annotation(
                    format!("{}-{kind}", checks[i]),
                    expert,
                    result.outcome.as_str(),
                ));
            }
        }
    }
    let check_report = agreement_report(&units, None).expect("report");
    assert_eq!(check_row["n_items"], 72);
    assert_eq!(check_row["n_pairs"], 16);
    assert!(close(&check_row["human_agreement"], Some(15.0 / 16.0)));
    assert!(
        close(&check_row["human_kappa"], check_report.pairs[0].kappa),
        "{check_row}"
    );
    assert_eq!(check_row["n_judged"], 0);

    let disagreements: BTreeSet<i64> = board["disagreements"]
        .as_array()
        .map(|d| d.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default();
    assert_eq!(disagreements, BTreeSet::from([lca[4], checks[2]]));
    assert_eq!(board["items"], 78);
    assert_eq!(board["items_final"], 10);
    assert_eq!(board["items_in_adjudication"], 0);
    let progress: Vec<(String, i64, i64, i64)> = board["progress"]
        .as_array()
        .expect("progress")
        .iter()
        .map(|p| {
            (
                p["expert"].as_str().expect("expert").to_owned(),
                p["done"].as_i64().expect("done"),
                p["assigned"].as_i64().expect("assigned"),
                p["in_adjudication"].as_i64().expect("in adjudication"),
            )
        })
        .collect();
    assert_eq!(
        progress,
        [
            ("expert-a".to_owned(), 10, 78, 0),
            ("expert-b".to_owned(), 10, 78, 0)
        ]
    );

    // The export holds every item, label, final label and reason.
    let jsonl = r
        .app
        .get_with_cookie("/api/review/export?format=jsonl", Some(&r.admin))
        .await;
    assert_eq!(jsonl.status, StatusCode::OK);
    let lines: Vec<Value> = jsonl
        .body
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 78);
    let adjudicated = lines
        .iter()
        .find(|l| l["item_id"] == lca[4])
        .cloned()
        .unwrap_or_default();
    assert_eq!(adjudicated["final_label"], "ask");
    assert_eq!(adjudicated["final_source"], "adjudicated");
    assert_eq!(adjudicated["final_reason"], "答复要求补充借款时间");
    assert_eq!(adjudicated["final_by"], "admin");
    assert_eq!(adjudicated["labels"].as_array().map(Vec::len), Some(2));
    assert_eq!(adjudicated["history"].as_array().map(Vec::len), Some(3));
    assert!(adjudicated["model"].is_string());
    let csv = r
        .app
        .get_with_cookie("/api/review/export?format=csv", Some(&r.admin))
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    assert_eq!(csv.body.lines().count(), 1 + 2 * 78);
    assert!(csv.body.contains("答复要求补充借款时间"));
}

#[tokio::test]
async fn refused_labels_leave_nothing_behind() {
    let r = Team::demo().await;
    create(&r, "seed_dialogue", &[]).await;
    create(&r, "case_check", &[]).await;
    create(
        &r,
        "judge_verdict",
        &[("task", "ljp"), ("per_model", "1"), ("seed", "3")],
    )
    .await;
    let lca = lca_sample(&r).await;
    let seed = ids(&r.app, "seed_dialogue").await[0];
    let check = ids(&r.app, "case_check").await[0];
    let ljp: i64 =
        sqlx::query_scalar("SELECT id FROM review_items WHERE task = 'ljp' ORDER BY id LIMIT 1")
            .fetch_one(r.app.db.pool())
            .await
            .expect("an LJP item");

    let before = label_state(&r.app).await;
    let mut failing = CaseCheck::all_pass();
    failing.key_details = CheckResult::fail("  ");
    let seed_case = item(&r, &r.expert_a, seed).await.json()["case"].clone();
    let mut broken = seed_case.clone();
    broken["consultations"]["underspecified"] = serde_json::json!([]);
    let ljp_view = item(&r, &r.expert_a, ljp).await.json();
    let claims = ljp_view["claims"].as_u64().unwrap_or(0) as usize;
    assert!(claims >= 1);
    let too_many = vec!["supported"; claims + 1].join(",");

    let refusals: Vec<(i64, String, Option<String>, &str)> = vec![
        (lca[0], "maybe".into(), None, "unknown label"),
        (lca[0], "".into(), None, "unknown label"),
        (check, "pass".into(), None, "four checks"),
        (check, check_json(&failing), None, "without a comment"),
        (seed, "reject".into(), None, "unknown label"),
        (seed, "correct".into(), None, "corrected case"),
        (seed, "correct".into(), Some(broken.to_string()), "invalid"),
        (
            seed,
            "approve".into(),
            Some(seed_case.to_string()),
            "only a seed dialogue correction",
        ),
        (
            lca[0],
            "ask".into(),
            Some(seed_case.to_string()),
            "only a seed",
        ),
        (ljp, too_many, None, "one verdict per claim"),
        (ljp, "supported, won".into(), None, "unknown label"),
    ];
    for (id, label, proposal, message) in refusals {
        let id_text = id.to_string();
        let mut pairs = vec![
            ("id", id_text.as_str()),
            ("label", label.as_str()),
            ("comment", "c"),
        ];
        if let Some(p) = &proposal {
            pairs.push(("proposal", p.as_str()));
        }
        let res = call::<SubmitReview>(&r.app, Some(&r.expert_a), &pairs).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{label}: {}", res.body);
        assert!(res.body.contains(message), "{label}: {}", res.body);
    }
    assert_eq!(label_state(&r.app).await, before, "nothing stored");

    // Adjudications are checked too, and unknown kinds and tasks refused.
    let bad_kind = call::<CreateReviewItems>(&r.app, Some(&r.admin), &[("kind", "essay")]).await;
    assert_eq!(bad_kind.status, StatusCode::BAD_REQUEST);
    let no_task =
        call::<CreateReviewItems>(&r.app, Some(&r.admin), &[("kind", "judge_verdict")]).await;
    assert_eq!(no_task.status, StatusCode::BAD_REQUEST);
    submit(&r, &r.expert_a, lca[1], "ask", "").await;
    submit(&r, &r.expert_b, lca[1], "predict", "").await;
    let before = label_state(&r.app).await;
    let res = call::<Adjudicate>(
        &r.app,
        Some(&r.admin),
        &[
            ("id", &lca[1].to_string()),
            ("label", "追问"),
            ("reason", "r"),
        ],
    )
    .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert_eq!(label_state(&r.app).await, before);

    // A valid seed correction is kept, checked against the dataset's rules.
    let mut fixed = seed_case.clone();
    fixed["consultations"]["underspecified"][0]["content"] = "我想咨询一下。".into();
    let res = call::<SubmitReview>(
        &r.app,
        Some(&r.expert_a),
        &[
            ("id", &seed.to_string()),
            ("label", "correct"),
            ("comment", "去掉泄露的事实"),
            ("proposal", &fixed.to_string()),
        ],
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(
        res.json()["my_proposal"]["consultations"]["underspecified"][0]["content"],
        "我想咨询一下。"
    );
}

#[tokio::test]
async fn drafts_persist_per_expert_until_submitted() {
    let r = Team::demo().await;
    let lca = lca_sample(&r).await;
    let id = lca[0].to_string();
    ok::<SaveReviewDraft>(
        &r.app,
        &r.expert_a,
        &[("id", &id), ("draft", r#"{"label":"ask"}"#)],
    )
    .await;
    ok::<SaveReviewDraft>(
        &r.app,
        &r.expert_a,
        &[
            ("id", &id),
            ("draft", r#"{"label":"predict","comment":"再看"}"#),
        ],
    )
    .await;
    let seen = item(&r, &r.expert_a, lca[0]).await.json();
    assert_eq!(seen["draft"], r#"{"label":"predict","comment":"再看"}"#);
    assert_eq!(seen["submitted"], false);
    let other = item(&r, &r.expert_b, lca[0]).await;
    assert!(other.json()["draft"].is_null());
    assert!(!other.body.contains("再看"));
    let big = "x".repeat(db::review::MAX_DRAFT_BYTES + 1);
    let refused =
        call::<SaveReviewDraft>(&r.app, Some(&r.expert_a), &[("id", &id), ("draft", &big)]).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);

    let (status, after, _) = submit(&r, &r.expert_a, lca[0], "predict", "再看").await;
    assert_eq!(status, StatusCode::OK);
    assert!(after["draft"].is_null(), "a submission replaces the draft");
    assert_eq!(after["my_label"], "predict");
    assert_eq!(after["my_comment"], "再看");
    // A revision before the item is final is kept in the history.
    submit(&r, &r.expert_a, lca[0], "ask", "改为追问").await;
    let history = count(
        &r.app,
        &format!(
            "SELECT COUNT(*) FROM review_label_history WHERE item_id = {}",
            lca[0]
        ),
    )
    .await;
    assert_eq!(history, 2);
    assert_eq!(
        item(&r, &r.expert_a, lca[0]).await.json()["my_label"],
        "ask"
    );
}

/// The sampled judge items of one database: (model, run, case, target).
async fn sample_of(app: &TestApp, task: &str) -> Vec<(String, i64, String, String)> {
    sqlx::query_as(
        "SELECT model, run_number, case_id, COALESCE(target, '') FROM review_items
         WHERE kind = 'judge_verdict' AND task = $1 ORDER BY model, run_number, case_id, target",
    )
    .bind(task)
    .fetch_all(app.db.pool())
    .await
    .expect("sample")
}

#[tokio::test]
async fn the_judge_sample_is_stratified_by_model_and_reproducible() {
    let first = Team::demo().await;
    let second = Team::demo().await;
    let params = [
        ("task", "dcg"),
        ("per_model", "4"),
        ("cap", "100"),
        ("seed", "5"),
    ];
    let made = create(&first, "judge_verdict", &params).await;
    assert_eq!(made["created"], 12, "4 of each of 3 models");
    create(&second, "judge_verdict", &params).await;
    let sample = sample_of(&first.app, "dcg").await;
    assert_eq!(
        sample,
        sample_of(&second.app, "dcg").await,
        "same seed, same sample"
    );
    let mut per_model: BTreeMap<&str, usize> = BTreeMap::new();
    for (model, ..) in &sample {
        *per_model.entry(model.as_str()).or_default() += 1;
    }
    assert_eq!(per_model.len(), 3);
    assert!(per_model.values().all(|&n| n == 4), "{per_model:?}");
    let again = create(&first, "judge_verdict", &params).await;
    assert_eq!(
        (again["created"].clone(), again["existing"].clone()),
        (0.into(), 12.into())
    );

    // The expert sees the request texts, never the judge's decisions.
    ok::<AssignReviews>(&first.app, &first.admin, &[]).await;
    let id = ids(&first.app, "judge_verdict").await[0];
    let seen = item(&first, &first.expert_a, id).await;
    let input = &seen.json()["input"];
    assert!(input["requests"].is_array() && input["focal_points"].is_array());
    assert!(!seen.body.contains("\"accepted\":"), "{}", seen.body);
    assert_eq!(
        seen.json()["labels"],
        serde_json::json!(["accepted", "rejected"])
    );

    // Another seed draws another sample; a cap deals shares that differ by one.
    let capped = Team::demo().await;
    create(
        &capped,
        "judge_verdict",
        &[
            ("task", "lca"),
            ("per_model", "10"),
            ("cap", "25"),
            ("seed", "9"),
        ],
    )
    .await;
    let mut shares: Vec<usize> = sample_of(&capped.app, "lca")
        .await
        .iter()
        .fold(BTreeMap::<String, usize>::new(), |mut m, (model, ..)| {
            *m.entry(model.clone()).or_default() += 1;
            m
        })
        .into_values()
        .collect();
    shares.sort();
    assert_eq!(shares, [8, 8, 9]);
    let other_seed = Team::demo().await;
    create(
        &other_seed,
        "judge_verdict",
        &[
            ("task", "dcg"),
            ("per_model", "4"),
            ("cap", "100"),
            ("seed", "6"),
        ],
    )
    .await;
    assert_ne!(sample_of(&other_seed.app, "dcg").await, sample);

    // Auto-assignment needs two experts.
    let lonely = TestApp::with_demo().await;
    lonely.user("admin", Role::Admin, PASSWORD).await;
    lonely.user("solo", Role::Expert, PASSWORD).await;
    let admin = lonely.sign_in("admin", PASSWORD).await;
    let res = call::<AssignReviews>(&lonely, Some(&admin), &[]).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert!(res.body.contains("at least 2 expert"), "{}", res.body);
}

/// Open dashboards hear of every label through the change feed; the event
/// names the item, never a label.
#[tokio::test]
async fn submissions_are_announced_on_the_event_stream() {
    use http_body_util::BodyExt;

    let r = Team::demo().await;
    let lca = lca_sample(&r).await;
    let mut body = r.app.open_stream("/api/events").await.into_body();
    submit(&r, &r.expert_a, lca[0], "ask", "A-SECRET-COMMENT").await;
    let mut text = String::new();
    while !text.contains("event: review\n") {
        let frame = tokio::time::timeout(std::time::Duration::from_secs(5), body.frame())
            .await
            .expect("an event within 5 s")
            .expect("the stream is open")
            .expect("a frame");
        if let Ok(data) = frame.into_data() {
            text.push_str(&String::from_utf8_lossy(&data));
        }
    }
    assert!(text.contains(&format!("\"item_id\":{}", lca[0])), "{text}");
    assert!(!text.contains("A-SECRET-COMMENT") && !text.contains("\"ask\""));
}

#[tokio::test]
async fn an_adjudicated_seed_correction_becomes_a_revision_of_the_case() {
    let r = Team::demo().await;
    let (id, case, proposal) = seed_item(&r, "（专家补充：当事人语气更口语化）").await;
    submit_seed(&r, &r.expert_a, id, "correct", Some(&proposal)).await;
    submit_seed(&r, &r.expert_b, id, "approve", None).await;
    let done = ok::<Adjudicate>(
        &r.app,
        &r.admin,
        &[
            ("id", &id.to_string()),
            ("label", "correct:expert-a"),
            ("reason", "采纳甲的修改"),
        ],
    )
    .await;
    assert_eq!(done["revision"], 2, "{done}");
    assert_eq!(done["dataset_version"], 2, "{done}");

    let page = r.app.get(&format!("/cases/{}", case.case_id)).await;
    assert!(
        page.body.contains("data-testid=\"case-history\""),
        "no history"
    );
    assert!(page
        .body
        .contains(&format!("seed review #{id}: 采纳甲的修改")));
    assert!(page
        .body
        .contains("<ins>（专家补充：当事人语气更口语化）</ins>"));
    let stats = r.app.get("/api/stats").await.json();
    assert_eq!(stats["dataset_version"], 2);
}

/// The first seed item, assigned to expert-a and expert-b, and its case with
/// `extra` appended to the first underspecified turn, as JSON.
async fn seed_item(r: &Team, extra: &str) -> (i64, engine::lexpilot::dataset::Case, String) {
    create(r, "seed_dialogue", &[]).await;
    let id = ids(&r.app, "seed_dialogue").await[0];
    ok::<AssignReview>(
        &r.app,
        &r.admin,
        &[
            ("id", &id.to_string()),
            ("experts[0]", "expert-a"),
            ("experts[1]", "expert-b"),
        ],
    )
    .await;
    let view = ok::<GetReviewItem>(&r.app, &r.expert_a, &[("id", &id.to_string())]).await;
    let mut case: engine::lexpilot::dataset::Case =
        serde_json::from_value(view["case"].clone()).expect("the seed case");
    case.consultations.underspecified[0].content.push_str(extra);
    let json = serde_json::to_string(&case).expect("json");
    (id, case, json)
}

async fn submit_seed(r: &Team, cookie: &str, id: i64, label: &str, proposal: Option<&str>) {
    let id = id.to_string();
    let mut pairs = vec![("id", id.as_str()), ("label", label), ("comment", "")];
    if let Some(p) = proposal {
        pairs.push(("proposal", p));
    }
    ok::<SubmitReview>(&r.app, cookie, &pairs).await;
}

async fn dataset_versions(app: &TestApp) -> i64 {
    count(
        app,
        "SELECT COUNT(*) FROM datasets WHERE benchmark = 'lexpilot'",
    )
    .await
}

#[tokio::test]
async fn experts_agreeing_on_a_seed_correction_apply_it_at_once() {
    let r = Team::demo().await;
    let (id, case, proposal) = seed_item(&r, "（两位专家一致补充）").await;
    submit_seed(&r, &r.expert_a, id, "correct", Some(&proposal)).await;
    assert_eq!(
        dataset_versions(&r.app).await,
        1,
        "one label is not agreement"
    );
    submit_seed(&r, &r.expert_b, id, "correct", Some(&proposal)).await;
    assert_eq!(dataset_versions(&r.app).await, 2);
    let stats = r.app.get("/api/stats").await.json();
    assert_eq!(stats["dataset_version"], 2);
    let page = r.app.get(&format!("/cases/{}", case.case_id)).await;
    assert!(page
        .body
        .contains(&format!("seed review #{id}, agreed by expert-a, expert-b")));
    assert!(page.body.contains("<ins>（两位专家一致补充）</ins>"));
    let final_source: String =
        sqlx::query_scalar("SELECT final_source FROM review_items WHERE id = $1")
            .bind(id)
            .fetch_one(r.app.db.pool())
            .await
            .expect("final");
    assert_eq!(final_source, "agreed");
}

#[tokio::test]
async fn an_adjudicated_correction_over_a_newer_revision_stores_nothing() {
    let r = Team::demo().await;
    let (id, case, proposal) = seed_item(&r, "（甲的补充）").await;
    submit_seed(&r, &r.expert_a, id, "correct", Some(&proposal)).await;
    submit_seed(&r, &r.expert_b, id, "approve", None).await;

    // Meanwhile the admin corrects the case on its page.
    let mut direct: engine::lexpilot::dataset::Case = serde_json::from_value(
        r.app
            .get(&format!("/api/cases/{}", case.case_id))
            .await
            .json(),
    )
    .expect("case");
    direct.key_facts[0].text.push_str("（核对）");
    let saved = ok::<app::server_fns::corrections::SaveCaseCorrection>(
        &r.app,
        &r.admin,
        &[
            ("case", &serde_json::to_string(&direct).expect("json")),
            ("base_revision", "1"),
            ("reason", "核对要点"),
        ],
    )
    .await;
    assert_eq!(saved["Saved"]["revision"], 2, "{saved}");
    let before = (label_state(&r.app).await, dataset_versions(&r.app).await);

    let queue = ok::<AdjudicationQueue>(&r.app, &r.admin, &[]).await;
    assert_eq!(queue[0]["case_changed"], true, "{queue}");
    let res = call::<Adjudicate>(
        &r.app,
        Some(&r.admin),
        &[
            ("id", &id.to_string()),
            ("label", "correct:expert-a"),
            ("reason", "采纳甲的修改"),
        ],
    )
    .await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{}", res.body);
    assert!(res.body.contains("revision 2 by admin"), "{}", res.body);
    assert_eq!(
        (label_state(&r.app).await, dataset_versions(&r.app).await),
        before,
        "neither the final label nor a correction is stored"
    );
    let done = ok::<Adjudicate>(
        &r.app,
        &r.admin,
        &[
            ("id", &id.to_string()),
            ("label", "approve"),
            ("reason", "在案例页修改"),
        ],
    )
    .await;
    assert_eq!(done["revision"], Value::Null);
}

#[tokio::test]
async fn a_designated_expert_adjudicates_other_items_only_and_stays_blind_on_their_own() {
    let r = Team::demo().await;
    let items = lca_sample(&r).await;
    r.app.user("expert-c", Role::Expert, PASSWORD).await;
    let c = r.app.sign_in("expert-c", PASSWORD).await;
    let designate = |on: &'static str, name: &'static str| [("name", name), ("on", on)];
    use app::server_fns::users::SetAdjudicator;

    // Only admins designate; only experts can be designated.
    for cookie in [&r.expert_a, &r.researcher, &c] {
        let res =
            call::<SetAdjudicator>(&r.app, Some(cookie), &designate("true", "expert-c")).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    }
    let res =
        call::<SetAdjudicator>(&r.app, Some(&r.admin), &designate("true", "researcher")).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
    let res = call::<SetAdjudicator>(&r.app, Some(&r.admin), &designate("true", "nobody")).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.body);
    let res = call::<AdjudicationQueue>(&r.app, Some(&c), &[]).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "not designated yet");
    let user = ok::<SetAdjudicator>(&r.app, &r.admin, &designate("true", "expert-c")).await;
    assert_eq!(user["adjudicator"], true, "{user}");

    // Item 0 is expert-a's and expert-b's; item 1 also expert-c's.
    let (other, own) = (items[0], items[1]);
    ok::<AssignReview>(
        &r.app,
        &r.admin,
        &[("id", &own.to_string()), ("experts[0]", "expert-c")],
    )
    .await;
    for (id, a, b) in [(other, "predict", "ask"), (own, "predict", "ask")] {
        assert_eq!(submit(&r, &r.expert_a, id, a, "甲").await.0, StatusCode::OK);
        assert_eq!(submit(&r, &r.expert_b, id, b, "乙").await.0, StatusCode::OK);
    }
    // Blind on their own item, though both others have submitted.
    let view: Value = item(&r, &c, own).await.json();
    assert_eq!(view["revealed"], Value::Null, "{view}");
    let waiting = ok::<AdjudicationQueue>(&r.app, &c, &[]).await;
    let waiting: Vec<i64> = waiting
        .as_array()
        .expect("list")
        .iter()
        .map(|e| e["id"].as_i64().expect("id"))
        .collect();
    assert_eq!(
        waiting,
        [other],
        "their own item is not theirs to adjudicate"
    );
    assert_eq!(submit(&r, &c, own, "ask", "丙").await.0, StatusCode::OK);

    let before = label_state(&r.app).await;
    let res = call::<Adjudicate>(
        &r.app,
        Some(&c),
        &[
            ("id", &own.to_string()),
            ("label", "ask"),
            ("reason", "我的意见"),
        ],
    )
    .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.body);
    assert_eq!(label_state(&r.app).await, before);
    ok::<Adjudicate>(
        &r.app,
        &c,
        &[
            ("id", &other.to_string()),
            ("label", "ask"),
            ("reason", "模型应追问"),
        ],
    )
    .await;
    let final_by: String = sqlx::query_scalar(
        "SELECT u.name FROM review_items i JOIN users u ON u.id = i.final_by WHERE i.id = $1",
    )
    .bind(other)
    .fetch_one(r.app.db.pool())
    .await
    .expect("final");
    assert_eq!(final_by, "expert-c");
    // Export stays with admins.
    let res = r.app.get_with_cookie("/api/review/export", Some(&c)).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);

    // Withdrawn, the designation no longer opens the queue.
    ok::<SetAdjudicator>(&r.app, &r.admin, &designate("false", "expert-c")).await;
    let res = call::<AdjudicationQueue>(&r.app, Some(&c), &[]).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
}

/// The paper's Table 12 counts LJP agreement per item (case): two experts
/// who differ on one claim of a two-claim case disagree on that item, and
/// kappa takes each verdict list as one category. The Average row is the
/// mean over the judge-verdict tasks present.
#[tokio::test]
async fn ljp_agreement_is_per_case_and_the_average_row_spans_the_tasks() {
    let r = Team::demo().await;
    // Before any item exists the dashboard says what to do next.
    let empty = r
        .app
        .get_with_cookie("/review/agreement", Some(&r.admin))
        .await;
    assert!(
        empty.body.contains("data-testid=\"agreement-empty\""),
        "{}",
        empty.body
    );
    assert!(empty.body.contains("href=\"/review/manage"));
    let lca = lca_sample(&r).await;
    for (i, &id) in lca.iter().enumerate() {
        submit(&r, &r.expert_a, id, LCA_A[i], "").await;
        submit(&r, &r.expert_b, id, LCA_B[i], "").await;
    }
    create(
        &r,
        "judge_verdict",
        &[("task", "ljp"), ("per_model", "2"), ("seed", "5")],
    )
    .await;
    ok::<AssignReviews>(&r.app, &r.admin, &[]).await;
    let items: Vec<i64> = sqlx::query_scalar("SELECT id FROM review_items WHERE task = 'ljp'")
        .fetch_all(r.app.db.pool())
        .await
        .expect("LJP items");
    assert!(items.len() >= 3, "{items:?}");
    let mut human = Vec::new();
    let mut disagreeing = 0;
    let mut all_claims = 0;
    for (i, &id) in items.iter().enumerate() {
        let claims = item(&r, &r.expert_a, id).await.json()["claims"]
            .as_u64()
            .unwrap_or(0) as usize;
        all_claims += claims;
        let a = vec!["supported"; claims];
        let mut b = a.clone();
        // Every other item: B differs on the last claim only.
        if i % 2 == 1 {
            b[claims - 1] = "dismissed";
            disagreeing += 1;
        }
        let (sa, _, body) = submit(&r, &r.expert_a, id, &a.join(","), "").await;
        assert_eq!(sa, StatusCode::OK, "{body}");
        let (sb, _, body) = submit(&r, &r.expert_b, id, &b.join(","), "").await;
        assert_eq!(sb, StatusCode::OK, "{body}");
        human.push(Annotation {
            item: id.to_string(),
            annotator: "expert-a".into(),
            label: a.join(","),
        });
        human.push(Annotation {
            item: id.to_string(),
            annotator: "expert-b".into(),
            label: b.join(","),
        });
    }
    assert!(
        all_claims > items.len(),
        "the sample holds a case with several claims, so items and claims differ"
    );
    let board = ok::<LoadReviewDashboard>(&r.app, &r.admin, &[]).await;
    let rows = board["rows"].as_array().cloned().unwrap_or_default();
    let overall = |task: &str| {
        rows.iter()
            .find(|row| row["task"] == task && row["class"].is_null())
            .cloned()
            .unwrap_or_else(|| panic!("no {task} row"))
    };
    let ljp = overall("ljp");
    assert_eq!(ljp["n_pairs"], items.len(), "one unit per case: {ljp}");
    let agreement = ljp["human_agreement"].as_f64().expect("agreement");
    let want = (items.len() - disagreeing) as f64 / items.len() as f64;
    assert!((agreement - want).abs() < 1e-12, "{ljp}");
    // Kappa of whole verdict lists, from engine::agreement on the joined labels.
    let report = agreement_report(&human, None).expect("report");
    let kappa = ljp["human_kappa"].as_f64();
    match (kappa, report.pairs[0].kappa) {
        (Some(got), Some(want)) => assert!((got - want).abs() < 1e-12, "{ljp}"),
        (got, want) => assert_eq!(got, want, "{ljp}"),
    }
    assert!(ljp["qwk"].is_number() || ljp["qwk"].is_null());

    let average = &board["average"];
    assert_eq!(average["tasks"], serde_json::json!(["lca", "ljp"]));
    let lca_row = overall("lca");
    let mean = |key: &str| {
        (lca_row[key].as_f64().unwrap_or(f64::NAN) + ljp[key].as_f64().unwrap_or(f64::NAN)) / 2.0
    };
    let got = average["human_agreement"].as_f64().expect("an average");
    assert!((got - mean("human_agreement")).abs() < 1e-12, "{average}");
}

/// Per class of case the sample holds one or two items: the table names
/// each class in words, and over a single item gives no kappa (it would be
/// 0 or 1 whatever the experts did), which the page shows as "—".
#[tokio::test]
async fn the_agreement_table_names_classes_in_words_and_no_kappa_of_one_item() {
    use engine::vocab::Class;
    let r = Team::demo().await;
    let lca = lca_sample(&r).await;
    for (i, &id) in lca.iter().enumerate() {
        submit(&r, &r.expert_a, id, LCA_A[i], "").await;
        submit(&r, &r.expert_b, id, LCA_B[i], "").await;
    }
    let board = ok::<LoadReviewDashboard>(&r.app, &r.admin, &[]).await;
    let rows = board["rows"].as_array().cloned().unwrap_or_default();
    let single: Vec<&Value> = rows.iter().filter(|row| row["n_pairs"] == 1).collect();
    assert!(!single.is_empty(), "a class with one item: {rows:?}");
    for row in single {
        for kappa in [
            "human_kappa",
            "qwk",
            "judge_kappa",
            "judge_qwk",
            "fleiss_kappa",
        ] {
            assert!(row[kappa].is_null(), "{kappa} over one item: {row}");
        }
    }
    let page = r
        .app
        .get_with_cookie("/review/agreement", Some(&format!("{}; lang=zh", r.admin)))
        .await;
    let body = &page.body;
    let table = &body[body
        .find("data-testid=\"agreement-table\"")
        .expect("the table")..];
    let table = &table[..table.find("</table>").expect("the table ends")];
    let classes: Vec<Class> = rows
        .iter()
        .filter_map(|row| Class::parse(row["class"].as_str()?))
        .collect();
    assert!(!classes.is_empty());
    for class in classes {
        assert!(
            table.contains(class.label_zh()) && !table.contains(class.as_str()),
            "{class}: {table}"
        );
    }
}

#[tokio::test]
async fn progress_agrees_with_the_database_and_the_time_of_a_label_is_exported() {
    use app::server_fns::review::FlagReviewItem;
    let r = Team::demo().await;
    create(&r, "case_check", &[]).await;
    lca_sample(&r).await;
    let assigned = |expert: &str| {
        format!(
            "SELECT COUNT(*) FROM review_assignments a JOIN users u ON u.id = a.expert_id
             WHERE u.name = '{expert}'"
        )
    };
    let queue = ok::<MyQueue>(&r.app, &r.expert_a, &[]).await;
    let total = count(&r.app, &assigned("expert-a")).await;
    assert_eq!(queue["progress"]["total"], total);
    assert_eq!(queue["progress"]["done"], 0);
    let todo: Vec<i64> = queue["todo"]
        .as_array()
        .expect("todo")
        .iter()
        .map(|i| i["id"].as_i64().expect("id"))
        .collect();
    let lca = todo
        .iter()
        .copied()
        .find(|&id| {
            queue["todo"]
                .as_array()
                .expect("todo")
                .iter()
                .any(|i| i["id"] == id && i["task"] == "lca")
        })
        .expect("an LCA item in the queue");

    // The item page places the item: position, remaining, per kind, next to do.
    let view: Value = item(&r, &r.expert_a, lca).await.json();
    let at = todo.iter().position(|&id| id == lca).expect("queued") + 1;
    assert_eq!(view["progress"]["position"][0], at);
    assert_eq!(view["progress"]["total"], total);
    let per_kind = view["progress"]["per_kind"].as_array().expect("per kind");
    let kinds: Vec<(String, i64)> = per_kind
        .iter()
        .map(|k| {
            (
                k[0].as_str().expect("kind").to_owned(),
                k[2].as_i64().expect("n"),
            )
        })
        .collect();
    let stored = |kind: &str| {
        format!(
            "{} AND a.item_id IN (SELECT id FROM review_items WHERE kind = '{kind}')",
            assigned("expert-a").replace("WHERE", "WHERE 1 = 1 AND")
        )
    };
    assert_eq!(
        kinds,
        [
            (
                "case_check".to_owned(),
                count(&r.app, &stored("case_check")).await
            ),
            (
                "judge_verdict".to_owned(),
                count(&r.app, &stored("judge_verdict")).await
            ),
        ]
    );
    // Every item is to do: the next one after it, or the first.
    let next = todo.get(at).copied().unwrap_or(todo[0]);
    assert_eq!(view["next_todo"], next);

    // Flag unclear, then label with a time: the flag is gone, the time stored.
    ok::<FlagReviewItem>(
        &r.app,
        &r.expert_a,
        &[("id", &lca.to_string()), ("comment", "回复被截断了？")],
    )
    .await;
    let queue = ok::<MyQueue>(&r.app, &r.expert_a, &[]).await;
    assert!(queue["todo"]
        .as_array()
        .expect("todo")
        .iter()
        .any(|i| i["id"] == lca && i["unclear"] == true));
    let refused = call::<FlagReviewItem>(
        &r.app,
        Some(&r.researcher),
        &[("id", &lca.to_string()), ("comment", "x")],
    )
    .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let res = call::<SubmitReview>(
        &r.app,
        Some(&r.expert_a),
        &[
            ("id", &lca.to_string()),
            ("label", "ask"),
            ("comment", ""),
            ("seconds", "37"),
        ],
    )
    .await;
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    let after: Value = res.json();
    assert_eq!(after["unclear"], Value::Null);
    assert_eq!(after["progress"]["done"], 1);
    let queue = ok::<MyQueue>(&r.app, &r.expert_a, &[]).await;
    let done = count(
        &r.app,
        &format!("{} AND a.submitted_at IS NOT NULL", assigned("expert-a")),
    )
    .await;
    assert_eq!((queue["progress"]["done"].as_i64(), done), (Some(1), 1));
    assert_eq!(queue["progress"]["seconds"], serde_json::json!([37]));

    let csv = r
        .app
        .get_with_cookie("/api/review/export?format=csv", Some(&r.admin))
        .await
        .body;
    let header: Vec<&str> = csv.lines().next().expect("header").split(',').collect();
    let seconds = header
        .iter()
        .position(|c| *c == "seconds")
        .expect("a seconds column");
    let row = csv
        .lines()
        .find(|l| l.starts_with(&format!("{lca},")) && l.contains(",expert-a,"))
        .expect("expert-a's row");
    assert_eq!(row.split(',').nth(seconds), Some("37"), "{row}");
    let board = ok::<LoadReviewDashboard>(&r.app, &r.admin, &[]).await;
    let mine = board["progress"]
        .as_array()
        .expect("progress")
        .iter()
        .find(|p| p["expert"] == "expert-a")
        .expect("expert-a");
    assert_eq!(
        (mine["done"].as_i64(), mine["median_seconds"].as_f64()),
        (Some(1), Some(37.0))
    );
}

#[tokio::test]
async fn the_management_list_filters_and_pages_and_a_leaving_expert_hands_over_open_items() {
    let r = Team::demo().await;
    create(&r, "case_check", &[]).await;
    create(&r, "seed_dialogue", &[]).await;
    lca_sample(&r).await;
    let all = count(&r.app, "SELECT COUNT(*) FROM review_items").await;
    assert!(all > 50, "more than one page: {all}");

    // Every item once over the pages, newest first.
    let first = ok::<ReviewItems>(&r.app, &r.admin, &[]).await;
    assert_eq!(first["matching"], all);
    assert_eq!(first["total"], all);
    let pages = first["pages"].as_u64().expect("pages");
    assert_eq!(pages, (all as u64).div_ceil(50));
    let mut seen = Vec::new();
    for page in 1..=pages {
        let list = ok::<ReviewItems>(&r.app, &r.admin, &[("page", &page.to_string())]).await;
        assert_eq!(list["page"], page);
        seen.extend(
            list["rows"]
                .as_array()
                .expect("rows")
                .iter()
                .map(|row| row["id"].as_i64().expect("id")),
        );
    }
    let want: Vec<i64> = sqlx::query_scalar("SELECT id FROM review_items ORDER BY id DESC")
        .fetch_all(r.app.db.pool())
        .await
        .expect("ids");
    assert_eq!(seen, want);

    // Filters agree with SQL.
    let seeds = ok::<ReviewItems>(&r.app, &r.admin, &[("kind", "seed_dialogue")]).await;
    assert_eq!(seeds["matching"], ids(&r.app, "seed_dialogue").await.len());
    let unassigned = ok::<ReviewItems>(&r.app, &r.admin, &[("understaffed", "true")]).await;
    assert_eq!(
        unassigned["matching"],
        count(&r.app, "SELECT COUNT(*) FROM review_items i WHERE (SELECT COUNT(*) FROM review_assignments a WHERE a.item_id = i.id) < 2").await
    );
    let bad = call::<ReviewItems>(&r.app, Some(&r.admin), &[("status", "done")]).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.body.contains("status"), "{}", bad.body);

    // Experts and statuses: expert-a submits one of the LCA items.
    let lca = lca_sample_ids(&r).await;
    let (status, _, body) = submit(&r, &r.expert_a, lca[0], "ask", "").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let submitted = ok::<ReviewItems>(&r.app, &r.admin, &[("status", "submitted")]).await;
    let rows = submitted["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["id"], lca[0]);
    let experts: Vec<(&str, bool)> = rows[0]["assignees"]
        .as_array()
        .expect("assignees")
        .iter()
        .map(|a| {
            (
                a["expert"].as_str().expect("name"),
                a["submitted"].as_bool().expect("flag"),
            )
        })
        .collect();
    assert_eq!(experts, [("expert-a", true), ("expert-b", false)]);
    assert_eq!(
        submitted["by_status"][1],
        serde_json::json!(["submitted", 1])
    );
    let open_of = |name: &str| {
        format!(
            "SELECT COUNT(*) FROM review_assignments a JOIN users u ON u.id = a.expert_id
             WHERE u.name = '{name}' AND a.submitted_at IS NULL"
        )
    };
    let by_a = ok::<ReviewItems>(&r.app, &r.admin, &[("expert", "expert-a")]).await;
    assert_eq!(
        by_a["matching"],
        count(&r.app, &open_of("expert-a")).await + 1
    );

    // expert-a leaves: expert-c takes over what a had not submitted.
    r.app.user("expert-c", Role::Expert, PASSWORD).await;
    let open = count(&r.app, &open_of("expert-a")).await;
    assert!(open > 0);
    let nobody = call::<ReassignReviews>(&r.app, Some(&r.admin), &[("from", "expert-z")]).await;
    assert_eq!(nobody.status, StatusCode::BAD_REQUEST);
    assert!(nobody.body.contains("from"), "{}", nobody.body);
    let done = ok::<ReassignReviews>(&r.app, &r.admin, &[("from", "expert-a")]).await;
    // expert-b is on every item already: all go to expert-c.
    assert_eq!(done["moved"], open);
    assert_eq!(done["stranded"], serde_json::json!([]));
    assert_eq!(count(&r.app, &open_of("expert-a")).await, 0);
    assert_eq!(count(&r.app, &open_of("expert-c")).await, open);
    let kept: i64 = count(
        &r.app,
        "SELECT COUNT(*) FROM review_assignments a JOIN users u ON u.id = a.expert_id
         WHERE u.name = 'expert-a' AND a.submitted_at IS NOT NULL",
    )
    .await;
    assert_eq!(kept, 1, "expert-a's label stays");
}

async fn lca_sample_ids(r: &Team) -> Vec<i64> {
    sqlx::query_scalar("SELECT id FROM review_items WHERE task = 'lca' ORDER BY id")
        .fetch_all(r.app.db.pool())
        .await
        .expect("ids")
}
