//! A kernel make target beside rkbuild's command for it on a real kernel tree (`make
//! rusttest` and `rkbuild test`, `make rustdoc` and `rkbuild doc`): make runs in a copy of a
//! make-built object tree (its `V=1` log, and the files it wrote, kept in that tree, so it
//! runs once per tree), rkbuild in its own; every command and every `test result:` line must
//! be the same.

use std::path::Path;
use std::process::Command;

/// make's `V=1` log of `make TARGET` for the object tree `refdir`, the object tree's path
/// written `$O`, and the files below `dir` (relative to the object tree) it left. `make` is
/// the kernel's make for an object tree, without the target.
pub fn make_log(
    refdir: &Path,
    target: &str,
    dir: &str,
    make: impl Fn(&Path) -> Command,
) -> (String, Vec<String>) {
    make_log_with(refdir, target, &[target], dir, make)
}

/// [`make_log`] of make with `args` (`CLIPPY=1 rusttest`), kept under `name`.
pub fn make_log_with(
    refdir: &Path,
    name: &str,
    args: &[&str],
    dir: &str,
    make: impl Fn(&Path) -> Command,
) -> (String, Vec<String>) {
    let keep = refdir.join(format!(".rkbuild-{name}-v1.log"));
    let keep_files = refdir.join(format!(".rkbuild-{name}-files.txt"));
    if let (Ok(text), Ok(files)) = (
        std::fs::read_to_string(&keep),
        std::fs::read_to_string(&keep_files),
    ) {
        return (text, files.lines().map(String::from).collect());
    }
    let copy = tempfile::tempdir().unwrap();
    let o = copy.path().join("o");
    super::cp_a(refdir, &o);
    let mut c = make(&o);
    c.arg("V=1").args(args);
    let text = super::run_timed(c, &format!("make {} V=1 (reference)", args.join(" ")));
    let text = text.replace(&o.display().to_string(), "$O");
    let files = files_below(&o.join(dir));
    std::fs::write(&keep_files, files.join("\n")).unwrap();
    std::fs::write(&keep, &text).unwrap();
    (text, files)
}

/// Every file below `dir`, relative to it, sorted.
pub fn files_below(dir: &Path) -> Vec<String> {
    let mut out = vec![];
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

/// A command as words: its environment, the program's file name and the arguments, the object
/// tree written `$O`; without the two words rkbuild adds for its depfile.
fn words(line: &str, objtree: &str) -> Vec<String> {
    let line = line.replace(objtree, "$O");
    let mut out = vec![];
    let mut program = false;
    for w in shlex::split(&line).unwrap_or_else(|| panic!("cannot split `{line}`")) {
        if !program && !w.contains('=') {
            program = true;
            out.push(w.rsplit('/').next().unwrap().to_string());
            continue;
        }
        if w.starts_with("--emit=dep-info=rust/test/") || w == "--emit=link" {
            continue;
        }
        out.push(w);
    }
    out
}

/// The commands of make's log that `pick` picks (a line holding `--crate-name`), with the
/// result lines.
pub fn from_make(log: &str, pick: impl Fn(&str) -> bool) -> (Vec<Vec<String>>, Vec<String>) {
    let mut cmds = vec![];
    for l in log.lines().map(str::trim) {
        if !pick(l) || l.starts_with('#') || !l.contains("--crate-name") {
            continue;
        }
        // `cmd_rustc_test`: the compile, `;`, then the run.
        for part in l.split("; ") {
            cmds.push(words(part, "$O"));
        }
    }
    (cmds, results(log))
}

/// The commands of the steps `pick` picks (by id) rkbuild ran and its result lines, from
/// `--message-format json`.
pub fn from_rkbuild(
    json: &str,
    objtree: &Path,
    pick: impl Fn(&str) -> bool,
) -> (Vec<Vec<String>>, Vec<String>) {
    let o = std::fs::canonicalize(objtree)
        .unwrap()
        .display()
        .to_string();
    let mut cmds = vec![];
    let mut out = String::new();
    for l in json.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(l) else {
            continue;
        };
        if v["reason"] != "step" || v["status"] != "built" {
            continue;
        }
        let id = v["id"].as_str().unwrap();
        let Some(cmd) = v["command"].as_str().filter(|_| pick(id)) else {
            continue;
        };
        cmds.push(words(cmd, &o));
        out.push_str(v["output"].as_str().unwrap_or_default());
    }
    (cmds, results(&out))
}

/// `test result:` lines without their timing.
fn results(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("test result: "))
        .map(|l| l.split("; finished").next().unwrap().to_string())
        .collect();
    v.sort();
    v
}

/// Both sides: the same commands (in any order) and the same results.
pub fn assert_same(make: (Vec<Vec<String>>, Vec<String>), rk: (Vec<Vec<String>>, Vec<String>)) {
    let (mut a, ra) = make;
    let (mut b, rb) = rk;
    a.sort();
    b.sort();
    assert!(a.len() >= 3, "too few commands in make's log: {a:?}");
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y, "a command differs (make, then rkbuild)");
    }
    assert_eq!(a.len(), b.len(), "make ran {a:?}\nrkbuild ran {b:?}");
    assert_eq!(ra, rb, "the test results differ (make, then rkbuild)");
    eprintln!(
        "  {} commands and {} test results equal to make's",
        a.len(),
        ra.len()
    );
}

/// `make rusttest`'s commands: those naming `rust/test`.
pub fn rusttest_line(l: &str) -> bool {
    l.contains("./rust/test")
}

/// `rkbuild test`'s steps.
pub fn rusttest_step(id: &str) -> bool {
    id.starts_with("rust/test/") || id.starts_with("rusttest-") || id.starts_with("rustdoctest-")
}

/// `make rustdoc`'s commands: rustdoc writing HTML.
pub fn rustdoc_line(l: &str) -> bool {
    l.contains("rustdoc ") && l.contains("--output") && !l.contains("--test")
}

/// `rkbuild doc`'s rustdoc steps.
pub fn rustdoc_step(id: &str) -> bool {
    id.starts_with("rustdoc-")
}

/// The documentation's files, without rustdoc's search index (chunks named by the hash of
/// their content, which depends on the order the crates were documented in).
pub fn doc_files(files: &[String]) -> Vec<&str> {
    files
        .iter()
        .map(String::as_str)
        .filter(|f| !f.starts_with("search.index/"))
        .collect()
}
