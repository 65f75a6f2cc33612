//! The evalscope import (`docs/benchmarks/plawbench.md` §B6) against folders
//! built from the spec's field tables by
//! `tests/reference/make_plawbench_evalscope_fixture.py`, which also wrote
//! what the import must give (`expected.json`).

use std::path::{Path, PathBuf};

use engine::core::panel::Aggregation;
use engine::plawbench::dataset::{parse_dataset, Item, Task};
use engine::plawbench::evalscope::{
    import_folder, subset_task, Folder, ImportOptions, Imported, SubsetFiles,
};
use engine::plawbench::run::{parse_run, ParseMode, Source};
use engine::plawbench::score::score_run;
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/plawbench/evalscope")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn dataset() -> Vec<Item> {
    parse_dataset(&read(&root().join("dataset.jsonl"))).unwrap_or_else(|e| panic!("{e}"))
}

fn expected() -> Value {
    serde_json::from_str(&read(&root().join("expected.json"))).expect("expected.json")
}

/// Reads `<name>/<timestamp>/` as the server would.
fn folder(name: &str) -> Folder {
    let dir = std::fs::read_dir(root().join(name))
        .expect("the fixture folder")
        .map(|e| e.expect("an entry").path())
        .next()
        .expect("one timestamp folder");
    let timestamp = dir.file_name().and_then(|n| n.to_str()).map(str::to_owned);
    let reviews = dir.join("reviews");
    let model_dir = std::fs::read_dir(&reviews)
        .expect("reviews/")
        .map(|e| e.expect("an entry").path())
        .next()
        .expect("one model folder");
    let model_id = model_dir
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a name")
        .to_owned();
    let mut subsets: Vec<SubsetFiles> = std::fs::read_dir(&model_dir)
        .expect("the model's reviews")
        .map(|e| e.expect("an entry").path())
        .filter_map(|path| {
            let file = path.file_name()?.to_str()?.to_owned();
            let task = subset_task(&file)?;
            let predictions = dir.join("predictions").join(&model_id).join(&file);
            Some(SubsetFiles {
                task,
                predictions: predictions.exists().then(|| read(&predictions)),
                reviews: read(&path),
            })
        })
        .collect();
    subsets.sort_by_key(|s| s.task);
    Folder {
        report: Some(read(
            &dir.join("reports").join(&model_id).join("plawbench.json"),
        )),
        task_config: Some(read(&dir.join("configs/task_config.yaml"))),
        model_id,
        timestamp,
        subsets,
    }
}

fn import(name: &str) -> Imported {
    import_folder(&folder(name), &dataset(), &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Each run's task accuracies and counts against the reference.
fn check_runs(imported: &Imported, expected: &Value) {
    let dataset = dataset();
    let runs = expected["runs"].as_array().expect("runs");
    assert_eq!(imported.runs.len(), runs.len());
    for (run, want) in imported.runs.iter().zip(runs) {
        assert_eq!(
            u64::from(run.header.run),
            want["run"].as_u64().expect("run")
        );
        // The imported file is a valid run file.
        assert_eq!(parse_run(&run.to_stored(), &dataset).expect("valid"), *run);
        let scores = score_run(run, &dataset);
        for task in Task::ALL {
            let t = &scores.tasks[&task];
            let acc = &want["acc"][task.as_str()];
            match (t.acc, acc.as_f64()) {
                (Some(a), Some(e)) => assert!((a - e).abs() <= 1e-12, "{task}: {a} vs {e}"),
                (None, None) => {}
                other => panic!("{task}: {other:?}"),
            }
            assert_eq!(
                t.unavailable as u64,
                want["counts"]["unavailable"][task.as_str()]
                    .as_u64()
                    .expect("n"),
                "{task}"
            );
            assert_eq!(
                t.truncated as u64,
                want["counts"]["truncated"][task.as_str()]
                    .as_u64()
                    .expect("n"),
                "{task}"
            );
        }
    }
}

#[test]
fn a_v2_folder_with_repeats_imports_as_one_run_per_generation() {
    let imported = import("v2");
    let expected = &expected()["v2"];
    check_runs(&imported, expected);
    let header = &imported.runs[0].header;
    assert_eq!(header.model, "qwen-plus");
    assert_eq!(header.judge_models().collect::<Vec<_>>(), ["qwen3-max"]);
    assert_eq!(
        (header.judge_parse, header.source, header.judge_attempts),
        (ParseMode::Strict, Source::Evalscope, 1)
    );
    assert_eq!(header.created_at.as_deref(), Some("2026-12-01T10:00:00"));
    assert_eq!(
        header.generation.as_ref().expect("generation_config")["max_tokens"],
        16384
    );
    assert_eq!(
        imported.runs[0].header.entry_key(),
        imported.runs[1].header.entry_key()
    );

    let item = |id: &str| {
        imported.runs[0]
            .items
            .iter()
            .find(|i| i.item_id == id)
            .expect(id)
    };
    assert_eq!(
        item("legal_consultation-2").unavailable.as_deref(),
        Some("evalscope: parse_error: judge reply is not valid JSON")
    );
    assert_eq!(
        item("defendant_statement-1").unavailable.as_deref(),
        Some("evalscope: review errored")
    );
    assert_eq!(
        item("plaintiff_statement-1").finish_reason.as_deref(),
        Some("length")
    );
    let judged = item("case_analysis-1");
    assert!(judged.judgements[0]
        .judge_output
        .as_deref()
        .is_some_and(|o| o.contains("score_details")));
    assert_eq!(judged.prompt_sha256.as_ref().map(String::len), Some(64));

    let reconciliation = &imported.reconciliation;
    assert!(reconciliation.ok(), "{reconciliation:#?}");
    assert_eq!(
        reconciliation.subsets.len(),
        4 + 4,
        "acc per subset and four section metrics"
    );
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
}

#[test]
fn a_panel_with_judge_repeats_imports_one_judgement_per_judge() {
    let imported = import("panel");
    check_runs(&imported, &expected()["panel"]);
    let header = &imported.runs[0].header;
    assert_eq!(
        header.judge_models().collect::<Vec<_>>(),
        ["qwen3-max", "gpt-4.1"]
    );
    assert_eq!(header.judge_aggregation, Aggregation::Median);
    assert!(imported.runs[0]
        .items
        .iter()
        .all(|i| i.judgements.len() == 2));
    assert!(
        imported.reconciliation.ok(),
        "{:#?}",
        imported.reconciliation
    );
}

#[test]
fn a_legacy_judge_failure_is_unavailable_not_zero() {
    let imported = import("v1-legacy");
    let expected = &expected()["v1-legacy"];
    check_runs(&imported, expected);
    let run = &imported.runs[0];
    assert_eq!(run.header.judge_parse, ParseMode::Lenient);
    for id in ["legal_consultation-1", "case_analysis-1"] {
        let item = run.items.iter().find(|i| i.item_id == id).expect(id);
        assert_eq!(item.unavailable.as_deref(), Some("evalscope: judge_failed"));
    }
    // evalscope averaged the 0 in; the workbench leaves the item out.
    let reconciliation = &imported.reconciliation;
    assert!(reconciliation.ok(), "{reconciliation:#?}");
    let report_acc = expected["report_subsets"]["legal_consultation"]["acc"]
        .as_f64()
        .expect("acc");
    let ours = score_run(run, &dataset()).tasks[&Task::LegalConsultation]
        .acc
        .expect("scored");
    assert!(ours > report_acc);
}

#[test]
fn a_folder_that_does_not_match_the_dataset_is_refused_naming_file_line_and_field() {
    let mut bad = folder("v2");
    let case = bad
        .subsets
        .iter_mut()
        .find(|s| s.task == Task::CaseAnalysis)
        .expect("case_analysis");
    case.reviews = case.reviews.replacen(
        r#""max_points": 60, "prompt""#,
        r#""max_points": 65, "prompt""#,
        1,
    );
    let errors = import_folder(&bad, &dataset(), &ImportOptions::default()).unwrap_err();
    assert_eq!(
        errors.to_string(),
        "reviews/qwen-plus/plawbench_case_analysis.jsonl, line 1 (case_analysis-1), field \
         sample_score.sample_metadata.max_points: is 65 but the dataset's case_analysis-1 has max_points 60"
    );

    let mut items = dataset();
    if let Some(item) = items
        .iter_mut()
        .find(|i| i.item_id == "plaintiff_statement-2")
    {
        item.rubric = Some("另一份评分细则".into());
    }
    let errors = import_folder(&folder("v2"), &items, &ImportOptions::default()).unwrap_err();
    assert!(
        errors
            .0
            .iter()
            .all(|e| e.field == "sample_score.sample_metadata.rubrics"),
        "{errors}"
    );
    assert_eq!(errors.0.len(), 2, "one per generation: {errors}");
}

#[test]
fn missing_items_are_refused_by_id_and_a_report_alone_is_refused() {
    fn without_item_3(text: &str) -> String {
        text.lines()
            .filter(|l| !l.contains("\"id\": \"case_analysis-3\""))
            .map(|l| format!("{l}\n"))
            .collect()
    }
    let mut limited = folder("v2");
    for subset in &mut limited.subsets {
        subset.reviews = without_item_3(&subset.reviews);
        subset.predictions = subset.predictions.as_deref().map(without_item_3);
    }
    let errors = import_folder(&limited, &dataset(), &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(errors.contains("generation 0 misses 1 case_analysis item of the dataset in both predictions and reviews: case_analysis-3"), "{errors}");
    assert!(errors.contains("generation 1 misses 1"), "{errors}");

    let report_only = Folder {
        subsets: Vec::new(),
        ..folder("v2")
    };
    let errors = import_folder(&report_only, &dataset(), &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(errors.contains("a report alone has no items"), "{errors}");
}

#[test]
fn a_report_that_disagrees_is_shown_not_changed() {
    let mut off = folder("panel");
    let report = off.report.take().expect("a report");
    let mut doc: Value = serde_json::from_str(&report).expect("JSON");
    doc["metrics"][0]["categories"][0]["subsets"][0]["score"] = Value::from(0.1234);
    off.report = Some(doc.to_string());
    let imported = import_folder(&off, &dataset(), &ImportOptions::default()).expect("imports");
    let failed: Vec<_> = imported
        .reconciliation
        .subsets
        .iter()
        .filter(|c| !c.ok)
        .collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(
        (failed[0].task, failed[0].metric.as_str()),
        (Task::CaseAnalysis, "acc")
    );
    assert_eq!(imported.runs, import("panel").runs);
}
