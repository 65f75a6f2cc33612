//! An evalscope output folder from its files: the texts found under it,
//! each with its path relative to wherever the user pointed (a directory
//! or a zip archive of one), grouped into one [`Folder`] per model and run
//! folder (§B6.1):
//!
//! ```text
//! [<anything>/][<YYYYMMDD_HHMMSS>/]configs/task_config.yaml
//!                                 predictions/<model_id>/plawbench_<subset>.jsonl
//!                                 reviews/<model_id>/plawbench_<subset>.jsonl
//!                                 reports/<model_id>/plawbench.json
//! ```
//!
//! Files of other benchmarks and logs are passed over. A folder with no
//! review file is refused: a report alone has no items (→C-P10).
//!
//! ```
//! use engine::plawbench::dataset::Task;
//! use engine::plawbench::evalscope::layout::folders;
//!
//! let files = vec![
//!     ("out/20261201_100000/reviews/qwen-plus/plawbench_case_analysis.jsonl".to_owned(), "{}".to_owned()),
//!     ("out/20261201_100000/reports/qwen-plus/plawbench.json".to_owned(), "{}".to_owned()),
//!     ("out/20261201_100000/configs/task_config.yaml".to_owned(), "model: qwen-plus".to_owned()),
//!     ("out/20261201_100000/logs/eval_log.log".to_owned(), "…".to_owned()),
//! ];
//! let found = folders(&files).unwrap();
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].model_id, "qwen-plus");
//! assert_eq!(found[0].timestamp.as_deref(), Some("20261201_100000"));
//! assert_eq!(found[0].subsets[0].task, Task::CaseAnalysis);
//! assert!(found[0].report.is_some() && found[0].task_config.is_some());
//! ```

use super::{subset_task, Folder, ImportError, ImportErrors, SubsetFiles};

/// Where a file sits: the run folder (everything before the evalscope
/// folder name), the evalscope folder name, and the rest.
fn split(path: &str) -> Option<(Vec<&str>, &str, Vec<&str>)> {
    let parts: Vec<&str> = path
        .split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let at = parts
        .iter()
        .rposition(|p| matches!(*p, "configs" | "predictions" | "reviews" | "reports"))?;
    Some((parts[..at].to_vec(), parts[at], parts[at + 1..].to_vec()))
}

/// Whether `name` is an evalscope timestamp folder (`20261201_100000`).
fn is_timestamp(name: &str) -> bool {
    name.len() == 15
        && name
            .char_indices()
            .all(|(i, c)| if i == 8 { c == '_' } else { c.is_ascii_digit() })
}

/// The [`Folder`]s the files make up, in order of first appearance; every
/// problem (a folder with a report but no reviews, two copies of one file)
/// named by its path.
pub fn folders(files: &[(String, String)]) -> Result<Vec<Folder>, ImportErrors> {
    type Key = (String, String);
    let mut found: Vec<(Key, Folder)> = Vec::new();
    let mut configs: Vec<(String, String)> = Vec::new();
    let mut errors: Vec<ImportError> = Vec::new();
    let error = |errors: &mut Vec<ImportError>, file: &str, message: String| {
        errors.push(ImportError {
            file: file.to_owned(),
            line: 0,
            item_id: None,
            field: String::new(),
            message,
        })
    };
    for (path, text) in files {
        let Some((root, kind, rest)) = split(path) else {
            continue;
        };
        let root_key = root.join("/");
        if kind == "configs" {
            if rest == ["task_config.yaml"] {
                configs.push((root_key, text.clone()));
            }
            continue;
        }
        let [model_id, file] = rest[..] else { continue };
        let key = (root_key.clone(), model_id.to_owned());
        let at = match found.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                let timestamp = root
                    .last()
                    .filter(|n| is_timestamp(n))
                    .map(|n| (*n).to_owned());
                found.push((
                    key,
                    Folder {
                        model_id: model_id.to_owned(),
                        timestamp,
                        ..Folder::default()
                    },
                ));
                found.len() - 1
            }
        };
        let folder = &mut found[at].1;
        match (kind, subset_task(file)) {
            ("reports", _) if file == "plawbench.json" && folder.report.is_some() => error(
                &mut errors,
                path,
                "a second report of this model and run folder".into(),
            ),
            ("reports", _) if file == "plawbench.json" => folder.report = Some(text.clone()),
            ("reviews", Some(task)) => match folder.subsets.iter_mut().find(|s| s.task == task) {
                Some(s) if !s.reviews.is_empty() => error(
                    &mut errors,
                    path,
                    "a second review file of this subset".into(),
                ),
                Some(s) => s.reviews = text.clone(),
                None => folder.subsets.push(SubsetFiles {
                    task,
                    predictions: None,
                    reviews: text.clone(),
                }),
            },
            ("predictions", Some(task)) => {
                match folder.subsets.iter_mut().find(|s| s.task == task) {
                    Some(s) if s.predictions.is_some() => error(
                        &mut errors,
                        path,
                        "a second prediction file of this subset".into(),
                    ),
                    Some(s) => s.predictions = Some(text.clone()),
                    None => folder.subsets.push(SubsetFiles {
                        task,
                        predictions: Some(text.clone()),
                        reviews: String::new(),
                    }),
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for ((root, model_id), mut folder) in found {
        if folder.report.is_none() && folder.subsets.is_empty() {
            continue;
        }
        let place = if root.is_empty() {
            model_id.clone()
        } else {
            format!("{root}/…/{model_id}")
        };
        if folder.subsets.iter().all(|s| s.reviews.is_empty()) {
            error(
                &mut errors,
                &place,
                "no reviews/<model_id>/plawbench_<subset>.jsonl: evalscope's reviews are needed \
                 (a report alone has no items to import)"
                    .into(),
            );
            continue;
        }
        if let Some(s) = folder.subsets.iter().find(|s| s.reviews.is_empty()) {
            error(
                &mut errors,
                &place,
                format!(
                    "predictions of {} without its reviews file",
                    s.task.as_str()
                ),
            );
            continue;
        }
        folder.task_config = configs
            .iter()
            .find(|(r, _)| *r == root)
            .map(|(_, t)| t.clone());
        folder.subsets.sort_by_key(|s| s.task);
        out.push(folder);
    }
    if out.is_empty() && errors.is_empty() {
        error(
            &mut errors,
            "",
            "no evalscope PLawBench output found: expected reviews/<model_id>/plawbench_<subset>.jsonl".into(),
        );
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(ImportErrors(errors))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str) -> (String, String) {
        (path.to_owned(), format!("text of {path}"))
    }

    #[test]
    fn two_models_of_one_run_folder_are_two_folders_sharing_the_config() {
        let files = vec![
            file("20261201_100000/configs/task_config.yaml"),
            file("20261201_100000/reviews/a/plawbench_legal_consultation.jsonl"),
            file("20261201_100000/predictions/a/plawbench_legal_consultation.jsonl"),
            file("20261201_100000/reviews/b/plawbench_case_analysis.jsonl"),
            file("20261201_100000/reviews/b/notes.txt"),
            file("20261201_100000/reviews/b/other_bench_case_analysis.jsonl"),
        ];
        let found = folders(&files).expect("folders");
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].model_id, "a");
        assert!(found[0].subsets[0].predictions.is_some());
        assert_eq!(found[1].subsets.len(), 1);
        assert!(found.iter().all(|f| f.task_config.is_some()));
    }

    #[test]
    fn a_report_without_reviews_and_an_empty_archive_are_refused() {
        let err = folders(&[file("x/reports/m/plawbench.json")]).expect_err("refused");
        assert!(
            err.to_string().contains("a report alone has no items"),
            "{err}"
        );
        let err = folders(&[file("readme.md")]).expect_err("refused");
        assert!(
            err.to_string().contains("no evalscope PLawBench output"),
            "{err}"
        );
        let err =
            folders(&[file("r/predictions/m/plawbench_case_analysis.jsonl")]).expect_err("refused");
        assert!(
            err.to_string().contains("evalscope's reviews are needed"),
            "{err}"
        );
    }

    #[test]
    fn windows_separators_and_no_timestamp_folder_are_fine() {
        let found =
            folders(&[file("out\\reviews\\m\\plawbench_case_analysis.jsonl")]).expect("folders");
        assert_eq!(
            (found[0].model_id.as_str(), found[0].timestamp.as_deref()),
            ("m", None)
        );
    }
}
