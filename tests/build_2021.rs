//! The 2021 layout built for real: `rkbuild build` on `examples/minikernel-2021` (the seeds'
//! layout) with Debian's rustc 1.85 and rustup's 1.95, for x86_64 and arm64, with real `core`
//! and `alloc`. Checked in the objects: the architecture, `alloc` without global OOM handling
//! (a driver calling `Vec::push` does not compile), the tree's static spec upgraded, the
//! `RUST_OPT_LEVEL_*` choice (the objects differ as the level says; "similar as chosen for C"
//! is level 2 or s) and the build-assert choice (under DENY a `build_assert!` that survives is
//! an undefined `rust_build_error` when the objects are linked with the C side; ALLOW and WARN
//! link `build_error.o`).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use object::{Object as _, ObjectSection as _, ObjectSymbol as _};

fn tree() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/minikernel-2021")
}

#[derive(Clone, Copy)]
enum Rustc {
    V185,
    V195,
}

impl Rustc {
    fn env(self) -> Vec<(String, String)> {
        let (rustc, lib) = match self {
            Rustc::V185 => ("RKBUILD_TEST_RUSTC_185", "RKBUILD_TEST_LIB_185"),
            Rustc::V195 => ("RKBUILD_TEST_RUSTC_195", "RKBUILD_TEST_LIB_195"),
        };
        vec![
            ("RUSTC".into(), common::tool_env(rustc)),
            ("RUST_LIB_SRC".into(), common::tool_env(lib)),
            ("BINDGEN".into(), common::tool_env("RKBUILD_TEST_BINDGEN")),
            (
                "LIBCLANG_PATH".into(),
                common::tool_env("RKBUILD_TEST_LIBCLANG_PATH"),
            ),
        ]
    }
}

/// The configuration of `arch` with some `CONFIG_` lines set (`NAME=y`) or unset (`!NAME`):
/// the rest of a choice is unset when one of its members is set.
fn config(dir: &Path, arch: &str, set: &[&str]) -> PathBuf {
    let base = std::fs::read_to_string(tree().join(format!("configs/{arch}.config"))).unwrap();
    let choice_of = |n: &str| {
        ["RUST_OPT_LEVEL_", "RUST_BUILD_ASSERT_", "CC_OPTIMIZE_FOR_"]
            .into_iter()
            .find(|p| n.starts_with(p))
    };
    let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
    for s in set {
        let (name, on) = match s.strip_prefix('!') {
            Some(n) => (n, false),
            None => (*s, true),
        };
        for l in lines.iter_mut() {
            let sym = l
                .trim_start_matches("# ")
                .trim_start_matches("CONFIG_")
                .split(['=', ' '])
                .next()
                .unwrap_or("")
                .to_string();
            if !l.contains("CONFIG_") {
                continue;
            }
            if sym == name {
                *l = if on {
                    format!("CONFIG_{name}=y")
                } else {
                    format!("# CONFIG_{name} is not set")
                };
            } else if on && choice_of(name).is_some() && choice_of(&sym) == choice_of(name) {
                *l = format!("# CONFIG_{sym} is not set");
            }
        }
    }
    let p = dir.join(format!(
        "{arch}-{}.config",
        set.join("-").replace('!', "no")
    ));
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

fn rkbuild(cmd: &str, src: &Path, obj: &Path, cfg: &Path, rustc: Rustc) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rkbuild"));
    c.arg(cmd)
        .arg("-S")
        .arg(src)
        .arg("-O")
        .arg(obj)
        .arg("--config")
        .arg(cfg)
        .env_remove("KRUSTFLAGS")
        .env_remove("V")
        .env("NO_COLOR", "1");
    if cmd == "build" {
        c.args(["-j", "2"]);
    } else {
        c.args(["--message-format", "json"]);
    }
    for (k, v) in rustc.env() {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn build_ok(src: &Path, obj: &Path, cfg: &Path, rustc: Rustc) -> String {
    let out = rkbuild("build", src, obj, cfg, rustc);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "build failed:\n{text}");
    text
}

fn plan(obj: &Path, cfg: &Path, rustc: Rustc) -> serde_json::Value {
    plan_in(&tree(), obj, cfg, rustc)
}

fn plan_of(src: &Path, obj: &Path, cfg: &Path) -> serde_json::Value {
    plan_in(src, obj, cfg, Rustc::V185)
}

fn plan_in(src: &Path, obj: &Path, cfg: &Path, rustc: Rustc) -> serde_json::Value {
    let out = rkbuild("plan", src, obj, cfg, rustc);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    serde_json::from_str::<serde_json::Value>(&line).unwrap()["plan"].clone()
}

fn steps(plan: &serde_json::Value) -> &Vec<serde_json::Value> {
    plan["steps"].as_array().unwrap()
}

fn step<'a>(plan: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    steps(plan)
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no step {id}"))
}

/// The built-in objects the image links (`obj-y`: not modules, `linked` in the plan).
fn built_in(plan: &serde_json::Value) -> Vec<String> {
    steps(plan)
        .iter()
        .filter(|s| s["linked"] == true && s["module"] == false)
        .map(|s| s["id"].as_str().unwrap().to_string())
        .filter(|id| id.ends_with(".o"))
        .collect()
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn undefined(p: &Path) -> BTreeSet<String> {
    let data = read(p);
    let f = object::File::parse(&*data).unwrap();
    f.symbols()
        .filter(|s| s.is_undefined())
        .filter_map(|s| s.name().ok().map(str::to_string))
        .filter(|n| !n.is_empty())
        .collect()
}

fn text_size(p: &Path) -> u64 {
    let data = read(p);
    let f = object::File::parse(&*data).unwrap();
    f.sections()
        .filter(|s| s.kind() == object::SectionKind::Text)
        .map(|s| s.size())
        .sum()
}

/// Links the image's objects with the example's C side (`lib/minikernel.c`, compiled by
/// clang-14) as the kernel's final link does: a static executable, every symbol resolved.
/// Returns the symbols ld.lld reports undefined (empty: it linked).
fn link_image(obj: &Path, objects: &[String]) -> BTreeSet<String> {
    let cside = obj.join("minikernel-cside.o");
    let st = Command::new("clang-14")
        .args([
            "--target=x86_64-linux-gnu",
            "-ffreestanding",
            "-fno-builtin",
            "-nostdinc",
            "-O2",
            "-mcmodel=kernel",
            "-mno-red-zone",
            "-c",
        ])
        .arg(format!("-I{}", tree().join("include").display()))
        .arg(tree().join("lib/minikernel.c"))
        .arg("-o")
        .arg(&cside)
        .status()
        .expect("clang-14 (apt-get install clang-14) compiles the example's C side");
    assert!(st.success());
    let out = Command::new("ld.lld-14")
        .current_dir(obj)
        .args(["-e", "0", "-o", "vmlinux-test"])
        .args(objects)
        .arg(&cside)
        .output()
        .expect("ld.lld-14 (apt-get install lld-14) links the image");
    let err = String::from_utf8_lossy(&out.stderr);
    let missing: BTreeSet<String> = err
        .lines()
        .filter_map(|l| {
            l.split_once("undefined symbol: ")
                .map(|(_, s)| s.trim().to_string())
        })
        .collect();
    assert_eq!(
        out.status.success(),
        missing.is_empty(),
        "ld.lld failed for another reason:\n{err}"
    );
    missing
}

/// One build per compiler and arch, kept for the tests that start from it (copies).
fn base(rustc: Rustc, arch: &str) -> &'static (tempfile::TempDir, PathBuf) {
    static CELLS: [OnceLock<(tempfile::TempDir, PathBuf)>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let i = match (rustc, arch) {
        (Rustc::V185, "x86_64") => 0,
        (Rustc::V195, "x86_64") => 1,
        (Rustc::V185, _) => 2,
        (Rustc::V195, _) => 3,
    };
    CELLS[i].get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let obj = d.path().join("obj");
        let cfg = config(d.path(), arch, &[]);
        build_ok(&tree(), &obj, &cfg, rustc);
        (d, obj)
    })
}

fn builds(rustc: Rustc, arch: &str, machine: object::Architecture) {
    let (d, obj) = base(rustc, arch);
    let cfg = config(d.path(), arch, &[]);
    let p = plan(obj, &cfg, rustc);
    assert_eq!(p["vintage"], "2021");
    assert_eq!(p["build_assert"], "deny");
    for id in [
        "rust/core.o",
        "rust/compiler_builtins.o",
        "rust/alloc.o",
        "rust/build_error.o",
        "rust/kernel.o",
        "drivers/android/rust_binder.o",
        "samples/rust/rust_minimal.o",
        "samples/rust/rust_build_assert.o",
    ] {
        let data = read(&obj.join(id));
        let f = object::File::parse(&*data).unwrap();
        assert_eq!(f.architecture(), machine, "{id}");
    }
    // alloc: the toolchain's own (the example has no copy), without global OOM handling.
    let alloc = step(&p, "rust/alloc.o");
    let lib = rustc
        .env()
        .into_iter()
        .find(|(k, _)| k == "RUST_LIB_SRC")
        .unwrap()
        .1;
    assert_eq!(alloc["root"], format!("{lib}/alloc/src/lib.rs"));
    assert_eq!(alloc["cfgs"], serde_json::json!(["no_global_oom_handling"]));
    let exports = std::fs::read_to_string(obj.join("rust/exports_alloc_generated.h")).unwrap();
    assert!(exports.lines().count() > 10 && exports.contains("EXPORT_SYMBOL_RUST_GPL("));
    // DENY: build_error.o is built, not linked; the assertion that holds left no call.
    assert_eq!(step(&p, "rust/build_error.o")["linked"], false);
    assert!(!undefined(&obj.join("samples/rust/rust_build_assert.o")).contains("rust_build_error"));
    // The target: the tree's static spec, rewritten for this rustc.
    let srcarch = if arch == "x86_64" { "x86" } else { "arm64" };
    let seed: serde_json::Value = serde_json::from_slice(&read(
        &tree().join(format!("arch/{srcarch}/rust/target.json")),
    ))
    .unwrap();
    let spec: serde_json::Value =
        serde_json::from_slice(&read(&obj.join("rust/target.json"))).unwrap();
    assert_eq!(spec["llvm-target"], seed["llvm-target"]);
    assert!(!spec["features"].as_str().unwrap().contains("3dnow"));
    assert!(spec.get("is-builtin").is_none() && spec.get("eliminate-frame-pointer").is_none());
    assert_eq!(
        spec["frame-pointer"], "always",
        "eliminate-frame-pointer: false, renamed"
    );
    if arch == "x86_64" {
        assert_eq!(spec["code-model"], "kernel");
    }
}

#[test]
fn x86_64_with_rustc_185() {
    builds(Rustc::V185, "x86_64", object::Architecture::X86_64);
}

#[test]
fn x86_64_with_rustc_195() {
    builds(Rustc::V195, "x86_64", object::Architecture::X86_64);
    let (_, obj) = base(Rustc::V195, "x86_64");
    let spec = std::fs::read_to_string(obj.join("rust/target.json")).unwrap();
    assert!(spec.contains("\"rustc-abi\": \"x86-softfloat\""), "{spec}");
}

#[test]
fn arm64_with_rustc_185() {
    builds(Rustc::V185, "arm64", object::Architecture::Aarch64);
}

#[test]
fn arm64_with_rustc_195() {
    builds(Rustc::V195, "arm64", object::Architecture::Aarch64);
}

/// Adds a built-in sample to a copy of the example tree.
fn add_sample(src: &Path, name: &str, text: &str) {
    std::fs::write(src.join(format!("samples/rust/{name}.rs")), text).unwrap();
    let mk = src.join("samples/rust/Makefile");
    let mut m = std::fs::read_to_string(&mk).unwrap();
    m.push_str(&format!("obj-y\t+= {name}.o\n"));
    std::fs::write(&mk, m).unwrap();
}

#[test]
fn opt_levels_show_in_commands_and_objects() {
    let d = tempfile::tempdir().unwrap();
    let (_, o2) = base(Rustc::V185, "x86_64");
    // Commands: each level's -Copt-level in every Rust command; "similar as chosen for C" is
    // 2 with CC_OPTIMIZE_FOR_PERFORMANCE and z with CC_OPTIMIZE_FOR_SIZE (the seeds' map: -Os is
    // z, not s), command for command.
    let commands = |set: &[&str]| {
        let cfg = config(d.path(), "x86_64", set);
        let p = plan(&d.path().join("plan"), &cfg, Rustc::V185);
        steps(&p)
            .iter()
            .filter(|s| s["kind"] != "bindgen" && s["command"].is_object())
            .map(|s| s["command"]["args"].to_string())
            .collect::<Vec<_>>()
    };
    for (level, flag) in [
        ("RUST_OPT_LEVEL_0", "-Copt-level=0"),
        ("RUST_OPT_LEVEL_1", "-Copt-level=1"),
        ("RUST_OPT_LEVEL_2", "-Copt-level=2"),
        ("RUST_OPT_LEVEL_3", "-Copt-level=3"),
        ("RUST_OPT_LEVEL_S", "-Copt-level=s"),
        ("RUST_OPT_LEVEL_Z", "-Copt-level=z"),
    ] {
        let assert = if level == "RUST_OPT_LEVEL_0" {
            "RUST_BUILD_ASSERT_ALLOW"
        } else {
            "RUST_BUILD_ASSERT_DENY"
        };
        let c = commands(&[level, assert]);
        assert!(c.len() >= 8);
        for cmd in &c {
            if cmd.contains("\"proc-macro\"") {
                continue;
            }
            assert!(cmd.contains(&format!("\"{flag}\"")), "{level}: {cmd}");
        }
    }
    assert_eq!(
        commands(&["RUST_OPT_LEVEL_SIMILAR_AS_CHOSEN_FOR_C"]),
        commands(&["RUST_OPT_LEVEL_2"])
    );
    assert_eq!(
        commands(&[
            "RUST_OPT_LEVEL_SIMILAR_AS_CHOSEN_FOR_C",
            "CC_OPTIMIZE_FOR_SIZE"
        ]),
        commands(&["RUST_OPT_LEVEL_Z"])
    );
    // Objects: level 0 (ALLOW) and z against the default (similar as C = 2).
    let build = |name: &str, set: &[&str]| {
        let obj = d.path().join(name);
        build_ok(&tree(), &obj, &config(d.path(), "x86_64", set), Rustc::V185);
        obj
    };
    let o0 = build("o0", &["RUST_OPT_LEVEL_0", "RUST_BUILD_ASSERT_ALLOW"]);
    let oz = build("oz", &["RUST_OPT_LEVEL_Z"]);
    // Per object, level 0 is always the largest; z is smallest over the crates together
    // (a tiny crate can grow at z: less inlining leaves more out-of-line calls).
    let ids = [
        "rust/core.o",
        "rust/alloc.o",
        "rust/kernel.o",
        "drivers/android/rust_binder.o",
    ];
    let (mut s0, mut s2, mut sz) = (0, 0, 0);
    for id in ids {
        let (t0, t2, tz) = (
            text_size(&o0.join(id)),
            text_size(&o2.join(id)),
            text_size(&oz.join(id)),
        );
        eprintln!("{id}: text at 0 {t0}, 2 {t2}, z {tz}");
        assert!(
            read(&o0.join(id)) != read(&o2.join(id)) && read(&oz.join(id)) != read(&o2.join(id))
        );
        assert!(
            t0 > t2,
            "{id}: opt-level 0 text {t0} should exceed level 2's {t2}"
        );
        (s0, s2, sz) = (s0 + t0, s2 + t2, sz + tz);
    }
    assert!(
        sz < s2 && s2 < s0,
        "text over {ids:?}: 0 {s0}, 2 {s2}, z {sz}"
    );
    // Level 0 wants ALLOW (the seeds' Kconfig says so), which links build_error.o. The
    // sample's assertion is folded even at level 0: LLVM's always-inliner prunes a branch on a
    // constant as it clones the callee (measured with rustc 1.85 and 1.95).
    assert!(!undefined(&o0.join("samples/rust/rust_build_assert.o")).contains("rust_build_error"));
    let p0 = plan(
        &o0,
        &config(
            d.path(),
            "x86_64",
            &["RUST_OPT_LEVEL_0", "RUST_BUILD_ASSERT_ALLOW"],
        ),
        Rustc::V185,
    );
    assert_eq!(step(&p0, "rust/build_error.o")["linked"], true);
    assert_eq!(link_image(&o0, &built_in(&p0)), BTreeSet::new());
}

#[test]
fn build_assert_deny_is_a_link_error_and_alloc_has_no_global_oom_handling() {
    // One object tree (of a copy of the example tree), rebuilt for each choice: the
    // choices are CONFIG_ symbols only some sources mention, so core stays fresh.
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("src");
    common::cp_a(&tree(), &src);
    let obj = d.path().join("obj");
    let run = |set: &[&str]| {
        let cfg = config(d.path(), "x86_64", set);
        let text = build_ok(&src, &obj, &cfg, Rustc::V185);
        (text, plan_of(&src, &obj, &cfg))
    };
    // DENY, the assertion holds: the image links.
    let (_, p) = run(&[]);
    assert_eq!(link_image(&obj, &built_in(&p)), BTreeSet::new());
    // DENY, one assertion cannot hold: rkbuild says so, and the link fails on exactly it.
    let (text, p) = run(&["SAMPLE_RUST_BUILD_ASSERT_FAILS"]);
    assert!(
        text.contains("rust_build_assert.o` calls rust_build_error")
            && text.contains("linking will fail"),
        "{text}"
    );
    assert!(!text.contains("rust/core.o"), "core is fresh: {text}");
    assert!(undefined(&obj.join("samples/rust/rust_build_assert.o")).contains("rust_build_error"));
    assert_eq!(
        link_image(&obj, &built_in(&p)),
        BTreeSet::from(["rust_build_error".to_string()])
    );
    // WARN and ALLOW link build_error.o: the image links (the assertion panics at run time).
    for (choice, warns) in [
        ("RUST_BUILD_ASSERT_WARN", true),
        ("RUST_BUILD_ASSERT_ALLOW", false),
    ] {
        let (text, p) = run(&[choice, "SAMPLE_RUST_BUILD_ASSERT_FAILS"]);
        assert_eq!(
            text.contains("calls rust_build_error"),
            warns,
            "{choice}: {text}"
        );
        assert_eq!(step(&p, "rust/build_error.o")["linked"], true);
        assert_eq!(link_image(&obj, &built_in(&p)), BTreeSet::new(), "{choice}");
    }
    // alloc is built without global OOM handling: a driver calling Vec::push does not compile.
    add_sample(
        &src,
        "rust_push",
        "//! Pushes.\n#![no_std]\nuse alloc::vec::Vec;\n\
         /// Grows a vector the infallible way.\npub fn grow(v: &mut Vec<u8>) { v.push(1); }\n",
    );
    let cfg = config(d.path(), "x86_64", &["RUST_BUILD_ASSERT_ALLOW"]);
    let out = rkbuild("build", &src, &obj, &cfg, Rustc::V185);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("no method named `push`") && err.contains("samples/rust/rust_push.o"),
        "{err}"
    );
}
