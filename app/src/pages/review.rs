//! The expert's queue ("my items"): to do, done and in adjudication, with
//! progress; and for admins the links to manage, adjudicate and the
//! agreement dashboard. Chinese by default, English with `?lang=en`.

use engine::lexpilot::run::Task;
use engine::review::{ItemStatus, ReviewKind};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::i18n::{use_lang, Lang, LangSwitch};
use crate::components::labels::{ErrorBox, Loading};
use crate::components::live::use_live;
use crate::server_fns::review::{my_queue, QueueItem};

/// The label of a review kind.
pub fn kind_label(lang: Lang, kind: ReviewKind) -> &'static str {
    match kind {
        ReviewKind::SeedDialogue => lang.t("种子对话", "Seed dialogue"),
        ReviewKind::CaseCheck => lang.t("案例核查", "Case check"),
        ReviewKind::JudgeVerdict => lang.t("裁判评估复核", "Judge verdict"),
        ReviewKind::RubricVerdict => lang.t(
            "评分复核（PLawBench 分项 / DLawBench 评审团）",
            "Rubric verdict (PLawBench points / DLawBench panel)",
        ),
    }
}

/// The label of an item status.
pub fn status_label(lang: Lang, status: ItemStatus) -> &'static str {
    match status {
        ItemStatus::Todo => lang.t("待标注", "To do"),
        ItemStatus::Submitted => lang.t("已提交", "Submitted"),
        ItemStatus::Adjudication => lang.t("待裁决", "In adjudication"),
        ItemStatus::Final => lang.t("已定稿", "Final"),
    }
}

/// What an item is about, in one line.
pub fn item_title(
    lang: Lang,
    kind: ReviewKind,
    case_id: &str,
    task: Option<Task>,
    target: Option<&str>,
) -> String {
    use engine::lexpilot::fidelity::Condition;
    // A fidelity reply (a sheet item whose target is a probe condition).
    if let (ReviewKind::RubricVerdict, Some(c)) = (kind, target.and_then(Condition::parse)) {
        let condition = lang.t(c.label_zh(), c.label_en());
        return format!(
            "{} · {case_id} · {condition}",
            lang.t("模拟用户回复", "Simulator reply")
        );
    }
    let mut parts = vec![kind_label(lang, kind).to_owned(), case_id.to_owned()];
    parts.extend(task.map(|t| t.as_str().to_uppercase()));
    parts.extend(target.map(str::to_owned));
    parts.join(" · ")
}

#[component]
fn ItemList(items: Vec<QueueItem>, lang: Lang, testid: &'static str) -> impl IntoView {
    if items.is_empty() {
        return view! { <p class="empty">{lang.t("没有条目。", "Nothing here.")}</p> }.into_any();
    }
    view! {
        <ul class="queue" data-testid=testid>
            {items.into_iter().map(|i| {
                let href = lang.link(&format!("/review/items/{}", i.id));
                view! {
                    <li>
                        <a href=href>{item_title(lang, i.kind, &i.case_id, i.task, i.target.as_deref())}</a>
                        " " <span class=format!("badge status-{}", i.status.as_str())>{status_label(lang, i.status)}</span>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
    .into_any()
}

#[component]
pub fn ReviewQueuePage() -> impl IntoView {
    let lang = use_lang();
    let live = use_live(&["review"]);
    let data = Resource::new(move || live.changes.get(), |_| my_queue());
    view! {
        <Title text="Review 专家审核" />
        <section class="panel">
            <h1>{move || lang.get().t("我的审核条目", "My review items")} " " <LangSwitch path="/review".into() /></h1>
            <Transition fallback=Loading>
                {move || Suspend::new(async move {
                    let lang = lang.get();
                    match data.await {
                        Ok(q) => {
                            let pct = if q.total == 0 { 0.0 } else { 100.0 * q.done_count as f64 / q.total as f64 };
                            let adjudication = q.may_adjudicate.then(|| view! {
                                " · " <a href=lang.link("/review/adjudication") data-testid="adjudication-link">{lang.t("裁决", "Adjudication")}</a>
                            });
                            let manage = q.may_manage.then(|| view! {
                                " · " <a href=lang.link("/review/manage")>{lang.t("创建与分配", "Create and assign")}</a>
                            });
                            view! {
                                <p class="review-links">
                                    <a href=lang.link("/review/agreement")>{lang.t("一致性看板", "Agreement dashboard")}</a>
                                    " · " <a href=lang.link("/review/fidelity") data-testid="probes-link">{lang.t("模拟器保真度探针", "Simulator fidelity probes")}</a>
                                    {adjudication}
                                    {manage}
                                </p>
                                <p data-testid="progress">
                                    {lang.t("进度", "Progress")} ": " <strong>{q.done_count}</strong> " / " {q.total}
                                </p>
                                <div class="progress"><div class="progress-bar" style=format!("width: {pct:.1}%")></div></div>
                                <h2>{lang.t("待标注", "To do")} " (" {q.todo.len()} ")"</h2>
                                <ItemList items=q.todo lang testid="queue-todo" />
                                <h2>{lang.t("待裁决", "In adjudication")} " (" {q.in_adjudication.len()} ")"</h2>
                                <ItemList items=q.in_adjudication lang testid="queue-adjudication" />
                                <h2>{lang.t("已完成", "Done")} " (" {q.done.len()} ")"</h2>
                                <ItemList items=q.done lang testid="queue-done" />
                            }.into_any()
                        }
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}
