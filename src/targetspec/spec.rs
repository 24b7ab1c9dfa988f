//! Custom target specs in the seeds' design: one self-contained spec per architecture, built from
//! the base facts in `templates/targets/*.toml` plus what the kernel configuration decides
//! (retpoline, RISC-V march, ARM version, endianness), then lowered to the schema of the detected
//! rustc by [`super::schema`] and written byte-stably.

use serde_json::Value;

use super::schema::{self, Note, Spec};
use super::SpecError;
use crate::kconfig::DotConfig;
use crate::toolchain::RustcInfo;
use crate::tree::Arch;

/// One architecture's template file, parsed.
#[derive(Debug, Clone)]
pub struct Template {
    /// The built-in rustc target closest to the spec (for the `builtin` style).
    pub builtin: Option<String>,
    pub spec: Spec,
    /// Overrides for `CONFIG_CPU_BIG_ENDIAN` (absent: the arch has no big-endian target).
    pub big_endian: Option<Spec>,
}

const COMMON: &str = include_str!("../../templates/targets/common.toml");

/// The spec templates, by the name an arch description gives in `target.json_template`.
const TEMPLATES: &[(&str, &str)] = &[
    (
        "x86_64",
        include_str!("../../templates/targets/x86_64.toml"),
    ),
    ("x86", include_str!("../../templates/targets/x86.toml")),
    ("arm64", include_str!("../../templates/targets/arm64.toml")),
    ("arm", include_str!("../../templates/targets/arm.toml")),
    (
        "riscv64",
        include_str!("../../templates/targets/riscv64.toml"),
    ),
    (
        "riscv32",
        include_str!("../../templates/targets/riscv32.toml"),
    ),
    (
        "powerpc64le",
        include_str!("../../templates/targets/powerpc64le.toml"),
    ),
    (
        "loongarch64",
        include_str!("../../templates/targets/loongarch64.toml"),
    ),
];

fn template_text(arch: Arch) -> Result<&'static str, SpecError> {
    let name = arch.desc().target.json_template.as_deref();
    match name.and_then(|n| TEMPLATES.iter().find(|(t, _)| *t == n)) {
        Some((_, text)) => Ok(text),
        None => Err(SpecError::Unsupported(format!(
            "rkbuild has no custom target spec for {arch}: it only has a built-in rustc target\n  fix: use --target-style builtin"
        ))),
    }
}

fn table(v: Option<&toml::Value>) -> Spec {
    match v.and_then(|v| v.as_table()) {
        Some(t) => t
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    serde_json::to_value(v).expect("TOML maps to JSON"),
                )
            })
            .collect(),
        None => Spec::new(),
    }
}

/// The template for `arch` (common keys merged in). The templates are compiled in, so a broken
/// one is a bug caught by the unit tests, not a user error.
pub fn template(arch: Arch) -> Result<Template, SpecError> {
    let parse = |s: &str| s.parse::<toml::Table>().expect("templates/targets parse");
    let common = parse(COMMON);
    let own = parse(template_text(arch)?);
    let mut spec = table(common.get("spec"));
    spec.extend(table(own.get("spec")));
    Ok(Template {
        builtin: own
            .get("builtin")
            .and_then(|b| b.as_str())
            .map(String::from),
        spec,
        big_endian: own.get("big-endian").map(|b| table(Some(b))),
    })
}

/// The RISC-V `-march` the seeds chose their spec by: `rv64ima`, FPU letters (`fd`) stripped as
/// `$(subst fd,,$(riscv-march-y))` does, `c` iff `CONFIG_RISCV_ISA_C`.
pub fn riscv_march(arch: Arch, cfg: &DotConfig) -> String {
    let bits = if arch.is_64bit() { 64 } else { 32 };
    let mut m = format!("rv{bits}ima");
    if cfg.enabled("RISCV_ISA_C") {
        m.push('c');
    }
    m
}

/// Whether the configuration builds ARMv7 code (else ARMv6, the seeds' baseline).
pub fn arm_v7(cfg: &DotConfig) -> bool {
    cfg.enabled("CPU_32v7") && !cfg.enabled("CPU_32v6") && !cfg.enabled("CPU_32v6K")
}

fn s(v: &str) -> Value {
    Value::String(v.to_string())
}

/// The spec for `arch` and `cfg` in the newest schema (before lowering for a rustc).
pub fn base_spec(arch: Arch, cfg: &DotConfig) -> Result<Spec, SpecError> {
    let t = template(arch)?;
    let mut spec = t.spec;
    let feature = |spec: &mut Spec, f: &str| {
        let old = spec.get("features").and_then(Value::as_str).unwrap_or("");
        let new = if old.is_empty() {
            f.to_string()
        } else {
            format!("{old},{f}")
        };
        spec.insert("features".into(), s(&new));
    };
    match arch {
        Arch::X86_64 => {
            // The kernel's generate_rust_target.rs rules (what Clang derives from
            // -mretpoline-external-thunk, -mharden-sls=all, and -march=native's APX).
            if cfg.has("MITIGATION_RETPOLINE") {
                feature(
                    &mut spec,
                    "+retpoline-external-thunk,+retpoline-indirect-branches,+retpoline-indirect-calls",
                );
            }
            if cfg.has("MITIGATION_SLS") {
                feature(&mut spec, "+harden-sls-ijmp,+harden-sls-ret");
            }
            if cfg.has("X86_NATIVE_CPU") {
                feature(&mut spec, "-apxf");
            }
        }
        Arch::X86 => {
            if !cfg.has("UML") && cfg.has("X86_32") {
                return Err(SpecError::Unsupported(
                    "32-bit x86 only works under UML (CONFIG_UML)\n  fix: configure ARCH=um with CONFIG_X86_32, or build for x86_64".into(),
                ));
            }
            if cfg.has("MITIGATION_RETPOLINE") {
                feature(&mut spec, "+retpoline-external-thunk");
            }
        }
        Arch::Arm if arm_v7(cfg) => {
            spec.insert("llvm-target".into(), s("armv7-unknown-linux-gnueabi"));
            spec.insert("features".into(), s("+v7,+thumb2,+soft-float,-neon"));
        }
        Arch::Riscv64 | Arch::Riscv32 if cfg.enabled("RISCV_ISA_C") => feature(&mut spec, "+c"),
        _ => {}
    }
    if cfg.has("CPU_BIG_ENDIAN") {
        let Some(be) = t.big_endian else {
            return Err(SpecError::Unsupported(format!(
                "{arch} has no big-endian rustc target, but the configuration sets CONFIG_CPU_BIG_ENDIAN\n  fix: configure a little-endian kernel (CONFIG_CPU_LITTLE_ENDIAN=y)"
            )));
        };
        spec.extend(be);
        spec.insert("target-endian".into(), s("big"));
    }
    Ok(spec)
}

/// The custom spec text the detected rustc accepts, and the notes saying how the schema was
/// chosen.
pub fn custom_spec(
    arch: Arch,
    cfg: &DotConfig,
    rustc: &RustcInfo,
) -> Result<(String, Vec<Note>), SpecError> {
    let base = base_spec(arch, cfg)?;
    let (spec, notes) = schema::lower(base, rustc)?;
    Ok((render(&spec), notes))
}

/// Writes a spec byte-stably: keys sorted, two-space indent, `\n` at the end (the seeds' layout).
/// rustc identifies a custom target by a hash of these bytes, so nothing here may vary.
pub fn render(spec: &Spec) -> String {
    let sorted: std::collections::BTreeMap<&String, &Value> = spec.iter().collect();
    let mut text = serde_json::to_string_pretty(&sorted).expect("JSON values serialize");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kconfig::Format;
    use std::path::Path;

    fn cfg(text: &str) -> DotConfig {
        DotConfig::parse(Path::new(".config"), text, Format::DotConfig).unwrap()
    }

    #[test]
    fn every_template_parses_and_has_the_required_keys() {
        for arch in [
            Arch::X86_64,
            Arch::X86,
            Arch::Arm64,
            Arch::Arm,
            Arch::Riscv64,
            Arch::Riscv32,
            Arch::Powerpc64,
            Arch::Loongarch64,
        ] {
            let t = template(arch).unwrap();
            for k in ["arch", "llvm-target", "data-layout", "target-pointer-width"] {
                assert!(t.spec.contains_key(k), "{arch}: {k}");
            }
            let width = t.spec["target-pointer-width"].as_u64().unwrap();
            assert_eq!(width == 64, arch.is_64bit(), "{arch}");
        }
        assert!(template(Arch::S390).is_err());
    }

    #[test]
    fn config_decides_march_arm_version_and_endianness() {
        let rv = base_spec(Arch::Riscv64, &cfg("CONFIG_RISCV_ISA_C=y\nCONFIG_FPU=y\n")).unwrap();
        assert_eq!(rv["features"], "+m,+a,+c");
        let rv = base_spec(Arch::Riscv64, &cfg("CONFIG_FPU=y\n")).unwrap();
        assert_eq!(rv["features"], "+m,+a");
        assert_eq!(
            riscv_march(Arch::Riscv32, &cfg("CONFIG_RISCV_ISA_C=y\n")),
            "rv32imac"
        );
        let v7 = base_spec(Arch::Arm, &cfg("CONFIG_CPU_32v7=y\n")).unwrap();
        assert_eq!(v7["llvm-target"], "armv7-unknown-linux-gnueabi");
        let v6 = base_spec(Arch::Arm, &cfg("CONFIG_CPU_32v6K=y\n")).unwrap();
        assert!(v6["features"].as_str().unwrap().contains("+v6"));
        let be = base_spec(Arch::Arm64, &cfg("CONFIG_CPU_BIG_ENDIAN=y\n")).unwrap();
        assert_eq!(be["target-endian"], "big");
        assert!(be["data-layout"].as_str().unwrap().starts_with('E'));
        let e = base_spec(Arch::Riscv64, &cfg("CONFIG_CPU_BIG_ENDIAN=y\n")).unwrap_err();
        assert!(e.to_string().contains("no big-endian"), "{e}");
        let x = base_spec(
            Arch::X86_64,
            &cfg("CONFIG_MITIGATION_RETPOLINE=y\nCONFIG_MITIGATION_SLS=y\n"),
        )
        .unwrap();
        assert!(x["features"]
            .as_str()
            .unwrap()
            .ends_with("+retpoline-indirect-calls,+harden-sls-ijmp,+harden-sls-ret"));
    }

    #[test]
    fn render_is_sorted_and_stable() {
        let mut a = Spec::new();
        a.insert("b".into(), Value::from(1));
        a.insert("a".into(), s("x"));
        let mut b = Spec::new();
        b.insert("a".into(), s("x"));
        b.insert("b".into(), Value::from(1));
        assert_eq!(render(&a), render(&b));
        assert_eq!(render(&a), "{\n  \"a\": \"x\",\n  \"b\": 1\n}\n");
    }
}
