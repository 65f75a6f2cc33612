//! Expert review of DLawBench's judge panel over HTTP, on the demo runs: a
//! sample of judged sessions stratified by style, each Inquiry and Issue
//! rubric item marked 0/1 by two experts blind (the session's panel
//! decisions kept back from the drill-down meanwhile), a disagreement
//! adjudicated, and the dashboard's panel-vs-human figures per dimension
//! checked against an independent count here (agreement, Cohen's kappa,
//! 1–1 splits left out and counted).

mod common;

use std::collections::BTreeMap;

use axum::http::StatusCode;
use common::{TestApp, TestResponse};
use engine::accounts::Role;
use leptos::server_fn::ServerFn;
use serde_json::Value;

use app::server_fns::dlawbench::DlawSession;
use app::server_fns::review::{
    Adjudicate, AssignReviews, CreateReviewItems, GetReviewItem, LoadReviewDashboard, MyQueue,
    SubmitReview,
};

const PASSWORD: &str = "a-long-password";

async fn call<F: ServerFn>(app: &TestApp, cookie: &str, pairs: &[(&str, &str)]) -> TestResponse {
    app.call::<F>(Some(cookie), pairs).await
}

async fn ok<F: ServerFn>(app: &TestApp, cookie: &str, pairs: &[(&str, &str)]) -> Value {
    app.ok::<F>(Some(cookie), pairs).await
}

/// Cohen's kappa of two 0/1 raters, written out here apart from the engine.
fn kappa(pairs: &[(u8, u8)]) -> Option<f64> {
    let n = pairs.len() as f64;
    let agree = pairs.iter().filter(|(a, b)| a == b).count() as f64 / n;
    let a1 = pairs.iter().filter(|(a, _)| *a == 1).count() as f64 / n;
    let b1 = pairs.iter().filter(|(_, b)| *b == 1).count() as f64 / n;
    let chance = a1 * b1 + (1.0 - a1) * (1.0 - b1);
    (chance < 1.0).then(|| (agree - chance) / (1.0 - chance))
}

/// The mark an expert gives unit `k` of a sheet (before any flip).
fn mark(k: usize) -> u8 {
    u8::from(k % 3 != 1)
}

#[tokio::test]
async fn panel_decisions_are_marked_blind_adjudicated_and_compared_per_dimension() {
    let app = TestApp::with_demo().await;
    for (name, role) in [
        ("admin", Role::Admin),
        ("expert-a", Role::Expert),
        ("expert-b", Role::Expert),
    ] {
        app.user(name, role, PASSWORD).await;
    }
    let admin = app.sign_in("admin", PASSWORD).await;
    let a = app.sign_in("expert-a", PASSWORD).await;
    let b = app.sign_in("expert-b", PASSWORD).await;

    let created = ok::<CreateReviewItems>(
        &app,
        &admin,
        &[
            ("kind", "rubric_verdict"),
            ("benchmark", "dlawbench"),
            ("per_model", "1"),
            ("cap", "4"),
            ("seed", "2"),
        ],
    )
    .await;
    assert_eq!(created["created"], 4, "one session of each style");
    let bad = call::<CreateReviewItems>(
        &app,
        &admin,
        &[("kind", "rubric_verdict"), ("benchmark", "lexpilot")],
    )
    .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.body);
    assert_eq!(ok::<AssignReviews>(&app, &admin, &[]).await, 8);

    let queue = ok::<MyQueue>(&app, &a, &[]).await;
    let items: Vec<Value> = queue["todo"].as_array().expect("todo").clone();
    assert_eq!(items.len(), 4);
    let mut styles: Vec<&str> = items.iter().filter_map(|i| i["target"].as_str()).collect();
    styles.sort();
    assert_eq!(
        styles,
        ["adversarial", "cooperative", "dependent", "withdrawn"]
    );

    // What the expert sees: the interview and the rubric as 0/1 marks, no
    // panel; the judge label only once they have submitted.
    let mut sheets: BTreeMap<i64, Vec<(String, String)>> = BTreeMap::new();
    for item in &items {
        let id = item["id"].as_i64().expect("id");
        let view = ok::<GetReviewItem>(&app, &a, &[("id", &id.to_string())]).await;
        assert_eq!(view["input"]["benchmark"], "dlawbench");
        assert!(view["revealed"].is_null(), "blind before submitting");
        let input = view["input"].to_string();
        assert!(
            !input.contains("rationale") && !input.contains("\"decisions\""),
            "{input}"
        );
        assert!(view["input"]["dialogue"]
            .as_array()
            .is_some_and(|d| !d.is_empty()));
        assert!(view["input"]["memo"].is_string());
        let units: Vec<(String, String)> = view["input"]["sheet"]["units"]
            .as_array()
            .expect("units")
            .iter()
            .map(|u| {
                assert_eq!(
                    (u["max"].as_f64(), u["step"].as_f64()),
                    (Some(1.0), Some(1.0))
                );
                (
                    u["key"].as_str().unwrap_or_default().to_owned(),
                    u["group"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect();
        assert!(
            units.iter().any(|(_, g)| g == "inquiry") && units.iter().any(|(_, g)| g == "issue")
        );
        sheets.insert(id, units);
    }

    // The session's panel is kept back from the expert's drill-down, not
    // from the admin's.
    let first = &items[0];
    let first_id = first["id"].as_i64().expect("id");
    let (model, run, case_id, style): (String, i64, String, String) =
        sqlx::query_as("SELECT model, run_number, case_id, target FROM review_items WHERE id = $1")
            .bind(first_id)
            .fetch_one(app.db.pool())
            .await
            .expect("the item");
    let stored: String = sqlx::query_scalar(
        "SELECT items FROM runs WHERE benchmark = 'dlawbench' AND model = $1 AND run_number = $2",
    )
    .bind(&model)
    .bind(run)
    .fetch_one(app.db.pool())
    .await
    .expect("the run");
    let index = stored
        .lines()
        .filter(|l| l.contains("\"kind\":\"session\"") || l.contains("\"kind\": \"session\""))
        .position(|l| {
            let v: Value = serde_json::from_str(l).expect("JSON");
            v["case_id"] == case_id.as_str() && v["style"] == style.as_str()
        })
        .expect("the session in its run");
    let session = |cookie: String| {
        let (model, app) = (model.clone(), &app);
        async move {
            let pairs = [
                ("model", model.as_str()),
                ("run", &run.to_string()),
                ("index", &index.to_string()),
            ];
            ok::<DlawSession>(app, &cookie, &pairs).await
        }
    };
    let blind = session(a.clone()).await;
    assert_eq!(blind["detail"]["panel_hidden"], true, "{blind}");
    assert_eq!(blind["detail"]["judges"], serde_json::json!([]));
    let open = session(admin.clone()).await;
    assert_eq!(open["detail"]["panel_hidden"], false);
    assert!(open["detail"]["judges"]
        .as_array()
        .is_some_and(|j| !j.is_empty()));

    // Both experts mark every unit; B flips the first unit of the first item.
    let label = |units: &[(String, String)], flip: bool| -> String {
        units
            .iter()
            .enumerate()
            .map(|(k, (key, _))| {
                let m = mark(k) ^ u8::from(flip && k == 0);
                format!("{key}={m}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (id, units) in &sheets {
        let id_text = id.to_string();
        for (who, flip) in [(&a, false), (&b, *id == first_id)] {
            let pairs = [
                ("id", id_text.as_str()),
                ("label", &label(units, flip)),
                ("comment", ""),
            ];
            ok::<SubmitReview>(&app, who, &pairs).await;
        }
    }
    // A mark that is not 0 or 1 is refused, naming the unit.
    let (id, units) = sheets.iter().next().expect("an item");
    let wrong = label(units, false)
        .replacen("=1", "=2", 1)
        .replacen("=0", "=2", 1);
    let refused = call::<SubmitReview>(
        &app,
        &a,
        &[("id", &id.to_string()), ("label", &wrong), ("comment", "")],
    )
    .await;
    assert_ne!(refused.status, StatusCode::OK);
    // The disagreement goes to the admin, who adopts A's marks.
    let pairs = [
        ("id", first_id.to_string()),
        ("label", label(&sheets[&first_id], false)),
        ("reason", "the memo does make the point".to_owned()),
    ];
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    ok::<Adjudicate>(&app, &admin, &pairs).await;
    // Once final, the session's panel is shown again.
    assert_eq!(session(a.clone()).await["detail"]["panel_hidden"], false);

    // The expected figures, counted here from the stored panel labels.
    let mut judge_pairs: BTreeMap<String, Vec<(u8, u8)>> = BTreeMap::new();
    let mut human_pairs: BTreeMap<String, Vec<(u8, u8)>> = BTreeMap::new();
    let mut ties: BTreeMap<String, usize> = BTreeMap::new();
    for (id, units) in &sheets {
        let judge: String =
            sqlx::query_scalar("SELECT judge_label FROM review_items WHERE id = $1")
                .bind(id)
                .fetch_one(app.db.pool())
                .await
                .expect("judge label");
        let judge: Value = serde_json::from_str(&judge).expect("JSON");
        for (k, (key, group)) in units.iter().enumerate() {
            let last = mark(k);
            match judge[key].as_u64() {
                Some(j) => judge_pairs
                    .entry(group.clone())
                    .or_default()
                    .push((j as u8, last)),
                None => *ties.entry(group.clone()).or_default() += 1,
            }
            let other = last ^ u8::from(*id == first_id && k == 0);
            human_pairs
                .entry(group.clone())
                .or_default()
                .push((last, other));
        }
    }
    let board = ok::<LoadReviewDashboard>(&app, &admin, &[]).await;
    let rows: Vec<&Value> = board["sheets"]
        .as_array()
        .expect("sheets")
        .iter()
        .filter(|r| r["benchmark"] == "dlawbench" && r["unit"].is_string())
        .collect();
    let dimensions: Vec<&str> = rows.iter().filter_map(|r| r["unit"].as_str()).collect();
    assert_eq!(dimensions, ["inquiry", "issue"]);
    for row in rows {
        let dim = row["unit"].as_str().expect("dimension");
        let judged = &judge_pairs[dim];
        assert_eq!(row["n_items"], 4);
        assert_eq!(row["judge"]["n"], judged.len(), "{dim}");
        assert_eq!(
            row["judge_left_out"],
            ties.get(dim).copied().unwrap_or(0),
            "{dim}"
        );
        let exact = judged.iter().filter(|(j, f)| j == f).count() as f64 / judged.len() as f64;
        assert!((row["judge"]["exact"].as_f64().expect("exact") - exact).abs() < 1e-12);
        match kappa(judged) {
            Some(k) => assert!(
                (row["judge"]["kappa"].as_f64().expect("kappa") - k).abs() < 1e-12,
                "{dim}: {row}"
            ),
            None => assert!(row["judge"]["kappa"].is_null()),
        }
        let humans = &human_pairs[dim];
        assert_eq!(row["human"]["n"], humans.len());
        match kappa(humans) {
            Some(k) => assert!((row["human"]["kappa"].as_f64().expect("kappa") - k).abs() < 1e-12),
            None => assert!(row["human"]["kappa"].is_null()),
        }
    }
    // The page shows the table.
    let page = app.get_with_cookie("/review/agreement", Some(&admin)).await;
    assert!(
        page.body.contains("data-testid=\"panel-table\""),
        "{}",
        page.body
    );
}
