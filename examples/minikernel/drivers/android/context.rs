// SPDX-License-Identifier: GPL-2.0

//! The context manager: the nodes a process can reach.

use crate::allocation::Allocation;
use crate::node::Node;
use kernel::prelude::*;

const MAX_NODES: usize = 8;

pub(crate) struct Context {
    nodes: [Option<Node>; MAX_NODES],
    buffer: Allocation,
}

impl Context {
    pub(crate) fn new() -> Result<Self> {
        Ok(Context {
            nodes: [None; MAX_NODES],
            buffer: Allocation::new(4096)?,
        })
    }

    pub(crate) fn add_node(&mut self, node: Node) -> Result {
        let slot = self.nodes.iter_mut().find(|n| n.is_none()).ok_or(ENOMEM)?;
        *slot = Some(node);
        Ok(())
    }

    pub(crate) fn clear(&mut self) {
        self.nodes = [None; MAX_NODES];
        self.buffer.zero();
    }
}
