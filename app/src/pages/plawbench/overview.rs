//! The PLawBench dataset page: items per task with their points and
//! question lengths, and `case_analysis` items per category.

use leptos::prelude::*;
use leptos_meta::Title;

use super::{task_label, PlawTabs};
use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::plawbench::plaw_overview;
use crate::types::PlawDatasetView;
use crate::url::encode;

#[component]
pub fn PlawOverviewPage() -> impl IntoView {
    let data = Resource::new(|| (), |_| plaw_overview());
    view! {
        <Title text="PLawBench" />
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(o) => view! { <PlawOverview o /> }.into_any(),
                    Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn PlawOverview(o: PlawDatasetView) -> impl IntoView {
    let d = o.dataset;
    let s = o.stats;
    view! {
        <section class="panel">
            <h1>"PLawBench · 实务法律评测"</h1>
            <PlawTabs current="dataset" />
            <p class="dataset-line">
                <strong>{d.name.clone()}</strong>
                " · version " {d.version} " · " {s.items} " items · " {o.runs} " runs stored · imported " {d.imported_at.clone()}
            </p>
            <SyntheticNotice synthetic=d.synthetic />
            <p class="muted">
                "Practical-law items judged by an LLM against point rubrics: case analysis in four sections (conclusion, facts, reasoning, statutes), legal consultation (follow-up questions), and statements of claim and defence. "
                "实务题目由大模型依据评分细则打分。"
            </p>
            <div class="two-col">
                <div class="table-scroll">
                    <table data-testid="plaw-task-stats">
                        <thead>
                            <tr>
                                <th>"Task 任务"</th>
                                <th class="num">"Items"</th>
                                <th class="num">"Points mean (min–max)"</th>
                                <th class="num">"Question chars"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {s.tasks
                                .iter()
                                .map(|t| {
                                    let (mean, min, max) = t.max_points;
                                    view! {
                                        <tr>
                                            <td><a href=format!("/plawbench/items?task={}", t.task.as_str())>{task_label(t.task)}</a></td>
                                            <td class="num">{t.items}</td>
                                            <td class="num">{format!("{mean:.1} ({min}–{max})")}</td>
                                            <td class="num">{format!("{:.0}", t.question_chars)}</td>
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
                <div class="table-scroll">
                    <table data-testid="plaw-category-stats">
                        <thead>
                            <tr><th>"Category 分类 (case analysis)"</th><th class="num">"Items"</th></tr>
                        </thead>
                        <tbody>
                            {s.categories
                                .iter()
                                .map(|(c, n)| {
                                    let href = format!("/plawbench/items?task=case_analysis&category={}", encode(c));
                                    view! { <tr><td><a href=href>{c.clone()}</a></td><td class="num">{*n}</td></tr> }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
            </div>
            <p><a href="/plawbench/leaderboard">"Leaderboard 排行榜 →"</a></p>
        </section>
    }
}
