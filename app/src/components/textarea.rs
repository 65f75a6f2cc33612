//! What goes between `<textarea>` and `</textarea>`.
//!
//! Leptos's server renderer writes a textarea's children unescaped (as it
//! does a `<script>`'s), so stored text holding `</textarea>` would close
//! the element and the rest would become live markup. [`content`] escapes
//! it on the server; the browser's parser decodes the entities again, so
//! the field shows the stored text and a form posted without JavaScript
//! sends it back unchanged. In the browser a child is a text node, text
//! already, and hydration finds the same text the parser made.

/// The content of a `<textarea>` holding `value`, as the server writes it:
/// `&`, `<` and `>` escaped, and a leading line break doubled (the HTML
/// parser drops one line break right after `<textarea>`).
///
/// ```
/// # #[cfg(feature = "ssr")] {
/// use app::components::textarea::content;
///
/// assert_eq!(content("</textarea><b>x</b>"), "&lt;/textarea&gt;&lt;b&gt;x&lt;/b&gt;");
/// assert_eq!(content("\nline"), "\n\nline");
/// # }
/// ```
#[cfg(feature = "ssr")]
pub fn content(value: &str) -> String {
    let escaped = html_escape::encode_text(value);
    if escaped.starts_with('\n') {
        format!("\n{escaped}")
    } else {
        escaped.into_owned()
    }
}

/// In the browser: `value` itself (a text node is text).
#[cfg(not(feature = "ssr"))]
pub fn content(value: &str) -> String {
    value.to_owned()
}
