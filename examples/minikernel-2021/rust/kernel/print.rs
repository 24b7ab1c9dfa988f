// SPDX-License-Identifier: GPL-2.0

//! Printing to the kernel log.

use crate::bindings;

/// Log levels.
pub use bindings::mk_log_level as Level;

/// Writes one message to the kernel log.
pub fn log(level: Level, msg: &str) {
    // SAFETY: the pointer and length describe `msg`, which outlives the call.
    unsafe { bindings::mk_printk(level, msg.as_ptr().cast(), msg.len()) };
}

/// Prints an informational message.
#[macro_export]
macro_rules! pr_info {
    ($msg:expr) => {
        $crate::print::log($crate::print::Level::MK_LOG_INFO, $msg)
    };
}
