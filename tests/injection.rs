//! Hostile values never become arguments: `.config` strings with quotes, `$`, backticks, `#`
//! and spaces reach rustc as exactly one `--cfg` each (read back by the real rustc from the
//! argument file); KRUSTFLAGS words reach a make recipe through `rkbuild.mk` unchanged and
//! unexpanded; an object tree whose path has spaces, quotes, `$(…)`, backticks and `#` builds,
//! and nothing anywhere ran; what cannot be passed on unchanged (a line break or non-UTF-8 in a
//! path, non-UTF-8 in a `.config` value, a module folder make would refuse) is refused with
//! the reason, before anything is written.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The hostile strings, as `.config` spells them (kconfig's escapes) and as the value is.
const VALUES: &[(&str, &str, &str)] = &[
    ("RKB_SPACE", r#""a b  c""#, "a b  c"),
    (
        "RKB_QUOTE",
        r#""x\" --cfg=INJECTED \"""#,
        r#"x" --cfg=INJECTED ""#,
    ),
    (
        "RKB_SHELL",
        r#""$(shell touch CANARY)`touch CANARY`$$HOME""#,
        "$(shell touch CANARY)`touch CANARY`$$HOME",
    ),
    ("RKB_BACKSLASH", r#""back\\slash\\""#, r"back\slash\"),
    (
        "RKB_HASH",
        r##""#hash ; rm -rf CANARY""##,
        "#hash ; rm -rf CANARY",
    ),
    ("RKB_AT", r#""@/etc/passwd""#, "@/etc/passwd"),
];

fn config_with(d: &Path, extra: &[u8]) -> PathBuf {
    let mut text = std::fs::read(common::minikernel().join("configs/x86_64.config")).unwrap();
    text.extend_from_slice(extra);
    let p = d.join("hostile.config");
    std::fs::write(&p, text).unwrap();
    p
}

fn run(mut c: Command) -> (bool, String) {
    let o = c.output().unwrap();
    (
        o.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

/// No file named CANARY anywhere below `d` (nor in the working folder the commands ran in).
fn no_canary(d: &Path) {
    for e in walkdir::WalkDir::new(d) {
        let e = e.unwrap();
        assert!(
            !e.file_name().to_string_lossy().contains("CANARY") || e.path().is_dir(),
            "something ran: {}",
            e.path().display()
        );
    }
}

#[test]
fn config_values_and_krustflags_stay_one_argument_each() {
    let d = tempfile::tempdir().unwrap();
    let extra: String = VALUES
        .iter()
        .map(|(n, spelled, _)| format!("CONFIG_{n}={spelled}\n"))
        .collect();
    let cfg = config_with(d.path(), extra.as_bytes());
    let o = d.path().join("o");
    let krustflags = [
        r#"--cfg=rkb_dollar="$(shell>CANARY)""#,
        r##"--cfg=rkb_hash="#x""##,
        r#"--cfg=rkb_quote="it's""#,
        r#"--cfg=rkb_tick="`touch`""#,
    ];
    let mut c = common::rkbuild_185();
    c.current_dir(d.path())
        .args(["config", "-S"])
        .arg(common::minikernel())
        .arg("-O")
        .arg(&o)
        .arg("--config")
        .arg(&cfg)
        .env("KRUSTFLAGS", krustflags.join(" "));
    let (ok, out) = run(c);
    assert!(ok, "{out}");

    // The real rustc reads the argument file: one cfg per symbol, with the value as it was.
    let mut c = Command::new(common::tool_env("RKBUILD_TEST_RUSTC_185"));
    c.current_dir(d.path())
        .args(["--print", "cfg"])
        .arg(format!(
            "@{}",
            o.join("include/generated/rustc_cfg").display()
        ));
    let (ok, printed) = run(c);
    assert!(ok, "rustc did not take the argument file: {printed}");
    let mut seen: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for line in printed.lines() {
        // rustc prints `name="value"` with the value raw.
        let (name, value) = line.split_once('=').unwrap_or((line, ""));
        seen.entry(name).or_default().push(
            value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(value),
        );
    }
    for (name, _, value) in VALUES {
        assert_eq!(
            seen.get(format!("CONFIG_{name}").as_str()),
            Some(&vec![*value]),
            "CONFIG_{name}: {printed}"
        );
    }
    assert!(
        !seen.contains_key("INJECTED"),
        "a value became a cfg of its own:\n{printed}"
    );

    // rkbuild.mk: the KRUSTFLAGS words, used in a recipe, reach the shell as they were, and
    // make expanded nothing of them.
    let mk = d.path().join("t.mk");
    std::fs::write(
        &mk,
        format!(
            "objtree := {}\ninclude $(objtree)/rkbuild.mk\nall:\n\t@printf '%s\\n' $(KBUILD_RUSTFLAGS) > words.txt\n",
            o.display()
        ),
    )
    .unwrap();
    let mut c = Command::new("make");
    c.current_dir(d.path()).arg("-s").arg("-f").arg(&mk);
    let (ok, out) = run(c);
    assert!(ok, "make with rkbuild.mk: {out}");
    let words = std::fs::read_to_string(d.path().join("words.txt")).unwrap();
    let words: Vec<&str> = words.lines().collect();
    for k in krustflags {
        assert_eq!(
            words.iter().filter(|w| **w == k).count(),
            1,
            "`{k}` did not reach the recipe as one word: {words:?}"
        );
    }
    no_canary(d.path());

    // A value that is not UTF-8 cannot reach rustc unchanged: refused at its line.
    let bad = config_with(d.path(), b"CONFIG_RKB_LATIN1=\"caf\xe9\"\n");
    let lines = std::fs::read(&bad).unwrap().split(|&b| b == b'\n').count() - 1;
    let mut c = common::rkbuild_185();
    c.args(["config", "-S"])
        .arg(common::minikernel())
        .arg("-O")
        .arg(d.path().join("o-latin1"))
        .arg("--config")
        .arg(&bad);
    let (ok, out) = run(c);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!("hostile.config:{lines}: the line is not UTF-8")),
        "{out}"
    );
    assert!(!d.path().join("o-latin1").exists());
}

#[test]
fn hostile_paths_build_or_are_refused_before_anything_is_written() {
    let d = tempfile::tempdir().unwrap();
    let cfg = common::minikernel().join("configs/x86_64.config");
    let rk = |o: &Path, sub: &str| {
        let mut c = common::rkbuild_185();
        c.current_dir(d.path())
            .arg(sub)
            .arg("-S")
            .arg(common::minikernel())
            .arg("-O")
            .arg(o)
            .arg("--config")
            .arg(&cfg);
        c
    };
    // Spaces, quotes, `$(…)`, backticks, `#`: every command is an argument vector and every
    // argument file holds one argument per line, so the build just works.
    let o = d
        .path()
        .join("o sp 'q' \"dq\" $(touch CANARY) `touch CANARY` #h;x");
    let mut c = rk(&o, "build");
    c.arg("-j2");
    let (ok, out) = run(c);
    assert!(ok, "{out}");
    assert!(o.join("rust/kernel.o").is_file());
    no_canary(d.path());

    // A line break would split an argument in rustc's argument files; non-UTF-8 cannot be
    // written to them.
    use std::os::unix::ffi::OsStrExt as _;
    let nl = d.path().join("nl\n--cfg=EVIL");
    let latin1 = d.path().join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    for (o, why) in [(&nl, "line break"), (&latin1, "not UTF-8")] {
        let (ok, out) = run(rk(o, "config"));
        assert!(!ok && out.contains(why) && out.contains("fix:"), "{out}");
        assert!(!o.exists(), "written before the refusal: {}", o.display());
    }

    // A module folder Kbuild's M= refuses is refused before anything is built.
    let m = d.path().join("my module");
    std::fs::create_dir_all(&m).unwrap();
    std::fs::write(m.join("Kbuild"), "obj-m := rust_hello.o\n").unwrap();
    let mut c = rk(&o, "build");
    c.arg("-M").arg(&m);
    let (ok, out) = run(c);
    assert!(
        !ok && out.contains("refuses external module folders with spaces"),
        "{out}"
    );
}
