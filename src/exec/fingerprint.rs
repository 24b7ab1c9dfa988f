//! When a step is up to date: Kbuild's `if_changed_dep` + fixdep, as data.
//!
//! After a step succeeds, its fingerprint is written beside its output
//! (`rust/.core.o.rkbuild`): the command line, the program's identity (`rustc -vV`), every
//! input with its size and modification time (from the depfile, which rustc writes with
//! `-Zbinary_dep_depinfo` so crates it links are listed too), every output likewise, and the
//! value of every `CONFIG_` symbol the inputs mention. The step is up to date only when all of
//! these are unchanged. The fingerprint is removed before the step runs and written only after
//! it (and its post-steps) succeeded, so an interrupted build leaves no fingerprint and the
//! next run redoes the step.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::kconfig::DotConfig;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileStamp {
    pub path: String,
    pub size: u64,
    pub mtime_ns: i128,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fingerprint {
    pub command: String,
    pub tool: String,
    pub inputs: Vec<FileStamp>,
    pub outputs: Vec<FileStamp>,
    /// `CONFIG_X` → its value (`n` when unset), for the symbols the inputs mention.
    pub config: BTreeMap<String, String>,
}

/// Why a step must run (for `-v` and JSON).
pub type Reason = String;

/// Where a step's fingerprint lives: `dir/.file.rkbuild` beside the main output.
pub fn path_for(objtree: &Path, id: &str) -> PathBuf {
    let (dir, file) = id.rsplit_once('/').unwrap_or(("", id));
    objtree.join(dir).join(format!(".{file}.rkbuild"))
}

pub fn stamp(path: &Path, shown: &str) -> Option<FileStamp> {
    let m = std::fs::metadata(path).ok()?;
    let t = m.modified().ok()?;
    let ns = match t.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i128,
        Err(e) => -(e.duration().as_nanos() as i128),
    };
    Some(FileStamp {
        path: shown.to_string(),
        size: m.len(),
        mtime_ns: ns,
    })
}

/// Resolves a path as a step wrote it (relative to the object tree, or absolute).
pub fn resolve(objtree: &Path, p: &str) -> PathBuf {
    let pb = Path::new(p);
    if pb.is_absolute() {
        pb.to_path_buf()
    } else {
        objtree.join(pb)
    }
}

/// The prerequisites in a make-style depfile (rustc's `--emit=dep-info`, clang's `-MMD`):
/// every path on the right of a `target:` line, with `\ ` for spaces and `\` continuations.
pub fn parse_depfile(text: &str) -> Vec<String> {
    let joined = text.replace("\\\n", " ");
    let mut out: Vec<String> = vec![];
    for line in joined.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        // `target: deps`; the colon is the first one followed by a space or the end (paths
        // may hold `:` only on Windows, which Kbuild does not run on).
        let Some(p) = line
            .find(": ")
            .or_else(|| line.strip_suffix(':').map(|s| s.len()))
        else {
            continue;
        };
        let mut word = String::new();
        let mut chars = line[p + 1..].chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&' ') => {
                    word.push(' ');
                    chars.next();
                }
                c if c.is_whitespace() => {
                    if !word.is_empty() {
                        out.push(std::mem::take(&mut word));
                    }
                }
                c => word.push(c),
            }
        }
        if !word.is_empty() {
            out.push(word);
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.clone()));
    out
}

/// The `CONFIG_` symbols a source text mentions (fixdep's scan).
pub fn config_symbols(text: &str, into: &mut std::collections::BTreeSet<String>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(off) = text[i..].find("CONFIG_") {
        let start = i + off;
        let mut end = start + "CONFIG_".len();
        while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
            end += 1;
        }
        let preceded =
            start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
        if end > start + "CONFIG_".len() && !preceded {
            into.insert(text[start + "CONFIG_".len()..end].to_string());
        }
        i = end;
    }
}

pub fn config_value(cfg: &DotConfig, sym: &str) -> String {
    cfg.get(sym)
        .map(|v| v.text().into_owned())
        .unwrap_or_else(|| "n".into())
}

/// Stamps taken by earlier checks of one build, by path: the steps of a kernel's `rust/` share
/// most inputs (helpers, bindings and uapi each depend on the same ~600 headers), so a no-op
/// build stats each file once instead of about three times. Only good while nothing is
/// written: the build drops it once a step runs.
#[derive(Default)]
pub struct Seen {
    stamps: std::collections::HashMap<PathBuf, Option<(u64, i128)>>,
    /// Fingerprints read by [`Seen::prefill`], by path, until their check takes them.
    records: std::collections::HashMap<PathBuf, Vec<u8>>,
}

impl Seen {
    pub fn new() -> Seen {
        Seen::default()
    }

    /// Reads the fingerprints at `records` and stats every file they name, on two threads,
    /// before the checks ask for them one by one (a 6.12 no-op: 1,205 files, which were a
    /// seventh of its time one at a time).
    pub fn prefill(&mut self, objtree: &Path, records: &[PathBuf]) {
        let mut paths = std::collections::HashSet::new();
        for r in records {
            if self.records.contains_key(r) {
                continue;
            }
            let Some(bytes) = read(r) else { continue };
            if let Some(v) = view(&bytes) {
                for f in v.inputs.iter().chain(&v.outputs) {
                    let p = resolve(objtree, f.path);
                    if !self.stamps.contains_key(&p) {
                        paths.insert(p);
                    }
                }
            }
            self.records.insert(r.clone(), bytes);
        }
        // By folder: each file is `fstatat` against its open folder, which walks the folder's
        // path once (most are headers in a few dozen folders).
        let mut by_dir: std::collections::BTreeMap<&Path, Vec<&PathBuf>> = Default::default();
        for p in &paths {
            by_dir
                .entry(p.parent().unwrap_or(Path::new("/")))
                .or_default()
                .push(p);
        }
        let dirs: Vec<_> = by_dir.into_iter().collect();
        let half = paths.len() / 2;
        let mut split = 0;
        let mut n = 0;
        while split < dirs.len() && n < half {
            n += dirs[split].1.len();
            split += 1;
        }
        let (a, b) = dirs.split_at(split);
        let got = std::thread::scope(|s| {
            let first = s.spawn(|| stat_by_dir(a));
            let mut rest = stat_by_dir(b);
            rest.extend(first.join().expect("stat thread"));
            rest
        });
        self.stamps.extend(got);
    }

    /// The stamps for a build of the steps `ids` in `objtree`: what [`read_ahead`] read, and
    /// the rest of their fingerprints read now. The list of `ids` is kept for the next build's
    /// [`read_ahead`].
    pub fn for_build(objtree: &Path, ids: &[&str]) -> Seen {
        let mut seen = AHEAD.take(objtree).unwrap_or_default();
        let records: Vec<PathBuf> = ids.iter().map(|id| path_for(objtree, id)).collect();
        seen.prefill(objtree, &records);
        let _ = crate::fsutil::write_if_changed(&objtree.join(LIST), ids.join("\n").as_bytes());
        seen
    }

    /// The fingerprint read by [`Seen::prefill`] at `path`, if it read one.
    pub fn take_record(&mut self, path: &Path) -> Option<Vec<u8>> {
        self.records.remove(path)
    }

    fn stamp(&mut self, path: PathBuf) -> Option<(u64, i128)> {
        *self
            .stamps
            .entry(path)
            .or_insert_with_key(|p| stamp(p, "").map(|s| (s.size, s.mtime_ns)))
    }
}

/// The ids of the last build's steps (one a line) in the object tree, for [`read_ahead`].
const LIST: &str = ".rkbuild-steps";

static AHEAD: crate::fsutil::Ahead<Seen> = crate::fsutil::Ahead::new();

/// Starts reading, on another thread, the fingerprints of the steps the last build of
/// `objtree` checked and stamping the files they name, for this build's
/// [`Seen::for_build`]. Only while nothing is written: [`forget_ahead`] when something is.
pub fn read_ahead(objtree: &Path) {
    let o = objtree.to_path_buf();
    AHEAD.start(objtree, move || {
        let mut seen = Seen::new();
        let list = std::fs::read_to_string(o.join(LIST)).unwrap_or_default();
        let records: Vec<PathBuf> = list.lines().map(|id| path_for(&o, id)).collect();
        seen.prefill(&o, &records);
        seen
    });
}

/// Drops what [`read_ahead`] read.
pub fn forget_ahead() {
    AHEAD.forget();
}

/// The stamps of files grouped by folder, as [`stamp`] takes them.
fn stat_by_dir(dirs: &[(&Path, Vec<&PathBuf>)]) -> Vec<(PathBuf, Option<(u64, i128)>)> {
    use rustix::fs::{statat, AtFlags, Mode, OFlags};
    let mut out = vec![];
    for (dir, files) in dirs {
        let fd = rustix::fs::open(*dir, OFlags::PATH | OFlags::DIRECTORY, Mode::empty()).ok();
        for f in files {
            let st = match (&fd, f.file_name()) {
                (Some(fd), Some(name)) => statat(fd, name, AtFlags::empty()).ok().and_then(|s| {
                    let ns = i128::from(s.st_mtime) * 1_000_000_000 + i128::from(s.st_mtime_nsec);
                    Some((u64::try_from(s.st_size).ok()?, ns))
                }),
                _ => stamp(f, "").map(|s| (s.size, s.mtime_ns)),
            };
            out.push(((*f).clone(), st));
        }
    }
    out
}

/// A stored [`Fingerprint`] read in place, for checking (the same encoding: a map is stored as
/// a list of pairs): a no-op build reads ~13,000 `CONFIG_` values, and making each a `String`
/// in a map was a fifth of its time.
#[derive(serde::Deserialize)]
pub struct Stored<'a> {
    pub command: &'a str,
    pub tool: &'a str,
    #[serde(borrow)]
    pub inputs: Vec<StampRef<'a>>,
    #[serde(borrow)]
    pub outputs: Vec<StampRef<'a>>,
    #[serde(borrow)]
    pub config: Vec<(&'a str, &'a str)>,
}

#[derive(serde::Deserialize)]
pub struct StampRef<'a> {
    pub path: &'a str,
    pub size: u64,
    pub mtime_ns: i128,
}

/// Compares a stored fingerprint with the present; `None` when up to date. `seen` keeps the
/// stamps taken, for the next check.
pub fn stale_reason(
    old: &Stored,
    command: &str,
    tool: &str,
    objtree: &Path,
    cfg: &DotConfig,
    mut seen: Option<&mut Seen>,
) -> Option<Reason> {
    if old.command != command {
        return Some("the command line changed".into());
    }
    if old.tool != tool {
        return Some("the toolchain changed".into());
    }
    for f in old.inputs.iter().chain(&old.outputs) {
        let path = resolve(objtree, f.path);
        let now = match seen.as_deref_mut() {
            Some(seen) => seen.stamp(path),
            None => stamp(&path, "").map(|s| (s.size, s.mtime_ns)),
        };
        match now {
            Some(now) if now == (f.size, f.mtime_ns) => {}
            Some(_) => return Some(format!("`{}` changed", f.path)),
            None => return Some(format!("`{}` is missing", f.path)),
        }
    }
    for &(sym, val) in &old.config {
        let now = cfg.get(sym).map(|v| v.text());
        if now.as_deref().unwrap_or("n") != val {
            let now = config_value(cfg, sym);
            return Some(format!("CONFIG_{sym} changed ({val} → {now})"));
        }
    }
    None
}

/// Leads every fingerprint file: another format (an older rkbuild's) is no record at all, and
/// the step runs again.
const FORMAT: &[u8] = b"rkbuild-fingerprint-2\n";

/// The fingerprint at `path`. (Binary: a no-op build of a 6.12 tree reads 19 of them, 0.9 MB
/// as JSON, and parsing the JSON was a fifth of its time.) One an earlier rkbuild wrote as JSON
/// holds the same facts and is read too, so an upgrade rebuilds nothing.
pub fn load(path: &Path) -> Option<Fingerprint> {
    let bytes = std::fs::read(path).ok()?;
    match bytes.strip_prefix(FORMAT) {
        Some(b) => postcard::from_bytes(b).ok(),
        None => serde_json::from_slice(&bytes).ok(),
    }
}

impl Fingerprint {
    /// Viewed as a stored one, for [`stale_reason`].
    pub fn as_stored(&self) -> Stored<'_> {
        fn stamp(f: &FileStamp) -> StampRef<'_> {
            StampRef {
                path: f.path.as_str(),
                size: f.size,
                mtime_ns: f.mtime_ns,
            }
        }
        Stored {
            command: &self.command,
            tool: &self.tool,
            inputs: self.inputs.iter().map(stamp).collect(),
            outputs: self.outputs.iter().map(stamp).collect(),
            config: self
                .config
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect(),
        }
    }
}

/// The bytes of the fingerprint at `path`, to read with [`view`].
pub fn read(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

/// A fingerprint's bytes read in place; `None` in another format (an earlier rkbuild's JSON:
/// read it with [`load`]).
pub fn view(bytes: &[u8]) -> Option<Stored<'_>> {
    postcard::from_bytes(bytes.strip_prefix(FORMAT)?).ok()
}

/// Writes `fp` at `path` (atomically).
pub fn save(path: &Path, fp: &Fingerprint) -> anyhow::Result<()> {
    let mut bytes = FORMAT.to_vec();
    bytes.extend(postcard::to_stdvec(fp)?);
    crate::fsutil::write_if_changed(path, &bytes)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depfiles_of_rustc_and_clang() {
        let rustc = "rust/core.o: /lib/core/src/lib.rs /lib/core/src/a\\ b.rs\n\n/lib/core/src/lib.rs:\n\n# env-dep:OBJTREE=/o\n";
        assert_eq!(
            parse_depfile(rustc),
            ["/lib/core/src/lib.rs", "/lib/core/src/a b.rs"]
        );
        let clang = "rust/bindings/bindings_generated.rs: /s/h.h \\\n  /s/include/linux/types.h\n";
        assert_eq!(parse_depfile(clang), ["/s/h.h", "/s/include/linux/types.h"]);
    }

    /// What `save` writes, `view` reads in place and `stale_reason` judges: up to date while
    /// nothing changed, and why not once an input, a symbol or the command did.
    #[test]
    fn saved_fingerprint_is_checked_in_place() {
        use crate::kconfig::{DotConfig, Format};
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("in.rs"), "CONFIG_A CONFIG_B").unwrap();
        std::fs::write(d.path().join("out.o"), "o").unwrap();
        let fp = Fingerprint {
            command: "rustc in.rs".into(),
            tool: "rustc 1.85".into(),
            inputs: vec![stamp(&d.path().join("in.rs"), "in.rs").unwrap()],
            outputs: vec![stamp(&d.path().join("out.o"), "out.o").unwrap()],
            config: [("A".to_string(), "y".to_string()), ("B".into(), "n".into())].into(),
        };
        let file = d.path().join(".out.o.rkbuild");
        save(&file, &fp).unwrap();
        assert_eq!(load(&file), Some(fp));
        let cfg = |t: &str| DotConfig::parse(Path::new(".config"), t, Format::DotConfig).unwrap();
        let bytes = read(&file).unwrap();
        let v = view(&bytes).unwrap();
        assert_eq!(v.config, [("A", "y"), ("B", "n")]);
        let check = |command: &str, c: &str, seen: Option<&mut Seen>| {
            stale_reason(&v, command, "rustc 1.85", d.path(), &cfg(c), seen)
        };
        let mut seen = Seen::new();
        assert_eq!(check("rustc in.rs", "CONFIG_A=y\n", Some(&mut seen)), None);
        assert_eq!(seen.stamps.len(), 2);
        assert_eq!(check("rustc in.rs", "CONFIG_A=y\n", None), None);
        assert_eq!(
            check("rustc in.rs", "CONFIG_A=m\n", None).unwrap(),
            "CONFIG_A changed (y → m)"
        );
        assert_eq!(
            check("rustc -O in.rs", "CONFIG_A=y\n", None).unwrap(),
            "the command line changed"
        );
        std::fs::write(d.path().join("in.rs"), "CONFIG_A CONFIG_B changed").unwrap();
        assert_eq!(
            check("rustc in.rs", "CONFIG_A=y\n", None).unwrap(),
            "`in.rs` changed"
        );
        // An earlier rkbuild's JSON holds the same facts: read by `load`, not in place.
        let json = serde_json::to_vec_pretty(&load(&file).unwrap()).unwrap();
        std::fs::write(&file, &json).unwrap();
        assert!(view(&json).is_none());
        let old = load(&file).unwrap();
        assert_eq!(
            stale_reason(
                &old.as_stored(),
                "rkbuild in.rs",
                "rustc 1.85",
                d.path(),
                &cfg("CONFIG_A=y\n"),
                None
            )
            .unwrap(),
            "the command line changed"
        );
        // Anything else is no record.
        std::fs::write(&file, b"{}").unwrap();
        assert!(load(&file).is_none());
    }

    #[test]
    fn config_symbols_like_fixdep() {
        let mut s = std::collections::BTreeSet::new();
        config_symbols(
            "#[cfg(CONFIG_FOO)] x; if IS_ENABLED(CONFIG_BAR_2) {} MY_CONFIG_NOT CONFIG_",
            &mut s,
        );
        assert_eq!(s.into_iter().collect::<Vec<_>>(), ["BAR_2", "FOO"]);
    }
}
