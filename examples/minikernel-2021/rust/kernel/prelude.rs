// SPDX-License-Identifier: GPL-2.0

//! The kernel prelude: what most drivers need.

pub use crate::error::{code::*, Error, Result};
pub use crate::{build_assert, pr_info, Module};
pub use macros::module;
