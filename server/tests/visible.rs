//! Nothing visible changes: every figure and export byte the three
//! benchmarks show on the demo data, pinned in golden files under
//! `tests/golden/` and compared byte for byte.
//!
//! - `api/`: the three `GET /api/leaderboard?benchmark=…` score documents
//!   (pretty-printed JSON, keys sorted);
//! - `pages/<lang>/`: the visible text of the main pages in Chinese and
//!   English ([`visible_text`]: what a reader sees, not the markup);
//! - `exports/`: the body of every export link those pages render, as
//!   downloaded (with the page's language cookie); `exports.txt` lists each
//!   link with its type, file name and blind-review header, `pages.txt` each page with
//!   the export links it renders.
//!
//! The pages are found as a reader finds them: from a few start pages
//! ([`START`]), following the links a page renders by the rules of
//! [`follows`]: the leaderboards' views and tabs (not their sort orders),
//! the drill-downs of one model per benchmark, one of each shape
//! ([`drill_shape`]), and the first page of each other kind (a case, a
//! model, a comparison, an item, a session). Then the review dashboard,
//! as an admin, after two experts labelled a seeded LCA sample and
//! PLawBench and DLawBench rubric sheets were opened ([`review_sample`]).
//!
//! Made deterministic: the demo datasets' import time ([`IMPORTED_AT`]);
//! nothing else in what the server sends is changed.
//!
//! `UPDATE_GOLDEN=1 cargo test -p server --test visible` rewrites the
//! files (and removes those no page links any more); otherwise a mismatch
//! fails with a diff of every file that differs.

mod common;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use axum::http::{header, StatusCode};
use common::TestApp;
use engine::accounts::Role;
use leptos::server_fn::ServerFn;

use app::server_fns::review::{Adjudicate, AssignReviews, CreateReviewItems, SubmitReview};

const PASSWORD: &str = "a-long-password";
const LANGS: [&str; 2] = ["zh", "en"];

/// Where a reader starts: the overviews, the leaderboards, the lists, the
/// paper's tables and the comparison.
const START: [&str; 11] = [
    "/",
    "/cases",
    "/leaderboard",
    "/paper",
    "/compare",
    "/plawbench",
    "/plawbench/items",
    "/plawbench/leaderboard",
    "/dlawbench",
    "/dlawbench/cases",
    "/dlawbench/leaderboard",
];

/// Pages seen by an admin (their export links need an account).
const SIGNED_IN: [&str; 1] = ["/review/agreement"];

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The golden files: compared (or rewritten under `UPDATE_GOLDEN`), with
/// every difference kept for one report at the end.
struct Golden {
    update: bool,
    written: BTreeSet<PathBuf>,
    failures: Vec<String>,
}

impl Golden {
    fn new() -> Golden {
        Golden {
            update: std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| !v.is_empty() && v != "0"),
            written: BTreeSet::new(),
            failures: Vec::new(),
        }
    }

    fn check(&mut self, rel: &str, actual: &[u8]) {
        let path = golden_dir().join(rel);
        assert!(self.written.insert(path.clone()), "{rel} pinned twice");
        let expected = std::fs::read(&path).ok();
        if expected.as_deref() == Some(actual) {
            return;
        }
        if self.update {
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("golden folder");
            std::fs::write(&path, actual).expect("golden written");
            return;
        }
        let Some(expected) = expected else {
            self.failures.push(format!(
                "{rel}: no golden file (run with UPDATE_GOLDEN=1 to write it)"
            ));
            return;
        };
        let old = String::from_utf8_lossy(&expected);
        let new = String::from_utf8_lossy(actual);
        let diff = similar::TextDiff::from_lines(old.as_ref(), new.as_ref());
        let text = diff
            .unified_diff()
            .context_radius(2)
            .header(&format!("golden/{rel}"), "now")
            .to_string();
        let mut lines: Vec<&str> = text.lines().collect();
        let more = lines.len().saturating_sub(60);
        lines.truncate(60);
        let mut report = lines.join("\n");
        if more > 0 {
            let _ = write!(report, "\n… {more} more diff lines");
        }
        if old == new {
            report = format!("{rel}: same text, other bytes (line ends or invalid UTF-8)");
        }
        self.failures.push(report);
    }

    /// Fails on every difference; a golden file nothing produced any more
    /// is one (removed under `UPDATE_GOLDEN`).
    fn finish(mut self) {
        let mut stale = Vec::new();
        collect_files(&golden_dir(), &mut stale);
        for path in stale {
            if self.written.contains(&path) {
                continue;
            }
            if self.update {
                std::fs::remove_file(&path).expect("stale golden removed");
            } else {
                self.failures.push(format!(
                    "{}: golden file no longer produced (no page links it)",
                    path.display()
                ));
            }
        }
        assert!(
            self.failures.is_empty(),
            "{} golden file(s) differ (UPDATE_GOLDEN=1 rewrites them if the change is meant):\n\n{}",
            self.failures.len(),
            self.failures.join("\n\n")
        );
    }
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        // `.gitattributes` keeps git from touching the line ends.
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// `%XX` decoded (as UTF-8, lossily) and `+` left as is.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A file name for `url`: its path and query, decoded, in ASCII letters,
/// digits, `.`, `_` and `-`, with a hash of the URL when shortened or
/// when it had other letters (Chinese ones).
fn slug(url: &str) -> String {
    let decoded = percent_decode(url.trim_start_matches('/'));
    let mut out = String::new();
    for c in decoded.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_') {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_owned();
    let out = if out.is_empty() {
        "index".to_owned()
    } else {
        out
    };
    // Names that lost letters (Chinese ones) or length get a hash of the URL.
    if out.len() <= 110 && decoded.is_ascii() {
        return out;
    }
    // FNV-1a: stable across runs and platforms.
    let hash = url.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{}-{hash:016x}", &out[..out.len().min(100)])
}

/// The decoded `href`s of a page, in document order.
fn hrefs(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(" href=\"") {
        rest = &rest[at + 7..];
        let end = rest.find('"').unwrap_or(rest.len());
        out.push(decode_entities(&rest[..end]));
        rest = &rest[end..];
    }
    out
}

/// The value of query parameter `name` in `url`, decoded.
fn param(url: &str, name: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (k == name).then(|| percent_decode(v))
    })
}

fn path_of(url: &str) -> &str {
    url.split(['?', '#']).next().unwrap_or(url)
}

/// The kind of a page that is followed once or per model, if any.
fn kind(path: &str) -> Option<&'static str> {
    const KINDS: [(&str, &str); 7] = [
        ("/models/", "model"),
        ("/cases/", "case"),
        ("/plawbench/items/", "plaw-item"),
        ("/plawbench/leaderboard/item", "plaw-item-run"),
        ("/dlawbench/cases/", "dlaw-case"),
        ("/dlawbench/leaderboard/session", "dlaw-session"),
        ("/compare", "compare"),
    ];
    KINDS
        .iter()
        .find(|(prefix, _)| path.starts_with(prefix) && !path.ends_with("/edit"))
        .map(|(_, k)| *k)
}

/// Which of the links a page renders are followed.
struct Follow {
    /// The first page seen of each kind.
    first: BTreeMap<&'static str, String>,
    /// The model whose drill-downs are followed, per drill-down path.
    drill_model: BTreeMap<String, String>,
    /// The drill-down shapes ([`drill_shape`]) already followed.
    shapes: BTreeSet<String>,
}

/// What makes a drill-down's table differ, apart from which column,
/// class or level's figures it holds: LexPilot's task and setup, and
/// whether it is one class; PLawBench's column (overall, a task or a
/// task's part), or a category of any; DLawBench's score view and level
/// (all, a jurisdiction, a style, a domain), and at the top level its
/// metric.
fn drill_shape(path: &str, url: &str) -> String {
    let p = |name| param(url, name).filter(|v| !v.is_empty());
    match path {
        "/leaderboard/items" => format!(
            "lexpilot {:?} {:?} {}",
            p("task"),
            p("setup"),
            p("class").is_some_and(|c| c != "overall")
        ),
        "/plawbench/leaderboard/items" => match p("category") {
            Some(_) => "plawbench category".to_owned(),
            None => format!("plawbench {:?}", p("column")),
        },
        _ => {
            let level = ["jurisdiction", "style", "domain"]
                .into_iter()
                .find(|l| p(l).is_some());
            let metric = if level.is_none() { p("metric") } else { None };
            format!("dlawbench {:?} {level:?} {metric:?}", p("scores"))
        }
    }
}

/// Whether to visit `url` (a link a visited page renders).
fn follows(follow: &mut Follow, url: &str) -> bool {
    let path = path_of(url);
    if url.contains('#') || param(url, "sort").is_some() || param(url, "page").is_some() {
        return false;
    }
    // The leaderboards' views and tabs.
    if [
        "/leaderboard",
        "/plawbench/leaderboard",
        "/dlawbench/leaderboard",
    ]
    .contains(&path)
    {
        return true;
    }
    // Every cell of one model (the first linked) per drill-down.
    if [
        "/leaderboard/items",
        "/plawbench/leaderboard/items",
        "/dlawbench/leaderboard/sessions",
    ]
    .contains(&path)
    {
        let model = param(url, "model").unwrap_or_default();
        let chosen = follow
            .drill_model
            .entry(path.to_owned())
            .or_insert_with(|| model.clone());
        return *chosen == model && follow.shapes.insert(drill_shape(path, url));
    }
    match kind(path) {
        Some(k) => {
            let first = follow.first.entry(k).or_insert_with(|| url.to_owned());
            first == url
        }
        None => false,
    }
}

fn is_export(url: &str) -> bool {
    url.starts_with("/api/export/") || url.starts_with("/api/leaderboard/export")
}

/// The HTML entities the server writes, decoded.
fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        // An entity's `;` within its first 12 bytes (found by byte: the
        // text after `&` may be Chinese, where byte 12 is no char boundary).
        let end = rest.bytes().take(12).position(|b| b == b';');
        let decoded = end.and_then(|end| {
            let name = &rest[1..end];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                _ if name.starts_with("#x") || name.starts_with("#X") => {
                    u32::from_str_radix(&name[2..], 16)
                        .ok()
                        .and_then(char::from_u32)
                }
                _ if name.starts_with('#') => name[1..].parse().ok().and_then(char::from_u32),
                _ => None,
            };
            c.map(|c| (c, end + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Elements that start a line (as a browser lays them out).
const BLOCKS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "br",
    "caption",
    "dd",
    "details",
    "dialog",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "html",
    "legend",
    "li",
    "main",
    "nav",
    "ol",
    "option",
    "p",
    "pre",
    "section",
    "select",
    "summary",
    "table",
    "tbody",
    "text",
    "textarea",
    "tfoot",
    "thead",
    "title",
    "tr",
    "ul",
    "svg",
    "g",
    "head",
];

/// Elements whose content is not shown.
const HIDDEN: &[&str] = &["script", "style", "template", "noscript"];

/// Attributes whose text a reader sees (on hover, in an empty field).
const SHOWN_ATTRIBUTES: &[&str] = &["title", "alt", "placeholder"];

/// What a reader sees of `html`, as a browser's `innerText` gives it: a
/// line per block element, table cells joined by ` | `, whitespace runs as
/// one space, empty lines dropped; then the tooltips, placeholders and
/// image texts, one a line. Markup (tags, attributes, comments, scripts,
/// styles) is not in it, so a change of markup alone leaves it unchanged.
fn visible_text(html: &str) -> String {
    // '\n' between blocks, '\t' before a cell, the text in between.
    let mut flow = String::new();
    let mut tips = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        flow.push_str(&decode_entities(&rest[..open]));
        rest = &rest[open..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |e| &comment[e + 3..]);
            continue;
        }
        let end = tag_end(rest);
        let tag = &rest[1..end.saturating_sub(1).max(1)];
        rest = &rest[end..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if name.is_empty() {
            // `<!>`, `<!DOCTYPE …>`: markers, not text.
            continue;
        }
        if !closing && HIDDEN.contains(&name.as_str()) {
            let close = format!("</{name}");
            rest = rest.find(&close).map_or("", |at| &rest[at..]);
            continue;
        }
        if !closing {
            for attr in SHOWN_ATTRIBUTES {
                if let Some(value) = attribute(tag, attr) {
                    let value = collapse(&decode_entities(&value));
                    if !value.is_empty() {
                        tips.push(format!("{attr}: {value}"));
                    }
                }
            }
            if name == "input" {
                let kind = attribute(tag, "type").unwrap_or_default();
                if ["submit", "button", "reset"].contains(&kind.as_str()) {
                    if let Some(value) = attribute(tag, "value") {
                        flow.push_str(&format!(" {} ", decode_entities(&value)));
                    }
                }
            }
        }
        match name.as_str() {
            "td" | "th" if !closing => flow.push('\t'),
            n if BLOCKS.contains(&n) => flow.push('\n'),
            "a" | "button" | "input" | "img" | "label" | "td" | "th" => flow.push(' '),
            _ => {}
        }
    }
    flow.push_str(&decode_entities(rest));

    let mut out = String::new();
    for line in flow.split('\n') {
        let cells: Vec<String> = line.split('\t').map(collapse).collect();
        let cells = match cells.split_first() {
            // Text before the first cell of a row is none of its cells.
            Some((first, rest)) if first.is_empty() && !rest.is_empty() => rest.to_vec(),
            _ => cells,
        };
        if cells.iter().all(String::is_empty) {
            continue;
        }
        out.push_str(&cells.join(" | "));
        out.push('\n');
    }
    if !tips.is_empty() {
        out.push_str("\n── tooltips, placeholders, image texts ──\n");
        for tip in tips {
            out.push_str(&tip);
            out.push('\n');
        }
    }
    out
}

/// The index just past the `>` that ends the tag at the start of `s`
/// (quoted attribute values may hold `>`).
fn tag_end(s: &str) -> usize {
    let mut quote = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return i + 1,
            _ => {}
        }
    }
    s.len()
}

/// The raw value of attribute `name` in the tag text `tag`.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let mut at = 0;
    while let Some(found) = tag[at..].find(name) {
        let start = at + found;
        let before = tag[..start].chars().last();
        let after = &tag[start + name.len()..];
        if before.is_some_and(char::is_whitespace) && after.starts_with('=') {
            let value = &after[1..];
            return Some(match value.chars().next() {
                Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or("").to_owned(),
                _ => value
                    .split(|c: char| c.is_whitespace() || c == '>')
                    .next()
                    .unwrap_or("")
                    .to_owned(),
            });
        }
        at = start + name.len();
    }
    None
}

/// Whitespace runs as one space, trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// GET `url` with the language cookie `lang` (and a session `cookie`).
async fn get(app: &TestApp, url: &str, lang: &str, cookie: Option<&str>) -> common::TestResponse {
    let cookies = match cookie {
        Some(c) => format!("{}={lang}; {c}", engine::lang::COOKIE),
        None => format!("{}={lang}", engine::lang::COOKIE),
    };
    app.get_with_cookie(url, Some(&cookies)).await
}

#[tokio::test]
async fn every_figure_and_export_byte_of_the_demo_holds() {
    let started = std::time::Instant::now();
    let app = TestApp::with_demo().await;
    // The one thing the demo data holds that depends on when it loads.
    sqlx::query("UPDATE datasets SET created_at = $1")
        .bind(IMPORTED_AT)
        .execute(app.db.pool())
        .await
        .expect("import time fixed");
    let mut golden = Golden::new();
    let mut pinned = Pinned::default();

    // The three score documents.
    for benchmark in ["lexpilot", "plawbench", "dlawbench"] {
        let res = app
            .get(&format!("/api/leaderboard?benchmark={benchmark}"))
            .await;
        assert_eq!(res.status, StatusCode::OK, "{benchmark}: {}", res.body);
        let pretty = serde_json::to_string_pretty(&res.json()).expect("JSON") + "\n";
        golden.check(
            &format!("api/leaderboard-{benchmark}.json"),
            pretty.as_bytes(),
        );
    }

    // The public pages, found as a reader finds them (in English; the
    // Chinese pages link the same pages), and their exports.
    let mut follow = Follow {
        first: BTreeMap::new(),
        drill_model: BTreeMap::new(),
        shapes: BTreeSet::new(),
    };
    let mut found: Vec<(String, String)> = Vec::new();
    let mut queue: VecDeque<String> = START.iter().map(|s| (*s).to_owned()).collect();
    let mut seen: BTreeSet<String> = queue.iter().cloned().collect();
    while let Some(url) = queue.pop_front() {
        let res = get(&app, &url, "en", None).await;
        assert_eq!(res.status, StatusCode::OK, "{url}: {}", res.body);
        for link in hrefs(&res.body) {
            if link.starts_with('/')
                && !is_export(&link)
                && !seen.contains(&link)
                && follows(&mut follow, &link)
            {
                seen.insert(link.clone());
                queue.push_back(link);
            }
        }
        found.push((url, res.body));
    }
    for (url, english) in found {
        pinned
            .page(&app, &mut golden, &url, None, Some(english))
            .await;
    }
    pinned.exports(&app, &mut golden, None).await;
    eprintln!(
        "visible: public pages and exports in {:?}",
        started.elapsed()
    );

    // Then the review dashboard, once two experts have labelled a sample
    // (after the public pages: items open for review change them).
    let admin = review_sample(&app).await;
    for url in SIGNED_IN {
        pinned
            .page(&app, &mut golden, url, Some(&admin), None)
            .await;
    }
    pinned.exports(&app, &mut golden, Some(&admin)).await;

    golden.check("pages.txt", pinned.pages_list.as_bytes());
    golden.check("exports.txt", pinned.exports_list.as_bytes());
    eprintln!(
        "visible: 3 documents, {} pages × {} languages, {} exports, in {:?}",
        pinned.pages,
        LANGS.len(),
        pinned.names.len(),
        started.elapsed()
    );
    golden.finish();
}

/// The import time every demo dataset is given.
const IMPORTED_AT: &str = "2026-01-02T03:04:05Z";

/// What has been pinned: the pages, the export links they render not yet
/// downloaded, the exports' file names.
#[derive(Default)]
struct Pinned {
    pages: usize,
    pages_list: String,
    exports_list: String,
    /// (link, page language) of the exports to download.
    links: BTreeSet<(String, &'static str)>,
    /// File name → link of every export downloaded.
    names: BTreeMap<String, String>,
}

impl Pinned {
    /// The text of the page at `url` in both languages (the English body
    /// given when already read), and the export links it renders.
    async fn page(
        &mut self,
        app: &TestApp,
        golden: &mut Golden,
        url: &str,
        cookie: Option<&str>,
        mut english: Option<String>,
    ) {
        self.pages += 1;
        for lang in LANGS {
            let body = match english.take().filter(|_| lang == "en") {
                Some(body) => body,
                None => {
                    let res = get(app, url, lang, cookie).await;
                    assert_eq!(res.status, StatusCode::OK, "{url} ({lang}): {}", res.body);
                    res.body
                }
            };
            let file = format!("pages/{lang}/{}.txt", slug(url));
            golden.check(&file, visible_text(&body).as_bytes());
            let _ = writeln!(self.pages_list, "{lang} {url} → {file}");
            let mut links: Vec<String> =
                hrefs(&body).into_iter().filter(|l| is_export(l)).collect();
            links.dedup();
            for link in links {
                let _ = writeln!(self.pages_list, "    export {link}");
                self.links.insert((link, lang));
            }
        }
    }

    /// Downloads every export link not yet downloaded (a few at a time)
    /// with the language cookie of the page that links it.
    async fn exports(&mut self, app: &TestApp, golden: &mut Golden, cookie: Option<&str>) {
        use futures_util::stream::{self, StreamExt};
        let links = std::mem::take(&mut self.links);
        let downloads: Vec<_> = stream::iter(links)
            .map(|(url, lang)| async move {
                let res = get_raw(app, &url, lang, cookie).await;
                (url, lang, res)
            })
            .buffered(4)
            .collect()
            .await;
        for (url, lang, (status, headers, body)) in downloads {
            assert_eq!(
                status,
                StatusCode::OK,
                "{url}: {}",
                String::from_utf8_lossy(&body)
            );
            let ext = match param(&url, "format").as_deref() {
                Some("json") => "json",
                Some("latex") => "tex",
                _ => "csv",
            };
            // A link without `lang` follows the page's language cookie.
            let stem = slug(url.trim_start_matches("/api/"));
            let name = if param(&url, "lang").is_some() {
                format!("exports/{stem}.{ext}")
            } else {
                format!("exports/{stem}.{lang}.{ext}")
            };
            if let Some(other) = self.names.insert(name.clone(), url.clone()) {
                panic!("two exports named {name}: {other} and {url}");
            }
            let shown = |h: &str| {
                headers
                    .get(h)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("-")
                    .to_owned()
            };
            let _ = writeln!(
                self.exports_list,
                "{lang} {url}\n    → {name} | {} | {} | left out: {}",
                shown("content-type"),
                shown("content-disposition"),
                shown("x-blind-review-left-out"),
            );
            golden.check(&name, &body);
        }
    }
}

/// GET `url` with the language cookie `lang` (and a session `cookie`):
/// the status, headers and body bytes as sent.
async fn get_raw(
    app: &TestApp,
    url: &str,
    lang: &str,
    cookie: Option<&str>,
) -> (StatusCode, axum::http::HeaderMap, axum::body::Bytes) {
    let cookies = match cookie {
        Some(c) => format!("{}={lang}; {c}", engine::lang::COOKIE),
        None => format!("{}={lang}", engine::lang::COOKIE),
    };
    let req = axum::http::Request::get(url)
        .header(header::HOST, "127.0.0.1:3000")
        .header(header::COOKIE, cookies)
        .body(axum::body::Body::empty())
        .expect("request");
    app.send_raw(req).await
}

/// Server function `F` called as its page calls it.
async fn call<F: ServerFn>(
    app: &TestApp,
    cookie: &str,
    pairs: &[(&str, &str)],
) -> serde_json::Value {
    let res = app
        .post_form(F::PATH, &common::form(pairs), Some(cookie))
        .await;
    assert_eq!(res.status, StatusCode::OK, "{}: {}", F::PATH, res.body);
    res.json()
}

/// A small LCA judge sample (2 per model, seed 11) labelled by two
/// experts who disagree on one item, which the admin settles; the
/// admin's session cookie.
async fn review_sample(app: &TestApp) -> String {
    const A: [&str; 6] = ["predict", "ask", "ask", "predict", "ask", "predict"];
    const B: [&str; 6] = ["predict", "ask", "ask", "predict", "predict", "predict"];
    for (name, role) in [
        ("admin", Role::Admin),
        ("expert-a", Role::Expert),
        ("expert-b", Role::Expert),
    ] {
        app.user(name, role, PASSWORD).await;
    }
    let admin = app.sign_in("admin", PASSWORD).await;
    let created = call::<CreateReviewItems>(
        app,
        &admin,
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
    for (benchmark, cap, seed) in [("plawbench", "3", "7"), ("dlawbench", "2", "3")] {
        call::<CreateReviewItems>(
            app,
            &admin,
            &[
                ("kind", "rubric_verdict"),
                ("benchmark", benchmark),
                ("per_model", "1"),
                ("cap", cap),
                ("seed", seed),
            ],
        )
        .await;
    }
    call::<AssignReviews>(app, &admin, &[]).await;
    let ids: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM review_items WHERE kind = 'judge_verdict' ORDER BY id")
            .fetch_all(app.db.pool())
            .await
            .expect("ids");
    for (expert, labels) in [("expert-a", A), ("expert-b", B)] {
        let cookie = app.sign_in(expert, PASSWORD).await;
        for (id, label) in ids.iter().zip(labels) {
            let id = id.to_string();
            call::<SubmitReview>(
                app,
                &cookie,
                &[("id", &id), ("label", label), ("comment", "")],
            )
            .await;
        }
    }
    let settled = ids[4].to_string();
    call::<Adjudicate>(
        app,
        &admin,
        &[
            ("id", &settled),
            ("label", "ask"),
            ("reason", "答复要求补充借款时间"),
        ],
    )
    .await;
    admin
}
