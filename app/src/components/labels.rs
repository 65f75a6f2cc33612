//! Small labelled badges and the common error and loading views.

use engine::vocab::{Class, FocalPointType, PlaintiffType, Verdict};
use leptos::prelude::*;

/// The message of a server-function error, without the framework's prefix.
pub fn error_message(e: &ServerFnError) -> String {
    match e {
        ServerFnError::ServerError(msg) => msg.clone(),
        other => other.to_string(),
    }
}

#[component]
pub fn ErrorBox(error: ServerFnError) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <div class="error-box" role="alert">
            <strong>{lang.t("出错了：", "Error: ")}</strong>
            {error_message(&error)}
        </div>
    }
}

#[component]
pub fn Loading() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! { <p class="loading">{lang.t("加载中…", "Loading…")}</p> }
}

#[component]
pub fn VerdictBadge(verdict: Verdict) -> impl IntoView {
    let label = verdict.label(crate::components::i18n::lang());
    view! {
        <span class=format!("badge verdict verdict-{}", verdict.as_str()) title=label>
            {label}
        </span>
    }
}

#[component]
pub fn ClassBadge(class: Class) -> impl IntoView {
    let label = class.label(crate::components::i18n::lang());
    view! {
        <span class=format!("badge class class-{}", class.as_str()) title=label>
            {label}
        </span>
    }
}

#[component]
pub fn FocalTypeBadge(point_type: FocalPointType) -> impl IntoView {
    let label = point_type.label(crate::components::i18n::lang());
    view! {
        <span class="badge focal-type" title=label>
            {label}
        </span>
    }
}

pub fn plaintiff_label(p: PlaintiffType) -> String {
    p.label(crate::components::i18n::lang()).to_owned()
}

/// Shown wherever a dataset is synthetic demo data, so nobody mistakes it for real cases.
#[component]
pub fn SyntheticNotice(synthetic: bool) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    synthetic.then(|| {
        view! {
            <p class="synthetic-notice">
                {lang.t(
                    "合成演示数据——为本演示编写的虚构案例，并非真实判决。",
                    "Synthetic demo data — fictional cases written for this demo, not real judgments.",
                )}
            </p>
        }
    })
}

/// Shown above a page's figures while judge decisions are under blind
/// review: how many the figures leave out, or, for a review manager who
/// sees them counted, that everyone else's leave them out. Nothing
/// otherwise.
#[component]
pub fn BlindNote(note: crate::types::BlindReview) -> impl IntoView {
    use crate::components::i18n::Lang;
    let lang = crate::components::i18n::lang();
    let text = if note.left_out > 0 {
        Some(match lang {
            Lang::Zh => format!(
                "{} 个正在盲审的条目不计入本页的数字，审定后再计入。",
                lang.number(note.left_out as u64)
            ),
            Lang::En => format!(
                "{} under blind review {} left out of these figures until {} settled.",
                lang.count(note.left_out as u64, "", "item", "items"),
                if note.left_out == 1 { "is" } else { "are" },
                if note.left_out == 1 {
                    "it is"
                } else {
                    "they are"
                },
            ),
        })
    } else if note.counted > 0 {
        Some(match lang {
            Lang::Zh => format!(
                "本页的数字计入了 {} 个正在盲审的条目；其他用户看到的数字不计入它们。",
                lang.number(note.counted as u64)
            ),
            Lang::En => format!(
                "These figures count {} under blind review; everyone else's figures leave {} out.",
                lang.count(note.counted as u64, "", "item", "items"),
                if note.counted == 1 { "it" } else { "them" },
            ),
        })
    } else {
        None
    };
    text.map(|t| view! { <p class="notice blind-note" data-testid="blind-note">{t}</p> })
}
