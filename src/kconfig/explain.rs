//! Explanations: why a symbol has its value (`rkbuild why`), and the checks `rkbuild config`
//! runs on the Rust options (what olddefconfig would change or drop, defaults missing from an
//! older `.config`, contradictory choices).

use super::dotconfig::{Tristate, Value};
use super::eval::Eval;
use super::tree::{Expr, Loc};
use super::SymType;

/// One symbol an unmet condition reads, with its value and where that value came from.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Culprit {
    pub symbol: String,
    pub value: String,
    /// `.config:LINE` when the value came from the `.config`, else how it was computed.
    pub origin: String,
    /// For a symbol the user cannot set: why it has its value (one level down).
    pub because: Vec<String>,
}

/// A `depends on` (or enclosing `if`/`menu`) that is not met.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Blocker {
    pub condition: String,
    pub at: String,
    pub culprits: Vec<Culprit>,
    /// Toolchain facts behind `$(…)` calls in the condition.
    pub probes: Vec<String>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Why {
    pub symbol: String,
    pub kind: String,
    pub value: String,
    pub defined_at: Vec<String>,
    pub prompt: Option<String>,
    pub visible: String,
    /// The `.config` line and value, if any.
    pub user: Option<(String, String)>,
    /// One sentence: what happened.
    pub summary: String,
    pub blockers: Vec<Blocker>,
    pub selected_by: Vec<String>,
    pub default: Option<String>,
    pub probes: Vec<String>,
    pub notes: Vec<String>,
}

impl Why {
    /// The human report.
    pub fn render(&self) -> String {
        let mut s = format!("CONFIG_{}={} ({})\n", self.symbol, self.value, self.kind);
        for d in &self.defined_at {
            s += &format!("  defined at {d}\n");
        }
        s += &format!("  {}\n", self.summary);
        for b in &self.blockers {
            s += &format!("  blocked by: depends on {}   ({})\n", b.condition, b.at);
            for c in &b.culprits {
                s += &format!("      {}={}  ({})\n", c.symbol, c.value, c.origin);
                for r in &c.because {
                    s += &format!("          {r}\n");
                }
            }
            for p in &b.probes {
                for l in p.lines() {
                    s += &format!("      {l}\n");
                }
            }
        }
        for sel in &self.selected_by {
            s += &format!("  selected by {sel}\n");
        }
        if let Some(d) = &self.default {
            s += &format!("  value from {d}\n");
        }
        for p in &self.probes {
            for l in p.lines() {
                s += &format!("  {l}\n");
            }
        }
        for n in &self.notes {
            s += &format!("  note: {n}\n");
        }
        s
    }
}

fn loc_s(l: &Loc) -> String {
    l.to_string()
}

fn kind(ty: Option<SymType>) -> &'static str {
    match ty {
        Some(SymType::Bool) => "bool",
        Some(SymType::Tristate) => "tristate",
        Some(SymType::Int) => "int",
        Some(SymType::Hex) => "hex",
        Some(SymType::String) => "string",
        None => "no type",
    }
}

impl Eval<'_> {
    fn origin(&self, name: &str) -> String {
        let v = self.value(name);
        match (v.from_user, self.user.origin(name)) {
            (true, Some(o)) => format!("set at {o}"),
            (false, Some(o)) => format!("{o} ignored: the user cannot set it here"),
            _ => match self.kc.get(name) {
                None => "not defined for this architecture".into(),
                Some(s) if !s.selected_by.is_empty() && self.rev_dep(s) != Tristate::No => {
                    "selected".into()
                }
                Some(_) if v.visible == Tristate::No => "computed: not user-settable".into(),
                Some(_) => "default (not in the .config)".into(),
            },
        }
    }

    /// Probes run by the `$(…)` calls in an expression, described with their outcome.
    fn probe_facts(&self, e: &Expr) -> Vec<String> {
        let mut out = vec![];
        let mut macros = vec![];
        collect_macros(e, &mut macros);
        for m in macros {
            self.x.take_used();
            let v = self.x.expand(&m, &[]);
            let used = self.x.take_used();
            out.push(format!("{m} → `{}`", v.trim()));
            for cmd in used {
                if let Some(p) = self.x.probe(&cmd) {
                    let status = if p.ok { "succeeded" } else { "FAILED" };
                    out.push(format!("  probe `{}` {status}", shorten(&cmd)));
                    let err: Vec<&str> = p
                        .stderr
                        .lines()
                        .filter(|l| !l.trim().is_empty() && l.trim() != "***")
                        .take(8)
                        .collect();
                    if !p.ok {
                        for l in err {
                            out.push(format!("    {l}"));
                        }
                    }
                }
            }
        }
        out
    }

    /// Why `dep` is not met: the symbols it reads, and one level down for those the user
    /// cannot set.
    fn culprits(&self, e: &Expr, depth: usize) -> Vec<Culprit> {
        let mut names = vec![];
        e.symbols(&mut names);
        names
            .into_iter()
            .filter(|n| !matches!(n.as_str(), "y" | "m" | "n"))
            .map(|n| {
                let v = self.value(&n);
                let mut because = vec![];
                if depth == 0 && !v.from_user {
                    if let Some(w) = self.kc.get(&n) {
                        let sub = self.why(&n, depth + 1);
                        because.extend(sub.blockers.iter().map(|b| {
                            let who: Vec<String> = b
                                .culprits
                                .iter()
                                .map(|c| format!("{}={} ({})", c.symbol, c.value, c.origin))
                                .collect();
                            format!("needs {} ({}): {}", b.condition, b.at, who.join(", "))
                        }));
                        for b in &sub.blockers {
                            because.extend(b.probes.iter().cloned());
                        }
                        if let Some(d) = &sub.default {
                            because.push(format!("value from {d}"));
                        }
                        because.extend(sub.probes.iter().cloned());
                        if w.defs.is_empty() {
                            because.push("never defined for this architecture".into());
                        }
                    }
                }
                Culprit {
                    symbol: n.clone(),
                    value: if v.text.is_empty() {
                        "\"\"".into()
                    } else {
                        v.text.clone()
                    },
                    origin: self.origin(&n),
                    because,
                }
            })
            .collect()
    }

    /// Explains one symbol.
    pub fn why(&self, name: &str, depth: usize) -> Why {
        let v = self.value(name);
        let Some(s) = self.kc.get(name) else {
            return Why {
                symbol: name.into(),
                kind: "unknown".into(),
                value: "n".into(),
                defined_at: vec![],
                prompt: None,
                visible: "n".into(),
                user: self
                    .user
                    .get(name)
                    .map(|u| (self.user.origin(name).unwrap_or_default(), u.to_string())),
                summary: format!(
                    "CONFIG_{name} is not defined by this tree's Kconfig (for SRCARCH={}): kconfig drops it from the .config",
                    self.kc.srcarch
                ),
                blockers: vec![],
                selected_by: vec![],
                default: None,
                probes: vec![],
                notes: vec![],
            };
        };
        let user = self
            .user
            .get(name)
            .map(|u| (self.user.origin(name).unwrap_or_default(), u.to_string()));
        let mut blockers = vec![];
        for d in &s.defs {
            for line in &d.dep_lines {
                if self.tri(&line.value) == Tristate::No {
                    blockers.push(Blocker {
                        condition: line.value.to_string(),
                        at: loc_s(&line.loc),
                        culprits: self.culprits(&line.value, depth),
                        probes: self.probe_facts(&line.value),
                    });
                }
            }
        }
        let selected_by: Vec<String> = s
            .selected_by
            .iter()
            .filter(|p| {
                self.tri(&Expr::Sym(p.value.clone())) != Tristate::No
                    && self.tri(&p.cond) != Tristate::No
            })
            .map(|p| {
                format!(
                    "{}={} ({})",
                    p.value,
                    self.value(&p.value).text,
                    loc_s(&p.loc)
                )
            })
            .collect();
        let default = if v.from_user {
            None
        } else {
            s.defaults
                .iter()
                .find(|d| self.tri(&d.cond) != Tristate::No)
                .map(|d| format!("default {} ({})", d.value, loc_s(&d.loc)))
        };
        let probes = if v.from_user {
            vec![]
        } else {
            s.defaults
                .iter()
                .find(|d| self.tri(&d.cond) != Tristate::No)
                .map(|d| self.probe_facts(&d.value))
                .unwrap_or_default()
        };
        let shown = if v.text.is_empty() {
            "\"\"".to_string()
        } else {
            v.text.clone()
        };
        let summary = match (&user, v.from_user) {
            (Some((at, uv)), false) if *uv != shown && !(uv == "n" && shown == "n") => {
                let verb = if shown == "n" { "drops it" } else { "changes it" };
                let why = if !blockers.is_empty() {
                    "a dependency is not met"
                } else if v.visible == Tristate::No {
                    "the symbol has no visible prompt, so its value is computed"
                } else {
                    "the value is not valid here"
                };
                format!("{at} sets CONFIG_{name}={uv}, but `make olddefconfig` {verb} (to {shown}): {why}")
            }
            (Some((at, uv)), true) if *uv != shown => format!(
                "{at} sets CONFIG_{name}={uv}; limited to {shown} by its visibility ({}) or a select",
                v.visible.as_char()
            ),
            (Some((at, _)), true) => format!("set at {at}"),
            _ if !blockers.is_empty() => {
                format!("cannot be enabled: {} unmet dependenc{}", blockers.len(), if blockers.len() == 1 { "y" } else { "ies" })
            }
            _ if !selected_by.is_empty() => "forced by select".into(),
            _ if v.visible == Tristate::No => "not user-settable: computed from its defaults".into(),
            _ => "not in the .config: takes its default".into(),
        };
        let mut notes: Vec<String> = self.x.notes.borrow().clone();
        notes.dedup();
        Why {
            symbol: name.into(),
            kind: kind(s.ty).into(),
            value: shown,
            defined_at: s.defs.iter().map(|d| loc_s(&d.loc)).collect(),
            prompt: s.prompts.first().map(|p| p.value.clone()),
            visible: v.visible.as_char().to_string(),
            user,
            summary,
            blockers,
            selected_by,
            default,
            probes,
            notes: if depth == 0 { notes } else { vec![] },
        }
    }

    /// Checks of the Rust options for `rkbuild config`.
    pub fn rust_checks(&self) -> RustChecks {
        let mut out = RustChecks::default();
        // Only the Rust options are decoded (a cached tree decodes symbols on demand).
        for (name, meta) in self.kc.symbols.metas() {
            if !is_rust_option(name) || meta.ty.is_none() || !meta.defined {
                continue;
            }
            let s = self.kc.symbols.get(name).expect("an indexed symbol");
            let v = self.value(name);
            match self.user.get(name) {
                Some(u) => {
                    let uv = u.text().into_owned();
                    let now = &v.text;
                    let same = uv == *now
                        || (s.ty == Some(SymType::Hex) && hex_eq(&uv, now))
                        || (uv == "n" && now.is_empty());
                    if !same && (v.write || uv != "n") && !s.transitional {
                        let w = self.why(name, 0);
                        let mut reason = w.summary.clone();
                        if let Some(b) = w.blockers.first() {
                            let who: Vec<String> = b
                                .culprits
                                .iter()
                                .map(|c| format!("{}={} ({})", c.symbol, c.value, c.origin))
                                .collect();
                            reason = format!(
                                "{reason}; blocked by `depends on {}` ({}): {}",
                                b.condition,
                                b.at,
                                who.join(", ")
                            );
                        }
                        out.changed.push(format!(
                            "CONFIG_{name}={uv} would become {} after `make olddefconfig`: {reason} (run `rkbuild why CONFIG_{name}`)",
                            if now.is_empty() { "unset".to_string() } else { now.clone() }
                        ));
                    }
                }
                None if v.write && !s.transitional => {
                    let value = match s.ty {
                        Some(SymType::String) => Value::Quoted(v.text.clone()),
                        Some(SymType::Bool | SymType::Tristate) => Value::Tristate(v.tri),
                        _ => Value::Bare(v.text.clone()),
                    };
                    let at = s
                        .defaults
                        .iter()
                        .find(|d| self.tri(&d.cond) != Tristate::No)
                        .map(|d| loc_s(&d.loc))
                        .unwrap_or_else(|| loc_s(&s.defs[0].loc));
                    out.filled.push((name.to_string(), value, at));
                }
                None => {}
            }
        }
        for c in &self.kc.choices {
            let on: Vec<&String> = c
                .members
                .iter()
                .filter(|m| matches!(self.user.get(m), Some(Value::Tristate(Tristate::Yes))))
                .collect();
            if on.len() > 1 && on.iter().any(|m| is_rust_option(m)) {
                let lines: Vec<String> = on
                    .iter()
                    .map(|m| format!("CONFIG_{m}=y ({})", self.user.origin(m).unwrap_or_default()))
                    .collect();
                out.contradictions.push(format!(
                    "{} are members of the choice at {} ({}), which allows only one",
                    lines.join(" and "),
                    c.loc,
                    c.prompts
                        .first()
                        .map(|p| format!("\"{}\"", p.value))
                        .unwrap_or_else(|| "no prompt".into())
                ));
            }
        }
        out
    }
}

/// What `rkbuild config` found about the Rust options.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RustChecks {
    /// Options olddefconfig would change or drop, with why.
    pub changed: Vec<String>,
    /// Options missing from the `.config`, with the value kconfig gives them and the Kconfig
    /// line of that default.
    #[serde(skip)]
    pub filled: Vec<(String, Value, String)>,
    /// Two members of one choice both `y`.
    pub contradictions: Vec<String>,
}

/// The Rust options: every symbol with RUST in its name (RUST, RUSTC_*, HAVE_RUST, *_RUST_*).
pub fn is_rust_option(name: &str) -> bool {
    name.contains("RUST")
}

fn hex_eq(a: &str, b: &str) -> bool {
    let strip = |s: &str| {
        s.trim_start_matches("0x")
            .trim_start_matches("0X")
            .to_ascii_lowercase()
    };
    strip(a) == strip(b)
}

fn collect_macros(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Macro(m) => out.push(m.clone()),
        Expr::Not(x) => collect_macros(x, out),
        Expr::And(v) | Expr::Or(v) => v.iter().for_each(|x| collect_macros(x, out)),
        Expr::Cmp(_, a, b) => {
            collect_macros(a, out);
            collect_macros(b, out)
        }
        _ => {}
    }
}

fn shorten(cmd: &str) -> String {
    if cmd.len() > 160 {
        format!(
            "{}…",
            &cmd[..cmd.char_indices().nth(160).map_or(cmd.len(), |(i, _)| i)]
        )
    } else {
        cmd.to_string()
    }
}
