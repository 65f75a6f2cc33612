//! Article numbers as Chinese law writes them: Chinese numerals
//! (一千一百八十三) or Arabic digits, half- or full-width (1183, １１８３).

/// The value of a number written in Chinese numerals or in digits; `None`
/// for anything else (an empty string, mixed scripts, a stray character, a
/// value past `u32`).
///
/// Chinese numerals are read the positional way: a digit (零〇一二两…九)
/// waits for its unit (十 百 千), 万 closes a group of four, and a leading 十
/// means one ten (十五 is 15). 零 only marks a skipped place (一百零五 is 105).
///
/// # Examples
/// ```
/// use engine::statutes::numerals::parse;
/// assert_eq!(parse("一千一百八十三"), Some(1183));
/// assert_eq!(parse("十五"), Some(15));
/// assert_eq!(parse("一百零五"), Some(105));
/// assert_eq!(parse("1183"), Some(1183));
/// assert_eq!(parse("１１８３"), Some(1183));
/// assert_eq!(parse("十1"), None);
/// ```
pub fn parse(text: &str) -> Option<u32> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if text
        .chars()
        .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c))
    {
        return text.chars().try_fold(0u32, |acc, c| {
            let d = if c.is_ascii_digit() {
                c as u32 - '0' as u32
            } else {
                c as u32 - '０' as u32
            };
            acc.checked_mul(10)?.checked_add(d)
        });
    }
    let mut total: u32 = 0;
    let mut section: u32 = 0;
    let mut digit: Option<u32> = None;
    for c in text.chars() {
        if let Some(d) = digit_value(c) {
            digit = Some(d);
            continue;
        }
        let unit = match c {
            '十' => 10,
            '百' => 100,
            '千' => 1000,
            '万' => {
                let group = section.checked_add(digit.take().unwrap_or(0))?;
                if group == 0 {
                    return None;
                }
                total = total.checked_add(group.checked_mul(10_000)?)?;
                section = 0;
                continue;
            }
            _ => return None,
        };
        // 十 alone (十, 十五, 一百十) is one ten; other units need a digit.
        let d = match digit.take() {
            Some(d) => d,
            None if unit == 10 => 1,
            None => return None,
        };
        section = section.checked_add(d.checked_mul(unit)?)?;
    }
    total.checked_add(section)?.checked_add(digit.unwrap_or(0))
}

fn digit_value(c: char) -> Option<u32> {
    Some(match c {
        '零' | '〇' => 0,
        '一' => 1,
        '二' | '两' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

/// `n` in Chinese numerals, as article numbers are printed (1183 is
/// 一千一百八十三, 10 is 十, 110 is 一百一十, 1005 is 一千零五); 0 is 零.
///
/// # Examples
/// ```
/// use engine::statutes::numerals::{parse, write};
/// assert_eq!(write(1183), "一千一百八十三");
/// assert_eq!(write(110), "一百一十");
/// assert_eq!(parse(&write(1260)), Some(1260));
/// ```
pub fn write(n: u32) -> String {
    const DIGITS: [char; 10] = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    if n == 0 {
        return "零".to_owned();
    }
    fn group(n: u32, leading: bool) -> String {
        // Below 10,000: 千 百 十 and the ones, with one 零 for each run of
        // skipped places between written ones.
        let places = [(1000, '千'), (100, '百'), (10, '十'), (1, ' ')];
        let mut out = String::new();
        let mut gap = false;
        let mut started = false;
        for (value, unit) in places {
            let d = (n / value) % 10;
            if d == 0 {
                gap = started;
                continue;
            }
            if gap || (!started && !leading && value < 1000) {
                out.push('零');
            }
            gap = false;
            // 十 at the very start is written without 一 (十五, not 一十五).
            if !(value == 10 && d == 1 && !started && leading) {
                out.push(DIGITS[d as usize]);
            }
            if unit != ' ' {
                out.push(unit);
            }
            started = true;
        }
        out
    }
    let high = n / 10_000;
    let low = n % 10_000;
    let mut out = String::new();
    if high > 0 {
        out.push_str(&write(high));
        out.push('万');
        if low > 0 {
            out.push_str(&group(low, false));
        }
    } else {
        out.push_str(&group(low, true));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_the_forms_articles_are_written_in() {
        for (text, n) in [
            ("一", 1),
            ("十", 10),
            ("十九", 19),
            ("二十", 20),
            ("一百", 100),
            ("一百一十", 110),
            ("一百十", 110),
            ("一百零五", 105),
            ("二百二十", 220),
            ("五百七十七", 577),
            ("一千零七十九", 1079),
            ("一千二百六十", 1260),
            ("两千", 2000),
            ("〇", 0),
            ("一万零一", 10_001),
            ("0577", 577),
        ] {
            assert_eq!(parse(text), Some(n), "{text}");
        }
    }

    #[test]
    fn refuses_what_is_not_a_number() {
        for text in ["", "条", "百", "一百a", "1一", "万", "千五"] {
            assert_eq!(parse(text), None, "{text}");
        }
    }

    #[test]
    fn writes_the_printed_forms() {
        for (n, text) in [
            (1, "一"),
            (10, "十"),
            (15, "十五"),
            (20, "二十"),
            (105, "一百零五"),
            (110, "一百一十"),
            (577, "五百七十七"),
            (1005, "一千零五"),
            (1079, "一千零七十九"),
            (1183, "一千一百八十三"),
            (1260, "一千二百六十"),
            (10_001, "一万零一"),
        ] {
            assert_eq!(write(n), text, "{n}");
        }
    }

    proptest! {
        #[test]
        fn writing_then_reading_gives_the_number_back(n in 0u32..100_000_000) {
            prop_assert_eq!(parse(&write(n)), Some(n));
        }

        #[test]
        fn digits_read_as_their_value(n in 0u32..u32::MAX) {
            prop_assert_eq!(parse(&n.to_string()), Some(n));
        }
    }
}
