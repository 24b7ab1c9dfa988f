//! The toolchain file (docs/toolchain.md): where RUSTC, RUST_LIB_SRC, BINDGEN, LIBCLANG_PATH and
//! PATH find nothing usable, rkbuild takes the tools the file names; it never overrides them.
//! Real tools: PATH's rustc is rustup's stable, which has no library source here; the file
//! names Debian's rustc 1.85 with its library, bindgen 0.71.1 and libclang 14.

mod common;

use std::path::Path;
use std::process::Command;

use common::{minikernel, tool_env};

/// rkbuild with no tool named by the environment, reading the toolchain file `file`.
fn rkbuild_with_file(file: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rkbuild"));
    for k in common::RKBUILD_ENV_UNSET.iter().chain(&[
        "RUSTC",
        "RUST_LIB_SRC",
        "BINDGEN",
        "LIBCLANG_PATH",
    ]) {
        c.env_remove(k);
    }
    c.env("RKBUILD_TOOLCHAIN", file);
    c
}

fn write_file(dir: &Path) -> std::path::PathBuf {
    let f = dir.join("toolchain.toml");
    std::fs::write(
        &f,
        format!(
            "rustc = \"{}\"\nrust_lib_src = \"{}\"\nbindgen = \"{}\"\nlibclang_path = \"{}\"\n",
            tool_env("RKBUILD_TEST_RUSTC_185"),
            tool_env("RKBUILD_TEST_LIB_185"),
            tool_env("RKBUILD_TEST_BINDGEN"),
            tool_env("RKBUILD_TEST_LIBCLANG_PATH"),
        ),
    )
    .unwrap();
    f
}

fn doctor(c: &mut Command) -> String {
    let out = c.args(["doctor", "-S"]).arg(minikernel()).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn path_rustc_has_no_library() {
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .expect("rustc (rustup's, on PATH)");
    let lib = Path::new(String::from_utf8_lossy(&sysroot.stdout).trim())
        .join("lib/rustlib/src/rust/library/core/src/lib.rs");
    assert!(
        !lib.exists(),
        "this test needs PATH's rustc without rust-src ({} exists)",
        lib.display()
    );
}

/// The main job with no variable set: the example tree builds with the file's toolchain.
#[test]
fn build_takes_the_files_tools_where_path_has_none() {
    path_rustc_has_no_library();
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(dir.path());
    let rustc = tool_env("RKBUILD_TEST_RUSTC_185");

    let d = doctor(&mut rkbuild_with_file(&file));
    assert!(
        d.contains(&format!("({rustc}, from {})", file.display())),
        "doctor names the file's rustc and the file:\n{d}"
    );
    assert!(d.contains(&tool_env("RKBUILD_TEST_LIB_185")), "{d}");

    let obj = dir.path().join("o");
    let out = rkbuild_with_file(&file)
        .args(["build", "-v", "-S"])
        .arg(minikernel())
        .arg("-O")
        .arg(&obj)
        .arg("--config")
        .arg(minikernel().join("configs/x86_64.config"))
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "build with the toolchain file:\n{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with(&format!("{rustc} "))),
        "rustc commands run the file's rustc:\n{text}"
    );
    assert!(obj.join("rust/kernel.o").is_file());
    assert!(obj.join("rust/bindings/bindings_generated.rs").is_file());
}

/// The environment wins over the file: RUSTC names the compiler, RUST_LIB_SRC makes PATH's
/// rustc usable.
#[test]
fn environment_and_usable_path_win() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(dir.path());

    let rustc_195 = tool_env("RKBUILD_TEST_RUSTC_195");
    let d = doctor(rkbuild_with_file(&file).env("RUSTC", &rustc_195));
    assert!(d.contains(&format!("({rustc_195})")), "RUSTC wins:\n{d}");
    assert!(
        !d.contains(&format!("{rustc_195}, from")),
        "the rustc is not the file's:\n{d}"
    );
    assert!(
        d.contains(&format!(
            "bindgen 0.71.1 ({}, from {})",
            tool_env("RKBUILD_TEST_BINDGEN"),
            file.display()
        )),
        "bindgen, named nowhere else, is the file's:\n{d}"
    );

    let d = doctor(rkbuild_with_file(&file).env("RUST_LIB_SRC", tool_env("RKBUILD_TEST_LIB_195")));
    assert!(
        !d.contains(&tool_env("RKBUILD_TEST_RUSTC_185")) && d.contains("rustc 1.95"),
        "PATH's rustc with RUST_LIB_SRC is usable, the file's is not taken:\n{d}"
    );
}

/// A broken file: the error names its file and line, and the exit is not zero.
#[test]
fn broken_file_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("toolchain.toml");
    std::fs::write(&file, "rustc = \"/usr/bin/rustc\"\nrust_lib = \"/x\"\n").unwrap();
    let out = rkbuild_with_file(&file)
        .args(["config", "-S"])
        .arg(minikernel())
        .arg("-O")
        .arg(dir.path().join("o"))
        .arg("--config")
        .arg(minikernel().join("configs/x86_64.config"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("{}:2: unknown field `rust_lib`", file.display())),
        "{err}"
    );
    assert!(!dir.path().join("o/include/generated/rustc_cfg").exists());
}
