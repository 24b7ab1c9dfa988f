/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/* The user-space interface of the Binder-shaped driver. */
#ifndef _UAPI_LINUX_MINIBINDER_H
#define _UAPI_LINUX_MINIBINDER_H

#define MINIBINDER_VERSION 8
#define MINIBINDER_WRITE_READ 0xc0306201u

struct minibinder_write_read {
	unsigned long long write_size;
	unsigned long long write_consumed;
	unsigned long long read_size;
	unsigned long long read_consumed;
};

#endif /* _UAPI_LINUX_MINIBINDER_H */
