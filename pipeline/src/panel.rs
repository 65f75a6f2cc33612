//! The judge panel: who sits on it, and how its votes become one label.
//!
//! # Recusal
//!
//! In a panel of two or more judges, a judge from the same vendor as the
//! evaluated model recuses (DLawBench's rule). The vendor is the endpoint's
//! configured `vendor`, else derived from the model name ([`vendor_of`]). A
//! single judge never recuses: there is nobody to take its place, and the
//! LexPilot paper itself has DeepSeek-R1 judge DeepSeek models. A panel that
//! recusal would leave empty is a configuration error.
//!
//! # Aggregation
//!
//! A label needs a strict majority of the seated judges, counting every
//! seated judge whether or not it answered:
//!
//! - one judge: its label;
//! - two judges: the agreement rule, a label only when both give it; when
//!   they differ the item is unavailable with the reason "judges disagree"
//!   (DLawBench averages two judges' scores, but a mean of two categorical
//!   labels is no label, and we never score a guess);
//! - three or more: majority vote (DLawBench's median for three judges is
//!   the same thing for binary labels). With three judges, one that failed
//!   still leaves a label when the other two agree.
//!
//! LJP verdict lists are voted claim by claim; every claim needs its own
//! majority. A judge that could not answer (its calls failed, or its replies
//! never parsed) counts as a seat without a vote, and its failure is the
//! reason given when no majority remains.

use engine::vocab::Verdict;

/// The vendor of a model and who sits on a panel are the engine's rules
/// (DLawBench scores recusal from run headers too): [`engine::vendor`].
pub use engine::vendor::{seated, vendor_of};

/// The name of the rule a panel of `seats` judges uses, for the run header.
pub fn rule(seats: usize) -> &'static str {
    match seats {
        0 | 1 => "single",
        2 => "agreement",
        _ => "majority",
    }
}

/// One judge's vote: its name and its label, or why it has none.
pub type Vote<T> = (String, Result<T, String>);

/// The label a strict majority of the seated judges gave, or why there is
/// none (`judges disagree: …`, or the failures of the judges that did not
/// vote).
///
/// # Examples
///
/// ```
/// use pipeline::panel::majority;
///
/// let vote = |j: &str, v: Result<bool, &str>| (j.to_owned(), v.map_err(str::to_owned));
/// assert_eq!(majority(&[vote("A", Ok(true))]), Ok(true));
/// assert_eq!(majority(&[vote("A", Ok(true)), vote("B", Ok(true))]), Ok(true));
/// assert!(majority(&[vote("A", Ok(true)), vote("B", Ok(false))])
///     .unwrap_err()
///     .starts_with("judges disagree"));
/// assert_eq!(
///     majority(&[vote("A", Ok(false)), vote("B", Err("timeout")), vote("C", Ok(false))]),
///     Ok(false)
/// );
/// ```
pub fn majority<T: PartialEq + Clone + std::fmt::Debug>(votes: &[Vote<T>]) -> Result<T, String> {
    let seats = votes.len();
    let valid: Vec<&T> = votes.iter().filter_map(|(_, v)| v.as_ref().ok()).collect();
    for candidate in &valid {
        let count = valid.iter().filter(|v| *v == candidate).count();
        if 2 * count > seats {
            return Ok((*candidate).clone());
        }
    }
    Err(no_majority(votes, |v| format!("{v:?}")))
}

/// The verdicts of a panel, voted claim by claim: every claim needs a strict
/// majority of the seated judges. Valid votes all have one verdict per
/// claim (the parser checks the count).
///
/// # Examples
///
/// ```
/// use engine::vocab::Verdict::{Dismissed as D, Supported as S};
/// use pipeline::panel::majority_verdicts;
///
/// let votes = [
///     ("A".to_owned(), Ok(vec![S, D])),
///     ("B".to_owned(), Ok(vec![S, S])),
///     ("C".to_owned(), Ok(vec![D, S])),
/// ];
/// assert_eq!(majority_verdicts(&votes), Ok(vec![S, S]));
/// assert!(majority_verdicts(&votes[..2]).unwrap_err().starts_with("judges disagree"));
/// ```
pub fn majority_verdicts(votes: &[Vote<Vec<Verdict>>]) -> Result<Vec<Verdict>, String> {
    let claims = votes
        .iter()
        .filter_map(|(_, v)| v.as_ref().ok().map(Vec::len))
        .max();
    let Some(claims) = claims else {
        return Err(no_majority(votes, |v| format!("{v:?}")));
    };
    (0..claims)
        .map(|i| {
            let per_claim: Vec<Vote<Verdict>> = votes
                .iter()
                .map(|(judge, v)| {
                    let vote = match v {
                        Ok(list) => list
                            .get(i)
                            .copied()
                            .ok_or_else(|| format!("gave no verdict for claim {}", i + 1)),
                        Err(e) => Err(e.clone()),
                    };
                    (judge.clone(), vote)
                })
                .collect();
            majority(&per_claim).map_err(|e| format!("{e} (claim {})", i + 1))
        })
        .collect()
}

fn no_majority<T>(votes: &[Vote<T>], show: impl Fn(&T) -> String) -> String {
    let failed: Vec<String> = votes
        .iter()
        .filter_map(|(j, v)| v.as_ref().err().map(|e| format!("{j}: {e}")))
        .collect();
    if votes.len() == 1 {
        return failed.join("; ");
    }
    if failed.is_empty() {
        let said: Vec<String> = votes
            .iter()
            .filter_map(|(j, v)| v.as_ref().ok().map(|v| format!("{j} said {}", show(v))))
            .collect();
        return format!("judges disagree: {}", said.join(", "));
    }
    format!(
        "no majority of the {} judges: {}",
        votes.len(),
        failed.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_failed_judge_gives_its_own_reason() {
        let votes: [Vote<bool>; 1] = [("J".into(), Err("HTTP 500".into()))];
        assert_eq!(majority(&votes), Err("J: HTTP 500".into()));
    }

    #[test]
    fn two_judges_one_failed_is_unavailable() {
        let votes: [Vote<bool>; 2] = [("A".into(), Ok(true)), ("B".into(), Err("x".into()))];
        let e = majority(&votes).unwrap_err();
        assert!(e.contains("B: x"), "{e}");
    }

    #[test]
    fn rules_by_seats() {
        assert_eq!(rule(1), "single");
        assert_eq!(rule(2), "agreement");
        assert_eq!(rule(3), "majority");
    }
}
