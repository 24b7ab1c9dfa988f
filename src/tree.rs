//! The kernel tree being built: its vintage (which generation of Kbuild's Rust support it
//! carries) and its architecture ([`Arch`], whose facts are data: `crate::arch`).
//!
//! The vintage is detected from what the tree holds, not from its version number, so a vendor
//! tree with backports lands on the layout it really has:
//!
//! The markers of each vintage are part of its layout description (`[detect]` in
//! `templates/kbuild/*.toml`), tried newest first.

use std::path::Path;

pub use crate::arch::{Arch, ArchError};

/// A kernel vintage is its layout description (`templates/kbuild/<name>.toml`): everything
/// rkbuild knows about that generation of Kbuild's Rust support is asked of it.
pub type Vintage = &'static crate::layout::Layout;

/// The kernel version from the tree's top Makefile (`VERSION`, `PATCHLEVEL`, `SUBLEVEL`).
pub fn kernel_release(srctree: &Path) -> Option<String> {
    version_of_makefile(&std::fs::read_to_string(srctree.join("Makefile")).ok()?)
}

/// `VERSION.PATCHLEVEL.SUBLEVEL` of a top Makefile's text.
pub fn version_of_makefile(text: &str) -> Option<String> {
    let get = |k: &str| {
        text.lines().take(10).find_map(|l| {
            let (a, b) = l.split_once('=')?;
            (a.trim() == k).then(|| b.trim().to_string())
        })
    };
    Some(format!(
        "{}.{}.{}",
        get("VERSION")?,
        get("PATCHLEVEL")?,
        get("SUBLEVEL")?
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kconfig::{DotConfig, Format};

    fn cfg(text: &str) -> DotConfig {
        DotConfig::parse(Path::new(".config"), text, Format::DotConfig).unwrap()
    }

    #[test]
    fn version_from_the_top_makefile() {
        let mk = "# SPDX\nVERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 4\nEXTRAVERSION =\nNAME = Baby Opossum\n";
        assert_eq!(version_of_makefile(mk).as_deref(), Some("7.3.4"));
        assert_eq!(version_of_makefile("VERSION = 7\n"), None);
    }

    #[test]
    fn arch_from_config_and_flag() {
        let x = cfg("CONFIG_X86_64=y\nCONFIG_64BIT=y\n");
        assert_eq!(Arch::resolve(None, &x).unwrap(), Arch::X86_64);
        assert_eq!(Arch::resolve(Some("x86"), &x).unwrap(), Arch::X86_64);
        let e = Arch::resolve(Some("arm64"), &x).unwrap_err().to_string();
        assert!(e.contains("x86_64") && e.contains("arm64"), "{e}");
        let r = cfg("CONFIG_RISCV=y\n");
        assert_eq!(Arch::resolve(Some("riscv"), &r).unwrap(), Arch::Riscv32);
        assert!(Arch::resolve(Some("riscv64"), &r).is_err());
        assert!(Arch::resolve(Some("sparc"), &x)
            .unwrap_err()
            .to_string()
            .contains("unknown architecture `sparc`"));
        assert!(Arch::resolve(None, &cfg("CONFIG_RUST=y\n")).is_err());
        assert_eq!(
            Arch::resolve(Some("arm64"), &cfg("CONFIG_RUST=y\n")).unwrap(),
            Arch::Arm64
        );
    }

    #[test]
    fn vintage_from_config_symbols() {
        use crate::layout::Layout;
        let detect = |t: &str| {
            let c = cfg(t);
            Layout::detect_symbols(|s| c.get(s).is_some()).map(|l| l.name.as_str())
        };
        assert_eq!(
            detect("CONFIG_RUST_OPT_LEVEL_SIMILAR_AS_CHOSEN_FOR_C=y\n"),
            Some("2021")
        );
        assert_eq!(detect("CONFIG_RUST_IS_AVAILABLE=y\n"), Some("6.12"));
        assert_eq!(
            detect("CONFIG_RUST_IS_AVAILABLE=y\nCONFIG_RUSTC_LLVM_MAJOR_VERSION=22\n"),
            Some("7.3")
        );
    }
}
