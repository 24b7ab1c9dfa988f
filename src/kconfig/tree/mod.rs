//! The tree's Kconfig as the evaluator needs it: every symbol with its type, prompts, ordered
//! defaults, direct dependencies, selects, implies and ranges, each property carrying the
//! dependencies of the `if`/`menu`/`choice` blocks around it (as the kernel's `menu_finalize`
//! does), and every entry with `file:line`.
//!
//! This file holds that model and the ways in ([`Kconfig::load`], [`Kconfig::load_cached`]).
//! Reading is split by what each step knows about: `parse` runs the `nom-kconfig` parser over
//! the tree, `convert` flattens its AST into the model, `source_text` takes back from the file
//! texts what nom-kconfig drops (source positions, the written text of `$(…)` calls), and
//! `cache` keeps the flattened tree on disk between runs. Out of scope: evaluation
//! (`kconfig::eval`) and macro expansion (`kconfig::macros`); expressions keep `$(…)` as text.

mod cache;
mod convert;
mod parse;
mod scan;
mod source_text;
mod symbols;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::SymType;

pub use convert::{call, expr};
#[doc(hidden)]
pub use parse::{compare_parsers, ParserComparison};
pub use symbols::{Meta, Symbols};

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
    pub symbols: Symbols,
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

/// A [`Loc`]'s file name, written as text, or in the parse cache's symbols as a number into
/// the cache's table of file names: a symbol's places then cost no allocation to read, and the
/// cache is smaller. The table is set for the current thread around the cache's encoding and
/// decoding ([`arc_str::writing_numbers`], [`arc_str::reading_numbers`]).
mod arc_str {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::sync::Arc;

    use serde::{de::Error as _, Deserialize as _, Deserializer, Serializer};

    enum Table {
        Write(Vec<Arc<str>>, HashMap<Arc<str>, u32>),
        Read(Arc<[Arc<str>]>),
    }

    thread_local! {
        static TABLE: RefCell<Option<Table>> = const { RefCell::new(None) };
    }

    fn with_table<R>(table: Table, f: impl FnOnce() -> R) -> (R, Option<Table>) {
        let outer = TABLE.with(|t| t.borrow_mut().replace(table));
        let r = f();
        (
            r,
            TABLE.with(|t| std::mem::replace(&mut *t.borrow_mut(), outer)),
        )
    }

    /// Runs `f` with file names written as numbers; the names, in number order.
    pub fn writing_numbers<R>(f: impl FnOnce() -> R) -> (R, Vec<Arc<str>>) {
        match with_table(Table::Write(vec![], HashMap::new()), f) {
            (r, Some(Table::Write(names, _))) => (r, names),
            (r, _) => (r, vec![]),
        }
    }

    /// Runs `f` with file names read as numbers into `names`.
    pub fn reading_numbers<R>(names: &Arc<[Arc<str>]>, f: impl FnOnce() -> R) -> R {
        with_table(Table::Read(names.clone()), f).0
    }

    pub fn serialize<S: Serializer>(v: &Arc<str>, s: S) -> Result<S::Ok, S::Error> {
        let n = TABLE.with(|t| match t.borrow_mut().as_mut() {
            Some(Table::Write(names, numbers)) => {
                Some(*numbers.entry(v.clone()).or_insert_with(|| {
                    names.push(v.clone());
                    names.len() as u32 - 1
                }))
            }
            _ => None,
        });
        match n {
            Some(n) => s.serialize_u32(n),
            None => s.serialize_str(v),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<str>, D::Error> {
        let names = TABLE.with(|t| match t.borrow().as_ref() {
            Some(Table::Read(names)) => Some(names.clone()),
            _ => None,
        });
        match names {
            Some(names) => {
                let n = u32::deserialize(d)?;
                names
                    .get(n as usize)
                    .cloned()
                    .ok_or_else(|| D::Error::custom("a file number outside the table"))
            }
            None => String::deserialize(d).map(Arc::from),
        }
    }
}

pub(crate) use arc_str::{reading_numbers, writing_numbers};

/// What can go wrong reading a Kconfig tree.
#[derive(Debug, thiserror::Error)]
pub enum KconfigError {
    #[error("{file}:{line}: Kconfig syntax error: cannot parse `{text}`\n  the construct starts here; it is not valid Kconfig (or not one nom-kconfig 0.13 knows)")]
    Syntax {
        file: String,
        line: u32,
        text: String,
    },
    #[error("{file}:{line}: unterminated reference to `$(…`: missing `)` in `{text}`\n  fix: close the call or variable reference on its line (continue a long line with a trailing `\\`)")]
    Unterminated {
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
            .spawn(move || {
                let parsed = parse::parse(&srctree2, &root2, &srcarch2)?;
                convert::build(&srctree2, &root2, &srcarch2, parsed)
            })
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

    /// [`Kconfig::load`] through the parse cache: the flattened tree is stored beside the probe
    /// cache and reused while no Kconfig file it was read from changed (size and mtime).
    pub fn load_cached(srctree: &Path, srcarch: &str) -> Result<Kconfig, KconfigError> {
        let start = std::time::Instant::now();
        // RKBUILD_NO_PARSE_CACHE=1 parses every time (the benchmark measures both).
        let file = cache::file(srctree, "Kconfig", srcarch)
            .filter(|_| std::env::var_os("RKBUILD_NO_PARSE_CACHE").is_none());
        if let Some(mut kc) = file
            .as_deref()
            .and_then(|f| cache::load(f, srctree, srcarch))
        {
            kc.parse_time = start.elapsed();
            return Ok(kc);
        }
        let kc = Kconfig::load(srctree, srcarch)?;
        if let Some(f) = file {
            cache::save(&f, &kc);
        }
        Ok(kc)
    }

    pub fn get(&self, name: &str) -> Option<&Symbol> {
        self.symbols.get(name)
    }

    pub fn sym_type(&self, name: &str) -> Option<SymType> {
        self.symbols.meta(name).and_then(|m| m.ty)
    }

    /// How many symbols have at least one definition (names only referenced are not counted).
    pub fn defined_symbols(&self) -> usize {
        self.symbols.metas().filter(|(_, m)| m.defined).count()
    }
}

/// A temporary source tree holding `files` (path, text), for the tests of every part.
#[cfg(test)]
fn test_tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = d.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(s: &str) -> Expr {
        Expr::Sym(s.into())
    }

    #[test]
    fn and_flattens_and_drops_y() {
        assert_eq!(Expr::and(Expr::y(), sym("A")), sym("A"));
        assert_eq!(Expr::and(sym("A"), Expr::y()), sym("A"));
        let ab = Expr::and(sym("A"), sym("B"));
        let cd = Expr::and(sym("C"), sym("D"));
        assert_eq!(Expr::and(ab.clone(), cd).to_string(), "A && B && C && D");
        assert_eq!(Expr::and(sym("Z"), ab).to_string(), "Z && A && B");
    }

    #[test]
    fn expressions_print_as_kconfig() {
        let or = Expr::Or(vec![sym("A"), sym("B")]);
        let cases = [
            (Expr::Not(Box::new(or.clone())), "!(A || B)"),
            (Expr::And(vec![or.clone(), sym("C")]), "(A || B) && C"),
            (Expr::Const("m".into()), "m"),
            (Expr::Const("0x10".into()), "0x10"),
            (Expr::Const("-3".into()), "-3"),
            (Expr::Const("text".into()), "\"text\""),
            (
                Expr::Cmp(
                    Cmp::Le,
                    Box::new(sym("N")),
                    Box::new(Expr::Macro("$(x)".into())),
                ),
                "N <= $(x)",
            ),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
        }
    }

    #[test]
    fn symbols_and_conjuncts() {
        let e = Expr::And(vec![
            sym("A"),
            Expr::And(vec![
                Expr::Not(Box::new(sym("B"))),
                Expr::Cmp(Cmp::Eq, Box::new(sym("A")), Box::new(sym("C"))),
            ]),
            Expr::Macro("$(f,D)".into()),
        ]);
        let mut names = vec![];
        e.symbols(&mut names);
        assert_eq!(names, ["A", "B", "C"], "each once, macros not looked into");
        let terms: Vec<String> = e.conjuncts().iter().map(|t| t.to_string()).collect();
        assert_eq!(terms, ["A", "!B", "A = C", "$(f,D)"]);
    }

    #[test]
    fn dir_dep_is_the_or_of_the_definitions() {
        let def = |d: Expr| Definition {
            loc: Loc {
                file: "Kconfig".into(),
                line: 1,
            },
            deps: d,
            dep_lines: vec![],
        };
        let mut s = Symbol::default();
        assert_eq!(s.dir_dep(), Expr::y(), "only referenced: no dependency");
        s.defs.push(def(sym("A")));
        assert_eq!(s.dir_dep(), sym("A"));
        s.defs.push(def(sym("B")));
        assert_eq!(s.dir_dep().to_string(), "A || B");
    }

    #[test]
    fn load_reads_a_tree_and_names_a_missing_one() {
        let d = test_tree(&[("Kconfig", "config A\n\tbool \"a\"\n")]);
        assert!(has_kconfig(d.path()));
        let kc = Kconfig::load(d.path(), "x86").unwrap();
        assert_eq!((kc.defined_symbols(), kc.cached), (1, false));
        let empty = tempfile::tempdir().unwrap();
        assert!(!has_kconfig(empty.path()));
        assert!(matches!(
            Kconfig::load(empty.path(), "x86"),
            Err(KconfigError::NoKconfig(_))
        ));
    }
}
