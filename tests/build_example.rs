//! `rkbuild build` on the bundled example tree with the real rustc 1.85, real `core` from
//! Debian's rust-src, real bindgen/libclang and llvm-objcopy; objects checked as ELF, exports
//! checked against the real llvm-nm. Each architecture's core is built once per test and reused
//! for the incremental, interrupt and failure assertions that follow it.

mod common;

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use object::{Object as _, ObjectSection as _, ObjectSymbol as _};

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

fn command(src: &Path, obj: &Path, config: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rkbuild"));
    c.arg("build")
        .arg("-S")
        .arg(src)
        .arg("-O")
        .arg(obj)
        .arg("--config")
        .arg(config)
        .args(["-j", "2"])
        .args(extra)
        .env_remove("KRUSTFLAGS")
        .env_remove("OBJCOPY")
        .env_remove("V")
        .env("NO_COLOR", "1");
    for (k, v) in common::build_env_185() {
        c.env(k, v);
    }
    c
}

fn build(src: &Path, obj: &Path, config: &Path, extra: &[&str]) -> Run {
    let out = command(src, obj, config, extra).output().unwrap();
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The outputs a run built (the subjects of its Kbuild-style lines).
fn built(r: &Run) -> Vec<String> {
    let mut v: Vec<String> = r
        .stdout
        .lines()
        .filter(|l| {
            ["  RUSTC", "  BINDGEN", "  EXPORTS", "  CLIPPY"]
                .iter()
                .any(|t| l.starts_with(t))
        })
        .map(|l| l.split_whitespace().last().unwrap().to_string())
        .collect();
    v.sort();
    v
}

fn ok(r: Run) -> Run {
    assert!(r.ok, "build failed:\n{}\n{}", r.stdout, r.stderr);
    r
}

fn elf(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn symbols(data: &[u8]) -> Vec<(String, bool, bool, bool)> {
    // (name, defined, global, weak)
    let f = object::File::parse(data).unwrap();
    f.symbols()
        .map(|s| {
            (
                s.name().unwrap_or("").to_string(),
                s.is_definition(),
                s.is_global(),
                s.is_weak(),
            )
        })
        .collect()
}

fn section(data: &[u8], name: &str) -> Option<Vec<u8>> {
    let f = object::File::parse(data).unwrap();
    let s = f.section_by_name(name)?;
    Some(s.data().unwrap().to_vec())
}

fn append(path: &Path, text: &str) {
    let mut s = std::fs::read_to_string(path).unwrap();
    s.push_str(text);
    std::fs::write(path, s).unwrap();
}

/// Checks what every arch's build must hold, per the kernel's rules.
fn check_objects(obj: &Path, machine: object::Architecture, redirect_extra: &[&str]) {
    let core = elf(&obj.join("rust/core.o"));
    assert_eq!(object::File::parse(&*core).unwrap().architecture(), machine);
    let core_syms = symbols(&core);
    let mut redirected = vec![
        "__addsf3",
        "__eqsf2",
        "__muldf3",
        "__multi3",
        "__udivti3",
        "__umodti3",
    ];
    redirected.extend(redirect_extra);
    for s in &redirected {
        assert!(
            !core_syms.iter().any(|(n, ..)| n == s),
            "core.o still refers to `{s}` (intrinsics must be redirected to __rust{s})"
        );
    }
    assert!(
        core_syms
            .iter()
            .any(|(n, d, ..)| n.starts_with("__rust__") && !d),
        "core.o refers to no `__rust__*` intrinsic"
    );
    let cb = symbols(&elf(&obj.join("rust/compiler_builtins.o")));
    let stubs: Vec<_> = cb
        .iter()
        .filter(|(n, d, ..)| n.starts_with("__rust__") && *d)
        .collect();
    assert!(stubs.len() >= 20, "compiler_builtins defines {stubs:?}");
    assert!(
        stubs.iter().all(|(_, _, _, weak)| *weak),
        "compiler_builtins' `__*` symbols must be weak: {stubs:?}"
    );
    // A module: entry points and modinfo without prefix.
    let m = elf(&obj.join("drivers/misc/rust_hello.o"));
    let ms = symbols(&m);
    for s in ["init_module", "cleanup_module"] {
        assert!(ms.iter().any(|(n, d, g, _)| n == s && *d && *g), "no {s}");
    }
    let info = section(&m, ".modinfo").expect("a .modinfo section");
    assert!(info.windows(12).any(|w| w == b"license=GPL\0"));
    // Built in: an initcall and prefixed modinfo.
    let b = elf(&obj.join("drivers/leds/leds_mini.o"));
    assert!(section(&b, ".initcall6.init").is_some());
    let info = section(&b, ".modinfo").unwrap();
    assert!(info.windows(22).any(|w| w == b"leds_mini.license=GPL\0"));
    assert!(!symbols(&b).iter().any(|(n, ..)| n == "init_module"));
    // The multi-file driver: every file is a tracked input.
    let d = std::fs::read_to_string(obj.join("drivers/android/.rust_minibinder.o.d")).unwrap();
    for f in [
        "allocation.rs",
        "context.rs",
        "node.rs",
        "rust_minibinder.rs",
    ] {
        assert!(
            d.contains(&format!("drivers/android/{f}")),
            "{f} not in {d}"
        );
    }
    // The switched-off driver was not built (it would not compile).
    assert!(!obj.join("drivers/misc/rust_unused.o").exists());
}

/// `EXPORT_SYMBOL_RUST_GPL` lines must be exactly what the kernel's nm | awk pipeline gives.
fn check_exports_against_nm(obj: &Path, name: &str) {
    let nm = Command::new("llvm-nm-14")
        .args(["-p", "--defined-only"])
        .arg(obj.join(format!("rust/{name}.o")))
        .output()
        .expect("llvm-nm-14 (apt-get install llvm-14) is needed to check the exports");
    let want: String = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w.len() == 3 && ["T", "R", "D", "B"].contains(&w[1]) && !w[2].contains("__cfi"))
                .then(|| format!("EXPORT_SYMBOL_RUST_GPL({});\n", w[2]))
        })
        .collect();
    let got =
        std::fs::read_to_string(obj.join(format!("rust/exports_{name}_generated.h"))).unwrap();
    assert!(!want.is_empty() || name == "bindings");
    assert_eq!(got, want, "exports of {name}");
}

#[test]
fn x86_64_builds_then_rebuilds_only_what_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    common::copy_tree(&common::minikernel(), &src);
    let obj = tmp.path().join("obj");
    let config = tmp.path().join("x86_64.config");
    std::fs::copy(src.join("configs/x86_64.config"), &config).unwrap();

    // Cold: everything, in dependency order, with real core.
    let t = std::time::Instant::now();
    let r = ok(build(&src, &obj, &config, &[]));
    eprintln!("x86_64 cold build: {:?}", t.elapsed());
    let all = built(&r);
    assert_eq!(all.len(), 17, "{}", r.stdout);
    assert!(r.stdout.contains("  RUSTC L rust/core.o\n"));
    assert!(r
        .stdout
        .contains("  BINDGEN rust/bindings/bindings_generated.rs\n"));
    assert!(r.stdout.contains("  RUSTC [M] drivers/misc/rust_hello.o\n"));
    assert!(r.stdout.contains("  RUSTC     drivers/leds/leds_mini.o\n"));
    let pos = |s: &str| r.stdout.find(s).unwrap_or_else(|| panic!("no {s}"));
    assert!(pos("rust/core.o") < pos("rust/compiler_builtins.o"));
    assert!(pos("rust/bindings.o") < pos("rust/kernel.o"));
    assert!(pos("rust/kernel.o") < pos("drivers/misc/rust_hello.o"));
    check_objects(&obj, object::Architecture::X86_64, &[]);
    for c in ["core", "kernel", "bindings"] {
        check_exports_against_nm(&obj, c);
    }
    // The helper and constant rewrites happened.
    let h =
        std::fs::read_to_string(obj.join("rust/bindings/bindings_helpers_generated.rs")).unwrap();
    assert!(h.contains("#[link_name=\"rust_helper_mk_device_id\"]\n    pub fn mk_device_id"));
    let g = std::fs::read_to_string(obj.join("rust/bindings/bindings_generated.rs")).unwrap();
    assert!(g.contains("pub const MK_DEFAULT_FLAGS: u64"));
    assert!(!g.contains("RUST_CONST_HELPER_"));

    // No-op: nothing runs, nothing is touched.
    let stamp = |p: &str| std::fs::metadata(obj.join(p)).unwrap().modified().unwrap();
    let core_time = stamp("rust/core.o");
    let r = ok(build(&src, &obj, &config, &[]));
    assert!(built(&r).is_empty(), "{}", r.stdout);
    assert!(
        r.stdout.contains("nothing to do (17 steps up to date)"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("UPD"), "{}", r.stdout);

    // One driver's source: that driver only.
    append(&src.join("drivers/misc/rust_hello.rs"), "\n// edited\n");
    assert_eq!(
        built(&ok(build(&src, &obj, &config, &[]))),
        ["drivers/misc/rust_hello.o"]
    );

    // A file of the multi-file driver (not its root): that driver only.
    append(&src.join("drivers/android/node.rs"), "\n// edited\n");
    assert_eq!(
        built(&ok(build(&src, &obj, &config, &[]))),
        ["drivers/android/rust_minibinder.o"]
    );

    // A CONFIG_ symbol only rust_hello.rs mentions: only rust_hello (fixdep's idea), although
    // rustc_cfg, which every crate reads, changed.
    let text = std::fs::read_to_string(&config).unwrap().replace(
        "# CONFIG_MINI_HELLO_LOUD is not set",
        "CONFIG_MINI_HELLO_LOUD=y",
    );
    std::fs::write(&config, text).unwrap();
    let r = ok(build(&src, &obj, &config, &[]));
    assert_eq!(built(&r), ["drivers/misc/rust_hello.o"], "{}", r.stdout);
    assert!(r.stdout.contains("UPD     include/generated/rustc_cfg"));

    // Built-in → module: the command changes (`--cfg MODULE`).
    let text = std::fs::read_to_string(&config)
        .unwrap()
        .replace("CONFIG_MINI_LED=y", "CONFIG_MINI_LED=m");
    std::fs::write(&config, text).unwrap();
    let r = ok(build(&src, &obj, &config, &[]));
    assert_eq!(built(&r), ["drivers/leds/leds_mini.o"]);
    assert!(r.stdout.contains("  RUSTC [M] drivers/leds/leds_mini.o"));
    assert!(symbols(&elf(&obj.join("drivers/leds/leds_mini.o")))
        .iter()
        .any(|(n, ..)| n == "init_module"));
    assert_eq!(stamp("rust/core.o"), core_time, "core was rebuilt");

    // A build_assert! that cannot be proved at compile time: build_error.o is not linked
    // (RUST_BUILD_ASSERT_ALLOW is off), so the build says linking will fail.
    let leds = src.join("drivers/leds/leds_mini.rs");
    let good_leds = std::fs::read_to_string(&leds).unwrap();
    append(
        &leds,
        "\n/// Checked at build time only when `x` is known.\n#[no_mangle]\npub extern \"C\" fn leds_mini_check(x: u32) {\n    kernel::build_assert!(x == 3);\n}\n",
    );
    let r = ok(build(&src, &obj, &config, &[]));
    assert!(
        r.stderr.contains("leds_mini.o` calls rust_build_error"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("linking will fail"), "{}", r.stderr);
    std::fs::write(&leds, good_leds).unwrap();
    ok(build(&src, &obj, &config, &[]));

    // A driver that does not compile: its error once, the build stops, the rest is kept.
    let hello = src.join("drivers/misc/rust_hello.rs");
    let good = std::fs::read_to_string(&hello).unwrap();
    append(&hello, "\nfn broken() -> u32 { \"not a number\" }\n");
    append(&src.join("rust/kernel/lib.rs"), "\n// edited\n");
    let r = build(&src, &obj, &config, &[]);
    assert!(!r.ok);
    assert_eq!(r.stderr.matches("error[E0308]").count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("`drivers/misc/rust_hello.o` failed"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("the build stopped"), "{}", r.stderr);
    std::fs::write(&hello, good).unwrap();
    let r = ok(build(&src, &obj, &config, &[]));
    assert!(built(&r).contains(&"drivers/misc/rust_hello.o".to_string()));
    assert!(
        !built(&r).contains(&"rust/kernel.o".to_string()),
        "kernel.o was kept"
    );

    // bindgen failing: its stderr is shown.
    let header = src.join("include/linux/minikernel.h");
    let good_header = std::fs::read_to_string(&header).unwrap();
    append(&header, "\n#include <linux/nothere.h>\n");
    let r = build(&src, &obj, &config, &[]);
    assert!(!r.ok);
    assert!(r.stderr.contains("minikernel.h"), "{}", r.stderr);
    assert!(
        r.stderr.contains("'linux/nothere.h' file not found"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("`rust/bindings/bindings_generated.rs` failed"),
        "{}",
        r.stderr
    );
    std::fs::write(&header, good_header).unwrap();
    ok(build(&src, &obj, &config, &[]));

    // Interrupted (kill -9) while kernel.o compiles, then kernel.o left torn: the next run
    // must not take it as up to date.
    append(&src.join("rust/kernel/lib.rs"), "\n// edited again\n");
    let mut child = command(&src, &obj, &config, &[])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    loop {
        let l = lines.next().expect("the build printed kernel.o").unwrap();
        if l.contains("rust/kernel.o") {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // (rustc dies with rkbuild: PR_SET_PDEATHSIG.) Wait a moment for it to be gone, then tear
    // the object as a crash in the middle of writing it would.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let k = obj.join("rust/kernel.o");
    if let Ok(bytes) = std::fs::read(&k) {
        std::fs::write(&k, &bytes[..bytes.len() / 2]).unwrap();
    }
    let r = ok(build(&src, &obj, &config, &[]));
    assert!(
        built(&r).contains(&"rust/kernel.o".to_string()),
        "{}",
        r.stdout
    );
    object::File::parse(&*elf(&k)).expect("kernel.o is a whole object again");
    let r = ok(build(&src, &obj, &config, &[]));
    assert!(built(&r).is_empty(), "{}", r.stdout);

    // Another objcopy (GNU's, as a kernel built without LLVM= uses) redoes the steps whose
    // post-steps run it, and what depends on them.
    let out = command(&src, &obj, &config, &[])
        .env("OBJCOPY", "objcopy")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = Run {
        ok: true,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::new(),
    };
    let b = built(&r);
    for id in ["rust/core.o", "rust/compiler_builtins.o"] {
        assert!(
            b.contains(&id.to_string()),
            "{id} not rebuilt: {}",
            r.stdout
        );
    }
}

fn arch_build(arch: &str, machine: object::Architecture, extra: &[&str]) -> PathBuf {
    let tmp = tempfile::tempdir().unwrap().keep();
    let src = common::minikernel();
    let config = src.join(format!("configs/{arch}.config"));
    let t = std::time::Instant::now();
    let r = ok(build(&src, &tmp, &config, &["--arch", arch]));
    eprintln!("{arch} cold build: {:?}", t.elapsed());
    assert_eq!(built(&r).len(), 17, "{}", r.stdout);
    check_objects(&tmp, machine, extra);
    check_exports_against_nm(&tmp, "kernel");
    tmp
}

#[test]
fn arm64_builds_with_real_core() {
    let dir = arch_build(
        "arm64",
        object::Architecture::Aarch64,
        &["__ashrti3", "__ashlti3", "__lshrti3"],
    );
    single_targets(&dir, "arm64");
    let _ = std::fs::remove_dir_all(dir);
}

/// Kbuild's single-file targets of a driver: the macro expansion (formatted), the assembly
/// and the LLVM IR, each from the driver's own command; only they run on a built tree.
fn single_targets(obj: &Path, arch: &str) {
    let src = common::minikernel();
    let config = src.join(format!("configs/{arch}.config"));
    let base = "drivers/misc/rust_hello";
    let (rsi, asm, ll) = (
        format!("{base}.rsi"),
        format!("{base}.s"),
        format!("{base}.ll"),
    );
    let r = ok(build(
        &src,
        obj,
        &config,
        &["--arch", arch, &rsi, &asm, &ll],
    ));
    let mut made = built(&r);
    made.sort();
    assert_eq!(made, [ll.clone(), rsi.clone(), asm.clone()], "{}", r.stdout);
    let text = |f: &str| common::read(&obj.join(f));
    let expanded = text(&rsi);
    assert!(
        expanded.contains("#[prelude_import]") && expanded.contains("__MODINFO_"),
        "not the expanded module! macro: {expanded}"
    );
    // rustfmt ran over it (rustc's own expansion leaves blank runs rustfmt folds).
    assert!(!expanded.contains("\n\n\n"), "{expanded}");
    assert!(text(&asm).contains("\tret"), "not aarch64 assembly");
    assert!(
        text(&ll).contains("target triple = \"aarch64"),
        "not LLVM IR for aarch64"
    );
    // Up to date the second time; an unknown driver is refused with the fix.
    let again = ok(build(&src, obj, &config, &["--arch", arch, &rsi]));
    assert!(built(&again).is_empty(), "{}", again.stdout);
    let bad = build(
        &src,
        obj,
        &config,
        &["--arch", arch, "drivers/misc/nothere.s"],
    );
    assert!(!bad.ok);
    assert!(
        bad.stderr
            .contains("no Rust driver `drivers/misc/nothere.rs`")
            && bad.stderr.contains("fix:"),
        "{}",
        bad.stderr
    );
}

#[test]
fn riscv64_builds_with_real_core() {
    let dir = arch_build(
        "riscv64",
        object::Architecture::Riscv64,
        &["__ashrti3", "__ashlti3", "__lshrti3"],
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Every output file of a build, by path (the fingerprints and timings, which record times,
/// left out).
fn outputs(obj: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut dirs = vec![obj.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                dirs.push(p);
            } else if [".o", ".rmeta", ".so", ".rs", ".h", ".d"]
                .iter()
                .any(|x| name.ends_with(x))
            {
                let rel = p.strip_prefix(obj).unwrap().display().to_string();
                files.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    files
}

/// The steps of a build's `--timings` report: (start, duration, metadata) by id, in ms.
fn timings(obj: &Path) -> std::collections::BTreeMap<String, (u64, u64, Option<u64>)> {
    let v: serde_json::Value =
        serde_json::from_str(&common::read(&obj.join("rkbuild-timings.json"))).unwrap();
    v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                (
                    s["start_ms"].as_u64().unwrap(),
                    s["duration_ms"].as_u64().unwrap(),
                    s["metadata_ms"].as_u64(),
                ),
            )
        })
        .collect()
}

/// Pipelining: a crate starts once the metadata of the crates it uses is written, while their
/// code is still generated; the commands and every output file are those of a build that
/// waits for each crate's end (`--no-pipeline`, as make orders them), byte for byte.
#[test]
fn pipelined_build_equals_a_waiting_one() {
    let tmp = tempfile::tempdir().unwrap();
    let obj = tmp.path().join("obj");
    let src = common::minikernel();
    let config = src.join("configs/x86_64.config");
    let plain = ok(build(
        &src,
        &obj,
        &config,
        &["--no-pipeline", "--timings", "-v"],
    ));
    let waited = timings(&obj);
    let reference = outputs(&obj);
    assert!(reference.len() > 20, "{reference:?}");
    let (core_start, core_len, core_meta) = waited["rust/core.o"];
    assert_eq!(core_meta, None, "--no-pipeline watched core's metadata");
    assert!(waited["rust/compiler_builtins.o"].0 >= core_start + core_len);

    std::fs::remove_dir_all(&obj).unwrap();
    let piped = ok(build(&src, &obj, &config, &["--timings", "-v"]));
    let t = timings(&obj);
    let (core_start, core_len, core_meta) = t["rust/core.o"];
    let meta = core_meta.expect("core's metadata was not watched");
    assert!(
        meta < core_len,
        "core's metadata at {meta} ms of {core_len}"
    );
    // Its users started before core's object was done.
    let cb = t["rust/compiler_builtins.o"].0;
    assert!(
        cb >= core_start + meta && cb < core_start + core_len,
        "compiler_builtins started at {cb} ms; core ran {core_start}+{core_len}, metadata at {meta}"
    );
    // The same commands, in the same words.
    let commands = |r: &Run| {
        let mut v: Vec<String> = r
            .stdout
            .lines()
            .filter(|l| !l.starts_with("  ") && l.contains("rustc"))
            .map(str::to_string)
            .collect();
        v.sort();
        v
    };
    assert_eq!(commands(&plain), commands(&piped));
    assert!(commands(&piped).len() >= 10);
    let ours = outputs(&obj);
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        reference.keys().collect::<Vec<_>>()
    );
    for (f, bytes) in &reference {
        assert!(&ours[f] == bytes, "{f} differs from the waiting build's");
    }
    // make decides by times: no object may be older than core.o, which its users did not
    // wait for; and rkbuild's own next run still finds everything up to date.
    let mtime = |p: &str| std::fs::metadata(obj.join(p)).unwrap().modified().unwrap();
    for user in ["rust/compiler_builtins.o", "rust/kernel.o"] {
        assert!(
            mtime(user) >= mtime("rust/core.o"),
            "{user} is older than rust/core.o: a kernel make would rebuild it"
        );
    }
    let again = ok(build(&src, &obj, &config, &[]));
    assert!(again.stdout.contains("nothing to do"), "{}", again.stdout);
    eprintln!(
        "pipelined: core's metadata at {meta} of {core_len} ms; {} files equal",
        ours.len()
    );
}
