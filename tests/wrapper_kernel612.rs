//! The real thing: Linux 6.12's own make, `prepare samples/rust/`, once with plain rustc and
//! once with `RUSTC=rkbuild-rustc` recording every call; then the objects, the log, the
//! rust-project.json from the log and an out-of-tree module built from templates/make/.
//!
//! Slow (a cold run builds the Rust part of the kernel twice: about 8 minutes on 2 cores;
//! with the plain build cached about 4). The plain O= folder is reused between runs when its
//! recipe stamp matches (`RKBUILD_WRAP_612_PLAIN`, default /tmp/rkbuild-wrap-612-plain; make
//! then only checks it is up to date); the wrapped one is always built from scratch.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::Value;

use common::kernel612::{configure_and_build, ok, plain_dir, plain_tree, Env};

/// One of the other writers of the log: calls the wrapper (with `true` as the compiler and a
/// 16 KiB argument, ten times a second) until told to stop; returns how many calls it made.
fn appender(t: usize, stop: &std::sync::atomic::AtomicBool, log: &Path, link: &Path) -> usize {
    let big = "y".repeat(16 * 1024);
    let mut n = 0;
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let st = Command::new(link)
            .args([
                "--crate-name",
                &format!("rkb_appender_{t}_{n}"),
                "--cfg",
                &big,
                "x.rs",
            ])
            .env("RKBUILD_LOG", log)
            .env("RKBUILD_RUSTC", "/bin/true")
            .env_remove("RKBUILD_CACHE_DIR")
            .env_remove("RKBUILD_REMOTE")
            .status()
            .unwrap();
        assert!(st.success());
        n += 1;
        // Steady, not a fork bomb: make has the two cores.
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    n
}

/// The Rust objects of the build, relative to the object tree.
fn rust_objects(o: &Path) -> Vec<String> {
    let mut v = vec![];
    for dir in ["rust", "samples/rust"] {
        for e in std::fs::read_dir(o.join(dir)).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if [".o", ".rmeta", ".so", ".rlib"]
                .iter()
                .any(|x| name.ends_with(x))
                && !name.starts_with('.')
                && name != "helpers.o"
            {
                v.push(format!("{dir}/{name}"));
            }
        }
    }
    v.sort();
    v
}

/// The crates of the oracle's kbuild-commands.txt: (crate name, object it builds).
fn oracle_crates() -> Vec<(String, String)> {
    let text = common::read(&common::oracle(
        "linux-6.12/x86_64-defconfig-rust/kbuild-commands.txt",
    ));
    let mut v = vec![];
    for l in text.lines() {
        let Some((target, cmd)) = l
            .strip_prefix("savedcmd_")
            .and_then(|l| l.split_once(" := "))
        else {
            continue;
        };
        let words = shlex::split(cmd.split(" ;").next().unwrap()).unwrap();
        if !words.iter().any(|w| w.ends_with("rustc")) {
            continue;
        }
        if let Some(i) = words.iter().position(|w| w == "--crate-name") {
            v.push((words[i + 1].clone(), target.to_string()));
        }
    }
    v
}

/// The rustc arguments of a `.cmd` file's savedcmd (after the program, up to ` ;`).
fn cmd_file_args(o: &Path, target: &str) -> Vec<String> {
    let p = Path::new(target);
    let cmd = o
        .join(p.parent().unwrap())
        .join(format!(".{}.cmd", p.file_name().unwrap().to_string_lossy()));
    let text = common::read(&cmd);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix(&format!("savedcmd_{target} := ")))
        .unwrap_or_else(|| panic!("no savedcmd in {}", cmd.display()));
    let words = shlex::split(line).unwrap();
    let mut it = words
        .into_iter()
        .take_while(|w| w != ";" && !w.starts_with(';'));
    // Skip `VAR=value` words and the program.
    for w in it.by_ref() {
        if !w.contains('=') || w.starts_with('-') {
            break;
        }
    }
    it.collect()
}

fn canon(p: &str) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| PathBuf::from(p))
}

#[test]
fn kernel_612_make_through_the_wrapper() {
    let t0 = Instant::now();
    let env = Env::get();
    let plain = plain_dir();
    let wrapped = std::env::var_os("RKBUILD_WRAP_612_WRAPPED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp/rkbuild-wrap-612-wrapped"));
    let work = tempfile::tempdir().unwrap();
    let link = work.path().join("rkbuild-rustc");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_rkbuild"), &link).unwrap();
    let link_s = link.to_str().unwrap();

    // 1. Plain build (cached by its inputs: then make only checks it is up to date).
    plain_tree(&env, &plain);

    // 1b. rkbuild's own plan for this make-prepared tree: every command equals the one make
    //     recorded (helpers.o, the bindgen runs and objtool included).
    plan_equals_make(&env, &plain);
    // 1c. `rkbuild test` equals `make rusttest`, `rkbuild doc` equals `make rustdoc`.
    host_tests_and_docs(&env, &plain);
    // 1d. The kernel crate's doctests as KUnit tests: rkbuild's four files are make's.
    doctests_kunit(&env, &plain);

    // 2. The same through the wrapper, from scratch, recording.
    // (RKBUILD_WRAP_612_KEEP=1 reuses the last wrapped build: for debugging this test only.)
    let log = wrapped.join("rustc-calls.jsonl");
    let keep = std::env::var_os("RKBUILD_WRAP_612_KEEP").is_some_and(|v| v == "1") && log.exists();
    let tw = Instant::now();
    // The step cache is on (an empty one) and shared through a real REAPI server (BuildGrid):
    // every compile stores what it made there, for step 9.
    let cache = work.path().join("step-cache");
    let real = PathBuf::from(&env.rustc);
    let server = common::reapi::start_buildgrid();
    let remote = PathBuf::from(server.url());
    if !keep {
        let _ = std::fs::remove_dir_all(&wrapped);
        std::fs::create_dir_all(&wrapped).unwrap();
        let wenv: [(&str, &Path); 4] = [
            ("RKBUILD_LOG", &log),
            ("RKBUILD_RUSTC", &real),
            ("RKBUILD_CACHE_DIR", &cache),
            ("RKBUILD_REMOTE", &remote),
        ];
        // Under load: 8 other processes append to the same log through the wrapper all the
        // while make builds (issue 17): every line must stay whole and none be lost.
        let stop = std::sync::atomic::AtomicBool::new(false);
        let appended = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|t| {
                    let (stop, log, link) = (&stop, &log, &link);
                    s.spawn(move || appender(t, stop, log, link))
                })
                .collect();
            configure_and_build(&env, &wrapped, link_s, &wenv);
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            handles
                .into_iter()
                .map(|h| h.join().unwrap())
                .collect::<Vec<usize>>()
        });
        std::fs::write(
            wrapped.join(".rkbuild-test-appended"),
            serde_json::to_string(&appended).unwrap(),
        )
        .unwrap();
    }
    let wrapped_secs = tw.elapsed().as_secs_f64();

    // 3. Every Rust object: byte for byte.
    let objs = rust_objects(&wrapped);
    assert_eq!(
        objs,
        rust_objects(&plain),
        "the two builds made different sets of objects"
    );
    // 7 objects + 7 metadata files in rust/, libmacros.so, 2 samples.
    assert!(objs.len() >= 17, "too few Rust objects: {objs:?}");
    let mut hash_only = vec![];
    for f in &objs {
        let a = std::fs::read(plain.join(f)).unwrap();
        let b = std::fs::read(wrapped.join(f)).unwrap();
        if a == b {
            continue;
        }
        // Crate metadata (`.rmeta`, and the `.rustc` section of the proc-macro `.so`) is not
        // reproducible across folders, nor always across runs: it holds the crate hash (SVH),
        // into which rustc hashes its working folder (the O= folder, which differs here);
        // for crates that `include!` generated files through `env!("OBJTREE")` (bindings,
        // uapi) those files' absolute paths; and rustc 1.85 writes `doc_link_resolutions` in
        // an unstable order (rust-lang/rust#124357: same size, entries permuted). Code —
        // every `.o` — must be identical; step 7 reruns crates in the wrapped folder.
        assert!(
            f.ends_with(".rmeta") || f.ends_with(".so"),
            "{f} differs between the plain and the wrapped build"
        );
        let plain_path = plain.to_str().unwrap().as_bytes();
        let embeds_o = a.windows(plain_path.len()).any(|w| w == plain_path);
        let n = a.iter().zip(&b).filter(|(x, y)| x != y).count();
        if a.len() == b.len() {
            hash_only.push(format!("{f} (same size, {n} bytes differ)"));
        } else {
            assert!(
                embeds_o,
                "{f}: sizes differ but it holds no path under {}",
                plain.display()
            );
            hash_only.push(format!("{f} (O= paths, {} vs {} bytes)", a.len(), b.len()));
        }
    }
    eprintln!(
        "  {} Rust objects: {} identical; metadata differing by the O= folder: {}",
        objs.len(),
        objs.len() - hash_only.len(),
        hash_only.join(", ")
    );

    // 4. The log: every line whole, every crate of the oracle, arguments unchanged.
    let text = common::read(&log);
    let recs: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad log line: {e}: {l}")))
        .collect();
    // The appenders' lines: exactly as many as they made, each once.
    let appended: Vec<usize> =
        serde_json::from_str(&common::read(&wrapped.join(".rkbuild-test-appended"))).unwrap();
    for (t, n) in appended.iter().enumerate() {
        let mut mine: Vec<&str> = recs
            .iter()
            .filter_map(|r| r["crate_name"].as_str())
            .filter(|c| c.starts_with(&format!("rkb_appender_{t}_")))
            .collect();
        mine.sort();
        mine.dedup();
        assert_eq!(
            mine.len(),
            *n,
            "appender {t}: {n} calls, {} lines",
            mine.len()
        );
    }
    eprintln!(
        "  log under load: {} lines, {} of them from 8 other appenders",
        recs.len(),
        appended.iter().sum::<usize>()
    );
    for (name, target) in oracle_crates() {
        // make compiled each crate once: one line each.
        let compiles = recs
            .iter()
            .filter(|r| r["crate_name"] == name.as_str())
            .count();
        assert_eq!(compiles, 1, "crate {name} ({target}): {compiles} log lines");
        let r = recs
            .iter()
            .find(|r| r["crate_name"] == name.as_str())
            .unwrap_or_else(|| panic!("crate {name} ({target}) is not in the log"));
        assert_eq!(r["status"], 0, "{name}");
        assert_eq!(r["argv"][0], env.rustc.as_str());
        assert!(
            r["outputs"]
                .as_array()
                .unwrap()
                .iter()
                .any(|o| o == target.as_str()),
            "{name}: outputs {} lack {target}",
            r["outputs"]
        );
        let argv: Vec<String> = r["argv"].as_array().unwrap()[1..]
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            argv,
            cmd_file_args(&wrapped, &target),
            "{name}: arguments changed"
        );
        assert_eq!(r["cwd"], wrapped.to_str().unwrap());
        if target.starts_with("samples/") {
            let modfile = format!("samples/rust/{name}");
            assert_eq!(r["env"]["RUST_MODFILE"], modfile.as_str());
        } else if target.ends_with(".o") {
            assert_eq!(r["env"]["OBJTREE"], wrapped.to_str().unwrap());
        }
    }
    // The probes went through too, byte for byte (CONFIG_RUSTC_VERSION_TEXT equal).
    assert!(recs.iter().any(|r| r["argv"][1] == "--version"));
    let grab = |o: &Path| {
        common::read(&o.join(".config"))
            .lines()
            .find(|l| l.starts_with("CONFIG_RUSTC_VERSION_TEXT="))
            .map(String::from)
    };
    assert_eq!(grab(&plain), grab(&wrapped));
    assert!(grab(&wrapped).is_some());

    // 5. rust-project.json from the log vs `make rust-analyzer`.
    let mut c = env.make(&wrapped, link_s);
    c.env("RKBUILD_RUSTC", &env.rustc)
        .env("RKBUILD_LOG", work.path().join("later.jsonl"))
        .arg("rust-analyzer");
    ok(c, "make rust-analyzer");
    let ra: Value =
        serde_json::from_str(&common::read(&wrapped.join("rust-project.json"))).unwrap();
    let from_log = work.path().join("from-log-rust-project.json");
    let o = Command::new(env!("CARGO_BIN_EXE_rkbuild"))
        .args(["analyzer", "--from-log"])
        .arg(&log)
        .arg("-o")
        .arg(&from_log)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stderr.is_empty(),
        "warnings: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let fl: Value = serde_json::from_str(&common::read(&from_log)).unwrap();
    compare_projects(&ra, &fl, &wrapped);

    // 6. The out-of-tree template builds a module against the wrapped tree.
    let mut c = env.make(&wrapped, link_s);
    c.env("RKBUILD_RUSTC", &env.rustc)
        .env("RKBUILD_LOG", work.path().join("later.jsonl"))
        .args(["-j2", "modules_prepare"]);
    ok(c, "make modules_prepare");
    let m = work.path().join("rust_hello");
    std::fs::create_dir(&m).unwrap();
    let tpl = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/make/module");
    for f in ["Kbuild", "Makefile", "rust_hello.rs"] {
        std::fs::copy(tpl.join(f), m.join(f)).unwrap();
    }
    let mut c = Command::new("make");
    c.arg("-C")
        .arg(&m)
        .arg(format!("KDIR={}", wrapped.display()))
        .arg("LLVM=-14")
        .arg(format!("REAL_RUSTC={}", env.rustc))
        .arg(format!("RKBUILD_RUSTC_LINK={link_s}"))
        .arg(format!("RUST_LIB_SRC={}", env.lib))
        // No vmlinux here, so no Module.symvers: kernel symbols stay unresolved at modpost.
        .arg("KBUILD_MODPOST_WARN=1")
        .env("LIBCLANG_PATH", &env.libclang)
        .env_remove("MAKEFLAGS")
        .env_remove("MAKELEVEL")
        .env_remove("RKBUILD_LOG");
    ok(c, "out-of-tree template module");
    let ko = std::fs::read(m.join("rust_hello.ko")).expect("rust_hello.ko was not built");
    assert_eq!(&ko[..4], b"\x7fELF");
    let has = |needle: &[u8]| ko.windows(needle.len()).any(|w| w == needle);
    assert!(
        has(b"name=rust_hello") && has(b"license=GPL"),
        ".modinfo of rust_hello.ko"
    );
    let mlog = common::read(&m.join("rustc-calls.jsonl"));
    let mrec: Value = mlog
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["crate_name"] == "rust_hello")
        .expect("rust_hello not in the module's log");
    assert_eq!(mrec["status"], 0);
    assert!(mrec["env"]["RUST_MODFILE"]
        .as_str()
        .unwrap()
        .ends_with("rust_hello"));

    // 7. Same folder, same command, plain rustc instead of the wrapper: build_error (no doc
    // links) comes out byte for byte, metadata included; ffi has identical code and
    // same-size metadata (see rust-lang/rust#124357 above). (Not core/compiler_builtins:
    // Kbuild rewrites their objects with llvm-objcopy after rustc.)
    for name in ["build_error", "ffi"] {
        let r = recs.iter().find(|r| r["crate_name"] == name).unwrap();
        let outs: Vec<PathBuf> = r["outputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| wrapped.join(o.as_str().unwrap()))
            .filter(|p| !p.to_string_lossy().ends_with(".d"))
            .collect();
        let before: Vec<Vec<u8>> = outs.iter().map(|p| std::fs::read(p).unwrap()).collect();
        let argv: Vec<&str> = r["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let mut c = Command::new(argv[0]);
        c.args(&argv[1..]).current_dir(&wrapped);
        for (k, v) in r["env"].as_object().unwrap() {
            c.env(k, v.as_str().unwrap());
        }
        ok(c, &format!("rustc {name} again, directly"));
        for (p, b) in outs.iter().zip(&before) {
            let now = std::fs::read(p).unwrap();
            if name == "build_error" || p.extension().is_some_and(|e| e == "o") {
                assert!(&now == b, "{} differs from the wrapper's", p.display());
            } else {
                assert_eq!(
                    now.len(),
                    b.len(),
                    "{}: size differs from the wrapper's",
                    p.display()
                );
            }
        }
    }
    // 8. `core`'s metadata differs most (a permuted doc-link table). Compile it from the
    // logged command twice at once, in two scratch object trees with names of equal length:
    // once with plain rustc, once through the wrapper with a log. Code must be identical and
    // the metadata differ in no more than the crate-hash bytes that the folder name changes:
    // the wrapper adds nothing, the permutation comes from rustc's environment under make.
    let r = recs.iter().find(|r| r["crate_name"] == "core").unwrap();
    let argv: Vec<String> = r["argv"].as_array().unwrap()[1..]
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    let scratch: Vec<PathBuf> = ["core-a", "core-b"]
        .iter()
        .map(|n| work.path().join(n))
        .collect();
    let children: Vec<_> = scratch
        .iter()
        .enumerate()
        .map(|(i, d)| {
            for sub in ["scripts", "include/generated", "rust"] {
                std::fs::create_dir_all(d.join(sub)).unwrap();
            }
            for f in ["scripts/target.json", "include/generated/rustc_cfg"] {
                std::fs::copy(wrapped.join(f), d.join(f)).unwrap();
            }
            let mut c = Command::new(if i == 0 { env.rustc.as_str() } else { link_s });
            c.args(&argv)
                .current_dir(d)
                .env("OBJTREE", d)
                .env("RUSTC_BOOTSTRAP", "1")
                .env("RKBUILD_RUSTC", &env.rustc)
                .env("RKBUILD_LOG", d.join("log.jsonl"));
            c.spawn().unwrap()
        })
        .collect();
    for mut ch in children {
        assert!(
            ch.wait().unwrap().success(),
            "standalone core compile failed"
        );
    }
    let rd = |i: usize, f: &str| std::fs::read(scratch[i].join(f)).unwrap();
    assert!(
        rd(0, "rust/core.o") == rd(1, "rust/core.o"),
        "core.o: plain vs wrapper"
    );
    let (ma, mb) = (rd(0, "rust/libcore.rmeta"), rd(1, "rust/libcore.rmeta"));
    assert_eq!(ma.len(), mb.len());
    let n = ma.iter().zip(&mb).filter(|(x, y)| x != y).count();
    assert!(
        n <= 64,
        "libcore.rmeta: plain rustc vs wrapper differ in {n} bytes"
    );
    eprintln!("  core standalone, plain rustc vs wrapper: core.o identical, libcore.rmeta {n} bytes (crate hash)");

    // 9. The step cache inside the kernel's make: a second object tree, the same
    //    configuration, through the wrapper, as on a second machine: an empty local cache and
    //    the REAPI server step 2 filled. No Rust crate is compiled (every rustc call that
    //    builds something is a hit), and every Rust object and its `.cmd` file — which make's
    //    fixdep wrote from the restored dep-info — are the first tree's, the tree's own path
    //    aside.
    if !keep {
        let second = work.path().join("second");
        let log2 = work.path().join("second.jsonl");
        let cache2 = work.path().join("step-cache-2");
        let wenv: [(&str, &Path); 4] = [
            ("RKBUILD_LOG", &log2),
            ("RKBUILD_RUSTC", &real),
            ("RKBUILD_CACHE_DIR", &cache2),
            ("RKBUILD_REMOTE", &remote),
        ];
        let t2 = Instant::now();
        configure_and_build(&env, &second, link_s, &wenv);
        let second_secs = t2.elapsed().as_secs_f64();
        let recs2: Vec<Value> = common::read(&log2)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let compiles: Vec<&Value> = recs2
            .iter()
            .filter(|r| !r["crate_name"].is_null() && r["status"] == 0)
            .collect();
        let hits = compiles.iter().filter(|r| r["cached"] == true).count();
        let missed: Vec<String> = compiles
            .iter()
            .filter(|r| r["cached"] != true)
            .map(|r| r["crate_name"].to_string())
            .collect();
        assert!(missed.is_empty(), "compiled again: {missed:?}");
        assert!(hits >= 10, "only {hits} cache hits");
        let (w, s2) = (wrapped.display().to_string(), second.display().to_string());
        for f in rust_objects(&wrapped) {
            if f.ends_with(".o") {
                assert!(
                    std::fs::read(wrapped.join(&f)).unwrap()
                        == std::fs::read(second.join(&f)).unwrap(),
                    "{f}: the cached tree's differs"
                );
            }
            let (dir, file) = f.rsplit_once('/').unwrap();
            let cmd = |o: &Path| std::fs::read_to_string(o.join(dir).join(format!(".{file}.cmd")));
            if let (Ok(a), Ok(b)) = (cmd(&wrapped), cmd(&second)) {
                assert_eq!(a.replace(&w, &s2), b, "{f}: .cmd differs");
            }
        }
        // The time make spent in rustc calls (the wrapper's log), cold and from the cache.
        let rustc_ms = |log: &Path| -> f64 {
            common::read(log)
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .filter(|r| !r["crate_name"].is_null())
                .map(|r| r["duration_ms"].as_f64().unwrap_or(0.0))
                .sum()
        };
        let (cold_ms, warm_ms) = (rustc_ms(&log), rustc_ms(&log2));
        eprintln!(
            "  step cache inside make: second tree (empty local cache, REAPI) {hits} of {} rustc calls from the cache; rustc calls {:.1} s vs {:.1} s cold ({:.1}%); whole make {second_secs:.0} s vs {wrapped_secs:.0} s cold ({:.0}%, the C side included)",
            compiles.len(),
            warm_ms / 1000.0,
            cold_ms / 1000.0,
            warm_ms / cold_ms * 100.0,
            second_secs / wrapped_secs * 100.0
        );
    }
    drop(server);
    eprintln!(
        "kernel_612_make_through_the_wrapper: wrapped build {wrapped_secs:.0} s, whole test {:.0} s",
        t0.elapsed().as_secs_f64()
    );
}

/// `--from-log` against `make rust-analyzer`, crate by crate, on the crates make compiled.
/// Where they differ, the log is the one that matches the real command lines; each known
/// difference is stated (and checked) here.
fn compare_projects(ra: &Value, fl: &Value, o: &Path) {
    let ra = ra["crates"].as_array().unwrap();
    let fl = fl["crates"].as_array().unwrap();
    let names = |cs: &[Value], c: &Value| -> BTreeSet<String> {
        c["deps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                cs[d["crate"].as_u64().unwrap() as usize]["display_name"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let cfgs = |c: &Value| -> BTreeSet<String> {
        c["cfg"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    let rustc_cfg: BTreeSet<String> = common::read(&o.join("include/generated/rustc_cfg"))
        .lines()
        .filter_map(|l| l.strip_prefix("--cfg=").map(String::from))
        .collect();
    let compiled: BTreeMap<String, &Value> = fl
        .iter()
        .filter(|c| c["is_workspace_member"] == true || c["display_name"] == "core")
        .map(|c| (c["display_name"].as_str().unwrap().to_string(), c))
        .collect();
    let mut compared = 0;
    for r in ra {
        let name = r["display_name"].as_str().unwrap();
        let Some(f) = compiled.get(name) else {
            continue;
        };
        compared += 1;
        assert_eq!(
            canon(r["root_module"].as_str().unwrap()),
            canon(f["root_module"].as_str().unwrap()),
            "{name}: root_module"
        );
        for k in ["edition", "is_proc_macro", "is_workspace_member"] {
            assert_eq!(r[k], f[k], "{name}: {k}");
        }
        if r["is_proc_macro"] == true {
            assert_eq!(
                canon(r["proc_macro_dylib_path"].as_str().unwrap()),
                canon(f["proc_macro_dylib_path"].as_str().unwrap()),
                "{name}: proc_macro_dylib_path"
            );
        }
        // generate_rust_analyzer.py gives build_error and ffi a compiler_builtins dep that
        // their command lines do not have (rustc injects only `core` in 2021 no_std crates).
        let mut rd = names(ra, r);
        if ["build_error", "ffi"].contains(&name) {
            assert!(
                rd.remove("compiler_builtins"),
                "{name}: RA no longer adds compiler_builtins"
            );
        }
        assert_eq!(rd, names(fl, f), "{name}: deps");
        // Kbuild passes @rustc_cfg to core, compiler_builtins, build_error and ffi too, and
        // --cfg MODULE to modules; the script gives those crates only its own cfg lists.
        let (rc, fc) = (cfgs(r), cfgs(f));
        assert!(
            rc.is_subset(&fc),
            "{name}: cfgs of make rust-analyzer missing from the log: {:?}",
            rc.difference(&fc).take(5).collect::<Vec<_>>()
        );
        let extra: BTreeSet<String> = fc.difference(&rc).cloned().collect();
        let allowed: BTreeSet<String> = match name {
            "core" | "compiler_builtins" | "build_error" | "ffi" => rustc_cfg.clone(),
            "rust_minimal" => ["MODULE".to_string()].into(),
            _ => BTreeSet::new(),
        };
        assert!(
            extra.is_subset(&allowed),
            "{name}: unexpected cfgs {:?}",
            extra.difference(&allowed).take(5).collect::<Vec<_>>()
        );
        if let Some(obj) = r["env"].get("OBJTREE") {
            assert_eq!(
                canon(obj.as_str().unwrap()),
                canon(f["env"]["OBJTREE"].as_str().unwrap()),
                "{name}: OBJTREE"
            );
        }
    }
    // core, compiler_builtins, macros, build_error, ffi, bindings, uapi, kernel, 2 samples.
    assert_eq!(compared, 10, "crates compared");
}

/// `rkbuild plan` on a copy of the make-built object tree: each planned command equals the
/// `.cmd` file make wrote for that output (paths normalised), objtool included.
/// A copy of a make-built object tree (rkbuild may write into it).
fn copy_of(tree: &Path) -> (tempfile::TempDir, PathBuf) {
    let copy = tempfile::tempdir().unwrap();
    let o = copy.path().join("o");
    common::cp_a(tree, &o);
    (copy, o)
}

/// rkbuild on the 6.12 tree with this test's toolchain.
fn rkbuild_612(env: &Env, args: &[&str], o: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rkbuild"));
    c.args(args)
        .arg("-S")
        .arg(&env.src)
        .arg("-O")
        .arg(o)
        .env("RUSTC", &env.rustc)
        .env("RUST_LIB_SRC", &env.lib)
        .env("BINDGEN", &env.bindgen)
        .env("LIBCLANG_PATH", &env.libclang)
        .env("LLVM", "-14")
        .env_remove("KRUSTFLAGS");
    c
}

/// `rkbuild test` against `make rusttest` on the make-built tree: the same commands (test
/// libraries, test binaries, runs, doctests) and the same test results; `rkbuild doc`
/// against `make rustdoc` in the same tree: the same rustdoc commands and files.
fn host_tests_and_docs(env: &Env, plain: &Path) {
    use common::side_by_side as sbs;
    let (log, _) = sbs::make_log(plain, "rusttest", "rust/test", |o| env.make(o, &env.rustc));
    let (_copy, o) = copy_of(plain);
    let run = |args: &[&str]| {
        let t = Instant::now();
        let out = rkbuild_612(env, args, &o).output().unwrap();
        let json = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "rkbuild {args:?}: {json}");
        eprintln!("  rkbuild {}: {:.1} s", args[0], t.elapsed().as_secs_f64());
        json
    };
    let json = run(&["test", "--message-format", "json", "-j2"]);
    let make = sbs::from_make(&log, sbs::rusttest_line);
    assert!(!make.1.is_empty(), "make rusttest printed no test result");
    sbs::assert_same(make, sbs::from_rkbuild(&json, &o, sbs::rusttest_step));

    let out = "Documentation/output/rust/rustdoc";
    let (log, files) = sbs::make_log(plain, "rustdoc", out, |o| env.make(o, &env.rustc));
    let json = run(&["doc", "--message-format", "json", "-j2"]);
    sbs::assert_same(
        sbs::from_make(&log, sbs::rustdoc_line),
        sbs::from_rkbuild(&json, &o, sbs::rustdoc_step),
    );
    let ours = sbs::files_below(&o.join(out));
    assert_eq!(
        sbs::doc_files(&ours),
        sbs::doc_files(&files),
        "the documentation's files differ from make's"
    );
}

/// CONFIG_RUST_KERNEL_DOCTESTS on a copy of the make-built tree (KUNIT and the doctests
/// turned on): make builds the doctests' generated files and objects, then rkbuild, in another
/// copy without them, makes the same four files byte for byte.
fn doctests_kunit(env: &Env, plain: &Path) {
    let (_a, made) = copy_of(plain);
    let mut c = Command::new(env.src.join("scripts/config"));
    c.arg("--file").arg(made.join(".config")).args([
        "--enable",
        "KUNIT",
        "--enable",
        "RUST_KERNEL_DOCTESTS",
    ]);
    ok(c, "scripts/config");
    let mut c = env.make(&made, &env.rustc);
    c.arg("olddefconfig").stdin(std::process::Stdio::null());
    ok(c, "olddefconfig");
    let files = [
        "rust/doctests_kernel_generated.rs",
        "rust/doctests_kernel_generated_kunit.c",
        "rust/doctests_kernel_generated.o",
        "rust/doctests_kernel_generated_kunit.o",
    ];
    let mut c = env.make(&made, &env.rustc);
    c.args(["-j2", "prepare", files[2], files[3]]);
    ok(c, "make the doctests");
    let (_b, o) = copy_of(&made);
    for f in files {
        std::fs::remove_file(o.join(f)).unwrap();
    }
    let t = Instant::now();
    let out = rkbuild_612(env, &["build", "-j2", files[2], files[3]], &o)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "rkbuild build the doctests: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    for f in files {
        assert!(
            std::fs::read(made.join(f)).unwrap() == std::fs::read(o.join(f)).unwrap(),
            "{f}: rkbuild's differs from make's"
        );
    }
    eprintln!(
        "  doctests as KUnit: 4 files as make's, rkbuild {:.1} s",
        t.elapsed().as_secs_f64()
    );
}

fn plan_equals_make(env: &Env, plain: &Path) {
    let (_copy, o) = copy_of(plain);
    let out = rkbuild_612(env, &["plan", "--message-format", "json"], &o)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "rkbuild plan: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    // `make prepare samples/rust/` does not build rust/exports.o.
    let compared = common::plan_equals_cmd_files(&v, &o, plain, &["rust/exports.o"]);
    eprintln!("  rkbuild plan: {compared} commands equal to make's");
    // 3 crates' worth of bindgen, 8 Rust crates and proc macros, helpers.o, 2 samples.
    assert!(compared >= 14, "only {compared} commands compared");
}
