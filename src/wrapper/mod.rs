//! The `RUSTC` wrapper for the kernel's own make: `make RUSTC=rkbuild-rustc` (a link to the
//! rkbuild binary) or `rkbuild rustc [--] ARGS…`.
//!
//! It must be invisible to make: the real rustc gets the arguments unchanged and the wrapper's
//! own stdin, stdout and stderr, and its exit status comes back. When nothing is asked of it
//! the wrapper simply `exec`s the compiler (no extra process, the status is rustc's own).
//! With `RKBUILD_LOG=FILE` it runs the compiler as a child, times it and appends one JSON
//! line per call ([`record`]); with `RKBUILD_CLIPPY=1` (or `CLIPPY=1`/`KBUILD_CLIPPY=1` in
//! the environment) it runs clippy-driver instead, except for `core` and `alloc`, which
//! Kbuild never lints.

pub mod args;
pub mod cache;
pub mod fast;
pub mod record;

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use crate::process::Process;

/// The name of the link that makes the rkbuild binary act as rustc.
pub const LINK_NAME: &str = "rkbuild-rustc";
pub use fast::GUARD_ENV;

/// Crates Kbuild compiles with plain rustc even under `CLIPPY=1`.
const NO_CLIPPY: &[&str] = &["core", "alloc"];

/// Whether argv[0] names the wrapper link.
pub fn invoked_as_wrapper(argv0: &OsStr) -> bool {
    Path::new(argv0)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n == LINK_NAME || n.strip_suffix(".exe") == Some(LINK_NAME))
}

/// Why the wrapper could not run a compiler.
#[derive(Debug, thiserror::Error)]
pub enum WrapError {
    #[error("no real rustc found: `RKBUILD_RUSTC` is not set and no `rustc` on PATH other than rkbuild itself\n  fix: set RKBUILD_RUSTC=/path/to/rustc (the compiler make should really run)")]
    NoRustc,
    #[error(
        "RKBUILD_RUSTC=`{0}` cannot be found or run\n  fix: set RKBUILD_RUSTC to the real rustc"
    )]
    BadRustcEnv(String),
    #[error("recursion: RKBUILD_RUSTC=`{0}` is rkbuild itself, which would run itself forever\n  fix: set RKBUILD_RUSTC to the real compiler (e.g. /usr/bin/rustc), not to the rkbuild-rustc link")]
    SelfAsRustc(String),
    #[error("recursion: rkbuild-rustc was run again by the compiler it started (a `rustc` wrapper script that calls rkbuild-rustc?)\n  fix: set RKBUILD_RUSTC to the real compiler binary")]
    Loop,
    #[error("clippy requested (RKBUILD_CLIPPY/CLIPPY) but clippy-driver `{0}` cannot be found\n  fix: install clippy (`rustup component add clippy`) or set RKBUILD_CLIPPY_DRIVER")]
    NoClippy(String),
    #[error("cannot run `{0}`: {1}")]
    Spawn(String, String),
}

fn env_nonempty(k: &str) -> Option<OsString> {
    std::env::var_os(k).filter(|v| !v.is_empty())
}

/// Finds the real compiler: `RKBUILD_RUSTC`, else the first `rustc` on PATH that is not
/// rkbuild (a `rustc` link to rkbuild or rkbuild-rustc early on PATH is skipped, not run).
pub fn find_real_rustc(selves: &fast::Selves) -> Result<PathBuf, WrapError> {
    let is_self = |p: &Path| selves.contains(p);
    let search = |name: &OsStr| -> Option<PathBuf> {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let cwd = std::env::current_dir().unwrap_or_default();
        which::which_in_all(name, Some(path), cwd)
            .ok()?
            .find(|p| !is_self(p))
    };
    if let Some(r) = env_nonempty("RKBUILD_RUSTC") {
        let shown = r.to_string_lossy().into_owned();
        if Path::new(&r).components().count() > 1 {
            let path = PathBuf::from(&r);
            if !path.is_file() {
                return Err(WrapError::BadRustcEnv(shown));
            }
            if is_self(&path) {
                return Err(WrapError::SelfAsRustc(shown));
            }
            return Ok(path);
        }
        // A bare name is looked up on PATH, skipping rkbuild links.
        return search(&r).ok_or(WrapError::BadRustcEnv(shown));
    }
    search(OsStr::new("rustc")).ok_or(WrapError::NoRustc)
}

fn clippy_requested() -> bool {
    ["RKBUILD_CLIPPY", "CLIPPY", "KBUILD_CLIPPY"]
        .iter()
        .any(|k| std::env::var_os(k).is_some_and(|v| !v.is_empty() && v != "0"))
}

fn find_clippy() -> Result<PathBuf, WrapError> {
    let name = env_nonempty("RKBUILD_CLIPPY_DRIVER")
        .or_else(|| env_nonempty("CLIPPY_DRIVER"))
        .unwrap_or_else(|| "clippy-driver".into());
    which::which(&name).map_err(|_| WrapError::NoClippy(name.to_string_lossy().into()))
}

/// What to run for one call.
#[derive(Debug)]
pub struct Plan {
    pub program: PathBuf,
    pub driver: &'static str,
    pub log: Option<PathBuf>,
}

/// Decides the compiler and the log for `args`, from the environment.
pub fn plan(args: &[OsString]) -> Result<Plan, WrapError> {
    if std::env::var_os(GUARD_ENV).is_some() {
        return Err(WrapError::Loop);
    }
    let rustc = find_real_rustc(&fast::Selves::of_this_program())?;
    let log = env_nonempty("RKBUILD_LOG").map(PathBuf::from);
    if clippy_requested() {
        let a = args::parse(&lossy(args));
        let lintable = !a.query_only
            && a.input.as_deref().is_some_and(|i| i != "-")
            && !a.name().is_some_and(|n| NO_CLIPPY.contains(&n.as_str()));
        if lintable {
            return Ok(Plan {
                program: find_clippy()?,
                driver: "clippy-driver",
                log,
            });
        }
    }
    Ok(Plan {
        program: rustc,
        driver: "rustc",
        log,
    })
}

fn lossy(args: &[OsString]) -> Vec<String> {
    args.iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

fn say(msg: &str) {
    eprintln!("rkbuild-rustc: {msg}");
}

/// Runs the wrapper and returns the exit code to leave with. Returns only with a log (or on
/// error): without one the compiler replaces this process.
pub fn run(args: Vec<OsString>) -> i32 {
    // Nothing asked of the wrapper: the compiler replaces this process before anything else
    // (the wrapper's cost stays near nothing).
    #[cfg(unix)]
    if let Some(rustc) =
        fast::direct_compiler(|k| std::env::var_os(k), &fast::Selves::of_this_program())
    {
        let e = Process::new(&rustc)
            .args(&args)
            .env(GUARD_ENV, "1")
            .exec_replace();
        say(&format!(
            "error: {}",
            WrapError::Spawn(rustc.display().to_string(), e.to_string())
        ));
        return 127;
    }
    let plan = match plan(&args) {
        Ok(p) => p,
        Err(e) => {
            say(&format!("error: {e}"));
            return 127;
        }
    };
    let proc = Process::new(&plan.program).args(&args).env(GUARD_ENV, "1");
    let log = plan.log.as_ref().and_then(|p| match record::LogFile::open(p) {
        Ok(f) => Some(f),
        Err(e) => {
            say(&format!(
                "warning: cannot open the rustc log `{}` (RKBUILD_LOG): {e}; compiling without recording",
                p.display()
            ));
            None
        }
    });
    // Neither a log nor the cache: the compiler replaces this process, before any argument
    // is read (the wrapper's cost stays near nothing).
    let cache_dir = cache::cache_dir();
    if cache_dir.is_none() && log.is_none() {
        #[cfg(unix)]
        {
            let e = proc.exec_replace();
            say(&format!(
                "error: {}",
                WrapError::Spawn(plan.program.display().to_string(), e.to_string())
            ));
            return 127;
        }
        #[cfg(not(unix))]
        return exit_code(proc.status_inherit(), &plan.program).0;
    }
    let sargs = lossy(&args);
    let a = args::parse(&sargs);
    // The step cache, when make's environment turns it on: a hit needs no compiler.
    let call = cache_dir.and_then(|d| cache::call(&d, &sargs, &a, &plan.program));
    let start_ms = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let t = Instant::now();
    let hit = call.as_ref().is_some_and(|c| c.restore());
    let (status, signal) = if hit {
        (0, None)
    } else {
        #[cfg(unix)]
        let st = proc.status_inherit_shielded();
        #[cfg(not(unix))]
        let st = proc.status_inherit();
        exit_code(st, &plan.program)
    };
    if let (Some(c), false, 0) = (&call, hit, status) {
        if let Err(e) = c.store() {
            say(&format!("warning: cache: not stored: {e}"));
        }
    }
    let duration_ms = t.elapsed().as_secs_f64() * 1000.0;
    let Some(mut log) = log else {
        #[cfg(unix)]
        if let Some(sig) = signal {
            die_by(sig);
        }
        return status;
    };
    let env: BTreeMap<String, String> = record::RECORDED_ENV
        .iter()
        .filter_map(|k| Some((k.to_string(), std::env::var(k).ok()?)))
        .collect();
    let mut argv = vec![plan.program.display().to_string()];
    argv.extend(sargs);
    let rec = record::Record {
        v: record::FORMAT,
        argv,
        driver: plan.driver.into(),
        cwd: std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_default(),
        env,
        crate_name: if a.query_only { None } else { a.name() },
        crate_types: a.crate_types.clone(),
        inputs: a.inputs(),
        outputs: a.outputs(),
        status,
        signal,
        duration_ms,
        start_ms,
        pid: std::process::id(),
        cached: hit,
    };
    if let Err(e) = log.append(&rec) {
        say(&format!(
            "warning: cannot write the rustc log `{}` (RKBUILD_LOG): {e}",
            plan.log.as_ref().unwrap().display()
        ));
    }
    #[cfg(unix)]
    if let Some(sig) = signal {
        die_by(sig);
    }
    status
}

/// Dies by `sig`, as the compiler did, so the caller (make) sees the same death as without a
/// log, when the compiler replaces the wrapper. No core file: the compiler wrote its own.
#[cfg(unix)]
fn die_by(sig: i32) {
    let none = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system calls on this process; if `raise` returns (a signal that does not
    // kill), the caller exits with 128+N.
    unsafe {
        libc::setrlimit(libc::RLIMIT_CORE, &none);
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

/// A child's status as a shell reports it (signal N → 128+N, for the log).
fn exit_code(st: anyhow::Result<std::process::ExitStatus>, program: &Path) -> (i32, Option<i32>) {
    match st {
        Ok(s) => {
            if let Some(c) = s.code() {
                return (c, None);
            }
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt as _;
                if let Some(sig) = s.signal() {
                    return (128 + sig, Some(sig));
                }
            }
            (1, None)
        }
        Err(e) => {
            let _ = program;
            say(&format!("error: {e:#}"));
            (127, None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_name_is_recognised() {
        assert!(invoked_as_wrapper(OsStr::new(
            "/usr/local/bin/rkbuild-rustc"
        )));
        assert!(invoked_as_wrapper(OsStr::new("rkbuild-rustc")));
        assert!(!invoked_as_wrapper(OsStr::new("/usr/bin/rkbuild")));
        assert!(!invoked_as_wrapper(OsStr::new("rustc")));
    }
}
