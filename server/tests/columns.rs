//! Every leaderboard column says which way is better, and the pages and
//! exports follow it: on the demo, LJP's relative degradation (lower is
//! better) is bold at its lowest, on the page and in LaTeX; the 95%
//! intervals are on the page without hovering; every chart's text is at
//! least 11 px where the chart is shown at its own width.

mod common;

use axum::http::StatusCode;
use common::TestApp;

/// The `<td …>…</td>` cells of `html` whose opening tag holds `attribute`.
fn cells<'a>(html: &'a str, attribute: &str) -> Vec<&'a str> {
    html.split("<td")
        .skip(1)
        .filter(|cell| {
            let tag = &cell[..cell.find('>').unwrap_or(0)];
            tag.contains(attribute)
        })
        .map(|cell| &cell[..cell.find("</td>").unwrap_or(cell.len())])
        .collect()
}

/// The number in `<span class="mean">…</span>` of a cell.
fn mean(cell: &str) -> f64 {
    let at = cell.find("class=\"mean\">").expect("a mean") + "class=\"mean\">".len();
    cell[at..at + cell[at..].find('<').expect("the mean ends")]
        .trim()
        .parse()
        .expect("a number")
}

fn is_bold(cell: &str) -> bool {
    let tag = &cell[..cell.find('>').unwrap_or(0)];
    tag.split("class=\"")
        .nth(1)
        .and_then(|c| c.split('"').next())
        .is_some_and(|c| c.split(' ').any(|c| c == "best"))
}

#[tokio::test]
async fn the_lowest_relative_degradation_is_bold_on_the_page_and_in_latex() {
    let app = TestApp::with_demo().await;
    let page = app
        .get("/leaderboard?task=ljp&setup=interaction&sort=relative_degradation")
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    // The entries, then the published reference lines (never bold: not ranked).
    let (body, reference) = page
        .body
        .split_once("reference-heading")
        .expect("the demo shows the published reference lines");
    let published = cells(reference, "data-label=\"Rel. degradation\"");
    assert!(!published.is_empty(), "the paper's Table 3 degradations");
    assert!(published.iter().all(|c| !is_bold(c)), "{published:?}");
    let header = body
        .split("<th ")
        .skip(1)
        .map(|th| &th[..th.find("</th>").unwrap_or(th.len())])
        .find(|th| th.contains("sort=relative_degradation"))
        .expect("the column's header");
    assert!(
        header.contains("aria-sort=\"ascending\"") && header.contains("data-better=\"lower\""),
        "sorted lowest first: {header}"
    );
    let degradation = cells(body, "data-label=\"Rel. degradation\"");
    assert_eq!(degradation.len(), 3, "three demo entries");
    let values: Vec<f64> = degradation.iter().map(|c| mean(c)).collect();
    let lowest = values.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(
        values.iter().any(|&v| v > lowest),
        "the entries differ: {values:?}"
    );
    for (cell, value) in degradation.iter().zip(&values) {
        assert_eq!(
            is_bold(cell),
            *value == lowest,
            "{value} of {values:?}: {cell}"
        );
    }
    // A higher-is-better column keeps its highest.
    let gain = cells(body, "data-label=\"Gain\"");
    let gains: Vec<f64> = gain.iter().map(|c| mean(c)).collect();
    let highest = gains.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    for (cell, value) in gain.iter().zip(&gains) {
        assert_eq!(is_bold(cell), *value == highest, "{value} of {gains:?}");
    }

    // The JSON export names each column's direction after its key and label.
    let json = app
        .get("/api/leaderboard/export?task=ljp&setup=interaction&format=json")
        .await
        .json();
    let columns = json["columns"].as_array().cloned().unwrap_or_default();
    let better = |key: &str| {
        columns
            .iter()
            .find(|c| c[0] == key)
            .map(|c| c[2].clone())
            .unwrap_or_else(|| panic!("no {key} in {json}"))
    };
    assert_eq!(better("relative_degradation"), "lower");
    assert_eq!(better("gain"), "higher");

    let tex = app
        .get("/api/leaderboard/export?task=ljp&setup=interaction&format=latex")
        .await;
    assert_eq!(tex.status, StatusCode::OK);
    let rows: Vec<&str> = tex
        .body
        .lines()
        .filter(|l| l.contains("(simulated)"))
        .collect();
    assert_eq!(rows.len(), 3, "{}", tex.body);
    let last = |row: &str| -> (f64, bool) {
        let cell = row
            .trim_end_matches(" \\\\")
            .rsplit(" & ")
            .next()
            .expect("a last cell");
        let bold = cell.starts_with("\\textbf{");
        let number = cell.trim_start_matches("\\textbf{").trim_end_matches('}');
        (number.parse().expect("a number"), bold)
    };
    let degradations: Vec<(f64, bool)> = rows.iter().map(|r| last(r)).collect();
    let lowest = degradations
        .iter()
        .map(|d| d.0)
        .fold(f64::INFINITY, f64::min);
    for (value, bold) in &degradations {
        assert_eq!(*bold, *value == lowest, "{degradations:?}\n{}", tex.body);
    }

    // The paper's Table 3 marks its relative degradation as lower-is-better.
    let paper = app.get("/paper").await;
    let header = paper
        .body
        .split("<th ")
        .skip(1)
        .map(|th| &th[..th.find("</th>").unwrap_or(th.len())])
        .find(|th| th.contains("Rel. degradation"))
        .expect("Table 3's relative degradation");
    assert!(
        header.contains("data-better=\"lower\"") && header.contains("lower is better"),
        "{header}"
    );
}

#[tokio::test]
async fn intervals_are_on_the_page_without_hovering() {
    let app = TestApp::with_demo().await;
    let page = app.get("/leaderboard?task=lca").await;
    let with_interval = cells(&page.body, "data-ci=\"true\"");
    assert!(!with_interval.is_empty(), "{}", page.body);
    for cell in with_interval {
        let at = cell
            .find("data-testid=\"interval\"")
            .unwrap_or_else(|| panic!("no visible interval: {cell}"));
        let text = &cell[at..];
        let text = &text[text.find('>').expect("the tag ends") + 1..];
        let text = &text[..text.find('<').expect("the interval ends")];
        let (lo, hi) = text
            .trim_start_matches('[')
            .trim_end_matches(']')
            .split_once(", ")
            .unwrap_or_else(|| panic!("[lo, hi]: {text}"));
        let decimals = |v: &str| v.split('.').nth(1).map(str::len);
        assert_eq!((decimals(lo), decimals(hi)), (Some(3), Some(3)), "{text}");
        let (lo, hi): (f64, f64) = (lo.parse().expect("lo"), hi.parse().expect("hi"));
        assert!(lo <= hi, "{text}");
        assert!(
            mean(cell) >= lo - 0.0005 && mean(cell) <= hi + 0.0005,
            "{cell}"
        );
    }
}

/// The `font-size` values of every chart on `html`, and the `viewBox`
/// width and `max-width` of each chart.
fn charts(html: &str) -> Vec<(f64, f64, Vec<f64>)> {
    html.split("<svg")
        .skip(1)
        .filter(|svg| svg[..svg.find('>').unwrap_or(0)].contains("class=\"chart\""))
        .map(|svg| {
            let svg = &svg[..svg.find("</svg>").unwrap_or(svg.len())];
            let attr = |name: &str| -> &str {
                let at = svg.find(name).unwrap_or_else(|| panic!("no {name}")) + name.len();
                &svg[at..at + svg[at..].find('"').expect("the value ends")]
            };
            let view_box: f64 = attr("viewBox=\"0 0 ")
                .split(' ')
                .next()
                .and_then(|w| w.parse().ok())
                .expect("a width");
            let max_width: f64 = attr("max-width: ")
                .trim_end_matches("px")
                .parse()
                .expect("a max width");
            let sizes = svg
                .split("font-size=\"")
                .skip(1)
                .filter_map(|t| t[..t.find('"')?].parse().ok())
                .collect();
            (view_box, max_width, sizes)
        })
        .collect()
}

#[tokio::test]
async fn chart_text_is_at_least_11_px_at_the_charts_own_width() {
    let app = TestApp::with_demo().await;
    let mut seen = 0;
    for page in [
        "/leaderboard",
        "/leaderboard?task=ljp",
        "/paper",
        "/plawbench/leaderboard",
        "/dlawbench/leaderboard",
    ] {
        let res = app.get(page).await;
        assert_eq!(res.status, StatusCode::OK, "{page}");
        for (view_box, max_width, sizes) in charts(&res.body) {
            seen += 1;
            assert_eq!(
                view_box, max_width,
                "{page}: never drawn wider than its width"
            );
            assert!(
                sizes.iter().all(|&s| s >= 11.0),
                "{page}: font sizes {sizes:?}"
            );
        }
    }
    assert!(seen >= 8, "{seen} charts");
}

#[tokio::test]
async fn the_plawbench_category_chart_is_on_the_tables_x100_scale() {
    let app = TestApp::with_demo().await;
    let page = app.get("/plawbench/leaderboard").await;
    let figure = &page.body[page
        .body
        .find("data-testid=\"plaw-category-chart\"")
        .expect("the chart")..];
    let svg = &figure[..figure.find("</svg>").expect("the svg ends")];
    assert!(
        svg.contains(">100<") || svg.contains(">\n100\n<") || svg.contains("100</text>"),
        "{svg}"
    );
    assert!(
        !svg.contains(">1.0<") && !svg.contains("1.0</text>"),
        "{svg}"
    );
}
