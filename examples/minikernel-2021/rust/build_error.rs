// SPDX-License-Identifier: GPL-2.0

//! Build-time error.
//!
//! Calls to [`build_error`] that survive optimisation are link errors unless
//! `CONFIG_RUST_BUILD_ASSERT_ALLOW` or `_WARN` links this object into the kernel.

#![no_std]

/// Panics if executed in const context, or triggers a build error if not.
#[inline(never)]
#[cold]
#[export_name = "rust_build_error"]
#[track_caller]
pub const fn build_error(msg: &'static str) -> ! {
    panic!("{}", msg);
}
