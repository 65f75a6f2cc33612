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
    ClassBadge, ErrorBox, FocalTypeBadge, Loading, SyntheticNotice, VerdictBadge,
};
use crate::server_fns::cases::get_case;
use crate::types::CaseDetail;

#[component]
pub fn CasePage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
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
                            <Title text=lang.t("未找到案例", "Case not found") />
                            <ErrorBox error=e />
                            <p><a href="/cases">{lang.t("← 返回列表", "← All cases")}</a></p>
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
    let lang = crate::components::i18n::lang();
    let link = |id: Option<String>, text: &'static str, rel: &'static str| match id {
        Some(id) => {
            view! { <a href=crate::url::case(&id) rel=rel class="button">{text}</a> }.into_any()
        }
        None => view! { <span class="button disabled">{text}</span> }.into_any(),
    };
    view! {
        <nav class="case-nav" aria-label=lang.t("案例导航", "Case navigation")>
            {link(detail.previous.clone(), lang.t("← 上一个", "← Previous"), "prev")}
            <a href="/cases">{lang.t("全部案例", "All cases")}</a>
            <span class="muted">{detail.position} " / " {detail.dataset.case_count}</span>
            {link(detail.next.clone(), lang.t("下一个 →", "Next →"), "next")}
        </nav>
    }
}

#[component]
fn CaseView(detail: CaseDetail) -> impl IntoView {
    let lang = crate::components::i18n::lang();
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
                {case.seed.then(|| view! { <span class="badge seed">{lang.t("种子对话", "seed pair")}</span> })}
            </h1>
            <Metadata case=case.clone() />
        </section>
        <div class="two-col">
            <Claims case=case.clone() />
            <FocalPoints case=case.clone() />
        </div>
        <section class="panel">
            <h2>{lang.t("咨询对话", "Consultations")}</h2>
            <p class="legend">
                <mark class="missing-fact">{lang.t("高亮", "highlighted")}</mark>
                {lang.t(" 完整咨询中陈述缺失关键事实之处。", " = where the complete consultation states a missing key fact (absent from the underspecified one).")}
            </p>
            <DialogueComparison case />
        </section>
        <CaseHistoryPanel case_id=detail.case.case_id.clone() />
        <p class="edit-link"><a href=crate::url::case_edit(&detail.case.case_id) data-testid="correct-case">{lang.t("更正此案例（管理员）", "Correct this case (admins)")}</a></p>
        <CaseNav detail />
    }
}

#[component]
fn Metadata(case: Case) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let profile = case.profile.clone().map(|p| {
        let mut parts: Vec<String> = Vec::new();
        if let Some(age) = p.age {
            parts.push(match lang {
                engine::lang::Lang::Zh => format!("{age}岁"),
                engine::lang::Lang::En => format!("{age} years"),
            });
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
            {row(lang.t("案号", "Case number"), case.case_number.clone())}
            {row(lang.t("省份", "Province"), case.province.clone())}
            {row(lang.t("原告", "Plaintiff"), Some(case.plaintiff_type.label(lang).to_owned()))}
            {row(lang.t("画像", "Profile"), profile)}
            {row(lang.t("引用法条", "Provisions cited"), case.provisions_cited.map(|n| n.to_string()))}
            {row(lang.t("轮数", "Turns"), Some(case.consultations.complete.len().to_string()))}
        </dl>
    }
}

#[component]
fn Claims(case: Case) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <section class="panel">
            <h2>{lang.t("诉请与判决", "Claims and gold verdicts")}</h2>
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
    let lang = crate::components::i18n::lang();
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
            <h2>{lang.t("争议焦点与关键事实", "Focal points and key facts")}</h2>
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
                                                    {is_missing.then(|| view! { <span class="badge missing" data-testid="missing-badge">{lang.t("缺失", "missing")}</span> })}
                                                    {(is_missing && !is_located).then(|| view! { <span class="muted">{lang.t("（未在对话中定位）", " (not located in the dialogue)")}</span> })}
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
