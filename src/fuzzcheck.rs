//! The properties the fuzz targets (`fuzz/`) check, one function per input reader, kept here so
//! that the seeds and every crash found run as ordinary tests too (tests/fuzz_regressions.rs).
//! Each takes arbitrary bytes and panics when a property fails.

use std::path::Path;

use crate::kconfig::dotconfig::{DotConfig, Format};
use crate::kconfig::rustc_cfg;
use crate::targetspec::schema::{self, Spec};
use crate::targetspec::spec;
use crate::toolchain::version::parse_rustc_vv;
use crate::wrapper::{args, record};

/// `.config` / `auto.conf`, then the rustc_cfg writer: every line written reads back to a
/// symbol of the configuration.
pub fn dotconfig(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for format in [Format::DotConfig, Format::AutoConf] {
        let Ok(cfg) = DotConfig::parse(Path::new(".config"), &text, format) else {
            continue;
        };
        let Ok(out) = rustc_cfg::render(&cfg, &|_| None) else {
            continue;
        };
        for line in out.lines() {
            let (name, _) = rustc_cfg::parse_line(line)
                .unwrap_or_else(|| panic!("a written line does not read back: {line:?}"));
            assert!(
                cfg.has(&name),
                "{name} is not in the configuration: {line:?}"
            );
        }
    }
}

/// The make-style depfile reader: no empty prerequisite.
pub fn depfile(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for p in crate::exec::fingerprint::parse_depfile(&text) {
        assert!(!p.is_empty(), "an empty prerequisite");
    }
}

/// The wrapper's reading of a rustc command line (NUL-separated arguments).
pub fn wrapper_args(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let argv: Vec<String> = text.split('\0').map(String::from).collect();
    let a = args::parse(&argv);
    let _ = (
        a.name(),
        a.outputs(),
        a.inputs(),
        a.emit("link"),
        a.emit("dep-info"),
    );
}

/// The call log reader: every line is a record or a bad line, and a record written back
/// reads the same.
pub fn call_log(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (recs, bad) = record::parse_log(&text);
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(recs.len() + bad.len(), lines);
    for r in recs {
        let again = serde_json::to_string(&r).expect("a record serializes");
        let (back, bad) = record::parse_log(&again);
        assert!(bad.is_empty(), "{again}: {bad:?}");
        assert_eq!(serde_json::to_string(&back[0]).unwrap(), again);
    }
}

/// The rustc versions whose target-spec schema rkbuild knows, oldest to newest.
const SPEC_VERSIONS: &[&str] = &[
    "1.78.0",
    "1.85.0",
    "1.88.0",
    "1.91.0",
    "1.95.0",
    "1.97.0-nightly",
];

/// A target spec as `rkbuild target upgrade` reads it, upgraded for each known schema:
/// upgrading is idempotent and the written spec reads back.
pub fn target_spec(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(original) = serde_json::from_str::<Spec>(text) else {
        return;
    };
    for v in SPEC_VERSIONS {
        let rustc = parse_rustc_vv(&format!(
            "rustc {v}\nbinary: rustc\ncommit-hash: unknown\ncommit-date: unknown\nhost: x86_64-unknown-linux-gnu\nrelease: {v}\nLLVM version: 19.1.7\n"
        ))
        .expect("a -vV text");
        let mut once = original.clone();
        schema::upgrade_static(&mut once, &rustc);
        let mut twice = once.clone();
        let notes = schema::upgrade_static(&mut twice, &rustc);
        assert_eq!(
            once, twice,
            "upgrading twice changed the spec for {v}: {notes:?}"
        );
        let written = spec::render(&once);
        let back: Spec = serde_json::from_str(&written).expect("a written spec reads back");
        assert_eq!(back, once);
    }
}

/// A Kconfig file (the tree's top `Kconfig`, its `source` lines looked up in a scratch
/// folder): parsed and flattened, or refused with an error; never a panic or a hang. rkbuild's
/// parser builds the same AST as nom-kconfig, or fails with the same error. Nothing is
/// evaluated: `$(shell,…)` would run.
pub fn kconfig(data: &[u8]) {
    use crate::kconfig::tree::Kconfig;
    thread_local! {
        static DIR: tempfile::TempDir = tempfile::tempdir().expect("a scratch folder");
    }
    DIR.with(|d| {
        std::fs::write(d.path().join("Kconfig"), data).expect("write Kconfig");
        if let Ok(kc) = Kconfig::load(d.path(), "x86") {
            for (name, sym) in kc.symbols.iter() {
                assert!(!name.is_empty(), "a symbol without a name: {sym:?}");
            }
        }
        // (Not text: neither parser reads it.)
        if let Ok(c) = crate::kconfig::tree::compare_parsers(d.path(), "x86", &|_| true) {
            assert!(
                c.differences.is_empty(),
                "the two parsers differ:\n{}",
                c.differences.join("\n")
            );
        }
    });
}

/// A Kbuild makefile read as the walker reads one (includes not followed): no panic, and
/// every list it sets is made of words without blanks.
pub fn makefile(data: &[u8]) {
    use crate::makefile::{Around, Includes, Reader, Scope};
    struct Kbuild;
    impl Around for Kbuild {
        fn fixed(&self, name: &str) -> Option<String> {
            match name {
                "obj" | "src" => Some("drivers/x".into()),
                "CONFIG_Y" => Some("y".into()),
                "CONFIG_M" => Some("m".into()),
                _ => None,
            }
        }
        fn is_list(&self, name: &str) -> bool {
            name.starts_with("obj-") || name.ends_with("-y") || name.ends_with("-objs")
        }
        fn call(&self, _: &str, _: &[String]) -> Option<String> {
            None
        }
    }
    let text = String::from_utf8_lossy(data);
    let root = Path::new("/nonexistent-rkbuild-fuzz");
    let mut scope = Scope::new(Kbuild);
    let skip = |_: &mut Scope, _: &str, _: &crate::makefile::Loc| {};
    let mut reader = Reader::new(root);
    if reader
        .read_text(&mut scope, "Makefile", &text, &Includes::Instead(&skip))
        .is_ok()
    {
        for list in ["obj-y", "obj-m", "obj-"] {
            for w in scope.words(list) {
                assert!(
                    !w.text.is_empty() && !w.text.chars().any(char::is_whitespace),
                    "{list}: not a word: {:?}",
                    w.text
                );
            }
        }
    }
}

/// Kbuild's record files (`.cmd`, `auto.conf.cmd`): the readers take what is there and
/// nothing else.
pub fn kbuild_records(data: &[u8]) {
    use crate::makefile::records;
    let text = String::from_utf8_lossy(data);
    if let Some(cmd) = records::savedcmd(&text) {
        assert!(
            text.contains(&format!(" := {cmd}")),
            "{cmd:?} is not a command of the text"
        );
    }
    if let Some((ld, flags)) = records::recorded_ld(&text) {
        assert!(
            ld != "-r" && !flags.iter().any(|f| f == "-r"),
            "{ld} {flags:?}"
        );
    }
    for (name, _) in records::recorded_vars(&text) {
        assert!(
            ["ARCH", "RUSTC", "BINDGEN"].contains(&name.as_str()),
            "{name}"
        );
    }
}

/// A property over arbitrary bytes.
pub type Check = fn(&[u8]);

/// The checks by fuzz target name.
pub const TARGETS: &[(&str, Check)] = &[
    ("dotconfig", dotconfig),
    ("depfile", depfile),
    ("wrapper_args", wrapper_args),
    ("call_log", call_log),
    ("target_spec", target_spec),
    ("kconfig", kconfig),
    ("makefile", makefile),
    ("kbuild_records", kbuild_records),
];
