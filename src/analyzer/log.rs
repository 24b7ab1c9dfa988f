//! `rust-project.json` from a wrapper log: exactly the crates make compiled, with the cfgs,
//! editions, externs and environment of their real command lines (`@argfile`s read from the
//! build tree as it is now).
//!
//! The file format is the analyzer's ([`super::project_json`]), written the same way. The log
//! and the argument reader are the wrapper's ([`crate::wrapper`]): this is the analyzer's use of
//! them, so the arrow runs from here to the wrapper, never back.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::graph::LIBRARY_CRATES;
use super::project_json::{CrateData as Crate, CrateSource as Source, Dep, ProjectJson};
use crate::wrapper::args::{self, CrateArgs};
use crate::wrapper::record::{BadLine, Record};

/// The result, with what was skipped and why.
#[derive(Debug, Default)]
pub struct FromLog {
    pub project: ProjectJson,
    pub warnings: Vec<String>,
}

struct Compiled {
    rec: Record,
    args: CrateArgs,
    name: String,
    root: PathBuf,
    outputs: Vec<PathBuf>,
}

fn canon(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Builds the project from log records (later calls of the same crate replace earlier ones).
/// `bad` lines are reported as warnings; `rust_lib_src` is used when the log compiled no
/// `core` to find the library sources for `std`/`proc_macro` deps.
pub fn from_records(recs: &[Record], bad: &[BadLine], rust_lib_src: Option<&Path>) -> FromLog {
    let mut warnings: Vec<String> = bad
        .iter()
        .map(|b| format!("skipped unreadable log {b}"))
        .collect();
    let mut compiled: Vec<Compiled> = vec![];
    for r in recs {
        if r.status != 0 {
            continue;
        }
        let cwd = Path::new(&r.cwd);
        let raw = r.argv.get(1..).unwrap_or_default();
        let (expanded, missing) = args::expand_argfiles(raw, cwd);
        let a = args::parse(&expanded);
        let (Some(name), Some(input)) = (a.name(), a.input.clone()) else {
            continue;
        };
        if a.query_only || input == "-" {
            continue;
        }
        for m in missing {
            warnings.push(format!(
                "crate `{name}`: argument file not readable now ({m}); its cfgs are missing"
            ));
        }
        let root = canon(&cwd.join(&input));
        let outputs = a.outputs().iter().map(|o| canon(&cwd.join(o))).collect();
        compiled.retain(|c| !(c.name == name && c.root == root));
        compiled.push(Compiled {
            rec: r.clone(),
            args: a,
            name,
            root,
            outputs,
        });
    }

    // The library source: from the `core` that was built, else the caller's.
    let lib_src: Option<PathBuf> = compiled
        .iter()
        .find(|c| c.name == "core")
        .and_then(|c| c.root.ancestors().nth(3).map(Path::to_path_buf))
        .or_else(|| rust_lib_src.map(canon));

    let mut crates: Vec<Crate> = vec![];
    let mut sysroot_index: BTreeMap<String, usize> = BTreeMap::new();
    // A `core` built from the library source stands for the sysroot's too (one crate per
    // root, as the kernel's generate_rust_analyzer.py has it).
    if let Some(i) = compiled
        .iter()
        .position(|c| c.name == "core" && lib_src.as_ref().is_some_and(|l| c.root.starts_with(l)))
    {
        sysroot_index.insert("core".into(), i);
    }
    // Indices of the compiled crates come first, in log order.
    for c in &compiled {
        let mut env: BTreeMap<String, String> = BTreeMap::new();
        for k in ["OBJTREE", "RUST_MODFILE"] {
            if let Some(v) = c.rec.env.get(k) {
                env.insert(k.to_string(), v.clone());
            }
        }
        let in_lib = lib_src.as_ref().is_some_and(|l| c.root.starts_with(l));
        let is_proc_macro = c.args.crate_types.iter().any(|t| t == "proc-macro");
        let proc_macro_dylib_path = is_proc_macro.then(|| {
            c.args
                .emit("link")
                .map(|p| canon(&Path::new(&c.rec.cwd).join(p)))
                .or_else(|| c.outputs.first().cloned())
                .unwrap_or_default()
                .display()
                .to_string()
        });
        let source = c.rec.env.get("OBJTREE").map(|o| Source {
            include_dirs: vec![
                c.root
                    .parent()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                canon(&Path::new(&c.rec.cwd).join(o).join("rust"))
                    .display()
                    .to_string(),
            ],
            exclude_dirs: vec![],
        });
        crates.push(Crate {
            display_name: Some(c.name.clone()),
            root_module: c.root.display().to_string(),
            edition: c.args.edition.clone().unwrap_or_else(|| "2015".into()),
            cfg: c.args.cfgs.clone(),
            crate_attrs: c.args.crate_attrs.clone(),
            env,
            is_workspace_member: Some(!in_lib),
            is_proc_macro: Some(is_proc_macro),
            proc_macro_dylib_path,
            source,
            ..Crate::default()
        });
    }

    let mut sysroot_dep = |crates: &mut Vec<Crate>,
                           warnings: &mut Vec<String>,
                           who: &str,
                           name: &str|
     -> Option<usize> {
        if let Some(&i) = sysroot_index.get(name) {
            return Some(i);
        }
        let Some(lib) = &lib_src else {
            warnings.push(format!(
                    "crate `{who}` uses `{name}`, which the log did not compile and whose library source is unknown (pass --rust-lib-src)"
                ));
            return None;
        };
        Some(sysroot_dep_plain(crates, &mut sysroot_index, lib, name))
    };

    for (ci, c) in compiled.iter().enumerate() {
        let mut deps: Vec<Dep> = vec![];
        let target = c.args.target.clone();
        let same_target_core = compiled
            .iter()
            .position(|o| o.name == "core" && o.args.target == target);
        // rustc injects `core` into every crate (and `std` unless `#![no_std]`): a crate built
        // for the target of a compiled `core` uses that core; a host crate uses std.
        if c.name != "core" {
            match same_target_core {
                Some(i) => deps.push(Dep {
                    krate: i,
                    name: "core".into(),
                }),
                None if !LIBRARY_CRATES.contains(&c.name.as_str()) => {
                    if let Some(i) = sysroot_dep(&mut crates, &mut warnings, &c.name, "std") {
                        deps.push(Dep {
                            krate: i,
                            name: "std".into(),
                        });
                    }
                }
                None => {}
            }
        }
        for (name, path) in &c.args.externs {
            let by_path = path.as_ref().and_then(|p| {
                let p = canon(&Path::new(&c.rec.cwd).join(p));
                compiled.iter().position(|o| o.outputs.contains(&p))
            });
            let found = by_path.or_else(|| {
                compiled
                    .iter()
                    .rposition(|o| &o.name == name && o.root != c.root)
            });
            let idx = match found {
                Some(i) => Some(i),
                None if LIBRARY_CRATES.contains(&name.as_str()) => {
                    sysroot_dep(&mut crates, &mut warnings, &c.name, name)
                }
                None => {
                    warnings.push(format!(
                        "crate `{}` uses `--extern {name}`, which the log did not compile",
                        c.name
                    ));
                    None
                }
            };
            if let Some(i) = idx {
                if !deps.iter().any(|d| d.krate == i) {
                    deps.push(Dep {
                        krate: i,
                        name: name.clone(),
                    });
                }
            }
        }
        crates[ci].deps = deps;
    }
    FromLog {
        project: ProjectJson {
            sysroot: None,
            sysroot_src: lib_src.map(|l| l.display().to_string()),
            crates,
        },
        warnings,
    }
}

fn sysroot_crate(lib: &Path, name: &str, deps: Vec<Dep>) -> Crate {
    Crate {
        display_name: Some(name.into()),
        root_module: lib.join(name).join("src/lib.rs").display().to_string(),
        edition: "2021".into(),
        deps,
        is_workspace_member: Some(false),
        ..Crate::default()
    }
}

fn sysroot_dep_plain(
    crates: &mut Vec<Crate>,
    index: &mut BTreeMap<String, usize>,
    lib: &Path,
    name: &str,
) -> usize {
    if let Some(&i) = index.get(name) {
        return i;
    }
    let deps: Vec<Dep> = match name {
        "alloc" => vec!["core"],
        "std" => vec!["core", "alloc"],
        "proc_macro" | "test" => vec!["core", "std"],
        _ => vec![],
    }
    .into_iter()
    .map(|d| Dep {
        krate: sysroot_dep_plain(crates, index, lib, d),
        name: d.into(),
    })
    .collect();
    let i = crates.len();
    crates.push(sysroot_crate(lib, name, deps));
    index.insert(name.into(), i);
    i
}

/// Reads a log file and builds the project; unreadable lines become warnings naming the line.
pub fn from_log(path: &Path, rust_lib_src: Option<&Path>) -> anyhow::Result<FromLog> {
    let (recs, bad) = crate::wrapper::record::read_log(path)?;
    Ok(from_records(&recs, &bad, rust_lib_src))
}
