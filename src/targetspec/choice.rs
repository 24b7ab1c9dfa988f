//! Which target rustc gets: the style (a custom spec for every arch, or built-in targets), the
//! `--target=` and the flags that go with it, and the spec text where there is one.
//!
//! The choice itself is small: a layout with JSON targets (2021) gets rkbuild's self-contained
//! spec (`spec`); otherwise an architecture whose description says `target.generated_spec`
//! (x86) gets the kernel's own generated spec (`kernel_x86`) in either style, as upstream keeps
//! it, and every other one a built-in target with its flags (`arch_flags`).
//!
//! Out of scope: the arch flags of KBUILD_RUSTFLAGS (`arch_flags`), the spec texts, and checking
//! a spec against a real rustc (`check`).

use super::arch_flags::builtin_flags;
use super::kernel_x86;
use super::schema::{self, Note};
use super::{spec, SpecError};
use crate::kconfig::DotConfig;
use crate::mapping::{Ctx, Flag};
use crate::toolchain::RustcInfo;
use crate::tree::{Arch, Vintage};

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
        let text = kernel_x86::spec_for(arch, cfg, rustc)?;
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

/// A tree's own static spec (`path` names it in messages), rewritten for this rustc by the
/// schema table: renamed, removed and retyped keys, the data layout and features of its LLVM,
/// `rustc-abi` (what `rkbuild target upgrade` does before it asks rustc). Pure.
pub fn tree_spec(text: &str, path: &str, rustc: &RustcInfo) -> Result<Target, SpecError> {
    schema::check_known(rustc)?;
    let mut spec: schema::Spec = serde_json::from_str(text).map_err(|e| {
        SpecError::Unsupported(format!(
            "{path}:{}: not a target spec: {e}\n  fix: the tree's spec must be a JSON object",
            e.line()
        ))
    })?;
    let notes = schema::upgrade_static(&mut spec, rustc);
    Ok(Target {
        style: TargetStyle::Json,
        spec: Some(spec::render(&spec)),
        flags: vec![],
        notes,
    })
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
}
