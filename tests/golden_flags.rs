//! Golden test: the command lines rkbuild gives for core, kernel, a module and a built-in
//! driver equal the ones the real Kbuild ran (`kbuild-commands.txt`), with the oracle's path
//! placeholders standing in for the trees.

mod common;

use std::path::Path;

use rkbuild::flags::{Ctx, ObjKind};
use rkbuild::kconfig::DotConfig;
use rkbuild::layout::Layout;
use rkbuild::plan::{self, Inputs, Step};
use rkbuild::toolchain::RustcInfo;
use rkbuild::tree::{Arch, Vintage};

struct Oracle {
    cfg: DotConfig,
    rustc: RustcInfo,
    vintage: Vintage,
    name: &'static str,
}

fn oracle(name: &'static str, vintage: Vintage) -> Oracle {
    let cfg = DotConfig::load(&common::oracle(&format!(
        "linux-{name}/x86_64-defconfig-rust/config"
    )))
    .unwrap();
    // The rustc the oracle was built with, from its own config.
    let n = cfg.int("RUSTC_VERSION").unwrap() as u64;
    let rustc = RustcInfo::synthetic(&format!("{}.{}.{}", n / 100_000, n / 100 % 1000, n % 100));
    Oracle {
        cfg,
        rustc,
        vintage,
        name,
    }
}

impl Oracle {
    fn ctx(&self) -> Ctx<'_> {
        Ctx {
            cfg: &self.cfg,
            rustc: &self.rustc,
            vintage: self.vintage,
            arch: Arch::X86_64,
            krustflags: vec![],
            objtree: ".".into(),
            srctree: "$SRCTREE".into(),
            out_of_srctree: true,
            has_remap_path_scope: self.rustc.at_least(1, 95, 0),
        }
    }
}

fn assert_same(o: &Oracle, target: &str, ours: &Step) {
    let k = common::kbuild_cmd(o.name, target);
    let cmd = ours.command.as_ref().expect("a command");
    let ours_args = &cmd.args;
    if *ours_args != k.args {
        let first = ours_args.iter().zip(&k.args).position(|(a, b)| a != b);
        panic!(
            "{} {target}: argv differs at {first:?}\n ours:   {:?}\n kbuild: {:?}",
            o.name,
            first.map(|i| &ours_args[i..(i + 4).min(ours_args.len())]),
            first.map(|i| &k.args[i..(i + 4).min(k.args.len())]),
        );
    }
    let env: Vec<(String, String)> = cmd
        .env
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                if k == "OBJTREE" {
                    "$OBJTREE".into()
                } else {
                    v.clone()
                },
            )
        })
        .collect();
    assert_eq!(env, k.env, "{} {target}: environment", o.name);
}

/// The plan's inputs with the oracle's placeholders for paths (`$SRCTREE`, `$RUST_LIB_SRC`).
fn inputs<'a>(ctx: &'a Ctx<'a>, hostcc: &str) -> Inputs<'a> {
    Inputs {
        ctx,
        srctree: Path::new("$SRCTREE"),
        objtree: Path::new("."),
        objtree_abs: "/abs/objtree".into(),
        lib_src: "$RUST_LIB_SRC".into(),
        rustc: "rustc".into(),
        clippy_driver: Some("clippy-driver".into()),
        rustdoc: None,
        bindgen: "bindgen".into(),
        hostcc: hostcc.into(),
        hostldflags: " ".into(),
        bindgen_c_flags: vec![],
        cc: None,
        module_c_flags: vec![],
        kernel_ld: None,
        bindgen_target: "x86_64-linux-gnu".into(),
        tools: Default::default(),
        bindgen_version: None,
    }
}

fn check(o: &Oracle, print_obj: &str) {
    let ctx = o.ctx();
    let inp = inputs(&ctx, "cc");
    assert_same(
        o,
        "rust/core.o",
        &plan::crate_step_named(&inp, "core", false).unwrap(),
    );
    assert_same(
        o,
        "rust/kernel.o",
        &plan::crate_step_named(&inp, "kernel", true).unwrap(),
    );
    assert_same(
        o,
        "samples/rust/rust_minimal.o",
        &plan::driver_step(
            &inp,
            "samples/rust/rust_minimal.o",
            "samples/rust/rust_minimal.rs",
            "samples/rust/rust_minimal",
            ObjKind::Module,
            true,
        )
        .unwrap(),
    );
    let obj = format!("samples/rust/{print_obj}.o");
    // In 7.3 `rust_print_main.o` is a part of the composite `rust_print`: Kbuild's modfile
    // names the composite.
    let step = plan::driver_step(
        &inp,
        &obj,
        &format!("samples/rust/{print_obj}.rs"),
        "samples/rust/rust_print",
        ObjKind::Kernel,
        false,
    )
    .unwrap();
    assert_same(o, &obj, &step);
}

#[test]
fn linux_6_12_core_kernel_module_builtin() {
    check(&oracle("6.12", Layout::builtin("6.12")), "rust_print");
}

#[test]
fn linux_7_3_core_kernel_module_builtin() {
    check(&oracle("7.3", Layout::builtin("7.3")), "rust_print_main");
}

#[test]
fn compiler_builtins_and_build_error_6_12() {
    let o = oracle("6.12", Layout::builtin("6.12"));
    let ctx = o.ctx();
    let inp = inputs(&ctx, "cc");
    for name in ["compiler_builtins", "build_error"] {
        assert_same(
            &o,
            &format!("rust/{name}.o"),
            &plan::crate_step_named(&inp, name, false).unwrap(),
        );
    }
}

/// Every Rust command of the 7.3 oracle but bindgen's (whose C flags come from Kbuild): all
/// crates of the layout, the proc macros with clang-22 as the linker, as make ran them with
/// CLIPPY=1.
#[test]
fn linux_7_3_every_crate_of_the_layout() {
    let o = oracle("7.3", Layout::builtin("7.3"));
    let ctx = o.ctx();
    let inp = inputs(&ctx, "clang-22");
    let oracle_text = common::read(&common::oracle(
        "linux-7.3/x86_64-defconfig-rust/kbuild-commands.txt",
    ));
    let mut compared = 0;
    for c in &o.vintage.crates {
        let step = plan::crate_step_named(&inp, &c.name, true).unwrap();
        if !oracle_text.contains(&format!("savedcmd_{} :=", step.id)) {
            continue;
        }
        assert_same(&o, &step.id, &step);
        compared += 1;
    }
    assert!(compared >= 10, "compared {compared} crates");
}
