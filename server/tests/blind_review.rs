//! Blind review against arithmetic (issue 39, N2). An expert who sees an
//! entry's mean over its runs at full precision and every item the
//! drill-down shows recovers a hidden judge value as "entry mean × runs −
//! the other runs, × n − every visible item". On each benchmark's demo runs,
//! with review items open, this replays that arithmetic against every
//! public figure (the API score document, the leaderboards, the exports,
//! the model page and the comparison, and their exports) as an expert, a researcher and
//! anonymously, and recovers nothing; the same arithmetic on an admin's
//! figures (which count everything) recovers the value exactly, which is
//! what the public figures gave before. The pages say, in both languages,
//! how many items they leave out; with nothing open every viewer gets the
//! same figures.

mod common;

use axum::http::StatusCode;
use common::{enc, TestApp, TestResponse};
use engine::accounts::Role;
use leptos::server_fn::ServerFn;
use serde_json::Value;

use app::server_fns::dlawbench::{DlawCell, DlawLeaderboard};
use app::server_fns::drilldown::GetCellItems;
use app::server_fns::leaderboard::GetLeaderboard;
use app::server_fns::models::{Compare, GetModel};
use app::server_fns::plawbench::{PlawCell, PlawLeaderboard};
use app::server_fns::review::{AssignReviews, CreateReviewItems, SubmitReview};

const PASSWORD: &str = "a-long-password";
const LEFT_OUT: &str = "x-blind-review-left-out";

struct Viewers {
    admin: String,
    expert: String,
    second_expert: String,
    researcher: String,
}

impl Viewers {
    /// Everyone who gets the public figures: an expert, a researcher and an
    /// anonymous visitor (what to call them, and their session).
    fn public(&self) -> [(&'static str, Option<&str>); 3] {
        [
            ("an expert", Some(&self.expert)),
            ("a researcher", Some(&self.researcher)),
            ("an anonymous visitor", None),
        ]
    }
}

async fn setup() -> (TestApp, Viewers) {
    let app = TestApp::with_demo().await;
    for (name, role) in [
        ("admin", Role::Admin),
        ("expert-a", Role::Expert),
        ("expert-b", Role::Expert),
        ("researcher", Role::Researcher),
    ] {
        app.user(name, role, PASSWORD).await;
    }
    let viewers = Viewers {
        admin: app.sign_in("admin", PASSWORD).await,
        expert: app.sign_in("expert-a", PASSWORD).await,
        second_expert: app.sign_in("expert-b", PASSWORD).await,
        researcher: app.sign_in("researcher", PASSWORD).await,
    };
    (app, viewers)
}

async fn call<F: ServerFn>(app: &TestApp, cookie: Option<&str>, pairs: &[(&str, &str)]) -> Value {
    app.ok::<F>(cookie, pairs).await
}

async fn get(app: &TestApp, uri: &str, cookie: Option<&str>) -> TestResponse {
    let res = app.get_with_cookie(uri, cookie).await;
    assert_eq!(res.status, StatusCode::OK, "{uri}: {}", res.body);
    res
}

/// Opens review items as the admin and gives them to both experts.
async fn open_items(app: &TestApp, viewers: &Viewers, pairs: &[(&str, &str)]) -> u64 {
    let created = call::<CreateReviewItems>(app, Some(&viewers.admin), pairs).await;
    call::<AssignReviews>(app, Some(&viewers.admin), &[]).await;
    created["created"].as_u64().expect("created")
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The entry of `model` in a score document.
fn entry<'a>(doc: &'a Value, model: &str) -> &'a Value {
    doc["entries"]
        .as_array()
        .and_then(|e| e.iter().find(|e| e["model"] == model))
        .unwrap_or_else(|| panic!("no entry of {model}: {doc}"))
}

/// The mean of column `key` in `model`'s row of a leaderboard table (the
/// pages' and the exports' JSON), with its columns as keys or as
/// (key, label) pairs.
fn table_mean(table: &Value, model: &str, key: &str) -> f64 {
    let column = table["columns"]
        .as_array()
        .and_then(|c| {
            c.iter()
                .position(|c| *c == key || c.get(0).is_some_and(|k| *k == key))
        })
        .unwrap_or_else(|| panic!("no column {key}: {}", table["columns"]));
    let row = table["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["model"] == model))
        .unwrap_or_else(|| panic!("no row of {model}"));
    f(&row["cells"][column]["mean"])
}

/// What the drill-down of one cell shows of run `run`: how many instances
/// its value is over (the hidden one among them), the sum of the visible
/// ones, and the sum of every other run's value.
struct Seen {
    runs: usize,
    others: f64,
    n: usize,
    visible: f64,
}

/// The arithmetic: the run's mean from the entry's, then the hidden item
/// as the run's total less every visible item.
fn replay(entry_mean: f64, seen: &Seen) -> f64 {
    (entry_mean * seen.runs as f64 - seen.others) * seen.n as f64 - seen.visible
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Every public figure the arithmetic recovered a hidden value from.
#[derive(Default)]
struct Recovered(Vec<String>);

impl Recovered {
    /// Notes `from`, as `who` sees it, when `recovered` is the hidden `truth`.
    fn check(&mut self, recovered: f64, truth: f64, from: &str, who: &str) {
        if close(recovered, truth) {
            self.0
                .push(format!("{from} as {who}: {recovered} = {truth}"));
        }
    }

    fn assert_none(self) {
        assert!(
            self.0.is_empty(),
            "public figures give the hidden values away:\n{}",
            self.0.join("\n")
        );
    }
}

/// The note every page of figures carries, in both languages.
async fn note_on(app: &TestApp, path: &str, cookie: Option<&str>, en: &str, zh: &str) {
    let sep = if path.contains('?') { '&' } else { '?' };
    let english = get(app, &format!("{path}{sep}lang=en"), cookie).await.body;
    assert!(english.contains("data-testid=\"blind-note\""), "{path}");
    assert!(english.contains(en), "{path} as {cookie:?}: no {en:?}");
    let chinese = get(app, &format!("{path}{sep}lang=zh"), cookie).await.body;
    assert!(chinese.contains(zh), "{path} as {cookie:?}: no {zh:?}");
}

/// How many items a response says it leaves out ([`LEFT_OUT`]).
fn left_out(res: &TestResponse) -> Option<String> {
    res.headers
        .get(LEFT_OUT)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// The score document of `benchmark` as `cookie` gets it, and how many
/// items it says it leaves out.
async fn document(app: &TestApp, benchmark: &str, cookie: Option<&str>) -> (Value, Option<String>) {
    let res = get(
        app,
        &format!("/api/leaderboard?benchmark={benchmark}"),
        cookie,
    )
    .await;
    (res.json(), left_out(&res))
}

/// An export as `cookie` gets it, parsed as JSON, and how many items it
/// says it leaves out.
async fn export(app: &TestApp, query: &str, cookie: Option<&str>) -> (Value, Option<String>) {
    let uri = format!("/api/leaderboard/export?{query}&format=json");
    let res = get(app, &uri, cookie).await;
    (res.json(), left_out(&res))
}

#[tokio::test]
async fn with_nothing_open_everyone_gets_the_same_figures() {
    let (app, viewers) = setup().await;
    // Open items that hold no judge decision (case checks) leave nothing out.
    assert!(open_items(&app, &viewers, &[("kind", "case_check")]).await > 0);
    for benchmark in ["lexpilot", "plawbench", "dlawbench"] {
        let (admin, header) = document(&app, benchmark, Some(&viewers.admin)).await;
        assert_eq!(header, None);
        assert!(admin.get("left_out_under_blind_review").is_none());
        for (_, viewer) in viewers.public() {
            let (doc, header) = document(&app, benchmark, viewer).await;
            assert_eq!((doc.to_string(), header), (admin.to_string(), None));
        }
    }
    let page = get(&app, "/plawbench/leaderboard", None).await.body;
    assert!(!page.contains("blind-note"));
}

/// PLawBench's finding: a case-analysis item's four section points.
#[tokio::test]
async fn plawbench_figures_do_not_give_away_rubric_verdicts_under_review() {
    let (app, viewers) = setup().await;
    let opened = open_items(
        &app,
        &viewers,
        &[
            ("kind", "rubric_verdict"),
            ("benchmark", "plawbench"),
            ("per_model", "1"),
            ("cap", "4"),
            ("seed", "7"),
        ],
    )
    .await;
    assert_eq!(opened, 4, "one item of each task");
    let (model, run): (String, i64) = sqlx::query_as(
        "SELECT model, run_number FROM review_items
         WHERE target = 'case_analysis' AND final_label IS NULL",
    )
    .fetch_one(app.db.pool())
    .await
    .expect("the open case-analysis item");

    // The drill-down of a column as `cookie` sees it: the hidden item's row
    // and what the replay reads.
    let cell = |cookie: Option<String>, column: &'static str, category: Option<String>| {
        let (app, model) = (&app, model.clone());
        async move {
            let mut pairs = vec![("model", model.clone()), ("column", column.to_owned())];
            if let Some(c) = category {
                pairs.push(("category", c));
            }
            let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
            call::<PlawCell>(app, cookie.as_deref(), &pairs).await["drill"].clone()
        }
    };
    let column_of = |drill: &Value| {
        drill["runs"]
            .as_array()
            .and_then(|r| r.iter().position(|r| r["run"] == run))
            .expect("the run's column")
    };
    let seen = |drill: &Value| {
        let col = column_of(drill);
        let runs = drill["runs"].as_array().expect("runs");
        let rows = drill["rows"].as_array().expect("rows");
        assert_eq!(
            rows.len() as u64,
            drill["total"].as_u64().expect("total"),
            "every row on one page"
        );
        Seen {
            runs: runs.len(),
            others: runs
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != col)
                .map(|(_, r)| f(&r["value"]))
                .sum(),
            n: runs[col]["scored"].as_u64().expect("scored") as usize,
            visible: rows
                .iter()
                .filter_map(|r| r["runs"][col]["value"].as_f64())
                .sum(),
        }
    };
    // The hidden item: hidden in the expert's drill-down, shown to the admin.
    let hidden_row = |drill: &Value| -> Value {
        let col = column_of(drill);
        let hidden: Vec<&Value> = drill["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .filter(|r| r["runs"][col]["hidden"] == true)
            .collect();
        assert_eq!(hidden.len(), 1, "one hidden item in the run");
        hidden[0].clone()
    };

    let sections = [
        ("task2_conclusion", "conclusion_acc"),
        ("task2_facts", "fact_acc"),
        ("task2_reasoning", "reasoning_acc"),
        ("task2_statute", "law_acc"),
    ];
    let item_id = hidden_row(&cell(Some(viewers.expert.clone()), "task2", None).await)["item_id"]
        .as_str()
        .expect("item id")
        .to_owned();
    let truth_of = |drill: &Value| {
        let col = column_of(drill);
        let row = drill["rows"]
            .as_array()
            .and_then(|rows| rows.iter().find(|r| r["item_id"] == item_id.as_str()))
            .expect("the item's row");
        assert_eq!(row["runs"][col]["hidden"], false, "the admin sees it");
        f(&row["runs"][col]["value"])
    };

    let (admin_doc, admin_header) = document(&app, "plawbench", Some(&viewers.admin)).await;
    assert_eq!(admin_header, None, "an admin's figures leave nothing out");
    let mut recovered = Recovered::default();
    for (column, field) in sections {
        let truth = truth_of(&cell(Some(viewers.admin.clone()), column, None).await);
        // What the expert sees of the run, with the admin's entry mean (what
        // everyone saw before): the value, exactly.
        let expert = seen(&cell(Some(viewers.expert.clone()), column, None).await);
        let admin_mean = f(&entry(&admin_doc, &model)["task2"][field]["mean"]);
        assert!(
            close(replay(admin_mean, &expert), truth),
            "the arithmetic recovers {column} from full figures"
        );
        for (who, viewer) in viewers.public() {
            let drill = cell(viewer.map(str::to_owned), column, None).await;
            assert_eq!(hidden_row(&drill)["item_id"], item_id.as_str());
            let seen = seen(&drill);
            let (doc, _) = document(&app, "plawbench", viewer).await;
            let mean = f(&entry(&doc, &model)["task2"][field]["mean"]);
            recovered.check(replay(mean, &seen), truth, "the score document", who);
            let board = call::<PlawLeaderboard>(&app, viewer, &[]).await;
            let mean = table_mean(&board["table"], &model, column);
            recovered.check(replay(mean, &seen), truth, "the leaderboard", who);
            let (ranking, _) = export(&app, "benchmark=plawbench&view=official", viewer).await;
            let mean = table_mean(&ranking, &model, column);
            recovered.check(replay(mean, &seen), truth, "the ranking export", who);
        }
    }

    // Task 2 by category: the item's category's mean.
    let admin_drill = cell(Some(viewers.admin.clone()), "task2", None).await;
    let category = admin_drill["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["item_id"] == item_id.as_str()))
        .and_then(|r| r["category"].as_str())
        .expect("the item's category")
        .to_owned();
    let truth = truth_of(&cell(Some(viewers.admin.clone()), "task2", Some(category.clone())).await);
    let category_mean = |table: &Value| {
        let column = table["entries"]
            .as_array()
            .and_then(|e| e.iter().position(|e| e["model"] == model.as_str()))
            .expect("the entry's column");
        let row = table["rows"]
            .as_array()
            .and_then(|rows| rows.iter().find(|r| r["category"] == category.as_str()))
            .expect("the category's row");
        f(&row["cells"][column]["acc"]["mean"])
    };
    let expert = seen(
        &cell(
            Some(viewers.expert.clone()),
            "task2",
            Some(category.clone()),
        )
        .await,
    );
    let admin_board = call::<PlawLeaderboard>(&app, Some(&viewers.admin), &[]).await;
    assert!(close(
        replay(category_mean(&admin_board["categories"]), &expert),
        truth
    ));
    for (who, viewer) in viewers.public() {
        let seen = seen(&cell(viewer.map(str::to_owned), "task2", Some(category.clone())).await);
        let (doc, _) = document(&app, "plawbench", viewer).await;
        let mean = f(&entry(&doc, &model)["by_category"][category.as_str()]["mean"]);
        recovered.check(replay(mean, &seen), truth, "the document's categories", who);
        let board = call::<PlawLeaderboard>(&app, viewer, &[]).await;
        let mean = category_mean(&board["categories"]);
        recovered.check(replay(mean, &seen), truth, "the category table", who);
        let (table, _) = export(&app, "benchmark=plawbench&view=categories", viewer).await;
        recovered.check(
            replay(category_mean(&table), &seen),
            truth,
            "the category export",
            who,
        );
    }
    recovered.assert_none();

    // Each figure says how many items it leaves out.
    for (_, viewer) in viewers.public() {
        let (doc, header) = document(&app, "plawbench", viewer).await;
        let (_, export_header) = export(&app, "benchmark=plawbench&view=official", viewer).await;
        let board = call::<PlawLeaderboard>(&app, viewer, &[]).await;
        assert_eq!(
            (
                header.as_deref(),
                export_header.as_deref(),
                &doc["left_out_under_blind_review"],
                &board["blind"]["left_out"]
            ),
            (Some("4"), Some("4"), &Value::from(4), &Value::from(4))
        );
    }

    // The pages say so; the admin's say that others' figures leave them out.
    for (_, viewer) in viewers.public() {
        note_on(
            &app,
            "/plawbench/leaderboard",
            viewer,
            "4 items under blind review are left out of these figures",
            "4 个正在盲审的条目不计入本页的数字",
        )
        .await;
    }
    note_on(
        &app,
        "/plawbench/leaderboard",
        Some(&viewers.admin),
        "These figures count 4 items under blind review",
        "本页的数字计入了 4 个正在盲审的条目",
    )
    .await;

    // A settled item counts again.
    let id: i64 = sqlx::query_scalar(
        "SELECT id FROM review_items
         WHERE target = 'legal_consultation' AND final_label IS NULL",
    )
    .fetch_one(app.db.pool())
    .await
    .expect("the open consultation item");
    for expert in [&viewers.expert, &viewers.second_expert] {
        call::<SubmitReview>(
            &app,
            Some(expert),
            &[
                ("id", &id.to_string()),
                ("label", "total=1"),
                ("comment", ""),
            ],
        )
        .await;
    }
    let (doc, header) = document(&app, "plawbench", None).await;
    assert_eq!(
        (header.as_deref(), &doc["left_out_under_blind_review"]),
        (Some("3"), &Value::from(3))
    );
}

/// LexPilot: a DCG judge verdict (was a request accepted?) from the
/// accuracy.
#[tokio::test]
async fn lexpilot_figures_do_not_give_away_judge_verdicts_under_review() {
    let (app, viewers) = setup().await;
    let opened = open_items(
        &app,
        &viewers,
        &[
            ("kind", "judge_verdict"),
            ("task", "dcg"),
            ("per_model", "1"),
            ("cap", "3"),
            ("seed", "5"),
        ],
    )
    .await;
    assert_eq!(opened, 3, "one verdict of each model");
    let items: Vec<(String, i64)> = sqlx::query_as(
        "SELECT model, run_number FROM review_items WHERE task = 'dcg' ORDER BY model",
    )
    .fetch_all(app.db.pool())
    .await
    .expect("the open items");

    let (admin_doc, _) = document(&app, "lexpilot", Some(&viewers.admin)).await;
    let mut recovered = Recovered::default();
    // One model's verdict is enough (the others are left out the same way).
    for (model, run) in &items[..1] {
        let tallies = |cookie: Option<String>| {
            let (app, model) = (&app, model.clone());
            async move {
                let drill = call::<GetCellItems>(
                    app,
                    cookie.as_deref(),
                    &[("model", model.as_str()), ("task", "dcg")],
                )
                .await;
                drill["drill"]["runs"].clone()
            }
        };
        let seen = |tallies: &Value| {
            let runs = tallies.as_array().expect("tallies");
            let count = |t: &Value, k: &str| t[k].as_u64().expect("a count") as usize;
            let accuracy = |t: &Value| {
                count(t, "correct") as f64 / (count(t, "correct") + count(t, "wrong")) as f64
            };
            let this = runs.iter().find(|t| t["run"] == *run).expect("the run");
            assert_eq!(count(this, "hidden"), 1);
            Seen {
                runs: runs.len(),
                others: runs.iter().filter(|t| t["run"] != *run).map(accuracy).sum(),
                n: count(this, "correct") + count(this, "wrong") + count(this, "hidden"),
                visible: count(this, "correct") as f64,
            }
        };
        let correct_in = |tallies: &Value| {
            tallies
                .as_array()
                .and_then(|r| r.iter().find(|t| t["run"] == *run))
                .and_then(|t| t["correct"].as_f64())
                .expect("correct")
        };
        let expert = tallies(Some(viewers.expert.clone())).await;
        // Was a request accepted (1) or not (0)?
        let truth = correct_in(&tallies(Some(viewers.admin.clone())).await) - correct_in(&expert);
        let admin_mean = f(&entry(&admin_doc, model)["dcg"]["overall"]["accuracy"]["mean"]);
        assert!(close(replay(admin_mean, &seen(&expert)), truth));
        let other = items
            .iter()
            .find(|(m, _)| m != model)
            .expect("another model");
        // The exports of the comparison and the model page are read the
        // same way: an admin's (which count everything) give the value.
        let (compare_export, model_export) = (
            format!(
                "/api/export/compare?a={}&b={}&format=json&lang=en",
                enc(model),
                enc(&other.0)
            ),
            format!(
                "/api/export/models/{}?table=dcg&format=json&lang=en",
                enc(model)
            ),
        );
        let compared_mean = |table: &Value| {
            table["rows"]
                .as_array()
                .and_then(|rows| rows.iter().find(|r| r["score"] == "DCG accuracy"))
                .map(|r| f(&r["a"]))
                .expect("the DCG row of the compare export")
        };
        let run_mean = |table: &Value| {
            table["rows"]
                .as_array()
                .and_then(|rows| rows.iter().find(|r| r["row"] == format!("Run {run}")))
                .map(|r| f(&r["overall"]["mean"]))
                .expect("the run's row of the model export")
        };
        let admin_seen = seen(&expert);
        let admin_compare = get(&app, &compare_export, Some(&viewers.admin)).await;
        assert_eq!(
            left_out(&admin_compare),
            None,
            "an admin's figures count all"
        );
        assert!(close(
            replay(compared_mean(&admin_compare.json()), &admin_seen),
            truth
        ));
        let admin_model = get(&app, &model_export, Some(&viewers.admin)).await;
        assert_eq!(left_out(&admin_model), None, "an admin's figures count all");
        assert!(close(
            run_mean(&admin_model.json()) * admin_seen.n as f64 - admin_seen.visible,
            truth
        ));

        for (who, viewer) in viewers.public() {
            let seen = seen(&tallies(viewer.map(str::to_owned)).await);
            let (doc, _) = document(&app, "lexpilot", viewer).await;
            let mean = f(&entry(&doc, model)["dcg"]["overall"]["accuracy"]["mean"]);
            recovered.check(replay(mean, &seen), truth, "the score document", who);
            let board = call::<GetLeaderboard>(&app, viewer, &[("task", "dcg")]).await;
            let mean = table_mean(&board["table"], model, "overall");
            recovered.check(replay(mean, &seen), truth, "the leaderboard", who);
            let (table, _) = export(&app, "task=dcg", viewer).await;
            let mean = table_mean(&table, model, "overall");
            recovered.check(replay(mean, &seen), truth, "the export", who);
            // The model page shows each run: the run's own accuracy.
            let page = call::<GetModel>(&app, viewer, &[("model", model)]).await;
            let dcg = page["entries"][0]["tables"]
                .as_array()
                .and_then(|t| t.iter().find(|t| t[0] == "dcg"))
                .map(|t| t[1].clone())
                .expect("the model's DCG table");
            let run_accuracy = table_mean(&dcg, &format!("Run {run}"), "overall");
            let from_run = run_accuracy * seen.n as f64 - seen.visible;
            recovered.check(from_run, truth, "the model page", who);
            // The comparison shows the entry's mean too.
            let compared = call::<Compare>(&app, viewer, &[("a", model), ("b", &other.0)]).await;
            let mean = compared["rows"]
                .as_array()
                .and_then(|rows| rows.iter().find(|r| r["metric"] == "DCG accuracy"))
                .map(|r| f(&r["a"]))
                .unwrap_or_else(|| panic!("the DCG row, as {who}: {compared}"));
            recovered.check(replay(mean, &seen), truth, "the comparison", who);
            // And their exports, which say how many items they leave out.
            let res = get(&app, &compare_export, viewer).await;
            assert_eq!(
                left_out(&res).as_deref(),
                Some("3"),
                "{compare_export} as {who}"
            );
            let mean = compared_mean(&res.json());
            recovered.check(replay(mean, &seen), truth, "the compare export", who);
            let res = get(&app, &model_export, viewer).await;
            assert_eq!(
                left_out(&res).as_deref(),
                Some("3"),
                "{model_export} as {who}"
            );
            let from_run = run_mean(&res.json()) * seen.n as f64 - seen.visible;
            recovered.check(from_run, truth, "the model page's export", who);
        }
    }
    recovered.assert_none();

    // Each figure says how many items it leaves out.
    let (model, other) = (&items[0].0, &items[1].0);
    for (_, viewer) in viewers.public() {
        let (doc, header) = document(&app, "lexpilot", viewer).await;
        let (_, export_header) = export(&app, "task=dcg", viewer).await;
        assert_eq!(
            (
                header.as_deref(),
                export_header.as_deref(),
                &doc["left_out_under_blind_review"]
            ),
            (Some("3"), Some("3"), &Value::from(3))
        );
        for view in [
            call::<GetLeaderboard>(&app, viewer, &[("task", "dcg")]).await,
            call::<GetModel>(&app, viewer, &[("model", model)]).await,
            call::<Compare>(&app, viewer, &[("a", model), ("b", other)]).await,
        ] {
            assert_eq!(view["blind"]["left_out"], 3);
        }
    }
    for (_, viewer) in viewers.public() {
        for path in [
            "/leaderboard?task=dcg",
            "/paper",
            &format!("/models/{}", enc(&items[0].0)),
        ] {
            note_on(
                &app,
                path,
                viewer,
                "3 items under blind review are left out of these figures",
                "3 个正在盲审的条目不计入本页的数字",
            )
            .await;
        }
    }
}

/// DLawBench: one session's panel values from the jurisdiction × style and
/// jurisdiction means.
#[tokio::test]
async fn dlawbench_figures_do_not_give_away_panel_decisions_under_review() {
    let (app, viewers) = setup().await;
    let opened = open_items(
        &app,
        &viewers,
        &[
            ("kind", "rubric_verdict"),
            ("benchmark", "dlawbench"),
            ("per_model", "1"),
            ("cap", "1"),
            ("seed", "3"),
        ],
    )
    .await;
    assert_eq!(opened, 1);
    let (model, run, case_id, style): (String, i64, String, String) = sqlx::query_as(
        "SELECT model, run_number, case_id, target FROM review_items WHERE final_label IS NULL",
    )
    .fetch_one(app.db.pool())
    .await
    .expect("the open session");

    let cell = |cookie: Option<String>,
                metric: &'static str,
                style: Option<String>,
                jurisdiction: Option<String>| {
        let (app, model) = (&app, model.clone());
        async move {
            let mut pairs = vec![("model", model), ("metric", metric.to_owned())];
            if let Some(j) = jurisdiction {
                pairs.push(("jurisdiction", j));
            }
            if let Some(s) = style {
                pairs.push(("style", s));
            }
            let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
            call::<DlawCell>(app, cookie.as_deref(), &pairs).await["cell"]["runs"].clone()
        }
    };
    let session_of = |runs: &Value| -> Value {
        runs.as_array()
            .and_then(|r| r.iter().find(|r| r["run"] == run))
            .and_then(|r| {
                r["sessions"].as_array().and_then(|s| {
                    s.iter()
                        .find(|s| s["case_id"] == case_id.as_str() && s["style"] == style.as_str())
                })
            })
            .cloned()
            .expect("the session")
    };
    let seen = |runs: &Value| {
        let runs = runs.as_array().expect("runs");
        let this = runs.iter().find(|r| r["run"] == run).expect("the run");
        let sessions = this["sessions"].as_array().expect("sessions");
        Seen {
            runs: runs.len(),
            others: runs
                .iter()
                .filter(|r| r["run"] != run)
                .map(|r| f(&r["value"]))
                .sum(),
            n: sessions
                .iter()
                .filter(|s| !s["value"].is_null() || s["hidden"] == true)
                .count(),
            visible: sessions.iter().filter_map(|s| s["value"].as_f64()).sum(),
        }
    };
    // The session's jurisdiction, from the style's cell (every jurisdiction).
    let jurisdiction = session_of(&cell(None, "inquiry", Some(style.clone()), None).await)
        ["jurisdiction"]
        .as_str()
        .expect("the session's jurisdiction")
        .to_owned();
    let (admin_doc, _) = document(&app, "dlawbench", Some(&viewers.admin)).await;
    let mut recovered = Recovered::default();
    for metric in ["inquiry", "issue_resolution", "fact_coverage"] {
        for by_style in [true, false] {
            let level_style = by_style.then(|| style.clone());
            let admin = cell(
                Some(viewers.admin.clone()),
                metric,
                level_style.clone(),
                Some(jurisdiction.clone()),
            )
            .await;
            let truth = f(&session_of(&admin)["value"]);
            let expert = cell(
                Some(viewers.expert.clone()),
                metric,
                level_style.clone(),
                Some(jurisdiction.clone()),
            )
            .await;
            assert_eq!(session_of(&expert)["hidden"], true);
            let mean_in = |doc: &Value| {
                let view = &entry(doc, &model)["null_as_zero"];
                let summary = if by_style {
                    &view["by_jurisdiction_style"][jurisdiction.as_str()][style.as_str()]
                } else {
                    &view["by_jurisdiction"][jurisdiction.as_str()]
                };
                f(&summary[metric]["mean"])
            };
            assert!(
                close(replay(mean_in(&admin_doc), &seen(&expert)), truth),
                "the arithmetic recovers {metric} from full figures"
            );
            for (who, viewer) in viewers.public() {
                let seen = seen(
                    &cell(
                        viewer.map(str::to_owned),
                        metric,
                        level_style.clone(),
                        Some(jurisdiction.clone()),
                    )
                    .await,
                );
                let (doc, _) = document(&app, "dlawbench", viewer).await;
                recovered.check(replay(mean_in(&doc), &seen), truth, "the document", who);
                if !by_style {
                    let board = call::<DlawLeaderboard>(&app, viewer, &[]).await;
                    let table = board["jurisdictions"]
                        .as_array()
                        .and_then(|t| {
                            t.iter()
                                .find(|t| t["jurisdiction"] == jurisdiction.as_str())
                        })
                        .expect("the jurisdiction's table");
                    let mean = table_mean(table, &model, metric);
                    recovered.check(replay(mean, &seen), truth, "the leaderboard", who);
                    let (table, _) = export(
                        &app,
                        &format!("benchmark=dlawbench&view=main&jurisdiction={jurisdiction}"),
                        viewer,
                    )
                    .await;
                    let mean = table_mean(&table, &model, metric);
                    recovered.check(replay(mean, &seen), truth, "the export", who);
                }
            }
        }
    }
    recovered.assert_none();

    // Each figure says how many items it leaves out.
    for (_, viewer) in viewers.public() {
        let (doc, header) = document(&app, "dlawbench", viewer).await;
        let board = call::<DlawLeaderboard>(&app, viewer, &[]).await;
        assert_eq!(
            (
                header.as_deref(),
                &doc["left_out_under_blind_review"],
                &board["blind"]["left_out"]
            ),
            (Some("1"), &Value::from(1), &Value::from(1))
        );
    }
    for (_, viewer) in viewers.public() {
        note_on(
            &app,
            "/dlawbench/leaderboard",
            viewer,
            "1 item under blind review is left out of these figures until it is settled",
            "1 个正在盲审的条目不计入本页的数字",
        )
        .await;
    }
}
