//! The drill-down of a leaderboard cell (`/leaderboard/items?model=…&task=…
//! &setup=…&class=…`): per case of the class, what each of the model's runs
//! did, against the gold, marked ✓ / ✗ or unavailable with its reason; for
//! LJP first the 3×3 confusion matrix of gold against predicted verdicts.
//! Rendered in full on the server, so it reads the same without JavaScript.

use engine::lexpilot::dataset::Turn;
use engine::lexpilot::drilldown::{
    CaseDrill, CaseItems, Cell, ClaimRow, DcgCell, Drilldown, LcaCell, LcaRow, LjpReply, Outcome,
    RunTally,
};
use engine::lexpilot::leaderboard::View;
use engine::lexpilot::run::Task;
use engine::vocab::{Consultation, LcaLabel, Verdict};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::components::cited::{provide_marks, CitationSummary, Cited};
use crate::components::labels::{ClassBadge, ErrorBox, Loading, SyntheticNotice, VerdictBadge};
use crate::pages::leaderboard::view_url;
use crate::pages::model::model_url;
use crate::server_fns::drilldown::{get_cell_items, CellItems};
use crate::url::encode;

/// The drill-down URL of `cell` in `model`'s row.
pub fn drilldown_url(model: &str, cell: &Cell) -> String {
    let mut url = format!(
        "/leaderboard/items?model={}&task={}",
        encode(model),
        cell.task.as_str()
    );
    if cell.task == Task::Ljp {
        url.push_str(&format!("&setup={}", cell.setup.as_str()));
    }
    url.push_str(&format!(
        "&class={}",
        cell.class.map_or("overall", |c| c.as_str())
    ));
    url
}

#[component]
pub fn DrilldownPage() -> impl IntoView {
    let query = use_query_map();
    let args = move || {
        query.with(|q| {
            (
                q.get("model").unwrap_or_default(),
                q.get("task"),
                q.get("setup"),
                q.get("class"),
                q.get("page").and_then(|p| p.parse::<u32>().ok()),
            )
        })
    };
    let data = Resource::new(args, |(model, task, setup, class, page)| {
        get_cell_items(model, task, setup, class, page)
    });
    view! {
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(items) => view! { <CellItemsView items /> }.into_any(),
                    Err(e) => {
                        view! {
                            <Title text="Drill-down" />
                            <section class="panel">
                                <h1>"Drill-down 明细"</h1>
                                <ErrorBox error=e />
                                <p><a href="/leaderboard">"← Leaderboard 排行榜"</a></p>
                            </section>
                        }
                            .into_any()
                    }
                }
            })}
        </Suspense>
    }
}

/// "LJP · Gold-Standard · Family" for the heading and the title.
fn cell_label(drill: &Drilldown) -> String {
    let mut parts = vec![drill.task.as_str().to_uppercase()];
    parts.extend(drill.setup.map(|s| s.label_en().to_owned()));
    parts.push(
        drill
            .class
            .map_or("Overall".to_owned(), |c| c.label_en().to_owned()),
    );
    parts.join(" · ")
}

#[component]
fn CellItemsView(items: CellItems) -> impl IntoView {
    provide_marks(items.marks);
    let citation_scope = format!(
        "all {} stored runs of this model, every task 该模型全部运行",
        items.citation_runs
    );
    let drill = items.drill;
    let heatmap = items.heatmap;
    let label = cell_label(&drill);
    let back = View {
        task: drill.task,
        setup: drill.setup.unwrap_or(engine::vocab::LjpSetup::Interaction),
        sort: None,
    };
    let runs: Vec<u32> = drill.runs.iter().map(|t| t.run).collect();
    let shown = items.cases_page.clone();
    let cases = shown.total;
    let here = drilldown_url(
        &items.model,
        &Cell {
            task: drill.task,
            setup: drill.setup.unwrap_or(engine::vocab::LjpSetup::Interaction),
            class: drill.class,
        },
    );
    let pager = move || view! { <CasePager shown=shown.clone() here=here.clone() /> };
    view! {
        <Title text=format!("{} · {label}", items.model) />
        <section class="panel">
            <p><a href=view_url(&back, None)>"← Leaderboard 排行榜"</a></p>
            <h1>"Drill-down 明细: " <a href=model_url(&items.model)>{items.model.clone()}</a></h1>
            <p class="drill-cell" data-testid="drill-cell">
                <strong>{label}</strong>
                " · " {drill.task.label_zh()}
                {drill.setup.map(|s| view! { " · " {s.label_zh()} })}
                {drill.class.map(|c| view! { " · " {c.label_zh()} })}
            </p>
            <SyntheticNotice synthetic=items.dataset.synthetic />
            <p class="dataset-line">
                {cases} " cases of " <strong>{items.dataset.name.clone()}</strong> " version "
                {items.dataset.version} " · " {runs.len()} " runs as columns"
            </p>
            {(items.entries > 1)
                .then(|| {
                    view! {
                        <p class="info">
                            "This model's runs form " {items.entries}
                            " leaderboard entries (different judges or settings); all are shown here."
                        </p>
                    }
                })}
            <Tallies tallies=drill.runs.clone() task=drill.task />
            <CitationSummary check=items.citations scope=citation_scope />
        </section>
        {drill
            .confusion
            .map(|counts| {
                view! {
                    <section class="panel">
                        <h2>"Confusion matrix 混淆矩阵"</h2>
                        <div class="confusion-pair">
                            <ConfusionTable counts />
                            <figure class="heatmap-figure" data-testid="confusion-heatmap" inner_html=heatmap.clone()></figure>
                        </div>
                    </section>
                }
            })}
        {pager()}
        {drill
            .cases
            .into_iter()
            .map(|case| view! { <CaseBlock case runs=runs.clone() /> })
            .collect_view()}
        {pager()}
    }
}

/// Which cases the page shows, with links to the pages before and after
/// (plain links: the page works without JavaScript).
#[component]
fn CasePager(shown: engine::browse::Page<()>, here: String) -> impl IntoView {
    let pages = shown.pages();
    let first = (shown.page as u64 - 1) * u64::from(shown.per_page) + 1;
    let last = (first + u64::from(shown.per_page) - 1).min(shown.total);
    let link = move |page: u32| format!("{here}&page={page}");
    (pages > 1).then(|| {
        view! {
            <nav class="pager panel" data-testid="case-pager" aria-label="Cases 案例分页">
                {(shown.page > 1).then(|| view! { <a href=link(shown.page - 1) rel="prev" data-testid="cases-prev">"← Previous 上一页"</a> })}
                <span data-testid="cases-shown">
                    {format!("Cases {first}–{last} of {} · page {} / {pages} 第 {} / {pages} 页", shown.total, shown.page, shown.page)}
                </span>
                {(shown.page < pages).then(|| view! { <a href=link(shown.page + 1) rel="next" data-testid="cases-next">"Next 下一页 →"</a> })}
            </nav>
        }
    })
}

#[component]
fn Tallies(tallies: Vec<RunTally>, task: Task) -> impl IntoView {
    let unit = match task {
        Task::Lca => "consultations",
        Task::Dcg => "cases",
        Task::Ljp => "claims",
    };
    view! {
        <ul class="tallies" data-testid="tallies">
            {tallies
                .into_iter()
                .map(|t| {
                    view! {
                        <li>
                            <strong>{format!("Run {}", t.run)}</strong> ": "
                            <span class="mark correct">"✓ " {t.correct}</span> " "
                            <span class="mark wrong">"✗ " {t.wrong}</span> " " {unit}
                            {(t.unavailable > 0)
                                .then(|| view! { <span class="mark unavailable">" · ⚠ " {t.unavailable} " unavailable"</span> })}
                            {(t.hidden > 0)
                                .then(|| view! { <span class="mark hidden">" · ◌ " {t.hidden} " under review 审核中"</span> })}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

/// The inline style of a heatmap cell: the accent colour at an opacity
/// proportional to `count / max`, with light text on the darkest cells.
fn heat(count: u64, max: u64) -> String {
    let share = if max == 0 {
        0.0
    } else {
        count as f64 / max as f64
    };
    let ink = if share > 0.55 { "color: #fff; " } else { "" };
    format!(
        "{ink}background-color: rgba(31, 95, 174, {:.2})",
        0.85 * share
    )
}

#[component]
fn ConfusionTable(counts: [[u64; 3]; 3]) -> impl IntoView {
    let max = counts.iter().flatten().copied().max().unwrap_or(0);
    view! {
        <div class="table-scroll">
            <table class="confusion" data-testid="confusion-matrix">
                <caption class="legend">
                    "Rows: gold verdict 判决; columns: predicted 预测. Claims summed over the runs; unavailable items are left out."
                </caption>
                <thead>
                    <tr>
                        <th scope="col">"Gold ↓ · Predicted →"</th>
                        {Verdict::ALL
                            .into_iter()
                            .map(|v| view! { <th scope="col" class="num"><VerdictBadge verdict=v /></th> })
                            .collect_view()}
                        <th scope="col" class="num">"Total"</th>
                    </tr>
                </thead>
                <tbody>
                    {Verdict::ALL
                        .into_iter()
                        .zip(counts)
                        .map(|(gold, row)| {
                            view! {
                                <tr>
                                    <th scope="row"><VerdictBadge verdict=gold /></th>
                                    {Verdict::ALL
                                        .into_iter()
                                        .zip(row)
                                        .map(|(predicted, n)| {
                                            view! {
                                                <td class="num heat" class:diagonal=predicted == gold style=heat(n, max)>
                                                    {n}
                                                </td>
                                            }
                                        })
                                        .collect_view()}
                                    <td class="num muted">{row.iter().sum::<u64>()}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn CaseBlock(case: CaseDrill, runs: Vec<u32>) -> impl IntoView {
    let href = format!("/cases/{}", case.case_id);
    let body = match case.items {
        CaseItems::Lca { consultations } => view! { <LcaTable consultations runs /> }.into_any(),
        CaseItems::Dcg {
            missing_facts,
            runs: cells,
        } => view! { <DcgTable missing_facts cells runs /> }.into_any(),
        CaseItems::Ljp { claims, replies } => view! { <LjpTable claims replies runs /> }.into_any(),
    };
    view! {
        <section class="panel drill-case" id=case.case_id.clone()>
            <h2>
                <a href=href class="case-link">{case.case_id.clone()}</a>
                " · "
                {case.cause}
                " "
                <ClassBadge class=case.class />
            </h2>
            <div class="table-scroll">{body}</div>
        </section>
    }
}

/// The column heads shared by the item tables: the given leading heads, then
/// one per run.
fn heads(leading: &[&'static str], runs: &[u32]) -> impl IntoView {
    view! {
        <thead>
            <tr>
                {leading.iter().map(|h| view! { <th scope="col">{*h}</th> }).collect_view()}
                {runs.iter().map(|r| view! { <th scope="col">{format!("Run {r}")}</th> }).collect_view()}
            </tr>
        </thead>
    }
}

/// ✓, ✗ or ⚠ for an outcome; `with_reason` also spells out why an item is
/// unavailable (where no other cell of the row says it).
fn mark(outcome: &Outcome, with_reason: bool) -> AnyView {
    match outcome {
        Outcome::Correct => {
            view! { <span class="mark correct" title="correct 正确">"✓"</span> }.into_any()
        }
        Outcome::Wrong => {
            view! { <span class="mark wrong" title="incorrect 错误">"✗"</span> }.into_any()
        }
        Outcome::Unavailable { reason } => {
            let text = if with_reason {
                format!("⚠ unavailable 无法标注: {reason}")
            } else {
                "⚠ unavailable".to_owned()
            };
            view! { <span class="mark unavailable" title=reason.clone()>{text}</span> }.into_any()
        }
        Outcome::Hidden => view! {
            <span class="mark hidden" title="under blind expert review; shown once the item is final 专家盲审中，定稿后显示" data-testid="hidden-verdict">
                "◌ under review 审核中"
            </span>
        }
        .into_any(),
    }
}

fn response(text: Option<String>) -> AnyView {
    match text {
        Some(text) => view! { <p class="response"><Cited text /></p> }.into_any(),
        None => view! { <p class="response muted">"(no response kept 未保存回复)"</p> }.into_any(),
    }
}

fn missing_item() -> AnyView {
    view! { <td class="run muted">"— no item"</td> }.into_any()
}

fn lca_label(label: LcaLabel) -> impl IntoView {
    view! { <span class="badge lca-label">{label.label_zh()} " " {label.as_str()}</span> }
}

#[component]
fn LcaTable(consultations: Vec<LcaRow>, runs: Vec<u32>) -> impl IntoView {
    let rows = consultations
        .into_iter()
        .map(|row| {
            let wanted = match row.gold {
                Consultation::Complete => LcaLabel::Predict,
                Consultation::Underspecified => LcaLabel::Ask,
            };
            let cells = row
                .runs
                .into_iter()
                .map(|cell| match cell {
                    Some(LcaCell {
                        label,
                        outcome,
                        response: text,
                    }) => view! {
                        <td class="run">
                            {mark(&outcome, true)} " " {label.map(lca_label)}
                            {response(text)}
                        </td>
                    }
                    .into_any(),
                    None => missing_item(),
                })
                .collect_view();
            view! {
                <tr>
                    <th scope="row" class="gold">
                        {row.gold.label_zh()} " " {row.gold.as_str()}
                        <div class="muted">"wants 应为 " {lca_label(wanted)}</div>
                    </th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="drill-items">
            {heads(&["Consultation (gold) 咨询"], &runs)}
            <tbody>{rows}</tbody>
        </table>
    }
}

#[component]
fn DcgTable(
    missing_facts: Vec<String>,
    cells: Vec<Option<DcgCell>>,
    runs: Vec<u32>,
) -> impl IntoView {
    let cells = cells
        .into_iter()
        .map(|cell| match cell {
            Some(DcgCell { requests, outcome }) => {
                let under_review = outcome == Outcome::Hidden;
                view! {
                <td class="run">
                    {mark(&outcome, true)}
                    <ol class="requests">
                        {requests
                            .into_iter()
                            .map(|r| {
                                let accepted = match r.accepted {
                                    Some(true) => "✓ accepted 采纳",
                                    Some(false) => "✗ not accepted 未采纳",
                                    None if under_review => "",
                                    None => "not judged 未评判",
                                };
                                view! {
                                    <li>
                                        <span class="muted">{accepted}</span>
                                        {r.text.map(|text| view! { <p class="response"><Cited text /></p> })}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ol>
                </td>
                }
                .into_any()
            }
            None => missing_item(),
        })
        .collect_view();
    view! {
        <table class="drill-items">
            {heads(&["Missing facts (gold) 缺失事实"], &runs)}
            <tbody>
                <tr>
                    <th scope="row" class="gold">
                        <ul class="missing-facts">
                            {missing_facts.into_iter().map(|f| view! { <li>{f}</li> }).collect_view()}
                        </ul>
                    </th>
                    {cells}
                </tr>
            </tbody>
        </table>
    }
}

#[component]
fn LjpTable(
    claims: Vec<ClaimRow>,
    replies: Vec<Option<LjpReply>>,
    runs: Vec<u32>,
) -> impl IntoView {
    let rows = claims
        .into_iter()
        .map(|row| {
            let cells = row
                .runs
                .into_iter()
                .map(|cell| match cell {
                    Some(cell) => view! {
                        <td class="run">
                            {mark(&cell.outcome, false)} " "
                            {cell.predicted.map(|verdict| view! { <VerdictBadge verdict /> })}
                        </td>
                    }
                    .into_any(),
                    None => missing_item(),
                })
                .collect_view();
            view! {
                <tr>
                    <td class="claim"><span class="claim-id">{row.id}</span> " " <Cited text=row.text /></td>
                    <td class="gold"><VerdictBadge verdict=row.gold /></td>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    let replies = replies
        .into_iter()
        .map(|reply| match reply {
            Some(reply) => view! {
                <td class="run">
                    {reply
                        .unavailable
                        .map(|reason| mark(&Outcome::Unavailable { reason }, true))}
                    {response(reply.response)}
                    {reply.dialogue.filter(|d| !d.is_empty()).map(|turns| view! { <Dialogue turns /> })}
                </td>
            }
            .into_any(),
            None => missing_item(),
        })
        .collect_view();
    view! {
        <table class="drill-items">
            {heads(&["Claim 诉请", "Gold 判决"], &runs)}
            <tbody>
                {rows}
                <tr class="replies">
                    <th scope="row" colspan="2">"Response 回复"</th>
                    {replies}
                </tr>
            </tbody>
        </table>
    }
}

#[component]
fn Dialogue(turns: Vec<Turn>) -> impl IntoView {
    view! {
        <details class="drill-dialogue">
            <summary>"Dialogue 对话 (" {turns.len()} " turns)"</summary>
            <ol>
                {turns
                    .into_iter()
                    .map(|t| {
                        view! {
                            <li class=format!("role-{}", t.role.as_str())>
                                <strong>{t.role.label_zh()} ": "</strong>
                                <Cited text=t.content />
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::vocab::{Class, LjpSetup};

    #[test]
    fn urls_encode_the_model_and_name_the_cell() {
        let cell = Cell {
            task: Task::Ljp,
            setup: LjpSetup::Gold,
            class: Some(Class::Family),
        };
        assert_eq!(
            drilldown_url("Sim-Frontier-2 (simulated)", &cell),
            "/leaderboard/items?model=Sim-Frontier-2%20%28simulated%29&task=ljp&setup=gold&class=family"
        );
        let lca = Cell {
            task: Task::Lca,
            class: None,
            ..cell
        };
        assert_eq!(
            drilldown_url("模型", &lca),
            "/leaderboard/items?model=%E6%A8%A1%E5%9E%8B&task=lca&class=overall"
        );
    }

    #[test]
    fn heat_grows_with_the_count() {
        assert_eq!(heat(0, 0), "background-color: rgba(31, 95, 174, 0.00)");
        assert_eq!(
            heat(10, 10),
            "color: #fff; background-color: rgba(31, 95, 174, 0.85)"
        );
        assert!(heat(2, 10).ends_with("0.17)"));
    }
}
