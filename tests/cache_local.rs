//! The content-addressed step cache, with the real toolchain on the bundled example tree: a
//! second object tree (at another path) with the same configuration is built from the cache
//! alone, byte for byte; a change of one driver's Kconfig symbol, or one byte of its source,
//! reruns that driver only; a corrupt cache entry is refused and rebuilt.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

/// `rkbuild build` of the example tree into `obj` with `config`; the status of every step.
fn build(obj: &Path, config: &Path, cache: &Path, src: &Path) -> BTreeMap<String, String> {
    let mut c = common::rkbuild_185();
    c.args(["build", "--message-format", "json", "-S"])
        .arg(src)
        .arg("-O")
        .arg(obj)
        .arg("--config")
        .arg(config)
        .arg("--cache-dir")
        .arg(cache);
    let o = c.output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "rkbuild build failed:\n{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["reason"] == "step")
        .map(|v| {
            (
                v["id"].as_str().unwrap().to_string(),
                v["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The steps that ran a tool (bindgen, rustc, the C compiler), as opposed to rkbuild's own.
fn compiled(steps: &BTreeMap<String, String>, status: &str) -> Vec<String> {
    steps
        .iter()
        .filter(|(id, s)| *s == status && !id.ends_with(".h"))
        .map(|(id, _)| id.clone())
        .collect()
}

/// The outputs that do not name their object tree: objects and generated sources. (A crate's
/// `.rmeta` records the paths of the generated files it includes through `OBJTREE` and the
/// target spec's path, and a proc macro's `.so` its build folder: built in two trees they
/// differ, cached they are the first tree's. That they change no object is checked below.)
fn outputs(obj: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![obj.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(obj).unwrap().display().to_string();
            if p.is_dir() {
                stack.push(p);
            } else if [".o", "_generated.rs", "_generated.h"]
                .iter()
                .any(|s| rel.ends_with(s))
            {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

#[test]
fn a_second_object_tree_is_built_from_the_cache_alone() {
    // A copy of the example tree, whose one source byte changes below (the source tree's
    // path is part of every key: outputs name their sources).
    let tree = tempfile::tempdir().unwrap();
    common::copy_tree(&common::minikernel(), tree.path());
    let src = tree.path().to_path_buf();
    let config = src.join("configs/x86_64.config");
    let cache = tempfile::tempdir().unwrap();
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();

    let first = build(a.path(), &config, cache.path(), &src);
    let built = compiled(&first, "built");
    assert!(
        built.iter().any(|id| id == "rust/core.o") && built.len() >= 10,
        "the first build did not compile everything: {first:?}"
    );
    assert!(compiled(&first, "cached").is_empty());

    // Another tree, another path: every step that ran a tool comes from the cache.
    let second = build(b.path(), &config, cache.path(), &src);
    assert!(
        compiled(&second, "built").is_empty(),
        "steps compiled again: {:?}",
        compiled(&second, "built")
    );
    assert_eq!(compiled(&second, "cached"), built);
    let (oa, ob) = (outputs(a.path()), outputs(b.path()));
    assert!(oa.len() >= 15, "{:?}", oa.keys());
    assert_eq!(oa.keys().collect::<Vec<_>>(), ob.keys().collect::<Vec<_>>());
    for (k, v) in &oa {
        assert!(
            ob[k] == *v,
            "{k} differs between the built and the cached tree"
        );
    }
    // The restored tree is up to date for the next build.
    let again = build(b.path(), &config, cache.path(), &src);
    assert!(again.values().all(|s| s == "fresh"), "{again:?}");

    // One driver's symbol: only that driver runs again (its key names the symbol; rustc_cfg
    // as a whole is not part of any key).
    let loud = tempfile::tempdir().unwrap();
    let text = common::read(&config).replace(
        "# CONFIG_MINI_HELLO_LOUD is not set",
        "CONFIG_MINI_HELLO_LOUD=y",
    );
    let loud_config = loud.path().join(".config");
    std::fs::write(&loud_config, text).unwrap();
    let c = tempfile::tempdir().unwrap();
    let third = build(c.path(), &loud_config, cache.path(), &src);
    assert_eq!(
        compiled(&third, "built"),
        ["drivers/misc/rust_hello.o"],
        "{third:?}"
    );
    // That driver was compiled against crates restored from another tree (their `.rmeta`
    // name that tree): its object is still the one a cold build makes.
    let cold_cache = tempfile::tempdir().unwrap();
    let cold = tempfile::tempdir().unwrap();
    build(cold.path(), &loud_config, cold_cache.path(), &src);
    let (oc, ocold) = (outputs(c.path()), outputs(cold.path()));
    assert!(oc.len() >= 15 && oc.keys().eq(ocold.keys()));
    for (k, v) in &oc {
        assert!(
            ocold[k] == *v,
            "{k}: from the cache differs from a cold build"
        );
    }

    // One byte of one driver's source: only that driver runs again.
    let leds = src.join("drivers/leds/leds_mini.rs");
    let mut s = common::read(&leds);
    s.push_str("\n// one more line\n");
    std::fs::write(&leds, s).unwrap();
    let d = tempfile::tempdir().unwrap();
    let fourth = build(d.path(), &config, cache.path(), &src);
    assert_eq!(
        compiled(&fourth, "built"),
        ["drivers/leds/leds_mini.o"],
        "{fourth:?}"
    );

    // A corrupt cache: the blobs' bytes no longer match their digests. The build refuses them
    // and compiles again, and is right.
    let mut stack = vec![cache.path().join("cas")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                std::fs::write(&p, b"not what it was").unwrap();
            }
        }
    }
    let e = tempfile::tempdir().unwrap();
    let fifth = build(e.path(), &config, cache.path(), &src);
    assert!(compiled(&fifth, "cached").is_empty(), "{fifth:?}");
    let oe = outputs(e.path());
    for (k, v) in &oa {
        assert!(
            oe[k] == *v,
            "{k} differs after a rebuild past a corrupt cache"
        );
    }
}
