//! One DLawBench case: the opening statement the lawyer hears, each fact
//! pair side by side (what the client believes beside what the court
//! record says; disputed pairs highlighted), and the Inquiry and
//! Issue-resolution rubric lists the judges score against.

use engine::dlawbench::dataset::{Case, FactType, Rubric};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use super::{case_url, domain_text, share, DlawTabs, JurisdictionBadge};
use crate::components::i18n::Lang;
use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::dlawbench::dlaw_case;
use crate::types::DlawCaseView;

#[component]
pub fn DlawCasePage() -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let params = use_params_map();
    let case_id = move || params.read().get("case_id").unwrap_or_default();
    let data = Resource::new(case_id, dlaw_case);
    view! {
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(view) => view! { <CaseView view /> }.into_any(),
                    Err(e) => view! {
                        <Title text=ui.t("未找到案例", "Case not found") />
                        <ErrorBox error=e />
                        <p><a href="/dlawbench/cases">{ui.t("← 返回列表", "← All cases")}</a></p>
                    }
                    .into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn CaseNav(view: DlawCaseView) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let link = |id: Option<String>, text: &'static str, rel: &'static str| match id {
        Some(id) => view! { <a href=case_url(&id) rel=rel class="button">{text}</a> }.into_any(),
        None => view! { <span class="button disabled">{text}</span> }.into_any(),
    };
    view! {
        <nav class="case-nav" aria-label=ui.t("案例导航", "Case navigation")>
            {link(view.previous.clone(), ui.t("← 上一个", "← Previous"), "prev")}
            <a href="/dlawbench/cases">{ui.t("全部案例", "All cases")}</a>
            <span class="muted">{view.position} " / " {view.dataset.case_count}</span>
            {link(view.next.clone(), ui.t("下一个 →", "Next →"), "next")}
        </nav>
    }
}

#[component]
fn CaseView(view: DlawCaseView) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let case = view.case.clone();
    let lang = case.language.as_str();
    let title = case.title_text().map(str::to_owned);
    let source = case
        .source
        .as_ref()
        .map(source_text)
        .filter(|s| !s.is_empty());
    view! {
        <Title text=format!("{} · DLawBench", case.case_id) />
        <section class="panel">
            <DlawTabs current="cases" />
            <CaseNav view=view.clone() />
            <h1 lang=lang>{case.case_id.clone()} {title.map(|t| view! { " · " {t} })}</h1>
            <p class="dataset-line">
                <JurisdictionBadge jurisdiction=case.jurisdiction />
                " " {domain_text(&case.domain, ui)} " · "
                {match ui {
                    Lang::Zh => view! {
                        {format!("{} 组事实对，其中 ", case.facts.len())}
                        <span data-testid="disputed-count">{case.disputed()}</span> {format!(" 组有争议（{}）", share(Some(case.disputed_share())))}
                    }.into_any(),
                    Lang::En => view! {
                        {ui.count(case.facts.len() as u64, "组事实对", "fact pair", "fact pairs")} ", "
                        <span data-testid="disputed-count">{case.disputed()}</span> " disputed (" {share(Some(case.disputed_share()))} ")"
                    }.into_any(),
                }}
                {source.map(|s| view! { " · " <span class="muted">{s}</span> })}
            </p>
            <SyntheticNotice synthetic=view.dataset.synthetic />
            <h2>{ui.t("开场陈述", "Opening statement")}</h2>
            <blockquote class="opening" lang=lang>{case.opening.clone()}</blockquote>
            <p class="muted">{ui.t("律师只看到法域与开场陈述；模拟当事人依据“当事人认识”作答；“法院查明”仅供评审。", "The lawyer sees only the jurisdiction and this opening; the client simulator answers from the client-belief column; the court-record column goes to the judges only.")}</p>
        </section>
        <section class="panel">
            <h2>{ui.t("事实对", "Fact pairs")}</h2>
            <FactPairs case=case.clone() />
        </section>
        <section class="panel">
            <div class="two-col">
                <RubricList title=ui.t("追问要点", "Inquiry rubrics") testid="inquiry-rubrics" rubrics=case.inquiry_rubrics.clone() lang />
                <RubricList title=ui.t("争点要点", "Issue-resolution rubrics") testid="issue-rubrics" rubrics=case.issue_rubrics.clone() lang />
            </div>
        </section>
    }
}

/// `{court, year, citation}` as one line.
fn source_text(source: &serde_json::Value) -> String {
    ["court", "year", "citation"]
        .iter()
        .filter_map(|k| match source.get(k)? {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The fact pairs side by side: client belief beside court record.
#[component]
pub fn FactPairs(case: Case) -> impl IntoView {
    let ui = crate::components::i18n::lang();
    let lang = case.language.as_str();
    view! {
        <div class="fact-pairs" data-testid="fact-pairs" lang=lang>
            <div class="fact-head" aria-hidden="true">
                <span>{ui.t("当事人认识", "Client belief")}</span>
                <span>{ui.t("法院查明", "Court record")}</span>
            </div>
            {case
                .facts
                .iter()
                .map(|f| {
                    let disputed = f.fact_type == FactType::Disputed;
                    view! {
                        <article class="fact-pair" class:disputed=disputed data-fact=f.id.clone() data-type=f.fact_type.as_str()>
                            <header>
                                <strong>{f.id.clone()}</strong>
                                " "
                                <span class=if disputed { "badge disputed" } else { "badge undisputed" }>
                                    {if disputed { ui.t("有争议", "disputed") } else { ui.t("无争议", "undisputed") }}
                                </span>
                            </header>
                            <div class="fact-sides">
                                <div class="belief">
                                    <span class="side-label">{ui.t("当事人认识", "Client belief")}</span>
                                    <p>{f.client_belief.clone()}</p>
                                </div>
                                <div class="record">
                                    <span class="side-label">{ui.t("法院查明", "Court record")}</span>
                                    <p>{f.court_record.clone()}</p>
                                </div>
                            </div>
                        </article>
                    }
                })
                .collect_view()}
        </div>
    }
}

#[component]
fn RubricList(
    title: &'static str,
    testid: &'static str,
    rubrics: Vec<Rubric>,
    lang: &'static str,
) -> impl IntoView {
    view! {
        <div>
            <h2>{title}</h2>
            <ol class="rubric-list" data-testid=testid lang=lang>
                {rubrics
                    .into_iter()
                    .map(|r| view! { <li><strong>{r.id}</strong> " " {r.text}</li> })
                    .collect_view()}
            </ol>
        </div>
    }
}
