//! The step cache shared through the Remote Execution API, against a real server: BuildGrid
//! 0.9.1 (CAS, ActionCache and ByteStream on disk storage), started on 127.0.0.1 with a free
//! port. Machine A (object tree A, empty local cache) builds the bundled example tree and
//! uploads; machine B (another tree, another empty local cache) builds the same configuration
//! with no compile at all and byte-identical objects. A server whose blobs are corrupt is
//! refused and the steps are rebuilt (and the good bytes uploaded again); a server that is down
//! or never answers costs one warning, never the build.

mod common;

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;

use common::reapi::start_buildgrid;

struct Run {
    steps: BTreeMap<String, String>,
    stderr: String,
}

/// `rkbuild build` of the example tree into `obj`, with an own local cache and `remote`.
fn build(obj: &Path, cache: &Path, remote: &str, env: &[(&str, &str)]) -> Run {
    let src = common::minikernel();
    let mut c = common::rkbuild_185();
    c.args(["build", "--message-format", "json", "-S"])
        .arg(&src)
        .arg("-O")
        .arg(obj)
        .arg("--config")
        .arg(src.join("configs/x86_64.config"))
        .arg("--cache-dir")
        .arg(cache)
        .args(["--remote", remote]);
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "rkbuild build failed:\n{out}\n{stderr}");
    let steps = out
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["reason"] == "step")
        .map(|v| {
            (
                v["id"].as_str().unwrap().to_string(),
                v["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    Run { steps, stderr }
}

/// The steps with `status` that ran a tool (not rkbuild's own exports headers).
fn with(run: &Run, status: &str) -> Vec<String> {
    run.steps
        .iter()
        .filter(|(id, s)| *s == status && !id.ends_with(".h"))
        .map(|(id, _)| id.clone())
        .collect()
}

/// Every object of a tree.
fn objects(obj: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![obj.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "o") {
                let rel = p.strip_prefix(obj).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn warnings(run: &Run) -> usize {
    run.stderr
        .lines()
        .filter(|l| l.contains("warning: remote cache"))
        .count()
}

#[test]
fn a_second_machine_builds_from_the_remote_cache_alone() {
    let server = start_buildgrid();
    let url = format!("grpc://127.0.0.1:{}", server.port);

    // Machine A: everything compiled, and uploaded.
    let (obj_a, cache_a) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = build(obj_a.path(), cache_a.path(), &url, &[]);
    let built = with(&a, "built");
    assert!(
        built.iter().any(|id| id == "rust/core.o") && built.len() >= 10,
        "machine A did not compile everything: {:?}",
        a.steps
    );
    assert_eq!(warnings(&a), 0, "{}", a.stderr);

    // Machine B: another object tree, an empty local cache; every compile from the server.
    let (obj_b, cache_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let b = build(obj_b.path(), cache_b.path(), &url, &[]);
    assert!(
        with(&b, "built").is_empty(),
        "machine B compiled: {:?}",
        with(&b, "built")
    );
    assert_eq!(with(&b, "cached"), built);
    let (oa, ob) = (objects(obj_a.path()), objects(obj_b.path()));
    assert!(oa.len() >= 10, "{:?}", oa.keys());
    assert!(oa.keys().eq(ob.keys()));
    for (k, v) in &oa {
        assert!(ob[k] == *v, "{k} differs between machine A and machine B");
    }

    // The server's objects corrupted on its disk (its other blobs, the ActionResults and
    // input lists, are left whole): machine C refuses them, compiles, and is right. (BuildGrid's
    // disk storage keeps the first bytes written under a digest, so the good bytes C offers
    // again do not replace them: machine D refuses them too.)
    let mut stack = vec![server.storage.clone()];
    let mut corrupted = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if std::fs::read(&p).unwrap().starts_with(b"\x7fELF") {
                std::fs::write(&p, b"not what it was").unwrap();
                corrupted += 1;
            }
        }
    }
    assert!(
        corrupted >= 10,
        "only {corrupted} objects found in BuildGrid's storage"
    );
    let (obj_c, cache_c) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let c = build(obj_c.path(), cache_c.path(), &url, &[]);
    // Every step with an object among its outputs compiled again; bindgen's (text) came
    // from the server.
    assert!(
        with(&c, "cached").iter().all(|id| id.ends_with(".rs"))
            && with(&c, "built")
                .iter()
                .filter(|id| id.ends_with(".o") || id.ends_with(".so"))
                .count()
                == built
                    .iter()
                    .filter(|id| id.ends_with(".o") || id.ends_with(".so"))
                    .count(),
        "{:?}",
        c.steps
    );
    assert!(
        c.stderr.contains("does not match its digest; refused"),
        "{}",
        c.stderr
    );
    let oc = objects(obj_c.path());
    for (k, v) in &oa {
        assert!(
            oc[k] == *v,
            "{k} differs after a rebuild past corrupt blobs"
        );
    }
    assert!(!c.stderr.contains("going on without it"), "{}", c.stderr);

    // The server down: one warning, the build goes on locally.
    drop(server);
    let (obj_e, cache_e) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let e = build(obj_e.path(), cache_e.path(), &url, &[]);
    assert_eq!(with(&e, "built"), built);
    assert_eq!(warnings(&e), 1, "{}", e.stderr);
}

#[test]
fn a_server_that_never_answers_costs_one_warning() {
    // Takes connections and says nothing.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = vec![];
        for s in listener.incoming() {
            held.push(s);
        }
    });
    let (obj, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let r = build(
        obj.path(),
        cache.path(),
        &format!("grpc://127.0.0.1:{port}"),
        &[("RKBUILD_REMOTE_TIMEOUT", "2")],
    );
    assert!(with(&r, "built").iter().any(|s| s == "rust/core.o"));
    assert_eq!(warnings(&r), 1, "{}", r.stderr);
}

#[test]
fn a_bad_remote_url_is_refused_with_the_fix() {
    let o = Command::new(env!("CARGO_BIN_EXE_rkbuild"))
        .args(["build", "-S"])
        .arg(common::minikernel())
        .arg("-O")
        .arg(tempfile::tempdir().unwrap().path())
        .args(["--remote", "127.0.0.1:50051"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("grpc://HOST:PORT") && e.contains("fix:"), "{e}");
}
