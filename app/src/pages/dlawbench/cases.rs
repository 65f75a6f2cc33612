//! The DLawBench case list: filters (jurisdiction, domain, a least
//! disputed share) and search in the URL, counts, paging. The filter form
//! is a plain GET form, so it works without JavaScript.

use engine::dlawbench::dataset::Jurisdiction;
use engine::dlawbench::query::{CaseFilter, CaseSummary};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::Form;
use leptos_router::hooks::use_query_map;

use super::{case_url, domain_text, query, share, DlawTabs, JurisdictionBadge};
use crate::components::i18n::Lang;
use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::dlawbench::dlaw_cases;
use crate::types::DlawCaseList;

/// The least disputed shares the filter offers, as percentages.
const DISPUTED_STEPS: [u32; 3] = [25, 50, 75];

/// Reads the filter and page from the URL query; unknown jurisdictions
/// and shares outside 0–100 are ignored.
pub fn filter_from_query(param: impl Fn(&str) -> Option<String>) -> (CaseFilter, u32) {
    let text = |k: &str| {
        param(k)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    let filter = CaseFilter {
        jurisdiction: text("jurisdiction").filter(|j| Jurisdiction::parse(j).is_some()),
        domain: text("domain"),
        min_disputed: text("disputed")
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|d| *d <= 100)
            .map(|d| f64::from(d) / 100.0),
        q: text("q"),
    };
    let page = text("page")
        .and_then(|p| p.parse().ok())
        .unwrap_or(1)
        .max(1);
    (filter, page)
}

/// The percentage a filter's least disputed share is given as.
fn disputed_percent(filter: &CaseFilter) -> Option<u32> {
    filter.min_disputed.map(|d| (d * 100.0).round() as u32)
}

/// The list URL of `filter` at `page`.
pub fn list_url(filter: &CaseFilter, page: u32) -> String {
    format!(
        "/dlawbench/cases{}",
        query(&[
            ("jurisdiction", filter.jurisdiction.clone()),
            ("domain", filter.domain.clone()),
            ("disputed", disputed_percent(filter).map(|d| d.to_string())),
            ("q", filter.stored().search_term().map(str::to_owned)),
            ("page", (page > 1).then(|| page.to_string())),
        ])
    )
}

#[component]
pub fn DlawCasesPage() -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let query = use_query_map();
    let request = move || query.with(|q| filter_from_query(|k| q.get(k)));
    let data = Resource::new(request, |(filter, page)| dlaw_cases(filter, page));
    view! {
        <Title text=ui.t("DLawBench 案例", "DLawBench cases") />
        <section class="panel">
            <h1>{ui.t("DLawBench 案例", "DLawBench cases")}</h1>
            <DlawTabs current="cases" />
        </section>
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                let (filter, _) = request();
                match data.await {
                    Ok(list) => view! { <CaseResults list filter /> }.into_any(),
                    Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn FilterForm(filter: CaseFilter, domains: Vec<(Jurisdiction, String)>) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let jurisdiction = filter.jurisdiction.clone();
    let domain = filter.domain.clone();
    let disputed = disputed_percent(&filter);
    view! {
        <Form method="get" action="/dlawbench/cases" attr:class="filters" attr:role="search" attr:data-testid="filters">
            <label class="field search">
                <span>{ui.t("搜索（编号、标题、开场陈述、事实）", "Search (id, title, opening, facts)")}</span>
                <input type="search" name="q" value=filter.q.clone().unwrap_or_default() placeholder=ui.t("例如：遗嘱、deposit", "e.g. deposit, 遗嘱") />
            </label>
            <label class="field">
                <span>{ui.t("法域", "Jurisdiction")}</span>
                <select name="jurisdiction">
                    <option value="" selected=jurisdiction.is_none()>{ui.t("全部", "All")}</option>
                    {Jurisdiction::ALL
                        .into_iter()
                        .map(|j| {
                            let is = jurisdiction.as_deref() == Some(j.as_str());
                            view! { <option value=j.as_str() selected=is>{j.label(ui)}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
            <label class="field">
                <span>{ui.t("领域", "Domain")}</span>
                <select name="domain">
                    <option value="" selected=domain.is_none()>{ui.t("全部", "All")}</option>
                    {domains
                        .into_iter()
                        .map(|(j, d)| {
                            let is = domain.as_deref() == Some(d.as_str());
                            let label = format!("{} · {}", j.label(ui), domain_text(&d, ui));
                            view! { <option value=d.clone() selected=is>{label}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
            <label class="field">
                <span>{ui.t("争议占比", "Disputed share")}</span>
                <select name="disputed">
                    <option value="" selected=disputed.is_none()>{ui.t("不限", "Any")}</option>
                    {DISPUTED_STEPS
                        .into_iter()
                        .map(|d| view! { <option value=d.to_string() selected=disputed == Some(d)>{format!("≥ {d}%")}</option> })
                        .collect_view()}
                </select>
            </label>
            <div class="filter-actions">
                <button type="submit" class="primary">{ui.t("筛选", "Apply")}</button>
                <a href="/dlawbench/cases" class="button">{ui.t("重置", "Reset")}</a>
            </div>
        </Form>
    }
}

#[component]
fn CaseResults(list: DlawCaseList, filter: CaseFilter) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let page = list.page.clone();
    let pages = page.pages();
    let current = page.page;
    let prev = (current > 1).then(|| list_url(&filter, current - 1));
    let next = (current < pages).then(|| list_url(&filter, current + 1));
    let filtered = filter != CaseFilter::default();
    view! {
        <section class="panel">
            <FilterForm filter=filter.clone() domains=list.domains.clone() />
            <SyntheticNotice synthetic=list.dataset.synthetic />
            <p class="count" data-testid="result-count">
                {match ui {
                    Lang::Zh => view! { {list.dataset.case_count} " 个案例中 " <strong>{page.total}</strong> " 个符合" }.into_any(),
                    Lang::En => view! { <strong>{page.total}</strong> " of " {list.dataset.case_count} " cases match" }.into_any(),
                }}
                {filtered.then(|| view! { " · " <a href="/dlawbench/cases">{ui.t("清除", "clear filters")}</a> })}
            </p>
            {if page.items.is_empty() {
                view! { <p class="empty">{ui.t("没有符合条件的案例。", "No case matches these filters.")}</p> }.into_any()
            } else {
                view! { <CaseTable rows=page.items.clone() /> }.into_any()
            }}
            <nav class="pager" aria-label=ui.t("分页", "Pages")>
                {prev.map(|href| view! { <a href=href rel="prev">{ui.t("← 上一页", "← Previous")}</a> })}
                <span>{match ui { Lang::Zh => format!("第 {current} / {pages} 页"), Lang::En => format!("Page {current} / {pages}") }}</span>
                {next.map(|href| view! { <a href=href rel="next">{ui.t("下一页 →", "Next →")}</a> })}
            </nav>
        </section>
    }
}

#[component]
fn CaseTable(rows: Vec<CaseSummary>) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="items" data-testid="dlaw-case-table">
                <thead>
                    <tr>
                        <th>{ui.t("案例", "Case")}</th>
                        <th>{ui.t("法域", "Jurisdiction")}</th>
                        <th>{ui.t("领域", "Domain")}</th>
                        <th>{ui.t("开场陈述", "Opening")}</th>
                        <th class="num" title=ui.t("有争议 / 事实对", "disputed / fact pairs")>{ui.t("争议", "Disputed")}</th>
                        <th class="num" title=ui.t("追问要点 / 争点要点", "inquiry / issue rubric items")>{ui.t("要点", "Rubrics")}</th>
                    </tr>
                </thead>
                <tbody>
                    {rows
                        .into_iter()
                        .map(|c| {
                            let lang = c.language.as_str();
                            view! {
                                <tr>
                                    <td>
                                        <a href=case_url(&c.case_id) class="case-link">{c.case_id.clone()}</a>
                                        {c.title.clone().map(|t| view! { <br /><span class="muted" lang=lang>{t}</span> })}
                                    </td>
                                    <td><JurisdictionBadge jurisdiction=c.jurisdiction /></td>
                                    <td>{domain_text(&c.domain, ui)}</td>
                                    <td class="excerpt" lang=lang>{c.excerpt.clone()}</td>
                                    <td class="num">{c.disputed} " / " {c.facts} <br /><span class="muted">{share(Some(c.disputed_share()))}</span></td>
                                    <td class="num">{c.inquiry_rubrics} " / " {c.issue_rubrics}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_query_agree_and_unknown_values_are_ignored() {
        let filter = CaseFilter {
            jurisdiction: Some("cn".into()),
            domain: Some("labor".into()),
            min_disputed: Some(0.5),
            q: Some(" 遗嘱 ".into()),
        };
        let url = list_url(&filter, 2);
        assert_eq!(
            url,
            "/dlawbench/cases?jurisdiction=cn&domain=labor&disputed=50&q=%E9%81%97%E5%98%B1&page=2"
        );
        let (read, page) = filter_from_query(|k| match k {
            "jurisdiction" => Some("fr".into()),
            "disputed" => Some("150".into()),
            "q" => Some("x".into()),
            _ => None,
        });
        assert_eq!(
            (
                read.jurisdiction,
                read.min_disputed,
                read.q.as_deref(),
                page
            ),
            (None, None, Some("x"), 1)
        );
    }
}
