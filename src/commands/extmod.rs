//! `rkbuild build -M DIR`: an external module against a kernel object tree whose `rust/` is
//! built (by rkbuild or by the kernel's make). rkbuild compiles the module's Rust objects with
//! Kbuild's exact commands, writes the lists Makefile.build writes (`modules.order`,
//! `foo.mod`), then the kernel's own make runs modpost and the final link (`foo.mod.o`,
//! `foo.ko`) with its compile phase marked done, so it takes rkbuild's objects as they are.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::build::{find_objcopy, BuildOpts};
use super::{canonical, BuildContext};
use crate::exec;
use crate::output::{Message, Out};
use crate::plan::{self, extmod::Extmod, Plan};
use crate::process::Process;
use crate::toolchain::kbuild_names::{kbuild_tools, MakeVars};

/// Everything an external module build needs, detected and planned.
pub struct Prepared {
    /// The kernel's object tree.
    pub objtree: PathBuf,
    pub plan: Plan,
    pub ext: Extmod,
    pub objcopy: PathBuf,
    pub cfg: crate::kconfig::DotConfig,
    make: Process,
}

/// Plans the module in `dir` against the object tree of `opts`.
pub fn prepare(opts: &BuildOpts, dir: &Path) -> anyhow::Result<Prepared> {
    let mut topts = opts.tree.clone();
    let objtree = topts.objtree.clone().unwrap_or_else(|| PathBuf::from("."));
    if topts.srctree.is_none() {
        // A kernel object tree (`O=`) links its source tree as `source`.
        let link = objtree.join("source");
        topts.srctree = Some(if link.join("Makefile").is_file() {
            link
        } else {
            objtree.clone()
        });
    }
    topts.objtree = Some(objtree.clone());
    let dir = std::fs::canonicalize(dir).with_context(|| {
        format!(
            "the module folder `{}` does not exist\n  fix: pass the folder holding the module's Kbuild (or Makefile) as -M",
            dir.display()
        )
    })?;
    let mut bc = BuildContext::open(&topts)?;
    bc.tree.require_rust()?;
    let desc = plan::extmod::desc(bc.tree.vintage)?;
    let kernel = objtree.join("rust/libkernel.rmeta");
    if !kernel.is_file() {
        bail!(
            "`{}` has no built `kernel` crate ({} is missing): a module is built against the kernel's rust/\n  fix: build the kernel's Rust side first: `rkbuild build -O {}` (or the kernel's `make`)",
            objtree.display(),
            kernel.display(),
            objtree.display()
        );
    }
    let rustc = bc.rustc()?;
    let make_vars = MakeVars::from_env();
    let objcopy = find_objcopy(&make_vars, true)?;
    let mut tools = std::collections::BTreeMap::new();
    let rustc_path = rustc.path.display().to_string();
    tools.insert(rustc_path.clone(), serde_json::to_string(&rustc.info)?);
    let clippy_driver = if opts.clippy {
        let (p, id) = bc.toolchain.clippy_driver()?;
        tools.insert(p.clone(), id);
        Some(p)
    } else {
        None
    };
    let objtree_abs = canonical(&objtree);
    let srctree_abs = canonical(topts.srctree.as_ref().expect("set above"));
    // The module is built in its own folder (`MO` = `M`): Kbuild does not count that as out of
    // the source tree, so no source paths are remapped.
    let BuildContext {
        tree,
        mut toolchain,
    } = bc;
    let mut ctx = tree.ctx(&rustc.info, false);
    ctx.out_of_srctree = false;
    // The module's commands spell the object tree as Kbuild does for `M=`.
    let spell = plan::extmod::vars(&dir, &objtree_abs.display().to_string(), &ctx.srctree);
    ctx.objtree = spell
        .fill(&desc.objtree)
        .map_err(|e| anyhow::anyhow!("extmod: {e}"))?;
    // The kernel's C flags (for C parts), as make recorded them, and its linker (for modules
    // of several objects), as its vmlinux.o link recorded it.
    let cflags = super::build::bindgen_c_flags(&tree, &ctx.srctree, &ctx)?;
    let cc = cflags.recorded.then(|| kbuild_tools(&make_vars).cc);
    let module_c_flags = match &cc {
        Some(cc) => super::build::module_c_flags(&ctx, cc, &cflags.flags, &mut toolchain)?,
        None => vec![],
    };
    toolchain.save(&tree.objtree)?;
    let kernel_ld = recorded_ld(&objtree_abs);
    let hostcc = opts
        .hostcc
        .clone()
        .unwrap_or_else(|| kbuild_tools(&make_vars).hostcc);
    let inputs = plan::Inputs {
        ctx: &ctx,
        srctree: &srctree_abs,
        objtree: &objtree_abs,
        objtree_abs: objtree_abs.display().to_string(),
        lib_src: String::new(),
        rustc: rustc_path.clone(),
        clippy_driver,
        bindgen: String::new(),
        hostcc,
        hostldflags: " ".into(),
        bindgen_c_flags: cflags.flags.clone(),
        cc,
        module_c_flags,
        kernel_ld,
        bindgen_target: tree.arch.bindgen_target().to_string(),
        tools,
    };
    let (plan, ext) = plan::extmod::make(&inputs, &dir, opts.clippy)?;
    let make = kernel_make(
        &ext.make_dir,
        &ext.make_args,
        &objtree_abs,
        tree.arch.srcarch(),
        &rustc_path,
        &make_vars,
    );
    let cfg = tree.cfg.clone();
    Ok(Prepared {
        objtree: objtree_abs,
        plan,
        ext,
        objcopy,
        cfg,
        make,
    })
}

/// Builds the module: its objects, then the `.ko` through the kernel's modpost and link.
pub fn run(opts: &BuildOpts, dir: &Path, out: Out) -> anyhow::Result<exec::Summary> {
    let p = prepare(opts, dir)?;
    let symvers = p.objtree.join("Module.symvers");
    if !symvers.is_file() {
        bail!(
            "`{}` has no Module.symvers: the kernel there is not built, so modpost cannot check the module's symbols\n  fix: build the kernel first (`make` in {}: vmlinux and modules)",
            p.objtree.display(),
            p.objtree.display()
        );
    }
    // Makefile.build's lists first: a module of several objects is linked from its `foo.mod`.
    for (path, text) in &p.ext.lists {
        crate::fsutil::write_if_changed(path, text.as_bytes())?;
    }
    let summary = super::build::run_plan(&p.plan, opts, &p.cfg, &p.objcopy, out)?;
    final_link(&p.make, out)?;
    for m in &p.ext.modules {
        if !m.is_file() {
            bail!(
                "the kernel's make did not write `{}`\n  fix: run `{}` by hand to see why",
                m.display(),
                p.make
            );
        }
    }
    Ok(summary)
}

/// Runs the kernel's make for modpost and the final link; its quiet lines become rkbuild's.
pub(super) fn final_link(make: &Process, out: Out) -> anyhow::Result<()> {
    let o = make.output()?;
    if !o.success() {
        bail!(
            "the kernel's modpost and link failed (`{make}`):\n{}\n  fix: a symbol a module uses must be exported by the kernel it is built against; rebuild the kernel if its configuration changed",
            o.tail(25)
        );
    }
    for line in o.stdout.lines() {
        if let Some((tag, subject)) = kbuild_line(line) {
            out.say(Message::Status { tag, subject });
        }
    }
    for w in o.stderr.lines().filter(|l| !l.trim().is_empty()) {
        out.say(Message::Warning { text: w, at: None });
    }
    Ok(())
}

/// The kernel's make, in `dir`, with the tools and variables the build used.
pub(super) fn kernel_make(
    dir: &Path,
    args: &[String],
    objtree: &Path,
    srcarch: &str,
    rustc: &str,
    vars: &MakeVars,
) -> Process {
    // The tools the kernel was configured with, as Kbuild recorded them: any other spelling
    // (rustc for the wrapper that ran it, `x86` for `x86_64`) makes make sync the configuration
    // again, with that tool's answers.
    let recorded = recorded_vars(objtree);
    let get = |k: &str, ours: String| {
        recorded
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or(ours)
    };
    let mut make = Process::new("make")
        .cwd(dir)
        .args(args)
        .arg(format!("O={}", objtree.display()))
        .arg(format!("ARCH={}", get("ARCH", srcarch.to_string())))
        .arg(format!("RUSTC={}", get("RUSTC", rustc.to_string())));
    if let Some((_, b)) = recorded.iter().find(|(n, _)| n == "BINDGEN") {
        make = make.arg(format!("BINDGEN={b}"));
    }
    for (k, v) in vars.given() {
        make = make.arg(format!("{k}={v}"));
    }
    make
}

/// The linker and KBUILD_LDFLAGS of a built kernel, from its `vmlinux.o` link
/// (`$(LD) $(KBUILD_LDFLAGS) -r -o vmlinux.o …`).
fn recorded_ld(objtree: &Path) -> Option<(String, Vec<String>)> {
    let text = std::fs::read_to_string(objtree.join(".vmlinux.o.cmd")).ok()?;
    let cmd = text.lines().next()?.split_once(" := ")?.1;
    let words = shlex::split(cmd)?;
    let r = words.iter().position(|w| w == "-r")?;
    let (ld, flags) = words[..r].split_first()?;
    Some((ld.clone(), flags.to_vec()))
}

/// `ARCH`, `RUSTC` and `BINDGEN` as the configuration was made with them
/// (`include/config/auto.conf.cmd`: `ifneq "$(RUSTC)" "…"`).
fn recorded_vars(objtree: &Path) -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(objtree.join("include/config/auto.conf.cmd")).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("ifneq \"$(")?;
            let (name, rest) = rest.split_once(")\" \"")?;
            let value = rest.strip_suffix('"')?;
            ["ARCH", "RUSTC", "BINDGEN"]
                .contains(&name)
                .then(|| (name.to_string(), value.to_string()))
        })
        .collect()
}

/// A quiet line's tag and subject: Kbuild prints `  %-7s %s` (`  LD [M]  foo.ko`).
fn kbuild_line(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("  ")?;
    let (tag, subject) = (rest.get(..7)?.trim(), rest.get(8..)?.trim());
    (!tag.is_empty() && !subject.is_empty()).then_some((tag, subject))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_configured_tools_are_read_from_auto_conf_cmd() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("include/config")).unwrap();
        std::fs::write(
            d.path().join("include/config/auto.conf.cmd"),
            "ifneq \"$(ARCH)\" \"x86_64\"\ninclude/config/auto.conf: FORCE\nendif\nifneq \"$(CC)\" \"clang-22\"\nifneq \"$(RUSTC)\" \"/b/rkbuild-rustc\"\n",
        )
        .unwrap();
        assert_eq!(
            super::recorded_vars(d.path()),
            [
                ("ARCH".to_string(), "x86_64".to_string()),
                ("RUSTC".to_string(), "/b/rkbuild-rustc".to_string())
            ]
        );
    }

    #[test]
    fn quiet_lines_split_into_tag_and_subject() {
        assert_eq!(
            super::kbuild_line("  LD [M]  rust_hello.ko"),
            Some(("LD [M]", "rust_hello.ko"))
        );
        assert_eq!(
            super::kbuild_line("  MODPOST Module.symvers"),
            Some(("MODPOST", "Module.symvers"))
        );
        assert_eq!(super::kbuild_line("make[1]: Entering directory"), None);
    }
}
