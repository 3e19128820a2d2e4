/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_self.c -- where the server process's own-data hooks are kept (wu_self.h). */
#include "pmix/common/wu_self.h"

#include <stdatomic.h>

static _Atomic(const wu_self_hooks_t *) hooks;

void wu_self_hooks_set(const wu_self_hooks_t *h)
{
    atomic_store_explicit(&hooks, h, memory_order_release);
}

const wu_self_hooks_t *wu_self_hooks(void)
{
    return atomic_load_explicit(&hooks, memory_order_acquire);
}
