//! Property tests (many generated inputs) for the `.config` reader and the rustc_cfg writer:
//! arbitrary bytes never panic, every accepted input round-trips, and no value can smuggle a
//! second argument into the rustc_cfg argfile.

use std::path::Path;

use proptest::prelude::*;
use rkbuild::kconfig::{rustc_cfg, DotConfig, Format, SymType, Tristate, Value};

/// Executions per property; `PROPTEST_CASES` overrides.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5_000)
}

fn parse(text: &str, f: Format) -> Option<DotConfig> {
    DotConfig::parse(Path::new(".config"), text, f).ok()
}

/// Lines that look like a .config, with mutations, so the generator reaches deep paths.
fn config_line() -> impl Strategy<Value = String> {
    let name = "[A-Z0-9_]{1,12}";
    prop_oneof![
        (
            name,
            prop_oneof![
                "y",
                "m",
                "n",
                "yes",
                "-?[0-9]{1,6}",
                "0[xX][0-9a-fA-F]{1,8}",
                "[0-9a-f]{1,6}"
            ]
        )
            .prop_map(|(n, v)| format!("CONFIG_{n}={v}")),
        (name, "[ -~]{0,20}").prop_map(|(n, v)| format!(
            "CONFIG_{n}=\"{}\"",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        )),
        name.prop_map(|n| format!("# CONFIG_{n} is not set")),
        "#[ -~]{0,20}".prop_map(String::from),
        Just(String::new()),
        "[ -~]{0,30}".prop_map(String::from),
        (name, "[\\x00-\\x7f]{0,10}").prop_map(|(n, v)| format!("CONFIG_{n}={v}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        for f in [Format::DotConfig, Format::AutoConf] {
            if let Some(cfg) = parse(&text, f) {
                let _ = rustc_cfg::render(&cfg, &|_| None);
            }
        }
    }

    #[test]
    fn accepted_configs_round_trip(lines in proptest::collection::vec(config_line(), 0..40), crlf in any::<bool>()) {
        let text = lines.join(if crlf { "\r\n" } else { "\n" });
        if let Some(cfg) = parse(&text, Format::DotConfig) {
            let again = parse(&cfg.to_dotconfig(), Format::DotConfig).expect("our own output parses");
            let a: Vec<(&String, &Value)> = cfg.entries.iter().map(|(k, e)| (k, &e.value)).collect();
            let b: Vec<(&String, &Value)> = again.entries.iter().map(|(k, e)| (k, &e.value)).collect();
            prop_assert_eq!(a, b);
            prop_assert!(again.warnings.is_empty(), "canonical output has nothing to warn about");
            // rustc_cfg of an accepted config: every line is one well-formed argument.
            let out = rustc_cfg::render(&cfg, &|_| None).unwrap();
            for l in out.lines() {
                let (name, _) = rustc_cfg::parse_line(l).expect("well-formed line");
                prop_assert!(cfg.entries.contains_key(&name));
            }
        }
    }

    #[test]
    fn no_string_value_adds_an_argument(value in "\\PC{0,40}", ty in prop_oneof![Just(None), Just(Some(SymType::String)), Just(Some(SymType::Hex))]) {
        let lines = rustc_cfg::symbol_lines("S", &Value::Quoted(value.clone()), ty).unwrap();
        prop_assert_eq!(lines.len(), 1);
        prop_assert!(!lines[0].contains('\n'));
        let (name, v) = rustc_cfg::parse_line(&lines[0]).unwrap();
        prop_assert_eq!(name, "S");
        let v = v.unwrap();
        if ty == Some(SymType::Hex) && !(value.starts_with("0x") || value.starts_with("0X")) {
            prop_assert_eq!(v, format!("0x{value}"));
        } else {
            prop_assert_eq!(v, value);
        }
    }

    #[test]
    fn a_newline_is_always_refused(a in "\\PC{0,10}", b in "\\PC{0,10}") {
        let v = Value::Bare(format!("{a}\n{b}"));
        prop_assert!(rustc_cfg::symbol_lines("S", &v, None).is_err());
    }

    #[test]
    fn tristates_give_exactly_the_kernel_lines(t in prop_oneof![Just(Tristate::Yes), Just(Tristate::Module), Just(Tristate::No)]) {
        let lines = rustc_cfg::symbol_lines("T", &Value::Tristate(t), Some(SymType::Tristate)).unwrap();
        match t {
            Tristate::No => prop_assert!(lines.is_empty()),
            _ => prop_assert_eq!(lines, vec!["--cfg=CONFIG_T".to_string(), format!("--cfg=CONFIG_T=\"{}\"", t.as_char())]),
        }
    }
}
