//! Stratified sampling of judge verdicts for expert re-labelling.

use std::collections::{BTreeMap, BTreeSet};
use std::num::NonZeroU64;

use crate::metrics::Xoshiro256StarStar;

/// Draws up to `per_model` items of each model, at most `cap` in all, without
/// replacement, reproducibly from `seed`. Appendix E.3.1 of the paper draws
/// 10 verdicts from each of 10 models for each task: `per_model` = 10, `cap`
/// = 100.
///
/// Items are `(model, item)` pairs; a pair listed twice counts once. A model
/// with fewer than `per_model` items gives all of them. When the models'
/// shares add up to more than `cap`, the places are dealt one at a time to the
/// models in a seeded random order, round after round, so that shares differ
/// by at most one and which models get the extra place is left to chance.
/// Within a model, the items are drawn by a partial Fisher–Yates shuffle of
/// its items in sorted order, with [`Xoshiro256StarStar`].
///
/// The result depends only on the set of pairs, `per_model`, `cap` and `seed`
/// (not on the order of `items`), and is sorted by model, then item.
///
/// # Examples
///
/// ```
/// use engine::review::sample_stratified;
///
/// let items: Vec<(String, u32)> = ["模型甲", "模型乙", "模型丙"]
///     .iter()
///     .flat_map(|m| (0..20).map(move |i| (m.to_string(), i)))
///     .collect();
/// let sample = sample_stratified(&items, 10, 100, 7);
/// assert_eq!(sample.len(), 30);
/// assert_eq!(sample.iter().filter(|(m, _)| m == "模型乙").count(), 10);
/// assert_eq!(sample, sample_stratified(&items, 10, 100, 7));
///
/// // Capped at 25: shares of 9, 8 and 8.
/// let capped = sample_stratified(&items, 10, 25, 7);
/// let mut shares: Vec<usize> = ["模型甲", "模型乙", "模型丙"]
///     .iter()
///     .map(|m| capped.iter().filter(|(model, _)| model == m).count())
///     .collect();
/// shares.sort();
/// assert_eq!(shares, [8, 8, 9]);
/// ```
pub fn sample_stratified<M, I>(
    items: &[(M, I)],
    per_model: usize,
    cap: usize,
    seed: u64,
) -> Vec<(M, I)>
where
    M: Ord + Clone,
    I: Ord + Clone,
{
    let mut by_model: BTreeMap<&M, BTreeSet<&I>> = BTreeMap::new();
    for (model, item) in items {
        by_model.entry(model).or_default().insert(item);
    }
    let models: Vec<(&M, Vec<&I>)> = by_model
        .into_iter()
        .map(|(model, items)| (model, items.into_iter().collect()))
        .collect();
    let mut rng = Xoshiro256StarStar::seed_from_u64(seed);

    let available: Vec<usize> = models
        .iter()
        .map(|(_, items)| items.len().min(per_model))
        .collect();
    let quotas = if available.iter().sum::<usize>() <= cap {
        available
    } else {
        let mut order: Vec<usize> = (0..models.len()).collect();
        shuffle_prefix(&mut order, models.len(), &mut rng);
        let mut quotas = vec![0; models.len()];
        let mut dealt = 0;
        while dealt < cap {
            for &m in &order {
                if dealt < cap && quotas[m] < available[m] {
                    quotas[m] += 1;
                    dealt += 1;
                }
            }
        }
        quotas
    };

    let mut sample = Vec::new();
    for ((model, mut items), quota) in models.into_iter().zip(quotas) {
        shuffle_prefix(&mut items, quota, &mut rng);
        let mut drawn: Vec<&I> = items.into_iter().take(quota).collect();
        drawn.sort();
        sample.extend(drawn.into_iter().map(|item| (model.clone(), item.clone())));
    }
    sample
}

/// Puts a uniform random draw without replacement of `k` elements of `v` in
/// its first `k` places (the first `k` steps of a Fisher–Yates shuffle).
fn shuffle_prefix<T>(v: &mut [T], k: usize, rng: &mut Xoshiro256StarStar) {
    for i in 0..k.min(v.len()) {
        let Some(remaining) = NonZeroU64::new((v.len() - i) as u64) else {
            return;
        };
        let j = i + rng.below(remaining) as usize;
        v.swap(i, j);
    }
}

/// Up to `per_target` of `candidates` of each target (a PLawBench task, a
/// DLawBench style) and `cap` in all, with [`sample_stratified`] over
/// (target, (model, run, case)) pairs, reproducibly from `seed`; a decision
/// listed twice (same target, model, run and case) counts once, as its last
/// listing. The result is sorted by target, then model, run and case.
///
/// ```
/// use engine::review::{draw_per_target, JudgeCandidate, JudgeDecision};
///
/// let candidate = |target: &str, case: &str| JudgeCandidate {
///     run_id: 1, model: "M".into(), run_number: 1,
///     decision: JudgeDecision { case_id: case.into(), target: Some(target.into()), judge_label: "1".into(), input: serde_json::json!({}) },
/// };
/// let all: Vec<_> = ["a", "b", "c"].iter().flat_map(|t| (0..5).map(move |i| candidate(t, &i.to_string()))).collect();
/// let drawn = draw_per_target(all.clone(), 2, 100, 3);
/// assert_eq!(drawn.len(), 6);
/// assert_eq!(drawn.iter().filter(|c| c.decision.target.as_deref() == Some("b")).count(), 2);
/// assert_eq!(drawn, draw_per_target(all, 2, 100, 3));
/// ```
pub fn draw_per_target(
    candidates: Vec<super::JudgeCandidate>,
    per_target: usize,
    cap: usize,
    seed: u64,
) -> Vec<super::JudgeCandidate> {
    type Key = (String, i64, String);
    let mut by_key: BTreeMap<(String, Key), super::JudgeCandidate> = BTreeMap::new();
    for candidate in candidates {
        let target = candidate.decision.target.clone().unwrap_or_default();
        let key = (
            candidate.model.clone(),
            candidate.run_number,
            candidate.decision.case_id.clone(),
        );
        by_key.insert((target, key), candidate);
    }
    let keys: Vec<(String, Key)> = by_key.keys().cloned().collect();
    sample_stratified(&keys, per_target, cap, seed)
        .into_iter()
        .filter_map(|key| by_key.remove(&key))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(models: &[(&str, u32)]) -> Vec<(String, u32)> {
        models
            .iter()
            .flat_map(|&(m, n)| (0..n).map(move |i| (m.to_owned(), i)))
            .collect()
    }

    #[test]
    fn small_models_give_everything_and_duplicates_count_once() {
        let mut items = pairs(&[("甲", 3), ("乙", 30)]);
        items.push(("甲".into(), 0));
        let sample = sample_stratified(&items, 10, 100, 1);
        assert_eq!(sample.iter().filter(|(m, _)| m == "甲").count(), 3);
        assert_eq!(sample.iter().filter(|(m, _)| m == "乙").count(), 10);
    }

    #[test]
    fn zero_cap_or_share_draws_nothing() {
        let items = pairs(&[("甲", 5)]);
        assert!(sample_stratified(&items, 0, 100, 1).is_empty());
        assert!(sample_stratified(&items, 5, 0, 1).is_empty());
        assert!(sample_stratified::<String, u32>(&[], 5, 5, 1).is_empty());
    }

    #[test]
    fn the_input_order_does_not_matter_but_the_seed_does() {
        let items = pairs(&[("甲", 40), ("乙", 40), ("丙", 40)]);
        let mut reversed = items.clone();
        reversed.reverse();
        assert_eq!(
            sample_stratified(&items, 10, 25, 3),
            sample_stratified(&reversed, 10, 25, 3)
        );
        let seeds: BTreeSet<Vec<(String, u32)>> = (0..5)
            .map(|seed| sample_stratified(&items, 10, 25, seed))
            .collect();
        assert!(seeds.len() > 1);
    }

    #[test]
    fn the_paper_design_is_ten_of_each_of_ten() {
        let models: Vec<(String, u32)> = (0..10).map(|m| (format!("model-{m}"), 50)).collect();
        let items: Vec<(String, u32)> = models
            .iter()
            .flat_map(|(m, n)| (0..*n).map(move |i| (m.clone(), i)))
            .collect();
        let sample = sample_stratified(&items, 10, 100, 2026);
        assert_eq!(sample.len(), 100);
        let mut sorted = sample.clone();
        sorted.sort();
        assert_eq!(sample, sorted);
    }
}
