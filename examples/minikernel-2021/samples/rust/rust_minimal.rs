// SPDX-License-Identifier: GPL-2.0

//! The smallest Rust module.

#![no_std]

use kernel::prelude::*;

module! {
    type: RustMinimal,
    name: "rust_minimal",
    author: "minikernel",
    description: "The smallest Rust module",
    license: "GPL",
}

struct RustMinimal;

impl kernel::Module for RustMinimal {
    fn init() -> Result<Self> {
        pr_info!("Rust minimal sample (init)\n");
        Ok(RustMinimal)
    }
}

impl Drop for RustMinimal {
    fn drop(&mut self) {
        pr_info!("Rust minimal sample (exit)\n");
    }
}
