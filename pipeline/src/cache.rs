//! The call cache: every completed LLM call, keyed by the SHA-256 of its
//! canonical request, kept on disk so that an interrupted job resumes without
//! repeating a finished call.
//!
//! - The key ([`request_key`]) covers the endpoint's URL, the model, the
//!   messages, the sampling settings and a sample tag (the repetition for the
//!   evaluated and user models, the attempt for LexPilot's judges, both for
//!   PLawBench's, the repetition, style and attempt for DLawBench's calls),
//!   never the API key.
//! - The file (`cache/calls.jsonl` under the job's out dir) is append-only
//!   JSON Lines, one `{"key", "content", "prompt_tokens", "completion_tokens",
//!   "finish_reason"}` per call, written in one write and synced to disk before the call counts
//!   as finished. A torn last line (a crash mid-write) is cut off on open;
//!   other unreadable lines are skipped with a warning.
//! - Concurrent requests for one key share one call: the first makes it, the
//!   others wait for its result.

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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

/// The on-disk call cache of one out dir.
#[derive(Debug)]
pub struct Cache {
    path: PathBuf,
    entries: Mutex<HashMap<String, Arc<OnceCell<Completion>>>>,
    file: tokio::sync::Mutex<tokio::fs::File>,
    loaded: usize,
}

impl Cache {
    /// The cache file of an out dir.
    pub fn file_in(out_dir: &Path) -> PathBuf {
        out_dir.join("cache").join("calls.jsonl")
    }

    /// Opens (creating if needed) the cache of `out_dir` and loads it.
    pub async fn open(out_dir: &Path) -> Result<Cache, PipelineError> {
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
        let mut entries = HashMap::new();
        for (n, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<Entry>(line) {
                Ok(entry) => {
                    entries.insert(
                        entry.key,
                        Arc::new(OnceCell::new_with(Some(entry.completion))),
                    );
                }
                Err(e) => tracing::warn!(
                    "{}: line {} is not a cache entry ({e}); skipped",
                    path.display(),
                    n + 1
                ),
            }
        }
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
        let loaded = entries.len();
        Ok(Cache {
            path,
            entries: Mutex::new(entries),
            file: tokio::sync::Mutex::new(file),
            loaded,
        })
    }

    /// The cache file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many calls were found on disk when the cache was opened.
    pub fn loaded(&self) -> usize {
        self.loaded
    }

    /// The cached completion of `key`, or the result of `call`, which is
    /// then written to disk. Returns whether it came from the cache (or from
    /// a concurrent caller of the same key). A failed call is not cached.
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
                self.append(key, &completion).await?;
                *made_here = true;
                Ok::<_, E>(completion)
            })
            .await?;
        Ok(Cached {
            completion: completion.clone(),
            cached: !made,
        })
    }

    async fn append(&self, key: &str, completion: &Completion) -> Result<(), PipelineError> {
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
        let mut file = self.file.lock().await;
        file.write_all(line.as_bytes()).await.map_err(io)?;
        file.sync_data().await.map_err(io)
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
