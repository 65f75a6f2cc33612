//! A model's page: its stored runs on the current dataset, grouped into
//! entries (runs made in the same setting), and for each task a table with
//! one row per run and the entry's mean ± std below them.

use engine::core::columns::Scale;
use engine::lexpilot::leaderboard::Table;
use engine::lexpilot::run::Task;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::components::exports::{export_url, ExportLinks};
use crate::components::i18n::Lang;
use crate::components::labels::{BlindNote, ErrorBox, Loading, SyntheticNotice};
use crate::components::live::{use_live_of, LiveBadge};
use crate::pages::leaderboard::column_label;
use crate::server_fns::models::get_model;
use crate::types::ModelEntryView;
use crate::url::encode;
use engine::benchmark::Benchmark;

/// The page of `model`.
pub fn model_url(model: &str) -> String {
    format!("/models/{}", encode(model))
}

#[component]
pub fn ModelPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let params = use_params_map();
    let model = move || params.with(|p| p.get("model").unwrap_or_default());
    let live = use_live_of(Benchmark::Lexpilot.as_str(), &["runs", "cases"]);
    let data = Resource::new(move || (model(), live.changes.get()), |(m, _)| get_model(m));
    view! {
        <Transition fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(page) => view! {
                        <Title text=match lang {
                            Lang::Zh => format!("{} · 模型", page.model),
                            Lang::En => format!("{} · model", page.model),
                        } />
                        <section class="panel">
                            <p><a href="/leaderboard">{lang.t("← 排行榜", "← Leaderboard")}</a></p>
                            <h1>{page.model.clone()} " " <LiveBadge live /></h1>
                            <SyntheticNotice synthetic=page.dataset.synthetic />
                            <BlindNote note=page.blind />
                            <p class="dataset-line">
                                {lang.t("数据集 ", "Runs on ")} <strong>{page.dataset.name.clone()}</strong> {lang.t(" 版本 ", " version ")} {page.dataset.version}
                                {lang.t(" 上的运行", "")}
                                " · " {lang.count(page.entries.len() as u64, "个条目", "entry", "entries")}
                                " · " <a href=format!("/compare?a={}", encode(&page.model))>{lang.t("与其他条目对比", "compare with another entry")}</a>
                            </p>
                            <ModelExports
                                model=page.model.clone()
                                tasks=Task::ALL
                                    .into_iter()
                                    .filter(|t| page.entries.iter().any(|e| e.tables.iter().any(|(task, _)| task == t)))
                                    .collect()
                            />
                            {page.entries.into_iter().map(|e| view! { <EntrySection entry=e /> }).collect_view()}
                        </section>
                    }.into_any(),
                    Err(e) => view! { <section class="panel"><ErrorBox error=e /></section> }.into_any(),
                }
            })}
        </Transition>
    }
}

/// The page's tables as files: the runs, and the scores of each of
/// `tasks` (over every entry, one block per entry).
#[component]
fn ModelExports(model: String, tasks: Vec<Task>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let here = model_url(&model);
    view! {
        <ExportLinks href=export_url(&here, "runs") lang label=lang.t("导出运行列表：", "Export the runs: ") testid="export-runs" />
        {tasks
            .into_iter()
            .map(|task| {
                let label = match lang {
                    Lang::Zh => format!("导出 {} 各次运行的得分：", task.as_str().to_uppercase()),
                    Lang::En => format!("Export the {} scores per run: ", task.as_str().to_uppercase()),
                };
                let href = export_url(&here, task.as_str());
                view! { <ExportLinks href lang label testid=format!("export-{}", task.as_str()) /> }
            })
            .collect_view()}
    }
}

#[component]
fn EntrySection(entry: ModelEntryView) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let family = entry.family.map(|f| f.label(lang));
    view! {
        <section class="entry" data-testid="model-entry">
            <h2>
                {family.unwrap_or_else(|| lang.t("条目", "Entry"))}
                {entry.setting.iter().map(|(k, v)| view! { <span class="setting">{engine::lexpilot::model::setting_name(lang, k)} ": " {v.clone()}</span> }).collect_view()}
            </h2>
            <div class="table-scroll" tabindex="0">
                <table class="runs" data-testid="model-runs">
                    <thead><tr><th>{lang.t("运行", "Run")}</th><th>{lang.t("创建时间", "Created")}</th><th>{lang.t("上传者", "Uploaded by")}</th><th class="num">{lang.t("不可用项", "Unavailable items")}</th></tr></thead>
                    <tbody>
                        {entry.runs.iter().map(|r| view! {
                            <tr>
                                <td>{r.run}</td>
                                <td>{lang.date_time(&r.created_at)}</td>
                                <td>{r.uploaded_by.clone().unwrap_or_else(|| "—".into())}</td>
                                <td class="num" class:flagged={r.unavailable > 0}>{r.unavailable}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            {entry.tables.into_iter().map(|(task, table)| view! { <RunTable task table /> }).collect_view()}
        </section>
    }
}

/// One task's scores: a row per run, the entry's mean ± std last.
#[component]
fn RunTable(task: Task, table: Table) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let code = task.as_str().to_uppercase();
    let label = task.label(lang);
    let title = match (task, lang) {
        (Task::Ljp, Lang::Zh) => format!("{code} · {label}（分类别列：交互预测设置）"),
        (Task::Ljp, Lang::En) => format!("{code} · {label} (per-class columns: interaction setup)"),
        _ => format!("{code} · {label}"),
    };
    let last = table.rows.len().saturating_sub(1);
    view! {
        <h3>{title}</h3>
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard per-run">
                <thead>
                    <tr>
                        <th>""</th>
                        {table.columns.iter().map(|c| view! { <th class="num">{column_label(lang, &c.key, &c.label)}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {table.rows.iter().enumerate().map(|(i, row)| view! {
                        <tr class:summary=i == last>
                            <td class="model">{row.model.clone()}</td>
                            {row.cells.iter().map(|c| match c {
                                // The std under the mean, as on the leaderboard:
                                // the columns stay narrow enough to fit 1280 px.
                                Some(m) => view! {
                                    <td class="num" title=Scale::Unit.cell(m)>
                                        {Scale::Unit.value(m.mean)}
                                        {m.std.map(|s| view! { <span class="std">"± " {Scale::Unit.value(s)}</span> })}
                                    </td>
                                }.into_any(),
                                None => view! { <td class="num muted">"—"</td> }.into_any(),
                            }).collect_view()}
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
