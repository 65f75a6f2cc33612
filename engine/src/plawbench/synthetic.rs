//! Synthetic PLawBench files at the official scale (250 + 18 + 6 + 6 items),
//! for benchmarks, property tests and load tests: a dataset file, run files
//! and an evalscope output [`Folder`], deterministic (seeded) and valid under
//! the real parsers. Nothing here is benchmark data to publish: the text is
//! placeholder Chinese marked 虚构 (fictional).
//!
//! ```
//! use engine::plawbench::dataset::parse_dataset;
//! use engine::plawbench::evalscope::{import_folder, ImportOptions};
//! use engine::plawbench::run::parse_run;
//! use engine::plawbench::synthetic::{dataset_file, evalscope_folder, run_file, OFFICIAL_SIZES};
//!
//! let dataset = parse_dataset(&dataset_file(&OFFICIAL_SIZES, 1)).unwrap();
//! assert_eq!(dataset.len(), 280);
//! let run = parse_run(&run_file(&dataset, "M", 1, 2, 7), &dataset).unwrap();
//! assert_eq!(run.items.len(), 280);
//! let imported = import_folder(&evalscope_folder(&dataset, "m", 3), &dataset, &ImportOptions::default()).unwrap();
//! assert!(imported.reconciliation.ok());
//! ```

use std::collections::BTreeMap;
use std::num::NonZeroU64;

use serde_json::{json, Map, Value};

use super::dataset::{Item, Section, Task, CATEGORIES};
use super::evalscope::{evalscope_overall, evalscope_round, Folder, SubsetFiles};
use super::judge::render_model_prompt;
use crate::metrics::Xoshiro256StarStar;

/// The official release's items per task (§B1).
pub const OFFICIAL_SIZES: [(Task, usize); 4] = [
    (Task::CaseAnalysis, 250),
    (Task::LegalConsultation, 18),
    (Task::PlaintiffStatement, 6),
    (Task::DefendantStatement, 6),
];

fn below(rng: &mut Xoshiro256StarStar, n: u64) -> u64 {
    NonZeroU64::new(n).map_or(0, |n| rng.below(n))
}

fn unit(rng: &mut Xoshiro256StarStar) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

fn push_line(out: &mut String, value: &Value) {
    out.push_str(&value.to_string());
    out.push('\n');
}

/// A dataset file with `sizes` items per task; `case_analysis` items have
/// the four sections (5–10 / 10–25 / 20–40 / 5–20 points, points as
/// strings), the other tasks a text rubric of 2–6 marks.
pub fn dataset_file(sizes: &[(Task, usize)], seed: u64) -> String {
    let mut rng = Xoshiro256StarStar::seed_from_u64(seed);
    let mut out = String::new();
    for &(task, n) in sizes {
        for k in 1..=n {
            let id = format!("{task}-{k}");
            let line = if task == Task::CaseAnalysis {
                let ranges = [(5, 10), (10, 25), (20, 40), (5, 20)];
                let sections: Vec<Value> = Section::ALL
                    .iter()
                    .zip(ranges)
                    .map(|(s, (lo, hi))| {
                        let points = lo + below(&mut rng, hi - lo + 1);
                        json!({
                            "criterion": format!("【{}】\n(+{points}分) 虚构要点。", s.tag()),
                            "points": points.to_string(),
                            "tags": s.tag(),
                        })
                    })
                    .collect();
                let total: u64 = sections
                    .iter()
                    .filter_map(|s| s["points"].as_str()?.parse::<u64>().ok())
                    .sum();
                json!({
                    "item_id": id,
                    "task": task,
                    "category": CATEGORIES[below(&mut rng, CATEGORIES.len() as u64) as usize],
                    "context": format!("（虚构案例 {k}）某甲与某乙发生纠纷。"),
                    "question": "以【结论 + 案情简述 + 分析过程+依据法条】的逻辑回答：某甲的主张能否成立？",
                    "sections": sections,
                    "max_points": total,
                })
            } else {
                let marks: Vec<u64> = (0..2 + below(&mut rng, 5))
                    .map(|_| 1 + below(&mut rng, 5))
                    .collect();
                let total: u64 = marks.iter().sum();
                let rubric: Vec<String> = marks
                    .iter()
                    .enumerate()
                    .map(|(i, m)| format!("{}.(+{m} 分) 虚构评分点{}", i + 1, i + 1))
                    .collect();
                json!({
                    "item_id": id,
                    "task": task,
                    "context": "",
                    "question": format!("（虚构）当事人陈述 {k}。"),
                    "rubric": format!("总分：{total}分\n{}", rubric.join("\n")),
                    "max_points": total,
                })
            };
            push_line(&mut out, &line);
        }
    }
    out
}

/// Raw points a judge of quality `q` awards: usually within the maximum,
/// sometimes a little outside it (clamped when scored).
fn raw_points(rng: &mut Xoshiro256StarStar, max: f64, q: f64) -> f64 {
    let x = (q + 0.4 * (unit(rng) - 0.5)) * 1.2 - 0.1;
    (x * max * 2.0).round() / 2.0
}

/// A run file of `model` over every item of `dataset`, judged by a panel of
/// `judges` (median when there are three or more); about 2% of judge seats
/// and 1% of items unavailable, 5% of drafting answers truncated.
pub fn run_file(dataset: &[Item], model: &str, run: u32, judges: usize, seed: u64) -> String {
    let mut rng = Xoshiro256StarStar::seed_from_u64(seed ^ (u64::from(run) << 32));
    let quality = 0.3 + 0.5 * unit(&mut rng);
    let panel: Vec<String> = (1..=judges.max(1)).map(|j| format!("judge-{j}")).collect();
    let mut out = String::new();
    push_line(
        &mut out,
        &json!({
            "kind": "run", "benchmark": "plawbench", "model": model, "run": run,
            "family": "open", "dataset": "plawbench-synthetic",
            "judges": panel.iter().map(|j| json!({"model": j})).collect::<Vec<_>>(),
            "judge_aggregation": if panel.len() >= 3 { "median" } else { "mean" },
            "judge_parse": "lenient", "judge_attempts": 1, "source": "workbench",
        }),
    );
    for item in dataset {
        let drafting = matches!(
            item.task,
            Task::PlaintiffStatement | Task::DefendantStatement
        );
        let mut line = json!({
            "kind": "rubric", "item_id": item.item_id, "task": item.task,
            "response": format!("（虚构回答）{}", item.item_id),
            "finish_reason": if drafting && unit(&mut rng) < 0.05 { "length" } else { "stop" },
        });
        if unit(&mut rng) < 0.01 {
            line["unavailable"] = Value::from("model call failed");
            push_line(&mut out, &line);
            continue;
        }
        let max = item.section_max();
        let judgements: Vec<Value> = panel
            .iter()
            .map(|judge| {
                if unit(&mut rng) < 0.02 {
                    return json!({"judge": judge, "unavailable": "parse_error: reply is not valid JSON"});
                }
                let awarded = if max.is_empty() {
                    Value::from(raw_points(&mut rng, f64::from(item.max_points), quality))
                } else {
                    let sections: Map<String, Value> = max
                        .iter()
                        .map(|(s, &m)| (s.as_str().to_owned(), Value::from(raw_points(&mut rng, m, quality))))
                        .collect();
                    Value::Object(sections)
                };
                json!({"judge": judge, "awarded": awarded})
            })
            .collect();
        line["judgements"] = Value::Array(judgements);
        push_line(&mut out, &line);
    }
    out
}

/// One model's evalscope output over `dataset` in the shape of evalscope
/// 1.14.1 (§B6): one judge, one generation, every review `success` but about
/// 2% `parse_error`, and a schema-v2 report whose subset scores are the
/// reviews' means rounded to 4 decimals and whose metric and category
/// scores are evalscope's `OVERALL` of them ([`evalscope_overall`]).
pub fn evalscope_folder(dataset: &[Item], model_id: &str, seed: u64) -> Folder {
    let mut rng = Xoshiro256StarStar::seed_from_u64(seed);
    let quality = 0.3 + 0.5 * unit(&mut rng);
    let mut subsets: BTreeMap<Task, (String, String, usize)> = BTreeMap::new();
    let mut values: BTreeMap<(Task, &str), Vec<f64>> = BTreeMap::new();
    for item in dataset {
        let (predictions, reviews, index) = subsets.entry(item.task).or_default();
        let answer = format!("（虚构回答）{}", item.item_id);
        let rubrics = match item.released_sections() {
            Some(sections) => serde_json::to_string(&sections).unwrap_or_default(),
            None => item.rubric.clone().unwrap_or_default(),
        };
        let metadata = json!({
            "id": item.item_id, "task": item.task, "judge_type": item.judge_type(),
            "category": item.category.clone().unwrap_or_default(), "rubrics": rubrics,
            "max_points": item.max_points, "prompt": render_model_prompt(item),
        });
        push_line(
            predictions,
            &json!({
                "index": index, "model": model_id,
                "model_output": {"choices": [{"message": {"role": "assistant", "content": answer}, "stop_reason": "stop"}]},
                "metadata": metadata,
            }),
        );
        let max = item.section_max();
        let failed = unit(&mut rng) < 0.02;
        let (value, score_metadata) = if failed {
            (json!({}), json!({}))
        } else if max.is_empty() {
            let m = f64::from(item.max_points);
            let points = raw_points(&mut rng, m, quality).clamp(0.0, m);
            (
                json!({"acc": points / m}),
                json!({"awarded_points": points, "max_points": m, "judge_reported_max_points": m}),
            )
        } else {
            let clamped: BTreeMap<Section, f64> = max
                .iter()
                .map(|(&s, &m)| (s, raw_points(&mut rng, m, quality).clamp(0.0, m)))
                .collect();
            let total: f64 = clamped.values().sum();
            let out_of: f64 = max.values().sum();
            let mut value = Map::new();
            value.insert("acc".into(), Value::from(total / out_of));
            for (s, p) in &clamped {
                value.insert(s.metric().into(), Value::from(p / max[s]));
            }
            let sections: Map<String, Value> = clamped
                .iter()
                .map(|(s, p)| {
                    (
                        s.judge_key().to_owned(),
                        json!({"awarded_points": p, "max_points": max[s]}),
                    )
                })
                .collect();
            (
                Value::Object(value),
                json!({"awarded_points": total, "max_points": out_of, "sections": sections}),
            )
        };
        if let Value::Object(v) = &value {
            for (k, x) in v {
                let name = match k.as_str() {
                    "acc" => "acc",
                    other => Section::ALL
                        .into_iter()
                        .map(Section::metric)
                        .find(|m| *m == other)
                        .unwrap_or("acc"),
                };
                values
                    .entry((item.task, name))
                    .or_default()
                    .push(x.as_f64().unwrap_or(0.0));
            }
        }
        let mut score_metadata = score_metadata;
        score_metadata["judge_attempts"] = json!([{
            "status": if failed { "parse_error" } else { "success" }, "judge_id": "qwen3-max",
            "raw_response": "```json\n{}\n```",
        }]);
        push_line(
            reviews,
            &json!({
                "index": index,
                "sample_score": {
                    "sample_id": index, "group_id": index, "generation_index": 0,
                    "sample_metadata": metadata,
                    "score": {
                        "value": value, "status": if failed { "parse_error" } else { "success" },
                        "prediction": answer, "metadata": score_metadata,
                        "judge_summary": {"judge_models": ["qwen3-max"], "error": if failed { Value::from("invalid JSON") } else { Value::Null }},
                    },
                },
            }),
        );
        *index += 1;
    }
    let metric_entry = |name: &str, identity: &str| {
        let means: Vec<(Task, f64, usize)> = subsets
            .keys()
            .filter_map(|&task| {
                let v = values.get(&(task, name))?;
                Some((task, v.iter().sum::<f64>() / v.len() as f64, v.len()))
            })
            .collect();
        let rows: Vec<Value> = means
            .iter()
            .map(|&(task, mean, num)| {
                json!({"name": task, "score": evalscope_round(mean), "num": num})
            })
            .collect();
        let num: usize = means.iter().map(|m| m.2).sum();
        let overall = evalscope_overall(means.iter().map(|&(_, mean, num)| (mean, num)));
        json!({"identity": {"name": identity, "aggregation": "mean", "dimensions": {}},
               "num": num, "score": overall,
               "categories": [{"name": ["default"], "num": num, "score": overall, "subsets": rows}]})
    };
    let mut metrics = vec![metric_entry("acc", "accuracy")];
    metrics.extend(Section::ALL.map(|s| metric_entry(s.metric(), s.metric())));
    let report = json!({"schema_version": 2, "model_name": model_id, "dataset_name": "plawbench", "metrics": metrics});
    Folder {
        model_id: model_id.to_owned(),
        timestamp: Some("20261201_100000".into()),
        task_config: Some(format!(
            "judge:\n  aggregation: mean\n  models:\n  - model_id: qwen3-max\nmodel: {model_id}\nrepeats: 1\n"
        )),
        report: Some(report.to_string()),
        subsets: subsets
            .into_iter()
            .map(|(task, (predictions, reviews, _))| SubsetFiles {
                task,
                predictions: Some(predictions),
                reviews,
            })
            .collect(),
    }
}
