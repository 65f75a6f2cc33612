//! The synthetic PLawBench demo shipped with the server
//! (`server/data/plawbench/`, made by its `generate.py`): the dataset and
//! the six simulated runs parse and score.

use std::path::{Path, PathBuf};

use engine::benchmark::Suite;
use engine::plawbench::dataset::{task_counts, Task};
use engine::plawbench::score::Metric;
use engine::plawbench::PLawBench;

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/data/plawbench")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_demo_dataset_and_runs_parse_and_score() {
    let dataset = PLawBench::parse_dataset(&read(&demo().join("demo.jsonl")))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        task_counts(&dataset).into_iter().collect::<Vec<_>>(),
        [
            (Task::CaseAnalysis, 12),
            (Task::LegalConsultation, 6),
            (Task::PlaintiffStatement, 3),
            (Task::DefendantStatement, 3)
        ]
    );
    for item in &dataset {
        assert!(
            item.context.contains("虚构") || item.question.contains("虚构"),
            "{} is not marked fictional",
            item.item_id
        );
    }

    let mut names: Vec<PathBuf> = std::fs::read_dir(demo().join("runs"))
        .expect("runs/")
        .map(|e| e.expect("an entry").path())
        .collect();
    names.sort();
    assert_eq!(names.len(), 6);
    let mut scored = Vec::new();
    for path in &names {
        let run = PLawBench::parse_run(read(path).as_bytes(), &dataset)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(run.header.model.ends_with("(simulated)"));
        assert_eq!(
            run.header.dataset.as_deref(),
            Some("plawbench-demo-synthetic")
        );
        let meta = PLawBench::meta(&run);
        let scores = PLawBench::score(&run, &dataset);
        for metric in Metric::ALL {
            let value = scores
                .metric(metric)
                .unwrap_or_else(|| panic!("{}: no {}", path.display(), metric.label()));
            assert!((0.0..=1.0).contains(&value));
        }
        scored.push((meta.entry_key, scores));
    }
    let document = PLawBench::summarise(scored, &dataset);
    assert_eq!(document.entries.len(), 3);
    for entry in &document.entries {
        assert_eq!(entry.runs, 2);
        assert!(entry.overall.flatten().is_some_and(|o| o.std.is_some()));
        assert!(entry.by_category.as_ref().is_some_and(|c| c.len() == 12));
    }
    let overall = |model: &str| {
        document
            .entries
            .iter()
            .find(|e| e.model.starts_with(model))
            .and_then(|e| e.overall.flatten())
            .map(|o| o.mean)
            .unwrap_or_else(|| panic!("no entry {model}"))
    };
    let (legal, open, closed) = (
        overall("Sim-LexCounsel"),
        overall("Sim-OpenLaw"),
        overall("Sim-Frontier"),
    );
    assert!(
        legal < open && open < closed,
        "the simulated models are ordered: {legal} {open} {closed}"
    );
}
