//! The PLawBench item list: filters (task, category) and search in the URL,
//! counts, paging. The filter form is a plain GET form, so it works without
//! JavaScript.

use engine::core::paging::ItemFilter;
use engine::plawbench::dataset::Task;
use engine::plawbench::query::ItemSummary;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::Form;
use leptos_router::hooks::use_query_map;

use super::{item_url, query, PlawTabs, TaskBadge};
use crate::components::i18n::Lang;
use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::plawbench::plaw_items;
use crate::types::PlawItemList;

/// Reads the filter and page from the URL query; unknown tasks are ignored.
pub fn filter_from_query(param: impl Fn(&str) -> Option<String>) -> (ItemFilter, u32) {
    let text = |k: &str| {
        param(k)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    let filter = ItemFilter {
        facet: text("task").filter(|t| Task::parse(t).is_some()),
        category: text("category"),
        q: text("q"),
    };
    let page = text("page")
        .and_then(|p| p.parse().ok())
        .unwrap_or(1)
        .max(1);
    (filter, page)
}

/// The list URL of `filter` at `page`.
pub fn list_url(filter: &ItemFilter, page: u32) -> String {
    format!(
        "/plawbench/items{}",
        query(&[
            ("task", filter.facet.clone()),
            ("category", filter.category.clone()),
            ("q", filter.search_term().map(str::to_owned)),
            ("page", (page > 1).then(|| page.to_string())),
        ])
    )
}

#[component]
pub fn PlawItemsPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let query = use_query_map();
    let request = move || query.with(|q| filter_from_query(|k| q.get(k)));
    let data = Resource::new(request, |(filter, page)| plaw_items(filter, page));
    view! {
        <Title text=lang.t("PLawBench 题目", "PLawBench items") />
        <section class="panel">
            <h1>{lang.t("PLawBench 题目", "PLawBench items")}</h1>
            <PlawTabs current="items" />
        </section>
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                let (filter, _) = request();
                match data.await {
                    Ok(list) => view! { <ItemResults list filter /> }.into_any(),
                    Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn FilterForm(filter: ItemFilter, categories: Vec<String>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let task = filter.facet.clone();
    let category = filter.category.clone();
    view! {
        <Form method="get" action="/plawbench/items" attr:class="filters" attr:role="search" attr:data-testid="filters">
            <label class="field search">
                <span>{lang.t("搜索（题目编号、案例、问题）", "Search (item id, case, question)")}</span>
                <input type="search" name="q" value=filter.q.clone().unwrap_or_default() placeholder=lang.t("例如：婚礼、case_analysis-1", "e.g. 婚礼, case_analysis-1") />
            </label>
            <label class="field">
                <span>{lang.t("任务", "Task")}</span>
                <select name="task">
                    <option value="" selected=task.is_none()>{lang.t("全部", "All")}</option>
                    {Task::ALL
                        .into_iter()
                        .map(|t| {
                            let is = task.as_deref() == Some(t.as_str());
                            view! { <option value=t.as_str() selected=is>{t.label(lang)}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
            <label class="field">
                <span>{lang.t("分类", "Category")}</span>
                <select name="category">
                    <option value="" selected=category.is_none()>{lang.t("全部", "All")}</option>
                    {categories
                        .into_iter()
                        .map(|c| {
                            let is = category.as_deref() == Some(c.as_str());
                            view! { <option value=c.clone() selected=is>{c.clone()}</option> }
                        })
                        .collect_view()}
                </select>
            </label>
            <div class="filter-actions">
                <button type="submit" class="primary">{lang.t("筛选", "Apply")}</button>
                <a href="/plawbench/items" class="button">{lang.t("重置", "Reset")}</a>
            </div>
        </Form>
    }
}

#[component]
fn ItemResults(list: PlawItemList, filter: ItemFilter) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let page = list.page.clone();
    let pages = page.pages();
    let current = page.page;
    let prev = (current > 1).then(|| list_url(&filter, current - 1));
    let next = (current < pages).then(|| list_url(&filter, current + 1));
    view! {
        <section class="panel">
            <FilterForm filter=filter.clone() categories=list.categories.clone() />
            <SyntheticNotice synthetic=list.dataset.synthetic />
            <p class="count" data-testid="result-count">
                {match lang {
                    Lang::Zh => view! { {list.dataset.case_count} " 道题目中 " <strong>{page.total}</strong> " 道符合" }.into_any(),
                    Lang::En => view! { <strong>{page.total}</strong> " of " {list.dataset.case_count} " items match" }.into_any(),
                }}
                {(!filter.is_empty()).then(|| view! { " · " <a href="/plawbench/items">{lang.t("清除", "clear filters")}</a> })}
            </p>
            {if page.items.is_empty() {
                view! { <p class="empty">{lang.t("没有符合条件的题目。", "No item matches these filters.")}</p> }.into_any()
            } else {
                view! { <ItemTable rows=page.items.clone() /> }.into_any()
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
fn ItemTable(rows: Vec<ItemSummary>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="items" data-testid="item-table">
                <thead>
                    <tr>
                        <th>{lang.t("题目", "Item")}</th>
                        <th>{lang.t("任务", "Task")}</th>
                        <th>{lang.t("分类", "Category")}</th>
                        <th>{lang.t("问题", "Question")}</th>
                        <th class="num">{lang.t("满分", "Points")}</th>
                    </tr>
                </thead>
                <tbody>
                    {rows
                        .into_iter()
                        .map(|i| {
                            view! {
                                <tr>
                                    <td><a href=item_url(&i.item_id) class="case-link">{i.item_id.clone()}</a></td>
                                    <td><TaskBadge task=i.task /></td>
                                    <td>{i.category.clone().unwrap_or_default()}</td>
                                    <td class="excerpt">{i.excerpt.clone()}</td>
                                    <td class="num">{i.max_points}</td>
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
    fn urls_and_query_agree_and_unknown_tasks_are_ignored() {
        let filter = ItemFilter {
            facet: Some("case_analysis".into()),
            category: Some("婚姻家事".into()),
            q: Some(" 婚礼 ".into()),
        };
        assert_eq!(
            list_url(&filter, 2),
            "/plawbench/items?task=case_analysis&category=%E5%A9%9A%E5%A7%BB%E5%AE%B6%E4%BA%8B&q=%E5%A9%9A%E7%A4%BC&page=2"
        );
        let (read, page) = filter_from_query(|k| match k {
            "task" => Some("nope".into()),
            "q" => Some("x".into()),
            _ => None,
        });
        assert_eq!((read.facet, read.q.as_deref(), page), (None, Some("x"), 1));
    }
}
