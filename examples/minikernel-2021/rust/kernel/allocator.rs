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

// `alloc`'s own code (growing a `Vec` of the global allocator, `Box`) calls these; without a
// final link by rustc nothing generates them, so the kernel defines them (as the 2021 set did).
// rustc 1.89 and later mangle the names `alloc` calls: with those the definitions below are
// simply unused and the kernel crate's own collections use `KernelAllocator` only.

#[no_mangle]
fn __rust_alloc(size: usize, _align: usize) -> *mut u8 {
    // SAFETY: `mk_alloc` accepts any size and returns null on failure.
    unsafe { bindings::mk_alloc(size) }.cast()
}

#[no_mangle]
fn __rust_dealloc(ptr: *mut u8, _size: usize, _align: usize) {
    // SAFETY: `alloc` passes a block `__rust_alloc` returned.
    unsafe { bindings::mk_free(ptr.cast()) };
}

#[no_mangle]
fn __rust_realloc(ptr: *mut u8, old_size: usize, _align: usize, new_size: usize) -> *mut u8 {
    let new = __rust_alloc(new_size, 1);
    if !new.is_null() {
        // SAFETY: both blocks hold at least `min(old_size, new_size)` bytes and do not overlap.
        unsafe { core::ptr::copy_nonoverlapping(ptr, new, old_size.min(new_size)) };
        __rust_dealloc(ptr, old_size, 1);
    }
    new
}

#[no_mangle]
fn __rust_alloc_zeroed(size: usize, align: usize) -> *mut u8 {
    let p = __rust_alloc(size, align);
    if !p.is_null() {
        // SAFETY: `p` points to `size` fresh bytes.
        unsafe { core::ptr::write_bytes(p, 0, size) };
    }
    p
}

#[no_mangle]
static __rust_no_alloc_shim_is_unstable: u8 = 0;
