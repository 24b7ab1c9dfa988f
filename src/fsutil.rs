//! Writing generated files the way Kbuild's `filechk` does: through a temporary file in the same
//! folder and a rename, and only when the content changed, so that make (and rustc, which hashes
//! target specs) sees a new timestamp only for a real change and never a half-written file.
//!
//! Also the one way a path is made canonical ([`canonical`]), so that every stage (kconfig's
//! parse cache key as much as the commands comparing trees) names a tree the same way.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// What happened to a generated file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WriteOutcome {
    Created,
    Updated,
    Unchanged,
}

/// Refuses a path rkbuild would have to pass on in a form that cannot hold it: rustc's argument
/// files take one argument per line (no newline in an argument) and are UTF-8, and make's
/// lines end at a newline. Such a path is refused before anything is written.
pub fn check_path_text(p: &Path, what: &str) -> anyhow::Result<()> {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let Some(text) = abs.to_str() else {
        anyhow::bail!(
            "the {what} `{}` is not UTF-8: rustc's argument files and Kbuild's command records hold UTF-8 text only
  fix: use a folder whose path is UTF-8",
            abs.display()
        );
    };
    if text.contains(['\n', '\r']) {
        anyhow::bail!(
            "the {what} {text:?} holds a line break: rustc's argument files take one argument per line, so the path would split into two arguments
  fix: use a folder whose path has no line break"
        );
    }
    Ok(())
}

/// Writes `contents` to `path` atomically, unless it already holds exactly that; the bytes
/// reach the disk before the rename, since caches and records are trusted when read back.
pub fn write_if_changed(path: &Path, contents: &[u8]) -> anyhow::Result<WriteOutcome> {
    write_atomically(path, contents, true)
}

/// [`write_if_changed`] without the flush, for the files every run makes again from its inputs
/// and compares with what is there (`config`'s outputs; Kbuild does not flush its own either):
/// after a crash a torn file differs and is rewritten. The flushes were 1.7 ms of a 20 ms
/// `config` into a new object tree.
pub fn write_output_if_changed(path: &Path, contents: &[u8]) -> anyhow::Result<WriteOutcome> {
    write_atomically(path, contents, false)
}

fn write_atomically(path: &Path, contents: &[u8], flush: bool) -> anyhow::Result<WriteOutcome> {
    // A device or FIFO (`-o /dev/null`) is written to, never renamed over: a rename would
    // replace the device node with a regular file.
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() && !meta.is_dir() {
            std::fs::write(path, contents)
                .with_context(|| format!("cannot write `{}`", path.display()))?;
            return Ok(WriteOutcome::Updated);
        }
    }
    let existed = match std::fs::read(path) {
        Ok(old) if old == contents => return Ok(WriteOutcome::Unchanged),
        Ok(_) => true,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) => return Err(e).with_context(|| format!("cannot read `{}`", path.display())),
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp_rkbuild_")
        .tempfile_in(dir)
        .with_context(|| {
            format!(
                "cannot write `{}` (a temporary file beside it cannot be made)",
                path.display()
            )
        })?;
    // The message names the file being written; the temporary is removed when `tmp` drops.
    tmp.write_all(contents)
        .and_then(|_| {
            if flush {
                tmp.as_file().sync_data()
            } else {
                Ok(())
            }
        })
        .with_context(|| format!("cannot write `{}`", path.display()))?;
    // tempfile creates 0600; a generated file gets the usual 0644, or keeps the mode it had.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(path)
            .map(|m| m.permissions().mode() & 0o7777)
            .unwrap_or(0o644);
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))
            .with_context(|| format!("cannot set the mode of `{}`", tmp.path().display()))?;
    }
    tmp.persist(path)
        .with_context(|| format!("cannot rename into `{}`", path.display()))?;
    Ok(if existed {
        WriteOutcome::Updated
    } else {
        WriteOutcome::Created
    })
}

/// `p` absolute with symlinks resolved, or `p` as given when that fails (it does not exist yet):
/// a comparison or a cache key still gets an answer.
pub fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Reading started early on another thread for a later stage of this process (a no-op build
/// reads its stored walk and fingerprints while it detects the tools and plans), kept with
/// the folder it read. Taken once; [`Ahead::forget`] drops it when the process wrote
/// something that reading may have seen the old state of.
pub struct Ahead<T> {
    slot: std::sync::Mutex<Option<(PathBuf, std::thread::JoinHandle<T>)>>,
}

impl<T: Send + 'static> Default for Ahead<T> {
    fn default() -> Self {
        Ahead::new()
    }
}

impl<T: Send + 'static> Ahead<T> {
    pub const fn new() -> Ahead<T> {
        Ahead {
            slot: std::sync::Mutex::new(None),
        }
    }

    /// Starts `read` on its own thread for `folder` (replacing what was there).
    pub fn start(&self, folder: &Path, read: impl FnOnce() -> T + Send + 'static) {
        let Ok(handle) = std::thread::Builder::new()
            .name("read-ahead".into())
            .spawn(read)
        else {
            return;
        };
        *self.lock() = Some((folder.to_path_buf(), handle));
    }

    /// What was read for `folder`, waiting for it; `None` when nothing was started for it.
    pub fn take(&self, folder: &Path) -> Option<T> {
        let mut slot = self.lock();
        if slot.as_ref().is_none_or(|(f, _)| f != folder) {
            return None;
        }
        let (_, handle) = slot.take()?;
        drop(slot);
        handle.join().ok()
    }

    /// Drops what was read (the thread, if still running, ends on its own).
    pub fn forget(&self) {
        self.lock().take();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(PathBuf, std::thread::JoinHandle<T>)>> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_cannot_be_passed_on_are_refused() {
        use std::os::unix::ffi::OsStrExt as _;
        assert!(check_path_text(Path::new("/tmp/a b/'q' $(x) #h"), "t").is_ok());
        let e = check_path_text(Path::new("/tmp/nl\n--cfg=EVIL"), "object tree").unwrap_err();
        assert!(e.to_string().contains("line break"), "{e}");
        let bad = std::ffi::OsStr::from_bytes(b"/tmp/bad\xff");
        assert!(check_path_text(Path::new(bad), "t")
            .unwrap_err()
            .to_string()
            .contains("not UTF-8"));
    }

    #[test]
    fn stamps_under_a_root_equal_each_files_stamp() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let names = ["a", "sub/b", "gone", "sub/c", "sub"];
        for n in ["a", "sub/b", "sub/c"] {
            std::fs::write(dir.path().join(n), n.repeat(3)).unwrap();
        }
        let want: Vec<_> = names.iter().map(|n| stamp(&dir.path().join(n))).collect();
        assert_eq!(stamps_under(dir.path(), &names), want);
        assert!(want[0].is_some() && want[2].is_none());
        assert_eq!(
            stamps_under(&dir.path().join("none"), &names[..2]),
            [None, None]
        );
    }

    #[test]
    fn canonical_resolves_links_and_keeps_a_missing_path() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
        assert_eq!(
            canonical(&dir.path().join("link")),
            std::fs::canonicalize(&real).unwrap()
        );
        let missing = Path::new("no/such/dir");
        assert_eq!(canonical(missing), missing);
    }

    #[test]
    fn a_device_is_written_not_replaced() {
        let null = Path::new("/dev/null");
        assert_eq!(write_if_changed(null, b"x").unwrap(), WriteOutcome::Updated);
        use std::os::unix::fs::FileTypeExt as _;
        assert!(std::fs::metadata(null)
            .unwrap()
            .file_type()
            .is_char_device());
    }

    #[test]
    fn unchanged_content_keeps_the_file_and_its_mtime() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b/file");
        assert_eq!(write_if_changed(&p, b"one").unwrap(), WriteOutcome::Created);
        let before = std::fs::metadata(&p).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(
            write_if_changed(&p, b"one").unwrap(),
            WriteOutcome::Unchanged
        );
        assert_eq!(std::fs::metadata(&p).unwrap().modified().unwrap(), before);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o644, "readable by all, like any generated file");
        }
        assert_eq!(write_if_changed(&p, b"two").unwrap(), WriteOutcome::Updated);
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        // No temporary files left behind.
        let names: Vec<_> = std::fs::read_dir(p.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["file"]);
        use std::os::unix::fs::PermissionsExt as _;
        assert_eq!(
            std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o644
        );
    }
}

/// An exclusive lock on a file (flock(2)), held until dropped. The kernel releases it when
/// its process ends, however it ends: a killed build leaves no stale lock.
#[derive(Debug)]
pub struct FileLock {
    _file: std::fs::File,
}

/// A folder's lock (`DIR/.rkbuild.lock`).
pub type FolderLock = FileLock;

/// Takes `dir`'s lock (see [`lock_file`]).
pub fn lock_folder(
    dir: &Path,
    wait: bool,
    waiting: impl FnOnce(&str),
) -> anyhow::Result<FolderLock> {
    lock_file(&dir.join(".rkbuild.lock"), wait, |holder| {
        waiting(&format!("`{}` is in use by {holder}; waiting for it", dir.display()))
    })
    .map_err(|e| match e.downcast::<Busy>() {
        Ok(Busy(holder)) => anyhow::anyhow!(
            "`{}` is in use by {holder}\n  fix: wait for it to finish, or leave out --no-wait to wait",
            dir.display()
        ),
        Err(e) => e,
    })
}

/// Another process holds a lock (`another rkbuild (pid N)`).
#[derive(Debug, thiserror::Error)]
#[error("in use by {0}")]
pub struct Busy(pub String);

/// Takes the lock of `path` (made when missing), writing this process's pid in it. When
/// another process holds it: with `wait`, tells `waiting` who (once) and waits; without,
/// fails with [`Busy`].
pub fn lock_file(path: &Path, wait: bool, waiting: impl FnOnce(&str)) -> anyhow::Result<FileLock> {
    use std::io::{Read as _, Seek as _, Write as _};
    use std::os::fd::AsRawFd as _;
    let path = path.to_path_buf();
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .with_context(|| format!("cannot open the lock `{}`", path.display()))?;
    let fd = file.as_raw_fd();
    // SAFETY: flock on a descriptor this function owns.
    if unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let err = std::io::Error::last_os_error();
        if err.raw_os_error() != Some(libc::EWOULDBLOCK) {
            return Err(err).with_context(|| format!("cannot lock `{}`", path.display()));
        }
        let mut holder = String::new();
        let _ = file.read_to_string(&mut holder);
        let holder = holder.trim();
        let who = if holder.is_empty() {
            "another rkbuild".to_string()
        } else {
            format!("another rkbuild (pid {holder})")
        };
        if !wait {
            return Err(Busy(who).into());
        }
        waiting(&who);
        // SAFETY: as above; blocks until the holder is done.
        if unsafe { libc::flock(fd, libc::LOCK_EX) } != 0 {
            return Err(std::io::Error::last_os_error())
                .with_context(|| format!("cannot lock `{}`", path.display()));
        }
    }
    file.set_len(0)?;
    file.rewind()?;
    write!(file, "{}", std::process::id())?;
    Ok(FileLock { _file: file })
}

/// rkbuild's cache folder (probe answers, the Kconfig parse cache, the step cache's default):
/// `$RKBUILD_CACHE_DIR`, else `$XDG_CACHE_HOME/rkbuild`, else `~/.cache/rkbuild`.
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("RKBUILD_CACHE_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("rkbuild"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/rkbuild"))
}

/// A file's size and modification time (ns), for caches that redo work when a file changes.
pub fn stamp(path: &Path) -> Option<(u64, u128)> {
    let m = std::fs::metadata(path).ok()?;
    let mtime = m
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some((m.len(), mtime))
}

/// The [`stamp`] of each of `files` (paths under `root`), in order, for validating a cache
/// against many files at once: each is `fstatat` against one open `root` (so `root`'s own
/// path is walked once, not per file), the list split over two threads.
pub fn stamps_under(root: &Path, files: &[&str]) -> Vec<Option<(u64, u128)>> {
    use rustix::fs::{statat, AtFlags, Mode, OFlags};
    let Ok(dir) = rustix::fs::open(root, OFlags::PATH | OFlags::DIRECTORY, Mode::empty()) else {
        return vec![None; files.len()];
    };
    let one = |f: &&str| {
        let s = statat(&dir, *f, AtFlags::empty()).ok()?;
        let secs = u128::try_from(s.st_mtime).ok()?;
        Some((
            u64::try_from(s.st_size).ok()?,
            secs * 1_000_000_000 + u128::from(s.st_mtime_nsec as u32),
        ))
    };
    let (a, b) = files.split_at(files.len() / 2);
    std::thread::scope(|s| {
        let first = s.spawn(|| a.iter().map(one).collect::<Vec<_>>());
        let mut rest: Vec<_> = b.iter().map(one).collect();
        let mut out = first.join().expect("stat thread");
        out.append(&mut rest);
        out
    })
}

/// Sets `path`'s modification time to `to` (only ever later: see `exec::settle`); the content
/// is not touched.
pub fn raise_mtime(path: &Path, to: std::time::SystemTime) -> std::io::Result<()> {
    std::fs::File::open(path)?.set_modified(to)
}

/// This rkbuild build, for caches written in a non-self-describing form (postcard): the running
/// program's size and modification time stand for its build, so an entry is only read by the
/// very binary that wrote it, never by one whose types may differ.
pub fn this_build() -> String {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|e| stamp(&e))
        .unwrap_or_default();
    format!("{} {} {}", env!("CARGO_PKG_VERSION"), exe.0, exe.1)
}

/// A file's identity for caches: its canonical path, size and modification time.
pub fn identity(path: &Path) -> Option<String> {
    let real = std::fs::canonicalize(path).ok()?;
    let (len, mtime) = stamp(&real)?;
    Some(format!("{} {len} {mtime}", real.display()))
}
