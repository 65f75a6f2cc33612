//! The drill-downs of the DLawBench leaderboard: the sessions behind one
//! cell (per run the cell's value recomputed from its sessions, and each
//! session with its case, style, status and value; failures and
//! unavailable sessions marked), and one session in full: the fact pairs,
//! the dialogue with the style and turn numbers, the memo, each judge's
//! decisions and rationale (recusal and unavailable seats shown), and the
//! panel's values.

use engine::dlawbench::drilldown::{JudgeDetail, SessionDetail};
use engine::dlawbench::run::Role;
use engine::dlawbench::score::{Metric, Outcome, View};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use super::{
    board_url, case_url, cell_url, domain_text, rate, session_url, CellAt, DlawTabs,
    JurisdictionBadge, StyleBadge,
};
use crate::components::exports::{export_url, ExportLinks};
use crate::components::i18n::Lang;
use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::dlawbench::{dlaw_cell, dlaw_session};
use crate::types::{DlawCellView, DlawSessionView};

#[component]
pub fn DlawCellPage() -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let query = use_query_map();
    let request = move || {
        query.with(|q| {
            let given = |k: &str| q.get(k).filter(|v| !v.is_empty());
            (
                q.get("model").unwrap_or_default(),
                given("setting"),
                q.get("metric")
                    .unwrap_or_else(|| Metric::Resolution.as_str().to_owned()),
                given("scores"),
                (given("jurisdiction"), given("style"), given("domain")),
            )
        })
    };
    let data = Resource::new(
        request,
        |(model, setting, metric, scores, (jurisdiction, style, domain))| {
            dlaw_cell(model, setting, metric, scores, jurisdiction, style, domain)
        },
    );
    view! {
        <Title text=ui.t("DLawBench · 分数背后的会话", "DLawBench · sessions behind a score") />
        <section class="panel">
            <DlawTabs current="leaderboard" />
            <Suspense fallback=Loading>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(cell) => view! { <CellView cell /> }.into_any(),
                        Err(e) => view! { <ErrorBox error=e /> <p><a href="/dlawbench/leaderboard">{ui.t("← 排行榜", "← Leaderboard")}</a></p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

fn level_text(level: &engine::dlawbench::drilldown::Level, ui: Lang) -> String {
    use engine::dlawbench::dataset::Jurisdiction;
    use engine::dlawbench::drilldown::Level;
    match level {
        Level::Overall => ui.t("总体", "overall").to_owned(),
        Level::Jurisdiction { jurisdiction } => jurisdiction.label(ui).to_owned(),
        Level::Style { style } => style.label(ui).to_owned(),
        Level::JurisdictionStyle {
            jurisdiction,
            style,
        } => {
            format!("{} · {}", jurisdiction.label(ui), style.label(ui))
        }
        Level::Domain { domain } => match domain.split_once('/') {
            Some((j, d)) => format!(
                "{} · {}",
                Jurisdiction::parse(j).map_or(j, |j| j.label(ui)),
                domain_text(d, ui)
            ),
            None => domain.clone(),
        },
    }
}

fn outcome_text(outcome: Outcome, ui: Lang) -> &'static str {
    match outcome {
        Outcome::Judged => ui.t("已评", "judged"),
        Outcome::Failure => ui.t("任务失败", "task failure"),
        Outcome::Unavailable => ui.t("不可用", "unavailable"),
    }
}

#[component]
fn CellView(cell: DlawCellView) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let DlawCellView {
        dataset,
        model,
        setting,
        cell,
        citations,
        citation_runs,
    } = cell;
    let citation_scope = match ui {
        Lang::Zh => format!("该条目全部 {citation_runs} 次运行的律师发言与备忘录"),
        Lang::En => {
            format!("the lawyer's turns and memos of this entry, all {citation_runs} runs")
        }
    };
    let title = format!(
        "{model} · {} · {}",
        cell.metric.label(ui),
        level_text(&cell.level, ui)
    );
    let view_note = match cell.view {
        View::NullAsZero => ui.t(
            "失败计零：任务失败记为 0",
            "null-as-zero: task failures count 0",
        ),
        View::ValidOnly => ui.t(
            "仅有效会话：任务失败不计入",
            "valid-only: task failures left out",
        ),
    };
    let here = {
        use engine::dlawbench::drilldown::Level;
        let at = match &cell.level {
            Level::Overall => CellAt::default(),
            Level::Jurisdiction { jurisdiction } => CellAt {
                jurisdiction: Some(*jurisdiction),
                ..CellAt::default()
            },
            Level::Style { style } => CellAt {
                style: Some(*style),
                ..CellAt::default()
            },
            Level::JurisdictionStyle {
                jurisdiction,
                style,
            } => CellAt {
                jurisdiction: Some(*jurisdiction),
                style: Some(*style),
                ..CellAt::default()
            },
            Level::Domain { domain } => CellAt {
                domain: Some(domain.clone()),
                ..CellAt::default()
            },
        };
        cell_url(&model, setting.as_deref(), cell.metric, cell.view, &at)
    };
    let run_label = move |run: u32| match ui {
        Lang::Zh => format!("运行 {run}"),
        Lang::En => format!("Run {run}"),
    };
    view! {
        <h1>{title}</h1>
        <SyntheticNotice synthetic=dataset.synthetic />
        <p class="dataset-line">
            {view_note}
            {ui.t(
                " · 单元格为各次运行的平均；总体与风格单元格为各法域平均值的平均 · ",
                " · the cell is the mean over its runs; overall and style cells are the mean of the jurisdictions' means · ",
            )}
            <a href=board_url(cell.view)>{ui.t("← 排行榜", "← Leaderboard")}</a>
        </p>
        <crate::components::cited::CitationSummary check=citations scope=citation_scope />
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard" data-testid="dlaw-cell-runs">
                <thead><tr><th>{ui.t("运行", "Run")}</th><th class="num">{ui.t("数值", "Value")}</th><th class="num">{ui.t("会话数", "Sessions")}</th></tr></thead>
                <tbody>
                    {cell.runs.iter().map(|r| view! {
                        <tr><td>{run_label(r.run)}</td><td class="num"><strong>{rate(r.value)}</strong></td><td class="num">{r.sessions.len()}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        {(cell.under_style_review > 0).then(|| {
            let n = cell.under_style_review;
            view! {
                <p class="info" data-testid="style-review-left-out">{match ui {
                    Lang::Zh => format!("另有 {n} 个会话正由专家盲评模拟当事人的风格，评审结束前不列出（数值已计入）。"),
                    Lang::En => format!("{n} more session(s) are not listed while experts name their simulated client's style blind (their values are counted)."),
                }}</p>
            }
        })}
        <ExportLinks href=export_url(&here, "runs") lang=ui label=ui.t("导出各次运行的数值：", "Export the value per run: ") testid="export-runs" />
        <ExportLinks href=export_url(&here, "sessions") lang=ui label=ui.t("导出全部会话（每次运行每个会话一行）：", "Export every session (a row per run and session): ") testid="export-sessions" />
        {cell
            .runs
            .iter()
            .map(|r| {
                let run = r.run;
                view! {
                    <h2>{run_label(run)} " · " {rate(r.value)}</h2>
                    <div class="table-scroll" tabindex="0">
                        <table class="items" data-testid="dlaw-cell-sessions">
                            <thead>
                                <tr>
                                    <th>{ui.t("案例", "Case")}</th>
                                    <th>{ui.t("风格", "Style")}</th>
                                    <th>{ui.t("状态", "Status")}</th>
                                    <th>{ui.t("结果", "Outcome")}</th>
                                    <th class="num">{ui.t("数值", "Value")}</th>
                                </tr>
                            </thead>
                            <tbody>
                                {r.sessions
                                    .iter()
                                    .map(|s| {
                                        let href = session_url(&model, setting.as_deref(), run, s.index);
                                        let value = match s.outcome {
                                            Outcome::Unavailable => ui.t("不可用", "unavailable").to_owned(),
                                            _ if s.hidden => ui.t("复核中", "under review").to_owned(),
                                            _ => rate(s.value),
                                        };
                                        view! {
                                            <tr class:failure=s.outcome == Outcome::Failure class:unavailable=s.outcome == Outcome::Unavailable>
                                                <td><JurisdictionBadge jurisdiction=s.jurisdiction /> " " <a href=href class="case-link">{s.case_id.clone()}</a></td>
                                                <td><StyleBadge style=s.style /></td>
                                                <td>{s.status.label(ui)}</td>
                                                <td>{outcome_text(s.outcome, ui)} {s.degraded.then(|| view! { <span class="flag" title=ui.t("某一分项的评分数少于在席评审数", "a component had fewer values than seated judges")>{ui.t("降级", "degraded")}</span> })}</td>
                                                <td class="num"><a href=session_url(&model, setting.as_deref(), run, s.index)>{value}</a></td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
            })
            .collect_view()}
    }
}

#[component]
pub fn DlawSessionPage() -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let query = use_query_map();
    let request = move || {
        query.with(|q| {
            (
                q.get("model").unwrap_or_default(),
                q.get("setting").filter(|s| !s.is_empty()),
                q.get("run").and_then(|r| r.parse().ok()).unwrap_or(1),
                q.get("session").and_then(|s| s.parse().ok()).unwrap_or(0),
            )
        })
    };
    let data = Resource::new(request, |(model, setting, run, index)| {
        dlaw_session(model, setting, run, index)
    });
    view! {
        <Title text=ui.t("DLawBench · 单个会话", "DLawBench · one session") />
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(view) => view! { <SessionView view /> }.into_any(),
                    Err(e) => view! {
                        <section class="panel">
                            <DlawTabs current="leaderboard" />
                            <ErrorBox error=e />
                            <p><a href="/dlawbench/leaderboard">{ui.t("← 排行榜", "← Leaderboard")}</a></p>
                        </section>
                    }
                    .into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn SessionView(view: DlawSessionView) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let DlawSessionView {
        dataset,
        model,
        setting,
        run,
        index: _,
        detail,
        marks,
    } = view;
    crate::components::cited::provide_marks(marks);
    let d: SessionDetail = detail;
    let lang = d.language.as_str();
    let title = d.title.as_ref().and_then(|t| t.as_str()).map(str::to_owned);
    let panel = Metric::ALL
        .into_iter()
        .map(|m| view! { <tr><th scope="row">{m.label(ui)}</th><td class="num">{rate(d.panel.get(&m).copied())}</td></tr> })
        .collect_view();
    view! {
        <Title text=format!("{} · {} · DLawBench", d.case_id, d.style.label(ui)) />
        <section class="panel">
            <DlawTabs current="leaderboard" />
            <h1 lang=lang>{model.clone()} {setting.clone().map(|s| view! { <span class="setting">{s}</span> })}
                {match ui {
                    Lang::Zh => format!(" · 第 {run} 次运行 · "),
                    Lang::En => format!(" · run {run} · "),
                }}
                {d.case_id.clone()}</h1>
            <p class="dataset-line">
                <JurisdictionBadge jurisdiction=d.jurisdiction /> " " <StyleBadge style=d.style /> " "
                {title.map(|t| view! { <span lang=lang>{t}</span> " · " })}
                {domain_text(&d.domain, ui)} " · " {d.status.label(ui)}
                " · " {d.turns_used} " / " {d.horizon} {ui.t(" 轮 · ", " turns · ")} {outcome_text(d.outcome, ui)}
                {d.degraded.then(|| view! { <span class="flag">{ui.t("评审团降级", "degraded panel")}</span> })}
                " · " <a href=case_url(&d.case_id)>{ui.t("案例页", "the case")}</a>
            </p>
            <SyntheticNotice synthetic=dataset.synthetic />
            {d.unavailable.clone().map(|u| view! { <p class="error-box">{ui.t("不可用：", "Unavailable: ")} {u}</p> })}
            {d.error.clone().map(|e| view! { <p class="error-box" data-testid="lawyer-error">{ui.t("律师模型出错：", "Lawyer error: ")} {e}</p> })}
        </section>
        {d.panel_hidden.then(|| view! {
            <section class="panel">
                <p class="info" data-testid="panel-hidden">{ui.t("该会话正在进行专家盲评，评审团结果在复核完成前不予显示。", "This session is open for blind expert review: the panel's decisions are kept back until the review is final.")}</p>
            </section>
        })}
        <section class="panel" hidden=d.panel_hidden>
            <h2>{ui.t("评审团得分", "Panel values")}</h2>
            <div class="two-col">
                <table data-testid="dlaw-panel-values">
                    <tbody>
                        {panel}
                        <tr><th scope="row">{ui.t("条件正确率", "Conditional correctness")}</th><td class="num">{rate(d.conditional_correctness)}</td></tr>
                    </tbody>
                </table>
                <p class="muted">{ui.t("各分项取给出判定的在席评审的中位数（两名评审时取平均）；信息获取与问题解决为评审团各分项的平均。与被测模型同厂商的评审回避。", "Each component is the median of the seated judges that gave decisions (two judges: their mean); Elicitation and Resolution average the panel's components. A judge of the lawyer model's vendor recuses.")}</p>
            </div>
        </section>
        <section class="panel">
            <h2>{ui.t("事实对", "Fact pairs")}</h2>
            <div class="fact-pairs" data-testid="fact-pairs" lang=lang>
                {d.facts
                    .iter()
                    .map(|f| view! {
                        <article class="fact-pair" class:disputed=f.disputed data-fact=f.id.clone()>
                            <header>
                                <strong>{f.id.clone()}</strong> " "
                                <span class=if f.disputed { "badge disputed" } else { "badge undisputed" }>{if f.disputed { ui.t("有争议", "disputed") } else { ui.t("无争议", "undisputed") }}</span>
                            </header>
                            <div class="fact-sides">
                                <div class="belief"><span class="side-label">{ui.t("当事人认识", "Client belief")}</span><p>{f.client_belief.clone()}</p></div>
                                <div class="record"><span class="side-label">{ui.t("法院查明", "Court record")}</span><p>{f.court_record.clone()}</p></div>
                            </div>
                        </article>
                    })
                    .collect_view()}
            </div>
        </section>
        <section class="panel">
            <h2>{ui.t("对话 ", "Dialogue ")}<StyleBadge style=d.style /></h2>
            {if d.dialogue.is_empty() {
                view! { <p class="empty">{ui.t("未保存对话。", "The run kept no dialogue.")}</p> }.into_any()
            } else {
                view! {
                    <ol class="dlaw-dialogue" data-testid="dlaw-dialogue" lang=lang>
                        {d.dialogue
                            .iter()
                            .map(|t| {
                                let lawyer = t.role == Role::Lawyer;
                                view! {
                                    <li class="turn" class:role-lawyer=lawyer class:role-client=!lawyer>
                                        <div class="turn-head">
                                            <span class="turn-no">{match ui {
                                                Lang::Zh => format!("第 {} 轮", t.turn),
                                                Lang::En => format!("Turn {}", t.turn),
                                            }}</span>
                                            <span>{t.role.label(ui)}</span>
                                            {t.action.map(|a| view! { <span class="badge">{a.label(ui)}</span> })}
                                        </div>
                                        <p class="turn-text"><crate::components::cited::Cited text=t.content.clone() /></p>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ol>
                }
                .into_any()
            }}
            <h2>{ui.t("法律备忘录", "Memo")}</h2>
            {match d.memo.clone() {
                Some(m) if !m.trim().is_empty() => view! { <div class="memo" data-testid="dlaw-memo" lang=lang><crate::components::cited::Cited text=m /></div> }.into_any(),
                _ => view! { <p class="empty">{ui.t("无备忘录", "No memo")}</p> }.into_any(),
            }}
        </section>
        <section class="panel" hidden=d.panel_hidden>
            <h2>{ui.t("评审", "Judges")}</h2>
            <div class="judges" data-testid="dlaw-judges">
                {d.judges.iter().cloned().map(|j| view! { <JudgeCard judge=j lang /> }).collect_view()}
            </div>
        </section>
    }
}

#[component]
fn JudgeCard(judge: JudgeDetail, lang: &'static str) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let state = if judge.recused {
        ui.t("回避", "recused")
    } else if judge.unavailable.is_some() {
        ui.t("不可用", "unavailable")
    } else {
        ui.t("在席", "seated")
    };
    let mark = |b: bool| if b { "✓" } else { "✗" };
    let values = judge.values.clone();
    let reasons = judge.facts.iter().any(|f| f.reason.is_some());
    view! {
        <article class="judge-card" class:recused=judge.recused data-testid="dlaw-judge">
            <h3>{judge.judge.clone()} " " <span class="badge">{state}</span></h3>
            {judge.recused.then(|| view! { <p class="muted">{ui.t("与被测模型同厂商：回避，其席位不计。", "Same vendor as the lawyer model: it recuses and its seat is not counted.")}</p> })}
            {judge.unavailable.clone().map(|u| view! { <p class="muted">{u}</p> })}
            {judge.rationale.clone().map(|r| view! { <blockquote class="rationale" lang=lang>{r}</blockquote> })}
            {values.map(|v| view! {
                <p class="judge-values">
                    {Metric::COMPONENTS
                        .into_iter()
                        .map(|m| view! { <span class="judge-value">{m.label(ui)} " " <strong>{rate(v.values.get(&m).copied())}</strong></span> " " })
                        .collect_view()}
                </p>
            })}
            {(!judge.facts.is_empty()).then(|| view! {
                <table class="marks">
                    <thead><tr><th>{ui.t("事实", "Fact")}</th><th>{ui.t("覆盖", "Covered")}</th><th>{ui.t("正确", "Correct")}</th>{reasons.then(|| view! { <th>{ui.t("错误原因", "Why wrong")}</th> })}</tr></thead>
                    <tbody>
                        {judge.facts.iter().map(|f| view! {
                            <tr><td>{f.fact_id.clone()}</td><td>{mark(f.covered)}</td><td>{mark(f.correct)}</td>{reasons.then(|| view! { <td lang=lang>{f.reason.clone().unwrap_or_default()}</td> })}</tr>
                        }).collect_view()}
                    </tbody>
                </table>
            })}
            {(!judge.inquiry.is_empty() || !judge.issue.is_empty()).then(|| view! {
                <ul class="rubric-marks" lang=lang>
                    {judge.inquiry.iter().chain(judge.issue.iter()).map(|r| view! {
                        <li class:hit=r.hit><span class="mark">{mark(r.hit)}</span> " " <strong>{r.id.clone()}</strong> " " {r.text.clone()}</li>
                    }).collect_view()}
                </ul>
            })}
            {judge.decisions.as_ref().map(|dec| view! {
                <p class="muted">{ui.t("有据主张：", "Claims grounded: ")} {dec.claims_grounded} " / " {dec.claims_total}</p>
            })}
        </article>
    }
}
