//! The LexPilot paper's other results (Tables 3, 4, 13, 15, 16, 17; Figures 3
//! and 4) over the current dataset's stored runs, with their SVG figures.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::types::DatasetView;

/// The paper page: every view and the figures drawn from them.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
pub struct PaperPage {
    pub dataset: DatasetView,
    pub blind: crate::types::BlindReview,
    pub views: engine::lexpilot::paper::PaperViews,
    /// Figure 3: LCA and DCG per cause against complexity (SVG, empty
    /// without points).
    pub figure_3_lca: String,
    pub figure_3_dcg: String,
    /// Figure 4 (a), (b) and (c) as bars.
    pub figure_4a: String,
    pub figure_4b: String,
    pub figure_4c: String,
    /// The entries Figure 4 (b) averages over.
    pub figure_4b_models: engine::lexpilot::paper::Figure4bModels,
    /// Table 13: the user-simulator fidelity study of the version, with the
    /// review's current labels (`None` without a study).
    pub fidelity: Option<engine::lexpilot::fidelity::StudyView>,
}

/// The paper's views of the current LexPilot dataset, Figure 4 (b) over
/// the entries `figure_4b` names (`closed`, the default, or `all`).
#[server(prefix = "/sfn")]
pub async fn get_paper(figure_4b: Option<String>) -> Result<PaperPage, ServerFnError> {
    use engine::lexpilot::paper::Figure4bModels;

    use crate::components::i18n::Lang;
    use crate::ssr::{blind_review, current_dataset, dataset_view, fail, sight, state};

    let figure_4b = match figure_4b.as_deref() {
        None | Some("") => Figure4bModels::default(),
        Some(s) => Figure4bModels::parse(s).ok_or_else(|| {
            fail(services::Error::Invalid(
                match crate::components::i18n::lang() {
                    Lang::Zh => format!("图 4 (b) 的模型范围 {s:?} 无效；应为 closed 或 all"),
                    Lang::En => format!("figure_4b: {s:?} is not valid; expected closed or all"),
                },
            ))
        })?,
    };
    let state = state()?;
    let dataset = current_dataset(&state.db).await?;
    let sight = sight().await?;
    let snapshot = state
        .read
        .sampled(&state.db, &dataset, sight)
        .await
        .map_err(fail)?;
    let views = snapshot.paper(figure_4b);
    let fidelity = services::fidelity::view(&state.db, &dataset)
        .await
        .map_err(fail)?;
    let blind = blind_review(&state.db, &dataset, sight, snapshot.left_out).await?;
    Ok(ssr::page(
        dataset_view(&dataset),
        blind,
        views,
        fidelity,
        figure_4b,
    ))
}

#[cfg(feature = "ssr")]
mod ssr {
    use engine::lexpilot::paper::{Figure4bModels, PaperTable, PaperViews};

    use super::PaperPage;
    use crate::charts::{grouped_bars, scatter, Axis, Points, Series};
    use crate::types::DatasetView;

    /// Bars of `table`'s rows (not its summary rows, unless `summaries`)
    /// over its columns, on `axis` (the table's own values: scores on 0–1,
    /// counts on a count axis).
    fn bars(table: &PaperTable, title: &str, axis: Axis, summaries: bool) -> String {
        let groups: Vec<String> = table.columns.iter().map(|c| c.label.clone()).collect();
        let series: Vec<Series> = table
            .rows
            .iter()
            .filter(|r| r.summary == summaries)
            .map(|r| Series {
                name: r.label.clone(),
                values: r.cells.iter().map(|c| c.map(|m| (m.mean, m.std))).collect(),
                // Every value here is a mean over runs without its std.
                runs: 0,
            })
            .collect();
        grouped_bars(title, &groups, &series, axis)
    }

    pub fn page(
        dataset: DatasetView,
        blind: crate::types::BlindReview,
        views: PaperViews,
        fidelity: Option<engine::lexpilot::fidelity::StudyView>,
        figure_4b_models: Figure4bModels,
    ) -> PaperPage {
        let lang = crate::components::i18n::lang();
        let points =
            |pick: fn(&engine::lexpilot::paper::CausePoint) -> Option<f64>| -> Vec<Points> {
                views
                    .figure_3
                    .series
                    .iter()
                    .map(|s| Points {
                        name: s.model.clone(),
                        points: s
                            .points
                            .iter()
                            .filter_map(|p| Some((p.complexity, pick(p)?)))
                            .collect(),
                    })
                    .filter(|p| !p.points.is_empty())
                    .collect()
            };
        let x = lang.t("判决引用法条数（均值）", "provisions cited per judgment");
        let accuracy = lang.t("准确率", "accuracy");
        let unit = Axis {
            label: accuracy,
            max: 1.0,
        };
        let figure_3_lca = scatter(
            lang.t("各案由的 LCA Macro-F1", "LCA Macro-F1 per cause"),
            &points(|p| p.lca),
            x,
            "Macro-F1",
        );
        let figure_3_dcg = scatter(
            lang.t("各案由的 DCG 准确率", "DCG accuracy per cause"),
            &points(|p| p.dcg),
            x,
            accuracy,
        );
        let figure_4a = bars(
            &views.figure_4.by_type,
            lang.t("(a) 各争议焦点类型的 DCG", "(a) DCG per focal-point type"),
            unit,
            false,
        );
        let figure_4b = bars(
            &views.figure_4.by_class,
            match figure_4b_models {
                Figure4bModels::Closed => lang.t(
                    "(b) 各类别的 DCG（闭源模型均值）",
                    "(b) DCG per class, mean over the closed-source models",
                ),
                Figure4bModels::All => lang.t(
                    "(b) 各类别的 DCG（全部条目均值）",
                    "(b) DCG per class, mean over all entries",
                ),
            },
            unit,
            true,
        );
        // Counts, as the table beside the chart, up to the next ten.
        let largest = views
            .figure_4
            .types_per_class
            .rows
            .iter()
            .flat_map(|r| r.cells.iter().flatten().map(|m| m.mean))
            .fold(1.0_f64, f64::max);
        let figure_4c = bars(
            &views.figure_4.types_per_class,
            lang.t(
                "(c) 各类别中每种类型的争议焦点数",
                "(c) focal points per type and class",
            ),
            Axis {
                label: lang.t("争议焦点数", "focal points"),
                max: (largest / 10.0).ceil() * 10.0,
            },
            false,
        );
        PaperPage {
            dataset,
            blind,
            views,
            figure_3_lca,
            figure_3_dcg,
            figure_4a,
            figure_4b,
            figure_4c,
            figure_4b_models,
            fidelity,
        }
    }
}
