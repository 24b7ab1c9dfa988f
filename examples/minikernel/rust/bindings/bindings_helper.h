/* SPDX-License-Identifier: GPL-2.0 */
/* Everything the `bindings` crate sees of the C side. */
#include <linux/minikernel.h>

/* `bindgen` gets confused at certain things: expose them as constants. */
const u64 RUST_CONST_HELPER_MK_DEFAULT_FLAGS = MK_DEFAULT_FLAGS;
