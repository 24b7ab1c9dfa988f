//! rkbuild's own Kconfig parser (`kconfig::tree::scan`) against nom-kconfig, the parser it
//! stands in for: the same AST (symbols, types, prompts, defaults, dependencies, selects,
//! implies, ranges, choices, menus, help texts, variables) for every Kconfig file of the 6.12 and
//! 7.3 trees, and for every architecture's own files, each file read with its architecture's
//! variables.

mod common;

use std::path::Path;

use rkbuild::kconfig::tree::compare_parsers;

fn arches(tree: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(tree.join("arch"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("Kconfig").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn check(var: &str) {
    let tree = common::tool_env(var);
    let tree = Path::new(&tree);
    let (mut files, mut handed, mut whole) = (0, 0, 0);
    let (mut nom, mut scan) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    let mut differences = vec![];
    for arch in arches(tree) {
        // Everything for x86; for the others, init/Kconfig, which sources arch/$(SRCARCH).
        let all = arch == "x86";
        let c = compare_parsers(tree, &arch, &|p: &str| all || p == "init/Kconfig").unwrap();
        eprintln!("  {arch}: {} files, {} handed", c.files, c.handed);
        files += c.files;
        handed += c.handed;
        whole += c.whole_files;
        nom += c.nom_time;
        scan += c.scan_time;
        differences.extend(c.differences.into_iter().map(|d| format!("[{arch}] {d}")));
    }
    eprintln!(
        "{}: {files} files compared; scan handed {handed} places and {whole} whole files to \
         nom-kconfig; nom-kconfig {nom:?}, scan {scan:?} ({:.1}x)",
        tree.display(),
        nom.as_secs_f64() / scan.as_secs_f64()
    );
    assert!(files > 1_500, "{files} files");
    assert!(
        differences.is_empty(),
        "{} differences, the first ones:\n{}",
        differences.len(),
        differences[..differences.len().min(8)].join("\n")
    );
    assert_eq!(whole, 0, "files the scan could not read at all");
}

#[test]
fn linux_612() {
    check("RKBUILD_TEST_LINUX_612");
}

#[test]
fn linux_73() {
    check("RKBUILD_TEST_LINUX_73");
}
