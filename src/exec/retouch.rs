//! The `rustdoc` target's retouching of rustdoc's HTML (rust/Makefile): the kernel's logo in
//! place of Rust's, no PNG favicons, `srctree/` links made into paths of the source tree, and
//! a line of CSS. Kbuild runs `sed -Ei` over every page after all crates are documented; here
//! each crate's pages are retouched right after its rustdoc ran, and the shared pages once at
//! the end. Every change is idempotent and written only when a page changed.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use regex::Regex;

/// The replacements, compiled (the layout's were checked when it was loaded).
pub fn compile(replace: &[(String, String)]) -> anyhow::Result<Vec<(Regex, String)>> {
    replace
        .iter()
        .map(|(re, with)| {
            Regex::new(re)
                .map(|r| (r, with.clone()))
                .with_context(|| format!("rustdoc retouch: bad expression `{re}`"))
        })
        .collect()
}

/// One page with every replacement applied, in order (as `sed -e … -e …`).
pub fn page(text: &str, replace: &[(Regex, String)]) -> String {
    let mut out = text.to_string();
    for (re, with) in replace {
        if let std::borrow::Cow::Owned(s) = re.replace_all(&out, with.as_str()) {
            out = s;
        }
    }
    out
}

/// The files `<a href="srctree/FILE">` links name.
pub fn srctree_links(text: &str) -> Vec<&str> {
    let mut v = vec![];
    let mut rest = text;
    const OPEN: &str = "<a href=\"srctree/";
    while let Some(i) = rest.find(OPEN) {
        rest = &rest[i + OPEN.len()..];
        if let Some(j) = rest.find('"') {
            v.push(&rest[..j]);
        }
    }
    v
}

/// The CSS with `line` appended, unless it already ends with it.
pub fn css(text: &str, line: &str) -> Option<String> {
    let want = format!("{line}\n");
    (!text.ends_with(&want)).then(|| format!("{text}{want}"))
}

/// `*.html` under `dir`, recursively (or only directly in it).
fn html_files(dir: &Path, deep: bool, out: &mut Vec<PathBuf>) {
    let walk = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .max_depth(if deep { usize::MAX } else { 1 });
    for e in walk.into_iter().flatten() {
        if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "html") {
            out.push(e.into_path());
        }
    }
}

/// What one `Retouch` post-step does.
pub struct Retouch<'a> {
    pub output: &'a Path,
    pub krate: Option<&'a str>,
    pub copy: &'a [String],
    pub replace: &'a [(String, String)],
    pub css_line: &'a str,
    pub check_links_in: Option<&'a str>,
}

/// Retouches a crate's pages (`NAME/`, `src/NAME/`), or with no crate the shared pages,
/// `static.files/` and the CSS; returns the warnings for `srctree/` links to missing files.
pub fn run(r: &Retouch) -> anyhow::Result<Option<String>> {
    let replace = compile(r.replace)?;
    let mut files = vec![];
    match r.krate {
        Some(k) => {
            html_files(&r.output.join(k), true, &mut files);
            html_files(&r.output.join("src").join(k), true, &mut files);
        }
        None => html_files(r.output, false, &mut files),
    }
    let mut missing = std::collections::BTreeSet::new();
    for f in &files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("cannot read `{}`", f.display()))?;
        if let Some(src) = r.check_links_in {
            for l in srctree_links(&text) {
                if !Path::new(src).join(l).exists() {
                    missing.insert(l.to_string());
                }
            }
        }
        let new = page(&text, &replace);
        if new != text {
            crate::fsutil::write_if_changed(f, new.as_bytes())?;
        }
    }
    if r.krate.is_none() {
        let statics = r.output.join("static.files");
        for c in r.copy {
            let from = Path::new(c);
            let bytes =
                std::fs::read(from).with_context(|| format!("cannot read `{}`", from.display()))?;
            let name = from.file_name().unwrap_or_default();
            crate::fsutil::write_if_changed(&statics.join(name), &bytes)?;
        }
        for e in std::fs::read_dir(&statics)
            .with_context(|| format!("cannot read `{}`", statics.display()))?
            .flatten()
        {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("rustdoc-") && name.ends_with(".css") {
                let text = std::fs::read_to_string(e.path())?;
                if let Some(new) = css(&text, r.css_line) {
                    crate::fsutil::write_if_changed(&e.path(), new.as_bytes())?;
                }
            }
        }
    }
    Ok((!missing.is_empty()).then(|| {
        missing
            .iter()
            .map(|l| format!("warning: srctree/ link to {l} does not exist"))
            .collect::<Vec<_>>()
            .join("\n")
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel_rules() -> Vec<(Regex, String)> {
        compile(&[
            (r"rust-logo-[0-9a-f]+\.svg".into(), "logo.svg".into()),
            (r"favicon-[0-9a-f]+\.svg".into(), "logo.svg".into()),
            (
                r#"<link rel="alternate icon" type="image/png" href="[/.]+/static\.files/favicon-(16x16|32x32)-[0-9a-f]+\.png">"#.into(),
                "".into(),
            ),
            (r#"<a href="srctree/([^"]+)">"#.into(), r#"<a href="/src/linux/${1}">"#.into()),
        ])
        .unwrap()
    }

    #[test]
    fn pages_as_sed_leaves_them() {
        let html = r#"<img src="../static.files/rust-logo-9a9549ea.svg"><link rel="icon" href="../static.files/favicon-044be391.svg"><link rel="alternate icon" type="image/png" href="../static.files/favicon-32x32-eab170b8.png"><a href="srctree/rust/kernel/lib.rs">"#;
        let once = page(html, &kernel_rules());
        assert_eq!(
            once,
            r#"<img src="../static.files/logo.svg"><link rel="icon" href="../static.files/logo.svg"><a href="/src/linux/rust/kernel/lib.rs">"#
        );
        assert_eq!(page(&once, &kernel_rules()), once, "idempotent");
        assert_eq!(srctree_links(html), ["rust/kernel/lib.rs"]);
    }

    #[test]
    fn css_line_once() {
        let line = ".logo-container > img { object-fit: contain; }";
        let once = css("a{}\n", line).unwrap();
        assert_eq!(once, format!("a{{}}\n{line}\n"));
        assert_eq!(css(&once, line), None);
    }
}
