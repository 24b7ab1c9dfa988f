//! CONFIG_RUST_KERNEL_DOCTESTS: the kernel crate's doctests as KUnit tests, from the layout's
//! `[doctests]`: `rustdoc --test --no-run` saves each doctest through the kernel's test
//! builder, the kernel's generator makes `rust/doctests_kernel_generated.rs` and its KUnit C
//! file from them, and the Rust file is compiled like a driver (the C file is a `[[c_run]]`).

use super::drivers::spelled_driver_step;
use super::rust_dir::{base_vars, fill, objtool};
use super::rusttest::{compile, Parts};
use super::{Inputs, PostStep, Step, StepKind};
use crate::flags::ObjKind;

/// The steps, when the configuration turns the doctests on; none otherwise.
pub(super) fn steps(inp: &Inputs, clippy: bool) -> anyhow::Result<Vec<Step>> {
    let ctx = inp.ctx;
    let Some(d) = &ctx.vintage.doctests else {
        return Ok(vec![]);
    };
    if !d.config.iter().all(|s| ctx.on(s)) {
        return Ok(vec![]);
    }
    let mut v = base_vars(inp);
    let modifiers = crate::layout::words_holding(&d.modifiers, ctx);
    let root = format!("{}/rust/kernel/lib.rs", ctx.srctree);
    v.list("modifiers", modifiers)
        .set("name", "kernel")
        .set("root", root.clone());
    let parts = Parts {
        name: "kernel",
        root: &root,
        skip_flags: &[],
        env: &[],
        after: &d.after,
    };
    let mut g = compile(inp, &d.cmd, parts, &v, StepKind::DocTestsKunit, false)?;
    g.host = false;
    g.empties = Some(d.clean.clone());
    g.quiet_stdout = d.quiet_stdout;
    g.inputs_from = Some(fill(&v, &d.sources, "doctests")?);
    g.inputs = d
        .tools
        .iter()
        .map(|t| fill(&v, t, "doctests"))
        .collect::<Result<_, _>>()?;
    let env = d
        .generator_env
        .iter()
        .map(|[k, val]| Ok((k.clone(), fill(&v, val, "doctests")?)))
        .collect::<Result<_, super::PlanError>>()?;
    g.post.push(PostStep::Generate {
        program: fill(&v, &d.generator, "doctests")?,
        env,
    });
    let src = g.id.clone();
    let mut o = spelled_driver_step(
        inp,
        &d.object,
        &src,
        &d.modfile,
        ObjKind::Kernel,
        clippy,
        None,
    )?;
    o.deps.push(src);
    o.post.extend(objtool(inp, false, false));
    Ok(vec![g, o])
}
