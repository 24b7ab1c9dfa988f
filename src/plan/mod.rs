//! Stage 4: the plan — the crate graph of a tree and every step that builds it, as data.
//!
//! The library crates under `rust/` and the files generated for them come from the tree's
//! layout description ([`rust_dir`], reading `templates/kbuild/<vintage>.toml`); drivers come
//! from the tree's Kbuild makefiles ([`kbuild`], [`drivers`]). Every compile command is made by
//! [`crate::flags::crates::command`], so a plan step is the command Kbuild would run, and
//! `rkbuild plan` shows exactly what `rkbuild build` will do.
//!
//! Steps name their inputs by crate (`--extern kernel`) and by file; [`Plan::finish`]
//! ([`graph`]) resolves the crates to steps, rejects unknown ones and cycles, and orders the
//! steps so every step comes after what it needs.

mod c_parts;
mod doctests;
mod drivers;
pub mod extmod;
mod graph;
pub mod kbuild;
mod rust_dir;
pub mod rustdoc;
pub mod rusttest;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::flags::crates::Compiler;
use crate::flags::{BuildAssert, Ctx, Flag};
use crate::process::Process;
use crate::tree::{Arch, Vintage};

pub use drivers::driver_step;
pub use graph::closest;
pub use rust_dir::crate_step_named;

/// What a step makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepKind {
    /// A library crate under `rust/` (`cmd_rustc_library`).
    Library,
    /// A host proc-macro crate (`cmd_rustc_procmacro`).
    ProcMacro,
    /// A host rlib a proc macro uses (`cmd_rustc_procmacrolibrary`: proc-macro2, quote, syn).
    HostLibrary,
    /// A driver object (`%.o: %.rs`).
    Driver,
    /// Rust bindings from a C header (`cmd_bindgen`).
    Bindgen,
    /// `EXPORT_SYMBOL_RUST_GPL` lines for the symbols an object defines (`cmd_exports`).
    Exports,
    /// The kernel's C compiler on a file of `rust/` (`helpers.o`, the `.rs.S` preprocessed).
    C,
    /// Objects of a module linked into one (`cmd_ld_multi_m`).
    Link,
    /// A host library for the tests (`cmd_rustc_test_library`).
    TestLibrary,
    /// A test binary (`rustc --test`, `cmd_rustc_test`).
    Test,
    /// A test binary run (the second half of `cmd_rustc_test`): every time.
    TestRun,
    /// A crate's doctests (`rustdoc --test`, `cmd_rustdoc_test`): every time.
    DocTest,
    /// A crate's HTML documentation (`cmd_rustdoc`).
    Doc,
    /// The kernel crate's doctests saved and turned into KUnit tests
    /// (`cmd_rustdoc_test_kernel`).
    DocTestsKunit,
}

/// A command line: environment, program and arguments, run in the object tree.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Command {
    pub env: Vec<(String, String)>,
    pub program: String,
    pub args: Vec<String>,
    /// The command's standard output is this file (`>$@`), relative to the object tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stdout: Option<String>,
}

impl Command {
    /// The process, run in `objtree`, with `RUSTC_BOOTSTRAP=1` as the top Makefile exports it.
    pub fn process(&self, objtree: &Path) -> Process {
        // A program of the object tree (`./rust/test/macros`) is found there, not in our cwd.
        let mut p = match self.program.strip_prefix("./") {
            Some(rel) => Process::new(objtree.join(rel)),
            None => Process::new(&self.program),
        }
        .cwd(objtree);
        for (k, v) in &self.env {
            p = p.env(k, v);
        }
        p.env("RUSTC_BOOTSTRAP", "1").args(&self.args)
    }

    /// Shell form, as in Kbuild's `.cmd` files (`-v`).
    pub fn display(&self) -> String {
        let mut p = Process::new(&self.program);
        for (k, v) in &self.env {
            p = p.env(k, v);
        }
        let shown = p.args(&self.args).to_string();
        match &self.stdout {
            Some(o) => format!("{shown} >{o}"),
            None => shown,
        }
    }
}

/// Work Kbuild does on an output after the compiler (`rustc_objcopy`, `bindgen_target_extra`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum PostStep {
    /// `--redefine-sym X=__rustX` for each symbol: core's float/int128 intrinsics go to the
    /// panicking stubs in compiler_builtins.
    RedirectIntrinsics { symbols: Vec<String> },
    /// `-w -W '__*'`: compiler_builtins' symbols become weak.
    WeakenSymbols { pattern: String },
    /// `pub const RUST_CONST_HELPER_X` → `pub const X` in the bindings.
    RenameConstHelpers,
    /// `pub fn rust_helper_X` → `#[link_name="rust_helper_X"] pub fn X` in the helper bindings.
    LinkNameHelpers,
    /// `sed '1,/^\/\/ Cut here.$/d'`: the preprocessed `.rs.S` keeps what follows the cut.
    CutHere,
    /// `$(cmd_objtool)`: objtool checks and annotates the object (x86 with CONFIG_OBJTOOL),
    /// with what make exports to it (`SRCARCH`: Debian's objtool is a dispatcher by arch).
    Objtool {
        program: String,
        args: Vec<String>,
        env: Vec<(String, String)>,
    },
    /// Warn when the object still calls `rust_build_error` (a `build_assert!` that was not
    /// optimised away): 2021's RUST_BUILD_ASSERT_WARN, and a link error to come under DENY.
    CheckBuildError { deny: bool },
    /// `rustfmt --config-path $(srctree)/.rustfmt.toml $@` after a macro expansion (`.rsi`),
    /// when the program is found (Kbuild's `command -v $(RUSTFMT) &&`).
    Rustfmt { program: String, config: String },
    /// A program of the object tree run there after the command (the doctests' generator,
    /// `scripts/rustdoc_test_gen`).
    Generate {
        program: String,
        env: Vec<(String, String)>,
    },
    /// The `rustdoc` target's retouching: regex replacements in one crate's HTML pages, or
    /// (no crate) in the shared pages, with files copied into `static.files/` and a line
    /// appended to the CSS.
    Retouch {
        /// rustdoc's output folder, relative to the object tree.
        output: String,
        /// The crate whose folders (`NAME/`, `src/NAME/`) are retouched; none: the rest.
        krate: Option<String>,
        /// Source-tree files copied into `static.files/`.
        copy: Vec<String>,
        /// (regular expression, replacement) over every HTML file.
        replace: Vec<(String, String)>,
        css_line: String,
        /// The source tree whose files `srctree/` links must name, when they are checked.
        check_links_in: Option<String>,
    },
}

/// One step of the build.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Step {
    /// The main output, relative to the object tree (`rust/core.o`): the step's name.
    pub id: String,
    pub kind: StepKind,
    /// Kbuild's quiet tag (`RUSTC L`, `RUSTC [M]`, `BINDGEN`, `EXPORTS`).
    pub tag: String,
    pub crate_name: Option<String>,
    /// The source root (crate root or C header), as written in the command.
    pub root: Option<String>,
    /// Built for the host (proc macros) rather than the kernel target.
    pub host: bool,
    pub edition: Option<String>,
    /// Crates this one uses (`--extern`), resolved to steps by [`Plan::finish`].
    pub externs: Vec<String>,
    pub cfgs: Vec<String>,
    /// `rustc_target_flags`: the crate's own flags.
    pub extra_flags: Vec<String>,
    /// For drivers: the symbol that enables them.
    pub config: Option<String>,
    /// Built as a module (`--cfg MODULE`).
    pub module: bool,
    /// Linked into the kernel image or module (false for `build_error.o` unless allowed).
    pub linked: bool,
    /// Run through clippy-driver.
    pub clippy: bool,
    /// Runs every time it is asked for, never fresh nor cached (a test run).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub always: bool,
    /// Steps that must finish first (ids).
    pub deps: Vec<String>,
    /// Files read that the depfile may not name (bindgen parameters, target spec, objects).
    pub inputs: Vec<String>,
    /// Everything the step writes, relative to the object tree.
    pub outputs: Vec<String>,
    /// The dependency file the tool writes (rustc `--emit=dep-info`, clang `-MMD`).
    pub depfile: Option<String>,
    /// Its standard output is shown only with `-v` (Kbuild's `>/dev/null` unless V=1).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub quiet_stdout: bool,
    /// A folder emptied before the command runs (rustdoc saves the doctests there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empties: Option<String>,
    /// Another step's depfile whose inputs this one reads too (rustdoc reads what its
    /// crate's compile read, and writes no depfile itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inputs_from: Option<String>,
    /// `None` for steps rkbuild does itself (exports).
    pub command: Option<Command>,
    pub post: Vec<PostStep>,
}

impl Step {
    pub fn new(id: impl Into<String>, kind: StepKind, tag: &str) -> Step {
        Step {
            id: id.into(),
            kind,
            tag: tag.into(),
            crate_name: None,
            root: None,
            host: false,
            edition: None,
            externs: vec![],
            cfgs: vec![],
            extra_flags: vec![],
            config: None,
            module: false,
            linked: true,
            clippy: false,
            always: false,
            deps: vec![],
            inputs: vec![],
            outputs: vec![],
            depfile: None,
            inputs_from: None,
            empties: None,
            quiet_stdout: false,
            command: None,
            post: vec![],
        }
    }
}

/// A Rust driver the configuration leaves out.
pub use kbuild::Skipped;

/// The whole build.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Plan {
    pub vintage: Vintage,
    pub arch: Arch,
    pub srctree: PathBuf,
    pub objtree: PathBuf,
    pub build_assert: BuildAssert,
    /// Steps in an order where each comes after its dependencies.
    pub steps: Vec<Step>,
    pub skipped: Vec<Skipped>,
    /// Crates the steps use that were built before, elsewhere (the kernel's `rust/`, for an
    /// external module).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub prebuilt: Vec<String>,
    /// Each program's identity (`rustc -vV`, `bindgen --version`): part of every fingerprint.
    pub tools: BTreeMap<String, String>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlanError {
    #[error("{step}: uses `--extern {name}`, but no crate `{name}` is built{hint}\n  fix: build `{name}` (enable it, or add it to the tree), or drop the `--extern`")]
    UnknownExtern {
        step: String,
        name: String,
        hint: String,
    },
    #[error("the crates form a cycle: {0}\n  fix: one of these crates must stop using the next")]
    Cycle(String),
    #[error("two steps write `{0}`")]
    Duplicate(String),
    #[error("{0}")]
    Unsupported(String),
}

/// Everything a plan is made from besides the configuration.
#[derive(Clone, Debug)]
pub struct Inputs<'a> {
    pub ctx: &'a Ctx<'a>,
    /// The source tree, absolute.
    pub srctree: &'a Path,
    pub objtree: &'a Path,
    /// The object tree, absolute, as `OBJTREE=` spells it.
    pub objtree_abs: String,
    /// The `core` library source folder, as written in commands.
    pub lib_src: String,
    pub rustc: String,
    /// clippy-driver, when `--clippy` asks for it.
    pub clippy_driver: Option<String>,
    /// rustdoc, when a step runs it (doctests, documentation).
    pub rustdoc: Option<String>,
    pub bindgen: String,
    /// bindgen's version, when it was asked (`[bindgen] dropped` depends on it).
    pub bindgen_version: Option<semver::Version>,
    pub hostcc: String,
    pub hostldflags: String,
    /// The kernel's C flags for bindgen, already adjusted (see `commands::build`).
    pub bindgen_c_flags: Vec<String>,
    /// bindgen's clang target for the arch (`BINDGEN_TARGET_$(SRCARCH)`).
    pub bindgen_target: String,
    /// The kernel's C compiler, and whether `bindgen_c_flags` are the kernel's own (recorded
    /// by make): only then are `rust/`'s C files compiled.
    pub cc: Option<String>,
    /// What the arch adds to the C flags of module objects (KBUILD_CFLAGS_MODULE after
    /// `-DMODULE`), its `cc-option`s already asked of `cc`.
    pub module_c_flags: Vec<String>,
    /// The kernel's linker and KBUILD_LDFLAGS, as its `vmlinux.o` link recorded them (a built
    /// kernel); modules of several objects are linked with them.
    pub kernel_ld: Option<(String, Vec<String>)>,
    pub tools: BTreeMap<String, String>,
}

/// What a plan is for, besides building `rust/` and the drivers.
#[derive(Clone, Debug, Default)]
pub struct Goals {
    /// clippy-driver where Kbuild runs it with `CLIPPY=1`.
    pub clippy: bool,
    /// Single-file targets of drivers (`foo.rsi`, `foo.s`, `foo.ll` of a driver `foo.rs`).
    pub singles: Vec<String>,
    /// The steps of `make rusttest` too.
    pub rusttest: bool,
    /// The steps of `make rustdoc` too.
    pub rustdoc: bool,
}

/// Builds the plan for the tree's layout and the drivers its makefiles list, with what the
/// goals add.
pub fn make(inp: &Inputs, goals: &Goals) -> anyhow::Result<Plan> {
    let mut steps = rust_dir::steps(inp, goals.clippy)?;
    if goals.rusttest {
        steps.extend(rusttest::steps(inp, goals.clippy)?);
    }
    if goals.rustdoc {
        steps.extend(rustdoc::steps(inp)?);
    }
    steps.extend(doctests::steps(inp, goals.clippy)?);
    rust_dir::drop_unmade_generated(inp.ctx.vintage, &mut steps);
    drivers::with_drivers(inp, goals.clippy, steps, &goals.singles)
}

/// Words of a `bindgen_parameters` file: comments and blank lines dropped, shell-split.
pub fn bindgen_parameters(text: &str, path: &str) -> Result<Vec<String>, String> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.extend(shlex::split(t).ok_or_else(|| {
            format!(
                "{path}:{}: unbalanced quotes in `{t}`\n  fix: close the quote",
                i + 1
            )
        })?);
    }
    Ok(out)
}

pub(crate) fn program(inp: &Inputs, c: Compiler) -> String {
    match c {
        Compiler::ClippyDriver => inp
            .clippy_driver
            .clone()
            .unwrap_or_else(|| inp.rustc.clone()),
        Compiler::Rustc | Compiler::HostRustc => inp.rustc.clone(),
        Compiler::Rustdoc => inp.rustdoc.clone().unwrap_or_else(|| "rustdoc".into()),
    }
}

/// The command a template made, with its compiler's program.
pub(crate) fn command_of(inp: &Inputs, cmd: &crate::flags::crates::CrateCmd) -> Command {
    Command {
        env: cmd.env.clone(),
        program: program(inp, cmd.compiler),
        args: cmd.argv(),
        stdout: None,
    }
}

/// Reads `--extern`, `--cfg` and `--edition` out of a crate's own flags.
pub(crate) fn describe(step: &mut Step, flags: &[String]) {
    let mut it = flags.iter().peekable();
    while let Some(w) = it.next() {
        if w == "--extern" {
            if let Some(n) = it.next() {
                step.externs
                    .push(n.split('=').next().unwrap_or(n).to_string());
            }
        } else if w == "--cfg" {
            if let Some(c) = it.next() {
                step.cfgs.push(c.clone());
            }
        } else if let Some(c) = w.strip_prefix("--cfg=") {
            step.cfgs.push(c.trim_matches('\'').to_string());
        } else if let Some(e) = w.strip_prefix("--edition=") {
            step.edition = Some(e.to_string());
        }
    }
    step.extra_flags = flags.to_vec();
}

pub(crate) fn edition_of(args: &[Flag]) -> Option<String> {
    args.iter()
        .rev()
        .find_map(|f| f.arg.strip_prefix("--edition=").map(String::from))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;

    fn step(id: &str, name: &str, externs: &[&str]) -> Step {
        let mut s = Step::new(id, StepKind::Library, "RUSTC L");
        s.crate_name = Some(name.into());
        s.externs = externs.iter().map(|e| e.to_string()).collect();
        s
    }

    fn plan(steps: Vec<Step>) -> Plan {
        Plan {
            vintage: Layout::builtin("6.12"),
            arch: Arch::X86_64,
            srctree: ".".into(),
            objtree: ".".into(),
            build_assert: BuildAssert::Deny,
            steps,
            skipped: vec![],
            prebuilt: vec![],
            tools: BTreeMap::new(),
        }
    }

    #[test]
    fn orders_by_externs() {
        let p = plan(vec![
            step("rust/kernel.o", "kernel", &["bindings", "ffi"]),
            step("rust/bindings.o", "bindings", &["ffi"]),
            step("rust/ffi.o", "ffi", &[]),
        ])
        .finish()
        .unwrap();
        let ids: Vec<&str> = p.steps.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["rust/ffi.o", "rust/bindings.o", "rust/kernel.o"]);
        assert_eq!(p.step("rust/kernel.o").unwrap().deps.len(), 2);
    }

    #[test]
    fn unknown_extern_is_named_with_a_suggestion() {
        let e = plan(vec![
            step("rust/kernel.o", "kernel", &["bindigns"]),
            step("rust/bindings.o", "bindings", &[]),
        ])
        .finish()
        .unwrap_err()
        .to_string();
        assert!(e.contains("rust/kernel.o: uses `--extern bindigns`"), "{e}");
        assert!(e.contains("did you mean `bindings`"), "{e}");
        assert!(e.contains("fix:"), "{e}");
    }

    #[test]
    fn a_cycle_is_shown() {
        let e = plan(vec![
            step("rust/a.o", "a", &["b"]),
            step("rust/b.o", "b", &["c"]),
            step("rust/c.o", "c", &["a"]),
            step("rust/d.o", "d", &[]),
        ])
        .finish()
        .unwrap_err()
        .to_string();
        assert!(e.contains("cycle"), "{e}");
        assert!(
            e.contains("a → b → c → a")
                || e.contains("b → c → a → b")
                || e.contains("c → a → b → c"),
            "{e}"
        );
    }

    #[test]
    fn parameters_file_words() {
        let w = bindgen_parameters(
            "# comment\n\n--opaque-type x\n--no-debug '.*'\n",
            "rust/bindgen_parameters",
        )
        .unwrap();
        assert_eq!(w, ["--opaque-type", "x", "--no-debug", ".*"]);
        assert!(bindgen_parameters("--x 'y\n", "p")
            .unwrap_err()
            .contains("p:1"));
    }

    fn inputs_for<'a>(ctx: &'a Ctx<'a>, src: &'a Path) -> Inputs<'a> {
        Inputs {
            ctx,
            srctree: src,
            objtree: Path::new("/o"),
            objtree_abs: "/o".into(),
            lib_src: "/lib".into(),
            rustc: "rustc".into(),
            clippy_driver: Some("clippy-driver".into()),
            rustdoc: None,
            bindgen: "bindgen".into(),
            hostcc: "cc".into(),
            hostldflags: " ".into(),
            bindgen_c_flags: vec!["-D__KERNEL__".into()],
            cc: None,
            module_c_flags: vec![],
            kernel_ld: None,
            bindgen_target: "x86_64-linux-gnu".into(),
            tools: BTreeMap::new(),
            bindgen_version: None,
        }
    }

    #[test]
    fn the_2021_layout() {
        use crate::kconfig::{DotConfig, Format};
        let d = tempfile::tempdir().unwrap();
        for (p, t) in [
            ("Makefile", "obj-y += drivers/\n"),
            ("rust/bindgen_parameters", "--opaque-type xregs_state\n"),
            (
                "drivers/Makefile",
                "obj-$(CONFIG_BINDER) += rust_binder.o\n",
            ),
            ("drivers/rust_binder.rs", ""),
        ] {
            let p = d.path().join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, t).unwrap();
        }
        let cfg = DotConfig::parse(
            Path::new(".config"),
            "CONFIG_X86_64=y\nCONFIG_RUST=y\nCONFIG_RUST_BUILD_ASSERT_WARN=y\nCONFIG_BINDER=m\n",
            Format::DotConfig,
        )
        .unwrap();
        let rustc = crate::toolchain::RustcInfo::synthetic("1.85.0");
        let ctx = Ctx {
            cfg: &cfg,
            rustc: &rustc,
            vintage: Layout::builtin("2021"),
            arch: Arch::X86_64,
            krustflags: vec![],
            objtree: ".".into(),
            srctree: d.path().display().to_string(),
            out_of_srctree: true,
            has_remap_path_scope: false,
        };
        let goals = Goals {
            clippy: true,
            ..Goals::default()
        };
        let p = make(&inputs_for(&ctx, d.path()), &goals).unwrap();
        let ids: Vec<&str> = p.steps.iter().map(|s| s.id.as_str()).collect();
        for id in [
            "rust/core.o",
            "rust/compiler_builtins.o",
            "rust/alloc.o",
            "rust/build_error.o",
            "rust/libmacros.so",
            "rust/bindings_generated.rs",
            "rust/kernel.o",
            "rust/exports_alloc_generated.h",
            "drivers/rust_binder.o",
        ] {
            assert!(ids.contains(&id), "{id} missing from {ids:?}");
        }
        let alloc = p.step("rust/alloc.o").unwrap();
        assert_eq!(alloc.cfgs, ["no_global_oom_handling"]);
        assert_eq!(alloc.tag, "RUSTC L", "alloc is never linted");
        assert_eq!(p.step("rust/core.o").unwrap().tag, "RUSTC L");
        assert!(p.step("rust/core.o").unwrap().post.is_empty());
        let kernel = p.step("rust/kernel.o").unwrap();
        assert_eq!(kernel.tag, "CLIPPY L");
        assert_eq!(kernel.externs, ["alloc", "build_error", "macros"]);
        assert!(kernel
            .deps
            .contains(&"rust/bindings_generated.rs".to_string()));
        let env = &kernel.command.as_ref().unwrap().env;
        assert_eq!(env[0].0, "RUST_BINDINGS_FILE");
        assert!(
            p.step("rust/build_error.o").unwrap().linked,
            "WARN links build_error"
        );
        let binder = p.step("drivers/rust_binder.o").unwrap();
        assert!(binder.externs.contains(&"alloc".to_string()));
        assert!(binder.module);
        let bg = p.step("rust/bindings_generated.rs").unwrap();
        assert!(bg
            .command
            .as_ref()
            .unwrap()
            .args
            .contains(&"c_types".to_string()));
        // The graph is ordered: kernel after alloc and macros.
        let pos = |id: &str| ids.iter().position(|x| *x == id).unwrap();
        assert!(pos("rust/alloc.o") < pos("rust/kernel.o"));
        assert!(pos("rust/libmacros.so") < pos("rust/kernel.o"));
    }
}
