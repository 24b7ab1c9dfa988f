// SPDX-License-Identifier: GPL-2.0

//! A single-file module that says hello.

use kernel::prelude::*;

module! {
    type: RustHello,
    name: "rust_hello",
    author: "minikernel",
    description: "Says hello",
    license: "GPL",
}

struct RustHello;

impl kernel::Module for RustHello {
    fn init() -> Result<Self> {
        pr_info!("Hello from Rust\n");
        #[cfg(CONFIG_MINI_HELLO_LOUD)]
        pr_info!("Hello again, louder\n");
        Ok(RustHello)
    }
}

impl Drop for RustHello {
    fn drop(&mut self) {
        pr_info!("Goodbye from Rust\n");
    }
}
