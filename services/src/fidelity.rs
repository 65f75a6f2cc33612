//! The user-simulator fidelity study (Table 13, Appendix E.3.2–E.3.3) from
//! files to storage and back, for the CLI, the server and the paper page:
//! probe files checked against the LexPilot version's cases
//! ([`engine::lexpilot::fidelity::parse_probes`]) and stored all or none;
//! a result file checked against the stored probes and stored with one
//! review item per reply, shuffled, in one transaction; and Table 13 over
//! the study and the review's labels, read fresh on every request (labels
//! change without a new generation).

use std::collections::HashMap;

use db::datasets::DatasetInfo;
use db::fidelity::{NewProbe, ReplyItem};
use db::review::Created;
use db::Db;
use engine::benchmark::{Benchmark, LexPilot};
use engine::core::errors::DatasetErrors;
use engine::lexpilot::fidelity::{
    parse_fidelity, parse_probes, sheet, shuffled, study, Condition, LabelledReply, Marks, Probe,
    ProbeSheet, StudyView, SEED, SHEET_TASK,
};
use engine::review::ItemRecord;
use serde_json::json;

use crate::error::{Error, Result};
use crate::ingest::{blocking, hosted, Hosted, RunFile};

fn lexpilot(dataset: &DatasetInfo) -> Result<()> {
    if hosted(dataset)? != Benchmark::Lexpilot {
        return Err(Error::Invalid(format!(
            "dataset {} is a {} dataset; the user-simulator fidelity study is LexPilot's",
            dataset.name, dataset.benchmark
        )));
    }
    Ok(())
}

/// Checks the probe file `file` against LexPilot version `dataset` and
/// stores every probe in it (replacing those of the same cases), or none.
pub async fn store_probes(
    db: &Db,
    dataset: &DatasetInfo,
    file: &RunFile,
    author: Option<i64>,
    by: engine::accounts::Replacer,
) -> Result<Created> {
    lexpilot(dataset)?;
    let cases = LexPilot::cases(db, dataset.id).await?;
    let text = String::from_utf8_lossy(&file.bytes).into_owned();
    let name = file.name.clone();
    let probes = blocking(move || {
        parse_probes(&text, &cases).map_err(|e| Error::InvalidFile(name, DatasetErrors(e)))
    })
    .await??;
    if probes.is_empty() {
        return Err(Error::Invalid(format!("{} holds no probe", file.name)));
    }
    let new = probes
        .iter()
        .map(|p| {
            Ok(NewProbe {
                case_id: p.case_id.clone(),
                probe: serde_json::to_string(p).map_err(Error::internal)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(db::fidelity::store_probes(db, dataset, &new, author, by).await?)
}

/// The probe-writing sheet of LexPilot version `dataset`.
pub async fn probe_sheet(db: &Db, dataset: &DatasetInfo) -> Result<ProbeSheet> {
    lexpilot(dataset)?;
    let cases = LexPilot::cases(db, dataset.id).await?;
    let fixed = db::fidelity::has_study(db, dataset.id).await?;
    Ok(ProbeSheet::of(&cases, probes(db, dataset).await?, fixed))
}

/// Checks `probe` against its case of LexPilot version `dataset` and stores
/// it (replacing the case's probe, when `by` is its author or an admin);
/// refused, naming the case and every field at fault, when it breaks a
/// rule, and once the study exists.
pub async fn save_probe(
    db: &Db,
    dataset: &DatasetInfo,
    probe: Probe,
    author: Option<i64>,
    by: engine::accounts::Replacer,
) -> Result<Created> {
    lexpilot(dataset)?;
    let cases = LexPilot::cases(db, dataset.id).await?;
    let Some(case) = cases.iter().find(|c| c.case_id == probe.case_id) else {
        return Err(Error::NotFound(format!(
            "no case {} in dataset {} version {}",
            probe.case_id, dataset.name, dataset.version
        )));
    };
    let faults = probe.check(case);
    if !faults.is_empty() {
        let listed: Vec<String> = faults.iter().map(|(f, m)| format!("{f}: {m}")).collect();
        return Err(Error::Invalid(format!(
            "the probe of case {} is not stored: {}",
            probe.case_id,
            listed.join("; ")
        )));
    }
    let new = NewProbe {
        case_id: probe.case_id.clone(),
        probe: serde_json::to_string(&probe).map_err(Error::internal)?,
    };
    Ok(db::fidelity::store_probes(db, dataset, &[new], author, by).await?)
}

/// The stored probes of version `dataset`, by case id.
pub async fn probes(db: &Db, dataset: &DatasetInfo) -> Result<Vec<Probe>> {
    db::fidelity::probes(db, dataset.id)
        .await?
        .iter()
        .map(|p| serde_json::from_str(p).map_err(|e| Error::internal(format!("stored probe: {e}"))))
        .collect()
}

/// Checks the result file `file` against the stored probes of `dataset`
/// and stores it with one review item per reply (in an order shuffled from
/// a fixed seed, so experts meet the conditions mixed), all or none.
pub async fn store_study(
    db: &Db,
    dataset: &DatasetInfo,
    file: &RunFile,
    by: Option<i64>,
) -> Result<Created> {
    lexpilot(dataset)?;
    let probes = probes(db, dataset).await?;
    if probes.is_empty() {
        return Err(Error::Invalid(format!(
            "dataset {} version {} has no probes; store the probe file first",
            dataset.name, dataset.version
        )));
    }
    let cases = LexPilot::cases(db, dataset.id).await?;
    let text = String::from_utf8_lossy(&file.bytes).into_owned();
    let name = file.name.clone();
    let (run, replies) = blocking(move || {
        let run = parse_fidelity(&text, &probes)
            .map_err(|e| Error::InvalidFile(name, DatasetErrors(e)))?;
        let by_case: HashMap<&str, &Probe> =
            probes.iter().map(|p| (p.case_id.as_str(), p)).collect();
        let mut replies = Vec::new();
        for r in run.replies.iter().filter(|r| r.reply.is_some()) {
            let (Some(probe), Some(case)) = (
                by_case.get(r.case_id.as_str()),
                cases.iter().find(|c| c.case_id == r.case_id),
            ) else {
                continue;
            };
            let simulator = probe.simulator_case(case, r.condition);
            let target = case
                .key_facts
                .iter()
                .find(|k| k.id == probe.fact)
                .map(|k| k.text.clone());
            replies.push(ReplyItem {
                case_id: r.case_id.clone(),
                condition: r.condition.as_str().to_owned(),
                input: json!({
                    "benchmark": "lexpilot",
                    "study": SHEET_TASK,
                    "condition": r.condition,
                    "question": r.question,
                    "reply": r.reply,
                    "history": case.consultations.underspecified,
                    "key_facts": simulator.key_facts.iter().map(|k| &k.text).collect::<Vec<_>>(),
                    "target_fact": target,
                    "minimum_answer": probe.minimum_answer,
                    "permitted": probe.permitted,
                    "sheet": sheet(r.condition),
                }),
            });
        }
        let order = shuffled(replies.len(), SEED);
        let mut slots: Vec<Option<ReplyItem>> = replies.into_iter().map(Some).collect();
        let replies: Vec<ReplyItem> = order.into_iter().filter_map(|i| slots[i].take()).collect();
        Ok::<_, Error>((run, replies))
    })
    .await??;
    Ok(db::fidelity::store_study(
        db,
        dataset,
        &run.header.user_model,
        &run.to_jsonl(),
        replies,
        by,
    )
    .await?)
}

/// Whether review item `item` is a fidelity reply.
fn is_fidelity(item: &ItemRecord) -> bool {
    item.sheet
        .as_ref()
        .is_some_and(|s| s.benchmark == Benchmark::Lexpilot && s.task == SHEET_TASK)
}

/// Table 13 of version `dataset` over its study and the review's current
/// labels (final and blind); `None` without a study.
pub async fn view(db: &Db, dataset: &DatasetInfo) -> Result<Option<StudyView>> {
    let Some(stored) = db::fidelity::study(db, dataset.id).await? else {
        return Ok(None);
    };
    let probes = probes(db, dataset).await?;
    let records =
        db::review::records_of_kind(db, dataset.id, engine::review::ReviewKind::RubricVerdict)
            .await?;
    let run = parse_fidelity(&stored.items, &probes)
        .map_err(|e| Error::internal(format!("stored fidelity study: {}", DatasetErrors(e))))?;
    let mut labels: HashMap<(String, Condition), &ItemRecord> = HashMap::new();
    for item in records.iter().filter(|i| is_fidelity(i)) {
        if let Some(c) = item.target.as_deref().and_then(Condition::parse) {
            labels.insert((item.case_id.clone(), c), item);
        }
    }
    let replies: Vec<LabelledReply> = run
        .replies
        .iter()
        .map(|r| {
            let item = labels.get(&(r.case_id.clone(), r.condition));
            let read = |l: &str| Marks::read(r.condition, l);
            LabelledReply {
                case_id: r.case_id.clone(),
                condition: r.condition,
                dcg_accepted: r.dcg_accepted,
                final_marks: item.and_then(|i| i.final_label.as_deref()).and_then(read),
                blind: item
                    .map(|i| {
                        i.assignments
                            .iter()
                            .filter_map(|a| a.blind_label.as_deref().and_then(read))
                            .take(2)
                            .collect()
                    })
                    .unwrap_or_default(),
            }
        })
        .collect();
    Ok(Some(StudyView {
        user_model: stored.user_model,
        judge: run.header.judge.clone(),
        probes: probes.len(),
        study: study(&replies),
    }))
}
