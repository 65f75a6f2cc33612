//! The API key goes into the `Authorization` header and nowhere else: not
//! into logs, `Debug` output, errors, run files, sidecars or the cache.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use pipeline::stub::{oracle, PromptKind, Stub, StubReply};
use pipeline::{CancellationToken, Job, PipelineError};

const KEY: &str = "sk-lexpilot-test-3f9a7c1e5b2d";
const VAR: &str = "LEXPILOT_PIPELINE_TEST_KEY";

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_key_is_sent_and_never_written() {
    let logs = Captured::default();
    let writer = logs.clone();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .try_init()
        .expect("the only subscriber of this test binary");
    std::env::set_var(VAR, KEY);

    let cases = common::demo_cases(4);
    let base = oracle(&cases);
    // Some failures, so that error paths (and their messages) are exercised.
    let stub = Stub::start(
        move |call: &pipeline::stub::StubCall| match (call.kind, call.seen) {
            (PromptKind::JudgeLca, 0) => StubReply::Status {
                status: 401,
                retry_after: None,
            },
            (PromptKind::Dcg, 0) => StubReply::Status {
                status: 500,
                retry_after: Some(0),
            },
            _ => base(call),
        },
    )
    .await
    .expect("stub starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = common::config(&stub.base_url, dir.path());
    config.model = config.model.with_key_env(VAR);
    config.user = config.user.with_key_env(VAR);
    config.judges[0] = config.judges[0].clone().with_key_env(VAR);
    config.runs = 2;

    let job = Job::new(config.clone(), cases.clone()).expect("valid config");
    let debug = format!("{job:?} {config:?}");
    assert!(!debug.contains(KEY), "Debug output shows the key");
    let outputs = job.run(CancellationToken::new()).await.expect("job runs");
    assert_eq!(outputs.len(), 2);

    assert_eq!(
        stub.authorizations().into_iter().collect::<Vec<_>>(),
        [format!("Bearer {KEY}")],
        "every request carries the key"
    );
    let files = common::files_under(dir.path());
    assert!(files.len() >= 5, "run files, sidecars and the cache");
    for (path, bytes) in files {
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(KEY), "{} holds the key", path.display());
    }
    let logged =
        String::from_utf8_lossy(&logs.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned();
    assert!(!logged.is_empty(), "the logs were captured");
    assert!(!logged.contains(KEY), "the logs hold the key");

    // A missing variable is named, with no key in sight.
    std::env::remove_var(VAR);
    let err = Job::new(config, cases).expect_err("the key is missing");
    assert!(matches!(err, PipelineError::MissingKey { .. }));
    assert!(err.to_string().contains(VAR), "{err}");
}
