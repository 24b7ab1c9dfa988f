//! `rkbuild build --timings` on the example tree: the JSON report has every step with its
//! start, wait and duration, and the critical path as a chain of dependent steps; the HTML
//! page, rendered by a real headless Chromium (Debian's `chromium`), draws one bar per step,
//! for a cold build and for one where every step is up to date.

mod common;

use std::path::Path;
use std::process::Command;

fn build(obj: &Path) {
    let src = common::minikernel();
    let o = common::rkbuild_185()
        .args(["build", "-j2", "--timings", "-q", "-S"])
        .arg(&src)
        .arg("-O")
        .arg(obj)
        .arg("--config")
        .arg(src.join("configs/x86_64.config"))
        .output()
        .expect("rkbuild runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The page as Chromium renders it (after its script ran).
fn rendered(page: &Path) -> String {
    let o = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--dump-dom",
        ])
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium is needed (Debian chromium; scripts/install-deps.sh)");
    assert!(
        o.status.success(),
        "chromium: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn check(obj: &Path, status: &str) {
    let json: serde_json::Value =
        serde_json::from_str(&common::read(&obj.join("rkbuild-timings.json"))).unwrap();
    let steps = json["steps"].as_array().unwrap();
    assert!(steps.len() >= 10, "too few steps: {}", steps.len());
    for s in steps {
        assert!(s["ready_ms"].as_u64() <= s["start_ms"].as_u64(), "{s}");
        assert_eq!(s["status"], status, "{s}");
    }
    let path: Vec<&str> = json["critical_path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    if status == "built" {
        // A chain: it starts at a step that waits for nothing, and each step of it waited
        // for the one before it. Pipelined, the crates after `core` compile while core's code
        // is generated, so the chain may be core alone (and what reads its object).
        assert!(!path.is_empty(), "{path:?}");
        assert_eq!(path[0], "rust/core.o", "{path:?}");
        let core = steps.iter().find(|s| s["id"] == "rust/core.o").unwrap();
        let meta = core["metadata_ms"]
            .as_u64()
            .unwrap_or_else(|| panic!("core's metadata time is not recorded: {core}"));
        assert!(meta <= core["duration_ms"].as_u64().unwrap(), "{core}");
        // Its users were ready at its metadata, before its end.
        let cb = steps
            .iter()
            .find(|s| s["id"] == "rust/compiler_builtins.o")
            .unwrap();
        assert!(
            cb["ready_ms"].as_u64().unwrap()
                < core["start_ms"].as_u64().unwrap() + core["duration_ms"].as_u64().unwrap(),
            "{cb}"
        );
        let first = steps.iter().find(|s| s["id"] == path[0]).unwrap();
        assert!(first["deps"].as_array().unwrap().is_empty(), "{first}");
        for w in path.windows(2) {
            let next = steps.iter().find(|s| s["id"] == w[1]).unwrap();
            assert!(
                next["deps"].as_array().unwrap().iter().any(|d| d == w[0]),
                "{} does not wait for {}",
                w[1],
                w[0]
            );
        }
    } else {
        assert!(
            path.is_empty(),
            "nothing ran, yet a critical path: {path:?}"
        );
    }
    let dom = rendered(&obj.join("rkbuild-timings.html"));
    let bars = dom.matches("class=\"bar ").count();
    assert_eq!(bars, steps.len(), "one bar per step");
    assert_eq!(
        dom.matches(&format!("class=\"bar {status}")).count(),
        steps.len()
    );
}

#[test]
fn timings_page_has_one_bar_per_step() {
    let obj = tempfile::tempdir().unwrap();
    build(obj.path());
    check(obj.path(), "built");
    build(obj.path());
    check(obj.path(), "fresh");
}
