//! A build plan as rust-analyzer's crate graph: exactly the crates `rkbuild build` compiles,
//! with the cfgs, editions, crate attributes and environment of their real command lines.
//!
//! The in-tree graph ([`super::kernel`]) lists what the kernel's script would list: every
//! driver whose Makefile names it, switched on or not, with the same cfgs for all. A plan knows
//! more: which drivers this `.config` builds, which of them are modules (`--cfg MODULE`), and
//! each crate's own flags.
//!
//! The Rust library is handed over as `sysroot_src`, not listed crate by crate as the kernel's
//! script does: rust-analyzer (0.0.349 measured) gives `core` its lang-crate role only when it
//! loads the library itself, and without that role it cannot find the inherent methods of
//! primitive types (`str::len`, `bool::then_some`, pointer `cast`), which showed as E0599 in
//! every crate of the example tree. rust-analyzer adds `core`, `alloc` and `std` to every crate
//! and `proc_macro` to proc macros, as rustc does.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use super::graph::{CrateGraph, CrateSpec, Role, LIBRARY_CRATES};
use super::kernel::RUST_MODFILE;
use crate::plan::{Plan, Step, StepKind};
use crate::wrapper::args::{self, CrateArgs};

/// Environment variables of a command that rust-analyzer needs for `env!`/`include!`.
const KEPT_ENV: &[&str] = &["OBJTREE", "RUST_MODFILE"];

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FromPlanError {
    #[error("{step}: cannot read the arguments of its command: {why}\n  fix: run `rkbuild config` (or `rkbuild build`) for this tree first")]
    Args { step: String, why: String },
    #[error("crate `{krate}` uses `{dep}`, which the plan does not build before it and the Rust library does not have")]
    UnknownDep { krate: String, dep: String },
}

/// Where the toolchain and its library are.
#[derive(Clone, Debug)]
pub struct Sysroot {
    /// `rustc --print sysroot`.
    pub sysroot: PathBuf,
    /// The library source (`RUST_LIB_SRC`).
    pub src: PathBuf,
}

/// The crate graph of `plan`, in the plan's order (every crate after what it uses). `expand`
/// turns a command's arguments into the ones rustc sees (`@argfile`s read), so the function
/// itself reads no file.
pub fn graph_from_plan(
    plan: &Plan,
    sysroot: &Sysroot,
    expand: impl Fn(&[String]) -> Result<Vec<String>, String>,
) -> Result<CrateGraph, FromPlanError> {
    let mut crates = vec![];
    let mut listed: HashSet<String> = HashSet::new();
    for step in &plan.steps {
        let (Some(cmd), Some(name), StepKind::Library | StepKind::ProcMacro | StepKind::Driver) =
            (&step.command, &step.crate_name, step.kind)
        else {
            continue;
        };
        let root = plan.objtree.join(step.root.as_deref().unwrap_or_default());
        if root.starts_with(&sysroot.src) {
            continue;
        }
        let expanded = expand(&cmd.args).map_err(|why| FromPlanError::Args {
            step: step.id.clone(),
            why,
        })?;
        let args = args::parse(&expanded);
        let mut deps = vec![];
        for e in &step.externs {
            if listed.contains(e) {
                deps.push(e.clone());
            } else if !LIBRARY_CRATES.contains(&e.as_str()) {
                return Err(FromPlanError::UnknownDep {
                    krate: name.clone(),
                    dep: e.clone(),
                });
            }
        }
        if step.kind != StepKind::Driver {
            listed.insert(name.clone());
        }
        crates.push(spec(plan, step, &args, name.clone(), root, deps));
    }
    let mut g = CrateGraph {
        crates,
        ..CrateGraph::default()
    };
    // Nothing of the library is listed; this names it.
    g.library_as_sysroot_src(&sysroot.sysroot, &sysroot.src);
    Ok(g)
}

fn spec(
    plan: &Plan,
    step: &Step,
    args: &CrateArgs,
    name: String,
    root: PathBuf,
    deps: Vec<String>,
) -> CrateSpec {
    let role = match step.kind {
        StepKind::Driver => Role::Driver,
        _ if step.host => Role::Host,
        _ => Role::Kernel,
    };
    let mut env = BTreeMap::from([("RUST_MODFILE".to_string(), RUST_MODFILE.to_string())]);
    for (k, v) in step.command.iter().flat_map(|c| &c.env) {
        if KEPT_ENV.contains(&k.as_str()) {
            env.insert(k.clone(), v.clone());
        }
    }
    // A crate in a folder of its own that Kbuild gives OBJTREE `include!`s generated files
    // from OBJTREE/rust (bindings, uapi, kernel): rust-analyzer must see both folders.
    let own_dir = root
        .parent()
        .filter(|p| p.file_name() != Some("rust".as_ref()));
    let source = match (env.get("OBJTREE"), own_dir, role) {
        (Some(o), Some(dir), Role::Kernel) => {
            Some((vec![dir.to_path_buf(), Path::new(o).join("rust")], vec![]))
        }
        _ => None,
    };
    let proc_macro_dylib = (step.kind == StepKind::ProcMacro).then(|| {
        let out = args
            .emit("link")
            .map(String::from)
            .or_else(|| step.outputs.first().cloned())
            .unwrap_or_default();
        plan.objtree.join(out)
    });
    CrateSpec {
        name,
        root,
        edition: args.edition.clone().unwrap_or_else(|| "2015".into()),
        deps,
        cfg: args.cfgs.clone(),
        env,
        crate_attrs: args.crate_attrs.clone(),
        proc_macro_dylib,
        workspace_member: true,
        source,
        role,
    }
}

/// Reads `@argfile`s relative to the object tree, where the plan's commands run.
pub fn expand_in(objtree: &Path) -> impl Fn(&[String]) -> Result<Vec<String>, String> + '_ {
    move |a| {
        let (out, missing) = args::expand_argfiles(a, objtree);
        match missing.first() {
            Some(m) => Err(m.clone()),
            None => Ok(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyzer::ProcMacroKey;
    use crate::flags::BuildAssert;
    use crate::layout::Layout;
    use crate::plan::Command;
    use crate::tree::Arch;

    fn step(id: &str, kind: StepKind, name: &str, root: &str, externs: &[&str]) -> Step {
        let mut s = Step::new(id, kind, "RUSTC");
        s.crate_name = Some(name.into());
        s.root = Some(root.into());
        s.externs = externs.iter().map(|e| e.to_string()).collect();
        s.outputs = vec![id.into()];
        s.command = Some(Command {
            env: vec![],
            program: "rustc".into(),
            args: vec!["--edition=2021".into(), "@cfgs".into(), root.into()],
            stdout: None,
        });
        s
    }

    fn plan(steps: Vec<Step>) -> Plan {
        Plan {
            vintage: Layout::builtin("6.12"),
            arch: Arch::X86_64,
            srctree: "/src".into(),
            objtree: "/obj".into(),
            build_assert: BuildAssert::Allow,
            steps,
            skipped: vec![],
            prebuilt: vec![],
            tools: BTreeMap::new(),
        }
    }

    fn sysroot() -> Sysroot {
        Sysroot {
            sysroot: "/usr".into(),
            src: "/usr/src/rustc/library".into(),
        }
    }

    /// `@cfgs` stands for rustc_cfg; a driver built as a module adds `--cfg MODULE`.
    fn expand(a: &[String]) -> Result<Vec<String>, String> {
        Ok(a.iter()
            .flat_map(|x| match x.as_str() {
                "@cfgs" => vec!["--cfg=CONFIG_RUST".to_string()],
                _ => vec![x.clone()],
            })
            .collect())
    }

    fn example() -> Plan {
        let mut macros = step(
            "rust/libmacros.so",
            StepKind::ProcMacro,
            "macros",
            "/src/rust/macros/lib.rs",
            &["proc_macro"],
        );
        macros.host = true;
        macros.command.as_mut().unwrap().args = vec![
            "--edition=2021".into(),
            "--emit=link=rust/libmacros.so".into(),
            "--crate-type".into(),
            "proc-macro".into(),
            "/src/rust/macros/lib.rs".into(),
        ];
        let mut kernel = step(
            "rust/kernel.o",
            StepKind::Library,
            "kernel",
            "/src/rust/kernel/lib.rs",
            &["macros"],
        );
        kernel.command.as_mut().unwrap().env = vec![("OBJTREE".into(), "/obj".into())];
        let mut hello = step(
            "drivers/hello.o",
            StepKind::Driver,
            "hello",
            "/src/drivers/hello.rs",
            &["kernel"],
        );
        let cmd = hello.command.as_mut().unwrap();
        cmd.args.extend([
            "--cfg".into(),
            "MODULE".into(),
            "-Zcrate-attr=no_std".into(),
        ]);
        cmd.env = vec![("RUST_MODFILE".into(), "drivers/hello".into())];
        plan(vec![
            step(
                "rust/core.o",
                StepKind::Library,
                "core",
                "/usr/src/rustc/library/core/src/lib.rs",
                &[],
            ),
            macros,
            kernel,
            Step::new(
                "rust/exports_kernel_generated.h",
                StepKind::Exports,
                "EXPORTS",
            ),
            hello,
        ])
    }

    #[test]
    fn crates_come_from_the_commands() {
        let g = graph_from_plan(&example(), &sysroot(), expand).unwrap();
        let names: Vec<&str> = g.crates.iter().map(|c| c.name.as_str()).collect();
        // core is the library's: rust-analyzer loads it from sysroot_src.
        assert_eq!(names, ["macros", "kernel", "hello"]);
        assert_eq!(
            g.sysroot_src.as_deref(),
            Some(Path::new("/usr/src/rustc/library"))
        );
        assert_eq!(
            g.sysroot, None,
            "a library from elsewhere is not the sysroot's"
        );

        let macros = &g.crates[0];
        assert_eq!(
            macros.deps,
            Vec::<String>::new(),
            "proc_macro comes with the sysroot"
        );
        assert_eq!(
            macros.proc_macro_dylib.as_deref(),
            Some(Path::new("/obj/rust/libmacros.so"))
        );
        assert_eq!(macros.role, Role::Host);

        let kernel = &g.crates[1];
        assert_eq!(kernel.deps, ["macros"]);
        assert_eq!(kernel.cfg, ["CONFIG_RUST"]);
        assert_eq!(kernel.env["OBJTREE"], "/obj");
        assert_eq!(
            kernel.source,
            Some((
                vec![
                    PathBuf::from("/src/rust/kernel"),
                    PathBuf::from("/obj/rust")
                ],
                vec![]
            ))
        );

        let hello = &g.crates[2];
        assert_eq!(hello.cfg, ["CONFIG_RUST", "MODULE"]);
        assert_eq!(hello.crate_attrs, ["no_std"]);
        assert_eq!(hello.env["RUST_MODFILE"], "drivers/hello");
        assert_eq!(hello.role, Role::Driver);
        assert_eq!(hello.source, None);

        let p = g
            .to_project_json(ProcMacroKey::for_vintage(Layout::builtin("6.12")))
            .unwrap();
        assert_eq!(p.crates[2].deps[0].krate, 1);
        assert_eq!(p.crates[0].is_proc_macro, Some(true));
        assert_eq!(p.crates[1].is_proc_macro, Some(false));
    }

    #[test]
    fn unknown_externs_and_unreadable_argfiles_are_errors() {
        let mut p = example();
        p.steps[2].externs.push("pin_init".into());
        let e = graph_from_plan(&p, &sysroot(), expand).unwrap_err();
        assert_eq!(
            e,
            FromPlanError::UnknownDep {
                krate: "kernel".into(),
                dep: "pin_init".into()
            }
        );
        let e = graph_from_plan(&example(), &sysroot(), |_| Err("cfgs: gone".into()))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("rust/libmacros.so") && e.contains("rkbuild config"),
            "{e}"
        );
    }
}
