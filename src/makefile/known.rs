//! What the reader knows and what it does not: the mark for text it cannot know
//! ([`UNKNOWN`], shown as `*`, matched by [`glob`]), truths it may not know (`Tri`), and what
//! the caller knows around a makefile ([`Around`]). Every other part of the reader uses these.

/// Stands for text the reader cannot know.
pub const UNKNOWN: char = '\u{1}';

/// A truth the reader may not know: whether a conditional's branch is taken, or a variable
/// is set. `Maybe` when it depends on what cannot be known (then both branches are read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tri {
    Yes,
    No,
    Maybe,
}

/// What the caller knows around the makefile: asked whenever the text refers to something.
pub trait Around {
    /// A variable whose value the caller fixes: it wins over the makefile's own (Kbuild's
    /// `obj` and `src`, the `CONFIG_` symbols of `auto.conf`). `None`: not the caller's.
    fn fixed(&self, name: &str) -> Option<String>;

    /// Whether the variable is a list each makefile starts empty (Kbuild's `obj-y`, `foo-m`):
    /// unset, it is empty rather than unknown, and under a condition that cannot be decided
    /// both branches add to it.
    fn is_list(&self, name: &str) -> bool;

    /// `$(call NAME,args…)` of a function the makefile does not define, arguments expanded
    /// (Kbuild's `rustc-min-version`). `None`: not known.
    fn call(&self, name: &str, args: &[String]) -> Option<String>;
}

/// Text for messages: the unknown part as `*`.
pub fn show(s: &str) -> String {
    s.replace(UNKNOWN, "*")
}

/// Whether `text` matches `pattern`, where [`UNKNOWN`] matches any run of characters.
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut back: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == UNKNOWN {
            back = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((bp, bt)) = back {
            pi = bp + 1;
            ti = bt + 1;
            back = Some((bp, bt + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == UNKNOWN)
}
