//! Benchmark runs (admins only): the endpoints a job may use, a form to start
//! a pipeline job on the current dataset of a benchmark (LexPilot: tasks,
//! user model and condition; PLawBench: the judges' parse mode, aggregation
//! and attempts, max tokens; DLawBench: the client simulator, the styles, the
//! horizon, the lawyer's and judges' attempts; with JavaScript the form shows
//! the chosen benchmark's fields only), and the jobs with their live progress
//! (refetched when the change feed announces `jobs` or `runs`), a cancel
//! button, a restart button for stopped jobs, and links to the scores once a
//! job is done. Every form posts to a server function, so the page works
//! without JavaScript too (reload to see progress then). The server refuses
//! every call to anyone but an admin, whatever the page shows.

use engine::benchmark::Benchmark;
use engine::dlawbench::dataset::Style;
use engine::jobs::{
    DlawbenchSettings, Endpoint, Experiment, JobSpec, JobStatus, PlawbenchSettings,
};
use engine::lexpilot::run::{Family, Task};
use engine::plawbench::run::{Aggregation, ParseMode};
use engine::vocab::LjpSetup;
use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::labels::{error_message, ErrorBox, Loading};
use crate::components::live::{use_live, LiveBadge};
use crate::pages::model::model_url;
use crate::server_fns::jobs::{
    list_endpoints, list_jobs, CancelJob, DeleteEndpoint, EndpointView, JobView, RestartJob,
    SaveEndpoint, StartJob,
};

/// The user conditions of the pipeline (wire name, label).
const CONDITIONS: [(&str, &str); 7] = [
    ("standard", "Standard 标准用户"),
    ("delayed", "Delayed 延迟回答"),
    ("self_correction", "Self-correction 自我更正"),
    ("cooperative", "Cooperative 配合型"),
    ("dependent", "Dependent 依赖型"),
    ("withdrawn", "Withdrawn 寡言型"),
    ("adversarial", "Adversarial 对抗型"),
];

/// The tasks a job may run (wire name, label).
fn task_choices() -> Vec<(String, String)> {
    let mut choices: Vec<(String, String)> = [Task::Lca, Task::Dcg]
        .into_iter()
        .map(|t| {
            (
                t.as_str().to_owned(),
                format!("{} {}", t.as_str().to_uppercase(), t.label_zh()),
            )
        })
        .collect();
    choices.extend(LjpSetup::ALL.into_iter().map(|s| {
        (
            format!("ljp:{}", s.as_str()),
            format!("LJP {} {}", s.label_en(), s.label_zh()),
        )
    }));
    choices
}

fn status_label(status: JobStatus) -> &'static str {
    match status {
        JobStatus::Queued => "Queued 排队中",
        JobStatus::Running => "Running 运行中",
        JobStatus::Done => "Done 已完成",
        JobStatus::Failed => "Failed 失败",
        JobStatus::Cancelled => "Cancelled 已取消",
        JobStatus::Interrupted => "Interrupted 已中断",
    }
}

fn parse_mode_label(mode: ParseMode) -> &'static str {
    match mode {
        ParseMode::Lenient => "Lenient 宽松 (repairs trailing commas)",
        ParseMode::Strict => "Strict 严格 (evalscope 1.14.1)",
    }
}

/// What a job runs, in one line: its benchmark's settings, the dataset, the
/// runs and the scope.
fn job_summary(spec: &JobSpec) -> String {
    let judges = spec
        .judges
        .iter()
        .map(|j| j.model.as_str())
        .collect::<Vec<_>>()
        .join(" + ");
    let last_run = spec.first_run + spec.runs.saturating_sub(1);
    let runs = if spec.runs == 1 {
        format!("run {}", spec.first_run)
    } else {
        format!("runs {}–{last_run}", spec.first_run)
    };
    if let Some(experiment) = spec.experiment {
        let scope = match experiment {
            Experiment::Targeted => format!("{runs} · all underspecified cases"),
            Experiment::Fidelity => "every stored probe 全部探针".to_owned(),
        };
        return format!(
            "{} · user {} · judge {judges} · {} · {scope}",
            experiment.label_en(),
            spec.user.as_ref().map_or("—", |u| u.model.as_str()),
            spec.dataset,
        );
    }
    match spec.benchmark {
        Benchmark::Dlawbench => {
            let s = spec.dlawbench.clone().unwrap_or_default();
            let scope = match spec.limit {
                Some(n) => format!("first {n} cases 前 {n} 个案例"),
                None => "all cases 全部案例".to_owned(),
            };
            let styles = s
                .styles
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            format!(
                "DLawBench · {styles} · client {} · judges {judges} · horizon {} · lawyer {} / judge {} attempts · {} · {runs} · {scope}",
                spec.user.as_ref().map_or("—", |u| u.model.as_str()),
                s.horizon,
                s.lawyer_attempts,
                s.judge_attempts,
                spec.dataset,
            )
        }
        Benchmark::Plawbench => {
            let s = spec.plawbench.clone().unwrap_or_default();
            let scope = match spec.limit {
                Some(n) => format!("first {n} items 前 {n} 项"),
                None => "all items 全部题目".to_owned(),
            };
            format!(
                "PLawBench · judges {judges} · {} parse · {} · {} attempt{} · max tokens {} · {} · {runs} · {scope}",
                s.judge_parse,
                s.judge_aggregation,
                s.judge_attempts,
                if s.judge_attempts == 1 { "" } else { "s" },
                s.max_tokens,
                spec.dataset,
            )
        }
        _ => {
            let scope = match spec.limit {
                Some(n) => format!("first {n} cases 前 {n} 个案例"),
                None => "all cases 全部案例".to_owned(),
            };
            format!(
                "{} · judges {judges} · user {} · {} · {} · {runs} · {scope}",
                spec.tasks.join(", "),
                spec.user.as_ref().map_or("—", |u| u.model.as_str()),
                spec.user_condition,
                spec.dataset,
            )
        }
    }
}

fn elapsed(secs: f64) -> String {
    let whole = secs.max(0.0).round() as u64;
    format!("{}:{:02}", whole / 60, whole % 60)
}

#[component]
pub fn AdminRunsPage() -> impl IntoView {
    let save = ServerAction::<SaveEndpoint>::new();
    let delete = ServerAction::<DeleteEndpoint>::new();
    let endpoints = Resource::new(
        move || (save.version().get(), delete.version().get()),
        |_| list_endpoints(),
    );
    // The resource's source is first read after hydration; an endpoint saved
    // before that (a quick first click under load) changed the versions
    // before anything watched them, and the list kept its server-rendered
    // rows. Any version past 0 means a save or delete came back: refetch.
    Effect::new(move |_| {
        if save.version().get() + delete.version().get() > 0 {
            endpoints.refetch();
        }
    });
    view! {
        <Title text="Benchmark runs" />
        <section class="panel">
            <h1>"Benchmark runs 评测任务"</h1>
            <p>
                "Run LexPilot, PLawBench or DLawBench against OpenAI-compatible endpoints in the background; the runs land on the leaderboard of the benchmark's current dataset when the job is done. "
                "在后台对 OpenAI 兼容接口运行 LexPilot、PLawBench 或 DLawBench 评测，完成后结果自动进入该评测当前数据集的排行榜。"
            </p>
        </section>
        <Transition fallback=Loading>
            {move || Suspend::new(async move {
                match endpoints.await {
                    Ok(list) => view! { <BenchmarkAdmin endpoints=list save delete /> }.into_any(),
                    Err(e) => view! {
                        <section class="panel">
                            <p class="info" data-testid="runs-refused">
                                "Only admins configure and start benchmark runs. 仅管理员可以配置与启动评测。 "
                                {error_message(&e)} " · " <a href="/signin">"Sign in 登录"</a>
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
    save: ServerAction<SaveEndpoint>,
    delete: ServerAction<DeleteEndpoint>,
) -> impl IntoView {
    let start = ServerAction::<StartJob>::new();
    view! {
        <EndpointsPanel endpoints=endpoints.clone() save delete />
        <StartForm endpoints start />
        <JobsPanel start />
    }
}

/// The endpoints, each editable in place, and a form to add one.
#[component]
fn EndpointsPanel(
    endpoints: Vec<EndpointView>,
    save: ServerAction<SaveEndpoint>,
    delete: ServerAction<DeleteEndpoint>,
) -> impl IntoView {
    let empty = endpoints.is_empty();
    view! {
        <section class="panel">
            <h2>"Endpoints 接口"</h2>
            <p class="muted">
                "Keys are never entered here: give the NAME of an environment variable of the server that holds the key (such as DEEPSEEK_API_KEY). "
                "密钥不在此处填写：请填写服务器上保存密钥的环境变量名。"
            </p>
            {empty.then(|| view! { <p class="info">"No endpoint yet. 尚未配置接口。"</p> })}
            <div class="table-scroll">
                <table class="stats" data-testid="endpoints-table">
                    <thead>
                        <tr>
                            <th>"Name 名称"</th><th>"Base URL 地址"</th><th>"Model 模型"</th>
                            <th>"Key variable 密钥变量"</th><th>"Vendor 厂商"</th><th></th>
                        </tr>
                    </thead>
                    <tbody>
                        {endpoints.into_iter().map(|view| {
                            let (e, key_set) = (view.endpoint.clone(), view.key_set);
                            let (id, edit_id) = (e.id.to_string(), e.id.to_string());
                            let key = match (&e.key_env, key_set) {
                                (None, _) => view! { <span class="muted">"none 无"</span> }.into_any(),
                                (Some(var), true) => view! { <code>{var.clone()}</code> " " <span class="badge key-set">"set 已设置"</span> }.into_any(),
                                (Some(var), false) => view! { <code>{var.clone()}</code> " " <span class="badge key-missing">"not set 未设置"</span> }.into_any(),
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
                                            <summary>"Edit 编辑"</summary>
                                            <ActionForm action=save attr:class="stack endpoint-form">
                                                <input type="hidden" name="id" value=edit_id />
                                                <EndpointFields endpoint=Some(e.clone()) />
                                                <button type="submit">"Save 保存"</button>
                                            </ActionForm>
                                        </details>
                                        <ActionForm action=delete attr:class="inline">
                                            <input type="hidden" name="id" value=id />
                                            <button type="submit" class="danger">"Delete 删除"</button>
                                        </ActionForm>
                                    </td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <h3>"Add an endpoint 新增接口"</h3>
            <ActionForm action=save attr:class="endpoint-form filters">
                <EndpointFields endpoint=None />
                <div class="filter-actions"><button type="submit" class="primary">"Add 添加"</button></div>
            </ActionForm>
            {move || save.value().get().map(|r| match r {
                Ok(e) => view! { <p class="info" role="status">"Saved 已保存: " {e.endpoint.name}</p> }.into_any(),
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
    let value =
        |f: fn(&Endpoint) -> Option<String>| endpoint.as_ref().and_then(f).unwrap_or_default();
    view! {
        <label class="field"><span>"Name 名称"</span>
            <input name="name" required maxlength="64" value=value(|e| Some(e.name.clone())) placeholder="deepseek-flash" />
        </label>
        <label class="field"><span>"Base URL 地址"</span>
            <input name="base_url" type="url" required value=value(|e| Some(e.base_url.clone())) placeholder="https://api.deepseek.com/v1" />
        </label>
        <label class="field"><span>"Model 模型"</span>
            <input name="model" required maxlength="200" value=value(|e| Some(e.model.clone())) placeholder="DeepSeek-V4.1-Flash" />
        </label>
        <label class="field"><span>"Key variable name 密钥环境变量名"</span>
            <input name="key_env" pattern="[A-Z_][A-Z0-9_]*" autocomplete="off" spellcheck="false"
                value=value(|e| e.key_env.clone()) placeholder="DEEPSEEK_API_KEY"
                title="The NAME of an environment variable, never the key 仅填写变量名，不要填写密钥" />
        </label>
        <label class="field"><span>"Vendor 厂商 (optional)"</span>
            <input name="vendor" maxlength="64" value=value(|e| e.vendor.clone()) placeholder="deepseek" />
        </label>
    }
}

/// The `<option>`s of a select of endpoints, with an empty first one if
/// `with_none`.
fn endpoint_options(endpoints: &[EndpointView], with_none: bool) -> impl IntoView {
    let none = with_none
        .then(|| view! { <option value="">"— none 无 (only LCA, LJP direct/gold) —"</option> });
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
    if endpoints.is_empty() {
        return view! {
            <section class="panel">
                <h2>"Start a run 启动评测"</h2>
                <p class="info">"Add an endpoint first. 请先添加接口。"</p>
            </section>
        }
        .into_any();
    }
    // Which benchmark's fields to hide, once the select was changed in the
    // browser; the server's page shows both (nothing hidden without
    // JavaScript), so its render and the hydrated one agree.
    let chosen = RwSignal::new(None::<Benchmark>);
    let hide = move |b: Benchmark| move || chosen.get().is_some_and(|c| c != b);
    let hide_unless = move |shown: &'static [Benchmark]| {
        move || chosen.get().is_some_and(|c| !shown.contains(&c))
    };
    let defaults = PlawbenchSettings::default();
    let dlaw = DlawbenchSettings::default();
    view! {
        <section class="panel">
            <h2>"Start a run 启动评测"</h2>
            <ActionForm action=start attr:class="stack start-form">
                <div class="filters">
                    <label class="field"><span>"Benchmark 评测基准"</span>
                        <select name="benchmark" data-testid="job-benchmark"
                            on:change=move |ev| chosen.set(Benchmark::parse(&event_target_value(&ev)))>
                            {[Benchmark::Lexpilot, Benchmark::Plawbench, Benchmark::Dlawbench].into_iter().map(|b| view! {
                                <option value=b.as_str()>{b.label_zh()}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label class="field"><span>"Evaluated model 被测模型"</span>
                        <select name="model" required>{endpoint_options(&endpoints, false)}</select>
                    </label>
                    <label class="field" hidden=hide_unless(&[Benchmark::Lexpilot, Benchmark::Dlawbench])>
                        <span>"User model 用户模拟模型 (LexPilot; DLawBench: the client 模拟当事人)"</span>
                        <select name="user">{endpoint_options(&endpoints, true)}</select>
                    </label>
                    <label class="field" hidden=hide(Benchmark::Lexpilot)><span>"Job kind 任务类型 (LexPilot)"</span>
                        <select name="experiment" data-testid="job-experiment">
                            <option value="">"The tasks below 下列评测任务"</option>
                            <option value=Experiment::Targeted.as_str()>
                                {format!("{} · {} (user model + first judge; the workbench's own construction and validation prompts)", Experiment::Targeted.label_en(), Experiment::Targeted.label_zh())}
                            </option>
                            <option value=Experiment::Fidelity.as_str()>
                                {format!("{} · {} (the user model answers the experts' probes, the first judge as DCG judge; the evaluated model is not called; probes at /review/fidelity)", Experiment::Fidelity.label_en(), Experiment::Fidelity.label_zh())}
                            </option>
                        </select>
                    </label>
                    <label class="field" hidden=hide(Benchmark::Lexpilot)><span>"User condition 用户设定 (LexPilot)"</span>
                        <select name="user_condition">
                            {CONDITIONS.iter().map(|(value, label)| view! { <option value=*value>{*label}</option> }).collect_view()}
                        </select>
                    </label>
                    <label class="field"><span>"Family 模型类别"</span>
                        <select name="family">
                            <option value="">"— unset 未设定 —"</option>
                            {Family::ALL.into_iter().map(|f| view! { <option value=f.as_str()>{format!("{} {}", f.label_en(), f.label_zh())}</option> }).collect_view()}
                        </select>
                    </label>
                </div>
                <fieldset class="choice-group">
                    <legend>"Judges 评审模型 (several form a panel; LexPilot and DLawBench: a judge of the evaluated model's vendor recuses 同厂商回避)"</legend>
                    {endpoints.iter().map(|e| &e.endpoint).enumerate().map(|(i, e)| view! {
                        <label class="inline-check">
                            <input type="checkbox" name=format!("judges[{i}]") value=e.id.to_string() />
                            {format!("{} · {}", e.name, e.model)}
                        </label>
                    }).collect_view()}
                </fieldset>
                <fieldset class="choice-group" hidden=hide(Benchmark::Lexpilot)>
                    <legend>"Tasks 任务 (LexPilot)"</legend>
                    {task_choices().into_iter().enumerate().map(|(i, (value, label))| view! {
                        <label class="inline-check">
                            <input type="checkbox" name=format!("tasks[{i}]") value=value checked />
                            {label}
                        </label>
                    }).collect_view()}
                </fieldset>
                <fieldset class="choice-group filters" hidden=hide(Benchmark::Plawbench) data-testid="plawbench-settings">
                    <legend>"PLawBench judging 评分设置 (PLawBench)"</legend>
                    <label class="field"><span>"Judge reply parsing 评分解析"</span>
                        <select name="judge_parse">
                            {ParseMode::ALL.into_iter().map(|m| view! {
                                <option value=m.as_str() selected=m == defaults.judge_parse>{parse_mode_label(m)}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label class="field"><span>"Panel aggregation 多评审汇总"</span>
                        <select name="judge_aggregation">
                            {Aggregation::ALL.into_iter().map(|a| view! {
                                <option value=a.as_str() selected=a == defaults.judge_aggregation>{format!("{} {}", a.label_en(), a.label_zh())}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <label class="field"><span>"Max tokens 最大生成长度"</span>
                        <input name="max_tokens" type="number" min="1" value=defaults.max_tokens.to_string()
                            title="Generous: a truncated filing scores near zero 文书被截断几乎不得分" />
                    </label>
                    <label class="field"><span>"Model family 模型家族 (optional)"</span>
                        <input name="model_family" maxlength="64" placeholder="Qwen" />
                    </label>
                </fieldset>
                <fieldset class="choice-group filters" hidden=hide(Benchmark::Dlawbench) data-testid="dlawbench-settings">
                    <legend>"DLawBench interviews 访谈设置 (DLawBench)"</legend>
                    <div class="choice-row">
                        {Style::ALL.into_iter().enumerate().map(|(i, style)| view! {
                            <label class="inline-check">
                                <input type="checkbox" name=format!("styles[{i}]") value=style.as_str()
                                    checked=dlaw.styles.contains(&style) />
                                {format!("{} {}", style.label_en(), style.label_zh())}
                            </label>
                        }).collect_view()}
                    </div>
                    <label class="field"><span>"Horizon 最大轮数"</span>
                        <input name="horizon" type="number" min="1" max="50" value=dlaw.horizon.to_string()
                            title="Client-facing turns before a forced final submit 强制提交前的提问轮数" />
                    </label>
                    <label class="field"><span>"Lawyer attempts 律师模型尝试次数"</span>
                        <input name="lawyer_attempts" type="number" min="1" max="10" value=dlaw.lawyer_attempts.to_string()
                            title="Calls per step until a reply is a valid ask or submit; then lawyer_error" />
                    </label>
                </fieldset>
                <div class="filters">
                    <label class="field" hidden=hide_unless(&[Benchmark::Plawbench, Benchmark::Dlawbench])>
                        <span>{format!("Judge attempts 评审尝试次数 (PLawBench {}, DLawBench {})", defaults.judge_attempts, dlaw.judge_attempts)}</span>
                        <input name="judge_attempts" type="number" min="1" max="10" placeholder="default 默认" />
                    </label>
                    <label class="field"><span>"Runs 重复次数"</span>
                        <input name="runs" type="number" min="1" max="20" value="5" required
                            title="The papers report the mean ± std over 5 runs 论文取 5 次运行的均值 ± 标准差" />
                    </label>
                    <label class="field"><span>"Concurrency per endpoint 并发"</span>
                        <input name="concurrency" type="number" min="1" max="64" value="4" required />
                    </label>
                    <label class="field"><span>"Limit: first N cases or items 仅前 N 项 (optional)"</span>
                        <input name="limit" type="number" min="1" placeholder="all 全部" />
                    </label>
                    <div class="filter-actions">
                        <button type="submit" class="primary" data-testid="start-job">"Start 启动"</button>
                    </div>
                </div>
            </ActionForm>
            {move || start.value().get().map(|r| match r {
                Ok(job) => view! { <p class="info" role="status">"Job #" {job.job.id} " started. 任务已启动。"</p> }.into_any(),
                Err(e) => view! { <p class="error-box" role="alert">{error_message(&e)}</p> }.into_any(),
            })}
        </section>
    }
    .into_any()
}

/// The jobs, refetched on every `jobs` or `runs` event.
#[component]
fn JobsPanel(start: ServerAction<StartJob>) -> impl IntoView {
    let cancel = ServerAction::<CancelJob>::new();
    let restart = ServerAction::<RestartJob>::new();
    let live = use_live(&["jobs", "runs"]);
    let jobs = Resource::new(
        move || {
            (
                live.changes.get(),
                start.version().get(),
                cancel.version().get(),
                restart.version().get(),
            )
        },
        |_| list_jobs(),
    );
    let failed_action = move || {
        cancel
            .value()
            .get()
            .and_then(Result::err)
            .or_else(|| restart.value().get().and_then(Result::err))
    };
    view! {
        <section class="panel">
            <h2>"Jobs 任务 " <LiveBadge live /></h2>
            {move || failed_action().map(|e| view! { <p class="error-box" role="alert">{error_message(&e)}</p> })}
            <Transition fallback=Loading>
                {move || Suspend::new(async move {
                    match jobs.await {
                        Ok(list) if list.is_empty() => view! { <p class="muted">"No job yet. 暂无任务。"</p> }.into_any(),
                        Ok(list) => view! {
                            <div class="table-scroll">
                                <table class="stats jobs" data-testid="jobs-table">
                                    <thead>
                                        <tr>
                                            <th>"#"</th><th>"Job 任务"</th><th>"Status 状态"</th>
                                            <th>"Progress 进度"</th><th></th>
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {list.into_iter().map(|job| view! { <JobRow job cancel restart /> }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                        }.into_any(),
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn JobRow(
    job: JobView,
    cancel: ServerAction<CancelJob>,
    restart: ServerAction<RestartJob>,
) -> impl IntoView {
    let cancel_requested = job.cancel_requested;
    let job = job.job;
    let spec = &job.spec;
    let meta = job_summary(spec);
    let progress = job.progress.clone().unwrap_or_default();
    let figures = format!(
        "{}/{} items 项 · {} unavailable 不可用 · {} calls 请求 · {} cached 缓存 · {} retries 重试 · {} elapsed 用时",
        progress.done,
        progress.total,
        progress.failures,
        progress.calls,
        progress.cached_calls,
        progress.retries,
        elapsed(progress.elapsed_secs)
    );
    let id = job.id.to_string();
    let actions = if job.status.is_active() {
        let label = if cancel_requested {
            "Cancelling… 取消中"
        } else {
            "Cancel 取消"
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
                <button type="submit" data-testid="restart-job">"Restart 重新开始"</button>
            </ActionForm>
        }
        .into_any()
    } else if job.status == JobStatus::Done && spec.benchmark == Benchmark::Plawbench {
        view! { <a href="/plawbench/leaderboard">"Leaderboard 排行榜"</a> }.into_any()
    } else if job.status == JobStatus::Done && spec.benchmark == Benchmark::Dlawbench {
        view! {
            <a href="/dlawbench/leaderboard">"Leaderboard 排行榜"</a>
            " · "
            <a href="/dlawbench/leaderboard#styles">"Style sensitivity 风格敏感性"</a>
        }
        .into_any()
    } else if job.status == JobStatus::Done {
        view! {
            <a href="/leaderboard">"Leaderboard 排行榜"</a>
            " · "
            <a href=model_url(&spec.model.model)>"Model 模型页"</a>
        }
        .into_any()
    } else {
        ().into_any()
    };
    let stored = (job.status == JobStatus::Done).then(|| {
        view! { <span class="muted">{format!(" · {} run(s) stored 已入库", job.runs_stored)}</span> }
    });
    view! {
        <tr data-testid="job-row" data-status=job.status.as_str() data-benchmark=spec.benchmark.as_str()>
            <td class="num">{job.id}</td>
            <td>
                <strong>{spec.model.model.clone()}</strong>
                <span class="muted">{format!(" ({})", spec.model.name)}</span>
                <div class="job-meta">{meta}</div>
                <div class="job-meta">
                    {format!("started by {} · {}", job.created_by.clone().unwrap_or_else(|| "—".into()), job.started_at.clone().unwrap_or_else(|| job.created_at.clone()))}
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
