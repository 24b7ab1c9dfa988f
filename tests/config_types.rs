//! Saying when the answer is a guess: without the tree's Kconfig, a bare number in `.config`
//! could be an `int` (written as is) or a `hex` (Kbuild writes `0x` before it in rustc_cfg).
//! With Debian's real 7.3 configuration (`CONFIG_MTD_NAND_DISKONCHIP_PROBE_ADDRESS=0`, a hex
//! symbol), `rkbuild config` without `-S` names the symbols it could not type; with make's
//! `include/generated/autoconf.h` in the object tree (the kernel's `make syncconfig` wrote it,
//! as a distribution's headers ship it) it reads the types from there and its rustc_cfg has
//! make's lines, every one.

mod common;

use std::path::Path;
use std::process::Command;

fn config(obj: &Path) -> (String, String) {
    // Debian builds its 7.3 with rustc 1.85 and a libclang new enough for 7.3 (LLVM >= 17).
    let o = common::rkbuild_185()
        .env("BINDGEN", common::tool_env("RKBUILD_TEST_BINDGEN_22"))
        .env(
            "LIBCLANG_PATH",
            common::tool_env("RKBUILD_TEST_LIBCLANG_22_PATH"),
        )
        .args(["config", "--kbuild", "7.3", "-O"])
        .arg(obj)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    (err, common::read(&obj.join("include/generated/rustc_cfg")))
}

#[test]
fn hex_types_from_autoconf_h_or_a_warning() {
    let debian = common::tool_env("RKBUILD_TEST_DEBIAN_73_CONFIG");
    let probe = "--cfg=CONFIG_MTD_NAND_DISKONCHIP_PROBE_ADDRESS=";

    // No Kconfig, no autoconf.h: a guess, and said so.
    let obj = tempfile::tempdir().unwrap();
    std::fs::copy(&debian, obj.path().join(".config")).unwrap();
    let (err, cfg) = config(obj.path());
    assert!(cfg.contains(&format!("{probe}\"0\"")), "written as an int");
    assert!(
        err.contains("symbols hold a bare number") && err.contains("fix: pass --srctree"),
        "{err}"
    );

    // make's autoconf.h (from the kernel's own `make syncconfig`): the types are known.
    let obj = tempfile::tempdir().unwrap();
    std::fs::copy(&debian, obj.path().join(".config")).unwrap();
    let make = |target: &str| {
        let mut c = Command::new("make");
        c.arg("-s")
            .arg("-C")
            .arg(common::tool_env("RKBUILD_TEST_LINUX_73"))
            .arg(format!("O={}", obj.path().display()))
            .arg("ARCH=x86")
            .arg(format!(
                "RUSTC={}",
                common::tool_env("RKBUILD_TEST_RUSTC_185")
            ))
            .arg(format!(
                "BINDGEN={}",
                common::tool_env("RKBUILD_TEST_BINDGEN_22")
            ))
            .arg(target)
            .env(
                "LIBCLANG_PATH",
                common::tool_env("RKBUILD_TEST_LIBCLANG_22_PATH"),
            )
            .stdin(std::process::Stdio::null());
        for k in [
            "MAKEFLAGS",
            "MFLAGS",
            "MAKELEVEL",
            "O",
            "V",
            "LLVM",
            "CC",
            "CARGO_MAKEFLAGS",
        ] {
            c.env_remove(k);
        }
        c
    };
    // The symbols Debian's file lacks get their defaults first, as `olddefconfig` gives them.
    common::run_timed(make("olddefconfig"), "make olddefconfig");
    let c = make("syncconfig");
    let out = common::run_timed(c, "make syncconfig");
    let conf = common::read(&obj.path().join(".config"));
    assert!(
        conf.contains("\nCONFIG_RUST=y\n"),
        "make syncconfig turned Rust off:\n{}",
        out.lines()
            .filter(|l| l.contains("RUST") || l.contains("rust"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let made = common::read(&obj.path().join("include/generated/rustc_cfg"));
    assert!(made.contains(&format!("{probe}\"0x0\"")));
    let (err, cfg) = config(obj.path());
    assert!(!err.contains("bare number"), "{err}");
    let only = |a: &str, b: &str| -> Vec<String> {
        let b: std::collections::HashSet<&str> = b.lines().collect();
        a.lines()
            .filter(|l| !b.contains(l))
            .map(String::from)
            .collect()
    };
    // The same lines (make writes them in its symbol table's order).
    let sorted = |t: &str| {
        let mut v: Vec<&str> = t.lines().collect();
        v.sort();
        v.join("\n")
    };
    assert!(
        sorted(&cfg) == sorted(&made),
        "rustc_cfg differs from the one make wrote: rkbuild's only {:?}, make's only {:?}",
        only(&cfg, &made),
        only(&made, &cfg)
    );
}
