//! The LexPilot paper's results beyond the per-task leaderboard, live over
//! the stored runs: Table 3 with its cross-model rows, Table 4 (Targeted
//! vs Off-target, from the stored experiment results), Table 13 (the
//! user-simulator fidelity study, over the review's labels), Table 15 (user
//! conditions), Tables 16 and 17 (LJP per class), Figure 3 (LCA and DCG per
//! cause against case complexity) and Figure 4 (DCG per focal-point type and
//! class). Tables render on the server, figures are server-drawn SVG, so the
//! page reads the same with JavaScript off; each table exports as CSV, JSON
//! and LaTeX (`/api/leaderboard/export?paper=<name>`).

use engine::lexpilot::fidelity::{Share, StudyView};
use engine::lexpilot::paper::PaperTable;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::components::live::{use_live, LiveBadge};
use crate::pages::model::model_url;
use crate::server_fns::paper::{get_paper, PaperPage};

#[component]
pub fn PaperPageView() -> impl IntoView {
    let live = use_live(&["runs", "cases", "review"]);
    let data = Resource::new(move || live.changes.get(), |_| get_paper());
    view! {
        <Title text="Paper results" />
        <section class="panel paper">
            <h1>"Paper results 论文结果" " " <LiveBadge live /></h1>
            <p class="legend">
                "The LexPilot paper's other tables and figures, recomputed from the stored runs of the entries run under the standard user (Table 15 compares user conditions). "
                <a href="/leaderboard">"Tables 2 and 14 are the leaderboard's views"</a> "; Table 12 is the "
                <a href="/review/agreement">"agreement dashboard"</a> "."
            </p>
            <nav class="tabs" aria-label="Paper results">
                <a href="#table-3">"Table 3"</a> <a href="#table-4">"Table 4"</a> <a href="#table-13">"Table 13"</a> <a href="#table-15">"Table 15"</a> <a href="#table-16">"Table 16"</a>
                <a href="#table-17">"Table 17"</a> <a href="#figure-3">"Figure 3"</a> <a href="#figure-4">"Figure 4"</a>
            </nav>
            <Transition fallback=Loading>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(page) => view! { <PaperBody page /> }.into_any(),
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn PaperBody(page: PaperPage) -> impl IntoView {
    let v = page.views;
    let empty_15 = v.table_15.rows.is_empty();
    let empty_4 = v.table_4.rows.is_empty();
    let unresolved = v.table_4_unresolved.clone();
    view! {
        <SyntheticNotice synthetic=page.dataset.synthetic />
        <p class="dataset-line">
            "On " <strong>{page.dataset.name.clone()}</strong> " version " {page.dataset.version}
            " · mean ± sample std over each entry's runs"
        </p>
        <section id="table-3" data-testid="paper-table-3">
            <h2>"Table 3 · LJP under three setups 三种设置下的判决预测"</h2>
            <p class="legend">"Gain = Interaction-Based − Direct; relative degradation = (Gold − Interaction) / Gold. The last row is the mean of the per-model values (the paper's 0.041 and 23.84%), not a ratio of averages."</p>
            <PaperTableView table=v.table_3 />
        </section>
        <section id="table-4" data-testid="paper-table-4">
            <h2>"Table 4 · Targeted vs Off-target clarification 定向与偏离追问"</h2>
            <p class="legend">"LJP QWK on the underspecified consultations: Direct (the model's own Direct runs) beside prediction after dialogues constructed to recover (Targeted) or avoid (Off-target) the missing facts, each validated by the judge, at most five attempts per case and condition (Appendix E.7). Unresolved cases are excluded from scoring and listed below; accepted, unresolved and attempts are means per run. The construction and validation prompts are the workbench's own, not the paper's."</p>
            {empty_4.then(|| view! {
                <p class="empty" data-testid="table-4-empty">
                    "No Targeted vs Off-target results are stored yet. Run "
                    <code>"lexpilot experiment targeted … --db"</code>
                    " or start the experiment on the jobs page."
                </p>
            })}
            {(!empty_4).then(|| view! { <PaperTableView table=v.table_4 /> })}
            {(!unresolved.is_empty()).then(|| view! {
                <details data-testid="table-4-unresolved">
                    <summary>{format!("Unresolved cases ({})", unresolved.len())}</summary>
                    <ul>
                        {unresolved.into_iter().map(|u| {
                            let runs: Vec<String> = u.runs.iter().map(u32::to_string).collect();
                            view! {
                                <li>
                                    {u.model} " · " {u.condition.label_en()} " · "
                                    <a href=format!("/cases/{}", u.case_id)>{u.case_id.clone()}</a>
                                    " · runs " {runs.join(", ")}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </details>
            })}
        </section>
        <FidelitySection study=page.fidelity />
        <section id="table-15" data-testid="paper-table-15">
            <h2>"Table 15 · Non-ideal users 非理想用户"</h2>
            <p class="legend">"Interaction-Based LJP QWK per model under the standard user, delayed disclosure and self-correction. The DLawBench counterpart, the four client styles, is on "
                <a href="/dlawbench/leaderboard#styles">"its leaderboard"</a> "."</p>
            {empty_15.then(|| view! {
                <p class="empty" data-testid="table-15-empty">
                    "No entry was run under a non-ideal user yet. Run one with "
                    <code>"lexpilot run --user-condition delayed"</code> " (or " <code>"self_correction"</code>
                    "), or choose the user condition on the jobs page."
                </p>
            })}
            {(!empty_15).then(|| view! { <PaperTableView table=v.table_15 /> })}
        </section>
        <section id="table-16" data-testid="paper-table-16">
            <h2>"Table 16 · LJP per class, Gold-Standard 金标准预测"</h2>
            <PaperTableView table=v.table_16 />
        </section>
        <section id="table-17" data-testid="paper-table-17">
            <h2>"Table 17 · LJP per class, Interaction-Based 交互预测"</h2>
            <PaperTableView table=v.table_17 />
        </section>
        <section id="figure-3" data-testid="paper-figure-3">
            <h2>"Figure 3 · Case complexity 案件复杂度"</h2>
            <p class="legend">"One point per cause of action and model: the cause's mean number of provisions its judgments cite against the model's LCA Macro-F1 and DCG accuracy on its cases; a line per model (least squares). The table below gives the association over the causes."</p>
            <div class="figure-pair">
                <figure class="chart-figure" data-testid="figure-3-lca" inner_html=page.figure_3_lca></figure>
                <figure class="chart-figure" data-testid="figure-3-dcg" inner_html=page.figure_3_dcg></figure>
            </div>
            <PaperTableView table=v.figure_3.association />
            <details>
                <summary>"Every point (model × cause)"</summary>
                <PaperTableView table=v.figure_3.points />
            </details>
        </section>
        <section id="figure-4" data-testid="paper-figure-4">
            <h2>"Figure 4 · Focal-point types 争议焦点类型"</h2>
            <p class="legend">"(a) DCG accuracy over the cases whose missing facts bear on a focal point of each type (a case counts under each type it has), with the number of such cases; (b) DCG per class, the mean over models; (c) focal points per type in each class."</p>
            <figure class="chart-figure" data-testid="figure-4a" inner_html=page.figure_4a></figure>
            <PaperTableView table=v.figure_4.by_type />
            <figure class="chart-figure" data-testid="figure-4b" inner_html=page.figure_4b></figure>
            <PaperTableView table=v.figure_4.by_class />
            <figure class="chart-figure" data-testid="figure-4c" inner_html=page.figure_4c></figure>
            <PaperTableView table=v.figure_4.types_per_class />
        </section>
    }
}

/// `k/n (rate)`, or `—` with nothing to count.
fn share_text(s: &Share) -> String {
    match s.rate() {
        Some(r) => format!("{:.1}% ({}/{})", 100.0 * r, s.k, s.n),
        None => "— (0 labelled)".to_owned(),
    }
}

/// Table 13 (Appendix E.3.2–E.3.3): the fidelity study's rates over the
/// labelled replies, the figures the paper gives beside it, and how far the
/// review has come.
#[component]
fn FidelitySection(study: Option<StudyView>) -> impl IntoView {
    let body = match study {
        None => view! {
            <p class="empty" data-testid="table-13-empty">
                "No user-simulator fidelity study on this version yet. Experts write the probes of the sampled cases (two per cause: the A, B, C questions and the D key facts) on "
                <a href="/review/fidelity">"the probes page"</a>
                "; an admin then runs the study from "
                <a href="/admin/runs">"the jobs page"</a>
                " (or "
                <code>"lexpilot experiment fidelity --probes FILE … --db"</code>
                "): every reply becomes a review item that two experts label blind."
            </p>
        }
        .into_any(),
        Some(view) => {
            let s = view.study;
            let diff = match s.b_minus_a {
                Some(d) => format!(
                    "{:+.1} percentage points (95% CI [{:+.1}, {:+.1}], paired case bootstrap over {} cases)",
                    100.0 * d.diff,
                    100.0 * d.ci.0,
                    100.0 * d.ci.1,
                    s.paired_cases
                ),
                None => "— (no case has both A and B labelled yet)".to_owned(),
            };
            let agreement = s
                .agreement
                .iter()
                .map(|a| view! { <li>{format!("{}: {}", a.criterion.label_en(), share_text(&a.agree))}</li> })
                .collect_view();
            view! {
                <p class="dataset-line" data-testid="table-13-progress">
                    {format!(
                        "Simulator {} · DCG judge {} · {} probes · {} of {} replies labelled (final, agreed or adjudicated)",
                        view.user_model,
                        view.judge.unwrap_or_else(|| "—".into()),
                        view.probes,
                        s.labelled,
                        s.replies
                    )}
                    " · " <a href="/review">"label replies 去标注"</a>
                </p>
                <PaperTableView table=s.table />
                <ul class="figures" data-testid="table-13-figures">
                    <li data-testid="table-13-diff">{format!("Indirect − direct answer rate: {diff}")}</li>
                    <li data-testid="table-13-ad">{format!("A sufficient and D appropriately uncertain: {}", share_text(&s.a_d_pairs))}</li>
                    <li data-testid="table-13-failures">{format!("Accepted A/B requests without factual recovery (E.3.3): {}", share_text(&s.accepted_failures))}</li>
                    <li>"Agreement before adjudication:" <ul data-testid="table-13-agreement">{agreement}</ul></li>
                </ul>
            }
            .into_any()
        }
    };
    view! {
        <section id="table-13" data-testid="paper-table-13">
            <h2>"Table 13 · User-simulator fidelity 用户模拟器保真度"</h2>
            <p class="legend">"Expert-authored probes per sampled case: A asks directly for a missing fact, B indirectly, C only names the legal concept, D repeats A with the fact withheld from the simulator. Answer is sufficiency for A/B and appropriate uncertainty for D; OD is over-disclosure beyond the agreed permissions; rates are over the replies with a final label. DCG+ is the main evaluation's DCG judge accepting the question itself (Appendix E.3.3)."</p>
            {body}
        </section>
    }
}

/// One of the paper's tables: the group written once per block, summary rows
/// set apart, and its exports.
#[component]
fn PaperTableView(table: PaperTable) -> impl IntoView {
    let name = table.name.clone();
    let mut last: Option<Option<String>> = None;
    let rows = (0..table.rows.len())
        .map(|r| {
            let row = &table.rows[r];
            let group = if last.as_ref() != Some(&row.group) {
                last = Some(row.group.clone());
                row.group.clone().unwrap_or_default()
            } else {
                String::new()
            };
            let label = match row.entry {
                Some(_) if !row.summary && table.heads.1 == "Model" => {
                    view! { <a href=model_url(&row.label)>{row.label.clone()}</a> }.into_any()
                }
                _ => view! { <span>{row.label.clone()}</span> }.into_any(),
            };
            let cells = (0..table.columns.len())
                .map(|c| view! { <td class="num">{table.text(r, c)}</td> })
                .collect_view();
            view! {
                <tr class:summary-row=row.summary>
                    <td class="muted">{group}</td>
                    <td class="model">{label}</td>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll">
            <table class="leaderboard paper-table" data-testid=format!("paper-{name}")>
                <caption>{table.caption.clone()}</caption>
                <thead>
                    <tr>
                        <th>{table.heads.0.clone()}</th>
                        <th>{table.heads.1.clone()}</th>
                        {table.columns.iter().map(|c| view! { <th class="num">{c.label.clone()}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="exports">
            "Export: "
            {["csv", "json", "latex"]
                .into_iter()
                .map(|format| {
                    let href = format!("/api/leaderboard/export?paper={name}&format={format}");
                    view! { <a href=href rel="external" download>{format.to_uppercase()}</a> " " }
                })
                .collect_view()}
        </p>
    }
}
