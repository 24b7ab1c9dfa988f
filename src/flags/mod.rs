//! Stage 3a: rustc arguments, as pure functions of the configuration, the toolchain and the
//! tree's vintage. Nothing here runs a process or reads a file, so every rule is unit-tested
//! and golden-tested against the commands the real Kbuild ran.
//!
//! The order of arguments is Kbuild's order, which matters to rustc only for repeated flags
//! (the last wins: that is how `KRUSTFLAGS` overrides everything) but matters to anyone
//! comparing command lines, so we keep it exactly:
//!
//! * 2021: base flags, debug-assertions, overflow-checks, opt-level, frame pointers,
//!   debuginfo, `KRUSTFLAGS`; the target comes per rule (`rust_cross_flags`).
//! * 6.12: `rust_common_flags`, the KBUILD base, arch flags, opt-level, debug-assertions,
//!   overflow-checks, `-Dwarnings` (WERROR), frame pointers, function sections (kernel
//!   objects), shadow call stack, CFI, debuginfo, `KRUSTFLAGS`.
//! * 7.3: as 6.12 with `-Aclippy::precedence` for rustc < 1.86 before the arch flags, the
//!   `--remap-path-prefix` of out-of-tree builds, and `-Dwarnings` after them.
//!
//! Every argument carries the reason it is there ([`Flag::why`]) for `rkbuild config --explain`.

pub mod crates;

use crate::kconfig::DotConfig;
use crate::target;
use crate::toolchain::RustcInfo;
use crate::tree::{Arch, Vintage};

/// One rustc argument and why it is there.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Flag {
    pub arg: String,
    pub why: String,
}

impl Flag {
    pub fn new(arg: impl Into<String>, why: impl Into<String>) -> Flag {
        Flag {
            arg: arg.into(),
            why: why.into(),
        }
    }
}

/// Just the arguments.
pub fn args(flags: &[Flag]) -> Vec<String> {
    flags.iter().map(|f| f.arg.clone()).collect()
}

/// Everything the mapping depends on.
#[derive(Clone, Debug)]
pub struct Ctx<'a> {
    pub cfg: &'a DotConfig,
    pub rustc: &'a RustcInfo,
    pub vintage: Vintage,
    pub arch: Arch,
    /// `KRUSTFLAGS`, already split into words.
    pub krustflags: Vec<String>,
    /// How the object tree is spelled in arguments (Kbuild runs rustc in the object tree and
    /// writes `.`).
    pub objtree: String,
    /// How the source tree is spelled in arguments.
    pub srctree: String,
    /// The source tree is not the object tree (`make O=…`): 7.3 then remaps source paths.
    pub out_of_srctree: bool,
    /// The detected rustc accepts `--remap-path-scope` (probed by the toolchain stage).
    pub has_remap_path_scope: bool,
}

/// Which kind of object a compile makes: built into the kernel image, or part of a module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjKind {
    Kernel,
    Module,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FlagError {
    #[error("contradictory configuration: {0}")]
    Contradiction(String),
}

impl Ctx<'_> {
    /// `CONFIG_X=value (file:line)` or `CONFIG_X is not set`, for explanations.
    pub fn sym(&self, name: &str) -> String {
        match (self.cfg.get(name), self.cfg.origin(name)) {
            (Some(crate::kconfig::Value::Tristate(crate::kconfig::Tristate::No)), Some(at)) => {
                format!("CONFIG_{name} is not set ({at})")
            }
            (Some(v), Some(at)) => format!("CONFIG_{name}={v} ({at})"),
            _ => format!("CONFIG_{name} is not set"),
        }
    }

    pub fn on(&self, name: &str) -> bool {
        self.cfg.enabled(name)
    }

    fn rustc_is(&self, at_least: (u64, u64, u64)) -> String {
        let (a, b, c) = at_least;
        let cmp = if self.rustc.at_least(a, b, c) {
            ">="
        } else {
            "<"
        };
        format!("rustc {} {cmp} {a}.{b}.{c}", self.rustc.version)
    }

    /// `rustc_version_atleast` with the reason text.
    pub fn rustc_at_least(&self, a: u64, b: u64, c: u64) -> (bool, String) {
        (self.rustc.at_least(a, b, c), self.rustc_is((a, b, c)))
    }
}

const COMMON_WHY: &str = "rust_common_flags (top Makefile)";
const BASE_WHY: &str = "KBUILD_RUSTFLAGS base (top Makefile)";

/// `rust_common_flags`: lints and language flags shared by kernel crates and host programs.
pub fn rust_common_flags(ctx: &Ctx) -> Vec<Flag> {
    if ctx.vintage == Vintage::V2021 {
        return vec![];
    }
    // One list for both vintages: `true` marks the clippy lints 7.3 added.
    const WORDS: &[(&str, bool)] = &[
        ("--edition=2021", false),
        ("-Zbinary_dep_depinfo=y", false),
        ("-Astable_features", false),
        ("-Aunused_features", false),
        ("-Dnon_ascii_idents", false),
        ("-Dunsafe_op_in_unsafe_fn", false),
        ("-Wmissing_docs", false),
        ("-Wrust_2018_idioms", false),
        ("-Wunreachable_pub", false),
        ("-Wclippy::all", false),
        ("-Wclippy::as_ptr_cast_mut", true),
        ("-Wclippy::as_underscore", true),
        ("-Wclippy::cast_lossless", true),
        ("-Aclippy::collapsible_if", false),
        ("-Aclippy::collapsible_match", false),
        ("-Wclippy::ignored_unit_patterns", false),
        ("-Aclippy::incompatible_msrv", true),
        ("-Wclippy::mut_mut", false),
        ("-Wclippy::needless_bitwise_bool", false),
        ("-Aclippy::needless_lifetimes", false),
        ("-Wclippy::no_mangle_with_rust_abi", false),
        ("-Wclippy::ptr_as_ptr", true),
        ("-Wclippy::ptr_cast_constness", true),
        ("-Wclippy::ref_as_ptr", true),
        ("-Wclippy::undocumented_unsafe_blocks", false),
        ("-Aclippy::uninlined_format_args", false),
        ("-Wclippy::unnecessary_safety_comment", false),
        ("-Wclippy::unnecessary_safety_doc", false),
        ("-Aclippy::unwrap_or_default", false),
        ("-Wrustdoc::missing_crate_level_docs", false),
        ("-Wrustdoc::unescaped_backticks", false),
    ];
    let newer = ctx.vintage >= Vintage::K7_3;
    let words = WORDS
        .iter()
        .filter(|(_, only_73)| newer || !only_73)
        .map(|(w, _)| *w);
    let mut out: Vec<Flag> = words.map(|w| Flag::new(w, COMMON_WHY)).collect();
    out.extend(common_flags_per_version(ctx));
    out
}

/// 7.3's `rust_common_flags_per_version`: lints that depend on the rustc version.
fn common_flags_per_version(ctx: &Ctx) -> Vec<Flag> {
    let mut out = vec![];
    if ctx.vintage == Vintage::K7_3 {
        let (ok, why) = ctx.rustc_at_least(1, 86, 0);
        if !ok {
            out.push(Flag::new(
                "-Aclippy::precedence",
                format!("{why} (rust_common_flags_per_version)"),
            ));
        }
    }
    out
}

/// The 2021 flag set's lints and codegen options, with the ones today's rustc rejects
/// translated (`-Zsymbol-mangling-version` became `-Csymbol-mangling-version` in 1.59 and the
/// `-Z` form is rejected by 1.85).
fn v2021_base(ctx: &Ctx) -> Vec<Flag> {
    let mut out = vec![];
    for w in [
        "--emit=dep-info,obj,metadata",
        "--edition=2018",
        "-Cpanic=abort",
        "-Cembed-bitcode=n",
        "-Clto=n",
        "-Crpath=n",
        "-Cforce-unwind-tables=n",
        "-Ccodegen-units=1",
        "-Zbinary_dep_depinfo=y",
    ] {
        out.push(Flag::new(w, BASE_WHY));
    }
    let (stable_mangling, why) = ctx.rustc_at_least(1, 59, 0);
    out.push(if stable_mangling {
        Flag::new(
            "-Csymbol-mangling-version=v0",
            format!("2021 base `-Zsymbol-mangling-version=v0`, translated: {why} (the -Z form is rejected by rustc 1.85)"),
        )
    } else {
        Flag::new("-Zsymbol-mangling-version=v0", BASE_WHY)
    });
    for w in [
        "-Dunsafe_op_in_unsafe_fn",
        "-Drust_2018_idioms",
        "-Wmissing_docs",
    ] {
        out.push(Flag::new(w, BASE_WHY));
    }
    out
}

/// The opt-level: 6.12/7.3 follow the C choice (2 or s); 2021 has its own choice, whose
/// default maps the C choice (O2→2, O3→3, Os→z).
pub fn opt_level(ctx: &Ctx) -> Result<Option<Flag>, FlagError> {
    let c_choice = [
        ("CC_OPTIMIZE_FOR_PERFORMANCE", "2"),
        ("CC_OPTIMIZE_FOR_PERFORMANCE_O3", "3"),
        (
            "CC_OPTIMIZE_FOR_SIZE",
            if ctx.vintage == Vintage::V2021 {
                "z"
            } else {
                "s"
            },
        ),
    ];
    if ctx.vintage != Vintage::V2021 {
        return Ok(c_choice
            .iter()
            .filter(|(s, _)| *s != "CC_OPTIMIZE_FOR_PERFORMANCE_O3")
            .find(|(s, _)| ctx.on(s))
            .map(|(s, l)| Flag::new(format!("-Copt-level={l}"), ctx.sym(s))));
    }
    let rust_choice: Vec<(&str, &str)> = [
        ("RUST_OPT_LEVEL_SIMILAR_AS_CHOSEN_FOR_C", ""),
        ("RUST_OPT_LEVEL_0", "0"),
        ("RUST_OPT_LEVEL_1", "1"),
        ("RUST_OPT_LEVEL_2", "2"),
        ("RUST_OPT_LEVEL_3", "3"),
        ("RUST_OPT_LEVEL_S", "s"),
        ("RUST_OPT_LEVEL_Z", "z"),
    ]
    .into_iter()
    .filter(|(s, _)| ctx.on(s))
    .collect();
    if rust_choice.len() > 1 {
        let names: Vec<String> = rust_choice.iter().map(|(s, _)| ctx.sym(s)).collect();
        return Err(FlagError::Contradiction(format!(
            "more than one Rust optimization level is set: {} (the choice allows exactly one; keep one and set the others to `is not set`)",
            names.join(", ")
        )));
    }
    match rust_choice.first() {
        Some(("RUST_OPT_LEVEL_SIMILAR_AS_CHOSEN_FOR_C", _)) => {
            let Some((c, l)) = c_choice.iter().find(|(s, _)| ctx.on(s)) else {
                return Err(FlagError::Contradiction(format!(
                    "{} asks for the C optimization level, but none of CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE, CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE_O3, CONFIG_CC_OPTIMIZE_FOR_SIZE is set",
                    ctx.sym("RUST_OPT_LEVEL_SIMILAR_AS_CHOSEN_FOR_C")
                )));
            };
            Ok(Some(Flag::new(
                format!("-Copt-level={l}"),
                format!(
                    "{} and {} (C -O{} → Rust {l})",
                    ctx.sym("RUST_OPT_LEVEL_SIMILAR_AS_CHOSEN_FOR_C"),
                    ctx.sym(c),
                    match *l {
                        "z" => "s",
                        other => other,
                    }
                ),
            )))
        }
        Some((s, l)) => Ok(Some(Flag::new(format!("-Copt-level={l}"), ctx.sym(s)))),
        None => Ok(None),
    }
}

fn yes_no(ctx: &Ctx, flag: &str, sym: &str) -> Flag {
    let v = if ctx.on(sym) { "y" } else { "n" };
    Flag::new(format!("{flag}={v}"), ctx.sym(sym))
}

/// Checks the 2021 build-assert choice against the opt-level (DENY cannot hold at opt-level 0:
/// unoptimised code keeps the `build_error` calls).
pub fn check_build_assert(ctx: &Ctx) -> Result<(), FlagError> {
    if ctx.vintage != Vintage::V2021 {
        return Ok(());
    }
    let set: Vec<&str> = [
        "RUST_BUILD_ASSERT_ALLOW",
        "RUST_BUILD_ASSERT_WARN",
        "RUST_BUILD_ASSERT_DENY",
    ]
    .into_iter()
    .filter(|s| ctx.on(s))
    .collect();
    if set.len() > 1 {
        return Err(FlagError::Contradiction(format!(
            "more than one build-assert mode is set: {} (keep one)",
            set.iter()
                .map(|s| ctx.sym(s))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    if ctx.on("RUST_BUILD_ASSERT_DENY") && ctx.on("RUST_OPT_LEVEL_0") {
        return Err(FlagError::Contradiction(format!(
            "{} with {}: at opt-level 0 build-time assertions are not optimised away, so DENY fails every build (Kconfig: RUST_BUILD_ASSERT_DENY depends on !RUST_OPT_LEVEL_0); choose RUST_BUILD_ASSERT_ALLOW or WARN, or a higher opt-level",
            ctx.sym("RUST_BUILD_ASSERT_DENY"),
            ctx.sym("RUST_OPT_LEVEL_0")
        )));
    }
    Ok(())
}

/// How build-time assertions (`build_error`) are handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BuildAssert {
    /// build_error.o is linked: a surviving assertion panics at run time.
    Allow,
    /// Linked, and the build prints a warning when an assertion survives (2021 only).
    Warn,
    /// Not linked: a surviving assertion is a link error.
    Deny,
}

pub fn build_assert(ctx: &Ctx) -> (BuildAssert, String) {
    match ctx.vintage {
        Vintage::V2021 => {
            if ctx.on("RUST_BUILD_ASSERT_ALLOW") {
                (BuildAssert::Allow, ctx.sym("RUST_BUILD_ASSERT_ALLOW"))
            } else if ctx.on("RUST_BUILD_ASSERT_WARN") {
                (BuildAssert::Warn, ctx.sym("RUST_BUILD_ASSERT_WARN"))
            } else {
                (BuildAssert::Deny, ctx.sym("RUST_BUILD_ASSERT_DENY"))
            }
        }
        _ => {
            if ctx.on("RUST_BUILD_ASSERT_ALLOW") {
                (BuildAssert::Allow, ctx.sym("RUST_BUILD_ASSERT_ALLOW"))
            } else {
                (BuildAssert::Deny, ctx.sym("RUST_BUILD_ASSERT_ALLOW"))
            }
        }
    }
}

fn frame_pointer_flags(ctx: &Ctx) -> Vec<Flag> {
    let mut out = vec![];
    if !ctx.on("FRAME_POINTER") {
        return out;
    }
    out.push(Flag::new(
        "-Cforce-frame-pointers=y",
        ctx.sym("FRAME_POINTER"),
    ));
    if ctx.vintage != Vintage::V2021 {
        let (ok, why) = ctx.rustc_at_least(1, 98, 0);
        if !ok {
            out.push(Flag::new(
                "-Zllvm_module_flag=frame-pointer:u32:2:max",
                format!("{} and {why} (rust#156980)", ctx.sym("FRAME_POINTER")),
            ));
        }
    }
    out
}

fn debug_flags(ctx: &Ctx) -> Vec<Flag> {
    let mut out = vec![];
    if !ctx.on("DEBUG_INFO") {
        return out;
    }
    if ctx.vintage != Vintage::V2021 {
        for (s, v) in [("DEBUG_INFO_DWARF4", "4"), ("DEBUG_INFO_DWARF5", "5")] {
            if ctx.on(s) {
                out.push(Flag::new(format!("-Zdwarf-version={v}"), ctx.sym(s)));
                break;
            }
        }
    }
    if ctx.on("DEBUG_INFO_REDUCED") {
        out.push(Flag::new("-Cdebuginfo=1", ctx.sym("DEBUG_INFO_REDUCED")));
    } else {
        out.push(Flag::new(
            "-Cdebuginfo=2",
            format!("{}, not reduced", ctx.sym("DEBUG_INFO")),
        ));
    }
    if ctx.vintage != Vintage::V2021 {
        for (s, v) in [
            ("DEBUG_INFO_COMPRESSED_ZLIB", "zlib"),
            ("DEBUG_INFO_COMPRESSED_ZSTD", "zstd"),
        ] {
            if ctx.on(s) {
                out.push(Flag::new(
                    format!("-Zdebuginfo-compression={v}"),
                    ctx.sym(s),
                ));
                break;
            }
        }
    }
    out
}

fn werror(ctx: &Ctx) -> Option<Flag> {
    ctx.on("WERROR")
        .then(|| Flag::new("-Dwarnings", ctx.sym("WERROR")))
}

/// `KBUILD_RUSTFLAGS`: everything every target crate gets, in Kbuild's order.
pub fn kbuild_rustflags(ctx: &Ctx) -> Result<Vec<Flag>, FlagError> {
    check_build_assert(ctx)?;
    let mut out = vec![];
    if ctx.vintage == Vintage::V2021 {
        out.extend(v2021_base(ctx));
        out.push(yes_no(ctx, "-Cdebug-assertions", "RUST_DEBUG_ASSERTIONS"));
        out.push(yes_no(ctx, "-Coverflow-checks", "RUST_OVERFLOW_CHECKS"));
        out.extend(opt_level(ctx)?);
        out.extend(frame_pointer_flags(ctx));
        out.extend(debug_flags(ctx));
        out.extend(krustflags(ctx));
        return Ok(out);
    }
    // rust_common_flags (with the per-version lints appended after the base, as 7.3 does).
    let common = rust_common_flags(ctx);
    let per_version = common_flags_per_version(ctx).len();
    out.extend_from_slice(&common[..common.len() - per_version]);
    for w in [
        "-Cpanic=abort",
        "-Cembed-bitcode=n",
        "-Clto=n",
        "-Cforce-unwind-tables=n",
        "-Ccodegen-units=1",
        "-Csymbol-mangling-version=v0",
        "-Crelocation-model=static",
        "-Zfunction-sections=n",
        "-Wclippy::float_arithmetic",
    ] {
        out.push(Flag::new(w, BASE_WHY));
    }
    out.extend_from_slice(&common[common.len() - per_version..]);
    out.extend(target::arch_flags(ctx));
    out.extend(opt_level(ctx)?);
    out.push(yes_no(ctx, "-Cdebug-assertions", "RUST_DEBUG_ASSERTIONS"));
    out.push(yes_no(ctx, "-Coverflow-checks", "RUST_OVERFLOW_CHECKS"));
    if ctx.vintage == Vintage::K6_12 {
        out.extend(werror(ctx));
    }
    out.extend(frame_pointer_flags(ctx));
    if ctx.on("SHADOW_CALL_STACK") && !ctx.on("DYNAMIC_SCS") {
        out.push(Flag::new(
            "-Zsanitizer=shadow-call-stack",
            ctx.sym("SHADOW_CALL_STACK"),
        ));
    }
    let cfi = if ctx.vintage == Vintage::K6_12 {
        "CFI_CLANG"
    } else {
        "CFI"
    };
    if ctx.on(cfi) {
        for w in [
            "-Zsanitizer=kcfi",
            "-Zsanitizer-cfi-normalize-integers",
            "-Zmerge-functions=disabled",
        ] {
            out.push(Flag::new(w, format!("{} (RUSTC_FLAGS_CFI)", ctx.sym(cfi))));
        }
    }
    if ctx.vintage == Vintage::K7_3 {
        if ctx.out_of_srctree && ctx.has_remap_path_scope {
            let why = "out-of-tree build (O=) and rustc accepts --remap-path-scope";
            out.push(Flag::new(
                format!("--remap-path-prefix={}/=", ctx.srctree),
                why,
            ));
            out.push(Flag::new("--remap-path-scope=macro", why));
        }
        out.extend(werror(ctx));
    }
    out.extend(debug_flags(ctx));
    out.extend(krustflags(ctx));
    Ok(out)
}

fn krustflags(ctx: &Ctx) -> Vec<Flag> {
    ctx.krustflags
        .iter()
        .map(|w| {
            Flag::new(
                w.clone(),
                "KRUSTFLAGS (environment or --krustflags), last so it overrides",
            )
        })
        .collect()
}

/// `KBUILD_RUSTFLAGS_KERNEL` / `KBUILD_RUSTFLAGS_MODULE`.
pub fn modkern_flags(ctx: &Ctx, kind: ObjKind) -> Vec<Flag> {
    let mut out = vec![];
    match kind {
        ObjKind::Module => {
            out.push(Flag::new(
                "--cfg",
                "module object (KBUILD_RUSTFLAGS_MODULE)",
            ));
            out.push(Flag::new(
                "MODULE",
                "module object (KBUILD_RUSTFLAGS_MODULE)",
            ));
        }
        ObjKind::Kernel => {
            if ctx.vintage != Vintage::V2021 && ctx.on("LD_DEAD_CODE_DATA_ELIMINATION") {
                out.push(Flag::new(
                    "-Zfunction-sections=y",
                    ctx.sym("LD_DEAD_CODE_DATA_ELIMINATION"),
                ));
            }
        }
    }
    out.extend(target::modkern_arch_flags(ctx, kind));
    out
}

/// `rust_flags`: KBUILD_RUSTFLAGS, the kernel/module flags, and the rustc_cfg argfile.
pub fn rust_flags(ctx: &Ctx, kind: ObjKind) -> Result<Vec<Flag>, FlagError> {
    let mut out = kbuild_rustflags(ctx)?;
    out.extend(modkern_flags(ctx, kind));
    out.push(Flag::new(
        format!("@{}/include/generated/rustc_cfg", ctx.objtree),
        "the configuration as --cfg arguments (written by rkbuild config)",
    ));
    Ok(out)
}

#[cfg(test)]
mod tests;
