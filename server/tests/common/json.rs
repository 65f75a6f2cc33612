//! Comparing JSON documents and reading the event stream.

use std::time::Duration;

use axum::body::Body;
use http_body_util::BodyExt;
use serde_json::Value;

/// Asserts the same keys and lengths, numbers within `tolerance`, everything
/// else equal; `path` names where a difference is.
pub fn assert_close(actual: &Value, expected: &Value, path: &str, tolerance: f64) {
    match (actual, expected) {
        (Value::Number(a), Value::Number(e)) => {
            let (a, e) = (
                a.as_f64().unwrap_or(f64::NAN),
                e.as_f64().unwrap_or(f64::NAN),
            );
            assert!((a - e).abs() <= tolerance, "{path}: {a} != {e}");
        }
        (Value::Object(a), Value::Object(e)) => {
            let keys = |m: &serde_json::Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
            assert_eq!(keys(a), keys(e), "{path}: keys");
            for (k, v) in e {
                assert_close(&a[k], v, &format!("{path}.{k}"), tolerance);
            }
        }
        (Value::Array(a), Value::Array(e)) => {
            assert_eq!(a.len(), e.len(), "{path}: length");
            for (i, (x, y)) in a.iter().zip(e).enumerate() {
                assert_close(x, y, &format!("{path}[{i}]"), tolerance);
            }
        }
        _ => assert_eq!(actual, expected, "{path}"),
    }
}

/// Reads the event stream until an event named `name` arrives (waiting up to
/// `within` for each frame); its data line.
pub async fn next_event(body: &mut Body, name: &str, within: Duration) -> String {
    let mut text = String::new();
    loop {
        let frame = tokio::time::timeout(within, body.frame())
            .await
            .unwrap_or_else(|_| panic!("no {name:?} event within {within:?}; got {text:?}"))
            .expect("the stream is open")
            .expect("a frame");
        if let Ok(data) = frame.into_data() {
            text.push_str(&String::from_utf8_lossy(&data));
        }
        if let Some(at) = text.find(&format!("event: {name}\n")) {
            let rest = &text[at..];
            if let Some(end) = rest.find("\n\n") {
                return rest[..end]
                    .lines()
                    .find_map(|l| l.strip_prefix("data: "))
                    .unwrap_or_default()
                    .to_owned();
            }
        }
    }
}
