//! How rkbuild talks: Kbuild's quiet lines (`  RUSTC L rust/core.o`), full commands with `-v`
//! (Kbuild's `V=1`), or one JSON object per line with `--message-format json`.

use std::io::{IsTerminal as _, Write as _};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MessageFormat {
    #[default]
    Human,
    Json,
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

    /// A Kbuild-style status line: two spaces, the tag padded to 7, the subject.
    pub fn status(&self, tag: &str, subject: &str) {
        if !self.quiet && !self.json() {
            println!("{}", quiet_line(tag, subject));
        }
    }

    /// A full command (`-v`).
    pub fn command(&self, cmd: &str) {
        if self.verbose && !self.json() {
            println!("{cmd}");
        }
    }

    /// A machine message: one JSON object per line.
    pub fn message(&self, value: &serde_json::Value) {
        if self.json() {
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{value}");
        }
    }

    pub fn warn(&self, msg: &str) {
        if self.json() {
            self.message(&serde_json::json!({"reason": "warning", "message": msg}));
        } else {
            eprintln!("{}: {msg}", paint("warning", "33"));
        }
    }
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

/// Prints an error chain the way cargo does: the error, then each cause.
pub fn print_error(err: &anyhow::Error, format: MessageFormat) {
    if format == MessageFormat::Json {
        let chain: Vec<String> = err.chain().map(|e| e.to_string()).collect();
        println!(
            "{}",
            serde_json::json!({"reason": "error", "message": chain.join(": "), "chain": chain})
        );
        return;
    }
    eprintln!("{}: {err}", paint("error", "31"));
    for cause in err.chain().skip(1) {
        eprintln!("  caused by: {cause}");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn quiet_lines_look_like_kbuild() {
        assert_eq!(
            super::quiet_line("RUSTC L", "rust/core.o"),
            "  RUSTC L rust/core.o"
        );
        assert_eq!(super::quiet_line("UPD", "x"), "  UPD     x");
        assert_eq!(
            super::quiet_line("BINDGEN", "rust/bindings_generated.rs"),
            "  BINDGEN rust/bindings_generated.rs"
        );
    }
}
