//! The commands, as library functions the thin CLI calls. Each opens the build context once
//! ([`crate::context::BuildContext`]), hands it down the stages and returns a report value;
//! the CLI decides how to print it.

pub mod analyzer;
pub mod build;
pub mod config;
pub mod distro;
pub mod doc;
pub mod doctor;
pub mod extmod;
pub mod fmt;
mod kernel_make;
pub mod log;
pub mod matrix;
pub mod plan;
pub mod rustc;
pub mod target;
pub mod test;
pub mod timings;
pub mod why;

pub use crate::context::{fallback_minimums, BuildContext, Tree, TreeOpts};
pub use crate::fsutil::canonical;
