//! The loop every benchmark's job shares: open the out dir and its call
//! cache, make every item of every repetition with a bounded number in
//! flight, publish [`Progress`], hand each run's items to the job as soon as
//! its last one is done, and stop gracefully when cancelled.
//!
//! A benchmark says how one item is made through [`Maker`] (LexPilot's
//! `tasks::Ctx`, PLawBench's `plawbench::Ctx`, DLawBench's `dlawbench::Ctx`,
//! whose item is a whole session) and how a finished run is
//! written through the `write` callback of [`run_all`]; everything else here
//! is the same for all: the cache, retries and rate limits (in
//! [`crate::client`]), usage tallies per run, and cancellation: no new item
//! starts, items in flight finish their calls (which are cached), and the job
//! returns [`PipelineError::Cancelled`].
//!
//! Also the small helpers every job uses: [`read_key`], [`slug`] and
//! [`write_atomically`].

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::cache::{Cache, Calls};
use crate::client::{Client, Stop};
use crate::config::{ApiKey, Endpoint, RetryPolicy};
use crate::error::PipelineError;
use crate::usage::{RunUsage, UsageTally};
use engine::jobs::Progress;

/// What a run's items share: its repetition's cache tag and its usage tally.
#[derive(Debug)]
pub(crate) struct RunState {
    /// The cache tag of the evaluated model's calls (`run1`, …).
    pub(crate) sample: String,
    pub(crate) usage: UsageTally,
}

/// A finished item: its run-file line and whether it is unavailable.
#[derive(Debug, Clone)]
pub(crate) struct ItemOut {
    pub(crate) line: String,
    pub(crate) unavailable: bool,
}

/// How one benchmark makes one item.
pub(crate) trait Maker: Send + Sync + 'static {
    /// What one item is made from (a case and a task, an item index, …).
    type Unit: Copy + Send + Sync + 'static;

    /// The client the items are made through.
    fn client(&self) -> &Client;

    /// Makes one item of the run `run`; `Err` only when the job stops.
    fn make(
        &self,
        run: &RunState,
        unit: Self::Unit,
    ) -> impl Future<Output = Result<ItemOut, Stop>> + Send;
}

/// What [`run_all`] is told besides the maker and the units.
pub(crate) struct Plan<'a> {
    /// Where the call cache goes (`cache/calls.jsonl` under it) unless
    /// `calls` names a store.
    pub(crate) out_dir: &'a Path,
    pub(crate) calls: &'a Calls,
    pub(crate) retry: RetryPolicy,
    /// The repetitions, in order.
    pub(crate) runs: Vec<u32>,
    /// Items in flight at once, over all endpoints.
    pub(crate) in_flight: usize,
    /// The evaluated model, for the usage sidecars.
    pub(crate) model: &'a str,
    pub(crate) progress: &'a watch::Sender<Progress>,
}

/// Makes every unit of every run of `plan` with the maker `make` builds on
/// the job's client, calls `write` with each run's items (in the order they
/// finished; `write` sorts them) and usage as soon as the run is complete,
/// and returns what `write` returned, by repetition. See the
/// [module documentation](self).
pub(crate) async fn run_all<M, W, F, O>(
    plan: Plan<'_>,
    make: impl FnOnce(Client) -> Result<M, PipelineError>,
    units: &[M::Unit],
    cancel: CancellationToken,
    mut write: W,
) -> Result<Vec<O>, PipelineError>
where
    M: Maker,
    W: FnMut(u32, Vec<(M::Unit, ItemOut)>, RunUsage) -> F,
    F: Future<Output = Result<O, PipelineError>>,
{
    let started = Instant::now();
    tokio::fs::create_dir_all(plan.out_dir)
        .await
        .map_err(|source| PipelineError::Io {
            action: "create the out dir",
            path: plan.out_dir.to_owned(),
            source,
        })?;
    let cache = Arc::new(Cache::open_calls(plan.out_dir, plan.calls).await?);
    let cache_path = cache.location();
    let inner = cancel.child_token();
    let maker = Arc::new(make(Client::new(plan.retry, cache, inner.clone())?)?);
    let publish = |change: &dyn Fn(&mut Progress)| {
        let counters = &maker.client().counters;
        plan.progress.send_modify(|p| {
            change(p);
            p.calls = counters.requests.load(Ordering::Relaxed);
            p.cached_calls = counters.cached.load(Ordering::Relaxed);
            p.retries = counters.retries.load(Ordering::Relaxed);
            if p.first_failure.is_none() {
                p.first_failure = counters.first_failure.get().cloned();
            }
            p.elapsed_secs = started.elapsed().as_secs_f64();
        });
    };

    let runs = &plan.runs;
    let states: Vec<Arc<RunState>> = runs
        .iter()
        .map(|r| {
            Arc::new(RunState {
                sample: format!("run{r}"),
                usage: UsageTally::default(),
            })
        })
        .collect();
    let mut pending = Vec::with_capacity(units.len() * runs.len());
    for r in 0..runs.len() {
        pending.extend(units.iter().map(|&unit| (r, unit)));
    }
    let mut pending = pending.into_iter();
    let total = units.len() * runs.len();
    plan.progress.send_modify(|p| {
        *p = Progress {
            total,
            ..Progress::default()
        }
    });

    let mut items: Vec<Vec<(M::Unit, ItemOut)>> = (0..runs.len()).map(|_| Vec::new()).collect();
    let mut outputs: Vec<(u32, O)> = Vec::new();
    let mut stopped: Option<Stop> = None;
    let mut set: JoinSet<(usize, M::Unit, Result<ItemOut, Stop>)> = JoinSet::new();
    let mut ticker = tokio::time::interval(Duration::from_millis(250));
    loop {
        while stopped.is_none() && !inner.is_cancelled() && set.len() < plan.in_flight.max(1) {
            let Some((r, unit)) = pending.next() else {
                break;
            };
            let (maker, state) = (maker.clone(), states[r].clone());
            set.spawn(async move {
                let result = maker.make(&state, unit).await;
                (r, unit, result)
            });
        }
        let joined = tokio::select! {
            joined = set.join_next() => joined,
            _ = ticker.tick() => {
                publish(&|_| {});
                continue;
            }
        };
        let Some(joined) = joined else { break };
        let (r, unit, result) = joined.map_err(|e| PipelineError::Task(e.to_string()))?;
        match result {
            Ok(item) => {
                let unavailable = item.unavailable;
                items[r].push((unit, item));
                publish(&|p| {
                    p.done += 1;
                    p.failures += usize::from(unavailable);
                });
                if items[r].len() == units.len() {
                    let usage = states[r].usage.finish(
                        plan.model,
                        runs[r],
                        started.elapsed().as_secs_f64(),
                    );
                    let output = write(runs[r], std::mem::take(&mut items[r]), usage).await?;
                    outputs.push((runs[r], output));
                    publish(&|p| p.runs_written += 1);
                }
            }
            Err(stop) => {
                if stopped.is_none() {
                    inner.cancel();
                    stopped = Some(stop);
                } else if let Stop::Fatal(_) = stop {
                    stopped = Some(stop);
                }
            }
        }
    }
    publish(&|_| {});
    match stopped {
        None if cancel.is_cancelled() && outputs.len() < runs.len() => {
            Err(PipelineError::Cancelled { cache: cache_path })
        }
        None => {
            outputs.sort_by_key(|(run, _)| *run);
            Ok(outputs.into_iter().map(|(_, o)| o).collect())
        }
        Some(Stop::Cancelled) => Err(PipelineError::Cancelled { cache: cache_path }),
        Some(Stop::Fatal(e)) => Err(e),
    }
}

/// The API key of `endpoint` (playing `role`) from the environment variable
/// it names; `None` when it names none.
pub(crate) fn read_key(
    role: &'static str,
    endpoint: &Endpoint,
) -> Result<Option<ApiKey>, PipelineError> {
    let Some(var) = &endpoint.key_env else {
        return Ok(None);
    };
    match std::env::var(var) {
        Ok(key) if !key.trim().is_empty() => Ok(Some(ApiKey::new(key.trim()))),
        _ => Err(PipelineError::MissingKey {
            role,
            model: endpoint.model.clone(),
            var: var.clone(),
        }),
    }
}

/// The file-name form of a model name: every character but ASCII letters,
/// digits, `.`, `-` and `_` replaced by `_`.
pub(crate) fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes `bytes` to `path` through a temporary file beside it, synced, then
/// renamed over `path`.
pub(crate) async fn write_atomically(
    path: &Path,
    bytes: &[u8],
    action: &'static str,
) -> Result<(), PipelineError> {
    let io = |source| PipelineError::Io {
        action,
        path: path.to_owned(),
        source,
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        use tokio::io::AsyncWriteExt;
        let mut file = tokio::fs::File::create(&tmp).await.map_err(io)?;
        file.write_all(bytes).await.map_err(io)?;
        file.sync_all().await.map_err(io)?;
    }
    tokio::fs::rename(&tmp, path).await.map_err(io)
}

/// Writes a run's usage sidecar (pretty JSON) to `path`.
pub(crate) async fn write_usage(path: &Path, usage: &RunUsage) -> Result<(), PipelineError> {
    let text = serde_json::to_string_pretty(usage).unwrap_or_default() + "\n";
    write_atomically(path, text.as_bytes(), "write the usage file").await
}

/// Finishes repetition `run`'s result file: `text` (its header lines) then
/// each item's line in the order given, written atomically at `path` with
/// its usage sidecar at `usage_path` (`action` names the write in an error),
/// and read back by `parse`; a file that does not read back is
/// [`PipelineError::InvalidRun`].
pub(crate) async fn finish_run<U, R>(
    run: u32,
    (path, usage_path): (PathBuf, PathBuf),
    mut text: String,
    items: &[(U, ItemOut)],
    usage: RunUsage,
    action: &'static str,
    parse: impl FnOnce(&str) -> Result<R, engine::core::errors::DatasetErrors>,
) -> Result<crate::job::RunOutput<R>, PipelineError> {
    for (_, item) in items {
        text.push_str(&item.line);
        text.push('\n');
    }
    write_atomically(&path, text.as_bytes(), action).await?;
    write_usage(&usage_path, &usage).await?;
    let parsed = parse(&text).map_err(|errors| PipelineError::InvalidRun {
        path: path.clone(),
        errors,
    })?;
    Ok(crate::job::RunOutput {
        run,
        path,
        usage_path,
        usage,
        parsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_keep_only_safe_characters() {
        assert_eq!(slug("deepseek-ai/DeepSeek-R1"), "deepseek-ai_DeepSeek-R1");
        assert_eq!(slug("GPT-5.6 Sol"), "GPT-5.6_Sol");
    }
}
