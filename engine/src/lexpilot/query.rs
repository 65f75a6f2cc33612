//! Case filtering for browsing: the filter a user sets on the case list (and the
//! `GET /api/cases` query), the summary row shown per case, and paging.
//!
//! [`CaseFilter::matches`] is the reference meaning of a filter; the database
//! applies the same filter in SQL and is tested to agree with it.

use serde::{Deserialize, Serialize};

use crate::lexpilot::dataset::Case;
use crate::vocab::{Class, Consultation, FocalPointType, PlaintiffType, Verdict};

/// What the case list shows: every field is optional and the set ones must all hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseFilter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<Class>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plaintiff_type: Option<PlaintiffType>,
    /// Some claim of the case has this gold verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// Some focal point of the case has this type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focal_point_type: Option<FocalPointType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<bool>,
    /// Substring of the case id, the cause or any dialogue turn; ASCII letters
    /// match in either case (`demo-0001` finds `DEMO-0001`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
}

impl CaseFilter {
    /// Whether `case` passes the filter.
    ///
    /// # Examples
    /// ```
    /// use engine::lexpilot::query::CaseFilter;
    /// use engine::vocab::Class;
    /// let f = CaseFilter { class: Some(Class::Tort), ..CaseFilter::default() };
    /// assert!(f.is_empty() == false);
    /// assert!(CaseFilter::default().is_empty());
    /// ```
    pub fn matches(&self, case: &Case) -> bool {
        self.class.is_none_or(|c| case.class == c)
            && self.cause.as_deref().is_none_or(|c| case.cause == c)
            && self.plaintiff_type.is_none_or(|p| case.plaintiff_type == p)
            && self
                .verdict
                .is_none_or(|v| case.claims.iter().any(|c| c.verdict == v))
            && self
                .focal_point_type
                .is_none_or(|t| case.focal_points.iter().any(|f| f.r#type == t))
            && self.seed.is_none_or(|s| case.seed == s)
            && self.search_term().is_none_or(|q| {
                search_text(case)
                    .to_ascii_lowercase()
                    .contains(&q.to_ascii_lowercase())
            })
    }

    /// The trimmed search term, if there is one.
    pub fn search_term(&self) -> Option<&str> {
        self.q.as_deref().map(str::trim).filter(|q| !q.is_empty())
    }

    /// True when nothing is filtered.
    pub fn is_empty(&self) -> bool {
        self.class.is_none()
            && self.cause.is_none()
            && self.plaintiff_type.is_none()
            && self.verdict.is_none()
            && self.focal_point_type.is_none()
            && self.seed.is_none()
            && self.search_term().is_none()
    }
}

/// The text that free-text search runs over: case id, cause and every turn of
/// both consultations, one per line.
pub fn search_text(case: &Case) -> String {
    let mut text = format!("{}\n{}", case.case_id, case.cause);
    for c in Consultation::ALL {
        for turn in case.turns(c) {
            text.push('\n');
            text.push_str(&turn.content);
        }
    }
    text
}

/// One row of the case list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseSummary {
    pub case_id: String,
    pub cause: String,
    pub class: Class,
    pub province: Option<String>,
    pub plaintiff_type: PlaintiffType,
    pub seed: bool,
    pub claims: usize,
    pub verdicts: Vec<Verdict>,
    pub turns: usize,
    pub missing_facts: usize,
}

impl CaseSummary {
    pub fn of(case: &Case) -> Self {
        CaseSummary {
            case_id: case.case_id.clone(),
            cause: case.cause.clone(),
            class: case.class,
            province: case.province.clone(),
            plaintiff_type: case.plaintiff_type,
            seed: case.seed,
            claims: case.claims.len(),
            verdicts: case.claims.iter().map(|c| c.verdict).collect(),
            turns: case.consultations.complete.len(),
            missing_facts: case.missing_facts.len(),
        }
    }
}
