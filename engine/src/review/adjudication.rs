//! Adjudication: who may decide an item, when it can be decided, and which
//! label (and corrected case) a decision adopts.
//!
//! An adjudicator (an admin, or an expert an admin designated) decides the
//! items whose experts all submitted without agreeing, never an item they are
//! one of the experts of ([`ItemRecord::may_decide`]), and may revise their
//! decision ([`ItemRecord::check_adjudication`]). The label is checked as an
//! expert's is; for a seed dialogue it is `approve`, `correct` to adopt the
//! one corrected case the experts proposed, or `correct:NAME` to adopt expert
//! NAME's ([`ItemRecord::adjudicated_label`]).

use super::{CheckedLabel, FinalSource, InputError, ItemRecord, ItemStatus, ReviewKind, Viewer};
use crate::lexpilot::dataset::Case;

/// Why an item cannot be adjudicated (now, or by this adjudicator).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotAdjudicable {
    /// The adjudicator is one of the item's experts: another one decides.
    #[error("you are one of the experts of review item {item}; another adjudicator decides it")]
    OwnItem {
        /// The item.
        item: i64,
    },
    /// The experts agreed: the item is final without an adjudicator.
    #[error("the experts agree on review item {item}; there is nothing to adjudicate")]
    ExpertsAgree {
        /// The item.
        item: i64,
    },
    /// Not every expert has submitted yet.
    #[error("review item {item} is still waiting for its experts' labels")]
    AwaitingExperts {
        /// The item.
        item: i64,
    },
}

impl ItemRecord {
    /// Whether `viewer` may decide this item: they may adjudicate and are not
    /// one of its experts.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::accounts::{Role, Standing};
    /// use engine::review::{AssignmentRecord, ItemRecord, ReviewKind, Viewer};
    ///
    /// let designated = Viewer { id: 3, standing: Standing { role: Role::Expert, adjudicator: true } };
    /// let mut item = ItemRecord::new(1, ReviewKind::CaseCheck, "LP-0001");
    /// item.assignments = vec![AssignmentRecord { expert_id: 1, ..Default::default() }];
    /// assert!(item.may_decide(&designated));
    /// item.assignments.push(AssignmentRecord { expert_id: 3, ..Default::default() });
    /// assert!(!item.may_decide(&designated));
    /// ```
    pub fn may_decide(&self, viewer: &Viewer) -> bool {
        viewer.may_adjudicate() && self.assignment(viewer.id).is_none()
    }

    /// Whether the item is in `viewer`'s adjudication queue: every expert
    /// submitted, they disagree, and `viewer` may decide it.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::accounts::{Role, Standing};
    /// use engine::review::{AssignmentRecord, ItemRecord, ReviewKind, Viewer};
    ///
    /// let admin = Viewer { id: 9, standing: Standing { role: Role::Admin, adjudicator: false } };
    /// let submitted = |expert_id| AssignmentRecord {
    ///     expert_id,
    ///     submitted_at: Some("2026-01-01T00:00:00Z".into()),
    ///     ..Default::default()
    /// };
    /// let mut item = ItemRecord::new(1, ReviewKind::CaseCheck, "LP-0001");
    /// item.assignments = vec![submitted(1)];
    /// assert!(!item.waits_for(&admin)); // the second expert is missing
    /// item.assignments.push(submitted(2));
    /// assert!(item.waits_for(&admin));
    /// ```
    pub fn waits_for(&self, viewer: &Viewer) -> bool {
        self.status() == ItemStatus::Adjudication && self.may_decide(viewer)
    }

    /// Refuses an adjudication by `viewer` of an item they are an expert of,
    /// whose experts agreed, or that still waits for its experts. An item
    /// already adjudicated may be adjudicated again (a revision).
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::accounts::{Role, Standing};
    /// use engine::review::{FinalSource, ItemRecord, NotAdjudicable, ReviewKind, Viewer};
    ///
    /// let admin = Viewer { id: 9, standing: Standing { role: Role::Admin, adjudicator: false } };
    /// let mut item = ItemRecord::new(5, ReviewKind::CaseCheck, "LP-0001");
    /// assert_eq!(item.check_adjudication(&admin), Err(NotAdjudicable::AwaitingExperts { item: 5 }));
    /// item.final_label = Some("…".into());
    /// item.final_source = Some(FinalSource::Agreed);
    /// assert_eq!(item.check_adjudication(&admin), Err(NotAdjudicable::ExpertsAgree { item: 5 }));
    /// item.final_source = Some(FinalSource::Adjudicated);
    /// assert_eq!(item.check_adjudication(&admin), Ok(()));
    /// ```
    pub fn check_adjudication(&self, viewer: &Viewer) -> Result<(), NotAdjudicable> {
        let item = self.id;
        if !self.may_decide(viewer) {
            return Err(NotAdjudicable::OwnItem { item });
        }
        match self.status() {
            ItemStatus::Adjudication => Ok(()),
            ItemStatus::Final if self.final_source == Some(FinalSource::Adjudicated) => Ok(()),
            ItemStatus::Final => Err(NotAdjudicable::ExpertsAgree { item }),
            ItemStatus::Todo | ItemStatus::Submitted => {
                Err(NotAdjudicable::AwaitingExperts { item })
            }
        }
    }

    /// The label an adjudicator gives this item, in its stored form, with the
    /// corrected case it adopts. For a seed dialogue: `approve`; `correct`,
    /// adopting the experts' corrected case when they proposed one (or the
    /// same one); or `correct:NAME`, adopting expert NAME's. Any other item:
    /// its label checked as an expert's is ([`checked_label`]), against
    /// `case` (the case the item shows).
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::lexpilot::dataset::parse_dataset;
    /// use engine::review::{AssignmentRecord, InputError, ItemRecord, ReviewKind};
    ///
    /// let cases = parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).unwrap();
    /// let proposing = |expert_id, expert: &str, extra: &str| {
    ///     let mut case = cases[0].clone();
    ///     case.consultations.underspecified[0].content.push_str(extra);
    ///     AssignmentRecord { expert_id, expert: expert.into(), proposal: Some(case), ..Default::default() }
    /// };
    /// let mut item = ItemRecord::new(1, ReviewKind::SeedDialogue, cases[0].case_id.clone());
    /// item.assignments = vec![proposing(1, "甲", "（甲）"), proposing(2, "乙", "（乙）")];
    ///
    /// assert_eq!(item.adjudicated_label(None, "approve").unwrap().proposal, None);
    /// assert_eq!(item.adjudicated_label(None, "correct"), Err(InputError::DifferentProposals));
    /// let adopted = item.adjudicated_label(None, "correct:乙").unwrap();
    /// assert_eq!(adopted.label, "correct");
    /// assert_eq!(adopted.proposal, item.assignments[1].proposal);
    /// assert!(matches!(item.adjudicated_label(None, "correct:丙"), Err(InputError::NoProposalBy { .. })));
    /// ```
    pub fn adjudicated_label(
        &self,
        case: Option<&Case>,
        label: &str,
    ) -> Result<CheckedLabel, InputError> {
        if self.kind != ReviewKind::SeedDialogue {
            return self.check_label(case, label, None);
        }
        let label = label.trim();
        if label == "approve" {
            return Ok(CheckedLabel {
                label: label.to_owned(),
                proposal: None,
            });
        }
        let proposals: Vec<(&str, &Case)> = self
            .assignments
            .iter()
            .filter_map(|a| Some((a.expert.as_str(), a.proposal.as_ref()?)))
            .collect();
        let chosen = match label.split_once(':') {
            None if label == "correct" => {
                let mut distinct: Vec<&Case> = Vec::new();
                for &(_, case) in &proposals {
                    if !distinct.contains(&case) {
                        distinct.push(case);
                    }
                }
                match distinct.as_slice() {
                    [] => return Err(InputError::NoProposal),
                    [one] => (*one).clone(),
                    _ => return Err(InputError::DifferentProposals),
                }
            }
            Some(("correct", name)) => proposals
                .iter()
                .find(|(expert, _)| *expert == name.trim())
                .map(|(_, case)| (*case).clone())
                .ok_or_else(|| InputError::NoProposalBy {
                    expert: name.trim().to_owned(),
                })?,
            _ => {
                return Err(InputError::UnknownAdjudication {
                    label: label.to_owned(),
                })
            }
        };
        Ok(CheckedLabel {
            label: "correct".to_owned(),
            proposal: Some(chosen),
        })
    }

    /// The reason recorded with the seed correction an adjudication saves.
    ///
    /// # Examples
    ///
    /// ```
    /// use engine::review::{ItemRecord, ReviewKind};
    ///
    /// let item = ItemRecord::new(4, ReviewKind::SeedDialogue, "LP-0001");
    /// assert_eq!(item.adjudicated_correction_reason(" 取乙的版本 "), "seed review #4: 取乙的版本");
    /// ```
    pub fn adjudicated_correction_reason(&self, reason: &str) -> String {
        format!("seed review #{}: {}", self.id, reason.trim())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::Role;
    use crate::lexpilot::run::Task;
    use crate::review::view::tests::viewer;
    use crate::review::AssignmentRecord;

    fn submitted(expert_id: i64, label: &str) -> AssignmentRecord {
        AssignmentRecord {
            expert_id,
            expert: format!("expert-{expert_id}"),
            label: Some(label.into()),
            blind_label: Some(label.into()),
            submitted_at: Some("2026-01-01T00:00:00Z".into()),
            ..Default::default()
        }
    }

    #[test]
    fn only_adjudicators_outside_the_item_decide_it() {
        let mut item = ItemRecord::new(2, ReviewKind::JudgeVerdict, "LP-0001");
        item.task = Some(Task::Lca);
        item.assignments = vec![submitted(1, "ask"), submitted(2, "predict")];
        let admin = viewer(9, Role::Admin, false);
        let expert = viewer(3, Role::Expert, false);
        let own = viewer(1, Role::Expert, true);
        assert!(item.waits_for(&admin));
        assert!(!item.waits_for(&expert), "an expert never adjudicates");
        assert!(!item.waits_for(&own));
        assert_eq!(
            item.check_adjudication(&own),
            Err(NotAdjudicable::OwnItem { item: 2 })
        );
        assert_eq!(item.check_adjudication(&admin), Ok(()));
        item.final_label = Some("ask".into());
        item.final_source = Some(FinalSource::Adjudicated);
        assert!(!item.waits_for(&admin), "decided items leave the queue");
        assert_eq!(
            item.check_adjudication(&admin),
            Ok(()),
            "but may be revised"
        );
    }

    #[test]
    fn a_seed_adjudication_adopts_the_one_proposal_or_refuses() {
        let item = ItemRecord::new(1, ReviewKind::SeedDialogue, "LP-0001");
        assert_eq!(
            item.adjudicated_label(None, "correct"),
            Err(InputError::NoProposal)
        );
        assert_eq!(
            item.adjudicated_label(None, "reject"),
            Err(InputError::UnknownAdjudication {
                label: "reject".into()
            })
        );
        assert_eq!(
            item.adjudicated_label(None, "fix:甲"),
            Err(InputError::UnknownAdjudication {
                label: "fix:甲".into()
            })
        );
        let case: Case = serde_json::from_str(
            r#"{"case_id": "LP-0001", "cause": "借款合同纠纷", "class": "finance_contract",
                "plaintiff_type": "natural",
                "claims": [{"id": "c1", "text": "还款", "verdict": "supported"}],
                "focal_points": [], "key_facts": [], "missing_facts": [],
                "consultations": {"complete": [], "underspecified": []}}"#,
        )
        .expect("case");
        let mut same = item.clone();
        same.assignments = vec![submitted(1, "correct"), submitted(2, "correct")];
        for a in &mut same.assignments {
            a.proposal = Some(case.clone());
        }
        let adopted = same.adjudicated_label(None, " correct ").expect("one case");
        assert_eq!(adopted.proposal, Some(case));
    }

    #[test]
    fn other_kinds_are_checked_as_an_expert_label() {
        let mut item = ItemRecord::new(1, ReviewKind::JudgeVerdict, "LP-0001");
        item.task = Some(Task::Dcg);
        assert_eq!(
            item.adjudicated_label(None, " accepted ")
                .expect("ok")
                .label,
            "accepted"
        );
        assert!(item.adjudicated_label(None, "correct:甲").is_err());
    }
}
