//! The call log: one JSON object per line, appended by every wrapped rustc call.
//!
//! Many `make -j` jobs append to the same file at once. Each line goes out in ONE `write(2)` on
//! a file opened with `O_APPEND`: Linux takes the inode lock for the whole write on local
//! filesystems, so lines never interleave and none is lost (NFS gives no such promise: keep
//! the log on a local disk).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// The log format version, bumped on incompatible changes.
pub const FORMAT: u32 = 1;

/// Environment variables that change what rustc or the kernel's crates do, recorded when set.
pub const RECORDED_ENV: &[&str] = &[
    "RUST_MODFILE",
    "OBJTREE",
    "RUSTC_BOOTSTRAP",
    "KBUILD_CLIPPY",
    "CLIPPY",
    "RKBUILD_CLIPPY",
    "RUSTFLAGS",
    "RUST_LIB_SRC",
];

/// One rustc call.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// Log format version.
    pub v: u32,
    /// The program that really ran (rustc or clippy-driver) and the arguments, unchanged.
    pub argv: Vec<String>,
    /// `rustc` or `clippy-driver`.
    pub driver: String,
    pub cwd: String,
    /// The variables of [`RECORDED_ENV`] that were set.
    pub env: BTreeMap<String, String>,
    pub crate_name: Option<String>,
    pub crate_types: Vec<String>,
    /// The crate root, `--extern` files and `@argfile`s, as spelled on the command line.
    pub inputs: Vec<String>,
    /// `--emit` files, `-o`, else `--out-dir`.
    pub outputs: Vec<String>,
    /// Exit code; death by signal N is 128+N, as a shell reports it.
    pub status: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// Wall time of the compiler, in milliseconds.
    pub duration_ms: f64,
    /// Start time, milliseconds since the Unix epoch.
    pub start_ms: u64,
    pub pid: u32,
    /// The outputs came from the step cache: the compiler did not run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
}

impl Record {
    /// Working-folder-relative paths made absolute (for reading a log from elsewhere).
    pub fn abs(&self, p: &str) -> std::path::PathBuf {
        Path::new(&self.cwd).join(p)
    }
}

/// An open log, ready for appending.
pub struct LogFile(std::fs::File);

impl LogFile {
    pub fn open(path: &Path) -> std::io::Result<LogFile> {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map(LogFile)
    }

    /// Appends the record as one line with a single `write(2)`.
    pub fn append(&mut self, rec: &Record) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(rec).map_err(std::io::Error::other)?;
        line.push(b'\n');
        let n = self.0.write(&line)?;
        if n != line.len() {
            // A short write to a regular file means a full disk or a signal: finish it, the
            // line may then interleave, which readers report and skip.
            self.0.write_all(&line[n..])?;
        }
        Ok(())
    }
}

/// A log line that could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct BadLine {
    pub line: usize,
    pub error: String,
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

/// Reads every record of a log; lines that do not parse are returned apart, by line number.
pub fn read_log(path: &Path) -> anyhow::Result<(Vec<Record>, Vec<BadLine>)> {
    use anyhow::Context as _;
    let text = std::fs::read(path)
        .with_context(|| format!("cannot read the rustc log `{}`", path.display()))?;
    Ok(parse_log(&String::from_utf8_lossy(&text)))
}

pub fn parse_log(text: &str) -> (Vec<Record>, Vec<BadLine>) {
    let mut recs = vec![];
    let mut bad = vec![];
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Record>(l) {
            Ok(r) => recs.push(r),
            Err(e) => bad.push(BadLine {
                line: i + 1,
                error: e.to_string(),
            }),
        }
    }
    (recs, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_numbered_and_skipped() {
        let good = r#"{"v":1,"argv":["rustc","-V"],"driver":"rustc","cwd":"/","env":{},"crate_name":null,"crate_types":[],"inputs":[],"outputs":[],"status":0,"duration_ms":1.0,"start_ms":0,"pid":1}"#;
        let text = format!("{good}\n\n{{\"v\":1,\"argv\n{good}\n");
        let (recs, bad) = parse_log(&text);
        assert_eq!(recs.len(), 2);
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].line, 3);
    }

    #[test]
    fn append_writes_whole_lines() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("l");
        let (recs, _) = parse_log(
            r#"{"v":1,"argv":["rustc"],"driver":"rustc","cwd":"/","env":{},"crate_name":"a","crate_types":[],"inputs":[],"outputs":[],"status":0,"duration_ms":1.0,"start_ms":0,"pid":1}"#,
        );
        for _ in 0..3 {
            LogFile::open(&p).unwrap().append(&recs[0]).unwrap();
        }
        let (back, bad) = read_log(&p).unwrap();
        assert!(bad.is_empty());
        assert_eq!(back, vec![recs[0].clone(); 3]);
    }
}
