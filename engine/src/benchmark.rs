//! Which benchmark a dataset or run belongs to, and the one interface every
//! benchmark's rules sit behind.
//!
//! - [`Benchmark`]: `lexpilot`, `dlawbench` or `plawbench` (the shared
//!   contract, `docs/benchmarks/*.md` §0.3). A run header names it in
//!   `"benchmark"`; absent means `lexpilot`, so every LexPilot file stays
//!   valid. A dataset is named its benchmark when it is imported.
//! - [`Suite`]: what the workbench needs of a benchmark: read a dataset file,
//!   parse and validate a run file against its dataset, read a stored run
//!   back without validating it again, the facts storage keeps of a run
//!   ([`RunMeta`]), score a run, summarise stored scores into the
//!   benchmark's score document in three steps (group runs into entries,
//!   summarise each entry, make the document: one model's entries can be
//!   summarised alone), and leave out of a run the judge decisions open for
//!   blind review ([`Suite::withhold`]). Storage and the runtime are written
//!   against it; pages, leaderboard views and drill-downs use the
//!   benchmark's own types.
//! - [`LexPilot`]: the LexPilot benchmark ([`crate::lexpilot`]);
//!   [`PLawBench`]: the PLawBench benchmark ([`crate::plawbench`]);
//!   [`DLawBench`]: the DLawBench benchmark ([`crate::dlawbench`]).
//!
//! # Example
//!
//! ```
//! use engine::benchmark::{Benchmark, LexPilot, Suite};
//!
//! let dataset = LexPilot::parse_dataset(&engine::lexpilot::synthetic::dataset_file(1)).unwrap();
//! let file = engine::lexpilot::synthetic::run_file(&dataset, 0, 1, 1);
//! let run = LexPilot::parse_run(file.as_bytes(), &dataset).unwrap();
//! let meta = LexPilot::meta(&run);
//! assert_eq!((meta.run, meta.benchmark), (1, Benchmark::Lexpilot));
//! // What storage keeps reads back as the same run, without validation.
//! assert_eq!(LexPilot::read_stored(&LexPilot::to_stored(&run)).unwrap(), run);
//! let scores = LexPilot::score(&run, &dataset);
//! let doc = LexPilot::summarise(vec![(meta.entry_key, scores)], &dataset);
//! assert_eq!(doc.entries.len(), 1);
//! ```

use std::io::BufRead;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::core::entry::EntryKey;
use crate::core::errors::{DatasetError, DatasetErrors, RunErrors};
use crate::lexpilot::entries::Entry;
use crate::review::OpenDecision;
use crate::vocab::vocabulary;

vocabulary! {
    /// The benchmarks the workbench knows.
    Benchmark, kind "benchmark" {
        /// LexPilot: proactive legal consultation (`docs/formats.md`).
        Lexpilot = "lexpilot", zh "LexPilot 主动法律咨询", en "LexPilot";
        /// DLawBench: multi-turn consultations with simulated clients.
        Dlawbench = "dlawbench", zh "DLawBench 多轮法律咨询", en "DLawBench";
        /// PLawBench: rubric-judged practical-law items.
        Plawbench = "plawbench", zh "PLawBench 实务法律评测", en "PLawBench";
    }
}

/// LexPilot: what a run header or a stored record that names no benchmark
/// belongs to (§0.3).
///
/// ```
/// use engine::benchmark::Benchmark;
/// assert_eq!(Benchmark::default(), Benchmark::Lexpilot);
/// ```
impl Default for Benchmark {
    fn default() -> Self {
        Benchmark::Lexpilot
    }
}

impl Benchmark {
    /// Whether this server can validate and score the benchmark's files.
    ///
    /// ```
    /// use engine::benchmark::Benchmark;
    /// assert!(Benchmark::Lexpilot.hosted());
    /// assert!(Benchmark::Plawbench.hosted());
    /// assert!(Benchmark::Dlawbench.hosted());
    /// ```
    pub fn hosted(self) -> bool {
        matches!(
            self,
            Benchmark::Lexpilot | Benchmark::Dlawbench | Benchmark::Plawbench
        )
    }

    /// The error for a dataset or run of a benchmark this server does not
    /// host, naming the value and what is hosted.
    pub fn not_hosted(self) -> String {
        format!(
            "benchmark \"{}\" is not hosted by this server yet; it hosts: {}",
            self.as_str(),
            Benchmark::ALL
                .into_iter()
                .filter(|b| b.hosted())
                .map(Benchmark::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

impl Benchmark {
    /// The benchmark a run file's header names in `"benchmark"`: `Lexpilot`
    /// when the header says none (formats.md §3 files), `None` when the first
    /// line is no JSON object or names no benchmark this build knows (the
    /// engine then refuses the file naming the field).
    ///
    /// ```
    /// use engine::benchmark::Benchmark;
    /// assert_eq!(Benchmark::declared(b"{\"kind\": \"run\", \"benchmark\": \"plawbench\"}\n{}"), Some(Benchmark::Plawbench));
    /// assert_eq!(Benchmark::declared(b"{\"kind\": \"run\", \"model\": \"M\"}"), Some(Benchmark::Lexpilot));
    /// assert_eq!(Benchmark::declared(b"{\"benchmark\": \"chess\"}"), None);
    /// assert_eq!(Benchmark::declared(b"not json"), None);
    /// ```
    pub fn declared(file: &[u8]) -> Option<Benchmark> {
        let first = file.split(|&b| b == b'\n').next()?;
        let header: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(first).ok()?;
        match header.get("benchmark") {
            None => Some(Benchmark::Lexpilot),
            Some(value) => value.as_str().and_then(Benchmark::parse),
        }
    }
}

/// The first line that is not blank, with its 1-based number (a leading
/// byte-order mark dropped), as the parsers find the header.
fn first_line(file: &[u8]) -> Option<(usize, &[u8])> {
    let file = file.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(file);
    file.split(|&b| b == b'\n')
        .enumerate()
        .find(|(_, line)| !line.iter().all(u8::is_ascii_whitespace))
        .map(|(i, line)| (i + 1, line))
}

/// The benchmark whose dataset a line of that shape belongs to: LexPilot's
/// cases carry `consultations`, DLawBench's `facts` and an `opening`,
/// PLawBench's items an `item_id` and a `question` (formats.md §2,
/// dlawbench.md §A1, plawbench.md §B1). A run's lines all carry `kind`.
fn dataset_shape(line: &serde_json::Map<String, serde_json::Value>) -> Option<Benchmark> {
    if line.contains_key("kind") {
        return None;
    }
    let has = |keys: &[&str]| keys.iter().all(|k| line.contains_key(*k));
    if has(&["case_id", "consultations"]) {
        Some(Benchmark::Lexpilot)
    } else if has(&["case_id", "facts", "opening"]) {
        Some(Benchmark::Dlawbench)
    } else if has(&["item_id", "question"]) {
        Some(Benchmark::Plawbench)
    } else {
        None
    }
}

/// What a file given as a run of benchmark `expected` is instead, when its
/// first line tells: a dataset file of any benchmark, or a run of another
/// benchmark. Then the file is refused with this one error on that line,
/// not with an error on every line that follows (a run's names the field
/// `benchmark`). `None` when the first line
/// could begin a run of `expected` (or cannot be read: the run parser says
/// why).
///
/// ```
/// use engine::benchmark::{misfiled, Benchmark};
///
/// let dataset = engine::lexpilot::synthetic::dataset_file(2);
/// let e = misfiled(dataset.as_bytes(), Benchmark::Lexpilot).unwrap();
/// assert_eq!(e.line, 1);
/// assert!(e.message.starts_with("this is a LexPilot dataset file, not a run file"));
///
/// let plaw_run = b"{\"kind\": \"run\", \"benchmark\": \"plawbench\", \"model\": \"M\", \"run\": 1}\n";
/// assert!(misfiled(plaw_run, Benchmark::Lexpilot).unwrap().message.contains("PLawBench run"));
/// assert_eq!(misfiled(plaw_run, Benchmark::Plawbench), None);
/// assert_eq!(misfiled(b"not json", Benchmark::Lexpilot), None);
/// ```
pub fn misfiled(file: &[u8], expected: Benchmark) -> Option<DatasetError> {
    let (line, text) = first_line(file)?;
    let first: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(text).ok()?;
    let (field, message) = if let Some(dataset) = dataset_shape(&first) {
        let message = format!(
            "this is a {} dataset file, not a run file: an admin imports a dataset with \
             `lexpilot import --benchmark {} FILE`; a run file begins with a header line \
             {{\"kind\": \"run\", \"model\": …, \"run\": …}} followed by the model's answers",
            dataset.label_en(),
            dataset.as_str()
        );
        ("", message)
    } else if first.get("kind").and_then(|k| k.as_str()) == Some("run") {
        let declared = match first.get("benchmark") {
            None => Benchmark::Lexpilot,
            Some(value) => value.as_str().and_then(Benchmark::parse)?,
        };
        if declared == expected {
            return None;
        }
        let header_says = if first.contains_key("benchmark") {
            format!("its header says \"benchmark\": \"{}\"", declared.as_str())
        } else {
            "its header names no benchmark, which means LexPilot".to_owned()
        };
        let message = format!(
            "this is a {} run file ({header_says}), not a {} run: upload it as a {} run",
            declared.label_en(),
            expected.label_en(),
            declared.label_en()
        );
        ("benchmark", message)
    } else {
        return None;
    };
    Some(DatasetError {
        line,
        case_id: None,
        field: field.to_owned(),
        message,
    })
}

/// Header fields given beside a run file (the upload page's fields, the
/// API's `?model=` and `?family=`) that take the place of the file's own,
/// so that nobody edits a header by hand to rename a model. Every
/// benchmark's header has both: `model` a name ([`crate::names`]) and
/// `family` one of `legal`, `open`, `closed`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeaderOverride {
    pub model: Option<String>,
    pub family: Option<crate::core::entry::Family>,
}

impl HeaderOverride {
    /// The override from the given texts: blank means "keep the file's";
    /// a model that is no name or an unknown family is refused naming the
    /// field, as the header's own would be.
    ///
    /// ```
    /// use engine::benchmark::HeaderOverride;
    ///
    /// let o = HeaderOverride::parse(Some(" 通义千问 "), Some("open")).unwrap();
    /// assert_eq!(o.model.as_deref(), Some("通义千问"));
    /// assert!(HeaderOverride::parse(None, Some("")).unwrap().is_empty());
    /// assert!(HeaderOverride::parse(None, Some("public")).unwrap_err().contains("family"));
    /// assert!(HeaderOverride::parse(Some("a\u{0}b"), None).unwrap_err().starts_with("model "));
    /// ```
    pub fn parse(model: Option<&str>, family: Option<&str>) -> Result<HeaderOverride, String> {
        use crate::vocab::Vocabulary;
        fn given(v: Option<&str>) -> Option<&str> {
            v.map(str::trim).filter(|v| !v.is_empty())
        }
        let model = match given(model) {
            None => None,
            Some(m) => {
                crate::names::check_name(m).map_err(|e| format!("model {e}"))?;
                Some(m.to_owned())
            }
        };
        let family = match given(family) {
            None => None,
            Some(f) => Some(crate::core::entry::Family::parse(f).ok_or_else(|| {
                format!(
                    "family: unknown family {f:?}; expected {}",
                    crate::core::entry::Family::expected()
                )
            })?),
        };
        Ok(HeaderOverride { model, family })
    }

    /// Whether it changes nothing.
    pub fn is_empty(&self) -> bool {
        self.model.is_none() && self.family.is_none()
    }

    /// `file` with its header's `model` and `family` replaced. The header
    /// stays one line at its place, so every line number the parser reports
    /// is the file's; a file whose first line is no JSON object is returned
    /// as it is, for the parser to refuse.
    ///
    /// ```
    /// use engine::benchmark::HeaderOverride;
    /// use engine::core::entry::Family;
    ///
    /// let file = b"{\"kind\": \"run\", \"model\": \"m\", \"run\": 2}\n{\"kind\": \"lca\"}\n";
    /// let o = HeaderOverride { model: Some("Qwen3-8B".into()), family: Some(Family::Open) };
    /// let changed = String::from_utf8(o.apply(file)).unwrap();
    /// assert_eq!(
    ///     changed,
    ///     "{\"family\":\"open\",\"kind\":\"run\",\"model\":\"Qwen3-8B\",\"run\":2}\n{\"kind\": \"lca\"}\n"
    /// );
    /// ```
    pub fn apply(&self, file: &[u8]) -> Vec<u8> {
        if self.is_empty() {
            return file.to_vec();
        }
        let Some((_, line)) = first_line(file) else {
            return file.to_vec();
        };
        let Ok(mut header) =
            serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(line)
        else {
            return file.to_vec();
        };
        if let Some(model) = &self.model {
            header.insert("model".into(), serde_json::Value::from(model.as_str()));
        }
        if let Some(family) = self.family {
            header.insert("family".into(), serde_json::Value::from(family.as_str()));
        }
        let Ok(mut text) = serde_json::to_vec(&header) else {
            return file.to_vec();
        };
        if line.ends_with(b"\r") {
            text.push(b'\r');
        }
        // The header's place: the bytes before it and the rest after it.
        let start = line.as_ptr() as usize - file.as_ptr() as usize;
        let mut out = Vec::with_capacity(file.len() + text.len());
        out.extend_from_slice(&file[..start]);
        out.extend_from_slice(&text);
        out.extend_from_slice(&file[start + line.len()..]);
        out
    }
}

/// What storage keeps of a run besides its items and scores, the same for
/// every benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunMeta {
    pub benchmark: Benchmark,
    /// The evaluated model.
    pub model: String,
    /// The repetition, from 1.
    pub run: u32,
    /// The model's group (`legal`, `open`, `closed`).
    pub family: Option<String>,
    /// The leaderboard entry the run belongs to.
    pub entry_key: EntryKey,
    /// How many items could not be labelled.
    pub unavailable: usize,
    /// When the run was made, as its header says.
    pub created_at: Option<String>,
}

/// One benchmark's rules (see the [module documentation](self)).
pub trait Suite: 'static {
    /// Which benchmark this is.
    const BENCHMARK: Benchmark;
    /// One line of the dataset.
    type Case: Clone + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// A parsed run.
    type Run: Send + Sync + 'static;
    /// What scoring one run gives, kept with the run.
    type Scores: Clone + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// One entry of the score document: a function of its runs' scores
    /// (and the dataset) alone.
    type Entry: Clone + Serialize + Send + Sync + 'static;
    /// The score document of every entry of a dataset.
    type Document: Serialize + Send + 'static;

    /// Reads and validates a dataset file; every error with line and field.
    fn parse_dataset(text: &str) -> Result<Vec<Self::Case>, DatasetErrors>;
    /// Parses and validates a run file against its dataset, line by line
    /// from `reader`; every error with line and field (a header naming
    /// another benchmark included).
    fn parse_run(reader: impl BufRead, cases: &[Self::Case]) -> Result<Self::Run, RunErrors>;
    /// The run as storage keeps it.
    fn to_stored(run: &Self::Run) -> String;
    /// Reads back what [`Suite::to_stored`] wrote, trusting it (it was
    /// validated when stored): no checks against the dataset.
    fn read_stored(stored: &str) -> Result<Self::Run, String>;
    /// What storage keeps of the run besides items and scores.
    fn meta(run: &Self::Run) -> RunMeta;
    /// Scores the run against the cases it was validated on.
    fn score(run: &Self::Run, cases: &[Self::Case]) -> Self::Scores;
    /// Groups scored runs, given in storage order, into leaderboard
    /// entries, in order of their first run. Runs of two models never share
    /// an entry, so one model's runs group alone as they do among everyone's
    /// (what lets a write recompute only its model's entries). By default
    /// runs of equal keys make one entry.
    fn group(runs: &[(EntryKey, Self::Scores)]) -> Vec<Entry> {
        group_by_key(runs.iter().map(|(key, _)| key))
    }
    /// The summary of one entry from its runs' scores.
    fn summarise_entry(key: EntryKey, runs: &[Self::Scores], cases: &[Self::Case]) -> Self::Entry;
    /// The score document of `entries` (in the order given) on `cases`.
    fn document(entries: Vec<Self::Entry>, cases: &[Self::Case]) -> Self::Document;

    /// The score document of stored runs' scores: [`Suite::group`], then
    /// [`Suite::summarise_entry`] for each entry, then [`Suite::document`].
    fn summarise(runs: Vec<(EntryKey, Self::Scores)>, cases: &[Self::Case]) -> Self::Document {
        let groups = Self::group(&runs);
        let mut scores: Vec<Option<Self::Scores>> =
            runs.into_iter().map(|(_, scores)| Some(scores)).collect();
        let entries = groups
            .into_iter()
            .map(|entry| {
                let runs: Vec<Self::Scores> = entry
                    .runs
                    .iter()
                    .filter_map(|&i| scores.get_mut(i).and_then(Option::take))
                    .collect();
                Self::summarise_entry(entry.key, &runs, cases)
            })
            .collect();
        Self::document(entries, cases)
    }
    /// Leaves out of the run the judge decisions `open` names (of this run,
    /// open for blind review), as if it never had them; how many it left
    /// out ([`OpenDecision`] states the rule).
    fn withhold(run: &mut Self::Run, open: &[OpenDecision]) -> usize;

    /// The run's scores for public figures: scored again without the
    /// decisions `open` names ([`Suite::withhold`]), with how many were left
    /// out. They depend on the visible decisions alone.
    fn score_withholding(
        mut run: Self::Run,
        open: &[OpenDecision],
        cases: &[Self::Case],
    ) -> (Self::Scores, usize) {
        let left_out = Self::withhold(&mut run, open);
        (Self::score(&run, cases), left_out)
    }
}

/// Entries of runs with equal keys, in order of first appearance: the
/// grouping of every benchmark whose key says all an entry shares.
pub fn group_by_key<'a>(keys: impl IntoIterator<Item = &'a EntryKey>) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for (i, key) in keys.into_iter().enumerate() {
        match entries.iter_mut().find(|e| e.key == *key) {
            Some(entry) => entry.runs.push(i),
            None => entries.push(Entry {
                key: key.clone(),
                runs: vec![i],
            }),
        }
    }
    entries
}

pub use crate::dlawbench::DLawBench;
pub use crate::lexpilot::LexPilot;
pub use crate::plawbench::PLawBench;
