//! DLawBench against OpenAI-compatible endpoints
//! (`docs/benchmarks/dlawbench.md` §A2, §A3): for every case, narrative
//! style and repetition, a lawyer model interviews a simulated client and
//! submits a memo, a judge panel with same-vendor recusal decides what it
//! elicited and resolved, and one run file per repetition is written that
//! the engine parses and scores.
//!
//! One session (a case in a style, §A2.1):
//!
//! 1. **Dialogue.** Turn 0 is the case's opening. Each lawyer step is one
//!    call with [`prompts::lawyer_messages`] (the jurisdiction, the opening
//!    and the dialogue, never facts, style or court record), read by
//!    [`prompts::parse_action`]: `ask` (a client-facing turn, answered by
//!    the client simulator with [`prompts::client_messages`]: its
//!    client-belief block in the style's persona) or `submit`. After the
//!    horizon's last client reply one more call allows only `submit`
//!    (→C-D3). A submitted memo gives `submitted` (`horizon` in that last
//!    call); an empty one `empty_memo` (`no_memo` in the last call).
//! 2. **Lawyer faults.** An empty or unparsable lawyer reply is asked again
//!    (a new call) up to [`Config::lawyer_attempts`] times (default 6, the
//!    first included), then the session is `lawyer_error`, a task failure
//!    (→C-D10). The lawyer's empty replies are its own, so the client's
//!    transport retries do not repeat them.
//! 3. **Infrastructure faults.** A lawyer or client call that fails after
//!    the client's retries (HTTP errors, timeouts, an empty client reply)
//!    makes the session `unavailable` with the reason: excluded and
//!    counted, never a zero (→C-D10).
//! 4. **Panel** (§A2.3, §A2.4). Seats follow [`engine::vendor::seated`]: in
//!    a panel of two or more a judge of the lawyer's vendor recuses. Each
//!    seated judge answers [`prompts::rubric_judge_prompt`] and
//!    [`prompts::fact_judge_prompt`], read by
//!    [`prompts::parse_rubric_reply`] and [`prompts::parse_fact_reply`]; a
//!    reply that does not read is asked again up to `judge_attempts` times
//!    (default 3, →C-D7), then the seat is `unavailable`, as it is at once
//!    when its call fails for good. [`prompts::decisions`] gives the seat's
//!    decisions; the panel median is the engine's scoring.
//!
//! Every call of a session is cached under the repetition and the style
//! (and for the lawyer and the judges the attempt), so each session is
//! sampled on its own and an interrupted job replays its dialogues from the
//! cache without repeating a finished call. Calls, retries, rate limits,
//! usage, progress and cancellation are the pipeline's shared machinery
//! (`runner`), as for LexPilot and PLawBench.
//!
//! # Files (under `out_dir`)
//!
//! - `<model>.dlawbench.run<N>.jsonl`: the run file (§A3), written whole
//!   through a temporary file and checked with the engine's parser against
//!   the cases;
//! - `<model>.dlawbench.run<N>.usage.json`: tokens and cost ([`RunUsage`]);
//! - `cache/calls.jsonl`: the call cache ([`crate::cache`]).
//!
//! # Example
//!
//! ```no_run
//! use pipeline::config::Endpoint;
//! use pipeline::dlawbench::{Config, Job};
//! use pipeline::CancellationToken;
//!
//! # async fn example(cases: Vec<engine::dlawbench::dataset::Case>) -> Result<(), pipeline::PipelineError> {
//! let config = Config::new(
//!     Endpoint::new("https://api.example.com/v1", "GPT-5.5").with_key_env("OPENAI_API_KEY"),
//!     Endpoint::new("https://api.deepseek.com/v1", "DeepSeek-V4.1-Flash").with_key_env("DEEPSEEK_API_KEY"),
//!     Endpoint::judge("https://api.deepseek.com/v1", "DeepSeek-R1").with_key_env("DEEPSEEK_API_KEY"),
//!     "runs/".into(),
//! );
//! for run in Job::new(config, cases)?.run(CancellationToken::new()).await? {
//!     println!("{}: {} unavailable", run.path.display(), run.parsed.unavailable());
//! }
//! # Ok(())
//! # }
//! ```

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use engine::benchmark::Benchmark;
use engine::core::entry::Family;
use engine::core::panel::JudgeSeat;
use engine::dlawbench::dataset::{Case, Style};
use engine::dlawbench::prompts::{
    self, ChatRole, LawyerAction, Message, ReplyError, PROMPT_FILES, PROMPT_VERSION,
};
use engine::dlawbench::run::{Action, Role, Run, RunHeader, Seat, Session, Status, Turn};
use futures_util::future::join_all;
use serde_json::{json, Map, Value};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::client::{split, Caller, Client, Stop};
use crate::config::{ApiKey, Endpoint, Limits, RetryPolicy};
use crate::error::PipelineError;
use crate::job::{Progress, RunOutput};
use crate::runner::{self, read_key, slug, ItemOut, Maker, Plan, RunState};
use crate::usage::RunUsage;

/// Lawyer calls per step until a reply reads, the first included (§A2.1:
/// "retry empty responses up to six attempts").
pub const LAWYER_ATTEMPTS: u32 = 6;
/// Requests per judge call until its reply reads (§A2.3, →C-D7).
pub const JUDGE_ATTEMPTS: u32 = 3;

/// Everything a DLawBench [`Job`] needs besides the cases.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The evaluated (lawyer) model; its vendor decides recusal.
    pub lawyer: Endpoint,
    /// The lawyer's group (`legal`, `open`, `closed`).
    pub family: Option<Family>,
    /// The client simulator.
    pub client: Endpoint,
    /// The judge panel, in header order; model names unique.
    pub judges: Vec<Endpoint>,
    /// The narrative styles, each covering every case (default all four).
    pub styles: Vec<Style>,
    /// H: the client-facing turns the lawyer may use (default 10).
    pub horizon: u32,
    /// Lawyer calls per step until a reply reads (default
    /// [`LAWYER_ATTEMPTS`]); then the session is `lawyer_error`.
    pub lawyer_attempts: u32,
    /// How many repetitions.
    pub runs: u32,
    /// The number of the first repetition (the others follow it).
    pub first_run: u32,
    /// The dataset's name for the run header.
    pub dataset_name: Option<String>,
    /// Retries and time limits; `judge_attempts` is the requests per judge
    /// call until its reply reads (default [`JUDGE_ATTEMPTS`]).
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
    /// A configuration with one judge, the four styles, horizon 10, the
    /// contract's attempts, one run and the default limits and retries.
    pub fn new(lawyer: Endpoint, client: Endpoint, judge: Endpoint, out_dir: PathBuf) -> Config {
        Config {
            lawyer,
            family: None,
            client,
            judges: vec![judge],
            styles: Style::ALL.to_vec(),
            horizon: engine::dlawbench::run::DEFAULT_HORIZON,
            lawyer_attempts: LAWYER_ATTEMPTS,
            runs: 1,
            first_run: 1,
            dataset_name: None,
            retry: RetryPolicy {
                judge_attempts: JUDGE_ATTEMPTS,
                ..RetryPolicy::default()
            },
            limits: Limits::default(),
            out_dir,
            calls: crate::cache::Calls::default(),
        }
    }
}

/// A configured DLawBench job over a dataset's cases; see the
/// [module documentation](self).
#[derive(Debug)]
pub struct Job {
    config: Config,
    cases: Arc<Vec<Case>>,
    lawyer_key: Option<ApiKey>,
    client_key: Option<ApiKey>,
    judge_keys: Vec<Option<ApiKey>>,
    /// Per header judge, whether it recuses from the lawyer's sessions.
    recused: Vec<bool>,
    progress: watch::Sender<Progress>,
}

impl Job {
    /// Checks `config` against `cases` (names, distinct judges and styles, a
    /// panel recusal leaves seated, attempts and horizon at least 1) and
    /// reads the API keys from the environment.
    pub fn new(config: Config, cases: Vec<Case>) -> Result<Job, PipelineError> {
        let invalid = |m: String| Err(PipelineError::Config(m));
        if cases.is_empty() {
            return invalid("the dataset has no case".into());
        }
        if config.runs == 0 || config.first_run == 0 {
            return invalid("runs and the first run number must be at least 1".into());
        }
        if config.horizon == 0 {
            return invalid("the horizon must be at least 1".into());
        }
        if config.lawyer_attempts == 0 || config.retry.judge_attempts == 0 {
            return invalid("lawyer and judge attempts must be at least 1".into());
        }
        if config.styles.is_empty() {
            return invalid("no style given".into());
        }
        let mut styles = BTreeSet::new();
        if let Some(twice) = config.styles.iter().find(|s| !styles.insert(**s)) {
            return invalid(format!("the style {twice} is given twice"));
        }
        if config.judges.is_empty() {
            return invalid("no judge given".into());
        }
        for (role, name) in [
            ("the lawyer model", &config.lawyer.model),
            ("the client model", &config.client.model),
        ]
        .into_iter()
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
        let vendors: Vec<String> = config.judges.iter().map(Endpoint::vendor).collect();
        let refs: Vec<&str> = vendors.iter().map(String::as_str).collect();
        let lawyer_vendor = config.lawyer.vendor();
        let Some(seats) = engine::vendor::seated(&lawyer_vendor, &refs) else {
            return invalid(format!(
                "every judge is of the lawyer's vendor ({lawyer_vendor}) and would recuse; \
                 add a judge of another vendor"
            ));
        };
        let recused = (0..refs.len()).map(|i| !seats.contains(&i)).collect();
        for s in [&config.lawyer, &config.client]
            .into_iter()
            .chain(&config.judges)
            .map(|e| e.settings)
        {
            if !(s.temperature.is_finite() && s.temperature >= 0.0) || s.max_tokens == 0 {
                return invalid("temperatures must be at least 0 and max_tokens at least 1".into());
            }
        }
        let lawyer_key = read_key("model", &config.lawyer)?;
        let client_key = read_key("client", &config.client)?;
        let judge_keys = config
            .judges
            .iter()
            .map(|j| read_key("judge", j))
            .collect::<Result<_, _>>()?;
        let (progress, _) = watch::channel(Progress::default());
        Ok(Job {
            config,
            cases: Arc::new(cases),
            lawyer_key,
            client_key,
            judge_keys,
            recused,
            progress,
        })
    }

    /// A receiver of the job's progress (one item per session), updated as
    /// sessions finish and a few times a second.
    pub fn progress(&self) -> watch::Receiver<Progress> {
        self.progress.subscribe()
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The number of sessions the job makes over all its runs.
    pub fn total_items(&self) -> usize {
        self.cases.len() * self.config.styles.len() * self.config.runs as usize
    }

    /// The run file of repetition `run`.
    pub fn run_path(&self, run: u32) -> PathBuf {
        self.config.out_dir.join(format!(
            "{}.dlawbench.run{run}.jsonl",
            slug(&self.config.lawyer.model)
        ))
    }

    fn usage_path(&self, run: u32) -> PathBuf {
        self.config.out_dir.join(format!(
            "{}.dlawbench.run{run}.usage.json",
            slug(&self.config.lawyer.model)
        ))
    }

    /// The header of repetition `run`, without `created_at` (§A3): the
    /// lawyer with its vendor, the client model, the panel with each
    /// judge's vendor (configured, else [`engine::vendor::vendor_of`]), the
    /// horizon, [`PROMPT_VERSION`], the generation settings of the three
    /// roles, and as extra fields `styles`, `client_vendor`,
    /// `lawyer_attempts`, `judge_attempts` and `prompts` (the SHA-256 of
    /// every prompt file, by name). All but `run` are the same for every run
    /// of a job, so its runs form one leaderboard entry.
    pub fn header(&self, run: u32) -> RunHeader {
        let c = &self.config;
        let mut generation = Map::new();
        generation.insert("lawyer".into(), json!(c.lawyer.settings));
        generation.insert("client".into(), json!(c.client.settings));
        generation.insert("judge".into(), json!(c.judges[0].settings));
        let mut extra = Map::new();
        extra.insert(
            "styles".into(),
            c.styles.iter().map(|s| Value::from(s.as_str())).collect(),
        );
        extra.insert("client_vendor".into(), Value::from(c.client.vendor()));
        extra.insert("lawyer_attempts".into(), Value::from(c.lawyer_attempts));
        extra.insert("judge_attempts".into(), Value::from(c.retry.judge_attempts));
        extra.insert(
            "prompts".into(),
            PROMPT_FILES
                .iter()
                .map(|(name, _, sha)| ((*name).to_owned(), Value::from(*sha)))
                .collect::<Map<_, _>>()
                .into(),
        );
        RunHeader {
            benchmark: Benchmark::Dlawbench,
            model: c.lawyer.model.clone(),
            vendor: Some(c.lawyer.vendor()),
            family: c.family,
            run,
            dataset: c.dataset_name.clone(),
            client_model: Some(c.client.model.clone()),
            judges: c
                .judges
                .iter()
                .map(|j| JudgeSeat {
                    model: j.model.clone(),
                    vendor: Some(j.vendor()),
                })
                .collect(),
            horizon: c.horizon,
            min_valid_judges: 1,
            prompt_version: Some(PROMPT_VERSION.to_owned()),
            generation: Some(generation),
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
            cases: self.cases.clone(),
            lawyer: Caller::new(
                "model".into(),
                c.lawyer.clone(),
                self.lawyer_key.clone(),
                c.limits,
            )?
            .taking_empty_replies(),
            simulator: Caller::new(
                "client".into(),
                c.client.clone(),
                self.client_key.clone(),
                c.limits,
            )?,
            judges,
            recused: self.recused.clone(),
            horizon: c.horizon,
            lawyer_attempts: c.lawyer_attempts,
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
            // A session waits on one call at a time until its panel.
            in_flight: (slots * (c.judges.len() + 2)).max(4),
            model: &c.lawyer.model,
            progress: &self.progress,
        };
        let units: Vec<(usize, Style)> = c
            .styles
            .iter()
            .flat_map(|&style| (0..self.cases.len()).map(move |i| (i, style)))
            .collect();
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

    /// Writes one run file (sessions by style, then case) and its usage
    /// sidecar, and parses the run back.
    async fn write_run(
        &self,
        run: u32,
        mut items: Vec<((usize, Style), ItemOut)>,
        usage: RunUsage,
    ) -> Result<RunOutput<Run>, PipelineError> {
        let order = |style: Style| self.config.styles.iter().position(|s| *s == style);
        items.sort_by_key(|((index, style), _)| (order(*style), *index));
        let mut header = self.header(run);
        header.created_at =
            Some(chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        let files = (self.run_path(run), self.usage_path(run));
        let text = Run {
            header,
            sessions: Vec::new(),
        }
        .to_stored();
        runner::finish_run(run, files, text, &items, usage, "write the run file", |t| {
            engine::dlawbench::run::parse_run(t, &self.cases)
        })
        .await
    }
}

/// Everything a session needs: the client, the three roles, the cases.
#[derive(Debug)]
struct Ctx {
    client: Client,
    cases: Arc<Vec<Case>>,
    lawyer: Caller,
    simulator: Caller,
    judges: Vec<Caller>,
    recused: Vec<bool>,
    horizon: u32,
    lawyer_attempts: u32,
    judge_attempts: u32,
}

/// How a dialogue ended.
enum Ending {
    /// The lawyer submitted (or, in the last call, did not write) a memo.
    Memo { status: Status, memo: String },
    /// The lawyer's replies never read: why the last did not.
    LawyerError(String),
    /// A call failed for good.
    Unavailable(String),
}

/// One lawyer step's outcome.
enum Step {
    Acted { action: LawyerAction, attempts: u32 },
    Failed(ReplyError),
    Unavailable(String),
}

fn chat_role(role: ChatRole) -> &'static str {
    match role {
        ChatRole::System => "system",
        ChatRole::User => "user",
        ChatRole::Assistant => "assistant",
    }
}

fn pairs(messages: &[Message]) -> Vec<(&'static str, &str)> {
    messages
        .iter()
        .map(|m| (chat_role(m.role), m.content.as_str()))
        .collect()
}

fn turn(role: Role, content: String, attempts: Option<u32>) -> Turn {
    Turn {
        action: (role == Role::Lawyer).then_some(Action::Ask),
        role,
        content,
        attempts,
        at: None,
        usage: None,
    }
}

/// A run-file line: `kind` first, then the session.
fn line(session: &Session) -> String {
    #[derive(serde::Serialize)]
    struct Line<'a> {
        kind: &'static str,
        #[serde(flatten)]
        session: &'a Session,
    }
    serde_json::to_string(&Line {
        kind: "session",
        session,
    })
    .unwrap_or_default()
}

impl Maker for Ctx {
    /// The case's index in the dataset and the style.
    type Unit = (usize, Style);

    fn client(&self) -> &Client {
        &self.client
    }

    async fn make(&self, run: &RunState, (index, style): (usize, Style)) -> Result<ItemOut, Stop> {
        if self.client.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        let case = &self.cases[index];
        // Each session is sampled on its own: the lawyer's first call is the
        // same request in every style.
        let tag = format!("{}.{style}", run.sample);
        let mut dialogue = vec![turn(Role::Client, case.opening.clone(), None)];
        let ending = self
            .interview(run, &tag, case, style, &mut dialogue)
            .await?;
        let turns_used = dialogue.iter().filter(|t| t.role == Role::Lawyer).count() as u32;
        let mut session = Session {
            case_id: case.case_id.clone(),
            style,
            status: Status::Submitted,
            turns_used,
            dialogue: None,
            memo: None,
            panel: Vec::new(),
            unavailable: None,
            error: None,
        };
        match ending {
            Ending::Unavailable(reason) => session.unavailable = Some(reason),
            Ending::LawyerError(error) => {
                session.status = Status::LawyerError;
                session.error = Some(error);
            }
            Ending::Memo { status, memo } => {
                session.status = status;
                if status.judged() {
                    session.panel = self.panel(run, &tag, case, &dialogue, &memo).await?;
                    session.memo = Some(memo);
                }
            }
        }
        session.dialogue = Some(dialogue);
        let seated = session.panel.iter().filter(|s| !s.recused);
        let no_judge = session.status.judged() && seated.clone().all(|s| s.decisions.is_none());
        Ok(ItemOut {
            line: line(&session),
            unavailable: session.unavailable.is_some() || no_judge,
        })
    }
}

impl Ctx {
    /// The dialogue up to the lawyer's memo, its error or a failed call.
    async fn interview(
        &self,
        run: &RunState,
        tag: &str,
        case: &Case,
        style: Style,
        dialogue: &mut Vec<Turn>,
    ) -> Result<Ending, Stop> {
        let mut asked = 0;
        loop {
            let last_call = asked == self.horizon;
            match self
                .lawyer_step(run, tag, case, dialogue, last_call)
                .await?
            {
                Step::Unavailable(reason) => return Ok(Ending::Unavailable(reason)),
                Step::Failed(error) => {
                    tracing::debug!(
                        "{} ({style}): lawyer_error after {} attempts: {error}",
                        case.case_id,
                        self.lawyer_attempts
                    );
                    return Ok(Ending::LawyerError(format!(
                        "after {} attempts: {error}",
                        self.lawyer_attempts
                    )));
                }
                Step::Acted {
                    action: LawyerAction::Submit { memo },
                    ..
                } => {
                    let status = match (memo.trim().is_empty(), last_call) {
                        (false, false) => Status::Submitted,
                        (false, true) => Status::Horizon,
                        (true, false) => Status::EmptyMemo,
                        (true, true) => Status::NoMemo,
                    };
                    return Ok(Ending::Memo { status, memo });
                }
                Step::Acted {
                    action: LawyerAction::Ask { message },
                    attempts,
                } => {
                    dialogue.push(turn(Role::Lawyer, message, Some(attempts)));
                    asked += 1;
                    let messages = prompts::client_messages(case, style, dialogue);
                    let reply = self
                        .client
                        .chat(&self.simulator, &pairs(&messages), tag, &run.usage)
                        .await;
                    match split(reply)? {
                        Ok(reply) => dialogue.push(turn(Role::Client, reply.content, None)),
                        Err(reason) => {
                            return Ok(Ending::Unavailable(format!("client simulator: {reason}")))
                        }
                    }
                }
            }
        }
    }

    /// One lawyer step: up to `lawyer_attempts` calls until a reply reads.
    async fn lawyer_step(
        &self,
        run: &RunState,
        tag: &str,
        case: &Case,
        dialogue: &[Turn],
        last_call: bool,
    ) -> Result<Step, Stop> {
        let messages = prompts::lawyer_messages(case, dialogue, self.horizon, last_call);
        let messages = pairs(&messages);
        let mut error = ReplyError(String::new());
        for attempt in 1..=self.lawyer_attempts {
            let sample = format!("{tag}.attempt{}", attempt - 1);
            let reply = self
                .client
                .chat(&self.lawyer, &messages, &sample, &run.usage)
                .await;
            let reply = match split(reply)? {
                Ok(reply) => reply,
                Err(reason) => return Ok(Step::Unavailable(format!("lawyer: {reason}"))),
            };
            match prompts::parse_action(&reply.content, last_call) {
                Ok(action) => {
                    return Ok(Step::Acted {
                        action,
                        attempts: attempt,
                    })
                }
                Err(e) => error = e,
            }
        }
        Ok(Step::Failed(error))
    }

    /// The panel's seats, in header order: recused, or each seated judge's
    /// decisions or why it has none.
    async fn panel(
        &self,
        run: &RunState,
        tag: &str,
        case: &Case,
        dialogue: &[Turn],
        memo: &str,
    ) -> Result<Vec<Seat>, Stop> {
        let rubric = prompts::rubric_judge_prompt(case, dialogue, memo);
        let facts = prompts::fact_judge_prompt(case, memo);
        let seats = join_all(
            self.judges
                .iter()
                .zip(&self.recused)
                .map(|(judge, &recused)| {
                    let (rubric, facts) = (&rubric, &facts);
                    async move {
                        let mut seat = Seat {
                            judge: judge.endpoint.model.clone(),
                            recused,
                            decisions: None,
                            unavailable: None,
                            rationale: None,
                        };
                        if recused {
                            return Ok(seat);
                        }
                        let read_rubric = |r: &str| prompts::parse_rubric_reply(r, case);
                        let read_facts = |r: &str| prompts::parse_fact_reply(r, case);
                        let rubric = self.ask_judge(run, tag, judge, rubric, read_rubric).await?;
                        let facts = match &rubric {
                            Ok(_) => self.ask_judge(run, tag, judge, facts, read_facts).await?,
                            Err(_) => Err(String::new()),
                        };
                        match (rubric, facts) {
                            (Ok(rubric), Ok(facts)) => {
                                let (decisions, rationale) = prompts::decisions(rubric, facts);
                                seat.decisions = Some(decisions);
                                seat.rationale = rationale;
                            }
                            (Err(reason), _) => {
                                seat.unavailable = Some(format!("rubric call: {reason}"))
                            }
                            (_, Err(reason)) => {
                                seat.unavailable = Some(format!("fact call: {reason}"))
                            }
                        }
                        Ok(seat)
                    }
                }),
        )
        .await;
        seats.into_iter().collect()
    }

    /// One judge call: up to `judge_attempts` requests until `read` accepts
    /// the reply; `Err` with the reason when none does or the call fails.
    async fn ask_judge<T>(
        &self,
        run: &RunState,
        tag: &str,
        judge: &Caller,
        prompt: &str,
        read: impl Fn(&str) -> Result<T, ReplyError>,
    ) -> Result<Result<T, String>, Stop> {
        let mut reason = String::new();
        for attempt in 1..=self.judge_attempts {
            let sample = format!("{tag}.attempt{}", attempt - 1);
            let reply = self
                .client
                .chat(judge, &[("user", prompt)], &sample, &run.usage)
                .await;
            let reply = match split(reply)? {
                Ok(reply) => reply,
                Err(failed) => return Ok(Err(failed)),
            };
            match read(&reply.content) {
                Ok(value) => return Ok(Ok(value)),
                Err(e) => {
                    reason = format!(
                        "no valid reply in {attempt} attempt{}: {e}",
                        if attempt == 1 { "" } else { "s" }
                    )
                }
            }
        }
        Ok(Err(reason))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cases() -> Vec<Case> {
        engine::dlawbench::dataset::parse_dataset(
            r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#,
        )
        .expect("case")
    }

    #[test]
    fn the_header_names_every_role_and_prompt() {
        let url = "http://127.0.0.1:9/v1";
        let mut config = Config::new(
            Endpoint::new(url, "GPT-5.5"),
            Endpoint::new(url, "DeepSeek-V4.1-Flash"),
            Endpoint::judge(url, "GPT-5.1"),
            PathBuf::from("/tmp"),
        );
        config.judges.push(Endpoint::judge(url, "Claude-Opus-4.6"));
        config.styles = vec![Style::Withdrawn, Style::Cooperative];
        let job = Job::new(config.clone(), cases()).expect("valid");
        assert_eq!(job.recused, [true, false]);
        assert_eq!(job.total_items(), 2);
        let header = job.header(3);
        assert_eq!(header.recusals(), Some(vec![true, false]));
        assert_eq!(header.vendor.as_deref(), Some("openai"));
        assert_eq!(header.client_model.as_deref(), Some("DeepSeek-V4.1-Flash"));
        assert_eq!(header.prompt_version.as_deref(), Some(PROMPT_VERSION));
        assert_eq!(header.horizon, 10);
        assert_eq!(header.extra["styles"], json!(["withdrawn", "cooperative"]));
        assert_eq!(header.extra["client_vendor"], "deepseek");
        assert_eq!(header.extra["prompts"]["personas.json"], PROMPT_FILES[8].2);
        assert!(job.run_path(3).ends_with("GPT-5.5.dlawbench.run3.jsonl"));

        config.judges.remove(1);
        config.judges.push(Endpoint::judge(url, "o3"));
        let e = Job::new(config.clone(), cases()).expect_err("all recuse");
        assert!(e.to_string().contains("would recuse"), "{e}");
        config.judges.truncate(1);
        config.styles = vec![Style::Withdrawn, Style::Withdrawn];
        let e = Job::new(config, cases()).expect_err("twice");
        assert!(e.to_string().contains("given twice"), "{e}");
    }
}
