//! Browsing DLawBench cases: what storage lists them by ([`Listed`]: the
//! jurisdiction and the domain), the case list's row ([`CaseSummary`]) and
//! its filter ([`CaseFilter`]: jurisdiction, domain, a least disputed share
//! and a search), applied to the cases of a version.
//!
//! ```
//! use engine::core::paging::Listed;
//! use engine::dlawbench::dataset::parse_dataset;
//! use engine::dlawbench::query::{CaseFilter, CaseSummary};
//!
//! let cases = parse_dataset(r#"{"case_id": "C", "jurisdiction": "cn", "domain": "labor", "title": "绩效工资（合成）", "opening": "公司扣了我的绩效工资。", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}, {"id": "F2", "type": "undisputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap();
//! assert_eq!((cases[0].facet(), cases[0].category()), ("cn", "labor"));
//! let row = CaseSummary::of(&cases[0]);
//! assert_eq!((row.title.as_deref(), row.disputed, row.facts), (Some("绩效工资（合成）"), 1, 2));
//! let filter = CaseFilter { min_disputed: Some(0.5), q: Some("绩效".into()), ..CaseFilter::default() };
//! assert!(filter.matches(&cases[0]));
//! assert!(!CaseFilter { min_disputed: Some(0.6), ..CaseFilter::default() }.matches(&cases[0]));
//! ```

use serde::{Deserialize, Serialize};

use crate::core::paging::{excerpt, ItemFilter, Listed};
use crate::dlawbench::dataset::{Case, Jurisdiction, Language};

/// Characters of the opening shown in a list row.
pub const EXCERPT_CHARS: usize = 48;

impl Listed for Case {
    fn item_id(&self) -> &str {
        &self.case_id
    }

    fn facet(&self) -> &str {
        self.jurisdiction.as_str()
    }

    fn category(&self) -> &str {
        &self.domain
    }

    fn search_text(&self) -> String {
        let mut text = format!("{}\n{}", self.case_id, self.opening);
        if let Some(title) = self.title_text() {
            text.push('\n');
            text.push_str(title);
        }
        for fact in &self.facts {
            text.push('\n');
            text.push_str(&fact.client_belief);
            text.push('\n');
            text.push_str(&fact.court_record);
        }
        text
    }
}

impl Case {
    /// The title when it is a string (it may hold any JSON).
    pub fn title_text(&self) -> Option<&str> {
        self.title.as_ref().and_then(|t| t.as_str())
    }

    /// Disputed facts ÷ facts.
    pub fn disputed_share(&self) -> f64 {
        self.disputed() as f64 / self.facts.len().max(1) as f64
    }
}

/// One row of the case list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseSummary {
    pub case_id: String,
    pub jurisdiction: Jurisdiction,
    pub language: Language,
    pub domain: String,
    pub title: Option<String>,
    /// Fact pairs.
    pub facts: usize,
    /// Disputed fact pairs.
    pub disputed: usize,
    pub inquiry_rubrics: usize,
    pub issue_rubrics: usize,
    /// The start of the opening statement.
    pub excerpt: String,
}

impl CaseSummary {
    pub fn of(case: &Case) -> CaseSummary {
        CaseSummary {
            case_id: case.case_id.clone(),
            jurisdiction: case.jurisdiction,
            language: case.language,
            domain: case.domain.clone(),
            title: case.title_text().map(str::to_owned),
            facts: case.facts.len(),
            disputed: case.disputed(),
            inquiry_rubrics: case.inquiry_rubrics.len(),
            issue_rubrics: case.issue_rubrics.len(),
            excerpt: excerpt(&case.opening, EXCERPT_CHARS),
        }
    }

    /// Disputed facts ÷ facts.
    pub fn disputed_share(&self) -> f64 {
        self.disputed as f64 / self.facts.max(1) as f64
    }
}

/// What the case list shows: every field is optional and the set ones must
/// all hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CaseFilter {
    /// `cn` or `us`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jurisdiction: Option<String>,
    /// The domain key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// The case's disputed share is at least this (0 to 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_disputed: Option<f64>,
    /// Substring of the case's id, title, opening or fact texts; ASCII
    /// letters match in either case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
}

impl CaseFilter {
    /// The part storage can apply (jurisdiction, domain, search).
    pub fn stored(&self) -> ItemFilter {
        ItemFilter {
            facet: self.jurisdiction.clone(),
            category: self.domain.clone(),
            q: self.q.clone(),
        }
    }

    /// Whether `case` passes the filter.
    pub fn matches(&self, case: &Case) -> bool {
        self.stored().matches(case)
            && self
                .min_disputed
                .is_none_or(|least| case.disputed_share() >= least - 1e-12)
    }
}
