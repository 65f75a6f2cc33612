//! The PLawBench dataset page: items per task with their points and
//! question lengths, and `case_analysis` items per category.

use leptos::prelude::*;
use leptos_meta::Title;

use super::PlawTabs;
use crate::components::i18n::Lang;
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
    let lang = crate::components::i18n::lang();
    let d = o.dataset;
    let s = o.stats;
    view! {
        <section class="panel">
            <h1>{lang.t("PLawBench · 实务法律评测", "PLawBench · Practical law evaluation")}</h1>
            <PlawTabs current="dataset" />
            <p class="dataset-line">
                <strong>{d.name.clone()}</strong>
                {match lang {
                    Lang::Zh => format!(
                        " · 第 {} 版 · {} · 已存 {} · 导入于 {}",
                        d.version,
                        lang.count(s.items as u64, "道题目", "item", "items"),
                        lang.count(o.runs.max(0) as u64, "次运行", "run", "runs"),
                        lang.date_time(&d.imported_at)
                    ),
                    Lang::En => format!(
                        " · version {} · {} · {} stored · imported {}",
                        d.version,
                        lang.count(s.items as u64, "道题目", "item", "items"),
                        lang.count(o.runs.max(0) as u64, "次运行", "run", "runs"),
                        lang.date_time(&d.imported_at)
                    ),
                }}
            </p>
            <SyntheticNotice synthetic=d.synthetic />
            <p class="muted">
                {lang.t(
                    "实务法律题目，由大模型依据逐点评分细则打分：案例分析分四部分（结论、案件事实、推理过程、法条依据），法律咨询（追问），以及起诉状与答辩状写作。",
                    "Practical-law items judged by an LLM against point rubrics: case analysis in four sections (conclusion, facts, reasoning, statutes), legal consultation (follow-up questions), and statements of claim and defence.",
                )}
            </p>
            <div class="two-col">
                <div class="table-scroll" tabindex="0">
                    <table data-testid="plaw-task-stats">
                        <thead>
                            <tr>
                                <th>{lang.t("任务", "Task")}</th>
                                <th class="num">{lang.t("题目数", "Items")}</th>
                                <th class="num">{lang.t("满分均值（最小–最大）", "Points mean (min–max)")}</th>
                                <th class="num">{lang.t("问题字数", "Question chars")}</th>
                            </tr>
                        </thead>
                        <tbody>
                            {s.tasks
                                .iter()
                                .map(|t| {
                                    let (mean, min, max) = t.max_points;
                                    view! {
                                        <tr>
                                            <td><a href=format!("/plawbench/items?task={}", t.task.as_str())>{t.task.label(lang)}</a></td>
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
                <div class="table-scroll" tabindex="0">
                    <table data-testid="plaw-category-stats">
                        <thead>
                            <tr><th>{lang.t("分类（案例分析）", "Category (case analysis)")}</th><th class="num">{lang.t("题目数", "Items")}</th></tr>
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
            <p><a href="/plawbench/leaderboard">{lang.t("排行榜 →", "Leaderboard →")}</a></p>
        </section>
    }
}
