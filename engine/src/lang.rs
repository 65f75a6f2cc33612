//! The language pages are shown in: Chinese or English, one at a time.
//!
//! A visitor's language is, in order: the one asked for in the URL
//! (`?lang=en`), the one chosen with the switch (the `lang` cookie), the
//! first of Chinese and English the browser lists in `Accept-Language`, and
//! otherwise the page's own default ([`negotiate`]). Dataset content is
//! shown as written; what the workbench itself says, its numbers, dates and
//! plurals follow the language.

use std::fmt::Write as _;

/// A page language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    Zh,
    En,
}

/// The name of the cookie that keeps the visitor's choice.
pub const COOKIE: &str = "lang";

impl Lang {
    /// The Chinese or the English text, by the language.
    ///
    /// ```
    /// use engine::lang::Lang;
    /// assert_eq!(Lang::En.t("概览", "Overview"), "Overview");
    /// assert_eq!(Lang::Zh.t("概览", "Overview"), "概览");
    /// ```
    pub fn t(self, zh: &'static str, en: &'static str) -> &'static str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }

    /// The language's code as the cookie and the `lang` query keep it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    /// The `lang` attribute of a page in this language.
    pub fn html(self) -> &'static str {
        match self {
            Lang::Zh => "zh-CN",
            Lang::En => "en",
        }
    }

    /// The other language.
    pub fn other(self) -> Lang {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }

    /// The language's name in itself, as the switch offers it.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Zh => "中文",
            Lang::En => "English",
        }
    }

    /// A language tag (`zh`, `zh-CN`, `zh-Hans`, `en`, `en-GB`, any case)
    /// as one of ours; `None` for any other language.
    ///
    /// ```
    /// use engine::lang::Lang;
    /// assert_eq!(Lang::parse("zh-TW"), Some(Lang::Zh));
    /// assert_eq!(Lang::parse("EN"), Some(Lang::En));
    /// assert_eq!(Lang::parse("fr"), None);
    /// assert_eq!(Lang::parse("english"), None);
    /// ```
    pub fn parse(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next().unwrap_or("");
        if primary.eq_ignore_ascii_case("zh") {
            Some(Lang::Zh)
        } else if primary.eq_ignore_ascii_case("en") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// `n` with its noun: English picks the singular or the plural, Chinese
    /// has one form and its measure word is in `zh`.
    ///
    /// ```
    /// use engine::lang::Lang;
    /// assert_eq!(Lang::En.count(1, "个案例", "case", "cases"), "1 case");
    /// assert_eq!(Lang::En.count(1234, "个案例", "case", "cases"), "1,234 cases");
    /// assert_eq!(Lang::Zh.count(2, "个案例", "case", "cases"), "2 个案例");
    /// ```
    pub fn count(self, n: u64, zh: &str, one: &str, many: &str) -> String {
        let number = self.number(n);
        match self {
            Lang::Zh => format!("{number} {zh}"),
            Lang::En if n == 1 => format!("{number} {one}"),
            Lang::En => format!("{number} {many}"),
        }
    }

    /// A whole number with its thousands grouped as the language writes it
    /// (both group by three with a comma).
    ///
    /// ```
    /// use engine::lang::Lang;
    /// assert_eq!(Lang::Zh.number(1234567), "1,234,567");
    /// assert_eq!(Lang::En.number(999), "999");
    /// ```
    pub fn number(self, n: u64) -> String {
        let digits = n.to_string();
        let mut out = String::with_capacity(digits.len() + digits.len() / 3);
        for (i, d) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(d);
        }
        out
    }

    /// A moment stored as RFC 3339 or `YYYY-MM-DD HH:MM:SS` (UTC), written
    /// to the minute as the language writes dates; anything else is returned
    /// as it is.
    ///
    /// ```
    /// use engine::lang::Lang;
    /// assert_eq!(Lang::Zh.date_time("2026-12-04T18:05:09Z"), "2026年12月4日 18:05 UTC");
    /// assert_eq!(Lang::En.date_time("2026-12-04 18:05:09"), "4 Dec 2026, 18:05 UTC");
    /// assert_eq!(Lang::En.date_time("yesterday"), "yesterday");
    /// ```
    pub fn date_time(self, stored: &str) -> String {
        let Some((y, mo, d, h, mi)) = split_date_time(stored) else {
            return stored.to_owned();
        };
        let mut out = String::new();
        match self {
            Lang::Zh => {
                let _ = write!(out, "{y}年{mo}月{d}日 {h:02}:{mi:02} UTC");
            }
            Lang::En => {
                const MONTHS: [&str; 12] = [
                    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                    "Dec",
                ];
                let month = MONTHS[(mo - 1) as usize];
                let _ = write!(out, "{d} {month} {y}, {h:02}:{mi:02} UTC");
            }
        }
        out
    }
}

/// Year, month, day, hour and minute of `YYYY-MM-DD[T ]HH:MM…`.
fn split_date_time(s: &str) -> Option<(u32, u32, u32, u32, u32)> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<u32> {
        let part = s.get(from..from + len)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    if b.len() < 16
        || b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b' ')
        || b[13] != b':'
    {
        return None;
    }
    let (y, mo, d, h, mi) = (num(0, 4)?, num(5, 2)?, num(8, 2)?, num(11, 2)?, num(14, 2)?);
    ((1..=12).contains(&mo) && (1..=31).contains(&d) && h < 24 && mi < 60)
        .then_some((y, mo, d, h, mi))
}

/// The visitor's language (see the module docs): `asked` (the URL's
/// `lang`), then `chosen` (the cookie), then the first of ours in
/// `accept_language` by preference (`q`, then order; `q=0` refuses), then
/// `fallback`.
///
/// ```
/// use engine::lang::{negotiate, Lang};
/// let browser = Some("fr-FR,fr;q=0.9,zh-CN;q=0.8,en;q=0.7");
/// assert_eq!(negotiate(None, None, browser, Lang::En), Lang::Zh);
/// assert_eq!(negotiate(None, Some("en"), browser, Lang::Zh), Lang::En);
/// assert_eq!(negotiate(Some("zh"), Some("en"), browser, Lang::En), Lang::Zh);
/// assert_eq!(negotiate(None, Some("klingon"), None, Lang::Zh), Lang::Zh);
/// assert_eq!(negotiate(None, None, Some("en;q=0.5, zh;q=0.9"), Lang::En), Lang::Zh);
/// assert_eq!(negotiate(None, None, Some("zh;q=0, en"), Lang::Zh), Lang::En);
/// ```
pub fn negotiate(
    asked: Option<&str>,
    chosen: Option<&str>,
    accept_language: Option<&str>,
    fallback: Lang,
) -> Lang {
    asked
        .and_then(Lang::parse)
        .or_else(|| chosen.and_then(Lang::parse))
        .or_else(|| accept_language.and_then(preferred))
        .unwrap_or(fallback)
}

/// The first of ours among an `Accept-Language` header's ranges, by `q`
/// (highest first) and then by order.
fn preferred(header: &str) -> Option<Lang> {
    let mut best: Option<(f32, Lang)> = None;
    for range in header.split(',') {
        let mut parts = range.split(';');
        let Some(lang) = Lang::parse(parts.next().unwrap_or("")) else {
            continue;
        };
        let q = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())
            .filter(|q| q.is_finite() && *q > 0.0);
        if let Some(q) = q {
            if best.is_none_or(|(b, _)| q > b) {
                best = Some((q, lang));
            }
        }
    }
    best.map(|(_, lang)| lang)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn browsers_headers() {
        let zh = "zh-CN,zh;q=0.9,en;q=0.8,en-GB;q=0.7,en-US;q=0.6";
        assert_eq!(preferred(zh), Some(Lang::Zh));
        assert_eq!(preferred("en-US,en;q=0.9"), Some(Lang::En));
        assert_eq!(preferred("de-DE,de;q=0.9"), None);
        assert_eq!(preferred(""), None);
        assert_eq!(preferred("*"), None);
        assert_eq!(preferred("zh;q=abc, en;q=0.1"), Some(Lang::En));
    }

    #[test]
    fn dates_keep_what_they_cannot_read() {
        for odd in [
            "2026-13-01 00:00",
            "2026-12-04",
            "２０２６-12-04 18:00",
            "2026-12-04 25:00",
        ] {
            assert_eq!(Lang::Zh.date_time(odd), odd);
        }
    }

    proptest! {
        #[test]
        fn any_header_gives_a_language(header in ".{0,80}", cookie in ".{0,8}") {
            // Never panics; the fallback holds when nothing is ours.
            let lang = negotiate(None, Some(&cookie), Some(&header), Lang::Zh);
            if Lang::parse(&cookie).is_none() && preferred(&header).is_none() {
                prop_assert_eq!(lang, Lang::Zh);
            }
        }

        #[test]
        fn numbers_read_back(n in any::<u64>()) {
            prop_assert_eq!(Lang::En.number(n).replace(',', "").parse::<u64>().ok(), Some(n));
        }
    }
}
