//! Command templates: words with `{name}` placeholders, and list placeholders that stand for a
//! whole run of words (`{target_flags}`).

use std::collections::BTreeMap;

/// Values for a template: single values and lists.
#[derive(Clone, Debug, Default)]
pub struct Vars {
    one: BTreeMap<String, String>,
    lists: BTreeMap<String, Vec<String>>,
}

impl Vars {
    pub fn new() -> Vars {
        Vars::default()
    }

    pub fn set(&mut self, k: &str, v: impl Into<String>) -> &mut Vars {
        self.one.insert(k.to_string(), v.into());
        self
    }

    pub fn list(&mut self, k: &str, v: Vec<String>) -> &mut Vars {
        self.lists.insert(k.to_string(), v);
        self
    }

    pub fn with(mut self, k: &str, v: impl Into<String>) -> Vars {
        self.set(k, v);
        self
    }

    /// Replaces every `{name}` in `word`; an unknown name is an error naming it.
    pub fn fill(&self, word: &str) -> Result<String, String> {
        let mut out = String::with_capacity(word.len());
        let mut rest = word;
        while let Some(i) = rest.find('{') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let Some(j) = after.find('}') else {
                return Err(format!("unclosed `{{` in `{word}`"));
            };
            let name = &after[..j];
            match self.one.get(name) {
                Some(v) => out.push_str(v),
                None => return Err(format!("unknown placeholder `{{{name}}}` in `{word}`")),
            }
            rest = &after[j + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// Expands a template's words: `{list}` alone is a list, anything else is filled.
pub fn expand(words: &[String], vars: &Vars) -> Result<Vec<String>, String> {
    let mut out = vec![];
    for w in words {
        if let Some(name) = w.strip_prefix('{').and_then(|w| w.strip_suffix('}')) {
            if let Some(l) = vars.lists.get(name) {
                out.extend(l.iter().cloned());
                continue;
            }
        }
        out.push(vars.fill(w)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_lists() {
        let mut v = Vars::new();
        v.set("name", "core")
            .list("target_flags", vec!["--cfg".into(), "x".into()]);
        let w: Vec<String> = [
            "--crate-name",
            "{name}",
            "{target_flags}",
            "rust/lib{name}.rmeta",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            expand(&w, &v).unwrap(),
            ["--crate-name", "core", "--cfg", "x", "rust/libcore.rmeta"]
        );
        assert!(expand(&["{nope}".into()], &v)
            .unwrap_err()
            .contains("`{nope}`"));
        assert!(v.fill("a{b").unwrap_err().contains("unclosed"));
    }
}
