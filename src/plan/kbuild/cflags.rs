//! A folder's own C flags for one object, as Makefile.build and Makefile.lib take them from its
//! makefile: `subdir-ccflags-y` (of the folder and every folder above it: Makefile.build
//! appends it to KBUILD_CFLAGS, which the folders below inherit), `ccflags-y`,
//! `ccflags-remove-y`, `CFLAGS_<obj>`, `CFLAGS_REMOVE_<obj>`, and whether the sanitizers are
//! turned off (`UBSAN_SANITIZE := n`). The makefiles are read again with `$(src)` and
//! `$(srctree)` as commands spell them, since `ccflags-y += -I$(src)` is expanded at once.

use std::path::Path;

use super::around::Kbuild;
use super::found::KbuildError;
use crate::kconfig::DotConfig;
use crate::makefile::{show, Includes, Loc, Reader, Scope, UNKNOWN};

/// One object's folder flags, as Kbuild reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FolderCFlags {
    pub subdir: Vec<String>,
    pub ccflags: Vec<String>,
    /// `filter-out` patterns (`%` allowed).
    pub ccflags_remove: Vec<String>,
    pub obj: Vec<String>,
    pub obj_remove: Vec<String>,
    /// Makefile.lib's `$(patsubst n%,,$(X_obj.o)$(X)y)`: sanitizers stay on unless the
    /// object's or the folder's variable starts with `n`.
    pub sanitize: bool,
}

/// How commands spell Kbuild's paths (`$(srctree)`, and `$(src)` for a folder).
pub struct Spelling<'a> {
    /// The root is a folder of its own whose makefile counts (an external module's); the top
    /// of the source tree is not (its makefiles drive the build, not a folder).
    pub root_is_folder: bool,
    pub srctree: &'a str,
    /// `$(src)` of a folder (`drivers/foo`, no slash).
    pub src: &'a dyn Fn(&str) -> String,
}

/// The flags `dir`'s makefiles (with a trailing `/`) give object `stem`. `Err` names the line
/// that cannot be read (a `$(call cc-option,…)` in `ccflags-y`, say).
pub fn folder_c_flags(
    srctree: &Path,
    cfg: &DotConfig,
    dir: &str,
    stem: &str,
    spell: &Spelling,
    sanitize_var: &str,
) -> Result<FolderCFlags, String> {
    let obj_var = |prefix: &str| format!("{prefix}_{stem}.o");
    let per_object = vec![
        obj_var("CFLAGS"),
        obj_var("CFLAGS_REMOVE"),
        obj_var(sanitize_var),
        sanitize_var.to_string(),
    ];
    let mut out = FolderCFlags {
        sanitize: true,
        ..Default::default()
    };
    let mut folders: Vec<String> = dir
        .match_indices('/')
        .map(|(i, _)| dir[..=i].to_string())
        .collect();
    if spell.root_is_folder {
        folders.insert(0, String::new());
    }
    let mut at = String::new();
    for f in folders {
        at = f;
        let Some(scope) = read(srctree, cfg, &at, spell, per_object.clone())? else {
            continue;
        };
        out.subdir.extend(value(&scope, "subdir-ccflags-y")?);
        if at != dir {
            continue;
        }
        out.ccflags = value(&scope, "ccflags-y")?;
        out.ccflags_remove = value(&scope, "ccflags-remove-y")?;
        out.obj = value(&scope, &per_object[0])?;
        out.obj_remove = value(&scope, &per_object[1])?;
        let gate = format!(
            "{}{}",
            value(&scope, &per_object[2])?.join(" "),
            value(&scope, &per_object[3])?.join(" ")
        );
        out.sanitize = !gate.starts_with('n');
    }
    debug_assert_eq!(at, dir);
    Ok(out)
}

/// A folder's makefile read as Makefile.build reads it; `None` when the folder has none.
fn read<'c>(
    srctree: &Path,
    cfg: &'c DotConfig,
    dir: &str,
    spell: &Spelling,
    empty_unset: Vec<String>,
) -> Result<Option<Scope<'c>>, String> {
    let file = ["Kbuild", "Makefile"]
        .iter()
        .map(|f| format!("{dir}{f}"))
        .find(|f| srctree.join(f).is_file());
    let Some(file) = file else { return Ok(None) };
    let src = (spell.src)(dir.trim_end_matches('/'));
    let mut scope = Kbuild::flags_of(cfg, dir, &src, spell.srctree, empty_unset).scope();
    let loc = Loc {
        at: "scripts/Makefile.build".into(),
        line: String::new(),
    };
    // Makefile.build empties these (simply expanded) before it includes the makefile.
    for v in ["ccflags-y", "subdir-ccflags-y", "asflags-y", "rustflags-y"] {
        scope.set(v, String::new(), true, &loc);
    }
    Reader::new(srctree)
        .read_file(&mut scope, &file, &Includes::Follow)
        .map_err(|e| KbuildError::from(e).to_string())?;
    Ok(Some(scope))
}

/// A variable's words; one that cannot be expanded names its line.
fn value(scope: &Scope, name: &str) -> Result<Vec<String>, String> {
    let text = scope.expand(&format!("$({name})"));
    if text.contains(UNKNOWN) {
        let at = scope
            .words(name)
            .into_iter()
            .find(|w| w.text.contains(UNKNOWN))
            .map(|w| format!("{}: `{}`", w.loc.at, w.loc.line.trim()))
            .unwrap_or_else(|| format!("`{name}` = `{}`", show(&text)));
        return Err(format!("{at}: rkbuild cannot expand it"));
    }
    Ok(text.split_whitespace().map(String::from).collect())
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::makefile::filter_out;

    fn spell() -> (String, impl Fn(&str) -> String) {
        ("/src".to_string(), |d: &str| format!("/src/{d}"))
    }

    #[test]
    fn reads_a_folders_flags_with_real_paths_and_its_parents_subdir_flags() {
        let d = tree(&[
            ("samples/Makefile", "subdir-ccflags-y += -DTOP\n"),
            (
                "samples/rust/Makefile",
                "ccflags-y += -I$(src) -I$(srctree)/include/x\nsubdir-ccflags-y += -DOWN\n\
                 CFLAGS_ev.o := -DEV\nCFLAGS_REMOVE_ev.o := -Wall\nccflags-remove-y += -O%\n\
                 UBSAN_SANITIZE_ev.o := n\n",
            ),
        ]);
        let (srctree, src) = spell();
        let s = Spelling {
            root_is_folder: false,
            srctree: &srctree,
            src: &src,
        };
        let f = folder_c_flags(
            d.path(),
            &cfg(""),
            "samples/rust/",
            "ev",
            &s,
            "UBSAN_SANITIZE",
        )
        .unwrap();
        assert_eq!(f.subdir, ["-DTOP", "-DOWN"]);
        assert_eq!(f.ccflags, ["-I/src/samples/rust", "-I/src/include/x"]);
        assert_eq!(f.obj, ["-DEV"]);
        assert_eq!(f.obj_remove, ["-Wall"]);
        assert!(!f.sanitize);
        let mut w: Vec<String> = ["-O2", "-Wall", "-g"].map(String::from).to_vec();
        filter_out(&mut w, &f.ccflags_remove);
        filter_out(&mut w, &f.obj_remove);
        assert_eq!(w, ["-g"]);
        // Another object of the folder keeps the sanitizers and has no flags of its own.
        let g = folder_c_flags(
            d.path(),
            &cfg(""),
            "samples/rust/",
            "x",
            &s,
            "UBSAN_SANITIZE",
        )
        .unwrap();
        assert!(g.sanitize && g.obj.is_empty());
    }

    #[test]
    fn what_cannot_be_expanded_names_its_line() {
        let d = tree(&[(
            "drv/Makefile",
            "ccflags-y += -DA\nccflags-y += $(call cc-option,-Wfoo)\n",
        )]);
        let (srctree, src) = spell();
        let s = Spelling {
            root_is_folder: false,
            srctree: &srctree,
            src: &src,
        };
        let e = folder_c_flags(d.path(), &cfg(""), "drv/", "x", &s, "UBSAN_SANITIZE").unwrap_err();
        assert!(e.contains("drv/Makefile:2"), "{e}");
        assert!(e.contains("cc-option"), "{e}");
    }
}
