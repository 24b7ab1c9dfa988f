//! `rkbuild test` on the example tree with the real rustc 1.85 and rustdoc: the host tests of
//! the kernel crate and the macros crate (and its doctests) are built and run; a second run
//! builds nothing and runs every test again; a failing test's exit status (libtest's 101) is
//! rkbuild's, with only what the change touched rebuilt; a test can be picked by name; an
//! unknown name is refused with the ones there are. (Against `make rusttest` on the real 6.12
//! and 7.3 trees: wrapper_kernel612 and build_linux73.)

mod common;

use std::path::Path;

use serde_json::Value;

/// Runs `rkbuild test ARGS` on a source tree; its exit code and JSON messages.
fn test(src: &Path, obj: &Path, args: &[&str]) -> (i32, Vec<Value>, String) {
    let mut c = common::rkbuild_185();
    c.args(["test", "-j2", "--message-format", "json", "-S"])
        .arg(src)
        .arg("-O")
        .arg(obj)
        .arg("--config")
        .arg(src.join("configs/x86_64.config"))
        .args(args);
    let o = c.output().expect("rkbuild runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let msgs = out
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    (
        o.status.code().unwrap_or(-1),
        msgs,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Step ids with this status.
fn with_status<'a>(msgs: &'a [Value], status: &str) -> Vec<&'a str> {
    msgs.iter()
        .filter(|m| m["reason"] == "step" && m["status"] == status)
        .map(|m| m["id"].as_str().unwrap())
        .collect()
}

fn output_of<'a>(msgs: &'a [Value], id: &str) -> &'a str {
    msgs.iter()
        .find(|m| m["reason"] == "step" && m["id"] == id && m["output"].is_string())
        .and_then(|m| m["output"].as_str())
        .unwrap_or_else(|| panic!("no output of `{id}` in {msgs:#?}"))
}

#[test]
fn host_tests_of_the_example_tree() {
    let src = tempfile::tempdir().unwrap();
    common::copy_tree(&common::minikernel(), src.path());
    let obj = tempfile::tempdir().unwrap();

    // 1. Everything built, every test run.
    let (code, msgs, err) = test(src.path(), obj.path(), &[]);
    assert_eq!(code, 0, "{err}\n{msgs:#?}");
    let built = with_status(&msgs, "built");
    for id in [
        "rust/test/libmacros.so",
        "rust/test/libkernel.rlib",
        "rust/test/macros",
        "rust/test/kernel",
        "rusttest-macros",
        "rusttest-kernel",
        "rustdoctest-macros",
    ] {
        assert!(built.contains(&id), "`{id}` did not run: {built:?}");
    }
    // Only what the tests need: no driver.
    assert!(
        !built.iter().any(|b| b.starts_with("drivers/")),
        "{built:?}"
    );
    let kernel = output_of(&msgs, "rusttest-kernel");
    assert!(
        kernel.contains("test error::tests::errno_round_trip ... ok")
            && kernel.contains("test result: ok. 2 passed"),
        "{kernel}"
    );
    let doc = output_of(&msgs, "rustdoctest-macros");
    assert!(doc.contains("test result: ok."), "{doc}");

    // 2. Nothing to build; the tests run again.
    let (code, msgs, err) = test(src.path(), obj.path(), &[]);
    assert_eq!(code, 0, "{err}");
    let mut built = with_status(&msgs, "built");
    built.sort();
    assert_eq!(
        built,
        ["rustdoctest-macros", "rusttest-kernel", "rusttest-macros"]
    );
    assert!(with_status(&msgs, "fresh").contains(&"rust/test/libkernel.rlib"));

    // 3. A failing test: its status is rkbuild's; only what uses the changed file is rebuilt.
    let lib = src.path().join("rust/kernel/error.rs");
    let text = common::read(&lib);
    std::fs::write(
        &lib,
        format!(
            "{text}\n#[cfg(test)]\nmod rkbuild_check {{\n    #[test]\n    fn fails() {{\n        assert_eq!(1 + 1, 3);\n    }}\n}}\n"
        ),
    )
    .unwrap();
    let (code, msgs, err) = test(src.path(), obj.path(), &["kernel"]);
    assert_eq!(code, 101, "libtest's status for a failed test\n{err}");
    let failed = with_status(&msgs, "failed");
    assert_eq!(failed, ["rusttest-kernel"]);
    let out = output_of(&msgs, "rusttest-kernel");
    assert!(
        out.contains("rkbuild_check::fails ... FAILED") && out.contains("1 failed"),
        "{out}"
    );
    let mut built = with_status(&msgs, "built");
    built.sort();
    assert_eq!(built, ["rust/test/kernel", "rust/test/libkernel.rlib"]);

    // 4. `-- ARGS` reach the test binary: a filter that skips the failing test.
    let (code, msgs, err) = test(src.path(), obj.path(), &["kernel", "--", "errno"]);
    assert_eq!(code, 0, "{err}");
    let out = output_of(&msgs, "rusttest-kernel");
    assert!(
        out.contains("1 passed") && out.contains("filtered out"),
        "{out}"
    );

    // 5. An unknown test: refused, naming the ones there are.
    let (code, msgs, _) = test(src.path(), obj.path(), &["kernl"]);
    assert_eq!(code, 2);
    let err = msgs
        .iter()
        .find(|m| m["reason"] == "error")
        .and_then(|m| m["message"].as_str())
        .unwrap_or_default();
    assert!(
        err.contains("did you mean `kernel`?") && err.contains("macros"),
        "{msgs:#?}"
    );
}
