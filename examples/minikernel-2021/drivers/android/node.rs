// SPDX-License-Identifier: GPL-2.0

//! Nodes: the objects transactions are sent to.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub(crate) id: u64,
}

impl Node {
    pub(crate) fn new(id: u64) -> Self {
        Node { id }
    }
}
