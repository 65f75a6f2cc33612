//! The three tasks as the LexPilot paper runs them, one item at a time:
//!
//! - **LCA** ([`Ctx::lca`]): LexAwN on one consultation; the judge reads the
//!   reply as strategy one (`predict`) or two (`ask`).
//! - **DCG** ([`Ctx::dcg`]): the DCG prompt on the underspecified
//!   consultation; the judge accepts or rejects the request against the
//!   case's focal points and key facts. A rejected first request is answered
//!   by the user model and the model asks once more (two rounds at most; an
//!   accepted first request ends the item, since one hit decides the score).
//! - **LJP** ([`Ctx::ljp`]): `direct` and `gold` put the direct prediction
//!   prompt on the underspecified or the complete consultation;
//!   `interaction` runs LexAwN on the underspecified one, the judge's LCA
//!   prompt telling a verdict from a question after each model turn, the
//!   user model answering questions, for at most three user turns; without
//!   a verdict by then, the direct prompt is put on the accumulated dialogue.
//!   The extraction judge then gives one verdict per claim.
//!
//! A step that fails for good (a call out of retries, judges with no
//! majority) makes the item unavailable with the reason, keeping what was
//! produced so far for drill-down; every judge reply is kept in the item's
//! `judge_outputs` (an extra field the run parser ignores).

use std::sync::Arc;

use engine::core::dialogue::Turn;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::run::{DcgItem, DcgRequest, LcaItem, LjpItem};
use engine::vocab::{Consultation, LcaLabel, LjpSetup, Role, Verdict};
use futures_util::future::join_all;
use serde::Serialize;

use crate::client::{split, Caller, Client, Stop};
use crate::config::UserCondition;
use crate::panel::{majority, majority_verdicts, Vote};
use crate::parse::{self, ParseError};
use crate::prompts;
use crate::runner::{ItemOut, Maker, RunState};

/// User turns an interaction may take before the model must predict.
pub const MAX_INTERACTION_ROUNDS: usize = 3;
/// Requests a DCG item may hold.
pub const MAX_DCG_ROUNDS: usize = 2;

/// One item to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    Lca(Consultation),
    Dcg,
    Ljp(LjpSetup),
}

impl Unit {
    /// Where the item goes in the run file: LCA, DCG, then LJP items, each by
    /// case then consultation or setup.
    pub(crate) fn order(self, case: usize) -> Position {
        match self {
            Unit::Lca(c) => (0, case, c as usize),
            Unit::Dcg => (1, case, 0),
            Unit::Ljp(s) => (2, case, s as usize),
        }
    }
}

/// Where an item goes in the run file: task, case, consultation or setup.
pub(crate) type Position = (usize, usize, usize);

/// One judge reply, kept in the item.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct JudgeOutput {
    judge: String,
    step: String,
    attempt: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct Line<'a, T> {
    kind: &'static str,
    #[serde(flatten)]
    item: &'a T,
    #[serde(skip_serializing_if = "Option::is_none")]
    dialogue: Option<&'a [Turn]>,
    judge_outputs: &'a [JudgeOutput],
}

fn line<T: Serialize>(
    kind: &'static str,
    item: &T,
    dialogue: Option<&[Turn]>,
    judge_outputs: &[JudgeOutput],
) -> String {
    serde_json::to_string(&Line {
        kind,
        item,
        dialogue,
        judge_outputs,
    })
    .unwrap_or_default()
}

/// Everything an item needs: the client, the three roles, the condition,
/// the dataset's cases.
#[derive(Debug)]
pub(crate) struct Ctx {
    pub(crate) client: Client,
    pub(crate) cases: Arc<Vec<Case>>,
    pub(crate) model: Caller,
    pub(crate) user: Caller,
    /// The seated judges.
    pub(crate) judges: Vec<Caller>,
    pub(crate) condition: UserCondition,
    pub(crate) judge_attempts: u32,
}

fn turn(role: Role, content: &str) -> Turn {
    Turn {
        role,
        content: content.to_owned(),
    }
}

impl Maker for Ctx {
    /// A case (its index in the dataset) and a task.
    type Unit = (usize, Unit);

    fn client(&self) -> &Client {
        &self.client
    }

    async fn make(&self, run: &RunState, (case, unit): (usize, Unit)) -> Result<ItemOut, Stop> {
        if self.client.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        let case = &self.cases[case];
        match unit {
            Unit::Lca(c) => self.lca(run, case, c).await,
            Unit::Dcg => self.dcg(run, case).await,
            Unit::Ljp(s) => self.ljp(run, case, s).await,
        }
    }
}

impl Ctx {
    async fn model(&self, run: &RunState, prompt: &str) -> Result<Result<String, String>, Stop> {
        split(
            self.client
                .complete(&self.model, prompt, &run.sample, &run.usage)
                .await,
        )
    }

    async fn user(&self, run: &RunState, prompt: &str) -> Result<Result<String, String>, Stop> {
        split(
            self.client
                .complete(&self.user, prompt, &run.sample, &run.usage)
                .await,
        )
    }

    /// Asks every seated judge (at once) and aggregates their votes. Each
    /// judge whose reply does not parse is asked again, up to
    /// `judge_attempts` times.
    async fn judge<T, P, A>(
        &self,
        run: &RunState,
        step: &str,
        prompt: &str,
        parse: P,
        aggregate: A,
        outputs: &mut Vec<JudgeOutput>,
    ) -> Result<Result<T, String>, Stop>
    where
        P: Fn(&str) -> Result<T, ParseError>,
        A: Fn(&[Vote<T>]) -> Result<T, String>,
    {
        let asked = join_all(
            self.judges
                .iter()
                .map(|judge| self.one_judge(run, judge, step, prompt, &parse)),
        )
        .await;
        let mut votes = Vec::with_capacity(asked.len());
        for (judge, result) in self.judges.iter().zip(asked) {
            let (judge_outputs, vote) = result?;
            outputs.extend(judge_outputs);
            votes.push((judge.endpoint.model.clone(), vote));
        }
        Ok(aggregate(&votes).map_err(|e| format!("judge ({step}): {e}")))
    }

    async fn one_judge<T, P>(
        &self,
        run: &RunState,
        judge: &Caller,
        step: &str,
        prompt: &str,
        parse: &P,
    ) -> Result<(Vec<JudgeOutput>, Result<T, String>), Stop>
    where
        P: Fn(&str) -> Result<T, ParseError>,
    {
        let attempts = self.judge_attempts.max(1);
        let mut outputs = Vec::new();
        let mut last_error = String::new();
        for attempt in 0..attempts {
            let output = |raw: Option<String>, error: Option<String>| JudgeOutput {
                judge: judge.endpoint.model.clone(),
                step: step.to_owned(),
                attempt: attempt + 1,
                raw,
                error,
            };
            let sample = format!("attempt{attempt}");
            let reply = self
                .client
                .complete(judge, prompt, &sample, &run.usage)
                .await;
            match split(reply)? {
                Ok(raw) => match parse(&raw) {
                    Ok(value) => {
                        outputs.push(output(Some(raw), None));
                        return Ok((outputs, Ok(value)));
                    }
                    Err(e) => {
                        last_error = format!(
                            "no valid reply in {} attempt{}; the last: {e}",
                            attempt + 1,
                            if attempt == 0 { "" } else { "s" }
                        );
                        outputs.push(output(Some(raw), Some(e.to_string())));
                    }
                },
                Err(reason) => {
                    outputs.push(output(None, Some(reason.clone())));
                    return Ok((outputs, Err(reason)));
                }
            }
        }
        Ok((outputs, Err(last_error)))
    }

    async fn lca(&self, run: &RunState, case: &Case, c: Consultation) -> Result<ItemOut, Stop> {
        let mut outputs = Vec::new();
        let item =
            |label: Option<LcaLabel>, response: Option<String>, why: Option<String>| LcaItem {
                case_id: case.case_id.clone(),
                consultation: c,
                label,
                response,
                unavailable: why,
            };
        let done = |item: LcaItem, outputs: &[JudgeOutput]| ItemOut {
            unavailable: item.unavailable.is_some(),
            line: line("lca", &item, None, outputs),
        };
        let reply = match self.model(run, &prompts::lexawn(case.turns(c))).await? {
            Ok(reply) => reply,
            Err(why) => return Ok(done(item(None, None, Some(why)), &outputs)),
        };
        let label = self
            .judge(
                run,
                "strategy",
                &prompts::judge_lca(&reply),
                parse::parse_strategy,
                majority,
                &mut outputs,
            )
            .await?;
        let item = match label {
            Ok(label) => item(Some(label), Some(reply), None),
            Err(why) => item(None, Some(reply), Some(why)),
        };
        Ok(done(item, &outputs))
    }

    async fn dcg(&self, run: &RunState, case: &Case) -> Result<ItemOut, Stop> {
        let mut outputs = Vec::new();
        let mut history = case.consultations.underspecified.clone();
        let mut dialogue = Vec::new();
        let mut requests = Vec::new();
        let mut unavailable = None;
        for round in 1..=MAX_DCG_ROUNDS {
            let request = match self.model(run, &prompts::dcg(&history)).await? {
                Ok(r) => r,
                Err(why) => {
                    unavailable = Some(format!("request {round}: {why}"));
                    break;
                }
            };
            let accepted = self
                .judge(
                    run,
                    &format!("request {round}"),
                    &prompts::judge_dcg(&request, case),
                    parse::parse_acceptance,
                    majority,
                    &mut outputs,
                )
                .await?;
            let asked = turn(Role::Assistant, &request);
            history.push(asked.clone());
            dialogue.push(asked);
            requests.push(DcgRequest {
                text: Some(request),
                accepted: accepted.as_ref().ok().copied(),
            });
            match accepted {
                Err(why) => {
                    unavailable = Some(why);
                    break;
                }
                Ok(true) => break,
                Ok(false) if round == MAX_DCG_ROUNDS => break,
                Ok(false) => {}
            }
            // Delayed disclosure and self-correction are interaction-LJP
            // conditions (`UserCondition::for_dcg`).
            let prompt = prompts::user(self.condition.for_dcg(), &history, case, round);
            match self.user(run, &prompt).await? {
                Ok(answer) => {
                    let answered = turn(Role::User, &answer);
                    history.push(answered.clone());
                    dialogue.push(answered);
                }
                Err(why) => {
                    unavailable = Some(format!("answer to request {round}: {why}"));
                    break;
                }
            }
        }
        if unavailable.is_some() {
            requests.iter_mut().for_each(|r| r.accepted = None);
        }
        let item = DcgItem {
            case_id: case.case_id.clone(),
            requests,
            unavailable,
        };
        Ok(ItemOut {
            unavailable: item.unavailable.is_some(),
            line: line("dcg", &item, Some(&dialogue), &outputs),
        })
    }

    async fn ljp(&self, run: &RunState, case: &Case, setup: LjpSetup) -> Result<ItemOut, Stop> {
        let mut outputs = Vec::new();
        let mut dialogue = Vec::new();
        let reply = match setup {
            LjpSetup::Direct => {
                self.model(
                    run,
                    &prompts::ljp_direct(&case.consultations.underspecified),
                )
                .await?
            }
            LjpSetup::Gold => {
                self.model(run, &prompts::ljp_direct(&case.consultations.complete))
                    .await?
            }
            LjpSetup::Interaction => {
                self.interaction(run, case, &mut dialogue, &mut outputs)
                    .await?
            }
        };
        let (predictions, response, unavailable) = match reply {
            Err(why) => (None, None, Some(why)),
            Ok(reply) => {
                let claims = case.claims.len();
                let verdicts = self
                    .judge(
                        run,
                        "verdicts",
                        &prompts::judge_ljp(&reply, case),
                        |r| parse::parse_verdicts(r, claims),
                        majority_verdicts,
                        &mut outputs,
                    )
                    .await?;
                match verdicts {
                    Ok(v) => (Some(v), Some(reply), None),
                    Err(why) => (None::<Vec<Verdict>>, Some(reply), Some(why)),
                }
            }
        };
        let item = LjpItem {
            case_id: case.case_id.clone(),
            setup,
            predictions,
            response,
            dialogue: (setup == LjpSetup::Interaction).then_some(dialogue),
            unavailable,
        };
        Ok(ItemOut {
            unavailable: item.unavailable.is_some(),
            line: line("ljp", &item, None, &outputs),
        })
    }

    /// The interaction-based dialogue; returns the final reply to extract
    /// verdicts from, and leaves the new turns in `dialogue`.
    async fn interaction(
        &self,
        run: &RunState,
        case: &Case,
        dialogue: &mut Vec<Turn>,
        outputs: &mut Vec<JudgeOutput>,
    ) -> Result<Result<String, String>, Stop> {
        let mut history = case.consultations.underspecified.clone();
        let mut user_turns = 0;
        let mut advisor_turns = 0;
        loop {
            if user_turns >= MAX_INTERACTION_ROUNDS {
                let reply = match self.model(run, &prompts::ljp_direct(&history)).await? {
                    Ok(r) => r,
                    Err(why) => return Ok(Err(format!("final prediction: {why}"))),
                };
                dialogue.push(turn(Role::Assistant, &reply));
                return Ok(Ok(reply));
            }
            let reply = match self.model(run, &prompts::lexawn(&history)).await? {
                Ok(r) => r,
                Err(why) => return Ok(Err(format!("turn {}: {why}", advisor_turns + 1))),
            };
            advisor_turns += 1;
            let said = turn(Role::Assistant, &reply);
            history.push(said.clone());
            dialogue.push(said);
            let strategy = self
                .judge(
                    run,
                    &format!("strategy {advisor_turns}"),
                    &prompts::judge_lca(&reply),
                    parse::parse_strategy,
                    majority,
                    outputs,
                )
                .await?;
            let predicted = match strategy {
                Ok(label) => label == LcaLabel::Predict,
                Err(why) => return Ok(Err(why)),
            };
            let correcting = self.condition == UserCondition::SelfCorrection && user_turns > 0;
            if predicted && !correcting {
                return Ok(Ok(reply));
            }
            let prompt = prompts::user(self.condition, &history, case, advisor_turns);
            let answer = match self.user(run, &prompt).await? {
                Ok(a) => a,
                Err(why) => return Ok(Err(format!("user turn {}: {why}", user_turns + 1))),
            };
            if predicted && parse::is_no_correction(&answer) {
                return Ok(Ok(reply));
            }
            let answered = turn(Role::User, &answer);
            history.push(answered.clone());
            dialogue.push(answered);
            user_turns += 1;
        }
    }
}
