//! The wrapper's fast path, on std alone: when nothing is asked of the wrapper (no log, no
//! cache, no clippy) it only has to find the real compiler and `exec` it. The program
//! `rkbuild-rustc` is this file and nothing of the library (`src/bin/rkbuild-rustc.rs`), so it
//! starts as fast as any small program does; everything else it hands to the `rkbuild` binary
//! beside it. The library's wrapper asks the same question first ([`super::run`]).
//!
//! The answer must be the one the full wrapper would give ([`super::plan`]); where it could
//! differ (an error to explain, a loop to stop) the answer is "ask the full wrapper".

use std::ffi::{OsStr, OsString};
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

/// Set in the compiler's environment to catch a loop through another wrapper.
pub const GUARD_ENV: &str = "RKBUILD_RUSTC_WRAPPED";
/// The names under which rkbuild's programs sit side by side.
pub const PROGRAMS: [&str; 2] = ["rkbuild", "rkbuild-rustc"];

/// The files that are rkbuild itself, by device and inode: the running program and its
/// siblings `rkbuild` and `rkbuild-rustc` (either may be on PATH as `rustc`).
pub struct Selves(Vec<(u64, u64)>);

impl Selves {
    pub fn of_this_program() -> Self {
        let mut ids = vec![];
        if let Ok(exe) = std::env::current_exe() {
            ids.extend(id(&exe));
            if let Some(dir) = exe.parent() {
                ids.extend(PROGRAMS.iter().filter_map(|p| id(&dir.join(p))));
            }
        }
        Selves(ids)
    }

    pub fn contains(&self, p: &Path) -> bool {
        id(p).is_some_and(|i| self.0.contains(&i))
    }
}

fn id(p: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

/// The compiler to `exec` straight away, or `None` when the full wrapper must decide: a log,
/// the step cache or clippy is asked for, the guard says the wrapper runs itself, or the
/// compiler cannot be found (the full wrapper says why).
pub fn direct_compiler(env: impl Fn(&str) -> Option<OsString>, selves: &Selves) -> Option<PathBuf> {
    let set = |k: &str| env(k).filter(|v| !v.is_empty());
    let on = |k: &str| set(k).is_some_and(|v| v != "0");
    if env(GUARD_ENV).is_some()
        || set("RKBUILD_LOG").is_some()
        || set("RKBUILD_CACHE_DIR").is_some()
        || on("RKBUILD_CACHE")
        || set("RKBUILD_REMOTE").is_some()
        || ["RKBUILD_CLIPPY", "CLIPPY", "KBUILD_CLIPPY"]
            .iter()
            .any(|k| on(k))
    {
        return None;
    }
    let path = env("PATH").unwrap_or_default();
    match set("RKBUILD_RUSTC") {
        Some(r) if Path::new(&r).components().count() > 1 => {
            let p = PathBuf::from(r);
            (p.is_file() && !selves.contains(&p)).then_some(p)
        }
        Some(name) => search(&name, &path, selves),
        None => search(OsStr::new("rustc"), &path, selves),
    }
}

/// The first executable `name` on `path` that is not rkbuild itself (as `which` finds it:
/// relative entries from the working directory).
fn search(name: &OsStr, path: &OsStr, selves: &Selves) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt as _;
    let cwd = std::env::current_dir().ok()?;
    std::env::split_paths(path).find_map(|dir| {
        let p = cwd.join(dir).join(name);
        let m = std::fs::metadata(&p).ok()?;
        (m.is_file() && m.permissions().mode() & 0o111 != 0 && !selves.contains(&p)).then_some(p)
    })
}
