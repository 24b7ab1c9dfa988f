//! What Kbuild does to outputs after the compiler: objcopy on objects, sed on bindings, and
//! the exports headers. Object files are rewritten into a temporary file and renamed over the
//! original, so an interrupted post-step never leaves a half-written object.

use std::path::Path;

use anyhow::{bail, Context as _};
use object::{Object as _, ObjectSection as _, ObjectSymbol as _};

use crate::plan::PostStep;
use crate::process::Process;

/// Runs one post-step on `output` (absolute); returns a warning to show, if any.
pub fn run(
    post: &PostStep,
    output: &Path,
    objcopy: &Path,
    objtree: &Path,
) -> anyhow::Result<Option<String>> {
    match post {
        PostStep::CutHere => {
            rewrite_text(output, cut_here)?;
            Ok(None)
        }
        PostStep::Rustfmt { program, config } => {
            // Kbuild: `command -v $(RUSTFMT) >/dev/null && $(RUSTFMT) --config-path … $@`.
            if which::which(program).is_err() {
                return Ok(None);
            }
            let p = Process::new(program)
                .cwd(objtree)
                .arg("--config-path")
                .arg(config)
                .arg(output);
            let out = p.output()?;
            if !out.success() {
                bail!("`{p}` failed:\n{}{}", out.stdout, out.stderr.trim_end());
            }
            Ok(None)
        }
        PostStep::Objtool { program, args, env } => {
            let mut p = Process::new(program).cwd(objtree).args(args).arg(output);
            for (k, v) in env {
                p = p.env(k, v);
            }
            let out = p.output()?;
            if !out.success() {
                bail!("`{p}` failed:\n{}{}", out.stdout, out.stderr.trim_end());
            }
            Ok(None)
        }
        PostStep::RedirectIntrinsics { symbols } => {
            let mut args = vec![];
            for s in symbols {
                args.push("--redefine-sym".to_string());
                args.push(format!("{s}=__rust{s}"));
            }
            objcopy_in_place(objcopy, &args, output).map(|_| None)
        }
        PostStep::WeakenSymbols { pattern } => {
            let args = ["-w".to_string(), "-W".to_string(), pattern.clone()];
            objcopy_in_place(objcopy, &args, output).map(|_| None)
        }
        PostStep::Generate { program, env } => {
            let mut p = Process::new(objtree.join(program.trim_start_matches("./"))).cwd(objtree);
            for (k, v) in env {
                p = p.env(k, v);
            }
            let out = p.output()?;
            if !out.success() {
                bail!("`{p}` failed:\n{}{}", out.stdout, out.stderr.trim_end());
            }
            Ok(None)
        }
        PostStep::Retouch {
            output,
            krate,
            copy,
            replace,
            css_line,
            check_links_in,
        } => super::retouch::run(&super::retouch::Retouch {
            output: &objtree.join(output),
            krate: krate.as_deref(),
            copy,
            replace,
            css_line,
            check_links_in: check_links_in.as_deref(),
        }),
        PostStep::CheckBuildError { deny } => {
            let data = std::fs::read(output)
                .with_context(|| format!("cannot read `{}`", output.display()))?;
            let file = object::File::parse(&*data)
                .with_context(|| format!("`{}` is not an object file", output.display()))?;
            let calls = file
                .symbols()
                .any(|s| s.is_undefined() && s.name() == Ok("rust_build_error"));
            Ok(calls.then(|| {
                format!(
                    "warning: `{}` calls rust_build_error: a build_assert! was not optimised away{}",
                    output.display(),
                    if *deny {
                        "; linking will fail (CONFIG_RUST_BUILD_ASSERT_ALLOW would turn it into a run-time panic)"
                    } else {
                        " (it panics at run time; CONFIG_RUST_BUILD_ASSERT_WARN)"
                    }
                )
            }))
        }
        PostStep::RenameConstHelpers => {
            rewrite_text(output, rename_const_helpers)?;
            Ok(None)
        }
        PostStep::LinkNameHelpers => {
            rewrite_text(output, link_name_helpers)?;
            Ok(None)
        }
    }
}

fn objcopy_in_place(objcopy: &Path, args: &[String], output: &Path) -> anyhow::Result<String> {
    let dir = output.parent().unwrap_or(Path::new("."));
    let tmp = tempfile::Builder::new()
        .prefix(".tmp_objcopy_")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in `{}`", dir.display()))?;
    let p = Process::new(objcopy).args(args).arg(output).arg(tmp.path());
    let out = p.output()?;
    if !out.success() {
        bail!("`{p}` failed:\n{}{}", out.stdout, out.stderr.trim_end());
    }
    tmp.persist(output)
        .with_context(|| format!("cannot rename into `{}`", output.display()))?;
    Ok(p.to_string())
}

fn rewrite_text(path: &Path, f: fn(&str) -> String) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    crate::fsutil::write_if_changed(path, f(&text).as_bytes())?;
    Ok(())
}

/// `sed '1,/^\/\/ Cut here.$/d'`: everything after the first `// Cut here.` line (all of
/// it when there is none, as sed deletes to the end then).
pub fn cut_here(text: &str) -> String {
    let mut out = String::new();
    let mut cut = false;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if cut {
            out.push_str(line);
        } else if i > 0 && line.trim_end_matches('\n') == "// Cut here." {
            // sed's range starts at line 1 and ends at the first match after it.
            cut = true;
        }
    }
    out
}

/// `sed -Ei 's/pub const RUST_CONST_HELPER_([a-zA-Z0-9_]*)/pub const \1/g'`.
pub fn rename_const_helpers(text: &str) -> String {
    text.replace("pub const RUST_CONST_HELPER_", "pub const ")
}

/// `sed -Ei 's/pub fn rust_helper_([a-zA-Z0-9_]*)/#[link_name="rust_helper_\1"]\n    pub fn \1/g'`.
pub fn link_name_helpers(text: &str) -> String {
    const PAT: &str = "pub fn rust_helper_";
    let mut out = String::with_capacity(text.len() + 256);
    let mut rest = text;
    while let Some(p) = rest.find(PAT) {
        out.push_str(&rest[..p]);
        let after = &rest[p + PAT.len()..];
        let n = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..n];
        out.push_str(&format!(
            "#[link_name=\"rust_helper_{name}\"]\n    pub fn {name}"
        ));
        rest = &after[n..];
    }
    out.push_str(rest);
    out
}

/// The global symbols an object defines in text, read-only data, data or bss — what
/// `nm -p --defined-only | awk '$2~/(T|R|D|B)/'` keeps — in symbol-table order, with nm's
/// letter.
pub fn defined_symbols(obj: &Path) -> anyhow::Result<Vec<(String, char)>> {
    let data = std::fs::read(obj).with_context(|| format!("cannot read `{}`", obj.display()))?;
    let file = object::File::parse(&*data)
        .with_context(|| format!("`{}` is not an object file", obj.display()))?;
    let mut out = vec![];
    for sym in file.symbols() {
        if !sym.is_definition() || !sym.is_global() || sym.is_weak() {
            continue;
        }
        if !matches!(
            sym.kind(),
            object::SymbolKind::Text
                | object::SymbolKind::Data
                | object::SymbolKind::Tls
                | object::SymbolKind::Unknown
        ) {
            continue;
        }
        let Some(idx) = sym.section_index() else {
            continue;
        };
        let Ok(section) = file.section_by_index(idx) else {
            continue;
        };
        // nm's letters come from the section: code (T), writable (D/B), else read-only (R).
        let letter = match section.flags() {
            object::SectionFlags::Elf { sh_flags } => {
                let f = |bit: u32| sh_flags & u64::from(bit) != 0;
                if !f(object::elf::SHF_ALLOC) {
                    continue;
                } else if f(object::elf::SHF_EXECINSTR) {
                    'T'
                } else if section.kind() == object::SectionKind::UninitializedData
                    || section.kind() == object::SectionKind::UninitializedTls
                {
                    'B'
                } else if f(object::elf::SHF_WRITE) {
                    'D'
                } else {
                    'R'
                }
            }
            _ => 'T',
        };
        if let Ok(name) = sym.name() {
            if !name.is_empty() {
                out.push((name.to_string(), letter));
            }
        }
    }
    Ok(out)
}

/// `cmd_exports`: one `EXPORT_SYMBOL_RUST_GPL(sym);` line per defined symbol, skipping the
/// CFI/sanitizer aliases the vintage skips.
pub fn exports_header(symbols: &[(String, char)], letters: &str, skip: &[&str]) -> String {
    let mut s = String::new();
    for (sym, letter) in symbols {
        if !letters.contains(*letter) || skip.iter().any(|k| sym.contains(k)) {
            continue;
        }
        s.push_str(&format!("EXPORT_SYMBOL_RUST_GPL({sym});\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helper_rewrites_match_the_sed_lines() {
        assert_eq!(
            rename_const_helpers("pub const RUST_CONST_HELPER_GFP_KERNEL: gfp_t = 3;"),
            "pub const GFP_KERNEL: gfp_t = 3;"
        );
        assert_eq!(
            link_name_helpers("extern \"C\" {\n    pub fn rust_helper_mk_id(d: *const u8) -> u32;\n}"),
            "extern \"C\" {\n    #[link_name=\"rust_helper_mk_id\"]\n    pub fn mk_id(d: *const u8) -> u32;\n}"
        );
    }

    #[test]
    fn exports_lines() {
        let syms = [
            ("a".to_string(), 'T'),
            ("__cfi_a".to_string(), 'T'),
            ("b".to_string(), 'B'),
        ];
        let h = exports_header(&syms, "TRDB", &["__cfi"]);
        assert_eq!(
            h,
            "EXPORT_SYMBOL_RUST_GPL(a);\nEXPORT_SYMBOL_RUST_GPL(b);\n"
        );
        // 2021 exported text, read-only data and data only.
        assert_eq!(
            exports_header(&syms, "TRD", &[]),
            "EXPORT_SYMBOL_RUST_GPL(a);\nEXPORT_SYMBOL_RUST_GPL(__cfi_a);\n"
        );
    }
}
