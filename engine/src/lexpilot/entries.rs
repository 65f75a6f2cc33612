//! Which runs form one leaderboard entry (`docs/formats.md` §3), decided by
//! [`group_runs`] alone: the score document ([`crate::lexpilot::score`]), and
//! through it the leaderboard and its exports, the model page, the
//! comparison and the drill-down all group through it, so they agree.
//!
//! # The rule
//!
//! Runs of one model form one entry when they agree on what comparing them
//! depends on. A run's header
//! ([`RunHeader::entry_key`](crate::lexpilot::run::RunHeader::entry_key):
//! every field but `run` and `created_at`) says three kinds of thing,
//! compared differently:
//!
//! - **The whole run**: `model`, `family`, `dataset`, `judge` and every other
//!   header key (the judge panel and its rule, the evaluated model's and the
//!   judge's generation settings, …). Runs of one entry have them equal.
//! - **The user model**: `user_model`, `user_condition` and the user model's
//!   generation settings (`generation.user`) describe only the parts played
//!   against the user model ([`Part::uses_user_model`]: DCG and
//!   Interaction-Based LJP). Two runs that both contain such a part must
//!   agree on them; a run without one (Direct or Gold-Standard LJP, LCA)
//!   never called the user model, and whatever its header says of one is
//!   not compared.
//! - **The prompts**: `prompts` maps each prompt template's versioned name
//!   (`<template>.v<N>`) to its SHA-256, as the pipeline writes it. A
//!   template counts for a task of a run when it serves a part of that task
//!   the run contains ([`prompt_parts`]). For each task that two runs both
//!   contain, every template both name for it must be the same version with
//!   the same hash. LJP is one task here, its setups compared with each other
//!   in Table 3: a Direct run and a Gold-Standard run must have used the same
//!   direct prediction prompt, while LexAwN, which only the interaction setup
//!   uses, is compared between interaction runs alone. A template only one
//!   of the two names is not compared.
//!
//! So the runs of separate jobs, one per LJP setup say, are one entry: the
//! prompts they share agree. A run whose prompt for a task changed (another
//! hash, or another version) is another entry than the runs of that task
//! under the old prompt.
//!
//! Every two runs of an entry agree in this sense. Agreement is not
//! transitive (a Direct run agrees with interaction runs under two user
//! conditions, which do not agree with each other), so a run that could join
//! several entries joins one of them: runs are placed one by one, each in
//! the first entry it agrees with, in an order of their own (by key, then
//! parts), never the order they are given in. The leaderboard (runs in
//! upload order) and the model page (runs by number) therefore group alike.
//!
//! # The entry's key
//!
//! [`Entry::key`], what the leaderboard and the model page show of the
//! entry's setting, is the key of its first run with the user model's fields
//! of its first run played against the user model (if any), and as `prompts`
//! every template any of its runs names (with the hash of the first that
//! names it). When all runs of an entry have equal keys (the runs of one job)
//! it is that key.
//!
//! # Scores
//!
//! How an entry whose runs contain different parts is scored (each score
//! over the runs that contain it; Table 3's gain and relative degradation
//! from the means) is [`crate::lexpilot::score::summarise_entry`]'s.
//!
//! Depends on serde_json, [`crate::lexpilot::run`] and [`crate::vocab`] only.
//!
//! # Example
//!
//! ```
//! use std::collections::BTreeSet;
//!
//! use engine::lexpilot::entries::group_runs;
//! use engine::lexpilot::run::{Part, RunHeader};
//! use engine::vocab::LjpSetup::{Direct, Gold, Interaction};
//!
//! // Headers as three `lexpilot run --tasks ljp:<setup>` jobs write them (abridged).
//! let header = |run: u32, user_model: &str, prompts: &str| -> RunHeader {
//!     let text = format!(
//!         r#"{{"model": "M", "run": {run}, "dataset": "d", "judge": "J", {user_model}
//!             "user_condition": "standard", "prompts": {{{prompts}}}}}"#
//!     );
//!     serde_json::from_str(&text).unwrap()
//! };
//! let ljp = r#""ljp_direct.v1": "a1", "judge_ljp.v1": "b2""#;
//! let with_user = format!(r#"{ljp}, "lexawn.v1": "c3", "judge_lca.v1": "d4", "user_standard.v1": "e5""#);
//! let keys = [
//!     header(1, "", ljp).entry_key(),
//!     header(2, r#""user_model": "U","#, &with_user).entry_key(),
//!     header(3, "", ljp).entry_key(),
//!     // Run 4 is Direct again, with another direct prompt.
//!     header(4, "", r#""ljp_direct.v1": "f6", "judge_ljp.v1": "b2""#).entry_key(),
//! ];
//! let parts = [Direct, Interaction, Gold, Direct].map(|s| BTreeSet::from([Part::Ljp(s)]));
//!
//! let entries = group_runs(keys.iter().zip(parts));
//! assert_eq!(entries.len(), 2);
//! assert_eq!(entries[0].runs, [0, 1, 2]);
//! assert_eq!(entries[0].key.user_model.as_deref(), Some("U"));
//! assert_eq!(entries[0].key.extra["prompts"]["lexawn.v1"], "c3");
//! assert_eq!(entries[1].runs, [3]);
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::core::entry::EntryKey;
use crate::lexpilot::run::{Part, Task};
use crate::vocab::LjpSetup;

/// The header key of the user's behaviour.
const USER_CONDITION: &str = "user_condition";
/// The header key of the generation settings, per role.
const GENERATION: &str = "generation";
/// The user model's role in `generation`.
const USER_ROLE: &str = "user";
/// The header key of the prompt templates' hashes.
const PROMPTS: &str = "prompts";

/// One leaderboard entry as [`group_runs`] forms it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// What its runs say of its setting, together (see the
    /// [module documentation](self)).
    pub key: EntryKey,
    /// The positions of its runs in the input, ascending; never empty.
    pub runs: Vec<usize>,
}

/// The parts a prompt template describes, by the template's versioned name
/// (`<template>.v<N>`, as in `pipeline/prompts/`): LexAwN and the LCA judge
/// serve LCA and Interaction-Based LJP (which asks through LexAwN); the DCG
/// prompt and judge serve DCG; the direct prediction prompt and the LJP
/// extraction judge serve every LJP setup; the user model's prompts
/// (`user_*`) serve the parts played against it. `None` for a template this
/// table does not know, which is taken to serve every part.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::entries::prompt_parts;
/// use engine::lexpilot::run::Part;
/// use engine::vocab::LjpSetup;
///
/// assert_eq!(prompt_parts("judge_lca.v1"), Some(&[Part::Lca, Part::Ljp(LjpSetup::Interaction)][..]));
/// assert_eq!(prompt_parts("user_delayed.v2"), Some(&[Part::Dcg, Part::Ljp(LjpSetup::Interaction)][..]));
/// assert_eq!(prompt_parts("my_prompt"), None);
/// ```
pub fn prompt_parts(name: &str) -> Option<&'static [Part]> {
    const LCA: &[Part] = &[Part::Lca, Part::Ljp(LjpSetup::Interaction)];
    const DCG: &[Part] = &[Part::Dcg];
    const LJP: &[Part] = &[
        Part::Ljp(LjpSetup::Direct),
        Part::Ljp(LjpSetup::Interaction),
        Part::Ljp(LjpSetup::Gold),
    ];
    const USER: &[Part] = &[Part::Dcg, Part::Ljp(LjpSetup::Interaction)];
    let template = name.split_once('.').map_or(name, |(template, _)| template);
    match template {
        "lexawn" | "judge_lca" => Some(LCA),
        "dcg" | "judge_dcg" => Some(DCG),
        "ljp_direct" | "judge_ljp" => Some(LJP),
        user if user.starts_with("user_") => Some(USER),
        _ => None,
    }
}

/// Groups runs, each given as its key and the parts it contains, into
/// leaderboard entries by the rule of the [module documentation](self).
/// Entries come in the order of their first run in the input.
///
/// # Examples
///
/// ```
/// use std::collections::BTreeSet;
///
/// use engine::lexpilot::entries::group_runs;
/// use engine::lexpilot::run::Part;
/// use engine::core::entry::EntryKey;
///
/// let key = |judge: &str| EntryKey { model: "M".into(), judge: Some(judge.into()), ..EntryKey::default() };
/// let (lca, dcg) = (BTreeSet::from([Part::Lca]), BTreeSet::from([Part::Dcg]));
/// let keys = [key("J"), key("K"), key("J")];
///
/// // Another judge is another entry, whatever the parts.
/// let entries = group_runs([(&keys[0], lca.clone()), (&keys[1], dcg.clone()), (&keys[2], dcg)]);
/// let runs: Vec<&[usize]> = entries.iter().map(|e| e.runs.as_slice()).collect();
/// assert_eq!(runs, [&[0, 2][..], &[1][..]]);
/// assert_eq!(entries[1].key, keys[1]);
/// ```
pub fn group_runs<'a>(
    runs: impl IntoIterator<Item = (&'a EntryKey, BTreeSet<Part>)>,
) -> Vec<Entry> {
    let runs: Vec<(&EntryKey, BTreeSet<Part>)> = runs.into_iter().collect();
    let settings: Vec<Setting> = runs
        .iter()
        .map(|(key, parts)| Setting::of(key, parts))
        .collect();
    // An order of the runs' own: serde_json's maps are sorted, so equal keys
    // serialise alike.
    let canonical: Vec<(String, &BTreeSet<Part>)> = runs
        .iter()
        .map(|(key, parts)| (serde_json::to_string(key).unwrap_or_default(), parts))
        .collect();
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by(|&a, &b| canonical[a].cmp(&canonical[b]).then(a.cmp(&b)));

    let mut groups: Vec<Group> = Vec::new();
    for run in order {
        let setting = &settings[run];
        match groups.iter_mut().find(|g| g.admits(setting)) {
            Some(group) => group.add(run, setting),
            None => groups.push(Group::new(run, setting)),
        }
    }
    for group in &mut groups {
        group.runs.sort_unstable();
    }
    groups.sort_by_key(|g| g.runs[0]);
    groups
        .into_iter()
        .map(|g| Entry {
            key: entry_key(&runs, &g.runs),
            runs: g.runs,
        })
        .collect()
}

/// Why entries `a` and `b` (of two models, say) cannot be compared: what
/// they were produced with differs where the scores depend on it. The
/// dataset, the judge and the judge's generation settings, the DCG judge's
/// key-facts reading, the user model and its condition (when both name
/// one), and every prompt template both name (version and hash). The
/// evaluated models' own settings are what is being compared and are not.
/// Empty when they are comparable.
///
/// # Examples
///
/// ```
/// use engine::lexpilot::entries::not_comparable;
/// use engine::lexpilot::run::RunHeader;
///
/// let key = |text: &str| serde_json::from_str::<RunHeader>(text).unwrap().entry_key();
/// let a = key(r#"{"model": "A", "run": 1, "judge": "J", "prompts": {"lexawn.v1": "h1"}}"#);
/// let b = key(r#"{"model": "B", "run": 1, "judge": "J", "prompts": {"lexawn.v1": "h1", "dcg.v1": "h2"}}"#);
/// let c = key(r#"{"model": "C", "run": 1, "judge": "K", "prompts": {"lexawn.v2": "h3"}}"#);
/// assert!(not_comparable(&a, &b).is_empty());
/// assert_eq!(not_comparable(&a, &c), ["judge: J vs K", "prompt lexawn: lexawn.v1 vs lexawn.v2"]);
/// ```
pub fn not_comparable(a: &EntryKey, b: &EntryKey) -> Vec<String> {
    let mut reasons = Vec::new();
    let show = |v: Option<&str>| v.unwrap_or("none").to_owned();
    let mut differ = |what: &str, x: Option<String>, y: Option<String>, both_needed: bool| {
        if x != y && !(both_needed && (x.is_none() || y.is_none())) {
            reasons.push(format!(
                "{what}: {} vs {}",
                show(x.as_deref()),
                show(y.as_deref())
            ));
        }
    };
    let text = |key: &EntryKey, field: &str| -> Option<String> {
        key.extra.get(field).map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
    };
    let judge_generation = |key: &EntryKey| -> Option<String> {
        key.extra
            .get(GENERATION)?
            .get("judge")
            .map(Value::to_string)
    };
    differ("dataset", a.dataset.clone(), b.dataset.clone(), false);
    differ("judge", a.judge.clone(), b.judge.clone(), false);
    differ(
        "judge generation settings",
        judge_generation(a),
        judge_generation(b),
        true,
    );
    differ(
        "DCG judge key facts",
        text(a, "dcg_judge_key_facts"),
        text(b, "dcg_judge_key_facts"),
        true,
    );
    differ(
        "user model",
        a.user_model.clone(),
        b.user_model.clone(),
        true,
    );
    let condition = |key: &EntryKey| text(key, USER_CONDITION).or_else(|| Some("standard".into()));
    differ("user condition", condition(a), condition(b), false);
    let templates = |key: &EntryKey| -> BTreeMap<String, (String, Value)> {
        match key.extra.get(PROMPTS) {
            Some(Value::Object(named)) => named
                .iter()
                .map(|(name, hash)| {
                    let template = name.split_once('.').map_or(name.as_str(), |(t, _)| t);
                    (template.to_owned(), (name.clone(), hash.clone()))
                })
                .collect(),
            _ => BTreeMap::new(),
        }
    };
    let (ta, tb) = (templates(a), templates(b));
    for (template, (name_a, hash_a)) in &ta {
        if let Some((name_b, hash_b)) = tb.get(template) {
            if name_a != name_b {
                reasons.push(format!("prompt {template}: {name_a} vs {name_b}"));
            } else if hash_a != hash_b {
                reasons.push(format!("prompt {name_a}: another text (hash)"));
            }
        }
    }
    reasons
}

/// Per entry, why it cannot be compared with the reference entry: the one
/// comparable with the most others (the first such). All empty when every
/// entry is comparable with it.
///
/// ```
/// use engine::lexpilot::entries::not_comparable_with_most;
/// use engine::lexpilot::run::RunHeader;
///
/// let key = |m: &str, judge: &str| serde_json::from_str::<RunHeader>(
///     &format!(r#"{{"model": "{m}", "run": 1, "judge": "{judge}"}}"#)).unwrap().entry_key();
/// let keys = [key("A", "J"), key("B", "K"), key("C", "J")];
/// let flags = not_comparable_with_most(&keys.iter().collect::<Vec<_>>());
/// assert!(flags[0].is_empty() && flags[2].is_empty());
/// assert_eq!(flags[1], ["judge: K vs J"]);
/// ```
pub fn not_comparable_with_most(keys: &[&EntryKey]) -> Vec<Vec<String>> {
    let comparable_with = |i: usize| {
        keys.iter()
            .filter(|other| not_comparable(keys[i], other).is_empty())
            .count()
    };
    let Some(reference) =
        (0..keys.len()).max_by_key(|&i| (comparable_with(i), std::cmp::Reverse(i)))
    else {
        return Vec::new();
    };
    keys.iter()
        .map(|key| not_comparable(key, keys[reference]))
        .collect()
}

/// What one run's key says, split by what it describes.
#[derive(Debug, Clone, PartialEq)]
struct Setting {
    /// The key without the user model's fields and the prompts: the whole run.
    whole: EntryKey,
    /// The user model's fields, when the run contains a part played against it.
    user: Option<UserModel>,
    /// For each task the run contains, the templates that count for it.
    prompts: BTreeMap<Task, Templates>,
}

/// The header fields of the user model.
#[derive(Debug, Clone, PartialEq)]
struct UserModel {
    model: Option<String>,
    condition: Option<Value>,
    generation: Option<Value>,
}

/// Prompt templates by name without the version: (versioned name, hash).
type Templates = BTreeMap<String, (String, Value)>;

impl Setting {
    fn of(key: &EntryKey, parts: &BTreeSet<Part>) -> Setting {
        let mut whole = key.clone();
        let model = whole.user_model.take();
        let condition = whole.extra.remove(USER_CONDITION);
        let prompts = whole.extra.remove(PROMPTS);
        let generation = match whole.extra.get_mut(GENERATION) {
            Some(Value::Object(roles)) => roles.remove(USER_ROLE),
            _ => None,
        };
        let user = parts
            .iter()
            .any(|p| p.uses_user_model())
            .then_some(UserModel {
                model,
                condition,
                generation,
            });
        let prompts = parts
            .iter()
            .map(|part| part.task())
            .collect::<BTreeSet<Task>>()
            .into_iter()
            .map(|task| (task, templates(prompts.as_ref(), task, parts)))
            .collect();
        Setting {
            whole,
            user,
            prompts,
        }
    }
}

/// The templates of a header's `prompts` that count for `task` in a run of
/// `parts`: those serving a part of the task the run contains, or that
/// [`prompt_parts`] does not know. A `prompts` value that is no map of
/// templates counts as one unknown template.
fn templates(prompts: Option<&Value>, task: Task, parts: &BTreeSet<Part>) -> Templates {
    let counts = |name: &str| {
        parts
            .iter()
            .filter(|p| p.task() == task)
            .any(|part| prompt_parts(name).is_none_or(|serves| serves.contains(part)))
    };
    match prompts {
        None => Templates::new(),
        Some(Value::Object(named)) => named
            .iter()
            .filter(|(name, _)| counts(name))
            .map(|(name, hash)| {
                let template = name.split_once('.').map_or(name.as_str(), |(t, _)| t);
                (template.to_owned(), (name.clone(), hash.clone()))
            })
            .collect(),
        Some(other) => Templates::from([(String::new(), (String::new(), other.clone()))]),
    }
}

/// An entry being formed: what its runs say together, and which they are.
struct Group {
    whole: EntryKey,
    user: Option<UserModel>,
    prompts: BTreeMap<Task, Templates>,
    runs: Vec<usize>,
}

impl Group {
    fn new(run: usize, setting: &Setting) -> Group {
        Group {
            whole: setting.whole.clone(),
            user: setting.user.clone(),
            prompts: setting.prompts.clone(),
            runs: vec![run],
        }
    }

    /// Whether a run with `setting` agrees with every run of the group.
    fn admits(&self, setting: &Setting) -> bool {
        let user = match (&self.user, &setting.user) {
            (Some(ours), Some(theirs)) => ours == theirs,
            _ => true,
        };
        let prompts = setting.prompts.iter().all(|(task, theirs)| {
            self.prompts.get(task).is_none_or(|ours| {
                theirs
                    .iter()
                    .all(|(template, t)| ours.get(template).is_none_or(|o| o == t))
            })
        });
        self.whole == setting.whole && user && prompts
    }

    fn add(&mut self, run: usize, setting: &Setting) {
        if self.user.is_none() {
            self.user.clone_from(&setting.user);
        }
        for (task, templates) in &setting.prompts {
            let ours = self.prompts.entry(*task).or_default();
            for (template, t) in templates {
                ours.entry(template.clone()).or_insert_with(|| t.clone());
            }
        }
        self.runs.push(run);
    }
}

/// The key of the entry of runs `members` (ascending) of `runs`; see the
/// [module documentation](self).
fn entry_key(runs: &[(&EntryKey, BTreeSet<Part>)], members: &[usize]) -> EntryKey {
    let mut key = runs[members[0]].0.clone();
    let played = members
        .iter()
        .map(|&i| &runs[i])
        .find(|(_, parts)| parts.iter().any(|p| p.uses_user_model()));
    if let Some((played, _)) = played {
        key.user_model.clone_from(&played.user_model);
        set(
            &mut key.extra,
            USER_CONDITION,
            played.extra.get(USER_CONDITION).cloned(),
        );
        if let Some(Value::Object(roles)) = key.extra.get_mut(GENERATION) {
            let user = played
                .extra
                .get(GENERATION)
                .and_then(|g| g.get(USER_ROLE))
                .cloned();
            set(roles, USER_ROLE, user);
        }
    }
    if let Some(Value::Object(prompts)) = key.extra.get_mut(PROMPTS) {
        for &i in &members[1..] {
            if let Some(Value::Object(named)) = runs[i].0.extra.get(PROMPTS) {
                for (name, hash) in named {
                    prompts.entry(name.clone()).or_insert_with(|| hash.clone());
                }
            }
        }
    }
    key
}

/// Sets `name` to `value`, or removes it when `value` is `None`.
fn set(map: &mut Map<String, Value>, name: &str, value: Option<Value>) {
    match value {
        Some(value) => map.insert(name.to_owned(), value),
        None => map.remove(name),
    };
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const DIRECT: Part = Part::Ljp(LjpSetup::Direct);
    const INTERACTION: Part = Part::Ljp(LjpSetup::Interaction);
    const GOLD: Part = Part::Ljp(LjpSetup::Gold);

    /// The SHA-256 the pipeline would write for a template, made up.
    fn hash(template: &str) -> String {
        format!("{:0>64}", template.len())
    }

    /// The key of a run of model "M" with `parts` as a pipeline job with
    /// exactly those parts writes it: the prompts those parts use, the user
    /// model and its settings only when a part uses it.
    fn job_key(parts: &[Part]) -> EntryKey {
        let templates = [
            "lexawn.v1",
            "dcg.v1",
            "ljp_direct.v1",
            "user_standard.v1",
            "judge_lca.v1",
            "judge_dcg.v1",
            "judge_ljp.v1",
        ];
        let prompts: Map<String, Value> = templates
            .into_iter()
            .filter(|t| {
                prompt_parts(t).is_some_and(|serves| parts.iter().any(|p| serves.contains(p)))
            })
            .map(|t| (t.to_owned(), Value::from(hash(t))))
            .collect();
        let played = parts.iter().any(|p| p.uses_user_model());
        let mut generation = json!({"model": {"temperature": 0.0}, "judge": {"temperature": 0.0}});
        if played {
            generation["user"] = json!({"temperature": 0.7});
        }
        let extra = json!({
            "user_condition": "standard",
            "judges": [{"model": "J", "vendor": "j"}],
            "judge_aggregation": "single",
            "prompts": prompts,
            "generation": generation,
        });
        EntryKey {
            model: "M".into(),
            family: None,
            dataset: Some("d".into()),
            judge: Some("J".into()),
            user_model: played.then(|| "U".to_owned()),
            extra: extra.as_object().cloned().unwrap_or_default(),
        }
    }

    fn parts(parts: &[Part]) -> BTreeSet<Part> {
        parts.iter().copied().collect()
    }

    /// The runs of each entry of `runs`, as positions.
    fn grouped(runs: &[(EntryKey, BTreeSet<Part>)]) -> Vec<Vec<usize>> {
        group_runs(runs.iter().map(|(k, p)| (k, p.clone())))
            .into_iter()
            .map(|e| e.runs)
            .collect()
    }

    fn single(part: Part) -> (EntryKey, BTreeSet<Part>) {
        (job_key(&[part]), parts(&[part]))
    }

    #[test]
    fn runs_of_disjoint_parts_from_separate_jobs_are_one_entry() {
        let runs: Vec<_> = Part::ALL.into_iter().map(single).collect();
        assert_ne!(runs[0].0, runs[2].0, "the headers differ");
        assert_eq!(grouped(&runs), [vec![0, 1, 2, 3, 4]]);

        let entry = &group_runs(runs.iter().map(|(k, p)| (k, p.clone())))[0];
        assert_eq!(
            entry.key,
            job_key(&Part::ALL),
            "the key of one job of every part"
        );
    }

    #[test]
    fn a_run_of_several_parts_joins_runs_of_each_part_alone() {
        let runs = vec![
            single(DIRECT),
            (job_key(&[INTERACTION, GOLD]), parts(&[INTERACTION, GOLD])),
            single(GOLD),
            single(Part::Lca),
        ];
        assert_eq!(grouped(&runs), [vec![0, 1, 2, 3]]);
    }

    #[test]
    fn the_same_task_under_another_prompt_is_another_entry() {
        let mut changed = job_key(&[DIRECT]);
        changed.extra["prompts"]["ljp_direct.v1"] = json!(hash("changed"));
        let runs = vec![single(DIRECT), single(GOLD), (changed, parts(&[DIRECT]))];
        assert_eq!(grouped(&runs), [vec![0, 1], vec![2]]);

        // A new version of a template is another prompt too.
        let mut renamed = job_key(&[GOLD]);
        let prompts = renamed.extra["prompts"].as_object_mut().expect("prompts");
        let old = prompts.remove("judge_ljp.v1").expect("the LJP judge");
        prompts.insert("judge_ljp.v2".into(), old);
        let runs = vec![single(GOLD), (renamed, parts(&[GOLD])), single(DIRECT)];
        assert_eq!(grouped(&runs), [vec![0, 2], vec![1]]);
    }

    #[test]
    fn a_prompt_is_compared_within_its_task_and_its_parts() {
        // LexAwN serves LCA and interaction; the gold run's LexAwN differs,
        // but the gold run has neither of them.
        let mut gold = job_key(&[GOLD]);
        gold.extra["prompts"]["lexawn.v1"] = json!(hash("other"));
        let runs = vec![
            single(Part::Lca),
            single(INTERACTION),
            (gold, parts(&[GOLD])),
        ];
        assert_eq!(grouped(&runs), [vec![0, 1, 2]]);

        // An LCA run under another LexAwN is another task than interaction.
        let mut lca = job_key(&[Part::Lca]);
        lca.extra["prompts"]["lexawn.v1"] = json!(hash("other"));
        let runs = vec![single(INTERACTION), (lca.clone(), parts(&[Part::Lca]))];
        assert_eq!(grouped(&runs), [vec![0, 1]]);
        let runs = vec![single(Part::Lca), (lca, parts(&[Part::Lca]))];
        assert_eq!(grouped(&runs), [vec![0], vec![1]]);

        // The interaction run falls back to the direct prediction prompt:
        // another one sets it apart from the direct run.
        let mut interaction = job_key(&[INTERACTION]);
        interaction.extra["prompts"]["ljp_direct.v1"] = json!(hash("other"));
        let runs = vec![single(DIRECT), (interaction, parts(&[INTERACTION]))];
        assert_eq!(grouped(&runs), [vec![0], vec![1]]);
    }

    #[test]
    fn a_header_without_prompts_agrees_on_them() {
        let mut bare = job_key(&[GOLD]);
        bare.extra.remove("prompts");
        let runs = vec![single(DIRECT), (bare, parts(&[GOLD]))];
        assert_eq!(grouped(&runs), [vec![0, 1]]);
    }

    #[test]
    fn another_judge_dataset_or_whole_run_setting_is_another_entry() {
        let changes: [fn(&mut EntryKey); 5] = [
            |k| k.judge = Some("K".into()),
            |k| k.dataset = Some("other".into()),
            |k| k.model = "N".into(),
            |k| k.family = Some(crate::core::entry::Family::Open),
            |k| k.extra["generation"]["model"]["temperature"] = json!(1.0),
        ];
        for change in changes {
            let mut other = job_key(&[GOLD]);
            change(&mut other);
            let runs = vec![single(DIRECT), (other, parts(&[GOLD]))];
            assert_eq!(grouped(&runs), [vec![0], vec![1]]);
        }
    }

    #[test]
    fn the_user_model_splits_only_runs_that_both_play_against_it() {
        let mut other_user = job_key(&[Part::Dcg]);
        other_user.user_model = Some("V".into());
        let runs = vec![
            single(INTERACTION),
            (other_user.clone(), parts(&[Part::Dcg])),
        ];
        assert_eq!(grouped(&runs), [vec![0], vec![1]]);

        let mut other_condition = job_key(&[INTERACTION]);
        other_condition.extra["user_condition"] = json!("delayed");
        let runs = vec![single(Part::Dcg), (other_condition, parts(&[INTERACTION]))];
        assert_eq!(grouped(&runs), [vec![0], vec![1]]);

        let mut other_settings = job_key(&[INTERACTION]);
        other_settings.extra["generation"]["user"]["temperature"] = json!(0.0);
        let runs = vec![single(Part::Dcg), (other_settings, parts(&[INTERACTION]))];
        assert_eq!(grouped(&runs), [vec![0], vec![1]]);

        // A direct run never played against a user model: whatever its
        // header says of one, it joins.
        let mut direct = job_key(&[DIRECT]);
        direct.user_model = Some("V".into());
        direct.extra["user_condition"] = json!("delayed");
        let runs = vec![single(INTERACTION), (direct, parts(&[DIRECT]))];
        assert_eq!(grouped(&runs), [vec![0, 1]]);
    }

    #[test]
    fn the_entry_key_takes_the_user_model_from_a_run_played_against_it() {
        let mut direct = job_key(&[DIRECT]);
        direct.extra["user_condition"] = json!("delayed");
        let mut interaction = job_key(&[INTERACTION]);
        interaction.extra["user_condition"] = json!("self_correction");
        let runs = [
            (direct, parts(&[DIRECT])),
            (interaction, parts(&[INTERACTION])),
        ];
        let entries = group_runs(runs.iter().map(|(k, p)| (k, p.clone())));
        assert_eq!(entries.len(), 1);
        let key = &entries[0].key;
        assert_eq!(key.user_model.as_deref(), Some("U"));
        assert_eq!(key.extra["user_condition"], "self_correction");
        assert_eq!(key.extra["generation"]["user"]["temperature"], 0.7);
        assert_eq!(
            key.extra["prompts"],
            job_key(&[DIRECT, INTERACTION]).extra["prompts"]
        );
    }

    #[test]
    fn runs_with_equal_keys_are_one_entry_whatever_their_parts() {
        let key = EntryKey {
            model: "M".into(),
            extra: json!({"prompts": {"custom": "x"}, "note": 1})
                .as_object()
                .cloned()
                .unwrap_or_default(),
            ..EntryKey::default()
        };
        let runs: Vec<_> = [&[Part::Lca][..], &Part::ALL, &[DIRECT, GOLD]]
            .into_iter()
            .map(|p| (key.clone(), parts(p)))
            .collect();
        assert_eq!(grouped(&runs), [vec![0, 1, 2]]);
        assert_eq!(
            group_runs(runs.iter().map(|(k, p)| (k, p.clone())))[0].key,
            key
        );
    }

    #[test]
    fn a_template_the_table_does_not_know_describes_every_part() {
        let key = |hash: &str| EntryKey {
            model: "M".into(),
            extra: json!({"prompts": {"custom": hash}})
                .as_object()
                .cloned()
                .unwrap_or_default(),
            ..EntryKey::default()
        };
        // It counts for LJP in both runs, whichever setups they contain…
        let runs = vec![(key("x"), parts(&[DIRECT])), (key("y"), parts(&[GOLD]))];
        assert_eq!(grouped(&runs), [vec![0], vec![1]]);
        // …and is not compared between tasks.
        let runs = vec![
            (key("x"), parts(&[DIRECT])),
            (key("y"), parts(&[Part::Lca])),
        ];
        assert_eq!(grouped(&runs), [vec![0, 1]]);
    }

    /// Every permutation of `items`.
    fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
        if items.len() <= 1 {
            return vec![items.to_vec()];
        }
        (0..items.len())
            .flat_map(|i| {
                let mut rest = items.to_vec();
                let first = rest.remove(i);
                permutations(&rest).into_iter().map(move |mut p| {
                    p.insert(0, first);
                    p
                })
            })
            .collect()
    }

    #[test]
    fn the_entries_do_not_depend_on_the_order_of_the_runs() {
        // A direct run agrees with interaction runs under two conditions,
        // which disagree; and a gold run under another prompt.
        let mut delayed = job_key(&[INTERACTION]);
        delayed.extra["user_condition"] = json!("delayed");
        let mut gold = job_key(&[GOLD]);
        gold.extra["prompts"]["judge_ljp.v1"] = json!(hash("changed"));
        let runs = [
            single(DIRECT),
            single(INTERACTION),
            (delayed, parts(&[INTERACTION])),
            (gold, parts(&[GOLD])),
            single(GOLD),
        ];
        // Entries as sets of runs (by their position in `runs`).
        let entries_of = |order: &[usize]| -> BTreeSet<BTreeSet<usize>> {
            let given: Vec<_> = order.iter().map(|&i| runs[i].clone()).collect();
            grouped(&given)
                .into_iter()
                .map(|entry| entry.into_iter().map(|j| order[j]).collect())
                .collect()
        };
        let identity: Vec<usize> = (0..runs.len()).collect();
        let expected = entries_of(&identity);
        assert_eq!(expected.len(), 3, "{expected:?}");
        for order in permutations(&identity) {
            assert_eq!(entries_of(&order), expected, "order {order:?}");
        }
        // Whatever the order, every two runs of an entry agree.
        for entry in &expected {
            for &a in entry {
                for &b in entry.iter().filter(|&&b| b != a) {
                    let pair = [runs[a].clone(), runs[b].clone()];
                    assert_eq!(grouped(&pair).len(), 1, "runs {a} and {b}");
                }
            }
        }
    }
}
