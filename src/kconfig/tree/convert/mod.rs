//! nom-kconfig's AST turned into the model: each `config` entry folded into its symbol with the
//! conditions of the `if`/`menu`/`choice` blocks around it in every property (as the kernel's
//! `menu_finalize` does), `select` and `imply` recorded on their targets as reverse
//! dependencies, choices with their members, and every property placed at its `file:line`
//! (found by `source_text`). Expressions map one to one onto [`Expr`] (`expr`).
//!
//! Nothing here decides a value: that is `kconfig::eval`.

mod expr;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use indexmap::IndexMap;
use nom_kconfig::attribute::r#type::Type;
use nom_kconfig::{Attribute, Entry};

use self::expr::{bound, tokens};
pub use self::expr::{call, expr};
use super::parse::{syntax_error, ParseFailure, Parsed};
use super::source_text::{fixed, FileLines};
use super::{Choice, Definition, Expr, Kconfig, KconfigError, Loc, Prop, Symbol};
use crate::kconfig::SymType;

/// The model of a parsed tree; `root` and `srcarch` as given to [`super::parse::parse`].
pub(super) fn build(
    srctree: &Path,
    root: &str,
    srcarch: &str,
    parsed: Parsed,
) -> Result<Kconfig, KconfigError> {
    let mut b = Builder {
        srctree: srctree.to_path_buf(),
        srcarch: srcarch.to_string(),
        kc: Kconfig {
            srctree: srctree.to_path_buf(),
            srcarch: srcarch.to_string(),
            symbols: Default::default(),
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
        symbols: IndexMap::new(),
    };
    match parsed {
        Parsed::Sources(sources) => {
            let key = b.file_key(root);
            b.kc.files += 1;
            b.kc.file_list.push(key.to_string());
            b.lines
                .insert(key.clone(), FileLines::read(&srctree.join(root)));
            for (line, path, result) in sources {
                match result {
                    Ok(k) => b.source(&key, line, &k.file, &k.entries, &Ctx::top())?,
                    Err(ParseFailure::Missing) => {
                        return Err(KconfigError::MissingSource {
                            from: format!("{key}:{line}"),
                            path,
                            srcarch: format!("SRCARCH={srcarch}"),
                        })
                    }
                    Err(ParseFailure::Syntax(e)) => return Err(syntax_error(srctree, root, e)),
                }
            }
        }
        Parsed::Whole(parsed) => {
            let file = b.file_key(&parsed.file);
            b.file(&file, &parsed.entries, &Ctx::top())?;
        }
    }
    b.kc.symbols = b.symbols.into();
    Ok(b.kc)
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

struct Builder {
    srctree: PathBuf,
    srcarch: String,
    kc: Kconfig,
    lines: HashMap<Arc<str>, FileLines>,
    /// The symbols as they are built; `kc.symbols` gets them at the end.
    symbols: IndexMap<String, Symbol>,
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
        self.symbols
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

#[cfg(test)]
mod tests {
    use super::super::{parse, test_tree};
    use super::*;

    /// The model of a small tree rooted at `Kconfig` (arch x86).
    fn convert(files: &[(&str, &str)]) -> Result<Kconfig, KconfigError> {
        let d = test_tree(files);
        let parsed = parse::parse(d.path(), "Kconfig", "x86")?;
        build(d.path(), "Kconfig", "x86", parsed)
    }

    fn model(text: &str) -> Kconfig {
        convert(&[("Kconfig", text)]).unwrap_or_else(|e| panic!("{e}"))
    }

    fn model_of(files: &[(&str, &str)]) -> Kconfig {
        convert(files).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Properties as `value if cond @ file:line`, to compare as text.
    fn props<T: std::fmt::Display>(v: &[Prop<T>]) -> Vec<String> {
        v.iter()
            .map(|p| format!("{} if {} @ {}", p.value, p.cond, p.loc))
            .collect()
    }

    #[test]
    fn a_config_entry_with_its_properties_and_lines() {
        let kc = model(
            "config A\n\
             \tbool \"a\"\n\
             \tdepends on B\n\
             \tdefault y if C\n\
             \tselect S if D\n\
             \timply I\n\
             \thelp\n\
             \t  Some help.\n\
             \n\
             config B\n\
             \ttristate\n",
        );
        let a = kc.get("A").unwrap();
        assert_eq!(a.ty, Some(SymType::Bool));
        assert_eq!(a.defs[0].loc.to_string(), "Kconfig:1");
        assert_eq!(props(&a.defs[0].dep_lines), ["B if y @ Kconfig:3"]);
        // The entry's dependencies condition every property it has.
        assert_eq!(props(&a.prompts), ["a if B @ Kconfig:2"]);
        assert_eq!(props(&a.defaults), ["y if C && B @ Kconfig:4"]);
        assert_eq!(
            props(&kc.get("S").unwrap().selected_by),
            ["A if D && B @ Kconfig:5"]
        );
        assert_eq!(
            props(&kc.get("I").unwrap().implied_by),
            ["A if B @ Kconfig:6"]
        );
        assert!(a.help.as_deref().unwrap().contains("Some help."));
        assert_eq!(kc.sym_type("B"), Some(SymType::Tristate));
        // S and I are only named, not defined.
        assert_eq!(
            (kc.entries, kc.defined_symbols(), kc.symbols.len()),
            (2, 2, 4)
        );
        assert_eq!(
            (kc.files, kc.file_list.as_slice()),
            (1, &["Kconfig".to_string()][..])
        );
    }

    #[test]
    fn blocks_add_their_conditions_and_visible_if_limits_prompts_only() {
        let kc = model(
            "menu \"M\"\n\
             \tdepends on X\n\
             \tvisible if V\n\
             if Y\n\
             config A\n\
             \tbool \"a\"\n\
             \tdefault y\n\
             endif\n\
             endmenu\n",
        );
        let a = kc.get("A").unwrap();
        assert_eq!(a.dir_dep().to_string(), "X && Y");
        assert_eq!(
            props(&a.defs[0].dep_lines),
            ["X if y @ Kconfig:1", "Y if y @ Kconfig:4"]
        );
        assert_eq!(props(&a.prompts), ["a if X && Y && V @ Kconfig:6"]);
        assert_eq!(props(&a.defaults), ["y if X && Y @ Kconfig:7"]);
    }

    #[test]
    fn a_choice_with_its_members() {
        let kc = model(
            "choice\n\
             \tprompt \"pick\"\n\
             \tdefault B\n\
             \tdepends on D\n\
             \toptional\n\
             config A\n\
             \tbool \"a\"\n\
             config B\n\
             \tbool \"b\"\n\
             endchoice\n",
        );
        let c = &kc.choices[0];
        assert_eq!(c.loc.to_string(), "Kconfig:1");
        assert_eq!(props(&c.prompts), ["pick if D @ Kconfig:1"]);
        assert_eq!(props(&c.defaults), ["B if D @ Kconfig:1"]);
        assert_eq!(
            (c.members.as_slice(), c.optional),
            (&["A".to_string(), "B".into()][..], true)
        );
        assert_eq!(kc.get("A").unwrap().choice, Some(0));
        assert_eq!(kc.get("B").unwrap().dir_dep().to_string(), "D");
    }

    #[test]
    fn def_types_ranges_and_conditional_depends() {
        let kc = model(
            "config N\n\
             \tint \"n\"\n\
             \trange 1 10 if A\n\
             \trange MIN MAX\n\
             \n\
             config D\n\
             \tdef_bool y if A\n\
             \tdefault m\n\
             \tdepends on B if C\n",
        );
        let n = kc.get("N").unwrap();
        let ranges: Vec<String> = n
            .ranges
            .iter()
            .map(|p| format!("{} {} if {} @ {}", p.value.0, p.value.1, p.cond, p.loc))
            .collect();
        assert_eq!(
            ranges,
            ["1 10 if A @ Kconfig:3", "MIN MAX if y @ Kconfig:4"]
        );
        let d = kc.get("D").unwrap();
        assert_eq!(d.ty, Some(SymType::Bool));
        // `depends on B if C` is `depends on B || !C`.
        assert_eq!(d.dir_dep().to_string(), "B || !C");
        // The `def_bool` line is the first default, the `default` line the second.
        assert_eq!(
            props(&d.defaults),
            [
                "y if A && (B || !C) @ Kconfig:7",
                "m if B || !C @ Kconfig:8"
            ]
        );
    }

    #[test]
    fn variables_modules_and_the_written_macro_text() {
        let kc = model(
            "comma := ,\n\
             cc-name = $(shell,echo gcc)\n\
             config MODULES\n\
             \tbool \"modules\"\n\
             \tmodules\n\
             config T\n\
             \tdef_bool $(success,echo a$(comma)b)\n",
        );
        assert_eq!(kc.modules.as_deref(), Some("MODULES"));
        let vars: Vec<String> = kc
            .variables
            .iter()
            .map(|(n, op, v)| format!("{n} {op} {v}"))
            .collect();
        assert_eq!(vars, ["comma := ,", "cc-name = $(shell,echo gcc)"]);
        assert_eq!(
            props(&kc.get("T").unwrap().defaults),
            ["$(success,echo a$(comma)b) if y @ Kconfig:7"]
        );
    }

    #[test]
    fn sourced_files_and_a_symbol_defined_twice() {
        let kc = model_of(&[
            (
                "Kconfig",
                "config A\n\tbool \"a\"\n\tdepends on X\n\nsource \"sub/Kconfig\"\n",
            ),
            (
                "sub/Kconfig",
                "\nconfig A\n\tdepends on Y\n\tprompt \"again\"\n",
            ),
        ]);
        let a = kc.get("A").unwrap();
        let locs: Vec<String> = a.defs.iter().map(|d| d.loc.to_string()).collect();
        assert_eq!(locs, ["Kconfig:1", "sub/Kconfig:2"]);
        assert_eq!(a.dir_dep().to_string(), "X || Y");
        assert_eq!(
            props(&a.prompts),
            ["a if X @ Kconfig:2", "again if Y @ sub/Kconfig:4"]
        );
        assert_eq!(kc.file_list, ["Kconfig", "sub/Kconfig"]);
    }

    #[test]
    fn a_missing_source_names_the_line_that_sources_it() {
        for root in [
            "source \"a/Kconfig\"\nsource \"gone/Kconfig\"\n",
            "config A\n\tbool\nsource \"gone/Kconfig\"\n",
        ] {
            let e = convert(&[("Kconfig", root), ("a/Kconfig", "config A\n\tbool\n")]);
            let Err(KconfigError::MissingSource { from, path, .. }) = e else {
                panic!("{root}: {e:?}")
            };
            let want = if root.starts_with("source") {
                "Kconfig:2"
            } else {
                "Kconfig:3"
            };
            assert_eq!(
                (from.as_str(), path.as_str()),
                (want, "gone/Kconfig"),
                "{root}"
            );
        }
    }
}
