//! The tree and its configuration, read and checked: `.config` (or `--config`), the vintage
//! settled by [`Layout::resolve`] (the one place it is decided), the arch by
//! [`Arch::resolve`], and `KRUSTFLAGS`. Reading it runs no tool.

use std::path::PathBuf;

use anyhow::bail;

use crate::fsutil::canonical;
use crate::kconfig::DotConfig;
use crate::layout::Layout;
use crate::mapping::Ctx;
use crate::toolchain::{self, Minimums, RustcInfo, ToolNames};
use crate::tree::{Arch, Vintage};

/// Options shared by the commands that read a tree and a configuration.
#[derive(Clone, Debug, Default)]
pub struct TreeOpts {
    pub srctree: Option<PathBuf>,
    pub objtree: Option<PathBuf>,
    pub config: Option<PathBuf>,
    pub arch: Option<String>,
    pub kbuild: Option<String>,
    pub tools: ToolNames,
    pub krustflags: Option<String>,
}

/// The configuration and tree, read and checked.
#[derive(Debug)]
pub struct Tree {
    pub srctree: Option<PathBuf>,
    pub objtree: PathBuf,
    pub cfg: DotConfig,
    pub vintage: Vintage,
    /// How the vintage was decided, for messages.
    pub vintage_source: String,
    pub arch: Arch,
    pub krustflags: Vec<String>,
}

impl Tree {
    /// Reads the configuration (`--config`, else `O/.config`, else `S/.config`) and settles the
    /// vintage and architecture. Does not run any tool.
    pub fn open(opts: &TreeOpts) -> anyhow::Result<Tree> {
        let objtree = opts
            .objtree
            .clone()
            .or_else(|| opts.srctree.clone())
            .unwrap_or_else(|| PathBuf::from("."));
        let config_path = match &opts.config {
            Some(c) => c.clone(),
            None => {
                let o = objtree.join(".config");
                match &opts.srctree {
                    Some(s) if !o.exists() && s.join(".config").exists() => s.join(".config"),
                    _ => o,
                }
            }
        };
        for (p, what) in [
            (Some(&objtree), "object tree (-O)"),
            (opts.srctree.as_ref(), "source tree (-S)"),
            (Some(&config_path), "configuration (--config)"),
        ] {
            if let Some(p) = p {
                crate::fsutil::check_path_text(p, what)?;
            }
        }
        let cfg = DotConfig::load(&config_path)?;
        if let Some(s) = &opts.srctree {
            if !s.join("Makefile").is_file() {
                bail!(
                    "`{}` is not a kernel source tree (no Makefile)\n  fix: pass the top of the kernel tree as --srctree",
                    s.display()
                );
            }
        }
        let from = cfg.path.display().to_string();
        let resolved = Layout::resolve(
            opts.kbuild.as_deref(),
            opts.srctree.as_deref(),
            Some((&from, &|s: &str| cfg.get(s).is_some())),
        )?;
        let (vintage, vintage_source) = (resolved.layout, resolved.source);
        let arch = Arch::resolve(opts.arch.as_deref(), &cfg)?;
        let krustflags = opts
            .krustflags
            .clone()
            .or_else(|| std::env::var("KRUSTFLAGS").ok())
            .map(|s| s.split_whitespace().map(String::from).collect())
            .unwrap_or_default();
        Ok(Tree {
            srctree: opts.srctree.clone(),
            objtree,
            cfg,
            vintage,
            vintage_source,
            arch,
            krustflags,
        })
    }

    /// What reading the tree and configuration had to say: the `.config` reader's warnings
    /// (file:line) and a guessed vintage.
    pub fn warnings(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .cfg
            .warnings
            .iter()
            .map(|w| format!("{}:{}: {}", self.cfg.path.display(), w.line, w.message))
            .collect();
        if self.vintage_source.starts_with("default") {
            out.push(format!(
                "kernel vintage {}: {}",
                self.vintage, self.vintage_source
            ));
        }
        out
    }

    /// Requires CONFIG_RUST, with the way to enable it.
    pub fn require_rust(&self) -> anyhow::Result<()> {
        if self.cfg.enabled("RUST") {
            return Ok(());
        }
        let how = match &self.srctree {
            Some(s) => format!(
                "`{}/scripts/config --file {} --enable RUST` then `make olddefconfig`; or `make menuconfig` → General setup → Rust support (`rkbuild why CONFIG_RUST` tells what blocks it)",
                s.display(),
                self.cfg.path.display()
            ),
            None => format!(
                "set `CONFIG_RUST=y` in {} and run `make olddefconfig`, or `make menuconfig` → General setup → Rust support",
                self.cfg.path.display()
            ),
        };
        bail!(
            "CONFIG_RUST is not set in {}: the kernel is configured without Rust support\n  fix: {how}",
            self.cfg.path.display()
        )
    }

    pub fn out_of_srctree(&self) -> bool {
        match &self.srctree {
            Some(s) => canonical(s) != canonical(&self.objtree),
            None => false,
        }
    }

    /// The minimum tool versions for this tree.
    pub fn minimums(&self) -> anyhow::Result<Minimums> {
        toolchain::minimums(
            self.srctree.as_deref(),
            self.arch.srcarch(),
            &fallback_minimums(self.vintage, self.arch),
        )
    }

    /// The flag-mapping context, with paths spelled as Kbuild spells them (objtree `.`).
    pub fn ctx<'a>(&'a self, rustc: &'a RustcInfo, has_remap_path_scope: bool) -> Ctx<'a> {
        Ctx {
            cfg: &self.cfg,
            rustc,
            vintage: self.vintage,
            arch: self.arch,
            krustflags: self.krustflags.clone(),
            objtree: ".".into(),
            srctree: self
                .srctree
                .as_deref()
                .map(|s| canonical(s).display().to_string())
                .unwrap_or_else(|| ".".into()),
            out_of_srctree: self.out_of_srctree(),
            has_remap_path_scope,
        }
    }
}

/// The documented minimums of each vintage, used when the tree has no min-tool-version.sh.
pub fn fallback_minimums(vintage: Vintage, arch: Arch) -> Minimums {
    let v = |s: &str| semver::Version::parse(s).expect("layouts are checked on load");
    let (rustc, bindgen, llvm) = vintage.minimums_for(arch.srcarch());
    Minimums {
        rustc: v(&rustc),
        bindgen: v(&bindgen),
        llvm: v(&llvm),
        source: vintage.minimums.source.clone(),
    }
}
