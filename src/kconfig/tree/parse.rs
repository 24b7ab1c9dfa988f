//! Running nom-kconfig over a tree: the variables it substitutes while reading (`SRCARCH`,
//! `ARCH`, `HEADER_ARCH`), a thread with a deep stack for each parse (nom-kconfig recurses once
//! per nested block and `source`), the kernel's top Kconfig split at its `source` lines and
//! parsed in parallel, and syntax errors quoted with their whole source line.
//!
//! What comes out is nom-kconfig's own AST; turning it into the model is `convert`'s job.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use nom_kconfig::{KconfigFile, KconfigInput};

use super::KconfigError;

/// nom-kconfig's AST of a tree.
pub(super) enum Parsed {
    /// The root is only `source` lines (as the kernel's is): for each, its line in the root,
    /// the path it names, and the sourced file's AST.
    Sources(Vec<(usize, String, Result<nom_kconfig::Kconfig, ParseFailure>)>),
    /// Any other root, parsed as one file.
    Whole(nom_kconfig::Kconfig),
}

/// Parses `root` (relative to `srctree`) for `srcarch`. A failure in one of the sourced files
/// of a [`Parsed::Sources`] root is kept in its place, to be reported in source order.
pub(super) fn parse(srctree: &Path, root: &str, srcarch: &str) -> Result<Parsed, KconfigError> {
    let root_text = std::fs::read_to_string(srctree.join(root))
        .map_err(|_| KconfigError::NoKconfig(srctree.into()))?;
    // The kernel's top Kconfig is a list of `source` lines: parse those subtrees in
    // parallel (nom-kconfig is single-threaded); `convert` flattens them in order.
    if let Some(sources) = top_level_sources(&root_text, srcarch) {
        let parsed = parse_parallel(srctree, &sources, srcarch);
        return Ok(Parsed::Sources(
            sources
                .into_iter()
                .zip(parsed)
                .map(|((line, path), r)| (line, path, r))
                .collect(),
        ));
    }
    let kf = new_file(srctree, root, srcarch);
    let text = kf
        .read_to_string()
        .map_err(|_| KconfigError::NoKconfig(srctree.into()))?;
    nom_kconfig::parse_kconfig(KconfigInput::new_extra(&text, kf))
        .map(|(_, k)| Parsed::Whole(k))
        .map_err(|e| syntax_error(srctree, root, e))
}

fn new_file(srctree: &Path, file: &str, srcarch: &str) -> KconfigFile {
    let mut vars = HashMap::new();
    vars.insert("SRCARCH", srcarch);
    vars.insert("ARCH", srcarch);
    // um's HEADER_ARCH: irrelevant for the arches with Rust, but must not be empty.
    vars.insert("HEADER_ARCH", srcarch);
    KconfigFile::new_with_vars(
        srctree.to_path_buf(),
        PathBuf::from(file),
        &vars,
        &HashMap::new(),
    )
}

pub(super) fn syntax_error(
    srctree: &Path,
    root: &str,
    e: nom_kconfig::error::Error,
) -> KconfigError {
    let f = e.filename.display().to_string();
    let file = if f.is_empty() { root.to_string() } else { f };
    // The whole source line, not just where the parser gave up inside it.
    let text = std::fs::read(srctree.join(&file))
        .ok()
        .and_then(|b| {
            String::from_utf8_lossy(&b)
                .lines()
                .nth((e.line as usize).saturating_sub(1))
                .map(|l| l.trim().to_string())
        })
        .unwrap_or_else(|| e.input.lines().next().unwrap_or("").trim().to_string());
    // nom-kconfig (patched) stops where a `$(` is left open: say so.
    if nom_kconfig::unterminated_reference(&text).is_some() {
        return KconfigError::Unterminated {
            file,
            line: e.line,
            text,
        };
    }
    KconfigError::Syntax {
        file,
        line: e.line,
        text,
    }
}

/// The `source` lines of a top Kconfig made only of `mainmenu`, `source`, comments and blank
/// lines (as the kernel's is), with their line numbers; `None` for anything else.
fn top_level_sources(text: &str, srcarch: &str) -> Option<Vec<(usize, String)>> {
    let mut out = vec![];
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("mainmenu ") {
            continue;
        }
        let path = t.strip_prefix("source")?.trim();
        let path = path.strip_prefix('"')?.strip_suffix('"')?;
        if path.contains('*') {
            return None;
        }
        let path = path
            .replace("$(SRCARCH)", srcarch)
            .replace("$(ARCH)", srcarch)
            .replace("$(HEADER_ARCH)", srcarch);
        if path.contains("$(") {
            return None;
        }
        out.push((i + 1, path));
    }
    (!out.is_empty()).then_some(out)
}

/// Why one sourced file gave no AST.
pub(super) enum ParseFailure {
    Missing,
    Syntax(nom_kconfig::error::Error),
}

/// Parses each file (and what it sources) with nom-kconfig, on as many threads as there are
/// cores; results in input order.
fn parse_parallel(
    srctree: &Path,
    files: &[(usize, String)],
    srcarch: &str,
) -> Vec<Result<nom_kconfig::Kconfig, ParseFailure>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<nom_kconfig::Kconfig, ParseFailure>>>> =
        Mutex::new((0..files.len()).map(|_| None).collect());
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .min(files.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            // Each worker has a deep stack (nom-kconfig recurses per block and `source`), made
            // once: a thread per file would fault its stack pages in again for every file.
            std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn_scoped(scope, || loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= files.len() {
                        break;
                    }
                    let parse = || {
                        let kf = new_file(srctree, &files[i].1, srcarch);
                        let text = kf.read_to_string().map_err(|_| ParseFailure::Missing)?;
                        nom_kconfig::parse_kconfig(KconfigInput::new_extra(&text, kf))
                            .map(|(_, k)| k)
                            .map_err(ParseFailure::Syntax)
                    };
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(parse))
                        .unwrap_or(Err(ParseFailure::Missing));
                    results.lock().expect("results")[i] = Some(r);
                })
                .expect("spawn a parser thread");
        }
    });
    results
        .into_inner()
        .expect("results")
        .into_iter()
        .map(|r| r.unwrap_or(Err(ParseFailure::Missing)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::test_tree as tree;
    use super::*;

    #[test]
    fn a_kernel_like_root_is_its_list_of_sources() {
        let root = "# SPDX\nmainmenu \"Linux/$(ARCH) Kernel Configuration\"\n\n\
                    source \"scripts/Kconfig.include\"\nsource \"arch/$(SRCARCH)/Kconfig\"\n";
        assert_eq!(
            top_level_sources(root, "x86").unwrap(),
            [
                (4, "scripts/Kconfig.include".to_string()),
                (5, "arch/x86/Kconfig".to_string())
            ]
        );
        // Anything else is parsed whole, by nom-kconfig.
        for other in [
            "source \"a/Kconfig\"\nconfig A\n\tbool\n",
            "source \"drivers/*/Kconfig\"\n",
            "source \"$(OTHER)/Kconfig\"\n",
            "mainmenu \"x\"\n",
        ] {
            assert_eq!(top_level_sources(other, "x86"), None, "{other}");
        }
    }

    #[test]
    fn sourced_files_come_back_in_order_with_their_failures_in_place() {
        let d = tree(&[
            (
                "Kconfig",
                "source \"a/Kconfig\"\nsource \"gone/Kconfig\"\nsource \"arch/$(SRCARCH)/Kconfig\"\n",
            ),
            ("a/Kconfig", "config A\n\tbool\n"),
            ("arch/riscv/Kconfig", "config RISCV\n\tdef_bool y\n"),
        ]);
        let Parsed::Sources(s) = parse(d.path(), "Kconfig", "riscv").unwrap() else {
            panic!("a root of source lines is split")
        };
        let lines: Vec<_> = s.iter().map(|(l, p, _)| (*l, p.as_str())).collect();
        assert_eq!(
            lines,
            [
                (1, "a/Kconfig"),
                (2, "gone/Kconfig"),
                (3, "arch/riscv/Kconfig")
            ]
        );
        assert!(matches!(&s[0].2, Ok(k) if k.entries.len() == 1));
        assert!(matches!(s[1].2, Err(ParseFailure::Missing)));
        assert!(matches!(&s[2].2, Ok(k) if k.entries.len() == 1));
    }

    #[test]
    fn another_root_is_parsed_whole_with_the_arch_substituted() {
        let d = tree(&[
            (
                "Kconfig",
                "config TOP\n\tbool\n\nsource \"arch/$(SRCARCH)/Kconfig\"\n",
            ),
            ("arch/arm64/Kconfig", "config ARM64\n\tdef_bool y\n"),
        ]);
        let Parsed::Whole(k) = parse(d.path(), "Kconfig", "arm64").unwrap() else {
            panic!("a root with entries is parsed whole")
        };
        let nom_kconfig::Entry::Source(s) = &k.entries[1] else {
            panic!("{:?}", k.entries[1])
        };
        assert_eq!(s.kconfigs[0].file, "arch/arm64/Kconfig");
        assert_eq!(s.kconfigs[0].entries.len(), 1);
    }

    #[test]
    fn a_syntax_error_quotes_its_whole_line() {
        let d = tree(&[(
            "Kconfig",
            "config A\n\tbool\n\n  default_yes_please A if B\n",
        )]);
        let Err(KconfigError::Syntax { file, line, text }) = parse(d.path(), "Kconfig", "x86")
        else {
            panic!("not a syntax error")
        };
        assert_eq!(
            (file.as_str(), line, text.as_str()),
            ("Kconfig", 4, "default_yes_please A if B")
        );
    }

    #[test]
    fn a_reference_left_open_in_a_sourced_file_is_named_there() {
        let d = tree(&[
            ("Kconfig", "source \"a/Kconfig\"\n"),
            ("a/Kconfig", "menu \"A\"\nconfig B\n\tbool\n\thelp\n\t  $(fine\n\nconfig A\n\tdef_bool $(success,$(CC)\nendmenu\n"),
        ]);
        let Parsed::Sources(mut s) = parse(d.path(), "Kconfig", "x86").unwrap() else {
            panic!("the root is only a source line")
        };
        let Err(ParseFailure::Syntax(e)) = s.remove(0).2 else {
            panic!("parsed")
        };
        let e = syntax_error(d.path(), "Kconfig", e);
        assert!(
            matches!(&e, KconfigError::Unterminated { file, line: 8, .. } if file == "a/Kconfig"),
            "{e}"
        );
    }

    #[test]
    fn closed_references_nested_or_not_pass() {
        assert_eq!(
            nom_kconfig::unterminated_reference("config A\n\tdef_bool $(success,$(CC) -v)\n"),
            None
        );
        assert_eq!(
            nom_kconfig::unterminated_reference("x := $(shell,echo (a) '#')\n"),
            None
        );
        assert_eq!(
            nom_kconfig::unterminated_reference("config A\n\tdef_bool $(cc-option,\\\n\t-mfoo)\n"),
            None
        );
    }

    #[test]
    fn an_open_reference_is_found_where_it_opens() {
        let text = "config A\n\tdef_bool $(success,$(CC -v)\n";
        assert_eq!(
            nom_kconfig::unterminated_reference(text),
            Some(text.find("$(").unwrap())
        );
        assert_eq!(
            nom_kconfig::unterminated_reference("config A\n\tdefault \"$(X\"\n"),
            Some(19)
        );
    }

    #[test]
    fn comments_and_help_texts_are_not_expanded() {
        assert_eq!(
            nom_kconfig::unterminated_reference("# $(not\nconfig A # $(nor this\n"),
            None
        );
        let text = "config A\n\tbool\n\thelp\n\t  Use $(X to\n\n\t  see.\nconfig B\n\tdefault $(\n";
        assert_eq!(
            nom_kconfig::unterminated_reference(text),
            Some(text.rfind("$(").unwrap())
        );
    }

    #[test]
    fn a_help_line_without_indentation_ends_the_help_text() {
        // The fuzzer's hang: the check took the rest of the file for help text, while the
        // parser read it as entries, with a `$(` left open.
        let text = "config A\n\thelp\nconfig B\n\tdef_bool $(success,x\n\tbool \"b\"\n";
        assert_eq!(
            nom_kconfig::unterminated_reference(text),
            Some(text.find("$(").unwrap())
        );
    }

    #[test]
    fn no_root_file() {
        let d = tempfile::tempdir().unwrap();
        assert!(matches!(
            parse(d.path(), "Kconfig", "x86"),
            Err(KconfigError::NoKconfig(_))
        ));
    }
}
