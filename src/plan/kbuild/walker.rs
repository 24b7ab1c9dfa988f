//! The walk itself: from the top `Makefile` and `Kbuild` down every folder a list names, each
//! folder's makefiles read as Kbuild reads them ([`super::around`]), its lists turned into
//! objects ([`super::composite`]) and further folders. What the reader could not run is queued
//! for the final check ([`super::hidden`]).

use std::collections::HashSet;
use std::path::Path;

use super::around::{items, Item, Kbuild};
use super::composite::{object, Object};
use super::found::{DriverObj, KbuildError, Skipped, Walk};
use super::hidden::Hidden;
use crate::kconfig::DotConfig;
use crate::makefile::{normalize, Includes, Loc, Op, Reader, Scope, UNKNOWN};
use crate::mapping::ObjKind;

/// Finds the Rust drivers the configuration enables, walking from the top of the source tree.
/// `exclude` folders (relative, e.g. `rust/`) hold the library crates and are not walked.
/// Composite parts are in the drivers too ([`DriverObj::composite`]); [`walk`] has the rest.
pub fn scan(
    srctree: &Path,
    cfg: &DotConfig,
    exclude: &[&str],
) -> Result<(Vec<DriverObj>, Vec<Skipped>), KbuildError> {
    let w = walk(srctree, cfg, exclude)?;
    Ok((w.drivers, w.skipped))
}

/// [`scan`], with the composites and the makefiles read.
pub fn walk(srctree: &Path, cfg: &DotConfig, exclude: &[&str]) -> Result<Walk, KbuildError> {
    walk_from(srctree, cfg, exclude, false).map(|(w, _)| w)
}

/// [`walk`], with every path of the source tree the result depends on: the makefiles read,
/// the folders listed and the paths looked for (for [`super::stored`]).
pub(super) fn walk_looking(
    srctree: &Path,
    cfg: &DotConfig,
    exclude: &[&str],
) -> Result<(Walk, Vec<String>), KbuildError> {
    walk_from(srctree, cfg, exclude, false)
}

/// An external module's folder (`make M=DIR`) and the folders it lists, read as Kbuild reads
/// them (`Kbuild`, else `Makefile`, with `KERNELRELEASE` set); paths are relative to `moddir`.
pub fn walk_extmod(moddir: &Path, cfg: &DotConfig) -> Result<Walk, KbuildError> {
    walk_from(moddir, cfg, &[], true).map(|(w, _)| w)
}

fn walk_from(
    srctree: &Path,
    cfg: &DotConfig,
    exclude: &[&str],
    extmod: bool,
) -> Result<(Walk, Vec<String>), KbuildError> {
    let mut w = Walker {
        srctree,
        cfg,
        exclude,
        extmod,
        out: Walk::default(),
        hidden: Hidden::default(),
        listing: super::listing::Listing::new(srctree),
        looked_at: vec![],
    };
    let mut queue = vec![Folder {
        dir: String::new(),
        kind: ObjKind::Kernel,
        at: String::new(),
        line: String::new(),
    }];
    let mut seen = HashSet::new();
    while let Some(f) = queue.pop() {
        if !seen.insert(f.dir.clone()) {
            continue;
        }
        let scope = w.read_folder(&f)?;
        let mut subs = w.collect(&scope, &f);
        subs.reverse();
        queue.extend(subs);
    }
    let mut looked_at = w.looked_at;
    w.hidden.check(srctree, exclude, &mut looked_at)?;
    looked_at.extend(w.listing.looked_at());
    looked_at.extend(w.out.makefiles.iter().cloned());
    looked_at.sort_unstable();
    looked_at.dedup();
    let mut out = w.out;
    // Listed twice (`obj-y` and `obj-m`, or two makefiles): Kbuild builds it in.
    out.drivers.sort_by(|a, b| {
        (&a.obj, a.kind == ObjKind::Module).cmp(&(&b.obj, b.kind == ObjKind::Module))
    });
    out.drivers.dedup_by(|a, b| a.obj == b.obj);
    out.composites.sort_by(|a, b| {
        (&a.obj, a.kind == ObjKind::Module).cmp(&(&b.obj, b.kind == ObjKind::Module))
    });
    out.composites.dedup_by(|a, b| a.obj == b.obj);
    let built: HashSet<&str> = out
        .drivers
        .iter()
        .map(|d| d.obj.as_str())
        .chain(out.composites.iter().map(|c| c.obj.as_str()))
        .collect();
    out.skipped.retain(|s| !built.contains(s.obj.as_str()));
    out.skipped.sort_by(|a, b| a.obj.cmp(&b.obj));
    out.skipped.dedup_by(|a, b| a.obj == b.obj);
    Ok((out, looked_at))
}

/// A folder to walk, and where it is listed.
struct Folder {
    /// Relative to the source tree, with a trailing `/` (empty for the top).
    dir: String,
    /// A folder listed as a module makes its `obj-y` objects modules.
    kind: ObjKind,
    at: String,
    line: String,
}

struct Walker<'a> {
    srctree: &'a Path,
    cfg: &'a DotConfig,
    exclude: &'a [&'a str],
    /// The top folder is an external module's: read as any folder.
    extmod: bool,
    out: Walk,
    hidden: Hidden,
    listing: super::listing::Listing<'a>,
    /// What the makefile readers looked for besides the files they read.
    looked_at: Vec<String>,
}

/// An object listed in a folder's `obj-` (or top-level) lists.
struct Listed {
    /// Relative to the folder, without `.o`.
    stem: String,
    /// `None`: in `obj-` (its symbol is off).
    kind: Option<ObjKind>,
    it: Item,
}

impl<'a> Walker<'a> {
    fn is_file(&self, rel: &str) -> bool {
        self.listing.is_file(rel)
    }

    fn read_folder(&mut self, f: &Folder) -> Result<Scope<'a>, KbuildError> {
        let mut scope = Kbuild::folder(self.cfg, &f.dir).scope();
        let mut reader = Reader::new(self.srctree);
        if f.dir.is_empty() && !self.extmod {
            // The top Makefile drives the build: only its lists matter. Its includes are the
            // build machinery and `arch/$(SRCARCH)/Makefile`, whose folders the top Kbuild's
            // `arch/$(SRCARCH)/` stands for (and is checked as), so they are not read. The
            // Makefile goes first: it sets the `ARCH_*` lists the Kbuild uses.
            let arch = |scope: &mut Scope, files: &str, loc: &Loc| {
                // What `include arch/$(SRCARCH)/Makefile` adds to the lists are folders of its
                // own (`core-y += arch/x86/`).
                if files.contains("arch/") {
                    for list in ["core-y", "drivers-y", "drivers-m", "libs-y", "libs-m"] {
                        let text = format!("arch/{UNKNOWN}/");
                        let known = scope.assign(list, Op::Append, &text, true, loc);
                        debug_assert!(known.is_ok());
                    }
                }
            };
            for (name, includes) in [
                ("Makefile", Includes::Instead(&arch)),
                ("Kbuild", Includes::Follow),
            ] {
                if self.is_file(name) {
                    reader.read_file(&mut scope, name, &includes)?;
                }
            }
        } else {
            let kbuild = format!("{}Kbuild", f.dir);
            let file = if self.is_file(&kbuild) {
                kbuild
            } else {
                format!("{}Makefile", f.dir)
            };
            if !self.is_file(&file) {
                return Err(KbuildError::Syntax {
                    at: f.at.clone(),
                    line: f.line.clone(),
                    why: format!("the folder `{}` has no Kbuild or Makefile", f.dir),
                    fix: "add its makefile, or take the folder out of the list".into(),
                });
            }
            reader.read_file(&mut scope, &file, &Includes::Follow)?;
        }
        self.out.makefiles.extend(reader.files);
        self.looked_at.extend(reader.looked_at);
        for u in reader.unread {
            self.hidden.unread(&f.dir, u);
        }
        Ok(scope)
    }

    /// Turns a folder's lists into drivers, composites and skipped drivers; returns the folders
    /// it lists.
    fn collect(&mut self, scope: &Scope, f: &Folder) -> Vec<Folder> {
        let (dir, parent_kind) = (f.dir.clone(), f.kind);
        let top = dir.is_empty() && !self.extmod;
        let inherit = |k: ObjKind| {
            if parent_kind == ObjKind::Module {
                ObjKind::Module
            } else {
                k
            }
        };
        let lists: &[&str] = if top {
            &["obj", "core", "drivers", "libs", "virt"]
        } else {
            &["obj"]
        };
        // (list suffix, kind; None: left out)
        let gates = [
            ("y", Some(ObjKind::Kernel)),
            ("m", Some(ObjKind::Module)),
            ("", None),
            ("n", None),
        ];
        let mut objs: Vec<Listed> = vec![];
        let mut folders: Vec<Folder> = vec![];
        let exclude = self.exclude;
        let mut add_folder = |name: &str, kind: Option<ObjKind>, it: &Item| {
            let sub = format!(
                "{}/",
                normalize(&format!("{dir}{}", name.trim_end_matches('/')))
            );
            if exclude.contains(&sub.as_str()) {
                return;
            }
            if let Some(k) = kind {
                folders.push(Folder {
                    dir: sub,
                    kind: inherit(k),
                    at: it.loc.at.clone(),
                    line: it.loc.line.clone(),
                });
            }
        };
        for list in lists {
            for (suffix, kind) in gates {
                for it in items(scope, &format!("{list}-{suffix}")) {
                    if it.word.contains(UNKNOWN) {
                        self.hidden.item(&dir, &it);
                    } else if it.word.ends_with('/') {
                        add_folder(&it.word, kind, &it);
                    } else if let Some(stem) = it.word.strip_suffix(".o") {
                        objs.push(Listed {
                            stem: normalize(stem),
                            kind: kind.map(inherit),
                            it,
                        });
                    }
                }
            }
        }
        // Objects in `lib.a` are built in, whichever list.
        for suffix in ["y", "m"] {
            for it in items(scope, &format!("lib-{suffix}")) {
                if it.word.contains(UNKNOWN) {
                    self.hidden.item(&dir, &it);
                } else if let Some(stem) = it.word.strip_suffix(".o") {
                    objs.push(Listed {
                        stem: normalize(stem),
                        kind: Some(inherit(ObjKind::Kernel)),
                        it,
                    });
                }
            }
        }
        // `subdir-y += foo` (slash or not): folders Kbuild descends into without linking them.
        for (suffix, kind) in gates {
            for it in items(scope, &format!("subdir-{suffix}")) {
                if it.word.contains(UNKNOWN) {
                    self.hidden.item(&dir, &it);
                } else {
                    add_folder(&it.word, kind, &it);
                }
            }
        }
        // Kbuild: an object both built in and modular is built in.
        let built_in: HashSet<String> = objs
            .iter()
            .filter(|o| o.kind == Some(ObjKind::Kernel))
            .map(|o| o.stem.clone())
            .collect();
        let mut done = HashSet::new();
        for o in &objs {
            let kind = match o.kind {
                Some(_) if built_in.contains(&o.stem) => Some(ObjKind::Kernel),
                k => k,
            };
            if !done.insert((o.stem.clone(), kind.is_some())) {
                continue;
            }
            let is_file = |rel: &str| self.listing.is_file(rel);
            let found = object(&is_file, scope, &dir, &o.stem, kind, &o.it);
            self.record(&dir, found);
        }
        folders
    }

    fn record(&mut self, dir: &str, found: Object) {
        for it in &found.unknown {
            self.hidden.item(dir, it);
        }
        for src in found.claimed {
            self.hidden.claim(src);
        }
        self.out.drivers.extend(found.drivers);
        self.out.composites.extend(found.composite);
        self.out.skipped.extend(found.skipped);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn finds_drivers_by_config_and_kind() {
        let d = tree(&[
            ("Makefile", "drivers-y := drivers/\ncore-y += rust/\n"),
            ("rust/Makefile", "obj-y += compiler_builtins.o\n"),
            ("rust/compiler_builtins.rs", ""),
            (
                "drivers/Makefile",
                "obj-$(CONFIG_A) += a.o \\\n\tc.o # c.o is C\nobj-$(CONFIG_B) += b.o\nobj-$(CONFIG_N) += n.o\nobj-$(CONFIG_SUB) += sub/\n",
            ),
            ("drivers/a.rs", ""),
            ("drivers/b.rs", ""),
            ("drivers/c.c", ""),
            ("drivers/n.rs", ""),
            ("drivers/sub/Kbuild", "obj-y += s.o\n"),
            ("drivers/sub/s.rs", ""),
        ]);
        let c = cfg("CONFIG_A=y\nCONFIG_B=m\n# CONFIG_N is not set\nCONFIG_SUB=m\n");
        let (drivers, skipped) = scan(d.path(), &c, &["rust/"]).unwrap();
        let got: Vec<(&str, ObjKind, Option<&str>)> = drivers
            .iter()
            .map(|d| (d.obj.as_str(), d.kind, d.symbol.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("drivers/a.o", ObjKind::Kernel, Some("A")),
                ("drivers/b.o", ObjKind::Module, Some("B")),
                ("drivers/sub/s.o", ObjKind::Module, None),
            ]
        );
        assert_eq!(drivers[0].listed_at, "drivers/Makefile:1");
        assert_eq!(drivers[1].modfile, "drivers/b");
        assert_eq!(drivers[1].composite, None);
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].obj, "drivers/n.o");
    }

    #[test]
    fn a_typo_is_reported_with_its_line() {
        let d = tree(&[
            ("Makefile", "obj-y += drivers/\n"),
            ("drivers/Makefile", "\nobj-$(CONFIG_A += a.o\n"),
        ]);
        let e = scan(d.path(), &cfg("CONFIG_A=y\n"), &[]).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("drivers/Makefile:2"), "{msg}");
        assert!(msg.contains("fix:"), "{msg}");
    }

    #[test]
    fn subdir_lists_and_mixed_lines_are_followed() {
        let w = walk_ok(
            &[
                ("Makefile", "obj-y += d/\n"),
                (
                    "d/Makefile",
                    "obj-y += a.o b/ # both\n\
                     subdir-y += s\n\
                     subdir-$(CONFIG_T) += t/\n\
                     subdir-$(CONFIG_OFF) += off\n\
                     obj-$(CONFIG_M) += m/\n",
                ),
                ("d/a.rs", ""),
                ("d/b/Makefile", "obj-y += b.o\n"),
                ("d/b/b.rs", ""),
                ("d/s/Kbuild", "obj-m += s.o\n"),
                ("d/s/s.rs", ""),
                ("d/t/Makefile", "obj-$(CONFIG_T) += t.o\n"),
                ("d/t/t.rs", ""),
                // Not walked: no makefile needed.
                ("d/off/off.rs", ""),
                ("d/m/Makefile", "obj-y += in_module.o\n"),
                ("d/m/in_module.rs", ""),
            ],
            "CONFIG_T=y\nCONFIG_M=m\n",
        );
        let got: Vec<(&str, ObjKind)> =
            w.drivers.iter().map(|d| (d.obj.as_str(), d.kind)).collect();
        assert_eq!(
            got,
            [
                ("d/a.o", ObjKind::Kernel),
                ("d/b/b.o", ObjKind::Kernel),
                ("d/m/in_module.o", ObjKind::Module),
                ("d/s/s.o", ObjKind::Module),
                ("d/t/t.o", ObjKind::Kernel),
            ]
        );
    }

    #[test]
    fn unreadable_lines_are_errors_with_their_line() {
        let cases: &[(&str, &str)] = &[
            (
                "obj-y += a.o\nobj-y + b.o\n",
                "d/Makefile:2: cannot read `obj-y + b.o`",
            ),
            (
                "obj-y += a.o\n\ndefine x\nobj-y += b.o\n",
                "d/Makefile:3: cannot read `define x`",
            ),
            (
                "ifdef CONFIG_A\nobj-y += a.o\n",
                "d/Makefile:1: cannot read `ifdef CONFIG_A`",
            ),
            ("obj-y += a.o\nendif\n", "d/Makefile:2: cannot read `endif`"),
            (
                "include $(src)/missing.mk\n",
                "d/Makefile:1: cannot read `include $(src)/missing.mk`",
            ),
            (
                "obj-y += gone/\n",
                "d/Makefile:1: cannot read `obj-y += gone/`",
            ),
            ("ifeq (a\nendif\n", "d/Makefile:1: cannot read `ifeq (a`"),
            (
                "-include $(src)/$(PLATFORM).mk\n",
                "d/Makefile:1: cannot read `-include $(src)/$(PLATFORM).mk`: cannot tell which file `d/*.mk` is",
            ),
        ];
        for (text, want) in cases {
            let msg = walk_err(
                &[
                    ("Makefile", "obj-y += d/\n"),
                    ("d/Makefile", text),
                    ("d/x86.mk", ""),
                ],
                "",
            );
            assert!(msg.starts_with(want), "{text:?}:\n{msg}");
            assert!(msg.contains("\n  fix: "), "{msg}");
        }
    }

    #[test]
    fn conditionals_follow_the_configuration_or_read_both_ways() {
        let files = [
            ("Makefile", "obj-y += d/\n"),
            (
                "d/Makefile",
                // drivers/net/phy/Makefile
                "ifdef CONFIG_AX_RUST\n  obj-$(CONFIG_AX) += ax_rust.o\nelse\n  obj-$(CONFIG_AX) += ax.o\nendif\n\
                 ifeq ($(ARCH),x86)\nobj-y += x.o\nelse ifeq ($(CONFIG_AX),y)\nobj-y += y.o\nelse\nobj-y += z.o\nendif\n\
                 ifneq ($(CONFIG_AX),)\nkasan-objs := k_c.o\n\tkasan-objs += k_rust.o\nendif\nobj-y += kasan.o\n",
            ),
            ("d/ax_rust.rs", ""),
            ("d/ax.c", ""),
            ("d/x.rs", ""),
            ("d/y.rs", ""),
            ("d/z.rs", ""),
            ("d/k_c.c", ""),
            ("d/k_rust.rs", ""),
        ];
        let w = walk_ok(&files, "CONFIG_AX_RUST=y\nCONFIG_AX=y\n");
        // `$(ARCH)` is unknown: that branch and the next may be taken; `z` may not.
        assert_eq!(objs(&w), ["d/ax_rust.o", "d/k_rust.o", "d/x.o", "d/y.o"]);
        let w = walk_ok(&files, "CONFIG_AX=m\n");
        assert_eq!(objs(&w), ["d/k_rust.o", "d/x.o", "d/z.o"]);
        let w = walk_ok(&files, "");
        assert_eq!(objs(&w), ["d/x.o", "d/z.o"]);
    }

    #[test]
    fn variables_functions_and_includes_are_expanded() {
        let w = walk_ok(
            &[
                ("Makefile", "obj-y += d/\n"),
                (
                    "d/Makefile",
                    "base := one two\n\
                     obj-$(CONFIG_A) += $(addsuffix .o,$(base)) $(patsubst %.c,%.o,three.c)\n\
                     pick = $(1).o\n\
                     obj-y += $(call pick,four)\n\
                     late = seven.o\n\
                     obj-y += $(late)\n\
                     late = eight.o\n\
                     include $(src)/Makefile.more\n\
                     $(obj)/gen.o: $(src)/gen.c\n\
                     \tobj-y += recipe.o\n\
                     \n\
                     \tobj-y += five.o\n",
                ),
                ("d/Makefile.more", "more = six.o\nobj-y += $(more)\n"),
                ("d/one.rs", ""),
                ("d/two.rs", ""),
                ("d/three.rs", ""),
                ("d/four.rs", ""),
                ("d/five.rs", ""),
                ("d/six.rs", ""),
                ("d/seven.rs", ""),
                ("d/eight.rs", ""),
                ("d/recipe.rs", ""),
            ],
            "CONFIG_A=y\n",
        );
        // Kbuild's `obj-y` is `:=`: `$(late)` is expanded where it is added, as make does. The
        // recipe lines are not read, even after a blank line.
        assert_eq!(
            objs(&w),
            [
                "d/four.o",
                "d/one.o",
                "d/seven.o",
                "d/six.o",
                "d/three.o",
                "d/two.o"
            ]
        );
        assert_eq!(w.makefiles, ["Makefile", "d/Makefile", "d/Makefile.more"]);
    }
}
