//! The stub's script for the user-simulator fidelity study
//! ([`crate::fidelity`]), on top of the LexPilot [`oracle`](super::oracle),
//! for a set of probes:
//!
//! - **User**: when the prompt's key facts hold the probe's target fact, an
//!   answer marked [`ANSWER`](super::ANSWER); when they do not (D, the fact
//!   withheld), `这个我记不清了，不太清楚。`.
//! - **DCG judge**: `是` on a probe's direct or indirect question, `否` on
//!   its broad one, except where the probe is the third of every three
//!   (`i % 3 == 2`), whose indirect question is rejected.
//! - Everything else is the oracle's.
//!
//! So over probes `i`: DCG+ is 100% for A, 2/3 for B (of whole thirds), 0%
//! for C.

use engine::lexpilot::dataset::Case;
use engine::lexpilot::fidelity::Probe;

use super::{oracle as lexpilot_oracle, PromptKind, StubCall, StubReply, ANSWER};

/// What the simulator says when the fact is not in its input.
pub const UNSURE: &str = "这个我记不清了，不太清楚。";

/// The script of the [module documentation](self) for `cases` and `probes`.
pub fn oracle(
    cases: &[Case],
    probes: &[Probe],
) -> impl Fn(&StubCall) -> StubReply + Send + Sync + 'static {
    let fallback = lexpilot_oracle(cases);
    let probes: Vec<(Probe, Option<String>)> = probes
        .iter()
        .map(|p| {
            let target = cases
                .iter()
                .find(|c| c.case_id == p.case_id)
                .and_then(|c| c.key_facts.iter().find(|k| k.id == p.fact))
                .map(|k| k.text.trim().to_owned());
            (p.clone(), target)
        })
        .collect();
    move |call: &StubCall| {
        let prompt = call.prompt.as_str();
        let asked = probes.iter().enumerate().find(|(_, (p, _))| {
            [&p.direct, &p.indirect, &p.broad]
                .iter()
                .any(|q| prompt.contains(q.trim()))
        });
        match (call.kind, asked) {
            (PromptKind::User, Some((_, (_, Some(target))))) => {
                if prompt.contains(target.as_str()) {
                    StubReply::Text(format!("{ANSWER} 是的，{target}"))
                } else {
                    StubReply::Text(UNSURE.into())
                }
            }
            (PromptKind::JudgeDcg, Some((i, (p, _)))) => {
                let accepted = if prompt.contains(p.broad.trim()) {
                    false
                } else if prompt.contains(p.indirect.trim()) {
                    i % 3 != 2
                } else {
                    true
                };
                StubReply::Text(if accepted { "是" } else { "否" }.into())
            }
            _ => fallback(call),
        }
    }
}
