//! Drivers from Kbuild makefiles: `obj-$(CONFIG_FOO) += foo.o` with `foo.rs` beside it is a
//! Rust driver crate, built in when `CONFIG_FOO=y`, a module when `m`, skipped when unset.
//! A composite object (`obj-m += foo.o` with `foo-y := foo_main.o foo_events.o`) that has a
//! Rust part is reported with all its parts, in link order; each Rust part is a crate of its
//! own whose module file (`RUST_MODFILE`) is the composite's. Folders (`obj-y += bar/`,
//! `subdir-y += bar`) are followed the same way, from the top-level `Makefile` and `Kbuild`
//! (`obj-`, `core-`, `drivers-`, `libs-` and `virt-` lists there, as the top Makefile uses).
//!
//! This reads make's assignment language, not all of make: variables set in a makefile (and the
//! files it includes) are expanded with the usual functions, and conditionals follow the
//! configuration (`ifdef CONFIG_X`, `ifeq ($(CONFIG_X),y)`); a condition on something set outside
//! the makefile (`ifeq ($(ARCH),x86)`) reads both branches. Macros (`define`) are not run. What
//! it cannot expand (a variable set outside the makefile, `$(shell …)`, a macro's arguments) is
//! checked instead: if it could stand for a Rust source that no list names, the walk stops with
//! an error naming the line. A Rust driver is never dropped silently.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::flags::ObjKind;
use crate::kconfig::{DotConfig, Tristate, Value};

/// Stands for text the walker cannot know; an item holding it is matched against the Rust
/// sources it could name (see [`KbuildError::Hidden`]).
const ANY: char = '\u{1}';

/// A Rust crate to compile, found in a Kbuild makefile: a single-file driver (`foo.o` from
/// `foo.rs`) or the Rust part of a composite object.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DriverObj {
    /// The object, relative to the trees (`drivers/misc/rust_hello.o`); for a part, the part's
    /// object (`samples/rust/rust_print_main.o`).
    pub obj: String,
    /// The crate root, relative to the source tree (`drivers/misc/rust_hello.rs`).
    pub src: String,
    /// Built in or module: from the `obj-` list of the object (of the composite, for a part).
    pub kind: ObjKind,
    /// The symbol that enables it (`MINI_HELLO`; the composite's for a part), `None` for `obj-y`.
    pub symbol: Option<String>,
    /// Where it is listed (`drivers/misc/Makefile:2`; a part: the `foo-y` line naming it).
    pub listed_at: String,
    /// Kbuild's `modfile`, given to rustc as `RUST_MODFILE`: the module's path without `.o` —
    /// the object's own for a single-file driver, the composite's for a part
    /// (`samples/rust/rust_print`).
    pub modfile: String,
    /// For a part: the composite object it is linked into (`samples/rust/rust_print.o`).
    pub composite: Option<String>,
}

/// What a part of a composite object is compiled from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PartLang {
    /// `part.rs`: a crate root (also listed in [`Walk::drivers`]).
    Rust,
    /// `part.c`.
    C,
    /// `part.S`.
    Asm,
    /// No source beside it: made by a rule of the makefile (or generated in the object tree).
    Other,
}

/// One part of a composite object.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Part {
    /// `samples/rust/rust_print_events.o`.
    pub obj: String,
    /// `samples/rust/rust_print_events.c`; `None` for [`PartLang::Other`].
    pub src: Option<String>,
    pub lang: PartLang,
    /// The part's own gate (`drm-$(CONFIG_DRM_PANIC_SCREEN_QR_CODE) += drm_panic_qr.o`).
    pub symbol: Option<String>,
    /// The `foo-y` line naming it.
    pub listed_at: String,
}

/// A composite object (`foo.o` made of `$(foo-objs) $(foo-y)`, plus `$(foo-m)` for a module)
/// with at least one Rust part.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Composite {
    /// `samples/rust/rust_print.o`.
    pub obj: String,
    pub kind: ObjKind,
    pub symbol: Option<String>,
    /// Where `foo.o` is listed.
    pub listed_at: String,
    /// The module file of every part (`samples/rust/rust_print`).
    pub modfile: String,
    /// The enabled parts, in link order.
    pub parts: Vec<Part>,
}

/// A Rust driver that the configuration leaves out.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    pub obj: String,
    pub symbol: String,
    pub listed_at: String,
}

/// Everything a walk of the makefiles found.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Walk {
    /// Every Rust crate to compile, sorted by object: single-file drivers and the Rust parts of
    /// composites.
    pub drivers: Vec<DriverObj>,
    /// Composite objects with a Rust part, sorted by object.
    pub composites: Vec<Composite>,
    pub skipped: Vec<Skipped>,
    /// Every makefile read (included ones too), relative to the source tree, in reading order.
    pub makefiles: Vec<String>,
}

const FIX_LIST: &str = "write it as `obj-$(CONFIG_FOO) += foo.o` (or `obj-y`/`obj-m`)";

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KbuildError {
    /// A line make itself would reject, or a file or folder that is not there.
    #[error("{at}: cannot read `{line}`: {why}\n  fix: {fix}")]
    Syntax {
        at: String,
        line: String,
        why: String,
        fix: String,
    },
    /// Text the walker cannot expand (or a macro) that could name a Rust source no list names.
    #[error("{at}: cannot read `{line}`: `{item}` could name `{rust}`, which no list names ({why})\n  fix: list Rust objects by name (`obj-$(CONFIG_FOO) += foo.o`, `foo-y += foo_main.o`)")]
    Hidden {
        at: String,
        line: String,
        /// The item, `*` for what cannot be expanded.
        item: String,
        rust: String,
        why: String,
    },
    #[error("{path}: cannot read it: {why}\n  fix: check the file")]
    Io { path: String, why: String },
}

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
    let mut w = Walker {
        srctree,
        cfg,
        exclude,
        out: Walk::default(),
        checks: vec![],
        claimed: HashSet::new(),
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
        let mut subs = w.collect(&scope, f.kind);
        subs.reverse();
        queue.extend(subs);
    }
    w.check_hidden()?;
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
    Ok(out)
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

/// Text the walker could not fully expand, or a macro's items: checked once every list is read.
struct Check {
    dir: String,
    at: String,
    line: String,
    item: String,
}

struct Walker<'a> {
    srctree: &'a Path,
    cfg: &'a DotConfig,
    exclude: &'a [&'a str],
    out: Walk,
    checks: Vec<Check>,
    /// Rust sources some list names (built or skipped).
    claimed: HashSet<String>,
}

/// Whether a conditional's branch is taken: `Maybe` when the condition uses what the walker
/// cannot know (then both branches are read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tri {
    Yes,
    No,
    Maybe,
}

/// An open `ifeq`/`ifdef`.
struct Cond {
    loc: Loc,
    /// The branch being read.
    now: Tri,
    /// An earlier branch was surely taken.
    taken: bool,
    /// An earlier branch may have been taken.
    maybe: bool,
    /// The enclosing branch is read.
    outer: bool,
}

/// One makefile line: where it is, and its text for messages.
#[derive(Clone)]
struct Loc {
    at: String,
    line: String,
}

impl<'a> Walker<'a> {
    fn is_file(&self, rel: &str) -> bool {
        self.srctree.join(rel).is_file()
    }

    fn read_folder(&mut self, f: &Folder) -> Result<Scope<'a>, KbuildError> {
        let mut scope = Scope::new(self.cfg, &f.dir);
        if f.dir.is_empty() {
            // The top Makefile drives the build: only its lists matter. Its includes are the
            // build machinery and `arch/$(SRCARCH)/Makefile`, whose folders the top Kbuild's
            // `arch/$(SRCARCH)/` stands for (and is checked as), so they are not read. The
            // Makefile goes first: it sets the `ARCH_*` lists the Kbuild uses.
            for (name, includes) in [("Makefile", false), ("Kbuild", true)] {
                if self.is_file(name) {
                    self.read_file(&mut scope, name, includes, 0)?;
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
            self.read_file(&mut scope, &file, true, 0)?;
        }
        Ok(scope)
    }

    /// Reads one makefile into `scope`: its assignments, and the files it includes.
    fn read_file(
        &mut self,
        scope: &mut Scope,
        rel: &str,
        includes: bool,
        depth: usize,
    ) -> Result<(), KbuildError> {
        let bytes = std::fs::read(self.srctree.join(rel)).map_err(|e| KbuildError::Io {
            path: rel.to_string(),
            why: e.to_string(),
        })?;
        self.out.makefiles.push(rel.to_string());
        // A stray Latin-1 byte in a comment must not stop the walk.
        let text = String::from_utf8_lossy(&bytes);
        let lines = logical_lines(&text);
        let mut conds: Vec<Cond> = vec![];
        let mut in_rule = false;
        let mut i = 0;
        while i < lines.len() {
            let (lineno, raw) = &lines[i];
            i += 1;
            let loc = Loc {
                at: format!("{rel}:{lineno}"),
                line: raw.trim().to_string(),
            };
            let syntax = |why: &str| KbuildError::Syntax {
                at: loc.at.clone(),
                line: loc.line.clone(),
                why: why.to_string(),
                fix: FIX_LIST.to_string(),
            };
            let line = strip_comment(raw);
            let t = line.trim();
            if t.is_empty() || (in_rule && raw.starts_with('\t')) {
                continue;
            }
            let active = conds.iter().all(|c| c.now != Tri::No);
            let (word, rest) = first_word(t);
            // Conditional directives are read even in a branch not taken, to find its end.
            if is_cond(word) {
                let now = if active {
                    scope.condition(word, rest).map_err(|why| syntax(&why))?
                } else {
                    Tri::No
                };
                conds.push(Cond {
                    loc: loc.clone(),
                    now,
                    taken: now == Tri::Yes,
                    maybe: now == Tri::Maybe,
                    outer: active,
                });
                continue;
            }
            if word == "else" {
                let Some(c) = conds.last_mut() else {
                    return Err(syntax("`else` without `ifeq`/`ifdef`"));
                };
                let (w2, rest2) = first_word(rest);
                let now = if !c.outer || c.taken {
                    Tri::No
                } else if w2.is_empty() {
                    Tri::Yes
                } else if is_cond(w2) {
                    scope.condition(w2, rest2).map_err(|why| syntax(&why))?
                } else {
                    return Err(syntax("`else` takes only a conditional after it"));
                };
                // After a branch that may have been taken, this one only may be; after a
                // condition surely true, none is.
                c.now = match now {
                    Tri::Yes if c.maybe => Tri::Maybe,
                    n => n,
                };
                c.taken |= now == Tri::Yes;
                c.maybe |= c.now == Tri::Maybe;
                continue;
            }
            if word == "endif" {
                if conds.pop().is_none() {
                    return Err(syntax("`endif` without `ifeq`/`ifdef`"));
                }
                continue;
            }
            let define_head = match word {
                "define" => Some(rest),
                "export" | "override" | "private" if first_word(rest).0 == "define" => {
                    Some(first_word(rest).1)
                }
                _ => None,
            };
            if let Some(head) = define_head {
                let end = endef(&lines, i).ok_or_else(|| KbuildError::Syntax {
                    at: loc.at.clone(),
                    line: loc.line.clone(),
                    why: format!("no `endef` before the end of {rel}"),
                    fix: "close the macro with `endef`".into(),
                })?;
                if active {
                    self.define(scope, rel, &lines[i..end], head, &loc);
                    in_rule = false;
                }
                i = end + 1;
                continue;
            }
            // make reads nothing else in a branch not taken.
            if !active {
                continue;
            }
            // Under a condition that cannot be evaluated both branches are read.
            let both = conds.iter().any(|c| c.now == Tri::Maybe);
            let mut body = t;
            // Any line but a conditional or a recipe ends a rule's recipe.
            in_rule = false;
            match word {
                "endef" => return Err(syntax("`endef` without `define`")),
                "include" | "-include" | "sinclude" => {
                    if includes {
                        self.include(scope, rest, word != "include", &loc, depth)?;
                    } else if scope.expand(rest).contains("arch/") {
                        // The top Makefile's `include arch/$(SRCARCH)/Makefile`, not read: what
                        // it adds to the lists are folders of its own (`core-y += arch/x86/`).
                        for list in ["core-y", "drivers-y", "drivers-m", "libs-y", "libs-m"] {
                            let text = format!("arch/{ANY}/");
                            scope.assign(list, Op::Append, &text, true, &loc, &mut self.checks);
                        }
                    }
                    continue;
                }
                "export" | "unexport" | "override" | "private" => match split_line(rest) {
                    Ok(Split::Assign { .. }) => body = rest,
                    // `export FOO BAR`: no assignment.
                    _ => continue,
                },
                "undefine" => {
                    if !both {
                        scope.vars.remove(scope.expand(rest).trim());
                    }
                    continue;
                }
                "vpath" => continue,
                _ => {}
            }
            match split_line(body).map_err(|why| syntax(&why))? {
                Split::Assign { lhs, op, rhs } => {
                    scope.assign(lhs, op, rhs, both, &loc, &mut self.checks);
                }
                Split::Rule => in_rule = true,
                Split::TargetVar => {}
                Split::Other if body.starts_with("$(") || body.starts_with("${") => {
                    // `$(eval $(call macro,…))`, `$(foreach …)`: macros are not run (see
                    // `define`); whatever they would list is checked.
                    let text = scope.macro_text(body);
                    scope.check_items(&text, &loc, &mut self.checks);
                }
                Split::Other => {
                    return Err(syntax(
                        "it is not an assignment, a rule or a directive (make: missing separator)",
                    ))
                }
            }
        }
        if let Some(open) = conds.pop() {
            return Err(KbuildError::Syntax {
                at: open.loc.at,
                line: open.loc.line,
                why: format!("no `endif` before the end of {rel}"),
                fix: "close the conditional with `endif`".into(),
            });
        }
        Ok(())
    }

    /// A `define` body (`lines`, the name unexpanded in `head`).
    ///
    /// A macro is text until `$(eval $(call …))` runs it, which this reader does not do (nor
    /// need to: Rust objects are listed by name). So that nothing is lost if one ever lists a
    /// Rust object, the items its list assignments name are checked like any text that cannot
    /// be expanded (its `$(1)`… arguments are unknown). The body is kept as a variable, so
    /// `$(call …)` in a checked line expands it.
    fn define(
        &mut self,
        scope: &mut Scope,
        rel: &str,
        lines: &[(usize, String)],
        head: &str,
        loc: &Loc,
    ) {
        for (lineno, raw) in lines {
            if let Ok(Split::Assign { lhs, rhs, .. }) = split_line(strip_comment(raw).trim()) {
                if looks_like_list(lhs) {
                    let body_loc = Loc {
                        at: format!("{rel}:{lineno}"),
                        line: raw.trim().to_string(),
                    };
                    let text = scope.expand(rhs);
                    scope.check_items(&text, &body_loc, &mut self.checks);
                }
            }
        }
        let name = head.trim().trim_end_matches(['=', ':', '+', '?', '!']);
        let name = scope.expand(name).trim().to_string();
        let body: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
        scope.set(&name, body.join("\n"), false, loc);
    }

    fn include(
        &mut self,
        scope: &mut Scope,
        rest: &str,
        optional: bool,
        loc: &Loc,
        depth: usize,
    ) -> Result<(), KbuildError> {
        let err = |why: String, fix: &str| KbuildError::Syntax {
            at: loc.at.clone(),
            line: loc.line.clone(),
            why,
            fix: fix.to_string(),
        };
        if depth > 16 {
            return Err(err(
                "includes nest more than 16 deep".into(),
                "an included makefile includes itself; break the loop",
            ));
        }
        for file in scope.expand(rest).split_whitespace() {
            if file.contains(ANY) {
                // `-include` of what cannot be expanded is skipped only when no file of the
                // source tree could be it.
                if optional && self.first_file_like(&normalize(file)).is_none() {
                    continue;
                }
                return Err(err(
                    format!("cannot tell which file `{}` is", show(file)),
                    "include makefiles by a path under `$(srctree)` or `$(src)`",
                ));
            }
            let rel = normalize(file);
            if file.starts_with('/') || rel.starts_with("../") || !self.is_file(&rel) {
                if optional {
                    continue;
                }
                return Err(err(
                    format!("`{file}` is not a file of the source tree"),
                    "include makefiles by a path under `$(srctree)` or `$(src)`",
                ));
            }
            self.read_file(scope, &rel, true, depth + 1)?;
        }
        Ok(())
    }

    /// The first file of the source tree matching `pattern` (see [`glob`]).
    fn first_file_like(&self, pattern: &str) -> Option<String> {
        let fixed = &pattern[..pattern.find(ANY).unwrap_or(pattern.len())];
        let base = &fixed[..fixed.rfind('/').map_or(0, |p| p + 1)];
        let mut todo = vec![base.to_string()];
        while let Some(dir) = todo.pop() {
            let Ok(entries) = std::fs::read_dir(self.srctree.join(&dir)) else {
                continue;
            };
            for e in entries.flatten() {
                let path = format!("{dir}{}", e.file_name().to_string_lossy());
                match e.file_type() {
                    Ok(t) if t.is_dir() => todo.push(format!("{path}/")),
                    Ok(t) if t.is_file() && glob(pattern, &path) => return Some(path),
                    _ => {}
                }
            }
        }
        None
    }

    /// Turns a folder's lists into drivers, composites and skipped drivers; returns the folders
    /// it lists.
    fn collect(&mut self, scope: &Scope, parent_kind: ObjKind) -> Vec<Folder> {
        let dir = scope.dir.clone();
        let top = dir.is_empty();
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
                for it in scope.items(&format!("{list}-{suffix}")) {
                    if it.word.contains(ANY) {
                        self.check(&dir, &it);
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
            for it in scope.items(&format!("lib-{suffix}")) {
                if it.word.contains(ANY) {
                    self.check(&dir, &it);
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
            for it in scope.items(&format!("subdir-{suffix}")) {
                if it.word.contains(ANY) {
                    self.check(&dir, &it);
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
            self.object(scope, &o.stem, kind, &o.it);
        }
        folders
    }

    /// One object of an `obj-` list: a single-file driver, a composite, or neither.
    fn object(&mut self, scope: &Scope, stem: &str, kind: Option<ObjKind>, it: &Item) {
        let dir = &scope.dir;
        let obj = format!("{dir}{stem}.o");
        let modfile = format!("{dir}{stem}");
        // Kbuild's `multi-search`: `$(foo-objs)`, `$(foo-y)`, `$(foo-m)` or `$(foo-)` non-empty.
        let suffixes = ["objs", "y", "m", ""];
        let lists: Vec<(&str, Vec<Item>)> = suffixes
            .iter()
            .map(|s| (*s, scope.items(&format!("{stem}-{s}"))))
            .collect();
        let composite = lists.iter().any(|(_, items)| !items.is_empty());
        let symbol = it.symbol.clone();
        if !composite {
            let src = format!("{dir}{stem}.rs");
            if !self.is_file(&src) {
                return;
            }
            self.claimed.insert(src.clone());
            match kind {
                Some(kind) => self.out.drivers.push(DriverObj {
                    obj,
                    src,
                    kind,
                    symbol,
                    listed_at: it.loc.at.clone(),
                    modfile,
                    composite: None,
                }),
                None => self.out.skipped.push(Skipped {
                    obj,
                    symbol: symbol.unwrap_or_default(),
                    listed_at: it.loc.at.clone(),
                }),
            }
            return;
        }
        // The parts Kbuild links: `-objs -y` built in, `-objs -y -m` in a module.
        let mut parts: Vec<Part> = vec![];
        let mut off: Vec<Part> = vec![];
        for (suffix, items) in &lists {
            let on = kind.is_some()
                && (matches!(*suffix, "objs" | "y")
                    || (*suffix == "m" && kind == Some(ObjKind::Module)));
            for p in items {
                if p.word.contains(ANY) {
                    self.check(dir, p);
                    continue;
                }
                let Some(pstem) = p.word.strip_suffix(".o") else {
                    continue;
                };
                let part = self.part(dir, pstem, p);
                let list = if on { &mut parts } else { &mut off };
                if !list.iter().any(|q| q.obj == part.obj) {
                    list.push(part);
                }
            }
        }
        off.retain(|p| !parts.iter().any(|q| q.obj == p.obj));
        let rust = |p: &Part| p.lang == PartLang::Rust;
        for p in off.iter().filter(|p| rust(p)) {
            self.claimed.extend(p.src.clone());
            // A part left out by its own gate, or the whole object left out by its gate.
            let (obj, symbol, at) = match kind {
                Some(_) => (p.obj.clone(), p.symbol.clone(), p.listed_at.clone()),
                None => (obj.clone(), symbol.clone(), it.loc.at.clone()),
            };
            self.out.skipped.push(Skipped {
                obj,
                symbol: symbol.unwrap_or_default(),
                listed_at: at,
            });
        }
        let Some(kind) = kind else { return };
        if !parts.iter().any(rust) {
            return;
        }
        for p in parts.iter().filter(|p| rust(p)) {
            let src = p.src.clone().unwrap_or_default();
            self.claimed.insert(src.clone());
            self.out.drivers.push(DriverObj {
                obj: p.obj.clone(),
                src,
                kind,
                symbol: symbol.clone(),
                listed_at: p.listed_at.clone(),
                modfile: modfile.clone(),
                composite: Some(obj.clone()),
            });
        }
        self.out.composites.push(Composite {
            obj,
            kind,
            symbol,
            listed_at: it.loc.at.clone(),
            modfile,
            parts,
        });
    }

    fn part(&self, dir: &str, pstem: &str, p: &Item) -> Part {
        let base = format!("{dir}{}", normalize(pstem));
        let (lang, src) = [
            ("rs", PartLang::Rust),
            ("c", PartLang::C),
            ("S", PartLang::Asm),
        ]
        .into_iter()
        .map(|(ext, lang)| (lang, format!("{base}.{ext}")))
        .find(|(_, src)| self.is_file(src))
        .map_or((PartLang::Other, None), |(lang, src)| (lang, Some(src)));
        Part {
            obj: format!("{base}.o"),
            src,
            lang,
            symbol: p.symbol.clone(),
            listed_at: p.loc.at.clone(),
        }
    }

    fn check(&mut self, dir: &str, it: &Item) {
        self.checks.push(Check {
            dir: dir.to_string(),
            at: it.loc.at.clone(),
            line: it.loc.line.clone(),
            item: it.word.clone(),
        });
    }

    /// Fails on the first checked item that could name a Rust source no list names.
    fn check_hidden(&self) -> Result<(), KbuildError> {
        if self.checks.is_empty() {
            return Ok(());
        }
        let mut sources = vec![];
        rust_sources(self.srctree, "", self.exclude, &mut sources);
        let free: Vec<&String> = sources
            .iter()
            .filter(|s| !self.claimed.contains(*s))
            .collect();
        for c in &self.checks {
            let Some(pattern) = rust_pattern(&c.dir, &c.item) else {
                continue;
            };
            if let Some(rust) = free.iter().find(|s| glob(&pattern, s)) {
                let why = if c.item.contains(ANY) {
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

/// An object listed in a folder's `obj-` (or top-level) lists.
struct Listed {
    /// Relative to the folder, without `.o`.
    stem: String,
    /// `None`: in `obj-` (its symbol is off).
    kind: Option<ObjKind>,
    it: Item,
}

/// One word of a list, with the gate and line of the assignment that added it.
#[derive(Clone)]
struct Item {
    word: String,
    symbol: Option<String>,
    loc: Loc,
}

/// Every `.rs` file under `rel`, except in the excluded folders and hidden ones.
fn rust_sources(srctree: &Path, rel: &str, exclude: &[&str], out: &mut Vec<String>) {
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
                    rust_sources(srctree, &sub, exclude, out);
                }
            }
            Ok(t) if t.is_file() && name.ends_with(".rs") => out.push(path),
            _ => {}
        }
    }
}

/// The Rust sources an item could name, as a pattern (`ANY` matches anything, `/` too); `None`
/// when it cannot name one (`foo.a`, `-DFOO`).
fn rust_pattern(dir: &str, item: &str) -> Option<String> {
    let item = item.strip_prefix("./").unwrap_or(item);
    let p = if let Some(stem) = item.strip_suffix(".o") {
        format!("{stem}.rs")
    } else if item.ends_with('/')
        || item.ends_with(ANY)
        || (item.contains(ANY) && !item.contains('.'))
    {
        format!("{item}{ANY}.rs")
    } else {
        return None;
    };
    Some(normalize(&format!("{dir}{p}")))
}

/// Whether `text` matches `pattern`, where `ANY` matches any run of characters.
fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut back: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == ANY {
            back = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((bp, bt)) = back {
            pi = bp + 1;
            ti = bt + 1;
            back = Some((bp, bt + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == ANY)
}

/// An item for messages: the unknown part as `*`.
fn show(s: &str) -> String {
    s.replace(ANY, "*")
}

/// `a/./b/../c` → `a/c`; a leading `../` stays.
fn normalize(p: &str) -> String {
    let mut out: Vec<&str> = vec![];
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." if out.last().is_some_and(|l| *l != "..") => {
                out.pop();
            }
            _ => out.push(part),
        }
    }
    out.join("/")
}

/// The index of the `endef` closing a `define` whose body starts at `start`.
fn endef(lines: &[(usize, String)], start: usize) -> Option<usize> {
    let mut nest = 0;
    for (i, (_, raw)) in lines.iter().enumerate().skip(start) {
        let (w, rest) = first_word(raw.trim());
        let w = if matches!(w, "export" | "override" | "private") {
            first_word(rest).0
        } else {
            w
        };
        match w {
            "define" => nest += 1,
            "endef" if nest == 0 => return Some(i),
            "endef" => nest -= 1,
            _ => {}
        }
    }
    None
}

/// Whether an assignment's name (unexpanded) looks like a Kbuild list: `obj-…`, `foo-y`,
/// `foo-$(CONFIG_X)`, `foo-objs`.
fn looks_like_list(lhs: &str) -> bool {
    !lhs.contains(char::is_whitespace) && lhs.contains('-')
}

/// The two sides of `ifeq (a,b)`, `ifeq "a" "b"` or `ifeq 'a' 'b'`.
fn eq_args(args: &str) -> Option<(&str, &str)> {
    if args.starts_with('(') {
        let end = matching(args, '(', ')')?;
        if !args[end + 1..].trim().is_empty() {
            return None;
        }
        let inner = &args[1..end];
        let parts = split_args(inner, 2);
        return match parts[..] {
            [a, b] => Some((a.trim(), b.trim())),
            _ => None,
        };
    }
    let quoted = |s: &str| -> Option<(usize, usize)> {
        let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let end = s[1..].find(q)? + 1;
        Some((1, end))
    };
    let (s1, e1) = quoted(args)?;
    let rest = args[e1 + 1..].trim_start();
    let (s2, e2) = quoted(rest)?;
    if !rest[e2 + 1..].trim().is_empty() {
        return None;
    }
    Some((&args[s1..e1], &rest[s2..e2]))
}

/// `obj-y`, `foo-m`, `foo-objs`, `foo-` (a gate that is off): Kbuild's list names.
fn is_list_name(name: &str) -> bool {
    ["-y", "-m", "-n", "-", "-objs"]
        .iter()
        .any(|s| name.ends_with(s))
}

fn is_cond(w: &str) -> bool {
    ["ifeq", "ifneq", "ifdef", "ifndef"]
        .iter()
        .any(|c| w == *c || (w.starts_with(c) && w[c.len()..].starts_with('(')))
}

fn first_word(t: &str) -> (&str, &str) {
    match t.find(char::is_whitespace) {
        Some(p) => (&t[..p], t[p..].trim_start()),
        None => (t, ""),
    }
}

/// Logical lines (continuations joined, the way make joins them), with their first line number.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut start = 0;
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if cur.is_empty() {
            start = i + 1;
        }
        let trailing = raw.len() - raw.trim_end_matches('\\').len();
        if trailing % 2 == 1 {
            let body = &raw[..raw.len() - 1];
            // make drops the whitespace around a backslash-newline and puts one space.
            let body = if cur.is_empty() {
                body
            } else {
                body.trim_start()
            };
            cur.push_str(body.trim_end());
            cur.push(' ');
            continue;
        }
        cur.push_str(if cur.is_empty() {
            raw
        } else {
            raw.trim_start()
        });
        out.push((start, std::mem::take(&mut cur)));
    }
    if !cur.is_empty() {
        out.push((start, cur));
    }
    out
}

/// A line without its comment (`#`, unless escaped as `\#`).
fn strip_comment(line: &str) -> &str {
    let b = line.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'#' && (i == 0 || b[i - 1] != b'\\') {
            return &line[..i];
        }
    }
    line
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// `=`
    Recursive,
    /// `:=`, `::=`, `:::=`
    Simple,
    /// `+=`
    Append,
    /// `?=`
    IfUnset,
    /// `!=`
    Shell,
}

#[derive(Debug, PartialEq, Eq)]
enum Split<'a> {
    Assign {
        lhs: &'a str,
        op: Op,
        rhs: &'a str,
    },
    /// `target: prerequisites`: tab lines after it are its recipe.
    Rule,
    /// `target: VAR = value`
    TargetVar,
    Other,
}

/// Classifies a line by the first `=`-operator or `:` outside `$(…)`.
fn split_line(line: &str) -> Result<Split<'_>, String> {
    let b = line.as_bytes();
    let mut stack: Vec<u8> = vec![];
    let mut i = 0;
    let mut colon: Option<usize> = None;
    while i < b.len() {
        let c = b[i];
        if !stack.is_empty() {
            match c {
                b'(' | b'{' => stack.push(if c == b'(' { b')' } else { b'}' }),
                b')' | b'}' if stack.last() == Some(&c) => {
                    stack.pop();
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        let next = b.get(i + 1).copied();
        match c {
            b'$' if matches!(next, Some(b'(' | b'{')) => {
                stack.push(if next == Some(b'(') { b')' } else { b'}' });
                i += 2;
                continue;
            }
            b'$' if next == Some(b'$') => {
                i += 2;
                continue;
            }
            _ => {}
        }
        let op = match (c, next) {
            (b'=', _) => Some((Op::Recursive, 1)),
            (b'+' | b'?' | b'!', Some(b'=')) => Some((
                match c {
                    b'+' => Op::Append,
                    b'?' => Op::IfUnset,
                    _ => Op::Shell,
                },
                2,
            )),
            (b':', _) => {
                let colons = b[i..].iter().take_while(|&&x| x == b':').count();
                if colons <= 3 && b.get(i + colons) == Some(&b'=') {
                    Some((Op::Simple, colons + 1))
                } else {
                    colon.get_or_insert(i);
                    i += colons;
                    continue;
                }
            }
            _ => None,
        };
        if let Some((op, len)) = op {
            if colon.is_some() {
                return Ok(Split::TargetVar);
            }
            return Ok(Split::Assign {
                lhs: line[..i].trim(),
                op,
                rhs: line[i + len..].trim(),
            });
        }
        if c == b';' && colon.is_some() {
            break;
        }
        i += 1;
    }
    if !stack.is_empty() {
        return Err("unbalanced `$(`: make stops at an unterminated variable reference".into());
    }
    Ok(if colon.is_some() {
        Split::Rule
    } else {
        Split::Other
    })
}

/// One assignment's text, kept per assignment so each item keeps its gate and line.
#[derive(Clone)]
struct Chunk {
    text: String,
    /// Already expanded (`:=`), or expanded when used (`=`).
    expanded: bool,
    /// Set under a condition that cannot be evaluated: it may not have happened.
    maybe: bool,
    symbol: Option<String>,
    loc: Loc,
}

struct Var {
    simple: bool,
    chunks: Vec<Chunk>,
}

/// The variables of one folder's makefiles, and a small expander for them.
struct Scope<'c> {
    cfg: &'c DotConfig,
    /// `drivers/misc/` (empty for the top).
    dir: String,
    vars: HashMap<String, Var>,
}

/// Expansion state: call arguments and `foreach` variables are dynamically scoped, as in make.
struct Ex {
    depth: usize,
    /// Expansions so far: a bound on pathological makefiles.
    steps: usize,
    args: Option<Vec<String>>,
    locals: Vec<(String, String)>,
    /// Collects what `$(eval …)` would read as makefile text: to check what it would list.
    evals: Option<Vec<String>>,
    /// For a condition: a value that may not have been set is not known.
    cond: bool,
}

impl Ex {
    fn new() -> Self {
        Ex {
            depth: 0,
            steps: 0,
            args: None,
            locals: vec![],
            evals: None,
            cond: false,
        }
    }
}

const FUNCTIONS: &[&str] = &[
    "subst",
    "patsubst",
    "strip",
    "findstring",
    "filter",
    "filter-out",
    "sort",
    "word",
    "wordlist",
    "words",
    "firstword",
    "lastword",
    "dir",
    "notdir",
    "suffix",
    "basename",
    "addsuffix",
    "addprefix",
    "join",
    "wildcard",
    "realpath",
    "abspath",
    "error",
    "warning",
    "info",
    "shell",
    "origin",
    "flavor",
    "foreach",
    "file",
    "call",
    "value",
    "eval",
    "if",
    "or",
    "and",
    "intcmp",
    "let",
    "guile",
];

impl<'c> Scope<'c> {
    fn new(cfg: &'c DotConfig, dir: &str) -> Self {
        let mut s = Scope {
            cfg,
            dir: dir.to_string(),
            vars: HashMap::new(),
        };
        // Kbuild's Makefile.build sets these before it includes a makefile, so `obj-y += $(x)`
        // expands `x` at once, as make does.
        let loc = Loc {
            at: "scripts/Makefile.build".into(),
            line: String::new(),
        };
        for list in ["obj-y", "obj-m", "lib-y", "lib-m", "subdir-y", "subdir-m"] {
            s.set(list, String::new(), true, &loc);
        }
        s
    }

    fn expand(&self, text: &str) -> String {
        self.ex(text, &mut Ex::new())
    }

    /// What a line of macro calls gives to make as makefile text: the `$(eval …)` texts, and
    /// the line's own value (a bare `$(call …)` line is read as makefile text too).
    fn macro_text(&self, line: &str) -> String {
        let mut ex = Ex::new();
        ex.evals = Some(vec![]);
        let own = self.ex(line, &mut ex);
        let mut texts = ex.evals.take().unwrap_or_default();
        // Messages and shell commands run for their effect: what they print is not read.
        if !["$(shell ", "$(info ", "$(warning ", "$(error "]
            .iter()
            .any(|f| line.starts_with(f))
        {
            texts.push(own);
        }
        texts.join(" ")
    }

    /// Evaluates `ifeq (a,b)`, `ifneq`, `ifdef VAR`, `ifndef` (`word` may hold `ifeq(a,b)`).
    fn condition(&self, word: &str, rest: &str) -> Result<Tri, String> {
        let k = ["ifeq", "ifneq", "ifdef", "ifndef"]
            .into_iter()
            .find(|k| word == *k || word.strip_prefix(k).is_some_and(|r| r.starts_with('(')))
            .ok_or_else(|| format!("`{word}` is not a conditional"))?;
        let args = format!("{} {rest}", &word[k.len()..]);
        let args = args.trim();
        let yes = match k {
            "ifdef" | "ifndef" => {
                let name = self.expand(args);
                self.defined(name.trim())
            }
            _ => {
                let (a, b) = eq_args(args)
                    .ok_or_else(|| format!("`{k}` takes `(a,b)`, `\"a\" \"b\"` or `'a' 'b'`"))?;
                let mut ex = Ex::new();
                ex.cond = true;
                let (a, b) = (self.ex(a, &mut ex), self.ex(b, &mut ex));
                if a.contains(ANY) || b.contains(ANY) {
                    Tri::Maybe
                } else if a.trim() == b.trim() {
                    Tri::Yes
                } else {
                    Tri::No
                }
            }
        };
        Ok(match (yes, k == "ifneq" || k == "ifndef") {
            (Tri::Yes, true) => Tri::No,
            (Tri::No, true) => Tri::Yes,
            (t, _) => t,
        })
    }

    /// `ifdef NAME`: whether the variable has a non-empty value (not expanded, as make).
    fn defined(&self, name: &str) -> Tri {
        if name.contains(ANY) {
            return Tri::Maybe;
        }
        if let Some(sym) = name.strip_prefix("CONFIG_") {
            return if self.cfg.has(sym) { Tri::Yes } else { Tri::No };
        }
        match self.vars.get(name) {
            Some(v) => {
                let set = |c: &&Chunk| !c.text.replace(ANY, "").trim().is_empty();
                if v.chunks.iter().filter(|c| !c.maybe).any(|c| set(&c)) {
                    Tri::Yes
                } else if v.chunks.iter().any(|c| c.maybe || c.text.contains(ANY)) {
                    Tri::Maybe
                } else {
                    Tri::No
                }
            }
            None if matches!(name, "obj" | "src" | "srctree" | "objtree") => Tri::Yes,
            // Set outside the makefile, or not at all.
            None => Tri::Maybe,
        }
    }

    fn set(&mut self, name: &str, text: String, simple: bool, loc: &Loc) {
        self.vars.insert(
            name.to_string(),
            Var {
                simple,
                chunks: vec![Chunk {
                    text,
                    expanded: simple,
                    maybe: false,
                    symbol: None,
                    loc: loc.clone(),
                }],
            },
        );
    }

    /// One assignment. Under a conditional (not evaluated) an assignment adds to what the other
    /// branch may have set instead of replacing it, so that both branches count.
    fn assign(
        &mut self,
        lhs: &str,
        op: Op,
        rhs: &str,
        in_cond: bool,
        loc: &Loc,
        checks: &mut Vec<Check>,
    ) {
        let name = self.expand(lhs).trim().to_string();
        let symbol = config_symbol(lhs);
        if name.contains(ANY) {
            // A list whose name cannot be known: check what it lists.
            let text = self.expand(rhs);
            self.check_items(&text, loc, checks);
            return;
        }
        let exists = self.vars.contains_key(&name);
        let chunk = |text: String, expanded: bool| Chunk {
            text,
            expanded,
            maybe: in_cond,
            symbol: symbol.clone(),
            loc: loc.clone(),
        };
        let (c, simple, reset) = match op {
            Op::Recursive => (chunk(rhs.to_string(), false), false, true),
            Op::Simple => (chunk(self.expand(rhs), true), true, true),
            Op::Shell => (chunk(ANY.to_string(), true), true, true),
            Op::IfUnset if exists => return,
            Op::IfUnset => (chunk(rhs.to_string(), false), false, true),
            Op::Append => match self.vars.get(&name) {
                Some(v) if v.simple => (chunk(self.expand(rhs), true), true, false),
                _ => (chunk(rhs.to_string(), false), false, false),
            },
        };
        if reset && in_cond && !is_list_name(&name) {
            if let Some(old) = self.vars.get(&name) {
                // `SRCARCH := x86` under `ifeq ($(ARCH),i386)`: one word or another, not a
                // list of both as for Kbuild's lists (`foo-y`).
                let old = self.value(old);
                let new = if c.expanded {
                    c.text.clone()
                } else {
                    self.expand(&c.text)
                };
                let one = |s: &str| s.split_whitespace().count() == 1;
                if one(&old) && one(&new) && old.trim() != new.trim() {
                    self.set(&name, ANY.to_string(), true, loc);
                    if let Some(v) = self.vars.get_mut(&name) {
                        v.chunks[0].maybe = true;
                    }
                    return;
                }
            }
        }
        let v = self.vars.entry(name).or_insert(Var {
            simple,
            chunks: vec![],
        });
        if reset && !in_cond {
            v.chunks.clear();
            v.simple = simple;
        }
        v.chunks.push(c);
    }

    /// Queues the words of `text` that could name a Rust source for the final check.
    fn check_items(&self, text: &str, loc: &Loc, checks: &mut Vec<Check>) {
        for w in text.split_whitespace() {
            if w.contains(ANY) || w.ends_with(".o") || w.ends_with('/') {
                checks.push(Check {
                    dir: self.dir.clone(),
                    at: loc.at.clone(),
                    line: loc.line.clone(),
                    item: w.to_string(),
                });
            }
        }
    }

    /// The words of a list variable, each with its assignment's gate and line.
    fn items(&self, name: &str) -> Vec<Item> {
        let Some(v) = self.vars.get(name) else {
            return vec![];
        };
        let mut out: Vec<Item> = vec![];
        for c in &v.chunks {
            let text = if c.expanded {
                c.text.clone()
            } else {
                self.expand(&c.text)
            };
            for w in text.split_whitespace() {
                if !out.iter().any(|i| i.word == w) {
                    out.push(Item {
                        word: w.to_string(),
                        symbol: c.symbol.clone(),
                        loc: c.loc.clone(),
                    });
                }
            }
        }
        out
    }

    fn ex(&self, s: &str, ex: &mut Ex) -> String {
        ex.steps += 1;
        if ex.depth > 64 || ex.steps > 200_000 {
            return ANY.to_string();
        }
        let mut out = String::new();
        let mut rest = s;
        while let Some(p) = rest.find('$') {
            out.push_str(&rest[..p]);
            let after = &rest[p + 1..];
            let Some(c) = after.chars().next() else {
                rest = "";
                break;
            };
            match c {
                '$' => {
                    out.push('$');
                    rest = &after[1..];
                }
                '(' | '{' => {
                    let close = if c == '(' { ')' } else { '}' };
                    match matching(after, c, close) {
                        Some(end) => {
                            ex.depth += 1;
                            out.push_str(&self.reference(&after[1..end], ex));
                            ex.depth -= 1;
                            rest = &after[end + 1..];
                        }
                        None => {
                            out.push(ANY);
                            rest = "";
                        }
                    }
                }
                c => {
                    out.push_str(&self.lookup(&c.to_string(), ex));
                    rest = &after[c.len_utf8()..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// `$(…)` contents: a function call, a substitution reference or a variable.
    fn reference(&self, inner: &str, ex: &mut Ex) -> String {
        if let Some(p) = inner.find([' ', '\t']) {
            let name = &inner[..p];
            if FUNCTIONS.contains(&name) {
                return self.function(name, &inner[p + 1..], ex);
            }
        }
        // `$(var:.o=.c)`
        if let Some(colon) = find_top(inner, b':') {
            if let Some(eq) = inner[colon..].find('=') {
                let name = self.ex(&inner[..colon], ex);
                let from = self.ex(&inner[colon + 1..colon + eq], ex);
                let to = self.ex(&inner[colon + eq + 1..], ex);
                let value = self.lookup(name.trim(), ex);
                let (from, to) = if from.contains('%') {
                    (from, to)
                } else {
                    (format!("%{from}"), format!("%{to}"))
                };
                return patsubst(&from, &to, &value);
            }
        }
        let name = self.ex(inner, ex);
        self.lookup(name.trim(), ex)
    }

    fn lookup(&self, name: &str, ex: &mut Ex) -> String {
        if let Some((_, v)) = ex.locals.iter().rev().find(|(n, _)| n == name) {
            return v.clone();
        }
        if let Ok(n) = name.parse::<usize>() {
            return match &ex.args {
                Some(args) => args.get(n).cloned().unwrap_or_default(),
                // A macro's argument outside a call: the body of a `define` being checked.
                None => ANY.to_string(),
            };
        }
        if name.contains(ANY) {
            return ANY.to_string();
        }
        match name {
            "obj" | "src" => {
                return match self.dir.strip_suffix('/') {
                    Some(d) => d.to_string(),
                    None => ".".into(),
                }
            }
            "srctree" | "objtree" => return ".".into(),
            _ => {}
        }
        if let Some(sym) = name.strip_prefix("CONFIG_") {
            // What include/config/auto.conf sets: nothing for `n` or unset.
            return match self.cfg.get(sym) {
                None | Some(Value::Tristate(Tristate::No)) => String::new(),
                Some(Value::Quoted(s)) => format!("\"{s}\""),
                Some(v) => v.text().into_owned(),
            };
        }
        let Some(v) = self.vars.get(name) else {
            // Kbuild's lists (`foo-y` when `foo-$(CONFIG_X)` is off) are each makefile's own:
            // unset is empty. Anything else may be set outside the makefile (the top Makefile,
            // an arch, the command line).
            return if is_list_name(name) {
                String::new()
            } else {
                ANY.to_string()
            };
        };
        if ex.cond && v.chunks.iter().any(|c| c.maybe) {
            // A condition on a value that may not have been set cannot be decided.
            return ANY.to_string();
        }
        self.value_in(v, ex)
    }

    fn value(&self, v: &Var) -> String {
        self.value_in(v, &mut Ex::new())
    }

    fn value_in(&self, v: &Var, ex: &mut Ex) -> String {
        let parts: Vec<String> = v
            .chunks
            .iter()
            .map(|c| {
                if c.expanded {
                    c.text.clone()
                } else {
                    self.ex(&c.text, ex)
                }
            })
            .filter(|t| !t.trim().is_empty())
            .collect();
        parts.join(" ")
    }

    fn function(&self, name: &str, args: &str, ex: &mut Ex) -> String {
        let max = match name {
            "subst" | "patsubst" | "wordlist" | "foreach" | "if" => 3,
            "findstring" | "filter" | "filter-out" | "word" | "addsuffix" | "addprefix"
            | "join" | "let" => 2,
            "call" | "or" | "and" | "intcmp" => usize::MAX,
            _ => 1,
        };
        let a = split_args(args, max);
        let arg = |i: usize| a.get(i).copied().unwrap_or("");
        let any = || ANY.to_string();
        match name {
            "if" => {
                let cond = self.ex(arg(0), ex);
                let cond = cond.trim();
                if cond.contains(ANY) {
                    // Not known: both ways, as for `ifdef`.
                    format!("{} {}", self.ex(arg(1), ex), self.ex(arg(2), ex))
                } else if !cond.is_empty() {
                    self.ex(arg(1), ex)
                } else {
                    self.ex(arg(2), ex)
                }
            }
            "or" | "and" => {
                let vals: Vec<String> = a.iter().map(|x| self.ex(x, ex)).collect();
                if vals.iter().any(|v| v.contains(ANY)) {
                    return vals.join(" ");
                }
                let vals: Vec<&str> = vals.iter().map(|v| v.trim()).collect();
                if name == "or" {
                    vals.iter()
                        .find(|v| !v.is_empty())
                        .copied()
                        .unwrap_or("")
                        .to_string()
                } else if vals.iter().all(|v| !v.is_empty()) {
                    vals.last().copied().unwrap_or("").to_string()
                } else {
                    String::new()
                }
            }
            "foreach" => {
                let var = self.ex(arg(0), ex).trim().to_string();
                let list = self.ex(arg(1), ex);
                let mut out = vec![];
                for w in list.split_whitespace() {
                    ex.locals.push((var.clone(), w.to_string()));
                    out.push(self.ex(arg(2), ex));
                    ex.locals.pop();
                }
                out.join(" ")
            }
            "call" => {
                let fname = self.ex(arg(0), ex).trim().to_string();
                let Some(v) = self.vars.get(&fname) else {
                    return any();
                };
                let body: Vec<&str> = v.chunks.iter().map(|c| c.text.as_str()).collect();
                let body = body.join(" ");
                let mut new_args = vec![fname];
                for x in a.iter().skip(1) {
                    new_args.push(self.ex(x, ex));
                }
                let saved = ex.args.replace(new_args);
                let out = if v.simple { body } else { self.ex(&body, ex) };
                ex.args = saved;
                out
            }
            "value" => {
                let n = self.ex(arg(0), ex);
                match self.vars.get(n.trim()) {
                    Some(v) => v
                        .chunks
                        .iter()
                        .map(|c| c.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    None => any(),
                }
            }
            "eval" => {
                if ex.evals.is_some() {
                    let text = self.ex(arg(0), ex);
                    ex.evals.get_or_insert_with(Vec::new).push(text);
                }
                String::new()
            }
            "error" | "warning" | "info" => String::new(),
            "wildcard" | "realpath" | "shell" | "origin" | "flavor" | "file" | "intcmp" | "let"
            | "guile" | "join" => any(),
            "abspath" => self.ex(arg(0), ex),
            _ => {
                let vals: Vec<String> = a.iter().map(|x| self.ex(x, ex)).collect();
                let v = |i: usize| vals.get(i).map(String::as_str).unwrap_or("");
                words_function(
                    name,
                    &vals.iter().map(String::as_str).collect::<Vec<_>>(),
                    v,
                )
            }
        }
    }
}

/// The functions on words, arguments expanded.
fn words_function<'a>(name: &str, vals: &[&'a str], v: impl Fn(usize) -> &'a str) -> String {
    let any = || ANY.to_string();
    let words = |s: &'a str| s.split_whitespace().collect::<Vec<_>>();
    let map = |s: &'a str, f: &dyn Fn(&str) -> String| {
        words(s).into_iter().map(f).collect::<Vec<_>>().join(" ")
    };
    match name {
        "subst" => {
            if v(0).contains(ANY) || v(1).contains(ANY) && v(2).contains(v(0)) {
                return any();
            }
            if v(0).is_empty() {
                return v(2).to_string();
            }
            v(2).replace(v(0), v(1))
        }
        "patsubst" => {
            if v(0).contains(ANY) {
                return any();
            }
            patsubst(v(0), v(1), v(2))
        }
        "strip" => words(v(0)).join(" "),
        "findstring" => {
            if v(0).contains(ANY) || v(1).contains(ANY) {
                any()
            } else if v(1).contains(v(0)) {
                v(0).to_string()
            } else {
                String::new()
            }
        }
        "filter" | "filter-out" => {
            if v(0).contains(ANY) {
                return any();
            }
            let pats = words(v(0));
            let keep = words(v(1)).into_iter().filter(|w| {
                // A word not known cannot be told apart: kept either way.
                w.contains(ANY)
                    || pats.iter().any(|p| pattern_stem(p, w).is_some()) == (name == "filter")
            });
            keep.collect::<Vec<_>>().join(" ")
        }
        "sort" => {
            let mut w = words(v(0));
            w.sort();
            w.dedup();
            w.join(" ")
        }
        "word" | "wordlist" | "words" | "firstword" | "lastword"
            if vals.iter().any(|x| x.contains(ANY)) =>
        {
            any()
        }
        "word" => {
            let n: usize = v(0).trim().parse().unwrap_or(0);
            words(v(1))
                .get(n.wrapping_sub(1))
                .copied()
                .unwrap_or("")
                .to_string()
        }
        "wordlist" => {
            let s: usize = v(0).trim().parse().unwrap_or(1).max(1);
            let e: usize = v(1).trim().parse().unwrap_or(0);
            let w = words(v(2));
            w.iter()
                .enumerate()
                .filter(|(i, _)| *i + 1 >= s && *i < e)
                .map(|(_, w)| *w)
                .collect::<Vec<_>>()
                .join(" ")
        }
        "words" => words(v(0)).len().to_string(),
        "firstword" => words(v(0)).first().copied().unwrap_or("").to_string(),
        "lastword" => words(v(0)).last().copied().unwrap_or("").to_string(),
        "dir" => map(v(0), &|w| match w.rfind('/') {
            Some(p) => w[..=p].to_string(),
            None => "./".into(),
        }),
        "notdir" => map(v(0), &|w| w.rsplit('/').next().unwrap_or(w).to_string()),
        "suffix" => map(v(0), &|w| {
            let base = w.rsplit('/').next().unwrap_or(w);
            base.rfind('.')
                .map(|p| base[p..].to_string())
                .unwrap_or_default()
        }),
        "basename" => map(v(0), &|w| {
            let slash = w.rfind('/').map_or(0, |p| p + 1);
            match w[slash..].rfind('.') {
                Some(p) => w[..slash + p].to_string(),
                None => w.to_string(),
            }
        }),
        "addsuffix" => map(v(1), &|w| format!("{w}{}", v(0))),
        "addprefix" => map(v(1), &|w| format!("{}{w}", v(0))),
        _ => any(),
    }
}

/// make's `$(patsubst)`; a word not known gives `ANY`.
fn patsubst(from: &str, to: &str, text: &str) -> String {
    text.split_whitespace()
        .map(|w| {
            if w.contains(ANY) {
                return ANY.to_string();
            }
            match pattern_stem(from, w) {
                Some(stem) => match to.find('%') {
                    Some(_) => to.replacen('%', stem, 1),
                    None => to.to_string(),
                },
                None => w.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What `%` matches when `word` matches `pattern` (`""` for a pattern without `%`).
fn pattern_stem<'a>(pattern: &str, word: &'a str) -> Option<&'a str> {
    match pattern.split_once('%') {
        Some((pre, suf)) => {
            if word.len() >= pre.len() + suf.len() && word.starts_with(pre) && word.ends_with(suf) {
                Some(&word[pre.len()..word.len() - suf.len()])
            } else {
                None
            }
        }
        None => (pattern == word).then_some(""),
    }
}

/// The index of the `close` that matches the `open` at `s[0]`.
fn matching(s: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The first `c` outside `$(…)`/`(…)`.
fn find_top(s: &str, c: u8) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        match b {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => depth -= 1,
            _ if b == c && depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// A function's arguments: split at top-level commas, at most `max` of them.
fn split_args(s: &str, max: usize) -> Vec<&str> {
    let mut out = vec![];
    let mut depth = 0i32;
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => depth -= 1,
            b',' if depth == 0 && out.len() + 1 < max => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// The first `CONFIG_` symbol an assignment's name uses (`obj-$(CONFIG_FOO)`: `FOO`).
fn config_symbol(lhs: &str) -> Option<String> {
    let p = lhs.find("CONFIG_")?;
    let name: String = lhs[p + 7..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kconfig::Format;

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for (p, text) in files {
            let p = d.path().join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        d
    }

    fn cfg(text: &str) -> DotConfig {
        DotConfig::parse(Path::new(".config"), text, Format::DotConfig).unwrap()
    }

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

    fn walk_ok(files: &[(&str, &str)], config: &str) -> Walk {
        let d = tree(files);
        walk(d.path(), &cfg(config), &["rust/"]).unwrap_or_else(|e| panic!("{e}"))
    }

    fn walk_err(files: &[(&str, &str)], config: &str) -> String {
        let d = tree(files);
        walk(d.path(), &cfg(config), &[]).unwrap_err().to_string()
    }

    fn objs(w: &Walk) -> Vec<&str> {
        w.drivers.iter().map(|d| d.obj.as_str()).collect()
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

    const PRINT: &str = "obj-$(CONFIG_PRINT) += rust_print.o\n\
                         rust_print-y := rust_print_main.o rust_print_events.o\n\
                         rust_print-$(CONFIG_EXTRA) += extra.o\n\
                         rust_print-m += only_in_module.o\n\
                         rust_print-objs := entry.o\n";

    fn print_tree() -> Vec<(&'static str, &'static str)> {
        vec![
            ("Makefile", "drivers-y := samples/\n"),
            ("samples/Makefile", "obj-$(CONFIG_SAMPLES) += rust/\n"),
            ("samples/rust/Makefile", PRINT),
            ("samples/rust/rust_print_main.rs", ""),
            ("samples/rust/rust_print_events.c", ""),
            ("samples/rust/extra.rs", ""),
            ("samples/rust/only_in_module.c", ""),
            ("samples/rust/entry.S", ""),
        ]
    }

    #[test]
    fn a_composite_with_rust_and_c_parts_built_in() {
        let w = walk_ok(
            &print_tree(),
            "CONFIG_SAMPLES=y\nCONFIG_PRINT=y\nCONFIG_EXTRA=y\n",
        );
        assert_eq!(w.composites.len(), 1);
        let c = &w.composites[0];
        assert_eq!(c.obj, "samples/rust/rust_print.o");
        assert_eq!(c.kind, ObjKind::Kernel);
        assert_eq!(c.symbol.as_deref(), Some("PRINT"));
        assert_eq!(c.modfile, "samples/rust/rust_print");
        assert_eq!(c.listed_at, "samples/rust/Makefile:1");
        let parts: Vec<(&str, PartLang, Option<&str>)> = c
            .parts
            .iter()
            .map(|p| (p.obj.as_str(), p.lang, p.src.as_deref()))
            .collect();
        // Kbuild's order: `-objs`, then `-y` (`-m` only in a module).
        assert_eq!(
            parts,
            [
                (
                    "samples/rust/entry.o",
                    PartLang::Asm,
                    Some("samples/rust/entry.S")
                ),
                (
                    "samples/rust/rust_print_main.o",
                    PartLang::Rust,
                    Some("samples/rust/rust_print_main.rs")
                ),
                (
                    "samples/rust/rust_print_events.o",
                    PartLang::C,
                    Some("samples/rust/rust_print_events.c")
                ),
                (
                    "samples/rust/extra.o",
                    PartLang::Rust,
                    Some("samples/rust/extra.rs")
                ),
            ]
        );
        assert_eq!(c.parts[3].symbol.as_deref(), Some("EXTRA"));
        // Each Rust part is a crate of its own, with the composite's module file.
        assert_eq!(
            w.drivers,
            [
                DriverObj {
                    obj: "samples/rust/extra.o".into(),
                    src: "samples/rust/extra.rs".into(),
                    kind: ObjKind::Kernel,
                    symbol: Some("PRINT".into()),
                    listed_at: "samples/rust/Makefile:3".into(),
                    modfile: "samples/rust/rust_print".into(),
                    composite: Some("samples/rust/rust_print.o".into()),
                },
                DriverObj {
                    obj: "samples/rust/rust_print_main.o".into(),
                    src: "samples/rust/rust_print_main.rs".into(),
                    kind: ObjKind::Kernel,
                    symbol: Some("PRINT".into()),
                    listed_at: "samples/rust/Makefile:2".into(),
                    modfile: "samples/rust/rust_print".into(),
                    composite: Some("samples/rust/rust_print.o".into()),
                },
            ]
        );
        assert_eq!(
            w.makefiles,
            ["Makefile", "samples/Makefile", "samples/rust/Makefile"]
        );
    }

    #[test]
    fn a_composite_with_rust_and_c_parts_as_a_module() {
        let w = walk_ok(&print_tree(), "CONFIG_SAMPLES=y\nCONFIG_PRINT=m\n");
        let c = &w.composites[0];
        assert_eq!(c.kind, ObjKind::Module);
        let parts: Vec<&str> = c.parts.iter().map(|p| p.obj.as_str()).collect();
        assert_eq!(
            parts,
            [
                "samples/rust/entry.o",
                "samples/rust/rust_print_main.o",
                "samples/rust/rust_print_events.o",
                "samples/rust/only_in_module.o",
            ]
        );
        assert_eq!(objs(&w), ["samples/rust/rust_print_main.o"]);
        assert_eq!(w.drivers[0].kind, ObjKind::Module);
        // The Rust part its own gate leaves out.
        assert_eq!(w.skipped.len(), 1);
        assert_eq!(w.skipped[0].obj, "samples/rust/extra.o");
        assert_eq!(w.skipped[0].symbol, "EXTRA");
    }

    #[test]
    fn a_composite_left_out_is_skipped_as_a_whole() {
        let w = walk_ok(&print_tree(), "CONFIG_SAMPLES=y\n");
        assert!(w.drivers.is_empty() && w.composites.is_empty());
        assert_eq!(w.skipped.len(), 1);
        assert_eq!(w.skipped[0].obj, "samples/rust/rust_print.o");
        assert_eq!(w.skipped[0].symbol, "PRINT");
    }

    #[test]
    fn a_composite_without_rust_is_not_reported() {
        let w = walk_ok(
            &[
                ("Makefile", "obj-y += d/\n"),
                ("d/Makefile", "obj-m += c.o\nc-objs := a.o b.o\n"),
                ("d/a.c", ""),
                ("d/b.c", ""),
                // `c.o` is composite: `c.rs` is not its source.
                ("d/c.rs", ""),
            ],
            "",
        );
        assert!(w.drivers.is_empty() && w.composites.is_empty(), "{w:?}");
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
