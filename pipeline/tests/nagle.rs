//! The runner against an endpoint that does not set TCP_NODELAY and writes
//! its reply's head and body in two writes, as some servers do: the body
//! then waits until the client acknowledges the head, which Linux delays by
//! about 40 ms on a reused connection. That wait must not hold one of the
//! endpoint's slots, or every call loses it.
//!
//! A timing, so not part of the test suite (a busy machine fails it):
//! `scripts/bench-runner.sh` runs it (`cargo test --release -p pipeline
//! --test nagle -- --ignored`) and prints its figure.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::plawbench::dataset::{parse_dataset, Item};
use pipeline::config::{Endpoint, Limits, RetryPolicy};
use pipeline::plawbench::{Config, Job};
use pipeline::stub::plawbench::oracle;
use pipeline::stub::{PromptKind, StubCall, StubReply};
use pipeline::CancellationToken;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const DEMO: &str = include_str!("../../server/data/plawbench/demo.jsonl");

type Script = Arc<dyn Fn(&StubCall) -> StubReply + Send + Sync>;

/// Serves keep-alive HTTP/1.1 chat completions on `listener` after
/// `latency`, head and body written apart, TCP_NODELAY never set.
async fn serve(listener: TcpListener, latency: Duration, script: Script, count: Arc<AtomicUsize>) {
    while let Ok((socket, _)) = listener.accept().await {
        let (script, count) = (script.clone(), count.clone());
        tokio::spawn(async move {
            let _ = connection(socket, latency, script, count).await;
        });
    }
}

async fn connection(
    mut socket: TcpStream,
    latency: Duration,
    script: Script,
    count: Arc<AtomicUsize>,
) -> std::io::Result<()> {
    assert!(!socket.nodelay()?, "the endpoint leaves Nagle on");
    let mut buf = Vec::new();
    loop {
        let head_end = loop {
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let mut chunk = [0u8; 65536];
            let n = socket.read(&mut chunk).await?;
            if n == 0 {
                return Ok(());
            }
            buf.extend_from_slice(&chunk[..n]);
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).to_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        while buf.len() < head_end + length {
            let mut chunk = [0u8; 65536];
            let n = socket.read(&mut chunk).await?;
            if n == 0 {
                return Ok(());
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        let request: Value = serde_json::from_slice(&buf[head_end..head_end + length])?;
        buf.drain(..head_end + length);
        count.fetch_add(1, Ordering::Relaxed);
        let prompt = request["messages"]
            .as_array()
            .map(|m| {
                m.iter()
                    .filter_map(|m| m["content"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n\n")
            })
            .unwrap_or_default();
        let call = StubCall {
            kind: PromptKind::detect(&prompt),
            model: request["model"].as_str().unwrap_or_default().to_owned(),
            prompt,
            seen: 0,
        };
        let StubReply::Text(text) = script(&call) else {
            panic!("the oracle answers every call of the job");
        };
        tokio::time::sleep(latency).await;
        let body = json!({
            "choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1},
        })
        .to_string();
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            body.len()
        );
        socket.write_all(head.as_bytes()).await?;
        socket.write_all(body.as_bytes()).await?;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a timing: scripts/bench-runner.sh runs it"]
async fn an_endpoint_without_nodelay_costs_no_slot_time() {
    const LATENCY: Duration = Duration::from_millis(50);
    let items: Vec<Item> = parse_dataset(DEMO).expect("the PLawBench demo parses");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("listen");
    let url = format!("http://{}/v1", listener.local_addr().expect("address"));
    let count = Arc::new(AtomicUsize::new(0));
    tokio::spawn(serve(
        listener,
        LATENCY,
        Arc::new(oracle(&items)),
        count.clone(),
    ));

    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config::new(
        Endpoint::new(&url, "Test-Model"),
        Endpoint::judge(&url, "Test-Judge"),
        dir.path().to_owned(),
    );
    config.retry = RetryPolicy {
        timeout: Duration::from_secs(10),
        ..config.retry
    };
    // One slot per role: the model's calls follow one another, so the job
    // takes at least items × latency, plus one judge call at the end.
    config.limits = Limits {
        concurrency: 1,
        requests_per_minute: None,
    };
    let job = Job::new(config, items.clone()).expect("valid");
    let started = Instant::now();
    let output = job
        .run(CancellationToken::new())
        .await
        .expect("the job runs")
        .remove(0);
    let wall = started.elapsed();
    assert_eq!(output.parsed.unavailable(), 0);
    assert_eq!(count.load(Ordering::Relaxed), 2 * items.len());

    let n = items.len() as u32;
    let bound = LATENCY * (n + 1);
    let per_call = wall.saturating_sub(bound) / n;
    eprintln!(
        "{n} model calls one at a time, {} ms each: {wall:?} against a bound of {bound:?}, \
         {per_call:?} over it per call",
        LATENCY.as_millis()
    );
    // The stalled body costs each item its ~40 ms once, at its end, not the
    // next call's slot (before, each call lost ~45 ms); 25 ms a call
    // leaves room for a busy machine.
    assert!(
        per_call < Duration::from_millis(25),
        "each call lost {per_call:?} of its slot ({wall:?} for a bound of {bound:?})"
    );
}
