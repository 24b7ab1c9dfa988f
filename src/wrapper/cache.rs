//! The step cache inside the kernel's own make: with `RKBUILD_CACHE_DIR=DIR` (or
//! `RKBUILD_CACHE=1` for the default folder) in make's environment, the wrapper looks each
//! compile up in the same content-addressed store `rkbuild build --cache` uses, and on a hit
//! puts the outputs and the dep-info file in place without running rustc; make's fixdep then
//! reads the dep-info as usual, so its `.cmd` files and freshness checks are as after a real
//! compile. On a miss rustc runs, and what it wrote is stored.
//!
//! The wrapper learns a call's inputs before running it from two levels of keys (see
//! [`crate::cache::key`]): the command line names the crate root, the `--extern`s, the
//! argument files and the target spec; the cache remembers, per command, the inputs past runs
//! read (their dep-info), and hashes those files as they are now. No extra rustc run is needed
//! (sccache, for instance, runs rustc once more with `--emit=dep-info`).

use std::path::{Path, PathBuf};

use super::args::CrateArgs;
use super::record::RECORDED_ENV;
use crate::cache::{key, Cache};
use crate::context::Toolchain;
use crate::exec::cached::{self, Action};
use crate::kconfig::DotConfig;
use crate::process::Process;

/// A compile the cache can take: the action, the configuration its keys read, the store.
pub struct Call {
    pub action: Action,
    cfg: DotConfig,
    cache: Cache,
}

/// The cache folder make's environment asks for.
pub fn cache_dir() -> Option<PathBuf> {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = env("RKBUILD_CACHE_DIR") {
        return Some(PathBuf::from(d));
    }
    env("RKBUILD_CACHE")
        .filter(|v| v != "0")
        .or_else(|| env("RKBUILD_REMOTE"))
        .map(|_| Cache::default_dir())
}

/// The store in `dir`, in front of `RKBUILD_REMOTE` when make's environment names one. A bad
/// URL is said (the compile goes on uncached).
fn open(dir: &Path) -> Option<Cache> {
    let url = std::env::var("RKBUILD_REMOTE")
        .ok()
        .filter(|v| !v.is_empty());
    let cache = Cache::open(dir, crate::cache::DEFAULT_LIMIT).ok()?;
    cache
        .with_remote(url.as_deref())
        .map_err(|e| eprintln!("rkbuild-rustc: warning: RKBUILD_REMOTE: {e:#}"))
        .ok()
}

/// The compiler's identity (`-vV`), asked once per binary (path, size, modification time)
/// and kept in the cache folder.
fn identity(cache: &Cache, program: &Path) -> Option<String> {
    let name = key::digest(Toolchain::key("rustc -vV", program, &[])?.as_bytes());
    let file = cache.dir().join("tools").join(name);
    if let Ok(text) = std::fs::read_to_string(&file) {
        return Some(text);
    }
    let out = Process::new(program).arg("-vV").output().ok()?;
    if !out.success() {
        return None;
    }
    let _ = std::fs::create_dir_all(file.parent()?);
    let _ = crate::fsutil::write_if_changed(&file, out.stdout.as_bytes());
    Some(out.stdout)
}

/// The cache's view of one call in cache folder `dir`, or `None` when the call is not a
/// compile it can take (a query, input on stdin, no dep-info or no explicit output).
pub fn call(dir: &Path, args: &[String], parsed: &CrateArgs, program: &Path) -> Option<Call> {
    if parsed.query_only || parsed.input.as_deref().is_none_or(|i| i == "-") {
        return None;
    }
    let depfile = parsed.emit("dep-info")?.to_string();
    let mut outputs: Vec<String> = parsed
        .emits
        .iter()
        .filter(|(_, p)| !p.is_empty())
        .map(|(_, p)| p.clone())
        .collect();
    outputs.extend(parsed.out_file.clone());
    if outputs.iter().all(|o| *o == depfile) {
        return None;
    }
    let cache = open(dir)?;
    let tool = identity(&cache, program)?;
    let workdir = std::env::current_dir().ok()?;
    let mut command = String::new();
    for k in RECORDED_ENV {
        if let Ok(v) = std::env::var(k) {
            command.push_str(&format!("{k}={v}\n"));
        }
    }
    command.push_str(&args.join("\n"));
    let mut declared = parsed.inputs();
    declared.extend(
        args.iter()
            .filter_map(|a| a.strip_prefix("--target="))
            .filter(|t| t.ends_with(".json"))
            .map(String::from),
    );
    // The configuration the kernel's make built with: the `CONFIG_` values the action keys
    // read, and whether debug info names the tree.
    // The object tree is `OBJTREE` (Kbuild exports it for Rust); an external module is
    // compiled in its own folder.
    let objtree = std::env::var_os("OBJTREE")
        .map(PathBuf::from)
        .unwrap_or_else(|| workdir.clone());
    let cfg = DotConfig::load(&objtree.join("include/config/auto.conf"))
        .or_else(|_| DotConfig::load(&objtree.join(".config")))
        .ok()?;
    let names_workdir = cfg.enabled("DEBUG_INFO");
    Some(Call {
        action: Action {
            workdir,
            command,
            tool,
            declared,
            depfile: Some(depfile),
            outputs,
            names_workdir,
            // Each compile is its own process: restored files are counted by their bytes.
            tree_paths_as_o: false,
        },
        cfg,
        cache,
    })
}

impl Call {
    /// Puts a hit's outputs in place; `true` on a hit. A cache that cannot be read is a miss.
    pub fn restore(&self) -> bool {
        matches!(
            cached::restore(&self.cache, &self.action, &self.cfg),
            Ok(Some(_))
        )
    }

    /// Stores what the compiler just wrote; a cache that cannot take it is only a warning.
    pub fn store(&self) -> Result<(), String> {
        cached::store(&self.cache, &self.action, &self.cfg, "").map_err(|e| format!("{e:#}"))
    }
}
