//! The call cache: every completed LLM call, keyed by the SHA-256 of its
//! canonical request, kept on disk so that an interrupted job resumes without
//! repeating a finished call.
//!
//! - The key ([`request_key`]) covers the endpoint's URL, the model, the
//!   messages, the sampling settings and a sample tag (the repetition for the
//!   evaluated and user models, the attempt for LexPilot's judges, both for
//!   PLawBench's, the repetition, style and attempt for DLawBench's calls),
//!   never the API key.
//! - Where calls are kept is a [`CallStore`]: by default the file
//!   (`cache/calls.jsonl` under the job's out dir, [`FileStore`]); the server
//!   keeps its jobs' calls in its database instead ([`Calls::Store`]).
//! - The file is append-only
//!   JSON Lines, one `{"key", "content", "prompt_tokens", "completion_tokens",
//!   "finish_reason"}` per call, synced to disk before the call counts as
//!   finished. Calls finishing together share one write and one sync (a
//!   group commit): a sync takes milliseconds, and one per call, one after
//!   another, held up every call behind it at high concurrency. A torn last
//!   line (a crash mid-write) is cut off on open; other unreadable lines are
//!   skipped with a warning.
//! - Concurrent requests for one key share one call: the first makes it, the
//!   others wait for its result.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;
use tokio::sync::OnceCell;

use crate::error::PipelineError;

/// What one finished call returned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Completion {
    /// The reply text.
    pub content: String,
    /// Prompt tokens, from the reply's `usage` (0 when absent).
    pub prompt_tokens: u64,
    /// Completion tokens, from the reply's `usage` (0 when absent).
    pub completion_tokens: u64,
    /// How the reply ended (`stop`, `length`, …), when the endpoint says;
    /// absent in entries cached before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    key: String,
    #[serde(flatten)]
    completion: Completion,
}

/// The canonical request of one call: what decides its reply.
#[derive(Debug, Serialize)]
pub struct CanonicalRequest<'a> {
    /// The chat-completions URL.
    pub url: &'a str,
    /// The model name.
    pub model: &'a str,
    /// The messages, as `(role, content)`.
    pub messages: &'a [(&'a str, &'a str)],
    /// Sampling temperature.
    pub temperature: f64,
    /// Largest completion.
    pub max_tokens: u32,
    /// Which sample of this request: `run1`, `attempt0`, …
    pub sample: &'a str,
}

/// The cache key of a request: SHA-256 of its canonical JSON, lowercase hex.
///
/// # Examples
///
/// ```
/// use pipeline::cache::{request_key, CanonicalRequest};
///
/// let req = |sample| CanonicalRequest {
///     url: "http://h/v1/chat/completions", model: "m",
///     messages: &[("user", "你好")], temperature: 0.7, max_tokens: 8192, sample,
/// };
/// assert_eq!(request_key(&req("run1")), request_key(&req("run1")));
/// assert_ne!(request_key(&req("run1")), request_key(&req("run2")));
/// ```
pub fn request_key(request: &CanonicalRequest<'_>) -> String {
    let json = serde_json::to_string(request).unwrap_or_default();
    hex::encode(Sha256::digest(json.as_bytes()))
}

/// Where a [`Cache`] keeps its finished calls. The pipeline's own store is a
/// file under the job's out dir ([`FileStore`]); the server keeps its jobs'
/// calls in the database, where any server can resume the job.
pub trait CallStore: Send + Sync + fmt::Debug {
    /// Every call stored so far, in any order.
    fn load(&self) -> BoxFuture<'_, Result<Vec<(String, Completion)>, PipelineError>>;
    /// Keeps one finished call; resolves once it is durable.
    fn append<'a>(
        &'a self,
        key: &'a str,
        completion: &'a Completion,
    ) -> BoxFuture<'a, Result<(), PipelineError>>;
    /// Where the calls are kept, for messages.
    fn location(&self) -> String;
}

/// Which store a job's calls go to: the file under its out dir (the
/// default), or a store of the caller's.
#[derive(Clone, Default)]
pub enum Calls {
    /// `cache/calls.jsonl` under the out dir ([`FileStore`]).
    #[default]
    OutDir,
    /// The given store.
    Store(Arc<dyn CallStore>),
}

impl fmt::Debug for Calls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Calls::OutDir => f.write_str("OutDir"),
            Calls::Store(store) => write!(f, "Store({})", store.location()),
        }
    }
}

impl PartialEq for Calls {
    fn eq(&self, other: &Calls) -> bool {
        match (self, other) {
            (Calls::OutDir, Calls::OutDir) => true,
            (Calls::Store(a), Calls::Store(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// The call cache of one job: every finished call, read from its store when
/// opened and written to it as calls finish.
#[derive(Debug)]
pub struct Cache {
    store: Arc<dyn CallStore>,
    entries: Mutex<HashMap<String, Arc<OnceCell<Completion>>>>,
    loaded: usize,
}

impl Cache {
    /// The cache file of an out dir.
    pub fn file_in(out_dir: &Path) -> PathBuf {
        out_dir.join("cache").join("calls.jsonl")
    }

    /// Opens (creating if needed) the cache file of `out_dir` and loads it.
    pub async fn open(out_dir: &Path) -> Result<Cache, PipelineError> {
        Cache::with_store(Arc::new(FileStore::open(out_dir).await?)).await
    }

    /// The cache of `calls` for a job writing to `out_dir`.
    pub async fn open_calls(out_dir: &Path, calls: &Calls) -> Result<Cache, PipelineError> {
        match calls {
            Calls::OutDir => Cache::open(out_dir).await,
            Calls::Store(store) => Cache::with_store(store.clone()).await,
        }
    }

    /// The cache kept in `store`, loaded from it.
    pub async fn with_store(store: Arc<dyn CallStore>) -> Result<Cache, PipelineError> {
        let entries: HashMap<_, _> = store
            .load()
            .await?
            .into_iter()
            .map(|(key, completion)| (key, Arc::new(OnceCell::new_with(Some(completion)))))
            .collect();
        Ok(Cache {
            store,
            loaded: entries.len(),
            entries: Mutex::new(entries),
        })
    }

    /// Where the calls are kept (the cache file's path, for the file store).
    pub fn location(&self) -> String {
        self.store.location()
    }

    /// How many calls were in the store when the cache was opened.
    pub fn loaded(&self) -> usize {
        self.loaded
    }

    /// The cached completion of `key`, or the result of `call`, which is
    /// then written to the store. Returns whether it came from the cache (or
    /// from a concurrent caller of the same key). A failed call is not cached.
    pub async fn get_or_call<F, Fut, E>(&self, key: &str, call: F) -> Result<Cached, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Completion, E>>,
        E: From<PipelineError>,
    {
        let cell = {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            entries.entry(key.to_owned()).or_default().clone()
        };
        let mut made = false;
        let made_here = &mut made;
        let completion = cell
            .get_or_try_init(|| async move {
                let completion = call().await?;
                self.store.append(key, &completion).await?;
                *made_here = true;
                Ok::<_, E>(completion)
            })
            .await?;
        Ok(Cached {
            completion: completion.clone(),
            cached: !made,
        })
    }
}

/// The call cache file of one out dir (`cache/calls.jsonl`), append-only.
#[derive(Debug)]
pub struct FileStore {
    path: PathBuf,
    /// The entries read when it was opened, handed out by the first `load`.
    read: Mutex<Vec<(String, Completion)>>,
    /// Lines waiting for the next write, and the number of their batch.
    pending: Mutex<Batch>,
    /// The file, held by whoever writes and syncs a batch, and the outcome
    /// of the batches written so far.
    file: tokio::sync::Mutex<(tokio::fs::File, Written)>,
}

/// The lines of the batch being gathered.
#[derive(Debug, Default)]
struct Batch {
    number: u64,
    lines: Vec<u8>,
}

/// The batches written: every batch up to `through` is on disk, except
/// those that failed, with their error.
#[derive(Debug, Default)]
struct Written {
    through: Option<u64>,
    failed: HashMap<u64, (std::io::ErrorKind, String)>,
}

impl FileStore {
    /// Opens (creating if needed) the cache file of `out_dir` and reads it,
    /// cutting off a torn last line.
    pub async fn open(out_dir: &Path) -> Result<FileStore, PipelineError> {
        let path = Cache::file_in(out_dir);
        let io = |action| {
            let path = path.clone();
            move |source| PipelineError::Io {
                action,
                path,
                source,
            }
        };
        if let Some(dir) = path.parent() {
            tokio::fs::create_dir_all(dir)
                .await
                .map_err(io("create the cache folder"))?;
        }
        let bytes = match tokio::fs::read(&path).await {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io("read the cache")(e)),
        };
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let read = FileStore::entries(&path, &bytes[..complete]);
        let file = tokio::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .await
            .map_err(io("open the cache"))?;
        if complete < bytes.len() {
            tracing::warn!(
                "{}: cutting off a torn last line ({} bytes)",
                path.display(),
                bytes.len() - complete
            );
            file.set_len(complete as u64)
                .await
                .map_err(io("repair the cache"))?;
        }
        Ok(FileStore {
            path,
            read: Mutex::new(read),
            pending: Mutex::new(Batch::default()),
            file: tokio::sync::Mutex::new((file, Written::default())),
        })
    }

    /// The entries of cache file `path`, read without opening it for
    /// writing (none when there is no file); a torn last line is left out.
    pub fn read(path: &Path) -> std::io::Result<Vec<(String, Completion)>> {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        Ok(FileStore::entries(path, &bytes[..complete]))
    }

    /// The entries of whole lines `bytes`; other lines are skipped with a
    /// warning.
    fn entries(path: &Path, bytes: &[u8]) -> Vec<(String, Completion)> {
        let mut entries = Vec::new();
        for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<Entry>(line) {
                Ok(entry) => entries.push((entry.key, entry.completion)),
                Err(e) => tracing::warn!(
                    "{}: line {} is not a cache entry ({e}); skipped",
                    path.display(),
                    n + 1
                ),
            }
        }
        entries
    }
}

impl CallStore for FileStore {
    fn load(&self) -> BoxFuture<'_, Result<Vec<(String, Completion)>, PipelineError>> {
        let read = std::mem::take(&mut *self.read.lock().unwrap_or_else(|e| e.into_inner()));
        Box::pin(async move { Ok(read) })
    }

    fn append<'a>(
        &'a self,
        key: &'a str,
        completion: &'a Completion,
    ) -> BoxFuture<'a, Result<(), PipelineError>> {
        Box::pin(async move {
            let entry = Entry {
                key: key.to_owned(),
                completion: completion.clone(),
            };
            let mut line = serde_json::to_string(&entry).unwrap_or_default();
            line.push('\n');
            let io = |source| PipelineError::Io {
                action: "write the cache",
                path: self.path.clone(),
                source,
            };
            // Join the batch being gathered, then wait for the file: whoever
            // holds it writes and syncs every line gathered so far, so the
            // calls that finish while one sync runs share the next.
            let mine = {
                let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
                pending.lines.extend_from_slice(line.as_bytes());
                pending.number
            };
            let mut guard = self.file.lock().await;
            let (file, written) = &mut *guard;
            if written.through.is_none_or(|n| n < mine) {
                let (number, lines) = {
                    let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
                    let lines = std::mem::take(&mut pending.lines);
                    pending.number += 1;
                    (pending.number - 1, lines)
                };
                let result = match file.write_all(&lines).await {
                    Ok(()) => file.sync_data().await,
                    Err(e) => Err(e),
                };
                if let Err(e) = result {
                    written.failed.insert(number, (e.kind(), e.to_string()));
                }
                written.through = Some(number);
            }
            match written.failed.get(&mine) {
                None => Ok(()),
                Some((kind, message)) => Err(io(std::io::Error::new(*kind, message.clone()))),
            }
        })
    }

    fn location(&self) -> String {
        self.path.display().to_string()
    }
}

/// A completion and whether it was served from the cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    /// The completion.
    pub completion: Completion,
    /// `true` when no call was made for it now.
    pub cached: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn completion(text: &str) -> Completion {
        Completion {
            content: text.into(),
            prompt_tokens: 3,
            completion_tokens: 1,
            finish_reason: Some("stop".into()),
        }
    }

    #[test]
    fn entries_cached_before_finish_reasons_were_kept_still_read() {
        let old = r#"{"key":"k","content":"是","prompt_tokens":4,"completion_tokens":1}"#;
        let entry: Entry = serde_json::from_str(old).expect("an old entry reads");
        assert_eq!(entry.completion.finish_reason, None);
        let line = serde_json::to_string(&entry).expect("JSON");
        assert!(!line.contains("finish_reason"), "{line}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn calls_finishing_together_share_syncs_and_all_are_kept() -> Result<(), PipelineError> {
        let dir = tempfile::tempdir().map_err(|source| PipelineError::Io {
            action: "create",
            path: PathBuf::new(),
            source,
        })?;
        let store = Arc::new(FileStore::open(dir.path()).await?);
        let done = futures_util::future::join_all((0..64).map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .append(&format!("k{i}"), &completion(&format!("答{i}")))
                    .await
            })
        }))
        .await;
        for result in done {
            result.map_err(|e| PipelineError::Task(e.to_string()))??;
        }
        let batches = store.pending.lock().map_or(0, |p| p.number);
        assert!(batches < 64, "{batches} syncs for 64 calls at once");
        drop(store);
        let cache = Cache::open(dir.path()).await?;
        assert_eq!(cache.loaded(), 64);
        Ok(())
    }

    #[tokio::test]
    async fn survives_reopening_and_a_torn_line() -> Result<(), PipelineError> {
        let dir = tempfile::tempdir().map_err(|source| PipelineError::Io {
            action: "create",
            path: PathBuf::new(),
            source,
        })?;
        let cache = Cache::open(dir.path()).await?;
        let first = cache
            .get_or_call("k1", || async { Ok::<_, PipelineError>(completion("一")) })
            .await?;
        assert!(!first.cached);
        let again = cache
            .get_or_call("k1", || async {
                Err::<Completion, _>(PipelineError::Task("must not be called".into()))
            })
            .await?;
        assert!(again.cached);
        assert_eq!(again.completion.content, "一");
        drop(cache);

        let path = Cache::file_in(dir.path());
        let mut text = std::fs::read_to_string(&path).unwrap_or_default();
        text.push_str("{\"key\": \"k2\", \"cont");
        std::fs::write(&path, text).unwrap_or_default();

        let cache = Cache::open(dir.path()).await?;
        assert_eq!(cache.loaded(), 1);
        cache
            .get_or_call("k2", || async { Ok::<_, PipelineError>(completion("二")) })
            .await?;
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(text
            .lines()
            .all(|l| serde_json::from_str::<Entry>(l).is_ok()));
        Ok(())
    }
}
