//! Upload run files from the browser: pick the benchmark and one or more
//! files, read the validation report (every error with line and field) or
//! the scores, then store them all in one transaction. For PLawBench, an
//! evalscope output folder (zipped) is imported the same way: converted and
//! reconciled with evalscope's report first, stored on confirmation. Scripts
//! use `POST /api/runs` and `POST /api/evalscope` instead.

use engine::benchmark::Benchmark;
use engine::core::entry::Family;
use engine::plawbench::evalscope::{ImportError, ImportPreview};
use leptos::prelude::*;
use leptos_meta::Title;
use serde::Deserialize;

use crate::components::i18n::Lang;
use crate::components::labels::error_message;
use crate::server_fns::runs::{check_runs, store_runs};
use crate::types::{DlawRunSummary, PlawRunSummary, RunFileReport, UploadFile};

/// Largest file the page sends (the server refuses bigger bodies anyway).
pub const MAX_FILE_BYTES: f64 = 32.0 * 1024.0 * 1024.0;

/// Reads the picked files' text in the browser.
#[cfg(feature = "hydrate")]
async fn read_files(
    lang: Lang,
    input: web_sys::HtmlInputElement,
) -> Result<Vec<UploadFile>, String> {
    let Some(list) = input.files() else {
        return Ok(Vec::new());
    };
    let mut files = Vec::new();
    for i in 0..list.length() {
        let Some(file) = list.get(i) else { continue };
        if file.size() > MAX_FILE_BYTES {
            return Err(too_large(lang, &file.name()));
        }
        let text = wasm_bindgen_futures::JsFuture::from(file.text())
            .await
            .map_err(|_| match lang {
                Lang::Zh => format!("无法读取 {}", file.name()),
                Lang::En => format!("cannot read {}", file.name()),
            })?;
        files.push(UploadFile {
            name: file.name(),
            text: text.as_string().unwrap_or_default(),
        });
    }
    Ok(files)
}

/// The message for a picked file over [`MAX_FILE_BYTES`].
#[cfg(feature = "hydrate")]
fn too_large(lang: Lang, name: &str) -> String {
    match lang {
        Lang::Zh => format!("{name} 超过 32 MiB"),
        Lang::En => format!("{name} is larger than 32 MiB"),
    }
}

fn score(v: Option<f64>) -> String {
    v.map_or_else(|| "—".to_owned(), |x| format!("{x:.4}"))
}

#[component]
pub fn UploadPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let benchmark = RwSignal::new(Benchmark::Lexpilot);
    view! {
        <Title text=lang.t("上传评测结果", "Upload runs") />
        <section class="panel">
            <h1>{lang.t("上传评测结果", "Upload runs")}</h1>
            <label class="field">
                <span>{lang.t("评测基准", "Benchmark")}</span>
                <select data-testid="upload-benchmark" on:change=move |ev| {
                    if let Some(b) = Benchmark::parse(&event_target_value(&ev)) {
                        benchmark.set(b);
                    }
                }>
                    {Benchmark::ALL
                        .into_iter()
                        .filter(|b| b.hosted())
                        .map(|b| view! { <option value=b.as_str() selected=move || benchmark.get() == b>{b.label(lang)}</option> })
                        .collect_view()}
                </select>
            </label>
            {move || {
                let b = benchmark.get();
                view! { <UploadForm benchmark=b /> }
            }}
        </section>
        {move || (benchmark.get() == Benchmark::Plawbench).then(|| view! {
            <section class="panel">
                <h2>{lang.t("导入 evalscope 结果", "Import evalscope output")}</h2>
                <EvalscopeImport />
            </section>
        })}
        <DatasetSection />
    }
}

/// The dataset form, for the accounts that may import datasets (admins).
#[component]
fn DatasetSection() -> impl IntoView {
    let user = Resource::new(|| (), |_| crate::server_fns::auth::who_am_i());
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                let admin = matches!(
                    user.await,
                    Ok(Some(u)) if u.allows(engine::accounts::Permission::ImportDataset)
                );
                admin.then(|| view! { <DatasetImport /> })
            })}
        </Suspense>
    }
}

/// Import a dataset (admins): a plain multipart form posting to
/// `POST /api/datasets`, which answers the page with a redirect back here
/// carrying the outcome in the query; it works without JavaScript. A check
/// runs every check of the import and stores nothing.
#[component]
fn DatasetImport() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let query = leptos_router::hooks::use_query_map();
    let param = move |key: &str| query.with_untracked(|q| q.get(key));
    let chosen = param("ds_benchmark")
        .and_then(|b| Benchmark::parse(&b))
        .filter(|b| b.hosted())
        .unwrap_or(Benchmark::Lexpilot);
    let result = param("ds_status").map(|status| {
        let name = param("ds_name").unwrap_or_default();
        let version = param("ds_version").unwrap_or_default();
        let count = param("ds_count").unwrap_or_default();
        let code = param("ds_code").unwrap_or_default();
        let lines: Vec<String> = param("ds_text")
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect();
        let (class, said) = match (status.as_str(), lang) {
            ("imported", Lang::Zh) => ("info", format!("已导入数据集 {name} 第 {version} 版（{count} 条）。")),
            ("imported", Lang::En) => ("info", format!("Imported dataset {name} version {version} ({count} cases or items).")),
            ("unchanged", Lang::Zh) => ("info", format!("数据集 {name} 第 {version} 版已是相同内容；未导入任何内容。")),
            ("unchanged", Lang::En) => ("info", format!("Unchanged: dataset {name} version {version} already holds this content; nothing imported.")),
            ("checked_new", Lang::Zh) => ("info", format!("校验通过：导入将保存为数据集 {name} 第 {version} 版（{count} 条）。尚未保存任何内容。")),
            ("checked_new", Lang::En) => ("info", format!("Check passed: the import would store dataset {name} version {version} ({count} cases or items). Nothing is stored yet.")),
            ("checked_unchanged", Lang::Zh) => ("info", format!("校验通过：数据集 {name} 第 {version} 版已是相同内容，导入不会改变任何内容。")),
            ("checked_unchanged", Lang::En) => ("info", format!("Check passed: dataset {name} version {version} already holds this content; the import would change nothing.")),
            (_, Lang::Zh) => ("error-box", format!("未导入（{code}）：")),
            (_, Lang::En) => ("error-box", format!("Nothing was imported ({code}):")),
        };
        let refused = class == "error-box";
        view! {
            <div class=class role={if refused { "alert" } else { "status" }} data-testid="dataset-result">
                <p>{said}</p>
                {(!lines.is_empty()).then(|| {
                    let list_class = if refused { "errors" } else { "warnings" };
                    view! {
                        {(!refused).then(|| view! { <p>{lang.t("警告（不阻止导入）：", "Warnings (they do not block the import):")}</p> })}
                        <ul class=list_class>{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                    }
                })}
            </div>
        }
    });
    view! {
        <section class="panel" id="dataset">
            <h2>{lang.t("导入数据集（管理员）", "Import a dataset (admins)")}</h2>
            <p>{lang.t(
                "与命令行 lexpilot import 相同的规则：一个数据集文件（PLawBench 也可以是官方发布的数据文件，可多选），逐项校验，错误注明文件、行和字段；在一个事务中全部导入或全部不导入。内容相同则不变，内容不同则成为新版本。先校验不会保存任何内容。",
                "The same rules as lexpilot import at the command line: one dataset file (for PLawBench also the official release's data files, several at once), every error naming its file, line and field; all imported in one transaction, or nothing. The same content again changes nothing; other content becomes a new version. A check stores nothing.",
            )}</p>
            {result}
            <form method="post" action="/api/datasets" enctype="multipart/form-data" data-testid="dataset-form">
                <input type="hidden" name="from" value="page" />
                <div class="filters">
                    <label class="field">
                        <span>{lang.t("评测基准", "Benchmark")}</span>
                        <select name="benchmark" data-testid="dataset-benchmark">
                            {Benchmark::ALL
                                .into_iter()
                                .filter(|b| b.hosted())
                                .map(|b| view! { <option value=b.as_str() selected={b == chosen}>{b.label(lang)}</option> })
                                .collect_view()}
                        </select>
                    </label>
                    <label class="field">
                        <span>{lang.t("数据集名称（可选，默认取文件名）", "Dataset name (optional; the file's name by default)")}</span>
                        <input type="text" name="name" maxlength="200" data-testid="dataset-name" />
                    </label>
                </div>
                <label class="field">
                    <span>{lang.t("数据集文件（.jsonl，PLawBench 发布文件 .json）", "Dataset files (.jsonl; PLawBench's release files .json)")}</span>
                    <input type="file" name="file" accept=".jsonl,.json,.txt" multiple required data-testid="dataset-files" />
                </label>
                <label class="inline-check">
                    <input type="checkbox" name="synthetic" value="true" />
                    {lang.t(" 标记为合成演示数据", " Mark as synthetic demo data")}
                </label>
                <div class="upload-actions">
                    <button type="submit" name="check" value="true" data-testid="dataset-check">
                        {lang.t("仅校验（不保存）", "Check only (store nothing)")}
                    </button>
                    <button type="submit" name="check" value="false" class="primary" data-testid="dataset-import">
                        {lang.t("导入", "Import")}
                    </button>
                </div>
            </form>
        </section>
    }
}

#[component]
fn UploadForm(benchmark: Benchmark) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let files = RwSignal::new(Vec::<UploadFile>::new());
    let read_error = RwSignal::new(None::<String>);
    let replace = RwSignal::new(false);
    // What the uploader gives in place of the headers' fields (blank: keep).
    let model = RwSignal::new(String::new());
    let family = RwSignal::new(String::new());
    let given = |v: String| (!v.trim().is_empty()).then_some(v);
    let check = Action::new(move |files: &Vec<UploadFile>| {
        check_runs(
            files.clone(),
            Some(benchmark),
            given(model.get_untracked()),
            given(family.get_untracked()),
        )
    });
    let store = Action::new(move |(files, replace): &(Vec<UploadFile>, bool)| {
        store_runs(
            files.clone(),
            *replace,
            Some(benchmark),
            given(model.get_untracked()),
            given(family.get_untracked()),
        )
    });
    // The report follows the fields: a changed name is checked again.
    let recheck = move || {
        let picked = files.get_untracked();
        if !picked.is_empty() {
            store.clear();
            check.dispatch(picked);
        }
    };
    let format = match benchmark {
        Benchmark::Plawbench => "docs/benchmarks/plawbench.md §B3",
        Benchmark::Dlawbench => "docs/benchmarks/dlawbench.md §A3",
        Benchmark::Lexpilot => "docs/formats.md §3",
    };
    let board = match benchmark {
        Benchmark::Plawbench => "/plawbench/leaderboard",
        Benchmark::Dlawbench => "/dlawbench/leaderboard",
        Benchmark::Lexpilot => "/leaderboard",
    };
    let input = NodeRef::<leptos::html::Input>::new();

    let on_change = move |_| {
        #[cfg(feature = "hydrate")]
        if let Some(el) = input.get() {
            leptos::task::spawn_local(async move {
                store.clear();
                match read_files(lang, el).await {
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
            {lang.t("每个文件是一个模型的一次运行（格式见 ", "Each file is one run of one model (")}
            {format}
            {lang.t(
                "）。文件先按该评测当前的数据集校验；确认之前不保存任何内容，确认后全部保存或全部不保存。",
                "). The files are checked against the benchmark's current dataset first; nothing is stored until you confirm, and then all or none.",
            )}
        </p>
        <noscript><p class="info">{lang.t(
            "在浏览器中上传需要 JavaScript；脚本可将结果文件 POST 到 /api/runs。",
            "Uploading in the browser needs JavaScript; scripts can POST run files to /api/runs.",
        )}</p></noscript>
        <label class="field">
            <span>{lang.t("结果文件（.jsonl）", "Run files (.jsonl)")}</span>
            <input type="file" accept=".jsonl,.json,.txt" multiple node_ref=input on:change=on_change data-testid="run-files" />
        </label>
        <div class="filters">
            <label class="field">
                <span>{lang.t("模型名称（可选，替换文件中的名称）", "Model name (optional, in place of the files' own)")}</span>
                <input type="text" maxlength="200" data-testid="upload-model" placeholder=lang.t("沿用文件中的", "as in the files")
                    prop:value=move || model.get()
                    on:input=move |ev| model.set(event_target_value(&ev))
                    on:change=move |_| recheck() />
            </label>
            <label class="field">
                <span>{lang.t("模型类别（可选，替换文件中的类别）", "Family (optional, in place of the files' own)")}</span>
                <select data-testid="upload-family" on:change=move |ev| { family.set(event_target_value(&ev)); recheck(); }>
                    <option value="">{lang.t("沿用文件中的", "as in the files")}</option>
                    {Family::ALL.into_iter().map(|f| view! { <option value=f.as_str()>{f.label(lang)}</option> }).collect_view()}
                </select>
            </label>
        </div>
        {move || read_error.get().map(|e| view! { <p class="error-box" role="alert">{e}</p> })}
        {move || check.pending().get().then(|| view! { <p class="loading">{lang.t("校验中…", "Checking…")}</p> })}
        {move || check.value().get().map(|result| match result {
            Ok(reports) if benchmark == Benchmark::Plawbench => view! { <PlawReportTable reports /> }.into_any(),
            Ok(reports) if benchmark == Benchmark::Dlawbench => view! { <DlawReportTable reports /> }.into_any(),
            Ok(reports) => view! { <ReportTable reports /> }.into_any(),
            Err(e) => view! { <p class="error-box" role="alert">{error_message(&e)}</p> }.into_any(),
        })}
        <div class="upload-actions">
            <label class="inline-check">
                <input type="checkbox" prop:checked=move || replace.get() on:change=move |ev| replace.set(event_target_checked(&ev)) />
                {lang.t(" 覆盖同一模型、同一运行编号的已存结果", " Replace stored runs with the same model and run number")}
            </label>
            <button
                class="primary"
                data-testid="store-runs"
                disabled=move || !all_valid() || store.pending().get()
                on:click=move |_| {
                    store.dispatch((files.get_untracked(), replace.get_untracked()));
                }
            >
                {lang.t("确认上传", "Store runs")}
            </button>
        </div>
        {move || store.value().get().map(|result| match result {
            Ok(n) => view! {
                <p class="info" role="status" data-testid="stored">
                    {match lang {
                        Lang::Zh => format!("已保存 {}。", lang.count(n as u64, "次运行", "run", "runs")),
                        Lang::En => format!("Stored {}.", lang.count(n as u64, "次运行", "run", "runs")),
                    }}
                    " " <a href=board>{lang.t("查看排行榜 →", "See the leaderboard →")}</a>
                </p>
            }.into_any(),
            Err(e) => view! { <p class="error-box" role="alert">{error_message(&e)}</p> }.into_any(),
        })}
    }
}

#[component]
fn ReportTable(reports: Vec<RunFileReport>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="stats" data-testid="upload-report">
                <thead>
                    <tr>
                        <th>{lang.t("文件", "File")}</th><th>{lang.t("结果", "Result")}</th><th>{lang.t("模型 · 运行", "Model · run")}</th>
                        <th class="num">"LCA F1"</th><th class="num">{lang.t("DCG 准确率", "DCG acc")}</th><th class="num">"LJP QWK"</th>
                        <th class="num">{lang.t("不可用", "Unavailable")}</th>
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
                                            <span class="badge verdict-supported">{lang.t("有效", "valid")}</span>
                                            {s.already_stored.then(|| view! { <span class="badge verdict-partially_supported">{lang.t("已存在", "already stored")}</span> })}
                                        </td>
                                        <td>{s.model.clone()} {lang.t(" · 运行 ", " · run ")} {s.run}</td>
                                        <td class="num">{score(s.lca_macro_f1)}</td>
                                        <td class="num">{score(s.dcg_accuracy)}</td>
                                        <td class="num">
                                            {s.ljp_qwk.iter().map(|(setup, q)| format!("{} {}", match lang { Lang::Zh => setup.label_zh(), Lang::En => setup.as_str() }, score(*q))).collect::<Vec<_>>().join(" · ")}
                                        </td>
                                        <td class="num">{s.unavailable}</td>
                                    }.into_any(),
                                    None => view! { <FileErrors errors columns=6 /> }.into_any(),
                                }}
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// The errors of a file that cannot be stored, the same problem on many
/// lines said once ([`engine::findings::collapse`]).
#[component]
fn FileErrors(errors: Vec<engine::core::errors::DatasetError>, columns: usize) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <td colspan=columns>
            <span class="badge verdict-dismissed">{lang.count(errors.len() as u64, "个错误", "error", "errors")}</span>
            <ul class="errors" data-testid="upload-errors">
                {engine::findings::collapse(&errors).iter().map(|g| view! { <li>{g.to_string()}</li> }).collect_view()}
            </ul>
        </td>
    }
}

/// A PLawBench check: per file its official scores (×100) or its errors.
#[component]
fn PlawReportTable(reports: Vec<RunFileReport>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let percent =
        |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |x| format!("{:.2}", x * 100.0));
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="stats" data-testid="upload-report">
                <thead>
                    <tr>
                        <th>{lang.t("文件", "File")}</th><th>{lang.t("结果", "Result")}</th><th>{lang.t("模型 · 运行", "Model · run")}</th>
                        <th class="num">{lang.t("总分", "Overall")}</th><th class="num">{lang.t("任务一", "Task1")}</th><th class="num">{lang.t("任务二", "Task2")}</th><th class="num">{lang.t("任务三", "Task3")}</th>
                        <th class="num">{lang.t("不可用", "Unavailable")}</th><th class="num">{lang.t("截断", "Truncated")}</th>
                    </tr>
                </thead>
                <tbody>
                    {reports.into_iter().map(|r| {
                        let cells = match r.plaw.clone() {
                            Some(PlawRunSummary { model, run, overall, task1, task2, task3, unavailable, truncated, already_stored }) => view! {
                                <td>
                                    <span class="badge verdict-supported">{lang.t("有效", "valid")}</span>
                                    {already_stored.then(|| view! { <span class="badge verdict-partially_supported">{lang.t("已存在", "already stored")}</span> })}
                                </td>
                                <td>{model} {lang.t(" · 运行 ", " · run ")} {run}</td>
                                <td class="num">{percent(overall)}</td>
                                <td class="num">{percent(task1)}</td>
                                <td class="num">{percent(task2)}</td>
                                <td class="num">{percent(task3)}</td>
                                <td class="num">{unavailable}</td>
                                <td class="num">{truncated}</td>
                            }.into_any(),
                            None => view! { <FileErrors errors=r.errors.clone() columns=8 /> }.into_any(),
                        };
                        view! { <tr><td>{r.name.clone()}</td>{cells}</tr> }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn DlawReportTable(reports: Vec<RunFileReport>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let rate = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |x| format!("{x:.3}"));
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="stats" data-testid="upload-report">
                <thead>
                    <tr>
                        <th>{lang.t("文件", "File")}</th><th>{lang.t("结果", "Result")}</th><th>{lang.t("模型 · 运行", "Model · run")}</th>
                        <th class="num">{lang.t("会话", "Sessions")}</th><th class="num">{lang.t("风格", "Styles")}</th>
                        <th class="num">{lang.t("信息获取", "Elicitation")}</th><th class="num">{lang.t("问题解决", "Resolution")}</th><th class="num">{lang.t("忠实度", "Fidelity")}</th>
                        <th class="num">{lang.t("任务失败", "Task failures")}</th><th class="num">{lang.t("不可用", "Unavailable")}</th>
                    </tr>
                </thead>
                <tbody>
                    {reports.into_iter().map(|r| {
                        let cells = match r.dlaw.clone() {
                            Some(DlawRunSummary { model, run, sessions, styles, elicitation, resolution, fidelity, failures, unavailable, already_stored }) => view! {
                                <td>
                                    <span class="badge verdict-supported">{lang.t("有效", "valid")}</span>
                                    {already_stored.then(|| view! { <span class="badge verdict-partially_supported">{lang.t("已存在", "already stored")}</span> })}
                                </td>
                                <td>{model} {lang.t(" · 运行 ", " · run ")} {run}</td>
                                <td class="num">{sessions}</td>
                                <td class="num" title=lang.t("总体值需要全部四种风格", "overall values need all four styles")>{styles} " / 4"</td>
                                <td class="num">{rate(elicitation)}</td>
                                <td class="num">{rate(resolution)}</td>
                                <td class="num">{rate(fidelity)}</td>
                                <td class="num">{failures}</td>
                                <td class="num">{unavailable}</td>
                            }.into_any(),
                            None => view! { <FileErrors errors=r.errors.clone() columns=9 /> }.into_any(),
                        };
                        view! { <tr><td>{r.name.clone()}</td>{cells}</tr> }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// What `POST /api/evalscope` answers.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
struct EvalscopeReply {
    #[serde(default)]
    import: Option<ImportPreview>,
    #[serde(default)]
    stored: Option<Vec<serde_json::Value>>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    errors: Vec<ImportError>,
}

/// Sends the picked archive to `POST /api/evalscope` with `query`.
#[cfg(feature = "hydrate")]
async fn post_archive(
    lang: Lang,
    input: web_sys::HtmlInputElement,
    query: String,
) -> EvalscopeReply {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;

    let failed = |error: String| EvalscopeReply {
        error: Some(error),
        ..EvalscopeReply::default()
    };
    let Some(file) = input.files().and_then(|l| l.get(0)) else {
        return failed(
            lang.t(
                "请先选择 evalscope 输出文件夹的 .zip",
                "pick a .zip of the evalscope output folder first",
            )
            .into(),
        );
    };
    if file.size() > MAX_FILE_BYTES {
        return failed(too_large(lang, &file.name()));
    }
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&file);
    let Ok(request) =
        web_sys::Request::new_with_str_and_init(&format!("/api/evalscope{query}"), &init)
    else {
        return failed(lang.t("无法构造请求", "cannot build the request").into());
    };
    let _ = request.headers().set("Content-Type", "application/zip");
    let Some(window) = web_sys::window() else {
        return failed(lang.t("没有浏览器窗口", "no window").into());
    };
    let response = match JsFuture::from(window.fetch_with_request(&request)).await {
        Ok(r) => r.unchecked_into::<web_sys::Response>(),
        Err(_) => {
            return failed(
                lang.t("无法连接服务器", "the server could not be reached")
                    .into(),
            )
        }
    };
    let text = match response.text() {
        Ok(promise) => JsFuture::from(promise)
            .await
            .ok()
            .and_then(|t| t.as_string()),
        Err(_) => None,
    };
    match text.and_then(|t| serde_json::from_str::<EvalscopeReply>(&t).ok()) {
        Some(reply) => reply,
        None => failed(match lang {
            Lang::Zh => format!("服务器返回 {}，但没有可读的内容", response.status()),
            Lang::En => format!(
                "the server answered {} without a readable body",
                response.status()
            ),
        }),
    }
}

/// Import an evalscope output folder (zipped): check first (conversion and
/// reconciliation shown), then import on confirmation.
#[component]
fn EvalscopeImport() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let input = NodeRef::<leptos::html::Input>::new();
    let model_family = RwSignal::new(String::new());
    let replace = RwSignal::new(false);
    let checked = RwSignal::new(None::<EvalscopeReply>);
    let stored = RwSignal::new(None::<EvalscopeReply>);
    let busy = RwSignal::new(false);
    let query = move |check: bool| {
        let mut q = vec![];
        if check {
            q.push("check=true".to_owned());
        }
        if replace.get_untracked() {
            q.push("replace=true".to_owned());
        }
        let family = model_family.get_untracked();
        if !family.trim().is_empty() {
            q.push(format!(
                "model_family={}",
                crate::url::encode(family.trim())
            ));
        }
        if q.is_empty() {
            String::new()
        } else {
            format!("?{}", q.join("&"))
        }
    };
    let send = move |check: bool| {
        #[cfg(feature = "hydrate")]
        if let Some(el) = input.get_untracked() {
            busy.set(true);
            leptos::task::spawn_local(async move {
                let reply = post_archive(lang, el, query(check)).await;
                if check {
                    stored.set(None);
                    checked.set(Some(reply));
                } else {
                    stored.set(Some(reply));
                }
                busy.set(false);
            });
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = (check, input, query);
    };
    let ready =
        move || checked.with(|c| matches!(c, Some(r) if r.import.is_some() && r.error.is_none()));
    view! {
        <p>
            {lang.t(
                "evalscope 输出文件夹的 .zip（predictions、reviews、report、configs/task_config.yaml）。每个模型的每次生成成为一次运行；无法使用的评审和旧版评审失败记为不可用，而非 0 分。保存之前会重新计算各子集均值，并与 evalscope 的报告核对。",
                "A .zip of evalscope's output folder (predictions, reviews, report, configs/task_config.yaml). Each model and generation becomes one run; unusable reviews and legacy judge failures are unavailable, never 0. The subset means are recomputed and compared with evalscope's report before anything is stored.",
            )}
        </p>
        <label class="field">
            <span>{lang.t("evalscope 输出（.zip）", "evalscope output (.zip)")}</span>
            <input type="file" accept=".zip" node_ref=input on:change=move |_| send(true) data-testid="evalscope-archive" />
        </label>
        <label class="field">
            <span>{lang.t("系列（厂商系列，可选）", "Family column (vendor family, optional)")}</span>
            <input type="text" placeholder="Qwen, Claude, …" prop:value=move || model_family.get()
                   on:input=move |ev| model_family.set(event_target_value(&ev)) on:change=move |_| send(true) />
        </label>
        {move || busy.get().then(|| view! { <p class="loading">{lang.t("处理中…", "Working…")}</p> })}
        {move || checked.get().map(|reply| view! { <EvalscopeResult reply /> })}
        <div class="upload-actions">
            <label class="inline-check">
                <input type="checkbox" prop:checked=move || replace.get() on:change=move |ev| replace.set(event_target_checked(&ev)) />
                {lang.t(" 覆盖同一模型、同一运行编号的已存结果", " Replace stored runs with the same model and run number")}
            </label>
            <button class="primary" data-testid="import-evalscope" disabled=move || !ready() || busy.get() on:click=move |_| send(false)>
                {lang.t("确认导入", "Import")}
            </button>
        </div>
        {move || stored.get().map(|reply| match (reply.stored.clone(), reply.error.clone()) {
            (Some(runs), None) => view! {
                <p class="info" role="status" data-testid="imported">
                    {match lang {
                        Lang::Zh => format!("已导入 {}。", lang.count(runs.len() as u64, "次运行", "run", "runs")),
                        Lang::En => format!("Imported {}.", lang.count(runs.len() as u64, "次运行", "run", "runs")),
                    }}
                    " " <a href="/plawbench/leaderboard">{lang.t("查看排行榜 →", "See the leaderboard →")}</a>
                </p>
            }.into_any(),
            _ => view! { <EvalscopeResult reply /> }.into_any(),
        })}
    }
}

#[component]
fn EvalscopeResult(reply: EvalscopeReply) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let num = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| format!("{v:.4}"));
    view! {
        {reply.error.clone().map(|e| view! {
            <div class="error-box" role="alert">
                <p>{e}</p>
                <ul class="errors">{reply.errors.iter().map(|e| view! { <li>{e.to_string()}</li> }).collect_view()}</ul>
            </div>
        })}
        {reply.import.clone().map(|preview| view! {
            <p class="dataset-line" data-testid="evalscope-preview">
                {lang.t("数据集 ", "For dataset ")} <strong>{preview.dataset.clone()}</strong> {lang.t(" 版本 ", " version ")} {preview.dataset_version}
                {if preview.reconciled() {
                    view! { " · " <span class="badge verdict-supported">{lang.t("与报告一致", "reconciled with the report")}</span> }.into_any()
                } else {
                    view! { " · " <span class="badge verdict-dismissed">{lang.t("与报告不一致", "differs from the report")}</span> }.into_any()
                }}
            </p>
            {preview.folders.into_iter().map(|f| view! {
                <h3>{f.model.clone()} <span class="muted">" (" {f.model_id.clone()} ")"</span></h3>
                <p>{f.runs.iter().map(|r| {
                    let items = lang.count(r.items as u64, "道题目", "item", "items");
                    match lang {
                        Lang::Zh => format!("第 {} 次运行：{items}，{} 道不可用", r.run, r.unavailable),
                        Lang::En => format!("run {}: {items}, {} unavailable", r.run, r.unavailable),
                    }
                }).collect::<Vec<_>>().join(" · ")}</p>
                <div class="table-scroll" tabindex="0">
                    <table class="stats" data-testid="reconciliation">
                        <thead><tr><th>{lang.t("子集", "Subset")}</th><th>{lang.t("指标", "Metric")}</th><th class="num">{lang.t("重新计算（n）", "Recomputed (n)")}</th><th class="num">{lang.t("报告（n）", "Report (n)")}</th><th>""</th></tr></thead>
                        <tbody>
                            {f.reconciliation.subsets.iter().map(|c| view! {
                                <tr>
                                    <td>{c.task.as_str()}</td>
                                    <td>{c.metric.clone()}</td>
                                    <td class="num">{num(c.recomputed)} " (" {c.num} ")"</td>
                                    <td class="num">{num(c.reported)} " (" {c.reported_num.map(|n| n.to_string()).unwrap_or_else(|| "—".into())} ")"</td>
                                    <td>{if c.ok { lang.t("一致", "ok") } else { lang.t("不一致", "MISMATCH") }}</td>
                                </tr>
                            }).collect_view()}
                            {f.reconciliation.overall.iter().map(|c| view! {
                                <tr class="overall">
                                    <td>"OVERALL"</td>
                                    <td>{c.metric.clone()}</td>
                                    <td class="num">{num(c.recomputed)} " (" {c.num} ")"</td>
                                    <td class="num">{num(c.reported)} " (" {c.reported_num.map(|n| n.to_string()).unwrap_or_else(|| "—".into())} ")"</td>
                                    <td>{if c.ok { lang.t("一致", "ok") } else { lang.t("不一致", "MISMATCH") }}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                {(!f.reconciliation.items.is_empty()).then(|| view! {
                    <p class="flag">{match lang {
                        Lang::Zh => format!("{} 个题目分值与评审记录自身的不一致", f.reconciliation.items.len()),
                        Lang::En if f.reconciliation.items.len() == 1 => "1 item value differs from the reviews' own".to_owned(),
                        Lang::En => format!("{} item values differ from the reviews' own", lang.number(f.reconciliation.items.len() as u64)),
                    }}</p>
                })}
                <ul class="warnings">{f.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view()}</ul>
            }).collect_view()}
        })}
    }
}
