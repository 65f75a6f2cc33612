//! The exports of the drill-downs, the compare page, the model page and the
//! agreement dashboard (`GET /api/export/…`): each file holds the rows its
//! page shows (every page of them), with the page's filters, permission and
//! blind-review rules, as CSV, JSON or LaTeX; and each page links them.

mod common;

use std::collections::BTreeMap;

use axum::http::{header, StatusCode};
use common::{enc, Team, TestApp, TestResponse};
use engine::lang::Lang;
use engine::vocab::Verdict;
use leptos::server_fn::ServerFn;
use serde_json::Value;

use app::server_fns::dlawbench::DlawCell;
use app::server_fns::drilldown::GetCellItems;
use app::server_fns::models::{Compare, GetModel};
use app::server_fns::plawbench::PlawCell;
use app::server_fns::review::{AssignReviews, CreateReviewItems, LoadReviewDashboard};

const LEX: &str = "Sim-Frontier-2 (simulated)";
const LEX_B: &str = "Sim-OpenChat-72B (simulated)";
const PLAW: &str = "Sim-Frontier-3 (simulated)";
const DLAW: &str = "Sim-Frontier-5 (simulated)";

/// Server function `F` called as its page calls it (a url-encoded post).
async fn call<F: ServerFn>(app: &TestApp, cookie: Option<&str>, pairs: &[(&str, &str)]) -> Value {
    app.ok::<F>(cookie, pairs).await
}

/// `path` with the query `pairs`, percent-encoded.
fn url(path: &str, pairs: &[(&str, &str)]) -> String {
    let query: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", enc(v)))
        .collect();
    format!("{path}?{}", query.join("&"))
}

/// A download of `extension` with `content_type`.
fn assert_file(res: &TestResponse, content_type: &str, extension: &str) {
    assert_eq!(res.status, StatusCode::OK, "{}", res.body);
    assert_eq!(res.headers[header::CONTENT_TYPE], content_type);
    let disposition = res.headers[header::CONTENT_DISPOSITION]
        .to_str()
        .expect("ASCII");
    assert!(
        disposition.starts_with("attachment; filename=\"")
            && disposition.contains(&format!(".{extension}\"; filename*=UTF-8''")),
        "{disposition}"
    );
}

/// A CSV download: its header and rows, each a map from header to value.
fn csv_table(res: &TestResponse) -> (Vec<String>, Vec<BTreeMap<String, String>>) {
    assert_file(res, "text/csv; charset=utf-8", "csv");
    assert!(
        res.body.starts_with('\u{feff}'),
        "a byte-order mark for Excel"
    );
    let mut reader = csv::Reader::from_reader(res.body.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader
        .records()
        .map(|r| {
            let r = r.expect("a record");
            header
                .iter()
                .cloned()
                .zip(r.iter().map(str::to_owned))
                .collect()
        })
        .collect();
    (header, rows)
}

async fn count(app: &TestApp, sql: &str, bind: &str) -> usize {
    let n: i64 = sqlx::query_scalar(sql)
        .bind(bind)
        .fetch_one(app.db.pool())
        .await
        .expect("count");
    n as usize
}

/// Every page of a LexPilot drill-down, its cases in one list.
async fn every_case(app: &TestApp, cookie: Option<&str>, pairs: &[(&str, &str)]) -> Value {
    let mut drill = call::<GetCellItems>(app, cookie, pairs).await;
    let pages = drill["cases_page"]["total"]
        .as_u64()
        .expect("total")
        .div_ceil(drill["cases_page"]["per_page"].as_u64().expect("per page"));
    for page in 2..=pages {
        let n = page.to_string();
        let mut paged = pairs.to_vec();
        paged.push(("page", &n));
        let next = call::<GetCellItems>(app, cookie, &paged).await;
        let cases = next["drill"]["cases"].as_array().expect("cases").clone();
        drill["drill"]["cases"]
            .as_array_mut()
            .expect("cases")
            .extend(cases);
    }
    drill
}

/// (case, consultation, run) → (label, outcome) of every LCA item the pages show.
fn lca_items(drill: &Value) -> BTreeMap<(String, String, u64), (String, String)> {
    let runs: Vec<u64> = drill["drill"]["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .map(|t| t["run"].as_u64().expect("run"))
        .collect();
    let mut items = BTreeMap::new();
    for case in drill["drill"]["cases"].as_array().expect("cases") {
        for row in case["items"]["consultations"].as_array().expect("rows") {
            for (run, cell) in runs.iter().zip(row["runs"].as_array().expect("cells")) {
                items.insert(
                    (
                        case["case_id"].as_str().expect("id").to_owned(),
                        row["gold"].as_str().expect("gold").to_owned(),
                        *run,
                    ),
                    (
                        cell["label"].as_str().unwrap_or_default().to_owned(),
                        cell["outcome"]["status"]
                            .as_str()
                            .expect("status")
                            .to_owned(),
                    ),
                );
            }
        }
    }
    items
}

/// The same items as an export writes them (English labels).
fn lca_rows(
    rows: &[BTreeMap<String, String>],
) -> BTreeMap<(String, String, u64), (String, String)> {
    let word = |status: &str| match status {
        "correct" => "correct",
        "wrong" => "incorrect",
        "unavailable" => "unavailable",
        _ => "under review",
    };
    let consultation = |label: &str| {
        engine::vocab::Consultation::ALL
            .into_iter()
            .find(|c| c.label(Lang::En) == label)
            .expect("a consultation")
            .as_str()
            .to_owned()
    };
    let label = |label: &str| {
        engine::vocab::LcaLabel::ALL
            .into_iter()
            .find(|l| l.label(Lang::En) == label)
            .map(|l| l.as_str().to_owned())
            .unwrap_or_default()
    };
    rows.iter()
        .map(|r| {
            let outcome = ["correct", "wrong", "unavailable", "hidden"]
                .into_iter()
                .find(|s| word(s) == r["Outcome"])
                .expect("an outcome");
            (
                (
                    r["Case"].clone(),
                    consultation(&r["Consultation (gold)"]),
                    r["Run"].parse().expect("a run"),
                ),
                (label(&r["Label"]), outcome.to_owned()),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_lexpilot_drilldown_exports_every_case_of_every_page() {
    let app = TestApp::with_demo().await;
    let pairs = [("model", LEX), ("task", "lca")];
    let drill = every_case(&app, None, &pairs).await;
    let shown = lca_items(&drill);
    assert_eq!(
        shown.len(),
        72 * 2 * 3,
        "72 cases on three pages, two consultations, three runs"
    );

    let res = app
        .get(&url(
            "/api/export/leaderboard/items",
            &[
                ("model", LEX),
                ("task", "lca"),
                ("format", "csv"),
                ("lang", "en"),
            ],
        ))
        .await;
    let (header, rows) = csv_table(&res);
    assert_eq!(
        header,
        [
            "Case",
            "Cause",
            "Class",
            "Consultation (gold)",
            "Wants",
            "Run",
            "Label",
            "Outcome",
            "Why unavailable",
            "Response"
        ]
    );
    assert_eq!(
        lca_rows(&rows),
        shown,
        "the rows of every page, as the pages show them"
    );
    let disposition = res.headers[header::CONTENT_DISPOSITION]
        .to_str()
        .expect("ASCII");
    assert!(
        disposition.contains("Sim-Frontier-2-simulated-lca-overall-items.csv"),
        "{disposition}"
    );

    // JSON: the same rows, keyed by column id.
    let json = app
        .get(&url(
            "/api/export/leaderboard/items",
            &[("model", LEX), ("task", "lca"), ("format", "json")],
        ))
        .await;
    assert_file(&json, "application/json", "json");
    let json = json.json();
    assert_eq!(json["rows"].as_array().map(Vec::len), Some(shown.len()));
    assert_eq!(
        json["columns"][0],
        serde_json::json!({"id": "case_id", "label": "Case"})
    );
    assert_eq!(json["rows"][0]["case_id"], "DEMO-0001");

    // The runs' tallies, as the page counts them.
    let (_, tallies) = csv_table(
        &app.get(&url(
            "/api/export/leaderboard/items",
            &[("model", LEX), ("task", "lca"), ("table", "runs")],
        ))
        .await,
    );
    for (row, tally) in tallies
        .iter()
        .zip(drill["drill"]["runs"].as_array().expect("runs"))
    {
        assert_eq!(row["Correct"], tally["correct"].to_string());
        assert_eq!(row["Incorrect"], tally["wrong"].to_string());
    }

    // Replies are not typeset; a cell without a confusion matrix has none.
    for (table, format) in [("items", "latex"), ("confusion", "csv"), ("nope", "csv")] {
        let bad = app
            .get(&url(
                "/api/export/leaderboard/items",
                &[
                    ("model", LEX),
                    ("task", "lca"),
                    ("table", table),
                    ("format", format),
                ],
            ))
            .await;
        assert_eq!(
            bad.status,
            StatusCode::BAD_REQUEST,
            "{table} {format}: {}",
            bad.body
        );
    }
    let nobody = app
        .get(&url(
            "/api/export/leaderboard/items",
            &[("model", "Nobody"), ("task", "lca")],
        ))
        .await;
    assert_eq!(nobody.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_ljp_export_keeps_the_pages_filters_and_its_confusion_matrix() {
    let app = TestApp::with_demo().await;
    let cell = [
        ("model", LEX),
        ("task", "ljp"),
        ("setup", "gold"),
        ("class", "family"),
    ];
    let drill = every_case(&app, None, &cell).await;
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut pairs = cell.to_vec();
        pairs.extend_from_slice(extra);
        url("/api/export/leaderboard/items", &pairs)
    };

    let (header, rows) = csv_table(&app.get(&with(&[("lang", "zh")])).await);
    assert_eq!(
        header[..6],
        ["案例", "案由", "类别", "诉请", "诉请内容", "真实判决"]
    );
    assert!(
        rows.iter().all(|r| r["类别"] == "婚姻家庭、继承纠纷"),
        "only the class's cases"
    );
    let claims: usize = drill["drill"]["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| c["items"]["claims"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(rows.len(), claims * 3, "a row per claim and run");
    // A few values: the predictions of the first case, as the page shows them.
    let first = &drill["drill"]["cases"][0];
    for (claim_row, claim) in first["items"]["claims"]
        .as_array()
        .expect("claims")
        .iter()
        .enumerate()
    {
        for (run, cell) in claim["runs"].as_array().expect("runs").iter().enumerate() {
            let predicted = cell["predicted"]
                .as_str()
                .and_then(Verdict::parse)
                .map(|v| v.label(Lang::Zh))
                .unwrap_or_default();
            let row = rows
                .iter()
                .filter(|r| r["案例"] == first["case_id"].as_str().expect("id"))
                .filter(|r| r["诉请"] == claim["id"].as_str().expect("claim"))
                .nth(run)
                .expect("the row");
            assert_eq!(row["预测判决"], predicted, "claim {claim_row} run {run}");
            assert_eq!(row["运行"], (run + 1).to_string());
        }
    }

    // The confusion matrix: the page's counts, in LaTeX too.
    let (_, matrix) = csv_table(&app.get(&with(&[("table", "confusion")])).await);
    assert_eq!(matrix.len(), 3);
    let counts = &drill["drill"]["confusion"];
    for (g, row) in matrix.iter().enumerate() {
        for (p, verdict) in Verdict::ALL.into_iter().enumerate() {
            assert_eq!(
                row[&format!("Predicted: {}", verdict.label(Lang::En))],
                counts[g][p].to_string()
            );
        }
    }
    let tex = app
        .get(&with(&[("table", "confusion"), ("format", "latex")]))
        .await;
    assert_file(&tex, "application/x-tex; charset=utf-8", "tex");
    assert!(
        tex.body.contains("\\begin{tabular}{lrrrr}") && tex.body.contains("Gold verdict"),
        "{}",
        tex.body
    );

    // The page links each table with its state and its language.
    let page = app.get(&url("/leaderboard/items", &cell)).await.body;
    for table in ["items", "runs", "confusion"] {
        assert!(
            page.contains(&format!(
                "href=\"/api/export/leaderboard/items?model=Sim-Frontier-2%20%28simulated%29&amp;task=ljp&amp;setup=gold&amp;class=family&amp;table={table}&amp;format=csv&amp;lang=en\""
            )),
            "{table}"
        );
    }
}

/// Six LCA judge verdicts open for review (two per model), assigned.
async fn open_lca_verdicts(t: &Team) {
    let created = call::<CreateReviewItems>(
        &t.app,
        Some(&t.admin),
        &[
            ("kind", "judge_verdict"),
            ("task", "lca"),
            ("per_model", "2"),
            ("cap", "6"),
            ("seed", "11"),
        ],
    )
    .await;
    assert_eq!(created["created"], 6, "{created}");
    call::<AssignReviews>(&t.app, Some(&t.admin), &[]).await;
}

#[tokio::test]
async fn the_drilldown_export_keeps_back_what_the_page_keeps_back() {
    let t = Team::demo().await;
    open_lca_verdicts(&t).await;
    let open = count(
        &t.app,
        "SELECT COUNT(*) FROM review_items WHERE model = $1 AND task = 'lca'",
        LEX,
    )
    .await;
    assert!(open > 0);
    let pairs = [("model", LEX), ("task", "lca")];
    let export = url(
        "/api/export/leaderboard/items",
        &[("model", LEX), ("task", "lca"), ("lang", "en")],
    );
    for viewer in [
        None,
        Some(t.expert_a.as_str()),
        Some(t.researcher.as_str()),
        Some(t.admin.as_str()),
    ] {
        let shown = lca_items(&every_case(&t.app, viewer, &pairs).await);
        let (_, rows) = csv_table(&t.app.get_with_cookie(&export, viewer).await);
        let written = lca_rows(&rows);
        assert_eq!(written, shown, "what the page shows this viewer");
        let hidden = written
            .values()
            .filter(|(_, outcome)| outcome == "hidden")
            .count();
        let admin = viewer == Some(t.admin.as_str());
        assert_eq!(hidden, if admin { 0 } else { open }, "admin: {admin}");
        assert!(
            written
                .values()
                .filter(|(_, o)| o == "hidden")
                .all(|(label, _)| label.is_empty()),
            "no label of an item under review"
        );
        let json = t
            .app
            .get_with_cookie(&format!("{export}&format=json"), viewer)
            .await
            .json();
        let under_review = json["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .filter(|r| r["outcome"] == "under review")
            .inspect(|r| assert!(r["label"].is_null()))
            .count();
        assert_eq!(under_review, hidden);
    }
}

#[tokio::test]
async fn the_plawbench_drilldown_exports_every_item_and_run_with_review_kept_back() {
    let t = Team::demo().await;
    let created = call::<CreateReviewItems>(
        &t.app,
        Some(&t.admin),
        &[
            ("kind", "rubric_verdict"),
            ("benchmark", "plawbench"),
            ("per_model", "3"),
            ("cap", "12"),
            ("seed", "5"),
        ],
    )
    .await;
    assert!(
        created["created"].as_u64().is_some_and(|n| n > 0),
        "{created}"
    );
    let open = count(
        &t.app,
        "SELECT COUNT(*) FROM review_items WHERE model = $1",
        PLAW,
    )
    .await;
    assert!(open > 0, "the sample holds items of {PLAW}");

    for viewer in [None, Some(t.admin.as_str())] {
        // Every page of the overall cell.
        let first =
            call::<PlawCell>(&t.app, viewer, &[("model", PLAW), ("column", "overall")]).await;
        let pages = first["pages"].as_u64().expect("pages");
        let mut shown: BTreeMap<(String, u64), (String, bool)> = BTreeMap::new();
        for page in 1..=pages {
            let p = page.to_string();
            let view = call::<PlawCell>(
                &t.app,
                viewer,
                &[("model", PLAW), ("column", "overall"), ("page", &p)],
            )
            .await;
            let runs: Vec<u64> = view["drill"]["runs"]
                .as_array()
                .expect("runs")
                .iter()
                .map(|r| r["run"].as_u64().expect("run"))
                .collect();
            for row in view["drill"]["rows"].as_array().expect("rows") {
                for (run, cell) in runs.iter().zip(row["runs"].as_array().expect("cells")) {
                    if cell.is_null() {
                        continue;
                    }
                    let value = cell["value"]
                        .as_f64()
                        .map(|v| format!("{:.6}", v * 100.0))
                        .unwrap_or_default();
                    shown.insert(
                        (row["item_id"].as_str().expect("id").to_owned(), *run),
                        (value, cell["hidden"] == true),
                    );
                }
            }
        }
        let export = url(
            "/api/export/plawbench/leaderboard/items",
            &[("model", PLAW), ("column", "overall")],
        );
        let (header, rows) = csv_table(&t.app.get_with_cookie(&export, viewer).await);
        assert_eq!(
            header[..6],
            ["Item", "Task", "Category", "Points", "Run", "Value (×100)"]
        );
        let written: BTreeMap<(String, u64), (String, bool)> = rows
            .iter()
            .map(|r| {
                let value = r["Value (×100)"]
                    .parse::<f64>()
                    .map(|v| format!("{v:.6}"))
                    .unwrap_or_default();
                (
                    (r["Item"].clone(), r["Run"].parse().expect("run")),
                    (value, r["Status"] == "under review"),
                )
            })
            .collect();
        assert_eq!(written.len(), rows.len());
        assert_eq!(written, shown, "every row of every page, as shown");
        let hidden = written.values().filter(|(_, h)| *h).count();
        if viewer.is_some() {
            assert_eq!(hidden, 0, "admins see every verdict");
        } else {
            assert!(hidden > 0, "items under review are kept back");
            assert!(written
                .values()
                .filter(|(_, h)| *h)
                .all(|(v, _)| v.is_empty()));
        }
        // The run values: none while an item of the run is under review.
        let (_, runs) = csv_table(
            &t.app
                .get_with_cookie(&format!("{export}&table=runs"), viewer)
                .await,
        );
        for (row, run) in runs
            .iter()
            .zip(first["drill"]["runs"].as_array().expect("runs"))
        {
            let value = run["value"].as_f64().filter(|_| run["hidden"] == 0);
            assert_eq!(
                row["Value (×100)"]
                    .parse::<f64>()
                    .ok()
                    .map(|v| format!("{v:.6}")),
                value.map(|v| format!("{:.6}", v * 100.0))
            );
            assert_eq!(row["Under review"], run["hidden"].to_string());
        }
    }

    // A category narrows the rows; LaTeX is there; the page links both tables.
    let category = "婚姻家事";
    let pairs = [("model", PLAW), ("column", "task2"), ("category", category)];
    let (_, rows) = csv_table(
        &t.app
            .get(&url("/api/export/plawbench/leaderboard/items", &pairs))
            .await,
    );
    assert!(!rows.is_empty() && rows.iter().all(|r| r["Category"] == category));
    let mut latex = pairs.to_vec();
    latex.push(("format", "latex"));
    let tex = t
        .app
        .get(&url("/api/export/plawbench/leaderboard/items", &latex))
        .await;
    assert_file(&tex, "application/x-tex; charset=utf-8", "tex");
    let page = t
        .app
        .get(&url("/plawbench/leaderboard/items", &pairs))
        .await
        .body;
    assert!(
        page.contains("data-testid=\"export-items\"")
            && page.contains("data-testid=\"export-runs\"")
    );
    assert!(page.contains(&format!(
        "href=\"/api/export/plawbench/leaderboard/items?model=Sim-Frontier-3%20%28simulated%29&amp;column=task2&amp;category={}&amp;table=items&amp;format=csv&amp;lang=en\"",
        enc(category)
    )));
}

#[tokio::test]
async fn the_dlawbench_drilldown_exports_every_session_with_review_kept_back() {
    let t = Team::demo().await;
    call::<CreateReviewItems>(
        &t.app,
        Some(&t.admin),
        &[
            ("kind", "rubric_verdict"),
            ("benchmark", "dlawbench"),
            ("per_model", "2"),
            ("cap", "8"),
            ("seed", "3"),
        ],
    )
    .await;
    let open = count(
        &t.app,
        "SELECT COUNT(*) FROM review_items WHERE model = $1",
        DLAW,
    )
    .await;
    assert!(open > 0, "the sample holds sessions of {DLAW}");
    let cell = [("model", DLAW), ("metric", "inquiry")];
    for viewer in [None, Some(t.researcher.as_str()), Some(t.admin.as_str())] {
        let view = call::<DlawCell>(&t.app, viewer, &cell).await;
        let shown: Vec<(u64, String, Option<String>, bool)> = view["cell"]["runs"]
            .as_array()
            .expect("runs")
            .iter()
            .flat_map(|run| {
                let number = run["run"].as_u64().expect("run");
                run["sessions"]
                    .as_array()
                    .expect("sessions")
                    .iter()
                    .map(move |s| {
                        (
                            number,
                            s["case_id"].as_str().expect("case").to_owned(),
                            s["value"].as_f64().map(|v| format!("{v:.9}")),
                            s["hidden"] == true,
                        )
                    })
            })
            .collect();
        let (_, rows) = csv_table(
            &t.app
                .get_with_cookie(
                    &url("/api/export/dlawbench/leaderboard/sessions", &cell),
                    viewer,
                )
                .await,
        );
        let written: Vec<(u64, String, Option<String>, bool)> = rows
            .iter()
            .map(|r| {
                (
                    r["Run"].parse().expect("run"),
                    r["Case"].clone(),
                    r["Value"].parse::<f64>().ok().map(|v| format!("{v:.9}")),
                    r["Under review"] == "yes",
                )
            })
            .collect();
        assert_eq!(written, shown, "every session of every run, as shown");
        let hidden = written.iter().filter(|w| w.3).count();
        if viewer == Some(t.admin.as_str()) {
            assert_eq!(hidden, 0);
        } else {
            assert!(hidden > 0 && written.iter().filter(|w| w.3).all(|w| w.2.is_none()));
        }
    }
    // A style narrows the sessions; Chinese headers follow the page.
    let (header, rows) = csv_table(
        &t.app
            .get(&url(
                "/api/export/dlawbench/leaderboard/sessions",
                &[
                    ("model", DLAW),
                    ("metric", "inquiry"),
                    ("style", "withdrawn"),
                    ("lang", "zh"),
                ],
            ))
            .await,
    );
    assert_eq!(header[..4], ["运行", "案例", "法域", "风格"]);
    let withdrawn = engine::dlawbench::dataset::Style::Withdrawn.label(Lang::Zh);
    assert!(!rows.is_empty() && rows.iter().all(|r| r["风格"] == withdrawn));
    let bad = t
        .app
        .get(&url(
            "/api/export/dlawbench/leaderboard/sessions",
            &[("model", DLAW), ("metric", "nope")],
        ))
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let page = t
        .app
        .get(&url(
            "/dlawbench/leaderboard/sessions",
            &[
                ("model", DLAW),
                ("metric", "inquiry"),
                ("style", "withdrawn"),
            ],
        ))
        .await
        .body;
    assert!(page.contains(
        "href=\"/api/export/dlawbench/leaderboard/sessions?model=Sim-Frontier-5%20%28simulated%29&amp;metric=inquiry&amp;style=withdrawn&amp;table=sessions&amp;format=csv&amp;lang=en\""
    ));
}

#[tokio::test]
async fn compare_exports_its_rows() {
    let app = TestApp::with_demo().await;
    let pairs = [("a", LEX), ("b", LEX_B), ("class", "tort")];
    let page = call::<Compare>(&app, None, &pairs).await;
    let shown = page["rows"].as_array().expect("rows");
    assert!(!shown.is_empty());
    let (header, rows) = csv_table(&app.get(&url("/api/export/compare", &pairs)).await);
    assert_eq!(
        header,
        ["Score", "A", "B", "A − B", "95% CI low", "95% CI high", "p"]
    );
    assert_eq!(rows.len(), shown.len());
    for (row, r) in rows.iter().zip(shown) {
        assert_eq!(row["Score"], r["metric"].as_str().expect("metric"));
        assert_eq!(row["A"].parse::<f64>().ok(), r["a"].as_f64());
        assert_eq!(
            row["A − B"].parse::<f64>().ok(),
            r["result"]["diff"].as_f64()
        );
        assert_eq!(
            row["95% CI low"].parse::<f64>().ok(),
            r["result"]["ci"][0].as_f64()
        );
    }
    let mut latex = pairs.to_vec();
    latex.push(("format", "latex"));
    let tex = app.get(&url("/api/export/compare", &latex)).await;
    assert_file(&tex, "application/x-tex; charset=utf-8", "tex");
    assert!(
        tex.body.contains(
            "\\caption{A = Sim-Frontier-2 (simulated) · B = Sim-OpenChat-72B (simulated) · Tort}"
        ),
        "{}",
        tex.body
    );
    let one = app.get(&url("/api/export/compare", &[("a", LEX)])).await;
    assert_eq!(one.status, StatusCode::BAD_REQUEST);
    let nobody = app
        .get(&url("/api/export/compare", &[("a", LEX), ("b", "Nobody")]))
        .await;
    assert_eq!(nobody.status, StatusCode::NOT_FOUND);
    let html = app.get(&url("/compare", &pairs)).await.body;
    assert!(html.contains(
        "href=\"/api/export/compare?a=Sim-Frontier-2%20%28simulated%29&amp;b=Sim-OpenChat-72B%20%28simulated%29&amp;class=tort&amp;table=compare&amp;format=csv&amp;lang=en\""
    ));
}

#[tokio::test]
async fn the_model_page_exports_its_runs_and_each_tasks_scores() {
    let app = TestApp::with_demo().await;
    let page = call::<GetModel>(&app, None, &[("model", LEX)]).await;
    let entries = page["entries"].as_array().expect("entries");
    let runs: usize = entries
        .iter()
        .map(|e| e["runs"].as_array().map_or(0, Vec::len))
        .sum();
    let export = format!("/api/export/models/{}", enc(LEX));
    let (header, rows) = csv_table(&app.get(&format!("{export}?table=runs")).await);
    assert_eq!(
        header,
        [
            "Entry",
            "Run",
            "Created",
            "Uploaded by",
            "Unavailable items"
        ]
    );
    assert_eq!(rows.len(), runs);
    assert_eq!(rows[0]["Run"], entries[0]["runs"][0]["run"].to_string());

    // Per task: a row per run and the entry's mean ± std, the mean and std apart.
    let table = entries[0]["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .find(|t| t[0] == "dcg")
        .map(|t| &t[1])
        .expect("a DCG table");
    let (header, rows) = csv_table(&app.get(&format!("{export}?table=dcg&lang=en")).await);
    assert_eq!(rows.len(), table["rows"].as_array().map_or(0, Vec::len));
    let first_column = table["columns"][0][1].as_str().expect("a label");
    assert!(
        header.contains(&format!("{first_column} (mean)"))
            && header.contains(&format!("{first_column} (std)"))
    );
    let last = rows.last().expect("the mean row");
    assert!(last["Run"].starts_with("Mean ± std"));
    let cell = &table["rows"]
        .as_array()
        .expect("rows")
        .last()
        .expect("mean")["cells"][0];
    assert_eq!(
        last[&format!("{first_column} (mean)")].parse::<f64>().ok(),
        cell["mean"].as_f64()
    );
    assert_eq!(
        last[&format!("{first_column} (std)")].parse::<f64>().ok(),
        cell["std"].as_f64()
    );
    let tex = app.get(&format!("{export}?table=ljp&format=latex")).await;
    assert!(tex.body.contains("$\\pm$"), "{}", tex.body);
    // In Chinese the rows and the columns are named as the page names them.
    let (header, rows) = csv_table(&app.get(&format!("{export}?table=dcg&lang=zh")).await);
    assert!(header.iter().any(|h| h.starts_with("总体")), "{header:?}");
    assert!(rows[0]["运行"].starts_with("第 "), "{:?}", rows[0]);
    let last = rows.last().expect("the mean row");
    assert!(last["运行"].starts_with("均值 ± 标准差（"), "{last:?}");

    let nobody = app.get("/api/export/models/Nobody?table=runs").await;
    assert_eq!(nobody.status, StatusCode::NOT_FOUND);
    let html = app.get(&format!("/models/{}", enc(LEX))).await.body;
    for table in ["runs", "lca", "dcg", "ljp"] {
        assert!(
            html.contains(&format!("href=\"/api/export/models/Sim-Frontier-2%20%28simulated%29?table={table}&amp;format=json&amp;lang=en\"")),
            "{table}"
        );
    }
}

#[tokio::test]
async fn the_agreement_export_is_for_experts_and_admins_and_shows_their_own_dashboard() {
    let t = Team::demo().await;
    open_lca_verdicts(&t).await;
    let export = "/api/export/review/agreement";
    assert_eq!(t.app.get(export).await.status, StatusCode::UNAUTHORIZED);
    let refused = t.app.get_with_cookie(export, Some(&t.researcher)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(!refused.body.contains("Kind"), "{}", refused.body);

    for viewer in [&t.expert_a, &t.admin] {
        let board = call::<LoadReviewDashboard>(&t.app, Some(viewer), &[]).await;
        let (header, rows) = csv_table(&t.app.get_with_cookie(export, Some(viewer)).await);
        assert_eq!(
            header[..3],
            ["类型", "任务", "类别"],
            "Chinese, as the expert pages"
        );
        let shown = board["rows"].as_array().expect("rows");
        let average = usize::from(!board["average"].is_null());
        assert_eq!(rows.len(), shown.len() + average);
        for (row, r) in rows.iter().zip(shown) {
            assert_eq!(row["条目"], r["n_items"].to_string());
            assert_eq!(row["双人标注单位"], r["n_pairs"].to_string());
        }
        let (_, progress) = csv_table(
            &t.app
                .get_with_cookie(&format!("{export}?table=progress&lang=en"), Some(viewer))
                .await,
        );
        let experts: Vec<&str> = progress.iter().map(|r| r["Expert"].as_str()).collect();
        let shown: Vec<&str> = board["progress"]
            .as_array()
            .expect("progress")
            .iter()
            .filter_map(|p| p["expert"].as_str())
            .collect();
        assert_eq!(experts, shown);
    }
    // The admin's figures count every item, the expert's only their own submitted ones.
    async fn items(app: &TestApp, cookie: &str) -> usize {
        let res = app
            .get_with_cookie("/api/export/review/agreement?lang=en", Some(cookie))
            .await;
        let (_, rows) = csv_table(&res);
        rows.iter()
            .filter_map(|r| r["Items"].parse::<usize>().ok())
            .sum()
    }
    assert!(items(&t.app, &t.admin).await > items(&t.app, &t.expert_a).await);

    let tex = t
        .app
        .get_with_cookie(
            &format!("{export}?table=progress&format=latex"),
            Some(&t.admin),
        )
        .await;
    assert_file(&tex, "application/x-tex; charset=utf-8", "tex");
    let bad = t
        .app
        .get_with_cookie(&format!("{export}?table=nope"), Some(&t.admin))
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let page = t
        .app
        .get_with_cookie("/review/agreement", Some(&t.admin))
        .await
        .body;
    for table in ["agreement", "progress"] {
        assert!(
            page.contains(&format!(
                "href=\"/api/export/review/agreement?table={table}&amp;format=csv&amp;lang=zh\""
            )),
            "{table}"
        );
    }
}
