//! The whole Kconfig of the real trees parses for the other Rust architectures too, with a
//! source position on every entry.

mod common;

use std::path::Path;

use rkbuild::kconfig::tree::Kconfig;

fn check(tree: &str, srcarch: &str, arch_symbol: &str) {
    let kc = Kconfig::load(Path::new(tree), srcarch).unwrap();
    let defined = kc.defined_symbols();
    eprintln!(
        "{tree} {srcarch}: {} files, {} entries, {defined} symbols, {} choices, parsed in {:?}",
        kc.files,
        kc.entries,
        kc.choices.len(),
        kc.parse_time
    );
    assert!(defined > 17_000, "{defined}");
    assert!(kc.choices.len() > 60);
    assert!(kc.files > 1_500);
    let arch = kc.get(arch_symbol).expect("the arch symbol");
    assert!(arch.defs[0]
        .loc
        .file
        .starts_with(&format!("arch/{srcarch}/")));
    let rust = kc.get("RUST").unwrap();
    assert_eq!(&*rust.defs[0].loc.file, "init/Kconfig");
    let line = rust.defs[0].loc.line;
    let text = common::read(&Path::new(tree).join("init/Kconfig"));
    assert_eq!(text.lines().nth(line - 1).unwrap().trim(), "config RUST");
    // Every entry has a position.
    for (_, s) in kc.symbols.iter() {
        for d in &s.defs {
            assert!(d.loc.line > 0, "{} has no line in {}", s.name, d.loc.file);
        }
    }
}

#[test]
fn linux_612_arm64() {
    check(
        &common::tool_env("RKBUILD_TEST_LINUX_612"),
        "arm64",
        "ARM64",
    );
}

#[test]
fn linux_73_riscv() {
    check(&common::tool_env("RKBUILD_TEST_LINUX_73"), "riscv", "RISCV");
}
