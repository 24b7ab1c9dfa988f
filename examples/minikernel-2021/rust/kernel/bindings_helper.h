/* SPDX-License-Identifier: GPL-2.0 */
/* Everything the `kernel` crate sees of the C side. */
#include <linux/minikernel.h>
