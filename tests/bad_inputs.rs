//! Errors that point at the fix: a table of bad inputs, each run through the real `rkbuild`
//! on the example tree with the real rustc 1.85 and bindgen. Every one must exit non-zero
//! (never with a panic), say what it must (the `file:line` where there is one, the `fix:` or
//! the choices), and leave nothing half-written: no temporary file in the object tree, and no
//! `rustc_cfg` when it stopped before writing.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

struct Case {
    name: &'static str,
    args: Vec<String>,
    env: Vec<(&'static str, String)>,
    /// What the output must hold (each, anywhere in stdout + stderr).
    want: Vec<String>,
    /// It stops before writing anything (no rustc_cfg in the object tree).
    writes_nothing: bool,
}

fn case(name: &'static str, args: &[&str], want: &[&str]) -> Case {
    Case {
        name,
        args: args.iter().map(|a| a.to_string()).collect(),
        env: vec![],
        want: want.iter().map(|w| w.to_string()).collect(),
        writes_nothing: true,
    }
}

fn write(p: &Path, text: &str) -> String {
    if let Some(d) = p.parent() {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(p, text).unwrap();
    p.display().to_string()
}

/// Every file below `dir` whose name says it was being written.
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(p);
            } else if name.starts_with(".tmp") || name.ends_with(".tmp") {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn bad_inputs_point_at_the_fix() {
    let w = tempfile::tempdir().unwrap();
    let w = w.path();
    // A copy of the example tree the cases may break.
    let src = w.join("src");
    std::fs::create_dir_all(&src).unwrap();
    common::copy_tree(&common::minikernel(), &src);
    let s = src.display().to_string();
    let good = src.join("configs/x86_64.config").display().to_string();
    let good_text = common::read(Path::new(&good));
    let with = |name: &str, extra: &str| write(&w.join(name), &format!("{good_text}{extra}"));

    let bad_eq = with("no-eq.config", "CONFIG_FOO\n");
    let bad_space = with("space.config", "CONFIG_FOO=two words\n");
    let bad_quote = with("quote.config", "CONFIG_FOO=\"unterminated\n");
    let no_rust = write(
        &w.join("no-rust.config"),
        "CONFIG_X86_64=y\nCONFIG_64BIT=y\n",
    );
    let bad_layout = write(&w.join("bad.toml"), "name = \"x\"\nnot_a_key = 1\n");
    let spec = write(
        &w.join("spec.json"),
        "{\n  \"arch\": \"x86_64\",\n  oops\n}\n",
    );
    let empty = w.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let e = empty.display().to_string();
    let nomk = w.join("module-without-makefile");
    std::fs::create_dir_all(&nomk).unwrap();
    let nomk = nomk.display().to_string();

    // Trees broken in one place each.
    let broken = |name: &str, file: &str, text: &str| -> String {
        let t = w.join(name);
        std::fs::create_dir_all(&t).unwrap();
        common::copy_tree(&common::minikernel(), &t);
        let p = t.join(file);
        let old = std::fs::read_to_string(&p).unwrap_or_default();
        std::fs::write(&p, format!("{old}{text}")).unwrap();
        t.display().to_string()
    };
    let walker_shell = broken(
        "tree-shell",
        "drivers/misc/Makefile",
        "obj-$(CONFIG_RUST) += $(shell echo gone).o\n",
    );
    // A Rust source no list names, which that line could name.
    write(
        &Path::new(&walker_shell).join("drivers/misc/rust_unlisted.rs"),
        "// SPDX-License-Identifier: GPL-2.0\n",
    );
    let walker_dir = broken("tree-dir", "drivers/Makefile", "obj-y += nosuchdir/\n");
    let no_compile = broken("tree-rs", "drivers/misc/rust_hello.rs", "\nfn broken( {\n");

    let cfg = |c: &str| ["--config", c].map(String::from);
    let mut cases = vec![
        case(
            "a .config line without =",
            &["config", "-S", &s, "--config", &bad_eq],
            &["no-eq.config:", "CONFIG_FOO", "expected"],
        ),
        case(
            "a value with a space, unquoted",
            &["config", "-S", &s, "--config", &bad_space],
            &["space.config:"],
        ),
        case(
            "an unterminated quote",
            &["config", "-S", &s, "--config", &bad_quote],
            &["quote.config:"],
        ),
        case(
            "no .config",
            &["config", "-S", &s, "--config", "/nonexistent/.config"],
            &["/nonexistent/.config", "make defconfig"],
        ),
        case(
            "a folder as .config",
            &["config", "-S", &s, "--config", &e],
            &["cannot read"],
        ),
        case(
            "Rust off",
            &["config", "-S", &s, "--config", &no_rust],
            &["CONFIG_RUST is not set", "fix:"],
        ),
        case(
            "an unknown --arch",
            &["config", "-S", &s, "--config", &good, "--arch", "bogus"],
            &["unknown architecture", "fix:"],
        ),
        case(
            "--arch against the .config",
            &["config", "-S", &s, "--config", &good, "--arch", "arm64"],
            &["is for x86_64", "fix:"],
        ),
        case(
            "no such rustc",
            &[
                "config",
                "-S",
                &s,
                "--config",
                &good,
                "--rustc",
                "/nonexistent/rustc",
            ],
            &["/nonexistent/rustc", "fix:"],
        ),
        case(
            "a rustc that is not one",
            &[
                "config",
                "-S",
                &s,
                "--config",
                &good,
                "--rustc",
                "/bin/true",
            ],
            &["printed no version", "fix:"],
        ),
        case(
            "an unknown --kbuild",
            &["config", "-S", &s, "--config", &good, "--kbuild", "9.9"],
            &["unknown kernel vintage", "fix:"],
        ),
        case(
            "a missing layout file",
            &[
                "config",
                "-S",
                &s,
                "--config",
                &good,
                "--kbuild",
                "/nonexistent/layout.toml",
            ],
            &["/nonexistent/layout.toml"],
        ),
        case(
            "a layout file with an unknown key",
            &[
                "config",
                "-S",
                &s,
                "--config",
                &good,
                "--kbuild",
                &bad_layout,
            ],
            &["bad.toml", "not_a_key"],
        ),
        case(
            "not a kernel tree",
            &["config", "-S", &e, "--config", &good],
            &["not a kernel source tree", "fix:"],
        ),
        case(
            "no such library source",
            &[
                "build",
                "-S",
                &s,
                "--config",
                &good,
                "--rust-lib-src",
                "/nonexistent/library",
            ],
            &["/nonexistent/library", "fix:"],
        ),
        case(
            "no such bindgen",
            &[
                "build",
                "-S",
                &s,
                "--config",
                &good,
                "--bindgen",
                "/nonexistent/bindgen",
            ],
            &["/nonexistent/bindgen", "fix:"],
        ),
        case(
            "a makefile line the walker cannot read",
            &["build", "-S", &walker_shell, "--config", &good],
            &["drivers/misc/Makefile:"],
        ),
        case(
            "a listed folder without a makefile",
            &["build", "-S", &walker_dir, "--config", &good],
            &["drivers/Makefile:", "nosuchdir"],
        ),
        case(
            "a --remote of another scheme",
            &[
                "build",
                "-S",
                &s,
                "--config",
                &good,
                "--remote",
                "ftp://127.0.0.1:1",
            ],
            &["grpc://"],
        ),
        case(
            "a --remote without a host",
            &["build", "-S", &s, "--config", &good, "--remote", "grpc://"],
            &["grpc://"],
        ),
        case(
            "an object tree that cannot be made",
            &[
                "config",
                "-S",
                &s,
                "--config",
                &good,
                "-O",
                "/proc/rkbuild-cannot",
            ],
            &["/proc/rkbuild-cannot"],
        ),
        case(
            "a target no step makes",
            &["build", "-S", &s, "--config", &good, "rust/nosuch.o"],
            &["no step makes", "fix:"],
        ),
        case(
            "an unknown host test",
            &["test", "-S", &s, "--config", &good, "kernl"],
            &["did you mean `kernel`", "fix:"],
        ),
        case(
            "no such module folder",
            &[
                "build",
                "-S",
                &s,
                "--config",
                &good,
                "-M",
                "/nonexistent/module",
            ],
            &["/nonexistent/module"],
        ),
        case(
            "a module against an unbuilt kernel",
            &["build", "-S", &s, "--config", &good, "-M", &nomk],
            &["has no built `kernel` crate", "fix:"],
        ),
        case(
            "a malformed target spec",
            &["target", "check", &spec],
            &["spec.json", "3"],
        ),
        case(
            "no call log",
            &["log", "project", "/nonexistent/calls.jsonl"],
            &["/nonexistent/calls.jsonl"],
        ),
        case(
            "no such target spec",
            &["target", "check", "/nonexistent/spec.json"],
            &["/nonexistent/spec.json"],
        ),
        case(
            "no such rustfmt",
            &["fmt", "-S", &s, "--rustfmt", "/nonexistent/rustfmt"],
            &["/nonexistent/rustfmt", "fix:"],
        ),
        case(
            "docs of a layout without them",
            &["doc", "-S", &s, "--config", &good, "--kbuild", "2021"],
            &["2021"],
        ),
        case(
            "an unknown --message-format",
            &["build", "--message-format", "xml"],
            &["possible values"],
        ),
        case("an unknown command", &["bulid"], &["build"]),
        case(
            "why without a kernel tree",
            &["why", "RUST", "-S", &e, "--config", &good],
            &["not a kernel source tree"],
        ),
        case(
            "an unknown step for --action",
            &[
                "plan",
                "-S",
                &s,
                "--config",
                &good,
                "--action",
                "rust/kernl.o",
            ],
            &["did you mean `rust/kernel.o`", "fix:"],
        ),
        case(
            "--jobs that is not a number",
            &["build", "-S", &s, "--config", &good, "-j", "many"],
            &["invalid value"],
        ),
        case(
            "an unknown shell for completions",
            &["completions", "tcsh"],
            &["possible values"],
        ),
        case(
            "a matrix cell's missing configuration",
            &[
                "matrix",
                "-S",
                &s,
                "--root",
                &w.join("m").display().to_string(),
                "--config",
                "/nonexistent/m.config",
            ],
            &["/nonexistent/m.config"],
        ),
    ];
    // Cases that need more than arguments.
    let mut c = case(
        "no libclang where LIBCLANG_PATH says",
        &["build", "-S", &s, "--config", &good],
        &["libclang", "fix:"],
    );
    c.env = vec![("LIBCLANG_PATH", "/nonexistent/llvm/lib".into())];
    cases.push(c);
    let mut c = case(
        "KRUSTFLAGS rustc rejects",
        &["build", "-S", &s, "--config", &good, "-j1"],
        &["-Cno-such-option", "rust/core.o` failed"],
    );
    c.env = vec![("KRUSTFLAGS", "-Cno-such-option".into())];
    c.writes_nothing = false;
    cases.push(c);
    // A driver that does not compile: the build stops at it, rustc's file:line shown, and
    // the failed object is not left behind.
    let mut c = case(
        "a driver that does not compile",
        &["build", "-S", &no_compile, "--config", &good, "-j1"],
        &["rust_hello.rs:", "rust_hello.o` failed"],
    );
    c.writes_nothing = false;
    cases.push(c);
    let _ = cfg;

    // A full disk: the object tree on a 256 KiB tmpfs (rkbuild's CI runs as root); the build
    // stops at the first object with the system's message and no temporary file left.
    let tiny = w.join("tiny");
    std::fs::create_dir_all(&tiny).unwrap();
    let st = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(&tiny)
        .status()
        .expect("mount (util-linux) is needed");
    assert!(
        st.success(),
        "cannot mount a tmpfs at {} (run as root)",
        tiny.display()
    );
    struct Unmount(PathBuf);
    impl Drop for Unmount {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg(&self.0).status();
        }
    }
    let _unmount = Unmount(tiny.clone());
    let tiny_o = tiny.join("o").display().to_string();
    let mut c = case(
        "a full disk",
        &["build", "-S", &s, "--config", &good, "-O", &tiny_o, "-j1"],
        &["No space left on device", "rust/core.o` failed"],
    );
    c.writes_nothing = false;
    cases.push(c);
    // These stop while planning, after `config`'s files were written whole.
    const LATE: [&str; 6] = [
        "a makefile line the walker cannot read",
        "a listed folder without a makefile",
        "a target no step makes",
        "an unknown host test",
        "docs of a layout without them",
        "an unknown step for --action",
    ];
    for c in cases.iter_mut().filter(|c| LATE.contains(&c.name)) {
        c.writes_nothing = false;
    }
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let mut failures = vec![];
    for (i, c) in cases.iter().enumerate() {
        let obj = w.join(format!("o{i}"));
        let mut cmd: Command = common::rkbuild_185();
        // Each case in its own object tree, unless the case names one.
        let mut args = c.args.clone();
        let names_obj = args.iter().any(|a| a == "-O" || a == "--root");
        let sub = !args[0].starts_with('-')
            && ["config", "build", "test", "doc", "why", "plan"].contains(&args[0].as_str());
        if sub && !names_obj {
            args.insert(1, obj.display().to_string());
            args.insert(1, "-O".into());
        }
        cmd.args(&args);
        for (k, v) in &c.env {
            cmd.env(k, v);
        }
        let o = cmd.output().expect("rkbuild runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        let code = o.status.code();
        let mut wrong = vec![];
        if o.status.success() {
            wrong.push("it succeeded".to_string());
        }
        if code == Some(101) || text.contains("panicked at") {
            wrong.push("it panicked".into());
        }
        for want in &c.want {
            if !text.contains(want.as_str()) {
                wrong.push(format!("no `{want}` in what it said"));
            }
        }
        let named = args
            .iter()
            .position(|a| a == "-O")
            .map(|i| PathBuf::from(&args[i + 1]));
        let tmp = temporaries(named.as_deref().unwrap_or(&obj));
        if !tmp.is_empty() {
            wrong.push(format!("left {tmp:?}"));
        }
        if c.writes_nothing && obj.join("include/generated/rustc_cfg").exists() {
            wrong.push("wrote rustc_cfg before stopping".into());
        }
        if c.name == "a driver that does not compile"
            && obj.join("drivers/misc/rust_hello.o").exists()
        {
            wrong.push("left the failed object".into());
        }
        eprintln!("  {:2} {:<45} exit {:?}", i + 1, c.name, code);
        if !wrong.is_empty() {
            failures.push(format!(
                "{} ({}):\n    {}\n  said:\n{}",
                c.name,
                wrong.join("; "),
                args.join(" "),
                text.trim_end()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} bad inputs are not handled well:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
