//! `rkbuild test [NAME...] [-- ARGS]`: the host tests `make rusttest` runs, from the layout's
//! `[rusttest]`: the test libraries and test binaries built like any step (only what
//! changed), then each test binary run and each doctest pass, every time, with their output
//! shown. A failing test's exit status is rkbuild's (see `exec::BuildFailed::exit_code`).

use anyhow::bail;

use super::build::{self, BuildOpts};
use crate::exec;
use crate::output::Out;
use crate::plan::StepKind;

/// Runs the tests named (every test of the layout when none are).
pub fn run(
    opts: &BuildOpts,
    names: &[String],
    args: &[String],
    out: Out,
) -> anyhow::Result<exec::Summary> {
    let mut opts = opts.clone();
    opts.rusttest = true;
    opts.targets = vec![];
    let mut p = build::prepare(&opts)?;
    let known: Vec<String> = p
        .plan
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::TestRun)
        .filter_map(|s| s.crate_name.clone())
        .collect();
    for n in names {
        if !known.contains(n) {
            let hint = crate::plan::closest(n, known.iter().map(String::as_str))
                .map(|c| format!(" (did you mean `{c}`?)"))
                .unwrap_or_default();
            bail!(
                "no host test `{n}` in the {} layout{hint}\n  fix: one of: {}",
                p.plan.vintage,
                known.join(", ")
            );
        }
    }
    let wanted = |s: &crate::plan::Step| {
        matches!(s.kind, StepKind::TestRun | StepKind::DocTest)
            && s.crate_name
                .as_ref()
                .is_some_and(|c| names.is_empty() || names.contains(c))
    };
    let targets: Vec<String> = p
        .plan
        .steps
        .iter()
        .filter(|s| wanted(s))
        .map(|s| s.id.clone())
        .collect();
    p.plan = p.plan.only(&targets)?;
    // `rkbuild test -- --nocapture`: what make takes as `rustc_test_run_flags`.
    for s in &mut p.plan.steps {
        if s.kind == StepKind::TestRun {
            if let Some(c) = &mut s.command {
                c.args.extend(args.iter().cloned());
            }
        }
    }
    build::say_config(&p, out);
    build::run_plan(&p.plan, &opts, &p.tree.cfg, &p.objcopy, out)
}
