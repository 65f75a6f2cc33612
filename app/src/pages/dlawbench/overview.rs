//! The DLawBench dataset page (§A1.2a): per jurisdiction and for all cases
//! the cases, case-style cells, fact pairs, facts per case, disputed share
//! and rubric counts, and the domains with their share of their
//! jurisdiction's cases.

use engine::dlawbench::dataset::GroupStats;
use leptos::prelude::*;
use leptos_meta::Title;

use super::{domain_text, share, DlawTabs};
use crate::components::i18n::Lang;
use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::dlawbench::dlaw_overview;
use crate::types::DlawDatasetView;
use crate::url::encode;

#[component]
pub fn DlawOverviewPage() -> impl IntoView {
    let data = Resource::new(|| (), |_| dlaw_overview());
    view! {
        <Title text="DLawBench" />
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(o) => view! { <DlawOverview o /> }.into_any(),
                    Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn DlawOverview(o: DlawDatasetView) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let d = o.dataset;
    let s = o.stats;
    let mut groups: Vec<(String, Option<&'static str>, GroupStats)> = s
        .by_jurisdiction
        .iter()
        .map(|(j, g)| (j.label(ui).to_owned(), Some(j.as_str()), g.clone()))
        .collect();
    groups.push((ui.t("全部", "All").to_owned(), None, s.all.clone()));
    view! {
        <section class="panel">
            <h1>{ui.t("DLawBench · 多轮法律咨询", "DLawBench · Multi-turn legal consultation")}</h1>
            <DlawTabs current="dataset" />
            <p class="dataset-line">
                <strong>{d.name.clone()}</strong>
                {match ui {
                    Lang::Zh => format!(
                        " · 第 {} 版 · {} · 已存 {} · 导入于 {}",
                        d.version,
                        ui.count(s.all.cases as u64, "个案例", "case", "cases"),
                        ui.count(o.runs.max(0) as u64, "次运行", "run", "runs"),
                        ui.date_time(&d.imported_at)
                    ),
                    Lang::En => format!(
                        " · version {} · {} · {} stored · imported {}",
                        d.version,
                        ui.count(s.all.cases as u64, "个案例", "case", "cases"),
                        ui.count(o.runs.max(0) as u64, "次运行", "run", "runs"),
                        ui.date_time(&d.imported_at)
                    ),
                }}
            </p>
            <SyntheticNotice synthetic=d.synthetic />
            <p class="muted">
                {ui.t(
                    "律师模型以四种叙述风格之一（合作型、依赖型、退缩型、对抗型）向模拟当事人提问（当事人的认识可能与法院查明的事实不符），再提交法律备忘录；由评审团（与被测模型同厂商的评审回避）按信息获取、问题解决与忠实度打分。",
                    "A lawyer model interviews a simulated client, who believes things the court record later corrects, in one of four narrative styles (cooperative, dependent, withdrawn, adversarial), then submits a memo; a judge panel, with same-vendor judges recused, scores elicitation, resolution and fidelity.",
                )}
            </p>
            <div class="table-scroll" tabindex="0">
                <table data-testid="dlaw-stats">
                    <thead>
                        <tr>
                            <th>{ui.t("法域", "Jurisdiction")}</th>
                            <th class="num">{ui.t("案例", "Cases")}</th>
                            <th class="num" title=ui.t("4 种风格 × 案例数", "4 styles × cases")>{ui.t("案例×风格", "Cells")}</th>
                            <th class="num">{ui.t("事实对", "Fact pairs")}</th>
                            <th class="num">{ui.t("每案事实数", "Facts / case")}</th>
                            <th class="num" title=ui.t("各案例有争议事实数 ÷ 事实数的平均", "mean over cases of disputed ÷ facts")>{ui.t("争议占比", "Disputed share")}</th>
                            <th class="num">{ui.t("追问要点", "Inquiry rubrics")}</th>
                            <th class="num">{ui.t("争点要点", "Issue rubrics")}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {groups
                            .into_iter()
                            .map(|(label, key, g)| {
                                let name = match key {
                                    Some(k) => view! { <a href=format!("/dlawbench/cases?jurisdiction={k}")>{label}</a> }.into_any(),
                                    None => view! { <strong>{label}</strong> }.into_any(),
                                };
                                view! {
                                    <tr>
                                        <td>{name}</td>
                                        <td class="num">{g.cases}</td>
                                        <td class="num">{g.cells}</td>
                                        <td class="num">{g.fact_pairs}</td>
                                        <td class="num">{g.facts_per_case.map_or_else(|| "—".to_owned(), |v| format!("{v:.2}"))}</td>
                                        <td class="num">{share(g.disputed_share)}</td>
                                        <td class="num">{g.inquiry_rubrics}</td>
                                        <td class="num">{g.issue_rubrics}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
            <h2>{ui.t("领域", "Domains")}</h2>
            <div class="table-scroll" tabindex="0">
                <table data-testid="dlaw-domains">
                    <thead>
                        <tr>
                            <th>{ui.t("法域", "Jurisdiction")}</th>
                            <th>{ui.t("领域", "Domain")}</th>
                            <th class="num">{ui.t("案例", "Cases")}</th>
                            <th class="num">{ui.t("法域内占比", "Share of jurisdiction")}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {s.domains
                            .iter()
                            .map(|dom| {
                                let href = format!(
                                    "/dlawbench/cases?jurisdiction={}&domain={}",
                                    dom.jurisdiction.as_str(),
                                    encode(&dom.domain)
                                );
                                view! {
                                    <tr>
                                        <td>{dom.jurisdiction.label(ui)}</td>
                                        <td><a href=href>{domain_text(&dom.domain, ui)}</a></td>
                                        <td class="num">{dom.cases}</td>
                                        <td class="num">{share(Some(dom.share))}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
            <p><a href="/dlawbench/leaderboard">{ui.t("排行榜 →", "Leaderboard →")}</a></p>
        </section>
    }
}
