//! Stage 3a: rustc arguments, as pure functions of the configuration, the toolchain and the
//! tree's vintage. Nothing here runs a process or reads a file, so every rule is unit-tested
//! and golden-tested against the commands the real Kbuild ran.
//!
//! The order of arguments is Kbuild's order, which matters to rustc only for repeated flags
//! (the last wins: that is how `KRUSTFLAGS` overrides everything) but matters to anyone
//! comparing command lines, so we keep it exactly:
//!
//! The sections of `KBUILD_RUSTFLAGS` (named in [`crate::layout::FLAG_SECTIONS`]) are defined here; which of them a kernel
//! has, in which order, and the words of its lists (`rust_common_flags`, the base) come from
//! its layout description (`[flags]` in `templates/kbuild/<vintage>.toml`).
//!
//! Every argument carries the reason it is there ([`Flag::why`]) for `rkbuild config --explain`.

pub mod crates;

use crate::targetspec;

pub use crate::mapping::{args, Ctx, Flag, ObjKind};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FlagError {
    #[error("contradictory configuration: {0}")]
    Contradiction(String),
}

const COMMON_WHY: &str = "rust_common_flags (top Makefile)";
const BASE_WHY: &str = "KBUILD_RUSTFLAGS base (top Makefile)";

/// `rust_common_flags`: lints and language flags shared by kernel crates and host programs.
pub fn rust_common_flags(ctx: &Ctx) -> Vec<Flag> {
    let mut out: Vec<Flag> = ctx
        .vintage
        .flags
        .common
        .iter()
        .map(|w| Flag::new(w.clone(), COMMON_WHY))
        .collect();
    out.extend(common_flags_per_version(ctx));
    out
}

/// `rust_common_flags_per_version`: lints that depend on the rustc version.
fn common_flags_per_version(ctx: &Ctx) -> Vec<Flag> {
    gated_words(
        ctx,
        &ctx.vintage.flags.common_per_version,
        "rust_common_flags_per_version",
    )
}

/// The words of the gates that hold, each with its gate as the reason.
fn gated_words(ctx: &Ctx, list: &[crate::layout::Gated<Vec<String>>], what: &str) -> Vec<Flag> {
    list.iter()
        .filter(|g| g.when.holds(ctx))
        .flat_map(|g| {
            let why = format!("{} ({what})", ctx.gate_why(&g.when));
            g.value
                .iter()
                .map(move |w| Flag::new(w.clone(), why.clone()))
        })
        .collect()
}

/// The `KBUILD_RUSTFLAGS` base after the common flags; a `{var}` in a word is the layout's
/// value for this rustc (2021's symbol-mangling flag, renamed in rustc 1.59).
fn base_flags(ctx: &Ctx) -> Vec<Flag> {
    let vars = ctx.vintage.vars_for(ctx);
    ctx.vintage
        .flags
        .base
        .iter()
        .map(|w| match vars.fill(w) {
            Ok(v) if v != *w => Flag::new(
                v,
                format!("{BASE_WHY}, as rustc {} spells it", ctx.rustc.version),
            ),
            _ => Flag::new(w.clone(), BASE_WHY),
        })
        .collect()
}

/// The opt-level: 6.12/7.3 follow the C choice (2 or s); 2021 has its own choice, whose
/// default maps the C choice (O2→2, O3→3, Os→z).
pub fn opt_level(ctx: &Ctx) -> Result<Option<Flag>, FlagError> {
    let rust_choice_style = ctx.vintage.flags.opt_level == "rust-choice";
    let c_choice = [
        ("CC_OPTIMIZE_FOR_PERFORMANCE", "2"),
        ("CC_OPTIMIZE_FOR_PERFORMANCE_O3", "3"),
        (
            "CC_OPTIMIZE_FOR_SIZE",
            if rust_choice_style { "z" } else { "s" },
        ),
    ];
    if !rust_choice_style {
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
    if ctx.vintage.flags.build_assert != "choice" {
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
    match ctx.vintage.flags.build_assert.as_str() {
        "choice" => {
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
    for f in gated_words(ctx, &ctx.vintage.flags.frame_pointer_extra, "rust#156980") {
        out.push(Flag::new(
            f.arg,
            format!("{} and {}", ctx.sym("FRAME_POINTER"), f.why),
        ));
    }
    out
}

fn debug_flags(ctx: &Ctx) -> Vec<Flag> {
    let mut out = vec![];
    if !ctx.on("DEBUG_INFO") {
        return out;
    }
    let extras = ctx.vintage.flags.debuginfo_extras;
    if extras {
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
    if extras {
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

/// `KBUILD_RUSTFLAGS`: everything every target crate gets, in the layout's order.
pub fn kbuild_rustflags(ctx: &Ctx) -> Result<Vec<Flag>, FlagError> {
    check_build_assert(ctx)?;
    let mut out = vec![];
    let common_len = ctx.vintage.flags.common.len();
    for section in &ctx.vintage.flags.sequence {
        match section.as_str() {
            // Without its own section the per-version lints follow the common flags.
            "common" if ctx.vintage.has_section("common-per-version") => {
                out.extend(rust_common_flags(ctx).into_iter().take(common_len))
            }
            "common" => out.extend(rust_common_flags(ctx)),
            "base" => out.extend(base_flags(ctx)),
            "common-per-version" => out.extend(common_flags_per_version(ctx)),
            "arch" => out.extend(targetspec::arch_flags(ctx)),
            "opt-level" => out.extend(opt_level(ctx)?),
            "debug-assertions" => {
                out.push(yes_no(ctx, "-Cdebug-assertions", "RUST_DEBUG_ASSERTIONS"))
            }
            "overflow-checks" => out.push(yes_no(ctx, "-Coverflow-checks", "RUST_OVERFLOW_CHECKS")),
            "werror" => out.extend(werror(ctx)),
            "frame-pointer" => out.extend(frame_pointer_flags(ctx)),
            "shadow-call-stack" => {
                if ctx.on("SHADOW_CALL_STACK") && !ctx.on("DYNAMIC_SCS") {
                    out.push(Flag::new(
                        "-Zsanitizer=shadow-call-stack",
                        ctx.sym("SHADOW_CALL_STACK"),
                    ));
                }
            }
            "cfi" => {
                let cfi = ctx.vintage.flags.cfi_symbol.as_deref().unwrap_or("CFI");
                if ctx.on(cfi) {
                    for w in [
                        "-Zsanitizer=kcfi",
                        "-Zsanitizer-cfi-normalize-integers",
                        "-Zmerge-functions=disabled",
                    ] {
                        out.push(Flag::new(w, format!("{} (RUSTC_FLAGS_CFI)", ctx.sym(cfi))));
                    }
                }
            }
            "remap-path-prefix" => {
                if ctx.out_of_srctree && ctx.has_remap_path_scope {
                    let why = "out-of-tree build (O=) and rustc accepts --remap-path-scope";
                    out.push(Flag::new(
                        format!("--remap-path-prefix={}/=", ctx.srctree),
                        why,
                    ));
                    out.push(Flag::new("--remap-path-scope=macro", why));
                }
            }
            "debuginfo" => out.extend(debug_flags(ctx)),
            "krustflags" => out.extend(krustflags(ctx)),
            other => unreachable!("layouts are checked on load: section `{other}`"),
        }
    }
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
            if ctx.vintage.flags.function_sections_kernel && ctx.on("LD_DEAD_CODE_DATA_ELIMINATION")
            {
                out.push(Flag::new(
                    "-Zfunction-sections=y",
                    ctx.sym("LD_DEAD_CODE_DATA_ELIMINATION"),
                ));
            }
        }
    }
    out.extend(targetspec::modkern_arch_flags(ctx, kind));
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
