// SPDX-License-Identifier: GPL-2.0

//! The context manager: the nodes a process can reach and the buffer transactions land in.

use crate::allocation::Allocation;
use crate::node::Node;
use crate::transaction::Transaction;
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

    pub(crate) fn add_node(&mut self, node: Node) -> Result<Node> {
        let slot = self.nodes.iter_mut().find(|n| n.is_none()).ok_or(ENOMEM)?;
        *slot = Some(node);
        Ok(node)
    }

    pub(crate) fn deliver(&mut self, t: Transaction<'_>) -> Result {
        if !self.nodes.contains(&Some(t.to)) {
            return Err(EINVAL);
        }
        self.buffer.write(t.data)?;
        if self.buffer.used() > 4096 {
            self.buffer.reset();
        }
        Ok(())
    }

    pub(crate) fn clear(&mut self) {
        self.nodes = [None; MAX_NODES];
        self.buffer.reset();
    }
}
