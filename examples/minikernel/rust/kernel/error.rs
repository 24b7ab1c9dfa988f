// SPDX-License-Identifier: GPL-2.0

//! Kernel errors.

/// An error code of the C side, stored as a positive errno.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error(core::ffi::c_int);

/// Error codes.
pub mod code {
    use super::Error;

    /// Invalid argument.
    pub const EINVAL: Error = Error(crate::bindings::EINVAL as core::ffi::c_int);
    /// Out of memory.
    pub const ENOMEM: Error = Error(crate::bindings::ENOMEM as core::ffi::c_int);
}

impl Error {
    /// Wraps a negative errno returned by C, or `None` for success.
    pub fn from_errno(ret: core::ffi::c_int) -> Option<Error> {
        (ret < 0).then_some(Error(-ret))
    }

    /// The negative errno C expects.
    pub fn to_errno(self) -> core::ffi::c_int {
        -self.0
    }
}

/// The result type of kernel functions.
pub type Result<T = ()> = core::result::Result<T, Error>;

/// Turns a C return value into a [`Result`].
pub fn to_result(ret: core::ffi::c_int) -> Result {
    match Error::from_errno(ret) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

// Host tests (`rkbuild test`, `make rusttest`).
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errno_round_trip() {
        let e = Error::from_errno(-22).unwrap();
        assert_eq!(e.to_errno(), -22);
        assert_eq!(e, code::EINVAL);
    }

    #[test]
    fn success_is_ok() {
        assert_eq!(to_result(0), Ok(()));
        assert_eq!(to_result(-12), Err(code::ENOMEM));
    }
}
