//! A case's corrections: every revision with its author, reason and dataset
//! version, and what it changed from the revision before, as a diff
//! (character level inside turns: Chinese has no spaces to split words at).

use engine::review::{EditOp, FieldChange, TextEdit};
use engine::vocab::Consultation;
use leptos::prelude::*;

use crate::components::i18n::Lang;
use crate::server_fns::corrections::{get_case_history, RevisionView};

fn consultation_label(c: Consultation) -> &'static str {
    let lang = crate::components::i18n::lang();
    match c {
        Consultation::Complete => lang.t("完整咨询", "complete"),
        Consultation::Underspecified => lang.t("信息缺失咨询", "underspecified"),
    }
}

/// Where a turn is: `第 3 轮` / `, turn 3`.
fn turn_text(lang: Lang, consultation: Consultation, turn: usize) -> String {
    let label = consultation_label(consultation);
    match lang {
        Lang::Zh => format!("{label}第 {} 轮", turn + 1),
        Lang::En => format!("{label}, turn {}", turn + 1),
    }
}

/// A turn's role: the Chinese label, or the wire name in English.
fn role_text(lang: Lang, role: engine::vocab::Role) -> &'static str {
    match lang {
        Lang::Zh => role.label_zh(),
        Lang::En => role.as_str(),
    }
}

fn value_text(v: &Option<serde_json::Value>) -> String {
    match v {
        None => "—".into(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

#[component]
fn Edits(edits: Vec<TextEdit>) -> impl IntoView {
    edits
        .into_iter()
        .map(|e| match e.op {
            EditOp::Equal => view! { <span>{e.text}</span> }.into_any(),
            EditOp::Delete => view! { <del>{e.text}</del> }.into_any(),
            EditOp::Insert => view! { <ins>{e.text}</ins> }.into_any(),
        })
        .collect_view()
}

#[component]
pub fn ChangeView(change: FieldChange) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    match change {
        FieldChange::Field { field, old, new } => view! {
            <li><code>{field}</code> ": " <del>{value_text(&old)}</del> " → " <ins>{value_text(&new)}</ins></li>
        }
        .into_any(),
        FieldChange::Verdict { claim, old, new } => view! {
            <li>{lang.t("诉请判决 ", "Verdict of claim ")} <code>{claim}</code> ": " <del>{old.label(lang)}</del> " → " <ins>{new.label(lang)}</ins></li>
        }
        .into_any(),
        FieldChange::MissingFacts { added, removed } => view! {
            <li>
                {lang.t("缺失事实：", "Missing facts: ")}
                {(!added.is_empty()).then(|| view! { <ins>"+ " {added.join(", ")}</ins> " " })}
                {(!removed.is_empty()).then(|| view! { <del>"− " {removed.join(", ")}</del> })}
            </li>
        }
        .into_any(),
        FieldChange::TurnEdited { consultation, new_turn, edits, .. } => view! {
            <li>
                {turn_text(lang, consultation, new_turn)} {lang.t("：", ": ")}
                <span class="diff-text"><Edits edits /></span>
            </li>
        }
        .into_any(),
        FieldChange::TurnAdded { consultation, turn, role, content } => view! {
            <li>{turn_text(lang, consultation, turn)} {lang.t(" 新增（", " added (")} {role_text(lang, role)} {lang.t("）：", "): ")} <ins>{content}</ins></li>
        }
        .into_any(),
        FieldChange::TurnRemoved { consultation, turn, role, content } => view! {
            <li>{turn_text(lang, consultation, turn)} {lang.t(" 删除（", " removed (")} {role_text(lang, role)} {lang.t("）：", "): ")} <del>{content}</del></li>
        }
        .into_any(),
    }
}

#[component]
fn RevisionItem(revision: RevisionView) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <li class="revision" data-testid="revision">
            <div>
                <strong>{lang.t("修订 ", "Revision ")} {revision.revision}</strong>
                " · " {revision.author.clone().unwrap_or_else(|| lang.t("导入", "imported").into())}
                " · " {lang.date_time(&revision.created_at)}
                {lang.t(" · 数据集版本 ", " · dataset version ")} {revision.dataset_version}
            </div>
            <div class="muted">{lang.t("理由：", "Reason: ")} {revision.reason.clone()}</div>
            {(!revision.changes.is_empty()).then(|| view! {
                <ul class="changes" data-testid="diff">
                    {revision.changes.into_iter().map(|change| view! { <ChangeView change /> }).collect_view()}
                </ul>
            })}
        </li>
    }
}

/// The history panel of a case (nothing when it was never corrected).
#[component]
pub fn CaseHistoryPanel(case_id: String) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let history = Resource::new(move || case_id.clone(), get_case_history);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match history.await {
                    Ok(h) if !h.revisions.is_empty() => view! {
                        <section class="panel" data-testid="case-history">
                            <h2>{lang.t("修订历史", "History")}</h2>
                            <ol class="revisions" reversed>
                                {h.revisions.into_iter().map(|revision| view! { <RevisionItem revision /> }).collect_view()}
                            </ol>
                        </section>
                    }.into_any(),
                    _ => ().into_any(),
                }
            })}
        </Suspense>
    }
}
