//! Synthetic dataset and run files at LexPilot's scale, for benchmarks and
//! load tests: deterministic (seeded), valid under the real parsers, with
//! labels drawn so that better models are right more often. Nothing here is
//! benchmark data to publish: the text is placeholder Chinese.

use std::num::NonZeroU64;

use serde_json::{json, Value};

use crate::lexpilot::dataset::Case;
use crate::metrics::Xoshiro256StarStar;
use crate::vocab::{Consultation, LjpSetup, Verdict, CAUSES};

/// A uniform draw from `0..n`.
fn below(rng: &mut Xoshiro256StarStar, n: u64) -> usize {
    NonZeroU64::new(n).map_or(0, |n| usize::try_from(rng.below(n)).unwrap_or(0))
}

/// `true` with probability `p`.
fn chance(rng: &mut Xoshiro256StarStar, p: f64) -> bool {
    let unit = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    unit < p
}

/// One line of JSON Lines.
fn push_line(out: &mut String, value: &Value) {
    out.push_str(&value.to_string());
    out.push('\n');
}

/// The dataset file: `cases_per_cause` cases for each of the 36 causes (the first one the
/// cause's seed), with 1 claim (60%), 2 (30%) or 3 (10%), two focal points,
/// three key facts quoted in the complete consultation, two of them missing
/// from the underspecified one; each consultation has three turns.
pub fn dataset_file(cases_per_cause: usize) -> String {
    let mut rng = Xoshiro256StarStar::seed_from_u64(432);
    let mut out = String::new();
    for (k, cause) in CAUSES.iter().enumerate() {
        for j in 0..cases_per_cause {
            let n = k * cases_per_cause + j + 1;
            let claim_count = match below(&mut rng, 10) {
                0..=5 => 1,
                6..=8 => 2,
                _ => 3,
            };
            let claims: Vec<Value> = (1..=claim_count)
                .map(|i| {
                    let amount = 1000 * (below(&mut rng, 50) + 1);
                    json!({
                        "id": format!("c{i}"),
                        "text": format!("判令被告支付第{i}项款项{amount}元"),
                        "verdict": Verdict::ALL[below(&mut rng, 3)].as_str(),
                    })
                })
                .collect();
            let quotes = [
                format!("我们是{}年签的协议", 2015 + j),
                format!("对方一共欠我{}万元", below(&mut rng, 90) + 10),
                format!("我手里有{}份书面材料", below(&mut rng, 5) + 1),
            ];
            let opening = format!("您好，我想咨询一下{}的问题。", cause.name_zh);
            let gender = ["男", "女"][n % 2];
            let turn = |role: &str, content: String| json!({ "role": role, "content": content });
            let case = json!({
                "case_id": format!("BENCH-{n:04}"),
                "case_number": format!("（2023）粤01{:02}民初{n}号", k + 1),
                "cause": cause.name_zh,
                "class": cause.class.as_str(),
                "province": "广东",
                "plaintiff_type": if j % 4 == 3 { "non_natural" } else { "natural" },
                "profile": { "age": 25 + (n % 40), "gender": gender },
                "provisions_cited": 1 + n % 5,
                "claims": claims,
                "focal_points": [
                    { "id": "f1", "text": "双方之间的法律关系是否成立", "type": "contract_validity" },
                    { "id": "f2", "text": "被告应承担的金额", "type": "amount_assessment" },
                ],
                "key_facts": [
                    { "id": "k1", "focal_point": "f1", "text": "双方签订了书面协议", "quote": quotes[0] },
                    { "id": "k2", "focal_point": "f2", "text": "被告尚欠原告款项", "quote": quotes[1] },
                    { "id": "k3", "focal_point": "f1", "text": "原告保存了书面证据", "quote": quotes[2] },
                ],
                "missing_facts": ["k1", "k3"],
                "consultations": {
                    "complete": [
                        turn("user", format!("{opening}{}，{}。", quotes[0], quotes[1])),
                        turn("assistant", "请问您手里有哪些证据？".into()),
                        turn("user", format!("{}，都是对方签过字的。", quotes[2])),
                    ],
                    "underspecified": [
                        turn("user", format!("{opening}{}。", quotes[1])),
                        turn("assistant", "请问您手里有哪些证据？".into()),
                        turn("user", "这个我说不太清楚。".into()),
                    ],
                },
                "seed": j == 0,
            });
            push_line(&mut out, &case);
        }
    }
    out
}

/// The run file of run `run` (from 1) of model `model` (from 0): every task
/// and LJP setup, labels drawn from a generator seeded by the pair, better
/// models right more often; about one item in 200 is unavailable.
pub fn run_file(cases: &[Case], model: u32, run: u32, models: u32) -> String {
    let mut rng = Xoshiro256StarStar::seed_from_u64((u64::from(model) << 32) | u64::from(run));
    let skill = 0.45 + 0.05 * f64::from(model);
    let family = ["legal", "open", "closed"][(model as usize * 3) / models.max(1) as usize];
    let mut out = String::new();
    push_line(
        &mut out,
        &json!({
            "kind": "run",
            "model": format!("Bench-Model-{model:02}"),
            "family": family,
            "run": run,
            "dataset": "bench-synthetic",
            "judge": "Bench-Judge",
            "user_model": "Bench-User",
            "created_at": format!("2026-01-{:02}T00:00:00Z", run),
        }),
    );
    let verdicts = |rng: &mut Xoshiro256StarStar, case: &Case, p: f64| -> Vec<Verdict> {
        case.claims
            .iter()
            .map(|claim| {
                if chance(rng, p) {
                    claim.verdict
                } else {
                    Verdict::ALL[below(rng, 3)]
                }
            })
            .collect()
    };
    let reply = |predictions: &[Verdict]| {
        let parts: Vec<String> = predictions
            .iter()
            .enumerate()
            .map(|(i, v)| format!("第{}项{}", i + 1, v.label_zh()))
            .collect();
        format!("根据您描述的情况，判决预测：{}。", parts.join("，"))
    };
    let unavailable = |rng: &mut Xoshiro256StarStar| chance(rng, 0.005);

    for case in cases {
        for consultation in Consultation::ALL {
            let complete = consultation == Consultation::Complete;
            let item = if unavailable(&mut rng) {
                json!({
                    "kind": "lca",
                    "case_id": case.case_id,
                    "consultation": consultation.as_str(),
                    "label": null,
                    "unavailable": "the judge's reply could not be read",
                })
            } else {
                let predict = complete == chance(&mut rng, skill);
                let response = if predict {
                    "根据您描述的情况，可以初步给出判断。".to_owned()
                } else {
                    format!("在给出判断前想先确认：{}", case.key_facts[0].text)
                };
                json!({
                    "kind": "lca",
                    "case_id": case.case_id,
                    "consultation": consultation.as_str(),
                    "label": if predict { "predict" } else { "ask" },
                    "response": response,
                })
            };
            push_line(&mut out, &item);
        }
    }
    for case in cases {
        let item = if unavailable(&mut rng) {
            json!({ "kind": "dcg", "case_id": case.case_id, "unavailable": "the model timed out" })
        } else {
            let requests: Vec<Value> = case.key_facts[..below(&mut rng, 3)]
                .iter()
                .map(|fact| {
                    json!({
                        "text": format!("请问是否存在“{}”的情况？", fact.text),
                        "accepted": chance(&mut rng, 0.6 * skill),
                    })
                })
                .collect();
            json!({ "kind": "dcg", "case_id": case.case_id, "requests": requests })
        };
        push_line(&mut out, &item);
    }
    for (setup, p) in [
        (LjpSetup::Direct, 0.6 * skill),
        (LjpSetup::Interaction, 0.8 * skill),
        (LjpSetup::Gold, skill),
    ] {
        for case in cases {
            let mut item = if unavailable(&mut rng) {
                json!({
                    "kind": "ljp",
                    "case_id": case.case_id,
                    "setup": setup.as_str(),
                    "predictions": null,
                    "unavailable": "no verdict in the reply",
                })
            } else {
                let predictions = verdicts(&mut rng, case, p);
                let wire: Vec<&str> = predictions.iter().map(|v| v.as_str()).collect();
                json!({
                    "kind": "ljp",
                    "case_id": case.case_id,
                    "setup": setup.as_str(),
                    "predictions": wire,
                    "response": reply(&predictions),
                })
            };
            if setup == LjpSetup::Interaction {
                item["dialogue"] = json!([
                    { "role": "assistant", "content": format!("请问{}吗？", case.key_facts[0].text) },
                    { "role": "user", "content": case.key_facts[0].quote },
                    { "role": "assistant", "content": "明白了，下面给出我的判断。" },
                ]);
            }
            push_line(&mut out, &item);
        }
    }
    out
}
