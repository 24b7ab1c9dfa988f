//! How rkbuild talks: Kbuild's quiet lines (`  RUSTC L rust/core.o`), full commands with `-v`
//! (Kbuild's `V=1`), or one JSON object per line with `--message-format json`.
//!
//! Callers say what happened as a [`Message`] (a step started, built, failed or was fresh, a
//! status line, a warning, an error); this module alone decides how each looks in either form.
//! Out of scope: the human form of a command's report (`rkbuild doctor`'s table, the plan), which
//! its command prints; in JSON a report is one object ([`Out::message`]).

use std::io::{IsTerminal as _, Write as _};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MessageFormat {
    #[default]
    Human,
    Json,
}

/// The fix for a write that failed because the disk is full or read-only, from the OS's
/// message (`No space left on device (os error 28)`, `Read-only file system (os error 30)`).
pub fn storage_fix(text: &str) -> Option<&'static str> {
    if text.contains("No space left on device") || text.contains("os error 28") {
        Some("the disk is full: free space on the object tree's file system and run rkbuild again (what was built is kept; nothing half-written is taken as up to date)")
    } else if text.contains("Read-only file system") || text.contains("os error 30") {
        Some("the object tree's file system is mounted read-only: remount it read-write, or pass another folder as -O")
    } else {
        None
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Out {
    pub verbose: bool,
    pub quiet: bool,
    pub format: MessageFormat,
}

impl Out {
    pub fn json(&self) -> bool {
        self.format == MessageFormat::Json
    }

    /// Tells `m`, in Kbuild's words or as one JSON object per line.
    pub fn say(&self, m: Message) {
        if self.json() {
            if let Some(v) = m.json() {
                self.message(&v);
            }
        } else {
            let (stdout, stderr) = m.human(self);
            if !stdout.is_empty() {
                let _ = std::io::stdout().lock().write_all(stdout.as_bytes());
            }
            if !stderr.is_empty() {
                let _ = std::io::stderr().lock().write_all(stderr.as_bytes());
            }
        }
    }

    /// A command's report as a machine message (`--message-format json` only; the human form
    /// of a report is the command's own).
    pub fn message(&self, value: &serde_json::Value) {
        if self.json() {
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{value}");
        }
    }
}

/// A step of a build as messages name it.
#[derive(Clone, Copy, Debug)]
pub struct StepRef<'a> {
    /// `rust/core.o`.
    pub id: &'a str,
    /// Kbuild's quiet tag: `RUSTC L`, `BINDGEN`.
    pub tag: &'a str,
    /// The command, as `-v` shows it.
    pub command: Option<&'a str>,
}

/// What rkbuild tells as it works. Each message has one human form, in Kbuild's words and
/// shapes (quiet lines on stdout, tool output and problems on stderr), and one JSON form; both
/// are written here, so a caller says what happened, never how it looks.
#[derive(Clone, Debug)]
pub enum Message<'a> {
    /// A step begins: its quiet line (`  RUSTC L rust/core.o`) and, with `-v`, its command.
    Started { step: StepRef<'a> },
    /// A step ran; `output` is what its tools printed, passed on as is.
    Built {
        step: StepRef<'a>,
        why: &'a str,
        duration_ms: u64,
        output: &'a str,
    },
    /// A step failed; `error` says how (the tools' output and the cause).
    Failed {
        step: StepRef<'a>,
        why: &'a str,
        duration_ms: u64,
        error: &'a str,
    },
    /// A step already up to date: nothing to say to a person (Kbuild says nothing either).
    Fresh { id: &'a str, tag: &'a str },
    /// A step whose outputs came from the cache: `  CACHED  rust/core.o`, then what its tools
    /// printed when it ran.
    Cached {
        id: &'a str,
        tag: &'a str,
        why: &'a str,
        output: &'a str,
    },
    /// The build is over.
    Finished {
        built: usize,
        fresh: usize,
        cached: usize,
        wall_ms: u64,
        sum_ms: u64,
        critical_path_ms: u64,
    },
    /// A Kbuild-style status line: `  UPD     include/generated/rustc_cfg`, `GEN`, `SKIP`.
    Status { tag: &'a str, subject: &'a str },
    /// Something worth a look that does not stop the work; `at` is the `file:line` it is about.
    Warning { text: &'a str, at: Option<&'a str> },
    /// What stopped the work: the error, then each cause; `at` is the `file:line` it is about.
    Error {
        chain: Vec<String>,
        at: Option<&'a str>,
    },
}

impl Message<'_> {
    /// An error and its causes, the way cargo prints them.
    pub fn error(err: &anyhow::Error) -> Message<'static> {
        let mut chain: Vec<String> = err.chain().map(|e| e.to_string()).collect();
        // A full or read-only disk says so in the OS's words; the fix is the person's.
        if !chain.iter().any(|c| c.contains("fix:")) {
            if let Some(fix) = chain.iter().find_map(|c| storage_fix(c)) {
                if let Some(last) = chain.last_mut() {
                    last.push_str(&format!("\n  fix: {fix}"));
                }
            }
        }
        Message::Error { chain, at: None }
    }

    /// The human form: text for stdout and text for stderr, each line ending in `\n`.
    fn human(&self, out: &Out) -> (String, String) {
        let (mut stdout, mut stderr) = (String::new(), String::new());
        match self {
            Message::Started { step } => {
                if !out.quiet {
                    stdout += &format!("{}\n", quiet_line(step.tag, step.id));
                }
                if let Some(c) = step.command.filter(|_| out.verbose) {
                    stdout += &format!("{c}\n");
                }
            }
            Message::Built { output, .. } => {
                if !output.trim().is_empty() {
                    stderr += output;
                    if !output.ends_with('\n') {
                        stderr.push('\n');
                    }
                }
            }
            Message::Failed { step, error, .. } => {
                // With `-v` the command was printed when the step began.
                let command = step
                    .command
                    .filter(|_| !out.verbose)
                    .map(|c| format!("; the command was:\n  {c}"))
                    .unwrap_or_default();
                stderr += &format!(
                    "{error}\n{}: `{}` failed{command}\n",
                    paint("error", "31"),
                    step.id
                );
            }
            Message::Fresh { .. } => {}
            Message::Cached { id, output, .. } => {
                if !out.quiet {
                    stdout += &format!("{}\n", quiet_line("CACHED", id));
                }
                if !output.trim().is_empty() {
                    stderr += output;
                    if !output.ends_with('\n') {
                        stderr.push('\n');
                    }
                }
            }
            Message::Finished {
                built,
                fresh,
                cached,
                ..
            } => {
                if *built == 0 && *cached == 0 && !out.quiet {
                    stdout += &format!("  nothing to do ({fresh} steps up to date)\n");
                } else if *cached > 0 && !out.quiet {
                    stdout += &format!(
                        "  {cached} steps from the cache, {built} built, {fresh} up to date\n"
                    );
                }
            }
            Message::Status { tag, subject } => {
                if !out.quiet {
                    stdout += &format!("{}\n", quiet_line(tag, subject));
                }
            }
            Message::Warning { text, at } => {
                stderr += &format!("{}: {}{text}\n", paint("warning", "33"), prefix(*at));
            }
            Message::Error { chain, at } => {
                let first = chain.first().map(String::as_str).unwrap_or_default();
                stderr += &format!("{}: {}{first}\n", paint("error", "31"), prefix(*at));
                for cause in chain.iter().skip(1) {
                    stderr += &format!("  caused by: {cause}\n");
                }
            }
        }
        (stdout, stderr)
    }

    fn json(&self) -> Option<serde_json::Value> {
        use serde_json::json;
        Some(match self {
            Message::Started { .. } => return None,
            Message::Built {
                step,
                why,
                duration_ms,
                output,
            } => json!({
                "reason": "step", "id": step.id, "tag": step.tag, "status": "built",
                "why": why, "duration_ms": duration_ms, "command": step.command,
                "output": output,
            }),
            Message::Failed {
                step,
                why,
                duration_ms,
                error,
            } => json!({
                "reason": "step", "id": step.id, "tag": step.tag, "status": "failed",
                "why": why, "duration_ms": duration_ms, "command": step.command,
                "output": error,
            }),
            Message::Fresh { id, tag } => json!({
                "reason": "step", "id": id, "tag": tag, "status": "fresh",
            }),
            Message::Cached {
                id,
                tag,
                why,
                output,
            } => json!({
                "reason": "step", "id": id, "tag": tag, "status": "cached", "why": why,
                "output": output,
            }),
            Message::Finished {
                built,
                fresh,
                cached,
                wall_ms,
                sum_ms,
                critical_path_ms,
            } => json!({
                "reason": "build-finished", "built": built, "fresh": fresh, "cached": cached,
                "wall_ms": wall_ms, "sum_ms": sum_ms, "critical_path_ms": critical_path_ms,
            }),
            Message::Status { .. } => return None,
            Message::Warning { text, at } => {
                let mut v = json!({"reason": "warning", "message": text});
                if let Some(at) = at {
                    v["at"] = json!(at);
                }
                v
            }
            Message::Error { chain, at } => {
                let mut v = json!({"reason": "error", "message": chain.join(": "), "chain": chain});
                if let Some(at) = at {
                    v["at"] = json!(at);
                }
                v
            }
        })
    }
}

/// `file:line: ` before a message that is about a line.
fn prefix(at: Option<&str>) -> String {
    at.map(|a| format!("{a}: ")).unwrap_or_default()
}

/// `  TAG     subject`, as Kbuild prints quiet commands.
pub fn quiet_line(tag: &str, subject: &str) -> String {
    format!("  {tag:<7} {subject}")
}

/// Colours a word for a terminal, never for a pipe or with NO_COLOR.
pub fn paint(word: &str, code: &str) -> String {
    if std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal() {
        format!("\x1b[1;{code}m{word}\x1b[0m")
    } else {
        word.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STEP: StepRef = StepRef {
        id: "rust/core.o",
        tag: "RUSTC L",
        command: Some("rustc --edition=2021 core.rs"),
    };

    fn human(m: Message, verbose: bool, quiet: bool) -> (String, String) {
        let out = Out {
            verbose,
            quiet,
            format: MessageFormat::Human,
        };
        m.human(&out)
    }

    #[test]
    fn steps_in_kbuild_words() {
        let started = || Message::Started { step: STEP };
        assert_eq!(
            human(started(), false, false),
            ("  RUSTC L rust/core.o\n".into(), String::new())
        );
        assert_eq!(
            human(started(), true, false).0,
            "  RUSTC L rust/core.o\nrustc --edition=2021 core.rs\n"
        );
        assert_eq!(human(started(), false, true).0, "");
        let built = |output| Message::Built {
            step: STEP,
            why: "new",
            duration_ms: 3,
            output,
        };
        assert_eq!(human(built("warning: x"), false, false).1, "warning: x\n");
        assert_eq!(human(built(" \n"), false, false).1, "");
        let failed = Message::Failed {
            step: STEP,
            why: "new",
            duration_ms: 3,
            error: "rustc said no",
        };
        assert_eq!(
            human(failed.clone(), false, false).1,
            "rustc said no\nerror: `rust/core.o` failed; the command was:\n  rustc --edition=2021 core.rs\n"
        );
        assert_eq!(
            human(failed, true, false).1,
            "rustc said no\nerror: `rust/core.o` failed\n"
        );
    }

    #[test]
    fn json_forms_name_their_reason() {
        let built = Message::Built {
            step: STEP,
            why: "new",
            duration_ms: 3,
            output: "",
        };
        assert_eq!(
            built.json().unwrap().to_string(),
            r#"{"reason":"step","id":"rust/core.o","tag":"RUSTC L","status":"built","why":"new","duration_ms":3,"command":"rustc --edition=2021 core.rs","output":""}"#
        );
        let fresh = Message::Fresh {
            id: "rust/core.o",
            tag: "RUSTC L",
        };
        assert_eq!(fresh.json().unwrap()["status"], "fresh");
        assert_eq!(human(fresh, true, false), (String::new(), String::new()));
        assert!(Message::Status {
            tag: "UPD",
            subject: "x"
        }
        .json()
        .is_none());
        let warning = Message::Warning {
            text: "odd",
            at: Some("Makefile:3"),
        };
        assert_eq!(
            warning.json().unwrap().to_string(),
            r#"{"reason":"warning","message":"odd","at":"Makefile:3"}"#
        );
        let err = Message::error(&anyhow::anyhow!("inner").context("outer"));
        assert_eq!(
            err.json().unwrap().to_string(),
            r#"{"reason":"error","message":"outer: inner","chain":["outer","inner"]}"#
        );
    }

    #[test]
    fn quiet_lines_look_like_kbuild() {
        assert_eq!(
            quiet_line("RUSTC L", "rust/core.o"),
            "  RUSTC L rust/core.o"
        );
        assert_eq!(quiet_line("UPD", "x"), "  UPD     x");
        assert_eq!(
            quiet_line("BINDGEN", "rust/bindings_generated.rs"),
            "  BINDGEN rust/bindings_generated.rs"
        );
    }
}
