//! What makes the reading pages fast: the versions of the site's static files
//! (so their links can be cached for a year) and the cache of the pages an
//! anonymous visitor gets, rendered once per data epoch and kept compressed.
//!
//! - [`Assets`]: a short content hash of every file of the built site, read
//!   once at start-up. Pages link `/v/<hash>/pkg/lexpilot.css`; the server
//!   serves such a link with a year's `Cache-Control` while the hash is the
//!   file's, so a new build is a new address.
//! - [`PageCache`]: rendered pages by URL, each with its gzip form and its
//!   `ETag`, valid for one [epoch](PageCache::epoch) of its benchmark's
//!   pages. The epoch goes up as a change such a page shows is committed
//!   (runs, datasets, reference figures, cases, review; another
//!   benchmark's runs, datasets and figures are not counted): at once
//!   when this process commits it (counted by the store before the writer
//!   returns), and when another process's change reaches this one's feed
//!   ([`db::events`]: within [`db::events::POLL`] on a SQLite file, by
//!   `NOTIFY` on PostgreSQL). Bounded in bytes; the oldest entries leave
//!   first.

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use db::Db;
use sha2::{Digest, Sha256};

use crate::flights::{Flight, Flights};

/// Hex digits of a content hash in an asset link.
const ASSET_HASH_LEN: usize = 12;

/// The built site's files with their content hashes, by URL path
/// (`/pkg/lexpilot.css`).
#[derive(Debug, Clone, Default)]
pub struct Assets {
    hashes: Arc<HashMap<String, String>>,
}

impl Assets {
    /// Hashes every file under `site_root` (none when it does not exist).
    pub fn scan(site_root: &Path) -> Assets {
        let mut hashes = HashMap::new();
        let mut dirs = vec![site_root.to_path_buf()];
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                // Precompressed copies are served for their original.
                if path.extension().is_some_and(|e| e == "gz" || e == "br") {
                    continue;
                }
                let (Ok(rel), Ok(bytes)) = (path.strip_prefix(site_root), std::fs::read(&path))
                else {
                    continue;
                };
                let url = format!("/{}", rel.to_string_lossy().replace('\\', "/"));
                hashes.insert(url, content_hash(&bytes));
            }
        }
        Assets {
            hashes: Arc::new(hashes),
        }
    }

    /// The versioned link of the file at `path` (`/v/<hash>/pkg/lexpilot.css`),
    /// or `path` itself for a file the site does not have.
    ///
    /// ```
    /// use services::pages::Assets;
    ///
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::create_dir(dir.path().join("pkg")).unwrap();
    /// std::fs::write(dir.path().join("pkg/site.css"), "body {}").unwrap();
    /// let assets = Assets::scan(dir.path());
    /// let url = assets.url("/pkg/site.css");
    /// assert!(url.starts_with("/v/") && url.ends_with("/pkg/site.css"), "{url}");
    /// assert_eq!(assets.resolve(&url), Some(("/pkg/site.css", true)));
    /// assert_eq!(assets.url("/missing.js"), "/missing.js");
    /// ```
    pub fn url(&self, path: &str) -> String {
        match self.hashes.get(path) {
            Some(hash) => format!("/v/{hash}{path}"),
            None => path.to_owned(),
        }
    }

    /// The file a versioned link names, and whether its hash is the file's
    /// current one (a link from a page of an older build is not); `None`
    /// for a path that is not a versioned link.
    pub fn resolve<'a>(&self, url_path: &'a str) -> Option<(&'a str, bool)> {
        let rest = url_path.strip_prefix("/v/")?;
        let (hash, _) = rest.split_once('/')?;
        let path = &rest[hash.len()..];
        Some((path, self.hashes.get(path).is_some_and(|h| h == hash)))
    }
}

fn content_hash(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    hex::encode(digest)[..ASSET_HASH_LEN].to_owned()
}

/// One rendered page, ready to send.
#[derive(Debug)]
pub struct CachedPage {
    /// The HTML.
    pub body: Bytes,
    /// The HTML, gzipped.
    pub gzip: Bytes,
    /// Its strong validator (quoted).
    pub etag: String,
    /// The epoch it was rendered at.
    pub epoch: u64,
}

impl CachedPage {
    /// The page of `html` at `epoch`, compressed and tagged.
    pub fn new(html: Bytes, epoch: u64) -> CachedPage {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        let gzip = gz
            .write_all(&html)
            .and_then(|()| gz.finish())
            .map(Bytes::from)
            .unwrap_or_default();
        CachedPage {
            etag: format!("\"{}\"", &hex::encode(Sha256::digest(&html))[..24]),
            body: html,
            gzip,
            epoch,
        }
    }

    fn size(&self) -> usize {
        self.body.len() + self.gzip.len()
    }
}

/// The bytes of pages kept at most.
pub const PAGE_CACHE_BYTES: usize = 64 * 1024 * 1024;

#[derive(Debug, Default)]
struct Entries {
    pages: HashMap<String, Arc<CachedPage>>,
    /// Keys in insertion order, for eviction (a key may appear again after
    /// a re-render; stale positions are skipped).
    order: VecDeque<String>,
    bytes: usize,
}

/// Pages rendered for anonymous visitors, by URL (path and query); see the
/// module docs.
#[derive(Debug, Clone, Default)]
pub struct PageCache {
    /// The database whose changes make pages stale ([`Db::data_changes`]).
    db: Option<Db>,
    /// Calls of [`PageCache::invalidate`].
    seen: Arc<AtomicU64>,
    entries: Arc<Mutex<Entries>>,
    /// Renders under way, by key: one render per cold page.
    renders: Flights<String>,
    /// Pages kept since start ([`PageCache::kept`]).
    kept: Arc<AtomicU64>,
}

impl PageCache {
    /// The current epoch of the pages of `benchmark` (`None`: pages that
    /// show every benchmark's data): a page rendered at another is stale.
    /// It moves as soon as a write through this process's database handle
    /// commits a change such a page shows, and not for one it does not
    /// (another benchmark's stored runs, [`Db::data_changes_for`]).
    pub fn epoch(&self, benchmark: Option<&str>) -> u64 {
        let committed = self
            .db
            .as_ref()
            .map_or(0, |db| db.data_changes_for(benchmark));
        committed.wrapping_add(self.seen.load(Ordering::Acquire))
    }

    /// Waits until no one else renders the page of `key`; look in the cache
    /// again before rendering it ([`crate::flights`]).
    pub async fn render(&self, key: &str) -> Flight<String> {
        self.renders.enter(key.to_owned()).await
    }

    /// Makes every cached page stale.
    pub fn invalidate(&self) {
        self.seen.fetch_add(1, Ordering::AcqRel);
    }

    /// The page cached for `url`, a page of `benchmark`, at its current
    /// epoch.
    pub fn get(&self, url: &str, benchmark: Option<&str>) -> Option<Arc<CachedPage>> {
        let epoch = self.epoch(benchmark);
        let entries = self.entries.lock().ok()?;
        entries.pages.get(url).filter(|p| p.epoch == epoch).cloned()
    }

    /// Keeps `page` for `url`, a page of `benchmark`, replacing what was
    /// there, unless it was rendered at an epoch that has passed meanwhile.
    /// The oldest pages leave while the cache holds more than
    /// [`PAGE_CACHE_BYTES`].
    pub fn put(&self, url: &str, benchmark: Option<&str>, page: Arc<CachedPage>) {
        if page.epoch != self.epoch(benchmark) || page.size() > PAGE_CACHE_BYTES {
            return;
        }
        let Ok(mut entries) = self.entries.lock() else {
            return;
        };
        self.kept.fetch_add(1, Ordering::Relaxed);
        let added = page.size();
        if let Some(old) = entries.pages.insert(url.to_owned(), page) {
            entries.bytes -= old.size();
        } else {
            entries.order.push_back(url.to_owned());
        }
        entries.bytes += added;
        while entries.bytes > PAGE_CACHE_BYTES {
            let Some(oldest) = entries.order.pop_front() else {
                break;
            };
            if let Some(gone) = entries.pages.remove(&oldest) {
                entries.bytes -= gone.size();
            }
        }
    }

    /// How many rendered pages were kept since start: one per render of a
    /// cold page.
    pub fn kept(&self) -> u64 {
        self.kept.load(Ordering::Relaxed)
    }

    /// Pages kept, and their bytes.
    pub fn len(&self) -> (usize, usize) {
        self.entries
            .lock()
            .map(|e| (e.pages.len(), e.bytes))
            .unwrap_or_default()
    }

    /// A cache whose epoch moves with the data of `db` ([`Db::data_changes_for`]):
    /// with every change committed through `db` or reaching it from another
    /// process that pages show (not a job's progress: a page shows a job's
    /// runs when they are stored).
    pub fn following(db: &Db) -> PageCache {
        PageCache {
            db: Some(db.clone()),
            ..PageCache::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(text: &str, epoch: u64) -> Arc<CachedPage> {
        Arc::new(CachedPage::new(Bytes::from(text.to_owned()), epoch))
    }

    #[test]
    fn a_page_is_served_until_the_epoch_moves() {
        let cache = PageCache::default();
        cache.put("/leaderboard", None, page("<p>1</p>", cache.epoch(None)));
        assert_eq!(
            cache.get("/leaderboard", None).expect("cached").body,
            "<p>1</p>"
        );
        assert!(cache.get("/leaderboard?task=dcg", None).is_none());
        cache.invalidate();
        assert!(cache.get("/leaderboard", None).is_none());
        // A render begun before the change is not kept.
        cache.put(
            "/leaderboard",
            None,
            page("<p>old</p>", cache.epoch(None) - 1),
        );
        assert!(cache.get("/leaderboard", None).is_none());
    }

    #[tokio::test]
    async fn a_benchmark_s_pages_stay_cached_while_another_s_data_changes() {
        use engine::benchmark::Benchmark;
        use engine::reference::ReferenceRow;
        // In memory: nothing else can write it, so only this handle's
        // changes move the epochs (no polling of the file).
        let db = Db::open_in_memory().await.expect("db");
        let cache = PageCache::following(&db);
        let (lexpilot, plawbench) = (Some("lexpilot"), Some("plawbench"));
        cache.put(
            "zh:/leaderboard",
            lexpilot,
            page("L", cache.epoch(lexpilot)),
        );
        cache.put(
            "zh:/plawbench/leaderboard",
            plawbench,
            page("P", cache.epoch(plawbench)),
        );
        cache.put("zh:/", None, page("O", cache.epoch(None)));
        let row = ReferenceRow {
            model: "M".into(),
            family: None,
            view: "official".into(),
            column: "overall".into(),
            value: 50.0,
            source: "s".into(),
        };
        db::reference::import(&db, Benchmark::Plawbench, "lab", None, &[row])
            .await
            .expect("import");
        assert!(
            cache.get("zh:/leaderboard", lexpilot).is_some(),
            "LexPilot's stays"
        );
        assert!(cache.get("zh:/plawbench/leaderboard", plawbench).is_none());
        assert!(
            cache.get("zh:/", None).is_none(),
            "the overview shows every benchmark"
        );
    }

    #[test]
    fn the_gzip_form_inflates_to_the_page_and_equal_pages_share_a_tag() {
        use std::io::Read;
        let a = page(&"排行榜 ".repeat(500), 0);
        let mut out = String::new();
        flate2::read::GzDecoder::new(&a.gzip[..])
            .read_to_string(&mut out)
            .expect("gzip");
        assert_eq!(out.as_bytes(), &a.body[..]);
        assert!(a.gzip.len() < a.body.len() / 10);
        assert_eq!(a.etag, page(&"排行榜 ".repeat(500), 3).etag);
        assert_ne!(a.etag, page("other", 0).etag);
    }

    #[test]
    fn the_oldest_pages_leave_when_the_cache_is_full() {
        let cache = PageCache::default();
        let big = "x".repeat(PAGE_CACHE_BYTES / 3);
        for n in 0..4 {
            cache.put(&format!("/p{n}"), None, page(&format!("{big}{n}"), 0));
        }
        assert!(cache.get("/p0", None).is_none());
        assert!(cache.get("/p3", None).is_some());
        let (_, bytes) = cache.len();
        assert!(bytes <= PAGE_CACHE_BYTES);
    }
}
