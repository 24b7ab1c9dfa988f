// SPDX-License-Identifier: GPL-2.0
/* The C half of rust_multi: a function the Rust half calls. */
#include <linux/kernel.h>
#include "rust_multi.h"

int rust_multi_answer(void)
{
	return RUST_MULTI_ANSWER;
}
