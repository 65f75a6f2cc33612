//! PLawBench's official release as released (`docs/benchmarks/plawbench.md`
//! §B1.2) at the command line, on a real SQLite file: the folder (or its
//! four data files) imports as items with evalscope's ids, a warning for
//! each derived maximum, and a wrong field type in any file names the file,
//! line and field and stores nothing. The fixture is hand-written in the
//! release's layout; the release's own files carry no licence.

mod common;

use std::path::Path;

use common::cli::{lexpilot, text};
use engine::plawbench::dataset::Item;

const RELEASE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine/tests/fixtures/plawbench/release"
);

const FILES: [&str; 4] = [
    "practical_case_analysis_250.jsonl",
    "public_legal_consultation_18.json",
    "Plantiffs_Statement.json",
    "Defendants_Statement.json",
];

async fn count(db: &str, table: &str) -> i64 {
    let db = db::Db::open(Path::new(db)).await.expect("open");
    sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(db.pool())
        .await
        .expect("count")
}

async fn stored_items(db: &str) -> Vec<Item> {
    let db = db::Db::open(Path::new(db)).await.expect("open");
    let dataset = db::datasets::current(&db, engine::benchmark::Benchmark::Plawbench)
        .await
        .expect("query")
        .expect("a plawbench dataset");
    db::items::all::<Item>(&db, dataset.id)
        .await
        .expect("items")
        .as_ref()
        .clone()
}

#[tokio::test]
async fn the_release_folder_imports_with_evalscopes_ids_and_a_warning_per_derived_maximum() {
    let dir = tempfile::tempdir().expect("dir");
    let db = db::Db::location_for_test(&dir.path().join("t.db"))
        .await
        .expect("a fresh database");
    let out = lexpilot(
        &["import", RELEASE, "--benchmark", "plawbench", "--db", &db],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("imported 7 items as dataset PLawBench version 1 (plawbench)"),
        "{}",
        text(&out.stdout)
    );
    let warnings: Vec<String> = text(&out.stderr)
        .lines()
        .filter(|l| l.contains("warning:"))
        .map(str::to_owned)
        .collect();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(
        warnings[1].ends_with(
            "public_legal_consultation_18.json: warning: line 12 (legal_consultation-2), field score: is empty; max_points 6 is the sum of the rubric's 3 (+N分) marks, as it has no 总分 line"
        ),
        "{warnings:?}"
    );
    assert!(
        warnings[2].contains("its 3 (+N分) marks add up to 7"),
        "{warnings:?}"
    );

    let items = stored_items(&db).await;
    let ids: Vec<(&str, u32)> = items
        .iter()
        .map(|i| (i.item_id.as_str(), i.max_points))
        .collect();
    assert_eq!(
        ids,
        [
            ("case_analysis-1", 30),
            ("case_analysis-2", 30),
            ("legal_consultation-1", 8),
            ("legal_consultation-2", 6),
            ("legal_consultation-3", 6),
            ("plaintiff_statement-1", 100),
            ("defendant_statement-1", 80),
        ]
    );
    assert_eq!(items[0].category.as_deref(), Some("婚姻家事"));
    assert_eq!(items[2].context, "");

    // The four files named one by one are the same content.
    let files: Vec<String> = FILES.iter().map(|f| format!("{RELEASE}/{f}")).collect();
    let mut args = vec!["import"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--benchmark", "plawbench", "--db", &db]);
    let out = lexpilot(&args, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("unchanged"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(count(&db, "datasets").await, 1);
}

/// A copy of the fixture folder with `from` replaced by `to` in `file`.
fn broken_copy(dir: &Path, file: &str, from: &str, to: &str) -> String {
    let copy = dir.join(format!("broken-{file}"));
    std::fs::create_dir_all(&copy).expect("dir");
    for name in FILES {
        let mut text = std::fs::read_to_string(format!("{RELEASE}/{name}")).expect("read");
        if name == file {
            assert!(text.contains(from), "{from}");
            text = text.replacen(from, to, 1);
        }
        std::fs::write(copy.join(name), text).expect("write");
    }
    copy.to_string_lossy().into_owned()
}

#[tokio::test]
async fn a_wrong_field_type_in_any_release_file_names_file_line_and_field_and_stores_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let db = db::Db::location_for_test(&dir.path().join("t.db"))
        .await
        .expect("a fresh database");
    let cases = [
        (
            FILES[0],
            r#""points": "10""#,
            r#""points": ["10"]"#,
            "practical_case_analysis_250.jsonl: line 1 (case_analysis-1), field rubrics[1].points: expected a number ≥ 0 or a string holding one, got an array",
        ),
        (
            FILES[1],
            r#""score": """#,
            r#""score": "8分""#,
            "public_legal_consultation_18.json: line 6 (legal_consultation-1), field score: expected a whole number ≥ 1, or \"\" to derive it from the rubric, got \"8分\"",
        ),
        (
            FILES[2],
            r#""conversation": "#,
            r#""conversation": null, "c": "#,
            "Plantiffs_Statement.json: line 5 (plaintiff_statement-1), field conversation: expected a string, got null",
        ),
        (
            FILES[3],
            r#""score": 80"#,
            r#""score": 80.5"#,
            "Defendants_Statement.json: line 7 (defendant_statement-1), field score: expected a whole number ≥ 1, or \"\" to derive it from the rubric, got 80.5",
        ),
    ];
    for (file, from, to, expected) in cases {
        let folder = broken_copy(dir.path(), file, from, to);
        let out = lexpilot(
            &["import", &folder, "--benchmark", "plawbench", "--db", &db],
            None,
        );
        assert!(!out.status.success(), "{file} refused");
        let err = text(&out.stderr);
        assert!(err.contains(expected), "{file}: {err}");
        assert!(err.contains("nothing was imported"), "{err}");
        assert_eq!(count(&db, "datasets").await, 0, "{file}: nothing stored");
        assert_eq!(count(&db, "items").await, 0);
    }
}
