//! One DLawBench case: the opening statement the lawyer hears, each fact
//! pair side by side (what the client believes beside what the court
//! record says; disputed pairs highlighted), and the Inquiry and
//! Issue-resolution rubric lists the judges score against.

use engine::dlawbench::dataset::{Case, FactType, Rubric};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use super::{case_url, domain_text, share, DlawTabs, JurisdictionBadge};
use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::dlawbench::dlaw_case;
use crate::types::DlawCaseView;

#[component]
pub fn DlawCasePage() -> impl IntoView {
    let params = use_params_map();
    let case_id = move || params.read().get("case_id").unwrap_or_default();
    let data = Resource::new(case_id, dlaw_case);
    view! {
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(view) => view! { <CaseView view /> }.into_any(),
                    Err(e) => view! {
                        <Title text="Case not found" />
                        <ErrorBox error=e />
                        <p><a href="/dlawbench/cases">"← All cases 返回列表"</a></p>
                    }
                    .into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn CaseNav(view: DlawCaseView) -> impl IntoView {
    let link = |id: Option<String>, text: &'static str, rel: &'static str| match id {
        Some(id) => view! { <a href=case_url(&id) rel=rel class="button">{text}</a> }.into_any(),
        None => view! { <span class="button disabled">{text}</span> }.into_any(),
    };
    view! {
        <nav class="case-nav" aria-label="Case navigation">
            {link(view.previous.clone(), "← Previous 上一个", "prev")}
            <a href="/dlawbench/cases">"All cases 全部案例"</a>
            <span class="muted">{view.position} " / " {view.dataset.case_count}</span>
            {link(view.next.clone(), "Next 下一个 →", "next")}
        </nav>
    }
}

#[component]
fn CaseView(view: DlawCaseView) -> impl IntoView {
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
                " " {domain_text(&case.domain)} " · " {case.facts.len()} " fact pairs, "
                <span data-testid="disputed-count">{case.disputed()}</span> " disputed (" {share(Some(case.disputed_share()))} ")"
                {source.map(|s| view! { " · " <span class="muted">{s}</span> })}
            </p>
            <SyntheticNotice synthetic=view.dataset.synthetic />
            <h2>"Opening statement 开场陈述"</h2>
            <blockquote class="opening" lang=lang>{case.opening.clone()}</blockquote>
            <p class="muted">"The lawyer sees only the jurisdiction and this opening; the client simulator answers from the client-belief column; the court-record column goes to the judges only. 律师只看到法域与开场陈述；模拟当事人依据“当事人认识”作答；“法院查明”仅供评审。"</p>
        </section>
        <section class="panel">
            <h2>"Fact pairs 事实对"</h2>
            <FactPairs case=case.clone() />
        </section>
        <section class="panel">
            <div class="two-col">
                <RubricList title="Inquiry rubrics 追问要点" testid="inquiry-rubrics" rubrics=case.inquiry_rubrics.clone() lang />
                <RubricList title="Issue-resolution rubrics 争点要点" testid="issue-rubrics" rubrics=case.issue_rubrics.clone() lang />
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
    let lang = case.language.as_str();
    view! {
        <div class="fact-pairs" data-testid="fact-pairs" lang=lang>
            <div class="fact-head" aria-hidden="true">
                <span>"Client belief 当事人认识"</span>
                <span>"Court record 法院查明"</span>
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
                                    {if disputed { "disputed 有争议" } else { "undisputed 无争议" }}
                                </span>
                            </header>
                            <div class="fact-sides">
                                <div class="belief">
                                    <span class="side-label">"Client belief 当事人认识"</span>
                                    <p>{f.client_belief.clone()}</p>
                                </div>
                                <div class="record">
                                    <span class="side-label">"Court record 法院查明"</span>
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
