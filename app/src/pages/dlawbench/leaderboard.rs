//! The live DLawBench leaderboard (§A6): the main table (Elicitation:
//! coverage, inquiry; Resolution: fact and issue resolution; Fidelity),
//! one table per jurisdiction, style sensitivity (the four styles × the
//! three abilities per entry, Δ vs cooperative, a grouped-bar chart per
//! ability), the domain table and the diagnostics (conditional
//! correctness, Pearson r between abilities, the panel's seats and
//! |median − mean|), with Figure 5 (each style's mean over entries) and
//! Table 22 (median vs mean aggregation for every metric). A link switches between null-as-zero (task failures
//! count 0, the headline) and valid-only (failures left out), so it works
//! without JavaScript; every value links to the sessions behind it.

use engine::core::columns::Scale;
use engine::dlawbench::dataset::Style;
use engine::dlawbench::leaderboard::{
    format_cell, AggregationTable, StyleTable, Table, COLUMN_GROUPS, DIAGNOSTIC_COLUMNS,
};
use engine::dlawbench::score::{Metric, View};
use engine::metrics::MeanStd;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::{board_url, cell_url, domain_text, rate, CellAt, DlawTabs};
use crate::components::i18n::Lang;
use crate::components::labels::{BlindNote, ErrorBox, Loading, SyntheticNotice};
use crate::components::live::{use_live_of, LiveBadge};
use crate::pages::leaderboard::lower_is_better;
use crate::server_fns::dlawbench::dlaw_leaderboard;
use crate::types::DlawBoard;
use engine::benchmark::Benchmark;

#[component]
pub fn DlawLeaderboardPage() -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let query = use_query_map();
    let scores = move || {
        query.with(|q| {
            q.get("scores")
                .and_then(|s| View::parse(&s))
                .unwrap_or_default()
        })
    };
    let live = use_live_of(Benchmark::Dlawbench.as_str(), &["runs", "reference"]);
    let data = Resource::new(
        move || (scores(), live.changes.get()),
        |(view, _)| dlaw_leaderboard(Some(view.as_str().to_owned())),
    );
    view! {
        <Title text=ui.t("DLawBench 排行榜", "DLawBench leaderboard") />
        <section class="panel">
            <h1>{ui.t("DLawBench 排行榜", "DLawBench leaderboard")} " " <LiveBadge live /></h1>
            <DlawTabs current="leaderboard" />
            <Transition fallback=Loading>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(board) => view! { <Board board /> }.into_any(),
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

/// The null-as-zero / valid-only switch, as two links.
#[component]
fn ViewToggle(view: View) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let link = |v: View, hint: &'static str| {
        let selected = v == view;
        view! {
            <a href=board_url(v) class="button" class:selected=selected aria-current=selected.then_some("page") title=hint data-testid=format!("view-{}", v.as_str())>
                {v.label(ui)}
            </a>
        }
    };
    view! {
        <nav class="view-toggle" aria-label=ui.t("计分视图", "Scores view")>
            {link(View::NullAsZero, ui.t("任务失败（空备忘录、未提交备忘录、律师模型错误）记为 0：主榜", "task failures (empty memo, no memo, lawyer error) count as 0: the headline"))}
            {link(View::ValidOnly, ui.t("任务失败不计入：诊断用", "task failures are left out: a diagnostic"))}
        </nav>
    }
}

#[component]
fn Board(board: DlawBoard) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let cases: usize = board.cases.values().sum();
    let view = board.view;
    view! {
        <SyntheticNotice synthetic=board.dataset.synthetic />
        <BlindNote note=board.blind />
        <p class="dataset-line">
            {match ui {
                Lang::Zh => view! {
                    "数据集 " <strong>{board.dataset.name.clone()}</strong>
                    {format!(" 第 {} 版（{} 个案例 × 4 种风格）上的得分 · 各条目多次运行的均值 ± 样本标准差 · 总体 = 各法域的平均，仅当一次运行包含全部四种风格时显示 · 按问题解决（失败计零）排名 · 点击数值查看其背后的会话", board.dataset.version, cases)}
                }.into_any(),
                Lang::En => view! {
                    "Scores on " <strong>{board.dataset.name.clone()}</strong> " version " {board.dataset.version}
                    " (" {ui.count(cases as u64, "个案例", "case", "cases")} " × 4 styles) · mean ± sample std over each entry's runs · overall = the mean of the jurisdictions, shown only when a run has all four styles · ranked by Resolution (null-as-zero) · click a value for the sessions behind it"
                }.into_any(),
            }}
        </p>
        <ViewToggle view />
        {if board.main.rows.is_empty() {
            view! { <p class="empty">{ui.t("尚未存储任何 DLawBench 运行：请上传运行文件（POST /api/runs?benchmark=dlawbench）。", "No DLawBench run has been stored yet: upload a run file (POST /api/runs?benchmark=dlawbench).")}</p> }.into_any()
        } else {
            let jurisdictions = board.jurisdictions.clone();
            let mut reference = board.reference.clone().into_iter();
            view! {
                <MainTable table=board.main.clone() reference=reference.next().unwrap_or_default() testid="dlaw-leaderboard" />
                <Exports view />
                {jurisdictions
                    .into_iter()
                    .map(|t| {
                        let j = t.jurisdiction;
                        view! {
                            <h2>{match ui {
                                Lang::Zh => format!("分法域：{}", j.map_or("", |j| j.label(ui))),
                                Lang::En => j.map_or("", |j| j.label(ui)).to_owned(),
                            }}</h2>
                            <MainTable table=t reference=reference.next().unwrap_or_default() testid="dlaw-jurisdiction" />
                        }
                    })
                    .collect_view()}
                <Styles board=board.clone() />
                <Domains board=board.clone() />
                <Diagnostics board=board.clone() />
            }
            .into_any()
        }}
    }
}

/// A value cell linking to its sessions.
fn value_cell(value: Option<MeanStd>, href: String, best: bool) -> AnyView {
    match value {
        Some(m) => view! {
            <td class="num" class:best=best title=format_cell(&m)>
                <a href=href class="cell-link">{rate(Some(m.mean))}</a>
                {m.std.map(|s| view! { <span class="std">"±" {format!("{s:.3}")}</span> })}
            </td>
        }
        .into_any(),
        None => view! { <td class="num muted">"—"</td> }.into_any(),
    }
}

#[component]
fn MainTable(
    table: Table,
    reference: Vec<engine::reference::ReferenceLine>,
    testid: &'static str,
) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let labels: Vec<String> = table
        .columns
        .iter()
        .map(|m| m.label(ui).to_string())
        .collect();
    let reference = crate::components::reference::reference_rows(
        ui,
        &reference,
        &labels,
        engine::core::columns::Scale::Unit,
        crate::components::reference::Lead::RankModel,
    );
    let at = CellAt {
        jurisdiction: table.jurisdiction,
        ..CellAt::default()
    };
    let rows = table
        .rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let cells = table
                .columns
                .iter()
                .zip(&row.cells)
                .enumerate()
                .map(|(c, (metric, cell))| {
                    let href = cell_url(&row.model, row.setting.as_deref(), *metric, table.view, &at);
                    value_cell(*cell, href, table.is_best(r, c))
                })
                .collect_view();
            view! {
                <tr>
                    <td class="num">{row.rank.map(|r| r.to_string()).unwrap_or_else(|| "—".into())}</td>
                    <td class="model">
                        {row.model.clone()}
                        {row.setting.clone().map(|s| view! { <span class="setting">{s}</span> })}
                        {row.family.map(|f| view! { " " <span class="badge family" title=f.label(ui)>{family_short(f, ui)}</span> })}
                        {row.badge.map(|b| view! { <br /><span class="flag" title=b.label(ui)>"⚠ " {b.label(ui)}</span> })}
                    </td>
                    <td class="num muted">{row.runs}</td>
                    <td class="num" title=ui.t("任务失败（失败计零时记为 0，仅有效会话时不计入）/ 不可用会话（两种视图均不计入）/ 降级的评审团", "task failures (counted 0 in null-as-zero, left out in valid-only) / unavailable sessions (left out of both) / degraded panels") data-testid="failure-counts">
                        {row.failures} " / " {row.unavailable} " / " {row.degraded}
                    </td>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard dlaw" data-testid=testid>
                <thead>
                    <tr>
                        <th rowspan="2" class="num">"#"</th>
                        <th rowspan="2">{ui.t("模型", "Model")}</th>
                        <th rowspan="2" class="num">{ui.t("运行次数", "Runs")}</th>
                        <th rowspan="2" class="num" title=ui.t("任务失败 / 不可用 / 降级", "task failures / unavailable / degraded")>{ui.t("失败 / 不可用 / 降级", "Fail / unav. / degr.")}</th>
                        {COLUMN_GROUPS
                            .iter()
                            .map(|(ability, columns)| view! { <th colspan=columns.len().to_string() class="group" scope="colgroup">{ability.label(ui)}</th> })
                            .collect_view()}
                    </tr>
                    <tr>
                        {table
                            .columns
                            .iter()
                            .map(|m| {
                                let derived = m.components().is_some() || *m == Metric::Fidelity;
                                view! { <th class="num" class:derived=derived title=(ui == Lang::Zh).then_some(m.label_en())>{m.label(ui)}</th> }
                            })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>{rows}{reference}</tbody>
            </table>
        </div>
    }
}

#[component]
fn Exports(view: View) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let link = |table: &'static str, format: &'static str| {
        let href = format!(
            "/api/leaderboard/export?benchmark=dlawbench&view={table}&scores={}&format={format}",
            view.as_str()
        );
        view! { <a href=href rel="external" download>{format.to_uppercase()}</a> " " }
    };
    view! {
        <p class="exports">
            {ui.t("导出此表：", "Export the table: ")} {link("main", "csv")} {link("main", "json")} {link("main", "latex")}
            {ui.t(" · 分领域：", " · domains: ")} {link("domains", "csv")} {link("domains", "json")}
            " · " <a href="/api/leaderboard?benchmark=dlawbench" rel="external">{ui.t("评分文档（JSON）", "score document (JSON)")}</a>
        </p>
    }
}

/// Style sensitivity: per ability, each entry's value in the four styles
/// and Δ vs cooperative, then the ability's chart.
#[component]
fn Styles(board: DlawBoard) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let table: StyleTable = board.styles.clone();
    let view = board.view;
    let charts = board.style_charts.clone();
    view! {
        <h2 id="styles">{ui.t("叙述风格敏感性", "Style sensitivity")}</h2>
        <p class="muted">{ui.t("同一案例在四种当事人风格下的得分；Δ 为相对合作型的差值。", "The same cases with the client in each of four narrative styles; Δ is the style's value minus cooperative's, per entry (the mean of its runs' gaps).")}</p>
        <StyleSummary table=table.clone() chart=board.style_summary_chart.clone() />
        <div data-testid="dlaw-styles">
            {Metric::ABILITIES
                .into_iter()
                .map(|ability| {
                    let chart = charts.iter().find(|(m, _)| *m == ability).map(|(_, svg)| svg.clone()).unwrap_or_default();
                    let rows = table
                        .entries
                        .iter()
                        .map(|e| {
                            let setting = board.main.rows.iter().find(|r| r.entry == e.entry).and_then(|r| r.setting.clone());
                            let cells = Style::ALL
                                .into_iter()
                                .map(|s| {
                                    let value = e.styles.get(&s).and_then(|v| v.get(&ability).copied().flatten());
                                    let gap = e.gap.get(&s).and_then(|v| v.get(&ability).copied().flatten());
                                    let href = cell_url(&e.model, setting.as_deref(), ability, view, &CellAt { style: Some(s), ..CellAt::default() });
                                    let cell = value_cell(value, href, false);
                                    let delta = (s != Style::Cooperative).then(|| match gap {
                                        Some(g) => {
                                            let class = if g.mean < 0.0 { "num delta down" } else { "num delta up" };
                                            view! { <td class=class title=format_cell(&g)>{Scale::Unit.difference(g.mean)}</td> }.into_any()
                                        }
                                        None => view! { <td class="num muted">"—"</td> }.into_any(),
                                    });
                                    view! { {cell} {delta} }
                                })
                                .collect_view();
                            view! { <tr><td class="model">{e.model.clone()}</td>{cells}</tr> }
                        })
                        .collect_view();
                    view! {
                        <h3>{ability.label(ui)}</h3>
                        <div class="table-scroll" tabindex="0">
                            <table class="leaderboard dlaw-styles" data-ability=ability.as_str()>
                                <thead>
                                    <tr>
                                        <th>{ui.t("模型", "Model")}</th>
                                        {Style::ALL
                                            .into_iter()
                                            .map(|s| {
                                                let span = if s == Style::Cooperative { "1" } else { "2" };
                                                view! { <th colspan=span class="group" scope="colgroup">{s.label(ui)}</th> }
                                            })
                                            .collect_view()}
                                    </tr>
                                    <tr>
                                        <th></th>
                                        {Style::ALL
                                            .into_iter()
                                            .map(|s| view! {
                                                <th class="num">{ui.t("数值", "Value")}</th>
                                                {(s != Style::Cooperative).then(|| view! { <th class="num">{ui.t("相对合作型 Δ", "Δ vs coop.")}</th> })}
                                            })
                                            .collect_view()}
                                    </tr>
                                </thead>
                                <tbody>{rows}</tbody>
                            </table>
                        </div>
                        <figure class="chart-figure" data-testid="dlaw-style-chart" data-ability=ability.as_str() inner_html=chart></figure>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// Figure 5: each style's effect averaged over the entries, per ability
/// the mean value and the mean Δ vs cooperative, then as bars.
#[component]
fn StyleSummary(table: StyleTable, chart: String) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    if table.summary.is_empty() {
        return ().into_any();
    }
    let r = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| format!("{v:.3}"));
    let rows = Style::ALL
        .into_iter()
        .filter(|s| table.summary.contains_key(s))
        .map(|s| {
            let entries = table
                .entries
                .iter()
                .filter(|e| e.styles.contains_key(&s))
                .count();
            let cells = Metric::ABILITIES
                .into_iter()
                .map(|m| {
                    let value = table
                        .summary
                        .get(&s)
                        .and_then(|v| v.get(&m).copied().flatten());
                    let gap = table
                        .summary_gap
                        .get(&s)
                        .and_then(|v| v.get(&m).copied().flatten());
                    let delta = match gap {
                        Some(g) => {
                            let class = if g < 0.0 {
                                "num delta down"
                            } else {
                                "num delta up"
                            };
                            view! { <td class=class>{Scale::Unit.difference(g)}</td> }.into_any()
                        }
                        None => view! { <td class="num muted">"—"</td> }.into_any(),
                    };
                    view! { <td class="num">{r(value)}</td> {delta} }
                })
                .collect_view();
            view! {
                <tr data-style=s.as_str()>
                    <td style="white-space: nowrap">{s.label(ui)}</td>
                    <td class="num muted">{entries}</td>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <h3 id="figure-5">{ui.t("图 5 · 各风格的影响（条目均值）", "Figure 5 · Each style's effect, mean over entries")}</h3>
        <p class="legend">{ui.t(
            "每种风格下各条目数值的平均（仅计有该值的条目），以及各条目相对合作型 Δ 的平均；对应 DLawBench 论文的图 5。",
            "Per style, the mean of the entries' values (over the entries that have one) and the mean of their Δ vs cooperative: DLawBench's Figure 5.",
        )}</p>
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard dlaw-style-summary" data-testid="dlaw-style-summary">
                <thead>
                    <tr>
                        <th rowspan="2">{ui.t("风格", "Style")}</th>
                        <th rowspan="2" class="num">{ui.t("条目数", "Entries")}</th>
                        {Metric::ABILITIES
                            .into_iter()
                            .map(|m| view! { <th colspan="2" class="group" scope="colgroup">{m.label(ui)}</th> })
                            .collect_view()}
                    </tr>
                    <tr>
                        {Metric::ABILITIES
                            .into_iter()
                            .map(|_| view! {
                                <th class="num">{ui.t("均值", "Mean")}</th>
                                <th class="num">{ui.t("相对合作型 Δ", "Δ vs coop.")}</th>
                            })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <figure class="chart-figure" data-testid="dlaw-style-summary-chart" inner_html=chart></figure>
    }
    .into_any()
}

#[component]
fn Domains(board: DlawBoard) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let table = board.domains.clone();
    if table.rows.is_empty() {
        return ().into_any();
    }
    let view = board.view;
    let settings: Vec<Option<String>> = table
        .entries
        .iter()
        .map(|(i, _)| {
            board
                .main
                .rows
                .iter()
                .find(|r| r.entry == *i)
                .and_then(|r| r.setting.clone())
        })
        .collect();
    view! {
        <h2 id="domains">{ui.t("分领域", "By domain")}</h2>
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard dlaw-domains" data-testid="dlaw-domain-table">
                <thead>
                    <tr>
                        <th rowspan="2">{ui.t("领域", "Domain")}</th>
                        {table.entries.iter().map(|(_, m)| view! { <th colspan="3" class="group" scope="colgroup">{m.clone()}</th> }).collect_view()}
                    </tr>
                    <tr>
                        {table
                            .entries
                            .iter()
                            .map(|_| Metric::ABILITIES.into_iter().map(|m| view! { <th class="num" title=(ui == Lang::Zh).then_some(m.label_en())>{m.label(ui)}</th> }).collect_view())
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {table
                        .rows
                        .iter()
                        .map(|row| {
                            let key = format!("{}/{}", row.jurisdiction.as_str(), row.domain);
                            let cells = row
                                .cells
                                .iter()
                                .zip(&table.entries)
                                .zip(&settings)
                                .map(|((cells, (_, model)), setting)| {
                                    cells
                                        .iter()
                                        .zip(Metric::ABILITIES)
                                        .map(|(cell, m)| {
                                            let href = cell_url(model, setting.as_deref(), m, view, &CellAt { domain: Some(key.clone()), ..CellAt::default() });
                                            value_cell(cell.value, href, false)
                                        })
                                        .collect_view()
                                })
                                .collect_view();
                            view! {
                                <tr>
                                    <td>{row.jurisdiction.label(ui)} " · " {domain_text(&row.domain, ui)}</td>
                                    {cells}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
    .into_any()
}

#[component]
fn Diagnostics(board: DlawBoard) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let d = board.diagnostics.clone();
    let r = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| format!("{v:.3}"));
    let ms = |v: Option<MeanStd>| v.map_or_else(|| "—".to_owned(), |m| format_cell(&m));
    let c = d.correlations;
    view! {
        <h2 id="diagnostics">{ui.t("诊断", "Diagnostics")}</h2>
        <p data-testid="dlaw-correlations">
            {match ui {
                Lang::Zh => view! {
                    {format!("各条目能力之间的 Pearson r（{} 个条目）：", c.entries)}
                    "信息获取–问题解决 " <strong>{r(c.elicitation_resolution)}</strong>
                    " · 信息获取–忠实度 " <strong>{r(c.elicitation_fidelity)}</strong>
                    " · 问题解决–忠实度 " <strong>{r(c.resolution_fidelity)}</strong>
                }.into_any(),
                Lang::En => view! {
                    "Pearson r between entry-level abilities (" {c.entries} " entries): "
                    "Elicitation–Resolution " <strong>{r(c.elicitation_resolution)}</strong>
                    " · Elicitation–Fidelity " <strong>{r(c.elicitation_fidelity)}</strong>
                    " · Resolution–Fidelity " <strong>{r(c.resolution_fidelity)}</strong>
                }.into_any(),
            }}
        </p>
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard" data-testid="dlaw-diagnostics">
                <thead>
                    <tr>
                        <th>{ui.t("模型", "Model")}</th>
                        {DIAGNOSTIC_COLUMNS
                            .into_iter()
                            .map(|(key, better)| {
                                let (name, title): (&str, Option<&str>) = match key {
                                    "conditional_correctness" => (ui.t("条件正确率", "Conditional correctness"), Some(ui.t("|正确| / |覆盖|：备忘录提及的事实中，有多少按法院查明的事实陈述", "|correct| / |covered|: of the facts the memo mentions, how many it states as the court found"))),
                                    "fact_coverage" => (Metric::FactCoverage.label(ui), None),
                                    "fact_resolution" => (Metric::FactResolution.label(ui), None),
                                    "failures" => (ui.t("任务失败", "Task failures"), None),
                                    "unavailable" => (ui.t("不可用", "Unavailable"), None),
                                    "degraded" => (ui.t("降级", "Degraded"), None),
                                    "recused_seats" => (ui.t("回避席位", "Recused seats"), None),
                                    "judge_unavailable_seats" => (ui.t("不可用席位", "Unavailable seats"), None),
                                    _ => (ui.t("|中位数 − 平均| R", "|median − mean| R"), Some(ui.t("三名评审的会话中，问题解决的 |中位数 − 平均| 的均值", "mean |median − mean| of Resolution on three-judge sessions"))),
                                };
                                view! {
                                    <th class="num" title=title data-better=better.as_str()>
                                        {name} {lower_is_better(ui, better)}
                                    </th>
                                }
                            })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {d.rows
                        .iter()
                        .map(|row| {
                            let gap = row.gap(Metric::Resolution).and_then(|g| g.mean_abs);
                            view! {
                                <tr>
                                    <td class="model">{row.model.clone()}</td>
                                    <td class="num">{ms(row.diagnostics.conditional_correctness)}</td>
                                    <td class="num">{ms(row.fact_coverage)}</td>
                                    <td class="num">{ms(row.fact_resolution)}</td>
                                    <td class="num">{row.failures}</td>
                                    <td class="num">{row.unavailable}</td>
                                    <td class="num">{row.degraded}</td>
                                    <td class="num">{row.recused_seats}</td>
                                    <td class="num">{row.judge_unavailable_seats}</td>
                                    <td class="num">{ms(gap)}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
        <AggregationTableView table=board.aggregation.clone() />
        <h3>{ui.t("评审席位", "Panel seats per judge")}</h3>
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard" data-testid="dlaw-judge-seats">
                <thead>
                    <tr>
                        <th>{ui.t("模型", "Model")}</th>
                        <th>{ui.t("评审", "Judge")}</th>
                        <th class="num">{ui.t("已评", "Scored")}</th>
                        <th class="num">{ui.t("回避", "Recused")}</th>
                        <th class="num">{ui.t("不可用", "Unavailable")}</th>
                        <th class="num">{ui.t("事实纠正均值", "Mean Fact Resolution")}</th>
                        <th class="num">{ui.t("争点解决均值", "Mean Issue Resolution")}</th>
                    </tr>
                </thead>
                <tbody>
                    {d.rows
                        .iter()
                        .flat_map(|row| {
                            let model = row.model.clone();
                            row.judges().to_vec().into_iter().enumerate().map(move |(i, j)| {
                                let mean = |m: Metric| j.mean.get(&m).copied().flatten();
                                view! {
                                    <tr class:family-start=i == 0>
                                        <td class="model">{(i == 0).then(|| model.clone())}</td>
                                        <td>{j.judge.clone()}</td>
                                        <td class="num">{j.scored}</td>
                                        <td class="num">{j.recused}</td>
                                        <td class="num">{j.unavailable}</td>
                                        <td class="num">{ms(mean(Metric::FactResolution))}</td>
                                        <td class="num">{ms(mean(Metric::IssueResolution))}</td>
                                    </tr>
                                }
                            })
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// Table 22: per metric, how far the panel's median lies from the mean of
/// three judges, every run pooled.
#[component]
fn AggregationTableView(table: AggregationTable) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let r = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| format!("{v:.3}"));
    let pct = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| format!("{:.1}%", 100.0 * v));
    view! {
        <h3 id="table-22">{ui.t("表 22 · 中位数与平均聚合之差", "Table 22 · Median vs mean aggregation")}</h3>
        <p class="legend">{match ui {
            Lang::Zh => format!(
                "三名评审均给出数值的会话上，评审团所用的中位数与三名评审平均值之差 |中位数 − 平均|，汇总全部 {} 次运行；派生指标由中位数与平均的分项分别求得。",
                table.runs
            ),
            Lang::En => format!(
                "On the sessions where all three judges gave a value, |median − mean|: the panel's median against the three judges' mean, every one of the {} runs pooled; a derived metric is taken from the median and from the mean of its components.",
                table.runs
            ),
        }}</p>
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard dlaw-aggregation" data-testid="dlaw-table-22">
                <thead>
                    <tr>
                        <th>{ui.t("指标", "Metric")}</th>
                        <th class="num">{ui.t("三评审观测数", "Three-judge observations")}</th>
                        <th class="num">{ui.t("|中位数 − 平均| 均值", "Mean |median − mean|")}</th>
                        <th class="num">{ui.t("> 0.05 的比例", "Share > 0.05")}</th>
                    </tr>
                </thead>
                <tbody>
                    {table
                        .rows
                        .iter()
                        .map(|row| {
                            let derived = row.metric.components().is_some();
                            view! {
                                <tr data-metric=row.metric.as_str()>
                                    <td class:derived=derived style="white-space: nowrap">{row.metric.label(ui)}</td>
                                    <td class="num">{row.observations}</td>
                                    <td class="num">{r(row.mean_abs)}</td>
                                    <td class="num">{pct(row.share_over_005)}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// A model group in a word, for the badge beside the model's name (the full
/// name is its tooltip).
fn family_short(family: engine::core::entry::Family, lang: Lang) -> &'static str {
    use engine::core::entry::Family;
    match family {
        Family::Legal => lang.t("法律", "legal"),
        Family::Open => lang.t("开源", "open"),
        Family::Closed => lang.t("闭源", "closed"),
    }
}
