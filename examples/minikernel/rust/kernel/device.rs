// SPDX-License-Identifier: GPL-2.0

//! Devices registered with the C side.

use crate::bindings;
use crate::error::{code, to_result, Result};

/// A registered device; unregistered when dropped.
pub struct Registration {
    dev: bindings::mk_device,
}

// SAFETY: the C side serialises all access to registered devices.
unsafe impl Sync for Registration {}
// SAFETY: a registration is not tied to the thread that made it.
unsafe impl Send for Registration {}

impl Registration {
    /// Registers a device called `name` (at most `MK_NAME_MAX - 1` bytes) with the given id.
    pub fn new(name: &str, id: u32) -> Result<Self> {
        if name.len() >= bindings::MK_NAME_MAX as usize {
            return Err(code::EINVAL);
        }
        let mut dev = bindings::mk_device::default();
        for (d, s) in dev.name.iter_mut().zip(name.bytes()) {
            *d = s as _;
        }
        dev.id = id;
        dev.flags = bindings::MK_DEFAULT_FLAGS;
        // SAFETY: `dev` is a valid, initialised device.
        to_result(unsafe { bindings::mk_register_device(&mut dev) })?;
        Ok(Registration { dev })
    }

    /// The device id, as the C side reports it.
    pub fn id(&self) -> u32 {
        // SAFETY: `self.dev` is a registered device.
        unsafe { bindings::mk_device_id(&self.dev) }
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        // SAFETY: `self.dev` was registered in `new`.
        unsafe { bindings::mk_unregister_device(&mut self.dev) };
    }
}
