//! Gates: the rustc version, configuration symbols or tree files an entry of a layout depends
//! on, written beside the entry (`{ value = "2024", rustc_at_least = "1.87.0" }`).

use serde::Deserialize;

/// What a gate can ask. Implemented by the flag context; tests implement it directly.
pub trait Facts {
    /// rustc's version as (major, minor, patch).
    fn rustc(&self) -> (u64, u64, u64);
    /// `CONFIG_<name>` is y or m.
    fn on(&self, name: &str) -> bool;
    /// A path relative to the source tree exists.
    fn exists(&self, rel: &str) -> bool;
}

/// A condition; every part given must hold (an empty one always holds).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct When {
    #[serde(default)]
    pub rustc_at_least: Option<String>,
    #[serde(default)]
    pub rustc_below: Option<String>,
    /// Symbols that must all be enabled; `!X` must be disabled.
    #[serde(default)]
    pub config: Vec<String>,
    /// At least one of these must hold; each is `A && B && !C`.
    #[serde(default)]
    pub config_any: Vec<String>,
    /// A path relative to the source tree that must exist.
    #[serde(default)]
    pub exists: Option<String>,
    /// A path relative to the source tree that must not exist (the entry is the fallback).
    #[serde(default)]
    pub missing: Option<String>,
}

/// A value under a gate. In a file the gate's keys sit beside `value` (flattened).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Gated<T> {
    pub value: T,
    #[serde(flatten)]
    pub when: When,
}

/// The words of every group whose gate holds, in order.
pub fn words_holding(list: &[Gated<Vec<String>>], facts: &dyn Facts) -> Vec<String> {
    list.iter()
        .filter(|g| g.when.holds(facts))
        .flat_map(|g| g.value.iter().cloned())
        .collect()
}

fn version(s: &str) -> (u64, u64, u64) {
    let mut it = s.split('.').map(|p| p.parse::<u64>().unwrap_or(0));
    (
        it.next().unwrap_or(0),
        it.next().unwrap_or(0),
        it.next().unwrap_or(0),
    )
}

fn symbol_holds(term: &str, facts: &dyn Facts) -> bool {
    let t = term.trim();
    match t.strip_prefix('!') {
        Some(n) => !facts.on(n.trim()),
        None => facts.on(t),
    }
}

impl When {
    pub fn holds(&self, facts: &dyn Facts) -> bool {
        let v = facts.rustc();
        if let Some(a) = &self.rustc_at_least {
            if v < version(a) {
                return false;
            }
        }
        if let Some(b) = &self.rustc_below {
            if v >= version(b) {
                return false;
            }
        }
        if !self.config.iter().all(|s| symbol_holds(s, facts)) {
            return false;
        }
        if !self.config_any.is_empty()
            && !self
                .config_any
                .iter()
                .any(|all| all.split("&&").all(|s| symbol_holds(s, facts)))
        {
            return false;
        }
        if let Some(p) = &self.exists {
            if !facts.exists(p) {
                return false;
            }
        }
        if let Some(p) = &self.missing {
            if facts.exists(p) {
                return false;
            }
        }
        true
    }

    /// The gate in words, for `--explain` (`rustc >= 1.87.0`).
    pub fn describe(&self) -> String {
        let mut parts = vec![];
        if let Some(a) = &self.rustc_at_least {
            parts.push(format!("rustc >= {a}"));
        }
        if let Some(b) = &self.rustc_below {
            parts.push(format!("rustc < {b}"));
        }
        for s in &self.config {
            parts.push(format!("CONFIG_{}", s.trim_start_matches('!')));
        }
        if !self.config_any.is_empty() {
            parts.push(self.config_any.join(" || "));
        }
        if let Some(p) = &self.exists {
            parts.push(format!("{p} exists"));
        }
        if let Some(p) = &self.missing {
            parts.push(format!("no {p}"));
        }
        parts.join(", ")
    }
}
