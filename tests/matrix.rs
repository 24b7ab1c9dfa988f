//! `rkbuild matrix` on the bundled example tree with the real toolchain: two configurations
//! (x86_64, arm64) and a broken one, in one command, sharing the step cache. The broken cell
//! fails alone, with its first error; the same matrix under another root then runs no tool
//! at all (every step from the cache), and the JSON report says so.

mod common;

use std::path::Path;

fn matrix(root: &Path, cache: &Path, configs: &[&Path]) -> (bool, serde_json::Value) {
    let mut c = common::rkbuild_185();
    c.args(["matrix", "--message-format", "json", "-S"])
        .arg(common::minikernel())
        .arg("--root")
        .arg(root)
        .arg("--cache-dir")
        .arg(cache)
        .args(["-j", "2"]);
    for cfg in configs {
        c.arg("--config").arg(cfg);
    }
    let o = c.output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap_or("{}"))
        .unwrap_or_else(|e| {
            panic!(
                "no report ({e}):\n{out}\n{}",
                String::from_utf8_lossy(&o.stderr)
            )
        });
    (o.status.success(), v["report"].clone())
}

#[test]
fn a_matrix_shares_the_cache_and_survives_a_failing_cell() {
    let cfgs = common::minikernel().join("configs");
    let (x86, arm) = (cfgs.join("x86_64.config"), cfgs.join("arm64.config"));
    let bad_dir = tempfile::tempdir().unwrap();
    let bad = bad_dir.path().join("broken.config");
    std::fs::write(
        &bad,
        "CONFIG_RUST=y\nCONFIG_64BIT=y\nthis is not a .config line\n",
    )
    .unwrap();
    // x86_64 with one driver's symbol changed: it shares every step but that driver's.
    let loud = bad_dir.path().join("x86_64-loud.config");
    std::fs::write(
        &loud,
        common::read(&x86).replace(
            "# CONFIG_MINI_HELLO_LOUD is not set",
            "CONFIG_MINI_HELLO_LOUD=y",
        ),
    )
    .unwrap();
    let cache = tempfile::tempdir().unwrap();

    let a = tempfile::tempdir().unwrap();
    let (ok, r) = matrix(a.path(), cache.path(), &[&x86, &loud, &arm, &bad]);
    let first_ms = r["wall_ms"].clone();
    assert!(!ok, "a failed cell must fail the command");
    let cells = r["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 4);
    for c in &cells[..3] {
        assert_eq!(c["ok"], true, "{c}");
    }
    assert!(cells[2]["compiled"].as_u64().unwrap() >= 10, "{}", cells[2]);
    // x86_64 and its variant were built at the same time, sharing every step but their driver:
    // a step is made by one build at a time, and whoever waited took it from the cache, so
    // between them each shared step was compiled once, however the two interleaved. (The host's
    // proc macro is shared with arm64's cell too, which may have compiled it first.)
    let count = |c: &serde_json::Value, k: &str| c[k].as_u64().unwrap();
    let steps = count(&cells[0], "compiled") + count(&cells[0], "cached");
    assert_eq!(
        steps,
        count(&cells[1], "compiled") + count(&cells[1], "cached"),
        "{} {}",
        cells[0],
        cells[1]
    );
    let both = count(&cells[0], "compiled") + count(&cells[1], "compiled");
    assert!(
        steps >= 10
            && (steps - 1..=steps + 1).contains(&both)
            && count(&cells[0], "compiled") >= 1
            && count(&cells[1], "compiled") >= 1,
        "{} {}",
        cells[0],
        cells[1]
    );
    assert_eq!(cells[3]["ok"], false);
    assert!(
        cells[3]["error"]
            .as_str()
            .unwrap()
            .contains("broken.config"),
        "the failed cell's error names its file: {}",
        cells[3]
    );
    assert!(a.path().join("matrix.json").is_file());
    assert!(a.path().join("x86_64/rust/kernel.o").is_file());
    assert!(a.path().join("arm64/rust/kernel.o").is_file());

    // Another root, the same three configurations: nothing is compiled (the variant's
    // shared steps are the same outputs as x86_64's, so its driver's key matches too).
    let b = tempfile::tempdir().unwrap();
    let (ok, r) = matrix(b.path(), cache.path(), &[&x86, &loud, &arm]);
    assert!(ok, "{r}");
    for c in r["cells"].as_array().unwrap() {
        assert_eq!(c["compiled"], 0, "{c}");
        assert!(c["cached"].as_u64().unwrap() >= 10, "{c}");
    }
    assert_eq!(r["hit_rate"], 1.0, "{r}");
    eprintln!(
        "  matrix: first root {first_ms} ms, second root {} ms (all from the cache)",
        r["wall_ms"]
    );
}
