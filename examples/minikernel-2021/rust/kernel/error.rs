// SPDX-License-Identifier: GPL-2.0

//! Kernel errors.

use crate::c_types;

/// An error code of the C side, stored as a positive errno.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error(c_types::c_int);

/// Error codes.
pub mod code {
    use super::Error;
    use crate::c_types;

    /// Invalid argument.
    pub const EINVAL: Error = Error(crate::bindings::EINVAL as c_types::c_int);
    /// Out of memory.
    pub const ENOMEM: Error = Error(crate::bindings::ENOMEM as c_types::c_int);
}

impl Error {
    /// The negative errno C expects.
    pub fn to_kernel_errno(self) -> c_types::c_int {
        -self.0
    }

    /// The same, under the name `module!` uses.
    pub fn to_errno(self) -> c_types::c_int {
        self.to_kernel_errno()
    }
}

/// The result type of kernel functions.
pub type Result<T = ()> = core::result::Result<T, Error>;
