//! Conditionals: `ifeq`/`ifneq`/`ifdef`/`ifndef`, `else`, `endif`, evaluated against what the
//! scope knows. A condition on something the reader cannot know is neither true nor false
//! ([`Tri::Maybe`]): then both branches are read, and what they set may not have happened.

use super::expand::{Ex, Scope};
use super::known::{Tri, UNKNOWN};
use super::lines::{first_word, matching, split_args, Loc};

/// An open `ifeq`/`ifdef`.
struct Cond {
    loc: Loc,
    /// The branch being read.
    now: Tri,
    /// An earlier branch was surely taken.
    taken: bool,
    /// An earlier branch may have been taken.
    maybe: bool,
    /// The enclosing branch is read.
    outer: bool,
}

/// The conditionals open at a line of one file.
#[derive(Default)]
pub(super) struct Conds {
    open: Vec<Cond>,
}

impl Conds {
    /// Whether make reads the current line (no enclosing branch is surely not taken).
    pub(super) fn active(&self) -> bool {
        self.open.iter().all(|c| c.now != Tri::No)
    }

    /// Whether the current line may not be read by make (a condition could not be decided).
    pub(super) fn maybe(&self) -> bool {
        self.open.iter().any(|c| c.now == Tri::Maybe)
    }

    /// Handles a conditional directive (`word` and the text after it); `Ok(false)` when the
    /// line is none. They are read even in a branch not taken, to find its end.
    pub(super) fn directive(
        &mut self,
        scope: &Scope,
        word: &str,
        rest: &str,
        loc: &Loc,
    ) -> Result<bool, String> {
        if is_cond(word) {
            let active = self.active();
            let now = if active {
                scope.condition(word, rest)?
            } else {
                Tri::No
            };
            self.open.push(Cond {
                loc: loc.clone(),
                now,
                taken: now == Tri::Yes,
                maybe: now == Tri::Maybe,
                outer: active,
            });
            return Ok(true);
        }
        if word == "else" {
            let Some(c) = self.open.last_mut() else {
                return Err("`else` without `ifeq`/`ifdef`".into());
            };
            let (w2, rest2) = first_word(rest);
            let now = if !c.outer || c.taken {
                Tri::No
            } else if w2.is_empty() {
                Tri::Yes
            } else if is_cond(w2) {
                scope.condition(w2, rest2)?
            } else {
                return Err("`else` takes only a conditional after it".into());
            };
            // After a branch that may have been taken, this one only may be; after a
            // condition surely true, none is.
            c.now = match now {
                Tri::Yes if c.maybe => Tri::Maybe,
                n => n,
            };
            c.taken |= now == Tri::Yes;
            c.maybe |= c.now == Tri::Maybe;
            return Ok(true);
        }
        if word == "endif" {
            if self.open.pop().is_none() {
                return Err("`endif` without `ifeq`/`ifdef`".into());
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// The line of a conditional still open at the end of the file.
    pub(super) fn unclosed(mut self) -> Option<Loc> {
        self.open.pop().map(|c| c.loc)
    }
}

impl Scope<'_> {
    /// Evaluates `ifeq (a,b)`, `ifneq`, `ifdef VAR`, `ifndef` (`word` may hold `ifeq(a,b)`).
    pub(super) fn condition(&self, word: &str, rest: &str) -> Result<Tri, String> {
        let k = ["ifeq", "ifneq", "ifdef", "ifndef"]
            .into_iter()
            .find(|k| word == *k || word.strip_prefix(k).is_some_and(|r| r.starts_with('(')))
            .ok_or_else(|| format!("`{word}` is not a conditional"))?;
        let args = format!("{} {rest}", &word[k.len()..]);
        let args = args.trim();
        let yes = match k {
            "ifdef" | "ifndef" => {
                let name = self.expand(args);
                self.defined(name.trim())
            }
            _ => {
                let (a, b) = eq_args(args)
                    .ok_or_else(|| format!("`{k}` takes `(a,b)`, `\"a\" \"b\"` or `'a' 'b'`"))?;
                let mut ex = Ex::new();
                ex.cond = true;
                let (a, b) = (self.ex(a, &mut ex), self.ex(b, &mut ex));
                if a.contains(UNKNOWN) || b.contains(UNKNOWN) {
                    Tri::Maybe
                } else if a.trim() == b.trim() {
                    Tri::Yes
                } else {
                    Tri::No
                }
            }
        };
        Ok(match (yes, k == "ifneq" || k == "ifndef") {
            (Tri::Yes, true) => Tri::No,
            (Tri::No, true) => Tri::Yes,
            (t, _) => t,
        })
    }
}

fn is_cond(w: &str) -> bool {
    ["ifeq", "ifneq", "ifdef", "ifndef"]
        .iter()
        .any(|c| w == *c || (w.starts_with(c) && w[c.len()..].starts_with('(')))
}

/// The two sides of `ifeq (a,b)`, `ifeq "a" "b"` or `ifeq 'a' 'b'`.
fn eq_args(args: &str) -> Option<(&str, &str)> {
    if args.starts_with('(') {
        let end = matching(args, '(', ')')?;
        if !args[end + 1..].trim().is_empty() {
            return None;
        }
        let inner = &args[1..end];
        let parts = split_args(inner, 2);
        return match parts[..] {
            [a, b] => Some((a.trim(), b.trim())),
            _ => None,
        };
    }
    let quoted = |s: &str| -> Option<(usize, usize)> {
        let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let end = s[1..].find(q)? + 1;
        Some((1, end))
    };
    let (s1, e1) = quoted(args)?;
    let rest = args[e1 + 1..].trim_start();
    let (s2, e2) = quoted(rest)?;
    if !rest[e2 + 1..].trim().is_empty() {
        return None;
    }
    Some((&args[s1..e1], &rest[s2..e2]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::makefile::known::Around;
    use crate::makefile::lines::Op;

    struct Config;

    impl Around for Config {
        fn fixed(&self, name: &str) -> Option<String> {
            match name {
                "CONFIG_A" => Some("y".into()),
                "CONFIG_N" => Some(String::new()),
                _ => None,
            }
        }
        fn is_list(&self, _: &str) -> bool {
            false
        }
        fn call(&self, _: &str, _: &[String]) -> Option<String> {
            None
        }
    }

    #[test]
    fn conditions_are_yes_no_or_not_known() {
        let mut s = Scope::new(Config);
        let loc = Loc {
            at: "Makefile:1".into(),
            line: String::new(),
        };
        s.assign("empty", Op::Simple, "", false, &loc).unwrap();
        let c = |w: &str, r: &str| s.condition(w, r).unwrap();
        assert_eq!(c("ifdef", "CONFIG_A"), Tri::Yes);
        assert_eq!(c("ifndef", "CONFIG_A"), Tri::No);
        assert_eq!(c("ifdef", "CONFIG_N"), Tri::No);
        assert_eq!(c("ifdef", "empty"), Tri::No);
        assert_eq!(c("ifdef", "ARCH"), Tri::Maybe);
        assert_eq!(c("ifeq", "($(CONFIG_A),y)"), Tri::Yes);
        assert_eq!(c("ifeq(", "$(CONFIG_A),y)"), Tri::Yes);
        assert_eq!(c("ifneq", "\"$(CONFIG_N)\" \"\""), Tri::No);
        assert_eq!(c("ifeq", "'$(ARCH)' 'x86'"), Tri::Maybe);
        assert!(s.condition("ifeq", "(a").is_err());
    }

    #[test]
    fn branches_after_a_condition_not_known_may_be_read() {
        let s = Scope::new(Config);
        let loc = Loc {
            at: "Makefile:1".into(),
            line: String::new(),
        };
        let mut conds = Conds::default();
        let mut step = |w: &str, r: &str| conds.directive(&s, w, r, &loc).unwrap();
        // ifeq ($(ARCH),x86) … else ifdef CONFIG_A … else … endif
        assert!(step("ifeq", "($(ARCH),x86)"));
        let (active, maybe) = (conds.active(), conds.maybe());
        assert!(active && maybe);
        let mut step = |w: &str, r: &str| conds.directive(&s, w, r, &loc).unwrap();
        assert!(step("else", "ifdef CONFIG_A"));
        assert!(conds.active() && conds.maybe());
        let mut step = |w: &str, r: &str| conds.directive(&s, w, r, &loc).unwrap();
        assert!(step("else", ""));
        assert!(!conds.active());
        let mut step = |w: &str, r: &str| conds.directive(&s, w, r, &loc).unwrap();
        assert!(step("endif", ""));
        assert!(!step("obj-y", "+= a.o"));
        assert!(conds.active() && !conds.maybe());
        assert!(conds.directive(&s, "endif", "", &loc).is_err());
        assert!(conds.unclosed().is_none());
    }
}
