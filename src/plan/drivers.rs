//! Driver objects: the Rust drivers the tree's Kbuild makefiles list ([`super::kbuild`]), each
//! compiled with the layout's driver rule (`rust_common_cmd` of Makefile.build).

use std::path::Path;

use super::rust_dir::{base_vars, check_build_error, objtool, spec_input, tag_for};
use super::{describe, program, Command, Inputs, Plan, PlanError, PostStep, Step, StepKind};
use crate::flags::crates::{self, Compiler, Unit};
use crate::flags::{self, ObjKind};
use crate::layout::SingleTarget;

/// One driver object of the tree (`obj` relative to the trees, `src` its root relative to the
/// source tree, `modfile` the module it is part of: `samples/rust/rust_print` for
/// `rust_print_main.o`).
pub fn driver_step(
    inp: &Inputs,
    obj: &str,
    src: &str,
    modfile: &str,
    kind: ObjKind,
    clippy: bool,
) -> anyhow::Result<Step> {
    let src = format!("{}/{}", inp.ctx.srctree, src);
    spelled_driver_step(inp, obj, &src, modfile, kind, clippy, None)
}

/// [`driver_step`] with the object and crate root spelled as the command spells them (an
/// external module's: `rust_hello.o`, `rust_hello.rs`).
pub(super) fn spelled_driver_step(
    inp: &Inputs,
    obj: &str,
    src: &str,
    modfile: &str,
    kind: ObjKind,
    clippy: bool,
    single: Option<&SingleTarget>,
) -> anyhow::Result<Step> {
    let ctx = inp.ctx;
    let t = &ctx.vintage.driver.cmd;
    let (dir, file) = obj.rsplit_once('/').unwrap_or((".", obj));
    let stem = Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut v = base_vars(inp);
    v.set("obj", obj)
        .set("src", src)
        .set("dir", dir)
        .set("stem", stem.clone())
        .set("modfile", modfile);
    // The object itself, or a single-file target of the same source (`foo.rsi`).
    let target = match single {
        Some(st) => format!("{}.{}", obj.strip_suffix(".o").unwrap_or(obj), st.ext),
        None => obj.to_string(),
    };
    let emit = match single {
        Some(st) => st.emit.replace("{target}", &target),
        None => format!("--emit=obj={obj}"),
    };
    let target_file = target.rsplit('/').next().unwrap_or(&target).to_string();
    v.set("target", target.clone())
        .set("target_file", target_file)
        .set("emit", emit);
    let cmd = crates::command(
        ctx,
        t,
        &Unit {
            kind,
            vars: &v,
            skip_flags: &[],
            skip_clippy: false,
            env: &[],
        },
        clippy,
    )
    .map_err(|e| PlanError::Unsupported(e.to_string()))?;
    let tool = tag_for(&t.tag, cmd.compiler);
    let tag = if kind == ObjKind::Module {
        format!("{tool} [M]")
    } else {
        // Kbuild's `quiet_modtag` is three spaces for built-in objects.
        format!("{tool}    ")
    };
    let fill = |w: &str| {
        v.fill(w)
            .map_err(|e| PlanError::Unsupported(format!("driver rule: {e}")))
    };
    let mut s = Step::new(&target, StepKind::Driver, &tag);
    s.crate_name = Some(stem);
    s.root = Some(src.to_string());
    s.module = kind == ObjKind::Module;
    s.clippy = cmd.compiler == Compiler::ClippyDriver;
    let argv = cmd.argv();
    describe(&mut s, &argv);
    s.extra_flags = vec![];
    s.cfgs.retain(|c| c == "MODULE");
    s.outputs = t
        .outputs
        .iter()
        .map(|o| fill(o))
        .collect::<Result<_, _>>()?;
    s.depfile = Some(fill(&t.depfile)?);
    s.inputs.extend(spec_input(inp));
    let stdout = single.is_some_and(|st| st.stdout).then(|| target.clone());
    if let Some(st) = single {
        s.outputs = vec![target.clone()];
        s.linked = false;
        if st.rustfmt {
            s.post.push(PostStep::Rustfmt {
                program: std::env::var("RUSTFMT").unwrap_or_else(|_| "rustfmt".into()),
                config: format!("{}/.rustfmt.toml", ctx.srctree),
            });
        }
    }
    s.command = Some(Command {
        env: cmd.env.clone(),
        program: program(inp, cmd.compiler),
        args: argv,
        stdout,
    });
    Ok(s)
}

/// The single-file targets asked for (`samples/rust/rust_minimal.rsi`), each from the driver
/// object of the same source that the configuration builds.
fn single_steps(
    inp: &Inputs,
    clippy: bool,
    drivers: &[super::kbuild::DriverObj],
    targets: &[String],
) -> anyhow::Result<Vec<Step>> {
    let singles = &inp.ctx.vintage.driver.single;
    let mut out = vec![];
    for t in targets {
        let (base, ext) = t.rsplit_once('.').unwrap_or((t, ""));
        let Some(st) = singles.iter().find(|s| s.ext == ext) else {
            let known: Vec<&str> = singles.iter().map(|s| s.ext.as_str()).collect();
            anyhow::bail!(
                "`{t}`: not a single-file target of this kernel's Kbuild ({})\n  \
                 fix: name a driver's .o or one of those endings",
                if known.is_empty() {
                    "it has none".to_string()
                } else {
                    format!("it has .{}", known.join(", ."))
                }
            );
        };
        let obj = format!("{base}.o");
        let Some(d) = drivers.iter().find(|d| d.obj == obj) else {
            anyhow::bail!(
                "`{t}`: no Rust driver `{base}.rs` is built with this configuration\n  \
                 fix: enable its Kconfig symbol, or give the path from the top of the tree"
            );
        };
        let src = format!("{}/{}", inp.ctx.srctree, d.src);
        let mut s = spelled_driver_step(inp, &d.obj, &src, &d.modfile, d.kind, clippy, Some(st))?;
        s.config = d.symbol.clone();
        out.push(s);
    }
    Ok(out)
}

/// Adds the drivers the makefiles list, and checks and orders the whole graph.
pub(super) fn with_drivers(
    inp: &Inputs,
    clippy: bool,
    mut steps: Vec<Step>,
    singles: &[String],
) -> anyhow::Result<Plan> {
    let ctx = inp.ctx;
    let check = check_build_error(inp);
    let walk =
        super::kbuild::walk_stored(inp.srctree, inp.objtree, ctx.cfg, &["rust/", "scripts/"])?;
    let mut skipped = walk.skipped;
    steps.extend(single_steps(inp, clippy, &walk.drivers, singles)?);
    for d in walk.drivers {
        let mut s = driver_step(inp, &d.obj, &d.src, &d.modfile, d.kind, clippy)?;
        s.config = d.symbol.clone();
        s.post.extend(check.clone());
        let module = d.kind == ObjKind::Module;
        s.post
            .extend(objtool(inp, module, module && d.composite.is_none()));
        steps.push(s);
    }
    for comp in &walk.composites {
        let (c, left) = super::c_parts::steps(inp, comp)?;
        steps.extend(c);
        skipped.extend(left);
    }

    Ok(Plan {
        vintage: ctx.vintage,
        arch: ctx.arch,
        srctree: inp.srctree.to_path_buf(),
        objtree: inp.objtree.to_path_buf(),
        build_assert: flags::build_assert(ctx).0,
        steps,
        skipped,
        prebuilt: vec![],
        tools: inp.tools.clone(),
    }
    .finish()?)
}
