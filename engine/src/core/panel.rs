//! What a judge panel's benchmarks share (PLawBench's and DLawBench's run
//! files and leaderboards; DLawBench borrows them from PLawBench's rules):
//!
//! - [`JudgeSeat`]: one judge of the panel as a run header names it.
//! - [`Aggregation`] and [`aggregate`]: how the panel's values of one item
//!   metric are combined (mean, or Python's `statistics.median`).
//! - `push_line`: one line of a run file as the workbench writes it, `kind`
//!   first.
//! - `settings_of`: what tells apart the leaderboard entries of one model
//!   (judges, parse mode, aggregation, attempts, …).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::entry::EntryKey;
use crate::vocab::vocabulary;

vocabulary! {
    /// How a panel's judges are combined per item metric (PLawBench §B4.2).
    Aggregation, kind "judge aggregation" {
        /// The arithmetic mean (evalscope's default).
        Mean = "mean", zh "平均", en "Mean";
        /// Python's `statistics.median` (the median of two is their mean).
        Median = "median", zh "中位数", en "Median";
    }
}

/// One judge of the panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgeSeat {
    /// The judge model; unique in the panel.
    pub model: String,
    /// Its vendor, when the header names it (the server derives it otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<String>,
}

/// Combines the available judges' values of one metric (PLawBench §B4.2):
/// their mean, or Python's `statistics.median` (the mean of the two middle
/// values for an even count). `None` for no value.
///
/// ```
/// use engine::core::panel::{aggregate, Aggregation};
/// assert_eq!(aggregate(&[0.2, 0.9, 0.4], Aggregation::Median), Some(0.4));
/// assert_eq!(aggregate(&[0.2, 0.4], Aggregation::Median), Some(0.30000000000000004));
/// assert_eq!(aggregate(&[0.25, 0.75], Aggregation::Mean), Some(0.5));
/// assert_eq!(aggregate(&[], Aggregation::Mean), None);
/// ```
pub fn aggregate(values: &[f64], aggregation: Aggregation) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    match aggregation {
        Aggregation::Mean => Some(values.iter().sum::<f64>() / values.len() as f64),
        Aggregation::Median => {
            let mut sorted = values.to_vec();
            sorted.sort_by(f64::total_cmp);
            let mid = sorted.len() / 2;
            Some(if sorted.len() % 2 == 1 {
                sorted[mid]
            } else {
                (sorted[mid - 1] + sorted[mid]) / 2.0
            })
        }
    }
}

/// Appends one line: `kind` first, then the serde form of `value`.
pub(crate) fn push_line(out: &mut String, kind: &str, value: &impl Serialize) {
    let mut text = format!("{{\"kind\":\"{kind}\"");
    // Headers and items are structs of strings, numbers and string-keyed
    // maps, which always serialise to a JSON object.
    if let Ok(body) = serde_json::to_string(value) {
        if body.len() > 2 {
            text.push(',');
            text.push_str(&body[1..body.len() - 1]);
        }
    }
    text.push_str("}\n");
    out.push_str(&text);
}

/// The entry key's fields: `family`, `dataset`, `judge` and `user_model`
/// when set, and every extra field.
fn key_fields(key: &EntryKey) -> BTreeMap<String, Value> {
    let mut fields: BTreeMap<String, Value> = key
        .extra
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let named = [
        ("family", key.family.map(|f| f.as_str().to_owned())),
        ("dataset", key.dataset.clone()),
        ("judge", key.judge.clone()),
        ("user_model", key.user_model.clone()),
    ];
    for (name, value) in named {
        if let Some(value) = value {
            fields.insert(name.to_owned(), Value::String(value));
        }
    }
    fields
}

/// The fields a setting names first, with the short name it shows them by;
/// the others follow alphabetically under their own names.
const SETTING_FIELDS: [(&str, &str); 10] = [
    ("judges", "judges"),
    ("judge_parse", "parse"),
    ("judge_aggregation", "aggregation"),
    ("judge_attempts", "attempts"),
    ("source", "source"),
    ("evalscope_version", "evalscope"),
    ("generation", "generation"),
    ("dataset", "dataset"),
    ("family", "family"),
    ("model_family", "model_family"),
];

fn setting_rank(field: &str) -> (usize, &str) {
    let rank = SETTING_FIELDS
        .iter()
        .position(|(f, _)| *f == field)
        .unwrap_or(SETTING_FIELDS.len());
    (rank, field)
}

fn setting_name(field: &str) -> &str {
    SETTING_FIELDS
        .iter()
        .find(|(f, _)| *f == field)
        .map_or(field, |(_, name)| name)
}

/// A field's value for people: a string as it is, a judge panel as its
/// models joined by ` + `, `none` when absent, other values as JSON.
pub(crate) fn describe(value: Option<&Value>) -> String {
    match value {
        None => "none".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(seats)) if !seats.is_empty() => {
            let models: Option<Vec<&str>> = seats
                .iter()
                .map(|seat| seat.get("model")?.as_str())
                .collect();
            models.map_or_else(
                || Value::Array(seats.clone()).to_string(),
                |m| m.join(" + "),
            )
        }
        Some(other) => other.to_string(),
    }
}

/// For each entry key, what tells it apart from the other entries of the
/// same model: `name: value` for every entry key field whose value differs
/// between them, joined by `; ` (judges, parse mode, aggregation and
/// attempts first, by short names). Values are shown for people (a panel
/// as its judge models); when that would show two entries of a model alike,
/// that model's settings show the values as JSON. `None` for a model with
/// one entry (and for entries whose keys are equal). The settings column of
/// the PLawBench and DLawBench leaderboards (`plawbench::leaderboard::settings`
/// has an example).
pub(crate) fn settings_of(keys: &[&EntryKey]) -> Vec<Option<String>> {
    let fields: Vec<BTreeMap<String, Value>> = keys.iter().map(|k| key_fields(k)).collect();
    let mut by_model: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, key) in keys.iter().enumerate() {
        by_model.entry(key.model.as_str()).or_default().push(i);
    }
    let mut out = vec![None; keys.len()];
    for group in by_model.values().filter(|g| g.len() > 1) {
        let names: BTreeSet<&str> = group
            .iter()
            .flat_map(|&i| fields[i].keys().map(String::as_str))
            .collect();
        let mut differing: Vec<&str> = names
            .into_iter()
            .filter(|name| {
                let first = fields[group[0]].get(*name);
                group.iter().any(|&i| fields[i].get(*name) != first)
            })
            .collect();
        if differing.is_empty() {
            continue;
        }
        differing.sort_by_key(|f| setting_rank(f));
        let render = |i: usize, show: &dyn Fn(Option<&Value>) -> String| {
            differing
                .iter()
                .map(|f| format!("{}: {}", setting_name(f), show(fields[i].get(*f))))
                .collect::<Vec<_>>()
                .join("; ")
        };
        let mut texts: Vec<String> = group.iter().map(|&i| render(i, &describe)).collect();
        let distinct: BTreeSet<&String> = texts.iter().collect();
        if distinct.len() < texts.len() {
            let json = |v: Option<&Value>| v.map_or_else(|| "none".to_owned(), Value::to_string);
            texts = group.iter().map(|&i| render(i, &json)).collect();
        }
        for (&i, text) in group.iter().zip(texts) {
            out[i] = Some(text);
        }
    }
    out
}
