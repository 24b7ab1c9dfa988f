// SPDX-License-Identifier: GPL-2.0

//! A minimal out-of-tree Rust module (rkbuild template).

use kernel::prelude::*;

module! {
    type: RustHello,
    name: "rust_hello",
    description: "Hello from an out-of-tree Rust module",
    license: "GPL",
}

struct RustHello;

impl kernel::Module for RustHello {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        pr_info!("Hello from rust_hello\n");
        Ok(RustHello)
    }
}

impl Drop for RustHello {
    fn drop(&mut self) {
        pr_info!("Goodbye from rust_hello\n");
    }
}
