//! JSON values that keep what serde_json's [`Value`] forgets, and Python's
//! `json.dumps(value, ensure_ascii=False, indent=2)` of them.
//!
//! PLawBench's judge prompt embeds a `case_analysis` item's rubric sections
//! re-serialised by Python (§B2.2), so the workbench must keep them exactly as
//! released: key order and the JSON type of every value (`"points": "5"`
//! stays a string). [`OrderedJson`] is such a value: objects are lists of
//! members in document order, numbers keep serde_json's integer or float
//! form. It (de)serialises through serde like any value, with no crate
//! feature switched on (serde_json's `preserve_order` would change the key
//! order of every map in the workspace).
//!
//! [`python_dumps`] writes what Python writes: 2-space indentation, one array
//! element or object member per line, `,` at line ends, `": "` between key and
//! value, `[]` and `{}` for empty containers, non-ASCII raw, `"`, `\` and
//! control characters escaped as `json` escapes them, integers as digits and
//! floats as `repr(float)` (`5.0`, `1e-05`, `1e+16`).
//!
//! Depends on serde and serde_json only.

use std::fmt::{self, Write as _};

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Number, Value};

/// A JSON value that keeps the order of object members and the form of
/// numbers (see the [module documentation](self)).
///
/// # Examples
///
/// ```
/// use engine::plawbench::json::OrderedJson;
///
/// let v: OrderedJson = serde_json::from_str(r#"{"z": 1, "a": "5"}"#).unwrap();
/// assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"z":1,"a":"5"}"#);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum OrderedJson {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, integer or float as written.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<OrderedJson>),
    /// An object's members in document order. A key given twice keeps its
    /// first place and its last value, as Python's `json.loads` does.
    Object(Vec<(String, OrderedJson)>),
}

impl OrderedJson {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&OrderedJson> {
        match self {
            OrderedJson::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The same value as a serde_json [`Value`] (whose objects sort their keys),
    /// for structural comparison.
    pub fn to_value(&self) -> Value {
        match self {
            OrderedJson::Null => Value::Null,
            OrderedJson::Bool(b) => Value::Bool(*b),
            OrderedJson::Number(n) => Value::Number(n.clone()),
            OrderedJson::String(s) => Value::String(s.clone()),
            OrderedJson::Array(items) => Value::Array(items.iter().map(Self::to_value).collect()),
            OrderedJson::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_value()))
                    .collect(),
            ),
        }
    }
}

impl Serialize for OrderedJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            OrderedJson::Null => serializer.serialize_unit(),
            OrderedJson::Bool(b) => serializer.serialize_bool(*b),
            OrderedJson::Number(n) => n.serialize(serializer),
            OrderedJson::String(s) => serializer.serialize_str(s),
            OrderedJson::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            OrderedJson::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for OrderedJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(OrderedVisitor)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = OrderedJson;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<OrderedJson, E> {
        Ok(OrderedJson::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<OrderedJson, E> {
        Ok(OrderedJson::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<OrderedJson, E> {
        Ok(OrderedJson::Number(n.into()))
    }

    fn visit_f64<E: de::Error>(self, x: f64) -> Result<OrderedJson, E> {
        Number::from_f64(x)
            .map(OrderedJson::Number)
            .ok_or_else(|| E::custom("a number that is not finite"))
    }

    fn visit_str<E>(self, s: &str) -> Result<OrderedJson, E> {
        Ok(OrderedJson::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<OrderedJson, E> {
        Ok(OrderedJson::String(s))
    }

    fn visit_unit<E>(self) -> Result<OrderedJson, E> {
        Ok(OrderedJson::Null)
    }

    fn visit_none<E>(self) -> Result<OrderedJson, E> {
        Ok(OrderedJson::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<OrderedJson, D::Error> {
        OrderedJson::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<OrderedJson, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(OrderedJson::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OrderedJson, A::Error> {
        let mut members: Vec<(String, OrderedJson)> = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, OrderedJson>()? {
            match members.iter_mut().find(|(k, _)| *k == key) {
                Some((_, slot)) => *slot = value,
                None => members.push((key, value)),
            }
        }
        Ok(OrderedJson::Object(members))
    }
}

/// Python's `json.dumps(value, ensure_ascii=False, indent=2)` of `value`, byte
/// for byte (see the [module documentation](self)).
///
/// # Examples
///
/// ```
/// use engine::plawbench::json::{python_dumps, OrderedJson};
///
/// let v: OrderedJson =
///     serde_json::from_str(r#"[{"criterion": "【结论得分】\n(+5分)", "points": "5", "tags": "结论得分"}, {"x": 0.5, "y": []}]"#)
///         .unwrap();
/// assert_eq!(
///     python_dumps(&v),
///     "[\n  {\n    \"criterion\": \"【结论得分】\\n(+5分)\",\n    \"points\": \"5\",\n    \"tags\": \"结论得分\"\n  },\n  {\n    \"x\": 0.5,\n    \"y\": []\n  }\n]"
/// );
/// ```
pub fn python_dumps(value: &OrderedJson) -> String {
    let mut out = String::new();
    dump(value, 0, &mut out);
    out
}

fn indent(level: usize, out: &mut String) {
    out.push('\n');
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn dump(value: &OrderedJson, level: usize, out: &mut String) {
    match value {
        OrderedJson::Null => out.push_str("null"),
        OrderedJson::Bool(true) => out.push_str("true"),
        OrderedJson::Bool(false) => out.push_str("false"),
        OrderedJson::Number(n) => out.push_str(&python_number(n)),
        OrderedJson::String(s) => python_string(s, out),
        OrderedJson::Array(items) if items.is_empty() => out.push_str("[]"),
        OrderedJson::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(level + 1, out);
                dump(item, level + 1, out);
            }
            indent(level, out);
            out.push(']');
        }
        OrderedJson::Object(members) if members.is_empty() => out.push_str("{}"),
        OrderedJson::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(level + 1, out);
                python_string(key, out);
                out.push_str(": ");
                dump(item, level + 1, out);
            }
            indent(level, out);
            out.push('}');
        }
    }
}

/// A string as `json.dumps(..., ensure_ascii=False)` writes it: `"` and `\`
/// escaped, `\b \f \n \r \t` by name, other characters below U+0020 as
/// `\u00xx` (lower-case hex), everything else raw.
fn python_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// An integer as its digits, a float as Python's `repr(float)`.
fn python_number(n: &Number) -> String {
    if n.is_u64() || n.is_i64() {
        return n.to_string();
    }
    n.as_f64().map_or_else(|| n.to_string(), python_float_repr)
}

/// Python's `repr(x)` of a finite float: the shortest digits that read back
/// as `x`, written positionally with at least one decimal (`5.0`, `0.0001`)
/// when the decimal exponent `e` (x = 0.d₁d₂… × 10ᵉ) is in -3..=16, and
/// otherwise as `d.ddde±XX` with at least two exponent digits (`1e-05`,
/// `1.5e+16`), as CPython's `float_repr_style = 'short'`.
///
/// ```
/// # use engine::plawbench::json::python_float_repr;
/// assert_eq!(python_float_repr(5.0), "5.0");
/// assert_eq!(python_float_repr(1e-5), "1e-05");
/// assert_eq!(python_float_repr(1e16), "1e+16");
/// assert_eq!(python_float_repr(1e15), "1000000000000000.0");
/// assert_eq!(python_float_repr(-0.0001), "-0.0001");
/// assert_eq!(python_float_repr(123.456), "123.456");
/// ```
pub fn python_float_repr(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_owned();
    }
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN".to_owned()
        } else if x > 0.0 {
            "Infinity".to_owned()
        } else {
            "-Infinity".to_owned()
        };
    }
    // Rust's `{:e}` writes the shortest round-trip digits: "-1.5e-5".
    let sci = format!("{:e}", x.abs());
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let decpt = exponent + 1;
    let sign = if x < 0.0 { "-" } else { "" };
    let body = if (-3..=16).contains(&decpt) {
        let n = digits.len() as i32;
        if decpt <= 0 {
            format!("0.{}{digits}", "0".repeat((-decpt) as usize))
        } else if decpt >= n {
            format!("{digits}{}.0", "0".repeat((decpt - n) as usize))
        } else {
            let (int, frac) = digits.split_at(decpt as usize);
            format!("{int}.{frac}")
        }
    } else {
        let (first, rest) = digits.split_at(1);
        let mantissa = if rest.is_empty() {
            first.to_owned()
        } else {
            format!("{first}.{rest}")
        };
        let sign_e = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign_e}{:02}", exponent.abs())
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_keep_the_first_place_and_the_last_value() {
        let v: OrderedJson = serde_json::from_str(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"a":3,"b":2}"#);
    }

    #[test]
    fn control_characters_are_escaped_as_python_does() {
        let v = OrderedJson::String("a\u{1}b\u{7f}\"\\\t".into());
        assert_eq!(python_dumps(&v), "\"a\\u0001b\u{7f}\\\"\\\\\\t\"");
    }

    #[test]
    fn floats_follow_python_repr() {
        for (x, repr) in [
            (0.1, "0.1"),
            (100.0, "100.0"),
            (2.5e-7, "2.5e-07"),
            (1.0e22, "1e+22"),
            (12345678901234567.0, "1.2345678901234568e+16"),
            (0.001, "0.001"),
        ] {
            assert_eq!(python_float_repr(x), repr, "{x}");
        }
    }
}
