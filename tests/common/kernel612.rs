//! Linux 6.12 built by its own make with Debian's rustc 1.85 (`prepare samples/rust/`), the
//! way wrapper_kernel612 and analyzer_rust_analyzer need it. The plain O= folder is kept
//! between runs (`RKBUILD_WRAP_612_PLAIN`, default /tmp/rkbuild-wrap-612-plain) and reused
//! while its recipe stamp matches; make then only checks it is up to date.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Bumped when the recipe below changes, to invalidate cached plain builds.
pub const RECIPE: &str = "rkbuild-wrap-612 v1: defconfig +RUST -MODVERSIONS +SAMPLES +SAMPLES_RUST SAMPLE_RUST_MINIMAL=m SAMPLE_RUST_PRINT=y; prepare samples/rust/";

pub struct Env {
    pub src: PathBuf,
    pub rustc: String,
    pub lib: String,
    pub bindgen: String,
    pub libclang: String,
}

impl Env {
    pub fn get() -> Env {
        Env {
            src: PathBuf::from(super::tool_env("RKBUILD_TEST_LINUX_612")),
            rustc: super::tool_env("RKBUILD_TEST_RUSTC_185"),
            lib: super::tool_env("RKBUILD_TEST_LIB_185"),
            bindgen: super::tool_env("RKBUILD_TEST_BINDGEN"),
            libclang: super::tool_env("RKBUILD_TEST_LIBCLANG_PATH"),
        }
    }

    /// The kernel's make for object tree `o`, with `rustc` as RUSTC; a `rkbuild-rustc` link
    /// goes through templates/make/kernel.mk, as a user would.
    pub fn make(&self, o: &Path, rustc: &str) -> Command {
        let mut c = Command::new("make");
        if rustc.ends_with("rkbuild-rustc") {
            let mk = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/make/kernel.mk");
            c.arg("-f")
                .arg(mk)
                .arg(format!("KDIR={}", self.src.display()))
                .arg(format!("RKBUILD_RUSTC_LINK={rustc}"));
        } else {
            c.arg("-C").arg(&self.src).arg(format!("RUSTC={rustc}"));
        }
        c.arg(format!("O={}", o.display()))
            .arg("LLVM=-14")
            .arg("RUSTDOC=/usr/bin/rustdoc")
            .arg(format!("BINDGEN={}", self.bindgen))
            .arg(format!("RUST_LIB_SRC={}", self.lib))
            .env("LIBCLANG_PATH", &self.libclang);
        for k in [
            "MAKEFLAGS",
            "MFLAGS",
            "MAKELEVEL",
            "RKBUILD_LOG",
            "RKBUILD_RUSTC",
            "RKBUILD_CLIPPY",
            "CLIPPY",
            "KBUILD_CLIPPY",
            "RUSTFLAGS",
            "O",
            "V",
        ] {
            c.env_remove(k);
        }
        c
    }
}

pub fn ok(mut c: Command, what: &str) -> String {
    let t = Instant::now();
    let o = c
        .output()
        .unwrap_or_else(|e| panic!("cannot run make ({what}): {e}"));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success(),
        "{what} failed ({}):\n{}\n{err}",
        o.status,
        tail(&out, 40)
    );
    eprintln!("  {what}: {:.1} s", t.elapsed().as_secs_f64());
    out
}

pub fn tail(s: &str, n: usize) -> String {
    let l: Vec<&str> = s.lines().collect();
    l[l.len().saturating_sub(n)..].join("\n")
}

/// defconfig + the oracle's options + olddefconfig, then `-j2 prepare samples/rust/`.
pub fn configure_and_build(env: &Env, o: &Path, rustc: &str, envs: &[(&str, &Path)]) {
    std::fs::create_dir_all(o).unwrap();
    let with = |mut c: Command| {
        for (k, v) in envs {
            c.env(k, v);
        }
        c
    };
    let mut c = with(env.make(o, rustc));
    c.arg("defconfig");
    ok(c, "defconfig");
    let mut c = Command::new(env.src.join("scripts/config"));
    c.arg("--file")
        .arg(o.join(".config"))
        .args(super::RUST_SAMPLES);
    ok(c, "scripts/config");
    let mut c = with(env.make(o, rustc));
    c.arg("olddefconfig");
    ok(c, "olddefconfig");
    let cfg = std::fs::read_to_string(o.join(".config")).unwrap();
    assert!(
        cfg.contains("\nCONFIG_RUST=y\n"),
        "CONFIG_RUST did not stick in {}",
        o.display()
    );
    build(env, o, rustc, envs);
}

pub fn build(env: &Env, o: &Path, rustc: &str, envs: &[(&str, &Path)]) {
    let mut c = env.make(o, rustc);
    for (k, v) in envs {
        c.env(k, v);
    }
    c.args(["-j2", "prepare", "samples/rust/"]);
    ok(
        c,
        &format!("make -j2 prepare samples/rust/ in {}", o.display()),
    );
}

pub fn rustc_version(rustc: &str) -> String {
    let o = Command::new(rustc).arg("-vV").output().unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Where the plain tree is kept.
pub fn plain_dir() -> PathBuf {
    std::env::var_os("RKBUILD_WRAP_612_PLAIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp/rkbuild-wrap-612-plain"))
}

/// Makes `plain` the plain build (from scratch unless its stamp matches). Two test binaries
/// use it, and CI runs binaries side by side: a lock beside the tree (the tree itself may be
/// removed) makes the second wait for the first instead of building over it. The lock is
/// held until the caller's process ends, as the callers then read the tree.
pub fn plain_tree(env: &Env, plain: &Path) {
    static HELD: std::sync::OnceLock<rkbuild::fsutil::FileLock> = std::sync::OnceLock::new();
    // get_or_init: a second thread of this process waits for the first's lock, not on its own.
    HELD.get_or_init(|| {
        let mut lock = plain.as_os_str().to_owned();
        lock.push(".lock");
        if let Some(dir) = plain.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        rkbuild::fsutil::lock_file(Path::new(&lock), true, |who| {
            eprintln!("the plain 6.12 tree is in use by {who}; waiting for it")
        })
        .unwrap()
    });
    let stamp_text = format!(
        "{RECIPE}\n{}\n{}\n{}\n",
        env.src.display(),
        rustc_version(&env.rustc),
        env.bindgen
    );
    let stamp = plain.join(".rkbuild-test-stamp");
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(stamp_text.as_str()) {
        build(env, plain, &env.rustc, &[]);
    } else {
        let _ = std::fs::remove_dir_all(plain);
        configure_and_build(env, plain, &env.rustc, &[]);
        std::fs::write(&stamp, &stamp_text).unwrap();
    }
}
