//! The walk's result kept in the object tree (`.rkbuild-walk`) for the next build: reading
//! ~1,400 makefiles and listing their folders was three quarters of a no-op build of 6.12.
//! It is used while the walk's inputs are the same: the same source tree, configuration and
//! excluded folders (the key, a digest), and every path the walk depended on (makefiles read,
//! folders listed, paths looked for) with the same size and modification time. A folder's
//! modification time moves when an entry is added, removed or renamed, so a new `foo.rs` or
//! `Kbuild` is seen. Best effort: a missing, damaged or stale file only means the walk is done
//! again; an error is never stored.

use std::path::Path;
use std::time::{Duration, SystemTime};

use super::found::{KbuildError, Walk};
use crate::fsutil::stamps_under;
use crate::kconfig::DotConfig;

const FILE: &str = ".rkbuild-walk";
const FORMAT: &str = "rkbuild-walk-1";

type Stamp = Option<(u64, u128)>;

#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    /// [`FORMAT`] and this build ([`crate::fsutil::this_build`]), checked before the rest.
    format: String,
    key: String,
    /// Paths relative to the source tree and their stamps when the walk was stored.
    paths: Vec<String>,
    stamps: Vec<Stamp>,
    /// The walk, as JSON (its types skip empty fields, which postcard cannot read back).
    walk: String,
}

/// [`super::walk`], from the object tree's stored result when its inputs are unchanged.
pub fn walk_stored(
    srctree: &Path,
    objtree: &Path,
    cfg: &DotConfig,
    exclude: &[&str],
) -> Result<Walk, KbuildError> {
    let file = objtree.join(FILE);
    let key = key(srctree, cfg, exclude);
    let stored = match AHEAD.take(objtree) {
        Some(a) if a.srctree == srctree => a.read,
        _ => load(&file, srctree),
    };
    if let Some(r) = stored.filter(|r| r.key == key) {
        return Ok(r.walk);
    }
    let started = SystemTime::now();
    let (walk, paths) = super::walker::walk_looking(srctree, cfg, exclude)?;
    // Only into an object tree that is there: planning writes no tree.
    if objtree.is_dir() {
        save(&file, srctree, key, paths, &walk, started);
    }
    Ok(walk)
}

fn format() -> String {
    format!("{FORMAT} {}", crate::fsutil::this_build())
}

fn key(srctree: &Path, cfg: &DotConfig, exclude: &[&str]) -> String {
    let text = format!(
        "{}\n{}\n{}",
        crate::fsutil::canonical(srctree).display(),
        exclude.join(" "),
        cfg.to_dotconfig()
    );
    crate::cache::key::digest(text.as_bytes())
}

/// A stored walk whose paths are unchanged, with the key it was stored under.
struct Read {
    key: String,
    walk: Walk,
}

fn load(file: &Path, srctree: &Path) -> Option<Read> {
    let bytes = std::fs::read(file).ok()?;
    let (written_as, _): (String, _) = postcard::take_from_bytes(&bytes).ok()?;
    if written_as != format() {
        return None;
    }
    let stored: Stored = postcard::from_bytes(&bytes).ok()?;
    if stored.paths.len() != stored.stamps.len() {
        return None;
    }
    let paths: Vec<&str> = stored.paths.iter().map(String::as_str).collect();
    if stamps_under(srctree, &paths) != stored.stamps {
        return None;
    }
    Some(Read {
        key: stored.key,
        walk: serde_json::from_str(&stored.walk).ok()?,
    })
}

/// What [`read_ahead`] found: the stored walk of `objtree` checked against `srctree`.
struct ReadAhead {
    srctree: std::path::PathBuf,
    read: Option<Read>,
}

static AHEAD: crate::fsutil::Ahead<ReadAhead> = crate::fsutil::Ahead::new();

/// Starts reading and checking the stored walk of `objtree` on another thread, for the
/// [`walk_stored`] of this build (its key is compared then). Only while nothing is written:
/// [`forget_ahead`] when something is.
pub fn read_ahead(srctree: &Path, objtree: &Path) {
    let (s, o) = (srctree.to_path_buf(), objtree.to_path_buf());
    AHEAD.start(objtree, move || ReadAhead {
        read: load(&o.join(FILE), &s),
        srctree: s,
    });
}

/// Drops what [`read_ahead`] read.
pub fn forget_ahead() {
    AHEAD.forget();
}

fn save(
    file: &Path,
    srctree: &Path,
    key: String,
    paths: Vec<String>,
    walk: &Walk,
    started: SystemTime,
) {
    let names: Vec<&str> = paths.iter().map(String::as_str).collect();
    let stamps = stamps_under(srctree, &names);
    // A path changed during the walk, or so close before it that a change in the same clock
    // tick would keep its stamp: the next build walks again rather than trust it.
    let since = |t: u128| {
        SystemTime::UNIX_EPOCH + Duration::from_nanos(u64::try_from(t).unwrap_or(u64::MAX))
    };
    let margin = started - Duration::from_secs(1);
    if stamps.iter().flatten().any(|(_, t)| since(*t) >= margin) {
        return;
    }
    let Ok(walk) = serde_json::to_string(walk) else {
        return;
    };
    let stored = Stored {
        format: format(),
        key,
        paths,
        stamps,
        walk,
    };
    if let Ok(bytes) = postcard::to_stdvec(&stored) {
        let _ = crate::fsutil::write_if_changed(file, &bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    /// Sets every file and folder of `root` a minute back, as a tree not just written.
    fn age(root: &Path) {
        let old = SystemTime::now() - Duration::from_secs(60);
        for e in walkdir::WalkDir::new(root) {
            let e = e.unwrap();
            std::fs::File::open(e.path())
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
    }

    const TREE: &[(&str, &str)] = &[
        ("Makefile", "drivers-y := drivers/\n"),
        (
            "drivers/Makefile",
            "obj-$(CONFIG_A) += a.o\nobj-$(CONFIG_B) += b.o\n",
        ),
        ("drivers/a.rs", ""),
        ("drivers/b.c", ""),
    ];

    #[test]
    fn stored_walk_is_used_until_an_input_changes() {
        let d = tree(TREE);
        let o = tempfile::tempdir().unwrap();
        age(d.path());
        let c = cfg("CONFIG_A=y\nCONFIG_B=y\n");
        let w = walk_stored(d.path(), o.path(), &c, &[]).unwrap();
        assert_eq!(objs(&w), ["drivers/a.o"]);
        assert!(o.path().join(FILE).is_file(), "the walk was stored");
        let key = key(d.path(), &c, &[]);
        assert_eq!(
            load_for(&o.path().join(FILE), d.path(), &key),
            Some(w.clone())
        );
        // Another configuration is another key.
        let c2 = cfg("CONFIG_A=m\n");
        assert_eq!(
            load_for(&o.path().join(FILE), d.path(), &key_of(d.path(), &c2)),
            None
        );
        // A new Rust source beside b.o: the folder changed, the walk is done again.
        std::fs::write(d.path().join("drivers/b.rs"), "").unwrap();
        assert_eq!(load_for(&o.path().join(FILE), d.path(), &key), None);
        let w = walk_stored(d.path(), o.path(), &c, &[]).unwrap();
        assert_eq!(objs(&w), ["drivers/a.o", "drivers/b.o"]);
        // An edited makefile, just now: walked again, and not stored while that recent.
        age(d.path());
        walk_stored(d.path(), o.path(), &c, &[]).unwrap();
        std::fs::write(d.path().join("drivers/Makefile"), "obj-y += a.o\n").unwrap();
        assert_eq!(load_for(&o.path().join(FILE), d.path(), &key), None);
        let before = std::fs::read(o.path().join(FILE)).unwrap();
        let w = walk_stored(d.path(), o.path(), &c, &[]).unwrap();
        assert_eq!(objs(&w), ["drivers/a.o"]);
        assert_eq!(std::fs::read(o.path().join(FILE)).unwrap(), before);
    }

    fn load_for(file: &Path, srctree: &Path, key: &str) -> Option<Walk> {
        load(file, srctree).filter(|r| r.key == key).map(|r| r.walk)
    }

    #[test]
    fn a_walk_read_ahead_is_used_and_a_forgotten_one_is_not() {
        let d = tree(TREE);
        let o = tempfile::tempdir().unwrap();
        age(d.path());
        let c = cfg("CONFIG_A=y\nCONFIG_B=y\n");
        walk_stored(d.path(), o.path(), &c, &[]).unwrap();
        // Read ahead, then the stored file damaged: the walk read ahead is what is used.
        read_ahead(d.path(), o.path());
        std::thread::sleep(Duration::from_millis(100));
        std::fs::write(o.path().join(FILE), b"damaged").unwrap();
        let w = walk_stored(d.path(), o.path(), &c, &[]).unwrap();
        assert_eq!(objs(&w), ["drivers/a.o"]);
        // Read ahead, a new source, forgotten: walked again, and the new object is found.
        read_ahead(d.path(), o.path());
        std::thread::sleep(Duration::from_millis(100));
        std::fs::write(d.path().join("drivers/b.rs"), "").unwrap();
        forget_ahead();
        let w = walk_stored(d.path(), o.path(), &c, &[]).unwrap();
        assert_eq!(objs(&w), ["drivers/a.o", "drivers/b.o"]);
    }

    fn key_of(srctree: &Path, c: &DotConfig) -> String {
        key(srctree, c, &[])
    }

    #[test]
    fn damaged_file_is_walked_again() {
        let d = tree(TREE);
        let o = tempfile::tempdir().unwrap();
        age(d.path());
        let c = cfg("CONFIG_A=y\n");
        walk_stored(d.path(), o.path(), &c, &[]).unwrap();
        let f = o.path().join(FILE);
        let bytes = std::fs::read(&f).unwrap();
        for cut in [0, 5, bytes.len() / 2, bytes.len() - 1] {
            std::fs::write(&f, &bytes[..cut]).unwrap();
            assert_eq!(
                load_for(&f, d.path(), &key(d.path(), &c, &[])),
                None,
                "cut at {cut}"
            );
            let w = walk_stored(d.path(), o.path(), &c, &[]).unwrap();
            assert_eq!(objs(&w), ["drivers/a.o"]);
        }
    }
}
