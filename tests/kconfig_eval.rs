//! The evaluator's rules on small Kconfig trees, each checked against what the kernel's
//! `scripts/kconfig` does (symbol.c / expr.c).

mod common;

use std::path::Path;

use rkbuild::kconfig::eval::Eval;
use rkbuild::kconfig::macros::{Expander, MacroEnv};
use rkbuild::kconfig::tree::Kconfig;
use rkbuild::kconfig::{DotConfig, Format};

/// Evaluates `kconfig` for `config` and returns `name → value` for the asked symbols.
fn eval(kconfig: &str, config: &str, names: &[&str]) -> Vec<String> {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("Kconfig"), kconfig).unwrap();
    let kc = Kconfig::load(d.path(), "x86").unwrap();
    let cfg = DotConfig::parse(Path::new(".config"), config, Format::DotConfig).unwrap();
    let x = Expander::new(MacroEnv::default(), &kc.variables, false);
    let ev = Eval::new(&kc, &cfg, &x);
    names.iter().map(|n| ev.value(n).text).collect()
}

const MODULES: &str = "config MODULES\n\tbool \"modules\"\n\tmodules\n\n";

#[test]
fn tristate_logic_and_modules() {
    let k = format!(
        "{MODULES}config A\n\ttristate \"a\"\n\nconfig B\n\ttristate \"b\"\n\tdepends on A\n\nconfig C\n\tbool \"c\"\n\tdepends on A\n\nconfig D\n\tdef_tristate A && !B\n"
    );
    // B=y is capped to A's m; a bool depending on m may be y; !m is m.
    let v = eval(
        &k,
        "CONFIG_MODULES=y\nCONFIG_A=m\nCONFIG_B=y\nCONFIG_C=y\n",
        &["A", "B", "C", "D"],
    );
    assert_eq!(v, ["m", "m", "y", "m"]);
    // Without MODULES every tristate is a bool: m becomes y.
    let v = eval(&k, "CONFIG_A=m\nCONFIG_B=y\n", &["A", "B"]);
    assert_eq!(v, ["y", "y"]);
}

#[test]
fn invisible_symbols_ignore_the_config_and_defaults_go_in_order() {
    let k = "config A\n\tbool \"a\"\n\nconfig H\n\tbool\n\tdefault y if !A\n\tdefault n if A\n\nconfig S\n\tstring\n\tdefault \"first\" if A\n\tdefault \"second\"\n\nconfig N\n\tint \"n\"\n\tdepends on A\n\tdefault 5\n";
    // H has no prompt: the .config's H=n is ignored, the first default that applies wins.
    let v = eval(
        k,
        "# CONFIG_A is not set\nCONFIG_H=n\nCONFIG_N=7\n",
        &["H", "S", "N"],
    );
    assert_eq!(v, ["y", "second", ""]);
    let v = eval(k, "CONFIG_A=y\nCONFIG_N=7\n", &["H", "S", "N"]);
    assert_eq!(v, ["n", "first", "7"]);
}

#[test]
fn select_forces_and_imply_only_suggests() {
    let k = "config A\n\tbool \"a\"\n\tselect T\n\timply I\n\nconfig T\n\tbool \"t\"\n\tdepends on X\n\nconfig I\n\tbool \"i\"\n\nconfig X\n\tbool \"x\"\n";
    // select ignores T's own dependency (X=n); imply sets the default but the user's n wins.
    let v = eval(
        k,
        "CONFIG_A=y\n# CONFIG_T is not set\n# CONFIG_I is not set\n",
        &["T", "I"],
    );
    assert_eq!(v, ["y", "n"]);
    let v = eval(k, "CONFIG_A=y\n", &["T", "I"]);
    assert_eq!(v, ["y", "y"]);
}

#[test]
fn comparisons_keep_their_direction_and_types() {
    let k = "config V\n\tint\n\tdefault 108500\n\nconfig GE\n\tdef_bool V >= 108100\n\nconfig LT\n\tdef_bool 108100 < V\n\nconfig REV\n\tdef_bool 108100 >= V\n\nconfig HX\n\thex\n\tdefault 0x10\n\nconfig HXCMP\n\tdef_bool HX > 9\n\nconfig STR\n\tstring\n\tdefault \"abc\"\n\nconfig EQ\n\tdef_bool STR = \"abc\"\n\nconfig ORD\n\tdef_bool STR > \"abb\"\n";
    let v = eval(k, "", &["GE", "LT", "REV", "HXCMP", "EQ", "ORD"]);
    // HX is hex: 0x10 > 9. An ordering between non-numbers is n in the kernel.
    assert_eq!(v, ["y", "y", "n", "y", "y", "n"]);
}

#[test]
fn choices_and_ranges() {
    let k = "config SMALL\n\tbool \"small\"\n\nchoice\n\tprompt \"level\"\n\tdefault L2 if !SMALL\n\tdefault L1\n\nconfig L1\n\tbool \"one\"\n\nconfig L2\n\tbool \"two\"\n\nendchoice\n\nconfig R\n\tint \"r\"\n\trange 12 25\n\tdefault 17\n\nconfig HR\n\thex \"hr\"\n\trange 0x1000 0x2000\n\tdefault 0x1000\n";
    let v = eval(
        k,
        "CONFIG_R=30\nCONFIG_HR=0x100\n",
        &["L1", "L2", "R", "HR"],
    );
    assert_eq!(v, ["n", "y", "25", "0x1000"]);
    let v = eval(k, "CONFIG_SMALL=y\n", &["L1", "L2", "R"]);
    assert_eq!(v, ["y", "n", "17"]);
    // The user's pick wins over the default.
    let v = eval(k, "CONFIG_L1=y\n", &["L1", "L2"]);
    assert_eq!(v, ["y", "n"]);
    // The default set to n explicitly: the first member the .config leaves open.
    let v = eval(k, "# CONFIG_L2 is not set\n", &["L1", "L2"]);
    assert_eq!(v, ["y", "n"]);
    // Everything n: the last visible member.
    let v = eval(
        k,
        "# CONFIG_L1 is not set\n# CONFIG_L2 is not set\n",
        &["L1", "L2"],
    );
    assert_eq!(v, ["n", "y"]);
}

#[test]
fn if_and_menu_blocks_add_dependencies_with_their_lines() {
    let k = "config A\n\tbool \"a\"\n\nif A\nmenu \"m\"\n\tdepends on B\n\nconfig C\n\tbool \"c\"\n\tdefault y\n\nendmenu\nendif\n\nconfig B\n\tbool \"b\"\n";
    let v = eval(k, "CONFIG_A=y\nCONFIG_B=y\n", &["C"]);
    assert_eq!(v, ["y"]);
    let v = eval(k, "CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=y\n", &["C"]);
    assert_eq!(v, ["n"]);
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("Kconfig"), k).unwrap();
    let kc = Kconfig::load(d.path(), "x86").unwrap();
    let c = &kc.get("C").unwrap().defs[0];
    assert_eq!(c.loc.line, 8);
    let lines: Vec<usize> = c.dep_lines.iter().map(|p| p.loc.line).collect();
    assert_eq!(lines, [4, 5]);
}

/// The 2021 patch set's "Rust hacking" menu (from the seed patch, as written there): the
/// optimisation-level and build-assert choices, with the Deny member hidden at opt-level 0.
#[test]
fn seed_2021_rust_hacking_choices() {
    // The seeds sit beside the oracle (../shared/seeds, or beside $RKBUILD_ORACLE).
    let patch = common::read(&common::oracle(
        "../seeds/001-patch-kbuild-add-rust-support.patch",
    ));
    // The lines the patch adds to lib/Kconfig.debug.
    let hunk: String = patch
        .split("+++ b/lib/Kconfig.debug")
        .nth(1)
        .unwrap()
        .split("\ndiff --git")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix('+'))
        .map(|l| format!("{l}\n"))
        .collect();
    let k = format!("config RUST\n\tbool \"Rust support\"\n\n{hunk}");
    let names = [
        "RUST_OVERFLOW_CHECKS",
        "RUST_OPT_LEVEL_SIMILAR_AS_CHOSEN_FOR_C",
        "RUST_OPT_LEVEL_0",
        "RUST_BUILD_ASSERT_ALLOW",
        "RUST_BUILD_ASSERT_DENY",
    ];
    let v = eval(&k, "CONFIG_RUST=y\n", &names);
    assert_eq!(v, ["y", "y", "n", "n", "y"]);
    // Opt-level 0: Deny is not visible, the default moves to Allow.
    let v = eval(
        &k,
        "CONFIG_RUST=y\nCONFIG_RUST_OPT_LEVEL_0=y\nCONFIG_RUST_BUILD_ASSERT_DENY=y\n",
        &names,
    );
    assert_eq!(v, ["y", "n", "y", "y", "n"]);
    // Without RUST nothing of the menu is set.
    let v = eval(&k, "# CONFIG_RUST is not set\n", &names);
    assert_eq!(v, ["n", "n", "n", "n", "n"]);
}
