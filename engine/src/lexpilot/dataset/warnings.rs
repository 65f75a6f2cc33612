//! The rules of the paper's construction (Appendix D.1, "Consultation
//! Generation"; Appendix E.2's Incompleteness check) that text alone can only
//! suspect broken. Each finding is a [`DatasetWarning`] with the line and the
//! field, shown beside the errors; none refuses the file, because each rests
//! on a heuristic that a reviewer confirms or dismisses.
//!
//! **The user dodges a question about a missing key fact.** An underspecified
//! consultation leaves its missing facts unmentioned "throughout"; it must
//! not have the advisor ask for one and the user fail to answer, since then
//! the history itself shows the question already asked (LCA and DCG would
//! reward asking it again) and the simulated user, who knows the fact, would
//! answer the same question differently in the interaction setup. A user turn
//! `underspecified[i]` is flagged when
//! 1. the turn before it is the advisor's and contains a question mark
//!    (`？` or `?`);
//! 2. the user turn contains one of [`DODGES`] (matched as substrings, so
//!    `不太清楚` is listed beside `不清楚`); and
//! 3. the question *asks about* a missing key fact: either the complete
//!    consultation asks the very same question at the same turn and its answer
//!    there holds the fact's `quote` (the paired turns differ only in the
//!    disclosure), or the question shares at least [`ASKS_ABOUT_BIGRAMS`]
//!    distinct two-character sequences of letters, digits or Chinese
//!    characters (bigrams, which stand in for Chinese words) with the fact's
//!    `text` or `quote`.
//!
//! **The complete consultation holds every fact of the underspecified one**
//! (the paper's F_p ⊂ F_c). Each user turn of the underspecified consultation
//! is cut into clauses after `。！？；，,!?;` and line breaks; a clause is
//! flagged when it states something (it is not a question, ending in `？` or
//! `?`; holds no dodge; and has at least [`MIN_CLAUSE_CHARS`] letters, digits
//! or Chinese characters) and no user turn of the complete consultation
//! contains it, compared on letters, digits and Chinese characters only. The
//! check is literal: a paraphrase in the complete consultation is flagged
//! too, which is why this is a warning and the message names the clauses.

use std::collections::HashSet;

use super::{Case, KeyFact};
use crate::core::dialogue::Turn;
use crate::core::errors::DatasetWarning;
use crate::vocab::Role;

/// What a user says instead of answering: each is matched as a substring of
/// the user's turn.
pub const DODGES: &[&str] = &[
    "不清楚",
    "不太清楚",
    "说不清",
    "说不太清",
    "搞不清",
    "搞不太清",
    "搞不懂",
    "记不清",
    "记不太清",
    "不记得",
    "不太记得",
    "想不起",
    "忘了",
    "忘记了",
    "不知道",
    "不太知道",
    "不了解",
    "无法确认",
    "没法确认",
    "不能确认",
    "不确定",
    "说不好",
    "不好说",
    "没印象",
    "没细看",
    "没注意",
];

/// How many distinct bigrams a question must share with a key fact to count
/// as asking about it.
pub const ASKS_ABOUT_BIGRAMS: usize = 3;

/// How many letters, digits or Chinese characters a clause needs to count as
/// stating something (shorter ones are `有的`, `没有`, `是的`).
pub const MIN_CLAUSE_CHARS: usize = 4;

/// The warnings of one case (see the module documentation), reported with
/// `line`.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::{case_warnings, parse_case};
///
/// let line = r#"{"case_id": "LP-0001", "cause": "离婚后财产纠纷", "class": "family",
///   "plaintiff_type": "natural",
///   "claims": [{"id": "c1", "text": "判令被告返还房屋份额款20万元", "verdict": "partially_supported"}],
///   "focal_points": [{"id": "f1", "text": "涉案房屋出资情况", "type": "rights_allocation"}],
///   "key_facts": [{"id": "k1", "focal_point": "f1", "text": "首付款由原告父亲支付", "quote": "首付款是我父亲付的"}],
///   "missing_facts": ["k1"],
///   "consultations": {
///     "complete": [{"role": "user", "content": "离婚后房子归她。"},
///                  {"role": "assistant", "content": "首付款是谁付的？"},
///                  {"role": "user", "content": "首付款是我父亲付的。"}],
///     "underspecified": [{"role": "user", "content": "离婚后房子归她。"},
///                        {"role": "assistant", "content": "首付款是谁付的？"},
///                        {"role": "user", "content": "这个我记不清了。"}]}}"#
///     .replace('\n', " ");
///
/// let case = parse_case(&line, 1).expect("a valid case");
/// let warnings = case_warnings(&case, 1);
/// assert_eq!(warnings.len(), 1);
/// assert_eq!(warnings[0].field, "consultations.underspecified[2].content");
/// assert!(warnings[0].message.contains("k1"));
/// ```
pub fn case_warnings(case: &Case, line: usize) -> Vec<DatasetWarning> {
    let mut warnings = Vec::new();
    let mut warn = |field: String, message: String| {
        warnings.push(DatasetWarning {
            line,
            case_id: (!crate::core::lines::is_blank(&case.case_id)).then(|| case.case_id.clone()),
            field,
            message,
        })
    };
    dodged_questions(case, &mut warn);
    extra_content(case, &mut warn);
    warnings
}

fn dodged_questions(case: &Case, warn: &mut impl FnMut(String, String)) {
    let turns = &case.consultations.underspecified;
    for (i, pair) in turns.windows(2).enumerate() {
        let (question, reply) = (&pair[0], &pair[1]);
        if question.role != Role::Assistant
            || reply.role != Role::User
            || !is_question(&question.content)
        {
            continue;
        }
        let Some(dodge) = dodge_in(&reply.content) else {
            continue;
        };
        let asked: Vec<&str> = case
            .missing_key_facts()
            .filter(|fact| asks_about(case, i, fact))
            .map(|fact| fact.id.as_str())
            .collect();
        if asked.is_empty() {
            continue;
        }
        warn(
            format!("consultations.underspecified[{}].content", i + 1),
            format!(
                "the user dodges (\"{dodge}\") the advisor's question in turn {i} about missing \
                 key fact {}; an underspecified consultation leaves a missing fact unmentioned \
                 rather than have the user fail to answer a question about it",
                asked.join(", ")
            ),
        );
    }
}

/// Whether the advisor's turn `underspecified[i]` asks about `fact`.
fn asks_about(case: &Case, i: usize, fact: &KeyFact) -> bool {
    let question = &case.consultations.underspecified[i].content;
    let complete = &case.consultations.complete;
    let same_question_draws_it_out = fact.quote.as_deref().is_some_and(|quote| {
        complete.get(i).is_some_and(|t| t.content == *question)
            && complete
                .get(i + 1)
                .is_some_and(|t| t.content.contains(quote))
    });
    if same_question_draws_it_out {
        return true;
    }
    let mut fact_bigrams = bigrams(&fact.text);
    if let Some(quote) = &fact.quote {
        fact_bigrams.extend(bigrams(quote));
    }
    bigrams(question).intersection(&fact_bigrams).count() >= ASKS_ABOUT_BIGRAMS
}

fn extra_content(case: &Case, warn: &mut impl FnMut(String, String)) {
    let held: Vec<String> = user_turns(&case.consultations.complete)
        .map(|(_, t)| letters(&t.content))
        .collect();
    for (i, turn) in user_turns(&case.consultations.underspecified) {
        let extra: Vec<&str> = clauses(&turn.content)
            .filter(|clause| states_something(clause))
            .filter(|clause| {
                let clause = letters(clause);
                !held.iter().any(|h| h.contains(&clause))
            })
            .collect();
        if extra.is_empty() {
            continue;
        }
        let named: Vec<String> = extra.iter().map(|c| format!("\"{c}\"")).collect();
        warn(
            format!("consultations.underspecified[{i}].content"),
            format!(
                "says what no user turn of consultations.complete says: {}; the complete \
                 consultation holds every fact of the underspecified one",
                named.join(", ")
            ),
        );
    }
}

fn user_turns(turns: &[Turn]) -> impl Iterator<Item = (usize, &Turn)> {
    turns
        .iter()
        .enumerate()
        .filter(|(_, t)| t.role == Role::User)
}

fn is_question(text: &str) -> bool {
    text.contains(['？', '?'])
}

fn dodge_in(text: &str) -> Option<&'static str> {
    DODGES.iter().copied().find(|d| text.contains(d))
}

/// The clauses of a turn, trimmed, without their closing punctuation except
/// a question mark (which marks a question).
fn clauses(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive(['。', '！', '？', '；', '，', ',', '!', '?', ';', '\n'])
        .map(|c| {
            c.trim()
                .trim_end_matches(['。', '！', '；', '，', ',', '!', ';'])
        })
        .filter(|c| !c.is_empty())
}

fn states_something(clause: &str) -> bool {
    !clause.ends_with(['？', '?'])
        && dodge_in(clause).is_none()
        && letters(clause).chars().count() >= MIN_CLAUSE_CHARS
}

/// The letters, digits and Chinese characters of `text`, in order.
fn letters(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).collect()
}

/// The distinct pairs of adjacent letters, digits or Chinese characters.
fn bigrams(text: &str) -> HashSet<[char; 2]> {
    text.split(|c: char| !c.is_alphanumeric())
        .flat_map(|run| {
            let chars: Vec<char> = run.chars().collect();
            chars.windows(2).map(|w| [w[0], w[1]]).collect::<Vec<_>>()
        })
        .collect()
}
