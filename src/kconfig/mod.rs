//! Stage 1: the kernel configuration.
//!
//! [`dotconfig`] reads `.config`/`auto.conf` with the kernel's own rules; [`rustc_cfg`] writes
//! `include/generated/rustc_cfg` as the kernel's kconfig does. Reading the tree's Kconfig (symbol
//! types, defaults, dependencies) lives beside them and only refines what these two do: a bare
//! `.config` is always enough to produce flags.

pub mod dotconfig;
pub mod eval;
pub mod explain;
pub mod macros;
pub mod rustc_cfg;
pub mod session;
pub mod tree;

pub use dotconfig::{DotConfig, Format, Tristate, Value};

/// A Kconfig symbol type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SymType {
    Bool,
    Tristate,
    Int,
    Hex,
    String,
}
