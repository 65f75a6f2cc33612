//! What changed between two versions of a case, for the revision history.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use similar::{capture_diff_slices_by_key, Algorithm, DiffTag, TextDiff};

use crate::core::dialogue::Turn;
use crate::lexpilot::dataset::Case;
use crate::vocab::{Consultation, Role, Verdict};

/// One change between two versions of a case. Serialised with a `change`
/// tag: `{"change": "verdict", "claim": "c1", "old": "supported", "new": "dismissed"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum FieldChange {
    /// A top-level field, or a field of one claim, focal point or key fact
    /// (`cause`, `claims[c1].text`, `key_facts[k2].quote`); a whole claim,
    /// focal point or key fact added or removed (`key_facts[k3]`). `None`
    /// where the field is absent.
    Field {
        /// The field, with list entries named by id.
        field: String,
        /// The old value.
        old: Option<Value>,
        /// The new value.
        new: Option<Value>,
    },
    /// The court's verdict on a claim changed.
    Verdict {
        /// The claim's id.
        claim: String,
        /// The old verdict.
        old: Verdict,
        /// The new verdict.
        new: Verdict,
    },
    /// Key facts were added to or removed from `missing_facts`.
    MissingFacts {
        /// Ids now missing that were not, in the new order.
        added: Vec<String>,
        /// Ids no longer missing, in the old order.
        removed: Vec<String>,
    },
    /// A turn whose text or speaker changed.
    TurnEdited {
        /// The consultation.
        consultation: Consultation,
        /// The turn's 0-based place in the old version.
        old_turn: usize,
        /// Its place in the new version.
        new_turn: usize,
        /// The old speaker.
        old_role: Role,
        /// The new speaker.
        new_role: Role,
        /// The character diff of the text.
        edits: Vec<TextEdit>,
    },
    /// A turn only the new version has.
    TurnAdded {
        /// The consultation.
        consultation: Consultation,
        /// Its 0-based place in the new version.
        turn: usize,
        /// The speaker.
        role: Role,
        /// The text.
        content: String,
    },
    /// A turn only the old version has.
    TurnRemoved {
        /// The consultation.
        consultation: Consultation,
        /// Its 0-based place in the old version.
        turn: usize,
        /// The speaker.
        role: Role,
        /// The text.
        content: String,
    },
}

/// One stretch of a character diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextEdit {
    /// Kept, deleted or inserted.
    pub op: EditOp,
    /// The characters.
    pub text: String,
}

/// What happened to a stretch of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EditOp {
    /// In both versions.
    Equal,
    /// Only in the old version.
    Delete,
    /// Only in the new version.
    Insert,
}

/// Every change from `old` to `new`, in this order: top-level fields (in the
/// order of the dataset format), claims (verdicts, then other fields),
/// focal points, key facts, `missing_facts`, then the turns of the complete
/// and of the underspecified consultation. Claims, focal points and key facts
/// are matched by id, so reordering them is no change; turns are aligned by a
/// Myers diff, so a turn inserted in the middle shows as one added turn, and
/// an edited turn gets a character diff of its text (Chinese has no spaces to
/// split words at). Equal cases give no change.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_case;
/// use engine::core::dialogue::Turn;
/// use engine::review::{diff_cases, EditOp, FieldChange, TextEdit};
/// use engine::vocab::{Consultation, Role, Verdict};
///
/// let old = parse_case(r#"{"case_id": "LP-0003", "cause": "离婚纠纷", "class": "family",
///   "plaintiff_type": "natural",
///   "claims": [{"id": "c1", "text": "判令准予离婚", "verdict": "supported"}],
///   "focal_points": [{"id": "f1", "text": "夫妻感情是否确已破裂", "type": "factual_conduct"}],
///   "key_facts": [{"id": "k1", "focal_point": "f1", "text": "双方已分居两年"}],
///   "missing_facts": [],
///   "consultations": {
///     "complete": [{"role": "user", "content": "我们分居两年了，能离婚吗？"}],
///     "underspecified": [{"role": "user", "content": "我们分居两年了，能离婚吗？"}]}}"#,
///   1).unwrap();
///
/// let mut new = old.clone();
/// new.claims[0].verdict = Verdict::Dismissed;
/// new.missing_facts = vec!["k1".into()];
/// new.consultations.underspecified[0].content = "我们感情不好，能离婚吗？".into();
///
/// let changes = diff_cases(&old, &new);
/// assert_eq!(changes[0], FieldChange::Verdict {
///     claim: "c1".into(), old: Verdict::Supported, new: Verdict::Dismissed,
/// });
/// assert_eq!(changes[1], FieldChange::MissingFacts { added: vec!["k1".into()], removed: vec![] });
/// let FieldChange::TurnEdited { consultation, edits, .. } = &changes[2] else { unreachable!() };
/// assert_eq!(*consultation, Consultation::Underspecified);
/// let edit = |op, text: &str| TextEdit { op, text: text.into() };
/// assert_eq!(edits, &[
///     edit(EditOp::Equal, "我们"),
///     edit(EditOp::Delete, "分居两年了"),
///     edit(EditOp::Insert, "感情不好"),
///     edit(EditOp::Equal, "，能离婚吗？"),
/// ]);
/// assert_eq!(changes.len(), 3);
/// assert!(diff_cases(&old, &old).is_empty());
/// ```
pub fn diff_cases(old: &Case, new: &Case) -> Vec<FieldChange> {
    let mut changes = Vec::new();

    let scalar = |field: &str, old: Value, new: Value| {
        (old != new).then(|| FieldChange::Field {
            field: field.to_owned(),
            old: present(old),
            new: present(new),
        })
    };
    changes.extend(
        [
            scalar("case_id", value(&old.case_id), value(&new.case_id)),
            scalar(
                "case_number",
                value(&old.case_number),
                value(&new.case_number),
            ),
            scalar("cause", value(&old.cause), value(&new.cause)),
            scalar("class", value(&old.class), value(&new.class)),
            scalar("province", value(&old.province), value(&new.province)),
            scalar(
                "plaintiff_type",
                value(&old.plaintiff_type),
                value(&new.plaintiff_type),
            ),
            scalar("profile", value(&old.profile), value(&new.profile)),
            scalar(
                "provisions_cited",
                value(&old.provisions_cited),
                value(&new.provisions_cited),
            ),
            scalar("seed", value(&old.seed), value(&new.seed)),
        ]
        .into_iter()
        .flatten(),
    );

    for claim in &new.claims {
        if let Some(before) = old.claims.iter().find(|c| c.id == claim.id) {
            if before.verdict != claim.verdict {
                changes.push(FieldChange::Verdict {
                    claim: claim.id.clone(),
                    old: before.verdict,
                    new: claim.verdict,
                });
            }
        }
    }
    diff_by_id(
        "claims",
        &old.claims,
        &new.claims,
        |c| &c.id,
        &["verdict"],
        &mut changes,
    );
    diff_by_id(
        "focal_points",
        &old.focal_points,
        &new.focal_points,
        |f| &f.id,
        &[],
        &mut changes,
    );
    diff_by_id(
        "key_facts",
        &old.key_facts,
        &new.key_facts,
        |k| &k.id,
        &[],
        &mut changes,
    );

    let (was, is): (BTreeSet<&String>, BTreeSet<&String>) = (
        old.missing_facts.iter().collect(),
        new.missing_facts.iter().collect(),
    );
    let added: Vec<String> = new
        .missing_facts
        .iter()
        .filter(|id| !was.contains(id))
        .cloned()
        .collect();
    let removed: Vec<String> = old
        .missing_facts
        .iter()
        .filter(|id| !is.contains(id))
        .cloned()
        .collect();
    if !added.is_empty() || !removed.is_empty() {
        changes.push(FieldChange::MissingFacts { added, removed });
    }

    for consultation in Consultation::ALL {
        diff_turns(
            consultation,
            old.turns(consultation),
            new.turns(consultation),
            &mut changes,
        );
    }
    changes
}

/// The JSON value of a field of a case. Case fields are strings, numbers,
/// booleans, enums and string-keyed maps, which always serialise.
fn value<T: Serialize>(x: &T) -> Value {
    serde_json::to_value(x).unwrap_or(Value::Null)
}

/// `None` for an absent optional field.
fn present(v: Value) -> Option<Value> {
    (!v.is_null()).then_some(v)
}

/// Changes of the entries of the list `list`, matched by id: each field that
/// differs (except `skip`), and whole entries added or removed.
fn diff_by_id<T: Serialize>(
    list: &str,
    old: &[T],
    new: &[T],
    id: fn(&T) -> &String,
    skip: &[&str],
    changes: &mut Vec<FieldChange>,
) {
    let fields = |x: &T| match value(x) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    for before in old {
        if !new.iter().any(|n| id(n) == id(before)) {
            changes.push(FieldChange::Field {
                field: format!("{list}[{}]", id(before)),
                old: Some(value(before)),
                new: None,
            });
        }
    }
    for after in new {
        let Some(before) = old.iter().find(|o| id(o) == id(after)) else {
            changes.push(FieldChange::Field {
                field: format!("{list}[{}]", id(after)),
                old: None,
                new: Some(value(after)),
            });
            continue;
        };
        let (before, after_fields) = (fields(before), fields(after));
        let keys: BTreeSet<&String> = before.keys().chain(after_fields.keys()).collect();
        for key in keys {
            if skip.contains(&key.as_str()) {
                continue;
            }
            let (o, n) = (before.get(key).cloned(), after_fields.get(key).cloned());
            if o != n {
                changes.push(FieldChange::Field {
                    field: format!("{list}[{}].{key}", id(after)),
                    old: o,
                    new: n,
                });
            }
        }
    }
}

/// Turn changes of one consultation, aligned by a Myers diff on (role, text).
fn diff_turns(
    consultation: Consultation,
    old: &[Turn],
    new: &[Turn],
    changes: &mut Vec<FieldChange>,
) {
    let key = |t: &Turn| (t.role, t.content.clone());
    for op in capture_diff_slices_by_key(Algorithm::Myers, old, new, key) {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        if tag == DiffTag::Equal {
            continue;
        }
        let paired = old_range.len().min(new_range.len());
        for (o, n) in old_range.clone().zip(new_range.clone()) {
            changes.push(FieldChange::TurnEdited {
                consultation,
                old_turn: o,
                new_turn: n,
                old_role: old[o].role,
                new_role: new[n].role,
                edits: text_edits(&old[o].content, &new[n].content),
            });
        }
        for o in old_range.skip(paired) {
            changes.push(FieldChange::TurnRemoved {
                consultation,
                turn: o,
                role: old[o].role,
                content: old[o].content.clone(),
            });
        }
        for n in new_range.skip(paired) {
            changes.push(FieldChange::TurnAdded {
                consultation,
                turn: n,
                role: new[n].role,
                content: new[n].content.clone(),
            });
        }
    }
}

/// The character diff of `old` to `new`, consecutive characters of one kind
/// joined. Concatenating the `Equal` and `Delete` stretches gives `old`, the
/// `Equal` and `Insert` stretches `new`.
fn text_edits(old: &str, new: &str) -> Vec<TextEdit> {
    let diff = TextDiff::from_chars(old, new);
    let mut edits: Vec<TextEdit> = Vec::new();
    let mut push = |op: EditOp, text: &str| {
        if text.is_empty() {
            return;
        }
        match edits.last_mut() {
            Some(last) if last.op == op => last.text.push_str(text),
            _ => edits.push(TextEdit {
                op,
                text: text.to_owned(),
            }),
        }
    };
    for op in diff.ops() {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        let old_text: String = old_range.filter_map(|i| diff.old_slice(i)).collect();
        let new_text: String = new_range.filter_map(|i| diff.new_slice(i)).collect();
        match tag {
            DiffTag::Equal => push(EditOp::Equal, &old_text),
            DiffTag::Delete => push(EditOp::Delete, &old_text),
            DiffTag::Insert => push(EditOp::Insert, &new_text),
            DiffTag::Replace => {
                push(EditOp::Delete, &old_text);
                push(EditOp::Insert, &new_text);
            }
        }
    }
    edits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexpilot::dataset::parse_case;

    fn case() -> Case {
        parse_case(
            r#"{"case_id": "LP-0004", "cause": "租赁合同纠纷", "class": "finance_contract",
              "plaintiff_type": "natural", "province": "广东",
              "claims": [{"id": "c1", "text": "判令被告支付租金3万元", "verdict": "supported"},
                         {"id": "c2", "text": "判令被告支付违约金", "verdict": "dismissed"}],
              "focal_points": [{"id": "f1", "text": "租金是否拖欠", "type": "factual_conduct"}],
              "key_facts": [{"id": "k1", "focal_point": "f1", "text": "被告自2022年起未付租金"}],
              "missing_facts": ["k1"],
              "consultations": {
                "complete": [{"role": "user", "content": "租客从2022年起就没交房租。"},
                             {"role": "assistant", "content": "有书面合同吗？"},
                             {"role": "user", "content": "有的。"}],
                "underspecified": [{"role": "user", "content": "租客欠房租不交。"},
                                   {"role": "assistant", "content": "欠了多久？"},
                                   {"role": "user", "content": "有合同。"}]}}"#,
            1,
        )
        .expect("a valid case")
    }

    fn join(edits: &[TextEdit], keep: EditOp) -> String {
        edits
            .iter()
            .filter(|e| e.op == EditOp::Equal || e.op == keep)
            .map(|e| e.text.as_str())
            .collect()
    }

    #[test]
    fn text_edits_rebuild_both_texts() {
        for (old, new) in [
            ("租客欠房租不交。", "租客从2022年起欠房租不交。"),
            ("", "新增的一轮"),
            ("删掉的一轮", ""),
            ("完全相同", "完全相同"),
            ("😀表情ａ", "表情😀"),
        ] {
            let edits = text_edits(old, new);
            assert_eq!(join(&edits, EditOp::Delete), old);
            assert_eq!(join(&edits, EditOp::Insert), new);
        }
        assert!(text_edits("", "").is_empty());
    }

    #[test]
    fn an_inserted_turn_is_one_addition() {
        let old = case();
        let mut new = case();
        new.consultations.complete.insert(
            1,
            Turn {
                role: Role::Assistant,
                content: "您好，请问租金多少？".into(),
            },
        );
        assert_eq!(
            diff_cases(&old, &new),
            [FieldChange::TurnAdded {
                consultation: Consultation::Complete,
                turn: 1,
                role: Role::Assistant,
                content: "您好，请问租金多少？".into()
            }]
        );
        assert_eq!(
            diff_cases(&new, &old),
            [FieldChange::TurnRemoved {
                consultation: Consultation::Complete,
                turn: 1,
                role: Role::Assistant,
                content: "您好，请问租金多少？".into()
            }]
        );
    }

    #[test]
    fn fields_are_named_by_id_and_optional_fields_by_absence() {
        let old = case();
        let mut new = case();
        new.province = None;
        new.claims.swap(0, 1);
        new.claims[0].text = "判令被告支付违约金1万元".into();
        new.key_facts[0].quote = Some("从2022年起就没交房租".into());
        new.focal_points.clear();
        let changes = diff_cases(&old, &new);
        let json = serde_json::to_value(&changes).unwrap();
        assert_eq!(
            json,
            serde_json::json!([
                {"change": "field", "field": "province", "old": "广东", "new": null},
                {"change": "field", "field": "claims[c2].text",
                 "old": "判令被告支付违约金", "new": "判令被告支付违约金1万元"},
                {"change": "field", "field": "focal_points[f1]",
                 "old": {"id": "f1", "text": "租金是否拖欠", "type": "factual_conduct"}, "new": null},
                {"change": "field", "field": "key_facts[k1].quote",
                 "old": null, "new": "从2022年起就没交房租"}
            ])
        );
    }

    #[test]
    fn a_role_change_is_an_edited_turn_with_equal_text() {
        let old = case();
        let mut new = case();
        new.consultations.underspecified[2].role = Role::Assistant;
        let changes = diff_cases(&old, &new);
        assert_eq!(
            changes,
            [FieldChange::TurnEdited {
                consultation: Consultation::Underspecified,
                old_turn: 2,
                new_turn: 2,
                old_role: Role::User,
                new_role: Role::Assistant,
                edits: vec![TextEdit {
                    op: EditOp::Equal,
                    text: "有合同。".into()
                }],
            }]
        );
    }
}
