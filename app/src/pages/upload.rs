//! Upload run files from the browser: pick one or more files, read the
//! validation report (every error with line and field) or the scores, then
//! store them all in one transaction. Scripts use `POST /api/runs` instead.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::labels::error_message;
use crate::server_fns::runs::{check_runs, store_runs};
use crate::types::{RunFileReport, UploadFile};

/// Largest file the page sends (the server refuses bigger bodies anyway).
pub const MAX_FILE_BYTES: f64 = 32.0 * 1024.0 * 1024.0;

/// Reads the picked files' text in the browser.
#[cfg(feature = "hydrate")]
async fn read_files(input: web_sys::HtmlInputElement) -> Result<Vec<UploadFile>, String> {
    let Some(list) = input.files() else {
        return Ok(Vec::new());
    };
    let mut files = Vec::new();
    for i in 0..list.length() {
        let Some(file) = list.get(i) else { continue };
        if file.size() > MAX_FILE_BYTES {
            return Err(format!("{} is larger than 32 MiB", file.name()));
        }
        let text = wasm_bindgen_futures::JsFuture::from(file.text())
            .await
            .map_err(|_| format!("cannot read {}", file.name()))?;
        files.push(UploadFile {
            name: file.name(),
            text: text.as_string().unwrap_or_default(),
        });
    }
    Ok(files)
}

fn score(v: Option<f64>) -> String {
    v.map_or_else(|| "—".to_owned(), |x| format!("{x:.4}"))
}

#[component]
pub fn UploadPage() -> impl IntoView {
    view! {
        <Title text="Upload runs" />
        <section class="panel">
            <h1>"Upload runs 上传评测结果"</h1>
            <UploadForm />
        </section>
    }
}

#[component]
fn UploadForm() -> impl IntoView {
    let files = RwSignal::new(Vec::<UploadFile>::new());
    let read_error = RwSignal::new(None::<String>);
    let replace = RwSignal::new(false);
    let check = Action::new(|files: &Vec<UploadFile>| check_runs(files.clone()));
    let store = Action::new(|(files, replace): &(Vec<UploadFile>, bool)| {
        store_runs(files.clone(), *replace)
    });
    let input = NodeRef::<leptos::html::Input>::new();

    let on_change = move |_| {
        #[cfg(feature = "hydrate")]
        if let Some(el) = input.get() {
            leptos::task::spawn_local(async move {
                store.clear();
                match read_files(el).await {
                    Ok(picked) => {
                        read_error.set(None);
                        files.set(picked.clone());
                        if !picked.is_empty() {
                            check.dispatch(picked);
                        }
                    }
                    Err(e) => read_error.set(Some(e)),
                }
            });
        }
    };
    let all_valid = move || {
        check.value().with(|v| {
            matches!(v, Some(Ok(reports)) if !reports.is_empty() && reports.iter().all(|r| r.errors.is_empty()))
        })
    };
    view! {
        <p>
            "Each file is one run of one model (docs/formats.md §3). The files are checked against the current dataset first; nothing is stored until you confirm, and then all or none."
        </p>
        <noscript><p class="info">"Uploading in the browser needs JavaScript; scripts can POST run files to /api/runs."</p></noscript>
        <label class="field">
            <span>"Run files (.jsonl) 结果文件"</span>
            <input type="file" accept=".jsonl,.json,.txt" multiple node_ref=input on:change=on_change data-testid="run-files" />
        </label>
        {move || read_error.get().map(|e| view! { <p class="error-box" role="alert">{e}</p> })}
        {move || check.pending().get().then(|| view! { <p class="loading">"Checking… 校验中"</p> })}
        {move || check.value().get().map(|result| match result {
            Ok(reports) => view! { <ReportTable reports /> }.into_any(),
            Err(e) => view! { <p class="error-box" role="alert">{error_message(&e)}</p> }.into_any(),
        })}
        <div class="upload-actions">
            <label class="inline-check">
                <input type="checkbox" prop:checked=move || replace.get() on:change=move |ev| replace.set(event_target_checked(&ev)) />
                " Replace stored runs with the same model and run number 覆盖已存在的结果"
            </label>
            <button
                class="primary"
                data-testid="store-runs"
                disabled=move || !all_valid() || store.pending().get()
                on:click=move |_| {
                    store.dispatch((files.get_untracked(), replace.get_untracked()));
                }
            >
                "Store runs 确认上传"
            </button>
        </div>
        {move || store.value().get().map(|result| match result {
            Ok(n) => view! {
                <p class="info" role="status" data-testid="stored">
                    "Stored " {n} " run(s). 已保存。 " <a href="/leaderboard">"See the leaderboard →"</a>
                </p>
            }.into_any(),
            Err(e) => view! { <p class="error-box" role="alert">{error_message(&e)}</p> }.into_any(),
        })}
    }
}

#[component]
fn ReportTable(reports: Vec<RunFileReport>) -> impl IntoView {
    view! {
        <div class="table-scroll">
            <table class="stats" data-testid="upload-report">
                <thead>
                    <tr>
                        <th>"File"</th><th>"Result"</th><th>"Model · run"</th>
                        <th class="num">"LCA F1"</th><th class="num">"DCG acc"</th><th class="num">"LJP QWK"</th>
                        <th class="num">"Unavailable"</th>
                    </tr>
                </thead>
                <tbody>
                    {reports.into_iter().map(|r| {
                        let errors = r.errors.clone();
                        let summary = r.summary.clone();
                        view! {
                            <tr>
                                <td>{r.name.clone()}</td>
                                {match summary {
                                    Some(s) => view! {
                                        <td>
                                            <span class="badge verdict-supported">"valid 有效"</span>
                                            {s.already_stored.then(|| view! { <span class="badge verdict-partially_supported">"already stored 已存在"</span> })}
                                        </td>
                                        <td>{s.model.clone()} " · run " {s.run}</td>
                                        <td class="num">{score(s.lca_macro_f1)}</td>
                                        <td class="num">{score(s.dcg_accuracy)}</td>
                                        <td class="num">
                                            {s.ljp_qwk.iter().map(|(setup, q)| format!("{} {}", setup.as_str(), score(*q))).collect::<Vec<_>>().join(" · ")}
                                        </td>
                                        <td class="num">{s.unavailable}</td>
                                    }.into_any(),
                                    None => view! {
                                        <td colspan="6">
                                            <span class="badge verdict-dismissed">{errors.len()} " error(s) 错误"</span>
                                            <ul class="errors">
                                                {errors.iter().map(|e| view! { <li>{e.to_string()}</li> }).collect_view()}
                                            </ul>
                                        </td>
                                    }.into_any(),
                                }}
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
