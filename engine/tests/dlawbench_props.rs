//! Invariants of DLawBench scoring and storage, as property tests over
//! generated datasets and runs: every value lies in [0, 1]; valid-only is
//! never below null-as-zero; the panel does not depend on the order of its
//! judges; the median of two is their mean and lies between min and max;
//! the stored form reads back, and parses back, equal.

use engine::benchmark::Benchmark;
use engine::core::panel::JudgeSeat;
use engine::dlawbench::dataset::{Case, Fact, FactType, Jurisdiction, Rubric, Style};
use engine::dlawbench::run::{parse_run, Decisions, Run, RunHeader, Seat, Session, Status, Turn};
use engine::dlawbench::score::{median, score_run, score_session, Metric, RunScores, View};
use engine::metrics::Xoshiro256StarStar;
use proptest::prelude::*;

struct Rng(Xoshiro256StarStar);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn dataset(rng: &mut Rng, cases: usize) -> Vec<Case> {
    (0..cases)
        .map(|k| {
            let jurisdiction = if k % 2 == 0 {
                Jurisdiction::Cn
            } else {
                Jurisdiction::Us
            };
            let rubrics = |prefix: &str, n: u64| -> Vec<Rubric> {
                (0..n)
                    .map(|i| Rubric {
                        id: format!("{prefix}{i}"),
                        text: "t".into(),
                    })
                    .collect()
            };
            let facts = 1 + rng.below(6);
            let inquiry = 1 + rng.below(4);
            let issue = 1 + rng.below(4);
            Case {
                case_id: format!("C{k}"),
                jurisdiction,
                language: jurisdiction.default_language(),
                domain: ["labor", "torts", "contracts"][k % 3].into(),
                opening: "o".into(),
                facts: (0..facts)
                    .map(|i| Fact {
                        id: format!("F{i}"),
                        fact_type: if i % 2 == 0 {
                            FactType::Disputed
                        } else {
                            FactType::Undisputed
                        },
                        client_belief: "b".into(),
                        court_record: "r".into(),
                    })
                    .collect(),
                inquiry_rubrics: rubrics("Q", inquiry),
                issue_rubrics: rubrics("R", issue),
                title: None,
                source: None,
                notes: None,
            }
        })
        .collect()
}

const JUDGES: [(&str, &str); 3] = [
    ("GPT-5.1", "openai"),
    ("Claude-Opus-4.6", "anthropic"),
    ("Gemini-3.1-Pro", "google"),
];

fn header(lawyer_vendor: &str, judges: &[(&str, &str)]) -> RunHeader {
    RunHeader {
        benchmark: Benchmark::Dlawbench,
        model: "Lawyer".into(),
        vendor: Some(lawyer_vendor.into()),
        family: None,
        run: 1,
        dataset: None,
        client_model: None,
        judges: judges
            .iter()
            .map(|(m, v)| JudgeSeat {
                model: (*m).into(),
                vendor: Some((*v).into()),
            })
            .collect(),
        horizon: 10,
        min_valid_judges: 1,
        prompt_version: None,
        generation: None,
        created_at: None,
        extra: Default::default(),
    }
}

fn decisions(rng: &mut Rng, case: &Case) -> Decisions {
    let covered: Vec<String> = case
        .facts
        .iter()
        .filter(|_| rng.chance(60))
        .map(|f| f.id.clone())
        .collect();
    let correct: Vec<String> = covered.iter().filter(|_| rng.chance(60)).cloned().collect();
    let total = rng.below(8) as u32;
    Decisions {
        inquiry: case
            .inquiry_rubrics
            .iter()
            .map(|_| rng.below(2) as u8)
            .collect(),
        issue: case
            .issue_rubrics
            .iter()
            .map(|_| rng.below(2) as u8)
            .collect(),
        covered,
        correct,
        claims_total: total,
        claims_grounded: rng.below(u64::from(total) + 1) as u32,
        ungrounded_claims: None,
        incorrect: None,
    }
}

fn run(rng: &mut Rng, cases: &[Case], header: RunHeader, styles: &[Style]) -> Run {
    let recusals = header.recusals().expect("a panel");
    let mut sessions = Vec::new();
    for &style in styles {
        for case in cases {
            let failed = rng.chance(15);
            let status = if failed {
                [Status::EmptyMemo, Status::LawyerError][rng.below(2) as usize]
            } else {
                Status::Submitted
            };
            let panel = if failed {
                Vec::new()
            } else {
                header
                    .judges
                    .iter()
                    .zip(&recusals)
                    .map(|(j, &recused)| {
                        let unavailable = !recused && rng.chance(10);
                        Seat {
                            judge: j.model.clone(),
                            recused,
                            decisions: (!recused && !unavailable).then(|| decisions(rng, case)),
                            unavailable: unavailable.then(|| "timeout".into()),
                            rationale: None,
                        }
                    })
                    .collect()
            };
            sessions.push(Session {
                case_id: case.case_id.clone(),
                style,
                status,
                turns_used: 0,
                dialogue: Some(vec![Turn {
                    role: engine::dlawbench::run::Role::Client,
                    action: None,
                    content: case.opening.clone(),
                    attempts: None,
                    at: None,
                    usage: None,
                }]),
                memo: (status == Status::Submitted).then(|| "m".into()),
                panel,
                unavailable: rng.chance(3).then(|| "transport".into()),
                error: (status == Status::LawyerError).then(|| "no valid action".into()),
            });
        }
    }
    Run { header, sessions }
}

fn every_value(scores: &RunScores, view: View) -> Vec<f64> {
    let v = scores.view(view);
    let mut out: Vec<f64> = Vec::new();
    out.extend(v.overall.iter().flat_map(|m| m.values().flatten().copied()));
    out.extend(
        v.by_style
            .values()
            .flat_map(|m| m.values().flatten().copied()),
    );
    for groups in v.by_jurisdiction_style.values() {
        out.extend(
            groups
                .values()
                .flat_map(|g| g.values().filter_map(|c| c.mean)),
        );
    }
    out.extend(
        v.by_domain
            .values()
            .flat_map(|g| g.values().filter_map(|c| c.mean)),
    );
    out
}

fn styles_of(mask: u8) -> Vec<Style> {
    let chosen: Vec<Style> = Style::ALL
        .into_iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, s)| s)
        .collect();
    if chosen.is_empty() {
        vec![Style::Cooperative]
    } else {
        chosen
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn scores_lie_in_the_unit_interval_and_valid_only_is_never_lower(seed in any::<u64>(), cases in 1usize..6, mask in 0u8..16, vendor in 0usize..4) {
        let mut rng = Rng(Xoshiro256StarStar::seed_from_u64(seed));
        let dataset = dataset(&mut rng, cases);
        let lawyer = ["openai", "anthropic", "google", "other"][vendor];
        let run = run(&mut rng, &dataset, header(lawyer, &JUDGES), &styles_of(mask));
        let scores = score_run(&run, &dataset);
        for view in View::ALL {
            for x in every_value(&scores, view) {
                prop_assert!((0.0..=1.0).contains(&x), "{x}");
            }
        }
        let (naz, valid) = (&scores.null_as_zero, &scores.valid_only);
        for (j, groups) in &naz.by_jurisdiction_style {
            for (s, group) in groups {
                for (m, cell) in group {
                    if let (Some(a), Some(b)) = (cell.mean, valid.by_jurisdiction_style[j][s][m].mean) {
                        prop_assert!(b >= a - 1e-12, "{m}: valid-only {b} < null-as-zero {a}");
                    }
                }
            }
        }
        if let (Some(a), Some(b)) = (&naz.overall, &valid.overall) {
            for m in Metric::ALL {
                if let (Some(x), Some(y)) = (a[&m], b[&m]) {
                    prop_assert!(y >= x - 1e-12);
                }
            }
        }
    }

    #[test]
    fn the_panel_does_not_depend_on_the_order_of_its_judges(seed in any::<u64>(), order in Just([0usize, 1, 2]).prop_shuffle()) {
        let mut rng = Rng(Xoshiro256StarStar::seed_from_u64(seed));
        let dataset = dataset(&mut rng, 4);
        let run = run(&mut rng, &dataset, header("other", &JUDGES), &Style::ALL);
        let permuted = Run {
            header: header("other", &order.iter().map(|&k| JUDGES[k]).collect::<Vec<_>>()),
            sessions: run.sessions.iter().map(|s| Session {
                panel: if s.panel.is_empty() { Vec::new() } else { order.iter().map(|&k| s.panel[k].clone()).collect() },
                ..s.clone()
            }).collect(),
        };
        for (a, b) in run.sessions.iter().zip(&permuted.sessions) {
            let case = dataset.iter().find(|c| c.case_id == a.case_id).expect("a case");
            let (x, y) = (score_session(case, a, &run.header), score_session(case, b, &permuted.header));
            prop_assert_eq!(x.values.keys().collect::<Vec<_>>(), y.values.keys().collect::<Vec<_>>());
            for (m, v) in &x.values {
                prop_assert!((v - y.values[m]).abs() < 1e-12);
            }
            prop_assert_eq!(x.degraded, y.degraded);
        }
    }

    #[test]
    fn the_median_of_two_is_their_mean_and_lies_within_the_values(values in proptest::collection::vec(0.0f64..=1.0, 1..6)) {
        let m = median(&values).expect("a median");
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        prop_assert!(lo <= m && m <= hi);
        if values.len() == 2 {
            prop_assert!((m - (values[0] + values[1]) / 2.0).abs() < 1e-15);
        }
    }

    #[test]
    fn a_run_reads_back_and_parses_back_equal(seed in any::<u64>(), mask in 0u8..16) {
        let mut rng = Rng(Xoshiro256StarStar::seed_from_u64(seed));
        let dataset = dataset(&mut rng, 3);
        let run = run(&mut rng, &dataset, header("openai", &JUDGES), &styles_of(mask));
        let stored = run.to_stored();
        prop_assert_eq!(&Run::read_stored(&stored).expect("stored"), &run);
        let parsed = parse_run(&stored, &dataset).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&parsed, &run);
        let dataset_text = engine::dlawbench::dataset::to_jsonl(&dataset);
        prop_assert_eq!(engine::dlawbench::dataset::parse_dataset(&dataset_text).expect("a dataset"), dataset);
    }
}
