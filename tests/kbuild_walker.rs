//! The Kbuild makefile walker over real Linux trees (7.3 and 6.12), with every symbol their
//! makefiles mention set to `y`: no makefile may stop it, and every Rust source a makefile
//! names as an object must be found (as a driver, or as the part of a composite object).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rkbuild::flags::ObjKind;
use rkbuild::kconfig::{DotConfig, Format};
use rkbuild::plan::kbuild::{self, PartLang, Walk};

/// The folders the planner keeps out of the walk (the library crates and host tools).
const EXCLUDE: &[&str] = &["rust/", "scripts/"];

/// Every file under `dir` (relative paths), hidden folders left out.
fn files(root: &Path, rel: &str, out: &mut Vec<String>) {
    for e in std::fs::read_dir(root.join(rel)).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = format!("{rel}{name}");
        let t = e.file_type().unwrap();
        if t.is_dir() {
            files(root, &format!("{path}/"), out);
        } else if t.is_file() {
            out.push(path);
        }
    }
}

fn is_makefile(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap();
    name.starts_with("Makefile") || name.starts_with("Kbuild")
}

/// `CONFIG_X=y` for every `CONFIG_X` any makefile mentions: an allyes-like configuration for
/// the walker's purpose.
fn allyes(root: &Path, all: &[String]) -> DotConfig {
    every_symbol(root, all, "y")
}

/// Every `CONFIG_X` any makefile mentions, set to `value`.
fn every_symbol(root: &Path, all: &[String], value: &str) -> DotConfig {
    let mut syms = BTreeSet::new();
    for f in all.iter().filter(|f| is_makefile(f)) {
        let text = String::from_utf8_lossy(&std::fs::read(root.join(f)).unwrap()).into_owned();
        for (p, _) in text.match_indices("CONFIG_") {
            let name: String = text[p + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                syms.insert(name);
            }
        }
    }
    let text: String = syms
        .iter()
        .map(|s| match value {
            "n" => format!("# CONFIG_{s} is not set\n"),
            v => format!("CONFIG_{s}={v}\n"),
        })
        .collect();
    DotConfig::parse(Path::new("allyes.config"), &text, Format::DotConfig).unwrap()
}

/// Whether `text` names `word` (not as the tail of a longer name).
fn mentions(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(p, _)| {
        let before = text[..p].chars().next_back();
        let after = text[p + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Every `X.rs` whose folder's Makefile or Kbuild names `X.o`, outside the excluded folders.
fn named_rust_sources(root: &Path, all: &[String]) -> Vec<String> {
    let mut out = vec![];
    for rs in all.iter().filter(|f| f.ends_with(".rs")) {
        if EXCLUDE.iter().any(|e| rs.starts_with(e)) {
            continue;
        }
        let (dir, name) = match rs.rsplit_once('/') {
            Some((d, n)) => (format!("{d}/"), n),
            None => (String::new(), rs.as_str()),
        };
        let obj = format!("{}.o", name.strip_suffix(".rs").unwrap());
        let named = ["Makefile", "Kbuild"].iter().any(|m| {
            std::fs::read(root.join(format!("{dir}{m}")))
                .map(|b| mentions(&String::from_utf8_lossy(&b), &obj))
                .unwrap_or(false)
        });
        if named {
            out.push(rs.clone());
        }
    }
    out
}

/// Walks `root` with everything on and checks it against the makefiles; returns the walk.
fn walk_everything(var: &str) -> Walk {
    let root = PathBuf::from(common::tool_env(var));
    assert!(
        root.join("Makefile").is_file(),
        "{var}={} has no Makefile: is the tree unpacked?",
        root.display()
    );
    let mut all = vec![];
    files(&root, "", &mut all);
    let cfg = allyes(&root, &all);
    let t = Instant::now();
    let w = kbuild::walk(&root, &cfg, EXCLUDE)
        .unwrap_or_else(|e| panic!("walking {} ({var}):\n{e}", root.display()));
    let took = t.elapsed();
    eprintln!(
        "{var}: {} makefiles read, {} Rust crates ({} single-file drivers, {} composite parts), {} composites, {} skipped, in {:.0?}",
        w.makefiles.len(),
        w.drivers.len(),
        w.drivers.iter().filter(|d| d.composite.is_none()).count(),
        w.drivers.iter().filter(|d| d.composite.is_some()).count(),
        w.composites.len(),
        w.skipped.len(),
        took
    );
    for d in &w.drivers {
        eprintln!(
            "  {} {:?} {} (modfile {}){}",
            d.src,
            d.kind,
            d.symbol.as_deref().unwrap_or("-"),
            d.modfile,
            d.composite
                .as_deref()
                .map(|c| format!(", part of {c}"))
                .unwrap_or_default()
        );
    }

    // Every Rust source a makefile names is found: as a driver, or as a part of a composite.
    let named = named_rust_sources(&root, &all);
    assert!(
        !named.is_empty(),
        "no Rust source named in {}",
        root.display()
    );
    let missing: Vec<&String> = named
        .iter()
        .filter(|rs| !w.drivers.iter().any(|d| &d.src == *rs))
        .collect();
    assert!(
        missing.is_empty(),
        "{var}: named in a makefile but not found: {missing:?}"
    );
    for d in &w.drivers {
        assert!(root.join(&d.src).is_file(), "{}", d.src);
        match &d.composite {
            None => assert_eq!(format!("{}.o", d.modfile), d.obj, "{d:?}"),
            Some(c) => {
                let comp = w
                    .composites
                    .iter()
                    .find(|x| &x.obj == c)
                    .unwrap_or_else(|| panic!("{}: its composite {c} is not in the list", d.src));
                assert!(
                    comp.parts
                        .iter()
                        .any(|p| p.lang == PartLang::Rust && p.src.as_deref() == Some(&d.src)),
                    "{comp:?} lacks {}",
                    d.src
                );
                assert_eq!(comp.modfile, d.modfile);
                assert_eq!(comp.kind, d.kind);
            }
        }
    }
    w
}

fn composite<'a>(w: &'a Walk, obj: &str) -> &'a kbuild::Composite {
    w.composites
        .iter()
        .find(|c| c.obj == obj)
        .unwrap_or_else(|| panic!("no composite {obj} in {:#?}", w.composites))
}

fn parts(c: &kbuild::Composite) -> Vec<(&str, PartLang)> {
    c.parts.iter().map(|p| (p.obj.as_str(), p.lang)).collect()
}

#[test]
fn linux_73_everything_on() {
    let w = walk_everything("RKBUILD_TEST_LINUX_73");
    let print = composite(&w, "samples/rust/rust_print.o");
    assert_eq!(
        parts(print),
        [
            ("samples/rust/rust_print_main.o", PartLang::Rust),
            ("samples/rust/rust_print_events.o", PartLang::C),
        ]
    );
    assert_eq!(print.modfile, "samples/rust/rust_print");
    assert_eq!(print.symbol.as_deref(), Some("SAMPLE_RUST_PRINT"));
    assert_eq!(print.kind, ObjKind::Kernel);
    let binder = composite(&w, "drivers/android/binder/rust_binder.o");
    assert_eq!(binder.parts[0].lang, PartLang::Rust);
    assert!(binder.parts[1..].iter().all(|p| p.lang == PartLang::C));
    // A composite in the parent folder, with parts in subfolders.
    let nova = composite(&w, "drivers/gpu/nova-core.o");
    assert_eq!(nova.parts[0].obj, "drivers/gpu/nova-core/nova_core.o");
    assert_eq!(nova.modfile, "drivers/gpu/nova-core");
    // One Rust part among many C parts, gated by its own symbol.
    let drm = composite(&w, "drivers/gpu/drm/drm.o");
    let qr = drm.parts.iter().find(|p| p.lang == PartLang::Rust).unwrap();
    assert_eq!(qr.obj, "drivers/gpu/drm/drm_panic_qr.o");
    assert_eq!(qr.symbol.as_deref(), Some("DRM_PANIC_SCREEN_QR_CODE"));
    for dir in ["samples/rust/", "drivers/"] {
        assert!(
            w.drivers.iter().any(|d| d.src.starts_with(dir)),
            "no Rust driver under {dir}"
        );
    }
}

#[test]
fn linux_612_everything_on() {
    let w = walk_everything("RKBUILD_TEST_LINUX_612");
    let drm = composite(&w, "drivers/gpu/drm/drm.o");
    assert!(drm
        .parts
        .iter()
        .any(|p| p.obj == "drivers/gpu/drm/drm_panic_qr.o" && p.lang == PartLang::Rust));
    assert!(w
        .drivers
        .iter()
        .any(|d| d.src == "samples/rust/rust_print.rs" && d.composite.is_none()));
}

/// With everything off or everything a module, other branches are read: none may stop the walk.
fn walk_other_configs(var: &str) {
    let root = PathBuf::from(common::tool_env(var));
    let mut all = vec![];
    files(&root, "", &mut all);
    for value in ["n", "m"] {
        let cfg = every_symbol(&root, &all, value);
        let w = kbuild::walk(&root, &cfg, EXCLUDE).unwrap_or_else(|e| {
            panic!(
                "walking {} ({var}), every symbol {value}:\n{e}",
                root.display()
            )
        });
        eprintln!(
            "{var}, every symbol {value}: {} makefiles, {} Rust crates, {} composites, {} skipped",
            w.makefiles.len(),
            w.drivers.len(),
            w.composites.len(),
            w.skipped.len()
        );
        if value == "m" {
            assert!(w
                .drivers
                .iter()
                .all(|d| d.kind == ObjKind::Module || d.symbol.is_none()));
        }
    }
}

#[test]
fn linux_73_other_configs() {
    walk_other_configs("RKBUILD_TEST_LINUX_73");
}

#[test]
fn linux_612_other_configs() {
    walk_other_configs("RKBUILD_TEST_LINUX_612");
}
