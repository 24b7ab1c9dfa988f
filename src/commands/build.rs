//! `rkbuild build`: runs `config` when its outputs are out of date, detects the tools, makes
//! the plan and runs it. `rkbuild plan` stops before running.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::{canonical, config, Tree, TreeOpts};
use crate::context::{BuildContext, Toolchain};
use crate::exec;
use crate::layout::Facts;
use crate::output::{Message, Out};
use crate::plan::{self, Plan};
use crate::process::Process;
use crate::toolchain;
use crate::toolchain::kbuild_names::{kbuild_tools, MakeVars, PROBE_DIR};

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
    /// An external module folder (`M=`), built against the object tree.
    pub extmod: Option<PathBuf>,
    /// After the build, link the tree's modules (`.ko`) through the kernel's modpost.
    pub modules: bool,
    /// The content-addressed step cache's folder, when it is on.
    pub cache: Option<PathBuf>,
    /// A REAPI server the cache is shared through (`grpc://host:port[/instance]`).
    pub remote: Option<String>,
    /// Build only these (and what they need): step outputs (`rust/kernel.o`) or single-file
    /// targets of a driver (`samples/rust/rust_minimal.rsi`, `.s`, `.ll`).
    pub targets: Vec<String>,
    /// Fail at once when another rkbuild holds the object tree, instead of waiting.
    pub no_wait: bool,
    /// Plan `make rusttest`'s steps too (`rkbuild test`).
    pub rusttest: bool,
    /// Plan `make rustdoc`'s steps too (`rkbuild doc`).
    pub rustdoc: bool,
    /// Write the timings report (`OBJTREE/rkbuild-timings.html` and `.json`).
    pub timings: bool,
    /// Start each crate only when the crates it uses are done (Kbuild's order), not from
    /// their metadata.
    pub no_pipeline: bool,
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

/// The prerequisites make has not made yet. A distribution's object tree (`rkbuild distro`)
/// came prepared: its C flags are what the kernel's make recorded for rkbuild's probe.
fn missing_c_prerequisites(tree: &Tree) -> Vec<&'static str> {
    let probed = probe_cmd(tree).is_file();
    c_prerequisites(tree)
        .into_iter()
        .filter(|(t, done)| !(done.is_file() || probed && *t == "prepare0"))
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

/// The recorded command of the C object `rkbuild distro` had the kernel's make compile as an
/// external one (`always-y`: neither built in nor a module, as `scripts/mod/empty.o`).
pub fn probe_cmd(tree: &Tree) -> PathBuf {
    tree.objtree.join(PROBE_DIR).join(".empty.o.cmd")
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
    for (k, v) in vars.given() {
        p = p.arg(format!("{k}={v}"));
    }
    if !tree.krustflags.is_empty() {
        p = p.arg(format!("KRUSTFLAGS={}", tree.krustflags.join(" ")));
    }
    let p = p.args(targets);
    let out = p.output()?;
    if !out.success() {
        bail!(
            "the kernel's make could not prepare the C side (`{p}`):\n{}\n  fix: run that command by hand to see why (a missing host tool such as flex, bison or libelf-dev is common)",
            out.tail(25)
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
    let recorded = [empty_o_cmd(tree), asm_offsets_cmd(tree), probe_cmd(tree)];
    if let Some((cmd, text)) = recorded
        .iter()
        .find_map(|c| std::fs::read_to_string(c).ok().map(|t| (c.clone(), t)))
    {
        let line = crate::makefile::records::savedcmd(&text)
            .with_context(|| format!("`{}` holds no savedcmd line", cmd.display()))?;
        let words = shlex::split(line)
            .with_context(|| format!("cannot split the command in `{}`", cmd.display()))?;
        let mut flags = vec![];
        let mut folder_seen = false;
        // rust/'s own include path, after what the arch's prepare step adds to KBUILD_CFLAGS
        // after prepare0 (arm64's and riscv's per-task stack protector).
        let rust_folder = |flags: &mut Vec<String>| -> anyhow::Result<()> {
            flags.extend(prepare_c_flags(tree, facts)?);
            flags.push(format!("-I{srctree}/rust"));
            Ok(())
        };
        let mut it = words.into_iter().skip(1).peekable();
        while let Some(w) = it.next() {
            if w == "-o" {
                it.next();
                continue;
            }
            // An external object gets no folder include paths (`-I$(src) -I$(obj)`): rust/'s
            // go where they would have been, just before the per-object defines.
            if !folder_seen && w.starts_with("-DKBUILD_MODFILE=") {
                folder_seen = true;
                rust_folder(&mut flags)?;
                flags.push("-Irust".into());
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
                || w == "empty.c"
                || w.ends_with("/empty.c");
            // The folder's own include paths (`-I$(srctree)/$(src) -I$(obj)`, added for O=
            // builds) become rust/'s. asm-offsets is built from the top Kbuild (`.`) in 6.12.
            let folders = [
                ".".to_string(),
                format!("arch/{srcarch}/kernel"),
                "scripts/mod".to_string(),
            ];
            if folders.iter().any(|f| w == format!("-I{srctree}/{f}")) {
                folder_seen = true;
                rust_folder(&mut flags)?;
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

pub(super) fn find_objcopy(make: &MakeVars, kernel_tree: bool) -> anyhow::Result<PathBuf> {
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
    /// The object tree's lock: one rkbuild writes a tree at a time.
    pub lock: crate::fsutil::FolderLock,
}

/// Runs `config`, detects the tools and makes the plan.
pub fn prepare(opts: &BuildOpts) -> anyhow::Result<Prepared> {
    let mut topts = opts.tree.clone();
    if topts.srctree.is_none() {
        topts.srctree = Some(PathBuf::from("."));
    }
    let mut bc = BuildContext::open(&topts)?;
    bc.tree.require_rust()?;
    std::fs::create_dir_all(&bc.tree.objtree)
        .with_context(|| format!("cannot create `{}`", bc.tree.objtree.display()))?;
    let lock = crate::fsutil::lock_folder(&bc.tree.objtree, !opts.no_wait, |m| {
        eprintln!("rkbuild: {m}")
    })?;
    // With the tree locked, what the last build stored is read on other threads while the
    // tools are detected and the plan made; dropped below if this build writes first.
    let srctree_abs = canonical(topts.srctree.as_ref().expect("set above"));
    let objtree_abs = canonical(&bc.tree.objtree);
    plan::kbuild::read_walk_ahead(&srctree_abs, &objtree_abs);
    exec::fingerprint::read_ahead(&objtree_abs);
    let mut wrote = false;

    // rustc: what it is, and whether it is new enough for this tree.
    let rustc = bc.rustc()?;
    let (sysroot, lib_src) = bc.toolchain.rust_lib_src(&bc.tree.krustflags)?;
    toolchain::check_rust_lib_src(&lib_src)?;
    // bindgen and the libclang it loads.
    let (bindgen_path, bindgen_id) = bc.toolchain.bindgen()?;
    let mut tool_ids = BTreeMap::new();
    let rustc_path_s = rustc.path.display().to_string();
    tool_ids.insert(rustc_path_s.clone(), serde_json::to_string(&rustc.info)?);
    let bindgen_path_s = bindgen_path.display().to_string();
    let bindgen_version = serde_json::from_str::<serde_json::Value>(&bindgen_id)
        .ok()
        .and_then(|v| semver::Version::parse(v["version"].as_str()?).ok());
    tool_ids.insert(bindgen_path_s.clone(), bindgen_id);
    let clippy_driver = if opts.clippy {
        let (p, id) = bc.toolchain.clippy_driver()?;
        tool_ids.insert(p.clone(), id);
        Some(p)
    } else {
        None
    };
    // The kernel crate's doctests (CONFIG_RUST_KERNEL_DOCTESTS) run rustdoc in a build too.
    let doctests = bc
        .tree
        .vintage
        .doctests
        .as_ref()
        .is_some_and(|d| d.config.iter().all(|s| bc.tree.cfg.enabled(s)));
    let rustdoc = if opts.rusttest || opts.rustdoc || doctests {
        let (p, id) = bc.toolchain.rustdoc(&rustc.path)?;
        tool_ids.insert(p.clone(), id);
        Some(p)
    } else {
        None
    };
    // 7.3 remaps source paths in out-of-tree builds when rustc takes `--remap-path-scope`.
    let has_remap = bc.has_remap()?;
    let make_vars = MakeVars::for_objtree(&bc.tree.objtree);
    let kernel_tree = is_kernel_tree(&srctree_abs);
    let objcopy = find_objcopy(&make_vars, kernel_tree)?;
    let objcopy_id = bc.toolchain.version_line("objcopy", &objcopy)?;
    tool_ids.insert(exec::OBJCOPY_KEY.to_string(), objcopy_id);
    let missing = missing_c_prerequisites(&bc.tree);
    if opts.prepare_c && kernel_tree && !missing.is_empty() {
        let jobs = opts
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        make_c_side(
            &bc.tree,
            &srctree_abs,
            &missing,
            &MakeTools {
                rustc: &rustc.path,
                bindgen: &bindgen_path,
                lib_src: &lib_src,
                jobs,
            },
            &make_vars,
        )?;
        wrote = true;
        // make's syncconfig may have updated the configuration: read it again.
        bc.reread(&topts)?;
        bc.tree.require_rust()?;
    }
    // Every tool is there: now write rustc_cfg, the flags and the target spec (each only if
    // its content changed, so a no-op build touches nothing), as `rkbuild config` does.
    let warnings = bc.tree.warnings();
    let gen = config::generate(&bc.tree, &rustc.info, has_remap)?;
    let mut files = vec![];
    for (path, bytes) in &gen.files {
        let status = crate::fsutil::write_output_if_changed(path, bytes)?;
        wrote |= status != crate::fsutil::WriteOutcome::Unchanged;
        files.push(config::WrittenFile {
            path: path.clone(),
            status,
        });
    }
    let report = config::ConfigReport {
        kconfig_checked: false,
        vintage: bc.tree.vintage,
        vintage_source: bc.tree.vintage_source.clone(),
        arch: bc.tree.arch,
        rustc: rustc.info.clone(),
        rustc_path: rustc.path.clone(),
        config: bc.tree.cfg.path.clone(),
        kernel_flags: gen.kernel_flags,
        module_flags: gen.module_flags,
        files,
        warnings,
    };
    let BuildContext {
        tree,
        mut toolchain,
    } = bc;
    let ctx = tree.ctx(&rustc.info, has_remap);
    let cflags = bindgen_c_flags(&tree, &ctx.srctree, &ctx)?;
    // Proc macros link with the host C compiler Kbuild picks (`LLVM=-22` → clang-22).
    let hostcc = opts
        .hostcc
        .clone()
        .unwrap_or_else(|| kbuild_tools(&make_vars).hostcc);
    // rust/'s C files only with the kernel's own C flags, as make recorded them.
    let cc = cflags.recorded.then(|| kbuild_tools(&make_vars).cc);
    let module_c_flags = match &cc {
        Some(cc) => module_c_flags(&ctx, cc, &cflags.flags, &mut toolchain)?,
        None => vec![],
    };
    wrote |= toolchain.save(&tree.objtree)?;
    if wrote {
        plan::kbuild::forget_walk_ahead();
        exec::fingerprint::forget_ahead();
    }
    let inputs = plan::Inputs {
        ctx: &ctx,
        srctree: &srctree_abs,
        objtree: &objtree_abs,
        objtree_abs: objtree_abs.display().to_string(),
        lib_src: lib_src.display().to_string(),
        rustc: rustc_path_s,
        clippy_driver,
        rustdoc,
        bindgen: bindgen_path_s,
        hostcc,
        hostldflags: " ".into(),
        bindgen_c_flags: cflags.flags.clone(),
        cc,
        module_c_flags,
        kernel_ld: None,
        bindgen_target: tree.arch.bindgen_target().to_string(),
        tools: tool_ids,
        bindgen_version,
    };
    // Single-file targets are planned from their driver; any other target names a step.
    let singles: Vec<String> = opts
        .targets
        .iter()
        .filter(|t| {
            let ext = t.rsplit_once('.').map_or("", |(_, e)| e);
            SINGLE_ENDINGS.contains(&ext)
                || inputs
                    .ctx
                    .vintage
                    .driver
                    .single
                    .iter()
                    .any(|s| s.ext == ext)
        })
        .map(|t| t.trim_start_matches("./").to_string())
        .collect();
    let goals = plan::Goals {
        clippy: opts.clippy,
        singles,
        rusttest: opts.rusttest,
        rustdoc: opts.rustdoc,
    };
    let mut plan = plan::make(&inputs, &goals)?;
    if !opts.targets.is_empty() {
        plan = plan.only(&opts.targets)?;
    }
    drop(ctx);
    Ok(Prepared {
        tree,
        plan,
        objcopy,
        cflags,
        config: report,
        sysroot,
        lib_src,
        lock,
    })
}

/// The endings Kbuild has had single-file Rust targets for; a layout without them says so.
const SINGLE_ENDINGS: [&str; 3] = ["rsi", "s", "ll"];

/// Runs `build`.
pub fn run(opts: &BuildOpts, out: Out) -> anyhow::Result<exec::Summary> {
    let p = prepare(opts)?;
    say_config(&p, out);
    let summary = run_plan(&p.plan, opts, &p.tree.cfg, &p.objcopy, out)?;
    if opts.modules {
        link_modules(&p, out)?;
    }
    Ok(summary)
}

/// What `prepare`'s config step has to say: its warnings, and the files it changed.
pub(super) fn say_config(p: &Prepared, out: Out) {
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
}

/// Runs a plan with `-j` of the options (default: the number of cores).
pub(super) fn run_plan(
    plan: &Plan,
    opts: &BuildOpts,
    cfg: &crate::kconfig::DotConfig,
    objcopy: &Path,
    out: Out,
) -> anyhow::Result<exec::Summary> {
    let jobs = opts
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let cache = opts
        .cache
        .as_deref()
        .map(|d| {
            crate::cache::Cache::open(d, crate::cache::DEFAULT_LIMIT)?
                .with_remote(opts.remote.as_deref())
        })
        .transpose()?;
    let result = exec::run(
        plan,
        &exec::Options {
            jobs,
            out,
            cfg,
            objcopy: objcopy.to_path_buf(),
            cache: cache.as_ref(),
            pipeline: !opts.no_pipeline,
        },
    );
    if opts.timings {
        // Also for a build that stopped: where its time went up to there.
        let summary = match &result {
            Ok(s) => s,
            Err(f) => &*f.summary,
        };
        let title = format!("{} ({})", plan.objtree.display(), plan.vintage);
        let page = super::timings::write(
            &plan.objtree,
            &super::timings::Timings {
                title: &title,
                jobs,
                summary,
            },
        )?;
        out.say(Message::Status {
            tag: "TIMINGS",
            subject: &page.display().to_string(),
        });
    }
    let summary = result.map_err(anyhow::Error::new)?;
    if let Some(r) = cache.as_ref().and_then(|c| c.remote()) {
        let n = |a: &std::sync::atomic::AtomicU64| a.load(std::sync::atomic::Ordering::Relaxed);
        let subject = format!(
            "{}: {} hits, {} stored ({:.1} MB down, {:.1} MB up){}",
            r.url(),
            n(&r.counts.hits),
            n(&r.counts.uploads),
            n(&r.counts.bytes_down) as f64 / 1e6,
            n(&r.counts.bytes_up) as f64 / 1e6,
            if r.is_off() { "; turned off" } else { "" }
        );
        out.say(Message::Status {
            tag: "REMOTE",
            subject: &subject,
        });
    }
    if let Some(c) = &cache {
        // Under its size limit again; a cache that cannot be trimmed does not fail the build.
        if let Err(e) = c.evict() {
            let text = format!("cache: {}: cannot trim it: {e:#}", c.dir().display());
            out.say(Message::Warning {
                text: &text,
                at: None,
            });
        }
    }
    Ok(summary)
}

/// `--modules`: the kernel's modpost and final link over the objects just built, as the
/// layout says (`link_modules`); the kernel itself must be built (vmlinux.o, modules.order).
fn link_modules(p: &Prepared, out: Out) -> anyhow::Result<()> {
    let tree = &p.tree;
    let l = tree.vintage;
    if l.link_modules.is_empty() {
        bail!("the {l} layout does not say how its modules are linked\n  fix: run the kernel's `make modules`");
    }
    let objtree = canonical(&tree.objtree);
    for need in ["vmlinux.o", "modules.order"] {
        if !objtree.join(need).is_file() {
            bail!(
                "`{}` has no {need}: --modules links the modules of a built kernel\n  fix: build the kernel first (`make` in {})",
                objtree.display(),
                objtree.display()
            );
        }
    }
    let srctree = p.plan.srctree.display().to_string();
    let mut v = crate::layout::Vars::default();
    v.set("srctree", srctree);
    let args: Vec<String> = l
        .link_modules
        .iter()
        .map(|a| v.fill(a).map_err(|e| anyhow::anyhow!("link_modules: {e}")))
        .collect::<Result<_, _>>()?;
    let make = super::kernel_make::kernel_make(
        &objtree,
        &args,
        &objtree,
        tree.arch.srcarch(),
        &p.config.rustc_path.display().to_string(),
        &MakeVars::for_objtree(&objtree),
    );
    super::kernel_make::final_link(&make, out)
}

/// The arch's KBUILD_CFLAGS_MODULE additions for this configuration, each `cc-option` asked
/// of the kernel's C compiler (with the target flags of the recorded C flags).
pub(super) fn module_c_flags(
    ctx: &crate::flags::Ctx,
    cc: &str,
    recorded: &[String],
    toolchain: &mut Toolchain,
) -> anyhow::Result<Vec<String>> {
    let target: Vec<String> = recorded
        .iter()
        .filter(|f| f.starts_with("--target=") || f.starts_with("-m"))
        .cloned()
        .collect();
    let mut out = vec![];
    for (flag, probe) in crate::targetspec::module_c_flags(ctx) {
        if !probe || toolchain.cc_option(cc, &target, &flag)? {
            out.push(flag);
        }
    }
    Ok(out)
}
