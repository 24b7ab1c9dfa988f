//! Stage 3b: the target — which `--target` rustc gets for an architecture, the `-C`/`-Z`
//! flags that go with it, and, where a custom spec is needed, the spec file itself.
//!
//! Today's kernel keeps the custom spec minimal (only x86 needs one) and says everything else
//! with built-in targets and flags, because the spec format is unstable; this module follows
//! the tree's vintage. The spec text for x86 is the kernel generator's, byte for byte: rustc
//! identifies a custom target by a hash of the file, so the same inputs must give the same bytes.

pub mod check;
pub mod schema;
pub mod spec;

use crate::kconfig::DotConfig;
use crate::mapping::{Ctx, Flag, ObjKind};
use crate::toolchain::RustcInfo;
use crate::tree::{Arch, Vintage};

pub use schema::Note;

/// How the target is given to rustc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TargetStyle {
    /// A custom spec for every architecture (the 2021 seeds' design).
    Json,
    /// A built-in rustc target plus `-C`/`-Z` flags, as today's upstream does (x86 in 6.12/7.3
    /// keeps the kernel's generated spec, as upstream does).
    Builtin,
}

impl TargetStyle {
    /// The vintage's own choice.
    pub fn default_for(vintage: Vintage) -> TargetStyle {
        if vintage.uses_json_targets() {
            TargetStyle::Json
        } else {
            TargetStyle::Builtin
        }
    }

    pub fn parse(s: &str) -> Result<TargetStyle, SpecError> {
        match s {
            "json" => Ok(TargetStyle::Json),
            "builtin" => Ok(TargetStyle::Builtin),
            _ => Err(SpecError::Unsupported(format!(
                "unknown target style `{s}`\n  fix: use --target-style json or --target-style builtin"
            ))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TargetStyle::Json => "json",
            TargetStyle::Builtin => "builtin",
        }
    }
}

/// The target for one configuration and rustc: the spec file's text (if any) and the flags.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Target {
    pub style: TargetStyle,
    /// The custom spec, byte for byte as it must be written.
    pub spec: Option<String>,
    /// `--target=…` first, then the flags that go with it (for a spec: `-Zunstable-options`
    /// where the rustc needs it).
    pub flags: Vec<Flag>,
    /// How the version-dependent keys were chosen.
    pub notes: Vec<Note>,
}

/// Chooses and renders the target. `spec_file` is how rustc is told the spec's path.
pub fn target_for(
    vintage: Vintage,
    arch: Arch,
    cfg: &DotConfig,
    rustc: &RustcInfo,
    style: TargetStyle,
    spec_file: &str,
) -> Result<Target, SpecError> {
    let x86 = matches!(arch, Arch::X86_64 | Arch::X86);
    let with_spec = |text: String, notes: Vec<Note>| {
        let mut flags = vec![Flag::new(
            format!("--target={spec_file}"),
            format!("{} target spec", style.name()),
        )];
        if schema::needs_unstable_options(rustc) {
            flags.push(Flag::new(
                "-Zunstable-options",
                "custom targets are unstable from rustc 1.95",
            ));
        }
        Target {
            style,
            spec: Some(text),
            flags,
            notes,
        }
    };
    if x86 && !vintage.uses_json_targets() {
        // Upstream's own spec in either style: fidelity to the kernel's bytes.
        schema::check_known(rustc)?;
        let text = if cfg.has("X86_64") || cfg.has("X86_32") {
            kernel_x86_spec(cfg, rustc)?
        } else {
            // No x86 configuration (`--arch` alone): the symbols the generator dispatches on.
            let extra = match arch {
                Arch::X86_64 => "CONFIG_X86_64=y\n",
                _ => "CONFIG_X86_32=y\nCONFIG_UML=y\n",
            };
            let text = format!("{}{extra}", cfg.to_dotconfig());
            let cfg = DotConfig::parse(&cfg.path, &text, crate::kconfig::Format::DotConfig)
                .map_err(|e| SpecError::Unsupported(e.to_string()))?;
            kernel_x86_spec(&cfg, rustc)?
        };
        return Ok(with_spec(
            text,
            vec![Note {
                key: "*".into(),
                action: "the kernel's scripts/generate_rust_target.rs output".into(),
                why: "x86 uses a generated spec upstream; same bytes as the kernel".into(),
            }],
        ));
    }
    match style {
        TargetStyle::Json => {
            let (text, notes) = spec::custom_spec(arch, cfg, rustc)?;
            Ok(with_spec(text, notes))
        }
        TargetStyle::Builtin => Ok(Target {
            style,
            spec: None,
            flags: builtin_flags(arch, cfg, rustc)?,
            notes: vec![],
        }),
    }
}

/// The built-in target and flags for an arch (today's upstream choices, §2 of the reference).
pub fn builtin_flags(
    arch: Arch,
    cfg: &DotConfig,
    rustc: &RustcInfo,
) -> Result<Vec<Flag>, SpecError> {
    fn f(a: impl Into<String>, w: &str) -> Flag {
        Flag::new(a, w)
    }
    let mut out = vec![];
    if cfg.has("CPU_BIG_ENDIAN") {
        return Err(SpecError::Unsupported(format!(
            "no built-in rustc target for big-endian {arch} that every supported rustc has\n  fix: use --target-style json"
        )));
    }
    match arch {
        Arch::X86_64 => {
            out.push(f(
                "--target=x86_64-unknown-none",
                "soft-float, code-model=kernel, no red zone built in",
            ));
            if cfg.has("MITIGATION_RETPOLINE") {
                // rust#135927 (1.86) added the flag; since then the target features warn
                // (rust#116344), before it only the target features work.
                if rustc.at_least(1, 86, 0) {
                    out.push(f(
                        "-Zretpoline-external-thunk",
                        "CONFIG_MITIGATION_RETPOLINE (rustc >= 1.86)",
                    ));
                } else {
                    out.push(f(
                        "-Ctarget-feature=+retpoline-external-thunk,+retpoline-indirect-branches,+retpoline-indirect-calls",
                        "CONFIG_MITIGATION_RETPOLINE (rustc < 1.86)",
                    ));
                }
            }
        }
        Arch::X86 => return Err(SpecError::Unsupported(
            "rustc has no built-in soft-float 32-bit x86 target\n  fix: use --target-style json"
                .into(),
        )),
        Arch::Arm64 => {
            if rustc.at_least(1, 85, 0) {
                out.push(f(
                    "--target=aarch64-unknown-none-softfloat",
                    "rustc >= 1.85",
                ));
            } else {
                out.push(f("--target=aarch64-unknown-none", "rustc < 1.85"));
                out.push(f(
                    "-Ctarget-feature=-neon",
                    "rustc < 1.85: no soft-float target",
                ));
            }
        }
        Arch::Arm => out.push(f("--target=arm-unknown-linux-gnueabi", "arch/arm/Makefile")),
        Arch::Riscv64 | Arch::Riscv32 => {
            let (bits, why) = if arch == Arch::Riscv64 {
                (64, "arch/riscv/Makefile: RV64I")
            } else {
                (32, "RV32I (rkbuild extension)")
            };
            out.push(f(format!("-Ctarget-cpu=generic-rv{bits}"), why));
            out.push(f(format!("--target=riscv{bits}imac-unknown-none-elf"), why));
            out.push(f("-Cno-redzone", why));
            if !cfg.enabled("RISCV_ISA_C") {
                out.push(f("-Ctarget-feature=-c", "CONFIG_RISCV_ISA_C is not set"));
            }
        }
        Arch::Powerpc64 => {
            out.push(f(
                "--target=powerpc64le-unknown-linux-gnu",
                "arch/powerpc/Makefile",
            ));
            out.push(f(
                "-Ctarget-feature=-mma,-vsx,-hard-float,-altivec",
                "no FP/vector in the kernel",
            ));
        }
        Arch::Powerpc => out.push(f(
            "--target=powerpc-unknown-linux-gnu",
            "arch/powerpc/Makefile",
        )),
        Arch::Loongarch64 => {
            out.push(f(
                "--target=loongarch64-unknown-none-softfloat",
                "arch/loongarch/Makefile",
            ));
            out.push(f("-Ccode-model=small", "arch/loongarch/Makefile"));
        }
        Arch::S390 => {
            out.push(f(
                "--target=s390x-unknown-none-softfloat",
                "arch/s390/Makefile",
            ));
            out.push(f("-Zpacked-stack", "arch/s390/Makefile"));
            out.push(f("-Ctarget-feature=+backchain", "arch/s390/Makefile"));
        }
    }
    Ok(out)
}

/// Where the vintage keeps the generated spec, relative to the object tree.
pub fn spec_path(vintage: Vintage) -> &'static str {
    &vintage.target.spec
}

/// Whether this arch uses a custom spec file in the vintage (else a built-in target).
pub fn uses_spec(vintage: Vintage, arch: Arch) -> bool {
    vintage.uses_json_targets() || matches!(arch, Arch::X86_64 | Arch::X86)
}

/// The arch flags added to KBUILD_RUSTFLAGS by `arch/$(SRCARCH)/Makefile` (6.12 and 7.3). The
/// 2021 vintage passes its target per rule and has no arch flags.
pub fn arch_flags(ctx: &Ctx) -> Vec<Flag> {
    let mut out = vec![];
    let mk = |s: &str| format!("arch/{}/Makefile{s}", ctx.arch.srcarch());
    if ctx.vintage.target.per_rule {
        // The target comes per rule, and the arch Makefiles add no Rust flags.
        return out;
    }
    match ctx.arch {
        Arch::X86_64 | Arch::X86 => {
            out.push(Flag::new(
                format!("--target={}/{}", ctx.objtree, spec_path(ctx.vintage)),
                format!("{}: x86 uses the generated target spec", mk("")),
            ));
            out.push(Flag::new(
                "-Ctarget-feature=-sse,-sse2,-sse3,-ssse3,-sse4.1,-sse4.2,-avx,-avx2",
                format!("{}: no FP/SIMD in the kernel", mk("")),
            ));
            if ctx.on("X86_KERNEL_IBT") {
                out.push(Flag::new(
                    "-Zcf-protection=branch",
                    ctx.sym("X86_KERNEL_IBT"),
                ));
                let (ok, why) = ctx.rustc_at_least(1, 93, 0);
                let jt = if ok {
                    "-Cjump-tables=n"
                } else {
                    "-Zno-jump-tables"
                };
                out.push(Flag::new(
                    jt,
                    format!("{} and {why}", ctx.sym("X86_KERNEL_IBT")),
                ));
            }
            if ctx.arch == Arch::X86_64 {
                if ctx.vintage.flags.x86_cpu == "per-cpu-symbol" {
                    for (s, f) in [
                        ("MK8", "-Ctarget-cpu=k8"),
                        ("MPSC", "-Ctarget-cpu=nocona"),
                        ("MCORE2", "-Ctarget-cpu=core2"),
                        ("MATOM", "-Ctarget-cpu=atom"),
                        ("GENERIC_CPU", "-Ztune-cpu=generic"),
                    ] {
                        if ctx.on(s) {
                            out.push(Flag::new(f, ctx.sym(s)));
                        }
                    }
                } else if ctx.on("X86_NATIVE_CPU") {
                    out.push(Flag::new("-Ctarget-cpu=native", ctx.sym("X86_NATIVE_CPU")));
                } else {
                    let why = format!("{}, so a generic x86-64", ctx.sym("X86_NATIVE_CPU"));
                    out.push(Flag::new("-Ctarget-cpu=x86-64", why.clone()));
                    out.push(Flag::new("-Ztune-cpu=generic", why));
                }
                out.push(Flag::new("-Cno-redzone=y", "x86_64 kernel: no red zone"));
                out.push(Flag::new("-Ccode-model=kernel", "x86_64 kernel code model"));
            }
            if ctx.on("MITIGATION_RETPOLINE") && ctx.on("MITIGATION_RETHUNK") {
                out.push(Flag::new(
                    "-Zfunction-return=thunk-extern",
                    format!(
                        "{} and {} (RETPOLINE_RUSTFLAGS)",
                        ctx.sym("MITIGATION_RETPOLINE"),
                        ctx.sym("MITIGATION_RETHUNK")
                    ),
                ));
            }
            if ctx.on("CALL_PADDING") {
                let n = ctx.cfg.text("FUNCTION_PADDING_BYTES").unwrap_or_default();
                out.push(Flag::new(
                    format!("-Zpatchable-function-entry={n},{n}"),
                    format!(
                        "{} with {}",
                        ctx.sym("CALL_PADDING"),
                        ctx.sym("FUNCTION_PADDING_BYTES")
                    ),
                ));
            }
        }
        Arch::Arm64 => {
            let (ok, why) = ctx.rustc_at_least(1, 85, 0);
            if ok {
                out.push(Flag::new("--target=aarch64-unknown-none-softfloat", why));
            } else {
                out.push(Flag::new("--target=aarch64-unknown-none", why.clone()));
                out.push(Flag::new("-Ctarget-feature=-neon", why));
            }
            if !ctx.on("UNWIND_TABLES") {
                out.push(Flag::new(
                    "-Cforce-unwind-tables=n",
                    ctx.sym("UNWIND_TABLES"),
                ));
            } else {
                out.push(Flag::new(
                    "-Cforce-unwind-tables=y",
                    ctx.sym("UNWIND_TABLES"),
                ));
                out.push(Flag::new("-Zuse-sync-unwind=n", ctx.sym("UNWIND_TABLES")));
                let (ok, why) = ctx.rustc_at_least(1, 98, 0);
                if !ok {
                    out.push(Flag::new("-Zllvm_module_flag=uwtable:u32:2:max", why));
                }
            }
            if ctx.on("ARM64_BTI_KERNEL") {
                out.push(Flag::new(
                    "-Zbranch-protection=bti,pac-ret",
                    ctx.sym("ARM64_BTI_KERNEL"),
                ));
            } else if ctx.on("ARM64_PTR_AUTH_KERNEL") {
                out.push(Flag::new(
                    "-Zbranch-protection=pac-ret",
                    ctx.sym("ARM64_PTR_AUTH_KERNEL"),
                ));
            }
            if ctx.on("SHADOW_CALL_STACK") {
                out.push(Flag::new("-Zfixed-x18", ctx.sym("SHADOW_CALL_STACK")));
            }
        }
        Arch::Riscv64 => {
            let why = "arch/riscv/Makefile: RV64I";
            out.push(Flag::new("-Ctarget-cpu=generic-rv64", why));
            out.push(Flag::new("--target=riscv64imac-unknown-none-elf", why));
            out.push(Flag::new("-Cno-redzone", why));
            if !ctx.on("RISCV_ISA_C") {
                out.push(Flag::new("-Ctarget-feature=-c", ctx.sym("RISCV_ISA_C")));
            }
        }
        Arch::Riscv32 => {
            let why = "arch/riscv/Makefile: RV32I (not supported upstream; rkbuild extension)";
            out.push(Flag::new("-Ctarget-cpu=generic-rv32", why));
            out.push(Flag::new("--target=riscv32imac-unknown-none-elf", why));
            if !ctx.on("RISCV_ISA_C") {
                out.push(Flag::new("-Ctarget-feature=-c", ctx.sym("RISCV_ISA_C")));
            }
        }
        Arch::Loongarch64 => {
            out.push(Flag::new(
                "--target=loongarch64-unknown-none-softfloat",
                mk(""),
            ));
            out.push(Flag::new("-Ccode-model=small", mk("")));
        }
        Arch::Arm => {
            out.push(Flag::new("--target=arm-unknown-linux-gnueabi", mk("")));
        }
        Arch::Powerpc64 => {
            out.push(Flag::new("--target=powerpc64le-unknown-linux-gnu", mk("")));
            out.push(Flag::new(
                "-Ctarget-feature=-mma,-vsx,-hard-float,-altivec",
                mk(": no FP/vector in the kernel"),
            ));
        }
        Arch::Powerpc => {
            out.push(Flag::new("--target=powerpc-unknown-linux-gnu", mk("")));
        }
        Arch::S390 => {
            out.push(Flag::new("--target=s390x-unknown-none-softfloat", mk("")));
            out.push(Flag::new("-Zpacked-stack", mk("")));
            out.push(Flag::new("-Ctarget-feature=+backchain", mk("")));
        }
    }
    out
}

/// Arch flags that differ between kernel and module objects.
pub fn modkern_arch_flags(ctx: &Ctx, kind: ObjKind) -> Vec<Flag> {
    let mut out = vec![];
    if !ctx.vintage.target.per_rule && ctx.arch == Arch::Loongarch64 {
        match kind {
            ObjKind::Kernel => {
                out.push(Flag::new(
                    "-Zdirect-access-external-data=yes",
                    "arch/loongarch/Makefile (KBUILD_RUSTFLAGS_KERNEL)",
                ));
                if ctx.on("RELOCATABLE") {
                    out.push(Flag::new("-Crelocation-model=pie", ctx.sym("RELOCATABLE")));
                }
            }
            ObjKind::Module => out.push(Flag::new(
                "-Zdirect-access-external-data=no",
                "arch/loongarch/Makefile (KBUILD_RUSTFLAGS_MODULE)",
            )),
        }
    }
    out
}

/// The 2021 vintage's per-rule `--target=` (`rust_cross_flags`): the spec written by rkbuild.
pub fn cross_flags(ctx: &Ctx) -> Vec<Flag> {
    if !ctx.vintage.target.per_rule {
        return vec![];
    }
    let mut out = vec![Flag::new(
        format!("--target={}/{}", ctx.objtree, spec_path(ctx.vintage)),
        "2021 rust_cross_flags: the generated target spec",
    )];
    if schema::needs_unstable_options(ctx.rustc) {
        out.push(Flag::new(
            "-Zunstable-options",
            "custom targets are unstable from rustc 1.95 (rust#151534)",
        ));
    }
    out
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SpecError {
    #[error("{0}")]
    Unsupported(String),
    #[error("CONFIG_RUSTC_VERSION is missing or not a number; the target spec depends on it")]
    NoRustcVersion,
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
    use crate::kconfig::Format;
    use crate::layout::Layout;
    use std::path::Path;

    fn cfg(text: &str) -> DotConfig {
        DotConfig::parse(Path::new("auto.conf"), text, Format::AutoConf).unwrap()
    }

    #[test]
    fn cross_flags_of_the_2021_vintage_follow_rustc() {
        let c = cfg("CONFIG_ARM64=y\n");
        let flags = |v: &str| {
            let r = RustcInfo::synthetic(v);
            let ctx = Ctx {
                cfg: &c,
                rustc: &r,
                vintage: Layout::builtin("2021"),
                arch: Arch::Arm64,
                krustflags: vec![],
                objtree: ".".into(),
                srctree: ".".into(),
                out_of_srctree: false,
                has_remap_path_scope: false,
            };
            cross_flags(&ctx)
                .into_iter()
                .map(|f| f.arg)
                .collect::<Vec<_>>()
        };
        assert_eq!(flags("1.85.0"), ["--target=./rust/target.json"]);
        assert_eq!(
            flags("1.95.0"),
            ["--target=./rust/target.json", "-Zunstable-options"]
        );
    }

    #[test]
    fn styles_choose_spec_or_builtin() {
        let r = RustcInfo::synthetic("1.95.0");
        let c = cfg("CONFIG_RISCV=y\nCONFIG_64BIT=y\n");
        let b = target_for(
            Layout::builtin("7.3"),
            Arch::Riscv64,
            &c,
            &r,
            TargetStyle::Builtin,
            "t.json",
        )
        .unwrap();
        assert!(b.spec.is_none());
        assert!(b.flags.iter().any(|f| f.arg == "-Ctarget-feature=-c"));
        let j = target_for(
            Layout::builtin("7.3"),
            Arch::Riscv64,
            &c,
            &r,
            TargetStyle::Json,
            "t.json",
        )
        .unwrap();
        assert!(j.spec.unwrap().contains("\"features\": \"+m,+a\""));
        assert_eq!(j.flags[0].arg, "--target=t.json");
        assert_eq!(
            TargetStyle::default_for(Layout::builtin("2021")),
            TargetStyle::Json
        );
        assert!(TargetStyle::parse("yaml").is_err());
        let x = cfg("CONFIG_X86_32=y\nCONFIG_UML=y\n");
        assert!(target_for(
            Layout::builtin("2021"),
            Arch::X86,
            &x,
            &r,
            TargetStyle::Builtin,
            "t"
        )
        .unwrap_err()
        .to_string()
        .contains("fix: use --target-style json"));
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
