//! Rule-by-rule tests of the flag mapping (the whole command lines are golden-tested against
//! the real kernel in tests/golden_flags.rs).

use super::*;
use crate::kconfig::{DotConfig, Format};
use crate::layout::Layout;
use crate::toolchain::RustcInfo;
use crate::tree::{Arch, Vintage};
use std::path::Path;

fn cfg(text: &str) -> DotConfig {
    DotConfig::parse(Path::new(".config"), text, Format::DotConfig).unwrap()
}

fn ctx<'a>(c: &'a DotConfig, r: &'a RustcInfo, v: Vintage, arch: Arch) -> Ctx<'a> {
    Ctx {
        cfg: c,
        rustc: r,
        vintage: v,
        arch,
        krustflags: vec![],
        objtree: ".".into(),
        srctree: "/src".into(),
        out_of_srctree: false,
        has_remap_path_scope: true,
    }
}

fn flags(text: &str, rustc: &str, v: Vintage, arch: Arch) -> Result<Vec<String>, FlagError> {
    let c = cfg(text);
    let r = RustcInfo::synthetic(rustc);
    kbuild_rustflags(&ctx(&c, &r, v, arch)).map(|f| args(&f))
}

fn has(list: &[String], w: &str) -> bool {
    list.iter().any(|a| a == w)
}

#[test]
fn opt_level_follows_the_c_choice_from_6_12() {
    let x = "CONFIG_X86_64=y\n";
    let p = flags(
        &format!("{x}CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y\n"),
        "1.85.0",
        Layout::builtin("6.12"),
        Arch::X86_64,
    )
    .unwrap();
    assert!(has(&p, "-Copt-level=2"));
    let s = flags(
        &format!("{x}CONFIG_CC_OPTIMIZE_FOR_SIZE=y\n"),
        "1.85.0",
        Layout::builtin("7.3"),
        Arch::X86_64,
    )
    .unwrap();
    assert!(has(&s, "-Copt-level=s"));
    assert_eq!(s.iter().filter(|a| a.starts_with("-Copt-level")).count(), 1);
}

#[test]
fn opt_level_2021_choice() {
    let v1 = |t: &str| flags(t, "1.85.0", Layout::builtin("2021"), Arch::X86_64);
    let similar = "CONFIG_RUST_OPT_LEVEL_SIMILAR_AS_CHOSEN_FOR_C=y\n";
    assert!(has(
        &v1(&format!("{similar}CONFIG_CC_OPTIMIZE_FOR_SIZE=y\n")).unwrap(),
        "-Copt-level=z"
    ));
    assert!(has(
        &v1(&format!(
            "{similar}CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE_O3=y\n"
        ))
        .unwrap(),
        "-Copt-level=3"
    ));
    assert!(has(
        &v1(&format!("{similar}CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y\n")).unwrap(),
        "-Copt-level=2"
    ));
    for (s, l) in [
        ("0", "0"),
        ("1", "1"),
        ("2", "2"),
        ("3", "3"),
        ("S", "s"),
        ("Z", "z"),
    ] {
        let f = v1(&format!("CONFIG_RUST_OPT_LEVEL_{s}=y\nCONFIG_CC_OPTIMIZE_FOR_SIZE=y\nCONFIG_RUST_BUILD_ASSERT_ALLOW=y\n")).unwrap();
        assert!(has(&f, &format!("-Copt-level={l}")), "{s}: {f:?}");
    }
    let e = v1("CONFIG_RUST_OPT_LEVEL_1=y\nCONFIG_RUST_OPT_LEVEL_2=y\n").unwrap_err();
    assert!(
        e.to_string().contains("RUST_OPT_LEVEL_1") && e.to_string().contains("RUST_OPT_LEVEL_2")
    );
    let e = v1(similar).unwrap_err();
    assert!(e.to_string().contains("CC_OPTIMIZE_FOR_PERFORMANCE"));
}

#[test]
fn build_assert_deny_with_opt_level_0_is_rejected() {
    let e = flags(
        "CONFIG_RUST_OPT_LEVEL_0=y\nCONFIG_RUST_BUILD_ASSERT_DENY=y\n",
        "1.85.0",
        Layout::builtin("2021"),
        Arch::X86_64,
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("RUST_BUILD_ASSERT_DENY") && e.to_string().contains("opt-level 0"),
        "{e}"
    );
    let c = cfg("CONFIG_RUST_BUILD_ASSERT_WARN=y\n");
    let r = RustcInfo::synthetic("1.85.0");
    assert_eq!(
        build_assert(&ctx(&c, &r, Layout::builtin("2021"), Arch::X86_64)).0,
        BuildAssert::Warn
    );
    assert_eq!(
        build_assert(&ctx(&c, &r, Layout::builtin("6.12"), Arch::X86_64)).0,
        BuildAssert::Deny
    );
    let c = cfg("CONFIG_RUST_BUILD_ASSERT_ALLOW=y\n");
    assert_eq!(
        build_assert(&ctx(&c, &r, Layout::builtin("7.3"), Arch::X86_64)).0,
        BuildAssert::Allow
    );
}

#[test]
fn debug_assertions_and_overflow_checks_are_always_explicit() {
    for v in Layout::all() {
        let f = flags("CONFIG_RUST_OPT_LEVEL_2=y\n", "1.85.0", v, Arch::X86_64).unwrap();
        assert_eq!(
            f.iter()
                .filter(|a| a.starts_with("-Cdebug-assertions="))
                .count(),
            1
        );
        assert!(
            has(&f, "-Cdebug-assertions=n") && has(&f, "-Coverflow-checks=n"),
            "{v}: {f:?}"
        );
        let f = flags("CONFIG_RUST_OPT_LEVEL_2=y\nCONFIG_RUST_DEBUG_ASSERTIONS=y\nCONFIG_RUST_OVERFLOW_CHECKS=y\n", "1.85.0", v, Arch::X86_64).unwrap();
        assert!(has(&f, "-Cdebug-assertions=y") && has(&f, "-Coverflow-checks=y"));
    }
}

#[test]
fn frame_pointers_and_debuginfo() {
    let f = flags(
        "CONFIG_FRAME_POINTER=y\n",
        "1.97.0",
        Layout::builtin("7.3"),
        Arch::X86_64,
    )
    .unwrap();
    let i = f
        .iter()
        .position(|a| a == "-Cforce-frame-pointers=y")
        .unwrap();
    assert_eq!(f[i + 1], "-Zllvm_module_flag=frame-pointer:u32:2:max");
    let f = flags(
        "CONFIG_FRAME_POINTER=y\n",
        "1.98.0",
        Layout::builtin("7.3"),
        Arch::X86_64,
    )
    .unwrap();
    assert!(!f.iter().any(|a| a.contains("llvm_module_flag")));
    let f = flags(
        "CONFIG_DEBUG_INFO=y\nCONFIG_DEBUG_INFO_DWARF5=y\n",
        "1.85.0",
        Layout::builtin("6.12"),
        Arch::X86_64,
    )
    .unwrap();
    let i = f.iter().position(|a| a == "-Zdwarf-version=5").unwrap();
    assert_eq!(f[i + 1], "-Cdebuginfo=2");
    let f = flags(
        "CONFIG_RUST_OPT_LEVEL_2=y\nCONFIG_DEBUG_INFO=y\nCONFIG_DEBUG_INFO_REDUCED=y\n",
        "1.85.0",
        Layout::builtin("2021"),
        Arch::X86_64,
    )
    .unwrap();
    assert!(has(&f, "-Cdebuginfo=1"));
    assert!(!flags("", "1.85.0", Layout::builtin("6.12"), Arch::X86_64)
        .unwrap()
        .iter()
        .any(|a| a.starts_with("-Cdebuginfo")));
}

#[test]
fn krustflags_come_last_and_werror_position_per_vintage() {
    let c = cfg("CONFIG_WERROR=y\nCONFIG_FRAME_POINTER=y\n");
    let r = RustcInfo::synthetic("1.85.0");
    let mut x = ctx(&c, &r, Layout::builtin("6.12"), Arch::X86_64);
    x.krustflags = vec!["-Copt-level=0".into(), "-g".into()];
    let f = args(&kbuild_rustflags(&x).unwrap());
    assert_eq!(&f[f.len() - 2..], ["-Copt-level=0", "-g"]);
    let w = f.iter().position(|a| a == "-Dwarnings").unwrap();
    let fp = f
        .iter()
        .position(|a| a == "-Cforce-frame-pointers=y")
        .unwrap();
    let oc = f
        .iter()
        .position(|a| a.starts_with("-Coverflow-checks"))
        .unwrap();
    assert_eq!(w, oc + 1);
    assert!(w < fp, "6.12: -Dwarnings before frame pointers");
    x.vintage = Layout::builtin("7.3");
    let f = args(&kbuild_rustflags(&x).unwrap());
    let w = f.iter().position(|a| a == "-Dwarnings").unwrap();
    let fp = f
        .iter()
        .position(|a| a == "-Cforce-frame-pointers=y")
        .unwrap();
    assert!(
        w > fp,
        "7.3: -Dwarnings from Makefile.warn, after frame pointers"
    );
}

#[test]
fn module_objects_get_cfg_module_before_the_argfile() {
    let c = cfg("CONFIG_LD_DEAD_CODE_DATA_ELIMINATION=y\n");
    let r = RustcInfo::synthetic("1.85.0");
    let x = ctx(&c, &r, Layout::builtin("6.12"), Arch::X86_64);
    let m = args(&rust_flags(&x, ObjKind::Module).unwrap());
    assert_eq!(
        &m[m.len() - 3..],
        ["--cfg", "MODULE", "@./include/generated/rustc_cfg"]
    );
    let k = args(&rust_flags(&x, ObjKind::Kernel).unwrap());
    assert_eq!(
        &k[k.len() - 2..],
        ["-Zfunction-sections=y", "@./include/generated/rustc_cfg"]
    );
}

#[test]
fn symbol_mangling_is_translated_for_new_rustc() {
    let f = flags(
        "CONFIG_RUST_OPT_LEVEL_2=y\n",
        "1.85.0",
        Layout::builtin("2021"),
        Arch::X86_64,
    )
    .unwrap();
    assert!(has(&f, "-Csymbol-mangling-version=v0"));
    assert!(!has(&f, "-Zsymbol-mangling-version=v0"));
    let f = flags(
        "CONFIG_RUST_OPT_LEVEL_2=y\n",
        "1.54.0",
        Layout::builtin("2021"),
        Arch::X86_64,
    )
    .unwrap();
    assert!(has(&f, "-Zsymbol-mangling-version=v0"));
}

#[test]
fn arch_flags_follow_config_and_rustc() {
    let a = flags(
        "CONFIG_ARM64=y\n",
        "1.85.0",
        Layout::builtin("6.12"),
        Arch::Arm64,
    )
    .unwrap();
    assert!(
        has(&a, "--target=aarch64-unknown-none-softfloat") && has(&a, "-Cforce-unwind-tables=n")
    );
    let a = flags(
        "CONFIG_ARM64=y\n",
        "1.84.0",
        Layout::builtin("6.12"),
        Arch::Arm64,
    )
    .unwrap();
    assert!(has(&a, "--target=aarch64-unknown-none") && has(&a, "-Ctarget-feature=-neon"));
    let r = flags(
        "CONFIG_RISCV=y\nCONFIG_64BIT=y\n",
        "1.85.0",
        Layout::builtin("6.12"),
        Arch::Riscv64,
    )
    .unwrap();
    assert!(has(&r, "--target=riscv64imac-unknown-none-elf") && has(&r, "-Ctarget-feature=-c"));
    let r = flags(
        "CONFIG_RISCV=y\nCONFIG_64BIT=y\nCONFIG_RISCV_ISA_C=y\n",
        "1.85.0",
        Layout::builtin("6.12"),
        Arch::Riscv64,
    )
    .unwrap();
    assert!(!has(&r, "-Ctarget-feature=-c"));
    let p = flags(
        "CONFIG_7=y\n",
        "1.85.0",
        Layout::builtin("7.3"),
        Arch::X86_64,
    )
    .unwrap();
    assert!(has(&p, "-Aclippy::precedence"), "7.3 with rustc < 1.86");
    let p = flags("", "1.86.0", Layout::builtin("7.3"), Arch::X86_64).unwrap();
    assert!(!has(&p, "-Aclippy::precedence"));
}

#[test]
fn every_flag_says_why() {
    let c = cfg("CONFIG_X86_64=y\nCONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y\nCONFIG_X86_KERNEL_IBT=y\n");
    let r = RustcInfo::synthetic("1.85.0");
    for f in rust_flags(
        &ctx(&c, &r, Layout::builtin("6.12"), Arch::X86_64),
        ObjKind::Module,
    )
    .unwrap()
    {
        assert!(!f.why.is_empty(), "{}", f.arg);
    }
    let f = kbuild_rustflags(&ctx(&c, &r, Layout::builtin("6.12"), Arch::X86_64)).unwrap();
    let o = f.iter().find(|f| f.arg == "-Copt-level=2").unwrap();
    assert!(
        o.why
            .contains("CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y (.config:2)"),
        "{}",
        o.why
    );
}
