//! One PLawBench item: the case and the question as the model sees them,
//! and the rubric the judge scores against: for case analysis by section
//! (conclusion, facts, reasoning, statutes) with each entry's points and the
//! section's total, for the other tasks the text rubric as released; and
//! the maximum points.

use engine::plawbench::dataset::{Item, Section};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use super::{item_url, PlawTabs, TaskBadge};
use crate::components::i18n::Lang;
use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::plawbench::plaw_item;
use crate::types::PlawItemView;

#[component]
pub fn PlawItemPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let params = use_params_map();
    let item_id = move || params.read().get("item_id").unwrap_or_default();
    let data = Resource::new(item_id, plaw_item);
    view! {
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(view) => view! { <ItemView view /> }.into_any(),
                    Err(e) => view! {
                        <Title text=lang.t("未找到题目", "Item not found") />
                        <ErrorBox error=e />
                        <p><a href="/plawbench/items">{lang.t("← 返回列表", "← All items")}</a></p>
                    }
                    .into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn ItemNav(view: PlawItemView) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let link = |id: Option<String>, text: &'static str, rel: &'static str| match id {
        Some(id) => view! { <a href=item_url(&id) rel=rel class="button">{text}</a> }.into_any(),
        None => view! { <span class="button disabled">{text}</span> }.into_any(),
    };
    view! {
        <nav class="case-nav" aria-label=lang.t("题目导航", "Item navigation")>
            {link(view.previous.clone(), lang.t("← 上一个", "← Previous"), "prev")}
            <a href="/plawbench/items">{lang.t("全部题目", "All items")}</a>
            <span class="muted">{view.position} " / " {view.dataset.case_count}</span>
            {link(view.next.clone(), lang.t("下一个 →", "Next →"), "next")}
        </nav>
    }
}

#[component]
fn ItemView(view: PlawItemView) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let item = view.item.clone();
    view! {
        <Title text=format!("{} · PLawBench", item.item_id) />
        <section class="panel">
            <PlawTabs current="items" />
            <ItemNav view=view.clone() />
        </section>
        <SyntheticNotice synthetic=view.dataset.synthetic />
        <section class="panel case-head">
            <h1>
                <span data-testid="item-id">{item.item_id.clone()}</span>
                " "
                <TaskBadge task=item.task />
                {item.category.clone().map(|c| view! { <span class="badge">{c}</span> })}
            </h1>
            <p class="dataset-line">{lang.t("满分 ", "Max points ")} <strong data-testid="max-points">{item.max_points}</strong></p>
        </section>
        <div class="two-col">
            <section class="panel">
                {(!item.context.is_empty()).then(|| view! {
                    <h2>{lang.t("案例", "Case")}</h2>
                    <p class="prose" data-testid="item-context">{item.context.clone()}</p>
                })}
                <h2>{lang.t("问题", "Question")}</h2>
                <p class="prose" data-testid="item-question">{item.question.clone()}</p>
            </section>
            <Rubric item />
        </div>
    }
}

/// The rubric: sections with their entries for case analysis, else the text.
#[component]
pub fn Rubric(item: Item) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let body = match (&item.sections, &item.rubric) {
        (Some(entries), _) => {
            let max = item.section_max();
            Section::ALL
                .into_iter()
                .filter_map(|section| {
                    let total = *max.get(&section)?;
                    let criteria: Vec<_> = entries
                        .iter()
                        .filter(|e| e.section() == section)
                        .map(|e| {
                            view! {
                                <li>
                                    <span class="points">{points_text(lang, e.points())}</span>
                                    <span class="prose">{e.criterion().to_owned()}</span>
                                </li>
                            }
                        })
                        .collect();
                    Some(view! {
                        <div class="rubric-section" data-section=section.as_str()>
                            <h3>{section.label(lang)} <span class="muted">{match lang {
                                Lang::Zh => format!("（{}）", points_text(lang, total)),
                                Lang::En => format!(" ({})", points_text(lang, total)),
                            }}</span></h3>
                            <ul class="rubric">{criteria}</ul>
                        </div>
                    })
                })
                .collect_view()
                .into_any()
        }
        (None, Some(text)) => {
            view! { <pre class="rubric-text prose">{text.clone()}</pre> }.into_any()
        }
        (None, None) => {
            view! { <p class="muted">{lang.t("无评分细则。", "No rubric.")}</p> }.into_any()
        }
    };
    view! {
        <section class="panel" data-testid="rubric">
            <h2>{lang.t("评分细则", "Rubric")}</h2>
            {body}
        </section>
    }
}

/// Points as the rubric gives them: "3 分", "3 points", "1 point".
fn points_text(lang: Lang, points: f64) -> String {
    match lang {
        Lang::Zh => format!("{points} 分"),
        Lang::En if points == 1.0 => format!("{points} point"),
        Lang::En => format!("{points} points"),
    }
}
