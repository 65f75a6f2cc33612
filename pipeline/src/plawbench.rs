//! PLawBench against OpenAI-compatible endpoints
//! (`docs/benchmarks/plawbench.md` §B2, §B3): the evaluated model answers
//! each item, each judge of the panel grades the answer against the item's
//! rubric, and one run file per repetition is written that the engine
//! parses and scores.
//!
//! Per item:
//!
//! 1. **Model call** (§B2.1): one user message,
//!    [`engine::plawbench::judge::render_model_prompt`], no system message;
//!    the answer and its `finish_reason` are kept (a `length` is counted as
//!    truncated by the scores, →C-P13). A call that fails after the client's
//!    retries makes the item `unavailable` with the reason: never a zero.
//! 2. **Judge calls** (§B2.2), every judge at once: the system and user
//!    messages of [`engine::plawbench::judge::render_judge_prompts`], the
//!    reply read by [`engine::plawbench::judge::parse_judge_reply`] in the
//!    configured [`ParseMode`] (default `lenient`, →C-P7). A reply that does
//!    not parse is asked again (a new call) up to `judge_attempts` times
//!    (default 1, evalscope's, →C-P8); a seat whose replies never parse is
//!    `unavailable` with the parse error, one whose call fails for good with
//!    the call's error (→C-P3). The raw points are written; clamping and the
//!    panel's [`Aggregation`] are the engine's scoring.
//!
//! Every judge seats: PLawBench has no recusal (→C-P12). Every request is
//! cached per repetition and item (a judge's also per attempt), so two items
//! with the same text get their own answers and judgements, and each
//! repetition judges afresh even an answer it shares with another. Calls, the cache
//! (an interrupted run resumes without repeating a finished call), retries,
//! rate limits, usage, progress and cancellation are the pipeline's shared
//! machinery, as for LexPilot ([`crate::Job`]).
//!
//! # Files (under `out_dir`)
//!
//! - `<model>.plawbench.run<N>.jsonl`: the run file (§B3), written whole
//!   through a temporary file and checked with the engine's parser against
//!   the items;
//! - `<model>.plawbench.run<N>.usage.json`: tokens and cost ([`RunUsage`]);
//! - `cache/calls.jsonl`: the call cache ([`crate::cache`]), shared with any
//!   LexPilot job of the same out dir (their requests never collide).
//!
//! # Example
//!
//! ```no_run
//! use pipeline::config::Endpoint;
//! use pipeline::plawbench::{Config, Job};
//! use pipeline::CancellationToken;
//!
//! # async fn example(items: Vec<engine::plawbench::dataset::Item>) -> Result<(), pipeline::PipelineError> {
//! let config = Config::new(
//!     Endpoint::new("https://api.example.com/v1", "GPT-5.6-Sol").with_key_env("OPENAI_API_KEY"),
//!     Endpoint::judge("https://api.deepseek.com/v1", "DeepSeek-R1").with_key_env("DEEPSEEK_API_KEY"),
//!     "runs/".into(),
//! );
//! for run in Job::new(config, items)?.run(CancellationToken::new()).await? {
//!     println!("{}: {} unavailable", run.path.display(), run.parsed.unavailable());
//! }
//! # Ok(())
//! # }
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use engine::benchmark::Benchmark;
use engine::core::entry::Family;
use engine::core::panel::{Aggregation, JudgeSeat};
use engine::plawbench::dataset::{Item, JudgeType};
use engine::plawbench::judge::{self, JudgePrompts};
use engine::plawbench::run::{Judgement, ParseMode, RubricItem, Run, RunHeader, Source};
use futures_util::future::join_all;
use serde::Serialize;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::client::{split, Caller, Client, Stop};
use crate::config::{ApiKey, Endpoint, Limits, RetryPolicy};
use crate::error::PipelineError;
use crate::job::{Progress, RunOutput};
use crate::runner::{self, read_key, slug, ItemOut, Maker, Plan, RunState};
use crate::usage::RunUsage;

/// Everything a PLawBench [`Job`] needs besides the items.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The evaluated model; its `max_tokens` should be generous, since "a
    /// truncated filing is graded as an incomplete document and scores near
    /// zero" (default 8192).
    pub model: Endpoint,
    /// The evaluated model's group (`legal`, `open`, `closed`).
    pub family: Option<Family>,
    /// The vendor family of the official ranking (`Qwen`, `Claude`, …).
    pub model_family: Option<String>,
    /// The judge panel, in header order; model names unique.
    pub judges: Vec<Endpoint>,
    /// How the panel's judgements are combined (header `judge_aggregation`).
    pub aggregation: Aggregation,
    /// How judge replies are read (header `judge_parse`).
    pub parse: ParseMode,
    /// How many repetitions.
    pub runs: u32,
    /// The number of the first repetition (the others follow it).
    pub first_run: u32,
    /// The dataset's name for the run header.
    pub dataset_name: Option<String>,
    /// Retries and time limits; `judge_attempts` is the header's (requests
    /// per judge before its seat is unavailable).
    pub retry: RetryPolicy,
    /// Load limits, per endpoint.
    pub limits: Limits,
    /// Where run files, sidecars and the call cache go.
    pub out_dir: PathBuf,
    /// Where finished calls are kept: the file under `out_dir` unless a
    /// store is given (the server keeps its jobs\' calls in its database).
    pub calls: crate::cache::Calls,
}

impl Config {
    /// A configuration with one judge, evalscope's defaults (mean, one judge
    /// attempt), the lenient parse, one run and the default limits and
    /// retries.
    pub fn new(model: Endpoint, judge: Endpoint, out_dir: PathBuf) -> Config {
        Config {
            model,
            family: None,
            model_family: None,
            judges: vec![judge],
            aggregation: Aggregation::Mean,
            parse: ParseMode::Lenient,
            runs: 1,
            first_run: 1,
            dataset_name: None,
            retry: RetryPolicy {
                judge_attempts: 1,
                ..RetryPolicy::default()
            },
            limits: Limits::default(),
            out_dir,
            calls: crate::cache::Calls::default(),
        }
    }
}

/// A configured PLawBench job over a dataset's items; see the
/// [module documentation](self).
#[derive(Debug)]
pub struct Job {
    config: Config,
    items: Arc<Vec<Item>>,
    model_key: Option<ApiKey>,
    judge_keys: Vec<Option<ApiKey>>,
    progress: watch::Sender<Progress>,
}

impl Job {
    /// Checks `config` against `items` and reads the API keys from the
    /// environment.
    pub fn new(config: Config, items: Vec<Item>) -> Result<Job, PipelineError> {
        let invalid = |m: String| Err(PipelineError::Config(m));
        if items.is_empty() {
            return invalid("the dataset has no item".into());
        }
        if config.runs == 0 || config.first_run == 0 {
            return invalid("runs and the first run number must be at least 1".into());
        }
        if config.retry.judge_attempts == 0 {
            return invalid("judge attempts must be at least 1".into());
        }
        if config.judges.is_empty() {
            return invalid("no judge given".into());
        }
        for (role, name) in std::iter::once(("the evaluated model", &config.model.model))
            .chain(config.judges.iter().map(|j| ("a judge", &j.model)))
        {
            if let Err(e) = engine::names::check_name(name) {
                return invalid(format!("the name of {role} {e}"));
            }
        }
        let mut seen = BTreeSet::new();
        if let Some(twice) = config
            .judges
            .iter()
            .find(|j| !seen.insert(j.model.as_str()))
        {
            return invalid(format!(
                "the judge {} is given twice; a panel's judges are different models",
                twice.model
            ));
        }
        for s in std::iter::once(&config.model)
            .chain(&config.judges)
            .map(|e| e.settings)
        {
            if !(s.temperature.is_finite() && s.temperature >= 0.0) || s.max_tokens == 0 {
                return invalid("temperatures must be at least 0 and max_tokens at least 1".into());
            }
        }
        let model_key = read_key("model", &config.model)?;
        let judge_keys = config
            .judges
            .iter()
            .map(|j| read_key("judge", j))
            .collect::<Result<_, _>>()?;
        let (progress, _) = watch::channel(Progress::default());
        Ok(Job {
            config,
            items: Arc::new(items),
            model_key,
            judge_keys,
            progress,
        })
    }

    /// A receiver of the job's progress, updated as items finish and a few
    /// times a second.
    pub fn progress(&self) -> watch::Receiver<Progress> {
        self.progress.subscribe()
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The number of items the job makes over all its runs.
    pub fn total_items(&self) -> usize {
        self.items.len() * self.config.runs as usize
    }

    /// The run file of repetition `run`.
    pub fn run_path(&self, run: u32) -> PathBuf {
        self.config.out_dir.join(format!(
            "{}.plawbench.run{run}.jsonl",
            slug(&self.config.model.model)
        ))
    }

    fn usage_path(&self, run: u32) -> PathBuf {
        self.config.out_dir.join(format!(
            "{}.plawbench.run{run}.usage.json",
            slug(&self.config.model.model)
        ))
    }

    /// The header of repetition `run`, without `created_at` (§B3): the
    /// model, its groups, the dataset, the panel with each judge's vendor
    /// (configured, else derived from the name: [`crate::panel::vendor_of`]),
    /// the aggregation, parse mode and judge attempts, `source: workbench`,
    /// the generation settings, and as an extra field `prompts`, the SHA-256
    /// of every Appendix 1 template the items use. All but `run` are the same
    /// for every run of a job, so its runs form one leaderboard entry.
    pub fn header(&self, run: u32) -> RunHeader {
        let c = &self.config;
        let mut generation = Map::new();
        generation.insert("model".into(), json!(c.model.settings));
        generation.insert("judge".into(), json!(c.judges[0].settings));
        let mut extra = Map::new();
        extra.insert(
            "prompts".into(),
            Value::Object(template_hashes(&self.items)),
        );
        RunHeader {
            benchmark: Benchmark::Plawbench,
            model: c.model.model.clone(),
            family: c.family,
            model_family: c.model_family.clone(),
            run,
            dataset: c.dataset_name.clone(),
            judges: c
                .judges
                .iter()
                .map(|j| JudgeSeat {
                    model: j.model.clone(),
                    vendor: Some(j.vendor()),
                })
                .collect(),
            judge_aggregation: c.aggregation,
            judge_parse: c.parse,
            judge_attempts: c.retry.judge_attempts,
            source: Source::Workbench,
            generation: Some(generation),
            evalscope_version: None,
            created_at: None,
            extra,
        }
    }

    fn context(&self, client: Client) -> Result<Ctx, PipelineError> {
        let c = &self.config;
        let judges = c
            .judges
            .iter()
            .zip(&self.judge_keys)
            .map(|(e, key)| {
                Caller::new(
                    format!("judge:{}", e.model),
                    e.clone(),
                    key.clone(),
                    c.limits,
                )
            })
            .collect::<Result<_, _>>()?;
        Ok(Ctx {
            client,
            items: self.items.clone(),
            model: Caller::new(
                "model".into(),
                c.model.clone(),
                self.model_key.clone(),
                c.limits,
            )?,
            judges,
            parse: c.parse,
            judge_attempts: c.retry.judge_attempts,
        })
    }

    /// Runs the job; see the [module documentation](self).
    pub async fn run(
        self,
        cancel: CancellationToken,
    ) -> Result<Vec<RunOutput<Run>>, PipelineError> {
        let c = &self.config;
        let slots = c.limits.concurrency.max(1);
        let plan = Plan {
            out_dir: &c.out_dir,
            calls: &c.calls,
            retry: c.retry,
            runs: (c.first_run..c.first_run + c.runs).collect(),
            // Enough items that the model's slots never wait for a
            // judge's: `slots` being answered, `slots` waiting for a model
            // slot, and per judge `slots` judged and `slots` waiting.
            in_flight: (2 * slots * (c.judges.len() + 1)).max(4),
            model: &c.model.model,
            progress: &self.progress,
        };
        let units: Vec<usize> = (0..self.items.len()).collect();
        let job = &self;
        runner::run_all(
            plan,
            |client| job.context(client),
            &units,
            cancel,
            |run, items, usage| job.write_run(run, items, usage),
        )
        .await
    }

    /// Writes one run file and its usage sidecar, and parses the run back.
    async fn write_run(
        &self,
        run: u32,
        mut items: Vec<(usize, ItemOut)>,
        usage: RunUsage,
    ) -> Result<RunOutput<Run>, PipelineError> {
        items.sort_by_key(|(index, _)| *index);
        let mut header = self.header(run);
        header.created_at =
            Some(chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        let files = (self.run_path(run), self.usage_path(run));
        let text = Run {
            header,
            items: Vec::new(),
        }
        .to_stored();
        runner::finish_run(run, files, text, &items, usage, "write the run file", |t| {
            engine::plawbench::run::parse_run(t, &self.items)
        })
        .await
    }
}

/// The SHA-256 of each Appendix 1 template the items use, by name
/// (`task:case_analysis`, `user:case_analysis`, `judge_system:…`,
/// `judge_user:…`).
fn template_hashes(items: &[Item]) -> Map<String, Value> {
    let types: BTreeSet<JudgeType> = items.iter().map(Item::judge_type).collect();
    let mut hashes = BTreeMap::new();
    for t in types {
        for (kind, text) in [
            ("task", judge::task_instructions(t)),
            ("user", judge::user_template(t)),
            ("judge_system", judge::judge_system_template(t)),
            ("judge_user", judge::judge_user_template(t)),
        ] {
            hashes.insert(format!("{kind}:{}", t.as_str()), Value::from(sha256(text)));
        }
    }
    hashes.into_iter().collect()
}

fn sha256(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// Everything an item needs: the client, the model and the panel, the items.
#[derive(Debug)]
struct Ctx {
    client: Client,
    items: Arc<Vec<Item>>,
    model: Caller,
    judges: Vec<Caller>,
    parse: ParseMode,
    judge_attempts: u32,
}

/// The cache tag of `item`'s calls in `run`: the repetition and the item,
/// so that two items with the same text are two samples, and a resumed run
/// finds each item's own calls.
fn item_sample(run: &RunState, item: &Item) -> String {
    format!("{}.item={}", run.sample, item.item_id)
}

/// A run-file line: `kind` first, then the item.
fn line(item: &RubricItem) -> String {
    #[derive(Serialize)]
    struct Line<'a> {
        kind: &'static str,
        #[serde(flatten)]
        item: &'a RubricItem,
    }
    serde_json::to_string(&Line {
        kind: "rubric",
        item,
    })
    .unwrap_or_default()
}

impl Maker for Ctx {
    /// The item's index in the dataset.
    type Unit = usize;

    fn client(&self) -> &Client {
        &self.client
    }

    async fn make(&self, run: &RunState, index: usize) -> Result<ItemOut, Stop> {
        if self.client.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        let item = &self.items[index];
        let prompt = judge::render_model_prompt(item);
        let mut out = RubricItem {
            item_id: item.item_id.clone(),
            task: item.task,
            response: None,
            finish_reason: None,
            prompt_sha256: Some(sha256(&prompt)),
            judgements: Vec::new(),
            unavailable: None,
        };
        // Every item is its own sample, even one whose text another item
        // shares: at a temperature above 0 each needs its own answer.
        let sample = item_sample(run, item);
        let answer = self
            .client
            .chat(
                &self.model,
                &[("user", prompt.as_str())],
                &sample,
                &run.usage,
            )
            .await;
        match split(answer)? {
            Err(reason) => out.unavailable = Some(reason),
            Ok(answer) => {
                let prompts = judge::render_judge_prompts(item, &prompt, &answer.content);
                let judged = join_all(
                    self.judges
                        .iter()
                        .map(|j| self.judge(run, j, item, &prompts)),
                )
                .await;
                out.judgements = judged.into_iter().collect::<Result<_, _>>()?;
                out.response = Some(answer.content);
                out.finish_reason = answer.finish_reason;
            }
        }
        let unavailable =
            out.unavailable.is_some() || out.judgements.iter().all(|j| j.awarded.is_none());
        Ok(ItemOut {
            line: line(&out),
            unavailable,
        })
    }
}

impl Ctx {
    /// One seat's judgement: up to `judge_attempts` requests until a reply
    /// parses in the run's mode.
    async fn judge(
        &self,
        run: &RunState,
        judge: &Caller,
        item: &Item,
        prompts: &JudgePrompts,
    ) -> Result<Judgement, Stop> {
        let messages = [
            ("system", prompts.system.as_str()),
            ("user", prompts.user.as_str()),
        ];
        let mut judgement = Judgement {
            judge: judge.endpoint.model.clone(),
            awarded: None,
            reported_max: None,
            judge_output: None,
            attempts: None,
            unavailable: None,
        };
        for attempt in 1..=self.judge_attempts.max(1) {
            judgement.attempts = Some(attempt);
            // Each repetition and each item is judged afresh, even an answer
            // it shares with another: a run's spread covers the judges' as
            // well.
            let sample = format!("{}.attempt{}", item_sample(run, item), attempt - 1);
            let reply = self
                .client
                .chat(judge, &messages, &sample, &run.usage)
                .await;
            let reply = match split(reply)? {
                Ok(reply) => reply,
                Err(reason) => {
                    judgement.unavailable = Some(reason);
                    return Ok(judgement);
                }
            };
            match judge::parse_judge_reply(&reply.content, item, self.parse) {
                Ok(parsed) => {
                    judgement.awarded = Some(parsed.awarded);
                    judgement.reported_max = parsed.reported_max;
                    judgement.unavailable = None;
                    judgement.judge_output = Some(reply.content);
                    return Ok(judgement);
                }
                Err(e) => {
                    judgement.unavailable = Some(e.0);
                    judgement.judge_output = Some(reply.content);
                }
            }
        }
        Ok(judgement)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_of_the_items_is_hashed() {
        let items = engine::plawbench::dataset::parse_dataset(concat!(
            r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 5}"#,
            "\n",
            r#"{"item_id": "plaintiff_statement-1", "task": "plaintiff_statement", "question": "q", "rubric": "r", "max_points": 5}"#,
        ))
        .expect("items");
        let hashes = template_hashes(&items);
        assert_eq!(hashes.len(), 8);
        assert_eq!(
            hashes["judge_user:legal_qa"], hashes["judge_user:document_generation"],
            "the two tasks share their judge user template"
        );
        assert!(!hashes.contains_key("task:case_analysis"));
    }

    #[test]
    fn a_panel_needs_distinct_named_judges() {
        let judge = Endpoint::judge("http://127.0.0.1:9/v1", "J");
        let mut config = Config::new(
            Endpoint::new("http://127.0.0.1:9/v1", "M"),
            judge.clone(),
            PathBuf::from("/tmp"),
        );
        let items = engine::plawbench::dataset::parse_dataset(
            r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "q", "rubric": "r", "max_points": 5}"#,
        )
        .expect("items");
        let job = Job::new(config.clone(), items.clone()).expect("valid");
        let header = job.header(2);
        assert_eq!(header.judge_attempts, 1);
        assert_eq!(header.judge_parse, ParseMode::Lenient);
        assert_eq!(header.judges[0].vendor.as_deref(), Some("j"));
        assert!(job.run_path(2).ends_with("M.plawbench.run2.jsonl"));

        config.judges.push(judge);
        let e = Job::new(config.clone(), items.clone()).expect_err("twice");
        assert!(e.to_string().contains("given twice"), "{e}");
        config.judges.clear();
        assert!(Job::new(config, items).is_err());
    }
}
