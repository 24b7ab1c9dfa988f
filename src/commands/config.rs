//! `rkbuild config`: turns `.config` + toolchain into the files rustc needs —
//! `include/generated/rustc_cfg`, the flag argfiles, `rkbuild.mk` and the target spec — all
//! computed first and then written atomically, each only if its content changed.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::{BuildContext, Tree, TreeOpts};
use crate::flags::{self, Flag, ObjKind};
use crate::fsutil::{write_output_if_changed, WriteOutcome};
use crate::kconfig::eval::Eval;
use crate::kconfig::tree::has_kconfig;
use crate::kconfig::{dotconfig, rustc_cfg, SymType};
use crate::targetspec;
use crate::toolchain::RustcInfo;
use crate::tree::{Arch, Vintage};

/// What `config` produced.
#[derive(Debug, serde::Serialize)]
pub struct ConfigReport {
    /// Whether the Rust options were checked against the tree's Kconfig.
    pub kconfig_checked: bool,
    pub vintage: Vintage,
    pub vintage_source: String,
    pub arch: Arch,
    pub rustc: RustcInfo,
    pub rustc_path: PathBuf,
    pub config: PathBuf,
    pub kernel_flags: Vec<Flag>,
    pub module_flags: Vec<Flag>,
    pub files: Vec<WrittenFile>,
    pub warnings: Vec<String>,
}

#[derive(Debug, serde::Serialize)]
pub struct WrittenFile {
    pub path: PathBuf,
    pub status: WriteOutcome,
}

/// The generated files, in memory.
pub struct Generated {
    pub files: Vec<(PathBuf, Vec<u8>)>,
    pub kernel_flags: Vec<Flag>,
    pub module_flags: Vec<Flag>,
}

/// Computes every output without touching the disk (the vintage's own target style).
pub fn generate(tree: &Tree, rustc: &RustcInfo, has_remap: bool) -> anyhow::Result<Generated> {
    let hex = autoconf_hex(&tree.objtree);
    let types = |name: &str| hex_type(hex.as_ref(), name);
    generate_with(tree, rustc, has_remap, None, &types)
}

/// The hex symbols of the object tree's `include/generated/autoconf.h`, when make wrote one
/// (or a distribution's headers ship it).
fn autoconf_hex(objtree: &Path) -> Option<std::collections::HashSet<String>> {
    let text = std::fs::read_to_string(objtree.join("include/generated/autoconf.h")).ok()?;
    Some(rustc_cfg::autoconf_hex(&text))
}

fn hex_type(hex: Option<&std::collections::HashSet<String>>, name: &str) -> Option<SymType> {
    hex.filter(|h| h.contains(name)).map(|_| SymType::Hex)
}

/// The tree's own spec for its arch (text and path), where the layout names one, the tree has
/// it and the spec style is the layout's JSON one.
fn tree_spec(
    tree: &Tree,
    style: targetspec::TargetStyle,
) -> anyhow::Result<Option<(String, String)>> {
    let (Some(rel), Some(src)) = (&tree.vintage.target.tree_spec, &tree.srctree) else {
        return Ok(None);
    };
    if style != targetspec::TargetStyle::Json {
        return Ok(None);
    }
    let path = src.join(rel.replace("{srcarch}", tree.arch.srcarch()));
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some((text, path.display().to_string()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(anyhow::anyhow!("cannot read `{}`: {e}", path.display())),
    }
}

/// Replaces the `--target=` flag of a flag list with the chosen target's flags.
fn retarget(flags: Vec<Flag>, target: &[Flag]) -> Vec<Flag> {
    let mut out = Vec::with_capacity(flags.len() + target.len());
    for f in flags {
        if f.arg.starts_with("--target=") {
            out.extend(
                target
                    .iter()
                    .filter(|t| t.arg != "-Zunstable-options")
                    .cloned(),
            );
        } else {
            out.push(f);
        }
    }
    out
}

/// [`generate`] with `--target-style` (None: the vintage's own) and the symbol types from the
/// tree's Kconfig (a hex value written without `0x` gets the prefix in rustc_cfg, as the kernel's
/// printer does).
pub fn generate_with(
    tree: &Tree,
    rustc: &RustcInfo,
    has_remap: bool,
    style: Option<targetspec::TargetStyle>,
    types: &dyn Fn(&str) -> Option<SymType>,
) -> anyhow::Result<Generated> {
    let ctx = tree.ctx(rustc, has_remap);
    let style = style.unwrap_or(targetspec::TargetStyle::default_for(tree.vintage));
    let spec_file = format!("{}/{}", ctx.objtree, targetspec::spec_path(tree.vintage));
    let mut chosen =
        targetspec::target_for(tree.vintage, tree.arch, &tree.cfg, rustc, style, &spec_file)
            .context("cannot generate the target spec")?;
    if let Some(own) = tree_spec(tree, style)? {
        let (text, path) = own;
        let t = targetspec::tree_spec(&text, &path, rustc)?;
        chosen.spec = t.spec;
        chosen.notes = t.notes;
    }
    let mut kbuild = flags::kbuild_rustflags(&ctx)?;
    let mut cross = targetspec::cross_flags(&ctx);
    if tree.vintage.target.per_rule {
        // The 2021 vintage names its target per rule (rust_cross_flags).
        if chosen.spec.is_none() {
            cross = chosen.flags.clone();
        }
    } else if style == targetspec::TargetStyle::Json {
        kbuild = retarget(kbuild, &chosen.flags);
    }
    let kernel_flags: Vec<Flag> = kbuild
        .iter()
        .cloned()
        .chain(flags::modkern_flags(&ctx, ObjKind::Kernel))
        .chain(cross.iter().cloned())
        .collect();
    let module_flags: Vec<Flag> = kbuild
        .iter()
        .cloned()
        .chain(flags::modkern_flags(&ctx, ObjKind::Module))
        .chain(cross.iter().cloned())
        .collect();
    let cfg_text = rustc_cfg::render(&tree.cfg, types)?;
    let gen = tree.objtree.join("include/generated");
    let argfile = |f: &[Flag]| {
        let mut s = String::new();
        for a in f {
            s.push_str(&a.arg);
            s.push('\n');
        }
        s.into_bytes()
    };
    let mut files = vec![
        (gen.join("rustc_cfg"), cfg_text.into_bytes()),
        (gen.join("rustc_flags"), argfile(&kbuild)),
        (gen.join("rustc_flags_kernel"), argfile(&kernel_flags)),
        (gen.join("rustc_flags_module"), argfile(&module_flags)),
    ];
    let spec = chosen.spec;
    let spec_rel = spec.as_ref().map(|_| targetspec::spec_path(tree.vintage));
    if let (Some(text), Some(rel)) = (&spec, spec_rel) {
        files.push((tree.objtree.join(rel), text.clone().into_bytes()));
    }
    files.push((
        tree.objtree.join("rkbuild.mk"),
        make_fragment(tree, rustc, &kbuild, &kernel_flags, &module_flags, spec_rel).into_bytes(),
    ));
    Ok(Generated {
        files,
        kernel_flags,
        module_flags,
    })
}

/// `rkbuild.mk`: the same facts as make variables, for trees and out-of-tree modules that
/// include it.
fn make_fragment(
    tree: &Tree,
    rustc: &RustcInfo,
    kbuild: &[Flag],
    kernel: &[Flag],
    module: &[Flag],
    spec: Option<&str>,
) -> String {
    let words = |f: &[Flag]| {
        f.iter()
            .map(|a| make_escape(&crate::process::shell_quote(&a.arg)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let base = kbuild.len();
    let mut s = String::from("# Generated by `rkbuild config`; do not edit.\n");
    s += &format!("RKBUILD_VINTAGE := {}\n", tree.vintage);
    s += &format!("RKBUILD_ARCH := {}\n", tree.arch);
    s += &format!("RKBUILD_SRCARCH := {}\n", tree.arch.srcarch());
    s += &format!("RKBUILD_RUSTC_VERSION := {}\n", rustc.kernel_version());
    s += &format!("KBUILD_RUSTFLAGS := {}\n", words(kbuild));
    s += &format!("KBUILD_RUSTFLAGS_KERNEL := {}\n", words(&kernel[base..]));
    s += &format!("KBUILD_RUSTFLAGS_MODULE := {}\n", words(&module[base..]));
    if let Some(spec) = spec {
        s += &format!("RKBUILD_TARGET_SPEC := $(objtree)/{spec}\n");
    }
    s
}

/// Escapes `$` and `#` for make.
fn make_escape(s: &str) -> String {
    s.replace('$', "$$").replace('#', "\\#")
}

/// Runs `config`: read, detect, compute, then write.
pub fn run(opts: &TreeOpts) -> anyhow::Result<ConfigReport> {
    run_styled(opts, None)
}

/// [`run`] with `--target-style json|builtin`.
pub fn run_styled(opts: &TreeOpts, style: Option<&str>) -> anyhow::Result<ConfigReport> {
    let style = style.map(targetspec::TargetStyle::parse).transpose()?;
    let mut bc = BuildContext::open(opts)?;
    // The tree's Kconfig: types, defaults and dependencies of the Rust options.
    let mut kc_warnings = vec![];
    // A Kconfig rkbuild cannot read does not stop `config`: it goes on unchecked, and says why.
    let kconfig = match bc.tree.srctree.clone().filter(|s| has_kconfig(s)) {
        Some(src) => match bc.kconfig(&src) {
            Ok(s) => Some(s),
            Err(e) => {
                kc_warnings.push(format!(
                    "cannot read the tree's Kconfig, so the Rust options are used unchecked: {e:#}"
                ));
                None
            }
        },
        None => None,
    };
    if let Some(session) = &kconfig {
        let user = bc.tree.cfg.clone();
        session.x.prefetch(|| {
            Eval::new(&session.kc, &user, &session.x).rust_checks();
        });
        let ev = Eval::new(&session.kc, &user, &session.x);
        let checks = ev.rust_checks();
        session.x.save();
        if !checks.contradictions.is_empty() {
            bail!(
                "contradictory Rust options in {}:\n  {}\n  fix: keep one of them set to y (`make menuconfig` shows the choice)",
                bc.tree.cfg.path.display(),
                checks.contradictions.join("\n  ")
            );
        }
        kc_warnings.extend(checks.changed);
        for (name, value, at) in checks.filled {
            kc_warnings.push(format!(
                "CONFIG_{name} is missing from {} (an older .config?): using its Kconfig default {value} ({at})",
                bc.tree.cfg.path.display()
            ));
            bc.tree
                .cfg
                .entries
                .insert(name, dotconfig::Entry { value, line: 0 });
        }
    } else if kc_warnings.is_empty() {
        kc_warnings.push(format!(
            "no Kconfig to check {} against ({}): Rust options are used as written, unchecked",
            bc.tree.cfg.path.display(),
            match &bc.tree.srctree {
                Some(s) => format!("{} has no Kconfig", s.display()),
                None => "pass --srctree to check".into(),
            }
        ));
    }
    // A bare number is an int as written or a hex rustc_cfg writes with 0x: only the type
    // tells, from the Kconfig or else from make's autoconf.h.
    let hex = autoconf_hex(&bc.tree.objtree);
    if kconfig.is_none() && hex.is_none() {
        let guessed = rustc_cfg::ambiguous_numbers(&bc.tree.cfg);
        if !guessed.is_empty() {
            let shown: Vec<String> = guessed
                .iter()
                .take(6)
                .map(|n| format!("CONFIG_{n}"))
                .collect();
            let text = format!(
                "{} symbols hold a bare number ({}{}): each is written as an int; one whose Kconfig type is hex would need 0x in rustc_cfg, as Kbuild writes it\n  fix: pass --srctree (the tree's Kconfig gives the types), or keep make's include/generated/autoconf.h in the object tree",
                guessed.len(),
                shown.join(", "),
                if guessed.len() > shown.len() { ", …" } else { "" }
            );
            // Part of the one warning about the missing Kconfig.
            match kc_warnings.last_mut() {
                Some(w) => {
                    w.push_str("; ");
                    w.push_str(&text);
                }
                None => kc_warnings.push(text),
            }
        }
    }
    bc.tree.require_rust()?;
    let mut warnings = bc.tree.warnings();
    warnings.extend(kc_warnings);
    let rustc = bc.rustc()?;
    warnings.extend(crate::kconfig::sync_toolchain_symbols(
        &mut bc.tree.cfg,
        &rustc.info,
    ));
    let has_remap = bc.has_remap()?;
    let types = |name: &str| {
        kconfig
            .as_ref()
            .and_then(|k| k.kc.sym_type(name))
            .or_else(|| hex_type(hex.as_ref(), name))
    };
    let gen = generate_with(&bc.tree, &rustc.info, has_remap, style, &types)?;
    let kconfig_checked = kconfig.is_some();
    // Freeing the Kconfig model (thousands of small allocations) is a tenth of a warm run,
    // and the process ends soon after.
    std::mem::forget(kconfig);
    let mut files = vec![];
    for (path, bytes) in &gen.files {
        let status = write_output_if_changed(path, bytes)?;
        files.push(WrittenFile {
            path: path.clone(),
            status,
        });
    }
    Ok(ConfigReport {
        kconfig_checked,
        vintage: bc.tree.vintage,
        vintage_source: bc.tree.vintage_source.clone(),
        arch: bc.tree.arch,
        rustc: rustc.info,
        rustc_path: rustc.path,
        config: bc.tree.cfg.path.clone(),
        kernel_flags: gen.kernel_flags,
        module_flags: gen.module_flags,
        files,
        warnings,
    })
}
