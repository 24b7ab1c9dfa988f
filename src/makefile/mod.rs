//! A reader of make's assignment language: what a makefile sets, not what it builds.
//!
//! Kbuild's makefiles say which objects a tree builds (`obj-$(CONFIG_FOO) += foo.o`), and the
//! kernel's `rust/Makefile` says each crate's cfgs (`core-cfgs`, `core-edition`). Both are read
//! here, one way: logical lines and how they split (`lines`), variables and their expansion
//! (`expand`) with make's functions on words (`words`), conditionals (`cond`), and whole files
//! with their includes and `define` blocks (`read`). It only reads files, so every stage may
//! use it.
//!
//! Out of scope: running make. Rules and their recipes are skipped, and macros, `$(eval …)` and
//! `$(shell …)` are not run. What the reader cannot know (a variable set outside the makefile,
//! a shell command's output, a macro's argument) is [`UNKNOWN`] in the text, never guessed, so
//! a caller can tell "empty" from "not known"; what make would run and the reader did not is
//! handed back ([`Unread`]) for the caller to check. What a variable means (Kbuild's lists,
//! `obj`, `CONFIG_` symbols, `rustc-min-version`) is the caller's to say, through [`Around`].

mod cond;
mod expand;
mod known;
mod lines;
mod read;
pub mod records;
mod words;

pub use expand::{Scope, Word};
pub use known::{glob, show, Around, UNKNOWN};
pub use lines::{Loc, Op};
pub use read::{normalize, Includes, ReadError, Reader, Unread, Unrun};
pub use words::{filter_out, filtered_out};
