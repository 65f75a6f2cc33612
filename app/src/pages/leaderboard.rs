//! The live per-class leaderboard, one view per task (the paper's Tables 2, 3
//! and 14): rows are entries grouped by family, columns the six classes and
//! overall, cells mean ± sample std over the entry's runs. The view, the sort
//! column and the LJP setup live in the URL, so every state is a shareable
//! link and works without JavaScript.

use engine::metrics::MeanStd;
use engine::run::{Family, Task};
use engine::score::{EntryScores, ScoreDocument};
use engine::vocab::{Class, LjpSetup};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::components::labels::{ErrorBox, Loading, SyntheticNotice};
use crate::server_fns::leaderboard::get_leaderboard;

/// What the page shows: a task, for LJP the setup of the per-class columns,
/// and the column rows are sorted by (best first) within each family.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    pub task: Task,
    pub setup: LjpSetup,
    pub sort: Option<String>,
}

impl View {
    pub fn from_query(task: Option<String>, setup: Option<String>, sort: Option<String>) -> View {
        View {
            task: task.as_deref().and_then(Task::parse).unwrap_or(Task::Lca),
            setup: setup
                .as_deref()
                .and_then(LjpSetup::parse)
                .unwrap_or(LjpSetup::Interaction),
            sort,
        }
    }

    pub fn url(&self, sort: Option<&str>) -> String {
        let mut url = format!("/leaderboard?task={}", self.task.as_str());
        if self.task == Task::Ljp {
            url.push_str(&format!("&setup={}", self.setup.as_str()));
        }
        if let Some(sort) = sort {
            url.push_str(&format!("&sort={sort}"));
        }
        url
    }
}

/// A table ready to render: column keys and labels, rows with their cells,
/// and per column the best mean (the highest).
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub columns: Vec<(String, String)>,
    pub rows: Vec<Row>,
    pub best: Vec<Option<f64>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub model: String,
    pub family: Option<Family>,
    pub runs: usize,
    pub cells: Vec<Option<MeanStd>>,
}

type Pick = Box<dyn Fn(&EntryScores) -> Option<MeanStd>>;

fn per_class(
    pick: impl Fn(&EntryScores, Option<Class>) -> Option<MeanStd> + Copy + 'static,
) -> Vec<(String, String, Pick)> {
    Class::ALL
        .into_iter()
        .map(|c| {
            (
                c.as_str().to_owned(),
                c.label_en().to_owned(),
                Box::new(move |e: &EntryScores| pick(e, Some(c))) as Pick,
            )
        })
        .chain(std::iter::once((
            "overall".to_owned(),
            "Overall".to_owned(),
            Box::new(move |e: &EntryScores| pick(e, None)) as Pick,
        )))
        .collect()
}

fn scalar(value: Option<Option<f64>>) -> Option<MeanStd> {
    value.flatten().map(|mean| MeanStd { mean, std: None })
}

fn columns(view: &View) -> Vec<(String, String, Pick)> {
    match view.task {
        Task::Lca => {
            let mut cols = per_class(|e, c| e.lca.as_ref()?.get(c)?.as_ref()?.macro_f1);
            cols.push((
                "acc_complete".into(),
                "Acc_C".into(),
                Box::new(|e| e.lca.as_ref()?.overall.as_ref()?.acc_complete),
            ));
            cols.push((
                "acc_underspecified".into(),
                "Acc_U".into(),
                Box::new(|e| e.lca.as_ref()?.overall.as_ref()?.acc_underspecified),
            ));
            cols
        }
        Task::Dcg => per_class(|e, c| e.dcg.as_ref()?.get(c)?.as_ref()?.accuracy),
        Task::Ljp => {
            let setup = view.setup;
            let mut cols: Vec<(String, String, Pick)> = Class::ALL
                .into_iter()
                .map(|c| {
                    let pick: Pick = Box::new(move |e: &EntryScores| {
                        e.ljp
                            .as_ref()?
                            .by_class
                            .get(&c)?
                            .setups
                            .get(&setup)
                            .copied()
                            .flatten()?
                            .qwk
                    });
                    (c.as_str().to_owned(), c.label_en().to_owned(), pick)
                })
                .collect();
            for s in LjpSetup::ALL {
                let pick: Pick = Box::new(move |e: &EntryScores| {
                    e.ljp
                        .as_ref()?
                        .overall
                        .setups
                        .get(&s)
                        .copied()
                        .flatten()?
                        .qwk
                });
                cols.push((
                    format!("overall_{}", s.as_str()),
                    format!("Overall {}", s.label_en()),
                    pick,
                ));
            }
            cols.push((
                "gain".into(),
                "Gain".into(),
                Box::new(|e| scalar(e.ljp.as_ref().map(|l| l.overall.gain.flatten()))),
            ));
            cols.push((
                "relative_degradation".into(),
                "Rel. degradation".into(),
                Box::new(|e| {
                    scalar(
                        e.ljp
                            .as_ref()
                            .map(|l| l.overall.relative_degradation.flatten()),
                    )
                }),
            ));
            cols
        }
    }
}

fn family_rank(f: Option<Family>) -> usize {
    match f {
        Some(Family::Legal) => 0,
        Some(Family::Open) => 1,
        Some(Family::Closed) => 2,
        None => 3,
    }
}

/// Builds the table of `view` from the score document: entries that lack the
/// task are left out; rows are grouped by family (legal, open, closed, other)
/// and, within a family, sorted by the `sort` column (best first, missing last).
pub fn build_table(doc: &ScoreDocument, view: &View) -> Table {
    let cols = columns(view);
    let mut rows: Vec<Row> = doc
        .entries
        .iter()
        .filter(|e| match view.task {
            Task::Lca => e.lca.is_some(),
            Task::Dcg => e.dcg.is_some(),
            Task::Ljp => e.ljp.is_some(),
        })
        .map(|e| Row {
            model: e.model.clone(),
            family: e.family,
            runs: e.runs,
            cells: cols.iter().map(|(_, _, pick)| pick(e)).collect(),
        })
        .collect();
    let sort_index = view
        .sort
        .as_deref()
        .and_then(|key| cols.iter().position(|(k, _, _)| k == key));
    rows.sort_by(|a, b| {
        let by_family = family_rank(a.family).cmp(&family_rank(b.family));
        let by_value = sort_index.map_or(std::cmp::Ordering::Equal, |i| {
            let value = |r: &Row| r.cells[i].map(|m| m.mean);
            match (value(a), value(b)) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            }
        });
        by_family.then(by_value)
    });
    let best = (0..cols.len())
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.cells[i].map(|m| m.mean))
                .max_by(f64::total_cmp)
        })
        .collect();
    Table {
        columns: cols.into_iter().map(|(k, l, _)| (k, l)).collect(),
        rows,
        best,
    }
}

fn format_cell(m: &MeanStd) -> String {
    match m.std {
        Some(std) => format!("{:.4} ± {std:.4}", m.mean),
        None => format!("{:.4}", m.mean),
    }
}

#[component]
pub fn LeaderboardPage() -> impl IntoView {
    let query = use_query_map();
    let view =
        move || query.with(|q| View::from_query(q.get("task"), q.get("setup"), q.get("sort")));
    let data = Resource::new(|| (), |_| get_leaderboard());
    view! {
        <Title text="Leaderboard" />
        <section class="panel">
            <h1>"Leaderboard 排行榜"</h1>
            <nav class="tabs" aria-label="Tasks">
                {move || {
                    let current = view();
                    Task::ALL
                        .into_iter()
                        .map(|t| {
                            let v = View { task: t, setup: current.setup, sort: None };
                            let selected = t == current.task;
                            view! {
                                <a href=v.url(None) class:selected=selected aria-current=selected.then_some("page")>
                                    {t.as_str().to_uppercase()} " · " {t.label_zh()}
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
                            "Per-class columns show the setup: "
                            {LjpSetup::ALL
                                .into_iter()
                                .map(|s| {
                                    let v = View { setup: s, ..current.clone() };
                                    let selected = s == current.setup;
                                    view! { <a href=v.url(current.sort.as_deref()) class:selected=selected>{s.label_en()}</a> " " }
                                })
                                .collect_view()}
                        </p>
                    }
                })
            }}
            <Suspense fallback=Loading>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(board) => {
                            let current = view();
                            let table = build_table(&board.scores, &current);
                            view! {
                                <SyntheticNotice synthetic=board.dataset.synthetic />
                                <p class="dataset-line">
                                    "Scores on " <strong>{board.dataset.name.clone()}</strong> " version " {board.dataset.version}
                                    " (" {board.scores.cases} " cases) · mean ± sample std over each entry's runs · click a column to sort"
                                </p>
                                <LeaderboardTable table view=current />
                            }
                                .into_any()
                        }
                        Err(e) => view! { <ErrorBox error=e /> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn LeaderboardTable(table: Table, view: View) -> impl IntoView {
    if table.rows.is_empty() {
        return view! { <p class="empty">"No run of this task has been uploaded yet. 尚无该任务的结果。"</p> }.into_any();
    }
    let mut last_family: Option<Option<Family>> = None;
    let width = table.columns.len() + 2;
    let rows = table
        .rows
        .iter()
        .flat_map(|row| {
            let heading = (last_family != Some(row.family)).then(|| {
                last_family = Some(row.family);
                let label = row.family.map_or("Other 其他".to_owned(), |f| {
                    format!("{} {}", f.label_en(), f.label_zh())
                });
                view! { <tr class="family-row"><th colspan=width>{label}</th></tr> }
            });
            let cells = row
                .cells
                .iter()
                .zip(&table.best)
                .map(|(cell, best)| {
                    let is_best = matches!((cell, best), (Some(c), Some(b)) if c.mean == *b);
                    match cell {
                        Some(m) => {
                            view! { <td class="num" class:best=is_best>{format_cell(m)}</td> }
                                .into_any()
                        }
                        None => view! { <td class="num muted">"—"</td> }.into_any(),
                    }
                })
                .collect_view();
            [
                Some(
                    view! {
                        <tr>
                            <td class="model">{row.model.clone()}</td>
                            <td class="num muted">{row.runs}</td>
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
    view! {
        <div class="table-scroll">
            <table class="leaderboard" data-testid="leaderboard">
                <thead>
                    <tr>
                        <th>"Model 模型"</th>
                        <th class="num">"Runs"</th>
                        {table
                            .columns
                            .iter()
                            .map(|(key, label)| {
                                let sorted = view.sort.as_deref() == Some(key.as_str());
                                view! {
                                    <th class="num" aria-sort=if sorted { "descending" } else { "none" }>
                                        <a href=view.url(Some(key))>{label.clone()} {sorted.then_some(" ▼")}</a>
                                    </th>
                                }
                            })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="legend"><span class="best">"Bold"</span> " = best mean in the column. Items the judge could not label are left out of the scores, never counted as wrong."</p>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(model: &str, family: Option<Family>, f1: Option<f64>) -> EntryScores {
        let summary = f1.map(|mean| engine::score::LcaSummary {
            macro_f1: Some(MeanStd {
                mean,
                std: Some(0.01),
            }),
            acc_complete: None,
            acc_underspecified: None,
        });
        EntryScores {
            model: model.to_owned(),
            family,
            runs: 2,
            lca: Some(engine::score::Breakdown {
                overall: summary,
                by_class: Class::ALL.into_iter().map(|c| (c, None)).collect(),
            }),
            dcg: None,
            ljp: None,
            key: Default::default(),
        }
    }

    fn doc(entries: Vec<EntryScores>) -> ScoreDocument {
        ScoreDocument {
            dataset: None,
            cases: 10,
            entries,
        }
    }

    #[test]
    fn rows_group_by_family_then_sort_best_first() {
        let d = doc(vec![
            entry("C1", Some(Family::Closed), Some(0.6)),
            entry("L1", Some(Family::Legal), Some(0.4)),
            entry("C2", Some(Family::Closed), Some(0.7)),
            entry("O1", Some(Family::Open), None),
        ]);
        let view = View {
            task: Task::Lca,
            setup: LjpSetup::Interaction,
            sort: Some("overall".into()),
        };
        let t = build_table(&d, &view);
        let models: Vec<_> = t.rows.iter().map(|r| r.model.as_str()).collect();
        assert_eq!(models, ["L1", "O1", "C2", "C1"]);
        let overall = t
            .columns
            .iter()
            .position(|(k, _)| k == "overall")
            .expect("overall column");
        assert_eq!(t.best[overall], Some(0.7));
        assert_eq!(t.best[0], None, "a column with no value has no best");
    }

    #[test]
    fn entries_without_the_task_are_left_out() {
        let d = doc(vec![entry("A", None, Some(0.5))]);
        let view = View::from_query(Some("dcg".into()), None, None);
        assert!(build_table(&d, &view).rows.is_empty());
        assert_eq!(
            View::from_query(Some("nope".into()), None, None).task,
            Task::Lca
        );
    }

    #[test]
    fn urls_keep_the_view() {
        let v = View::from_query(Some("ljp".into()), Some("gold".into()), None);
        assert_eq!(
            v.url(Some("gain")),
            "/leaderboard?task=ljp&setup=gold&sort=gain"
        );
    }
}
