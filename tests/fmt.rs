//! `rkbuild fmt` against the kernel's own `make rustfmt` / `rustfmtcheck`, on the 6.12 and 7.3
//! trees (the files those targets need: the Makefile and scripts, x86's makefiles, the
//! `.rustfmt.toml` and every `.rs`, copied so that one can be unformatted): the same files are
//! formatted, a clean tree passes both checks, and one unformatted file fails both with the
//! same file named; `rkbuild fmt` then formats it and both checks pass again.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The parts of a kernel tree that `make rustfmt` reads.
fn skeleton(src: &Path) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            let rel = p.strip_prefix(src).unwrap();
            let r = rel.to_string_lossy();
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                stack.push(p);
                continue;
            }
            if !ft.is_file() {
                continue;
            }
            let arch_mk =
                r.starts_with("arch/x86/") && (r.contains("Makefile") || r.contains("Kbuild"));
            let want = r.ends_with(".rs")
                || r.starts_with("scripts/")
                || arch_mk
                || r == "Makefile"
                || r == ".rustfmt.toml";
            if want {
                let to = d.path().join(rel);
                std::fs::create_dir_all(to.parent().unwrap()).unwrap();
                std::fs::copy(&p, &to).unwrap();
            }
        }
    }
    d
}

fn rustfmt() -> PathBuf {
    let r = PathBuf::from(common::tool_env("RKBUILD_TEST_RUSTC_195"));
    let f = r.parent().unwrap().join("rustfmt");
    assert!(
        f.is_file(),
        "rustfmt is needed beside rustc 1.95: {}",
        f.display()
    );
    f
}

/// `make rustfmtcheck` (or `rustfmt`) in `tree` with `fmt` as RUSTFMT: (success, stdout).
fn make(tree: &Path, target: &str, fmt: &Path) -> (bool, String) {
    let o = Command::new("make")
        .arg("-C")
        .arg(tree)
        .arg(target)
        .arg(format!("RUSTFMT={}", fmt.display()))
        .env_remove("MAKEFLAGS")
        .env_remove("MAKELEVEL")
        .output()
        .expect("make is needed");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

fn rkbuild(tree: &Path, check: bool, fmt: &Path) -> (bool, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rkbuild"));
    c.args(["fmt", "-S"]).arg(tree).arg("--rustfmt").arg(fmt);
    if check {
        c.arg("--check");
    }
    let o = c.env_remove("RUSTFMT").output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// The files named in rustfmt's `Diff in FILE:LINE:` lines.
fn diffs(out: &str) -> BTreeSet<String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("Diff in "))
        .map(|r| r.split(".rs:").next().unwrap().to_string() + ".rs")
        .collect()
}

fn same_as_make(src_var: &str) {
    let src = PathBuf::from(common::tool_env(src_var));
    let tree = skeleton(&src);
    let t = tree.path();
    // The file lists: a RUSTFMT that prints what it was given.
    let echo = t.join("list-args.sh");
    std::fs::write(&echo, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n").unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&echo, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Files relative to the tree: 7.3's make names them `./…` (`find $(srctree)`), 6.12's and
    // rkbuild's absolutely.
    let tree_s = t.display().to_string();
    let rel = |p: &str| -> String {
        p.strip_prefix(&tree_s)
            .or_else(|| p.strip_prefix('.'))
            .unwrap_or(p)
            .trim_start_matches('/')
            .to_string()
    };
    let words = |s: &str| -> BTreeSet<String> {
        s.lines().filter(|l| l.ends_with(".rs")).map(&rel).collect()
    };
    let (_, from_make) = make(t, "rustfmt", &echo);
    let (_, from_rk) = rkbuild(t, false, &echo);
    let (m, r) = (words(&from_make), words(&from_rk));
    assert!(
        m.len() > 50,
        "{src_var}: make formats only {} files",
        m.len()
    );
    assert_eq!(m, r, "{src_var}: the files differ from make rustfmt's");

    // The verdicts: clean, then one file unformatted, then formatted by rkbuild.
    let fmt = rustfmt();
    let (mk_ok, _) = make(t, "rustfmtcheck", &fmt);
    let (rk_ok, _) = rkbuild(t, true, &fmt);
    assert!(mk_ok && rk_ok, "{src_var}: a clean tree fails a check");
    let victim = t.join("samples/rust/rust_minimal.rs");
    let mut text = common::read(&victim);
    text.push_str("\nfn   unformatted ( ) {  }\n");
    std::fs::write(&victim, text).unwrap();
    let (mk_ok, mk_out) = make(t, "rustfmtcheck", &fmt);
    let (rk_ok, rk_out) = rkbuild(t, true, &fmt);
    assert!(
        !mk_ok && !rk_ok,
        "{src_var}: an unformatted file passes a check"
    );
    let want: BTreeSet<String> = ["samples/rust/rust_minimal.rs".to_string()].into();
    let named = |out: &str| -> BTreeSet<String> {
        diffs(out)
            .iter()
            .map(|f| rel(f))
            .collect::<BTreeSet<String>>()
    };
    assert_eq!(named(&mk_out), want);
    assert_eq!(named(&rk_out), want);
    let (ok, _) = rkbuild(t, false, &fmt);
    assert!(ok);
    let (mk_ok, _) = make(t, "rustfmtcheck", &fmt);
    assert!(mk_ok, "{src_var}: rkbuild fmt left the file unformatted");
    eprintln!("  {src_var}: {} files, the same as make rustfmt's", r.len());
}

#[test]
fn linux_7_3_fmt_equals_make_rustfmt() {
    same_as_make("RKBUILD_TEST_LINUX_73");
}

#[test]
fn linux_6_12_fmt_equals_make_rustfmt() {
    same_as_make("RKBUILD_TEST_LINUX_612");
}
