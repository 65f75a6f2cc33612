//! Pieces shared by pages.

pub mod dialogue;
pub mod header;
pub mod history;
pub mod labels;
pub mod live;
