//! `rkbuild target` and the spec `rkbuild config` writes: fidelity to the kernel's x86_64 spec
//! (6.12 with rustc 1.85, 7.3 with rustc 1.95), byte stability, where each vintage puts the
//! spec, and clear errors for bad input.

mod common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::Command as Cmd;

fn stable() -> String {
    let out = Command::new("rustup")
        .args(["which", "rustc", "--toolchain", "stable"])
        .output()
        .expect("rustup is needed to find the stable rustc");
    assert!(out.status.success(), "rustup has no stable toolchain");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn rkbuild() -> Cmd {
    let mut c = Cmd::cargo_bin("rkbuild").unwrap();
    c.env_remove("RUSTC").env_remove("RUST_LIB_SRC");
    c
}

fn run_ok(c: &mut Cmd) -> String {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn run_err(c: &mut Cmd) -> String {
    let out = c.output().unwrap();
    assert!(!out.status.success(), "expected a failure");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn x86_64_spec_is_the_kernels_byte_for_byte() {
    for (vintage, rustc) in [
        ("6.12", common::tool_env("RKBUILD_TEST_RUSTC_185")),
        ("7.3", stable()),
    ] {
        let dir = format!("linux-{vintage}/x86_64-defconfig-rust");
        let want = std::fs::read(common::oracle(&format!("{dir}/target.json"))).unwrap();
        // From the command...
        let got = run_ok(
            rkbuild()
                .args(["target", "--kbuild", vintage, "--rustc", &rustc, "--config"])
                .arg(common::oracle(&format!("{dir}/auto.conf"))),
        );
        assert_eq!(got.as_bytes(), want, "rkbuild target, {vintage}");
        // ...and where `config` writes it (O/scripts/target.json), with --target= in the flags.
        let o = tempfile::tempdir().unwrap();
        run_ok(
            rkbuild()
                .args(["config", "--kbuild", vintage, "--rustc", &rustc, "--config"])
                .arg(common::oracle(&format!("{dir}/config")))
                .arg("-O")
                .arg(o.path()),
        );
        assert_eq!(
            std::fs::read(o.path().join("scripts/target.json")).unwrap(),
            want,
            "rkbuild config, {vintage}"
        );
        let flags =
            std::fs::read_to_string(o.path().join("include/generated/rustc_flags")).unwrap();
        assert!(
            flags.lines().any(|l| l == "--target=./scripts/target.json"),
            "{flags}"
        );
    }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn spec_is_byte_stable_and_rewritten_only_on_change() {
    let rustc = common::tool_env("RKBUILD_TEST_RUSTC_185");
    let d = tempfile::tempdir().unwrap();
    let cfg = write(
        d.path(),
        "config",
        "CONFIG_RUST=y\nCONFIG_RISCV=y\nCONFIG_64BIT=y\nCONFIG_RISCV_ISA_C=y\nCONFIG_RUST_OPT_LEVEL_SIMILAR_AS_CHOSEN_FOR_C=y\nCONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y\n",
    );
    let o = d.path().join("out");
    let config = || {
        let mut c = rkbuild();
        c.args(["config", "--kbuild", "2021", "--rustc", &rustc, "--config"])
            .arg(&cfg)
            .arg("-O")
            .arg(&o);
        c
    };
    run_ok(&mut config());
    let spec = o.join("rust/target.json");
    let first = std::fs::read(&spec).unwrap();
    let mtime = std::fs::metadata(&spec).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    run_ok(&mut config());
    assert_eq!(std::fs::read(&spec).unwrap(), first);
    assert_eq!(
        std::fs::metadata(&spec).unwrap().modified().unwrap(),
        mtime,
        "an unchanged spec must not be rewritten"
    );
    // The printed spec is the written one, on every run.
    for _ in 0..2 {
        let printed = run_ok(
            rkbuild()
                .args(["target", "--kbuild", "2021", "--rustc", &rustc, "--config"])
                .arg(&cfg),
        );
        assert_eq!(printed.as_bytes(), first);
    }
    let flags = std::fs::read_to_string(o.join("include/generated/rustc_flags_kernel")).unwrap();
    assert!(
        flags.lines().any(|l| l == "--target=./rust/target.json"),
        "{flags}"
    );
    // A config change that changes the spec rewrites it.
    std::fs::write(
        &cfg,
        "CONFIG_RUST=y\nCONFIG_RISCV=y\nCONFIG_64BIT=y\nCONFIG_RUST_OPT_LEVEL_SIMILAR_AS_CHOSEN_FOR_C=y\nCONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y\n",
    )
    .unwrap();
    run_ok(&mut config());
    let now = std::fs::read_to_string(&spec).unwrap();
    assert!(now.contains("\"features\": \"+m,+a\""), "{now}");
    // --target-style builtin: no spec needed, the built-in target in the flags.
    run_ok(config().args(["--target-style", "builtin"]));
    let flags = std::fs::read_to_string(o.join("include/generated/rustc_flags_kernel")).unwrap();
    assert!(
        flags
            .lines()
            .any(|l| l == "--target=riscv64imac-unknown-none-elf")
            && flags.lines().any(|l| l == "-Ctarget-feature=-c"),
        "{flags}"
    );
}

#[test]
fn json_style_on_a_7_3_tree_replaces_the_builtin_target() {
    let o = tempfile::tempdir().unwrap();
    let cfg = write(
        o.path(),
        "config",
        "CONFIG_RUST=y\nCONFIG_ARM64=y\nCONFIG_RUSTC_LLVM_MAJOR_VERSION=22\n",
    );
    run_ok(
        rkbuild()
            .args([
                "config",
                "--kbuild",
                "7.3",
                "--rustc",
                &stable(),
                "--target-style",
                "json",
                "--config",
            ])
            .arg(&cfg)
            .arg("-O")
            .arg(o.path()),
    );
    let flags = std::fs::read_to_string(o.path().join("include/generated/rustc_flags")).unwrap();
    assert!(
        flags.lines().any(|l| l == "--target=./scripts/target.json"),
        "{flags}"
    );
    assert!(!flags.contains("aarch64-unknown-none"), "{flags}");
    let spec = std::fs::read_to_string(o.path().join("scripts/target.json")).unwrap();
    assert!(spec.contains("\"arch\": \"aarch64\""), "{spec}");
}

#[test]
fn builtin_style_prints_the_flags() {
    let out = run_ok(rkbuild().args([
        "target",
        "--arch",
        "arm64",
        "--kbuild",
        "7.3",
        "--rustc",
        &common::tool_env("RKBUILD_TEST_RUSTC_185"),
    ]));
    assert_eq!(out, "--target=aarch64-unknown-none-softfloat\n");
    // x86 without a configuration: the kernel generator's spec for plain x86_64.
    let out = run_ok(rkbuild().args([
        "target",
        "--arch",
        "x86_64",
        "--kbuild",
        "7.3",
        "--rustc",
        &stable(),
    ]));
    assert!(out.starts_with("{\n    \"arch\": \"x86_64\",\n"), "{out}");
    assert!(out.contains("\"features\": \"-mmx,+soft-float\","), "{out}");
}

fn fake_rustc(dir: &Path, vv: &str) -> PathBuf {
    let p = dir.join("rustc");
    std::fs::write(&p, format!("#!/bin/sh\ncat <<'EOF'\n{vv}\nEOF\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[test]
fn bad_input_gets_a_clear_error_with_a_fix() {
    let rustc = common::tool_env("RKBUILD_TEST_RUSTC_185");
    let e = run_err(rkbuild().args(["target", "--arch", "sparc", "--rustc", &rustc]));
    assert!(
        e.contains("unknown architecture `sparc`") && e.contains("fix:"),
        "{e}"
    );

    let d = tempfile::tempdir().unwrap();
    let x86 = write(d.path(), "x86.config", "CONFIG_X86_64=y\n");
    let e = run_err(
        rkbuild()
            .args(["target", "--arch", "arm64", "--rustc", &rustc, "--config"])
            .arg(&x86),
    );
    assert!(
        e.contains("is for x86_64, but --arch asks for arm64") && e.contains("fix:"),
        "{e}"
    );

    let old = fake_rustc(
        &d.path().join("."),
        "rustc 1.50.0 (cb75ad5db 2021-02-10)\nbinary: rustc\nhost: x86_64-unknown-linux-gnu\nrelease: 1.50.0\nLLVM version: 11.0.1",
    );
    let e = run_err(
        rkbuild()
            .args(["target", "--arch", "arm64", "--kbuild", "2021", "--rustc"])
            .arg(&old),
    );
    assert!(
        e.contains("older than any target-spec schema") && e.contains("fix:"),
        "{e}"
    );

    let d2 = tempfile::tempdir().unwrap();
    let junk = fake_rustc(d2.path(), "this is not rustc");
    let e = run_err(
        rkbuild()
            .args(["target", "--arch", "arm64", "--rustc"])
            .arg(&junk),
    );
    assert!(e.contains("fix: pass --rustc"), "{e}");

    let e = run_err(rkbuild().args([
        "target",
        "--arch",
        "arm64",
        "--target-style",
        "yaml",
        "--rustc",
        &rustc,
    ]));
    assert!(
        e.contains("unknown target style `yaml`") && e.contains("fix:"),
        "{e}"
    );

    let e = run_err(rkbuild().args(["target", "check", "/nonexistent/t.json", "--rustc", &rustc]));
    assert!(
        e.contains("cannot read the target spec") && e.contains("fix:"),
        "{e}"
    );
}
