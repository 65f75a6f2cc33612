//! Names that people and files give to things the workbench shows and links
//! to: model, judge and user-model names in run headers, case ids, account and
//! endpoint names. One rule for all of them, so that a name is always safe to
//! put in a page, a URL, a file name or a CSV cell once escaped, and never so
//! long that a page or a log drowns in it.
//!
//! A name is at least one non-blank character and at most [`MAX_NAME_CHARS`]
//! characters (Unicode scalar values, so Chinese names get the same length as
//! Latin ones), and holds no control character (NUL, tab, newline, the C1
//! controls). Anything else (spaces inside, punctuation, `<` and `>`) is
//! allowed: names are escaped where they are shown, never trusted as markup.
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
    if let Some((at, c)) = name.chars().enumerate().find(|(_, c)| c.is_control()) {
        return Err(format!(
            "holds the control character U+{:04X} at character {}; names are printable text",
            u32::from(c),
            at + 1
        ));
    }
    Ok(())
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

    proptest! {
        #[test]
        fn every_accepted_name_is_short_printable_and_not_blank(name in "\\PC{0,250}|[\\x00-\\x20a]{0,5}") {
            if check_name(&name).is_ok() {
                prop_assert!(!name.trim().is_empty());
                prop_assert!(name.chars().count() <= MAX_NAME_CHARS);
                prop_assert!(!name.chars().any(char::is_control));
            }
        }
    }
}
