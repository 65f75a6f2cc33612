//! Score sheets: review items whose label is a number per unit, such as the
//! points of each rubric section of a PLawBench item (or a 0/1 mark per
//! rubric line), and the dashboard figures over them.
//!
//! - **The sheet.** A [`Sheet`] is stored with the item (in its input, under
//!   `"sheet"`): the benchmark and task the item comes from, and its
//!   [`SheetUnit`]s, each with a key, a name, the most points it can get and
//!   the step points come in. The judge's label and every expert's label are
//!   sheet labels.
//! - **Labels.** [`Sheet::canonical`] checks what an expert gives and returns
//!   the one form it is stored in: a JSON object with every unit's points, in
//!   sheet order, whole numbers without a decimal point
//!   (`{"conclusion":5,"facts":12.5}`). It accepts that object (numbers or
//!   numeric strings), `key=points` pairs separated by commas or new lines,
//!   and, for a sheet of one unit, a bare number. Every unit must be there,
//!   nothing else, each a finite number in `[0, max]` and a multiple of its
//!   step. Two labels agree when their stored forms are equal, so experts
//!   agree on an item when they gave the same points to every unit, and the
//!   item goes to an adjudicator otherwise (as every other item does).
//! - **Groups.** A sheet may sort its units into [`SheetGroup`]s (DLawBench's
//!   Inquiry and Issue rubric items, each a 0/1 mark): the dashboard then
//!   pools each group's units into one row instead of a row per unit, since
//!   units differ from item to item.
//! - **Undecided units.** The judge's label (never an expert's) may leave a
//!   unit `null`: a panel of two that split 1–1 on a rubric item decides
//!   nothing. [`Sheet::stored_partial`] writes it, [`Sheet::points_partial`]
//!   reads it; such a unit is left out of the judge comparison and counted
//!   (`judge_left_out`), and the item's total is compared only when every
//!   unit was decided.
//! - **Figures.** [`sheet_rows`] gives, per task and unit (or group) and for
//!   the item totals of each task, two comparisons: the judge against the final label
//!   (agreed or adjudicated) and the first two experts' blind labels against
//!   each other. Each is a [`PairStats`]: the mean absolute difference in
//!   points, Pearson's r, the share of pairs within 10% of the unit's (or the
//!   item's) maximum, the share of equal points, and Cohen's kappa when the
//!   unit is a 0/1 mark.
//!
//! Depends on serde, serde_json, [`crate::benchmark`] and
//! [`crate::metrics::cohen_kappa`].
//!
//! # Example
//!
//! ```
//! use engine::benchmark::Benchmark;
//! use engine::review::{Sheet, SheetUnit};
//!
//! let sheet = Sheet {
//!     benchmark: Benchmark::Plawbench,
//!     task: "case_analysis".into(),
//!     units: vec![SheetUnit::new("conclusion", "结论", 5.0), SheetUnit::new("law", "法条依据", 15.0)],
//!     groups: vec![],
//! };
//! assert_eq!(sheet.canonical("conclusion=5, law=7.5").unwrap(), r#"{"conclusion":5,"law":7.5}"#);
//! assert_eq!(sheet.canonical(r#"{"law": "15", "conclusion": 0}"#).unwrap(), r#"{"conclusion":0,"law":15}"#);
//! assert!(sheet.canonical("conclusion=6, law=1").is_err()); // above the section's 5 points
//! assert!(sheet.canonical("conclusion=5").is_err()); // law missing
//! assert_eq!(sheet.points(r#"{"conclusion":5,"law":7.5}"#), Some(vec![5.0, 7.5]));
//! ```

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::benchmark::Benchmark;
use crate::metrics::{cohen_kappa, pearson};

/// One thing a sheet gives points to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SheetUnit {
    /// The key of the unit in a label (`conclusion`, `total`).
    pub key: String,
    /// What the page calls it (`结论 Conclusion`).
    pub name: String,
    /// The most points it can get (> 0).
    pub max: f64,
    /// The step points come in (> 0): 0.5 lets an expert give half points.
    #[serde(default = "default_step")]
    pub step: f64,
    /// The key of the [`SheetGroup`] it belongs to, if the sheet has groups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// A set of a sheet's units the dashboard pools into one row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetGroup {
    /// Its key (`inquiry`).
    pub key: String,
    /// What the page calls it (`追问 Inquiry`).
    pub name: String,
}

fn default_step() -> f64 {
    0.5
}

impl SheetUnit {
    /// A unit of `max` points in steps of a half point.
    pub fn new(key: impl Into<String>, name: impl Into<String>, max: f64) -> Self {
        SheetUnit {
            key: key.into(),
            name: name.into(),
            max,
            step: default_step(),
            group: None,
        }
    }

    /// A 0/1 mark of group `group`.
    pub fn mark(key: impl Into<String>, name: impl Into<String>, group: &str) -> Self {
        SheetUnit {
            key: key.into(),
            name: name.into(),
            max: 1.0,
            step: 1.0,
            group: Some(group.to_owned()),
        }
    }

    /// Whether the unit is a 0/1 mark (the dashboard then gives Cohen's kappa).
    pub fn binary(&self) -> bool {
        self.max == 1.0 && self.step == 1.0
    }
}

/// What an expert scores on an item (see the [module documentation](self)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sheet {
    /// The benchmark the item comes from.
    pub benchmark: Benchmark,
    /// The benchmark's task of the item (`case_analysis`).
    pub task: String,
    /// The units, in the order pages show them and labels list them.
    pub units: Vec<SheetUnit>,
    /// The groups the units belong to, in the order the dashboard lists
    /// them; empty for a sheet without groups.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<SheetGroup>,
}

/// Why a sheet label is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// Neither a JSON object nor `key=points` pairs.
    #[error("give points per section as key=points pairs (e.g. {example}) or a JSON object")]
    Malformed {
        /// The pairs this sheet would take.
        example: String,
    },
    /// A unit the sheet does not have.
    #[error("unknown section \"{key}\"; the sections are {expected}")]
    UnknownUnit {
        /// The key given.
        key: String,
        /// The sheet's keys, joined by `", "`.
        expected: String,
    },
    /// A unit given twice.
    #[error("section \"{key}\" is given twice")]
    Repeated {
        /// The key.
        key: String,
    },
    /// A unit left out.
    #[error("section \"{key}\" has no points")]
    Missing {
        /// The key.
        key: String,
    },
    /// Points that are no number, outside `[0, max]` or off the step.
    #[error("section \"{key}\": {message}")]
    BadPoints {
        /// The key.
        key: String,
        /// What is wrong.
        message: String,
    },
}

impl Sheet {
    /// The most points of the whole item.
    pub fn max(&self) -> f64 {
        self.units.iter().map(|u| u.max).sum()
    }

    /// `label` in its stored form, or why it is refused (see the
    /// [module documentation](self)).
    pub fn canonical(&self, label: &str) -> Result<String, SheetError> {
        let given = self.given(label)?;
        let mut points = vec![None; self.units.len()];
        for (key, value) in given {
            let Some(at) = self.units.iter().position(|u| u.key == key) else {
                return Err(SheetError::UnknownUnit {
                    key,
                    expected: self.keys().join(", "),
                });
            };
            if points[at].is_some() {
                return Err(SheetError::Repeated { key });
            }
            points[at] = Some(self.checked(&self.units[at], &value)?);
        }
        let points = self
            .units
            .iter()
            .zip(points)
            .map(|(unit, points)| {
                points.ok_or_else(|| SheetError::Missing {
                    key: unit.key.clone(),
                })
            })
            .collect::<Result<Vec<f64>, _>>()?;
        Ok(self.stored(&points))
    }

    /// The stored form of `points`, one per unit in sheet order, unchecked
    /// (a judge panel's mean may fall between steps).
    ///
    /// ```
    /// use engine::benchmark::Benchmark;
    /// use engine::review::{Sheet, SheetUnit};
    ///
    /// let sheet = Sheet { benchmark: Benchmark::Plawbench, task: "legal_qa".into(), units: vec![SheetUnit::new("total", "总分", 5.0)], groups: vec![] };
    /// assert_eq!(sheet.stored(&[10.0 / 3.0]), r#"{"total":3.3333333333333335}"#);
    /// ```
    pub fn stored(&self, points: &[f64]) -> String {
        let mut stored = String::from("{");
        for (unit, points) in self.units.iter().zip(points) {
            if stored.len() > 1 {
                stored.push(',');
            }
            let key = serde_json::to_string(&unit.key).unwrap_or_default();
            let _ = write!(stored, "{key}:{}", number(*points));
        }
        stored.push('}');
        stored
    }

    /// The stored form of a judge's label that may leave units undecided
    /// (`None` is written `null`).
    ///
    /// ```
    /// use engine::benchmark::Benchmark;
    /// use engine::review::{Sheet, SheetUnit};
    ///
    /// let sheet = Sheet { benchmark: Benchmark::Dlawbench, task: "session".into(), groups: vec![],
    ///     units: vec![SheetUnit::mark("inquiry-1", "A", "inquiry"), SheetUnit::mark("inquiry-2", "B", "inquiry")] };
    /// let label = sheet.stored_partial(&[Some(1.0), None]);
    /// assert_eq!(label, r#"{"inquiry-1":1,"inquiry-2":null}"#);
    /// assert_eq!(sheet.points_partial(&label), Some(vec![Some(1.0), None]));
    /// assert_eq!(sheet.points(&label), None, "not a full label");
    /// ```
    pub fn stored_partial(&self, points: &[Option<f64>]) -> String {
        let mut stored = String::from("{");
        for (unit, points) in self.units.iter().zip(points) {
            if stored.len() > 1 {
                stored.push(',');
            }
            let key = serde_json::to_string(&unit.key).unwrap_or_default();
            let value = points.map_or_else(|| "null".to_owned(), number);
            let _ = write!(stored, "{key}:{value}");
        }
        stored.push('}');
        stored
    }

    /// The points of a stored label that may leave units undecided (`null`),
    /// in unit order; `None` when it is not a label of this sheet.
    pub fn points_partial(&self, stored: &str) -> Option<Vec<Option<f64>>> {
        let object: serde_json::Map<String, Value> = serde_json::from_str(stored).ok()?;
        if object.len() != self.units.len() {
            return None;
        }
        self.units
            .iter()
            .map(|u| match object.get(&u.key)? {
                Value::Null => Some(None),
                v => v.as_f64().filter(|p| p.is_finite()).map(Some),
            })
            .collect()
    }

    /// The group of key `key`.
    pub fn group(&self, key: &str) -> Option<&SheetGroup> {
        self.groups.iter().find(|g| g.key == key)
    }

    /// The points of a stored label, in unit order; `None` when it is not a
    /// label of this sheet.
    pub fn points(&self, stored: &str) -> Option<Vec<f64>> {
        let object: serde_json::Map<String, Value> = serde_json::from_str(stored).ok()?;
        if object.len() != self.units.len() {
            return None;
        }
        self.units
            .iter()
            .map(|u| object.get(&u.key)?.as_f64().filter(|p| p.is_finite()))
            .collect()
    }

    fn keys(&self) -> Vec<&str> {
        self.units.iter().map(|u| u.key.as_str()).collect()
    }

    /// The (key, points as written) pairs of `label`.
    fn given(&self, label: &str) -> Result<Vec<(String, String)>, SheetError> {
        let label = label.trim();
        let malformed = || SheetError::Malformed {
            example: self
                .units
                .iter()
                .map(|u| format!("{}={}", u.key, number(u.max)))
                .collect::<Vec<_>>()
                .join(", "),
        };
        if label.starts_with('{') {
            let object: serde_json::Map<String, Value> =
                serde_json::from_str(label).map_err(|_| malformed())?;
            return Ok(object
                .into_iter()
                .map(|(key, value)| {
                    let written = match value {
                        Value::String(s) => s,
                        other => other.to_string(),
                    };
                    (key, written)
                })
                .collect());
        }
        if let [only] = self.units.as_slice() {
            if !label.contains('=') {
                return Ok(vec![(only.key.clone(), label.to_owned())]);
            }
        }
        label
            .split([',', '，', '\n', ';'])
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(|part| {
                let (key, value) = part.split_once('=').ok_or_else(malformed)?;
                Ok((key.trim().to_owned(), value.trim().to_owned()))
            })
            .collect()
    }

    fn checked(&self, unit: &SheetUnit, written: &str) -> Result<f64, SheetError> {
        let bad = |message: String| SheetError::BadPoints {
            key: unit.key.clone(),
            message,
        };
        let points: f64 = written
            .trim()
            .parse()
            .map_err(|_| bad(format!("\"{written}\" is not a number")))?;
        if !points.is_finite() || points < 0.0 || points > unit.max {
            return Err(bad(format!(
                "{written} is outside 0 to {} points",
                number(unit.max)
            )));
        }
        let steps = points / unit.step;
        if (steps - steps.round()).abs() > 1e-9 {
            return Err(bad(format!(
                "{written} is not a multiple of {} points",
                number(unit.step)
            )));
        }
        Ok(points)
    }
}

/// `points` as a label writes it: whole numbers without a decimal point.
fn number(points: f64) -> String {
    if points.fract() == 0.0 && points.abs() < 1e15 {
        format!("{}", points as i64)
    } else {
        format!("{points}")
    }
}

/// One sheet item as the dashboard counts it.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetItem {
    /// Its sheet.
    pub sheet: Sheet,
    /// The experts' blind labels, in a fixed order of the experts (the first
    /// two are the pair compared).
    pub submissions: Vec<String>,
    /// The judge's label.
    pub judge_label: Option<String>,
    /// The final label, once there is one.
    pub final_label: Option<String>,
}

/// Two raters' points on the same units, compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairStats {
    /// Pairs compared.
    pub n: usize,
    /// Mean absolute difference, in points.
    pub mad: Option<f64>,
    /// Pearson's r; `None` with fewer than two pairs or no spread.
    pub pearson: Option<f64>,
    /// Share of pairs that differ by at most 10% of the most points.
    pub within_10pct: Option<f64>,
    /// Share of pairs with equal points.
    pub exact: Option<f64>,
    /// Cohen's kappa, for 0/1 marks only.
    pub kappa: Option<f64>,
}

impl PairStats {
    /// The figures of `pairs`, each with the most points it could get;
    /// `binary` asks for Cohen's kappa.
    pub fn of(pairs: &[(f64, f64, f64)], binary: bool) -> PairStats {
        let n = pairs.len();
        let share = |f: &dyn Fn(&(f64, f64, f64)) -> bool| {
            (n > 0).then(|| pairs.iter().filter(|p| f(p)).count() as f64 / n as f64)
        };
        let a: Vec<f64> = pairs.iter().map(|p| p.0).collect();
        let b: Vec<f64> = pairs.iter().map(|p| p.1).collect();
        let kappa = if binary {
            let code = |v: &f64| u8::from(*v >= 0.5);
            let a: Vec<u8> = a.iter().map(code).collect();
            let b: Vec<u8> = b.iter().map(code).collect();
            crate::agreement::kappa_over(n, || cohen_kappa(&a, &b, 2))
        } else {
            None
        };
        PairStats {
            n,
            mad: (n > 0).then(|| pairs.iter().map(|p| (p.0 - p.1).abs()).sum::<f64>() / n as f64),
            pearson: pearson(&a, &b),
            within_10pct: share(&|p| (p.0 - p.1).abs() <= 0.1 * p.2 + 1e-9),
            exact: share(&|p| (p.0 - p.1).abs() < 1e-9),
            kappa,
        }
    }
}

/// The figures of one task and unit (or of the item totals).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SheetRow {
    /// The benchmark.
    pub benchmark: Benchmark,
    /// The task.
    pub task: String,
    /// The unit's key; `None` for the row of item totals.
    pub unit: Option<String>,
    /// The unit's name (`None` for totals).
    pub name: Option<String>,
    /// Items of the task with this unit.
    pub n_items: usize,
    /// Units (for the totals row, items) the judge left undecided where a
    /// final label exists: left out of the judge comparison.
    #[serde(default)]
    pub judge_left_out: usize,
    /// The judge against the final label.
    pub judge: PairStats,
    /// The first two experts' blind labels.
    pub human: PairStats,
}

/// The dashboard rows of sheet items: per task (in order of first
/// appearance), a row for the item totals, then one per unit (in sheet order,
/// first appearance) when the task's sheets have more than one. Labels that
/// are not labels of their item's sheet are left out.
///
/// ```
/// use engine::benchmark::Benchmark;
/// use engine::review::{sheet_rows, Sheet, SheetItem, SheetUnit};
///
/// let sheet = Sheet { benchmark: Benchmark::Plawbench, task: "legal_consultation".into(), units: vec![SheetUnit::new("total", "总分", 10.0)], groups: vec![] };
/// let item = |a: &str, b: &str, judge: &str, last: &str| SheetItem {
///     sheet: sheet.clone(),
///     submissions: vec![a.into(), b.into()],
///     judge_label: Some(judge.into()),
///     final_label: Some(last.into()),
/// };
/// let rows = sheet_rows(&[item(r#"{"total":6}"#, r#"{"total":6}"#, r#"{"total":8}"#, r#"{"total":6}"#),
///                         item(r#"{"total":2}"#, r#"{"total":3}"#, r#"{"total":2}"#, r#"{"total":3}"#)]);
/// assert_eq!(rows.len(), 1); // the totals: a sheet of one unit has no row of its own
/// assert_eq!(rows[0].judge.mad, Some(1.5)); // |8 − 6| and |2 − 3|
/// assert_eq!(rows[0].judge.within_10pct, Some(0.5));
/// assert_eq!(rows[0].human.exact, Some(0.5));
/// ```
pub fn sheet_rows(items: &[SheetItem]) -> Vec<SheetRow> {
    /// (one rater's points, the other's, the most points).
    type Pairs = Vec<(f64, f64, f64)>;
    /// A row being counted: a unit, or a group of units pooled.
    struct Slot {
        key: String,
        name: String,
        binary: bool,
        n_items: usize,
        left_out: usize,
        judge: Pairs,
        human: Pairs,
    }
    impl Slot {
        fn new(key: &str, name: &str, binary: bool) -> Slot {
            Slot {
                key: key.to_owned(),
                name: name.to_owned(),
                binary,
                n_items: 0,
                left_out: 0,
                judge: Vec::new(),
                human: Vec::new(),
            }
        }
    }
    /// One (benchmark, task): its items, the item totals and its slots in
    /// order.
    struct Group {
        benchmark: Benchmark,
        task: String,
        totals: Slot,
        slots: Vec<Slot>,
    }
    let mut groups: Vec<Group> = Vec::new();
    for item in items {
        let sheet = &item.sheet;
        let at = match groups
            .iter()
            .position(|g| g.benchmark == sheet.benchmark && g.task == sheet.task)
        {
            Some(at) => at,
            None => {
                groups.push(Group {
                    benchmark: sheet.benchmark,
                    task: sheet.task.clone(),
                    totals: Slot::new("", "", false),
                    slots: Vec::new(),
                });
                groups.len() - 1
            }
        };
        let group = &mut groups[at];
        group.totals.n_items += 1;
        let last = item.final_label.as_deref().and_then(|l| sheet.points(l));
        let judged = item
            .judge_label
            .as_deref()
            .and_then(|l| sheet.points_partial(l))
            .zip(last);
        let humans = match item.submissions.as_slice() {
            [a, b, ..] => sheet.points(a).zip(sheet.points(b)),
            _ => None,
        };
        let sum = |v: &[f64]| v.iter().sum::<f64>();
        if let Some((j, f)) = &judged {
            match j.iter().copied().collect::<Option<Vec<f64>>>() {
                Some(j) => group.totals.judge.push((sum(&j), sum(f), sheet.max())),
                None => group.totals.left_out += 1,
            }
        }
        if let Some((a, b)) = &humans {
            group.totals.human.push((sum(a), sum(b), sheet.max()));
        }
        let mut counted: Vec<usize> = Vec::new();
        for (i, unit) in sheet.units.iter().enumerate() {
            let pooled = unit.group.as_deref().and_then(|g| sheet.group(g));
            let (key, name) = match pooled {
                Some(g) => (g.key.as_str(), g.name.as_str()),
                None => (unit.key.as_str(), unit.name.as_str()),
            };
            let at = match group.slots.iter().position(|s| s.key == key) {
                Some(at) => at,
                None => {
                    group.slots.push(Slot::new(key, name, true));
                    group.slots.len() - 1
                }
            };
            let slot = &mut group.slots[at];
            slot.binary &= unit.binary();
            if !counted.contains(&at) {
                counted.push(at);
                slot.n_items += 1;
            }
            if let Some((j, f)) = &judged {
                match j[i] {
                    Some(j) => slot.judge.push((j, f[i], unit.max)),
                    None => slot.left_out += 1,
                }
            }
            if let Some((a, b)) = &humans {
                slot.human.push((a[i], b[i], unit.max));
            }
        }
    }
    let mut rows = Vec::new();
    for group in groups {
        let binary_item = group.slots.len() == 1 && group.slots[0].binary;
        let totals = &group.totals;
        rows.push(SheetRow {
            benchmark: group.benchmark,
            task: group.task.clone(),
            unit: None,
            name: None,
            n_items: totals.n_items,
            judge_left_out: totals.left_out,
            judge: PairStats::of(&totals.judge, binary_item),
            human: PairStats::of(&totals.human, binary_item),
        });
        // A sheet of one unit: its row would repeat the totals.
        let single = group.slots.len() == 1;
        for slot in group.slots.into_iter().filter(|_| !single) {
            rows.push(SheetRow {
                benchmark: group.benchmark,
                task: group.task.clone(),
                unit: Some(slot.key),
                name: Some(slot.name),
                n_items: slot.n_items,
                judge_left_out: slot.left_out,
                judge: PairStats::of(&slot.judge, slot.binary),
                human: PairStats::of(&slot.human, slot.binary),
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case_sheet() -> Sheet {
        Sheet {
            benchmark: Benchmark::Plawbench,
            task: "case_analysis".into(),
            units: vec![
                SheetUnit::new("conclusion", "结论", 5.0),
                SheetUnit::new("facts", "案件事实", 20.0),
                SheetUnit::new("reasoning", "推理过程", 20.0),
                SheetUnit::new("law", "法条依据", 15.0),
            ],
            groups: vec![],
        }
    }

    #[test]
    fn every_written_form_reaches_one_stored_form() {
        let sheet = case_sheet();
        let stored = r#"{"conclusion":5,"facts":12.5,"reasoning":0,"law":15}"#;
        for written in [
            "conclusion=5, facts=12.5, reasoning=0, law=15",
            "law=15\nreasoning=0\nfacts=12.5\nconclusion=5",
            "conclusion = 5，facts = 12.50，reasoning = 0，law = 15.0",
            r#"{"law":15,"reasoning":"0","facts":12.5,"conclusion":5.0}"#,
            stored,
        ] {
            assert_eq!(sheet.canonical(written).as_deref(), Ok(stored), "{written}");
        }
        assert_eq!(sheet.points(stored), Some(vec![5.0, 12.5, 0.0, 15.0]));
        assert_eq!(sheet.max(), 60.0);
    }

    #[test]
    fn refusals_name_the_section() {
        let sheet = case_sheet();
        let all = |c: &str, f: &str| format!("conclusion={c}, facts={f}, reasoning=1, law=1");
        assert_eq!(
            sheet.canonical(&all("5", "21")).unwrap_err().to_string(),
            "section \"facts\": 21 is outside 0 to 20 points"
        );
        assert_eq!(
            sheet.canonical(&all("-1", "2")).unwrap_err().to_string(),
            "section \"conclusion\": -1 is outside 0 to 5 points"
        );
        assert_eq!(
            sheet.canonical(&all("1.25", "2")).unwrap_err().to_string(),
            "section \"conclusion\": 1.25 is not a multiple of 0.5 points"
        );
        assert_eq!(
            sheet.canonical(&all("五", "2")).unwrap_err().to_string(),
            "section \"conclusion\": \"五\" is not a number"
        );
        assert!(matches!(
            sheet.canonical("conclusion=5, facts=1, reasoning=1"),
            Err(SheetError::Missing { key }) if key == "law"
        ));
        assert!(matches!(
            sheet.canonical(&format!("{}, style=1", all("1", "1"))),
            Err(SheetError::UnknownUnit { key, .. }) if key == "style"
        ));
        assert!(matches!(
            sheet.canonical(&format!("{}, law=2", all("1", "1"))),
            Err(SheetError::Repeated { key }) if key == "law"
        ));
        assert!(matches!(
            sheet.canonical("fine"),
            Err(SheetError::Malformed { example }) if example == "conclusion=5, facts=20, reasoning=20, law=15"
        ));
        assert!(sheet.canonical("NaN").is_err());
        assert_eq!(sheet.points(r#"{"conclusion":5}"#), None);
    }

    #[test]
    fn a_sheet_of_one_unit_takes_a_bare_number() {
        let sheet = Sheet {
            benchmark: Benchmark::Plawbench,
            task: "plaintiff_statement".into(),
            units: vec![SheetUnit::new("total", "总分", 30.0)],
            groups: vec![],
        };
        assert_eq!(
            sheet.canonical(" 17.5 ").as_deref(),
            Ok(r#"{"total":17.5}"#)
        );
        assert_eq!(sheet.canonical("total=3").as_deref(), Ok(r#"{"total":3}"#));
        assert!(sheet.canonical("31").is_err());
    }

    #[test]
    fn rows_compare_judge_with_final_and_expert_with_expert() {
        let sheet = case_sheet();
        let label = |c: f64, f: f64, r: f64, l: f64| {
            sheet
                .canonical(&format!(
                    "conclusion={c}, facts={f}, reasoning={r}, law={l}"
                ))
                .unwrap()
        };
        let items = vec![
            SheetItem {
                sheet: sheet.clone(),
                submissions: vec![label(5.0, 10.0, 10.0, 15.0), label(5.0, 12.0, 10.0, 15.0)],
                judge_label: Some(label(5.0, 20.0, 10.0, 0.0)),
                final_label: Some(label(5.0, 12.0, 10.0, 15.0)),
            },
            SheetItem {
                sheet: sheet.clone(),
                submissions: vec![label(0.0, 5.0, 20.0, 5.0), label(0.0, 5.0, 18.0, 5.0)],
                judge_label: Some(label(5.0, 5.0, 20.0, 5.0)),
                final_label: None,
            },
        ];
        let rows = sheet_rows(&items);
        let keys: Vec<Option<&str>> = rows.iter().map(|r| r.unit.as_deref()).collect();
        assert_eq!(
            keys,
            [
                None,
                Some("conclusion"),
                Some("facts"),
                Some("reasoning"),
                Some("law")
            ]
        );
        // Only the first item has a final label.
        let totals = &rows[0];
        assert_eq!((totals.n_items, totals.judge.n, totals.human.n), (2, 1, 2));
        // Judge 35 vs final 42: more than 6 (10% of 60) apart.
        assert_eq!(totals.judge.mad, Some(7.0));
        assert_eq!(totals.judge.within_10pct, Some(0.0));
        // Experts: totals 40 vs 42 and 30 vs 28.
        assert_eq!(totals.human.mad, Some(2.0));
        assert_eq!(totals.human.exact, Some(0.0));
        let facts = &rows[2];
        assert_eq!(facts.judge.mad, Some(8.0));
        assert_eq!(facts.judge.within_10pct, Some(0.0));
        assert_eq!(facts.human.exact, Some(0.5));
        assert_eq!(facts.human.within_10pct, Some(1.0));
        let law = &rows[4];
        assert_eq!(law.human.pearson, Some(1.0));
        assert_eq!(law.judge.kappa, None, "points are not 0/1 marks");
    }

    #[test]
    fn binary_units_get_cohens_kappa() {
        let mark = |key: &str| SheetUnit {
            key: key.into(),
            name: key.into(),
            max: 1.0,
            step: 1.0,
            group: None,
        };
        let sheet = Sheet {
            benchmark: Benchmark::Dlawbench,
            task: "inquiry".into(),
            units: vec![mark("i1"), mark("i2")],
            groups: vec![],
        };
        let items: Vec<SheetItem> = [("1", "1"), ("0", "1"), ("0", "0"), ("1", "1")]
            .iter()
            .map(|(a, b)| SheetItem {
                sheet: sheet.clone(),
                submissions: vec![
                    sheet.canonical(&format!("i1={a}, i2=1")).unwrap(),
                    sheet.canonical(&format!("i1={b}, i2=1")).unwrap(),
                ],
                judge_label: None,
                final_label: None,
            })
            .collect();
        let rows = sheet_rows(&items);
        let i1 = rows
            .iter()
            .find(|r| r.unit.as_deref() == Some("i1"))
            .unwrap();
        // p_o = 3/4; expert a: 1,0,0,1 (p1 = 1/2), b: 1,1,0,1 (p1 = 3/4);
        // p_e = 1/2·3/4 + 1/2·1/4 = 1/2; kappa = (3/4 − 1/2) / (1/2) = 1/2.
        assert!((i1.human.kappa.unwrap() - 0.5).abs() < 1e-12);
        assert_eq!(
            rows[0].human.kappa, None,
            "totals of two marks are not a mark"
        );
    }

    #[test]
    fn grouped_marks_pool_into_a_row_per_group_and_undecided_units_are_counted() {
        let sheet = Sheet {
            benchmark: Benchmark::Dlawbench,
            task: "session".into(),
            units: vec![
                SheetUnit::mark("inquiry-1", "asks A", "inquiry"),
                SheetUnit::mark("inquiry-2", "asks B", "inquiry"),
                SheetUnit::mark("issue-1", "resolves C", "issue"),
            ],
            groups: vec![
                SheetGroup {
                    key: "inquiry".into(),
                    name: "Inquiry".into(),
                },
                SheetGroup {
                    key: "issue".into(),
                    name: "Issue".into(),
                },
            ],
        };
        let item = |judge: [Option<f64>; 3], last: &str| SheetItem {
            sheet: sheet.clone(),
            submissions: vec![last.into(), last.into()],
            judge_label: Some(sheet.stored_partial(&judge)),
            final_label: Some(last.into()),
        };
        let items = [
            // The panel split 1–1 on inquiry-2.
            item(
                [Some(1.0), None, Some(0.0)],
                r#"{"inquiry-1":1,"inquiry-2":0,"issue-1":1}"#,
            ),
            item(
                [Some(1.0), Some(1.0), Some(1.0)],
                r#"{"inquiry-1":1,"inquiry-2":1,"issue-1":1}"#,
            ),
        ];
        let rows = sheet_rows(&items);
        let keys: Vec<Option<&str>> = rows.iter().map(|r| r.unit.as_deref()).collect();
        assert_eq!(keys, [None, Some("inquiry"), Some("issue")]);
        // Totals: the first item has an undecided unit, so only the second counts.
        assert_eq!((rows[0].judge.n, rows[0].judge_left_out), (1, 1));
        let inquiry = &rows[1];
        assert_eq!(inquiry.name.as_deref(), Some("Inquiry"));
        assert_eq!(
            (inquiry.n_items, inquiry.judge.n, inquiry.judge_left_out),
            (2, 3, 1)
        );
        assert_eq!(inquiry.judge.exact, Some(1.0));
        assert_eq!(inquiry.human.n, 4);
        let issue = &rows[2];
        assert_eq!((issue.judge.n, issue.judge_left_out), (2, 0));
        // Judge 0, 1 against final 1, 1: p_o = 1/2, p_e = 1/2·1 + 1/2·0 = 1/2, kappa 0.
        assert_eq!(issue.judge.exact, Some(0.5));
        assert!(
            issue.judge.kappa.is_some_and(|k| k.abs() < 1e-12),
            "{:?}",
            issue.judge
        );
    }
}
