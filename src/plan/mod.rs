//! Stage 4: the plan — the crate graph of a tree and every step that builds it, as data.
//!
//! The library crates under `rust/` come from the tree's vintage (the layout of its
//! `rust/Makefile`); drivers come from the tree's Kbuild makefiles ([`kbuild`]). Every compile
//! command is made by the pure functions in [`crate::flags::crates`], so a plan step is the
//! command Kbuild would run, and `rkbuild plan` shows exactly what `rkbuild build` will do.
//!
//! Steps name their inputs by crate (`--extern kernel`) and by file; [`Plan::finish`] resolves
//! the crates to steps, rejects unknown ones and cycles, and orders the steps so every step
//! comes after what it needs.

pub mod kbuild;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use crate::flags::crates::{self, Compiler, CrateCmd, Library};
use crate::flags::{self, BuildAssert, Ctx, Flag, ObjKind};
use crate::process::Process;
use crate::target;
use crate::tree::{Arch, Vintage};

/// What a step makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepKind {
    /// A library crate under `rust/` (`cmd_rustc_library`).
    Library,
    /// A host proc-macro crate (`cmd_rustc_procmacro`).
    ProcMacro,
    /// A driver object (`%.o: %.rs`).
    Driver,
    /// Rust bindings from a C header (`cmd_bindgen`).
    Bindgen,
    /// `EXPORT_SYMBOL_RUST_GPL` lines for the symbols an object defines (`cmd_exports`).
    Exports,
}

/// A command line: environment, program and arguments, run in the object tree.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Command {
    pub env: Vec<(String, String)>,
    pub program: String,
    pub args: Vec<String>,
}

impl Command {
    /// The process, run in `objtree`, with `RUSTC_BOOTSTRAP=1` as the top Makefile exports it.
    pub fn process(&self, objtree: &Path) -> Process {
        let mut p = Process::new(&self.program).cwd(objtree);
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
        p.args(&self.args).to_string()
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
    /// Warn when the object still calls `rust_build_error` (a `build_assert!` that was not
    /// optimised away): 2021's RUST_BUILD_ASSERT_WARN, and a link error to come under DENY.
    CheckBuildError { deny: bool },
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
    /// Steps that must finish first (ids).
    pub deps: Vec<String>,
    /// Files read that the depfile may not name (bindgen parameters, target spec, objects).
    pub inputs: Vec<String>,
    /// Everything the step writes, relative to the object tree.
    pub outputs: Vec<String>,
    /// The dependency file the tool writes (rustc `--emit=dep-info`, clang `-MMD`).
    pub depfile: Option<String>,
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
            deps: vec![],
            inputs: vec![],
            outputs: vec![],
            depfile: None,
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

impl Plan {
    /// Resolves externs to steps, checks the graph and orders the steps.
    pub fn finish(mut self) -> Result<Plan, PlanError> {
        let mut by_crate: HashMap<String, String> = HashMap::new();
        let mut ids = std::collections::HashSet::new();
        for s in &self.steps {
            if !ids.insert(s.id.clone()) {
                return Err(PlanError::Duplicate(s.id.clone()));
            }
            if let (Some(name), StepKind::Library | StepKind::ProcMacro) = (&s.crate_name, s.kind) {
                by_crate.insert(name.clone(), s.id.clone());
            }
        }
        for s in &mut self.steps {
            for e in &s.externs {
                // Sysroot crates the compiler provides itself.
                if matches!(e.as_str(), "proc_macro" | "core" | "alloc") && s.host {
                    continue;
                }
                match by_crate.get(e) {
                    Some(id) => {
                        if !s.deps.contains(id) {
                            s.deps.push(id.clone());
                        }
                    }
                    None => {
                        let hint = closest(e, by_crate.keys().map(String::as_str))
                            .map(|c| format!(" (did you mean `{c}`?)"))
                            .unwrap_or_default();
                        return Err(PlanError::UnknownExtern {
                            step: s.id.clone(),
                            name: e.clone(),
                            hint,
                        });
                    }
                }
            }
            for d in &s.deps {
                if !ids.contains(d) {
                    return Err(PlanError::UnknownExtern {
                        step: s.id.clone(),
                        name: d.clone(),
                        hint: String::new(),
                    });
                }
            }
        }
        self.steps = topo_order(std::mem::take(&mut self.steps))?;
        Ok(self)
    }

    pub fn step(&self, id: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.id == id)
    }
}

/// Kahn's algorithm, keeping the given order among ready steps; a leftover is a cycle.
fn topo_order(steps: Vec<Step>) -> Result<Vec<Step>, PlanError> {
    let index: HashMap<&str, usize> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i))
        .collect();
    let mut missing: Vec<usize> = steps.iter().map(|s| s.deps.len()).collect();
    let mut users: Vec<Vec<usize>> = vec![vec![]; steps.len()];
    for (i, s) in steps.iter().enumerate() {
        for d in &s.deps {
            users[index[d.as_str()]].push(i);
        }
    }
    let mut order = vec![];
    let mut ready: std::collections::BTreeSet<usize> =
        (0..steps.len()).filter(|&i| missing[i] == 0).collect();
    while let Some(i) = ready.pop_first() {
        order.push(i);
        for &u in &users[i] {
            missing[u] -= 1;
            if missing[u] == 0 {
                ready.insert(u);
            }
        }
    }
    if order.len() != steps.len() {
        // Walk the dependencies of a step left over until one repeats: that is the cycle.
        let left: Vec<usize> = (0..steps.len()).filter(|i| missing[*i] > 0).collect();
        let mut path = vec![left[0]];
        loop {
            let cur = *path.last().unwrap();
            let next = steps[cur]
                .deps
                .iter()
                .map(|d| index[d.as_str()])
                .find(|d| missing[*d] > 0)
                .expect("a step in a cycle waits on another");
            if let Some(p) = path.iter().position(|&x| x == next) {
                let names: Vec<String> = path[p..]
                    .iter()
                    .chain(std::iter::once(&next))
                    .map(|&i| {
                        steps[i]
                            .crate_name
                            .clone()
                            .unwrap_or_else(|| steps[i].id.clone())
                    })
                    .collect();
                return Err(PlanError::Cycle(names.join(" → ")));
            }
            path.push(next);
        }
    }
    let mut slots: Vec<Option<Step>> = steps.into_iter().map(Some).collect();
    Ok(order
        .into_iter()
        .map(|i| slots[i].take().expect("each once"))
        .collect())
}

/// The known name closest to a misspelt one (edit distance ≤ 2).
fn closest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    fn dist(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut cur = vec![i + 1];
            for (j, cb) in b.iter().enumerate() {
                cur.push(
                    (prev[j] + usize::from(ca != *cb))
                        .min(prev[j + 1] + 1)
                        .min(cur[j] + 1),
                );
            }
            prev = cur;
        }
        prev[b.len()]
    }
    known
        .map(|k| (dist(name, k), k))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, k)| k)
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
    pub bindgen: String,
    pub hostcc: String,
    pub hostldflags: String,
    /// The kernel's C flags for bindgen, already adjusted (see `commands::build`).
    pub bindgen_c_flags: Vec<String>,
    pub tools: BTreeMap<String, String>,
}

/// The intrinsics `core` references that the kernel redirects to panicking stubs.
pub fn redirect_intrinsics(ctx: &Ctx) -> Vec<String> {
    let mut syms: Vec<&str> = vec![
        "__addsf3",
        "__eqsf2",
        "__extendsfdf2",
        "__gesf2",
        "__lesf2",
        "__ltsf2",
        "__mulsf3",
        "__nesf2",
        "__truncdfsf2",
        "__unordsf2",
        "__adddf3",
        "__eqdf2",
        "__ledf2",
        "__ltdf2",
        "__muldf3",
        "__unorddf2",
        "__muloti4",
        "__multi3",
        "__udivmodti4",
        "__udivti3",
        "__umodti3",
    ];
    if ctx.arch == Arch::Arm && ctx.vintage == Vintage::K7_3 {
        syms.extend([
            "__aeabi_fadd",
            "__aeabi_fmul",
            "__aeabi_fcmpeq",
            "__aeabi_fcmple",
            "__aeabi_fcmplt",
            "__aeabi_fcmpun",
            "__aeabi_dadd",
            "__aeabi_dmul",
            "__aeabi_dcmple",
            "__aeabi_dcmplt",
            "__aeabi_dcmpun",
            "__aeabi_uldivmod",
        ]);
    }
    if ctx.on("ARM64") || (ctx.on("RISCV") && ctx.on("64BIT")) {
        syms.extend(["__ashrti3", "__ashlti3", "__lshrti3"]);
    }
    if ctx.vintage == Vintage::K7_3 && ctx.on("PPC32") {
        syms.extend(["__udivdi3", "__umoddi3"]);
    }
    syms.into_iter().map(String::from).collect()
}

/// The host side and command of the `macros` proc-macro step (clippy-driver on request).
fn proc_macro_command(s: &mut Step, inp: &Inputs, args: &[Flag], clippy: bool, rustc: Compiler) {
    s.host = true;
    s.clippy = clippy;
    s.externs = vec!["proc_macro".into()];
    s.edition = edition_of(args);
    s.command = Some(Command {
        env: vec![],
        program: program(
            inp,
            if clippy {
                Compiler::ClippyDriver
            } else {
                rustc
            },
        ),
        args: flags::args(args),
    });
}

/// Reads the tree's `rust/bindgen_parameters` (the layout's extra bindgen arguments).
fn read_bindgen_parameters(inp: &Inputs, rel: &str, layout: &str) -> anyhow::Result<Vec<String>> {
    let path = inp.srctree.join(rel);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        anyhow::anyhow!(
            "cannot read `{}`: {e}\n  fix: the {layout} layout keeps bindgen's arguments there",
            path.display()
        )
    })?;
    bindgen_parameters(&text, &path.display().to_string()).map_err(anyhow::Error::msg)
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

fn program(inp: &Inputs, c: Compiler) -> String {
    match c {
        Compiler::ClippyDriver => inp
            .clippy_driver
            .clone()
            .unwrap_or_else(|| inp.rustc.clone()),
        Compiler::Rustc | Compiler::HostRustc => inp.rustc.clone(),
    }
}

/// Reads `--extern`, `--cfg` and `--edition` out of a crate's own flags.
fn describe(step: &mut Step, flags: &[String]) {
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

fn edition_of(args: &[Flag]) -> Option<String> {
    args.iter()
        .rev()
        .find_map(|f| f.arg.strip_prefix("--edition=").map(String::from))
}

fn library_step(inp: &Inputs, lib: &Library, clippy: bool) -> Result<Step, PlanError> {
    let cmd: CrateCmd = crates::library(inp.ctx, &inp.objtree_abs, lib, clippy)
        .map_err(|e| PlanError::Unsupported(e.to_string()))?;
    let name = lib.name;
    let clippy_on = cmd.compiler == Compiler::ClippyDriver;
    let mut s = Step::new(
        format!("rust/{name}.o"),
        StepKind::Library,
        if clippy_on { "CLIPPY L" } else { "RUSTC L" },
    );
    s.crate_name = Some(name.to_string());
    s.root = Some(lib.root.clone());
    s.clippy = clippy_on;
    describe(&mut s, &lib.target_flags);
    if s.edition.is_none() {
        s.edition = edition_of(&cmd.args);
    }
    s.outputs = vec![format!("rust/{name}.o"), format!("rust/lib{name}.rmeta")];
    s.depfile = Some(format!("rust/.{name}.o.d"));
    if inp.ctx.vintage == Vintage::V2021 {
        s.depfile = Some(format!("rust/{name}.d"));
    }
    s.inputs.extend(spec_input(inp));
    s.command = Some(Command {
        env: cmd.env.clone(),
        program: program(inp, cmd.compiler),
        args: cmd.argv(),
    });
    Ok(s)
}

/// The generated target spec, when the arch uses one: an input of every target crate.
fn spec_input(inp: &Inputs) -> Option<String> {
    target::uses_spec(inp.ctx.vintage, inp.ctx.arch)
        .then(|| target::spec_path(inp.ctx.vintage).to_string())
}

fn exports_step(obj_step: &str, header: &str) -> Step {
    let mut s = Step::new(header, StepKind::Exports, "EXPORTS");
    s.deps = vec![obj_step.to_string()];
    s.inputs = vec![obj_step.to_string()];
    s.outputs = vec![header.to_string()];
    s
}

/// The flags the bindings and uapi bindgen runs share.
const BINDGEN_PARAMETERS: &str = "rust/bindgen_parameters";

/// A bindgen run with the flags of `rust/bindgen_parameters`, which it then depends on.
fn parameters_bindgen(inp: &Inputs, params: &[String], header: &str, output: &str) -> Step {
    let file = format!("{}/{BINDGEN_PARAMETERS}", inp.ctx.srctree);
    bindgen_step(inp, header, output, params.to_vec(), vec![], vec![file])
}

fn bindgen_step(
    inp: &Inputs,
    input_rel: &str,
    output: &str,
    target_flags: Vec<String>,
    target_cflags: Vec<String>,
    extra_inputs: Vec<String>,
) -> Step {
    let b = crates::Bindgen {
        input: format!("{}/{input_rel}", inp.ctx.srctree),
        output,
        target_flags,
        c_flags: inp.bindgen_c_flags.clone(),
        target_cflags,
    };
    let args = flags::args(&crates::bindgen(inp.ctx, &b));
    let mut s = Step::new(output, StepKind::Bindgen, "BINDGEN");
    s.root = Some(b.input.clone());
    s.outputs = vec![output.to_string()];
    s.depfile = Some(crates::bindgen_depfile(output));
    s.inputs = extra_inputs;
    s.inputs.push(b.input.clone());
    s.command = Some(Command {
        env: vec![],
        program: inp.bindgen.clone(),
        args,
    });
    s
}

/// Builds the plan for the tree's vintage and the drivers its makefiles list.
pub fn make(inp: &Inputs, clippy: bool) -> anyhow::Result<Plan> {
    let steps = match inp.ctx.vintage {
        Vintage::K6_12 => steps_6_12(inp, clippy)?,
        Vintage::V2021 => steps_2021(inp, clippy)?,
        Vintage::K7_3 => {
            return Err(PlanError::Unsupported(
                "`rkbuild build` knows the 2021 and 6.12 layouts of rust/ today; this tree is 7.3 (pin_init, zerocopy, syn): use `rkbuild config` and the kernel's make for it\n  fix: `make LLVM=1 RUSTC=... prepare`".into(),
            )
            .into())
        }
    };
    with_drivers(inp, clippy, steps)
}

/// The library crates of the 6.12 layout (`rust/Makefile` of Linux 6.12).
fn steps_6_12(inp: &Inputs, clippy: bool) -> anyhow::Result<Vec<Step>> {
    let ctx = inp.ctx;
    let src = |rel: &str| format!("{}/{rel}", ctx.srctree);
    let mut steps = vec![];

    // core: the vintage's edition and cfgs; its intrinsics redirected to compiler_builtins.
    let core = crates::core_library(ctx, &inp.lib_src);
    let mut s = library_step(inp, &core, clippy)?;
    s.post.push(PostStep::RedirectIntrinsics {
        symbols: redirect_intrinsics(ctx),
    });
    steps.push(s);

    let lib = |name: &'static str, root: String, target_flags: Vec<String>| Library {
        name,
        root,
        target_flags,
        ..Library::default()
    };
    let mut s = library_step(
        inp,
        &lib(
            "compiler_builtins",
            src("rust/compiler_builtins.rs"),
            vec![],
        ),
        clippy,
    )?;
    s.deps.push("rust/core.o".into());
    s.post.push(PostStep::WeakenSymbols {
        pattern: "__*".into(),
    });
    steps.push(s);

    // macros: a host proc macro.
    let root = src("rust/macros/lib.rs");
    let args = crates::proc_macro(ctx, "macros", &root, &[], &inp.hostcc, &inp.hostldflags);
    let mut s = Step::new(
        "rust/libmacros.so",
        StepKind::ProcMacro,
        if clippy { "CLIPPY P" } else { "RUSTC P" },
    );
    s.crate_name = Some("macros".into());
    s.root = Some(root);
    s.outputs = vec!["rust/libmacros.so".into()];
    s.depfile = Some("rust/.libmacros.so.d".into());
    proc_macro_command(&mut s, inp, &args, clippy, Compiler::HostRustc);
    steps.push(s);

    for name in ["ffi", "build_error"] {
        let mut s = library_step(
            inp,
            &lib(name, src(&format!("rust/{name}.rs")), vec![]),
            clippy,
        )?;
        s.deps.push("rust/compiler_builtins.o".into());
        if name == "build_error" {
            s.linked = flags::build_assert(ctx).0 != BuildAssert::Deny;
        }
        steps.push(s);
    }

    // Bindings: bindgen over the C headers, then the crates that include the output.
    let params = read_bindgen_parameters(inp, BINDGEN_PARAMETERS, "6.12")?;
    let mut b = parameters_bindgen(
        inp,
        &params,
        "rust/bindings/bindings_helper.h",
        "rust/bindings/bindings_generated.rs",
    );
    b.post.push(PostStep::RenameConstHelpers);
    steps.push(b);
    let mut bindings_deps = vec!["rust/bindings/bindings_generated.rs".to_string()];
    if inp.srctree.join("rust/helpers/helpers.c").is_file() {
        let mut h = bindgen_step(
            inp,
            "rust/helpers/helpers.c",
            "rust/bindings/bindings_helpers_generated.rs",
            [
                "--blocklist-type",
                ".*",
                "--allowlist-var",
                "",
                "--allowlist-function",
                "rust_helper_.*",
            ]
            .map(String::from)
            .to_vec(),
            [
                "-I./rust",
                "-Wno-missing-prototypes",
                "-Wno-missing-declarations",
            ]
            .map(String::from)
            .to_vec(),
            vec![],
        );
        h.post.push(PostStep::LinkNameHelpers);
        steps.push(h);
        bindings_deps.push("rust/bindings/bindings_helpers_generated.rs".into());
    }
    steps.push(parameters_bindgen(
        inp,
        &params,
        "rust/uapi/uapi_helper.h",
        "rust/uapi/uapi_generated.rs",
    ));
    let ext = |names: &[&str]| -> Vec<String> {
        names
            .iter()
            .flat_map(|n| ["--extern".to_string(), n.to_string()])
            .collect()
    };
    let mut s = library_step(
        inp,
        &lib("bindings", src("rust/bindings/lib.rs"), ext(&["ffi"])),
        clippy,
    )?;
    s.deps.extend(bindings_deps);
    steps.push(s);
    let mut s = library_step(
        inp,
        &lib("uapi", src("rust/uapi/lib.rs"), ext(&["ffi"])),
        clippy,
    )?;
    s.deps.push("rust/uapi/uapi_generated.rs".into());
    steps.push(s);
    steps.push(library_step(
        inp,
        &lib(
            "kernel",
            src("rust/kernel/lib.rs"),
            ext(&["ffi", "build_error", "macros", "bindings", "uapi"]),
        ),
        clippy,
    )?);
    for c in ["core", "bindings", "kernel"] {
        steps.push(exports_step(
            &format!("rust/{c}.o"),
            &format!("rust/exports_{c}_generated.h"),
        ));
    }

    Ok(steps)
}

/// The library crates of the 2021 layout (the seeds' `rust/Makefile`): alloc is built here
/// (`--cfg no_global_oom_handling`), the bindings are one generated file the kernel crate
/// includes, and no intrinsics are redirected.
fn steps_2021(inp: &Inputs, clippy: bool) -> anyhow::Result<Vec<Step>> {
    let ctx = inp.ctx;
    let src = |rel: &str| format!("{}/{rel}", ctx.srctree);
    let mut steps = vec![];
    let fix_2021 = |mut s: Step| {
        let name = s.crate_name.clone().unwrap_or_default();
        // `--emit=dep-info,obj,metadata --out-dir rust/`: rustc names the depfile itself.
        s.depfile = Some(format!("rust/{name}.d"));
        s.outputs.push(format!("rust/{name}.d"));
        s
    };
    let core = crates::core_library(ctx, &inp.lib_src);
    steps.push(fix_2021(library_step(inp, &core, clippy)?));
    let lib =
        |name: &'static str, root: String, target_flags: Vec<String>, skip_clippy: bool| Library {
            name,
            root,
            target_flags,
            skip_clippy,
            ..Library::default()
        };
    let mut s = fix_2021(library_step(
        inp,
        &lib(
            "compiler_builtins",
            src("rust/compiler_builtins.rs"),
            vec![],
            false,
        ),
        clippy,
    )?);
    s.deps.push("rust/core.o".into());
    s.post.push(PostStep::WeakenSymbols {
        pattern: "__*".into(),
    });
    steps.push(s);
    let mut s = fix_2021(library_step(
        inp,
        &lib(
            "alloc",
            src("rust/alloc/lib.rs"),
            vec!["--cfg".into(), "no_global_oom_handling".into()],
            true,
        ),
        clippy,
    )?);
    s.deps.push("rust/compiler_builtins.o".into());
    steps.push(s);
    let mut s = fix_2021(library_step(
        inp,
        &lib("build_error", src("rust/build_error.rs"), vec![], false),
        clippy,
    )?);
    s.deps.push("rust/compiler_builtins.o".into());
    s.linked = flags::build_assert(ctx).0 != BuildAssert::Deny;
    steps.push(s);

    let root = src("rust/macros/lib.rs");
    let args = crates::proc_macro_2021(ctx, "macros", &root)
        .map_err(|e| PlanError::Unsupported(e.to_string()))?;
    let mut s = Step::new(
        "rust/libmacros.so",
        StepKind::ProcMacro,
        if clippy { "CLIPPY P" } else { "RUSTC P" },
    );
    s.crate_name = Some("macros".into());
    s.root = Some(root);
    s.outputs = vec!["rust/libmacros.so".into(), "rust/macros.d".into()];
    s.depfile = Some("rust/macros.d".into());
    // A proc macro only loads into the rustc that built it: rebuilt with core (2021 rule).
    s.deps.push("rust/core.o".into());
    proc_macro_command(&mut s, inp, &args, clippy, Compiler::Rustc);
    steps.push(s);

    let params = read_bindgen_parameters(inp, BINDGEN_PARAMETERS, "2021")?;
    let mut b = parameters_bindgen(
        inp,
        &params,
        "rust/kernel/bindings_helper.h",
        "rust/bindings_generated.rs",
    );
    // 2021 passed no depfile flag of its own to bindgen.
    b.depfile = None;
    steps.push(b);
    let mut s = fix_2021(library_step(
        inp,
        &lib(
            "kernel",
            src("rust/kernel/lib.rs"),
            [
                "--extern",
                "alloc",
                "--extern",
                "build_error",
                "--extern",
                &format!("macros={}/rust/libmacros.so", ctx.objtree),
            ]
            .map(String::from)
            .to_vec(),
            false,
        ),
        clippy,
    )?);
    s.deps.push("rust/bindings_generated.rs".into());
    steps.push(s);
    for c in ["core", "alloc", "kernel"] {
        steps.push(exports_step(
            &format!("rust/{c}.o"),
            &format!("rust/exports_{c}_generated.h"),
        ));
    }
    Ok(steps)
}

/// Adds the drivers the makefiles list, and checks and orders the whole graph.
fn with_drivers(inp: &Inputs, clippy: bool, mut steps: Vec<Step>) -> anyhow::Result<Plan> {
    let ctx = inp.ctx;
    let src = |rel: &str| format!("{}/{rel}", ctx.srctree);
    let assert_mode = flags::build_assert(ctx).0;
    let check = (assert_mode != BuildAssert::Allow).then_some(PostStep::CheckBuildError {
        deny: assert_mode == BuildAssert::Deny,
    });
    if let Some(k) = steps.iter_mut().find(|s| s.id == "rust/kernel.o") {
        k.post.extend(check.clone());
    }
    let (drivers, skipped) = kbuild::scan(inp.srctree, ctx.cfg, &["rust/", "scripts/"])?;
    for d in drivers {
        let kind = d.kind;
        let modfile = d.obj.strip_suffix(".o").unwrap_or(&d.obj).to_string();
        let cmd = crates::driver(
            ctx,
            &inp.objtree_abs,
            &crates::Driver {
                src: src(&d.src),
                obj: &d.obj,
                kind,
                modfile,
            },
            clippy,
        )
        .map_err(|e| PlanError::Unsupported(e.to_string()))?;
        let tool = if cmd.compiler == Compiler::ClippyDriver {
            "CLIPPY"
        } else {
            "RUSTC"
        };
        let tag = if kind == ObjKind::Module {
            format!("{tool} [M]")
        } else {
            // Kbuild's `quiet_modtag` is three spaces for built-in objects.
            format!("{tool}    ")
        };
        let mut s = Step::new(&d.obj, StepKind::Driver, &tag);
        let stem = Path::new(&d.obj)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        s.crate_name = Some(stem.clone());
        s.root = Some(src(&d.src));
        s.config = d.symbol.clone();
        s.module = kind == ObjKind::Module;
        s.clippy = cmd.compiler == Compiler::ClippyDriver;
        let argv = cmd.argv();
        describe(&mut s, &argv);
        s.extra_flags = vec![];
        s.cfgs.retain(|c| c == "MODULE");
        let dir = d.obj.rsplit_once('/').map(|(d, _)| d).unwrap_or(".");
        s.outputs = vec![d.obj.clone()];
        s.depfile = Some(if ctx.vintage == Vintage::V2021 {
            format!("{dir}/{stem}.d")
        } else {
            format!("{dir}/.{stem}.o.d")
        });
        s.inputs.extend(spec_input(inp));
        s.command = Some(Command {
            env: cmd.env.clone(),
            program: program(inp, cmd.compiler),
            args: argv,
        });
        s.post.extend(check.clone());
        steps.push(s);
    }

    Ok(Plan {
        vintage: ctx.vintage,
        arch: ctx.arch,
        srctree: inp.srctree.to_path_buf(),
        objtree: inp.objtree.to_path_buf(),
        build_assert: flags::build_assert(ctx).0,
        steps,
        skipped,
        tools: inp.tools.clone(),
    }
    .finish()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(id: &str, name: &str, externs: &[&str]) -> Step {
        let mut s = Step::new(id, StepKind::Library, "RUSTC L");
        s.crate_name = Some(name.into());
        s.externs = externs.iter().map(|e| e.to_string()).collect();
        s
    }

    fn plan(steps: Vec<Step>) -> Plan {
        Plan {
            vintage: Vintage::K6_12,
            arch: Arch::X86_64,
            srctree: ".".into(),
            objtree: ".".into(),
            build_assert: BuildAssert::Deny,
            steps,
            skipped: vec![],
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
            bindgen: "bindgen".into(),
            hostcc: "cc".into(),
            hostldflags: " ".into(),
            bindgen_c_flags: vec!["-D__KERNEL__".into()],
            tools: BTreeMap::new(),
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
            vintage: Vintage::V2021,
            arch: Arch::X86_64,
            krustflags: vec![],
            objtree: ".".into(),
            srctree: d.path().display().to_string(),
            out_of_srctree: true,
            has_remap_path_scope: false,
        };
        let p = make(&inputs_for(&ctx, d.path()), true).unwrap();
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
