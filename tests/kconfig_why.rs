//! `rkbuild why` on the real 6.12 tree: the two ways `make olddefconfig` silently drops
//! CONFIG_RUST (MODVERSIONS=y; a rustc without its library source), named with the Kconfig
//! line and the .config line or the failed probe behind them.

mod common;

use std::path::Path;

use rkbuild::kconfig::eval::Eval;
use rkbuild::kconfig::macros::{Expander, MacroEnv};
use rkbuild::kconfig::tree::Kconfig;
use rkbuild::kconfig::{DotConfig, Format};

fn env(src: &str, lib: &str) -> MacroEnv {
    let mut env = MacroEnv::kbuild(
        Path::new(src),
        "x86",
        &common::tool_env("RKBUILD_TEST_RUSTC_185"),
        Some("-14"),
    );
    env.set("RUST_LIB_SRC", lib);
    env.set("BINDGEN", common::tool_env("RKBUILD_TEST_BINDGEN"));
    env.set(
        "LIBCLANG_PATH",
        common::tool_env("RKBUILD_TEST_LIBCLANG_PATH"),
    );
    env
}

fn oracle_config(edit: &dyn Fn(&str) -> String) -> DotConfig {
    let p = common::oracle("linux-6.12/x86_64-defconfig-rust/config");
    DotConfig::parse(
        Path::new(".config"),
        &edit(&common::read(&p)),
        Format::DotConfig,
    )
    .unwrap()
}

#[test]
fn rust_dropped_by_modversions_and_by_missing_rust_src() {
    let src = common::tool_env("RKBUILD_TEST_LINUX_612");
    let kc = Kconfig::load(Path::new(&src), "x86").unwrap();

    // 1. RUST=y with MODVERSIONS=y: the kernel's olddefconfig drops RUST without a word.
    let cfg =
        oracle_config(&|t| t.replace("# CONFIG_MODVERSIONS is not set", "CONFIG_MODVERSIONS=y"));
    let x = Expander::new(
        env(&src, &common::tool_env("RKBUILD_TEST_LIB_185")),
        &kc.variables,
        false,
    );
    let ev = Eval::new(&kc, &cfg, &x);
    let why = ev.why("RUST", 0);
    x.save();
    let text = why.render();
    eprintln!("{text}");
    assert_eq!(why.value, "n");
    assert_eq!(why.blockers.len(), 1, "{text}");
    let b = &why.blockers[0];
    assert_eq!(b.condition, "!MODVERSIONS");
    assert!(b.at.starts_with("init/Kconfig:"), "{}", b.at);
    let line: usize = b.at.rsplit(':').next().unwrap().parse().unwrap();
    let kconfig = common::read(&Path::new(&src).join("init/Kconfig"));
    assert!(kconfig
        .lines()
        .nth(line - 1)
        .unwrap()
        .contains("!MODVERSIONS"));
    assert_eq!(b.culprits[0].symbol, "MODVERSIONS");
    assert_eq!(b.culprits[0].value, "y");
    let mv_line = cfg.entries["MODVERSIONS"].line;
    assert!(
        b.culprits[0].origin.contains(&format!(".config:{mv_line}")),
        "{text}"
    );
    assert!(why.summary.contains("drops it"), "{text}");
    // With MODVERSIONS off (the oracle's own .config) RUST stays.
    let ok = oracle_config(&|t| t.to_string());
    let ev_ok = Eval::new(&kc, &ok, &x);
    assert_eq!(ev_ok.value("RUST").text, "y");

    // 2. A library source without core/src/lib.rs: RUST_IS_AVAILABLE is false.
    let empty = tempfile::tempdir().unwrap();
    let x2 = Expander::new(
        env(&src, &empty.path().display().to_string()),
        &kc.variables,
        false,
    );
    let ev2 = Eval::new(&kc, &ok, &x2);
    let why2 = ev2.why("RUST", 0);
    let text2 = why2.render();
    eprintln!("{text2}");
    assert_eq!(why2.value, "n");
    let b2 = &why2.blockers[0];
    assert_eq!(b2.condition, "RUST_IS_AVAILABLE");
    assert_eq!(b2.culprits[0].symbol, "RUST_IS_AVAILABLE");
    let because = b2.culprits[0].because.join("\n");
    assert!(because.contains("rust_is_available.sh"), "{text2}");
    assert!(because.contains("FAILED"), "{text2}");
    let core = empty.path().join("core/src/lib.rs");
    assert!(because.contains(&core.display().to_string()), "{text2}");
}

/// The command line, end to end, on the headline case.
#[test]
fn why_command_names_modversions() {
    let src = common::tool_env("RKBUILD_TEST_LINUX_612");
    let dir = tempfile::tempdir().unwrap();
    let text = common::read(&common::oracle("linux-6.12/x86_64-defconfig-rust/config"))
        .replace("# CONFIG_MODVERSIONS is not set", "CONFIG_MODVERSIONS=y");
    std::fs::write(dir.path().join(".config"), text).unwrap();
    let out = assert_cmd::Command::cargo_bin("rkbuild")
        .unwrap()
        .args(["why", "CONFIG_RUST", "-S", &src, "-O"])
        .arg(dir.path())
        .env("LLVM", "-14")
        .env("RUSTC", common::tool_env("RKBUILD_TEST_RUSTC_185"))
        .env("RUST_LIB_SRC", common::tool_env("RKBUILD_TEST_LIB_185"))
        .env("BINDGEN", common::tool_env("RKBUILD_TEST_BINDGEN"))
        .env(
            "LIBCLANG_PATH",
            common::tool_env("RKBUILD_TEST_LIBCLANG_PATH"),
        )
        .env("RKBUILD_CACHE_DIR", dir.path().join("cache"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("blocked by: depends on !MODVERSIONS"),
        "{stdout}"
    );
    assert!(stdout.contains("MODVERSIONS=y"), "{stdout}");
    // Without a source tree there is no Kconfig to ask: a clear error, not a guess.
    let out = assert_cmd::Command::cargo_bin("rkbuild")
        .unwrap()
        .args(["why", "CONFIG_RUST", "--config"])
        .arg(dir.path().join(".config"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--srctree"));
}
