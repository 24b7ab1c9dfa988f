//! Stage 1: the toolchain — which rustc, bindgen, clippy-driver, rustdoc, rustfmt and library
//! source we are working with, and what versions they are.
//!
//! Every tool can be named by the environment variable Kbuild uses (`RUSTC`, `BINDGEN`,
//! `CLIPPY_DRIVER`, `RUSTDOC`, `RUSTFMT`, `RUST_LIB_SRC`) or by a command-line flag, which wins.
//! Versions are read from the tools themselves ([`version`] parses their text); nothing is
//! assumed from a file name.

pub mod file;
pub mod kbuild_names;
pub mod version;

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use semver::Version;

use crate::process::Process;
pub use version::RustcInfo;

/// The tools to use, as named by flags and environment (not yet resolved).
#[derive(Clone, Debug, Default)]
pub struct ToolNames {
    pub rustc: Option<String>,
    pub bindgen: Option<String>,
    pub clippy_driver: Option<String>,
    pub rustdoc: Option<String>,
    pub rustfmt: Option<String>,
    pub rust_lib_src: Option<PathBuf>,
    /// What the toolchain file filled in (`rustc`, `rust_lib_src`, `bindgen`,
    /// `libclang_path`), and the file.
    pub from_file: Vec<(&'static str, PathBuf)>,
}

impl ToolNames {
    /// Fills what the flags left open from Kbuild's environment variables, then what those
    /// and PATH leave unfound from the toolchain file ([`file`]).
    pub fn with_env(mut self) -> anyhow::Result<ToolNames> {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        self.rustc = self.rustc.or_else(|| env("RUSTC"));
        self.bindgen = self.bindgen.or_else(|| env("BINDGEN"));
        self.clippy_driver = self.clippy_driver.or_else(|| env("CLIPPY_DRIVER"));
        self.rustdoc = self.rustdoc.or_else(|| env("RUSTDOC"));
        self.rustfmt = self.rustfmt.or_else(|| env("RUSTFMT"));
        self.rust_lib_src = self
            .rust_lib_src
            .or_else(|| env("RUST_LIB_SRC").map(PathBuf::from));
        if let Some(f) = file::load()? {
            self.fill_from(&f);
            if env("LIBCLANG_PATH").is_none() {
                if let Some(l) = &f.libclang_path {
                    // bindgen (and its probes) inherit it; set before any thread starts.
                    std::env::set_var("LIBCLANG_PATH", l);
                    self.from_file.push(("libclang_path", f.path.clone()));
                }
            }
        }
        Ok(self)
    }

    /// The toolchain file `tool` was taken from, if it was.
    pub fn from_file(&self, tool: &str) -> Option<&Path> {
        self.from_file
            .iter()
            .find(|(t, _)| *t == tool)
            .map(|(_, p)| p.as_path())
    }

    /// Takes from the toolchain file what Kbuild's way does not find: a rustc when none is
    /// named and PATH's has no library source, bindgen when none is named or on PATH.
    fn fill_from(&mut self, f: &file::ToolchainFile) {
        if self.rustc.is_none() && f.rustc.is_some() && !path_rustc_usable(self) {
            self.rustc = f.rustc.clone();
            self.from_file.push(("rustc", f.path.clone()));
        }
        // The file's library source goes with the file's rustc only.
        if self.rust_lib_src.is_none() && self.rustc.is_some() && self.rustc == f.rustc {
            if let Some(l) = &f.rust_lib_src {
                self.rust_lib_src = Some(l.clone());
                self.from_file.push(("rust_lib_src", f.path.clone()));
            }
        }
        if self.bindgen.is_none() && f.bindgen.is_some() && which::which("bindgen").is_err() {
            self.bindgen = f.bindgen.clone();
            self.from_file.push(("bindgen", f.path.clone()));
        }
    }
}

/// Whether PATH's `rustc` can build `core`: it exists and its library source is found
/// (RUST_LIB_SRC, or its sysroot's).
fn path_rustc_usable(names: &ToolNames) -> bool {
    let Ok(rustc) = which::which("rustc") else {
        return false;
    };
    if names.rust_lib_src.is_some() {
        return true;
    }
    sysroot(&rustc, &[]).is_ok_and(|s| rust_lib_src(names, &s).join("core/src/lib.rs").is_file())
}

/// A tool that was looked for.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Found<T> {
    /// What it was called (`rustc`, or the override).
    pub name: String,
    pub path: PathBuf,
    pub info: T,
}

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("{what} `{name}` could not be found{}\n  fix: {fix}", via.map(|v| format!(" (named by {v})")).unwrap_or_default())]
    NotFound {
        what: &'static str,
        name: String,
        via: Option<&'static str>,
        fix: &'static str,
    },
    #[error("running `{cmd}` failed{}:\n{output}", status.map(|s| format!(" with exit code {s}")).unwrap_or_default())]
    Failed {
        cmd: String,
        status: Option<i32>,
        output: String,
    },
    #[error(transparent)]
    Version(#[from] version::VersionError),
}

/// Resolves a tool name through PATH (a name with a `/` is used as a path).
pub fn resolve(
    name: &str,
    what: &'static str,
    via: Option<&'static str>,
    fix: &'static str,
) -> Result<PathBuf, ToolError> {
    let not_found = || ToolError::NotFound {
        what,
        name: name.to_string(),
        via,
        fix,
    };
    if name.contains('/') {
        let p = PathBuf::from(name);
        return if p.is_file() { Ok(p) } else { Err(not_found()) };
    }
    which::which(name).map_err(|_| not_found())
}

/// A version probe's output (remembered across runs by the tool's identity), which must succeed.
fn run_ok(p: Process) -> Result<String, ToolError> {
    let out = p.output_remembered().map_err(|e| ToolError::Failed {
        cmd: p.to_string(),
        status: None,
        output: format!("{e:#}"),
    })?;
    if !out.success() {
        return Err(ToolError::Failed {
            cmd: p.to_string(),
            status: out.status.code(),
            output: format!("{}{}", out.stdout, out.stderr)
                .trim_end()
                .to_string(),
        });
    }
    Ok(out.stdout)
}

pub const FIX_RUSTC: &str = "install a Rust toolchain (`apt-get install rustc-web` on Debian 12, `apt-get install rustc` on Debian 13, or `rustup toolchain install stable`), or set RUSTC=/path/to/rustc";
pub const FIX_BINDGEN: &str = "`cargo install --locked bindgen-cli` (or `apt-get install bindgen`), or set BINDGEN=/path/to/bindgen";
pub const FIX_CLIPPY: &str =
    "`rustup component add clippy` (or `apt-get install rust-clippy`), or set CLIPPY_DRIVER";
pub const FIX_RUSTDOC: &str = "rustdoc ships with rustc; set RUSTDOC=/path/to/rustdoc";
pub const FIX_RUSTFMT: &str =
    "`rustup component add rustfmt` (or `apt-get install rustfmt`), or set RUSTFMT";

/// Finds rustc and reads `rustc -vV`.
pub fn detect_rustc(names: &ToolNames) -> Result<Found<RustcInfo>, ToolError> {
    let (name, via) = match &names.rustc {
        Some(n) => (n.clone(), Some("RUSTC")),
        None => ("rustc".to_string(), None),
    };
    let path = resolve(&name, "Rust compiler", via, FIX_RUSTC)?;
    let out = run_ok(Process::new(&path).arg("-vV"))?;
    Ok(Found {
        name,
        info: version::parse_rustc_vv(&out)?,
        path,
    })
}

/// Finds a tool that prints `NAME X.Y.Z` for `--version`.
pub fn detect_simple(
    name: Option<&str>,
    default: &str,
    word: &str,
    what: &'static str,
    env: &'static str,
    fix: &'static str,
) -> Result<Found<Version>, ToolError> {
    let (name, via) = match name {
        Some(n) => (n.to_string(), Some(env)),
        None => (default.to_string(), None),
    };
    let path = resolve(&name, what, via, fix)?;
    let out = run_ok(Process::new(&path).arg("--version"))?;
    Ok(Found {
        info: version::parse_tool_version(&name, word, &out)?,
        name,
        path,
    })
}

/// bindgen's own version and the libclang it loads.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BindgenInfo {
    pub version: Version,
    /// The libclang version, or why it could not be found (bindgen failed to load libclang).
    pub libclang: Result<Version, String>,
}

/// Finds bindgen, then runs it over a probe header as `scripts/rust_is_available.sh` does to
/// learn which libclang it loads.
pub fn detect_bindgen(names: &ToolNames) -> Result<Found<BindgenInfo>, ToolError> {
    let v = detect_simple(
        names.bindgen.as_deref(),
        "bindgen",
        "bindgen",
        "Rust bindings generator",
        "BINDGEN",
        FIX_BINDGEN,
    )?;
    let libclang = probe_libclang(&v.path);
    Ok(Found {
        name: v.name,
        path: v.path,
        info: BindgenInfo {
            version: v.info,
            libclang,
        },
    })
}

/// What a tool that panicked said, without Rust's panic frame (`thread 'main' panicked at
/// …`, the backtrace note): its message is what helps.
fn without_panic_noise(text: &str) -> String {
    text.lines()
        .filter(|l| {
            !(l.starts_with("thread '")
                || l.starts_with("stack backtrace:")
                || l.starts_with("note: run with `RUST_BACKTRACE")
                || l.starts_with("note: Some details are omitted"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn probe_libclang(bindgen: &Path) -> Result<Version, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let header = dir.path().join("rkbuild_libclang_probe.h");
    std::fs::write(
        &header,
        "#pragma message(\"clang version \" __clang_version__)\n",
    )
    .map_err(|e| e.to_string())?;
    let p = Process::new(bindgen).arg(&header);
    let out = p.output().map_err(|e| format!("{e:#}"))?;
    let text = format!("{}{}", out.stderr, out.stdout);
    if !out.success() {
        return Err(format!(
            "`{p}` failed with code {} (libclang may not be found; set LIBCLANG_PATH):\n{}",
            out.status.code().unwrap_or(-1),
            without_panic_noise(&text)
        ));
    }
    version::parse_libclang_probe(&text)
        .ok_or_else(|| format!("`{p}` did not print a clang version:\n{}", text.trim_end()))
}

/// `rustc --print sysroot`, with KRUSTFLAGS passed in case they hold `--sysroot` (as the kernel
/// does).
pub fn sysroot(rustc: &Path, krustflags: &[String]) -> Result<PathBuf, ToolError> {
    let out = run_ok(
        Process::new(rustc)
            .args(krustflags)
            .args(["--print", "sysroot"]),
    )?;
    Ok(PathBuf::from(out.trim()))
}

/// Where the `core` library source is: RUST_LIB_SRC, else `<sysroot>/lib/rustlib/src/rust/library`.
pub fn rust_lib_src(names: &ToolNames, sysroot: &Path) -> PathBuf {
    names
        .rust_lib_src
        .clone()
        .unwrap_or_else(|| sysroot.join("lib/rustlib/src/rust/library"))
}

/// Checks that `lib_src` holds `core/src/lib.rs`.
pub fn check_rust_lib_src(lib_src: &Path) -> anyhow::Result<()> {
    let core = lib_src.join("core/src/lib.rs");
    if core.is_file() {
        return Ok(());
    }
    anyhow::bail!(
        "source code for the `core` standard library could not be found at `{}`\n  fix: `rustup component add rust-src`, or on Debian 12 `apt-get install rust-web-src` and `export RUST_LIB_SRC=/usr/src/rustc-$(rustc --version | cut -d' ' -f2)/library`, or set RUST_LIB_SRC to a folder holding core/src/lib.rs",
        core.display()
    )
}

/// The kernel's minimum tool versions, from the tree's `scripts/min-tool-version.sh` when there
/// is one (run with SRCARCH/ARCH set, as Kbuild does).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Minimums {
    pub rustc: Version,
    pub bindgen: Version,
    pub llvm: Version,
    /// Where they came from (`scripts/min-tool-version.sh`, or the vintage's documented values).
    pub source: String,
}

pub fn minimums(
    srctree: Option<&Path>,
    srcarch: &str,
    fallback: &Minimums,
) -> anyhow::Result<Minimums> {
    let Some(script) = srctree
        .map(|s| s.join("scripts/min-tool-version.sh"))
        .filter(|p| p.is_file())
    else {
        return Ok(fallback.clone());
    };
    let ask = |tool: &str| -> anyhow::Result<Version> {
        let out = Process::new("sh")
            .arg(&script)
            .arg(tool)
            .env("SRCARCH", srcarch)
            .env("ARCH", srcarch)
            .output_remembered()?;
        version::parse_version_word(out.stdout.trim()).with_context(|| {
            format!(
                "`{} {tool}` printed `{}`{}",
                script.display(),
                out.stdout.trim(),
                out.stderr.trim()
            )
        })
    };
    Ok(Minimums {
        rustc: ask("rustc")?,
        bindgen: ask("bindgen")?,
        llvm: ask("llvm")?,
        source: script.display().to_string(),
    })
}

/// Kbuild's `cc-option`: whether the C compiler takes `flag` (with `-Werror`, so a warning
/// about it counts as no), compiling an empty file with `base` (the target's flags).
pub fn cc_option(cc: &str, base: &[String], flag: &str) -> bool {
    let Ok(dir) = tempfile::tempdir() else {
        return false;
    };
    Process::new(cc)
        .arg("-Werror")
        .args(base)
        .args([flag, "-c", "-x", "c", "/dev/null", "-o"])
        .arg(dir.path().join("probe.o"))
        .output()
        .map(|o| o.success())
        .unwrap_or(false)
}

/// Kbuild's `rustc-option`: whether rustc accepts `flag`, tried on an empty `no_core` crate.
pub fn rustc_option(rustc: &Path, flag: &str) -> bool {
    let Ok(dir) = tempfile::tempdir() else {
        return false;
    };
    Process::new(rustc)
        .env("RUSTC_BOOTSTRAP", "1")
        .args([
            "--sysroot=/dev/null",
            flag,
            "--crate-type=rlib",
            "--emit=metadata",
        ])
        .arg(format!("--out-dir={}", dir.path().display()))
        .arg("-")
        .stdin_bytes("#![allow(missing_docs)]#![feature(no_core)]#![no_core]")
        .output()
        .map(|o| o.success())
        .unwrap_or(false)
}
