//! One review item, built for speed: what to judge in the main column, the
//! guidelines for the item's kind and the keyboard shortcuts beside it, a
//! label for every key (digits pick labels, `n` / `p` move through the queue,
//! Ctrl+Enter submits), and drafts saved as you go. Labels are blind: the
//! other expert's label and the judge's come back from the server only after
//! this expert has submitted.

use engine::dlawbench::dataset::Style;
use engine::lexpilot::dataset::Case;
use engine::lexpilot::run::Task;
use engine::review::{
    CaseCheck, CheckKind, CheckOutcome, CheckResult, ItemStatus, LabelReading, ReviewKind,
};
use engine::vocab::Verdict;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;
use serde::{Deserialize, Serialize};

use crate::components::dialogue::DialogueComparison;
use crate::components::i18n::{use_lang, Lang, LangLinks};
use crate::components::labels::{error_message, ErrorBox, Loading};
use crate::components::turn_editor::TurnEditor;
use crate::pages::review::{client_style, item_title, kind_label, status_label};
use crate::server_fns::review::{
    flag_review_item, get_review_item, save_review_draft, submit_review, ReviewItemView,
};

/// The active time on an item: milliseconds counted while the page is
/// visible (a tab in the background does not count), read in seconds when
/// the label is submitted. On the server it counts nothing.
#[derive(Clone, Copy)]
struct ActiveClock {
    /// (milliseconds counted, visible since: a `performance.now()` stamp).
    state: StoredValue<(f64, Option<f64>)>,
}

impl ActiveClock {
    fn start() -> Self {
        let state = StoredValue::new((0.0, None));
        #[cfg(feature = "hydrate")]
        {
            let now = || window().performance().map_or(0.0, |p| p.now());
            state.set_value((0.0, (!document().hidden()).then(now)));
            let handle = window_event_listener_untyped("visibilitychange", move |_| {
                let hidden = document().hidden();
                state.update_value(|(counted, since)| match (hidden, *since) {
                    (true, Some(from)) => {
                        *counted += now() - from;
                        *since = None;
                    }
                    (false, None) => *since = Some(now()),
                    _ => {}
                });
            });
            on_cleanup(move || handle.remove());
        }
        ActiveClock { state }
    }

    /// The whole seconds counted so far; `None` where nothing counts (SSR).
    fn seconds(self) -> Option<u32> {
        #[cfg(feature = "hydrate")]
        {
            let (counted, since) = self.state.get_value();
            let now = window().performance().map_or(0.0, |p| p.now());
            let ms = counted + since.map_or(0.0, |from| now - from);
            Some((ms / 1000.0).round().clamp(0.0, f64::from(u32::MAX)) as u32)
        }
        #[cfg(not(feature = "hydrate"))]
        {
            let _ = self.state;
            None
        }
    }
}

/// What the form holds, saved as the draft.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Draft {
    label: String,
    verdicts: Vec<String>,
    checks: Vec<(bool, String)>,
    /// A rubric verdict's points, one per unit of its sheet.
    #[serde(default)]
    points: Vec<String>,
    comment: String,
}

/// How the item is labelled.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Form {
    /// One label from the label space.
    Choice,
    /// One verdict per claim (LJP).
    Verdicts,
    /// The four case checks.
    Checks,
    /// Points per unit of the item's sheet (rubric verdicts).
    Points,
}

fn form_of(item: &ReviewItemView) -> Form {
    match (item.kind, item.task) {
        (ReviewKind::CaseCheck, _) => Form::Checks,
        (ReviewKind::RubricVerdict, _) => Form::Points,
        (_, Some(Task::Ljp)) => Form::Verdicts,
        _ => Form::Choice,
    }
}

/// A label in words in the page language, never its wire name.
pub fn label_text(lang: Lang, label: &str) -> String {
    let (zh, en) = match label {
        "predict" => ("策略一：直接预测", "Strategy 1: predicts directly"),
        "ask" => ("策略二：追问细节", "Strategy 2: asks for details"),
        "accepted" => ("接受", "Accepted"),
        "rejected" => ("拒绝", "Rejected"),
        "approve" => ("通过", "Approve"),
        "correct" => ("需修改", "Needs correction"),
        "pass" => ("通过", "Pass"),
        "fail" => ("不通过", "Fail"),
        other => {
            return match (Verdict::parse(other), Style::parse(other)) {
                (Some(v), _) => verdict_text(lang, v),
                (None, Some(s)) => client_style::style_text(lang, s).to_owned(),
                (None, None) => other.to_owned(),
            }
        }
    };
    lang.t(zh, en).to_owned()
}

/// A verdict in words.
fn verdict_text(lang: Lang, verdict: Verdict) -> String {
    lang.t(verdict.label_zh(), verdict.label_en()).to_owned()
}

/// A label in words, from its reading: a case check as its four outcomes
/// (with the comments of failed checks), an LJP label as its verdicts, any
/// other label as [`label_text`].
pub fn label_summary(lang: Lang, label: &LabelReading) -> String {
    match label {
        LabelReading::Checks(check) => check
            .results()
            .map(|(kind, r)| {
                let name = match kind {
                    CheckKind::KeyDetails => lang.t("关键细节", "key details"),
                    CheckKind::Incompleteness => lang.t("确有缺失", "underspecified lacks them"),
                    CheckKind::Completeness => lang.t("完整陈述", "complete states them"),
                    CheckKind::Anonymization => lang.t("匿名化", "anonymisation"),
                };
                let pass = r.outcome == CheckOutcome::Pass;
                let mut text = format!("{} {name}", if pass { "✓" } else { "✗" });
                if !r.comment.trim().is_empty() {
                    text.push_str(&format!("（{}）", r.comment.trim()));
                }
                text
            })
            .collect::<Vec<_>>()
            .join(" · "),
        LabelReading::Verdicts(verdicts) => verdicts
            .iter()
            .enumerate()
            .map(|(i, &v)| format!("{}. {}", i + 1, verdict_text(lang, v)))
            .collect::<Vec<_>>()
            .join(lang.t("；", "; ")),
        LabelReading::Points(points) => points
            .iter()
            .map(|(key, p)| format!("{} {p}", unit_name(lang, key)))
            .collect::<Vec<_>>()
            .join(" · "),
        LabelReading::Word(word) => label_text(lang, word),
    }
}

/// The name of a rubric verdict's unit: a PLawBench section, or the total.
fn unit_name(lang: Lang, key: &str) -> String {
    use engine::plawbench::dataset::Section;
    match (Section::parse(key), key) {
        (Some(s), _) => match lang {
            Lang::Zh => s.label_zh().to_owned(),
            Lang::En => s.label_en().to_owned(),
        },
        (None, "total") => lang.t("总分", "Total").to_owned(),
        (None, other) => {
            use engine::lexpilot::fidelity::Criterion;
            if let Some(c) = Criterion::parse(other) {
                return lang.t(c.label_zh(), c.label_en()).to_owned();
            }
            // A DLawBench rubric item: its dimension and number.
            match other.rsplit_once('-') {
                Some((d, n)) => match group_name(lang, d) {
                    Some(group) => format!("{group} {n}"),
                    None => other.to_owned(),
                },
                None => other.to_owned(),
            }
        }
    }
}

/// A DLawBench sheet group (`inquiry`, `issue`) in the page language.
fn group_name(lang: Lang, key: &str) -> Option<&'static str> {
    use engine::dlawbench::score::Metric;
    let metric = match key {
        "inquiry" => Metric::Inquiry,
        "issue" => Metric::IssueResolution,
        _ => return None,
    };
    Some(lang.t(metric.label_zh(), metric.label_en()))
}

/// A 0/1 unit as the expert reads it: a fidelity criterion in the page
/// language, a DLawBench rubric item as its number within its dimension
/// (`inquiry-3` → **3**) and its text; never the wire key.
fn mark_text(lang: Lang, key: &str, name: &str) -> AnyView {
    use engine::lexpilot::fidelity::Criterion;
    if let Some(c) = Criterion::parse(key) {
        return view! { <strong>{lang.t(c.label_zh(), c.label_en())}</strong> }.into_any();
    }
    let number = key.rsplit_once('-').map_or(key, |(_, n)| n).to_owned();
    view! { <strong>{number}</strong> " " {name.to_owned()} }.into_any()
}

/// Whether a rubric verdict is a DLawBench session's.
fn is_dlaw(item: &ReviewItemView) -> bool {
    item.input.get("benchmark").and_then(|b| b.as_str()) == Some("dlawbench")
}

/// Whether a rubric verdict is a reply of the user-simulator fidelity study.
fn is_fidelity(item: &ReviewItemView) -> bool {
    item.input.get("study").and_then(|b| b.as_str()) == Some(engine::lexpilot::fidelity::SHEET_TASK)
}

/// The score sheet of a rubric verdict, from its input.
fn sheet_of(item: &ReviewItemView) -> Option<engine::review::Sheet> {
    serde_json::from_value(item.input.get("sheet")?.clone()).ok()
}

const CHECKS: [CheckKind; 4] = [
    CheckKind::KeyDetails,
    CheckKind::Incompleteness,
    CheckKind::Completeness,
    CheckKind::Anonymization,
];

fn check_label(lang: Lang, kind: CheckKind) -> &'static str {
    match kind {
        CheckKind::KeyDetails => lang.t(
            "关键细节正确且与争议焦点相关",
            "Key details correct and relevant to the focal point",
        ),
        CheckKind::Incompleteness => lang.t(
            "信息缺失咨询确实缺少每一项缺失事实",
            "The underspecified consultation lacks every missing fact",
        ),
        CheckKind::Completeness => lang.t(
            "完整咨询确实陈述了这些事实",
            "The complete consultation states them",
        ),
        CheckKind::Anonymization => lang.t(
            "匿名化完好（无姓名、身份证、电话、银行卡、车牌）",
            "Anonymisation holds (no names, ID, phone, bank numbers, plates)",
        ),
    }
}

fn guidelines(lang: Lang, item: &ReviewItemView) -> Vec<&'static str> {
    match (item.kind, item.task) {
        (ReviewKind::CaseCheck, _) => vec![
            lang.t("以判决书为准，逐项核查下列四点，不通过时必须填写理由。", "Check the four points against the judgment; a fail needs a comment."),
            lang.t("关键细节：从事实部分抽取的细节须与说理部分明确的争议焦点直接相关。", "Key details: the facts extracted must bear directly on the focal point stated in the reasoning."),
            lang.t("不完整性：缺失的关键细节在信息缺失咨询中自始至终不得出现。", "Incompleteness: the missing details appear nowhere in the underspecified consultation."),
            lang.t("完整性：完整咨询须包含原告视角的全部案件事实。", "Completeness: the complete consultation holds all the facts from the plaintiff's side."),
            lang.t("匿名化：检查残留的个人敏感信息。系统预标注的可疑片段仅供参考，不作判断。", "Anonymisation: look for residual personal data. Pre-flagged spans only help; they decide nothing."),
        ],
        (ReviewKind::SeedDialogue, _) => vec![
            lang.t("种子对话是生成提示中的示例，须体现普通人如何描述案情并遗漏关键事实。", "Seed pairs are the generation examples: how a layperson describes a case and omits the crucial facts."),
            lang.t("如无问题选择“通过”；如需修改，选择“需修改”并直接编辑对话，两侧轮数须保持一致。", "Approve if sound; otherwise choose correct and edit the turns; both sides keep equal turn counts."),
        ],
        (ReviewKind::JudgeVerdict, Some(Task::Lca)) => vec![
            lang.t("判断模型回复采用的策略：策略一为直接给出法律分析或结论；策略二为先追问缺失的细节。", "Which strategy did the reply take: one, answer directly; two, ask for the missing details first."),
            lang.t("与评审模型使用相同的标准（附录F的LCA评审提示）。", "Use the judge's own criteria (Appendix F, LCA judge prompt)."),
        ],
        (ReviewKind::JudgeVerdict, Some(Task::Dcg)) => vec![
            lang.t("判断模型的追问是否指向争议焦点所需的缺失关键事实；至少一项有效追问即为接受。", "Does a request target a missing key fact the focal point needs? One valid request means accepted."),
        ],
        (ReviewKind::JudgeVerdict, Some(Task::Ljp)) => vec![
            lang.t("从模型回复中为每一项诉讼请求抽取其预测：支持、部分支持或驳回。", "Extract the reply's prediction for every claim: supported, partially supported or dismissed."),
            lang.t("按数字键为当前诉请选择判决，光标自动移到下一项。", "Digits set the current claim's verdict and move to the next claim."),
        ],
        (ReviewKind::JudgeVerdict, None) => vec![],
        (ReviewKind::ClientStyle, _) => client_style::guidelines(lang),
        (ReviewKind::RubricVerdict, _) if is_fidelity(item) => vec![
            lang.t("A/B：回答是否正确且足以满足约定的最低答案；D：事实已被删除，恰当表示不知道或记不清为 1。C 不评回答。", "A/B: is the answer correct and at least the agreed minimum? D: the fact was withheld, so appropriate uncertainty is 1. C has no answer mark."),
            lang.t("过度披露：回复透露了超出约定允许范围的隐藏事实（复述已有对话不算）。", "Over-disclosure: the reply reveals hidden facts beyond the agreed permissions (repeating the history does not count)."),
            lang.t("事实错误：无依据的陈述、矛盾或混淆当事人。拒绝回答在 A/B 中不算充分。", "Factual error: unsupported assertions, contradictions or confused parties. A refusal is not sufficient for A/B."),
            lang.t("你看不到评审模型对该问题的判定。", "The DCG judge's decision on the question is not shown."),
        ],
        (ReviewKind::RubricVerdict, _) if is_dlaw(item) => vec![
            lang.t("逐项标记 0 或 1：追问要点看律师在对话中是否问到或核实了该事项；争点要点看备忘录是否作出了该项分析。", "Mark each rubric item 0 or 1: an Inquiry item is 1 when the lawyer asked about or verified it in the dialogue; an Issue item when the memo makes that point."),
            lang.t("以法院查明的事实为准：备忘录采纳了当事人错误认识的，不算解决。", "The court record decides: a memo that adopts the client's mistaken belief does not resolve the point."),
            lang.t("你看不到评审团的决定；提交后才会显示。", "The panel's decisions are hidden until you submit."),
        ],
        (ReviewKind::RubricVerdict, _) => vec![
            lang.t("按评分细则逐项给分：每个评分项的得分不超过其满分，可给半分。", "Score each section against its rubric: up to the section's points, half points allowed."),
            lang.t("与评审模型使用相同的标准（PLawBench 的评审提示）：只为回答中确实出现的要点给分。", "Use the judge's own criteria (PLawBench's judge prompt): award only what the answer actually states."),
            lang.t("起诉状、答辩状因长度上限被截断时，按已写出的内容评分。", "A statement cut off at the length limit is scored on what it says."),
        ],
    }
}

#[component]
pub fn ReviewItemPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").and_then(|s| s.parse::<i64>().ok()).unwrap_or(0));
    let (version, set_version) = signal(0u32);
    let data = Resource::new(move || (id(), version.get()), |(id, _)| get_review_item(id));
    view! {
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(item) => view! { <ItemBody item set_version /> }.into_any(),
                    Err(e) => view! { <section class="panel"><ErrorBox error=e /><p><a href="/review">"← 我的条目 My items"</a></p></section> }.into_any(),
                }
            })}
        </Suspense>
    }
}

fn initial_draft(item: &ReviewItemView) -> Draft {
    let from_draft = item
        .draft
        .as_deref()
        .and_then(|d| serde_json::from_str::<Draft>(d).ok());
    let mut draft = match (&item.my_label, from_draft) {
        (Some(label), _) => {
            let mut d = Draft {
                label: label.clone(),
                comment: item.my_comment.clone().unwrap_or_default(),
                ..Draft::default()
            };
            match item.readings.get(label) {
                LabelReading::Verdicts(v) => {
                    d.verdicts = v.iter().map(|v| v.as_str().to_owned()).collect();
                }
                LabelReading::Checks(c) => {
                    d.checks = c
                        .results()
                        .map(|(_, r)| (r.outcome == CheckOutcome::Pass, r.comment.clone()))
                        .collect();
                }
                LabelReading::Points(points) => {
                    d.points = points.iter().map(|(_, p)| p.clone()).collect();
                }
                LabelReading::Word(_) => {}
            }
            d
        }
        (None, Some(d)) => d,
        (None, None) => Draft::default(),
    };
    draft.verdicts.resize(item.claims, String::new());
    draft.checks.resize(4, (true, String::new()));
    let units = sheet_of(item).map_or(0, |s| s.units.len());
    draft.points.resize(units, String::new());
    draft
}

/// The draft in a few words, for the label sheet's one row on a phone:
/// the label chosen, or how many claims, checks or units are done.
fn draft_summary(lang: Lang, form: Form, d: &Draft) -> String {
    let set = |values: &[String]| values.iter().filter(|v| !v.trim().is_empty()).count();
    match form {
        Form::Choice if d.label.is_empty() => lang.t("未选择", "none chosen").to_owned(),
        Form::Choice => label_text(lang, &d.label),
        Form::Verdicts => match lang {
            Lang::Zh => format!("已选 {} / {} 项诉请", set(&d.verdicts), d.verdicts.len()),
            Lang::En => format!("{} of {} claims set", set(&d.verdicts), d.verdicts.len()),
        },
        Form::Points => match lang {
            Lang::Zh => format!("已评 {} / {} 项", set(&d.points), d.points.len()),
            Lang::En => format!("{} of {} marked", set(&d.points), d.points.len()),
        },
        Form::Checks => match d.checks.iter().filter(|(pass, _)| !pass).count() {
            0 => lang.t("四项核查均通过", "all four checks pass").to_owned(),
            failing => match lang {
                Lang::Zh => format!("{failing} 项不通过"),
                Lang::En => format!("{failing} failing"),
            },
        },
    }
}

fn compose(form: Form, d: &Draft, keys: &[String]) -> Option<String> {
    match form {
        Form::Points => {
            (!keys.is_empty() && d.points.iter().all(|p| !p.trim().is_empty())).then(|| {
                keys.iter()
                    .zip(&d.points)
                    .map(|(k, p)| format!("{k}={}", p.trim()))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
        }
        Form::Choice => (!d.label.is_empty()).then(|| d.label.clone()),
        Form::Verdicts => d
            .verdicts
            .iter()
            .all(|v| !v.is_empty())
            .then(|| serde_json::to_string(&d.verdicts).unwrap_or_default()),
        Form::Checks => {
            let result = |i: usize| {
                let (pass, comment) = d.checks.get(i).cloned().unwrap_or((true, String::new()));
                CheckResult {
                    outcome: if pass {
                        CheckOutcome::Pass
                    } else {
                        CheckOutcome::Fail
                    },
                    comment,
                }
            };
            serde_json::to_string(&CaseCheck {
                key_details: result(0),
                incompleteness: result(1),
                completeness: result(2),
                anonymization: result(3),
            })
            .ok()
        }
    }
}

#[component]
fn ItemBody(item: ReviewItemView, set_version: WriteSignal<u32>) -> impl IntoView {
    let lang = use_lang();
    let form = form_of(&item);
    let draft = RwSignal::new(initial_draft(&item));
    let focus = RwSignal::new(0usize);
    let proposal: Option<RwSignal<Case>> = item
        .my_proposal
        .clone()
        .or_else(|| item.case.clone())
        .map(RwSignal::new);
    let saved_note = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    // On a phone the label sheet is one row (what is chosen so far, and the
    // submit button) until the expert opens it; an error opens it.
    let sheet_open = RwSignal::new(false);
    Effect::new(move |_| {
        if error.with(Option::is_some) {
            sheet_open.set(true);
        }
    });
    let id = item.id;
    let labels = item.labels.clone();
    let claims = item.claims;
    let sheet = sheet_of(&item);
    // A stored value, so that the submit closure stays `Copy`.
    let keys = StoredValue::new(
        sheet
            .iter()
            .flat_map(|s| s.units.iter().map(|u| u.key.clone()))
            .collect::<Vec<String>>(),
    );

    let save_draft = Action::new(move |text: &String| save_review_draft(id, text.clone()));
    // Autosave: a draft is written 600 ms after the last change.
    let generation = StoredValue::new(0u64);
    Effect::new(move |first: Option<()>| {
        let text = draft.with(|d| serde_json::to_string(d).unwrap_or_default());
        if first.is_none() {
            return;
        }
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        set_timeout(
            move || {
                // The item may have been submitted (and this form replaced)
                // within the 600 ms: then there is nothing left to save.
                if generation.try_get_value() == Some(mine) {
                    save_draft.dispatch(text);
                }
            },
            std::time::Duration::from_millis(600),
        );
    });
    Effect::new(move |_| {
        if let Some(result) = save_draft.value().get() {
            saved_note.set(match result {
                Ok(()) => "✓ 草稿已保存 Draft saved".into(),
                Err(e) => format!("草稿未保存 Draft not saved: {}", error_message(&e)),
            });
        }
    });

    // The active time on the item: counted while the page is visible, sent
    // with the label (the paper's cost accounting, Appendix B).
    let clock = ActiveClock::start();
    let submit = Action::new(
        move |(label, comment, proposal, seconds): &(
            String,
            String,
            Option<String>,
            Option<u32>,
        )| {
            submit_review(
                id,
                label.clone(),
                comment.clone(),
                proposal.clone(),
                *seconds,
            )
        },
    );
    // Flagging the item as unclear, with a comment, without labelling it.
    let unclear = RwSignal::new(item.unclear.clone());
    let unclear_open = RwSignal::new(false);
    let unclear_text = RwSignal::new(item.unclear.clone().unwrap_or_default());
    let flag = Action::new(move |comment: &String| flag_review_item(id, comment.clone()));
    Effect::new(move |_| match flag.value().get() {
        Some(Ok(())) => {
            let text = unclear_text.get_untracked();
            unclear.set((!text.trim().is_empty()).then(|| text.trim().to_owned()));
            unclear_open.set(false);
        }
        Some(Err(e)) => error.set(Some(error_message(&e))),
        None => {}
    });
    Effect::new(move |_| match submit.value().get() {
        Some(Ok(_)) => set_version.update(|v| *v += 1),
        Some(Err(e)) => error.set(Some(error_message(&e))),
        None => {}
    });
    let do_submit = move || {
        let d = draft.get();
        let Some(label) = keys.with_value(|keys| compose(form, &d, keys)) else {
            let lang = lang.get_untracked();
            error.set(Some(
                if form == Form::Points {
                    lang.t("请为每个评分项给分。", "Give points to every section.")
                } else {
                    lang.t(
                        "请先选择标签（每项诉请都要选择）。",
                        "Choose a label first (one for every claim).",
                    )
                }
                .into(),
            ));
            return;
        };
        let proposal = proposal
            .filter(|_| d.label == "correct")
            .map(|p| p.with(|c| serde_json::to_string(c).unwrap_or_default()));
        error.set(None);
        submit.dispatch((label, d.comment.clone(), proposal, clock.seconds()));
    };

    #[cfg(feature = "hydrate")]
    {
        let labels = labels.clone();
        let submitted_now = item.submitted;
        let units = sheet.as_ref().map_or(0, |s| s.units.len());
        let marks_only = sheet
            .as_ref()
            .is_some_and(|s| !s.units.is_empty() && s.units.iter().all(|u| u.binary()));
        // A sheet of points: the first field takes the keyboard at once
        // (Tab moves on), so no mouse and no walk through the page.
        if form == Form::Points && !marks_only && !submitted_now {
            request_animation_frame(|| {
                use wasm_bindgen::JsCast;
                if let Some(el) = document()
                    .query_selector(".label-controls input[type=number]")
                    .ok()
                    .flatten()
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    let _ = el.focus();
                }
            });
        }
        let previous = item.previous;
        let next = item.next_todo.or(item.next);
        let handle = window_event_listener(leptos::ev::keydown, move |ev| {
            use wasm_bindgen::JsCast;
            let typing = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| {
                    matches!(el.tag_name().as_str(), "TEXTAREA" | "INPUT" | "SELECT")
                });
            let key = ev.key();
            if key == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                ev.prevent_default();
                do_submit();
                return;
            }
            if key == "Escape" && unclear_open.get_untracked() {
                unclear_open.set(false);
                return;
            }
            if typing || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
                return;
            }
            let go = |to: Option<i64>| {
                if let Some(to) = to {
                    let _ = window()
                        .location()
                        .set_href(&lang.get_untracked().link(&format!("/review/items/{to}")));
                }
            };
            match key.as_str() {
                "n" | "j" => go(next),
                "p" | "k" => go(previous),
                "f" if !submitted_now => {
                    ev.prevent_default();
                    unclear_open.set(true);
                    sheet_open.set(true);
                    // The box renders on the next tick; focus it then.
                    set_timeout(
                        || {
                            if let Some(el) = document()
                                .get_element_by_id("unclear-comment")
                                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                            {
                                let _ = el.focus();
                            }
                        },
                        std::time::Duration::from_millis(0),
                    );
                }
                // A sheet of 0/1 marks: the digit is the mark of the focused
                // unit, and the focus moves on.
                "0" | "1" if form == Form::Points && marks_only => {
                    let at = focus.get_untracked();
                    draft.update(|d| {
                        if let Some(p) = d.points.get_mut(at) {
                            *p = key.clone();
                        }
                    });
                    focus.set((at + 1).min(units.saturating_sub(1)));
                }
                digit if digit.len() == 1 && digit.as_bytes()[0].is_ascii_digit() => {
                    let Some(n) = digit.parse::<usize>().ok().and_then(|n| n.checked_sub(1)) else {
                        return;
                    };
                    match form {
                        Form::Choice => {
                            if let Some(label) = labels.get(n) {
                                draft.update(|d| d.label = label.clone());
                            }
                        }
                        Form::Verdicts => {
                            if let Some(label) = labels.get(n) {
                                let at = focus.get_untracked();
                                draft.update(|d| {
                                    if let Some(v) = d.verdicts.get_mut(at) {
                                        *v = label.clone();
                                    }
                                });
                                focus.set((at + 1).min(claims.saturating_sub(1)));
                            }
                        }
                        Form::Checks => {
                            if n < 4 {
                                draft.update(|d| d.checks[n].0 = !d.checks[n].0);
                            }
                        }
                        Form::Points => {}
                    }
                }
                "ArrowDown" if form == Form::Verdicts => {
                    focus.update(|f| *f = (*f + 1).min(claims.saturating_sub(1)))
                }
                "ArrowDown" if form == Form::Points && marks_only => {
                    focus.update(|f| *f = (*f + 1).min(units.saturating_sub(1)))
                }
                "ArrowUp" if matches!(form, Form::Verdicts | Form::Points) => {
                    focus.update(|f| *f = f.saturating_sub(1))
                }
                _ => {}
            }
        });
        on_cleanup(move || handle.remove());
    }

    let title = item_title(
        lang.get_untracked(),
        item.kind,
        &item.case_id,
        item.task,
        item.target.as_deref(),
    );
    let nav = |to: Option<i64>, text: &'static str| {
        match to {
        Some(to) => view! { <a class="button" href=move || lang.get().link(&format!("/review/items/{to}"))>{text}</a> }.into_any(),
        None => view! { <span class="button disabled">{text}</span> }.into_any(),
    }
    };
    let revealed = item.revealed.clone();
    let readings = item.readings.clone();
    let submitted = item.submitted;
    let status = item.status;
    let frozen = status == ItemStatus::Final;

    let choice_form = {
        let labels = labels.clone();
        move || {
            let lang = lang.get();
            labels.iter().enumerate().map(|(i, l)| {
                let l2 = l.clone();
                let l3 = l.clone();
                view! {
                    <label class="choice" class:chosen=move || draft.with(|d| d.label == l2)>
                        <input type="radio" name="label" prop:checked=move || draft.with(|d| d.label == l3)
                               on:change={let l = l.clone(); move |_| draft.update(|d| d.label = l.clone())} />
                        <kbd>{i + 1}</kbd> " " {label_text(lang, l)}
                    </label>
                }
            }).collect_view()
        }
    };
    let verdict_form = {
        let labels = labels.clone();
        let claim_texts: Vec<String> = item
            .input
            .get("claims")
            .and_then(|c| c.as_array())
            .map(|a| {
                a.iter()
                    .map(|c| {
                        format!(
                            "{} {}",
                            c.get("id").and_then(|v| v.as_str()).unwrap_or(""),
                            c.get("text").and_then(|v| v.as_str()).unwrap_or("")
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        move || {
            let lang = lang.get();
            (0..claims).map(|k| {
                let text = claim_texts.get(k).cloned().unwrap_or_else(|| format!("#{}", k + 1));
                view! {
                    <div class="claim-row" class:focused=move || focus.get() == k on:click=move |_| focus.set(k) data-testid=format!("claim-{k}")>
                        <div>{text}</div>
                        <div class="claim-choices">
                            {labels.iter().enumerate().map(|(i, l)| {
                                let l2 = l.clone();
                                let l3 = l.clone();
                                view! {
                                    <label class="choice" class:chosen=move || draft.with(|d| d.verdicts.get(k) == Some(&l2))>
                                        <input type="radio" name=format!("claim-{k}") prop:checked=move || draft.with(|d| d.verdicts.get(k) == Some(&l3))
                                               on:change={let l = l.clone(); move |_| draft.update(|d| d.verdicts[k] = l.clone())} />
                                        <kbd>{i + 1}</kbd> " " {label_text(lang, l)}
                                    </label>
                                }
                            }).collect_view()}
                        </div>
                    </div>
                }
            }).collect_view()
        }
    };
    let points_form = {
        let units = sheet.clone().map(|s| s.units).unwrap_or_default();
        move || {
            let lang = lang.get();
            units.iter().enumerate().map(|(i, unit)| {
                let max = unit.max;
                // A heading where a group of units begins.
                let heading = unit
                    .group
                    .as_deref()
                    .filter(|g| i == 0 || units[i - 1].group.as_deref() != Some(*g))
                    .and_then(|g| group_name(lang, g))
                    .map(|name| view! { <h3 class="sheet-group">{name}</h3> });
                if unit.binary() {
                    let chosen = move |v: &'static str| move || draft.with(|d| d.points.get(i).is_some_and(|p| p.trim() == v));
                    let choose = move |v: &'static str| move |_| draft.update(|d| if let Some(p) = d.points.get_mut(i) { *p = v.to_owned() });
                    return view! {
                        {heading}
                        <div class="points-row mark-row" class:focused=move || focus.get() == i on:click=move |_| focus.set(i) data-testid=format!("points-{}", unit.key)>
                            <span class="mark-text">{mark_text(lang, &unit.key, &unit.name)}</span>
                            <span class="choices">
                                <label class="choice" class:chosen=chosen("1")>
                                    <input type="radio" name=format!("mark-{}", unit.key) value="1" prop:checked=chosen("1") on:change=choose("1") />
                                    " 1 " {lang.t("是", "yes")}
                                </label>
                                <label class="choice" class:chosen=chosen("0")>
                                    <input type="radio" name=format!("mark-{}", unit.key) value="0" prop:checked=chosen("0") on:change=choose("0") />
                                    " 0 " {lang.t("否", "no")}
                                </label>
                            </span>
                        </div>
                    }.into_any();
                }
                view! {
                    <div class="points-row" data-testid=format!("points-{}", unit.key)>
                        <label class="field">
                            <span>{unit_name(lang, &unit.key)} " " <span class="muted">{format!("/ {max}")}</span></span>
                            <input type="number" min="0" max=max step=unit.step inputmode="decimal"
                                   prop:value=move || draft.with(|d| d.points.get(i).cloned().unwrap_or_default())
                                   on:input=move |ev| { let v = event_target_value(&ev); draft.update(|d| if let Some(p) = d.points.get_mut(i) { *p = v }) } />
                        </label>
                    </div>
                }.into_any()
            }).collect_view()
        }
    };
    let check_form = move || {
        let lang = lang.get();
        CHECKS.into_iter().enumerate().map(|(i, kind)| view! {
            <div class="check-row" data-testid=format!("check-{i}")>
                <label class="choice" class:failed=move || draft.with(|d| !d.checks[i].0)>
                    <input type="checkbox" prop:checked=move || draft.with(|d| d.checks[i].0)
                           on:change=move |ev| { let on = event_target_checked(&ev); draft.update(|d| d.checks[i].0 = on) } />
                    <kbd>{i + 1}</kbd> " " {check_label(lang, kind)} " — "
                    {move || if draft.with(|d| d.checks[i].0) { lang.t("通过", "pass") } else { lang.t("不通过", "fail") }}
                </label>
                <input type="text" class="check-comment" placeholder=lang.t("意见（不通过时必填）", "Comment (required for a fail)")
                       prop:value=move || draft.with(|d| d.checks[i].1.clone())
                       on:input=move |ev| { let v = event_target_value(&ev); draft.update(|d| d.checks[i].1 = v) } />
            </div>
        }).collect_view()
    };

    let progress = item.progress.clone();
    let kind = item.kind;
    // A client-style item links to no case: the case page lists its
    // sessions by style, the answer the expert is asked for.
    let case_href = match item.kind {
        ReviewKind::ClientStyle => None,
        ReviewKind::RubricVerdict if is_fidelity(&item) => Some(crate::url::case(&item.case_id)),
        ReviewKind::RubricVerdict if is_dlaw(&item) => {
            Some(crate::pages::dlawbench::case_url(&item.case_id))
        }
        ReviewKind::RubricVerdict => Some(crate::pages::plawbench::item_url(&item.case_id)),
        _ => Some(crate::url::case(&item.case_id)),
    };
    let progress_line = move || {
        let lang = lang.get();
        let p = &progress;
        let of_kind = p.per_kind.iter().find(|(k, _, _)| *k == kind);
        let pct = if p.total == 0 {
            0.0
        } else {
            100.0 * p.done as f64 / p.total as f64
        };
        (p.total > 0).then(|| view! {
            <div class="item-progress" data-testid="item-progress">
                <span data-testid="item-position">{match p.position {
                    Some((at, _)) => format!("{at} / {}", p.total),
                    None => format!("— / {}", p.total),
                }}</span>
                <span class="muted" data-testid="item-remaining">{format!("{} {}", p.remaining(), lang.t("条待标注", "left to label"))}</span>
                {of_kind.map(|&(k, done, total)| view! {
                    <span class="muted" data-testid="item-kind-progress">{format!("{} {done} / {total}", kind_label(lang, k))}</span>
                })}
                <div class="progress"><div class="progress-bar" style=format!("width: {pct:.1}%")></div></div>
            </div>
        })
    };

    view! {
        <Title text=title.clone() />
        <div class="review-layout" data-kind=kind.as_str()>
            <div class="review-main">
                <header class="item-head">
                    <a href=move || lang.get().link("/review")>{move || lang.get().t("← 我的条目", "← My items")}</a>
                    <h1 data-testid="item-title">{title.clone()}</h1>
                    <span class=format!("badge status-{}", status.as_str()) data-testid="item-status">{move || status_label(lang.get(), status)}</span>
                    {case_href.map(|href| view! { <a href=href>{move || lang.get().t("查看案例", "Open the case")}</a> })}
                </header>
                {move || proposal.filter(|_| draft.with(|d| d.label == "correct")).map(|edited| view! {
                    <section class="panel" data-testid="seed-editor">
                        <h2>{lang.get().t("修改对话", "Edit the turns")}</h2>
                        <p class="legend">{lang.get().t("直接修改对话，提交后作为修改建议交由裁决。", "Edit the turns; your version goes to adjudication with your label.")}</p>
                        <TurnEditor edited />
                    </section>
                })}
                <ItemContent item=item.clone() />
                {revealed.map(|r| view! {
                    <section class="panel" data-testid="revealed">
                        <h2>{move || lang.get().t("提交后可见", "Visible after you submitted")}</h2>
                        <ul>
                            {r.others.into_iter().map(|(who, label, comment)| {
                                let label = readings.get(&label);
                                view! {
                                    <li>{who} ": " <strong>{move || label_summary(lang.get(), &label)}</strong> {(!comment.is_empty()).then(|| view! { " — " {comment} })}</li>
                                }
                            }).collect_view()}
                            {r.judge_label.map(|l| {
                                let l = readings.get(&l);
                                view! { <li>{move || if kind == ReviewKind::ClientStyle { lang.get().t("模拟设定的风格", "Simulated style") } else { lang.get().t("评审模型", "Judge") }} ": " <strong data-testid="judge-label">{move || label_summary(lang.get(), &l)}</strong></li> }
                            })}
                            {r.final_label.map(|l| {
                                let l = readings.get(&l);
                                view! { <li>{move || lang.get().t("最终标签", "Final label")} ": " <strong>{move || label_summary(lang.get(), &l)}</strong> " " {r.final_reason.clone().unwrap_or_default()}</li> }
                            })}
                        </ul>
                    </section>
                })}
                <section class="panel review-guide">
                    <h2>{move || lang.get().t("标注指南", "Guidelines")}</h2>
                    <ul class="guidelines">{
                        let item = item.clone();
                        move || guidelines(lang.get(), &item).into_iter().map(|g| view! { <li>{g}</li> }).collect_view()
                    }</ul>
                    <h2>{move || lang.get().t("快捷键", "Shortcuts")}</h2>
                    <ul class="shortcuts">
                        <li><kbd>"1"</kbd>"–"<kbd>"9"</kbd> " " {move || lang.get().t("选择标签 / 切换核查项", "pick a label / toggle a check")}</li>
                        <li><kbd>"↑"</kbd><kbd>"↓"</kbd> " " {move || lang.get().t("切换诉请", "move between claims")}</li>
                        <li><kbd>"Ctrl"</kbd>"+"<kbd>"Enter"</kbd> " " {move || lang.get().t("提交", "submit")}</li>
                        <li><kbd>"n"</kbd>" / "<kbd>"p"</kbd> " " {move || lang.get().t("下一条待标注 / 上一条", "next unlabelled / previous item")}</li>
                        <li><kbd>"f"</kbd> " " {move || lang.get().t("标记为不清楚（附说明，不标注）", "flag as unclear (with a comment, no label)")}</li>
                    </ul>
                </section>
            </div>
            <aside class="review-panel" class:open=move || sheet_open.get() data-testid="label-panel">
                <button type="button" class="sheet-toggle" data-testid="sheet-toggle" aria-controls="label-sheet"
                        aria-expanded=move || sheet_open.get().to_string() on:click=move |_| sheet_open.update(|o| *o = !*o)>
                    <span class="sheet-title">{move || lang.get().t("你的标注", "Your label")}</span>
                    <span class="sheet-summary" data-testid="sheet-summary">
                        {move || draft.with(|d| draft_summary(lang.get(), form, d))}
                    </span>
                    <span class="sheet-chevron" aria-hidden="true">{move || if sheet_open.get() { "▾" } else { "▴" }}</span>
                </button>
                <section class="label-form" id="label-sheet" data-testid="label-form">
                    <div class="panel-head">
                        <h2>{move || lang.get().t("你的标注", "Your label")}</h2>
                        <div class="case-nav">{nav(item.previous, "← p")}{nav(item.next_todo.or(item.next), "n →")}</div>
                    </div>
                    {progress_line}
                    <div class="label-controls" data-testid="label-controls">
                        {match form {
                            Form::Choice => choice_form.into_any(),
                            Form::Verdicts => verdict_form.into_any(),
                            Form::Checks => check_form.into_any(),
                            Form::Points => points_form.into_any(),
                        }}
                    </div>
                    {move || error.get().map(|e| view! { <div class="error-box" role="alert">{e}</div> })}
                    {frozen.then(|| view! { <p class="muted" data-testid="frozen">{move || lang.get().t("本条目已定稿，标注不再更改。", "This item is final; its labels no longer change.")}</p> })}
                    <div class="filter-actions">
                        <button type="button" class="primary" data-testid="submit-label" on:click=move |_| do_submit()
                                disabled=move || frozen || submit.pending().get()>
                            {move || if submitted { lang.get().t("修改提交", "Revise") } else { lang.get().t("提交", "Submit") }}
                            <span class="shortcut-hint">" (Ctrl+Enter)"</span>
                        </button>
                        <span class="muted" data-testid="draft-status">{move || saved_note.get()}</span>
                    </div>
                    <label class="field comment-field">
                        {move || lang.get().t("备注", "Comment")}
                        <textarea rows="2" data-testid="comment" prop:value=move || draft.with(|d| d.comment.clone())
                                  on:input=move |ev| { let v = event_target_value(&ev); draft.update(|d| d.comment = v) }></textarea>
                    </label>
                    {move || unclear.get().map(|u| view! {
                        <p class="unclear-note" data-testid="unclear-note">
                            <span class="badge missing">{lang.get().t("已标记为不清楚", "Flagged as unclear")}</span> " " {u}
                        </p>
                    })}
                    {move || (!submitted && unclear_open.get()).then(|| view! {
                        <form class="unclear-form" data-testid="unclear-form" on:submit=move |ev| {
                            ev.prevent_default();
                            flag.dispatch(unclear_text.get_untracked());
                        }>
                            <label class="field">
                                {lang.get().t("哪里不清楚？（回车保存，留空取消标记，Esc 关闭）", "What is unclear? (Enter saves, empty clears the flag, Esc closes)")}
                                <input type="text" id="unclear-comment" data-testid="unclear-comment"
                                       prop:value=move || unclear_text.get()
                                       on:input=move |ev| unclear_text.set(event_target_value(&ev))
                                       on:keydown=move |ev| if ev.key() == "Escape" { unclear_open.set(false) } />
                            </label>
                        </form>
                    })}
                    {(!submitted).then(|| view! {
                        <button type="button" class="link-button" data-testid="flag-unclear" on:click=move |_| unclear_open.update(|o| *o = !*o)>
                            {move || lang.get().t("标记为不清楚 (f)", "Flag as unclear (f)")}
                        </button>
                    })}
                </section>
            </aside>
        </div>
    }
}

/// A DLawBench session as the expert marks it: the case's opening and fact
/// pairs (client belief beside court record), the dialogue with turn
/// numbers, and the memo; the rubric items are the form's marks.
fn dlaw_content(input: &serde_json::Value, lang: Memo<Lang>) -> impl IntoView {
    use super::review::client_style::{input_language, text};
    let language = input_language(input);
    let style = text(input, "style");
    let jurisdiction = text(input, "jurisdiction");
    let domain = text(input, "domain");
    let opening = text(input, "opening");
    let memo = text(input, "memo");
    let facts: Vec<(String, bool, String, String)> = input
        .get("facts")
        .and_then(|f| f.as_array())
        .map(|a| {
            a.iter()
                .map(|f| {
                    (
                        text(f, "id"),
                        text(f, "type") == "disputed",
                        text(f, "client_belief"),
                        text(f, "court_record"),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let dialogue = super::review::client_style::numbered_turns(input, "dialogue");
    let jurisdiction_label = move |lang: Lang| {
        engine::dlawbench::dataset::Jurisdiction::parse(&jurisdiction).map_or_else(
            || jurisdiction.clone(),
            |j| lang.t(j.label_zh(), j.label_en()).to_owned(),
        )
    };
    let style_label = engine::dlawbench::dataset::Style::parse(&style)
        .map(|s| {
            lang.get_untracked()
                .t(s.label_zh(), s.label_en())
                .to_owned()
        })
        .unwrap_or(style);
    view! {
        <section class="panel decision" data-testid="decision-object">
            <p class="muted" data-testid="dlaw-item">{move || format!("DLawBench · {} · {} · ", jurisdiction_label(lang.get()), domain.replace('_', " "))} <span class="badge">{style_label.clone()}</span></p>
            <div class="dlaw-judged" data-testid="judge-input">
            <div>
            <h2>{move || lang.get().t("对话", "Dialogue")}</h2>
            <ol class="dlaw-dialogue context-scroll" tabindex="0" lang=language>
                {dialogue.into_iter().map(|(turn, lawyer, content)| view! {
                    <li class="turn" class:role-lawyer=lawyer class:role-client=!lawyer>
                        <div class="turn-head">
                            <span class="turn-no">{move || match lang.get() { Lang::Zh => format!("第{turn}轮"), Lang::En => format!("Turn {turn}") }}</span>
                            <span>{move || if lawyer { lang.get().t("律师", "Lawyer") } else { lang.get().t("当事人", "Client") }}</span>
                        </div>
                        <p class="turn-text">{content}</p>
                    </li>
                }).collect_view()}
            </ol>
            </div>
            <div>
            <h2>{move || lang.get().t("法律备忘录", "Memo")}</h2>
            <div class="memo context-scroll" tabindex="0" lang=language>{memo}</div>
            </div>
            </div>
        </section>
        <section class="panel">
            <h2>{move || lang.get().t("当事人开场陈述", "The client's opening")}</h2>
            <div class="reply" lang=language>{opening}</div>
        </section>
        <section class="panel">
            <h2>{move || lang.get().t("事实对：当事人认识与法院查明", "Fact pairs: client belief and court record")}</h2>
            <div class="fact-pairs" lang=language>
                <div class="fact-head" aria-hidden="true">
                    <span>{move || lang.get().t("当事人认识", "Client belief")}</span>
                    <span>{move || lang.get().t("法院查明", "Court record")}</span>
                </div>
                {facts.into_iter().map(|(id, disputed, belief, record)| view! {
                    <article class="fact-pair" class:disputed=disputed>
                        <header><strong>{id}</strong> " " {disputed.then(|| view! { <span class="badge disputed">{move || lang.get().t("有争议", "Disputed")}</span> })}</header>
                        <div class="fact-sides">
                            <div class="belief"><span class="side-label">{move || lang.get().t("当事人认识", "Client belief")}</span><p>{belief}</p></div>
                            <div class="record"><span class="side-label">{move || lang.get().t("法院查明", "Court record")}</span><p>{record}</p></div>
                        </div>
                    </article>
                }).collect_view()}
            </div>
        </section>
    }
}

/// A simulator reply of the fidelity study as the expert labels it: the
/// question (as the advisor asked it) and the reply first, then what the
/// experts agreed a reply needs and may say, the key facts the simulator was
/// given, and the consultation before the question.
fn fidelity_content(input: &serde_json::Value, lang: Memo<Lang>) -> impl IntoView {
    use engine::lexpilot::fidelity::Condition;
    let text = |key: &str| {
        input
            .get(key)
            .and_then(|x| x.as_str())
            .unwrap_or("")
            .to_owned()
    };
    let list = |key: &str| -> Vec<String> {
        input
            .get(key)
            .and_then(|x| x.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let condition = Condition::parse(&text("condition"));
    let history: Vec<(bool, String)> = input
        .get("history")
        .and_then(|h| h.as_array())
        .map(|a| {
            a.iter()
                .map(|t| {
                    (
                        t.get("role").and_then(|r| r.as_str()) == Some("user"),
                        t.get("content")
                            .and_then(|c| c.as_str())
                            .unwrap_or("")
                            .to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let (question, reply, target) = (text("question"), text("reply"), text("target_fact"));
    let (minimum, permitted) = (text("minimum_answer"), text("permitted"));
    let key_facts = list("key_facts");
    let withheld = condition == Some(Condition::Withheld);
    view! {
        <section class="panel decision" data-testid="decision-object">
            <p class="muted">
                {move || lang.get().t("用户模拟器保真度（附录 E.3.2）", "User-simulator fidelity (Appendix E.3.2)")} " · "
                <span class="badge" data-testid="fidelity-condition">{move || condition.map(|c| lang.get().t(c.label_zh(), c.label_en())).unwrap_or_default()}</span>
            </p>
            <h2>{move || lang.get().t("顾问的提问", "The advisor's question")}</h2>
            <div class="reply" lang="zh">{question}</div>
            <h2>{move || lang.get().t("模拟用户的回复", "The simulator's reply")}</h2>
            <div class="reply" lang="zh" data-testid="judge-input">{reply}</div>
        </section>
        <section class="panel">
            <h2>{move || lang.get().t("约定的标准", "What the experts agreed")}</h2>
            <dl class="facts">
                <dt>{move || lang.get().t("目标事实", "Target fact")}</dt>
                <dd lang="zh">{target} {withheld.then(|| view! { " " <span class="badge missing">{move || lang.get().t("本条件下已从输入中删除", "withheld from the input here")}</span> })}</dd>
                <dt>{move || lang.get().t("最低充分答案", "Minimum sufficient answer")}</dt>
                <dd lang="zh">{minimum}</dd>
                <dt>{move || lang.get().t("允许披露", "Permitted disclosures")}</dt>
                <dd lang="zh">{if permitted.trim().is_empty() { "—".to_owned() } else { permitted }}</dd>
            </dl>
            <h3>{move || lang.get().t("模拟用户获得的关键事实", "Key facts the simulator was given")}</h3>
            <ul lang="zh">{key_facts.into_iter().map(|k| view! { <li>{k}</li> }).collect_view()}</ul>
        </section>
        <section class="panel">
            <details>
                <summary>{move || lang.get().t("提问之前的咨询（不完整版本）", "The consultation before the question (underspecified)")}</summary>
                <ol class="dlaw-dialogue" lang="zh">
                    {history.into_iter().map(|(user, content)| view! {
                        <li class="turn" class:role-client=user class:role-lawyer=!user>
                            <div class="turn-head"><span>{move || if user { lang.get().t("用户", "User") } else { lang.get().t("AI法律顾问", "Advisor") }}</span></div>
                            <p class="turn-text">{content}</p>
                        </li>
                    }).collect_view()}
                </ol>
            </details>
        </section>
    }
}

/// What the expert judges: the case (checks, seeds) or the judge's input.
#[component]
fn ItemContent(item: ReviewItemView) -> impl IntoView {
    let lang = use_lang();
    let input = item.input.clone();
    let text = |key: &str| input.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    match (item.kind, item.case.clone()) {
        (ReviewKind::RubricVerdict, _) if is_fidelity(&item) => {
            fidelity_content(&input, lang).into_any()
        }
        (ReviewKind::RubricVerdict, _) if is_dlaw(&item) => dlaw_content(&input, lang).into_any(),
        (ReviewKind::ClientStyle, _) => client_style::content(&input, lang).into_any(),
        (ReviewKind::RubricVerdict, _) => {
            let question = text("question").unwrap_or_default();
            let context = text("context").filter(|c| !c.trim().is_empty());
            let response = text("response").unwrap_or_default();
            let truncated = text("finish_reason").as_deref() == Some("length");
            let task = text("task").unwrap_or_default();
            let category = text("category");
            let max_points = input
                .get("max_points")
                .and_then(|m| m.as_f64())
                .unwrap_or(0.0);
            let rubric: Vec<(String, String, f64)> = input
                .get("rubric")
                .and_then(|r| r.as_array())
                .map(|a| {
                    a.iter()
                        .map(|r| {
                            (
                                r.get("section")
                                    .and_then(|v| v.as_str())
                                    .unwrap_or("")
                                    .to_owned(),
                                r.get("criterion")
                                    .and_then(|v| v.as_str())
                                    .unwrap_or("")
                                    .to_owned(),
                                r.get("points").and_then(|v| v.as_f64()).unwrap_or(0.0),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            view! {
                <section class="panel decision" data-testid="decision-object">
                    <p class="muted" data-testid="rubric-item">
                        {move || crate::pages::review_admin::plaw_task_label(lang.get(), &task)}
                        {category.map(|c| format!(" · {c}"))}
                        {move || format!(" · {} {max_points}", lang.get().t("满分", "max points"))}
                    </p>
                    <h2>
                        {move || lang.get().t("模型回答（评审模型的输入）", "Model answer (the judge's input)")}
                        {truncated.then(|| view! { " " <span class="badge missing" data-testid="truncated">{move || lang.get().t("已截断（达到长度上限）", "truncated at the length limit")}</span> })}
                    </h2>
                    <div class="reply context-scroll" tabindex="0" data-testid="judge-input">{response}</div>
                </section>
                <section class="panel" data-testid="rubric">
                    <h2>{move || lang.get().t("评分细则", "Rubric")}</h2>
                    <ol class="rubric">
                        {rubric.into_iter().map(|(section, criterion, points)| view! {
                            <li>
                                <strong>{move || unit_name(lang.get(), &section)}</strong>
                                " " <span class="muted">{format!("({points})")}</span>
                                <div class="reply">{criterion}</div>
                            </li>
                        }).collect_view()}
                    </ol>
                </section>
                <section class="panel">
                    {context.map(|c| view! {
                        <h2>{move || lang.get().t("案情", "Context")}</h2>
                        <div class="reply">{c}</div>
                    })}
                    <h2>{move || lang.get().t("问题", "Question")}</h2>
                    <div class="reply">{question}</div>
                </section>
            }
            .into_any()
        }
        (ReviewKind::JudgeVerdict, case) => {
            let response = text("response");
            let requests: Vec<String> = input
                .get("requests")
                .and_then(|r| r.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            let missing: Vec<String> = input
                .get("key_facts")
                .and_then(|k| k.as_array())
                .map(|a| {
                    a.iter()
                        .filter(|k| {
                            k.get("id").and_then(|i| i.as_str()).is_some_and(|id| {
                                input
                                    .get("missing_facts")
                                    .and_then(|m| m.as_array())
                                    .is_some_and(|m| m.iter().any(|x| x.as_str() == Some(id)))
                            })
                        })
                        .filter_map(|k| k.get("text").and_then(|t| t.as_str()).map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            let task = item.task;
            let judge_task = move |lang: Lang| match task {
                Some(Task::Lca) => lang.t(
                    "评审任务：这条回复采用了哪种策略？",
                    "The judge's task: which strategy does this reply take?",
                ),
                Some(Task::Dcg) => lang.t(
                    "评审任务：这些追问是否指向缺失的关键事实？",
                    "The judge's task: do these requests target a missing key fact?",
                ),
                Some(Task::Ljp) => lang.t(
                    "评审任务：回复对每项诉讼请求作出了什么预测？",
                    "The judge's task: what does the reply predict for each claim?",
                ),
                None => "",
            };
            view! {
                <section class="panel decision" data-testid="decision-object">
                    <p class="judge-task">{move || judge_task(lang.get())}</p>
                    <h2>{move || lang.get().t("模型回复（评审模型的输入）", "Model reply (the judge's input)")}</h2>
                    <div data-testid="judge-input">
                        {response.map(|r| view! { <div class="reply context-scroll" tabindex="0">{r}</div> })}
                        {(!requests.is_empty()).then(|| view! {
                            <h3>{move || lang.get().t("追问", "Requests")}</h3>
                            <ol>{requests.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}</ol>
                        })}
                        {(!missing.is_empty()).then(|| view! {
                            <h3>{move || lang.get().t("缺失的关键事实", "Missing key facts")}</h3>
                            <ul>{missing.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
                        })}
                    </div>
                </section>
                {case.map(|case| view! {
                    <section class="panel">
                        <h2>{move || lang.get().t("咨询对话（背景）", "Consultations (context)")}</h2>
                        <div class="context-scroll tall" tabindex="0"><DialogueComparison case lang /></div>
                    </section>
                })}
            }
            .into_any()
        }
        (_, Some(case)) => {
            let flags = item.flags.clone();
            view! {
                <section class="panel decision" data-testid="decision-object">
                    <h2>{move || lang.get().t("咨询对话", "Consultations")}</h2>
                    <div class="context-scroll tall" tabindex="0"><DialogueComparison case lang /></div>
                </section>
                {(!flags.is_empty()).then(|| view! {
                    <section class="panel" data-testid="flags">
                        <h2>{move || lang.get().t("预标注（仅供参考）", "Pre-flags (to help, never to decide)")}</h2>
                        <ul>{flags.into_iter().map(|f| view! {
                            <li>
                                <span class="badge missing">{move || lang.get().t(f.kind.label_zh(), f.kind.label_en())}</span>
                                " " {move || format!("{} · {} {}: ", lang.get().t(f.consultation.label_zh(), f.consultation.label_en()), lang.get().t("第", "turn"), f.turn + 1)}
                                <code>{f.text.clone()}</code>
                            </li>
                        }).collect_view()}</ul>
                    </section>
                })}
            }
            .into_any()
        }
        _ => ().into_any(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_read_as_words_in_either_language() {
        let mut check = CaseCheck::all_pass();
        check.anonymization.outcome = CheckOutcome::Fail;
        check.anonymization.comment = "第二轮有手机号".into();
        let json = serde_json::to_string(&check).expect("json");
        let read = LabelReading::of;
        assert_eq!(
            label_summary(Lang::Zh, &read(ReviewKind::CaseCheck, None, &json)),
            "✓ 关键细节 · ✓ 确有缺失 · ✓ 完整陈述 · ✗ 匿名化（第二轮有手机号）"
        );
        let ljp = |label| read(ReviewKind::JudgeVerdict, Some(Task::Ljp), label);
        assert_eq!(
            label_summary(Lang::En, &ljp(r#"["supported","dismissed"]"#)),
            "1. Supported; 2. Dismissed"
        );
        assert_eq!(
            label_summary(Lang::Zh, &ljp(r#"["partially_supported"]"#)),
            "1. 部分支持"
        );
        let lca = read(ReviewKind::JudgeVerdict, Some(Task::Lca), "ask");
        assert_eq!(label_summary(Lang::Zh, &lca), "策略二：追问细节");
        assert_eq!(
            label_summary(Lang::En, &lca),
            "Strategy 2: asks for details"
        );
    }
}
