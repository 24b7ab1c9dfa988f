//! The kernel's crate graph as `scripts/generate_rust_analyzer.py` lays it out, per vintage.
//!
//! The crates under `rust/`, their order and dependencies are fixed facts of each vintage (the
//! script hard-codes them too). What varies with the tree and toolchain is read, not assumed:
//! per-crate cfgs and envs come from the `<crate>-cfgs` / `<crate>-envs` variables of the tree's
//! `rust/Makefile` (read by [`crate::makefile`] as Kbuild reads it, for the detected rustc, e.g.
//! proc_macro2's span cfgs from 1.88), the sysroot crates' edition from its `core-edition`, the
//! proc-macro file names from rustc.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::discover::FoundCrate;
use super::graph::{CrateGraph, CrateSpec, ProcMacroKey, Role};
use crate::makefile::{Includes, Loc, Reader, Scope, UNKNOWN};
use crate::plan::kbuild::around::Kbuild;
use crate::tree::Vintage;

/// Gates that only ask the rustc version (the analyzer knows no configuration here).
struct VersionOnly((u64, u64, u64));

impl crate::layout::Facts for VersionOnly {
    fn rustc(&self) -> (u64, u64, u64) {
        self.0
    }
    fn on(&self, _: &str) -> bool {
        false
    }
    fn exists(&self, _: &str) -> bool {
        false
    }
}

/// The env every crate gets (the kernel's `RUST_MODFILE` is read by the `module!` macro).
pub const RUST_MODFILE: &str = "This is only for rust-analyzer";

/// Everything the in-tree graph is made from.
#[derive(Clone, Debug)]
pub struct KernelInputs {
    pub vintage: Vintage,
    /// Resolved (`realpath`) source and object trees, as Kbuild passes them.
    pub srctree: PathBuf,
    pub objtree: PathBuf,
    pub sysroot: PathBuf,
    pub sysroot_src: PathBuf,
    /// rustc's version as Kbuild numbers it (1.85.0 → 108500).
    pub rustc_version: u64,
    /// The lines of `include/generated/rustc_cfg` without `--cfg=`.
    pub generated_cfg: Vec<String>,
    /// The text of `rust/Makefile` (empty if the tree has none).
    pub rust_makefile: String,
    /// `lib` and `.so` around a proc macro's crate name (`rustc --print file-names`).
    pub proc_macro_affixes: (String, String),
    pub host_programs: Vec<(String, PathBuf)>,
    /// Drivers and samples: found by [`super::discover`], or the crates of a build plan.
    pub drivers: Vec<FoundCrate>,
}

impl KernelInputs {
    /// How the file writes `is_proc_macro` in this vintage.
    pub fn proc_macro_key(&self) -> ProcMacroKey {
        ProcMacroKey::for_vintage(self.vintage)
    }

    /// The layout's `core_edition` for this rustc, when rust/Makefile does not say.
    fn layout_core_edition(&self) -> Option<String> {
        let v = self.rustc_version;
        let facts = VersionOnly((v / 100_000, (v / 100) % 1000, v % 100));
        self.vintage.var("core_edition", &facts)
    }

    /// `core-edition` (2024 from rustc 1.87 in both 6.12 and 7.3).
    fn core_edition(&self, mk: &RustMakefile) -> String {
        mk.var("core-edition")
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .or_else(|| self.layout_core_edition())
            .unwrap_or_else(|| self.vintage.analyzer.edition.clone())
    }

    fn dylib(&self, name: &str) -> PathBuf {
        let (pre, suf) = &self.proc_macro_affixes;
        self.objtree.join("rust").join(format!("{pre}{name}{suf}"))
    }
}

/// The crates of a vintage that live under `rust/` (for checks and messages).
pub fn rust_dir_crates(v: Vintage) -> impl Iterator<Item = (&'static str, &'static str)> {
    v.analyzer
        .crates
        .iter()
        .map(|c| (c.name.as_str(), c.root.as_str()))
}

/// What each crate of Rust's library uses (its Cargo.toml files): facts of Rust, not the kernel.
fn library_deps(name: &str) -> &'static [&'static str] {
    match name {
        "alloc" => &["core"],
        "std" => &["alloc", "core"],
        "proc_macro" => &["core", "std"],
        _ => &[],
    }
}

/// The in-tree crate graph, in the kernel script's order (drivers sorted).
pub fn kernel_graph(inp: &KernelInputs) -> CrateGraph {
    let v = inp.vintage;
    let a = &v.analyzer;
    let edition = a.edition.as_str();
    let mk = RustMakefile::read(&inp.rust_makefile, inp.rustc_version);
    let mut crates = vec![];
    let spec = |name: &str, root: PathBuf, deps: &[&str], role: Role| CrateSpec {
        name: name.to_string(),
        root,
        edition: edition.to_string(),
        deps: deps.iter().map(|d| d.to_string()).collect(),
        cfg: vec![],
        env: BTreeMap::from([("RUST_MODFILE".to_string(), RUST_MODFILE.to_string())]),
        crate_attrs: vec![],
        proc_macro_dylib: None,
        workspace_member: true,
        source: None,
        role,
    };
    // Sysroot crates: sources of truth are the library's Cargo.toml files (the script's note).
    let core_edition = if a.crate_cfgs_from_makefile {
        inp.core_edition(&mk)
    } else {
        edition.to_string()
    };
    for name in &a.sysroot_crates {
        let mut s = spec(
            name,
            inp.sysroot_src.join(name).join("src/lib.rs"),
            library_deps(name),
            Role::Sysroot,
        );
        s.workspace_member = false;
        s.edition = core_edition.clone();
        if a.crate_cfgs_from_makefile {
            s.cfg = mk.crate_cfgs(name);
            s.env = mk.crate_env(name);
        }
        crates.push(s);
    }
    let objtree = inp.objtree.display().to_string();
    for f in &a.crates {
        let deps: Vec<&str> = f.deps.iter().map(String::as_str).collect();
        let mut s = spec(&f.name, inp.srctree.join(&f.root), &deps, Role::Kernel);
        if a.crate_cfgs_from_makefile {
            s.cfg = mk.crate_cfgs(&f.name);
            s.env = mk.crate_env(&f.name);
        }
        if let Some(e) = &f.edition {
            s.edition = e.clone();
        }
        match f.kind.as_str() {
            "proc-macro" => s.proc_macro_dylib = Some(inp.dylib(&f.name)),
            "generated" => {
                s.cfg = inp.generated_cfg.clone();
                let dir = Path::new(&f.root).parent().unwrap_or(Path::new("rust"));
                s.source = Some((
                    vec![inp.srctree.join(dir), inp.objtree.join("rust")],
                    vec![],
                ));
                for [k, val] in &a.generated_env {
                    s.env.insert(k.clone(), val.replace("{objtree}", &objtree));
                }
            }
            _ => {}
        }
        crates.push(s);
    }
    if a.host_programs {
        for (name, path) in &inp.host_programs {
            let mut s = spec(name, path.clone(), &["std"], Role::Host);
            s.cfg = mk.crate_cfgs(name);
            s.env = mk.crate_env(name);
            crates.push(s);
        }
    }
    let driver_deps: Vec<&str> = a.driver_deps.iter().map(String::as_str).collect();
    for d in &inp.drivers {
        // 6.12 named drivers by file stem; 7.3 asks rustc (`#![crate_name]` wins).
        let name = if a.driver_name == "rustc" {
            &d.name
        } else {
            &d.stem
        };
        let mut s = spec(name, d.root.clone(), &driver_deps, Role::Driver);
        s.cfg = inp.generated_cfg.clone();
        // Kbuild compiles drivers with `-Zcrate-attr=no_std` (6.12 and 7.3; 2021 drivers say
        // `#![no_std]` themselves). The kernel's script does not tell rust-analyzer, which then
        // looks for `std` and leaves `panic!` and str methods unresolved in drivers.
        s.crate_attrs = a.driver_crate_attrs.clone();
        crates.push(s);
    }
    let by_sysroot = a.sysroot_key == "sysroot";
    CrateGraph {
        crates,
        sysroot: by_sysroot.then(|| inp.sysroot.clone()),
        sysroot_src: (!by_sysroot).then(|| inp.sysroot_src.clone()),
    }
}

/// The variables of the tree's `rust/Makefile`, read as Kbuild reads it for the detected rustc
/// (`rustc-min-version`) and any configuration: the analyzer knows none, so a conditional on a
/// `CONFIG_` symbol reads both ways (the cfgs sit under `ifdef CONFIG_RUST`).
pub struct RustMakefile<'a>(Scope<'a>);

impl RustMakefile<'_> {
    /// Reads `text`. A line the reader cannot read ends the reading: what was set before it is
    /// kept, so the crates keep the cfgs the Makefile gave them up to there.
    pub fn read(text: &str, rustc_version: u64) -> Self {
        let mut scope = Kbuild::any_config("rust/", rustc_version).scope();
        let mut reader = Reader::new(Path::new(""));
        // rust/Makefile includes nothing the cfgs depend on.
        let skip = |_: &mut Scope, _: &str, _: &Loc| {};
        let _partial =
            reader.read_text(&mut scope, "rust/Makefile", text, &Includes::Instead(&skip));
        RustMakefile(scope)
    }

    /// The value of `name`, expanded; what cannot be known (set outside the Makefile) is left
    /// out. `None` when the Makefile does not set it.
    pub fn var(&self, name: &str) -> Option<String> {
        self.0.get(name).map(|v| v.replace(UNKNOWN, ""))
    }

    /// `<crate>-cfgs` of rust/Makefile, split as the script splits `--cfgs` values.
    fn crate_cfgs(&self, krate: &str) -> Vec<String> {
        self.var(&format!("{krate}-cfgs"))
            .map(|v| {
                v.replace("--cfg", "")
                    .split_whitespace()
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    }

    fn crate_env(&self, krate: &str) -> BTreeMap<String, String> {
        let mut env = BTreeMap::from([("RUST_MODFILE".to_string(), RUST_MODFILE.to_string())]);
        if let Some(v) = self.var(&format!("{krate}-envs")) {
            for w in v.split_whitespace() {
                if let Some((k, v)) = w.split_once('=') {
                    env.insert(k.to_string(), v.to_string());
                }
            }
        }
        env
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make_var(text: &str, name: &str, rustc_version: u64) -> Option<String> {
        RustMakefile::read(text, rustc_version).var(name)
    }

    const MK: &str = "core-cfgs := \\\n    no_fp_fmt_parse\n\ncore-edition := $(if $(call rustc-min-version,108700),2024,2021)\n\
proc_macro2-cfgs := \\\n    feature=\"proc-macro\" \\\n    wrap_proc_macro \\\n    $(if $(call rustc-min-version,108800),proc_macro_span_file proc_macro_span_location)\n\
zerocopy-envs := \\\n    CARGO_PKG_VERSION=0.8.54\n";

    #[test]
    fn make_vars_follow_the_rustc_version() {
        let v = |n, ver| {
            make_var(MK, n, ver)
                .unwrap()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(v("core-cfgs", 108500), "no_fp_fmt_parse");
        assert_eq!(v("core-edition", 108500), "2021");
        assert_eq!(v("core-edition", 108700), "2024");
        assert_eq!(
            v("proc_macro2-cfgs", 108799),
            "feature=\"proc-macro\" wrap_proc_macro"
        );
        assert_eq!(
            v("proc_macro2-cfgs", 108800),
            "feature=\"proc-macro\" wrap_proc_macro proc_macro_span_file proc_macro_span_location"
        );
        assert_eq!(v("zerocopy-envs", 0), "CARGO_PKG_VERSION=0.8.54");
        assert_eq!(make_var(MK, "syn-cfgs", 0), None);
        assert_eq!(
            make_var("core-cfgs-x := a\ncore-cfgs := b\n", "core-cfgs", 0)
                .unwrap()
                .trim(),
            "b"
        );
        // 6.12 spelled the core cfg as a flag.
        assert_eq!(
            make_var(
                "core-cfgs = \\\n    --cfg no_fp_fmt_parse\n",
                "core-cfgs",
                0
            )
            .unwrap()
            .trim(),
            "--cfg no_fp_fmt_parse"
        );
    }
}
