//! The Targeted vs Off-target experiment of the LexPilot paper (Table 4,
//! Appendix E.7) against OpenAI-compatible endpoints: the evaluated model,
//! the user model and one judge. The rules (validation, acceptance, the
//! result file, scores) are the engine's ([`engine::lexpilot::targeted`]);
//! this module makes the calls.
//!
//! For every run, every case with a missing fact and each condition (one
//! item of the shared runner):
//!
//! 1. **Construction**: from a fresh copy of the underspecified
//!    consultation, [`ROUNDS`] rounds of one question by the evaluated model
//!    (the condition's construction prompt, given the missing key facts and
//!    never the verdicts) and one answer by the user model (the paper's
//!    standard user prompt, Table 22, as interaction-based LJP uses it).
//! 2. **Validation**: the judge's prompt on the constructed turns; its JSON
//!    reply is read by [`engine::lexpilot::targeted::parse_validation`]
//!    (asked again, up to the judge attempts, while it does not parse; no
//!    valid reply rejects the attempt). A rejected dialogue is constructed
//!    again, told the reasons, up to [`MAX_ATTEMPTS`] attempts; then the
//!    case is unresolved.
//! 3. **Prediction**: on an accepted dialogue, the evaluated model in a
//!    fresh context with the direct prediction prompt (Table 21) over the
//!    consultation and the validated turns only, and the paper's extraction
//!    judge (Table 25) for one verdict per claim.
//!
//! The construction and validation prompts are the workbench's, not the
//! paper's (`pipeline/prompts/README.md`); every prompt used is hashed in
//! the header. Every call goes through the call cache, its sample tag naming
//! the run, condition, attempt and step, so a resumed job repeats no
//! finished call. A call out of retries makes the item unavailable.
//!
//! # Files (under `out_dir`)
//!
//! - `<model>.targeted.run<N>.jsonl`: the result file (the engine's module
//!   documentation), checked with its parser against the dataset;
//! - `<model>.targeted.run<N>.usage.json`: tokens and cost;
//! - `cache/calls.jsonl`: the call cache.

use std::path::PathBuf;
use std::sync::Arc;

use engine::core::dialogue::Turn;
use engine::core::entry::Family;
use engine::core::errors::DatasetErrors;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::run::RunHeader;
use engine::lexpilot::targeted::{
    experiment_cases, parse_targeted, parse_validation, Attempt, Condition, ItemStatus,
    TargetedItem, TargetedRun, Validation, ITEM_KIND, MAX_ATTEMPTS, ROUNDS,
};
use engine::vocab::{Role, Verdict};
use serde::Serialize;
use serde_json::{json, Map, Value};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::client::{split, Caller, Client, Stop};
use crate::config::{ApiKey, Endpoint, Limits, RetryPolicy, UserCondition};
use crate::error::PipelineError;
use crate::job::{Progress, RunOutput};
use crate::parse;
use crate::prompts;
use crate::runner::RunState;
use crate::runner::{self, read_key, slug, ItemOut, Maker, Plan};
use crate::usage::RunUsage;

/// Everything a [`Job`] needs besides the cases.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The evaluated model: it constructs the questions and predicts.
    pub model: Endpoint,
    /// The evaluated model's group, for the header.
    pub family: Option<Family>,
    /// The user model (simulated plaintiff).
    pub user: Endpoint,
    /// The validation judge, which also extracts the verdicts.
    pub judge: Endpoint,
    /// How many repetitions (the paper: five).
    pub runs: u32,
    /// The number of the first repetition.
    pub first_run: u32,
    /// The dataset's name for the header.
    pub dataset_name: Option<String>,
    pub retry: RetryPolicy,
    pub limits: Limits,
    /// Where result files, sidecars and the call cache go.
    pub out_dir: PathBuf,
    /// Where finished calls are kept: the file under `out_dir` unless a
    /// store is given (the server keeps its jobs\' calls in its database).
    pub calls: crate::cache::Calls,
}

impl Config {
    /// One run, default limits and retries.
    pub fn new(model: Endpoint, user: Endpoint, judge: Endpoint, out_dir: PathBuf) -> Config {
        Config {
            model,
            family: None,
            user,
            judge,
            runs: 1,
            first_run: 1,
            dataset_name: None,
            retry: RetryPolicy::default(),
            limits: Limits::default(),
            out_dir,
            calls: crate::cache::Calls::default(),
        }
    }
}

/// A configured experiment over a dataset; see the [module documentation](self).
#[derive(Debug)]
pub struct Job {
    config: Config,
    cases: Arc<Vec<Case>>,
    keys: [Option<ApiKey>; 3],
    progress: watch::Sender<Progress>,
}

type Unit = (usize, Condition);

impl Job {
    /// Checks `config` against `cases` and reads the API keys.
    pub fn new(config: Config, cases: Vec<Case>) -> Result<Job, PipelineError> {
        let invalid = |m: &str| Err(PipelineError::Config(m.to_owned()));
        if experiment_cases(&cases).next().is_none() {
            return invalid("the dataset has no case with a missing fact");
        }
        if config.runs == 0 || config.first_run == 0 {
            return invalid("runs and the first run number must be at least 1");
        }
        if config.model.model.trim().is_empty() {
            return invalid("the evaluated model has no name");
        }
        for s in [&config.model, &config.user, &config.judge].map(|e| e.settings) {
            if !(s.temperature.is_finite() && s.temperature >= 0.0) || s.max_tokens == 0 {
                return invalid("temperatures must be at least 0 and max_tokens at least 1");
            }
        }
        let keys = [
            read_key("model", &config.model)?,
            read_key("user", &config.user)?,
            read_key("judge", &config.judge)?,
        ];
        let (progress, _) = watch::channel(Progress::default());
        Ok(Job {
            config,
            cases: Arc::new(cases),
            keys,
            progress,
        })
    }

    /// A receiver of the job's progress.
    pub fn progress(&self) -> watch::Receiver<Progress> {
        self.progress.subscribe()
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The items over all runs: cases with a missing fact × 2 conditions × runs.
    pub fn total_items(&self) -> usize {
        self.units().len() * self.config.runs as usize
    }

    fn units(&self) -> Vec<Unit> {
        experiment_cases(&self.cases)
            .flat_map(|(i, _)| Condition::ALL.map(|c| (i, c)))
            .collect()
    }

    /// The result file of repetition `run`.
    pub fn run_path(&self, run: u32) -> PathBuf {
        self.config.out_dir.join(format!(
            "{}.targeted.run{run}.jsonl",
            slug(&self.config.model.model)
        ))
    }

    fn usage_path(&self, run: u32) -> PathBuf {
        self.config.out_dir.join(format!(
            "{}.targeted.run{run}.usage.json",
            slug(&self.config.model.model)
        ))
    }

    /// The header of repetition `run`, without `created_at`: the roles, the
    /// experiment's fixed settings, the SHA-256 of every prompt it uses
    /// (the workbench-authored ones marked as such) and the generation
    /// settings.
    pub fn header(&self, run: u32) -> RunHeader {
        let c = &self.config;
        let mut extra = Map::new();
        extra.insert("experiment".into(), json!("targeted_vs_off_target"));
        extra.insert("user_condition".into(), json!("standard"));
        extra.insert("max_attempts".into(), json!(MAX_ATTEMPTS));
        extra.insert("rounds".into(), json!(ROUNDS));
        extra.insert("construction_key_facts".into(), json!("missing"));
        let hashes: Map<String, Value> = prompts::TARGETED
            .iter()
            .map(|t| (t.name.to_owned(), Value::String(t.sha256())))
            .collect();
        extra.insert("prompts".into(), Value::Object(hashes));
        extra.insert(
            "workbench_prompts".into(),
            json!([
                prompts::TARGETED_CONSTRUCT.name,
                prompts::OFFTARGET_CONSTRUCT.name,
                prompts::TARGETED_VALIDATE.name
            ]),
        );
        extra.insert(
            "generation".into(),
            json!({"model": c.model.settings, "user": c.user.settings, "judge": c.judge.settings}),
        );
        RunHeader {
            model: c.model.model.clone(),
            family: c.family,
            run,
            dataset: c.dataset_name.clone(),
            judge: Some(c.judge.model.clone()),
            user_model: Some(c.user.model.clone()),
            created_at: None,
            extra,
        }
    }

    fn context(&self, client: Client) -> Result<Ctx, PipelineError> {
        let c = &self.config;
        let [model, user, judge] = self.keys.clone();
        Ok(Ctx {
            client,
            cases: self.cases.clone(),
            model: Caller::new("model".into(), c.model.clone(), model, c.limits)?,
            user: Caller::new("user".into(), c.user.clone(), user, c.limits)?,
            judge: Caller::new(
                format!("judge:{}", c.judge.model),
                c.judge.clone(),
                judge,
                c.limits,
            )?,
            judge_attempts: c.retry.judge_attempts.max(1),
        })
    }

    /// Runs the experiment; see the [module documentation](self).
    pub async fn run(
        self,
        cancel: CancellationToken,
    ) -> Result<Vec<RunOutput<TargetedRun>>, PipelineError> {
        let c = &self.config;
        let plan = Plan {
            out_dir: &c.out_dir,
            calls: &c.calls,
            retry: c.retry,
            runs: (c.first_run..c.first_run + c.runs).collect(),
            in_flight: (c.limits.concurrency.max(1) * 3).max(4),
            model: &c.model.model,
            progress: &self.progress,
        };
        let job = &self;
        runner::run_all(
            plan,
            |client| job.context(client),
            &self.units(),
            cancel,
            |run, items, usage| job.write_run(run, items, usage),
        )
        .await
    }

    async fn write_run(
        &self,
        run: u32,
        mut items: Vec<(Unit, ItemOut)>,
        usage: RunUsage,
    ) -> Result<RunOutput<TargetedRun>, PipelineError> {
        items.sort_by_key(|&((case, condition), _)| (case, condition));
        let mut header = self.header(run);
        header.created_at =
            Some(chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        let files = (self.run_path(run), self.usage_path(run));
        let text = TargetedRun {
            header,
            items: Vec::new(),
        }
        .to_jsonl();
        runner::finish_run(
            run,
            files,
            text,
            &items,
            usage,
            "write the result file",
            |t| parse_targeted(t, &self.cases).map_err(DatasetErrors),
        )
        .await
    }
}

/// What every item needs.
#[derive(Debug)]
struct Ctx {
    client: Client,
    cases: Arc<Vec<Case>>,
    model: Caller,
    user: Caller,
    judge: Caller,
    judge_attempts: u32,
}

/// One judge reply, kept in the item as in run files' `judge_outputs`.
#[derive(Debug, Clone, Serialize)]
struct JudgeOutput {
    step: String,
    attempt: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct Line<'a> {
    kind: &'static str,
    #[serde(flatten)]
    item: &'a TargetedItem,
    judge_outputs: &'a [JudgeOutput],
}

fn turn(role: Role, content: &str) -> Turn {
    Turn {
        role,
        content: content.to_owned(),
    }
}

impl Maker for Ctx {
    type Unit = Unit;

    fn client(&self) -> &Client {
        &self.client
    }

    async fn make(&self, run: &RunState, (case, condition): Unit) -> Result<ItemOut, Stop> {
        if self.client.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        let mut outputs = Vec::new();
        let item = self
            .item(run, &self.cases[case], condition, &mut outputs)
            .await?;
        Ok(ItemOut {
            unavailable: item.unavailable.is_some(),
            line: serde_json::to_string(&Line {
                kind: ITEM_KIND,
                item: &item,
                judge_outputs: &outputs,
            })
            .unwrap_or_default(),
        })
    }
}

impl Ctx {
    async fn call(
        &self,
        caller: &Caller,
        prompt: &str,
        sample: &str,
        run: &RunState,
    ) -> Result<Result<String, String>, Stop> {
        split(
            self.client
                .complete(caller, prompt, sample, &run.usage)
                .await,
        )
    }

    /// The judge's parsed reply, asked again while it does not parse.
    async fn judge<T>(
        &self,
        run: &RunState,
        step: &str,
        prompt: &str,
        parse: impl Fn(&str) -> Result<T, String>,
        outputs: &mut Vec<JudgeOutput>,
    ) -> Result<Result<T, String>, Stop> {
        let mut last = String::new();
        for attempt in 1..=self.judge_attempts {
            let sample = format!("{}.{step}.judge{attempt}", run.sample);
            let output = |raw: Option<String>, error: Option<String>| JudgeOutput {
                step: step.to_owned(),
                attempt,
                raw,
                error,
            };
            match self.call(&self.judge, prompt, &sample, run).await? {
                Ok(raw) => match parse(&raw) {
                    Ok(value) => {
                        outputs.push(output(Some(raw), None));
                        return Ok(Ok(value));
                    }
                    Err(e) => {
                        last =
                            format!("no valid judge reply in {attempt} attempt(s); the last: {e}");
                        outputs.push(output(Some(raw), Some(e)));
                    }
                },
                Err(why) => {
                    outputs.push(output(None, Some(why.clone())));
                    return Ok(Err(why));
                }
            }
        }
        Ok(Err(last))
    }

    /// One constructed dialogue (attempt `attempt`), or why it could not be
    /// made.
    async fn construct(
        &self,
        run: &RunState,
        case: &Case,
        condition: Condition,
        attempt: usize,
        feedback: &[String],
    ) -> Result<Result<Vec<Turn>, String>, Stop> {
        let mut history = case.consultations.underspecified.clone();
        let mut dialogue = Vec::with_capacity(2 * ROUNDS);
        for round in 1..=ROUNDS {
            let sample = format!("{}.{condition}.a{attempt}.r{round}", run.sample);
            let prompt = prompts::construct(condition, &history, case, attempt, round, feedback);
            let question = match self.call(&self.model, &prompt, &sample, run).await? {
                Ok(q) => q,
                Err(why) => return Ok(Err(format!("attempt {attempt}, question {round}: {why}"))),
            };
            let asked = turn(Role::Assistant, &question);
            history.push(asked.clone());
            dialogue.push(asked);
            let prompt = prompts::user(UserCondition::Standard, &history, case, round);
            let answer = match self.call(&self.user, &prompt, &sample, run).await? {
                Ok(a) => a,
                Err(why) => return Ok(Err(format!("attempt {attempt}, answer {round}: {why}"))),
            };
            let answered = turn(Role::User, &answer);
            history.push(answered.clone());
            dialogue.push(answered);
        }
        Ok(Ok(dialogue))
    }

    async fn item(
        &self,
        run: &RunState,
        case: &Case,
        condition: Condition,
        outputs: &mut Vec<JudgeOutput>,
    ) -> Result<TargetedItem, Stop> {
        let mut item = TargetedItem {
            case_id: case.case_id.clone(),
            condition,
            status: None,
            attempts: Vec::new(),
            dialogue: None,
            predictions: None,
            response: None,
            unavailable: None,
        };
        let mut feedback: Vec<String> = Vec::new();
        for attempt in 1..=MAX_ATTEMPTS {
            let dialogue = match self
                .construct(run, case, condition, attempt, &feedback)
                .await?
            {
                Ok(d) => d,
                Err(why) => {
                    item.unavailable = Some(why);
                    return Ok(item);
                }
            };
            let user_turns = ROUNDS;
            let validation: Result<Validation, String> = self
                .judge(
                    run,
                    &format!("{condition}.a{attempt}.validate"),
                    &prompts::validate(case, &dialogue),
                    |r| {
                        parse_validation(parse::strip_reasoning(r), case, user_turns)
                            .map_err(|e| e.to_string())
                    },
                    outputs,
                )
                .await?;
            let (validation, reasons) = match validation {
                Ok(v) => {
                    let reasons = v.reasons(condition);
                    (Some(v), reasons)
                }
                Err(why) => (None, vec![format!("no valid judge reply: {why}")]),
            };
            let accepted = validation.is_some() && reasons.is_empty();
            feedback.clone_from(&reasons);
            item.attempts.push(Attempt {
                attempt: attempt as u32,
                dialogue,
                validation,
                accepted,
                reasons,
            });
            if accepted {
                break;
            }
        }
        let Some(last) = item.attempts.last().filter(|a| a.accepted) else {
            item.status = Some(ItemStatus::Unresolved);
            return Ok(item);
        };
        item.status = Some(ItemStatus::Accepted);
        let dialogue = last.dialogue.clone();
        let mut history = case.consultations.underspecified.clone();
        history.extend(dialogue.iter().cloned());
        item.dialogue = Some(dialogue);
        let sample = format!("{}.{condition}.predict", run.sample);
        let reply = match self
            .call(&self.model, &prompts::ljp_direct(&history), &sample, run)
            .await?
        {
            Ok(r) => r,
            Err(why) => {
                item.unavailable = Some(format!("prediction: {why}"));
                return Ok(item);
            }
        };
        let claims = case.claims.len();
        let verdicts: Result<Vec<Verdict>, String> = self
            .judge(
                run,
                &format!("{condition}.verdicts"),
                &prompts::judge_ljp(&reply, case),
                |r| parse::parse_verdicts(r, claims).map_err(|e| e.to_string()),
                outputs,
            )
            .await?;
        item.response = Some(reply);
        match verdicts {
            Ok(v) => item.predictions = Some(v),
            Err(why) => item.unavailable = Some(format!("judge (verdicts): {why}")),
        }
        Ok(item)
    }
}
