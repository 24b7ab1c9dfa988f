//! Which files the source tree holds, each folder read once: the walk asks whether `foo.rs`
//! (or `foo.c`, `Kbuild`…) exists for every object of every list it reads, about 14,000
//! questions on 6.12 x86_64, and one read of each folder answers them (a `stat` each was a
//! third of a no-op build's system calls).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    File,
    Other,
    /// A link, or a type the folder read did not give: asked with `stat`.
    Ask,
}

pub(super) struct Listing<'a> {
    root: &'a Path,
    /// By folder (`""` or ending in `/`): its entries, or `None` when it cannot be read.
    folders: RefCell<HashMap<String, Option<HashMap<String, Kind>>>>,
    /// Paths asked with `stat` (links, odd names).
    asked: RefCell<Vec<String>>,
}

impl<'a> Listing<'a> {
    pub(super) fn new(root: &'a Path) -> Listing<'a> {
        Listing {
            root,
            folders: RefCell::default(),
            asked: RefCell::default(),
        }
    }

    /// Whether `rel` (relative to the root) is a file, links followed: as `Path::is_file`.
    pub(super) fn is_file(&self, rel: &str) -> bool {
        let (dir, name) = rel.rfind('/').map_or(("", rel), |i| rel.split_at(i + 1));
        let plain = |s: &str| !s.is_empty() && s != "." && s != "..";
        if !plain(name)
            || !dir.split('/').filter(|p| !p.is_empty()).all(plain)
            || rel.starts_with('/')
        {
            return self.ask(rel);
        }
        let kind = {
            let mut folders = self.folders.borrow_mut();
            let entries = folders
                .entry(dir.to_string())
                .or_insert_with(|| read(&self.root.join(dir)));
            match entries {
                Some(e) => e.get(name).copied(),
                None => Some(Kind::Ask),
            }
        };
        match kind {
            None => false,
            Some(Kind::File) => true,
            Some(Kind::Other) => false,
            Some(Kind::Ask) => self.ask(rel),
        }
    }

    fn ask(&self, rel: &str) -> bool {
        self.asked.borrow_mut().push(rel.to_string());
        self.root.join(rel).is_file()
    }

    /// Every folder read and path asked (`.` for the root), which the answers hold while
    /// unchanged: a folder's modification time moves when an entry is added, removed or renamed.
    pub(super) fn looked_at(&self) -> impl Iterator<Item = String> {
        let folders: Vec<String> = self.folders.borrow().keys().cloned().collect();
        let asked = self.asked.borrow().clone();
        folders
            .into_iter()
            .map(|f| if f.is_empty() { ".".into() } else { f })
            .chain(asked)
    }
}

fn read(dir: &Path) -> Option<HashMap<String, Kind>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        // A folder that is not there holds no file; one that cannot be read is asked per file.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some(HashMap::new()),
        Err(_) => return None,
    };
    let mut out = HashMap::new();
    for e in entries {
        let Ok(e) = e else { return None };
        let kind = match e.file_type() {
            Ok(t) if t.is_file() => Kind::File,
            Ok(t) if t.is_dir() => Kind::Other,
            _ => Kind::Ask,
        };
        match e.file_name().into_string() {
            Ok(name) => out.insert(name, kind),
            Err(_) => continue,
        };
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_as_is_file_does() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(root.join("a/x.rs"), "").unwrap();
        std::fs::write(root.join("top"), "").unwrap();
        std::os::unix::fs::symlink("x.rs", root.join("a/link.rs")).unwrap();
        std::os::unix::fs::symlink("none.rs", root.join("a/dangling.rs")).unwrap();
        let l = Listing::new(root);
        for rel in [
            "a/x.rs",
            "a/y.rs",
            "a/b",
            "a/b/",
            "a/link.rs",
            "a/dangling.rs",
            "top",
            "none/x",
            "a/../top",
            "./top",
            "",
            "a/b/../x.rs",
        ] {
            assert_eq!(l.is_file(rel), root.join(rel).is_file(), "{rel}");
        }
    }
}
