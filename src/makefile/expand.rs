//! Variables and their expansion: what `$(…)` gives, with make's functions, for one scope of
//! variables (one folder's makefiles, or one file).
//!
//! Each assignment is kept as its own chunk, with where it was made and the name as it was
//! written (`obj-$(CONFIG_FOO)`), so a caller can tell which line and which gate added each word
//! of a list ([`Scope::words`]). What cannot be known (a variable set outside the makefile, a
//! `$(shell …)`, a macro's argument outside a call) expands to [`UNKNOWN`]; functions keep it
//! (`$(if …)` on it takes both ways), so it reaches the caller.

use std::collections::HashMap;

use super::known::{Around, Tri, UNKNOWN};
use super::lines::{find_top, matching, split_args, Loc, Op};
use super::words::{patsubst, words_function};

/// One assignment's text, kept per assignment so each word keeps its line and its name.
#[derive(Clone)]
struct Chunk {
    text: String,
    /// Already expanded (`:=`), or expanded when used (`=`).
    expanded: bool,
    /// Set under a condition that cannot be evaluated: it may not have happened.
    maybe: bool,
    /// The variable's name as the assignment wrote it (`obj-$(CONFIG_FOO)`).
    written: String,
    loc: Loc,
}

struct Var {
    simple: bool,
    chunks: Vec<Chunk>,
}

/// One word of a variable's value, with the assignment that added it.
#[derive(Clone, Debug)]
pub struct Word {
    pub text: String,
    /// The variable's name as that assignment wrote it (`obj-$(CONFIG_FOO)`).
    pub written: String,
    pub loc: Loc,
}

/// The variables of one scope, and what the caller knows around them.
pub struct Scope<'c> {
    around: Box<dyn Around + 'c>,
    vars: HashMap<String, Var>,
    /// Bytes expanded and produced in this scope so far (see [`MAX_WORK`]).
    work: std::cell::Cell<usize>,
}

/// The longest text expanded or produced (64 KiB; the kernel's largest values are a few KiB),
/// and the most one expansion may produce in all (256 KiB): a makefile whose values double at
/// each assignment (`a := $(a) $(a)`, a growing `patsubst`) gets an unknown value instead of
/// exponential work (fuzzers' makefiles of 3 and 8 KB took 8 and 17 s).
const MAX_TEXT: usize = 1 << 16;
const MAX_PRODUCED: usize = 1 << 18;
/// The most bytes one scope (one makefile read) may expand and produce in all, its lines
/// together: the bounds above hold per expansion, and a fuzzer's 7.8 KB makefile made 43 MB of
/// them, line after line (0.2 s; seconds under a sanitizer). The kernel's largest makefile (of
/// 6.12 and 7.3, x86_64) needs 46 KB.
const MAX_WORK: usize = 1 << 21;

/// Expansion state: call arguments and `foreach` variables are dynamically scoped, as in make.
pub(super) struct Ex {
    depth: usize,
    /// Expansions so far, and the bytes they produced: bounds on pathological makefiles.
    steps: usize,
    produced: usize,
    args: Option<Vec<String>>,
    locals: Vec<(String, String)>,
    /// Collects what `$(eval …)` would read as makefile text: to check what it would list.
    evals: Option<Vec<String>>,
    /// For a condition: a value that may not have been set is not known.
    pub(super) cond: bool,
}

impl Ex {
    pub(super) fn new() -> Self {
        Ex {
            depth: 0,
            steps: 0,
            produced: 0,
            args: None,
            locals: vec![],
            evals: None,
            cond: false,
        }
    }
}

const FUNCTIONS: &[&str] = &[
    "subst",
    "patsubst",
    "strip",
    "findstring",
    "filter",
    "filter-out",
    "sort",
    "word",
    "wordlist",
    "words",
    "firstword",
    "lastword",
    "dir",
    "notdir",
    "suffix",
    "basename",
    "addsuffix",
    "addprefix",
    "join",
    "wildcard",
    "realpath",
    "abspath",
    "error",
    "warning",
    "info",
    "shell",
    "origin",
    "flavor",
    "foreach",
    "file",
    "call",
    "value",
    "eval",
    "if",
    "or",
    "and",
    "intcmp",
    "let",
    "guile",
];

impl<'c> Scope<'c> {
    /// An empty scope; `around` answers for what the makefile does not set.
    pub fn new(around: impl Around + 'c) -> Self {
        Scope {
            around: Box::new(around),
            vars: HashMap::new(),
            work: std::cell::Cell::new(0),
        }
    }

    pub fn expand(&self, text: &str) -> String {
        self.ex(text, &mut Ex::new())
    }

    /// The value of a variable, expanded; `None` when the makefile does not set it.
    pub fn get(&self, name: &str) -> Option<String> {
        self.vars.get(name).map(|v| self.value(v))
    }

    /// What a line of macro calls gives to make as makefile text: the `$(eval …)` texts, and
    /// the line's own value (a bare `$(call …)` line is read as makefile text too).
    pub(super) fn macro_text(&self, line: &str) -> String {
        let mut ex = Ex::new();
        ex.evals = Some(vec![]);
        let own = self.ex(line, &mut ex);
        let mut texts = ex.evals.take().unwrap_or_default();
        // Messages and shell commands run for their effect: what they print is not read.
        if !["$(shell ", "$(info ", "$(warning ", "$(error "]
            .iter()
            .any(|f| line.starts_with(f))
        {
            texts.push(own);
        }
        texts.join(" ")
    }

    /// `ifdef NAME`: whether the variable has a non-empty value (not expanded, as make).
    pub(super) fn defined(&self, name: &str) -> Tri {
        if name.contains(UNKNOWN) {
            return Tri::Maybe;
        }
        if let Some(v) = self.around.fixed(name) {
            return if v.trim().is_empty() {
                Tri::No
            } else {
                Tri::Yes
            };
        }
        match self.vars.get(name) {
            Some(v) => {
                let set = |c: &&Chunk| !c.text.replace(UNKNOWN, "").trim().is_empty();
                if v.chunks.iter().filter(|c| !c.maybe).any(|c| set(&c)) {
                    Tri::Yes
                } else if v.chunks.iter().any(|c| c.maybe || c.text.contains(UNKNOWN)) {
                    Tri::Maybe
                } else {
                    Tri::No
                }
            }
            // Set outside the makefile, or not at all.
            None => Tri::Maybe,
        }
    }

    /// Sets a variable to one value (`simple`: already expanded), as if from outside the
    /// makefile or by `define`.
    pub fn set(&mut self, name: &str, text: String, simple: bool, loc: &Loc) {
        self.vars.insert(
            name.to_string(),
            Var {
                simple,
                chunks: vec![Chunk {
                    text,
                    expanded: simple,
                    maybe: false,
                    written: name.to_string(),
                    loc: loc.clone(),
                }],
            },
        );
    }

    /// `undefine NAME`.
    pub(super) fn unset(&mut self, name: &str) {
        self.vars.remove(name);
    }

    /// One assignment (`maybe`: under a condition that cannot be decided). Such an assignment
    /// adds to what the other branch may have set instead of replacing it, so that both
    /// branches count. When the name cannot be expanded nothing is set: the value, expanded,
    /// is given back for the caller to look at.
    pub fn assign(
        &mut self,
        lhs: &str,
        op: Op,
        rhs: &str,
        maybe: bool,
        loc: &Loc,
    ) -> Result<(), String> {
        let name = self.expand(lhs).trim().to_string();
        if name.contains(UNKNOWN) {
            return Err(self.expand(rhs));
        }
        let exists = self.vars.contains_key(&name);
        let chunk = |text: String, expanded: bool| Chunk {
            text,
            expanded,
            maybe,
            written: lhs.to_string(),
            loc: loc.clone(),
        };
        let (c, simple, reset) = match op {
            Op::Recursive => (chunk(rhs.to_string(), false), false, true),
            Op::Simple => (chunk(self.expand(rhs), true), true, true),
            Op::Shell => (chunk(UNKNOWN.to_string(), true), true, true),
            Op::IfUnset if exists => return Ok(()),
            Op::IfUnset => (chunk(rhs.to_string(), false), false, true),
            Op::Append => match self.vars.get(&name) {
                Some(v) if v.simple => (chunk(self.expand(rhs), true), true, false),
                _ => (chunk(rhs.to_string(), false), false, false),
            },
        };
        if reset && maybe && !self.around.is_list(&name) {
            if let Some(old) = self.vars.get(&name) {
                // `SRCARCH := x86` under `ifeq ($(ARCH),i386)`: one word or another, not a
                // list of both as for Kbuild's lists (`foo-y`).
                let old = self.value(old);
                let new = if c.expanded {
                    c.text.clone()
                } else {
                    self.expand(&c.text)
                };
                let one = |s: &str| s.split_whitespace().count() == 1;
                if one(&old) && one(&new) && old.trim() != new.trim() {
                    self.set(&name, UNKNOWN.to_string(), true, loc);
                    if let Some(v) = self.vars.get_mut(&name) {
                        v.chunks[0].maybe = true;
                    }
                    return Ok(());
                }
            }
        }
        let v = self.vars.entry(name).or_insert(Var {
            simple,
            chunks: vec![],
        });
        if reset && !maybe {
            v.chunks.clear();
            v.simple = simple;
        }
        v.chunks.push(c);
        Ok(())
    }

    /// The words of a list variable, each with the assignment that added it (a word listed
    /// twice: the first).
    pub fn words(&self, name: &str) -> Vec<Word> {
        let Some(v) = self.vars.get(name) else {
            return vec![];
        };
        let mut out: Vec<Word> = vec![];
        for c in &v.chunks {
            let text = if c.expanded {
                c.text.clone()
            } else {
                self.expand(&c.text)
            };
            for w in text.split_whitespace() {
                if !out.iter().any(|i| i.text == w) {
                    out.push(Word {
                        text: w.to_string(),
                        written: c.written.clone(),
                        loc: c.loc.clone(),
                    });
                }
            }
        }
        out
    }

    pub(super) fn ex(&self, s: &str, ex: &mut Ex) -> String {
        ex.steps += 1;
        self.work.set(self.work.get() + s.len());
        // Text without a reference stays itself (a literal name stays known after the bound).
        if self.work.get() > MAX_WORK && s.contains('$') {
            return UNKNOWN.to_string();
        }
        if ex.depth > 64 || ex.steps > 200_000 || s.len() > MAX_TEXT || ex.produced > MAX_PRODUCED {
            return UNKNOWN.to_string();
        }
        let mut out = String::new();
        let mut rest = s;
        while let Some(p) = rest.find('$') {
            out.push_str(&rest[..p]);
            let after = &rest[p + 1..];
            let Some(c) = after.chars().next() else {
                rest = "";
                break;
            };
            match c {
                '$' => {
                    out.push('$');
                    rest = &after[1..];
                }
                '(' | '{' => {
                    let close = if c == '(' { ')' } else { '}' };
                    match matching(after, c, close) {
                        Some(end) => {
                            ex.depth += 1;
                            out.push_str(&self.reference(&after[1..end], ex));
                            ex.depth -= 1;
                            rest = &after[end + 1..];
                        }
                        None => {
                            out.push(UNKNOWN);
                            rest = "";
                        }
                    }
                }
                c => {
                    out.push_str(&self.lookup(&c.to_string(), ex));
                    rest = &after[c.len_utf8()..];
                }
            }
            if out.len() > MAX_TEXT {
                return UNKNOWN.to_string();
            }
        }
        out.push_str(rest);
        ex.produced += out.len();
        self.work.set(self.work.get() + out.len());
        out
    }

    /// `$(…)` contents: a function call, a substitution reference or a variable.
    fn reference(&self, inner: &str, ex: &mut Ex) -> String {
        if let Some(p) = inner.find([' ', '\t']) {
            let name = &inner[..p];
            if FUNCTIONS.contains(&name) {
                return self.function(name, &inner[p + 1..], ex);
            }
        }
        // `$(var:.o=.c)`
        if let Some(colon) = find_top(inner, b':') {
            if let Some(eq) = inner[colon..].find('=') {
                let name = self.ex(&inner[..colon], ex);
                let from = self.ex(&inner[colon + 1..colon + eq], ex);
                let to = self.ex(&inner[colon + eq + 1..], ex);
                let value = self.lookup(name.trim(), ex);
                let (from, to) = if from.contains('%') {
                    (from, to)
                } else {
                    (format!("%{from}"), format!("%{to}"))
                };
                return patsubst(&from, &to, &value);
            }
        }
        let name = self.ex(inner, ex);
        self.lookup(name.trim(), ex)
    }

    fn lookup(&self, name: &str, ex: &mut Ex) -> String {
        if let Some((_, v)) = ex.locals.iter().rev().find(|(n, _)| n == name) {
            return v.clone();
        }
        if let Ok(n) = name.parse::<usize>() {
            return match &ex.args {
                Some(args) => args.get(n).cloned().unwrap_or_default(),
                // A macro's argument outside a call: the body of a `define` being checked.
                None => UNKNOWN.to_string(),
            };
        }
        if name.contains(UNKNOWN) {
            return UNKNOWN.to_string();
        }
        if let Some(v) = self.around.fixed(name) {
            return v;
        }
        let Some(v) = self.vars.get(name) else {
            // The caller's lists (Kbuild's `foo-y` when `foo-$(CONFIG_X)` is off) are each
            // makefile's own: unset is empty. Anything else may be set outside the makefile
            // (the top Makefile, an arch, the command line).
            return if self.around.is_list(name) {
                String::new()
            } else {
                UNKNOWN.to_string()
            };
        };
        if ex.cond && v.chunks.iter().any(|c| c.maybe) {
            // A condition on a value that may not have been set cannot be decided.
            return UNKNOWN.to_string();
        }
        self.value_in(v, ex)
    }

    fn value(&self, v: &Var) -> String {
        self.value_in(v, &mut Ex::new())
    }

    fn value_in(&self, v: &Var, ex: &mut Ex) -> String {
        let parts: Vec<String> = v
            .chunks
            .iter()
            .map(|c| {
                if c.expanded {
                    c.text.clone()
                } else {
                    self.ex(&c.text, ex)
                }
            })
            .filter(|t| !t.trim().is_empty())
            .collect();
        parts.join(" ")
    }

    fn function(&self, name: &str, args: &str, ex: &mut Ex) -> String {
        let max = match name {
            "subst" | "patsubst" | "wordlist" | "foreach" | "if" => 3,
            "findstring" | "filter" | "filter-out" | "word" | "addsuffix" | "addprefix"
            | "join" | "let" => 2,
            "call" | "or" | "and" | "intcmp" => usize::MAX,
            _ => 1,
        };
        let a = split_args(args, max);
        let arg = |i: usize| a.get(i).copied().unwrap_or("");
        let any = || UNKNOWN.to_string();
        match name {
            "if" => {
                let cond = self.ex(arg(0), ex);
                let cond = cond.trim();
                if cond.contains(UNKNOWN) {
                    // Not known: both ways, as for `ifdef`.
                    format!("{} {}", self.ex(arg(1), ex), self.ex(arg(2), ex))
                } else if !cond.is_empty() {
                    self.ex(arg(1), ex)
                } else {
                    self.ex(arg(2), ex)
                }
            }
            "or" | "and" => {
                let vals: Vec<String> = a.iter().map(|x| self.ex(x, ex)).collect();
                if vals.iter().any(|v| v.contains(UNKNOWN)) {
                    return vals.join(" ");
                }
                let vals: Vec<&str> = vals.iter().map(|v| v.trim()).collect();
                if name == "or" {
                    vals.iter()
                        .find(|v| !v.is_empty())
                        .copied()
                        .unwrap_or("")
                        .to_string()
                } else if vals.iter().all(|v| !v.is_empty()) {
                    vals.last().copied().unwrap_or("").to_string()
                } else {
                    String::new()
                }
            }
            "foreach" => {
                let var = self.ex(arg(0), ex).trim().to_string();
                let list = self.ex(arg(1), ex);
                let mut out = vec![];
                for w in list.split_whitespace() {
                    ex.locals.push((var.clone(), w.to_string()));
                    out.push(self.ex(arg(2), ex));
                    ex.locals.pop();
                }
                out.join(" ")
            }
            "call" => {
                let fname = self.ex(arg(0), ex).trim().to_string();
                let Some(v) = self.vars.get(&fname) else {
                    // Not the makefile's: perhaps the caller's (Kbuild's `rustc-min-version`).
                    let args: Vec<String> = a.iter().skip(1).map(|x| self.ex(x, ex)).collect();
                    return self.around.call(&fname, &args).unwrap_or_else(any);
                };
                let body: Vec<&str> = v.chunks.iter().map(|c| c.text.as_str()).collect();
                let body = body.join(" ");
                let mut new_args = vec![fname];
                for x in a.iter().skip(1) {
                    new_args.push(self.ex(x, ex));
                }
                let saved = ex.args.replace(new_args);
                let out = if v.simple { body } else { self.ex(&body, ex) };
                ex.args = saved;
                out
            }
            "value" => {
                let n = self.ex(arg(0), ex);
                match self.vars.get(n.trim()) {
                    Some(v) => v
                        .chunks
                        .iter()
                        .map(|c| c.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    None => any(),
                }
            }
            "eval" => {
                if ex.evals.is_some() {
                    let text = self.ex(arg(0), ex);
                    ex.evals.get_or_insert_with(Vec::new).push(text);
                }
                String::new()
            }
            "error" | "warning" | "info" => String::new(),
            "wildcard" | "realpath" | "shell" | "origin" | "flavor" | "file" | "intcmp" | "let"
            | "guile" | "join" => any(),
            "abspath" => self.ex(arg(0), ex),
            _ => {
                let vals: Vec<String> = a.iter().map(|x| self.ex(x, ex)).collect();
                let v = |i: usize| vals.get(i).map(String::as_str).unwrap_or("");
                words_function(
                    name,
                    &vals.iter().map(String::as_str).collect::<Vec<_>>(),
                    v,
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knows `X=x` and a function `twice`; lists end in `-y`.
    struct Test;

    impl Around for Test {
        fn fixed(&self, name: &str) -> Option<String> {
            (name == "X").then(|| "x".into())
        }
        fn is_list(&self, name: &str) -> bool {
            name.ends_with("-y")
        }
        fn call(&self, name: &str, args: &[String]) -> Option<String> {
            (name == "twice").then(|| format!("{0}{0}", args[0]))
        }
    }

    fn loc() -> Loc {
        Loc {
            at: "Makefile:1".into(),
            line: String::new(),
        }
    }

    fn scope(assignments: &[(&str, Op, &str)]) -> Scope<'static> {
        let mut s = Scope::new(Test);
        for (lhs, op, rhs) in assignments {
            s.assign(lhs, *op, rhs, false, &loc()).unwrap();
        }
        s
    }

    #[test]
    fn values_that_double_at_each_assignment_become_unknown_not_slow() {
        let mut assignments = vec![("a", Op::Simple, "x")];
        for _ in 0..40 {
            assignments.push(("a", Op::Simple, "$(patsubst %,% %,$(a))"));
        }
        let t = std::time::Instant::now();
        let s = scope(&assignments);
        assert!(s.expand("$(a)").contains(UNKNOWN));
        assert!(
            t.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            t.elapsed()
        );
        // Below the bound, values are exact.
        let s = scope(&[("a", Op::Simple, "x"), ("a", Op::Simple, "$(a) $(a)")]);
        assert_eq!(s.expand("$(a)"), "x x");
    }

    #[test]
    fn functions_on_words_and_references() {
        let s = scope(&[
            ("srcs", Op::Simple, "a.c b.c sub/c.S"),
            ("pick", Op::Recursive, "$(1).o"),
        ]);
        let cases = [
            ("$(srcs:.c=.o)", "a.o b.o sub/c.S"),
            ("$(patsubst %.c,%.o,$(srcs))", "a.o b.o sub/c.S"),
            ("$(filter %.c,$(srcs))", "a.c b.c"),
            ("$(filter-out %.c,$(srcs))", "sub/c.S"),
            ("$(addprefix d/,$(notdir $(srcs)))", "d/a.c d/b.c d/c.S"),
            ("$(basename $(srcs))", "a b sub/c"),
            ("$(dir sub/c.S x)", "sub/ ./"),
            (
                "$(words $(srcs)) $(word 2,$(srcs)) $(lastword $(srcs))",
                "3 b.c sub/c.S",
            ),
            ("$(sort b a b)", "a b"),
            ("$(call pick,one)", "one.o"),
            ("$(foreach w,a b,$(w)-y)", "a-y b-y"),
            ("$(if $(X),yes,no) $(or ,b) [$(and a,)]", "yes b []"),
            ("$(subst .,-,a.b.c)", "a-b-c"),
            ("$$(X)", "$(X)"),
            ("$(call twice,ab)", "abab"),
        ];
        for (text, want) in cases {
            assert_eq!(s.expand(text), want, "{text}");
        }
    }

    #[test]
    fn what_is_not_known_stays_unknown() {
        let s = scope(&[("sh", Op::Shell, "uname -m")]);
        let unknown = |t: &str| s.expand(t).contains(UNKNOWN);
        assert!(unknown("$(ARCH)"));
        assert!(unknown("$(sh)"));
        assert!(unknown("$(shell uname)"));
        assert!(unknown("$(call nobody,1)"));
        assert!(unknown("$(wildcard *.c)"));
        // Unset lists are empty; a condition not known takes both ways.
        assert_eq!(s.expand("[$(foo-y)]"), "[]");
        let both = s.expand("$(if $(ARCH),a,b)");
        assert!(both.contains('a') && both.contains('b'), "{both:?}");
    }

    #[test]
    fn assignments_follow_make() {
        let mut s = scope(&[
            ("late", Op::Recursive, "$(v)"),
            ("now", Op::Simple, "[$(v)]"),
            ("v", Op::Simple, "1"),
            ("v", Op::Append, "2"),
            ("v", Op::IfUnset, "3"),
            ("X", Op::Simple, "mine"),
        ]);
        // `now` was expanded before `v` was set: as far as it knew, `v` came from outside.
        assert_eq!(
            super::super::known::show(&s.expand("$(late) $(now)")),
            "1 2 [*]"
        );
        // The caller's fixed variables win.
        assert_eq!(s.expand("$(X)"), "x");
        // An assignment whose name cannot be known is not made: its value comes back.
        assert_eq!(
            s.assign("obj-$(ARCH)", Op::Append, "a.o $(v)", false, &loc()),
            Err("a.o 1 2".into())
        );
        // Under a condition not decided, two single words make one not known; lists add up.
        s.assign("arch", Op::Simple, "x86", false, &loc()).unwrap();
        s.assign("arch", Op::Simple, "arm", true, &loc()).unwrap();
        assert!(s.get("arch").unwrap().contains(UNKNOWN));
        s.assign("obj-y", Op::Simple, "a.o", false, &loc()).unwrap();
        s.assign("obj-y", Op::Simple, "b.o", true, &loc()).unwrap();
        let words: Vec<String> = s.words("obj-y").into_iter().map(|w| w.text).collect();
        assert_eq!(words, ["a.o", "b.o"]);
        assert_eq!(s.get("unset"), None);
    }

    #[test]
    fn a_makefile_has_a_bound_on_its_whole_expansion_work() {
        let mut s = Scope::new(Test);
        // Each line stays within one expansion's bounds; together they pass the scope's.
        let big = "w ".repeat(20_000);
        s.assign("big", Op::Simple, &big, false, &loc()).unwrap();
        let mut unknown_from = None;
        for i in 0..100 {
            let v = format!("v{i}");
            s.assign(&v, Op::Simple, "$(patsubst %,%x,$(big))", false, &loc())
                .unwrap();
            if unknown_from.is_none() && s.get(&v).unwrap().contains(UNKNOWN) {
                unknown_from = Some(i);
            }
        }
        // Not at once (a real makefile's values stay known), but well before the end.
        let from = unknown_from.expect("the scope's bound was never reached");
        assert!((4..40).contains(&from), "unknown from line {from}");
        assert!(!s.get("v0").unwrap().contains(UNKNOWN));
    }

    #[test]
    fn words_keep_the_assignment_that_added_them() {
        let mut s = Scope::new(Test);
        let at = |n: usize| Loc {
            at: format!("Makefile:{n}"),
            line: String::new(),
        };
        s.assign("obj-y", Op::Simple, "", false, &at(1)).unwrap();
        s.assign("obj-y", Op::Append, "a.o b.o", false, &at(2))
            .unwrap();
        s.assign("obj-y", Op::Append, "b.o c.o", false, &at(3))
            .unwrap();
        let w: Vec<(String, String)> = s
            .words("obj-y")
            .into_iter()
            .map(|w| (w.text, w.loc.at))
            .collect();
        assert_eq!(
            w,
            [
                ("a.o".to_string(), "Makefile:2".to_string()),
                ("b.o".to_string(), "Makefile:2".to_string()),
                ("c.o".to_string(), "Makefile:3".to_string()),
            ]
        );
    }
}
