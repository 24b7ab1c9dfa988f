//! Shell completion and man pages from the clap definitions: the bash script `rkbuild
//! completions bash` prints, loaded in a real bash, completes `rkbuild bu<TAB>` and
//! `--arch a<TAB>`; `rkbuild man` is a roff page, and `--dir` writes one page per command.

use std::process::Command;

fn rkbuild(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_rkbuild"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "rkbuild {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// What bash's completion offers for the words `words`, the last one being completed.
fn complete(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cur = words.last().unwrap();
    let prev = words[words.len() - 2];
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE='{}'\nCOMP_POINT=${{#COMP_LINE}}\n\
         _rkbuild rkbuild '{cur}' '{prev}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        quoted.join(" "),
        words.len() - 1,
        words.join(" "),
    );
    let o = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .expect("bash is needed for the completion test");
    assert!(
        o.status.success(),
        "bash: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn bash_completes_commands_and_arches() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("rkbuild.bash");
    std::fs::write(&script, rkbuild(&["completions", "bash"])).unwrap();

    let cmds = complete(&script, &["rkbuild", "bu"]);
    assert_eq!(cmds, ["build"], "rkbuild bu<TAB>");
    let arches = complete(&script, &["rkbuild", "build", "--arch", "a"]);
    for a in ["arm64", "arm"] {
        assert!(arches.iter().any(|x| x == a), "--arch a<TAB>: {arches:?}");
    }
    assert!(
        arches.iter().all(|x| x.starts_with('a')),
        "--arch a<TAB>: {arches:?}"
    );
    let opts = complete(&script, &["rkbuild", "build", "--cache-d"]);
    assert_eq!(opts, ["--cache-dir"]);

    // The other shells get a script too.
    for shell in ["zsh", "fish"] {
        assert!(rkbuild(&["completions", shell]).contains("rkbuild"));
    }
}

#[test]
fn man_pages() {
    let page = rkbuild(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH rkbuild"),
        "{page}"
    );
    for cmd in ["build", "config", "analyzer", "completions"] {
        assert!(page.contains(cmd), "the page does not name `{cmd}`");
    }
    let dir = tempfile::tempdir().unwrap();
    rkbuild(&["man", "--dir", dir.path().to_str().unwrap()]);
    for f in ["rkbuild.1", "rkbuild-build.1", "rkbuild-config.1"] {
        let text = std::fs::read_to_string(dir.path().join(f))
            .unwrap_or_else(|_| panic!("{f} was not written"));
        assert!(text.contains(".TH"), "{f}");
    }
    let build = std::fs::read_to_string(dir.path().join("rkbuild-build.1")).unwrap();
    assert!(build.contains("cache\\-dir") || build.contains("cache-dir"));
}
