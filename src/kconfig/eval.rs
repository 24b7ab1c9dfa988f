//! The Kconfig evaluator: symbol values from the tree's Kconfig and a `.config`, with the
//! kernel's rules (`scripts/kconfig/symbol.c`, `sym_calc_value`):
//!
//! * tristate logic: `&&` is min, `||` is max, `!x` is `2 - x`; `m` becomes `y` for a bool, and
//!   for every tristate when `MODULES` is `n`;
//! * a bool/tristate takes its `.config` value only when a prompt is visible (capped by the
//!   visibility), else the first `default` whose condition holds (plus `imply`, capped by the
//!   direct dependencies); `select` then raises it to the selectors' value;
//! * int/hex/string: the `.config` value when visible, else the first active default, clamped
//!   to the first active `range`;
//! * a choice picks the visible member set to `y` in `.config`, else its first visible default
//!   (unless the `.config` sets that one to `n`), else the first visible member the `.config`
//!   says nothing about, else the last visible member (`sym_calc_choice`);
//! * comparisons work on numbers when both sides parse as numbers of their type, else on text.
//!
//! Values are computed on demand and memoised, so reading one symbol only evaluates what it
//! depends on (and runs only those probes).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::RefCell;

use super::dotconfig::{DotConfig, Tristate, Value};
use super::macros::Expander;
use super::tree::{Cmp, Expr, Kconfig, Symbol};
use super::SymType;

/// A computed value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Val {
    pub tri: Tristate,
    /// The value as auto.conf prints it (`y`/`m`/`n` for bool and tristate).
    pub text: String,
    /// The prompt's visibility (`n`: the user cannot set it).
    pub visible: Tristate,
    /// Whether kconfig writes it to `.config` (SYMBOL_WRITE).
    pub write: bool,
    /// The `.config` value was taken.
    pub from_user: bool,
}

pub fn and(a: Tristate, b: Tristate) -> Tristate {
    a.min(b)
}
pub fn or(a: Tristate, b: Tristate) -> Tristate {
    a.max(b)
}
pub fn not(a: Tristate) -> Tristate {
    match a {
        Tristate::No => Tristate::Yes,
        Tristate::Module => Tristate::Module,
        Tristate::Yes => Tristate::No,
    }
}

fn tri_of(s: &str) -> Option<Tristate> {
    match s {
        "y" => Some(Tristate::Yes),
        "m" => Some(Tristate::Module),
        "n" => Some(Tristate::No),
        _ => None,
    }
}

struct Memo {
    val: Val,
    ty: Option<SymType>,
    c_probe: bool,
}

pub struct Eval<'a> {
    pub kc: &'a Kconfig,
    pub user: &'a DotConfig,
    pub x: &'a Expander,
    /// Each symbol's value once worked out, with its type and whether it read a `$(…)` probe
    /// of a tool other than rustc, directly or through another symbol.
    vals: RefCell<HashMap<String, Memo>>,
    busy: RefCell<HashSet<String>>,
    choices: RefCell<HashMap<usize, Option<String>>>,
    macros: RefCell<HashMap<String, String>>,
    taint: RefCell<Vec<bool>>,
}

impl<'a> Eval<'a> {
    pub fn new(kc: &'a Kconfig, user: &'a DotConfig, x: &'a Expander) -> Eval<'a> {
        Eval {
            kc,
            user,
            x,
            vals: RefCell::default(),
            busy: RefCell::default(),
            choices: RefCell::default(),
            macros: RefCell::default(),
            taint: RefCell::default(),
        }
    }

    /// A `$(…)` expansion, memoised.
    pub fn macro_value(&self, text: &str) -> String {
        if !probes_only_rustc(text) {
            self.mark_taint(true);
        }
        if let Some(v) = self.macros.borrow().get(text) {
            return v.clone();
        }
        let v = self.x.expand(text, &[]);
        self.macros.borrow_mut().insert(text.to_string(), v.clone());
        v
    }

    fn mark_taint(&self, t: bool) {
        if t {
            if let Some(top) = self.taint.borrow_mut().last_mut() {
                *top = true;
            }
        }
    }

    /// Whether the symbol's value depends on a probe of anything but rustc (the C compiler,
    /// assembler, linker, bindgen/libclang), rather than on the configuration, the Kconfig
    /// logic and rustc alone.
    pub fn depends_on_c_probe(&self, name: &str) -> bool {
        self.value(name);
        self.vals.borrow().get(name).is_some_and(|m| m.c_probe)
    }

    fn modules(&self) -> Tristate {
        match &self.kc.modules {
            Some(m) => self.value(m).tri,
            None => Tristate::No,
        }
    }

    /// The symbol's effective type (a tristate is a bool while MODULES is off).
    pub fn eff_type(&self, s: &Symbol) -> Option<SymType> {
        match s.ty {
            Some(SymType::Tristate) if self.kc.modules.as_deref() != Some(&s.name) => {
                if self.modules() == Tristate::No {
                    Some(SymType::Bool)
                } else {
                    Some(SymType::Tristate)
                }
            }
            t => t,
        }
    }

    /// The tristate value of an expression.
    pub fn tri(&self, e: &Expr) -> Tristate {
        match e {
            Expr::Sym(n) => self.name_tri(n),
            Expr::Const(c) => tri_of(c).unwrap_or(Tristate::No),
            Expr::Macro(m) => tri_of(self.macro_value(m).trim()).unwrap_or(Tristate::No),
            Expr::Not(e) => not(self.tri(e)),
            Expr::And(v) => v.iter().fold(Tristate::Yes, |a, e| {
                if a == Tristate::No {
                    a
                } else {
                    and(a, self.tri(e))
                }
            }),
            Expr::Or(v) => v.iter().fold(Tristate::No, |a, e| {
                if a == Tristate::Yes {
                    a
                } else {
                    or(a, self.tri(e))
                }
            }),
            Expr::Cmp(op, a, b) => self.compare(*op, a, b),
        }
    }

    /// A name's tristate value in an expression: `y`, `m` and `n` are constants.
    fn name_tri(&self, n: &str) -> Tristate {
        tri_of(n).unwrap_or_else(|| self.sym_tri(n))
    }

    /// A symbol's tristate value in an expression: `n` unless it is a bool or tristate. The
    /// hottest path of an evaluation (every symbol an expression names), so a value worked
    /// out before is read in place, not cloned, and the type comes from the index.
    fn sym_tri(&self, n: &str) -> Tristate {
        let is_tri = |ty| matches!(ty, Some(SymType::Bool | SymType::Tristate));
        if let Some(m) = self.vals.borrow().get(n) {
            if !is_tri(m.ty) {
                return Tristate::No;
            }
            self.mark_taint(m.c_probe);
            return m.val.tri;
        }
        if is_tri(self.kc.sym_type(n)) {
            self.value(n).tri
        } else {
            Tristate::No
        }
    }

    /// An operand's text and type, as `sym_get_string_value` sees it.
    pub fn operand(&self, e: &Expr) -> (String, Option<SymType>) {
        match e {
            Expr::Sym(n) if tri_of(n).is_some() => (n.clone(), None),
            Expr::Sym(n) => match self.kc.get(n) {
                Some(s) if s.ty.is_some() => (self.value(n).text, self.eff_type(s)),
                _ => (n.clone(), None),
            },
            Expr::Const(c) => (c.clone(), None),
            Expr::Macro(m) => (self.macro_value(m).trim().to_string(), None),
            other => (
                self.tri(other).as_char().to_string(),
                Some(SymType::Tristate),
            ),
        }
    }

    fn compare(&self, op: Cmp, a: &Expr, b: &Expr) -> Tristate {
        let (sa, ta) = self.operand(a);
        let (sb, tb) = self.operand(b);
        let both_strings = ta == Some(SymType::String) && tb == Some(SymType::String);
        let ord = if both_strings {
            sa.cmp(&sb)
        } else {
            match (parse_num(&sa, ta), parse_num(&sb, tb)) {
                (Some(x), Some(y)) => x.cmp(&y),
                // Not numbers: only (in)equality is defined, on the text.
                _ if matches!(op, Cmp::Eq | Cmp::Ne) => sa.cmp(&sb),
                _ => return Tristate::No,
            }
        };
        use std::cmp::Ordering::*;
        let r = match op {
            Cmp::Eq => ord == Equal,
            Cmp::Ne => ord != Equal,
            Cmp::Lt => ord == Less,
            Cmp::Le => ord != Greater,
            Cmp::Gt => ord == Greater,
            Cmp::Ge => ord != Less,
        };
        if r {
            Tristate::Yes
        } else {
            Tristate::No
        }
    }

    /// The prompt visibility of a symbol.
    pub fn visibility(&self, s: &Symbol) -> Tristate {
        let mut v = s
            .prompts
            .iter()
            .fold(Tristate::No, |a, p| or(a, self.tri(&p.cond)));
        if v == Tristate::Module && self.eff_type(s) != Some(SymType::Tristate) {
            v = Tristate::Yes;
        }
        v
    }

    fn rev(&self, s: &Symbol, list: &[super::tree::Prop<String>]) -> Tristate {
        let mut r = list.iter().fold(Tristate::No, |a, p| {
            or(a, and(self.name_tri(&p.value), self.tri(&p.cond)))
        });
        if r == Tristate::Module && self.eff_type(s) == Some(SymType::Bool) {
            r = Tristate::Yes;
        }
        r
    }

    pub fn rev_dep(&self, s: &Symbol) -> Tristate {
        self.rev(s, &s.selected_by)
    }

    /// The user's value, when valid for the type.
    pub fn user_value(&self, s: &Symbol) -> Option<Value> {
        let v = self.user.get(&s.name)?;
        let ok = match (s.ty?, v) {
            (SymType::Bool, Value::Tristate(t)) => *t != Tristate::Module,
            (SymType::Tristate, Value::Tristate(_)) => true,
            (SymType::String, Value::Quoted(_)) => true,
            (SymType::String, Value::Bare(_)) => true,
            (SymType::Int, Value::Bare(b)) => b.parse::<i64>().is_ok(),
            (SymType::Hex, Value::Bare(b)) => {
                let h = b
                    .strip_prefix("0x")
                    .or_else(|| b.strip_prefix("0X"))
                    .unwrap_or(b);
                !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit())
            }
            _ => false,
        };
        ok.then(|| v.clone())
    }

    /// The member a choice settles on (`None`: the choice is not visible).
    pub fn choice_selection(&self, idx: usize) -> Option<String> {
        if let Some(v) = self.choices.borrow().get(&idx) {
            return v.clone();
        }
        let c = &self.kc.choices[idx];
        let vis = c
            .prompts
            .iter()
            .fold(Tristate::No, |a, p| or(a, self.tri(&p.cond)));
        let sel = if vis == Tristate::No {
            None
        } else {
            let member_vis = |m: &str| {
                self.kc
                    .get(m)
                    .is_some_and(|s| self.visibility(s) != Tristate::No)
            };
            c.members
                .iter()
                .find(|m| {
                    matches!(self.user.get(m), Some(Value::Tristate(Tristate::Yes)))
                        && member_vis(m)
                })
                .cloned()
                // The default, unless the .config sets it to n explicitly.
                .or_else(|| {
                    c.defaults
                        .iter()
                        .find(|d| self.tri(&d.cond) != Tristate::No && member_vis(&d.value))
                        .map(|d| d.value.clone())
                        .filter(|d| {
                            !matches!(self.user.get(d), Some(Value::Tristate(Tristate::No)))
                        })
                })
                // The first visible member the .config says nothing about.
                .or_else(|| {
                    c.members
                        .iter()
                        .find(|m| member_vis(m) && self.user.get(m).is_none())
                        .cloned()
                })
                // All set to n: the last visible one (sym_calc_choice).
                .or_else(|| c.members.iter().rev().find(|m| member_vis(m)).cloned())
        };
        self.choices.borrow_mut().insert(idx, sel.clone());
        sel
    }

    /// The value of a symbol (undefined symbols are `n`).
    pub fn value(&self, name: &str) -> Val {
        if let Some(m) = self.vals.borrow().get(name) {
            self.mark_taint(m.c_probe);
            return m.val.clone();
        }
        let Some(s) = self.kc.get(name) else {
            return Val {
                tri: Tristate::No,
                text: String::new(),
                visible: Tristate::No,
                write: false,
                from_user: false,
            };
        };
        if !self.busy.borrow_mut().insert(name.to_string()) {
            // A dependency loop (the kernel warns and uses the value so far).
            return Val {
                tri: Tristate::No,
                text: "n".into(),
                visible: Tristate::No,
                write: false,
                from_user: false,
            };
        }
        self.taint.borrow_mut().push(false);
        let v = self.calc(s);
        let t = self.taint.borrow_mut().pop().unwrap_or(false);
        self.mark_taint(t);
        self.busy.borrow_mut().remove(name);
        let memo = Memo {
            val: v.clone(),
            ty: s.ty,
            c_probe: t,
        };
        self.vals.borrow_mut().insert(name.to_string(), memo);
        v
    }

    fn calc(&self, s: &Symbol) -> Val {
        let ty = self.eff_type(s);
        let visible = self.visibility(s);
        let user = self.user_value(s);
        match ty {
            Some(SymType::Bool | SymType::Tristate) | None => {
                let mut write = visible != Tristate::No;
                let mut from_user = false;
                let rev = self.rev_dep(s);
                let mut val = Tristate::No;
                let in_choice = s
                    .choice
                    .map(|c| (c, self.choice_selection(c)))
                    .filter(|(_, sel)| sel.is_some() && visible == Tristate::Yes);
                if let Some((_, sel)) = in_choice {
                    val = if sel.as_deref() == Some(s.name.as_str()) {
                        Tristate::Yes
                    } else {
                        Tristate::No
                    };
                    from_user = matches!(user, Some(Value::Tristate(_)));
                } else {
                    let mut done = false;
                    if visible != Tristate::No || s.transitional {
                        if let Some(Value::Tristate(u)) = user {
                            val = if s.transitional { u } else { and(u, visible) };
                            from_user = true;
                            done = true;
                        }
                    }
                    if !done {
                        if rev != Tristate::No {
                            write = true;
                        }
                        if s.choice.is_none() {
                            if let Some(d) = s
                                .defaults
                                .iter()
                                .find(|d| self.tri(&d.cond) != Tristate::No)
                            {
                                val = and(self.tri(&d.value), self.tri(&d.cond));
                                if val != Tristate::No {
                                    write = true;
                                }
                            }
                            let imp = self.rev(s, &s.implied_by);
                            if imp != Tristate::No {
                                write = true;
                                val = and(or(val, imp), self.tri(&s.dir_dep()));
                            }
                        }
                    }
                    val = or(val, rev);
                }
                if val == Tristate::Module && ty != Some(SymType::Tristate) {
                    val = Tristate::Yes;
                }
                if s.transitional {
                    write = false;
                }
                Val {
                    tri: val,
                    text: val.as_char().to_string(),
                    visible,
                    write,
                    from_user,
                }
            }
            Some(t) => {
                let mut write = visible != Tristate::No;
                let mut from_user = false;
                let mut text = String::new();
                let user_text = user.map(|u| u.text().into_owned());
                match user_text {
                    Some(u) if visible != Tristate::No || s.transitional => {
                        text = u;
                        from_user = true;
                    }
                    _ => {
                        if let Some(d) = s
                            .defaults
                            .iter()
                            .find(|d| self.tri(&d.cond) != Tristate::No)
                        {
                            write = true;
                            text = self.operand(&d.value).0;
                        }
                    }
                }
                if matches!(t, SymType::Int | SymType::Hex) {
                    text = self.clamp(s, t, text);
                }
                if s.transitional {
                    write = false;
                }
                Val {
                    tri: Tristate::No,
                    text,
                    visible,
                    write,
                    from_user,
                }
            }
        }
    }

    /// `sym_validate_range`: an int/hex outside its first active range is set to the bound.
    fn clamp(&self, s: &Symbol, t: SymType, text: String) -> String {
        let Some(r) = s.ranges.iter().find(|r| self.tri(&r.cond) != Tristate::No) else {
            return text;
        };
        let ty = Some(t);
        let val = if text.is_empty() {
            0
        } else {
            match parse_num(&text, ty) {
                Some(v) => v,
                None => return text,
            }
        };
        let bound = |e: &Expr| {
            let (s, _) = self.operand(e);
            parse_num(&s, ty)
        };
        let (Some(lo), Some(hi)) = (bound(&r.value.0), bound(&r.value.1)) else {
            return text;
        };
        let fix = if val < lo {
            lo
        } else if val > hi {
            hi
        } else {
            return text;
        };
        match t {
            SymType::Hex => format!("0x{fix:x}"),
            _ => fix.to_string(),
        }
    }

    /// Every symbol whose value kconfig would write to auto.conf (not `n`), with its value.
    pub fn auto_conf(&self) -> Vec<(String, String)> {
        let mut out = vec![];
        for (name, s) in self.kc.symbols.iter() {
            if s.ty.is_none() {
                continue;
            }
            let v = self.value(name);
            if !v.write {
                continue;
            }
            match s.ty {
                Some(SymType::Bool | SymType::Tristate) if v.tri == Tristate::No => {}
                Some(SymType::Int | SymType::Hex) if v.text.is_empty() => {}
                _ => out.push((name.to_string(), v.text.clone())),
            }
        }
        out
    }
}

/// Whether a `$(…)` call probes only rustc (`rustc-version`, `rustc-llvm-version`,
/// `rustc-option`, `$(RUSTC_VERSION_TEXT)`). `rust_is_available.sh` also runs bindgen and
/// libclang, so it counts with the C side.
pub fn probes_only_rustc(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    t.contains("rustc") && !t.contains("bindgen") && !t.contains("rust_is_available")
}

/// A number as the kernel's `expr_parse_string` reads it: int in base 10, hex in base 16 (with
/// or without `0x`), untyped in base 0 (`0x` hex, leading `0` octal, else decimal).
pub fn parse_num(s: &str, ty: Option<SymType>) -> Option<i128> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    match ty {
        Some(SymType::Bool | SymType::Tristate) => {
            return Some(match s {
                "n" => 0,
                "m" => 1,
                "y" => 2,
                _ => -1,
            })
        }
        Some(SymType::Hex) => {
            let h = s
                .strip_prefix("0x")
                .or_else(|| s.strip_prefix("0X"))
                .unwrap_or(s);
            return i128::from_str_radix(h, 16).ok();
        }
        Some(SymType::Int) => return s.parse().ok(),
        _ => {}
    }
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else if body.len() > 1 && body.starts_with('0') {
        i128::from_str_radix(&body[1..], 8).ok()?
    } else {
        body.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}
