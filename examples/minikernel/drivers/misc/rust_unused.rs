// SPDX-License-Identifier: GPL-2.0

//! A driver that the example configurations switch off: never compiled.

compile_error!("CONFIG_MINI_UNUSED is off, so this file must not be built");
