//! Architectures as data: one description per architecture (`templates/arch/<name>.toml`,
//! embedded), as kernel vintages are layouts. A description holds what an `arch/*/Makefile` and
//! rust/Makefile say for Rust — the Rust flags in the Makefile's order with the gates beside
//! them (rustc version, config symbols, the layout's answer where vintages differ), flags for
//! kernel and module objects, the bindgen clang target — and how rkbuild names and recognises
//! the architecture (`--arch` spellings, SRCARCH, the `.config` symbols, its target choice).
//!
//! Design rule: code asks the description; it never matches on the architecture for these
//! facts. [`Arch`] stays the identity the rest of rkbuild passes around (cheap to copy, serialised
//! as before); [`Arch::desc`] is how any code gets at the facts.
//!
//! Out of scope: per-vintage facts that depend on the architecture (minimum tool versions,
//! redirected intrinsics, objtool) stay in the layouts, gated by SRCARCH or config symbol; the
//! custom specs of `--target-style json` stay in `templates/targets/` (named here by
//! `target.json_template`); what the flags mean for a configuration is `targetspec`'s.

mod desc;

use std::fmt;
use std::sync::OnceLock;

use crate::kconfig::DotConfig;
use crate::layout::Facts;

pub use desc::{
    fill, placeholders, ArchDesc, ArchFlag, BuiltinStyle, DescError, Select, TargetFacts,
};

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

/// Each architecture and its description, in the order lists show them and a `.config` is
/// matched (first match wins; the gates are written so that at most one holds).
const BUILTIN: &[(Arch, &str, &str)] = &[
    (
        Arch::X86_64,
        "templates/arch/x86_64.toml",
        include_str!("../../templates/arch/x86_64.toml"),
    ),
    (
        Arch::X86,
        "templates/arch/x86.toml",
        include_str!("../../templates/arch/x86.toml"),
    ),
    (
        Arch::Arm64,
        "templates/arch/arm64.toml",
        include_str!("../../templates/arch/arm64.toml"),
    ),
    (
        Arch::Arm,
        "templates/arch/arm.toml",
        include_str!("../../templates/arch/arm.toml"),
    ),
    (
        Arch::Riscv64,
        "templates/arch/riscv64.toml",
        include_str!("../../templates/arch/riscv64.toml"),
    ),
    (
        Arch::Riscv32,
        "templates/arch/riscv32.toml",
        include_str!("../../templates/arch/riscv32.toml"),
    ),
    (
        Arch::Powerpc64,
        "templates/arch/powerpc64le.toml",
        include_str!("../../templates/arch/powerpc64le.toml"),
    ),
    (
        Arch::Powerpc,
        "templates/arch/powerpc.toml",
        include_str!("../../templates/arch/powerpc.toml"),
    ),
    (
        Arch::Loongarch64,
        "templates/arch/loongarch64.toml",
        include_str!("../../templates/arch/loongarch64.toml"),
    ),
    (
        Arch::S390,
        "templates/arch/s390.toml",
        include_str!("../../templates/arch/s390.toml"),
    ),
];

/// Parses the built-in descriptions and checks them against each other (one name per file,
/// the file named after it, no `--arch` spelling claimed twice).
/// `builtin`: the texts are the embedded ones, read in their JSON form.
fn load(files: &[(Arch, &str, &str)], builtin: bool) -> Result<Vec<(Arch, ArchDesc)>, DescError> {
    let mut out: Vec<(Arch, ArchDesc)> = vec![];
    for (arch, file, text) in files {
        let d = match builtin.then(|| crate::builtin::json(file)).flatten() {
            Some(json) => ArchDesc::parse_json(file, json)?,
            None => ArchDesc::parse(file, text)?,
        };
        let bad = |message: String| DescError::Invalid {
            file: file.to_string(),
            message,
        };
        if !file.ends_with(&format!("/{}.toml", d.name)) {
            return Err(bad(format!("name = \"{}\" is not the file's name", d.name)));
        }
        for spelling in d.aliases.iter().chain(&d.loose_aliases) {
            if let Some((_, other)) = out
                .iter()
                .find(|(_, o)| o.aliases.contains(spelling) || o.loose_aliases.contains(spelling))
            {
                return Err(bad(format!(
                    "alias `{spelling}` is {}'s already",
                    other.name
                )));
            }
        }
        out.push((*arch, d));
    }
    Ok(out)
}

fn all() -> &'static [(Arch, ArchDesc)] {
    static ALL: OnceLock<Vec<(Arch, ArchDesc)>> = OnceLock::new();
    ALL.get_or_init(|| load(BUILTIN, true).unwrap_or_else(|e| panic!("{e}")))
}

/// A gate of `select` asks only the configuration.
struct Config<'a>(&'a DotConfig);

impl Facts for Config<'_> {
    fn rustc(&self) -> (u64, u64, u64) {
        (0, 0, 0)
    }
    fn on(&self, name: &str) -> bool {
        self.0.enabled(name)
    }
    fn exists(&self, _: &str) -> bool {
        false
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ArchError {
    #[error("unknown architecture `{name}`\n  fix: use one of {known} (kernel ARCH names such as x86, riscv, powerpc are accepted with a .config that settles the width)")]
    Unknown { name: String, known: String },
    #[error("the configuration `{config}` is for {found}, but --arch asks for {asked}\n  fix: drop --arch, or pass the .config made for {asked}")]
    Mismatch {
        config: String,
        found: &'static str,
        asked: &'static str,
    },
    #[error("cannot tell the architecture: `{config}` sets none of {symbols}\n  fix: pass --arch")]
    NotInConfig { config: String, symbols: String },
}

impl Arch {
    /// Every architecture, in the order lists show them.
    pub fn all() -> impl Iterator<Item = Arch> {
        all().iter().map(|(a, _)| *a)
    }

    /// Its description (`templates/arch/<name>.toml`).
    pub fn desc(self) -> &'static ArchDesc {
        all()
            .iter()
            .find(|(a, _)| *a == self)
            .map(|(_, d)| d)
            .expect("every Arch has a description in BUILTIN")
    }

    pub fn name(self) -> &'static str {
        &self.desc().name
    }

    /// Kbuild's SRCARCH (the folder under `arch/`).
    pub fn srcarch(self) -> &'static str {
        &self.desc().srcarch
    }

    pub fn is_64bit(self) -> bool {
        self.desc().bits == 64
    }

    /// `BINDGEN_TARGET_$(SRCARCH)`: the clang target bindgen is given.
    pub fn bindgen_target(self) -> &'static str {
        &self.desc().bindgen_target
    }

    /// Every spelling `--arch` takes (for completion and help), in the order lists show them.
    pub fn spellings() -> Vec<&'static str> {
        let mut out: Vec<&'static str> = vec![];
        for (_, d) in all() {
            for a in d.aliases.iter().chain(&d.loose_aliases) {
                if !out.contains(&a.as_str()) {
                    out.push(a);
                }
            }
        }
        out
    }

    /// Parses a `--arch` value. Kernel names that leave the width open (x86, riscv, powerpc)
    /// return the 64-bit variant; [`Arch::resolve`] refines them with the config.
    pub fn parse(s: &str) -> Result<Arch, ArchError> {
        all()
            .iter()
            .find(|(_, d)| d.aliases.iter().chain(&d.loose_aliases).any(|a| a == s))
            .map(|(a, _)| *a)
            .ok_or_else(|| ArchError::Unknown {
                name: s.to_string(),
                known: all()
                    .iter()
                    .map(|(_, d)| d.label())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// The architecture a `.config` is for (its description's `select`).
    pub fn from_config(cfg: &DotConfig) -> Option<Arch> {
        all()
            .iter()
            .find(|(_, d)| d.select.when().holds(&Config(cfg)))
            .map(|(a, _)| *a)
    }

    /// Settles the architecture from `--arch` (if any) and the config; they must agree.
    pub fn resolve(asked: Option<&str>, cfg: &DotConfig) -> Result<Arch, ArchError> {
        let from_cfg = Arch::from_config(cfg);
        let asked = match asked {
            None => {
                return from_cfg.ok_or_else(|| ArchError::NotInConfig {
                    config: cfg.path.display().to_string(),
                    symbols: select_symbols(),
                })
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
}

/// `CONFIG_X86_64, CONFIG_X86_32, …`: the symbols that name an architecture.
fn select_symbols() -> String {
    let mut out: Vec<String> = vec![];
    for (_, d) in all() {
        let s = format!("CONFIG_{}", d.select.symbol);
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out.join(", ")
}

/// Whether an `--arch` spelling fixes the width (then it must match the config exactly).
fn is_exact(s: &str) -> bool {
    !all()
        .iter()
        .any(|(_, d)| d.loose_aliases.iter().any(|a| a == s))
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests;
