//! The tree's Kconfig, read with the `nom-kconfig` parser and flattened into what the evaluator
//! needs: every symbol with its type, prompts, ordered defaults, direct dependencies, selects,
//! implies and ranges, each property carrying the dependencies of the `if`/`menu`/`choice`
//! blocks around it (as the kernel's `menu_finalize` does), and every entry with `file:line`.
//!
//! nom-kconfig keeps order, comparison direction, choices and ranges, but not source positions
//! nor evaluation. Positions are recovered from the file texts: entries of one file come in
//! text order, so the n-th `config X` entry of a file is the n-th `config X` line of that file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use indexmap::IndexMap;
use nom_kconfig::attribute::expression::CompareOperand;
use nom_kconfig::attribute::r#type::Type;
use nom_kconfig::attribute::{r#macro::Macro, range::RangeBound};
use nom_kconfig::attribute::{
    AndExpression, Atom, CompareOperator, ExpressionToken, FunctionCall, OrExpression, Term,
};
use nom_kconfig::symbol::ConstantSymbol;
use nom_kconfig::{Attribute, Entry, KconfigFile, KconfigInput};

use super::SymType;

/// A place in the Kconfig sources.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Loc {
    #[serde(with = "arc_str")]
    pub file: Arc<str>,
    pub line: usize,
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A Kconfig expression.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Expr {
    /// A symbol reference (defined or not: an undefined name is `n`).
    Sym(String),
    /// A constant: `y`, `m`, `n`, a number or a quoted string.
    Const(String),
    /// A `$(…)` preprocessor call, kept as text and expanded on evaluation.
    Macro(String),
    Not(Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Cmp(Cmp, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    fn text(self) -> &'static str {
        match self {
            Cmp::Eq => "=",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

impl Expr {
    pub fn y() -> Expr {
        Expr::Const("y".into())
    }

    /// `a && b`, flattening and dropping constant `y`.
    pub fn and(a: Expr, b: Expr) -> Expr {
        match (a, b) {
            (Expr::Const(y), e) | (e, Expr::Const(y)) if y == "y" => e,
            (Expr::And(mut v), Expr::And(w)) => {
                v.extend(w);
                Expr::And(v)
            }
            (Expr::And(mut v), e) => {
                v.push(e);
                Expr::And(v)
            }
            (e, Expr::And(mut v)) => {
                v.insert(0, e);
                Expr::And(v)
            }
            (a, b) => Expr::And(vec![a, b]),
        }
    }

    /// Every symbol name the expression reads.
    pub fn symbols(&self, out: &mut Vec<String>) {
        match self {
            Expr::Sym(s) => {
                if !out.contains(s) {
                    out.push(s.clone())
                }
            }
            Expr::Const(_) | Expr::Macro(_) => {}
            Expr::Not(e) => e.symbols(out),
            Expr::And(v) | Expr::Or(v) => v.iter().for_each(|e| e.symbols(out)),
            Expr::Cmp(_, a, b) => {
                a.symbols(out);
                b.symbols(out)
            }
        }
    }

    /// The `&&` terms (the expression itself when it is not a conjunction).
    pub fn conjuncts(&self) -> Vec<&Expr> {
        match self {
            Expr::And(v) => v.iter().flat_map(|e| e.conjuncts()).collect(),
            e => vec![e],
        }
    }
}

impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let paren = |e: &Expr| match e {
            Expr::And(_) | Expr::Or(_) => format!("({e})"),
            e => e.to_string(),
        };
        match self {
            Expr::Sym(s) => f.write_str(s),
            Expr::Const(c) if matches!(c.as_str(), "y" | "m" | "n") => f.write_str(c),
            Expr::Const(c) if c.parse::<i64>().is_ok() || c.starts_with("0x") => f.write_str(c),
            Expr::Const(c) => write!(f, "\"{c}\""),
            Expr::Macro(m) => f.write_str(m),
            Expr::Not(e) => write!(f, "!{}", paren(e)),
            Expr::And(v) => {
                let parts: Vec<String> = v
                    .iter()
                    .map(|e| match e {
                        Expr::Or(_) => format!("({e})"),
                        e => e.to_string(),
                    })
                    .collect();
                f.write_str(&parts.join(" && "))
            }
            Expr::Or(v) => {
                let parts: Vec<String> = v.iter().map(|e| e.to_string()).collect();
                f.write_str(&parts.join(" || "))
            }
            Expr::Cmp(op, a, b) => write!(f, "{a} {} {b}", op.text()),
        }
    }
}

/// A property with the condition under which it applies (its own `if` and the dependencies of
/// its entry), and where it is written.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Prop<T> {
    pub value: T,
    pub cond: Expr,
    pub loc: Loc,
}

/// One `config`/`menuconfig` entry: a symbol may have several.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Definition {
    pub loc: Loc,
    /// Everything this entry depends on: its `depends on` lines and the enclosing blocks.
    pub deps: Expr,
    /// The individual `depends on` lines and block conditions, for explanations.
    pub dep_lines: Vec<Prop<Expr>>,
}

#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Symbol {
    pub name: String,
    pub ty: Option<SymType>,
    pub defs: Vec<Definition>,
    pub prompts: Vec<Prop<String>>,
    pub defaults: Vec<Prop<Expr>>,
    /// Reverse dependencies: (selecting symbol, condition incl. the selector's dependencies).
    pub selected_by: Vec<Prop<String>>,
    pub implied_by: Vec<Prop<String>>,
    pub ranges: Vec<Prop<(Expr, Expr)>>,
    pub choice: Option<usize>,
    pub transitional: bool,
    pub help: Option<String>,
}

impl Symbol {
    /// The direct dependency: the OR over the definitions (the kernel's `dir_dep`).
    pub fn dir_dep(&self) -> Expr {
        match self.defs.len() {
            0 => Expr::y(),
            1 => self.defs[0].deps.clone(),
            _ => Expr::Or(self.defs.iter().map(|d| d.deps.clone()).collect()),
        }
    }
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Choice {
    pub loc: Loc,
    pub prompts: Vec<Prop<String>>,
    pub defaults: Vec<Prop<String>>,
    pub deps: Expr,
    pub members: Vec<String>,
    pub optional: bool,
}

/// The whole tree.
#[derive(Debug)]
pub struct Kconfig {
    pub srctree: PathBuf,
    pub srcarch: String,
    pub symbols: IndexMap<String, Symbol>,
    pub choices: Vec<Choice>,
    /// The symbol marked `modules` (MODULES).
    pub modules: Option<String>,
    /// `name`, `=`/`:=`/`+=`, value text, from the files' variable assignments in order.
    pub variables: Vec<(String, String, String)>,
    /// Files read, `config`/`menuconfig` entries seen.
    pub files: usize,
    pub entries: usize,
    pub parse_time: std::time::Duration,
    /// Every file read (relative to the source tree), to validate the parse cache.
    pub file_list: Vec<String>,
    /// Whether this came from the parse cache.
    pub cached: bool,
}

mod arc_str {
    use std::sync::Arc;

    use serde::{Deserialize as _, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Arc<str>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<str>, D::Error> {
        String::deserialize(d).map(Arc::from)
    }
}

/// The parse cache: the flattened tree, and the size and mtime of every file it was read from.
#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    format: String,
    srctree: PathBuf,
    srcarch: String,
    stamps: Vec<(String, u64, u128)>,
    symbols: Vec<Symbol>,
    choices: Vec<Choice>,
    modules: Option<String>,
    variables: Vec<(String, String, String)>,
    files: usize,
    entries: usize,
}

const CACHE_FORMAT: &str = concat!("rkbuild-kconfig-tree-1-", env!("CARGO_PKG_VERSION"));

fn stamp(path: &Path) -> Option<(u64, u128)> {
    let m = std::fs::metadata(path).ok()?;
    let t = m
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some((m.len(), t))
}

fn cache_file(srctree: &Path, root: &str, srcarch: &str) -> Option<PathBuf> {
    let key = format!(
        "{}\n{root}\n{srcarch}",
        crate::fsutil::canonical(srctree).display()
    );
    super::macros::cache_dir().map(|d| {
        d.join(format!(
            "kconfig-tree-{:016x}.json",
            super::macros::fnv(&key)
        ))
    })
}

impl Kconfig {
    /// How many symbols have at least one definition (names only referenced are not counted).
    pub fn defined_symbols(&self) -> usize {
        self.symbols.values().filter(|s| !s.defs.is_empty()).count()
    }

    /// [`Kconfig::load`] through the parse cache: the flattened tree is stored beside the probe
    /// cache and reused while no Kconfig file it was read from changed (size and mtime).
    pub fn load_cached(srctree: &Path, srcarch: &str) -> Result<Kconfig, KconfigError> {
        let start = std::time::Instant::now();
        // RKBUILD_NO_PARSE_CACHE=1 parses every time (the benchmark measures both).
        let file = cache_file(srctree, "Kconfig", srcarch)
            .filter(|_| std::env::var_os("RKBUILD_NO_PARSE_CACHE").is_none());
        if let Some(stored) = file
            .as_ref()
            .and_then(|f| std::fs::read(f).ok())
            .and_then(|b| serde_json::from_slice::<Stored>(&b).ok())
        {
            let fresh = stored.format == CACHE_FORMAT
                && stored.srcarch == srcarch
                && stored
                    .stamps
                    .iter()
                    .all(|(f, len, t)| stamp(&srctree.join(f)) == Some((*len, *t)));
            if fresh {
                return Ok(Kconfig {
                    srctree: srctree.to_path_buf(),
                    srcarch: stored.srcarch,
                    symbols: stored
                        .symbols
                        .into_iter()
                        .map(|s| (s.name.clone(), s))
                        .collect(),
                    choices: stored.choices,
                    modules: stored.modules,
                    variables: stored.variables,
                    files: stored.files,
                    entries: stored.entries,
                    parse_time: start.elapsed(),
                    file_list: stored.stamps.into_iter().map(|s| s.0).collect(),
                    cached: true,
                });
            }
        }
        let kc = Kconfig::load(srctree, srcarch)?;
        if let Some(f) = file {
            let stored = Stored {
                format: CACHE_FORMAT.into(),
                srctree: srctree.to_path_buf(),
                srcarch: srcarch.into(),
                stamps: kc
                    .file_list
                    .iter()
                    .filter_map(|f| stamp(&srctree.join(f)).map(|(l, t)| (f.clone(), l, t)))
                    .collect(),
                symbols: kc.symbols.values().cloned().collect(),
                choices: kc.choices.clone(),
                modules: kc.modules.clone(),
                variables: kc.variables.clone(),
                files: kc.files,
                entries: kc.entries,
            };
            if let Ok(bytes) = serde_json::to_vec(&stored) {
                let _ = crate::fsutil::write_if_changed(&f, &bytes);
            }
        }
        Ok(kc)
    }
}

/// What can go wrong reading a Kconfig tree.
#[derive(Debug, thiserror::Error)]
pub enum KconfigError {
    #[error("{file}:{line}: Kconfig syntax error: cannot parse `{text}`\n  the construct starts here; it is not valid Kconfig (or not one nom-kconfig 0.13 knows)")]
    Syntax {
        file: String,
        line: u32,
        text: String,
    },
    #[error("{from}: `source \"{path}\"`: the file does not exist\n  fix: the tree is incomplete, or a variable in the path ($(SRCARCH)…) has the wrong value ({srcarch})")]
    MissingSource {
        from: String,
        path: String,
        srcarch: String,
    },
    #[error("`{}` has no top-level Kconfig\n  fix: pass the top of the kernel source tree as --srctree", .0.display())]
    NoKconfig(PathBuf),
}

/// Whether a tree has a Kconfig to read.
pub fn has_kconfig(srctree: &Path) -> bool {
    srctree.join("Kconfig").is_file()
}

impl Kconfig {
    /// Parses `<srctree>/Kconfig` for `srcarch` (the folder under `arch/`).
    pub fn load(srctree: &Path, srcarch: &str) -> Result<Kconfig, KconfigError> {
        Self::load_file(srctree, "Kconfig", srcarch)
    }

    /// Parses `root` (relative to `srctree`) for `srcarch`.
    pub fn load_file(srctree: &Path, root: &str, srcarch: &str) -> Result<Kconfig, KconfigError> {
        let start = std::time::Instant::now();
        if !srctree.join(root).is_file() {
            return Err(KconfigError::NoKconfig(srctree.to_path_buf()));
        }
        // nom-kconfig builds its AST deep on the stack (one frame per nested block and source):
        // parse on a thread with room to spare.
        let (srctree2, root2, srcarch2) =
            (srctree.to_path_buf(), root.to_string(), srcarch.to_string());
        let mut kc = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || Self::parse_and_build(&srctree2, &root2, &srcarch2))
            .expect("spawn the parser thread")
            .join()
            .map_err(|_| KconfigError::Syntax {
                file: root.to_string(),
                line: 0,
                text: "(the parser panicked)".into(),
            })??;
        kc.parse_time = start.elapsed();
        Ok(kc)
    }

    fn parse_and_build(srctree: &Path, root: &str, srcarch: &str) -> Result<Kconfig, KconfigError> {
        let mut b = Builder {
            srctree: srctree.to_path_buf(),
            srcarch: srcarch.to_string(),
            kc: Kconfig {
                srctree: srctree.to_path_buf(),
                srcarch: srcarch.to_string(),
                symbols: IndexMap::new(),
                choices: vec![],
                modules: None,
                variables: vec![],
                files: 0,
                entries: 0,
                parse_time: Default::default(),
                file_list: vec![],
                cached: false,
            },
            lines: HashMap::new(),
        };
        let root_text = std::fs::read_to_string(srctree.join(root))
            .map_err(|_| KconfigError::NoKconfig(srctree.into()))?;
        // The kernel's top Kconfig is a list of `source` lines: parse those subtrees in
        // parallel (nom-kconfig is single-threaded), then flatten them in order.
        if let Some(sources) = top_level_sources(&root_text, srcarch) {
            let parsed = parse_parallel(srctree, &sources, srcarch);
            let key = b.file_key(root);
            b.kc.files += 1;
            b.kc.file_list.push(key.to_string());
            b.lines
                .insert(key.clone(), FileLines::read(&srctree.join(root)));
            for ((line, path), result) in sources.iter().zip(parsed) {
                match result {
                    Ok(k) => b.source(&key, *line, &k.file, &k.entries, &Ctx::top())?,
                    Err(ParseFailure::Missing) => {
                        return Err(KconfigError::MissingSource {
                            from: format!("{key}:{line}"),
                            path: path.clone(),
                            srcarch: format!("SRCARCH={srcarch}"),
                        })
                    }
                    Err(ParseFailure::Syntax(e)) => return Err(syntax_error(srctree, root, e)),
                }
            }
            return Ok(b.kc);
        }
        let kf = new_file(srctree, root, srcarch);
        let text = kf
            .read_to_string()
            .map_err(|_| KconfigError::NoKconfig(srctree.into()))?;
        let parsed = nom_kconfig::parse_kconfig(KconfigInput::new_extra(&text, kf))
            .map(|(_, k)| k)
            .map_err(|e| syntax_error(srctree, root, e))?;
        let file = b.file_key(&parsed.file);
        b.file(&file, &parsed.entries, &Ctx::top())?;
        Ok(b.kc)
    }

    pub fn get(&self, name: &str) -> Option<&Symbol> {
        self.symbols.get(name)
    }

    pub fn sym_type(&self, name: &str) -> Option<SymType> {
        self.symbols.get(name).and_then(|s| s.ty)
    }
}

fn new_file(srctree: &Path, file: &str, srcarch: &str) -> KconfigFile {
    let mut vars = HashMap::new();
    vars.insert("SRCARCH", srcarch);
    vars.insert("ARCH", srcarch);
    // um's HEADER_ARCH: irrelevant for the arches with Rust, but must not be empty.
    vars.insert("HEADER_ARCH", srcarch);
    KconfigFile::new_with_vars(
        srctree.to_path_buf(),
        PathBuf::from(file),
        &vars,
        &HashMap::new(),
    )
}

fn syntax_error(srctree: &Path, root: &str, e: nom_kconfig::error::Error) -> KconfigError {
    let f = e.filename.display().to_string();
    let file = if f.is_empty() { root.to_string() } else { f };
    // The whole source line, not just where the parser gave up inside it.
    let text = std::fs::read(srctree.join(&file))
        .ok()
        .and_then(|b| {
            String::from_utf8_lossy(&b)
                .lines()
                .nth((e.line as usize).saturating_sub(1))
                .map(|l| l.trim().to_string())
        })
        .unwrap_or_else(|| e.input.lines().next().unwrap_or("").trim().to_string());
    KconfigError::Syntax {
        file,
        line: e.line,
        text,
    }
}

/// The `source` lines of a top Kconfig made only of `mainmenu`, `source`, comments and blank
/// lines (as the kernel's is), with their line numbers; `None` for anything else.
fn top_level_sources(text: &str, srcarch: &str) -> Option<Vec<(usize, String)>> {
    let mut out = vec![];
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("mainmenu ") {
            continue;
        }
        let path = t.strip_prefix("source")?.trim();
        let path = path.strip_prefix('"')?.strip_suffix('"')?;
        if path.contains('*') {
            return None;
        }
        let path = path
            .replace("$(SRCARCH)", srcarch)
            .replace("$(ARCH)", srcarch)
            .replace("$(HEADER_ARCH)", srcarch);
        if path.contains("$(") {
            return None;
        }
        out.push((i + 1, path));
    }
    (!out.is_empty()).then_some(out)
}

enum ParseFailure {
    Missing,
    Syntax(nom_kconfig::error::Error),
}

/// Parses each file (and what it sources) with nom-kconfig, on as many threads as there are
/// cores; results in input order.
fn parse_parallel(
    srctree: &Path,
    files: &[(usize, String)],
    srcarch: &str,
) -> Vec<Result<nom_kconfig::Kconfig, ParseFailure>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<nom_kconfig::Kconfig, ParseFailure>>>> =
        Mutex::new((0..files.len()).map(|_| None).collect());
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .min(files.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                // Each parse gets a thread with a deep stack (nom-kconfig recurses per block).
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= files.len() {
                        break;
                    }
                    let (src, file, arch) = (
                        srctree.to_path_buf(),
                        files[i].1.clone(),
                        srcarch.to_string(),
                    );
                    let r = std::thread::Builder::new()
                        .stack_size(256 << 20)
                        .spawn(move || {
                            let kf = new_file(&src, &file, &arch);
                            let text = kf.read_to_string().map_err(|_| ParseFailure::Missing)?;
                            nom_kconfig::parse_kconfig(KconfigInput::new_extra(&text, kf))
                                .map(|(_, k)| k)
                                .map_err(ParseFailure::Syntax)
                        })
                        .expect("spawn a parser thread")
                        .join()
                        .unwrap_or(Err(ParseFailure::Missing));
                    results.lock().expect("results")[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .expect("results")
        .into_iter()
        .map(|r| r.unwrap_or(Err(ParseFailure::Missing)))
        .collect()
}

/// The enclosing blocks' state while walking.
#[derive(Clone)]
struct Ctx {
    deps: Expr,
    dep_lines: Vec<Prop<Expr>>,
    /// `visible if` of enclosing menus: limits prompts only.
    visible: Expr,
    choice: Option<usize>,
}

impl Ctx {
    fn top() -> Ctx {
        Ctx {
            deps: Expr::y(),
            dep_lines: vec![],
            visible: Expr::y(),
            choice: None,
        }
    }

    fn with_dep(&self, e: Expr, loc: Loc) -> Ctx {
        let mut c = self.clone();
        c.deps = Expr::and(c.deps, e.clone());
        c.dep_lines.push(Prop {
            value: e,
            cond: Expr::y(),
            loc,
        });
        c
    }
}

/// Line positions of one file's entries, consumed in order.
#[derive(Default)]
struct FileLines {
    lines: Vec<String>,
    /// keyword-and-name → line numbers (1-based), and how many were used.
    starts: HashMap<String, (Vec<usize>, usize)>,
    /// All entry-start lines, sorted (to bound an entry's block).
    all_starts: Vec<usize>,
}

const ENTRY_KEYWORDS: [&str; 8] = [
    "config",
    "menuconfig",
    "choice",
    "endchoice",
    "menu",
    "endmenu",
    "if",
    "endif",
];

impl FileLines {
    fn read(path: &Path) -> FileLines {
        let text = std::fs::read(path)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let lines: Vec<String> = text.lines().map(String::from).collect();
        let mut fl = FileLines {
            lines,
            ..Default::default()
        };
        for (i, l) in fl.lines.iter().enumerate() {
            let mut words = l.split_whitespace();
            let Some(kw) = words.next() else { continue };
            if !ENTRY_KEYWORDS.contains(&kw) && kw != "comment" && kw != "source" {
                continue;
            }
            fl.all_starts.push(i + 1);
            let key = match kw {
                "config" | "menuconfig" => format!("config {}", words.next().unwrap_or("")),
                k => k.to_string(),
            };
            fl.starts.entry(key).or_default().0.push(i + 1);
        }
        fl
    }

    fn next(&mut self, key: &str) -> usize {
        match self.starts.get_mut(key) {
            Some((v, used)) if *used < v.len() => {
                *used += 1;
                v[*used - 1]
            }
            Some((v, _)) => v.last().copied().unwrap_or(0),
            None => 0,
        }
    }

    /// The line of the `n`-th line in the block starting at `start` whose first word is one of
    /// `kws` (`depends` for `depends on`).
    fn attr_line(&self, start: usize, kws: &[&str], n: usize) -> usize {
        let end = self
            .all_starts
            .iter()
            .copied()
            .find(|&s| s > start)
            .unwrap_or(self.lines.len() + 1);
        self.lines
            .iter()
            .enumerate()
            .take(end.saturating_sub(1))
            .skip(start)
            .filter(|(_, l)| {
                l.split_whitespace()
                    .next()
                    .is_some_and(|w| kws.contains(&w))
            })
            .nth(n)
            .map(|(i, _)| i + 1)
            .unwrap_or(start)
    }
}

struct Builder {
    srctree: PathBuf,
    srcarch: String,
    kc: Kconfig,
    lines: HashMap<Arc<str>, FileLines>,
}

impl Builder {
    /// The file name as shown in messages: relative to the source tree.
    fn file_key(&self, name: &str) -> Arc<str> {
        let p = Path::new(name);
        let rel = p.strip_prefix(&self.srctree).unwrap_or(p);
        Arc::from(rel.display().to_string())
    }

    fn file(&mut self, file: &Arc<str>, entries: &[Entry], ctx: &Ctx) -> Result<(), KconfigError> {
        if !self.lines.contains_key(file) {
            self.kc.files += 1;
            self.kc.file_list.push(file.to_string());
            let fl = FileLines::read(&self.srctree.join(&**file));
            self.lines.insert(file.clone(), fl);
        }
        self.entries(file, entries, ctx)
    }

    fn loc(&self, file: &Arc<str>, line: usize) -> Loc {
        Loc {
            file: file.clone(),
            line,
        }
    }

    fn next_line(&mut self, file: &Arc<str>, key: &str) -> usize {
        self.lines.get_mut(file).map(|f| f.next(key)).unwrap_or(0)
    }

    fn entries(
        &mut self,
        file: &Arc<str>,
        entries: &[Entry],
        ctx: &Ctx,
    ) -> Result<(), KconfigError> {
        for e in entries {
            match e {
                Entry::Config(c) => {
                    let line = self.next_line(file, &format!("config {}", c.symbol));
                    self.config(file, line, &c.symbol, &c.attributes, ctx);
                }
                Entry::MenuConfig(c) => {
                    let line = self.next_line(file, &format!("config {}", c.symbol));
                    self.config(file, line, &c.symbol, &c.attributes, ctx);
                }
                Entry::Choice(ch) => {
                    let line = self.next_line(file, "choice");
                    self.choice(file, line, ch, ctx)?;
                }
                Entry::Menu(m) => {
                    let line = self.next_line(file, "menu");
                    let mut inner = ctx.clone();
                    for d in &m.depends_on {
                        inner = inner.with_dep(expr(&d.expression), self.loc(file, line));
                    }
                    if let Some(Some(v)) = &m.visible {
                        inner.visible = Expr::and(inner.visible, expr(v));
                    }
                    self.entries(file, &m.entries, &inner)?;
                }
                Entry::If(i) => {
                    let line = self.next_line(file, "if");
                    let cond = fixed(self.lines.get(file), line, expr(&i.condition));
                    let inner = ctx.with_dep(cond, self.loc(file, line));
                    self.entries(file, &i.entries, &inner)?;
                }
                Entry::Source(s) => {
                    let line = self.next_line(file, "source");
                    for k in &s.kconfigs {
                        self.source(file, line, &k.file, &k.entries, ctx)?;
                    }
                }
                Entry::OSource(s) => {
                    for k in &s.kconfigs {
                        let f = self.file_key(&k.file);
                        self.file(&f, &k.entries, ctx)?;
                    }
                }
                Entry::RSource(s) => {
                    let line = self.next_line(file, "source");
                    for k in &s.kconfigs {
                        self.source(file, line, &k.file, &k.entries, ctx)?;
                    }
                }
                Entry::OrSource(s) => {
                    for k in &s.kconfigs {
                        let f = self.file_key(&k.file);
                        self.file(&f, &k.entries, ctx)?;
                    }
                }
                Entry::Comment(_) => {
                    self.next_line(file, "comment");
                }
                Entry::VariableAssignment(v) => {
                    let name = match &v.identifier {
                        nom_kconfig::entry::VariableIdentifier::Identifier(s) => s.clone(),
                        nom_kconfig::entry::VariableIdentifier::VariableRef(t) => tokens(t),
                    };
                    let value = match &v.right {
                        nom_kconfig::entry::Value::Literal(s) => s.clone(),
                        nom_kconfig::entry::Value::ExpandedVariable(s) => s.clone(),
                        nom_kconfig::entry::Value::FunctionCall(f) => call(f),
                    };
                    self.kc.variables.push((name, v.operator.clone(), value));
                }
                Entry::ConfigDefault(_)
                | Entry::MainMenu(_)
                | Entry::FunctionCall(_)
                | Entry::Function(_) => {}
            }
        }
        Ok(())
    }

    fn source(
        &mut self,
        from: &Arc<str>,
        line: usize,
        name: &str,
        entries: &[Entry],
        ctx: &Ctx,
    ) -> Result<(), KconfigError> {
        let f = self.file_key(name);
        let full = self.srctree.join(&*f);
        // nom-kconfig hands back an empty file for a source it could not read.
        if entries.is_empty() && !full.is_file() {
            return Err(KconfigError::MissingSource {
                from: format!("{from}:{line}"),
                path: f.to_string(),
                srcarch: format!("SRCARCH={}", self.srcarch),
            });
        }
        self.file(&f, entries, ctx)
    }

    fn sym(&mut self, name: &str) -> &mut Symbol {
        self.kc
            .symbols
            .entry(name.to_string())
            .or_insert_with(|| Symbol {
                name: name.to_string(),
                ..Default::default()
            })
    }

    fn config(&mut self, file: &Arc<str>, line: usize, name: &str, attrs: &[Attribute], ctx: &Ctx) {
        self.kc.entries += 1;
        let fl = self.lines.get(file);
        let attr_line =
            |kws: &[&str], n: usize| fl.map(|f| f.attr_line(line, kws, n)).unwrap_or(line);
        let loc = |l: usize| Loc {
            file: file.clone(),
            line: l,
        };
        // This entry's own dependencies first: they condition every property of the entry.
        let mut deps = ctx.deps.clone();
        let mut dep_lines = ctx.dep_lines.clone();
        let mut n_dep = 0;
        for a in attrs {
            if let Attribute::DependsOn(d) = a {
                let l = attr_line(&["depends"], n_dep);
                let mut e = fixed(fl, l, expr(&d.expression));
                if let Some(c) = &d.r#if {
                    // `depends on A if B` means `depends on A || !B`.
                    e = Expr::Or(vec![e, Expr::Not(Box::new(fixed(fl, l, expr(c))))]);
                }
                deps = Expr::and(deps, e.clone());
                dep_lines.push(Prop {
                    value: e,
                    cond: Expr::y(),
                    loc: loc(l),
                });
                n_dep += 1;
            }
        }
        let cond = |own: &Option<nom_kconfig::attribute::Expression>, l: usize| match own {
            Some(c) => Expr::and(fixed(fl, l, expr(c)), deps.clone()),
            None => deps.clone(),
        };
        let mut prompts = vec![];
        let mut defaults = vec![];
        let mut selects = vec![];
        let mut implies = vec![];
        let mut ranges = vec![];
        let mut ty = None;
        let mut help = None;
        let mut transitional = false;
        let (mut n_prompt, mut n_default, mut n_select, mut n_imply, mut n_range) = (0, 0, 0, 0, 0);
        let prompt_cond = |own: &Option<nom_kconfig::attribute::Expression>, l: usize| {
            Expr::and(cond(own, l), ctx.visible.clone())
        };
        const TYPE_KWS: [&str; 11] = [
            "bool",
            "tristate",
            "string",
            "hex",
            "int",
            "def_bool",
            "def_tristate",
            "def_int",
            "def_hex",
            "def_string",
            "boolean",
        ];
        const DEFAULT_KWS: [&str; 6] = [
            "default",
            "def_bool",
            "def_tristate",
            "def_int",
            "def_hex",
            "def_string",
        ];
        for a in attrs {
            match a {
                Attribute::Type(t) => {
                    let (kind, prompt, default) = match &t.r#type {
                        Type::Bool(p) => (SymType::Bool, p.clone(), None),
                        Type::Tristate(p) => (SymType::Tristate, p.clone(), None),
                        Type::String(p) => (SymType::String, p.clone(), None),
                        Type::Hex(p) => (SymType::Hex, p.clone(), None),
                        Type::Int(p) => (SymType::Int, p.clone(), None),
                        Type::DefBool(e) => (SymType::Bool, None, Some(e)),
                        Type::DefTristate(e) => (SymType::Tristate, None, Some(e)),
                        Type::DefInt(e) => (SymType::Int, None, Some(e)),
                        Type::DefHex(e) => (SymType::Hex, None, Some(e)),
                        Type::DefString(e) => (SymType::String, None, Some(e)),
                    };
                    ty = Some(kind);
                    let l = attr_line(&TYPE_KWS, 0);
                    if let Some(p) = prompt {
                        prompts.push(Prop {
                            value: p,
                            cond: prompt_cond(&t.r#if, l),
                            loc: loc(l),
                        });
                    }
                    if let Some(e) = default {
                        defaults.push(Prop {
                            value: fixed(fl, l, expr(e)),
                            cond: cond(&t.r#if, l),
                            loc: loc(l),
                        });
                        n_default += usize::from(l != line);
                    }
                }
                Attribute::Prompt(p) => {
                    let l = attr_line(&["prompt"], n_prompt);
                    prompts.push(Prop {
                        value: p.prompt.clone(),
                        cond: prompt_cond(&p.r#if, l),
                        loc: loc(l),
                    });
                    n_prompt += 1;
                }
                Attribute::Default(d) => {
                    // Count def_* lines already used by the type.
                    let l = attr_line(&DEFAULT_KWS, n_default);
                    n_default += 1;
                    defaults.push(Prop {
                        value: fixed(fl, l, expr(&d.expression)),
                        cond: cond(&d.r#if, l),
                        loc: loc(l),
                    });
                }
                Attribute::Select(s) => {
                    let l = attr_line(&["select"], n_select);
                    selects.push((s.symbol.clone(), cond(&s.r#if, l), l));
                    n_select += 1;
                }
                Attribute::Imply(i) => {
                    let target = match &i.symbol {
                        nom_kconfig::Symbol::NonConstant(s) => s.clone(),
                        nom_kconfig::Symbol::Constant(_) => continue,
                    };
                    let l = attr_line(&["imply"], n_imply);
                    implies.push((target, cond(&i.r#if, l), l));
                    n_imply += 1;
                }
                Attribute::Range(r) => {
                    let l = attr_line(&["range"], n_range);
                    ranges.push(Prop {
                        value: (bound(&r.lower_bound), bound(&r.upper_bound)),
                        cond: cond(&r.r#if, l),
                        loc: loc(l),
                    });
                    n_range += 1;
                }
                Attribute::Modules => self.kc.modules = Some(name.to_string()),
                Attribute::Option(nom_kconfig::attribute::OptionValues::Modules) => {
                    self.kc.modules = Some(name.to_string())
                }
                Attribute::Transitional => transitional = true,
                Attribute::Help(h) => help = Some(h.clone()),
                _ => {}
            }
        }
        let def = Definition {
            loc: loc(line),
            deps: deps.clone(),
            dep_lines,
        };
        let s = self.sym(name);
        if s.ty.is_none() {
            s.ty = ty;
        }
        s.defs.push(def);
        s.prompts.extend(prompts);
        s.defaults.extend(defaults);
        s.ranges.extend(ranges);
        s.transitional |= transitional;
        if s.help.is_none() {
            s.help = help;
        }
        if ctx.choice.is_some() {
            s.choice = ctx.choice;
        }
        for (target, cond, l) in selects {
            self.sym(&target).selected_by.push(Prop {
                value: name.to_string(),
                cond,
                loc: loc(l),
            });
        }
        for (target, cond, l) in implies {
            self.sym(&target).implied_by.push(Prop {
                value: name.to_string(),
                cond,
                loc: loc(l),
            });
        }
    }

    fn choice(
        &mut self,
        file: &Arc<str>,
        line: usize,
        ch: &nom_kconfig::entry::Choice,
        ctx: &Ctx,
    ) -> Result<(), KconfigError> {
        let idx = self.kc.choices.len();
        let loc = self.loc(file, line);
        let mut inner = ctx.clone();
        for a in &ch.options {
            if let Attribute::DependsOn(d) = a {
                inner = inner.with_dep(expr(&d.expression), loc.clone());
            }
        }
        let mut c = Choice {
            loc: loc.clone(),
            prompts: vec![],
            defaults: vec![],
            deps: inner.deps.clone(),
            members: vec![],
            optional: false,
        };
        let cond = |own: &Option<nom_kconfig::attribute::Expression>| match own {
            Some(e) => Expr::and(expr(e), inner.deps.clone()),
            None => inner.deps.clone(),
        };
        for a in &ch.options {
            match a {
                Attribute::Prompt(p) => c.prompts.push(Prop {
                    value: p.prompt.clone(),
                    cond: Expr::and(cond(&p.r#if), inner.visible.clone()),
                    loc: loc.clone(),
                }),
                Attribute::Type(t) => {
                    if let Type::Bool(Some(p)) | Type::Tristate(Some(p)) = &t.r#type {
                        c.prompts.push(Prop {
                            value: p.clone(),
                            cond: Expr::and(cond(&t.r#if), inner.visible.clone()),
                            loc: loc.clone(),
                        })
                    }
                }
                Attribute::Default(d) => {
                    if let Expr::Sym(s) = expr(&d.expression) {
                        c.defaults.push(Prop {
                            value: s,
                            cond: cond(&d.r#if),
                            loc: loc.clone(),
                        })
                    }
                }
                Attribute::Optional => c.optional = true,
                _ => {}
            }
        }
        self.kc.choices.push(c);
        inner.choice = Some(idx);
        let mut members = vec![];
        collect_members(&ch.entries, &mut members);
        self.kc.choices[idx].members = members;
        self.entries(file, &ch.entries, &inner)?;
        self.next_line(file, "endchoice");
        Ok(())
    }
}

/// nom-kconfig substitutes `:=` variables textually before parsing, so `$(comma)` inside a
/// macro argument becomes a bare `,` and splits the argument. The original text of each `$(…)`
/// call is taken back from the source line (joined with its `\` continuations), matched by
/// function name and order.
fn fixed(fl: Option<&FileLines>, line: usize, mut e: Expr) -> Expr {
    let Some(fl) = fl else { return e };
    if line == 0 || line > fl.lines.len() {
        return e;
    }
    let mut text = String::new();
    for l in &fl.lines[line - 1..] {
        match l.strip_suffix('\\') {
            Some(head) => text.push_str(head),
            None => {
                text.push_str(l);
                break;
            }
        }
    }
    let calls = top_level_calls(&text);
    if calls.is_empty() {
        return e;
    }
    let mut used: HashMap<String, usize> = HashMap::new();
    fix_expr(&mut e, &calls, &mut used);
    e
}

fn call_name(call: &str) -> &str {
    let body = &call[2..];
    let end = body.find([',', ')']).unwrap_or(body.len());
    body[..end].trim()
}

fn top_level_calls(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut rest = text;
    while let Some(i) = rest.find("$(") {
        let mut depth = 0usize;
        let mut end = None;
        for (j, c) in rest[i + 2..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(i + 2 + j);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let Some(end) = end else { break };
        out.push(rest[i..=end].to_string());
        rest = &rest[end + 1..];
    }
    out
}

fn fix_expr(e: &mut Expr, calls: &[String], used: &mut HashMap<String, usize>) {
    match e {
        Expr::Macro(m) if m.starts_with("$(") => {
            let name = call_name(m).to_string();
            let n = used.entry(name.clone()).or_insert(0);
            if let Some(orig) = calls.iter().filter(|c| call_name(c) == name).nth(*n) {
                *m = orig.clone();
            }
            *n += 1;
        }
        Expr::Not(x) => fix_expr(x, calls, used),
        Expr::And(v) | Expr::Or(v) => v.iter_mut().for_each(|x| fix_expr(x, calls, used)),
        Expr::Cmp(_, a, b) => {
            fix_expr(a, calls, used);
            fix_expr(b, calls, used)
        }
        _ => {}
    }
}

/// The symbols directly in a choice (also inside `if` blocks there).
fn collect_members(entries: &[Entry], out: &mut Vec<String>) {
    for e in entries {
        match e {
            Entry::Config(c) | Entry::MenuConfig(c) => out.push(c.symbol.clone()),
            Entry::If(i) => collect_members(&i.entries, out),
            _ => {}
        }
    }
}

fn bound(b: &RangeBound) -> Expr {
    match b {
        RangeBound::Hex(h) => Expr::Const(h.clone()),
        RangeBound::Number(n) => Expr::Const(n.to_string()),
        RangeBound::Symbol(s) => Expr::Sym(s.clone()),
        RangeBound::Variable(v) => Expr::Macro(format!("$({v})")),
    }
}

/// Converts nom-kconfig's expression tree.
pub fn expr(e: &OrExpression) -> Expr {
    match e {
        OrExpression::Term(a) => and_expr(a),
        OrExpression::Expression(v) => Expr::Or(v.iter().map(and_expr).collect()),
    }
}

fn and_expr(e: &AndExpression) -> Expr {
    match e {
        AndExpression::Term(t) => term(t),
        AndExpression::Expression(v) => Expr::And(v.iter().map(term).collect()),
    }
}

fn term(t: &Term) -> Expr {
    match t {
        Term::Not(a) => Expr::Not(Box::new(atom(a))),
        Term::Atom(a) => atom(a),
    }
}

fn atom(a: &Atom) -> Expr {
    match a {
        Atom::Symbol(s) => symbol(s),
        Atom::Compare(c) => {
            let op = match c.operator {
                CompareOperator::Equal => Cmp::Eq,
                CompareOperator::NotEqual => Cmp::Ne,
                CompareOperator::LowerThan => Cmp::Lt,
                CompareOperator::LowerOrEqual => Cmp::Le,
                CompareOperator::GreaterThan => Cmp::Gt,
                CompareOperator::GreaterOrEqual => Cmp::Ge,
            };
            Expr::Cmp(op, Box::new(operand(&c.left)), Box::new(operand(&c.right)))
        }
        Atom::Macro(m) => Expr::Macro(macro_text(m)),
        Atom::Parenthesis(e) => expr(e),
    }
}

fn operand(o: &CompareOperand) -> Expr {
    match o {
        CompareOperand::Symbol(s) => symbol(s),
        CompareOperand::Macro(m) => Expr::Macro(macro_text(m)),
    }
}

fn symbol(s: &nom_kconfig::Symbol) -> Expr {
    match s {
        nom_kconfig::Symbol::NonConstant(n) if n.starts_with("$(") => Expr::Macro(n.clone()),
        nom_kconfig::Symbol::NonConstant(n) => Expr::Sym(n.clone()),
        nom_kconfig::Symbol::Constant(c) => Expr::Const(match c {
            ConstantSymbol::Integer(i) => i.to_string(),
            ConstantSymbol::Hex(h) => h.clone(),
            ConstantSymbol::Boolean(true) => "y".into(),
            ConstantSymbol::Boolean(false) => "n".into(),
            ConstantSymbol::String(s) => s.clone(),
            ConstantSymbol::Tristate(t) => t.to_string(),
        }),
    }
}

fn macro_text(m: &Macro) -> String {
    match m {
        Macro::FunctionCall(f) => call(f),
        Macro::Variable(v) => format!("$({v})"),
        Macro::DoubleQuoted(m) => macro_text(m),
    }
}

/// Renders a macro call back to the preprocessor's text.
pub fn call(f: &FunctionCall) -> String {
    let mut s = format!("$({}", f.name);
    for p in &f.parameters {
        s.push(',');
        s.push_str(&tokens(&p.tokens));
    }
    s.push(')');
    s
}

fn tokens(t: &[ExpressionToken]) -> String {
    t.iter()
        .map(|t| match t {
            ExpressionToken::Literal(s) => s.clone(),
            ExpressionToken::Variable(v) => format!("$({v})"),
            ExpressionToken::DoubleQuotes(v) => format!("\"{}\"", tokens(v)),
            ExpressionToken::SingleQuotes(s) => format!("'{s}'"),
            ExpressionToken::Backtick(s) => format!("`{s}`"),
            ExpressionToken::Function(f) => call(f),
            ExpressionToken::Space => " ".into(),
        })
        .collect()
}
