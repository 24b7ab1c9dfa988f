//! An external module (`make M=DIR`): its folder's makefiles walked as Kbuild reads them, its
//! Rust objects compiled with the layout's driver rule spelled as Kbuild spells an external
//! module ([`crate::layout::ExtmodDesc`]), the `modules.order` and `foo.mod` lists Makefile.build
//! writes, and the make call that runs modpost and the final link over rkbuild's objects.

use std::path::{Path, PathBuf};

use super::drivers::driver_step;
use super::kbuild::{walk_extmod, PartLang};
use super::rust_dir::{check_build_error, objtool};
use super::{Inputs, Plan, PlanError};
use crate::layout::{ExtmodDesc, Vars};
use crate::mapping::ObjKind;

/// What building an external module takes beside its steps.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Extmod {
    /// The module folder, absolute.
    pub dir: PathBuf,
    /// Lists Makefile.build writes (`modules.order`, `foo.mod`), path → text.
    pub lists: Vec<(PathBuf, String)>,
    /// Where make runs modpost and the final link, and its arguments (before the tools).
    pub make_dir: PathBuf,
    pub make_args: Vec<String>,
    /// The `.ko` files it makes.
    pub modules: Vec<PathBuf>,
}

/// The layout's external-module spelling, or why this layout has none.
pub fn desc(layout: crate::tree::Vintage) -> Result<&'static ExtmodDesc, PlanError> {
    layout.extmod.as_ref().ok_or_else(|| {
        PlanError::Unsupported(format!(
            "the {layout} layout does not describe external modules (`M=`)\n  fix: build the module with the kernel's make"
        ))
    })
}

/// The spelling's values: `{extmod}`, `{objtree_abs}`, `{srctree}`.
pub fn vars(dir: &Path, objtree_abs: &str, srctree: &str) -> Vars {
    let mut v = Vars::default();
    v.set("extmod", dir.display().to_string())
        .set("objtree_abs", objtree_abs)
        .set("srctree", srctree);
    v
}

fn fill(v: &Vars, w: &str) -> Result<String, PlanError> {
    v.fill(w)
        .map_err(|e| PlanError::Unsupported(format!("extmod: {e}")))
}

/// The steps and lists for the module folder `dir` (absolute). `inp.ctx` spells the object
/// tree as the layout's `extmod.objtree` says.
pub fn make(inp: &Inputs, dir: &Path, clippy: bool) -> anyhow::Result<(Plan, Extmod)> {
    let ctx = inp.ctx;
    let d = desc(ctx.vintage)?;
    let base = vars(dir, &inp.objtree_abs, &ctx.srctree);
    let walk = walk_extmod(dir, ctx.cfg)?;
    let obj_dir = fill(&base, &d.obj)?;
    let spell = |rel: &str| -> Result<(String, String), PlanError> {
        // (as the commands spell it, as the module folder has it)
        let mut v = base.clone();
        v.set("file", rel);
        let src = fill(&v, &d.src)?;
        let obj = if obj_dir == "." {
            rel.to_string()
        } else {
            format!("{obj_dir}/{rel}")
        };
        Ok((obj, src))
    };
    let check = check_build_error(inp);
    let mut steps = vec![];
    for drv in &walk.drivers {
        if drv.kind != ObjKind::Module {
            return Err(PlanError::Unsupported(format!(
                "{}: `{}` is listed to be built in, but an external module can only be a module\n  fix: list it in `obj-m`",
                drv.listed_at, drv.obj
            ))
            .into());
        }
        let (obj, _) = spell(&drv.obj)?;
        let (_, src) = spell(&drv.src)?;
        let modfile = format!("{obj_dir}/{}", drv.modfile);
        let mut s = driver_step(inp, &obj, &src, &modfile, drv.kind, clippy)?;
        s.post.extend(check.clone());
        s.post.extend(objtool(inp, true, drv.composite.is_none()));
        steps.push(s);
    }
    if let Some(c) = walk.composites.first() {
        let other = c.parts.iter().find(|p| p.lang != PartLang::Rust);
        return Err(PlanError::Unsupported(format!(
            "{}: `{}` is made of several objects{}; rkbuild builds external modules of one Rust object each so far\n  fix: build it with the kernel's make (`make M=…`), or make it one crate (`mod` files under one root)",
            c.listed_at,
            c.obj,
            other.map(|p| format!(" (`{}` among them)", p.obj)).unwrap_or_default()
        ))
        .into());
    }
    if steps.is_empty() {
        return Err(PlanError::Unsupported(format!(
            "`{}` lists no Rust module for this configuration\n  fix: add `obj-m := <name>.o` with `<name>.rs` beside it to its Kbuild (or Makefile)",
            dir.display()
        ))
        .into());
    }
    // Makefile.build's lists: the modules in order, and each module's objects.
    let mut order = String::new();
    let mut lists = vec![];
    let mut modules = vec![];
    for drv in &walk.drivers {
        let mut v = base.clone();
        v.set("file", drv.obj.clone()).set("part", drv.obj.clone());
        order.push_str(&fill(&v, &d.order_line)?);
        order.push('\n');
        let stem = drv.obj.strip_suffix(".o").unwrap_or(&drv.obj);
        lists.push((
            dir.join(format!("{stem}.mod")),
            format!("{}\n", fill(&v, &d.mod_line)?),
        ));
        modules.push(dir.join(format!("{stem}.ko")));
    }
    lists.insert(0, (dir.join("modules.order"), order));
    let workdir = PathBuf::from(fill(&base, &d.workdir)?);
    let plan = Plan {
        vintage: ctx.vintage,
        arch: ctx.arch,
        srctree: dir.to_path_buf(),
        objtree: workdir,
        build_assert: crate::flags::build_assert(ctx).0,
        steps,
        skipped: walk.skipped,
        // The kernel's crates, built with its rust/.
        prebuilt: ctx.vintage.crates.iter().map(|c| c.name.clone()).collect(),
        tools: inp.tools.clone(),
    }
    .finish()?;
    let ext = Extmod {
        dir: dir.to_path_buf(),
        lists,
        make_dir: PathBuf::from(fill(&base, &d.make_dir)?),
        make_args: d
            .make_args
            .iter()
            .map(|a| fill(&base, a))
            .collect::<Result<_, _>>()?,
        modules,
    };
    Ok((plan, ext))
}
