//! One rkbuild writes an object tree at a time: two real builds of the example tree started
//! together into one object tree both succeed, one after the other (the second says it
//! waits), and the tree is complete and up to date; with `--no-wait` the second fails at once,
//! naming the holder and the fix. A lock is released when its process ends, however it ends.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

fn build(obj: &Path, extra: &[&str]) -> Command {
    let src = common::minikernel();
    let mut c = common::rkbuild_185();
    c.args(["build", "-j", "1", "--message-format", "json", "-S"])
        .arg(&src)
        .arg("-O")
        .arg(obj)
        .arg("--config")
        .arg(src.join("configs/x86_64.config"))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

#[test]
fn two_builds_of_one_tree_take_turns() {
    let obj = tempfile::tempdir().unwrap();
    let a = build(obj.path(), &[]).spawn().unwrap();
    let b = build(obj.path(), &[]).spawn().unwrap();
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let err = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(a.status.success(), "{}", err(&a));
    assert!(b.status.success(), "{}", err(&b));
    let waited = [&a, &b]
        .iter()
        .filter(|o| err(o).contains("is in use by another rkbuild"))
        .count();
    assert_eq!(
        waited,
        1,
        "one build waits for the other:\n{}\n{}",
        err(&a),
        err(&b)
    );
    // The tree is whole: a third build has nothing to do.
    let c = build(obj.path(), &[]).output().unwrap();
    assert!(c.status.success());
    let out = String::from_utf8_lossy(&c.stdout);
    assert!(
        out.lines()
            .filter(|l| l.contains("\"reason\":\"step\""))
            .all(|l| l.contains("\"status\":\"fresh\"")),
        "{out}"
    );

    // --no-wait while another build holds the tree: at once, with the fix.
    std::fs::remove_file(obj.path().join("rust/core.o")).unwrap();
    let mut holder = build(obj.path(), &[]).spawn().unwrap();
    let lock = obj.path().join(".rkbuild.lock");
    let t = std::time::Instant::now();
    // The holder writes its pid once it has the lock.
    while std::fs::read_to_string(&lock).ok().as_deref() != Some(&holder.id().to_string()) {
        assert!(
            t.elapsed().as_secs() < 60,
            "the first build never took the lock"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let refused = build(obj.path(), &["--no-wait"]).output().unwrap();
    assert!(!refused.status.success());
    // (with --message-format json the error is a JSON line on stdout)
    let e = format!(
        "{}{}",
        String::from_utf8_lossy(&refused.stdout),
        err(&refused)
    );
    assert!(
        e.contains(&format!("pid {}", holder.id())) && e.contains("fix:"),
        "{e}"
    );
    // Killed while holding it: the next build takes the lock and finishes the tree.
    holder.kill().unwrap();
    holder.wait().unwrap();
    let d = build(obj.path(), &["--no-wait"]).output().unwrap();
    assert!(
        d.status.success(),
        "{}{}",
        String::from_utf8_lossy(&d.stdout),
        err(&d)
    );
    assert!(obj.path().join("rust/core.o").is_file());
}
