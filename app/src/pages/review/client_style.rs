//! DLawBench's human check of the client simulator in the review pages
//! ([`engine::dlawbench::client_style`]): what the expert reads of one
//! simulated client ([`content`]: the dialogue after the case's opening,
//! the lawyer's questions as context and the client's replies to judge, as
//! plain text, never the style), the guidelines, and the results table per
//! simulated style beside the paper's 96.9% and 0.917
//! ([`ClientStyleTable`]).

use engine::dlawbench::client_style::{ClientStyleFigures, StyleRow};
use engine::dlawbench::dataset::{Jurisdiction, Style};
use leptos::prelude::*;

use crate::components::i18n::Lang;

/// The guidelines of a simulated-client-style item.
pub fn guidelines(lang: Lang) -> Vec<&'static str> {
    vec![
        lang.t(
            "阅读模拟当事人的回复，判断其叙述风格（四选一）。律师的提问仅作上下文；开场陈述是案件本身的，各风格相同。",
            "Read the simulated client's replies and name their narrative style (one of four). The lawyer's questions are context only; the opening is the case's own and the same for every style.",
        ),
        lang.t(
            "合作型：信息充分、有问必答、容易询问。依赖型：不清楚什么重要，事事听从律师。",
            "Cooperative: informative, responsive, easy to interview. Dependent: unsure what matters, defers to the lawyer.",
        ),
        lang.t(
            "退缩型：不愿展开，回答简短、回避。对抗型：质疑、挑战律师。",
            "Withdrawn: reluctant to elaborate, short evasive answers. Adversarial: questions and challenges the lawyer.",
        ),
        lang.t(
            "模拟时设定的风格与律师模型都不显示；提交后才会显示设定的风格。",
            "The style the simulator was given and the lawyer model are hidden; the style shows once you submit.",
        ),
    ]
}

/// A style in words.
pub fn style_text(lang: Lang, style: Style) -> &'static str {
    lang.t(style.label_zh(), style.label_en())
}

/// The text of `key` in a stored item's input (empty when absent).
pub fn text(v: &serde_json::Value, key: &str) -> String {
    v.get(key).and_then(|x| x.as_str()).unwrap_or("").to_owned()
}

/// The language a stored item's input is written in: `en`, else `zh`.
pub fn input_language(input: &serde_json::Value) -> &'static str {
    if text(input, "language") == "en" {
        "en"
    } else {
        "zh"
    }
}

/// A stored dialogue's turns (`field` of `input`), numbered as the expert
/// reads them: (turn number, whether the lawyer speaks, what was said); a
/// lawyer's question opens each turn.
pub fn numbered_turns(input: &serde_json::Value, field: &str) -> Vec<(usize, bool, String)> {
    let mut turn = 0;
    input
        .get(field)
        .and_then(|d| d.as_array())
        .map(|a| {
            a.iter()
                .map(|t| {
                    let lawyer = text(t, "role") == "lawyer";
                    if lawyer {
                        turn += 1;
                    }
                    (turn, lawyer, text(t, "content"))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// What the expert reads of one segment.
pub fn content(input: &serde_json::Value, lang: Memo<Lang>) -> impl IntoView {
    let language = input_language(input);
    let jurisdiction = Jurisdiction::parse(&text(input, "jurisdiction"));
    let opening = text(input, "opening");
    let turns = numbered_turns(input, "turns");
    view! {
        <section class="panel decision client-style" data-testid="decision-object">
            <p class="muted" data-testid="client-style-item">
                {move || {
                    let lang = lang.get();
                    let j = jurisdiction.map_or("", |j| lang.t(j.label_zh(), j.label_en()));
                    format!("DLawBench · {} · {j}", lang.t("模拟当事人", "Simulated client"))
                }}
            </p>
            <h2>{move || lang.get().t("开场陈述（案件本身的，仅作上下文）", "Opening (the case's own; context only)")}</h2>
            <div class="reply muted" lang=language data-testid="client-style-opening">{opening}</div>
            <h2>{move || lang.get().t("对话：请判断当事人回复的风格", "Dialogue: judge the style of the client's replies")}</h2>
            <ol class="dlaw-dialogue client-turns" lang=language data-testid="client-style-turns">
                {turns.into_iter().map(|(turn, lawyer, content)| view! {
                    <li class="turn" class:role-lawyer=lawyer class:role-client=!lawyer class:context=lawyer
                        data-role=if lawyer { "lawyer" } else { "client" }>
                        <div class="turn-head">
                            <span class="turn-no">{move || match lang.get() { Lang::Zh => format!("第{turn}轮"), Lang::En => format!("Turn {turn}") }}</span>
                            <span>{move || if lawyer { lang.get().t("律师（上下文）", "Lawyer (context)") } else { lang.get().t("当事人", "Client") }}</span>
                        </div>
                        <p class="turn-text">{content}</p>
                    </li>
                }).collect_view()}
            </ol>
        </section>
    }
}

fn share(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |x| format!("{:.1}%", 100.0 * x))
}

fn num(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |x| format!("{x:.3}"))
}

/// The experts against the simulated style, per style and overall, with
/// the paper's figures (over all segments) marked as the paper's.
#[component]
pub fn ClientStyleTable(figures: ClientStyleFigures, lang: Lang) -> impl IntoView {
    let row = move |r: StyleRow| {
        let name = r
            .style
            .map_or_else(|| lang.t("总体", "Overall"), |s| style_text(lang, s));
        let kappa_note = match (r.kappa, r.kappa_segments) {
            (Some(_), n) => format!("{n} × {}", r.raters),
            (None, 0) => lang.t("少于两位专家", "fewer than two experts").to_owned(),
            (None, _) => lang
                .t(
                    "未定义：标注全为同一风格",
                    "undefined: every label one style",
                )
                .to_owned(),
        };
        view! {
            <tr class:subtotal=r.style.is_none() data-style=r.style.map_or("overall", |s| s.as_str())>
                <td>{name}</td>
                <td class="num" data-testid="style-n">{r.segments}</td>
                <td class="num">{r.labels}</td>
                <td class="num" data-testid="style-accuracy">{share(r.accuracy)}</td>
                <td class="num" data-testid="style-kappa">{num(r.kappa)}</td>
                <td class="muted">{kappa_note}</td>
            </tr>
        }
    };
    let paper_accuracy = figures.paper_accuracy;
    let paper_kappa = figures.paper_kappa;
    let confusion = figures.confusion.clone();
    view! {
        <h2>{lang.t("DLawBench 模拟当事人风格：专家辨认", "DLawBench simulated client style: experts name the style")}</h2>
        <p class="legend">{lang.t(
            "专家阅读模拟当事人的回复并判断其风格（盲评）。准确率：专家标签（每位专家每段各计一次）与模拟设定风格相同的比例；κ：专家之间的四类 Fleiss' kappa。单一风格内几乎所有标签相同时 κ 偏低或无定义；论文的 κ 是全部四种风格合计的。",
            "Experts read a simulated client's replies and name its style, blind. Accuracy: the share of expert labels (each expert's label of each segment once) naming the simulated style; κ: four-way Fleiss' kappa among the experts. Within one style, κ is low or undefined when nearly every label is that style; the paper's κ is over all four styles.")}</p>
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard" data-testid="client-style-table">
                <thead>
                    <tr>
                        <th>{lang.t("模拟风格", "Simulated style")}</th>
                        <th class="num">{lang.t("段数 n", "Segments n")}</th>
                        <th class="num">{lang.t("标签", "Labels")}</th>
                        <th class="num">{lang.t("准确率", "Accuracy")}</th>
                        <th class="num">"Fleiss κ"</th>
                        <th>{lang.t("κ 的依据", "κ over")}</th>
                    </tr>
                </thead>
                <tbody>
                    {figures.rows.into_iter().map(row).collect_view()}
                    {row(figures.overall)}
                    <tr class="reference-row" data-testid="client-style-paper">
                        <td>{lang.t("论文（全部风格）", "Paper (all styles)")} " " <span class="badge">{lang.t("论文", "paper")}</span></td>
                        <td class="num">"—"</td>
                        <td class="num">"—"</td>
                        <td class="num">{share(Some(paper_accuracy))}</td>
                        <td class="num">{num(Some(paper_kappa))}</td>
                        <td class="muted">{lang.t("论文未给出各风格的数值", "the paper gives no per-style figures")}</td>
                    </tr>
                </tbody>
            </table>
        </div>
        <crate::components::exports::ExportLinks href=crate::components::exports::export_url("/review/agreement", "client_style") lang testid="export-client-style" />
        <h3>{lang.t("混淆：模拟风格（行）与专家标签（列）", "Confusion: simulated style (rows) against expert labels (columns)")}</h3>
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard" data-testid="client-style-confusion">
                <thead>
                    <tr>
                        <th></th>
                        {Style::ALL.iter().map(|&s| view! { <th class="num">{style_text(lang, s)}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {Style::ALL.iter().zip(confusion).map(|(&s, counts)| view! {
                        <tr>
                            <td>{style_text(lang, s)}</td>
                            {counts.into_iter().map(|c| view! { <td class="num">{c}</td> }).collect_view()}
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
