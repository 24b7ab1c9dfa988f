//! The C-side tools as the kernel's top Makefile names them: `LLVM=1` (clang, ld.lld and the
//! llvm-* tools), `LLVM=-22` (a version suffix), `LLVM=/path/` (a prefix), else GCC and binutils
//! with `CROSS_COMPILE`; `CC=`, `HOSTCC=`, `LD=`, `NM=`, `OBJCOPY=` given on make's command
//! line win. Pure: the caller passes the variables it was given.

/// The make variables that decide the tools (each `None` when not given).
#[derive(Clone, Debug, Default)]
pub struct MakeVars {
    pub llvm: Option<String>,
    pub cross_compile: Option<String>,
    pub cc: Option<String>,
    pub hostcc: Option<String>,
    pub ld: Option<String>,
    pub nm: Option<String>,
    pub objcopy: Option<String>,
}

impl MakeVars {
    /// The variables given, as make's command line names them.
    pub fn given(&self) -> Vec<(&'static str, &String)> {
        [
            ("LLVM", &self.llvm),
            ("CROSS_COMPILE", &self.cross_compile),
            ("CC", &self.cc),
            ("HOSTCC", &self.hostcc),
            ("LD", &self.ld),
            ("NM", &self.nm),
            ("OBJCOPY", &self.objcopy),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
        .collect()
    }

    /// The variables for the kernel in `objtree`: the environment's (rkbuild's environment
    /// plays make's command line), then, for those it does not give, what the kernel's make
    /// chose for that tree where `rkbuild distro` asked it ([`RECORDED_VARS`]: a distribution's
    /// object tree names its compiler in makefiles of its own, Debian's `.kernelvariables`).
    pub fn for_objtree(objtree: &std::path::Path) -> MakeVars {
        let mut v = MakeVars::from_env();
        let text = std::fs::read_to_string(objtree.join(RECORDED_VARS)).unwrap_or_default();
        for (k, val) in parse_recorded(&text) {
            let slot = match k {
                "LLVM" => &mut v.llvm,
                "CROSS_COMPILE" => &mut v.cross_compile,
                "CC" => &mut v.cc,
                "HOSTCC" => &mut v.hostcc,
                "LD" => &mut v.ld,
                "NM" => &mut v.nm,
                "OBJCOPY" => &mut v.objcopy,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(val.to_string());
            }
        }
        v
    }

    /// The variables from the environment (rkbuild's environment plays make's command line).
    pub fn from_env() -> MakeVars {
        let get = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        MakeVars {
            llvm: get("LLVM"),
            cross_compile: get("CROSS_COMPILE"),
            cc: get("CC"),
            hostcc: get("HOSTCC"),
            ld: get("LD"),
            nm: get("NM"),
            objcopy: get("OBJCOPY"),
        }
    }
}

/// Where `rkbuild distro` keeps its question to the kernel's make, in the object tree.
pub const PROBE_DIR: &str = ".rkbuild-distro";
/// The tool variables the kernel's make chose for the tree, as `NAME=value` lines.
pub const RECORDED_VARS: &str = ".rkbuild-distro/make-vars";

/// Also recorded: the linker flags of a module's partial link (`cmd_ld_multi_m`), which a
/// built kernel's `.vmlinux.o.cmd` holds and a distribution's headers do not.
pub const LDFLAGS_VAR: &str = "KBUILD_LDFLAGS";
/// The variables [`RECORDED_VARS`] holds (make's names): the tools, and the linker flags.
pub const PROBED_VARS: [&str; 8] = [
    "LLVM",
    "CROSS_COMPILE",
    "CC",
    "HOSTCC",
    "LD",
    "NM",
    "OBJCOPY",
    LDFLAGS_VAR,
];

/// `NAME=value` lines; empty values and other lines are skipped.
pub fn parse_recorded(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim(), v.trim()))
        .filter(|(k, v)| !k.is_empty() && !v.is_empty())
        .collect()
}

/// The programs Kbuild would run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct KbuildTools {
    pub cc: String,
    /// Also the linker of proc macros (`-Clinker=$(HOSTCC)`).
    pub hostcc: String,
    pub ld: String,
    pub nm: String,
    pub objcopy: String,
    pub ar: String,
}

/// The top Makefile's tool choice.
pub fn kbuild_tools(v: &MakeVars) -> KbuildTools {
    let cross = v.cross_compile.clone().unwrap_or_default();
    let t = match v.llvm.as_deref() {
        Some(llvm) => {
            // `LLVM=/usr/lib/llvm-22/bin/` is a prefix, `LLVM=-22` a suffix, `LLVM=1` neither.
            let (pre, suf) = if llvm.ends_with('/') {
                (llvm, "")
            } else if llvm.starts_with('-') {
                ("", llvm)
            } else {
                ("", "")
            };
            let tool = |n: &str| format!("{pre}{n}{suf}");
            KbuildTools {
                cc: tool("clang"),
                hostcc: tool("clang"),
                ld: tool("ld.lld"),
                nm: tool("llvm-nm"),
                objcopy: tool("llvm-objcopy"),
                ar: tool("llvm-ar"),
            }
        }
        None => KbuildTools {
            cc: format!("{cross}gcc"),
            hostcc: "gcc".into(),
            ld: format!("{cross}ld"),
            nm: format!("{cross}nm"),
            objcopy: format!("{cross}objcopy"),
            ar: format!("{cross}ar"),
        },
    };
    KbuildTools {
        cc: v.cc.clone().unwrap_or(t.cc),
        hostcc: v.hostcc.clone().unwrap_or(t.hostcc),
        ld: v.ld.clone().unwrap_or(t.ld),
        nm: v.nm.clone().unwrap_or(t.nm),
        objcopy: v.objcopy.clone().unwrap_or(t.objcopy),
        ar: t.ar,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(llvm: Option<&str>, cross: Option<&str>) -> MakeVars {
        MakeVars {
            llvm: llvm.map(String::from),
            cross_compile: cross.map(String::from),
            ..MakeVars::default()
        }
    }

    #[test]
    fn recorded_vars_fill_what_the_environment_leaves() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join(PROBE_DIR)).unwrap();
        std::fs::write(
            d.path().join(RECORDED_VARS),
            "CC=x86_64-linux-gnu-gcc-14\nCROSS_COMPILE=x86_64-linux-gnu-\nLLVM=\nnot a var\n",
        )
        .unwrap();
        let v = MakeVars::for_objtree(d.path());
        assert_eq!(v.cross_compile.as_deref(), Some("x86_64-linux-gnu-"));
        assert_eq!(v.llvm, None, "an empty value is not given");
        let t = kbuild_tools(&v);
        assert_eq!(t.objcopy, "x86_64-linux-gnu-objcopy");
        if std::env::var_os("CC").is_none() {
            assert_eq!(t.cc, "x86_64-linux-gnu-gcc-14");
        }
    }

    #[test]
    fn llvm_forms() {
        let t = kbuild_tools(&vars(Some("-22"), None));
        assert_eq!(
            (t.hostcc.as_str(), t.objcopy.as_str()),
            ("clang-22", "llvm-objcopy-22")
        );
        assert_eq!(t.ld, "ld.lld-22");
        let t = kbuild_tools(&vars(Some("1"), Some("aarch64-linux-gnu-")));
        assert_eq!((t.cc.as_str(), t.nm.as_str()), ("clang", "llvm-nm"));
        let t = kbuild_tools(&vars(Some("/opt/llvm/bin/"), None));
        assert_eq!(t.cc, "/opt/llvm/bin/clang");
    }

    #[test]
    fn gcc_with_cross_compile_and_overrides() {
        let t = kbuild_tools(&vars(None, Some("aarch64-linux-gnu-")));
        assert_eq!(t.cc, "aarch64-linux-gnu-gcc");
        assert_eq!(t.hostcc, "gcc", "the host compiler is never cross");
        assert_eq!(t.objcopy, "aarch64-linux-gnu-objcopy");
        let mut v = vars(Some("-22"), None);
        v.hostcc = Some("cc".into());
        assert_eq!(kbuild_tools(&v).hostcc, "cc");
    }
}
