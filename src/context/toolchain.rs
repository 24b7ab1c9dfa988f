//! The toolchain with its answers: each question (`rustc -vV`, the sysroot, a `rustc-option`,
//! bindgen and its libclang, a `cc-option`, objcopy's version) is asked once per run, and
//! once per tool binary across runs when the command saves the answers
//! (`O/.rkbuild-tools.json`, keyed by the binary's path, size and modification time, and the
//! environment that changes the answer), so that a no-op build starts no process. Rustup
//! proxies (`~/.cargo/bin`) pick their toolchain at run time and are never kept.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::process::Process;
use crate::toolchain::{
    self, version, BindgenInfo, Found, RustcInfo, ToolNames, FIX_BINDGEN, FIX_CLIPPY, FIX_RUSTC,
    FIX_RUSTDOC,
};

/// What the tools said, by question.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct Answers {
    entries: BTreeMap<String, String>,
    #[serde(skip)]
    changed: bool,
}

/// The tools a command uses (named by flags, then Kbuild's variables, then PATH) and what
/// they answered.
pub struct Toolchain {
    pub names: ToolNames,
    answers: Answers,
    rustc: Option<Found<RustcInfo>>,
}

impl Toolchain {
    /// The tools of `names` (already merged with the environment); answers kept in `objtree`
    /// by an earlier run are reused.
    pub fn new(names: ToolNames, objtree: &Path) -> Toolchain {
        let answers = std::fs::read(Self::file(objtree))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        Toolchain {
            names,
            answers,
            rustc: None,
        }
    }

    fn file(objtree: &Path) -> PathBuf {
        objtree.join(".rkbuild-tools.json")
    }

    /// Keeps the answers for the next run (only when something new was asked).
    /// Writes the answers when they changed; whether the file changed.
    pub fn save(&self, objtree: &Path) -> anyhow::Result<bool> {
        if !self.answers.changed {
            return Ok(false);
        }
        let status = crate::fsutil::write_if_changed(
            &Self::file(objtree),
            &serde_json::to_vec_pretty(&self.answers)?,
        )?;
        Ok(status != crate::fsutil::WriteOutcome::Unchanged)
    }

    /// The key of a question to a tool binary, `None` when the answer must not be kept.
    pub fn key(what: &str, tool: &Path, env: &[&str]) -> Option<String> {
        let real = std::fs::canonicalize(tool).ok()?;
        if crate::process::is_rustup_proxy(tool, &real) {
            return None;
        }
        let mut k = format!("{what} {}", crate::fsutil::identity(&real)?);
        for e in env {
            k.push_str(&format!(" {e}={}", std::env::var(e).unwrap_or_default()));
        }
        Some(k)
    }

    /// The answer to a question, asked (`f`) only when not known.
    pub fn ask(
        &mut self,
        key: Option<String>,
        f: impl FnOnce() -> anyhow::Result<String>,
    ) -> anyhow::Result<String> {
        if let Some(v) = key.as_ref().and_then(|k| self.answers.entries.get(k)) {
            return Ok(v.clone());
        }
        let v = f()?;
        if let Some(k) = key {
            self.answers.entries.insert(k, v.clone());
            self.answers.changed = true;
        }
        Ok(v)
    }

    /// rustc: found and `rustc -vV` read, once.
    pub fn rustc(&mut self) -> anyhow::Result<Found<RustcInfo>> {
        if let Some(r) = &self.rustc {
            return Ok(r.clone());
        }
        let (name, via) = match &self.names.rustc {
            Some(n) => (n.clone(), Some("RUSTC")),
            None => ("rustc".to_string(), None),
        };
        let path = toolchain::resolve(&name, "Rust compiler", via, FIX_RUSTC)?;
        let vv = self.ask(Self::key("rustc -vV", &path, &[]), || {
            run_text(Process::new(&path).arg("-vV"))
        })?;
        let found = Found {
            name,
            info: version::parse_rustc_vv(&vv)?,
            path,
        };
        self.rustc = Some(found.clone());
        Ok(found)
    }

    /// What Kconfig's probes run as `$(RUSTC)`: the rustc found, else the name given (the
    /// probes then fail as the kernel's would, and `why` says so).
    pub fn rustc_for_probes(&mut self) -> String {
        match self.rustc() {
            Ok(f) => f.path.display().to_string(),
            Err(_) => self.names.rustc.clone().unwrap_or_else(|| "rustc".into()),
        }
    }

    /// `rustc $(KRUSTFLAGS) --print sysroot`.
    pub fn sysroot(&mut self, krustflags: &[String]) -> anyhow::Result<PathBuf> {
        let rustc = self.rustc()?.path;
        let key = Self::key("rustc --print sysroot", &rustc, &[])
            .map(|k| format!("{k} {}", krustflags.join(" ")));
        Ok(PathBuf::from(self.ask(key, || {
            Ok(toolchain::sysroot(&rustc, krustflags)?
                .display()
                .to_string())
        })?))
    }

    /// The library source `core` is built from: RUST_LIB_SRC, else the sysroot's (and the
    /// sysroot, when it was asked).
    pub fn rust_lib_src(
        &mut self,
        krustflags: &[String],
    ) -> anyhow::Result<(Option<PathBuf>, PathBuf)> {
        // Without RUST_LIB_SRC only: a no-op build through a rustup proxy (never kept) must
        // not pay for the sysroot.
        if let Some(l) = &self.names.rust_lib_src {
            return Ok((None, l.clone()));
        }
        let sysroot = self.sysroot(krustflags)?;
        let lib = toolchain::rust_lib_src(&self.names, &sysroot);
        Ok((Some(sysroot), lib))
    }

    /// Kbuild's `rustc-option`.
    pub fn rustc_option(&mut self, flag: &str) -> anyhow::Result<bool> {
        let rustc = self.rustc()?.path;
        let key = Self::key(&format!("rustc-option {flag}"), &rustc, &[]);
        Ok(self.ask(
            key,
            || Ok(toolchain::rustc_option(&rustc, flag).to_string()),
        )? == "true")
    }

    /// bindgen, its path and identity (its version and the libclang it loads); an error when
    /// it cannot load libclang.
    pub fn bindgen(&mut self) -> anyhow::Result<(PathBuf, String)> {
        let name = self
            .names
            .bindgen
            .clone()
            .unwrap_or_else(|| "bindgen".into());
        let via = self.names.bindgen.as_ref().map(|_| "BINDGEN");
        let path = toolchain::resolve(&name, "Rust bindings generator", via, FIX_BINDGEN)?;
        let key = Self::key("bindgen", &path, &["LIBCLANG_PATH"]);
        let id = self.ask(key, || {
            let b = toolchain::detect_bindgen(&ToolNames {
                bindgen: Some(path.display().to_string()),
                ..Default::default()
            })?;
            check_libclang(&b)?;
            Ok(serde_json::to_string(&b.info)?)
        })?;
        Ok((path, id))
    }

    /// rustdoc, its path and identity: `RUSTDOC`, else the one beside rustc (rustdoc reads
    /// only what its own rustc wrote), else the PATH's.
    pub fn rustdoc(&mut self, rustc: &Path) -> anyhow::Result<(String, String)> {
        let beside = rustc.with_file_name("rustdoc");
        let name = match &self.names.rustdoc {
            Some(n) => Some(n.clone()),
            None if beside.is_file() => Some(beside.display().to_string()),
            None => None,
        };
        let c = toolchain::detect_simple(
            name.as_deref(),
            "rustdoc",
            "rustdoc",
            "rustdoc",
            "RUSTDOC",
            FIX_RUSTDOC,
        )?;
        Ok((c.path.display().to_string(), c.info.to_string()))
    }

    /// clippy-driver, its path and identity (never kept: it is asked only with `--clippy`).
    pub fn clippy_driver(&mut self) -> anyhow::Result<(String, String)> {
        let c = toolchain::detect_simple(
            self.names.clippy_driver.as_deref(),
            "clippy-driver",
            "clippy",
            "clippy-driver",
            "CLIPPY_DRIVER",
            FIX_CLIPPY,
        )?;
        let vv = Process::new(&c.path).arg("-vV").output()?;
        Ok((
            c.path.display().to_string(),
            format!("{} / {}", c.info, vv.stdout.trim()),
        ))
    }

    /// Kbuild's `cc-option`, asked of the kernel's C compiler with `target` flags.
    pub fn cc_option(&mut self, cc: &str, target: &[String], flag: &str) -> anyhow::Result<bool> {
        let key = which::which(cc)
            .ok()
            .and_then(|p| Self::key(&format!("cc-option {flag} {}", target.join(" ")), &p, &[]));
        Ok(self.ask(key, || {
            Ok(toolchain::cc_option(cc, target, flag).to_string())
        })? == "true")
    }

    /// A program's first `--version` line, with its path: its identity in fingerprints.
    pub fn version_line(&mut self, what: &str, tool: &Path) -> anyhow::Result<String> {
        let key = Self::key(&format!("{what} --version"), tool, &[]);
        self.ask(key, || {
            let v = run_text(Process::new(tool).arg("--version"))?;
            Ok(format!(
                "{} {}",
                tool.display(),
                v.lines().next().unwrap_or_default()
            ))
        })
    }
}

fn check_libclang(b: &Found<BindgenInfo>) -> anyhow::Result<()> {
    if let Err(why) = &b.info.libclang {
        bail!(
            "bindgen `{}` cannot run: {why}\n  fix: set LIBCLANG_PATH to the folder holding libclang.so (e.g. /usr/lib/llvm-14/lib)",
            b.path.display()
        );
    }
    Ok(())
}

/// A tool's answer to a version question, remembered across runs by the tool's identity
/// (`config`, which writes no `.rkbuild-tools.json`, so asks no tool twice either).
fn run_text(p: Process) -> anyhow::Result<String> {
    let out = p.output_remembered()?;
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
