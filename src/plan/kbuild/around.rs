//! What Kbuild sets around a makefile before make reads it: `obj` and `src` (the folder),
//! `srctree` and `objtree`, the configuration's `CONFIG_` symbols (`include/config/auto.conf`),
//! its lists (`obj-y`, `foo-m`, …, each makefile's own and empty to start with), and
//! `rustc-min-version` (`scripts/Makefile.compiler`) where the rustc version is known.
//!
//! The walker reads each folder's makefile with a configuration; the analyzer reads
//! `rust/Makefile` without one (its conditionals then read both ways) for a rustc version.

use crate::kconfig::{DotConfig, Tristate, Value};
use crate::makefile::{Around, Loc, Scope};

/// One word of a Kbuild list, with the gate and line of the assignment that added it.
#[derive(Clone)]
pub(super) struct Item {
    pub(super) word: String,
    /// `obj-$(CONFIG_FOO) += foo.o`: `FOO`.
    pub(super) symbol: Option<String>,
    pub(super) loc: Loc,
}

/// The words of a Kbuild list, each with its gate.
pub(super) fn items(scope: &Scope, list: &str) -> Vec<Item> {
    scope
        .words(list)
        .into_iter()
        .map(|w| Item {
            symbol: config_symbol(&w.written),
            word: w.text,
            loc: w.loc,
        })
        .collect()
}

/// Kbuild around one folder's makefiles.
pub struct Kbuild<'c> {
    /// `None`: no configuration, every `CONFIG_` symbol is unknown.
    cfg: Option<&'c DotConfig>,
    /// `drivers/misc/` (empty for the top).
    dir: String,
    /// rustc's version as Kbuild numbers it (1.85.0 → 108500), for `rustc-min-version`.
    rustc_version: Option<u64>,
    /// Kbuild's `$(src)` and `$(srctree)` as commands spell them, where flags are read (the
    /// walk itself reads paths relative to the source tree).
    paths: Option<(String, String)>,
    /// Further variables that are empty when unset (`CFLAGS_foo.o`), where flags are read.
    empty_unset: Vec<String>,
}

impl<'c> Kbuild<'c> {
    /// A folder read for a configuration.
    pub fn folder(cfg: &'c DotConfig, dir: &str) -> Self {
        Kbuild {
            cfg: Some(cfg),
            dir: dir.to_string(),
            rustc_version: None,
            paths: None,
            empty_unset: vec![],
        }
    }

    /// A folder read for its C flags: `$(src)` and `$(srctree)` as commands spell them, and
    /// `empty_unset` (per-object variables such as `CFLAGS_foo.o`) empty when unset, as make
    /// has them.
    pub fn flags_of(
        cfg: &'c DotConfig,
        dir: &str,
        src: &str,
        srctree: &str,
        empty_unset: Vec<String>,
    ) -> Self {
        Kbuild {
            paths: Some((src.to_string(), srctree.to_string())),
            empty_unset,
            ..Kbuild::folder(cfg, dir)
        }
    }

    /// A folder read for any configuration, with a rustc version (`rust/Makefile` for the
    /// analyzer).
    pub fn any_config(dir: &str, rustc_version: u64) -> Self {
        Kbuild {
            cfg: None,
            dir: dir.to_string(),
            rustc_version: Some(rustc_version),
            paths: None,
            empty_unset: vec![],
        }
    }

    /// An empty scope as Kbuild's Makefile.build hands it to a makefile.
    pub fn scope(self) -> Scope<'c> {
        let mut s = Scope::new(self);
        // Makefile.build sets these before it includes a makefile, so `obj-y += $(x)` expands
        // `x` at once, as make does.
        let loc = Loc {
            at: "scripts/Makefile.build".into(),
            line: String::new(),
        };
        for list in ["obj-y", "obj-m", "lib-y", "lib-m", "subdir-y", "subdir-m"] {
            s.set(list, String::new(), true, &loc);
        }
        s
    }
}

impl Around for Kbuild<'_> {
    fn fixed(&self, name: &str) -> Option<String> {
        match (name, &self.paths) {
            ("src", Some((src, _))) => return Some(src.clone()),
            ("srctree", Some((_, srctree))) => return Some(srctree.clone()),
            _ => {}
        }
        match name {
            "obj" | "src" => {
                return Some(match self.dir.strip_suffix('/') {
                    Some(d) => d.to_string(),
                    None => ".".into(),
                })
            }
            "srctree" | "objtree" => return Some(".".into()),
            // Set whenever Kbuild reads a makefile: an external module's Makefile takes its
            // Kbuild branch (`ifneq ($(KERNELRELEASE),)`).
            "KERNELRELEASE" => return Some("rkbuild".into()),
            _ => {}
        }
        let sym = name.strip_prefix("CONFIG_")?;
        // What include/config/auto.conf sets: nothing for `n` or unset.
        Some(match self.cfg?.get(sym) {
            None | Some(Value::Tristate(Tristate::No)) => String::new(),
            Some(Value::Quoted(s)) => format!("\"{s}\""),
            Some(v) => v.text().into_owned(),
        })
    }

    fn is_list(&self, name: &str) -> bool {
        is_list_name(name) || self.empty_unset.iter().any(|n| n == name)
    }

    fn call(&self, name: &str, args: &[String]) -> Option<String> {
        match (name, self.rustc_version) {
            ("rustc-min-version", Some(have)) => {
                let want: u64 = args.first()?.trim().parse().unwrap_or(u64::MAX);
                Some(if have >= want {
                    "y".into()
                } else {
                    String::new()
                })
            }
            _ => None,
        }
    }
}

/// `obj-y`, `foo-m`, `foo-objs`, `foo-` (a gate that is off): Kbuild's list names.
fn is_list_name(name: &str) -> bool {
    ["-y", "-m", "-n", "-", "-objs"]
        .iter()
        .any(|s| name.ends_with(s))
}

/// The first `CONFIG_` symbol an assignment's name uses (`obj-$(CONFIG_FOO)`: `FOO`).
fn config_symbol(lhs: &str) -> Option<String> {
    let p = lhs.find("CONFIG_")?;
    let name: String = lhs[p + 7..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kconfig::Format;
    use std::path::Path;

    #[test]
    fn kbuild_fixes_the_folder_and_the_configuration() {
        let cfg = DotConfig::parse(
            Path::new(".config"),
            "CONFIG_A=y\nCONFIG_S=\"x\"\n# CONFIG_N is not set\n",
            Format::DotConfig,
        )
        .unwrap();
        let s = Kbuild::folder(&cfg, "drivers/misc/").scope();
        assert_eq!(
            s.expand("$(obj) $(src) $(srctree) [$(CONFIG_A)] [$(CONFIG_S)] [$(CONFIG_N)]"),
            "drivers/misc drivers/misc . [y] [\"x\"] []"
        );
        // Kbuild's lists start empty; anything else unset is not known.
        assert_eq!(s.expand("[$(foo-y)]"), "[]");
        assert!(s.expand("$(ARCH)").contains(crate::makefile::UNKNOWN));
        assert_eq!(Kbuild::folder(&cfg, "").scope().expand("$(obj)"), ".");
        assert_eq!(
            config_symbol("obj-$(CONFIG_FOO_BAR)"),
            Some("FOO_BAR".into())
        );
        assert_eq!(config_symbol("obj-y"), None);
    }

    #[test]
    fn without_a_configuration_symbols_are_unknown_and_rustc_min_version_is_known() {
        let s = Kbuild::any_config("rust/", 108700).scope();
        assert!(s
            .expand("$(CONFIG_RUST)")
            .contains(crate::makefile::UNKNOWN));
        assert_eq!(
            s.expand("$(if $(call rustc-min-version,108700),2024,2021)"),
            "2024"
        );
        assert_eq!(s.expand("$(if $(call rustc-min-version,108800),a b)"), "");
        let walker = DotConfig::parse(Path::new(".config"), "", Format::DotConfig).unwrap();
        let s = Kbuild::folder(&walker, "d/").scope();
        // The walker knows no rustc: the call is not known.
        assert!(s
            .expand("$(call rustc-min-version,108700)")
            .contains(crate::makefile::UNKNOWN));
    }
}
