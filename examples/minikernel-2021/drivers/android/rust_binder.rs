// SPDX-License-Identifier: GPL-2.0

//! A Binder-shaped IPC driver: one crate root, its code in sibling modules (as the 2021
//! patch set's `drivers/android/`).

#![no_std]

use kernel::prelude::*;

mod allocation;
mod context;
mod node;
mod transaction;

module! {
    type: BinderModule,
    name: "rust_binder",
    author: "minikernel",
    description: "Binder-shaped IPC",
    license: "GPL",
}

struct BinderModule {
    ctx: context::Context,
}

impl kernel::Module for BinderModule {
    fn init() -> Result<Self> {
        let mut ctx = context::Context::new()?;
        let node = ctx.add_node(node::Node::new(0))?;
        let t = transaction::Transaction::new(node, b"ping")?;
        ctx.deliver(t)?;
        pr_info!("Rust Binder IPC driver ready\n");
        Ok(BinderModule { ctx })
    }
}

impl Drop for BinderModule {
    fn drop(&mut self) {
        self.ctx.clear();
    }
}
