//! `rkbuild plan`: the crate graph and every step `rkbuild build` would run, without running
//! them.

use super::build::{prepare, BuildOpts};
use crate::output::{quiet_line, Out};
use crate::plan::{Plan, StepKind};

/// Makes the plan (running `config` first, as `build` does).
pub fn run(opts: &BuildOpts) -> anyhow::Result<(Plan, super::build::CFlags)> {
    let p = prepare(opts)?;
    Ok((p.plan, p.cflags))
}

/// The human form: one Kbuild-style line per step, with what it is built from.
pub fn print(plan: &Plan, cflags: &super::build::CFlags, out: Out) {
    print_steps(plan, out);
    println!("bindgen C flags: {}", cflags.source);
}

/// The steps and what was skipped, one Kbuild-style line each.
pub fn print_steps(plan: &Plan, out: Out) {
    println!(
        "kernel {} / {}: {} steps (build_error {})",
        plan.vintage,
        plan.arch,
        plan.steps.len(),
        match plan.build_assert {
            crate::flags::BuildAssert::Deny => "built, not linked",
            _ => "linked",
        }
    );
    for s in &plan.steps {
        let mut what = vec![];
        if let Some(n) = &s.crate_name {
            what.push(format!(
                "crate {n}{}",
                s.edition
                    .as_ref()
                    .map(|e| format!(" ({e})"))
                    .unwrap_or_default()
            ));
        }
        if s.host {
            what.push("host".into());
        }
        if let Some(c) = &s.config {
            what.push(format!("CONFIG_{c}"));
        }
        let externs: Vec<&str> = s
            .externs
            .iter()
            .map(String::as_str)
            .filter(|e| *e != "proc_macro")
            .collect();
        if !externs.is_empty() {
            what.push(format!("uses {}", externs.join(", ")));
        }
        if !s.cfgs.is_empty() {
            what.push(format!("cfg {}", s.cfgs.join(", ")));
        }
        if !s.linked {
            what.push("not linked".into());
        }
        for p in &s.post {
            what.push(match p {
                crate::plan::PostStep::RedirectIntrinsics { symbols } => {
                    format!("then redirect {} intrinsics", symbols.len())
                }
                crate::plan::PostStep::WeakenSymbols { pattern } => {
                    format!("then weaken `{pattern}`")
                }
                crate::plan::PostStep::RenameConstHelpers => {
                    "then rename RUST_CONST_HELPER_*".into()
                }
                crate::plan::PostStep::LinkNameHelpers => "then link_name rust_helper_*".into(),
                crate::plan::PostStep::CheckBuildError { .. } => {
                    "then check for rust_build_error".into()
                }
                crate::plan::PostStep::CutHere => "keep what follows `// Cut here.`".into(),
                crate::plan::PostStep::Objtool { args, .. } => {
                    format!("then objtool {}", args.join(" "))
                }
            });
        }
        if s.kind == StepKind::Exports {
            what.push(format!("from {}", s.inputs.join(", ")));
        }
        println!("{}  ({})", quiet_line(&s.tag, &s.id), what.join("; "));
        if out.verbose {
            if let Some(c) = &s.command {
                println!("      {}", c.display());
            }
        }
    }
    for s in &plan.skipped {
        match &s.why {
            Some(why) => println!("  {:<7} {}  ({why}; {})", "SKIP", s.obj, s.listed_at),
            None => println!(
                "  {:<7} {}  (CONFIG_{} is not set; {})",
                "SKIP", s.obj, s.symbol, s.listed_at
            ),
        }
    }
}
