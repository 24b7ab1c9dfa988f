//! Pipelining (cargo's idea): rustc writes a crate's metadata (`libcore.rmeta`) when its
//! analysis is done, long before its object code. A crate that reads only another's metadata
//! can start then, while the other's code generation goes on.
//!
//! rustc writes the metadata into a temporary folder beside it (`rmetaXXXXXX`) and renames
//! it into place before code generation starts, so the file appearing under its name, with a
//! new identity, says it is complete. rkbuild watches for that instead of asking rustc for its
//! artifact notices (`--json=artifacts`): those need `--error-format=json`, which would change
//! Kbuild's command lines, and the artifact notices are a tracked option, so they change the
//! crate hash written into every `.rmeta`. Watched, the commands and every output are exactly
//! those of a build that waits.

use std::path::Path;

use crate::plan::{Step, StepKind};

/// How often a build that waits for metadata looks for it: a `stat` per watched crate, against
/// compiles of seconds.
pub const POLL: std::time::Duration = std::time::Duration::from_millis(10);

/// The metadata file a step writes that others can start from: a target crate's compile
/// whose outputs include its `.rmeta`.
pub fn metadata_file(step: &Step) -> Option<&str> {
    if step.host || !matches!(step.kind, StepKind::Library | StepKind::Driver) {
        return None;
    }
    step.outputs
        .iter()
        .map(String::as_str)
        .find(|o| o.ends_with(".rmeta"))
}

/// Whether `user` needs only `dep`'s metadata: a target crate's compile (it makes an object
/// and metadata and links nothing, so it reads its dependencies' `.rmeta` alone, whether
/// named by `--extern` or loaded implicitly as `core` and `compiler_builtins` are) that
/// reads no other file of `dep`.
pub fn metadata_edge(user: &Step, dep: &Step) -> bool {
    metadata_file(dep).is_some()
        && !user.host
        && matches!(user.kind, StepKind::Library | StepKind::Driver)
        && !user.inputs.iter().any(|i| dep.outputs.contains(i))
}

/// A file's identity (inode, modification time in ns): a renamed-in file has a new one.
pub type FileId = (u64, i128);

/// The identity of the file at `path`, if there is one.
pub fn file_id(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt as _;
    let m = std::fs::metadata(path).ok()?;
    Some((
        m.ino(),
        i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
    ))
}

/// Whether the metadata was written since `before` (its identity when the step started).
pub fn written(path: &Path, before: Option<FileId>) -> bool {
    file_id(path).is_some_and(|now| Some(now) != before)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Command;

    fn lib(name: &str) -> Step {
        let mut s = Step::new(format!("rust/{name}.o"), StepKind::Library, "RUSTC L");
        s.crate_name = Some(name.into());
        s.outputs = vec![format!("rust/{name}.o"), format!("rust/lib{name}.rmeta")];
        s.command = Some(Command {
            env: vec![],
            program: "rustc".into(),
            args: vec![],
            stdout: None,
        });
        s
    }

    #[test]
    fn a_crate_starts_from_the_metadata_of_what_it_uses() {
        let core = lib("core");
        let mut kernel = lib("kernel");
        kernel.externs = vec!["core".into()];
        assert!(metadata_edge(&kernel, &core));
        // Loaded without `--extern` (core by every crate): the same.
        assert!(metadata_edge(&lib("ffi"), &core));
        let mut drv = Step::new("drivers/d.o", StepKind::Driver, "RUSTC [M]");
        drv.outputs = vec!["drivers/d.o".into()];
        assert!(metadata_edge(&drv, &kernel));
        // A driver writes no metadata: whoever waits for it waits for its end.
        assert!(!metadata_edge(&lib("x"), &drv));
        // A step that reads the object itself (exports, a link): the whole step.
        let mut exports = Step::new(
            "rust/exports_core_generated.h",
            StepKind::Exports,
            "EXPORTS",
        );
        exports.inputs = vec!["rust/core.o".into()];
        assert!(!metadata_edge(&exports, &core));
        let mut reads_object = lib("k2");
        reads_object.inputs = vec!["rust/core.o".into()];
        assert!(!metadata_edge(&reads_object, &core));
        // A proc macro (host) links what it uses: the whole step.
        let mut host = lib("macros");
        host.host = true;
        assert!(!metadata_edge(&host, &core));
        assert!(!metadata_edge(&core, &host));
    }

    #[test]
    fn a_renamed_in_file_is_new() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("libcore.rmeta");
        assert!(!written(&f, None));
        std::fs::write(&f, b"old").unwrap();
        let before = file_id(&f);
        assert!(!written(&f, before));
        // As rustc does: written beside, renamed over.
        let tmp = d.path().join("rmetaAbCdEf");
        std::fs::create_dir(&tmp).unwrap();
        std::fs::write(tmp.join("lib.rmeta"), b"new").unwrap();
        std::fs::rename(tmp.join("lib.rmeta"), &f).unwrap();
        assert!(written(&f, before));
    }
}
