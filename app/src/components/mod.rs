//! Pieces shared by pages.

pub mod cited;
pub mod dialogue;
pub mod exports;
pub mod header;
pub mod history;
pub mod i18n;
pub mod labels;
pub mod live;
pub mod reference;
pub mod textarea;
pub mod turn_editor;
