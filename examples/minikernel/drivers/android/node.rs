// SPDX-License-Identifier: GPL-2.0

//! Nodes: the objects transactions are sent to.

use kernel::uapi;

#[allow(dead_code)]
#[derive(Clone, Copy)]
pub(crate) struct Node {
    pub(crate) id: u64,
    pub(crate) version: u32,
}

impl Node {
    pub(crate) fn new(id: u64) -> Self {
        Node {
            id,
            version: uapi::MINIBINDER_VERSION,
        }
    }
}
