//! What a rustc command line says about the crate it compiles: name, types, edition, cfgs,
//! externs, inputs and outputs. Pure functions over the argument list (with `@argfile`s
//! expanded by the caller when it wants them), so they unit-test without a compiler.

use std::path::{Path, PathBuf};

/// The facts of one rustc command line that the log and rust-project.json need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrateArgs {
    pub crate_name: Option<String>,
    pub crate_types: Vec<String>,
    pub edition: Option<String>,
    pub target: Option<String>,
    /// `--cfg` values in order, as rustc spells them (`CONFIG_X="y"`).
    pub cfgs: Vec<String>,
    /// `--extern name[=path]`.
    pub externs: Vec<(String, Option<String>)>,
    /// `-Zcrate-attr=ATTR` values in order (Kbuild gives drivers `no_std` and features so).
    pub crate_attrs: Vec<String>,
    /// The crate root (a positional argument; `-` is stdin).
    pub input: Option<String>,
    /// `--emit kind=path` pairs, `-o`, `--out-dir`.
    pub emits: Vec<(String, String)>,
    pub out_file: Option<String>,
    pub out_dir: Option<String>,
    /// `@file` arguments, in order.
    pub argfiles: Vec<String>,
    /// Only asks rustc something (`--version`, `-vV`, `--print`): no crate is compiled.
    pub query_only: bool,
}

/// rustc options that take a separate value (`--opt VALUE` as well as `--opt=VALUE`).
const TAKES_VALUE: &[&str] = &[
    "--cfg",
    "--check-cfg",
    "-L",
    "-l",
    "--crate-type",
    "--crate-name",
    "--edition",
    "--emit",
    "--print",
    "-o",
    "--out-dir",
    "--explain",
    "--target",
    "-A",
    "-W",
    "-D",
    "-F",
    "--force-warn",
    "--cap-lints",
    "-C",
    "--codegen",
    "-Z",
    "--extern",
    "--sysroot",
    "--error-format",
    "--json",
    "--color",
    "--diagnostic-width",
    "--remap-path-prefix",
    "--env-set",
];

/// Splits `args` into (option, value) pairs and positionals, rustc's way.
pub fn parse(args: &[String]) -> CrateArgs {
    let mut c = CrateArgs::default();
    let mut i = 0;
    let mut printed = false;
    let mut version = false;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if let Some(f) = a.strip_prefix('@') {
            c.argfiles.push(f.to_string());
            continue;
        }
        if a == "-" || !a.starts_with('-') {
            c.input = Some(a.clone());
            continue;
        }
        if a == "-V" || a == "--version" || a == "-vV" || a == "-Vv" {
            version = true;
            continue;
        }
        // `--opt=value`, `-Cvalue` or `--opt value`.
        let (opt, value) =
            if let Some((o, v)) = a.split_once('=').filter(|(o, _)| o.starts_with("--")) {
                (o.to_string(), Some(v.to_string()))
            } else if let Some((o, v)) = a
                .get(..2)
                .zip(a.get(2..))
                .filter(|(o, v)| !v.is_empty() && !a.starts_with("--") && TAKES_VALUE.contains(o))
            {
                // (`get`, not indexing: `-é` is one option name, not a cut through a character.)
                (o.to_string(), Some(v.to_string()))
            } else if TAKES_VALUE.contains(&a.as_str()) {
                let v = args.get(i).cloned();
                i += 1;
                (a.clone(), v)
            } else {
                (a.clone(), None)
            };
        let Some(v) = value else { continue };
        match opt.as_str() {
            "--crate-name" => c.crate_name = Some(v),
            "--crate-type" => c
                .crate_types
                .extend(v.split(',').map(|t| t.trim().to_string())),
            "--edition" => c.edition = Some(v),
            "--target" => c.target = Some(v),
            "--cfg" => c.cfgs.push(v),
            "--extern" => {
                let (name, path) = match v.split_once('=') {
                    Some((n, p)) => (n.to_string(), Some(p.to_string())),
                    None => (v.clone(), None),
                };
                // `--extern priv:name` / `noprelude:name` modifiers.
                let name = name.rsplit(':').next().unwrap_or(&name).to_string();
                c.externs.push((name, path));
            }
            "--emit" => {
                for e in v.split(',') {
                    match e.split_once('=') {
                        Some((k, p)) => c.emits.push((k.to_string(), p.to_string())),
                        None => c.emits.push((e.to_string(), String::new())),
                    }
                }
            }
            "-Z" => {
                if let Some(attr) = v.strip_prefix("crate-attr=") {
                    c.crate_attrs.push(attr.to_string());
                }
            }
            "-o" => c.out_file = Some(v),
            "--out-dir" => c.out_dir = Some(v),
            "--print" => printed = true,
            _ => {}
        }
    }
    c.query_only = (version || printed) && c.input.is_none();
    c
}

impl CrateArgs {
    /// The crate's name as rustc settles it: `--crate-name`, else the input file's stem.
    pub fn name(&self) -> Option<String> {
        self.crate_name.clone().or_else(|| {
            let i = self.input.as_deref().filter(|i| *i != "-")?;
            Some(
                Path::new(i)
                    .file_stem()?
                    .to_string_lossy()
                    .replace('-', "_"),
            )
        })
    }

    /// Files the compile writes (explicit paths only; `--out-dir` listed as a folder).
    pub fn outputs(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .emits
            .iter()
            .filter(|(_, p)| !p.is_empty())
            .map(|(_, p)| p.clone())
            .collect();
        v.extend(self.out_file.clone());
        if v.is_empty() {
            v.extend(self.out_dir.clone());
        }
        v
    }

    /// Inputs known from the command line: the crate root, `--extern` files, `@argfile`s.
    pub fn inputs(&self) -> Vec<String> {
        let mut v: Vec<String> = self.input.iter().cloned().collect();
        v.extend(self.externs.iter().filter_map(|(_, p)| p.clone()));
        v.extend(self.argfiles.iter().cloned());
        v
    }

    /// The file a `--emit` kind goes to.
    pub fn emit(&self, kind: &str) -> Option<&str> {
        self.emits
            .iter()
            .find(|(k, p)| k == kind && !p.is_empty())
            .map(|(_, p)| p.as_str())
    }
}

/// Expands `@file` arguments the way rustc does (one argument per line), relative to `cwd`.
/// A file that cannot be read is kept as its `@file` word and reported.
pub fn expand_argfiles(args: &[String], cwd: &Path) -> (Vec<String>, Vec<String>) {
    let mut out = Vec::with_capacity(args.len());
    let mut missing = vec![];
    for a in args {
        match a.strip_prefix('@') {
            Some(f) => {
                let p: PathBuf = cwd.join(f);
                match std::fs::read_to_string(&p) {
                    Ok(text) => out.extend(text.lines().map(String::from)),
                    Err(e) => {
                        missing.push(format!("{}: {e}", p.display()));
                        out.push(a.clone());
                    }
                }
            }
            None => out.push(a.clone()),
        }
    }
    (out, missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn kernel_style_command_line() {
        let c = parse(&s(&[
            "--edition=2021",
            "-Cpanic=abort",
            "@./include/generated/rustc_cfg",
            "--extern",
            "ffi",
            "--extern",
            "macros=rust/libmacros.so",
            "--emit=dep-info=rust/.kernel.o.d",
            "--emit=obj=rust/kernel.o",
            "--crate-type",
            "rlib",
            "-L./rust",
            "--crate-name",
            "kernel",
            "/src/rust/kernel/lib.rs",
            "--sysroot=/dev/null",
            "--cfg",
            "MODULE",
            "-Zunstable-options",
            "-Zcrate-attr=no_std",
            "-Z",
            "crate-attr=feature(new_uninit)",
        ]));
        assert_eq!(c.name().as_deref(), Some("kernel"));
        assert_eq!(c.crate_types, ["rlib"]);
        assert_eq!(c.edition.as_deref(), Some("2021"));
        assert_eq!(c.cfgs, ["MODULE"]);
        assert_eq!(c.crate_attrs, ["no_std", "feature(new_uninit)"]);
        assert_eq!(
            c.externs,
            [
                ("ffi".into(), None),
                ("macros".into(), Some("rust/libmacros.so".into()))
            ]
        );
        assert_eq!(c.input.as_deref(), Some("/src/rust/kernel/lib.rs"));
        assert_eq!(c.outputs(), ["rust/.kernel.o.d", "rust/kernel.o"]);
        assert_eq!(c.emit("obj"), Some("rust/kernel.o"));
        assert_eq!(c.argfiles, ["./include/generated/rustc_cfg"]);
        assert!(!c.query_only);
    }

    #[test]
    fn probes_are_queries() {
        assert!(parse(&s(&["-vV"])).query_only);
        assert!(parse(&s(&["--print", "sysroot"])).query_only);
        let p = parse(&s(&["--print", "file-names", "--crate-type=lib", "-"]));
        assert!(!p.query_only);
        assert_eq!(p.input.as_deref(), Some("-"));
        assert_eq!(p.name(), None);
    }

    /// Found by the `wrapper_args` fuzz target: an option whose second character is not
    /// ASCII (`-é…`) made the wrapper panic on a cut through that character.
    #[test]
    fn a_non_ascii_option_is_an_option() {
        let c = parse(&s(&["-éx", "-Copt-level=2", "-\u{fffd}", "a.rs"]));
        assert_eq!(c.input.as_deref(), Some("a.rs"));
        assert_eq!(c.name().as_deref(), Some("a"));
    }

    #[test]
    fn name_from_file_stem() {
        let c = parse(&s(&["-O", "src/my-crate.rs", "-o", "out"]));
        assert_eq!(c.name().as_deref(), Some("my_crate"));
        assert_eq!(c.outputs(), ["out"]);
    }

    #[test]
    fn argfiles_expand_per_line() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("cfg"), "--cfg=A\n--cfg=B=\"y\"\n").unwrap();
        let (a, missing) = expand_argfiles(&s(&["-x", "@cfg", "@nope"]), d.path());
        assert_eq!(a, ["-x", "--cfg=A", "--cfg=B=\"y\"", "@nope"]);
        assert_eq!(missing.len(), 1);
        assert_eq!(parse(&a).cfgs, ["A", "B=\"y\""]);
    }
}
