//! An external module (`make M=DIR`): its folder's makefiles walked as Kbuild reads them, its
//! Rust objects compiled with the layout's driver rule spelled as Kbuild spells an external
//! module ([`crate::layout::ExtmodDesc`]), the `modules.order` and `foo.mod` lists Makefile.build
//! writes, and the make call that runs modpost and the final link over rkbuild's objects.

use std::path::{Path, PathBuf};

use super::c_parts::CPlace;
use super::drivers::spelled_driver_step;
use super::kbuild::{walk_extmod, PartLang, Skipped};
use super::rust_dir::{check_build_error, objtool, objtool_delayed};
use super::{Command, Inputs, Plan, PlanError, Step, StepKind};
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
        let mut s = spelled_driver_step(inp, &obj, &src, &modfile, drv.kind, clippy, None)?;
        s.post.extend(check.clone());
        s.post.extend(objtool(inp, true, drv.composite.is_none()));
        steps.push(s);
    }
    // Modules of several objects: their C parts compiled as the module's commands spell them,
    // then all parts linked into the module's object.
    let mut composites = vec![];
    let mut skipped = walk.skipped;
    for c in &walk.composites {
        let (obj, _) = spell(&c.obj)?;
        let at = c.listed_at.clone();
        for p in c.parts.iter().filter(|p| p.lang != PartLang::Rust) {
            let (Some(src), PartLang::C) = (&p.src, p.lang) else {
                return Err(PlanError::Unsupported(format!(
                    "{}: `{}` of `{}` is not C or Rust (assembly, or made by a rule): rkbuild does not build it yet\n  fix: build the module with the kernel's make (`make M=…`)",
                    p.listed_at, p.obj, c.obj
                ))
                .into());
            };
            let (Some(cc), Some(cdesc)) = (&inp.cc, &ctx.vintage.c_part) else {
                return Err(PlanError::Unsupported(format!(
                    "{at}: `{}` has a C part, and the kernel's C flags are not known here\n  fix: prepare the kernel's C side (`make prepare` in the object tree)",
                    c.obj
                ))
                .into());
            };
            let (pobj, _) = spell(&p.obj)?;
            let (_, input) = spell(src)?;
            let place = c_place(d, &base, &obj_dir, dir, &p.obj, pobj, input)?;
            steps.push(
                super::c_parts::c_step(inp, cdesc, cc, c, &place)
                    .map_err(|e| PlanError::Unsupported(format!("{}: {e}", p.listed_at)))?,
            );
        }
        let Some((ld, ld_flags)) = &inp.kernel_ld else {
            // `build -M` needs a built kernel anyway (its Module.symvers); the plan says why.
            skipped.push(Skipped {
                obj: obj.clone(),
                symbol: String::new(),
                listed_at: at,
                why: Some("linked with the kernel's linker flags, which only a built kernel has recorded (.vmlinux.o.cmd)".into()),
            });
            composites.push(c.clone());
            continue;
        };
        let parts: Vec<String> = c
            .parts
            .iter()
            .map(|p| spell(&p.obj).map(|(o, _)| o))
            .collect::<Result<_, _>>()?;
        let stem = obj.strip_suffix(".o").unwrap_or(&obj);
        let mut v = base.clone();
        v.set("obj", obj.clone())
            .set("mod_list", format!("{stem}.mod"))
            .list("ld_flags", ld_flags.clone());
        let args = crate::layout::expand(&d.link_args, &v)
            .map_err(|e| PlanError::Unsupported(format!("extmod: {e}")))?;
        let mut s = Step::new(&obj, StepKind::Link, "LD [M]");
        s.outputs = vec![obj.clone()];
        s.inputs = parts.clone();
        s.inputs.push(format!("{stem}.mod"));
        s.deps = parts;
        s.module = true;
        if objtool_delayed(inp) {
            s.post.extend(objtool(inp, true, true));
        }
        s.command = Some(Command {
            env: vec![],
            program: ld.clone(),
            args,
            stdout: None,
        });
        steps.push(s);
        composites.push(c.clone());
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
    let single = walk
        .drivers
        .iter()
        .filter(|d| d.composite.is_none())
        .map(|d| (d.obj.clone(), vec![d.obj.clone()]));
    let multi = composites.iter().map(|c| {
        (
            c.obj.clone(),
            c.parts.iter().map(|p| p.obj.clone()).collect(),
        )
    });
    for (module, parts) in single.chain(multi) {
        let mut v = base.clone();
        v.set("file", module.clone());
        order.push_str(&fill(&v, &d.order_line)?);
        order.push('\n');
        let mut text = String::new();
        for p in parts {
            v.set("part", p);
            text.push_str(&fill(&v, &d.mod_line)?);
            text.push('\n');
        }
        let stem = module.strip_suffix(".o").unwrap_or(&module);
        lists.push((dir.join(format!("{stem}.mod")), text));
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
        skipped,
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

/// Where a C part of the module is, as the module's commands spell it.
fn c_place(
    d: &ExtmodDesc,
    base: &Vars,
    obj_dir: &str,
    moddir: &Path,
    rel: &str,
    obj: String,
    input: String,
) -> Result<CPlace, PlanError> {
    let folder = rel.rsplit_once('/').map(|(f, _)| f).unwrap_or("");
    let (b, template) = (base.clone(), d.c_src.clone());
    let objtree = d.c_objtree.as_ref().map(|o| fill(base, o)).transpose()?;
    Ok(CPlace {
        root: moddir.to_path_buf(),
        folder: if folder.is_empty() {
            String::new()
        } else {
            format!("{folder}/")
        },
        root_is_folder: true,
        obj,
        input,
        obj_dir: if folder.is_empty() {
            obj_dir.to_string()
        } else if obj_dir == "." {
            folder.to_string()
        } else {
            format!("{obj_dir}/{folder}")
        },
        src_of: Box::new(move |f: &str| {
            let mut v = b.clone();
            v.set("folder", if f.is_empty() { "." } else { f }).set(
                "subpath",
                if f.is_empty() {
                    String::new()
                } else {
                    format!("/{f}")
                },
            );
            v.fill(&template).unwrap_or_default()
        }),
        src_obj_includes: false,
        remove: d
            .c_remove
            .iter()
            .map(|r| fill(base, r))
            .collect::<Result<_, _>>()?,
        objtree,
    })
}
