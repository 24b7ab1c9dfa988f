//! Whole compile commands: a flag base (`rust_flags`, `rust_common_flags` or none) followed by
//! the words of a command template from the layout (`cmd_rustc_library`, `rust_common_cmd`,
//! `cmd_rustc_procmacro`, `cmd_bindgen` …) filled for one crate. One function makes every
//! command, as Bazel's rules_rust makes every crate record into a command line. Pure: the
//! caller runs them (exec) or records them (analyzer).

use super::{rust_common_flags, rust_flags, Ctx, Flag, FlagError, ObjKind};
use crate::layout::{expand, CmdTemplate, Vars};

/// The compiler a step runs: rustc, or clippy-driver when `--clippy` asks and the crate allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Compiler {
    Rustc,
    ClippyDriver,
    /// The host compiler for proc macros (`HOSTRUSTC`): the same rustc.
    HostRustc,
    /// `RUSTDOC` (doctests, documentation).
    Rustdoc,
}

/// A compile command: environment, compiler and arguments.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CrateCmd {
    pub env: Vec<(String, String)>,
    pub compiler: Compiler,
    pub args: Vec<Flag>,
}

impl CrateCmd {
    pub fn argv(&self) -> Vec<String> {
        super::args(&self.args)
    }
}

/// What one command is made for, besides its template.
#[derive(Clone, Debug)]
pub struct Unit<'a> {
    /// Built into the kernel or a module (decides `--cfg MODULE` in `rust_flags`).
    pub kind: ObjKind,
    /// Filled placeholders and lists (`{name}`, `{target_flags}` …).
    pub vars: &'a Vars,
    /// `skip_flags`: removed from the flag base.
    pub skip_flags: &'a [String],
    /// Never run through clippy.
    pub skip_clippy: bool,
    /// `rustc_target_envs`, before the template's env.
    pub env: &'a [[String; 2]],
}

/// The reason shown for a template's words in `--explain`.
fn template_why(t: &CmdTemplate) -> String {
    format!("the layout's `{}` command", t.tag)
}

/// Any rule of the layout, filled for one unit.
pub fn command(ctx: &Ctx, t: &CmdTemplate, u: &Unit, clippy: bool) -> Result<CrateCmd, FlagError> {
    let base = match t.base.as_str() {
        "rust-flags" => rust_flags(ctx, u.kind)?,
        "rust-common-flags" => rust_common_flags(ctx),
        _ => vec![],
    };
    // `{cross_flags}`: the 2021 per-rule target (empty where the target is in KBUILD_RUSTFLAGS).
    let mut vars = u.vars.clone();
    vars.list(
        "cross_flags",
        super::args(&crate::targetspec::cross_flags(ctx)),
    );
    let why = template_why(t);
    let pre = expand(&t.pre, &vars).map_err(FlagError::Contradiction)?;
    let mut args: Vec<Flag> = pre.into_iter().map(|w| Flag::new(w, why.clone())).collect();
    // `$(filter-out $(skip_flags) …,base)`: make's patterns.
    args.extend(base.into_iter().filter(|f| {
        !crate::makefile::filtered_out(&f.arg, u.skip_flags)
            && !crate::makefile::filtered_out(&f.arg, &t.remove)
    }));
    let words = expand(&t.args, &vars).map_err(FlagError::Contradiction)?;
    args.extend(words.into_iter().map(|w| Flag::new(w, why.clone())));
    let mut env = vec![];
    for [k, v] in u.env.iter().chain(&t.env) {
        env.push((k.clone(), vars.fill(v).map_err(FlagError::Contradiction)?));
    }
    let compiler = match t.compiler.as_str() {
        "rustdoc" => Compiler::Rustdoc,
        _ if clippy && t.clippy && !u.skip_clippy => Compiler::ClippyDriver,
        "host-rustc" => Compiler::HostRustc,
        _ => Compiler::Rustc,
    };
    Ok(CrateCmd {
        env,
        compiler,
        args,
    })
}

/// The features drivers may use (`rust_allowed_features`).
pub fn driver_features(vintage: crate::tree::Vintage) -> &'static str {
    &vintage.driver.features
}

/// The depfile clang writes for a bindgen output (`rust/bindings/.bindings_generated.rs.d`).
pub fn bindgen_depfile(output: &str) -> String {
    let (dir, file) = output.rsplit_once('/').unwrap_or((".", output));
    format!("{dir}/.{file}.d")
}

/// One bindgen run (`cmd_bindgen` in rust/Makefile).
#[derive(Clone, Debug, Default)]
pub struct Bindgen<'a> {
    /// The C input as written (`$SRCTREE/rust/bindings/bindings_helper.h`).
    pub input: String,
    /// The output, relative to the object tree (`rust/bindings/bindings_generated.rs`).
    pub output: &'a str,
    /// The depfile clang writes, when the rule asks for one.
    pub depfile: Option<String>,
    /// `bindgen_target_flags`: `rust/bindgen_parameters` words, or the helpers' allowlist.
    pub target_flags: Vec<String>,
    /// The kernel's C flags for bindgen (`bindgen_c_flags`), without the depfile flag and the
    /// per-object `KBUILD_*` defines, which the template adds.
    pub c_flags: Vec<String>,
    /// `bindgen_target_cflags` (the helpers add `-I./rust -Wno-missing-prototypes ...`).
    pub target_cflags: Vec<String>,
    /// The bindgen that runs, when known: the layout's arguments it no longer takes are left
    /// out (`[bindgen] dropped`).
    pub version: Option<semver::Version>,
}

/// `cmd_bindgen`: the arguments after the program name, from the layout's template.
pub fn bindgen(ctx: &Ctx, b: &Bindgen, base: &Vars) -> Result<Vec<Flag>, FlagError> {
    let file = b.output.rsplit('/').next().unwrap_or(b.output);
    let mut v = base.clone();
    v.set("input", b.input.clone())
        .set("output", b.output)
        .set("out_stem", file.strip_suffix(".rs").unwrap_or(file))
        .list("target_flags", b.target_flags.clone())
        .list("c_flags", b.c_flags.clone())
        .list("target_cflags", b.target_cflags.clone())
        .list(
            "depfile_flag",
            b.depfile.iter().map(|d| format!("-Wp,-MMD,{d}")).collect(),
        );
    let why = "rust/Makefile: cmd_bindgen";
    let words = expand(&ctx.vintage.bindgen.args_for(b.version.as_ref()), &v)
        .map_err(FlagError::Contradiction)?;
    Ok(words.into_iter().map(|w| Flag::new(w, why)).collect())
}
