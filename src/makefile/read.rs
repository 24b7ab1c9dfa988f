//! Reading a makefile from top to bottom into a [`Scope`]: the directives (conditionals,
//! `define`, `include`, `export`, `undefine`), assignments, and rules, whose recipes are skipped.
//!
//! What make would run and this reader does not (a macro's body, `$(eval …)`, an assignment to
//! a name it cannot expand) is handed back as [`Unread`] text, in reading order, so that the
//! caller can check what it could have set. A line make itself would reject is an error naming
//! the file and line.

use std::path::Path;

use super::cond::Conds;
use super::expand::Scope;
use super::known::{glob, show, UNKNOWN};
use super::lines::{endef, first_word, logical_lines, split_line, strip_comment, Loc, Split};

/// `a/./b/../c` → `a/c`; a leading `../` stays.
pub fn normalize(p: &str) -> String {
    let mut out: Vec<&str> = vec![];
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." if out.last().is_some_and(|l| *l != "..") => {
                out.pop();
            }
            _ => out.push(part),
        }
    }
    out.join("/")
}

/// Reads makefiles of one tree (`root`): includes are paths in it.
pub struct Reader<'r> {
    root: &'r Path,
    /// Every file read (included ones too), relative to the root, in reading order.
    pub files: Vec<String>,
    /// What make would read as makefile text that this reader did not run, in reading order.
    pub unread: Vec<Unread>,
    /// Paths besides `files` whose presence the reading depended on (includes looked for,
    /// folders listed for a pattern), relative to the root: a cache of what was read is only
    /// good while they are unchanged.
    pub looked_at: Vec<String>,
}

/// Makefile text make would run that the reader did not.
#[derive(Clone, Debug)]
pub struct Unread {
    pub loc: Loc,
    /// The text, expanded as far as it can be.
    pub text: String,
    pub why: Unrun,
}

/// Why text was not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unrun {
    /// An assignment in a `define` body (its name as written): a macro is text until
    /// `$(eval $(call …))` runs it, and its `$(1)`… are not known.
    MacroBody { name: String },
    /// What a line of macro calls (`$(eval …)`, `$(foreach …)`) gives make as makefile text.
    Eval,
    /// An assignment to a name that cannot be expanded.
    UnknownName,
}

/// What to do with `include` lines.
pub enum Includes<'f> {
    /// Read the files (a missing `-include`/`sinclude` file is skipped).
    Follow,
    /// Do not read them: the caller stands in for what they would set, given the scope, the
    /// line's file names (expanded) and the line.
    Instead(&'f dyn Fn(&mut Scope, &str, &Loc)),
}

/// A makefile the reader cannot read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// A line make itself would reject, or an include that is not there. `fix` is `None` when
    /// the line is not make's (make: missing separator): how it should be written is the
    /// caller's to say.
    Syntax {
        at: String,
        line: String,
        why: String,
        fix: Option<String>,
    },
    Io {
        path: String,
        why: String,
    },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Syntax { at, line, why, fix } => {
                write!(f, "{at}: cannot read `{line}`: {why}")?;
                match fix {
                    Some(fix) => write!(f, "\n  fix: {fix}"),
                    None => Ok(()),
                }
            }
            ReadError::Io { path, why } => write!(f, "{path}: cannot read it: {why}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl<'r> Reader<'r> {
    pub fn new(root: &'r Path) -> Self {
        Reader {
            root,
            files: vec![],
            unread: vec![],
            looked_at: vec![],
        }
    }

    /// Reads the makefile at `rel` (relative to the root) into `scope`.
    pub fn read_file(
        &mut self,
        scope: &mut Scope,
        rel: &str,
        includes: &Includes,
    ) -> Result<(), ReadError> {
        self.read_depth(scope, rel, includes, 0)
    }

    /// Reads makefile `text` into `scope`; `rel` names it in messages.
    pub fn read_text(
        &mut self,
        scope: &mut Scope,
        rel: &str,
        text: &str,
        includes: &Includes,
    ) -> Result<(), ReadError> {
        self.read_lines(scope, rel, text, includes, 0)
    }

    fn read_depth(
        &mut self,
        scope: &mut Scope,
        rel: &str,
        includes: &Includes,
        depth: usize,
    ) -> Result<(), ReadError> {
        let bytes = std::fs::read(self.root.join(rel)).map_err(|e| ReadError::Io {
            path: rel.to_string(),
            why: e.to_string(),
        })?;
        self.files.push(rel.to_string());
        // A stray Latin-1 byte in a comment must not stop the reading.
        let text = String::from_utf8_lossy(&bytes);
        self.read_lines(scope, rel, &text, includes, depth)
    }

    fn read_lines(
        &mut self,
        scope: &mut Scope,
        rel: &str,
        text: &str,
        includes: &Includes,
        depth: usize,
    ) -> Result<(), ReadError> {
        let lines = logical_lines(text);
        let mut conds = Conds::default();
        let mut in_rule = false;
        let mut i = 0;
        while i < lines.len() {
            let (lineno, raw) = &lines[i];
            i += 1;
            let loc = Loc {
                at: format!("{rel}:{lineno}"),
                line: raw.trim().to_string(),
            };
            let syntax = |why: &str| ReadError::Syntax {
                at: loc.at.clone(),
                line: loc.line.clone(),
                why: why.to_string(),
                fix: None,
            };
            let line = strip_comment(raw);
            let t = line.trim();
            if t.is_empty() || (in_rule && raw.starts_with('\t')) {
                continue;
            }
            let (word, rest) = first_word(t);
            if conds
                .directive(scope, word, rest, &loc)
                .map_err(|why| syntax(&why))?
            {
                continue;
            }
            let active = conds.active();
            let define_head = match word {
                "define" => Some(rest),
                "export" | "override" | "private" if first_word(rest).0 == "define" => {
                    Some(first_word(rest).1)
                }
                _ => None,
            };
            if let Some(head) = define_head {
                let end = endef(&lines, i).ok_or_else(|| ReadError::Syntax {
                    at: loc.at.clone(),
                    line: loc.line.clone(),
                    why: format!("no `endef` before the end of {rel}"),
                    fix: Some("close the macro with `endef`".into()),
                })?;
                if active {
                    self.define(scope, rel, &lines[i..end], head, &loc);
                    in_rule = false;
                }
                i = end + 1;
                continue;
            }
            // make reads nothing else in a branch not taken.
            if !active {
                continue;
            }
            // Under a condition that cannot be evaluated both branches are read.
            let both = conds.maybe();
            let mut body = t;
            // Any line but a conditional or a recipe ends a rule's recipe.
            in_rule = false;
            match word {
                "endef" => return Err(syntax("`endef` without `define`")),
                "include" | "-include" | "sinclude" => {
                    match includes {
                        Includes::Follow => {
                            self.include(scope, rest, word != "include", &loc, depth)?
                        }
                        Includes::Instead(instead) => {
                            let files = scope.expand(rest);
                            instead(scope, &files, &loc)
                        }
                    }
                    continue;
                }
                "export" | "unexport" | "override" | "private" => match split_line(rest) {
                    Ok(Split::Assign { .. }) => body = rest,
                    // `export FOO BAR`: no assignment.
                    _ => continue,
                },
                "undefine" => {
                    if !both {
                        let name = scope.expand(rest);
                        scope.unset(name.trim());
                    }
                    continue;
                }
                "vpath" => continue,
                _ => {}
            }
            match split_line(body).map_err(|why| syntax(&why))? {
                Split::Assign { lhs, op, rhs } => {
                    if let Err(text) = scope.assign(lhs, op, rhs, both, &loc) {
                        self.unread(loc, text, Unrun::UnknownName);
                    }
                }
                Split::Rule => in_rule = true,
                Split::TargetVar => {}
                Split::Other if body.starts_with("$(") || body.starts_with("${") => {
                    // `$(eval $(call macro,…))`, `$(foreach …)`: macros are not run (see
                    // `define`); what they would give make is handed back.
                    let text = scope.macro_text(body);
                    self.unread(loc, text, Unrun::Eval);
                }
                Split::Other => {
                    return Err(syntax(
                        "it is not an assignment, a rule or a directive (make: missing separator)",
                    ))
                }
            }
        }
        if let Some(open) = conds.unclosed() {
            return Err(ReadError::Syntax {
                at: open.at,
                line: open.line,
                why: format!("no `endif` before the end of {rel}"),
                fix: Some("close the conditional with `endif`".into()),
            });
        }
        Ok(())
    }

    fn unread(&mut self, loc: Loc, text: String, why: Unrun) {
        self.unread.push(Unread { loc, text, why });
    }

    /// A `define` body (`lines`, the name unexpanded in `head`).
    ///
    /// A macro is text until `$(eval $(call …))` runs it, which this reader does not do. Its
    /// assignments are handed back (with what cannot be expanded, such as its `$(1)`…
    /// arguments, unknown). The body is kept as a variable, so `$(call …)` expands it.
    fn define(
        &mut self,
        scope: &mut Scope,
        rel: &str,
        lines: &[(usize, String)],
        head: &str,
        loc: &Loc,
    ) {
        for (lineno, raw) in lines {
            if let Ok(Split::Assign { lhs, rhs, .. }) = split_line(strip_comment(raw).trim()) {
                let body_loc = Loc {
                    at: format!("{rel}:{lineno}"),
                    line: raw.trim().to_string(),
                };
                let text = scope.expand(rhs);
                let name = lhs.to_string();
                self.unread(body_loc, text, Unrun::MacroBody { name });
            }
        }
        let name = head.trim().trim_end_matches(['=', ':', '+', '?', '!']);
        let name = scope.expand(name).trim().to_string();
        let body: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
        scope.set(&name, body.join("\n"), false, loc);
    }

    fn include(
        &mut self,
        scope: &mut Scope,
        rest: &str,
        optional: bool,
        loc: &Loc,
        depth: usize,
    ) -> Result<(), ReadError> {
        let err = |why: String, fix: &str| ReadError::Syntax {
            at: loc.at.clone(),
            line: loc.line.clone(),
            why,
            fix: Some(fix.to_string()),
        };
        if depth > 16 {
            return Err(err(
                "includes nest more than 16 deep".into(),
                "an included makefile includes itself; break the loop",
            ));
        }
        for file in scope.expand(rest).split_whitespace() {
            if file.contains(UNKNOWN) {
                // `-include` of what cannot be expanded is skipped only when no file of the
                // tree could be it.
                if optional && self.first_file_like(&normalize(file)).is_none() {
                    continue;
                }
                return Err(err(
                    format!("cannot tell which file `{}` is", show(file)),
                    "include makefiles by a path under `$(srctree)` or `$(src)`",
                ));
            }
            let rel = normalize(file);
            if !file.starts_with('/') && !rel.starts_with("../") {
                self.looked_at.push(rel.clone());
            }
            if file.starts_with('/') || rel.starts_with("../") || !self.root.join(&rel).is_file() {
                if optional {
                    continue;
                }
                return Err(err(
                    format!("`{file}` is not a file of the source tree"),
                    "include makefiles by a path under `$(srctree)` or `$(src)`",
                ));
            }
            self.read_depth(scope, &rel, &Includes::Follow, depth + 1)?;
        }
        Ok(())
    }

    /// The first file of the tree matching `pattern` (see [`glob`]).
    fn first_file_like(&mut self, pattern: &str) -> Option<String> {
        let fixed = &pattern[..pattern.find(UNKNOWN).unwrap_or(pattern.len())];
        let base = &fixed[..fixed.rfind('/').map_or(0, |p| p + 1)];
        let mut todo = vec![base.to_string()];
        while let Some(dir) = todo.pop() {
            self.looked_at.push(if dir.is_empty() {
                ".".into()
            } else {
                dir.clone()
            });
            let Ok(entries) = std::fs::read_dir(self.root.join(&dir)) else {
                continue;
            };
            for e in entries.flatten() {
                let path = format!("{dir}{}", e.file_name().to_string_lossy());
                match e.file_type() {
                    Ok(t) if t.is_dir() => todo.push(format!("{path}/")),
                    Ok(t) if t.is_file() && glob(pattern, &path) => return Some(path),
                    _ => {}
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::makefile::known::Around;

    struct Nothing;

    impl Around for Nothing {
        fn fixed(&self, _: &str) -> Option<String> {
            None
        }
        fn is_list(&self, _: &str) -> bool {
            false
        }
        fn call(&self, _: &str, _: &[String]) -> Option<String> {
            None
        }
    }

    fn read(text: &str) -> (Scope<'static>, Result<Vec<Unread>, ReadError>) {
        let mut scope = Scope::new(Nothing);
        let mut r = Reader::new(Path::new("/nonexistent"));
        let res = r.read_text(&mut scope, "Makefile", text, &Includes::Follow);
        (scope, res.map(|()| r.unread))
    }

    #[test]
    fn assignments_rules_recipes_and_directives() {
        let (s, unread) = read(
            "a := 1 # one\n\
             export b = $(a)2\n\
             $(obj)/x.o: x.c\n\
             \ta := recipe\n\
             c := 3\n\
             ifdef UNSET\n\
             d := maybe\n\
             endif\n\
             undefine c\n\
             vpath %.c src\n",
        );
        assert!(unread.unwrap().is_empty());
        assert_eq!(s.get("a").as_deref(), Some("1"));
        assert_eq!(s.get("b").as_deref(), Some("12"));
        assert_eq!(s.get("c"), None);
        assert_eq!(s.get("d").as_deref(), Some("maybe"));
    }

    #[test]
    fn what_is_not_run_is_handed_back() {
        let (s, unread) = read(
            "define one\nobj-$(2) += $(1).o\nendef\n\
             $(eval $(call one,x,y))\n\
             obj-$(ARCH) += a.o\n",
        );
        let got: Vec<(String, String, Unrun)> = unread
            .unwrap()
            .into_iter()
            .map(|u| (u.loc.at, show(u.text.trim()), u.why))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "Makefile:2".to_string(),
                    "*.o".to_string(),
                    Unrun::MacroBody {
                        name: "obj-$(2)".into()
                    }
                ),
                (
                    "Makefile:4".to_string(),
                    "obj-y += x.o".to_string(),
                    Unrun::Eval
                ),
                (
                    "Makefile:5".to_string(),
                    "a.o".to_string(),
                    Unrun::UnknownName
                ),
            ]
        );
        // The macro is kept for `$(call …)`.
        assert_eq!(s.expand("$(call one,z,m)"), "obj-m += z.o");
    }

    #[test]
    fn lines_make_rejects_are_errors_naming_the_line() {
        let err = |text: &str| read(text).1.unwrap_err();
        assert_eq!(
            err("a := 1\nnot a line\n"),
            ReadError::Syntax {
                at: "Makefile:2".into(),
                line: "not a line".into(),
                why: "it is not an assignment, a rule or a directive (make: missing separator)"
                    .into(),
                fix: None,
            }
        );
        let e = err("ifdef A\n");
        assert!(e
            .to_string()
            .starts_with("Makefile:1: cannot read `ifdef A`: no `endif`"));
        assert!(e
            .to_string()
            .contains("\n  fix: close the conditional with `endif`"));
        assert!(err("define x\n").to_string().contains("no `endef`"));
        assert!(err("include gone.mk\n")
            .to_string()
            .contains("is not a file of the source tree"));
        assert!(read("-include gone.mk\n").1.is_ok());
    }

    #[test]
    fn includes_are_read_or_stood_in_for() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir(d.path().join("sub")).unwrap();
        std::fs::write(d.path().join("sub/more.mk"), "b := 2\n").unwrap();
        std::fs::write(
            d.path().join("Makefile"),
            "a := 1\ninclude ./sub/../sub/more.mk\n",
        )
        .unwrap();
        let mut scope = Scope::new(Nothing);
        let mut r = Reader::new(d.path());
        r.read_file(&mut scope, "Makefile", &Includes::Follow)
            .unwrap();
        assert_eq!(r.files, ["Makefile", "sub/more.mk"]);
        assert_eq!(scope.get("b").as_deref(), Some("2"));

        let instead = |s: &mut Scope, files: &str, loc: &Loc| {
            s.set("included", files.to_string(), true, loc);
        };
        let mut scope = Scope::new(Nothing);
        let mut r = Reader::new(d.path());
        r.read_file(&mut scope, "Makefile", &Includes::Instead(&instead))
            .unwrap();
        assert_eq!(r.files, ["Makefile"]);
        assert_eq!(scope.get("b"), None);
        assert_eq!(
            scope.get("included").as_deref(),
            Some("./sub/../sub/more.mk")
        );
    }
}
