//! Writing the probes of the user-simulator fidelity study (Table 13,
//! Appendix E.3.2), experts and admins: per sampled case (two per cause)
//! the missing fact targeted, the A (direct), B (indirect) and C (broad)
//! questions, the agreed minimum answer and permitted disclosures, and D
//! (withheld): the simulator's key facts with the target removed. Each form
//! posts on its own (with or without JavaScript) and is checked on the
//! server against its case; once the study's replies exist the probes are
//! shown read-only. Chinese by default, English with `?lang=en`.

use std::collections::HashSet;

use engine::lexpilot::fidelity::{ProbeCase, ProbeSheet};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::i18n::{use_lang, Lang, LangLinks};
use crate::components::labels::{error_message, ErrorBox, Loading};
use crate::components::textarea::content;
use crate::server_fns::fidelity::{get_probe_sheet, SaveProbe};

#[component]
pub fn FidelityProbesPage() -> impl IntoView {
    let lang = use_lang();
    let data = Resource::new(|| (), |_| get_probe_sheet());
    view! {
        <Title text=crate::components::i18n::title_text(lang, "模拟器保真度探针", "Simulator fidelity probes") />
        <section class="panel">
            <p><a href=move || lang.get().link("/review")>{move || lang.get().t("← 审核", "← Review")}</a></p>
            <h1>{move || lang.get().t("模拟用户保真度：探针", "User-simulator fidelity: probes")}</h1>
            <p class="legend">{move || lang.get().t(
                "每个抽样案例（每个案由两例）写一条探针：选定一个缺失事实，写出 A 直接提问、B 间接提问（日常用语或线索）、C 宽泛提问（只提法律概念，不具体索要事实），以及事先商定的最低充分回答与允许披露的内容（不给模拟器看）。勾选 D 时，模拟器只拿到下面列出的关键事实，并再问一次 A。回复生成后由两位专家盲评，结果见论文页的表13。",
                "Write one probe per sampled case (two per cause): pick a missing fact, write the A (direct), B (indirect: everyday language or a cue) and C (broad: the legal concept, no concrete request) questions, and the minimum sufficient answer and permitted disclosures agreed before generation (never shown to the simulator). With D ticked, the simulator gets only the key facts listed below and is asked A again. The replies are then labelled blind by two experts; Table 13 is on the paper page.",
            )} " " <a href="/paper#table-13">{move || lang.get().t("表13", "Table 13")}</a></p>
        </section>
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(page) => view! { <Sheet sheet=page.sheet lang=lang.get_untracked() /> }.into_any(),
                    Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Sheet(sheet: ProbeSheet, lang: Lang) -> impl IntoView {
    let total = sheet.cases.len();
    let written: RwSignal<HashSet<String>> = RwSignal::new(
        sheet
            .cases
            .iter()
            .filter(|c| c.written)
            .map(|c| c.case_id.clone())
            .collect(),
    );
    let fixed = sheet.fixed.then(|| view! {
        <p class="info-box" data-testid="probes-fixed">{lang.t(
            "本数据集版本的模拟器回复已生成，探针已固定，不能再修改。",
            "The simulator's replies of this dataset version exist: the probes are fixed and can no longer change.",
        )}</p>
    });
    let empty = (total == 0).then(|| view! {
        <p class="empty">{lang.t("没有含缺失事实的案例可抽样。", "No case with a missing fact to sample.")}</p>
    });
    let forms = sheet
        .cases
        .into_iter()
        .map(|case| view! { <ProbeForm case fixed=sheet.fixed lang written /> })
        .collect_view();
    view! {
        <section class="panel">
            <p data-testid="probes-progress">
                {lang.t("已写探针", "Probes written")} ": " <strong>{move || format!("{} / {total}", written.with(HashSet::len))}</strong>
            </p>
            {fixed}
            {empty}
        </section>
        {forms}
    }
}

/// One case's probe form.
#[component]
fn ProbeForm(
    case: ProbeCase,
    fixed: bool,
    lang: Lang,
    written: RwSignal<HashSet<String>>,
) -> impl IntoView {
    let save = ServerAction::<SaveProbe>::new();
    let id = case.case_id.clone();
    {
        let id = id.clone();
        Effect::new(move |_| {
            if let Some(Ok(_)) = save.value().get() {
                written.update(|w| {
                    w.insert(id.clone());
                });
            }
        });
    }
    let p = case.probe;
    let missing: Vec<(String, String)> = case
        .key_facts
        .iter()
        .filter(|(_, _, m)| *m)
        .map(|(k, t, _)| (k.clone(), t.clone()))
        .collect();
    let facts = case
        .key_facts
        .iter()
        .map(|(k, t, m)| {
            let mark = m.then(|| view! { " " <span class="badge status-adjudication">{lang.t("缺失", "missing")}</span> });
            view! { <li>{format!("{k} {t}")} {mark}</li> }
        })
        .collect_view();
    let status = {
        let id = id.clone();
        move || {
            if written.with(|w| w.contains(&id)) {
                view! { <span class="badge status-final" data-testid="probe-status">{lang.t("已写", "Written")}</span> }
            } else {
                view! { <span class="badge status-todo" data-testid="probe-status">{lang.t("待写", "To write")}</span> }
            }
        }
    };
    let d_on = p.withheld_key_facts.is_some();
    let withheld = p.withheld_key_facts.clone().unwrap_or_default().join("\n");
    let area = move |name: &'static str,
                     label: &'static str,
                     value: String,
                     testid: &'static str| {
        view! {
            <label class="field"><span>{label}</span>
                <textarea name=name rows="2" data-testid=testid disabled=fixed>{content(&value)}</textarea>
            </label>
        }
    };
    let (testid, anchor) = (format!("probe-{id}"), format!("probe-{id}"));
    view! {
        <section class="panel probe" data-testid=testid id=anchor>
            <h2>
                <a href=crate::url::case(&id)>{id.clone()}</a> " · " {case.cause.clone()} " " {status}
            </h2>
            <div class="two-col">
                <div>
                    <h3>{lang.t("关键事实", "Key facts")}</h3>
                    <ul class="facts">{facts}</ul>
                </div>
                <ActionForm action=save attr:class="stack">
                    <input type="hidden" name="case_id" value=id.clone() />
                    <label class="field"><span>{lang.t("目标缺失事实", "Missing fact targeted")}</span>
                        <select name="fact" data-testid="probe-fact" disabled=fixed>
                            {missing.into_iter().map(|(k, t)| {
                                let selected = k == p.fact;
                                view! { <option value=k.clone() selected=selected>{format!("{k} {t}")}</option> }
                            }).collect_view()}
                        </select>
                    </label>
                    {area("direct", lang.t("A 直接提问", "A: direct question"), p.direct.clone(), "probe-direct")}
                    {area("indirect", lang.t("B 间接提问", "B: indirect question"), p.indirect.clone(), "probe-indirect")}
                    {area("broad", lang.t("C 宽泛提问", "C: broad question"), p.broad.clone(), "probe-broad")}
                    {area("minimum_answer", lang.t("最低充分回答（商定）", "Minimum sufficient answer (agreed)"), p.minimum_answer.clone(), "probe-minimum")}
                    {area("permitted", lang.t("允许披露（可空）", "Permitted disclosures (may be empty)"), p.permitted.clone(), "probe-permitted")}
                    <label class="check">
                        <input type="checkbox" name="ask_withheld" value="on" checked=d_on disabled=fixed data-testid="probe-withheld-on" />
                        " " {lang.t("同时问 D（信息缺失）：模拟器只拿到以下关键事实，每行一条", "Also ask D (withheld): the simulator gets only these key facts, one per line")}
                    </label>
                    <textarea name="withheld" rows="4" data-testid="probe-withheld" disabled=fixed aria-label=lang.t("D 的关键事实，每行一条", "Key facts for D, one per line")>{content(&withheld)}</textarea>
                    <div class="filter-actions">
                        <button type="submit" class="primary" data-testid="probe-save" disabled=move || fixed || save.pending().get()>
                            {lang.t("保存探针", "Save probe")}
                        </button>
                    </div>
                    {move || save.value().get().map(|r| match r {
                        Ok(new) => view! {
                            <p class="info-box" role="status" data-testid="probe-notice">
                                {if new { lang.t("已保存。", "Saved.") } else { lang.t("已更新。", "Updated.") }}
                            </p>
                        }.into_any(),
                        Err(e) => view! { <p class="error-box" role="alert" data-testid="probe-notice">{error_message(&e)}</p> }.into_any(),
                    })}
                </ActionForm>
            </div>
        </section>
    }
}
