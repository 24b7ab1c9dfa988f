//! When a step is up to date: Kbuild's `if_changed_dep` + fixdep, as data.
//!
//! After a step succeeds, its fingerprint is written beside its output
//! (`rust/.core.o.rkbuild`): the command line, the program's identity (`rustc -vV`), every
//! input with its size and modification time (from the depfile, which rustc writes with
//! `-Zbinary_dep_depinfo` so crates it links are listed too), every output likewise, and the
//! value of every `CONFIG_` symbol the inputs mention. The step is up to date only when all of
//! these are unchanged. The fingerprint is removed before the step runs and written only after
//! it (and its post-steps) succeeded, so an interrupted build leaves no fingerprint and the
//! next run redoes the step.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::kconfig::DotConfig;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileStamp {
    pub path: String,
    pub size: u64,
    pub mtime_ns: i128,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fingerprint {
    pub command: String,
    pub tool: String,
    pub inputs: Vec<FileStamp>,
    pub outputs: Vec<FileStamp>,
    /// `CONFIG_X` → its value (`n` when unset), for the symbols the inputs mention.
    pub config: BTreeMap<String, String>,
}

/// Why a step must run (for `-v` and JSON).
pub type Reason = String;

/// Where a step's fingerprint lives: `dir/.file.rkbuild` beside the main output.
pub fn path_for(objtree: &Path, id: &str) -> PathBuf {
    let (dir, file) = id.rsplit_once('/').unwrap_or(("", id));
    objtree.join(dir).join(format!(".{file}.rkbuild"))
}

pub fn stamp(path: &Path, shown: &str) -> Option<FileStamp> {
    let m = std::fs::metadata(path).ok()?;
    let t = m.modified().ok()?;
    let ns = match t.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i128,
        Err(e) => -(e.duration().as_nanos() as i128),
    };
    Some(FileStamp {
        path: shown.to_string(),
        size: m.len(),
        mtime_ns: ns,
    })
}

/// Resolves a path as a step wrote it (relative to the object tree, or absolute).
pub fn resolve(objtree: &Path, p: &str) -> PathBuf {
    let pb = Path::new(p);
    if pb.is_absolute() {
        pb.to_path_buf()
    } else {
        objtree.join(pb)
    }
}

/// The prerequisites in a make-style depfile (rustc's `--emit=dep-info`, clang's `-MMD`):
/// every path on the right of a `target:` line, with `\ ` for spaces and `\` continuations.
pub fn parse_depfile(text: &str) -> Vec<String> {
    let joined = text.replace("\\\n", " ");
    let mut out: Vec<String> = vec![];
    for line in joined.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        // `target: deps`; the colon is the first one followed by a space or the end (paths
        // may hold `:` only on Windows, which Kbuild does not run on).
        let Some(p) = line
            .find(": ")
            .or_else(|| line.strip_suffix(':').map(|s| s.len()))
        else {
            continue;
        };
        let mut word = String::new();
        let mut chars = line[p + 1..].chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&' ') => {
                    word.push(' ');
                    chars.next();
                }
                c if c.is_whitespace() => {
                    if !word.is_empty() {
                        out.push(std::mem::take(&mut word));
                    }
                }
                c => word.push(c),
            }
        }
        if !word.is_empty() {
            out.push(word);
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.clone()));
    out
}

/// The `CONFIG_` symbols a source text mentions (fixdep's scan).
pub fn config_symbols(text: &str, into: &mut std::collections::BTreeSet<String>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(off) = text[i..].find("CONFIG_") {
        let start = i + off;
        let mut end = start + "CONFIG_".len();
        while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
            end += 1;
        }
        let preceded =
            start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
        if end > start + "CONFIG_".len() && !preceded {
            into.insert(text[start + "CONFIG_".len()..end].to_string());
        }
        i = end;
    }
}

pub fn config_value(cfg: &DotConfig, sym: &str) -> String {
    cfg.get(sym)
        .map(|v| v.text().into_owned())
        .unwrap_or_else(|| "n".into())
}

/// Compares a stored fingerprint with the present; `None` when up to date.
pub fn stale_reason(
    old: &Fingerprint,
    command: &str,
    tool: &str,
    objtree: &Path,
    cfg: &DotConfig,
) -> Option<Reason> {
    if old.command != command {
        return Some("the command line changed".into());
    }
    if old.tool != tool {
        return Some("the toolchain changed".into());
    }
    for f in old.inputs.iter().chain(&old.outputs) {
        match stamp(&resolve(objtree, &f.path), &f.path) {
            Some(now) if now == *f => {}
            Some(_) => return Some(format!("`{}` changed", f.path)),
            None => return Some(format!("`{}` is missing", f.path)),
        }
    }
    for (sym, val) in &old.config {
        let now = config_value(cfg, sym);
        if &now != val {
            return Some(format!("CONFIG_{sym} changed ({val} → {now})"));
        }
    }
    None
}

pub fn load(path: &Path) -> Option<Fingerprint> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depfiles_of_rustc_and_clang() {
        let rustc = "rust/core.o: /lib/core/src/lib.rs /lib/core/src/a\\ b.rs\n\n/lib/core/src/lib.rs:\n\n# env-dep:OBJTREE=/o\n";
        assert_eq!(
            parse_depfile(rustc),
            ["/lib/core/src/lib.rs", "/lib/core/src/a b.rs"]
        );
        let clang = "rust/bindings/bindings_generated.rs: /s/h.h \\\n  /s/include/linux/types.h\n";
        assert_eq!(parse_depfile(clang), ["/s/h.h", "/s/include/linux/types.h"]);
    }

    #[test]
    fn config_symbols_like_fixdep() {
        let mut s = std::collections::BTreeSet::new();
        config_symbols(
            "#[cfg(CONFIG_FOO)] x; if IS_ENABLED(CONFIG_BAR_2) {} MY_CONFIG_NOT CONFIG_",
            &mut s,
        );
        assert_eq!(s.into_iter().collect::<Vec<_>>(), ["BAR_2", "FOO"]);
    }
}
