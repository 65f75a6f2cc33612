//! Pieces shared by pages.

pub mod dialogue;
pub mod header;
pub mod labels;
pub mod live;
