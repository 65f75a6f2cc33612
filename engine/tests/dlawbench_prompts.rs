//! DLawBench prompts (ours, →C-D1): each compiled-in file matches its
//! SHA-256 and the file on disk, the style catalog is complete, every
//! placeholder is filled, and the lawyer never sees what it must not.

use std::path::Path;

use engine::dlawbench::dataset::{parse_dataset, Case, Language, Style};
use engine::dlawbench::prompts::{
    client_messages, decisions, fact_judge_prompt, lawyer_messages, parse_action, parse_fact_reply,
    parse_rubric_reply, persona, rubric_judge_prompt, ChatRole, LawyerAction, PROMPT_FILES,
    PROMPT_VERSION,
};
use engine::dlawbench::run::{Action, Role, Turn};
use sha2::{Digest, Sha256};

fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn cases() -> Vec<Case> {
    parse_dataset(concat!(
        r#"{"case_id": "DL-CN-1", "jurisdiction": "cn", "domain": "labor", "opening": "我被辞退了，{不是占位符}。", "facts": [{"id": "F1", "type": "disputed", "client_belief": "公司没给补偿。", "court_record": "法院认定公司已支付补偿金。"}], "inquiry_rubrics": [{"id": "Q1", "text": "询问入职时间"}], "issue_rubrics": [{"id": "R1", "text": "经济补偿标准"}]}"#,
        "\n",
        r#"{"case_id": "DL-US-1", "jurisdiction": "us", "domain": "torts", "opening": "I slipped in a store.", "facts": [{"id": "F1", "type": "disputed", "client_belief": "The store knew about the spill.", "court_record": "The court found no actual or constructive notice."}, {"id": "F2", "type": "undisputed", "client_belief": "I fell on May 3.", "court_record": "Plaintiff fell on May 3."}], "inquiry_rubrics": [{"id": "Q1", "text": "Ask about warning signs"}], "issue_rubrics": [{"id": "R1", "text": "Notice requirement"}, {"id": "R2", "text": "Comparative fault"}]}"#,
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

fn turn(role: Role, content: &str) -> Turn {
    Turn {
        role,
        action: (role == Role::Lawyer).then_some(Action::Ask),
        content: content.into(),
        attempts: None,
        at: None,
        usage: None,
    }
}

#[test]
fn every_prompt_file_matches_its_sha256_and_the_file_on_disk() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts/dlawbench");
    for (name, text, digest) in PROMPT_FILES {
        assert_eq!(sha256(text), digest, "{name}");
        let on_disk = std::fs::read_to_string(dir.join(name)).expect(name);
        assert_eq!(on_disk, text, "{name}");
    }
    let readme = std::fs::read_to_string(dir.join("README.md")).expect("README.md");
    assert!(readme.contains("ours") && readme.contains(PROMPT_VERSION));
    for (name, _, _) in PROMPT_FILES {
        assert!(readme.contains(name), "the README lists {name}");
    }
}

#[test]
fn every_style_has_a_persona_in_both_languages() {
    for style in Style::ALL {
        for language in Language::ALL {
            let p = persona(style, language).unwrap_or_else(|| panic!("{style} {language}"));
            assert!(!p.persona_who.trim().is_empty() && !p.persona_voice.trim().is_empty());
        }
    }
}

#[test]
fn the_lawyer_sees_the_jurisdiction_opening_and_budget_only() {
    for case in cases() {
        let dialogue = [
            turn(Role::Client, &case.opening),
            turn(Role::Lawyer, "Q?"),
            turn(Role::Client, "A."),
        ];
        let messages = lawyer_messages(&case, &dialogue, 2, false);
        let all: String = messages.iter().map(|m| m.content.as_str()).collect();
        assert!(
            !all.contains("{jurisdiction}")
                && !all.contains("{horizon}")
                && !all.contains("{turns_left}")
        );
        assert!(
            all.contains(&case.opening),
            "the opening is kept as it is, braces too"
        );
        for fact in &case.facts {
            assert!(!all.contains(&fact.client_belief) && !all.contains(&fact.court_record));
        }
        for style in Style::ALL {
            assert!(!all.contains(style.as_str()), "no style label");
        }
        assert_eq!(
            messages.iter().map(|m| m.role).collect::<Vec<_>>(),
            [
                ChatRole::System,
                ChatRole::User,
                ChatRole::Assistant,
                ChatRole::User
            ]
        );
        assert_eq!(messages[2].content, r#"{"action":"ask","message":"Q?"}"#);
        assert!(
            messages[3].content.ends_with("[Questions remaining: 1]")
                || messages[3].content.ends_with("【剩余提问轮次：1】"),
            "{}",
            messages[3].content
        );
        let last = lawyer_messages(&case, &dialogue, 1, true);
        assert!(last[3].content.contains("submit"));
    }
}

#[test]
fn the_client_sees_beliefs_and_style_never_the_record() {
    for case in cases() {
        for style in Style::ALL {
            let messages = client_messages(
                &case,
                style,
                &[turn(Role::Client, &case.opening), turn(Role::Lawyer, "Q?")],
            );
            let system = &messages[0].content;
            let p = persona(style, case.language).expect("a persona");
            assert!(system.contains(&p.persona_who) && system.contains(&p.persona_voice));
            for fact in &case.facts {
                assert!(system.contains(&fact.client_belief));
                assert!(!system.contains(&fact.court_record));
            }
            assert!(!system.contains("{beliefs}") && !system.contains("{opening}"));
            assert_eq!(messages.len(), 2);
            assert_eq!(messages[1].role, ChatRole::User);
        }
    }
    let en = client_messages(&cases()[1], Style::Cooperative, &[]);
    assert!(en[0].content.contains(
        "answer only from the case knowledge block, say you do not know when asked outside it, and maintain conversational consistency"
    ));
}

#[test]
fn judges_see_the_full_record_and_their_replies_become_decisions() {
    let case = &cases()[1];
    let dialogue = [
        turn(Role::Client, &case.opening),
        turn(Role::Lawyer, "Any warning signs?"),
        turn(Role::Client, "No."),
    ];
    let rubric = rubric_judge_prompt(case, &dialogue, "MEMO");
    let facts = fact_judge_prompt(case, "MEMO");
    for prompt in [&rubric, &facts] {
        assert!(prompt.contains("no actual or constructive notice") && prompt.contains("MEMO"));
        assert!(!prompt.contains("{case_record}") && !prompt.contains("{memo}"));
    }
    assert!(rubric.contains("[1] lawyer: Any warning signs?"));
    assert!(rubric.contains("2. [R2] Comparative fault"));
    assert!(facts.contains("- F2: client belief: I fell on May 3."));

    let r = parse_rubric_reply("Here you are:\n```json\n{\"expected_action_scores\": [1], \"memo_expectation_scores\": [0, 1], \"rationale\": \"asks about signs\"}\n```", case).expect("a rubric reply");
    let f = parse_fact_reply(r#"{"discovery": {"covered": ["F1", "F2"], "missed": []}, "accuracy": {"correct": ["F2"], "incorrect": [{"fact_id": "F1", "reason": "says the store knew"}]}, "grounding": {"grounded_claims": ["fell May 3"], "ungrounded_claims": ["store knew"], "total_claims": 2}}"#, case).expect("a fact reply");
    let (d, rationale) = decisions(r, f);
    assert_eq!((d.inquiry, d.issue), (vec![1], vec![0, 1]));
    assert_eq!((d.claims_total, d.claims_grounded), (2, 1));
    assert_eq!(rationale.as_deref(), Some("asks about signs"));

    for bad in [
        r#"{"expected_action_scores": [2], "memo_expectation_scores": [0, 1]}"#,
        r#"{"expected_action_scores": [1], "memo_expectation_scores": [0]}"#,
        "no json here",
    ] {
        assert!(parse_rubric_reply(bad, case).is_err(), "{bad}");
    }
    for bad in [
        r#"{"discovery": {"covered": ["F1"], "missed": ["F1", "F2"]}, "accuracy": {"correct": ["F1"], "incorrect": []}, "grounding": {"grounded_claims": [], "ungrounded_claims": [], "total_claims": 0}}"#,
        r#"{"discovery": {"covered": ["F1"], "missed": ["F2"]}, "accuracy": {"correct": [], "incorrect": []}, "grounding": {"grounded_claims": [], "ungrounded_claims": [], "total_claims": 0}}"#,
        r#"{"discovery": {"covered": ["F1"], "missed": ["F2"]}, "accuracy": {"correct": ["F1"], "incorrect": []}, "grounding": {"grounded_claims": ["a"], "ungrounded_claims": [], "total_claims": 3}}"#,
        r#"{"discovery": {"covered": ["F3"], "missed": ["F1", "F2"]}, "accuracy": {"correct": ["F3"], "incorrect": []}, "grounding": {"grounded_claims": [], "ungrounded_claims": [], "total_claims": 0}}"#,
    ] {
        assert!(parse_fact_reply(bad, case).is_err(), "{bad}");
    }
}

#[test]
fn lawyer_actions_are_read_or_refused_for_a_retry() {
    assert_eq!(
        parse_action(r#"Sure. {"action": "submit", "memo": "一、事实……"}"#, false),
        Ok(LawyerAction::Submit {
            memo: "一、事实……".into()
        })
    );
    for bad in [
        "",
        "   ",
        r#"{"action": "ask", "message": "  "}"#,
        r#"{"action": "call"}"#,
        r#"{"memo": "m"}"#,
        r#"{"action": "submit"}"#,
    ] {
        assert!(parse_action(bad, false).is_err(), "{bad:?}");
    }
    assert_eq!(
        parse_action(
            r#"{"action": "ask", "message": "When did you start?"}"#,
            false
        )
        .map(|a| a.action()),
        Ok(Action::Ask)
    );
}
