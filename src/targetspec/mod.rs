//! Stage 3b: the target — which `--target` rustc gets for an architecture, the `-C`/`-Z`
//! flags that go with it, and, where a custom spec is needed, the spec file itself.
//!
//! Today's kernel keeps the custom spec minimal (only x86 needs one) and says everything else
//! with built-in targets and flags, because the spec format is unstable; this module follows
//! the tree's vintage. The spec text for x86 is the kernel generator's, byte for byte: rustc
//! identifies a custom target by a hash of the file, so the same inputs must give the same bytes.
//!
//! Its parts, each with its tests:
//! - `choice`: the style and the target for one configuration ([`target_for`]), where the spec
//!   lives ([`spec_path`]), the 2021 per-rule target ([`cross_flags`]);
//! - `arch_flags`: the flags an `arch/*/Makefile` adds, read from the architecture's
//!   description (`templates/arch/`, [`crate::arch`]) — no architecture is named in code;
//! - `kernel_x86`: the kernel's `scripts/generate_rust_target.rs` for x86;
//! - [`spec`], [`schema`], [`check`]: rkbuild's self-contained specs (`--target-style json`),
//!   lowered through the table of rustc's schema changes, checked against a real rustc.
//!
//! Out of scope: the rest of KBUILD_RUSTFLAGS (`flags`, which asks [`arch_flags`] for its arch
//! section), and the facts of each architecture (data, `crate::arch`).

mod arch_flags;
pub mod check;
mod choice;
mod kernel_x86;
pub mod schema;
pub mod spec;

pub use arch_flags::{arch_flags, builtin_flags, modkern_arch_flags, module_c_flags};
pub use choice::{cross_flags, spec_path, target_for, tree_spec, uses_spec, Target, TargetStyle};
pub use kernel_x86::kernel_x86_spec;
pub use schema::Note;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SpecError {
    #[error("{0}")]
    Unsupported(String),
    #[error("CONFIG_RUSTC_VERSION is missing or not a number; the target spec depends on it")]
    NoRustcVersion,
}
