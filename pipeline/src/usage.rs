//! Token usage and cost of one run, per role, written beside the run file as
//! `<run file stem>.usage.json` (never in the run header: header fields other
//! than `run` and `created_at` define the leaderboard entry, and per-run
//! numbers there would split it).
//!
//! Tokens come from each reply's `usage` field and are counted for every call
//! the run used, whether made now or served from the cache (a resumed run
//! reports the same totals as an uninterrupted one); `calls` and
//! `cached_calls` tell the two apart. Cost is tokens / 1000 × the role's
//! prices, absent when the role has no prices.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::Serialize;

use crate::cache::Completion;
use crate::config::Prices;

/// Usage of one role (the evaluated model, the user model, or one judge).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RoleUsage {
    /// The model name.
    pub model: String,
    /// Calls made by this invocation (retries not counted).
    pub calls: u64,
    /// Calls served from the cache.
    pub cached_calls: u64,
    /// Prompt tokens of all the run's calls.
    pub prompt_tokens: u64,
    /// Completion tokens of all the run's calls.
    pub completion_tokens: u64,
    /// The cost of those tokens, when prices are known.
    pub cost: Option<f64>,
}

/// The usage sidecar of one run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RunUsage {
    /// The evaluated model.
    pub model: String,
    /// The repetition.
    pub run: u32,
    /// Per role: `model`, `user`, `judge:<name>`.
    pub roles: BTreeMap<String, RoleUsage>,
    /// Prompt tokens of every role.
    pub prompt_tokens: u64,
    /// Completion tokens of every role.
    pub completion_tokens: u64,
    /// The cost of every role that has prices; absent when none has.
    pub total_cost: Option<f64>,
    /// Wall time from the job's start to this run's file, in seconds.
    pub elapsed_seconds: f64,
}

/// Collects a run's usage while its items are made.
#[derive(Debug, Default)]
pub(crate) struct UsageTally {
    roles: Mutex<BTreeMap<String, (RoleUsage, Option<Prices>)>>,
}

impl UsageTally {
    /// Counts one completion of `role`.
    pub(crate) fn record(
        &self,
        role: &str,
        model: &str,
        prices: Option<Prices>,
        completion: &Completion,
        cached: bool,
    ) {
        let mut roles = self.roles.lock().unwrap_or_else(|e| e.into_inner());
        let (usage, role_prices) = roles.entry(role.to_owned()).or_insert_with(|| {
            (
                RoleUsage {
                    model: model.to_owned(),
                    ..RoleUsage::default()
                },
                prices,
            )
        });
        if cached {
            usage.cached_calls += 1;
        } else {
            usage.calls += 1;
        }
        usage.prompt_tokens += completion.prompt_tokens;
        usage.completion_tokens += completion.completion_tokens;
        usage.cost = role_prices.map(|p| cost(p, usage.prompt_tokens, usage.completion_tokens));
    }

    /// The run's usage sidecar.
    pub(crate) fn finish(&self, model: &str, run: u32, elapsed_seconds: f64) -> RunUsage {
        let roles: BTreeMap<String, RoleUsage> = self
            .roles
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(k, (u, _))| (k.clone(), u.clone()))
            .collect();
        let costs: Vec<f64> = roles.values().filter_map(|u| u.cost).collect();
        RunUsage {
            model: model.to_owned(),
            run,
            prompt_tokens: roles.values().map(|u| u.prompt_tokens).sum(),
            completion_tokens: roles.values().map(|u| u.completion_tokens).sum(),
            total_cost: (!costs.is_empty()).then(|| costs.iter().sum()),
            roles,
            elapsed_seconds,
        }
    }
}

/// The cost of tokens at per-1,000-token prices.
///
/// # Examples
///
/// ```
/// use pipeline::config::Prices;
/// use pipeline::usage::cost;
///
/// let p = Prices { prompt_per_1k: 0.5, completion_per_1k: 2.0 };
/// assert_eq!(cost(p, 2000, 500), 2.0);
/// ```
pub fn cost(prices: Prices, prompt_tokens: u64, completion_tokens: u64) -> f64 {
    prompt_tokens as f64 / 1000.0 * prices.prompt_per_1k
        + completion_tokens as f64 / 1000.0 * prices.completion_per_1k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_calls_tokens_and_cost() {
        let tally = UsageTally::default();
        let c = Completion {
            content: "x".into(),
            prompt_tokens: 1000,
            completion_tokens: 100,
            finish_reason: None,
        };
        let p = Prices {
            prompt_per_1k: 1.0,
            completion_per_1k: 10.0,
        };
        tally.record("model", "M", Some(p), &c, false);
        tally.record("model", "M", Some(p), &c, true);
        tally.record("user", "U", None, &c, false);
        let u = tally.finish("M", 2, 1.5);
        assert_eq!(u.roles["model"].calls, 1);
        assert_eq!(u.roles["model"].cached_calls, 1);
        assert_eq!(u.roles["model"].cost, Some(4.0));
        assert_eq!(u.roles["user"].cost, None);
        assert_eq!(u.prompt_tokens, 3000);
        assert_eq!(u.total_cost, Some(4.0));
    }
}
