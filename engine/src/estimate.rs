//! What a benchmark job will make before it starts: how many chat calls of
//! each role ([`estimate_calls`]) and, when the admin gives prices per
//! million tokens, about what they cost ([`estimate_cost`]).
//!
//! The counts follow the pipeline's protocols call by call (`pipeline/src/
//! tasks.rs`, `plawbench.rs`, `dlawbench.rs`), as a range: `min` is the
//! shortest path an item can take, `max` the longest, both assuming no call
//! fails for good (a failed call ends its item early, so a job with failures
//! makes fewer). Transport retries are not calls here, as the job's progress
//! does not count them either. Per item, with J the seated judges and A the
//! judge attempts (a judge whose reply does not read is asked again):
//!
//! | item | model | user / client | judges |
//! | --- | --- | --- | --- |
//! | LexPilot LCA (one consultation) | 1 | 0 | J … J·A |
//! | LexPilot DCG | 1 … 2 | 0 … 1 | J … 2·J·A |
//! | LexPilot LJP direct, gold | 1 | 0 | J … J·A |
//! | LexPilot LJP interaction | 1 … 4 | 0 … 3 | J … 4·J·A |
//! | PLawBench item | 1 | 0 | J … J·A (no recusal) |
//! | DLawBench session (H horizon, L lawyer attempts) | 1 … (H+1)·L | 0 … H | 0 … 2·J·A |
//!
//! Everything is multiplied by the runs. An experiment (Table 4, Table 13)
//! has no estimate. Cost is `calls × (input tokens × input price + output
//! tokens × output price) / 10⁶`, with the tokens per call an assumption the
//! admin sees and can change ([`TokensPerCall`]).
//!
//! Depends on [`crate::jobs`] and [`crate::vendor`].
//!
//! # Examples
//!
//! ```
//! use engine::estimate::{estimate_calls, Calls};
//! use engine::jobs::{Endpoint, JobSpec};
//!
//! let endpoint = |model: &str| Endpoint {
//!     id: 1, name: model.into(), base_url: "http://h/v1".into(), model: model.into(),
//!     key_env: None, vendor: None, created_at: String::new(),
//! };
//! let spec = JobSpec {
//!     benchmark: engine::benchmark::Benchmark::Lexpilot,
//!     dataset: "d".into(),
//!     model: endpoint("M"),
//!     user: None,
//!     judges: vec![endpoint("J")],
//!     tasks: vec!["lca".into()],
//!     runs: 5,
//!     first_run: 1,
//!     concurrency: 4,
//!     user_condition: "standard".into(),
//!     limit: None,
//!     family: None,
//!     plawbench: None,
//!     dlawbench: None,
//!     experiment: None,
//! };
//! // 10 cases, two consultations each, five runs; one judge asked up to 6 times.
//! let e = estimate_calls(&spec, 10, 6).unwrap();
//! assert_eq!(e.model, Calls { min: 100, max: 100 });
//! assert_eq!(e.judges, Calls { min: 100, max: 600 });
//! assert_eq!(e.total(), Calls { min: 200, max: 700 });
//! ```

use serde::{Deserialize, Serialize};

use crate::benchmark::Benchmark;
use crate::jobs::{Endpoint, JobSpec};
use crate::vocab::LjpSetup;

/// A number of calls: at least `min`, at most `max`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Calls {
    pub min: u64,
    pub max: u64,
}

impl Calls {
    const NONE: Calls = Calls { min: 0, max: 0 };

    fn between(min: u64, max: u64) -> Calls {
        Calls { min, max }
    }

    fn exactly(n: u64) -> Calls {
        Calls { min: n, max: n }
    }

    fn plus(self, other: Calls) -> Calls {
        Calls {
            min: self.min + other.min,
            max: self.max + other.max,
        }
    }

    fn times(self, n: u64) -> Calls {
        Calls {
            min: self.min * n,
            max: self.max * n,
        }
    }

    /// Whether the number is known exactly.
    pub fn is_exact(self) -> bool {
        self.min == self.max
    }
}

/// The calls of one job by role.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallEstimate {
    /// The evaluated model's (DLawBench: the lawyer's).
    pub model: Calls,
    /// The user model's (LexPilot) or the client simulator's (DLawBench).
    pub user: Calls,
    /// Every seated judge's together.
    pub judges: Calls,
    /// The items (LexPilot: case × task part; PLawBench: items; DLawBench:
    /// case × style sessions) of one run.
    pub items: u64,
    pub runs: u32,
    /// The judges that sit (after recusal) and how often each may be asked
    /// per judgement.
    pub seated_judges: u32,
    pub judge_attempts: u32,
}

impl CallEstimate {
    /// Every role's calls together.
    pub fn total(&self) -> Calls {
        self.model.plus(self.user).plus(self.judges)
    }
}

/// The calls of one item of each role, `(model, user, judges)`.
type PerItem = (Calls, Calls, Calls);

/// The vendor recusal looks at: the endpoint's own, else the model's
/// ([`crate::vendor::vendor_of`]), as the pipeline takes it.
fn vendor(endpoint: &Endpoint) -> String {
    match &endpoint.vendor {
        Some(v) if !v.trim().is_empty() => v.trim().to_lowercase(),
        _ => crate::vendor::vendor_of(&endpoint.model),
    }
}

/// How many of the job's judges sit: all of them for PLawBench, after
/// same-vendor recusal ([`crate::vendor::seated`]) for the others.
fn seated(spec: &JobSpec) -> u64 {
    if spec.benchmark == Benchmark::Plawbench {
        return spec.judges.len() as u64;
    }
    let vendors: Vec<String> = spec.judges.iter().map(vendor).collect();
    let refs: Vec<&str> = vendors.iter().map(String::as_str).collect();
    crate::vendor::seated(&vendor(&spec.model), &refs).map_or(0, |s| s.len() as u64)
}

/// The LexPilot parts a job's `tasks` name (`lca`, `dcg`, `ljp` for every
/// setup, `ljp:<setup>`), each once; `None` for a name the pipeline refuses.
fn lexpilot_parts(tasks: &[String]) -> Option<(bool, bool, Vec<LjpSetup>)> {
    let (mut lca, mut dcg, mut ljp) = (false, false, Vec::new());
    for task in tasks.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
        match task {
            "lca" => lca = true,
            "dcg" => dcg = true,
            "ljp" => ljp.extend(LjpSetup::ALL),
            other => ljp.push(LjpSetup::parse(other.strip_prefix("ljp:")?)?),
        }
    }
    ljp.sort_by_key(|s| *s as usize);
    ljp.dedup();
    Some((lca, dcg, ljp))
}

/// The calls job `spec` makes on a dataset of `cases` cases or items (the
/// job's limit taken here), `lexpilot_judge_attempts` being the pipeline's
/// judge attempts for LexPilot (its jobs do not set them). `None` for an
/// experiment, for tasks the pipeline would refuse, and when every judge
/// recuses (see the [module documentation](self) for the counts).
pub fn estimate_calls(
    spec: &JobSpec,
    cases: usize,
    lexpilot_judge_attempts: u32,
) -> Option<CallEstimate> {
    if spec.experiment.is_some() {
        return None;
    }
    let cases: u64 = spec
        .limit
        .map_or(cases, |n| cases.min(n as usize))
        .try_into()
        .unwrap_or(u64::MAX);
    let j = seated(spec);
    if j == 0 {
        return None;
    }
    let judge = |asked: u64, attempts: u64| Calls::between(j, asked * j * attempts);
    let (attempts, items, per_item): (u32, u64, Vec<(u64, PerItem)>) = match spec.benchmark {
        Benchmark::Lexpilot => {
            let a = u64::from(lexpilot_judge_attempts.max(1));
            let (lca, dcg, ljp) = lexpilot_parts(&spec.tasks)?;
            let mut parts = Vec::new();
            if lca {
                let one = (Calls::exactly(1), Calls::NONE, judge(1, a));
                parts.push((2 * cases, one));
            }
            if dcg {
                let one = (Calls::between(1, 2), Calls::between(0, 1), judge(2, a));
                parts.push((cases, one));
            }
            for setup in ljp {
                let one = match setup {
                    LjpSetup::Interaction => {
                        (Calls::between(1, 4), Calls::between(0, 3), judge(4, a))
                    }
                    LjpSetup::Direct | LjpSetup::Gold => {
                        (Calls::exactly(1), Calls::NONE, judge(1, a))
                    }
                };
                parts.push((cases, one));
            }
            let items = parts.iter().map(|(n, _)| n).sum();
            (lexpilot_judge_attempts.max(1), items, parts)
        }
        Benchmark::Plawbench => {
            let settings = spec.plawbench.clone().unwrap_or_default();
            let a = settings.judge_attempts.max(1);
            let one = (Calls::exactly(1), Calls::NONE, judge(1, u64::from(a)));
            (a, cases, vec![(cases, one)])
        }
        Benchmark::Dlawbench => {
            let settings = spec.dlawbench.clone().unwrap_or_default();
            let (h, l) = (
                u64::from(settings.horizon.max(1)),
                u64::from(settings.lawyer_attempts.max(1)),
            );
            let a = settings.judge_attempts.max(1);
            let sessions = cases * settings.styles.len() as u64;
            let one = (
                Calls::between(1, (h + 1) * l),
                Calls::between(0, h),
                Calls::between(0, 2 * j * u64::from(a)),
            );
            (a, sessions, vec![(sessions, one)])
        }
    };
    let runs = u64::from(spec.runs);
    let sum = |role: fn(&PerItem) -> Calls| {
        per_item
            .iter()
            .fold(Calls::NONE, |total, (n, one)| {
                total.plus(role(one).times(*n))
            })
            .times(runs)
    };
    Some(CallEstimate {
        model: sum(|p| p.0),
        user: sum(|p| p.1),
        judges: sum(|p| p.2),
        items,
        runs: spec.runs,
        seated_judges: j.try_into().unwrap_or(u32::MAX),
        judge_attempts: attempts,
    })
}

/// Tokens one call is assumed to read and write, for a cost estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TokensPerCall {
    pub input: u64,
    pub output: u64,
}

impl Default for TokensPerCall {
    /// A consultation with its instructions in, a reply out: 2,000 and 500.
    fn default() -> Self {
        TokensPerCall {
            input: 2_000,
            output: 500,
        }
    }
}

/// Prices per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Prices {
    pub input_per_million: f64,
    pub output_per_million: f64,
}

/// The cost of `calls` at `tokens` per call and `prices`: at least and at
/// most, in the prices' currency.
///
/// ```
/// use engine::estimate::{estimate_cost, Calls, Prices, TokensPerCall};
///
/// let prices = Prices { input_per_million: 2.0, output_per_million: 8.0 };
/// let tokens = TokensPerCall { input: 1_000, output: 250 };
/// // Each call: 1,000 × 2 / 10⁶ + 250 × 8 / 10⁶ = 0.004.
/// let (min, max) = estimate_cost(Calls { min: 100, max: 300 }, tokens, prices);
/// assert!((min - 0.4).abs() < 1e-12 && (max - 1.2).abs() < 1e-12);
/// ```
pub fn estimate_cost(calls: Calls, tokens: TokensPerCall, prices: Prices) -> (f64, f64) {
    let per_call = (tokens.input as f64 * prices.input_per_million
        + tokens.output as f64 * prices.output_per_million)
        / 1e6;
    (calls.min as f64 * per_call, calls.max as f64 * per_call)
}

/// The prices and token assumption the admin typed: prices only when both
/// are given, tokens the default where blank; every value a finite number
/// of at least 0, refused naming the field.
///
/// ```
/// use engine::estimate::{cost_inputs, TokensPerCall};
///
/// let (prices, tokens) = cost_inputs(Some("0.5"), Some("2"), None, Some("800")).unwrap();
/// assert_eq!(prices.unwrap().output_per_million, 2.0);
/// assert_eq!(tokens, TokensPerCall { input: TokensPerCall::default().input, output: 800 });
/// assert_eq!(cost_inputs(Some("0.5"), None, None, None).unwrap().0, None);
/// assert!(cost_inputs(Some("-1"), Some("2"), None, None).unwrap_err().contains("input price"));
/// ```
pub fn cost_inputs(
    input_price: Option<&str>,
    output_price: Option<&str>,
    input_tokens: Option<&str>,
    output_tokens: Option<&str>,
) -> Result<(Option<Prices>, TokensPerCall), String> {
    let price = |v: Option<&str>, what: &str| -> Result<Option<f64>, String> {
        v.map(|v| match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
            _ => Err(format!(
                "the {what} per million tokens must be a number of at least 0, not {v:?}"
            )),
        })
        .transpose()
    };
    let tokens = |v: Option<&str>, what: &str, default: u64| -> Result<u64, String> {
        v.map_or(Ok(default), |v| {
            v.trim().parse::<u64>().map_err(|_| {
                format!("the {what} tokens per call must be a whole number, not {v:?}")
            })
        })
    };
    let prices = match (
        price(input_price, "input price")?,
        price(output_price, "output price")?,
    ) {
        (Some(input), Some(output)) => Some(Prices {
            input_per_million: input,
            output_per_million: output,
        }),
        _ => None,
    };
    let default = TokensPerCall::default();
    Ok((
        prices,
        TokensPerCall {
            input: tokens(input_tokens, "input", default.input)?,
            output: tokens(output_tokens, "output", default.output)?,
        },
    ))
}

/// What the start form shows before a job starts: its calls (`None` for an
/// experiment) and, with prices, their cost at the tokens assumed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobEstimate {
    pub calls: Option<CallEstimate>,
    pub tokens: TokensPerCall,
    pub prices: Option<Prices>,
    /// The cost of every call, at least and at most.
    pub cost: Option<(f64, f64)>,
}

impl JobEstimate {
    pub fn new(
        calls: Option<CallEstimate>,
        tokens: TokensPerCall,
        prices: Option<Prices>,
    ) -> JobEstimate {
        let cost = calls
            .zip(prices)
            .map(|(calls, prices)| estimate_cost(calls.total(), tokens, prices));
        JobEstimate {
            calls,
            tokens,
            prices,
            cost,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlawbench::dataset::Style;
    use crate::jobs::{DlawbenchSettings, Experiment, PlawbenchSettings};

    fn endpoint(model: &str, vendor: Option<&str>) -> Endpoint {
        Endpoint {
            id: 1,
            name: model.into(),
            base_url: "http://h/v1".into(),
            model: model.into(),
            key_env: None,
            vendor: vendor.map(Into::into),
            created_at: String::new(),
        }
    }

    fn spec(benchmark: Benchmark, tasks: &[&str]) -> JobSpec {
        JobSpec {
            benchmark,
            dataset: "d".into(),
            model: endpoint("Test-Model", Some("acme")),
            user: Some(endpoint("Test-User", Some("acme"))),
            judges: vec![endpoint("Test-Judge", Some("judgeco"))],
            tasks: tasks.iter().map(|t| (*t).to_owned()).collect(),
            runs: 1,
            first_run: 1,
            concurrency: 4,
            user_condition: "standard".into(),
            limit: None,
            family: None,
            plawbench: None,
            dlawbench: None,
            experiment: None,
        }
    }

    /// Counted by hand from `pipeline/src/tasks.rs` for one case and one
    /// judge asked at most twice: LCA two consultations × (model 1, judge
    /// 1–2); DCG round 1 (model, judge 1–2), round 2 after a rejection (user,
    /// model, judge 1–2); LJP direct and gold (model, extraction judge 1–2);
    /// interaction three advisor turns with a strategy judge and a user
    /// answer each, then the final direct prediction and the extraction.
    #[test]
    fn lexpilot_counts_follow_the_pipeline_call_by_call() {
        let all = spec(Benchmark::Lexpilot, &["lca", "dcg", "ljp"]);
        let e = estimate_calls(&all, 1, 2).expect("an estimate");
        // model: LCA 2, DCG 1–2, direct 1, gold 1, interaction 1–4.
        assert_eq!(e.model, Calls::between(6, 10));
        // user: DCG 0–1, interaction 0–3.
        assert_eq!(e.user, Calls::between(0, 4));
        // judges: LCA 2–4, DCG 1–4, direct 1–2, gold 1–2, interaction 1–8.
        assert_eq!(e.judges, Calls::between(6, 20));
        assert_eq!(e.items, 2 + 1 + 3);
        // Listing a setup twice, or ljp beside ljp:gold, adds nothing.
        let again = spec(Benchmark::Lexpilot, &["lca", "dcg", "ljp", "ljp:gold"]);
        assert_eq!(estimate_calls(&again, 1, 2), Some(e));
    }

    #[test]
    fn cases_limit_runs_and_judges_multiply() {
        let mut s = spec(Benchmark::Lexpilot, &["ljp:direct"]);
        s.runs = 3;
        s.limit = Some(4);
        s.judges = vec![
            endpoint("Judge-A", Some("a")),
            endpoint("Judge-B", Some("b")),
            // Of the evaluated model's vendor: recuses in a panel.
            endpoint("Judge-C", Some("acme")),
        ];
        let e = estimate_calls(&s, 10, 6).expect("an estimate");
        assert_eq!(e.seated_judges, 2);
        assert_eq!(e.model, Calls::exactly(3 * 4));
        assert_eq!(e.judges, Calls::between(3 * 4 * 2, 3 * 4 * 2 * 6));
        // A limit above the dataset's size runs the dataset.
        s.limit = Some(50);
        assert_eq!(estimate_calls(&s, 10, 6).expect("an estimate").items, 10);
    }

    #[test]
    fn plawbench_is_exact_with_one_attempt_and_never_recuses() {
        let mut s = spec(Benchmark::Plawbench, &[]);
        s.judges.push(endpoint("Test-Model-Judge", Some("acme")));
        s.plawbench = Some(PlawbenchSettings::default());
        let e = estimate_calls(&s, 7, 6).expect("an estimate");
        assert_eq!((e.model, e.user), (Calls::exactly(7), Calls::NONE));
        assert_eq!(e.judges, Calls::exactly(14));
        assert!(e.total().is_exact());
        s.plawbench = Some(PlawbenchSettings {
            judge_attempts: 3,
            ..PlawbenchSettings::default()
        });
        let e = estimate_calls(&s, 7, 6).expect("an estimate");
        assert_eq!(e.judges, Calls::between(14, 42));
    }

    #[test]
    fn dlawbench_sessions_are_cases_times_styles_bounded_by_the_horizon() {
        let mut s = spec(Benchmark::Dlawbench, &[]);
        s.dlawbench = Some(DlawbenchSettings {
            styles: vec![Style::Cooperative, Style::Withdrawn],
            horizon: 3,
            lawyer_attempts: 2,
            judge_attempts: 1,
        });
        s.runs = 2;
        let e = estimate_calls(&s, 5, 6).expect("an estimate");
        let sessions = 5 * 2 * 2;
        assert_eq!(e.items, 10);
        assert_eq!(e.model, Calls::between(sessions, sessions * 4 * 2));
        assert_eq!(e.user, Calls::between(0, sessions * 3));
        assert_eq!(e.judges, Calls::between(0, sessions * 2));
    }

    #[test]
    fn experiments_unknown_tasks_and_an_empty_panel_have_no_estimate() {
        let mut s = spec(Benchmark::Lexpilot, &["lca"]);
        s.experiment = Some(Experiment::Targeted);
        assert_eq!(estimate_calls(&s, 3, 6), None);
        assert_eq!(
            estimate_calls(&spec(Benchmark::Lexpilot, &["ljp:maybe"]), 3, 6),
            None
        );
        let mut s = spec(Benchmark::Lexpilot, &["lca"]);
        s.judges.clear();
        assert_eq!(estimate_calls(&s, 3, 6), None);
    }
}
