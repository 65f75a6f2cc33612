//! Importing evalscope's PLawBench output (`docs/benchmarks/plawbench.md`
//! §B6): the files of an output directory or of a zip archive of one are
//! read ([`read_dir`], [`read_zip`]), grouped into one folder per model
//! (`engine::plawbench::evalscope::layout`), converted into run files per
//! generation with the reconciliation report ([`prepare`]: nothing stored
//! yet, what the upload page shows first), then stored through the one
//! ingest in one transaction ([`store`]): every run of every folder, or
//! none.

use std::io::Read;
use std::path::Path;

use db::datasets::DatasetInfo;
use db::runs::{OnDuplicate, RunInfo};
use db::Db;
use engine::benchmark::Benchmark;
use engine::plawbench::evalscope::{self, layout, FolderPreview, ImportOptions, ImportPreview};
use engine::plawbench::run::Run;
use engine::plawbench::PLawBench;

use crate::error::{Error, Result};
use crate::ingest::{blocking, store_scored, Hosted, Scored};

/// The most bytes of files read from one output folder or archive.
pub const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// Whether a file can be part of evalscope's PLawBench output (the rest of a
/// folder, logs and other benchmarks, is not read).
fn wanted(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name == "task_config.yaml"
        || name == "plawbench.json"
        || (name.starts_with("plawbench_") && name.ends_with(".jsonl"))
}

fn add(
    files: &mut Vec<(String, String)>,
    total: &mut u64,
    path: String,
    bytes: Vec<u8>,
) -> Result<()> {
    *total += bytes.len() as u64;
    if *total > MAX_BYTES {
        return Err(Error::Invalid(format!(
            "the evalscope output is larger than {} MiB",
            MAX_BYTES / (1024 * 1024)
        )));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::Invalid(format!("{path}: the file is not UTF-8 text")))?;
    files.push((path, text));
    Ok(())
}

/// The files under directory `root` that evalscope's PLawBench output may
/// hold, with paths relative to `root`, in name order.
pub fn read_dir(root: &Path) -> Result<Vec<(String, String)>> {
    let mut files = Vec::new();
    let mut total = 0;
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .map_err(|e| Error::Invalid(format!("cannot read {}: {e}", dir.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for path in entries {
            let relative = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                pending.push(path);
            } else if wanted(&relative) {
                let bytes = std::fs::read(&path)
                    .map_err(|e| Error::Invalid(format!("cannot read {relative}: {e}")))?;
                add(&mut files, &mut total, relative, bytes)?;
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The same files from a zip archive of an output folder.
pub fn read_zip(archive: &[u8]) -> Result<Vec<(String, String)>> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(archive))
        .map_err(|e| Error::Invalid(format!("the upload is not a zip archive: {e}")))?;
    let mut files = Vec::new();
    let mut total = 0;
    for i in 0..zip.len() {
        let mut entry = zip
            .by_index(i)
            .map_err(|e| Error::Invalid(format!("entry {i} of the archive cannot be read: {e}")))?;
        let name = entry
            .name()
            .map_err(|e| {
                Error::Invalid(format!("entry {i} of the archive has no usable name: {e}"))
            })?
            .into_owned();
        if entry.is_dir() || !wanted(&name) {
            continue;
        }
        if total + entry.size() > MAX_BYTES {
            return Err(Error::Invalid(format!(
                "the evalscope output is larger than {} MiB",
                MAX_BYTES / (1024 * 1024)
            )));
        }
        let mut bytes = Vec::new();
        entry
            .by_ref()
            .take(MAX_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::Invalid(format!("{name} cannot be read from the archive: {e}")))?;
        add(&mut files, &mut total, name, bytes)?;
    }
    files.sort();
    Ok(files)
}

/// What an import would store: the runs of every folder, converted and
/// validated, and the preview people read first.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub preview: ImportPreview,
    pub runs: Vec<Run>,
}

/// Converts the output in `files` into runs on PLawBench version `dataset`
/// (see the module docs); stores nothing. Every error with file, line, item
/// and field is [`Error::InvalidImport`].
pub async fn prepare(
    db: &Db,
    dataset: &DatasetInfo,
    files: Vec<(String, String)>,
    options: ImportOptions,
) -> Result<Prepared> {
    if dataset.benchmark() != Some(Benchmark::Plawbench) {
        return Err(Error::Invalid(format!(
            "dataset {} is a {} dataset; evalscope output is imported into a plawbench one",
            dataset.name, dataset.benchmark
        )));
    }
    let items = PLawBench::cases(db, dataset.id).await?;
    let options = ImportOptions {
        dataset: options.dataset.or_else(|| Some(dataset.name.clone())),
        ..options
    };
    let (folders, runs) = blocking(move || -> Result<(Vec<FolderPreview>, Vec<Run>)> {
        let folders = layout::folders(&files).map_err(Error::InvalidImport)?;
        let (mut previews, mut runs, mut errors) = (Vec::new(), Vec::new(), Vec::new());
        for folder in &folders {
            match evalscope::import_folder(folder, &items, &options) {
                Ok(imported) => {
                    previews.push(FolderPreview::of(&folder.model_id, &imported));
                    runs.extend(imported.runs);
                }
                Err(e) => errors.extend(e.0),
            }
        }
        if errors.is_empty() {
            Ok((previews, runs))
        } else {
            Err(Error::InvalidImport(evalscope::ImportErrors(errors)))
        }
    })
    .await??;
    Ok(Prepared {
        preview: ImportPreview {
            dataset: dataset.name.clone(),
            dataset_version: dataset.version,
            folders,
        },
        runs,
    })
}

/// Stores every run of `prepared` (from [`prepare`] on `dataset`) through
/// the one ingest, in one transaction.
pub async fn store(
    db: &Db,
    dataset: &DatasetInfo,
    prepared: Prepared,
    uploaded_by: Option<i64>,
    on_duplicate: OnDuplicate,
) -> Result<Vec<(RunInfo, serde_json::Value)>> {
    let items = PLawBench::cases(db, dataset.id).await?;
    let runs = prepared.runs;
    let scored = blocking(move || {
        runs.into_iter()
            .map(|run| {
                let scores = engine::plawbench::score::score_run(&run, &items);
                Scored { run, scores }
            })
            .collect::<Vec<Scored<PLawBench>>>()
    })
    .await?;
    store_scored::<PLawBench>(db, dataset, &scored, uploaded_by, on_duplicate).await
}
