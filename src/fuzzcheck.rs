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

/// A property over arbitrary bytes.
pub type Check = fn(&[u8]);

/// The checks by fuzz target name.
pub const TARGETS: &[(&str, Check)] = &[
    ("dotconfig", dotconfig),
    ("depfile", depfile),
    ("wrapper_args", wrapper_args),
    ("call_log", call_log),
    ("target_spec", target_spec),
];
