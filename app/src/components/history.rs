//! A case's corrections: every revision with its author, reason and dataset
//! version, and what it changed from the revision before, as a diff
//! (character level inside turns: Chinese has no spaces to split words at).

use engine::review::{EditOp, FieldChange, TextEdit};
use engine::vocab::Consultation;
use leptos::prelude::*;

use crate::server_fns::corrections::{get_case_history, RevisionView};

fn consultation_label(c: Consultation) -> &'static str {
    match c {
        Consultation::Complete => "complete 完整咨询",
        Consultation::Underspecified => "underspecified 不完整咨询",
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
    match change {
        FieldChange::Field { field, old, new } => view! {
            <li><code>{field}</code> ": " <del>{value_text(&old)}</del> " → " <ins>{value_text(&new)}</ins></li>
        }
        .into_any(),
        FieldChange::Verdict { claim, old, new } => view! {
            <li>"Verdict of claim 诉请判决 " <code>{claim}</code> ": " <del>{old.label_zh()}</del> " → " <ins>{new.label_zh()}</ins></li>
        }
        .into_any(),
        FieldChange::MissingFacts { added, removed } => view! {
            <li>
                "Missing facts 缺失事实: "
                {(!added.is_empty()).then(|| view! { <ins>"+ " {added.join(", ")}</ins> " " })}
                {(!removed.is_empty()).then(|| view! { <del>"− " {removed.join(", ")}</del> })}
            </li>
        }
        .into_any(),
        FieldChange::TurnEdited { consultation, new_turn, edits, .. } => view! {
            <li>
                {consultation_label(consultation)} ", turn 第" {new_turn + 1} "轮: "
                <span class="diff-text"><Edits edits /></span>
            </li>
        }
        .into_any(),
        FieldChange::TurnAdded { consultation, turn, role, content } => view! {
            <li>{consultation_label(consultation)} ", turn 第" {turn + 1} "轮 added 新增 (" {role.as_str()} "): " <ins>{content}</ins></li>
        }
        .into_any(),
        FieldChange::TurnRemoved { consultation, turn, role, content } => view! {
            <li>{consultation_label(consultation)} ", turn 第" {turn + 1} "轮 removed 删除 (" {role.as_str()} "): " <del>{content}</del></li>
        }
        .into_any(),
    }
}

#[component]
fn RevisionItem(revision: RevisionView) -> impl IntoView {
    view! {
        <li class="revision" data-testid="revision">
            <div>
                <strong>"Revision 修订 " {revision.revision}</strong>
                " · " {revision.author.clone().unwrap_or_else(|| "imported 导入".into())}
                " · " {revision.created_at.clone()}
                " · dataset version 数据集版本 " {revision.dataset_version}
            </div>
            <div class="muted">"Reason 理由: " {revision.reason.clone()}</div>
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
    let history = Resource::new(move || case_id.clone(), get_case_history);
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                match history.await {
                    Ok(h) if !h.revisions.is_empty() => view! {
                        <section class="panel" data-testid="case-history">
                            <h2>"History 修订历史"</h2>
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
