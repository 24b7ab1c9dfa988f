//! Stage 2: the kernel configuration (after the toolchain: Kconfig itself probes the tools).
//!
//! [`dotconfig`] reads `.config`/`auto.conf` with the kernel's own rules; [`rustc_cfg`] writes
//! `include/generated/rustc_cfg` as the kernel's kconfig does. Reading the tree's Kconfig (symbol
//! types, defaults, dependencies) lives beside them and only refines what these two do: a bare
//! `.config` is always enough to produce flags.

pub mod dotconfig;
pub mod eval;
pub mod explain;
pub mod macros;
pub mod rustc_cfg;
pub mod session;
pub mod tree;

pub use dotconfig::{DotConfig, Format, Tristate, Value};

/// A Kconfig symbol type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SymType {
    Bool,
    Tristate,
    Int,
    Hex,
    String,
}

/// Brings the toolchain symbols of a configuration up to date with the detected rustc, as the
/// kernel's syncconfig does (they are prompt-less `default $(rustc-version)` symbols, recomputed
/// on every run). Only symbols the configuration already has are touched. Returns one note per
/// change.
pub fn sync_toolchain_symbols(
    cfg: &mut DotConfig,
    rustc: &crate::toolchain::RustcInfo,
) -> Vec<String> {
    let mut wanted = vec![
        (
            "RUSTC_VERSION",
            Value::Bare(rustc.kernel_version().to_string()),
        ),
        (
            "RUSTC_VERSION_TEXT",
            Value::Quoted(rustc.version_text.clone()),
        ),
    ];
    if let (Some(llvm), Some(n)) = (&rustc.llvm, rustc.llvm_kernel_version()) {
        wanted.push(("RUSTC_LLVM_VERSION", Value::Bare(n.to_string())));
        wanted.push((
            "RUSTC_LLVM_MAJOR_VERSION",
            Value::Bare(llvm.major.to_string()),
        ));
    }
    let mut notes = vec![];
    for (name, value) in wanted {
        let Some(entry) = cfg.entries.get_mut(name) else {
            continue;
        };
        if entry.value.text() != value.text() {
            notes.push(format!(
                "CONFIG_{name} is `{}` in {}:{} but the detected rustc gives `{}`; using the detected value, as `make syncconfig` would",
                entry.value.text(),
                cfg.path.display(),
                entry.line,
                value.text()
            ));
            entry.value = value;
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toolchain_symbols_follow_the_detected_rustc() {
        let mut cfg = DotConfig::parse(
            std::path::Path::new(".config"),
            "CONFIG_RUSTC_VERSION=108500\nCONFIG_RUSTC_VERSION_TEXT=\"rustc 1.85.0\"\nCONFIG_RUSTC_LLVM_VERSION=190107\n",
            Format::DotConfig,
        )
        .unwrap();
        let mut r = crate::toolchain::RustcInfo::synthetic("1.95.0");
        r.llvm = Some(semver::Version::new(22, 1, 2));
        let notes = sync_toolchain_symbols(&mut cfg, &r);
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].contains(".config:1") && notes[0].contains("109500"));
        assert_eq!(cfg.int("RUSTC_VERSION"), Some(109500));
        assert_eq!(cfg.text("RUSTC_LLVM_VERSION").as_deref(), Some("220102"));
        assert!(
            cfg.get("RUSTC_LLVM_MAJOR_VERSION").is_none(),
            "absent symbols stay absent"
        );
        assert!(
            sync_toolchain_symbols(&mut cfg, &r).is_empty(),
            "idempotent"
        );
    }
}
