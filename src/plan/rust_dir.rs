//! The steps of the tree's `rust/`: every crate, generated file and exports header its layout
//! description lists, each made with the layout's command template for its kind. Nothing here
//! knows which kernel it is; the description answers.

use std::collections::HashSet;

use anyhow::Context as _;

use super::{describe, edition_of, Command, Inputs, PlanError, PostStep, Step, StepKind};
use crate::flags::crates::{self, Compiler, Unit};
use crate::flags::{self, BuildAssert, ObjKind};
use crate::layout::{BindgenRun, CrateDesc, Vars, Word};
use crate::targetspec;

/// The placeholders every template of the plan may use.
pub(super) fn base_vars(inp: &Inputs) -> Vars {
    let ctx = inp.ctx;
    let mut v = ctx.vintage.vars_for(ctx);
    v.set("objtree", ctx.objtree.clone())
        .set("objtree_abs", inp.objtree_abs.clone())
        .set("srctree", ctx.srctree.clone())
        .set("lib_src", inp.lib_src.clone())
        .set("hostcc", inp.hostcc.clone())
        .set("hostldflags", inp.hostldflags.clone())
        .set("features", ctx.vintage.driver.features.clone())
        .set("bindgen_target", inp.bindgen_target.clone());
    v
}

pub(super) fn fill(v: &Vars, w: &str, what: &str) -> Result<String, PlanError> {
    v.fill(w).map_err(|e| {
        PlanError::Unsupported(format!(
            "{what}: {e}\n  fix: the layout `{what}` names a value rkbuild does not have"
        ))
    })
}

/// A crate's own flags for this configuration: gated groups included where their gate holds.
pub(super) fn crate_flags(
    inp: &Inputs,
    name: &str,
    flags: &[Word],
    v: &Vars,
) -> Result<Vec<String>, PlanError> {
    let mut out = vec![];
    for w in flags {
        match w {
            Word::Plain(w) => out.push(fill(v, w, name)?),
            Word::Gated(g) if g.when.holds(inp.ctx) => {
                for w in &g.value {
                    out.push(fill(v, w, name)?);
                }
            }
            Word::Gated(_) => {}
        }
    }
    Ok(out)
}

/// The generated target spec, when the arch uses one: an input of every target crate.
pub(super) fn spec_input(inp: &Inputs) -> Option<String> {
    targetspec::uses_spec(inp.ctx.vintage, inp.ctx.arch)
        .then(|| targetspec::spec_path(inp.ctx.vintage).to_string())
}

/// The tag with the compiler that runs (`RUSTC L` → `CLIPPY L`).
pub(super) fn tag_for(tag: &str, c: Compiler) -> String {
    match (c, tag.strip_prefix("RUSTC")) {
        (Compiler::ClippyDriver, Some(rest)) => format!("CLIPPY{rest}"),
        _ => tag.to_string(),
    }
}

/// The step of one crate the layout lists (`kernel`), as the plan makes it.
pub fn crate_step_named(inp: &Inputs, name: &str, clippy: bool) -> anyhow::Result<Step> {
    let c = inp.ctx.vintage.crate_named(name, inp.ctx).ok_or_else(|| {
        PlanError::Unsupported(format!(
            "the {} layout has no crate `{name}`",
            inp.ctx.vintage
        ))
    })?;
    crate_step(inp, c, &base_vars(inp), clippy)
}

fn crate_step(inp: &Inputs, c: &CrateDesc, base: &Vars, clippy: bool) -> anyhow::Result<Step> {
    let l = inp.ctx.vintage;
    let (t, kind) = match c.kind.as_str() {
        "library" => (&l.library, StepKind::Library),
        "proc-macro" => (&l.proc_macro, StepKind::ProcMacro),
        _ => (
            l.host_library
                .as_ref()
                .expect("layouts are checked on load"),
            StepKind::HostLibrary,
        ),
    };
    let mut v = base.clone();
    v.set("name", c.name.clone());
    let root = fill(&v, &c.root, &c.name)?;
    v.set("root", root.clone());
    let target_flags = crate_flags(inp, &c.name, &c.flags, &v)?;
    v.list("target_flags", target_flags.clone());
    let cmd = crates::command(
        inp.ctx,
        t,
        &Unit {
            kind: ObjKind::Kernel,
            vars: &v,
            skip_flags: &c.skip_flags,
            skip_clippy: c.skip_clippy,
            env: &c.env,
        },
        clippy,
    )
    .map_err(|e| PlanError::Unsupported(e.to_string()))?;
    let id = fill(&v, &t.id, &c.name)?;
    let mut s = Step::new(id, kind, &tag_for(&t.tag, cmd.compiler));
    s.crate_name = Some(c.name.clone());
    s.root = Some(root);
    s.host = kind != StepKind::Library;
    s.clippy = cmd.compiler == Compiler::ClippyDriver;
    if kind == StepKind::ProcMacro {
        s.externs.push("proc_macro".into());
    }
    describe(&mut s, &target_flags);
    if s.edition.is_none() {
        s.edition = edition_of(&cmd.args);
    }
    s.outputs = t
        .outputs
        .iter()
        .map(|o| fill(&v, o, &c.name))
        .collect::<Result<_, _>>()?;
    s.depfile = Some(fill(&v, &t.depfile, &c.name)?);
    for a in &c.after {
        s.deps.push(fill(&v, a, &c.name)?);
    }
    if kind == StepKind::Library {
        s.inputs.extend(spec_input(inp));
    }
    for p in &c.post {
        s.post.push(match p.as_str() {
            "redirect-intrinsics" => PostStep::RedirectIntrinsics {
                symbols: l.redirected_intrinsics(inp.ctx),
            },
            _ => PostStep::WeakenSymbols {
                pattern: "__*".into(),
            },
        });
    }
    if c.linked_if_build_assert_allows {
        s.linked = flags::build_assert(inp.ctx).0 != BuildAssert::Deny;
    }
    if c.check_build_error {
        s.post.extend(check_build_error(inp));
    }
    if kind == StepKind::Library {
        s.post.extend(objtool(inp, false, false));
    }
    s.command = Some(super::command_of(inp, &cmd));
    Ok(s)
}

/// The warning for a `build_assert!` that survived, unless assertions are allowed.
pub(super) fn check_build_error(inp: &Inputs) -> Option<PostStep> {
    let mode = flags::build_assert(inp.ctx).0;
    (mode != BuildAssert::Allow).then_some(PostStep::CheckBuildError {
        deny: mode == BuildAssert::Deny,
    })
}

/// Reads a layout's bindgen parameters file (`rust/bindgen_parameters`).
fn read_parameters(inp: &Inputs, rel: &str) -> anyhow::Result<Vec<String>> {
    let path = inp.srctree.join(rel);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read `{}`\n  fix: the {} layout keeps bindgen's arguments there",
            path.display(),
            inp.ctx.vintage
        )
    })?;
    super::bindgen_parameters(&text, &path.display().to_string()).map_err(anyhow::Error::msg)
}

/// `bindgen_c_flags`: the kernel's `c_flags` as they are for Clang builds; for GCC builds
/// without the flags libclang does not take, and `-w --target=…` after the per-object ones
/// (returned second, for the template's `{gcc_extra_c_flags}`).
fn bindgen_c_flags(inp: &Inputs, base: &Vars) -> Result<(Vec<String>, Vec<String>), PlanError> {
    let b = &inp.ctx.vintage.bindgen;
    if !inp.ctx.on("CC_IS_GCC") {
        return Ok((inp.bindgen_c_flags.clone(), vec![]));
    }
    let mut kept = inp.bindgen_c_flags.clone();
    crate::makefile::filter_out(&mut kept, &b.gcc_skip_c_flags);
    let mut extra = vec![];
    for w in &b.gcc_extra_c_flags {
        extra.push(fill(base, w, "bindgen")?);
    }
    Ok((kept, extra))
}

fn bindgen_step(inp: &Inputs, r: &BindgenRun, base: &Vars) -> anyhow::Result<Step> {
    let ctx = inp.ctx;
    let mut target_flags = vec![];
    let mut inputs = vec![];
    if let Some(p) = &r.parameters {
        target_flags = read_parameters(inp, p)?;
        inputs.push(format!("{}/{p}", ctx.srctree));
    }
    target_flags.extend(r.flags.iter().cloned());
    let (c_flags, gcc_extra) = bindgen_c_flags(inp, base)?;
    let mut base = base.clone();
    base.list("gcc_extra_c_flags", gcc_extra);
    let base = &base;
    let cflags = r
        .cflags
        .iter()
        .map(|w| fill(base, w, &r.output))
        .collect::<Result<Vec<_>, _>>()?;
    let b = crates::Bindgen {
        input: format!("{}/{}", ctx.srctree, r.input),
        output: &r.output,
        depfile: r.depfile.clone(),
        target_flags,
        c_flags: c_flags.clone(),
        target_cflags: cflags,
        version: inp.bindgen_version.clone(),
    };
    let args = flags::args(
        &crates::bindgen(ctx, &b, base).map_err(|e| PlanError::Unsupported(e.to_string()))?,
    );
    let mut s = Step::new(&r.output, StepKind::Bindgen, "BINDGEN");
    s.root = Some(b.input.clone());
    s.outputs = vec![r.output.clone()];
    s.depfile = r.depfile.clone();
    s.inputs = inputs;
    s.inputs.push(b.input.clone());
    for p in &r.post {
        s.post.push(match p.as_str() {
            "rename-const-helpers" => PostStep::RenameConstHelpers,
            _ => PostStep::LinkNameHelpers,
        });
    }
    s.command = Some(Command {
        env: vec![],
        program: inp.bindgen.clone(),
        args,
        stdout: None,
    });
    Ok(s)
}

/// `$(cmd_objtool)` for an object, when objtool runs on it (Makefile.build's
/// `objtool-enabled`): every kernel object, or with `delay-objtool` only single-file modules
/// (then with `--link`); `--module` for parts of modules.
/// Whether objtool waits for the linked object (`delay-objtool`: LTO, IBT …), so parts of a
/// module of several objects are not checked one by one.
pub(super) fn objtool_delayed(inp: &Inputs) -> bool {
    let ctx = inp.ctx;
    ctx.vintage
        .objtool
        .as_ref()
        .is_some_and(|o| o.delay.iter().any(|s| ctx.on(s)))
}

pub(super) fn objtool(inp: &Inputs, module: bool, single_obj_m: bool) -> Option<PostStep> {
    let ctx = inp.ctx;
    let o = ctx.vintage.objtool.as_ref()?;
    if !ctx.on("OBJTOOL") {
        return None;
    }
    let delay = objtool_delayed(inp);
    if delay && !single_obj_m {
        return None;
    }
    let mut args = vec![];
    for g in o.args.iter().filter(|g| g.when.holds(ctx)) {
        for w in &g.value {
            args.push(fill_config(ctx, w));
        }
    }
    if delay {
        args.push("--link".into());
    }
    if module {
        args.push("--module".into());
    }
    Some(PostStep::Objtool {
        program: format!("{}/{}", ctx.objtree, o.program),
        args,
        env: vec![("SRCARCH".into(), ctx.arch.srcarch().into())],
    })
}

/// `{CONFIG_X}` in a word: the symbol's value.
fn fill_config(ctx: &crate::flags::Ctx, w: &str) -> String {
    let mut out = w.to_string();
    while let Some(i) = out.find("{CONFIG_") {
        let Some(j) = out[i..].find('}') else { break };
        let name = &out[i + 8..i + j];
        let v = ctx.cfg.text(name).unwrap_or_default();
        out.replace_range(i..i + j + 1, &v);
    }
    out
}

/// What Makefile.lib adds to the C flags of every kernel object (UBSAN …), for this
/// configuration.
pub(super) fn kernel_object_c_flags(ctx: &crate::flags::Ctx) -> Vec<String> {
    crate::layout::words_holding(&ctx.vintage.kernel_object_c_flags, ctx)
}

/// The C flags of one file of `rust/`: `CFLAGS_REMOVE_…` applied, and for kernel objects
/// Makefile.lib's per-object sanitizer flags just before the folder's `-I`.
fn c_object_flags(inp: &Inputs, r: &crate::layout::CRun) -> Vec<String> {
    let ctx = inp.ctx;
    let mut extra: Vec<String> = vec![];
    if r.kernel_object {
        extra = kernel_object_c_flags(ctx);
    }
    let folder = format!("-I{}/rust", ctx.srctree);
    let mut out = vec![];
    for f in inp
        .bindgen_c_flags
        .iter()
        .filter(|f| !r.remove_flags.contains(f))
    {
        if *f == folder {
            out.append(&mut extra);
        }
        out.push(f.clone());
    }
    out.extend(extra);
    out
}

/// A file of `rust/` compiled by the kernel's C compiler.
fn c_step(inp: &Inputs, cc: &str, r: &crate::layout::CRun, base: &Vars) -> anyhow::Result<Step> {
    let file = r.output.rsplit('/').next().unwrap_or(&r.output);
    let out_stem = file.split('.').next().unwrap_or(file);
    let mut v = base.clone();
    let input = if r.generated {
        r.input.clone()
    } else {
        format!("{}/{}", inp.ctx.srctree, r.input)
    };
    v.set("input", input.clone())
        .set("output", r.output.clone())
        .set("out_stem", out_stem)
        .list("c_flags", c_object_flags(inp, r))
        .list("depfile_flag", vec![format!("-Wp,-MMD,{}", r.depfile)]);
    let args = crate::layout::expand(&r.args, &v)
        .map_err(|e| PlanError::Unsupported(format!("c_run `{}`: {e}", r.output)))?;
    let mut s = Step::new(&r.output, StepKind::C, &r.tag);
    s.root = Some(input.clone());
    s.outputs = vec![r.output.clone()];
    s.depfile = Some(r.depfile.clone());
    s.inputs = vec![input];
    for a in &r.after {
        s.deps.push(fill(&v, a, &r.output)?);
    }
    if r.stdout_cut {
        s.post.push(PostStep::CutHere);
    } else if r.output.ends_with(".o") {
        s.post.extend(objtool(inp, false, false));
    }
    s.command = Some(Command {
        env: vec![],
        program: cc.to_string(),
        args,
        stdout: r.stdout_cut.then(|| r.output.clone()),
    });
    Ok(s)
}

fn exports_step(obj_step: &str, header: &str) -> Step {
    let mut s = Step::new(header, StepKind::Exports, "EXPORTS");
    s.deps = vec![obj_step.to_string()];
    s.inputs = vec![obj_step.to_string()];
    s.outputs = vec![header.to_string()];
    s
}

/// Every step of `rust/` for the tree's layout, in the layout's order; a generated file
/// comes just before the first crate that needs it.
pub(super) fn steps(inp: &Inputs, clippy: bool) -> anyhow::Result<Vec<Step>> {
    let ctx = inp.ctx;
    let l = ctx.vintage;
    let base = base_vars(inp);
    let runs: Vec<&BindgenRun> = l
        .bindgen_runs
        .iter()
        .filter(|r| r.when.holds(ctx))
        .collect();
    if let Some(r) = l.refusals.iter().find(|r| r.when.holds(ctx)) {
        return Err(PlanError::Unsupported(format!(
            "{}: {}\n  fix: turn it off (`scripts/config --disable {}`), or build this configuration with the kernel's make",
            r.when.describe(),
            r.value,
            r.when.config.first().map(String::as_str).unwrap_or("…")
        ))
        .into());
    }
    let mut done: HashSet<&str> = HashSet::new();
    let mut steps = vec![];
    // The C files of rust/, when the kernel's C flags are known (make prepared the C side).
    if let Some(cc) = &inp.cc {
        for r in l
            .c_runs
            .iter()
            .filter(|r| r.when.holds(ctx) && r.after.is_empty())
        {
            steps.push(c_step(inp, cc, r, &base)?);
        }
    }
    for c in l.crates.iter().filter(|c| c.when.holds(ctx)) {
        for a in &c.after {
            if let Some(r) = runs.iter().find(|r| r.output == *a) {
                if done.insert(&r.output) {
                    steps.push(bindgen_step(inp, r, &base)?);
                }
            }
        }
        steps.push(crate_step(inp, c, &base, clippy)?);
    }
    for r in &runs {
        if done.insert(&r.output) {
            steps.push(bindgen_step(inp, r, &base)?);
        }
    }
    let objects: HashSet<String> = steps.iter().map(|s| s.id.clone()).collect();
    for [obj, header] in &l.exports.headers {
        // Only for objects this configuration builds (helpers.o needs the C side).
        if objects.contains(obj) {
            steps.push(exports_step(obj, header));
        }
    }
    if let Some(cc) = &inp.cc {
        for r in l
            .c_runs
            .iter()
            .filter(|r| r.when.holds(ctx) && !r.after.is_empty())
        {
            steps.push(c_step(inp, cc, r, &base)?);
        }
    }
    Ok(steps)
}

/// A generated file the layout makes only in some trees or configurations (the helpers'
/// bindings, the arch asm files) is waited for only where it is made.
pub(super) fn drop_unmade_generated(l: &crate::layout::Layout, steps: &mut [Step]) {
    let declared: HashSet<&str> = l
        .bindgen_runs
        .iter()
        .map(|r| r.output.as_str())
        .chain(l.c_runs.iter().map(|r| r.output.as_str()))
        .chain(l.exports.headers.iter().map(|[_, h]| h.as_str()))
        .collect();
    let made: HashSet<String> = steps.iter().map(|s| s.id.clone()).collect();
    for s in steps.iter_mut() {
        s.deps
            .retain(|d| made.contains(d) || !declared.contains(d.as_str()));
    }
}
