//! Timings of the metrics at LexPilot's scale, printed with `Instant`
//! (`harness = false`; run with `cargo bench -p engine --bench metrics`).
//!
//! - QWK of 100 runs over the 657 claims of the 432 cases;
//! - a 1000-resample case bootstrap of a pooled QWK over the 432 cases;
//! - a 1000-resample case bootstrap of the LCA Macro-F1 (864 consultations).

use std::hint::black_box;
use std::num::NonZeroU64;
use std::time::{Duration, Instant};

use engine::metrics::{bootstrap_ci, lca_scores, quadratic_weighted_kappa, Xoshiro256StarStar};

const CASES: usize = 432;
const CLAIMS: usize = 657;
const RUNS: usize = 100;
const RESAMPLES: usize = 1000;
const REPEATS: u32 = 20;

/// Per-case claim verdicts: truth and the predictions of one run.
struct Run {
    truth: Vec<Vec<u8>>,
    pred: Vec<Vec<u8>>,
}

impl Run {
    fn pooled_qwk(&self, cases: &[usize]) -> Option<f64> {
        let truth: Vec<u8> = cases
            .iter()
            .flat_map(|&c| self.truth[c].iter().copied())
            .collect();
        let pred: Vec<u8> = cases
            .iter()
            .flat_map(|&c| self.pred[c].iter().copied())
            .collect();
        quadratic_weighted_kappa(&truth, &pred, 3)
    }
}

/// 432 cases holding 657 claims (225 cases with two), and RUNS noisy runs.
fn synthetic_runs(rng: &mut Xoshiro256StarStar) -> Vec<Run> {
    let three = NonZeroU64::new(3).unwrap();
    let four = NonZeroU64::new(4).unwrap();
    let truth: Vec<Vec<u8>> = (0..CASES)
        .map(|c| {
            let claims = if c < CLAIMS - CASES { 2 } else { 1 };
            (0..claims).map(|_| rng.below(three) as u8).collect()
        })
        .collect();
    (0..RUNS)
        .map(|_| {
            let pred = truth
                .iter()
                .map(|claims| {
                    // Right three times in four, else a uniform verdict.
                    let noisy = |&v: &u8| {
                        if rng.below(four) > 0 {
                            v
                        } else {
                            rng.below(three) as u8
                        }
                    };
                    claims.iter().map(noisy).collect()
                })
                .collect();
            Run {
                truth: truth.clone(),
                pred,
            }
        })
        .collect()
}

/// Times `f` REPEATS times and prints the fastest and the mean.
fn time(label: &str, mut f: impl FnMut()) {
    let mut times = Vec::new();
    for _ in 0..REPEATS {
        let start = Instant::now();
        f();
        times.push(start.elapsed());
    }
    let fastest = times.iter().min().copied().unwrap_or_default();
    let mean = times.iter().sum::<Duration>() / REPEATS;
    println!("{label:<56} fastest {fastest:>11.3?}   mean {mean:>11.3?}");
}

fn main() {
    let mut rng = Xoshiro256StarStar::seed_from_u64(2026);
    let runs = synthetic_runs(&mut rng);
    let flat: Vec<(Vec<u8>, Vec<u8>)> = runs
        .iter()
        .map(|r| (r.truth.concat(), r.pred.concat()))
        .collect();
    assert_eq!(flat[0].0.len(), CLAIMS);

    time(&format!("QWK of {RUNS} runs x {CLAIMS} claims"), || {
        for (truth, pred) in &flat {
            black_box(quadratic_weighted_kappa(
                black_box(truth),
                black_box(pred),
                3,
            ));
        }
    });

    let run = &runs[0];
    time(
        &format!("bootstrap CI, pooled QWK, {RESAMPLES} x {CASES} cases"),
        || {
            black_box(bootstrap_ci(
                CASES,
                |s| run.pooled_qwk(s),
                RESAMPLES,
                7,
                0.95,
            ));
        },
    );

    let two = NonZeroU64::new(2).unwrap();
    let consultations: Vec<[(bool, bool); 2]> = (0..CASES)
        .map(|_| [(true, rng.below(two) == 0), (false, rng.below(two) == 0)])
        .collect();
    time(
        &format!("bootstrap CI, LCA Macro-F1, {RESAMPLES} x {CASES} cases"),
        || {
            let macro_f1 = |cases: &[usize]| {
                let items: Vec<(bool, bool)> =
                    cases.iter().flat_map(|&c| consultations[c]).collect();
                Some(lca_scores(&items)?.macro_f1)
            };
            black_box(bootstrap_ci(CASES, macro_f1, RESAMPLES, 7, 0.95));
        },
    );
}
