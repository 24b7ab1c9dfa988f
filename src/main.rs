//! The `rkbuild` command line: a thin layer over the library. Parses arguments, calls a
//! command, prints its report.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use rkbuild::commands::{self, doctor, TreeOpts};
use rkbuild::output::{self, Message, MessageFormat, Out};
use rkbuild::toolchain::ToolNames;

#[derive(Parser)]
#[command(
    name = "rkbuild",
    version,
    args_override_self = true,
    about = "Kbuild for the Rust side of the Linux kernel",
    long_about = "Kbuild for the Rust side of the Linux kernel: reads .config and the Rust toolchain, \
writes rustc_cfg, target specs and rustc flags as the kernel does, builds the Rust crates, writes \
rust-project.json, and wraps rustc inside the kernel's own make."
)]
struct Cli {
    /// Print full commands (Kbuild's V=1; also enabled by V=1 in the environment).
    #[arg(short, long, global = true)]
    verbose: bool,
    /// Print only errors and warnings.
    #[arg(short, long, global = true)]
    quiet: bool,
    /// `human` (Kbuild-style lines) or `json` (one object per line).
    #[arg(long, value_enum, default_value_t, global = true)]
    message_format: MessageFormat,
    #[command(subcommand)]
    command: Command,
}

/// `--arch` values: any string (rkbuild's own message names the known ones), with the known
/// spellings offered to shell completion and help.
#[derive(Clone)]
struct ArchValue;

impl clap::builder::TypedValueParser for ArchValue {
    type Value = String;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        Ok(value.to_string_lossy().into_owned())
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            rkbuild::arch::Arch::spellings()
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

#[derive(Subcommand)]
enum Command {
    /// Print a completion script for a shell: `rkbuild completions bash >
    /// /etc/bash_completion.d/rkbuild` (zsh: a `_rkbuild` file on `$fpath`; fish:
    /// `~/.config/fish/completions/rkbuild.fish`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print rkbuild's man page (roff), or with --dir write one page per command there
    /// (rkbuild.1, rkbuild-build.1, ...).
    Man {
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Write include/generated/rustc_cfg, the rustc flag argfiles, rkbuild.mk and the target
    /// spec from .config and the detected toolchain.
    Config {
        #[command(flatten)]
        tree: TreeArgs,
        /// Print every flag with the CONFIG_ symbols or toolchain fact that produced it.
        #[arg(long)]
        explain: bool,
        /// `json` or `builtin` (default: the vintage's own; see `rkbuild target`).
        #[arg(long, value_name = "STYLE")]
        target_style: Option<String>,
    },
    /// Check the Rust toolchain the way `make rustavailable` does, and say how to fix each
    /// problem. Exits 1 if a required tool is missing or too old.
    Doctor {
        #[command(flatten)]
        tree: TreeArgs,
    },
    /// Explain a Kconfig symbol's value from the tree's Kconfig, the .config and the
    /// toolchain: unmet dependencies with the .config lines behind them, selects, defaults,
    /// and the probes behind `$(…)` macros.
    Why {
        /// The symbol (CONFIG_RUST or RUST).
        #[arg(required_unless_present = "all")]
        symbol: Option<String>,
        /// Evaluate every symbol and print what `make olddefconfig` would leave in auto.conf.
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        tree: TreeArgs,
    },
    /// Print the target for an arch/config/rustc (a custom spec, or a built-in target and its
    /// flags); `target check FILE` and `target upgrade FILE` lint and rewrite existing specs.
    #[command(args_conflicts_with_subcommands = true)]
    Target {
        #[command(flatten)]
        args: TargetArgs,
        #[command(subcommand)]
        action: Option<TargetAction>,
    },
    /// Build core, compiler_builtins, macros, the bindings, kernel and the enabled drivers,
    /// in parallel and only what changed (runs `config` first when needed).
    Build {
        #[command(flatten)]
        tree: TreeArgs,
        #[command(flatten)]
        build: BuildArgs,
    },
    /// Rebuild the Rust side of a kernel a distribution ships (its headers lack the Rust
    /// metadata) with the compiler it was built with, into -O, checked against the kernel's
    /// exported symbols; with -M, then build a module against it.
    Distro {
        /// The kernel's headers (default: /lib/modules/$(uname -r)/build).
        #[arg(long, value_name = "DIR")]
        headers: Option<PathBuf>,
        #[command(flatten)]
        tree: TreeArgs,
        #[command(flatten)]
        build: BuildArgs,
    },
    /// Write the HTML documentation of the kernel's crates as `make rustdoc` does (into
    /// OBJTREE/Documentation/output/rust/rustdoc), documenting again only the crates whose
    /// sources changed.
    Doc {
        #[command(flatten)]
        tree: TreeArgs,
        #[command(flatten)]
        steps: StepArgs,
    },
    /// Run the host tests as `make rusttest` does: the test libraries and test binaries are
    /// built (only what changed), then every test and doctest runs; a failing test's exit
    /// status is rkbuild's. `-- ARGS` go to the test binaries (`--nocapture`, a filter).
    Test {
        #[command(flatten)]
        tree: TreeArgs,
        #[command(flatten)]
        steps: StepArgs,
        /// Run clippy-driver where Kbuild does with CLIPPY=1.
        #[arg(long)]
        clippy: bool,
        /// Only these tests (`macros`, `kernel`: the layout's `rusttest-*` targets).
        #[arg(value_name = "NAME")]
        names: Vec<String>,
        /// Arguments for the test binaries, after `--`.
        #[arg(last = true, value_name = "ARGS")]
        args: Vec<String>,
    },
    /// Build several configurations × architectures × compilers, each in its own object tree
    /// under --root, all sharing the step cache; prints a table (and --message-format json a
    /// report).
    Matrix {
        /// Kernel source tree.
        #[arg(long, short = 'S', value_name = "DIR")]
        srctree: PathBuf,
        /// Where the cells' object trees go (ROOT/<config>-<arch>…).
        #[arg(long, value_name = "DIR")]
        root: PathBuf,
        /// A configuration (repeat for more).
        #[arg(long = "config", value_name = "FILE", required = true)]
        configs: Vec<PathBuf>,
        /// An architecture (repeat for more; default: each configuration's own).
        #[arg(long = "arch", value_name = "ARCH", value_parser = ArchValue, hide_possible_values = true)]
        arches: Vec<String>,
        /// A compiler, `PATH` or `PATH=LIBRARY_SOURCE` (repeat for more; default: RUSTC).
        #[arg(long = "rustc", value_name = "RUSTC")]
        rustcs: Vec<String>,
        /// Cells built at once (default: the number of cores).
        #[arg(short, long, value_name = "N")]
        jobs: Option<usize>,
        /// The step cache's folder (default: ~/.cache/rkbuild).
        #[arg(long, value_name = "DIR", env = "RKBUILD_CACHE_DIR")]
        cache_dir: Option<PathBuf>,
        /// A Remote Execution API cache the cells share: grpc://HOST:PORT[/INSTANCE].
        #[arg(long, value_name = "URL", env = "RKBUILD_REMOTE", value_parser = remote_url)]
        remote: Option<String>,
    },
    /// rustfmt over the tree's Rust files, as `make rustfmt`; `--check` as `make rustfmtcheck`.
    Fmt {
        /// Kernel source tree.
        #[arg(long, short = 'S', value_name = "DIR", default_value = ".")]
        srctree: PathBuf,
        /// Object tree (its `rust/test` is left alone, as Kbuild does).
        #[arg(long, short = 'O', value_name = "DIR")]
        objtree: Option<PathBuf>,
        /// Only check: print the diffs and fail when a file is not formatted.
        #[arg(long)]
        check: bool,
        /// The kernel layout (default: detected from the tree).
        #[arg(long, value_name = "NAME|FILE")]
        kbuild: Option<String>,
        /// The rustfmt to run [env: RUSTFMT; default: rustfmt].
        #[arg(long, value_name = "PATH")]
        rustfmt: Option<String>,
    },
    /// Print the crate graph and every step `build` would run.
    Plan {
        #[command(flatten)]
        tree: TreeArgs,
        #[command(flatten)]
        build: BuildArgs,
        /// Print one built step as a complete Remote Execution API action instead: its
        /// command, and an input root with every file it reads, the tool's included.
        #[arg(long, value_name = "STEP")]
        action: Option<String>,
        /// With --action: lay its input root out in DIR, as a remote worker would.
        #[arg(long, value_name = "DIR", requires = "action")]
        materialize: Option<PathBuf>,
        /// With --action and --remote: after uploading the action, ask the server to run it
        /// (REAPI Execution) and wait for its result (RKBUILD_REMOTE_TIMEOUT seconds).
        #[arg(long, requires = "action", requires = "remote")]
        execute: bool,
    },
    /// Write rust-project.json for rust-analyzer: the kernel's crates with the tree's cfgs
    /// (OBJTREE/rust-project.json, as `make rust-analyzer`), or an out-of-tree module's.
    Analyzer {
        #[command(flatten)]
        tree: TreeArgs,
        /// An out-of-tree module folder (Kbuild's M=): writes DIR/rust-project.json with its
        /// crates and the kernel crates they use, from the prepared tree in --objtree.
        #[arg(long, value_name = "DIR")]
        extmod: Option<PathBuf>,
        /// Write here instead.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Build the file from a wrapper log (RKBUILD_LOG): exactly the crates make compiled,
        /// with their real cfgs, editions and externs (default output: OBJTREE/rust-project.json).
        #[arg(long, value_name = "FILE", conflicts_with = "extmod")]
        from_log: Option<PathBuf>,
        /// Exactly the crates `rkbuild plan` builds for this tree and --config, with the cfgs,
        /// editions and crate attributes of their commands (only enabled drivers; modules get
        /// `MODULE`). Runs `config` first, as `plan` does.
        #[arg(long, conflicts_with_all = ["extmod", "from_log"])]
        from_plan: bool,
        /// Hand the Rust library to rust-analyzer as `sysroot_src` rather than listing core,
        /// alloc, std and proc_macro as the kernel's script does: rust-analyzer then knows
        /// core's lang items (str, bool and pointer methods). Always so with --from-plan.
        #[arg(long, conflicts_with = "from_log")]
        sysroot_src: bool,
        /// Analyze with this rustc instead of the kernel's (an editor's rust-analyzer newer
        /// than the kernel's rustc cannot use its proc-macro server): the file names its
        /// sysroot and library, and the tree's proc macros are built again by it, into
        /// .rkbuild-analyzer/ beside the file. Implies --sysroot-src.
        #[arg(long, value_name = "RUSTC", conflicts_with_all = ["from_log", "from_plan"], env = "RKBUILD_ANALYSIS_RUSTC")]
        analysis_rustc: Option<PathBuf>,
        /// The library sources of --analysis-rustc (default: its sysroot's rust-src).
        #[arg(
            long,
            value_name = "DIR",
            requires = "analysis_rustc",
            env = "RKBUILD_ANALYSIS_LIB_SRC"
        )]
        analysis_lib_src: Option<PathBuf>,
    },
    /// Run the real rustc with these arguments, unchanged (a RUSTC for the kernel's make; also
    /// what a link named `rkbuild-rustc` does). RKBUILD_RUSTC: the real compiler; RKBUILD_LOG:
    /// append one JSON line per call; RKBUILD_CLIPPY=1: clippy-driver except for core/alloc.
    #[command(disable_help_flag = true, disable_version_flag = true)]
    Rustc {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<std::ffi::OsString>,
    },
    /// Read a log written by the rustc wrapper (RKBUILD_LOG).
    Log {
        #[command(subcommand)]
        cmd: commands::log::LogCmd,
    },
}

#[derive(Args, Clone, Debug)]
struct TargetArgs {
    /// Architecture (x86_64, x86, arm64, arm, riscv64, riscv32, powerpc64le, loongarch64, ...);
    /// default: from --config.
    #[arg(long, value_parser = ArchValue, hide_possible_values = true)]
    arch: Option<String>,
    /// The kernel configuration (.config or auto.conf).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The Rust compiler [env: RUSTC].
    #[arg(long, value_name = "PATH")]
    rustc: Option<String>,
    /// Kernel vintage (2021, 6.12, 7.3); default: from the config's symbols, else 7.3.
    #[arg(long, value_name = "VINTAGE")]
    kbuild: Option<String>,
    /// `json` (a custom spec for every arch) or `builtin` (upstream: built-in targets + flags);
    /// default: the vintage's own.
    #[arg(long, value_name = "STYLE")]
    target_style: Option<String>,
}

#[derive(Subcommand, Clone, Debug)]
enum TargetAction {
    /// Say whether the detected rustc accepts a spec cleanly, and why not. Exits 1 if not.
    Check {
        file: PathBuf,
        /// The Rust compiler [env: RUSTC].
        #[arg(long, value_name = "PATH")]
        rustc: Option<String>,
    },
    /// Rewrite a spec for the detected rustc (in place, or to --output), listing every change.
    Upgrade {
        file: PathBuf,
        /// The Rust compiler [env: RUSTC].
        #[arg(long, value_name = "PATH")]
        rustc: Option<String>,
        /// Write the upgraded spec here instead of over FILE.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Only list the changes.
        #[arg(long)]
        dry_run: bool,
    },
}

/// How steps run: of `build`, `plan`, `doc` and `test`.
#[derive(Args, Clone, Debug)]
struct StepArgs {
    /// Steps run at the same time (default: the number of cores).
    #[arg(short, long, value_name = "N")]
    jobs: Option<usize>,
    /// The host C compiler proc macros are linked with [env: HOSTCC; default: cc].
    #[arg(long, value_name = "CC")]
    hostcc: Option<String>,
}

/// Options of `build` and `plan`.
#[derive(Args, Clone, Debug)]
struct BuildArgs {
    #[command(flatten)]
    steps: StepArgs,
    /// Run clippy-driver instead of rustc on every crate but core (as `make CLIPPY=1`).
    #[arg(long)]
    clippy: bool,
    /// An external module folder (Kbuild's M=): build its Rust objects against the kernel in
    /// --objtree, then its .ko through the kernel's modpost and link.
    #[arg(short = 'M', long, value_name = "DIR")]
    extmod: Option<PathBuf>,
    /// After building, link the tree's modules (.ko) through the kernel's modpost and link
    /// steps, over rkbuild's objects (the kernel itself must be built).
    #[arg(long, conflicts_with = "extmod")]
    modules: bool,
    /// Keep every step's outputs in the content-addressed cache, and take them from there
    /// when another build (any object tree) already made them (default folder:
    /// ~/.cache/rkbuild).
    #[arg(long)]
    cache: bool,
    /// The cache's folder (turns the cache on).
    #[arg(long, value_name = "DIR", env = "RKBUILD_CACHE_DIR")]
    cache_dir: Option<PathBuf>,
    /// Share the step cache through a Remote Execution API server (ActionCache + CAS):
    /// grpc://HOST:PORT[/INSTANCE]. Turns the local cache on too.
    #[arg(long, value_name = "URL", env = "RKBUILD_REMOTE", value_parser = remote_url)]
    remote: Option<String>,
    /// Only these and what they need: a step's output (rust/kernel.o), or a single-file
    /// target of a driver as Kbuild's (samples/rust/rust_minimal.rsi: macros expanded and
    /// formatted; .s: assembly; .ll: LLVM IR).
    #[arg(value_name = "TARGET")]
    targets: Vec<String>,
    /// When another rkbuild is building the same object tree, fail at once instead of
    /// waiting for it.
    #[arg(long)]
    no_wait: bool,
    /// Write where the time went: OBJTREE/rkbuild-timings.html (one bar per step, the
    /// critical path, cache hits) and the same data as rkbuild-timings.json.
    #[arg(long)]
    timings: bool,
    /// Start each crate only when the crates it uses are done, as make does, not as soon as
    /// their metadata is written (pipelining adds `--error-format=json --json=artifacts` to
    /// the commands of the crates others start from).
    #[arg(long)]
    no_pipeline: bool,
}

/// A REAPI URL, checked before anything is written.
fn remote_url(s: &str) -> Result<String, String> {
    rkbuild::cache::remote::Url::parse(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

impl BuildArgs {
    fn opts(self, tree: TreeArgs) -> commands::build::BuildOpts {
        commands::build::BuildOpts {
            tree: tree.into(),
            jobs: self.steps.jobs,
            clippy: self.clippy,
            hostcc: self.steps.hostcc,
            prepare_c: false,
            extmod: self.extmod,
            modules: self.modules,
            cache: self.cache_dir.or_else(|| {
                (self.cache || self.remote.is_some()).then(rkbuild::cache::Cache::default_dir)
            }),
            remote: self.remote,
            targets: self.targets,
            no_wait: self.no_wait,
            rusttest: false,
            rustdoc: false,
            timings: self.timings,
            no_pipeline: self.no_pipeline,
        }
    }
}

/// Where the kernel is, its configuration, and the tools to use.
#[derive(Args, Clone, Debug)]
struct TreeArgs {
    /// Kernel source tree (Kbuild's srctree).
    #[arg(long, short = 'S', value_name = "DIR")]
    srctree: Option<PathBuf>,
    /// Object tree, where generated files go (Kbuild's O=; defaults to the source tree, else .).
    #[arg(long, short = 'O', value_name = "DIR")]
    objtree: Option<PathBuf>,
    /// The kernel configuration (default: OBJTREE/.config).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Architecture (x86_64, arm64, arm, riscv64, riscv32, powerpc64le, loongarch64, ...);
    /// default: from the configuration.
    #[arg(long, value_parser = ArchValue, hide_possible_values = true)]
    arch: Option<String>,
    /// Force the kernel vintage (2021, 6.12 or 7.3) instead of detecting it from the tree.
    #[arg(long, value_name = "VINTAGE")]
    kbuild: Option<String>,
    /// The Rust compiler [env: RUSTC].
    #[arg(long, value_name = "PATH")]
    rustc: Option<String>,
    /// The bindings generator [env: BINDGEN].
    #[arg(long, value_name = "PATH")]
    bindgen: Option<String>,
    /// clippy-driver [env: CLIPPY_DRIVER].
    #[arg(long, value_name = "PATH")]
    clippy_driver: Option<String>,
    /// rustdoc [env: RUSTDOC].
    #[arg(long, value_name = "PATH")]
    rustdoc: Option<String>,
    /// rustfmt [env: RUSTFMT].
    #[arg(long, value_name = "PATH")]
    rustfmt: Option<String>,
    /// The `core`/`alloc` library source [env: RUST_LIB_SRC].
    #[arg(long, value_name = "DIR")]
    rust_lib_src: Option<PathBuf>,
    /// Extra rustc flags, appended last [env: KRUSTFLAGS].
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    krustflags: Option<String>,
}

impl From<TreeArgs> for TreeOpts {
    fn from(a: TreeArgs) -> TreeOpts {
        TreeOpts {
            srctree: a.srctree,
            objtree: a.objtree,
            config: a.config,
            arch: a.arch,
            kbuild: a.kbuild,
            tools: ToolNames {
                rustc: a.rustc,
                bindgen: a.bindgen,
                clippy_driver: a.clippy_driver,
                rustdoc: a.rustdoc,
                rustfmt: a.rustfmt,
                rust_lib_src: a.rust_lib_src,
                from_file: vec![],
            },
            krustflags: a.krustflags,
        }
    }
}

/// mimalloc rather than glibc's malloc: Kconfig work allocates and frees millions of small
/// strings and expression nodes, and with glibc a third of a two-thread parse went to growing
/// thread heaps and a tenth of a warm `why --all` to freeing. mimalloc took 25-35% off the
/// CPU time of both (see docs/kconfig.md). Without transparent huge pages (`no_thp`): right
/// after another program (make, conf) had churned memory, the first touch of each huge page
/// cost a no-op 6.12 build 31-68 ms of CPU instead of 20-26, and `config` 14-39 ms instead of
/// 5-8. The wrapper's fast path, rkbuild-rustc, does not link it.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    rkbuild::process::default_sigpipe();
    // The wrapper must see its arguments untouched (`-vV`, `--print`...): dispatch before clap.
    let mut argv = std::env::args_os();
    let argv0 = argv.next().unwrap_or_default();
    if rkbuild::wrapper::invoked_as_wrapper(&argv0) {
        commands::rustc::exit(argv.collect());
    }
    if argv.next().is_some_and(|a| a == "rustc") {
        let rest: Vec<_> = argv.collect();
        commands::rustc::exit(commands::rustc::strip_separator(rest));
    }
    rkbuild::process::init_jobserver();
    let cli = Cli::parse();
    let out = Out {
        verbose: cli.verbose || std::env::var("V").is_ok_and(|v| v == "1"),
        quiet: cli.quiet,
        format: cli.message_format,
    };
    match run(cli.command, out) {
        Ok(code) => code,
        Err(e) => {
            out.say(Message::error(&e));
            ExitCode::from(2)
        }
    }
}

/// The last line of a run: what was built, fresh or cached, and how long it took.
fn say_finished(out: Out, summary: &rkbuild::exec::Summary) {
    out.say(Message::Finished {
        built: summary.built,
        fresh: summary.fresh,
        cached: summary.cached,
        wall_ms: summary.wall_ms,
        sum_ms: summary.sum_ms,
        critical_path_ms: summary.critical_path_ms,
    });
}

fn run(cmd: Command, out: Out) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Completions { shell } => {
            use clap::CommandFactory as _;
            let mut c = Cli::command();
            clap_complete::generate(shell, &mut c, "rkbuild", &mut std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Command::Man { dir } => {
            use clap::CommandFactory as _;
            let c = Cli::command();
            match dir {
                None => clap_mangen::Man::new(c).render(&mut std::io::stdout())?,
                Some(d) => {
                    std::fs::create_dir_all(&d)?;
                    clap_mangen::generate_to(c, &d).map_err(|e| {
                        anyhow::anyhow!("cannot write the man pages in `{}`: {e}", d.display())
                    })?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Config {
            tree,
            explain,
            target_style,
        } => {
            let report = commands::config::run_styled(&tree.into(), target_style.as_deref())?;
            for w in &report.warnings {
                out.say(Message::Warning { text: w, at: None });
            }
            if out.json() {
                out.message(&serde_json::json!({"reason": "config", "report": report}));
                return Ok(ExitCode::SUCCESS);
            }
            for f in &report.files {
                match f.status {
                    rkbuild::fsutil::WriteOutcome::Unchanged => {
                        if out.verbose {
                            out.say(Message::Status {
                                tag: "SKIP",
                                subject: &format!("{} (unchanged)", f.path.display()),
                            })
                        }
                    }
                    _ => out.say(Message::Status {
                        tag: "UPD",
                        subject: &f.path.display().to_string(),
                    }),
                }
            }
            if explain {
                println!(
                    "kernel {} ({}), arch {}, {}",
                    report.vintage, report.vintage_source, report.arch, report.rustc.version_text
                );
                println!("rustc flags for built-in objects (modules differ only where marked):");
                let width = report
                    .kernel_flags
                    .iter()
                    .map(|f| f.arg.len())
                    .max()
                    .unwrap_or(0)
                    .min(60);
                for f in &report.kernel_flags {
                    println!("  {:<width$}  ← {}", f.arg, f.why);
                }
                let base = report
                    .kernel_flags
                    .iter()
                    .zip(&report.module_flags)
                    .take_while(|(a, b)| a == b)
                    .count();
                for f in &report.module_flags[base..] {
                    println!("  [M] {:<width$}  ← {}", f.arg, f.why);
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Target { args, action } => commands::target::cli(
            commands::target::TargetOpts {
                arch: args.arch,
                config: args.config,
                rustc: args.rustc,
                kbuild: args.kbuild,
                style: args.target_style,
            },
            action.map(|a| match a {
                TargetAction::Check { file, rustc } => {
                    commands::target::Action::Check { file, rustc }
                }
                TargetAction::Upgrade {
                    file,
                    rustc,
                    output,
                    dry_run,
                } => commands::target::Action::Upgrade {
                    file,
                    rustc,
                    output,
                    dry_run,
                },
            }),
            out,
        ),
        Command::Why {
            symbol: None, tree, ..
        } => {
            let report = commands::why::run_all(&tree.into())?;
            if out.json() {
                out.message(&serde_json::json!({"reason": "why-all", "report": report}));
            } else {
                for (name, value) in &report.values {
                    println!("CONFIG_{name}={value}");
                }
                eprintln!(
                    "  {} symbols written of {} defined, {} Kconfig files {} in {} ms, evaluated in {} ms; {} probes run",
                    report.values.len(),
                    report.symbols,
                    report.files,
                    if report.parse_cached { "loaded from the parse cache" } else { "parsed" },
                    report.parse_ms,
                    report.eval_ms,
                    report.probes_run
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Why {
            symbol: Some(symbol),
            tree,
            ..
        } => {
            let report = commands::why::run(&tree.into(), &symbol)?;
            if out.json() {
                out.message(&serde_json::json!({"reason": "why", "report": report}));
            } else {
                print!("{}", report.why.render());
                if out.verbose {
                    println!(
                        "  ({} Kconfig files, {} symbols, parsed in {} ms; {} probes run)",
                        report.files, report.symbols, report.parse_ms, report.probes_run
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Build { tree, build } => {
            let mut opts = build.opts(tree);
            opts.prepare_c = true;
            let summary = match &opts.extmod {
                Some(dir) => commands::extmod::run(&opts, dir, out)?,
                None => commands::build::run(&opts, out)?,
            };
            say_finished(out, &summary);
            Ok(ExitCode::SUCCESS)
        }
        Command::Distro {
            headers,
            tree,
            build,
        } => {
            if tree.config.is_some() {
                anyhow::bail!("--config is not taken by `distro`: the kernel's configuration is the headers' .config");
            }
            let headers = match headers {
                Some(h) => h,
                None => {
                    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease")?;
                    PathBuf::from(format!("/lib/modules/{}/build", release.trim()))
                }
            };
            let source = tree.srctree.clone().ok_or_else(|| {
                anyhow::anyhow!("-S (--srctree) is needed: the kernel's source, unpacked from the distribution's source package\n  fix: Debian: apt install linux-source-X.Y; tar xf /usr/src/linux-source-X.Y.tar.xz; rkbuild distro -S linux-source-X.Y -O ~/kbuild …")
            })?;
            let opts = commands::distro::DistroOpts {
                headers,
                source,
                build: build.opts(tree),
            };
            let (report, summary) = commands::distro::run(&opts, out)?;
            say_finished(out, &summary);
            if out.json() {
                out.message(&serde_json::json!({"reason": "distro", "report": report}));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Doc { tree, steps } => {
            let opts = commands::build::BuildOpts {
                tree: tree.into(),
                jobs: steps.jobs,
                hostcc: steps.hostcc,
                prepare_c: true,
                ..Default::default()
            };
            let (summary, dir) = commands::doc::run(&opts, out)?;
            say_finished(out, &summary);
            let index = dir.join("kernel/index.html");
            out.say(Message::Status {
                tag: "DOCS",
                subject: &index.display().to_string(),
            });
            Ok(ExitCode::SUCCESS)
        }
        Command::Test {
            tree,
            steps,
            clippy,
            names,
            args,
        } => {
            let opts = commands::build::BuildOpts {
                tree: tree.into(),
                jobs: steps.jobs,
                clippy,
                hostcc: steps.hostcc,
                prepare_c: true,
                ..Default::default()
            };
            match commands::test::run(&opts, &names, &args, out) {
                Ok(summary) => {
                    say_finished(out, &summary);
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => match e.downcast_ref::<rkbuild::exec::BuildFailed>() {
                    // The failing test's own status, as make passes it on.
                    Some(f) if f.exit_code.is_some() => {
                        out.say(Message::error(&e));
                        let code = f.exit_code.unwrap_or(1).clamp(1, 255);
                        Ok(ExitCode::from(code as u8))
                    }
                    _ => Err(e),
                },
            }
        }
        Command::Matrix {
            srctree,
            root,
            configs,
            arches,
            rustcs,
            jobs,
            cache_dir,
            remote,
        } => {
            let base = commands::build::BuildOpts {
                tree: TreeOpts {
                    srctree: Some(srctree),
                    ..TreeOpts::default()
                },
                cache: Some(cache_dir.unwrap_or_else(rkbuild::cache::Cache::default_dir)),
                remote,
                ..Default::default()
            };
            let cells = commands::matrix::cells(&root, &configs, &arches, &rustcs);
            let jobs =
                jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let report = commands::matrix::run(&base, cells, jobs);
            std::fs::create_dir_all(&root)?;
            rkbuild::fsutil::write_if_changed(
                &root.join("matrix.json"),
                &serde_json::to_vec_pretty(&report)?,
            )?;
            if out.json() {
                out.message(&serde_json::json!({"reason": "matrix", "report": report}));
            } else {
                commands::matrix::print(&report);
            }
            Ok(if report.cells.iter().all(|c| c.ok) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Fmt {
            srctree,
            objtree,
            check,
            kbuild,
            rustfmt,
        } => {
            let objtree = objtree.unwrap_or_else(|| srctree.clone());
            let r = commands::fmt::run(
                &srctree,
                &objtree,
                kbuild.as_deref(),
                rustfmt.as_deref(),
                check,
            )?;
            if out.json() {
                out.message(&serde_json::json!({"reason": "fmt", "report": r}));
            }
            Ok(if r.ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Plan {
            tree,
            build,
            action: Some(step),
            materialize,
            execute,
        } => {
            let opts = build.opts(tree);
            let (plan, _) = commands::plan::run(&opts)?;
            let report = commands::plan::action(
                &plan,
                &step,
                &commands::plan::ActionOpts {
                    materialize: materialize.as_deref(),
                    remote: opts.remote.as_deref(),
                    execute,
                },
            )?;
            if out.json() {
                out.message(&report);
            } else {
                println!("{}", serde_json::to_string_pretty(&report)?);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Plan { tree, build, .. } => {
            let opts = build.opts(tree);
            if let Some(dir) = &opts.extmod {
                let p = commands::extmod::prepare(&opts, dir)?;
                if out.json() {
                    out.message(
                        &serde_json::json!({"reason": "plan", "plan": p.plan, "extmod": p.ext}),
                    );
                } else {
                    commands::plan::print_steps(&p.plan, out);
                }
                return Ok(ExitCode::SUCCESS);
            }
            let (plan, cflags) = commands::plan::run(&opts)?;
            if out.json() {
                out.message(
                    &serde_json::json!({"reason": "plan", "plan": plan, "bindgen_c_flags": cflags}),
                );
            } else {
                commands::plan::print(&plan, &cflags, out);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Analyzer {
            tree,
            from_plan: true,
            output,
            ..
        } => {
            let opts = commands::build::BuildOpts {
                tree: tree.into(),
                ..Default::default()
            };
            let r = commands::analyzer::run_from_plan(&opts, output)?;
            commands::analyzer::report(r, out)
        }
        Command::Analyzer {
            tree,
            from_log: Some(log),
            output,
            ..
        } => {
            let output = output.unwrap_or_else(|| {
                tree.objtree
                    .clone()
                    .unwrap_or_else(|| PathBuf::from("."))
                    .join("rust-project.json")
            });
            let lib = tree.rust_lib_src.clone();
            commands::log::project_from_log(&log, Some(&output), lib, out)?;
            out.say(Message::Status {
                tag: "GEN",
                subject: &output.display().to_string(),
            });
            Ok(ExitCode::SUCCESS)
        }
        Command::Analyzer {
            tree,
            extmod,
            output,
            from_log: None,
            from_plan: false,
            sysroot_src,
            analysis_rustc,
            analysis_lib_src,
        } => commands::analyzer::main(
            &commands::analyzer::AnalyzerOpts {
                tree: tree.into(),
                extmod,
                output,
                sysroot_src,
                analysis_rustc,
                analysis_lib_src,
            },
            out,
        ),
        Command::Rustc { args } => commands::rustc::exit(commands::rustc::strip_separator(args)),
        Command::Log { cmd } => commands::log::run(cmd, out),
        Command::Doctor { tree } => {
            let report = doctor::run(&tree.into())?;
            if out.json() {
                out.message(
                    &serde_json::json!({"reason": "doctor", "ok": report.ok(), "report": report}),
                );
            } else {
                println!(
                    "kernel {} / {}; minimums from {}",
                    report.vintage, report.arch, report.minimums.source
                );
                for c in &report.checks {
                    let tag = match c.status {
                        doctor::Status::Ok => output::paint("ok", "32"),
                        doctor::Status::Warn => output::paint("warn", "33"),
                        doctor::Status::Fail => output::paint("FAIL", "31"),
                    };
                    println!("  [{tag}] {:<16} {}", c.name, c.found);
                    if c.status != doctor::Status::Ok {
                        println!("         {:<16} needed: {}", "", c.needed);
                        if let Some(fix) = &c.fix {
                            println!("         {:<16} fix: {fix}", "");
                        }
                    }
                }
                if report.ok() {
                    println!("Rust is available!");
                }
            }
            Ok(if report.ok() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}
