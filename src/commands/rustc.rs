//! `rkbuild rustc [--] ARGS…`: the RUSTC wrapper (see [`crate::wrapper`]).

use std::ffi::OsString;

/// Drops one leading `--` (`rkbuild rustc -- -vV`); everything else goes to rustc unchanged.
pub fn strip_separator(mut args: Vec<OsString>) -> Vec<OsString> {
    if args.first().is_some_and(|a| a == "--") {
        args.remove(0);
    }
    args
}

/// Runs the wrapper and leaves with the compiler's status.
pub fn exit(args: Vec<OsString>) -> ! {
    let code = crate::wrapper::run(args);
    std::process::exit(code)
}
