//! Lines of a makefile as make sees them before it expands anything: logical lines (a `\` at
//! the end joins the next), comments, the first word (a directive or not), and how a line
//! splits into an assignment, a rule or something else. Also the bracket matching the rest of
//! the reader shares (`$(…)` and function arguments).
//!
//! Nothing here knows a variable's value: that is [`super::expand`].

/// One makefile line: where it is (`drivers/misc/Makefile:2`), and its text for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    pub at: String,
    pub line: String,
}

/// Logical lines (continuations joined, the way make joins them), with their first line number.
pub(super) fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut start = 0;
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if cur.is_empty() {
            start = i + 1;
        }
        let trailing = raw.len() - raw.trim_end_matches('\\').len();
        if trailing % 2 == 1 {
            let body = &raw[..raw.len() - 1];
            // make drops the whitespace around a backslash-newline and puts one space.
            let body = if cur.is_empty() {
                body
            } else {
                body.trim_start()
            };
            cur.push_str(body.trim_end());
            cur.push(' ');
            continue;
        }
        cur.push_str(if cur.is_empty() {
            raw
        } else {
            raw.trim_start()
        });
        out.push((start, std::mem::take(&mut cur)));
    }
    if !cur.is_empty() {
        out.push((start, cur));
    }
    out
}

/// A line without its comment (`#`, unless escaped as `\#`).
pub(super) fn strip_comment(line: &str) -> &str {
    let b = line.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'#' && (i == 0 || b[i - 1] != b'\\') {
            return &line[..i];
        }
    }
    line
}

pub(super) fn first_word(t: &str) -> (&str, &str) {
    match t.find(char::is_whitespace) {
        Some(p) => (&t[..p], t[p..].trim_start()),
        None => (t, ""),
    }
}

/// The index of the `endef` closing a `define` whose body starts at `start`.
pub(super) fn endef(lines: &[(usize, String)], start: usize) -> Option<usize> {
    let mut nest = 0;
    for (i, (_, raw)) in lines.iter().enumerate().skip(start) {
        let (w, rest) = first_word(raw.trim());
        let w = if matches!(w, "export" | "override" | "private") {
            first_word(rest).0
        } else {
            w
        };
        match w {
            "define" => nest += 1,
            "endef" if nest == 0 => return Some(i),
            "endef" => nest -= 1,
            _ => {}
        }
    }
    None
}

/// How an assignment sets its variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `=`
    Recursive,
    /// `:=`, `::=`, `:::=`
    Simple,
    /// `+=`
    Append,
    /// `?=`
    IfUnset,
    /// `!=`
    Shell,
}

#[derive(Debug, PartialEq, Eq)]
pub(super) enum Split<'a> {
    Assign {
        lhs: &'a str,
        op: Op,
        rhs: &'a str,
    },
    /// `target: prerequisites`: tab lines after it are its recipe.
    Rule,
    /// `target: VAR = value`
    TargetVar,
    Other,
}

/// Classifies a line by the first `=`-operator or `:` outside `$(…)`.
pub(super) fn split_line(line: &str) -> Result<Split<'_>, String> {
    let b = line.as_bytes();
    let mut stack: Vec<u8> = vec![];
    let mut i = 0;
    let mut colon: Option<usize> = None;
    while i < b.len() {
        let c = b[i];
        if !stack.is_empty() {
            match c {
                b'(' | b'{' => stack.push(if c == b'(' { b')' } else { b'}' }),
                b')' | b'}' if stack.last() == Some(&c) => {
                    stack.pop();
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        let next = b.get(i + 1).copied();
        match c {
            b'$' if matches!(next, Some(b'(' | b'{')) => {
                stack.push(if next == Some(b'(') { b')' } else { b'}' });
                i += 2;
                continue;
            }
            b'$' if next == Some(b'$') => {
                i += 2;
                continue;
            }
            _ => {}
        }
        let op = match (c, next) {
            (b'=', _) => Some((Op::Recursive, 1)),
            (b'+' | b'?' | b'!', Some(b'=')) => Some((
                match c {
                    b'+' => Op::Append,
                    b'?' => Op::IfUnset,
                    _ => Op::Shell,
                },
                2,
            )),
            (b':', _) => {
                let colons = b[i..].iter().take_while(|&&x| x == b':').count();
                if colons <= 3 && b.get(i + colons) == Some(&b'=') {
                    Some((Op::Simple, colons + 1))
                } else {
                    colon.get_or_insert(i);
                    i += colons;
                    continue;
                }
            }
            _ => None,
        };
        if let Some((op, len)) = op {
            if colon.is_some() {
                return Ok(Split::TargetVar);
            }
            return Ok(Split::Assign {
                lhs: line[..i].trim(),
                op,
                rhs: line[i + len..].trim(),
            });
        }
        if c == b';' && colon.is_some() {
            break;
        }
        i += 1;
    }
    if !stack.is_empty() {
        return Err("unbalanced `$(`: make stops at an unterminated variable reference".into());
    }
    Ok(if colon.is_some() {
        Split::Rule
    } else {
        Split::Other
    })
}

/// The index of the `close` that matches the `open` at `s[0]`.
pub(super) fn matching(s: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The first `c` outside `$(…)`/`(…)`.
pub(super) fn find_top(s: &str, c: u8) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        match b {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => depth -= 1,
            _ if b == c && depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// A function's arguments: split at top-level commas, at most `max` of them.
pub(super) fn split_args(s: &str, max: usize) -> Vec<&str> {
    let mut out = vec![];
    let mut depth = 0i32;
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => depth -= 1,
            b',' if depth == 0 && out.len() + 1 < max => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuations_join_with_one_space_and_keep_the_first_line_number() {
        let lines = logical_lines("a := 1 \\\n\t  2\\\n3\n\nb = x\\\\\nc\n");
        assert_eq!(
            lines,
            [
                (1, "a := 1 2 3".to_string()),
                (4, String::new()),
                (5, "b = x\\\\".to_string()),
                (6, "c".to_string()),
            ]
        );
    }

    #[test]
    fn comments_end_at_an_unescaped_hash() {
        assert_eq!(strip_comment("obj-y += a.o # b.o"), "obj-y += a.o ");
        assert_eq!(strip_comment("x := \\#y"), "x := \\#y");
    }

    #[test]
    fn lines_split_at_the_first_operator_outside_references() {
        let a = |lhs, op, rhs| Ok(Split::Assign { lhs, op, rhs });
        assert_eq!(
            split_line("obj-$(CONFIG_A) += a.o"),
            a("obj-$(CONFIG_A)", Op::Append, "a.o")
        );
        assert_eq!(
            split_line("x ::= $(y:.c=.o)"),
            a("x", Op::Simple, "$(y:.c=.o)")
        );
        assert_eq!(split_line("x != echo"), a("x", Op::Shell, "echo"));
        assert_eq!(split_line("x ?= 1"), a("x", Op::IfUnset, "1"));
        assert_eq!(split_line("$(obj)/a.o: $(src)/a.c"), Ok(Split::Rule));
        assert_eq!(
            split_line("$(obj)/a.o: private x = 1"),
            Ok(Split::TargetVar)
        );
        assert_eq!(split_line("a.o: ; x=1"), Ok(Split::Rule));
        assert_eq!(split_line("obj-y + b.o"), Ok(Split::Other));
        assert!(split_line("obj-$(CONFIG_A += a.o").is_err());
    }

    #[test]
    fn defines_nest_until_their_endef() {
        let lines = logical_lines("define a\ndefine b\nendef\nexport endef\nendef\n");
        assert_eq!(endef(&lines, 1), Some(3));
        assert_eq!(endef(&lines, 4), Some(4));
        assert_eq!(endef(&lines[..2], 1), None);
    }

    #[test]
    fn arguments_split_at_top_level_commas() {
        assert_eq!(split_args("a,$(f x,y),c,d", 3), ["a", "$(f x,y)", "c,d"]);
        assert_eq!(matching("(a(b))c", '(', ')'), Some(5));
        assert_eq!(find_top("$(x:a=b):c", b':'), Some(8));
    }
}
