//! The live per-class leaderboard, one view per task (the paper's Tables 2, 3
//! and 14): rows are entries grouped by family, columns the six classes and
//! overall, cells mean ± sample std over the entry's runs. The view, the sort
//! column and the LJP setup live in the URL, so every state is a shareable
//! link and works without JavaScript. Every value links to its drill-down
//! ([`crate::pages::drilldown`]). Values are shown to three decimals with
//! their 95% bootstrap interval on a line of its own (no hover needed), and
//! the best of each column is bold as the column's direction says (the
//! lowest relative degradation).

use engine::core::columns::{Better, Scale};
use engine::core::entry::Family;
use engine::lang::Lang;
use engine::lexpilot::drilldown::Cell;
use engine::lexpilot::leaderboard::View;
use engine::lexpilot::run::Task;
use engine::vocab::{Class, LjpSetup};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::components::labels::{BlindNote, ErrorBox, Loading, SyntheticNotice};
use crate::components::live::{use_live_of, LiveBadge};
use crate::pages::compare::compare_url;
use crate::pages::drilldown::drilldown_url;
use crate::pages::model::model_url;
use crate::server_fns::leaderboard::get_leaderboard;
use crate::types::LeaderboardView;
use engine::benchmark::Benchmark;

/// The page URL of `view` sorted by `sort`.
pub fn view_url(view: &View, sort: Option<&str>) -> String {
    let mut url = format!("/leaderboard?task={}", view.task.as_str());
    if view.task == Task::Ljp {
        url.push_str(&format!("&setup={}", view.setup.as_str()));
    }
    if let Some(sort) = sort {
        url.push_str(&format!("&sort={sort}"));
    }
    url
}

#[component]
pub fn LeaderboardPage() -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let query = use_query_map();
    let view =
        move || query.with(|q| View::from_query(q.get("task"), q.get("setup"), q.get("sort")));
    let live = use_live_of(
        Benchmark::Lexpilot.as_str(),
        &["runs", "cases", "reference"],
    );
    let data = Resource::new(
        move || (view(), live.changes.get()),
        |(v, _)| {
            get_leaderboard(
                Some(v.task.as_str().to_owned()),
                Some(v.setup.as_str().to_owned()),
                v.sort,
            )
        },
    );
    view! {
        <Title text=lang.t("排行榜", "Leaderboard") />
        <section class="panel">
            <h1>{lang.t("排行榜", "Leaderboard")} " " <LiveBadge live /></h1>
            <nav class="tabs" aria-label=lang.t("任务", "Tasks")>
                {move || {
                    let current = view();
                    Task::ALL
                        .into_iter()
                        .map(|t| {
                            let v = View { task: t, setup: current.setup, sort: None };
                            let selected = t == current.task;
                            view! {
                                <a href=view_url(&v, None) class:selected=selected aria-current=selected.then_some("page")>
                                    {t.as_str().to_uppercase()} " · " {t.label(lang)}
                                </a>
                            }
                        })
                        .collect_view()
                }}
            </nav>
            {move || {
                let current = view();
                (current.task == Task::Ljp).then(|| {
                    view! {
                        <p class="setups">
                            {lang.t("各类别列显示的设置：", "Per-class columns show the setup: ")}
                            {LjpSetup::ALL
                                .into_iter()
                                .map(|s| {
                                    let v = View { setup: s, ..current.clone() };
                                    let selected = s == current.setup;
                                    view! { <a href=view_url(&v, current.sort.as_deref()) class:selected=selected>{s.label(lang)}</a> " " }
                                })
                                .collect_view()}
                        </p>
                    }
                })
            }}
            <Transition fallback=Loading>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(board) => {
                            let current = view();
                            view! {
                                <SyntheticNotice synthetic=board.dataset.synthetic />
                                <BlindNote note=board.blind />
                                <p class="dataset-line">
                                    {match lang {
                                        Lang::Zh => view! {
                                            "数据集 " <strong>{board.dataset.name.clone()}</strong>
                                            {format!(" 第 {} 版（{} 个案例）上的得分 · 各条目多次运行的均值 ± 样本标准差，其下方括号内为按案例 bootstrap 的 95% 置信区间 · 点击数值查看其背后的条目 · 点击列名排序", board.dataset.version, board.cases)}
                                        }.into_any(),
                                        Lang::En => view! {
                                            "Scores on " <strong>{board.dataset.name.clone()}</strong> " version " {board.dataset.version}
                                            " (" {lang.count(board.cases as u64, "", "case", "cases")} ") · mean ± sample std over each entry's runs, with its 95% bootstrap interval over cases in brackets below · click a value for the items behind it · click a column to sort"
                                        }.into_any(),
                                    }}
                                </p>
                                <LeaderboardTable board view=current />
                            }
                                .into_any()
                        }
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

/// The tooltip of a cell: what its interval (shown below the value) is.
fn interval_title(lang: Lang, ci: Option<(f64, f64)>) -> Option<String> {
    ci.map(|ci| {
        let ci = Scale::Unit.interval(ci);
        match lang {
            Lang::Zh => format!("95% 置信区间 {ci}（按案例 bootstrap，1000 次重抽样）"),
            Lang::En => format!("95% CI {ci} (bootstrap over cases, 1000 resamples)"),
        }
    })
}

/// The mark beside a lower-is-better column's name, and what it says.
pub(crate) fn lower_is_better(lang: Lang, better: Better) -> Option<impl IntoView> {
    (better == Better::Lower).then(|| {
        let said = lang.t("越低越好", "lower is better");
        view! { " " <span class="lower-better" title=said aria-label=said>"↓"</span> }
    })
}

/// A sortable header's `aria-sort` and the arrow after its name: a sort
/// puts the best first, so a lower-is-better column sorts ascending (▲).
pub(crate) fn sort_state(sorted: bool, better: Better) -> (&'static str, Option<&'static str>) {
    match (sorted, better.ascending()) {
        (false, _) => ("none", None),
        (true, true) => ("ascending", Some(" ▲")),
        (true, false) => ("descending", Some(" ▼")),
    }
}

/// A column's name in `lang` ([`engine::lexpilot::leaderboard::column_label`]).
pub(crate) fn column_label(lang: Lang, key: &str, label: &str) -> String {
    engine::lexpilot::leaderboard::column_label(lang, key, label)
}

/// The columns over every class; a phone shows them first.
fn is_overall(key: &str) -> bool {
    key == "overall" || key.starts_with("overall_")
}

#[component]
fn LeaderboardTable(board: LeaderboardView, view: View) -> impl IntoView {
    let lang = crate::components::i18n::lang();
    let LeaderboardView {
        table,
        intervals,
        chart,
        reference,
        ..
    } = board;
    if table.rows.is_empty() {
        return view! { <p class="empty">{lang.t("尚无该任务的结果。", "No run of this task has been uploaded yet.")}</p> }.into_any();
    }
    let mut last_family: Option<Option<Family>> = None;
    let width = table.columns.len() + 2;
    let rows = table
        .rows
        .iter()
        .zip(intervals)
        .enumerate()
        .flat_map(|(r, (row, row_intervals))| {
            let heading = (last_family != Some(row.family)).then(|| {
                last_family = Some(row.family);
                let label = row.family.map_or(lang.t("其他", "Other"), |f| f.label(lang));
                view! { <tr class="family-row"><th colspan=width>{label}</th></tr> }
            });
            let cells = row
                .cells
                .iter()
                .zip(&table.columns)
                .zip(row_intervals)
                .enumerate()
                .map(|(c, ((cell, column), ci))| {
                    let key = column.key.as_str();
                    let label = column_label(lang, key, &column.label);
                    let is_best = table.is_best(r, c);
                    let overall = is_overall(key);
                    let scale = Scale::Unit;
                    match cell {
                        Some(m) => {
                            let href = drilldown_url(&row.model, &Cell::of_column(&view, key));
                            view! {
                                <td class="num" class:best=is_best class:overall=overall data-label=label.clone()
                                    title=interval_title(lang, ci) data-ci=ci.is_some().then_some("true")>
                                    <a href=href class="cell-link">
                                        <span class="mean">{scale.value(m.mean)}</span>
                                        {m.std.map(|std| view! { " " <span class="std">"± " {scale.value(std)}</span> })}
                                        {ci.map(|ci| view! { <span class="ci" data-testid="interval">{scale.interval(ci)}</span> })}
                                    </a>
                                </td>
                            }
                            .into_any()
                        }
                        None => view! { <td class="num muted" class:overall=overall data-label=label.clone()>"—"</td> }.into_any(),
                    }
                })
                .collect_view();
            [
                Some(
                    view! {
                        <tr>
                            <td class="model">
                                <a href=model_url(&row.model)>{row.model.clone()}</a>
                                {row.setting.clone().map(|c| view! { <span class="setting" title=lang.t("用户条件", "user condition")>{c}</span> })}
                                {(!row.not_comparable.is_empty()).then(|| view! {
                                    <span class="flag" data-testid="incomparable-flag"
                                          title=format!("{}{}", lang.t("与其他条目不可比：", "Not comparable with the other entries: "), row.not_comparable.join("; "))>
                                        {lang.t("≠ 设置", "≠ setting")}
                                    </span>
                                })}
                                {(row.unavailable > 0).then(|| view! {
                                    <span class="flag" data-testid="unavailable-flag"
                                          title=match lang {
                                              Lang::Zh => format!("评审无法标注的 {} 个条目不计入该条目得分", row.unavailable),
                                              Lang::En => format!("{} the judge could not label are left out of this entry's scores", lang.count(row.unavailable as u64, "", "item", "items")),
                                          }>
                                        "⚠ " {row.unavailable} {lang.t(" 无法标注", " unavailable")}
                                    </span>
                                })}
                            </td>
                            <td class="num muted runs" data-label=lang.t("运行次数", "Runs")>{row.runs}</td>
                            {cells}
                        </tr>
                    }
                    .into_any(),
                ),
                heading.map(IntoAny::into_any),
            ]
            .into_iter()
            .rev()
            .flatten()
            .collect::<Vec<_>>()
        })
        .collect_view();
    let labels: Vec<String> = table
        .columns
        .iter()
        .map(|c| column_label(lang, &c.key, &c.label))
        .collect();
    let reference_rows = crate::components::reference::reference_rows(
        lang,
        &reference,
        &labels,
        engine::core::columns::Scale::Unit,
        crate::components::reference::Lead::Model,
    );
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="leaderboard cards" data-testid="leaderboard">
                <thead>
                    <tr>
                        <th>{lang.t("模型", "Model")}</th>
                        <th class="num">{lang.t("运行次数", "Runs")}</th>
                        {table
                            .columns
                            .iter()
                            .map(|column| {
                                let key = column.key.as_str();
                                let (sort, arrow) = sort_state(view.sort.as_deref() == Some(key), column.better);
                                view! {
                                    <th class="num" class:overall=is_overall(key) aria-sort=sort data-better=column.better.as_str()>
                                        <a href=view_url(&view, Some(key)) title=Class::parse(key).map(|c| c.label(lang))>
                                            {column_label(lang, key, &column.label)}
                                            {lower_is_better(lang, column.better)}
                                            {arrow}
                                        </a>
                                    </th>
                                }
                            })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>{rows}{reference_rows}</tbody>
            </table>
        </div>
        <p class="exports">
            {lang.t("导出此表：", "Export this table: ")}
            {["csv", "json", "latex"]
                .into_iter()
                .map(|format| {
                    let href = format!(
                        "/api/leaderboard/export?task={}&setup={}&format={format}{}",
                        view.task.as_str(),
                        view.setup.as_str(),
                        view.sort.as_deref().map(|s| format!("&sort={s}")).unwrap_or_default(),
                    );
                    view! { <a href=href rel="external" download>{format.to_uppercase()}</a> " " }
                })
                .collect_view()}
        </p>
        <p class="legend">{match lang {
            Lang::Zh => view! { <span class="best">"粗体"</span> " = 该列最佳均值（标 ↓ 的列越低越好，其余越高越好）；方括号 = 95% 置信区间。⚠ = 该条目有评审无法标注的条目，这些条目不计入得分，也不算作错误。≠ 设置 = 所用数据集、评审模型、用户模拟模型或提示词与多数条目不同（悬停查看差异；模型页列出全部设置），比较时请注意。" }.into_any(),
            Lang::En => view! { <span class="best">"Bold"</span> " = best mean in the column (lowest in a column marked ↓, highest elsewhere); brackets = 95% interval. ⚠ = the entry has items the judge could not label; they are left out of its scores, never counted as wrong. ≠ setting = produced with another dataset, judge, user model or prompt than most entries (hover for what differs; the model page lists every setting); compare it with care." }.into_any(),
        }}</p>
        <figure class="chart-figure" data-testid="leaderboard-chart" inner_html=chart></figure>
        <p><a href=compare_url(table.rows.first().map(|r| r.model.as_str()), table.rows.get(1).map(|r| r.model.as_str()))>{lang.t("比较两个条目（配对 bootstrap）→", "Compare two entries (paired bootstrap) →")}</a></p>
        <p><a href="/paper" data-testid="paper-link">{lang.t("论文中的其他表格与图（表 3、15–17；图 3、4）→", "The paper's other tables and figures (Tables 3, 15–17; Figures 3, 4) →")}</a></p>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_keep_the_view() {
        let v = View::from_query(Some("ljp".into()), Some("gold".into()), None);
        assert_eq!(
            view_url(&v, Some("gain")),
            "/leaderboard?task=ljp&setup=gold&sort=gain"
        );
    }
}
