//! Figures that resample stored items: the leaderboard's bootstrap interval
//! per cell, its chart and unavailable flags, the model page's per-run scores
//! and the compare view's paired bootstrap. Each is checked against the
//! engine run directly on the demo files, independently of the database.

mod common;

use axum::http::StatusCode;
use common::TestApp;
use engine::lexpilot::dataset::{parse_dataset, Case};
use engine::lexpilot::run::{parse_run, Run};
use engine::lexpilot::score::{compare_entries, score_run, EntrySample, Metric};
use engine::vocab::LjpSetup;
use server::demo::{DEMO_DATASET, DEMO_RUNS};

const FRONTIER: &str = "Sim-Frontier-2 (simulated)";
const OPENCHAT: &str = "Sim-OpenChat-72B (simulated)";

fn demo() -> (Vec<Case>, Vec<Run>) {
    let cases = parse_dataset(DEMO_DATASET).expect("demo dataset");
    let runs = DEMO_RUNS
        .iter()
        .map(|(_, text)| parse_run(text, &cases).expect("demo run"))
        .collect();
    (cases, runs)
}

fn runs_of(runs: &[Run], model: &str) -> Vec<Run> {
    runs.iter()
        .filter(|r| r.header.model == model)
        .cloned()
        .collect()
}

fn encode(s: &str) -> String {
    app::url::encode(s)
}

#[tokio::test]
async fn leaderboard_cells_carry_their_bootstrap_interval_and_the_page_a_chart() {
    let app = TestApp::with_demo().await;
    let (cases, runs) = demo();
    let frontier = EntrySample::new(&runs_of(&runs, FRONTIER), &cases);
    let (lo, hi) = frontier
        .ci(Metric::LcaMacroF1, None, 1000, services::read::SEED, 0.95)
        .expect("an interval");
    let mean = frontier.value(Metric::LcaMacroF1, None).expect("a mean");
    assert!(lo <= mean && mean <= hi, "{lo} <= {mean} <= {hi}");

    let res = app.get("/leaderboard?task=lca").await;
    assert_eq!(res.status, StatusCode::OK);
    // Three decimals, as every 0–1 score on the pages, and on the page
    // itself, not only in the tooltip.
    let title = format!("95% CI [{lo:.3}, {hi:.3}]");
    assert!(res.body.contains(&title), "no cell titled {title}");
    assert!(res.body.contains(&format!(">[{lo:.3}, {hi:.3}]</span>")));
    // Every value cell of the LCA view has one (LCA has no derived column).
    assert_eq!(
        res.body.matches("data-ci=\"true\"").count(),
        3 * 9,
        "three entries × nine columns"
    );
    assert!(
        res.body.contains("<svg"),
        "the per-class chart is rendered on the server"
    );
    assert!(res.body.contains("LCA Macro-F1 per class"));
    // Gain and degradation are derived from means: no interval.
    let ljp = app.get("/leaderboard?task=ljp").await;
    assert_eq!(ljp.body.matches("data-ci=\"true\"").count(), 3 * 9);
}

#[tokio::test]
async fn entries_with_unavailable_items_are_flagged() {
    let app = TestApp::with_demo().await;
    let (_, runs) = demo();
    let unavailable: usize = runs_of(&runs, OPENCHAT)
        .iter()
        .map(|r| r.unavailable().total())
        .sum();
    assert!(unavailable > 0, "the demo has unavailable items to flag");
    let res = app.get("/leaderboard?task=lca").await;
    assert_eq!(
        res.body.matches("data-testid=\"unavailable-flag\"").count(),
        1
    );
    assert!(res
        .body
        .contains(&format!("{unavailable} items the judge could not label")));
}

#[tokio::test]
async fn the_model_page_lists_each_run_with_its_scores() {
    let app = TestApp::with_demo().await;
    let (cases, runs) = demo();
    let res = app.get(&format!("/models/{}", encode(FRONTIER))).await;
    assert_eq!(res.status, StatusCode::OK);
    assert!(res.body.contains("Mean ± std (3 runs)"));
    for run in runs_of(&runs, FRONTIER) {
        let scores = score_run(&run, &cases);
        let f1 = scores.metric(Metric::LcaMacroF1, None).expect("LCA");
        let qwk = scores
            .metric(Metric::LjpQwk(LjpSetup::Gold), None)
            .expect("LJP gold");
        assert!(res.body.contains(&format!("Run {}", run.header.run)));
        assert!(
            res.body.contains(&format!("{f1:.3}")),
            "run {} F1 {f1:.3}",
            run.header.run
        );
        assert!(res.body.contains(&format!("{qwk:.3}")));
    }
    let missing = app.get("/models/Nobody").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(missing.body.contains("no run of model"));
}

#[tokio::test]
async fn the_compare_view_gives_the_paired_bootstrap_per_score() {
    let app = TestApp::with_demo().await;
    let (cases, runs) = demo();
    let a = EntrySample::new(&runs_of(&runs, FRONTIER), &cases);
    let b = EntrySample::new(&runs_of(&runs, OPENCHAT), &cases);
    let res = app
        .get(&format!(
            "/compare?a={}&b={}",
            encode(FRONTIER),
            encode(OPENCHAT)
        ))
        .await;
    assert_eq!(res.status, StatusCode::OK);
    for metric in Metric::ALL {
        let cmp = compare_entries(&a, &b, metric, None, 1000, services::read::SEED, 0.95)
            .expect("comparable");
        // Three decimals, as every score on the pages.
        let ci = format!("[{:+.3}, {:+.3}]", cmp.ci.0, cmp.ci.1);
        assert!(res.body.contains(&ci), "{}: no {ci}", metric.label());
        assert!(res.body.contains(&format!("{:+.3}", cmp.diff)));
    }
    let bad = app.get("/compare?a=x&b=y&class=torts").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.body.contains("unknown class"));
    let unknown = app
        .get(&format!("/compare?a=Nobody&b={}", encode(OPENCHAT)))
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn compare_reads_its_two_entries_and_an_upload_costs_one_entry() {
    let app = TestApp::with_demo().await;
    let start = app.read.stats();
    let res = app
        .get(&format!(
            "/compare?a={}&b={}",
            encode(FRONTIER),
            encode(OPENCHAT)
        ))
        .await;
    assert_eq!(res.status, StatusCode::OK);
    // Three runs each: only theirs are read back in full.
    assert_eq!(
        app.read.stats().sample_runs_read - start.sample_runs_read,
        6
    );

    // The leaderboard reads the third model's runs and the intervals of all.
    assert_eq!(app.get("/leaderboard").await.status, StatusCode::OK);
    let warm = app.read.stats();
    assert_eq!(warm.sample_runs_read - start.sample_runs_read, 9);
    assert_eq!(warm.interval_sets_built - start.interval_sets_built, 3);

    // A new model's run: its entry alone is read and resampled.
    let researcher = app
        .token("researcher", engine::accounts::Role::Researcher)
        .await;
    let run = common::demo_run_as(6, "Newly-Stored");
    let stored = app.send(common::upload(&researcher, run, "")).await;
    assert_eq!(stored.status, StatusCode::CREATED, "{}", stored.body);
    let page = app.get("/leaderboard").await;
    assert!(page.body.contains("Newly-Stored"));
    let after = app.read.stats();
    assert_eq!(after.slots_built - warm.slots_built, 1);
    assert_eq!(after.sample_runs_read - warm.sample_runs_read, 1);
    assert_eq!(after.interval_sets_built - warm.interval_sets_built, 1);
}
