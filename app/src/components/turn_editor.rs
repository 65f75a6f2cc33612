//! Editing the turns of a case's two consultations side by side: any turn's
//! text, and adding or removing a turn on both sides at once, so the two keep
//! the equal turn counts the dataset format requires.

use engine::core::dialogue::Turn;
use engine::lexpilot::dataset::Case;
use engine::vocab::{Consultation, Role as Speaker};
use leptos::prelude::*;

fn turns_mut(case: &mut Case, side: Consultation) -> &mut Vec<Turn> {
    match side {
        Consultation::Complete => &mut case.consultations.complete,
        Consultation::Underspecified => &mut case.consultations.underspecified,
    }
}

#[component]
fn Side(edited: RwSignal<Case>, side: Consultation) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    move || {
        let n = edited.with(|c| c.turns(side).len());
        (0..n)
            .map(|i| {
                let role = edited.with(|c| c.turns(side)[i].role);
                view! {
                    <label class="field turn-field">
                        {match lang {
                            crate::components::i18n::Lang::Zh => format!("{} · 第 {} 轮", role.label_zh(), i + 1),
                            crate::components::i18n::Lang::En => format!("{} · turn {}", role.as_str(), i + 1),
                        }}
                        <textarea
                            rows="4"
                            data-testid=format!("turn-{}-{i}", side.as_str())
                            prop:value=move || edited.with(|c| c.turns(side).get(i).map(|t| t.content.clone()).unwrap_or_default())
                            on:input=move |ev| {
                                let text = event_target_value(&ev);
                                edited.update(|c| {
                                    if let Some(t) = turns_mut(c, side).get_mut(i) {
                                        t.content = text;
                                    }
                                })
                            }
                        ></textarea>
                    </label>
                }
            })
            .collect_view()
    }
}

/// Both consultations of `edited`, editable, with buttons to add or remove a
/// turn on both sides.
#[component]
pub fn TurnEditor(edited: RwSignal<Case>) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let add_pair = move |_| {
        edited.update(|c| {
            let speaker = if c.consultations.complete.len() % 2 == 0 {
                Speaker::User
            } else {
                Speaker::Assistant
            };
            for side in Consultation::ALL {
                turns_mut(c, side).push(Turn {
                    role: speaker,
                    content: String::new(),
                });
            }
        })
    };
    let remove_pair = move |_| {
        edited.update(|c| {
            if c.consultations.complete.len() > 1 {
                for side in Consultation::ALL {
                    turns_mut(c, side).pop();
                }
            }
        })
    };
    view! {
        <div class="two-col">
            <section class="panel"><h2>{lang.t("完整咨询", "Complete")}</h2><Side edited side=Consultation::Complete /></section>
            <section class="panel"><h2>{lang.t("信息缺失咨询", "Underspecified")}</h2><Side edited side=Consultation::Underspecified /></section>
        </div>
        <div class="filter-actions">
            <button type="button" on:click=add_pair data-testid="add-pair">{lang.t("两侧各加一轮", "+ Add a turn to both")}</button>
            <button type="button" on:click=remove_pair>{lang.t("两侧各删最后一轮", "− Remove the last turn of both")}</button>
        </div>
    }
}
