//! A step as a complete REAPI action, for remote execution: its command, and an input root
//! that holds every file it reads — the sources and metadata its dep-info names, the argument
//! files and target spec, and the tool itself with the shared libraries it loads — so that a
//! worker with nothing installed can run it.
//!
//! The input root mirrors the file system (`/usr/bin/rustc` is `usr/bin/rustc` in it) and the
//! command runs in the object tree's place in it, so the command line is the local one,
//! unchanged: outputs that name paths are the same wherever the root is laid out (a worker
//! runs it in a chroot or container at that root).

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use prost::Message as _;

use super::fingerprint;
use crate::cache::remote::{digest_of, input_root, re, RootFile};
use crate::plan::{Plan, Step};
use crate::process::Process;

/// A step's complete action.
#[derive(Debug)]
pub struct Complete {
    pub command: re::Command,
    /// Each file of the input root: where it is here, and its path in the root.
    pub files: Vec<(PathBuf, String)>,
}

/// The path of `p` (absolute) in a root that mirrors the file system, `..` resolved by name
/// (`ldd` prints `/usr/bin/../lib/x.so` for an `$ORIGIN` run path).
fn in_root(p: &Path) -> String {
    let mut parts: Vec<String> = vec![];
    for c in p.components() {
        match c {
            std::path::Component::Normal(n) => parts.push(n.to_string_lossy().into_owned()),
            std::path::Component::ParentDir => {
                parts.pop();
            }
            _ => {}
        }
    }
    parts.join("/")
}

/// The shared libraries a program loads, and its loader, as `ldd` resolves them.
fn shared_libs(program: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let out = Process::new("ldd").arg(program).output()?;
    if !out.success() {
        // A static program, or not an ELF file: nothing to add.
        return Ok(vec![]);
    }
    Ok(parse_ldd(&out.stdout))
}

/// The paths in `ldd`'s output: `libx.so => /lib/libx.so (0x…)` and the loader's own line.
pub fn parse_ldd(text: &str) -> Vec<PathBuf> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let path = match l.split_once("=>") {
                Some((_, right)) => right.trim(),
                None => l,
            };
            let path = path.split(" (").next()?.trim();
            path.starts_with('/').then(|| PathBuf::from(path))
        })
        .collect()
}

/// The complete action of a step that ran here: its inputs come from its dep-info (the step
/// must have been built, or taken from the cache, in this object tree).
pub fn complete(plan: &Plan, step: &Step) -> anyhow::Result<Complete> {
    let c = step
        .command
        .as_ref()
        .with_context(|| format!("`{}` is rkbuild's own step: nothing to execute", step.id))?;
    if c.stdout.is_some() {
        anyhow::bail!(
            "`{}` writes its standard output to a file: not an action yet",
            step.id
        );
    }
    let objtree = crate::fsutil::canonical(&plan.objtree);
    let resolve = |p: &str| fingerprint::resolve(&objtree, p);
    let program = which::which(&c.program)
        .with_context(|| format!("`{}`: the step's program is not on PATH", c.program))?;
    let mut inputs: Vec<PathBuf> = vec![program.clone()];
    inputs.extend(shared_libs(&program)?);
    if let Some(d) = &step.depfile {
        let text = std::fs::read_to_string(resolve(d)).with_context(|| {
            format!(
                "`{d}` is missing: build `{}` first (its inputs come from its dep-info)",
                step.id
            )
        })?;
        inputs.extend(fingerprint::parse_depfile(&text).iter().map(|p| resolve(p)));
    }
    for i in &step.inputs {
        inputs.push(resolve(i));
    }
    for a in &c.args {
        if let Some(f) = a.strip_prefix('@') {
            inputs.push(resolve(f));
        }
    }
    // What a proc macro loads when rustc opens it.
    for p in inputs.clone() {
        if p.extension().is_some_and(|e| e == "so") && !p.starts_with("/lib") {
            inputs.extend(shared_libs(&p)?);
        }
    }
    let outputs: Vec<String> = step
        .outputs
        .iter()
        .chain(step.depfile.iter())
        .map(String::clone)
        .collect();
    let mut files: Vec<(PathBuf, String)> = vec![];
    for p in inputs {
        let real = std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone());
        let name = in_root(&p);
        if outputs.iter().any(|o| resolve(o) == p) || files.iter().any(|(_, n)| *n == name) {
            continue;
        }
        // `--sysroot=/dev/null` and the like: an empty file there reads the same.
        if !real.is_file() && p != Path::new("/dev/null") {
            anyhow::bail!(
                "`{}` (an input of `{}`) is not a file",
                p.display(),
                step.id
            );
        }
        files.push((real, name));
    }
    if c.args.iter().any(|a| a.contains("/dev/null")) && !files.iter().any(|(_, n)| n == "dev/null")
    {
        files.push((PathBuf::from("/dev/null"), "dev/null".into()));
    }
    let mut env: Vec<(String, String)> = c.env.clone();
    env.push(("RUSTC_BOOTSTRAP".into(), "1".into()));
    env.sort();
    let mut output_paths = outputs;
    output_paths.sort();
    let command = re::Command {
        arguments: std::iter::once(program.display().to_string())
            .chain(c.args.iter().cloned())
            .collect(),
        environment_variables: env
            .into_iter()
            .map(|(name, value)| re::command::EnvironmentVariable { name, value })
            .collect(),
        output_paths,
        working_directory: in_root(&objtree),
        ..Default::default()
    };
    Ok(Complete { command, files })
}

impl Complete {
    /// The input root's files with their digests (read from disk), and the root's Merkle tree.
    pub fn root(&self) -> anyhow::Result<(Vec<RootFile>, re::Digest, Vec<Vec<u8>>)> {
        let mut out = vec![];
        for (real, name) in &self.files {
            let bytes = if real == Path::new("/dev/null") {
                vec![]
            } else {
                std::fs::read(real).with_context(|| format!("cannot read `{}`", real.display()))?
            };
            let executable = {
                use std::os::unix::fs::PermissionsExt as _;
                std::fs::metadata(real)
                    .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            };
            out.push(RootFile {
                path: name.clone(),
                digest: digest_of(&bytes),
                executable,
            });
        }
        let (digest, dirs) = input_root(&out);
        Ok((out, digest, dirs))
    }

    /// The REAPI action: its command's and input root's digests.
    pub fn action(&self, root: &re::Digest) -> re::Action {
        re::Action {
            command_digest: Some(digest_of(&self.command.encode_to_vec())),
            input_root_digest: Some(root.clone()),
            ..Default::default()
        }
    }

    /// Lays the input root out in `dir` (made empty first is the caller's business): each
    /// file copied to its path, and the folders of the outputs made, as a worker does.
    pub fn materialize(&self, dir: &Path) -> anyhow::Result<()> {
        for (real, name) in &self.files {
            let to = dir.join(name);
            if let Some(d) = to.parent() {
                std::fs::create_dir_all(d)?;
            }
            if real == Path::new("/dev/null") {
                std::fs::write(&to, b"")?;
            } else {
                std::fs::copy(real, &to).with_context(|| {
                    format!("cannot copy `{}` to `{}`", real.display(), to.display())
                })?;
            }
        }
        let wd = dir.join(&self.command.working_directory);
        for o in &self.command.output_paths {
            if let Some(d) = wd.join(o).parent() {
                std::fs::create_dir_all(d)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_paths() {
        assert_eq!(in_root(Path::new("/usr/bin/../lib/x.so")), "usr/lib/x.so");
        assert_eq!(in_root(Path::new("/tmp/o/./rust")), "tmp/o/rust");
    }

    #[test]
    fn ldd_output() {
        let text = "\tlinux-vdso.so.1 (0x00007ffd)\n\
                    \tlibrustc_driver-1.so => /usr/lib/librustc_driver-1.so (0x00007f)\n\
                    \tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f)\n\
                    \t/lib64/ld-linux-x86-64.so.2 (0x00007f)\n";
        assert_eq!(
            parse_ldd(text),
            [
                PathBuf::from("/usr/lib/librustc_driver-1.so"),
                PathBuf::from("/lib/x86_64-linux-gnu/libc.so.6"),
                PathBuf::from("/lib64/ld-linux-x86-64.so.2"),
            ]
        );
    }
}
