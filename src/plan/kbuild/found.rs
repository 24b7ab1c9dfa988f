//! What a walk of the makefiles finds: the Rust crates to compile (single-file drivers and the
//! Rust parts of composite objects), the composites with all their parts, the drivers the
//! configuration leaves out, and why a walk stops ([`KbuildError`]).

use crate::makefile::ReadError;
use crate::mapping::ObjKind;

/// A Rust crate to compile, found in a Kbuild makefile: a single-file driver (`foo.o` from
/// `foo.rs`) or the Rust part of a composite object.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DriverObj {
    /// The object, relative to the trees (`drivers/misc/rust_hello.o`); for a part, the part's
    /// object (`samples/rust/rust_print_main.o`).
    pub obj: String,
    /// The crate root, relative to the source tree (`drivers/misc/rust_hello.rs`).
    pub src: String,
    /// Built in or module: from the `obj-` list of the object (of the composite, for a part).
    pub kind: ObjKind,
    /// The symbol that enables it (`MINI_HELLO`; the composite's for a part), `None` for `obj-y`.
    pub symbol: Option<String>,
    /// Where it is listed (`drivers/misc/Makefile:2`; a part: the `foo-y` line naming it).
    pub listed_at: String,
    /// Kbuild's `modfile`, given to rustc as `RUST_MODFILE`: the module's path without `.o` —
    /// the object's own for a single-file driver, the composite's for a part
    /// (`samples/rust/rust_print`).
    pub modfile: String,
    /// For a part: the composite object it is linked into (`samples/rust/rust_print.o`).
    pub composite: Option<String>,
}

/// What a part of a composite object is compiled from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PartLang {
    /// `part.rs`: a crate root (also listed in [`Walk::drivers`]).
    Rust,
    /// `part.c`.
    C,
    /// `part.S`.
    Asm,
    /// No source beside it: made by a rule of the makefile (or generated in the object tree).
    Other,
}

/// One part of a composite object.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Part {
    /// `samples/rust/rust_print_events.o`.
    pub obj: String,
    /// `samples/rust/rust_print_events.c`; `None` for [`PartLang::Other`].
    pub src: Option<String>,
    pub lang: PartLang,
    /// The part's own gate (`drm-$(CONFIG_DRM_PANIC_SCREEN_QR_CODE) += drm_panic_qr.o`).
    pub symbol: Option<String>,
    /// The `foo-y` line naming it.
    pub listed_at: String,
}

/// A composite object (`foo.o` made of `$(foo-objs) $(foo-y)`, plus `$(foo-m)` for a module)
/// with at least one Rust part.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Composite {
    /// `samples/rust/rust_print.o`.
    pub obj: String,
    pub kind: ObjKind,
    pub symbol: Option<String>,
    /// Where `foo.o` is listed.
    pub listed_at: String,
    /// The module file of every part (`samples/rust/rust_print`).
    pub modfile: String,
    /// The enabled parts, in link order.
    pub parts: Vec<Part>,
}

/// A Rust driver that the configuration leaves out.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Skipped {
    pub obj: String,
    pub symbol: String,
    pub listed_at: String,
    /// Why it is left out, when not for its symbol (a C part rkbuild does not compile).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// Everything a walk of the makefiles found.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Walk {
    /// Every Rust crate to compile, sorted by object: single-file drivers and the Rust parts of
    /// composites.
    pub drivers: Vec<DriverObj>,
    /// Composite objects with a Rust part, sorted by object.
    pub composites: Vec<Composite>,
    pub skipped: Vec<Skipped>,
    /// Every makefile read (included ones too), relative to the source tree, in reading order.
    pub makefiles: Vec<String>,
}

const FIX_LIST: &str = "write it as `obj-$(CONFIG_FOO) += foo.o` (or `obj-y`/`obj-m`)";

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KbuildError {
    /// A line make itself would reject, or a file or folder that is not there.
    #[error("{at}: cannot read `{line}`: {why}\n  fix: {fix}")]
    Syntax {
        at: String,
        line: String,
        why: String,
        fix: String,
    },
    /// Text the walker cannot expand (or a macro) that could name a Rust source no list names.
    #[error("{at}: cannot read `{line}`: `{item}` could name `{rust}`, which no list names ({why})\n  fix: list Rust objects by name (`obj-$(CONFIG_FOO) += foo.o`, `foo-y += foo_main.o`)")]
    Hidden {
        at: String,
        line: String,
        /// The item, `*` for what cannot be expanded.
        item: String,
        rust: String,
        why: String,
    },
    #[error("{path}: cannot read it: {why}\n  fix: check the file")]
    Io { path: String, why: String },
}

impl From<ReadError> for KbuildError {
    fn from(e: ReadError) -> Self {
        match e {
            ReadError::Syntax { at, line, why, fix } => KbuildError::Syntax {
                at,
                line,
                why,
                // A line make rejects, in a Kbuild makefile: how lists are written.
                fix: fix.unwrap_or_else(|| FIX_LIST.to_string()),
            },
            ReadError::Io { path, why } => KbuildError::Io { path, why },
        }
    }
}
