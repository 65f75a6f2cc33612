//! DLawBench's human check of the client simulator over HTTP, on the demo
//! runs: an admin draws sessions of one run stratified by style (bad input
//! refused with a reason), two experts name each simulated client's style
//! blind through the review forms, and the dashboard's accuracy and Fleiss'
//! kappa per style (and overall, beside the paper's 96.9% and 0.917) are
//! checked against an independent count here.

mod common;

use std::collections::BTreeMap;

use axum::http::StatusCode;
use common::{TestApp, TestResponse};
use engine::accounts::Role;
use leptos::server_fn::ServerFn;
use serde_json::Value;

use app::server_fns::dlawbench::{DlawCell, DlawSession};
use app::server_fns::review::{
    AssignReviews, CreateReviewItems, GetReviewItem, LoadReviewDashboard, MyQueue, SubmitReview,
};

const PASSWORD: &str = "a-long-password";
const MODEL: &str = "Sim-Frontier-5 (simulated)";
const STYLES: [&str; 4] = ["cooperative", "dependent", "withdrawn", "adversarial"];

async fn call<F: ServerFn>(app: &TestApp, cookie: &str, pairs: &[(&str, &str)]) -> TestResponse {
    app.call::<F>(Some(cookie), pairs).await
}

async fn ok<F: ServerFn>(app: &TestApp, cookie: &str, pairs: &[(&str, &str)]) -> Value {
    app.ok::<F>(Some(cookie), pairs).await
}

/// Fleiss' kappa from its definition (mean per-subject agreement against
/// the chance agreement of the pooled category shares), written out here
/// apart from the engine; every subject has `labels.len()` raters.
fn fleiss(subjects: &[Vec<&str>]) -> Option<f64> {
    let n = subjects.first()?.len() as f64;
    let big_n = subjects.len() as f64;
    let mut shares = [0.0; 4];
    let mut p_bar = 0.0;
    for labels in subjects {
        let counts: Vec<f64> = STYLES
            .iter()
            .map(|s| labels.iter().filter(|l| *l == s).count() as f64)
            .collect();
        for (share, c) in shares.iter_mut().zip(&counts) {
            *share += c / (big_n * n);
        }
        p_bar += (counts.iter().map(|c| c * c).sum::<f64>() - n) / (n * (n - 1.0)) / big_n;
    }
    let p_e: f64 = shares.iter().map(|p| p * p).sum();
    (p_e < 1.0 - 1e-12).then(|| (p_bar - p_e) / (1.0 - p_e))
}

fn close(got: &Value, want: Option<f64>, what: &str) {
    match want {
        Some(w) => {
            let g = got.as_f64().unwrap_or_else(|| panic!("{what}: {got}"));
            assert!((g - w).abs() < 1e-9, "{what}: {g} vs {w}");
        }
        None => assert!(got.is_null(), "{what}: {got}"),
    }
}

async fn setup(app: &TestApp) -> (String, String, String) {
    for (name, role) in [
        ("admin", Role::Admin),
        ("expert-a", Role::Expert),
        ("expert-b", Role::Expert),
    ] {
        app.user(name, role, PASSWORD).await;
    }
    (
        app.sign_in("admin", PASSWORD).await,
        app.sign_in("expert-a", PASSWORD).await,
        app.sign_in("expert-b", PASSWORD).await,
    )
}

#[tokio::test]
async fn experts_name_the_simulated_style_blind_and_the_figures_are_per_style() {
    let app = TestApp::with_demo().await;
    let (admin, a, b) = setup(&app).await;

    let (run1, run9) = (format!("{MODEL} #1"), format!("{MODEL} #9"));
    // Bad input: a run not stored, a run number not stored, more per style
    // than the run has, a count of 0, an expert creating.
    for (pairs, needle) in [
        (
            vec![("kind", "client_style"), ("run", "No-Such-Model")],
            "No-Such-Model",
        ),
        (vec![("kind", "client_style"), ("run", &run9)], "#9"),
        (
            vec![
                ("kind", "client_style"),
                ("run", &run1),
                ("per_model", "13"),
            ],
            "13",
        ),
        (
            vec![("kind", "client_style"), ("per_model", "0")],
            "per_style",
        ),
    ] {
        let refused = call::<CreateReviewItems>(&app, &admin, &pairs).await;
        assert_eq!(
            refused.status,
            StatusCode::BAD_REQUEST,
            "{pairs:?}: {}",
            refused.body
        );
        assert!(refused.body.contains(needle), "{pairs:?}: {}", refused.body);
    }
    let zh = app
        .call::<CreateReviewItems>(
            Some(&format!("{admin}; lang=zh")),
            &[("kind", "client_style"), ("run", "No-Such-Model")],
        )
        .await;
    assert!(
        zh.body.contains("没有已存储的 DLawBench 运行"),
        "{}",
        zh.body
    );
    let forbidden = call::<CreateReviewItems>(&app, &a, &[("kind", "client_style")]).await;
    assert_ne!(forbidden.status, StatusCode::OK);

    let pairs = [
        ("kind", "client_style"),
        ("run", &run1),
        ("per_model", "2"),
        ("cap", "8"),
        ("seed", "3"),
    ];
    let created = ok::<CreateReviewItems>(&app, &admin, &pairs).await;
    assert_eq!(created["created"], 8, "two sessions of each style");
    let again = ok::<CreateReviewItems>(&app, &admin, &pairs).await;
    assert_eq!(
        (again["created"].as_u64(), again["existing"].as_u64()),
        (Some(0), Some(8))
    );
    assert_eq!(ok::<AssignReviews>(&app, &admin, &[]).await, 16);

    // The gold, as stored (the experts never see it before submitting).
    let stored: Vec<(i64, String, String, String)> = sqlx::query_as(
        "SELECT id, judge_label, target, case_id FROM review_items
         WHERE kind = 'client_style' ORDER BY id",
    )
    .fetch_all(app.db.pool())
    .await
    .expect("items");
    let gold: BTreeMap<i64, String> = stored
        .iter()
        .map(|(id, g, _, _)| (*id, g.clone()))
        .collect();
    let mut per_style = BTreeMap::new();
    for g in gold.values() {
        *per_style.entry(g.as_str()).or_insert(0) += 1;
    }
    assert_eq!(
        per_style.values().copied().collect::<Vec<_>>(),
        [2, 2, 2, 2]
    );

    // Until the review closes, the DLawBench drill-downs do not give a
    // session's style away to anyone but admins: its style's cell does not
    // list it, and its page is refused.
    let (style, case) = (stored[0].1.as_str(), stored[0].3.as_str());
    let cell = [("model", MODEL), ("metric", "inquiry"), ("style", style)];
    let listed = |cell: &Value| -> Vec<(u64, String, u64)> {
        cell["cell"]["runs"]
            .as_array()
            .expect("runs")
            .iter()
            .flat_map(|r| {
                let run = r["run"].as_u64().expect("run");
                r["sessions"]
                    .as_array()
                    .expect("sessions")
                    .iter()
                    .map(move |s| {
                        let case = s["case_id"].as_str().expect("case").to_owned();
                        (run, case, s["index"].as_u64().expect("index"))
                    })
            })
            .collect()
    };
    let full = listed(&ok::<DlawCell>(&app, &admin, &cell).await);
    let index = full
        .iter()
        .find(|(run, c, _)| *run == 1 && c == case)
        .map(|(_, _, index)| index.to_string())
        .expect("admins see the session in its style's cell");
    let blind = ok::<DlawCell>(&app, &a, &cell).await;
    let open_of_style: Vec<&str> = stored
        .iter()
        .filter(|(_, g, _, _)| g == style)
        .map(|(_, _, _, c)| c.as_str())
        .collect();
    assert_eq!(open_of_style.len(), 2);
    assert!(
        listed(&blind)
            .iter()
            .all(|(run, c, _)| *run != 1 || !open_of_style.contains(&c.as_str())),
        "{blind}"
    );
    assert_eq!(listed(&blind).len(), full.len() - 2);
    assert_eq!(blind["cell"]["under_style_review"], 2);
    let session = [("model", MODEL), ("run", "1"), ("index", index.as_str())];
    let refused = call::<DlawSession>(&app, &a, &session).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert!(refused.body.contains("blind"), "{}", refused.body);
    let page = app
        .get_with_cookie(
            &format!(
                "/dlawbench/leaderboard/sessions?model={}&metric=inquiry&style={style}&lang=en",
                MODEL
                    .replace(' ', "%20")
                    .replace('(', "%28")
                    .replace(')', "%29")
            ),
            Some(&a),
        )
        .await;
    assert!(
        page.body.contains("data-testid=\"style-review-left-out\""),
        "{}",
        page.body
    );
    assert_eq!(
        ok::<DlawSession>(&app, &admin, &session).await["detail"]["case_id"],
        case
    );

    let queue = ok::<MyQueue>(&app, &a, &[]).await;
    let items = queue["todo"].as_array().expect("todo").clone();
    assert_eq!(items.len(), 8);
    for item in &items {
        let id = item["id"].as_i64().expect("id");
        let shown = item.to_string();
        assert!(
            STYLES.iter().all(|s| !shown.contains(s)),
            "queue names the style: {shown}"
        );
        let view = ok::<GetReviewItem>(&app, &a, &[("id", &id.to_string())]).await;
        assert!(view["revealed"].is_null(), "blind before submitting");
        // The session id (`s3-002`) may name the style's position.
        assert!(
            view["target"].is_null(),
            "the session, before submitting: {view}"
        );
        let input = view["input"].to_string();
        assert!(
            STYLES.iter().all(|s| !input.contains(s)) && !input.contains(MODEL),
            "{input}"
        );
        assert_eq!(view["labels"], serde_json::json!(STYLES));
        let turns = view["input"]["turns"].as_array().expect("turns");
        assert!(turns.iter().any(|t| t["role"] == "client"));
    }

    // A names every style right but one; B gets two wrong (a different
    // pair). A label outside the four styles is refused.
    let ids: Vec<i64> = gold.keys().copied().collect();
    let wrong = |style: &str| -> String {
        let at = STYLES.iter().position(|s| *s == style).expect("a style");
        STYLES[(at + 1) % 4].to_owned()
    };
    let mut labels: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    for (k, id) in ids.iter().enumerate() {
        let g = &gold[id];
        let la = if k == 0 { wrong(g) } else { g.clone() };
        let lb = if k == 0 || k == 5 || k == 6 {
            wrong(g)
        } else {
            g.clone()
        };
        labels.insert(*id, vec![la, lb]);
    }
    let refused = call::<SubmitReview>(
        &app,
        &a,
        &[
            ("id", &ids[0].to_string()),
            ("label", "shy"),
            ("comment", ""),
        ],
    )
    .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    for (id, pair) in &labels {
        for (who, label) in [(&a, &pair[0]), (&b, &pair[1])] {
            let id = id.to_string();
            ok::<SubmitReview>(&app, who, &[("id", &id), ("label", label), ("comment", "")]).await;
        }
    }
    // Once submitted, the simulated style shows.
    let view = ok::<GetReviewItem>(&app, &a, &[("id", &ids[1].to_string())]).await;
    assert_eq!(view["revealed"]["judge_label"], gold[&ids[1]].as_str());
    assert!(
        view["target"].is_string(),
        "the session, once revealed: {view}"
    );

    // The expected figures, counted here.
    let board = ok::<LoadReviewDashboard>(&app, &admin, &[]).await;
    let figures = &board["client_style"];
    assert!(figures.is_object(), "{board}");
    let expect = |style: Option<&str>| -> (usize, usize, f64, Option<f64>) {
        let of: Vec<&i64> = ids
            .iter()
            .filter(|id| style.is_none_or(|s| gold[*id] == s))
            .collect();
        let all: Vec<(&String, &String)> = of
            .iter()
            .flat_map(|id| {
                let g = &gold[*id];
                labels[*id].iter().map(move |l| (l, g))
            })
            .collect();
        let correct = all.iter().filter(|(l, g)| l == g).count();
        let subjects: Vec<Vec<&str>> = of
            .iter()
            .map(|id| labels[*id].iter().map(String::as_str).collect())
            .collect();
        (
            of.len(),
            all.len(),
            correct as f64 / all.len() as f64,
            fleiss(&subjects),
        )
    };
    let rows = figures["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 4);
    for (row, style) in rows.iter().zip(STYLES) {
        assert_eq!(row["style"], style);
        let (n, n_labels, accuracy, kappa) = expect(Some(style));
        assert_eq!(
            (row["segments"].as_u64(), row["labels"].as_u64()),
            (Some(n as u64), Some(n_labels as u64))
        );
        close(&row["accuracy"], Some(accuracy), style);
        close(&row["kappa"], kappa, style);
    }
    let (n, n_labels, accuracy, kappa) = expect(None);
    let overall = &figures["overall"];
    assert_eq!(
        (overall["segments"].as_u64(), overall["labels"].as_u64()),
        (Some(n as u64), Some(n_labels as u64))
    );
    assert_eq!((n, n_labels), (8, 16));
    close(&overall["accuracy"], Some(accuracy), "overall");
    assert!((accuracy - 12.0 / 16.0).abs() < 1e-12);
    close(&overall["kappa"], kappa, "overall");
    assert!(kappa.is_some());
    assert_eq!(figures["paper_accuracy"], 0.969);
    assert_eq!(figures["paper_kappa"], 0.917);

    // The dashboard page shows them beside the paper's, in both languages.
    let page = app
        .get_with_cookie("/review/agreement?lang=en", Some(&admin))
        .await;
    for needle in [
        "data-testid=\"client-style-table\"",
        "96.9%",
        "0.917",
        "Withdrawn",
        "paper",
    ] {
        assert!(page.body.contains(needle), "{needle}: {}", page.body);
    }
    let page = app.get_with_cookie("/review/agreement", Some(&admin)).await;
    for needle in ["模拟风格", "退缩型", "论文", "table=client_style"] {
        assert!(page.body.contains(needle), "{needle}");
    }
    // Its export holds the same figures: per style, overall, the paper's.
    let csv = app
        .get_with_cookie(
            "/api/export/review/agreement?table=client_style&format=csv&lang=en",
            Some(&admin),
        )
        .await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.body);
    let lines: Vec<&str> = csv.body.trim_start_matches('\u{feff}').lines().collect();
    assert!(
        lines[0].starts_with("Simulated style,Segments,Labels,Accuracy"),
        "{}",
        csv.body
    );
    assert_eq!(lines.len(), 1 + 4 + 2, "{}", csv.body);
    assert!(lines[5].starts_with("Overall,8,16,0.75,"), "{}", csv.body);
    assert!(
        lines[6].starts_with("Paper (all styles),,,0.969,0.917"),
        "{}",
        csv.body
    );
    // The item page reads as plain text, the client's turns first-class.
    let page = app
        .get_with_cookie(&format!("/review/items/{}", ids[2]), Some(&b))
        .await;
    assert!(
        page.body.contains("data-testid=\"client-style-turns\""),
        "{}",
        page.body
    );
}

#[tokio::test]
async fn a_dataset_without_a_run_is_refused_with_a_reason() {
    let app = TestApp::with_demo().await;
    let (admin, _, _) = setup(&app).await;
    sqlx::query("DELETE FROM runs WHERE benchmark = 'dlawbench'")
        .execute(app.db.pool())
        .await
        .expect("delete the runs");
    let refused = call::<CreateReviewItems>(&app, &admin, &[("kind", "client_style")]).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
    assert!(
        refused.body.contains("no DLawBench run"),
        "{}",
        refused.body
    );
}
