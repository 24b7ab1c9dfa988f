//! The arch flags: what `arch/$(SRCARCH)/Makefile` adds to KBUILD_RUSTFLAGS (and to its
//! kernel and module variants), and rkbuild's own built-in style, read from the architecture's
//! description (`templates/arch/<name>.toml`) for one configuration, rustc and layout.
//!
//! Why here: a description lists every flag its Makefile may add with the gate beside it; this
//! file is the one reader of those lists — which entries hold (rustc version, config symbols,
//! the layout's answer), what the placeholders become, and what `--explain` says (the gate's
//! reason, the symbols whose values were filled in, then the entry's own `why`). It holds no
//! fact of any architecture.
//!
//! Out of scope: the order of KBUILD_RUSTFLAGS's sections (the layout's `flags.sequence`), the
//! 2021 per-rule target (`cross_flags`), and the generated spec itself (`kernel_x86`).

use super::{spec_path, SpecError};
use crate::arch::{fill, placeholders, ArchFlag};
use crate::kconfig::DotConfig;
use crate::layout::{Facts, When};
use crate::mapping::{gate_why, sym, Ctx, Flag, ObjKind};
use crate::toolchain::RustcInfo;
use crate::tree::Arch;

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

/// What the arch Makefile adds to the C flags of module objects (KBUILD_CFLAGS_MODULE), each
/// with whether it is a `cc-option` (kept only when the C compiler takes it).
pub fn module_c_flags(ctx: &Ctx) -> Vec<(String, bool)> {
    let r = Reader::of(ctx);
    let mut out = vec![];
    for e in ctx.arch.desc().module_c_flags.iter().filter(|e| r.holds(e)) {
        for a in &e.args {
            out.push((fill(a, |n| r.value(n)), e.cc_option));
        }
    }
    out
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

#[cfg(test)]
mod tests {
    //! Expected flags as tables: the same arguments, in the same order, as before the facts
    //! moved to data (and as the arch Makefiles of 6.12 and 7.3 add them).

    use super::*;
    use crate::kconfig::Format;
    use crate::layout::Layout;
    use std::path::Path;

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
}
