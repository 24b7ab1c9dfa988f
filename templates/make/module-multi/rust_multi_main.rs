// SPDX-License-Identifier: GPL-2.0

//! The Rust half of a module of two objects (rkbuild template): it calls the C half.

use kernel::prelude::*;

module! {
    type: RustMulti,
    name: "rust_multi",
    description: "A Rust module with a C part",
    license: "GPL",
}

extern "C" {
    fn rust_multi_answer() -> core::ffi::c_int;
}

struct RustMulti;

impl kernel::Module for RustMulti {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        // SAFETY: `rust_multi_answer` takes nothing and only returns a number.
        let answer = unsafe { rust_multi_answer() };
        pr_info!("rust_multi: the C half answers {}\n", answer);
        Ok(RustMulti)
    }
}

impl Drop for RustMulti {
    fn drop(&mut self) {
        pr_info!("rust_multi: goodbye\n");
    }
}
