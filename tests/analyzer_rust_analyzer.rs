//! The real consumer: rust-analyzer (0.0.349, built by scripts/install-deps.sh) loads the
//! rust-project.json `rkbuild analyzer --extmod` writes for the fixture module against the real
//! 6.12 tree, and must resolve every import of the kernel crates and expand `module!`.
//!
//! The objtree is made the way a user makes it: `rkbuild config` from the 6.12 oracle's
//! `.config`, plus `libmacros.so`. A proc macro can only be loaded by the proc-macro server of
//! the rustc that built it, and the server must speak the client's protocol: Debian 1.85's
//! `/usr/libexec/rust-analyzer-proc-macro-srv` crashes under rust-analyzer 0.0.349
//! (`assertion failed: id < InternId::MAX`), so the test builds `libmacros.so` with the nightly
//! here and hands rust-analyzer that nightly's server (`--proc-macro-srv`). A user's editor
//! pairs its rust-analyzer with its rustc, which this stands in for.
//!
//! A negative control (the module's `kernel` dependency removed) shows the check does see
//! unresolved imports.

mod common;

use std::path::{Path, PathBuf};

use rkbuild::analyzer::project_json::ProjectJson;
use rkbuild::process::Process;

/// Diagnostics rust-analyzer reports for one crate, by kind.
#[derive(Debug, Default)]
struct Findings {
    unresolved_imports: Vec<String>,
    unresolved_names: Vec<String>,
    macro_failures: Vec<String>,
    all: usize,
}

/// Runs `rust-analyzer diagnostics DIR` and sorts its lines for crate `krate`
/// (`at crate NAME, file PATH: SEVERITY CODE from .. to ..: MESSAGE`).
fn diagnostics(ra: &str, srv: &Path, dir: &Path, krate: &str) -> Findings {
    let out = Process::new(ra)
        .arg("diagnostics")
        .arg(dir)
        .arg("--proc-macro-srv")
        .arg(srv)
        .output()
        .expect("rust-analyzer runs");
    let text = format!("{}{}", out.stdout, out.stderr);
    assert!(
        text.contains("diagnostic scan complete"),
        "rust-analyzer did not finish:\n{text}"
    );
    let mut f = Findings::default();
    let prefix = format!("at crate {krate}, ");
    for l in text.lines().filter(|l| l.starts_with(&prefix)) {
        f.all += 1;
        let l = l.to_string();
        if l.contains("\"E0432\"") || l.contains("unresolved-extern-crate") {
            f.unresolved_imports.push(l);
        } else if l.contains("\"E0425\"")
            || l.contains("\"E0433\"")
            || l.contains("\"E0412\"")
            || l.contains("unresolved-macro-call")
        {
            f.unresolved_names.push(l);
        } else if l.contains("macro-error") || l.contains("proc-macro") || l.contains("proc macro")
        {
            f.macro_failures.push(l);
        }
    }
    f
}

fn rkbuild(args: &[&str], rustc: &str, lib: &str) {
    let out = Process::new(env!("CARGO_BIN_EXE_rkbuild"))
        .args(args)
        .env("RUSTC", rustc)
        .env("RUST_LIB_SRC", lib)
        .output()
        .unwrap();
    assert!(
        out.success(),
        "rkbuild {args:?}: {}{}",
        out.stdout,
        out.stderr
    );
}

#[test]
fn fixture_module_resolves_the_kernel_crates() {
    let ra = common::tool_env("RKBUILD_TEST_RUST_ANALYZER");
    let src = PathBuf::from(common::tool_env("RKBUILD_TEST_LINUX_612"));
    let rustc = common::tool_env("RKBUILD_TEST_RUSTC_185");
    let lib = common::tool_env("RKBUILD_TEST_LIB_185");
    let obj = tempfile::tempdir().unwrap();
    let config = common::oracle("linux-6.12/x86_64-defconfig-rust/config");
    let (s, o) = (src.to_str().unwrap(), obj.path().to_str().unwrap());
    rkbuild(
        &[
            "-q",
            "config",
            "--config",
            config.to_str().unwrap(),
            "-S",
            s,
            "-O",
            o,
        ],
        &rustc,
        &lib,
    );
    // libmacros.so, as the kernel builds it (rust/Makefile: rustc_procmacro), by the nightly
    // whose proc-macro server loads it (see the module docs).
    let nightly = Process::new("rustc")
        .args(["+nightly", "--print", "sysroot"])
        .output()
        .expect("rustup's nightly rustc is needed");
    assert!(nightly.success(), "rustc +nightly: {}", nightly.stderr);
    let nightly = PathBuf::from(nightly.stdout.trim());
    let srv = nightly.join("libexec/rust-analyzer-proc-macro-srv");
    std::fs::create_dir_all(obj.path().join("rust")).unwrap();
    let out = Process::new(nightly.join("bin/rustc"))
        .args([
            "--edition=2021",
            "--crate-type",
            "proc-macro",
            "--crate-name",
            "macros",
        ])
        .args(["--extern", "proc_macro", "-o"])
        .arg(obj.path().join("rust/libmacros.so"))
        .arg(src.join("rust/macros/lib.rs"))
        .output()
        .unwrap();
    assert!(out.success(), "building libmacros.so: {}", out.stderr);

    let m = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/analyzer/rust_hello");
    for e in std::fs::read_dir(&fixture).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), m.path().join(e.file_name())).unwrap();
    }
    let md = m.path().to_str().unwrap();
    rkbuild(
        &["-q", "analyzer", "-S", s, "-O", o, "--extmod", md],
        &rustc,
        &lib,
    );

    let f = diagnostics(&ra, &srv, m.path(), "rust_hello");
    eprintln!("rust_hello: {f:#?}");
    assert!(
        f.unresolved_imports.is_empty(),
        "unresolved imports of the kernel crates:\n{}",
        f.unresolved_imports.join("\n")
    );
    // Unresolved names are reported, not fatal: inside the kernel's `c_str!` expansion
    // rust-analyzer 0.0.349 leaves `panic!` unresolved in a crate made `no_std` by
    // `crate_attrs` (the kernel's own rust-project.json has no `no_std` at all for drivers).
    assert!(
        f.unresolved_names
            .iter()
            .all(|l| l.contains("`panic!`") || l.contains("as_bytes")),
        "unresolved names beyond the known `panic!` in c_str!:\n{}",
        f.unresolved_names.join("\n")
    );
    assert!(
        f.macro_failures.is_empty(),
        "failed macro expansions (module!, pr_info!):\n{}",
        f.macro_failures.join("\n")
    );

    // Negative control: without its `kernel` dependency the same module must show unresolved
    // imports, so the check above is not blind.
    let path = m.path().join("rust-project.json");
    let mut p = ProjectJson::parse(&common::read(&path)).unwrap();
    let hello = p.crates.last_mut().unwrap();
    hello.deps.retain(|d| d.name != "kernel");
    std::fs::write(&path, p.render()).unwrap();
    let f = diagnostics(&ra, &srv, m.path(), "rust_hello");
    assert!(
        !f.unresolved_imports.is_empty(),
        "rust-analyzer found no unresolved import without the kernel crate: {f:#?}"
    );
}
