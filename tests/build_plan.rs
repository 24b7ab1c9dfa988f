//! `rkbuild plan` and the bad inputs `rkbuild build` must explain: fast tests (no core build).
//! The plan of the real Debian 6.12 tree is checked against the commands the kernel's make ran
//! (`../shared/oracle/linux-6.12/x86_64-defconfig-rust/kbuild-commands.txt`).

mod common;

use std::path::Path;
use std::process::Command;

fn rkbuild(args: &[&str], env: &[(String, String)]) -> (bool, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rkbuild"));
    c.args(args)
        .env_remove("KRUSTFLAGS")
        .env_remove("V")
        .env("NO_COLOR", "1");
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn plan_json(src: &Path, obj: &Path, config: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "plan".to_string(),
        "--message-format".into(),
        "json".into(),
        "-S".into(),
        s(src),
        "-O".into(),
        s(obj),
        "--config".into(),
        s(config),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, out, err) = rkbuild(&args, &common::build_env_185());
    assert!(ok, "{out}{err}");
    serde_json::from_str(out.lines().last().unwrap()).unwrap()
}

#[test]
fn example_plan_is_the_crate_graph() {
    let obj = tempfile::tempdir().unwrap();
    let src = common::minikernel();
    let v = plan_json(&src, obj.path(), &src.join("configs/arm64.config"), &[]);
    let plan = &v["plan"];
    assert_eq!(plan["vintage"], "6.12");
    assert_eq!(plan["arch"], "arm64");
    let steps = plan["steps"].as_array().unwrap();
    let step = |id: &str| {
        steps
            .iter()
            .find(|s| s["id"] == id)
            .unwrap_or_else(|| panic!("no step {id}"))
    };
    let kernel = step("rust/kernel.o");
    assert_eq!(
        kernel["externs"],
        serde_json::json!(["ffi", "build_error", "macros", "bindings", "uapi"])
    );
    assert_eq!(kernel["edition"], "2021");
    assert_eq!(step("rust/libmacros.so")["host"], true);
    assert_eq!(step("rust/build_error.o")["linked"], false);
    assert_eq!(
        step("rust/core.o")["post"][0]["kind"],
        "redirect-intrinsics"
    );
    assert_eq!(
        step("rust/compiler_builtins.o")["post"][0]["pattern"],
        "__*"
    );
    let hello = step("drivers/misc/rust_hello.o");
    assert_eq!(hello["module"], true);
    assert_eq!(hello["config"], "MINI_HELLO");
    assert_eq!(hello["cfgs"], serde_json::json!(["MODULE"]));
    assert_eq!(step("drivers/leds/leds_mini.o")["module"], false);
    // Every step comes after its dependencies.
    let pos = |id: &str| steps.iter().position(|s| s["id"] == id).unwrap();
    for (i, st) in steps.iter().enumerate() {
        for d in st["deps"].as_array().unwrap() {
            assert!(pos(d.as_str().unwrap()) < i, "{} before {d}", st["id"]);
        }
    }
    let skipped = plan["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0]["obj"], "drivers/misc/rust_unused.o");
    assert_eq!(skipped[0]["symbol"], "MINI_UNUSED");
    // build-assert ALLOW links build_error.o.
    let cfg = obj.path().join("allow.config");
    let text = std::fs::read_to_string(src.join("configs/arm64.config"))
        .unwrap()
        .replace(
            "# CONFIG_RUST_BUILD_ASSERT_ALLOW is not set",
            "CONFIG_RUST_BUILD_ASSERT_ALLOW=y",
        );
    std::fs::write(&cfg, text).unwrap();
    let v = plan_json(&src, obj.path(), &cfg, &[]);
    let steps = v["plan"]["steps"].as_array().unwrap();
    let be = steps
        .iter()
        .find(|s| s["id"] == "rust/build_error.o")
        .unwrap();
    assert_eq!(be["linked"], true);
}

/// A planned step's command, its arguments and environment with paths normalised.
fn planned_command<'a>(
    steps: &'a [serde_json::Value],
    target: &str,
    norm: &dyn Fn(&str) -> String,
) -> (&'a serde_json::Value, Vec<String>, Vec<(String, String)>) {
    let step = steps
        .iter()
        .find(|s| s["id"] == target)
        .unwrap_or_else(|| panic!("the plan has no {target}"));
    let cmd = &step["command"];
    let args = cmd["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| norm(a.as_str().unwrap()))
        .collect();
    let env = cmd["env"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().into(), norm(p[1].as_str().unwrap())))
        .collect();
    (cmd, args, env)
}

#[test]
fn real_6_12_plan_matches_the_kernels_commands() {
    let linux = common::tool_env("RKBUILD_TEST_LINUX_612");
    let lib = common::tool_env("RKBUILD_TEST_LIB_185");
    let obj = tempfile::tempdir().unwrap();
    let config = obj.path().join(".config");
    std::fs::copy(
        common::oracle("linux-6.12/x86_64-defconfig-rust/config"),
        &config,
    )
    .unwrap();
    let v = plan_json(
        Path::new(&linux),
        obj.path(),
        &config,
        &["--hostcc", "clang-14"],
    );
    let srctree = std::fs::canonicalize(&linux).unwrap();
    let objtree = std::fs::canonicalize(obj.path()).unwrap();
    let norm = common::oracle_paths(&objtree, &srctree, &lib);
    let steps = v["plan"]["steps"].as_array().unwrap();
    let mut compared = 0;
    for target in [
        "rust/core.o",
        "rust/compiler_builtins.o",
        "rust/libmacros.so",
        "rust/ffi.o",
        "rust/build_error.o",
        "rust/bindings.o",
        "rust/uapi.o",
        "rust/kernel.o",
        "samples/rust/rust_minimal.o",
        "samples/rust/rust_print.o",
    ] {
        let want = common::kbuild_cmd("6.12", target);
        let (cmd, args, env) = planned_command(steps, target, &norm);
        assert_eq!(args, want.args, "{target}");
        assert_eq!(cmd["program"], want.program, "{target}");
        assert_eq!(env, want.env, "{target}");
        compared += 1;
    }
    assert_eq!(compared, 10);
    // The redirected intrinsics are the kernel's list.
    let core = steps.iter().find(|s| s["id"] == "rust/core.o").unwrap();
    let syms = core["post"][0]["symbols"].as_array().unwrap();
    let oracle = common::read(&common::oracle(
        "linux-6.12/x86_64-defconfig-rust/kbuild-commands.txt",
    ));
    assert_eq!(
        syms.len(),
        oracle
            .lines()
            .find(|l| l.starts_with("savedcmd_rust/core.o"))
            .unwrap()
            .matches("--redefine-sym")
            .count()
    );
}

/// The plan of the real Debian 7.3 tree, with the toolchain the oracle was built with
/// (rustc 1.95, clang/bindgen for LLVM 22, `LLVM=-22`, `CLIPPY=1`): every Rust command make
/// ran equals the plan's, apart from bindgen (whose C flags come from make's C side).
#[test]
fn real_7_3_plan_matches_the_kernels_commands() {
    let linux = common::tool_env("RKBUILD_TEST_LINUX_73");
    let lib = common::tool_env("RKBUILD_TEST_LIB_195");
    let rustc = common::tool_env("RKBUILD_TEST_RUSTC_195");
    let clippy = Path::new(&rustc).with_file_name("clippy-driver");
    let obj = tempfile::tempdir().unwrap();
    let config = obj.path().join(".config");
    std::fs::copy(
        common::oracle("linux-7.3/x86_64-defconfig-rust/config"),
        &config,
    )
    .unwrap();
    let env = vec![
        ("RUSTC".to_string(), rustc.clone()),
        ("RUST_LIB_SRC".into(), lib.clone()),
        (
            "BINDGEN".into(),
            common::tool_env("RKBUILD_TEST_BINDGEN_22"),
        ),
        (
            "LIBCLANG_PATH".into(),
            common::tool_env("RKBUILD_TEST_LIBCLANG_22_PATH"),
        ),
        ("CLIPPY_DRIVER".into(), s(&clippy)),
        ("LLVM".into(), "-22".into()),
    ];
    let args = [
        "plan",
        "--message-format",
        "json",
        "--clippy",
        "-S",
        &linux,
        "-O",
        obj.path().to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ];
    let (ok, out, err) = rkbuild(&args, &env);
    assert!(ok, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let srctree = std::fs::canonicalize(&linux).unwrap();
    let objtree = std::fs::canonicalize(obj.path()).unwrap();
    let norm = common::oracle_paths(&objtree, &srctree, &lib);
    let steps = v["plan"]["steps"].as_array().unwrap();
    let oracle = common::read(&common::oracle(
        "linux-7.3/x86_64-defconfig-rust/kbuild-commands.txt",
    ));
    let mut compared = 0;
    for line in oracle.lines() {
        let Some(target) = line
            .strip_prefix("savedcmd_")
            .and_then(|l| l.split_once(" := "))
            .map(|(t, _)| t)
        else {
            continue;
        };
        if target.ends_with(".rs") {
            continue; // bindgen: C flags from make's C side
        }
        let want = common::kbuild_cmd("7.3", target);
        let (cmd, args, env) = planned_command(steps, target, &norm);
        assert_eq!(args, want.args, "{target}");
        assert_eq!(env, want.env, "{target}");
        let program = Path::new(cmd["program"].as_str().unwrap())
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert_eq!(program, want.program, "{target}: rustc or clippy-driver");
        compared += 1;
    }
    assert_eq!(compared, 12, "every Rust target of the oracle");
}

/// `rkbuild build` of the example tree's x86_64 config into `obj`, with the tool environment's
/// `var` set to `value`: whether it succeeded, and its stderr.
fn build_example_with(obj: &Path, var: &str, value: &str) -> (bool, String) {
    let src = common::minikernel();
    let mut env = common::build_env_185();
    env.retain(|(k, _)| k != var);
    env.push((var.into(), value.into()));
    let (ok, _, err) = rkbuild(
        &[
            "build",
            "-S",
            &s(&src),
            "-O",
            &s(obj),
            "--config",
            &s(&src.join("configs/x86_64.config")),
        ],
        &env,
    );
    (ok, err)
}

#[test]
fn missing_rust_src_is_explained_and_nothing_is_written() {
    let obj = tempfile::tempdir().unwrap();
    let (ok, err) = build_example_with(obj.path(), "RUST_LIB_SRC", "/nonexistent/library");
    assert!(!ok);
    assert!(
        err.contains("/nonexistent/library/core/src/lib.rs"),
        "{err}"
    );
    assert!(err.contains("fix:"), "{err}");
    assert!(!obj.path().join("include/generated/rustc_cfg").exists());
}

#[test]
fn missing_bindgen_is_named() {
    let obj = tempfile::tempdir().unwrap();
    let (ok, err) = build_example_with(obj.path(), "BINDGEN", "/nonexistent/bindgen");
    assert!(!ok);
    assert!(err.contains("`/nonexistent/bindgen`"), "{err}");
    assert!(err.contains("fix:"), "{err}");
}

#[test]
fn a_typo_in_a_kbuild_makefile_is_shown_with_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    common::copy_tree(&common::minikernel(), &src);
    std::fs::write(
        src.join("drivers/misc/Makefile"),
        "# SPDX-License-Identifier: GPL-2.0\nobj-$(CONFIG_MINI_HELLO += rust_hello.o\n",
    )
    .unwrap();
    let (ok, _, err) = rkbuild(
        &[
            "plan",
            "-S",
            &s(&src),
            "-O",
            &s(&tmp.path().join("obj")),
            "--config",
            &s(&src.join("configs/x86_64.config")),
        ],
        &common::build_env_185(),
    );
    assert!(!ok);
    assert!(err.contains("drivers/misc/Makefile:2"), "{err}");
    assert!(err.contains("unbalanced `$(`"), "{err}");
    assert!(err.contains("fix:"), "{err}");
}

/// `rkbuild plan` compiles nothing and runs no make: it writes exactly what `rkbuild config`
/// writes (the inputs the printed commands name), its tool cache and its walk, nothing else.
#[test]
fn plan_writes_only_what_config_writes() {
    let obj = tempfile::tempdir().unwrap();
    let src = common::minikernel();
    let config = src.join("configs/x86_64.config");
    plan_json(&src, obj.path(), &config, &[]);
    let mut written = vec![];
    let mut stack = vec![obj.path().to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                written.push(p.strip_prefix(obj.path()).unwrap().display().to_string());
            }
        }
    }
    written.sort();
    assert_eq!(
        written,
        [
            ".rkbuild-tools.json",
            // The makefile walk's result, for the next plan or build.
            ".rkbuild-walk",
            // The object tree's lock (one rkbuild writes a tree at a time).
            ".rkbuild.lock",
            "include/generated/rustc_cfg",
            "include/generated/rustc_flags",
            "include/generated/rustc_flags_kernel",
            "include/generated/rustc_flags_module",
            "rkbuild.mk",
            "scripts/target.json",
        ]
    );
}
