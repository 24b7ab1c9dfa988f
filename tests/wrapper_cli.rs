//! The rustc wrapper against the real rustc: probes, exit statuses, stdio, the log under
//! parallel writers, clippy, and the bad inputs of issue 6.

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn rustc() -> String {
    common::tool_env("RKBUILD_TEST_RUSTC_185")
}

/// A `rkbuild-rustc` link to the binary under test, in its own folder.
fn link(dir: &Path) -> PathBuf {
    let l = dir.join("rkbuild-rustc");
    // Threads of one test make it at once: the first one wins.
    match std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_rkbuild"), &l) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => panic!("{e}"),
        _ => {}
    }
    l
}

/// An executable shell script standing in for the compiler.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    p
}

fn run(mut c: Command, stdin: &[u8]) -> Output {
    c.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut sin = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let t = std::thread::spawn(move || {
        let _ = sin.write_all(&input);
    });
    let o = child.wait_with_output().unwrap();
    t.join().unwrap();
    o
}

/// Both forms of the wrapper: the `rkbuild-rustc` link to rkbuild, and the program
/// `rkbuild-rustc` (the fast path alone, handing the rest to the `rkbuild` beside it).
fn wrappers(dir: &Path) -> [PathBuf; 2] {
    [
        link(dir),
        PathBuf::from(env!("CARGO_BIN_EXE_rkbuild-rustc")),
    ]
}

fn wrapped(dir: &Path, real: &str, args: &[&str], log: Option<&Path>) -> Command {
    wrapped_by(&link(dir), dir, real, args, log)
}

fn wrapped_by(w: &Path, dir: &Path, real: &str, args: &[&str], log: Option<&Path>) -> Command {
    let mut c = Command::new(w);
    c.args(args)
        .current_dir(dir)
        .env("RKBUILD_RUSTC", real)
        .env_remove("RKBUILD_LOG")
        .env_remove("RKBUILD_CLIPPY")
        .env_remove("CLIPPY")
        .env_remove("KBUILD_CLIPPY");
    if let Some(l) = log {
        c.env("RKBUILD_LOG", l);
    }
    c
}

fn direct(dir: &Path, real: &str, args: &[&str]) -> Command {
    let mut c = Command::new(real);
    c.args(args).current_dir(dir);
    c
}

fn assert_same(a: &Output, b: &Output, what: &str) {
    assert_eq!(a.status.code(), b.status.code(), "{what}: status");
    assert_eq!(
        String::from_utf8_lossy(&a.stdout),
        String::from_utf8_lossy(&b.stdout),
        "{what}: stdout"
    );
    assert_eq!(
        String::from_utf8_lossy(&a.stderr),
        String::from_utf8_lossy(&b.stderr),
        "{what}: stderr"
    );
}

/// The log holds one call, recorded as death by `sig` (status 128 + sig, as a shell says).
fn assert_logged_death(log: &Path, sig: i32) {
    let l = log_lines(log);
    assert_eq!(l.len(), 1, "{l:?}");
    assert_eq!(l[0]["signal"], sig);
    assert_eq!(l[0]["status"], 128 + sig);
}

fn log_lines(p: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad log line {l:?}: {e}")))
        .collect()
}

/// Kbuild's probes behave exactly as with rustc, with and without a log.
#[test]
fn kbuild_probes_are_transparent() {
    let d = tempfile::tempdir().unwrap();
    let r = rustc();
    let log = d.path().join("calls.jsonl");
    let probe_src = b"#![no_std]\npub fn f() {}\n";
    let cases: &[(&[&str], &[u8])] = &[
        (&["--version"], b""),
        (&["-vV"], b""),
        (&["--print", "sysroot"], b""),
        (
            &[
                "--print",
                "file-names",
                "--crate-name",
                "x",
                "--crate-type=lib",
                "-",
            ],
            b"",
        ),
        // rustc-option: a flag that exists and one that does not, on a crate from stdin.
        (
            &[
                "-Copt-level=2",
                "--crate-type=rlib",
                "--emit=obj=/dev/null",
                "-",
            ],
            probe_src,
        ),
        (
            &[
                "-Zno-such-flag",
                "--crate-type=rlib",
                "--emit=obj=/dev/null",
                "-",
            ],
            probe_src,
        ),
        // A compile error: status 1 and the same diagnostics.
        (
            &["--crate-type=lib", "--emit=metadata=/dev/null", "-"],
            b"pub fn f() -> u8 { \"no\" }\n",
        ),
    ];
    for w in wrappers(d.path()) {
        for (args, input) in cases {
            let want = run(direct(d.path(), &r, args), input);
            for l in [None, Some(log.as_path())] {
                let got = run(wrapped_by(&w, d.path(), &r, args, l), input);
                assert_same(&got, &want, &format!("{} {args:?} log={l:?}", w.display()));
            }
        }
    }
    let lines = log_lines(&log);
    assert_eq!(lines.len(), 2 * cases.len());
    assert_eq!(lines[cases.len() + 1]["argv"][1], "-vV");
    assert_eq!(lines[1]["argv"][1], "-vV");
    assert_eq!(lines[1]["argv"][0], r);
    assert_eq!(lines[6]["status"], 1);
    assert!(
        lines[4]["crate_name"].is_null(),
        "a stdin probe names no crate"
    );
}

/// stdin, stdout and stderr pass byte for byte (non-UTF-8 too), in both modes.
#[test]
fn stdio_bytes_pass_through() {
    let d = tempfile::tempdir().unwrap();
    let script = script(
        d.path(),
        "echo-both",
        "#!/bin/sh\ntee /dev/stderr\nexit 7\n",
    );
    let bytes: Vec<u8> = (0..=255u8).cycle().take(300_000).collect();
    for w in wrappers(d.path()) {
        for l in [None, Some(d.path().join("l.jsonl"))] {
            let o = run(
                wrapped_by(&w, d.path(), script.to_str().unwrap(), &["x"], l.as_deref()),
                &bytes,
            );
            assert_eq!(o.status.code(), Some(7));
            assert!(o.stdout == bytes, "stdout differs ({w:?}, log={l:?})");
            assert!(o.stderr == bytes, "stderr differs ({w:?}, log={l:?})");
        }
    }
}

/// Death by signal N: the log records status 128+N and the signal, and the caller sees the
/// wrapper die by the same signal, with a log (it re-raises) or without (the compiler replaced
/// it).
#[test]
fn death_by_signal_is_passed_on() {
    use std::os::unix::process::ExitStatusExt as _;
    let d = tempfile::tempdir().unwrap();
    let script = script(d.path(), "dies", "#!/bin/sh\nkill -TERM $$\n");
    for (i, w) in wrappers(d.path()).iter().enumerate() {
        let log = d.path().join(format!("l{i}.jsonl"));
        let o = run(
            wrapped_by(w, d.path(), script.to_str().unwrap(), &[], Some(&log)),
            b"",
        );
        assert_eq!(o.status.signal(), Some(15), "{w:?}");
        let l = log_lines(&log);
        assert_eq!(l[0]["status"], 143);
        assert_eq!(l[0]["signal"], 15);
        let o = run(
            wrapped_by(w, d.path(), script.to_str().unwrap(), &[], None),
            b"",
        );
        assert_eq!(o.status.signal(), Some(15), "{w:?}");
    }
}

/// A reader that goes away: the compiler dies of SIGPIPE writing to it, the log says so, and
/// the caller sees the wrapper die of SIGPIPE too (with a log: it re-raises; without: the
/// compiler replaced it).
#[test]
fn sigpipe_is_passed_on() {
    use std::io::Read as _;
    use std::os::unix::process::ExitStatusExt as _;
    let d = tempfile::tempdir().unwrap();
    let script = script(d.path(), "chatty", "#!/bin/sh\nexec yes rkbuild\n");
    for (w, log) in wrappers(d.path())
        .into_iter()
        .enumerate()
        .flat_map(|(i, w)| {
            [
                (w.clone(), Some(d.path().join(format!("l{i}.jsonl")))),
                (w, None),
            ]
        })
    {
        let mut c = wrapped_by(&w, d.path(), script.to_str().unwrap(), &[], log.as_deref());
        let mut child = c.stdout(Stdio::piped()).spawn().unwrap();
        let mut out = child.stdout.take().unwrap();
        let mut first = [0u8; 4096];
        out.read_exact(&mut first).unwrap();
        drop(out);
        let st = child.wait().unwrap();
        assert_eq!(
            st.signal(),
            Some(libc::SIGPIPE),
            "{w:?} log={log:?}: {st:?}"
        );
        if let Some(log) = &log {
            assert_logged_death(log, libc::SIGPIPE);
        }
    }
}

/// `-` as the input: the real rustc reads the crate from standard input through the wrapper,
/// and writes what it writes without it.
#[test]
fn stdin_as_the_crate_source() {
    let d = tempfile::tempdir().unwrap();
    let src = b"//! from stdin\npub fn answer() -> u32 { 42 }\n";
    let args = |out| {
        [
            "--crate-name",
            "from_stdin",
            "--crate-type",
            "rlib",
            "--emit=metadata",
            "-o",
            out,
            "-",
        ]
    };
    let (a, b) = (args("wrapped.rmeta"), args("direct.rmeta"));
    let log = d.path().join("l.jsonl");
    let w = run(wrapped(d.path(), &rustc(), &a, Some(&log)), src);
    let r = run(direct(d.path(), &rustc(), &b), src);
    assert_same(&w, &r, "rustc -");
    assert!(w.status.success(), "{}", String::from_utf8_lossy(&w.stderr));
    let (x, y) = (
        std::fs::read(d.path().join("wrapped.rmeta")).unwrap(),
        std::fs::read(d.path().join("direct.rmeta")).unwrap(),
    );
    assert_eq!(
        x.len(),
        y.len(),
        "the crate read through the wrapper differs"
    );
    let l = log_lines(&log);
    assert_eq!(l[0]["argv"].as_array().unwrap().last().unwrap(), "-");
    assert_eq!(l[0]["status"], 0);
}

/// Ctrl-C at the terminal reaches the whole process group: the compiler dies of SIGINT, the
/// wrapper still writes its log line, then dies of SIGINT too, as make expects.
#[test]
fn ctrl_c_keeps_the_log_line() {
    use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
    let d = tempfile::tempdir().unwrap();
    let script = script(
        d.path(),
        "slow",
        "#!/bin/sh\ntouch started\nexec sleep 30\n",
    );
    let log = d.path().join("l.jsonl");
    let mut c = wrapped(d.path(), script.to_str().unwrap(), &["-vV"], Some(&log));
    c.process_group(0);
    // As a terminal's foreground job starts: SIGINT not ignored (a harness started in the
    // background of a shell without job control would pass its ignored SIGINT on).
    // SAFETY: signal(2) is async-signal-safe.
    unsafe {
        c.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = c.spawn().unwrap();
    let pgid = child.id() as i32;
    // Wait until the compiler runs in the group, then interrupt the group.
    let started = d.path().join("started");
    let t0 = std::time::Instant::now();
    while !started.exists() {
        assert!(t0.elapsed().as_secs() < 10, "the compiler never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: signalling the test's own child process group.
    assert_eq!(unsafe { libc::kill(-pgid, libc::SIGINT) }, 0);
    let st = child.wait().unwrap();
    assert_eq!(st.signal(), Some(libc::SIGINT), "{st:?}");
    assert_logged_death(&log, libc::SIGINT);
}

/// 8 threads × 25 calls with 40 KiB command lines into one log: every line whole, none lost.
#[test]
fn parallel_writers_never_interleave() {
    let d = tempfile::tempdir().unwrap();
    let log = d.path().join("par.jsonl");
    let t = which_true();
    let big = "x".repeat(40 * 1024);
    std::thread::scope(|s| {
        for th in 0..8 {
            let (d, log, t, big) = (d.path(), &log, &t, &big);
            s.spawn(move || {
                for i in 0..25 {
                    let name = format!("c{th}_{i}");
                    let o = run(
                        wrapped(
                            d,
                            t,
                            &["--crate-name", &name, "--cfg", big, "r.rs"],
                            Some(log),
                        ),
                        b"",
                    );
                    assert!(o.status.success());
                }
            });
        }
    });
    let lines = log_lines(&log);
    assert_eq!(lines.len(), 200);
    let mut names: Vec<String> = lines
        .iter()
        .map(|l| l["crate_name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 200);
}

fn which_true() -> String {
    for p in ["/bin/true", "/usr/bin/true"] {
        if Path::new(p).exists() {
            return p.into();
        }
    }
    panic!("`true` (coreutils) not found");
}

/// A `rustc` link to rkbuild first on PATH is skipped; the real one behind it runs.
#[test]
fn path_search_skips_itself() {
    let d = tempfile::tempdir().unwrap();
    let fake = d.path().join("bin");
    std::fs::create_dir(&fake).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_rkbuild"), fake.join("rustc")).unwrap();
    // A `rustc` link to the program rkbuild-rustc is skipped as well.
    let fake2 = d.path().join("bin2");
    std::fs::create_dir(&fake2).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_rkbuild-rustc"), fake2.join("rustc")).unwrap();
    for w in wrappers(d.path()) {
        let r = rustc();
        let real_dir = Path::new(&r).parent().unwrap();
        let mut c = wrapped_by(&w, d.path(), "", &["-vV"], None);
        c.env_remove("RKBUILD_RUSTC").env(
            "PATH",
            format!(
                "{}:{}:{}",
                fake.display(),
                fake2.display(),
                real_dir.display()
            ),
        );
        let o = run(c, b"");
        assert_same(&o, &run(direct(d.path(), &r, &["-vV"]), b""), "PATH rustc");

        // Only ourselves on PATH: a clear error naming RKBUILD_RUSTC.
        let mut c = wrapped_by(&w, d.path(), "", &["-vV"], None);
        c.env_remove("RKBUILD_RUSTC").env("PATH", &fake);
        let o = run(c, b"");
        assert_eq!(o.status.code(), Some(127));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("no real rustc found") && err.contains("RKBUILD_RUSTC"),
            "{err}"
        );

        // RKBUILD_RUSTC naming the wrapper itself.
        let o = run(
            wrapped_by(
                &w,
                d.path(),
                fake.join("rustc").to_str().unwrap(),
                &["-vV"],
                None,
            ),
            b"",
        );
        assert_eq!(o.status.code(), Some(127));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("recursion") && err.contains("RKBUILD_RUSTC"),
            "{err}"
        );

        // A rustc script that calls the wrapper again: stopped, not looping.
        let body = format!("#!/bin/sh\nexec {} \"$@\"\n", w.display());
        let script = script(d.path(), "loop", &body);
        let o = run(
            wrapped_by(&w, d.path(), script.to_str().unwrap(), &["-V"], None),
            b"",
        );
        assert_eq!(o.status.code(), Some(127));
        assert!(String::from_utf8_lossy(&o.stderr).contains("run again"));

        // Missing RKBUILD_RUSTC target.
        let o = run(
            wrapped_by(&w, d.path(), "/nonexistent/rustc", &["-V"], None),
            b"",
        );
        assert_eq!(o.status.code(), Some(127));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("RKBUILD_RUSTC=`/nonexistent/rustc`"), "{err}");

        // A bare name in RKBUILD_RUSTC is looked up on PATH, skipping the rkbuild link.
        let mut c = wrapped_by(&w, d.path(), "rustc", &["-vV"], None);
        c.env(
            "PATH",
            format!(
                "{}:{}:{}",
                fake.display(),
                fake2.display(),
                real_dir.display()
            ),
        );
        assert_same(
            &run(c, b""),
            &run(direct(d.path(), &r, &["-vV"]), b""),
            "bare name",
        );
    }
}

/// `rkbuild rustc [--] ARGS` is the same wrapper.
#[test]
fn subcommand_form() {
    let d = tempfile::tempdir().unwrap();
    let r = rustc();
    let want = run(direct(d.path(), &r, &["-vV"]), b"");
    for args in [&["rustc", "-vV"][..], &["rustc", "--", "-vV"][..]] {
        let mut c = Command::new(env!("CARGO_BIN_EXE_rkbuild"));
        c.args(args)
            .env("RKBUILD_RUSTC", &r)
            .env_remove("RKBUILD_LOG");
        assert_same(&run(c, b""), &want, &format!("{args:?}"));
    }
}

/// An unwritable log: one warning, and the compile still runs.
#[test]
fn unwritable_log_warns_once_and_compiles() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("a.rs"), "pub fn f() {}\n").unwrap();
    let o = run(
        wrapped(
            d.path(),
            &rustc(),
            &["--crate-type=lib", "--crate-name=a", "a.rs"],
            Some(Path::new("/nonexistent/dir/log.jsonl")),
        ),
        b"",
    );
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.matches("warning").count(), 1, "{err}");
    assert!(err.contains("/nonexistent/dir/log.jsonl"));
    assert!(d.path().join("liba.rlib").is_file());
}

fn clippy_driver() -> String {
    std::env::var("RKBUILD_TEST_CLIPPY_DRIVER")
        .ok()
        .or_else(|| {
            which::which("clippy-driver")
                .ok()
                .map(|p| p.display().to_string())
        })
        .expect(
            "clippy-driver is needed (rustup component add clippy, or RKBUILD_TEST_CLIPPY_DRIVER)",
        )
}

/// RKBUILD_CLIPPY=1 / CLIPPY=1 lint through clippy-driver, except `core`.
#[test]
fn clippy_on_request_except_core() {
    let d = tempfile::tempdir().unwrap();
    // approx_constant is deny-by-default in clippy, unknown to rustc.
    std::fs::write(d.path().join("m.rs"), "pub fn pi() -> f64 { 3.14159 }\n").unwrap();
    let cd = clippy_driver();
    let log = d.path().join("l.jsonl");
    for var in ["RKBUILD_CLIPPY", "CLIPPY"] {
        let mut c = wrapped(
            d.path(),
            "rustc",
            &[
                "--crate-type=lib",
                "--crate-name=m",
                "--emit=metadata",
                "m.rs",
            ],
            Some(&log),
        );
        c.env(var, "1").env("RKBUILD_CLIPPY_DRIVER", &cd);
        let o = run(c, b"");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && err.contains("approx_constant"),
            "{var}: {err}"
        );
    }
    let mut c = wrapped(
        d.path(),
        "rustc",
        &[
            "--crate-type=lib",
            "--crate-name=core",
            "--emit=metadata",
            "m.rs",
        ],
        Some(&log),
    );
    c.env("RKBUILD_CLIPPY", "1")
        .env("RKBUILD_CLIPPY_DRIVER", &cd);
    let o = run(c, b"");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let l = log_lines(&log);
    assert_eq!(l[0]["driver"], "clippy-driver");
    assert_eq!(l[2]["driver"], "rustc");
}

/// A real two-crate build through the wrapper, then `log project` and `log summary`.
#[test]
fn project_and_summary_from_a_real_log() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::create_dir(p.join("gen")).unwrap();
    std::fs::write(p.join("gen/cfg"), "--cfg=CONFIG_A\n--cfg=CONFIG_B=\"y\"\n").unwrap();
    std::fs::write(p.join("a.rs"), "#![no_std]\npub fn f() {}\n").unwrap();
    std::fs::write(p.join("b.rs"), "#![no_std]\npub fn g() { a::f() }\n").unwrap();
    let log = p.join("calls.jsonl");
    let r = rustc();
    let a = run(
        wrapped(
            p,
            &r,
            &[
                "--edition=2021",
                "@gen/cfg",
                "--crate-type",
                "rlib",
                "--crate-name",
                "a",
                "--emit=metadata=liba.rmeta",
                "--emit=link=liba.rlib",
                "a.rs",
            ],
            Some(&log),
        ),
        b"",
    );
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    let b = run(
        wrapped(
            p,
            &r,
            &[
                "--edition=2018",
                "--cfg",
                "MODULE",
                "--extern",
                "a=liba.rlib",
                "--crate-type=rlib",
                "--crate-name=b",
                "--emit=link=libb.rlib",
                "b.rs",
            ],
            Some(&log),
        ),
        b"",
    );
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    run(wrapped(p, &r, &["-vV"], Some(&log)), b"");
    // A damaged line is skipped and named.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&log)
        .unwrap()
        .write_all(b"{not json\n")
        .unwrap();

    let o = Command::new(env!("CARGO_BIN_EXE_rkbuild"))
        .args(["log", "project"])
        .arg(&log)
        .env("RUST_LIB_SRC", common::tool_env("RKBUILD_TEST_LIB_185"))
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 4"), "{err}");
    let pj: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let crates = pj["crates"].as_array().unwrap();
    let by = |n: &str| {
        crates
            .iter()
            .position(|c| c["display_name"] == n)
            .unwrap_or_else(|| panic!("no {n}"))
    };
    let (ia, ib) = (by("a"), by("b"));
    assert_eq!(
        crates[ia]["cfg"],
        serde_json::json!(["CONFIG_A", "CONFIG_B=\"y\""])
    );
    assert_eq!(crates[ia]["edition"], "2021");
    assert_eq!(crates[ib]["edition"], "2018");
    assert_eq!(crates[ib]["cfg"], serde_json::json!(["MODULE"]));
    let deps: Vec<(u64, &str)> = crates[ib]["deps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["crate"].as_u64().unwrap(), d["name"].as_str().unwrap()))
        .collect();
    assert!(deps.contains(&(ia as u64, "a")), "{deps:?}");
    // Host crates get the std of the library source.
    let istd = by("std");
    assert!(deps.contains(&(istd as u64, "std")), "{deps:?}");
    assert_eq!(
        Path::new(crates[ia]["root_module"].as_str().unwrap()),
        std::fs::canonicalize(p.join("a.rs")).unwrap()
    );

    let o = Command::new(env!("CARGO_BIN_EXE_rkbuild"))
        .args(["log", "summary"])
        .arg(&log)
        .output()
        .unwrap();
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("3 rustc calls: 2 compiles, 0 failed"),
        "{out}"
    );
    assert!(out.contains(" a ") && out.contains(" b "), "{out}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 4"));
}
