//! The prompt templates of the LexPilot paper's Appendix F, compiled in from
//! `pipeline/prompts/` (see the README there for how the text was restored),
//! and the pure functions that fill them for one case.
//!
//! A template's placeholders are `{name}`; [`Template::render`] fills them in
//! one pass, so text put in (a dialogue that happens to contain `{claims}`) is
//! never filled again, and other braces (the JSON example of the LJP
//! extraction prompt) are left alone. Every prompt is sent as one `user`
//! message.

use engine::core::dialogue::Turn;
use engine::lexpilot::dataset::Case;
use engine::vocab::Role;
use sha2::{Digest, Sha256};

use crate::config::UserCondition;

/// One versioned prompt template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Template {
    /// The versioned name (the file name without `.txt`), e.g. `lexawn.v1`.
    pub name: &'static str,
    /// The template text.
    pub text: &'static str,
}

impl Template {
    /// The SHA-256 of the template text, lowercase hex.
    pub fn sha256(&self) -> String {
        hex::encode(Sha256::digest(self.text.as_bytes()))
    }

    /// The template with each `{name}` of `values` replaced by its value, in
    /// one pass, trailing whitespace trimmed.
    ///
    /// # Examples
    ///
    /// ```
    /// use pipeline::prompts::Template;
    ///
    /// let t = Template { name: "t.v1", text: "<a>{history}</a> {\"results\": []} {other}\n" };
    /// assert_eq!(
    ///     t.render(&[("history", "说了{history}")]),
    ///     "<a>说了{history}</a> {\"results\": []} {other}"
    /// );
    /// ```
    pub fn render(&self, values: &[(&str, &str)]) -> String {
        let mut out = String::with_capacity(self.text.len());
        let mut rest = self.text;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let filled = after.find('}').and_then(|close| {
                let name = &after[..close];
                values
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| (close, *v))
            });
            match filled {
                Some((close, value)) => {
                    out.push_str(value);
                    rest = &after[close + 1..];
                }
                None => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out.truncate(out.trim_end().len());
        out
    }
}

macro_rules! template {
    ($(#[$meta:meta])* $id:ident, $name:literal) => {
        $(#[$meta])*
        pub const $id: Template = Template {
            name: $name,
            text: include_str!(concat!("../prompts/", $name, ".txt")),
        };
    };
}

template!(
    /// LexAwN (Table 19): predict when the facts suffice, else ask one question.
    LEXAWN,
    "lexawn.v1"
);
template!(
    /// The DCG variant of LexAwN (Table 20): always ask one question.
    DCG,
    "dcg.v1"
);
template!(
    /// Direct prediction (Table 21): Direct and Gold-Standard LJP, and the
    /// fallback of Interaction-Based LJP after three rounds.
    LJP_DIRECT,
    "ljp_direct.v1"
);
template!(
    /// The Standard User Model (Table 22).
    USER_STANDARD,
    "user_standard.v1"
);
template!(
    /// The LCA judge (Table 23): 策略一 or 策略二.
    JUDGE_LCA,
    "judge_lca.v1"
);
template!(
    /// The DCG judge (Table 24): 是 or 否.
    JUDGE_DCG,
    "judge_dcg.v1"
);
template!(
    /// The LJP label extraction judge (Table 25): `{"results": [...]}`.
    JUDGE_LJP,
    "judge_ljp.v1"
);
template!(
    /// Added for delayed disclosure (Appendix E.5).
    USER_DELAYED,
    "user_delayed.v1"
);
template!(
    /// Added for self-correction (Appendix E.5).
    USER_SELF_CORRECTION,
    "user_self_correction.v1"
);
template!(
    /// Added for DLawBench's cooperative client.
    USER_COOPERATIVE,
    "user_cooperative.v1"
);
template!(
    /// Added for DLawBench's dependent client.
    USER_DEPENDENT,
    "user_dependent.v1"
);
template!(
    /// Added for DLawBench's withdrawn client.
    USER_WITHDRAWN,
    "user_withdrawn.v1"
);
template!(
    /// Added for DLawBench's adversarial client.
    USER_ADVERSARIAL,
    "user_adversarial.v1"
);

template!(
    /// Workbench-authored, not the paper's: the Targeted construction of
    /// Table 4 (Appendix E.7 describes it but gives no prompt).
    TARGETED_CONSTRUCT,
    "targeted_construct.v1"
);
template!(
    /// Workbench-authored, not the paper's: the Off-target construction of
    /// Table 4.
    OFFTARGET_CONSTRUCT,
    "offtarget_construct.v1"
);
template!(
    /// Workbench-authored, not the paper's: the validation judge of a
    /// constructed dialogue (recovered / absent / contradicted per missing
    /// fact, with user turns, and violations), as JSON.
    TARGETED_VALIDATE,
    "targeted_validate.v1"
);

/// Every template of the Targeted vs Off-target experiment, each hashed in
/// its result header: the workbench's three, and the paper's user model,
/// direct prediction and extraction prompts it reuses. Not in [`ALL`]:
/// no run file uses the three.
pub const TARGETED: [&Template; 6] = [
    &TARGETED_CONSTRUCT,
    &OFFTARGET_CONSTRUCT,
    &TARGETED_VALIDATE,
    &USER_STANDARD,
    &LJP_DIRECT,
    &JUDGE_LJP,
];

/// Every template.
pub const ALL: [&Template; 13] = [
    &LEXAWN,
    &DCG,
    &LJP_DIRECT,
    &USER_STANDARD,
    &JUDGE_LCA,
    &JUDGE_DCG,
    &JUDGE_LJP,
    &USER_DELAYED,
    &USER_SELF_CORRECTION,
    &USER_COOPERATIVE,
    &USER_DEPENDENT,
    &USER_WITHDRAWN,
    &USER_ADVERSARIAL,
];

/// What the user model answers under self-correction when, after a verdict,
/// it has nothing to correct (see `user_self_correction.v1.txt`).
pub const NO_CORRECTION: &str = "无需补充";

/// The speaker label of a turn in a rendered dialogue.
fn speaker(role: Role) -> &'static str {
    match role {
        Role::User => "用户",
        Role::Assistant => "AI法律顾问",
    }
}

/// A dialogue as the `{history}` of a prompt: one `用户：…` or
/// `AI法律顾问：…` paragraph per turn.
///
/// # Examples
///
/// ```
/// use engine::core::dialogue::Turn;
/// use engine::vocab::Role;
///
/// let turns = [
///     Turn { role: Role::User, content: "他欠我钱。".into() },
///     Turn { role: Role::Assistant, content: "有借条吗？".into() },
/// ];
/// assert_eq!(pipeline::prompts::format_history(&turns), "用户：他欠我钱。\nAI法律顾问：有借条吗？");
/// ```
pub fn format_history(turns: &[Turn]) -> String {
    turns
        .iter()
        .map(|t| format!("{}：{}", speaker(t.role), t.content.trim()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A list as bullet lines, each item on one line.
fn bullets<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items
        .map(|text| format!("- {}", one_line(text)))
        .collect::<Vec<_>>()
        .join("\n")
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every key fact of the case, one bullet line each (the user model's
/// `<案件客观事实>` and the DCG judge's `<争议焦点对应案件事实>`).
pub fn format_key_facts(case: &Case) -> String {
    bullets(case.key_facts.iter().map(|k| k.text.as_str()))
}

/// Every focal point of dispute of the case, one bullet line each.
pub fn format_focal_points(case: &Case) -> String {
    bullets(case.focal_points.iter().map(|f| f.text.as_str()))
}

/// The claims, one line each in claim order: the extraction prompt counts
/// lines as claims, so a line break inside a claim becomes a space.
pub fn format_claims(case: &Case) -> String {
    case.claims
        .iter()
        .map(|c| one_line(&c.text))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The LexAwN prompt on a dialogue.
pub fn lexawn(history: &[Turn]) -> String {
    LEXAWN.render(&[("history", &format_history(history))])
}

/// The DCG prompt on a dialogue.
pub fn dcg(history: &[Turn]) -> String {
    DCG.render(&[("history", &format_history(history))])
}

/// The direct prediction prompt on a dialogue.
pub fn ljp_direct(history: &[Turn]) -> String {
    LJP_DIRECT.render(&[("history", &format_history(history))])
}

/// The user model's prompt: the standard prompt on the dialogue so far (its
/// last turn the advisor's) and the case's key facts, then the condition's
/// addition, told that the last `new_rounds` advisor turns are new.
pub fn user(condition: UserCondition, history: &[Turn], case: &Case, new_rounds: usize) -> String {
    let standard = USER_STANDARD.render(&[
        ("history", &format_history(history)),
        ("key_facts", &format_key_facts(case)),
    ]);
    match condition.addition() {
        None => standard,
        Some(addition) => {
            let rounds = new_rounds.to_string();
            format!(
                "{standard}\n\n{}",
                addition.render(&[("new_rounds", &rounds)])
            )
        }
    }
}

/// The LCA judge's prompt on one reply of the evaluated model.
pub fn judge_lca(reply: &str) -> String {
    JUDGE_LCA.render(&[("history", reply.trim())])
}

/// What the DCG judge's `{key_facts}` holds, recorded in the header of every
/// run with DCG as `dcg_judge_key_facts` (so entries made with another choice
/// are not mixed): `all`, every key fact of the case. Appendix F's judge
/// prompt asks whether a request targets "the key facts" without saying
/// which; giving only the missing ones (`missing`) would be the other
/// reading. With all of them, a request about a fact the consultation
/// already states can still be accepted when it serves a focal point.
pub const DCG_JUDGE_KEY_FACTS: &str = "all";

/// The DCG judge's prompt on one request, against the case's focal points and
/// key facts (all of them: [`DCG_JUDGE_KEY_FACTS`]).
pub fn judge_dcg(request: &str, case: &Case) -> String {
    JUDGE_DCG.render(&[
        ("ai_response", request.trim()),
        ("focus_text", &format_focal_points(case)),
        ("key_facts", &format_key_facts(case)),
    ])
}

/// The LJP extraction prompt on a final reply, against the case's claims.
pub fn judge_ljp(reply: &str, case: &Case) -> String {
    JUDGE_LJP.render(&[("history", reply.trim()), ("claims", &format_claims(case))])
}

/// The missing key facts of the case as `id：text` lines (the
/// construction prompts' `{key_facts}` and the validation judge's
/// `{missing_facts}`).
pub fn format_missing_facts(case: &Case) -> String {
    case.missing_key_facts()
        .map(|k| format!("- {}：{}", k.id, one_line(&k.text)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A constructed dialogue for the validation judge: one block per round,
/// `第N轮` numbering the user turns from 1.
pub fn format_rounds(dialogue: &[Turn]) -> String {
    let mut round = 0;
    dialogue
        .iter()
        .map(|t| {
            if t.role == Role::Assistant {
                round += 1;
            }
            format!("第{round}轮 {}：{}", speaker(t.role), t.content.trim())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The construction prompt of `condition` for round `round` of attempt
/// `attempt`, on the dialogue so far, with the previous attempt's rejection
/// reasons (`feedback`, empty on the first).
pub fn construct(
    condition: engine::lexpilot::targeted::Condition,
    history: &[Turn],
    case: &Case,
    attempt: usize,
    round: usize,
    feedback: &[String],
) -> String {
    use engine::lexpilot::targeted::Condition;
    let template = match condition {
        Condition::Targeted => &TARGETED_CONSTRUCT,
        Condition::OffTarget => &OFFTARGET_CONSTRUCT,
    };
    let feedback = if feedback.is_empty() {
        "无（首次构建）".to_owned()
    } else {
        bullets(feedback.iter().map(String::as_str))
    };
    template.render(&[
        ("history", &format_history(history)),
        ("key_facts", &format_missing_facts(case)),
        ("attempt", &attempt.to_string()),
        ("round", &round.to_string()),
        ("feedback", &feedback),
    ])
}

/// The validation judge's prompt on a constructed dialogue of `case`.
pub fn validate(case: &Case, dialogue: &[Turn]) -> String {
    TARGETED_VALIDATE.render(&[
        (
            "history",
            &format_history(&case.consultations.underspecified),
        ),
        ("dialogue", &format_rounds(dialogue)),
        ("missing_facts", &format_missing_facts(case)),
    ])
}

/// The templates a job with these tasks and this condition may use, each
/// once, in [`ALL`] order.
pub fn used(tasks: &crate::config::Tasks, condition: UserCondition) -> Vec<&'static Template> {
    use engine::vocab::LjpSetup;
    let interaction = tasks.ljp.contains(&LjpSetup::Interaction);
    let wanted = |t: &Template| match t.name {
        n if n == LEXAWN.name => tasks.lca || interaction,
        n if n == DCG.name => tasks.dcg,
        n if n == LJP_DIRECT.name => !tasks.ljp.is_empty(),
        n if n == USER_STANDARD.name => tasks.uses_user_model(),
        n if n == JUDGE_LCA.name => tasks.lca || interaction,
        n if n == JUDGE_DCG.name => tasks.dcg,
        n if n == JUDGE_LJP.name => !tasks.ljp.is_empty(),
        n => {
            let adds = |c: UserCondition| c.addition().is_some_and(|a| a.name == n);
            (tasks.dcg && adds(condition.for_dcg())) || (interaction && adds(condition))
        }
    };
    ALL.into_iter().filter(|t| wanted(t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Tasks;

    #[test]
    fn every_template_has_its_placeholders_and_no_artefact() {
        let expected: [(&Template, &[&str]); 7] = [
            (&LEXAWN, &["history"]),
            (&DCG, &["history"]),
            (&LJP_DIRECT, &["history"]),
            (&USER_STANDARD, &["history", "key_facts"]),
            (&JUDGE_LCA, &["history"]),
            (&JUDGE_DCG, &["ai_response", "focus_text", "key_facts"]),
            (&JUDGE_LJP, &["history", "claims"]),
        ];
        for (t, names) in expected {
            for n in names {
                assert!(t.text.contains(&format!("{{{n}}}")), "{} lacks {n}", t.name);
            }
        }
        for t in ALL {
            assert!(!t.text.contains("gkai"), "{}", t.name);
            assert_eq!(t.sha256().len(), 64);
        }
        assert!(USER_DELAYED.text.contains("{new_rounds}"));
        for t in [&TARGETED_CONSTRUCT, &OFFTARGET_CONSTRUCT] {
            for n in ["history", "key_facts", "attempt", "round", "feedback"] {
                assert!(t.text.contains(&format!("{{{n}}}")), "{} lacks {n}", t.name);
            }
        }
        for n in ["history", "dialogue", "missing_facts"] {
            assert!(TARGETED_VALIDATE.text.contains(&format!("{{{n}}}")));
        }
        for t in TARGETED {
            assert!(!t.text.contains("gkai"), "{}", t.name);
        }
        assert!(USER_SELF_CORRECTION.text.contains(NO_CORRECTION));
    }

    #[test]
    fn render_fills_once_and_leaves_other_braces() {
        let out = JUDGE_LJP.render(&[("history", "回复里有{claims}"), ("claims", "判令离婚")]);
        assert!(out.contains("回复里有{claims}"));
        assert!(out.contains("<正式诉请>\n判令离婚\n</正式诉请>"));
        assert!(out.contains(r#"{ "results": ["驳回", "支持", "部分支持"] }"#));
    }

    /// The engine groups runs into entries by which parts each prompt
    /// serves (`engine::lexpilot::entries::prompt_parts`): every template
    /// a job of one part writes in its header must serve that part there.
    #[test]
    fn the_engine_knows_the_part_every_used_template_serves() {
        use engine::lexpilot::entries::prompt_parts;
        use engine::lexpilot::run::Part;

        for t in ALL {
            assert!(prompt_parts(t.name).is_some(), "{} is unknown", t.name);
        }
        for part in Part::ALL {
            let tasks = Tasks::parse(&part.to_string()).unwrap_or_else(|e| panic!("{e}"));
            for condition in UserCondition::ALL {
                for t in used(&tasks, condition) {
                    assert!(
                        prompt_parts(t.name).is_some_and(|serves| serves.contains(&part)),
                        "a {part} job under {condition} uses {}",
                        t.name
                    );
                }
            }
        }
    }

    #[test]
    fn used_templates_follow_the_tasks() {
        let names = |tasks: &str, c| -> Vec<&str> {
            let tasks = Tasks::parse(tasks).unwrap_or_else(|e| panic!("{e}"));
            used(&tasks, c).into_iter().map(|t| t.name).collect()
        };
        assert_eq!(
            names("lca", UserCondition::Delayed),
            ["lexawn.v1", "judge_lca.v1"]
        );
        assert_eq!(
            names("ljp:gold", UserCondition::Standard),
            ["ljp_direct.v1", "judge_ljp.v1"]
        );
        assert_eq!(
            names("dcg", UserCondition::Withdrawn),
            [
                "dcg.v1",
                "user_standard.v1",
                "judge_dcg.v1",
                "user_withdrawn.v1"
            ]
        );
    }
}
