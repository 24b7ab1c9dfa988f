// SPDX-License-Identifier: GPL-2.0

//! C types for the bindings (`--ctypes-prefix c_types`).

#![allow(non_camel_case_types, missing_docs)]

pub use core::ffi::{c_char, c_int, c_long, c_longlong, c_schar, c_short, c_uchar, c_uint};
pub use core::ffi::{c_ulong, c_ulonglong, c_ushort, c_void};
