//! `rkbuild-rustc`: the RUSTC wrapper as a program of its own, beside `rkbuild` (`cargo
//! install` puts both there). It is the wrapper's fast path and nothing of the library, so a
//! call that only passes through costs one small program's start: it finds the compiler and
//! `exec`s it. Anything more (a log, the cache, clippy, an error to explain) it hands to the
//! `rkbuild` beside it, run as `rkbuild-rustc` (a link named so to `rkbuild` is the same
//! wrapper, all of it in one program).
//!
//! The one place outside `process` that starts a program: it must not link the library.

#[path = "../wrapper/fast.rs"]
mod fast;

use std::os::unix::process::CommandExt as _;
use std::process::Command;

fn main() {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let selves = fast::Selves::of_this_program();
    if let Some(rustc) = fast::direct_compiler(|k| std::env::var_os(k), &selves) {
        let e = Command::new(&rustc)
            .env(fast::GUARD_ENV, "1")
            .args(&args)
            .exec();
        fail(&format!("cannot run `{}`: {e}", rustc.display()));
    }
    let me = std::env::current_exe();
    let Some(full) = me
        .as_deref()
        .ok()
        .and_then(|p| p.parent())
        .map(|d| d.join("rkbuild"))
    else {
        fail("cannot tell where this program is (to run the `rkbuild` beside it)");
    };
    let e = Command::new(&full).arg0("rkbuild-rustc").args(&args).exec();
    fail(&format!(
        "cannot run `{}`, which does all but plain calls: {e}\n  fix: install rkbuild-rustc beside rkbuild (`cargo install --locked --path .` puts both in one folder), or make rkbuild-rustc a link to rkbuild",
        full.display()
    ));
}

fn fail(msg: &str) -> ! {
    eprintln!("rkbuild-rustc: error: {msg}");
    std::process::exit(127)
}
