//! Words, not identifiers: the main pages, rendered in Chinese and in
//! English, show no `snake_case` token outside code (`<code>`, `<pre>`)
//! and data ids, no label doubled by its own identifier ("已提交
//! submitted", "Horizon horizon") and no word repeated in a row.

mod common;

use axum::http::StatusCode;
use common::TestApp;
use engine::accounts::Role;

/// The text a reader sees in `html`: tags left out (with `<script>`,
/// `<style>`, `<code>`, `<pre>` and `<textarea>` and all inside them), each
/// tag read as a space, the common entities decoded.
fn visible_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        out.push(' ');
        let tag_end = rest[open..].find('>').map_or(rest.len(), |e| open + e + 1);
        let tag = &rest[open + 1..tag_end.saturating_sub(1).max(open + 1)];
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        rest = &rest[tag_end..];
        if ["script", "style", "code", "pre", "textarea"].contains(&name.as_str()) {
            let close = format!("</{name}>");
            rest = rest.find(&close).map_or("", |at| &rest[at + close.len()..]);
        }
    }
    out.push_str(rest);
    out.replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
}

/// The `<main>` of a page.
fn main_of(body: &str) -> &str {
    let start = body.find("<main").unwrap_or(0);
    let end = body[start..]
        .find("</main>")
        .map_or(body.len(), |e| start + e);
    &body[start..end]
}

/// Words made of letters, digits and `_`, with what follows each.
fn tokens(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let part = c.is_ascii_alphanumeric() || c == '_';
        match (start, part) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                out.push((&text[s..i], &text[i..]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((&text[s..], ""));
    }
    out
}

/// A lower-case identifier with an underscore (`real_rights`), unless it
/// is the front of a data id (`case_analysis-12`).
fn is_identifier(token: &str, after: &str) -> bool {
    let id_like = token.contains('_')
        && token.starts_with(|c: char| c.is_ascii_lowercase())
        && token
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    let data_id = after.starts_with('-') && after[1..].starts_with(|c: char| c.is_ascii_digit());
    id_like && !data_id
}

/// Every problem on one rendered page.
fn problems(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let words = tokens(text);
    for (token, after) in &words {
        if is_identifier(token, after) {
            found.push(format!("identifier {token:?}"));
        }
    }
    for pair in words.windows(2) {
        let ((a, between), (b, _)) = (pair[0], pair[1]);
        let gap = &between[..between.len() - pair[1].1.len() - b.len()];
        if gap == " "
            && a.len() > 2
            && a.eq_ignore_ascii_case(b)
            && !a.chars().all(|c| c.is_ascii_digit())
        {
            found.push(format!("doubled {a:?} {b:?}"));
        }
    }
    // A label followed by its own identifier.
    for (label, id) in labelled_ids() {
        if text.contains(&format!("{label} {id}")) {
            found.push(format!("{label:?} doubled by {id:?}"));
        }
    }
    found
}

/// (label in either language, identifier) of the vocabularies pages show.
fn labelled_ids() -> Vec<(&'static str, &'static str)> {
    use engine::vocab::Vocabulary;
    fn of<V: Vocabulary>() -> Vec<(&'static str, &'static str)> {
        V::VALUES
            .iter()
            .flat_map(|v| [(v.label_zh(), v.as_str()), (v.label_en(), v.as_str())])
            .collect()
    }
    let mut all = of::<engine::dlawbench::run::Status>();
    all.extend(of::<engine::vocab::Class>());
    all.extend(of::<engine::vocab::Verdict>());
    all.extend(of::<engine::dlawbench::dataset::Style>());
    all.extend(of::<engine::dlawbench::score::Metric>());
    all.extend(of::<engine::plawbench::dataset::Task>());
    all.extend(of::<engine::plawbench::dataset::Section>());
    all
}

/// The main pages of the demo, and a page behind a link on each board.
async fn pages(app: &TestApp) -> Vec<String> {
    let mut pages: Vec<String> = [
        "/",
        "/cases",
        "/cases/DEMO-0001",
        "/leaderboard",
        "/leaderboard?task=dcg",
        "/leaderboard?task=ljp",
        "/leaderboard/items?model=Sim-Frontier-2%20(simulated)&task=ljp&setup=gold&class=family",
        "/models/Sim-Frontier-2%20(simulated)",
        "/compare?a=Sim-Frontier-2%20(simulated)&b=Sim-LawAssist-7B%20(simulated)",
        "/paper",
        "/plawbench",
        "/plawbench/items",
        "/plawbench/leaderboard",
        "/dlawbench",
        "/dlawbench/cases",
        "/dlawbench/leaderboard",
    ]
    .map(str::to_owned)
    .to_vec();
    let link = common::first_link;
    let board = app.get("/dlawbench/leaderboard").await.body;
    let cell = link(&board, "/dlawbench/leaderboard/sessions?");
    let sessions = app.get(&cell).await.body;
    pages.push(cell);
    pages.push(link(&sessions, "/dlawbench/leaderboard/session?"));
    let board = app.get("/plawbench/leaderboard").await.body;
    let cell = link(&board, "/plawbench/leaderboard/items?");
    let items = app.get(&cell).await.body;
    pages.push(cell);
    pages.push(link(&items, "/plawbench/leaderboard/item?"));
    pages
}

#[tokio::test]
async fn the_pages_show_words_not_identifiers_in_both_languages() {
    let app = TestApp::with_demo().await;
    app.user("admin", Role::Admin, "a-long-password").await;
    let admin = app.sign_in("admin", "a-long-password").await;
    let mut pages = pages(&app).await;
    pages.extend(
        [
            "/review/agreement",
            "/review/manage",
            "/admin/runs",
            "/runs/upload",
        ]
        .map(str::to_owned),
    );
    let mut found = Vec::new();
    for page in &pages {
        for lang in ["en", "zh"] {
            let res = app
                .get_with_cookie(page, Some(&format!("{admin}; lang={lang}")))
                .await;
            assert_eq!(res.status, StatusCode::OK, "{page}: {}", res.body);
            for problem in problems(&visible_text(main_of(&res.body))) {
                found.push(format!("{page} ({lang}): {problem}"));
            }
        }
    }
    found.dedup();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_checks_catch_what_a_first_time_user_found() {
    let text = visible_text(
        "<td>real_rights</td><td>已提交 submitted</td><td>Horizon horizon</td>\
         <code>case_analysis</code><td>case_analysis-12</td>",
    );
    let found = problems(&text);
    assert!(
        found.iter().any(|p| p.contains("\"real_rights\"")),
        "{found:?}"
    );
    assert!(found.iter().any(|p| p.contains("已提交")), "{found:?}");
    assert!(found.iter().any(|p| p.contains("Horizon")), "{found:?}");
    assert!(
        !found.iter().any(|p| p.contains("case_analysis")),
        "{found:?}"
    );
}
