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
    parse_text(&text, kf)
        .map(Parsed::Whole)
        .map_err(|e| syntax_error(srctree, root, e))
}

/// One file's text: rkbuild's own parser (`scan`), or nom-kconfig alone when
/// `RKBUILD_KCONFIG_NOM` is set (to compare the two, and as a way out).
fn parse_text(
    text: &str,
    kf: KconfigFile,
) -> Result<nom_kconfig::Kconfig, nom_kconfig::error::Error> {
    static NOM_ONLY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *NOM_ONLY.get_or_init(|| std::env::var_os("RKBUILD_KCONFIG_NOM").is_some()) {
        return nom_kconfig::parse_kconfig(KconfigInput::new_extra(text, kf)).map(|(_, k)| k);
    }
    super::scan::parse_kconfig(text, kf)
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
                        parse_text(&text, kf).map_err(ParseFailure::Syntax)
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

/// What [`compare_parsers`] found: how much it compared, how often `scan` handed a place or a
/// whole file to nom-kconfig, each parser's time, and the first difference.
#[derive(Debug, Default)]
pub struct ParserComparison {
    pub files: usize,
    pub handed: usize,
    pub whole_files: usize,
    pub nom_time: std::time::Duration,
    pub scan_time: std::time::Duration,
    pub differences: Vec<String>,
}

/// Parses each file the top Kconfig sources (those `wanted`; the top one itself when it is not
/// a list of `source` lines), with everything they source, with nom-kconfig and with `scan`, on
/// this thread, and compares the two ASTs, or their errors.
pub fn compare_parsers(
    srctree: &Path,
    srcarch: &str,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<ParserComparison, KconfigError> {
    let root = std::fs::read_to_string(srctree.join("Kconfig"))
        .map_err(|_| KconfigError::NoKconfig(srctree.into()))?;
    // The kernel's root is a list of `source` lines, each parsed on its own; another is one file.
    let files = match top_level_sources(&root, srcarch) {
        Some(s) => s.into_iter().map(|(_, p)| p).collect(),
        None => vec!["Kconfig".to_string()],
    };
    let mut out = ParserComparison::default();
    super::scan::take_counts();
    for path in files.iter().filter(|p| wanted(p)) {
        let kf = new_file(srctree, path, srcarch);
        let Ok(text) = kf.read_to_string() else {
            continue;
        };
        let t = std::time::Instant::now();
        let nom =
            nom_kconfig::parse_kconfig(KconfigInput::new_extra(&text, kf.clone())).map(|(_, k)| k);
        out.nom_time += t.elapsed();
        let t = std::time::Instant::now();
        let scan = super::scan::parse_kconfig(&text, kf);
        out.scan_time += t.elapsed();
        match (nom, scan) {
            (Ok(a), Ok(b)) => {
                out.files += count_files(&a);
                first_difference(&a, &b, &mut out.differences);
            }
            (Err(a), Err(b)) if format!("{a:?}") == format!("{b:?}") => {}
            (a, b) => out.differences.push(format!(
                "{path}: nom-kconfig {}, scan {}",
                a.map(|_| "parsed".to_string())
                    .unwrap_or_else(|e| format!("{e:?}")),
                b.map(|_| "parsed".to_string())
                    .unwrap_or_else(|e| format!("{e:?}"))
            )),
        }
    }
    (out.handed, out.whole_files) = super::scan::take_counts();
    Ok(out)
}

fn count_files(k: &nom_kconfig::Kconfig) -> usize {
    fn entries(e: &[nom_kconfig::Entry]) -> usize {
        use nom_kconfig::Entry;
        e.iter()
            .map(|e| match e {
                Entry::Source(s) => s.kconfigs.iter().map(count_files).sum(),
                Entry::Menu(m) => entries(&m.entries),
                Entry::If(i) => entries(&i.entries),
                Entry::Choice(c) => entries(&c.entries),
                _ => 0,
            })
            .sum()
    }
    1 + entries(&k.entries)
}

/// The innermost entry where the two ASTs differ, with its file, both sides printed.
fn first_difference(a: &nom_kconfig::Kconfig, b: &nom_kconfig::Kconfig, out: &mut Vec<String>) {
    use nom_kconfig::Entry;
    if a == b {
        return;
    }
    if a.file != b.file || a.entries.len() != b.entries.len() {
        out.push(format!(
            "{}: {} entries from nom-kconfig, {} from scan (file {:?})",
            a.file,
            a.entries.len(),
            b.entries.len(),
            b.file
        ));
        return;
    }
    for (x, y) in a.entries.iter().zip(&b.entries) {
        if x == y {
            continue;
        }
        let inner = |xs: &[Entry], ys: &[Entry], out: &mut Vec<String>| {
            let wrap = |e: &[Entry]| nom_kconfig::Kconfig {
                file: a.file.clone(),
                entries: e.to_vec(),
            };
            first_difference(&wrap(xs), &wrap(ys), out)
        };
        match (x, y) {
            (Entry::Source(s), Entry::Source(t)) if s.kconfigs.len() == t.kconfigs.len() => {
                for (k, l) in s.kconfigs.iter().zip(&t.kconfigs) {
                    first_difference(k, l, out)
                }
            }
            (Entry::Menu(m), Entry::Menu(n)) if m.prompt == n.prompt && m.entries != n.entries => {
                inner(&m.entries, &n.entries, out)
            }
            (Entry::If(m), Entry::If(n)) if m.condition == n.condition => {
                inner(&m.entries, &n.entries, out)
            }
            (Entry::Choice(m), Entry::Choice(n)) if m.options == n.options => {
                inner(&m.entries, &n.entries, out)
            }
            _ => out.push(format!(
                "{}:\n  nom-kconfig: {x:?}\n  scan:        {y:?}",
                a.file
            )),
        }
    }
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
