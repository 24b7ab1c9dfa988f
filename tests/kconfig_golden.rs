//! Golden test: rkbuild's Kconfig evaluation of the real 6.12 and 7.3 trees against the
//! `auto.conf` the kernel's own kconfig wrote for the same `.config` (../shared/oracle).

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use rkbuild::kconfig::eval::Eval;
use rkbuild::kconfig::macros::{Expander, MacroEnv};
use rkbuild::kconfig::tree::Kconfig;
use rkbuild::kconfig::{DotConfig, Format};

fn auto_conf(p: &Path) -> BTreeMap<String, String> {
    let cfg = DotConfig::parse(p, &common::read(p), Format::AutoConf).unwrap();
    cfg.entries
        .iter()
        .map(|(k, e)| (k.clone(), e.value.text().into_owned()))
        .collect()
}

/// Evaluates `config` and compares every symbol with the oracle's auto.conf. Returns
/// (symbols compared, mismatches).
fn compare(
    kc: &Kconfig,
    env: MacroEnv,
    config: &Path,
    oracle: &Path,
    c_probes_differ: bool,
) -> (usize, Vec<String>) {
    let user = DotConfig::load(config).unwrap();
    let x = Expander::new(env, &kc.variables, false);
    let ev = Eval::new(kc, &user, &x);
    let mine: BTreeMap<String, String> = ev.auto_conf().into_iter().collect();
    x.save();
    let skip = |name: &str| c_probes_differ && ev.depends_on_c_probe(name);
    let theirs = auto_conf(oracle);
    let mut bad = vec![];
    let mut n = 0;
    let names: std::collections::BTreeSet<&String> = mine.keys().chain(theirs.keys()).collect();
    for name in names {
        if skip(name) {
            continue;
        }
        n += 1;
        let (a, b) = (mine.get(name), theirs.get(name));
        if a != b {
            bad.push(format!("CONFIG_{name}: rkbuild {a:?}, kernel {b:?}"));
        }
    }
    (n, bad)
}

/// The oracle's toolchain: `make LLVM=-14 RUSTC=… RUST_LIB_SRC=…`, with this machine's bindgen
/// and libclang.
fn oracle_env(src: &str, rustc: &str, lib_src: String) -> MacroEnv {
    let mut env = MacroEnv::kbuild(Path::new(src), "x86", rustc, Some("-14"));
    env.set("RUST_LIB_SRC", lib_src);
    env.set("BINDGEN", common::tool_env("RKBUILD_TEST_BINDGEN"));
    env.set(
        "LIBCLANG_PATH",
        common::tool_env("RKBUILD_TEST_LIBCLANG_PATH"),
    );
    env.version_texts();
    env
}

fn assert_all_match(n: usize, bad: &[String]) {
    assert!(
        bad.is_empty(),
        "{} of {n} differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Evaluates the oracle's own `.config` for `vintage` in the x86 Kconfig of the tree at `src`,
/// with the oracle's toolchain: every symbol must match its auto.conf. `note` says what was left
/// out of the comparison. Returns the number of symbols compared.
fn defconfig_rust_matches(
    vintage: &str,
    src: &str,
    rustc: &str,
    lib_src: String,
    c_probes_differ: bool,
    note: &str,
) -> usize {
    let kc = Kconfig::load(Path::new(src), "x86").unwrap();
    let env = oracle_env(src, rustc, lib_src);
    let dir = common::oracle(&format!("linux-{vintage}/x86_64-defconfig-rust"));
    let (n, bad) = compare(
        &kc,
        env,
        &dir.join("config"),
        &dir.join("auto.conf"),
        c_probes_differ,
    );
    eprintln!(
        "{vintage}: {} symbols defined, {n} compared{note}, {} differ; parse {:?}",
        kc.symbols.len(),
        bad.len(),
        kc.parse_time
    );
    assert_all_match(n, &bad);
    n
}

#[test]
fn linux_612_x86_64_defconfig_rust() {
    let n = defconfig_rust_matches(
        "6.12",
        &common::tool_env("RKBUILD_TEST_LINUX_612"),
        &common::tool_env("RKBUILD_TEST_RUSTC_185"),
        common::tool_env("RKBUILD_TEST_LIB_185"),
        false,
        "",
    );
    assert!(n > 1500, "only {n} symbols compared");
}

/// 7.3: the oracle was made with clang-22 and bindgen 0.73.2 (libclang 22), which this machine
/// does not have (7.3 needs libclang >= 17.0.1, so here `rust_is_available.sh` fails, as the
/// kernel's own conf would); rustc 1.95.0 (rustup stable) and its library source are the same.
/// Symbols whose value reads a probe of anything but rustc are left out; the rest must match.
#[test]
fn linux_73_x86_64_defconfig_rust() {
    let sysroot = rkbuild::process::Process::new("rustc")
        .args(["+stable", "--print", "sysroot"])
        .output()
        .expect("rustup's rustc +stable (1.95.0)");
    let rustc = format!("{}/bin/rustc", sysroot.stdout.trim());
    let n = defconfig_rust_matches(
        "7.3",
        &common::tool_env("RKBUILD_TEST_LINUX_73"),
        &rustc,
        common::tool_env("RKBUILD_TEST_LIB_195"),
        true,
        " (symbols reading non-rustc probes left out)",
    );
    assert!(n > 1200, "only {n} symbols compared");
}

/// The stronger check: start from the minimal `arch/x86/configs/x86_64_defconfig` plus the
/// oracle recipe's edits (RUST, SAMPLES, SAMPLES_RUST, SAMPLE_RUST_MINIMAL=m,
/// SAMPLE_RUST_PRINT=y, MODVERSIONS off), so nearly every value comes from rkbuild's own
/// defaults, selects and probes, and compare with the kernel's auto.conf.
#[test]
fn linux_612_from_the_minimal_defconfig() {
    let src = common::tool_env("RKBUILD_TEST_LINUX_612");
    let kc = Kconfig::load(Path::new(&src), "x86").unwrap();
    let env = oracle_env(
        &src,
        &common::tool_env("RKBUILD_TEST_RUSTC_185"),
        common::tool_env("RKBUILD_TEST_LIB_185"),
    );
    let defconfig = common::read(&Path::new(&src).join("arch/x86/configs/x86_64_defconfig"));
    let edits = "CONFIG_RUST=y\nCONFIG_SAMPLES=y\nCONFIG_SAMPLES_RUST=y\nCONFIG_SAMPLE_RUST_MINIMAL=m\nCONFIG_SAMPLE_RUST_PRINT=y\n# CONFIG_MODVERSIONS is not set\n";
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join(".config");
    std::fs::write(&config, format!("{defconfig}{edits}")).unwrap();
    let oracle = common::oracle("linux-6.12/x86_64-defconfig-rust/auto.conf");
    let (n, bad) = compare(&kc, env, &config, &oracle, false);
    eprintln!(
        "6.12 from x86_64_defconfig: {n} compared, {} differ",
        bad.len()
    );
    assert_all_match(n, &bad);
}
