//! What nom-kconfig drops, taken back from the Kconfig file texts: the line of every entry and
//! property, and the written text of `$(…)` calls.
//!
//! nom-kconfig keeps order but no source positions. Entries of one file come in text order, so
//! the n-th `config X` entry of a file is the n-th `config X` line of that file, and the n-th
//! `select` of an entry is the n-th `select` line of its block. Nothing here parses Kconfig: it
//! matches the first word of each line, which is all the kernel's grammar needs for this.

use std::collections::HashMap;
use std::path::Path;

use super::Expr;

/// Line positions of one file's entries, consumed in order.
#[derive(Default)]
pub(super) struct FileLines {
    text: String,
    /// Each line's place in `text` (without its end).
    lines: Vec<std::ops::Range<usize>>,
    /// keyword-and-name → line numbers (1-based), and how many were used.
    starts: HashMap<String, (Vec<usize>, usize)>,
    /// All entry-start lines, sorted (to bound an entry's block).
    all_starts: Vec<usize>,
}

/// The keywords that start an entry or block (the scanner knows a few more).
pub(super) const ENTRY_KEYWORDS: [&str; 10] = [
    "config",
    "menuconfig",
    "choice",
    "endchoice",
    "menu",
    "endmenu",
    "if",
    "endif",
    "comment",
    "source",
];

impl FileLines {
    /// The positions in the file at `path` (none when it cannot be read).
    pub(super) fn read(path: &Path) -> FileLines {
        let text = std::fs::read(path)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        FileLines::from_text(&text)
    }

    fn from_text(text: &str) -> FileLines {
        let lines = text
            .lines()
            .map(|l| {
                let start = l.as_ptr() as usize - text.as_ptr() as usize;
                start..start + l.len()
            })
            .collect();
        let mut fl = FileLines {
            text: text.to_string(),
            lines,
            ..Default::default()
        };
        for (i, l) in fl.lines.iter().map(|r| &fl.text[r.clone()]).enumerate() {
            let mut words = l.split_whitespace();
            let Some(kw) = words.next() else { continue };
            if !ENTRY_KEYWORDS.contains(&kw) {
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

    /// The line of the next entry with this key (`config NAME`, `choice`, `menu`, `if`, …);
    /// the last one again when all were used, 0 when there is none.
    pub(super) fn next(&mut self, key: &str) -> usize {
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
    pub(super) fn attr_line(&self, start: usize, kws: &[&str], n: usize) -> usize {
        let next = self.all_starts.partition_point(|&s| s <= start);
        let end = self
            .all_starts
            .get(next)
            .copied()
            .unwrap_or(self.lines.len() + 1);
        // Lines `start + 1 ..= end - 1` (1-based): the block after its first line.
        let lo = start.min(self.lines.len());
        let hi = end.saturating_sub(1).clamp(lo, self.lines.len());
        self.lines[lo..hi]
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                self.text[(*r).clone()]
                    .split_whitespace()
                    .next()
                    .is_some_and(|w| kws.contains(&w))
            })
            .nth(n)
            .map(|(i, _)| lo + i + 1)
            .unwrap_or(start)
    }
}

/// nom-kconfig substitutes `:=` variables textually before parsing, so `$(comma)` inside a
/// macro argument becomes a bare `,` and splits the argument. The original text of each `$(…)`
/// call is taken back from the source line (joined with its `\` continuations), matched by
/// function name and order.
pub(super) fn fixed(fl: Option<&FileLines>, line: usize, mut e: Expr) -> Expr {
    let Some(fl) = fl else { return e };
    if line == 0 || line > fl.lines.len() {
        return e;
    }
    let mut text = String::new();
    for l in fl.lines[line - 1..].iter().map(|r| &fl.text[r.clone()]) {
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

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
config A
\tbool \"a\"
\tselect B
\tselect C if D

menuconfig B
\ttristate
\tselect C

config A
\tdef_bool $(success,echo a$(comma)b) && \\
\t\t$(failure,false)
";

    #[test]
    fn entries_are_found_in_text_order() {
        let mut fl = FileLines::from_text(TEXT);
        assert_eq!(fl.next("config A"), 1);
        // A `menuconfig` is keyed like a `config`: nom-kconfig's order is what tells them apart.
        assert_eq!(fl.next("config B"), 6);
        assert_eq!(fl.next("config A"), 10);
        assert_eq!(fl.next("config A"), 10, "exhausted: the last one again");
        assert_eq!(fl.next("choice"), 0, "none at all");
    }

    #[test]
    fn a_property_line_is_searched_only_inside_its_entry() {
        let fl = FileLines::from_text(TEXT);
        assert_eq!(fl.attr_line(1, &["select"], 0), 3);
        assert_eq!(fl.attr_line(1, &["select"], 1), 4);
        // The third `select` of the file belongs to B: for A it is not there, so the entry's
        // own line stands in.
        assert_eq!(fl.attr_line(1, &["select"], 2), 1);
        assert_eq!(fl.attr_line(6, &["select"], 0), 8);
        assert_eq!(fl.attr_line(10, &["bool", "def_bool"], 0), 11);
    }

    #[test]
    fn top_level_calls_keep_their_nesting() {
        assert_eq!(
            top_level_calls("depends on $(f,$(g,x)) && $(h)"),
            ["$(f,$(g,x))", "$(h)"]
        );
        assert!(top_level_calls("depends on A && $(unclosed").is_empty());
    }

    #[test]
    fn fixed_restores_the_written_macro_text() {
        let fl = FileLines::from_text(TEXT);
        // What nom-kconfig hands over once `$(comma)` was substituted before parsing.
        let parsed = Expr::And(vec![
            Expr::Macro("$(success,echo a,b)".into()),
            Expr::Macro("$(failure,false)".into()),
        ]);
        let e = fixed(Some(&fl), 11, parsed.clone());
        assert_eq!(
            e,
            Expr::And(vec![
                Expr::Macro("$(success,echo a$(comma)b)".into()),
                Expr::Macro("$(failure,false)".into()),
            ]),
            "the call on the continuation line is found too"
        );
        assert_eq!(
            fixed(None, 11, parsed.clone()),
            parsed,
            "no text, no change"
        );
        assert_eq!(
            fixed(Some(&fl), 99, parsed.clone()),
            parsed,
            "line out of range"
        );
    }
}
