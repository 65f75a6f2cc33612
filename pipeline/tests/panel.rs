//! Judge panels: majority of three, agreement of two, recusal of a judge
//! from the evaluated model's vendor.

mod common;

use engine::lexpilot::run::parse_run;
use engine::vocab::LjpSetup;
use pipeline::config::Endpoint;
use pipeline::stub::{oracle, PromptKind, Stub, StubCall, StubReply};
use pipeline::{CancellationToken, Job};

/// The oracle, except that the judge named `contrarian` flips every strategy.
fn with_contrarian(
    cases: &[engine::lexpilot::dataset::Case],
    contrarian: &'static str,
) -> impl Fn(&StubCall) -> StubReply + Send + Sync + 'static {
    let base = oracle(cases);
    move |call: &StubCall| match (call.kind, base(call)) {
        (PromptKind::JudgeLca, StubReply::Text(t)) if call.model == contrarian => StubReply::Text(
            if t == "策略一" {
                "策略二"
            } else {
                "策略一"
            }
            .into(),
        ),
        (_, reply) => reply,
    }
}

async fn run_with_judges(
    stub: &Stub,
    cases: &[engine::lexpilot::dataset::Case],
    model: &str,
    judges: &[&str],
) -> (String, engine::lexpilot::run::Run) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = common::config(&stub.base_url, dir.path());
    config.model = Endpoint::new(&stub.base_url, model);
    config.judges = judges
        .iter()
        .map(|j| Endpoint::judge(&stub.base_url, *j))
        .collect();
    let outputs = Job::new(config, cases.to_vec())
        .expect("valid config")
        .run(CancellationToken::new())
        .await
        .expect("job runs");
    let text = std::fs::read_to_string(&outputs[0].path).expect("run file");
    let run = parse_run(&text, cases).expect("valid run");
    (text, run)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_judges_vote_and_two_must_agree() {
    let cases = common::demo_cases(4);
    let stub = Stub::start(with_contrarian(&cases, "Judge-C"))
        .await
        .expect("stub");

    let (text, run) = run_with_judges(
        &stub,
        &cases,
        "Test-Model",
        &["Judge-A", "Judge-B", "Judge-C"],
    )
    .await;
    assert_eq!(
        common::labels_only(&run),
        common::expected_run(&cases, run.header.clone())
    );
    assert_eq!(run.header.extra["judge_aggregation"], "majority");
    assert_eq!(
        run.header.judge.as_deref(),
        Some("Judge-A + Judge-B + Judge-C")
    );
    let first: serde_json::Value =
        serde_json::from_str(text.lines().nth(1).expect("an item")).expect("JSON");
    assert_eq!(first["judge_outputs"].as_array().map(Vec::len), Some(3));

    let (_, run) = run_with_judges(&stub, &cases, "Test-Model", &["Judge-A", "Judge-C"]).await;
    assert_eq!(run.header.extra["judge_aggregation"], "agreement");
    assert!(run.lca.iter().all(|i| i.label.is_none()));
    let reason = run.lca[0].unavailable.clone().unwrap_or_default();
    assert!(reason.contains("judges disagree"), "{reason}");
    // The interaction needs the strategy judge too; direct and gold do not.
    for item in &run.ljp {
        assert_eq!(
            item.unavailable.is_some(),
            item.setup == LjpSetup::Interaction,
            "{item:?}"
        );
    }
    assert_eq!(run.unavailable().dcg, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_judge_of_the_models_vendor_recuses() {
    let cases = common::demo_cases(2);
    let stub = Stub::start(oracle(&cases)).await.expect("stub");
    let (_, run) = run_with_judges(
        &stub,
        &cases,
        "gpt-test",
        &["gpt-judge", "claude-judge", "deepseek-judge"],
    )
    .await;
    assert_eq!(run.header.extra["recused_judges"][0]["model"], "gpt-judge");
    assert_eq!(run.header.extra["recused_judges"][0]["vendor"], "openai");
    assert_eq!(run.header.extra["judge_aggregation"], "agreement");
    assert_eq!(
        run.header.judge.as_deref(),
        Some("claude-judge + deepseek-judge")
    );
    assert_eq!(
        common::labels_only(&run),
        common::expected_run(&cases, run.header.clone())
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = common::config(&stub.base_url, dir.path());
    config.model = Endpoint::new(&stub.base_url, "gpt-test");
    config.judges = vec![
        Endpoint::judge(&stub.base_url, "gpt-judge"),
        Endpoint::judge(&stub.base_url, "o3-judge"),
    ];
    let err = Job::new(config, cases).expect_err("every judge recuses");
    assert!(err.to_string().contains("recuses"), "{err}");
}
