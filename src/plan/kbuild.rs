//! Drivers from Kbuild makefiles: `obj-$(CONFIG_FOO) += foo.o` with `foo.rs` beside it is a
//! Rust driver crate, built in when `CONFIG_FOO=y`, a module when `m`, skipped when unset.
//! Folders (`obj-y += bar/`) are followed the same way, from the top-level `Kbuild`/`Makefile`
//! (`obj-`, `core-`, `drivers-`, `libs-` and `virt-` lists there, as the top Makefile uses).
//!
//! This reads the lists, not make: conditionals (`ifdef`) are not evaluated, and items built
//! from other variables (`$(foo-y)`) are ignored. That is enough for where Rust drivers live.

use std::path::{Path, PathBuf};

use crate::flags::ObjKind;
use crate::kconfig::DotConfig;

/// A Rust driver object found in a Kbuild makefile.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DriverObj {
    /// The object, relative to the trees (`drivers/misc/rust_hello.o`).
    pub obj: String,
    /// The crate root, relative to the source tree (`drivers/misc/rust_hello.rs`).
    pub src: String,
    pub kind: ObjKind,
    /// The symbol that enables it (`MINI_HELLO`), `None` for `obj-y`.
    pub symbol: Option<String>,
    /// Where it is listed (`drivers/misc/Makefile:2`).
    pub listed_at: String,
}

/// A Rust driver that the configuration leaves out.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    pub obj: String,
    pub symbol: String,
    pub listed_at: String,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KbuildError {
    #[error("{at}: cannot read `{line}`: {why}\n  fix: write it as `obj-$(CONFIG_FOO) += foo.o` (or `obj-y`/`obj-m`)")]
    Syntax {
        at: String,
        line: String,
        why: String,
    },
}

/// Which list an assignment feeds, and under which condition.
enum Gate {
    Always(ObjKind),
    Symbol(String),
}

/// Parses the left side of `obj-$(CONFIG_FOO) +=`; `None` when it is not an object list.
fn gate(lhs: &str, top: bool) -> Result<Option<Gate>, String> {
    let Some((var, cond)) = lhs.split_once('-') else {
        return Ok(None);
    };
    let lists: &[&str] = if top {
        &["obj", "core", "drivers", "libs", "virt"]
    } else {
        &["obj"]
    };
    if !lists.contains(&var) {
        return Ok(None);
    }
    match cond {
        "y" => Ok(Some(Gate::Always(ObjKind::Kernel))),
        "m" => Ok(Some(Gate::Always(ObjKind::Module))),
        c if c.starts_with("$(") => {
            let inner = c
                .strip_prefix("$(")
                .and_then(|c| c.strip_suffix(')'))
                .ok_or_else(|| format!("unbalanced `$(` in `{lhs}`"))?;
            let sym = inner
                .strip_prefix("CONFIG_")
                .ok_or_else(|| format!("`$({inner})` is not a CONFIG_ symbol"))?;
            if sym.is_empty() || !crate::kconfig::dotconfig::is_symbol_name(sym) {
                return Err(format!("`{sym}` is not a valid symbol name"));
            }
            Ok(Some(Gate::Symbol(sym.to_string())))
        }
        // `obj-$(foo)` with other variables, `obj-n`, `obj-` : not a list we build.
        _ => Ok(None),
    }
}

/// Logical lines (continuations joined, comments dropped), with their first line number.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut start = 0;
    for (i, raw) in text.lines().enumerate() {
        if cur.is_empty() {
            start = i + 1;
        }
        let line = match raw.find('#') {
            Some(p) if !raw[..p].ends_with('\\') => &raw[..p],
            _ => raw,
        };
        if let Some(body) = line.strip_suffix('\\') {
            cur.push_str(body);
            cur.push(' ');
            continue;
        }
        cur.push_str(line);
        out.push((start, std::mem::take(&mut cur)));
    }
    if !cur.is_empty() {
        out.push((start, cur));
    }
    out
}

/// Finds the Rust drivers the configuration enables, walking from the top of the source tree.
/// `exclude` folders (relative, e.g. `rust/`) hold the library crates and are not walked.
pub fn scan(
    srctree: &Path,
    cfg: &DotConfig,
    exclude: &[&str],
) -> Result<(Vec<DriverObj>, Vec<Skipped>), KbuildError> {
    let mut drivers = vec![];
    let mut skipped = vec![];
    // (folder relative to srctree with trailing '/', kind inherited from the parent list)
    let mut queue: Vec<(String, ObjKind)> = vec![(String::new(), ObjKind::Kernel)];
    let mut seen = std::collections::HashSet::new();
    while let Some((dir, parent_kind)) = queue.pop() {
        if !seen.insert(dir.clone()) {
            continue;
        }
        let top = dir.is_empty();
        let files: Vec<PathBuf> = if top {
            vec![srctree.join("Kbuild"), srctree.join("Makefile")]
        } else {
            let k = srctree.join(&dir).join("Kbuild");
            vec![if k.is_file() {
                k
            } else {
                srctree.join(&dir).join("Makefile")
            }]
        };
        for file in files {
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let rel_file = format!(
                "{dir}{}",
                file.file_name().unwrap_or_default().to_string_lossy()
            );
            for (lineno, line) in logical_lines(&text) {
                let Some((lhs, rhs)) = split_assignment(&line) else {
                    continue;
                };
                let at = format!("{rel_file}:{lineno}");
                let g = gate(lhs, top).map_err(|why| KbuildError::Syntax {
                    at: at.clone(),
                    line: line.trim().to_string(),
                    why,
                })?;
                let Some(g) = g else { continue };
                let (kind, symbol) = match &g {
                    Gate::Always(k) => (Some(*k), None),
                    Gate::Symbol(s) => (
                        match cfg.get(s).and_then(|v| v.tristate()) {
                            Some(crate::kconfig::Tristate::Yes) => Some(ObjKind::Kernel),
                            Some(crate::kconfig::Tristate::Module) => Some(ObjKind::Module),
                            _ => None,
                        },
                        Some(s.clone()),
                    ),
                };
                for item in rhs.split_whitespace() {
                    if item.contains('$') {
                        continue;
                    }
                    if let Some(sub) = item.strip_suffix('/') {
                        let sub = format!("{dir}{}/", sub.trim_start_matches("./"));
                        if exclude.iter().any(|e| *e == sub) {
                            continue;
                        }
                        if let Some(k) = kind {
                            // A folder listed as a module makes its `obj-y` objects modules.
                            let k = if parent_kind == ObjKind::Module {
                                ObjKind::Module
                            } else {
                                k
                            };
                            queue.push((sub, k));
                        }
                        continue;
                    }
                    let Some(stem) = item.strip_suffix(".o") else {
                        continue;
                    };
                    let src = format!("{dir}{stem}.rs");
                    if !srctree.join(&src).is_file() {
                        continue;
                    }
                    let obj = format!("{dir}{stem}.o");
                    match kind {
                        Some(k) => drivers.push(DriverObj {
                            obj,
                            src,
                            kind: if parent_kind == ObjKind::Module {
                                ObjKind::Module
                            } else {
                                k
                            },
                            symbol: symbol.clone(),
                            listed_at: at.clone(),
                        }),
                        None => skipped.push(Skipped {
                            obj,
                            symbol: symbol.clone().unwrap_or_default(),
                            listed_at: at.clone(),
                        }),
                    }
                }
            }
        }
    }
    drivers.sort_by(|a, b| a.obj.cmp(&b.obj));
    drivers.dedup_by(|a, b| a.obj == b.obj);
    skipped.sort_by(|a, b| a.obj.cmp(&b.obj));
    Ok((drivers, skipped))
}

/// `lhs += rhs` / `:=` / `=` ; `None` for anything else (rules, conditionals, recipes).
fn split_assignment(line: &str) -> Option<(&str, &str)> {
    if line.starts_with('\t') {
        return None;
    }
    for op in ["+=", ":=", "?=", "="] {
        if let Some(p) = line.find(op) {
            let lhs = line[..p].trim();
            if lhs.is_empty() || lhs.contains(char::is_whitespace) {
                return None;
            }
            return Some((lhs, &line[p + op.len()..]));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kconfig::Format;

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for (p, text) in files {
            let p = d.path().join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        d
    }

    fn cfg(text: &str) -> DotConfig {
        DotConfig::parse(Path::new(".config"), text, Format::DotConfig).unwrap()
    }

    #[test]
    fn finds_drivers_by_config_and_kind() {
        let d = tree(&[
            ("Makefile", "drivers-y := drivers/\ncore-y += rust/\n"),
            ("rust/Makefile", "obj-y += compiler_builtins.o\n"),
            ("rust/compiler_builtins.rs", ""),
            (
                "drivers/Makefile",
                "obj-$(CONFIG_A) += a.o \\\n\tc.o # c.o is C\nobj-$(CONFIG_B) += b.o\nobj-$(CONFIG_N) += n.o\nobj-$(CONFIG_SUB) += sub/\n",
            ),
            ("drivers/a.rs", ""),
            ("drivers/b.rs", ""),
            ("drivers/c.c", ""),
            ("drivers/n.rs", ""),
            ("drivers/sub/Kbuild", "obj-y += s.o\n"),
            ("drivers/sub/s.rs", ""),
        ]);
        let c = cfg("CONFIG_A=y\nCONFIG_B=m\n# CONFIG_N is not set\nCONFIG_SUB=m\n");
        let (drivers, skipped) = scan(d.path(), &c, &["rust/"]).unwrap();
        let got: Vec<(&str, ObjKind, Option<&str>)> = drivers
            .iter()
            .map(|d| (d.obj.as_str(), d.kind, d.symbol.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("drivers/a.o", ObjKind::Kernel, Some("A")),
                ("drivers/b.o", ObjKind::Module, Some("B")),
                ("drivers/sub/s.o", ObjKind::Module, None),
            ]
        );
        assert_eq!(drivers[0].listed_at, "drivers/Makefile:1");
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].obj, "drivers/n.o");
    }

    #[test]
    fn a_typo_is_reported_with_its_line() {
        let d = tree(&[
            ("Makefile", "obj-y += drivers/\n"),
            ("drivers/Makefile", "\nobj-$(CONFIG_A += a.o\n"),
        ]);
        let e = scan(d.path(), &cfg("CONFIG_A=y\n"), &[]).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("drivers/Makefile:2"), "{msg}");
        assert!(msg.contains("fix:"), "{msg}");
    }
}
