//! Stage 3b: the target — which `--target` rustc gets for an architecture, the `-C`/`-Z`
//! flags that go with it, and, where a custom spec is needed, the spec file itself.
//!
//! Today's kernel keeps the custom spec minimal (only x86 needs one) and says everything else
//! with built-in targets and flags, because the spec format is unstable; this module follows
//! the tree's vintage. The spec text for x86 is the kernel generator's, byte for byte: rustc
//! identifies a custom target by a hash of the file, so the same inputs must give the same bytes.
//! The arch flags are read from the architecture's description (`templates/arch/`, `crate::arch`).

pub mod check;
pub mod schema;
pub mod spec;

use crate::arch::{fill, placeholders, ArchFlag};
use crate::kconfig::DotConfig;
use crate::layout::{Facts, When};
use crate::mapping::{gate_why, sym, Ctx, Flag, ObjKind};
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
    let generated = arch.desc().target.generated_spec;
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
    if generated && !vintage.uses_json_targets() {
        // Upstream's own spec in either style: fidelity to the kernel's bytes.
        schema::check_known(rustc)?;
        let text = if cfg.has("X86_64") || cfg.has("X86_32") {
            kernel_x86_spec(cfg, rustc)?
        } else {
            // No x86 configuration (`--arch` alone): the symbols the generator dispatches on.
            let extra = if arch.is_64bit() {
                "CONFIG_X86_64=y\n"
            } else {
                "CONFIG_X86_32=y\nCONFIG_UML=y\n"
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

/// Where the vintage keeps the generated spec, relative to the object tree.
pub fn spec_path(vintage: Vintage) -> &'static str {
    &vintage.target.spec
}

/// Whether this arch uses a custom spec file in the vintage (else a built-in target).
pub fn uses_spec(vintage: Vintage, arch: Arch) -> bool {
    vintage.uses_json_targets() || arch.desc().target.generated_spec
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

/// What a description's entries are read against.
struct Reader<'a> {
    cfg: &'a DotConfig,
    rustc: &'a RustcInfo,
    /// The layout's `flags.x86_cpu`; none for the built-in style, which has no layout.
    x86_cpu: Option<&'a str>,
    objtree: &'a str,
    spec: &'a str,
}

impl Facts for Reader<'_> {
    fn rustc(&self) -> (u64, u64, u64) {
        let v = &self.rustc.version;
        (v.major, v.minor, v.patch)
    }

    fn on(&self, name: &str) -> bool {
        self.cfg.enabled(name)
    }

    /// Arch flags never ask the tree (a description has no `exists` gate).
    fn exists(&self, _: &str) -> bool {
        false
    }
}

impl<'a> Reader<'a> {
    fn of(ctx: &'a Ctx) -> Reader<'a> {
        Reader {
            cfg: ctx.cfg,
            rustc: ctx.rustc,
            x86_cpu: Some(&ctx.vintage.flags.x86_cpu),
            objtree: &ctx.objtree,
            spec: spec_path(ctx.vintage),
        }
    }

    fn holds(&self, e: &ArchFlag) -> bool {
        let layout = match self.x86_cpu {
            Some(v) => e.layout_allows(v),
            None => e.layout_x86_cpu.is_none(),
        };
        layout && e.when().holds(self)
    }

    fn value(&self, name: &str) -> String {
        match name {
            "objtree" => self.objtree.to_string(),
            "spec" => self.spec.to_string(),
            _ => {
                let sym = name.strip_prefix("CONFIG_").unwrap_or(name);
                self.cfg.text(sym).unwrap_or_default()
            }
        }
    }

    /// The gate's reason, the symbols filled in, then the entry's own words.
    fn why(&self, e: &ArchFlag) -> String {
        let when = e.when();
        let mut parts = vec![];
        if when != When::default() {
            parts.push(gate_why(self.cfg, self.rustc, &when));
        }
        let mut filled: Vec<&str> = vec![];
        for p in e.args.iter().flat_map(|a| placeholders(a)) {
            if let Some(s) = p.strip_prefix("CONFIG_") {
                if !filled.contains(&s) {
                    filled.push(s);
                    parts.push(sym(self.cfg, s));
                }
            }
        }
        parts.extend(e.why.clone());
        parts.join(", ")
    }

    fn read(&self, entries: &[ArchFlag]) -> Vec<Flag> {
        let mut out = vec![];
        for e in entries.iter().filter(|e| self.holds(e)) {
            let why = self.why(e);
            for a in &e.args {
                out.push(Flag::new(fill(a, |n| self.value(n)), why.clone()));
            }
        }
        out
    }
}

/// The arch flags added to KBUILD_RUSTFLAGS by `arch/$(SRCARCH)/Makefile` (6.12 and 7.3). The
/// 2021 vintage passes its target per rule and has no arch flags.
pub fn arch_flags(ctx: &Ctx) -> Vec<Flag> {
    if ctx.vintage.target.per_rule {
        // The target comes per rule, and the arch Makefiles add no Rust flags.
        return vec![];
    }
    Reader::of(ctx).read(&ctx.arch.desc().flags)
}

/// Arch flags that differ between kernel and module objects (KBUILD_RUSTFLAGS_KERNEL,
/// KBUILD_RUSTFLAGS_MODULE).
pub fn modkern_arch_flags(ctx: &Ctx, kind: ObjKind) -> Vec<Flag> {
    if ctx.vintage.target.per_rule {
        return vec![];
    }
    let d = ctx.arch.desc();
    let entries = match kind {
        ObjKind::Kernel => &d.kernel_flags,
        ObjKind::Module => &d.module_flags,
    };
    Reader::of(ctx).read(entries)
}

/// The built-in target and flags for an arch (`--target-style builtin`: rkbuild's choice of a
/// built-in rustc target, without the Makefile's context).
pub fn builtin_flags(
    arch: Arch,
    cfg: &DotConfig,
    rustc: &RustcInfo,
) -> Result<Vec<Flag>, SpecError> {
    if cfg.has("CPU_BIG_ENDIAN") {
        return Err(SpecError::Unsupported(format!(
            "no built-in rustc target for big-endian {arch} that every supported rustc has\n  fix: use --target-style json"
        )));
    }
    let b = &arch.desc().builtin_style;
    if let Some(why) = &b.unsupported {
        return Err(SpecError::Unsupported(why.clone()));
    }
    let r = Reader {
        cfg,
        rustc,
        x86_cpu: None,
        objtree: "",
        spec: "",
    };
    Ok(r.read(&b.flags))
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

    fn flags(arch: Arch, layout: &str, rustc: &str, config: &str) -> Vec<String> {
        let c = DotConfig::parse(Path::new(".config"), config, Format::DotConfig).unwrap();
        let r = RustcInfo::synthetic(rustc);
        let ctx = Ctx {
            cfg: &c,
            rustc: &r,
            vintage: Layout::builtin(layout),
            arch,
            krustflags: vec![],
            objtree: ".".into(),
            srctree: ".".into(),
            out_of_srctree: false,
            has_remap_path_scope: false,
        };
        let mut out: Vec<String> = arch_flags(&ctx).into_iter().map(|f| f.arg).collect();
        for (kind, tag) in [(ObjKind::Kernel, "kernel:"), (ObjKind::Module, "module:")] {
            out.extend(
                modkern_arch_flags(&ctx, kind)
                    .into_iter()
                    .map(|f| format!("{tag}{}", f.arg)),
            );
        }
        out
    }

    const SSE: &str = "-Ctarget-feature=-sse,-sse2,-sse3,-ssse3,-sse4.1,-sse4.2,-avx,-avx2";

    #[test]
    fn x86_64_per_layout() {
        let all = "CONFIG_X86_64=y\nCONFIG_X86_KERNEL_IBT=y\nCONFIG_MK8=y\nCONFIG_GENERIC_CPU=y\nCONFIG_MITIGATION_RETPOLINE=y\nCONFIG_MITIGATION_RETHUNK=y\nCONFIG_CALL_PADDING=y\nCONFIG_FUNCTION_PADDING_BYTES=16\n";
        let table: &[(&str, &str, &str, &[&str])] = &[
            (
                "6.12",
                "1.85.0",
                "CONFIG_X86_64=y\n",
                &[
                    "--target=./scripts/target.json",
                    SSE,
                    "-Cno-redzone=y",
                    "-Ccode-model=kernel",
                ],
            ),
            (
                "6.12",
                "1.85.0",
                all,
                &[
                    "--target=./scripts/target.json",
                    SSE,
                    "-Zcf-protection=branch",
                    "-Zno-jump-tables",
                    "-Ctarget-cpu=k8",
                    "-Ztune-cpu=generic",
                    "-Cno-redzone=y",
                    "-Ccode-model=kernel",
                    "-Zfunction-return=thunk-extern",
                    "-Zpatchable-function-entry=16,16",
                ],
            ),
            (
                "7.3",
                "1.95.0",
                all,
                &[
                    "--target=./scripts/target.json",
                    SSE,
                    "-Zcf-protection=branch",
                    "-Cjump-tables=n",
                    "-Ctarget-cpu=x86-64",
                    "-Ztune-cpu=generic",
                    "-Cno-redzone=y",
                    "-Ccode-model=kernel",
                    "-Zfunction-return=thunk-extern",
                    "-Zpatchable-function-entry=16,16",
                ],
            ),
            (
                "7.3",
                "1.93.0",
                "CONFIG_X86_64=y\nCONFIG_X86_NATIVE_CPU=y\n",
                &[
                    "--target=./scripts/target.json",
                    SSE,
                    "-Ctarget-cpu=native",
                    "-Cno-redzone=y",
                    "-Ccode-model=kernel",
                ],
            ),
            ("2021", "1.95.0", all, &[]),
        ];
        for (layout, rustc, config, want) in table {
            assert_eq!(
                flags(Arch::X86_64, layout, rustc, config),
                *want,
                "{layout} {rustc} {config:?}"
            );
        }
    }

    #[test]
    fn other_arches() {
        let table: &[(Arch, &str, &str, &[&str])] = &[
            (Arch::Arm64, "1.84.0", "", &[
                "--target=aarch64-unknown-none", "-Ctarget-feature=-neon", "-Cforce-unwind-tables=n",
            ]),
            (Arch::Arm64, "1.95.0", "CONFIG_UNWIND_TABLES=y\nCONFIG_ARM64_BTI_KERNEL=y\nCONFIG_ARM64_PTR_AUTH_KERNEL=y\nCONFIG_SHADOW_CALL_STACK=y\n", &[
                "--target=aarch64-unknown-none-softfloat", "-Cforce-unwind-tables=y",
                "-Zuse-sync-unwind=n", "-Zllvm_module_flag=uwtable:u32:2:max",
                "-Zbranch-protection=bti,pac-ret", "-Zfixed-x18",
            ]),
            (Arch::Arm64, "1.98.0", "CONFIG_UNWIND_TABLES=y\nCONFIG_ARM64_PTR_AUTH_KERNEL=y\n", &[
                "--target=aarch64-unknown-none-softfloat", "-Cforce-unwind-tables=y",
                "-Zuse-sync-unwind=n", "-Zbranch-protection=pac-ret",
            ]),
            (Arch::Riscv64, "1.85.0", "", &[
                "-Ctarget-cpu=generic-rv64", "--target=riscv64imac-unknown-none-elf", "-Cno-redzone",
                "-Ctarget-feature=-c",
            ]),
            (Arch::Riscv64, "1.85.0", "CONFIG_RISCV_ISA_C=y\n", &[
                "-Ctarget-cpu=generic-rv64", "--target=riscv64imac-unknown-none-elf", "-Cno-redzone",
            ]),
            (Arch::Loongarch64, "1.85.0", "", &[
                "--target=loongarch64-unknown-none-softfloat", "-Ccode-model=small",
                "kernel:-Zdirect-access-external-data=yes", "module:-Zdirect-access-external-data=no",
            ]),
            (Arch::Loongarch64, "1.85.0", "CONFIG_RELOCATABLE=y\n", &[
                "--target=loongarch64-unknown-none-softfloat", "-Ccode-model=small",
                "kernel:-Zdirect-access-external-data=yes", "kernel:-Crelocation-model=pie",
                "module:-Zdirect-access-external-data=no",
            ]),
            (Arch::Powerpc64, "1.95.0", "", &[
                "--target=powerpc64le-unknown-linux-gnu",
                "-Ctarget-feature=-mma,-vsx,-hard-float,-altivec",
            ]),
            (Arch::Powerpc, "1.95.0", "", &["--target=powerpc-unknown-linux-gnu"]),
            (Arch::Arm, "1.95.0", "", &["--target=arm-unknown-linux-gnueabi"]),
            (Arch::S390, "1.96.0", "", &[
                "--target=s390x-unknown-none-softfloat", "-Zpacked-stack", "-Ctarget-feature=+backchain",
            ]),
        ];
        for (arch, rustc, config, want) in table {
            assert_eq!(
                flags(*arch, "7.3", rustc, config),
                *want,
                "{arch} {rustc} {config:?}"
            );
        }
    }

    #[test]
    fn explain_says_the_gate_the_values_and_the_words() {
        let c = DotConfig::parse(
            Path::new(".config"),
            "CONFIG_X86_64=y\nCONFIG_CALL_PADDING=y\nCONFIG_FUNCTION_PADDING_BYTES=16\n",
            Format::DotConfig,
        )
        .unwrap();
        let r = RustcInfo::synthetic("1.95.0");
        let ctx = Ctx {
            cfg: &c,
            rustc: &r,
            vintage: Layout::builtin("7.3"),
            arch: Arch::X86_64,
            krustflags: vec![],
            objtree: ".".into(),
            srctree: ".".into(),
            out_of_srctree: false,
            has_remap_path_scope: false,
        };
        let f = arch_flags(&ctx);
        let why = |arg: &str| {
            f.iter()
                .find(|f| f.arg.starts_with(arg))
                .unwrap()
                .why
                .clone()
        };
        assert_eq!(
            why("-Zpatchable"),
            "CONFIG_CALL_PADDING=y (.config:2), CONFIG_FUNCTION_PADDING_BYTES=16 (.config:3), PADDING_RUSTFLAGS"
        );
        assert_eq!(
            why("-Ctarget-cpu"),
            "CONFIG_X86_NATIVE_CPU is not set, so a generic x86-64"
        );
        assert_eq!(
            why("--target"),
            "arch/x86/Makefile: x86 uses the generated target spec"
        );
    }

    #[test]
    fn builtin_style() {
        let c = |t: &str| DotConfig::parse(Path::new(".config"), t, Format::DotConfig).unwrap();
        let args = |arch, t: &str, v: &str| -> Result<Vec<String>, String> {
            builtin_flags(arch, &c(t), &RustcInfo::synthetic(v))
                .map(|f| f.into_iter().map(|f| f.arg).collect())
                .map_err(|e| e.to_string())
        };
        assert_eq!(
            args(Arch::X86_64, "CONFIG_MITIGATION_RETPOLINE=y\n", "1.86.0").unwrap(),
            ["--target=x86_64-unknown-none", "-Zretpoline-external-thunk"]
        );
        assert_eq!(
            args(Arch::Riscv32, "", "1.85.0").unwrap(),
            [
                "-Ctarget-cpu=generic-rv32",
                "--target=riscv32imac-unknown-none-elf",
                "-Cno-redzone",
                "-Ctarget-feature=-c"
            ]
        );
        assert!(args(Arch::X86, "", "1.95.0")
            .unwrap_err()
            .contains("fix: use --target-style json"));
        assert!(args(Arch::Arm64, "CONFIG_CPU_BIG_ENDIAN=y\n", "1.95.0")
            .unwrap_err()
            .contains("big-endian arm64"));
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
