//! `make rusttest`: the host libraries the tests link (`rusttestlib-*`), each test crate
//! compiled with `--test` and its binary run, and its doctests (`rusttest-*`), from the
//! layout's `[rusttest]` description. The libraries and test binaries are ordinary steps
//! (fresh when their inputs are); the runs happen every time, as tests do.

use super::rust_dir::{base_vars, crate_flags, fill};
use super::{Command, Inputs, PlanError, Step, StepKind};
use crate::flags::crates::{self, Compiler, Unit};
use crate::flags::ObjKind;
use crate::layout::{CmdTemplate, TestCrate, Vars};

/// The id of a test crate's run step (`rusttest-macros`, Kbuild's target name).
pub fn run_id(name: &str) -> String {
    format!("rusttest-{name}")
}

/// What a templated step of one crate is made from besides its template.
pub(super) struct Parts<'a> {
    pub name: &'a str,
    pub root: &'a str,
    pub skip_flags: &'a [String],
    pub env: &'a [[String; 2]],
    pub after: &'a [String],
}

impl<'a> From<&'a TestCrate> for Parts<'a> {
    fn from(c: &'a TestCrate) -> Parts<'a> {
        Parts {
            name: &c.name,
            root: &c.root,
            skip_flags: &c.skip_flags,
            env: &c.env,
            after: &c.after,
        }
    }
}

/// The placeholders of one crate's template: `{name}`, `{root}` and `{target_flags}` (its
/// own flags for this configuration, returned too).
pub(super) fn crate_vars(
    inp: &Inputs,
    base: &Vars,
    name: &str,
    root: &str,
    flags: &[crate::layout::Word],
) -> anyhow::Result<(Vars, Vec<String>)> {
    let mut v = base.clone();
    v.set("name", name);
    let root = fill(&v, root, name)?;
    v.set("root", root);
    let flags = crate_flags(inp, name, flags, &v)?;
    v.list("target_flags", flags.clone());
    Ok((v, flags))
}

/// One step of a crate with a template (a test library, a test binary, doctests, docs).
pub(super) fn compile(
    inp: &Inputs,
    t: &CmdTemplate,
    c: Parts,
    v: &Vars,
    kind: StepKind,
    clippy: bool,
) -> anyhow::Result<Step> {
    let cmd = crates::command(
        inp.ctx,
        t,
        &Unit {
            kind: ObjKind::Kernel,
            vars: v,
            skip_flags: c.skip_flags,
            skip_clippy: false,
            env: c.env,
        },
        clippy,
    )
    .map_err(|e| PlanError::Unsupported(e.to_string()))?;
    let id = fill(v, &t.id, c.name)?;
    let mut s = Step::new(id, kind, &super::rust_dir::tag_for(&t.tag, cmd.compiler));
    s.crate_name = Some(c.name.to_string());
    s.root = Some(fill(v, c.root, c.name)?);
    s.host = true;
    s.clippy = cmd.compiler == Compiler::ClippyDriver;
    s.outputs = t
        .outputs
        .iter()
        .map(|o| fill(v, o, c.name))
        .collect::<Result<_, _>>()?;
    s.depfile = (!t.depfile.is_empty())
        .then(|| fill(v, &t.depfile, c.name))
        .transpose()?;
    for a in c.after {
        s.deps.push(fill(v, a, c.name)?);
    }
    s.command = Some(super::command_of(inp, &cmd));
    Ok(s)
}

/// The steps of `make rusttest`, for the layout's `[rusttest]`; none where it has none.
pub(super) fn steps(inp: &Inputs, clippy: bool) -> anyhow::Result<Vec<Step>> {
    let Some(d) = &inp.ctx.vintage.rusttest else {
        return Err(PlanError::Unsupported(format!(
            "the {} layout does not describe `make rusttest`\n  fix: run the host tests with the kernel's make",
            inp.ctx.vintage
        ))
        .into());
    };
    let base = base_vars(inp);
    let mut out = vec![];
    for c in &d.crates {
        let (mut v, flags) = crate_vars(inp, &base, &c.name, &c.root, &c.flags)?;
        if c.kind != "test" {
            let (crate_type, file) = match c.kind.as_str() {
                "proc-macro" => ("proc-macro", format!("lib{}.so", c.name)),
                _ => ("rlib", format!("lib{}.rlib", c.name)),
            };
            v.set("crate_type", crate_type).set("lib_file", file);
            let mut s = compile(inp, &d.library, c.into(), &v, StepKind::TestLibrary, clippy)?;
            s.extra_flags = flags;
            out.push(s);
            continue;
        }
        let mut s = compile(inp, &d.test, c.into(), &v, StepKind::Test, clippy)?;
        s.extra_flags = flags;
        let binary = s.id.clone();
        out.push(s);
        let words = crate::layout::expand(&d.run, &v)
            .map_err(|e| PlanError::Unsupported(format!("rusttest.run: {e}")))?;
        let Some((prog, args)) = words.split_first() else {
            return Err(PlanError::Unsupported("rusttest.run is empty".into()).into());
        };
        let mut r = Step::new(run_id(&c.name), StepKind::TestRun, "TEST");
        r.crate_name = Some(c.name.clone());
        r.host = true;
        r.always = true;
        r.deps = vec![binary];
        r.command = Some(Command {
            env: vec![],
            program: prog.clone(),
            args: args.to_vec(),
            stdout: None,
        });
        let doc_after = r.id.clone();
        out.push(r);
        if let Some(doctest_flags) = &c.doctest {
            v.list("doctest_flags", doctest_flags.clone());
            let mut t = compile(inp, &d.doctest, c.into(), &v, StepKind::DocTest, false)?;
            t.always = true;
            // Kbuild runs them after the crate's own tests, in the same target.
            t.deps.push(doc_after);
            out.push(t);
        }
    }
    Ok(out)
}
