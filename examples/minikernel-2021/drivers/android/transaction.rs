// SPDX-License-Identifier: GPL-2.0

//! Transactions: a payload addressed to a node.

use crate::node::Node;
use kernel::prelude::*;

pub(crate) struct Transaction<'a> {
    pub(crate) to: Node,
    pub(crate) data: &'a [u8],
}

impl<'a> Transaction<'a> {
    pub(crate) fn new(to: Node, data: &'a [u8]) -> Result<Self> {
        if data.is_empty() {
            return Err(EINVAL);
        }
        Ok(Transaction { to, data })
    }
}
