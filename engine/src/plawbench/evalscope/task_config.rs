//! The few keys of evalscope's `configs/task_config.yaml` the import needs
//! (§B6.1, §B6.5): `model`, `repeats`, `judge.aggregation`,
//! `judge.models[].model_id` and `generation_config`.
//!
//! The file is a `yaml.dump` of the TaskConfig: block mappings and
//! sequences, plain or quoted scalars, `{}` and `[]`. [`read_block_yaml`]
//! reads that subset of YAML into a [`serde_json::Value`] (no anchors, tags,
//! multi-document streams or flow collections with content, which such a
//! dump does not contain); anything else is an error naming its line. A
//! well-kept YAML crate would read more, but this is all the import reads.

use serde_json::{Map, Number, Value};

use crate::core::panel::Aggregation;

/// What the import takes from `task_config.yaml`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TaskConfig {
    /// `model`, when it is a string.
    pub model: Option<String>,
    /// `repeats` (generations per sample), when given.
    pub repeats: Option<u32>,
    /// `judge.aggregation`, when given.
    pub aggregation: Option<Aggregation>,
    /// `judge.models[].model_id`, in order.
    pub judge_models: Vec<String>,
    /// `generation_config`, when it is a mapping.
    pub generation: Option<Map<String, Value>>,
}

/// Reads the keys of [`TaskConfig`] from the text of `task_config.yaml`.
///
/// ```
/// use engine::plawbench::evalscope::task_config::read_task_config;
/// use engine::core::panel::Aggregation;
///
/// let config = read_task_config("model: qwen-plus\nrepeats: 2\njudge:\n  strategy: llm\n  aggregation: median\n  models:\n  - model_id: qwen3-max\n    judge_id: qwen3-max\ngeneration_config:\n  temperature: 0.0\n  max_tokens: 8192\n").unwrap();
/// assert_eq!(config.judge_models, ["qwen3-max"]);
/// assert_eq!((config.repeats, config.aggregation), (Some(2), Some(Aggregation::Median)));
/// assert_eq!(config.generation.unwrap()["max_tokens"], 8192);
/// ```
pub fn read_task_config(text: &str) -> Result<TaskConfig, String> {
    let root = read_block_yaml(text)?;
    let judge = root.get("judge");
    let aggregation = match judge.and_then(|j| j.get("aggregation")) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(Aggregation::parse(s).ok_or_else(|| {
            format!("judge.aggregation: unknown aggregation \"{s}\"; expected mean or median")
        })?),
        Some(other) => return Err(format!("judge.aggregation: expected a string, got {other}")),
    };
    let judge_models = judge
        .and_then(|j| j.get("models"))
        .and_then(Value::as_array)
        .map(|models| {
            models
                .iter()
                .filter_map(|m| m.get("model_id").and_then(Value::as_str).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let repeats = match root.get("repeats") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("repeats: expected a whole number ≥ 1, got {v}"))?,
        ),
    };
    Ok(TaskConfig {
        model: root.get("model").and_then(Value::as_str).map(str::to_owned),
        repeats,
        aggregation,
        judge_models,
        generation: root
            .get("generation_config")
            .and_then(Value::as_object)
            .cloned(),
    })
}

/// One non-blank, non-comment line: its 1-based number, indentation and text.
struct Line<'a> {
    number: usize,
    indent: usize,
    text: &'a str,
}

/// Reads block-style YAML (see the [module documentation](self)).
///
/// ```
/// use engine::plawbench::evalscope::task_config::read_block_yaml;
///
/// let v = read_block_yaml("a: 1\nb:\n- x: 'it''s'\n  y: [ ]\n- ~\nc: \"q\\n\"\n").unwrap();
/// assert_eq!(v, serde_json::json!({"a": 1, "b": [{"x": "it's", "y": []}, null], "c": "q\n"}));
/// assert!(read_block_yaml("a: 1\n  b: 2\n").is_err());
/// ```
pub fn read_block_yaml(text: &str) -> Result<Value, String> {
    let lines: Vec<Line> = text
        .lines()
        .enumerate()
        .filter_map(|(i, raw)| {
            let content = strip_comment(raw);
            let trimmed = content.trim_end();
            let text = trimmed.trim_start();
            (!text.is_empty() && text != "---" && text != "...").then(|| Line {
                number: i + 1,
                indent: trimmed.len() - text.len(),
                text,
            })
        })
        .collect();
    if lines.is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    let mut pos = 0;
    let value = block(&lines, &mut pos, lines[0].indent)?;
    match lines.get(pos) {
        Some(line) => Err(format!("line {}: unexpected indentation", line.number)),
        None => Ok(value),
    }
}

/// The line without a comment (`#` at its start or after a space, outside quotes).
fn strip_comment(line: &str) -> &str {
    let (mut single, mut double) = (false, false);
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single && previous != '\\' => double = !double,
            '#' if !single && !double && previous.is_whitespace() => return &line[..i],
            _ => {}
        }
        previous = c;
    }
    line
}

/// The block (a mapping or a sequence) whose lines start at `indent`.
fn block(lines: &[Line], pos: &mut usize, indent: usize) -> Result<Value, String> {
    let first = &lines[*pos];
    if first.text == "-" || first.text.starts_with("- ") {
        sequence(lines, pos, indent)
    } else {
        mapping(lines, pos, indent, None)
    }
}

fn sequence(lines: &[Line], pos: &mut usize, indent: usize) -> Result<Value, String> {
    let mut items = Vec::new();
    while let Some(line) = lines.get(*pos) {
        if line.indent != indent || !(line.text == "-" || line.text.starts_with("- ")) {
            break;
        }
        let rest = line.text[1..].trim_start();
        *pos += 1;
        if rest.is_empty() {
            items.push(nested(lines, pos, indent)?);
        } else if split_key(rest).is_some() {
            // "- key: value": a mapping whose keys sit two columns in.
            let column = indent + (line.text.len() - rest.len());
            items.push(mapping(lines, pos, column, Some((line.number, rest)))?);
        } else {
            items.push(scalar(rest, line.number)?);
        }
    }
    Ok(Value::Array(items))
}

/// The value of a key or item with nothing after it: a deeper block, a
/// sequence at the same column (YAML allows `key:` then `- item`), or null.
fn nested(lines: &[Line], pos: &mut usize, indent: usize) -> Result<Value, String> {
    match lines.get(*pos) {
        Some(next) if next.indent > indent => block(lines, pos, next.indent),
        Some(next)
            if next.indent == indent && (next.text == "-" || next.text.starts_with("- ")) =>
        {
            sequence(lines, pos, indent)
        }
        _ => Ok(Value::Null),
    }
}

fn mapping(
    lines: &[Line],
    pos: &mut usize,
    indent: usize,
    mut first: Option<(usize, &str)>,
) -> Result<Value, String> {
    let mut map = Map::new();
    loop {
        let (number, text) = match first.take() {
            Some(inline) => inline,
            None => match lines.get(*pos) {
                Some(line) if line.indent == indent && !line.text.starts_with("- ") => {
                    *pos += 1;
                    (line.number, line.text)
                }
                _ => break,
            },
        };
        let (key, rest) =
            split_key(text).ok_or_else(|| format!("line {number}: expected \"key: value\""))?;
        let value = if rest.is_empty() {
            nested(lines, pos, indent)?
        } else if rest == "|" || rest == ">" || rest.starts_with("|-") || rest.starts_with(">-") {
            block_scalar(lines, pos, indent, rest.starts_with('>'))
        } else {
            scalar(rest, number)?
        };
        map.insert(unquote(key, number)?, value);
    }
    Ok(Value::Object(map))
}

/// A `|` or `>` scalar: the deeper lines that follow, joined.
fn block_scalar(lines: &[Line], pos: &mut usize, indent: usize, folded: bool) -> Value {
    let mut parts = Vec::new();
    while let Some(line) = lines.get(*pos).filter(|l| l.indent > indent) {
        parts.push(line.text);
        *pos += 1;
    }
    Value::String(parts.join(if folded { " " } else { "\n" }))
}

/// `key: rest` split at the first `: ` (or a final `:`) outside quotes.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let (mut single, mut double) = (false, false);
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            ':' if !single && !double => {
                let next = bytes.get(i + 1);
                if next.is_none() || next == Some(&b' ') {
                    return Some((text[..i].trim(), text[i + 1..].trim()));
                }
            }
            _ => {}
        }
    }
    None
}

fn unquote(key: &str, line: usize) -> Result<String, String> {
    match scalar(key, line)? {
        Value::String(s) => Ok(s),
        other => Ok(other.to_string()),
    }
}

/// A plain or quoted scalar, `{}` or `[]`.
fn scalar(text: &str, line: usize) -> Result<Value, String> {
    let text = text.trim();
    if let Some(inner) = text.strip_prefix('\'') {
        let inner = inner
            .strip_suffix('\'')
            .ok_or_else(|| format!("line {line}: unterminated quoted string"))?;
        return Ok(Value::String(inner.replace("''", "'")));
    }
    if text.starts_with('"') {
        return serde_json::from_str::<String>(text)
            .map(Value::String)
            .map_err(|e| format!("line {line}: bad double-quoted string: {e}"));
    }
    if let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        if inner.trim().is_empty() {
            return Ok(Value::Object(Map::new()));
        }
        return Err(format!(
            "line {line}: flow mappings with content are not read"
        ));
    }
    if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        if inner.trim().is_empty() {
            return Ok(Value::Array(Vec::new()));
        }
        return inner
            .split(',')
            .map(|part| scalar(part, line))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    Ok(match text {
        "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        _ => {
            if let Ok(n) = text.parse::<i64>() {
                Value::Number(n.into())
            } else if let Some(n) = text
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && text.contains(['.', 'e', 'E']))
                .and_then(Number::from_f64)
            {
                Value::Number(n)
            } else {
                Value::String(text.to_owned())
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_config_dump_reads() {
        let text = "\
api_key: EMPTY
datasets:
- plawbench
eval_type: openai_api
generation_config:
  max_tokens: 16384
  temperature: 0.0
  stop: []
judge:
  aggregation: mean
  models:
  - api_url: http://127.0.0.1:8000/v1  # a comment
    judge_id: gpt-4.1
    model_id: gpt-4.1
  - judge_id: qwen3-max
    model_id: 'qwen3-max'
  repeats: 1
  strategy: llm
model: qwen-plus
repeats: 1
work_dir: ./outputs
";
        let config = read_task_config(text).unwrap();
        assert_eq!(config.judge_models, ["gpt-4.1", "qwen3-max"]);
        assert_eq!(config.model.as_deref(), Some("qwen-plus"));
        assert_eq!(config.aggregation, Some(Aggregation::Mean));
        let generation = config.generation.unwrap();
        assert_eq!(generation["temperature"], 0.0);
        assert_eq!(generation["stop"], Value::Array(Vec::new()));
    }

    #[test]
    fn bad_values_are_named() {
        assert!(read_task_config("judge:\n  aggregation: max\n")
            .unwrap_err()
            .contains("judge.aggregation"));
        assert!(read_task_config("repeats: 0\n")
            .unwrap_err()
            .contains("repeats"));
        assert!(read_block_yaml("a: 'x\n").unwrap_err().contains("line 1"));
    }
}
