/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_macros.h -- compiler attributes and small macros every Wireup file may use. */
#ifndef WU_MACROS_H
#define WU_MACROS_H

#ifdef HAVE_CONFIG_H
#include "wu_config.h"
#endif

#include <stddef.h>

/* Symbols marked WU_EXPORT are visible outside their library (we build with -fvisibility=hidden).
 * Only the PMIx_* API carries it, and the component API: the wu_* functions and data that DSO
 * components, the runtime library libwireup-rte and Wireup's own tools use. The exports of
 * libpmix.so.2 and libwireup-rte are listed in contrib/exports-*.txt, which make check compares
 * with the libraries (contrib/check-symbols.sh; --update rewrites the lists). */
#define WU_EXPORT __attribute__((visibility("default")))

#define WU_UNUSED          __attribute__((unused))
#define WU_PRINTF(fmt, va) __attribute__((format(printf, fmt, va)))
#define WU_NORETURN        __attribute__((noreturn))
#define WU_LIKELY(x)       __builtin_expect(!!(x), 1)
#define WU_UNLIKELY(x)     __builtin_expect(!!(x), 0)

#define WU_NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Recover the enclosing struct from a pointer to one of its members. */
#define WU_CONTAINER_OF(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

#endif
