//! `rkbuild doc`: the HTML documentation `make rustdoc` writes, from the layout's `[rustdoc]`:
//! the `rust/` steps rustdoc reads (crate metadata, proc macros), each crate documented, each
//! crate's pages retouched as the `rustdoc` target retouches them, then the shared pages. A
//! crate is documented again only when a source its compile read changed.

use super::build::{self, BuildOpts};
use crate::exec;
use crate::output::Out;

/// The step that finishes the documentation (Kbuild's `rustdoc` target).
pub const TARGET: &str = "rustdoc";

/// Writes the documentation; returns the run's summary and the documentation's folder.
pub fn run(opts: &BuildOpts, out: Out) -> anyhow::Result<(exec::Summary, std::path::PathBuf)> {
    let mut opts = opts.clone();
    opts.rustdoc = true;
    opts.targets = vec![];
    let mut p = build::prepare(&opts)?;
    p.plan = p.plan.only(&[TARGET.to_string()])?;
    build::say_config(&p, out);
    let dir = p.tree.objtree.join(
        p.plan
            .vintage
            .rustdoc
            .as_ref()
            .map(|d| d.output.as_str())
            .unwrap_or_default(),
    );
    let summary = build::run_plan(&p.plan, &opts, &p.tree.cfg, &p.objcopy, out)?;
    Ok((summary, dir))
}
