//! PLawBench prompts (`docs/benchmarks/plawbench.md` Appendix 1, §B2.1,
//! §B2.2): the compiled-in texts against the spec's lengths and SHA-256, and
//! the rendering against Python's (`tests/reference/make_plawbench_prompt_fixture.py`
//! wrote `tests/fixtures/plawbench/prompts.json`).

use engine::plawbench::dataset::{parse_dataset, JudgeType};
use engine::plawbench::json::{python_dumps, OrderedJson};
use engine::plawbench::judge::{
    judge_system_template, judge_user_template, render_judge_prompts, render_model_prompt,
    task_instructions, user_template,
};
use serde_json::Value;
use sha2::{Digest, Sha256};

fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// (what, text, code points, SHA-256) as Appendix 1 gives them.
fn appendix() -> Vec<(&'static str, &'static str, usize, &'static str)> {
    use JudgeType::*;
    vec![
        (
            "TASK_INSTRUCTIONS[legal_qa]",
            task_instructions(LegalQa),
            701,
            "6a56bfa46145d31295a7a75ff85db8b15c636e3d5f15118c69c8a2ad27aedb6d",
        ),
        (
            "TASK_INSTRUCTIONS[case_analysis]",
            task_instructions(CaseAnalysis),
            1965,
            "21ac446756d5f2e8c5ccd41e3b0ad82a4e58bb55530b42e8b8762ec2772d13be",
        ),
        (
            "TASK_INSTRUCTIONS[document_generation]",
            task_instructions(DocumentGeneration),
            370,
            "b048976d0462bb644050f5a35f83b5693e22212bdfc1b8f50c0f3ec32e46ae28",
        ),
        (
            "USER_PROMPTS[case_analysis]",
            user_template(CaseAnalysis),
            35,
            "aa27cf3bb5be45143b4d3cefc5abe0c76a0c77e9a2a03d17bb43cdcdf42811e2",
        ),
        (
            "USER_PROMPTS[legal_qa]",
            user_template(LegalQa),
            18,
            "c736791fe0e3ac650aeccea9dc0141e984b276b4d216a7be8198de37eabf7dc2",
        ),
        (
            "USER_PROMPTS[document_generation]",
            user_template(DocumentGeneration),
            18,
            "c736791fe0e3ac650aeccea9dc0141e984b276b4d216a7be8198de37eabf7dc2",
        ),
        (
            "JUDGE_SYSTEM_PROMPTS[legal_qa]",
            judge_system_template(LegalQa),
            659,
            "c8deff7a43b9d3babff936946eb36980d87d74572f7feac94ae8dc3bd3314e77",
        ),
        (
            "JUDGE_SYSTEM_PROMPTS[document_generation]",
            judge_system_template(DocumentGeneration),
            537,
            "6e48881a8900d0d2403d572971270aa9cc7ba453f3962f5b3894f6a16a4ab5fb",
        ),
        (
            "JUDGE_SYSTEM_PROMPTS[case_analysis]",
            judge_system_template(CaseAnalysis),
            1703,
            "1116a1bbaae7d95064ab4a9162a6a7811c69b4ac5817af0f91cbcc4a1f0cd239",
        ),
        (
            "JUDGE_USER_PROMPTS[legal_qa]",
            judge_user_template(LegalQa),
            197,
            "2921e12d132f28115a807269b25cacdaf2f137b22e6879d14aa9489f6db96f09",
        ),
        (
            "JUDGE_USER_PROMPTS[document_generation]",
            judge_user_template(DocumentGeneration),
            197,
            "2921e12d132f28115a807269b25cacdaf2f137b22e6879d14aa9489f6db96f09",
        ),
        (
            "JUDGE_USER_PROMPTS[case_analysis]",
            judge_user_template(CaseAnalysis),
            890,
            "ef3314925de10cc98c962853f1d9ef185e45a1c98de5eb0c1378c134d6435617",
        ),
    ]
}

#[test]
fn every_prompt_has_the_length_and_sha256_of_the_spec() {
    for (what, text, chars, sha) in appendix() {
        assert_eq!(text.chars().count(), chars, "{what}: length");
        assert_eq!(sha256(text), sha, "{what}: sha256");
    }
}

#[test]
fn placeholders_are_where_the_spec_says() {
    use JudgeType::*;
    assert!(judge_system_template(LegalQa).contains("<<num>>"));
    assert!(!judge_user_template(CaseAnalysis).contains("<<score>>"));
    for jt in JudgeType::ALL {
        assert!(user_template(jt).contains("{question}"));
        assert!(judge_user_template(jt).contains("<<conversation>>"));
        assert!(judge_user_template(jt).contains("<<rubric_item>>"));
    }
    assert!(user_template(CaseAnalysis).contains("{context}"));
}

fn fixture() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/plawbench/prompts.json"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("fixture field {key} is not a string"))
}

#[test]
fn json_dumps_matches_python_byte_for_byte() {
    let fixture = fixture();
    let cases = fixture["dumps"].as_array().expect("a list of cases");
    assert!(cases.len() >= 5);
    for case in cases {
        let input: OrderedJson = serde_json::from_str(text(case, "input")).expect("valid JSON");
        assert_eq!(
            python_dumps(&input),
            text(case, "output"),
            "input: {}",
            text(case, "input")
        );
    }
}

#[test]
fn model_and_judge_prompts_match_python_byte_for_byte() {
    let fixture = fixture();
    let cases = fixture["prompts"].as_array().expect("a list of cases");
    assert_eq!(cases.len(), 3);
    for case in cases {
        let items = parse_dataset(text(case, "item")).unwrap_or_else(|e| panic!("{e}"));
        let item = &items[0];
        let prompt = render_model_prompt(item);
        assert_eq!(
            prompt,
            text(case, "model_prompt"),
            "{}: model prompt",
            item.item_id
        );
        let judge = render_judge_prompts(item, &prompt, text(case, "response"));
        assert_eq!(
            judge.system,
            text(case, "judge_system"),
            "{}: judge system",
            item.item_id
        );
        assert_eq!(
            judge.user,
            text(case, "judge_user"),
            "{}: judge user",
            item.item_id
        );
    }
}
