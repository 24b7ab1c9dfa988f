//! The Kconfig preprocessor: `$(…)` in Kconfig files, as `scripts/kconfig/preprocess.c` expands
//! them. Variables (`:=` simple, `=` recursive with `$(1)`, `$(2)`…), environment variables, and
//! the built-in functions `shell`, `info`, `warning-if`, `error-if`, `filename`, `lineno`.
//! `success`, `failure` and `if-success` (defined in `scripts/Kconfig.include` on top of
//! `shell`) are run natively so that a failing probe keeps its error output for `rkbuild why`.
//!
//! Every probe runs for real, through [`crate::process::Process`], with the environment Kbuild
//! exports (`RUSTC`, `BINDGEN`, `CC`, `LD`, `RUST_LIB_SRC`, …). Results are cached on disk keyed
//! by the toolchain's identity (paths, sizes and mtimes of the tools, the variables, whether the
//! Rust library source exists), so a second evaluation with the same tools runs nothing.
//!
//! This is Kconfig's own macro language (`$(shell,cmd)`, comma after the name, run at once), not
//! make's: makefiles are read by [`crate::makefile`], which runs nothing.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;

use crate::process::Process;

/// One probe that ran: the expanded command and what it gave.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Probe {
    pub command: String,
    pub stdout: String,
    pub stderr: String,
    pub ok: bool,
}

/// The environment the macros see: what Kbuild's Makefile exports to Kconfig.
#[derive(Clone, Debug, Default)]
pub struct MacroEnv {
    pub vars: IndexMap<String, String>,
    /// More toolchain identity not visible in the variables (e.g. whether the sysroot holds
    /// the Rust library source).
    pub extra_identity: String,
}

impl MacroEnv {
    /// Kbuild's defaults for the tool variables: `LLVM=1`/`LLVM=-N` selects clang and the LLVM
    /// binutils as the top Makefile does; each variable set in the environment wins.
    pub fn kbuild(srctree: &Path, srcarch: &str, rustc: &str, llvm: Option<&str>) -> MacroEnv {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let llvm = llvm.map(String::from).or_else(|| env("LLVM"));
        let (prefix, suffix) = match llvm.as_deref() {
            Some(l) if l.ends_with('/') => (l.to_string(), String::new()),
            Some(l) if l.starts_with('-') => (String::new(), l.to_string()),
            _ => (String::new(), String::new()),
        };
        let cross = env("CROSS_COMPILE").unwrap_or_default();
        let tool = |k: &str, gnu: &str, llvm_name: &str| {
            env(k).unwrap_or_else(|| {
                if llvm.is_some() {
                    format!("{prefix}{llvm_name}{suffix}")
                } else {
                    format!("{cross}{gnu}")
                }
            })
        };
        let mut vars = IndexMap::new();
        let cc = tool("CC", "gcc", "clang");
        vars.insert("srctree".into(), srctree.display().to_string());
        vars.insert("SRCARCH".into(), srcarch.to_string());
        vars.insert("ARCH".into(), env("ARCH").unwrap_or_else(|| srcarch.into()));
        vars.insert("CC".into(), cc.clone());
        vars.insert("LD".into(), tool("LD", "ld", "ld.lld"));
        vars.insert("AR".into(), tool("AR", "ar", "llvm-ar"));
        vars.insert("NM".into(), tool("NM", "nm", "llvm-nm"));
        vars.insert("OBJCOPY".into(), tool("OBJCOPY", "objcopy", "llvm-objcopy"));
        vars.insert("READELF".into(), tool("READELF", "readelf", "llvm-readelf"));
        vars.insert("STRIP".into(), tool("STRIP", "strip", "llvm-strip"));
        vars.insert("RUSTC".into(), rustc.to_string());
        vars.insert(
            "BINDGEN".into(),
            env("BINDGEN").unwrap_or_else(|| "bindgen".into()),
        );
        vars.insert(
            "PAHOLE".into(),
            env("PAHOLE").unwrap_or_else(|| "pahole".into()),
        );
        // scripts/Makefile.clang: the flags every clang probe gets (integrated assembler on).
        let clang_flags = if cc.contains("clang") {
            let mut f = "-Werror=unknown-warning-option -Werror=ignored-optimization-argument -Werror=option-ignored -Werror=unused-command-line-argument".to_string();
            if env("LLVM_IAS").as_deref() != Some("0") {
                f.push_str(" -fintegrated-as");
            }
            f
        } else {
            String::new()
        };
        vars.insert(
            "CLANG_FLAGS".into(),
            env("CLANG_FLAGS").unwrap_or(clang_flags),
        );
        for k in ["RUST_LIB_SRC", "USERCFLAGS", "USERLDFLAGS", "CROSS_COMPILE"] {
            if let Some(v) = env(k) {
                vars.insert(k.into(), v);
            }
        }
        let mut me = MacroEnv {
            vars,
            extra_identity: String::new(),
        };
        me.version_texts();
        me
    }

    /// `CC_VERSION_TEXT`, `RUSTC_VERSION_TEXT` and `PAHOLE_VERSION`, which the top Makefile
    /// computes and exports for Kconfig (`$(CC) --version | head -n 1`, `$(RUSTC) --version`).
    pub fn version_texts(&mut self) {
        let run = |prog: &str, args: &[&str]| {
            let mut words = prog.split_whitespace();
            let p = Process::new(words.next().unwrap_or(prog))
                .args(words)
                .args(args);
            // As make's $(shell): the output counts, not the exit status.
            p.output_remembered()
                .ok()
                .map(|o| o.stdout.lines().next().unwrap_or("").replace('#', ""))
                .unwrap_or_default()
        };
        let cc = self.get("CC").unwrap_or("gcc").to_string();
        let rustc = self.get("RUSTC").unwrap_or("rustc").to_string();
        self.set("CC_VERSION_TEXT", run(&cc, &["--version"]));
        self.set("RUSTC_VERSION_TEXT", run(&rustc, &["--version"]));
        if let Some(src) = self.get("srctree") {
            let script = Path::new(src).join("scripts/pahole-version.sh");
            if script.exists() {
                let pahole = self.get("PAHOLE").unwrap_or("pahole").to_string();
                let v = run("sh", &[&script.display().to_string(), &pahole]);
                self.set("PAHOLE_VERSION", v);
            }
        }
    }

    pub fn set(&mut self, k: &str, v: impl Into<String>) {
        self.vars.insert(k.to_string(), v.into());
    }

    pub fn get(&self, k: &str) -> Option<&str> {
        self.vars.get(k).map(String::as_str)
    }

    /// The toolchain identity: every variable, and for each tool variable the resolved file's
    /// size and mtime, so a changed compiler gets fresh probes.
    pub fn identity(&self) -> String {
        let mut s = self.extra_identity.clone();
        for (k, v) in &self.vars {
            s.push_str(&format!("{k}={v}\n"));
            let first = v.split_whitespace().next().unwrap_or("");
            if let Some(p) = crate::process::which(std::ffi::OsStr::new(first)) {
                if let Ok(m) = std::fs::metadata(&p) {
                    let mtime = m
                        .modified()
                        .ok()
                        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                        .map(|d| d.as_nanos())
                        .unwrap_or(0);
                    s.push_str(&format!("  {} {} {mtime}\n", p.display(), m.len()));
                }
            }
        }
        if let Some(lib) = self.get("RUST_LIB_SRC") {
            s.push_str(&format!(
                "core={}\n",
                Path::new(lib).join("core/src/lib.rs").exists()
            ));
        }
        s
    }
}

/// A short name for a cache file: the first 16 hex digits of the SHA-256 of `s`, stable
/// across runs and Rust versions.
pub fn file_key(s: &str) -> String {
    let mut d = crate::cache::key::digest(s.as_bytes());
    d.truncate(16);
    d
}

pub use crate::fsutil::cache_dir;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flavor {
    Simple,
    Recursive,
}

/// Expands `$(…)`. Holds the variables, the environment, the probe cache and a log of which
/// probes each expansion used.
pub struct Expander {
    env: MacroEnv,
    vars: RefCell<HashMap<String, (Flavor, String)>>,
    cache: RefCell<HashMap<String, Probe>>,
    cache_file: Option<PathBuf>,
    dirty: RefCell<bool>,
    /// Probes used since the last [`Expander::take_used`].
    used: RefCell<Vec<String>>,
    /// Messages from `$(warning-if)`/`$(info)` and what could not be evaluated.
    pub notes: RefCell<Vec<String>>,
    workdir: tempfile::TempDir,
    /// Number of probes actually run (not from the cache).
    pub ran: RefCell<usize>,
    /// While [`Expander::prefetch`] looks ahead: the probes asked for, none of them run.
    wanted: RefCell<Option<Vec<String>>>,
    /// No probe result was kept for these tools: the first evaluation runs them all.
    cold: bool,
}

impl Expander {
    /// `variables`: the assignments from the Kconfig files, in order (`name`, operator, value).
    pub fn new(env: MacroEnv, variables: &[(String, String, String)], use_cache: bool) -> Expander {
        let mut vars = HashMap::new();
        vars.insert("empty".to_string(), (Flavor::Simple, String::new()));
        vars.insert("space".to_string(), (Flavor::Simple, " ".to_string()));
        let cache_file = use_cache
            .then(cache_dir)
            .flatten()
            .map(|d| d.join(format!("kconfig-probes-{}.json", file_key(&env.identity()))));
        let cache: HashMap<String, Probe> = cache_file
            .as_ref()
            .and_then(|f| std::fs::read(f).ok())
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        let cold = cache.is_empty();
        let x = Expander {
            env,
            vars: RefCell::new(vars),
            cache: RefCell::new(cache),
            cache_file,
            dirty: RefCell::new(false),
            used: RefCell::new(vec![]),
            notes: RefCell::new(vec![]),
            workdir: tempfile::tempdir().expect("a temporary folder"),
            ran: RefCell::new(0),
            wanted: RefCell::new(None),
            cold,
        };
        // The probes of `:=` assignments (the compiler's, linker's, rustc's versions) are
        // independent: look ahead, run them side by side, then assign for real.
        let before = x.vars.borrow().clone();
        x.prefetch(|| x.assign(variables));
        *x.vars.borrow_mut() = before;
        x.assign(variables);
        x
    }

    /// The variable assignments, in order: `:=` and `+=` expand at once, `=` when used.
    fn assign(&self, variables: &[(String, String, String)]) {
        for (name, op, value) in variables {
            // nom-kconfig reads `empty :=` (nothing after it) together with the next line.
            if value.contains('\n') || (name == "empty" && !value.is_empty()) {
                continue;
            }
            match op.as_str() {
                ":=" => {
                    let v = self.expand(value, &[]);
                    self.vars
                        .borrow_mut()
                        .insert(name.clone(), (Flavor::Simple, v));
                }
                "+=" => {
                    let add = self.expand(value, &[]);
                    let mut vars = self.vars.borrow_mut();
                    let e = vars
                        .entry(name.clone())
                        .or_insert((Flavor::Simple, String::new()));
                    e.1 = if e.1.is_empty() {
                        add
                    } else {
                        format!("{} {add}", e.1)
                    };
                }
                _ => {
                    self.vars
                        .borrow_mut()
                        .insert(name.clone(), (Flavor::Recursive, value.clone()));
                }
            }
        }
    }

    pub fn env(&self) -> &MacroEnv {
        &self.env
    }

    /// The probes used since the last call (for explanations).
    pub fn take_used(&self) -> Vec<String> {
        std::mem::take(&mut *self.used.borrow_mut())
    }

    pub fn probe(&self, command: &str) -> Option<Probe> {
        self.cache.borrow().get(command).cloned()
    }

    /// Writes the probe cache (only when something new ran).
    pub fn save(&self) {
        if !*self.dirty.borrow() {
            return;
        }
        if let Some(f) = &self.cache_file {
            if let Ok(bytes) = serde_json::to_vec(&*self.cache.borrow()) {
                let _ = crate::fsutil::write_if_changed(f, &bytes);
            }
        }
    }

    /// Expands every `$(…)` in `text`; `args` are `$(1)`, `$(2)`… of a recursive variable.
    pub fn expand(&self, text: &str, args: &[String]) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find("$(") {
            out.push_str(&rest[..i]);
            let body_start = i + 2;
            match matching_paren(&rest[body_start..]) {
                Some(len) => {
                    let body = &rest[body_start..body_start + len];
                    out.push_str(&self.call(body, args));
                    rest = &rest[body_start + len + 1..];
                }
                None => {
                    self.notes
                        .borrow_mut()
                        .push(format!("unterminated `$(` in `{text}`: kept as text"));
                    out.push_str(&rest[i..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out
    }

    fn call(&self, body: &str, args: &[String]) -> String {
        let parts: Vec<String> = split_args(body)
            .into_iter()
            .map(|p| self.expand(p, args))
            .collect();
        let name = parts[0].trim().to_string();
        let fargs = &parts[1..];
        if let Ok(n) = name.parse::<usize>() {
            return args.get(n.wrapping_sub(1)).cloned().unwrap_or_default();
        }
        match name.as_str() {
            "shell" => return self.shell(&fargs.join(",")).stdout_flat(),
            "success" => return yn(self.shell(fargs.first().map_or("", |s| s)).ok),
            "failure" => return yn(!self.shell(fargs.first().map_or("", |s| s)).ok),
            "if-success" => {
                let ok = self.shell(fargs.first().map_or("", |s| s)).ok;
                return fargs
                    .get(if ok { 1 } else { 2 })
                    .cloned()
                    .unwrap_or_default();
            }
            "info" => {
                self.notes.borrow_mut().push(fargs.join(","));
                return String::new();
            }
            "warning-if" | "error-if" => {
                if fargs.first().map(|s| s.as_str()) == Some("y") {
                    self.notes
                        .borrow_mut()
                        .push(format!("Kconfig {name}: {}", fargs[1..].join(",")));
                }
                return String::new();
            }
            "filename" | "lineno" => return String::new(),
            _ => {}
        }
        let var = self.vars.borrow().get(&name).cloned();
        if let Some((flavor, value)) = var {
            return match flavor {
                Flavor::Simple => value,
                Flavor::Recursive => self.expand(&value, fargs),
            };
        }
        if fargs.is_empty() {
            if let Some(v) = self.env.get(&name) {
                return v.to_string();
            }
            if let Ok(v) = std::env::var(&name) {
                return v;
            }
            return String::new();
        }
        self.notes.borrow_mut().push(format!(
            "unknown Kconfig function `$({name},…)`: assumed empty"
        ));
        String::new()
    }

    /// Runs side by side the probes that `look_ahead` (an evaluation, run here with every
    /// probe not yet known answered as a failure with no output) asks for, and keeps their
    /// results, so that the real evaluation after it finds them. Kconfig runs its probes one at
    /// a time; most are independent compiler checks. A probe the real evaluation asks for that
    /// the look-ahead did not (its command depends on another probe's answer) just runs then.
    /// Only when no result was kept for these tools: otherwise the look-ahead would cost an
    /// evaluation to find, most likely, nothing.
    pub fn prefetch(&self, look_ahead: impl FnOnce()) {
        if !self.cold {
            return;
        }
        let used = self.used.take();
        let notes = self.notes.take();
        *self.wanted.borrow_mut() = Some(vec![]);
        look_ahead();
        let mut wanted = self.wanted.take().unwrap_or_default();
        *self.used.borrow_mut() = used;
        *self.notes.borrow_mut() = notes;
        wanted.sort();
        wanted.dedup();
        if wanted.len() < 2 {
            return;
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let probes = std::sync::Mutex::new(vec![]);
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        std::thread::scope(|s| {
            for _ in 0..workers.min(wanted.len()) {
                let (env, dir) = (&self.env, self.workdir.path());
                let (next, wanted, probes) = (&next, &wanted, &probes);
                s.spawn(move || loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(command) = wanted.get(i) else { break };
                    let p = run(env, dir, command);
                    probes.lock().expect("probes").push(p);
                });
            }
        });
        let probes = probes.into_inner().expect("probes");
        *self.ran.borrow_mut() += probes.len();
        *self.dirty.borrow_mut() = true;
        let mut cache = self.cache.borrow_mut();
        for p in probes {
            cache.insert(p.command.clone(), p);
        }
    }

    /// Runs `sh -c command` (or takes it from the cache).
    pub fn shell(&self, command: &str) -> Probe {
        if let Some(w) = self.wanted.borrow_mut().as_mut() {
            if let Some(p) = self.cache.borrow().get(command) {
                return p.clone();
            }
            w.push(command.to_string());
            return Probe {
                command: command.to_string(),
                ok: false,
                stdout: String::new(),
                stderr: String::new(),
            };
        }
        self.used.borrow_mut().push(command.to_string());
        if let Some(p) = self.cache.borrow().get(command) {
            return p.clone();
        }
        *self.ran.borrow_mut() += 1;
        let probe = run(&self.env, self.workdir.path(), command);
        self.cache
            .borrow_mut()
            .insert(command.to_string(), probe.clone());
        *self.dirty.borrow_mut() = true;
        probe
    }
}

/// One probe, for real: `sh -c command` in the scratch folder `dir` with Kbuild's variables.
fn run(env: &MacroEnv, dir: &Path, command: &str) -> Probe {
    let mut p = Process::new("sh").arg("-c").arg(command).cwd(dir);
    for (k, v) in &env.vars {
        p = p.env(k, v);
    }
    match p.output() {
        Ok(o) => Probe {
            command: command.to_string(),
            ok: o.success(),
            stdout: o.stdout,
            stderr: o.stderr,
        },
        Err(e) => Probe {
            command: command.to_string(),
            ok: false,
            stdout: String::new(),
            stderr: format!("{e:#}"),
        },
    }
}

impl Probe {
    /// `$(shell)` output: newlines become spaces, the trailing one dropped.
    pub fn stdout_flat(&self) -> String {
        self.stdout.trim_end_matches('\n').replace('\n', " ")
    }
}

fn yn(b: bool) -> String {
    if b { "y" } else { "n" }.to_string()
}

/// Length of the text up to the `)` that closes an already-open `$(`.
fn matching_paren(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Splits a call body at the commas outside nested parentheses.
fn split_args(body: &str) -> Vec<&str> {
    let mut out = vec![];
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in body.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&body[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> Expander {
        let vars = vec![
            ("comma".into(), ":=".into(), ",".into()),
            (
                "if-ok".into(),
                "=".into(),
                "$(shell,{ $(1); } >/dev/null 2>&1 && echo \"$(2)\" || echo \"$(3)\")".into(),
            ),
            ("greet".into(), "=".into(), "hello $(1)$(comma) $(2)".into()),
            ("simple".into(), ":=".into(), "$(shell,echo one)".into()),
        ];
        Expander::new(MacroEnv::default(), &vars, false)
    }

    #[test]
    fn variables_functions_and_shell() {
        let x = x();
        assert_eq!(x.expand("$(greet,a,b)", &[]), "hello a, b");
        assert_eq!(x.expand("[$(simple)]", &[]), "[one]");
        assert_eq!(x.expand("$(shell,printf 'a\\nb\\n')", &[]), "a b");
        assert_eq!(x.expand("$(success,true)$(success,false)", &[]), "yn");
        assert_eq!(x.expand("$(failure,false)", &[]), "y");
        assert_eq!(x.expand("$(if-ok,true,Y,N)", &[]), "Y");
        assert_eq!(x.expand("$(if-success,exit 3,Y,N)", &[]), "N");
        // Arguments are expanded before the call, commas inside them do not split.
        assert_eq!(x.expand("$(shell,echo '$(greet,x,y)')", &[]), "hello x, y");
        assert_eq!(x.expand("$(UNSET_VARIABLE_FOR_TEST)", &[]), "");
    }

    #[test]
    fn unknown_function_is_noted() {
        let x = x();
        assert_eq!(x.expand("$(no-such-fn,a)", &[]), "");
        assert!(x.notes.borrow()[0].contains("no-such-fn"));
    }

    #[test]
    fn a_prefetch_runs_what_the_look_ahead_asks_for() {
        let x = x();
        let ran = *x.ran.borrow();
        x.take_used();
        let text = "$(success,true) $(shell,echo two) $(if-success,exit 3,Y,N) $(shell,echo two)";
        x.prefetch(|| {
            // Unknown probes answer as failures with no output while looking ahead.
            assert_eq!(x.expand(text, &[]), "n  N ");
        });
        assert_eq!(*x.ran.borrow(), ran + 3, "each command once");
        assert!(x.take_used().is_empty(), "the look-ahead used nothing");
        assert_eq!(x.expand(text, &[]), "y two N two");
        assert_eq!(*x.ran.borrow(), ran + 3, "all found in the cache");
    }

    #[test]
    fn failing_probe_keeps_its_stderr() {
        let x = x();
        assert_eq!(x.expand("$(success,echo broken >&2; exit 1)", &[]), "n");
        let p = x.probe("echo broken >&2; exit 1").unwrap();
        assert!(!p.ok && p.stderr.contains("broken"));
    }
}
