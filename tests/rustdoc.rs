//! `rkbuild doc` on the example tree with the real rustc 1.85 and its rustdoc: the kernel's
//! crates documented and retouched as the kernel's `rustdoc` target does (the tree's logo in
//! place of Rust's, the CSS line once); a second run documents nothing; a changed source of
//! the kernel crate documents that crate again and no other. (Against `make rustdoc` on the
//! real 6.12 and 7.3 trees: wrapper_kernel612 and build_linux73.)

mod common;

use std::path::Path;

fn doc(src: &Path, obj: &Path) -> Vec<serde_json::Value> {
    let mut c = common::rkbuild_185();
    c.args(["doc", "-j2", "--message-format", "json", "-S"])
        .arg(src)
        .arg("-O")
        .arg(obj)
        .arg("--config")
        .arg(src.join("configs/x86_64.config"));
    let o = c.output().expect("rkbuild runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "rkbuild doc: {out}");
    out.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn built(msgs: &[serde_json::Value]) -> Vec<String> {
    let mut v: Vec<String> = msgs
        .iter()
        .filter(|m| m["reason"] == "step" && m["status"] == "built")
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn docs_of_the_example_tree() {
    let src = tempfile::tempdir().unwrap();
    common::copy_tree(&common::minikernel(), src.path());
    let obj = tempfile::tempdir().unwrap();
    let out = obj.path().join("Documentation/output/rust/rustdoc");

    let first = built(&doc(src.path(), obj.path()));
    for id in [
        "rustdoc-core",
        "rustdoc-macros",
        "rustdoc-kernel",
        "rustdoc",
    ] {
        assert!(first.iter().any(|b| b == id), "{id} did not run: {first:?}");
    }
    let page = common::read(&out.join("kernel/index.html"));
    assert!(
        page.contains("static.files/logo.svg") && !page.contains("rust-logo-"),
        "the tree's logo is not in the kernel crate's page"
    );
    assert_eq!(
        std::fs::read(out.join("static.files/logo.svg")).unwrap(),
        std::fs::read(src.path().join("Documentation/images/logo.svg")).unwrap()
    );
    let css_line = ".logo-container > img { object-fit: contain; }";
    let css = |out: &Path| {
        let dir = out.join("static.files");
        let f = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                let n = p.file_name().unwrap().to_string_lossy().into_owned();
                n.starts_with("rustdoc-") && n.ends_with(".css")
            })
            .expect("rustdoc's CSS");
        common::read(&f).matches(css_line).count()
    };
    assert_eq!(css(&out), 1);

    // Nothing changed: nothing to document.
    assert_eq!(built(&doc(src.path(), obj.path())), Vec::<String>::new());

    // A new item in the kernel crate: the kernel crate (compile and docs) and the shared
    // pages again, nothing else.
    let f = src.path().join("rust/kernel/error.rs");
    let text = common::read(&f);
    std::fs::write(
        &f,
        format!("{text}\n/// Whether `e` is [`code::EINVAL`].\npub fn rkbuild_is_einval(e: Error) -> bool {{\n    e == code::EINVAL\n}}\n"),
    )
    .unwrap();
    assert_eq!(
        built(&doc(src.path(), obj.path())),
        ["rust/kernel.o", "rustdoc", "rustdoc-kernel"]
    );
    assert!(out.join("kernel/error/fn.rkbuild_is_einval.html").is_file());
    assert_eq!(css(&out), 1, "the CSS line is appended once");
}
