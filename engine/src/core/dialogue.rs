//! A dialogue as a dataset holds it: a list of [`Turn`]s, each a role and
//! what it says (LexPilot's consultations; the shared line reader,
//! `core::lines`, reads one straight into it). A benchmark that
//! keeps more per turn (DLawBench's sessions: action, attempts, usage) has
//! a turn type of its own.

use serde::{Deserialize, Serialize};

use crate::vocab::Role;

/// One turn of a dialogue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: String,
}
