//! Importing evalscope's PLawBench output (`docs/benchmarks/plawbench.md`
//! §B6): the files of an output directory or of a zip archive of one are
//! read ([`read_dir`], [`read_zip`]), grouped into one folder per model
//! (`engine::plawbench::evalscope::layout`), converted into run files per
//! generation with the reconciliation report ([`prepare`]: nothing stored
//! yet, what the upload page shows first), checked against what is stored
//! as the store would check it ([`plan`]: the dry run of `--check` and
//! `?check=true`), then stored through the one ingest in one transaction
//! ([`store`]): every run of every folder, or none.
//!
//! # Limits (an archive is never trusted)
//!
//! Every path that reads evalscope output (`POST /api/evalscope`, which the
//! upload page calls, and `lexpilot import-evalscope` with a folder or a
//! .zip) reads it through one budgeted reader: each wanted file is
//! decompressed as a stream, in chunks, its bytes counted as they come, and
//! the import is refused as soon as one file passes [`MAX_MEMBER_BYTES`] or
//! all files together pass [`MAX_BYTES`], naming the file; no member's
//! declared size is believed (a declared size over a limit is refused
//! before reading, a false small one is caught by the count), and no buffer
//! grows past the limit. An archive of more than [`MAX_ENTRIES`] entries is
//! refused. At most [`MAX_IMPORTS_AT_ONCE`] imports run at once on a
//! server ([`ImportGate`]); the next waits up to [`IMPORT_WAIT`], then is
//! refused with 503 and `Retry-After`.

use std::io::{Read, Seek};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use db::datasets::DatasetInfo;
use db::runs::{OnDuplicate, RunInfo};
use db::Db;
use engine::benchmark::Benchmark;
use engine::plawbench::evalscope::{self, layout, FolderPreview, ImportOptions, ImportPreview};
use engine::plawbench::run::Run;
use engine::plawbench::PLawBench;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::{Error, Result};
use crate::ingest::{blocking, store_scored, Hosted, Scored, StorePlan};

const MIB: u64 = 1024 * 1024;
/// The most decompressed bytes of one file of an output folder or archive.
pub const MAX_MEMBER_BYTES: u64 = 32 * MIB;
/// The most decompressed bytes of all the files read from one output folder
/// or archive.
pub const MAX_BYTES: u64 = 128 * MIB;
/// The most entries (files and folders) an archive may list.
pub const MAX_ENTRIES: usize = 10_000;
/// The most evalscope imports one server runs at once.
pub const MAX_IMPORTS_AT_ONCE: usize = 2;
/// How long an import waits for its turn before it is refused (503).
pub const IMPORT_WAIT: Duration = Duration::from_secs(5);
/// The size of the chunks a file is decompressed in.
const CHUNK: usize = 64 * 1024;

/// The bound on evalscope imports running at once on this server (see the
/// module docs); cheap to clone, one bound shared.
#[derive(Debug, Clone)]
pub struct ImportGate {
    permits: Arc<Semaphore>,
    at_once: usize,
    wait: Duration,
}

impl Default for ImportGate {
    fn default() -> Self {
        ImportGate::new(MAX_IMPORTS_AT_ONCE, IMPORT_WAIT)
    }
}

impl ImportGate {
    /// At most `at_once` imports at a time, the next waiting up to `wait`.
    pub fn new(at_once: usize, wait: Duration) -> ImportGate {
        let at_once = at_once.max(1);
        ImportGate {
            permits: Arc::new(Semaphore::new(at_once)),
            at_once,
            wait,
        }
    }

    /// A turn to import, held until the permit is dropped; after waiting
    /// in vain, [`Error::Overloaded`] (503 with `Retry-After`).
    pub async fn enter(&self) -> Result<OwnedSemaphorePermit> {
        match tokio::time::timeout(self.wait, self.permits.clone().acquire_owned()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(Error::Overloaded(format!(
                "{} evalscope imports are under way, the most this server runs at once; \
                 try again in a few seconds",
                self.at_once
            ))),
        }
    }
}

/// Whether a file can be part of evalscope's PLawBench output (the rest of a
/// folder, logs and other benchmarks, is not read).
fn wanted(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name == "task_config.yaml"
        || name == "plawbench.json"
        || (name.starts_with("plawbench_") && name.ends_with(".jsonl"))
}

/// The decompressed bytes read so far from one output, against
/// [`MAX_BYTES`].
#[derive(Debug, Default)]
struct Budget {
    total: u64,
}

fn mib(bytes: u64) -> u64 {
    bytes / MIB
}

impl Budget {
    /// Refuses file `path` when its `size` (declared or counted so far)
    /// passes a limit.
    fn check(&self, path: &str, size: u64, what: &str) -> Result<()> {
        if size > MAX_MEMBER_BYTES {
            return Err(Error::Invalid(format!(
                "{path}: {what} more than {} MiB, the limit for one file; nothing was imported",
                mib(MAX_MEMBER_BYTES)
            )));
        }
        if self.total.saturating_add(size) > MAX_BYTES {
            return Err(Error::Invalid(format!(
                "{path}: with this file the evalscope output {what_all} more than {} MiB, the \
                 limit for one import; nothing was imported",
                mib(MAX_BYTES),
                what_all = if what.starts_with("declares") {
                    "declares"
                } else {
                    "holds"
                }
            )));
        }
        Ok(())
    }

    /// The text of file `path` read from `reader` in chunks, refused as
    /// soon as it passes a limit (the buffer never grows past
    /// [`MAX_MEMBER_BYTES`]); `declared` is the size the archive or file
    /// system gives, checked first but not believed.
    fn read(&mut self, path: &str, declared: u64, mut reader: impl Read) -> Result<String> {
        self.check(path, declared, "declares")?;
        let mut bytes: Vec<u8> = Vec::new();
        let mut chunk = vec![0u8; CHUNK];
        loop {
            let n = match reader.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::Invalid(format!("{path} cannot be read: {e}"))),
            };
            let len = bytes.len() + n;
            self.check(path, len as u64, "decompresses to")?;
            if len > bytes.capacity() {
                let grown = (bytes.capacity() * 2)
                    .max(len)
                    .min(MAX_MEMBER_BYTES as usize);
                bytes.reserve_exact(grown - bytes.len());
            }
            bytes.extend_from_slice(&chunk[..n]);
        }
        self.total += bytes.len() as u64;
        String::from_utf8(bytes)
            .map_err(|_| Error::Invalid(format!("{path}: the file is not UTF-8 text")))
    }
}

/// The files under directory `root` that evalscope's PLawBench output may
/// hold, with paths relative to `root`, in name order; read within the
/// limits of the module docs.
pub fn read_dir(root: &Path) -> Result<Vec<(String, String)>> {
    let mut files = Vec::new();
    let mut budget = Budget::default();
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
                let file = std::fs::File::open(&path)
                    .map_err(|e| Error::Invalid(format!("cannot read {relative}: {e}")))?;
                let declared = file.metadata().map_or(0, |m| m.len());
                let text = budget.read(&relative, declared, file)?;
                files.push((relative, text));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The same files from a zip archive of an output folder (the upload's
/// bytes, or the file itself), each decompressed as a stream within the
/// limits of the module docs.
pub fn read_zip(archive: impl Read + Seek) -> Result<Vec<(String, String)>> {
    let mut zip = zip::ZipArchive::new(archive)
        .map_err(|e| Error::Invalid(format!("the upload is not a zip archive: {e}")))?;
    if zip.len() > MAX_ENTRIES {
        return Err(Error::Invalid(format!(
            "the archive lists {} entries, more than the {MAX_ENTRIES} an evalscope output may \
             have; nothing was imported",
            zip.len()
        )));
    }
    let mut files = Vec::new();
    let mut budget = Budget::default();
    for i in 0..zip.len() {
        let entry = zip
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
        let declared = entry.size();
        let text = budget.read(&name, declared, entry)?;
        files.push((name, text));
    }
    files.sort();
    Ok(files)
}

/// [`read_zip`] of an upload held in memory, run off the async threads.
pub async fn read_upload(
    archive: impl AsRef<[u8]> + Send + 'static,
) -> Result<Vec<(String, String)>> {
    blocking(move || read_zip(std::io::Cursor::new(archive))).await?
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

/// The dry run of [`store`]: what storing `prepared` with `on_duplicate`
/// would do to each run, by the store's own checks on the stored state
/// ([`crate::ingest::plan`]), nothing written; the error the store would
/// answer (409 for a run already stored or given twice, 403 for one this
/// account may not replace) with what `--replace` or `--first-run` would
/// change. `first_run` is the number generation 0 was given.
pub async fn plan(
    db: &Db,
    dataset: &DatasetInfo,
    prepared: &Prepared,
    on_duplicate: OnDuplicate,
    first_run: u32,
) -> Result<StorePlan> {
    let keys: Vec<(String, u32)> = prepared
        .runs
        .iter()
        .map(|run| {
            let meta = <PLawBench as engine::benchmark::Suite>::meta(run);
            (meta.model, meta.run)
        })
        .collect();
    crate::ingest::plan(db, dataset, &keys, on_duplicate, Some(first_run))
        .await?
        .or_refusal()
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

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    /// A reader that counts the bytes taken from it.
    struct Counted<R> {
        inner: R,
        taken: u64,
    }

    impl<R: Read> Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.taken += n as u64;
            Ok(n)
        }
    }

    #[test]
    fn a_file_is_refused_as_soon_as_it_passes_the_limit_whatever_it_declares() {
        let mut budget = Budget::default();
        let mut endless = Counted {
            inner: std::io::repeat(0).take(64 * MAX_MEMBER_BYTES),
            taken: 0,
        };
        let error = budget
            .read("r/m/plawbench_x.jsonl", 10, &mut endless)
            .expect_err("refused");
        assert!(
            error
                .to_string()
                .starts_with("r/m/plawbench_x.jsonl: decompresses to more than"),
            "{error}"
        );
        assert!(
            endless.taken <= MAX_MEMBER_BYTES + CHUNK as u64,
            "{}",
            endless.taken
        );

        let declared = budget
            .read("big.jsonl", MAX_MEMBER_BYTES + 1, std::io::empty())
            .expect_err("refused on its declaration");
        assert!(
            declared.to_string().contains("declares more than"),
            "{declared}"
        );
    }

    #[test]
    fn files_under_the_limit_count_against_the_total() {
        let mut budget = Budget::default();
        let each = MAX_MEMBER_BYTES - 1;
        let files = MAX_BYTES.div_ceil(each);
        for i in 0..files - 1 {
            let text = budget
                .read(&format!("f{i}"), 0, std::io::repeat(b'a').take(each))
                .expect("under the limits");
            assert_eq!(text.len() as u64, each);
            assert!(text.capacity() as u64 <= MAX_MEMBER_BYTES);
        }
        let error = budget
            .read("last", 0, std::io::repeat(b'a').take(each))
            .expect_err("over the total");
        assert!(
            error.to_string().contains("the limit for one import"),
            "{error}"
        );
    }
}
