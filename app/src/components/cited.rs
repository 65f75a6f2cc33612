//! Statute citations in text: each 《民法典》第一千一百八十三条 a page shows
//! opens the article's text on hover, focus or tap, and citations that do
//! not hold (no such article, a repealed law) are marked. Pages put the
//! marks of their texts in context ([`StatuteMarks`], from their server
//! function); [`Cited`] draws a text with its marks, and a text without any
//! stays plain. The popover is plain HTML and CSS, so it works without
//! JavaScript (focusable with the keyboard, opened by a tap on phones).

use std::sync::Arc;

use engine::statutes::{split, text_key, CitationCheck, CiteMark, MarkMap, Piece};
use leptos::prelude::*;

/// The citation marks of the texts a page shows, keyed by
/// [`engine::statutes::text_key`].
#[derive(Debug, Clone, Default)]
pub struct StatuteMarks(pub Arc<MarkMap>);

/// Puts `marks` in context for the components below.
pub fn provide_marks(marks: MarkMap) {
    provide_context(StatuteMarks(Arc::new(marks)));
}

/// The marks of `text`, from the page's context (none without one).
pub fn marks_for(text: &str) -> Vec<CiteMark> {
    use_context::<StatuteMarks>()
        .and_then(|m| m.0.get(&text_key(text)).cloned())
        .unwrap_or_default()
}

/// One citation: the cited words, and the popover with the article.
pub fn cite_view(words: &str, mark: &CiteMark) -> AnyView {
    let state = mark.state.as_str();
    let flagged = mark.state.is_flagged();
    let paragraphs: Vec<String> = mark
        .text
        .as_deref()
        .map(|t| {
            t.lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let cited = mark.paragraph.map(|p| p as usize);
    view! {
        <span
            class=format!("cite cite-{state}")
            tabindex="0"
            data-testid="citation"
            data-state=state
            aria-label=format!("{} · {}", mark.title, mark.note)
        >
            {words.to_owned()}
            {flagged.then(|| view! { <span class="cite-flag" aria-hidden="true">"!"</span> })}
            <span class="cite-pop" role="tooltip">
                <span class="cite-title">{mark.title.clone()}</span>
                <span class=format!("cite-note note-{state}")>{mark.note.clone()}</span>
                {paragraphs
                    .into_iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let here = cited == Some(i + 1);
                        view! { <span class="cite-para" class:cited=here>{p}</span> }
                    })
                    .collect_view()}
            </span>
        </span>
    }
    .into_any()
}

/// `text` with its citations marked (plain when it has none).
#[component]
pub fn Cited(#[prop(into)] text: String) -> impl IntoView {
    let marks = marks_for(&text);
    if marks.is_empty() {
        return text.into_any();
    }
    split(&text, &marks)
        .into_iter()
        .map(|piece| match piece {
            Piece::Plain(t) => t.to_owned().into_any(),
            Piece::Cited(words, mark) => cite_view(words, mark),
        })
        .collect_view()
        .into_any()
}

/// The citation check of a model's responses, as one line; nothing when
/// they cite no article.
#[component]
pub fn CitationSummary(check: CitationCheck, #[prop(into)] scope: String) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    (check.citations > 0).then(|| {
        view! {
            <p class="citation-summary" data-testid="citation-summary">
                <strong>{lang.t("法条引用", "Citations")}</strong>
                {lang.t("（", " (")} {scope} {lang.t("）：共 ", "): ")} {check.citations} {lang.t(" 条 · ", " checked · ")} {check.in_force} {lang.t(" 条现行有效", " in force")}
                {(check.repealed > 0)
                    .then(|| view! { " · " <span class="bad">{check.repealed} {lang.t(" 条已废止", " repealed")}</span> })}
                {(check.no_such_article + check.no_such_paragraph > 0)
                    .then(|| {
                        view! {
                            " · "
                            <span class="bad">
                                {check.no_such_article + check.no_such_paragraph} {lang.t(" 条不存在", " nonexistent")}
                            </span>
                        }
                    })}
                {(check.historical > 0)
                    .then(|| view! { " · " {check.historical} {lang.t(" 条为历史版本", " earlier version")} })}
                {(check.unknown_law > 0)
                    .then(|| {
                        view! { " · " {check.unknown_law} {lang.t(" 条未收录", " not among the imported statutes")} }
                    })}
            </p>
        }
    })
}
