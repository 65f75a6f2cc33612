//! The two consultations side by side, turn aligned with turn, with the
//! missing key facts marked where the complete consultation states them.

use engine::core::dialogue::Turn;
use engine::lexpilot::dataset::Case;
use engine::statutes::{split, Piece};
use engine::vocab::{Consultation, Role};
use leptos::prelude::*;

use crate::components::cited::{cite_view, marks_for};
use crate::components::i18n::Lang;

/// A piece of a turn's text: plain, or a marked key fact (with its id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Plain(String),
    Marked { fact: String, text: String },
}

/// Splits `text` at every occurrence of each `(fact_id, quote)`; overlapping
/// occurrences keep the earlier one. Works on char boundaries (byte offsets of
/// `str::find`), so Chinese text is never cut inside a character.
///
/// ```
/// use app::components::dialogue::{mark_quotes, Segment};
/// let s = mark_quotes("首付款由我爸出的，房子写我名", &[("k1".into(), "首付款由我爸出的".into())]);
/// assert_eq!(s[0], Segment::Marked { fact: "k1".into(), text: "首付款由我爸出的".into() });
/// assert_eq!(s[1], Segment::Plain("，房子写我名".into()));
/// ```
pub fn mark_quotes(text: &str, quotes: &[(String, String)]) -> Vec<Segment> {
    let mut spans: Vec<(usize, usize, &str)> = quotes
        .iter()
        .filter(|(_, q)| !q.is_empty())
        .flat_map(|(fact, q)| {
            text.match_indices(q.as_str())
                .map(move |(at, m)| (at, at + m.len(), fact.as_str()))
        })
        .collect();
    spans.sort_by_key(|&(start, end, _)| (start, std::cmp::Reverse(end)));
    let mut out = Vec::new();
    let mut pos = 0;
    for (start, end, fact) in spans {
        if start < pos {
            continue;
        }
        if start > pos {
            out.push(Segment::Plain(text[pos..start].to_owned()));
        }
        out.push(Segment::Marked {
            fact: fact.to_owned(),
            text: text[start..end].to_owned(),
        });
        pos = end;
    }
    if pos < text.len() {
        out.push(Segment::Plain(text[pos..].to_owned()));
    }
    out
}

/// The `(fact_id, quote)` pairs of the case's missing key facts that have a quote.
pub fn missing_quotes(case: &Case) -> Vec<(String, String)> {
    case.missing_key_facts()
        .filter_map(|k| k.quote.clone().map(|q| (k.id.clone(), q)))
        .collect()
}

/// A speaker in the page language, or in both where the page has none.
fn role_label(lang: Option<Lang>, role: Role) -> &'static str {
    match (role, lang) {
        (Role::User, None) => "用户 User",
        (Role::User, Some(l)) => l.t("用户", "User"),
        (Role::Assistant, None) => "助手 Assistant",
        (Role::Assistant, Some(l)) => l.t("助手", "Assistant"),
    }
}

/// A consultation's heading in the page language, or in both where the page
/// has none; `short` for a tab.
fn consultation_label(lang: Option<Lang>, c: Consultation, short: bool) -> &'static str {
    let (zh, en, both) = match (c, short) {
        (Consultation::Complete, false) => (
            "完整咨询",
            "Complete consultation",
            "完整咨询 Complete consultation",
        ),
        (Consultation::Complete, true) => ("完整咨询", "Complete", "完整咨询 Complete"),
        (Consultation::Underspecified, false) => (
            "信息缺失咨询",
            "Underspecified consultation",
            "信息缺失咨询 Underspecified consultation",
        ),
        (Consultation::Underspecified, true) => (
            "信息缺失咨询",
            "Underspecified",
            "信息缺失咨询 Underspecified",
        ),
    };
    lang.map_or(both, |l| l.t(zh, en))
}

#[component]
fn TurnCell(
    turn: Option<Turn>,
    consultation: Consultation,
    quotes: Vec<(String, String)>,
    index: usize,
    /// The consultation's last turn (marked: it is what a reply answers).
    #[prop(optional)]
    last: bool,
    lang: Option<Memo<Lang>>,
) -> impl IntoView {
    let Some(turn) = turn else {
        return view! { <div class="turn empty"></div> }.into_any();
    };
    // Citations first (their marks hold offsets into the whole turn), then
    // the missing facts within the plain pieces.
    let marks = marks_for(&turn.content);
    let pieces: Vec<AnyView> = split(&turn.content, &marks)
        .into_iter()
        .flat_map(|piece| match piece {
            Piece::Cited(words, mark) => vec![cite_view(words, mark)],
            Piece::Plain(text) => mark_quotes(text, &quotes)
                .into_iter()
                .map(segment_view)
                .collect(),
        })
        .collect();
    view! {
        <div class=format!("turn role-{} c-{}", turn.role.as_str(), consultation.as_str()) class:last=last>
            <div class="turn-head">
                <span class="turn-no">"#" {index + 1}</span>
                <span class="turn-role">{move || role_label(lang.map(|l| l.get()), turn.role)}</span>
                <span class="turn-kind">{move || lang.map_or(consultation.label_zh(), |l| l.get().t(consultation.label_zh(), consultation.label_en()))}</span>
            </div>
            <p class="turn-text">{pieces}</p>
        </div>
    }
    .into_any()
}

fn segment_view(segment: Segment) -> AnyView {
    let lang = crate::components::i18n::lang();
    match segment {
        Segment::Plain(t) => t.into_any(),
        Segment::Marked { fact, text } => view! {
            <mark class="missing-fact" data-fact=fact.clone() title=format!("{} {fact}", lang.t("缺失事实", "missing fact"))>
                {text}
                <sup>{fact.clone()}</sup>
            </mark>
        }
        .into_any(),
    }
}

/// The paired consultations as one grid: row i holds turn i of each. On a
/// phone the grid is one column, and two tabs (radio buttons, so they work
/// before hydration and without JavaScript) show one consultation at a time
/// rather than interleaving them turn by turn.
///
/// `lang`: the language of the labels where the page follows its URL's
/// `?lang=` (the review pages); otherwise the page's language.
#[component]
pub fn DialogueComparison(case: Case, #[prop(optional)] lang: Option<Memo<Lang>>) -> impl IntoView {
    let page = crate::components::i18n::lang();
    let lang = Some(lang.unwrap_or_else(|| Memo::new(move |_| page)));
    let label = move |c: Consultation, short: bool| {
        move || consultation_label(lang.map(|l| l.get()), c, short)
    };
    let quotes = missing_quotes(&case);
    let complete = case.consultations.complete.clone();
    let under = case.consultations.underspecified.clone();
    let rows = complete.len().max(under.len());
    view! {
        <input type="radio" name="pair-view" id="pair-view-complete" class="pair-radio" checked />
        <input type="radio" name="pair-view" id="pair-view-under" class="pair-radio" />
        <div class="pair-tabs" data-testid="pair-tabs">
            <label for="pair-view-complete" data-testid="pair-tab-complete">{label(Consultation::Complete, true)} " · " {complete.len()}</label>
            <label for="pair-view-under" data-testid="pair-tab-under">{label(Consultation::Underspecified, true)} " · " {under.len()}</label>
        </div>
        <div class="dialogue-grid" data-testid="dialogue">
            <div class="dialogue-head c-complete">{label(Consultation::Complete, false)}</div>
            <div class="dialogue-head c-underspecified">{label(Consultation::Underspecified, false)}</div>
            {(0..rows)
                .map(|i| {
                    view! {
                        <TurnCell turn=complete.get(i).cloned() consultation=Consultation::Complete quotes=quotes.clone() index=i last=i + 1 == complete.len() lang />
                        <TurnCell turn=under.get(i).cloned() consultation=Consultation::Underspecified quotes=Vec::new() index=i last=i + 1 == under.len() lang />
                    }
                })
                .collect_view()}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(fact: &str, quote: &str) -> (String, String) {
        (fact.to_owned(), quote.to_owned())
    }

    #[test]
    fn unmarked_text_is_one_plain_segment() {
        assert_eq!(
            mark_quotes("没有标记", &[]),
            vec![Segment::Plain("没有标记".into())]
        );
    }

    #[test]
    fn marks_every_occurrence_and_keeps_the_rest() {
        let s = mark_quotes("甲乙甲", &[q("k1", "甲")]);
        assert_eq!(s.len(), 3);
        assert_eq!(s[1], Segment::Plain("乙".into()));
    }

    #[test]
    fn overlapping_quotes_keep_the_earlier_longer_one() {
        let s = mark_quotes(
            "首付款三十万元",
            &[q("k2", "三十万"), q("k1", "首付款三十万")],
        );
        assert_eq!(
            s[0],
            Segment::Marked {
                fact: "k1".into(),
                text: "首付款三十万".into()
            }
        );
        assert_eq!(s[1], Segment::Plain("元".into()));
    }

    #[test]
    fn segments_concatenate_back_to_the_text() {
        let text = "我们2019年结婚，首付是我爸妈出的三十万，房子写的我们俩名字。";
        let s = mark_quotes(
            text,
            &[
                q("k1", "首付是我爸妈出的"),
                q("k2", "名字"),
                q("k3", "不存在"),
            ],
        );
        let joined: String = s
            .iter()
            .map(|s| match s {
                Segment::Plain(t) | Segment::Marked { text: t, .. } => t.as_str(),
            })
            .collect();
        assert_eq!(joined, text);
    }
}
