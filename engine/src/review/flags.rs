//! Pre-flags: spans of a case's consultations that a reviewer should look at.
//!
//! For the anonymization check, every turn of both consultations is scanned
//! for personal data that automated anonymization may have missed:
//!
//! - **Numbers.** A run of digits (ASCII or full-width), possibly in groups
//!   joined by single spaces or hyphens (`138-1234-5678`,
//!   `6222 0212 3456 7890`), is read as a whole: 11 digits `1[3-9]…` (or
//!   the same after `86`) is a mobile phone number; 18 characters, the last
//!   possibly `X`, whose digits 7 to 14 read as a birth date (19xx or 20xx)
//!   or which end in `X`, is a resident ID number; other runs of 16 to 19
//!   digits are bank card numbers. When the whole run is none of these, each
//!   group is tried alone, so that `13812345678 2021` still flags the phone.
//! - **Licence plates.** A province abbreviation, a capital letter, an
//!   optional `·` or space, then 5 or 6 capitals or digits with at least one
//!   digit (`粤B·12345`, `沪AD12345`), not followed by another letter or digit.
//!
//! For the incompleteness check, the quote and the text of every missing key
//! fact are searched verbatim in the underspecified consultation.
//!
//! The rules are deliberately loose: a flag is a hint, never a decision.
//! Offsets count characters (Unicode scalar values), so a span never splits
//! one; the end is exclusive.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::core::lines::is_blank;
use crate::lexpilot::dataset::Case;
use crate::vocab::{vocabulary, Consultation};

vocabulary! {
    /// Why a span is flagged.
    FlagKind, kind "flag" {
        /// Looks like a mainland mobile phone number.
        PhoneNumber = "phone_number", zh "手机号码", en "Mobile phone number";
        /// Looks like a resident ID number.
        IdNumber = "id_number", zh "身份证号码", en "Resident ID number";
        /// Looks like a bank card number.
        BankCard = "bank_card", zh "银行卡号", en "Bank card number";
        /// Looks like a licence plate.
        LicensePlate = "license_plate", zh "车牌号", en "Licence plate";
        /// Text of a missing key fact, found in the underspecified consultation.
        MissingFact = "missing_fact", zh "缺失事实", en "Missing fact";
    }
}

/// One flagged span of one turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flag {
    /// The consultation of the turn.
    pub consultation: Consultation,
    /// The 0-based turn.
    pub turn: usize,
    /// The first character of the span, counted in characters from 0.
    pub start_char: usize,
    /// One past the last character of the span.
    pub end_char: usize,
    /// Why it is flagged.
    pub kind: FlagKind,
    /// The flagged text, as it stands in the turn.
    pub text: String,
    /// For [`FlagKind::MissingFact`], the id of the key fact found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_fact: Option<String>,
}

/// Digit groups joined by single spaces or hyphens.
static NUMBER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[0-9０-９]+(?:[ \-][0-9０-９]+)*").ok());

/// Province abbreviation, letter, optional separator, five or six capitals or digits.
static PLATE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        "[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-Z][·• ]?[A-Z0-9]{5,6}",
    )
    .ok()
});

/// The spans of `case` worth a reviewer's look (see the module docs), ordered
/// by consultation (complete first), turn, start, end and kind.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::dataset::parse_case;
/// use engine::review::{flag_spans, FlagKind};
/// use engine::vocab::Consultation;
///
/// let case = parse_case(r#"{"case_id": "LP-0001", "cause": "机动车交通事故责任纠纷",
///   "class": "tort", "plaintiff_type": "natural",
///   "claims": [{"id": "c1", "text": "判令被告赔偿医疗费", "verdict": "supported"}],
///   "focal_points": [{"id": "f1", "text": "事故责任划分", "type": "liability_allocation"}],
///   "key_facts": [{"id": "k1", "focal_point": "f1", "text": "交警认定被告负全责",
///                  "quote": "交警认定对方负全部责任"}],
///   "missing_facts": ["k1"],
///   "consultations": {
///     "complete": [{"role": "user", "content": "我被粤B·12345撞了，交警认定对方负全部责任。"}],
///     "underspecified": [{"role": "user", "content": "我被撞了，电话13812345678，交警认定对方负全部责任。"}]}}"#,
///   1).unwrap();
///
/// let flags = flag_spans(&case);
/// let found: Vec<(Consultation, FlagKind, &str, usize, usize)> = flags
///     .iter()
///     .map(|f| (f.consultation, f.kind, f.text.as_str(), f.start_char, f.end_char))
///     .collect();
/// assert_eq!(found, [
///     (Consultation::Complete, FlagKind::LicensePlate, "粤B·12345", 2, 10),
///     (Consultation::Underspecified, FlagKind::PhoneNumber, "13812345678", 7, 18),
///     (Consultation::Underspecified, FlagKind::MissingFact, "交警认定对方负全部责任", 19, 30),
/// ]);
/// assert_eq!(flags[2].key_fact.as_deref(), Some("k1"));
/// ```
pub fn flag_spans(case: &Case) -> Vec<Flag> {
    let mut flags = Vec::new();
    for consultation in Consultation::ALL {
        for (turn, t) in case.turns(consultation).iter().enumerate() {
            let mut flag = |start: usize, end: usize, kind: FlagKind, key_fact: Option<&str>| {
                let Some(text) = t.content.get(start..end) else {
                    return;
                };
                let start_char = char_offset(&t.content, start);
                flags.push(Flag {
                    consultation,
                    turn,
                    start_char,
                    end_char: start_char + text.chars().count(),
                    kind,
                    text: text.to_owned(),
                    key_fact: key_fact.map(str::to_owned),
                });
            };
            for (start, end, kind) in personal_data(&t.content) {
                flag(start, end, kind, None);
            }
            if consultation == Consultation::Underspecified {
                for fact in case.missing_key_facts() {
                    let mut needles: Vec<&str> = fact.quote.iter().map(String::as_str).collect();
                    needles.push(&fact.text);
                    needles.retain(|n| !is_blank(n));
                    needles.dedup();
                    for needle in needles {
                        for (start, _) in t.content.match_indices(needle) {
                            flag(
                                start,
                                start + needle.len(),
                                FlagKind::MissingFact,
                                Some(&fact.id),
                            );
                        }
                    }
                }
            }
        }
    }
    flags.sort_by(|a, b| {
        (a.consultation, a.turn, a.start_char, a.end_char, a.kind).cmp(&(
            b.consultation,
            b.turn,
            b.start_char,
            b.end_char,
            b.kind,
        ))
    });
    flags
}

/// The number of characters of `text` before byte `byte`.
fn char_offset(text: &str, byte: usize) -> usize {
    text.get(..byte).map_or(0, |before| before.chars().count())
}

/// Byte spans of numbers and licence plates in `text`.
fn personal_data(text: &str) -> Vec<(usize, usize, FlagKind)> {
    let mut spans = Vec::new();
    if let Some(number) = NUMBER.as_ref() {
        for run in number.find_iter(text) {
            number_spans(text, run.start(), run.end(), &mut spans);
        }
    }
    if let Some(plate) = PLATE.as_ref() {
        for m in plate.find_iter(text) {
            let followed_by_alnum = text[m.end()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric());
            let serial = m.as_str().chars().skip(2);
            if !followed_by_alnum && serial.clone().any(|c| c.is_ascii_digit()) {
                spans.push((m.start(), m.end(), FlagKind::LicensePlate));
            }
        }
    }
    spans
}

/// Flags the digit run at `start..end` as a whole or, when that is nothing
/// and the run has several groups, each group alone.
fn number_spans(text: &str, start: usize, end: usize, spans: &mut Vec<(usize, usize, FlagKind)>) {
    let run = &text[start..end];
    // An `X` right after the run may close a resident ID number, unless a
    // word goes on after it.
    let mut after = text[end..].chars();
    let closing_x = matches!(
        (after.next(), after.next()),
        (Some('X' | 'x'), next) if !next.is_some_and(|c| c.is_ascii_alphanumeric())
    );
    let mut flag = |offset: usize, part: &str, at_end: bool| {
        let digits: String = part
            .chars()
            .filter_map(|c| c.to_digit(10).or_else(|| fullwidth_digit(c)))
            .filter_map(|d| char::from_digit(d, 10))
            .collect();
        let with_x = at_end && closing_x && digits.len() == 17;
        let kind = if with_x {
            Some(FlagKind::IdNumber)
        } else {
            classify(&digits)
        };
        if let Some(kind) = kind {
            spans.push((offset, offset + part.len() + usize::from(with_x), kind));
        }
        kind.is_some()
    };
    if flag(start, run, true) || !run.contains([' ', '-']) {
        return;
    }
    let mut offset = start;
    let groups: Vec<&str> = run.split([' ', '-']).collect();
    for (i, group) in groups.iter().enumerate() {
        flag(offset, group, i + 1 == groups.len());
        offset += group.len() + 1;
    }
}

/// The value of a full-width digit `０`..`９`.
fn fullwidth_digit(c: char) -> Option<u32> {
    ('０'..='９').contains(&c).then(|| c as u32 - '０' as u32)
}

/// What a run of ASCII `digits` looks like, if anything.
fn classify(digits: &str) -> Option<FlagKind> {
    let is_phone = |d: &str| {
        let b = d.as_bytes();
        b.len() == 11 && b[0] == b'1' && (b'3'..=b'9').contains(&b[1])
    };
    match digits.len() {
        11 if is_phone(digits) => Some(FlagKind::PhoneNumber),
        13 if digits.starts_with("86") && is_phone(&digits[2..]) => Some(FlagKind::PhoneNumber),
        18 if looks_like_birth_date(&digits[6..14]) => Some(FlagKind::IdNumber),
        16..=19 => Some(FlagKind::BankCard),
        _ => None,
    }
}

/// `yyyymmdd` with a year 19xx or 20xx, a month 01–12 and a day 01–31.
fn looks_like_birth_date(d: &str) -> bool {
    let number = |range: std::ops::Range<usize>| d.get(range).and_then(|s| s.parse::<u32>().ok());
    matches!(
        (number(0..4), number(4..6), number(6..8)),
        (Some(1900..=2099), Some(1..=12), Some(1..=31))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(FlagKind, &str)> {
        personal_data(text)
            .into_iter()
            .map(|(s, e, k)| (k, &text[s..e]))
            .collect()
    }

    #[test]
    fn phone_numbers() {
        assert_eq!(
            kinds("联系电话13812345678。"),
            [(FlagKind::PhoneNumber, "13812345678")]
        );
        assert_eq!(
            kinds("手机138-1234-5678或+86 139 1234 5678"),
            [
                (FlagKind::PhoneNumber, "138-1234-5678"),
                (FlagKind::PhoneNumber, "86 139 1234 5678")
            ]
        );
        assert_eq!(
            kinds("电话１３８１２３４５６７８"),
            [(FlagKind::PhoneNumber, "１３８１２３４５６７８")]
        );
        // 12 digits, or a second digit below 3: not a mobile number.
        assert!(kinds("编号138123456789").is_empty());
        assert!(kinds("编号12812345678").is_empty());
        // A phone followed by a year still flags the phone alone.
        assert_eq!(
            kinds("打13812345678 2021年"),
            [(FlagKind::PhoneNumber, "13812345678")]
        );
    }

    #[test]
    fn id_and_bank_card_numbers() {
        assert_eq!(
            kinds("身份证号11010519491231002X，"),
            [(FlagKind::IdNumber, "11010519491231002X")]
        );
        assert_eq!(
            kinds("身份证440106199003071234"),
            [(FlagKind::IdNumber, "440106199003071234")]
        );
        // 18 digits without a birth date read as a bank card.
        assert_eq!(
            kinds("卡号622202123456789012"),
            [(FlagKind::BankCard, "622202123456789012")]
        );
        assert_eq!(
            kinds("卡号6222 0212 3456 7890 123转账"),
            [(FlagKind::BankCard, "6222 0212 3456 7890 123")]
        );
        // An X that starts a word is not part of the number.
        assert_eq!(
            kinds("卡号6222021234567890Xbox"),
            [(FlagKind::BankCard, "6222021234567890")]
        );
        assert!(kinds("金额200000元，日期2021-05-12").is_empty());
        assert!(kinds("（2021）粤0106民初1234号").is_empty());
    }

    #[test]
    fn licence_plates() {
        assert_eq!(
            kinds("车牌粤B12345的车"),
            [(FlagKind::LicensePlate, "粤B12345")]
        );
        assert_eq!(
            kinds("沪AD12345和京A·1234X"),
            [
                (FlagKind::LicensePlate, "沪AD12345"),
                (FlagKind::LicensePlate, "京A·1234X")
            ]
        );
        // Too long, redacted, or no digit at all.
        assert!(kinds("粤B1234567").is_empty());
        assert!(kinds("粤B***45").is_empty());
        assert!(kinds("新HELLO世界").is_empty());
    }

    #[test]
    fn offsets_count_characters() {
        let text = "ａ😀13812345678";
        let (start, end, _) = personal_data(text)[0];
        assert_eq!((char_offset(text, start), char_offset(text, end)), (2, 13));
    }
}
