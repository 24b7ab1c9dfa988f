// SPDX-License-Identifier: GPL-2.0

//! Foreign function interface (FFI) types.
//!
//! The C types the bindings use, under the names bindgen's `--ctypes-prefix ffi` expects.

#![no_std]

pub use core::ffi::*;
