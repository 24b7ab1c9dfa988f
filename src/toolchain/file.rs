//! The toolchain file: where Kbuild's way of finding the tools (`RUSTC`, `RUST_LIB_SRC`,
//! `BINDGEN`, `LIBCLANG_PATH`, then PATH and the sysroot) finds nothing usable, rkbuild takes
//! them from `${XDG_CONFIG_HOME:-~/.config}/rkbuild/toolchain.toml` (or `$RKBUILD_TOOLCHAIN`;
//! empty means none), which `scripts/setup.sh` writes. It fills gaps and never overrides
//! what the flags, the environment or PATH name.

use std::path::{Path, PathBuf};

/// What the file names (every entry optional).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolchainFile {
    pub rustc: Option<String>,
    pub rust_lib_src: Option<PathBuf>,
    pub bindgen: Option<String>,
    pub libclang_path: Option<PathBuf>,
    /// Where it was read from (for messages).
    #[serde(skip)]
    pub path: PathBuf,
}

/// Where the file is looked for: `RKBUILD_TOOLCHAIN` (set but empty: nowhere), else the XDG
/// config folder.
pub fn location(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(p) = env("RKBUILD_TOOLCHAIN") {
        return (!p.is_empty()).then(|| PathBuf::from(p));
    }
    let config = env("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|h| Path::new(&h).join(".config")))?;
    Some(config.join("rkbuild/toolchain.toml"))
}

/// Parses the file's text; an error names the file and line.
pub fn parse(text: &str, path: &Path) -> anyhow::Result<ToolchainFile> {
    let mut f: ToolchainFile = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start].matches('\n').count() + 1)
            .unwrap_or(1);
        anyhow::anyhow!(
            "{}:{line}: {}\n  fix: correct the toolchain file (keys: rustc, rust_lib_src, bindgen, libclang_path), or run scripts/setup.sh again",
            path.display(),
            e.message()
        )
    })?;
    f.path = path.to_path_buf();
    Ok(f)
}

/// The file at [`location`], `None` when there is none.
pub fn load() -> anyhow::Result<Option<ToolchainFile>> {
    let Some(path) = location(|k| std::env::var(k).ok()) else {
        return Ok(None);
    };
    match std::fs::read_to_string(&path) {
        Ok(text) => parse(&text, &path).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(anyhow::anyhow!("{}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn location_order() {
        assert_eq!(
            location(env(&[("RKBUILD_TOOLCHAIN", "/t.toml"), ("HOME", "/h")])),
            Some(PathBuf::from("/t.toml"))
        );
        assert_eq!(
            location(env(&[("RKBUILD_TOOLCHAIN", ""), ("HOME", "/h")])),
            None
        );
        assert_eq!(
            location(env(&[("XDG_CONFIG_HOME", "/x"), ("HOME", "/h")])),
            Some(PathBuf::from("/x/rkbuild/toolchain.toml"))
        );
        assert_eq!(
            location(env(&[("HOME", "/h")])),
            Some(PathBuf::from("/h/.config/rkbuild/toolchain.toml"))
        );
        assert_eq!(location(env(&[])), None);
    }

    #[test]
    fn parse_and_errors() {
        let f = parse(
            "rustc = \"/usr/bin/rustc\"\nrust_lib_src = \"/usr/src/rustc-1.85.0/library\"\n",
            Path::new("t.toml"),
        )
        .unwrap();
        assert_eq!(f.rustc.as_deref(), Some("/usr/bin/rustc"));
        assert_eq!(f.bindgen, None);
        let e = parse("rustc = \"x\"\nbindgn = \"y\"\n", Path::new("t.toml")).unwrap_err();
        assert!(e.to_string().starts_with("t.toml:2: "), "{e}");
        assert!(e.to_string().contains("bindgn"), "{e}");
    }
}
