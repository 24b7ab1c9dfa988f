//! `rkbuild distro`: the Rust side of a kernel a distribution ships, rebuilt so that modules
//! can be built against it. A distribution's headers package (Debian's
//! `linux-headers-<release>`) has the kernel's configuration, generated headers and
//! `Module.symvers`, but none of the Rust metadata a Rust module is compiled against (`core`,
//! `kernel` … `.rmeta`, the proc macros, the target spec). rkbuild makes an object tree from
//! the headers, asks the kernel's make for its C flags and tools there (one C object compiled
//! as Kbuild compiles an external one), builds `rust/` from the distribution's source package
//! with the compiler the kernel was built with, and checks that the crates it built carry the
//! crate hashes of the symbols the kernel exports. `-M DIR` then builds a module against it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::build::BuildOpts;
use super::{canonical, BuildContext};
use crate::exec;
use crate::fsutil::write_if_changed;
use crate::kconfig::DotConfig;
use crate::output::{Message, Out};
use crate::process::Process;
use crate::toolchain::kbuild_names::{MakeVars, PROBED_VARS, PROBE_DIR, RECORDED_VARS};
use crate::toolchain::RustcInfo;

const RUSTC_CFG: &str = "include/generated/rustc_cfg";

/// What `rkbuild distro` is given.
#[derive(Clone, Debug, Default)]
pub struct DistroOpts {
    /// The headers' object tree (`/lib/modules/<release>/build`).
    pub headers: PathBuf,
    /// The kernel's source, unpacked from the distribution's source package.
    pub source: PathBuf,
    /// The object tree to make (`build.tree.objtree`), the tools, `-j`, and `-M`.
    pub build: BuildOpts,
}

/// One crate's match with the kernel: its crate hash and the kernel's symbols it defines.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CrateMatch {
    pub name: String,
    pub hash: String,
    /// The kernel's exported symbols of this crate (Module.symvers).
    pub exported: usize,
    /// How many of them the rebuilt object defines.
    pub defined: usize,
}

#[derive(Debug, serde::Serialize)]
pub struct Report {
    pub objtree: PathBuf,
    pub release: String,
    pub rustc: String,
    pub crates: Vec<CrateMatch>,
    /// The whole run, rebuild and module.
    pub wall_ms: u64,
}

/// The kernel release the headers are for (`include/config/kernel.release`).
fn release(headers: &Path) -> anyhow::Result<String> {
    let p = headers.join("include/config/kernel.release");
    let text = std::fs::read_to_string(&p).with_context(|| {
        format!(
            "`{}` is not a kernel's headers: {} is missing\n  fix: pass the headers' folder (Debian: /usr/src/linux-headers-$(uname -r), from the package linux-headers-$(uname -r)) as --headers",
            headers.display(),
            p.display()
        )
    })?;
    Ok(text.trim().to_string())
}

/// Whether the kernel `release` (`7.3.4+deb13-amd64`) is of source `version` (`7.3.4`).
pub fn release_is_of(release: &str, version: &str) -> bool {
    release
        .strip_prefix(version)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
}

/// Refuses a rustc other than the one the kernel was built with: another compiler gives the
/// crates other hashes (the crate hash covers the full version text), so the kernel would not
/// know the symbols a module asks for. The fix names the distribution's packages of the
/// kernel's compiler where its package manager lists them.
pub fn check_rustc(
    cfg: &DotConfig,
    config: &Path,
    rustc: &Path,
    info: &RustcInfo,
) -> anyhow::Result<()> {
    let want = cfg.get("RUSTC_VERSION_TEXT").map(|v| v.text().into_owned());
    let Some(want) = want else {
        bail!(
            "`{}` has no CONFIG_RUSTC_VERSION_TEXT: this kernel was not built with Rust (CONFIG_RUST), or is older than 6.12\n  fix: a Rust module needs a kernel built with CONFIG_RUST=y",
            config.display()
        );
    };
    let llvm_want = cfg
        .get("RUSTC_LLVM_VERSION")
        .and_then(|v| v.text().parse::<u64>().ok());
    let llvm_ok = llvm_want.is_none() || llvm_want == info.llvm_kernel_version();
    if want == info.version_text && llvm_ok {
        return Ok(());
    }
    let release = want.split_whitespace().nth(1).unwrap_or(&want).to_string();
    let llvm = llvm_want
        .map(|n| format!(", LLVM {}.{}.{}", n / 10000, n / 100 % 100, n % 100))
        .unwrap_or_default();
    let packages = distro_packages(&release);
    let fix = if packages.is_empty() {
        format!("install rustc {release} as the distribution built it (its `rustc` and `rust-src` packages), then pass it with --rustc")
    } else {
        format!(
            "{} (then pass /usr/bin/rustc with --rustc if another comes first on PATH)",
            packages.join("; or ")
        )
    };
    bail!(
        "this kernel was built with `{want}`{llvm} (CONFIG_RUSTC_VERSION_TEXT in {}), but `{}` is `{}`{}: crates built with another compiler carry other crate hashes, so the kernel would not have the symbols a module asks for\n  fix: {fix}",
        config.display(),
        rustc.display(),
        info.version_text,
        info.llvm
            .as_ref()
            .map(|v| format!(" (LLVM {v})"))
            .unwrap_or_default(),
    )
}

/// The distribution's packages of rustc `release`, as an install command: Debian's
/// `apt-cache madison rustc` lists every version its suites have.
fn distro_packages(release: &str) -> Vec<String> {
    let Ok(o) = Process::new("apt-cache")
        .args(["madison", "rustc"])
        .output()
    else {
        return vec![];
    };
    let versions = madison_versions(&o.stdout, release);
    versions
        .iter()
        .map(|v| format!("apt install rustc={v} rust-src={v}"))
        .collect()
}

/// The package versions in `apt-cache madison` output whose upstream version is `release`.
pub fn madison_versions(text: &str, release: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .lines()
        .filter_map(|l| l.split('|').nth(1).map(str::trim))
        .filter(|v| {
            let upstream = v.split_once(':').map_or(*v, |(_, r)| r);
            let upstream = upstream.split(['+', '-', '~']).next().unwrap_or("");
            upstream == release
        })
        .map(String::from)
        .collect();
    out.dedup();
    out
}

/// The first line one text has and the other lacks, as lines go (order aside).
pub fn set_difference(theirs: &str, ours: &str) -> Option<String> {
    let a: BTreeSet<&str> = theirs.lines().collect();
    let b: BTreeSet<&str> = ours.lines().collect();
    if let Some(l) = a.difference(&b).next() {
        return Some(format!("rkbuild's lacks `{l}`"));
    }
    b.difference(&a)
        .next()
        .map(|l| format!("rkbuild's has `{l}`, the kernel's does not"))
}

/// Every `Cs<hash>_<len><name>` crate root of a v0-mangled symbol, first to last.
pub fn crate_roots(symbol: &str) -> Vec<(&str, &str)> {
    let b = symbol.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i + 2 < b.len() {
        if &b[i..i + 2] != b"Cs" {
            i += 1;
            continue;
        }
        // `Cs` <base-62 hash> `_` <decimal length> <name>.
        let end =
            |from: usize, f: fn(&u8) -> bool| from + b[from..].iter().take_while(|c| f(c)).count();
        let h0 = i + 2;
        let j = end(h0, u8::is_ascii_alphanumeric);
        if j == h0 || j >= b.len() || b[j] != b'_' {
            i += 1;
            continue;
        }
        let n0 = j + 1;
        let k = end(n0, u8::is_ascii_digit);
        let len: usize = symbol[n0..k].parse().unwrap_or(0);
        if k == n0 || len == 0 || k + len > b.len() {
            i += 1;
            continue;
        }
        out.push((&symbol[h0..j], &symbol[k..k + len]));
        i = k + len;
    }
    out
}

/// The Rust symbols vmlinux exports, by crate (the first crate root of each name): from
/// `Module.symvers` (`crc symbol module export namespace`, tab-separated).
pub fn exported_by_crate(symvers: &str) -> BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)> {
    let mut out: BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)> = BTreeMap::new();
    for line in symvers.lines() {
        let mut f = line.split('\t');
        let (Some(_crc), Some(sym), Some(module)) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        if module != "vmlinux" || !sym.starts_with("_R") {
            continue;
        }
        if let Some((hash, name)) = crate_roots(sym).first() {
            let e = out.entry(name.to_string()).or_default();
            e.0.insert(hash.to_string());
            e.1.insert(sym.to_string());
        }
    }
    out
}

/// Compares the crates rebuilt in `objtree/rust` with the kernel's exported symbols: the same
/// crate hash, and every exported symbol of the crate defined.
fn check_crates(objtree: &Path, symvers: &str) -> anyhow::Result<Vec<CrateMatch>> {
    let mut out = vec![];
    for (name, (hashes, syms)) in exported_by_crate(symvers) {
        let obj = objtree.join(format!("rust/{name}.o"));
        if !obj.is_file() {
            continue;
        }
        let defined: BTreeSet<String> = exec::post::defined_symbols(&obj)?
            .into_iter()
            .map(|(s, _)| s)
            .collect();
        let ours: BTreeSet<&str> = defined
            .iter()
            .filter_map(|s| crate_roots(s).first().copied())
            .filter(|(_, n)| *n == name)
            .map(|(h, _)| h)
            .collect();
        let theirs = hashes.iter().next().cloned().unwrap_or_default();
        if !ours.contains(theirs.as_str()) || hashes.len() != 1 {
            bail!(
                "the rebuilt `{name}` carries crate hash {} but the kernel's `{name}` has {} (Module.symvers): the kernel's symbols would not match a module's\n  fix: build with the very rustc and flags the kernel was built with (`rkbuild distro` checks CONFIG_RUSTC_VERSION_TEXT; KRUSTFLAGS or a changed .config also change it)",
                ours.iter().copied().collect::<Vec<_>>().join(", "),
                hashes.iter().cloned().collect::<Vec<_>>().join(", ")
            );
        }
        let missing: Vec<&String> = syms.iter().filter(|s| !defined.contains(*s)).collect();
        if let Some(first) = missing.first() {
            bail!(
                "the rebuilt `{name}` lacks {} of the {} symbols the kernel exports from it (the first: {first}): it was not built as the kernel's was\n  fix: build with the kernel's own .config and compiler",
                missing.len(),
                syms.len()
            );
        }
        out.push(CrateMatch {
            name,
            hash: theirs,
            exported: syms.len(),
            defined: syms.len() - missing.len(),
        });
    }
    if out.is_empty() {
        bail!(
            "`{}` lists no Rust symbol of a crate rebuilt in `{}`: the kernel exports no Rust symbols, so a Rust module cannot be loaded into it",
            objtree.join("Module.symvers").display(),
            objtree.join("rust").display()
        );
    }
    Ok(out)
}

/// Makes `out` an object tree of the kernel whose headers are in `headers`, with `source` as
/// its source tree: the headers' files (copied, so that the build can write beside them; an
/// unchanged file keeps its time), their links to the distribution's build tools (`scripts`,
/// `tools`) made absolute, a `source` link and a Makefile as a kernel's `O=` tree has.
fn mirror_headers(headers: &Path, source: &Path, out: &Path) -> anyhow::Result<usize> {
    let mut files = 0;
    for e in walkdir::WalkDir::new(headers).follow_links(false) {
        let e = e.with_context(|| format!("cannot read `{}`", headers.display()))?;
        let rel = e.path().strip_prefix(headers).expect("walked from there");
        if rel.as_os_str().is_empty() || rel == Path::new("Makefile") || rel == Path::new("source")
        {
            continue;
        }
        let dest = out.join(rel);
        let t = e.file_type();
        if t.is_dir() {
            std::fs::create_dir_all(&dest)
                .with_context(|| format!("cannot create `{}`", dest.display()))?;
        } else if t.is_symlink() {
            let target = std::fs::read_link(e.path())?;
            match std::fs::canonicalize(e.path()).ok() {
                // A folder out of the headers (Debian's `scripts` → linux-kbuild-…) becomes a
                // folder of links to its entries: what rkbuild writes there (the target spec)
                // goes into the object tree, never into the distribution's package.
                Some(r) if !r.starts_with(headers) && r.is_dir() => {
                    if dest.is_symlink() {
                        std::fs::remove_file(&dest)?;
                    }
                    std::fs::create_dir_all(&dest)
                        .with_context(|| format!("cannot create `{}`", dest.display()))?;
                    for entry in std::fs::read_dir(&r)? {
                        let entry = entry?;
                        link(&entry.path(), &dest.join(entry.file_name()))?;
                    }
                }
                Some(r) if !r.starts_with(headers) => link(&r, &dest)?,
                _ => link(&target, &dest)?,
            }
        } else if rel == Path::new(RUSTC_CFG) && dest.is_file() {
            // rkbuild's own, compared with the shipped one after the build: kept, so that a
            // run that changes nothing touches nothing.
            continue;
        } else {
            let bytes = std::fs::read(e.path())
                .with_context(|| format!("cannot read `{}`", e.path().display()))?;
            write_if_changed(&dest, &bytes)?;
            files += 1;
        }
    }
    link(source, &out.join("source"))?;
    let makefile = format!(
        "# Written by rkbuild distro: the kernel in {}, its Rust side rebuilt here.\nKBUILD_OUTPUT={}\ninclude {}/Makefile\n",
        headers.display(),
        out.display(),
        source.display()
    );
    write_if_changed(&out.join("Makefile"), makefile.as_bytes())?;
    Ok(files)
}

/// A symbolic link at `at` to `target`, replaced when it points elsewhere; a file rkbuild
/// wrote there itself (the target spec in `scripts/`) stays.
fn link(target: &Path, at: &Path) -> anyhow::Result<()> {
    match std::fs::symlink_metadata(at) {
        Ok(m) if m.is_symlink() => {
            if std::fs::read_link(at).ok().as_deref() == Some(target) {
                return Ok(());
            }
        }
        Ok(_) => return Ok(()),
        Err(_) => {}
    }
    let _ = std::fs::remove_file(at);
    std::os::unix::fs::symlink(target, at)
        .with_context(|| format!("cannot link `{}` to `{}`", at.display(), target.display()))
}

/// Asks the kernel's make, in `objtree`, for its C flags and tools: one empty C file compiled
/// as an external object (`always-y`: Kbuild gives it the kernel's `c_flags`, as it gives
/// `scripts/mod/empty.o`), whose recorded command bindgen's flags are then read from, and the
/// tool variables as make sets them (a distribution's own makefiles included).
fn probe(source: &Path, objtree: &Path, srcarch: &str, vars: &MakeVars) -> anyhow::Result<()> {
    let dir = objtree.join(PROBE_DIR);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    let mut kbuild = String::from(
        "# rkbuild distro: the kernel's C flags (empty.o's recorded command) and its tools.\nalways-y := empty.o\n",
    );
    for v in PROBED_VARS {
        kbuild.push_str(&format!("$(info rkbuild-var {v}=$({v}))\n"));
    }
    write_if_changed(&dir.join("Kbuild"), kbuild.as_bytes())?;
    write_if_changed(&dir.join("empty.c"), b"")?;
    let mut p = Process::new("make")
        .arg("-C")
        .arg(source)
        .arg(format!("O={}", objtree.display()))
        .arg(format!("M={}", dir.display()))
        .arg(format!("ARCH={srcarch}"));
    for (k, v) in vars.given() {
        p = p.arg(format!("{k}={v}"));
    }
    let p = p.arg("empty.o");
    let o = p.output()?;
    if !o.success() {
        bail!(
            "the kernel's make could not compile a C file against `{}` (`{p}`):\n{}\n  fix: install the C compiler the kernel was built with (CONFIG_CC_VERSION_TEXT in its .config; Debian: the package gcc-N it names)",
            objtree.display(),
            o.tail(25)
        );
    }
    let mut recorded: BTreeMap<&str, &str> = BTreeMap::new();
    for l in o.stdout.lines() {
        if let Some((k, v)) = l
            .strip_prefix("rkbuild-var ")
            .and_then(|r| r.split_once('='))
        {
            recorded.insert(k, v.trim());
        }
    }
    let text: String = PROBED_VARS
        .iter()
        .map(|k| format!("{k}={}\n", recorded.get(k).copied().unwrap_or("")))
        .collect();
    write_if_changed(&objtree.join(RECORDED_VARS), text.as_bytes())?;
    Ok(())
}

/// Runs `rkbuild distro`: the report, and the steps of the build(s) together.
pub fn run(opts: &DistroOpts, out: Out) -> anyhow::Result<(Report, exec::Summary)> {
    let started = std::time::Instant::now();
    let headers = std::fs::canonicalize(&opts.headers).with_context(|| {
        format!(
            "the headers folder `{}` does not exist\n  fix: install the kernel's headers (Debian: apt install linux-headers-$(uname -r)) and pass /lib/modules/<release>/build as --headers",
            opts.headers.display()
        )
    })?;
    crate::fsutil::check_path_text(&headers, "headers folder (--headers)")?;
    let release = release(&headers)?;
    let config = headers.join(".config");
    for need in [&config, &headers.join("Module.symvers")] {
        if !need.is_file() {
            bail!(
                "`{}` lacks {}: a module is built against a configured, built kernel's headers\n  fix: pass the folder of the package linux-headers-{release} (Debian)",
                headers.display(),
                need.display()
            );
        }
    }
    let source = std::fs::canonicalize(&opts.source).with_context(|| {
        format!(
            "the kernel source `{}` does not exist\n  fix: unpack the distribution's source of this kernel (Debian: apt install linux-source-X.Y; tar xf /usr/src/linux-source-X.Y.tar.xz) and pass its folder as --source",
            opts.source.display()
        )
    })?;
    let version = crate::tree::kernel_release(&source).with_context(|| {
        format!(
            "`{}` is not a kernel source tree (its Makefile has no VERSION, PATCHLEVEL, SUBLEVEL)\n  fix: pass the unpacked source package's top folder as --source",
            source.display()
        )
    })?;
    if !release_is_of(&release, &version) {
        bail!(
            "the source in `{}` is Linux {version}, the headers are for {release}\n  fix: unpack the source package of the running kernel's version (Debian: linux-source-X.Y of the same version as linux-image-{release})",
            source.display()
        );
    }
    if !source.join("rust/kernel/lib.rs").is_file() {
        bail!(
            "`{}` has no rust/kernel: the source is older than the kernel's Rust support",
            source.display()
        );
    }
    let objtree = opts
        .build
        .tree
        .objtree
        .clone()
        .context("--objtree (-O) is needed: the folder to rebuild the kernel's Rust side in")?;
    if canonical(&objtree).starts_with(&headers) || canonical(&objtree).starts_with(&source) {
        bail!(
            "-O {} is inside the headers or the source: rkbuild writes there\n  fix: pass a folder of your own as -O (~/kbuild-{release})",
            objtree.display()
        );
    }

    // The compiler first: nothing is written when it is not the kernel's.
    let mut topts = opts.build.tree.clone();
    topts.srctree = Some(source.clone());
    topts.objtree = Some(objtree.clone());
    topts.config = Some(config.clone());
    let mut bc = BuildContext::open(&topts)?;
    let rustc = bc.rustc()?;
    check_rustc(&bc.tree.cfg, &config, &rustc.path, &rustc.info)?;
    let srcarch = bc.tree.arch.srcarch().to_string();
    drop(bc);

    std::fs::create_dir_all(&objtree)
        .with_context(|| format!("cannot create `{}`", objtree.display()))?;
    let objtree = canonical(&objtree);
    let files = mirror_headers(&headers, &source, &objtree)?;
    out.say(Message::Status {
        tag: "HEADERS",
        subject: &format!(
            "{} ({files} files of {})",
            objtree.display(),
            headers.display()
        ),
    });
    probe(&source, &objtree, &srcarch, &MakeVars::from_env())?;
    out.say(Message::Status {
        tag: "PROBE",
        subject: &format!("{}/.empty.o.cmd (the kernel's C flags)", PROBE_DIR),
    });

    let mut build = opts.build.clone();
    build.tree.srctree = Some(source.clone());
    build.tree.objtree = Some(objtree.clone());
    build.tree.config = None;
    build.prepare_c = false;
    build.targets = vec!["rust/".into()];
    let extmod = build.extmod.take();
    let summary = super::build::run(&build, out)?;

    // What rkbuild wrote must be what the distribution's build wrote (the same lines: conf
    // writes them in its symbol table's order, rkbuild in the .config's; rustc takes either).
    let cfg_path = headers.join(RUSTC_CFG);
    if let Ok(shipped) = std::fs::read_to_string(&cfg_path) {
        let ours = std::fs::read_to_string(objtree.join(RUSTC_CFG))?;
        if let Some(d) = set_difference(&shipped, &ours) {
            bail!(
                "the rustc_cfg rkbuild wrote differs from the kernel's `{}`: {d}\n  fix: the configuration was not read as the kernel's build read it; report this with both files",
                cfg_path.display()
            );
        }
    }
    let symvers = std::fs::read_to_string(objtree.join("Module.symvers"))?;
    let crates = check_crates(&objtree, &symvers)?;
    for c in &crates {
        out.say(Message::Status {
            tag: "MATCH",
            subject: &format!(
                "rust/{}.o: crate hash {}, {} of the kernel's {} exported symbols",
                c.name, c.hash, c.defined, c.exported
            ),
        });
    }
    let mut total = summary;
    if let Some(dir) = extmod {
        let mut m = build.clone();
        m.targets = vec![];
        m.extmod = Some(dir.clone());
        let s = super::extmod::run(&m, &dir, out)?;
        total.built += s.built;
        total.fresh += s.fresh;
        total.cached += s.cached;
    }
    let report = Report {
        objtree,
        release,
        rustc: rustc.info.version_text.clone(),
        crates,
        wall_ms: started.elapsed().as_millis() as u64,
    };
    Ok((report, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crate_roots_of_v0_symbols() {
        assert_eq!(
            crate_roots("_RNvNtNtCs2lKf6AS60Zg_4core5slice5index24slice_end_index_len_fail"),
            [("2lKf6AS60Zg", "core")]
        );
        assert_eq!(
            crate_roots("_RINvNtCsabc_4core3ptr13drop_in_placeNtCsXyZ_6kernel5ErrorEB4_"),
            [("abc", "core"), ("XyZ", "kernel")]
        );
        assert!(crate_roots("memcpy").is_empty());
        assert!(crate_roots("_RNvCs_1").is_empty(), "cut short");
    }

    #[test]
    fn symvers_by_crate() {
        let text = "0x00000000\t_RNvNtCsAA_4core3fmt5write\tvmlinux\tEXPORT_SYMBOL_GPL\t\n\
                    0x00000000\t_RNvCsBB_6kernel4warn\tvmlinux\tEXPORT_SYMBOL_GPL\t\n\
                    0x00000000\t_RNvCsCC_6kernel4mine\tsome_mod\tEXPORT_SYMBOL_GPL\t\n\
                    0x12345678\tprintk\tvmlinux\tEXPORT_SYMBOL\t\n";
        let m = exported_by_crate(text);
        assert_eq!(m.keys().collect::<Vec<_>>(), ["core", "kernel"]);
        assert_eq!(
            m["kernel"].0.iter().collect::<Vec<_>>(),
            ["BB"],
            "vmlinux's only"
        );
    }

    #[test]
    fn versions_and_releases() {
        assert!(release_is_of("7.3.4+deb13-amd64", "7.3.4"));
        assert!(!release_is_of("7.3.40-1", "7.3.4"));
        assert!(!release_is_of("7.3.4.1", "7.3.4"));
        assert!(!release_is_of("6.12.9", "7.3.4"));
    }

    #[test]
    fn rustc_cfg_compared_as_lines() {
        assert_eq!(set_difference("a\nb\n", "b\na\n"), None);
        assert_eq!(
            set_difference("a\nb\n", "a\n").unwrap(),
            "rkbuild's lacks `b`"
        );
        assert!(set_difference("a\n", "a\nc\n").unwrap().contains("`c`"));
    }

    #[test]
    fn madison_lines() {
        let text = "     rustc | 1.97.1+dfsg1-1~bpo13+1 | http://deb.debian.org/debian trixie-backports/main amd64 Packages\n     rustc | 1.85.1+dfsg1-1+deb13u1 | http://deb.debian.org/debian trixie/main amd64 Packages\n";
        assert_eq!(madison_versions(text, "1.85.1"), ["1.85.1+dfsg1-1+deb13u1"]);
        assert!(madison_versions(text, "1.85.0").is_empty());
    }
}
