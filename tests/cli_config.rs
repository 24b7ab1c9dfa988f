//! `rkbuild config` and `rkbuild doctor` end to end, with the real rustc (Debian 1.85) and, for
//! doctor, the real bindgen and libclang. Bad inputs: a clear message, a non-zero exit, and
//! nothing written.

mod common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

const CFG_612: &str = "tests/fixtures/configs/x86_64-defconfig-rust-6.12.config";
const CFG_73: &str = "tests/fixtures/configs/x86_64-defconfig-rust-7.3.config";

fn rkbuild() -> Command {
    let mut c = Command::cargo_bin("rkbuild").unwrap();
    for v in [
        "RUSTC",
        "BINDGEN",
        "CLIPPY_DRIVER",
        "RUSTDOC",
        "RUSTFMT",
        "RUST_LIB_SRC",
        "KRUSTFLAGS",
        "V",
    ] {
        c.env_remove(v);
    }
    c
}

fn rustc185() -> String {
    common::tool_env("RKBUILD_TEST_RUSTC_185")
}

fn config(cfg: &str, out: &Path) -> Command {
    let mut c = rkbuild();
    c.args(["config", "--config", cfg, "-O"])
        .arg(out)
        .args(["--rustc", &rustc185()]);
    c
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut v = vec![];
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                v.extend(files_under(&p));
            } else {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

fn write_cfg(dir: &Path, text: &str) -> String {
    let p = dir.join("test.config");
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn writes_every_file_and_rewrites_nothing_when_unchanged() {
    let o = tempfile::tempdir().unwrap();
    config(CFG_612, o.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("  UPD     ").and(predicate::str::contains("rustc_cfg")));
    let names: Vec<String> = files_under(o.path())
        .iter()
        .map(|p| p.strip_prefix(o.path()).unwrap().display().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "include/generated/rustc_cfg",
            "include/generated/rustc_flags",
            "include/generated/rustc_flags_kernel",
            "include/generated/rustc_flags_module",
            "rkbuild.mk",
            "scripts/target.json"
        ]
    );
    // The real kernel's target.json for this config and rustc, byte for byte.
    let spec = std::fs::read(o.path().join("scripts/target.json")).unwrap();
    let oracle = std::fs::read(common::oracle(
        "linux-6.12/x86_64-defconfig-rust/target.json",
    ))
    .unwrap();
    assert_eq!(spec, oracle);
    let mtimes = |d: &Path| -> Vec<_> {
        files_under(d)
            .iter()
            .map(|p| std::fs::metadata(p).unwrap().modified().unwrap())
            .collect()
    };
    let before = mtimes(o.path());
    std::thread::sleep(std::time::Duration::from_millis(30));
    config(CFG_612, o.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("UPD").not());
    assert_eq!(
        before,
        mtimes(o.path()),
        "unchanged files keep their timestamps"
    );
    // A real change rewrites only what changed.
    let mut c = config(CFG_612, o.path());
    c.args(["--krustflags", "-Cdebuginfo=1"]);
    c.assert().success().stdout(
        predicate::str::contains("rustc_flags").and(predicate::str::contains("rustc_cfg").not()),
    );
    let flags =
        std::fs::read_to_string(o.path().join("include/generated/rustc_flags_module")).unwrap();
    assert!(
        flags.ends_with("--cfg\nMODULE\n"),
        "module flags end with --cfg MODULE: {flags}"
    );
    assert!(flags.contains("\n-Cdebuginfo=1\n"));
}

#[test]
fn the_real_rustc_accepts_the_written_argfiles() {
    // rustc itself reads the argfiles and target spec: print the cfg it would compile with.
    let o = tempfile::tempdir().unwrap();
    config(CFG_612, o.path()).assert().success();
    let out = std::process::Command::new(rustc185())
        .current_dir(o.path())
        .env("RUSTC_BOOTSTRAP", "1")
        .args([
            "@include/generated/rustc_flags_module",
            "@include/generated/rustc_cfg",
            "--print",
            "cfg",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("CONFIG_RUST=\"y\"") && stdout.lines().any(|l| l == "MODULE"),
        "{stdout}"
    );
    // The generated spec was loaded (x86_64, no OS) and the codegen flags took effect.
    assert!(
        stdout.contains("target_arch=\"x86_64\"") && stdout.contains("target_os=\"none\""),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|l| l == "overflow_checks"),
        "-Coverflow-checks=y"
    );
    assert!(
        !stdout.lines().any(|l| l == "debug_assertions"),
        "-Cdebug-assertions=n"
    );
}

#[test]
fn explain_names_the_symbol_and_line() {
    let o = tempfile::tempdir().unwrap();
    let mut c = config(CFG_612, o.path());
    c.arg("--explain");
    let line = std::fs::read_to_string(CFG_612)
        .unwrap()
        .lines()
        .position(|l| l == "CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y")
        .unwrap()
        + 1;
    c.assert().success().stdout(
        predicate::str::contains(format!(
            "-Copt-level=2  ← CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y ({CFG_612}:{line})"
        ))
        .or(predicate::str::is_match(format!(
            r"-Copt-level=2 +← CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y \({CFG_612}:{line}\)"
        ))
        .unwrap()),
    );
}

#[test]
fn json_report() {
    let o = tempfile::tempdir().unwrap();
    let mut c = rkbuild();
    c.args(["config", "--config", CFG_73, "-O"])
        .arg(o.path())
        .args(["--rustc", &common::tool_env("RKBUILD_TEST_RUSTC_195")])
        .args(["--message-format", "json"]);
    let out = c.assert().success().get_output().stdout.clone();
    // One JSON object per line; with the rustc the .config was made with, the only warning is
    // that no Kconfig was given to check against.
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let warnings: Vec<_> = lines.iter().filter(|l| l["reason"] == "warning").collect();
    assert!(
        warnings.len() == 1
            && warnings[0]["message"]
                .as_str()
                .unwrap()
                .contains("no Kconfig"),
        "{warnings:?}"
    );
    let v = lines.iter().find(|l| l["reason"] == "config").unwrap();
    assert_eq!(v["reason"], "config");
    assert_eq!(v["report"]["vintage"], "7.3");
    assert_eq!(v["report"]["arch"], "x86_64");
    assert!(v["report"]["kernel_flags"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["arg"] == "-Copt-level=2"));
}

fn assert_rejected(cfg_text: Option<&str>, extra: &[&str], needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path().join("out");
    let cfg = match cfg_text {
        Some(t) => write_cfg(dir.path(), t),
        None => dir.path().join("missing.config").display().to_string(),
    };
    let mut c = config(&cfg, &o);
    c.args(extra);
    let assert = c.assert().failure();
    let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    for n in needles {
        assert!(err.contains(n), "expected `{n}` in:\n{err}");
    }
    assert!(
        files_under(&o).is_empty(),
        "nothing may be written on error: {:?}",
        files_under(&o)
    );
}

#[test]
fn missing_config() {
    assert_rejected(
        None,
        &[],
        &[
            "cannot read the kernel configuration",
            "missing.config",
            "make defconfig",
        ],
    );
}

#[test]
fn malformed_line_names_file_and_line() {
    assert_rejected(
        Some("CONFIG_RUST=y\nCONFIG_X86_64=y\nCONFIG_FOO=\"unterminated\n"),
        &[],
        &[
            "test.config:3:",
            "unterminated",
            "CONFIG_FOO=\"unterminated",
            "expected:",
        ],
    );
}

#[test]
fn rust_not_set_says_how_to_enable_it() {
    assert_rejected(
        Some("CONFIG_X86_64=y\n# CONFIG_RUST is not set\n"),
        &[],
        &["CONFIG_RUST is not set", "fix:", "menuconfig"],
    );
}

#[test]
fn unknown_arch() {
    assert_rejected(
        Some("CONFIG_RUST=y\n"),
        &["--arch", "sparc64"],
        &["unknown architecture `sparc64`", "fix:"],
    );
}

#[test]
fn arch_mismatch() {
    assert_rejected(
        Some("CONFIG_RUST=y\nCONFIG_X86_64=y\n"),
        &["--arch", "arm64"],
        &["is for x86_64", "arm64"],
    );
}

#[test]
fn two_opt_levels_2021() {
    assert_rejected(
        Some("CONFIG_RUST=y\nCONFIG_X86_64=y\nCONFIG_RUST_OPT_LEVEL_1=y\nCONFIG_RUST_OPT_LEVEL_Z=y\n"),
        &["--kbuild", "2021"],
        &["contradictory", "RUST_OPT_LEVEL_1", "RUST_OPT_LEVEL_Z", "test.config:3", "test.config:4"],
    );
}

#[test]
fn build_assert_deny_at_opt_level_0() {
    assert_rejected(
        Some("CONFIG_RUST=y\nCONFIG_X86_64=y\nCONFIG_RUST_OPT_LEVEL_0=y\nCONFIG_RUST_BUILD_ASSERT_DENY=y\n"),
        &["--kbuild", "2021"],
        &["RUST_BUILD_ASSERT_DENY", "RUST_OPT_LEVEL_0", "opt-level 0"],
    );
}

#[test]
fn missing_rustc_is_named() {
    assert_rejected(
        Some("CONFIG_RUST=y\nCONFIG_X86_64=y\n"),
        &["--rustc", "/nonexistent/rustc"],
        &[
            "Rust compiler `/nonexistent/rustc` could not be found",
            "RUSTC",
            "fix:",
        ],
    );
}

#[test]
fn too_old_rustc_against_the_trees_minimum() {
    // A tree whose scripts/min-tool-version.sh demands more than any rustc here.
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("linux");
    std::fs::create_dir_all(s.join("scripts")).unwrap();
    std::fs::write(
        s.join("Makefile"),
        "VERSION = 9\nPATCHLEVEL = 0\nSUBLEVEL = 0\n",
    )
    .unwrap();
    std::fs::write(s.join("scripts/generate_rust_target.rs"), "").unwrap();
    std::fs::write(
        s.join("scripts/min-tool-version.sh"),
        "case \"$1\" in rustc) echo 9.0.0;; bindgen) echo 0.1.0;; llvm) echo 1.0.0;; *) exit 1;; esac\n",
    )
    .unwrap();
    let srctree = s.display().to_string();
    assert_rejected(
        Some("CONFIG_RUST=y\nCONFIG_X86_64=y\n"),
        &["--srctree", &srctree],
        &[
            "too old",
            "1.85.0 found, 9.0.0 needed",
            "min-tool-version.sh",
        ],
    );
}

#[test]
fn env_overrides_like_kbuild() {
    // RUSTC from the environment, and a flag beats the environment.
    let o = tempfile::tempdir().unwrap();
    rkbuild()
        .env("RUSTC", "/nonexistent/from-env")
        .args(["config", "--config", CFG_612, "-O"])
        .arg(o.path())
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("/nonexistent/from-env")
                .and(predicate::str::contains("named by RUSTC")),
        );
    rkbuild()
        .env("RUSTC", "/nonexistent/from-env")
        .env("KRUSTFLAGS", "-Cfrom-env=1")
        .args(["config", "--config", CFG_612, "-O"])
        .arg(o.path())
        .args(["--rustc", &rustc185()])
        .assert()
        .success();
    let f = std::fs::read_to_string(o.path().join("include/generated/rustc_flags")).unwrap();
    assert!(f.ends_with("-Cfrom-env=1\n"), "KRUSTFLAGS last");
}

#[test]
fn vintage_is_detected_from_the_real_612_tree() {
    let k = common::tool_env("RKBUILD_TEST_LINUX_612");
    let o = tempfile::tempdir().unwrap();
    let mut c = config(CFG_612, o.path());
    c.args(["--srctree", &k, "--message-format", "json"]);
    let out = c.assert().success().get_output().stdout.clone();
    let v: serde_json::Value = String::from_utf8_lossy(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|l| l["reason"] == "config")
        .unwrap();
    assert_eq!(v["report"]["vintage"], "6.12");
    assert!(v["report"]["vintage_source"]
        .as_str()
        .unwrap()
        .contains("layout"));
}

/// `rkbuild doctor --kbuild 6.12` with the real toolchain: Debian's rustc 1.85 and its library
/// source, bindgen and libclang 14.
fn doctor_612_real() -> Command {
    let mut c = doctor_real();
    c.args(["--kbuild", "6.12"]);
    c
}

/// `rkbuild doctor` with the real toolchain, the kernel left to find.
fn doctor_real() -> Command {
    let mut c = rkbuild();
    c.args(["doctor", "--rustc", &rustc185()])
        .args(["--bindgen", &common::tool_env("RKBUILD_TEST_BINDGEN")])
        .args(["--rust-lib-src", &common::tool_env("RKBUILD_TEST_LIB_185")])
        .env(
            "LIBCLANG_PATH",
            common::tool_env("RKBUILD_TEST_LIBCLANG_PATH"),
        );
    c
}

#[test]
fn doctor_with_the_real_toolchain() {
    let mut c = doctor_612_real();
    c.args(["--message-format", "json"]);
    let out = c.assert().success().get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["ok"], true, "{v:#}");
    let checks = v["report"]["checks"].as_array().unwrap();
    let found = |n: &str| {
        checks.iter().find(|c| c["name"] == n).unwrap()["found"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(found("rustc").contains("1.85.0"));
    assert!(found("bindgen").contains("0.71.1"));
    assert!(
        found("libclang").contains("libclang 14."),
        "{}",
        found("libclang")
    );
    assert_eq!(v["report"]["minimums"]["rustc"], "1.78.0");
}

#[test]
fn doctor_failures_say_how_to_fix() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = rkbuild();
    c.args(["doctor", "--kbuild", "7.3", "--rustc", &rustc185()])
        .args(["--bindgen", "/nonexistent/bindgen"])
        .arg("--rust-lib-src")
        .arg(dir.path());
    c.assert().code(1).stdout(
        predicate::str::contains("FAIL")
            .and(predicate::str::contains("no core/src/lib.rs under"))
            .and(predicate::str::contains("rustup component add rust-src"))
            .and(predicate::str::contains(
                "cargo install --locked bindgen-cli",
            ))
            .and(predicate::str::contains("Rust is available!").not()),
    );
}

#[test]
fn doctor_warns_when_cc_and_libclang_differ() {
    // CC=clang-14 is the same LLVM as bindgen's libclang 14: the kernel prints no warning.
    let mut c = doctor_612_real();
    c.env("CC", "clang-14").args(["--message-format", "json"]);
    let out = c.assert().success().get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let checks = v["report"]["checks"].as_array().unwrap();
    assert!(
        !checks.iter().any(|c| c["name"] == "clang/libclang"),
        "same LLVM 14: no warning"
    );
}

#[test]
fn a_newer_rustc_updates_the_toolchain_symbols_like_syncconfig() {
    // The 6.12 oracle .config was made with rustc 1.85; configure it with rustup's 1.95.
    let o = tempfile::tempdir().unwrap();
    let out = rkbuild()
        .args(["config", "--config", CFG_612, "-O"])
        .arg(o.path())
        .args(["--rustc", &common::tool_env("RKBUILD_TEST_RUSTC_195")])
        .assert()
        .success()
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("CONFIG_RUSTC_VERSION is `108500`") && err.contains("`109500`"),
        "{err}"
    );
    let cfg = std::fs::read_to_string(o.path().join("include/generated/rustc_cfg")).unwrap();
    assert!(cfg
        .lines()
        .any(|l| l == "--cfg=CONFIG_RUSTC_VERSION=\"109500\""));
    assert!(!cfg.contains("108500"));
    // The spec follows the detected rustc: rustc-abi and an integer pointer width from 1.91.
    let spec = std::fs::read_to_string(o.path().join("scripts/target.json")).unwrap();
    assert!(
        spec.contains("\"rustc-abi\": \"x86-softfloat\"")
            && spec.contains("\"target-pointer-width\": 64,")
    );
}

/// A tree with no telling file and no configuration: doctor says the kernel is a guess; with
/// the example's configuration it knows 6.12 and says nothing of the kind.
#[test]
fn doctor_says_when_the_kernel_is_guessed() {
    let tree = common::minikernel();
    doctor_real().arg("-S").arg(&tree).assert().stdout(
        predicate::str::contains("[warn] kernel")
            .and(predicate::str::contains("7.3 guessed"))
            .and(predicate::str::contains("pass --config")),
    );
    doctor_real()
        .arg("-S")
        .arg(&tree)
        .arg("--config")
        .arg(tree.join("configs/x86_64.config"))
        .assert()
        .stdout(
            predicate::str::starts_with("kernel 6.12 / x86_64")
                .and(predicate::str::contains("guessed").not()),
        );
}
