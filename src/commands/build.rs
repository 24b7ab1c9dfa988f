//! `rkbuild build`: runs `config` when its outputs are out of date, detects the tools, makes
//! the plan and runs it. `rkbuild plan` stops before running.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::{canonical, config, Tree, TreeOpts};
use crate::exec;
use crate::layout::Facts;
use crate::output::{Message, Out};
use crate::plan::{self, Plan};
use crate::process::Process;
use crate::toolchain::kbuild_names::{kbuild_tools, MakeVars};
use crate::toolchain::{self, FIX_BINDGEN, FIX_CLIPPY};

/// Options of `build` and `plan`.
#[derive(Clone, Debug, Default)]
pub struct BuildOpts {
    pub tree: TreeOpts,
    /// `-j N`; default: the number of cores.
    pub jobs: Option<usize>,
    pub clippy: bool,
    /// The host C compiler proc macros link with (`HOSTCC`).
    pub hostcc: Option<String>,
    /// Run the kernel's make for the C side rkbuild needs when the object tree lacks it
    /// (`build`); `plan` only says the C flags are pending.
    pub prepare_c: bool,
}

/// Where the bindgen C flags came from.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CFlags {
    pub flags: Vec<String>,
    pub source: String,
    /// Recorded by the kernel's make (the kernel's own flags, not a stand-in).
    pub recorded: bool,
    /// A kernel tree whose C side make has not prepared yet: the flags are not known, and
    /// the bindgen commands hold a placeholder (`rkbuild build` runs make first).
    pub pending: bool,
}

/// The make targets that prepare the C side of a kernel object tree: `prepare0` (generated
/// headers, asm-offsets, whose recorded command carries the kernel's C flags) and, where the
/// configuration runs objtool, `tools/objtool`. Each with the file that shows it is done.
pub fn c_prerequisites(tree: &Tree) -> Vec<(&'static str, PathBuf)> {
    let mut out = vec![("prepare0", empty_o_cmd(tree))];
    if tree.cfg.enabled("OBJTOOL") {
        out.push(("tools/objtool", tree.objtree.join("tools/objtool/objtool")));
    }
    out
}

/// The prerequisites make has not made yet.
fn missing_c_prerequisites(tree: &Tree) -> Vec<&'static str> {
    c_prerequisites(tree)
        .into_iter()
        .filter(|(_, done)| !done.is_file())
        .map(|(t, _)| t)
        .collect()
}

/// The recorded command of asm-offsets, where make keeps the kernel's C flags.
fn asm_offsets_cmd(tree: &Tree) -> PathBuf {
    tree.objtree.join(format!(
        "arch/{}/kernel/.asm-offsets.s.cmd",
        tree.arch.srcarch()
    ))
}

/// The recorded command of `scripts/mod/empty.o`, a C object prepare0 builds.
fn empty_o_cmd(tree: &Tree) -> PathBuf {
    tree.objtree.join("scripts/mod/.empty.o.cmd")
}

/// The layout's `c_flags_prepare` words for this configuration, with `{asm_offset:X}` read
/// from `include/generated/asm-offsets.h`.
fn prepare_c_flags(tree: &Tree, facts: &dyn Facts) -> anyhow::Result<Vec<String>> {
    let mut out = vec![];
    for g in tree
        .vintage
        .c_flags_prepare
        .iter()
        .filter(|g| g.when.holds(facts))
    {
        for w in &g.value {
            let mut w = w.clone();
            while let Some(i) = w.find("{asm_offset:") {
                let j = i + w[i..].find('}').context("unclosed `{asm_offset:`")?;
                let name = w[i + 12..j].to_string();
                let h = tree.objtree.join("include/generated/asm-offsets.h");
                let text = std::fs::read_to_string(&h)
                    .with_context(|| format!("cannot read `{}`", h.display()))?;
                let value = text
                    .lines()
                    .find_map(|l| {
                        let mut it = l.split_whitespace();
                        (it.next() == Some("#define") && it.next() == Some(name.as_str()))
                            .then(|| it.next().map(String::from))
                            .flatten()
                    })
                    .with_context(|| format!("`{}` defines no {name}", h.display()))?;
                w.replace_range(i..=j, &value);
            }
            out.push(w);
        }
    }
    Ok(out)
}

/// A real kernel source tree (Kbuild's own scripts), as opposed to a Rust-only tree such as the
/// bundled example.
fn is_kernel_tree(srctree: &Path) -> bool {
    srctree.join("scripts/Makefile.build").is_file() && srctree.join("Kbuild").is_file()
}

/// The tool variables Kbuild is given, as make's command line.
pub struct MakeTools<'a> {
    pub rustc: &'a Path,
    pub bindgen: &'a Path,
    pub lib_src: &'a Path,
    pub jobs: usize,
}

/// Runs the kernel's own make for `targets` ([`c_prerequisites`]) in the object tree, with the
/// same configuration, architecture and tools; its syncconfig may update the `.config` as
/// Kbuild always does.
fn make_c_side(
    tree: &Tree,
    srctree: &Path,
    targets: &[&str],
    t: &MakeTools,
    vars: &MakeVars,
) -> anyhow::Result<()> {
    let objtree = canonical(&tree.objtree);
    let mut p = Process::new("make")
        .arg("-C")
        .arg(srctree)
        .arg(format!("O={}", objtree.display()))
        .arg(format!("-j{}", t.jobs))
        .arg(format!("ARCH={}", tree.arch.srcarch()))
        .arg(format!("RUSTC={}", t.rustc.display()))
        .arg(format!("BINDGEN={}", t.bindgen.display()))
        .arg(format!("RUST_LIB_SRC={}", t.lib_src.display()));
    let config = canonical(&tree.cfg.path);
    if config != objtree.join(".config") {
        p = p.arg(format!("KCONFIG_CONFIG={}", config.display()));
    }
    for (k, v) in [
        ("LLVM", &vars.llvm),
        ("CROSS_COMPILE", &vars.cross_compile),
        ("CC", &vars.cc),
        ("HOSTCC", &vars.hostcc),
        ("LD", &vars.ld),
        ("NM", &vars.nm),
        ("OBJCOPY", &vars.objcopy),
    ] {
        if let Some(v) = v {
            p = p.arg(format!("{k}={v}"));
        }
    }
    if !tree.krustflags.is_empty() {
        p = p.arg(format!("KRUSTFLAGS={}", tree.krustflags.join(" ")));
    }
    let p = p.args(targets);
    let out = p.output()?;
    if !out.success() {
        let text = format!("{}{}", out.stdout, out.stderr);
        let tail: Vec<&str> = text.lines().rev().take(25).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        bail!(
            "the kernel's make could not prepare the C side (`{p}`):\n{}\n  fix: run that command by hand to see why (a missing host tool such as flex, bison or libelf-dev is common)",
            tail.join("\n")
        );
    }
    Ok(())
}

/// The C flags bindgen needs. A kernel whose C side was prepared by make recorded them in the
/// `.cmd` file of `asm-offsets.s` (compiled by `make prepare` with the kernel's `c_flags`):
/// those are used, minus the per-object parts. A tree without a C build (like the bundled
/// example) gets the include folders, `-D__KERNEL__` and the target.
pub fn bindgen_c_flags(tree: &Tree, srctree: &str, facts: &dyn Facts) -> anyhow::Result<CFlags> {
    let srcarch = tree.arch.srcarch();
    // `scripts/mod/empty.o` is a kernel C object built in prepare0 with the full c_flags;
    // asm-offsets (a `.s`) lacks the debug flags Kbuild filters out of assembly output.
    let recorded = [empty_o_cmd(tree), asm_offsets_cmd(tree)];
    if let Some((cmd, text)) = recorded
        .iter()
        .find_map(|c| std::fs::read_to_string(c).ok().map(|t| (c.clone(), t)))
    {
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
                || w.ends_with("asm-offsets.c")
                || w.ends_with("scripts/mod/empty.c");
            // The folder's own include paths (`-I$(srctree)/$(src) -I$(obj)`, added for O=
            // builds) become rust/'s. asm-offsets is built from the top Kbuild (`.`) in 6.12.
            let folders = [
                ".".to_string(),
                format!("arch/{srcarch}/kernel"),
                "scripts/mod".to_string(),
            ];
            if folders.iter().any(|f| w == format!("-I{srctree}/{f}")) {
                // What the arch's prepare step adds to KBUILD_CFLAGS after prepare0
                // (arm64's and riscv's per-task stack protector), just before.
                flags.extend(prepare_c_flags(tree, facts)?);
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
            recorded: true,
            pending: false,
        });
    }
    if is_kernel_tree(Path::new(srctree)) {
        return Ok(CFlags {
            flags: vec!["<the kernel's C flags: pending `make prepare0`>".into()],
            source: format!(
                "pending: the kernel's make has not prepared the C side of {} yet; `rkbuild build` runs `make {}` first and then takes the flags make recorded",
                tree.objtree.display(),
                c_prerequisites(tree)
                    .iter()
                    .map(|(t, _)| *t)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            recorded: false,
            pending: true,
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
        format!("--target={}", tree.arch.bindgen_target()),
    ]);
    Ok(CFlags {
        flags,
        source: "the tree's include folders (no C build recorded by make)".into(),
        recorded: false,
        pending: false,
    })
}

fn find_objcopy(make: &MakeVars, kernel_tree: bool) -> anyhow::Result<PathBuf> {
    // A kernel tree gets the objcopy its Makefile names (GNU objcopy without LLVM=); a tree
    // without Kbuild (the example) takes whichever llvm-objcopy is there.
    if kernel_tree || make.objcopy.is_some() || make.llvm.is_some() {
        // Named as the kernel's Makefile names it (`LLVM=-22` → llvm-objcopy-22).
        let name = kbuild_tools(make).objcopy;
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

/// What the tools said about themselves, kept in `O/.rkbuild-tools.json` and keyed by the
/// tool binary's path, size and modification time (and the environment that changes its
/// answer), so that a no-op build starts no process. Rustup proxies (`~/.cargo/bin`) pick
/// their toolchain at run time and are never cached.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct ToolCache {
    entries: BTreeMap<String, String>,
    #[serde(skip)]
    changed: bool,
}

impl ToolCache {
    fn path(objtree: &Path) -> PathBuf {
        objtree.join(".rkbuild-tools.json")
    }

    fn load(objtree: &Path) -> ToolCache {
        std::fs::read(Self::path(objtree))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    fn save(&self, objtree: &Path) -> anyhow::Result<()> {
        if self.changed {
            crate::fsutil::write_if_changed(
                &Self::path(objtree),
                &serde_json::to_vec_pretty(self)?,
            )?;
        }
        Ok(())
    }

    /// The key of a tool binary, `None` when it must not be cached.
    fn key(what: &str, tool: &Path, env: &[&str]) -> Option<String> {
        let real = std::fs::canonicalize(tool).ok()?;
        let shown = tool.display().to_string();
        if shown.contains("/.cargo/bin/") || real.file_name()? == "rustup" {
            return None;
        }
        let m = std::fs::metadata(&real).ok()?;
        let mtime = m
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_nanos();
        let mut k = format!("{what} {} {} {mtime}", real.display(), m.len());
        for e in env {
            k.push_str(&format!(" {e}={}", std::env::var(e).unwrap_or_default()));
        }
        Some(k)
    }

    fn get_or(
        &mut self,
        key: Option<String>,
        f: impl FnOnce() -> anyhow::Result<String>,
    ) -> anyhow::Result<String> {
        if let Some(v) = key.as_ref().and_then(|k| self.entries.get(k)) {
            return Ok(v.clone());
        }
        let v = f()?;
        if let Some(k) = key {
            self.entries.insert(k, v.clone());
            self.changed = true;
        }
        Ok(v)
    }
}

fn run_text(p: Process) -> anyhow::Result<String> {
    let out = p.output()?;
    if !out.success() {
        bail!(
            "`{p}` failed with exit code {}:\n{}{}",
            out.status.code().unwrap_or(-1),
            out.stdout,
            out.stderr.trim_end()
        );
    }
    Ok(out.stdout)
}

/// Everything `build` needs, detected.
pub struct Prepared {
    pub tree: Tree,
    pub plan: Plan,
    pub objcopy: PathBuf,
    pub cflags: CFlags,
    pub config: config::ConfigReport,
    /// `rustc --print sysroot` (with KRUSTFLAGS), when it was needed to find the library.
    pub sysroot: Option<PathBuf>,
    /// The library source the plan builds `core` from.
    pub lib_src: PathBuf,
}

/// Runs `config`, detects the tools and makes the plan.
pub fn prepare(opts: &BuildOpts) -> anyhow::Result<Prepared> {
    let mut topts = opts.tree.clone();
    if topts.srctree.is_none() {
        topts.srctree = Some(PathBuf::from("."));
    }
    let mut tree = Tree::open(&topts)?;
    tree.require_rust()?;
    let tools = topts.tools.clone().with_env();
    std::fs::create_dir_all(&tree.objtree)
        .with_context(|| format!("cannot create `{}`", tree.objtree.display()))?;
    let mut cache = ToolCache::load(&tree.objtree);

    // rustc: what it is, and whether it is new enough for this tree.
    let (rustc_name, via) = match &tools.rustc {
        Some(n) => (n.clone(), Some("RUSTC")),
        None => ("rustc".to_string(), None),
    };
    let rustc_path = toolchain::resolve(&rustc_name, "Rust compiler", via, toolchain::FIX_RUSTC)?;
    let vv = cache.get_or(ToolCache::key("rustc -vV", &rustc_path, &[]), || {
        run_text(Process::new(&rustc_path).arg("-vV"))
    })?;
    let rustc_info = toolchain::version::parse_rustc_vv(&vv)?;
    let min = tree.minimums()?;
    if rustc_info.version < min.rustc {
        bail!(
            "Rust compiler `{}` is too old: {} found, {} needed (from {})\n  fix: {}",
            rustc_path.display(),
            rustc_info.version,
            min.rustc,
            min.source,
            toolchain::FIX_RUSTC
        );
    }
    // The sysroot only when RUST_LIB_SRC does not say where the library is: a no-op build
    // through a rustup proxy (never cached) must not pay for it.
    let (sysroot, lib_src) = match &tools.rust_lib_src {
        Some(l) => (None, l.clone()),
        None => {
            let key = ToolCache::key("rustc --print sysroot", &rustc_path, &[])
                .map(|k| format!("{k} {}", tree.krustflags.join(" ")));
            let sysroot = PathBuf::from(cache.get_or(key, || {
                Ok(toolchain::sysroot(&rustc_path, &tree.krustflags)?
                    .display()
                    .to_string())
            })?);
            let lib = toolchain::rust_lib_src(&tools, &sysroot);
            (Some(sysroot), lib)
        }
    };
    toolchain::check_rust_lib_src(&lib_src)?;

    // bindgen and the libclang it loads.
    let bindgen_name = tools.bindgen.clone().unwrap_or_else(|| "bindgen".into());
    let bindgen_path = toolchain::resolve(
        &bindgen_name,
        "Rust bindings generator",
        tools.bindgen.as_ref().map(|_| "BINDGEN"),
        FIX_BINDGEN,
    )?;
    let key = ToolCache::key("bindgen", &bindgen_path, &["LIBCLANG_PATH"]);
    let bindgen_id = cache.get_or(key, || {
        let b = toolchain::detect_bindgen(&toolchain::ToolNames {
            bindgen: Some(bindgen_path.display().to_string()),
            ..Default::default()
        })?;
        if let Err(why) = &b.info.libclang {
            bail!(
                "bindgen `{}` cannot run: {why}\n  fix: set LIBCLANG_PATH to the folder holding libclang.so (e.g. /usr/lib/llvm-14/lib)",
                b.path.display()
            );
        }
        Ok(serde_json::to_string(&b.info)?)
    })?;
    let mut tool_ids = BTreeMap::new();
    let rustc_path_s = rustc_path.display().to_string();
    tool_ids.insert(rustc_path_s.clone(), serde_json::to_string(&rustc_info)?);
    let bindgen_path_s = bindgen_path.display().to_string();
    tool_ids.insert(bindgen_path_s.clone(), bindgen_id);
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
    // 7.3 remaps source paths in out-of-tree builds when rustc takes `--remap-path-scope`:
    // asked once per rustc binary, like its version.
    let has_remap = tree.vintage.has_section("remap-path-prefix")
        && tree.out_of_srctree()
        && cache.get_or(
            ToolCache::key("rustc-option --remap-path-scope=macro", &rustc_path, &[]),
            || Ok(toolchain::rustc_option(&rustc_path, "--remap-path-scope=macro").to_string()),
        )? == "true";
    let make_vars = MakeVars::from_env();
    let srctree_abs = canonical(topts.srctree.as_ref().expect("set above"));
    let kernel_tree = is_kernel_tree(&srctree_abs);
    let objcopy = find_objcopy(&make_vars, kernel_tree)?;
    let objcopy_id = cache.get_or(ToolCache::key("objcopy --version", &objcopy, &[]), || {
        let v = run_text(Process::new(&objcopy).arg("--version"))?;
        Ok(format!(
            "{} {}",
            objcopy.display(),
            v.lines().next().unwrap_or_default()
        ))
    })?;
    tool_ids.insert(exec::OBJCOPY_KEY.to_string(), objcopy_id);
    // Every tool is there: now write rustc_cfg, the flags and the target spec (each only if
    // its content changed, so a no-op build touches nothing), as `rkbuild config` does.
    let missing = missing_c_prerequisites(&tree);
    if opts.prepare_c && kernel_tree && !missing.is_empty() {
        let jobs = opts
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        make_c_side(
            &tree,
            &srctree_abs,
            &missing,
            &MakeTools {
                rustc: &rustc_path,
                bindgen: &bindgen_path,
                lib_src: &lib_src,
                jobs,
            },
            &make_vars,
        )?;
        // make's syncconfig may have updated the configuration: read it again.
        tree = Tree::open(&topts)?;
        tree.require_rust()?;
    }
    let warnings = tree.warnings();
    let gen = config::generate(&tree, &rustc_info, has_remap)?;
    let mut files = vec![];
    for (path, bytes) in &gen.files {
        let status = crate::fsutil::write_if_changed(path, bytes)?;
        files.push(config::WrittenFile {
            path: path.clone(),
            status,
        });
    }
    cache.save(&tree.objtree)?;
    let report = config::ConfigReport {
        kconfig_checked: false,
        vintage: tree.vintage,
        vintage_source: tree.vintage_source.clone(),
        arch: tree.arch,
        rustc: rustc_info.clone(),
        rustc_path: rustc_path.clone(),
        config: tree.cfg.path.clone(),
        kernel_flags: gen.kernel_flags,
        module_flags: gen.module_flags,
        files,
        warnings,
    };
    let objtree_abs = canonical(&tree.objtree);
    let ctx = tree.ctx(&rustc_info, has_remap);
    let cflags = bindgen_c_flags(&tree, &ctx.srctree, &ctx)?;
    // Proc macros link with the host C compiler Kbuild picks (`LLVM=-22` → clang-22).
    let hostcc = opts
        .hostcc
        .clone()
        .unwrap_or_else(|| kbuild_tools(&make_vars).hostcc);
    let inputs = plan::Inputs {
        ctx: &ctx,
        srctree: &srctree_abs,
        objtree: &objtree_abs,
        objtree_abs: objtree_abs.display().to_string(),
        lib_src: lib_src.display().to_string(),
        rustc: rustc_path_s,
        clippy_driver,
        bindgen: bindgen_path_s,
        hostcc,
        hostldflags: " ".into(),
        bindgen_c_flags: cflags.flags.clone(),
        // rust/'s C files only with the kernel's own C flags, as make recorded them.
        cc: cflags.recorded.then(|| kbuild_tools(&make_vars).cc),
        bindgen_target: tree.arch.bindgen_target().to_string(),
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
        sysroot,
        lib_src,
    })
}

/// Runs `build`.
pub fn run(opts: &BuildOpts, out: Out) -> anyhow::Result<exec::Summary> {
    let p = prepare(opts)?;
    for w in &p.config.warnings {
        out.say(Message::Warning { text: w, at: None });
    }
    for f in &p.config.files {
        if f.status != crate::fsutil::WriteOutcome::Unchanged {
            let shown = f
                .path
                .strip_prefix(&p.tree.objtree)
                .unwrap_or(&f.path)
                .display()
                .to_string();
            out.say(Message::Status {
                tag: "UPD",
                subject: &shown,
            });
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
