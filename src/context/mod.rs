//! The build context: what every command works out once and every later stage reads, as
//! cargo's `BuildContext` is made once before its unit graph. It holds the tree and its
//! configuration ([`Tree`]: the vintage's layout description, the arch description) and the
//! toolchain with its answers ([`Toolchain`]: `rustc -vV`, the sysroot, `rustc-option`,
//! bindgen and its libclang, `cc-option`, each asked once per tool binary and, for commands
//! that save them, kept in `O/.rkbuild-tools.json` across runs).
//!
//! Order of the data: the tree is read first (no tool runs), then the toolchain answers what
//! is asked of it; `kconfig`'s probes and the flag mappings get the answers, never the tools.

mod toolchain;
mod tree;

pub use toolchain::Toolchain;
pub use tree::{fallback_minimums, Tree, TreeOpts};

use anyhow::bail;

use crate::kconfig::session::Session;
use crate::mapping::Ctx;
use crate::toolchain::{Found, RustcInfo, FIX_RUSTC};

/// The tree, its layout and arch, and the toolchain's answers: prepared once per command.
pub struct BuildContext {
    pub tree: Tree,
    pub toolchain: Toolchain,
}

impl BuildContext {
    /// Reads the tree and configuration; the toolchain is asked only when a stage needs it.
    pub fn open(opts: &TreeOpts) -> anyhow::Result<BuildContext> {
        let tree = Tree::open(opts)?;
        let toolchain = Toolchain::new(opts.tools.clone().with_env()?, &tree.objtree);
        Ok(BuildContext { tree, toolchain })
    }

    /// Reads the tree again (after the kernel's make may have updated the configuration); the
    /// toolchain's answers stay.
    pub fn reread(&mut self, opts: &TreeOpts) -> anyhow::Result<()> {
        self.tree = Tree::open(opts)?;
        Ok(())
    }

    /// rustc, checked against the tree's minimum.
    pub fn rustc(&mut self) -> anyhow::Result<Found<RustcInfo>> {
        let rustc = self.toolchain.rustc()?;
        let min = self.tree.minimums()?;
        if rustc.info.version < min.rustc {
            bail!(
                "Rust compiler `{}` is too old: {} found, {} needed (from {})\n  fix: {}",
                rustc.path.display(),
                rustc.info.version,
                min.rustc,
                min.source,
                FIX_RUSTC
            );
        }
        Ok(rustc)
    }

    /// Whether the layout remaps source paths here (7.3, out of the source tree) and rustc
    /// takes `--remap-path-scope`.
    pub fn has_remap(&mut self) -> anyhow::Result<bool> {
        if !(self.tree.vintage.has_section("remap-path-prefix") && self.tree.out_of_srctree()) {
            return Ok(false);
        }
        self.toolchain.rustc_option("--remap-path-scope=macro")
    }

    /// The tree's Kconfig (`src` holds it), its probes run with the rustc (and library) the
    /// toolchain found.
    pub fn kconfig(&mut self, src: &std::path::Path) -> anyhow::Result<Session> {
        let rustc = self.toolchain.rustc_for_probes();
        let given = self.toolchain.names.rust_lib_src.is_some();
        let lib = match (given, self.toolchain.rustc()) {
            (false, Ok(_)) => self
                .toolchain
                .rust_lib_src(&self.tree.krustflags)
                .ok()
                .map(|(_, l)| l),
            _ => None,
        };
        Session::open(
            src,
            self.tree.arch.srcarch(),
            &self.toolchain.names,
            &rustc,
            lib.as_deref(),
        )
    }

    /// The flag mappings' input (paths spelled as Kbuild spells them).
    pub fn ctx<'a>(&'a self, rustc: &'a RustcInfo, has_remap: bool) -> Ctx<'a> {
        self.tree.ctx(rustc, has_remap)
    }
}
