//! `rkbuild analyzer` against the kernel's own `make rust-analyzer` output (the oracles), on
//! the real 6.12 and 7.3 trees with the real rustc; plus the 2021 layout, out-of-tree modules,
//! stable output and bad input.

mod common;

use std::path::{Path, PathBuf};

use rkbuild::analyzer::project_json::{CrateData, ProjectJson};
use rkbuild::commands::analyzer::{self, AnalyzerOpts};
use rkbuild::commands::TreeOpts;
use rkbuild::fsutil::WriteOutcome;
use rkbuild::process::Process;
use rkbuild::toolchain::ToolNames;

struct Toolchain {
    rustc: PathBuf,
    lib: PathBuf,
}

fn rustc_185() -> Toolchain {
    Toolchain {
        rustc: common::tool_env("RKBUILD_TEST_RUSTC_185").into(),
        lib: common::tool_env("RKBUILD_TEST_LIB_185").into(),
    }
}

/// rustup's stable rustc (1.95), called by path so no proxy decides for us.
fn rustc_195() -> Toolchain {
    let out = Process::new("rustc")
        .args(["+stable", "--print", "sysroot"])
        .output()
        .expect("rustup's `rustc +stable` (rustc 1.95) is needed");
    assert!(out.success(), "rustc +stable: {}", out.stderr);
    Toolchain {
        rustc: Path::new(out.stdout.trim()).join("bin/rustc"),
        lib: common::tool_env("RKBUILD_TEST_LIB_195").into(),
    }
}

fn opts(src: &Path, obj: &Path, tc: &Toolchain) -> AnalyzerOpts {
    AnalyzerOpts {
        tree: TreeOpts {
            srctree: Some(src.to_path_buf()),
            objtree: Some(obj.to_path_buf()),
            tools: ToolNames {
                rustc: Some(tc.rustc.display().to_string()),
                rust_lib_src: Some(tc.lib.clone()),
                ..ToolNames::default()
            },
            ..TreeOpts::default()
        },
        extmod: None,
        output: None,
        sysroot_src: false,
        analysis_rustc: None,
        analysis_lib_src: None,
    }
}

fn sysroot(rustc: &Path) -> String {
    Process::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .unwrap()
        .stdout
        .trim()
        .to_string()
}

/// The oracle with its placeholders filled in.
fn oracle(vintage: &str, subst: &[(&str, String)]) -> String {
    let mut text = common::read(&common::oracle(&format!(
        "linux-{vintage}/x86_64-defconfig-rust/rust-project.json"
    )));
    for (k, v) in subst {
        text = text.replace(k, v);
    }
    text
}

/// An objtree holding the rustc_cfg the kernel's script read: the `kernel` crate's cfgs with
/// `--cfg=` put back (the oracle's own rustc_cfg file was saved at another moment; in 7.3 it
/// differs in CONFIG_PAHOLE_VERSION).
fn objtree_for(theirs: &ProjectJson) -> tempfile::TempDir {
    let kernel = theirs
        .crates
        .iter()
        .find(|c| c.display_name.as_deref() == Some("kernel"))
        .unwrap();
    let d = tempfile::tempdir().unwrap();
    let text: String = kernel.cfg.iter().map(|c| format!("--cfg={c}\n")).collect();
    write_rustc_cfg(d.path(), &text);
    d
}

/// What `rkbuild config` leaves for the analyzer: `include/generated/rustc_cfg` in `obj`.
fn write_rustc_cfg(obj: &Path, text: &str) {
    let gen = obj.join("include/generated");
    std::fs::create_dir_all(&gen).unwrap();
    std::fs::write(gen.join("rustc_cfg"), text).unwrap();
}

/// The kernel's rust-project.json for `vintage` with this machine's paths (and `extra`
/// placeholders) filled in, and an objtree holding the cfgs it was made with. Our renderer
/// gives the kernel's bytes for the kernel's data.
fn theirs_and_objtree(
    vintage: &str,
    src: &Path,
    tc: &Toolchain,
    extra: &[(&str, String)],
) -> (ProjectJson, tempfile::TempDir) {
    let probe = oracle(vintage, &[]);
    let obj = objtree_for(&ProjectJson::parse(&probe).unwrap());
    let mut subst = vec![
        (
            "$SRCTREE",
            src.canonicalize().unwrap().display().to_string(),
        ),
        (
            "$OBJTREE",
            obj.path().canonicalize().unwrap().display().to_string(),
        ),
        ("$RUST_LIB_SRC", tc.lib.display().to_string()),
    ];
    subst.extend(extra.iter().cloned());
    let theirs_text = oracle(vintage, &subst);
    let theirs = ProjectJson::parse(&theirs_text).unwrap();
    assert_eq!(theirs.render(), theirs_text);
    (theirs, obj)
}

fn display_names(p: &ProjectJson) -> Vec<String> {
    p.crates
        .iter()
        .map(|c| c.display_name.clone().unwrap())
        .collect()
}

/// Options for `--extmod m`.
fn extmod_opts(src: &Path, obj: &Path, tc: &Toolchain, m: &Path) -> AnalyzerOpts {
    let mut o = opts(src, obj, tc);
    o.extmod = Some(m.to_path_buf());
    o
}

/// Every crate equal: the fixed part in the same order; host programs and drivers (the kernel
/// lists them in filesystem order, rkbuild sorts them) as sets, with ours sorted.
fn assert_same_crates(ours: &ProjectJson, theirs: &ProjectJson, fixed: usize) {
    // rkbuild's one addition: drivers carry the `no_std` Kbuild gives them with -Zcrate-attr.
    let mut ours = ours.clone();
    for c in &mut ours.crates {
        let driver = c.root_module.contains("/drivers/") || c.root_module.contains("/samples/");
        let want: &[&str] = if driver { &["no_std"] } else { &[] };
        assert_eq!(c.crate_attrs, want, "{:?}", c.display_name);
        c.crate_attrs.clear();
    }
    let ours = &ours;
    assert_eq!(ours.sysroot, theirs.sysroot);
    assert_eq!(ours.sysroot_src, theirs.sysroot_src);
    assert_eq!(ours.crates.len(), theirs.crates.len(), "number of crates");
    for i in 0..fixed {
        assert_eq!(
            ours.crates[i], theirs.crates[i],
            "crate {i} ({:?})",
            theirs.crates[i].display_name
        );
    }
    let rest = |p: &ProjectJson| -> Vec<CrateData> {
        let mut v = p.crates[fixed..].to_vec();
        v.sort_by(|a, b| a.root_module.cmp(&b.root_module));
        v
    };
    let (a, b) = (rest(ours), rest(theirs));
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y, "crate {:?}", y.display_name);
    }
    // Ours: host programs sorted, then drivers sorted within samples/ and drivers/.
    let roots: Vec<&str> = ours.crates[fixed..]
        .iter()
        .map(|c| c.root_module.as_str())
        .collect();
    let (hosts, drivers): (Vec<&str>, Vec<&str>) =
        roots.iter().partition(|r| r.contains("/scripts/"));
    assert!(hosts.is_sorted(), "{hosts:?}");
    let (samples, rest): (Vec<&str>, Vec<&str>) =
        drivers.iter().partition(|r| r.contains("/samples/"));
    assert!(samples.is_sorted() && rest.is_sorted(), "{drivers:?}");
    assert_eq!(drivers, [samples, rest].concat(), "samples come first");
}

#[test]
fn linux_6_12_equals_make_rust_analyzer() {
    let src = PathBuf::from(common::tool_env("RKBUILD_TEST_LINUX_612"));
    let tc = rustc_185();
    let (theirs, obj) = theirs_and_objtree("6.12", &src, &tc, &[]);

    let g = analyzer::generate(&opts(&src, obj.path(), &tc)).unwrap();
    let ours = ProjectJson::parse(&g.text).unwrap();
    assert_eq!(ours.render(), g.text);
    assert_same_crates(&ours, &theirs, 11);
    // 6.12 writes is_proc_macro on every crate.
    assert!(ours.crates.iter().all(|c| c.is_proc_macro.is_some()));
}

#[test]
fn linux_7_3_equals_make_rust_analyzer() {
    let src = PathBuf::from(common::tool_env("RKBUILD_TEST_LINUX_73"));
    let tc = rustc_195();
    let (theirs, obj) = theirs_and_objtree("7.3", &src, &tc, &[("$SYSROOT", sysroot(&tc.rustc))]);

    let g = analyzer::generate(&opts(&src, obj.path(), &tc)).unwrap();
    let ours = ProjectJson::parse(&g.text).unwrap();
    assert_same_crates(&ours, &theirs, 18);
    // 7.3 writes is_proc_macro only on the three proc macros.
    let pm: Vec<_> = ours
        .crates
        .iter()
        .filter(|c| c.is_proc_macro.is_some())
        .map(|c| c.display_name.clone().unwrap())
        .collect();
    assert_eq!(pm, ["macros", "zerocopy_derive", "pin_init_internal"]);

    // Driver names are what `rustc --print crate-name` says (the 7.3 script asks rustc).
    for c in &ours.crates[21..] {
        let out = Process::new(&tc.rustc)
            .args(["--print", "crate-name", &c.root_module])
            .output()
            .unwrap();
        assert_eq!(
            c.display_name.as_deref(),
            Some(out.stdout.trim()),
            "{}",
            c.root_module
        );
    }
}

/// `rkbuild ARGS -S src -O obj` with the toolchain in RUSTC and RUST_LIB_SRC, as a user runs it.
fn rkbuild_cli(args: &[&str], src: &Path, obj: &Path, tc: &Toolchain) -> rkbuild::process::Output {
    Process::new(env!("CARGO_BIN_EXE_rkbuild"))
        .args(args)
        .arg("-S")
        .arg(src)
        .arg("-O")
        .arg(obj)
        .env("RUSTC", &tc.rustc)
        .env("RUST_LIB_SRC", &tc.lib)
        .output()
        .unwrap()
}

/// `rkbuild config` from the oracle's .config, then `rkbuild analyzer`: the whole path a user
/// takes. The cfgs are the kernel's rustc_cfg lines (compared as a set: kconfig writes them in
/// hash order).
#[test]
fn config_then_analyzer_on_6_12() {
    let src = PathBuf::from(common::tool_env("RKBUILD_TEST_LINUX_612"));
    let tc = rustc_185();
    let obj = tempfile::tempdir().unwrap();
    let config = common::oracle("linux-6.12/x86_64-defconfig-rust/config");
    let status = rkbuild_cli(
        &["-q", "config", "--config", config.to_str().unwrap()],
        &src,
        obj.path(),
        &tc,
    );
    assert!(status.success(), "{}", status.stderr);
    let out = rkbuild_cli(&["analyzer"], &src, obj.path(), &tc);
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stdout.contains("  GEN     "), "{}", out.stdout);
    let ours = ProjectJson::parse(&common::read(&obj.path().join("rust-project.json"))).unwrap();
    let want: std::collections::BTreeSet<String> = common::read(&common::oracle(
        "linux-6.12/x86_64-defconfig-rust/rustc_cfg",
    ))
    .lines()
    .map(|l| l.trim_start_matches("--cfg=").to_string())
    .collect();
    for c in &ours.crates {
        let name = c.display_name.as_deref().unwrap();
        if ["bindings", "uapi", "kernel", "rust_minimal", "rnull"].contains(&name) {
            let got: std::collections::BTreeSet<String> = c.cfg.iter().cloned().collect();
            assert_eq!(got, want, "{name}");
        }
    }
    assert_eq!(ours.crates.len(), 20);
}

/// Byte-identical across runs; the second run leaves the file (and its mtime) alone.
#[test]
fn output_is_stable_and_written_only_when_changed() {
    let src = PathBuf::from(common::tool_env("RKBUILD_TEST_LINUX_612"));
    let tc = rustc_185();
    let obj = tempfile::tempdir().unwrap();
    write_rustc_cfg(
        obj.path(),
        &common::read(&common::oracle(
            "linux-6.12/x86_64-defconfig-rust/rustc_cfg",
        )),
    );
    let o = opts(&src, obj.path(), &tc);
    let first = analyzer::run(&o).unwrap();
    assert_eq!(first.status, WriteOutcome::Created);
    let bytes = std::fs::read(&first.path).unwrap();
    let mtime = std::fs::metadata(&first.path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let second = analyzer::run(&o).unwrap();
    assert_eq!(second.status, WriteOutcome::Unchanged);
    assert_eq!(std::fs::read(&first.path).unwrap(), bytes);
    assert_eq!(
        std::fs::metadata(&first.path).unwrap().modified().unwrap(),
        mtime
    );
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.starts_with("{\n    \"crates\": [\n        {\n            \"cfg\": ["));
    assert!(text.ends_with("\n}"), "no trailing newline, as json.dump");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/analyzer/rust_hello")
}

/// `--extmod`: the module's crate plus exactly the kernel crates it depends on, with the Rust
/// library as `sysroot_src` (rust-analyzer then knows core's lang items).
#[test]
fn out_of_tree_module_gets_its_crates_and_the_kernel_ones() {
    let src = PathBuf::from(common::tool_env("RKBUILD_TEST_LINUX_612"));
    let tc = rustc_185();
    let obj = tempfile::tempdir().unwrap();
    write_rustc_cfg(obj.path(), "--cfg=CONFIG_RUST\n--cfg=CONFIG_RUST=\"y\"\n");
    let m = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), m.path());
    let r = analyzer::run(&extmod_opts(&src, obj.path(), &tc, m.path())).unwrap();
    assert_eq!(
        r.path,
        m.path().canonicalize().unwrap().join("rust-project.json")
    );
    let p = ProjectJson::parse(&common::read(&r.path)).unwrap();
    assert_eq!(
        display_names(&p),
        [
            "compiler_builtins",
            "macros",
            "build_error",
            "ffi",
            "bindings",
            "uapi",
            "kernel",
            "rust_hello"
        ]
    );
    let hello = p.crates.last().unwrap();
    assert_eq!(hello.is_workspace_member, Some(true));
    assert_eq!(p.sysroot_src.as_deref(), Some(tc.lib.to_str().unwrap()));
    assert!(p.crates[..7]
        .iter()
        .all(|c| c.is_workspace_member == Some(false)));
    assert_eq!(
        hello.root_module,
        m.path()
            .canonicalize()
            .unwrap()
            .join("rust_hello.rs")
            .display()
            .to_string()
    );
    assert_eq!(hello.cfg, ["CONFIG_RUST", "CONFIG_RUST=\"y\""]);
    assert_eq!(hello.crate_attrs, ["no_std"]);
    let kernel = &p.crates[6];
    assert_eq!(
        kernel.env["OBJTREE"],
        obj.path().canonicalize().unwrap().display().to_string()
    );
    assert_eq!(
        hello
            .deps
            .iter()
            .map(|d| (d.krate, d.name.as_str()))
            .collect::<Vec<_>>(),
        [(6, "kernel")]
    );
}

/// The 2021 patch set's crate set, on a tree laid out as the seeds lay it out.
#[test]
fn seeds_2021_layout() {
    let tree = tempfile::tempdir().unwrap();
    let t = tree.path();
    let w = |p: &str, text: &str| {
        let p = t.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    w("Makefile", "VERSION = 5\nPATCHLEVEL = 14\nSUBLEVEL = 0\n");
    for f in [
        "rust/compiler_builtins.rs",
        "rust/alloc/lib.rs",
        "rust/macros/lib.rs",
        "rust/build_error.rs",
        "rust/kernel/lib.rs",
        "drivers/android/rust_binder.rs",
        "drivers/android/node.rs",
        "samples/rust/rust_minimal.rs",
    ] {
        w(f, "");
    }
    w(
        "drivers/android/Makefile",
        "obj-$(CONFIG_ANDROID_BINDER_IPC_RUST) += rust_binder.o\n",
    );
    w(
        "samples/rust/Makefile",
        "obj-$(CONFIG_SAMPLE_RUST_MINIMAL) += rust_minimal.o\n",
    );
    w("samples/rust/Kbuild", "");
    w(
        "include/generated/rustc_cfg",
        "--cfg=CONFIG_RUST\n--cfg=CONFIG_RUST=\"y\"\n",
    );
    let tc = rustc_185();
    let g = analyzer::generate(&opts(t, t, &tc)).unwrap();
    let p = ProjectJson::parse(&g.text).unwrap();
    assert_eq!(
        display_names(&p),
        [
            "core",
            "compiler_builtins",
            "alloc",
            "macros",
            "build_error",
            "kernel",
            "rust_minimal",
            "rust_binder"
        ]
    );
    assert_eq!(p.sysroot, None);
    assert_eq!(p.sysroot_src.as_deref(), Some(tc.lib.to_str().unwrap()));
    assert!(p.crates.iter().all(|c| c.edition == "2018"));
    let kernel = &p.crates[5];
    let real = t.canonicalize().unwrap();
    assert_eq!(
        kernel.env["RUST_BINDINGS_FILE"],
        real.join("rust/bindings_generated.rs")
            .display()
            .to_string()
    );
    let macros = &p.crates[3];
    assert_eq!(macros.is_proc_macro, Some(true));
    assert_eq!(
        macros.proc_macro_dylib_path.as_deref(),
        Some(real.join("rust/libmacros.so").to_str().unwrap())
    );
    let binder = &p.crates[7];
    let deps: Vec<_> = binder.deps.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(deps, ["core", "alloc", "kernel"]);
}

/// Bad input: a clear message, a fix, and no file written.
#[test]
fn bad_input_is_refused_and_nothing_is_written() {
    let src = PathBuf::from(common::tool_env("RKBUILD_TEST_LINUX_612"));
    let tc = rustc_185();
    let err = |o: &AnalyzerOpts, out: &Path| {
        let e = format!("{:#}", analyzer::run(o).unwrap_err());
        assert!(!out.exists(), "{} written despite: {e}", out.display());
        e
    };

    // No rustc_cfg: not configured.
    let obj = tempfile::tempdir().unwrap();
    let out = obj.path().join("rust-project.json");
    let e = err(&opts(&src, obj.path(), &tc), &out);
    assert!(
        e.contains("include/generated/rustc_cfg") && e.contains("rkbuild config"),
        "{e}"
    );

    // Missing rust-src.
    write_rustc_cfg(obj.path(), "--cfg=CONFIG_RUST\n");
    let mut o = opts(&src, obj.path(), &tc);
    o.tree.tools.rust_lib_src = Some("/nonexistent/library".into());
    let e = err(&o, &out);
    assert!(
        e.contains("/nonexistent/library/core/src/lib.rs") && e.contains("fix: "),
        "{e}"
    );

    // An --extmod folder without a Rust module.
    let m = tempfile::tempdir().unwrap();
    std::fs::write(m.path().join("Kbuild"), "obj-m := cmod.o\n").unwrap();
    std::fs::write(m.path().join("cmod.c"), "").unwrap();
    std::fs::write(m.path().join("stray.rs"), "").unwrap();
    let e = err(
        &extmod_opts(&src, obj.path(), &tc, m.path()),
        &m.path().join("rust-project.json"),
    );
    assert!(
        e.contains("has no Rust module") && e.contains("fix: "),
        "{e}"
    );

    // An unreadable Makefile beside a Rust file (a folder in its place: root reads anything).
    let m = tempfile::tempdir().unwrap();
    std::fs::write(m.path().join("rust_hello.rs"), "").unwrap();
    std::fs::create_dir(m.path().join("Makefile")).unwrap();
    let e = err(
        &extmod_opts(&src, obj.path(), &tc, m.path()),
        &m.path().join("rust-project.json"),
    );
    assert!(e.contains("cannot read") && e.contains("Makefile"), "{e}");

    // --from-plan without a configuration to plan from.
    let empty = tempfile::tempdir().unwrap();
    let bo = rkbuild::commands::build::BuildOpts {
        tree: TreeOpts {
            srctree: Some(common::minikernel()),
            objtree: Some(empty.path().to_path_buf()),
            ..opts(&src, obj.path(), &tc).tree
        },
        ..Default::default()
    };
    let e = format!("{:#}", analyzer::run_from_plan(&bo, None).unwrap_err());
    assert!(
        std::fs::read_dir(empty.path()).unwrap().next().is_none(),
        "--from-plan wrote into the object tree despite: {e}"
    );
    assert!(e.contains(".config") && e.contains("--config"), "{e}");

    // Not a kernel tree.
    let mut o = opts(obj.path(), obj.path(), &tc);
    o.tree.srctree = Some(obj.path().to_path_buf());
    let e = err(&o, &out);
    assert!(
        e.contains("not a kernel tree") && e.contains("--srctree"),
        "{e}"
    );
}
