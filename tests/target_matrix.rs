//! The proof matrix: every architecture's generated target × every compiler here.
//!
//! For each (variant, compiler) cell: `rustc --print cfg --target SPEC` succeeds with an empty
//! stderr; with rustc 1.85 + its library source and rustc 1.95 + Debian's rust-src 1.95, real
//! `core` compiles for the spec (x86_64 also `alloc` with `--cfg no_global_oom_handling`, as the
//! 2021 vintage builds it), then a small probe crate against that core; with the nightly (no
//! matching library) a `#![no_core]` probe. The objects are inspected with the `object` crate.
//! The built-in style is checked with `--print cfg` for every arch and compiler.
//!
//! Cells run on a pool of RKBUILD_MATRIX_JOBS threads (default: the machine's parallelism); the
//! matrix size and wall time are printed (`cargo test --test target_matrix -- --nocapture`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Instant;

use object::{Object as _, ObjectSection as _, ObjectSymbol as _};
use rkbuild::flags::Ctx;
use rkbuild::kconfig::{DotConfig, Format};
use rkbuild::layout::Layout;
use rkbuild::targetspec::{self, TargetStyle};
use rkbuild::toolchain::{self, RustcInfo, ToolNames};
use rkbuild::tree::Arch;

struct Compiler {
    name: &'static str,
    path: PathBuf,
    info: RustcInfo,
    /// The matching library source (`None`: the nightly, which gets a `no_core` probe).
    lib: Option<PathBuf>,
}

#[derive(Clone, Copy)]
struct Variant {
    name: &'static str,
    arch: Arch,
    config: &'static str,
    /// The layout's name.
    vintage: &'static str,
}

const VARIANTS: &[Variant] = &[
    Variant {
        name: "x86_64",
        arch: Arch::X86_64,
        config: "CONFIG_X86_64=y\nCONFIG_MITIGATION_RETPOLINE=y\nCONFIG_MITIGATION_SLS=y\n",
        vintage: "2021",
    },
    Variant {
        name: "x86_64-kernel-7.3",
        arch: Arch::X86_64,
        config: "CONFIG_X86_64=y\nCONFIG_MITIGATION_RETPOLINE=y\nCONFIG_MITIGATION_RETHUNK=y\n",
        vintage: "7.3",
    },
    Variant {
        name: "x86-uml",
        arch: Arch::X86,
        config: "CONFIG_X86_32=y\nCONFIG_UML=y\n",
        vintage: "2021",
    },
    Variant {
        name: "arm64",
        arch: Arch::Arm64,
        config: "CONFIG_ARM64=y\n",
        vintage: "2021",
    },
    Variant {
        name: "arm64-be",
        arch: Arch::Arm64,
        config: "CONFIG_ARM64=y\nCONFIG_CPU_BIG_ENDIAN=y\n",
        vintage: "2021",
    },
    Variant {
        name: "armv6",
        arch: Arch::Arm,
        config: "CONFIG_ARM=y\nCONFIG_CPU_32v6=y\n",
        vintage: "2021",
    },
    Variant {
        name: "armv7",
        arch: Arch::Arm,
        config: "CONFIG_ARM=y\nCONFIG_CPU_32v7=y\n",
        vintage: "2021",
    },
    Variant {
        name: "riscv64-imac",
        arch: Arch::Riscv64,
        config: "CONFIG_RISCV=y\nCONFIG_64BIT=y\nCONFIG_RISCV_ISA_C=y\nCONFIG_FPU=y\n",
        vintage: "2021",
    },
    Variant {
        name: "riscv64-ima",
        arch: Arch::Riscv64,
        config: "CONFIG_RISCV=y\nCONFIG_64BIT=y\n",
        vintage: "2021",
    },
    Variant {
        name: "riscv32-imac",
        arch: Arch::Riscv32,
        config: "CONFIG_RISCV=y\nCONFIG_RISCV_ISA_C=y\n",
        vintage: "2021",
    },
    Variant {
        name: "powerpc64le",
        arch: Arch::Powerpc64,
        config: "CONFIG_PPC64=y\nCONFIG_CPU_LITTLE_ENDIAN=y\n",
        vintage: "2021",
    },
    Variant {
        name: "loongarch64",
        arch: Arch::Loongarch64,
        config: "CONFIG_LOONGARCH=y\n",
        vintage: "2021",
    },
];

fn compilers() -> Vec<Compiler> {
    let detect = |p: &str| {
        toolchain::detect_rustc(&ToolNames {
            rustc: Some(p.to_string()),
            ..ToolNames::default()
        })
        .unwrap_or_else(|e| panic!("cannot use rustc `{p}`: {e}"))
    };
    let rustup = |tc: &str| {
        let out = Command::new("rustup")
            .args(["which", "rustc", "--toolchain", tc])
            .output()
            .unwrap_or_else(|e| panic!("rustup is needed to find the {tc} rustc: {e}"));
        assert!(
            out.status.success(),
            "rustup has no {tc} toolchain: install it (`rustup toolchain install {tc}`)"
        );
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    let r185 = common::tool_env("RKBUILD_TEST_RUSTC_185");
    let lib185 = common::tool_env("RKBUILD_TEST_LIB_185");
    let lib195 = common::tool_env("RKBUILD_TEST_LIB_195");
    let c = vec![
        ("1.85", detect(&r185), Some(PathBuf::from(lib185))),
        (
            "1.95",
            detect(&rustup("stable")),
            Some(PathBuf::from(lib195)),
        ),
        ("nightly", detect(&rustup("nightly")), None),
    ];
    c.into_iter()
        .map(|(name, f, lib)| Compiler {
            name,
            path: f.path,
            info: f.info,
            lib,
        })
        .collect()
}

fn cfg(text: &str) -> DotConfig {
    DotConfig::parse(Path::new("matrix.config"), text, Format::DotConfig).unwrap()
}

/// Runs rustc; Err with the command and its output when it fails or prints anything on stderr.
fn rustc(c: &Compiler, dir: &Path, args: &[String]) -> Result<String, String> {
    let out = Command::new(&c.path)
        .current_dir(dir)
        .env("RUSTC_BOOTSTRAP", "1")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", c.path.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() || !stderr.trim().is_empty() {
        return Err(format!(
            "`{} {}` (exit {:?}) printed:\n{}",
            c.path.display(),
            args.join(" "),
            out.status.code(),
            stderr
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// The target arguments of a cell: `--target=target.json`, `-Zunstable-options` where needed,
/// and for the 7.3 x86 spec the kernel's own arch flags (arch/x86/Makefile), which carry the
/// SSE removal and code model that upstream keeps out of the spec.
fn target_args(v: &Variant, c: &Compiler, config: &DotConfig) -> Vec<String> {
    let t = targetspec::target_for(
        Layout::builtin(v.vintage),
        v.arch,
        config,
        &c.info,
        TargetStyle::Json,
        "target.json",
    )
    .unwrap();
    let mut args: Vec<String> = t.flags.iter().map(|f| f.arg.clone()).collect();
    if v.vintage != "2021" {
        let ctx = Ctx {
            cfg: config,
            rustc: &c.info,
            vintage: Layout::builtin(v.vintage),
            arch: v.arch,
            krustflags: vec![],
            objtree: ".".into(),
            srctree: ".".into(),
            out_of_srctree: false,
            has_remap_path_scope: false,
        };
        // From the kernel's base KBUILD_RUSTFLAGS (the 7.3 spec leaves it to the flags).
        args.push("-Crelocation-model=static".into());
        args.extend(
            targetspec::arch_flags(&ctx)
                .into_iter()
                .map(|f| f.arg)
                .filter(|a| !a.starts_with("--target=") && !a.starts_with("-Z")),
        );
    }
    args
}

const PROBE: &str = r#"#![no_std]
pub static mut GLOBAL: [u8; 16] = [0; 16];
#[no_mangle] #[inline(never)] pub fn rk_int_only(a: u64, b: u64) -> u64 { a.wrapping_mul(b) ^ (a >> 3) }
#[no_mangle] #[inline(never)] pub fn rk_fadd(a: f32, b: f32) -> f32 { a + b }
#[no_mangle] #[inline(never)] pub fn rk_addr() -> *const u8 { &raw const GLOBAL as *const u8 }
"#;

const COMPILER_BUILTINS: &str = "#![allow(internal_features)]\n#![feature(compiler_builtins)]\n#![compiler_builtins]\n#![no_builtins]\n#![no_std]\n";

fn no_core_probe(new_sized: bool) -> String {
    let sized = if new_sized {
        "#[lang = \"pointee_sized\"] pub trait PointeeSized {}\n#[lang = \"meta_sized\"] pub trait MetaSized: PointeeSized {}\n#[lang = \"sized\"] pub trait Sized: MetaSized {}\n"
    } else {
        "#[lang = \"sized\"] pub trait Sized {}\n"
    };
    format!(
        r#"#![feature(no_core, lang_items)]
#![no_core]
#![allow(internal_features)]
{sized}#[lang = "sync"] pub unsafe trait Sync {{}}
unsafe impl Sync for [u8; 16] {{}}
#[lang = "copy"] pub trait Copy {{}}
impl Copy for u8 {{}}
impl Copy for u64 {{}}
#[lang = "drop_glue"]
#[allow(unconditional_recursion)]
pub unsafe fn drop_in_place<T: ?Sized>(p: *mut T) {{ unsafe {{ drop_in_place(p) }} }}
pub static GLOBAL: [u8; 16] = [0; 16];
#[no_mangle] #[inline(never)] pub fn rk_int_only(a: u64) -> u64 {{ a }}
#[no_mangle] #[inline(never)] pub fn rk_addr() -> &'static [u8; 16] {{ &GLOBAL }}
"#
    )
}

/// What one cell proved, for the summary.
struct CellResult {
    name: String,
    secs: f64,
    outcome: Result<String, String>,
}

fn edition(c: &Compiler) -> &'static str {
    if c.info.at_least(1, 87, 0) {
        "--edition=2024"
    } else {
        "--edition=2021"
    }
}

fn run_cell(v: &Variant, c: &Compiler) -> Result<String, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let d = dir.path();
    let config = cfg(v.config);
    let t = targetspec::target_for(
        Layout::builtin(v.vintage),
        v.arch,
        &config,
        &c.info,
        TargetStyle::Json,
        "target.json",
    )
    .map_err(|e| e.to_string())?;
    let spec = t.spec.expect("json style writes a spec");
    std::fs::write(d.join("target.json"), &spec).unwrap();
    let targs = target_args(v, c, &config);
    let mut args = targs.clone();
    args.extend(s(&["--print", "cfg"]));
    let cfgs = rustc(c, d, &args)?;
    let want_endian = if config.has("CPU_BIG_ENDIAN") {
        "big"
    } else {
        "little"
    };
    if !cfgs.contains(&format!("target_endian=\"{want_endian}\"")) {
        return Err(format!(
            "--print cfg lacks target_endian={want_endian}:\n{cfgs}"
        ));
    }
    // Every crate of a cell: the target's arguments, then the same codegen options.
    let build = |crate_args: &[&str]| {
        let mut a = targs.clone();
        a.extend(s(&[
            "-Cpanic=abort",
            "-Copt-level=2",
            "-Ccodegen-units=1",
            "-Cembed-bitcode=n",
            "--sysroot=/dev/null",
        ]));
        a.extend(s(crate_args));
        rustc(c, d, &a)
    };
    let mut done = vec!["print-cfg".to_string()];
    let probe_obj = match &c.lib {
        Some(lib) => {
            // A crate of the library source, checked as the object the kernel links.
            let build_lib = |name: &str, cfg: &str, extra: &[&str]| {
                let crate_name = format!("--crate-name={name}");
                let emit = format!("--emit=obj={name}.o,metadata=lib{name}.rmeta");
                let src = lib.join(name).join("src/lib.rs").display().to_string();
                let mut a = vec![
                    edition(c),
                    cfg,
                    "--crate-type=rlib",
                    crate_name.as_str(),
                    &emit,
                ];
                a.extend(extra);
                a.push(&src);
                build(&a)?;
                check_elf(v, &config, &d.join(format!("{name}.o")), false)
            };
            build_lib("core", "--cfg=no_fp_fmt_parse", &[])?;
            done.push("core".into());
            // The kernel's rust/compiler_builtins.rs: a marker crate (the intrinsics come from C).
            std::fs::write(d.join("compiler_builtins.rs"), COMPILER_BUILTINS).unwrap();
            build(&[
                "--edition=2021",
                "--crate-type=rlib",
                "--crate-name=compiler_builtins",
                "--emit=obj=compiler_builtins.o,metadata=libcompiler_builtins.rmeta",
                "-L.",
                "compiler_builtins.rs",
            ])?;
            if v.name == "x86_64" {
                build_lib("alloc", "--cfg=no_global_oom_handling", &["-L."])?;
                done.push("alloc".into());
            }
            std::fs::write(d.join("probe.rs"), PROBE).unwrap();
            build(&[
                "--edition=2021",
                "--crate-type=rlib",
                "--emit=obj=probe.o",
                "-L.",
                "probe.rs",
            ])?;
            "probe.o"
        }
        None => {
            std::fs::write(d.join("probe.rs"), no_core_probe(c.info.at_least(1, 89, 0))).unwrap();
            build(&[
                "--edition=2021",
                "--crate-type=rlib",
                "--emit=obj=probe.o",
                "probe.rs",
            ])?;
            "probe.o"
        }
    };
    check_elf(v, &config, &d.join(probe_obj), c.lib.is_some())?;
    done.push("elf".into());
    Ok(done.join("+"))
}

// ELF e_flags values (psABI documents; object 0.40 keeps them as typed flag names).
const EF_RISCV_RVC: u32 = 0x1;
const EF_RISCV_FLOAT_ABI: u32 = 0x6;
const EF_RISCV_FLOAT_ABI_SOFT: u32 = 0x0;
const EF_LARCH_ABI_MODIFIER_MASK: u32 = 0x7;
const EF_LARCH_ABI_SOFT_FLOAT: u32 = 0x1;

/// Whether an A64 instruction is a SIMD/FP one (data processing op0 = x111, or a load/store
/// with the V bit set).
fn a64_is_fp_simd(insn: u32) -> bool {
    let op0 = (insn >> 25) & 0xf;
    let data = op0 & 0x7 == 0x7;
    let ldst = op0 & 0x5 == 0x4 && (insn >> 26) & 1 == 1;
    data || ldst
}

/// ELF class, machine and endianness per arch, plus the arch's own promises. `full`: the probe
/// has the float function (core-based probe), so soft-float calls can be checked.
fn check_elf(v: &Variant, config: &DotConfig, obj: &Path, full: bool) -> Result<(), String> {
    use object::elf;
    let data = std::fs::read(obj).map_err(|e| e.to_string())?;
    let f = object::File::parse(&*data).map_err(|e| format!("{}: {e}", obj.display()))?;
    let (machine, is64) = match v.arch {
        Arch::X86_64 => (elf::EM_X86_64, true),
        Arch::X86 => (elf::EM_386, false),
        Arch::Arm64 => (elf::EM_AARCH64, true),
        Arch::Arm => (elf::EM_ARM, false),
        Arch::Riscv64 => (elf::EM_RISCV, true),
        Arch::Riscv32 => (elf::EM_RISCV, false),
        Arch::Powerpc64 => (elf::EM_PPC64, true),
        Arch::Loongarch64 => (elf::EM_LOONGARCH, true),
        a => return Err(format!("no ELF expectations for {a}")),
    };
    let (got_machine, e_flags) = if is64 {
        object::read::elf::ElfFile64::<object::Endianness>::parse(&*data).map(|e| {
            let h = e.elf_header();
            (h.e_machine.get(e.endian()), h.e_flags.get(e.endian()))
        })
    } else {
        object::read::elf::ElfFile32::<object::Endianness>::parse(&*data).map(|e| {
            let h = e.elf_header();
            (h.e_machine.get(e.endian()), h.e_flags.get(e.endian()))
        })
    }
    .map_err(|e| {
        format!(
            "{}: ELF class is not {}-bit: {e}",
            obj.display(),
            if is64 { 64 } else { 32 }
        )
    })?;
    if got_machine != machine {
        return Err(format!(
            "{}: e_machine {got_machine}, want {machine}",
            obj.display()
        ));
    }
    let big = config.has("CPU_BIG_ENDIAN");
    if f.is_little_endian() == big {
        return Err(format!(
            "{}: wrong endianness (want big={big})",
            obj.display()
        ));
    }
    match v.arch {
        Arch::Riscv64 | Arch::Riscv32 => {
            let rvc = e_flags & EF_RISCV_RVC != 0;
            if rvc != config.enabled("RISCV_ISA_C") {
                return Err(format!(
                    "{}: EF_RISCV_RVC={rvc} but RISCV_ISA_C={}",
                    obj.display(),
                    config.enabled("RISCV_ISA_C")
                ));
            }
            if e_flags & EF_RISCV_FLOAT_ABI != EF_RISCV_FLOAT_ABI_SOFT {
                return Err(format!(
                    "{}: not the soft-float ABI (e_flags {e_flags:#x})",
                    obj.display()
                ));
            }
        }
        // LLVM writes EABI version 5 and no float-ABI bit for soft-float (GNU as would set
        // EF_ARM_ABI_FLOAT_SOFT); a hard-float object would carry EF_ARM_ABI_FLOAT_HARD.
        Arch::Arm
            if e_flags & 0xff00_0000 != elf::EF_ARM_EABI_VER5
                || e_flags & elf::EF_ARM_ABI_FLOAT_HARD != 0 =>
        {
            return Err(format!(
                "{}: not a soft-float EABI5 object (e_flags {e_flags:#x})",
                obj.display()
            ));
        }
        Arch::Loongarch64 if e_flags & EF_LARCH_ABI_MODIFIER_MASK != EF_LARCH_ABI_SOFT_FLOAT => {
            return Err(format!(
                "{}: not the lp64s soft-float ABI (e_flags {e_flags:#x})",
                obj.display()
            ));
        }
        Arch::Powerpc64 if e_flags & elf::EF_PPC64_ABI != 2 => {
            return Err(format!(
                "{}: not ELFv2 (e_flags {e_flags:#x})",
                obj.display()
            ));
        }
        _ => {}
    }
    if !obj.ends_with("probe.o") {
        return Ok(());
    }
    // The probe's own promises.
    let relocs: Vec<(u32, String)> = f
        .sections()
        .flat_map(|s| s.relocations().collect::<Vec<_>>())
        .filter_map(|(_, r)| {
            let ty = match r.flags() {
                object::RelocationFlags::Elf { r_type } => r_type,
                _ => return None,
            };
            let name = match r.target() {
                object::RelocationTarget::Symbol(i) => {
                    f.symbol_by_index(i).ok()?.name().ok()?.to_string()
                }
                _ => String::new(),
            };
            Some((ty, name))
        })
        .collect();
    if v.arch == Arch::X86_64
        && !relocs
            .iter()
            .any(|(t, n)| *t == elf::R_X86_64_32S && n.contains("GLOBAL"))
    {
        return Err(format!("{}: the global's address is not an R_X86_64_32S relocation (kernel code model): {relocs:?}", obj.display()));
    }
    if full {
        let soft = ["__addsf3", "__aeabi_fadd"];
        if !relocs.iter().any(|(_, n)| soft.contains(&n.as_str())) {
            return Err(format!(
                "{}: the f32 add does not call __addsf3 (soft-float): {relocs:?}",
                obj.display()
            ));
        }
    }
    if v.arch == Arch::Arm64 {
        // Soft-float: no FP/SIMD instruction anywhere in the probe's code. A64 instructions
        // are little-endian even in big-endian (aarch64_be) objects.
        for sec in f
            .sections()
            .filter(|s| s.kind() == object::SectionKind::Text)
        {
            let bytes = sec.data().map_err(|e| e.to_string())?;
            for w in bytes.chunks_exact(4) {
                let insn = u32::from_le_bytes(w.try_into().unwrap());
                if a64_is_fp_simd(insn) {
                    return Err(format!(
                        "{}: FP/SIMD instruction {insn:#010x} in {}",
                        obj.display(),
                        sec.name().unwrap_or("?")
                    ));
                }
            }
        }
        if !f.symbols().any(|s| s.name() == Ok("rk_int_only")) {
            return Err("probe lacks rk_int_only".into());
        }
    }
    Ok(())
}

#[test]
fn a64_fp_simd_detector() {
    assert!(a64_is_fp_simd(0x1E21_2800)); // fadd s0, s0, s1
    assert!(a64_is_fp_simd(0x3DC0_0000)); // ldr q0, [x0]
    assert!(a64_is_fp_simd(0x4E21_8400)); // add v0.16b, v0.16b, v1.16b
    assert!(!a64_is_fp_simd(0x8B01_0000)); // add x0, x0, x1
    assert!(!a64_is_fp_simd(0xF940_0020)); // ldr x0, [x1]
    assert!(!a64_is_fp_simd(0xD65F_03C0)); // ret
}

/// Run `f` over `items` on `jobs` threads, keeping the input order in the results.
fn pool<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    let i = *n;
                    *n += 1;
                    i
                };
                if i >= items.len() {
                    break;
                }
                let r = f(&items[i]);
                results.lock().unwrap()[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.unwrap())
        .collect()
}

#[test]
fn every_arch_every_rustc() {
    let compilers = compilers();
    let jobs = std::env::var("RKBUILD_MATRIX_JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
        });
    // Longest cells (core builds) first, so the pool ends evenly.
    let mut cells: Vec<(&Variant, &Compiler)> = vec![];
    for c in compilers.iter().filter(|c| c.lib.is_some()) {
        for v in VARIANTS {
            cells.push((v, c));
        }
    }
    for c in compilers.iter().filter(|c| c.lib.is_none()) {
        for v in VARIANTS {
            cells.push((v, c));
        }
    }
    // RKBUILD_MATRIX_ONLY=substring narrows the run while debugging one cell.
    if let Ok(only) = std::env::var("RKBUILD_MATRIX_ONLY") {
        cells.retain(|(v, c)| format!("{} × rustc {}", v.name, c.name).contains(&only));
    }
    let start = Instant::now();
    let results = pool(&cells, jobs, |(v, c)| {
        let t = Instant::now();
        let outcome = run_cell(v, c);
        let r = CellResult {
            name: format!("{} × rustc {}", v.name, c.name),
            secs: t.elapsed().as_secs_f64(),
            outcome,
        };
        eprintln!(
            "  {:<32} {:>6.1}s  {}",
            r.name,
            r.secs,
            match &r.outcome {
                Ok(s) => format!("ok ({s})"),
                Err(e) => format!("FAILED: {e}"),
            }
        );
        r
    });
    // Built-in style: every arch's built-in target and flags load cleanly in every compiler.
    let mut builtin = vec![];
    for c in &compilers {
        for v in VARIANTS
            .iter()
            .filter(|v| !v.config.contains("BIG_ENDIAN") && v.arch != Arch::X86)
        {
            let config = cfg(v.config);
            let flags = targetspec::builtin_flags(v.arch, &config, &c.info).unwrap();
            let mut args: Vec<String> = flags.into_iter().map(|f| f.arg).collect();
            args.extend(s(&["--print", "cfg"]));
            let d = std::env::temp_dir();
            let mut r = rustc(c, &d, &args);
            if v.arch == Arch::Powerpc64 {
                // Upstream's own powerpc flags warn on 1.95+ ("unstable feature specified for
                // -Ctarget-feature"); accept exactly those warnings, nothing else.
                r = r.or_else(|e| {
                    let other = e
                        .lines()
                        .filter(|l| l.starts_with("warning") || l.starts_with("error"))
                        .any(|l| {
                            !(l.contains("feature specified for `-Ctarget-feature`")
                                || l.contains("warnings emitted"))
                        });
                    if e.contains("(exit Some(0))") && !other {
                        Ok(String::new())
                    } else {
                        Err(e)
                    }
                });
            }
            builtin.push((format!("builtin {} × rustc {}", v.name, c.name), r));
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let failed: Vec<String> = results
        .iter()
        .filter_map(|r| r.outcome.as_ref().err().map(|e| format!("{}: {e}", r.name)))
        .chain(
            builtin
                .iter()
                .filter_map(|(n, r)| r.as_ref().err().map(|e| format!("{n}: {e}"))),
        )
        .collect();
    eprintln!(
        "target matrix: {} json cells ({} variants × {} compilers) + {} builtin cells, {jobs} jobs, wall {wall:.0}s, {} failed",
        results.len(),
        VARIANTS.len(),
        compilers.len(),
        builtin.len(),
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "{} cell(s) failed:\n{}",
        failed.len(),
        failed.join("\n\n")
    );
}
