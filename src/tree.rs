//! The kernel tree being built: its vintage (which generation of Kbuild's Rust support it
//! carries) and its architecture.
//!
//! The vintage is detected from what the tree holds, not from its version number, so a vendor
//! tree with backports lands on the layout it really has:
//!
//! The markers of each vintage are part of its layout description (`[detect]` in
//! `templates/kbuild/*.toml`), tried newest first.

use std::fmt;
use std::path::Path;

use crate::kconfig::DotConfig;

/// A kernel vintage is its layout description (`templates/kbuild/<name>.toml`): everything
/// rkbuild knows about that generation of Kbuild's Rust support is asked of it.
pub type Vintage = &'static crate::layout::Layout;

/// The architectures with Rust support in some vintage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Arch {
    X86_64,
    /// 32-bit x86, only under UML.
    X86,
    Arm64,
    Arm,
    Riscv64,
    Riscv32,
    Powerpc64,
    Powerpc,
    Loongarch64,
    S390,
}

#[derive(Debug, thiserror::Error)]
pub enum ArchError {
    #[error("unknown architecture `{0}`\n  fix: use one of x86_64, x86 (UML), arm64, arm, riscv64, riscv32, powerpc64le, powerpc, loongarch64, s390 (kernel ARCH names such as x86, riscv, powerpc are accepted with a .config that settles the width)")]
    Unknown(String),
    #[error("the configuration `{config}` is for {found}, but --arch asks for {asked}\n  fix: drop --arch, or pass the .config made for {asked}")]
    Mismatch {
        config: String,
        found: &'static str,
        asked: &'static str,
    },
    #[error("cannot tell the architecture: `{0}` sets none of CONFIG_X86_64, CONFIG_X86_32, CONFIG_ARM64, CONFIG_ARM, CONFIG_RISCV, CONFIG_PPC64, CONFIG_PPC32, CONFIG_LOONGARCH, CONFIG_S390\n  fix: pass --arch")]
    NotInConfig(String),
}

impl Arch {
    pub fn name(self) -> &'static str {
        match self {
            Arch::X86_64 => "x86_64",
            Arch::X86 => "x86",
            Arch::Arm64 => "arm64",
            Arch::Arm => "arm",
            Arch::Riscv64 => "riscv64",
            Arch::Riscv32 => "riscv32",
            Arch::Powerpc64 => "powerpc64le",
            Arch::Powerpc => "powerpc",
            Arch::Loongarch64 => "loongarch64",
            Arch::S390 => "s390",
        }
    }

    /// Kbuild's SRCARCH (the folder under `arch/`).
    pub fn srcarch(self) -> &'static str {
        match self {
            Arch::X86_64 | Arch::X86 => "x86",
            Arch::Arm64 => "arm64",
            Arch::Arm => "arm",
            Arch::Riscv64 | Arch::Riscv32 => "riscv",
            Arch::Powerpc64 | Arch::Powerpc => "powerpc",
            Arch::Loongarch64 => "loongarch",
            Arch::S390 => "s390",
        }
    }

    /// Parses a `--arch` value. Kernel names that leave the width open (x86, riscv, powerpc)
    /// return the 64-bit variant; [`Arch::resolve`] refines them with the config.
    pub fn parse(s: &str) -> Result<Arch, ArchError> {
        Ok(match s {
            "x86_64" | "x86" | "amd64" => Arch::X86_64,
            "i386" | "i686" | "x86_32" | "um32" => Arch::X86,
            "arm64" | "aarch64" => Arch::Arm64,
            "arm" | "armv7" | "armv6" => Arch::Arm,
            "riscv" | "riscv64" => Arch::Riscv64,
            "riscv32" => Arch::Riscv32,
            "powerpc" | "powerpc64" | "powerpc64le" | "ppc64le" | "ppc64" => Arch::Powerpc64,
            "powerpc32" | "ppc32" | "ppc" => Arch::Powerpc,
            "loongarch" | "loongarch64" => Arch::Loongarch64,
            "s390" | "s390x" => Arch::S390,
            _ => return Err(ArchError::Unknown(s.to_string())),
        })
    }

    /// The architecture a `.config` is for (first match wins, like the kernel's generator).
    pub fn from_config(cfg: &DotConfig) -> Option<Arch> {
        let on = |s: &str| cfg.enabled(s);
        Some(if on("ARM64") {
            Arch::Arm64
        } else if on("ARM") {
            Arch::Arm
        } else if on("RISCV") {
            if on("64BIT") {
                Arch::Riscv64
            } else {
                Arch::Riscv32
            }
        } else if on("X86_64") {
            Arch::X86_64
        } else if on("X86_32") {
            Arch::X86
        } else if on("LOONGARCH") {
            Arch::Loongarch64
        } else if on("PPC64") {
            Arch::Powerpc64
        } else if on("PPC32") || on("PPC") {
            Arch::Powerpc
        } else if on("S390") {
            Arch::S390
        } else {
            return None;
        })
    }

    /// Settles the architecture from `--arch` (if any) and the config; they must agree.
    pub fn resolve(asked: Option<&str>, cfg: &DotConfig) -> Result<Arch, ArchError> {
        let from_cfg = Arch::from_config(cfg);
        let asked = match asked {
            None => {
                return from_cfg
                    .ok_or_else(|| ArchError::NotInConfig(cfg.path.display().to_string()))
            }
            Some(a) => (a, Arch::parse(a)?),
        };
        match from_cfg {
            None => Ok(asked.1),
            Some(c) if c.srcarch() == asked.1.srcarch() && !is_exact(asked.0) => Ok(c),
            Some(c) if c == asked.1 => Ok(c),
            Some(c) => Err(ArchError::Mismatch {
                config: cfg.path.display().to_string(),
                found: c.name(),
                asked: asked.1.name(),
            }),
        }
    }

    pub fn is_64bit(self) -> bool {
        !matches!(self, Arch::X86 | Arch::Arm | Arch::Riscv32 | Arch::Powerpc)
    }
}

/// Whether an `--arch` spelling fixes the width (then it must match the config exactly).
fn is_exact(s: &str) -> bool {
    !matches!(s, "x86" | "riscv" | "powerpc" | "arm" | "um32")
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kernel version from the tree's top Makefile (`VERSION`, `PATCHLEVEL`, `SUBLEVEL`).
pub fn kernel_release(srctree: &Path) -> Option<String> {
    let text = std::fs::read_to_string(srctree.join("Makefile")).ok()?;
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
    use crate::kconfig::Format;

    fn cfg(text: &str) -> DotConfig {
        DotConfig::parse(Path::new(".config"), text, Format::DotConfig).unwrap()
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
