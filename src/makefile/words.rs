//! make's functions on words (`subst`, `patsubst`, `filter`, `sort`, `word`, `dir`, `notdir`,
//! `basename`, `addprefix`, …): pure functions of their arguments, already expanded. A word
//! that is not known ([`UNKNOWN`]) stays unknown, or makes the result unknown where it could
//! change it. The functions that steer expansion itself (`if`, `foreach`, `call`, `eval`, …)
//! are [`super::expand`]'s.

use super::known::UNKNOWN;

/// The functions on words, arguments expanded.
pub(super) fn words_function<'a>(
    name: &str,
    vals: &[&'a str],
    v: impl Fn(usize) -> &'a str,
) -> String {
    let any = || UNKNOWN.to_string();
    let words = |s: &'a str| s.split_whitespace().collect::<Vec<_>>();
    let map = |s: &'a str, f: &dyn Fn(&str) -> String| {
        words(s).into_iter().map(f).collect::<Vec<_>>().join(" ")
    };
    match name {
        "subst" => {
            if v(0).contains(UNKNOWN) || v(1).contains(UNKNOWN) && v(2).contains(v(0)) {
                return any();
            }
            if v(0).is_empty() {
                return v(2).to_string();
            }
            v(2).replace(v(0), v(1))
        }
        "patsubst" => {
            if v(0).contains(UNKNOWN) {
                return any();
            }
            patsubst(v(0), v(1), v(2))
        }
        "strip" => words(v(0)).join(" "),
        "findstring" => {
            if v(0).contains(UNKNOWN) || v(1).contains(UNKNOWN) {
                any()
            } else if v(1).contains(v(0)) {
                v(0).to_string()
            } else {
                String::new()
            }
        }
        "filter" | "filter-out" => {
            if v(0).contains(UNKNOWN) {
                return any();
            }
            let pats = words(v(0));
            let keep = words(v(1)).into_iter().filter(|w| {
                // A word not known cannot be told apart: kept either way.
                w.contains(UNKNOWN)
                    || pats.iter().any(|p| pattern_stem(p, w).is_some()) == (name == "filter")
            });
            keep.collect::<Vec<_>>().join(" ")
        }
        "sort" => {
            let mut w = words(v(0));
            w.sort();
            w.dedup();
            w.join(" ")
        }
        "word" | "wordlist" | "words" | "firstword" | "lastword"
            if vals.iter().any(|x| x.contains(UNKNOWN)) =>
        {
            any()
        }
        "word" => {
            let n: usize = v(0).trim().parse().unwrap_or(0);
            words(v(1))
                .get(n.wrapping_sub(1))
                .copied()
                .unwrap_or("")
                .to_string()
        }
        "wordlist" => {
            let s: usize = v(0).trim().parse().unwrap_or(1).max(1);
            let e: usize = v(1).trim().parse().unwrap_or(0);
            let w = words(v(2));
            w.iter()
                .enumerate()
                .filter(|(i, _)| *i + 1 >= s && *i < e)
                .map(|(_, w)| *w)
                .collect::<Vec<_>>()
                .join(" ")
        }
        "words" => words(v(0)).len().to_string(),
        "firstword" => words(v(0)).first().copied().unwrap_or("").to_string(),
        "lastword" => words(v(0)).last().copied().unwrap_or("").to_string(),
        "dir" => map(v(0), &|w| match w.rfind('/') {
            Some(p) => w[..=p].to_string(),
            None => "./".into(),
        }),
        "notdir" => map(v(0), &|w| w.rsplit('/').next().unwrap_or(w).to_string()),
        "suffix" => map(v(0), &|w| {
            let base = w.rsplit('/').next().unwrap_or(w);
            base.rfind('.')
                .map(|p| base[p..].to_string())
                .unwrap_or_default()
        }),
        "basename" => map(v(0), &|w| {
            let slash = w.rfind('/').map_or(0, |p| p + 1);
            match w[slash..].rfind('.') {
                Some(p) => w[..slash + p].to_string(),
                None => w.to_string(),
            }
        }),
        "addsuffix" => map(v(1), &|w| format!("{w}{}", v(0))),
        "addprefix" => map(v(1), &|w| format!("{}{w}", v(0))),
        _ => any(),
    }
}

/// make's `$(patsubst)`; a word not known gives `UNKNOWN`.
pub(super) fn patsubst(from: &str, to: &str, text: &str) -> String {
    text.split_whitespace()
        .map(|w| {
            if w.contains(UNKNOWN) {
                return UNKNOWN.to_string();
            }
            match pattern_stem(from, w) {
                Some(stem) => match to.find('%') {
                    Some(_) => to.replacen('%', stem, 1),
                    None => to.to_string(),
                },
                None => w.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// make's `$(filter-out PATTERNS,WORDS)` on a list in place: the words no pattern matches.
pub fn filter_out(words: &mut Vec<String>, patterns: &[String]) {
    words.retain(|w| !patterns.iter().any(|p| pattern_stem(p, w).is_some()));
}

/// Whether make's `$(filter-out PATTERNS,WORD)` drops `word`.
pub fn filtered_out(word: &str, patterns: &[String]) -> bool {
    patterns.iter().any(|p| pattern_stem(p, word).is_some())
}

/// What `%` matches when `word` matches `pattern` (`""` for a pattern without `%`).
pub(super) fn pattern_stem<'a>(pattern: &str, word: &'a str) -> Option<&'a str> {
    match pattern.split_once('%') {
        Some((pre, suf)) => {
            if word.len() >= pre.len() + suf.len() && word.starts_with(pre) && word.ends_with(suf) {
                Some(&word[pre.len()..word.len() - suf.len()])
            } else {
                None
            }
        }
        None => (pattern == word).then_some(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: &[&str]) -> String {
        words_function(name, args, |i| args.get(i).copied().unwrap_or(""))
    }

    #[test]
    fn words_functions_follow_make() {
        assert_eq!(
            call("subst", &["ee", "EE", "feet on the street"]),
            "fEEt on the strEEt"
        );
        assert_eq!(call("patsubst", &["%.c", "%.o", "a.c b.h"]), "a.o b.h");
        assert_eq!(call("filter", &["%.c %.s", "a.c b.s c.h"]), "a.c b.s");
        assert_eq!(call("sort", &["foo bar lose foo"]), "bar foo lose");
        assert_eq!(call("wordlist", &["2", "3", "a b c d"]), "b c");
        assert_eq!(call("suffix", &["src/foo.c bar.h"]), ".c .h");
        assert_eq!(
            call("basename", &["src/foo.c src-1.0/bar hacks"]),
            "src/foo src-1.0/bar hacks"
        );
        assert_eq!(pattern_stem("%.o", "a.o"), Some("a"));
        assert_eq!(pattern_stem("a.o", "a.o"), Some(""));
    }

    #[test]
    fn unknown_words_stay_unknown() {
        let u = format!("x{UNKNOWN}");
        assert_eq!(call("patsubst", &["%.c", "%.o", &u]), UNKNOWN.to_string());
        // An unknown word may or may not match: it is kept either way.
        assert_eq!(call("filter-out", &["%.c", &format!("a.c {u}")]), u);
        assert_eq!(call("words", &[&u]), UNKNOWN.to_string());
    }
}
