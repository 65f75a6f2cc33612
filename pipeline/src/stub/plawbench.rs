//! A script playing PLawBench's evaluated model and judges for a dataset's
//! items, deterministically by each item's index `i` in the dataset:
//!
//! - the **model** answers the item's exact prompt with [`MARK`]` + item id`
//!   and a short answer;
//! - a **judge** reads the mark back from the conversation in its user
//!   message and awards [`fraction`]`(i)` of each rubric section's points
//!   (`case_analysis`) or of `max_points` (the other tasks), in the JSON
//!   shape of the templates ([`judge_reply`]); a fraction above 1 tests
//!   clamping, so the engine scores the item [`expected_acc`]`(i)`.
//!
//! Anything else gets a 400. Tests wrap [`oracle`] to add failures, using
//! [`item_index`] to tell which item a call is about.

use std::collections::HashMap;

use engine::plawbench::dataset::Item;
use engine::plawbench::judge::render_model_prompt;
use serde_json::{json, Map, Value};

use super::{PromptKind, StubCall, StubReply};

/// The mark the model puts at the start of each answer, which the judges
/// read back.
pub const MARK: &str = "[[plaw-item=";

/// The raw fraction of its points the judges award item `i`: 0.5, 1.0,
/// 0.25 and 1.2 by `i % 4` (1.2 is clamped to the maximum when scored).
///
/// ```
/// use pipeline::stub::plawbench::{expected_acc, fraction};
/// assert_eq!(fraction(7), 1.2);
/// assert_eq!(expected_acc(7), 1.0);
/// ```
pub fn fraction(i: usize) -> f64 {
    [0.5, 1.0, 0.25, 1.2][i % 4]
}

/// The `acc` the engine gives item `i` when the judges' reply is read.
pub fn expected_acc(i: usize) -> f64 {
    fraction(i).min(1.0)
}

/// The model's answer to item `item`.
pub fn answer(item: &Item) -> String {
    format!("{MARK}{}]] 答：根据现有事实，结论如下。", item.item_id)
}

/// A judge's reply to `item` (the `i`-th of the dataset): a line of prose,
/// then the JSON in a fenced block, valid in both parse modes.
pub fn judge_reply(item: &Item, i: usize) -> String {
    let f = fraction(i);
    let sections = item.section_max();
    let body = if sections.is_empty() {
        let max = f64::from(item.max_points);
        json!({"total_points": max * f, "max_points": item.max_points})
    } else {
        let details: Map<String, Value> = sections
            .iter()
            .map(|(section, max)| {
                (
                    section.judge_key().to_owned(),
                    json!({"total_points": max * f, "max_points": max}),
                )
            })
            .collect();
        json!({"score_details": details})
    };
    let text = serde_json::to_string_pretty(&body).unwrap_or_default();
    format!("评分分析：逐项对照评分细则。\n```json\n{text}\n```")
}

/// The index of the item a call is about: the model prompt's item, or the
/// item whose mark is in a judge's conversation.
pub fn item_index(items: &[Item], call: &StubCall) -> Option<usize> {
    match call.kind {
        PromptKind::PlawModel => items
            .iter()
            .position(|item| render_model_prompt(item) == call.prompt),
        PromptKind::PlawJudge => {
            let start = call.prompt.rfind(MARK)? + MARK.len();
            let id = call.prompt[start..].split("]]").next()?;
            items.iter().position(|item| item.item_id == id)
        }
        _ => None,
    }
}

/// The script; see the [module documentation](self).
pub fn oracle(items: &[Item]) -> impl Fn(&StubCall) -> StubReply + Send + Sync + 'static {
    let items = items.to_vec();
    let by_prompt: HashMap<String, usize> = items
        .iter()
        .enumerate()
        .map(|(i, item)| (render_model_prompt(item), i))
        .collect();
    move |call: &StubCall| {
        let found = match call.kind {
            PromptKind::PlawModel => by_prompt.get(&call.prompt).copied(),
            _ => item_index(&items, call),
        };
        match (call.kind, found) {
            (PromptKind::PlawModel, Some(i)) => StubReply::Text(answer(&items[i])),
            (PromptKind::PlawJudge, Some(i)) => StubReply::Text(judge_reply(&items[i], i)),
            _ => StubReply::Status {
                status: 400,
                retry_after: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use engine::plawbench::judge::{parse_judge_reply, render_judge_prompts};
    use engine::plawbench::run::{Awarded, ParseMode};
    use engine::plawbench::score::judge_score;

    use super::*;

    #[test]
    fn the_judges_replies_parse_and_score_as_documented() {
        let items =
            engine::plawbench::dataset::parse_dataset(&engine::plawbench::synthetic::dataset_file(
                &engine::plawbench::synthetic::OFFICIAL_SIZES,
                3,
            ))
            .unwrap_or_default();
        let picks = [0, 1, 2, 3, 250, 251, 268, 275];
        for i in picks {
            let item = &items[i];
            let prompt = render_model_prompt(item);
            let judge = render_judge_prompts(item, &prompt, &answer(item));
            let call = StubCall {
                kind: PromptKind::detect(&format!("{}\n\n{}", judge.system, judge.user)),
                model: "J".into(),
                prompt: format!("{}\n\n{}", judge.system, judge.user),
                seen: 0,
            };
            assert_eq!(item_index(&items, &call), Some(i));
            for mode in [ParseMode::Strict, ParseMode::Lenient] {
                let parsed = parse_judge_reply(&judge_reply(item, i), item, mode)
                    .unwrap_or_else(|e| panic!("{}: {e}", item.item_id));
                let score = judge_score(item, &parsed.awarded).map(|s| s.acc);
                assert_eq!(score, Some(expected_acc(i)), "{}", item.item_id);
                assert_eq!(
                    matches!(parsed.awarded, Awarded::Sections(_)),
                    item.sections.is_some()
                );
            }
        }
    }
}
