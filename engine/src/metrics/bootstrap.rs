//! Seeded, reproducible case bootstrap: percentile confidence intervals and a
//! paired comparison of two statistics.
//!
//! The units resampled are cases (all instances of a case travel together, so
//! a case's two consultations or several claims are never split). Random
//! numbers come from a hand-written xoshiro256** seeded by SplitMix64, using
//! only `u64` arithmetic, so a seed gives the same intervals on every platform,
//! wasm32 included, and no dependency is needed.

use std::num::NonZeroU64;

use serde::{Deserialize, Serialize};

/// The xoshiro256** generator (Blackman and Vigna, "Scrambled linear
/// pseudorandom number generators", 2018), its 256-bit state filled from a
/// `u64` seed by SplitMix64 as the authors recommend. Not cryptographic.
///
/// # Examples
///
/// ```
/// use std::num::NonZeroU64;
/// use engine::metrics::Xoshiro256StarStar;
///
/// let mut a = Xoshiro256StarStar::seed_from_u64(7);
/// let mut b = Xoshiro256StarStar::seed_from_u64(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// let six = NonZeroU64::new(6).unwrap();
/// assert!((0..100).all(|_| a.below(six) < 6));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Xoshiro256StarStar {
    state: [u64; 4],
}

impl Xoshiro256StarStar {
    /// A generator whose state is four successive SplitMix64 outputs from
    /// `seed`. They are distinct, so the state is never the forbidden all-zero.
    pub fn seed_from_u64(seed: u64) -> Self {
        let mut sm = seed;
        Self {
            state: [
                splitmix64(&mut sm),
                splitmix64(&mut sm),
                splitmix64(&mut sm),
                splitmix64(&mut sm),
            ],
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..bound`, without modulo bias, by Lemire's
    /// multiply-and-reject method ("Fast random integer generation in an
    /// interval", 2019): the high word of `x · bound` is the draw, and the rare
    /// `x` whose low word falls below `2^64 mod bound` are redrawn.
    pub fn below(&mut self, bound: NonZeroU64) -> u64 {
        let bound = bound.get();
        let mut product = u128::from(self.next_u64()) * u128::from(bound);
        if (product as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (product as u64) < threshold {
                product = u128::from(self.next_u64()) * u128::from(bound);
            }
        }
        (product >> 64) as u64
    }
}

/// One SplitMix64 step (Steele, Lea and Flood, 2014): advance the state by the
/// golden-ratio increment and mix it.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Percentile bootstrap confidence interval of a statistic of units (cases).
///
/// Each of `resamples` resamples draws `n_units` unit indices from
/// `0..n_units` uniformly with replacement (a unit may appear several times;
/// the statistic must count it as often as it appears) and evaluates
/// `statistic` on them. Resamples where the statistic is `None` or not finite
/// (say, a QWK whose resample holds a single verdict) are skipped. The interval
/// is the `(1 − level) / 2` and `(1 + level) / 2` quantiles of the values
/// kept, interpolated linearly between order statistics (numpy's default
/// `"linear"` method, Hyndman–Fan type 7).
///
/// The same `seed` gives the same interval. `None` when `n_units` or
/// `resamples` is 0, `level` is not strictly between 0 and 1, or no resample
/// gave a value.
///
/// # Examples
///
/// ```
/// use engine::metrics::bootstrap_ci;
///
/// let scores = [0.2, 0.4, 0.5, 0.9, 0.7, 0.3];
/// let mean = |sample: &[usize]| {
///     Some(sample.iter().map(|&i| scores[i]).sum::<f64>() / sample.len() as f64)
/// };
/// let (lo, hi) = bootstrap_ci(scores.len(), mean, 1000, 42, 0.95).unwrap();
/// assert!(lo < 0.5 && 0.5 < hi);
/// assert_eq!(bootstrap_ci(scores.len(), mean, 1000, 42, 0.95), Some((lo, hi)));
/// ```
pub fn bootstrap_ci<F: Fn(&[usize]) -> Option<f64>>(
    n_units: usize,
    statistic: F,
    resamples: usize,
    seed: u64,
    level: f64,
) -> Option<(f64, f64)> {
    if !valid_level(level) {
        return None;
    }
    let mut values = Vec::new();
    for_each_resample(n_units, resamples, seed, |sample| {
        values.extend(statistic(sample).filter(|v| v.is_finite()));
    });
    percentile_interval(&mut values, level)
}

/// A paired bootstrap comparison of statistics A and B on the same units.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PairedBootstrap {
    /// A − B on the full sample.
    pub diff: f64,
    /// Percentile interval of the resampled differences A − B.
    pub ci: (f64, f64),
    /// Two-sided bootstrap p-value for "no difference" (see [`paired_bootstrap`]).
    pub p_value: f64,
}

/// Compares statistics A and B (two models, or two setups of one model)
/// evaluated on the same resampled units, so that the case-to-case variation
/// they share cancels out of the difference.
///
/// The units are resampled as in [`bootstrap_ci`] (same seed, same indices);
/// A and B see the same indices in each resample, and resamples where either
/// is `None` or the difference is not finite are skipped.
///
/// The p-value is the two-sided percentile-bootstrap one: with `le` and `ge`
/// the shares of resampled differences ≤ 0 and ≥ 0, `p = min(1, 2·min(le, ge))`,
/// roughly the smallest α whose (1 − α) percentile interval excludes 0. A
/// difference of exactly 0 counts on both sides, which errs towards larger p.
/// Its resolution is one over the number of resamples kept; read 0 as "below
/// that", never as certainty.
///
/// `None` when A or B is undefined on the full sample, or as for
/// [`bootstrap_ci`].
///
/// # Examples
///
/// ```
/// use engine::metrics::paired_bootstrap;
///
/// // Per-case hits of two models on the same eight cases.
/// let a = [1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0];
/// let b = [0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0];
/// let mean = |xs: &[f64], s: &[usize]| {
///     Some(s.iter().map(|&i| xs[i]).sum::<f64>() / s.len() as f64)
/// };
/// let cmp = paired_bootstrap(8, |s| mean(&a, s), |s| mean(&b, s), 2000, 1, 0.95).unwrap();
/// assert_eq!(cmp.diff, 0.375);
/// assert!(cmp.ci.0 <= cmp.diff && cmp.diff <= cmp.ci.1);
/// assert!((0.0..=1.0).contains(&cmp.p_value));
/// ```
pub fn paired_bootstrap<A, B>(
    n_units: usize,
    stat_a: A,
    stat_b: B,
    resamples: usize,
    seed: u64,
    level: f64,
) -> Option<PairedBootstrap>
where
    A: Fn(&[usize]) -> Option<f64>,
    B: Fn(&[usize]) -> Option<f64>,
{
    if !valid_level(level) {
        return None;
    }
    let difference = |sample: &[usize]| Some(stat_a(sample)? - stat_b(sample)?);
    let full: Vec<usize> = (0..n_units).collect();
    let diff = difference(&full).filter(|d| d.is_finite())?;
    let mut diffs = Vec::new();
    for_each_resample(n_units, resamples, seed, |sample| {
        diffs.extend(difference(sample).filter(|d| d.is_finite()));
    });
    let share = |keep: fn(f64) -> bool| {
        diffs.iter().filter(|&&d| keep(d)).count() as f64 / diffs.len() as f64
    };
    let p_value = (2.0 * share(|d| d <= 0.0).min(share(|d| d >= 0.0))).min(1.0);
    let ci = percentile_interval(&mut diffs, level)?;
    Some(PairedBootstrap { diff, ci, p_value })
}

fn valid_level(level: f64) -> bool {
    level > 0.0 && level < 1.0
}

/// Calls `visit` on each of `resamples` resamples of `0..n_units` drawn with
/// replacement from a generator seeded with `seed`; nothing when `n_units` = 0.
fn for_each_resample(n_units: usize, resamples: usize, seed: u64, mut visit: impl FnMut(&[usize])) {
    let Some(bound) = NonZeroU64::new(n_units as u64) else {
        return;
    };
    let mut rng = Xoshiro256StarStar::seed_from_u64(seed);
    let mut sample = vec![0; n_units];
    for _ in 0..resamples {
        for unit in &mut sample {
            // Below n_units, so it fits usize.
            *unit = rng.below(bound) as usize;
        }
        visit(&sample);
    }
}

/// The central `level` percentile interval of finite `values` (sorted in
/// place); `None` when there are none.
fn percentile_interval(values: &mut [f64], level: f64) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let tail = (1.0 - level) / 2.0;
    Some((quantile(values, tail), quantile(values, 1.0 - tail)))
}

/// The `q`-quantile (q in [0, 1]) of sorted, non-empty, finite values, by
/// linear interpolation between the order statistics around (len − 1)·q. The
/// result is kept between those two neighbours, so quantiles are monotone in
/// `q` despite rounding.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let last = sorted.len() - 1;
    let position = last as f64 * q.clamp(0.0, 1.0);
    let below = (position.floor() as usize).min(last);
    let (a, b) = (sorted[below], sorted[(below + 1).min(last)]);
    (a + (position - below as f64) * (b - a)).max(a).min(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_outputs_for_seed_1234567() {
        let mut state = 1_234_567;
        let expected = [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for e in expected {
            assert_eq!(splitmix64(&mut state), e);
        }
    }

    #[test]
    fn xoshiro256starstar_matches_the_reference_outputs_for_state_1_2_3_4() {
        // The published vector of the reference C implementation, as tested
        // by the rand_xoshiro crate.
        let mut rng = Xoshiro256StarStar {
            state: [1, 2, 3, 4],
        };
        let expected = [
            11_520,
            0,
            1_509_978_240,
            1_215_971_899_390_074_240,
            1_216_172_134_540_287_360,
            607_988_272_756_665_600,
            16_172_922_978_634_559_625,
            8_476_171_486_693_032_832,
            10_595_114_339_597_558_777,
            2_904_607_092_377_533_576,
        ];
        for e in expected {
            assert_eq!(rng.next_u64(), e);
        }
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut rng = Xoshiro256StarStar::seed_from_u64(3);
        let mut counts = [0u32; 3];
        let three = NonZeroU64::new(3).unwrap();
        for _ in 0..30_000 {
            counts[rng.below(three) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
        let one = NonZeroU64::new(1).unwrap();
        assert_eq!(rng.below(one), 0);
        let max = NonZeroU64::new(u64::MAX).unwrap();
        assert!(rng.below(max) < u64::MAX);
    }

    #[test]
    fn quantile_interpolates_like_numpy_linear() {
        let xs = [1.0, 2.0, 4.0, 8.0];
        assert_eq!(quantile(&xs, 0.0), 1.0);
        assert_eq!(quantile(&xs, 0.5), 3.0);
        assert_eq!(quantile(&xs, 0.25), 1.75);
        assert_eq!(quantile(&xs, 1.0), 8.0);
        assert_eq!(quantile(&[5.0], 0.3), 5.0);
    }

    #[test]
    fn rejects_degenerate_requests() {
        let constant = |_: &[usize]| Some(1.0);
        assert_eq!(bootstrap_ci(0, constant, 10, 0, 0.95), None);
        assert_eq!(bootstrap_ci(5, constant, 0, 0, 0.95), None);
        assert_eq!(bootstrap_ci(5, constant, 10, 0, 1.0), None);
        assert_eq!(bootstrap_ci(5, constant, 10, 0, f64::NAN), None);
        assert_eq!(bootstrap_ci(5, |_: &[usize]| None, 10, 0, 0.95), None);
        assert_eq!(paired_bootstrap(0, constant, constant, 10, 0, 0.95), None);
        assert_eq!(
            paired_bootstrap(5, constant, |_: &[usize]| None, 10, 0, 0.95),
            None
        );
    }

    #[test]
    fn undefined_resamples_are_skipped() {
        // Defined only when unit 0 was drawn.
        let needs_unit_zero = |s: &[usize]| s.contains(&0).then_some(1.0);
        assert_eq!(
            bootstrap_ci(4, needs_unit_zero, 200, 9, 0.9),
            Some((1.0, 1.0))
        );
    }

    #[test]
    fn identical_statistics_differ_by_zero_with_p_one() {
        let frac = |s: &[usize]| Some(s.iter().filter(|&&i| i % 2 == 0).count() as f64);
        let cmp = paired_bootstrap(10, frac, frac, 500, 5, 0.95).unwrap();
        assert_eq!(
            cmp,
            PairedBootstrap {
                diff: 0.0,
                ci: (0.0, 0.0),
                p_value: 1.0
            }
        );
    }

    #[test]
    fn a_clear_difference_has_a_small_p_value() {
        let a = |s: &[usize]| Some(s.len() as f64 + 1.0);
        let b = |s: &[usize]| Some(s.len() as f64);
        let cmp = paired_bootstrap(10, a, b, 500, 5, 0.95).unwrap();
        assert_eq!(
            cmp,
            PairedBootstrap {
                diff: 1.0,
                ci: (1.0, 1.0),
                p_value: 0.0
            }
        );
    }
}
