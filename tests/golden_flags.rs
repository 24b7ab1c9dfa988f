//! Golden test: the command lines rkbuild gives for core, kernel, a module and a built-in
//! driver equal the ones the real Kbuild ran (`kbuild-commands.txt`), with the oracle's path
//! placeholders standing in for the trees.

mod common;

use rkbuild::flags::crates::{self, CrateCmd, Driver, Library};
use rkbuild::flags::{Ctx, ObjKind};
use rkbuild::kconfig::DotConfig;
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

fn assert_same(o: &Oracle, target: &str, ours: CrateCmd) {
    let k = common::kbuild_cmd(o.name, target);
    let ours_args = ours.argv();
    if ours_args != k.args {
        let first = ours_args.iter().zip(&k.args).position(|(a, b)| a != b);
        panic!(
            "{} {target}: argv differs at {first:?}\n ours:   {:?}\n kbuild: {:?}",
            o.name,
            first.map(|i| &ours_args[i..(i + 4).min(ours_args.len())]),
            first.map(|i| &k.args[i..(i + 4).min(k.args.len())]),
        );
    }
    let env: Vec<(String, String)> = ours
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

fn check(o: &Oracle, print_obj: &str) {
    let ctx = o.ctx();
    let core = crates::core_library(&ctx, "$RUST_LIB_SRC");
    assert_same(
        o,
        "rust/core.o",
        crates::library(&ctx, "/abs/objtree", &core, false).unwrap(),
    );

    let kernel_externs: &[&str] = match o.vintage {
        Vintage::K7_3 => &[
            "ffi",
            "pin_init",
            "build_error",
            "macros",
            "bindings",
            "uapi",
            "zerocopy",
            "zerocopy_derive",
        ],
        _ => &["ffi", "build_error", "macros", "bindings", "uapi"],
    };
    let kernel = Library {
        name: "kernel",
        root: "$SRCTREE/rust/kernel/lib.rs".into(),
        target_flags: kernel_externs
            .iter()
            .flat_map(|e| ["--extern".to_string(), e.to_string()])
            .collect(),
        ..Library::default()
    };
    assert_same(
        o,
        "rust/kernel.o",
        crates::library(&ctx, "/abs/objtree", &kernel, true).unwrap(),
    );

    let module = Driver {
        src: "$SRCTREE/samples/rust/rust_minimal.rs".into(),
        obj: "samples/rust/rust_minimal.o",
        kind: ObjKind::Module,
        modfile: "samples/rust/rust_minimal".into(),
    };
    assert_same(
        o,
        "samples/rust/rust_minimal.o",
        crates::driver(&ctx, "/abs/objtree", &module, true).unwrap(),
    );

    let obj = format!("samples/rust/{print_obj}.o");
    let builtin = Driver {
        src: format!("$SRCTREE/samples/rust/{print_obj}.rs"),
        obj: &obj,
        kind: ObjKind::Kernel,
        modfile: "samples/rust/rust_print".into(),
    };
    assert_same(
        o,
        &obj,
        crates::driver(&ctx, "/abs/objtree", &builtin, false).unwrap(),
    );
}

#[test]
fn linux_6_12_core_kernel_module_builtin() {
    check(&oracle("6.12", Vintage::K6_12), "rust_print");
}

#[test]
fn linux_7_3_core_kernel_module_builtin() {
    check(&oracle("7.3", Vintage::K7_3), "rust_print_main");
}

#[test]
fn compiler_builtins_and_build_error_6_12() {
    let o = oracle("6.12", Vintage::K6_12);
    let ctx = o.ctx();
    for name in ["compiler_builtins", "build_error"] {
        let lib = Library {
            name,
            root: format!("$SRCTREE/rust/{name}.rs"),
            ..Library::default()
        };
        assert_same(
            &o,
            &format!("rust/{name}.o"),
            crates::library(&ctx, "/abs", &lib, false).unwrap(),
        );
    }
}
