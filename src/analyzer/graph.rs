//! The crate graph rust-analyzer is told about, in rkbuild's own terms, and its conversion into
//! [`ProjectJson`].
//!
//! [`CrateGraph`] is the conversion point for other producers: `kernel` builds one from a tree
//! the way the kernel's script does, and a build plan (the crates `rkbuild build` compiles) can
//! be turned into one with the same [`CrateSpec`] values, so the editor sees what the build
//! compiles. Dependencies are by name here; indices exist only in the file.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use super::project_json::{CrateData, CrateSource, Dep, ProjectJson};
use crate::tree::Vintage;

/// What part of the kernel a crate is; decides which crates an out-of-tree project keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// `core`, `alloc`, `std`, `proc_macro` from the library sources.
    Sysroot,
    /// The crates under `rust/` (kernel, macros, bindings, ...).
    Kernel,
    /// Host programs under `scripts/`.
    Host,
    /// Drivers and samples: a `.rs` file that Kbuild builds as `<stem>.o`.
    Driver,
}

/// One crate of the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrateSpec {
    pub name: String,
    pub root: PathBuf,
    pub edition: String,
    /// Names of crates earlier in the graph.
    pub deps: Vec<String>,
    pub cfg: Vec<String>,
    pub env: BTreeMap<String, String>,
    /// `-Zcrate-attr` attributes the build gives the crate (drivers: `no_std`).
    pub crate_attrs: Vec<String>,
    /// The built `.so`, for a proc macro.
    pub proc_macro_dylib: Option<PathBuf>,
    pub workspace_member: bool,
    /// Extra folders (`include_dirs`, `exclude_dirs`), for crates that `include!` generated files.
    pub source: Option<(Vec<PathBuf>, Vec<PathBuf>)>,
    pub role: Role,
}

/// How the file spells what the crates do not decide (these differ between vintages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcMacroKey {
    /// `is_proc_macro` on every crate, `false` except proc macros (6.12).
    Always,
    /// `is_proc_macro: true` only on proc macros (7.3, and rkbuild's 2021 output).
    OnlyTrue,
}

impl ProcMacroKey {
    /// How a vintage's script writes it.
    pub fn for_vintage(v: Vintage) -> ProcMacroKey {
        if v.analyzer.proc_macro_key == "always" {
            ProcMacroKey::Always
        } else {
            ProcMacroKey::OnlyTrue
        }
    }
}

/// Crates of the Rust library: taken from its source, never built from the kernel tree.
pub const LIBRARY_CRATES: &[&str] = &["core", "alloc", "std", "proc_macro", "test"];

/// An ordered crate graph plus where the sysroot is.
#[derive(Clone, Debug, Default)]
pub struct CrateGraph {
    pub crates: Vec<CrateSpec>,
    pub sysroot: Option<PathBuf>,
    pub sysroot_src: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GraphError {
    #[error("crate `{krate}` depends on `{dep}`, which is not listed before it")]
    UnknownDep { krate: String, dep: String },
    #[error("{} is not valid UTF-8, which rust-project.json cannot hold", .0.display())]
    NotUtf8(PathBuf),
}

/// The `sysroot` to name beside the library `src`: only when `src` is the sysroot's own
/// (`lib/rustlib/src/rust/library`, as rustup installs rust-src). Given a sysroot,
/// rust-analyzer reads the library through that toolchain; with a library from elsewhere
/// (Debian's rust-web-src for /usr/bin/rustc) it then lost `proc_macro` in the proc macros.
pub fn sysroot_of(sysroot: &Path, src: &Path) -> Option<PathBuf> {
    (src == sysroot.join("lib/rustlib/src/rust/library")).then(|| sysroot.to_path_buf())
}

fn path_str(p: &Path) -> Result<String, GraphError> {
    p.to_str()
        .map(str::to_string)
        .ok_or_else(|| GraphError::NotUtf8(p.to_path_buf()))
}

impl CrateGraph {
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.crates.iter().position(|c| c.name == name)
    }

    /// Hands the Rust library to rust-analyzer as `sysroot_src` instead of listing its crates:
    /// the `Role::Sysroot` crates and the dependencies on them go (rust-analyzer adds `core`,
    /// `alloc`, `std` to every crate and `proc_macro` to proc macros, as rustc does), and
    /// `sysroot` stays only when `src` is that sysroot's own library ([`sysroot_of`]).
    /// rust-analyzer gives `core` its lang-crate role only when it loads the library itself.
    pub fn library_as_sysroot_src(&mut self, sysroot: &Path, src: &Path) {
        let library: Vec<String> = self
            .crates
            .iter()
            .filter(|c| c.role == Role::Sysroot)
            .map(|c| c.name.clone())
            .collect();
        self.crates.retain(|c| c.role != Role::Sysroot);
        for c in &mut self.crates {
            c.deps.retain(|d| !library.contains(d));
        }
        self.sysroot = sysroot_of(sysroot, src);
        self.sysroot_src = Some(src.to_path_buf());
    }

    /// Keeps the crates `keep` says yes to plus every crate they depend on, in order.
    pub fn retain_with_deps(&mut self, keep: impl Fn(&CrateSpec) -> bool) {
        let mut needed = vec![false; self.crates.len()];
        let index: HashMap<&str, usize> = self
            .crates
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.as_str(), i))
            .collect();
        // Dependencies always come earlier, so one backwards pass closes the set.
        for i in (0..self.crates.len()).rev() {
            if keep(&self.crates[i]) {
                needed[i] = true;
            }
            if needed[i] {
                for d in &self.crates[i].deps {
                    if let Some(&j) = index.get(d.as_str()) {
                        needed[j] = true;
                    }
                }
            }
        }
        let mut n = needed.into_iter();
        self.crates.retain(|_| n.next().unwrap_or(false));
    }

    /// The file's data. Dependencies resolve to the nearest earlier crate of that name.
    pub fn to_project_json(&self, key: ProcMacroKey) -> Result<ProjectJson, GraphError> {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let mut crates = Vec::with_capacity(self.crates.len());
        for (i, c) in self.crates.iter().enumerate() {
            let deps = c
                .deps
                .iter()
                .map(|d| {
                    seen.get(d.as_str())
                        .map(|&k| Dep {
                            krate: k,
                            name: d.clone(),
                        })
                        .ok_or_else(|| GraphError::UnknownDep {
                            krate: c.name.clone(),
                            dep: d.clone(),
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let is_pm = c.proc_macro_dylib.is_some();
            crates.push(CrateData {
                display_name: Some(c.name.clone()),
                root_module: path_str(&c.root)?,
                edition: c.edition.clone(),
                deps,
                cfg: c.cfg.clone(),
                env: c.env.clone(),
                crate_attrs: c.crate_attrs.clone(),
                proc_macro_dylib_path: c.proc_macro_dylib.as_deref().map(path_str).transpose()?,
                is_workspace_member: Some(c.workspace_member),
                source: match &c.source {
                    None => None,
                    Some((inc, exc)) => Some(CrateSource {
                        include_dirs: inc.iter().map(|p| path_str(p)).collect::<Result<_, _>>()?,
                        exclude_dirs: exc.iter().map(|p| path_str(p)).collect::<Result<_, _>>()?,
                    }),
                },
                is_proc_macro: match key {
                    ProcMacroKey::Always => Some(is_pm),
                    ProcMacroKey::OnlyTrue => is_pm.then_some(true),
                },
                ..CrateData::default()
            });
            seen.insert(&c.name, i);
        }
        Ok(ProjectJson {
            sysroot: self.sysroot.as_deref().map(path_str).transpose()?,
            sysroot_src: self.sysroot_src.as_deref().map(path_str).transpose()?,
            crates,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, deps: &[&str], role: Role) -> CrateSpec {
        CrateSpec {
            name: name.into(),
            root: format!("/s/{name}.rs").into(),
            edition: "2021".into(),
            deps: deps.iter().map(|d| d.to_string()).collect(),
            cfg: vec![],
            env: BTreeMap::new(),
            crate_attrs: vec![],
            proc_macro_dylib: None,
            workspace_member: true,
            source: None,
            role,
        }
    }

    #[test]
    fn library_goes_to_sysroot_src() {
        let mut g = CrateGraph {
            crates: vec![
                spec("core", &[], Role::Sysroot),
                spec("std", &["core"], Role::Sysroot),
                spec("macros", &["std"], Role::Kernel),
                spec("kernel", &["core", "macros"], Role::Kernel),
            ],
            sysroot: Some("/usr".into()),
            sysroot_src: None,
        };
        g.library_as_sysroot_src(Path::new("/usr"), Path::new("/usr/src/rustc/library"));
        let names: Vec<_> = g.crates.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["macros", "kernel"]);
        assert_eq!(g.crates[1].deps, ["macros"]);
        assert_eq!(g.sysroot, None);
        assert_eq!(
            g.sysroot_src.as_deref(),
            Some(Path::new("/usr/src/rustc/library"))
        );
        let p = g.to_project_json(ProcMacroKey::OnlyTrue).unwrap();
        assert_eq!(p.crates[1].deps[0].krate, 0);

        let t = Path::new("/t");
        let own = t.join("lib/rustlib/src/rust/library");
        assert_eq!(sysroot_of(t, &own).as_deref(), Some(t));
    }

    #[test]
    fn deps_become_indices_and_must_come_first() {
        let mut g = CrateGraph {
            crates: vec![
                spec("core", &[], Role::Sysroot),
                spec("kernel", &["core"], Role::Kernel),
            ],
            ..CrateGraph::default()
        };
        g.crates[1].proc_macro_dylib = None;
        let p = g.to_project_json(ProcMacroKey::OnlyTrue).unwrap();
        assert_eq!(
            p.crates[1].deps,
            [Dep {
                krate: 0,
                name: "core".into()
            }]
        );
        assert_eq!(p.crates[1].is_proc_macro, None);
        let p = g.to_project_json(ProcMacroKey::Always).unwrap();
        assert_eq!(p.crates[1].is_proc_macro, Some(false));
        g.crates.swap(0, 1);
        assert_eq!(
            g.to_project_json(ProcMacroKey::Always).unwrap_err(),
            GraphError::UnknownDep {
                krate: "kernel".into(),
                dep: "core".into()
            }
        );
    }

    #[test]
    fn retain_keeps_the_dependency_closure_in_order() {
        let mut g = CrateGraph {
            crates: vec![
                spec("core", &[], Role::Sysroot),
                spec("std", &["core"], Role::Sysroot),
                spec("ffi", &["core"], Role::Kernel),
                spec("kernel", &["core", "ffi"], Role::Kernel),
                spec("host", &["std"], Role::Host),
                spec("other", &["core", "kernel"], Role::Driver),
                spec("mine", &["core", "kernel"], Role::Driver),
            ],
            ..CrateGraph::default()
        };
        g.retain_with_deps(|c| c.name == "mine");
        let names: Vec<_> = g.crates.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["core", "ffi", "kernel", "mine"]);
    }
}
