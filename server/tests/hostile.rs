//! Stored text never becomes markup (issue 39, N1). Hostile text (it closes
//! `<textarea>`, `<title>`, `<script>`, `<style>` and `<noscript>`, opens an
//! element, leaves a double-quoted attribute, opens a comment and a
//! `<meta http-equiv="refresh">`) goes into every text field a user can
//! set, on every benchmark; then every page of the app's route table is
//! rendered for an anonymous reader, a researcher, an expert and an admin,
//! in both languages, with the ids of the hostile records and the links
//! found on the pages (drill-downs, items, sessions, compare, models,
//! review items of each kind), and none may carry the text as markup. The
//! JSON API answers with it as JSON strings.
//!
//! The text goes in as users put it there: every string field of the demo
//! datasets and runs of the three benchmarks that their parsers accept it
//! in (tried field by field, so a field added to a format is covered
//! without a change here), and every text the review, correction, probe,
//! experiment, endpoint, job, account and statute forms take.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::{enc, upload, TestApp, TestResponse};
use db::datasets::{DatasetInfo, ImportSource};
use engine::accounts::Role;
use engine::benchmark::{Benchmark, DLawBench, LexPilot, PLawBench, Suite};
use engine::core::paging::Listed;
use engine::review::{CaseCheck, CheckResult};
use leptos::server_fn::ServerFn;
use serde_json::{json, Value};
use server::demo::{
    DEMO_DATASET, DEMO_NAME, DEMO_RUNS, DLAW_DEMO_DATASET, DLAW_DEMO_NAME, DLAW_DEMO_RUNS,
    PLAW_DEMO_DATASET, PLAW_DEMO_NAME, PLAW_DEMO_RUNS,
};
use services::ingest::RunFile;

use app::server_fns::corrections::SaveCaseCorrection;
use app::server_fns::fidelity::{GetProbeSheet, SaveProbe};
use app::server_fns::jobs::{CancelJob, SaveEndpoint, StartJob};
use app::server_fns::review::{
    Adjudicate, AssignReviews, CreateReviewItems, FlagReviewItem, GetReviewItem, SaveReviewDraft,
    SubmitReview,
};

const PASSWORD: &str = "a-long-password";

/// The hostile text, appended to what a field holds.
const HOSTILE: &str = "</textarea></title></script></style></noscript><b id=x>\"' data-hostile=1 \
                       <!--<meta http-equiv=\"refresh\" content=\"0;url=//evil.example/\">";
/// For a field too short for all of it: the text of the probe.
const SHORT: &str = "</textarea></title></script><b id=x>";
/// For a field that refuses `/`.
const BARE: &str = "<b id=x>\"' data-hostile=1";
/// The demo cases (by line) taken: one seed case of each class and one
/// other; every page shows them as it would all 72, faster.
const LEXPILOT_CASES: [usize; 13] = [0, 1, 6, 12, 18, 24, 30, 36, 42, 48, 54, 60, 66];
/// What a field is tried with, in order.
const SUFFIXES: [&str; 3] = [HOSTILE, SHORT, BARE];

/// `text` with the hostile text after it.
fn hostile(text: &str) -> String {
    format!("{text}{HOSTILE}")
}

/// `text` with the probe after it, for a field of at most 64
/// characters (account names).
fn short(text: &str) -> String {
    format!("{text}{SHORT}")
}

/// Whether `text` holds the hostile text (any form of it).
fn is_hostile(text: &str) -> bool {
    text.contains("<b id=x>")
}

/// The hostile text as markup in `body`, with what surrounds it: an element
/// it opens, or an attribute it starts after leaving a quoted value. `None`
/// when every copy of it is text (escaped, or inside a quoted value).
fn live_markup(body: &str) -> Option<String> {
    let around = |at: usize| {
        let mut start = at.saturating_sub(160);
        while !body.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (at + 160).min(body.len());
        while !body.is_char_boundary(end) {
            end += 1;
        }
        body[start..end].to_owned()
    };
    for element in ["<b id=x>", "<meta http-equiv"] {
        if let Some(at) = body.find(element) {
            return Some(around(at));
        }
    }
    body.match_indices("\"' data-hostile=1")
        .map(|(at, _)| at)
        .find(|&at| {
            let before = &body[..at];
            before.rfind('<') > before.rfind('>')
        })
        .map(around)
}

#[test]
fn the_detector_tells_markup_from_text() {
    let escaped = html_text(&hostile("案情"));
    assert_eq!(live_markup(&format!("<p>{escaped}</p>")), None);
    let attribute = HOSTILE.replace('&', "&amp;").replace('"', "&quot;");
    let attribute = attribute.replace('<', "&lt;").replace('>', "&gt;");
    assert_eq!(
        live_markup(&format!("<a title=\"{attribute}\">x</a>")),
        None
    );
    assert!(live_markup(&format!("<textarea>{HOSTILE}</textarea>")).is_some());
    // Text escaped for an element but put in an attribute: the quote leaves it.
    let misused = html_text(BARE);
    assert!(live_markup(&format!("<a title=\"{misused}\">x</a>")).is_some());
}

/// `text` escaped as element content (`&`, `<`, `>`; quotes stay).
fn html_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

// ---------------------------------------------------------------------------
// The files: every field their parsers take the hostile text in.

/// A JSON Lines file, one value per line.
#[derive(Clone)]
struct Lines(Vec<Value>);

impl Lines {
    fn parse(text: &str) -> Lines {
        Lines(
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str(l).expect("a JSON line"))
                .collect(),
        )
    }

    fn text(&self) -> String {
        self.0.iter().map(|v| format!("{v}\n")).collect()
    }

    /// Calls `f` with every text of the file and its field: the line's
    /// `kind`, then the keys down to it (`[]` for a list's elements).
    fn each(&self, f: &mut dyn FnMut(&str, &str)) {
        fn walk(v: &Value, path: &mut String, f: &mut dyn FnMut(&str, &str)) {
            let at = path.len();
            match v {
                Value::String(s) => f(path, s),
                Value::Array(items) => {
                    path.push_str("[]");
                    items.iter().for_each(|x| walk(x, path, f));
                }
                Value::Object(map) => {
                    for (key, x) in map {
                        path.push('.');
                        path.push_str(key);
                        walk(x, path, f);
                        path.truncate(at);
                    }
                }
                _ => {}
            }
            path.truncate(at);
        }
        for line in &self.0 {
            let mut path = line
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            walk(line, &mut path, f);
        }
    }

    /// The fields holding text, in the order first met.
    fn fields(&self) -> Vec<String> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        self.each(&mut |field, _| {
            if seen.insert(field.to_owned()) {
                out.push(field.to_owned());
            }
        });
        out
    }

    /// The texts of `field` not yet hostile (blank ones left out).
    fn texts_of(&self, field: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        self.each(&mut |f, s| {
            if f == field && !s.trim().is_empty() && !is_hostile(s) {
                out.insert(s.to_owned());
            }
        });
        out
    }

    /// The fields at least one of whose texts is hostile.
    fn hostile_fields(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        self.each(&mut |f, s| {
            if is_hostile(s) {
                out.insert(f.to_owned());
            }
        });
        out
    }

    /// The file with `suffix` after every text equal to one of `texts`,
    /// wherever it is (so an id and what names it change together), and
    /// with `keys` after every object key equal to one.
    fn renamed(&self, texts: &BTreeSet<String>, suffix: &str, keys: bool) -> Lines {
        fn rename(v: &mut Value, texts: &BTreeSet<String>, suffix: &str, keys: bool) {
            match v {
                Value::String(s) if texts.contains(s.as_str()) => s.push_str(suffix),
                Value::Array(items) => items
                    .iter_mut()
                    .for_each(|x| rename(x, texts, suffix, keys)),
                Value::Object(map) => {
                    if keys && map.keys().any(|k| texts.contains(k)) {
                        *map = std::mem::take(map)
                            .into_iter()
                            .map(|(k, x)| match texts.contains(&k) {
                                true => (format!("{k}{suffix}"), x),
                                false => (k, x),
                            })
                            .collect();
                    }
                    map.values_mut()
                        .for_each(|x| rename(x, texts, suffix, keys));
                }
                _ => {}
            }
        }
        let mut out = self.clone();
        for line in &mut out.0 {
            rename(line, texts, suffix, keys);
        }
        out
    }
}

/// A benchmark's demo dataset and runs with the hostile text in every field.
struct HostileFiles<S: Suite> {
    cases: Vec<S::Case>,
    runs: Vec<String>,
    dataset_fields: BTreeSet<String>,
    run_fields: BTreeSet<String>,
}

impl Lines {
    /// The lines of a dataset file whose index `keep` takes.
    fn some(text: &str, keep: &[usize]) -> Lines {
        let mut all = Lines::parse(text);
        let mut index = 0..;
        all.0
            .retain(|_| keep.contains(&index.next().unwrap_or_default()));
        all
    }

    /// The ids of a dataset's cases (or items).
    fn ids(&self) -> BTreeSet<String> {
        self.0
            .iter()
            .filter_map(|l| l.get("case_id").or_else(|| l.get("item_id")))
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    }

    /// A run file's lines of the cases (or items) `ids`, and its header.
    fn of(text: &str, ids: &BTreeSet<String>) -> Lines {
        let mut run = Lines::parse(text);
        run.0.retain(|l| {
            match l
                .get("case_id")
                .or_else(|| l.get("item_id"))
                .and_then(Value::as_str)
            {
                Some(id) => ids.contains(id),
                None => true,
            }
        });
        run
    }
}

/// The lines `keep` of the dataset `dataset` named `name` and its runs
/// `runs` (their lines of those cases), with the hostile text appended to
/// each field in turn, kept where the benchmark's parsers accept the
/// dataset and the runs against it (a run's texts and keys that name a
/// renamed dataset text are renamed with it). The first run decides for
/// the fields it has; another run's own fields are tried on it.
fn hostile_files<S: Suite>(
    dataset: &str,
    keep: &[usize],
    runs: &[(&str, &str)],
    name: &str,
) -> HostileFiles<S> {
    let valid = |cases: &[S::Case], run: &Lines| S::parse_run(run.text().as_bytes(), cases).is_ok();
    let mut data = Lines::some(dataset, keep);
    let ids = data.ids();
    let named = BTreeSet::from([name.to_owned()]);
    let mut files: Vec<Lines> = runs
        .iter()
        .map(|(_, text)| Lines::of(text, &ids).renamed(&named, HOSTILE, false))
        .collect();
    let mut cases = S::parse_dataset(&data.text()).expect("the demo dataset");
    assert!(valid(&cases, &files[0]), "{name}: the first run is valid");
    for field in data.fields() {
        let texts = data.texts_of(&field);
        if texts.is_empty() {
            continue;
        }
        for suffix in SUFFIXES {
            let candidate = data.renamed(&texts, suffix, false);
            let Ok(parsed) = S::parse_dataset(&candidate.text()) else {
                continue;
            };
            if valid(&parsed, &files[0].renamed(&texts, suffix, true)) {
                files = files
                    .iter()
                    .map(|r| r.renamed(&texts, suffix, true))
                    .collect();
                (data, cases) = (candidate, parsed);
                break;
            }
        }
    }
    let mut decided: Vec<(String, Option<&str>)> = Vec::new();
    for (n, file) in files.iter_mut().enumerate() {
        assert!(valid(&cases, file), "{name}: run {n} is valid");
        let mut tried = HashSet::new();
        for (field, suffix) in &decided {
            tried.insert(field.clone());
            let Some(suffix) = suffix else { continue };
            let texts = file.texts_of(field);
            let candidate = file.renamed(&texts, suffix, false);
            if texts.is_empty() || !valid(&cases, &candidate) {
                continue;
            }
            *file = candidate;
        }
        for field in file.fields() {
            if tried.contains(&field) {
                continue;
            }
            let texts = file.texts_of(&field);
            let mut accepted = None;
            for suffix in SUFFIXES.into_iter().filter(|_| !texts.is_empty()) {
                let candidate = file.renamed(&texts, suffix, false);
                if valid(&cases, &candidate) {
                    (*file, accepted) = (candidate, Some(suffix));
                    break;
                }
            }
            decided.push((field, accepted));
        }
    }
    HostileFiles {
        cases,
        dataset_fields: data.hostile_fields(),
        run_fields: files.iter().flat_map(Lines::hostile_fields).collect(),
        runs: files.iter().map(Lines::text).collect(),
    }
}

/// Asserts that `fields` holds each of `wanted` (a field a user writes
/// that the parsers must keep taking hostile text in).
fn assert_covers(what: &str, fields: &BTreeSet<String>, wanted: &[&str]) {
    for field in wanted {
        assert!(
            fields.contains(*field),
            "{what}: no hostile text in {field}; fields with it: {fields:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// The app, filled with hostile text through its own doors.

/// A signed-in viewer: a session cookie, or none.
struct Viewer {
    name: &'static str,
    cookie: Option<String>,
}

struct World {
    app: TestApp,
    /// The admin's API token.
    token: String,
    viewers: Vec<Viewer>,
    /// Pages to visit besides the route table's: the hostile records'.
    seeds: Vec<String>,
}

async fn call<F: ServerFn>(app: &TestApp, cookie: &str, pairs: &[(&str, &str)]) -> TestResponse {
    app.call::<F>(Some(cookie), pairs).await
}

/// The JSON of a call that must succeed.
async fn ok<F: ServerFn>(app: &TestApp, cookie: &str, pairs: &[(&str, &str)]) -> Value {
    app.ok::<F>(Some(cookie), pairs).await
}

async fn current(app: &TestApp, benchmark: Benchmark) -> DatasetInfo {
    db::datasets::current(&app.db, benchmark)
        .await
        .expect("query")
        .expect("a dataset")
}

async fn user_id(app: &TestApp, name: &str) -> i64 {
    db::users::by_name(&app.db, name)
        .await
        .expect("query")
        .expect("the account")
        .id
}

/// A fresh app holding hostile text in every field: four accounts named
/// with it (admin, researcher, two experts), the three benchmarks' datasets
/// and runs, statutes, review items of every kind with labels, comments,
/// corrections and adjudications, a case correction, fidelity probes and
/// the study's replies, a Targeted vs Off-target result, an endpoint and
/// two jobs.
async fn build() -> World {
    let app = TestApp::empty().await;
    let admin = short("管理员 admin");
    let researcher = short("研究员 researcher");
    let expert_a = short("专家甲 expert-a");
    let expert_b = short("专家乙 expert-b");
    let token = app.token(&admin, Role::Admin).await;
    let upload_token = app.token(&researcher, Role::Researcher).await;
    app.user(&expert_a, Role::Expert, PASSWORD).await;
    app.user(&expert_b, Role::Expert, PASSWORD).await;
    let admin_cookie = app.sign_in(&admin, PASSWORD).await;
    let a = app.sign_in(&expert_a, PASSWORD).await;
    let b = app.sign_in(&expert_b, PASSWORD).await;
    let viewers = vec![
        Viewer {
            name: "anonymous",
            cookie: None,
        },
        Viewer {
            name: "researcher",
            cookie: Some(app.sign_in(&researcher, PASSWORD).await),
        },
        Viewer {
            name: "expert",
            cookie: Some(a.clone()),
        },
        Viewer {
            name: "admin",
            cookie: Some(admin_cookie.clone()),
        },
    ];
    let mut seeds = Vec::new();

    // The three benchmarks' datasets and runs, every field hostile.
    let plaw = hostile_files::<PLawBench>(
        PLAW_DEMO_DATASET,
        &[0, 1, 12, 13, 18, 21],
        &PLAW_DEMO_RUNS,
        PLAW_DEMO_NAME,
    );
    let dlaw = hostile_files::<DLawBench>(
        DLAW_DEMO_DATASET,
        &[0, 1, 6, 7],
        &DLAW_DEMO_RUNS,
        DLAW_DEMO_NAME,
    );
    let lex = hostile_files::<LexPilot>(DEMO_DATASET, &LEXPILOT_CASES, &DEMO_RUNS, DEMO_NAME);
    eprintln!(
        "LexPilot dataset fields with hostile text: {:?}",
        lex.dataset_fields
    );
    eprintln!(
        "LexPilot run fields with hostile text: {:?}",
        lex.run_fields
    );
    eprintln!("PLawBench dataset fields: {:?}", plaw.dataset_fields);
    eprintln!("PLawBench run fields: {:?}", plaw.run_fields);
    eprintln!("DLawBench dataset fields: {:?}", dlaw.dataset_fields);
    eprintln!("DLawBench run fields: {:?}", dlaw.run_fields);
    assert_covers(
        "PLawBench",
        &plaw
            .dataset_fields
            .union(&plaw.run_fields)
            .cloned()
            .collect(),
        &[
            ".question",
            ".rubric",
            "run.model",
            "rubric.response",
            "rubric.judgements[].judge_output",
            "rubric.judgements[].unavailable",
        ],
    );
    assert_covers(
        "DLawBench",
        &dlaw
            .dataset_fields
            .union(&dlaw.run_fields)
            .cloned()
            .collect(),
        &[
            ".case_id",
            ".title",
            ".opening",
            "run.model",
            "session.dialogue[].content",
            "session.memo",
            "session.panel[].rationale",
            "session.panel[].unavailable",
        ],
    );
    assert_covers(
        "LexPilot dataset",
        &lex.dataset_fields,
        &[
            ".case_id",
            ".case_number",
            ".claims[].text",
            ".focal_points[].text",
            ".key_facts[].text",
            ".consultations.complete[].content",
            ".consultations.underspecified[].content",
            ".profile.occupation",
        ],
    );
    assert_covers(
        "LexPilot runs",
        &lex.run_fields,
        &[
            "run.model",
            "run.judge",
            "lca.response",
            "dcg.requests[].text",
            "ljp.response",
            "dcg.unavailable",
        ],
    );
    let source = hostile("uploaded file");
    let [plaw_name, dlaw_name, lex_name] = [PLAW_DEMO_NAME, DLAW_DEMO_NAME, DEMO_NAME].map(hostile);
    db::datasets::import_items(
        &app.db,
        import(&plaw_name, &source),
        Benchmark::Plawbench,
        &plaw.cases,
    )
    .await
    .expect("PLawBench dataset");
    db::datasets::import_items(
        &app.db,
        import(&dlaw_name, &source),
        Benchmark::Dlawbench,
        &dlaw.cases,
    )
    .await
    .expect("DLawBench dataset");
    db::datasets::import(&app.db, import(&lex_name, &source), &lex.cases)
        .await
        .expect("LexPilot dataset");
    for (benchmark, runs) in [
        ("plawbench", &plaw.runs),
        ("dlawbench", &dlaw.runs),
        ("lexpilot", &lex.runs),
    ] {
        for run in runs {
            let res = app
                .send(upload(
                    &upload_token,
                    run.clone(),
                    &format!("?benchmark={benchmark}"),
                ))
                .await;
            assert_eq!(res.status, StatusCode::CREATED, "{benchmark}: {}", res.body);
        }
    }
    let case = &lex.cases[0];
    seeds.push(format!("/cases/{}", enc(&case.case_id)));
    seeds.push(format!("/cases/{}/edit", enc(&case.case_id)));
    seeds.push(format!("/plawbench/items/{}", enc(plaw.cases[0].item_id())));
    seeds.push(format!("/dlawbench/cases/{}", enc(&dlaw.cases[0].case_id)));

    statutes(&app, &admin).await;
    seeds.extend(review(&app, &admin_cookie, &a, &b, &expert_a, &expert_b).await);
    correction(&app, &admin_cookie).await;
    seeds.extend(fidelity(&app, &a, &admin).await);
    targeted(&app, &admin).await;
    jobs(&app, &admin_cookie, &admin).await;
    World {
        app,
        token,
        viewers,
        seeds,
    }
}

/// Where an imported dataset comes from.
fn import<'a>(name: &'a str, source: &'a str) -> ImportSource<'a> {
    ImportSource {
        name,
        source,
        synthetic: false,
    }
}

/// The statute excerpt of the engine's tests with hostile article texts and
/// chapters, one more law with a hostile name, from a hostile source.
async fn statutes(app: &TestApp, admin: &str) {
    use engine::statutes::package::{from_rows, ArticleRow, LawRow};

    let excerpt: Value = serde_json::from_str(include_str!(
        "../../engine/tests/fixtures/statutes/excerpt.json"
    ))
    .expect("the excerpt");
    let text = |v: &Value| v.as_str().map(str::to_owned);
    let mut laws: Vec<LawRow> = excerpt["laws"]
        .as_array()
        .expect("laws")
        .iter()
        .map(|l| LawRow {
            law_id: text(&l["law_id"]).expect("an id"),
            law_name: text(&l["law_name"]).expect("a name"),
            status: text(&l["status"]),
            effective_date: text(&l["effective_date"]),
        })
        .collect();
    laws.push(LawRow {
        law_id: "hostile".into(),
        law_name: hostile("中华人民共和国某某法"),
        status: Some("现行有效".into()),
        effective_date: None,
    });
    let mut articles: Vec<ArticleRow> = excerpt["articles"]
        .as_array()
        .expect("articles")
        .iter()
        .map(|a| ArticleRow {
            id: a["id"].as_i64().expect("an id"),
            law_id: text(&a["law_id"]).expect("a law"),
            chapter: Some(hostile(a["chapter"].as_str().unwrap_or("第一章"))),
            article_no: text(&a["article_no"]),
            article_no_arabic: a["article_no_arabic"].as_i64(),
            article_text: text(&a["article_text"]).map(|t| hostile(&t)),
        })
        .collect();
    articles.push(ArticleRow {
        id: 9_999_999,
        law_id: "hostile".into(),
        chapter: Some(hostile("第一章")),
        article_no: Some("第一条".into()),
        article_no_arabic: Some(1),
        article_text: Some(hostile("为了")),
    });
    let statutes = from_rows(laws, articles).expect("valid rows");
    db::statutes::import(
        &app.db,
        &hostile("laws.db"),
        &"0".repeat(64),
        Some(admin),
        &statutes,
    )
    .await
    .expect("statutes stored");
}

/// The first review item of `kind` on a dataset of `benchmark` (and of
/// `task`, when given).
async fn first_item(app: &TestApp, kind: &str, benchmark: &str, task: Option<&str>) -> i64 {
    sqlx::query_scalar(
        "SELECT r.id FROM review_items r JOIN datasets d ON d.id = r.dataset_id
         WHERE r.kind = $1 AND d.benchmark = $2 AND COALESCE(r.task, '') = $3
         ORDER BY r.id LIMIT 1",
    )
    .bind(kind)
    .bind(benchmark)
    .bind(task.unwrap_or(""))
    .fetch_one(app.db.pool())
    .await
    .unwrap_or_else(|e| panic!("a {kind} item of {benchmark}: {e}"))
}

/// The judge's label of item `id` as an expert may give it: a sheet's
/// points rounded to whole ones (a panel's mean need not be on the step),
/// a unit the panel left undecided given 0.
async fn judge_label(app: &TestApp, id: i64) -> String {
    let label: Option<String> =
        sqlx::query_scalar("SELECT judge_label FROM review_items WHERE id = $1")
            .bind(id)
            .fetch_one(app.db.pool())
            .await
            .expect("the item");
    let label = label.expect("a judge label");
    match serde_json::from_str::<Value>(&label) {
        Ok(Value::Object(mut units)) => {
            for v in units.values_mut() {
                *v = json!(v.as_f64().unwrap_or(0.0).round());
            }
            Value::Object(units).to_string()
        }
        _ => label,
    }
}

/// Review items of every kind, assigned to both experts, labelled with
/// hostile comments and corrections, three adjudicated with hostile
/// reasons, one flagged and one drafted; the pages of one item per kind.
async fn review(
    app: &TestApp,
    admin: &str,
    a: &str,
    b: &str,
    a_name: &str,
    b_name: &str,
) -> Vec<String> {
    let small = [("per_model", "1"), ("cap", "3")];
    let kinds: [(&str, &[(&str, &str)]); 7] = [
        ("seed_dialogue", &[]),
        ("case_check", &[]),
        ("judge_verdict", &[("task", "lca")]),
        ("judge_verdict", &[("task", "dcg")]),
        ("judge_verdict", &[("task", "ljp")]),
        ("rubric_verdict", &[("benchmark", "plawbench")]),
        ("rubric_verdict", &[("benchmark", "dlawbench")]),
    ];
    for (kind, extra) in kinds {
        let mut pairs = vec![("kind", kind)];
        pairs.extend_from_slice(extra);
        if kind != "seed_dialogue" && kind != "case_check" {
            pairs.extend_from_slice(&small);
        }
        ok::<CreateReviewItems>(app, admin, &pairs).await;
    }
    ok::<AssignReviews>(
        app,
        admin,
        &[("experts[0]", a_name), ("experts[1]", b_name)],
    )
    .await;
    let submit = |cookie: &str, id: i64, label: String, proposal: Option<String>| {
        let (cookie, id) = (cookie.to_owned(), id.to_string());
        async move {
            let comment = hostile("意见 comment");
            let mut pairs = vec![
                ("id", id.as_str()),
                ("label", label.as_str()),
                ("comment", comment.as_str()),
            ];
            if let Some(p) = &proposal {
                pairs.push(("proposal", p.as_str()));
            }
            ok::<SubmitReview>(app, &cookie, &pairs).await;
        }
    };
    let adjudicate = |id: i64, label: String| async move {
        let reason = hostile("裁定理由 reason");
        ok::<Adjudicate>(
            app,
            admin,
            &[
                ("id", &id.to_string()),
                ("label", &label),
                ("reason", &reason),
            ],
        )
        .await;
    };
    let mut items = Vec::new();

    // A seed dialogue: A corrects it, B approves, the admin takes A's.
    let seed = first_item(app, "seed_dialogue", "lexpilot", None).await;
    let view = ok::<GetReviewItem>(app, a, &[("id", &seed.to_string())]).await;
    let mut case = view["case"].clone();
    let turn = &mut case["consultations"]["underspecified"][0]["content"];
    *turn = hostile(turn.as_str().expect("a turn")).into();
    submit(a, seed, "correct".into(), Some(case.to_string())).await;
    submit(b, seed, "approve".into(), None).await;
    adjudicate(seed, format!("correct:{a_name}")).await;
    items.push(seed);

    // A case check: B fails a check, saying why; the admin decides.
    let check = first_item(app, "case_check", "lexpilot", None).await;
    let pass = serde_json::to_string(&CaseCheck::all_pass()).expect("JSON");
    let mut failing = CaseCheck::all_pass();
    failing.key_details = CheckResult::fail(hostile("泄露了关键事实"));
    submit(a, check, pass.clone(), None).await;
    submit(
        b,
        check,
        serde_json::to_string(&failing).expect("JSON"),
        None,
    )
    .await;
    adjudicate(check, pass).await;
    items.push(check);

    // LCA: the experts disagree and the admin decides; DCG, LJP and the
    // rubric sheets: both give the judge's label.
    let lca = first_item(app, "judge_verdict", "lexpilot", Some("lca")).await;
    submit(a, lca, "ask".into(), None).await;
    submit(b, lca, "predict".into(), None).await;
    adjudicate(lca, "ask".into()).await;
    items.push(lca);
    for (kind, benchmark, task) in [
        ("judge_verdict", "lexpilot", Some("dcg")),
        ("judge_verdict", "lexpilot", Some("ljp")),
        ("rubric_verdict", "plawbench", None),
        ("rubric_verdict", "dlawbench", None),
    ] {
        let id = first_item(app, kind, benchmark, task).await;
        let label = judge_label(app, id).await;
        submit(a, id, label.clone(), None).await;
        submit(b, id, label, None).await;
        items.push(id);
    }

    // Open items: one flagged unclear, one with a draft.
    let open: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM review_items WHERE task = 'lca' AND final_label IS NULL ORDER BY id",
    )
    .fetch_all(app.db.pool())
    .await
    .expect("open items");
    let flagged = open[0].to_string();
    let drafted = open[1].to_string();
    ok::<FlagReviewItem>(
        app,
        a,
        &[("id", &flagged), ("comment", &hostile("看不懂 unclear"))],
    )
    .await;
    let draft = json!({"label": "ask", "comment": hostile("草稿 draft")}).to_string();
    ok::<SaveReviewDraft>(app, a, &[("id", &drafted), ("draft", &draft)]).await;
    items.extend([open[0], open[1]]);
    items
        .into_iter()
        .map(|id| format!("/review/items/{id}"))
        .collect()
}

/// An admin's correction of a case: hostile text in a turn and the reason.
async fn correction(app: &TestApp, admin: &str) {
    let dataset = current(app, Benchmark::Lexpilot).await;
    let cases = cases_of(app, &dataset).await;
    let mut case = cases[1].clone();
    case.consultations.complete[0].content = hostile(&case.consultations.complete[0].content);
    let base = db::revisions::current_revision(&app.db, &dataset.name, &case.case_id)
        .await
        .expect("the revision");
    ok::<SaveCaseCorrection>(
        app,
        admin,
        &[
            ("case", &serde_json::to_string(&case).expect("JSON")),
            ("base_revision", &base.to_string()),
            ("reason", &hostile("更正 correction")),
        ],
    )
    .await;
}

/// The stored cases of LexPilot version `dataset`.
async fn cases_of(app: &TestApp, dataset: &DatasetInfo) -> Vec<engine::lexpilot::dataset::Case> {
    db::cases::all(&app.db, dataset.id)
        .await
        .expect("the cases")
        .to_vec()
}

/// Probes on two sampled cases, every text hostile, then the study's
/// replies (hostile too), which fix them; the probe page.
async fn fidelity(app: &TestApp, expert: &str, admin: &str) -> Vec<String> {
    let sheet = ok::<GetProbeSheet>(app, expert, &[]).await;
    let cases = sheet["sheet"]["cases"].as_array().expect("sampled cases");
    for (i, case) in cases.iter().take(2).enumerate() {
        let facts = case["key_facts"].as_array().expect("key facts");
        let (fact, others): (Vec<&Value>, Vec<&Value>) = facts.iter().partition(|f| f[2] == true);
        let fact = fact[0][0].as_str().expect("a missing fact");
        let withheld: Vec<String> = others
            .iter()
            .map(|f| f[1].as_str().expect("a text").to_owned())
            .chain([hostile("补充事实")])
            .collect();
        let (direct, indirect, broad) = (hostile("A 直接"), hostile("B 间接"), hostile("C 宽泛"));
        let (minimum, permitted) = (hostile("最低回答"), hostile("允许披露"));
        let withheld = withheld.join("\n");
        let mut pairs = vec![
            ("case_id", case["case_id"].as_str().expect("a case")),
            ("fact", fact),
            ("direct", &direct),
            ("indirect", &indirect),
            ("broad", &broad),
            ("minimum_answer", &minimum),
            ("permitted", &permitted),
        ];
        if i == 0 {
            pairs.extend([("ask_withheld", "on"), ("withheld", withheld.as_str())]);
        }
        ok::<SaveProbe>(app, expert, &pairs).await;
    }
    let dataset = current(app, Benchmark::Lexpilot).await;
    let probes = services::fidelity::probes(&app.db, &dataset)
        .await
        .expect("the probes");
    let header = json!({"kind": "fidelity_run", "user_model": hostile("Sim-User"),
        "judge": hostile("Sim-Judge"), "dataset": dataset.name});
    let mut file = format!("{header}\n");
    for probe in &probes {
        use engine::lexpilot::fidelity::Condition;
        for condition in [
            Condition::Direct,
            Condition::Indirect,
            Condition::Broad,
            Condition::Withheld,
        ] {
            if condition == Condition::Withheld && probe.withheld_key_facts.is_none() {
                continue;
            }
            let line = json!({"kind": "fidelity_reply", "case_id": probe.case_id,
                "condition": condition, "question": probe.question(condition),
                "reply": hostile("模拟回复 reply"),
                "dcg_accepted": (condition != Condition::Withheld).then_some(true)});
            file.push_str(&format!("{line}\n"));
        }
    }
    let by = user_id(app, admin).await;
    services::fidelity::store_study(
        &app.db,
        &dataset,
        &RunFile::new(hostile("fidelity.jsonl"), file),
        Some(by),
    )
    .await
    .expect("the study");
    let reply: i64 = sqlx::query_scalar(
        "SELECT id FROM review_items WHERE input LIKE '%simulator_fidelity%' ORDER BY id LIMIT 1",
    )
    .fetch_one(app.db.pool())
    .await
    .expect("a reply item");
    vec![format!("/review/items/{reply}")]
}

/// A Targeted vs Off-target result of a hostile model: every item
/// unavailable, saying why in hostile text.
async fn targeted(app: &TestApp, admin: &str) {
    let dataset = current(app, Benchmark::Lexpilot).await;
    let cases = cases_of(app, &dataset).await;
    let header = json!({"kind": "targeted_run", "model": hostile("Sim-Targeted"), "run": 1,
        "family": "closed", "dataset": dataset.name, "judge": hostile("Sim-Judge"),
        "user_model": hostile("Sim-User")});
    let mut file = format!("{header}\n");
    for case in cases.iter().filter(|c| !c.missing_facts.is_empty()) {
        for condition in ["targeted", "off_target"] {
            let line = json!({"kind": "targeted", "case_id": case.case_id,
                "condition": condition, "status": null, "attempts": [],
                "predictions": null, "unavailable": hostile("构造失败 failed")});
            file.push_str(&format!("{line}\n"));
        }
    }
    let by = user_id(app, admin).await;
    services::targeted::store(
        &app.db,
        &dataset,
        &[RunFile::new(hostile("targeted.jsonl"), file)],
        Some(by),
        db::runs::OnDuplicate::Refuse,
    )
    .await
    .expect("the targeted result");
}

/// An endpoint with hostile names, a job started on it and cancelled, and
/// a job that failed with a hostile error.
async fn jobs(app: &TestApp, admin: &str, admin_name: &str) {
    let endpoint = ok::<SaveEndpoint>(
        app,
        admin,
        &[
            ("name", &short("端点 endpoint")),
            ("base_url", "http://127.0.0.1:9/v1"),
            ("model", &hostile("model")),
        ],
    )
    .await;
    let id = endpoint["id"].as_i64().expect("an endpoint id").to_string();
    let job = ok::<StartJob>(
        app,
        admin,
        &[
            ("model", &id),
            ("user", &id),
            ("judges[0]", &id),
            ("tasks[0]", "lca"),
            ("runs", "1"),
            ("concurrency", "1"),
            ("limit", "1"),
        ],
    )
    .await;
    let job_id = job["id"].as_i64().expect("a job id");
    // It may have failed already (nothing listens there): then it stays so.
    let cancel = call::<CancelJob>(app, admin, &[("id", &job_id.to_string())]).await;
    assert!(!cancel.status.is_server_error(), "{}", cancel.body);
    let spec = db::jobs::job(&app.db, job_id).await.expect("the job").spec;
    let dataset = current(app, Benchmark::Lexpilot).await;
    let owner = "hostile-test";
    let lease = db::jobs::Lease {
        owner,
        until: db::jobs::now_ms() + 3_600_000,
    };
    let failed = db::jobs::create_job(
        &app.db,
        db::jobs::NewJob {
            dataset_id: dataset.id,
            spec: &spec,
            created_by: user_id(app, admin_name).await,
        },
        lease,
        |id| format!("{}/jobs/{id}", app.dir().display()),
    )
    .await
    .expect("a job");
    db::jobs::finish(
        &app.db,
        failed.id,
        Some(owner),
        db::jobs::Outcome {
            status: db::jobs::JobStatus::Failed,
            progress: None,
            error: Some(&hostile("endpoint said")),
            runs_stored: 0,
        },
    )
    .await
    .expect("the job fails");
}

// ---------------------------------------------------------------------------
// Every page.

/// The route of the table that `path` (no query) is, if any.
fn route_of<'a>(routes: &'a [String], path: &str) -> Option<&'a String> {
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    routes.iter().find(|route| {
        let pattern: Vec<&str> = route.trim_end_matches('/').split('/').collect();
        pattern.len() == segments.len()
            && pattern
                .iter()
                .zip(&segments)
                .all(|(p, s)| (p.starts_with(':') || p.starts_with('{')) && !s.is_empty() || p == s)
    })
}

/// The site links of `body` (`href="/…"`), without fragments.
fn links(body: &str) -> Vec<String> {
    body.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|l| l.starts_with('/') && !l.starts_with("//"))
        .map(|l| l.replace("&amp;", "&"))
        .map(|l| l.split('#').next().unwrap_or_default().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

async fn get_as(app: &TestApp, uri: &str, cookie: Option<&str>, lang: &str) -> TestResponse {
    let cookie = match cookie {
        Some(c) => format!("{c}; lang={lang}"),
        None => format!("lang={lang}"),
    };
    app.get_with_cookie(uri, Some(&cookie)).await
}

/// Every page of the route table (those with a parameter through `seeds`
/// and the links found), for each viewer and both languages, carries the
/// hostile text as text only and answers without a server error. Links are
/// followed breadth first, at most `PER_ROUTE` pages per route and viewer.
#[tokio::test]
async fn no_stored_text_becomes_markup_on_any_page() {
    const PER_ROUTE: usize = 4;
    let started = std::time::Instant::now();
    let world = build().await;
    let app = &world.app;
    eprintln!("stored in {:?}", started.elapsed());
    let routes = server::page_paths();
    let mut fixed: Vec<String> = routes
        .iter()
        .filter(|r| !r.contains(':') && !r.contains('{'))
        .cloned()
        .collect();
    fixed.extend(world.seeds.iter().cloned());

    let mut found = Vec::new();
    let mut covered: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    // The routes where some page showed the hostile text (as text).
    let mut shown: BTreeSet<String> = BTreeSet::new();
    let mut pages = 0;
    // The export paths that wrote the hostile text in some file.
    let mut exported: BTreeSet<String> = BTreeSet::new();
    for viewer in &world.viewers {
        let cookie = viewer.cookie.as_deref();
        let mut queue: VecDeque<String> = fixed.iter().cloned().collect();
        let mut seen: HashSet<String> = queue.iter().cloned().collect();
        let mut per_route: BTreeMap<String, usize> = BTreeMap::new();
        // The export links the pages showed this viewer.
        let mut exports: BTreeSet<String> = BTreeSet::new();
        while let Some(uri) = queue.pop_front() {
            for lang in ["en", "zh"] {
                let res = get_as(app, &uri, cookie, lang).await;
                pages += 1;
                assert!(
                    !res.status.is_server_error(),
                    "{uri} as {} ({lang}): {} {}",
                    viewer.name,
                    res.status,
                    res.body
                );
                if let Some(context) = live_markup(&res.body) {
                    found.push(format!("{uri} as {} ({lang}): …{context}…", viewer.name));
                }
                if lang == "zh" {
                    continue;
                }
                let path = uri.split('?').next().unwrap_or_default();
                if let (StatusCode::OK, Some(route)) = (res.status, route_of(&routes, path)) {
                    covered
                        .entry(route.clone())
                        .or_default()
                        .insert(viewer.name);
                    if res.body.contains("&lt;b id=x&gt;") {
                        shown.insert(route.clone());
                    }
                }
                for link in links(&res.body) {
                    if link.parse::<axum::http::Uri>().is_err() {
                        found.push(format!(
                            "{uri} as {}: a link not encoded: {link}",
                            viewer.name
                        ));
                        continue;
                    }
                    let path = link.split('?').next().unwrap_or_default();
                    if path.starts_with("/api/export/") {
                        exports.insert(link.clone());
                        continue;
                    }
                    let Some(route) = route_of(&routes, path) else {
                        continue;
                    };
                    let n = per_route.entry(route.clone()).or_default();
                    if *n < PER_ROUTE && seen.insert(link.clone()) {
                        *n += 1;
                        queue.push_back(link);
                    }
                }
            }
        }
        exports_answer(app, cookie, viewer.name, &exports, &mut exported).await;
    }
    let unexported: Vec<&&str> = EXPORTS.iter().filter(|e| !exported.contains(**e)).collect();
    assert!(
        unexported.is_empty(),
        "exports no page linked with hostile text in them: {unexported:?}"
    );
    eprintln!(
        "{pages} pages rendered, {} of {} routes answered 200, in {:?}",
        covered.len(),
        routes.len(),
        started.elapsed()
    );
    for (route, viewers) in &covered {
        eprintln!("  {route}: {viewers:?}");
    }
    assert!(
        found.is_empty(),
        "stored text became markup on {} page(s):\n{}",
        found.len(),
        found.join("\n\n")
    );
    let missed: Vec<&String> = routes
        .iter()
        .filter(|r| !covered.contains_key(*r))
        .collect();
    assert!(
        missed.is_empty(),
        "routes no viewer saw (add the records or links they need): {missed:?}"
    );
    let blank: Vec<&String> = routes.iter().filter(|r| !shown.contains(*r)).collect();
    assert!(
        blank.is_empty(),
        "routes where no page showed any stored text, so nothing was tested there: {blank:?}"
    );
    json_api(app, &world.token).await;
}

/// The export paths (`/api/export/…`) the pages link.
const EXPORTS: [&str; 6] = [
    "/api/export/leaderboard/items",
    "/api/export/plawbench/leaderboard/items",
    "/api/export/dlawbench/leaderboard/sessions",
    "/api/export/compare",
    "/api/export/models/{model}",
    "/api/export/review/agreement",
];

/// Each export link (at most two per path, table and format) answers
/// without a server error, as a download named in ASCII with the name
/// percent-encoded; the paths whose files held the hostile text go to
/// `exported`.
async fn exports_answer(
    app: &TestApp,
    cookie: Option<&str>,
    viewer: &str,
    links: &BTreeSet<String>,
    exported: &mut BTreeSet<String>,
) {
    let mut per_kind: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for link in links {
        let (path, query) = link.split_once('?').unwrap_or((link, ""));
        let param = |name: &str| {
            query
                .split('&')
                .find_map(|p| p.strip_prefix(&format!("{name}=")))
                .unwrap_or_default()
                .to_owned()
        };
        let kind = if path.starts_with("/api/export/models/") {
            "/api/export/models/{model}"
        } else {
            path
        };
        let n = per_kind
            .entry((kind.to_owned(), param("table"), param("format")))
            .or_default();
        if *n >= 2 {
            continue;
        }
        *n += 1;
        let res = app.get_with_cookie(link, cookie).await;
        assert!(
            !res.status.is_server_error(),
            "{link} as {viewer}: {} {}",
            res.status,
            res.body
        );
        if res.status != StatusCode::OK {
            continue;
        }
        let disposition = res
            .headers
            .get(header::CONTENT_DISPOSITION)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        assert!(
            disposition.starts_with("attachment; filename=\"")
                && !disposition.contains('<')
                && !disposition.contains('/'),
            "{link} as {viewer}: {disposition}"
        );
        if res.body.contains("</textarea></title></script>") {
            exported.insert(kind.to_owned());
        }
    }
}

/// The JSON API gives the hostile text back as JSON strings.
async fn json_api(app: &TestApp, token: &str) {
    let case_id: String = sqlx::query_scalar("SELECT case_id FROM cases ORDER BY id DESC LIMIT 1")
        .fetch_one(app.db.pool())
        .await
        .expect("a case");
    for uri in [
        "/api/stats".to_owned(),
        "/api/cases".to_owned(),
        format!("/api/cases/{}", enc(&case_id)),
        "/api/leaderboard".to_owned(),
        "/api/leaderboard?benchmark=plawbench".to_owned(),
        "/api/leaderboard?benchmark=dlawbench".to_owned(),
        "/api/users".to_owned(),
        "/api/review/export".to_owned(),
    ] {
        let req = Request::get(&uri)
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .expect("request");
        let res = app.send(req).await;
        assert_eq!(res.status, StatusCode::OK, "{uri}: {}", res.body);
        let kind = res
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        assert!(kind.contains("json"), "{uri}: {kind}");
        let values: Vec<Value> = match serde_json::from_str(&res.body) {
            Ok(v) => vec![v],
            Err(_) => res
                .body
                .lines()
                .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{uri}: {e}: {l}")))
                .collect(),
        };
        let mut texts = 0;
        for v in &values {
            Lines(vec![v.clone()]).each(&mut |_, s| texts += usize::from(is_hostile(s)));
        }
        if uri != "/api/stats" {
            assert!(texts > 0, "{uri}: no hostile text comes back");
        }
    }
}
