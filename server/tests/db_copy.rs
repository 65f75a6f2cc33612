//! Moving a whole deployment (`lexpilot db copy`, `db verify`): a SQLite
//! database holding every kind of row the workbench stores, made through
//! the app's own code, copied to a fresh database (on the PostgreSQL server
//! `LEXPILOT_TEST_PG` names, else another SQLite file) and back to a new
//! SQLite file, equal at every step; and the command as a maintainer runs it.

mod common;

use std::path::Path;

use common::cli::{lexpilot, text};
use db::copy::Side;
use db::Db;
use engine::accounts::Role;
use engine::benchmark::Benchmark;
use serde_json::json;

const PASSWORD: &str = "a-long-password";

/// Fills `db` the way the workbench does: the demo datasets and runs of
/// every benchmark, accounts of each role (one a designated adjudicator),
/// a session, an API token and a failed sign-in; seed-dialogue review items
/// assigned to two experts, one labelled by both, one flagged unclear, one
/// with a draft; a case correction (revisions and a new version); an
/// endpoint and a job with a lease and a kept call; statutes; a Targeted vs
/// Off-target result; fidelity probes and a study with its review item.
async fn populate(db: &Db) {
    server::demo::ensure_loaded(db).await.expect("demo loads");
    let mut users = Vec::new();
    for (name, role) in [
        ("admin", Role::Admin),
        ("expert-a", Role::Expert),
        ("expert-b", Role::Expert),
        ("researcher", Role::Researcher),
    ] {
        users.push(
            db::users::create(db, name, role, PASSWORD)
                .await
                .expect("user"),
        );
    }
    let expert_b = db::users::set_adjudicator(db, "expert-b", true)
        .await
        .expect("designated");
    let [admin, expert_a, _, researcher] = <[_; 4]>::try_from(users).expect("four");
    db::sessions::create(db, &admin).await.expect("session");
    db::tokens::create(db, &researcher).await.expect("token");
    db::sessions::record_failure(db, "admin", "203.0.113.9")
        .await
        .expect("failure");

    let dataset = db::datasets::current(db, Benchmark::Lexpilot)
        .await
        .expect("query")
        .expect("the demo dataset");
    let rescore = services::ingest::rescore(Benchmark::Lexpilot);
    let created = db::review::create_seed_items(db, &dataset, &admin)
        .await
        .expect("seed items");
    assert!(created.created >= 3, "{created:?}");
    let experts = ["expert-a".to_owned(), "expert-b".to_owned()];
    db::review::auto_assign(db, &dataset.name, Some(&experts))
        .await
        .expect("assigned");
    let queue = db::review::queue(db, &dataset.name, &expert_a)
        .await
        .expect("queue");
    let (first, second, third) = (queue[0].id, queue[1].id, queue[2].id);
    for expert in [&expert_a, &expert_b] {
        db::review::submit(
            db,
            first,
            expert,
            "approve",
            "对话自然",
            None,
            Some(42),
            rescore,
        )
        .await
        .expect("label");
    }
    db::review::flag_unclear(db, second, &expert_a, "案情不清楚")
        .await
        .expect("unclear");
    db::review::save_draft(db, third, &expert_b, "{\"label\":\"approve\"}")
        .await
        .expect("draft");

    let mut case = db::cases::all(db, dataset.id).await.expect("cases")[0].clone();
    case.consultations.complete[0].content.push_str("（补充）");
    db::revisions::correct_case(db, &dataset.name, &case, 1, &admin, "补充事实", rescore)
        .await
        .expect("corrected");

    let endpoint = db::jobs::save_endpoint(
        db,
        None,
        db::jobs::EndpointFields {
            name: "local",
            base_url: "http://127.0.0.1:9/v1",
            model: "M",
            key_env: Some("M_KEY"),
            vendor: None,
        },
    )
    .await
    .expect("endpoint");
    let spec = db::jobs::JobSpec {
        benchmark: Benchmark::Lexpilot,
        dataset: dataset.name.clone(),
        model: endpoint.clone(),
        user: None,
        judges: vec![endpoint],
        tasks: vec!["lca".into()],
        runs: 1,
        first_run: 4,
        concurrency: 1,
        user_condition: "standard".into(),
        limit: Some(2),
        family: None,
        plawbench: None,
        dlawbench: None,
        experiment: None,
    };
    let lease = db::jobs::Lease {
        owner: "server-a",
        until: db::jobs::now_ms() + 60_000,
    };
    let new = db::jobs::NewJob {
        dataset_id: dataset.id,
        spec: &spec,
        created_by: admin.id,
    };
    let job = db::jobs::create_job(db, new, lease, |id| format!("jobs/{id}"))
        .await
        .expect("job");
    let call = db::jobs::Call {
        key: "k1".into(),
        content: "是".into(),
        prompt_tokens: 12,
        completion_tokens: 1,
        finish_reason: None,
    };
    db::jobs::store_calls(db, job.id, &[call])
        .await
        .expect("a kept call");

    let statutes = engine::statutes::package::Statutes {
        laws: vec![engine::statutes::Law {
            key: "civil-code".into(),
            name: "中华人民共和国民法典".into(),
            status: engine::statutes::LawStatus::InForce,
            effective_date: Some("2021-01-01".into()),
        }],
        provisions: vec![engine::statutes::Provision {
            law: "civil-code".into(),
            number: 577,
            sub: 0,
            label: "第五百七十七条".into(),
            chapter: None,
            text: "当事人一方不履行合同义务……".into(),
        }],
        skipped: 0,
        warnings: Vec::new(),
    };
    db::statutes::import(db, "laws.db", "0123", Some("admin"), &statutes)
        .await
        .expect("statutes");

    let targeted = db::targeted::NewTargetedRun {
        model: "sim-frontier-2".into(),
        run: 1,
        entry_key: engine::core::entry::EntryKey {
            model: "sim-frontier-2".into(),
            ..Default::default()
        },
        items: "{}\n".into(),
        scores: "{}".into(),
        created_at: None,
    };
    db::targeted::store_all(
        db,
        dataset.id,
        &[targeted],
        Some(admin.id),
        db::runs::OnDuplicate::Refuse,
    )
    .await
    .expect("targeted");

    let probe = db::fidelity::NewProbe {
        case_id: case.case_id.clone(),
        probe: "{}".into(),
    };
    db::fidelity::store_probes(
        db,
        &dataset,
        &[probe],
        Some(admin.id),
        engine::accounts::Replacer::Admin,
    )
    .await
    .expect("probes");
    let reply = db::fidelity::ReplyItem {
        case_id: case.case_id.clone(),
        condition: "standard".into(),
        input: json!({ "reply": "我不清楚" }),
    };
    db::fidelity::store_study(
        db,
        &dataset,
        "sim-user",
        "{}\n",
        vec![reply],
        Some(admin.id),
    )
    .await
    .expect("study");
}

fn side<'a>(db: &'a Db, name: &'a str) -> Side<'a> {
    Side { db, name }
}

/// Whether `a` and `b` (SQLite files with the same schema) hold the same
/// rows in every table, asked of SQLite itself: neither side has a row the
/// other lacks, and they have as many.
async fn same_sqlite_files(a: &Path, b: &Path) {
    use sqlx::Connection;
    let url = format!("sqlite://{}", a.display());
    let mut conn = sqlx::SqliteConnection::connect(&url).await.expect("opens");
    sqlx::query(&format!("ATTACH DATABASE '{}' AS other", b.display()))
        .execute(&mut conn)
        .await
        .expect("attach");
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' ORDER BY name",
    )
    .fetch_all(&mut conn)
    .await
    .expect("tables");
    let theirs: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM other.sqlite_master WHERE type = 'table' ORDER BY name",
    )
    .fetch_all(&mut conn)
    .await
    .expect("tables");
    assert_eq!(tables, theirs);
    for table in tables.iter().filter(|t| *t != "_sqlx_migrations") {
        let (missing, extra, ours, other): (i64, i64, i64, i64) = sqlx::query_as(&format!(
            "SELECT (SELECT COUNT(*) FROM (SELECT * FROM main.\"{table}\"
                                          EXCEPT SELECT * FROM other.\"{table}\")),
                    (SELECT COUNT(*) FROM (SELECT * FROM other.\"{table}\"
                                          EXCEPT SELECT * FROM main.\"{table}\")),
                    (SELECT COUNT(*) FROM main.\"{table}\"),
                    (SELECT COUNT(*) FROM other.\"{table}\")"
        ))
        .fetch_one(&mut conn)
        .await
        .expect("compared");
        assert_eq!((missing, extra, ours), (0, 0, other), "table {table}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_table_goes_to_the_other_backend_and_back_unchanged() {
    let dir = tempfile::tempdir().expect("dir");
    let first_path = dir.path().join("first.db");
    let first = Db::open(&first_path).await.expect("opens");
    populate(&first).await;
    let counts = db::copy::row_counts(side(&first, "first.db"))
        .await
        .expect("counts");
    let empty: Vec<&str> = counts
        .iter()
        .filter(|(_, rows)| *rows == 0)
        .map(|(table, _)| table.as_str())
        .collect();
    assert!(
        empty.is_empty(),
        "populate leaves these tables empty, so no copy of their rows is tested: {empty:?}"
    );
    assert!(counts.len() >= 25, "{counts:?}");

    let location = Db::location_for_test(&dir.path().join("middle.db"))
        .await
        .expect("a location");
    let middle = Db::open(Path::new(&location)).await.expect("opens");
    let there = db::copy::copy(side(&first, "first.db"), side(&middle, &location))
        .await
        .expect("copied there");
    assert_eq!(there.tables, counts);
    eprintln!("{:?} to {:?}:\n{there}", first.backend(), middle.backend());
    let check = db::copy::verify(side(&first, "first.db"), side(&middle, &location))
        .await
        .expect("compared");
    assert!(check.same(), "{check}");

    let last_path = dir.path().join("last.db");
    let last = Db::open(&last_path).await.expect("opens");
    let back = db::copy::copy(side(&middle, &location), side(&last, "last.db"))
        .await
        .expect("copied back");
    assert_eq!(back.tables, counts);
    let check = db::copy::verify(side(&middle, &location), side(&last, "last.db"))
        .await
        .expect("compared");
    assert!(check.same(), "{check}");
    let check = db::copy::verify(side(&first, "first.db"), side(&last, "last.db"))
        .await
        .expect("compared");
    assert!(check.same(), "{check}");
    same_sqlite_files(&first_path, &last_path).await;

    // Both copies go on: the next account, job and review item get new ids.
    for copy in [&middle, &last] {
        let largest = db::users::list(copy)
            .await
            .expect("users")
            .iter()
            .map(|u| u.id)
            .max()
            .expect("users");
        let new = db::users::create(copy, "newcomer", Role::Expert, PASSWORD)
            .await
            .expect("a new account after the copy");
        assert_eq!(new.id, largest + 1);
        let dataset = db::datasets::current(copy, Benchmark::Lexpilot)
            .await
            .expect("query")
            .expect("dataset");
        let admin = db::users::by_name(copy, "admin")
            .await
            .expect("query")
            .expect("admin");
        db::review::create_case_check_items(copy, &dataset, &admin)
            .await
            .expect("new review items after the copy");
        let user = db::sessions::user(copy, "not a session")
            .await
            .expect("query");
        assert!(user.is_none());
    }
}

#[test]
fn the_cli_copies_and_verifies_and_refuses_a_target_with_data() {
    let dir = tempfile::tempdir().expect("dir");
    let source = dir.path().join("source.db");
    let source = source.to_str().expect("UTF-8");
    let out = lexpilot(&["load-demo", "--db", source], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let target = common::server_runtime()
        .block_on(Db::location_for_test(&dir.path().join("target.db")))
        .expect("a location");

    let out = lexpilot(
        &["db", "copy", "--from", source, "--to", &target, "--verify"],
        None,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], format!("copying {source} to {target}"));
    assert!(
        lines[1].starts_with("table ") && lines[1].ends_with(" rows"),
        "{stdout}"
    );
    let datasets = lines
        .iter()
        .find(|l| l.starts_with("datasets "))
        .expect("a datasets line");
    assert!(datasets.ends_with(" 3"), "{stdout}");
    let width = lines[1].len();
    let total = lines
        .iter()
        .position(|l| l.starts_with("total "))
        .expect("total");
    assert!(
        lines[1..=total].iter().all(|l| l.len() == width),
        "aligned: {stdout}"
    );
    assert!(lines[total + 1].starts_with("copied "), "{stdout}");
    assert_eq!(
        lines[total + 2],
        format!("comparing {source} with {target}")
    );
    assert!(
        stdout.contains("datasets")
            && stdout
                .lines()
                .last()
                .expect("a verdict")
                .starts_with("all "),
        "{stdout}"
    );

    // Again: the target holds data now, and nothing is written.
    let out = lexpilot(&["db", "copy", "--from", source, "--to", &target], None);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("error: the target {target} is not empty: "))
            && stderr.contains("datasets holds 3 rows")
            && stderr.contains("model_generations holds 9 rows")
            && stderr.contains("nothing was written"),
        "{stderr}"
    );
    let out = lexpilot(&["db", "verify", "--from", source, "--to", &target], None);
    assert!(out.status.success(), "{}", text(&out.stdout));

    // A difference fails the comparison and is named.
    let out = lexpilot(
        &[
            "user", "add", "--name", "late", "--role", "expert", "--db", &target,
        ],
        Some(PASSWORD),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = lexpilot(&["db", "verify", "--from", source, "--to", &target], None);
    assert!(!out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!("id=1: only in {target}")) && stdout.contains("1 table differs"),
        "{stdout}"
    );

    let out = lexpilot(&["db", "copy", "--from", source, "--to", source], None);
    assert!(text(&out.stderr).contains("--from and --to name the same database"));
    let missing = dir.path().join("missing.db");
    let out = lexpilot(
        &[
            "db",
            "copy",
            "--from",
            missing.to_str().expect("UTF-8"),
            "--to",
            &target,
        ],
        None,
    );
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("there is no database at"));
    assert!(!missing.exists(), "a missing source is not created");
}
