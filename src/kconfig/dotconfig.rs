//! Reader for `.config` and `include/config/auto.conf`.
//!
//! The kernel's own `scripts/kconfig/confdata.c` (`conf_read_simple`) is the reference: a line is
//! blank, a comment, `# CONFIG_X is not set`, or `CONFIG_X=value`. Where the C reader warns and goes
//! on (unexpected data, a value invalid for every type, an unterminated string) we stop with an
//! error naming `file:line`, so nothing the kernel would reject is accepted silently. Where the C
//! reader accepts something odd (`yes` read by its first letter, text after a closing quote, a
//! symbol assigned twice) we accept it too and say so in a warning.
//!
//! Without the tree's Kconfig the reader cannot know a symbol's type, so values are kept in the
//! shape they were written in ([`Value`]); the Kconfig layer types them when a Kconfig is present.

use std::fmt;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;

/// Which of the two on-disk formats a file is in. They differ only in strings: `.config` quotes
/// and escapes them, `auto.conf` writes them raw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    DotConfig,
    AutoConf,
}

impl Format {
    /// `auto.conf` by file name, else `.config`.
    pub fn guess(path: &Path) -> Format {
        if path.file_name().is_some_and(|n| n == "auto.conf") {
            Format::AutoConf
        } else {
            Format::DotConfig
        }
    }
}

/// A symbol's value as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `y`, `m` or `n` (`# CONFIG_X is not set` is `n`).
    Tristate(Tristate),
    /// An unquoted value that is not a tristate: a decimal or hex number (`.config`), or any raw
    /// text (`auto.conf`). Kept verbatim.
    Bare(String),
    /// A quoted string from `.config`, unescaped.
    Quoted(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tristate {
    No,
    Module,
    Yes,
}

impl Tristate {
    pub fn as_char(self) -> char {
        match self {
            Tristate::No => 'n',
            Tristate::Module => 'm',
            Tristate::Yes => 'y',
        }
    }
}

impl Value {
    /// The value as text, the way `auto.conf` would print it.
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Value::Tristate(t) => t.as_char().to_string().into(),
            Value::Bare(s) | Value::Quoted(s) => s.as_str().into(),
        }
    }

    pub fn tristate(&self) -> Option<Tristate> {
        match self {
            Value::Tristate(t) => Some(*t),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Quoted(s) => write!(f, "\"{}\"", escape(s)),
            other => f.write_str(&other.text()),
        }
    }
}

/// One assignment: the value and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: Value,
    /// 1-based line number in [`DotConfig::path`].
    pub line: usize,
}

/// Something the reader accepted but wants the user to know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub line: usize,
    pub message: String,
}

/// A malformed line: where, what was there, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}: {message}\n    {text}\n  expected: {expected}", path.display())]
pub struct ParseError {
    pub path: PathBuf,
    pub line: usize,
    pub text: String,
    pub message: String,
    pub expected: &'static str,
}

/// A parsed configuration, in file order (a reassigned symbol keeps its first position, as the
/// kernel's symbol table does, but takes the later value).
#[derive(Clone, Debug, Default)]
pub struct DotConfig {
    pub path: PathBuf,
    /// (Fx hashing: a no-op build looks up ~13,000 values, and SipHash was a tenth of it.)
    pub entries: IndexMap<String, Entry, rustc_hash::FxBuildHasher>,
    pub warnings: Vec<Warning>,
}

const PREFIX: &str = "CONFIG_";
const EXPECT_LINE: &str =
    "`CONFIG_NAME=value`, `# CONFIG_NAME is not set`, a `#` comment, or a blank line";
const EXPECT_VALUE: &str =
    "y, m, n, a decimal or hex number, or a string in double quotes (\"...\")";

impl DotConfig {
    /// Reads and parses a file; the format is guessed from its name.
    pub fn load(path: &Path) -> anyhow::Result<DotConfig> {
        use anyhow::Context as _;
        let bytes = std::fs::read(path).with_context(|| {
            format!(
                "cannot read the kernel configuration `{}` (run `make defconfig` or pass --config)",
                path.display()
            )
        })?;
        // rustc reads its argument files (rustc_cfg) as UTF-8: a value that is not cannot
        // reach it unchanged, so it is refused where it is; a comment may hold anything.
        let lines = match std::str::from_utf8(&bytes) {
            Ok(_) => None,
            Err(_) => Some(bytes.split(|&b| b == b'\n')),
        };
        for (idx, line) in lines.into_iter().flatten().enumerate() {
            if std::str::from_utf8(line).is_err() && !line.starts_with(b"#") {
                return Err(ParseError {
                    path: path.to_path_buf(),
                    line: idx + 1,
                    text: String::from_utf8_lossy(line).into_owned(),
                    message: "the line is not UTF-8 text".into(),
                    expected: "UTF-8 text: rustc reads rustc_cfg as UTF-8, so no kernel build can pass this value on unchanged",
                }
                .into());
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        Ok(DotConfig::parse(path, &text, Format::guess(path))?)
    }

    /// Parses `text` as read from `path` (the path is only used in messages).
    pub fn parse(path: &Path, text: &str, format: Format) -> Result<DotConfig, ParseError> {
        let mut cfg = DotConfig {
            path: path.to_path_buf(),
            ..DotConfig::default()
        };
        for (idx, raw) in text.split_inclusive('\n').enumerate() {
            let line_no = idx + 1;
            // As getline_stripped: one trailing `\n`, then one `\r`; other white space is data.
            let line = raw.strip_suffix('\n').unwrap_or(raw);
            let line = line.strip_suffix('\r').unwrap_or(line);
            let err = |message: String, expected: &'static str| ParseError {
                path: path.to_path_buf(),
                line: line_no,
                text: line.to_string(),
                message,
                expected,
            };
            if line.is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix('#') {
                // `# CONFIG_X is not set`, exactly; any other `#` line is a comment.
                if let Some(name) = rest
                    .strip_prefix(' ')
                    .and_then(|r| r.strip_prefix(PREFIX))
                    .and_then(|r| r.strip_suffix(" is not set"))
                {
                    if is_symbol_name(name) {
                        cfg.assign(name, Value::Tristate(Tristate::No), line_no);
                    }
                }
                continue;
            }
            let Some(assign) = line.strip_prefix(PREFIX) else {
                return Err(err("unexpected data".into(), EXPECT_LINE));
            };
            let Some((name, value)) = assign.split_once('=') else {
                return Err(err(
                    format!("no `=` after the symbol name `{PREFIX}{assign}`"),
                    EXPECT_LINE,
                ));
            };
            if !is_symbol_name(name) {
                return Err(err(
                    format!("`{PREFIX}{name}` is not a symbol name"),
                    "a name of letters, digits and `_` directly before `=`",
                ));
            }
            let value = match parse_value(value, format) {
                Ok((value, note)) => {
                    if let Some(note) = note {
                        cfg.warnings.push(Warning {
                            line: line_no,
                            message: format!("{PREFIX}{name}: {note}"),
                        });
                    }
                    value
                }
                Err(message) => return Err(err(message, EXPECT_VALUE)),
            };
            cfg.assign(name, value, line_no);
        }
        Ok(cfg)
    }

    fn assign(&mut self, name: &str, value: Value, line: usize) {
        let entry = Entry { value, line };
        if let Some(old) = self.entries.get_mut(name) {
            self.warnings.push(Warning {
                line,
                message: format!(
                    "override: {PREFIX}{name} reassigned (line {} set `{}`, line {line} sets `{}`; the later one wins)",
                    old.line, old.value, entry.value
                ),
            });
            *old = entry;
        } else {
            self.entries.insert(name.to_string(), entry);
        }
    }

    /// The value of `name` (without the `CONFIG_` prefix).
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.entries.get(name).map(|e| &e.value)
    }

    /// `y` or `m`: the symbol is enabled (Kbuild's `ifdef CONFIG_X`).
    pub fn enabled(&self, name: &str) -> bool {
        matches!(
            self.get(name),
            Some(Value::Tristate(Tristate::Yes | Tristate::Module))
        )
    }

    pub fn is_y(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Value::Tristate(Tristate::Yes)))
    }

    /// Whether the symbol is present with any value other than `n` (the target generator's
    /// `has()`, which also counts strings and numbers).
    pub fn has(&self, name: &str) -> bool {
        !matches!(self.get(name), None | Some(Value::Tristate(Tristate::No)))
    }

    /// The symbol's text, if set and not `n`.
    pub fn text(&self, name: &str) -> Option<String> {
        match self.get(name)? {
            Value::Tristate(Tristate::No) => None,
            v => Some(v.text().into_owned()),
        }
    }

    /// An int symbol's value.
    pub fn int(&self, name: &str) -> Option<i64> {
        self.text(name)?.parse().ok()
    }

    /// `file:line` of a symbol's assignment, for explanations.
    pub fn origin(&self, name: &str) -> Option<String> {
        self.entries
            .get(name)
            .map(|e| format!("{}:{}", self.path.display(), e.line))
    }

    /// Renders in `.config` syntax (strings quoted); used by round-trip tests and `--explain`.
    pub fn to_dotconfig(&self) -> String {
        let mut out = String::new();
        for (name, e) in &self.entries {
            match &e.value {
                Value::Tristate(Tristate::No) => {
                    out.push_str(&format!("# {PREFIX}{name} is not set\n"))
                }
                v => out.push_str(&format!("{PREFIX}{name}={v}\n")),
            }
        }
        out
    }
}

/// Kconfig symbol names: letters, digits, `_` (the lexer also allows lower case).
pub fn is_symbol_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Escapes a string value the way `.config` and rustc_cfg do: a backslash before `"` and `\`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Parses the text after `=`. Returns the value and, where the kernel accepts something unusual,
/// a note for a warning.
fn parse_value(v: &str, format: Format) -> Result<(Value, Option<String>), String> {
    if let Some(body) = v.strip_prefix('"') {
        if format == Format::AutoConf {
            // auto.conf strings are raw: a leading quote is part of the value.
            return Ok((Value::Bare(v.to_string()), None));
        }
        let mut out = String::new();
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, e)) => out.push(e),
                    None => break,
                },
                '"' => {
                    let rest = &body[i + 1..];
                    let note = (!rest.is_empty())
                        .then(|| format!("text after the closing quote ignored: `{rest}`"));
                    return Ok((Value::Quoted(out), note));
                }
                c => out.push(c),
            }
        }
        return Err("unterminated string: no closing `\"`".into());
    }
    if format == Format::AutoConf {
        return Ok((
            match v {
                "y" => Value::Tristate(Tristate::Yes),
                "m" => Value::Tristate(Tristate::Module),
                _ => Value::Bare(v.to_string()),
            },
            None,
        ));
    }
    if v.is_empty() {
        return Err("empty value".into());
    }
    if is_number(v) {
        return Ok((Value::Bare(v.to_string()), None));
    }
    // Bool/tristate: conf reads the first letter only.
    let tri = match v.as_bytes()[0] {
        b'y' => Some(Tristate::Yes),
        b'm' => Some(Tristate::Module),
        b'n' => Some(Tristate::No),
        _ => None,
    };
    match tri {
        Some(t) if v.len() == 1 => Ok((Value::Tristate(t), None)),
        Some(t) => Ok((
            Value::Tristate(t),
            Some(format!(
                "`{v}` read as `{}` (kconfig reads the first letter)",
                t.as_char()
            )),
        )),
        None if v != v.trim_end() && is_number(v.trim_end()) => Err(format!(
            "trailing white space after the number `{}`",
            v.trim_end()
        )),
        None => Err(format!("`{v}` is not a valid value")),
    }
}

/// Decimal (optionally negative) or hex with or without `0x`/`0X` (a bare hex value such as `ff`
/// is valid for a hex symbol).
fn is_number(v: &str) -> bool {
    let dec = v.strip_prefix('-').unwrap_or(v);
    if !dec.is_empty() && dec.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    let hex = v
        .strip_prefix("0x")
        .or_else(|| v.strip_prefix("0X"))
        .unwrap_or(v);
    !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<DotConfig, ParseError> {
        DotConfig::parse(Path::new(".config"), text, Format::DotConfig)
    }

    #[test]
    fn reads_every_value_shape() {
        let c = parse(
            "#\n# comment\n\nCONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D=-12\n\
             CONFIG_E=0x1000\nCONFIG_F=0X1F\nCONFIG_G=ff\nCONFIG_H=\"a\\\"b\\\\c\"\nCONFIG_I=\"\"\nCONFIG_J=n\n",
        )
        .unwrap();
        assert_eq!(c.get("A"), Some(&Value::Tristate(Tristate::Yes)));
        assert_eq!(c.get("B"), Some(&Value::Tristate(Tristate::Module)));
        assert_eq!(c.get("C"), Some(&Value::Tristate(Tristate::No)));
        assert_eq!(c.get("D"), Some(&Value::Bare("-12".into())));
        assert_eq!(c.get("E"), Some(&Value::Bare("0x1000".into())));
        assert_eq!(c.get("F"), Some(&Value::Bare("0X1F".into())));
        assert_eq!(c.get("G"), Some(&Value::Bare("ff".into())));
        assert_eq!(c.get("H"), Some(&Value::Quoted("a\"b\\c".into())));
        assert_eq!(c.get("I"), Some(&Value::Quoted(String::new())));
        assert_eq!(c.get("J"), Some(&Value::Tristate(Tristate::No)));
        assert!(c.warnings.is_empty());
        assert_eq!(c.int("D"), Some(-12));
        assert!(c.enabled("B") && !c.is_y("B") && !c.enabled("C"));
    }

    #[test]
    fn later_assignment_wins_with_a_warning_naming_both_lines() {
        let c = parse("CONFIG_A=y\nCONFIG_X=1\nCONFIG_A=n\n").unwrap();
        assert_eq!(c.get("A"), Some(&Value::Tristate(Tristate::No)));
        assert_eq!(c.entries.get_index_of("A"), Some(0));
        assert_eq!(c.warnings.len(), 1);
        let w = &c.warnings[0];
        assert_eq!(w.line, 3);
        assert!(
            w.message.contains("line 1") && w.message.contains("line 3"),
            "{w:?}"
        );
    }

    #[test]
    fn malformed_lines_name_file_line_text_and_expectation() {
        for (text, line, what) in [
            ("CONFIG_A=y\ngarbage line\n", 2, "unexpected data"),
            ("CONFIG_NOEQ\n", 1, "no `=`"),
            (" CONFIG_B=y\n", 1, "unexpected data"),
            ("CONFIG_B =y\n", 1, "not a symbol name"),
            ("CONFIG_S=\"unterminated\n", 1, "unterminated"),
            ("CONFIG_N=\n", 1, "empty value"),
            ("CONFIG_N=5 \n", 1, "trailing white space"),
            ("CONFIG_S=unquoted\n", 1, "not a valid value"),
            ("CONFIG_H=0xZZ\n", 1, "not a valid value"),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}");
            let msg = e.to_string();
            assert!(msg.starts_with(&format!(".config:{line}: ")), "{msg}");
            assert!(msg.contains(what), "{text:?} → {msg}");
            assert!(msg.contains("expected:"), "{msg}");
            assert!(msg.contains(text.lines().nth(line - 1).unwrap()), "{msg}");
        }
    }

    #[test]
    fn accepts_what_conf_accepts_with_a_note() {
        let c = parse("CONFIG_B=yes\nCONFIG_S=\"a\" junk\nCONFIG_T=m\r\nCONFIG_U=y \n").unwrap();
        assert_eq!(c.get("B"), Some(&Value::Tristate(Tristate::Yes)));
        assert_eq!(c.get("S"), Some(&Value::Quoted("a".into())));
        assert_eq!(c.get("T"), Some(&Value::Tristate(Tristate::Module)));
        assert_eq!(c.get("U"), Some(&Value::Tristate(Tristate::Yes)));
        assert_eq!(c.warnings.len(), 3, "{:?}", c.warnings);
    }

    #[test]
    fn not_set_needs_the_exact_form() {
        // Trailing spaces make it a plain comment, as in conf.
        let c = parse("CONFIG_B=y\n# CONFIG_B is not set  \n").unwrap();
        assert_eq!(c.get("B"), Some(&Value::Tristate(Tristate::Yes)));
    }

    #[test]
    fn auto_conf_strings_are_raw() {
        let c = DotConfig::parse(
            Path::new("auto.conf"),
            "CONFIG_LOCALVERSION=\nCONFIG_T=rustc 1.85.0 (x) \"q\"\nCONFIG_Y=y\n",
            Format::AutoConf,
        )
        .unwrap();
        assert_eq!(c.get("LOCALVERSION"), Some(&Value::Bare(String::new())));
        assert_eq!(
            c.get("T"),
            Some(&Value::Bare("rustc 1.85.0 (x) \"q\"".into()))
        );
        assert!(c.is_y("Y"));
    }

    #[test]
    fn round_trips_through_dotconfig_syntax() {
        let text = "CONFIG_A=y\n# CONFIG_C is not set\nCONFIG_H=\"a\\\"b\\\\c\"\nCONFIG_E=0x10\n";
        let c = parse(text).unwrap();
        assert_eq!(c.to_dotconfig(), text);
    }
}
