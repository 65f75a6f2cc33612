//! DLawBench panel decisions for expert review (§A6, issue: experts check
//! the panel): the score sheet of a session, what the experts see of a
//! judged session, the panel's item decisions kept apart, and the draw of
//! sessions to review, stratified by style.
//!
//! - **Sheet** ([`sheet`]): one 0/1 mark per Inquiry rubric item
//!   (`inquiry-1`, … in the case's order) and per Issue rubric item
//!   (`issue-1`, …), grouped into the two dimensions, so that the dashboard
//!   gives Cohen's kappa per dimension pooled over every rubric item of every
//!   reviewed session.
//! - **Decisions** ([`judge_decisions`]): every session of a run the panel
//!   judged (available, no task failure, at least one seated judge with
//!   decisions). The judge label is the panel's item decision, the majority
//!   of the seated judges ([`super::score::item_decisions`]); a 1–1 split is
//!   written `null` and left out of the comparison, and counted. The expert
//!   sees the case's opening, its fact pairs, both rubric lists, the dialogue
//!   with its turn numbers and the memo; never a judge's decisions, rationale
//!   or name.
//! - **Draw** ([`draw_panel_sample`]): up to `per_style` sessions of each
//!   style and `cap` in all ([`crate::review::draw_per_target`]).

use serde_json::json;

use super::dataset::{Case, Rubric};
use super::run::Run;
use super::score::item_decisions;
use crate::benchmark::Benchmark;
use crate::review::{
    draw_per_target, JudgeCandidate, JudgeDecision, OpenDecision, Sheet, SheetGroup, SheetUnit,
};

/// Sessions drawn per style when none is said.
pub const DEFAULT_PER_STYLE: usize = 5;
/// Sessions drawn in all when none is said.
pub const DEFAULT_CAP: usize = 20;
/// The task every DLawBench sheet is of.
pub const SHEET_TASK: &str = "session";

/// The key of the `k`-th (0-based) item of a dimension's rubric list.
fn unit_key(dimension: &str, k: usize) -> String {
    format!("{dimension}-{}", k + 1)
}

/// The score sheet of `case` (see the [module documentation](self)).
///
/// ```
/// use engine::dlawbench::dataset::parse_dataset;
/// use engine::dlawbench::review::sheet;
///
/// let cases = parse_dataset(r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "o", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q1"}, {"id": "Q2", "text": "q2"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#).unwrap();
/// let s = sheet(&cases[0]);
/// assert_eq!(s.units.len(), cases[0].inquiry_rubrics.len() + cases[0].issue_rubrics.len());
/// assert_eq!(s.units[0].key, "inquiry-1");
/// assert!(s.units.iter().all(|u| u.binary()));
/// assert_eq!(s.groups.iter().map(|g| g.key.as_str()).collect::<Vec<_>>(), ["inquiry", "issue"]);
/// ```
pub fn sheet(case: &Case) -> Sheet {
    let inquiry = case
        .inquiry_rubrics
        .iter()
        .enumerate()
        .map(|(k, r)| SheetUnit::mark(unit_key("inquiry", k), r.text.clone(), "inquiry"));
    let issue = case
        .issue_rubrics
        .iter()
        .enumerate()
        .map(|(k, r)| SheetUnit::mark(unit_key("issue", k), r.text.clone(), "issue"));
    Sheet {
        benchmark: Benchmark::Dlawbench,
        task: SHEET_TASK.to_owned(),
        units: inquiry.chain(issue).collect(),
        groups: vec![
            SheetGroup {
                key: "inquiry".into(),
                name: "追问 Inquiry".into(),
            },
            SheetGroup {
                key: "issue".into(),
                name: "争点解决 Issue resolution".into(),
            },
        ],
    }
}

/// Leaves out of `run` the sessions `open` names (of this run, open for
/// blind review; [`crate::review::OpenDecision`] states the rule:
/// `case_id` the case, `target` the style), with every value of their
/// panel, as if the run never had them. How many it left out.
pub fn withhold(run: &mut Run, open: &[OpenDecision]) -> usize {
    let before = run.sessions.len();
    run.sessions.retain(|session| {
        !open
            .iter()
            .any(|d| d.names(None, &session.case_id, Some(session.style.as_str())))
    });
    before - run.sessions.len()
}

/// The judged sessions of `run` that an expert can mark, in run order (see
/// the [module documentation](self)). `case_id` of each decision is the
/// case, `target` the style.
pub fn judge_decisions(run: &Run, cases: &[Case]) -> Vec<JudgeDecision> {
    run.sessions
        .iter()
        .filter_map(|session| {
            let case = cases.iter().find(|c| c.case_id == session.case_id)?;
            let decided = item_decisions(session)?;
            let sheet = sheet(case);
            let mark = |v: &Option<u8>| v.map(f64::from);
            let mut points: Vec<Option<f64>> = decided.inquiry.iter().map(mark).collect();
            points.resize(case.inquiry_rubrics.len(), None);
            let mut issue: Vec<Option<f64>> = decided.issue.iter().map(mark).collect();
            issue.resize(case.issue_rubrics.len(), None);
            points.extend(issue);
            let rubrics = |list: &[Rubric]| -> Vec<_> {
                list.iter()
                    .map(|r| json!({"id": r.id, "text": r.text}))
                    .collect()
            };
            let dialogue: Vec<_> = session
                .dialogue
                .iter()
                .flatten()
                .map(|t| json!({"role": t.role, "content": t.content}))
                .collect();
            Some(JudgeDecision {
                case_id: case.case_id.clone(),
                target: Some(session.style.as_str().to_owned()),
                judge_label: sheet.stored_partial(&points),
                input: json!({
                    "benchmark": Benchmark::Dlawbench.as_str(),
                    "style": session.style,
                    "status": session.status,
                    "jurisdiction": case.jurisdiction,
                    "language": case.language,
                    "domain": case.domain,
                    "opening": case.opening,
                    "facts": case.facts,
                    "inquiry_rubrics": rubrics(&case.inquiry_rubrics),
                    "issue_rubrics": rubrics(&case.issue_rubrics),
                    "dialogue": dialogue,
                    "memo": session.memo.clone().unwrap_or_default(),
                    "sheet": sheet,
                }),
            })
        })
        .collect()
}

/// Up to `per_style` of `candidates` of each style and `cap` in all (see
/// the [module documentation](self)).
pub fn draw_panel_sample(
    candidates: Vec<JudgeCandidate>,
    per_style: usize,
    cap: usize,
    seed: u64,
) -> Vec<JudgeCandidate> {
    draw_per_target(candidates, per_style, cap, seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlawbench::dataset::parse_dataset;
    use crate::dlawbench::run::parse_run;
    use crate::review::{sheet_rows, SheetItem};

    const CASE: &str = r#"{"case_id": "C", "jurisdiction": "us", "domain": "torts", "opening": "I was hurt.", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "asks when"}, {"id": "Q2", "text": "asks who"}], "issue_rubrics": [{"id": "R1", "text": "negligence"}]}"#;
    const HEADER: &str = r#"{"kind": "run", "benchmark": "dlawbench", "model": "M", "vendor": "m", "run": 1, "judges": [{"model": "J1", "vendor": "a"}, {"model": "J2", "vendor": "b"}]}"#;

    fn seat(judge: &str, inquiry: &str, issue: &str) -> String {
        format!(
            r#"{{"judge": "{judge}", "recused": false, "rationale": "SECRET-{judge}", "decisions": {{"inquiry": {inquiry}, "issue": {issue}, "covered": ["F1"], "correct": [], "claims_total": 1, "claims_grounded": 1}}}}"#
        )
    }

    fn session(style: &str, status: &str, panel: &str) -> String {
        format!(
            r#"{{"kind": "session", "case_id": "C", "style": "{style}", "status": "{status}", "turns_used": 1, "dialogue": [{{"role": "client", "content": "I was hurt."}}, {{"role": "lawyer", "action": "ask", "content": "When?"}}, {{"role": "client", "content": "In May."}}], "memo": "A memo.", "panel": [{panel}]}}"#
        )
    }

    #[test]
    fn the_panel_label_is_the_majority_with_a_split_left_undecided() {
        let cases = parse_dataset(CASE).expect("case");
        let split = format!(
            "{}, {}",
            seat("J1", "[1, 1]", "[0]"),
            seat("J2", "[1, 0]", "[0]")
        );
        let text = [
            HEADER.to_owned(),
            session("cooperative", "submitted", &split),
            session("adversarial", "submitted", &split),
        ]
        .join("\n");
        let run = parse_run(&text, &cases).expect("run");
        let decisions = judge_decisions(&run, &cases);
        assert_eq!(decisions.len(), 2);
        let first = &decisions[0];
        assert_eq!(first.case_id, "C");
        assert_eq!(first.target.as_deref(), Some("cooperative"));
        assert_eq!(
            first.judge_label,
            r#"{"inquiry-1":1,"inquiry-2":null,"issue-1":0}"#
        );
        // The expert sees the interview and the rubric, not the panel.
        let input = first.input.to_string();
        assert!(input.contains("When?") && input.contains("A memo.") && input.contains("asks who"));
        assert!(!input.contains("SECRET") && !input.contains("J1") && !input.contains("J2"));
        assert_eq!(first.input["facts"][0]["court_record"], "r");

        // Experts who mark 1, 0 / 0 agree with the panel where it decided.
        let sheet = sheet(&cases[0]);
        let expert = sheet
            .canonical("inquiry-1=1, inquiry-2=0, issue-1=0")
            .expect("label");
        let items: Vec<SheetItem> = decisions
            .iter()
            .map(|d| SheetItem {
                sheet: sheet.clone(),
                submissions: vec![expert.clone(), expert.clone()],
                judge_label: Some(d.judge_label.clone()),
                final_label: Some(expert.clone()),
            })
            .collect();
        let rows = sheet_rows(&items);
        let inquiry = rows
            .iter()
            .find(|r| r.unit.as_deref() == Some("inquiry"))
            .expect("row");
        assert_eq!((inquiry.judge.n, inquiry.judge_left_out), (2, 2));
        assert_eq!(inquiry.judge.exact, Some(1.0));
    }

    #[test]
    fn failed_and_unavailable_sessions_are_not_drawn() {
        let cases = parse_dataset(CASE).expect("case");
        let panel = format!(
            "{}, {}",
            seat("J1", "[1, 1]", "[1]"),
            seat("J2", "[1, 1]", "[1]")
        );
        let unavailable = r#"{"kind": "session", "case_id": "C", "style": "withdrawn", "status": "submitted", "turns_used": 0, "panel": [], "unavailable": "client endpoint failed"}"#;
        let failed = r#"{"kind": "session", "case_id": "C", "style": "dependent", "status": "lawyer_error", "turns_used": 0, "panel": []}"#;
        let text = [
            HEADER.to_owned(),
            session("cooperative", "submitted", &panel),
            unavailable.to_owned(),
            failed.to_owned(),
        ]
        .join("\n");
        let run = parse_run(&text, &cases).expect("run");
        let decisions = judge_decisions(&run, &cases);
        let styles: Vec<_> = decisions.iter().map(|d| d.target.clone()).collect();
        assert_eq!(styles, [Some("cooperative".to_owned())]);
        assert_eq!(
            decisions[0].judge_label,
            r#"{"inquiry-1":1,"inquiry-2":1,"issue-1":1}"#
        );
    }
}
