//! `rkbuild fmt [--check]`: rustfmt over the tree's Rust files with the tree's `.rustfmt.toml`,
//! the files `make rustfmt` formats (the layout says which: every `*.rs` of the source tree but
//! the vendored crates and the generated files). `--check` is `make rustfmtcheck`: rustfmt's
//! diffs, and a non-zero exit when a file is not formatted.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::layout::{FmtDesc, Layout};
use crate::process::Process;
use crate::toolchain::{self, FIX_RUSTFMT};

/// What `fmt` found.
#[derive(Debug, serde::Serialize)]
pub struct FmtReport {
    pub files: usize,
    /// With `--check`: the files rustfmt would change.
    pub unformatted: Vec<PathBuf>,
    pub ok: bool,
}

/// Folders `find` is told never to enter (Kbuild's `RCS_FIND_IGNORE`).
const VCS: &[&str] = &[".git", ".hg", ".svn", ".pc", "CVS", ".bzr", ".repo"];

/// The Rust files of `srctree` that `make rustfmt` formats, sorted.
pub fn files(srctree: &Path, objtree: &Path, d: &FmtDesc) -> Vec<PathBuf> {
    let pruned: Vec<PathBuf> = d
        .prune
        .iter()
        .map(|p| srctree.join(p))
        .chain(d.objtree_prune.iter().map(|p| objtree.join(p)))
        .collect();
    let mut out = vec![];
    let walk = walkdir::WalkDir::new(srctree)
        .into_iter()
        .filter_entry(|e| {
            !(e.file_type().is_dir()
                && (VCS.contains(&e.file_name().to_string_lossy().as_ref())
                    || pruned.iter().any(|p| p == e.path())))
        });
    for e in walk.flatten() {
        let name = e.file_name().to_string_lossy();
        if !e.file_type().is_file() || !name.ends_with(".rs") {
            continue;
        }
        let generated = match d.skip_generated.as_str() {
            "path" => e.path().to_string_lossy().contains("generated"),
            "name" => name.contains("generated"),
            _ => false,
        };
        if !generated {
            out.push(e.into_path());
        }
    }
    out.sort();
    out
}

/// Runs rustfmt (`--check` or in place) over the tree's files.
pub fn run(
    srctree: &Path,
    objtree: &Path,
    kbuild: Option<&str>,
    rustfmt: Option<&str>,
    check: bool,
) -> anyhow::Result<FmtReport> {
    let layout = Layout::resolve(kbuild, Some(srctree), None)?.layout;
    let Some(d) = &layout.fmt else {
        bail!("the {layout} layout does not say which files `make rustfmt` formats\n  fix: run rustfmt on the files yourself");
    };
    let name = rustfmt
        .map(String::from)
        .or_else(|| std::env::var("RUSTFMT").ok().filter(|v| !v.is_empty()))
        .unwrap_or_else(|| "rustfmt".into());
    let via = rustfmt.is_none().then_some("RUSTFMT");
    let program = toolchain::resolve(&name, "rustfmt", via, FIX_RUSTFMT)?;
    let files = files(srctree, objtree, d);
    let mut unformatted = vec![];
    let mut ok = true;
    // In batches, as xargs would.
    for batch in files.chunks(500) {
        let mut p = Process::new(&program);
        if check {
            p = p.arg("--check");
        }
        let o = p.args(batch).output()?;
        print!("{}", o.stdout);
        eprint!("{}", o.stderr);
        for l in o.stdout.lines() {
            if let Some(rest) = l.strip_prefix("Diff in ") {
                // `Diff in /path/file.rs:12:` (rustfmt 1.x) or `… at line 12:`.
                let file = rest
                    .split(" at line ")
                    .next()
                    .unwrap_or(rest)
                    .trim_end_matches(':');
                let file = file.rsplit_once(".rs:").map(|(f, _)| format!("{f}.rs"));
                let file = PathBuf::from(file.unwrap_or_else(|| rest.trim_end_matches(':').into()));
                if !unformatted.contains(&file) {
                    unformatted.push(file);
                }
            }
        }
        ok &= o.success();
    }
    Ok(FmtReport {
        files: files.len(),
        unformatted,
        ok,
    })
}
