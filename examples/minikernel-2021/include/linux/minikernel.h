/* SPDX-License-Identifier: GPL-2.0 */
/* The small C API the minikernel's Rust side binds to. */
#ifndef _LINUX_MINIKERNEL_H
#define _LINUX_MINIKERNEL_H

#include <linux/types.h>

#define MK_NAME_MAX 32
#define EINVAL 22
#define ENOMEM 12
/* A cast: bindgen skips it, so bindings_helper.h re-exports it. */
#define MK_DEFAULT_FLAGS ((u64)1 << 40)

/* A device as the C side sees it. */
struct mk_device {
	char name[MK_NAME_MAX];
	u32 id;
	u64 flags;
	void *driver_data;
};

/* Log levels for mk_printk(). */
enum mk_log_level {
	MK_LOG_ERR = 3,
	MK_LOG_INFO = 6,
	MK_LOG_DEBUG = 7,
};

int mk_printk(enum mk_log_level level, const char *msg, size_t len);
void *mk_alloc(size_t size);
void mk_free(void *ptr);
int mk_register_device(struct mk_device *dev);
void mk_unregister_device(struct mk_device *dev);
void __attribute__((noreturn)) mk_panic(const char *msg, size_t len);

#endif /* _LINUX_MINIKERNEL_H */
