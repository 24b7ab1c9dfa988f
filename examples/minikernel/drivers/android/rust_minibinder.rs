// SPDX-License-Identifier: GPL-2.0

//! A Binder-shaped IPC driver: one crate, with the rest of its code in sibling files.

use kernel::prelude::*;

mod allocation;
mod context;
mod node;

module! {
    type: MiniBinder,
    name: "rust_minibinder",
    author: "minikernel",
    description: "Binder-shaped IPC",
    license: "GPL",
}

struct MiniBinder {
    ctx: context::Context,
}

impl kernel::Module for MiniBinder {
    fn init() -> Result<Self> {
        let mut ctx = context::Context::new()?;
        ctx.add_node(node::Node::new(0))?;
        pr_info!("minibinder ready\n");
        Ok(MiniBinder { ctx })
    }
}

impl Drop for MiniBinder {
    fn drop(&mut self) {
        self.ctx.clear();
    }
}
