//! Drivers from Kbuild makefiles: `obj-$(CONFIG_FOO) += foo.o` with `foo.rs` beside it is a
//! Rust driver crate, built in when `CONFIG_FOO=y`, a module when `m`, skipped when unset.
//! A composite object (`obj-m += foo.o` with `foo-y := foo_main.o foo_events.o`) that has a
//! Rust part is reported with all its parts, in link order; each Rust part is a crate of its
//! own whose module file (`RUST_MODFILE`) is the composite's. Folders (`obj-y += bar/`,
//! `subdir-y += bar`) are followed the same way, from the top-level `Makefile` and `Kbuild`
//! (`obj-`, `core-`, `drivers-`, `libs-` and `virt-` lists there, as the top Makefile uses).
//!
//! The makefiles are read by [`crate::makefile`] with what Kbuild sets around them ([`around`]):
//! variables are expanded with the usual functions, and conditionals follow the configuration
//! (`ifdef CONFIG_X`, `ifeq ($(CONFIG_X),y)`); a condition on something set outside the makefile
//! (`ifeq ($(ARCH),x86)`) reads both branches. Macros (`define`) are not run. What cannot be
//! expanded (a variable set outside the makefile, `$(shell …)`, a macro's arguments) is checked
//! instead (`hidden`): if it could stand for a Rust source that no list names, the walk stops
//! with an error naming the line. A Rust driver is never dropped silently.
//!
//! The walk (`walker`) goes folder by folder; each object of a list is a single-file driver
//! or a composite (`composite`).

pub mod around;
mod cflags;
mod composite;
mod found;
mod hidden;
mod listing;
mod stored;
mod walker;

pub use cflags::{folder_c_flags, FolderCFlags, Spelling};
pub use found::{Composite, DriverObj, KbuildError, Part, PartLang, Skipped, Walk};
pub use stored::{forget_ahead as forget_walk_ahead, read_ahead as read_walk_ahead, walk_stored};
pub use walker::{scan, walk, walk_extmod};

#[cfg(test)]
mod testing {
    //! Trees of makefiles for the walker's tests.

    pub(super) use super::{scan, walk, DriverObj, PartLang, Walk};
    pub(super) use crate::kconfig::DotConfig;
    use crate::kconfig::Format;
    pub(super) use crate::mapping::ObjKind;
    use std::path::Path;

    pub(super) fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for (p, text) in files {
            let p = d.path().join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        d
    }

    pub(super) fn cfg(text: &str) -> DotConfig {
        DotConfig::parse(Path::new(".config"), text, Format::DotConfig).unwrap()
    }

    pub(super) fn walk_ok(files: &[(&str, &str)], config: &str) -> Walk {
        let d = tree(files);
        walk(d.path(), &cfg(config), &["rust/"]).unwrap_or_else(|e| panic!("{e}"))
    }

    pub(super) fn walk_err(files: &[(&str, &str)], config: &str) -> String {
        let d = tree(files);
        walk(d.path(), &cfg(config), &[]).unwrap_err().to_string()
    }

    pub(super) fn objs(w: &Walk) -> Vec<&str> {
        w.drivers.iter().map(|d| d.obj.as_str()).collect()
    }
}
