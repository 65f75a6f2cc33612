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
    view! {
        <div class="error-box" role="alert">
            <strong>"Error 出错了: "</strong>
            {error_message(&error)}
        </div>
    }
}

#[component]
pub fn Loading() -> impl IntoView {
    view! { <p class="loading">"Loading… 加载中"</p> }
}

#[component]
pub fn VerdictBadge(verdict: Verdict) -> impl IntoView {
    view! {
        <span class=format!("badge verdict verdict-{}", verdict.as_str()) title=verdict.label_en()>
            {verdict.label_zh()}
        </span>
    }
}

#[component]
pub fn ClassBadge(class: Class) -> impl IntoView {
    view! {
        <span class=format!("badge class class-{}", class.as_str()) title=class.label_zh()>
            {class.label_en()}
        </span>
    }
}

#[component]
pub fn FocalTypeBadge(point_type: FocalPointType) -> impl IntoView {
    view! {
        <span class="badge focal-type" title=point_type.label_en()>
            {point_type.label_zh()}
        </span>
    }
}

pub fn plaintiff_label(p: PlaintiffType) -> String {
    format!("{} {}", p.label_zh(), p.label_en())
}

/// Shown wherever a dataset is synthetic demo data, so nobody mistakes it for real cases.
#[component]
pub fn SyntheticNotice(synthetic: bool) -> impl IntoView {
    synthetic.then(|| {
        view! {
            <p class="synthetic-notice">
                "Synthetic demo data 合成演示数据 — fictional cases written for this demo, not real judgments."
            </p>
        }
    })
}
