//! The dataset overview: the paper's Table 1 statistics and a per-class breakdown.

use engine::lexpilot::stats::DatasetStats;
use engine::vocab::{Class, Verdict};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::overview::dataset_overview;
use crate::types::{BenchmarkCard, Overview};

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "—".to_owned()
    } else {
        format!("{:.2}%", 100.0 * part as f64 / whole as f64)
    }
}

#[component]
pub fn OverviewPage() -> impl IntoView {
    let data = Resource::new(|| (), |_| dataset_overview());
    view! {
        <Title text="Overview" />
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(o) => view! { <OverviewView o /> }.into_any(),
                    Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The hosted benchmarks, each with its dataset and its pages.
#[component]
fn Benchmarks(cards: Vec<BenchmarkCard>) -> impl IntoView {
    use engine::benchmark::Benchmark;
    view! {
        <section class="benchmarks" aria-label="Benchmarks" data-testid="benchmarks">
            {cards
                .into_iter()
                .map(|card| {
                    let (home, items, board, what) = match card.benchmark {
                        Benchmark::Plawbench => ("/plawbench", "/plawbench/items", "/plawbench/leaderboard", "items"),
                        Benchmark::Dlawbench => ("/dlawbench", "/dlawbench/cases", "/dlawbench/leaderboard", "cases"),
                        _ => ("/", "/cases", "/leaderboard", "cases"),
                    };
                    view! {
                        <article class="panel bench-card">
                            <h2><a href=home>{card.benchmark.label_zh()}</a></h2>
                            {match card.dataset {
                                Some(d) => view! {
                                    <p class="muted">
                                        {d.name.clone()} " · " {d.case_count} " " {what} " · " {card.runs} " runs"
                                        {d.synthetic.then_some(" · synthetic demo 演示数据")}
                                    </p>
                                }
                                .into_any(),
                                None => view! { <p class="muted">"No dataset imported yet 尚未导入数据集"</p> }.into_any(),
                            }}
                            <p><a href=items>{if what == "items" { "Browse the items 浏览题目" } else { "Browse the cases 浏览案例" }}</a> " · " <a href=board>"See the ranking 查看排名"</a></p>
                        </article>
                    }
                })
                .collect_view()}
        </section>
    }
}

#[component]
fn OverviewView(o: Overview) -> impl IntoView {
    let s = o.stats.clone();
    let d = o.dataset;
    view! {
        <Benchmarks cards=o.benchmarks />
        <section class="panel">
            <h1>"Dataset overview 数据集概览"</h1>
            <p class="dataset-line">
                <strong>{d.name.clone()}</strong>
                " · version " {d.version} " · " {d.case_count} " cases · imported " {d.imported_at.clone()}
            </p>
            <SyntheticNotice synthetic=d.synthetic />
            <div class="two-col">
                <StatsTable s=s.clone() />
                <FocalTypes s=s.clone() />
            </div>
        </section>
        <section class="panel">
            <h2>"By class 按案件大类"</h2>
            <ClassTable s=s.clone() />
        </section>
        <section class="panel">
            <h2>"By province or region 按地域"</h2>
            <ProvinceTable s />
        </section>
    }
}

/// Cases per province or region of the court, laid out as the paper's
/// Table 9: two (province, count) column pairs, most first down the left
/// pair, then down the right.
#[component]
fn ProvinceTable(s: DatasetStats) -> impl IntoView {
    if s.by_province.is_empty() {
        return view! { <p class="muted">"No case names its province. 案例均未注明地域。"</p> }
            .into_any();
    }
    let list = s.by_province.clone();
    let half = list.len().div_ceil(2);
    let (left, right) = list.split_at(half);
    let cell = |entry: Option<&(String, usize)>| match entry {
        Some((p, n)) => view! { <td>{p.clone()}</td><td class="num">{*n}</td> }.into_any(),
        None => view! { <td></td><td></td> }.into_any(),
    };
    let rows = (0..half)
        .map(|i| view! { <tr>{cell(left.get(i))}{cell(right.get(i))}</tr> })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table class="stats" data-testid="province-table">
                <caption>"Cases per province or region (as the paper's Table 9) 各地域案例数"</caption>
                <thead>
                    <tr>
                        <th>"Province / Region 地域"</th><th class="num">"Count"</th>
                        <th>"Province / Region 地域"</th><th class="num">"Count"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {(s.province_unknown > 0).then(|| view! {
            <p class="muted">{format!("{} case(s) name no province 个案例未注明地域", s.province_unknown)}</p>
        })}
    }
    .into_any()
}

#[component]
fn StatsTable(s: DatasetStats) -> impl IntoView {
    let claims = s.claims;
    let verdict_row = move |v: Verdict, n: usize| {
        view! {
            <tr>
                <td></td>
                <td>{v.label_zh()} " " {v.label_en()}</td>
                <td class="num">{percent(n, claims)} " (" {n} ")"</td>
            </tr>
        }
    };
    view! {
        <table class="stats" data-testid="stats-table">
            <caption>"Statistics (as the paper's Table 1) 统计"</caption>
            <thead>
                <tr><th>"Category"</th><th>"Type"</th><th class="num">"Value"</th></tr>
            </thead>
            <tbody>
                <tr><td>"Consultations 咨询"</td><td>"Total"</td><td class="num">{s.consultations_total}</td></tr>
                <tr><td></td><td>"Underspecified 信息缺失"</td><td class="num">{s.underspecified}</td></tr>
                <tr><td></td><td>"Complete 完整"</td><td class="num">{s.complete}</td></tr>
                <tr><td>"Dataset"</td><td>"Avg. length (chars) 平均长度"</td><td class="num">{format!("{:.2}", s.avg_chars)}</td></tr>
                <tr><td></td><td>"Avg. turns 平均轮数"</td><td class="num">{format!("{:.2}", s.avg_turns)}</td></tr>
                <tr><td></td><td>"Causes of action 案由"</td><td class="num">{s.causes}</td></tr>
                <tr><td></td><td>"Seed pairs 种子对话"</td><td class="num">{s.seeds}</td></tr>
                <tr><td>"Plaintiff type 原告类型"</td><td>"Natural person 自然人"</td><td class="num">{s.natural}</td></tr>
                <tr><td></td><td>"Non-natural person 非自然人"</td><td class="num">{s.non_natural}</td></tr>
                <tr><td>"Verdicts 判决结果"</td><td>"Claims 诉请"</td><td class="num">{s.claims}</td></tr>
                {verdict_row(Verdict::Supported, s.verdicts.supported)}
                {verdict_row(Verdict::PartiallySupported, s.verdicts.partially_supported)}
                {verdict_row(Verdict::Dismissed, s.verdicts.dismissed)}
            </tbody>
        </table>
    }
}

#[component]
fn FocalTypes(s: DatasetStats) -> impl IntoView {
    view! {
        <table class="stats">
            <caption>"Focal points by type 争议焦点类型"</caption>
            <thead><tr><th>"Type"</th><th class="num">"Count"</th></tr></thead>
            <tbody>
                {s.focal_points_by_type
                    .into_iter()
                    .map(|(t, n)| {
                        let href = format!("/cases?focal_point_type={}", t.as_str());
                        view! {
                            <tr>
                                <td><a href=href>{t.label_zh()} " " {t.label_en()}</a></td>
                                <td class="num">{n}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

#[component]
fn ClassTable(s: DatasetStats) -> impl IntoView {
    view! {
        <div class="table-scroll">
            <table class="stats wide" data-testid="class-table">
                <thead>
                    <tr>
                        <th>"Class 大类"</th>
                        <th class="num">"Cases"</th>
                        <th class="num">"Causes"</th>
                        <th class="num">"Avg. chars"</th>
                        <th class="num">"Avg. turns"</th>
                        <th class="num">"Natural / non-natural"</th>
                        <th class="num">"Claims"</th>
                        <th class="num">"Supported / partial / dismissed"</th>
                    </tr>
                </thead>
                <tbody>
                    {s.by_class
                        .into_iter()
                        .map(|c| {
                            let class: Class = c.class;
                            let href = format!("/cases?class={}", class.as_str());
                            view! {
                                <tr>
                                    <td><a href=href>{class.label_zh()}</a> <span class="muted">" " {class.label_en()}</span></td>
                                    <td class="num">{c.cases}</td>
                                    <td class="num">{c.causes}</td>
                                    <td class="num">{format!("{:.1}", c.avg_chars)}</td>
                                    <td class="num">{format!("{:.2}", c.avg_turns)}</td>
                                    <td class="num">{c.natural} " / " {c.non_natural}</td>
                                    <td class="num">{c.claims}</td>
                                    <td class="num">
                                        {percent(c.verdicts.supported, c.claims)} " / "
                                        {percent(c.verdicts.partially_supported, c.claims)} " / "
                                        {percent(c.verdicts.dismissed, c.claims)}
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}
