// SPDX-License-Identifier: GPL-2.0

//! The `kernel` crate: safe abstractions over the minikernel's C API, in the shape of the 2021
//! patch set's (C types and bindings inside the crate, `alloc` for fallible collections).

#![no_std]
#![feature(allocator_api)]

pub mod allocator;
pub mod bindings;
pub mod buffer;
pub mod c_types;
pub mod error;
pub mod prelude;
pub mod print;

#[doc(hidden)]
pub use build_error::build_error;

/// The trait every module type implements: `module!` calls [`Module::init`] when the module
/// is loaded and drops the value when it is unloaded.
pub trait Module: Sized + Sync {
    /// Called at module initialization time.
    fn init() -> error::Result<Self>;
}

/// Fails the build if the condition cannot be proved true at compile time: the call to
/// `build_error` survives only when the optimiser cannot remove it, and then the link fails
/// under `CONFIG_RUST_BUILD_ASSERT_DENY`, warns under `_WARN` and panics at run time under
/// `_ALLOW`.
#[macro_export]
macro_rules! build_assert {
    ($cond:expr $(,)?) => {{
        if !$cond {
            $crate::build_error(concat!("assertion failed: ", stringify!($cond)));
        }
    }};
}

#[cfg(not(test))]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    let msg = info.message().as_str().unwrap_or("Rust panic");
    // SAFETY: the pointer and length describe `msg`, which outlives the call.
    unsafe { bindings::mk_panic(msg.as_ptr().cast(), msg.len()) }
}
