//! DLawBench's pages (`docs/benchmarks/dlawbench.md`): the dataset and its
//! §A1.2a statistics, the case list and one case with its fact pairs side
//! by side (client belief beside court record, disputed pairs highlighted)
//! and both rubric lists, the leaderboard (main and per-jurisdiction
//! tables, style sensitivity, domains, diagnostics, in the null-as-zero or
//! valid-only view), and the drill-downs from a cell to its sessions and on
//! to one session. Every state is in the URL, so links share and pages read
//! the same without JavaScript.

pub mod case;
pub mod cases;
pub mod drilldown;
pub mod leaderboard;
pub mod overview;

use engine::dlawbench::dataset::{domain_label, Jurisdiction, Style};
use engine::dlawbench::score::{Metric, View};
use leptos::prelude::*;

use crate::components::i18n::Lang;
use crate::url::encode;

/// The sub-navigation of every DLawBench page; `current` is the selected tab.
#[component]
pub fn DlawTabs(current: &'static str) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let tab = |href: &'static str, key: &'static str, label: &'static str| {
        let selected = key == current;
        view! { <a href=href class:selected=selected aria-current=selected.then_some("page")>{label}</a> }
    };
    view! {
        <nav class="tabs" aria-label="DLawBench">
            {tab("/dlawbench", "dataset", ui.t("数据集", "Dataset"))}
            {tab("/dlawbench/cases", "cases", ui.t("案例", "Cases"))}
            {tab("/dlawbench/leaderboard", "leaderboard", ui.t("排行榜", "Leaderboard"))}
        </nav>
    }
}

/// A domain key's label in the page's language `ui` (the key itself when
/// it is not one of the recommended keys).
pub fn domain_text(domain: &str, ui: Lang) -> String {
    match domain_label(domain) {
        Some((zh, en)) => ui.t(zh, en).to_owned(),
        None => domain.to_owned(),
    }
}

/// A rate as the leaderboard prints it: three decimals.
pub fn rate(value: Option<f64>) -> String {
    value.map_or_else(|| "—".to_owned(), |v| format!("{v:.3}"))
}

/// A share as a percentage with one decimal.
pub fn share(value: Option<f64>) -> String {
    value.map_or_else(|| "—".to_owned(), |v| format!("{:.1}%", v * 100.0))
}

/// `key=value` pairs of a query, with the set ones percent-encoded.
fn query(pairs: &[(&str, Option<String>)]) -> String {
    let parts: Vec<String> = pairs
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={}", encode(v))))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// The `scores` query of a view: none for the default null-as-zero.
fn scores_param(view: View) -> Option<String> {
    (view != View::NullAsZero).then(|| view.as_str().to_owned())
}

/// The page of case `case_id`.
pub fn case_url(case_id: &str) -> String {
    format!("/dlawbench/cases/{}", encode(case_id))
}

/// The leaderboard in `view`.
pub fn board_url(view: View) -> String {
    format!(
        "/dlawbench/leaderboard{}",
        query(&[("scores", scores_param(view))])
    )
}

/// Where a leaderboard cell sits: overall, a jurisdiction, a style, a
/// jurisdiction and style, or a `jurisdiction/domain`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CellAt {
    pub jurisdiction: Option<Jurisdiction>,
    pub style: Option<Style>,
    pub domain: Option<String>,
}

/// The drill-down of the cell of entry (`model`, `setting`) for `metric`
/// at `at`, in `view`.
pub fn cell_url(
    model: &str,
    setting: Option<&str>,
    metric: Metric,
    view: View,
    at: &CellAt,
) -> String {
    format!(
        "/dlawbench/leaderboard/sessions{}",
        query(&[
            ("model", Some(model.to_owned())),
            ("setting", setting.map(str::to_owned)),
            ("metric", Some(metric.as_str().to_owned())),
            ("scores", scores_param(view)),
            (
                "jurisdiction",
                at.jurisdiction.map(|j| j.as_str().to_owned())
            ),
            ("style", at.style.map(|s| s.as_str().to_owned())),
            ("domain", at.domain.clone()),
        ])
    )
}

/// Session `index` of run `run` of entry (`model`, `setting`).
pub fn session_url(model: &str, setting: Option<&str>, run: u32, index: usize) -> String {
    format!(
        "/dlawbench/leaderboard/session{}",
        query(&[
            ("model", Some(model.to_owned())),
            ("setting", setting.map(str::to_owned)),
            ("run", Some(run.to_string())),
            ("session", Some(index.to_string())),
        ])
    )
}

/// A narrative style's badge.
#[component]
pub fn StyleBadge(style: Style) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    view! { <span class=format!("badge style style-{}", style.as_str())>{style.label(ui)}</span> }
}

/// A jurisdiction's badge.
#[component]
pub fn JurisdictionBadge(jurisdiction: Jurisdiction) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    view! { <span class=format!("badge jurisdiction jurisdiction-{}", jurisdiction.as_str())>{jurisdiction.label(ui)}</span> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_encode_names_and_leave_out_unset_parts() {
        assert_eq!(
            cell_url(
                "Sim A (simulated)",
                None,
                Metric::Resolution,
                View::NullAsZero,
                &CellAt {
                    style: Some(Style::Adversarial),
                    ..CellAt::default()
                }
            ),
            "/dlawbench/leaderboard/sessions?model=Sim%20A%20%28simulated%29&metric=resolution&style=adversarial"
        );
        assert_eq!(
            session_url("M", Some("judges: x"), 2, 7),
            "/dlawbench/leaderboard/session?model=M&setting=judges%3A%20x&run=2&session=7"
        );
        assert_eq!(
            board_url(View::ValidOnly),
            "/dlawbench/leaderboard?scores=valid_only"
        );
        assert_eq!(case_url("DL-SYN-CN-01"), "/dlawbench/cases/DL-SYN-CN-01");
    }
}
