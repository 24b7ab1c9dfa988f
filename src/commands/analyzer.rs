//! `rkbuild analyzer`: writes `rust-project.json` for rust-analyzer — for the kernel tree
//! (`OBJTREE/rust-project.json`, what `make rust-analyzer` writes) or for an out-of-tree module
//! (`--extmod DIR`: `DIR/rust-project.json` with the module's crates and the kernel crates they
//! use, pointing at the prepared kernel tree). Everything is computed before anything is
//! written; the file is replaced atomically and only when its content changes.

use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context as _};

use super::TreeOpts;
use crate::analyzer::discover::{self, FoundCrate};
use crate::analyzer::kernel::{self, KernelInputs};
use crate::analyzer::plan as plan_graph;
use crate::analyzer::{CrateGraph, ProcMacroKey, Role};
use crate::context::Toolchain;
use crate::fsutil::{write_if_changed, WriteOutcome};
use crate::kconfig::rustc_cfg;
use crate::layout::Layout;
use crate::output::{Message, Out};
use crate::process::Process;
use crate::toolchain;
use crate::tree::Vintage;

#[derive(Clone, Debug, Default)]
pub struct AnalyzerOpts {
    pub tree: TreeOpts,
    /// An out-of-tree module's folder (Kbuild's `M=`).
    pub extmod: Option<PathBuf>,
    /// Where to write (default: OBJTREE/rust-project.json, or EXTMOD/rust-project.json).
    pub output: Option<PathBuf>,
    /// Give the Rust library as `sysroot_src` instead of the kernel script's explicit
    /// core/alloc/std/proc_macro crates (what `--from-plan` always does).
    pub sysroot_src: bool,
    /// Analyze with this rustc rather than the kernel's: rust-analyzer gets its sysroot (and
    /// so its proc-macro server) and its library sources, and the tree's proc macros are built
    /// again by it ([`analysis_proc_macros`]). For an editor's rust-analyzer newer than the
    /// kernel's rustc.
    pub analysis_rustc: Option<PathBuf>,
    /// The library sources of `analysis_rustc` (default: its sysroot's rust-src).
    pub analysis_lib_src: Option<PathBuf>,
}

/// What `analyzer` produced.
#[derive(Debug, serde::Serialize)]
pub struct AnalyzerReport {
    pub path: PathBuf,
    pub status: WriteOutcome,
    pub vintage: Vintage,
    pub srctree: PathBuf,
    pub objtree: PathBuf,
    pub sysroot: PathBuf,
    pub sysroot_src: PathBuf,
    pub crates: usize,
    /// The drivers, samples or module crates, by name.
    pub drivers: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The generated file, in memory.
#[derive(Debug)]
pub struct Generated {
    pub path: PathBuf,
    pub text: String,
    pub graph: CrateGraph,
    pub inputs: KernelInputs,
    /// What the user should know about the file (printed by `run`'s callers).
    pub warnings: Vec<String>,
}

/// Kbuild's `$(realpath …)`: the tree must exist.
fn realpath(p: &Path, what: &str, fix: &str) -> anyhow::Result<PathBuf> {
    std::fs::canonicalize(p)
        .with_context(|| format!("the {what} `{}` does not exist\n  fix: {fix}", p.display()))
}

/// What Python's `str(pathlib.Path(p))` prints: no `.` components, no doubled or trailing `/`.
pub fn pathlib_str(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            c => out.push(c.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// Reads `include/generated/rustc_cfg` into the file's cfg list (`--cfg=` removed, as the
/// kernel does), checking each line.
pub fn read_generated_cfg(objtree: &Path) -> anyhow::Result<Vec<String>> {
    let path = objtree.join("include/generated/rustc_cfg");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "`{}` is missing: the kernel tree is not configured for Rust\n  fix: run `rkbuild config -O {}` (or the kernel's `make syncconfig`) first",
            path.display(),
            objtree.display()
        ),
        Err(e) => return Err(e).with_context(|| format!("cannot read `{}`", path.display())),
    };
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        if rustc_cfg::parse_line(line).is_none() {
            bail!(
                "{}:{}: not a rustc_cfg line: `{line}`\n  fix: regenerate it with `rkbuild config`",
                path.display(),
                i + 1
            );
        }
        out.push(line.replace("--cfg=", ""));
    }
    Ok(out)
}

/// One rustc run answers both questions: `--print sysroot` (with KRUSTFLAGS, which may hold
/// `--sysroot`, as the kernel passes its flags) and the proc-macro file name
/// (`--print file-names --crate-name macros --crate-type proc-macro -`), split into the `lib`
/// and `.so` around the crate name.
fn ask_rustc(rustc: &Path, krustflags: &[String]) -> anyhow::Result<(PathBuf, (String, String))> {
    let p = Process::new(rustc)
        .args(krustflags)
        .args(["--print", "sysroot", "--print", "file-names"])
        .args(["--crate-name", "macros", "--crate-type", "proc-macro", "-"])
        .stdin_bytes("");
    let out = p.output()?;
    let mut lines = out.stdout.lines();
    match (out.success(), lines.next(), lines.next()) {
        (true, Some(sysroot), Some(file)) if file.contains("macros") => {
            let (pre, suf) = file.split_once("macros").expect("checked");
            Ok((
                PathBuf::from(sysroot.trim()),
                (pre.to_string(), suf.trim().to_string()),
            ))
        }
        _ => bail!(
            "`{p}` did not print the sysroot and a proc-macro file name:\n{}{}",
            out.stdout,
            out.stderr
        ),
    }
}

/// The rustc version the tree was configured with (`CONFIG_RUSTC_VERSION`, which Kbuild's
/// `rustc-min-version` tests too), from the rustc_cfg cfgs.
fn configured_rustc_version(cfg: &[String]) -> Option<u64> {
    cfg.iter().find_map(|c| {
        c.strip_prefix("CONFIG_RUSTC_VERSION=\"")?
            .strip_suffix('"')?
            .parse()
            .ok()
    })
}

/// A host program under `scripts/`: its name and root file.
type HostProgram = (String, PathBuf);

/// The drivers/samples (or the module's crates) and the host programs.
fn find_crates(
    srctree: &Path,
    extmod: Option<&Path>,
    makefile_only: bool,
) -> anyhow::Result<(Vec<FoundCrate>, Vec<HostProgram>)> {
    if let Some(m) = extmod {
        let found = discover::crate_roots(m, makefile_only)?;
        if found.is_empty() {
            bail!(
                "`{}` has no Rust module: no `.rs` file there is named as `<stem>.o` by the Makefile or Kbuild beside it\n  fix: add `obj-m := <name>.o` to {}/Kbuild for <name>.rs",
                m.display(),
                m.display()
            );
        }
        return Ok((found, vec![]));
    }
    let mut all = vec![];
    for dir in ["samples", "drivers"] {
        let d = srctree.join(dir);
        if d.is_dir() {
            all.extend(discover::crate_roots(&d, makefile_only)?);
        }
    }
    Ok((all, discover::host_programs(srctree)?))
}

/// Finds srctree for an objtree: `--srctree`, else the `source` link Kbuild leaves in an `O=`
/// tree, else the objtree itself.
fn find_srctree(opts: &TreeOpts, objtree: &Path) -> PathBuf {
    if let Some(s) = &opts.srctree {
        return s.clone();
    }
    let link = objtree.join("source");
    if link.join("Makefile").is_file() {
        return link;
    }
    objtree.to_path_buf()
}

/// Computes the file without writing it.
pub fn generate(opts: &AnalyzerOpts) -> anyhow::Result<Generated> {
    let t = &opts.tree;
    let objtree_arg = t
        .objtree
        .clone()
        .or_else(|| t.srctree.clone())
        .unwrap_or_else(|| PathBuf::from("."));
    let objtree = realpath(
        &objtree_arg,
        "object tree",
        "pass the kernel build folder (make's O=) as --objtree",
    )?;
    let srctree = realpath(
        &find_srctree(t, &objtree),
        "source tree",
        "pass the kernel source tree as --srctree",
    )?;
    let generated_cfg = read_generated_cfg(&objtree)?;
    // The tree's layout decides; a tree without the kernel's scripts (like the bundled
    // example) is known by the symbols its configuration set.
    let present = |s: &str| {
        let sym = format!("CONFIG_{s}");
        generated_cfg
            .iter()
            .any(|c| c.split('=').next() == Some(sym.as_str()))
    };
    let resolved = Layout::resolve(
        t.kbuild.as_deref(),
        Some(&srctree),
        Some(("include/generated/rustc_cfg", &present)),
    )?;
    if resolved.guessed {
        bail!(
            "`{}` is not a kernel tree with Rust support (no scripts/generate_rust_target.rs, rust/pin-init or rust/alloc)\n  fix: pass the kernel source tree as --srctree (for an O= build, also --objtree)",
            srctree.display()
        );
    }
    let vintage = resolved.layout;
    for (name, root) in kernel::rust_dir_crates(vintage) {
        if !srctree.join(root).is_file() {
            bail!(
                "`{}` has no `{root}` (crate `{name}`), which a {vintage} tree has\n  fix: check --srctree, or pass --kbuild with the tree's real vintage",
                srctree.display()
            );
        }
    }
    let extmod = match &opts.extmod {
        Some(m) => Some(realpath(
            m,
            "module folder",
            "pass the folder holding the module's Kbuild/Makefile as --extmod",
        )?),
        None => None,
    };

    // The toolchain: one rustc run for the sysroot and proc-macro file name, while the
    // folders are walked; the version comes from the configuration when it has it.
    let mut tc = Toolchain::new(t.tools.clone().with_env()?, &objtree);
    let rustc_name = tc.names.rustc.clone().unwrap_or_else(|| "rustc".into());
    let rustc_path = toolchain::resolve(
        &rustc_name,
        "Rust compiler",
        tc.names.rustc.as_ref().map(|_| "RUSTC"),
        toolchain::FIX_RUSTC,
    )?;
    let krustflags: Vec<String> = t
        .krustflags
        .clone()
        .or_else(|| std::env::var("KRUSTFLAGS").ok())
        .map(|s| s.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let makefile_only = vintage.analyzer.makefile_only;
    let (asked, found) = std::thread::scope(|s| {
        let asked = s.spawn(|| ask_rustc(&rustc_path, &krustflags));
        let found = find_crates(&srctree, extmod.as_deref(), makefile_only);
        (asked.join().expect("thread"), found)
    });
    let (sysroot, affixes) = asked?;
    let (drivers, host_programs) = found?;
    let rustc_version = match configured_rustc_version(&generated_cfg) {
        Some(v) => v,
        None => tc.rustc()?.info.kernel_version(),
    };
    let sysroot = pathlib_str(&sysroot);
    let sysroot_src = pathlib_str(&toolchain::rust_lib_src(&tc.names, &sysroot));
    for c in &vintage.analyzer.sysroot_crates {
        let lib = sysroot_src.join(c).join("src/lib.rs");
        if !lib.is_file() {
            bail!(
                "the Rust library source has no `{c}` crate: `{}` is missing\n  fix: `rustup component add rust-src`, or on Debian `apt-get install rust-src` (rust-web-src on Debian 12), or set RUST_LIB_SRC (--rust-lib-src) to the folder holding core/, alloc/, std/ and proc_macro/",
                lib.display()
            );
        }
    }

    let makefile = srctree.join("rust/Makefile");
    let rust_makefile = match std::fs::read_to_string(&makefile) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            return Err(e).with_context(|| {
                format!(
                    "cannot read `{}` (it holds the crates' cfgs)\n  fix: make it readable",
                    makefile.display()
                )
            })
        }
    };
    let inputs = KernelInputs {
        vintage,
        srctree: srctree.clone(),
        objtree: objtree.clone(),
        sysroot,
        sysroot_src,
        rustc_version,
        generated_cfg,
        rust_makefile,
        proc_macro_affixes: affixes,
        host_programs,
        drivers,
    };
    let mut graph = kernel::kernel_graph(&inputs);
    if extmod.is_some() {
        graph.retain_with_deps(|c| c.role == Role::Driver);
        // The module is the workspace; the kernel's crates are its libraries (navigable, but
        // not re-checked or searched as the user's own code).
        for c in &mut graph.crates {
            if c.role != Role::Driver {
                c.workspace_member = false;
            }
        }
    }
    let path = match (&opts.output, &extmod) {
        (Some(o), _) => o.clone(),
        (None, Some(m)) => m.join("rust-project.json"),
        (None, None) => objtree.join("rust-project.json"),
    };
    let mut warnings = vec![];
    if let Some(arustc) = &opts.analysis_rustc {
        let (asysroot, _) = ask_rustc(arustc, &krustflags)?;
        let asysroot = pathlib_str(&asysroot);
        let alib = match &opts.analysis_lib_src {
            Some(l) => pathlib_str(l),
            None => asysroot.join("lib/rustlib/src/rust/library"),
        };
        toolchain::check_rust_lib_src(&alib).with_context(|| {
            format!(
                "the library sources of --analysis-rustc `{}`\n  fix: install its rust-src, or pass --analysis-lib-src DIR",
                arustc.display()
            )
        })?;
        let dir = path.parent().unwrap_or(Path::new(".")).join(ANALYSIS_DIR);
        analysis_proc_macros(opts, arustc, &alib, &objtree, &dir, &mut graph)?;
        graph.library_as_sysroot_src(&asysroot, &alib);
        // rust-analyzer takes the proc-macro server from the sysroot: the one that loads
        // what this rustc built.
        graph.sysroot = Some(asysroot);
    } else if opts.sysroot_src || extmod.is_some() {
        // An out-of-tree module gets the library as `sysroot_src` (so that rust-analyzer knows
        // core's lang items), and the sysroot when its proc-macro server is one rust-analyzer
        // can talk to; the kernel's own file stays what `make rust-analyzer` writes.
        graph.library_as_sysroot_src(&inputs.sysroot, &inputs.sysroot_src);
        if extmod.is_some() {
            match proc_macro_server(&inputs.sysroot) {
                Some((srv, v)) if v < MIN_PROC_MACRO_PROTOCOL => {
                    graph.sysroot = None;
                    warnings.push(format!(
                        "the proc-macro server of `{}` speaks protocol {v}, which current rust-analyzer releases cannot use (they crash on it): the file names no sysroot, so `module!` and the other proc macros are not expanded\n  fix: pass --analysis-rustc with a newer rustc (and --analysis-lib-src with its library sources) to analyze with it",
                        srv.display()
                    ));
                }
                Some(_) => graph.sysroot = Some(inputs.sysroot.clone()),
                None => {}
            }
        }
    }
    let text = graph.to_project_json(inputs.proc_macro_key())?.render();
    Ok(Generated {
        path,
        text,
        graph,
        inputs,
        warnings,
    })
}

/// Where `--analysis-rustc`'s proc macros are built, beside the written file.
pub const ANALYSIS_DIR: &str = ".rkbuild-analyzer";

/// The oldest proc-macro server protocol rust-analyzer 0.0.3xx (2025 and later) handles:
/// against Debian's rustc 1.85 server (protocol 5) rust-analyzer 0.0.349 panics
/// (`span/src/lib.rs:403: id < InternId::MAX`); rustc 1.95's speaks 6.
pub const MIN_PROC_MACRO_PROTOCOL: u32 = 6;

/// The sysroot's proc-macro server and the protocol version it answers with
/// (`{"ApiVersionCheck":{}}`), or `None` when it has none or does not answer.
pub fn proc_macro_server(sysroot: &Path) -> Option<(PathBuf, u32)> {
    let srv = sysroot.join("libexec/rust-analyzer-proc-macro-srv");
    if !srv.is_file() {
        return None;
    }
    let out = Process::new(&srv)
        .env("RUST_ANALYZER_INTERNALS_DO_NOT_USE", "this is unstable")
        .stdin_bytes("{\"ApiVersionCheck\":{}}\n")
        .output()
        .ok()?;
    let v: serde_json::Value = serde_json::from_str(out.stdout.lines().next()?).ok()?;
    let n = v.get("ApiVersionCheck")?.as_u64()?;
    Some((srv, u32::try_from(n).ok()?))
}

/// Builds the tree's proc macros (and the host crates they use) with `rustc` into `dir`, a
/// scratch object tree configured from the kernel's `.config`, through `rkbuild build` of
/// just those outputs with Kbuild's own commands; points the graph's proc macros there.
fn analysis_proc_macros(
    opts: &AnalyzerOpts,
    rustc: &Path,
    lib: &Path,
    objtree: &Path,
    dir: &Path,
    graph: &mut CrateGraph,
) -> anyhow::Result<()> {
    let targets: Vec<String> = graph
        .crates
        .iter()
        .filter_map(|c| c.proc_macro_dylib.as_ref()?.strip_prefix(objtree).ok())
        .map(|p| p.display().to_string())
        .collect();
    if targets.is_empty() {
        return Ok(());
    }
    let mut tree = opts.tree.clone();
    tree.objtree = Some(dir.to_path_buf());
    tree.config = Some(objtree.join(".config"));
    tree.tools.rustc = Some(rustc.display().to_string());
    tree.tools.rust_lib_src = Some(lib.to_path_buf());
    let bo = super::build::BuildOpts {
        tree,
        targets,
        ..Default::default()
    };
    let quiet = Out {
        quiet: true,
        ..Default::default()
    };
    super::build::run(&bo, quiet).with_context(|| {
        format!(
            "building the proc macros with --analysis-rustc `{}` in `{}`",
            rustc.display(),
            dir.display()
        )
    })?;
    let dir = std::fs::canonicalize(dir)?;
    for c in &mut graph.crates {
        if let Some(p) = &c.proc_macro_dylib {
            if let Ok(rel) = p.strip_prefix(objtree) {
                c.proc_macro_dylib = Some(dir.join(rel));
            }
        }
    }
    Ok(())
}

/// Runs `analyzer`: compute, then write once.
pub fn run(opts: &AnalyzerOpts) -> anyhow::Result<AnalyzerReport> {
    let g = generate(opts)?;
    let status = write_if_changed(&g.path, g.text.as_bytes())?;
    Ok(AnalyzerReport {
        path: g.path,
        status,
        vintage: g.inputs.vintage,
        srctree: g.inputs.srctree,
        objtree: g.inputs.objtree,
        sysroot: g.inputs.sysroot,
        sysroot_src: g.inputs.sysroot_src,
        crates: g.graph.crates.len(),
        drivers: drivers(&g.graph),
        warnings: g.warnings,
    })
}

/// `analyzer --from-plan`: the crates of `rkbuild plan` (made as `plan` makes it, running
/// `config` first), written to `output` or OBJTREE/rust-project.json.
pub fn run_from_plan(
    opts: &super::build::BuildOpts,
    output: Option<PathBuf>,
) -> anyhow::Result<AnalyzerReport> {
    let p = super::build::prepare(opts)?;
    let plan = &p.plan;
    let sysroot = match &p.sysroot {
        Some(s) => s.clone(),
        None => toolchain::sysroot(&p.config.rustc_path, &p.tree.krustflags)?,
    };
    let sysroot = plan_graph::Sysroot {
        sysroot: pathlib_str(&sysroot),
        src: pathlib_str(&p.lib_src),
    };
    let graph = plan_graph::graph_from_plan(plan, &sysroot, plan_graph::expand_in(&plan.objtree))?;
    let text = graph
        .to_project_json(ProcMacroKey::for_vintage(plan.vintage))?
        .render();
    let path = output.unwrap_or_else(|| plan.objtree.join("rust-project.json"));
    let status = write_if_changed(&path, text.as_bytes())?;
    Ok(AnalyzerReport {
        path,
        status,
        vintage: plan.vintage,
        srctree: plan.srctree.clone(),
        objtree: plan.objtree.clone(),
        sysroot: sysroot.sysroot,
        sysroot_src: sysroot.src,
        crates: graph.crates.len(),
        drivers: drivers(&graph),
        warnings: vec![],
    })
}

fn drivers(graph: &CrateGraph) -> Vec<String> {
    graph
        .crates
        .iter()
        .filter(|c| c.role == Role::Driver)
        .map(|c| c.name.clone())
        .collect()
}

/// The CLI's view: run, then print Kbuild-style (`  GEN     rust-project.json`) or JSON.
pub fn main(opts: &AnalyzerOpts, out: Out) -> anyhow::Result<std::process::ExitCode> {
    report(run(opts)?, out)
}

/// Prints what `analyzer` wrote.
pub fn report(r: AnalyzerReport, out: Out) -> anyhow::Result<std::process::ExitCode> {
    if !out.json() {
        for w in &r.warnings {
            out.say(Message::Warning { text: w, at: None });
        }
    }
    if out.json() {
        out.message(&serde_json::json!({"reason": "analyzer", "report": r}));
    } else {
        match r.status {
            WriteOutcome::Unchanged => {
                if out.verbose {
                    out.say(Message::Status {
                        tag: "SKIP",
                        subject: &format!("{} (unchanged)", r.path.display()),
                    })
                }
            }
            _ => out.say(Message::Status {
                tag: "GEN",
                subject: &r.path.display().to_string(),
            }),
        }
        if out.verbose {
            println!(
                "kernel {}, {} crates ({} drivers/modules: {}), sysroot {}",
                r.vintage,
                r.crates,
                r.drivers.len(),
                r.drivers.join(" "),
                r.sysroot.display()
            );
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_as_pathlib_does() {
        for (a, b) in [
            ("/usr/src/lib/", "/usr/src/lib"),
            ("/usr//src/./lib", "/usr/src/lib"),
            ("./lib", "lib"),
            (".", "."),
            ("a/../b", "a/../b"),
        ] {
            assert_eq!(pathlib_str(Path::new(a)), Path::new(b), "{a}");
        }
    }

    #[test]
    fn rustc_version_comes_from_the_configuration() {
        let cfg = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            configured_rustc_version(&cfg(&["CONFIG_RUST", "CONFIG_RUSTC_VERSION=\"109500\""])),
            Some(109500)
        );
        assert_eq!(configured_rustc_version(&cfg(&["CONFIG_RUST"])), None);
    }

    #[test]
    fn missing_rustc_cfg_says_run_config() {
        let d = tempfile::tempdir().unwrap();
        let e = format!("{:#}", read_generated_cfg(d.path()).unwrap_err());
        assert!(
            e.contains("rustc_cfg") && e.contains("rkbuild config"),
            "{e}"
        );
        std::fs::create_dir_all(d.path().join("include/generated")).unwrap();
        std::fs::write(
            d.path().join("include/generated/rustc_cfg"),
            "--cfg=CONFIG_A\nbogus\n",
        )
        .unwrap();
        let e = format!("{:#}", read_generated_cfg(d.path()).unwrap_err());
        assert!(e.contains("rustc_cfg:2"), "{e}");
    }
}
