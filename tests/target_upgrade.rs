//! `rkbuild target check` / `upgrade` on the eight static specs of the 2021 seeds
//! (`001-patch-kbuild-add-rust-support.patch`): each is upgraded for each compiler here and then
//! loads cleanly in that compiler (checked by running rustc directly, not only by `check`).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use assert_cmd::Command as Cmd;

/// The seeds' `arch/*/rust/*.json` files, from the patch.
fn seed_specs() -> Vec<(String, String)> {
    let patch = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/seeds/001-patch-kbuild-add-rust-support.patch");
    let patch = std::env::var_os("RKBUILD_SEEDS")
        .map(|s| PathBuf::from(s).join("001-patch-kbuild-add-rust-support.patch"))
        .unwrap_or(patch);
    let text = common::read(&patch);
    let mut out = vec![];
    let mut cur: Option<(String, String)> = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("+++ b/") {
            if let Some(c) = cur.take() {
                out.push(c);
            }
            if name.starts_with("arch/") && name.ends_with(".json") {
                cur = Some((name.to_string(), String::new()));
            }
        } else if line.starts_with("diff --git") {
            if let Some(c) = cur.take() {
                out.push(c);
            }
        } else if let Some((_, body)) = cur.as_mut() {
            if let Some(l) = line.strip_prefix('+') {
                body.push_str(l);
                body.push('\n');
            }
        }
    }
    out.extend(cur);
    out
}

fn rustup_rustc(tc: &str) -> String {
    let out = Command::new("rustup")
        .args(["which", "rustc", "--toolchain", tc])
        .output()
        .expect("rustup is needed to find the stable/nightly rustc");
    assert!(out.status.success(), "rustup has no {tc} toolchain");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn compilers() -> Vec<(&'static str, String)> {
    vec![
        ("1.85", common::tool_env("RKBUILD_TEST_RUSTC_185")),
        ("1.95", rustup_rustc("stable")),
        ("nightly", rustup_rustc("nightly")),
    ]
}

/// rustc's own verdict: `--print cfg` with the spec, nothing on stderr.
fn rustc_accepts(rustc: &str, spec: &Path) -> Result<(), String> {
    let mut c = Command::new(rustc);
    c.env("RUSTC_BOOTSTRAP", "1");
    let vv = Command::new(rustc).arg("-vV").output().unwrap();
    let vv = String::from_utf8_lossy(&vv.stdout);
    let minor: u64 = vv
        .lines()
        .find_map(|l| l.strip_prefix("release: 1."))
        .and_then(|r| r.split('.').next()?.parse().ok())
        .unwrap();
    if minor >= 95 {
        c.arg("-Zunstable-options");
    }
    let out = c
        .args(["--print", "cfg", "--target"])
        .arg(spec)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.success() && err.trim().is_empty() {
        Ok(())
    } else {
        Err(err.into_owned())
    }
}

/// `rkbuild target ARGS FILE --rustc RUSTC`, run to the end.
fn rkbuild_target(args: &[&str], file: &Path, rustc: &str) -> Output {
    Cmd::cargo_bin("rkbuild")
        .unwrap()
        .arg("target")
        .args(args)
        .arg(file)
        .args(["--rustc", rustc])
        .output()
        .unwrap()
}

#[test]
fn the_patch_has_eight_specs() {
    let names: Vec<String> = seed_specs().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names.len(), 8, "{names:?}");
    for (_, body) in seed_specs() {
        serde_json::from_str::<serde_json::Value>(&body).expect("seed spec is JSON");
    }
}

#[test]
fn every_seed_spec_upgrades_for_every_compiler() {
    let dir = tempfile::tempdir().unwrap();
    let specs = seed_specs();
    let mut failures = vec![];
    for (cname, rustc) in compilers() {
        for (name, body) in &specs {
            let stem = Path::new(name).file_stem().unwrap().to_string_lossy();
            let arch = name.split('/').nth(1).unwrap();
            let file = dir.path().join(format!("{arch}-{stem}-{cname}.json"));
            std::fs::write(&file, body).unwrap();
            // The old file is not clean in any of them (1.85 warns, 1.95 refuses).
            let before = rkbuild_target(&["check"], &file, &rustc);
            if before.status.code() != Some(1) {
                failures.push(format!(
                    "{name} × {cname}: check of the old spec exited {:?}\n{}",
                    before.status.code(),
                    String::from_utf8_lossy(&before.stdout)
                ));
                continue;
            }
            let up = rkbuild_target(&["upgrade"], &file, &rustc);
            let said = String::from_utf8_lossy(&up.stdout).into_owned();
            if !up.status.success() {
                failures.push(format!(
                    "{name} × {cname}: upgrade failed\n{said}{}",
                    String::from_utf8_lossy(&up.stderr)
                ));
                continue;
            }
            // Each change is listed with its reason.
            if !said.contains("is-builtin: removed (") {
                failures.push(format!("{name} × {cname}: changes not listed:\n{said}"));
            }
            if let Err(e) = rustc_accepts(&rustc, &file) {
                failures.push(format!(
                    "{name} × {cname}: rustc refuses the upgraded spec:\n{e}"
                ));
                continue;
            }
            let after = rkbuild_target(&["check"], &file, &rustc);
            if !after.status.success() {
                failures.push(format!(
                    "{name} × {cname}: check after upgrade:\n{}",
                    String::from_utf8_lossy(&after.stdout)
                ));
            }
            // A second upgrade changes nothing (the file is byte-stable).
            let bytes = std::fs::read(&file).unwrap();
            let again = rkbuild_target(&["upgrade"], &file, &rustc);
            assert!(again.status.success());
            assert_eq!(std::fs::read(&file).unwrap(), bytes, "{name} × {cname}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn check_explains_in_plain_words() {
    let dir = tempfile::tempdir().unwrap();
    let (_, x86) = seed_specs()
        .into_iter()
        .find(|(n, _)| n == "arch/x86/rust/target.json")
        .unwrap();
    let file = dir.path().join("target.json");
    std::fs::write(&file, x86).unwrap();
    let out = rkbuild_target(&["check"], &file, &rustup_rustc("stable"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("does not know the key `eliminate-frame-pointer`"),
        "{text}"
    );
    assert!(text.contains("fix: rkbuild target upgrade"), "{text}");
    let out = rkbuild_target(
        &["check"],
        &file,
        &common::tool_env("RKBUILD_TEST_RUSTC_185"),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("ignores the key `is-builtin`"), "{text}");
    assert!(
        text.contains("LLVM does not know the feature `3dnow`"),
        "{text}"
    );
}

#[test]
fn generated_specs_pass_check_in_every_compiler() {
    let dir = tempfile::tempdir().unwrap();
    let archs: &[(&str, &str)] = &[
        ("x86_64", "CONFIG_X86_64=y\nCONFIG_MITIGATION_RETPOLINE=y\n"),
        ("x86", "CONFIG_X86_32=y\nCONFIG_UML=y\n"),
        ("arm64", "CONFIG_ARM64=y\n"),
        ("arm", "CONFIG_ARM=y\nCONFIG_CPU_32v7=y\n"),
        ("riscv64", "CONFIG_RISCV=y\nCONFIG_64BIT=y\n"),
        ("riscv32", "CONFIG_RISCV=y\nCONFIG_RISCV_ISA_C=y\n"),
        ("powerpc64le", "CONFIG_PPC64=y\n"),
        ("loongarch64", "CONFIG_LOONGARCH=y\n"),
    ];
    let mut failures = vec![];
    for (cname, rustc) in compilers() {
        for (arch, config) in archs {
            let cfg = dir.path().join(format!("{arch}.config"));
            std::fs::write(&cfg, config).unwrap();
            let spec = Cmd::cargo_bin("rkbuild")
                .unwrap()
                .args([
                    "target", "--kbuild", "2021", "--arch", arch, "--rustc", &rustc, "--config",
                ])
                .arg(&cfg)
                .output()
                .unwrap();
            assert!(
                spec.status.success(),
                "{arch} × {cname}: {}",
                String::from_utf8_lossy(&spec.stderr)
            );
            let file = dir.path().join(format!("{arch}-{cname}.json"));
            std::fs::write(&file, &spec.stdout).unwrap();
            let check = rkbuild_target(&["check"], &file, &rustc);
            if !check.status.success() {
                failures.push(format!(
                    "{arch} × {cname}:\n{}",
                    String::from_utf8_lossy(&check.stdout)
                ));
            }
            // Nothing for upgrade to do on a spec rkbuild made for this rustc.
            let up = rkbuild_target(&["upgrade", "--dry-run"], &file, &rustc);
            let text = String::from_utf8_lossy(&up.stdout);
            if !up.status.success() || text.as_bytes() != spec.stdout.as_slice() {
                failures.push(format!(
                    "{arch} × {cname}: upgrade would change a fresh spec:\n{text}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
