//! rkbuild's patch: a `$(` left open on its line is an error before parsing starts.
//!
//! Kconfig's own preprocessor stops with "unterminated reference to '$(…': missing ')'". The
//! parser here backtracks through every alternative of every nested `$(` instead, which is
//! exponential in the nesting: a fuzzer's 1.2 KB file of nested unclosed calls took minutes.
//! Help texts and comments are not expanded by Kconfig, so they are not checked.
//! (Tested in rkbuild: `src/kconfig/tree/parse.rs`.)

/// The byte offset of the first `$(` in `text` that is not closed on its logical line
/// (lines joined at a trailing backslash), outside help texts and `#` comments.
pub fn unterminated_reference(text: &str) -> Option<usize> {
    let mut help = Help::No;
    let mut start = 0;
    for line in logical_lines(text) {
        let (offset, body) = (start, line);
        start += line.len();
        let blank = body.trim().is_empty();
        match help {
            Help::Starting if blank => continue,
            // A first line without indentation: the help text is empty (as the parser and
            // Kconfig's lexer see it), and this line is read as Kconfig.
            Help::Starting if indent(body) == 0 => help = Help::No,
            Help::Starting => {
                help = Help::In(indent(body));
                continue;
            }
            Help::In(_) if blank => continue,
            Help::In(at) if indent(body) >= at => continue,
            _ => help = Help::No,
        }
        if let Some(at) = open_in_line(body) {
            return Some(offset + at);
        }
        let first = body.split_whitespace().next().unwrap_or("");
        if first == "help" || first == "---help---" {
            help = Help::Starting;
        }
    }
    None
}

#[derive(Clone, Copy)]
enum Help {
    No,
    /// After a `help` line, before its first non-blank line.
    Starting,
    /// Inside a help text whose first line had this indentation.
    In(usize),
}

/// Kconfig's indentation: a tab to the next multiple of 8.
fn indent(line: &str) -> usize {
    let mut n = 0;
    for c in line.chars() {
        match c {
            ' ' => n += 1,
            '\t' => n = (n & !7) + 8,
            _ => break,
        }
    }
    n
}

/// Lines with their line ends, a line ending in a backslash joined to the next.
fn logical_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let bytes = rest.as_bytes();
        let mut end = 0;
        loop {
            match rest[end..].find('\n') {
                None => {
                    end = rest.len();
                    break;
                }
                Some(i) => {
                    let nl = end + i;
                    end = nl + 1;
                    let continued = nl > 0 && bytes[nl - 1] == b'\\'
                        || nl > 1 && bytes[nl - 1] == b'\r' && bytes[nl - 2] == b'\\';
                    if !continued {
                        break;
                    }
                }
            }
        }
        let (line, tail) = rest.split_at(end);
        rest = tail;
        Some(line)
    })
}

/// Where in one logical line a `$(` opens that no `)` closes. Inside a reference only
/// parentheses count (as in Kconfig's preprocessor); outside one, quotes hide a `#`.
fn open_in_line(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'$' if b.get(i + 1) == Some(&b'(') => {
                let open = i;
                let mut depth = 0usize;
                while i < b.len() {
                    match b[i] {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                if depth > 0 {
                    return Some(open);
                }
            }
            b'#' if quote.is_none() => return None,
            c @ (b'"' | b'\'') => match quote {
                None => quote = Some(c),
                Some(q) if q == c => quote = None,
                Some(_) => {}
            },
            b'\\' => i += 1,
            _ => {}
        }
        i += 1;
    }
    None
}
