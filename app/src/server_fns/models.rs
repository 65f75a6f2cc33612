//! A model's page (its runs and per-run scores) and the comparison of two
//! entries by paired bootstrap.

use leptos::prelude::*;

use crate::types::{CompareView, ModelView};

/// Every stored run of `model` on the current dataset, grouped into entries;
/// 404 when it has none.
#[server(prefix = "/sfn")]
pub async fn get_model(model: String) -> Result<ModelView, ServerFnError> {
    use db::DbError;
    use engine::lexpilot::entries::group_runs;
    use engine::lexpilot::leaderboard::{build_table, View};
    use engine::lexpilot::run::Task;
    use engine::lexpilot::score::{summarise_entry, RunScores, ScoreDocument};

    use crate::ssr::{blind_review, current_dataset, dataset_view, fail, sight, state};
    use crate::types::{ModelEntryView, RunRow};
    use engine::lang::Lang;

    let lang = crate::components::i18n::lang();

    let state = state()?;
    let db = &state.db;
    let dataset = current_dataset(db).await?;
    let runs = db::runs::model_runs(db, dataset.id, &model)
        .await
        .map_err(fail)?;
    if runs.is_empty() {
        return Err(fail(DbError::NotFound(format!(
            "no run of model \"{model}\" has been uploaded for this dataset"
        ))));
    }
    // Each run's scores as the leaderboard counts them for this viewer
    // (without decisions under blind review, but for admins); a run stored
    // after the snapshot was read waits for the next one.
    let sight = sight().await?;
    let snapshot = state
        .read
        .snapshot(db, &dataset, sight)
        .await
        .map_err(fail)?;
    let cases = &snapshot.cases;
    let runs: Vec<(db::runs::ModelRun, RunScores)> = runs
        .into_iter()
        .filter_map(|run| {
            let scores = snapshot.run_scores(run.info.id)?.clone();
            Some((run, scores))
        })
        .collect();
    // The leaderboard's entries: the same grouping, whatever the order.
    let groups = group_runs(
        runs.iter()
            .map(|(r, scores)| (&r.entry_key, scores.parts())),
    );
    let entries = groups
        .into_iter()
        .map(|group| {
            let key = group.key;
            let runs: Vec<&(db::runs::ModelRun, RunScores)> =
                group.runs.iter().map(|&i| &runs[i]).collect();
            // One row per run, then the entry itself.
            let mut rows: Vec<_> = runs
                .iter()
                .map(|(r, scores)| {
                    let mut k = key.clone();
                    k.model = match lang {
                        Lang::Zh => format!("第 {} 次运行", r.info.run_number),
                        Lang::En => format!("Run {}", r.info.run_number),
                    };
                    summarise_entry(k, std::slice::from_ref(scores), cases)
                })
                .collect();
            let all: Vec<_> = runs.iter().map(|(_, scores)| scores.clone()).collect();
            let mut mean_key = key.clone();
            mean_key.model = match lang {
                Lang::Zh => format!("均值 ± 标准差（{} 次运行）", runs.len()),
                Lang::En => format!("Mean ± std ({} runs)", runs.len()),
            };
            rows.push(summarise_entry(mean_key, &all, cases));
            let doc = ScoreDocument {
                dataset: None,
                cases: cases.len(),
                entries: rows,
            };
            let tables = Task::ALL
                .into_iter()
                .map(|task| {
                    let view = View::from_query(Some(task.as_str().into()), None, None);
                    (task, build_table(&doc, &view))
                })
                .filter(|(_, t)| !t.rows.is_empty())
                .collect();
            let mut setting = Vec::new();
            for (name, value) in [
                ("judge", &key.judge),
                ("user model", &key.user_model),
                ("dataset", &key.dataset),
            ] {
                if let Some(v) = value {
                    setting.push((name.to_owned(), v.clone()));
                }
            }
            for (name, value) in &key.extra {
                let shown = value
                    .as_str()
                    .map_or_else(|| value.to_string(), str::to_owned);
                setting.push((name.clone(), shown));
            }
            ModelEntryView {
                setting,
                family: key.family,
                runs: runs
                    .iter()
                    .map(|(r, _)| RunRow {
                        run: r.info.run_number,
                        created_at: r.info.created_at.clone(),
                        uploaded_by: r.uploaded_by.clone(),
                        unavailable: r.info.unavailable,
                    })
                    .collect(),
                tables,
            }
        })
        .collect();
    Ok(ModelView {
        blind: blind_review(db, &dataset, sight, snapshot.left_out).await?,
        dataset: dataset_view(&dataset),
        model,
        entries,
    })
}

/// Entry `a` against entry `b` (by model; the first entry of that model) on
/// every score, over all cases or `class`. Without both, only the pickers.
#[server(prefix = "/sfn")]
pub async fn compare(
    a: Option<String>,
    b: Option<String>,
    class: Option<String>,
) -> Result<CompareView, ServerFnError> {
    use axum::http::StatusCode;
    use engine::lexpilot::score::Metric;
    use engine::vocab::{Class, Vocabulary};

    use crate::ssr::{blind_review, current_dataset, dataset_view, fail, set_status, sight, state};
    use crate::types::CompareRow;

    let lang = crate::components::i18n::lang();
    use services::read::RESAMPLES;

    let class = match class
        .as_deref()
        .filter(|c| !c.is_empty() && *c != "overall")
    {
        None => None,
        Some(c) => Some(Class::parse(c).ok_or_else(|| {
            set_status(StatusCode::BAD_REQUEST);
            ServerFnError::new(format!(
                "unknown class \"{c}\"; expected overall or one of {}",
                Class::expected()
            ))
        })?),
    };
    let state = state()?;
    let dataset = current_dataset(&state.db).await?;
    let sight = sight().await?;
    let snapshot = state
        .read
        .sampled(&state.db, &dataset, sight)
        .await
        .map_err(fail)?;
    let mut models: Vec<String> = Vec::new();
    for key in snapshot.keys() {
        if !models.contains(&key.model) {
            models.push(key.model.clone());
        }
    }
    let entry = |name: &Option<String>| -> Result<Option<usize>, ServerFnError> {
        match name.as_deref().filter(|n| !n.is_empty()) {
            None => Ok(None),
            Some(n) => snapshot.entry_of(n).map(Some).ok_or_else(|| {
                set_status(StatusCode::NOT_FOUND);
                ServerFnError::new(format!("no entry of model \"{n}\" on this dataset"))
            }),
        }
    };
    let (ea, eb) = (entry(&a)?, entry(&b)?);
    if let (Some(ea), Some(eb)) = (ea, eb) {
        let entries = &snapshot.document.entries;
        let reasons = engine::lexpilot::entries::not_comparable(&entries[ea].key, &entries[eb].key);
        if !reasons.is_empty() {
            set_status(StatusCode::CONFLICT);
            return Err(ServerFnError::new(format!(
                "{} and {} cannot be compared: they were produced with different settings ({})",
                entries[ea].model,
                entries[eb].model,
                reasons.join("; ")
            )));
        }
    }
    let rows = match (ea, eb) {
        (Some(ea), Some(eb)) => {
            let results = state
                .read
                .compare(&snapshot, ea, eb, Metric::ALL.to_vec(), class)
                .await
                .map_err(fail)?;
            let value = |entry: usize, metric, class| {
                snapshot.sample(entry).and_then(|s| s.value(metric, class))
            };
            results
                .into_iter()
                .map(|(metric, result)| CompareRow {
                    metric: metric.label_in(lang),
                    a: value(ea, metric, class),
                    b: value(eb, metric, class),
                    result,
                })
                .filter(|r| r.a.is_some() || r.b.is_some())
                .collect()
        }
        _ => Vec::new(),
    };
    Ok(CompareView {
        blind: blind_review(&state.db, &dataset, sight, snapshot.left_out).await?,
        dataset: dataset_view(&dataset),
        models,
        a,
        b,
        class,
        rows,
        resamples: RESAMPLES,
    })
}
