//! The probes of the user-simulator fidelity study (Table 13): the sheet of
//! sampled cases the experts write them on, and saving one. Experts and
//! admins only; every probe is checked on the server against its case.

// `save_probe` takes one argument per form field (the `#[server]` macro's
// browser caller is not reached by an attribute on the function).
#![allow(clippy::too_many_arguments)]

use engine::lexpilot::fidelity::ProbeSheet;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::types::DatasetView;

/// The probe-writing page of the current LexPilot dataset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbePage {
    pub dataset: DatasetView,
    pub sheet: ProbeSheet,
}

/// The sampled cases of the current LexPilot dataset with their probes
/// (stored, else drafts).
#[server(prefix = "/sfn")]
pub async fn get_probe_sheet() -> Result<ProbePage, ServerFnError> {
    use crate::ssr::{current_dataset, dataset_view, db, fail, require};

    require(engine::accounts::Permission::Review).await?;
    let db = db()?;
    let dataset = current_dataset(&db).await?;
    let sheet = services::fidelity::probe_sheet(&db, &dataset)
        .await
        .map_err(fail)?;
    Ok(ProbePage {
        dataset: dataset_view(&dataset),
        sheet,
    })
}

/// Stores the probe of case `case_id` on the current LexPilot dataset,
/// replacing the case's; `true` when the case had none. D is asked when
/// `ask_withheld` is given, with `withheld` (one key fact per line) as the
/// simulator's key facts. Refused (400, naming each field at fault) when it
/// breaks a rule, (403) when the case's probe is another expert's (its
/// author or an admin may change it), and (409) once the study's replies
/// exist.
#[server(prefix = "/sfn")]
pub async fn save_probe(
    case_id: String,
    fact: String,
    direct: String,
    indirect: String,
    broad: String,
    minimum_answer: String,
    permitted: Option<String>,
    ask_withheld: Option<String>,
    withheld: Option<String>,
) -> Result<bool, ServerFnError> {
    use engine::lexpilot::fidelity::Probe;

    use crate::ssr::{current_dataset, db, fail, require};

    let user = require(engine::accounts::Permission::Review).await?;
    let probe = Probe {
        case_id,
        fact,
        direct,
        indirect,
        broad,
        minimum_answer,
        permitted: permitted.unwrap_or_default(),
        withheld_key_facts: ask_withheld.map(|_| {
            withheld
                .unwrap_or_default()
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_owned)
                .collect()
        }),
    };
    let db = db()?;
    let dataset = current_dataset(&db).await?;
    let by = engine::accounts::Replacer::of(user.id, user.role);
    let saved = services::fidelity::save_probe(&db, &dataset, probe, Some(user.id), by)
        .await
        .map_err(fail)?;
    Ok(saved.created > 0)
}
