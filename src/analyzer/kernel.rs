//! The kernel's crate graph as `scripts/generate_rust_analyzer.py` lays it out, per vintage.
//!
//! The crates under `rust/`, their order and dependencies are fixed facts of each vintage (the
//! script hard-codes them too). What varies with the tree and toolchain is read, not assumed:
//! per-crate cfgs and envs come from the `<crate>-cfgs` / `<crate>-envs` variables of the tree's
//! `rust/Makefile` (evaluated for the detected rustc, e.g. proc_macro2's span cfgs from 1.88),
//! the sysroot crates' edition from its `core-edition`, the proc-macro file names from rustc.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::discover::FoundCrate;
use super::graph::{CrateGraph, CrateSpec, ProcMacroKey, Role};
use crate::tree::Vintage;

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

    fn var(&self, name: &str) -> Option<String> {
        make_var(&self.rust_makefile, name, self.rustc_version)
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

    /// `core-edition` (2024 from rustc 1.87 in both 6.12 and 7.3).
    fn core_edition(&self) -> String {
        self.var("core-edition")
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| {
                if self.rustc_version >= 108700 {
                    "2024".into()
                } else {
                    "2021".into()
                }
            })
    }

    fn dylib(&self, name: &str) -> PathBuf {
        let (pre, suf) = &self.proc_macro_affixes;
        self.objtree.join("rust").join(format!("{pre}{name}{suf}"))
    }
}

/// A crate of the fixed table: name, root relative to srctree, deps, and what kind it is.
struct Fixed {
    name: &'static str,
    root: &'static str,
    deps: &'static [&'static str],
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Lib,
    /// Edition 2018 (quote).
    Lib2018,
    ProcMacro,
    /// Includes files generated in objtree/rust (bindings, uapi, kernel).
    Generated,
}

const fn c(
    name: &'static str,
    root: &'static str,
    deps: &'static [&'static str],
    kind: Kind,
) -> Fixed {
    Fixed {
        name,
        root,
        deps,
        kind,
    }
}

/// rust/ crates of 6.12 (after the sysroot crates), in the script's order.
const K612: &[Fixed] = &[
    c(
        "compiler_builtins",
        "rust/compiler_builtins.rs",
        &["core"],
        Kind::Lib,
    ),
    c(
        "macros",
        "rust/macros/lib.rs",
        &["std", "proc_macro"],
        Kind::ProcMacro,
    ),
    c(
        "build_error",
        "rust/build_error.rs",
        &["core", "compiler_builtins"],
        Kind::Lib,
    ),
    c(
        "ffi",
        "rust/ffi.rs",
        &["core", "compiler_builtins"],
        Kind::Lib,
    ),
    c(
        "bindings",
        "rust/bindings/lib.rs",
        &["core", "ffi"],
        Kind::Generated,
    ),
    c(
        "uapi",
        "rust/uapi/lib.rs",
        &["core", "ffi"],
        Kind::Generated,
    ),
    c(
        "kernel",
        "rust/kernel/lib.rs",
        &["core", "macros", "build_error", "ffi", "bindings", "uapi"],
        Kind::Generated,
    ),
];
const K612_DRIVER_DEPS: &[&str] = &["core", "kernel"];

const PM_DEPS: &[&str] = &["std", "proc_macro", "proc_macro2", "quote", "syn"];
/// rust/ crates of 7.3, in the script's order.
const K73: &[Fixed] = &[
    c(
        "compiler_builtins",
        "rust/compiler_builtins.rs",
        &["core"],
        Kind::Lib,
    ),
    c(
        "proc_macro2",
        "rust/proc-macro2/lib.rs",
        &["core", "alloc", "std", "proc_macro"],
        Kind::Lib,
    ),
    c(
        "quote",
        "rust/quote/lib.rs",
        &["core", "alloc", "std", "proc_macro", "proc_macro2"],
        Kind::Lib2018,
    ),
    c(
        "syn",
        "rust/syn/lib.rs",
        &["std", "proc_macro", "proc_macro2", "quote"],
        Kind::Lib,
    ),
    c("macros", "rust/macros/lib.rs", PM_DEPS, Kind::ProcMacro),
    c(
        "zerocopy_derive",
        "rust/zerocopy-derive/lib.rs",
        PM_DEPS,
        Kind::ProcMacro,
    ),
    c(
        "build_error",
        "rust/build_error.rs",
        &["core", "compiler_builtins"],
        Kind::Lib,
    ),
    c(
        "pin_init_internal",
        "rust/pin-init/internal/src/lib.rs",
        PM_DEPS,
        Kind::ProcMacro,
    ),
    c(
        "pin_init",
        "rust/pin-init/src/lib.rs",
        &["core", "compiler_builtins", "pin_init_internal", "macros"],
        Kind::Lib,
    ),
    c(
        "ffi",
        "rust/ffi.rs",
        &["core", "compiler_builtins"],
        Kind::Lib,
    ),
    c(
        "zerocopy",
        "rust/zerocopy/src/lib.rs",
        &["core", "compiler_builtins"],
        Kind::Lib,
    ),
    c(
        "bindings",
        "rust/bindings/lib.rs",
        &["core", "ffi", "pin_init"],
        Kind::Generated,
    ),
    c(
        "uapi",
        "rust/uapi/lib.rs",
        &["core", "ffi", "pin_init"],
        Kind::Generated,
    ),
    c(
        "kernel",
        "rust/kernel/lib.rs",
        &[
            "core",
            "macros",
            "build_error",
            "pin_init",
            "ffi",
            "bindings",
            "uapi",
            "zerocopy",
            "zerocopy_derive",
        ],
        Kind::Generated,
    ),
];
const K73_DRIVER_DEPS: &[&str] = &["core", "kernel", "pin_init", "zerocopy", "zerocopy_derive"];

/// The 2021 patch set: `rust/alloc` is vendored, bindings are a module of `kernel`.
const V2021: &[Fixed] = &[
    c(
        "compiler_builtins",
        "rust/compiler_builtins.rs",
        &[],
        Kind::Lib,
    ),
    c(
        "alloc",
        "rust/alloc/lib.rs",
        &["core", "compiler_builtins"],
        Kind::Lib,
    ),
    c("macros", "rust/macros/lib.rs", &[], Kind::ProcMacro),
    c(
        "build_error",
        "rust/build_error.rs",
        &["core", "compiler_builtins"],
        Kind::Lib,
    ),
    c(
        "kernel",
        "rust/kernel/lib.rs",
        &["core", "alloc", "macros", "build_error"],
        Kind::Generated,
    ),
];
const V2021_DRIVER_DEPS: &[&str] = &["core", "alloc", "kernel"];

/// The crates of a vintage that live under `rust/` (for checks and messages).
pub fn rust_dir_crates(v: Vintage) -> impl Iterator<Item = (&'static str, &'static str)> {
    table(v).iter().map(|f| (f.name, f.root))
}

fn table(v: Vintage) -> &'static [Fixed] {
    match v {
        Vintage::V2021 => V2021,
        Vintage::K6_12 => K612,
        Vintage::K7_3 => K73,
    }
}

/// The in-tree crate graph, in the kernel script's order (drivers sorted).
pub fn kernel_graph(inp: &KernelInputs) -> CrateGraph {
    let v = inp.vintage;
    let edition = if v == Vintage::V2021 { "2018" } else { "2021" };
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
    let sysroot_crates: &[(&str, &[&str])] = if v == Vintage::V2021 {
        &[("core", &[])]
    } else {
        &[
            ("core", &[]),
            ("alloc", &["core"]),
            ("std", &["alloc", "core"]),
            ("proc_macro", &["core", "std"]),
        ]
    };
    let core_edition = if v == Vintage::V2021 {
        edition.to_string()
    } else {
        inp.core_edition()
    };
    for (name, deps) in sysroot_crates {
        let mut s = spec(
            name,
            inp.sysroot_src.join(name).join("src/lib.rs"),
            deps,
            Role::Sysroot,
        );
        s.workspace_member = false;
        s.edition = core_edition.clone();
        if v != Vintage::V2021 {
            s.cfg = inp.crate_cfgs(name);
            s.env = inp.crate_env(name);
        }
        crates.push(s);
    }
    for f in table(v) {
        let mut s = spec(f.name, inp.srctree.join(f.root), f.deps, Role::Kernel);
        if v != Vintage::V2021 {
            s.cfg = inp.crate_cfgs(f.name);
            s.env = inp.crate_env(f.name);
        }
        match f.kind {
            Kind::Lib => {}
            Kind::Lib2018 => s.edition = "2018".into(),
            Kind::ProcMacro => s.proc_macro_dylib = Some(inp.dylib(f.name)),
            Kind::Generated => {
                s.cfg = inp.generated_cfg.clone();
                let dir = Path::new(f.root).parent().unwrap_or(Path::new("rust"));
                s.source = Some((
                    vec![inp.srctree.join(dir), inp.objtree.join("rust")],
                    vec![],
                ));
                if v == Vintage::V2021 {
                    s.env.insert(
                        "RUST_BINDINGS_FILE".into(),
                        inp.objtree
                            .join("rust/bindings_generated.rs")
                            .display()
                            .to_string(),
                    );
                } else {
                    s.env
                        .insert("OBJTREE".into(), inp.objtree.display().to_string());
                }
            }
        }
        crates.push(s);
    }
    if v != Vintage::V2021 {
        for (name, path) in &inp.host_programs {
            let mut s = spec(name, path.clone(), &["std"], Role::Host);
            s.cfg = inp.crate_cfgs(name);
            s.env = inp.crate_env(name);
            crates.push(s);
        }
    }
    let driver_deps = match v {
        Vintage::V2021 => V2021_DRIVER_DEPS,
        Vintage::K6_12 => K612_DRIVER_DEPS,
        Vintage::K7_3 => K73_DRIVER_DEPS,
    };
    for d in &inp.drivers {
        // 6.12 named drivers by file stem; 7.3 asks rustc (`#![crate_name]` wins).
        let name = if v == Vintage::K7_3 { &d.name } else { &d.stem };
        let mut s = spec(name, d.root.clone(), driver_deps, Role::Driver);
        s.cfg = inp.generated_cfg.clone();
        // Kbuild compiles drivers with `-Zcrate-attr=no_std` (6.12 and 7.3; 2021 drivers say
        // `#![no_std]` themselves). The kernel's script does not tell rust-analyzer, which then
        // looks for `std` and leaves `panic!` and str methods unresolved in drivers.
        if v != Vintage::V2021 {
            s.crate_attrs = vec!["no_std".into()];
        }
        crates.push(s);
    }
    CrateGraph {
        crates,
        sysroot: (v != Vintage::V2021).then(|| inp.sysroot.clone()),
        sysroot_src: (v == Vintage::V2021).then(|| inp.sysroot_src.clone()),
    }
}

/// The value of a make variable in `text` (`NAME :=`, `NAME =`, `NAME ?=`, with `\` line
/// continuations), with the Kbuild functions that matter here evaluated:
/// `$(if $(call rustc-min-version,N),A[,B])`. Other references are dropped.
pub fn make_var(text: &str, name: &str, rustc_version: u64) -> Option<String> {
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        let Some(rest) = l.strip_prefix(name) else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(value) = ["::=", ":=", "?=", "="]
            .iter()
            .find_map(|op| rest.strip_prefix(op))
        else {
            continue;
        };
        let mut value = value.to_string();
        while value.trim_end().ends_with('\\') {
            let t = value.trim_end();
            value = format!("{} ", &t[..t.len() - 1]);
            match lines.next() {
                Some(next) => value.push_str(next),
                None => break,
            }
        }
        return Some(eval(&value, rustc_version));
    }
    None
}

/// Evaluates `$(...)` references (see [`make_var`]).
fn eval(s: &str, ver: u64) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("$(") {
        out.push_str(&rest[..i]);
        let body_start = i + 2;
        let Some(len) = matching_paren(&rest[body_start..]) else {
            return out;
        };
        let body = &rest[body_start..body_start + len];
        out.push_str(&eval_call(body, ver));
        rest = &rest[body_start + len + 1..];
    }
    out.push_str(rest);
    out
}

/// Length up to the `)` closing an already opened `$(`.
fn matching_paren(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Splits at top-level commas.
fn split_args(s: &str) -> Vec<&str> {
    let mut out = vec![];
    let mut depth = 0usize;
    let mut start = 0;
    for (i, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn eval_call(body: &str, ver: u64) -> String {
    if let Some(args) = body.strip_prefix("if ") {
        let a = split_args(args);
        let cond = eval(a[0].trim(), ver);
        let pick = if cond.trim().is_empty() {
            a.get(2)
        } else {
            a.get(1)
        };
        return pick.map(|p| eval(p, ver)).unwrap_or_default();
    }
    if let Some(args) = body.strip_prefix("call rustc-min-version,") {
        let want: u64 = args.trim().parse().unwrap_or(u64::MAX);
        return if ver >= want {
            "y".into()
        } else {
            String::new()
        };
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;

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
