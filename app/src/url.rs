//! Building URLs for links: query components are percent-encoded here, the
//! same way on the server and in the browser.

/// Percent-encodes a query component (UTF-8; unreserved characters kept).
///
/// ```
/// assert_eq!(app::url::encode("离婚 a&b"), "%E7%A6%BB%E5%A9%9A%20a%26b");
/// ```
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The page of the LexPilot case `case_id`.
///
/// ```
/// assert_eq!(app::url::case("A 1<b>"), "/cases/A%201%3Cb%3E");
/// ```
pub fn case(case_id: &str) -> String {
    format!("/cases/{}", encode(case_id))
}

/// The correction form of the LexPilot case `case_id` (admins).
pub fn case_edit(case_id: &str) -> String {
    format!("/cases/{}/edit", encode(case_id))
}
