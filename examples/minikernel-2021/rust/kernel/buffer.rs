// SPDX-License-Identifier: GPL-2.0

//! Byte buffers that grow only by fallible reservation: `alloc` is built with
//! `no_global_oom_handling`, so `Vec::push` does not exist and every growth is a `Result`.

use alloc::vec::Vec;

use crate::allocator::KernelAllocator;
use crate::error::{code, Result};

/// A buffer of bytes in kernel memory.
pub struct Buffer {
    data: Vec<u8, KernelAllocator>,
}

impl Buffer {
    /// An empty buffer with room for `capacity` bytes.
    pub fn try_with_capacity(capacity: usize) -> Result<Self> {
        let mut data = Vec::new_in(KernelAllocator);
        data.try_reserve(capacity).map_err(|_| code::ENOMEM)?;
        Ok(Buffer { data })
    }

    /// Appends `bytes`, reserving first.
    pub fn try_extend(&mut self, bytes: &[u8]) -> Result {
        self.data.try_reserve(bytes.len()).map_err(|_| code::ENOMEM)?;
        for b in bytes {
            // Cannot fail: the room was reserved above.
            let len = self.data.len();
            self.data.spare_capacity_mut()[0].write(*b);
            // SAFETY: the byte at `len` was just initialised.
            unsafe { self.data.set_len(len + 1) };
        }
        Ok(())
    }

    /// Empties the buffer, keeping its memory.
    pub fn clear(&mut self) {
        self.data.clear();
    }

    /// The bytes held.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether no byte is held.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}
