//! Under GNU make's jobserver, rkbuild runs as many compilers at once as make's tokens allow,
//! not its own `-j`: a real `make -j2` whose recipe runs `rkbuild build -j8` on the example
//! tree never has more than 2 rustc processes at once (make 4.3: the pipe style); the same
//! with a fifo jobserver (make 4.4's style) of 2 jobs; and, as the control that the count
//! sees parallelism, `rkbuild build -j8` alone has more than 2.

mod common;

use std::io::Write as _;
use std::path::Path;
use std::process::Command;

/// A RUSTC that counts the rustc processes running when it starts (a file per process in
/// `dir`), then runs the real one.
fn counting_rustc(dir: &Path) -> std::path::PathBuf {
    let real = common::tool_env("RKBUILD_TEST_RUSTC_185");
    let script = dir.join("rustc");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nd={d}\ntouch \"$d/running.$$\"\nls \"$d\" | grep -c '^running\\.' >> \"$d/counts\"\n\"{real}\" \"$@\"\nrc=$?\nrm -f \"$d/running.$$\"\nexit $rc\n",
            d = dir.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// The most rustc processes seen at once, starting the count afresh.
fn most(dir: &Path) -> usize {
    let n = std::fs::read_to_string(dir.join("counts"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .max()
        .unwrap_or(0);
    let _ = std::fs::remove_file(dir.join("counts"));
    n
}

/// `rkbuild build -j8` of the example tree into a fresh object tree, as `sh -c` runs it.
fn build_line(count: &Path, obj: &Path) -> String {
    let src = common::minikernel();
    let mut env = String::new();
    for (k, v) in common::build_env_185() {
        if k != "RUSTC" {
            env.push_str(&format!("{k}={} ", shlex::try_quote(&v).unwrap()));
        }
    }
    format!(
        "{env}RUSTC={} {} build -q -j8 -S {} -O {} --config {}",
        counting_rustc(count).display(),
        env!("CARGO_BIN_EXE_rkbuild"),
        src.display(),
        obj.display(),
        src.join("configs/x86_64.config").display()
    )
}

fn clean(c: &mut Command) -> &mut Command {
    for k in common::RKBUILD_ENV_UNSET {
        c.env_remove(k);
    }
    c.env_remove("MFLAGS").env_remove("CARGO_MAKEFLAGS")
}

#[test]
fn make_jobserver_bounds_the_compilers() {
    let count = tempfile::tempdir().unwrap();

    // The control: on its own, -j8 runs more than two at once.
    let obj = tempfile::tempdir().unwrap();
    let st = clean(
        Command::new("sh")
            .arg("-c")
            .arg(build_line(count.path(), obj.path())),
    )
    .status()
    .unwrap();
    assert!(st.success());
    let alone = most(count.path());
    assert!(
        alone > 2,
        "rkbuild -j8 alone never ran more than {alone} rustc at once"
    );

    // Inside `make -j2` (pipe jobserver: GNU make 4.3).
    let obj = tempfile::tempdir().unwrap();
    let mk = count.path().join("Makefile");
    std::fs::write(
        &mk,
        format!("all:\n\t+{}\n", build_line(count.path(), obj.path())),
    )
    .unwrap();
    let o = clean(Command::new("make").arg("-j2").arg("-f").arg(&mk))
        .output()
        .expect("make is needed (Debian make)");
    assert!(
        o.status.success(),
        "make: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let under_make = most(count.path());
    assert!(
        (1..=2).contains(&under_make),
        "under make -j2, {under_make} rustc ran at once"
    );
    assert!(obj.path().join("rust/kernel.o").is_file());

    // A fifo jobserver of 2 jobs (make 4.4's style): one token in the fifo, one implicit.
    let obj = tempfile::tempdir().unwrap();
    let fifo = count.path().join("jobserver.fifo");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    // Held open read-write so the fifo never sees end of file while rkbuild uses it.
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .unwrap();
    f.write_all(b"+").unwrap();
    let st = clean(
        Command::new("sh")
            .arg("-c")
            .arg(build_line(count.path(), obj.path())),
    )
    .env(
        "MAKEFLAGS",
        format!(" -j2 --jobserver-auth=fifo:{}", fifo.display()),
    )
    .status()
    .unwrap();
    assert!(st.success());
    let with_fifo = most(count.path());
    assert!(
        (1..=2).contains(&with_fifo),
        "with a fifo jobserver of 2, {with_fifo} rustc ran at once"
    );
    eprintln!(
        "  most rustc at once: alone -j8 {alone}, under make -j2 {under_make}, fifo jobserver of 2 {with_fifo}"
    );
}
