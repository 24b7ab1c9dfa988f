//! Reading a tree's Kconfig with the detected toolchain: the parsed tree plus the macro
//! expander set up with what Kbuild would export (RUSTC, BINDGEN, RUST_LIB_SRC, CC, LD, …).

use std::path::Path;

use super::macros::{Expander, MacroEnv};
use super::tree::Kconfig;
use crate::toolchain::{self, ToolNames};

pub struct Session {
    pub kc: Kconfig,
    pub x: Expander,
    /// The rustc the probes ran with.
    pub rustc: String,
}

impl Session {
    /// Parses `<srctree>/Kconfig` for `srcarch` and prepares the probes for the tools named in
    /// `tools` (already merged with the environment).
    pub fn open(srctree: &Path, srcarch: &str, tools: &ToolNames) -> anyhow::Result<Session> {
        let kc = Kconfig::load_cached(srctree, srcarch)?;
        let rustc = match toolchain::detect_rustc(tools) {
            Ok(f) => f.path.display().to_string(),
            // The probes then fail the way the kernel's would, and `why` says so.
            Err(_) => tools.rustc.clone().unwrap_or_else(|| "rustc".into()),
        };
        let mut env = MacroEnv::kbuild(srctree, srcarch, &rustc, None);
        if let Some(b) = &tools.bindgen {
            env.set("BINDGEN", b.clone());
        }
        if let Some(l) = &tools.rust_lib_src {
            env.set("RUST_LIB_SRC", l.display().to_string());
        } else if let Ok(sysroot) = toolchain::sysroot(Path::new(&rustc), &[]) {
            let core = toolchain::rust_lib_src(tools, &sysroot).join("core/src/lib.rs");
            env.extra_identity = format!("sysroot-core={} {}\n", core.display(), core.exists());
        }
        let x = Expander::new(env, &kc.variables, true);
        Ok(Session { kc, x, rustc })
    }
}
