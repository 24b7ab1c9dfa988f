// SPDX-License-Identifier: GPL-2.0

//! Buffers shared with user space, allocated by the C side.

use kernel::bindings;
use kernel::prelude::*;

pub(crate) struct Allocation {
    ptr: *mut u8,
    size: usize,
}

// SAFETY: the buffer is only touched through `&mut self`.
unsafe impl Send for Allocation {}
// SAFETY: no method reads or writes the buffer through `&self`.
unsafe impl Sync for Allocation {}

impl Allocation {
    pub(crate) fn new(size: usize) -> Result<Self> {
        // SAFETY: `mk_alloc` accepts any size and returns null on failure.
        let ptr = unsafe { bindings::mk_alloc(size) }.cast::<u8>();
        if ptr.is_null() {
            return Err(ENOMEM);
        }
        Ok(Allocation { ptr, size })
    }

    pub(crate) fn zero(&mut self) {
        // SAFETY: `ptr` points to `size` bytes owned by this allocation.
        unsafe { core::ptr::write_bytes(self.ptr, 0, self.size) };
    }
}

impl Drop for Allocation {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from `mk_alloc` and is freed once.
        unsafe { bindings::mk_free(self.ptr.cast()) };
    }
}
