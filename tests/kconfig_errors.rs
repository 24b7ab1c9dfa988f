//! Bad Kconfig input: clear messages with file:line, never a panic.

use std::path::Path;

use rkbuild::kconfig::eval::Eval;
use rkbuild::kconfig::macros::{Expander, MacroEnv};
use rkbuild::kconfig::tree::{Kconfig, KconfigError};
use rkbuild::kconfig::{DotConfig, Format};

fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = d.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    d
}

#[test]
fn syntax_error_names_file_and_line() {
    let d = tree(&[
        (
            "Kconfig",
            "config A\n\tbool \"a\"\n\nsource \"sub/Kconfig\"\n",
        ),
        ("sub/Kconfig", "config B\n\tbool\n\ndefault_yes_please B\n"),
    ]);
    let e = Kconfig::load(d.path(), "x86").unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, KconfigError::Syntax { .. }), "{msg}");
    assert!(msg.contains("sub/Kconfig:4"), "{msg}");
    assert!(msg.contains("default_yes_please"), "{msg}");
}

#[test]
fn missing_source_is_named_with_the_line_that_sources_it() {
    let d = tree(&[(
        "Kconfig",
        "config A\n\tbool \"a\"\n\nsource \"arch/$(SRCARCH)/Kconfig\"\n",
    )]);
    let e = Kconfig::load(d.path(), "x86").unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, KconfigError::MissingSource { .. }), "{msg}");
    assert!(msg.contains("Kconfig:4"), "{msg}");
    assert!(msg.contains("arch/x86/Kconfig"), "{msg}");
}

#[test]
fn no_kconfig_at_all() {
    let d = tempfile::tempdir().unwrap();
    let msg = Kconfig::load(d.path(), "x86").unwrap_err().to_string();
    assert!(
        msg.contains("no top-level Kconfig") && msg.contains("--srctree"),
        "{msg}"
    );
}

#[test]
fn unknown_macro_is_named_and_assumed_empty() {
    let d = tree(&[(
        "Kconfig",
        "config A\n\tdef_bool $(no-such-function,x)\n\nconfig B\n\tdef_bool $(success,true)\n",
    )]);
    let kc = Kconfig::load(d.path(), "x86").unwrap();
    let cfg = DotConfig::parse(Path::new(".config"), "", Format::DotConfig).unwrap();
    let x = Expander::new(MacroEnv::default(), &kc.variables, false);
    let ev = Eval::new(&kc, &cfg, &x);
    assert_eq!(ev.value("A").text, "n");
    assert_eq!(ev.value("B").text, "y");
    let notes = x.notes.borrow().join("\n");
    assert!(
        notes.contains("no-such-function") && notes.contains("assumed empty"),
        "{notes}"
    );
    let why = ev.why("A", 0).render();
    assert!(why.contains("no-such-function"), "{why}");
}

/// A top Kconfig made only of `source` lines (the kernel's shape) is parsed in parallel: the
/// same messages.
#[test]
fn errors_in_a_top_level_source_list() {
    let d = tree(&[
        (
            "Kconfig",
            "mainmenu \"t\"\n\nsource \"a/Kconfig\"\nsource \"arch/$(SRCARCH)/Kconfig\"\n",
        ),
        ("a/Kconfig", "config A\n\tbool \"a\"\n"),
    ]);
    let msg = Kconfig::load(d.path(), "arm64").unwrap_err().to_string();
    assert!(
        msg.contains("Kconfig:4") && msg.contains("arch/arm64/Kconfig"),
        "{msg}"
    );
    std::fs::create_dir_all(d.path().join("arch/arm64")).unwrap();
    std::fs::write(
        d.path().join("arch/arm64/Kconfig"),
        "config B\n\tbool\n\tnonsense here\n",
    )
    .unwrap();
    let msg = Kconfig::load(d.path(), "arm64").unwrap_err().to_string();
    assert!(
        msg.contains("arch/arm64/Kconfig:3") && msg.contains("nonsense here"),
        "{msg}"
    );
    std::fs::write(
        d.path().join("arch/arm64/Kconfig"),
        "config B\n\tdef_bool A\n",
    )
    .unwrap();
    let kc = Kconfig::load(d.path(), "arm64").unwrap();
    assert_eq!(kc.files, 3);
    assert_eq!(
        kc.get("B").unwrap().defs[0].loc.to_string(),
        "arch/arm64/Kconfig:1"
    );
}
