//! Kernel layouts as data: what a tree's `rust/Makefile` and the Rust parts of Kbuild say, one
//! description per kernel vintage (`templates/kbuild/<name>.toml`).
//!
//! Design rule: a layout holds *facts of a kernel release* (its crates, their `--extern`s, cfgs
//! and env, the command templates of its rules, its flag lists, its generated files and the
//! steps that make them), each with the rustc version or configuration that gates it. Code asks
//! the description questions ([`Layout::flags`], [`Layout::crates`] …); nothing else in rkbuild
//! branches on which kernel it is. Adding a kernel is a new data file plus its tests.
//!
//! What stays code: facts of rustc itself (a flag renamed in some rustc release) and the meaning
//! of each named flag section (`flags`), which a layout orders and switches but does not define.
//! Facts of an architecture are data of their own (`templates/arch/`, `crate::arch`); where they
//! differ between vintages, an arch description asks the layout (`flags.x86_cpu`).
//!
//! The serde types mirror the file one to one; [`Layout::check`] validates what serde cannot
//! (unknown crates in `after`, templates naming unknown placeholders) so a bad file fails when
//! loaded, with its name and the entry at fault.

mod cond;
mod template;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use serde::Deserialize;

pub use cond::{words_holding, Facts, Gated, When};
pub use template::{expand, Vars};

/// One kernel layout.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// The vintage's name (`6.12`): `--kbuild` takes it, plans and reports show it.
    pub name: String,
    pub about: String,
    pub detect: Detect,
    pub minimums: MinimumsDesc,
    pub flags: FlagsDesc,
    pub target: TargetDesc,
    /// Named values the templates use (`{core_edition}`): the first entry whose gate holds.
    #[serde(default)]
    pub vars: BTreeMap<String, Vec<Gated<String>>>,
    /// `cmd_rustc_library`.
    pub library: CmdTemplate,
    /// `cmd_rustc_procmacro`.
    pub proc_macro: CmdTemplate,
    /// `cmd_rustc_procmacrolibrary` (host rlibs under `rust/host/`), where the layout has one.
    #[serde(default)]
    pub host_library: Option<CmdTemplate>,
    /// `rust_common_cmd` of Makefile.build: driver objects.
    pub driver: DriverDesc,
    /// `cmd_bindgen`.
    pub bindgen: BindgenDesc,
    /// Intrinsics `core` references that are redirected to compiler_builtins' stubs.
    #[serde(default)]
    pub intrinsics: Vec<Gated<Vec<String>>>,
    /// `cmd_exports`: the symbol letters and names skipped.
    pub exports: ExportsDesc,
    /// `cmd_objtool` (Makefile.lib), where the configuration turns objtool on.
    #[serde(default)]
    pub objtool: Option<ObjtoolDesc>,
    /// What an arch's prepare step appends to KBUILD_CFLAGS after prepare0 (so the C flags
    /// make recorded then lack it); `{asm_offset:X}` is X from asm-offsets.h.
    #[serde(default)]
    pub c_flags_prepare: Vec<Gated<Vec<String>>>,
    /// What scripts/Makefile.lib adds to the C flags of every kernel object (UBSAN …), in order.
    #[serde(default)]
    pub kernel_object_c_flags: Vec<Gated<Vec<String>>>,
    /// Files of `rust/` made by the kernel's C compiler, in order.
    #[serde(rename = "c_run", default)]
    pub c_runs: Vec<CRun>,
    /// `cmd_cc_o_c` for the C parts of composite Rust modules, where the layout builds them.
    #[serde(default)]
    pub c_part: Option<CPartDesc>,
    /// How Kbuild builds an external module (`M=`), where the layout knows it.
    #[serde(default)]
    pub extmod: Option<ExtmodDesc>,
    /// `make rustfmt` / `rustfmtcheck`: which Rust files are the kernel's to format.
    #[serde(default)]
    pub fmt: Option<FmtDesc>,
    /// `make rusttest`: the host tests, where the layout has them.
    #[serde(default)]
    pub rusttest: Option<RusttestDesc>,
    /// `make rustdoc`: the HTML documentation, where the layout has it.
    #[serde(default)]
    pub rustdoc: Option<RustdocDesc>,
    /// CONFIG_RUST_KERNEL_DOCTESTS: the kernel crate's doctests as KUnit tests.
    #[serde(default)]
    pub doctests: Option<DoctestsDesc>,
    /// What the top Makefile exports to every command besides `RUSTC_BOOTSTRAP=1`
    /// (`CLIPPY_CONF_DIR`, so clippy reads the tree's `.clippy.toml`); `{srctree}` is filled.
    #[serde(default)]
    pub exported_env: Vec<[String; 2]>,
    /// make's arguments for modpost and the final link of the tree's own modules over
    /// rkbuild's objects (`rkbuild build --modules`), run in the object tree: `{srctree}`.
    #[serde(default)]
    pub link_modules: Vec<String>,
    /// Configurations rkbuild does not build yet, with why.
    #[serde(rename = "refuse", default)]
    pub refusals: Vec<Gated<String>>,
    /// The crates of `rust/`, in the order `rust/Makefile` lists them.
    #[serde(rename = "crate")]
    pub crates: Vec<CrateDesc>,
    /// Generated sources and the bindgen runs that make them.
    #[serde(rename = "bindgen_run", default)]
    pub bindgen_runs: Vec<BindgenRun>,
    /// rust-analyzer's view (`scripts/generate_rust_analyzer.py`).
    pub analyzer: AnalyzerDesc,
}

/// How a tree or a configuration is recognised as this layout.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Detect {
    /// Layouts are tried from the highest `order` down (newest first).
    pub order: u32,
    /// Paths in the source tree; any one present marks the layout.
    #[serde(default)]
    pub tree: Vec<String>,
    /// Symbols only this layout's Kconfig has (for a `.config` without a tree).
    #[serde(default)]
    pub symbols: Vec<String>,
}

/// `scripts/min-tool-version.sh` when the tree has none, per arch where they differ.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinimumsDesc {
    pub rustc: String,
    pub bindgen: String,
    pub llvm: String,
    pub source: String,
    /// Per-SRCARCH overrides (`s390 = { rustc = "1.96.0" }`).
    #[serde(default)]
    pub arch: BTreeMap<String, ArchMinimums>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchMinimums {
    pub rustc: Option<String>,
    pub llvm: Option<String>,
}

/// How the vintage makes `KBUILD_RUSTFLAGS`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlagsDesc {
    /// `rust_common_flags` (kernel and host crates).
    pub common: Vec<String>,
    /// `rust_common_flags_per_version`.
    #[serde(default)]
    pub common_per_version: Vec<Gated<Vec<String>>>,
    /// The `KBUILD_RUSTFLAGS` base after the common flags.
    pub base: Vec<String>,
    /// The sections of `KBUILD_RUSTFLAGS` in the order the top Makefile appends them (each
    /// section is defined in `flags`).
    pub sequence: Vec<String>,
    /// `c` (follows CC_OPTIMIZE_FOR_*: 2 or s) or `rust-choice` (2021's RUST_OPT_LEVEL_*).
    pub opt_level: String,
    /// `bool` (RUST_BUILD_ASSERT_ALLOW) or `choice` (2021's ALLOW/WARN/DENY).
    pub build_assert: String,
    /// The symbol that turns on kCFI for Rust (`CFI_CLANG` in 6.12, `CFI` in 7.3).
    #[serde(default)]
    pub cfi_symbol: Option<String>,
    /// Adds `-Zllvm_module_flag=frame-pointer…` to FRAME_POINTER builds (gated by rustc).
    #[serde(default)]
    pub frame_pointer_extra: Vec<Gated<Vec<String>>>,
    /// DWARF version and debuginfo compression flags (Makefile.debug).
    #[serde(default)]
    pub debuginfo_extras: bool,
    /// LD_DEAD_CODE_DATA_ELIMINATION gives built-in objects `-Zfunction-sections=y`.
    #[serde(default)]
    pub function_sections_kernel: bool,
    /// `--remap-path-prefix` of out-of-tree builds (when rustc takes `--remap-path-scope`).
    #[serde(default)]
    pub remap_path_prefix: bool,
    /// The x86 CPU flags: `per-cpu-symbol` (MK8 …, 6.12) or `native-or-generic` (7.3); one
    /// of [`X86_CPU`], asked by the arch descriptions' `layout_x86_cpu` gates.
    pub x86_cpu: String,
}

/// How the target reaches rustc.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetDesc {
    /// `json` (a spec for every arch, 2021) or `builtin` (built-in targets; x86 keeps the
    /// kernel's generated spec).
    pub style: String,
    /// Where the spec is written, relative to the object tree.
    pub spec: String,
    /// The target is passed per rule (`rust_cross_flags`) rather than in KBUILD_RUSTFLAGS, and
    /// the arch Makefiles add no Rust flags (2021).
    #[serde(default)]
    pub per_rule: bool,
    /// The tree's own spec for an arch (`{srcarch}` filled in), relative to the source tree:
    /// when the tree has it, it is written for the rustc at hand instead of rkbuild's (2021's
    /// static `arch/*/rust/target.json`).
    #[serde(default)]
    pub tree_spec: Option<String>,
}

/// A command template: the arguments after a flag base, with placeholders.
///
/// A word that is exactly `{target_flags}` or `{cross_flags}` expands to a list; any other
/// `{name}` inside a word is replaced by a value (see [`template`]).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CmdTemplate {
    /// What comes before the arguments: `rust-flags` (KBUILD_RUSTFLAGS + kernel/module flags +
    /// the rustc_cfg argfile), `rust-common-flags`, or `none`.
    pub base: String,
    /// `rustc` (clippy-driver with `--clippy`), `host-rustc` (never clippy: HOSTRUSTC) or
    /// `rustdoc`.
    #[serde(default = "default_compiler")]
    pub compiler: String,
    /// `--clippy` runs clippy-driver here (`$(RUSTC_OR_CLIPPY)`); false where the rule
    /// names `$(RUSTC)` itself.
    #[serde(default = "yes")]
    pub clippy: bool,
    /// Environment before the program, in order.
    #[serde(default)]
    pub env: Vec<[String; 2]>,
    /// Words before the flag base (`rustc --test $(rust_common_flags) …`).
    #[serde(default)]
    pub pre: Vec<String>,
    /// make patterns removed from the flag base (`--remap-path-scope=%`), as the crate's
    /// `skip_flags` are.
    #[serde(default)]
    pub remove: Vec<String>,
    pub args: Vec<String>,
    /// The step's id (its main output).
    pub id: String,
    pub outputs: Vec<String>,
    /// The depfile the tool writes; empty for none (rustdoc's doctests).
    #[serde(default)]
    pub depfile: String,
    /// Kbuild's quiet tag (`RUSTC L`); with clippy the `RUSTC` part becomes `CLIPPY`.
    pub tag: String,
}

fn default_compiler() -> String {
    "rustc".into()
}

fn yes() -> bool {
    true
}

/// What driver objects get.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriverDesc {
    /// `rust_allowed_features`.
    pub features: String,
    pub cmd: CmdTemplate,
    /// The single-file targets of a driver's source the layout's Kbuild has (none in 2021).
    #[serde(default)]
    pub single: Vec<SingleTarget>,
}

/// A single-file target of a driver's source (`make foo.rsi`): Kbuild's `cmd_rustc_<ext>_rs`,
/// the driver's command with another `--emit`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SingleTarget {
    /// The target's ending: `rsi`, `s`, `ll`.
    pub ext: String,
    /// What stands in the driver command's `{emit}`; `{target}` is the file made.
    pub emit: String,
    /// The compiler's standard output is the target (`-Zunpretty=expanded $< >$@`).
    #[serde(default)]
    pub stdout: bool,
    /// Then `rustfmt --config-path $(srctree)/.rustfmt.toml $@`, where rustfmt is found.
    #[serde(default)]
    pub rustfmt: bool,
}

/// `cmd_bindgen`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BindgenDesc {
    pub args: Vec<String>,
    /// `bindgen_skip_c_flags`: GCC flags libclang does not take, removed from `c_flags` in
    /// GCC builds (make's `filter-out`: `%` matches any run of characters).
    #[serde(default)]
    pub gcc_skip_c_flags: Vec<String>,
    /// `bindgen_extra_c_flags` of GCC builds (`{bindgen_target}` is the arch's clang target).
    #[serde(default)]
    pub gcc_extra_c_flags: Vec<String>,
    /// Arguments of `args` that bindgen no longer takes from a version on, left out then.
    #[serde(default)]
    pub dropped: Vec<DroppedArg>,
}

/// A bindgen argument the layout's rule passes that newer bindgen rejects.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DroppedArg {
    pub arg: String,
    /// The first bindgen version without it.
    pub bindgen_at_least: String,
    /// Why leaving it out changes nothing (or what it changes).
    pub why: String,
}

impl BindgenDesc {
    /// `args` as bindgen `version` takes them (all of them when the version is unknown).
    pub fn args_for(&self, version: Option<&semver::Version>) -> Vec<String> {
        self.args
            .iter()
            .filter(|a| {
                !self.dropped.iter().any(|d| {
                    &d.arg == *a
                        && version.is_some_and(|v| {
                            semver::Version::parse(&d.bindgen_at_least).is_ok_and(|at| *v >= at)
                        })
                })
            })
            .cloned()
            .collect()
    }
}

/// One generated source and the bindgen run that makes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BindgenRun {
    /// The output, relative to the object tree: the step's id.
    pub output: String,
    /// The C input, relative to the source tree.
    pub input: String,
    /// A file of extra bindgen arguments (`rust/bindgen_parameters`), relative to srctree.
    #[serde(default)]
    pub parameters: Option<String>,
    /// `bindgen_target_flags` besides the parameters file.
    #[serde(default)]
    pub flags: Vec<String>,
    /// `bindgen_target_cflags`.
    #[serde(default)]
    pub cflags: Vec<String>,
    /// The depfile clang writes; none when the rule passes no depfile flag.
    #[serde(default)]
    pub depfile: Option<String>,
    #[serde(default)]
    pub post: Vec<String>,
    #[serde(default)]
    pub when: When,
}

/// `cmd_objtool` of scripts/Makefile.lib and when Makefile.build runs it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjtoolDesc {
    /// Relative to the object tree.
    pub program: String,
    /// `objtool-args-$(CONFIG_…)`, in order; `{CONFIG_X}` is the symbol's value.
    pub args: Vec<Gated<Vec<String>>>,
    /// `delay-objtool`: with any of these on, objects are checked at link time except
    /// single-file modules, which get `--link`.
    pub delay: Vec<String>,
}

/// A file of `rust/` made by the kernel's C compiler with the kernel's C flags.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CRun {
    /// Relative to the object tree: the step's id.
    pub output: String,
    /// Relative to the source tree (to the object tree when `generated`).
    pub input: String,
    /// The input is made in the object tree, and the command spells it so.
    #[serde(default)]
    pub generated: bool,
    /// The arguments after the compiler: `{depfile_flag}`, `{c_flags}`, `{input}` …
    pub args: Vec<String>,
    pub depfile: String,
    /// `CFLAGS_REMOVE_<obj>`.
    #[serde(default)]
    pub remove_flags: Vec<String>,
    /// A kernel object (`obj-y`): it gets the per-object sanitizer and profiling flags of
    /// Makefile.lib ([`Layout::kernel_object_c_flags`]).
    #[serde(default)]
    pub kernel_object: bool,
    /// The output is the compiler's standard output, kept after the `// Cut here.` line.
    #[serde(default)]
    pub stdout_cut: bool,
    /// Steps it waits for (the exports headers `exports.c` includes).
    #[serde(default)]
    pub after: Vec<String>,
    pub tag: String,
    #[serde(default)]
    pub when: When,
}

/// The files `make rustfmt` formats: every `*.rs` of the source tree but the pruned folders
/// and the generated files.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FmtDesc {
    /// Folders of the source tree left alone (vendored crates, `rust/alloc`).
    #[serde(default)]
    pub prune: Vec<String>,
    /// Folders of the object tree left alone (`rust/test`).
    #[serde(default)]
    pub objtree_prune: Vec<String>,
    /// Where `generated` marks a file as generated: `path` (anywhere in its path, as
    /// `grep -Fv generated`), `name` (its file name, as `! -name '*generated*'`), or `none`.
    pub skip_generated: String,
}

/// How Kbuild spells and finishes an external module's build (`make M=DIR`). Placeholders:
/// `{extmod}` (the module folder, absolute), `{objtree_abs}`, `{srctree}`, `{file}` (an object
/// of the module's top folder, `foo.o`), `{part}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtmodDesc {
    /// Where the commands run (make's working directory while it compiles).
    pub workdir: String,
    /// How `$(objtree)` is spelled in the commands.
    pub objtree: String,
    /// `$(obj)` of the module's top folder.
    pub obj: String,
    /// The crate root (`$<`) of a top-folder source `{file}`.
    pub src: String,
    /// One line of `modules.order` for module `{file}`.
    pub order_line: String,
    /// One line of `foo.mod` for part `{part}`.
    pub mod_line: String,
    /// `$(src)` of a folder of the module: `{folder}` (`.` for the module's own), `{subpath}`
    /// (empty for the module's own, `/sub` for a subfolder).
    pub c_src: String,
    /// What `./` of the kernel's recorded `-I./…` flags becomes in the module's C commands.
    #[serde(default)]
    pub c_objtree: Option<String>,
    /// Recorded C flags the module's commands lack (`-fmacro-prefix-map`, which the top
    /// Makefile adds only when building out of the source tree).
    #[serde(default)]
    pub c_remove: Vec<String>,
    /// `cmd_ld_multi_m` after the linker: a module of several objects linked into one
    /// (`{ld_flags}`: KBUILD_LDFLAGS as the kernel's vmlinux.o link recorded them; `{obj}`,
    /// `{mod_list}`).
    pub link_args: Vec<String>,
    /// Where make runs modpost and the final link, and its arguments: the compile phase (the
    /// build folder) is given to `-o`, so make takes rkbuild's objects as they are.
    pub make_dir: String,
    pub make_args: Vec<String>,
}

/// How Kbuild compiles a C file of a folder (`cmd_cc_o_c`, c_flags of Makefile.lib), for the
/// C parts of composite Rust modules (`rust_print-y := rust_print_main.o rust_print_events.o`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CPartDesc {
    /// The arguments after the compiler: `{depfile_flag}`, `{c_flags}`, `{modfile_flag}`,
    /// `{out_stem}`, `{modname}`, `{output}`, `{input}` …
    pub args: Vec<String>,
    /// `.foo.o.d` beside the object: `{dir}`, `{out_stem}`.
    pub depfile: String,
    /// Kbuild's `$(src)` of a folder in an `O=` build (`{srctree}/{dir}`).
    pub src: String,
    /// `-DKBUILD_MODFILE=…` (modfile_flags): built-in objects only.
    pub modfile_flag: Vec<String>,
    /// KBUILD_CFLAGS_MODULE of the top Makefile (the arch's additions are the arch's).
    pub module_c_flags: Vec<String>,
    /// The folder variable that turns [`Layout::kernel_object_c_flags`] off for a folder
    /// (`UBSAN_SANITIZE := n`) or, with `_<stem>.o`, for one object.
    pub sanitize_var: String,
    /// Symbols whose per-object flags are not data yet: with one of them set, C parts are not
    /// compiled (and the plan says why).
    #[serde(default)]
    pub refuse_config: Vec<String>,
    /// A composite's C parts are compiled when it has at most this many per Rust part: a Rust
    /// module with a C helper file, not a C subsystem with one Rust file (drm).
    pub max_c_per_rust: usize,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportsDesc {
    /// `nm` symbol letters exported (`TRDB`).
    pub letters: String,
    /// Names containing these are skipped (`__cfi`).
    #[serde(default)]
    pub skip: Vec<String>,
    /// `[object, header]` pairs, relative to the object tree.
    pub headers: Vec<[String; 2]>,
}

/// `make rusttest` (rust/Makefile): host libraries for the tests (`rusttestlib-*`), each test
/// crate compiled with `--test` and run, and its doctests (`rusttest-*`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RusttestDesc {
    /// `cmd_rustc_test_library`; `{crate_type}` and `{lib_file}` are the crate's.
    pub library: CmdTemplate,
    /// The compile half of `cmd_rustc_test`.
    pub test: CmdTemplate,
    /// Its run half: the test binary and `$(rustc_test_run_flags)`, in the object tree.
    pub run: Vec<String>,
    /// `cmd_rustdoc_test`; `{doctest_flags}` is the crate's `rustdoc_test_target_flags`.
    pub doctest: CmdTemplate,
    /// The libraries, then the tests in the order `rusttest:` lists them.
    #[serde(rename = "crate")]
    pub crates: Vec<TestCrate>,
}

/// `make rustdoc` (rust/Makefile): `cmd_rustdoc` for each documented crate, then the
/// retouching of the HTML (the kernel's logo, links into the source tree).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RustdocDesc {
    /// Where the HTML goes, relative to the object tree (`rustdoc_output`).
    pub output: String,
    /// `$(rustdoc_modifiers_workaround)`, gated by the rustc version (`{modifiers}`).
    #[serde(default)]
    pub modifiers: Vec<Gated<Vec<String>>>,
    /// `cmd_rustdoc` for a target crate, and for a host one (`rustdoc_host`).
    pub target: CmdTemplate,
    pub host: CmdTemplate,
    pub retouch: RetouchDesc,
    /// The crates, in the order `rustdoc:` and its prerequisites list them.
    #[serde(rename = "crate")]
    pub crates: Vec<DocCrate>,
}

/// What the `rustdoc` target does to rustdoc's output once the crates are documented.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetouchDesc {
    /// Files of the source tree copied into `static.files/`.
    pub copy: Vec<String>,
    /// `sed -E` replacements in every HTML file: a regular expression and what replaces it
    /// (`$1` for a group; `{srctree_real}` is the source tree's real path).
    pub replace: Vec<[String; 2]>,
    /// The line appended to rustdoc's CSS (`static.files/rustdoc-*.css`).
    pub css_line: String,
    /// Warn about `srctree/` links to files the source tree lacks.
    #[serde(default)]
    pub check_srctree_links: bool,
}

/// The kernel crate's doctests as KUnit tests (rust/Makefile's `cmd_rustdoc_test_kernel`):
/// rustdoc saves each doctest through the kernel's test builder, the kernel's generator turns
/// them into one Rust file and one C file, which are compiled into the kernel.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoctestsDesc {
    /// The symbols that turn them on (all must be set).
    pub config: Vec<String>,
    /// The folder rustdoc saves the tests in, emptied first.
    pub clean: String,
    /// `$(doctests_modifiers_workaround)`, gated by rustc version (`{modifiers}`).
    #[serde(default)]
    pub modifiers: Vec<Gated<Vec<String>>>,
    /// The rustdoc run; its outputs are the generator's.
    pub cmd: CmdTemplate,
    /// rustdoc's standard output goes to /dev/null unless V=1 (`$(rustdoc_test_kernel_quiet)`).
    #[serde(default)]
    pub quiet_stdout: bool,
    /// The generator, run in the object tree after rustdoc (`scripts/rustdoc_test_gen`),
    /// with the environment make exports to it (`srctree`).
    pub generator: String,
    #[serde(default)]
    pub generator_env: Vec<[String; 2]>,
    /// Programs of the object tree the run uses (the test builder, the generator).
    pub tools: Vec<String>,
    /// Steps first (the kernel crate).
    pub after: Vec<String>,
    /// The depfile of the kernel crate's compile: what rustdoc reads.
    pub sources: String,
    /// The Rust object compiled from the generated file with the driver rule, and its
    /// module name (`RUST_MODFILE`).
    pub object: String,
    pub modfile: String,
}

/// A crate `make rustdoc` documents.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocCrate {
    pub name: String,
    pub root: String,
    /// Documented as a host crate (`rustdoc_host`: the common flags, no sysroot override).
    #[serde(default)]
    pub host: bool,
    /// `rustc_target_flags`.
    #[serde(default)]
    pub flags: Vec<Word>,
    #[serde(default)]
    pub skip_flags: Vec<String>,
    /// `rustc_target_envs`.
    #[serde(default)]
    pub env: Vec<[String; 2]>,
    /// Steps first: the other crates' documentation (as make orders them) and the built
    /// crates rustdoc reads (their metadata).
    #[serde(default)]
    pub after: Vec<String>,
    /// The depfile of this crate's compile: rustdoc reads the same sources, so the
    /// documentation is rebuilt when one of them changes (rustdoc of these rustcs writes no
    /// depfile of its own).
    pub sources: String,
}

/// A crate of `make rusttest`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestCrate {
    pub name: String,
    /// `rlib` or `proc-macro` (a `rusttestlib-*` library), or `test` (a `rusttest-*` target).
    pub kind: String,
    pub root: String,
    /// `rustc_target_flags`.
    #[serde(default)]
    pub flags: Vec<Word>,
    #[serde(default)]
    pub skip_flags: Vec<String>,
    /// `rustc_target_envs`.
    #[serde(default)]
    pub env: Vec<[String; 2]>,
    /// The make prerequisites: step ids of the test libraries and of the main build.
    #[serde(default)]
    pub after: Vec<String>,
    /// Its doctests run too (`cmd_rustdoc_test`), with these `rustdoc_test_target_flags`.
    #[serde(default)]
    pub doctest: Option<Vec<String>>,
}

/// One crate of `rust/`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrateDesc {
    pub name: String,
    /// `library` (a target object), `proc-macro` or `host-library` (an rlib for proc macros).
    pub kind: String,
    /// The crate root, as written in the command (`{srctree}/rust/ffi.rs`).
    pub root: String,
    /// `rustc_target_flags`: `--extern`s, cfgs, edition, lints; gated groups allowed.
    #[serde(default)]
    pub flags: Vec<Word>,
    /// `skip_flags`: removed from the flag base.
    #[serde(default)]
    pub skip_flags: Vec<String>,
    /// Never linted (`skip_clippy`).
    #[serde(default)]
    pub skip_clippy: bool,
    /// `rustc_target_envs`, before the template's env.
    #[serde(default)]
    pub env: Vec<[String; 2]>,
    /// Steps that must finish first besides the `--extern`s (`rust/core.o`, generated files).
    #[serde(default)]
    pub after: Vec<String>,
    /// Post-steps on the object: `redirect-intrinsics`, `weaken-symbols`.
    #[serde(default)]
    pub post: Vec<String>,
    /// Linked only when build-time assertions are allowed (build_error).
    #[serde(default)]
    pub linked_if_build_assert_allows: bool,
    /// Every step of the crate gets the `CheckBuildError` post-step (the kernel crate).
    #[serde(default)]
    pub check_build_error: bool,
    #[serde(default)]
    pub when: When,
}

/// A word of a crate's flags, or a group of words under a gate.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Word {
    Plain(String),
    Gated(Gated<Vec<String>>),
}

/// What `rust-project.json` lists for the tree (generate_rust_analyzer.py's table).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzerDesc {
    /// `is_proc_macro`: `always` (false on other crates, 6.12) or `only-true` (7.3).
    pub proc_macro_key: String,
    /// The sysroot crates listed first (none when the file names `sysroot_src` only).
    #[serde(default)]
    pub sysroot_crates: Vec<String>,
    /// Drivers are found from `Makefile` text only (2021) rather than Makefile and Kbuild.
    #[serde(default)]
    pub makefile_only: bool,
    /// The crates after the sysroot ones, in the script's order.
    #[serde(rename = "crate")]
    pub crates: Vec<AnalyzerCrate>,
    /// What each driver depends on.
    pub driver_deps: Vec<String>,
    /// The edition of crates that do not say (and of the sysroot crates when `core_edition`
    /// is not read from rust/Makefile).
    pub edition: String,
    /// Per-crate cfgs and envs are read from rust/Makefile's `<crate>-cfgs`/`-envs`.
    #[serde(default)]
    pub crate_cfgs_from_makefile: bool,
    /// The env of crates that include generated files (`{objtree}` is the object tree).
    #[serde(default)]
    pub generated_env: Vec<[String; 2]>,
    /// Host programs under scripts/ are listed (`<stem>-rust` in scripts/Makefile).
    #[serde(default)]
    pub host_programs: bool,
    /// How a driver is named: `stem` (its file) or `rustc` (`rustc --print crate-name`).
    pub driver_name: String,
    /// Crate attributes drivers are compiled with (`-Zcrate-attr`).
    #[serde(default)]
    pub driver_crate_attrs: Vec<String>,
    /// The file names the library by `sysroot` (and lists its crates) or by `sysroot_src`.
    pub sysroot_key: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzerCrate {
    pub name: String,
    /// Relative to the source tree.
    pub root: String,
    pub deps: Vec<String>,
    /// `lib`, `proc-macro`, or `generated` (includes files from objtree/rust).
    pub kind: String,
    #[serde(default)]
    pub edition: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum LayoutError {
    #[error("{file}: {message}\n  fix: see docs/build.md (kernel layouts)")]
    Parse { file: String, message: String },
    #[error("{file}: {message}")]
    Invalid { file: String, message: String },
    #[error("unknown kernel vintage `{0}`\n  fix: use --kbuild with one of: {1} (or a layout description file, `*.toml`)")]
    Unknown(String, String),
}

/// Where a configuration's symbols come from, and whether one is set.
pub type Symbols<'a> = (&'a str, &'a dyn Fn(&str) -> bool);

/// The named sections of `KBUILD_RUSTFLAGS` a layout may list in `flags.sequence` (each one
/// is defined in `flags`).
pub const FLAG_SECTIONS: &[&str] = &[
    "common",
    "base",
    "common-per-version",
    "arch",
    "opt-level",
    "debug-assertions",
    "overflow-checks",
    "werror",
    "frame-pointer",
    "shadow-call-stack",
    "cfi",
    "remap-path-prefix",
    "debuginfo",
    "krustflags",
];

/// The answers a layout's `flags.x86_cpu` may give.
pub const X86_CPU: &[&str] = &["per-cpu-symbol", "native-or-generic", "none"];

/// A settled vintage and how it was settled.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub layout: &'static Layout,
    pub source: String,
    /// Nothing told: the newest layout was taken.
    pub guessed: bool,
}

/// How much of [`Layout::check`] a description gets: a built-in one skips compiling its
/// regular expressions (a twentieth of a no-op build; the unit tests compile them).
#[derive(Clone, Copy)]
enum Checks {
    All,
    Builtin,
}

/// The layouts rkbuild knows, embedded from `templates/kbuild/`.
const BUILTIN: &[(&str, &str)] = &[
    (
        "templates/kbuild/2021.toml",
        include_str!("../../templates/kbuild/2021.toml"),
    ),
    (
        "templates/kbuild/6.12.toml",
        include_str!("../../templates/kbuild/6.12.toml"),
    ),
    (
        "templates/kbuild/7.3.toml",
        include_str!("../../templates/kbuild/7.3.toml"),
    ),
];

/// The JSON form `build.rs` made of a built-in layout's TOML.
fn json_of(file: &str) -> &'static str {
    crate::builtin::json(file).unwrap_or_else(|| panic!("{file}: no JSON form was built"))
}

/// What telling the built-in layouts apart needs: the name and `[detect]` of each. The whole
/// description is read only for the layout a run takes: reading them all was a tenth of a
/// no-op build.
#[derive(Deserialize)]
struct Head {
    name: String,
    detect: Detect,
    #[serde(skip)]
    at: usize,
}

/// The built-in layouts' heads, newest first.
fn heads() -> &'static [Head] {
    static HEADS: OnceLock<Vec<Head>> = OnceLock::new();
    HEADS.get_or_init(|| {
        let mut v: Vec<Head> = BUILTIN
            .iter()
            .enumerate()
            .map(|(at, (file, _))| {
                let mut h: Head =
                    serde_json::from_str(json_of(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
                h.at = at;
                h
            })
            .collect();
        v.sort_by_key(|h| std::cmp::Reverse(h.detect.order));
        v
    })
}

impl Head {
    /// The whole description, parsed on first use.
    fn layout(&self) -> &'static Layout {
        static PARSED: [OnceLock<Layout>; BUILTIN.len()] =
            [const { OnceLock::new() }; BUILTIN.len()];
        PARSED[self.at].get_or_init(|| {
            let file = BUILTIN[self.at].0;
            let l: Layout = serde_json::from_str(json_of(file))
                .unwrap_or_else(|e| panic!("{file} (its JSON form): {e}"));
            l.check(file, Checks::Builtin)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(l.name, self.name, "{file}: the head and the whole differ");
            l
        })
    }
}

impl Layout {
    /// Parses and checks a description.
    pub fn parse(file: &str, text: &str) -> Result<Layout, LayoutError> {
        let l: Layout = toml::from_str(text).map_err(|e| LayoutError::Parse {
            file: file.to_string(),
            message: e.to_string(),
        })?;
        l.check(file, Checks::All)?;
        Ok(l)
    }

    /// Loads a description from a file; it lives for the rest of the run.
    pub fn load(path: &Path) -> anyhow::Result<&'static Layout> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read `{}`: {e}", path.display()))?;
        Ok(Box::leak(Box::new(Layout::parse(
            &path.display().to_string(),
            &text,
        )?)))
    }

    /// The built-in layouts, newest first.
    pub fn all() -> impl Iterator<Item = &'static Layout> {
        heads().iter().map(|h| h.layout())
    }

    /// A built-in layout by name (`--kbuild 6.12`).
    pub fn named(name: &str) -> Result<&'static Layout, LayoutError> {
        heads()
            .iter()
            .find(|h| h.name == name)
            .map(Head::layout)
            .ok_or_else(|| {
                let mut names: Vec<&str> = heads().iter().map(|h| h.name.as_str()).collect();
                names.reverse();
                LayoutError::Unknown(name.to_string(), names.join(", "))
            })
    }

    /// A built-in layout whose name is known when the code is written (tests, defaults).
    pub fn builtin(name: &str) -> &'static Layout {
        Layout::named(name).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The newest built-in layout.
    pub fn newest() -> &'static Layout {
        heads()[0].layout()
    }

    /// The layout whose markers a source tree holds.
    pub fn detect_tree(srctree: &Path) -> Option<&'static Layout> {
        heads()
            .iter()
            .find(|h| h.detect.tree.iter().any(|p| srctree.join(p).exists()))
            .map(Head::layout)
    }

    /// The layout a configuration's symbols tell (`present("RUSTC_LLVM_MAJOR_VERSION")`).
    pub fn detect_symbols(present: impl Fn(&str) -> bool) -> Option<&'static Layout> {
        heads()
            .iter()
            .find(|h| h.detect.symbols.iter().any(|s| present(s)))
            .map(Head::layout)
    }

    /// The one place a run's vintage is settled: `--kbuild` (a name, or a description file
    /// `*.toml`), else the source tree's markers, else the configuration's symbols, else the
    /// newest layout, marked as a guess. `symbols` names where the symbols came from.
    pub fn resolve(
        kbuild: Option<&str>,
        srctree: Option<&Path>,
        symbols: Option<Symbols>,
    ) -> anyhow::Result<Resolved> {
        if let Some(k) = kbuild {
            let layout = if k.ends_with(".toml") {
                Layout::load(Path::new(k))?
            } else {
                Layout::named(k)?
            };
            return Ok(Resolved {
                layout,
                source: "--kbuild".into(),
                guessed: false,
            });
        }
        if let Some(s) = srctree {
            if let Some(layout) = Layout::detect_tree(s) {
                return Ok(Resolved {
                    layout,
                    source: format!("the layout of {}", s.display()),
                    guessed: false,
                });
            }
        }
        if let Some((from, present)) = symbols {
            if let Some(layout) = Layout::detect_symbols(present) {
                return Ok(Resolved {
                    layout,
                    source: format!("the symbols in {from}"),
                    guessed: false,
                });
            }
        }
        Ok(Resolved {
            layout: Layout::newest(),
            source: "default (no tree to look at and no telling symbol; pass --kbuild)".into(),
            guessed: true,
        })
    }

    /// The entry of a crate whose gate holds (a crate may have two, one per tree shape).
    pub fn crate_named(&self, name: &str, facts: &dyn Facts) -> Option<&CrateDesc> {
        self.crates
            .iter()
            .find(|c| c.name == name && c.when.holds(facts))
    }

    /// The value of a gated variable for these facts.
    pub fn var(&self, name: &str, facts: &dyn Facts) -> Option<String> {
        self.vars
            .get(name)?
            .iter()
            .find(|g| g.when.holds(facts))
            .map(|g| g.value.clone())
    }

    /// The values of every variable for these facts.
    pub fn vars_for(&self, facts: &dyn Facts) -> Vars {
        let mut v = Vars::new();
        for name in self.vars.keys() {
            if let Some(x) = self.var(name, facts) {
                v.set(name, x);
            }
        }
        v
    }

    /// The intrinsics redirected for these facts.
    pub fn redirected_intrinsics(&self, facts: &dyn Facts) -> Vec<String> {
        words_holding(&self.intrinsics, facts)
    }

    /// The minimum tool versions for an arch (its SRCARCH).
    pub fn minimums_for(&self, srcarch: &str) -> (String, String, String) {
        let m = &self.minimums;
        let a = m.arch.get(srcarch).cloned().unwrap_or_default();
        (
            a.rustc.unwrap_or_else(|| m.rustc.clone()),
            m.bindgen.clone(),
            a.llvm.unwrap_or_else(|| m.llvm.clone()),
        )
    }

    pub fn uses_json_targets(&self) -> bool {
        self.target.style == "json"
    }

    /// [`Layout::exported_env`] for a source tree.
    pub fn exported_env(&self, srctree: &str) -> Vec<(String, String)> {
        self.exported_env
            .iter()
            .map(|[k, v]| (k.clone(), v.replace("{srctree}", srctree)))
            .collect()
    }

    /// Which sections make up KBUILD_RUSTFLAGS, in order.
    pub fn has_section(&self, name: &str) -> bool {
        self.flags.sequence.iter().any(|s| s == name)
    }

    fn check(&self, file: &str, checks: Checks) -> Result<(), LayoutError> {
        let bad = |message: String| LayoutError::Invalid {
            file: file.to_string(),
            message,
        };
        let one_of = |what: &str, v: &str, allowed: &[&str]| {
            if allowed.contains(&v) {
                Ok(())
            } else {
                Err(bad(format!(
                    "{what} = \"{v}\" is not one of {}",
                    allowed.join(", ")
                )))
            }
        };
        one_of(
            "flags.opt_level",
            &self.flags.opt_level,
            &["c", "rust-choice"],
        )?;
        if let Some(f) = &self.fmt {
            one_of(
                "fmt.skip_generated",
                &f.skip_generated,
                &["path", "name", "none"],
            )?;
        }
        one_of(
            "flags.build_assert",
            &self.flags.build_assert,
            &["bool", "choice"],
        )?;
        one_of("flags.x86_cpu", &self.flags.x86_cpu, X86_CPU)?;
        one_of("target.style", &self.target.style, &["json", "builtin"])?;
        one_of(
            "analyzer.proc_macro_key",
            &self.analyzer.proc_macro_key,
            &["always", "only-true"],
        )?;
        for s in &self.flags.sequence {
            one_of("a flags.sequence entry", s, FLAG_SECTIONS)?;
        }
        let mut templates = vec![
            ("library", &self.library),
            ("proc_macro", &self.proc_macro),
            ("driver.cmd", &self.driver.cmd),
        ];
        if let Some(h) = &self.host_library {
            templates.push(("host_library", h));
        }
        if let Some(d) = &self.rustdoc {
            templates.push(("rustdoc.target", &d.target));
            templates.push(("rustdoc.host", &d.host));
            let patterns = match checks {
                Checks::All => &d.retouch.replace[..],
                Checks::Builtin => &[],
            };
            for [re, _] in patterns {
                regex::Regex::new(re)
                    .map_err(|e| bad(format!("rustdoc.retouch.replace `{re}`: {e}")))?;
            }
        }
        if let Some(r) = &self.rusttest {
            templates.push(("rusttest.library", &r.library));
            templates.push(("rusttest.test", &r.test));
            templates.push(("rusttest.doctest", &r.doctest));
            for c in &r.crates {
                one_of(
                    &format!("rusttest crate `{}` kind", c.name),
                    &c.kind,
                    &["rlib", "proc-macro", "test"],
                )?;
            }
        }
        for (what, t) in templates {
            one_of(
                &format!("{what}.base"),
                &t.base,
                &["rust-flags", "rust-common-flags", "none"],
            )?;
            one_of(
                &format!("{what}.compiler"),
                &t.compiler,
                &["rustc", "host-rustc", "rustdoc"],
            )?;
        }
        let mut names = std::collections::HashSet::new();
        for c in &self.crates {
            // Two entries of one crate are alternatives only when one says the tree has a file
            // and the other that it has not: exactly one of them holds in any tree.
            let alternative = |o: &CrateDesc| {
                let (a, b) = (&c.when, &o.when);
                (a.exists.is_some() && a.exists == b.missing)
                    || (a.missing.is_some() && a.missing == b.exists)
            };
            let twins = self.crates.iter().filter(|o| o.name == c.name).count();
            let paired = twins == 2
                && self
                    .crates
                    .iter()
                    .any(|o| o.name == c.name && !std::ptr::eq(o, c) && alternative(o));
            if !names.insert(c.name.as_str()) && !paired {
                return Err(bad(format!("crate `{}` is listed twice", c.name)));
            }
            one_of(
                &format!("crate `{}` kind", c.name),
                &c.kind,
                &["library", "proc-macro", "host-library"],
            )?;
            if c.kind == "host-library" && self.host_library.is_none() {
                return Err(bad(format!(
                    "crate `{}` is a host-library, but the layout has no [host_library] template",
                    c.name
                )));
            }
            for p in &c.post {
                one_of(
                    &format!("crate `{}` post", c.name),
                    p,
                    &["redirect-intrinsics", "weaken-symbols"],
                )?;
            }
        }
        for r in &self.bindgen_runs {
            for p in &r.post {
                one_of(
                    &format!("bindgen_run `{}` post", r.output),
                    p,
                    &["rename-const-helpers", "link-name-helpers"],
                )?;
            }
        }
        one_of(
            "analyzer.driver_name",
            &self.analyzer.driver_name,
            &["stem", "rustc"],
        )?;
        one_of(
            "analyzer.sysroot_key",
            &self.analyzer.sysroot_key,
            &["sysroot", "sysroot_src"],
        )?;
        for c in &self.analyzer.crates {
            one_of(
                &format!("analyzer crate `{}` kind", c.name),
                &c.kind,
                &["lib", "proc-macro", "generated"],
            )?;
        }
        Ok(())
    }
}

/// A layout shows as its name in reports and plans.
impl serde::Serialize for Layout {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name)
    }
}

impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        self.name == other.name
    }
}

impl std::fmt::Display for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

#[cfg(test)]
mod tests;
