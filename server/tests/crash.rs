//! Crashes lose nothing: the real `lexpilot` binary, killed with SIGKILL in
//! the middle of a steady stream of writes from several concurrent clients,
//! then restarted on the same database. After every kill the database (opened
//! read-only while no server runs) passes `PRAGMA integrity_check`, holds every
//! write the server acknowledged, and holds each write whole or not at all:
//!
//! - run uploads (`POST /api/runs`, and batches of three through the upload
//!   page's `StoreRuns`): every stored run parses, every batch is all or none;
//! - review labels (`SubmitReview` by two experts): each submitted label has
//!   its history, no history without its label, blind labels as the history
//!   makes them, agreement decided exactly when the blind labels agree;
//! - case corrections (`SaveCaseCorrection`): every revision lives in a whole
//!   dataset version, and each version a correction made carries the runs of
//!   the version it was made from;
//! - a benchmark job (against the pipeline's stub endpoint, here in the test):
//!   resumed by the restarted server once its lease lapses, from the calls
//!   kept in the database, without repeating a kept call, and ending with
//!   what an uninterrupted job makes.
//!
//! Kill delays are drawn from a seed printed at the start of each test; set
//! `LEXPILOT_CRASH_SEED` to replay one.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::form;
use common::process::{client, tail, Http, Server};
use engine::lexpilot::dataset::Case;
use leptos::server_fn::ServerFn;
use pipeline::stub::{oracle, request_id, Stub};
use serde_json::{json, Value};
use server::demo::{DEMO_DATASET, DEMO_RUNS};
use sqlx::sqlite::SqlitePool;

use app::server_fns::corrections::SaveCaseCorrection;
use app::server_fns::review::{AssignReviews, CreateReviewItems, MyQueue, SubmitReview};
use app::server_fns::runs::StoreRuns;

/// Kill/restart rounds per test.
const ROUNDS: usize = 3;
/// The job lease of the servers: a killed server's job is resumed this long
/// after the kill.
const JOB_LEASE_SECS: &str = "2";
/// Acknowledged writes in a round before the kill may come.
const WARM_UP: usize = 3;

// ---------------------------------------------------------------------------
// Killing the server while writers write
// ---------------------------------------------------------------------------

/// xorshift64*: kill delays and the writers' choices, replayable from a seed.
struct Rng(u64);

impl Rng {
    /// From `LEXPILOT_CRASH_SEED`, else the clock; printed for replaying.
    fn seeded(test: &str) -> Rng {
        let seed = std::env::var("LEXPILOT_CRASH_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            });
        eprintln!("{test}: LEXPILOT_CRASH_SEED={seed}");
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn fork(&mut self) -> Rng {
        Rng(self.next() | 1)
    }
}

/// What the writers of one round share: when to stop, how many writes were
/// acknowledged, and how many requests broke off (in flight at the kill).
#[derive(Default)]
struct Round {
    stop: AtomicBool,
    acked: AtomicUsize,
    broken: AtomicUsize,
}

impl Round {
    fn running(&self) -> bool {
        !self.stop.load(Ordering::SeqCst)
    }

    fn ack(&self) {
        self.acked.fetch_add(1, Ordering::SeqCst);
    }

    /// Counts a request the kill cut off (one refused by the dead server's
    /// closed port never reached it), and waits a moment so that a dead
    /// server is not hammered.
    async fn broke(&self, e: &reqwest::Error) {
        if !e.is_connect() {
            self.broken.fetch_add(1, Ordering::SeqCst);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Waits until the writers have had [`WARM_UP`] writes acknowledged, lets
/// them go on for a random 100–900 ms, kills the server, then stops the
/// writers and collects what they return.
async fn kill_during_writes<T>(
    server: &mut Server,
    round: &Round,
    writers: Vec<tokio::task::JoinHandle<T>>,
    rng: &mut Rng,
) -> Vec<T> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while round.acked.load(Ordering::SeqCst) < WARM_UP {
        assert!(
            Instant::now() < deadline,
            "the writers got nothing acknowledged in 30 s:\n{}",
            tail(&std::fs::read_to_string(server.log()).unwrap_or_default())
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let delay = Duration::from_millis(100 + rng.below(800));
    tokio::time::sleep(delay).await;
    let acked = round.acked.load(Ordering::SeqCst);
    server.kill();
    round.stop.store(true, Ordering::SeqCst);
    let mut out = Vec::with_capacity(writers.len());
    for w in writers {
        out.push(w.await.expect("writer task"));
    }
    eprintln!(
        "  killed after {delay:?}: {acked} writes acknowledged, {} requests cut off",
        round.broken.load(Ordering::SeqCst)
    );
    out
}

async fn integrity_ok(pool: &SqlitePool) {
    let rows: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_all(pool)
        .await
        .expect("integrity check");
    assert_eq!(rows, ["ok"], "PRAGMA integrity_check");
    let violations: Vec<(String, String)> =
        sqlx::query_as("SELECT \"table\", parent FROM pragma_foreign_key_check")
            .fetch_all(pool)
            .await
            .expect("foreign key check");
    assert!(
        violations.is_empty(),
        "rows whose parent is gone (table, parent): {violations:?}"
    );
}

fn demo_cases() -> Vec<Case> {
    engine::lexpilot::dataset::parse_dataset(DEMO_DATASET).expect("the demo dataset parses")
}

// ---------------------------------------------------------------------------
// 1. Uploads
// ---------------------------------------------------------------------------

/// Files per `StoreRuns` batch.
const BATCH: usize = 3;

/// A demo run re-labelled as `model`'s run 1.
fn run_file(model: &str) -> String {
    DEMO_RUNS[6].1.replacen(
        "\"model\": \"Sim-Frontier-2 (simulated)\"",
        &format!("\"model\": \"{model}\""),
        1,
    )
}

/// The model of file `k` of a batch.
fn batch_model(batch: &str, k: usize) -> String {
    format!("{batch}-k{k}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_cut_off_by_a_crash_are_stored_whole_or_not_at_all() {
    let mut rng = Rng::seeded("uploads");
    let mut server = Server::new();
    server.add_user("researcher", "researcher");
    let token = server.token("researcher");
    server.start().await;
    let cookie = server.http().sign_in("researcher").await;
    let cases = demo_cases();
    let file_lines = run_file("x").lines().count();
    // Every acknowledged write: the models it stored together.
    let mut acked: Vec<Vec<String>> = Vec::new();

    for r in 0..ROUNDS {
        let http = server.http();
        let round = Arc::new(Round::default());
        let mut writers = Vec::new();
        // One script uploading single runs through the API…
        {
            let (http, round, token) = (http.clone(), round.clone(), token.clone());
            writers.push(tokio::spawn(async move {
                let mut stored = Vec::new();
                let mut n = 0;
                while round.running() {
                    n += 1;
                    let model = format!("Crash-Single-r{r}-n{n}");
                    match http.upload(&token, run_file(&model)).await {
                        Ok((201, _)) => {
                            round.ack();
                            stored.push(vec![model]);
                        }
                        Ok((status, body)) => panic!("upload {model}: {status} {body}"),
                        Err(e) => round.broke(&e).await,
                    }
                }
                stored
            }));
        }
        // …and two upload pages storing three models at once.
        for w in 0..2 {
            let (http, round, cookie) = (http.clone(), round.clone(), cookie.clone());
            writers.push(tokio::spawn(async move {
                let mut stored = Vec::new();
                let mut n = 0;
                while round.running() {
                    n += 1;
                    let batch = format!("Crash-Batch-r{r}-w{w}-n{n}");
                    let models: Vec<String> = (0..BATCH).map(|k| batch_model(&batch, k)).collect();
                    let files: Vec<Value> = models
                        .iter()
                        .map(|m| json!({"name": format!("{m}.jsonl"), "text": run_file(m)}))
                        .collect();
                    let body = json!({"files": files, "replace": false});
                    match http.call_json::<StoreRuns>(&cookie, &body).await {
                        Ok((200, body)) => {
                            assert_eq!(body.trim(), BATCH.to_string(), "stored count");
                            round.ack();
                            stored.push(models);
                        }
                        Ok((status, body)) => panic!("store {batch}: {status} {body}"),
                        Err(e) => round.broke(&e).await,
                    }
                }
                stored
            }));
        }
        eprintln!("uploads round {r}");
        for stored in kill_during_writes(&mut server, &round, writers, &mut rng).await {
            acked.extend(stored);
        }
        check_uploads(&server, &acked, file_lines, &cases).await;
        server.start().await;
    }

    // The server answers again, and counts what was stored.
    let (status, body) = server
        .http()
        .get("/api/leaderboard")
        .await
        .expect("leaderboard");
    assert_eq!(status, 200, "{body}");
    let doc: Value = serde_json::from_str(&body).expect("JSON");
    let entries = doc["entries"].as_array().map_or(0, Vec::len);
    assert!(
        entries >= 3 + acked.iter().map(Vec::len).sum::<usize>(),
        "{entries} leaderboard entries"
    );
}

/// Every stored crash run is whole, every batch all there or absent, every
/// acknowledged upload present.
async fn check_uploads(server: &Server, acked: &[Vec<String>], file_lines: usize, cases: &[Case]) {
    let pool = server.read_only().await;
    integrity_ok(&pool).await;
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT r.model, r.items, s.scores FROM runs r JOIN run_scores s ON s.run_id = r.id
             WHERE r.model LIKE 'Crash-%'",
    )
    .fetch_all(&pool)
    .await
    .expect("runs");
    pool.close().await;
    let mut batches: BTreeMap<&str, usize> = BTreeMap::new();
    for (model, items, scores) in &rows {
        assert_eq!(
            items.lines().count(),
            file_lines,
            "{model}: stored items are cut"
        );
        let run = engine::lexpilot::run::parse_run(items, cases)
            .unwrap_or_else(|e| panic!("{model}: stored items do not parse: {e:?}"));
        assert_eq!(&run.header.model, model);
        let scores: Value = serde_json::from_str(scores)
            .unwrap_or_else(|e| panic!("{model}: scores are not JSON: {e}"));
        assert!(
            scores.as_object().is_some_and(|o| !o.is_empty()),
            "{model}: empty scores"
        );
        if let Some((batch, _)) = model.rsplit_once("-k") {
            *batches.entry(batch).or_default() += 1;
        }
    }
    for (batch, n) in &batches {
        assert_eq!(*n, BATCH, "batch {batch}: {n} of {BATCH} runs stored");
    }
    let stored: BTreeSet<&str> = rows.iter().map(|(m, ..)| m.as_str()).collect();
    for write in acked {
        for model in write {
            assert!(
                stored.contains(model.as_str()),
                "{model} was acknowledged but is gone"
            );
        }
    }
    eprintln!(
        "  {} crash runs stored ({} batches), {} uploads acknowledged",
        rows.len(),
        batches.len(),
        acked.len()
    );
}

// ---------------------------------------------------------------------------
// 2. Review labels
// ---------------------------------------------------------------------------

const EXPERTS: [&str; 2] = ["expert-a", "expert-b"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_labels_cut_off_by_a_crash_keep_history_and_agreement_consistent() {
    let mut rng = Rng::seeded("review");
    let mut server = Server::new();
    server.add_user("admin", "admin");
    for e in EXPERTS {
        server.add_user(e, "expert");
    }
    server.start().await;
    let http = server.http();
    let admin = http.sign_in("admin").await;
    let created = http
        .ok::<CreateReviewItems>(
            &admin,
            &[
                ("kind", "judge_verdict"),
                ("task", "lca"),
                ("per_model", "20"),
                ("cap", "40"),
                ("seed", "7"),
            ],
        )
        .await;
    assert_eq!(created["created"], 40, "{created}");
    http.ok::<AssignReviews>(&admin, &[]).await;
    let mut experts = Vec::new();
    for name in EXPERTS {
        let cookie = http.sign_in(name).await;
        let queue = http.ok::<MyQueue>(&cookie, &[]).await;
        let items: Vec<i64> = queue["todo"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i["id"].as_i64())
            .collect();
        assert_eq!(items.len(), 40, "{name}'s queue");
        experts.push((name, cookie, Arc::new(items)));
    }
    // Acknowledged submissions: (item, expert, label, comment).
    let mut acked: Vec<(i64, String, String, String)> = Vec::new();

    for r in 0..ROUNDS {
        let http = server.http();
        let round = Arc::new(Round::default());
        let mut writers = Vec::new();
        for (name, cookie, items) in &experts {
            for w in 0..2 {
                let (http, round, cookie, items) =
                    (http.clone(), round.clone(), cookie.clone(), items.clone());
                let name = (*name).to_owned();
                let mut rng = rng.fork();
                writers.push(tokio::spawn(async move {
                    let mut done = Vec::new();
                    let mut n = 0;
                    while round.running() {
                        n += 1;
                        let id = items[rng.below(items.len() as u64) as usize];
                        let label = ["ask", "predict"][rng.below(2) as usize];
                        let comment = format!("{name} r{r} w{w} n{n}");
                        let pairs = [
                            ("id", id.to_string()),
                            ("label", label.to_owned()),
                            ("comment", comment.clone()),
                        ];
                        let pairs: Vec<(&str, &str)> =
                            pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
                        match http.call::<SubmitReview>(&cookie, &pairs).await {
                            Ok((200, _)) => {
                                round.ack();
                                done.push((id, name.clone(), label.to_owned(), comment));
                            }
                            // The item is final: its labels no longer change.
                            Ok((409, body)) if body.contains("is final") => {}
                            Ok((status, body)) => panic!("submit {id}: {status} {body}"),
                            Err(e) => round.broke(&e).await,
                        }
                    }
                    done
                }));
            }
        }
        eprintln!("review round {r}");
        for done in kill_during_writes(&mut server, &round, writers, &mut rng).await {
            acked.extend(done);
        }
        check_review(&server, &acked).await;
        server.start().await;
    }
    let (status, body) = server.http().get("/api/stats").await.expect("stats");
    assert_eq!(status, 200, "{body}");
}

/// The review tables as the crash left them; see the module docs.
async fn check_review(server: &Server, acked: &[(i64, String, String, String)]) {
    type Assignment = (i64, i64, Option<String>, Option<String>, Option<String>);
    type History = (i64, i64, Option<i64>, String, String, String);
    let pool = server.read_only().await;
    integrity_ok(&pool).await;
    let assignments: Vec<Assignment> = sqlx::query_as(
        "SELECT item_id, expert_id, label, submitted_at, blind_label FROM review_assignments",
    )
    .fetch_all(&pool)
    .await
    .expect("assignments");
    let history: Vec<History> = sqlx::query_as(
        "SELECT id, item_id, author_id, action, label, comment FROM review_label_history ORDER BY id",
    )
    .fetch_all(&pool)
    .await
    .expect("history");
    let items: Vec<(i64, Option<String>, Option<String>)> =
        sqlx::query_as("SELECT id, final_label, final_source FROM review_items")
            .fetch_all(&pool)
            .await
            .expect("items");
    let users: HashMap<String, i64> = sqlx::query_as("SELECT name, id FROM users")
        .fetch_all(&pool)
        .await
        .expect("users")
        .into_iter()
        .collect();
    pool.close().await;

    let submits: Vec<&History> = history.iter().filter(|h| h.3 == "submit").collect();
    let by_pair: HashMap<(i64, i64), &Assignment> =
        assignments.iter().map(|a| ((a.0, a.1), a)).collect();
    // Every submitted label has its history, the last entry being that label.
    for (item, expert, label, submitted_at, blind) in &assignments {
        let mine: Vec<&&History> = submits
            .iter()
            .filter(|h| h.1 == *item && h.2 == Some(*expert))
            .collect();
        match submitted_at {
            None => {
                assert!(
                    mine.is_empty() && label.is_none() && blind.is_none(),
                    "item {item} expert {expert}: history or label without a submission"
                );
            }
            Some(_) => {
                let last = mine.last().unwrap_or_else(|| {
                    panic!("item {item} expert {expert}: submitted without history")
                });
                assert_eq!(
                    Some(&last.4),
                    label.as_ref(),
                    "item {item} expert {expert}: label is not the last submitted"
                );
                // The blind label as the history makes it: the last
                // submission before anyone else's, else the first.
                let first = mine[0].0;
                let blind_from_history = mine
                    .iter()
                    .rfind(|h| {
                        h.0 == first
                            || !submits
                                .iter()
                                .any(|o| o.1 == *item && o.2 != Some(*expert) && o.0 < h.0)
                    })
                    .map(|h| &h.4);
                assert_eq!(
                    blind.as_ref(),
                    blind_from_history,
                    "item {item} expert {expert}: blind label"
                );
            }
        }
    }
    // No history without its submitted assignment.
    for h in &submits {
        let a = h.2.and_then(|e| by_pair.get(&(h.1, e)));
        assert!(
            a.is_some_and(|a| a.3.is_some()),
            "history row {} (item {}) has no submitted assignment",
            h.0,
            h.1
        );
    }
    // Final exactly when the blind labels agree (or an adjudicator decided).
    let mut finals = 0;
    for (id, final_label, final_source) in &items {
        let blinds: Vec<Option<&String>> = assignments
            .iter()
            .filter(|a| a.0 == *id)
            .map(|a| a.4.as_ref())
            .collect();
        let all_blind: Option<Vec<&String>> = blinds.iter().copied().collect();
        let agreed = all_blind
            .as_ref()
            .filter(|b| b.len() >= 2 && b.iter().all(|l| *l == b[0]))
            .map(|b| b[0]);
        match (agreed, final_source.as_deref()) {
            (Some(label), _) => {
                assert_eq!(
                    (final_label.as_ref(), final_source.as_deref()),
                    (Some(label), Some("agreed")),
                    "item {id}: the experts agree blind on {label} but it is not final"
                );
                finals += 1;
            }
            (None, Some("adjudicated")) => {}
            (None, source) => assert!(
                final_label.is_none() && source.is_none(),
                "item {id}: final ({final_label:?}, {source:?}) without agreeing blind labels {blinds:?}"
            ),
        }
    }
    // Every acknowledged submission is there.
    for (item, expert, label, comment) in acked {
        let expert_id = users[expert.as_str()];
        assert!(
            submits.iter().any(|h| h.1 == *item
                && h.2 == Some(expert_id)
                && &h.4 == label
                && &h.5 == comment),
            "acknowledged submission of {label} by {expert} on item {item} ({comment}) is gone"
        );
    }
    eprintln!(
        "  {} submissions in history, {} items agreed, {} acknowledged",
        submits.len(),
        finals,
        acked.len()
    );
}

// ---------------------------------------------------------------------------
// 3. Case corrections
// ---------------------------------------------------------------------------

/// Correcting writers, and the cases each one owns (so that they never race
/// each other for a case; a kill can still leave one behind).
const CORRECTORS: usize = 3;
const CASES_EACH: usize = 2;

/// What a correcting writer knows of a case: its revision and content.
#[derive(Clone)]
struct Known {
    revision: i64,
    case: Case,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corrections_cut_off_by_a_crash_leave_whole_dataset_versions_with_their_runs() {
    let mut rng = Rng::seeded("corrections");
    let mut server = Server::new();
    server.add_user("admin", "admin");
    let token = server.token("admin");
    server.start().await;
    let cases = demo_cases();
    // Writer w corrects cases w, w + CORRECTORS, … of the demo dataset.
    let mut owned: Vec<Vec<Known>> = (0..CORRECTORS)
        .map(|w| {
            (0..CASES_EACH)
                .map(|i| Known {
                    revision: 1,
                    case: cases[w + i * CORRECTORS].clone(),
                })
                .collect()
        })
        .collect();
    // Acknowledged saves: (case, revision, reason).
    let mut acked: Vec<(String, i64, String)> = Vec::new();

    for r in 0..ROUNDS {
        let http = server.http();
        let round = Arc::new(Round::default());
        let mut writers = Vec::new();
        for (w, mine) in owned.drain(..).enumerate() {
            let (http, round, token) = (http.clone(), round.clone(), token.clone());
            writers.push(tokio::spawn(async move {
                correct_until_stopped(http, round, token, mine, format!("r{r} w{w}")).await
            }));
        }
        eprintln!("corrections round {r}");
        for (mine, saved) in kill_during_writes(&mut server, &round, writers, &mut rng).await {
            owned.push(mine);
            acked.extend(saved);
        }
        check_corrections(&server, &acked, &cases).await;
        server.start().await;
    }
    let (status, body) = server.http().get("/api/stats").await.expect("stats");
    assert_eq!(status, 200, "{body}");
}

/// Corrects the writer's cases in turn until the round stops; what it knows
/// of them then, and the saves acknowledged.
async fn correct_until_stopped(
    http: Http,
    round: Arc<Round>,
    token: String,
    mut mine: Vec<Known>,
    tag: String,
) -> (Vec<Known>, Vec<(String, i64, String)>) {
    let mut saved = Vec::new();
    let mut n = 0;
    while round.running() {
        n += 1;
        let known = &mut mine[n % CASES_EACH];
        let mut corrected = known.case.clone();
        corrected.consultations.complete[0]
            .content
            .push_str(&format!("（{tag} n{n}）"));
        let reason = format!("crash test {tag} n{n}");
        let body = form(&[
            ("case", &serde_json::to_string(&corrected).expect("JSON")),
            ("base_revision", &known.revision.to_string()),
            ("reason", &reason),
        ]);
        let reply = Http::reply(
            http.client
                .post(format!("{}{}", http.origin, SaveCaseCorrection::PATH))
                .header("Origin", &http.origin)
                .header("Authorization", format!("Bearer {token}"))
                .header("Accept", "application/json")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body(body),
        )
        .await;
        match reply {
            Ok((200, body)) => {
                let res: Value = serde_json::from_str(&body).expect("JSON");
                let revision = res["Saved"]["revision"].as_i64().expect("revision");
                assert!(
                    res["Saved"]["runs_dropped"]
                        .as_array()
                        .is_some_and(Vec::is_empty),
                    "{body}"
                );
                round.ack();
                saved.push((corrected.case_id.clone(), revision, reason));
                *known = Known {
                    revision,
                    case: corrected,
                };
            }
            // A save the kill cut off after its commit: go on from it.
            Ok((409, body)) => {
                let res: Value = serde_json::from_str(&body).expect("JSON");
                *known = Known {
                    revision: res["Stale"]["revision"].as_i64().expect("revision"),
                    case: serde_json::from_value(res["Stale"]["case"].clone()).expect("case"),
                };
            }
            Ok((status, body)) => panic!("correction {reason}: {status} {body}"),
            Err(e) => round.broke(&e).await,
        }
    }
    (mine, saved)
}

/// Every revision in a whole dataset version, each correction's version
/// carrying its predecessor's runs, every acknowledged save present.
async fn check_corrections(server: &Server, acked: &[(String, i64, String)], original: &[Case]) {
    type Revision = (String, String, i64, String, i64, String);
    let pool = server.read_only().await;
    integrity_ok(&pool).await;
    let versions: Vec<(i64, String, i64, String, i64)> = sqlx::query_as(
        "SELECT id, name, version, source, case_count FROM datasets WHERE benchmark = 'lexpilot'
         ORDER BY name, version",
    )
    .fetch_all(&pool)
    .await
    .expect("datasets");
    let mut cases_of: HashMap<i64, BTreeMap<String, String>> = HashMap::new();
    let mut runs_of: HashMap<i64, BTreeSet<(String, i64)>> = HashMap::new();
    for (id, name, version, _, case_count) in &versions {
        let cases: Vec<(String, String)> =
            sqlx::query_as("SELECT case_id, data FROM cases WHERE dataset_id = $1")
                .bind(id)
                .fetch_all(&pool)
                .await
                .expect("cases");
        assert_eq!(
            cases.len() as i64,
            *case_count,
            "{name} version {version} holds {} of its {case_count} cases",
            cases.len()
        );
        cases_of.insert(*id, cases.into_iter().collect());
        let runs: Vec<(String, i64, String)> = sqlx::query_as(
            "SELECT model, run_number, scores FROM run_scores WHERE dataset_id = $1",
        )
        .bind(id)
        .fetch_all(&pool)
        .await
        .expect("runs");
        for (model, n, scores) in &runs {
            let scores: Value = serde_json::from_str(scores).expect("scores JSON");
            assert!(
                scores.as_object().is_some_and(|o| !o.is_empty()),
                "{model} run {n} on {name} version {version}: empty scores"
            );
        }
        runs_of.insert(*id, runs.into_iter().map(|(m, n, _)| (m, n)).collect());
    }
    let revisions: Vec<Revision> = sqlx::query_as(
        "SELECT dataset_name, case_id, revision, data, dataset_version, reason
         FROM case_revisions ORDER BY dataset_name, case_id, revision",
    )
    .fetch_all(&pool)
    .await
    .expect("revisions");
    pool.close().await;

    let id_of: HashMap<(&str, i64), i64> = versions
        .iter()
        .map(|(id, name, version, ..)| ((name.as_str(), *version), *id))
        .collect();
    let parse = |data: &str| serde_json::from_str::<Case>(data).expect("a stored case parses");
    // Revisions 1..n per case, each corrected one in its own whole version.
    let mut per_case: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
    let mut made_by: HashMap<i64, &Revision> = HashMap::new();
    for rev in &revisions {
        let (name, case_id, number, data, version, _) = rev;
        per_case.entry(case_id).or_default().push(*number);
        let id = *id_of.get(&(name.as_str(), *version)).unwrap_or_else(|| {
            panic!("{case_id} revision {number}: its dataset version {version} does not exist")
        });
        let in_version = &cases_of[&id][case_id];
        assert_eq!(
            parse(in_version),
            parse(data),
            "{case_id} revision {number} is not the case in version {version}"
        );
        if *number > 1 {
            assert!(
                made_by.insert(id, rev).is_none(),
                "two corrections made version {version}"
            );
        }
    }
    for (case_id, numbers) in &per_case {
        let expected: Vec<i64> = (1..=numbers.len() as i64).collect();
        assert_eq!(numbers, &expected, "{case_id}: revision numbers");
        let first = original
            .iter()
            .find(|c| c.case_id == *case_id)
            .expect("a demo case");
        let (_, _, _, data, _, _) = revisions
            .iter()
            .find(|r| r.1 == *case_id && r.2 == 1)
            .expect("revision 1");
        assert_eq!(&parse(data), first, "{case_id}: revision 1 is the import");
    }
    // Each version a correction made: its predecessor with one case changed,
    // and the same runs.
    let mut corrected_versions = 0;
    for (id, name, version, source, _) in &versions {
        if !source.starts_with("correction of ") {
            continue;
        }
        corrected_versions += 1;
        let rev = made_by
            .get(id)
            .unwrap_or_else(|| panic!("{name} version {version} ({source}) has no revision"));
        let previous = id_of[&(name.as_str(), version - 1)];
        let (before, after) = (&cases_of[&previous], &cases_of[id]);
        let changed: Vec<&String> = after
            .iter()
            .filter(|(case_id, data)| before.get(*case_id) != Some(data))
            .map(|(case_id, _)| case_id)
            .collect();
        assert_eq!(
            changed,
            [&rev.1],
            "{name} version {version}: cases changed from version {}",
            version - 1
        );
        assert_eq!(
            before.keys().collect::<Vec<_>>(),
            after.keys().collect::<Vec<_>>(),
            "{name} version {version}: case ids"
        );
        assert_eq!(
            runs_of[id],
            runs_of[&previous],
            "{name} version {version}: runs carried from version {}",
            version - 1
        );
        assert_eq!(runs_of[id].len(), DEMO_RUNS.len());
    }
    assert_eq!(
        corrected_versions,
        made_by.len(),
        "versions made by corrections and revisions past the first"
    );
    for (case_id, number, reason) in acked {
        assert!(
            revisions
                .iter()
                .any(|r| &r.1 == case_id && r.2 == *number && &r.5 == reason),
            "acknowledged correction {case_id} revision {number} ({reason}) is gone"
        );
    }
    eprintln!(
        "  {corrected_versions} versions made by corrections, {} acknowledged",
        acked.len()
    );
}

// ---------------------------------------------------------------------------
// 4. A benchmark job
// ---------------------------------------------------------------------------

/// Cases the job runs, its concurrency, and the stub's latency: slow enough
/// to kill the job at a chosen point (it takes a second or two).
const JOB_LIMIT: &str = "4";
const JOB_CONCURRENCY: &str = "2";
const STUB_LATENCY: Duration = Duration::from_millis(80);
/// Kills, at these fractions of the job's calls cached.
const JOB_KILLS: [f64; 2] = [0.3, 0.65];

/// The stub endpoint playing every role with the oracle, behind a recording
/// proxy that notes the cache key ([`request_key`]) of every request it
/// passes on, so that an entry of the job's cache file names the stub's
/// request ([`request_id`]) it holds. (The reply text and prompt length do
/// not: judges give the same few replies.)
struct Endpoint {
    stub: Stub,
    /// The proxy's base URL, to configure endpoints with.
    base_url: String,
    /// Cache key → stub request id.
    keys: Arc<Mutex<HashMap<String, String>>>,
    /// Requests the proxy is passing on.
    in_flight: Arc<AtomicUsize>,
}

struct Proxy {
    client: reqwest::Client,
    /// The stub's chat-completions URL.
    upstream: String,
    /// The proxy's, as the pipeline keys its calls.
    url: String,
    keys: Arc<Mutex<HashMap<String, String>>>,
    in_flight: Arc<AtomicUsize>,
}

/// Counts a request in flight through the proxy until it is answered or
/// dropped.
struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    fn new(count: &Arc<AtomicUsize>) -> InFlight {
        count.fetch_add(1, Ordering::SeqCst);
        InFlight(count.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Endpoint {
    async fn start(cases: &[Case], latency: Duration) -> Endpoint {
        let stub = Stub::with_latency(latency, oracle(cases))
            .await
            .expect("stub");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("proxy port");
        let base_url = format!("http://{}/v1", listener.local_addr().expect("address"));
        let keys: Arc<Mutex<HashMap<String, String>>> = Arc::default();
        let in_flight: Arc<AtomicUsize> = Arc::default();
        let proxy = Arc::new(Proxy {
            client: client(),
            upstream: format!("{}/chat/completions", stub.base_url),
            url: format!("{base_url}/chat/completions"),
            keys: keys.clone(),
            in_flight: in_flight.clone(),
        });
        let app = axum::Router::new()
            .route("/v1/chat/completions", axum::routing::post(forward))
            .with_state(proxy);
        tokio::spawn(async move { axum::serve(listener, app).await });
        Endpoint {
            stub,
            base_url,
            keys,
            in_flight,
        }
    }

    /// Waits until what a killed server sent has reached the stub (or was
    /// dropped): the requests still in its socket, then those in the proxy.
    async fn settle(&self) {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.in_flight.load(Ordering::SeqCst) > 0 {
            assert!(Instant::now() < deadline, "the proxy does not settle");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// The requests of the kept calls `kept` (their cache keys).
    fn cached(&self, kept: &[String]) -> BTreeSet<String> {
        let keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter()
            .map(|key| {
                keys.get(key)
                    .unwrap_or_else(|| panic!("a kept call no request asked for: {key}"))
                    .clone()
            })
            .collect()
    }
}

/// Notes the keys the request may be cached under (the sample tag is the
/// repetition for the model and the user, the attempt for judges) and passes
/// it on to the stub.
async fn forward(
    axum::extract::State(proxy): axum::extract::State<Arc<Proxy>>,
    body: String,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    use pipeline::cache::{request_key, CanonicalRequest};

    let _counted = InFlight::new(&proxy.in_flight);
    let request: Value = serde_json::from_str(&body).expect("a JSON request");
    let model = request["model"].as_str().unwrap_or_default();
    let messages: Vec<(&str, &str)> = request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| {
            (
                m["role"].as_str().unwrap_or_default(),
                m["content"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    let prompt: Vec<&str> = messages.iter().map(|(_, c)| *c).collect();
    let id = request_id(model, &prompt.join("\n\n"));
    let temperature = request["temperature"].as_f64().unwrap_or_default();
    let max_tokens = request["max_tokens"].as_u64().unwrap_or_default() as u32;
    {
        let mut keys = proxy.keys.lock().unwrap_or_else(|e| e.into_inner());
        let samples =
            std::iter::once("run1".to_owned()).chain((0..8).map(|a| format!("attempt{a}")));
        for sample in samples {
            let key = request_key(&CanonicalRequest {
                url: &proxy.url,
                model,
                messages: &messages,
                temperature,
                max_tokens,
                sample: &sample,
            });
            keys.insert(key, id.clone());
        }
    }
    match proxy
        .client
        .post(&proxy.upstream)
        .header("Content-Type", "application/json")
        .body(body.clone())
        .send()
        .await
    {
        Ok(res) => {
            let status = res.status().as_u16();
            let text = res.text().await.unwrap_or_default();
            (
                axum::http::StatusCode::from_u16(status)
                    .unwrap_or(axum::http::StatusCode::BAD_GATEWAY),
                [("content-type", "application/json")],
                text,
            )
                .into_response()
        }
        Err(e) => (axum::http::StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
    }
}

/// The cache keys of the calls job `id` keeps in the server's database
/// (read through a read-only connection).
async fn kept_calls(server: &Server, id: i64) -> Vec<String> {
    let pool = server.read_only().await;
    let keys = sqlx::query_scalar("SELECT key FROM job_calls WHERE job_id = ?")
        .bind(id)
        .fetch_all(&pool)
        .await
        .expect("the kept calls");
    pool.close().await;
    keys
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_cut_off_by_a_crash_resumes_from_its_cache_and_ends_as_an_uninterrupted_one() {
    let mut server = Server::new().with_env(services::jobs::LEASE_ENV, JOB_LEASE_SECS);
    server.add_user("admin", "admin");
    server.start().await;
    let http = server.http();
    let admin = http.sign_in("admin").await;
    let cases = demo_cases();

    // The same job, uninterrupted, on an endpoint of its own.
    let reference = Stub::start(oracle(&cases)).await.expect("stub");
    let ids = http
        .endpoints(&admin, &reference.base_url, "Ref-Model")
        .await;
    let id = http
        .start_job(&admin, &ids, JOB_CONCURRENCY, JOB_LIMIT)
        .await;
    let done = http.until_stopped(&admin, id).await;
    assert_eq!(done["status"], "done", "{done}");
    let calls = reference.per_request();
    assert!(
        calls.values().all(|&n| n == 1),
        "an uninterrupted job repeats no request"
    );
    let total = calls.len();
    eprintln!("an uninterrupted job makes {total} calls");

    let endpoint = Endpoint::start(&cases, STUB_LATENCY).await;
    let ids = http
        .endpoints(&admin, &endpoint.base_url, "Crash-Model")
        .await;
    let id = http
        .start_job(&admin, &ids, JOB_CONCURRENCY, JOB_LIMIT)
        .await;
    // Per kill: the requests received by then, and those kept.
    let mut kills: Vec<(HashMap<String, usize>, BTreeSet<String>)> = Vec::new();
    for fraction in JOB_KILLS {
        let target = (total as f64 * fraction) as usize;
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let kept = kept_calls(&server, id).await.len();
            if kept >= target {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{kept} of {target} calls kept in 60 s"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        server.kill();
        endpoint.settle().await;
        let received = endpoint.stub.per_request();
        let cached = endpoint.cached(&kept_calls(&server, id).await);
        assert!(
            cached.len() < total,
            "the kill came after the last call ({} of {total} kept)",
            cached.len()
        );
        assert!(
            cached.iter().all(|c| received.contains_key(c)),
            "a kept call the stub never answered"
        );
        eprintln!(
            "  killed with {} of {total} calls kept, {} received",
            cached.len(),
            received.len()
        );
        kills.push((received, cached));
        // The run is stored when the job is done, not a part before.
        let pool = server.read_only().await;
        integrity_ok(&pool).await;
        let early = crash_model_runs(&pool).await;
        assert!(
            early.iter().all(|(model, ..)| model != "Crash-Model"),
            "a run stored before the job is done"
        );
        pool.close().await;

        // The restarted server takes the job over once the dead one's lease
        // lapses: no one restarts it.
        server.start().await;
        let http = server.http();
        let job = http.job(&admin, id).await;
        assert_eq!(job["status"], "running", "{job}");
    }
    let http = server.http();
    let job = http.until_stopped(&admin, id).await;
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(job["runs_stored"], 1, "{job}");
    assert_eq!(job["progress"]["done"], job["progress"]["total"], "{job}");
    assert_eq!(job["progress"]["total"], done["progress"]["total"], "{job}");

    // No cached call was made again; the others at most once per kill that
    // found them in flight.
    let after = endpoint.stub.per_request();
    let mut in_flight = 0;
    for (received, cached) in &kills {
        for request in cached {
            assert_eq!(
                after[request], received[request],
                "a call cached before a kill was made again after the restart"
            );
        }
        in_flight += received.keys().filter(|r| !cached.contains(*r)).count();
    }
    let repeats: usize = after.values().map(|n| n - 1).sum();
    eprintln!("  {repeats} calls repeated, {in_flight} were in flight at the kills");
    assert!(
        repeats <= in_flight,
        "{repeats} calls repeated, only {in_flight} were in flight uncached"
    );
    // Every call of the uninterrupted job was made, and nothing more.
    assert_eq!(after.len(), total, "distinct calls");
    assert_eq!(kept_calls(&server, id).await.len(), total, "kept calls");

    // The run landed, as the uninterrupted job's.
    server.kill();
    let pool = server.read_only().await;
    integrity_ok(&pool).await;
    let runs = crash_model_runs(&pool).await;
    pool.close().await;
    assert_eq!(runs.len(), 2, "one run per job");
    let (crashed, reference_run) = (&runs[0], &runs[1]);
    assert_eq!(crashed.0, "Crash-Model");
    let items = |text: &str| {
        let run = engine::lexpilot::run::parse_run(text, &cases).expect("a stored run parses");
        run.to_jsonl()
            .lines()
            .skip(1)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(items(&crashed.1), items(&reference_run.1), "items");
    let scores = |s: &str| serde_json::from_str::<Value>(s).expect("scores JSON");
    assert_eq!(scores(&crashed.2), scores(&reference_run.2), "scores");
}

/// The stored runs of the two jobs' models: model, items, scores.
async fn crash_model_runs(pool: &SqlitePool) -> Vec<(String, String, String)> {
    sqlx::query_as(
        "SELECT r.model, r.items, s.scores FROM runs r JOIN run_scores s ON s.run_id = r.id
         WHERE r.model IN ('Crash-Model', 'Ref-Model') ORDER BY r.model",
    )
    .fetch_all(pool)
    .await
    .expect("runs")
}
