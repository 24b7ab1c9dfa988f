//! A purpose-built Kconfig parser for the forms the kernel writes, building nom-kconfig's AST.
//!
//! nom-kconfig spends most of its time trying alternatives and cloning its input; the kernel's
//! Kconfig files are almost all written in a few plain forms (a keyword, a symbol, a quoted
//! prompt, an expression of symbols and constants, an `if`). This reads those forms directly,
//! byte by byte, and hands every other place to nom-kconfig's own parser for that unit
//! (`nom_kconfig::step`): an attribute it does not know for sure, a variable assignment, a
//! `$(…)` call. So at each place the AST is what nom-kconfig builds there, either because the
//! form is one this reads exactly as nom-kconfig does (the differential test over the 6.12 and
//! 7.3 trees checks that), or because nom-kconfig read it.
//!
//! Anything that would be an error, or that this cannot place (a block without its end, a
//! carriage return, a `$(` left open), makes the whole file go to nom-kconfig, whose result and
//! error messages are then exactly today's.

use std::cell::Cell;

use nom_kconfig::attribute::default::DefaultAttribute;
use nom_kconfig::attribute::depends_on::DependsOn;
use nom_kconfig::attribute::imply::Imply;
use nom_kconfig::attribute::prompt::Prompt;
use nom_kconfig::attribute::r#type::{ConfigType, Type};
use nom_kconfig::attribute::range::{Range, RangeBound};
use nom_kconfig::attribute::select::Select;
use nom_kconfig::attribute::{
    expression::CompareOperand, AndExpression, Atom, CompareExpression, CompareOperator,
    Expression, OptionValues, OrExpression, Term,
};
use nom_kconfig::entry::{Choice, Comment, Config, If, MainMenu, Menu, Source};
use nom_kconfig::step::{self, Step};
use nom_kconfig::symbol::ConstantSymbol;
use nom_kconfig::tristate::Tristate;
use nom_kconfig::{Attribute, Entry, Kconfig, KconfigFile, KconfigInput, Symbol};

/// Parses one file's (preprocessed) text as `nom_kconfig::parse_kconfig` would.
pub(super) fn parse_kconfig(
    text: &str,
    kf: KconfigFile,
) -> Result<Kconfig, nom_kconfig::error::Error> {
    match Scan::file(text, kf.clone()) {
        Ok((k, _)) => Ok(k),
        Err(Abort) => {
            ABORTS.with(|a| a.set(a.get() + 1));
            nom_kconfig::parse_kconfig(KconfigInput::new_extra(text, kf)).map(|(_, k)| k)
        }
    }
}

thread_local! {
    static HANDED: Cell<usize> = const { Cell::new(0) };
    static ABORTS: Cell<usize> = const { Cell::new(0) };
}

/// On this thread since the last call: places handed to nom-kconfig, and files it parsed whole.
pub(super) fn take_counts() -> (usize, usize) {
    (HANDED.with(|h| h.replace(0)), ABORTS.with(|a| a.replace(0)))
}

/// This file goes to nom-kconfig whole.
#[derive(Debug)]
struct Abort;

type R<T> = Result<T, Abort>;

/// Where an attribute list is read: each takes other attributes (nom-kconfig's alternatives).
#[derive(Clone, Copy, PartialEq)]
enum Owner {
    Config,
    Choice,
    Menu,
    Comment,
}

struct Scan<'t> {
    text: &'t str,
    b: &'t [u8],
    pos: usize,
    kf: KconfigFile,
    /// nom-kconfig's input at some place of this text, moved forward for each hand-over (its
    /// line count is kept by counting the bytes passed over once).
    cursor: Option<KconfigInput<'t>>,
}

/// What ends an entry's attributes: the start of another entry, and the rarer entry words.
fn is_entry_word(w: &str) -> bool {
    super::source_text::ENTRY_KEYWORDS.contains(&w)
        || [
            "mainmenu",
            "osource",
            "rsource",
            "orsource",
            "configdefault",
        ]
        .contains(&w)
}

fn comment_dependency(i: KconfigInput) -> Step<Attribute> {
    step::comment_dependency(i).map(|(r, d)| (r, Attribute::DependsOn(d)))
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// The characters nom-kconfig takes in a quoted prompt (besides ASCII letters, digits and
/// white space, and `\"`).
fn prompt_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, ' ' | '\t' | '\n' | '\r')
        || "\\&#*|!É{}^<>%[]()+'=,:;μ-?._$/".contains(c)
}

impl<'t> Scan<'t> {
    /// A file: its AST and the variables known at its end (a `source` passes them on).
    fn file(text: &'t str, kf: KconfigFile) -> R<(Kconfig, KconfigFile)> {
        if nom_kconfig::unterminated_reference(text).is_some() || text.contains('\r') {
            return Err(Abort);
        }
        let file = kf.file.display().to_string();
        let mut s = Scan {
            text,
            b: text.as_bytes(),
            pos: 0,
            kf,
            cursor: None,
        };
        step::forget_calls();
        let entries = s.entries();
        step::forget_calls();
        let entries = entries?;
        s.skip_ws();
        if s.pos != s.b.len() {
            return Err(Abort);
        }
        Ok((Kconfig { file, entries }, s.kf))
    }

    // ---- bytes ----

    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(0)
    }

    fn rest(&self) -> &'t str {
        &self.text[self.pos..]
    }

    /// nom-kconfig's `ws`: white space (new lines too) and `#` comments.
    fn skip_ws(&mut self) {
        loop {
            match self.at(self.pos) {
                b' ' | b'\t' | b'\n' => self.pos += 1,
                b'#' => self.skip_line(),
                b'\\' if self.at(self.pos + 1) == b'#' => self.skip_line(),
                _ => return,
            }
        }
    }

    fn skip_line(&mut self) {
        self.pos = match memchr::memchr(b'\n', &self.b[self.pos..]) {
            Some(n) => self.pos + n + 1,
            None => self.b.len(),
        }
    }

    /// nom-kconfig's `wsi`: blanks and `\` line continuations.
    fn skip_wsi(&mut self) {
        loop {
            match self.at(self.pos) {
                b' ' | b'\t' => self.pos += 1,
                b'\\' if self.at(self.pos + 1) == b'\n' => self.pos += 2,
                _ => return,
            }
        }
    }

    fn skip_blanks(&mut self) {
        while matches!(self.at(self.pos), b' ' | b'\t') {
            self.pos += 1;
        }
    }

    /// The keyword-like word here (letters, digits, `_`, `-`).
    fn word(&self) -> &'t str {
        let n = self.b[self.pos..]
            .iter()
            .take_while(|&&c| is_word(c))
            .count();
        &self.text[self.pos..self.pos + n]
    }

    /// Only blanks and a comment are left on this line: the form read is the whole line.
    fn line_done(&self) -> bool {
        let mut i = self.pos;
        while matches!(self.at(i), b' ' | b'\t') {
            i += 1;
        }
        matches!(self.b.get(i), None | Some(b'\n' | b'#'))
    }

    /// Where nom-kconfig's `ws` from `from` stops.
    fn ws_end(&self, from: usize) -> usize {
        let mut s = Scan {
            text: self.text,
            b: self.b,
            pos: from,
            kf: KconfigFile::default(),
            cursor: None,
        };
        s.skip_ws();
        s.pos
    }

    // ---- handing a place to nom-kconfig ----

    fn input_at(&mut self, pos: usize) -> KconfigInput<'t> {
        let span = match self.cursor.take() {
            Some(c) if c.location_offset() <= pos => {
                let n = pos - c.location_offset();
                step::advance(&c, n)
            }
            _ => step::advance(&KconfigInput::new_extra(self.text, self.kf.clone()), pos),
        };
        self.cursor = Some(span.clone());
        let mut span = span;
        span.extra = self.kf.clone();
        span
    }

    /// nom-kconfig's parser `f` at `pos`: `Some` and the place after it, or `None` (its
    /// alternative does not apply there; `self.pos` is then `pos`).
    fn nom<T>(
        &mut self,
        pos: usize,
        f: for<'a> fn(KconfigInput<'a>) -> Step<'a, T>,
    ) -> R<Option<T>> {
        HANDED.with(|h| h.set(h.get() + 1));
        let input = self.input_at(pos);
        match f(input) {
            Ok((rest, v)) => {
                self.pos = rest.location_offset();
                self.kf = rest.extra;
                Ok(Some(v))
            }
            Err(false) => {
                self.pos = pos;
                Ok(None)
            }
            Err(true) => Err(Abort),
        }
    }

    // ---- entries ----

    /// `many0(parse_entry)`: entries up to what is not one (an end keyword, the end of file).
    fn entries(&mut self) -> R<Vec<Entry>> {
        let mut out = vec![];
        loop {
            let save = self.pos;
            self.skip_ws();
            if self.pos == self.b.len() {
                self.pos = save;
                return Ok(out);
            }
            let here = self.pos;
            let w = self.word();
            let fast = match w {
                "endmenu" | "endif" | "endchoice" => {
                    self.pos += w.len();
                    if self.line_done() {
                        self.pos = save;
                        return Ok(out);
                    }
                    None
                }
                "config" | "menuconfig" => self.config(w == "menuconfig")?,
                "choice" => self.choice()?,
                "menu" => self.menu()?,
                "if" => self.r#if()?,
                "comment" => self.comment()?,
                "source" => self.source()?,
                "mainmenu" => {
                    self.pos += w.len();
                    self.prompt_line()
                        .map(|prompt| Entry::MainMenu(MainMenu { prompt }))
                }
                _ => None,
            };
            match fast {
                Some(e) => out.push(e),
                None => match self.nom(here, step::entry)? {
                    Some(e) => out.push(e),
                    None => {
                        self.pos = save;
                        return Ok(out);
                    }
                },
            }
        }
    }

    /// The end keyword of a block, alone on its line; anything else goes to nom-kconfig.
    fn end(&mut self, kw: &str) -> R<()> {
        self.skip_ws();
        if self.word() == kw {
            self.pos += kw.len();
            return Ok(());
        }
        Err(Abort)
    }

    fn config(&mut self, menuconfig: bool) -> R<Option<Entry>> {
        self.pos += if menuconfig { 10 } else { 6 };
        if !matches!(self.at(self.pos), b' ' | b'\t') {
            return Ok(None);
        }
        self.skip_blanks();
        let n = self.b[self.pos..]
            .iter()
            .take_while(|&&c| is_word(c))
            .count();
        if n == 0 {
            return Ok(None);
        }
        let symbol = self.text[self.pos..self.pos + n].to_string();
        self.pos += n;
        if !self.line_done() {
            return Ok(None);
        }
        let attributes = self.attributes(Owner::Config)?;
        let c = Config { symbol, attributes };
        Ok(Some(if menuconfig {
            Entry::MenuConfig(c)
        } else {
            Entry::Config(c)
        }))
    }

    fn choice(&mut self) -> R<Option<Entry>> {
        self.pos += 6;
        if !self.line_done() {
            return Ok(None);
        }
        let options = self.attributes(Owner::Choice)?;
        let entries = self.entries()?;
        self.end("endchoice")?;
        Ok(Some(Entry::Choice(Choice {
            name: None,
            options,
            entries,
        })))
    }

    fn menu(&mut self) -> R<Option<Entry>> {
        self.pos += 4;
        let Some(prompt) = self.prompt_line() else {
            return Ok(None);
        };
        let mut menu = Menu {
            prompt,
            ..Default::default()
        };
        for a in self.attributes(Owner::Menu)? {
            match a {
                Attribute::Visible(v) => menu.visible = Some(v),
                Attribute::DependsOn(d) => menu.depends_on.push(d),
                _ => {}
            }
        }
        menu.entries = self.entries()?;
        self.end("endmenu")?;
        Ok(Some(Entry::Menu(menu)))
    }

    fn r#if(&mut self) -> R<Option<Entry>> {
        self.pos += 2;
        // nom-kconfig's keyword test knows letters beyond ASCII.
        if self.at(self.pos) >= 0x80 {
            return Ok(None);
        }
        let Some(condition) = self.expr() else {
            return Ok(None);
        };
        if !self.line_done() {
            return Ok(None);
        }
        let entries = self.entries()?;
        self.end("endif")?;
        Ok(Some(Entry::If(If { condition, entries })))
    }

    fn comment(&mut self) -> R<Option<Entry>> {
        self.pos += 7;
        let Some(prompt) = self.prompt_line() else {
            return Ok(None);
        };
        let dependencies = self
            .attributes(Owner::Comment)?
            .into_iter()
            .filter_map(|a| match a {
                Attribute::DependsOn(d) => Some(d),
                _ => None,
            })
            .collect();
        Ok(Some(Entry::Comment(Comment {
            prompt,
            dependencies,
        })))
    }

    /// A quoted prompt filling the rest of the line (`menu`, `comment`, `mainmenu`).
    fn prompt_line(&mut self) -> Option<String> {
        if !matches!(self.at(self.pos), b' ' | b'\t') {
            return None;
        }
        self.skip_blanks();
        let p = self.quoted_prompt()?;
        self.line_done().then_some(p)
    }

    fn source(&mut self) -> R<Option<Entry>> {
        self.pos += 6;
        self.skip_blanks();
        if self.at(self.pos) != b'"' {
            return Ok(None);
        }
        let start = self.pos + 1;
        let n = self.b[start..]
            .iter()
            .take_while(|&&c| c.is_ascii_alphanumeric() || b".$(){}*-_+@/".contains(&c))
            .count();
        if n == 0 || self.at(start + n) != b'"' {
            return Ok(None);
        }
        let path = &self.text[start..start + n];
        self.pos = start + n + 1;
        if !self.line_done() {
            return Ok(None);
        }
        let after = self.pos;
        let input = self.input_at(after);
        let files = step::source_files(&input, path).map_err(|_| Abort)?;
        let mut kconfigs = vec![];
        for f in files {
            let child = self.kf.new_source_file(f);
            match child.read_to_string() {
                Ok(text) => {
                    let (k, end) = Scan::file(&text, child)?;
                    self.kf.add_local_vars((*end.local_vars).clone());
                    kconfigs.push(k);
                }
                // As nom-kconfig (kconfiglib mode): an empty file, and the variables as known.
                Err(_) => {
                    let vars = self.kf.vars();
                    kconfigs.push(Kconfig {
                        file: child.full_path().display().to_string(),
                        entries: vec![],
                    });
                    self.kf.add_local_vars(vars);
                }
            }
        }
        self.pos = after;
        Ok(Some(Entry::Source(Source { kconfigs })))
    }

    // ---- attributes ----

    /// The attributes after an entry's head, as nom-kconfig's `many0` over its alternatives.
    fn attributes(&mut self, owner: Owner) -> R<Vec<Attribute>> {
        let mut out = vec![];
        loop {
            let save = self.pos;
            self.skip_ws();
            let w = self.word();
            if w.is_empty() && self.pos == self.b.len() {
                self.pos = save;
                return Ok(out);
            }
            if is_entry_word(w) {
                self.pos = save;
                return Ok(out);
            }
            let fast = match owner {
                Owner::Config | Owner::Choice => self.attribute(w),
                Owner::Menu if matches!(w, "depends" | "visible") => self.attribute(w),
                Owner::Comment if w == "depends" => self.attribute(w),
                _ => None,
            };
            // A help text ends where a line starts; everything else must end its line.
            let fast = fast.filter(|_| w == "help" || self.line_done());
            match fast {
                Some(a) => out.push(a),
                None => {
                    let f = match owner {
                        Owner::Config => step::config_attribute,
                        Owner::Choice => step::choice_attribute,
                        Owner::Menu => step::menu_attribute,
                        Owner::Comment => comment_dependency,
                    };
                    match self.nom(save, f)? {
                        Some(a) => out.push(a),
                        None => return Ok(out),
                    }
                }
            }
        }
    }

    /// One attribute starting with the word `w` here, when it is in a form read exactly.
    fn attribute(&mut self, w: &str) -> Option<Attribute> {
        self.pos += w.len();
        let ty = |t: fn(Option<String>) -> Type| Some(t);
        let plain = match w {
            "bool" | "boolean" => ty(Type::Bool),
            "tristate" => ty(Type::Tristate),
            "string" => ty(Type::String),
            "hex" => ty(Type::Hex),
            "int" => ty(Type::Int),
            _ => None,
        };
        if let Some(t) = plain {
            let prompt = self.opt_prompt()?;
            let r#if = self.if_cond()?;
            return Some(Attribute::Type(ConfigType {
                r#type: t(prompt),
                r#if,
            }));
        }
        let def: Option<fn(Expression) -> Type> = match w {
            "def_bool" => Some(Type::DefBool),
            "def_tristate" => Some(Type::DefTristate),
            "def_int" => Some(Type::DefInt),
            "def_hex" => Some(Type::DefHex),
            "def_string" => Some(Type::DefString),
            _ => None,
        };
        if let Some(t) = def {
            let e = self.expr_on_line()?;
            let r#if = self.if_cond()?;
            return Some(Attribute::Type(ConfigType { r#type: t(e), r#if }));
        }
        match w {
            "prompt" => {
                self.skip_blanks();
                let prompt = self.quoted_prompt()?;
                let r#if = self.if_cond()?;
                Some(Attribute::Prompt(Prompt { prompt, r#if }))
            }
            "depends" => {
                self.skip_wsi();
                if self.word() != "on" {
                    return None;
                }
                self.pos += 2;
                let expression = self.expr_on_line()?;
                let r#if = self.if_cond()?;
                Some(Attribute::DependsOn(DependsOn { expression, r#if }))
            }
            "select" | "enable" => {
                self.skip_blanks();
                let n = self.b[self.pos..]
                    .iter()
                    .take_while(|&&c| is_word(c) || c == b'.')
                    .count();
                if n == 0 {
                    return None;
                }
                let symbol = self.text[self.pos..self.pos + n].to_string();
                self.pos += n;
                let r#if = self.if_cond()?;
                Some(Attribute::Select(Select { symbol, r#if }))
            }
            "imply" => {
                self.skip_blanks();
                let symbol = self.symbol()?;
                let r#if = self.if_cond()?;
                Some(Attribute::Imply(Imply { symbol, r#if }))
            }
            "default" => {
                let expression = self.expr_on_line()?;
                let r#if = self.if_cond()?;
                Some(Attribute::Default(DefaultAttribute { expression, r#if }))
            }
            "range" => {
                let lower_bound = self.bound()?;
                let upper_bound = self.bound()?;
                let r#if = self.if_cond()?;
                Some(Attribute::Range(Range {
                    lower_bound,
                    upper_bound,
                    r#if,
                }))
            }
            "visible" => Some(Attribute::Visible(self.if_cond()?)),
            "help" => self.help().map(Attribute::Help),
            "option" => {
                self.skip_blanks();
                let v = self.word();
                let o = match v {
                    "modules" => OptionValues::Modules,
                    "defconfig_list" => OptionValues::DefconfigList,
                    "allnoconfig_y" => OptionValues::AllNoConfigY,
                    _ => return None,
                };
                self.pos += v.len();
                Some(Attribute::Option(o))
            }
            "modules" => Some(Attribute::Modules),
            "optional" => Some(Attribute::Optional),
            "transitional" => Some(Attribute::Transitional),
            _ => None,
        }
    }

    /// A type's optional prompt: a quoted prompt, or nothing more on the line.
    fn opt_prompt(&mut self) -> Option<Option<String>> {
        let save = self.pos;
        self.skip_blanks();
        match self.at(self.pos) {
            b'"' => self.quoted_prompt().map(Some),
            0 | b'\n' => {
                // nom-kconfig looks for the quote past the line end too.
                if matches!(self.at(self.ws_end(self.pos)), b'"' | b'\'') {
                    return None;
                }
                self.pos = save;
                Some(None)
            }
            _ => None,
        }
    }

    /// nom-kconfig's quoted prompt (the first of `parse_prompt_value`'s forms), trimmed.
    fn quoted_prompt(&mut self) -> Option<String> {
        if self.at(self.pos) != b'"' {
            return None;
        }
        let body = &self.text[self.pos + 1..];
        let mut it = body.char_indices().peekable();
        let mut end = None;
        while let Some((i, c)) = it.next() {
            if c == '\\' && it.peek().map(|p| p.1) == Some('"') {
                it.next();
                continue;
            }
            if c == '"' {
                end = Some(i);
                break;
            }
            if !prompt_char(c) {
                return None;
            }
        }
        let end = end.filter(|&e| e > 0)?;
        let p = body[..end].trim().to_string();
        self.pos += 1 + end + 1;
        Some(p)
    }

    /// `help` and its text, as nom-kconfig's `parse_help` reads it.
    fn help(&mut self) -> Option<String> {
        self.skip_blanks();
        if self.at(self.pos) != b'\n' {
            return None;
        }
        self.pos += 1;
        let lines_from = |p: usize| self.text[p..].split_inclusive('\n');
        let indent = |l: &str| {
            let mut chars = 0;
            let mut computed = 0;
            for c in l.bytes() {
                match c {
                    b'\t' => computed = (computed & !7) + 8,
                    b' ' => computed += 1,
                    _ => break,
                }
                chars += 1;
            }
            (chars, computed)
        };
        // The first line that is not blanks only sets the indentation.
        let first = lines_from(self.pos)
            .find(|l| {
                !l.strip_suffix('\n')
                    .is_some_and(|b| b.bytes().all(|c| c == b' ' || c == b'\t'))
            })
            .unwrap_or("");
        let (chars0, computed0) = indent(first);
        if chars0 == 0 {
            return Some(String::new());
        }
        let mut text = String::new();
        let mut p = self.pos;
        while p < self.b.len() {
            let line = lines_from(p).next().unwrap_or("");
            let body = line.strip_suffix('\n').unwrap_or(line);
            if body.trim().is_empty() {
                if !line.ends_with('\n') || !body.bytes().all(|c| c == b' ' || c == b'\t') {
                    break;
                }
                text.push('\n');
                p += line.len();
                continue;
            }
            let (chars, computed) = indent(body);
            if computed < computed0 {
                break;
            }
            text.push_str(&body[chars.min(chars0)..]);
            text.push('\n');
            p += line.len();
        }
        self.pos = p;
        Some(text.trim_end().to_string())
    }

    // ---- expressions ----

    /// An expression that starts on this line (nom-kconfig would look past its end).
    fn expr_on_line(&mut self) -> Option<Expression> {
        self.skip_blanks();
        if matches!(self.at(self.pos), 0 | b'\n' | b'#' | b'\\') {
            return None;
        }
        self.expr()
    }

    /// `parse_expression`: `||` of `&&` of terms.
    fn expr(&mut self) -> Option<OrExpression> {
        let mut all = self.joined("||", Self::and_expr)?;
        Some(if all.len() == 1 {
            OrExpression::Term(all.remove(0))
        } else {
            OrExpression::Expression(all)
        })
    }

    fn and_expr(&mut self) -> Option<AndExpression> {
        let mut all = self.joined("&&", Self::term)?;
        Some(if all.len() == 1 {
            AndExpression::Term(all.remove(0))
        } else {
            AndExpression::Expression(all)
        })
    }

    /// One or more `item`s joined by `op`; a blank before an `op` that does not follow is
    /// left unread.
    fn joined<T>(&mut self, op: &str, item: fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.skip_wsi();
        let mut all = vec![item(self)?];
        loop {
            let save = self.pos;
            self.skip_wsi();
            if self.rest().starts_with(op) {
                self.pos += op.len();
                self.skip_wsi();
                all.push(item(self)?);
            } else {
                self.pos = save;
                return Some(all);
            }
        }
    }

    fn term(&mut self) -> Option<Term> {
        if self.at(self.pos) == b'!' {
            self.pos += 1;
            // nom-kconfig reads `! X` (a blank after `!`) differently from `!X`.
            if matches!(self.at(self.pos), b' ' | b'\t' | b'!' | b'=') {
                return None;
            }
            return self.atom().map(Term::Not);
        }
        self.atom().map(Term::Atom)
    }

    fn atom(&mut self) -> Option<Atom> {
        if self.at(self.pos) == b'(' {
            self.pos += 1;
            let e = self.expr()?;
            self.skip_wsi();
            if self.at(self.pos) != b')' {
                return None;
            }
            self.pos += 1;
            return Some(Atom::Parenthesis(Box::new(e)));
        }
        let left = self.symbol()?;
        let save = self.pos;
        self.skip_wsi();
        let op = match (self.at(self.pos), self.at(self.pos + 1)) {
            (b'>', b'=') => Some((CompareOperator::GreaterOrEqual, 2)),
            (b'<', b'=') => Some((CompareOperator::LowerOrEqual, 2)),
            (b'>', _) => Some((CompareOperator::GreaterThan, 1)),
            (b'<', _) => Some((CompareOperator::LowerThan, 1)),
            (b'=', _) => Some((CompareOperator::Equal, 1)),
            (b'!', b'=') => Some((CompareOperator::NotEqual, 2)),
            _ => None,
        };
        let Some((operator, n)) = op else {
            self.pos = save;
            return Some(Atom::Symbol(left));
        };
        self.pos += n;
        self.skip_wsi();
        let right = self.symbol()?;
        Some(Atom::Compare(CompareExpression {
            left: CompareOperand::Symbol(left),
            operator,
            right: CompareOperand::Symbol(right),
        }))
    }

    /// `parse_symbol` on a word or a double-quoted string without `$`.
    fn symbol(&mut self) -> Option<Symbol> {
        if self.at(self.pos) == b'"' {
            let body = &self.b[self.pos + 1..];
            let n = body.iter().position(|&c| c == b'"' || c == b'\n')?;
            if body[n] != b'"' || body[..n].contains(&b'$') {
                return None;
            }
            let s = self.text[self.pos + 1..self.pos + 1 + n].to_string();
            self.pos += n + 2;
            return Some(Symbol::Constant(ConstantSymbol::String(s)));
        }
        let n = self.b[self.pos..]
            .iter()
            .take_while(|&&c| is_word(c) || c == b'.')
            .count();
        if n == 0 || matches!(self.at(self.pos + n), b'\'' | b'"') {
            return None;
        }
        let w = &self.text[self.pos..self.pos + n];
        self.pos += n;
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        Some(match w {
            "y" => Symbol::Constant(ConstantSymbol::Boolean(true)),
            "n" => Symbol::Constant(ConstantSymbol::Boolean(false)),
            "m" => Symbol::Constant(ConstantSymbol::Tristate(Tristate::Module)),
            _ if (w.starts_with("0x") || w.starts_with("0X"))
                && w.len() > 2
                && w[2..].bytes().all(|c| c.is_ascii_hexdigit()) =>
            {
                Symbol::Constant(ConstantSymbol::Hex(w.to_string()))
            }
            _ if digits(w.strip_prefix('-').unwrap_or(w)) => match w.parse::<i64>() {
                Ok(i) => Symbol::Constant(ConstantSymbol::Integer(i)),
                Err(_) => return None,
            },
            _ => Symbol::NonConstant(w.to_string()),
        })
    }

    /// A `range` bound: a whole hex number, number or symbol name.
    fn bound(&mut self) -> Option<RangeBound> {
        self.skip_blanks();
        let n = self.b[self.pos..]
            .iter()
            .take_while(|&&c| is_word(c) || c == b'.')
            .count();
        if n == 0 || !matches!(self.at(self.pos + n), 0 | b' ' | b'\t' | b'\n' | b'#') {
            return None;
        }
        let w = &self.text[self.pos..self.pos + n];
        self.pos += n;
        let hexish = w.len() > 2
            && (w.starts_with("0x") || w.starts_with("0X"))
            && w.as_bytes()[2].is_ascii_hexdigit();
        if hexish {
            return w[2..]
                .bytes()
                .all(|c| c.is_ascii_hexdigit())
                .then(|| RangeBound::Hex(w.to_string()));
        }
        let num = w.strip_prefix('-').unwrap_or(w);
        if num.as_bytes().first().is_some_and(|c| c.is_ascii_digit()) {
            if !num.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            return w.parse().ok().map(RangeBound::Number);
        }
        Some(RangeBound::Symbol(w.to_string()))
    }

    /// `parse_if_attribute`: `if EXPR` after blanks, or nothing (`None`: not read for sure).
    fn if_cond(&mut self) -> Option<Option<Expression>> {
        let save = self.pos;
        self.skip_wsi();
        if self.rest().starts_with("if") {
            let next = self.at(self.pos + 2);
            if next >= 0x80 {
                return None;
            }
            if !is_word(next) {
                self.pos += 2;
                return self.expr_on_line().map(Some);
            }
        }
        self.pos = save;
        Some(None)
    }
}
