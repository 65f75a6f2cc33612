//! A model's page: its stored runs grouped into leaderboard entries (the
//! leaderboard's grouping, [`group_runs`]), each with its runs and, per
//! task, a table of one row per run and the entry's mean ± std last; and
//! one score of two entries compared ([`CompareRow`]).
//!
//! Depends on [`crate::lexpilot::entries`], [`crate::lexpilot::score`] and
//! [`crate::lexpilot::leaderboard`].

use serde::{Deserialize, Serialize};

use crate::core::entry::{EntryKey, Family};
use crate::lang::Lang;
use crate::lexpilot::dataset::Case;
use crate::lexpilot::entries::group_runs;
use crate::lexpilot::leaderboard::{build_table, Table, View};
use crate::lexpilot::run::Task;
use crate::lexpilot::score::{summarise_entry, RunScores, ScoreDocument};
use crate::metrics::PairedBootstrap;

/// One stored run as the model page lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    /// Its run number.
    pub run: i64,
    /// When it was stored.
    pub created_at: String,
    /// The account that uploaded it, when known.
    pub uploaded_by: Option<String>,
    /// Its items left out as unavailable.
    pub unavailable: i64,
}

/// One entry of a model: its setting, its runs, and per task a table with
/// one row per run and a last row with the entry's mean ± std.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelEntry {
    /// What sets the entry apart (judge, user model, other header fields).
    pub setting: Vec<(String, String)>,
    /// Its model family.
    pub family: Option<Family>,
    /// Its runs.
    pub runs: Vec<RunRow>,
    /// (task, table) for each task the entry's runs contain.
    pub tables: Vec<(Task, Table)>,
}

/// The name of a setting of an entry ([`ModelEntry::setting`]) in `lang`:
/// a word for the header fields the workbench knows, the run file's own
/// field name otherwise. The model page and its export name them so.
pub fn setting_name(lang: Lang, key: &str) -> String {
    match key {
        "judge" => lang.t("评审模型", "judge"),
        "user model" | "user_model" => lang.t("用户模拟模型", "user model"),
        "dataset" => lang.t("数据集", "dataset"),
        "user_condition" => lang.t("用户条件", "user condition"),
        other => return other.to_owned(),
    }
    .to_owned()
}

/// A model's `runs` (each with its entry key and scores) as the entries
/// the leaderboard makes of them, scored over `cases`; the rows are named
/// in `lang` ("Run 2", "第 2 次运行"; "Mean ± std (3 runs)").
pub fn model_entries(
    runs: &[(RunRow, EntryKey, RunScores)],
    cases: &[Case],
    lang: Lang,
) -> Vec<ModelEntry> {
    let groups = group_runs(runs.iter().map(|(_, key, scores)| (key, scores.parts())));
    groups
        .into_iter()
        .map(|group| {
            let key = group.key;
            let members: Vec<&(RunRow, EntryKey, RunScores)> =
                group.runs.iter().map(|&i| &runs[i]).collect();
            // One row per run, then the entry itself.
            let mut rows: Vec<_> = members
                .iter()
                .map(|(row, _, scores)| {
                    let mut k = key.clone();
                    k.model = match lang {
                        Lang::Zh => format!("第 {} 次运行", row.run),
                        Lang::En => format!("Run {}", row.run),
                    };
                    summarise_entry(k, std::slice::from_ref(scores), cases)
                })
                .collect();
            let all: Vec<RunScores> = members.iter().map(|(_, _, s)| s.clone()).collect();
            let mut mean_key = key.clone();
            mean_key.model = match lang {
                Lang::Zh => format!("均值 ± 标准差（{} 次运行）", members.len()),
                Lang::En => format!("Mean ± std ({} runs)", members.len()),
            };
            rows.push(summarise_entry(mean_key, &all, cases));
            let doc = ScoreDocument {
                dataset: None,
                cases: cases.len(),
                entries: rows,
            };
            let tables = Task::ALL
                .into_iter()
                .map(|task| {
                    let view = View::from_query(Some(task.as_str().into()), None, None);
                    (task, build_table(&doc, &view))
                })
                .filter(|(_, t)| !t.rows.is_empty())
                .collect();
            let mut setting = Vec::new();
            for (name, value) in [
                ("judge", &key.judge),
                ("user model", &key.user_model),
                ("dataset", &key.dataset),
            ] {
                if let Some(v) = value {
                    setting.push((name.to_owned(), v.clone()));
                }
            }
            for (name, value) in &key.extra {
                let shown = value
                    .as_str()
                    .map_or_else(|| value.to_string(), str::to_owned);
                setting.push((name.clone(), shown));
            }
            ModelEntry {
                setting,
                family: key.family,
                runs: members.iter().map(|(row, _, _)| row.clone()).collect(),
                tables,
            }
        })
        .collect()
}

/// One score of two entries compared: A's and B's means over all cases (or
/// the class), the difference A − B with its 95% interval and two-sided
/// p-value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareRow {
    /// The score's label in the page's language
    /// ([`crate::lexpilot::score::Metric::label_in`]).
    pub metric: String,
    /// Entry A's value.
    pub a: Option<f64>,
    /// Entry B's value.
    pub b: Option<f64>,
    /// The paired bootstrap; `None` when either entry lacks the task.
    pub result: Option<PairedBootstrap>,
}
