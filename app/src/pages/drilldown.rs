//! The drill-down of a leaderboard cell (`/leaderboard/items?model=…&task=…
//! &setup=…&class=…`): per case of the class, what each of the model's runs
//! did, against the gold, marked ✓ / ✗ or unavailable with its reason; for
//! LJP first the 3×3 confusion matrix of gold against predicted verdicts.
//! Rendered in full on the server, so it reads the same without JavaScript.

use engine::core::dialogue::Turn;
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
use crate::components::exports::{export_url, ExportLinks};
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
    let lang = crate::components::i18n::lang();
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
                            <Title text=lang.t("明细", "Drill-down") />
                            <section class="panel">
                                <h1>{lang.t("明细", "Drill-down")}</h1>
                                <ErrorBox error=e />
                                <p><a href="/leaderboard">{lang.t("← 排行榜", "← Leaderboard")}</a></p>
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
fn cell_label(drill: &Drilldown, lang: engine::lang::Lang) -> String {
    let mut parts = vec![drill.task.as_str().to_uppercase()];
    parts.extend(drill.setup.map(|s| s.label(lang).to_owned()));
    parts.push(
        drill
            .class
            .map_or(lang.t("总体", "Overall").to_owned(), |c| {
                c.label(lang).to_owned()
            }),
    );
    parts.join(" · ")
}

#[component]
fn CellItemsView(items: CellItems) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    provide_marks(items.marks);
    let citation_scope = match lang {
        engine::lang::Lang::Zh => {
            format!("该模型已存的全部 {} 次运行，所有任务", items.citation_runs)
        }
        engine::lang::Lang::En => format!(
            "all {} stored runs of this model, every task",
            items.citation_runs
        ),
    };
    let drill = items.drill;
    let label = cell_label(&drill, lang);
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
    let (items_export, runs_export, confusion_export) = (
        export_url(&here, "items"),
        export_url(&here, "runs"),
        export_url(&here, "confusion"),
    );
    let pager = move || view! { <CasePager shown=shown.clone() here=here.clone() /> };
    view! {
        <Title text=format!("{} · {label}", items.model) />
        <section class="panel">
            <p><a href=view_url(&back, None)>{lang.t("← 排行榜", "← Leaderboard")}</a></p>
            <h1>{lang.t("明细：", "Drill-down ")} <a href=model_url(&items.model)>{items.model.clone()}</a></h1>
            <p class="drill-cell" data-testid="drill-cell">
                <strong>{label}</strong>
                " · " {drill.task.label(lang)}
            </p>
            <SyntheticNotice synthetic=items.dataset.synthetic />
            <p class="dataset-line">
                {match lang {
                    engine::lang::Lang::Zh => view! {
                        <strong>{items.dataset.name.clone()}</strong> {format!(" 第 {} 版的 {cases} 个案例 · 每列一次运行，共 {} 次", items.dataset.version, runs.len())}
                    }.into_any(),
                    engine::lang::Lang::En => view! {
                        {lang.count(cases, "", "case", "cases")} " of " <strong>{items.dataset.name.clone()}</strong> " version "
                        {items.dataset.version} " · " {lang.count(runs.len() as u64, "", "run", "runs")} " as columns"
                    }.into_any(),
                }}
            </p>
            {(items.entries > 1)
                .then(|| {
                    view! {
                        <p class="info">
                            {match lang {
                                engine::lang::Lang::Zh => format!("该模型的运行构成 {} 个排行榜条目（评审模型或设置不同），此处全部列出。", items.entries),
                                engine::lang::Lang::En => format!("This model's runs form {} leaderboard entries (different judges or settings); all are shown here.", items.entries),
                            }}
                        </p>
                    }
                })}
            <Tallies tallies=drill.runs.clone() task=drill.task />
            <ExportLinks href=runs_export lang label=lang.t("导出各次运行的计数：", "Export the counts per run: ") testid="export-runs" />
            <ExportLinks href=items_export lang latex=false label=lang.t("导出全部案例的明细：", "Export the items of every case: ") testid="export-items" />
            <CitationSummary check=items.citations scope=citation_scope />
        </section>
        {drill
            .confusion
            .map(|counts| {
                view! {
                    <section class="panel">
                        <h2>{lang.t("混淆矩阵", "Confusion matrix")}</h2>
                        <ConfusionTable counts />
                        <ExportLinks href=confusion_export.clone() lang testid="export-confusion" />
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
fn CasePager(shown: engine::core::paging::Page<()>, here: String) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let pages = shown.pages();
    let first = (shown.page as u64 - 1) * u64::from(shown.per_page) + 1;
    let last = (first + u64::from(shown.per_page) - 1).min(shown.total);
    let link = move |page: u32| format!("{here}&page={page}");
    (pages > 1).then(|| {
        view! {
            <nav class="pager panel" data-testid="case-pager" aria-label=lang.t("案例分页", "Cases")>
                {(shown.page > 1).then(|| view! { <a href=link(shown.page - 1) rel="prev" data-testid="cases-prev">{lang.t("← 上一页", "← Previous")}</a> })}
                <span data-testid="cases-shown">
                    {match lang {
                        engine::lang::Lang::Zh => format!("案例 {first}–{last}，共 {} 个 · 第 {} / {pages} 页", shown.total, shown.page),
                        engine::lang::Lang::En => format!("Cases {first}–{last} of {} · page {} / {pages}", shown.total, shown.page),
                    }}
                </span>
                {(shown.page < pages).then(|| view! { <a href=link(shown.page + 1) rel="next" data-testid="cases-next">{lang.t("下一页 →", "Next →")}</a> })}
            </nav>
        }
    })
}

#[component]
fn Tallies(tallies: Vec<RunTally>, task: Task) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let unit = match task {
        Task::Lca => lang.t("次咨询", "consultations"),
        Task::Dcg => lang.t("个案例", "cases"),
        Task::Ljp => lang.t("项诉请", "claims"),
    };
    view! {
        <ul class="tallies" data-testid="tallies">
            {tallies
                .into_iter()
                .map(|t| {
                    view! {
                        <li>
                            <strong>{run_name(lang, t.run)}</strong> ": "
                            <span class="mark correct">"✓ " {t.correct}</span> " "
                            <span class="mark wrong">"✗ " {t.wrong}</span> " " {unit}
                            {(t.unavailable > 0)
                                .then(|| view! { <span class="mark unavailable">" · ⚠ " {t.unavailable} {lang.t(" 无法标注", " unavailable")}</span> })}
                            {(t.hidden > 0)
                                .then(|| view! { <span class="mark hidden">" · ◌ " {t.hidden} {lang.t(" 审核中", " under review")}</span> })}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

/// The inline style of a heatmap cell: the accent colour at an opacity
/// growing with `count / max`, dark text on the lighter cells and white on
/// the darkest. Dark text keeps 4.5:1 up to an opacity of 0.70 and white
/// from 0.85, so the scale steps over the band between.
fn heat(count: u64, max: u64) -> String {
    let share = if max == 0 {
        0.0
    } else {
        count as f64 / max as f64
    };
    let (ink, opacity) = if share > 0.6 {
        ("color: #fff; ", 0.85 + 0.15 * share)
    } else {
        ("", 0.70 * share / 0.6)
    };
    format!("{ink}background-color: rgba(31, 95, 174, {opacity:.2})")
}

#[component]
fn ConfusionTable(counts: [[u64; 3]; 3]) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let max = counts.iter().flatten().copied().max().unwrap_or(0);
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="confusion" data-testid="confusion-matrix">
                <caption class="legend">
                    {lang.t("行：真实判决；列：预测判决。诉请数为各次运行之和，无法标注的条目不计。", "Rows: gold verdict; columns: predicted. Claims summed over the runs; unavailable items are left out.")}
                </caption>
                <thead>
                    <tr>
                        <th scope="col">{lang.t("真实 ↓ · 预测 →", "Gold ↓ · Predicted →")}</th>
                        {Verdict::ALL
                            .into_iter()
                            .map(|v| view! { <th scope="col" class="num"><VerdictBadge verdict=v /></th> })
                            .collect_view()}
                        <th scope="col" class="num">{lang.t("合计", "Total")}</th>
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
    let href = crate::url::case(&case.case_id);
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
            <div class="table-scroll" tabindex="0">{body}</div>
        </section>
    }
}

/// The column heads shared by the item tables: the given leading heads, then
/// one per run.
fn heads(leading: &[&'static str], runs: &[u32]) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <thead>
            <tr>
                {leading.iter().map(|h| view! { <th scope="col">{*h}</th> }).collect_view()}
                {runs.iter().map(|r| view! { <th scope="col">{run_name(lang, *r)}</th> }).collect_view()}
            </tr>
        </thead>
    }
}

/// ✓, ✗ or ⚠ for an outcome; `with_reason` also spells out why an item is
/// unavailable (where no other cell of the row says it).
fn mark(outcome: &Outcome, with_reason: bool) -> AnyView {
    let lang = crate::components::i18n::lang();
    match outcome {
        Outcome::Correct => {
            view! { <span class="mark correct" title=lang.t("正确", "correct")>"✓"</span> }.into_any()
        }
        Outcome::Wrong => {
            view! { <span class="mark wrong" title=lang.t("错误", "incorrect")>"✗"</span> }.into_any()
        }
        Outcome::Unavailable { reason } => {
            let text = if with_reason {
                format!("{}: {reason}", lang.t("⚠ 无法标注", "⚠ unavailable"))
            } else {
                lang.t("⚠ 无法标注", "⚠ unavailable").to_owned()
            };
            view! { <span class="mark unavailable" title=reason.clone()>{text}</span> }.into_any()
        }
        Outcome::Hidden => view! {
            <span class="mark hidden" title=lang.t("专家盲审中，定稿后显示", "under blind expert review; shown once the item is final") data-testid="hidden-verdict">
                {lang.t("◌ 审核中", "◌ under review")}
            </span>
        }
        .into_any(),
    }
}

fn response(text: Option<String>) -> AnyView {
    let lang = crate::components::i18n::lang();
    match text {
        Some(text) => view! { <p class="response"><Cited text /></p> }.into_any(),
        None => {
            view! { <p class="response muted">{lang.t("（未保存回复）", "(no response kept)")}</p> }
                .into_any()
        }
    }
}

fn missing_item() -> AnyView {
    let lang = crate::components::i18n::lang();
    view! { <td class="run muted">{lang.t("— 无此条目", "— no item")}</td> }.into_any()
}

fn lca_label(label: LcaLabel) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! { <span class="badge lca-label" title=label.as_str()>{label.label(lang)}</span> }
}

/// "Run 2" / "第 2 次运行".
fn run_name(lang: engine::lang::Lang, run: u32) -> String {
    match lang {
        engine::lang::Lang::Zh => format!("第 {run} 次运行"),
        engine::lang::Lang::En => format!("Run {run}"),
    }
}

#[component]
fn LcaTable(consultations: Vec<LcaRow>, runs: Vec<u32>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
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
                        {row.gold.label(lang)}
                        <div class="muted">{lang.t("应为 ", "wants ")} {lca_label(wanted)}</div>
                    </th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="drill-items">
            {heads(&[lang.t("咨询（真实）", "Consultation (gold)")], &runs)}
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
    let lang = crate::components::i18n::lang();
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
                                    Some(true) => lang.t("✓ 采纳", "✓ accepted"),
                                    Some(false) => lang.t("✗ 未采纳", "✗ not accepted"),
                                    None if under_review => "",
                                    None => lang.t("未评判", "not judged"),
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
            {heads(&[lang.t("缺失事实（真实）", "Missing facts (gold)")], &runs)}
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
    let lang = crate::components::i18n::lang();
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
            {heads(&[lang.t("诉请", "Claim"), lang.t("真实判决", "Gold")], &runs)}
            <tbody>
                {rows}
                <tr class="replies">
                    <th scope="row" colspan="2">{lang.t("回复", "Response")}</th>
                    {replies}
                </tr>
            </tbody>
        </table>
    }
}

#[component]
fn Dialogue(turns: Vec<Turn>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <details class="drill-dialogue">
            <summary>{match lang {
                engine::lang::Lang::Zh => format!("对话（{} 轮）", turns.len()),
                engine::lang::Lang::En => format!("Dialogue ({})", lang.count(turns.len() as u64, "", "turn", "turns")),
            }}</summary>
            <ol>
                {turns
                    .into_iter()
                    .map(|t| {
                        view! {
                            <li class=format!("role-{}", t.role.as_str())>
                                <strong>{t.role.label(lang)} ": "</strong>
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
            "color: #fff; background-color: rgba(31, 95, 174, 1.00)"
        );
        assert!(heat(2, 10).ends_with("0.23)"));
        assert!(heat(6, 10).ends_with("0.70)"));
        assert!(heat(7, 10).starts_with("color: #fff; "));
    }
}
