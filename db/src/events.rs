//! A feed of committed changes. Writers announce what they committed
//! (`Db::notify`, called after the transaction commits, never before); pages
//! that show that data live ([`Db::subscribe`]) refetch when it arrives. The
//! feed is per process: it is a convenience for open pages, not a log, and a
//! subscriber that falls behind is told to refetch everything.

use serde::{Deserialize, Serialize};

use crate::Db;

/// How many changes a slow subscriber may fall behind before it is told it lagged.
pub const CAPACITY: usize = 64;

/// One committed change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// Runs were stored (or replaced) for a dataset version.
    RunsStored {
        dataset_id: i64,
        /// The models of the stored runs.
        models: Vec<String>,
    },
    /// A corrected case made a new dataset version.
    CaseCorrected { dataset_id: i64, case_id: String },
    /// A review item was created, assigned, labelled or adjudicated; 0 when a
    /// batch of items changed at once (creation, auto-assignment). Carries no
    /// label: who may see one is decided when the page refetches.
    ReviewChanged { item_id: i64 },
    /// Articles of law were imported (citations on pages resolve anew).
    StatutesImported { import_id: i64 },
    /// A benchmark job was created, progressed or changed status. Carries no
    /// settings: the page refetches what its viewer may see.
    JobProgress {
        job_id: i64,
        status: crate::jobs::JobStatus,
    },
}

impl Change {
    /// The name of the server-sent event that carries this change.
    pub fn event_name(&self) -> &'static str {
        match self {
            Self::RunsStored { .. } => "runs",
            Self::CaseCorrected { .. } => "cases",
            Self::ReviewChanged { .. } => "review",
            Self::StatutesImported { .. } => "statutes",
            Self::JobProgress { .. } => "jobs",
        }
    }
}

impl Db {
    /// A receiver of every change committed from now on.
    pub fn subscribe(&self) -> tokio::sync::broadcast::Receiver<Change> {
        self.changes.subscribe()
    }

    /// Announces a committed change. Having no subscriber is not an error.
    pub(crate) fn notify(&self, change: Change) {
        if !matches!(change, Change::JobProgress { .. }) {
            self.data_changes
                .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        }
        let _ = self.changes.send(change);
    }

    /// How many changes of the stored data (runs, cases, review; not a job's
    /// progress) were committed through this handle and its clones. It goes
    /// up before the writer returns, so a cache keyed on it is stale for
    /// every request that comes after the write.
    pub fn data_changes(&self) -> u64 {
        self.data_changes.load(std::sync::atomic::Ordering::Acquire)
    }
}
