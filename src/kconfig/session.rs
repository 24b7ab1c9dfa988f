//! Reading a tree's Kconfig with the detected toolchain: the parsed tree plus the macro
//! expander set up with what Kbuild would export (RUSTC, BINDGEN, RUST_LIB_SRC, CC, LD, …).

use std::path::Path;

use super::macros::{Expander, MacroEnv};
use super::tree::Kconfig;
use crate::toolchain::ToolNames;

pub struct Session {
    pub kc: Kconfig,
    pub x: Expander,
    /// The rustc the probes ran with.
    pub rustc: String,
}

impl Session {
    /// Parses `<srctree>/Kconfig` for `srcarch` and prepares the probes with the tools the
    /// build context found: `rustc` as `$(RUSTC)`, the tools named in `tools` (already merged
    /// with the environment), and `lib_src`, the library source the sysroot holds (part of
    /// the probes' identity when RUST_LIB_SRC does not name it).
    pub fn open(
        srctree: &Path,
        srcarch: &str,
        tools: &ToolNames,
        rustc: &str,
        lib_src: Option<&Path>,
    ) -> anyhow::Result<Session> {
        let kc = Kconfig::load_cached(srctree, srcarch)?;
        let mut env = MacroEnv::kbuild(srctree, srcarch, rustc, None);
        if let Some(b) = &tools.bindgen {
            env.set("BINDGEN", b.clone());
        }
        if let Some(l) = &tools.rust_lib_src {
            env.set("RUST_LIB_SRC", l.display().to_string());
        } else if let Some(lib) = lib_src {
            let core = lib.join("core/src/lib.rs");
            env.extra_identity = format!("sysroot-core={} {}\n", core.display(), core.exists());
        }
        let x = Expander::new(env, &kc.variables, true);
        Ok(Session {
            kc,
            x,
            rustc: rustc.to_string(),
        })
    }

    /// Ends the session at the end of a command: the probe answers are saved and the scratch
    /// folder removed, but the model is not freed. The process ends right after, and freeing
    /// the ~19,000 symbols of a whole-tree evaluation took a seventh of `rkbuild why --all`.
    pub fn finish(self) {
        self.x.save();
        drop(self.x);
        std::mem::forget(self.kc);
    }
}
