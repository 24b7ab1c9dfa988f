// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of the minikernel: what include/linux/minikernel.h declares and the compiler's
 * mem* calls, just enough for the Rust objects to link into one image (tests/build_2021.rs
 * links them to show that a build_assert! that survives is a link error under
 * CONFIG_RUST_BUILD_ASSERT_DENY). Not built by rkbuild: the 2021 layout has no C rules.
 */
#include <linux/minikernel.h>

static unsigned char heap[1 << 16];
static size_t used;

int mk_printk(enum mk_log_level level, const char *msg, size_t len)
{
	(void)level;
	(void)msg;
	return (int)len;
}

void *mk_alloc(size_t size)
{
	size_t at = (used + 15) & ~(size_t)15;

	if (at + size > sizeof(heap))
		return 0;
	used = at + size;
	return heap + at;
}

void mk_free(void *ptr)
{
	(void)ptr;
}

void mk_panic(const char *msg, size_t len)
{
	(void)msg;
	(void)len;
	for (;;)
		;
}

void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;

	while (n--)
		*dp++ = *sp++;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;

	if (dp < sp)
		return memcpy(d, s, n);
	while (n--)
		dp[n] = sp[n];
	return d;
}

void *memset(void *d, int c, size_t n)
{
	unsigned char *dp = d;

	while (n--)
		*dp++ = (unsigned char)c;
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *ap = a, *bp = b;

	for (; n; n--, ap++, bp++)
		if (*ap != *bp)
			return *ap - *bp;
	return 0;
}
