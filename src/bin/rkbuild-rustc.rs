//! `rkbuild-rustc`: the RUSTC wrapper as a program of its own, so that `cargo install` puts it
//! beside `rkbuild` (a link named `rkbuild-rustc` to `rkbuild` does the same).

fn main() {
    rkbuild::process::default_sigpipe();
    std::process::exit(rkbuild::wrapper::run(std::env::args_os().skip(1).collect()))
}
