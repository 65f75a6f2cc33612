//! One module per page. Each page loads its data through a server function
//! resource and renders it; the route table is in [`crate::routes`].

pub mod admin_runs;
pub mod admin_users;
pub mod case_edit;
pub mod case_list;
pub mod case_page;
pub mod compare;
pub mod dlawbench;
pub mod drilldown;
pub mod fidelity_probes;
pub mod leaderboard;
pub mod model;
pub mod not_found;
pub mod overview;
pub mod paper;
pub mod plawbench;
pub mod review;
pub mod review_admin;
pub mod review_item;
pub mod sign_in;
pub mod upload;
