//! Benchmark runs (admins only): the endpoints a job may use, a form to start
//! a pipeline job on the current dataset of a benchmark (LexPilot: tasks,
//! user model and condition; PLawBench: the judges' parse mode, aggregation
//! and attempts, max tokens; DLawBench: the client simulator, the styles, the
//! horizon, the lawyer's and judges' attempts; only the chosen benchmark's
//! fields show: `?benchmark=` picks it on the server, the select switches
//! live in the browser), the calls the job will make and their cost at the
//! prices given (asked again as the form changes; needs JavaScript), a
//! button per endpoint that makes one real call to it, and the jobs with their live progress
//! (refetched when the change feed announces `jobs` or `runs`), a cancel
//! button, a restart button for stopped jobs, and links to the scores once a
//! job is done. Every form posts to a server function, so the page works
//! without JavaScript too (reload to see progress then). The server refuses
//! every call to anyone but an admin, whatever the page shows.

use engine::benchmark::Benchmark;
use engine::core::entry::Family;
use engine::core::panel::Aggregation;
use engine::dlawbench::dataset::Style;
use engine::jobs::{
    DlawbenchSettings, Endpoint, Experiment, JobSpec, JobStatus, PlawbenchSettings,
};
use engine::lexpilot::run::Task;
use engine::plawbench::run::ParseMode;
use engine::vocab::LjpSetup;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::i18n::Lang;
use crate::components::labels::{error_message, ErrorBox, Loading};
use crate::components::live::{refresh_on_change, use_live, LiveBadge};
use crate::pages::model::model_url;
use crate::server_fns::jobs::{
    list_endpoints, list_jobs, CancelJob, DeleteEndpoint, EndpointView, EstimateJob, JobView,
    RestartJob, SaveEndpoint, StartJob, TestEndpoint,
};

/// The user conditions of the pipeline (wire name, label).
fn conditions() -> [(&'static str, &'static str); 7] {
    let lang = crate::components::i18n::lang();
    [
        ("standard", lang.t("标准用户", "Standard")),
        ("delayed", lang.t("延迟回答", "Delayed")),
        ("self_correction", lang.t("自我更正", "Self-correction")),
        // The DLawBench styles as their vocabulary names them everywhere.
        (Style::Cooperative.as_str(), Style::Cooperative.label(lang)),
        (Style::Dependent.as_str(), Style::Dependent.label(lang)),
        (Style::Withdrawn.as_str(), Style::Withdrawn.label(lang)),
        (Style::Adversarial.as_str(), Style::Adversarial.label(lang)),
    ]
}

/// The tasks a job may run (wire name, label).
fn task_choices() -> Vec<(String, String)> {
    let lang = crate::components::i18n::lang();
    let mut choices: Vec<(String, String)> = [Task::Lca, Task::Dcg]
        .into_iter()
        .map(|t| {
            (
                t.as_str().to_owned(),
                format!("{} {}", t.as_str().to_uppercase(), t.label(lang)),
            )
        })
        .collect();
    choices.extend(LjpSetup::ALL.into_iter().map(|s| {
        (
            format!("ljp:{}", s.as_str()),
            format!("LJP {}", s.label(lang)),
        )
    }));
    choices
}

fn status_label(status: JobStatus) -> &'static str {
    let lang = crate::components::i18n::lang();
    match status {
        JobStatus::Queued => lang.t("排队中", "Queued"),
        JobStatus::Running => lang.t("运行中", "Running"),
        JobStatus::Done => lang.t("已完成", "Done"),
        JobStatus::Failed => lang.t("失败", "Failed"),
        JobStatus::Cancelled => lang.t("已取消", "Cancelled"),
        JobStatus::Interrupted => lang.t("已中断", "Interrupted"),
    }
}

fn parse_mode_label(lang: Lang, mode: ParseMode) -> &'static str {
    match mode {
        ParseMode::Lenient => lang.t("宽松（修复末尾逗号）", "Lenient (repairs trailing commas)"),
        ParseMode::Strict => lang.t("严格（evalscope 1.14.1）", "Strict (evalscope 1.14.1)"),
    }
}

/// What a job runs, in one line: its benchmark's settings, the dataset, the
/// runs and the scope.
fn job_summary(spec: &JobSpec) -> String {
    let lang = crate::components::i18n::lang();
    let judges = spec
        .judges
        .iter()
        .map(|j| j.model.as_str())
        .collect::<Vec<_>>()
        .join(" + ");
    let last_run = spec.first_run + spec.runs.saturating_sub(1);
    let first_run = spec.first_run;
    let runs = match (lang, spec.runs == 1) {
        (Lang::Zh, true) => format!("第 {first_run} 次运行"),
        (Lang::Zh, false) => format!("第 {first_run}–{last_run} 次运行"),
        (Lang::En, true) => format!("run {first_run}"),
        (Lang::En, false) => format!("runs {first_run}–{last_run}"),
    };
    let user = spec.user.as_ref().map_or("—", |u| u.model.as_str());
    let dataset = &spec.dataset;
    if let Some(experiment) = spec.experiment {
        let scope = match experiment {
            Experiment::Targeted => {
                format!(
                    "{runs} · {}",
                    lang.t("全部信息缺失的案例", "all underspecified cases")
                )
            }
            Experiment::Fidelity => lang.t("全部探针", "every stored probe").to_owned(),
        };
        let experiment = experiment.label(lang);
        return match lang {
            Lang::Zh => {
                format!("{experiment} · 用户模型 {user} · 评审模型 {judges} · {dataset} · {scope}")
            }
            Lang::En => {
                format!("{experiment} · user {user} · judge {judges} · {dataset} · {scope}")
            }
        };
    }
    match spec.benchmark {
        Benchmark::Dlawbench => {
            let s = spec.dlawbench.clone().unwrap_or_default();
            let scope = match (lang, spec.limit) {
                (Lang::Zh, Some(n)) => format!("前 {n} 个案例"),
                (Lang::En, Some(n)) => format!("first {n} cases"),
                (_, None) => lang.t("全部案例", "all cases").to_owned(),
            };
            let styles = s
                .styles
                .iter()
                .map(|s| s.label(lang))
                .collect::<Vec<_>>()
                .join(lang.t("、", ", "));
            let (horizon, lawyer, judge) = (s.horizon, s.lawyer_attempts, s.judge_attempts);
            match lang {
                Lang::Zh => format!(
                    "DLawBench · {styles} · 模拟当事人 {user} · 评审模型 {judges} · 最大轮数 {horizon} · 律师 {lawyer} 次 / 评审 {judge} 次尝试 · {dataset} · {runs} · {scope}"
                ),
                Lang::En => format!(
                    "DLawBench · {styles} · client {user} · judges {judges} · at most {horizon} turns · lawyer {lawyer} / judge {judge} attempts · {dataset} · {runs} · {scope}"
                ),
            }
        }
        Benchmark::Plawbench => {
            let s = spec.plawbench.clone().unwrap_or_default();
            let scope = match (lang, spec.limit) {
                (Lang::Zh, Some(n)) => format!("前 {n} 道题目"),
                (Lang::En, Some(n)) => format!("first {n} items"),
                (_, None) => lang.t("全部题目", "all items").to_owned(),
            };
            let attempts = lang.count(u64::from(s.judge_attempts), "次尝试", "attempt", "attempts");
            match lang {
                Lang::Zh => format!(
                    "PLawBench · 评审模型 {judges} · {}解析 · {} · {attempts} · 最大生成长度 {} · {dataset} · {runs} · {scope}",
                    s.judge_parse.label_zh(),
                    s.judge_aggregation.label_zh(),
                    s.max_tokens,
                ),
                Lang::En => format!(
                    "PLawBench · judges {judges} · {} parse · {} · {attempts} · max tokens {} · {dataset} · {runs} · {scope}",
                    s.judge_parse,
                    s.judge_aggregation,
                    s.max_tokens,
                ),
            }
        }
        _ => {
            let scope = match (lang, spec.limit) {
                (Lang::Zh, Some(n)) => format!("前 {n} 个案例"),
                (Lang::En, Some(n)) => format!("first {n} cases"),
                (_, None) => lang.t("全部案例", "all cases").to_owned(),
            };
            let tasks = spec.tasks.join(", ");
            match lang {
                Lang::Zh => {
                    let condition = conditions()
                        .iter()
                        .find(|(wire, _)| *wire == spec.user_condition)
                        .map_or(spec.user_condition.as_str(), |(_, label)| *label);
                    format!(
                        "{tasks} · 评审模型 {judges} · 用户模型 {user} · {condition} · {dataset} · {runs} · {scope}"
                    )
                }
                Lang::En => format!(
                    "{tasks} · judges {judges} · user {user} · {} · {dataset} · {runs} · {scope}",
                    spec.user_condition,
                ),
            }
        }
    }
}

fn elapsed(secs: f64) -> String {
    let whole = secs.max(0.0).round() as u64;
    format!("{}:{:02}", whole / 60, whole % 60)
}

#[component]
pub fn AdminRunsPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let save = ServerAction::<SaveEndpoint>::new();
    let delete = ServerAction::<DeleteEndpoint>::new();
    // Loaded once; after that the endpoints follow what each save and
    // delete returns (see `BenchmarkAdmin`), so a save that completes while
    // the page hydrates or while a refetch is in flight cannot leave them
    // stale, and the jobs follow the change feed (see `JobsTable`). Both are
    // made here, not in the components the Suspend below renders: the server
    // may render those more than once before the page is complete, and a
    // resource made there takes a hydration id in an order the browser does
    // not repeat (it read another resource's data and failed to hydrate the
    // jobs, at random, behind two servers).
    let endpoints = Resource::new(|| (), |_| list_endpoints());
    let jobs = Resource::new(|| (), |_| list_jobs());
    view! {
        <Title text=lang.t("评测任务", "Benchmark runs") />
        <section class="panel">
            <h1>{lang.t("评测任务", "Benchmark runs")}</h1>
            <p>
                {lang.t(
                    "在后台对 OpenAI 兼容接口运行 LexPilot、PLawBench 或 DLawBench 评测，完成后结果自动进入该评测当前数据集的排行榜。",
                    "Run LexPilot, PLawBench or DLawBench against OpenAI-compatible endpoints in the background; the runs land on the leaderboard of the benchmark's current dataset when the job is done.",
                )}
            </p>
        </section>
        <Transition fallback=Loading>
            {move || Suspend::new(async move {
                match endpoints.await {
                    Ok(list) => {
                        let jobs = jobs.await;
                        view! { <BenchmarkAdmin endpoints=list jobs save delete /> }.into_any()
                    }
                    Err(e) => view! {
                        <section class="panel">
                            <p class="info" data-testid="runs-refused">
                                {lang.t("仅管理员可以配置与启动评测。", "Only admins configure and start benchmark runs. ")}
                                {error_message(&e)} " · " <a href="/signin">{lang.t("登录", "Sign in")}</a>
                            </p>
                        </section>
                    }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn BenchmarkAdmin(
    endpoints: Vec<EndpointView>,
    jobs: Result<Vec<JobView>, ServerFnError>,
    save: ServerAction<SaveEndpoint>,
    delete: ServerAction<DeleteEndpoint>,
) -> impl IntoView {
    let start = ServerAction::<StartJob>::new();
    let list = RwSignal::new(endpoints);
    Effect::new(move |_| {
        if let Some(Ok(saved)) = save.value().get() {
            list.update(|list| upsert_endpoint(list, saved));
        }
    });
    Effect::new(move |_| {
        if let Some(Ok(id)) = delete.value().get() {
            list.update(|list| list.retain(|e| e.endpoint.id != id));
        }
    });
    view! {
        <EndpointsPanel list save delete />
        {move || view! { <StartForm endpoints=list.get() start /> }}
        <JobsPanel jobs start />
    }
}

/// Puts `saved` in `list` in place of the endpoint with its id, or adds it,
/// keeping the list ordered by name as the server lists it.
fn upsert_endpoint(list: &mut Vec<EndpointView>, saved: EndpointView) {
    list.retain(|e| e.endpoint.id != saved.endpoint.id);
    let at = list.partition_point(|e| e.endpoint.name < saved.endpoint.name);
    list.insert(at, saved);
}

/// The endpoints, each editable in place, and a form to add one.
#[component]
fn EndpointsPanel(
    list: RwSignal<Vec<EndpointView>>,
    save: ServerAction<SaveEndpoint>,
    delete: ServerAction<DeleteEndpoint>,
) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let test = ServerAction::<TestEndpoint>::new();
    view! {
        <section class="panel">
            <h2>{lang.t("接口", "Endpoints")}</h2>
            <p class="muted">
                {lang.t(
                    "密钥不在此处填写：请填写服务器上保存密钥的环境变量名，须以运营者设定的前缀开头，默认 LEXPILOT_KEY_（例如 LEXPILOT_KEY_DEEPSEEK）。",
                    "Keys are never entered here: give the NAME of an environment variable of the server that holds the key, starting with the prefix the operator set, LEXPILOT_KEY_ by default (such as LEXPILOT_KEY_DEEPSEEK).",
                )}
            </p>
            {move || list.with(Vec::is_empty).then(|| view! { <p class="info">{lang.t("尚未配置接口。", "No endpoint yet.")}</p> })}
            <div class="table-scroll" tabindex="0">
                <table class="stats" data-testid="endpoints-table">
                    <thead>
                        <tr>
                            <th>{lang.t("名称", "Name")}</th><th>{lang.t("地址", "Base URL")}</th><th>{lang.t("模型", "Model")}</th>
                            <th>{lang.t("密钥变量", "Key variable")}</th><th>{lang.t("厂商", "Vendor")}</th><th></th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || list.get().into_iter().map(|view| {
                            let (e, key_set) = (view.endpoint.clone(), view.key_set);
                            let (id, edit_id, test_id) = (e.id.to_string(), e.id.to_string(), e.id.to_string());
                            let key = match (&e.key_env, key_set) {
                                (None, _) => view! { <span class="muted">{lang.t("无", "none")}</span> }.into_any(),
                                (Some(var), true) => view! { <code>{var.clone()}</code> " " <span class="badge key-set">{lang.t("已设置", "set")}</span> }.into_any(),
                                (Some(var), false) => view! { <code>{var.clone()}</code> " " <span class="badge key-missing">{lang.t("未设置", "not set")}</span> }.into_any(),
                            };
                            view! {
                                <tr>
                                    <td><strong>{e.name.clone()}</strong></td>
                                    <td><code class="endpoint-url">{e.base_url.clone()}</code></td>
                                    <td>{e.model.clone()}</td>
                                    <td>{key}</td>
                                    <td>{e.vendor.clone().unwrap_or_else(|| "—".into())}</td>
                                    <td class="endpoint-actions">
                                        <details>
                                            <summary>{lang.t("编辑", "Edit")}</summary>
                                            <ActionForm action=save attr:class="stack endpoint-form">
                                                <input type="hidden" name="id" value=edit_id />
                                                <EndpointFields endpoint=Some(e.clone()) />
                                                <button type="submit">{lang.t("保存", "Save")}</button>
                                            </ActionForm>
                                        </details>
                                        <ActionForm action=test attr:class="inline">
                                            <input type="hidden" name="id" value=test_id />
                                            <button type="submit" data-testid="test-endpoint"
                                                title=lang.t("用一次真实调用测试此接口", "Make one real call to this endpoint")
                                                disabled=move || test.pending().get()>
                                                {lang.t("测试", "Test")}
                                            </button>
                                        </ActionForm>
                                        <ActionForm action=delete attr:class="inline">
                                            <input type="hidden" name="id" value=id />
                                            <button type="submit" class="danger">{lang.t("删除", "Delete")}</button>
                                        </ActionForm>
                                    </td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            {move || test.pending().get().then(|| view! {
                <p class="loading" role="status">{lang.t("正在调用接口…", "Calling the endpoint…")}</p>
            })}
            {move || test.value().get().map(|r| match r {
                Ok(t) => {
                    let took = format!("{:.1}", t.millis as f64 / 1000.0);
                    let who = format!("{} · {}", t.endpoint, t.model);
                    match (t.reply, t.error) {
                        (Some(reply), _) => view! {
                            <p class="info" role="status" data-testid="endpoint-test">
                                {match lang {
                                    Lang::Zh => format!("{who} 在 {took} 秒内回复："),
                                    Lang::En => format!("{who} answered in {took} s: "),
                                }}
                                <q>{reply}</q>
                            </p>
                        }.into_any(),
                        (None, error) => view! {
                            <p class="error-box" role="alert" data-testid="endpoint-test">
                                {match lang {
                                    Lang::Zh => format!("{who} 调用失败（{took} 秒）："),
                                    Lang::En => format!("{who} failed ({took} s): "),
                                }}
                                {error.unwrap_or_default()}
                            </p>
                        }.into_any(),
                    }
                }
                Err(e) => view! { <p class="error-box" role="alert">{error_message(&e)}</p> }.into_any(),
            })}
            <h3>{lang.t("新增接口", "Add an endpoint")}</h3>
            <ActionForm action=save attr:class="endpoint-form filters">
                <EndpointFields endpoint=None />
                <div class="filter-actions"><button type="submit" class="primary">{lang.t("添加", "Add")}</button></div>
            </ActionForm>
            {move || save.value().get().map(|r| match r {
                Ok(e) => view! { <p class="info" role="status">{lang.t("已保存：", "Saved ")} {e.endpoint.name}</p> }.into_any(),
                Err(e) => view! { <p class="error-box" role="alert">{error_message(&e)}</p> }.into_any(),
            })}
            {move || delete.value().get().and_then(Result::err).map(|e| view! {
                <p class="error-box" role="alert">{error_message(&e)}</p>
            })}
        </section>
    }
}

/// The inputs of an endpoint, filled with `endpoint` when editing.
#[component]
fn EndpointFields(endpoint: Option<Endpoint>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let value =
        |f: fn(&Endpoint) -> Option<String>| endpoint.as_ref().and_then(f).unwrap_or_default();
    view! {
        <label class="field"><span>{lang.t("名称", "Name")}</span>
            <input name="name" required maxlength="64" value=value(|e| Some(e.name.clone())) placeholder="deepseek-flash" />
        </label>
        <label class="field"><span>{lang.t("地址", "Base URL")}</span>
            <input name="base_url" type="url" required value=value(|e| Some(e.base_url.clone())) placeholder="https://api.deepseek.com/v1" />
        </label>
        <label class="field"><span>{lang.t("模型", "Model")}</span>
            <input name="model" required maxlength="200" value=value(|e| Some(e.model.clone())) placeholder="DeepSeek-V4.1-Flash" />
        </label>
        <label class="field"><span>{lang.t("密钥环境变量名", "Key variable name")}</span>
            <input name="key_env" pattern="[A-Z_][A-Z0-9_]*" autocomplete="off" spellcheck="false"
                value=value(|e| e.key_env.clone()) placeholder="LEXPILOT_KEY_DEEPSEEK"
                title=lang.t("仅填写变量名，不要填写密钥", "The NAME of an environment variable, never the key") />
        </label>
        <label class="field"><span>{lang.t("厂商（可选）", "Vendor (optional)")}</span>
            <input name="vendor" maxlength="64" value=value(|e| e.vendor.clone()) placeholder="deepseek" />
        </label>
    }
}

/// The `<option>`s of a select of endpoints, with an empty first one if
/// `with_none`.
fn endpoint_options(endpoints: &[EndpointView], with_none: bool) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let none = with_none.then(|| {
        view! {
            <option value="">
                {lang.t("— 无（仅 LCA、LJP 直接/金标准预测）—", "— none (only LCA, LJP direct/gold) —")}
            </option>
        }
    });
    let options = endpoints
        .iter()
        .map(|e| &e.endpoint)
        .map(|e| view! { <option value=e.id.to_string()>{format!("{} · {}", e.name, e.model)}</option> })
        .collect_view();
    view! { {none} {options} }
}

/// The form that starts a job.
#[component]
fn StartForm(endpoints: Vec<EndpointView>, start: ServerAction<StartJob>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    if endpoints.is_empty() {
        return view! {
            <section class="panel">
                <h2>{lang.t("启动评测", "Start a run")}</h2>
                <p class="info">{lang.t("请先添加接口。", "Add an endpoint first.")}</p>
            </section>
        }
        .into_any();
    }
    // The chosen benchmark's fields only: the page's `?benchmark=` (LexPilot
    // by default) on the server, so a browser without JavaScript gets a form
    // of one benchmark and switches with the links under the select; the
    // select switches live once the page has hydrated.
    let query = leptos_router::hooks::use_query_map();
    let chosen = RwSignal::new(
        query
            .with_untracked(|q| q.get("benchmark"))
            .and_then(|b| Benchmark::parse(&b))
            .filter(|b| b.hosted())
            .unwrap_or(Benchmark::Lexpilot),
    );
    let hide = move |b: Benchmark| move || chosen.get() != b;
    let hide_unless = move |shown: &'static [Benchmark]| move || !shown.contains(&chosen.get());
    let defaults = PlawbenchSettings::default();
    let dlaw = DlawbenchSettings::default();
    let form = NodeRef::<leptos::html::Form>::new();
    let estimate = ServerAction::<EstimateJob>::new();
    // The estimate follows the form: asked again on every change in it.
    let re_estimate = move || {
        #[cfg(feature = "hydrate")]
        if let Some(form) = form.get_untracked() {
            use leptos::form::FromFormData;
            let Ok(data) = web_sys::FormData::new_with_form(&form) else {
                return;
            };
            match (
                StartJob::from_form_data(&data),
                crate::server_fns::jobs::PriceFields::from_form_data(&data),
            ) {
                (Ok(job), Ok(prices)) => {
                    estimate.dispatch(EstimateJob { job, prices });
                }
                _ => estimate.clear(),
            }
        }
    };
    Effect::new(move |_| re_estimate());
    view! {
        <section class="panel" on:change=move |_| re_estimate()>
            <h2>{lang.t("启动评测", "Start a run")}</h2>
            <ActionForm action=start node_ref=form attr:class="stack start-form">
                <div class="filters">
                    <label class="field"><span>{lang.t("评测基准", "Benchmark")}</span>
                        <select name="benchmark" data-testid="job-benchmark"
                            on:change=move |ev| {
                                if let Some(b) = Benchmark::parse(&event_target_value(&ev)) {
                                    chosen.set(b);
                                }
                            }>
                            {[Benchmark::Lexpilot, Benchmark::Plawbench, Benchmark::Dlawbench].into_iter().map(|b| view! {
                                <option value=b.as_str() selected=move || chosen.get() == b>{b.label(lang)}</option>
                            }).collect_view()}
                        </select>
                        <noscript>
                            <span class="muted benchmark-links">
                                {lang.t("显示设置：", "Show the settings of: ")}
                                {[Benchmark::Lexpilot, Benchmark::Plawbench, Benchmark::Dlawbench].into_iter().map(|b| view! {
                                    <a href=format!("/admin/runs?benchmark={}", b.as_str())>{b.label(lang)}</a> " "
                                }).collect_view()}
                            </span>
                        </noscript>
                    </label>
                    <label class="field"><span>{lang.t("被测模型", "Evaluated model")}</span>
                        <select name="model" required>{endpoint_options(&endpoints, false)}</select>
                    </label>
                    <label class="field" hidden=hide_unless(&[Benchmark::Lexpilot, Benchmark::Dlawbench])>
                        <span>{lang.t("用户模拟模型（LexPilot；DLawBench：模拟当事人）", "User model (LexPilot; DLawBench: the client)")}</span>
                        <select name="user">{endpoint_options(&endpoints, true)}</select>
                    </label>
                    <label class="field" hidden=hide(Benchmark::Lexpilot)><span>{lang.t("任务类型（LexPilot）", "Job kind (LexPilot)")}</span>
                        <select name="experiment" data-testid="job-experiment">
                            <option value="">{lang.t("下列评测任务", "The tasks below")}</option>
                            <option value=Experiment::Targeted.as_str()>
                                {lang.t(
                                    "定向与偏离追问实验（表4）（用户模型 + 第一位评审模型；使用工作台自带的构造与验证提示词）",
                                    "Targeted vs Off-target (Table 4) (user model + first judge; the workbench's own construction and validation prompts)",
                                )}
                            </option>
                            <option value=Experiment::Fidelity.as_str()>
                                {lang.t(
                                    "用户模拟器保真度研究（表13）（用户模型回答专家的探针，第一位评审模型担任 DCG 评审；不调用被测模型；探针见 /review/fidelity）",
                                    "User-simulator fidelity (Table 13) (the user model answers the experts' probes, the first judge as DCG judge; the evaluated model is not called; probes at /review/fidelity)",
                                )}
                            </option>
                        </select>
                    </label>
                    <label class="field" hidden=hide(Benchmark::Lexpilot)><span>{lang.t("用户设定（LexPilot）", "User condition (LexPilot)")}</span>
                        <select name="user_condition">
                            {conditions().iter().map(|(value, label)| view! { <option value=*value>{*label}</option> }).collect_view()}
                        </select>
                    </label>
                    <label class="field"><span>{lang.t("模型类别", "Family")}</span>
                        <select name="family">
                            <option value="">{lang.t("未设定 —", "— unset")}</option>
                            {Family::ALL.into_iter().map(|f| view! { <option value=f.as_str()>{f.label(lang)}</option> }).collect_view()}
                        </select>
                    </label>
                </div>
                <fieldset class="choice-group">
                    <legend>{lang.t(
                        "评审模型（可多选，组成评审团；LexPilot 与 DLawBench：与被测模型同厂商的评审模型回避）",
                        "Judges (several form a panel; LexPilot and DLawBench: a judge of the evaluated model's vendor recuses)",
                    )}</legend>
                    {endpoints.iter().map(|e| &e.endpoint).enumerate().map(|(i, e)| view! {
                        <label class="inline-check">
                            <input type="checkbox" name=format!("judges[{i}]") value=e.id.to_string() />
                            {format!("{} · {}", e.name, e.model)}
                        </label>
                    }).collect_view()}
                </fieldset>
                <fieldset class="choice-group" hidden=hide(Benchmark::Lexpilot)>
                    <legend>{lang.t("任务（LexPilot）", "Tasks (LexPilot)")}</legend>
                    {task_choices().into_iter().enumerate().map(|(i, (value, label))| view! {
                        <label class="inline-check">
                            <input type="checkbox" name=format!("tasks[{i}]") value=value checked />
                            {label}
                        </label>
                    }).collect_view()}
                </fieldset>
                <fieldset class="choice-group filters" hidden=hide(Benchmark::Plawbench) data-testid="plawbench-settings">
                    <legend>{lang.t("评分设置（PLawBench）", "PLawBench judging (PLawBench)")}</legend>
                    <label class="field"><span>{lang.t("评分解析", "Judge reply parsing")}</span>
                        <select name="judge_parse">
                            {ParseMode::ALL.into_iter().map(|m| view! {
                                <option value=m.as_str() selected=m == defaults.judge_parse>{parse_mode_label(lang, m)}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label class="field"><span>{lang.t("多评审汇总", "Panel aggregation")}</span>
                        <select name="judge_aggregation">
                            {Aggregation::ALL.into_iter().map(|a| view! {
                                <option value=a.as_str() selected=a == defaults.judge_aggregation>{a.label(lang)}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label class="field"><span>{lang.t("最大生成长度", "Max tokens")}</span>
                        <input name="max_tokens" type="number" min="1" value=defaults.max_tokens.to_string()
                            title=lang.t("文书被截断几乎不得分", "Generous: a truncated filing scores near zero") />
                    </label>
                    <label class="field"><span>{lang.t("模型家族（可选）", "Model family (optional)")}</span>
                        <input name="model_family" maxlength="64" placeholder="Qwen" />
                    </label>
                </fieldset>
                <fieldset class="choice-group filters" hidden=hide(Benchmark::Dlawbench) data-testid="dlawbench-settings">
                    <legend>{lang.t("访谈设置（DLawBench）", "Interviews (DLawBench)")}</legend>
                    <div class="choice-row">
                        {Style::ALL.into_iter().enumerate().map(|(i, style)| view! {
                            <label class="inline-check">
                                <input type="checkbox" name=format!("styles[{i}]") value=style.as_str()
                                    checked=dlaw.styles.contains(&style) />
                                {style.label(lang)}
                            </label>
                        }).collect_view()}
                    </div>
                    <label class="field"><span>{lang.t("最大轮数", "Turns at most")}</span>
                        <input name="horizon" type="number" min="1" max="50" value=dlaw.horizon.to_string()
                            title=lang.t("强制提交前的提问轮数", "Client-facing turns before a forced final submit") />
                    </label>
                    <label class="field"><span>{lang.t("律师模型尝试次数", "Lawyer attempts")}</span>
                        <input name="lawyer_attempts" type="number" min="1" max="10" value=dlaw.lawyer_attempts.to_string()
                            title=lang.t("每一步调用直至回复为有效的提问或提交；用尽则该会话记为律师模型错误", "Calls per step until a reply is a valid question or memo; after the last, the session ends as a lawyer error") />
                    </label>
                </fieldset>
                <div class="filters">
                    <label class="field" hidden=hide_unless(&[Benchmark::Plawbench, Benchmark::Dlawbench])>
                        <span>{match lang {
                            Lang::Zh => format!("评审尝试次数（PLawBench {}，DLawBench {}）", defaults.judge_attempts, dlaw.judge_attempts),
                            Lang::En => format!("Judge attempts (PLawBench {}, DLawBench {})", defaults.judge_attempts, dlaw.judge_attempts),
                        }}</span>
                        <input name="judge_attempts" type="number" min="1" max="10" placeholder=lang.t("默认", "default") />
                    </label>
                    <label class="field"><span>{lang.t("重复次数", "Runs")}</span>
                        <input name="runs" type="number" min="1" max="20" value="5" required
                            title=lang.t("论文取 5 次运行的均值 ± 标准差", "The papers report the mean ± std over 5 runs") />
                    </label>
                    <label class="field"><span>{lang.t("并发", "Concurrency per endpoint")}</span>
                        <input name="concurrency" type="number" min="1" max="64" value="4" required />
                    </label>
                    <label class="field"><span>{lang.t("仅前 N 个案例或题目（可选）", "Limit: first N cases or items (optional)")}</span>
                        <input name="limit" type="number" min="1" placeholder=lang.t("全部", "all") />
                    </label>
                </div>
                <details class="cost-fields">
                    <summary>{lang.t("费用估算（可选：每百万 token 的价格）", "Cost estimate (optional: prices per million tokens)")}</summary>
                    <div class="filters">
                        <label class="field"><span>{lang.t("输入价格 / 百万 token", "Input price / 1M tokens")}</span>
                            <input name="input_price" type="number" min="0" step="any" inputmode="decimal" data-testid="input-price" />
                        </label>
                        <label class="field"><span>{lang.t("输出价格 / 百万 token", "Output price / 1M tokens")}</span>
                            <input name="output_price" type="number" min="0" step="any" inputmode="decimal" data-testid="output-price" />
                        </label>
                        <label class="field"><span>{lang.t("每次调用的输入 token（假设）", "Input tokens per call (assumed)")}</span>
                            <input name="input_tokens" type="number" min="0" placeholder=engine::estimate::TokensPerCall::default().input.to_string() />
                        </label>
                        <label class="field"><span>{lang.t("每次调用的输出 token（假设）", "Output tokens per call (assumed)")}</span>
                            <input name="output_tokens" type="number" min="0" placeholder=engine::estimate::TokensPerCall::default().output.to_string() />
                        </label>
                    </div>
                </details>
                <JobEstimateView estimate />
                <div class="filter-actions">
                    <button type="submit" class="primary" data-testid="start-job">{lang.t("启动", "Start")}</button>
                </div>
            </ActionForm>
            {move || start.value().get().map(|r| match r {
                Ok(job) => view! { <p class="info" role="status">{lang.t("任务 #", "Job #")} {job.job.id} {lang.t(" 已启动。", " started.")}</p> }.into_any(),
                Err(e) => view! { <p class="error-box" role="alert">{error_message(&e)}</p> }.into_any(),
            })}
        </section>
    }
    .into_any()
}

/// A call count: the number when it is known, else the range.
fn calls_text(lang: Lang, calls: engine::estimate::Calls) -> String {
    if calls.is_exact() {
        lang.number(calls.max)
    } else {
        format!("{}–{}", lang.number(calls.min), lang.number(calls.max))
    }
}

/// What the job in the form would make: calls per role and, with prices,
/// the cost; or why the form's job would not start. Needs JavaScript (the
/// form's fields are read as they change).
#[component]
fn JobEstimateView(estimate: ServerAction<EstimateJob>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <div class="job-estimate" data-testid="job-estimate" aria-live="polite">
            {move || estimate.value().get().map(|result| match result {
                Ok(e) => match e.calls {
                    None => view! {
                        <p class="muted">{lang.t("实验任务不做调用估算。", "No call estimate for an experiment.")}</p>
                    }.into_any(),
                    Some(calls) => {
                        let total = calls.total();
                        let exact = total.is_exact();
                        let headline = match (lang, exact) {
                            (Lang::Zh, true) => format!("预计 {} 次调用", calls_text(lang, total)),
                            (Lang::Zh, false) => format!("预计 {} 次调用（上限为所有重试与最长对话）", calls_text(lang, total)),
                            (Lang::En, true) => format!("{} calls", calls_text(lang, total)),
                            (Lang::En, false) => format!("{} calls (the most if every judge retries and every dialogue runs its longest)", calls_text(lang, total)),
                        };
                        let (model, user, judges) = (calls_text(lang, calls.model), calls_text(lang, calls.user), calls_text(lang, calls.judges));
                        let (items, runs, seated, attempts) = (lang.number(calls.items), calls.runs, calls.seated_judges, calls.judge_attempts);
                        let detail = match lang {
                            Lang::Zh => format!("被测模型 {model} · 用户模型 / 模拟当事人 {user} · 评审 {judges}（{seated} 位就座评审，每次最多 {attempts} 次尝试）· 每次运行 {items} 项 × {runs} 次运行"),
                            Lang::En => format!("model {model} · user / client {user} · judges {judges} ({seated} seated, up to {attempts} attempts each) · {items} items per run × {runs} runs"),
                        };
                        let cost = e.cost.map(|(min, max)| {
                            let money = |x: f64| format!("{x:.2}");
                            let range = if (max - min).abs() < 0.005 { money(max) } else { format!("{}–{}", money(min), money(max)) };
                            let (input, output) = (lang.number(e.tokens.input), lang.number(e.tokens.output));
                            match lang {
                                Lang::Zh => format!("费用约 {range}（按每次调用输入 {input}、输出 {output} token 估算）"),
                                Lang::En => format!("cost about {range} (at {input} input and {output} output tokens per call)"),
                            }
                        });
                        view! {
                            <p><strong data-testid="estimate-calls">{headline}</strong></p>
                            <p class="muted">{detail}</p>
                            {cost.map(|c| view! { <p data-testid="estimate-cost">{c}</p> })}
                        }.into_any()
                    }
                },
                Err(e) => view! { <p class="muted" data-testid="estimate-error">{error_message(&e)}</p> }.into_any(),
            })}
        </div>
    }
}

/// The jobs panel: the live table of [`JobsTable`], or why the jobs could
/// not be read.
#[component]
fn JobsPanel(
    jobs: Result<Vec<JobView>, ServerFnError>,
    start: ServerAction<StartJob>,
) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    view! {
        <section class="panel">
            {match jobs {
                Ok(jobs) => view! { <JobsTable jobs start /> }.into_any(),
                Err(e) => view! {
                    <h2>{lang.t("任务", "Jobs")}</h2>
                    <ErrorBox error=e />
                }.into_any(),
            }}
        </section>
    }
}

/// The jobs, kept in a signal: a job started, cancelled or restarted here
/// shows at once (its action returns it), and every `jobs` or `runs` event
/// refetches the list, one fetch at a time, so a job whose progress changes
/// faster than a round trip cannot keep the list from ever updating.
#[component]
fn JobsTable(jobs: Vec<JobView>, start: ServerAction<StartJob>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let cancel = ServerAction::<CancelJob>::new();
    let restart = ServerAction::<RestartJob>::new();
    let live = use_live(&["jobs", "runs"]);
    let list = RwSignal::new(jobs);
    let refetch_error = RwSignal::new(None::<ServerFnError>);
    refresh_on_change(live, list_jobs, move |fetched| match fetched {
        Ok(fetched) => {
            list.try_update(|list| take_fetched(list, fetched, job_id));
            refetch_error.try_set(None);
        }
        Err(e) => {
            refetch_error.try_set(Some(e));
        }
    });
    for value in [start.value(), cancel.value(), restart.value()] {
        Effect::new(move |_| {
            if let Some(Ok(job)) = value.get() {
                list.update(|list| upsert_job(list, job, job_id));
            }
        });
    }
    let failed_action = move || {
        cancel
            .value()
            .get()
            .and_then(Result::err)
            .or_else(|| restart.value().get().and_then(Result::err))
            .or_else(|| refetch_error.get())
    };
    view! {
        <h2>{lang.t("任务 ", "Jobs ")} <LiveBadge live /></h2>
        {move || failed_action().map(|e| view! { <p class="error-box" role="alert">{error_message(&e)}</p> })}
        {move || if list.with(Vec::is_empty) {
            view! { <p class="muted">{lang.t("暂无任务。", "No job yet.")}</p> }.into_any()
        } else {
            view! {
                <div class="table-scroll" tabindex="0">
                    <table class="stats jobs" data-testid="jobs-table">
                        <thead>
                            <tr>
                                <th>"#"</th><th>{lang.t("任务", "Job")}</th><th>{lang.t("状态", "Status")}</th>
                                <th>{lang.t("进度", "Progress")}</th><th></th>
                            </tr>
                        </thead>
                        <tbody>
                            {list.get().into_iter().map(|job| view! { <JobRow job cancel restart /> }).collect_view()}
                        </tbody>
                    </table>
                </div>
            }.into_any()
        }}
    }
}

fn job_id(job: &JobView) -> i64 {
    job.job.id
}

/// Puts `job` in `list` in place of the one with its id, or adds it,
/// keeping the list newest (highest id) first as the server lists it.
fn upsert_job<T>(list: &mut Vec<T>, job: T, id: fn(&T) -> i64) {
    let key = id(&job);
    list.retain(|j| id(j) != key);
    let at = list.partition_point(|j| id(j) > key);
    list.insert(at, job);
}

/// Takes a refetched list (newest first, as the server lists it) in place of
/// `list`, keeping the jobs newer than any it holds: they were started here
/// after the fetch was made, and the next fetch (their start announced a
/// change) will list them.
fn take_fetched<T>(list: &mut Vec<T>, fetched: Vec<T>, id: fn(&T) -> i64) {
    let newest = fetched.iter().map(id).max().unwrap_or(i64::MIN);
    list.retain(|j| id(j) > newest);
    list.extend(fetched);
}

#[component]
fn JobRow(
    job: JobView,
    cancel: ServerAction<CancelJob>,
    restart: ServerAction<RestartJob>,
) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let cancel_requested = job.cancel_requested;
    let job = job.job;
    let spec = &job.spec;
    let meta = job_summary(spec);
    let progress = job.progress.clone().unwrap_or_default();
    let (done, total, failures) = (progress.done, progress.total, progress.failures);
    let (calls, cached, retries) = (progress.calls, progress.cached_calls, progress.retries);
    let took = elapsed(progress.elapsed_secs);
    let figures = match lang {
        Lang::Zh => format!(
            "{done}/{total} 项 · {failures} 项不可用 · {calls} 次请求 · {cached} 次缓存命中 · {retries} 次重试 · 用时 {took}"
        ),
        Lang::En => format!(
            "{done}/{total} items · {failures} unavailable · {calls} calls · {cached} cached · {retries} retries · {took} elapsed"
        ),
    };
    let by = job.created_by.clone().unwrap_or_else(|| "—".into());
    let at = lang.date_time(job.started_at.as_deref().unwrap_or(&job.created_at));
    let started = match lang {
        Lang::Zh => format!("由 {by} 启动 · {at}"),
        Lang::En => format!("started by {by} · {at}"),
    };
    let id = job.id.to_string();
    let actions = if job.status.is_active() {
        let label = if cancel_requested {
            lang.t("取消中", "Cancelling…")
        } else {
            lang.t("取消", "Cancel")
        };
        view! {
            <ActionForm action=cancel attr:class="inline">
                <input type="hidden" name="id" value=id />
                <button type="submit" class="danger" disabled=cancel_requested data-testid="cancel-job">{label}</button>
            </ActionForm>
        }
        .into_any()
    } else if job.status.is_restartable() {
        view! {
            <ActionForm action=restart attr:class="inline">
                <input type="hidden" name="id" value=id />
                <button type="submit" data-testid="restart-job">{lang.t("重新开始", "Restart")}</button>
            </ActionForm>
        }
        .into_any()
    } else if job.status == JobStatus::Done && spec.benchmark == Benchmark::Plawbench {
        view! { <a href="/plawbench/leaderboard">{lang.t("排行榜", "Leaderboard")}</a> }.into_any()
    } else if job.status == JobStatus::Done && spec.benchmark == Benchmark::Dlawbench {
        view! {
            <a href="/dlawbench/leaderboard">{lang.t("排行榜", "Leaderboard")}</a>
            " · "
            <a href="/dlawbench/leaderboard#styles">{lang.t("风格敏感性", "Style sensitivity")}</a>
        }
        .into_any()
    } else if job.status == JobStatus::Done {
        view! {
            <a href="/leaderboard">{lang.t("排行榜", "Leaderboard")}</a>
            " · "
            <a href=model_url(&spec.model.model)>{lang.t("模型页", "Model")}</a>
        }
        .into_any()
    } else {
        ().into_any()
    };
    let stored = (job.status == JobStatus::Done).then(|| {
        let runs = lang.count(job.runs_stored.max(0) as u64, "次运行", "run", "runs");
        let stored = match lang {
            Lang::Zh => format!(" · {runs}已入库"),
            Lang::En => format!(" · {runs} stored"),
        };
        view! { <span class="muted">{stored}</span> }
    });
    view! {
        <tr data-testid="job-row" data-status=job.status.as_str() data-benchmark=spec.benchmark.as_str()>
            <td class="num">{job.id}</td>
            <td>
                <strong>{spec.model.model.clone()}</strong>
                <span class="muted">{format!(" ({})", spec.model.name)}</span>
                <div class="job-meta">{meta}</div>
                <div class="job-meta">
                    {started}
                    {stored}
                </div>
                {job.error.clone().map(|e| view! { <div class="job-error" role="note">{e}</div> })}
            </td>
            <td><span class=format!("badge job-status job-{}", job.status.as_str())>{status_label(job.status)}</span></td>
            <td class="job-progress">
                <progress max=progress.total.max(1) value=progress.done>{format!("{}/{}", progress.done, progress.total)}</progress>
                <div class="job-meta">{figures}</div>
            </td>
            <td class="job-actions">{actions}</td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(job: &(i64, &str)) -> i64 {
        job.0
    }

    #[test]
    fn a_job_started_here_shows_before_the_list_is_refetched() {
        let mut list = vec![(2, "running"), (1, "done")];
        upsert_job(&mut list, (3, "queued"), id);
        assert_eq!(list, [(3, "queued"), (2, "running"), (1, "done")]);
        // A cancel returns the job in its new state, in its place.
        upsert_job(&mut list, (2, "cancelling"), id);
        assert_eq!(list, [(3, "queued"), (2, "cancelling"), (1, "done")]);
        // Into an empty list, and an old job restarted keeps its place.
        let mut empty = Vec::new();
        upsert_job(&mut empty, (7, "queued"), id);
        assert_eq!(empty, [(7, "queued")]);
        upsert_job(&mut list, (1, "queued"), id);
        assert_eq!(list, [(3, "queued"), (2, "cancelling"), (1, "queued")]);
    }

    #[test]
    fn a_refetch_made_before_a_start_keeps_the_started_job() {
        let mut list = vec![(3, "queued"), (2, "running"), (1, "done")];
        // Fetched before job 3 was created: job 3 stays, the rest follow the fetch.
        take_fetched(&mut list, vec![(2, "done"), (1, "done")], id);
        assert_eq!(list, [(3, "queued"), (2, "done"), (1, "done")]);
        // The next fetch lists job 3 and drops a job no longer listed.
        take_fetched(&mut list, vec![(3, "running"), (2, "done")], id);
        assert_eq!(list, [(3, "running"), (2, "done")]);
        // A fetch made before the first job was started keeps it.
        let mut first = vec![(1, "queued")];
        take_fetched(&mut first, Vec::new(), id);
        assert_eq!(first, [(1, "queued")]);
    }
}
