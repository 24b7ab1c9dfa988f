//! `rkbuild target`: print the target (spec or built-in target + flags) for an arch, config and
//! rustc; `rkbuild target check FILE`: does the detected rustc accept a spec, and why not;
//! `rkbuild target upgrade FILE`: rewrite a spec for the detected rustc, listing each change.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::fsutil::{write_if_changed, WriteOutcome};
use crate::kconfig::{DotConfig, Format};
use crate::output::{Message, Out};
use crate::targetspec::{self, check, TargetStyle};
use crate::toolchain::{self, Found, RustcInfo, ToolNames};
use crate::tree::{Arch, Vintage};

/// Options of `rkbuild target`.
#[derive(Clone, Debug, Default)]
pub struct TargetOpts {
    pub arch: Option<String>,
    pub config: Option<PathBuf>,
    pub rustc: Option<String>,
    pub kbuild: Option<String>,
    pub style: Option<String>,
}

/// What `rkbuild target` prints.
#[derive(Debug, serde::Serialize)]
pub struct TargetReport {
    pub arch: Arch,
    pub vintage: Vintage,
    pub rustc: RustcInfo,
    pub target: targetspec::Target,
}

/// Finds rustc (`--rustc`, else `$RUSTC`, else `rustc`), with a fix line when `-vV` is unusable.
pub fn find_rustc(rustc: Option<&str>) -> anyhow::Result<Found<RustcInfo>> {
    let names = ToolNames {
        rustc: rustc.map(String::from),
        ..ToolNames::default()
    }
    .with_env()?;
    toolchain::detect_rustc(&names).map_err(|e| match e {
        toolchain::ToolError::Version(v) => anyhow::anyhow!(
            "{v}\n  fix: pass --rustc PATH (or set RUSTC) to a working rustc whose `rustc -vV` prints `release: X.Y.Z`"
        ),
        other => other.into(),
    })
}

fn load_config(opts: &TargetOpts) -> anyhow::Result<DotConfig> {
    match &opts.config {
        Some(p) => DotConfig::load(p),
        None => {
            // No configuration: the Kconfig defaults that change a spec (RISCV_ISA_C defaults to y).
            let text = match opts.arch.as_deref() {
                Some(a) if a.starts_with("riscv") => "CONFIG_RISCV_ISA_C=y\n",
                _ => "",
            };
            Ok(DotConfig::parse(
                Path::new("(no --config)"),
                text,
                Format::DotConfig,
            )?)
        }
    }
}

/// `rkbuild target`.
pub fn show(opts: &TargetOpts) -> anyhow::Result<TargetReport> {
    let cfg = load_config(opts)?;
    let arch = Arch::resolve(opts.arch.as_deref(), &cfg)?;
    let from = cfg.path.display().to_string();
    let vintage = crate::layout::Layout::resolve(
        opts.kbuild.as_deref(),
        None,
        Some((&from, &|s: &str| cfg.get(s).is_some())),
    )?
    .layout;
    let style = match &opts.style {
        Some(s) => TargetStyle::parse(s)?,
        None => TargetStyle::default_for(vintage),
    };
    let rustc = find_rustc(opts.rustc.as_deref())?;
    let spec_file = format!("./{}", targetspec::spec_path(vintage));
    let t = targetspec::target_for(vintage, arch, &cfg, &rustc.info, style, &spec_file)?;
    Ok(TargetReport {
        arch,
        vintage,
        rustc: rustc.info,
        target: t,
    })
}

fn read(file: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(file).with_context(|| {
        format!(
            "cannot read the target spec `{}`\n  fix: pass the path of a .json target spec",
            file.display()
        )
    })
}

/// `rkbuild target check FILE`.
pub fn check_file(file: &Path, rustc: Option<&str>) -> anyhow::Result<check::CheckReport> {
    let text = read(file)?;
    let rustc = find_rustc(rustc)?;
    targetspec::schema::check_known(&rustc.info)?;
    check::check(&rustc.path, &rustc.info, &text)
}

/// What `upgrade` did.
#[derive(Debug, serde::Serialize)]
pub struct UpgradeOutcome {
    pub report: check::UpgradeReport,
    pub written: Option<(PathBuf, WriteOutcome)>,
}

/// `rkbuild target upgrade FILE [--output OUT] [--dry-run]`.
pub fn upgrade_file(
    file: &Path,
    rustc: Option<&str>,
    output: Option<&Path>,
    dry_run: bool,
) -> anyhow::Result<UpgradeOutcome> {
    let text = read(file)?;
    let rustc = find_rustc(rustc)?;
    let report = check::upgrade(&rustc.path, &rustc.info, &text)
        .with_context(|| format!("cannot upgrade `{}`", file.display()))?;
    if !report.probe.accepted {
        // Nothing half-done is written: the file stays as it was.
        anyhow::bail!(
            "rustc {} still refuses `{}` after {} change(s):\n{}\n  fix: edit the keys named above by hand (see docs/targets.md)",
            rustc.info.version,
            file.display(),
            report.changes.len(),
            report.probe.stderr.trim_end()
        );
    }
    let written = if dry_run {
        None
    } else {
        let out = output.unwrap_or(file);
        Some((
            out.to_path_buf(),
            write_if_changed(out, report.text.as_bytes())?,
        ))
    };
    Ok(UpgradeOutcome { report, written })
}

/// A `target` subcommand.
#[derive(Clone, Debug)]
pub enum Action {
    Check {
        file: PathBuf,
        rustc: Option<String>,
    },
    Upgrade {
        file: PathBuf,
        rustc: Option<String>,
        output: Option<PathBuf>,
        dry_run: bool,
    },
}

/// Runs `rkbuild target [check|upgrade]` and prints the result.
pub fn cli(
    opts: TargetOpts,
    action: Option<Action>,
    out: Out,
) -> anyhow::Result<std::process::ExitCode> {
    use std::process::ExitCode;
    match action {
        None => {
            let r = show(&opts)?;
            if out.json() {
                out.message(&serde_json::json!({"reason": "target", "report": r}));
                return Ok(ExitCode::SUCCESS);
            }
            match &r.target.spec {
                Some(text) => print!("{text}"),
                None => {
                    for f in &r.target.flags {
                        println!("{}", f.arg);
                    }
                }
            }
            if out.verbose {
                eprintln!(
                    "# {} style for {} (kernel {}), {}",
                    r.target.style.name(),
                    r.arch,
                    r.vintage,
                    r.rustc.version_text
                );
                if r.target.spec.is_some() {
                    for f in &r.target.flags {
                        eprintln!("# flag {}  ← {}", f.arg, f.why);
                    }
                }
                for n in &r.target.notes {
                    eprintln!("# {}: {} ({})", n.key, n.action, n.why);
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Action::Check { file, rustc }) => {
            let r = check_file(&file, rustc.as_deref().or(opts.rustc.as_deref()))?;
            if out.json() {
                out.message(
                    &serde_json::json!({"reason": "target-check", "file": file, "report": r}),
                );
            } else {
                if r.ok {
                    println!("{}: accepted cleanly", file.display());
                } else {
                    println!("{}: NOT accepted cleanly", file.display());
                }
                for why in &r.reasons {
                    println!("  - {why}");
                }
                for n in &r.findings {
                    println!("  - `{}` should be {} ({})", n.key, n.action, n.why);
                }
                if !r.probe.stderr.trim().is_empty() {
                    println!("  rustc said:");
                    for l in r.probe.stderr.trim_end().lines() {
                        println!("    {l}");
                    }
                }
                if !r.ok {
                    println!("  fix: rkbuild target upgrade {}", file.display());
                }
            }
            Ok(if r.ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Some(Action::Upgrade {
            file,
            rustc,
            output,
            dry_run,
        }) => {
            let r = upgrade_file(
                &file,
                rustc.as_deref().or(opts.rustc.as_deref()),
                output.as_deref(),
                dry_run,
            )?;
            if out.json() {
                out.message(
                    &serde_json::json!({"reason": "target-upgrade", "file": file, "outcome": r}),
                );
                return Ok(ExitCode::SUCCESS);
            }
            for n in &r.report.changes {
                println!("  {}: {} ({})", n.key, n.action, n.why);
            }
            match &r.written {
                Some((p, WriteOutcome::Unchanged)) => out.say(Message::Status {
                    tag: "SKIP",
                    subject: &format!("{} (already current)", p.display()),
                }),
                Some((p, _)) => out.say(Message::Status {
                    tag: "UPD",
                    subject: &p.display().to_string(),
                }),
                None => print!("{}", r.report.text),
            }
            if !r.report.probe.clean() {
                out.say(Message::Warning {
                    text: &format!("rustc still says:\n{}", r.report.probe.stderr.trim_end()),
                    at: None,
                });
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
