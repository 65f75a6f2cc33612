//! Benchmark jobs as the workbench keeps and shows them: the endpoints an
//! admin configured ([`Endpoint`], checked by [`check_endpoint`]), what a job
//! runs ([`JobSpec`]), how far it got ([`Progress`]), where it is in its life
//! ([`JobStatus`]) and the stored job itself ([`Job`]). One type per thing,
//! used alike by storage (`db::jobs`), the runner (`services::jobs`) and the
//! page (`/admin/runs`).
//!
//! An endpoint stores the *name* of the environment variable that holds its
//! API key, never a key: [`check_endpoint`] refuses anything that looks like
//! one, without repeating it.
//!
//! A job runs one benchmark ([`JobSpec::benchmark`]): LexPilot's tasks with
//! the user model, PLawBench with its judging settings
//! ([`PlawbenchSettings`]) and no user model, or DLawBench with the user
//! model as its client simulator ([`DlawbenchSettings`]).
//!
//! Depends on serde and [`crate::names`], [`crate::benchmark`],
//! [`crate::lexpilot::run`], [`crate::plawbench::run`],
//! [`crate::dlawbench`].

use serde::{Deserialize, Serialize};

use crate::benchmark::Benchmark;
use crate::core::entry::Family;
use crate::core::panel::Aggregation;
use crate::dlawbench::dataset::Style;
use crate::plawbench::run::ParseMode;

/// A configured OpenAI-compatible endpoint. A job keeps a copy of each
/// endpoint it uses, so that editing or deleting the endpoint later changes
/// nothing a restart runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoint {
    pub id: i64,
    /// Unique, chosen by the admin (`deepseek-flash`, `local-qwen`).
    pub name: String,
    /// The OpenAI-compatible base URL (`https://host/v1`).
    pub base_url: String,
    /// The model name sent in requests and written in run headers.
    pub model: String,
    /// The environment variable holding the key; `None` sends no key.
    pub key_env: Option<String>,
    /// The vendor, for judge recusal; `None` derives it from the model name.
    pub vendor: Option<String>,
    /// When it was configured (empty in a job's copy made before this was kept).
    #[serde(default)]
    pub created_at: String,
}

/// An endpoint with whether its key variable is set in the server's
/// environment (only this yes/no leaves the server, never the value).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndpointView {
    #[serde(flatten)]
    pub endpoint: Endpoint,
    pub key_set: bool,
}

/// An endpoint as typed in the form.
#[derive(Debug, Clone, Copy)]
pub struct EndpointInput<'a> {
    pub name: &'a str,
    pub base_url: &'a str,
    pub model: &'a str,
    pub key_env: Option<&'a str>,
    pub vendor: Option<&'a str>,
}

/// The fields of an endpoint to create or update, checked and trimmed by
/// [`check_endpoint`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndpointFields<'a> {
    pub name: &'a str,
    pub base_url: &'a str,
    pub model: &'a str,
    pub key_env: Option<&'a str>,
    pub vendor: Option<&'a str>,
}

/// Where a job is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    /// Created (or restarted), its task not started yet.
    Queued,
    /// Its task is making calls.
    Running,
    /// Finished; its runs are stored.
    Done,
    /// Stopped by an error (the message is kept); nothing stored.
    Failed,
    /// Cancelled by an admin; nothing stored.
    Cancelled,
    /// Cut off by a server stop; restartable from its cache.
    Interrupted,
}

impl JobStatus {
    /// Every status.
    pub const ALL: [JobStatus; 6] = [
        JobStatus::Queued,
        JobStatus::Running,
        JobStatus::Done,
        JobStatus::Failed,
        JobStatus::Cancelled,
        JobStatus::Interrupted,
    ];

    /// The stored name.
    pub const fn as_str(self) -> &'static str {
        match self {
            JobStatus::Queued => "queued",
            JobStatus::Running => "running",
            JobStatus::Done => "done",
            JobStatus::Failed => "failed",
            JobStatus::Cancelled => "cancelled",
            JobStatus::Interrupted => "interrupted",
        }
    }

    /// The status stored as `s`.
    ///
    /// ```
    /// use engine::jobs::JobStatus;
    /// assert_eq!(JobStatus::parse("interrupted"), Some(JobStatus::Interrupted));
    /// assert!(JobStatus::Interrupted.is_restartable() && !JobStatus::Done.is_active());
    /// ```
    pub fn parse(s: &str) -> Option<JobStatus> {
        Self::ALL.into_iter().find(|j| j.as_str() == s)
    }

    /// Whether the job is still to finish (queued or running).
    pub fn is_active(self) -> bool {
        matches!(self, JobStatus::Queued | JobStatus::Running)
    }

    /// Whether the job may be started again (it stopped without storing).
    pub fn is_restartable(self) -> bool {
        matches!(
            self,
            JobStatus::Failed | JobStatus::Cancelled | JobStatus::Interrupted
        )
    }
}

/// How a PLawBench job judges (`docs/benchmarks/plawbench.md` §B2), with
/// the model's token limit and the ranking's Family column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlawbenchSettings {
    /// How the panel's judgements are combined per item.
    pub judge_aggregation: Aggregation,
    /// How judge replies are read.
    pub judge_parse: ParseMode,
    /// Requests per judge until its reply parses (at least 1).
    pub judge_attempts: u32,
    /// `max_tokens` of the model and the judges: generous, since a truncated
    /// filing scores near zero.
    pub max_tokens: u32,
    /// The vendor family of the official ranking (`Qwen`, `Claude`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_family: Option<String>,
}

impl Default for PlawbenchSettings {
    /// evalscope's judging (mean, one attempt), the lenient parse, 8192
    /// tokens.
    fn default() -> Self {
        PlawbenchSettings {
            judge_aggregation: Aggregation::Mean,
            judge_parse: ParseMode::Lenient,
            judge_attempts: 1,
            max_tokens: 8192,
            model_family: None,
        }
    }
}

/// How a DLawBench job interviews and judges (`docs/benchmarks/dlawbench.md`
/// §A2): the client's narrative styles, the horizon, and the attempts of the
/// lawyer and of each judge call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DlawbenchSettings {
    /// The styles, each covering every case (at least one, none twice).
    pub styles: Vec<Style>,
    /// The client-facing turns the lawyer may use (at least 1).
    pub horizon: u32,
    /// Lawyer calls per step until a reply is a valid action.
    pub lawyer_attempts: u32,
    /// Requests per judge call until its reply reads.
    pub judge_attempts: u32,
}

impl Default for DlawbenchSettings {
    /// The four styles, horizon 10, six lawyer and three judge attempts
    /// (§A2.1, §A2.3).
    fn default() -> Self {
        DlawbenchSettings {
            styles: Style::ALL.to_vec(),
            horizon: crate::dlawbench::run::DEFAULT_HORIZON,
            lawyer_attempts: 6,
            judge_attempts: 3,
        }
    }
}

crate::vocab::vocabulary! {
    /// An experiment a LexPilot job runs instead of the benchmark's tasks.
    Experiment, kind "experiment" {
        /// The Targeted vs Off-target experiment (Table 4,
        /// [`crate::lexpilot::targeted`]).
        Targeted = "targeted", zh "定向与偏离追问实验（表4）", en "Targeted vs Off-target (Table 4)";
        /// The user-simulator fidelity study (Table 13,
        /// [`crate::lexpilot::fidelity`]): the user model's replies to the
        /// stored probes, for the experts to label.
        Fidelity = "fidelity", zh "用户模拟器保真度研究（表13）", en "User-simulator fidelity (Table 13)";
    }
}

/// What a job runs, stored with it as JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobSpec {
    /// The benchmark (absent in jobs stored before PLawBench jobs: LexPilot).
    #[serde(default)]
    pub benchmark: Benchmark,
    /// The name of the dataset version it runs on.
    pub dataset: String,
    /// The evaluated model.
    pub model: Endpoint,
    /// The user model (simulated plaintiff), if the tasks need one; never
    /// for PLawBench.
    pub user: Option<Endpoint>,
    /// The judge panel (one judge, or several).
    pub judges: Vec<Endpoint>,
    /// LexPilot: `lca`, `dcg`, `ljp:direct`, `ljp:interaction`, `ljp:gold`;
    /// empty for PLawBench (every item of the dataset).
    pub tasks: Vec<String>,
    /// Repetitions.
    pub runs: u32,
    /// The number of the first repetition, after those stored or reserved.
    pub first_run: u32,
    /// Requests in flight per endpoint.
    pub concurrency: u32,
    /// LexPilot: one of the seven user conditions (`standard`, …); empty
    /// for PLawBench.
    pub user_condition: String,
    /// Only the first N cases or items (set only when N is below their count).
    pub limit: Option<u32>,
    /// The model's group.
    pub family: Option<Family>,
    /// PLawBench's settings; `None` for LexPilot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plawbench: Option<PlawbenchSettings>,
    /// DLawBench's settings (its client simulator is `user`); `None` for the
    /// others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dlawbench: Option<DlawbenchSettings>,
    /// LexPilot: an experiment run instead of `tasks` (which are then
    /// empty), writing its own results; `None` runs the tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experiment: Option<Experiment>,
}

impl JobSpec {
    /// The run-header dataset name of the job: the dataset's, with `-firstN`
    /// when limited to the first N cases (a separate leaderboard entry, as
    /// with `lexpilot run --limit`).
    ///
    /// ```
    /// use engine::benchmark::Benchmark;
    /// use engine::jobs::JobSpec;
    ///
    /// // A job stored before PLawBench jobs existed reads as LexPilot's.
    /// let endpoint = r#"{"id": 1, "name": "m", "base_url": "http://h/v1", "model": "M", "key_env": null, "vendor": null}"#;
    /// let stored = format!(r#"{{"dataset": "d", "model": {endpoint}, "user": null, "judges": [{endpoint}],
    ///     "tasks": ["lca"], "runs": 1, "first_run": 1, "concurrency": 4, "user_condition": "standard",
    ///     "limit": 3, "family": null}}"#);
    /// let spec: JobSpec = serde_json::from_str(&stored).unwrap();
    /// assert_eq!((spec.benchmark, &spec.plawbench), (Benchmark::Lexpilot, &None));
    /// assert_eq!(spec.dlawbench, None);
    /// assert_eq!(spec.experiment, None);
    /// assert_eq!(spec.header_dataset(), "d-first3");
    /// ```
    pub fn header_dataset(&self) -> String {
        match self.limit {
            Some(n) => format!("{}-first{n}", self.dataset),
            None => self.dataset.clone(),
        }
    }
}

/// How far a job is, as last recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
    /// Items marked unavailable.
    pub failures: usize,
    /// HTTP requests sent.
    pub calls: u64,
    /// Calls served from the cache.
    pub cached_calls: u64,
    pub retries: u64,
    pub runs_written: usize,
    pub elapsed_secs: f64,
    /// The first call that failed for good, as the endpoint answered it
    /// (admins only: runs keep a reason without the endpoint's words).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_failure: Option<String>,
}

/// A stored job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub id: i64,
    /// The dataset version the job runs on (`None` if it was deleted).
    pub dataset_id: Option<i64>,
    pub spec: JobSpec,
    pub status: JobStatus,
    /// The last progress recorded.
    pub progress: Option<Progress>,
    /// Where the pipeline writes run files and its call cache.
    pub out_dir: String,
    /// Why the job failed or stopped.
    pub error: Option<String>,
    /// Runs stored when it finished.
    pub runs_stored: i64,
    /// The account that started it (its id and name).
    pub created_by_id: Option<i64>,
    pub created_by: Option<String>,
    pub created_at: String,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
}

/// A job as the page shows it: the stored job, what can be done with it,
/// and whether a cancel was asked for while its calls in flight finish.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobView {
    #[serde(flatten)]
    pub job: Job,
    /// Queued or running: it can be cancelled.
    pub active: bool,
    /// Failed, cancelled or interrupted: it can be restarted.
    pub restartable: bool,
    /// A cancel was asked for and the job is finishing its calls in flight.
    pub cancel_requested: bool,
}

/// What one test call to an endpoint gave (the endpoints table's "Test"
/// button): the reply, or why there is none, and how long it took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndpointTest {
    /// The endpoint's name and model.
    pub endpoint: String,
    pub model: String,
    pub reply: Option<String>,
    pub error: Option<String>,
    pub millis: u64,
}

/// Whether `s` is an environment variable name: `[A-Z_][A-Z0-9_]*`.
///
/// ```
/// use engine::jobs::is_env_var_name;
/// assert!(is_env_var_name("DEEPSEEK_API_KEY"));
/// assert!(!is_env_var_name("1KEY") && !is_env_var_name("api-key") && !is_env_var_name(""));
/// ```
pub fn is_env_var_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Whether `s` starts like an API key or a credential: a known key prefix
/// (`sk-`, `hf_`, …) or a `Bearer` header.
pub fn looks_like_key(s: &str) -> bool {
    const PREFIXES: [&str; 9] = [
        "sk-",
        "sk_",
        "bearer ",
        "gsk_",
        "hf_",
        "xai-",
        "ghp_",
        "github_pat_",
        "akia",
    ];
    let lower = s.trim().to_ascii_lowercase();
    PREFIXES.iter().any(|p| lower.starts_with(p))
}

/// Whether a would-be variable name looks like a key: a key prefix, or 20
/// characters or more with digits and no `_` (variable names have one; an
/// all-capitals key such as an access key id has none).
fn key_not_name(s: &str) -> bool {
    looks_like_key(s)
        || (s.len() >= 20 && !s.contains('_') && s.chars().any(|c| c.is_ascii_digit()))
}

const KEY_REFUSED: &str = "looks like an API key, which is never stored here; put the key in an \
     environment variable of the server and enter the variable's NAME (such as DEEPSEEK_API_KEY)";

/// The prefix an endpoint's key variable must start with unless the
/// operator sets another (`lexpilot serve --key-env-prefix`).
pub const DEFAULT_KEY_ENV_PREFIX: &str = "LEXPILOT_KEY_";

/// Checks that key variable `var` starts with `prefix`, the operator's
/// setting: an endpoint typed in the browser can then name only variables
/// meant as endpoint keys, never another secret of the server (a database
/// URL, a cloud credential) to be sent to an endpoint as its key.
///
/// # Examples
///
/// ```
/// use engine::jobs::check_key_env_prefix;
/// assert!(check_key_env_prefix("LEXPILOT_KEY_DEEPSEEK", "LEXPILOT_KEY_").is_ok());
/// assert!(check_key_env_prefix("DATABASE_URL", "LEXPILOT_KEY_")
///     .unwrap_err()
///     .contains("LEXPILOT_KEY_"));
/// ```
pub fn check_key_env_prefix(var: &str, prefix: &str) -> Result<(), String> {
    if var.starts_with(prefix) && var.len() > prefix.len() {
        Ok(())
    } else {
        Err(format!(
            "the key variable {var} does not start with {prefix}: this server reads endpoint keys \
             only from variables named {prefix}…, so that no other setting of the server can be \
             sent to an endpoint (name the variable {prefix}{var} and set it where the server \
             starts; the operator sets the prefix with --key-env-prefix)"
        ))
    }
}

/// Checks and trims an endpoint typed in the form. Messages never repeat a
/// value that looks like a key.
pub fn check_endpoint<'a>(input: &EndpointInput<'a>) -> Result<EndpointFields<'a>, String> {
    let name = input.name.trim();
    let base_url = input.base_url.trim();
    let model = input.model.trim();
    let key_env = input.key_env.map(str::trim).filter(|k| !k.is_empty());
    let vendor = input.vendor.map(str::trim).filter(|v| !v.is_empty());
    for (field, value) in [("the name", name), ("the model", model)]
        .into_iter()
        .chain(vendor.map(|v| ("the vendor", v)))
    {
        if looks_like_key(value) {
            return Err(format!("{field} {KEY_REFUSED}"));
        }
    }
    if name.is_empty() || name.chars().count() > 64 {
        return Err("an endpoint name needs 1 to 64 characters".into());
    }
    for (field, value) in [("the endpoint name", name), ("the model name", model)] {
        crate::names::check_name(value).map_err(|message| format!("{field} {message}"))?;
    }
    check_url(base_url)?;
    if let Some(var) = key_env {
        if key_not_name(var) {
            return Err(format!("the key variable {KEY_REFUSED}"));
        }
        if !is_env_var_name(var) || var.len() > 128 {
            return Err(
                "the key variable must be an environment variable NAME: capital letters, digits \
                 and _, not starting with a digit (such as OPENAI_API_KEY)"
                    .into(),
            );
        }
    }
    if let Some(v) = vendor {
        let ok = v.chars().count() <= 64
            && v.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ' '));
        if !ok {
            return Err("a vendor is up to 64 letters, digits, spaces, - _ or .".into());
        }
    }
    Ok(EndpointFields {
        name,
        base_url,
        model,
        key_env,
        vendor,
    })
}

/// An `http(s)://host…` URL without credentials in it: no user info, no
/// key-like query parameter, no path segment or value starting like a key.
fn check_url(url: &str) -> Result<(), String> {
    let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    else {
        return Err("the base URL must start with http:// or https://".into());
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.is_empty() || url.len() > 2048 || url.chars().any(char::is_whitespace) {
        return Err(
            "the base URL needs a host and no spaces, such as https://api.example.com/v1".into(),
        );
    }
    let after_host = &rest[authority.len()..];
    let query = after_host.split_once('?').map_or("", |(_, q)| q);
    let lower_query = query.to_ascii_lowercase();
    let key_param = ["key=", "token=", "secret=", "password="]
        .iter()
        .any(|k| lower_query.contains(k));
    let key_part = after_host
        .split(['/', '?', '&', '=', '#'])
        .any(looks_like_key);
    if authority.contains('@') || key_param || key_part {
        return Err(format!("the base URL {KEY_REFUSED}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(key_env: Option<&'a str>) -> EndpointInput<'a> {
        EndpointInput {
            name: " deepseek ",
            base_url: "https://api.deepseek.com/v1",
            model: "DeepSeek-V4.1-Flash",
            key_env,
            vendor: Some("deepseek"),
        }
    }

    #[test]
    fn endpoints_name_key_variables_and_never_keys() {
        let ok = check_endpoint(&input(Some("DEEPSEEK_API_KEY"))).expect("valid");
        assert_eq!(
            (ok.name, ok.key_env),
            ("deepseek", Some("DEEPSEEK_API_KEY"))
        );
        assert_eq!(
            check_endpoint(&input(Some("  "))).expect("no key").key_env,
            None
        );
        for key in [
            "sk-abcdef0123456789abcdef",
            "SK-PROJ-ABC",
            "Bearer abc",
            "AKIAIOSFODNN7EXAMPLE",
            "0123456789ABCDEF0123456789ABCDEF",
            "ABCDEFGHIJ0123456789",
        ] {
            let e = check_endpoint(&input(Some(key))).expect_err(key);
            assert!(e.contains("looks like an API key"), "{e}");
            assert!(!e.contains(key), "the message repeats the key: {e}");
        }
        let e = check_endpoint(&input(Some("deepseek-key"))).expect_err("syntax");
        assert!(e.contains("NAME"), "{e}");
        let model_key = EndpointInput {
            model: "sk-live-123456",
            ..input(None)
        };
        assert!(check_endpoint(&model_key).is_err());
        for model in [
            "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
            "DeepSeek-R1-Distill-Qwen-32B",
            "claude-3-5-sonnet-20241022",
        ] {
            let named = EndpointInput {
                model,
                ..input(None)
            };
            assert!(check_endpoint(&named).is_ok(), "{model}");
        }
    }

    #[test]
    fn base_urls_are_http_without_credentials() {
        for bad in [
            "ftp://h/v1",
            "https://",
            "https://user:pw@h/v1",
            "https://h/v1?api_key=abc",
            "https://h /v1",
            "https://h/v1/sk-abc123/",
            "https://h/v1?x=sk-abc123",
        ] {
            let url = EndpointInput {
                base_url: bad,
                ..input(None)
            };
            assert!(check_endpoint(&url).is_err(), "{bad}");
        }
        for good in [
            "http://127.0.0.1:8000/v1",
            "https://desk-api.example.com/v1",
            "https://h.openai.azure.com/openai/deployments/x?api-version=2024-06-01",
        ] {
            let url = EndpointInput {
                base_url: good,
                ..input(None)
            };
            assert!(check_endpoint(&url).is_ok(), "{good}");
        }
    }
}
