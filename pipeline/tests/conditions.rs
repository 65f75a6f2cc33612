//! User conditions: the added instruction reaches the user model, and
//! self-correction asks the user after a verdict.

mod common;

use engine::lexpilot::run::parse_run;
use engine::vocab::LjpSetup;
use pipeline::config::{Tasks, UserCondition};
use pipeline::stub::{oracle, PromptKind, Stub, StubCall, StubReply};
use pipeline::{CancellationToken, Job};
use std::sync::{Arc, Mutex};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn self_correction_asks_after_a_verdict_and_keeps_the_budget() {
    let cases = common::demo_cases(4);
    let base = oracle(&cases);
    let user_prompts = Arc::new(Mutex::new(Vec::new()));
    let seen = user_prompts.clone();
    let stub = Stub::start(move |call: &StubCall| {
        if call.kind == PromptKind::User {
            seen.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(call.prompt.clone());
        }
        base(call)
    })
    .await
    .expect("stub");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = common::config(&stub.base_url, dir.path());
    config.tasks = Tasks::parse("ljp:interaction").expect("tasks");
    config.user_condition = UserCondition::SelfCorrection;
    let outputs = Job::new(config, cases.clone())
        .expect("valid config")
        .run(CancellationToken::new())
        .await
        .expect("job runs");
    let text = std::fs::read_to_string(&outputs[0].path).expect("run file");
    let run = parse_run(&text, &cases).expect("valid run");
    assert_eq!(run.header.extra["user_condition"], "self_correction");
    assert!(run.header.extra["prompts"]["user_self_correction.v1"].is_string());

    let expected = common::expected_run(&cases, run.header.clone());
    let expected: Vec<_> = expected
        .ljp
        .into_iter()
        .filter(|i| i.setup == LjpSetup::Interaction)
        .map(|i| i.predictions)
        .collect();
    let got: Vec<_> = run.ljp.iter().map(|i| i.predictions.clone()).collect();
    assert_eq!(got, expected);

    // Cases 0 and 1: one answer, then the check after the verdict ("无需补充",
    // not added to the dialogue); case 2: three answers; case 3: none.
    assert_eq!(stub.count(PromptKind::User), 2 + 2 + 3);
    let turns: Vec<usize> = run
        .ljp
        .iter()
        .map(|i| i.dialogue.as_ref().map_or(0, Vec::len))
        .collect();
    assert_eq!(turns, [3, 3, 7, 1]);
    let prompts = user_prompts
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    assert!(prompts
        .iter()
        .all(|p| p.contains("# 用户行为设定：自我更正")));
    assert!(prompts
        .iter()
        .any(|p| p.contains("最后1条AI法律顾问的发言")));
    assert!(prompts
        .iter()
        .any(|p| p.contains("最后2条AI法律顾问的发言")));
    assert!(!prompts.iter().any(|p| p.contains("{new_rounds}")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_style_adds_its_instruction() {
    // The second case's first DCG request is rejected, so the user answers.
    let cases = common::demo_cases(2);
    for condition in [
        UserCondition::Cooperative,
        UserCondition::Dependent,
        UserCondition::Withdrawn,
        UserCondition::Adversarial,
    ] {
        let base = oracle(&cases);
        let saw = Arc::new(Mutex::new(String::new()));
        let keep = saw.clone();
        let stub = Stub::start(move |call: &StubCall| -> StubReply {
            if call.kind == PromptKind::User {
                *keep.lock().unwrap_or_else(|e| e.into_inner()) = call.prompt.clone();
            }
            base(call)
        })
        .await
        .expect("stub");
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = common::config(&stub.base_url, dir.path());
        config.tasks = Tasks::parse("dcg").expect("tasks");
        config.user_condition = condition;
        let outputs = Job::new(config, cases.clone())
            .expect("valid config")
            .run(CancellationToken::new())
            .await
            .expect("job runs");
        assert_eq!(outputs.len(), 1);
        let addition = condition.addition().expect("an addition");
        let first_line = addition.text.lines().next().unwrap_or_default();
        let prompt = saw.lock().unwrap_or_else(|e| e.into_inner()).clone();
        assert!(prompt.starts_with(
            pipeline::prompts::USER_STANDARD
                .text
                .lines()
                .next()
                .unwrap_or("-")
        ));
        assert!(prompt.contains(first_line), "{condition}: {prompt}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delayed_and_self_correction_leave_dcg_standard_and_reach_interaction_ljp() {
    // The second case's first DCG request is rejected, so the user answers
    // in DCG; interaction LJP asks the user too.
    let cases = common::demo_cases(2);
    for condition in [UserCondition::Delayed, UserCondition::SelfCorrection] {
        let base = oracle(&cases);
        let seen: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(Vec::new()));
        let keep = seen.clone();
        let stub = Stub::start(move |call: &StubCall| -> StubReply {
            if call.kind == PromptKind::User {
                keep.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(call.prompt.clone());
            }
            base(call)
        })
        .await
        .expect("stub");
        let addition = condition.addition().expect("an addition");
        let first_line = addition.text.lines().next().unwrap_or_default().to_owned();

        // DCG alone: the standard user, and no condition template in the header.
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = common::config(&stub.base_url, dir.path());
        config.tasks = Tasks::parse("dcg").expect("tasks");
        config.user_condition = condition;
        let outputs = Job::new(config, cases.clone())
            .expect("valid config")
            .run(CancellationToken::new())
            .await
            .expect("job runs");
        let text = std::fs::read_to_string(&outputs[0].path).expect("run file");
        let run = parse_run(&text, &cases).expect("valid run");
        assert!(
            run.header.extra["prompts"].get(addition.name).is_none(),
            "{condition}"
        );
        let dcg_prompts = std::mem::take(&mut *seen.lock().unwrap_or_else(|e| e.into_inner()));
        assert!(!dcg_prompts.is_empty(), "the DCG user answered");
        assert!(
            dcg_prompts.iter().all(|p| !p.contains(&first_line)),
            "{condition}: DCG's user got the condition"
        );

        // Interaction LJP: the condition applies.
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = common::config(&stub.base_url, dir.path());
        config.tasks = Tasks::parse("ljp:interaction").expect("tasks");
        config.user_condition = condition;
        let outputs = Job::new(config, cases.clone())
            .expect("valid config")
            .run(CancellationToken::new())
            .await
            .expect("job runs");
        let text = std::fs::read_to_string(&outputs[0].path).expect("run file");
        let run = parse_run(&text, &cases).expect("valid run");
        assert!(
            run.header.extra["prompts"].get(addition.name).is_some(),
            "{condition}"
        );
        let ljp_prompts = seen.lock().unwrap_or_else(|e| e.into_inner()).clone();
        assert!(!ljp_prompts.is_empty());
        assert!(
            ljp_prompts.iter().all(|p| p.contains(&first_line)),
            "{condition}: interaction LJP's user lacks the condition"
        );
    }
}
