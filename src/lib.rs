//! rkbuild: Kbuild for the Rust side of the Linux kernel.
//!
//! Data flows one way through the stages, one module each:
//!
//! ```text
//! toolchain ──▶ kconfig ──▶ flags + targetspec ──▶ plan ──▶ exec
//!                                                   │
//!                                                   ├──▶ analyzer
//!                                                   └──▶ wrapper
//! ```
//!
//! `toolchain` asks the tools what they are, `kconfig` reads the configuration (its Kconfig
//! probes the tools), `flags` and `targetspec` are pure mappings from those two and the kernel's
//! layout description (`layout`) to rustc arguments, `plan` is the crate graph with each compile
//! step, and `exec` runs it. Every child process goes through [`process`]; every
//! generated file through [`fsutil::write_if_changed`]. See ARCHITECTURE.md.

pub mod analyzer;
pub mod arch;
mod builtin;
pub mod cache;
pub mod commands;
pub mod context;
pub mod exec;
pub mod flags;
pub mod fsutil;
#[doc(hidden)]
pub mod fuzzcheck;
pub mod kconfig;
pub mod layout;
pub mod makefile;
pub mod mapping;
pub mod output;
pub mod plan;
pub mod process;
pub mod targetspec;
pub mod toolchain;
pub mod tree;
pub mod wrapper;
