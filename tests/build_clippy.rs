//! `rkbuild build --clippy` with the real clippy-driver (rustup stable 1.95) and the matching
//! rustc and rust-src 1.95: every crate but core goes through clippy, and its lints show.

mod common;

use std::process::Command;

#[test]
fn clippy_runs_on_every_crate_but_core() {
    let lib = common::tool_env("RKBUILD_TEST_LIB_195");
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    common::copy_tree(&common::minikernel(), &src);
    // A lint clippy (not rustc) reports.
    let hello = src.join("drivers/misc/rust_hello.rs");
    let mut text = std::fs::read_to_string(&hello).unwrap();
    text.push_str("\n#[allow(dead_code)]\nfn answer() -> u32 {\n    return 42;\n}\n");
    std::fs::write(&hello, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rkbuild"))
        .args(["build", "--clippy", "-j", "2", "--arch", "arm64", "-S"])
        .arg(&src)
        .arg("-O")
        .arg(tmp.path().join("obj"))
        .arg("--config")
        .arg(src.join("configs/arm64.config"))
        // The rustup proxies pick the stable toolchain, whose clippy-driver matches its rustc.
        .env("RUSTUP_TOOLCHAIN", "stable")
        .env("RUSTC", "rustc")
        .env("CLIPPY_DRIVER", "clippy-driver")
        .env("RUST_LIB_SRC", &lib)
        .env("BINDGEN", common::tool_env("RKBUILD_TEST_BINDGEN"))
        .env(
            "LIBCLANG_PATH",
            common::tool_env("RKBUILD_TEST_LIBCLANG_PATH"),
        )
        .env("NO_COLOR", "1")
        .env_remove("KRUSTFLAGS")
        .output()
        .expect("rkbuild runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for line in [
        "  RUSTC L rust/core.o",
        "  CLIPPY L rust/compiler_builtins.o",
        "  CLIPPY P rust/libmacros.so",
        "  CLIPPY L rust/kernel.o",
        "  CLIPPY [M] drivers/misc/rust_hello.o",
        "  CLIPPY     drivers/leds/leds_mini.o",
    ] {
        assert!(
            stdout.contains(&format!("{line}\n")),
            "no `{line}` in\n{stdout}"
        );
    }
    assert!(!stdout.contains("RUSTC [M]"), "{stdout}");
    assert!(stderr.contains("clippy::needless_return"), "{stderr}");
}
