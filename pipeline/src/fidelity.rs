//! The user-simulator fidelity study of the LexPilot paper (Table 13,
//! Appendix E.3.2–E.3.3) against OpenAI-compatible endpoints: the user
//! model and the DCG judge. The rules (probes, the result file, Table 13)
//! are the engine's ([`engine::lexpilot::fidelity`]); this module makes the
//! calls.
//!
//! For every probe and each of its conditions (one item of the shared
//! runner, one repetition):
//!
//! 1. **Reply**: from a fresh copy of the case's underspecified
//!    consultation, the probe's question as the advisor's turn, the user
//!    model answers with the paper's standard user prompt (Table 22), as in
//!    the main evaluation, on the case's key facts (under D, the probe's
//!    withheld list).
//! 2. **DCG judge** (A–C only): the main evaluation's DCG judge prompt
//!    (Table 24) on the question alone, never the reply; its yes/no is read
//!    as DCG reads it, asked again up to the judge attempts while it does
//!    not parse.
//!
//! Every call goes through the call cache, so a resumed job repeats no
//! finished call. The result file is `<user model>.fidelity.jsonl` under
//! `out_dir`, checked with the engine's parser against the probes.

use std::path::PathBuf;
use std::sync::Arc;

use engine::core::dialogue::Turn;
use engine::core::errors::DatasetErrors;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::fidelity::{
    parse_fidelity, Condition, FidelityHeader, FidelityReply, FidelityRun, Probe,
};
use engine::vocab::Role;
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

/// Everything a [`Job`] needs besides the cases and probes.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The user model (the simulator under study).
    pub user: Endpoint,
    /// The DCG judge.
    pub judge: Endpoint,
    /// The dataset's name for the header.
    pub dataset_name: Option<String>,
    pub retry: RetryPolicy,
    pub limits: Limits,
    /// Where the result file, its usage sidecar and the call cache go.
    pub out_dir: PathBuf,
    /// Where finished calls are kept: the file under `out_dir` unless a
    /// store is given (the server keeps its jobs\' calls in its database).
    pub calls: crate::cache::Calls,
}

impl Config {
    /// Default limits and retries.
    pub fn new(user: Endpoint, judge: Endpoint, out_dir: PathBuf) -> Config {
        Config {
            user,
            judge,
            dataset_name: None,
            retry: RetryPolicy::default(),
            limits: Limits::default(),
            out_dir,
            calls: crate::cache::Calls::default(),
        }
    }
}

/// A configured study; see the [module documentation](self).
#[derive(Debug)]
pub struct Job {
    config: Config,
    /// (probe, its case).
    probes: Arc<Vec<(Probe, Case)>>,
    keys: [Option<ApiKey>; 2],
    progress: watch::Sender<Progress>,
}

type Unit = (usize, Condition);

impl Job {
    /// Checks `config` and pairs each probe with its case of `cases` (the
    /// probes were read against them: [`engine::lexpilot::fidelity::parse_probes`]).
    pub fn new(config: Config, probes: Vec<Probe>, cases: &[Case]) -> Result<Job, PipelineError> {
        let invalid = |m: String| Err(PipelineError::Config(m));
        if probes.is_empty() {
            return invalid("there are no probes".into());
        }
        for s in [&config.user, &config.judge].map(|e| e.settings) {
            if !(s.temperature.is_finite() && s.temperature >= 0.0) || s.max_tokens == 0 {
                return invalid("temperatures must be at least 0 and max_tokens at least 1".into());
            }
        }
        let mut paired = Vec::with_capacity(probes.len());
        for p in probes {
            let Some(case) = cases.iter().find(|c| c.case_id == p.case_id) else {
                return invalid(format!("probe of case {}: no such case", p.case_id));
            };
            paired.push((p, case.clone()));
        }
        let keys = [
            read_key("user", &config.user)?,
            read_key("judge", &config.judge)?,
        ];
        let (progress, _) = watch::channel(Progress::default());
        Ok(Job {
            config,
            probes: Arc::new(paired),
            keys,
            progress,
        })
    }

    /// A receiver of the job's progress.
    pub fn progress(&self) -> watch::Receiver<Progress> {
        self.progress.subscribe()
    }

    /// Replies to make: one per probe and condition.
    pub fn total_items(&self) -> usize {
        self.units().len()
    }

    fn units(&self) -> Vec<Unit> {
        self.probes
            .iter()
            .enumerate()
            .flat_map(|(i, (p, _))| p.conditions().into_iter().map(move |c| (i, c)))
            .collect()
    }

    /// The result file.
    pub fn path(&self) -> PathBuf {
        self.config
            .out_dir
            .join(format!("{}.fidelity.jsonl", slug(&self.config.user.model)))
    }

    /// The header, without `created_at`: the roles, the prompts' SHA-256
    /// and the generation settings.
    pub fn header(&self) -> FidelityHeader {
        let c = &self.config;
        let mut extra = Map::new();
        extra.insert("experiment".into(), json!("simulator_fidelity"));
        extra.insert("user_condition".into(), json!("standard"));
        extra.insert(
            "prompts".into(),
            json!({
                prompts::USER_STANDARD.name: prompts::USER_STANDARD.sha256(),
                prompts::JUDGE_DCG.name: prompts::JUDGE_DCG.sha256(),
            }),
        );
        extra.insert(
            "dcg_judge_key_facts".into(),
            json!(prompts::DCG_JUDGE_KEY_FACTS),
        );
        extra.insert(
            "generation".into(),
            json!({"user": c.user.settings, "judge": c.judge.settings}),
        );
        FidelityHeader {
            user_model: c.user.model.clone(),
            judge: Some(c.judge.model.clone()),
            dataset: c.dataset_name.clone(),
            created_at: None,
            extra,
        }
    }

    fn context(&self, client: Client) -> Result<Ctx, PipelineError> {
        let c = &self.config;
        let [user, judge] = self.keys.clone();
        Ok(Ctx {
            client,
            probes: self.probes.clone(),
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

    /// Runs the study; see the [module documentation](self).
    pub async fn run(
        self,
        cancel: CancellationToken,
    ) -> Result<RunOutput<FidelityRun>, PipelineError> {
        let c = &self.config;
        let plan = Plan {
            out_dir: &c.out_dir,
            calls: &c.calls,
            retry: c.retry,
            runs: vec![1],
            in_flight: (c.limits.concurrency.max(1) * 2).max(4),
            model: &c.user.model,
            progress: &self.progress,
        };
        let job = &self;
        let mut outputs = runner::run_all(
            plan,
            |client| job.context(client),
            &self.units(),
            cancel,
            |run, items, usage| job.write(run, items, usage),
        )
        .await?;
        outputs
            .pop()
            .ok_or_else(|| PipelineError::Task("the study wrote no result".into()))
    }

    async fn write(
        &self,
        run: u32,
        mut items: Vec<(Unit, ItemOut)>,
        usage: RunUsage,
    ) -> Result<RunOutput<FidelityRun>, PipelineError> {
        items.sort_by_key(|&((probe, condition), _)| (probe, condition));
        let mut header = self.header();
        header.created_at =
            Some(chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        let path = self.path();
        let files = (path.clone(), path.with_extension("usage.json"));
        let text = FidelityRun {
            header,
            replies: Vec::new(),
        }
        .to_jsonl();
        let probes: Vec<Probe> = self.probes.iter().map(|(p, _)| p.clone()).collect();
        runner::finish_run(
            run,
            files,
            text,
            &items,
            usage,
            "write the result file",
            |t| parse_fidelity(t, &probes).map_err(DatasetErrors),
        )
        .await
    }
}

/// What every item needs.
#[derive(Debug)]
struct Ctx {
    client: Client,
    probes: Arc<Vec<(Probe, Case)>>,
    user: Caller,
    judge: Caller,
    judge_attempts: u32,
}

impl Maker for Ctx {
    type Unit = Unit;

    fn client(&self) -> &Client {
        &self.client
    }

    async fn make(&self, run: &RunState, (i, condition): Unit) -> Result<ItemOut, Stop> {
        if self.client.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        let (probe, case) = &self.probes[i];
        let question = probe.question(condition);
        let sample = format!("{}.fidelity.{condition}", run.sample);
        let mut history = case.consultations.underspecified.clone();
        history.push(Turn {
            role: Role::Assistant,
            content: question.to_owned(),
        });
        let simulator = probe.simulator_case(case, condition);
        let prompt = prompts::user(UserCondition::Standard, &history, &simulator, 1);
        let mut unavailable = None;
        let reply = match split(
            self.client
                .complete(&self.user, &prompt, &sample, &run.usage)
                .await,
        )? {
            Ok(r) => Some(r),
            Err(why) => {
                unavailable = Some(format!("reply: {why}"));
                None
            }
        };
        let mut dcg_accepted = None;
        if condition != Condition::Withheld {
            let prompt = prompts::judge_dcg(question, case);
            for attempt in 1..=self.judge_attempts {
                let sample = format!("{sample}.dcg.judge{attempt}");
                match split(
                    self.client
                        .complete(&self.judge, &prompt, &sample, &run.usage)
                        .await,
                )? {
                    Ok(raw) => match parse::parse_acceptance(&raw) {
                        Ok(accepted) => {
                            dcg_accepted = Some(accepted);
                            break;
                        }
                        Err(e) if attempt == self.judge_attempts => {
                            unavailable.get_or_insert(format!(
                                "DCG judge: no valid reply in {attempt} attempt(s); the last: {e}"
                            ));
                        }
                        Err(_) => {}
                    },
                    Err(why) => {
                        unavailable.get_or_insert(format!("DCG judge: {why}"));
                        break;
                    }
                }
            }
        }
        let item = FidelityReply {
            case_id: case.case_id.clone(),
            condition,
            question: question.to_owned(),
            reply,
            dcg_accepted,
            unavailable,
        };
        let mut line = serde_json::to_value(&item).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut line {
            m.insert("kind".into(), engine::lexpilot::fidelity::ITEM_KIND.into());
        }
        Ok(ItemOut {
            unavailable: item.unavailable.is_some(),
            line: line.to_string(),
        })
    }
}
