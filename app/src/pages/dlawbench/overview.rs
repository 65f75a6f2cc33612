//! The DLawBench dataset page (§A1.2a): per jurisdiction and for all cases
//! the cases, case-style cells, fact pairs, facts per case, disputed share
//! and rubric counts, and the domains with their share of their
//! jurisdiction's cases.

use engine::dlawbench::dataset::GroupStats;
use leptos::prelude::*;
use leptos_meta::Title;

use super::{domain_text, jurisdiction_label, share, DlawTabs};
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
    let d = o.dataset;
    let s = o.stats;
    let mut groups: Vec<(String, Option<&'static str>, GroupStats)> = s
        .by_jurisdiction
        .iter()
        .map(|(j, g)| (jurisdiction_label(*j), Some(j.as_str()), g.clone()))
        .collect();
    groups.push(("All 全部".to_owned(), None, s.all.clone()));
    view! {
        <section class="panel">
            <h1>"DLawBench · 多轮法律咨询"</h1>
            <DlawTabs current="dataset" />
            <p class="dataset-line">
                <strong>{d.name.clone()}</strong>
                " · version " {d.version} " · " {s.all.cases} " cases · " {o.runs} " runs stored · imported " {d.imported_at.clone()}
            </p>
            <SyntheticNotice synthetic=d.synthetic />
            <p class="muted">
                "A lawyer model interviews a simulated client, who believes things the court record later corrects, in one of four narrative styles (cooperative, dependent, withdrawn, adversarial), then submits a memo; a judge panel, with same-vendor judges recused, scores elicitation, resolution and fidelity. "
                "律师模型向模拟当事人提问（当事人的认识可能与法院查明的事实不符），再提交法律备忘录；由评审团按信息获取、问题解决与忠实度打分。"
            </p>
            <div class="table-scroll">
                <table data-testid="dlaw-stats">
                    <thead>
                        <tr>
                            <th>"Jurisdiction 法域"</th>
                            <th class="num">"Cases 案例"</th>
                            <th class="num" title="4 styles × cases">"Cells 案例×风格"</th>
                            <th class="num">"Fact pairs 事实对"</th>
                            <th class="num">"Facts / case"</th>
                            <th class="num" title="mean over cases of disputed ÷ facts">"Disputed share 争议占比"</th>
                            <th class="num">"Inquiry rubrics 追问要点"</th>
                            <th class="num">"Issue rubrics 争点要点"</th>
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
            <h2>"Domains 领域"</h2>
            <div class="table-scroll">
                <table data-testid="dlaw-domains">
                    <thead>
                        <tr>
                            <th>"Jurisdiction 法域"</th>
                            <th>"Domain 领域"</th>
                            <th class="num">"Cases 案例"</th>
                            <th class="num">"Share of jurisdiction 法域内占比"</th>
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
                                        <td>{jurisdiction_label(dom.jurisdiction)}</td>
                                        <td><a href=href>{domain_text(&dom.domain)}</a></td>
                                        <td class="num">{dom.cases}</td>
                                        <td class="num">{share(Some(dom.share))}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
            <p><a href="/dlawbench/leaderboard">"Leaderboard 排行榜 →"</a></p>
        </section>
    }
}
