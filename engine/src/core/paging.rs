//! Browsing a dataset, for every benchmark: pages of results and the page
//! arithmetic, and, for the benchmarks whose items storage keeps in one
//! generic table (every benchmark but LexPilot, whose cases have columns of
//! their own), what storage reads off an item ([`Listed`]) and the filter
//! the item lists apply ([`ItemFilter`]).
//!
//! [`ItemFilter::matches`] is the reference meaning of a filter; the
//! database applies the same filter in SQL and is tested to agree with it.
//!
//! ```
//! use engine::core::paging::{paging, ItemFilter, Listed};
//!
//! struct Item(&'static str);
//! impl Listed for Item {
//!     fn item_id(&self) -> &str { "legal_consultation-1" }
//!     fn facet(&self) -> &str { "legal_consultation" }
//!     fn category(&self) -> &str { "" }
//!     fn search_text(&self) -> String { self.0.to_owned() }
//! }
//!
//! let item = Item("我丈夫打我，我要离婚。");
//! let filter = ItemFilter { q: Some("离婚".into()), ..ItemFilter::default() };
//! assert!(filter.matches(&item));
//! assert!(!ItemFilter { facet: Some("case_analysis".into()), ..filter }.matches(&item));
//! assert_eq!(paging(Some(0), Some(10_000)), (1, 200));
//! ```

use serde::{Deserialize, Serialize};

/// Rows per page when the caller does not say.
pub const DEFAULT_PER_PAGE: u32 = 20;
/// The most rows a page may hold.
pub const MAX_PER_PAGE: u32 = 200;

/// A page of results; `page` counts from 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: u64,
    pub page: u32,
    pub per_page: u32,
}

impl<T> Page<T> {
    /// The number of pages (at least 1, so an empty result still has page 1).
    pub fn pages(&self) -> u32 {
        let per = u64::from(self.per_page.max(1));
        u32::try_from(self.total.div_ceil(per).max(1)).unwrap_or(u32::MAX)
    }

    /// The same page with every row mapped by `f`.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page {
            items: self.items.into_iter().map(f).collect(),
            total: self.total,
            page: self.page,
            per_page: self.per_page,
        }
    }
}

/// Clamp a requested page and page size to what is allowed: page ≥ 1,
/// 1 ≤ per_page ≤ [`MAX_PER_PAGE`], [`DEFAULT_PER_PAGE`] when unset.
///
/// # Examples
/// ```
/// assert_eq!(engine::core::paging::paging(None, None), (1, 20));
/// assert_eq!(engine::core::paging::paging(Some(0), Some(10_000)), (1, 200));
/// ```
pub fn paging(page: Option<u32>, per_page: Option<u32>) -> (u32, u32) {
    (
        page.unwrap_or(1).max(1),
        per_page.unwrap_or(DEFAULT_PER_PAGE).clamp(1, MAX_PER_PAGE),
    )
}

/// Page `page` of `items` (clamped to the pages there are), `per_page`
/// (at least 1) to a page: for lists held in memory.
///
/// # Examples
/// ```
/// use engine::core::paging::page_of;
///
/// let page = page_of((1..=52).collect::<Vec<u32>>(), 3, 25);
/// assert_eq!((page.items.as_slice(), page.page, page.pages(), page.total), (&[51, 52][..], 3, 3, 52));
/// assert_eq!(page_of((1..=52).collect::<Vec<u32>>(), 9, 25).page, 3);
/// assert_eq!(page_of(Vec::<u32>::new(), 0, 25).page, 1);
/// ```
pub fn page_of<T>(items: Vec<T>, page: u32, per_page: u32) -> Page<T> {
    let per_page = per_page.max(1);
    let total = items.len() as u64;
    let mut out = Page {
        items: Vec::new(),
        total,
        page: 1,
        per_page,
    };
    out.page = page.clamp(1, out.pages());
    let skip = (out.page as usize - 1) * per_page as usize;
    out.items = items
        .into_iter()
        .skip(skip)
        .take(per_page as usize)
        .collect();
    out
}

/// What storage and browsing read off one dataset item of a benchmark whose
/// items are kept in the generic item table.
pub trait Listed {
    /// The item's id, unique in its dataset.
    fn item_id(&self) -> &str;
    /// The first field lists filter on (PLawBench: the task).
    fn facet(&self) -> &str;
    /// The second (PLawBench: the category); `""` when the item has none.
    fn category(&self) -> &str;
    /// The text a search looks in.
    fn search_text(&self) -> String;
}

/// What an item list shows: every field is optional and the set ones must
/// all hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemFilter {
    /// The item's facet ([`Listed::facet`]) is this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facet: Option<String>,
    /// The item's category ([`Listed::category`]) is this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Substring of the item's search text; ASCII letters match in either
    /// case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
}

impl ItemFilter {
    /// Whether `item` passes the filter.
    pub fn matches(&self, item: &impl Listed) -> bool {
        self.facet.as_deref().is_none_or(|f| item.facet() == f)
            && self
                .category
                .as_deref()
                .is_none_or(|c| item.category() == c)
            && self.search_term().is_none_or(|q| {
                item.search_text()
                    .to_ascii_lowercase()
                    .contains(&q.to_ascii_lowercase())
            })
    }

    /// The search text, trimmed; `None` when blank.
    pub fn search_term(&self) -> Option<&str> {
        self.q.as_deref().map(str::trim).filter(|q| !q.is_empty())
    }

    /// Whether no field is set.
    pub fn is_empty(&self) -> bool {
        self.facet.is_none() && self.category.is_none() && self.search_term().is_none()
    }
}

/// The first `chars` characters of `text` (whole characters, never cut in
/// the middle of one), with `…` when something was left off.
///
/// ```
/// assert_eq!(engine::core::paging::excerpt("律师啊！我丈夫", 4), "律师啊！…");
/// assert_eq!(engine::core::paging::excerpt("短", 4), "短");
/// ```
pub fn excerpt(text: &str, chars: usize) -> String {
    let mut out: String = text.chars().take(chars).collect();
    if text.chars().nth(chars).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The pages of a list, in order, are the list, each page full but
        /// the last.
        #[test]
        fn pages_partition_the_list(items in prop::collection::vec(any::<u16>(), 0..300), per_page in 1u32..60) {
            let pages = page_of(items.clone(), 1, per_page).pages();
            let mut seen = Vec::new();
            for n in 1..=pages {
                let page = page_of(items.clone(), n, per_page);
                prop_assert_eq!(page.page, n);
                if n < pages {
                    prop_assert_eq!(page.items.len(), per_page as usize);
                }
                seen.extend(page.items);
            }
            prop_assert_eq!(seen, items);
        }
    }
}
