//! Rust modules for the kernel Debian ships. Debian's 7.3 kernel is built with Rust, but its
//! headers package has none of the Rust metadata a module is compiled against. In a Debian
//! trixie root (debootstrap, cached by scripts/install-deps.sh) with trixie's own rustc
//! 1.85.1, bindgen, gcc-14, the headers package and the source package, `rkbuild distro`
//! rebuilds the kernel's Rust side and builds out-of-tree modules; Debian's own kernel image
//! (`linux-binary-…`, unpacked) then boots under qemu and loads each module, and the console
//! must show its init and exit messages with no taint beyond an unsigned out-of-tree module's.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

struct Env {
    root: PathBuf,
    release: String,
    vmlinuz: PathBuf,
}

impl Env {
    fn get() -> Env {
        let root = PathBuf::from(common::tool_env("RKBUILD_TEST_TRIXIE_ROOT"));
        let release = common::tool_env("RKBUILD_TEST_DEBIAN_RELEASE");
        let vmlinuz = PathBuf::from(common::tool_env("RKBUILD_TEST_DEBIAN_VMLINUZ"));
        assert!(
            root.join(format!("usr/src/linux-headers-{release}/.config"))
                .is_file(),
            "{} lacks linux-headers-{release} (scripts/install-deps.sh makes the trixie root)",
            root.display()
        );
        Env {
            root,
            release,
            vmlinuz,
        }
    }

    /// Paths as the root sees them.
    fn headers(&self) -> String {
        format!("/usr/src/linux-headers-{}", self.release)
    }

    /// `sh -c script` in the trixie root, with /proc mounted in a mount namespace of its own
    /// (objtool reads it), so nothing stays mounted when it ends.
    fn chroot(&self, script: &str) -> Output {
        let root = self.root.display();
        let inner = format!(
            "mount -t proc proc {root}/proc && exec chroot {root} /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root sh -c {}",
            shlex::try_quote(script).unwrap()
        );
        Command::new("unshare")
            .args(["--mount", "--propagation", "private", "sh", "-c", &inner])
            .output()
            .expect("unshare (util-linux) is needed")
    }
}

/// The kernel's version without its flavour (`7.3.4+deb13`), as Debian's package names have it.
fn kbuild_version(env: &Env) -> &str {
    env.release
        .rsplit_once('-')
        .map_or(env.release.as_str(), |(v, _)| v)
}

/// A work folder inside the root, removed at the end.
struct Work {
    host: PathBuf,
    inside: String,
}

impl Work {
    fn new(env: &Env) -> Work {
        let name = format!("tmp/rkbuild-distro-{}", std::process::id());
        let host = env.root.join(&name);
        let _ = std::fs::remove_dir_all(&host);
        std::fs::create_dir_all(&host).unwrap();
        Work {
            host,
            inside: format!("/{name}"),
        }
    }
}

impl Drop for Work {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.host);
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Copies rkbuild into the root, where it runs as a Debian user's would.
fn install_rkbuild(env: &Env) {
    let to = env.root.join("usr/local/bin/rkbuild");
    let tmp = to.with_extension("tmp");
    std::fs::copy(env!("CARGO_BIN_EXE_rkbuild"), &tmp).unwrap();
    std::fs::rename(&tmp, &to).unwrap();
}

/// The modules: the bundled templates (one Rust object; a Rust and a C object) and the
/// kernel's own `rust_print` sample built out of tree (a Rust object and a C object that
/// defines its tracepoints), with `rust_minimal` beside it.
fn modules(env: &Env, work: &Work) -> Vec<(&'static str, String)> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    common::cp_a(
        &repo.join("templates/make/module"),
        &work.host.join("hello"),
    );
    common::cp_a(
        &repo.join("templates/make/module-multi"),
        &work.host.join("multi"),
    );
    let samples = env.root.join("usr/src/linux-source-7.3/samples/rust");
    let print = work.host.join("print");
    std::fs::create_dir_all(&print).unwrap();
    for f in [
        "rust_print_main.rs",
        "rust_print_events.c",
        "rust_minimal.rs",
    ] {
        std::fs::copy(samples.join(f), print.join(f)).unwrap();
    }
    std::fs::write(
        print.join("Kbuild"),
        "obj-m := rust_print.o rust_minimal.o\nrust_print-y := rust_print_main.o rust_print_events.o\n",
    )
    .unwrap();
    vec![
        ("hello", format!("{}/hello", work.inside)),
        ("multi", format!("{}/multi", work.inside)),
        ("print", format!("{}/print", work.inside)),
    ]
}

#[test]
fn another_rustc_is_refused_with_the_one_to_install() {
    let env = Env::get();
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    // The machine's own rustc (Debian bookworm's 1.85.0) is not the one the kernel was built with.
    let rustc = common::tool_env("RKBUILD_TEST_RUSTC_185");
    let o = Command::new(env!("CARGO_BIN_EXE_rkbuild"))
        .arg("distro")
        .arg("--headers")
        .arg(env.root.join(env.headers().trim_start_matches('/')))
        .arg("-S")
        .arg(env.root.join("usr/src/linux-source-7.3"))
        .arg("-O")
        .arg(&out)
        .args(["--rustc", &rustc])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("rustc 1.85.1 (4eb161250 2025-03-15) (built from a source tarball)")
            && err.contains("LLVM 19.1.7")
            && err.contains("fix: "),
        "the message names the compiler to install: {err}"
    );
    assert!(
        !out.exists(),
        "nothing is written when the compiler is refused"
    );
}

#[test]
fn debian_kernel_loads_rust_modules_rkbuild_built_for_it() {
    let env = Env::get();
    install_rkbuild(&env);
    let work = Work::new(&env);
    let mods = modules(&env, &work);
    let out = format!("{}/out", work.inside);
    let headers = env.headers();

    // The kernel's Rust side rebuilt, and the first module with it.
    let started = Instant::now();
    let o = env.chroot(&format!(
        "rkbuild distro --headers {headers} -S /usr/src/linux-source-7.3 -O {out} -j2 -M {}",
        mods[0].1
    ));
    let log = text(&o);
    assert!(o.status.success(), "rkbuild distro failed:\n{log}");
    let rebuild = started.elapsed().as_secs_f64();
    for c in ["core", "kernel"] {
        assert!(
            log.lines()
                .any(|l| l.contains(&format!("MATCH   rust/{c}.o: crate hash"))),
            "no crate-hash match for {c}:\n{log}"
        );
    }
    eprintln!("  rkbuild distro (rust/ rebuilt, module built): {rebuild:.1} s");
    eprintln!(
        "{}",
        log.lines()
            .filter(|l| l.contains("MATCH"))
            .collect::<Vec<_>>()
            .join("\n")
    );

    // The template of a Rust and a C object against the same tree, as a user builds the next.
    let t = Instant::now();
    let o = env.chroot(&format!("rkbuild build -O {out} -M {}", mods[1].1));
    let log = text(&o);
    assert!(o.status.success(), "multi: {log}");
    assert!(!log.contains("WARNING"), "modpost warned:\n{log}");
    eprintln!(
        "  rkbuild build -M multi: {:.1} s",
        t.elapsed().as_secs_f64()
    );
    // The kernel's samples, built first by the kernel's own make against the rebuilt tree (as
    // a Debian user types it), then by rkbuild: the same commands, the same objects and .ko.
    make_then_rkbuild(&env, &work, &out, &mods[2].1);
    // rkbuild wrote only in -O: the distribution's packages are as installed.
    let kbuild = env.root.join(format!(
        "usr/lib/linux-kbuild-{}/scripts",
        kbuild_version(&env)
    ));
    assert!(
        !kbuild.join("target.json").exists(),
        "rkbuild wrote into the linux-kbuild package"
    );
    let o = env.chroot(&format!(
        "dpkg --verify linux-headers-{0} linux-headers-{1}-common linux-kbuild-{1}",
        env.release,
        kbuild_version(&env)
    ));
    assert!(
        o.status.success() && o.stdout.is_empty(),
        "the packages' files changed:\n{}",
        text(&o)
    );
    // A second distro run does nothing to rust/.
    let o = env.chroot(&format!(
        "rkbuild distro --headers {headers} -S /usr/src/linux-source-7.3 -O {out} --message-format json"
    ));
    let log = text(&o);
    assert!(o.status.success(), "{log}");
    assert!(
        !log.contains("\"status\":\"built\""),
        "an unchanged tree is rebuilt:\n{log}"
    );

    // Debian's own kernel boots and runs them.
    let ko = |dir: &str, m: &str| work.host.join(dir).join(format!("{m}.ko"));
    let console = common::boot::boot(
        &common::boot::Machine {
            arch: "x86_64",
            qemu: "qemu-system-x86_64",
            qemu_package: "qemu-system-x86",
            machine: &["-accel", "tcg", "-cpu", "max"],
            console: "ttyS0",
            memory_mb: 1024,
            busybox: PathBuf::from("/bin/busybox"),
        },
        &env.vmlinuz,
        &[
            ("rust_hello", ko("hello", "rust_hello")),
            ("rust_multi", ko("multi", "rust_multi")),
            ("rust_print", ko("print", "rust_print")),
            ("rust_minimal", ko("print", "rust_minimal")),
        ],
        "/bin/busybox echo RKBUILD-TAINT $m $(/bin/busybox cat /proc/sys/kernel/tainted)\n",
    );
    assert!(
        console.contains(&format!(
            "Linux version {}",
            env.release.trim_end_matches("-amd64")
        )) || console.contains("Linux version 7.3.4"),
        "not Debian's kernel:\n{console}"
    );
    for want in [
        "RKBUILD-BOOT up",
        "rust_hello: Hello from rust_hello",
        "rust_hello: Goodbye from rust_hello",
        "rust_multi: the C half answers 42",
        "rust_multi: goodbye",
        "rust_print: Rust printing macros sample (init)",
        "rust_print: Rust printing macros sample (exit)",
        "rust_minimal: Rust minimal sample (init)",
        "rust_minimal: Rust minimal sample (exit)",
        "RKBUILD-BOOT done",
    ] {
        assert!(
            console.contains(want),
            "the serial console lacks `{want}`:\n{console}"
        );
    }
    // Taint: what the kernel had at boot, plus O (out of tree, 4096) and E (unsigned, 8192).
    let taint = |who: &str| -> u64 {
        console
            .lines()
            .find_map(|l| l.trim().strip_prefix(&format!("RKBUILD-TAINT {who} ")))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no taint line for {who}:\n{console}"))
    };
    let base = taint("boot");
    // The time from power-on to the first module's init message, by the kernel's clock.
    let at = console
        .lines()
        .find(|l| l.contains("rust_hello: Hello from rust_hello"))
        .and_then(|l| l.trim_start_matches('[').split(']').next())
        .and_then(|t| t.trim().parse::<f64>().ok());
    eprintln!(
        "  Debian's kernel: first module's init message at {} s of kernel time; taint at boot {base}, after each load {}",
        at.map_or("?".into(), |t| format!("{t:.2}")),
        taint("rust_hello")
    );
    for m in ["rust_hello", "rust_multi", "rust_print", "rust_minimal"] {
        assert_eq!(
            taint(m),
            base | 4096 | 8192,
            "{m} tainted the kernel beyond an unsigned out-of-tree module (boot: {base}):\n{console}"
        );
    }
}

/// `make -C OUT M=DIR modules` in the root, then `rkbuild build -M DIR` in the same folder
/// (make's outputs removed first): every command equal to make's, every object and `.ko`
/// byte for byte; both times printed.
fn make_then_rkbuild(env: &Env, work: &Work, out: &str, dir: &str) {
    let host = work.host.join(dir.rsplit('/').next().unwrap());
    let sources: Vec<String> = std::fs::read_dir(&host)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let t = Instant::now();
    let o = env.chroot(&format!(
        "make -C {out} M={dir} RUSTC=/usr/bin/rustc modules"
    ));
    let make_s = t.elapsed().as_secs_f64();
    let log = text(&o);
    assert!(
        o.status.success(),
        "make M= against the rebuilt tree failed:\n{log}"
    );
    assert!(
        !log.contains("WARNING"),
        "modpost warned under make:\n{log}"
    );
    let o = env.chroot(&format!(
        "rkbuild plan --message-format json -O {out} -M {dir}"
    ));
    assert!(o.status.success(), "{}", text(&o));
    let plan = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut files = common::extmod_plan_equals_make(&plan, &host, "print", |_| {});
    let commands = files.len();
    files.extend(["rust_print.ko".to_string(), "rust_minimal.ko".to_string()]);
    let reference: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| (f.clone(), std::fs::read(host.join(f)).unwrap()))
        .collect();
    for e in std::fs::read_dir(&host).unwrap() {
        let p = e.unwrap().path();
        let f = p.file_name().unwrap().to_string_lossy().into_owned();
        if !sources.contains(&f) {
            if p.is_dir() {
                std::fs::remove_dir_all(&p).unwrap();
            } else {
                std::fs::remove_file(&p).unwrap();
            }
        }
    }
    let t = Instant::now();
    let o = env.chroot(&format!("rkbuild build -O {out} -M {dir} -j2"));
    let rk_s = t.elapsed().as_secs_f64();
    let log = text(&o);
    assert!(o.status.success(), "{log}");
    assert!(!log.contains("WARNING"), "modpost warned:\n{log}");
    for (f, bytes) in reference {
        assert!(
            std::fs::read(host.join(&f)).unwrap() == bytes,
            "rkbuild's {f} differs from make's"
        );
    }
    eprintln!(
        "  samples (rust_print: Rust + C, rust_minimal): {commands} commands equal to make M='s, objects and .ko equal; rkbuild build -M {rk_s:.1} s, make M= {make_s:.1} s ({:.2}x)",
        make_s / rk_s
    );
}
