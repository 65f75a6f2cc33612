//! DLawBench pages' data: the dataset's statistics, the case list and one
//! case, the leaderboard views (main and per-jurisdiction tables, style
//! sensitivity, domains, diagnostics) in the null-as-zero or valid-only
//! view, and the drill-downs to a cell's sessions and to one session. All
//! read the current DLawBench dataset version; the figures come from the
//! read models' snapshot of it.

use engine::dlawbench::query::CaseFilter;
use leptos::prelude::*;
use leptos::server_fn;

use crate::types::{
    DlawBoard, DlawCaseList, DlawCaseView, DlawCellView, DlawDatasetView, DlawSessionView,
};

#[server(prefix = "/sfn")]
pub async fn dlaw_overview() -> Result<DlawDatasetView, ServerFnError> {
    use crate::ssr::{current_dataset_of, dataset_view, fail, state};
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Dlawbench).await?;
    let cases = db::items::all::<engine::dlawbench::dataset::Case>(&state.db, dataset.id)
        .await
        .map_err(fail)?;
    let runs = db::runs::count(&state.db, dataset.id).await.map_err(fail)?;
    Ok(DlawDatasetView {
        dataset: dataset_view(&dataset),
        stats: engine::dlawbench::dataset::stats(&cases),
        runs,
    })
}

/// One page of the cases passing `filter`. The disputed share is not a
/// stored column, so the filter runs over the version's cases (kept in the
/// handle's cache). JSON-encoded: a filter with every field unset has
/// nothing to put in a form body.
#[server(prefix = "/sfn", input = server_fn::codec::Json)]
pub async fn dlaw_cases(filter: CaseFilter, page: u32) -> Result<DlawCaseList, ServerFnError> {
    use engine::dlawbench::query::CaseSummary;

    use crate::ssr::{current_dataset_of, dataset_view, fail, state};
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Dlawbench).await?;
    let cases = db::items::all::<engine::dlawbench::dataset::Case>(&state.db, dataset.id)
        .await
        .map_err(fail)?;
    let (page, per_page) = engine::core::paging::paging(Some(page), None);
    let matching: Vec<CaseSummary> = cases
        .iter()
        .filter(|c| filter.matches(c))
        .map(CaseSummary::of)
        .collect();
    let total = matching.len();
    let items = matching
        .into_iter()
        .skip((page as usize - 1) * per_page as usize)
        .take(per_page as usize)
        .collect();
    let domains = engine::dlawbench::dataset::stats(&cases)
        .domains
        .into_iter()
        .map(|d| (d.jurisdiction, d.domain))
        .collect();
    Ok(DlawCaseList {
        dataset: dataset_view(&dataset),
        page: engine::core::paging::Page {
            items,
            total: total as u64,
            page,
            per_page,
        },
        domains,
    })
}

#[server(prefix = "/sfn")]
pub async fn dlaw_case(case_id: String) -> Result<DlawCaseView, ServerFnError> {
    use crate::ssr::{current_dataset_of, dataset_view, fail, state};
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Dlawbench).await?;
    let found = db::items::get(&state.db, dataset.id, &case_id)
        .await
        .map_err(fail)?;
    Ok(DlawCaseView {
        dataset: dataset_view(&dataset),
        case: found.item,
        position: found.position + 1,
        previous: found.previous,
        next: found.next,
    })
}

/// The leaderboard in view `scores` (`null_as_zero`, the default, or
/// `valid_only`).
#[server(prefix = "/sfn")]
pub async fn dlaw_leaderboard(scores: Option<String>) -> Result<DlawBoard, ServerFnError> {
    use engine::dlawbench::leaderboard::{
        aggregation_table, diagnostics, domain_table, main_table, style_table, TableView,
    };

    use crate::ssr::{blind_review, current_dataset_of, dataset_view, fail, sight, state};
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Dlawbench).await?;
    let sight = sight().await?;
    let snapshot = state
        .read
        .dlaw_snapshot(&state.db, &dataset, sight)
        .await
        .map_err(fail)?;
    let doc = &snapshot.document;
    let view = TableView::from_query(scores.as_deref(), None).view;
    let main = main_table(
        doc,
        &TableView {
            view,
            jurisdiction: None,
        },
    );
    let jurisdictions = doc
        .cases
        .keys()
        .map(|&j| {
            main_table(
                doc,
                &TableView {
                    view,
                    jurisdiction: Some(j),
                },
            )
        })
        .collect();
    let reference = {
        let rows = state
            .read
            .reference(&state.db, engine::benchmark::Benchmark::Dlawbench)
            .await
            .map_err(fail)?;
        std::iter::once(&main)
            .chain(&jurisdictions)
            .map(|t| reference_lines(&rows, t))
            .collect()
    };
    let styles = style_table(doc, view);
    let style_charts = engine::dlawbench::score::Metric::ABILITIES
        .into_iter()
        .map(|m| (m, ssr::style_chart(doc, &styles, m)))
        .collect();
    let style_summary_chart = ssr::style_summary_chart(&styles);
    Ok(DlawBoard {
        blind: blind_review(&state.db, &dataset, sight, snapshot.left_out).await?,
        dataset: dataset_view(&dataset),
        cases: doc.cases.clone(),
        view,
        main,
        jurisdictions,
        reference,
        styles,
        style_charts,
        style_summary_chart,
        domains: domain_table(doc, &snapshot.run_scores, view, None),
        diagnostics: diagnostics(doc),
        aggregation: aggregation_table(&snapshot.run_scores),
    })
}

/// The published (and a lab's own) figures of one table (the overall one or
/// a jurisdiction's, in its view), cells in `table.columns` order, with
/// deltas against the stored entry of the same model run as published (no
/// setting).
#[cfg(feature = "ssr")]
fn reference_lines(
    rows: &[(engine::reference::ReferenceRow, String)],
    table: &engine::dlawbench::leaderboard::Table,
) -> Vec<engine::reference::ReferenceLine> {
    use engine::dlawbench::leaderboard::{reference_view, TableView};
    let name = reference_view(&TableView {
        view: table.view,
        jurisdiction: table.jurisdiction,
    });
    let keys: Vec<String> = table
        .columns
        .iter()
        .map(|m| m.as_str().to_owned())
        .collect();
    let stored: Vec<(usize, String, Vec<Option<f64>>)> = table
        .rows
        .iter()
        .filter(|r| r.setting.is_none())
        .map(|r| {
            (
                r.entry,
                r.model.clone(),
                r.cells.iter().map(|c| c.map(|m| m.mean)).collect(),
            )
        })
        .collect();
    engine::reference::reference_lines(
        engine::benchmark::Benchmark::Dlawbench,
        rows,
        &[name],
        &keys,
        &stored,
    )
}

/// The sessions behind the cell of entry (`model`, `setting`) for `metric`
/// at the level the other parameters name (a jurisdiction, a style, both,
/// a `jurisdiction/domain`, or none: overall), in view `scores`.
#[server(prefix = "/sfn")]
pub async fn dlaw_cell(
    model: String,
    setting: Option<String>,
    metric: String,
    scores: Option<String>,
    jurisdiction: Option<String>,
    style: Option<String>,
    domain: Option<String>,
) -> Result<DlawCellView, ServerFnError> {
    use engine::dlawbench::score::{Metric, View};

    use crate::components::i18n::Lang;
    use crate::ssr::{current_dataset_of, dataset_view, fail, state};
    let lang = crate::components::i18n::lang();
    let invalid = |message: String| fail(services::Error::Invalid(message));
    let metric = Metric::parse(&metric).ok_or_else(|| {
        let expected = Metric::ALL.map(Metric::as_str).join(", ");
        invalid(match lang {
            Lang::Zh => format!("未知的指标 {metric:?}；应为以下之一：{expected}"),
            Lang::En => format!("unknown metric {metric:?}; expected one of {expected}"),
        })
    })?;
    let view = match scores.as_deref() {
        None | Some("") => View::NullAsZero,
        Some(s) => View::parse(s).ok_or_else(|| {
            invalid(match lang {
                Lang::Zh => format!("未知的视图 {s:?}；应为 null_as_zero 或 valid_only"),
                Lang::En => format!("unknown view {s:?}; expected null_as_zero or valid_only"),
            })
        })?,
    };
    let level = engine::dlawbench::drilldown::Level::from_query(
        jurisdiction.as_deref(),
        style.as_deref(),
        domain.as_deref(),
        lang,
    )
    .map_err(invalid)?;
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Dlawbench).await?;
    // Panel decisions under blind review stay hidden from everyone but
    // admins: the same data the drill-down's export writes.
    let viewer = crate::ssr::current_user().await?;
    let found = services::views::dlaw_cell(
        &state,
        &dataset,
        &model,
        setting.as_deref(),
        metric,
        view,
        &level,
        viewer.as_ref(),
        lang,
    )
    .await
    .map_err(fail)?;
    let statutes = state.statutes.index(&state.db).await.map_err(fail)?;
    let citations = statutes.check(found.entry_runs().flat_map(|run| run.responses()));
    let citation_runs = found.entry_runs().count();
    Ok(DlawCellView {
        dataset: dataset_view(&dataset),
        model,
        setting,
        cell: found.cell,
        citations,
        citation_runs,
    })
}

/// Session `index` of run `run` of entry (`model`, `setting`), in full.
#[server(prefix = "/sfn")]
pub async fn dlaw_session(
    model: String,
    setting: Option<String>,
    run: u32,
    index: usize,
) -> Result<DlawSessionView, ServerFnError> {
    use crate::components::i18n::Lang;
    use crate::ssr::{current_dataset_of, dataset_view, fail, state};
    let lang = crate::components::i18n::lang();
    let state = state()?;
    let dataset = current_dataset_of(&state.db, engine::benchmark::Benchmark::Dlawbench).await?;
    let (snapshot, runs) = state
        .read
        .dlaw_runs(&state.db, &dataset, crate::ssr::sight().await?)
        .await
        .map_err(fail)?;
    let entry = ssr::entry_of(&snapshot.document, &model, setting.as_deref())?;
    let key = &snapshot.document.entries[entry].key;
    let not_found = |what: String| fail(services::Error::NotFound(what));
    let no_session = || {
        not_found(match lang {
            Lang::Zh => format!("模型 {model} 的第 {run} 次运行没有会话 {index}"),
            Lang::En => format!("run {run} of model {model} has no session {index}"),
        })
    };
    let stored = runs
        .iter()
        .find(|(k, r)| k == key && r.header.run == run)
        .map(|(_, r)| r)
        .ok_or_else(|| {
            not_found(match lang {
                Lang::Zh => format!("模型 {model} 没有第 {run} 次运行"),
                Lang::En => format!("model {model} has no run {run}"),
            })
        })?;
    let session = stored.sessions.get(index).ok_or_else(no_session)?;
    let case = snapshot
        .items
        .iter()
        .find(|c| c.case_id == session.case_id)
        .ok_or_else(|| {
            not_found(match lang {
                Lang::Zh => format!("没有案例 {}", session.case_id),
                Lang::En => format!("no case {}", session.case_id),
            })
        })?;
    let mut detail =
        engine::dlawbench::drilldown::session_detail(case, stored, index).ok_or_else(no_session)?;
    let viewer = crate::ssr::current_user().await?;
    let under_review =
        services::views::styles_under_review(&state.db, &dataset.name, &model, viewer.as_ref())
            .await
            .map_err(fail)?
            .unwrap_or_default();
    if under_review
        .iter()
        .any(|(r, c, s)| *r == run && *c == detail.case_id && *s == detail.style)
    {
        return Err(fail(services::Error::Forbidden(match lang {
            Lang::Zh => "专家正在盲评这次会话中模拟当事人的风格；评审结束后可查看。".to_owned(),
            Lang::En => "Experts are naming this session's simulated client style blind; \
                         it can be read once that review closes."
                .to_owned(),
        })));
    }
    if let Some(hidden) = ssr::hidden_sessions(&state.db, &dataset.name, &model).await? {
        if hidden
            .iter()
            .any(|(r, c, s)| *r == run && *c == detail.case_id && *s == detail.style)
        {
            detail.hide_panel();
        }
    }
    let statutes = state.statutes.index(&state.db).await.map_err(fail)?;
    let marks = statutes.mark_map(
        detail
            .memo
            .as_deref()
            .into_iter()
            .chain(detail.dialogue.iter().map(|t| t.content.as_str())),
    );
    Ok(DlawSessionView {
        dataset: dataset_view(&dataset),
        model,
        setting,
        run,
        index,
        detail,
        marks,
    })
}

/// Server-only helpers.
#[cfg(feature = "ssr")]
mod ssr {
    /// The (run, case, style) sessions of `model` whose panel decisions are
    /// kept back from the signed-in user
    /// ([`services::views::hidden_sessions`]).
    pub async fn hidden_sessions(
        db: &db::Db,
        dataset_name: &str,
        model: &str,
    ) -> Result<Option<Vec<(u32, String, Style)>>, leptos::prelude::ServerFnError> {
        let viewer = crate::ssr::current_user().await?;
        services::views::hidden_sessions(db, dataset_name, model, viewer.as_ref())
            .await
            .map_err(crate::ssr::fail)
    }

    use engine::dlawbench::dataset::Style;
    use engine::dlawbench::leaderboard::StyleTable;
    use engine::dlawbench::score::{Metric, ScoreDocument};
    use leptos::prelude::ServerFnError;

    use crate::components::i18n::{lang, Lang};

    /// The index in `doc` of the entry of `model` shown with `setting` on
    /// the leaderboard, or a 404.
    pub fn entry_of(
        doc: &ScoreDocument,
        model: &str,
        setting: Option<&str>,
    ) -> Result<usize, ServerFnError> {
        services::views::dlaw_entry(doc, model, setting, lang()).map_err(crate::ssr::fail)
    }

    /// Figure 5: per ability, one bar per style, its mean over the
    /// entries ([`StyleTable::summary`]).
    pub fn style_summary_chart(table: &StyleTable) -> String {
        use crate::charts::{grouped_bars, Axis, Series};
        let lang = lang();
        let groups: Vec<String> = Metric::ABILITIES
            .iter()
            .map(|m| m.label(lang).to_owned())
            .collect();
        let series: Vec<Series> = Style::ALL
            .iter()
            .filter_map(|s| {
                let means = table.summary.get(s)?;
                Some(Series {
                    name: s.label(lang).to_owned(),
                    values: Metric::ABILITIES
                        .iter()
                        .map(|m| means.get(m).copied().flatten().map(|v| (v, None)))
                        .collect(),
                    // A mean over entries: no whisker.
                    runs: 0,
                })
            })
            .collect();
        let (title, y_label) = match lang {
            Lang::Zh => ("各叙述风格的能力得分（条目均值）", "得分"),
            Lang::En => ("Each style's scores, mean over entries", "score"),
        };
        grouped_bars(
            title,
            &groups,
            &series,
            Axis {
                label: y_label,
                max: 1.0,
            },
        )
    }

    /// `metric` per style, one bar series per entry.
    pub fn style_chart(doc: &ScoreDocument, table: &StyleTable, metric: Metric) -> String {
        use crate::charts::{grouped_bars, Axis, Series};
        let lang = lang();
        let groups: Vec<String> = Style::ALL
            .iter()
            .map(|s| s.label(lang).to_owned())
            .collect();
        let series: Vec<Series> = table
            .entries
            .iter()
            .map(|e| Series {
                name: e.model.clone(),
                values: Style::ALL
                    .iter()
                    .map(|s| {
                        e.styles
                            .get(s)
                            .and_then(|v| v.get(&metric).copied().flatten())
                            .map(|m| (m.mean, m.std))
                    })
                    .collect(),
                runs: doc.entries.get(e.entry).map_or(0, |d| d.runs),
            })
            .collect();
        let (title, y_label) = match lang {
            Lang::Zh => (format!("各风格的{}", metric.label_zh()), metric.label_zh()),
            Lang::En => (format!("{} by style", metric.label_en()), metric.label_en()),
        };
        // 0–1, as the table beside it.
        grouped_bars(
            &title,
            &groups,
            &series,
            Axis {
                label: y_label,
                max: 1.0,
            },
        )
    }
}
