//! The check that keeps a Rust driver from being dropped silently: every item the walker could
//! not read (text that cannot be expanded, a macro's lists, `$(eval …)` text) is matched, once
//! every list is read, against the Rust sources no list names. One that could name such a
//! source stops the walk with an error naming the line ([`KbuildError::Hidden`]).

use std::collections::HashSet;
use std::path::Path;

use super::around::Item;
use super::found::KbuildError;
use crate::makefile::{glob, normalize, show, Loc, Unread, Unrun, UNKNOWN};

/// What the walk could not read, and the Rust sources its lists name: the two sides of the
/// final check.
#[derive(Default)]
pub(super) struct Hidden {
    checks: Vec<Check>,
    /// Rust sources some list names (built or skipped).
    claimed: HashSet<String>,
}

/// Text the walker could not fully expand, or a macro's items.
struct Check {
    dir: String,
    at: String,
    line: String,
    item: String,
}

impl Hidden {
    /// A Rust source a list names: no unknown item stands for it.
    pub(super) fn claim(&mut self, src: String) {
        self.claimed.insert(src);
    }

    /// Queues what the reader did not run in folder `dir`: the items a macro's lists, an
    /// `$(eval …)` or an assignment to an unknown name could add.
    pub(super) fn unread(&mut self, dir: &str, u: Unread) {
        if let Unrun::MacroBody { name } = &u.why {
            // Only a macro's list assignments can list an object.
            if !looks_like_list(name) {
                return;
            }
        }
        self.check_items(dir, &u.text, &u.loc);
    }

    /// Queues the words of `text` that could name a Rust source for the final check.
    fn check_items(&mut self, dir: &str, text: &str, loc: &Loc) {
        for w in text.split_whitespace() {
            if w.contains(UNKNOWN) || w.ends_with(".o") || w.ends_with('/') {
                self.checks.push(Check {
                    dir: dir.to_string(),
                    at: loc.at.clone(),
                    line: loc.line.clone(),
                    item: w.to_string(),
                });
            }
        }
    }

    /// Queues an item of a list that cannot be expanded.
    pub(super) fn item(&mut self, dir: &str, it: &Item) {
        self.checks.push(Check {
            dir: dir.to_string(),
            at: it.loc.at.clone(),
            line: it.loc.line.clone(),
            item: it.word.clone(),
        });
    }

    /// Fails on the first checked item that could name a Rust source of `srctree` (outside
    /// the `exclude` folders) that no list names.
    /// `listed` gets every folder read.
    pub(super) fn check(
        &self,
        srctree: &Path,
        exclude: &[&str],
        listed: &mut Vec<String>,
    ) -> Result<(), KbuildError> {
        let patterns: Vec<(&Check, String)> = self
            .checks
            .iter()
            .filter_map(|c| rust_pattern(&c.dir, &c.item).map(|p| (c, p)))
            .collect();
        // Only the folders a pattern can reach are listed: a pattern matches from its start,
        // so every match lies under the folder its text before the first `*` names. (Listing
        // the whole source tree was most of a no-op build.)
        let mut roots: Vec<&str> = patterns.iter().map(|(_, p)| pattern_root(p)).collect();
        roots.sort_unstable();
        roots.dedup();
        let mut sources = vec![];
        let mut walked: Vec<&str> = vec![];
        for root in roots {
            let hidden = root.split('/').any(|part| part.starts_with('.'));
            let inside = |outer: &str| root.starts_with(outer);
            if hidden || walked.iter().any(|w| inside(w)) || exclude.iter().any(|x| inside(x)) {
                continue;
            }
            rust_sources(srctree, root, exclude, &mut sources, listed);
            walked.push(root);
        }
        let free: Vec<&String> = sources
            .iter()
            .filter(|s| !self.claimed.contains(*s))
            .collect();
        for (c, pattern) in patterns {
            if let Some(rust) = free.iter().find(|s| glob(&pattern, s)) {
                let why = if c.item.contains(UNKNOWN) {
                    "`*` is what cannot be expanded here"
                } else {
                    "macros, and lists whose name cannot be expanded, are not read"
                };
                return Err(KbuildError::Hidden {
                    at: c.at.clone(),
                    line: c.line.clone(),
                    item: show(&c.item),
                    rust: rust.to_string(),
                    why: why.into(),
                });
            }
        }
        Ok(())
    }
}

/// Whether an assignment's name (unexpanded) looks like a Kbuild list: `obj-…`, `foo-y`,
/// `foo-$(CONFIG_X)`, `foo-objs`.
fn looks_like_list(lhs: &str) -> bool {
    !lhs.contains(char::is_whitespace) && lhs.contains('-')
}

/// Every `.rs` file under `rel`, except in the excluded folders and hidden ones.
fn rust_sources(
    srctree: &Path,
    rel: &str,
    exclude: &[&str],
    out: &mut Vec<String>,
    listed: &mut Vec<String>,
) {
    listed.push(if rel.is_empty() {
        ".".into()
    } else {
        rel.into()
    });
    let Ok(entries) = std::fs::read_dir(srctree.join(rel)) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = format!("{rel}{name}");
        match e.file_type() {
            Ok(t) if t.is_dir() => {
                let sub = format!("{path}/");
                if !exclude.contains(&sub.as_str()) {
                    rust_sources(srctree, &sub, exclude, out, listed);
                }
            }
            Ok(t) if t.is_file() && name.ends_with(".rs") => out.push(path),
            _ => {}
        }
    }
}

/// The folder (`""` or ending in `/`) under which every match of `pattern` lies.
fn pattern_root(pattern: &str) -> &str {
    let fixed = pattern.split(UNKNOWN).next().unwrap_or("");
    fixed.rfind('/').map_or("", |i| &fixed[..=i])
}

/// The Rust sources an item could name, as a pattern (`UNKNOWN` matches anything, `/` too); `None`
/// when it cannot name one (`foo.a`, `-DFOO`).
fn rust_pattern(dir: &str, item: &str) -> Option<String> {
    let item = item.strip_prefix("./").unwrap_or(item);
    let p = if let Some(stem) = item.strip_suffix(".o") {
        format!("{stem}.rs")
    } else if item.ends_with('/')
        || item.ends_with(UNKNOWN)
        || (item.contains(UNKNOWN) && !item.contains('.'))
    {
        format!("{item}{UNKNOWN}.rs")
    } else {
        return None;
    };
    Some(normalize(&format!("{dir}{p}")))
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn a_pattern_reaches_only_the_folder_before_its_first_unknown() {
        use crate::makefile::UNKNOWN as U;
        assert_eq!(
            super::pattern_root(&format!("drivers/gpu/{U}.rs")),
            "drivers/gpu/"
        );
        assert_eq!(
            super::pattern_root(&format!("drivers/a{U}/b.rs")),
            "drivers/"
        );
        assert_eq!(super::pattern_root(&format!("{U}/x.rs")), "");
        assert_eq!(super::pattern_root("drivers/x.rs"), "drivers/");
        assert_eq!(super::pattern_root("x.rs"), "");
    }

    #[test]
    fn define_blocks_and_eval_lines_are_not_run() {
        // drivers/platform/x86/intel/Makefile and drivers/iommu/generic_pt/fmt/Makefile in 7.3.
        let w = walk_ok(
            &[
                ("Makefile", "obj-y += drivers/\n"),
                (
                    "drivers/Makefile",
                    "intel-target-$(CONFIG_RST) += rst.o\n\
                     define INTEL_OBJ_TARGET\n\
                     intel-$(1)-y := $(1).o\n\
                     obj-$(2) += intel-$(1).o\n\
                     endef\n\
                     $(foreach t, $(basename $(intel-target-y)), $(eval $(call INTEL_OBJ_TARGET,$(t),y)))\n\
                     define create_format\n\
                     obj-$(2) += iommu_$(1).o\n\
                     endef\n\
                     $(eval $(foreach fmt,amdv1,$(call create_format,$(fmt),y)))\n\
                     obj-$(CONFIG_R) += r.o\n",
                ),
                ("drivers/rst.c", ""),
                ("drivers/r.rs", ""),
            ],
            "CONFIG_RST=y\nCONFIG_R=m\n",
        );
        assert_eq!(objs(&w), ["drivers/r.o"]);
    }

    #[test]
    fn a_macro_that_could_list_a_rust_object_is_an_error() {
        let msg = walk_err(
            &[
                ("Makefile", "obj-y += drivers/\n"),
                (
                    "drivers/Makefile",
                    "define one\nobj-$(2) += $(1).o\nendef\n$(eval $(call one,hidden,y))\n",
                ),
                ("drivers/hidden.rs", ""),
            ],
            "",
        );
        assert!(msg.starts_with("drivers/Makefile:"), "{msg}");
        assert!(msg.contains("drivers/hidden.rs"), "{msg}");
        assert!(msg.contains("\n  fix: "), "{msg}");
    }

    #[test]
    fn what_cannot_be_expanded_is_checked_against_the_rust_sources() {
        let files = |extra: &'static str| {
            vec![
                ("Makefile", "obj-y += d/\n"),
                ("d/Makefile", "obj-y += a.o\nobj-y += foo_$(BITS).o\n"),
                ("d/a.rs", ""),
                ("d/foo_32.c", ""),
                ("d/other/x.rs", extra),
            ]
        };
        // `foo_*.o` cannot name `d/a.rs` (listed) nor `d/other/x.rs`.
        let w = walk_ok(&files(""), "");
        assert_eq!(objs(&w), ["d/a.o"]);
        let mut hidden = files("");
        hidden.push(("d/foo_64.rs", ""));
        let msg = walk_err(&hidden, "");
        assert!(
            msg.starts_with("d/Makefile:2: cannot read `obj-y += foo_$(BITS).o`: `foo_*.o` could name `d/foo_64.rs`"),
            "{msg}"
        );
    }
}
