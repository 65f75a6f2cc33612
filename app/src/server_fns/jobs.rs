//! Benchmark endpoints and jobs (the `/admin/runs` page): configure
//! OpenAI-compatible endpoints, start a pipeline job in the background, watch,
//! cancel and restart it. Admins only: every function starts with
//! `require(Permission::RunBenchmark)`, whatever the page shows. The types are
//! the engine's ([`engine::jobs`]); the runner is `services::jobs`.
//!
//! An endpoint names the environment variable holding its API key; keys are
//! read by the job when it starts and appear in no row and no response.

// `start_job` takes one argument per form field; the `#[server]` macro also
// generates the browser's caller of it, which an attribute on the function
// does not reach.
#![allow(clippy::too_many_arguments)]

pub use engine::jobs::{EndpointView, JobView};
use leptos::prelude::*;

/// Every configured endpoint, by name.
#[server(prefix = "/sfn")]
pub async fn list_endpoints() -> Result<Vec<EndpointView>, ServerFnError> {
    use crate::ssr::{fail, require, state};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let endpoints = db::jobs::list_endpoints(&state()?.db).await.map_err(fail)?;
    Ok(endpoints
        .into_iter()
        .map(services::jobs::endpoint_view)
        .collect())
}

/// Creates an endpoint, or updates endpoint `id`. `key_env` is the NAME of
/// an environment variable (`[A-Z_][A-Z0-9_]*`) starting with the prefix the
/// operator set (`LEXPILOT_KEY_` by default); anything that looks like a
/// key is refused, without echoing it.
#[server(prefix = "/sfn")]
pub async fn save_endpoint(
    id: Option<i64>,
    name: String,
    base_url: String,
    model: String,
    key_env: Option<String>,
    vendor: Option<String>,
) -> Result<EndpointView, ServerFnError> {
    use engine::jobs::{check_endpoint, EndpointInput};

    use crate::ssr::{fail, require, state};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let input = EndpointInput {
        name: &name,
        base_url: &base_url,
        model: &model,
        key_env: key_env.as_deref(),
        vendor: vendor.as_deref(),
    };
    let fields = check_endpoint(&input).map_err(|m| fail(services::Error::Invalid(m)))?;
    let state = state()?;
    if let Some(var) = fields.key_env {
        engine::jobs::check_key_env_prefix(var, state.jobs.key_env_prefix())
            .map_err(|m| fail(services::Error::Invalid(m)))?;
    }
    let saved = db::jobs::save_endpoint(&state.db, id, fields)
        .await
        .map_err(fail)?;
    Ok(services::jobs::endpoint_view(saved))
}

/// Deletes endpoint `id` (jobs keep their own copy of it); returns `id`.
#[server(prefix = "/sfn")]
pub async fn delete_endpoint(id: i64) -> Result<i64, ServerFnError> {
    use crate::ssr::{fail, require, state};

    require(engine::accounts::Permission::RunBenchmark).await?;
    db::jobs::delete_endpoint(&state()?.db, id)
        .await
        .map_err(fail)?;
    Ok(id)
}

/// The latest jobs, newest first.
#[server(prefix = "/sfn")]
pub async fn list_jobs() -> Result<Vec<JobView>, ServerFnError> {
    use crate::ssr::{fail, require, state};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let state = state()?;
    state.jobs.list(&state.db).await.map_err(fail)
}

/// Job `id`.
#[server(prefix = "/sfn")]
pub async fn get_job(id: i64) -> Result<JobView, ServerFnError> {
    use crate::ssr::{fail, require, state};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let state = state()?;
    state.jobs.get(&state.db, id).await.map_err(fail)
}

/// Starts a job on the current dataset of `benchmark` (`lexpilot`, the
/// default, `plawbench` or `dlawbench`) in the background and returns it
/// queued. `model`, `user` and `judges` are endpoint ids (`user` may be empty
/// when no task needs the user model; PLawBench takes none; DLawBench's
/// client simulator is `user`); `tasks` are `lca`, `dcg`, `ljp`,
/// `ljp:direct`, `ljp:interaction`, `ljp:gold` (LexPilot only); `limit`
/// (optional) runs the first N cases or items only. `judge_attempts`
/// (PLawBench and DLawBench) defaults to the benchmark's own: one for
/// PLawBench, three for DLawBench. PLawBench's `judge_aggregation` (`mean`,
/// `median`), `judge_parse` (`lenient`, `strict`), `max_tokens` and
/// `model_family` default to evalscope's judging with the lenient parse and
/// 8192 tokens. DLawBench's `styles` (at least one), `horizon` and
/// `lawyer_attempts` default to §A2's horizon 10 and six attempts.
/// `experiment` (LexPilot; `targeted`) runs the Targeted vs Off-target
/// experiment (Table 4) instead of the tasks, with the user model and the
/// first judge; empty runs the tasks. A form
/// sends lists as `judges[0]=…&judges[1]=…`.
#[server(prefix = "/sfn")]
pub async fn start_job(
    benchmark: Option<String>,
    model: i64,
    user: Option<String>,
    judges: Option<Vec<i64>>,
    tasks: Option<Vec<String>>,
    runs: u32,
    concurrency: u32,
    user_condition: Option<String>,
    limit: Option<String>,
    family: Option<String>,
    judge_aggregation: Option<String>,
    judge_parse: Option<String>,
    judge_attempts: Option<String>,
    max_tokens: Option<String>,
    model_family: Option<String>,
    styles: Option<Vec<String>>,
    horizon: Option<String>,
    lawyer_attempts: Option<String>,
    experiment: Option<String>,
) -> Result<JobView, ServerFnError> {
    use crate::ssr::{current_dataset_of, fail, require, state};

    let account = require(engine::accounts::Permission::RunBenchmark).await?;
    let state = state()?;
    let request = job_request(StartJob {
        benchmark,
        model,
        user,
        judges,
        tasks,
        runs,
        concurrency,
        user_condition,
        limit,
        family,
        judge_aggregation,
        judge_parse,
        judge_attempts,
        max_tokens,
        model_family,
        styles,
        horizon,
        lawyer_attempts,
        experiment,
    })?;
    let dataset = current_dataset_of(&state.db, request.benchmark).await?;
    state
        .jobs
        .create(&state.db, &dataset, request, &account)
        .await
        .map_err(fail)
}

/// The job the start form asks for, each field read as [`start_job`]
/// documents; 400 naming the field for a value it refuses.
#[cfg(feature = "ssr")]
fn job_request(form: StartJob) -> Result<services::jobs::NewJobRequest, ServerFnError> {
    use engine::benchmark::Benchmark;
    use engine::dlawbench::dataset::Style;
    use engine::jobs::{DlawbenchSettings, PlawbenchSettings};
    use engine::vocab::Vocabulary;
    use services::jobs::NewJobRequest;
    use services::Error;

    use crate::ssr::fail;

    let StartJob {
        benchmark,
        model,
        user,
        judges,
        tasks,
        runs,
        concurrency,
        user_condition,
        limit,
        family,
        judge_aggregation,
        judge_parse,
        judge_attempts,
        max_tokens,
        model_family,
        styles,
        horizon,
        lawyer_attempts,
        experiment,
    } = form;
    let given = |v: Option<String>| v.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let benchmark = match given(benchmark) {
        None => Benchmark::Lexpilot,
        Some(b) => Benchmark::parse(&b).filter(|b| b.hosted()).ok_or_else(|| {
            fail(Error::Invalid(format!(
                "unknown benchmark {b:?}; expected lexpilot, plawbench or dlawbench"
            )))
        })?,
    };
    fn word<V: Vocabulary>(value: Option<String>, default: V) -> Result<V, ServerFnError> {
        match value {
            None => Ok(default),
            Some(v) => V::parse(&v).ok_or_else(|| {
                fail(Error::Invalid(format!(
                    "unknown {} {v:?}; expected {}",
                    V::KIND,
                    V::expected()
                )))
            }),
        }
    }
    let whole = |value: Option<String>, what: &str, default: u32| match value {
        None => Ok(default),
        Some(v) => match v.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(fail(Error::Invalid(format!(
                "{what} must be a whole number of at least 1"
            )))),
        },
    };
    let judge_attempts = given(judge_attempts);
    let defaults = PlawbenchSettings::default();
    let plawbench = PlawbenchSettings {
        judge_aggregation: word(given(judge_aggregation), defaults.judge_aggregation)?,
        judge_parse: word(given(judge_parse), defaults.judge_parse)?,
        judge_attempts: whole(
            judge_attempts.clone(),
            "the judge attempts",
            defaults.judge_attempts,
        )?,
        max_tokens: whole(given(max_tokens), "the max tokens", defaults.max_tokens)?,
        model_family: given(model_family),
    };
    let defaults = DlawbenchSettings::default();
    let dlawbench = DlawbenchSettings {
        styles: styles
            .unwrap_or_default()
            .into_iter()
            .filter_map(|s| given(Some(s)))
            .map(|s| word::<Style>(Some(s), Style::Cooperative))
            .collect::<Result<_, _>>()?,
        horizon: whole(given(horizon), "the horizon", defaults.horizon)?,
        lawyer_attempts: whole(
            given(lawyer_attempts),
            "the lawyer attempts",
            defaults.lawyer_attempts,
        )?,
        judge_attempts: whole(
            judge_attempts,
            "the judge attempts",
            defaults.judge_attempts,
        )?,
    };
    let user = match given(user) {
        None => None,
        Some(u) => Some(u.parse::<i64>().map_err(|_| {
            fail(Error::Invalid(format!(
                "the user endpoint must be an endpoint id, not {u:?}"
            )))
        })?),
    };
    let limit = match given(limit) {
        None => None,
        Some(l) => match l.parse::<u32>() {
            Ok(n) if n >= 1 => Some(n),
            _ => {
                return Err(fail(Error::Invalid(
                    "the limit must be a whole number of at least 1".into(),
                )))
            }
        },
    };
    let family = match given(family) {
        None => None,
        Some(f) => Some(engine::core::entry::Family::parse(&f).ok_or_else(|| {
            fail(Error::Invalid(format!(
                "unknown family {f:?}; expected legal, open or closed"
            )))
        })?),
    };
    let experiment = match given(experiment) {
        None => None,
        Some(e) => Some(word::<engine::jobs::Experiment>(
            Some(e),
            engine::jobs::Experiment::Targeted,
        )?),
    };
    Ok(NewJobRequest {
        benchmark,
        model,
        user,
        judges: judges.unwrap_or_default(),
        tasks: tasks.unwrap_or_default(),
        runs,
        concurrency,
        user_condition: user_condition.unwrap_or_else(|| "standard".to_owned()),
        limit,
        family,
        plawbench: Some(plawbench),
        dlawbench: Some(dlawbench),
        experiment,
    })
}

/// What the start form's job would make, before it is started: its calls
/// per role ([`engine::estimate`]: a range, exact where the protocol fixes
/// it) and, when `prices` are given, about what they cost at `tokens` per
/// call. The job is checked as a start checks it (an error names what a
/// start would refuse); nothing is stored.
#[server(prefix = "/sfn", input = server_fn::codec::Json)]
pub async fn estimate_job(
    job: StartJob,
    prices: PriceFields,
) -> Result<engine::estimate::JobEstimate, ServerFnError> {
    use crate::ssr::{current_dataset_of, fail, require, state};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let state = state()?;
    let request = job_request(job)?;
    let given = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    let (prices, tokens) = engine::estimate::cost_inputs(
        given(&prices.input_price).as_deref(),
        given(&prices.output_price).as_deref(),
        given(&prices.input_tokens).as_deref(),
        given(&prices.output_tokens).as_deref(),
    )
    .map_err(|e| fail(services::Error::Invalid(e)))?;
    let dataset = current_dataset_of(&state.db, request.benchmark).await?;
    let calls = services::jobs::estimate(&state.db, &dataset, request)
        .await
        .map_err(fail)?;
    Ok(engine::estimate::JobEstimate::new(calls, tokens, prices))
}

/// The cost fields beside the start form (blank: none, or the default
/// assumption for the tokens).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PriceFields {
    /// Per million input tokens.
    #[serde(default)]
    pub input_price: Option<String>,
    /// Per million output tokens.
    #[serde(default)]
    pub output_price: Option<String>,
    #[serde(default)]
    pub input_tokens: Option<String>,
    #[serde(default)]
    pub output_tokens: Option<String>,
}

/// One real call to endpoint `id` ([`services::jobs::test_endpoint`]: its
/// key from the variable it names, no retry, 30 s at most): the reply or why
/// there is none.
#[server(prefix = "/sfn")]
pub async fn test_endpoint(id: i64) -> Result<engine::jobs::EndpointTest, ServerFnError> {
    use crate::ssr::{fail, require, state};

    require(engine::accounts::Permission::RunBenchmark).await?;
    services::jobs::test_endpoint(&state()?.db, id)
        .await
        .map_err(fail)
}

/// Asks job `id` to stop: no new call starts, calls in flight finish and are
/// cached, and the job ends `cancelled` with nothing stored.
#[server(prefix = "/sfn")]
pub async fn cancel_job(id: i64) -> Result<JobView, ServerFnError> {
    use crate::ssr::{fail, require, state};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let state = state()?;
    state.jobs.cancel_job(&state.db, id).await.map_err(fail)
}

/// Starts failed, cancelled or interrupted job `id` again with the same
/// settings and out dir: every call its cache holds is not made again.
#[server(prefix = "/sfn")]
pub async fn restart_job(id: i64) -> Result<JobView, ServerFnError> {
    use crate::ssr::{fail, require, state};

    require(engine::accounts::Permission::RunBenchmark).await?;
    let state = state()?;
    state.jobs.restart(&state.db, id).await.map_err(fail)
}
