//! The PLawBench leaderboard views and drill-downs (`docs/benchmarks/plawbench.md`
//! §B7) against the synthetic demo shipped with the server
//! (`server/data/plawbench/`): every cell recomputed from its drill-down
//! rows equals the run's score, and the views agree with each other.

use std::path::{Path, PathBuf};

use engine::benchmark::Suite;
use engine::core::entry::EntryKey;
use engine::plawbench::dataset::{Item, Task};
use engine::plawbench::drilldown::{cell_items, item_detail};
use engine::plawbench::leaderboard::{
    build_table, category_table, evalscope_view, runs_of, Column, View,
};
use engine::plawbench::run::Run;
use engine::plawbench::score::{score_run, summarise_runs, Metric, RunScores};
use engine::plawbench::PLawBench;

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/data/plawbench")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn load() -> (Vec<Item>, Vec<Run>) {
    let dataset = PLawBench::parse_dataset(&read(&demo().join("demo.jsonl")))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(demo().join("runs"))
        .expect("runs/")
        .map(|e| e.expect("an entry").path())
        .collect();
    paths.sort();
    let runs = paths
        .iter()
        .map(|path| {
            PLawBench::parse_run(read(path).as_bytes(), &dataset)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .collect();
    (dataset, runs)
}

fn scored(runs: &[Run], dataset: &[Item]) -> Vec<(EntryKey, RunScores)> {
    runs.iter()
        .map(|run| (run.header.entry_key(), score_run(run, dataset)))
        .collect()
}

#[test]
fn every_demo_cell_is_recomputed_from_its_items() {
    let (dataset, runs) = load();
    for run in &runs {
        let scores = score_run(run, &dataset);
        for metric in Metric::ALL {
            let cell = cell_items(&dataset, &[(run.header.run, run)], metric, None);
            assert_eq!(
                cell.runs[0].value,
                scores.metric(metric),
                "{} run {}: {}",
                run.header.model,
                run.header.run,
                metric.label()
            );
            assert!(cell.runs[0].value.is_some());
        }
        assert_eq!(scores.by_category.len(), 12);
        for (category, score) in &scores.by_category {
            let cell = cell_items(&dataset, &[(1, run)], Metric::Task2, Some(category));
            assert_eq!(cell.runs[0].value, score.acc, "{category}");
            assert_eq!(cell.runs[0].scored, score.n, "{category}");
        }
        // The detail's panel value is the row's value.
        let overall = cell_items(&dataset, &[(1, run)], Metric::Overall, None);
        for (item, row) in dataset.iter().zip(&overall.rows) {
            let detail = item_detail(item, run);
            assert_eq!(detail.item_id, row.item_id);
            let value = row.runs[0].as_ref().and_then(|c| c.value);
            assert_eq!(detail.panel.map(|p| p.acc), value, "{}", item.item_id);
            assert_eq!(detail.unavailable.is_some(), value.is_none());
        }
    }
}

#[test]
fn the_demo_views_agree_with_the_drilldowns() {
    let (dataset, runs) = load();
    let scored = scored(&runs, &dataset);
    let doc = summarise_runs(scored.clone(), &dataset);

    let table = build_table(&doc, &View::default());
    let families: Vec<Option<&str>> = table
        .rows
        .iter()
        .map(|r| r.model_family.as_deref())
        .collect();
    assert_eq!(
        families,
        [
            Some("Sim-Frontier"),
            Some("Sim-LexCounsel"),
            Some("Sim-OpenLaw")
        ]
    );
    let categories = category_table(&doc, &scored);
    assert_eq!(categories.rows.len(), 12);

    for (r, row) in table.rows.iter().enumerate() {
        assert_eq!((row.runs, row.setting.as_deref()), (2, None));
        let entry_runs: Vec<&Run> = runs
            .iter()
            .filter(|run| run.header.entry_key() == row.key)
            .collect();
        let columns: Vec<(u32, &Run)> = entry_runs
            .iter()
            .map(|run| (run.header.run, *run))
            .collect();
        for (c, column) in table.columns.iter().enumerate() {
            let cell = cell_items(&dataset, &columns, column.metric(), None);
            let values: Vec<f64> = cell.runs.iter().filter_map(|v| v.value).collect();
            let mean = values.iter().sum::<f64>() / values.len() as f64;
            let shown = row.cells[c].expect("a value").mean;
            assert!((shown - mean).abs() < 1e-12, "{} {column}", row.model);
        }
        let view = evalscope_view(runs_of(&scored, &row.key));
        // Python's round(x, 4), as evalscope's report keeps scores.
        let round4 = |x: f64| (x * 1e4).round() / 1e4;
        let mut pooled: Vec<(f64, usize)> = Vec::new();
        for subset in view.rows.iter().filter(|s| s.subset.is_some()) {
            let task = subset.subset.expect("a subset");
            let metric = match task {
                Task::CaseAnalysis => Metric::Task2,
                Task::LegalConsultation => Metric::Task1,
                Task::PlaintiffStatement => Metric::Task3Plaintiff,
                Task::DefendantStatement => Metric::Task3Defendant,
            };
            let cell = cell_items(&dataset, &columns, metric, None);
            let scored_items: usize = cell.runs.iter().map(|v| v.scored).sum();
            let unavailable: usize = cell.runs.iter().map(|v| v.unavailable).sum();
            let truncated: usize = cell.runs.iter().map(|v| v.truncated).sum();
            // evalscope pools the samples of every run (repeat).
            let sum: f64 = cell
                .runs
                .iter()
                .filter_map(|v| v.value.map(|x| x * v.scored as f64))
                .sum();
            pooled.push((sum / scored_items as f64, scored_items));
            assert_eq!(
                subset.acc.map(|m| m.mean),
                Some(round4(sum / scored_items as f64)),
                "{} {task}",
                row.model
            );
            assert_eq!(
                (subset.num, subset.unavailable, subset.truncated),
                (scored_items, unavailable, truncated),
                "{} {task}",
                row.model
            );
        }
        let overall = view.rows.last().expect("an OVERALL row");
        assert_eq!(overall.name(), "OVERALL");
        // evalscope's OVERALL: the rounded subset scores, num-weighted, rounded.
        let num: usize = pooled.iter().map(|p| p.1).sum();
        let weighted: f64 = pooled.iter().map(|&(s, n)| round4(s) * n as f64).sum();
        let per_sample_overall = doc.entries[row.entry].per_sample_overall.expect("a value");
        assert_eq!(
            overall.acc.map(|m| (m.mean, m.std)),
            Some((round4(weighted / num as f64), per_sample_overall.std))
        );

        let column = categories
            .entries
            .iter()
            .position(|e| e.entry == row.entry)
            .expect("a category column");
        for category_row in &categories.rows {
            let cell = cell_items(
                &dataset,
                &columns,
                Metric::Task2,
                Some(&category_row.category),
            );
            let n: usize = cell.runs.iter().map(|v| v.scored).sum();
            assert_eq!(category_row.cells[column].n, n, "{}", category_row.category);
        }
        assert!(
            table.is_best(r, 0) == (r == 0),
            "Sim-Frontier leads Overall"
        );
    }
    assert_eq!(
        build_table(&doc, &View::from_query(Some(Column::Overall.key()))).rows[0].model,
        table.rows[0].model
    );
}
