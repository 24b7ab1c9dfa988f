/* SPDX-License-Identifier: GPL-2.0 */
#include <uapi/linux/minibinder.h>
