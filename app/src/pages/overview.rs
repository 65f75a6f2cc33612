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
        <Title text=crate::components::i18n::lang().t("概览", "Overview") />
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
    let lang = crate::components::i18n::lang();
    use engine::benchmark::Benchmark;
    view! {
        <section class="benchmarks" aria-label=lang.t("评测基准", "Benchmarks") data-testid="benchmarks">
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
                            <h2><a href=home>{card.benchmark.label(lang)}</a></h2>
                            {match card.dataset {
                                Some(d) => view! {
                                    <p class="muted">
                                        {d.name.clone()} " · " {if what == "items" { lang.count(d.case_count as u64, "道题目", "item", "items") } else { lang.count(d.case_count as u64, "个案例", "case", "cases") }}
                                        " · " {lang.count(card.runs as u64, "次运行", "run", "runs")}
                                        {d.synthetic.then_some(lang.t(" · 演示数据", " · synthetic demo"))}
                                    </p>
                                }
                                .into_any(),
                                None => view! { <p class="muted">{lang.t("尚未导入数据集", "No dataset imported yet")}</p> }.into_any(),
                            }}
                            <p><a href=items>{if what == "items" { lang.t("浏览题目", "Browse the items") } else { lang.t("浏览案例", "Browse the cases") }}</a> " · " <a href=board>{lang.t("查看排名", "See the ranking")}</a></p>
                        </article>
                    }
                })
                .collect_view()}
        </section>
    }
}

#[component]
fn OverviewView(o: Overview) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let s = o.stats.clone();
    let d = o.dataset;
    view! {
        <Benchmarks cards=o.benchmarks />
        <section class="panel">
            <h1>{lang.t("数据集概览", "Dataset overview")}</h1>
            <p class="dataset-line">
                <strong>{d.name.clone()}</strong>
                {match lang {
                    engine::lang::Lang::Zh => format!(" · 第 {} 版 · {} 个案例 · 导入于 {}", d.version, d.case_count, lang.date_time(&d.imported_at)),
                    engine::lang::Lang::En => format!(" · version {} · {} · imported {}", d.version, lang.count(d.case_count as u64, "", "case", "cases"), lang.date_time(&d.imported_at)),
                }}
            </p>
            <SyntheticNotice synthetic=d.synthetic />
            <div class="two-col">
                <StatsTable s=s.clone() />
                <FocalTypes s=s.clone() />
            </div>
        </section>
        <section class="panel">
            <h2>{lang.t("按案件大类", "By class")}</h2>
            <ClassTable s=s.clone() />
        </section>
        <section class="panel">
            <h2>{lang.t("按地域", "By province or region")}</h2>
            <ProvinceTable s />
        </section>
    }
}

/// Cases per province or region of the court, laid out as the paper's
/// Table 9: two (province, count) column pairs, most first down the left
/// pair, then down the right.
#[component]
fn ProvinceTable(s: DatasetStats) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    if s.by_province.is_empty() {
        return view! { <p class="muted">{lang.t("案例均未注明地域。", "No case names its province.")}</p> }
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
        <div class="table-scroll" tabindex="0">
            <table class="stats" data-testid="province-table">
                <caption>{lang.t("各省份或地区的案例数（同论文表 9）", "Cases per province or region (as the paper's Table 9)")}</caption>
                <thead>
                    <tr>
                        <th>{lang.t("地域", "Province / Region")}</th><th class="num">{lang.t("数量", "Count")}</th>
                        <th>{lang.t("地域", "Province / Region")}</th><th class="num">{lang.t("数量", "Count")}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {(s.province_unknown > 0).then(|| view! {
            <p class="muted">{match lang {
                engine::lang::Lang::Zh => format!("{} 个案例未注明省份", s.province_unknown),
                engine::lang::Lang::En => format!("{} name no province", lang.count(s.province_unknown as u64, "", "case", "cases")),
            }}</p>
        })}
    }
    .into_any()
}

#[component]
fn StatsTable(s: DatasetStats) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let claims = s.claims;
    let verdict_row = move |v: Verdict, n: usize| {
        view! {
            <tr>
                <td></td>
                <td>{v.label(lang)}</td>
                <td class="num">{percent(n, claims)} " (" {n} ")"</td>
            </tr>
        }
    };
    view! {
        <table class="stats" data-testid="stats-table">
            <caption>{lang.t("统计（同论文表 1）", "Statistics (as the paper's Table 1)")}</caption>
            <thead>
                <tr><th>{lang.t("类别", "Category")}</th><th>{lang.t("类型", "Type")}</th><th class="num">{lang.t("数值", "Value")}</th></tr>
            </thead>
            <tbody>
                <tr><td>{lang.t("咨询", "Consultations")}</td><td>{lang.t("总数", "Total")}</td><td class="num">{s.consultations_total}</td></tr>
                <tr><td></td><td>{lang.t("信息缺失", "Underspecified")}</td><td class="num">{s.underspecified}</td></tr>
                <tr><td></td><td>{lang.t("完整", "Complete")}</td><td class="num">{s.complete}</td></tr>
                <tr><td>{lang.t("数据集", "Dataset")}</td><td>{lang.t("平均长度（字）", "Avg. length (chars)")}</td><td class="num">{format!("{:.2}", s.avg_chars)}</td></tr>
                <tr><td></td><td>{lang.t("平均轮数", "Avg. turns")}</td><td class="num">{format!("{:.2}", s.avg_turns)}</td></tr>
                <tr><td></td><td>{lang.t("案由", "Causes of action")}</td><td class="num">{s.causes}</td></tr>
                <tr><td></td><td>{lang.t("种子对话", "Seed pairs")}</td><td class="num">{s.seeds}</td></tr>
                <tr><td>{lang.t("原告类型", "Plaintiff type")}</td><td>{lang.t("自然人", "Natural person")}</td><td class="num">{s.natural}</td></tr>
                <tr><td></td><td>{lang.t("非自然人", "Non-natural person")}</td><td class="num">{s.non_natural}</td></tr>
                <tr><td>{lang.t("判决结果", "Verdicts")}</td><td>{lang.t("诉请", "Claims")}</td><td class="num">{s.claims}</td></tr>
                {verdict_row(Verdict::Supported, s.verdicts.supported)}
                {verdict_row(Verdict::PartiallySupported, s.verdicts.partially_supported)}
                {verdict_row(Verdict::Dismissed, s.verdicts.dismissed)}
            </tbody>
        </table>
    }
}

#[component]
fn FocalTypes(s: DatasetStats) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <table class="stats">
            <caption>{lang.t("争议焦点类型", "Focal points by type")}</caption>
            <thead><tr><th>{lang.t("类型", "Type")}</th><th class="num">{lang.t("数量", "Count")}</th></tr></thead>
            <tbody>
                {s.focal_points_by_type
                    .into_iter()
                    .map(|(t, n)| {
                        let href = format!("/cases?focal_point_type={}", t.as_str());
                        view! {
                            <tr>
                                <td><a href=href>{t.label(lang)}</a></td>
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
    let lang = crate::components::i18n::lang();
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="stats wide" data-testid="class-table">
                <thead>
                    <tr>
                        <th>{lang.t("大类", "Class")}</th>
                        <th class="num">{lang.t("案例", "Cases")}</th>
                        <th class="num">{lang.t("案由", "Causes")}</th>
                        <th class="num">{lang.t("平均字数", "Avg. chars")}</th>
                        <th class="num">{lang.t("平均轮数", "Avg. turns")}</th>
                        <th class="num">{lang.t("自然人 / 非自然人", "Natural / non-natural")}</th>
                        <th class="num">{lang.t("诉请", "Claims")}</th>
                        <th class="num">{lang.t("支持 / 部分支持 / 驳回", "Supported / partial / dismissed")}</th>
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
                                    <td><a href=href>{class.label(lang)}</a></td>
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
