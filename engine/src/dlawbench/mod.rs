//! The DLawBench benchmark (`docs/benchmarks/dlawbench.md` Part A): a
//! lawyer model interviews a simulated client in one of four narrative
//! styles, then writes a memo; a judge panel (same-vendor judges recuse)
//! decides, fact by fact and rubric item by rubric item, what it elicited
//! and resolved. [`DLawBench`] puts it behind the engine's one benchmark
//! interface ([`crate::benchmark::Suite`]).

pub mod dataset;
pub mod run;
