//! Parsing what the tools say about themselves. Pure functions over the tools' text, so every
//! format (Debian's "built from a source tarball", nightlies, rustup) is unit-tested.

use semver::Version;

/// `rustc -vV`, parsed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RustcInfo {
    /// `release:` without the channel suffix (`1.97.0-nightly` → 1.97.0), as the kernel counts it.
    pub version: Version,
    /// `stable`, `beta`, `nightly` or `dev`.
    pub channel: String,
    pub commit_hash: Option<String>,
    pub commit_date: Option<String>,
    pub host: String,
    pub llvm: Option<Version>,
    /// First line of `rustc --version` (the kernel's `RUSTC_VERSION_TEXT`).
    pub version_text: String,
}

impl RustcInfo {
    /// The kernel's numeric form: 100000*major + 100*minor + patch (1.85.0 → 108500).
    pub fn kernel_version(&self) -> u64 {
        kernel_number(&self.version)
    }

    /// `rustc_version_atleast(a, b, c)` as the kernel's generator writes it.
    pub fn at_least(&self, major: u64, minor: u64, patch: u64) -> bool {
        self.kernel_version() >= 100_000 * major + 100 * minor + patch
    }

    /// RUSTC_LLVM_VERSION: 10000*major + 100*minor + patch (22.1.2 → 220102).
    pub fn llvm_kernel_version(&self) -> Option<u64> {
        self.llvm
            .as_ref()
            .map(|v| 10_000 * v.major + 100 * v.minor + v.patch)
    }

    /// Builds the value from an explicit version (tests, `--rustc-version`).
    pub fn synthetic(version: &str) -> RustcInfo {
        let v = parse_version_word(version).expect("valid version");
        RustcInfo {
            version_text: format!("rustc {version}"),
            version: v,
            channel: "stable".into(),
            commit_hash: None,
            commit_date: None,
            host: "x86_64-unknown-linux-gnu".into(),
            llvm: None,
        }
    }
}

/// 100000*major + 100*minor + patch.
pub fn kernel_number(v: &Version) -> u64 {
    100_000 * v.major + 100 * v.minor + v.patch
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum VersionError {
    #[error(
        "`{tool}` printed no version in the expected form (`{expected}`); it printed:\n{output}\n  fix: name the real tool (RUSTC, BINDGEN, … or the matching option), not a wrapper that prints something else"
    )]
    Unrecognised {
        tool: String,
        expected: &'static str,
        output: String,
    },
}

/// Parses `x.y.z` with any `-suffix`/`+build` (nightly, beta, Debian's `+dfsg`) dropped, as the
/// kernel's `sed` does.
pub fn parse_version_word(word: &str) -> Option<Version> {
    let core: String = word
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let mut it = core.split('.');
    let (a, b, c) = (it.next()?, it.next()?, it.next()?);
    Some(Version::new(
        a.parse().ok()?,
        b.parse().ok()?,
        c.parse().ok()?,
    ))
}

/// Parses `rustc -vV` (or `clippy-driver -vV`, which prints the same block).
pub fn parse_rustc_vv(out: &str) -> Result<RustcInfo, VersionError> {
    let bad = || VersionError::Unrecognised {
        tool: "rustc -vV".into(),
        expected: "rustc X.Y.Z ... / release: X.Y.Z / host: ...",
        output: out.trim_end().to_string(),
    };
    let first = out.lines().next().ok_or_else(bad)?;
    let field = |k: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(k).map(|v| v.trim().to_string()))
    };
    let release = field("release:")
        .or_else(|| first.split_whitespace().nth(1).map(str::to_string))
        .ok_or_else(bad)?;
    let version = parse_version_word(&release).ok_or_else(bad)?;
    let channel = match release.split_once('-') {
        Some((_, ch)) if ch.starts_with("nightly") => "nightly",
        Some((_, ch)) if ch.starts_with("beta") => "beta",
        Some((_, ch)) if ch.starts_with("dev") => "dev",
        _ => "stable",
    }
    .to_string();
    Ok(RustcInfo {
        version,
        channel,
        commit_hash: field("commit-hash:").filter(|s| s != "unknown"),
        commit_date: field("commit-date:").filter(|s| s != "unknown"),
        host: field("host:").ok_or_else(bad)?,
        llvm: field("LLVM version:").and_then(|v| parse_version_word(&v)),
        version_text: first.trim().to_string(),
    })
}

/// Finds `<name> X.Y.Z` on the first line (`bindgen 0.71.1`, `rustdoc 1.95.0 (…)`,
/// `clippy 0.1.95 (…)`, `rustfmt 1.8.0-stable (…)`).
pub fn parse_tool_version(tool: &str, name: &str, out: &str) -> Result<Version, VersionError> {
    out.lines()
        .next()
        .and_then(|l| {
            let mut words = l.split_whitespace();
            while let Some(w) = words.next() {
                if w == name {
                    return words.next().and_then(parse_version_word);
                }
            }
            None
        })
        .ok_or_else(|| VersionError::Unrecognised {
            tool: tool.to_string(),
            expected: "NAME X.Y.Z on the first line",
            output: out.trim_end().to_string(),
        })
}

/// The libclang version from bindgen's run over a header holding
/// `#pragma message("clang version " __clang_version__)` (any line of its output).
pub fn parse_libclang_probe(out: &str) -> Option<Version> {
    out.lines().find_map(|l| {
        let idx = l.find("clang version ")?;
        parse_version_word(&l[idx + "clang version ".len()..])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEBIAN_185: &str = "rustc 1.85.0 (4d91de4e4 2025-02-17) (built from a source tarball)\n\
        binary: rustc\ncommit-hash: 4d91de4e48198da2e33413efdcd9cd2cc0c46688\ncommit-date: 2025-02-17\n\
        host: x86_64-unknown-linux-gnu\nrelease: 1.85.0\nLLVM version: 19.1.7\n";
    const NIGHTLY: &str = "rustc 1.97.0-nightly (e50aa6fba 2026-05-19)\nbinary: rustc\n\
        commit-hash: e50aa6fba\ncommit-date: 2026-05-19\nhost: x86_64-unknown-linux-gnu\n\
        release: 1.97.0-nightly\nLLVM version: 22.1.2\n";

    #[test]
    fn parses_debian_and_nightly() {
        let d = parse_rustc_vv(DEBIAN_185).unwrap();
        assert_eq!(d.kernel_version(), 108500);
        assert_eq!(d.channel, "stable");
        assert_eq!(d.llvm_kernel_version(), Some(190107));
        assert_eq!(
            d.version_text,
            "rustc 1.85.0 (4d91de4e4 2025-02-17) (built from a source tarball)"
        );
        let n = parse_rustc_vv(NIGHTLY).unwrap();
        assert_eq!(n.kernel_version(), 109700);
        assert_eq!(n.channel, "nightly");
        assert_eq!(n.llvm_kernel_version(), Some(220102));
        assert!(n.at_least(1, 97, 0) && !n.at_least(1, 97, 1));
    }

    #[test]
    fn kernel_numbers_leave_room_for_1_100() {
        assert_eq!(kernel_number(&Version::new(1, 100, 0)), 110000);
        assert_eq!(kernel_number(&Version::new(1, 85, 0)), 108500);
    }

    #[test]
    fn garbage_is_an_error_that_shows_the_output() {
        let e = parse_rustc_vv("hello\n").unwrap_err();
        assert!(e.to_string().contains("hello"));
        assert!(parse_rustc_vv("").is_err());
    }

    #[test]
    fn other_tools() {
        assert_eq!(
            parse_tool_version("bindgen", "bindgen", "bindgen 0.71.1\n").unwrap(),
            Version::new(0, 71, 1)
        );
        assert_eq!(
            parse_tool_version(
                "clippy-driver",
                "clippy",
                "clippy 0.1.95 (59807616e2 2026-04-14)"
            )
            .unwrap(),
            Version::new(0, 1, 95)
        );
        assert_eq!(
            parse_tool_version(
                "rustfmt",
                "rustfmt",
                "rustfmt 1.8.0-stable (59807616e2 2026-04-14)"
            )
            .unwrap(),
            Version::new(1, 8, 0)
        );
        assert!(parse_tool_version("bindgen", "bindgen", "error: no").is_err());
        assert_eq!(
            parse_libclang_probe("x.h:1:9: warning: clang version 14.0.6  [-W#pragma-messages]"),
            Some(Version::new(14, 0, 6))
        );
        assert_eq!(
            parse_libclang_probe("Debian clang version 19.1.7 (3~deb12u1)"),
            Some(Version::new(19, 1, 7))
        );
    }
}
