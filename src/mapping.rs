//! The words the pure mappings of stage 3 share: what they read ([`Ctx`]: the configuration,
//! the toolchain, the tree's vintage and arch, how the trees are spelled), what they give (one
//! rustc argument with the reason it is there, [`Flag`]), and which object a compile makes
//! ([`ObjKind`]).
//!
//! It sits below both halves of the stage, `flags` (the `KBUILD_RUSTFLAGS` sections) and
//! `targetspec` (the target and its arch flags), so that `flags` can ask `targetspec` for the
//! arch section without `targetspec` reaching back up. Rules live in those two modules; this
//! one holds no rule beyond how a gate or a symbol is explained.

use crate::kconfig::DotConfig;
use crate::layout::{Facts, When};
use crate::toolchain::RustcInfo;
use crate::tree::{Arch, Vintage};

/// One rustc argument and why it is there.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Flag {
    pub arg: String,
    pub why: String,
}

impl Flag {
    pub fn new(arg: impl Into<String>, why: impl Into<String>) -> Flag {
        Flag {
            arg: arg.into(),
            why: why.into(),
        }
    }
}

/// Just the arguments.
pub fn args(flags: &[Flag]) -> Vec<String> {
    flags.iter().map(|f| f.arg.clone()).collect()
}

/// Everything the mapping depends on.
#[derive(Clone, Debug)]
pub struct Ctx<'a> {
    pub cfg: &'a DotConfig,
    pub rustc: &'a RustcInfo,
    pub vintage: Vintage,
    pub arch: Arch,
    /// `KRUSTFLAGS`, already split into words.
    pub krustflags: Vec<String>,
    /// How the object tree is spelled in arguments (Kbuild runs rustc in the object tree and
    /// writes `.`).
    pub objtree: String,
    /// How the source tree is spelled in arguments.
    pub srctree: String,
    /// The source tree is not the object tree (`make O=…`): 7.3 then remaps source paths.
    pub out_of_srctree: bool,
    /// The detected rustc accepts `--remap-path-scope` (probed by the toolchain stage).
    pub has_remap_path_scope: bool,
}

/// Which kind of object a compile makes: built into the kernel image, or part of a module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjKind {
    Kernel,
    Module,
}

/// Why a gate holds for this configuration and rustc (`rustc 1.85.0 < 1.86.0`,
/// `CONFIG_X86_KERNEL_IBT=y (.config:12)`): what `--explain` says for a gated entry.
pub fn gate_why(cfg: &DotConfig, rustc: &RustcInfo, w: &When) -> String {
    let mut parts = vec![];
    if let Some(a) = &w.rustc_at_least {
        parts.push(format!("rustc {} >= {a}", rustc.version));
    }
    if let Some(b) = &w.rustc_below {
        parts.push(format!("rustc {} < {b}", rustc.version));
    }
    for s in &w.config {
        parts.push(sym(cfg, s.trim_start_matches('!')));
    }
    if parts.is_empty() {
        parts.push(w.describe());
    }
    parts.join(", ")
}

/// `CONFIG_X=value (file:line)` or `CONFIG_X is not set`, for explanations.
pub fn sym(cfg: &DotConfig, name: &str) -> String {
    match (cfg.get(name), cfg.origin(name)) {
        (Some(crate::kconfig::Value::Tristate(crate::kconfig::Tristate::No)), Some(at)) => {
            format!("CONFIG_{name} is not set ({at})")
        }
        (Some(v), Some(at)) => format!("CONFIG_{name}={v} ({at})"),
        _ => format!("CONFIG_{name} is not set"),
    }
}

impl Facts for Ctx<'_> {
    fn rustc(&self) -> (u64, u64, u64) {
        let v = &self.rustc.version;
        (v.major, v.minor, v.patch)
    }

    fn on(&self, name: &str) -> bool {
        self.cfg.enabled(name)
    }

    /// Only the plan asks this (a layout's optional generated files).
    fn exists(&self, rel: &str) -> bool {
        std::path::Path::new(&self.srctree).join(rel).exists()
    }
}

impl Ctx<'_> {
    /// Why a gate of the layout holds (`rustc 1.85.0 < 1.86.0`).
    pub fn gate_why(&self, w: &When) -> String {
        gate_why(self.cfg, self.rustc, w)
    }

    /// `CONFIG_X=value (file:line)` or `CONFIG_X is not set`, for explanations.
    pub fn sym(&self, name: &str) -> String {
        sym(self.cfg, name)
    }

    pub fn on(&self, name: &str) -> bool {
        self.cfg.enabled(name)
    }

    fn rustc_is(&self, at_least: (u64, u64, u64)) -> String {
        let (a, b, c) = at_least;
        let cmp = if self.rustc.at_least(a, b, c) {
            ">="
        } else {
            "<"
        };
        format!("rustc {} {cmp} {a}.{b}.{c}", self.rustc.version)
    }

    /// `rustc_version_atleast` with the reason text.
    pub fn rustc_at_least(&self, a: u64, b: u64, c: u64) -> (bool, String) {
        (self.rustc.at_least(a, b, c), self.rustc_is((a, b, c)))
    }
}
