// SPDX-License-Identifier: GPL-2.0

//! The C side's allocator as an `alloc` allocator, for the fallible collections of `alloc`
//! built with `no_global_oom_handling`.

use core::alloc::{AllocError, Allocator, Layout};
use core::ptr::NonNull;

use crate::bindings;

/// Memory from `mk_alloc`, aligned for anything up to 16 bytes.
#[derive(Clone, Copy, Default)]
pub struct KernelAllocator;

// SAFETY: blocks come from `mk_alloc`, stay valid until `mk_free`, and are never moved.
unsafe impl Allocator for KernelAllocator {
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        if layout.align() > 16 {
            return Err(AllocError);
        }
        // SAFETY: `mk_alloc` accepts any size and returns null on failure.
        let ptr = unsafe { bindings::mk_alloc(layout.size()) }.cast::<u8>();
        let ptr = NonNull::new(ptr).ok_or(AllocError)?;
        Ok(NonNull::slice_from_raw_parts(ptr, layout.size()))
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, _layout: Layout) {
        // SAFETY: the caller passes a block this allocator returned.
        unsafe { bindings::mk_free(ptr.as_ptr().cast()) };
    }
}
