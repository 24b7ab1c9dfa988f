// SPDX-License-Identifier: GPL-2.0

//! Buffers shared with user space: kernel memory that only grows by fallible reservation.

use kernel::buffer::Buffer;
use kernel::prelude::*;

pub(crate) struct Allocation {
    buffer: Buffer,
}

impl Allocation {
    pub(crate) fn new(size: usize) -> Result<Self> {
        Ok(Allocation {
            buffer: Buffer::try_with_capacity(size)?,
        })
    }

    pub(crate) fn write(&mut self, bytes: &[u8]) -> Result {
        self.buffer.try_extend(bytes)
    }

    pub(crate) fn used(&self) -> usize {
        self.buffer.len()
    }

    pub(crate) fn reset(&mut self) {
        self.buffer.clear();
    }
}
