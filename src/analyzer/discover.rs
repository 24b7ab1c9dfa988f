//! Finding the crates outside `rust/` the way Kbuild builds them.
//!
//! A driver or sample is a crate root when the `Makefile` or `Kbuild` beside it names
//! `<stem>.o` as a Kbuild word (`obj-m += foo.o`, `foo-y := foo.o`). The kernel's script tests
//! for the substring, so `xfoo.o` would also count there; on the 6.12 and 7.3 trees both rules
//! find the same files. Unlike the kernel's script (filesystem order), results are sorted, so
//! the output does not change between machines.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// A crate root found in a folder tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundCrate {
    /// The crate name (see [`crate_name`]); the 6.12 script used the file stem instead.
    pub name: String,
    pub stem: String,
    pub root: PathBuf,
}

/// Every `.rs` file under `dir` (recursively, not following symlinked folders), sorted.
pub fn rust_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = vec![];
    for e in walkdir::WalkDir::new(dir) {
        let e = match e {
            Ok(e) => e,
            // A folder gone while listing (not the top one) is no error.
            Err(err)
                if err.depth() > 0
                    && err
                        .io_error()
                        .is_some_and(|io| io.kind() == ErrorKind::NotFound) =>
            {
                continue
            }
            Err(err) => {
                let at = err.path().unwrap_or(dir).display().to_string();
                return Err(err).with_context(|| format!("cannot list `{at}`"));
            }
        };
        let p = e.path();
        // A symlink to a file counts; symlinked folders are not followed.
        if p.extension().is_some_and(|x| x == "rs") && (e.file_type().is_file() || p.is_file()) {
            out.push(e.into_path());
        }
    }
    out.sort();
    Ok(out)
}

/// Whether `text` (a Makefile or Kbuild file) names `obj` as a whole word.
pub fn names_object(text: &str, obj: &str) -> bool {
    let boundary_before = |c: char| c.is_whitespace() || matches!(c, '=' | ':' | '+' | '(' | ',');
    let boundary_after = |c: char| c.is_whitespace() || matches!(c, '\\' | ')' | ',' | '#');
    text.match_indices(obj).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + obj.len()..].chars().next();
        before.is_none_or(boundary_before) && after.is_none_or(boundary_after)
    })
}

/// Reads a build file; a missing one is `None`, an unreadable one an error.
fn read_build_file(p: &Path) -> anyhow::Result<Option<String>> {
    match std::fs::read(p) {
        Ok(b) => Ok(Some(String::from_utf8_lossy(&b).into_owned())),
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => Ok(None),
        Err(e) => Err(e).with_context(|| {
            format!(
                "cannot read `{}`, needed to tell which Rust files are crate roots\n  fix: make it readable (chmod a+r)",
                p.display()
            )
        }),
    }
}

/// The crate roots under `dir`, sorted by path. `makefile_only` is the 2021 rule (no `Kbuild`).
pub fn crate_roots(dir: &Path, makefile_only: bool) -> anyhow::Result<Vec<FoundCrate>> {
    let mut cache: std::collections::HashMap<PathBuf, Vec<String>> = Default::default();
    let mut out = vec![];
    for f in rust_files(dir)? {
        let stem = f
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let parent = f.parent().unwrap_or(Path::new(".")).to_path_buf();
        if !cache.contains_key(&parent) {
            let mut texts = vec![];
            let names: &[&str] = if makefile_only {
                &["Makefile"]
            } else {
                &["Makefile", "Kbuild"]
            };
            for n in names {
                if let Some(t) = read_build_file(&parent.join(n))? {
                    texts.push(t);
                }
            }
            cache.insert(parent.clone(), texts);
        }
        let obj = format!("{stem}.o");
        if cache[&parent].iter().any(|t| names_object(t, &obj)) {
            let text = std::fs::read_to_string(&f)
                .with_context(|| format!("cannot read `{}`", f.display()))?;
            out.push(FoundCrate {
                name: crate_name(&stem, &text),
                stem,
                root: f,
            });
        }
    }
    Ok(out)
}

/// The crate name rustc gives a root file (`rustc --print crate-name`): its
/// `#![crate_name = "…"]` if it has one, else the file stem with `-` made `_`.
pub fn crate_name(stem: &str, text: &str) -> String {
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("#![crate_name") {
            let rest = rest.trim_start();
            if let Some(v) = rest.strip_prefix('=') {
                let v = v.trim();
                if let Some(q) = v.strip_prefix('"') {
                    if let Some(end) = q.find('"') {
                        return q[..end].to_string();
                    }
                }
            }
        }
    }
    stem.replace('-', "_")
}

/// The host programs rust-analyzer should know: `scripts/<stem>.rs` whose `<stem>-rust` appears
/// in `scripts/Makefile` (as the kernel's script checks), sorted.
pub fn host_programs(srctree: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let scripts = srctree.join("scripts");
    let Some(makefile) = read_build_file(&scripts.join("Makefile"))? else {
        return Ok(vec![]);
    };
    let mut out = vec![];
    let rd = match std::fs::read_dir(&scripts) {
        Ok(rd) => rd,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(e).with_context(|| format!("cannot list `{}`", scripts.display())),
    };
    for e in rd {
        let p = e?.path();
        if p.extension().is_some_and(|x| x == "rs") && p.is_file() {
            let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            if makefile.contains(&format!("{stem}-rust")) {
                out.push((stem.to_string(), p));
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kbuild_words() {
        for (text, yes) in [
            ("obj-$(CONFIG_X) += foo.o\n", true),
            ("obj-m := foo.o bar.o", true),
            ("rust_binder-y := \\\n\tfoo.o \\\n", true),
            ("obj-y += xfoo.o", false),
            ("obj-y += foo.os", false),
            ("obj-y += foo.o# comment", true),
            ("", false),
        ] {
            assert_eq!(names_object(text, "foo.o"), yes, "{text:?}");
        }
    }

    #[test]
    fn crate_name_follows_rustc() {
        assert_eq!(crate_name("rust_print_main", "//! x\n"), "rust_print_main");
        assert_eq!(crate_name("nova-core", ""), "nova_core");
        assert_eq!(
            crate_name("main", "// SPDX\n#![crate_name = \"rust_binder\"]\n"),
            "rust_binder"
        );
    }

    #[test]
    fn finds_roots_sorted_and_ignores_unnamed_files() {
        let d = tempfile::tempdir().unwrap();
        let w = |p: &str, t: &str| {
            let p = d.path().join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, t).unwrap();
        };
        w("b/Kbuild", "obj-m += zed.o\n");
        w("b/zed.rs", "");
        w("b/helper.rs", "");
        w("a/Makefile", "obj-y += alpha.o\n");
        w("a/alpha.rs", "");
        w("c/none.rs", "");
        let got: Vec<_> = crate_roots(d.path(), false)
            .unwrap()
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(got, ["alpha", "zed"]);
        let got: Vec<_> = crate_roots(d.path(), true)
            .unwrap()
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(got, ["alpha"], "2021 looks at Makefile only");
    }
}
