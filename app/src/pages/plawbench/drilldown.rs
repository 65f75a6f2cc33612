//! The drill-downs of the PLawBench leaderboard: the items behind one cell
//! (per item and run the panel's value of the cell's score, unavailable
//! and truncated answers marked, paged), and one item as one run answered
//! it: the rendered prompt, the answer (badged when cut at the token
//! limit), the rubric with what each judge awarded per section against its
//! maximum (the raw value beside it when it was clamped), the judges' own
//! output, and why anything is unavailable.

use engine::plawbench::drilldown::ItemDetail;
use engine::plawbench::leaderboard::Column;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::{cell_url, item_run_url, item_url, percent, query, PlawTabs, TaskBadge};
use crate::components::exports::{export_url, ExportLinks};
use crate::components::i18n::Lang;
use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::plawbench::{plaw_cell, plaw_item_run};
use crate::types::PlawCellView;

#[component]
pub fn PlawCellPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let query = use_query_map();
    let request = move || {
        query.with(|q| {
            (
                q.get("model").unwrap_or_default(),
                q.get("setting").filter(|s| !s.is_empty()),
                q.get("column")
                    .unwrap_or_else(|| Column::Overall.key().to_owned()),
                q.get("category").filter(|c| !c.is_empty()),
                q.get("page").and_then(|p| p.parse().ok()),
            )
        })
    };
    let data = Resource::new(request, |(model, setting, column, category, page)| {
        plaw_cell(model, setting, column, category, page)
    });
    view! {
        <Title text=lang.t("PLawBench · 分数背后的题目", "PLawBench · items behind a score") />
        <section class="panel">
            <PlawTabs current="leaderboard" />
            <Suspense fallback=Loading>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(cell) => view! { <CellView cell /> }.into_any(),
                        Err(e) => view! { <ErrorBox error=e /> <p><a href="/plawbench/leaderboard">{lang.t("← 排行榜", "← Leaderboard")}</a></p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn CellView(cell: PlawCellView) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let PlawCellView {
        dataset,
        model,
        setting,
        drill,
        page,
        pages,
        citations,
        citation_runs,
    } = cell;
    let citation_scope = match lang {
        Lang::Zh => format!("该条目全部 {citation_runs} 次运行的回答"),
        Lang::En => format!("every answer of this entry, all {citation_runs} runs"),
    };
    let title = format!(
        "{} · {}{}",
        model,
        drill.column.words(lang),
        drill
            .category
            .as_deref()
            .map(|c| format!(" · {c}"))
            .unwrap_or_default()
    );
    let page_url = |p: u32| {
        format!(
            "{}{}",
            cell_url(
                &model,
                setting.as_deref(),
                drill.column.key(),
                drill.category.as_deref()
            ),
            query(&[("page", Some(p.to_string()))]).replacen('?', "&", 1)
        )
    };
    let here = cell_url(
        &model,
        setting.as_deref(),
        drill.column.key(),
        drill.category.as_deref(),
    );
    let prev = (page > 1).then(|| page_url(page - 1));
    let next = (page < pages).then(|| page_url(page + 1));
    let head_runs = drill
        .runs
        .iter()
        .map(|r| {
            let label = match lang {
                Lang::Zh => format!("运行 {}", r.run),
                Lang::En => format!("Run {}", r.run),
            };
            view! { <th class="num" scope="col">{label}</th> }
        })
        .collect_view();
    let totals = drill
        .runs
        .iter()
        .map(|r| {
            view! {
                <td class="num" title=match lang {
                    Lang::Zh => format!("{} 道题目，{} 道已评分，{} 道不可用，{} 道被截断，{} 道审核中", r.items, r.scored, r.unavailable, r.truncated, r.hidden),
                    Lang::En => format!("{} items, {} scored, {} unavailable, {} truncated, {} under review", r.items, r.scored, r.unavailable, r.truncated, r.hidden),
                }>
                    <strong>{if r.hidden > 0 { lang.t("审核中", "under review").to_owned() } else { percent(r.value) }}</strong>
                </td>
            }
        })
        .collect_view();
    let rows = drill
        .rows
        .iter()
        .map(|row| {
            let cells = row
                .runs
                .iter()
                .zip(&drill.runs)
                .map(|(cell, run)| match cell {
                    None => view! { <td class="num muted">"—"</td> }.into_any(),
                    Some(c) => {
                        let href = item_run_url(&model, setting.as_deref(), run.run, &row.item_id);
                        let text = match (&c.unavailable, c.value) {
                            _ if c.hidden => lang.t("审核中", "under review").to_owned(),
                            (Some(_), _) => lang.t("不可用", "unavailable").to_owned(),
                            (None, v) => percent(v),
                        };
                        view! {
                            <td class="num" class:flagged=c.unavailable.is_some() title=c.unavailable.clone()>
                                <a href=href class="cell-link">{text}</a>
                                {c.truncated.then(|| view! { <span class="flag" title=lang.t("在 token 上限处被截断", "cut at the token limit")>"✂"</span> })}
                            </td>
                        }
                        .into_any()
                    }
                })
                .collect_view();
            view! {
                <tr>
                    <td><a href=item_url(&row.item_id)>{row.item_id.clone()}</a></td>
                    <td><TaskBadge task=row.task /></td>
                    <td>{row.category.clone().unwrap_or_default()}</td>
                    <td class="num">{format!("{}", row.max_points)}</td>
                    {cells}
                    <td class="num">{percent(row.mean)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <Title text=title.clone() />
        <h1>{title}</h1>
        {setting.clone().map(|s| view! { <p class="setting">{s}</p> })}
        <SyntheticNotice synthetic=dataset.synthetic />
        <p class="dataset-line">
            {match lang {
                Lang::Zh => format!(
                    "{} · {} · 每个数值为评审团对该题的评分 ×100；一次运行的数值为其已评分题目的平均",
                    lang.count(drill.total as u64, "道题目", "item", "items"),
                    drill.tasks.iter().map(|t| t.label(lang)).collect::<Vec<_>>().join("、")
                ),
                Lang::En => format!(
                    "{} · {} · each value is the panel's score of the item ×100; a run's value is their mean over its scored items",
                    lang.count(drill.total as u64, "道题目", "item", "items"),
                    drill.tasks.iter().map(|t| t.label(lang)).collect::<Vec<_>>().join(", ")
                ),
            }}
        </p>
        <crate::components::cited::CitationSummary check=citations scope=citation_scope />
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard" data-testid="plaw-cell-items">
                <thead>
                    <tr>
                        <th>{lang.t("题目", "Item")}</th><th>{lang.t("任务", "Task")}</th><th>{lang.t("分类", "Category")}</th><th class="num">{lang.t("满分", "Points")}</th>
                        {head_runs}
                        <th class="num">{lang.t("平均", "Mean")}</th>
                    </tr>
                    <tr class="totals"><th colspan="4">{lang.t("该单元格（按运行）", "The cell, per run")}</th>{totals}<th></th></tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <nav class="pager" aria-label=lang.t("分页", "Pages")>
            {prev.map(|href| view! { <a href=href rel="prev">{lang.t("← 上一页", "← Previous")}</a> })}
            <span>{match lang { Lang::Zh => format!("第 {page} / {pages} 页"), Lang::En => format!("Page {page} / {pages}") }}</span>
            {next.map(|href| view! { <a href=href rel="next">{lang.t("下一页 →", "Next →")}</a> })}
        </nav>
        <ExportLinks href=export_url(&here, "items") lang label=lang.t("导出全部题目（每题每次运行一行）：", "Export every item (a row per item and run): ") testid="export-items" />
        <ExportLinks href=export_url(&here, "runs") lang label=lang.t("导出各次运行的数值：", "Export the value per run: ") testid="export-runs" />
        <p><a href="/plawbench/leaderboard">{lang.t("← 排行榜", "← Leaderboard")}</a></p>
    }
}

#[component]
pub fn PlawItemRunPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let query = use_query_map();
    let request = move || {
        query.with(|q| {
            (
                q.get("model").unwrap_or_default(),
                q.get("setting").filter(|s| !s.is_empty()),
                q.get("run").and_then(|r| r.parse().ok()).unwrap_or(1),
                q.get("item").unwrap_or_default(),
            )
        })
    };
    let data = Resource::new(request, |(model, setting, run, item)| {
        plaw_item_run(model, setting, run, item)
    });
    view! {
        <Title text=lang.t("PLawBench · 单个回答", "PLawBench · one answer") />
        <section class="panel">
            <PlawTabs current="leaderboard" />
        </section>
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(view) => view! {
                        <SyntheticNotice synthetic=view.dataset.synthetic />
                        <ItemRunView detail=view.detail setting=view.setting marks=view.marks />
                    }
                    .into_any(),
                    Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

fn points(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

#[component]
fn ItemRunView(
    detail: ItemDetail,
    setting: Option<String>,
    marks: engine::statutes::MarkMap,
) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    crate::components::cited::provide_marks(marks);
    let d = detail;
    let hidden = d.hidden;
    let title = match lang {
        Lang::Zh => format!("{} · {} 第 {} 次运行", d.item_id, d.model, d.run),
        Lang::En => format!("{} · {} run {}", d.item_id, d.model, d.run),
    };
    let judges: Vec<String> = d.judges.iter().map(|j| j.judge.clone()).collect();
    let parts = d
        .parts
        .iter()
        .map(|part| {
            let name = part.section.map_or_else(
                || lang.t("全文", "Whole answer").to_owned(),
                |s| s.label(lang).to_owned(),
            );
            let awards = part
                .awards
                .iter()
                .map(|a| {
                    let shown = match a.awarded {
                        _ if hidden => "—".to_owned(),
                        Some(p) => points(p),
                        None => lang.t("不可用", "unavailable").to_owned(),
                    };
                    view! {
                        <td class="num" class:flagged=a.clamped>
                            {shown} " / " {points(part.max_points)}
                            {(a.clamped).then(|| view! {
                                <span class="flag" data-testid="clamped" title=lang.t("评审给出的值，已截到 [0, 满分] 之内", "the judge's value, clamped into [0, max]")>
                                    {format!("{}{}", lang.t("原始值 ", "raw "), a.raw.map(points).unwrap_or_default())}
                                </span>
                            })}
                        </td>
                    }
                })
                .collect_view();
            view! {
                <tr>
                    <th scope="row">{name}
                        <ul class="rubric">{part.criteria.iter().map(|c| view! { <li class="prose">{c.clone()}</li> }).collect_view()}</ul>
                    </th>
                    {awards}
                    <td class="num"><strong>{part.panel.map_or_else(|| "—".to_owned(), |p| percent(Some(p)))}</strong></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <Title text=title.clone() />
        <section class="panel case-head">
            <h1>{title}</h1>
            <p>
                <TaskBadge task=d.task />
                {d.category.clone().map(|c| view! { <span class="badge">{c}</span> })}
                {match lang {
                    Lang::Zh => format!(" 满分 {} 分 · 评审团取{}", d.max_points, d.aggregation.label(lang)),
                    Lang::En => format!(" max {} points · panel {}", d.max_points, d.aggregation.as_str()),
                }}
                {setting.map(|s| view! { <span class="setting">{s}</span> })}
                " · " <a href=item_url(&d.item_id)>{lang.t("题目页", "the item")}</a>
            </p>
            {(!d.in_run).then(|| view! { <p class="error">{lang.t("本次运行不含该题目。", "This run does not contain the item.")}</p> })}
            {d.unavailable.clone().filter(|_| !d.hidden).map(|u| view! { <p class="flag" data-testid="item-unavailable">{lang.t("不可用，不计入得分：", "Unavailable, left out of the scores: ")} <code class="reason">{u}</code></p> })}
            {d.hidden.then(|| view! { <p class="warning-box" data-testid="under-review">{lang.t("专家盲审期间，评审模型对本题的评分暂不公开。", "The judges' verdicts on this item are kept back while experts review it blind.")}</p> })}
            <p class="dataset-line">{lang.t("题目得分（评审团）", "Item score (panel) ")} <strong data-testid="item-panel">{percent(d.panel.as_ref().map(|p| p.acc))}</strong></p>
        </section>
        <section class="panel">
            <h2>{lang.t("各部分得分", "Scores per rubric part")}</h2>
            <div class="table-scroll" tabindex="0">
                <table class="leaderboard" data-testid="item-awards">
                    <thead>
                        <tr>
                            <th>{lang.t("部分", "Part")}</th>
                            {judges.iter().map(|j| view! { <th class="num">{j.clone()}</th> }).collect_view()}
                            <th class="num">{lang.t("评审团 ×100", "Panel ×100")}</th>
                        </tr>
                    </thead>
                    <tbody>{parts}</tbody>
                </table>
            </div>
            {d.rubric.clone().map(|r| view! { <details><summary>{lang.t("评分细则", "Rubric")}</summary><pre class="rubric-text prose">{r}</pre></details> })}
        </section>
        <section class="panel">
            <h2>
                {lang.t("回答", "Answer")}
                {d.truncated.then(|| view! { <span class="flag" data-testid="truncated">{lang.t("✂ 在 token 上限处被截断（finish_reason = length）", "✂ truncated at the token limit (finish_reason = length)")}</span> })}
            </h2>
            <pre class="prose response" data-testid="response">
                <crate::components::cited::Cited text=d.response.clone().unwrap_or_else(|| lang.t("（未记录回答）", "(no answer recorded)").to_owned()) />
            </pre>
            <details>
                <summary>{lang.t("模型收到的提示词", "Prompt the model got")}</summary>
                <pre class="prose">{d.prompt.clone()}</pre>
            </details>
        </section>
        <section class="panel">
            <h2>{lang.t("评审输出", "Judges' output")}</h2>
            {d.judges
                .iter()
                .map(|j| view! {
                    <details class="judge-output" open=j.unavailable.is_some()>
                        <summary>
                            {j.judge.clone()}
                            {j.vendor.clone().map(|v| view! { <span class="muted">" · " {v}</span> })}
                            " · " {if d.hidden { lang.t("审核中", "under review").to_owned() } else { j.acc.map_or_else(|| lang.t("不可用", "unavailable").to_owned(), |a| percent(Some(a))) }}
                            {j.reported_max.map(|m| view! { <span class="muted">{lang.t(" · 评审自报满分 ", " · the judge's own max ")} {points(m)}</span> })}
                        </summary>
                        {j.unavailable.clone().map(|u| view! { <p class="flag"><code class="reason">{u}</code></p> })}
                        {(!d.hidden).then(|| view! { <pre class="prose">{j.judge_output.clone().unwrap_or_else(|| lang.t("（未保存输出）", "(no output kept)").to_owned())}</pre> })}
                    </details>
                })
                .collect_view()}
        </section>
    }
}
