//! The real consumer: rust-analyzer (0.0.349, built by scripts/install-deps.sh) loads the
//! rust-project.json `rkbuild analyzer --extmod` writes for an out-of-tree module (the fixture,
//! or `RKBUILD_TEST_EXTMOD=DIR`) against Linux 6.12 built by its own make with Debian's rustc
//! 1.85 (tests/common/kernel612.rs, cached), and must resolve every import of the kernel
//! crates and expand `module!`.
//!
//! A proc macro can only be loaded by the proc-macro server of the rustc that built it, and
//! the server must speak the client's protocol: Debian 1.85's server (protocol 5) crashes
//! rust-analyzer 0.0.349 (`assertion failed: id < InternId::MAX`), and that rust-analyzer no
//! longer resolves `panic!` in 1.85's library. So the default file for that toolchain names no
//! sysroot (no crash, and rkbuild says why), and `--analysis-rustc` (rustup's 1.95 with
//! Debian's rust-src 1.95) gives a file that loads with no diagnostic at all, with nothing
//! passed to rust-analyzer but the folder.
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
fn diagnostic_lines(ra: &str, srv: Option<&Path>, dir: &Path) -> Vec<String> {
    let mut p = Process::new(ra).arg("diagnostics").arg(dir);
    if let Some(srv) = srv {
        p = p.arg("--proc-macro-srv").arg(srv);
    }
    let out = p.output().expect("rust-analyzer runs");
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

fn diagnostics(ra: &str, srv: Option<&Path>, dir: &Path, krate: &str) -> Findings {
    findings(&diagnostic_lines(ra, srv, dir), Some(krate))
}

/// Runs rkbuild in the 6.12 environment (Debian's 1.85 as the kernel's rustc) and returns
/// its stderr.
fn rkbuild_612(args: &[&str], env: &common::kernel612::Env) -> String {
    let out = Process::new(env!("CARGO_BIN_EXE_rkbuild"))
        .args(args)
        .env("RUSTC", &env.rustc)
        .env("RUST_LIB_SRC", &env.lib)
        .env("BINDGEN", &env.bindgen)
        .env("LIBCLANG_PATH", &env.libclang)
        .env_remove("RKBUILD_ANALYSIS_RUSTC")
        .env_remove("RKBUILD_ANALYSIS_LIB_SRC")
        .output()
        .unwrap();
    assert!(
        out.success(),
        "rkbuild {args:?}: {}{}",
        out.stdout,
        out.stderr
    );
    out.stderr
}

/// The module folder: a copy of the fixture, or of `RKBUILD_TEST_EXTMOD`.
fn module_copy() -> (tempfile::TempDir, String) {
    let from = std::env::var_os("RKBUILD_TEST_EXTMOD")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/analyzer/rust_hello")
        });
    let m = tempfile::tempdir().unwrap();
    common::copy_tree(&from, m.path());
    let name = std::env::var("RKBUILD_TEST_EXTMOD_CRATE").unwrap_or_else(|_| "rust_hello".into());
    (m, name)
}

#[test]
fn out_of_tree_module_loads_cleanly() {
    let ra = common::tool_env("RKBUILD_TEST_RUST_ANALYZER");
    let env = common::kernel612::Env::get();
    let obj = common::kernel612::plain_dir();
    common::kernel612::plain_tree(&env, &obj);
    let (s, o) = (env.src.to_str().unwrap(), obj.to_str().unwrap());

    // 1. The default file for the kernel's rustc (1.85): no sysroot whose server would crash
    //    rust-analyzer, and rkbuild says so and what to do.
    let (m, krate) = module_copy();
    let md = m.path().to_str().unwrap();
    let said = rkbuild_612(&["analyzer", "-S", s, "-O", o, "--extmod", md], &env);
    assert!(
        said.contains("protocol 5") && said.contains("--analysis-rustc"),
        "no warning about 1.85's proc-macro server: {said}"
    );
    let p = ProjectJson::parse(&common::read(&m.path().join("rust-project.json"))).unwrap();
    assert_eq!(p.sysroot, None);
    let lines = diagnostic_lines(&ra, None, m.path());
    let f = findings(&lines, Some(&krate));
    eprintln!("default file, rustc 1.85: {f:#?}");
    assert!(
        f.unresolved_imports.is_empty(),
        "unresolved imports of the kernel crates:\n{}",
        f.unresolved_imports.join("\n")
    );

    // 2. --analysis-rustc: rustup's 1.95 with Debian's rust-src 1.95; rkbuild builds the
    //    proc macros again with it. rust-analyzer is given nothing but the folder.
    let (m, krate) = module_copy();
    let md = m.path().to_str().unwrap();
    let rustc_195 = common::tool_env("RKBUILD_TEST_RUSTC_195");
    let lib_195 = common::tool_env("RKBUILD_TEST_LIB_195");
    rkbuild_612(
        &[
            "analyzer",
            "-S",
            s,
            "-O",
            o,
            "--extmod",
            md,
            "--analysis-rustc",
            &rustc_195,
            "--analysis-lib-src",
            &lib_195,
        ],
        &env,
    );
    let dylib = m.path().join(".rkbuild-analyzer/rust/libmacros.so");
    assert!(dylib.is_file(), "{} was not built", dylib.display());
    let lines = diagnostic_lines(&ra, None, m.path());
    eprintln!("--analysis-rustc 1.95: {lines:#?}");
    assert!(
        lines.is_empty(),
        "rust-analyzer reported diagnostics:\n{}",
        lines.join("\n")
    );
    // Not blind: it did analyze the module.
    let f = diagnostics(&ra, None, m.path(), &krate);
    assert_eq!(f.all, 0);
    unresolved_without_kernel(&ra, m.path(), &krate);
}

/// Negative control: with `rust_hello`'s `kernel` dependency removed from DIR's
/// rust-project.json, rust-analyzer must report unresolved imports in it.
fn unresolved_without_kernel(ra: &str, dir: &Path, krate: &str) {
    let path = dir.join("rust-project.json");
    let mut p = ProjectJson::parse(&common::read(&path)).unwrap();
    let hello = p
        .crates
        .iter_mut()
        .find(|c| c.display_name.as_deref() == Some(krate))
        .unwrap();
    hello.deps.retain(|d| d.name != "kernel");
    std::fs::write(&path, p.render()).unwrap();
    let f = diagnostics(ra, None, dir, krate);
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
    let lines = diagnostic_lines(&ra, Some(&srv), obj.path());
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
        diagnostic_lines(&ra, Some(&srv), &intree)
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
    unresolved_without_kernel(&ra, obj.path(), "rust_hello");
}
