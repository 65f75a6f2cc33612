//! The case list: filters and search in the URL (shareable), counts, paging.
//! The filter form is a plain GET form, so it works without JavaScript.

use engine::lang::Lang;
use engine::lexpilot::query::{CaseFilter, CaseSummary};
use engine::vocab::{Class, FocalPointType, PlaintiffType, Verdict, CAUSES};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::Form;
use leptos_router::hooks::use_query_map;

use crate::components::labels::{ClassBadge, ErrorBox, Loading, SyntheticNotice, VerdictBadge};
use crate::server_fns::cases::list_cases;
use crate::types::CaseList;
use crate::url::encode;

/// Reads the filter and page from the URL query (`param` gives a decoded
/// query parameter); unknown values are ignored.
pub fn filter_from_query(param: impl Fn(&str) -> Option<String>) -> (CaseFilter, u32) {
    let text = |k: &str| {
        param(k)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    let filter = CaseFilter {
        class: text("class").and_then(|v| Class::parse(&v)),
        cause: text("cause").filter(|c| CAUSES.iter().any(|k| k.name_zh == c)),
        plaintiff_type: text("plaintiff_type").and_then(|v| PlaintiffType::parse(&v)),
        verdict: text("verdict").and_then(|v| Verdict::parse(&v)),
        focal_point_type: text("focal_point_type").and_then(|v| FocalPointType::parse(&v)),
        seed: text("seed").and_then(|v| match v.as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        }),
        q: text("q"),
    };
    let page = text("page")
        .and_then(|p| p.parse().ok())
        .unwrap_or(1)
        .max(1);
    (filter, page)
}

/// The `/cases` URL for `filter` at `page`.
pub fn list_url(filter: &CaseFilter, page: u32) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut add = |k: &str, v: &str| parts.push(format!("{k}={}", encode(v)));
    if let Some(c) = filter.class {
        add("class", c.as_str());
    }
    if let Some(c) = &filter.cause {
        add("cause", c);
    }
    if let Some(p) = filter.plaintiff_type {
        add("plaintiff_type", p.as_str());
    }
    if let Some(v) = filter.verdict {
        add("verdict", v.as_str());
    }
    if let Some(t) = filter.focal_point_type {
        add("focal_point_type", t.as_str());
    }
    if let Some(s) = filter.seed {
        add("seed", if s { "true" } else { "false" });
    }
    if let Some(q) = filter.search_term() {
        add("q", q);
    }
    if page > 1 {
        add("page", &page.to_string());
    }
    if parts.is_empty() {
        "/cases".to_owned()
    } else {
        format!("/cases?{}", parts.join("&"))
    }
}

#[component]
pub fn CaseListPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let query = use_query_map();
    let request = move || query.with(|q| filter_from_query(|k| q.get(k)));
    let data = Resource::new(request, |(filter, page)| list_cases(filter, page));
    view! {
        <Title text=lang.t("案例", "Cases") />
        <section class="panel">
            <h1>{lang.t("案例", "Cases")}</h1>
            {move || {
                let (filter, _) = request();
                view! { <FilterForm filter /> }
            }}
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
fn Select(
    name: &'static str,
    label: &'static str,
    options: Vec<(String, String)>,
    selected: Option<String>,
) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <label class="field">
            <span>{label}</span>
            <select name=name>
                <option value="" selected=selected.is_none()>{lang.t("全部", "All")}</option>
                {options
                    .into_iter()
                    .map(|(value, text)| {
                        let is = selected.as_deref() == Some(value.as_str());
                        view! { <option value=value selected=is>{text}</option> }
                    })
                    .collect_view()}
            </select>
        </label>
    }
}

#[component]
fn FilterForm(filter: CaseFilter) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let classes = Class::ALL
        .iter()
        .map(|c| (c.as_str().to_owned(), c.label(lang).to_owned()))
        .collect();
    let causes = CAUSES
        .iter()
        .filter(|c| filter.class.is_none_or(|k| c.class == k))
        .map(|c| (c.name_zh.to_owned(), c.name_zh.to_owned()))
        .collect();
    let plaintiffs = PlaintiffType::ALL
        .iter()
        .map(|p| (p.as_str().to_owned(), p.label(lang).to_owned()))
        .collect();
    let verdicts = Verdict::ALL
        .iter()
        .map(|v| (v.as_str().to_owned(), v.label(lang).to_owned()))
        .collect();
    let types = FocalPointType::ALL
        .iter()
        .map(|t| (t.as_str().to_owned(), t.label(lang).to_owned()))
        .collect();
    let seeds = vec![
        (
            "true".to_owned(),
            lang.t("仅种子", "Seed pairs only").to_owned(),
        ),
        ("false".to_owned(), lang.t("非种子", "Non-seed").to_owned()),
    ];
    view! {
        <Form method="get" action="/cases" attr:class="filters" attr:role="search" attr:data-testid="filters">
            <label class="field search">
                <span>{lang.t("搜索（案例编号、案由、对话内容）", "Search (case id, cause, dialogue text)")}</span>
                <input type="search" name="q" value=filter.q.clone().unwrap_or_default() placeholder=lang.t("例如：首付款、LP-0001", "e.g. 首付款, LP-0001") />
            </label>
            <Select name="class" label=lang.t("大类", "Class") options=classes selected=filter.class.map(|c| c.as_str().to_owned()) />
            <Select name="cause" label=lang.t("案由", "Cause") options=causes selected=filter.cause.clone() />
            <Select name="plaintiff_type" label=lang.t("原告", "Plaintiff") options=plaintiffs selected=filter.plaintiff_type.map(|p| p.as_str().to_owned()) />
            <Select name="verdict" label=lang.t("判决", "Verdict") options=verdicts selected=filter.verdict.map(|v| v.as_str().to_owned()) />
            <Select name="focal_point_type" label=lang.t("争议焦点", "Focal point") options=types selected=filter.focal_point_type.map(|t| t.as_str().to_owned()) />
            <Select name="seed" label=lang.t("种子", "Seed") options=seeds selected=filter.seed.map(|s| s.to_string()) />
            <div class="filter-actions">
                <button type="submit" class="primary">{lang.t("筛选", "Apply")}</button>
                <a href="/cases" class="button">{lang.t("重置", "Reset")}</a>
            </div>
        </Form>
    }
}

#[component]
fn CaseResults(list: CaseList, filter: CaseFilter) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let page = list.page.clone();
    let pages = page.pages();
    let current = page.page;
    let prev = (current > 1).then(|| list_url(&filter, current - 1));
    let next = (current < pages).then(|| list_url(&filter, current + 1));
    view! {
        <section class="panel">
            <SyntheticNotice synthetic=list.dataset.synthetic />
            <p class="count" data-testid="result-count">
                {match lang {
                    Lang::Zh => view! { {list.dataset.case_count} " 个案例中 " <strong>{page.total}</strong> " 个符合" }.into_any(),
                    Lang::En => view! { <strong>{page.total}</strong> " of " {list.dataset.case_count} " cases match" }.into_any(),
                }}
                {(!filter.is_empty()).then(|| view! { " · " <a href="/cases">{lang.t("清除", "clear filters")}</a> })}
            </p>
            {if page.items.is_empty() {
                view! { <p class="empty">{lang.t("没有符合条件的案例。", "No case matches these filters.")}</p> }.into_any()
            } else {
                view! { <CaseTable rows=page.items.clone() /> }.into_any()
            }}
            <nav class="pager" aria-label=lang.t("分页", "Pages")>
                {prev.map(|href| view! { <a href=href rel="prev">{lang.t("← 上一页", "← Previous")}</a> })}
                <span>{match lang { Lang::Zh => format!("第 {current} / {pages} 页"), Lang::En => format!("Page {current} / {pages}") }}</span>
                {next.map(|href| view! { <a href=href rel="next">{lang.t("下一页 →", "Next →")}</a> })}
            </nav>
        </section>
    }
}

#[component]
fn CaseTable(rows: Vec<CaseSummary>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="cases" data-testid="case-table">
                <thead>
                    <tr>
                        <th>{lang.t("案例", "Case")}</th>
                        <th>{lang.t("案由", "Cause")}</th>
                        <th>{lang.t("大类", "Class")}</th>
                        <th>{lang.t("原告", "Plaintiff")}</th>
                        <th>{lang.t("诉请 · 判决", "Claims · verdicts")}</th>
                        <th class="num">{lang.t("轮数", "Turns")}</th>
                        <th class="num">{lang.t("缺失事实", "Missing")}</th>
                    </tr>
                </thead>
                <tbody>
                    {rows
                        .into_iter()
                        .map(|c| {
                            let href = crate::url::case(&c.case_id);
                            view! {
                                <tr>
                                    <td>
                                        <a href=href class="case-link">{c.case_id.clone()}</a>
                                        {c.seed.then(|| view! { <span class="badge seed" title=lang.t("专家撰写的种子对话", "Expert seed pair")>{lang.t("种子", "seed")}</span> })}
                                    </td>
                                    <td>{c.cause.clone()}</td>
                                    <td><ClassBadge class=c.class /></td>
                                    <td>{c.plaintiff_type.label(lang)}</td>
                                    <td class="verdicts">
                                        {c.verdicts.iter().map(|v| view! { <VerdictBadge verdict=*v /> }).collect_view()}
                                    </td>
                                    <td class="num">{c.turns}</td>
                                    <td class="num">{c.missing_facts}</td>
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
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn urls_round_trip_through_the_query_parser() {
        let filter = CaseFilter {
            class: Some(Class::Family),
            cause: Some("离婚纠纷".into()),
            verdict: Some(Verdict::Dismissed),
            seed: Some(false),
            q: Some("首付 款&=".into()),
            ..CaseFilter::default()
        };
        let url = list_url(&filter, 3);
        let query = url.split_once('?').map(|(_, q)| q).unwrap_or_default();
        let map: HashMap<String, String> = query
            .split('&')
            .filter_map(|kv| {
                let (k, v) = kv.split_once('=')?;
                Some((k.to_owned(), decode(v)))
            })
            .collect();
        assert_eq!(filter_from_query(|k| map.get(k).cloned()), (filter, 3));
    }

    fn decode(s: &str) -> String {
        let bytes = s.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).expect("hex"));
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn unknown_values_are_ignored() {
        let map = HashMap::from([("class", "nope"), ("page", "0")]);
        assert_eq!(
            filter_from_query(|k| map.get(k).map(|v| (*v).to_owned())),
            (CaseFilter::default(), 1)
        );
    }

    #[test]
    fn the_empty_filter_is_the_bare_list() {
        assert_eq!(list_url(&CaseFilter::default(), 1), "/cases");
    }
}
