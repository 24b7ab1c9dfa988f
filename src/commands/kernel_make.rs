//! The kernel's own make, called for what rkbuild leaves to it (modpost and the final link
//! of modules), with the tools and variables the kernel was configured with.

use std::path::Path;

use anyhow::bail;

use crate::makefile::records;
use crate::output::{Message, Out};
use crate::process::Process;
use crate::toolchain::kbuild_names::{parse_recorded, MakeVars, LDFLAGS_VAR, RECORDED_VARS};

/// Runs the kernel's make for modpost and the final link; its quiet lines become rkbuild's.
pub(super) fn final_link(make: &Process, out: Out) -> anyhow::Result<()> {
    let o = make.output()?;
    if !o.success() {
        bail!(
            "the kernel's modpost and link failed (`{make}`):\n{}\n  fix: a symbol a module uses must be exported by the kernel it is built against; rebuild the kernel if its configuration changed",
            o.tail(25)
        );
    }
    for line in o.stdout.lines() {
        if let Some((tag, subject)) = kbuild_line(line) {
            out.say(Message::Status { tag, subject });
        }
    }
    for w in o.stderr.lines().filter(|l| !l.trim().is_empty()) {
        out.say(Message::Warning { text: w, at: None });
    }
    Ok(())
}

/// The kernel's make, in `dir`, with the tools and variables the build used.
pub(super) fn kernel_make(
    dir: &Path,
    args: &[String],
    objtree: &Path,
    srcarch: &str,
    rustc: &str,
    vars: &MakeVars,
) -> Process {
    // The tools the kernel was configured with, as Kbuild recorded them: any other spelling
    // (rustc for the wrapper that ran it, `x86` for `x86_64`) makes make sync the configuration
    // again, with that tool's answers.
    let recorded = recorded_vars(objtree);
    let get = |k: &str, ours: String| {
        recorded
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or(ours)
    };
    let mut make = Process::new("make")
        .cwd(dir)
        .args(args)
        .arg(format!("O={}", objtree.display()))
        .arg(format!("ARCH={}", get("ARCH", srcarch.to_string())))
        .arg(format!("RUSTC={}", get("RUSTC", rustc.to_string())));
    if let Some((_, b)) = recorded.iter().find(|(n, _)| n == "BINDGEN") {
        make = make.arg(format!("BINDGEN={b}"));
    }
    for (k, v) in vars.given() {
        make = make.arg(format!("{k}={v}"));
    }
    make
}

/// The linker and KBUILD_LDFLAGS of a built kernel, from its `vmlinux.o` link
/// (`$(LD) $(KBUILD_LDFLAGS) -r -o vmlinux.o …`); for a distribution's kernel, as the
/// kernel's make told `rkbuild distro`.
pub(super) fn recorded_ld(objtree: &Path) -> Option<(String, Vec<String>)> {
    if let Ok(text) = std::fs::read_to_string(objtree.join(".vmlinux.o.cmd")) {
        return records::recorded_ld(&text);
    }
    let text = std::fs::read_to_string(objtree.join(RECORDED_VARS)).ok()?;
    let vars = parse_recorded(&text);
    let get = |k: &str| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
    let ld = get("LD")?;
    let flags = shlex::split(get(LDFLAGS_VAR).unwrap_or(""))?;
    Some((ld.to_string(), flags))
}

/// `ARCH`, `RUSTC` and `BINDGEN` as the configuration was made with them
/// (`include/config/auto.conf.cmd`: `ifneq "$(RUSTC)" "…"`).
fn recorded_vars(objtree: &Path) -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(objtree.join("include/config/auto.conf.cmd")).unwrap_or_default();
    records::recorded_vars(&text)
}

/// A quiet line's tag and subject: Kbuild prints `  %-7s %s` (`  LD [M]  foo.ko`).
fn kbuild_line(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("  ")?;
    let (tag, subject) = (rest.get(..7)?.trim(), rest.get(8..)?.trim());
    (!tag.is_empty() && !subject.is_empty()).then_some((tag, subject))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_configured_tools_are_read_from_auto_conf_cmd() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("include/config")).unwrap();
        std::fs::write(
            d.path().join("include/config/auto.conf.cmd"),
            "ifneq \"$(ARCH)\" \"x86_64\"\ninclude/config/auto.conf: FORCE\nendif\nifneq \"$(CC)\" \"clang-22\"\nifneq \"$(RUSTC)\" \"/b/rkbuild-rustc\"\n",
        )
        .unwrap();
        assert_eq!(
            super::recorded_vars(d.path()),
            [
                ("ARCH".to_string(), "x86_64".to_string()),
                ("RUSTC".to_string(), "/b/rkbuild-rustc".to_string())
            ]
        );
    }

    #[test]
    fn quiet_lines_split_into_tag_and_subject() {
        assert_eq!(
            super::kbuild_line("  LD [M]  rust_hello.ko"),
            Some(("LD [M]", "rust_hello.ko"))
        );
        assert_eq!(
            super::kbuild_line("  MODPOST Module.symvers"),
            Some(("MODPOST", "Module.symvers"))
        );
        assert_eq!(super::kbuild_line("make[1]: Entering directory"), None);
    }
}
