//! A page's export links: plain download links (no JavaScript needed) to
//! one of its tables as CSV, JSON or LaTeX, served by `/api/export/…`
//! with the page's state in the query and its language.

use engine::core::table::Format;
use engine::lang::Lang;
use leptos::prelude::*;

/// The export of the page at `page_url` (its path and query, as the page
/// links itself): the same URL under `/api/export`, with `table`.
///
/// ```
/// assert_eq!(
///     app::components::exports::export_url("/compare?a=A&b=B", "compare"),
///     "/api/export/compare?a=A&b=B&table=compare"
/// );
/// assert_eq!(app::components::exports::export_url("/models/M", "runs"), "/api/export/models/M?table=runs");
/// ```
pub fn export_url(page_url: &str, table: &str) -> String {
    let joiner = if page_url.contains('?') { '&' } else { '?' };
    format!("/api/export{page_url}{joiner}table={table}")
}

/// "Export: CSV JSON LaTeX" for the export at `href` ([`export_url`]),
/// each link carrying its format and the page's language; LaTeX only when
/// `latex`. `testid` names the paragraph for tests.
#[component]
pub fn ExportLinks(
    href: String,
    lang: Lang,
    #[prop(optional, into)] label: Option<String>,
    #[prop(default = true)] latex: bool,
    #[prop(into)] testid: String,
) -> impl IntoView {
    let label = label.unwrap_or_else(|| lang.t("导出此表：", "Export this table: ").to_owned());
    view! {
        <p class="exports" data-testid=testid>
            {label}
            {Format::ALL
                .into_iter()
                .filter(|f| latex || *f != Format::Latex)
                .map(|format| {
                    let link = format!("{href}&format={}&lang={}", format.as_str(), lang.code());
                    let text = match format {
                        Format::Csv => "CSV",
                        Format::Json => "JSON",
                        Format::Latex => "LaTeX",
                    };
                    view! { <a href=link rel="external" download data-format=format.as_str()>{text}</a> " " }
                })
                .collect_view()}
        </p>
    }
}
