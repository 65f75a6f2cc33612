//! A whole job against the stub's oracle: valid run files whose labels and
//! scores are the ones the script implies, prompt hashes and the other
//! header fields recorded, usage sidecars written.

mod common;

use std::collections::BTreeMap;

use engine::lexpilot::run::parse_run_reader;
use engine::lexpilot::score::score_run;
use engine::vocab::Consultation;
use pipeline::stub::{identify, oracle, PromptKind, Stub};
use pipeline::{CancellationToken, Job};
use sha2::{Digest, Sha256};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_run_scores_what_the_script_implies() {
    let cases = common::demo_cases(12);
    for (i, case) in cases.iter().enumerate() {
        let under = pipeline::prompts::lexawn(&case.consultations.underspecified);
        assert_eq!(
            identify(&cases, &under),
            Some((i, Consultation::Underspecified)),
            "the oracle must tell the consultations of {} apart",
            case.case_id
        );
    }
    let stub = Stub::start(oracle(&cases)).await.expect("stub starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = common::config(&stub.base_url, dir.path());
    config.runs = 2;
    config.family = Some(engine::core::entry::Family::Open);
    let job = Job::new(config, cases.clone()).expect("valid config");
    assert_eq!(job.total_items(), 2 * 12 * 6);
    let progress = job.progress();
    let outputs = job.run(CancellationToken::new()).await.expect("job runs");
    assert_eq!(outputs.len(), 2);

    let last = progress.borrow().clone();
    assert_eq!((last.done, last.total, last.failures), (144, 144, 0));
    assert_eq!(last.runs_written, 2);
    assert!(last.calls > 0);

    for output in &outputs {
        // The file on disk parses against the dataset, on its own.
        let file = std::fs::File::open(&output.path).expect("run file");
        let run = parse_run_reader(std::io::BufReader::new(file), &cases).expect("valid run");
        assert_eq!(run, output.parsed);

        let expected = common::expected_run(&cases, run.header.clone());
        assert_eq!(common::labels_only(&run), expected);
        assert_eq!(score_run(&run, &cases), score_run(&expected, &cases));
        assert_eq!(run.unavailable().total(), 0);

        // Drill-down text is kept: replies, requests, dialogues.
        assert!(run.lca.iter().all(|i| i.response.is_some()));
        assert!(run
            .dcg
            .iter()
            .flat_map(|i| &i.requests)
            .all(|r| r.text.is_some()));
        let dialogues: Vec<usize> = run
            .ljp
            .iter()
            .filter(|i| i.setup == engine::vocab::LjpSetup::Interaction)
            .map(|i| i.dialogue.as_ref().map_or(0, Vec::len))
            .collect();
        // i % 4: 0, 1 ask once then predict (3 turns); 2 asks three times,
        // then the direct prompt (7 turns); 3 predicts at once (1 turn).
        assert_eq!(&dialogues[..4], [3, 3, 7, 1]);

        // Header: the contract fields, and the recorded extras.
        let h = &run.header;
        assert_eq!(h.model, "Test-Model");
        assert_eq!(h.judge.as_deref(), Some("Test-Judge"));
        assert_eq!(h.user_model.as_deref(), Some("Test-User"));
        assert_eq!(h.dataset.as_deref(), Some("demo-test"));
        assert!(h.created_at.is_some());
        assert_eq!(h.extra["user_condition"], "standard");
        assert_eq!(h.extra["judges"][0]["model"], "Test-Judge");
        assert_eq!(h.extra["judge_aggregation"], "single");

        // Usage sidecar.
        let usage: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&output.usage_path).expect("usage file"))
                .expect("usage JSON");
        assert_eq!(usage["run"], output.run);
        assert!(usage["roles"]["model"]["prompt_tokens"].as_u64() > Some(0));
        assert!(usage["roles"]["judge:Test-Judge"]["completion_tokens"].as_u64() > Some(0));
        assert!(usage
            .get("total_cost")
            .is_none_or(serde_json::Value::is_null));
    }
    // Both runs are one leaderboard entry.
    assert_eq!(
        outputs[0].parsed.header.entry_key(),
        outputs[1].parsed.header.entry_key()
    );
    let doc = engine::lexpilot::score::score_entries(
        &outputs.iter().map(|o| o.parsed.clone()).collect::<Vec<_>>(),
        &cases,
    );
    assert_eq!(doc.entries.len(), 1);
    assert_eq!(doc.entries[0].runs, 2);

    // Every role was played, and LCA's underspecified reply is reused as the
    // first interaction turn (same request, same run): 24 LCA + 8 extra
    // interaction turns = 32 LexAwN requests per run.
    assert_eq!(stub.count(PromptKind::Lexawn), 2 * (24 + 6 + 6));
    assert!(stub.count(PromptKind::Unknown) == 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_header_records_the_sha256_of_every_prompt_file_used() {
    let cases = common::demo_cases(2);
    let stub = Stub::start(oracle(&cases)).await.expect("stub starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = common::config(&stub.base_url, dir.path());
    config.user_condition = pipeline::config::UserCondition::Delayed;
    let job = Job::new(config, cases.clone()).expect("valid config");
    let outputs = job.run(CancellationToken::new()).await.expect("job runs");
    let header = &outputs[0].parsed.header;
    assert_eq!(header.extra["user_condition"], "delayed");
    // The recorded reading of the DCG judge's {key_facts}: every key fact.
    assert_eq!(header.extra["dcg_judge_key_facts"], "all");
    assert!(outputs[0]
        .path
        .to_string_lossy()
        .ends_with("Test-Model.delayed.run1.jsonl"));

    let prompts_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
    let expected: BTreeMap<String, serde_json::Value> = [
        "lexawn.v1",
        "dcg.v1",
        "ljp_direct.v1",
        "user_standard.v1",
        "judge_lca.v1",
        "judge_dcg.v1",
        "judge_ljp.v1",
        "user_delayed.v1",
    ]
    .into_iter()
    .map(|name| {
        let text = std::fs::read(prompts_dir.join(format!("{name}.txt"))).expect("prompt file");
        (name.to_owned(), hex::encode(Sha256::digest(&text)).into())
    })
    .collect();
    let recorded: BTreeMap<String, serde_json::Value> = header.extra["prompts"]
        .as_object()
        .expect("a prompts object")
        .clone()
        .into_iter()
        .collect();
    assert_eq!(recorded, expected);
}
