//! A pipeline job: the configured runs over a dataset, as a unit the CLI
//! runs in the foreground and the web server can run in the background.
//!
//! [`Job::new`] checks the configuration and reads the API keys;
//! [`Job::progress`] hands out a `watch` receiver of [`Progress`];
//! [`Job::run`] makes every item of every run, at most a few items per
//! endpoint slot in flight, writes each run file as soon as its last item is
//! done, and returns the [`RunOutput`]s. Cancelling the token stops it
//! gracefully: no new request starts, requests in flight finish and are
//! cached, and the job returns [`PipelineError::Cancelled`]; running the same
//! job again resumes from the cache. Dropping the future instead aborts at
//! once (calls in flight are then repeated on resume; finished ones never).
//!
//! # Files (under `out_dir`)
//!
//! - `<model>[.<condition>].run<N>.jsonl`: the run file (`docs/formats.md` §3),
//!   written whole through a temporary file and checked with the engine's
//!   parser against the dataset;
//! - `<model>[.<condition>].run<N>.usage.json`: tokens and cost ([`RunUsage`]);
//! - `cache/calls.jsonl`: the call cache ([`crate::cache`]).
//!
//! `<model>` is the model name with every character but ASCII letters,
//! digits, `.`, `-` and `_` replaced by `_`; the condition is added when it
//! is not `standard`.

use std::path::PathBuf;
use std::sync::Arc;

use engine::lexpilot::dataset::Case;
use engine::lexpilot::run::{Run, RunHeader};
use engine::vocab::Consultation;
use serde::Serialize;
use serde_json::{json, Map, Value};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::client::{Caller, Client};
use crate::config::{ApiKey, Config, Endpoint, UserCondition};
use crate::error::PipelineError;
use crate::panel;
use crate::prompts;
use crate::runner::{self, read_key, slug, ItemOut, Plan};
use crate::tasks::{Ctx, Unit};
use crate::usage::RunUsage;

/// How far a job is: the engine's one progress type, published as the job goes.
pub use engine::jobs::Progress;

/// One finished run, of LexPilot (`R` = [`Run`]) or of another benchmark
/// (`R` = that benchmark's run type, such as
/// [`engine::plawbench::run::Run`]).
#[derive(Debug, Clone)]
pub struct RunOutput<R = Run> {
    /// The repetition.
    pub run: u32,
    /// The run file.
    pub path: PathBuf,
    /// The usage sidecar.
    pub usage_path: PathBuf,
    /// Its tokens and cost.
    pub usage: RunUsage,
    /// The run as the engine parsed it back.
    pub parsed: R,
}

/// A configured job over a dataset; see the [module documentation](self).
#[derive(Debug)]
pub struct Job {
    config: Config,
    cases: Arc<Vec<Case>>,
    keys: Keys,
    seats: Vec<usize>,
    progress: watch::Sender<Progress>,
}

#[derive(Debug)]
struct Keys {
    model: Option<ApiKey>,
    user: Option<ApiKey>,
    judges: Vec<Option<ApiKey>>,
}

impl Job {
    /// Checks `config` against `cases` and reads the API keys from the
    /// environment.
    pub fn new(config: Config, cases: Vec<Case>) -> Result<Job, PipelineError> {
        let invalid = |m: &str| Err(PipelineError::Config(m.to_owned()));
        if cases.is_empty() {
            return invalid("the dataset has no case");
        }
        if config.tasks.is_empty() {
            return invalid("no task selected");
        }
        if config.runs == 0 || config.first_run == 0 {
            return invalid("runs and the first run number must be at least 1");
        }
        if config.judges.is_empty() {
            return invalid("no judge given");
        }
        if config.model.model.trim().is_empty() {
            return invalid("the evaluated model has no name");
        }
        let settings = std::iter::once(&config.model)
            .chain(std::iter::once(&config.user))
            .chain(&config.judges)
            .map(|e| e.settings);
        for s in settings {
            if !(s.temperature.is_finite() && s.temperature >= 0.0) || s.max_tokens == 0 {
                return invalid("temperatures must be at least 0 and max_tokens at least 1");
            }
        }
        let model_vendor = config.model.vendor();
        let vendors: Vec<String> = config.judges.iter().map(Endpoint::vendor).collect();
        let vendor_refs: Vec<&str> = vendors.iter().map(String::as_str).collect();
        let Some(seats) = panel::seated(&model_vendor, &vendor_refs) else {
            return Err(PipelineError::Config(format!(
                "every judge is from the evaluated model's vendor ({model_vendor}) and recuses; \
                 add a judge from another vendor"
            )));
        };
        let keys = Keys {
            model: read_key("model", &config.model)?,
            user: if config.tasks.uses_user_model() {
                read_key("user", &config.user)?
            } else {
                None
            },
            judges: seats
                .iter()
                .map(|&i| read_key("judge", &config.judges[i]))
                .collect::<Result<_, _>>()?,
        };
        let (progress, _) = watch::channel(Progress::default());
        Ok(Job {
            config,
            cases: Arc::new(cases),
            keys,
            seats,
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
        self.units().len() * self.config.runs as usize
    }

    /// The run file of repetition `run`.
    pub fn run_path(&self, run: u32) -> PathBuf {
        self.config
            .out_dir
            .join(format!("{}.run{run}.jsonl", self.stem()))
    }

    fn usage_path(&self, run: u32) -> PathBuf {
        self.config
            .out_dir
            .join(format!("{}.run{run}.usage.json", self.stem()))
    }

    fn stem(&self) -> String {
        let model = slug(&self.config.model.model);
        match self.config.user_condition {
            UserCondition::Standard => model,
            c => format!("{model}.{}", c.as_str()),
        }
    }

    /// The header of repetition `run`, without `created_at`: the model, its
    /// family, the dataset, the judge(s) and the user model, and as extra
    /// fields the user condition, the seated and recused judges with the
    /// aggregation rule, the SHA-256 of every prompt the tasks may use and the
    /// generation settings. All but `run` are the same for every run of a
    /// job, so its runs form one leaderboard entry.
    pub fn header(&self, run: u32) -> RunHeader {
        let c = &self.config;
        let seated: Vec<&Endpoint> = self.seats.iter().map(|&i| &c.judges[i]).collect();
        let judge_entry = |e: &Endpoint| json!({"model": e.model, "vendor": e.vendor()});
        let mut extra = Map::new();
        extra.insert("user_condition".into(), json!(c.user_condition.as_str()));
        extra.insert(
            "judges".into(),
            Value::Array(seated.iter().map(|e| judge_entry(e)).collect()),
        );
        let recused: Vec<Value> = c
            .judges
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.seats.contains(i))
            .map(|(_, e)| judge_entry(e))
            .collect();
        if !recused.is_empty() {
            extra.insert("recused_judges".into(), Value::Array(recused));
        }
        extra.insert("judge_aggregation".into(), json!(panel::rule(seated.len())));
        if c.tasks.dcg {
            extra.insert(
                "dcg_judge_key_facts".into(),
                json!(prompts::DCG_JUDGE_KEY_FACTS),
            );
        }
        let prompts: Map<String, Value> = prompts::used(&c.tasks, c.user_condition)
            .into_iter()
            .map(|t| (t.name.to_owned(), Value::String(t.sha256())))
            .collect();
        extra.insert("prompts".into(), Value::Object(prompts));
        let mut generation = Map::new();
        generation.insert("model".into(), json!(c.model.settings));
        if c.tasks.uses_user_model() {
            generation.insert("user".into(), json!(c.user.settings));
        }
        generation.insert("judge".into(), json!(seated.first().map(|e| e.settings)));
        extra.insert("generation".into(), Value::Object(generation));
        RunHeader {
            model: c.model.model.clone(),
            family: c.family,
            run,
            dataset: c.dataset_name.clone(),
            judge: Some(
                seated
                    .iter()
                    .map(|e| e.model.as_str())
                    .collect::<Vec<_>>()
                    .join(" + "),
            ),
            user_model: c.tasks.uses_user_model().then(|| c.user.model.clone()),
            created_at: None,
            extra,
        }
    }

    /// The items of one run, in the order they are started: case by case.
    fn units(&self) -> Vec<(usize, Unit)> {
        let tasks = &self.config.tasks;
        let mut per_case = Vec::new();
        if tasks.lca {
            per_case.extend(Consultation::ALL.map(Unit::Lca));
        }
        if tasks.dcg {
            per_case.push(Unit::Dcg);
        }
        per_case.extend(tasks.ljp.iter().map(|&s| Unit::Ljp(s)));
        (0..self.cases.len())
            .flat_map(|case| per_case.iter().map(move |&u| (case, u)))
            .collect()
    }

    fn context(&self, client: Client) -> Result<Ctx, PipelineError> {
        let c = &self.config;
        let judges = self
            .seats
            .iter()
            .zip(&self.keys.judges)
            .map(|(&i, key)| {
                let e = c.judges[i].clone();
                Caller::new(format!("judge:{}", e.model), e, key.clone(), c.limits)
            })
            .collect::<Result<_, _>>()?;
        Ok(Ctx {
            client,
            cases: self.cases.clone(),
            model: Caller::new(
                "model".into(),
                c.model.clone(),
                self.keys.model.clone(),
                c.limits,
            )?,
            user: Caller::new(
                "user".into(),
                c.user.clone(),
                self.keys.user.clone(),
                c.limits,
            )?,
            judges,
            condition: c.user_condition,
            judge_attempts: c.retry.judge_attempts,
        })
    }

    /// Runs the job; see the [module documentation](self).
    pub async fn run(self, cancel: CancellationToken) -> Result<Vec<RunOutput>, PipelineError> {
        let c = &self.config;
        let slots = c.limits.concurrency.max(1);
        let plan = Plan {
            out_dir: &c.out_dir,
            calls: &c.calls,
            retry: c.retry,
            runs: (c.first_run..c.first_run + c.runs).collect(),
            in_flight: (slots * (self.seats.len() + 2)).max(4),
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

    /// Writes one run file and its usage sidecar, and parses the run back.
    async fn write_run(
        &self,
        run: u32,
        mut items: Vec<((usize, Unit), ItemOut)>,
        usage: RunUsage,
    ) -> Result<RunOutput, PipelineError> {
        items.sort_by_key(|&((case, unit), _)| unit.order(case));
        let mut header = self.header(run);
        header.created_at =
            Some(chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        let files = (self.run_path(run), self.usage_path(run));
        let text = header_line_text(&header);
        runner::finish_run(run, files, text, &items, usage, "write the run file", |t| {
            engine::lexpilot::run::parse_run(t, &self.cases)
        })
        .await
    }
}

/// The header line: `"kind": "run"` first, then the header's fields.
fn header_line_text(header: &RunHeader) -> String {
    #[derive(Serialize)]
    struct Line<'a> {
        kind: &'static str,
        #[serde(flatten)]
        header: &'a RunHeader,
    }
    let mut text = serde_json::to_string(&Line {
        kind: "run",
        header,
    })
    .unwrap_or_default();
    text.push('\n');
    text
}
