//! The kernel's x86 target spec: `scripts/generate_rust_target.rs` of 6.12 and 7.3 for
//! `CONFIG_X86_64` and `CONFIG_X86_32` (UML), byte for byte.
//!
//! Why its own file: rustc identifies a custom target by a hash of the file, so the spec the
//! kernel's make would write and the one rkbuild writes must be the same bytes, or objects built
//! by one are refused by the other (E0461). The generator's design is kept as it is: four-space
//! "almost JSON", keys in the order the kernel pushes them, the version-dependent keys chosen by
//! the detected rustc as the kernel's `rustc_version_atleast` does.
//!
//! Out of scope: which architectures use this spec (their description's
//! `target.generated_spec`), the flags beside it (the arch description), and the self-contained
//! specs of `--target-style json` (`spec`).

use super::SpecError;
use crate::kconfig::{DotConfig, Format};
use crate::toolchain::RustcInfo;
use crate::tree::Arch;

/// The spec for an architecture whose description says `target.generated_spec`. A
/// configuration without x86 symbols (`--arch` alone) gets the ones the generator dispatches on
/// for the architecture's width.
pub(super) fn spec_for(
    arch: Arch,
    cfg: &DotConfig,
    rustc: &RustcInfo,
) -> Result<String, SpecError> {
    if cfg.has("X86_64") || cfg.has("X86_32") {
        return kernel_x86_spec(cfg, rustc);
    }
    let extra = if arch.is_64bit() {
        "CONFIG_X86_64=y\n"
    } else {
        "CONFIG_X86_32=y\nCONFIG_UML=y\n"
    };
    let text = format!("{}{extra}", cfg.to_dotconfig());
    let cfg = DotConfig::parse(&cfg.path, &text, Format::DotConfig)
        .map_err(|e| SpecError::Unsupported(e.to_string()))?;
    kernel_x86_spec(&cfg, rustc)
}

/// The kernel's `scripts/generate_rust_target.rs` for x86 (6.12/7.3), byte for byte: four-space
/// "almost JSON", keys in push order, version-dependent keys from the detected rustc.
pub fn kernel_x86_spec(cfg: &DotConfig, rustc: &RustcInfo) -> Result<String, SpecError> {
    let has = |s: &str| cfg.has(s);
    let mut entries: Vec<(&str, String)> = vec![];
    let q = |s: &str| format!("\"{s}\"");
    let x86_64 = if has("X86_64") {
        true
    } else if has("X86_32") {
        if !has("UML") {
            return Err(SpecError::Unsupported(
                "32-bit x86 only works under UML\n  fix: configure ARCH=um (CONFIG_UML) for 32-bit x86, or build for x86_64".into(),
            ));
        }
        false
    } else {
        return Err(SpecError::Unsupported(
            "only x86 uses a generated target spec in this kernel; other architectures use a built-in rustc target\n  fix: pass a configuration with CONFIG_X86_64 or CONFIG_X86_32, or use --target-style json".into(),
        ));
    };
    entries.push(("arch", q(if x86_64 { "x86_64" } else { "x86" })));
    if rustc.at_least(1, 98, 0) {
        entries.push(("rustc-abi", q("softfloat")));
    } else if rustc.at_least(1, 86, 0) {
        entries.push(("rustc-abi", q("x86-softfloat")));
    }
    let mut features = String::from("-mmx,+soft-float");
    if x86_64 {
        entries.push((
            "data-layout",
            q("e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"),
        ));
        if has("MITIGATION_RETPOLINE") {
            features +=
                ",+retpoline-external-thunk,+retpoline-indirect-branches,+retpoline-indirect-calls";
        }
        if has("MITIGATION_SLS") {
            features += ",+harden-sls-ijmp,+harden-sls-ret";
        }
        if has("X86_NATIVE_CPU") {
            features += ",-apxf";
        }
        entries.push(("features", q(&features)));
        entries.push(("llvm-target", q("x86_64-linux-gnu")));
        entries.push((
            "supported-sanitizers",
            "[\"kcfi\",\"kernel-address\"]".into(),
        ));
    } else {
        entries.push(("data-layout", q("e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128")));
        if has("MITIGATION_RETPOLINE") {
            features += ",+retpoline-external-thunk";
        }
        entries.push(("features", q(&features)));
        entries.push(("llvm-target", q("i386-unknown-linux-gnu")));
    }
    let width = if x86_64 { "64" } else { "32" };
    entries.push((
        "target-pointer-width",
        if rustc.at_least(1, 91, 0) {
            width.to_string()
        } else {
            q(width)
        },
    ));
    entries.push(("emit-debug-gdb-scripts", "false".into()));
    entries.push(("frame-pointer", q("may-omit")));
    entries.push(("stack-probes", "{\"kind\": \"none\"}".into()));
    if has("CPU_BIG_ENDIAN") {
        entries.push(("target-endian", q("big")));
    }
    let body: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("    \"{k}\": {v}"))
        .collect();
    Ok(format!("{{\n{}\n}}\n", body.join(",\n")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn cfg(text: &str) -> DotConfig {
        DotConfig::parse(Path::new("auto.conf"), text, Format::AutoConf).unwrap()
    }

    #[test]
    fn x86_spec_thresholds() {
        let c = cfg("CONFIG_X86_64=y\nCONFIG_MITIGATION_RETPOLINE=y\n");
        let at = |v: &str| kernel_x86_spec(&c, &RustcInfo::synthetic(v)).unwrap();
        assert!(!at("1.85.99").contains("rustc-abi"));
        assert!(at("1.86.0").contains("\"rustc-abi\": \"x86-softfloat\""));
        assert!(at("1.90.0").contains("\"target-pointer-width\": \"64\""));
        assert!(at("1.91.0").contains("\"target-pointer-width\": 64,"));
        assert!(at("1.98.0").contains("\"rustc-abi\": \"softfloat\""));
        assert_eq!(at("1.95.0").lines().count(), 12);
        let be = cfg("CONFIG_X86_64=y\nCONFIG_CPU_BIG_ENDIAN=y\n");
        let s = kernel_x86_spec(&be, &RustcInfo::synthetic("1.95.0")).unwrap();
        assert!(s.ends_with(
            "    \"stack-probes\": {\"kind\": \"none\"},\n    \"target-endian\": \"big\"\n}\n"
        ));
        assert!(
            kernel_x86_spec(&cfg("CONFIG_X86_32=y\n"), &RustcInfo::synthetic("1.95.0"))
                .unwrap_err()
                .to_string()
                .contains("UML")
        );
    }
}
