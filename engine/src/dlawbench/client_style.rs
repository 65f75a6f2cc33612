//! The human check of the client simulator ([D] "Human validation"):
//! experts read a simulated client's turns and name the narrative style,
//! "annotators recover the intended narrative style from anonymized
//! dialogue slices with 96.9% segment-level accuracy and four-way Fleiss'
//! κ=0.917" [D]. [D] gives those two figures over all segments only; its
//! Appendix G.1 (sample coverage, how many annotators) is not in the seed.
//!
//! - **Segments** ([`segments`]): one per session of a run whose simulator
//!   said something (available, at least one client turn after the
//!   opening). What the expert sees: the case's jurisdiction and language,
//!   the opening (the case's own neutral statement, the same for every
//!   style, shown as context), and the dialogue after it, the lawyer's
//!   questions as context beside the client's replies that are judged: [D]
//!   speaks of "dialogue slices", which have both sides. Never the style,
//!   the lawyer model, the memo or the panel. The gold is the session's
//!   style, kept as the item's judge label (shown only once the expert has
//!   submitted, like every judge label).
//! - **Draw** ([`draw_segments`]): up to `per_style` sessions of each style
//!   and `cap` in all ([`crate::review::draw_per_target`]), each given a
//!   key that does not name its style ([`SampledSegment::key`]).
//! - **Figures** ([`ClientStyleFigures::of`]): per simulated style and over
//!   all segments, the segments and expert labels counted, accuracy (the
//!   share of expert labels, each expert's blind label of each segment
//!   counted once, that name the simulated style) and Fleiss' κ among the
//!   experts ([`crate::agreement::fleiss_kappa`] over the four styles), with
//!   the confusion of simulated against named styles. Fleiss' κ needs the
//!   same number of raters per segment: it is taken over the segments with
//!   the most common count of labels (at least two; the larger count on a
//!   tie) and says how many. Within one style, κ is low or undefined when
//!   nearly every label is that style (the expected agreement is then close
//!   to 1): the paper's 0.917 is over all four styles, the overall row.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::dataset::{Case, Style};
use super::run::{Role, Run};
use crate::agreement::fleiss_kappa;
use crate::benchmark::Benchmark;
use crate::metrics::Xoshiro256StarStar;
use crate::review::{draw_per_target, JudgeCandidate, JudgeDecision};

/// [D]'s segment-level accuracy of annotators naming the intended style.
pub const PAPER_ACCURACY: f64 = 0.969;
/// [D]'s four-way Fleiss' κ among annotators.
pub const PAPER_KAPPA: f64 = 0.917;
/// Sessions drawn per style when none is said.
pub const DEFAULT_PER_STYLE: usize = 5;
/// Sessions drawn in all when none is said.
pub const DEFAULT_CAP: usize = 20;
/// The most sessions one batch may draw.
pub const MAX_SAMPLE: usize = 2000;

/// The sessions of `run` whose client simulator spoke, as review
/// candidates (see the [module documentation](self)): `target` the style
/// (for the draw only), `judge_label` the style (the gold), `input` what
/// the expert reads.
pub fn segments(run: &Run, cases: &[Case]) -> Vec<JudgeDecision> {
    run.sessions
        .iter()
        .filter(|s| s.unavailable.is_none())
        .filter_map(|session| {
            let case = cases.iter().find(|c| c.case_id == session.case_id)?;
            let dialogue = session.dialogue.as_deref().unwrap_or_default();
            // The opening is the case's, not the simulator's.
            let after: Vec<_> = dialogue
                .iter()
                .skip(usize::from(
                    dialogue.first().is_some_and(|t| t.role == Role::Client),
                ))
                .collect();
            if !after.iter().any(|t| t.role == Role::Client) {
                return None;
            }
            let turns: Vec<_> = after
                .iter()
                .map(|t| json!({"role": t.role, "content": t.content}))
                .collect();
            Some(JudgeDecision {
                case_id: case.case_id.clone(),
                target: Some(session.style.as_str().to_owned()),
                judge_label: session.style.as_str().to_owned(),
                input: json!({
                    "benchmark": Benchmark::Dlawbench.as_str(),
                    "jurisdiction": case.jurisdiction,
                    "language": case.language,
                    "opening": case.opening,
                    "turns": turns,
                }),
            })
        })
        .collect()
}

/// Why a batch of segments cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    /// The dataset has no stored DLawBench run.
    #[error("no DLawBench run is stored on this dataset; upload a run first")]
    NoRun,
    /// The run named is not stored.
    #[error("no stored DLawBench run {named}; stored runs: {}", .stored.join(", "))]
    UnknownRun {
        /// The run as named (`MODEL` or `MODEL #N`).
        named: String,
        /// The stored runs, `MODEL #N`.
        stored: Vec<String>,
    },
    /// The runs have no session where the client simulator spoke.
    #[error("the run has no session with a client reply to review")]
    NoSegments,
    /// A count of 0.
    #[error("{field} must be at least 1")]
    Zero {
        /// `per_style` or `cap`.
        field: &'static str,
    },
    /// More per style than a style has.
    #[error("per_style {asked} is more than the {available} {style} sessions with a client reply")]
    TooLarge {
        /// Sessions asked per style.
        asked: usize,
        /// The style short of sessions.
        style: Style,
        /// Its sessions with a client reply.
        available: usize,
    },
    /// More than [`MAX_SAMPLE`] in one batch.
    #[error("a batch draws at most {max} sessions; {asked} asked")]
    OverMax {
        /// Sessions asked.
        asked: usize,
        /// [`MAX_SAMPLE`].
        max: usize,
    },
}

impl SampleError {
    /// The message in `lang` (English is the [`std::fmt::Display`] form).
    pub fn message(&self, lang: crate::lang::Lang) -> String {
        if lang == crate::lang::Lang::En {
            return self.to_string();
        }
        match self {
            Self::NoRun => "此数据集尚无 DLawBench 运行结果；请先上传运行结果".to_owned(),
            Self::UnknownRun { named, stored } => format!(
                "没有已存储的 DLawBench 运行 {named}；已存储：{}",
                stored.join("、")
            ),
            Self::NoSegments => "运行中没有含当事人回复的会话可供复核".to_owned(),
            Self::Zero { field } => format!("{field} 至少为 1"),
            Self::TooLarge {
                asked,
                style,
                available,
            } => format!(
                "每种风格 {asked} 个超过了{}含当事人回复的会话数 {available}",
                style.label_zh()
            ),
            Self::OverMax { asked, max } => {
                format!("一批最多抽取 {max} 个会话；要求 {asked} 个")
            }
        }
    }
}

/// The draw's (per style, cap) from what was asked and the segments of
/// each style available: asked values are checked against them (a count of
/// 0, more per style than a style present has, more than [`MAX_SAMPLE`]);
/// without `per_style`, [`DEFAULT_PER_STYLE`] or the fewest a present style
/// has; without `cap`, [`DEFAULT_CAP`] or what the per-style share needs
/// if more.
///
/// ```
/// use engine::dlawbench::client_style::{plan, SampleError};
/// use engine::dlawbench::dataset::Style;
///
/// let available = [(Style::Cooperative, 3), (Style::Withdrawn, 2)];
/// assert_eq!(plan(&available, None, None), Ok((2, 20)));
/// assert_eq!(plan(&available, Some(2), Some(3)), Ok((2, 3)));
/// assert!(matches!(plan(&available, Some(3), None), Err(SampleError::TooLarge { style: Style::Withdrawn, available: 2, .. })));
/// assert!(matches!(plan(&available, Some(0), None), Err(SampleError::Zero { .. })));
/// assert!(matches!(plan(&[], None, None), Err(SampleError::NoSegments)));
/// ```
pub fn plan(
    available: &[(Style, usize)],
    per_style: Option<usize>,
    cap: Option<usize>,
) -> Result<(usize, usize), SampleError> {
    let present: Vec<(Style, usize)> = available.iter().copied().filter(|&(_, n)| n > 0).collect();
    let Some(fewest) = present.iter().map(|&(_, n)| n).min() else {
        return Err(SampleError::NoSegments);
    };
    if per_style == Some(0) {
        return Err(SampleError::Zero { field: "per_style" });
    }
    if cap == Some(0) {
        return Err(SampleError::Zero { field: "cap" });
    }
    let per = match per_style {
        Some(asked) => {
            if let Some(&(style, available)) = present.iter().find(|&&(_, n)| n < asked) {
                return Err(SampleError::TooLarge {
                    asked,
                    style,
                    available,
                });
            }
            asked
        }
        None => DEFAULT_PER_STYLE.min(fewest),
    };
    let cap = cap.unwrap_or(DEFAULT_CAP.max(per.saturating_mul(present.len())));
    let asked = cap.min(per.saturating_mul(present.len()));
    if cap > MAX_SAMPLE || asked > MAX_SAMPLE {
        return Err(SampleError::OverMax {
            asked: cap.max(asked),
            max: MAX_SAMPLE,
        });
    }
    Ok((per, cap))
}

/// A drawn segment and the key its review item is stored under.
#[derive(Debug, Clone, PartialEq)]
pub struct SampledSegment {
    /// The session.
    pub candidate: JudgeCandidate,
    /// `s{seed}-{k}`: `k` the segment's place in a seeded shuffle of the
    /// sample, so that the key (shown in queues) names neither the style
    /// nor the session's place in its run, and the same draw gives the
    /// same keys.
    pub key: String,
}

/// Up to `per_style` of `candidates` ([`segments`] of stored runs) of each
/// style and `cap` in all, reproducibly from `seed`, each with its key.
///
/// ```
/// use engine::dlawbench::client_style::draw_segments;
/// use engine::review::{JudgeCandidate, JudgeDecision};
///
/// let candidate = |style: &str, case: &str| JudgeCandidate {
///     run_id: 1, model: "M".into(), run_number: 1,
///     decision: JudgeDecision { case_id: case.into(), target: Some(style.into()), judge_label: style.into(), input: serde_json::json!({}) },
/// };
/// let all: Vec<_> = ["cooperative", "withdrawn"].iter().flat_map(|s| (0..4).map(move |i| candidate(s, &i.to_string()))).collect();
/// let drawn = draw_segments(all.clone(), 2, 100, 7);
/// assert_eq!(drawn.len(), 4);
/// assert!(drawn.iter().all(|d| d.key.starts_with("s7-") && !d.key.contains("withdrawn")));
/// assert_eq!(drawn, draw_segments(all, 2, 100, 7));
/// ```
pub fn draw_segments(
    candidates: Vec<JudgeCandidate>,
    per_style: usize,
    cap: usize,
    seed: u64,
) -> Vec<SampledSegment> {
    let drawn = draw_per_target(candidates, per_style, cap, seed);
    let mut places: Vec<usize> = (1..=drawn.len()).collect();
    let mut rng = Xoshiro256StarStar::seed_from_u64(seed ^ 0x5e6_u64);
    for i in (1..places.len()).rev() {
        let Some(bound) = std::num::NonZeroU64::new(i as u64 + 1) else {
            continue;
        };
        let j = rng.below(bound) as usize;
        places.swap(i, j);
    }
    drawn
        .into_iter()
        .zip(places)
        .map(|(candidate, k)| SampledSegment {
            candidate,
            key: format!("s{seed}-{k:03}"),
        })
        .collect()
}

/// One reviewed segment: the simulated style and the experts' blind labels
/// (wire names; a label that is not a style counts as wrong and is left out
/// of κ's table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// The style the simulator was given.
    pub style: Style,
    /// Each submitting expert's blind label.
    pub labels: Vec<String>,
}

/// The figures of one style, or of all (`style` `None`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StyleRow {
    /// The simulated style; `None` for the overall row.
    pub style: Option<Style>,
    /// Segments with at least one label.
    pub segments: usize,
    /// Expert labels counted.
    pub labels: usize,
    /// Labels naming the simulated style.
    pub correct: usize,
    /// `correct / labels`; `None` without labels.
    pub accuracy: Option<f64>,
    /// Fleiss' κ among the experts; `None` when undefined (fewer than two
    /// labels per segment, or every label the same style).
    pub kappa: Option<f64>,
    /// The segments κ is taken over.
    pub kappa_segments: usize,
    /// Labels per segment in κ's table.
    pub raters: usize,
}

/// The human check's figures (see the [module documentation](self)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientStyleFigures {
    /// One row per style in [`Style::ALL`] order, then none for a style
    /// without reviewed segments.
    pub rows: Vec<StyleRow>,
    /// Over every segment.
    pub overall: StyleRow,
    /// `confusion[i][j]`: labels naming style `j` on segments simulated
    /// with style `i`, both in [`Style::ALL`] order.
    pub confusion: Vec<Vec<usize>>,
    /// [`PAPER_ACCURACY`].
    pub paper_accuracy: f64,
    /// [`PAPER_KAPPA`].
    pub paper_kappa: f64,
}

impl ClientStyleFigures {
    /// The figures of `segments`; `None` when no segment has a label.
    ///
    /// ```
    /// use engine::dlawbench::client_style::{ClientStyleFigures, Segment};
    /// use engine::dlawbench::dataset::Style;
    ///
    /// let seg = |style, labels: &[&str]| Segment { style, labels: labels.iter().map(|l| l.to_string()).collect() };
    /// let figures = ClientStyleFigures::of(&[
    ///     seg(Style::Withdrawn, &["withdrawn", "withdrawn"]),
    ///     seg(Style::Dependent, &["dependent", "withdrawn"]),
    /// ]).unwrap();
    /// assert_eq!(figures.overall.accuracy, Some(0.75));
    /// assert_eq!(figures.rows.len(), 2);
    /// assert_eq!(figures.rows[0].style, Some(Style::Dependent));
    /// // Every withdrawn label is withdrawn: κ within the style is undefined.
    /// assert_eq!(figures.rows[1].kappa, None);
    /// assert!(ClientStyleFigures::of(&[seg(Style::Withdrawn, &[])]).is_none());
    /// ```
    pub fn of(segments: &[Segment]) -> Option<Self> {
        let labelled: Vec<&Segment> = segments.iter().filter(|s| !s.labels.is_empty()).collect();
        if labelled.is_empty() {
            return None;
        }
        let rows = Style::ALL
            .iter()
            .filter_map(|&style| {
                let of_style: Vec<&Segment> = labelled
                    .iter()
                    .copied()
                    .filter(|s| s.style == style)
                    .collect();
                (!of_style.is_empty()).then(|| row(Some(style), &of_style))
            })
            .collect();
        let mut confusion = vec![vec![0; Style::ALL.len()]; Style::ALL.len()];
        for s in &labelled {
            let i = place(s.style);
            for label in &s.labels {
                if let Some(j) = Style::parse(label).map(place) {
                    confusion[i][j] += 1;
                }
            }
        }
        Some(ClientStyleFigures {
            rows,
            overall: row(None, &labelled),
            confusion,
            paper_accuracy: PAPER_ACCURACY,
            paper_kappa: PAPER_KAPPA,
        })
    }
}

fn place(style: Style) -> usize {
    Style::ALL.iter().position(|&s| s == style).unwrap_or(0)
}

/// The row of `segments` (each with at least one label).
fn row(style: Option<Style>, segments: &[&Segment]) -> StyleRow {
    let labels: usize = segments.iter().map(|s| s.labels.len()).sum();
    let correct: usize = segments
        .iter()
        .map(|s| {
            s.labels
                .iter()
                .filter(|l| l.as_str() == s.style.as_str())
                .count()
        })
        .sum();
    // The most common count of style labels per segment (at least two; the
    // larger on a tie).
    let counts = |s: &Segment| -> Vec<u64> {
        let mut row = vec![0u64; Style::ALL.len()];
        for label in &s.labels {
            if let Some(style) = Style::parse(label) {
                row[place(style)] += 1;
            }
        }
        row
    };
    let mut frequency: BTreeMap<u64, usize> = BTreeMap::new();
    let tables: Vec<Vec<u64>> = segments.iter().map(|s| counts(s)).collect();
    for t in &tables {
        let n: u64 = t.iter().sum();
        if n >= 2 {
            *frequency.entry(n).or_default() += 1;
        }
    }
    let raters = frequency
        .iter()
        .max_by_key(|&(n, times)| (*times, *n))
        .map_or(0, |(n, _)| *n);
    let table: Vec<Vec<u64>> = tables
        .into_iter()
        .filter(|t| raters > 0 && t.iter().sum::<u64>() == raters)
        .collect();
    StyleRow {
        style,
        segments: segments.len(),
        labels,
        correct,
        accuracy: (labels > 0).then(|| correct as f64 / labels as f64),
        kappa: fleiss_kappa(&table),
        kappa_segments: table.len(),
        raters: usize::try_from(raters).unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlawbench::dataset::parse_dataset;
    use crate::dlawbench::run::parse_run;

    fn seg(style: Style, labels: &[Style]) -> Segment {
        Segment {
            style,
            labels: labels.iter().map(|l| l.as_str().to_owned()).collect(),
        }
    }

    /// Expected values computed apart from this crate, with statsmodels
    /// 0.15.0 in a venv (`fleiss_kappa(table, method="fleiss")` over the
    /// segments with three labels; accuracy as plain shares):
    ///
    /// ```python
    /// from statsmodels.stats.inter_rater import fleiss_kappa
    /// S = ["cooperative", "dependent", "withdrawn", "adversarial"]; c, d, w, a = S
    /// segs = [(c,[c,c,c]), (c,[c,c,d]), (c,[c,a,a]), (d,[d,d,d]), (d,[d,w,d]), (d,[d,d,d]),
    ///         (w,[w,w,w]), (w,[w,w,d]), (w,[w,w,w]), (a,[a,a,a]), (a,[a,c,a]), (a,[a,a,a]),
    ///         (c,[c,d])]
    /// table = lambda rows: np.array([[l.count(s) for s in S] for _, l in rows])
    /// # per style and overall: fleiss_kappa(table([r for r in rows if len(r[1]) == 3]))
    /// ```
    ///
    /// cooperative 4 segments, 11 labels, accuracy 7/11, κ 0.09999999999999977;
    /// dependent, withdrawn and adversarial 3, 9, 8/9, κ −0.12500000000000056;
    /// overall 13, 38, 31/38, κ 0.6273291925465838.
    #[test]
    fn accuracy_and_kappa_per_style_match_statsmodels() {
        use Style::{Adversarial as A, Cooperative as C, Dependent as D, Withdrawn as W};
        let segments = [
            seg(C, &[C, C, C]),
            seg(C, &[C, C, D]),
            seg(C, &[C, A, A]),
            seg(D, &[D, D, D]),
            seg(D, &[D, W, D]),
            seg(D, &[D, D, D]),
            seg(W, &[W, W, W]),
            seg(W, &[W, W, D]),
            seg(W, &[W, W, W]),
            seg(A, &[A, A, A]),
            seg(A, &[A, C, A]),
            seg(A, &[A, A, A]),
            seg(C, &[C, D]),
            seg(W, &[]),
        ];
        let f = ClientStyleFigures::of(&segments).expect("figures");
        let close = |got: Option<f64>, want: f64| {
            let got = got.expect("a value");
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        };
        let styles: Vec<_> = f.rows.iter().map(|r| r.style).collect();
        assert_eq!(styles, [Some(C), Some(D), Some(W), Some(A)]);
        let coop = &f.rows[0];
        assert_eq!((coop.segments, coop.labels, coop.correct), (4, 11, 7));
        close(coop.accuracy, 0.6363636363636364);
        close(coop.kappa, 0.09999999999999977);
        assert_eq!((coop.kappa_segments, coop.raters), (3, 3));
        for r in &f.rows[1..] {
            assert_eq!((r.segments, r.labels, r.correct), (3, 9, 8));
            close(r.accuracy, 0.8888888888888888);
            close(r.kappa, -0.12500000000000056);
        }
        assert_eq!(f.overall.style, None);
        assert_eq!(
            (f.overall.segments, f.overall.labels, f.overall.correct),
            (13, 38, 31)
        );
        close(f.overall.accuracy, 0.8157894736842105);
        close(f.overall.kappa, 0.6273291925465838);
        assert_eq!(f.overall.kappa_segments, 12);
        assert_eq!(f.confusion[0], [7, 2, 0, 2]);
        assert_eq!(f.confusion[2], [0, 1, 8, 0]);
        assert_eq!((f.paper_accuracy, f.paper_kappa), (0.969, 0.917));
    }

    #[test]
    fn a_label_outside_the_styles_is_wrong_and_out_of_kappa() {
        let f = ClientStyleFigures::of(&[
            Segment {
                style: Style::Withdrawn,
                labels: vec!["withdrawn".into(), "shy".into()],
            },
            seg(Style::Dependent, &[Style::Dependent, Style::Withdrawn]),
        ])
        .expect("figures");
        assert_eq!((f.overall.labels, f.overall.correct), (4, 2));
        // Only the dependent segment has two style labels.
        assert_eq!((f.overall.kappa_segments, f.overall.raters), (1, 2));
    }

    const CASE: &str = r#"{"case_id": "C", "jurisdiction": "cn", "domain": "labor", "opening": "律师您好，我被辞退了。", "facts": [{"id": "F1", "type": "disputed", "client_belief": "b", "court_record": "r"}], "inquiry_rubrics": [{"id": "Q1", "text": "q"}], "issue_rubrics": [{"id": "R1", "text": "r"}]}"#;
    const HEADER: &str = r#"{"kind": "run", "benchmark": "dlawbench", "model": "SECRET-MODEL", "vendor": "m", "run": 1, "judges": [{"model": "J1", "vendor": "a"}]}"#;

    #[test]
    fn segments_show_the_dialogue_after_the_opening_never_the_style() {
        let cases = parse_dataset(CASE).expect("case");
        let spoke = r#"{"kind": "session", "case_id": "C", "style": "withdrawn", "status": "submitted", "turns_used": 1, "dialogue": [{"role": "client", "content": "律师您好，我被辞退了。"}, {"role": "lawyer", "action": "ask", "content": "什么时候？"}, {"role": "client", "content": "……不记得了。"}], "memo": "MEMO-TEXT", "panel": [{"judge": "J1", "recused": false, "rationale": "x", "decisions": {"inquiry": [1], "issue": [0], "covered": ["F1"], "correct": [], "claims_total": 1, "claims_grounded": 1}}]}"#;
        let silent = r#"{"kind": "session", "case_id": "C", "style": "cooperative", "status": "submitted", "turns_used": 0, "dialogue": [{"role": "client", "content": "律师您好，我被辞退了。"}], "memo": "m", "panel": [{"judge": "J1", "recused": false, "rationale": "x", "decisions": {"inquiry": [0], "issue": [0], "covered": [], "correct": [], "claims_total": 1, "claims_grounded": 1}}]}"#;
        let text = [HEADER, spoke, silent].join("\n");
        let run = parse_run(&text, &cases).expect("run");
        let found = segments(&run, &cases);
        assert_eq!(
            found.len(),
            1,
            "a session without a client reply is not a segment"
        );
        let s = &found[0];
        assert_eq!(s.judge_label, "withdrawn");
        assert_eq!(s.target.as_deref(), Some("withdrawn"));
        let input = s.input.to_string();
        for hidden in [
            "withdrawn",
            "SECRET-MODEL",
            "MEMO-TEXT",
            "rationale",
            "style",
        ] {
            assert!(!input.contains(hidden), "{hidden} in {input}");
        }
        assert_eq!(s.input["opening"], "律师您好，我被辞退了。");
        let turns = s.input["turns"].as_array().expect("turns");
        assert_eq!(turns.len(), 2);
        assert_eq!(turns[0]["role"], "lawyer");
        assert_eq!(turns[1]["content"], "……不记得了。");
    }
}
