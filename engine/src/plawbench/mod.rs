//! PLawBench (`docs/benchmarks/plawbench.md`).

pub mod dataset;
pub mod json;
pub mod judge;
pub mod run;
pub mod score;
