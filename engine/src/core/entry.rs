//! What every benchmark's run header says of the leaderboard entry it
//! belongs to: the [`EntryKey`] that groups runs into entries, and the
//! model's [`Family`] (`legal`, `open`, `closed`), the groups of the
//! leaderboards.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::vocab::vocabulary;

vocabulary! {
    /// The group an evaluated model belongs to (the LexPilot paper's tables).
    Family, kind "family" {
        /// Models trained for law.
        Legal = "legal", zh "法律大模型", en "Legal LLMs";
        /// General models with open weights.
        Open = "open", zh "开源通用大模型", en "Open-Source General LLMs";
        /// General models behind an API only.
        Closed = "closed", zh "闭源通用大模型", en "Closed-Source General LLMs";
    }
}

/// What a run's header says of the leaderboard entry it belongs to
/// (`docs/formats.md` §3): the model and every header field except `run`
/// and `created_at`. Which runs form one entry is each benchmark's to
/// decide: runs with equal keys always do, and for LexPilot
/// (`lexpilot::entries::group_runs`) so do runs whose keys differ only in
/// what describes parts the other run lacks (the prompts of another task or
/// LJP setup, the user model of a run that never called one).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EntryKey {
    /// The evaluated model's name.
    pub model: String,
    /// The model's group.
    pub family: Option<Family>,
    /// The dataset's name.
    pub dataset: Option<String>,
    /// The judge model.
    pub judge: Option<String>,
    /// The model that played the user.
    pub user_model: Option<String>,
    /// The other header keys.
    pub extra: Map<String, Value>,
}
