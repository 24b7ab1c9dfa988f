//! `make rustdoc`: `cmd_rustdoc` for each crate the layout's `[rustdoc]` lists, each followed
//! by the `rustdoc` target's retouching of what it wrote. A crate's documentation is rebuilt
//! when a source its compile read changes (its depfile, `inputs_from`), not on every run as
//! make's `rustdoc-clean` does.

use super::rust_dir::{base_vars, fill};
use super::rusttest::{compile, crate_vars, Parts};
use super::{Inputs, PlanError, PostStep, Step, StepKind};

/// The steps of `make rustdoc`, for the layout's `[rustdoc]`.
pub(super) fn steps(inp: &Inputs) -> anyhow::Result<Vec<Step>> {
    let ctx = inp.ctx;
    let Some(d) = &ctx.vintage.rustdoc else {
        return Err(PlanError::Unsupported(format!(
            "the {} layout does not describe `make rustdoc`\n  fix: build the documentation with the kernel's make",
            ctx.vintage
        ))
        .into());
    };
    let mut base = base_vars(inp);
    let modifiers = crate::layout::words_holding(&d.modifiers, ctx);
    base.list("modifiers", modifiers)
        .set("output", d.output.clone());
    let srctree_real = crate::fsutil::canonical(inp.srctree).display().to_string();
    let replace: Vec<(String, String)> = d
        .retouch
        .replace
        .iter()
        .map(|[re, with]| (re.clone(), with.replace("{srctree_real}", &srctree_real)))
        .collect();
    let retouch = |krate: Option<String>| PostStep::Retouch {
        output: d.output.clone(),
        krate,
        copy: d
            .retouch
            .copy
            .iter()
            .map(|f| format!("{}/{f}", ctx.srctree))
            .collect(),
        replace: replace.clone(),
        css_line: d.retouch.css_line.clone(),
        check_links_in: d.retouch.check_srctree_links.then(|| srctree_real.clone()),
    };
    let mut out = vec![];
    for c in &d.crates {
        let (v, flags) = crate_vars(inp, &base, &c.name, &c.root, &c.flags)?;
        let t = if c.host { &d.host } else { &d.target };
        let parts = Parts {
            name: &c.name,
            root: &c.root,
            skip_flags: &c.skip_flags,
            env: &c.env,
            after: &c.after,
        };
        let mut s = compile(inp, t, parts, &v, StepKind::Doc, false)?;
        s.host = c.host;
        s.extra_flags = flags;
        s.inputs_from = Some(fill(&v, &c.sources, &c.name)?);
        s.post.push(retouch(Some(c.name.clone())));
        out.push(s);
    }
    // The `rustdoc` target itself: the pages and files every crate's rustdoc rewrites, once
    // all of them have run (so no rustdoc writes them while they are retouched).
    let mut fin = Step::new("rustdoc", StepKind::Doc, "RUSTDOC");
    fin.deps = out.iter().map(|s| s.id.clone()).collect();
    fin.inputs = out.iter().flat_map(|s| s.outputs.clone()).collect();
    fin.outputs = vec![format!("{}/help.html", d.output)];
    fin.post.push(retouch(None));
    out.push(fin);
    Ok(out)
}
