//! `rust-project.json` for rust-analyzer: the kernel's crates (and out-of-tree modules) as a
//! crate graph the editor can load without cargo.
//!
//! Three layers, lowest first:
//!
//! * [`project_json`]: serde types that mirror rust-analyzer's `project_json.rs` one to one,
//!   and the kernel script's exact rendering (sorted keys, 4-space indent, no final newline).
//! * [`graph`]: rkbuild's crate graph ([`CrateGraph`], dependencies by name) and its
//!   conversion into the file. A build plan can produce a [`CrateGraph`] directly; this is the
//!   point where "the crates the build compiles" becomes "the crates the editor sees".
//! * [`kernel`] + [`discover`]: the graph `scripts/generate_rust_analyzer.py` builds for each
//!   vintage (2021, 6.12, 7.3), with drivers found as Kbuild builds them and sorted.
//! * [`plan`]: the graph of a build plan, exactly the crates `rkbuild build` compiles, with
//!   their real cfgs (`--from-plan`).
//! * [`log`]: the file straight from a wrapper log (`rkbuild log`): exactly the crates the
//!   kernel's own make compiled.
//!
//! Out of scope: running rust-analyzer, and building what it needs at run time
//! (`libmacros.so`, the bindgen output) — `rkbuild build` or `make prepare` does that.

pub mod discover;
pub mod graph;
pub mod kernel;
pub mod log;
pub mod plan;
pub mod project_json;

pub use graph::{CrateGraph, CrateSpec, ProcMacroKey, Role};
pub use project_json::ProjectJson;
