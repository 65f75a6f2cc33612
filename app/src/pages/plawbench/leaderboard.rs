//! The live PLawBench leaderboard, laid out like the official ranking:
//! Family · Model · Overall · Task2 (avg and its four sections) · Task1 ·
//! Task3 (avg, plaintiff, defendant), ×100 with two decimals, ± the sample
//! std over an entry's runs, the best of each column bold, rows grouped by
//! family or sorted by any column (in the URL). Below it, each entry's
//! evalscope view (subsets with n and acc to four decimals, the per-sample
//! OVERALL) and Task 2 by category with its chart. Every value links to the
//! items behind it.

use engine::plawbench::leaderboard::{format_cell, format_ratio, Column, EvalscopeView, Table};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::{cell_url, percent, PlawTabs};
use crate::components::i18n::Lang;
use crate::components::labels::{BlindNote, ErrorBox, Loading, SyntheticNotice};
use crate::components::live::{use_live_of, LiveBadge};
use crate::pages::leaderboard::sort_state;
use crate::server_fns::plawbench::plaw_leaderboard;
use crate::types::PlawBoard;
use engine::benchmark::Benchmark;

/// The page sorted by column `sort` (none: grouped by family).
pub fn board_url(sort: Option<Column>) -> String {
    match sort {
        Some(c) => format!("/plawbench/leaderboard?sort={}", c.key()),
        None => "/plawbench/leaderboard".to_owned(),
    }
}

#[component]
pub fn PlawLeaderboardPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let query = use_query_map();
    let sort = move || query.with(|q| q.get("sort").and_then(|s| Column::parse(&s)));
    let live = use_live_of(Benchmark::Plawbench.as_str(), &["runs", "reference"]);
    let data = Resource::new(
        move || (sort(), live.changes.get()),
        |(sort, _)| plaw_leaderboard(sort.map(|c| c.key().to_owned())),
    );
    view! {
        <Title text=lang.t("PLawBench 排行榜", "PLawBench leaderboard") />
        <section class="panel">
            <h1>{lang.t("PLawBench 排行榜", "PLawBench leaderboard")} " " <LiveBadge live /></h1>
            <PlawTabs current="leaderboard" />
            <Transition fallback=Loading>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(board) => view! { <Board board sort=sort() /> }.into_any(),
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn Board(board: PlawBoard, sort: Option<Column>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let items: usize = board.items.values().sum();
    view! {
        <SyntheticNotice synthetic=board.dataset.synthetic />
        <BlindNote note=board.blind />
        <p class="dataset-line">
            {match lang {
                Lang::Zh => view! {
                    "数据集 " <strong>{board.dataset.name.clone()}</strong>
                    {format!(" 第 {} 版（{} 道题目）上的得分 · 分数 ×100（同官方排行榜）· 各条目多次运行的均值 ± 样本标准差 · 总分 = (任务一 + 任务二 + 任务三) / 3，仅当条目三项俱全时显示 · 点击数值查看其背后的题目，点击列名排序", board.dataset.version, items)}
                }.into_any(),
                Lang::En => view! {
                    "Scores on " <strong>{board.dataset.name.clone()}</strong> " version " {board.dataset.version}
                    " (" {lang.count(items as u64, "道题目", "item", "items")} ") · scores ×100, as the official ranking · mean ± sample std over each entry's runs · Overall = (Task 1 + Task 2 + Task 3) / 3, shown only when an entry has all three · click a value for the items behind it, a column to sort"
                }.into_any(),
            }}
        </p>
        {if board.table.rows.is_empty() {
            view! { <p class="empty">{lang.t("尚未存储任何 PLawBench 运行：请在上传页上传运行文件或导入 evalscope 输出。", "No PLawBench run has been stored yet: upload a run file or import evalscope output on the upload page.")}</p> }.into_any()
        } else {
            view! {
                <OfficialTable table=board.table.clone() reference=board.reference.clone() sort />
                <Exports sort />
                <EvalscopeViews table=board.table.clone() views=board.evalscope.clone() />
                <Categories board=board.clone() />
            }
            .into_any()
        }}
    }
}

#[component]
fn OfficialTable(
    table: Table,
    reference: Vec<engine::reference::ReferenceLine>,
    sort: Option<Column>,
) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let labels: Vec<String> = table
        .columns
        .iter()
        .map(|c| c.words(lang).to_string())
        .collect();
    let reference = crate::components::reference::reference_rows(
        lang,
        &reference,
        &labels,
        engine::core::columns::Scale::Hundred,
        crate::components::reference::Lead::FamilyModel,
    );
    let mut last_family: Option<Option<String>> = None;
    let rows = table
        .rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let starts_family =
                sort.is_none() && last_family.as_ref() != Some(&row.model_family);
            last_family = Some(row.model_family.clone());
            let cells = table
                .columns
                .iter()
                .zip(&row.cells)
                .enumerate()
                .map(|(c, (column, cell))| match cell {
                    Some(m) => {
                        let href = cell_url(&row.model, row.setting.as_deref(), column.key(), None);
                        view! {
                            <td class="num" class:best=table.is_best(r, c) title=format_cell(m)>
                                <a href=href class="cell-link">{percent(Some(m.mean))}</a>
                                {m.std.map(|s| view! { <span class="std">"±" {format!("{:.2}", s * 100.0)}</span> })}
                            </td>
                        }
                        .into_any()
                    }
                    None => view! { <td class="num muted">"—"</td> }.into_any(),
                })
                .collect_view();
            view! {
                <tr class:family-start=starts_family>
                    <td class="family">{row.model_family.clone().unwrap_or_default()}</td>
                    <td class="model">
                        {row.model.clone()}
                        {row.setting.clone().map(|s| view! { <span class="setting">{s}</span> })}
                        <br />
                        {(row.unavailable > 0).then(|| view! {
                            <span class="flag" data-testid="unavailable-flag"
                                  title=match lang {
                                      Lang::Zh => format!("{} 道题目没有评审能够打分，不计入该条目得分，也不算作 0 分", row.unavailable),
                                      Lang::En => format!("{} no judge could score are left out of this entry's scores, never counted as 0", lang.count(row.unavailable as u64, "", "item", "items")),
                                  }>
                                "⚠ " {row.unavailable} {lang.t(" 道不可用", " unavailable")}
                            </span>
                        })}
                        {(row.truncated > 0).then(|| view! {
                            <span class="flag" title=match lang {
                                Lang::Zh => format!("{} 个回答在 token 上限处被截断（finish_reason = length），按原样评分", row.truncated),
                                Lang::En if row.truncated == 1 => "1 answer was cut at the token limit (finish_reason = length); it is scored as it is".to_owned(),
                                Lang::En => format!("{} answers were cut at the token limit (finish_reason = length); they are scored as they are", row.truncated),
                            }>
                                "✂ " {row.truncated} {lang.t(" 个被截断", " truncated")}
                            </span>
                        })}
                    </td>
                    <td class="num muted">{row.runs}</td>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard plaw" data-testid="plaw-leaderboard">
                <thead>
                    <tr>
                        <th class="family">{lang.t("系列", "Family")}</th>
                        <th>{lang.t("模型", "Model")}</th>
                        <th class="num">{lang.t("运行次数", "Runs")}</th>
                        {table
                            .columns
                            .iter()
                            .map(|column| {
                                let (order, arrow) = sort_state(sort == Some(*column), column.better());
                                view! {
                                    <th class="num" aria-sort=order data-better=column.better().as_str() title=column.label_en()>
                                        <a href=board_url(Some(*column))>{column.words(lang)} {arrow}</a>
                                    </th>
                                }
                            })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>{rows}{reference}</tbody>
            </table>
        </div>
        <p class="legend">
            <span class="best">{lang.t("粗体", "Bold")}</span> {lang.t(" = 该列最佳。", " = best in the column. ")}
            {sort.is_some().then(|| view! { <a href=board_url(None)>{lang.t("按系列分组", "Group by family")}</a> })}
        </p>
    }
}

#[component]
fn Exports(sort: Option<Column>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let link = |view: &'static str, format: &'static str| {
        let sort = sort
            .map(|c| format!("&sort={}", c.key()))
            .unwrap_or_default();
        let href = format!(
            "/api/leaderboard/export?benchmark=plawbench&view={view}&format={format}{sort}"
        );
        view! { <a href=href rel="external" download>{format.to_uppercase()}</a> " " }
    };
    view! {
        <p class="exports">
            {lang.t("导出排行榜：", "Export the ranking: ")} {link("official", "csv")} {link("official", "json")} {link("official", "latex")}
            {lang.t(" · 分类：", " · by category: ")} {link("categories", "csv")} {link("categories", "json")} {link("categories", "latex")}
        </p>
    }
}

#[component]
fn EvalscopeViews(table: Table, views: Vec<EvalscopeView>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let sections = engine::plawbench::dataset::Section::ALL;
    view! {
        <h2>{lang.t("evalscope 报告视图", "As evalscope reports it")}</h2>
        <p class="muted">{lang.t(
            "按 evalscope 的报告方式（灰色为其字段名）：每个子集列出已评分题目数与保留四位小数的得分，多次运行的题目像 evalscope 的重复采样一样合并计算（± 为各次运行之间的标准差）；OVERALL 按 evalscope 的规则，由保留四位小数的子集得分按已评分题目数加权平均后再保留四位小数，因此以案例分析为主。它不是排行榜的总分。",
            "As evalscope reports it (its field names in grey): per subset the scored items and the score to four decimals, the items of every run pooled as evalscope pools its repeats (± the spread over runs); OVERALL as evalscope computes it: the subset scores rounded to four decimals, weighted by their scored items and rounded again, so case analysis dominates it. It is not the ranking's Overall.",
        )}</p>
        {table
            .rows
            .iter()
            .zip(views)
            .map(|(row, view)| {
                let label = row.label();
                view! {
                    <details class="evalscope" data-testid="evalscope-view">
                        <summary>{label} " · " {lang.count(view.runs as u64, "次运行", "run", "runs")}</summary>
                        <div class="table-scroll" tabindex="0">
                            <table>
                                <thead>
                                    <tr>
                                        <th>{lang.t("子集", "Subset")}</th>
                                        <th class="num">{lang.t("已评分", "Scored")} <code class="field-name">"num"</code></th>
                                        <th class="num">{lang.t("得分", "Score")} <code class="field-name">"acc"</code></th>
                                        {sections.map(|s| view! { <th class="num">{s.label(lang)} <code class="field-name">{s.metric()}</code></th> }).collect_view()}
                                        <th class="num">{lang.t("不可用", "Unavailable")}</th>
                                        <th class="num">{lang.t("截断", "Truncated")}</th>
                                    </tr>
                                </thead>
                                <tbody>
                                    {view
                                        .rows
                                        .iter()
                                        .map(|r| {
                                            let ratio = |m: Option<&engine::metrics::MeanStd>| m.map_or_else(|| "—".to_owned(), format_ratio);
                                            view! {
                                                <tr class:overall=r.subset.is_none()>
                                                    <td>
                                                        {r.subset.map_or(lang.t("逐样本总分", "Every scored item"), |t| t.label(lang))}
                                                        " " <code class="field-name">{r.name()}</code>
                                                    </td>
                                                    <td class="num">{r.num}</td>
                                                    <td class="num">{ratio(r.acc.as_ref())}</td>
                                                    {sections
                                                        .map(|s| view! { <td class="num">{ratio(r.sections.get(&s).and_then(Option::as_ref))}</td> })
                                                        .collect_view()}
                                                    <td class="num">{r.unavailable}</td>
                                                    <td class="num">{r.truncated}</td>
                                                </tr>
                                            }
                                        })
                                        .collect_view()}
                                </tbody>
                            </table>
                        </div>
                    </details>
                }
            })
            .collect_view()}
    }
}

#[component]
fn Categories(board: PlawBoard) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let table = board.categories;
    if table.rows.is_empty() {
        return ().into_any();
    }
    view! {
        <h2>{lang.t("任务二（案例分析）分类", "Task 2 by category")}</h2>
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard plaw-categories" data-testid="plaw-categories">
                <thead>
                    <tr>
                        <th>{lang.t("分类", "Category")}</th>
                        {table.entries.iter().map(|e| view! { <th class="num">{e.label()}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {table
                        .rows
                        .iter()
                        .map(|row| {
                            let cells = row
                                .cells
                                .iter()
                                .zip(&table.entries)
                                .map(|(cell, entry)| {
                                    let best = matches!((cell.acc, row.best), (Some(m), Some(b)) if m.mean == b);
                                    let href = cell_url(&entry.model, entry.setting.as_deref(), Column::Task2.key(), Some(&row.category));
                                    match cell.acc {
                                        Some(m) => view! {
                                            <td class="num" class:best=best>
                                                <a href=href class="cell-link">{percent(Some(m.mean))}</a>
                                                <span class="muted">" (n " {cell.n} ")"</span>
                                            </td>
                                        }
                                        .into_any(),
                                        None => view! { <td class="num muted">"—"</td> }.into_any(),
                                    }
                                })
                                .collect_view();
                            view! { <tr><td>{row.category.clone()}</td>{cells}</tr> }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
        <figure class="chart-figure" data-testid="plaw-category-chart" inner_html=board.chart></figure>
    }
    .into_any()
}
