//! The reconciliation and the "as evalscope reports it" view against
//! evalscope's report rules (issue 43 point 4). The expected figures are
//! computed here as evalscope 1.14.1's report code computes them, apart
//! from the implementation: `Subset.score` = round(mean over the subset's
//! samples of every repeat, 4) with `num` those samples; `Category.score` =
//! round(Σ score·num / Σ num, 4) over the rounded subset scores; the metric
//! score (`OVERALL`) = round(micro_mean over its one category, 4)
//! (`evalscope/report/report.py`, `evalscope/metrics/utils/functions.py::
//! micro_mean`, `evalscope/metrics/aggregators/aggregators.py::Mean`).

use std::path::{Path, PathBuf};

use engine::plawbench::dataset::{parse_dataset, Item, Section, Task};
use engine::plawbench::evalscope::{
    import_folder, subset_task, Folder, ImportOptions, Imported, SubsetFiles,
};
use engine::plawbench::leaderboard::evalscope_view;
use engine::plawbench::run::parse_run;
use engine::plawbench::score::{score_run, RunScores};
use engine::plawbench::synthetic::{dataset_file, evalscope_folder, run_file, OFFICIAL_SIZES};
use serde_json::{json, Value};

/// Python's `round(x, 4)` away from exact ties (the searches below skip
/// values within 10⁻⁶ of a tie, where the binary value decides).
fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

fn near_tie(x: f64) -> bool {
    let f = (x * 1e4).fract().abs();
    (f - 0.5).abs() < 1e-6
}

/// evalscope's report `OVERALL` from (unrounded subset mean, num): the
/// subsets rounded, their num-weighted mean rounded (the one category
/// `default`), then the metric's micro mean of that category rounded.
fn report_overall(subsets: &[(f64, usize)]) -> f64 {
    let num: usize = subsets.iter().map(|s| s.1).sum();
    let category = round4(
        subsets
            .iter()
            .map(|&(s, n)| round4(s) * n as f64)
            .sum::<f64>()
            / num as f64,
    );
    round4(category * num as f64 / num as f64)
}

/// The reviews' values of `metric` per subset, as evalscope's `Mean`
/// aggregator collects them (every review whose `score.value` has it).
fn review_values(folder: &Folder, metric: &str) -> Vec<(Task, Vec<f64>)> {
    folder
        .subsets
        .iter()
        .map(|s| {
            let values = s
                .reviews
                .lines()
                .filter(|l| !l.trim().is_empty())
                .filter_map(|l| {
                    let v: Value = serde_json::from_str(l).expect("a review line");
                    v["sample_score"]["score"]["value"][metric].as_f64()
                })
                .collect();
            (s.task, values)
        })
        .filter(|(_, v): &(Task, Vec<f64>)| !v.is_empty())
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// One report metric: its name, (subset, score, num) rows and its score.
type ReportMetric = (&'static str, Vec<(Task, f64, usize)>, f64);

/// A schema-v2 report with the given subset figures and metric score.
fn report(metrics: &[ReportMetric]) -> String {
    let metrics: Vec<Value> = metrics
        .iter()
        .map(|(name, subsets, overall)| {
            let num: usize = subsets.iter().map(|s| s.2).sum();
            let rows: Vec<Value> = subsets
                .iter()
                .map(|&(t, s, n)| json!({"name": t.as_str(), "score": s, "num": n}))
                .collect();
            json!({"identity": {"name": name, "aggregation": "mean", "dimensions": {}},
                   "num": num, "score": overall,
                   "categories": [{"name": ["default"], "num": num, "score": overall, "subsets": rows}]})
        })
        .collect();
    json!({"schema_version": 2, "model_name": "m", "dataset_name": "plawbench", "metrics": metrics})
        .to_string()
}

#[test]
fn overall_is_reconciled_as_evalscope_rounds_it() {
    // A synthetic evalscope folder where evalscope's OVERALL (from the
    // rounded subsets) and the per-sample mean differ at 4 decimals.
    let mut found = None;
    for seed in 1..400 {
        let dataset = parse_dataset(&dataset_file(&OFFICIAL_SIZES, seed)).expect("dataset");
        let folder = evalscope_folder(&dataset, "m", seed);
        let acc = review_values(&folder, "acc");
        let all: Vec<f64> = acc.iter().flat_map(|(_, v)| v.iter().copied()).collect();
        let subsets: Vec<(f64, usize)> = acc.iter().map(|(_, v)| (mean(v), v.len())).collect();
        let per_sample = mean(&all);
        if subsets.iter().any(|s| near_tie(s.0)) || near_tie(per_sample) {
            continue;
        }
        let overall = report_overall(&subsets);
        if round4(per_sample) != overall {
            found = Some((dataset, folder, per_sample, overall));
            break;
        }
    }
    let (dataset, mut folder, per_sample, overall) =
        found.expect("a seed whose OVERALL rounding differs");
    eprintln!(
        "per-sample mean {per_sample:.6} → {:.4}; evalscope's OVERALL {overall:.4}",
        round4(per_sample)
    );

    // The report as evalscope writes it, every figure computed above.
    let metrics: Vec<ReportMetric> = ["acc"]
        .into_iter()
        .chain(Section::ALL.map(Section::metric))
        .map(|metric| {
            let values = review_values(&folder, metric);
            let subsets: Vec<(Task, f64, usize)> = values
                .iter()
                .map(|(t, v)| (*t, round4(mean(v)), v.len()))
                .collect();
            let unrounded: Vec<(f64, usize)> =
                values.iter().map(|(_, v)| (mean(v), v.len())).collect();
            let name = if metric == "acc" { "accuracy" } else { metric };
            (name, subsets, report_overall(&unrounded))
        })
        .collect();
    let num: usize = metrics[0].1.iter().map(|s| s.2).sum();
    folder.report = Some(report(&metrics));
    let imported = import_folder(&folder, &dataset, &ImportOptions::default()).expect("imports");
    let reconciliation = serde_json::to_value(&imported.reconciliation).expect("json");
    assert!(imported.reconciliation.ok(), "{reconciliation:#}");
    let checks = reconciliation["overall"]
        .as_array()
        .expect("OVERALL checks");
    assert_eq!(checks.len(), 5, "acc and the four section metrics");
    let acc = &checks[0];
    assert_eq!(acc["metric"], "acc");
    assert_eq!(acc["recomputed"].as_f64(), Some(overall));
    assert_eq!(acc["reported"].as_f64(), Some(overall));
    assert_eq!(acc["num"].as_u64(), Some(num as u64));
    assert_eq!(acc["ok"], true);

    // A report whose OVERALL is the rounded per-sample mean is not evalscope's.
    let mut wrong = metrics.clone();
    wrong[0].2 = round4(per_sample);
    folder.report = Some(report(&wrong));
    let imported = import_folder(&folder, &dataset, &ImportOptions::default()).expect("imports");
    assert!(
        imported.reconciliation.subsets.iter().all(|c| c.ok),
        "the subsets still agree"
    );
    assert!(!imported.reconciliation.ok());
    let reconciliation = serde_json::to_value(&imported.reconciliation).expect("json");
    assert_eq!(reconciliation["overall"][0]["ok"], false);
    assert_eq!(
        reconciliation["overall"][0]["reported"].as_f64(),
        Some(round4(per_sample))
    );
}

fn fixture_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/plawbench/evalscope")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The v2 fixture (two repeats) read as the server reads it.
fn v2() -> (Vec<Item>, Imported, Value) {
    let dataset = parse_dataset(&read(&fixture_root().join("dataset.jsonl"))).expect("dataset");
    let dir = fixture_root().join("v2/20261201_100000");
    let model_dir = dir.join("reviews/qwen-plus");
    let mut subsets: Vec<SubsetFiles> = std::fs::read_dir(&model_dir)
        .expect("reviews")
        .map(|e| e.expect("an entry").path())
        .filter_map(|path| {
            let file = path.file_name()?.to_str()?.to_owned();
            let task = subset_task(&file)?;
            let predictions = dir.join("predictions/qwen-plus").join(&file);
            Some(SubsetFiles {
                task,
                predictions: predictions.exists().then(|| read(&predictions)),
                reviews: read(&path),
            })
        })
        .collect();
    subsets.sort_by_key(|s| s.task);
    let report = read(&dir.join("reports/qwen-plus/plawbench.json"));
    let folder = Folder {
        model_id: "qwen-plus".into(),
        timestamp: Some("20261201_100000".into()),
        task_config: Some(read(&dir.join("configs/task_config.yaml"))),
        report: Some(report.clone()),
        subsets,
    };
    let imported = import_folder(&folder, &dataset, &ImportOptions::default()).expect("imports");
    (
        dataset,
        imported,
        serde_json::from_str(&report).expect("report"),
    )
}

#[test]
fn the_view_of_a_repeated_run_gives_evalscope_s_report() {
    // The v2 fixture: evalscope repeats=2, imported as two runs. evalscope's
    // report pools both generations per subset; the view must give its
    // figures, not the mean of the two run means (legal_consultation: run 1
    // scores 0.0750 over 1 item, run 2 0.5760 over 2 → pooled 0.4090, where
    // the mean of the run means is 0.3255).
    let (dataset, imported, report) = v2();
    let scores: Vec<RunScores> = imported
        .runs
        .iter()
        .map(|r| score_run(r, &dataset))
        .collect();
    let view = evalscope_view(&scores);
    assert_eq!(view.runs, 2);
    for metric in report["metrics"].as_array().expect("metrics") {
        let name = metric["identity"]["name"].as_str().expect("a name");
        let section = Section::ALL.into_iter().find(|s| s.metric() == name);
        let figure = |row: &engine::plawbench::leaderboard::EvalscopeRow| match section {
            None => row.acc.map(|m| m.mean),
            Some(s) => row.sections.get(&s).copied().flatten().map(|m| m.mean),
        };
        for subset in metric["categories"][0]["subsets"]
            .as_array()
            .expect("subsets")
        {
            let task = subset["name"].as_str().expect("a subset");
            let row = view.rows.iter().find(|r| r.name() == task).expect("a row");
            assert_eq!(figure(row), subset["score"].as_f64(), "{name} {task}");
            if section.is_none() {
                assert_eq!(Some(row.num as u64), subset["num"].as_u64(), "{task}");
            }
        }
        if section.is_none() {
            let overall = view.rows.last().expect("OVERALL");
            assert_eq!(overall.name(), "OVERALL");
            assert_eq!(overall.acc.map(|m| m.mean), metric["score"].as_f64());
            assert_eq!(Some(overall.num as u64), metric["num"].as_u64());
        }
    }
}

#[test]
fn the_view_pools_runs_and_rounds_overall_as_evalscope_does() {
    // Two synthetic runs of one model whose scored items differ (about 1%
    // unavailable): a seed where pooling the samples and the mean of the run
    // means differ at 4 decimals, and one where OVERALL's rounding matters.
    let mut pooled_differs = false;
    let mut rounding_differs = false;
    for seed in 1..300 {
        let dataset = parse_dataset(&dataset_file(&OFFICIAL_SIZES, seed)).expect("dataset");
        let scores: Vec<RunScores> = (1..=2)
            .map(|run| {
                let file = run_file(&dataset, "M", run, 1, seed * 10 + u64::from(run));
                score_run(&parse_run(&file, &dataset).expect("a run"), &dataset)
            })
            .collect();
        let view = evalscope_view(&scores);
        // evalscope's subset figures: the items of both runs pooled.
        let mut subsets = Vec::new();
        let mut skip = false;
        for task in Task::ALL {
            let parts: Vec<(f64, usize)> = scores
                .iter()
                .filter_map(|s| s.tasks.get(&task))
                .filter_map(|t| t.acc.map(|a| (a, t.scored)))
                .collect();
            let num: usize = parts.iter().map(|p| p.1).sum();
            let pooled = parts.iter().map(|&(a, n)| a * n as f64).sum::<f64>() / num as f64;
            let run_means = parts.iter().map(|p| p.0).sum::<f64>() / parts.len() as f64;
            skip |= near_tie(pooled) || near_tie(run_means);
            let row = view
                .rows
                .iter()
                .find(|r| r.subset == Some(task))
                .expect("row");
            assert_eq!(row.num, num, "seed {seed} {task}");
            if !skip {
                assert_eq!(
                    row.acc.map(|m| m.mean),
                    Some(round4(pooled)),
                    "seed {seed} {task}"
                );
                if !pooled_differs && round4(pooled) != round4(run_means) {
                    eprintln!(
                        "seed {seed} {task}: pooled {pooled:.6}, mean of run means {run_means:.6}"
                    );
                    pooled_differs = true;
                }
            }
            subsets.push((pooled, num));
        }
        let all: f64 = subsets.iter().map(|&(s, n)| s * n as f64).sum::<f64>()
            / subsets.iter().map(|s| s.1).sum::<usize>() as f64;
        if skip || near_tie(all) {
            continue;
        }
        let overall = report_overall(&subsets);
        let row = view.rows.last().expect("OVERALL");
        assert_eq!(row.acc.map(|m| m.mean), Some(overall), "seed {seed}");
        if !rounding_differs && round4(all) != overall {
            eprintln!("seed {seed}: per-sample mean {all:.6}, evalscope's OVERALL {overall:.4}");
            rounding_differs = true;
        }
        if pooled_differs && rounding_differs {
            return;
        }
    }
    panic!("no seed exercised both (pooled {pooled_differs}, rounding {rounding_differs})");
}
