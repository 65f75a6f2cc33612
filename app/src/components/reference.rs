//! Reference lines under a leaderboard's entries ([`engine::reference`]):
//! a heading row, then per line the model with its mark ("published", or
//! a lab's own label), its figures (the sources as the tooltip) and,
//! beside a stored entry of the same model, the reproduction delta
//! (stored − published). Never ranked, never bold, never in a column's
//! best or an interval. One shape for every benchmark's board: the
//! caller gives the column labels (in its columns' order), the scale its
//! board writes and the cells it shows before the figures.

use engine::core::columns::Scale;
use engine::reference::ReferenceLine;
use leptos::prelude::*;

use crate::components::i18n::Lang;

/// The cells a board shows before its figures, in a reference line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lead {
    /// Model, runs (LexPilot, DLawBench).
    Model,
    /// Family, model, runs (PLawBench's official ranking).
    FamilyModel,
    /// Rank, model, runs, failures (DLawBench's tables).
    RankModel,
}

impl Lead {
    /// How many cells come before the figures.
    fn width(self) -> usize {
        match self {
            Lead::Model => 2,
            Lead::FamilyModel => 3,
            Lead::RankModel => 4,
        }
    }
}

/// The reference rows of a table's `<tbody>`: nothing without lines.
pub fn reference_rows(
    lang: Lang,
    lines: &[ReferenceLine],
    labels: &[String],
    scale: Scale,
    lead: Lead,
) -> AnyView {
    if lines.is_empty() {
        return ().into_any();
    }
    let width = labels.len() + lead.width();
    let heading = lang.t(
        "论文与发布的已发表结果（仅供参照，不参与排名与显著性检验）",
        "Published results of the papers and releases (for reference: not ranked, not in significance tests)",
    );
    let body = lines
        .iter()
        .map(|line| {
            let mark = if line.published() {
                lang.t("已发表", "published").to_owned()
            } else {
                line.origin.clone()
            };
            let sources = line.sources.join("; ");
            let cells = line
                .cells
                .iter()
                .zip(&line.deltas)
                .zip(labels)
                .map(|((cell, delta), label)| match cell {
                    Some(v) => view! {
                        <td class="num reference" data-label=label.clone() title=sources.clone()>
                            <span class="mean">{scale.value(*v)}</span>
                            {delta.map(|d| view! {
                                " " <span class="delta" data-testid="reproduction-delta"
                                    title=lang.t("复现差值：本站条目均值 − 参照值", "Reproduction delta: the stored entry's mean − the reference value")>
                                    "Δ " {scale.difference(d)}
                                </span>
                            })}
                        </td>
                    }
                    .into_any(),
                    None => view! { <td class="num muted" data-label=label.clone()>"—"</td> }.into_any(),
                })
                .collect_view();
            view! {
                <tr class="reference-row" data-testid="reference-row">
                    {(lead == Lead::FamilyModel).then(|| view! { <td class="family">{line.family.clone().unwrap_or_default()}</td> })}
                    {(lead == Lead::RankModel).then(|| view! { <td class="num muted">"—"</td> })}
                    <td class="model">
                        {line.model.clone()}
                        " " <span class="flag reference-mark" data-testid="reference-marker" title=sources.clone()>{mark}</span>
                    </td>
                    <td class="num muted runs" data-label=lang.t("运行次数", "Runs")>"—"</td>
                    {(lead == Lead::RankModel).then(|| view! { <td class="num muted">"—"</td> })}
                    {cells}
                </tr>
            }
        })
        .collect_view();
    view! {
        <tr class="family-row reference-heading"><th colspan=width>{heading}</th></tr>
        {body}
    }
    .into_any()
}
