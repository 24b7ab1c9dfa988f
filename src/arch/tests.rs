//! The built-in descriptions load and agree with the enum; a bad description names its file and
//! the entry at fault.

use super::*;

const X86_64: &str = include_str!("../../templates/arch/x86_64.toml");

fn parse_err(text: &str) -> String {
    ArchDesc::parse("templates/arch/bad.toml", text)
        .unwrap_err()
        .to_string()
}

#[test]
fn every_builtin_loads_in_enum_order() {
    let names: Vec<&str> = Arch::all().map(Arch::name).collect();
    assert_eq!(
        names,
        [
            "x86_64",
            "x86",
            "arm64",
            "arm",
            "riscv64",
            "riscv32",
            "powerpc64le",
            "powerpc",
            "loongarch64",
            "s390"
        ]
    );
    let srcarch: Vec<&str> = Arch::all().map(Arch::srcarch).collect();
    assert_eq!(
        srcarch,
        [
            "x86",
            "x86",
            "arm64",
            "arm",
            "riscv",
            "riscv",
            "powerpc",
            "powerpc",
            "loongarch",
            "s390"
        ]
    );
    assert_eq!(
        Arch::Loongarch64.bindgen_target(),
        "loongarch64-linux-gnusf"
    );
    assert!(Arch::X86_64.desc().target.generated_spec);
    assert!(!Arch::Arm64.desc().target.generated_spec);
    assert!(!Arch::Riscv32.is_64bit() && Arch::S390.is_64bit());
}

#[test]
fn config_selects_at_most_one_arch() {
    use crate::kconfig::Format;
    let cfg = |t: &str| DotConfig::parse(std::path::Path::new(".config"), t, Format::DotConfig);
    for (text, want) in [
        ("CONFIG_PPC64=y\nCONFIG_PPC=y\n", Some(Arch::Powerpc64)),
        ("CONFIG_PPC=y\n", Some(Arch::Powerpc)),
        ("CONFIG_PPC32=y\n", Some(Arch::Powerpc)),
        ("CONFIG_RISCV=y\n", Some(Arch::Riscv32)),
        ("CONFIG_RISCV=y\nCONFIG_64BIT=y\n", Some(Arch::Riscv64)),
        ("CONFIG_X86_32=y\nCONFIG_UML=y\n", Some(Arch::X86)),
        ("CONFIG_64BIT=y\n", None),
    ] {
        let c = cfg(text).unwrap();
        let holding: Vec<Arch> = Arch::all()
            .filter(|a| a.desc().select.when().holds(&Config(&c)))
            .collect();
        assert!(holding.len() <= 1, "{text:?}: {holding:?}");
        assert_eq!(Arch::from_config(&c), want, "{text:?}");
    }
    let e = Arch::resolve(None, &cfg("CONFIG_RUST=y\n").unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("sets none of CONFIG_X86_64, CONFIG_X86_32, CONFIG_ARM64, CONFIG_ARM, CONFIG_RISCV, CONFIG_PPC64, CONFIG_PPC32, CONFIG_LOONGARCH, CONFIG_S390\n"),
        "{e}"
    );
    let e = Arch::parse("sparc").unwrap_err().to_string();
    assert!(
        e.contains("use one of x86_64, x86 (UML), arm64, arm, riscv64, riscv32, powerpc64le, powerpc, loongarch64, s390 ("),
        "{e}"
    );
}

#[test]
fn a_bad_description_names_its_file_and_entry() {
    // A typo in a gate key is refused by serde, with the line.
    let e = parse_err(&X86_64.replace("rustc_below = \"1.93.0\"", "rustc_blow = \"1.93.0\""));
    assert!(
        e.contains("templates/arch/bad.toml") && e.contains("rustc_blow"),
        "{e}"
    );
    // A layout answer that no layout gives.
    let e = parse_err(&X86_64.replace(
        "layout_x86_cpu = \"native-or-generic\"",
        "layout_x86_cpu = \"native\"",
    ));
    assert!(
        e.contains("templates/arch/bad.toml: flags[10] (`-Ctarget-cpu=native`): layout_x86_cpu = \"native\" is not one of"),
        "{e}"
    );
    // A placeholder the flags cannot fill.
    let e = parse_err(&X86_64.replace("{CONFIG_FUNCTION_PADDING_BYTES},", "{padding},"));
    assert!(
        e.contains("flags[15] (`-Zpatchable-function-entry={padding},")
            && e.contains("unknown placeholder `{padding}`"),
        "{e}"
    );
    // A flag with nothing to say in --explain.
    let e = parse_err(&X86_64.replace("why = \"x86_64 kernel code model\"\n", ""));
    assert!(
        e.contains("flags[13] (`-Ccode-model=kernel`): no `why` and no gate"),
        "{e}"
    );
    // A symbol written with its prefix.
    let e = parse_err(&X86_64.replace(
        "config = [\"CALL_PADDING\"]",
        "config = [\"CONFIG_CALL_PADDING=y\"]",
    ));
    assert!(e.contains("`CONFIG_CALL_PADDING=y` is not a symbol"), "{e}");
    let e = parse_err(&X86_64.replace("bits = 64", "bits = 48"));
    assert!(e.contains("bits = 48 is not one of 32, 64"), "{e}");
    let e = parse_err(&X86_64.replace("symbol = \"X86_64\"", "symbol = \"X86\""));
    assert!(e.contains("select: symbol = \"X86\" is not asked"), "{e}");
}

#[test]
fn the_json_form_reads_as_the_toml() {
    let json = load(BUILTIN, true).unwrap();
    let toml = load(BUILTIN, false).unwrap();
    assert_eq!(format!("{json:?}"), format!("{toml:?}"));
    assert!(BUILTIN
        .iter()
        .all(|(_, f, _)| crate::builtin::json(f).is_some()));
}

#[test]
fn descriptions_agree_with_each_other() {
    let x86 = include_str!("../../templates/arch/x86.toml");
    let e = load(
        &[
            (Arch::X86_64, "templates/arch/x86_64.toml", X86_64),
            (
                Arch::X86,
                "templates/arch/x86.toml",
                &x86.replace("\"i686\"", "\"amd64\""),
            ),
        ],
        false,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("templates/arch/x86.toml: alias `amd64` is x86_64's already"),
        "{e}"
    );
    let e = load(
        &[(Arch::X86_64, "templates/arch/amd64.toml", X86_64)],
        false,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("name = \"x86_64\" is not the file's name"),
        "{e}"
    );
}

#[test]
fn placeholders_fill() {
    let w = "-Zpatchable-function-entry={CONFIG_N},{CONFIG_N}";
    assert_eq!(
        placeholders(w).collect::<Vec<_>>(),
        ["CONFIG_N", "CONFIG_N"]
    );
    assert_eq!(
        fill(w, |n| n.len().to_string()),
        "-Zpatchable-function-entry=8,8"
    );
    assert_eq!(fill("--target={objtree}/x", |_| ".".into()), "--target=./x");
}
