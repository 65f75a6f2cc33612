//! One case: metadata, claims with gold verdicts, focal points with their key
//! facts (missing ones marked), and the two consultations side by side.

use engine::lexpilot::dataset::Case;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::components::cited::{provide_marks, Cited};
use crate::components::dialogue::{missing_quotes, DialogueComparison};
use crate::components::history::CaseHistoryPanel;
use crate::components::labels::{
    plaintiff_label, ClassBadge, ErrorBox, FocalTypeBadge, Loading, SyntheticNotice, VerdictBadge,
};
use crate::server_fns::cases::get_case;
use crate::types::CaseDetail;

#[component]
pub fn CasePage() -> impl IntoView {
    let params = use_params_map();
    let case_id = move || params.read().get("case_id").unwrap_or_default();
    let data = Resource::new(case_id, get_case);
    view! {
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(detail) => view! { <CaseView detail /> }.into_any(),
                    Err(e) => {
                        view! {
                            <Title text="Case not found" />
                            <ErrorBox error=e />
                            <p><a href="/cases">"← All cases 返回列表"</a></p>
                        }
                            .into_any()
                    }
                }
            })}
        </Suspense>
    }
}

#[component]
fn CaseNav(detail: CaseDetail) -> impl IntoView {
    let link = |id: Option<String>, text: &'static str, rel: &'static str| match id {
        Some(id) => {
            view! { <a href=format!("/cases/{id}") rel=rel class="button">{text}</a> }.into_any()
        }
        None => view! { <span class="button disabled">{text}</span> }.into_any(),
    };
    view! {
        <nav class="case-nav" aria-label="Case navigation">
            {link(detail.previous.clone(), "← Previous 上一个", "prev")}
            <a href="/cases">"All cases 全部案例"</a>
            <span class="muted">{detail.position} " / " {detail.dataset.case_count}</span>
            {link(detail.next.clone(), "Next 下一个 →", "next")}
        </nav>
    }
}

#[component]
fn CaseView(detail: CaseDetail) -> impl IntoView {
    provide_marks(detail.marks.clone());
    let case = detail.case.clone();
    view! {
        <Title text=format!("{} {}", case.case_id, case.cause) />
        <CaseNav detail=detail.clone() />
        <SyntheticNotice synthetic=detail.dataset.synthetic />
        <section class="panel case-head">
            <h1>
                <span data-testid="case-id">{case.case_id.clone()}</span>
                " · "
                {case.cause.clone()}
                " "
                <ClassBadge class=case.class />
                {case.seed.then(|| view! { <span class="badge seed">"种子对话 seed pair"</span> })}
            </h1>
            <Metadata case=case.clone() />
        </section>
        <div class="two-col">
            <Claims case=case.clone() />
            <FocalPoints case=case.clone() />
        </div>
        <section class="panel">
            <h2>"Consultations 咨询对话"</h2>
            <p class="legend">
                <mark class="missing-fact">"highlighted 高亮"</mark>
                " = where the complete consultation states a missing key fact (absent from the underspecified one). 完整咨询中陈述缺失关键事实之处。"
            </p>
            <DialogueComparison case />
        </section>
        <CaseHistoryPanel case_id=detail.case.case_id.clone() />
        <p class="edit-link"><a href=format!("/cases/{}/edit", detail.case.case_id) data-testid="correct-case">"Correct this case 更正此案例 (admins 管理员)"</a></p>
        <CaseNav detail />
    }
}

#[component]
fn Metadata(case: Case) -> impl IntoView {
    let profile = case.profile.clone().map(|p| {
        let mut parts: Vec<String> = Vec::new();
        if let Some(age) = p.age {
            parts.push(format!("{age}岁"));
        }
        parts.extend(p.gender.clone());
        parts.extend(p.occupation.clone());
        parts.extend(p.role.clone());
        parts.extend(p.personality.clone());
        parts.join(" · ")
    });
    let row = |k: &'static str, v: Option<String>| {
        v.map(|v| view! { <div class="meta-row"><dt>{k}</dt><dd>{v}</dd></div> })
    };
    view! {
        <dl class="meta">
            {row("Case number 案号", case.case_number.clone())}
            {row("Province 省份", case.province.clone())}
            {row("Plaintiff 原告", Some(plaintiff_label(case.plaintiff_type)))}
            {row("Profile 画像", profile)}
            {row("Provisions cited 引用法条", case.provisions_cited.map(|n| n.to_string()))}
            {row("Turns 轮数", Some(case.consultations.complete.len().to_string()))}
        </dl>
    }
}

#[component]
fn Claims(case: Case) -> impl IntoView {
    view! {
        <section class="panel">
            <h2>"Claims and gold verdicts 诉请与判决"</h2>
            <ol class="claims" data-testid="claims">
                {case
                    .claims
                    .into_iter()
                    .map(|c| {
                        view! {
                            <li>
                                <span class="claim-id">{c.id}</span>
                                " "
                                <Cited text=c.text />
                                " "
                                <VerdictBadge verdict=c.verdict />
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </section>
    }
}

#[component]
fn FocalPoints(case: Case) -> impl IntoView {
    let located: Vec<String> = {
        let quotes = missing_quotes(&case);
        case.consultations
            .complete
            .iter()
            .flat_map(|t| {
                quotes
                    .iter()
                    .filter(|(_, q)| t.content.contains(q.as_str()))
                    .map(|(id, _)| id.clone())
            })
            .collect()
    };
    let missing = case.missing_facts.clone();
    view! {
        <section class="panel">
            <h2>"Focal points and key facts 争议焦点与关键事实"</h2>
            <ul class="focal-points" data-testid="focal-points">
                {case
                    .focal_points
                    .iter()
                    .map(|f| {
                        let facts: Vec<_> = case.key_facts.iter().filter(|k| k.focal_point == f.id).cloned().collect();
                        view! {
                            <li>
                                <div><span class="claim-id">{f.id.clone()}</span> " " <Cited text=f.text.clone() /> " " <FocalTypeBadge point_type=f.r#type /></div>
                                <ul class="key-facts">
                                    {facts
                                        .into_iter()
                                        .map(|k| {
                                            let is_missing = missing.contains(&k.id);
                                            let is_located = located.contains(&k.id);
                                            view! {
                                                <li class:missing=is_missing data-fact=k.id.clone()>
                                                    <span class="claim-id">{k.id.clone()}</span>
                                                    " "
                                                    <Cited text=k.text.clone() />
                                                    {is_missing.then(|| view! { <span class="badge missing" data-testid="missing-badge">"缺失 missing"</span> })}
                                                    {(is_missing && !is_located).then(|| view! { <span class="muted">" (not located in the dialogue 未在对话中定位)"</span> })}
                                                </li>
                                            }
                                        })
                                        .collect_view()}
                                </ul>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}
