// SPDX-License-Identifier: GPL-2.0

//! An LED driver built into the kernel image.

use kernel::device::Registration;
use kernel::prelude::*;

module! {
    type: MiniLed,
    name: "leds_mini",
    license: "GPL",
}

struct MiniLed {
    reg: Registration,
}

impl kernel::Module for MiniLed {
    fn init() -> Result<Self> {
        let reg = Registration::new("mini-led", 1)?;
        kernel::build_assert!(core::mem::size_of::<u32>() == 4);
        if reg.id() != 1 {
            pr_err!("unexpected LED id\n");
            return Err(EINVAL);
        }
        Ok(MiniLed { reg })
    }
}

impl Drop for MiniLed {
    fn drop(&mut self) {
        let _ = self.reg.id();
    }
}
