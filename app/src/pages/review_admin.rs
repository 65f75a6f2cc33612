//! The review pages for admins: create and assign items, adjudicate
//! disagreements, and the live agreement dashboard (which experts see too,
//! without the disagreement list).

use engine::benchmark::Benchmark;
use engine::lexpilot::run::Task;
use engine::review::{ItemStatus, ReviewKind};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::components::exports::{export_url, ExportLinks};
use crate::components::history::ChangeView;
use crate::components::i18n::{use_lang, Lang, LangLinks};
use crate::components::labels::{error_message, ErrorBox, Loading};
use crate::components::live::{use_live, LiveBadge};
use crate::pages::review::{item_title, kind_label, status_label};
use crate::pages::review_item::label_summary;
use crate::server_fns::review::{
    adjudicate, adjudication_queue, assign_review, assign_reviews, create_review_items,
    reassign_reviews, review_dashboard, review_items, AdjudicationItem,
};

fn num(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |x| format!("{x:.3}"))
}

#[component]
pub fn ReviewManagePage() -> impl IntoView {
    let lang = use_lang();
    let kind = RwSignal::new(ReviewKind::CaseCheck);
    let task = RwSignal::new(Task::Lca);
    let per_model = RwSignal::new("10".to_owned());
    let cap = RwSignal::new("100".to_owned());
    let seed = RwSignal::new("1".to_owned());
    let message = RwSignal::new(None::<(bool, String)>);
    // The benchmark of rubric verdicts: PLawBench's per task, DLawBench's
    // panel per style.
    let bench = RwSignal::new(Benchmark::Plawbench);
    // The DLawBench run a simulated-client-style batch draws from (empty:
    // every stored run).
    let run_named = RwSignal::new(String::new());
    // Case checks and seed dialogues are one per case or seed: no count applies.
    let one_each = move || matches!(kind.get(), ReviewKind::CaseCheck | ReviewKind::SeedDialogue);
    let create = Action::new(move |_: &()| {
        let kind = kind.get_untracked();
        let judge = kind == ReviewKind::JudgeVerdict;
        let rubric = kind == ReviewKind::RubricVerdict;
        let styles = kind == ReviewKind::ClientStyle;
        let run = run_named.get_untracked();
        let run = run.trim();
        create_review_items(
            kind.as_str().to_owned(),
            judge.then(|| task.get_untracked().as_str().to_owned()),
            per_model.get_untracked().parse().ok(),
            cap.get_untracked().parse().ok(),
            seed.get_untracked().parse().ok(),
            rubric.then(|| bench.get_untracked().as_str().to_owned()),
            (styles && !run.is_empty()).then(|| run.to_owned()),
        )
    });
    let item_id = RwSignal::new(String::new());
    let experts = RwSignal::new(String::new());
    let named = move || -> Vec<String> {
        experts
            .get_untracked()
            .split([',', '，'])
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .collect()
    };
    // Balanced over the experts named below, or every expert when none is.
    let assign = Action::new(move |_: &()| {
        let names = named();
        assign_reviews((!names.is_empty()).then_some(names))
    });
    let assign_one = Action::new(move |_: &()| {
        let id = item_id.get_untracked().trim().parse::<i64>().unwrap_or(0);
        assign_review(id, named())
    });
    Effect::new(move |_| match assign_one.value().get() {
        Some(Ok(n)) => message.set(Some((
            true,
            match lang.get_untracked() {
                Lang::Zh => format!("已分配 {n} 项"),
                Lang::En => format!("Assignments made: {n}"),
            },
        ))),
        Some(Err(e)) => message.set(Some((false, error_message(&e)))),
        None => {}
    });
    Effect::new(move |_| match create.value().get() {
        Some(Ok(c)) => message.set(Some((
            true,
            match lang.get_untracked() {
                Lang::Zh => format!("已创建 {} · 已存在 {}", c.created, c.existing),
                Lang::En => format!("Created {} · existing {}", c.created, c.existing),
            },
        ))),
        Some(Err(e)) => message.set(Some((false, error_message(&e)))),
        None => {}
    });
    Effect::new(move |_| match assign.value().get() {
        Some(Ok(n)) => message.set(Some((
            true,
            match lang.get_untracked() {
                Lang::Zh => format!("已分配 {n} 项"),
                Lang::En => format!("Assignments made: {n}"),
            },
        ))),
        Some(Err(e)) => message.set(Some((false, error_message(&e)))),
        None => {}
    });
    view! {
        <Title text=crate::components::i18n::title_text(lang, "审核管理", "Manage review") />
        <section class="panel">
            <p><a href=move || lang.get().link("/review")>{move || lang.get().t("← 审核", "← Review")}</a></p>
            <h1>{move || lang.get().t("创建与分配审核条目", "Create and assign review items")}</h1>
            <div class="filters">
                <label class="field">{move || lang.get().t("类型", "Kind")}
                    <select data-testid="create-kind" on:change=move |ev| {
                        let value = event_target_value(&ev);
                        let (value, b) = match value.split_once('@') {
                            Some((k, b)) => (k.to_owned(), Benchmark::parse(b)),
                            None => (value, None),
                        };
                        if let Some(k) = ReviewKind::parse(&value) { kind.set(k) }
                        let b = b.unwrap_or(Benchmark::Plawbench);
                        bench.set(b);
                        // Each draw's own defaults.
                        let (per, all) = match (kind.get_untracked(), b) {
                            (ReviewKind::RubricVerdict, Benchmark::Dlawbench) => (engine::dlawbench::review::DEFAULT_PER_STYLE, engine::dlawbench::review::DEFAULT_CAP),
                            (ReviewKind::RubricVerdict, _) => (engine::plawbench::review::DEFAULT_PER_TASK, engine::plawbench::review::DEFAULT_CAP),
                            (ReviewKind::ClientStyle, _) => (engine::dlawbench::client_style::DEFAULT_PER_STYLE, engine::dlawbench::client_style::DEFAULT_CAP),
                            _ => (10, 100),
                        };
                        per_model.set(per.to_string());
                        cap.set(all.to_string());
                    }>
                        <option value=ReviewKind::CaseCheck.as_str() selected>{move || lang.get().t("案例核查（每个案例）", "Case check (every case)")}</option>
                        <option value=ReviewKind::SeedDialogue.as_str()>{move || lang.get().t("种子对话（每个种子）", "Seed dialogue (every seed)")}</option>
                        <option value=ReviewKind::JudgeVerdict.as_str()>{move || lang.get().t("评审模型复核（抽样）", "Judge verdicts (sample)")}</option>
                        <option value=ReviewKind::RubricVerdict.as_str()>{move || lang.get().t("PLawBench 评分复核（按任务抽样）", "PLawBench rubric verdicts (sample per task)")}</option>
                        <option value=format!("{}@dlawbench", ReviewKind::RubricVerdict.as_str())>{move || lang.get().t("DLawBench 评审团复核（按风格抽样，逐项 0/1）", "DLawBench panel decisions (sample per style, each rubric item 0/1)")}</option>
                        <option value=ReviewKind::ClientStyle.as_str()>{move || lang.get().t("DLawBench 模拟当事人风格（按风格抽样，专家辨认风格）", "DLawBench simulated client style (sample per style; experts name the style)")}</option>
                    </select>
                </label>
                <label class="field">{move || lang.get().t("任务", "Task")}
                    <select data-testid="create-task" disabled=move || kind.get() != ReviewKind::JudgeVerdict on:change=move |ev| {
                        if let Some(t) = Task::parse(&event_target_value(&ev)) { task.set(t) }
                    }>
                        <option value=Task::Lca.as_str() selected>"LCA"</option>
                        <option value=Task::Dcg.as_str()>"DCG"</option>
                        <option value=Task::Ljp.as_str()>"LJP"</option>
                    </select>
                </label>
                <label class="field" hidden=move || kind.get() != ReviewKind::ClientStyle>{move || lang.get().t("运行（律师模型，或“模型 #编号”；留空：全部）", "Run (lawyer model, or \"MODEL #N\"; empty: every run)")}
                    <input type="text" data-testid="create-run" prop:value=move || run_named.get() on:input=move |ev| run_named.set(event_target_value(&ev)) /></label>
                <label class="field">{move || match (kind.get(), bench.get()) {
                    (ReviewKind::ClientStyle, _) | (ReviewKind::RubricVerdict, Benchmark::Dlawbench) => lang.get().t("每种风格", "Per style"),
                    (ReviewKind::RubricVerdict, _) => lang.get().t("每个任务", "Per task"),
                    _ => lang.get().t("每个模型", "Per model"),
                }}
                    <input type="number" disabled=one_each min="1" prop:value=move || per_model.get() on:input=move |ev| per_model.set(event_target_value(&ev)) /></label>
                <label class="field">{move || lang.get().t("上限", "Cap")}
                    <input type="number" disabled=one_each min="1" prop:value=move || cap.get() on:input=move |ev| cap.set(event_target_value(&ev)) /></label>
                <label class="field">{move || lang.get().t("随机种子", "Seed")}
                    <input type="number" disabled=one_each min="0" prop:value=move || seed.get() on:input=move |ev| seed.set(event_target_value(&ev)) /></label>
            </div>
            <p class="muted" data-testid="create-hint">{move || {
                let lang = lang.get();
                match kind.get() {
                    ReviewKind::CaseCheck => lang.t(
                        "案例核查为每个案例各建一条（已有的不重复创建）；数量、上限与随机种子不适用。",
                        "Case checks are made one per case (none twice); the counts, cap and seed do not apply.",
                    ),
                    ReviewKind::SeedDialogue => lang.t(
                        "种子对话为每个种子案例各建一条（已有的不重复创建）；数量、上限与随机种子不适用。",
                        "Seed dialogues are made one per seed case (none twice); the counts, cap and seed do not apply.",
                    ),
                    _ => lang.t(
                        "按所填数量分层抽样，总数不超过上限；同一随机种子抽出同样的条目。",
                        "A stratified sample of the count given per stratum, no more than the cap in all; the same seed draws the same items.",
                    ),
                }
            }}</p>
            <div class="filter-actions">
                <button type="button" class="primary" data-testid="create-items" on:click=move |_| { create.dispatch(()); }>{move || lang.get().t("创建", "Create")}</button>
                <button type="button" data-testid="auto-assign" on:click=move |_| { assign.dispatch(()); }>{move || lang.get().t("自动分配（每条两位专家；如填写下方专家则只分给他们）", "Auto-assign (two experts each; only to the experts named below, if any)")}</button>
            </div>
            <h2>{move || lang.get().t("指定专家", "Assign experts to one item")}</h2>
            <div class="filters">
                <label class="field">{move || lang.get().t("条目编号", "Item id")}
                    <input type="number" min="1" data-testid="assign-item" prop:value=move || item_id.get() on:input=move |ev| item_id.set(event_target_value(&ev)) /></label>
                <label class="field">{move || lang.get().t("专家（逗号分隔）", "Experts (comma-separated)")}
                    <input type="text" data-testid="assign-experts" prop:value=move || experts.get() on:input=move |ev| experts.set(event_target_value(&ev)) /></label>
                <div class="filter-actions">
                    <button type="button" data-testid="assign-one" on:click=move |_| { assign_one.dispatch(()); }>{move || lang.get().t("分配", "Assign")}</button>
                </div>
            </div>
            {move || message.get().map(|(ok, text)| view! { <div class=if ok { "info-box" } else { "error-box" } data-testid="manage-message">{text}</div> })}
            <p>{move || lang.get().t("导出全部标注与裁决：", "Export every label and adjudication: ")}
                <a href="/api/review/export?format=jsonl" rel="external">"JSONL"</a> " · "
                <a href="/api/review/export?format=csv" rel="external">"CSV"</a></p>
        </section>
        <ItemManager />
    }
}

/// The query of the management list with `page` in place of its page.
fn manage_href(lang: Lang, query: &[(&'static str, String)], page: usize) -> String {
    let mut parts: Vec<String> = query
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}={}", crate::url::encode(v)))
        .collect();
    parts.push(format!("page={page}"));
    lang.link(&format!("/review/manage?{}", parts.join("&")))
}

/// The management list: every review item (kind, case, status, experts,
/// created) with filters held in the URL (a GET form), paging, and the bulk
/// reassignment of an expert's open items.
#[component]
fn ItemManager() -> impl IntoView {
    let lang = use_lang();
    let query = use_query_map();
    let live = use_live(&["review"]);
    let from = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let message = RwSignal::new(None::<(bool, String)>);
    let reassign = Action::new(move |_: &()| {
        let to: Vec<String> = to
            .get_untracked()
            .split([',', '，'])
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .collect();
        reassign_reviews(from.get_untracked(), Some(to))
    });
    Effect::new(move |_| match reassign.value().get() {
        Some(Ok(done)) => {
            let lang = lang.get_untracked();
            let mut text = match lang {
                Lang::Zh => format!("已移交 {} 条", done.moved),
                Lang::En => format!("{} items handed over", done.moved),
            };
            if !done.stranded.is_empty() {
                let ids = done
                    .stranded
                    .iter()
                    .map(|i| format!("#{i}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                text.push_str(&match lang {
                    Lang::Zh => format!(
                        "；{} 条无人可接（所选专家都已在该条目上），仍留给原专家：{ids}",
                        done.stranded.len()
                    ),
                    Lang::En => format!(
                        "; {} left with the expert (every expert chosen is already on them): {ids}",
                        done.stranded.len()
                    ),
                });
            }
            message.set(Some((true, text)));
        }
        Some(Err(e)) => message.set(Some((false, error_message(&e)))),
        None => {}
    });
    let filter = Memo::new(move |_| {
        query.with(|q| {
            let get = |k: &str| q.get(k).unwrap_or_default();
            [
                ("kind", get("kind")),
                ("status", get("status")),
                ("expert", get("expert")),
                ("case", get("case")),
                ("understaffed", get("understaffed")),
            ]
        })
    });
    let page = Memo::new(move |_| {
        query.with(|q| {
            q.get("page")
                .and_then(|p| p.parse::<usize>().ok())
                .unwrap_or(1)
        })
    });
    let list = Resource::new(
        move || {
            (
                live.changes.get(),
                reassign.version().get(),
                filter.get(),
                page.get(),
            )
        },
        |(_, _, f, page)| {
            let given = |i: usize| Some(f[i].1.clone()).filter(|v| !v.is_empty());
            review_items(
                given(0),
                given(1),
                given(2),
                given(3),
                Some(!f[4].1.is_empty()),
                Some(page),
            )
        },
    );
    view! {
        <section class="panel" data-testid="manage-list">
            <h2>{move || lang.get().t("全部审核条目", "Every review item")}</h2>
            <Transition fallback=Loading>
                {move || Suspend::new(async move {
                    let lang = lang.get();
                    let f = filter.get();
                    let value = |i: usize| f[i].1.clone();
                    match list.await {
                        Ok(l) => {
                            let count = |s: ItemStatus| l.by_status.iter().find(|(x, _)| *x == s).map_or(0, |x| x.1);
                            let query: Vec<(&'static str, String)> = f.to_vec();
                            let prev = (l.page > 1).then(|| manage_href(lang, &query, l.page - 1));
                            let next = (l.page < l.pages).then(|| manage_href(lang, &query, l.page + 1));
                            view! {
                                <form method="get" action="/review/manage" class="filters" data-testid="manage-filter">
                                    {(lang == Lang::En).then(|| view! { <input type="hidden" name="lang" value="en" /> })}
                                    <label class="field">{lang.t("类型", "Kind")}
                                        <select name="kind" data-testid="manage-kind">
                                            <option value="">{lang.t("全部", "All")}</option>
                                            {ReviewKind::ALL.iter().map(|&k| view! { <option value=k.as_str() selected=value(0) == k.as_str()>{kind_label(lang, k)}</option> }).collect_view()}
                                        </select>
                                    </label>
                                    <label class="field">{lang.t("状态", "Status")}
                                        <select name="status" data-testid="manage-status">
                                            <option value="">{lang.t("全部", "All")}</option>
                                            {ItemStatus::ALL.iter().map(|&s| view! {
                                                <option value=s.as_str() selected=value(1) == s.as_str()>{format!("{} ({})", status_label(lang, s), count(s))}</option>
                                            }).collect_view()}
                                        </select>
                                    </label>
                                    <label class="field">{lang.t("专家", "Expert")}
                                        <input type="text" name="expert" data-testid="manage-expert" value=value(2) /></label>
                                    <label class="field">{lang.t("案例", "Case")}
                                        <input type="search" name="case" data-testid="manage-case" value=value(3) /></label>
                                    <label class="field check">
                                        <input type="checkbox" name="understaffed" value="1" data-testid="manage-understaffed" checked=!value(4).is_empty() />
                                        {lang.t("专家不足两位", "Fewer than two experts")}</label>
                                    <button type="submit" data-testid="manage-apply">{lang.t("筛选", "Filter")}</button>
                                </form>
                                <p data-testid="manage-count">{match lang {
                                    Lang::Zh => format!("{} 条符合（共 {} 条）· 第 {} / {} 页", l.matching, l.total, l.page, l.pages),
                                    Lang::En => format!("{} match (of {}) · page {} / {}", l.matching, l.total, l.page, l.pages),
                                }}</p>
                                <p class="legend">{lang.t("专家名后：✓ 已提交，○ 未提交", "After an expert's name: ✓ submitted, ○ not yet")}</p>
                                <div class="table-wrap">
                                    <table class="data manage" data-testid="manage-items">
                                        <thead><tr>
                                            <th>"#"</th><th>{lang.t("条目", "Item")}</th><th>{lang.t("状态", "Status")}</th>
                                            <th>{lang.t("专家", "Experts")}</th><th>{lang.t("创建于", "Created")}</th>
                                        </tr></thead>
                                        <tbody>
                                            {l.rows.is_empty().then(|| view! {
                                                <tr><td colspan="5" class="muted">{lang.t("没有符合筛选的条目。", "No item matches the filter.")}</td></tr>
                                            })}
                                            {l.rows.into_iter().map(|r| {
                                                let title = item_title(lang, r.kind, &r.case_id, r.task, r.target.as_deref());
                                                let created = r.created_at.get(..16).unwrap_or(&r.created_at).replace('T', " ");
                                                let experts = if r.assignees.is_empty() {
                                                    view! { <span class="muted">{lang.t("未分配", "Unassigned")}</span> }.into_any()
                                                } else {
                                                    r.assignees.into_iter().map(|a| {
                                                        let (mark, said) = if a.submitted { ("✓", lang.t("已提交", "submitted")) } else { ("○", lang.t("未提交", "not submitted")) };
                                                        let href = lang.link(&format!("/review/manage?expert={}", crate::url::encode(&a.expert)));
                                                        let note = a.unclear.then(|| view! { " " <span class="badge warn">{lang.t("存疑", "Unclear")}</span> });
                                                        view! { <span class="assignee" title=said><a href=href>{a.expert.clone()}</a> " " <span aria-label=said>{mark}</span> {note}</span> " " }
                                                    }).collect_view().into_any()
                                                };
                                                view! {
                                                    <tr data-testid=format!("manage-row-{}", r.id)>
                                                        <td class="id">{r.id}</td>
                                                        <td class="item"><a href=lang.link(&format!("/review/items/{}", r.id))>{title}</a></td>
                                                        <td data-status=r.status.as_str()>{status_label(lang, r.status)}</td>
                                                        <td>{experts}</td>
                                                        <td class="muted">{created}</td>
                                                    </tr>
                                                }
                                            }).collect_view()}
                                        </tbody>
                                    </table>
                                </div>
                                <p class="pager">
                                    {prev.map(|h| view! { <a href=h data-testid="manage-prev" rel="prev">{lang.t("← 上一页", "← Previous")}</a> " " })}
                                    {next.map(|h| view! { <a href=h data-testid="manage-next" rel="next">{lang.t("下一页 →", "Next →")}</a> })}
                                </p>
                            }.into_any()
                        }
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Transition>
            <h2>{move || lang.get().t("专家离开时：移交其未完成条目", "When an expert leaves: hand over their open items")}</h2>
            <p class="muted">{move || lang.get().t(
                "该专家尚未提交的条目将均衡地交给所填专家（留空则为其他全部专家）；已提交的标注保留。",
                "Items the expert has not submitted go to the experts named (all other experts if empty), balanced by their open work; submitted labels stay.",
            )}</p>
            <div class="filters">
                <label class="field">{move || lang.get().t("离开的专家", "Expert leaving")}
                    <input type="text" data-testid="reassign-from" prop:value=move || from.get() on:input=move |ev| from.set(event_target_value(&ev)) /></label>
                <label class="field">{move || lang.get().t("接手专家（逗号分隔，可留空）", "Taken over by (comma-separated, optional)")}
                    <input type="text" data-testid="reassign-to" prop:value=move || to.get() on:input=move |ev| to.set(event_target_value(&ev)) /></label>
                <div class="filter-actions">
                    <button type="button" data-testid="reassign" disabled=move || from.get().trim().is_empty() on:click=move |_| { reassign.dispatch(()); }>{move || lang.get().t("移交", "Hand over")}</button>
                </div>
            </div>
            {move || message.get().map(|(ok, text)| view! { <div class=if ok { "info-box" } else { "error-box" } data-testid="reassign-message">{text}</div> })}
        </section>
    }
}

/// The final labels an adjudicator can adopt with one click, as (who gave
/// it, label): the experts' and the judge's, each label once with everyone
/// who gave it; for a seed dialogue `approve` and `correct:NAME` for each
/// expert's corrected case (none when the case changed since the item was
/// made, as no corrected case can be adopted then).
fn label_choices(lang: Lang, item: &AdjudicationItem) -> Vec<(String, String)> {
    if item.kind == ReviewKind::SeedDialogue {
        let mut c = vec![(lang.t("通过", "Approve").to_owned(), "approve".to_owned())];
        if !item.case_changed {
            c.extend(item.proposals.iter().map(|(who, _)| {
                (
                    format!(
                        "{} {who}",
                        lang.t("采用修改稿：", "Adopt the correction of")
                    ),
                    format!("correct:{who}"),
                )
            }));
        }
        return c;
    }
    let mut given: Vec<(String, String)> = item
        .labels
        .iter()
        .map(|(who, l, _)| (who.clone(), l.clone()))
        .collect();
    given.extend(
        item.judge_label
            .clone()
            .map(|l| (lang.t("评审模型", "Judge").to_owned(), l)),
    );
    let mut choices: Vec<(String, String)> = Vec::new();
    for (who, label) in given {
        match choices.iter_mut().find(|(_, l)| *l == label) {
            Some((names, _)) => {
                names.push('、');
                names.push_str(&who);
            }
            None => choices.push((who, label)),
        }
    }
    choices
        .into_iter()
        .map(|(who, label)| {
            let summary = label_summary(lang, &item.readings.get(&label));
            (format!("{who}: {summary}"), label)
        })
        .collect()
}

#[component]
fn AdjudicationCard(
    item: AdjudicationItem,
    done: WriteSignal<u32>,
    note: WriteSignal<Option<String>>,
) -> impl IntoView {
    let lang = use_lang();
    let choices = label_choices(lang.get_untracked(), &item);
    let label = RwSignal::new(choices.first().map(|(_, l)| l.clone()).unwrap_or_default());
    let reason = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let id = item.id;
    let act =
        Action::new(move |_: &()| adjudicate(id, label.get_untracked(), reason.get_untracked()));
    Effect::new(move |_| match act.value().get() {
        Some(Ok(saved)) => {
            let lang = lang.get_untracked();
            note.set(Some(match (saved.revision, saved.dataset_version) {
                (Some(revision), Some(version)) => match lang {
                    Lang::Zh => format!(
                        "已裁决 #{id}：案例修改已保存为修订 {revision}（数据集版本 {version}）。"
                    ),
                    Lang::En => format!(
                        "Adjudicated #{id}: the case correction is saved as revision {revision} (dataset version {version})."
                    ),
                },
                _ => format!("{} #{id}", lang.t("已裁决", "Adjudicated")),
            }));
            done.update(|n| *n += 1)
        }
        Some(Err(e)) => error.set(Some(error_message(&e))),
        None => {}
    });
    let changed = item.case_changed.then(|| view! {
        <p class="warning-box" data-testid="case-changed">{move || lang.get().t(
            "此案例在本条目创建后已被修订：专家的修改稿基于旧版本，不能采用。请裁决为 approve，并在案例页直接修改。",
            "This case has been corrected since the item was made: the experts' corrected cases were made from the older version and cannot be adopted. Adjudicate approve, and correct the case on its page.")}</p>
    });
    view! {
        <li class="panel adjudication" data-testid=format!("adjudicate-{id}")>
            <h2><a href=move || lang.get().link(&format!("/review/items/{id}"))>{item_title(lang.get_untracked(), item.kind, &item.case_id, item.task, item.target.as_deref())}</a></h2>
            <ul>
                {item.labels.iter().map(|(who, l, c)| {
                    let l = item.readings.get(l);
                    view! { <li>{who.clone()} ": " <strong>{move || label_summary(lang.get(), &l)}</strong> {(!c.is_empty()).then(|| view! { " — " {c.clone()} })}</li> }
                }).collect_view()}
                {item.judge_label.as_deref().map(|l| {
                    let l = item.readings.get(l);
                    view! { <li>{move || lang.get().t("评审模型", "Judge")} ": " <strong>{move || label_summary(lang.get(), &l)}</strong></li> }
                })}
            </ul>
            {item.revised.iter().map(|(who, blind)| {
                let blind = item.readings.get(blind);
                view! {
                    <p class="warning-box" data-testid=format!("revised-{who}")>
                        {who.clone()} {move || lang.get().t("在看到其他专家的标签后修改了标签；一致性按其首次盲评标签计算：", " revised their label after seeing another expert's; agreement counts their first blind label: ")}
                        <strong>{move || label_summary(lang.get(), &blind)}</strong>
                    </p>
                }
            }).collect_view()}
            {item.proposal_changes.iter().map(|(who, changes)| {
                let changes = changes.clone();
                view! {
                    <details class="proposal" open data-testid=format!("proposal-{who}")>
                        <summary>{who.clone()} " " {move || lang.get().t("的修改稿", "proposes")}</summary>
                        <ul class="changes">{changes.into_iter().map(|change| view! { <ChangeView change /> }).collect_view()}</ul>
                    </details>
                }
            }).collect_view()}
            {changed}
            <div class="adopt" role="group" aria-label="Adopt">
                {move || lang.get().t("采用：", "Adopt: ")}
                {choices.into_iter().map(|(text, value)| {
                    let chosen = value.clone();
                    view! {
                        <button type="button" class="choice" class:chosen=move || label.get() == chosen
                                on:click=move |_| label.set(value.clone())>{text}</button>
                    }
                }).collect_view()}
            </div>
            <div class="filters">
                <label class="field">{move || lang.get().t("最终标签（可点选上方或直接输入）", "Final label (adopt one above or type it)")}
                    <input type="text" data-testid="final-label" prop:value=move || label.get() on:input=move |ev| label.set(event_target_value(&ev)) />
                </label>
                <label class="field">{move || lang.get().t("理由（必填）", "Reason (required)")}
                    <input type="text" data-testid="final-reason" prop:value=move || reason.get() on:input=move |ev| reason.set(event_target_value(&ev)) />
                </label>
            </div>
            {move || error.get().map(|e| view! { <div class="error-box" role="alert">{e}</div> })}
            <button type="button" class="primary" data-testid="record-final" on:click=move |_| { act.dispatch(()); }>{move || lang.get().t("记录裁决", "Record the final label")}</button>
        </li>
    }
}

#[component]
pub fn AdjudicationPage() -> impl IntoView {
    let lang = use_lang();
    let live = use_live(&["review"]);
    let (done, set_done) = signal(0u32);
    let (note, set_note) = signal(None::<String>);
    let data = Resource::new(
        move || (live.changes.get(), done.get()),
        |_| adjudication_queue(),
    );
    view! {
        <Title text=crate::components::i18n::title_text(lang, "裁决", "Adjudication") />
        <section class="panel">
            <p><a href=move || lang.get().link("/review")>{move || lang.get().t("← 审核", "← Review")}</a></p>
            <h1>{move || lang.get().t("待裁决条目", "Items awaiting adjudication")} " " <LiveBadge live /></h1>
            {move || note.get().map(|n| view! { <div class="info-box" role="status" data-testid="adjudication-note">{n}</div> })}
        </section>
        <Transition fallback=Loading>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(items) if items.is_empty() => view! { <p class="empty panel" data-testid="no-adjudication">{lang.get().t("没有待裁决的条目。", "Nothing awaits adjudication.")}</p> }.into_any(),
                    Ok(items) => view! { <ul class="adjudications">{items.into_iter().map(|item| view! { <AdjudicationCard item done=set_done note=set_note /> }).collect_view()}</ul> }.into_any(),
                    Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                }
            })}
        </Transition>
    }
}

/// Points: whole numbers as they are, else two decimals.
fn points(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |x| format!("{x:.2}"))
}

/// A share as a percentage.
fn share(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |x| format!("{:.0}%", 100.0 * x))
}

/// The name of a PLawBench task (`case_analysis`) in the page language.
pub fn plaw_task_label(lang: Lang, task: &str) -> String {
    match engine::plawbench::dataset::Task::parse(task) {
        Some(t) => match lang {
            Lang::Zh => t.label_zh().to_owned(),
            Lang::En => t.label_en().to_owned(),
        },
        None => task.to_owned(),
    }
}

/// Rubric verdicts per task and section: the judge against the final
/// label, and the two experts' blind points against each other.
#[component]
fn SheetTable(rows: Vec<engine::review::SheetRow>, lang: Lang) -> impl IntoView {
    view! {
        <h2>{lang.t("PLawBench 评分复核：评审模型与专家（分）", "PLawBench rubric verdicts: judge and experts (points)")}</h2>
        <p class="legend">{lang.t(
            "MAD：平均绝对差（分）；r：皮尔逊相关；±10%：差值不超过满分 10% 的比例。评审-人比较评审模型给分与最终共识，人-人比较两位专家的盲评给分。",
            "MAD: mean absolute difference in points; r: Pearson's r; ±10%: share within 10% of the maximum. Judge-human compares the judge's points with the final consensus; human-human the two experts' blind points.")}</p>
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard" data-testid="sheet-table">
                <thead>
                    <tr>
                        <th rowspan="2">{lang.t("任务", "Task")}</th><th rowspan="2">{lang.t("评分项", "Section")}</th><th rowspan="2" class="num">"n"</th>
                        <th colspan="4">{lang.t("评审-人", "Judge-human")}</th><th colspan="4">{lang.t("人-人", "Human-human")}</th>
                    </tr>
                    <tr>
                        <th class="num">"n"</th><th class="num">"MAD"</th><th class="num">"r"</th><th class="num">"±10%"</th>
                        <th class="num">"n"</th><th class="num">"MAD"</th><th class="num">"r"</th><th class="num">"±10%"</th>
                    </tr>
                </thead>
                <tbody>
                    {rows.into_iter().map(|r| {
                        let section = match (&r.unit, &r.name) {
                            (None, _) => lang.t("总分（条目）", "item total").to_owned(),
                            (Some(_), Some(name)) => name.clone(),
                            (Some(key), None) => key.clone(),
                        };
                        view! {
                            <tr class:subtotal=r.unit.is_none()>
                                <td>{plaw_task_label(lang, &r.task)}</td>
                                <td>{section}</td>
                                <td class="num">{r.n_items}</td>
                                <td class="num">{r.judge.n}</td>
                                <td class="num">{points(r.judge.mad)}</td>
                                <td class="num">{num(r.judge.pearson)}</td>
                                <td class="num">{share(r.judge.within_10pct)}</td>
                                <td class="num">{r.human.n}</td>
                                <td class="num">{points(r.human.mad)}</td>
                                <td class="num">{num(r.human.pearson)}</td>
                                <td class="num">{share(r.human.within_10pct)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <ExportLinks href=export_url("/review/agreement", "sheets") lang testid="export-sheets" />
    }
}

/// DLawBench's panel against the experts: per dimension (Inquiry, Issue
/// resolution), every 0/1 rubric mark of the reviewed sessions pooled.
#[component]
fn PanelTable(rows: Vec<engine::review::SheetRow>, lang: Lang) -> impl IntoView {
    view! {
        <h2>{lang.t("DLawBench 评审团复核：评审团与专家（逐项 0/1）", "DLawBench panel decisions: panel and experts (0/1 per rubric item)")}</h2>
        <p class="legend">{lang.t(
            "评审团的逐项决定取在席评审的多数；两位评审 1:1 时不作决定，不计入比较并单独计数。κ：Cohen's kappa；一致率：相同标记的比例。",
            "The panel's decision on a rubric item is the majority of its seated judges; a 1–1 split decides nothing and is left out of the comparison and counted. κ: Cohen's kappa; agreement: share of equal marks.")}</p>
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard" data-testid="panel-table">
                <thead>
                    <tr>
                        <th rowspan="2">{lang.t("维度", "Dimension")}</th><th rowspan="2" class="num">{lang.t("会话", "Sessions")}</th>
                        <th colspan="4">{lang.t("评审团-人", "Panel-human")}</th><th colspan="3">{lang.t("人-人", "Human-human")}</th>
                    </tr>
                    <tr>
                        <th class="num">{lang.t("项", "marks")}</th><th class="num">{lang.t("一致率", "agreement")}</th><th class="num">"κ"</th><th class="num">{lang.t("平票未计", "ties left out")}</th>
                        <th class="num">{lang.t("项", "marks")}</th><th class="num">{lang.t("一致率", "agreement")}</th><th class="num">"κ"</th>
                    </tr>
                </thead>
                <tbody>
                    {rows.into_iter().filter(|r| r.unit.is_some()).map(|r| view! {
                        <tr data-dimension=r.unit.clone().unwrap_or_default()>
                            <td>{r.name.clone().or(r.unit.clone()).unwrap_or_default()}</td>
                            <td class="num">{r.n_items}</td>
                            <td class="num">{r.judge.n}</td>
                            <td class="num">{share(r.judge.exact)}</td>
                            <td class="num" data-testid="panel-kappa">{num(r.judge.kappa)}</td>
                            <td class="num" data-testid="panel-ties">{r.judge_left_out}</td>
                            <td class="num">{r.human.n}</td>
                            <td class="num">{share(r.human.exact)}</td>
                            <td class="num">{num(r.human.kappa)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <ExportLinks href=export_url("/review/agreement", "panel") lang testid="export-panel" />
    }
}

#[component]
pub fn AgreementPage() -> impl IntoView {
    let lang = use_lang();
    let live = use_live(&["review"]);
    let data = Resource::new(move || live.changes.get(), |_| review_dashboard());
    view! {
        <Title text=crate::components::i18n::title_text(lang, "一致性", "Agreement") />
        <section class="panel">
            <p><a href=move || lang.get().link("/review")>{move || lang.get().t("← 审核", "← Review")}</a></p>
            <h1>{move || lang.get().t("标注一致性看板", "Agreement dashboard")} " " <LiveBadge live /></h1>
            <p class="legend">{move || lang.get().t(
                "人-人：两位专家裁决前的标签；评审-人：评审模型与最终共识。LJP 以每个案件为单位（各项诉请的判决全部一致才算一致，同论文表 12），QWK 为按诉请计的二次加权 kappa。平均行为 LCA、DCG、LJP 三项的算术平均。",
                "Human-human: the two experts before adjudication; judge-human: the judge against the final consensus. LJP counts each case as a unit (agreeing when every claim's verdict does, as the paper's Table 12); QWK is quadratic weighted kappa over the claims. The Average row is the mean over LCA, DCG and LJP.")}</p>
            <Transition fallback=Loading>
                {move || Suspend::new(async move {
                    let lang = lang.get();
                    match data.await {
                        Ok(d) => {
                            let no_rows = d.rows.is_empty();
                            view! {
                            <p data-testid="dashboard-counts">
                                {lang.t("条目", "Items")} " " {d.items} " · " {lang.t("已定稿", "final")} " " {d.items_final}
                                " · " {lang.t("待裁决", "in adjudication")} " " {d.items_in_adjudication}
                            </p>
                            {(d.items == 0).then(|| view! {
                                <p class="empty" data-testid="agreement-empty">
                                    {lang.t(
                                        "还没有审核条目，一致性无从计算。管理员可在",
                                        "No review items yet, so there is no agreement to show. An admin creates them (seed dialogues, case checks, judge verdicts) on",
                                    )}
                                    " " <a href=lang.link("/review/manage")>{lang.t("审核管理页", "the review management page")}</a> " "
                                    {lang.t("创建（种子对话、案例核查、评审判定），两位专家标注后此处即时更新。", "; once two experts have labelled, this page fills in live.")}
                                </p>
                            })}
                            <div class="table-scroll" tabindex="0" hidden=no_rows>
                                <table class="leaderboard" data-testid="agreement-table">
                                    <thead><tr>
                                        <th>{lang.t("类型", "Kind")}</th><th>{lang.t("类别", "Class")}</th>
                                        <th class="num">"n"</th><th class="num">{lang.t("人-人一致率", "Human raw")}</th><th class="num">"κ"</th><th class="num">"QWK"</th>
                                        <th class="num">{lang.t("评审-人一致率", "Judge raw")}</th><th class="num">{lang.t("评审 κ", "Judge κ")}</th><th class="num">{lang.t("评审 QWK", "Judge QWK")}</th>
                                        <th class="num">"Fleiss κ"</th><th class="num">{lang.t("被推翻", "Overruled")}</th>
                                    </tr></thead>
                                    <tbody>
                                        {d.rows.into_iter().map(|r| view! {
                                            <tr>
                                                <td>{kind_label(lang, r.kind)} {r.task.map(|t| format!(" · {}", t.as_str().to_uppercase()))}</td>
                                                <td>{r.class.map_or_else(|| lang.t("总体", "overall"), |c| c.label(lang))}</td>
                                                <td class="num">{r.n_items} " / " {r.n_pairs}</td>
                                                <td class="num">{num(r.human_agreement)}</td>
                                                <td class="num">{num(r.human_kappa)}</td>
                                                <td class="num">{num(r.qwk)}</td>
                                                <td class="num">{num(r.judge_agreement)}</td>
                                                <td class="num">{num(r.judge_kappa)}</td>
                                                <td class="num">{num(r.judge_qwk)}</td>
                                                <td class="num">{num(r.fleiss_kappa)}</td>
                                                <td class="num">{r.overruled}</td>
                                            </tr>
                                        }).collect_view()}
                                        {d.average.map(|a| view! {
                                            <tr class="average-row" data-testid="agreement-average">
                                                <td>{lang.t("平均", "Average")} " · " {a.tasks.iter().map(|t| t.as_str().to_uppercase()).collect::<Vec<_>>().join(" / ")}</td>
                                                <td>{lang.t("总体", "overall")}</td>
                                                <td class="num">"—"</td>
                                                <td class="num">{num(a.human_agreement)}</td>
                                                <td class="num">{num(a.human_kappa)}</td>
                                                <td class="num">"—"</td>
                                                <td class="num">{num(a.judge_agreement)}</td>
                                                <td class="num">{num(a.judge_kappa)}</td>
                                                <td class="num">"—"</td>
                                                <td class="num">"—"</td>
                                                <td class="num">"—"</td>
                                            </tr>
                                        })}
                                    </tbody>
                                </table>
                            </div>
                            {(!no_rows).then(|| view! { <ExportLinks href=export_url("/review/agreement", "agreement") lang testid="export-agreement" /> })}
                            {
                                let (dlaw, plaw): (Vec<_>, Vec<_>) = d.sheets.clone().into_iter().partition(|r| r.benchmark == Benchmark::Dlawbench);
                                view! {
                                    {(!plaw.is_empty()).then(|| view! { <SheetTable rows=plaw lang /> })}
                                    {(!dlaw.is_empty()).then(|| view! { <PanelTable rows=dlaw lang /> })}
                                    {d.client_style.clone().map(|figures| view! { <crate::pages::review::client_style::ClientStyleTable figures lang /> })}
                                }
                            }
                            <h2 hidden=d.progress.is_empty()>{lang.t("专家进度", "Progress per expert")}</h2>
                            {(!d.progress.is_empty()).then(|| view! { <ExpertTable rows=d.progress.clone() lang /> })}
                            {(!d.disagreements.is_empty()).then(|| view! {
                                <h2>{lang.t("分歧条目", "Disagreements")}</h2>
                                <ul data-testid="disagreements">{d.disagreements.into_iter().map(|id| view! {
                                    <li><a href=lang.link(&format!("/review/items/{id}"))>{format!("#{id}")}</a></li>
                                }).collect_view()}</ul>
                            })}
                        }.into_any()
                        },
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

/// The team's progress: per expert, items done of assigned, their items in
/// adjudication and flagged unclear, and the pace their labels recorded.
#[component]
fn ExpertTable(rows: Vec<crate::server_fns::review::ExpertRow>, lang: Lang) -> impl IntoView {
    let seconds = |s: Option<f64>| s.map_or_else(|| "—".to_owned(), |s| format!("{s:.0} s"));
    let pace = |p: Option<f64>| p.map_or_else(|| "—".to_owned(), |p| format!("{p:.1}"));
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard" data-testid="expert-progress">
                <thead>
                    <tr>
                        <th>{lang.t("专家", "Expert")}</th>
                        <th class="num">{lang.t("已完成 / 分配", "Done / assigned")}</th>
                        <th class="num">{lang.t("待裁决", "In adjudication")}</th>
                        <th class="num">{lang.t("标记不清楚", "Flagged unclear")}</th>
                        <th class="num">{lang.t("每条中位用时", "Median time per item")}</th>
                        <th class="num">{lang.t("每小时条数", "Items per hour")}</th>
                    </tr>
                </thead>
                <tbody>
                    {rows.into_iter().map(|r| view! {
                        <tr data-testid=format!("expert-{}", r.expert)>
                            <td>{r.expert.clone()}</td>
                            <td class="num">{format!("{} / {}", r.done, r.assigned)}</td>
                            <td class="num">{r.in_adjudication}</td>
                            <td class="num">{r.unclear}</td>
                            <td class="num">{seconds(r.median_seconds)}</td>
                            <td class="num">{pace(r.items_per_hour)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <ExportLinks href=export_url("/review/agreement", "progress") lang testid="export-progress" />
    }
}
