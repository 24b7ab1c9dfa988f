//! Remote execution, as far as this machine allows: a step as a complete REAPI action. Each
//! step is uploaded to a real BuildGrid, its input root is pulled back by BuildGrid's own
//! client (`bgd cas download-dir --verify`) into an empty folder, and the command is run there
//! under `chroot`: nothing of this machine is visible but the action's inputs (the compiler and
//! its libraries included). Its outputs must equal the ones the build wrote. No REAPI worker
//! can be installed here (see docs/cache.md), so BuildGrid runs without its execution
//! service, and `--execute` must fail saying so, not hang.

mod common;

use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::Command;

fn rkbuild(obj: &Path, args: &[&str]) -> std::process::Output {
    let src = common::minikernel();
    let mut c = common::rkbuild_185();
    c.args(args)
        .arg("-S")
        .arg(&src)
        .arg("-O")
        .arg(obj)
        .arg("--config")
        .arg(src.join("configs/x86_64.config"));
    c.output().unwrap()
}

fn ok(o: std::process::Output, what: &str) -> String {
    assert!(
        o.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs an action's command in `root` as its own file system.
fn run_chrooted(root: &Path, action: &serde_json::Value) -> std::process::Output {
    let args: Vec<String> = action["arguments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    let wd = format!("/{}", action["working_directory"].as_str().unwrap());
    let mut c = Command::new(&args[0]);
    c.args(&args[1..]).env_clear();
    for (k, v) in action["environment"].as_object().unwrap() {
        c.env(k, v.as_str().unwrap());
    }
    let root = std::ffi::CString::new(root.as_os_str().as_encoded_bytes()).unwrap();
    let wd = std::ffi::CString::new(wd).unwrap();
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        c.pre_exec(move || {
            if libc::chroot(root.as_ptr()) != 0 || libc::chdir(wd.as_ptr()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    c.output().unwrap_or_else(|e| {
        panic!("cannot run the action under chroot (this test needs root for chroot(2)): {e}")
    })
}

#[test]
fn an_uploaded_action_runs_alone_in_its_input_root() {
    assert!(
        unsafe { libc::geteuid() } == 0,
        "this test runs actions under chroot(2), which needs root"
    );
    let server = common::reapi::start_buildgrid();
    let url = server.url();
    let obj = tempfile::tempdir().unwrap();
    ok(rkbuild(obj.path(), &["build"]), "rkbuild build");
    let plan: serde_json::Value = serde_json::from_str(&ok(
        rkbuild(obj.path(), &["plan", "--message-format", "json"]),
        "rkbuild plan",
    ))
    .unwrap();
    let steps = plan["plan"]["steps"].as_array().unwrap();
    let bgd = common::tool_env("RKBUILD_TEST_BGD");

    // The standard library's `core` from its source, the kernel crate (which loads the
    // `macros` proc macro), a module driver (argument file `rustc_cfg`).
    for id in ["rust/core.o", "rust/kernel.o", "drivers/misc/rust_hello.o"] {
        let step = steps.iter().find(|s| s["id"] == id).unwrap();
        let action: serde_json::Value = serde_json::from_str(&ok(
            rkbuild(
                obj.path(),
                &[
                    "plan",
                    "--action",
                    id,
                    "--remote",
                    &url,
                    "--message-format",
                    "json",
                ],
            ),
            "rkbuild plan --action",
        ))
        .unwrap();
        assert!(action["inputs"].as_u64().unwrap() >= 5, "{action}");

        // An empty folder, filled from the server by BuildGrid's client alone.
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("root");
        let o = Command::new(&bgd)
            .args(["cas", "--remote"])
            .arg(format!("http://127.0.0.1:{}", server.port))
            .args(["--instance-name", "", "download-dir", "--verify"])
            .arg(action["input_root_digest"].as_str().unwrap())
            .arg(&dir)
            .output()
            .unwrap();
        ok(o, "bgd cas download-dir");
        let wd = dir.join(action["working_directory"].as_str().unwrap());
        let outputs: Vec<&str> = action["output_paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        for p in &outputs {
            assert!(
                !wd.join(p).exists(),
                "{id}: output {p} is in the input root"
            );
            std::fs::create_dir_all(wd.join(p).parent().unwrap()).unwrap();
        }
        ok(run_chrooted(&dir, &action), &format!("{id} under chroot"));

        // Every output equals the build's, but for an object a post-step (objcopy, objtool)
        // changed after the compiler.
        let post = step["post"].as_array().is_some_and(|p| {
            p.iter().any(|x| {
                ["redirect-intrinsics", "weaken-symbols", "objtool"]
                    .contains(&x["kind"].as_str().unwrap_or(""))
            })
        });
        let mut compared = 0;
        for p in &outputs {
            if post && *p == id {
                continue;
            }
            let here =
                std::fs::read(wd.join(p)).unwrap_or_else(|_| panic!("{id}: {p} not written"));
            let built = std::fs::read(obj.path().join(p)).unwrap();
            assert!(here == built, "{id}: {p} differs from the build's");
            compared += 1;
        }
        assert!(compared >= 2, "{id}: only {compared} outputs compared");
        eprintln!(
            "  {id}: {} inputs ({:.0} MB) uploaded, pulled back and run alone: {compared} outputs equal",
            action["inputs"],
            action["input_bytes"].as_f64().unwrap() / 1e6
        );
    }

    // REAPI Execution: BuildGrid here has no execution service (it needs a Bots-API worker
    // that no registry here packages): the request fails with the server's answer.
    let o = rkbuild(
        obj.path(),
        &[
            "plan",
            "--action",
            "drivers/misc/rust_hello.o",
            "--remote",
            &url,
            "--execute",
        ],
    );
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("remote execution of `drivers/misc/rust_hello.o`")
            && e.contains("Unimplemented"),
        "{e}"
    );
}
