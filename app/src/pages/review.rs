//! The expert's queue ("my items"): to do, done and in adjudication, with
//! progress; and for admins the links to manage, adjudicate and the
//! agreement dashboard. Chinese by default, English with `?lang=en`.

pub mod client_style;

use engine::lexpilot::run::Task;
use engine::review::{ItemStatus, ReviewKind};
use engine::vocab::Class;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::components::i18n::{use_lang, Lang, LangLinks};
use crate::components::labels::{ErrorBox, Loading};
use crate::components::live::use_live;
use crate::server_fns::review::{my_queue, QueueItem};

/// The label of a review kind.
pub fn kind_label(lang: Lang, kind: ReviewKind) -> &'static str {
    match kind {
        ReviewKind::SeedDialogue => lang.t("种子对话", "Seed dialogue"),
        ReviewKind::CaseCheck => lang.t("案例核查", "Case check"),
        ReviewKind::JudgeVerdict => lang.t("裁判评估复核", "Judge verdict"),
        ReviewKind::RubricVerdict => lang.t("评分复核", "Rubric verdict"),
        ReviewKind::ClientStyle => lang.t("模拟当事人风格", "Simulated client style"),
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
    let mut parts = vec![kind_label(lang, kind).to_owned()];
    // A rubric verdict names its benchmark (its target is the benchmark's).
    if kind == ReviewKind::RubricVerdict {
        let target = target.unwrap_or("");
        if engine::plawbench::dataset::Task::parse(target).is_some() {
            parts.push("PLawBench".into());
        } else if engine::dlawbench::dataset::Style::parse(target).is_some() {
            parts.push("DLawBench".into());
        }
    }
    parts.push(case_ref(lang, case_id));
    parts.extend(task.map(|t| t.as_str().to_uppercase()));
    // A PLawBench item's id already names its task, the target.
    let named = |t: &str| {
        case_id
            .strip_prefix(t)
            .is_some_and(|rest| rest.starts_with('-'))
    };
    parts.extend(target.filter(|t| !named(t)).map(|t| target_label(lang, t)));
    parts.join(" · ")
}

/// A case or item id as experts read it: a PLawBench item id
/// (`case_analysis-3`) as its task in words and number (案例分析 #3), every
/// other id as it is.
pub fn case_ref(lang: Lang, case_id: &str) -> String {
    match case_id.rsplit_once('-') {
        Some((task, n)) if n.bytes().all(|b| b.is_ascii_digit()) => {
            match engine::plawbench::dataset::Task::parse(task) {
                Some(t) => format!("{} #{n}", lang.t(t.label_zh(), t.label_en())),
                None => case_id.to_owned(),
            }
        }
        _ => case_id.to_owned(),
    }
}

/// A judge verdict's or rubric verdict's target in words: the consultation
/// (LCA), the setup (LJP), the PLawBench task or the DLawBench style.
pub fn target_label(lang: Lang, target: &str) -> String {
    use engine::vocab::{Consultation, LjpSetup};
    let words = |zh: &'static str, en: &'static str| lang.t(zh, en).to_owned();
    if let Some(c) = Consultation::parse(target) {
        return words(c.label_zh(), c.label_en());
    }
    if let Some(s) = LjpSetup::parse(target) {
        return words(s.label_zh(), s.label_en());
    }
    if let Some(t) = engine::plawbench::dataset::Task::parse(target) {
        return words(t.label_zh(), t.label_en());
    }
    if let Some(s) = engine::dlawbench::dataset::Style::parse(target) {
        return words(s.label_zh(), s.label_en());
    }
    target.to_owned()
}

#[component]
fn ItemList(items: Vec<QueueItem>, lang: Lang, testid: &'static str) -> impl IntoView {
    if items.is_empty() {
        return view! { <p class="empty" data-testid=testid>{lang.t("没有条目。", "Nothing here.")}</p> }.into_any();
    }
    view! {
        <ul class="queue" data-testid=testid>
            {items.into_iter().map(|i| {
                let href = lang.link(&format!("/review/items/{}", i.id));
                view! {
                    <li data-kind=i.kind.as_str()>
                        <a href=href>{item_title(lang, i.kind, &i.case_id, i.task, i.target.as_deref())}</a>
                        " " <span class=format!("badge status-{}", i.status.as_str())>{status_label(lang, i.status)}</span>
                        {i.unclear.then(|| view! { " " <span class="badge missing">{lang.t("已标记不清楚", "Flagged unclear")}</span> })}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
    .into_any()
}

/// The queue's filters, from the URL: kind, task and class (wire names).
#[derive(Debug, Clone, Default, PartialEq)]
struct QueueFilter {
    kind: Option<ReviewKind>,
    task: Option<Task>,
    class: Option<Class>,
}

impl QueueFilter {
    fn keeps(&self, item: &QueueItem) -> bool {
        self.kind.is_none_or(|k| item.kind == k)
            && self.task.is_none_or(|t| item.task == Some(t))
            && self.class.is_none_or(|c| item.class == Some(c))
    }
}

#[component]
pub fn ReviewQueuePage() -> impl IntoView {
    let lang = use_lang();
    let query = use_query_map();
    let filter = Memo::new(move |_| {
        query.with(|q| QueueFilter {
            kind: q.get("kind").as_deref().and_then(ReviewKind::parse),
            task: q.get("task").as_deref().and_then(Task::parse),
            class: q.get("class").as_deref().and_then(Class::parse),
        })
    });
    let live = use_live(&["review"]);
    let data = Resource::new(move || live.changes.get(), |_| my_queue());
    view! {
        <Title text=crate::components::i18n::title_text(lang, "专家审核", "Review") />
        <section class="panel">
            <h1>{move || lang.get().t("我的审核条目", "My review items")}</h1>
            <Transition fallback=Loading>
                {move || Suspend::new(async move {
                    let lang = lang.get();
                    let filter = filter.get();
                    match data.await {
                        Ok(q) => {
                            let p = q.progress.clone();
                            let pct = if p.total == 0 { 0.0 } else { 100.0 * p.done as f64 / p.total as f64 };
                            let adjudication = q.may_adjudicate.then(|| view! {
                                " · " <a href=lang.link("/review/adjudication") data-testid="adjudication-link">{lang.t("裁决", "Adjudication")}</a>
                            });
                            let manage = q.may_manage.then(|| view! {
                                " · " <a href=lang.link("/review/manage")>{lang.t("创建与分配", "Create and assign")}</a>
                            });
                            let first_todo = q.todo.iter().find(|i| filter.keeps(i)).map(|i| i.id);
                            let keep = |items: Vec<QueueItem>| items.into_iter().filter(|i| filter.keeps(i)).collect::<Vec<_>>();
                            let pace = match (p.items_per_hour(), p.median_seconds()) {
                                (Some(per_hour), Some(median)) => Some(match lang {
                                    Lang::Zh => format!("你的速度：每小时 {per_hour:.1} 条，每条中位 {median:.0} 秒"),
                                    Lang::En => format!("Your pace: {per_hour:.1} items per hour, median {median:.0} s per item"),
                                }),
                                _ => None,
                            };
                            view! {
                                <p class="review-links">
                                    <a href=lang.link("/review/agreement")>{lang.t("一致性看板", "Agreement dashboard")}</a>
                                    " · " <a href=lang.link("/review/fidelity") data-testid="probes-link">{lang.t("模拟器保真度探针", "Simulator fidelity probes")}</a>
                                    {adjudication}
                                    {manage}
                                </p>
                                {(q.to_adjudicate > 0).then(|| view! {
                                    <p class="notice" data-testid="to-adjudicate">
                                        <a href=lang.link("/review/adjudication")>{match lang {
                                            Lang::Zh => format!("{} 条待你裁决，请先处理 →", q.to_adjudicate),
                                            Lang::En => format!("{} waiting for your adjudication: take these first →", q.to_adjudicate),
                                        }}</a>
                                    </p>
                                })}
                                <p data-testid="progress">
                                    {lang.t("进度", "Progress")} ": " <strong>{format!("{} / {}", p.done, p.total)}</strong>
                                    " · " {format!("{} {}", p.remaining(), lang.t("条待标注", "left to label"))}
                                </p>
                                <div class="progress"><div class="progress-bar" style=format!("width: {pct:.1}%")></div></div>
                                <ul class="kind-progress" data-testid="kind-progress">
                                    {p.per_kind.iter().map(|&(kind, done, total)| view! {
                                        <li data-kind=kind.as_str()>{kind_label(lang, kind)} " " <strong>{format!("{done} / {total}")}</strong></li>
                                    }).collect_view()}
                                </ul>
                                {pace.map(|t| view! { <p class="muted" data-testid="my-pace">{t}</p> })}
                                <form method="get" action="/review" class="filters" data-testid="queue-filter">
                                    {(lang == Lang::En).then(|| view! { <input type="hidden" name="lang" value="en" /> })}
                                    <label class="field">{lang.t("类型", "Kind")}
                                        <select name="kind" data-testid="filter-kind">
                                            <option value="">{lang.t("全部", "All")}</option>
                                            {ReviewKind::ALL.iter().map(|&k| view! { <option value=k.as_str() selected=filter.kind == Some(k)>{kind_label(lang, k)}</option> }).collect_view()}
                                        </select>
                                    </label>
                                    <label class="field">{lang.t("任务", "Task")}
                                        <select name="task" data-testid="filter-task">
                                            <option value="">{lang.t("全部", "All")}</option>
                                            {Task::ALL.iter().map(|&t| view! { <option value=t.as_str() selected=filter.task == Some(t)>{t.as_str().to_uppercase()}</option> }).collect_view()}
                                        </select>
                                    </label>
                                    <label class="field">{lang.t("案件类别", "Class")}
                                        <select name="class" data-testid="filter-class">
                                            <option value="">{lang.t("全部", "All")}</option>
                                            {Class::ALL.iter().map(|&c| view! { <option value=c.as_str() selected=filter.class == Some(c)>{lang.t(c.label_zh(), c.label_en())}</option> }).collect_view()}
                                        </select>
                                    </label>
                                    <button type="submit">{lang.t("筛选", "Filter")}</button>
                                    {first_todo.map(|id| view! {
                                        <a class="button primary" data-testid="start-next" href=lang.link(&format!("/review/items/{id}"))>{lang.t("开始下一条待标注 →", "Start the next unlabelled →")}</a>
                                    })}
                                </form>
                                {
                                    let (todo, adj, done) = (keep(q.todo), keep(q.in_adjudication), keep(q.done));
                                    view! {
                                        <h2>{lang.t("待标注", "To do")} " (" {todo.len()} ")"</h2>
                                        <ItemList items=todo lang testid="queue-todo" />
                                        <h2>{lang.t("待裁决", "In adjudication")} " (" {adj.len()} ")"</h2>
                                        <ItemList items=adj lang testid="queue-adjudication" />
                                        <h2>{lang.t("已完成", "Done")} " (" {done.len()} ")"</h2>
                                        <ItemList items=done lang testid="queue-done" />
                                    }
                                }
                            }.into_any()
                        }
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}
