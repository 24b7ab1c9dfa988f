//! A full disk and a read-only one: the example tree's object tree on a small tmpfs (mounted in
//! a mount namespace of its own, so nothing stays mounted), built once; then a build that needs
//! to write and a `config` with a changed configuration, first with the disk filled to the last
//! byte, then with it remounted read-only. Each fails with the OS's reason and a `fix:` line,
//! exits non-zero, and leaves every output of the earlier build as it was; with room again,
//! the build finishes.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Every file below `dir` but rkbuild's own records, by path, with its SHA-256.
fn sums(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| l.split_once("  "))
        .map(|(h, p)| (p.to_string(), h.to_string()))
        .collect()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

#[test]
fn full_and_read_only_disks_fail_clearly_and_keep_the_outputs() {
    let d = tempfile::tempdir().unwrap();
    let (o, s, r) = (
        d.path().join("o"),
        d.path().join("src"),
        d.path().join("results"),
    );
    for p in [&o, &s, &r] {
        std::fs::create_dir_all(p).unwrap();
    }
    common::copy_tree(&common::minikernel(), &s);
    let cfg = s.join("configs/x86_64.config");
    let cfg2 = d.path().join("changed.config");
    std::fs::write(
        &cfg2,
        read(&cfg).replace(
            "CONFIG_RUST_OVERFLOW_CHECKS=y",
            "# CONFIG_RUST_OVERFLOW_CHECKS is not set",
        ),
    )
    .unwrap();
    // The disk is filled again before `config`: the failed build's compiler removed its
    // temporaries, which freed a little.
    // The script runs in a mount namespace of its own: the tmpfs is gone when it ends, so
    // what the test checks is written to `results` beside it.
    let script = r#"
set -u
mount -t tmpfs -o size=160M tmpfs "$O" || { echo "cannot mount a tmpfs" > "$R/setup.out"; exit 90; }
sums() { (cd "$O" && find . -type f ! -name '.*.rkbuild' ! -name '.rkbuild*' ! -name 'rkbuild-timings*' | sort | xargs sha256sum) > "$R/$1"; }
b() { "$RK" build -S "$S" -O "$O" --config "$CFG" -j2 > "$R/$1.out" 2>&1; echo $? > "$R/$1.rc"; }
c() { "$RK" config -S "$S" -O "$O" --config "$CFG2" > "$R/$1.out" 2>&1; echo $? > "$R/$1.rc"; }
b build1; sums before
printf '/// Edited.\npub static RKBUILD_EDITED: u32 = 7;\n' >> "$S/rust/kernel/lib.rs"
fill() { dd if=/dev/zero of="$O/fill$1" bs=4k > /dev/null 2>&1; }
fill 1; df -k "$O" | tail -1 > "$R/df"
b full
fill 2; c config-full
rm "$O"/fill*; sums after-full
mount -o remount,ro "$O"
b ro; c config-ro; sums after-ro
mount -o remount,rw "$O"
b build2; sums after
"#;
    let o_status = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", script])
        .env("O", &o)
        .env("S", &s)
        .env("R", &r)
        .env("CFG", &cfg)
        .env("CFG2", &cfg2)
        .env("RK", env!("CARGO_BIN_EXE_rkbuild"))
        .envs(common::build_env_185())
        .env_remove("V")
        .env_remove("KRUSTFLAGS")
        .status()
        .expect("unshare (util-linux) is needed");
    assert!(
        o_status.success() && read(&r.join("build1.rc")).trim() == "0",
        "the first build on the tmpfs failed: {}{}",
        read(&r.join("setup.out")),
        read(&r.join("build1.out"))
    );
    let before = sums(&read(&r.join("before")));
    assert!(before.contains_key("./rust/kernel.o"), "{before:?}");
    eprintln!("  tmpfs: {}", read(&r.join("df")).trim());

    for (run, reason, fix) in [
        ("full", "No space left on device", "fix: the disk is full"),
        (
            "config-full",
            "No space left on device",
            "fix: the disk is full",
        ),
        (
            "ro",
            "Read-only file system",
            "fix: the object tree's file system is mounted read-only",
        ),
        (
            "config-ro",
            "Read-only file system",
            "fix: the object tree's file system is mounted read-only",
        ),
    ] {
        let out = read(&r.join(format!("{run}.out")));
        let rc = read(&r.join(format!("{run}.rc")));
        assert_ne!(rc.trim(), "0", "{run}: succeeded:\n{out}");
        let said: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("error: ") || l.contains("fix: "))
            .collect();
        eprintln!("  {run} (exit {}):\n    {}", rc.trim(), said.join("\n    "));
        assert!(
            out.contains(reason) && out.contains(fix),
            "{run}: the message lacks `{reason}` or `{fix}`:\n{out}"
        );
    }
    // Every output of the first build is as it was, and nothing half-written was left beside
    // them: a failed step's dep-info may have been rewritten (rustc writes it before the
    // object), the object itself may not.
    for after in ["after-full", "after-ro"] {
        let now = sums(&read(&r.join(after)));
        for (path, hash) in &before {
            if path.ends_with(".d") {
                continue;
            }
            assert_eq!(
                now.get(path),
                Some(hash),
                "{after}: {path} changed or vanished"
            );
        }
        let new: Vec<&String> = now.keys().filter(|p| !before.contains_key(*p)).collect();
        assert!(new.is_empty(), "{after}: left behind: {new:?}");
    }
    // With room again the build finishes: kernel.o is the edited source's.
    assert_eq!(
        read(&r.join("build2.rc")).trim(),
        "0",
        "{}",
        read(&r.join("build2.out"))
    );
    let after = sums(&read(&r.join("after")));
    assert_ne!(after["./rust/kernel.o"], before["./rust/kernel.o"]);
}
