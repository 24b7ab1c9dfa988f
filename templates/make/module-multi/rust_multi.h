/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RUST_MULTI_H
#define RUST_MULTI_H
/* What the C half answers; the Rust half prints it. */
#define RUST_MULTI_ANSWER 42
int rust_multi_answer(void);
#endif
