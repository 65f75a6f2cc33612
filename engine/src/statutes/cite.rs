//! Finding article references in text: 《民法典》第一千一百八十三条,
//! 民法典第1183条第一款, 第一百二十条之一, with or without 款 and 项.
//!
//! [`mentions`] knows no statutes: it finds every `第…条` and what stands
//! right before it (a title in 《》, or the run of Chinese characters that may
//! end in a law's name). [`crate::statutes::StatuteIndex::cite`] decides which
//! law each one names.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use super::numerals;

/// One `第…条` found in a text, with what precedes it. Offsets are byte
/// offsets into the text, always on character boundaries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mention {
    /// Where `第` starts.
    pub start: usize,
    /// Just past the last part (条, 之N, 款 or 项).
    pub end: usize,
    pub article: Article,
    /// What stands right before `第`.
    pub before: Before,
}

/// An article reference: article number, the N of `之N` (0 when absent),
/// and the paragraph (款) and item (项) when given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Article {
    pub number: u32,
    pub sub: u32,
    pub paragraph: Option<u32>,
    pub item: Option<u32>,
}

/// What precedes a mention.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Before {
    /// A title in 《》 directly before `第` (spaces allowed); `start` is the
    /// offset of 《.
    Title { name: String, start: usize },
    /// The run of Chinese characters directly before `第` (possibly empty),
    /// starting at byte `start`: 根据民法典 in 根据民法典第1183条.
    Run { text: String, start: usize },
}

const NUMERAL: &str = r"[0-9０-９]+|[零〇一二两三四五六七八九十百千万]+";

static ARTICLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"第\s*({NUMERAL})\s*条(?:之\s*({NUMERAL}))?(?:第\s*({NUMERAL})\s*款)?(?:第\s*({NUMERAL})\s*项)?"
    ))
    .expect("the article pattern is valid")
});

/// The longest run of Chinese characters looked at before a mention: longer
/// than any law's short name, short enough to stay in the sentence.
const MAX_RUN: usize = 40;

/// Every article mention in `text`, in order.
///
/// # Examples
/// ```
/// use engine::statutes::cite::{mentions, Before};
/// let found = mentions("依照《民法典》第一千一百八十三条第一款、第1179条");
/// assert_eq!(found.len(), 2);
/// assert_eq!(found[0].article.number, 1183);
/// assert_eq!(found[0].article.paragraph, Some(1));
/// assert!(matches!(&found[0].before, Before::Title { name, .. } if name == "民法典"));
/// assert_eq!(found[1].article.number, 1179);
/// ```
pub fn mentions(text: &str) -> Vec<Mention> {
    ARTICLE
        .captures_iter(text)
        .filter_map(|caps| {
            let whole = caps.get(0)?;
            let number = numerals::parse(caps.get(1)?.as_str())?;
            let part = |i: usize| caps.get(i).and_then(|m| numerals::parse(m.as_str()));
            if number == 0 {
                return None;
            }
            Some(Mention {
                start: whole.start(),
                end: whole.end(),
                article: Article {
                    number,
                    sub: part(2).unwrap_or(0),
                    paragraph: part(3),
                    item: part(4),
                },
                before: before(text, whole.start()),
            })
        })
        .collect()
}

fn before(text: &str, at: usize) -> Before {
    let head = text[..at].trim_end();
    if let Some(inner) = head.strip_suffix('》') {
        if let Some(open) = inner.rfind('《') {
            let name = &inner[open + '《'.len_utf8()..];
            if !name.is_empty() && name.chars().count() <= 80 && !name.contains('《') {
                return Before::Title {
                    name: name.trim().to_owned(),
                    start: open,
                };
            }
        }
    }
    let mut start = at;
    for (count, (i, c)) in text[..at].char_indices().rev().enumerate() {
        if count >= MAX_RUN || !is_han(c) {
            break;
        }
        start = i;
    }
    Before::Run {
        text: text[start..at].to_owned(),
        start,
    }
}

/// A CJK ideograph (the unified block and extension A), the characters law
/// names are written in.
fn is_han(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}')
}

impl Article {
    /// The reference as Chinese law prints it: 第一千一百八十三条第一款.
    ///
    /// ```
    /// use engine::statutes::cite::Article;
    /// let a = Article { number: 120, sub: 1, paragraph: Some(2), item: None };
    /// assert_eq!(a.label(), "第一百二十条之一第二款");
    /// ```
    pub fn label(&self) -> String {
        let mut out = format!("第{}条", numerals::write(self.number));
        if self.sub > 0 {
            out.push_str(&format!("之{}", numerals::write(self.sub)));
        }
        if let Some(p) = self.paragraph {
            out.push_str(&format!("第{}款", numerals::write(p)));
        }
        if let Some(i) = self.item {
            out.push_str(&format!("第{}项", numerals::write(i)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Mention {
        let mut found = mentions(text);
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        found.remove(0)
    }

    #[test]
    fn both_numeral_styles_and_every_part() {
        let a = one("《中华人民共和国民法典》第一千一百八十三条");
        assert_eq!(a.article.number, 1183);
        assert_eq!(
            a.before,
            Before::Title {
                name: "中华人民共和国民法典".into(),
                start: 0
            }
        );
        let b = one("民法典第1183条第2款第（三）项");
        assert_eq!(b.article.number, 1183);
        assert_eq!(b.article.paragraph, Some(2));
        // （三）项 is not the 第N项 form: the mention ends at 款.
        assert_eq!(b.article.item, None);
        assert_eq!(
            &"民法典第1183条第2款第（三）项"[b.start..b.end],
            "第1183条第2款"
        );
        let c = one("刑法第一百二十条之一第一款第二项");
        assert_eq!(
            c.article,
            Article {
                number: 120,
                sub: 1,
                paragraph: Some(1),
                item: Some(2)
            }
        );
        let d = one("《民法典》 第 1165 条");
        assert_eq!(d.article.number, 1165);
        assert!(matches!(d.before, Before::Title { .. }));
        let e = one("第１１８３条");
        assert_eq!(e.article.number, 1183);
    }

    #[test]
    fn the_run_before_a_bare_mention_is_kept_for_the_resolver() {
        let text = "我认为根据民法典第577条，对方应当赔偿";
        let m = one(text);
        let Before::Run { text: run, start } = &m.before else {
            panic!("{m:?}")
        };
        assert_eq!(run, "我认为根据民法典");
        assert_eq!(*start, 0);
        // Punctuation ends the run.
        let m = one("双方签了合同，第八条写着违约金");
        assert_eq!(
            m.before,
            Before::Run {
                text: String::new(),
                start: "双方签了合同，".len()
            }
        );
    }

    #[test]
    fn not_an_article() {
        assert!(mentions("第三人").is_empty());
        assert!(mentions("第0条").is_empty());
        assert!(mentions("第一次开庭").is_empty());
        assert!(mentions("条").is_empty());
    }

    #[test]
    fn offsets_are_character_boundaries_in_chinese_text() {
        let text = "甲：《民法典》第一千零七十九条规定，乙：第1087条";
        for m in mentions(text) {
            assert!(text.is_char_boundary(m.start) && text.is_char_boundary(m.end));
            assert!(text[m.start..m.end].starts_with('第'));
            assert!(text[m.start..m.end].ends_with('条'));
        }
    }
}
