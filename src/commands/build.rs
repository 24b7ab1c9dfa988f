//! `rkbuild build`: runs `config` when its outputs are out of date, detects the tools, makes
//! the plan and runs it. `rkbuild plan` stops before running.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::{canonical, config, rustc_for, Tree, TreeOpts};
use crate::exec;
use crate::output::Out;
use crate::plan::{self, Plan};
use crate::process::Process;
use crate::toolchain::{self, FIX_CLIPPY};
use crate::tree::Arch;

/// Options of `build` and `plan`.
#[derive(Clone, Debug, Default)]
pub struct BuildOpts {
    pub tree: TreeOpts,
    /// `-j N`; default: the number of cores.
    pub jobs: Option<usize>,
    pub clippy: bool,
    /// The host C compiler proc macros link with (`HOSTCC`).
    pub hostcc: Option<String>,
}

/// Where the bindgen C flags came from.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CFlags {
    pub flags: Vec<String>,
    pub source: String,
}

/// bindgen's `--target` for clang, per architecture (`BINDGEN_TARGET_$(SRCARCH)`).
pub fn bindgen_target(arch: Arch) -> &'static str {
    match arch {
        Arch::X86_64 => "x86_64-linux-gnu",
        Arch::X86 => "i386-linux-gnu",
        Arch::Arm64 => "aarch64-linux-gnu",
        Arch::Arm => "arm-linux-gnueabi",
        Arch::Riscv64 => "riscv64-linux-gnu",
        Arch::Riscv32 => "riscv32-linux-gnu",
        Arch::Powerpc64 => "powerpc64le-linux-gnu",
        Arch::Powerpc => "powerpc-linux-gnu",
        Arch::Loongarch64 => "loongarch64-linux-gnusf",
        Arch::S390 => "s390x-linux-gnu",
    }
}

/// The C flags bindgen needs. A kernel whose C side was prepared by make recorded them in the
/// `.cmd` file of `asm-offsets.s` (compiled by `make prepare` with the kernel's `c_flags`):
/// those are used, minus the per-object parts. A tree without a C build (like the bundled
/// example) gets the include folders, `-D__KERNEL__` and the target.
pub fn bindgen_c_flags(tree: &Tree, srctree: &str) -> anyhow::Result<CFlags> {
    let srcarch = tree.arch.srcarch();
    let cmd = tree
        .objtree
        .join(format!("arch/{srcarch}/kernel/.asm-offsets.s.cmd"));
    if let Ok(text) = std::fs::read_to_string(&cmd) {
        let line = text
            .lines()
            .find_map(|l| {
                l.split_once(" := ")
                    .filter(|(k, _)| k.starts_with("savedcmd_"))
                    .map(|(_, v)| v)
            })
            .with_context(|| format!("`{}` holds no savedcmd line", cmd.display()))?;
        let words = shlex::split(line)
            .with_context(|| format!("cannot split the command in `{}`", cmd.display()))?;
        let mut flags = vec![];
        let mut it = words.into_iter().skip(1).peekable();
        while let Some(w) = it.next() {
            if w == "-o" {
                it.next();
                continue;
            }
            let per_object = w.starts_with("-Wp,-MMD,")
                || w.starts_with("-DKBUILD_MODFILE=")
                || w.starts_with("-DKBUILD_BASENAME=")
                || w.starts_with("-DKBUILD_MODNAME=")
                || w.starts_with("-D__KBUILD_MODNAME=")
                || w == "-S"
                || w == "-c"
                || w == "-fverbose-asm"
                || w.ends_with("asm-offsets.c");
            // The folder's own include paths (`-I$(srctree)/$(src) -I$(obj)`, added for O=
            // builds) become rust/'s. asm-offsets is built from the top Kbuild (`.`) in 6.12.
            let folders = [".".to_string(), format!("arch/{srcarch}/kernel")];
            if folders.iter().any(|f| w == format!("-I{srctree}/{f}")) {
                flags.push(format!("-I{srctree}/rust"));
                continue;
            }
            if folders
                .iter()
                .any(|f| w == format!("-I{f}") || w == format!("-I./{f}"))
            {
                flags.push("-Irust".into());
                continue;
            }
            if !per_object {
                flags.push(w);
            }
        }
        return Ok(CFlags {
            flags,
            source: format!("recorded by make in {}", cmd.display()),
        });
    }
    let mut flags = vec!["-nostdinc".to_string()];
    let arch_inc = format!("arch/{srcarch}/include");
    if Path::new(srctree).join(&arch_inc).is_dir() {
        flags.push(format!("-I{srctree}/{arch_inc}"));
    }
    flags.extend([
        format!("-I{srctree}/include"),
        "-I./include".into(),
        format!("-I{srctree}/include/uapi"),
        "-D__KERNEL__".into(),
        format!("--target={}", bindgen_target(tree.arch)),
    ]);
    Ok(CFlags {
        flags,
        source: "the tree's include folders (no C build recorded by make)".into(),
    })
}

fn find_objcopy() -> anyhow::Result<PathBuf> {
    if let Some(o) = std::env::var_os("OBJCOPY").filter(|o| !o.is_empty()) {
        let name = o.to_string_lossy().into_owned();
        return toolchain::resolve(&name, "objcopy", Some("OBJCOPY"), FIX_OBJCOPY)
            .map_err(Into::into);
    }
    for name in ["llvm-objcopy", "llvm-objcopy-19", "llvm-objcopy-14"] {
        if let Ok(p) = which::which(name) {
            return Ok(p);
        }
    }
    toolchain::resolve("llvm-objcopy", "objcopy", None, FIX_OBJCOPY).map_err(Into::into)
}

const FIX_OBJCOPY: &str = "`apt-get install llvm` (llvm-objcopy), or set OBJCOPY=/path/to/objcopy";

/// Everything `build` needs, detected.
pub struct Prepared {
    pub tree: Tree,
    pub plan: Plan,
    pub objcopy: PathBuf,
    pub cflags: CFlags,
    pub config: config::ConfigReport,
}

/// Runs `config`, detects the tools and makes the plan.
pub fn prepare(opts: &BuildOpts) -> anyhow::Result<Prepared> {
    let mut topts = opts.tree.clone();
    if topts.srctree.is_none() {
        topts.srctree = Some(PathBuf::from("."));
    }
    let tree = Tree::open(&topts)?;
    tree.require_rust()?;
    let tools = topts.tools.clone().with_env();
    let rustc = rustc_for(&tree, &tools)?;
    let sysroot = toolchain::sysroot(&rustc.path, &tree.krustflags)?;
    let lib_src = toolchain::rust_lib_src(&tools, &sysroot);
    toolchain::check_rust_lib_src(&lib_src)?;
    let bindgen = toolchain::detect_bindgen(&tools)?;
    if let Err(why) = &bindgen.info.libclang {
        bail!(
            "bindgen `{}` cannot run: {why}\n  fix: set LIBCLANG_PATH to the folder holding libclang.so (e.g. /usr/lib/llvm-14/lib)",
            bindgen.path.display()
        );
    }
    let mut tool_ids = BTreeMap::new();
    let rustc_path = rustc.path.display().to_string();
    tool_ids.insert(rustc_path.clone(), serde_json::to_string(&rustc.info)?);
    let bindgen_path = bindgen.path.display().to_string();
    tool_ids.insert(bindgen_path.clone(), serde_json::to_string(&bindgen.info)?);
    let clippy_driver = if opts.clippy {
        let c = toolchain::detect_simple(
            tools.clippy_driver.as_deref(),
            "clippy-driver",
            "clippy",
            "clippy-driver",
            "CLIPPY_DRIVER",
            FIX_CLIPPY,
        )?;
        let p = c.path.display().to_string();
        let vv = Process::new(&c.path).arg("-vV").output()?;
        tool_ids.insert(p.clone(), format!("{} / {}", c.info, vv.stdout.trim()));
        Some(p)
    } else {
        None
    };
    let objcopy = find_objcopy()?;
    // Every tool is there: now write rustc_cfg, the flags and the target spec (each only if
    // its content changed, so a no-op build touches nothing).
    let report = config::run(&topts)?;
    let srctree_abs = canonical(topts.srctree.as_ref().expect("set above"));
    std::fs::create_dir_all(&tree.objtree)
        .with_context(|| format!("cannot create `{}`", tree.objtree.display()))?;
    let objtree_abs = canonical(&tree.objtree);
    let has_remap = false;
    let ctx = tree.ctx(&rustc.info, has_remap);
    let cflags = bindgen_c_flags(&tree, &ctx.srctree)?;
    let hostcc = opts
        .hostcc
        .clone()
        .or_else(|| std::env::var("HOSTCC").ok().filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "cc".into());
    let inputs = plan::Inputs {
        ctx: &ctx,
        srctree: &srctree_abs,
        objtree: &objtree_abs,
        objtree_abs: objtree_abs.display().to_string(),
        lib_src: lib_src.display().to_string(),
        rustc: rustc_path,
        clippy_driver,
        bindgen: bindgen_path,
        hostcc,
        hostldflags: " ".into(),
        bindgen_c_flags: cflags.flags.clone(),
        tools: tool_ids,
    };
    let plan = plan::make(&inputs, opts.clippy)?;
    drop(ctx);
    Ok(Prepared {
        tree,
        plan,
        objcopy,
        cflags,
        config: report,
    })
}

/// Runs `build`.
pub fn run(opts: &BuildOpts, out: Out) -> anyhow::Result<exec::Summary> {
    let p = prepare(opts)?;
    for w in &p.config.warnings {
        out.warn(w);
    }
    for f in &p.config.files {
        if f.status != crate::fsutil::WriteOutcome::Unchanged {
            let shown = f
                .path
                .strip_prefix(&p.tree.objtree)
                .unwrap_or(&f.path)
                .display()
                .to_string();
            out.status("UPD", &shown);
        }
    }
    let jobs = opts
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let summary = exec::run(
        &p.plan,
        &exec::Options {
            jobs,
            out,
            cfg: &p.tree.cfg,
            objcopy: p.objcopy.clone(),
        },
    )
    .map_err(anyhow::Error::new)?;
    Ok(summary)
}
