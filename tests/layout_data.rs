//! A kernel vintage added in data only: a copy of the 7.3 description with one crate more,
//! given to `rkbuild plan --kbuild FILE.toml`, is planned with no code change.

mod common;

use std::path::Path;
use std::process::Command;

fn plan(src: &Path, obj: &Path, kbuild: &str) -> serde_json::Value {
    let config = common::minikernel().join("configs/x86_64.config");
    let mut c = Command::new(env!("CARGO_BIN_EXE_rkbuild"));
    c.args(["plan", "--message-format", "json", "-S"])
        .arg(src)
        .arg("-O")
        .arg(obj)
        .arg("--config")
        .arg(&config)
        .args(["--kbuild", kbuild])
        .env_remove("KRUSTFLAGS")
        .env("NO_COLOR", "1");
    for (k, v) in common::build_env_185() {
        c.env(k, v);
    }
    let o = c.output().unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{out}{err}");
    serde_json::from_str(out.lines().last().unwrap()).unwrap()
}

fn step_ids(v: &serde_json::Value) -> Vec<String> {
    v["plan"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_made_up_vintage_in_data_only_is_planned() {
    let d = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/kbuild/7.3.toml"),
    )
    .unwrap()
    .replace("name = \"7.3\"", "name = \"7.99\"")
    .replace("order = 30", "order = 99");
    let text = format!(
        "{text}\n[[crate]]\nname = \"debugfs_rs\"\nkind = \"library\"\nroot = \"{{srctree}}/rust/debugfs.rs\"\nflags = [\"--extern\", \"ffi\", \"--cfg=debugfs\"]\n"
    );
    let file = d.path().join("7.99.toml");
    std::fs::write(&file, text).unwrap();
    let obj = d.path().join("o");
    std::fs::create_dir_all(&obj).unwrap();
    let src = common::minikernel();

    let v = plan(&src, &obj, file.to_str().unwrap());
    assert_eq!(v["plan"]["vintage"], "7.99");
    let ids = step_ids(&v);
    let pos = |id: &str| {
        ids.iter()
            .position(|x| x == id)
            .unwrap_or_else(|| panic!("{id} not planned: {ids:?}"))
    };
    assert!(pos("rust/ffi.o") < pos("rust/debugfs_rs.o"), "{ids:?}");
    let step = &v["plan"]["steps"][pos("rust/debugfs_rs.o")];
    let args: Vec<&str> = step["command"]["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(
        args.windows(2).any(|w| w == ["--extern", "ffi"]) && args.contains(&"--cfg=debugfs"),
        "{args:?}"
    );
    assert_eq!(step["crate_name"], "debugfs_rs");
    // The 7.3 layout's own steps are all there too, pin_init and the host rlibs included.
    for id in [
        "rust/pin_init.o",
        "rust/host/libsyn.rlib",
        "rust/libzerocopy_derive.so",
    ] {
        pos(id);
    }

    // The built-in 7.3 has no such crate.
    let v = plan(&src, &obj, "7.3");
    assert!(!step_ids(&v).iter().any(|i| i == "rust/debugfs_rs.o"));
}

#[test]
fn a_broken_description_is_refused_with_its_file() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("bad.toml");
    std::fs::write(&file, "name = \"x\"\n[detect]\norder = \"high\"\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_rkbuild"))
        .args(["plan", "-S"])
        .arg(common::minikernel())
        .arg("-O")
        .arg(d.path())
        .arg("--config")
        .arg(common::minikernel().join("configs/x86_64.config"))
        .args(["--kbuild", file.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("bad.toml"), "{err}");
    assert!(
        !d.path().join("include/generated/rustc_cfg").exists(),
        "nothing written"
    );
}
