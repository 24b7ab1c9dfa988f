//! Shared helpers for integration tests: where the real kernel's outputs and the real tools are.
#![allow(dead_code)]

use std::path::PathBuf;

pub mod boot;
pub mod kernel612;
pub mod reapi;
pub mod side_by_side;

/// `../shared/oracle` beside the checkout (CI lays a copy there), or `RKBUILD_ORACLE`.
pub fn oracle(rel: &str) -> PathBuf {
    let base = std::env::var_os("RKBUILD_ORACLE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/oracle"));
    let p = base.join(rel);
    assert!(
        p.exists(),
        "the kernel oracle file `{}` is missing: tests need ../shared/oracle beside the checkout (or RKBUILD_ORACLE)",
        p.display()
    );
    p
}

pub fn read(p: &std::path::Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// A command the kernel ran, from `kbuild-commands.txt`: its environment words, program and
/// arguments (shell-split, up to the first `;` that ends the rustc part).
#[derive(Debug)]
pub struct KbuildCmd {
    pub env: Vec<(String, String)>,
    pub program: String,
    pub args: Vec<String>,
    /// Where the compiler's standard output goes (`>$@`).
    pub stdout: Option<String>,
}

pub fn kbuild_cmd(vintage: &str, target: &str) -> KbuildCmd {
    let text = read(&oracle(&format!(
        "linux-{vintage}/x86_64-defconfig-rust/kbuild-commands.txt"
    )));
    let prefix = format!("savedcmd_{target} := ");
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {target} in the {vintage} oracle"));
    parse_savedcmd(line)
}

/// A `savedcmd_…` value (the `.cmd` files' shell text): environment words, program and the
/// arguments up to the first `;` or `|` (the compiler's own part).
pub fn parse_savedcmd(line: &str) -> KbuildCmd {
    // The .cmd files keep make's escape for `#`.
    let line = line.replace("$(pound)", "#");
    let words = shlex::split(&line).expect("shell words");
    // `>$@` of the compiler, or of the pipeline it feeds (`| sed … >$@`).
    let stdout = words
        .iter()
        .take_while(|w| !w.starts_with(';'))
        .find_map(|w| w.strip_prefix('>'))
        .map(|w| w.trim_end_matches(';').to_string());
    let mut words = words
        .into_iter()
        .take_while(|w| !w.starts_with(';') && w != "|" && !w.starts_with('>'));
    let mut env = vec![];
    let program = loop {
        let w = words.next().expect("a program");
        match w.split_once('=') {
            Some((k, v)) if k.chars().all(|c| c.is_ascii_uppercase() || c == '_') => {
                env.push((k.to_string(), v.to_string()))
            }
            _ => break w,
        }
    };
    KbuildCmd {
        env,
        program,
        args: words.collect(),
        stdout,
    }
}

/// Path to the tool-install environment written by scripts/install-deps.sh.
pub fn tool_env(var: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| {
        panic!("{var} is not set: run `bash scripts/install-deps.sh` and source /var/cache/rkbuild-ci/env.sh (the test needs that real tool)")
    })
}

/// The environment `rkbuild build` needs for the bundled example tree with Debian's rustc 1.85
/// (real core from its rust-src), bindgen and libclang.
pub fn build_env_185() -> Vec<(String, String)> {
    vec![
        ("RUSTC".into(), tool_env("RKBUILD_TEST_RUSTC_185")),
        ("RUST_LIB_SRC".into(), tool_env("RKBUILD_TEST_LIB_185")),
        ("BINDGEN".into(), tool_env("RKBUILD_TEST_BINDGEN")),
        (
            "LIBCLANG_PATH".into(),
            tool_env("RKBUILD_TEST_LIBCLANG_PATH"),
        ),
    ]
}

/// `examples/minikernel` in the checkout.
pub fn minikernel() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/minikernel")
}

/// `cp -a FROM TO`: a copy of a folder with its modification times (make-built object trees,
/// which make and rkbuild then find up to date).
pub fn cp_a(from: &std::path::Path, to: &std::path::Path) {
    let st = std::process::Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .expect("cp");
    assert!(st.success(), "cp -a {} {}", from.display(), to.display());
}

/// Copies a folder (for tests that edit the example tree).
pub fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&dst).unwrap();
            copy_tree(&e.path(), &dst);
        } else {
            std::fs::copy(e.path(), &dst).unwrap();
        }
    }
}

/// The options the oracle's configurations add to `defconfig` (`scripts/config` arguments):
/// Rust, no MODVERSIONS, the Rust samples (minimal as a module, print built in).
pub const RUST_SAMPLES: &[&str] = &[
    "--enable",
    "RUST",
    "--disable",
    "MODVERSIONS",
    "--enable",
    "SAMPLES",
    "--enable",
    "SAMPLES_RUST",
    "--module",
    "SAMPLE_RUST_MINIMAL",
    "--enable",
    "SAMPLE_RUST_PRINT",
];

/// Replaces this machine's trees and library path by the oracle's placeholders.
pub fn oracle_paths(
    objtree: &std::path::Path,
    srctree: &std::path::Path,
    lib: &str,
) -> impl Fn(&str) -> String {
    let (o, s, l) = (
        objtree.display().to_string(),
        srctree.display().to_string(),
        lib.to_string(),
    );
    move |w: &str| {
        w.replace(&o, "$OBJTREE")
            .replace(&s, "$SRCTREE")
            .replace(&l, "$RUST_LIB_SRC")
    }
}

/// Compares the commands of a `rkbuild plan --message-format json` output (`plan`, made for
/// the object tree `ours`) with the `.cmd` files make wrote in its object tree `theirs`:
/// arguments, environment, program name and objtool (where make ran it, with its arguments),
/// with each tree's path normalised. Steps listed in `not_built_by_make` may lack a `.cmd`.
/// Returns how many commands were compared.
pub fn plan_equals_cmd_files(
    plan: &serde_json::Value,
    ours: &std::path::Path,
    theirs: &std::path::Path,
    not_built_by_make: &[&str],
) -> usize {
    let (o, t) = (ours.display().to_string(), theirs.display().to_string());
    let strs = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect()
    };
    let name = |p: &str| {
        std::path::Path::new(p)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    };
    let mut compared = 0;
    for s in plan["plan"]["steps"].as_array().unwrap() {
        let Some(cmd) = s.get("command").filter(|c| !c.is_null()) else {
            continue;
        };
        let id = s["id"].as_str().unwrap();
        let (dir, file) = id.rsplit_once('/').unwrap();
        let Ok(saved) = std::fs::read_to_string(theirs.join(format!("{dir}/.{file}.cmd"))) else {
            assert!(
                not_built_by_make.contains(&id),
                "make recorded no command for {id}"
            );
            continue;
        };
        let line = saved
            .lines()
            .find_map(|l| l.split_once(" := ").map(|(_, v)| v))
            .unwrap();
        let want = parse_savedcmd(line);
        let args: Vec<String> = strs(&cmd["args"])
            .iter()
            .map(|a| a.replace(&o, "$O"))
            .collect();
        let want_args: Vec<String> = want.args.iter().map(|a| a.replace(&t, "$O")).collect();
        assert_eq!(args, want_args, "{id}: arguments differ from make's");
        assert_eq!(
            cmd.get("stdout").and_then(|v| v.as_str()),
            want.stdout.as_deref(),
            "{id}: standard output"
        );
        let env: Vec<(String, String)> = cmd["env"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p[0].as_str().unwrap().into(),
                    p[1].as_str().unwrap().replace(&o, "$O"),
                )
            })
            .collect();
        let want_env: Vec<(String, String)> = want
            .env
            .iter()
            .map(|(k, v)| (k.clone(), v.replace(&t, "$O")))
            .collect();
        assert_eq!(env, want_env, "{id}: environment differs from make's");
        assert_eq!(
            name(cmd["program"].as_str().unwrap()),
            name(&want.program),
            "{id}: program"
        );
        let objtool = s["post"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["kind"] == "objtool");
        match line.split_once("objtool/objtool ") {
            Some((_, rest)) => {
                let want: Vec<&str> = rest.split_whitespace().collect();
                let ours = objtool.unwrap_or_else(|| panic!("{id}: make ran objtool"));
                let mut ours = strs(&ours["args"]);
                ours.push(id.to_string());
                assert_eq!(ours, want, "{id}: objtool");
            }
            None => assert!(objtool.is_none(), "{id}: make ran no objtool"),
        }
        compared += 1;
    }
    compared
}

/// Runs `c`, which must succeed, and says how long `what` took; returns what it printed.
pub fn run_timed(mut c: std::process::Command, what: &str) -> String {
    let t = std::time::Instant::now();
    let o = c
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{what} failed:\n{text}");
    eprintln!("  {what}: {:.1} s", t.elapsed().as_secs_f64());
    text
}

/// What a test takes out of rkbuild's environment, so the machine's settings do not leak in.
pub const RKBUILD_ENV_UNSET: &[&str] = &[
    "KRUSTFLAGS",
    "V",
    "MAKEFLAGS",
    "MAKELEVEL",
    "CC",
    "HOSTCC",
    "OBJCOPY",
];

/// `rkbuild` with a clean Kbuild environment and the toolchain of [`build_env_185`]: how the
/// tests on the bundled example tree run it.
pub fn rkbuild_185() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_rkbuild"));
    for k in RKBUILD_ENV_UNSET {
        c.env_remove(k);
    }
    for (k, v) in build_env_185() {
        c.env(k, v);
    }
    c
}

/// make's recorded command for `file` in `dir` (the `savedcmd` line of its `.cmd` file, up to
/// what follows the compiler's own command: objtool and the like), as words.
pub fn recorded_words(dir: &std::path::Path, file: &str) -> Vec<String> {
    let text = read(&dir.join(format!(".{file}.cmd")));
    let line = text.lines().next().unwrap();
    let cmd = line.split_once(" := ").unwrap().1;
    let cmd = cmd.split(';').next().unwrap();
    shlex::split(cmd).unwrap()
}

/// An external module's plan (the last line of `rkbuild plan -M … --message-format json`)
/// against what `make M=` recorded in the module folder `dir`: each step's command (env,
/// program, arguments) equals make's, after `fix` on make's words (a wrapper's path, say).
/// Returns the file names of the steps' outputs.
pub fn extmod_plan_equals_make(
    plan: &str,
    dir: &std::path::Path,
    name: &str,
    fix: impl Fn(&mut Vec<String>),
) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(plan.lines().last().unwrap()).unwrap();
    let steps = v["plan"]["steps"].as_array().unwrap();
    assert!(
        v["plan"]["skipped"].as_array().is_none_or(|s| s.is_empty()),
        "{name}: the plan leaves something out: {}",
        v["plan"]["skipped"]
    );
    let mut files = vec![];
    for step in steps {
        let id = step["id"].as_str().unwrap();
        let file = std::path::Path::new(id)
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let mut made = recorded_words(dir, &file);
        fix(&mut made);
        let mut mine: Vec<String> = step["command"]["env"]
            .as_array()
            .unwrap()
            .iter()
            .map(|kv| format!("{}={}", kv[0].as_str().unwrap(), kv[1].as_str().unwrap()))
            .collect();
        mine.push(step["command"]["program"].as_str().unwrap().to_string());
        mine.extend(
            step["command"]["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string()),
        );
        assert_eq!(mine, made, "{name}: `{id}` differs from make M='s command");
        files.push(file);
    }
    files
}
