/* SPDX-License-Identifier: GPL-2.0 */
/* Fixed-width types without a C library (the build uses -nostdinc). */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed int s32;
typedef signed long long s64;
typedef __SIZE_TYPE__ size_t;
typedef _Bool bool;

#endif /* _LINUX_TYPES_H */
