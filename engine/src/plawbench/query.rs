//! Browsing PLawBench items: what storage lists them by ([`Listed`]: the
//! task and the category), the summary row of the item list, and the
//! dataset's statistics (items and points per task, items per category).
//!
//! ```
//! use engine::core::paging::Listed;
//! use engine::plawbench::dataset::{parse_dataset, Task};
//! use engine::plawbench::query::{stats, ItemSummary};
//!
//! let items = parse_dataset(r#"{"item_id": "legal_consultation-1", "task": "legal_consultation", "question": "律师啊！我丈夫成天喝酒打人，我要离婚，房子和孩子都要！", "rubric": "1.(+5 分) 报警记录？", "max_points": 5}"#).unwrap();
//! assert_eq!((items[0].facet(), items[0].category()), ("legal_consultation", ""));
//! let row = ItemSummary::of(&items[0]);
//! assert_eq!(row.excerpt, items[0].question, "a short question is shown whole");
//! let s = stats(&items);
//! assert_eq!(s.tasks[0].task, Task::LegalConsultation);
//! assert_eq!(s.tasks[0].max_points, (5.0, 5, 5));
//! ```

use serde::{Deserialize, Serialize};

use crate::core::paging::{excerpt, Listed};
use crate::plawbench::dataset::{Item, Task};

/// Characters of the question shown in a list row.
pub const EXCERPT_CHARS: usize = 40;

impl Listed for Item {
    fn item_id(&self) -> &str {
        &self.item_id
    }

    fn facet(&self) -> &str {
        self.task.as_str()
    }

    fn category(&self) -> &str {
        self.category.as_deref().unwrap_or("")
    }

    fn search_text(&self) -> String {
        let mut text = format!("{}\n{}\n{}", self.item_id, self.context, self.question);
        if let Some(c) = &self.category {
            text.push('\n');
            text.push_str(c);
        }
        text
    }
}

/// One row of the item list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemSummary {
    pub item_id: String,
    pub task: Task,
    pub category: Option<String>,
    pub max_points: u32,
    /// The rubric's entries (`case_analysis`: its sections).
    pub rubric_entries: usize,
    /// The start of the question (or the client's statement).
    pub excerpt: String,
}

impl ItemSummary {
    pub fn of(item: &Item) -> ItemSummary {
        ItemSummary {
            item_id: item.item_id.clone(),
            task: item.task,
            category: item.category.clone(),
            max_points: item.max_points,
            rubric_entries: item.sections.as_ref().map_or(1, Vec::len),
            excerpt: excerpt(&item.question, EXCERPT_CHARS),
        }
    }
}

/// The items of one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskStats {
    pub task: Task,
    pub items: usize,
    /// Mean, least and most `max_points`.
    pub max_points: (f64, u32, u32),
    /// Mean length of the question in characters (code points).
    pub question_chars: f64,
}

/// What the dataset page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub items: usize,
    /// The tasks with items, in [`Task::ALL`] order.
    pub tasks: Vec<TaskStats>,
    /// `case_analysis` items per category, most first (then by name).
    pub categories: Vec<(String, usize)>,
}

/// The statistics of `items`.
pub fn stats(items: &[Item]) -> Stats {
    let tasks = Task::ALL
        .into_iter()
        .filter_map(|task| {
            let of: Vec<&Item> = items.iter().filter(|i| i.task == task).collect();
            let n = of.len();
            (n > 0).then(|| {
                let points: Vec<u32> = of.iter().map(|i| i.max_points).collect();
                TaskStats {
                    task,
                    items: n,
                    max_points: (
                        f64::from(points.iter().sum::<u32>()) / n as f64,
                        points.iter().copied().min().unwrap_or(0),
                        points.iter().copied().max().unwrap_or(0),
                    ),
                    question_chars: of.iter().map(|i| i.question.chars().count()).sum::<usize>()
                        as f64
                        / n as f64,
                }
            })
        })
        .collect();
    let mut categories: Vec<(String, usize)> = Vec::new();
    for item in items.iter().filter(|i| i.task == Task::CaseAnalysis) {
        if let Some(c) = &item.category {
            match categories.iter_mut().find(|(name, _)| name == c) {
                Some((_, n)) => *n += 1,
                None => categories.push((c.clone(), 1)),
            }
        }
    }
    categories.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Stats {
        items: items.len(),
        tasks,
        categories,
    }
}
