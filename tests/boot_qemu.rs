//! Proof that what rkbuild builds runs: a small Linux 7.3 kernel (tinyconfig + serial console,
//! initramfs, modules and Rust), built by the kernel's own make with rkbuild's `RUSTC` wrapper
//! as its Rust compiler and cached by its inputs, boots under Debian's qemu-system-x86 (TCG:
//! KVM stops with an internal error on this machine) and loads two modules rkbuild built:
//! the `rust_minimal` sample (`rkbuild build --modules` in the kernel's tree) and the
//! out-of-tree template module (`rkbuild build -M`). The serial console must show each
//! module's init and exit messages. The out-of-tree module's command line and object are also
//! compared with `make M=`'s for the same module, and both build times are printed.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Bumped when the recipe below changes.
const RECIPE: &str = "rkbuild-boot-73 v1: tinyconfig + FRAGMENT; olddefconfig; -j2 bzImage modules (RUSTC=rkbuild-rustc)";

/// What the kernel needs on top of tinyconfig: a 64-bit kernel with a serial console, an
/// initramfs that runs busybox, modules that load and unload, and Rust with its minimal sample.
const FRAGMENT: &[&str] = &[
    "--enable",
    "64BIT",
    "--enable",
    "PRINTK",
    "--enable",
    "TTY",
    "--enable",
    "SERIAL_8250",
    "--enable",
    "SERIAL_8250_CONSOLE",
    "--enable",
    "BLK_DEV_INITRD",
    "--enable",
    "BINFMT_ELF",
    "--enable",
    "BINFMT_SCRIPT",
    "--enable",
    "PROC_FS",
    "--enable",
    "SYSFS",
    "--enable",
    "MODULES",
    "--enable",
    "MODULE_UNLOAD",
    "--disable",
    "MODVERSIONS",
    "--enable",
    "RUST",
    "--enable",
    "SAMPLES",
    "--enable",
    "SAMPLES_RUST",
    "--module",
    "SAMPLE_RUST_MINIMAL",
];

struct Env {
    src: PathBuf,
    rustc: PathBuf,
    lib: String,
    bindgen: String,
    libclang: String,
}

impl Env {
    fn get() -> Env {
        Env {
            src: PathBuf::from(common::tool_env("RKBUILD_TEST_LINUX_73")),
            rustc: PathBuf::from(common::tool_env("RKBUILD_TEST_RUSTC_195")),
            lib: common::tool_env("RKBUILD_TEST_LIB_195"),
            bindgen: common::tool_env("RKBUILD_TEST_BINDGEN_22"),
            libclang: common::tool_env("RKBUILD_TEST_LIBCLANG_22_PATH"),
        }
    }

    /// The kernel's make on object tree `o`, with `rustc` as its RUSTC.
    fn make(&self, o: &Path, rustc: &Path) -> Command {
        let mut c = Command::new("make");
        c.arg("-C")
            .arg(&self.src)
            .arg(format!("O={}", o.display()))
            .arg("ARCH=x86_64")
            .arg("LLVM=-22")
            .arg(format!("RUSTC={}", rustc.display()))
            .arg(format!(
                "RUSTDOC={}",
                self.rustc.parent().unwrap().join("rustdoc").display()
            ))
            .arg(format!("BINDGEN={}", self.bindgen))
            .arg(format!("RUST_LIB_SRC={}", self.lib))
            .env("LIBCLANG_PATH", &self.libclang)
            .env("RKBUILD_RUSTC", &self.rustc);
        for k in [
            "MAKEFLAGS",
            "MFLAGS",
            "MAKELEVEL",
            "O",
            "V",
            "KRUSTFLAGS",
            "RKBUILD_LOG",
        ] {
            c.env_remove(k);
        }
        c
    }

    /// rkbuild with the same tools, as a developer would call it.
    fn rkbuild(&self, args: &[&str]) -> String {
        let mut c = Command::new(env!("CARGO_BIN_EXE_rkbuild"));
        c.args(args)
            .env("RUSTC", &self.rustc)
            .env("RUST_LIB_SRC", &self.lib)
            .env("BINDGEN", &self.bindgen)
            .env("LIBCLANG_PATH", &self.libclang)
            .env("LLVM", "-22")
            .env("NO_COLOR", "1");
        for k in [
            "KRUSTFLAGS",
            "V",
            "MAKEFLAGS",
            "MAKELEVEL",
            "CC",
            "HOSTCC",
            "OBJCOPY",
        ] {
            c.env_remove(k);
        }
        let o = c.output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            o.status.success(),
            "rkbuild {args:?} failed:\n{out}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        out
    }
}

fn run(mut c: Command, what: &str) -> String {
    let t = Instant::now();
    let o = c
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{what} failed:\n{text}");
    eprintln!("  {what}: {:.1} s", t.elapsed().as_secs_f64());
    text
}

fn version(tool: &Path, arg: &str) -> String {
    let o = Command::new(tool)
        .arg(arg)
        .output()
        .unwrap_or_else(|e| panic!("`{}` is needed: {e}", tool.display()));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The wrapper make runs for the kernel in `kdir`, at a path that stays (the configuration
/// records it): beside the kernel's folder.
fn wrapper_of(kdir: &Path) -> PathBuf {
    let name = format!("{}.bin", kdir.file_name().unwrap().to_string_lossy());
    kdir.parent().unwrap().join(name).join("rkbuild-rustc")
}

/// The kernel, built once per set of inputs (in $RKBUILD_REF_DIR/boot-7.3-x86_64).
fn kernel(env: &Env) -> PathBuf {
    let base = std::env::var_os("RKBUILD_REF_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/var/cache/rkbuild-ci"));
    let dir = base.join("boot-7.3-x86_64");
    let wrapper = wrapper_of(&dir);
    std::fs::create_dir_all(wrapper.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(&wrapper);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_rkbuild"), &wrapper).unwrap();
    let stamp = format!(
        "{RECIPE}\n{}\n{}{}{}{}\n",
        FRAGMENT.join(" "),
        version(&env.rustc, "-vV"),
        version(Path::new(&env.bindgen), "--version"),
        version(Path::new("clang-22"), "--version"),
        env.src.display()
    );
    let stamp_file = dir.join(".rkbuild-ref-stamp");
    if std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(stamp.as_str()) {
        return dir;
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut c = env.make(&dir, &wrapper);
    c.arg("tinyconfig");
    run(c, "make tinyconfig (boot kernel)");
    let mut c = Command::new(env.src.join("scripts/config"));
    c.arg("--file").arg(dir.join(".config")).args(FRAGMENT);
    run(c, "scripts/config");
    let mut c = env.make(&dir, &wrapper);
    c.arg("olddefconfig");
    run(c, "make olddefconfig (boot kernel)");
    let config = common::read(&dir.join(".config"));
    for want in [
        "CONFIG_RUST=y",
        "CONFIG_MODULES=y",
        "CONFIG_SAMPLE_RUST_MINIMAL=m",
    ] {
        assert!(
            config.lines().any(|l| l == want),
            "{want} did not stick in the boot kernel's configuration"
        );
    }
    let mut c = env.make(&dir, &wrapper);
    c.args(["-j2", "bzImage", "modules"]);
    run(
        c,
        "make -j2 bzImage modules (boot kernel, RUSTC=rkbuild-rustc)",
    );
    std::fs::write(&stamp_file, stamp).unwrap();
    dir
}

/// A `newc` cpio archive (what the kernel unpacks as its initramfs) of `files`:
/// (path in the archive, mode, contents); folders have no contents.
fn cpio(files: &[(&str, u32, Vec<u8>)]) -> Vec<u8> {
    let mut out = vec![];
    let pad = |out: &mut Vec<u8>| {
        while out.len() % 4 != 0 {
            out.push(0);
        }
    };
    let trailer = ("TRAILER!!!", 0u32, vec![]);
    for (i, (name, mode, data)) in files.iter().chain(std::iter::once(&trailer)).enumerate() {
        let fields = [
            i as u32 + 1,
            *mode,
            0,
            0,
            1,
            0,
            data.len() as u32,
            0,
            0,
            0,
            0,
            name.len() as u32 + 1,
            0,
        ];
        out.extend_from_slice(b"070701");
        for f in fields {
            out.extend_from_slice(format!("{f:08X}").as_bytes());
        }
        out.extend_from_slice(name.as_bytes());
        out.push(0);
        pad(&mut out);
        out.extend_from_slice(data);
        pad(&mut out);
    }
    out
}

/// Boots `bzimage` with `modules` (name, .ko) in its initramfs; each is loaded and unloaded.
/// Returns the serial console's text.
fn boot(bzimage: &Path, modules: &[(&str, PathBuf)]) -> String {
    let busybox = std::fs::read("/bin/busybox")
        .expect("/bin/busybox is needed (Debian busybox-static): apt-get install busybox-static");
    let mut init = String::from(
        "#!/bin/busybox sh\n/bin/busybox mount -t proc proc /proc\n/bin/busybox echo RKBUILD-BOOT up\n",
    );
    let mut files: Vec<(&str, u32, Vec<u8>)> = vec![
        ("bin", 0o40755, vec![]),
        ("proc", 0o40755, vec![]),
        ("dev", 0o40755, vec![]),
        ("bin/busybox", 0o100755, busybox),
    ];
    let names: Vec<String> = modules.iter().map(|(n, _)| format!("{n}.ko")).collect();
    for ((name, ko), file) in modules.iter().zip(&names) {
        init.push_str(&format!(
            "/bin/busybox insmod /{file}\n/bin/busybox rmmod {name}\n"
        ));
        files.push((file, 0o100644, std::fs::read(ko).unwrap()));
    }
    init.push_str("/bin/busybox echo RKBUILD-BOOT done\n/bin/busybox reboot -f\n");
    files.push(("init", 0o100755, init.into_bytes()));
    let d = tempfile::tempdir().unwrap();
    let initrd = d.path().join("initrd.cpio");
    std::fs::write(&initrd, cpio(&files)).unwrap();
    let t = Instant::now();
    let o = Command::new("timeout")
        .arg("300")
        .arg("qemu-system-x86_64")
        .args([
            "-accel",
            "tcg",
            "-cpu",
            "max",
            "-m",
            "256",
            "-nographic",
            "-no-reboot",
        ])
        .arg("-kernel")
        .arg(bzimage)
        .arg("-initrd")
        .arg(&initrd)
        .args(["-append", "console=ttyS0 panic=-1"])
        .output()
        .expect("qemu-system-x86_64 is needed (Debian qemu-system-x86)");
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    eprintln!(
        "  boot, load and unload {} modules under qemu (TCG): {:.1} s",
        modules.len(),
        t.elapsed().as_secs_f64()
    );
    text
}

/// make's recorded command for `target` (the `savedcmd` line of its `.cmd` file, without what
/// follows the compiler's own command: objtool and the like).
fn recorded(dir: &Path, file: &str) -> Vec<String> {
    let text = common::read(&dir.join(format!(".{file}.cmd")));
    let line = text.lines().next().unwrap();
    let cmd = line.split_once(" := ").unwrap().1;
    let cmd = cmd.split(';').next().unwrap();
    shlex::split(cmd).unwrap()
}

#[test]
fn modules_rkbuild_built_load_and_run_in_a_booted_kernel() {
    let env = Env::get();
    let kdir = kernel(&env);
    let src = env.src.display().to_string();
    let k = kdir.display().to_string();

    // The sample: its object made by rkbuild (make's removed first), its .ko linked by the
    // kernel's modpost over it.
    for f in ["rust_minimal.o", "rust_minimal.ko"] {
        let _ = std::fs::remove_file(kdir.join("samples/rust").join(f));
    }
    let t = Instant::now();
    let out = env.rkbuild(&["build", "-S", &src, "-O", &k, "-j2", "--modules"]);
    eprintln!(
        "  rkbuild build --modules (the kernel's rust/ and the sample): {:.1} s",
        t.elapsed().as_secs_f64()
    );
    assert!(
        out.contains("samples/rust/rust_minimal.o"),
        "rkbuild did not build the sample:\n{out}"
    );
    assert!(
        out.contains("LD [M]") && out.contains("samples/rust/rust_minimal.ko"),
        "no module was linked:\n{out}"
    );

    // The out-of-tree module: first as `make M=` builds it (the reference), then by rkbuild
    // in the same folder.
    let m = tempfile::tempdir().unwrap();
    common::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/make/module"),
        m.path(),
    );
    let wrapper = wrapper_of(&kdir);
    let mut c = env.make(&kdir, &wrapper);
    c.arg(format!("M={}", m.path().display())).arg("modules");
    let t = Instant::now();
    run(c, "make M=<template module> modules");
    let make_ms = t.elapsed().as_millis();
    let make_cmd = recorded(m.path(), "rust_hello.o");
    let make_obj = std::fs::read(m.path().join("rust_hello.o")).unwrap();
    let make_ko = std::fs::read(m.path().join("rust_hello.ko")).unwrap();
    for e in std::fs::read_dir(m.path()).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if !["Kbuild", "Makefile", "rust_hello.rs"].contains(&name.as_str()) {
            std::fs::remove_file(&p).unwrap();
        }
    }
    let md = m.path().display().to_string();
    let plan = env.rkbuild(&["plan", "--message-format", "json", "-O", &k, "-M", &md]);
    let v: serde_json::Value = serde_json::from_str(plan.lines().last().unwrap()).unwrap();
    let step = &v["plan"]["steps"][0];
    let mut mine: Vec<String> = step["command"]["env"]
        .as_array()
        .unwrap()
        .iter()
        .map(|kv| format!("{}={}", kv[0].as_str().unwrap(), kv[1].as_str().unwrap()))
        .collect();
    mine.push(step["command"]["program"].as_str().unwrap().to_string());
    mine.extend(
        step["command"]["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string()),
    );
    // make ran the compiler through the wrapper; rkbuild runs it directly.
    let mut make_cmd = make_cmd;
    for w in &mut make_cmd {
        if *w == wrapper.display().to_string() {
            *w = env.rustc.display().to_string();
        }
    }
    assert_eq!(
        mine, make_cmd,
        "the module's command differs from make M='s"
    );
    let t = Instant::now();
    let out = env.rkbuild(&["build", "-O", &k, "-M", &md, "-j2"]);
    let rk_ms = t.elapsed().as_millis();
    eprintln!(
        "  the template module: rkbuild build -M {:.1} s, make M= {:.1} s ({:.2}x)",
        rk_ms as f64 / 1000.0,
        make_ms as f64 / 1000.0,
        make_ms as f64 / rk_ms.max(1) as f64
    );
    assert!(out.contains("rust_hello.ko"), "no .ko linked:\n{out}");
    assert_eq!(
        std::fs::read(m.path().join("rust_hello.o")).unwrap(),
        make_obj,
        "rkbuild's rust_hello.o differs from make's"
    );
    assert!(
        std::fs::read(m.path().join("rust_hello.ko")).unwrap() == make_ko,
        "rkbuild's rust_hello.ko differs from make's"
    );

    // Both load and run.
    let console = boot(
        &kdir.join("arch/x86/boot/bzImage"),
        &[
            ("rust_minimal", kdir.join("samples/rust/rust_minimal.ko")),
            ("rust_hello", m.path().join("rust_hello.ko")),
        ],
    );
    for want in [
        "RKBUILD-BOOT up",
        "rust_minimal: Rust minimal sample (init)",
        "rust_minimal: Rust minimal sample (exit)",
        "rust_hello: Hello from rust_hello",
        "rust_hello: Goodbye from rust_hello",
        "RKBUILD-BOOT done",
    ] {
        assert!(
            console.contains(want),
            "the serial console lacks `{want}`:\n{console}"
        );
    }
}
