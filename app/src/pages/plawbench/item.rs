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
use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::plawbench::plaw_item;
use crate::types::PlawItemView;

#[component]
pub fn PlawItemPage() -> impl IntoView {
    let params = use_params_map();
    let item_id = move || params.read().get("item_id").unwrap_or_default();
    let data = Resource::new(item_id, plaw_item);
    view! {
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(view) => view! { <ItemView view /> }.into_any(),
                    Err(e) => view! {
                        <Title text="Item not found" />
                        <ErrorBox error=e />
                        <p><a href="/plawbench/items">"← All items 返回列表"</a></p>
                    }
                    .into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn ItemNav(view: PlawItemView) -> impl IntoView {
    let link = |id: Option<String>, text: &'static str, rel: &'static str| match id {
        Some(id) => view! { <a href=item_url(&id) rel=rel class="button">{text}</a> }.into_any(),
        None => view! { <span class="button disabled">{text}</span> }.into_any(),
    };
    view! {
        <nav class="case-nav" aria-label="Item navigation">
            {link(view.previous.clone(), "← Previous 上一个", "prev")}
            <a href="/plawbench/items">"All items 全部题目"</a>
            <span class="muted">{view.position} " / " {view.dataset.case_count}</span>
            {link(view.next.clone(), "Next 下一个 →", "next")}
        </nav>
    }
}

#[component]
fn ItemView(view: PlawItemView) -> impl IntoView {
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
            <p class="dataset-line">"Max points 满分 " <strong data-testid="max-points">{item.max_points}</strong></p>
        </section>
        <div class="two-col">
            <section class="panel">
                {(!item.context.is_empty()).then(|| view! {
                    <h2>"Case 案例"</h2>
                    <p class="prose" data-testid="item-context">{item.context.clone()}</p>
                })}
                <h2>"Question 问题"</h2>
                <p class="prose" data-testid="item-question">{item.question.clone()}</p>
            </section>
            <Rubric item />
        </div>
    }
}

/// The rubric: sections with their entries for case analysis, else the text.
#[component]
pub fn Rubric(item: Item) -> impl IntoView {
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
                                    <span class="points">{format!("{}", e.points())} " 分"</span>
                                    <span class="prose">{e.criterion().to_owned()}</span>
                                </li>
                            }
                        })
                        .collect();
                    Some(view! {
                        <div class="rubric-section" data-section=section.as_str()>
                            <h3>{section.label_zh()} " · " {section.label_en()} <span class="muted">" (" {format!("{total}")} " 分)"</span></h3>
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
        (None, None) => view! { <p class="muted">"No rubric."</p> }.into_any(),
    };
    view! {
        <section class="panel" data-testid="rubric">
            <h2>"Rubric 评分细则"</h2>
            {body}
        </section>
    }
}
