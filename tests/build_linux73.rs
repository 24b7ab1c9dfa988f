//! The real thing for the newest kernel: Debian's Linux 7.3 tree with rustc 1.95 and
//! clang/bindgen for LLVM 22 (`LLVM=-22`): x86_64 defconfig + Rust + samples (the shared
//! oracle's configuration), and the arm64 and riscv defconfigs + the same options (clang
//! cross-compiles; no GCC is involved).
//!
//! `rkbuild build` on a fresh object tree (it runs the kernel's make only for the C side) is
//! compared with the kernel's own `make prepare samples/rust/ rust/exports.o` of the same
//! configuration: every command rkbuild ran equals the one make recorded in its `.cmd` file,
//! and every object is the same (arm64's defconfig has debug info, whose compile folder differs
//! between two object trees: there the objects are compared without it). Each make-built
//! reference tree is cached by its inputs (`ref-7.3-<arch>` in `RKBUILD_REF_DIR`, default
//! /var/cache/rkbuild-ci): make runs again only when the recipe, the tools or the configuration
//! change.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Bumped when the recipe below changes.
const RECIPE: &str =
    "rkbuild-ref-73 v5: config; olddefconfig; -j2 prepare; rust/exports.o; each driver";

struct Env {
    src: PathBuf,
    rustc_dir: PathBuf,
    lib: String,
    bindgen: String,
    libclang: String,
    /// `LLVM=-22` (Clang builds), or none: GCC, as distributions build.
    llvm: Option<&'static str>,
}

impl Env {
    /// rustc 1.95 and LLVM 22, as the oracle was built.
    fn get() -> Env {
        let rustc = PathBuf::from(common::tool_env("RKBUILD_TEST_RUSTC_195"));
        Env {
            src: PathBuf::from(common::tool_env("RKBUILD_TEST_LINUX_73")),
            rustc_dir: rustc.parent().unwrap().to_path_buf(),
            lib: common::tool_env("RKBUILD_TEST_LIB_195"),
            bindgen: common::tool_env("RKBUILD_TEST_BINDGEN_22"),
            libclang: common::tool_env("RKBUILD_TEST_LIBCLANG_22_PATH"),
            llvm: Some("-22"),
        }
    }

    /// As Debian builds its kernel: Debian's rustc (1.85 here) and GCC for C.
    fn debian() -> Env {
        let rustc = PathBuf::from(common::tool_env("RKBUILD_TEST_RUSTC_185"));
        Env {
            rustc_dir: rustc.parent().unwrap().to_path_buf(),
            lib: common::tool_env("RKBUILD_TEST_LIB_185"),
            llvm: None,
            ..Env::get()
        }
    }

    fn rustc(&self) -> PathBuf {
        self.rustc_dir.join("rustc")
    }

    fn make(&self, o: &Path, arch: &str) -> Command {
        let mut c = Command::new("make");
        c.arg("-C")
            .arg(&self.src)
            .arg(format!("O={}", o.display()))
            .arg(format!("ARCH={arch}"))
            .arg(format!("RUSTC={}", self.rustc().display()))
            .arg(format!(
                "RUSTDOC={}",
                self.rustc_dir.join("rustdoc").display()
            ))
            .arg(format!("BINDGEN={}", self.bindgen))
            .arg(format!("RUST_LIB_SRC={}", self.lib))
            .env("LIBCLANG_PATH", &self.libclang);
        if let Some(l) = self.llvm {
            c.arg(format!("LLVM={l}"));
        }
        for k in [
            "MAKEFLAGS",
            "MFLAGS",
            "MAKELEVEL",
            "CLIPPY",
            "KBUILD_CLIPPY",
            "O",
            "V",
        ] {
            c.env_remove(k);
        }
        c
    }

    /// The rustfmt that formats a `.rsi` target, named to make as to rkbuild. Only there:
    /// bindgen formats with `RUSTFMT` too, and the main builds leave it as it is.
    fn rustfmt_for(&self, c: &mut Command, target: &str) {
        if target.ends_with(".rsi") {
            c.arg(format!(
                "RUSTFMT={}",
                self.rustc_dir.join("rustfmt").display()
            ));
        }
    }

    /// What the reference depends on besides the recipe.
    fn stamp(&self, config: &str) -> String {
        let out = |p: &Path, a: &str| {
            let o = Command::new(p).arg(a).output().unwrap();
            String::from_utf8_lossy(&o.stdout).into_owned()
        };
        format!(
            "{RECIPE}\n{}{}{}{}{}\n{config}",
            out(&self.rustc(), "-vV"),
            out(Path::new(&self.bindgen), "--version"),
            out(Path::new("clang-22"), "--version"),
            out(Path::new("gcc"), "--version"),
            self.src.display()
        )
    }
}

/// Copies the reference's object tree to `obj` without what rkbuild makes and is compared on:
/// `rust/`, the drivers' folders (the reference made nothing else there) and the docs. What
/// stays is the C side `make prepare` made, which rkbuild would have make do again.
fn prepared_copy(refdir: &Path, obj: &Path, drivers: &[String]) {
    common::cp_a(&refdir.join("."), obj);
    let mut gone: BTreeSet<&str> = ["rust", "Documentation/output"].into();
    for d in drivers {
        let dir = Path::new(d).parent().unwrap().to_str().unwrap();
        assert!(
            dir.starts_with("samples/") || dir.starts_with("drivers/"),
            "{d}: a driver outside samples/ and drivers/ may share its folder with make prepare's outputs"
        );
        gone.insert(dir);
    }
    for d in gone {
        let p = obj.join(d);
        if p.exists() {
            std::fs::remove_dir_all(&p).unwrap();
        }
    }
}

/// An arch's defconfig with the oracle's Rust options, as the kernel's make writes it.
fn defconfig_with_rust(env: &Env, arch: &str, extra: &[&str]) -> String {
    let d = tempfile::tempdir().unwrap();
    let mut c = env.make(d.path(), arch);
    c.arg("defconfig");
    common::run_timed(c, &format!("make ARCH={arch} defconfig"));
    let mut c = Command::new(env.src.join("scripts/config"));
    c.arg("--file")
        .arg(d.path().join(".config"))
        .args(common::RUST_SAMPLES)
        .args(extra);
    common::run_timed(c, "scripts/config");
    let mut c = env.make(d.path(), arch);
    c.arg("olddefconfig");
    common::run_timed(c, &format!("make ARCH={arch} olddefconfig"));
    let text = common::read(&d.path().join(".config"));
    assert!(
        text.contains("\nCONFIG_RUST=y\n"),
        "CONFIG_RUST did not stick for {arch}"
    );
    text
}

/// The kernel's own build of `config`, reused while its stamp matches; `extra` objects (the C
/// parts of composites) are made when missing.
fn reference(env: &Env, name: &str, config: &str, drivers: &[String], extra: &[String]) -> PathBuf {
    let arch = arch_of(config);
    let base = std::env::var_os("RKBUILD_REF_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/var/cache/rkbuild-ci"));
    let dir = base.join(format!("ref-7.3-{name}"));
    let stamp = format!("{name} {}\n{}", drivers.join(" "), env.stamp(config));
    let stamp_file = dir.join(".rkbuild-ref-stamp");
    if std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(stamp.as_str()) {
        for t in extra.iter().filter(|t| !dir.join(t).is_file()) {
            let mut c = env.make(&dir, arch);
            c.arg(t);
            env.rustfmt_for(&mut c, t);
            common::run_timed(c, &format!("make {t} (reference)"));
        }
        return dir;
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(".config"), config).unwrap();
    let mut c = env.make(&dir, arch);
    c.arg("olddefconfig");
    common::run_timed(c, "make olddefconfig (reference)");
    let mut c = env.make(&dir, arch);
    c.args(["-j2", "prepare"]);
    common::run_timed(c, "make -j2 prepare (reference)");
    // Single objects, one make each: given together (or with `prepare`), Kbuild may skip some.
    for t in std::iter::once("rust/exports.o")
        .chain(drivers.iter().map(String::as_str))
        .chain(extra.iter().map(String::as_str))
    {
        let mut c = env.make(&dir, arch);
        c.arg(t);
        env.rustfmt_for(&mut c, t);
        common::run_timed(c, &format!("make {t} (reference)"));
    }
    std::fs::write(&stamp_file, stamp).unwrap();
    dir
}

fn rkbuild(env: &Env, args: &[&str]) -> String {
    rkbuild_with(env, args, &[])
}

/// [`rkbuild`] with more environment. (bindgen formats its output with `RUSTFMT` too: the
/// main builds leave it as make's reference had it.)
fn rkbuild_with(env: &Env, args: &[&str], extra: &[(&str, &Path)]) -> String {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rkbuild"));
    c.args(args)
        .env("RUSTC", env.rustc())
        .env("RUST_LIB_SRC", &env.lib)
        .env("BINDGEN", &env.bindgen)
        .env("LIBCLANG_PATH", &env.libclang)
        .env("NO_COLOR", "1");
    match env.llvm {
        Some(l) => c.env("LLVM", l),
        None => c.env_remove("LLVM"),
    };
    for k in common::RKBUILD_ENV_UNSET {
        c.env_remove(k);
    }
    for (k, v) in extra {
        c.env(k, v);
    }
    let t = Instant::now();
    let o = c.output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "rkbuild {args:?} failed:\n{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    eprintln!("  rkbuild {}: {:.1} s", args[0], t.elapsed().as_secs_f64());
    out
}

/// Global symbols an object defines (`nm --defined-only`), by name.
fn defined(path: &Path) -> BTreeSet<String> {
    let o = Command::new("llvm-nm-22")
        .arg("--defined-only")
        .arg(path)
        .output()
        .expect("llvm-nm-22 (Debian llvm-22) is needed");
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(String::from))
        .collect()
}

/// The object without its debug info (which names the object tree it was compiled in).
fn without_debug(path: &Path) -> Vec<u8> {
    let out = tempfile::NamedTempFile::new().unwrap();
    let o = Command::new("llvm-objcopy-22")
        .arg("--strip-debug")
        .arg(path)
        .arg(out.path())
        .output()
        .expect("llvm-objcopy-22 (Debian llvm-22) is needed");
    assert!(
        o.status.success(),
        "llvm-objcopy-22 --strip-debug {}",
        path.display()
    );
    std::fs::read(out.path()).unwrap()
}

#[test]
fn linux_7_3_x86_64_rkbuild_equals_make() {
    let env = Env::get();
    let config = common::read(&common::oracle("linux-7.3/x86_64-defconfig-rust/config"));
    check(&env, "x86_64", &config);
}

#[test]
fn linux_7_3_arm64_rkbuild_equals_make() {
    let env = Env::get();
    let config = defconfig_with_rust(&env, "arm64", &[]);
    check(&env, "arm64", &config);
}

/// Debian's own 7.3 configuration (amd64), built as Debian builds it: GCC for C (bindgen then
/// drops what libclang does not take), Debian's rustc, UBSAN and debug info on, and the Rust
/// drivers Debian enables (a PHY driver, drm_panic_qr as a part of the drm module …).
#[test]
fn linux_7_3_debian_config_rkbuild_equals_make() {
    let env = Env::debian();
    let config = common::read(Path::new(&common::tool_env(
        "RKBUILD_TEST_DEBIAN_73_CONFIG",
    )));
    check(&env, "debian-amd64", &config);
}

/// riscv64 (Rust needs Clang there: `LLVM=-22`), with the composite rust_print as a module (its
/// C part gets riscv's KBUILD_CFLAGS_MODULE, a `cc-option` among them).
#[test]
fn linux_7_3_riscv_rkbuild_equals_make() {
    let env = Env::get();
    let config = defconfig_with_rust(&env, "riscv", &["--module", "SAMPLE_RUST_PRINT"]);
    check(&env, "riscv", &config);
}

/// The kernel's ARCH for a configuration.
fn arch_of(config: &str) -> &'static str {
    let on = |s: &str| config.contains(&format!("\nCONFIG_{s}=y\n"));
    if on("ARM64") {
        "arm64"
    } else if on("RISCV") {
        "riscv"
    } else {
        "x86"
    }
}

/// Which configuration's check starts rkbuild from an empty object tree, as a user's first
/// build does (rkbuild then runs the kernel's make for the C side itself); the others start
/// from a copy of the reference with everything rkbuild is compared on taken out
/// ([`prepared_copy`]), which saves a `make prepare` per check.
const FROM_EMPTY: &str = "riscv";

fn check(env: &Env, name: &str, config: &str) {
    let scratch = tempfile::tempdir().unwrap();
    let obj = scratch.path().join("o");
    std::fs::create_dir_all(&obj).unwrap();
    std::fs::write(obj.join(".config"), config).unwrap();
    let src = env.src.display().to_string();
    let o = obj.display().to_string();
    // The Rust drivers the configuration enables, as rkbuild plans them; make builds the same
    // objects for the reference.
    let plan = rkbuild(
        env,
        &["plan", "--message-format", "json", "-S", &src, "-O", &o],
    );
    let v: serde_json::Value = serde_json::from_str(plan.lines().last().unwrap()).unwrap();
    let drivers: Vec<String> = v["plan"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "driver")
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    assert!(!drivers.is_empty(), "{name}: no Rust driver is enabled");
    let refdir = reference(env, name, config, &drivers, &[]);
    if name != FROM_EMPTY {
        prepared_copy(&refdir, &obj, &drivers);
    }
    rkbuild(env, &["build", "-S", &src, "-O", &o, "-j2"]);
    // The C parts of composite Rust modules (rust_print_events.o): planned once the kernel's
    // C flags are known, that is after the build prepared the C side; make builds the same.
    let plan = rkbuild(
        env,
        &["plan", "--message-format", "json", "-S", &src, "-O", &o],
    );
    let after: serde_json::Value = serde_json::from_str(plan.lines().last().unwrap()).unwrap();
    let c_parts: Vec<String> = after["plan"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "c" && !s["id"].as_str().unwrap().starts_with("rust/"))
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    if drivers
        .iter()
        .any(|d| d == "samples/rust/rust_print_main.o")
    {
        assert!(
            c_parts
                .iter()
                .any(|c| c == "samples/rust/rust_print_events.o"),
            "{name}: rust_print's C part is not planned: {c_parts:?}"
        );
    }
    reference(env, name, config, &drivers, &c_parts);

    // Everything of the 7.3 layout was made.
    let made = [
        "rust/host/libproc_macro2.rlib",
        "rust/host/libquote.rlib",
        "rust/host/libsyn.rlib",
        "rust/libmacros.so",
        "rust/libpin_init_internal.so",
        "rust/libzerocopy_derive.so",
        "rust/core.o",
        "rust/compiler_builtins.o",
        "rust/zerocopy.o",
        "rust/pin_init.o",
        "rust/build_error.o",
        "rust/ffi.o",
        "rust/bindings.o",
        "rust/uapi.o",
        "rust/kernel.o",
        "rust/helpers/helpers.o",
        "rust/exports.o",
    ];
    let generated = [
        "rust/bindings/bindings_generated.rs",
        "rust/bindings/bindings_helpers_generated.rs",
        "rust/uapi/uapi_generated.rs",
        "rust/kernel/generated_arch_static_branch_asm.rs",
        "rust/kernel/generated_arch_warn_asm.rs",
        "rust/kernel/generated_arch_reachable_asm.rs",
        "rust/exports_core_generated.h",
        "rust/exports_helpers_generated.h",
        "rust/exports_bindings_generated.h",
        "rust/exports_kernel_generated.h",
    ];
    for f in made.iter().chain(&generated) {
        assert!(obj.join(f).is_file(), "rkbuild did not make {f}");
    }
    let made: Vec<&str> = made
        .iter()
        .copied()
        .chain(drivers.iter().map(String::as_str))
        .chain(c_parts.iter().map(String::as_str))
        .collect();

    // The objects: the same defined symbols as make's and the same bytes (without the debug
    // info, which names the object tree); the generated sources and headers byte for byte.
    let debug = config.contains("\nCONFIG_DEBUG_INFO=y\n");
    let mut identical = 0;
    for f in made
        .iter()
        .filter(|f| !f.ends_with(".rlib") && !f.ends_with(".so"))
    {
        let (a, b) = (refdir.join(f), obj.join(f));
        assert_eq!(
            defined(&a),
            defined(&b),
            "{f}: defined symbols differ from make's"
        );
        let same = if debug {
            without_debug(&a) == without_debug(&b)
        } else {
            std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap()
        };
        assert!(same, "{f} differs from make's");
        identical += 1;
    }
    for f in &generated {
        assert!(
            std::fs::read(refdir.join(f)).unwrap() == std::fs::read(obj.join(f)).unwrap(),
            "{f} differs from make's"
        );
    }
    eprintln!(
        "  {name}: {identical} objects identical to make's{}",
        if debug { " (debug info aside)" } else { "" }
    );

    // The commands: every step rkbuild ran equals what make recorded in its `.cmd` file.
    let compared = common::plan_equals_cmd_files(&after, &obj, &refdir, &[]);
    eprintln!("  {name}: {compared} commands equal to make's");
    // 3 host rlibs, 3 proc macros, 9 crates, 3 bindgen runs, 5 C files, the samples.
    assert!(compared >= 25, "only {compared} commands compared");

    if name == "x86_64" {
        single_targets(env, name, config, &drivers, &obj);
        host_tests(env, &refdir, &obj, false);
        docs(env, &refdir, &obj);
        host_tests(env, &refdir, &obj, true);
    }
}

/// `rkbuild test` against `make rusttest` (the host is x86_64: the host tests use the
/// bindings generated for the target): the same commands, the same test results. With
/// `clippy`, `rkbuild test --clippy` against `make CLIPPY=1 rusttest`: every test library and
/// the test binary through clippy-driver, which reads the tree's .clippy.toml through
/// CLIPPY_CONF_DIR, as make exports it (run last: clippy rebuilds rust/ too).
fn host_tests(env: &Env, refdir: &Path, obj: &Path, clippy: bool) {
    use common::side_by_side as sbs;
    let (src, o) = (env.src.display().to_string(), obj.display().to_string());
    let path = format!(
        "{}:{}",
        env.rustc_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (name, make_args): (&str, &[&str]) = if clippy {
        ("rusttest-clippy", &["CLIPPY=1", "rusttest"])
    } else {
        ("rusttest", &["rusttest"])
    };
    let (log, _) = sbs::make_log_with(refdir, name, make_args, "rust/test", |o| {
        let mut c = env.make(o, "x86");
        c.env("PATH", &path);
        c
    });
    let mut args = vec![
        "test",
        "--message-format",
        "json",
        "-S",
        &src,
        "-O",
        &o,
        "-j2",
    ];
    if clippy {
        args.push("--clippy");
    }
    let driver = env.rustc_dir.join("clippy-driver");
    let json = rkbuild_with(env, &args, &[("CLIPPY_DRIVER", &driver)]);
    let make = sbs::from_make(&log, sbs::rusttest_line);
    assert!(!make.1.is_empty(), "make rusttest printed no test result");
    let clippied = make
        .0
        .iter()
        .filter(|c| c.iter().any(|w| w == "clippy-driver"))
        .count();
    assert!(
        if clippy {
            clippied >= 13
        } else {
            clippied == 0
        },
        "make ran clippy-driver {clippied} times"
    );
    sbs::assert_same(make, sbs::from_rkbuild(&json, obj, sbs::rusttest_step));
}

/// `rkbuild doc` against `make rustdoc`: every rustdoc command the same, the same files (the
/// search index's chunks aside), the kernel's logo in; a second run documents nothing.
fn docs(env: &Env, refdir: &Path, obj: &Path) {
    use common::side_by_side as sbs;
    let out = "Documentation/output/rust/rustdoc";
    let (log, files) = sbs::make_log(refdir, "rustdoc", out, |o| env.make(o, "x86"));
    let (src, o) = (env.src.display().to_string(), obj.display().to_string());
    let json = rkbuild(
        env,
        &[
            "doc",
            "--message-format",
            "json",
            "-S",
            &src,
            "-O",
            &o,
            "-j2",
        ],
    );
    sbs::assert_same(
        sbs::from_make(&log, sbs::rustdoc_line),
        sbs::from_rkbuild(&json, obj, sbs::rustdoc_step),
    );
    let ours = sbs::files_below(&obj.join(out));
    assert_eq!(
        sbs::doc_files(&ours),
        sbs::doc_files(&files),
        "the documentation's files differ from make's"
    );
    eprintln!(
        "  rkbuild doc: {} files as make's",
        sbs::doc_files(&files).len()
    );
    let page = common::read(&obj.join(out).join("kernel/index.html"));
    assert!(
        page.contains("static.files/logo.svg") && !page.contains("rust-logo-"),
        "the kernel's logo is not in"
    );
    let again = rkbuild(
        env,
        &["doc", "--message-format", "json", "-S", &src, "-O", &o],
    );
    assert!(
        !again.contains("\"status\":\"built\""),
        "a second `rkbuild doc` built something:\n{again}"
    );
}

/// Kbuild's single-file targets of a driver (`make samples/rust/rust_minimal.rsi`, `.s`,
/// `.ll`): rkbuild's equal make's, command and bytes (the `.rsi` formatted by the same
/// rustfmt).
fn single_targets(env: &Env, name: &str, config: &str, drivers: &[String], obj: &Path) {
    let driver = drivers
        .iter()
        .find(|d| d.ends_with("rust_minimal.o"))
        .unwrap_or(&drivers[0]);
    let base = driver.strip_suffix(".o").unwrap();
    let singles: Vec<String> = ["rsi", "s", "ll"]
        .iter()
        .map(|e| format!("{base}.{e}"))
        .collect();
    let refdir = reference(env, name, config, drivers, &singles);
    let (src, o) = (env.src.display().to_string(), obj.display().to_string());
    let mut args = vec!["build", "-S", &src, "-O", &o];
    args.extend(singles.iter().map(String::as_str));
    let t = Instant::now();
    let rustfmt = env.rustc_dir.join("rustfmt");
    rkbuild_with(env, &args, &[("RUSTFMT", &rustfmt)]);
    let ours_s = t.elapsed().as_secs_f64();
    for f in &singles {
        assert!(
            std::fs::read(refdir.join(f)).unwrap() == std::fs::read(obj.join(f)).unwrap(),
            "{f} differs from make's"
        );
    }
    let mut args = vec!["plan", "--message-format", "json", "-S", &src, "-O", &o];
    args.extend(singles.iter().map(String::as_str));
    let plan: serde_json::Value =
        serde_json::from_str(rkbuild(env, &args).lines().last().unwrap()).unwrap();
    let ids: Vec<&str> = plan["plan"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    for f in &singles {
        assert!(ids.contains(&f.as_str()), "{f} is not planned: {ids:?}");
    }
    assert!(
        !ids.contains(&driver.as_str()),
        "only the targets and what they need are planned"
    );
    let rsi = plan["plan"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == singles[0].as_str())
        .unwrap();
    assert!(
        rsi["post"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["kind"] == "rustfmt"),
        "the .rsi is formatted: {rsi}"
    );
    let compared = common::plan_equals_cmd_files(&plan, obj, &refdir, &[]);
    eprintln!(
        "  {name}: single targets {}: {compared} commands equal to make's, outputs byte for byte; rkbuild {ours_s:.1} s for the three",
        singles.join(" ")
    );
}
