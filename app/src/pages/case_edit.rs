//! Correcting a case (admins, who adjudicate): edit any turn, add or remove
//! a pair of turns (the two consultations keep equal turn counts), the gold
//! verdicts and the missing facts, give a reason and save. The save names the
//! revision the editor started from; if someone saved in between, the page
//! says so and shows their version instead of overwriting it.

use engine::lexpilot::dataset::Case;
use engine::vocab::Verdict;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::components::i18n::Lang;
use crate::components::labels::{error_message, ErrorBox, Loading};
use crate::components::turn_editor::TurnEditor;
use crate::server_fns::cases::get_case;
use crate::server_fns::corrections::{get_case_history, save_case_correction, CorrectionResult};

#[component]
pub fn CaseEditPage() -> impl IntoView {
    let params = use_params_map();
    let case_id = move || params.read().get("case_id").unwrap_or_default();
    let data = Resource::new(case_id, |id| async move {
        let detail = get_case(id.clone()).await?;
        let history = get_case_history(id).await?;
        Ok::<_, ServerFnError>((detail.case, history.current_revision))
    });
    view! {
        <Suspense fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok((case, revision)) => view! { <Editor case revision /> }.into_any(),
                    Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Editor(case: Case, revision: i64) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let id = case.case_id.clone();
    let edited = RwSignal::new(case);
    let base = RwSignal::new(revision);
    let reason = RwSignal::new(String::new());
    let notice: RwSignal<Option<(bool, String)>> = RwSignal::new(None);
    let save = Action::new(move |(json, base, reason): &(String, i64, String)| {
        save_case_correction(json.clone(), *base, reason.clone())
    });
    Effect::new(move |_| {
        let Some(result) = save.value().get() else {
            return;
        };
        match result {
            Ok(CorrectionResult::Saved {
                revision,
                dataset_version,
                runs_carried,
                runs_dropped,
            }) => {
                base.set(revision);
                reason.set(String::new());
                let dropped = match (lang, runs_dropped.is_empty()) {
                    (_, true) => String::new(),
                    (Lang::Zh, false) => format!(
                        "；不再有效、保留在旧版本上的运行：{}",
                        runs_dropped.join("、")
                    ),
                    (Lang::En, false) => format!(
                        "; runs no longer valid, left on the old version: {}",
                        runs_dropped.join(", ")
                    ),
                };
                let carried = lang.count(runs_carried as u64, "次运行", "run", "runs");
                notice.set(Some((true, match lang {
                    Lang::Zh => format!(
                        "已保存为修订 {revision}：数据集版本 {dataset_version}，{carried}已重新评分{dropped}。"
                    ),
                    Lang::En => format!(
                        "Saved as revision {revision}: dataset version {dataset_version}, {carried} re-scored{dropped}."
                    ),
                })));
            }
            Ok(CorrectionResult::Stale {
                revision,
                author,
                reason: why,
                case,
            }) => {
                base.set(revision);
                edited.set(*case);
                notice.set(Some((false, match lang {
                    Lang::Zh => format!(
                        "未保存：在你打开此案例后，{} 已保存修订 {revision}（理由：{why}）。现在显示的是其版本；请在此基础上重新修改。",
                        author.unwrap_or_else(|| "他人".into())
                    ),
                    Lang::En => format!(
                        "Not saved: {} saved revision {revision} after you opened this case (reason: {why}). Their version is shown now; make your change again on it.",
                        author.unwrap_or_else(|| "someone".into())
                    ),
                })));
            }
            Err(e) => notice.set(Some((false, error_message(&e)))),
        }
    });
    let on_save = move |_| {
        let json = edited.with(|c| serde_json::to_string(c).unwrap_or_default());
        save.dispatch((json, base.get(), reason.get()));
    };
    let claims = move || {
        edited.with(|c| c.claims.clone()).into_iter().enumerate().map(|(i, claim)| {
            view! {
                <label class="field">
                    {format!("{} {}", claim.id, claim.text)}
                    <select data-testid=format!("verdict-{}", claim.id) on:change=move |ev| {
                        if let Some(v) = Verdict::parse(&event_target_value(&ev)) {
                            edited.update(|c| c.claims[i].verdict = v);
                        }
                    }>
                        {Verdict::ALL.into_iter().map(|v| view! {
                            <option value=v.as_str() selected=v == claim.verdict>{v.label(lang)}</option>
                        }).collect_view()}
                    </select>
                </label>
            }
        }).collect_view()
    };
    let facts = move || {
        edited
            .with(|c| c.key_facts.clone())
            .into_iter()
            .map(|k| {
                let id = k.id.clone();
                let checked = edited.with(|c| c.missing_facts.contains(&k.id));
                view! {
                    <label class="check">
                        <input type="checkbox" checked=checked on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            let id = id.clone();
                            edited.update(|c| {
                                c.missing_facts.retain(|m| *m != id);
                                if on {
                                    c.missing_facts.push(id);
                                }
                            });
                        } />
                        " " {k.id.clone()} " " {k.text.clone()}
                    </label>
                }
            })
            .collect_view()
    };
    view! {
        <Title text=match lang {
            Lang::Zh => format!("更正 {id}"),
            Lang::En => format!("Correct {id}"),
        } />
        <section class="panel">
            <p><a href=crate::url::case(&id)>{lang.t("← 返回案例", "← Back to the case")}</a></p>
            <h1>{lang.t("更正案例 ", "Correct case ")} {id.clone()}</h1>
            <p class="legend">{lang.t("基于修订 ", "Editing from revision ")} <strong data-testid="base-revision">{move || base.get()}</strong>
               {lang.t("。保存将生成新的数据集版本，已存储的运行将在新版本上重新评分。", ". Saving makes a new dataset version; stored runs are re-scored on it.")}</p>
            {move || notice.get().map(|(ok, text)| view! {
                <div class=if ok { "info-box" } else { "error-box" } role="status" data-testid="save-notice">{text}</div>
            })}
        </section>
        <TurnEditor edited />
        <div class="two-col">
            <section class="panel"><h2>{lang.t("金标准判决", "Gold verdicts")}</h2><div class="stack">{claims}</div></section>
            <section class="panel"><h2>{lang.t("缺失事实", "Missing facts")}</h2><div class="stack">{facts}</div></section>
        </div>
        <section class="panel">
            <label class="field">
                {lang.t("修改理由（必填）", "Reason (required)")}
                <input type="text" data-testid="reason" prop:value=move || reason.get() on:input=move |ev| reason.set(event_target_value(&ev)) />
            </label>
            <div class="filter-actions">
                <button type="button" class="primary" data-testid="save-correction" on:click=on_save
                        disabled=move || save.pending().get()>{lang.t("保存更正", "Save correction")}</button>
            </div>
        </section>
    }
}
