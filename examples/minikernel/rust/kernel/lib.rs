// SPDX-License-Identifier: GPL-2.0

//! The `kernel` crate: safe abstractions over the minikernel's C API for drivers written in
//! Rust.

#![no_std]
#![feature(arbitrary_self_types)]

pub mod device;
pub mod error;
pub mod prelude;
pub mod print;

pub use bindings;
pub use build_error::build_error;
pub use ffi;
pub use macros;
pub use uapi;

/// The trait every module type implements: `module!` calls [`Module::init`] when the module
/// is loaded and drops the value when it is unloaded.
pub trait Module: Sized + Sync {
    /// Called at module initialization time.
    fn init() -> error::Result<Self>;
}

/// Fails the build if the condition cannot be proved true at compile time.
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
