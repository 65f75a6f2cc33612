//! Plain-text score tables for the terminal (`lexpilot score` without `--json`):
//! one table per leaderboard entry, rows the scores, columns the six classes
//! and overall, cells `mean±std`.

use engine::lexpilot::score::{Breakdown, EntryScores, LjpSummary, ScoreDocument};
use engine::metrics::MeanStd;
use engine::vocab::{Class, LjpSetup};

const HEADERS: [&str; 7] = [
    "Family",
    "RealRights",
    "Tort",
    "Service",
    "Finance",
    "Misc",
    "Overall",
];

fn cell(value: Option<MeanStd>) -> String {
    match value {
        None => "—".to_owned(),
        Some(MeanStd {
            mean,
            std: Some(std),
        }) => format!("{mean:.4}±{std:.4}"),
        Some(MeanStd { mean, std: None }) => format!("{mean:.4}"),
    }
}

/// The cells of one score across the classes then overall.
fn row<T>(scores: &Breakdown<Option<T>>, pick: impl Fn(&T) -> Option<MeanStd>) -> Vec<String> {
    Class::ALL
        .iter()
        .map(|c| {
            scores
                .by_class
                .get(c)
                .and_then(Option::as_ref)
                .and_then(&pick)
        })
        .chain(std::iter::once(scores.overall.as_ref().and_then(&pick)))
        .map(cell)
        .collect()
}

fn entry_rows(entry: &EntryScores) -> Vec<(String, Vec<String>)> {
    let mut rows = Vec::new();
    if let Some(lca) = &entry.lca {
        rows.push(("LCA macro-F1".to_owned(), row(lca, |s| s.macro_f1)));
        rows.push(("LCA Acc_C".to_owned(), row(lca, |s| s.acc_complete)));
        rows.push(("LCA Acc_U".to_owned(), row(lca, |s| s.acc_underspecified)));
    }
    if let Some(dcg) = &entry.dcg {
        rows.push(("DCG accuracy".to_owned(), row(dcg, |s| s.accuracy)));
    }
    if let Some(ljp) = &entry.ljp {
        for setup in LjpSetup::ALL {
            if !ljp.overall.setups.contains_key(&setup) {
                continue;
            }
            let cells = Class::ALL
                .iter()
                .map(|c| ljp.by_class.get(c))
                .chain(std::iter::once(Some(&ljp.overall)))
                .map(|s| {
                    cell(
                        s.and_then(|s| s.setups.get(&setup))
                            .copied()
                            .flatten()
                            .and_then(|s| s.qwk),
                    )
                })
                .collect();
            rows.push((format!("LJP QWK {}", setup.as_str()), cells));
        }
        let scalar =
            |v: Option<Option<f64>>| cell(v.flatten().map(|mean| MeanStd { mean, std: None }));
        let scalars = |f: fn(&LjpSummary) -> Option<Option<f64>>| -> Vec<String> {
            Class::ALL
                .iter()
                .map(|c| ljp.by_class.get(c).and_then(f))
                .chain(std::iter::once(f(&ljp.overall)))
                .map(scalar)
                .collect()
        };
        rows.push(("LJP gain".to_owned(), scalars(|s| s.gain)));
        rows.push((
            "LJP rel. degradation".to_owned(),
            scalars(|s| s.relative_degradation),
        ));
    }
    rows
}

/// The whole document as text tables.
pub fn render(doc: &ScoreDocument) -> String {
    let mut out = String::new();
    if let Some(name) = &doc.dataset {
        out.push_str(&format!("dataset {name}, {} cases\n", doc.cases));
    }
    for entry in &doc.entries {
        let family = entry.family.map(|f| f.as_str()).unwrap_or("no family");
        out.push_str(&format!(
            "\n{} ({family}, {} run{})\n",
            entry.model,
            entry.runs,
            if entry.runs == 1 { "" } else { "s" }
        ));
        let rows = entry_rows(entry);
        let label_width = rows
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        let widths: Vec<usize> = (0..HEADERS.len())
            .map(|i| {
                rows.iter()
                    .map(|(_, cells)| cells.get(i).map_or(0, |c| c.chars().count()))
                    .chain(std::iter::once(HEADERS[i].len()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        out.push_str(&format!("{:label_width$}", ""));
        for (h, w) in HEADERS.iter().zip(&widths) {
            out.push_str(&format!("  {h:>w$}"));
        }
        out.push('\n');
        for (label, cells) in rows {
            out.push_str(&format!("{label:label_width$}"));
            for (c, w) in cells.iter().zip(&widths) {
                let pad = w.saturating_sub(c.chars().count());
                out.push_str(&format!("  {}{c}", " ".repeat(pad)));
            }
            out.push('\n');
        }
    }
    out
}

/// A PLawBench score document as text: per entry the official columns
/// (×100, two decimals, ± the sample std over runs; — where the entry has
/// none) and evalscope's
/// per-sample OVERALL, then the unavailable and truncated counts.
pub fn render_plawbench(doc: &engine::plawbench::score::ScoreDocument) -> String {
    use engine::plawbench::score::Metric;
    let percent = |v: Option<MeanStd>| match v {
        None => "—".to_owned(),
        Some(MeanStd {
            mean,
            std: Some(std),
        }) => format!("{:.2}±{:.2}", mean * 100.0, std * 100.0),
        Some(MeanStd { mean, std: None }) => format!("{:.2}", mean * 100.0),
    };
    let mut out = String::new();
    if let Some(name) = &doc.dataset {
        let items: usize = doc.items.values().sum();
        out.push_str(&format!("dataset {name}, {items} items\n"));
    }
    for entry in &doc.entries {
        let family = entry
            .model_family
            .as_deref()
            .or(entry.family.map(|f| f.as_str()))
            .unwrap_or("no family");
        out.push_str(&format!(
            "\n{} ({family}, {} run{})\n",
            entry.model,
            entry.runs,
            if entry.runs == 1 { "" } else { "s" }
        ));
        let rows: Vec<(&str, String)> = Metric::ALL
            .into_iter()
            .map(|m| {
                (
                    m.label(),
                    percent(engine::plawbench::leaderboard::entry_metric(entry, m)),
                )
            })
            .collect();
        let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
        for (label, value) in rows {
            out.push_str(&format!("{label:width$}  {value:>13}\n"));
        }
        let counts = |map: &std::collections::BTreeMap<engine::plawbench::dataset::Task, usize>| {
            map.iter()
                .filter(|(_, n)| **n > 0)
                .map(|(t, n)| format!("{} {n}", t.as_str()))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let unavailable = counts(&entry.counts.unavailable);
        if !unavailable.is_empty() {
            out.push_str(&format!("unavailable: {unavailable}\n"));
        }
        let truncated = counts(&entry.counts.truncated);
        if !truncated.is_empty() {
            out.push_str(&format!("truncated: {truncated}\n"));
        }
    }
    out
}

/// What an evalscope import would store, for the terminal: per model folder
/// its runs, the reconciliation with evalscope's report and the warnings.
pub fn render_import(prepared: &engine::plawbench::evalscope::ImportPreview) -> String {
    let mut out = format!(
        "evalscope output for dataset {} version {}\n",
        prepared.dataset, prepared.dataset_version
    );
    let num = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |v| format!("{v:.4}"));
    for folder in &prepared.folders {
        out.push_str(&format!("\n{} ({})\n", folder.model, folder.model_id));
        for r in &folder.runs {
            out.push_str(&format!(
                "  run {}: {} items, {} unavailable\n",
                r.run, r.items, r.unavailable
            ));
        }
        out.push_str(
            "  reconciliation with the report (subsets |Δ| ≤ 5e-5, OVERALL as evalscope \
             rounds it, equal num):\n",
        );
        for check in &folder.reconciliation.subsets {
            out.push_str(&format!(
                "    {:<20} {:<15} recomputed {} (n {}), report {} (n {})  {}\n",
                check.task.as_str(),
                check.metric,
                num(check.recomputed),
                check.num,
                num(check.reported),
                check
                    .reported_num
                    .map_or_else(|| "—".to_owned(), |n| n.to_string()),
                if check.ok { "ok" } else { "MISMATCH" }
            ));
        }
        for check in &folder.reconciliation.overall {
            out.push_str(&format!(
                "    {:<20} {:<15} recomputed {} (n {}), report {} (n {})  {}\n",
                "OVERALL",
                check.metric,
                num(check.recomputed),
                check.num,
                num(check.reported),
                check
                    .reported_num
                    .map_or_else(|| "—".to_owned(), |n| n.to_string()),
                if check.ok { "ok" } else { "MISMATCH" }
            ));
        }
        for item in &folder.reconciliation.items {
            out.push_str(&format!(
                "    item {} generation {} {}: review {:.6}, imported {}  MISMATCH\n",
                item.item_id,
                item.generation,
                item.metric,
                item.review,
                item.imported
                    .map_or_else(|| "—".to_owned(), |v| format!("{v:.6}"))
            ));
        }
        for warning in &folder.warnings {
            out.push_str(&format!("  warning: {warning}\n"));
        }
    }
    out
}

/// A DLawBench score document as text: per entry the main table's seven
/// columns, overall and per jurisdiction, in the null-as-zero view (three
/// decimals, ± the sample std over runs; — where the entry has none), then
/// its task failures, unavailable and degraded sessions.
pub fn render_dlawbench(doc: &engine::dlawbench::score::ScoreDocument) -> String {
    use engine::dlawbench::leaderboard::{format_cell, COLUMN_GROUPS};
    use engine::dlawbench::score::View;
    let columns: Vec<_> = COLUMN_GROUPS
        .iter()
        .flat_map(|(_, c)| c.iter().copied())
        .collect();
    let mut out = String::new();
    if let Some(name) = &doc.dataset {
        let cases: usize = doc.cases.values().sum();
        out.push_str(&format!("dataset {name}, {cases} cases\n"));
    }
    let width = columns
        .iter()
        .map(|m| m.label_en().len())
        .max()
        .unwrap_or(0);
    for entry in &doc.entries {
        out.push_str(&format!(
            "\n{} ({}, {} run{})\n",
            entry.model,
            entry.family.map_or("no family", |f| f.as_str()),
            entry.runs,
            if entry.runs == 1 { "" } else { "s" }
        ));
        let view = entry.view(View::NullAsZero);
        let mut levels = vec![("overall".to_owned(), view.overall.as_ref())];
        levels.extend(
            view.by_jurisdiction
                .iter()
                .map(|(j, s)| (j.as_str().to_owned(), Some(s))),
        );
        out.push_str(&format!("{:width$}", ""));
        for (label, _) in &levels {
            out.push_str(&format!("  {label:>15}"));
        }
        out.push('\n');
        for metric in &columns {
            out.push_str(&format!("{:width$}", metric.label_en()));
            for (_, summary) in &levels {
                let value = summary
                    .and_then(|s| s.get(metric).copied().flatten())
                    .map_or_else(|| "—".to_owned(), |m| format_cell(&m));
                out.push_str(&format!("  {value:>15}"));
            }
            out.push('\n');
        }
        let c = &entry.counts;
        out.push_str(&format!(
            "{} sessions: {} task failures, {} unavailable, {} degraded\n",
            c.sessions,
            c.failed(),
            c.unavailable,
            c.degraded
        ));
    }
    out
}
