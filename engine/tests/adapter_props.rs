//! What a per-entry read model rests on, for every benchmark: one model's
//! runs group into the same entries alone as among everyone's runs, and the
//! score document of all runs is the document of each model's entries
//! summarised alone, put in order of their first run. Checked on the demo
//! runs of the three benchmarks, relabelled to random models (and, for
//! LexPilot, judges) in random orders.

use std::path::{Path, PathBuf};

use engine::benchmark::{DLawBench, LexPilot, PLawBench, Suite};
use engine::core::entry::EntryKey;
use engine::lexpilot::entries::Entry;
use proptest::prelude::*;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/data")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every demo run of `S` (dataset `dataset`, runs in `runs/`) scored, with
/// the dataset's cases.
fn scored<S: Suite>(dataset: &Path, runs: &Path) -> Demo<S> {
    let cases = S::parse_dataset(&read(dataset)).unwrap_or_else(|e| panic!("{e}"));
    let mut names: Vec<PathBuf> = std::fs::read_dir(runs)
        .expect("runs/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    names.sort();
    let runs = names
        .iter()
        .map(|p| {
            let run = S::parse_run(read(p).as_bytes(), &cases).unwrap_or_else(|e| panic!("{e}"));
            (S::meta(&run).entry_key, S::score(&run, &cases))
        })
        .collect();
    (cases, runs)
}

/// The runs a pick names: demo run `i`, relabelled to model `m` and judge
/// `j` (the judge only where `judges` says the benchmark's key carries it).
fn picked<S: Suite>(
    demo: &[(EntryKey, S::Scores)],
    picks: &[(usize, u8, u8)],
    judges: bool,
) -> Vec<(EntryKey, S::Scores)>
where
    S::Scores: Clone,
{
    picks
        .iter()
        .map(|&(i, m, j)| {
            let (key, scores) = &demo[i % demo.len()];
            let mut key = key.clone();
            key.model = format!("模型-{m}");
            if judges {
                key.judge = Some(format!("judge-{j}"));
            }
            (key, scores.clone())
        })
        .collect()
}

/// Each model's runs grouped alone, mapped back to positions in `runs`,
/// entries in order of their first run.
fn grouped_per_model<S: Suite>(runs: &[(EntryKey, S::Scores)]) -> Vec<Entry>
where
    S::Scores: Clone,
{
    let mut models: Vec<&str> = runs.iter().map(|(k, _)| k.model.as_str()).collect();
    models.sort_unstable();
    models.dedup();
    let mut entries: Vec<Entry> = Vec::new();
    for model in models {
        let positions: Vec<usize> = (0..runs.len())
            .filter(|&i| runs[i].0.model == model)
            .collect();
        let own: Vec<(EntryKey, S::Scores)> = positions.iter().map(|&i| runs[i].clone()).collect();
        entries.extend(S::group(&own).into_iter().map(|e| Entry {
            key: e.key,
            runs: e.runs.iter().map(|&i| positions[i]).collect(),
        }));
    }
    entries.sort_by_key(|e| e.runs[0]);
    entries
}

fn holds<S: Suite>(cases: &[S::Case], runs: &[(EntryKey, S::Scores)]) -> Result<(), TestCaseError>
where
    S::Scores: Clone,
{
    let together = S::group(runs);
    let alone = grouped_per_model::<S>(runs);
    prop_assert_eq!(&together, &alone);
    for entry in &together {
        prop_assert!(entry
            .runs
            .iter()
            .all(|&i| runs[i].0.model == entry.key.model));
    }
    // The document of everyone's runs is the document of the entries each
    // model summarised alone.
    let entries = alone
        .into_iter()
        .map(|e| {
            let scores: Vec<S::Scores> = e.runs.iter().map(|&i| runs[i].1.clone()).collect();
            S::summarise_entry(e.key, &scores, cases)
        })
        .collect();
    let composed = serde_json::to_value(S::document(entries, cases)).expect("serialises");
    let whole = serde_json::to_value(S::summarise(runs.to_vec(), cases)).expect("serialises");
    prop_assert_eq!(composed, whole);
    Ok(())
}

fn picks() -> impl Strategy<Value = Vec<(usize, u8, u8)>> {
    prop::collection::vec((0usize..64, 0u8..3, 0u8..2), 0..14)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn lexpilot_entries_summarise_per_model(picks in picks()) {
        let (cases, demo) = lexpilot();
        holds::<LexPilot>(&cases, &picked::<LexPilot>(&demo, &picks, true))?;
    }

    #[test]
    fn plawbench_entries_summarise_per_model(picks in picks()) {
        let (cases, demo) = plawbench();
        holds::<PLawBench>(&cases, &picked::<PLawBench>(&demo, &picks, false))?;
    }

    #[test]
    fn dlawbench_entries_summarise_per_model(picks in picks()) {
        let (cases, demo) = dlawbench();
        holds::<DLawBench>(&cases, &picked::<DLawBench>(&demo, &picks, false))?;
    }
}

type Demo<S> = (
    Vec<<S as Suite>::Case>,
    Vec<(EntryKey, <S as Suite>::Scores)>,
);

fn lexpilot() -> Demo<LexPilot> {
    static DEMO: std::sync::OnceLock<Demo<LexPilot>> = std::sync::OnceLock::new();
    DEMO.get_or_init(|| {
        scored::<LexPilot>(&data().join("demo-synthetic.jsonl"), &data().join("runs"))
    })
    .clone()
}

fn plawbench() -> Demo<PLawBench> {
    static DEMO: std::sync::OnceLock<Demo<PLawBench>> = std::sync::OnceLock::new();
    let dir = data().join("plawbench");
    DEMO.get_or_init(|| scored::<PLawBench>(&dir.join("demo.jsonl"), &dir.join("runs")))
        .clone()
}

fn dlawbench() -> Demo<DLawBench> {
    static DEMO: std::sync::OnceLock<Demo<DLawBench>> = std::sync::OnceLock::new();
    let dir = data().join("dlawbench");
    DEMO.get_or_init(|| scored::<DLawBench>(&dir.join("demo.jsonl"), &dir.join("runs")))
        .clone()
}

#[test]
fn the_demo_runs_make_entries_of_several_runs_for_every_benchmark() {
    // The property is only as strong as its data: each demo has models with
    // several runs, so entries of more than one run are summarised.
    assert!(LexPilot::group(&lexpilot().1)
        .iter()
        .any(|e| e.runs.len() > 1));
    assert!(PLawBench::group(&plawbench().1)
        .iter()
        .any(|e| e.runs.len() > 1));
    assert!(DLawBench::group(&dlawbench().1)
        .iter()
        .any(|e| e.runs.len() > 1));
}
