// SPDX-License-Identifier: GPL-2.0
/* Non-trivial C macros and inline functions, wrapped for Rust. */
#include <linux/minikernel.h>

static inline u32 mk_device_id(const struct mk_device *dev) { return dev->id; }

u32 rust_helper_mk_device_id(const struct mk_device *dev)
{
	return mk_device_id(dev);
}
