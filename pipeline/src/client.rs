//! Calls to OpenAI-compatible chat-completions endpoints: one
//! [`Caller`] per endpoint (its concurrency semaphore, optional rate limit and
//! `Authorization` header), and [`Client::chat`] (any messages; the reply with
//! its `finish_reason`) and [`Client::complete`] (one user message; the reply
//! text), which serve a call from the cache or make it with retries.
//!
//! Retries: up to `max_attempts` attempts per call on 408 / 429 / 5xx,
//! timeouts, connection failures, empty and malformed replies, waiting an
//! exponential backoff with jitter (`base_delay × 2^(n−1)`, at most
//! `max_delay`) or the reply's `Retry-After`, whichever is longer. Other
//! statuses (400, 401, 404, …) fail at once. A cancelled job starts no new
//! request, but lets requests already sent finish and be cached.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::header::{HeaderValue, AUTHORIZATION, RETRY_AFTER};
use serde_json::{json, Value};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use crate::cache::{request_key, Cache, CanonicalRequest, Completion};
use crate::config::{ApiKey, Endpoint, Limits, RetryPolicy};
use crate::error::{CallError, PipelineError};
use crate::usage::UsageTally;

/// The longest `Retry-After` honoured; a longer one is cut to this.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(600);

/// One endpoint in use: where, who, how fast.
#[derive(Debug)]
pub(crate) struct Caller {
    /// The role's name in usage and judge outputs: `model`, `user`, `judge:NAME`.
    pub(crate) role: String,
    pub(crate) endpoint: Endpoint,
    url: String,
    auth: Option<HeaderValue>,
    permits: Semaphore,
    limiter: Option<RateLimiter>,
    /// Whether an empty reply is a reply (returned, and cached, with empty
    /// text) rather than a fault to retry: for a model whose empty replies
    /// are its own failure, which its job counts (DLawBench's lawyer).
    empty_is_reply: bool,
}

impl Caller {
    /// A caller for `endpoint`, sending `key` (if any) as a bearer token.
    pub(crate) fn new(
        role: String,
        endpoint: Endpoint,
        key: Option<ApiKey>,
        limits: Limits,
    ) -> Result<Caller, PipelineError> {
        let auth = key
            .map(|key| {
                let mut value = HeaderValue::from_str(&format!("Bearer {}", key.expose()))
                    .map_err(|_| {
                        PipelineError::Config(format!(
                            "the API key of {} has characters an HTTP header cannot carry",
                            endpoint.model
                        ))
                    })?;
                value.set_sensitive(true);
                Ok::<_, PipelineError>(value)
            })
            .transpose()?;
        Ok(Caller {
            role,
            url: endpoint.url(),
            endpoint,
            auth,
            permits: Semaphore::new(limits.concurrency.max(1)),
            limiter: limits
                .requests_per_minute
                .filter(|&n| n > 0)
                .map(RateLimiter::per_minute),
            empty_is_reply: false,
        })
    }

    /// The same caller, returning empty replies instead of retrying them.
    pub(crate) fn taking_empty_replies(self) -> Caller {
        Caller {
            empty_is_reply: true,
            ..self
        }
    }
}

/// Spaces request starts evenly: at most `n` per minute.
#[derive(Debug)]
struct RateLimiter {
    interval: Duration,
    next: tokio::sync::Mutex<Instant>,
}

impl RateLimiter {
    fn per_minute(n: u32) -> RateLimiter {
        RateLimiter {
            interval: Duration::from_secs(60) / n,
            next: tokio::sync::Mutex::new(Instant::now()),
        }
    }

    async fn wait(&self) {
        let slot = {
            let mut next = self.next.lock().await;
            let slot = (*next).max(Instant::now());
            *next = slot + self.interval;
            slot
        };
        tokio::time::sleep_until(slot.into()).await;
    }
}

/// Counts across the job, for progress.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    /// HTTP requests sent, retries included.
    pub(crate) requests: AtomicU64,
    /// Calls served from the cache.
    pub(crate) cached: AtomicU64,
    /// Retries.
    pub(crate) retries: AtomicU64,
    /// The first call that failed for good, whole (the endpoint's words
    /// included), for the job's admins; runs keep only its public reason.
    pub(crate) first_failure: std::sync::OnceLock<String>,
}

/// Why a step of an item did not finish.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The call failed for good: the item is unavailable for this reason.
    Unavailable(String),
    /// The job stops.
    Stop(Stop),
}

/// A failed step as its item's (or seat's) reason, or the job's stop.
pub(crate) fn split<T>(r: Result<T, Failure>) -> Result<Result<T, String>, Stop> {
    match r {
        Ok(v) => Ok(Ok(v)),
        Err(Failure::Unavailable(reason)) => Ok(Err(reason)),
        Err(Failure::Stop(stop)) => Err(stop),
    }
}

/// Why the job stops.
#[derive(Debug)]
pub(crate) enum Stop {
    Cancelled,
    Fatal(PipelineError),
}

/// A call that did not produce a completion, inside the cache.
enum CallFailure {
    Failed { error: CallError, attempts: u32 },
    Cancelled,
    Fatal(PipelineError),
}

impl From<PipelineError> for CallFailure {
    fn from(e: PipelineError) -> Self {
        CallFailure::Fatal(e)
    }
}

/// The outcome of one HTTP request: the completion, or the error with the
/// reply's `Retry-After`.
type Attempt = Result<Completion, (CallError, Option<Duration>)>;

/// The shared machinery of a job's calls.
#[derive(Debug)]
pub(crate) struct Client {
    http: reqwest::Client,
    retry: RetryPolicy,
    cache: Arc<Cache>,
    cancel: CancellationToken,
    pub(crate) counters: Counters,
}

impl Client {
    pub(crate) fn new(
        retry: RetryPolicy,
        cache: Arc<Cache>,
        cancel: CancellationToken,
    ) -> Result<Client, PipelineError> {
        // One client for the whole job, so its connections are kept alive
        // and reused across calls. TCP_NODELAY is reqwest's default; it is
        // set here so that no change of default makes a request wait for an
        // acknowledgement (Nagle) against an endpoint that delays its own.
        let http = reqwest::Client::builder()
            .user_agent(concat!("lexpilot-pipeline/", env!("CARGO_PKG_VERSION")))
            .tcp_nodelay(true)
            .build()
            .map_err(|e| PipelineError::Client(e.to_string()))?;
        Ok(Client {
            http,
            retry,
            cache,
            cancel,
            counters: Counters::default(),
        })
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// The reply of `caller` to `prompt` (one user message) for `sample`,
    /// from the cache or from the endpoint, counted in `usage`.
    pub(crate) async fn complete(
        &self,
        caller: &Caller,
        prompt: &str,
        sample: &str,
        usage: &UsageTally,
    ) -> Result<String, Failure> {
        self.chat(caller, &[("user", prompt)], sample, usage)
            .await
            .map(|c| c.content)
    }

    /// The completion of `caller` for `messages` (`(role, content)`, sent in
    /// order) for `sample`, from the cache or from the endpoint, counted in
    /// `usage`.
    pub(crate) async fn chat(
        &self,
        caller: &Caller,
        messages: &[(&str, &str)],
        sample: &str,
        usage: &UsageTally,
    ) -> Result<Completion, Failure> {
        let settings = caller.endpoint.settings;
        let key = request_key(&CanonicalRequest {
            url: &caller.url,
            model: &caller.endpoint.model,
            messages,
            temperature: settings.temperature,
            max_tokens: settings.max_tokens,
            sample,
        });
        let body = json!({
            "model": caller.endpoint.model,
            "messages": messages
                .iter()
                .map(|(role, content)| json!({"role": role, "content": content}))
                .collect::<Vec<_>>(),
            "temperature": settings.temperature,
            "max_tokens": settings.max_tokens,
        });
        let result = self
            .cache
            .get_or_call(&key, || self.with_retries(caller, &body))
            .await;
        match result {
            Ok(cached) => {
                if cached.cached {
                    self.counters.cached.fetch_add(1, Ordering::Relaxed);
                }
                usage.record(
                    &caller.role,
                    &caller.endpoint.model,
                    caller.endpoint.prices,
                    &cached.completion,
                    cached.cached,
                );
                Ok(cached.completion)
            }
            Err(CallFailure::Failed { error, attempts }) => {
                let failed = format!(
                    "{} call failed after {attempts} attempt{}",
                    caller.role,
                    if attempts == 1 { "" } else { "s" }
                );
                tracing::warn!("{failed} ({}): {error}", caller.endpoint.model);
                let _ = self
                    .counters
                    .first_failure
                    .set(format!("{failed} ({}): {error}", caller.endpoint.model));
                Err(Failure::Unavailable(format!(
                    "{failed}: {}",
                    error.public_reason()
                )))
            }
            Err(CallFailure::Cancelled) => Err(Failure::Stop(Stop::Cancelled)),
            Err(CallFailure::Fatal(e)) => Err(Failure::Stop(Stop::Fatal(e))),
        }
    }

    async fn with_retries(&self, caller: &Caller, body: &Value) -> Result<Completion, CallFailure> {
        let max_attempts = self.retry.max_attempts.max(1);
        let mut attempt = 1;
        loop {
            let (error, retry_after) = match self.attempt(caller, body).await? {
                Ok(completion) => return Ok(completion),
                Err(failed) => failed,
            };
            if !error.retryable() || attempt >= max_attempts {
                tracing::debug!("{} call failed for good: {error}", caller.role);
                return Err(CallFailure::Failed {
                    error,
                    attempts: attempt,
                });
            }
            let delay = backoff(&self.retry, attempt, rand::random::<f64>())
                .max(retry_after.unwrap_or_default().min(MAX_RETRY_AFTER));
            tracing::debug!(
                "{} attempt {attempt} failed ({error}); retrying in {delay:?}",
                caller.role
            );
            self.counters.retries.fetch_add(1, Ordering::Relaxed);
            tokio::select! {
                biased;
                () = self.cancel.cancelled() => return Err(CallFailure::Cancelled),
                () = tokio::time::sleep(delay) => {}
            }
            attempt += 1;
        }
    }

    /// One HTTP request: the completion, or the error with the reply's
    /// `Retry-After`; the outer error only when the job was cancelled before
    /// the request was sent.
    async fn attempt(&self, caller: &Caller, body: &Value) -> Result<Attempt, CallFailure> {
        let permit = tokio::select! {
            biased;
            () = self.cancel.cancelled() => return Err(CallFailure::Cancelled),
            permit = caller.permits.acquire() => permit.map_err(|_| CallFailure::Cancelled)?,
        };
        if let Some(limiter) = &caller.limiter {
            tokio::select! {
                biased;
                () = self.cancel.cancelled() => return Err(CallFailure::Cancelled),
                () = limiter.wait() => {}
            }
        }
        if self.cancel.is_cancelled() {
            return Err(CallFailure::Cancelled);
        }
        self.counters.requests.fetch_add(1, Ordering::Relaxed);
        let mut request = self
            .http
            .post(&caller.url)
            .json(body)
            .timeout(self.retry.timeout);
        if let Some(auth) = &caller.auth {
            request = request.header(AUTHORIZATION, auth.clone());
        }
        let response = match request.send().await {
            Ok(r) => r,
            Err(e) => return Ok(Err((self.transport_error(&e), None))),
        };
        // The endpoint has answered once its reply's head is here: its slot
        // is free for the next call while the body is read. An endpoint
        // that does not set TCP_NODELAY and writes head and body apart
        // holds the body back until the head is acknowledged, and on a
        // reused connection Linux delays that acknowledgement by about
        // 40 ms; with the slot held through it, every call lost that much.
        drop(permit);
        let status = response.status();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let text = match response.text().await {
            Ok(t) => t,
            Err(e) => return Ok(Err((self.transport_error(&e), retry_after))),
        };
        if !status.is_success() {
            let error = CallError::Status {
                status: status.as_u16(),
                body: excerpt(&redact(&text, caller.auth.as_ref())),
            };
            return Ok(Err((error, retry_after)));
        }
        Ok(completion_of(&text, caller.empty_is_reply).map_err(|e| (e, retry_after)))
    }

    fn transport_error(&self, e: &reqwest::Error) -> CallError {
        if e.is_timeout() {
            CallError::Timeout {
                seconds: self.retry.timeout.as_secs_f64(),
            }
        } else {
            let mut message = e.to_string();
            let mut source = std::error::Error::source(e);
            while let Some(s) = source {
                message.push_str(": ");
                message.push_str(&s.to_string());
                source = s.source();
            }
            CallError::Connect(message)
        }
    }
}

/// The backoff before attempt `attempt + 1`: `base × 2^(attempt−1)` capped at
/// `max_delay`, scaled by a jitter factor between ½ and 1 (`unit` in 0..1).
fn backoff(policy: &RetryPolicy, attempt: u32, unit: f64) -> Duration {
    let exp = policy
        .base_delay
        .saturating_mul(1u32 << attempt.saturating_sub(1).min(20));
    exp.min(policy.max_delay)
        .mul_f64(0.5 + 0.5 * unit.clamp(0.0, 1.0))
}

/// A `Retry-After` value: seconds, or an HTTP date.
fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds));
    }
    let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let wait = date.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(wait.to_std().unwrap_or_default())
}

/// The reply text and token counts of a chat-completions response body;
/// empty text is [`CallError::Empty`] unless `empty_is_reply`.
fn completion_of(body: &str, empty_is_reply: bool) -> Result<Completion, CallError> {
    let value: Value = serde_json::from_str(body)
        .map_err(|e| CallError::Malformed(format!("{e}; body starts {:?}", excerpt(body))))?;
    let Some(message) = value.pointer("/choices/0/message") else {
        return Err(CallError::Malformed(format!(
            "no choices[0].message; body starts {:?}",
            excerpt(body)
        )));
    };
    let content = message
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if content.trim().is_empty() && !empty_is_reply {
        return Err(CallError::Empty);
    }
    let tokens = |field| {
        value
            .pointer(&format!("/usage/{field}"))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let finish_reason = value
        .pointer("/choices/0/finish_reason")
        .and_then(Value::as_str)
        .map(str::to_owned);
    Ok(Completion {
        content: content.to_owned(),
        prompt_tokens: tokens("prompt_tokens"),
        completion_tokens: tokens("completion_tokens"),
        finish_reason,
    })
}

/// `text` with the bearer token (if an endpoint echoes it) blanked out.
fn redact(text: &str, auth: Option<&HeaderValue>) -> String {
    let key = auth
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .filter(|k| !k.is_empty());
    match key {
        Some(key) => text.replace(key, "<redacted>"),
        None => text.to_owned(),
    }
}

fn excerpt(text: &str) -> String {
    const SHOWN: usize = 200;
    let mut out: String = text.trim().chars().take(SHOWN).collect();
    if text.trim().chars().nth(SHOWN).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_caps() {
        let policy = RetryPolicy {
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(10),
            ..RetryPolicy::default()
        };
        assert_eq!(backoff(&policy, 1, 1.0), Duration::from_secs(1));
        assert_eq!(backoff(&policy, 3, 1.0), Duration::from_secs(4));
        assert_eq!(backoff(&policy, 3, 0.0), Duration::from_secs(2));
        assert_eq!(backoff(&policy, 30, 1.0), Duration::from_secs(10));
    }

    #[test]
    fn retry_after_in_seconds_or_a_date() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_retry_after("-1"), None);
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn completions_need_text() {
        let ok = r#"{"choices":[{"message":{"role":"assistant","content":"是"},"finish_reason":"length"}],
                     "usage":{"prompt_tokens":12,"completion_tokens":1}}"#;
        assert_eq!(
            completion_of(ok, false),
            Ok(Completion {
                content: "是".into(),
                prompt_tokens: 12,
                completion_tokens: 1,
                finish_reason: Some("length".into()),
            })
        );
        let empty = r#"{"choices":[{"message":{"content":"  "}}]}"#;
        assert_eq!(completion_of(empty, false), Err(CallError::Empty));
        assert_eq!(
            completion_of(empty, true).map(|c| c.content),
            Ok("  ".into())
        );
        let null = r#"{"choices":[{"message":{"content":null}}]}"#;
        assert_eq!(completion_of(null, false), Err(CallError::Empty));
        assert!(matches!(
            completion_of("<html>", true),
            Err(CallError::Malformed(_))
        ));
    }

    #[test]
    fn echoed_keys_are_blanked() {
        let mut auth = HeaderValue::from_static("Bearer sk-123");
        auth.set_sensitive(true);
        assert_eq!(redact("bad key sk-123", Some(&auth)), "bad key <redacted>");
        assert_eq!(format!("{auth:?}"), "Sensitive");
    }
}

/// A store that keeps nothing: the cache of a test call, which is never
/// made again.
#[derive(Debug)]
struct NoStore;

impl crate::cache::CallStore for NoStore {
    fn load(
        &self,
    ) -> futures_util::future::BoxFuture<'_, Result<Vec<(String, Completion)>, PipelineError>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    fn append<'a>(
        &'a self,
        _: &'a str,
        _: &'a Completion,
    ) -> futures_util::future::BoxFuture<'a, Result<(), PipelineError>> {
        Box::pin(async { Ok(()) })
    }

    fn location(&self) -> String {
        "nowhere (a test call)".into()
    }
}

/// What a test call asks.
pub const TEST_PROMPT: &str = "Reply with one word: ready.";

/// One real call to `endpoint`, as a job makes it (its key read from the
/// variable it names, the same request and reply checks), with no retry,
/// no cache and at most `timeout`: the completion, or why there is none.
/// For an admin checking an endpoint before a job depends on it.
pub async fn test_call(endpoint: &Endpoint, timeout: Duration) -> Result<Completion, String> {
    let key = crate::runner::read_key("model", endpoint).map_err(|e| e.to_string())?;
    let mut endpoint = endpoint.clone();
    // Enough for a reasoning model to answer one word, not a whole filing.
    endpoint.settings.max_tokens = endpoint.settings.max_tokens.min(512);
    let limits = Limits {
        concurrency: 1,
        requests_per_minute: None,
    };
    let caller = Caller::new("test".into(), endpoint, key, limits).map_err(|e| e.to_string())?;
    let retry = RetryPolicy {
        max_attempts: 1,
        timeout,
        ..RetryPolicy::default()
    };
    let cache = Cache::with_store(Arc::new(NoStore))
        .await
        .map_err(|e| e.to_string())?;
    let client =
        Client::new(retry, Arc::new(cache), CancellationToken::new()).map_err(|e| e.to_string())?;
    let sample = format!("test-{}", rand::random::<u64>());
    let usage = UsageTally::default();
    match client
        .chat(&caller, &[("user", TEST_PROMPT)], &sample, &usage)
        .await
    {
        Ok(completion) => Ok(completion),
        Err(Failure::Unavailable(reason)) => Err(reason),
        Err(Failure::Stop(Stop::Fatal(e))) => Err(e.to_string()),
        Err(Failure::Stop(Stop::Cancelled)) => Err("the call was cancelled".into()),
    }
}
