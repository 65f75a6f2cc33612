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
