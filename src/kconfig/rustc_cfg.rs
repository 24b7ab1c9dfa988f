//! `include/generated/rustc_cfg`: one rustc `--cfg` argument per line, read by rustc as an
//! `@argfile`. The format is the kernel's `print_symbol_for_rustccfg` (confdata.c):
//!
//! * bool/tristate `y`/`m`: `--cfg=CONFIG_X` then `--cfg=CONFIG_X="y"` (or `"m"`); `n`: nothing;
//! * every other value quoted, with `\` before each `"` and `\`;
//! * a hex value gets `0x` unless it starts with `0x`/`0X` — only knowable with the Kconfig's
//!   types, which the caller passes in.
//!
//! rustc splits an argfile at newlines, so a value holding a newline would smuggle in a second
//! argument; such a value is refused rather than written.

use super::dotconfig::{escape, DotConfig, Tristate, Value};
use super::SymType;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{origin}: CONFIG_{name} holds a line break, which would split into a separate rustc argument in rustc_cfg")]
pub struct NewlineInValue {
    pub name: String,
    pub origin: String,
}

/// The lines for one symbol (none for `n`).
pub fn symbol_lines(
    name: &str,
    value: &Value,
    ty: Option<SymType>,
) -> Result<Vec<String>, NewlineInValue> {
    let quoted = |v: &str| format!("--cfg=CONFIG_{name}=\"{}\"", escape(v));
    Ok(match (value, ty) {
        (Value::Tristate(Tristate::No), _) => vec![],
        // A string symbol whose raw auto.conf value happens to be `y` is still a string.
        (Value::Tristate(t), Some(SymType::String)) => vec![quoted(&t.as_char().to_string())],
        (Value::Tristate(t), _) => vec![
            format!("--cfg=CONFIG_{name}"),
            format!("--cfg=CONFIG_{name}=\"{}\"", t.as_char()),
        ],
        (Value::Bare(v) | Value::Quoted(v), ty) => {
            if v.contains('\n') {
                return Err(NewlineInValue {
                    name: name.to_string(),
                    origin: String::new(),
                });
            }
            if ty == Some(SymType::Hex) && !(v.starts_with("0x") || v.starts_with("0X")) {
                vec![quoted(&format!("0x{v}"))]
            } else {
                vec![quoted(v)]
            }
        }
    })
}

/// The symbols `include/generated/autoconf.h` writes as hex numbers (`#define CONFIG_X 0x…`,
/// the kernel's printer prefixes every hex value): their type, where the tree's Kconfig is not
/// read (a distribution's headers ship this file).
pub fn autoconf_hex(text: &str) -> std::collections::HashSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("#define CONFIG_"))
        .filter_map(|l| l.split_once(' '))
        .filter(|(_, v)| v.starts_with("0x") || v.starts_with("0X"))
        .map(|(n, _)| n.to_string())
        .collect()
}

/// Symbols whose value could be read two ways without their type: a bare decimal number is an
/// `int` as written, or a `hex` that rustc_cfg writes with `0x`.
pub fn ambiguous_numbers(cfg: &DotConfig) -> Vec<&str> {
    cfg.entries
        .iter()
        .filter(|(_, e)| {
            matches!(&e.value, Value::Bare(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(|(n, _)| n.as_str())
        .collect()
}

/// Renders the whole file. `types` gives a symbol's Kconfig type where known.
pub fn render(
    cfg: &DotConfig,
    types: &dyn Fn(&str) -> Option<SymType>,
) -> Result<String, NewlineInValue> {
    let mut out = String::new();
    for (name, entry) in &cfg.entries {
        let lines = symbol_lines(name, &entry.value, types(name)).map_err(|mut e| {
            e.origin = cfg.origin(name).unwrap_or_default();
            e
        })?;
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Reads one rustc_cfg line back into (name, value); `None` value for the bare form. Used by
/// tests and by `rkbuild analyzer`, which turns lines into rust-project.json cfgs.
pub fn parse_line(line: &str) -> Option<(String, Option<String>)> {
    let rest = line.strip_prefix("--cfg=CONFIG_")?;
    match rest.split_once('=') {
        None => Some((rest.to_string(), None)),
        Some((name, q)) => {
            let body = q.strip_prefix('"')?.strip_suffix('"')?;
            let mut out = String::new();
            let mut it = body.chars();
            while let Some(c) = it.next() {
                match c {
                    '\\' => out.push(it.next()?),
                    '"' => return None,
                    c => out.push(c),
                }
            }
            Some((name.to_string(), Some(out)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kconfig::dotconfig::Format;
    use std::path::Path;

    fn lines(v: Value, ty: Option<SymType>) -> Vec<String> {
        symbol_lines("X", &v, ty).unwrap()
    }

    #[test]
    fn hex_symbols_from_autoconf_h() {
        let h = "#define CONFIG_A 0x0\n#define CONFIG_B 12\n#define CONFIG_C \"0x1\"\n#define CONFIG_D 0X10\n";
        let hex = autoconf_hex(h);
        assert!(hex.contains("A") && hex.contains("D"));
        assert!(!hex.contains("B") && !hex.contains("C"));
    }

    #[test]
    fn kernel_printer_cases() {
        let t = |c| Value::Tristate(c);
        assert_eq!(
            lines(t(Tristate::Yes), Some(SymType::Bool)),
            ["--cfg=CONFIG_X", "--cfg=CONFIG_X=\"y\""]
        );
        assert_eq!(
            lines(t(Tristate::Module), None),
            ["--cfg=CONFIG_X", "--cfg=CONFIG_X=\"m\""]
        );
        assert!(lines(t(Tristate::No), None).is_empty());
        assert_eq!(
            lines(Value::Bare("64".into()), Some(SymType::Int)),
            ["--cfg=CONFIG_X=\"64\""]
        );
        assert_eq!(
            lines(Value::Bare("-1".into()), None),
            ["--cfg=CONFIG_X=\"-1\""]
        );
        for (v, out) in [("0x1000", "0x1000"), ("0X10", "0X10"), ("1000", "0x1000")] {
            assert_eq!(
                lines(Value::Bare(v.into()), Some(SymType::Hex)),
                [format!("--cfg=CONFIG_X=\"{out}\"")]
            );
        }
        // Without the Kconfig a bare `1000` cannot be told from an int: kept.
        assert_eq!(
            lines(Value::Bare("1000".into()), None),
            ["--cfg=CONFIG_X=\"1000\""]
        );
        assert_eq!(
            lines(Value::Quoted(String::new()), None),
            ["--cfg=CONFIG_X=\"\""]
        );
        assert_eq!(
            lines(Value::Quoted("a\"b\\c".into()), None),
            [r#"--cfg=CONFIG_X="a\"b\\c""#]
        );
        assert_eq!(
            lines(Value::Tristate(Tristate::Yes), Some(SymType::String)),
            ["--cfg=CONFIG_X=\"y\""]
        );
    }

    #[test]
    fn newline_is_refused_with_its_origin() {
        let mut cfg =
            DotConfig::parse(Path::new("k/.config"), "CONFIG_A=y\n", Format::DotConfig).unwrap();
        cfg.entries.get_mut("A").unwrap().value = Value::Quoted("a\n--cfg=evil".into());
        let e = render(&cfg, &|_| None).unwrap_err();
        assert_eq!(e.origin, "k/.config:1");
        assert!(e.to_string().contains("CONFIG_A"));
    }

    #[test]
    fn parse_line_inverts_symbol_lines() {
        assert_eq!(
            parse_line(r#"--cfg=CONFIG_S="a\"b\\c""#),
            Some(("S".into(), Some("a\"b\\c".into())))
        );
        assert_eq!(parse_line("--cfg=CONFIG_A"), Some(("A".into(), None)));
        assert_eq!(parse_line("--cfg=other"), None);
    }
}
