//! `rkbuild build -M DIR`: an external module against a kernel object tree whose `rust/` is
//! built (by rkbuild or by the kernel's make). rkbuild compiles the module's Rust objects with
//! Kbuild's exact commands, writes the lists Makefile.build writes (`modules.order`,
//! `foo.mod`), then the kernel's own make runs modpost and the final link (`foo.mod.o`,
//! `foo.ko`) with its compile phase marked done, so it takes rkbuild's objects as they are.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::build::{find_objcopy, BuildOpts};
use super::kernel_make::{final_link, kernel_make, recorded_ld};
use super::{canonical, BuildContext};
use crate::exec;
use crate::output::Out;
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
    crate::fsutil::check_path_text(&dir, "module folder (-M)")?;
    // The kernel's make links the module (M=), and Kbuild refuses these in M=.
    let text = dir.display().to_string();
    if let Some(c) = text
        .chars()
        .find(|c| c.is_whitespace() || *c == ':' || *c == '%')
    {
        bail!(
            "the module folder {text:?} holds {c:?}: the kernel's make, which links the module, refuses external module folders with spaces, `:` or `%` (Kbuild's M= check)\n  fix: move the module to a folder whose path has none"
        );
    }
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
    let make_vars = MakeVars::for_objtree(&objtree);
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
        rustdoc: None,
        bindgen: String::new(),
        hostcc,
        hostldflags: " ".into(),
        bindgen_c_flags: cflags.flags.clone(),
        cc,
        module_c_flags,
        kernel_ld,
        bindgen_target: tree.arch.bindgen_target().to_string(),
        tools,
        bindgen_version: None,
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
