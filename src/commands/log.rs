//! `rkbuild log …`: reading the rustc wrapper's log (`RKBUILD_LOG`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;

use crate::analyzer;
use crate::output::{Message, Out};
use crate::wrapper::record;

#[derive(clap::Subcommand, Debug)]
pub enum LogCmd {
    /// Totals and the slowest crates of a log.
    Summary {
        file: PathBuf,
        /// How many of the slowest crates to list.
        #[arg(long, default_value_t = 10)]
        top: usize,
    },
    /// rust-project.json for exactly the crates the log compiled (what the analyzer's
    /// `--from-log FILE` does).
    Project {
        file: PathBuf,
        /// Where to write it (default: stdout).
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// The Rust library source, for `std`/`proc_macro` when the log built no `core`
        /// [env: RUST_LIB_SRC].
        #[arg(long, value_name = "DIR")]
        rust_lib_src: Option<PathBuf>,
    },
}

/// Totals of a log.
#[derive(Debug, Default, serde::Serialize)]
pub struct Summary {
    pub calls: usize,
    /// Calls that compiled a crate (not `--version`/`--print`/stdin probes).
    pub compiles: usize,
    pub failed: usize,
    pub clippy: usize,
    /// Sum of all compiler wall times, seconds.
    pub compiler_seconds: f64,
    /// From the first start to the last end, seconds.
    pub wall_seconds: f64,
    pub slowest: Vec<Slow>,
    pub bad_lines: Vec<String>,
}

#[derive(Debug, serde::Serialize)]
pub struct Slow {
    pub crate_name: String,
    pub crate_types: Vec<String>,
    pub seconds: f64,
    pub status: i32,
    pub output: Option<String>,
}

pub fn summarize(recs: &[record::Record], bad: &[record::BadLine], top: usize) -> Summary {
    let mut s = Summary {
        calls: recs.len(),
        bad_lines: bad.iter().map(|b| b.to_string()).collect(),
        ..Summary::default()
    };
    let mut first = u64::MAX;
    let mut last = 0f64;
    let mut compiles: Vec<&record::Record> = vec![];
    for r in recs {
        s.compiler_seconds += r.duration_ms / 1000.0;
        first = first.min(r.start_ms);
        last = last.max(r.start_ms as f64 + r.duration_ms);
        if r.status != 0 {
            s.failed += 1;
        }
        if r.driver == "clippy-driver" {
            s.clippy += 1;
        }
        if r.crate_name.is_some() {
            compiles.push(r);
        }
    }
    s.compiles = compiles.len();
    if !recs.is_empty() {
        s.wall_seconds = (last - first as f64) / 1000.0;
    }
    compiles.sort_by(|a, b| b.duration_ms.total_cmp(&a.duration_ms));
    s.slowest = compiles
        .iter()
        .take(top)
        .map(|r| Slow {
            crate_name: r.crate_name.clone().unwrap_or_default(),
            crate_types: r.crate_types.clone(),
            seconds: r.duration_ms / 1000.0,
            status: r.status,
            output: r.outputs.iter().find(|o| !o.ends_with(".d")).cloned(),
        })
        .collect();
    s
}

pub fn run(cmd: LogCmd, out: Out) -> anyhow::Result<ExitCode> {
    match cmd {
        LogCmd::Summary { file, top } => {
            let (recs, bad) = record::read_log(&file)?;
            let s = summarize(&recs, &bad, top);
            if out.json() {
                out.message(&serde_json::json!({"reason": "log-summary", "summary": s}));
                return Ok(ExitCode::SUCCESS);
            }
            for b in &s.bad_lines {
                out.say(Message::Warning {
                    text: &format!("{}: skipped {b}", file.display()),
                    at: None,
                });
            }
            println!(
                "{} rustc calls: {} compiles, {} failed, {} through clippy-driver",
                s.calls, s.compiles, s.failed, s.clippy
            );
            println!(
                "compiler time {:.2} s over {:.2} s wall (parallelism {:.2})",
                s.compiler_seconds,
                s.wall_seconds,
                if s.wall_seconds > 0.0 {
                    s.compiler_seconds / s.wall_seconds
                } else {
                    0.0
                }
            );
            if !s.slowest.is_empty() {
                println!("slowest crates:");
                for c in &s.slowest {
                    println!(
                        "  {:>8.2} s  {:<24} {:<10} {}{}",
                        c.seconds,
                        c.crate_name,
                        c.crate_types.join(","),
                        c.output.as_deref().unwrap_or(""),
                        if c.status != 0 {
                            format!("  (exit {})", c.status)
                        } else {
                            String::new()
                        }
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        LogCmd::Project {
            file,
            output,
            rust_lib_src,
        } => {
            project_from_log(&file, output.as_deref(), rust_lib_src, out)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// rust-project.json from a wrapper log (`rkbuild log project`, `rkbuild analyzer --from-log`),
/// to `output` or stdout. Unreadable log lines are named in warnings and skipped.
pub fn project_from_log(
    file: &Path,
    output: Option<&Path>,
    rust_lib_src: Option<PathBuf>,
    out: Out,
) -> anyhow::Result<()> {
    let lib = rust_lib_src.or_else(|| std::env::var_os("RUST_LIB_SRC").map(PathBuf::from));
    let r = analyzer::log::from_log(file, lib.as_deref())?;
    for w in &r.warnings {
        out.say(Message::Warning {
            text: &format!("{}: {w}", file.display()),
            at: None,
        });
    }
    let text = r.project.render();
    match output {
        Some(o) => write_out(o, &text),
        None => {
            println!("{text}");
            Ok(())
        }
    }
}

fn write_out(path: &Path, text: &str) -> anyhow::Result<()> {
    crate::fsutil::write_if_changed(path, text.as_bytes())
        .map(|_| ())
        .with_context(|| format!("cannot write `{}`", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(name: Option<&str>, start: u64, ms: f64, status: i32) -> record::Record {
        record::Record {
            v: record::FORMAT,
            argv: vec!["rustc".into()],
            driver: "rustc".into(),
            cwd: "/b".into(),
            env: Default::default(),
            crate_name: name.map(String::from),
            crate_types: vec!["rlib".into()],
            inputs: vec![],
            outputs: vec!["x/.a.o.d".into(), "x/a.o".into()],
            status,
            signal: None,
            duration_ms: ms,
            start_ms: start,
            pid: 1,
            cached: false,
        }
    }

    #[test]
    fn totals_and_slowest_first() {
        let recs = [
            rec(None, 1000, 50.0, 0),
            rec(Some("core"), 1000, 3000.0, 0),
            rec(Some("kernel"), 2000, 1500.0, 1),
        ];
        let s = summarize(&recs, &[], 1);
        assert_eq!((s.calls, s.compiles, s.failed), (3, 2, 1));
        assert!((s.compiler_seconds - 4.55).abs() < 1e-9);
        assert!((s.wall_seconds - 3.0).abs() < 1e-9);
        assert_eq!(s.slowest.len(), 1);
        assert_eq!(s.slowest[0].crate_name, "core");
        assert_eq!(s.slowest[0].output.as_deref(), Some("x/a.o"));
    }
}
