//! The user-simulator fidelity study (Table 13, Appendix E.3.2–E.3.3) end
//! to end: a probe file with mistakes refused with its lines and fields and
//! nothing stored; `lexpilot experiment fidelity --db` against the stub over
//! 127.0.0.1 on the demo dataset (one simulator reply per probe and
//! condition, the DCG judge on each A–C question); every reply a review
//! item two experts label blind over HTTP, a disagreement adjudicated; and
//! Table 13 on `/paper` (server-rendered) and in its export, with figures
//! counted here from what the stub was scripted to do.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use axum::http::StatusCode;
use common::{form, TestApp, TestResponse};
use engine::accounts::Role;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::fidelity::{sample_cases, Probe};
use leptos::server_fn::ServerFn;
use pipeline::stub::{fidelity::oracle, PromptKind, Stub, ANSWER};
use serde_json::Value;

use app::server_fns::review::{Adjudicate, AssignReviews, GetReviewItem, MyQueue, SubmitReview};

const PASSWORD: &str = "a-long-password";

fn demo_path() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/demo-synthetic.jsonl")
        .to_string_lossy()
        .into_owned()
}

async fn ok<F: ServerFn>(app: &TestApp, cookie: &str, pairs: &[(&str, &str)]) -> Value {
    let res: TestResponse = app.post_form(F::PATH, &form(pairs), Some(cookie)).await;
    assert_eq!(res.status, StatusCode::OK, "{}: {}", F::PATH, res.body);
    res.json()
}

/// Six probes on drawn cases, every question naming its case (so the stub
/// tells them apart); the third keeps A–C only.
fn probes(cases: &[Case]) -> Vec<Probe> {
    sample_cases(cases, 2, 1)
        .into_iter()
        .take(6)
        .enumerate()
        .map(|(i, id)| {
            let case = cases.iter().find(|c| c.case_id == id).expect("drawn case");
            let fact = case.missing_facts[0].clone();
            Probe {
                case_id: id.clone(),
                direct: format!("（{id}）请问借款约定的还款日期具体是哪一天？"),
                indirect: format!("（{id}）他当时说过什么时候把钱还给您吗？"),
                broad: format!("（{id}）您了解借款合同履行期限的法律规定吗？"),
                minimum_answer: "说出约定的日期".into(),
                permitted: "可以说明约定的方式".into(),
                withheld_key_facts: (i != 2).then(|| {
                    case.key_facts
                        .iter()
                        .filter(|k| k.id != fact)
                        .map(|k| k.text.clone())
                        .collect()
                }),
                fact,
            }
        })
        .collect()
}

fn lexpilot(args: Vec<String>) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_lexpilot"))
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .expect("lexpilot runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn probes_replies_and_blind_labels_make_table_13_on_the_paper_page() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db_path = dir.path().join("lexpilot.db");
    let app = TestApp::on_database(&db_path).await;
    server::demo::ensure_loaded(&app.db)
        .await
        .expect("demo loads");
    assert!(app
        .get("/paper")
        .await
        .body
        .contains("data-testid=\"table-13-empty\""));

    let cases = engine::lexpilot::dataset::parse_dataset(
        &std::fs::read_to_string(demo_path()).expect("demo"),
    )
    .expect("valid demo");
    let probes = probes(&cases);
    let probe_file = dir.path().join("probes.jsonl");
    std::fs::write(
        &probe_file,
        engine::lexpilot::fidelity::probes_to_jsonl(&probes),
    )
    .expect("write probes");
    let stub = Stub::start(oracle(&cases, &probes)).await.expect("stub");
    let base = stub.base_url.clone();
    let args = |probes: &Path, out: &Path| -> Vec<String> {
        [
            "experiment",
            "fidelity",
            "--dataset",
            &demo_path(),
            "--dataset-name",
            server::demo::DEMO_NAME,
            "--probes",
            &probes.to_string_lossy(),
            "--user-model",
            "Test-User",
            "--user-url",
            &base,
            "--judge",
            "Test-Judge",
            "--judge-url",
            &base,
            "--retry-delay",
            "0.01",
            "--out",
            &out.to_string_lossy(),
            "--db",
            &db_path.to_string_lossy(),
        ]
        .map(str::to_owned)
        .to_vec()
    };

    // A probe file with a fact that is not missing and an empty question is
    // refused, line and field named, before any call; nothing is stored.
    let mut bad: Vec<Value> = probes
        .iter()
        .map(|p| serde_json::to_value(p).expect("JSON"))
        .collect();
    bad[1]["fact"] = "k-none".into();
    bad[4]["broad"] = "".into();
    let bad_file = dir.path().join("bad.jsonl");
    let text: String = bad.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(&bad_file, text).expect("write");
    let refused = tokio::task::spawn_blocking({
        let a = args(&bad_file, &dir.path().join("bad-out"));
        move || lexpilot(a)
    })
    .await
    .expect("join");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        stderr.contains("line 2") && stderr.contains("fact"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 5") && stderr.contains("broad"),
        "{stderr}"
    );
    assert_eq!(stub.requests(), 0, "no call before the probes are valid");
    assert!(app.get("/paper").await.body.contains("table-13-empty"));

    let out = dir.path().join("out");
    let output = tokio::task::spawn_blocking({
        let a = args(&probe_file, &out);
        move || lexpilot(a)
    })
    .await
    .expect("join");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    );
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("Table 13"), "{stdout}");
    assert!(stderr.contains("23 review items"), "{stderr}");
    // 6 probes × A, B, C and 5 × D replies; the judge on the 18 A–C questions.
    assert_eq!(stub.count(PromptKind::User), 23);
    assert_eq!(stub.count(PromptKind::JudgeDcg), 18);

    // Written by another process: the cached page sees it within a poll.
    let page = app
        .get_when("/paper", |p| !p.body.contains("table-13-empty"))
        .await;
    assert!(!page.body.contains("table-13-empty"));
    assert!(page.body.contains("data-testid=\"paper-table_13\""));
    assert!(page.body.contains("0 of 23 replies labelled"), "progress");

    // Two experts label every reply blind.
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
    assert_eq!(ok::<AssignReviews>(&app, &admin, &[]).await, 46);
    let todo: Vec<Value> = ok::<MyQueue>(&app, &a, &[]).await["todo"]
        .as_array()
        .expect("todo")
        .clone();
    assert_eq!(todo.len(), 23);
    let conditions: Vec<&str> = todo.iter().filter_map(|i| i["target"].as_str()).collect();
    assert_ne!(
        conditions[..4],
        ["direct", "indirect", "broad", "withheld"],
        "the queue mixes the conditions"
    );
    let mut first = None;
    for item in &todo {
        let id = item["id"].as_i64().expect("id").to_string();
        let view = ok::<GetReviewItem>(&app, &a, &[("id", &id)]).await;
        let input = &view["input"];
        assert_eq!(input["study"], "simulator_fidelity");
        assert!(
            input.get("dcg_accepted").is_none() && !input.to_string().contains("dcg"),
            "the DCG decision is not shown: {input}"
        );
        let reply = input["reply"].as_str().expect("reply");
        let condition = input["condition"].as_str().expect("condition");
        // The stub answers where the fact is in its input and is unsure
        // where it was withheld: every answer mark is 1.
        match condition {
            "withheld" => {
                assert_eq!(reply, pipeline::stub::fidelity::UNSURE);
                let target = input["target_fact"].as_str().expect("target");
                assert!(!input["key_facts"].to_string().contains(target));
            }
            _ => assert!(reply.contains(ANSWER), "{reply}"),
        }
        let answer = if condition == "broad" {
            ""
        } else {
            "answer=1, "
        };
        let label = format!("{answer}over_disclosure=0, error=0");
        ok::<SubmitReview>(&app, &a, &[("id", &id), ("label", &label), ("comment", "")]).await;
        let other = match first {
            None => {
                first = Some(id.clone());
                format!("{answer}over_disclosure=1, error=0")
            }
            Some(_) => label.clone(),
        };
        ok::<SubmitReview>(&app, &b, &[("id", &id), ("label", &other), ("comment", "")]).await;
    }
    let first = first.expect("an item");
    let pending = app.get("/paper").await;
    assert!(pending.body.contains("22 of 23 replies labelled"));
    let first_label: String = {
        let view = ok::<GetReviewItem>(&app, &a, &[("id", &first)]).await;
        let answer = if view["input"]["condition"] == "broad" {
            ""
        } else {
            "answer=1, "
        };
        format!("{answer}over_disclosure=0, error=0")
    };
    ok::<Adjudicate>(
        &app,
        &admin,
        &[
            ("id", &first),
            ("label", &first_label),
            ("reason", "repeats the history only"),
        ],
    )
    .await;

    let table: Value = app
        .get("/api/leaderboard/export?paper=table_13&format=json")
        .await
        .json();
    let cell = |r: usize, c: usize| table["rows"][r]["cells"][c]["mean"].as_f64();
    assert_eq!(
        table["rows"]
            .as_array()
            .map(|r| r.iter().map(|r| r["label"].clone()).collect::<Vec<_>>()),
        Some(vec![
            "A: Direct".into(),
            "B: Indirect".into(),
            "C: Broad".into(),
            "D: Withheld".into()
        ])
    );
    assert_eq!(
        (cell(0, 0), cell(0, 1), cell(0, 3)),
        (Some(1.0), Some(0.0), Some(1.0))
    );
    // The stub rejects the indirect question of probes 3 and 6.
    assert!((cell(1, 3).expect("DCG+ of B") - 4.0 / 6.0).abs() < 1e-12);
    assert_eq!((cell(2, 0), cell(2, 3)), (None, Some(0.0)));
    assert_eq!((cell(3, 0), cell(3, 3)), (Some(1.0), None));
    let csv = app
        .get("/api/leaderboard/export?paper=table_13&format=csv")
        .await;
    assert!(
        csv.body.starts_with("group,row,answer_mean"),
        "{}",
        csv.body
    );

    let page = app.get("/paper").await.body;
    assert!(page.contains("23 of 23 replies labelled"));
    // One over-disclosure disagreement of 23; the 17 answer marks (A, B, D) agreed.
    let figures = page.split("table-13-figures").nth(1).unwrap_or_default();
    assert!(
        page.contains("Over-disclosure: 95.7% (22/23)"),
        "{}",
        &figures[..figures.len().min(1500)]
    );
    assert!(page.contains("Answer sufficient (D: appropriate uncertainty): 100.0% (17/17)"));
    assert!(page.contains("A sufficient and D appropriately uncertain: 100.0% (5/5)"));
    assert!(page.contains("without factual recovery (E.3.3): 0.0% (0/10)"));
    assert!(page.contains("paired case bootstrap over 6 cases"));

    // The study is stored once: a second run is refused.
    let again = tokio::task::spawn_blocking({
        let a = args(&probe_file, &out);
        move || lexpilot(a)
    })
    .await
    .expect("join");
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already"));
}
