//! The synthetic DLawBench demo shipped with the server
//! (`server/data/dlawbench/`, made by its `generate.py`): the dataset and
//! the nine simulated runs parse and score, the style gap shows, and every
//! leaderboard view, export and drill-down is built from them.

use std::path::{Path, PathBuf};

use engine::benchmark::Suite;
use engine::core::entry::EntryKey;
use engine::dlawbench::dataset::{stats, Case, Jurisdiction, Language, Style};
use engine::dlawbench::drilldown::{cell_sessions, session_detail, Level};
use engine::dlawbench::leaderboard::{
    caption, diagnostics, domain_table, domain_to_csv, main_table, rank_order, style_table, to_csv,
    to_latex, TableView,
};
use engine::dlawbench::run::Run;
use engine::dlawbench::score::{Metric, RunScores, ScoreDocument, View};
use engine::dlawbench::DLawBench;

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/data/dlawbench")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

struct Demo {
    dataset: Vec<Case>,
    runs: Vec<Run>,
    scored: Vec<(EntryKey, RunScores)>,
    doc: ScoreDocument,
}

fn load() -> Demo {
    let dataset = DLawBench::parse_dataset(&read(&demo().join("demo.jsonl")))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut names: Vec<PathBuf> = std::fs::read_dir(demo().join("runs"))
        .expect("runs/")
        .map(|e| e.expect("an entry").path())
        .collect();
    names.sort();
    assert_eq!(names.len(), 9);
    let runs: Vec<Run> = names
        .iter()
        .map(|path| {
            DLawBench::parse_run(read(path).as_bytes(), &dataset)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .collect();
    let scored: Vec<(EntryKey, RunScores)> = runs
        .iter()
        .map(|r| (DLawBench::meta(r).entry_key, DLawBench::score(r, &dataset)))
        .collect();
    let doc =
        DLawBench::summarise(scored.clone(), &dataset).with_dataset("dlawbench-demo-synthetic");
    Demo {
        dataset,
        runs,
        scored,
        doc,
    }
}

#[test]
fn the_demo_dataset_is_synthetic_and_bilingual() {
    let d = load();
    assert_eq!(d.dataset.len(), 12);
    for case in &d.dataset {
        assert!(case.case_id.starts_with("DL-SYN-"), "{}", case.case_id);
        let notes = case.notes.as_ref().and_then(|n| n.as_str()).unwrap_or("");
        assert!(
            notes.to_lowercase().contains("synthetic"),
            "{}",
            case.case_id
        );
        let language = match case.jurisdiction {
            Jurisdiction::Cn => Language::Zh,
            Jurisdiction::Us => Language::En,
        };
        assert_eq!(case.language, language);
        assert!(case.disputed() >= 1);
    }
    let s = stats(&d.dataset);
    assert_eq!((s.all.cases, s.all.cells), (12, 48));
    assert_eq!(s.by_jurisdiction[&Jurisdiction::Cn].cases, 6);
    assert!(s.domains.len() >= 8);
}

#[test]
fn the_demo_runs_score_with_a_visible_style_gap() {
    let d = load();
    assert_eq!(d.doc.entries.len(), 3);
    for (run, (_, scores)) in d.runs.iter().zip(&d.scored) {
        assert!(run.header.model.ends_with("(simulated)"));
        assert!(scores.complete());
        for view in View::ALL {
            let overall = scores.view(view).overall.as_ref().expect("overall");
            for (metric, value) in overall {
                let value = value.unwrap_or_else(|| panic!("{}: no {metric}", run.header.model));
                assert!((0.0..=1.0).contains(&value), "{metric} {value}");
            }
        }
    }
    for entry in &d.doc.entries {
        assert_eq!(entry.runs, 3);
        let e = entry
            .overall(Metric::Elicitation, View::NullAsZero)
            .expect("overall");
        assert!(e.std.is_some());
        for style in [Style::Dependent, Style::Withdrawn, Style::Adversarial] {
            let gap = entry.null_as_zero.style_gap[&style][&Metric::Elicitation].expect("a gap");
            assert!(gap.mean < 0.0, "{} {style}: {}", entry.model, gap.mean);
        }
    }
    let resolution = |prefix: &str| {
        d.doc
            .entries
            .iter()
            .find(|e| e.model.starts_with(prefix))
            .and_then(|e| e.overall(Metric::Resolution, View::NullAsZero))
            .map(|m| m.mean)
            .unwrap_or_else(|| panic!("no {prefix}"))
    };
    let (legal, open, closed) = (
        resolution("Sim-LexCounsel"),
        resolution("Sim-OpenLaw"),
        resolution("Sim-Frontier"),
    );
    assert!(legal < open && open < closed, "{legal} {open} {closed}");
    // The frontier model's vendor has a judge, which recuses.
    let frontier = &d.doc.entries[rank_order(&d.doc)[0]];
    assert!(frontier.model.starts_with("Sim-Frontier"));
    assert_eq!(frontier.diagnostics.judges[0].scored, 0);
    assert_eq!(frontier.counts.recused_seats, frontier.counts.judged);
}

#[test]
fn every_view_and_export_is_built_from_the_demo() {
    let d = load();
    let table = main_table(&d.doc, &TableView::default());
    assert_eq!(table.rows.len(), 3);
    assert_eq!(table.rows[0].rank, Some(1));
    assert!(table
        .rows
        .iter()
        .all(|r| r.cells.iter().all(Option::is_some)));
    assert!((0..7).all(|c| (0..3).any(|r| table.is_best(r, c))));
    let valid = main_table(&d.doc, &TableView::from_query(Some("valid_only"), None));
    for (a, b) in table.rows.iter().zip(&valid.rows) {
        assert_eq!(a.model, b.model);
    }
    for j in Jurisdiction::ALL {
        let t = main_table(
            &d.doc,
            &TableView {
                view: View::NullAsZero,
                jurisdiction: Some(j),
            },
        );
        assert!(t.rows.iter().all(|r| r.cells[3].is_some()));
    }
    let csv = to_csv(&table);
    assert_eq!(csv.lines().count(), 4);
    let tex = to_latex(&table, &caption(&table));
    assert!(tex.contains("Sim-Frontier-5 (simulated)") && tex.contains("\\textbf{"));

    let styles = style_table(&d.doc, View::NullAsZero);
    assert_eq!(styles.summary.len(), 4);
    let card = |s: Style| styles.summary[&s][&Metric::Elicitation].expect("a mean");
    assert!(card(Style::Withdrawn) < card(Style::Cooperative));

    let domains = domain_table(&d.doc, &d.scored, View::NullAsZero, None);
    assert_eq!(domains.entries.len(), 3);
    assert!(domains.rows.len() >= 8);
    // Each case of a domain, in four styles and three runs.
    let labour = domains
        .rows
        .iter()
        .find(|r| r.domain == "labor")
        .expect("labor");
    // Two labour cases × four styles × three runs; no demo session is unavailable.
    assert_eq!(labour.cells[0][1].n, 2 * 4 * 3);
    assert!(domain_to_csv(&domains).starts_with("jurisdiction,domain,"));

    let diag = diagnostics(&d.doc);
    assert_eq!(diag.correlations.entries, 3);
    assert!(diag.correlations.elicitation_resolution.is_some());
    assert!(diag
        .rows
        .iter()
        .all(|r| r.diagnostics.conditional_correctness.is_some()));

    // A cell's sessions give back the run's value.
    let run = &d.runs[0];
    let scores = &d.scored[0].1;
    for (level, want) in [
        (
            Level::Overall,
            scores.null_as_zero.overall.as_ref().unwrap()[&Metric::Resolution],
        ),
        (
            Level::Style {
                style: Style::Withdrawn,
            },
            scores.null_as_zero.by_style[&Style::Withdrawn][&Metric::Resolution],
        ),
        (
            Level::Jurisdiction {
                jurisdiction: Jurisdiction::Us,
            },
            scores.null_as_zero.by_jurisdiction[&Jurisdiction::Us][&Metric::Resolution].mean,
        ),
    ] {
        let cell = cell_sessions(
            &d.dataset,
            &[run],
            Metric::Resolution,
            View::NullAsZero,
            &level,
        );
        let got = cell.runs[0].value.expect("a value");
        assert!((got - want.expect("a value")).abs() < 1e-12, "{level:?}");
    }
    let detail = session_detail(&d.dataset[0], run, 0).expect("the first session");
    assert_eq!(detail.judges.len(), 3);
    assert_eq!(detail.dialogue[0].turn, 0);
    assert!(detail.facts.iter().any(|f| f.disputed));
}
