//! The `lexpilot` binary as a maintainer runs it: exit codes, messages that
//! name the file, line and field, all-or-nothing imports, accounts from stdin.

mod common;

use std::path::Path;
use std::process::Output;

use common::cli::{lexpilot, text, write};
use common::json::assert_close;

const DEMO: &str = include_str!("../data/demo-synthetic.jsonl");

/// `lexpilot user add` with the password on standard input.
fn user_add(db: &str, name: &str, role: &str, password: &str) -> Output {
    lexpilot(
        &["user", "add", "--name", name, "--role", role, "--db", db],
        Some(password),
    )
}

async fn count(db: &str, table: &str) -> i64 {
    let db = db::Db::open(Path::new(db)).await.expect("open");
    sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(db.pool())
        .await
        .expect("count")
}

#[test]
fn validate_accepts_the_demo_and_names_line_and_field_of_errors() {
    let dir = tempfile::tempdir().expect("dir");
    let good = write(dir.path(), "demo.jsonl", DEMO);
    let out = lexpilot(&["validate", &good], None);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("72 cases, 0 warning(s)"));

    // A warning is printed with file, line and field but does not fail the check.
    let mut first: serde_json::Value =
        serde_json::from_str(DEMO.lines().next().expect("a line")).expect("JSON");
    let turns = first["consultations"]["underspecified"]
        .as_array_mut()
        .expect("turns");
    let last = turns.len() - 1;
    let said = turns[last]["content"].as_str().expect("text").to_owned();
    turns[last]["content"] = format!("{said}她还把车卖了。").into();
    let mut lines: Vec<String> = DEMO.lines().map(str::to_owned).collect();
    lines[0] = first.to_string();
    let warned = write(dir.path(), "warned.jsonl", &lines.join("\n"));
    let out = lexpilot(&["validate", &warned], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("72 cases, 1 warning(s)"));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "warned.jsonl: warning: line 1 (DEMO-0001), field consultations.underspecified[{last}].content"
        )) && err.contains("她还把车卖了"),
        "{err}"
    );

    let mut lines: Vec<String> = DEMO.lines().map(str::to_owned).collect();
    lines[2] = lines[2].replacen("\"verdict\": \"supported\"", "\"verdict\": \"won\"", 1);
    assert!(
        lines[2].contains("won"),
        "the fixture line has a supported claim to break"
    );
    lines[4] = "{ not json".to_owned();
    let bad = write(dir.path(), "bad.jsonl", &lines.join("\n"));
    let out = lexpilot(&["validate", &bad], None);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("bad.jsonl: line 5"), "{err}");
    assert!(
        err.contains("line 3") && err.contains("claims[0].verdict") && err.contains("won"),
        "{err}"
    );
}

#[tokio::test]
async fn import_is_all_or_nothing_and_versioned() {
    let dir = tempfile::tempdir().expect("dir");
    let db = db::Db::location_for_test(&dir.path().join("t.db"))
        .await
        .expect("a fresh database");
    let good = write(dir.path(), "cases.jsonl", DEMO);

    let out = lexpilot(&["import", &good, "--db", &db], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("imported 72 cases as dataset cases version 1"));

    let again = lexpilot(&["import", &good, "--db", &db], None);
    assert!(again.status.success());
    assert!(text(&again.stdout).contains("unchanged"));
    assert_eq!(count(&db, "datasets").await, 1);

    let changed = write(
        dir.path(),
        "cases.jsonl",
        &DEMO.replacen("判令", "请求判令", 1),
    );
    let out = lexpilot(&["import", &changed, "--db", &db], None);
    assert!(
        text(&out.stdout).contains("version 2"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(count(&db, "cases").await, 144);

    // One bad line among 72 good ones: nothing of the file is stored.
    let mut lines: Vec<&str> = DEMO.lines().collect();
    lines.push("{\"case_id\": \"DEMO-0001\"}");
    let bad = write(dir.path(), "other.jsonl", &lines.join("\n"));
    let out = lexpilot(&["import", &bad, "--db", &db], None);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("nothing was imported"));
    assert_eq!(count(&db, "datasets").await, 2);
    assert_eq!(count(&db, "cases").await, 144);

    let empty = write(dir.path(), "empty.jsonl", "\n");
    let out = lexpilot(&["import", &empty, "--db", &db], None);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("holds no cases"));
}

#[tokio::test]
async fn load_demo_fills_a_fresh_database_once_and_never_beside_real_data() {
    let dir = tempfile::tempdir().expect("dir");
    let db = db::Db::location_for_test(&dir.path().join("t.db"))
        .await
        .expect("a fresh database");
    let out = lexpilot(&["load-demo", "--db", &db], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for name in [
        "lexpilot-demo-synthetic",
        "plawbench-demo-synthetic",
        "dlawbench-demo-synthetic",
    ] {
        assert!(stdout.contains(name), "{stdout}");
    }
    let (datasets, runs) = (count(&db, "datasets").await, count(&db, "runs").await);
    assert_eq!(datasets, 3);
    assert!(runs > 0);

    let again = lexpilot(&["load-demo", "--db", &db], None);
    assert!(again.status.success());
    assert!(
        text(&again.stdout).contains("unchanged"),
        "{}",
        text(&again.stdout)
    );
    assert_eq!(count(&db, "datasets").await, datasets);
    assert_eq!(count(&db, "runs").await, runs);

    let real = dir.path().join("real.db").to_string_lossy().into_owned();
    let good = write(dir.path(), "cases.jsonl", DEMO);
    assert!(lexpilot(&["import", &good, "--db", &real], None)
        .status
        .success());
    let out = lexpilot(&["load-demo", "--db", &real], None);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("unchanged"));
    assert_eq!(count(&real, "datasets").await, 1);
}

#[tokio::test]
async fn user_add_reads_the_password_from_stdin() {
    let dir = tempfile::tempdir().expect("dir");
    let db_path = db::Db::location_for_test(&dir.path().join("t.db"))
        .await
        .expect("a fresh database");
    let out = user_add(&db_path, "张专家", "expert", "a-good-password\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let db = db::Db::open(Path::new(&db_path)).await.expect("open");
    assert!(db::users::verify(&db, "张专家", "a-good-password")
        .await
        .expect("verify")
        .is_some());

    let dup = user_add(&db_path, "张专家", "admin", "another-password");
    assert!(!dup.status.success());
    assert!(text(&dup.stderr).contains("exists already"));
    let bad_role = user_add(&db_path, "x", "judge", "password-123");
    assert!(!bad_role.status.success());
    assert!(text(&bad_role.stderr).contains("unknown role"));
    let short = user_add(&db_path, "y", "admin", "short");
    assert!(!short.status.success());
}

#[tokio::test]
async fn user_adjudicator_designates_an_expert_and_withdraws_it() {
    let dir = tempfile::tempdir().expect("dir");
    let db_path = db::Db::location_for_test(&dir.path().join("t.db"))
        .await
        .expect("a fresh database");
    assert!(user_add(&db_path, "张专家", "expert", "a-good-password")
        .status
        .success());
    assert!(
        user_add(&db_path, "研究员", "researcher", "a-good-password")
            .status
            .success()
    );
    let designate = |name: &str, extra: &[&str]| {
        let mut args = vec!["user", "adjudicator", "--name", name, "--db", &db_path];
        args.extend_from_slice(extra);
        lexpilot(&args, None)
    };
    let out = designate("张专家", &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("张专家 may now adjudicate"));
    let list = lexpilot(&["user", "list", "--db", &db_path], None);
    assert!(
        text(&list.stdout).contains("张专家\texpert\tadjudicator"),
        "{}",
        text(&list.stdout)
    );
    assert!(text(&list.stdout).contains("研究员\tresearcher\n"));

    let refused = designate("研究员", &[]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("only an expert account"));
    let unknown = designate("无名", &[]);
    assert!(!unknown.status.success());
    assert!(text(&unknown.stderr).contains("no account named 无名"));

    assert!(designate("张专家", &["--withdraw"]).status.success());
    let db = db::Db::open(Path::new(&db_path)).await.expect("open");
    let user = db::users::by_name(&db, "张专家")
        .await
        .expect("q")
        .expect("user");
    assert!(!user.adjudicator);
}

#[test]
fn every_subcommand_has_help() {
    for args in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["validate", "--help"],
        vec!["import", "--help"],
        vec!["load-demo", "--help"],
        vec!["user", "add", "--help"],
        vec!["user", "adjudicator", "--help"],
    ] {
        let out = lexpilot(&args, None);
        assert!(out.status.success(), "{args:?}");
        assert!(text(&out.stdout).contains("Usage"), "{args:?}");
    }
    assert!(text(&lexpilot(&["serve", "--help"], None).stdout).contains("--db"));
}

const CONTRACT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine/tests/fixtures/contract-example"
);

fn contract_runs() -> Vec<String> {
    ["run_m0_1", "run_m0_2", "run_m1_1", "run_m1_2"]
        .iter()
        .map(|r| format!("{CONTRACT}/{r}.jsonl"))
        .collect()
}

#[test]
fn score_json_reproduces_the_contract_example() {
    let dataset = format!("{CONTRACT}/dataset.jsonl");
    let mut args = vec!["score", "--dataset", dataset.as_str(), "--json"];
    let runs = contract_runs();
    args.extend(runs.iter().map(String::as_str));
    let out = lexpilot(&args, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut actual: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(actual["dataset"], "dataset");
    if let Some(map) = actual.as_object_mut() {
        map.remove("dataset");
    }
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{CONTRACT}/expected-score.json")).expect("fixture"),
    )
    .expect("expected JSON");
    assert_close(&actual, &expected, "$", 1e-9);
}

#[test]
fn score_prints_a_table_per_entry_and_refuses_duplicates_and_bad_runs() {
    let dataset = format!("{CONTRACT}/dataset.jsonl");
    let runs = contract_runs();
    let out = lexpilot(&["score", "--dataset", &dataset, &runs[0], &runs[1]], None);
    assert!(out.status.success());
    let table = text(&out.stdout);
    assert!(table.contains("Model-0 (closed, 2 runs)"), "{table}");
    assert!(
        table.contains("LCA macro-F1") && table.contains("0.4916±0.0257"),
        "{table}"
    );

    let dup = lexpilot(&["score", "--dataset", &dataset, &runs[0], &runs[0]], None);
    assert!(!dup.status.success());
    assert!(
        text(&dup.stderr).contains("run 1 is already given"),
        "{}",
        text(&dup.stderr)
    );

    let dir = tempfile::tempdir().expect("dir");
    let original = std::fs::read_to_string(&runs[0]).expect("run");
    let broken = write(
        dir.path(),
        "broken.jsonl",
        &original.replacen("\"label\": \"ask\"", "\"label\": \"maybe\"", 1),
    );
    let out = lexpilot(&["score", "--dataset", &dataset, &broken], None);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("broken.jsonl: line 3") && err.contains("label") && err.contains("maybe"),
        "{err}"
    );
    assert!(err.contains("nothing was scored"));

    let out = lexpilot(
        &["validate", "--dataset", &dataset, &runs[0], &broken],
        None,
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stdout).contains("valid run, model Model-0 run 1, 2 unavailable"),
        "{}",
        text(&out.stdout)
    );
}

#[tokio::test]
async fn token_create_prints_the_token_alone_on_the_last_line() {
    let dir = tempfile::tempdir().expect("dir");
    let db_path = db::Db::location_for_test(&dir.path().join("t.db"))
        .await
        .expect("a fresh database");
    let out = user_add(&db_path, "研究员", "researcher", "a-good-password");
    assert!(out.status.success());
    let out = lexpilot(
        &["token", "create", "--user", "研究员", "--db", &db_path],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let token = stdout.lines().last().expect("a line").trim().to_owned();
    let db = db::Db::open(Path::new(&db_path)).await.expect("open");
    let user = db::tokens::user(&db, &token)
        .await
        .expect("lookup")
        .expect("token works");
    assert_eq!(user.name, "研究员");
    let missing = lexpilot(
        &["token", "create", "--user", "nobody", "--db", &db_path],
        None,
    );
    assert!(!missing.status.success());
    assert!(text(&missing.stderr).contains("no user named nobody"));
}

const PLAW_DEMO: &str = include_str!("../data/plawbench/demo.jsonl");

/// PLawBench at the command line: the dataset in either form (ours or
/// evalscope's records) validates and imports as items, runs validate
/// against it, and `score --json` prints the engine's §B4.4 document.
#[tokio::test]
async fn plawbench_datasets_import_and_runs_score_at_the_command_line() {
    let dir = tempfile::tempdir().expect("dir");
    let db = db::Db::location_for_test(&dir.path().join("t.db"))
        .await
        .expect("a fresh database");
    let data = write(dir.path(), "plaw.jsonl", PLAW_DEMO);
    let out = lexpilot(&["validate", "--benchmark", "plawbench", &data], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("valid dataset, 24 items"));

    // evalscope's records of the same items import as the same content.
    let items = engine::plawbench::dataset::parse_dataset(PLAW_DEMO).expect("demo");
    let records: String = items
        .iter()
        .map(|i| {
            let rubrics = match (&i.sections, &i.rubric) {
                (Some(_), _) => serde_json::to_string(&i.sections).expect("json"),
                (None, Some(r)) => r.clone(),
                (None, None) => unreachable!("every item has a rubric"),
            };
            serde_json::json!({
                "id": i.item_id, "task": i.task.as_str(),
                "judge_type": i.task.judge_type().as_str(),
                "category": i.category.clone().unwrap_or_default(),
                "context": i.context, "question": i.question,
                "rubrics": rubrics, "max_points": i.max_points,
            })
            .to_string()
                + "\n"
        })
        .collect();
    let evalscope = write(dir.path(), "evalscope.jsonl", &records);
    let name = [
        "--name",
        "plaw-demo",
        "--db",
        &db,
        "--benchmark",
        "plawbench",
    ];
    let out = lexpilot(&[&["import", &data][..], &name[..]].concat(), None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("imported 24 items as dataset plaw-demo version 1 (plawbench)"),
        "{}",
        text(&out.stdout)
    );
    let out = lexpilot(&[&["import", &evalscope][..], &name[..]].concat(), None);
    assert!(
        text(&out.stdout).contains("unchanged"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(count(&db, "items").await, 24);
    assert_eq!(count(&db, "cases").await, 0);

    // A bad item names its line and field; nothing of the file is stored.
    let broken = PLAW_DEMO.replacen("\"max_points\": ", "\"max_points\": -", 1);
    let bad = write(dir.path(), "bad.jsonl", &broken);
    let out = lexpilot(&[&["import", &bad][..], &name[..]].concat(), None);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.jsonl: line 1") && err.contains("max_points"),
        "{err}"
    );
    assert_eq!(count(&db, "datasets").await, 1);

    let runs: Vec<String> = server::demo::PLAW_DEMO_RUNS
        .iter()
        .map(|(n, t)| write(dir.path(), &format!("{n}.jsonl"), t))
        .collect();
    let mut args = vec![
        "score",
        "--benchmark",
        "plawbench",
        "--json",
        "--dataset",
        &data,
    ];
    args.extend(runs.iter().map(String::as_str));
    let out = lexpilot(&args, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let parsed: Vec<engine::plawbench::run::Run> = server::demo::PLAW_DEMO_RUNS
        .iter()
        .map(|(_, t)| engine::plawbench::run::parse_run(t, &items).expect("run"))
        .collect();
    let expected = serde_json::to_value(
        engine::plawbench::score::score_entries(&parsed, &items).with_dataset("plaw"),
    )
    .expect("json");
    assert_close(&printed, &expected, "$", 1e-15);
    let table = lexpilot(
        &args
            .iter()
            .filter(|a| **a != "--json")
            .copied()
            .collect::<Vec<_>>(),
        None,
    );
    assert!(
        text(&table.stdout).contains("Task2-Statute"),
        "{}",
        text(&table.stdout)
    );
}

/// Issue 39, point 7: a reader that stops early (`lexpilot validate … |
/// head -1`) ends the command quietly: no panic message, not status 101,
/// but 141 as a shell shows a command stopped by a closed pipe (or 0 when
/// the output fitted the pipe before it closed).
#[test]
fn a_closed_output_pipe_ends_the_command_quietly() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};

    let dir = tempfile::tempdir().expect("dir");
    let one_case = DEMO.lines().next().expect("a case");
    let file = write(dir.path(), "one.jsonl", one_case);
    // Far more output than a pipe holds (64 KiB): the writer meets the
    // closed pipe for sure.
    let files = vec![file.as_str(); 4000];
    for attempt in 0..5 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_lexpilot"))
            .arg("validate")
            .args(&files)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("lexpilot starts");
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut first)
            .expect("a line");
        assert!(first.contains("valid dataset"), "{first}");
        // The reader goes away, as `head -1` does.
        let out = child.wait_with_output().expect("lexpilot ends");
        let err = text(&out.stderr);
        assert!(!err.contains("panicked"), "attempt {attempt}: {err}");
        assert_ne!(out.status.code(), Some(101), "attempt {attempt}: {err}");
        assert!(
            matches!(out.status.code(), Some(0 | 141)),
            "attempt {attempt}: {:?} {err}",
            out.status
        );
    }
}
