//! `rkbuild doctor`: every check of the kernel's `make rustavailable`
//! (`scripts/rust_is_available.sh`), plus the optional tools, each with what was found, what
//! is needed and the command that fixes it.

use std::path::PathBuf;

use semver::Version;

use super::{fallback_minimums, TreeOpts};
use crate::toolchain::{self, Minimums, ToolNames};
use crate::tree::{Arch, Vintage};

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Warn,
    Fail,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Check {
    pub name: &'static str,
    pub status: Status,
    /// What was found (a version, a path), or why nothing was.
    pub found: String,
    /// What is needed.
    pub needed: String,
    /// The command or setting that fixes a failure.
    pub fix: Option<String>,
}

#[derive(Debug, serde::Serialize)]
pub struct DoctorReport {
    pub vintage: Vintage,
    pub arch: Arch,
    pub minimums: Minimums,
    pub checks: Vec<Check>,
}

impl DoctorReport {
    pub fn ok(&self) -> bool {
        self.checks.iter().all(|c| c.status != Status::Fail)
    }
}

fn check(
    name: &'static str,
    status: Status,
    found: impl Into<String>,
    needed: impl Into<String>,
    fix: Option<&str>,
) -> Check {
    Check {
        name,
        status,
        found: found.into(),
        needed: needed.into(),
        fix: fix.map(String::from),
    }
}

fn at_least(found: &Version, min: &Version) -> Status {
    if found >= min {
        Status::Ok
    } else {
        Status::Fail
    }
}

/// Runs every check. The tree and config are optional: without them the vintage's documented
/// minimums are used.
pub fn run(opts: &TreeOpts) -> anyhow::Result<DoctorReport> {
    let mut checks = vec![];
    let (vintage, arch, srctree) = match super::Tree::open(opts) {
        Ok(t) => (t.vintage, t.arch, t.srctree.clone()),
        Err(_) if opts.config.is_none() => {
            let r = crate::layout::Layout::resolve(
                opts.kbuild.as_deref(),
                opts.srctree.as_deref(),
                None,
            )?;
            if r.guessed {
                // Neither a tree marker nor a configuration told the kernel: say so.
                checks.push(check(
                    "kernel",
                    Status::Warn,
                    format!("{} guessed: no file of the tree tells its kernel, and no .config was given", r.layout),
                    "the tree's kernel, from its files or its .config",
                    Some("pass --config (or --kbuild 6.12, 7.3, 2021)"),
                ));
            }
            let a = match opts.arch.as_deref() {
                Some(a) => Arch::parse(a)?,
                None => Arch::X86_64,
            };
            (r.layout, a, opts.srctree.clone())
        }
        Err(e) => return Err(e),
    };
    let minimums = toolchain::minimums(
        srctree.as_deref(),
        arch.srcarch(),
        &fallback_minimums(vintage, arch),
    )?;
    let tools: ToolNames = opts.tools.clone().with_env()?;

    // rustc and the library source it needs.
    let rustc = toolchain::detect_rustc(&tools);
    let mut sysroot: Option<PathBuf> = None;
    match &rustc {
        Ok(r) => {
            let st = at_least(&r.info.version, &minimums.rustc);
            checks.push(check(
                "rustc",
                st,
                format!(
                    "{} ({}{})",
                    r.info.version_text,
                    r.path.display(),
                    from(&tools, "rustc")
                ),
                format!(">= {}", minimums.rustc),
                (st == Status::Fail).then_some(toolchain::FIX_RUSTC),
            ));
            let krust: Vec<String> = opts
                .krustflags
                .clone()
                .or_else(|| std::env::var("KRUSTFLAGS").ok())
                .map(|s| s.split_whitespace().map(String::from).collect())
                .unwrap_or_default();
            match toolchain::sysroot(&r.path, &krust) {
                Ok(s) => sysroot = Some(s),
                Err(e) => checks.push(check(
                    "sysroot",
                    Status::Fail,
                    e.to_string(),
                    "`rustc --print sysroot` works",
                    None,
                )),
            }
        }
        Err(e) => checks.push(check(
            "rustc",
            Status::Fail,
            e.to_string(),
            format!(">= {}", minimums.rustc),
            Some(toolchain::FIX_RUSTC),
        )),
    }
    if let Some(sysroot) = &sysroot {
        let src = toolchain::rust_lib_src(&tools, sysroot);
        let ok = src.join("core/src/lib.rs").is_file();
        checks.push(check(
            "rust-src",
            if ok { Status::Ok } else { Status::Fail },
            if ok {
                format!("{}{}", src.display(), from(&tools, "rust_lib_src"))
            } else {
                format!("no core/src/lib.rs under {}", src.display())
            },
            "the `core` library source (RUST_LIB_SRC, else <sysroot>/lib/rustlib/src/rust/library)",
            (!ok).then_some("`rustup component add rust-src`; on Debian 12 `apt-get install rust-web-src` and `export RUST_LIB_SRC=/usr/src/rustc-<version>/library`; or set RUST_LIB_SRC"),
        ));
    }

    // bindgen and its libclang.
    match toolchain::detect_bindgen(&tools) {
        Ok(b) => {
            let st = at_least(&b.info.version, &minimums.bindgen);
            checks.push(check(
                "bindgen",
                st,
                format!(
                    "bindgen {} ({}{})",
                    b.info.version,
                    b.path.display(),
                    from(&tools, "bindgen")
                ),
                format!(">= {}", minimums.bindgen),
                (st == Status::Fail).then_some(toolchain::FIX_BINDGEN),
            ));
            match &b.info.libclang {
                Ok(v) => {
                    let st = at_least(v, &minimums.llvm);
                    checks.push(check(
                        "libclang",
                        st,
                        format!("libclang {v}{}", from(&tools, "libclang_path")),
                        format!(">= {}", minimums.llvm),
                        (st == Status::Fail).then_some("install a newer libclang (`apt-get install libclang-19-dev`) and point bindgen at it with LIBCLANG_PATH=/usr/lib/llvm-19/lib"),
                    ));
                    if let Some(c) = cc_mismatch(v) {
                        checks.push(c);
                    }
                    if v.major >= 22 && b.info.version < Version::new(0, 72, 1) {
                        checks.push(check(
                            "bindgen+libclang",
                            Status::Warn,
                            format!("bindgen {} with libclang {v}", b.info.version),
                            "bindgen >= 0.72.1 with libclang >= 22 (rust-bindgen#3278)",
                            Some("`cargo install --locked bindgen-cli` (0.72.1 or newer)"),
                        ));
                    }
                }
                Err(e) => checks.push(check(
                    "libclang",
                    Status::Fail,
                    e.clone(),
                    format!(">= {}", minimums.llvm),
                    Some("install libclang (`apt-get install libclang-dev`) and set LIBCLANG_PATH to its folder (e.g. /usr/lib/llvm-14/lib)"),
                )),
            }
        }
        Err(e) => checks.push(check(
            "bindgen",
            Status::Fail,
            e.to_string(),
            format!(">= {}", minimums.bindgen),
            Some(toolchain::FIX_BINDGEN),
        )),
    }

    // Optional tools: warnings, not failures (the kernel does not check them).
    for (name, given, default, word, env, fix) in [
        (
            "clippy-driver",
            tools.clippy_driver.as_deref(),
            "clippy-driver",
            "clippy",
            "CLIPPY_DRIVER",
            toolchain::FIX_CLIPPY,
        ),
        (
            "rustdoc",
            tools.rustdoc.as_deref(),
            "rustdoc",
            "rustdoc",
            "RUSTDOC",
            toolchain::FIX_RUSTDOC,
        ),
        (
            "rustfmt",
            tools.rustfmt.as_deref(),
            "rustfmt",
            "rustfmt",
            "RUSTFMT",
            toolchain::FIX_RUSTFMT,
        ),
    ] {
        match toolchain::detect_simple(given, default, word, name, env, fix) {
            Ok(t) => checks.push(check(
                name,
                Status::Ok,
                format!("{word} {} ({})", t.info, t.path.display()),
                "optional",
                None,
            )),
            Err(e) => checks.push(check(
                name,
                Status::Warn,
                e.to_string(),
                "optional",
                Some(fix),
            )),
        }
    }
    Ok(DoctorReport {
        vintage,
        arch,
        minimums,
        checks,
    })
}

/// The kernel warns when the C compiler is Clang of another version than bindgen's libclang
/// (their flags and ABI details may disagree). `CC` as make would pass it.
fn cc_mismatch(libclang: &Version) -> Option<Check> {
    let cc = std::env::var("CC").ok().filter(|c| c.contains("clang"))?;
    let out = crate::process::Process::new(&cc)
        .arg("--version")
        .output()
        .ok()?;
    let clang = crate::toolchain::version::parse_libclang_probe(&out.stdout)?;
    (clang != *libclang).then(|| {
        check(
            "clang/libclang",
            Status::Warn,
            format!("CC={cc} is clang {clang}, bindgen uses libclang {libclang}"),
            "the same version (the kernel warns: this may be a problem)",
            Some("point LIBCLANG_PATH at the libclang of the same LLVM as CC (e.g. /usr/lib/llvm-NN/lib)"),
        )
    })
}

/// `, from FILE` when the toolchain file named `tool`.
fn from(tools: &ToolNames, tool: &str) -> String {
    tools
        .from_file(tool)
        .map(|f| format!(", from {}", f.display()))
        .unwrap_or_default()
}
