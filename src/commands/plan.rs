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
                crate::plan::PostStep::Rustfmt { .. } => "then rustfmt".into(),
                crate::plan::PostStep::Generate { program, .. } => format!("then run {program}"),
                crate::plan::PostStep::Retouch { krate, .. } => match krate {
                    Some(k) => format!("then retouch {k}'s pages"),
                    None => "retouch the shared pages".into(),
                },
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

/// What `plan --action` does besides describing the action.
#[derive(Debug, Default)]
pub struct ActionOpts<'a> {
    /// Lay its input root out here.
    pub materialize: Option<&'a std::path::Path>,
    /// Upload it (files, directories, command, action) to this REAPI server.
    pub remote: Option<&'a str>,
    /// Then ask the server to run it.
    pub execute: bool,
}

/// One built step as a complete REAPI action (`plan --action`): digests, command, input
/// count and size; and what `opts` asks for.
pub fn action(plan: &Plan, id: &str, opts: &ActionOpts) -> anyhow::Result<serde_json::Value> {
    use crate::cache::remote::{digest_of, re, Remote};
    use prost::Message as _;
    let step = plan.steps.iter().find(|s| s.id == id).ok_or_else(|| {
        let hint = crate::plan::closest(id, plan.steps.iter().map(|s| s.id.as_str()))
            .map(|c| format!(" (did you mean `{c}`?)"))
            .unwrap_or_default();
        anyhow::anyhow!("no step `{id}` in the plan{hint}\n  fix: `rkbuild plan` lists the steps")
    })?;
    let c = crate::exec::remote_exec::complete(plan, step)?;
    let (files, root, dirs) = c.root()?;
    let action = c.action(&root);
    let action_bytes = action.encode_to_vec();
    let action_digest = digest_of(&action_bytes);
    if let Some(dir) = opts.materialize {
        c.materialize(dir)?;
    }
    let digest = |d: &re::Digest| format!("{}/{}", d.hash, d.size_bytes);
    let mut report = serde_json::json!({
        "reason": "action",
        "step": id,
        "action_digest": digest(&action_digest),
        "input_root_digest": digest(&root),
        "arguments": c.command.arguments,
        "environment": c.command.environment_variables.iter()
            .map(|e| (e.name.clone(), e.value.clone())).collect::<std::collections::BTreeMap<_, _>>(),
        "working_directory": c.command.working_directory,
        "output_paths": c.command.output_paths,
        "inputs": files.len(),
        "input_bytes": files.iter().map(|f| f.digest.size_bytes).sum::<i64>(),
        "directories": dirs.len(),
    });
    let Some(url) = opts.remote else {
        return Ok(report);
    };
    let rem = Remote::new(url)?;
    let on_disk: Vec<(std::path::PathBuf, re::Digest)> = c
        .files
        .iter()
        .zip(&files)
        .map(|((real, _), f)| (real.clone(), f.digest.clone()))
        .collect();
    let mut blobs = dirs;
    blobs.push(c.command.encode_to_vec());
    blobs.push(action_bytes);
    if !(rem.upload_files(&on_disk) && rem.upload(blobs, &[])) {
        anyhow::bail!("remote {url}: the upload failed (see the warning above)");
    }
    report["uploaded_bytes"] = rem
        .counts
        .bytes_up
        .load(std::sync::atomic::Ordering::Relaxed)
        .into();
    if opts.execute {
        let r = rem
            .execute(action_digest)
            .map_err(|e| anyhow::anyhow!("remote execution of `{id}` on {url}: {e}"))?;
        report["exit_code"] = r.exit_code.into();
        report["outputs"] = r
            .output_files
            .iter()
            .map(|f| {
                let d = f.digest.as_ref().map(digest).unwrap_or_default();
                (f.path.clone(), serde_json::Value::from(d))
            })
            .collect::<serde_json::Map<_, _>>()
            .into();
    }
    Ok(report)
}
