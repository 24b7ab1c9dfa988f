//! The on-disk parse cache of a tree's Kconfig: the flattened model (postcard, a compact binary
//! serde format: the kernel's model is 20 MB as JSON and took most of a warm `config`) beside the macro
//! probe cache, with the size and mtime of every Kconfig file it was read from. Parsing the
//! kernel's ~1,600 Kconfig files costs seconds of CPU (docs/kconfig.md); checking their stamps
//! costs one `stat` each.
//!
//! The key ([`file()`]) is the tree, the root file and the arch; the stamps and the format string
//! (which includes rkbuild's version) decide whether an entry may be used. The cache only ever
//! saves work: a missing, stale or unreadable entry means "parse again", never an error.

use std::path::{Path, PathBuf};

use std::sync::Arc;

use super::{Choice, Kconfig, Symbols};
use crate::fsutil::stamp;

/// The parse cache's index: the flattened tree but its symbols, the size and mtime of every
/// file it was read from, and each symbol's name, type and place in the blob that follows.
/// A warm run reads the index and decodes only the symbols it asks for.
#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    format: String,
    srctree: PathBuf,
    srcarch: String,
    stamps: Vec<(String, u64, u128)>,
    /// The symbols' flat index ([`Symbols::encode`]) follows the stored head, `index_len`
    /// bytes for `symbol_count` symbols; the symbols' blob follows it.
    symbol_count: u32,
    index_len: u64,
    /// The file names the symbols' places refer to by number.
    #[serde(with = "arc_strs")]
    symbol_files: Vec<Arc<str>>,
    choices: Vec<Choice>,
    modules: Option<String>,
    variables: Vec<(String, String, String)>,
    files: usize,
    entries: usize,
}

/// A list of shared names, written as a list of strings.
mod arc_strs {
    use std::sync::Arc;

    use serde::{Deserialize as _, Deserializer, Serialize as _, Serializer};

    pub fn serialize<S: Serializer>(v: &[Arc<str>], s: S) -> Result<S::Ok, S::Error> {
        v.iter().map(|n| &**n).collect::<Vec<&str>>().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Arc<str>>, D::Error> {
        Vec::<String>::deserialize(d).map(|v| v.into_iter().map(Arc::from).collect())
    }
}

const CACHE_FORMAT: &str = concat!("rkbuild-kconfig-tree-6-", env!("CARGO_PKG_VERSION"));

/// The format a cache is written in: postcard is not self-describing (see
/// [`crate::fsutil::this_build`]).
fn format() -> String {
    format!("{CACHE_FORMAT} {}", crate::fsutil::this_build())
}

/// The cache file for one tree, root and arch, named by a hash of the three (the canonical
/// source tree path, so `.` and its absolute path share one file).
pub(super) fn file(srctree: &Path, root: &str, srcarch: &str) -> Option<PathBuf> {
    let key = format!(
        "{}\n{root}\n{srcarch}",
        crate::fsutil::canonical(srctree).display()
    );
    crate::kconfig::macros::cache_dir().map(|d| {
        d.join(format!(
            "kconfig-tree-{}.bin",
            crate::kconfig::macros::file_key(&key)
        ))
    })
}

/// The stored tree in `file`, if it was made by this rkbuild for `srcarch` and no file it was
/// read from changed since.
pub(super) fn load(file: &Path, srctree: &Path, srcarch: &str) -> Option<Kconfig> {
    // The file: the head's length (8 bytes, little-endian), the head, the symbols' index and
    // their blob. It is mapped, not read: a warm run decodes only the symbols it asks for,
    // straight from the page cache (`why --all` asks for all ~19,000 of 7.3's, which were a
    // read each).
    let f = std::fs::File::open(file).ok()?;
    // SAFETY: rkbuild never writes a cache file in place (fsutil writes a new file and renames
    // it over the old), so the mapped bytes stay as they are while this run holds them.
    let map = unsafe { memmap2::Mmap::map(&f) }.ok()?;
    let size = map.len() as u64;
    let head_len = u64::from_le_bytes(map.get(..8)?.try_into().ok()?);
    let head_end = 8usize.checked_add(usize::try_from(head_len).ok()?)?;
    let bytes = map.get(8..head_end)?;
    // The format (the first field) is checked before the rest is read as this build's types.
    let (written_as, _): (String, _) = postcard::take_from_bytes(bytes).ok()?;
    if written_as != format() {
        return None;
    }
    let stored: Stored = postcard::from_bytes(bytes).ok()?;
    let names: Vec<&str> = stored.stamps.iter().map(|s| s.0.as_str()).collect();
    let fresh = stored.srcarch == srcarch
        && crate::fsutil::stamps_under(srctree, &names)
            .into_iter()
            .zip(&stored.stamps)
            .all(|(now, (_, len, t))| now == Some((*len, *t)));
    if !fresh {
        return None;
    }
    let base = (8 + head_len)
        .checked_add(stored.index_len)
        .filter(|b| *b <= size)?;
    let index = map.get(head_end..usize::try_from(base).ok()?)?.to_vec();
    Some(Kconfig {
        srctree: srctree.to_path_buf(),
        srcarch: stored.srcarch,
        symbols: Symbols::stored(
            stored.symbol_count,
            index,
            stored.symbol_files,
            map,
            (base, size - base),
            file,
        )?,
        choices: stored.choices,
        modules: stored.modules,
        variables: stored.variables,
        files: stored.files,
        entries: stored.entries,
        parse_time: Default::default(),
        file_list: stored.stamps.into_iter().map(|s| s.0).collect(),
        cached: true,
    })
}

/// Stores `kc` in `file` with the current stamps of its files. Best effort: a cache that
/// cannot be written only means the next run parses again.
pub(super) fn save(file: &Path, kc: &Kconfig) {
    let Some(symbols) = kc.symbols.encode() else {
        return;
    };
    let stored = Stored {
        format: format(),
        srctree: kc.srctree.clone(),
        srcarch: kc.srcarch.clone(),
        stamps: kc
            .file_list
            .iter()
            .filter_map(|f| stamp(&kc.srctree.join(f)).map(|(l, t)| (f.clone(), l, t)))
            .collect(),
        symbol_count: symbols.count,
        index_len: symbols.index.len() as u64,
        symbol_files: symbols.files,
        choices: kc.choices.clone(),
        modules: kc.modules.clone(),
        variables: kc.variables.clone(),
        files: kc.files,
        entries: kc.entries,
    };
    if let Ok(head) = postcard::to_stdvec(&stored) {
        let mut bytes = (head.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(&head);
        bytes.extend_from_slice(&symbols.index);
        bytes.extend_from_slice(&symbols.blob);
        let _ = crate::fsutil::write_if_changed(file, &bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_tree;
    use super::*;

    /// A two-file tree, its model, and a cache file holding it.
    fn cached() -> (tempfile::TempDir, Kconfig, PathBuf) {
        let d = test_tree(&[
            (
                "Kconfig",
                "config A\n\tbool \"a\"\n\tselect B\n\nsource \"sub/Kconfig\"\n",
            ),
            (
                "sub/Kconfig",
                "choice\n\tprompt \"c\"\nconfig B\n\tbool \"b\"\nendchoice\n",
            ),
        ]);
        let kc = Kconfig::load(d.path(), "x86").unwrap();
        let file = d.path().join("cache/tree.json");
        save(&file, &kc);
        (d, kc, file)
    }

    /// Everything the model holds, as text to compare.
    fn contents(kc: &Kconfig) -> String {
        let symbols: Vec<&super::super::Symbol> = kc.symbols.iter().map(|(_, s)| s).collect();
        serde_json::to_string(&(
            &kc.srctree,
            &kc.srcarch,
            symbols,
            &kc.choices,
            &kc.modules,
            &kc.variables,
            kc.files,
            kc.entries,
            &kc.file_list,
        ))
        .unwrap()
    }

    #[test]
    fn what_is_saved_loads_back_the_same() {
        let (d, kc, file) = cached();
        let back = load(&file, d.path(), "x86").expect("fresh");
        assert!(back.cached && !kc.cached);
        assert_eq!(contents(&back), contents(&kc));
    }

    #[test]
    fn a_loaded_tree_answers_lookups_as_the_parsed_one() {
        let (d, kc, file) = cached();
        let back = load(&file, d.path(), "x86").expect("fresh");
        for name in ["A", "B", "MISSING", ""] {
            assert_eq!(back.symbols.meta(name), kc.symbols.meta(name), "{name}");
            assert_eq!(
                back.get(name).map(|s| format!("{s:?}")),
                kc.get(name).map(|s| format!("{s:?}")),
                "{name}"
            );
        }
        assert_eq!(back.sym_type("A"), Some(crate::kconfig::SymType::Bool));
        // The places keep their file names through the cache's number table.
        assert_eq!(
            back.get("B").unwrap().defs[0].loc.to_string(),
            "sub/Kconfig:3"
        );
    }

    #[test]
    fn a_cut_or_altered_file_is_a_miss() {
        let (d, _, file) = cached();
        let bytes = std::fs::read(&file).unwrap();
        // Cut anywhere in the head or the index: never a panic, never a tree.
        for cut in [0, 4, 8, 20, bytes.len() / 2] {
            std::fs::write(&file, &bytes[..cut]).unwrap();
            assert!(load(&file, d.path(), "x86").is_none(), "cut at {cut}");
        }
    }

    #[test]
    fn a_changed_file_invalidates_it() {
        let (d, _, file) = cached();
        let sub = d.path().join("sub/Kconfig");
        // Same size, new mtime: an edit that keeps the length is still an edit.
        let f = std::fs::File::options().write(true).open(&sub).unwrap();
        let later = std::fs::metadata(&sub).unwrap().modified().unwrap()
            + std::time::Duration::from_secs(1);
        f.set_modified(later).unwrap();
        assert!(load(&file, d.path(), "x86").is_none());
        // Saved again, it is fresh again; then a change of size.
        save(&file, &Kconfig::load(d.path(), "x86").unwrap());
        assert!(load(&file, d.path(), "x86").is_some());
        std::fs::write(&sub, "config B\n\tbool\n").unwrap();
        assert!(load(&file, d.path(), "x86").is_none());
        // A file that is gone.
        save(&file, &Kconfig::load(d.path(), "x86").unwrap());
        std::fs::remove_file(&sub).unwrap();
        assert!(load(&file, d.path(), "x86").is_none());
    }

    #[test]
    fn another_arch_or_a_bad_file_is_a_miss() {
        let (d, _, file) = cached();
        assert!(load(&file, d.path(), "arm64").is_none());
        std::fs::write(&file, b"{ not json").unwrap();
        assert!(load(&file, d.path(), "x86").is_none());
        assert!(load(&d.path().join("none.json"), d.path(), "x86").is_none());
    }

    #[test]
    fn the_key_is_the_canonical_tree_the_root_and_the_arch() {
        let d = tempfile::tempdir().unwrap();
        let tree = d.path().join("linux");
        std::fs::create_dir(&tree).unwrap();
        std::os::unix::fs::symlink(&tree, d.path().join("link")).unwrap();
        let key = file(&tree, "Kconfig", "x86");
        assert!(key.is_some(), "a cache folder (HOME is set)");
        assert_eq!(file(&d.path().join("link"), "Kconfig", "x86"), key);
        assert_ne!(file(&tree, "Kconfig", "arm64"), key);
        assert_ne!(file(&tree, "other/Kconfig", "x86"), key);
    }
}
