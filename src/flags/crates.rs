//! Whole compile commands for the kinds of crate Kbuild builds: libraries under `rust/`
//! (`cmd_rustc_library`), drivers (`rust_common_cmd` in Makefile.build) and proc macros
//! (`cmd_rustc_procmacro`). Pure: the caller runs them (exec) or records them (analyzer).

use super::{rust_common_flags, rust_flags, Ctx, Flag, FlagError, ObjKind};
use crate::target;
use crate::tree::Vintage;

/// The compiler a step runs: rustc, or clippy-driver when `--clippy` asks and the crate allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Compiler {
    Rustc,
    ClippyDriver,
    /// The host compiler for proc macros (`HOSTRUSTC`): the same rustc.
    HostRustc,
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

/// A library crate under `rust/`.
#[derive(Clone, Debug, Default)]
pub struct Library<'a> {
    pub name: &'a str,
    /// The crate root as written in the command.
    pub root: String,
    /// `rustc_target_flags`: per-crate flags (`--extern`s, `--cfg`s, `--edition`).
    pub target_flags: Vec<String>,
    /// Flags removed from `rust_flags` for this crate (`skip_flags`).
    pub skip_flags: Vec<&'a str>,
    /// Never run through clippy (core, alloc, vendored crates).
    pub skip_clippy: bool,
    /// Extra environment (`CARGO_PKG_VERSION` for zerocopy).
    pub env: Vec<(String, String)>,
}

fn compiler(clippy: bool, skip: bool) -> Compiler {
    if clippy && !skip {
        Compiler::ClippyDriver
    } else {
        Compiler::Rustc
    }
}

fn words(list: &[String], why: &str) -> Vec<Flag> {
    list.iter().map(|w| Flag::new(w.clone(), why)).collect()
}

/// `cmd_rustc_library`.
pub fn library(
    ctx: &Ctx,
    objtree_abs: &str,
    lib: &Library,
    clippy: bool,
) -> Result<CrateCmd, FlagError> {
    let name = lib.name;
    let mut args: Vec<Flag> = rust_flags(ctx, ObjKind::Kernel)?
        .into_iter()
        .filter(|f| !lib.skip_flags.contains(&f.arg.as_str()))
        .collect();
    let why_crate = format!("rust/Makefile: {name}'s rustc_target_flags");
    let mut env = vec![];
    if ctx.vintage == Vintage::V2021 {
        env.push((
            "RUST_BINDINGS_FILE".to_string(),
            format!("{objtree_abs}/rust/bindings_generated.rs"),
        ));
        args.extend(target::cross_flags(ctx));
        args.extend(words(&lib.target_flags, &why_crate));
        let tail = "rust/Makefile: cmd_rustc_library";
        for w in [
            "--crate-type".to_string(),
            "rlib".into(),
            "--out-dir".into(),
            format!("{}/rust/", ctx.objtree),
            "-L".into(),
            format!("{}/rust/", ctx.objtree),
            "--crate-name".into(),
            name.into(),
            lib.root.clone(),
        ] {
            args.push(Flag::new(w, tail));
        }
    } else {
        env.push(("OBJTREE".to_string(), objtree_abs.to_string()));
        args.extend(words(&lib.target_flags, &why_crate));
        let tail = "rust/Makefile: cmd_rustc_library";
        for w in [
            format!("--emit=dep-info=rust/.{name}.o.d"),
            format!("--emit=obj=rust/{name}.o"),
            format!("--emit=metadata=rust/lib{name}.rmeta"),
            "--crate-type".into(),
            "rlib".into(),
            format!("-L{}/rust", ctx.objtree),
            "--crate-name".into(),
            name.into(),
            lib.root.clone(),
            "--sysroot=/dev/null".into(),
        ] {
            args.push(Flag::new(w, tail));
        }
        args.push(Flag::new(
            "-Zunstable-options",
            "rust/Makefile: custom target specs need it from rustc 1.95 (rust#151534)",
        ));
    }
    env.extend(lib.env.iter().cloned());
    Ok(CrateCmd {
        env,
        compiler: compiler(clippy, lib.skip_clippy),
        args,
    })
}

/// `core`: the edition and cfgs of the vintage, without the lints core does not pass.
pub fn core_library(ctx: &Ctx, lib_src: &str) -> Library<'static> {
    let root = format!("{lib_src}/core/src/lib.rs");
    match ctx.vintage {
        Vintage::V2021 => Library {
            name: "core",
            root,
            target_flags: vec![],
            skip_flags: vec!["--edition=2018"],
            skip_clippy: true,
            env: vec![],
        },
        Vintage::K6_12 => Library {
            name: "core",
            root,
            target_flags: vec![
                format!("--edition={}", core_edition(ctx)),
                "--cfg".into(),
                "no_fp_fmt_parse".into(),
            ],
            skip_flags: vec!["--edition=2021", "-Wunreachable_pub"],
            skip_clippy: true,
            env: vec![],
        },
        Vintage::K7_3 => Library {
            name: "core",
            root,
            target_flags: vec![
                format!("--edition={}", core_edition(ctx)),
                "--cfg=no_fp_fmt_parse".into(),
            ],
            skip_flags: vec!["--edition=2021", "-Wunreachable_pub"],
            skip_clippy: true,
            env: vec![],
        },
    }
}

/// `core-edition` (7.3, and 6.12.y by backport): 2024 from rustc 1.87, else 2021.
pub fn core_edition(ctx: &Ctx) -> &'static str {
    if ctx.vintage != Vintage::V2021 && ctx.rustc.at_least(1, 87, 0) {
        "2024"
    } else if ctx.vintage == Vintage::V2021 {
        "2018"
    } else {
        "2021"
    }
}

/// The features drivers may use (`rust_allowed_features`).
pub fn driver_features(vintage: Vintage) -> &'static str {
    match vintage {
        Vintage::V2021 => "allocator_api,bench_black_box,concat_idents,global_asm,try_reserve",
        Vintage::K6_12 => "arbitrary_self_types,lint_reasons,used_with_arg",
        Vintage::K7_3 => "arbitrary_self_types,asm_goto,generic_arg_infer,used_with_arg",
    }
}

/// A driver object (`%.o: %.rs` in Makefile.build).
#[derive(Clone, Debug)]
pub struct Driver<'a> {
    /// The source as written (`$SRCTREE/samples/rust/rust_minimal.rs`).
    pub src: String,
    /// The object, relative to the object tree (`samples/rust/rust_minimal.o`).
    pub obj: &'a str,
    pub kind: ObjKind,
    /// `RUST_MODFILE`: the object folder and module name (`samples/rust/rust_minimal`).
    pub modfile: String,
}

/// `rust_common_cmd` + `--emit=obj=$@ $<`.
pub fn driver(
    ctx: &Ctx,
    objtree_abs: &str,
    d: &Driver,
    clippy: bool,
) -> Result<CrateCmd, FlagError> {
    let (dir, file) = d.obj.rsplit_once('/').unwrap_or((".", d.obj));
    let stem = file.strip_suffix(".o").unwrap_or(file);
    let mut env = vec![];
    if ctx.vintage == Vintage::K7_3 {
        env.push(("OBJTREE".to_string(), objtree_abs.to_string()));
    }
    env.push(("RUST_MODFILE".to_string(), d.modfile.clone()));
    let mut args = rust_flags(ctx, d.kind)?;
    let why = "scripts/Makefile.build: rust_common_cmd";
    let feats = driver_features(ctx.vintage);
    let mut tail: Vec<String> = vec![];
    if ctx.vintage == Vintage::V2021 {
        args.extend(target::cross_flags(ctx));
        tail.extend([
            format!("-Zallow-features={feats}"),
            "--extern".into(),
            "alloc".into(),
            "--extern".into(),
            "kernel".into(),
            "--crate-type".into(),
            "rlib".into(),
            "--out-dir".into(),
            dir.into(),
            "-L".into(),
            format!("{}/rust/", ctx.objtree),
            "--crate-name".into(),
            stem.into(),
            d.src.clone(),
        ]);
    } else {
        tail.extend([
            format!("-Zallow-features={feats}"),
            "-Zcrate-attr=no_std".into(),
            format!("-Zcrate-attr=feature({feats})"),
            "-Zunstable-options".into(),
        ]);
        let externs: &[&str] = if ctx.vintage == Vintage::K7_3 {
            &["pin_init", "kernel", "zerocopy", "zerocopy_derive"]
        } else {
            &["kernel"]
        };
        for e in externs {
            tail.push("--extern".into());
            tail.push((*e).into());
        }
        tail.extend([
            "--crate-type".into(),
            "rlib".into(),
            "-L".into(),
            format!("{}/rust/", ctx.objtree),
        ]);
        if ctx.vintage == Vintage::K6_12 {
            // 7.3 dropped it: the name comes from the file or `#![crate_name]`.
            tail.extend(["--crate-name".into(), stem.into()]);
        }
        tail.extend([
            "--sysroot=/dev/null".into(),
            "--out-dir".into(),
            format!("{dir}/"),
            format!("--emit=dep-info={dir}/.{stem}.o.d"),
            format!("--emit=obj={}", d.obj),
            d.src.clone(),
        ]);
    }
    args.extend(tail.into_iter().map(|w| Flag::new(w, why)));
    Ok(CrateCmd {
        env,
        compiler: compiler(clippy, false),
        args,
    })
}

/// `cmd_rustc_procmacro` (6.12 form; 7.3 adds `-L…/host` and the rustc_cfg argfile).
pub fn proc_macro(
    ctx: &Ctx,
    name: &str,
    root: &str,
    externs: &[&str],
    hostcc: &str,
    hostldflags: &str,
) -> Vec<Flag> {
    let why = "rust/Makefile: cmd_rustc_procmacro";
    let mut out = rust_common_flags(ctx);
    for e in externs {
        out.push(Flag::new("--extern", why));
        out.push(Flag::new(*e, why));
    }
    for w in [
        "-Clinker-flavor=gcc".to_string(),
        format!("-Clinker={hostcc}"),
        format!("-Clink-args={hostldflags}"),
        format!("--emit=dep-info=rust/.lib{name}.so.d"),
        format!("--emit=link=rust/lib{name}.so"),
        "--extern".into(),
        "proc_macro".into(),
        "--crate-type".into(),
        "proc-macro".into(),
    ] {
        out.push(Flag::new(w, why));
    }
    if ctx.vintage == Vintage::K7_3 {
        out.push(Flag::new(format!("-L{}/rust/host", ctx.objtree), why));
    }
    out.push(Flag::new("--crate-name", why));
    out.push(Flag::new(name, why));
    if ctx.vintage == Vintage::K7_3 {
        out.push(Flag::new(
            format!("@{}/include/generated/rustc_cfg", ctx.objtree),
            why,
        ));
    }
    out.push(Flag::new(root, why));
    out
}

/// One bindgen run (`cmd_bindgen` in rust/Makefile).
#[derive(Clone, Debug, Default)]
pub struct Bindgen<'a> {
    /// The C input as written (`$SRCTREE/rust/bindings/bindings_helper.h`).
    pub input: String,
    /// The output, relative to the object tree (`rust/bindings/bindings_generated.rs`).
    pub output: &'a str,
    /// `bindgen_target_flags`: `rust/bindgen_parameters` words, or the helpers' allowlist.
    pub target_flags: Vec<String>,
    /// The kernel's C flags for bindgen (`bindgen_c_flags`), without the depfile flag and the
    /// per-object `KBUILD_*` defines, which are added here.
    pub c_flags: Vec<String>,
    /// `bindgen_target_cflags` (the helpers add `-I./rust -Wno-missing-prototypes ...`).
    pub target_cflags: Vec<String>,
}

/// The depfile clang writes for a bindgen output (`rust/bindings/.bindings_generated.rs.d`).
pub fn bindgen_depfile(output: &str) -> String {
    let (dir, file) = output.rsplit_once('/').unwrap_or((".", output));
    format!("{dir}/.{file}.d")
}

/// `cmd_bindgen`: the arguments after the program name. The `--rust-target` is the vintage's
/// minimum rustc (1.68 for 6.12, 1.85 for 7.3); 2021 used `--size_t-is-usize` and `c_types`.
pub fn bindgen(ctx: &Ctx, b: &Bindgen) -> Vec<Flag> {
    let why = "rust/Makefile: cmd_bindgen";
    let mut out = vec![Flag::new(b.input.clone(), why)];
    out.extend(words(
        &b.target_flags,
        "rust/Makefile: bindgen_target_flags",
    ));
    let fixed: Vec<String> = match ctx.vintage {
        Vintage::V2021 => vec![
            "--use-core".into(),
            "--with-derive-default".into(),
            "--ctypes-prefix".into(),
            "c_types".into(),
            "--no-debug".into(),
            ".*".into(),
            "--size_t-is-usize".into(),
        ],
        v => vec![
            "--rust-target".into(),
            if v == Vintage::K6_12 { "1.68" } else { "1.85" }.into(),
            "--use-core".into(),
            "--with-derive-default".into(),
            "--ctypes-prefix".into(),
            "ffi".into(),
            "--no-layout-tests".into(),
            "--no-debug".into(),
            ".*".into(),
            "--enable-function-attribute-detection".into(),
        ],
    };
    out.extend(words(&fixed, why));
    out.push(Flag::new("-o", why));
    out.push(Flag::new(b.output, why));
    out.push(Flag::new("--", why));
    if ctx.vintage != Vintage::V2021 {
        out.push(Flag::new(
            format!("-Wp,-MMD,{}", bindgen_depfile(b.output)),
            "scripts/Makefile.lib: c_flags depfile (if_changed_dep)",
        ));
    }
    out.extend(words(&b.c_flags, "bindgen_c_flags: the kernel's C flags"));
    if ctx.vintage != Vintage::V2021 {
        let (dir, file) = b.output.rsplit_once('/').unwrap_or((".", b.output));
        let stem = file.strip_suffix(".rs").unwrap_or(file);
        let top = dir.split('/').next().unwrap_or(dir);
        let why = "scripts/Makefile.lib: modname_flags of the rust/ folder";
        out.push(Flag::new(format!("-DKBUILD_MODFILE=\"{top}/{stem}\""), why));
        out.push(Flag::new(format!("-DKBUILD_BASENAME=\"{stem}\""), why));
        out.push(Flag::new(format!("-DKBUILD_MODNAME=\"{stem}\""), why));
        out.push(Flag::new(format!("-D__KBUILD_MODNAME=kmod_{stem}"), why));
        out.push(Flag::new(
            "-fno-builtin",
            "rust/Makefile: bindgen_c_flags_final",
        ));
        out.push(Flag::new(
            "-D__BINDGEN__",
            "rust/Makefile: bindgen_c_flags_final",
        ));
    }
    out.push(Flag::new("-DMODULE", why));
    out.extend(words(
        &b.target_cflags,
        "rust/Makefile: bindgen_target_cflags",
    ));
    out
}

/// The 2021 `cmd_rustc_procmacro`: the whole `rust_flags`, then unwinding turned back on
/// (rust#82320) and the output folder.
pub fn proc_macro_2021(ctx: &Ctx, name: &str, root: &str) -> Result<Vec<Flag>, FlagError> {
    let why = "rust/Makefile (2021): cmd_rustc_procmacro";
    let mut out = rust_flags(ctx, ObjKind::Kernel)?;
    for w in [
        "--emit=dep-info,link".to_string(),
        "--extern".into(),
        "proc_macro".into(),
        "-Cpanic=unwind".into(),
        "-Cforce-unwind-tables=y".into(),
        "--crate-type".into(),
        "proc-macro".into(),
        "--out-dir".into(),
        format!("{}/rust/", ctx.objtree),
        "--crate-name".into(),
        name.into(),
        root.into(),
    ] {
        out.push(Flag::new(w, why));
    }
    Ok(out)
}
