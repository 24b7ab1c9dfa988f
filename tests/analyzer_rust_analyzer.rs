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

/// Runs `rust-analyzer diagnostics DIR` and returns its diagnostic lines
/// (`at crate NAME, file PATH: SEVERITY CODE from .. to ..: MESSAGE`).
fn diagnostic_lines(ra: &str, srv: &Path, dir: &Path) -> Vec<String> {
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
    text.lines()
        .filter(|l| l.starts_with("at crate "))
        .map(String::from)
        .collect()
}

/// The lines of crate `krate` (all crates for `None`), sorted by kind.
fn findings(lines: &[String], krate: Option<&str>) -> Findings {
    let mut f = Findings::default();
    let prefix = krate.map(|k| format!("at crate {k}, ")).unwrap_or_default();
    for l in lines.iter().filter(|l| l.starts_with(&prefix)) {
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

fn diagnostics(ra: &str, srv: &Path, dir: &Path, krate: &str) -> Findings {
    findings(&diagnostic_lines(ra, srv, dir), Some(krate))
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

    // Negative control: the check above is not blind.
    unresolved_without_kernel(&ra, &srv, m.path());
}

/// Negative control: with `rust_hello`'s `kernel` dependency removed from DIR's
/// rust-project.json, rust-analyzer must report unresolved imports in it.
fn unresolved_without_kernel(ra: &str, srv: &Path, dir: &Path) {
    let path = dir.join("rust-project.json");
    let mut p = ProjectJson::parse(&common::read(&path)).unwrap();
    let hello = p
        .crates
        .iter_mut()
        .find(|c| c.display_name.as_deref() == Some("rust_hello"))
        .unwrap();
    hello.deps.retain(|d| d.name != "kernel");
    std::fs::write(&path, p.render()).unwrap();
    let f = diagnostics(ra, srv, dir, "rust_hello");
    assert!(
        !f.unresolved_imports.is_empty(),
        "rust-analyzer found no unresolved import without the kernel crate: {f:#?}"
    );
}

/// Runs rkbuild with `env` and returns its stdout.
fn rkbuild_with(args: &[&str], env: &[(String, String)]) -> String {
    let mut p = Process::new(env!("CARGO_BIN_EXE_rkbuild")).args(args);
    for (k, v) in env {
        p = p.env(k, v);
    }
    let out = p.output().unwrap();
    assert!(
        out.success(),
        "rkbuild {args:?}: {}{}",
        out.stdout,
        out.stderr
    );
    out.stdout
}

/// The bundled example tree, built by `rkbuild build` with rustup's 1.95 and Debian's rust-src
/// 1.95 (the same library): `analyzer --from-plan` must list exactly the crates of
/// `rkbuild plan` and load in rust-analyzer without a single diagnostic; the kernel-style
/// in-tree file must resolve every import of the kernel crates. 1.95's own proc-macro server
/// loads the `libmacros.so` the build made, as an editor on that toolchain would.
#[test]
fn example_tree_loads_cleanly_from_the_plan() {
    let ra = common::tool_env("RKBUILD_TEST_RUST_ANALYZER");
    let rustc = common::tool_env("RKBUILD_TEST_RUSTC_195");
    let lib = common::tool_env("RKBUILD_TEST_LIB_195");
    let env = vec![
        ("RUSTC".to_string(), rustc.clone()),
        ("RUST_LIB_SRC".to_string(), lib.clone()),
        (
            "BINDGEN".to_string(),
            common::tool_env("RKBUILD_TEST_BINDGEN"),
        ),
        (
            "LIBCLANG_PATH".to_string(),
            common::tool_env("RKBUILD_TEST_LIBCLANG_PATH"),
        ),
    ];
    let srv = Path::new(&rustc)
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("libexec/rust-analyzer-proc-macro-srv");
    assert!(srv.is_file(), "{} is missing", srv.display());
    let mk = common::minikernel();
    let obj = tempfile::tempdir().unwrap();
    let config = mk.join("configs/x86_64.config");
    let tree = [
        "-S",
        mk.to_str().unwrap(),
        "-O",
        obj.path().to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ];
    let with = |cmd: &[&'static str]| -> Vec<&str> { cmd.iter().chain(&tree).copied().collect() };
    rkbuild_with(&with(&["-q", "build"]), &env);

    // The crates the plan compiles (those built from the Rust library come as sysroot_src).
    let plan: serde_json::Value = serde_json::from_str(&rkbuild_with(
        &with(&["--message-format", "json", "plan"]),
        &env,
    ))
    .unwrap();
    let mut planned: Vec<(String, String, bool)> = plan["plan"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| ["library", "proc-macro", "driver"].contains(&s["kind"].as_str().unwrap()))
        .filter(|s| !s["root"].as_str().unwrap().starts_with(&lib))
        .map(|s| {
            (
                s["crate_name"].as_str().unwrap().to_string(),
                s["root"].as_str().unwrap().to_string(),
                s["module"].as_bool().unwrap(),
            )
        })
        .collect();
    planned.sort();
    assert!(planned.iter().any(|(n, _, m)| n == "rust_hello" && *m));
    assert!(planned.iter().any(|(n, _, m)| n == "leds_mini" && !*m));

    rkbuild_with(&with(&["-q", "analyzer", "--from-plan"]), &env);
    let path = obj.path().join("rust-project.json");
    let p = ProjectJson::parse(&common::read(&path)).unwrap();
    let mut listed: Vec<(String, String, bool)> = p
        .crates
        .iter()
        .map(|c| {
            (
                c.display_name.clone().unwrap(),
                c.root_module.clone(),
                c.cfg.iter().any(|x| x == "MODULE"),
            )
        })
        .collect();
    listed.sort();
    assert_eq!(
        listed, planned,
        "rust-project.json differs from `rkbuild plan`"
    );
    assert_eq!(p.sysroot_src.as_deref(), Some(lib.as_str()));
    assert!(
        !listed.iter().any(|(n, ..)| n == "rust_unused"),
        "a driver the .config leaves out is listed"
    );

    // Not one error; weak warnings (code behind a disabled CONFIG_) are information.
    let lines = diagnostic_lines(&ra, &srv, obj.path());
    eprintln!(
        "--from-plan: {} crates, {:#?}",
        p.crates.len(),
        findings(&lines, None)
    );
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains(": Error ")).collect();
    assert!(
        errors.is_empty()
            && lines
                .iter()
                .any(|l| l.contains("CONFIG_MINI_HELLO_LOUD is disabled")),
        "rust-analyzer's findings in the --from-plan project:\n{}",
        lines.join("\n")
    );

    // The kernel-style file (what `make rust-analyzer` would write) for the same tree, and
    // rust-analyzer's diagnostics for it.
    let intree = obj.path().join("intree");
    std::fs::create_dir_all(&intree).unwrap();
    let out = intree.join("rust-project.json");
    let in_tree = |extra: &[&str]| {
        let args = ["-q", "analyzer", "-S", mk.to_str().unwrap(), "-O"];
        let args: Vec<&str> = args
            .iter()
            .copied()
            .chain([obj.path().to_str().unwrap(), "-o", out.to_str().unwrap()])
            .chain(extra.iter().copied())
            .collect();
        rkbuild_with(&args, &env);
        diagnostic_lines(&ra, &srv, &intree)
    };
    let f = findings(&in_tree(&[]), None);
    eprintln!("in-tree: {f:#?}");
    // It lists every driver a Makefile names, so the switched-off rust_unused is there and
    // its `compile_error!` fires: the reason --from-plan exists.
    let (unused, other): (Vec<&String>, Vec<&String>) = f
        .macro_failures
        .iter()
        .partition(|l| l.starts_with("at crate rust_unused,"));
    assert!(
        f.unresolved_imports.is_empty() && other.is_empty() && !unused.is_empty(),
        "the in-tree file: {f:#?}"
    );
    // With the library as sysroot_src, rust-analyzer knows core's lang items: no error is
    // left but the switched-off driver's (the kernel-style file has str/bool/pointer methods
    // unresolved, E0599).
    let lines = in_tree(&["--sysroot-src"]);
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains(": Error ") && !l.starts_with("at crate rust_unused,"))
        .collect();
    eprintln!("in-tree --sysroot-src: {:#?}", findings(&lines, None));
    assert!(
        errors.is_empty(),
        "in-tree --sysroot-src errors: {errors:#?}"
    );

    // Negative control: without `kernel`, rust_hello's imports must show as unresolved.
    unresolved_without_kernel(&ra, &srv, obj.path());
}
