//! Names that people and files give to things the workbench shows and links
//! to: model, judge and user-model names in run headers, case ids, account and
//! endpoint names. One rule for all of them, so that a name is always safe to
//! put in a page, a URL, a file name or a CSV cell once escaped, and never so
//! long that a page or a log drowns in it.
//!
//! A name is at least one non-blank character and at most [`MAX_NAME_CHARS`]
//! characters (Unicode scalar values, so Chinese names get the same length as
//! Latin ones), and holds no control character (NUL, tab, newline, the C1
//! controls) and no bidirectional control (the embeddings, overrides and
//! isolates U+202A–U+202E and U+2066–U+2069, which make a name read in
//! another order than it is stored: "Model\u{202E}B-1" shows as "Model1-B").
//! Anything else (spaces inside, punctuation, `<` and `>`) is allowed: names
//! are escaped where they are shown, never trusted as markup.
//!
//! # Examples
//!
//! ```
//! use engine::names::check_name;
//!
//! assert_eq!(check_name("通义千问 Qwen2.5-72B (中文)"), Ok(()));
//! assert!(check_name("").is_err());
//! assert!(check_name("model\u{0}").unwrap_err().contains("control character"));
//! assert!(check_name(&"m".repeat(201)).unwrap_err().contains("at most 200"));
//! assert!(check_name("Qwen\u{202E}B27").unwrap_err().contains("bidirectional"));
//! ```

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 200;

/// Checks `name` against the rule of the [module documentation](self); the
/// error says what is wrong, for a message that also names the field.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("must not be empty".into());
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(format!(
            "is {chars} characters long; a name has at most {MAX_NAME_CHARS}"
        ));
    }
    if let Some((at, c)) = name.chars().enumerate().find(|(_, c)| is_bidi_control(*c)) {
        return Err(format!(
            "holds the bidirectional control U+{:04X} at character {}, which makes a name \
             read in another order than it is stored; remove it",
            u32::from(c),
            at + 1
        ));
    }
    if let Some((at, c)) = name.chars().enumerate().find(|(_, c)| c.is_control()) {
        return Err(format!(
            "holds the control character U+{:04X} at character {}; names are printable text",
            u32::from(c),
            at + 1
        ));
    }
    Ok(())
}

/// Checks a case or item id: a name ([`check_name`]) that is also one
/// segment of a page address (`/cases/{id}`, `/plawbench/items/{id}`,
/// `/dlawbench/cases/{id}`), so without `/` (or `\`, which browsers read
/// as `/` in an address).
///
/// # Examples
///
/// ```
/// use engine::names::check_id;
/// assert_eq!(check_id("LP-0001"), Ok(()));
/// assert!(check_id("LP/0001").unwrap_err().contains("\"/\" at character 3"));
/// ```
pub fn check_id(id: &str) -> Result<(), String> {
    check_name(id)?;
    if let Some((at, c)) = id
        .chars()
        .enumerate()
        .find(|(_, c)| matches!(c, '/' | '\\'))
    {
        return Err(format!(
            "holds \"{c}\" at character {}; an id is one part of a page address (such as \
             /cases/ID), so it cannot contain / or \\",
            at + 1
        ));
    }
    Ok(())
}

/// The bidirectional embeddings and overrides (U+202A–U+202E) and isolates
/// (U+2066–U+2069).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_limit_counts_characters_not_bytes() {
        assert_eq!(check_name(&"法".repeat(MAX_NAME_CHARS)), Ok(()));
        assert!(check_name(&"法".repeat(MAX_NAME_CHARS + 1)).is_err());
    }

    #[test]
    fn blank_and_control_characters_are_refused() {
        for bad in ["", "   ", "a\tb", "a\nb", "a\u{7f}", "a\u{85}b", "\u{0}"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert_eq!(check_name("</title><script>x</script>"), Ok(()));
    }

    #[test]
    fn bidirectional_controls_are_refused_with_their_code_point() {
        for c in ('\u{202A}'..='\u{202E}').chain('\u{2066}'..='\u{2069}') {
            let message = check_name(&format!("Model{c}B")).expect_err("refused");
            assert!(
                message.contains(&format!("U+{:04X} at character 6", u32::from(c))),
                "{message}"
            );
        }
        // Marks that only hint a direction stay: U+200E, U+200F, U+061C.
        assert_eq!(check_name("a\u{200E}b"), Ok(()));
    }

    proptest! {
        #[test]
        fn every_accepted_name_is_short_printable_and_not_blank(name in "\\PC{0,250}|[\\x00-\\x20a]{0,5}") {
            if check_name(&name).is_ok() {
                prop_assert!(!name.trim().is_empty());
                prop_assert!(name.chars().count() <= MAX_NAME_CHARS);
                prop_assert!(!name.chars().any(char::is_control));
                prop_assert!(!name.chars().any(is_bidi_control));
            }
        }
    }
}
