// SPDX-License-Identifier: GPL-2.0

//! Build-time assertions: one the optimiser proves (its call to `build_error` disappears from
//! the object at every opt-level but 0), and with `CONFIG_SAMPLE_RUST_BUILD_ASSERT_FAILS` one it
//! never can (a link error under `CONFIG_RUST_BUILD_ASSERT_DENY`).

#![no_std]

use kernel::prelude::*;

module! {
    type: RustBuildAssert,
    name: "rust_build_assert",
    author: "minikernel",
    description: "Build-time assertions",
    license: "GPL",
}

/// A slot index checked at build time: callers pass constants.
#[inline(always)]
fn slot(index: usize) -> usize {
    build_assert!(index < 16);
    index
}

struct RustBuildAssert;

impl kernel::Module for RustBuildAssert {
    fn init() -> Result<Self> {
        let _ = slot(8);
        #[cfg(CONFIG_SAMPLE_RUST_BUILD_ASSERT_FAILS)]
        let _ = slot(32);
        pr_info!("build-time assertions hold\n");
        Ok(RustBuildAssert)
    }
}
