//! `rkbuild config` with and without the tree's Kconfig: types (hex prefix), defaults filled
//! into an older .config, warnings about what olddefconfig would drop, contradictory choices.

mod common;

use std::path::Path;
use std::process::Output;

const KCONFIG: &str = r#"mainmenu "test"

config X86_64
	def_bool y

config 64BIT
	def_bool y

config MODVERSIONS
	bool "Module versioning"

config RUST_IS_AVAILABLE
	def_bool $(success,true)

config RUST
	bool "Rust support"
	depends on RUST_IS_AVAILABLE
	depends on !MODVERSIONS

config RUST_OVERFLOW_CHECKS
	bool "Overflow checks"
	default y
	depends on RUST

config RUST_TEST_ADDR
	hex "An address"
	default 0x1000
	depends on RUST

choice
	prompt "Build-time assertions"
	default RUST_BUILD_ASSERT_DENY
	depends on RUST

config RUST_BUILD_ASSERT_ALLOW
	bool "Allow"

config RUST_BUILD_ASSERT_WARN
	bool "Warn"

config RUST_BUILD_ASSERT_DENY
	bool "Deny"

endchoice
"#;

const CONFIG: &str = "CONFIG_X86_64=y\nCONFIG_64BIT=y\nCONFIG_RUST_IS_AVAILABLE=y\nCONFIG_RUST=y\nCONFIG_RUST_TEST_ADDR=ff00\nCONFIG_RUST_BUILD_ASSERT_DENY=y\n";

fn setup(config: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("src")).unwrap();
    std::fs::write(d.path().join("src/Kconfig"), KCONFIG).unwrap();
    std::fs::write(d.path().join("src/Makefile"), "").unwrap();
    std::fs::write(d.path().join(".config"), config).unwrap();
    d
}

fn config(d: &Path, with_tree: bool) -> Output {
    let mut c = assert_cmd::Command::cargo_bin("rkbuild").unwrap();
    c.args(["config", "--kbuild", "7.3", "-O"]).arg(d);
    if with_tree {
        c.arg("-S").arg(d.join("src"));
    }
    c.env("RUSTC", common::tool_env("RKBUILD_TEST_RUSTC_185"))
        .env("RUST_LIB_SRC", common::tool_env("RKBUILD_TEST_LIB_185"))
        .env("RKBUILD_CACHE_DIR", d.join("cache"))
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn rustc_cfg(d: &Path) -> String {
    common::read(&d.join("include/generated/rustc_cfg"))
}

#[test]
fn kconfig_types_defaults_and_warnings() {
    let d = setup(CONFIG);
    let o = config(d.path(), true);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let cfg = rustc_cfg(d.path());
    // Hex: the Kconfig says so, the prefix is added.
    assert!(
        cfg.contains("--cfg=CONFIG_RUST_TEST_ADDR=\"0xff00\""),
        "{cfg}"
    );
    // RUST_OVERFLOW_CHECKS is missing from the older .config: default y, with its line.
    assert!(cfg.contains("--cfg=CONFIG_RUST_OVERFLOW_CHECKS\n"), "{cfg}");
    // ... and so into the flags.
    let flags = common::read(&d.path().join("include/generated/rustc_flags"));
    assert!(flags.contains("-Coverflow-checks=y"), "{flags}");
    let config_line = KCONFIG
        .lines()
        .position(|l| l == "config RUST_OVERFLOW_CHECKS")
        .unwrap();
    let default_line = config_line + 3; // `default y`, 1-based
    assert!(
        t.contains("CONFIG_RUST_OVERFLOW_CHECKS is missing")
            && t.contains(&format!("Kconfig:{default_line}")),
        "{t}"
    );

    // Without the Kconfig: as before, and it says it could not check.
    let d2 = setup(CONFIG);
    let o = config(d2.path(), false);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("no Kconfig to check"), "{t}");
    let cfg = rustc_cfg(d2.path());
    assert!(
        cfg.contains("--cfg=CONFIG_RUST_TEST_ADDR=\"ff00\""),
        "{cfg}"
    );
    assert!(!cfg.contains("RUST_OVERFLOW_CHECKS"), "{cfg}");
    let flags = common::read(&d2.path().join("include/generated/rustc_flags"));
    assert!(flags.contains("-Coverflow-checks=n"), "{flags}");
}

#[test]
fn warns_what_olddefconfig_would_drop() {
    let d = setup(&format!("{CONFIG}CONFIG_MODVERSIONS=y\n"));
    let o = config(d.path(), true);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("CONFIG_RUST=y would become n") && t.contains("MODVERSIONS=y"),
        "{t}"
    );
}

#[test]
fn contradictory_choice_is_rejected_with_the_kconfig_line() {
    let d = setup(&format!("{CONFIG}CONFIG_RUST_BUILD_ASSERT_WARN=y\n"));
    let o = config(d.path(), true);
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    let line = KCONFIG.lines().position(|l| l == "choice").unwrap() + 1;
    assert!(t.contains(&format!("choice at Kconfig:{line}")), "{t}");
    assert!(
        t.contains("CONFIG_RUST_BUILD_ASSERT_WARN=y")
            && t.contains("CONFIG_RUST_BUILD_ASSERT_DENY=y"),
        "{t}"
    );
    // Nothing half-written.
    assert!(!d.path().join("include/generated/rustc_cfg").exists());
}

#[test]
fn unreadable_kconfig_is_reported_and_config_goes_on() {
    let d = setup(CONFIG);
    std::fs::write(
        d.path().join("src/Kconfig"),
        format!("{KCONFIG}\nconfig BROKEN\n\tbool\n\tfrobnicate yes\n"),
    )
    .unwrap();
    let o = config(d.path(), true);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let line = KCONFIG.lines().count() + 4;
    assert!(t.contains("cannot read the tree's Kconfig"), "{t}");
    assert!(t.contains(&format!("Kconfig:{line}")), "{t}");
    assert!(t.contains("frobnicate"), "{t}");
}
