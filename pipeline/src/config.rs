//! What a pipeline job is told: the three roles' endpoints, the tasks, the
//! user condition, generation settings, limits and retries, where to write.
//!
//! Plain data with defaults from the LexPilot paper (Appendix E.1); nothing
//! here touches the network or the file system. API keys are never part of a
//! [`Config`]: an [`Endpoint`] names the environment variable that holds its
//! key, and the job reads it into an [`ApiKey`], whose `Debug` is redacted.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use engine::core::entry::Family;
use engine::vocab::LjpSetup;
use serde::Serialize;

use crate::prompts::{self, Template};

/// Sampling settings of one role (paper, Appendix E.1): `temperature` and
/// `max_tokens`; `top_p`, penalties, stop sequences and seeds are left to the
/// endpoint, and one completion is asked for per request.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Settings {
    /// Sampling temperature.
    pub temperature: f64,
    /// Largest completion, in tokens.
    pub max_tokens: u32,
}

impl Settings {
    /// The evaluated model's and the user model's defaults: 0.7, 8192 tokens.
    pub const GENERATION: Settings = Settings {
        temperature: 0.7,
        max_tokens: 8192,
    };
    /// The judge's defaults: 0.1, 8192 tokens.
    pub const JUDGE: Settings = Settings {
        temperature: 0.1,
        max_tokens: 8192,
    };
}

/// Prices of one endpoint, per 1,000 tokens, in whatever currency the user
/// works in; used only for the usage sidecar.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Prices {
    /// Price of 1,000 prompt tokens.
    pub prompt_per_1k: f64,
    /// Price of 1,000 completion tokens.
    pub completion_per_1k: f64,
}

/// One OpenAI-compatible chat-completions endpoint playing one role.
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// Base URL, e.g. `https://api.example.com/v1`; `/chat/completions` is
    /// appended unless the URL already ends with it.
    pub base_url: String,
    /// The model name sent in each request and written in the run header.
    pub model: String,
    /// The environment variable holding the API key; `None` sends no
    /// `Authorization` header (local endpoints).
    pub key_env: Option<String>,
    /// The model's vendor, for judge recusal; `None` derives it from the
    /// model name ([`crate::panel::vendor_of`]).
    pub vendor: Option<String>,
    /// Sampling settings.
    pub settings: Settings,
    /// Optional prices for cost accounting.
    pub prices: Option<Prices>,
}

impl Endpoint {
    /// An endpoint with the generation defaults (evaluated model, user model).
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Endpoint {
        Endpoint {
            base_url: base_url.into(),
            model: model.into(),
            key_env: None,
            vendor: None,
            settings: Settings::GENERATION,
            prices: None,
        }
    }

    /// An endpoint with the judge's defaults.
    pub fn judge(base_url: impl Into<String>, model: impl Into<String>) -> Endpoint {
        Endpoint {
            settings: Settings::JUDGE,
            ..Endpoint::new(base_url, model)
        }
    }

    /// The same endpoint reading its key from the environment variable `var`.
    pub fn with_key_env(self, var: impl Into<String>) -> Endpoint {
        Endpoint {
            key_env: Some(var.into()),
            ..self
        }
    }

    /// The vendor used for recusal: the configured one, or the one derived
    /// from the model name.
    pub fn vendor(&self) -> String {
        match &self.vendor {
            Some(v) if !v.trim().is_empty() => v.trim().to_lowercase(),
            _ => crate::panel::vendor_of(&self.model),
        }
    }

    /// The full chat-completions URL.
    pub fn url(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        if base.ends_with("/chat/completions") {
            base.to_owned()
        } else {
            format!("{base}/chat/completions")
        }
    }
}

/// An API key read from the environment. It is sent in the `Authorization`
/// header and nowhere else: it has no `Serialize`, its `Debug` and `Display`
/// print `<redacted>`, and it is not part of any cache key.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> ApiKey {
        ApiKey(key.into())
    }

    /// The key itself, for the request header.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// How the simulated plaintiff behaves: the standard user of the paper
/// (Table 22), its two non-ideal variants (Appendix E.5), or one of
/// DLawBench's four client narrative styles. Each non-standard condition adds
/// one instruction (a template of its own) to the standard prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UserCondition {
    /// Answers factual requests accurately, withholds the rest.
    Standard,
    /// The first relevant request gets a vague answer; a follow-up gets the fact.
    Delayed,
    /// The first relevant request gets a wrong or partial answer, corrected in
    /// the next user turn (also after a verdict).
    SelfCorrection,
    /// Informative and responsive.
    Cooperative,
    /// Unsure what matters; defers to the advisor.
    Dependent,
    /// Brief and reluctant.
    Withdrawn,
    /// Challenges the advisor, still truthful.
    Adversarial,
}

impl UserCondition {
    /// Every condition.
    pub const ALL: [UserCondition; 7] = [
        UserCondition::Standard,
        UserCondition::Delayed,
        UserCondition::SelfCorrection,
        UserCondition::Cooperative,
        UserCondition::Dependent,
        UserCondition::Withdrawn,
        UserCondition::Adversarial,
    ];

    /// The wire name, as written in the run header.
    pub const fn as_str(self) -> &'static str {
        match self {
            UserCondition::Standard => "standard",
            UserCondition::Delayed => "delayed",
            UserCondition::SelfCorrection => "self_correction",
            UserCondition::Cooperative => "cooperative",
            UserCondition::Dependent => "dependent",
            UserCondition::Withdrawn => "withdrawn",
            UserCondition::Adversarial => "adversarial",
        }
    }

    /// The condition named `s` (its wire name; `-` may stand for `_`).
    pub fn parse(s: &str) -> Option<UserCondition> {
        let s = s.trim().replace('-', "_");
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// The condition DCG's user turns follow. The paper's non-ideal
    /// conditions, delayed disclosure and self-correction (Appendix E.5),
    /// are defined on interaction-based LJP only, so under them DCG's user
    /// answers as the standard one; the four client styles apply to both.
    ///
    /// ```
    /// use pipeline::config::UserCondition;
    /// assert_eq!(UserCondition::Delayed.for_dcg(), UserCondition::Standard);
    /// assert_eq!(UserCondition::SelfCorrection.for_dcg(), UserCondition::Standard);
    /// assert_eq!(UserCondition::Withdrawn.for_dcg(), UserCondition::Withdrawn);
    /// ```
    pub fn for_dcg(self) -> UserCondition {
        match self {
            UserCondition::Delayed | UserCondition::SelfCorrection => UserCondition::Standard,
            other => other,
        }
    }

    /// The instruction added to the standard user prompt, if any.
    pub fn addition(self) -> Option<&'static Template> {
        match self {
            UserCondition::Standard => None,
            UserCondition::Delayed => Some(&prompts::USER_DELAYED),
            UserCondition::SelfCorrection => Some(&prompts::USER_SELF_CORRECTION),
            UserCondition::Cooperative => Some(&prompts::USER_COOPERATIVE),
            UserCondition::Dependent => Some(&prompts::USER_DEPENDENT),
            UserCondition::Withdrawn => Some(&prompts::USER_WITHDRAWN),
            UserCondition::Adversarial => Some(&prompts::USER_ADVERSARIAL),
        }
    }
}

impl fmt::Display for UserCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which tasks (and LJP setups) a job runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tasks {
    /// Legal Completeness Assessment on both consultations of every case.
    pub lca: bool,
    /// Detail Completion Guidance on every underspecified consultation.
    pub dcg: bool,
    /// The LJP setups, in any order; empty for no LJP.
    pub ljp: Vec<LjpSetup>,
}

impl Tasks {
    /// Every task and every LJP setup.
    pub fn all() -> Tasks {
        Tasks {
            lca: true,
            dcg: true,
            ljp: LjpSetup::ALL.to_vec(),
        }
    }

    /// Parses a comma-separated list of `lca`, `dcg`, `ljp` (all three
    /// setups) and `ljp:SETUP` (`ljp:direct`, `ljp:interaction`, `ljp:gold`).
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::vocab::LjpSetup;
    /// use pipeline::config::Tasks;
    ///
    /// let t = Tasks::parse("lca,ljp:gold").unwrap();
    /// assert!(t.lca && !t.dcg);
    /// assert_eq!(t.ljp, [LjpSetup::Gold]);
    /// assert!(Tasks::parse("lca,nope").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Tasks, String> {
        let mut tasks = Tasks {
            lca: false,
            dcg: false,
            ljp: Vec::new(),
        };
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part {
                "lca" => tasks.lca = true,
                "dcg" => tasks.dcg = true,
                "ljp" => LjpSetup::ALL.into_iter().for_each(|s| tasks.add_setup(s)),
                other => match other.strip_prefix("ljp:").and_then(LjpSetup::parse) {
                    Some(setup) => tasks.add_setup(setup),
                    None => {
                        return Err(format!(
                            "unknown task {other:?}; expected lca, dcg, ljp or ljp:direct, \
                             ljp:interaction, ljp:gold"
                        ))
                    }
                },
            }
        }
        if tasks.is_empty() {
            return Err("no task given; expected some of lca, dcg, ljp".into());
        }
        Ok(tasks)
    }

    fn add_setup(&mut self, setup: LjpSetup) {
        if !self.ljp.contains(&setup) {
            self.ljp.push(setup);
        }
    }

    /// Whether no task is selected.
    pub fn is_empty(&self) -> bool {
        !self.lca && !self.dcg && self.ljp.is_empty()
    }

    /// Whether the user model takes part (DCG, interaction-based LJP).
    pub fn uses_user_model(&self) -> bool {
        self.dcg || self.ljp.contains(&LjpSetup::Interaction)
    }
}

/// Retries and time limits of every call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Attempts per call, the first included (DLawBench: six).
    pub max_attempts: u32,
    /// Backoff before the second attempt; doubled for each later one.
    pub base_delay: Duration,
    /// Largest backoff between attempts (a `Retry-After` may ask for more).
    pub max_delay: Duration,
    /// Time limit of one HTTP request, reply included.
    pub timeout: Duration,
    /// Attempts of a judge whose replies do not parse (each a new call).
    pub judge_attempts: u32,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 6,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(60),
            timeout: Duration::from_secs(600),
            judge_attempts: 6,
        }
    }
}

/// Load limits, each per endpoint (per role; each judge is one endpoint).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Requests in flight at once.
    pub concurrency: usize,
    /// Requests started per minute, if limited.
    pub requests_per_minute: Option<u32>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            concurrency: 4,
            requests_per_minute: None,
        }
    }
}

/// Everything a [`crate::Job`] needs besides the cases.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The evaluated model.
    pub model: Endpoint,
    /// The evaluated model's group, for the run header.
    pub family: Option<Family>,
    /// The user model (simulated plaintiff).
    pub user: Endpoint,
    /// The judge panel: one judge, or several (see [`crate::panel`]).
    pub judges: Vec<Endpoint>,
    /// The tasks to run.
    pub tasks: Tasks,
    /// How the user model behaves.
    pub user_condition: UserCondition,
    /// How many repetitions.
    pub runs: u32,
    /// The number of the first repetition (the others follow it).
    pub first_run: u32,
    /// The dataset's name for the run header.
    pub dataset_name: Option<String>,
    /// Retries and time limits.
    pub retry: RetryPolicy,
    /// Load limits.
    pub limits: Limits,
    /// Where run files, sidecars and the call cache go.
    pub out_dir: PathBuf,
    /// Where finished calls are kept: the file under `out_dir` unless a
    /// store is given (the server keeps its jobs\' calls in its database).
    pub calls: crate::cache::Calls,
}

/// How many repetitions the LexPilot paper makes of every evaluation
/// (Appendix E.2: "we conduct five runs for each of the 10 evaluated models on
/// the LCA, DCG, and LJP tasks"); `lexpilot run` makes as many unless told.
pub const PAPER_RUNS: u32 = 5;

impl Config {
    /// A configuration with every task, the standard user, one run and the
    /// default limits and retries (the command line asks for [`PAPER_RUNS`]).
    pub fn new(model: Endpoint, user: Endpoint, judge: Endpoint, out_dir: PathBuf) -> Config {
        Config {
            model,
            family: None,
            user,
            judges: vec![judge],
            tasks: Tasks::all(),
            user_condition: UserCondition::Standard,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_key_never_shows_itself() {
        let key = ApiKey::new("sk-very-secret");
        assert_eq!(format!("{key:?}"), "ApiKey(<redacted>)");
        assert_eq!(key.to_string(), "<redacted>");
        assert_eq!(key.expose(), "sk-very-secret");
    }

    #[test]
    fn urls_get_the_chat_completions_path_once() {
        assert_eq!(
            Endpoint::new("http://h/v1/", "m").url(),
            "http://h/v1/chat/completions"
        );
        assert_eq!(
            Endpoint::new("http://h/v1/chat/completions", "m").url(),
            "http://h/v1/chat/completions"
        );
    }

    #[test]
    fn conditions_round_trip_their_names() {
        for c in UserCondition::ALL {
            assert_eq!(UserCondition::parse(c.as_str()), Some(c));
            assert_eq!(c.addition().is_none(), c == UserCondition::Standard);
        }
        assert_eq!(
            UserCondition::parse("self-correction"),
            Some(UserCondition::SelfCorrection)
        );
    }

    #[test]
    fn tasks_parse_setups_once() {
        let t = Tasks::parse("ljp:direct, ljp").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            t.ljp,
            [LjpSetup::Direct, LjpSetup::Interaction, LjpSetup::Gold]
        );
        assert!(t.uses_user_model());
        assert!(Tasks::parse("").is_err());
    }
}
