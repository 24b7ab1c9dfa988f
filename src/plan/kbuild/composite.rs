//! One object of an `obj-` list, as Kbuild's `multi-search` sees it: a single-file driver
//! (`foo.o` from `foo.rs`), or a composite object (`foo.o` made of `$(foo-objs) $(foo-y)`,
//! plus `$(foo-m)` in a module) whose Rust parts are crates of their own, with the composite's
//! module file. A composite without a Rust part is none of rkbuild's business.

use super::around::{items, Item};
use super::found::{Composite, DriverObj, Part, PartLang, Skipped};
use crate::makefile::{normalize, Scope, UNKNOWN};
use crate::mapping::ObjKind;

/// What one object of a list is, for the walk to record.
#[derive(Default)]
pub(super) struct Object {
    /// The single-file driver, or the Rust parts of the composite.
    pub(super) drivers: Vec<DriverObj>,
    pub(super) composite: Option<Composite>,
    pub(super) skipped: Vec<Skipped>,
    /// Rust sources its lists name, built or not.
    pub(super) claimed: Vec<String>,
    /// Items of its lists that cannot be expanded.
    pub(super) unknown: Vec<Item>,
}

/// One object of an `obj-` list in `dir` (`kind` `None`: its gate is off): a single-file
/// driver, a composite, or neither.
pub(super) fn object(
    is_file: &dyn Fn(&str) -> bool,
    scope: &Scope,
    dir: &str,
    stem: &str,
    kind: Option<ObjKind>,
    it: &Item,
) -> Object {
    let mut found = Object::default();
    let obj = format!("{dir}{stem}.o");
    let modfile = format!("{dir}{stem}");
    // Kbuild's `multi-search`: `$(foo-objs)`, `$(foo-y)`, `$(foo-m)` or `$(foo-)` non-empty.
    let suffixes = ["objs", "y", "m", ""];
    let lists: Vec<(&str, Vec<Item>)> = suffixes
        .iter()
        .map(|s| (*s, items(scope, &format!("{stem}-{s}"))))
        .collect();
    let composite = lists.iter().any(|(_, items)| !items.is_empty());
    let symbol = it.symbol.clone();
    if !composite {
        let src = format!("{dir}{stem}.rs");
        if !is_file(&src) {
            return found;
        }
        found.claimed.push(src.clone());
        match kind {
            Some(kind) => found.drivers.push(DriverObj {
                obj,
                src,
                kind,
                symbol,
                listed_at: it.loc.at.clone(),
                modfile,
                composite: None,
            }),
            None => found.skipped.push(Skipped {
                obj,
                symbol: symbol.unwrap_or_default(),
                listed_at: it.loc.at.clone(),
                why: None,
            }),
        }
        return found;
    }
    // The parts Kbuild links: `-objs -y` built in, `-objs -y -m` in a module.
    let mut parts: Vec<Part> = vec![];
    let mut off: Vec<Part> = vec![];
    for (suffix, items) in &lists {
        let on = kind.is_some()
            && (matches!(*suffix, "objs" | "y")
                || (*suffix == "m" && kind == Some(ObjKind::Module)));
        for p in items {
            if p.word.contains(UNKNOWN) {
                found.unknown.push(p.clone());
                continue;
            }
            let Some(pstem) = p.word.strip_suffix(".o") else {
                continue;
            };
            let part = part(&is_file, dir, pstem, p);
            let list = if on { &mut parts } else { &mut off };
            if !list.iter().any(|q| q.obj == part.obj) {
                list.push(part);
            }
        }
    }
    off.retain(|p| !parts.iter().any(|q| q.obj == p.obj));
    let rust = |p: &Part| p.lang == PartLang::Rust;
    for p in off.iter().filter(|p| rust(p)) {
        found.claimed.extend(p.src.clone());
        // A part left out by its own gate, or the whole object left out by its gate.
        let (obj, symbol, at) = match kind {
            Some(_) => (p.obj.clone(), p.symbol.clone(), p.listed_at.clone()),
            None => (obj.clone(), symbol.clone(), it.loc.at.clone()),
        };
        found.skipped.push(Skipped {
            obj,
            symbol: symbol.unwrap_or_default(),
            listed_at: at,
            why: None,
        });
    }
    let Some(kind) = kind else { return found };
    if !parts.iter().any(rust) {
        return found;
    }
    for p in parts.iter().filter(|p| rust(p)) {
        let src = p.src.clone().unwrap_or_default();
        found.claimed.push(src.clone());
        found.drivers.push(DriverObj {
            obj: p.obj.clone(),
            src,
            kind,
            symbol: symbol.clone(),
            listed_at: p.listed_at.clone(),
            modfile: modfile.clone(),
            composite: Some(obj.clone()),
        });
    }
    found.composite = Some(Composite {
        obj,
        kind,
        symbol,
        listed_at: it.loc.at.clone(),
        modfile,
        parts,
    });
    found
}

/// A part of a composite, by the source beside it: Rust, C, assembly, or made by a rule.
fn part(is_file: &dyn Fn(&str) -> bool, dir: &str, pstem: &str, p: &Item) -> Part {
    let base = format!("{dir}{}", normalize(pstem));
    let (lang, src) = [
        ("rs", PartLang::Rust),
        ("c", PartLang::C),
        ("S", PartLang::Asm),
    ]
    .into_iter()
    .map(|(ext, lang)| (lang, format!("{base}.{ext}")))
    .find(|(_, src)| is_file(src))
    .map_or((PartLang::Other, None), |(lang, src)| (lang, Some(src)));
    Part {
        obj: format!("{base}.o"),
        src,
        lang,
        symbol: p.symbol.clone(),
        listed_at: p.loc.at.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

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
}
