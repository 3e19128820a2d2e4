/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_wired.h -- what wired's main calls: the daemon of one node of a job across nodes. */
#ifndef WU_RTE_WIRED_H
#define WU_RTE_WIRED_H

#include "opal/util/wu_macros.h"

#include <stdint.h>

/* How wired was started (its command line and the token from its standard input). */
typedef struct wu_rte_daemon_args {
    uint32_t node;      /* its node in the job map */
    unsigned port;      /* wrun's */
    const char *addrs;  /* wrun's addresses, comma-separated (NULL: only the ssh client's) */
    const char *token;  /* the job's secret */
    uint32_t radix;     /* the launch tree's radix, for the subtree it starts */
    const char *spawn;  /* the daemons of its subtree, "K:host,..." (NULL: none) */
    const char *prefix; /* --prefix of wrun: where Wireup is on the other nodes (NULL: here) */
} wu_rte_daemon_args_t;
/* wired: serve its node of the job of the wrun listening on port (at the address the ssh
 * connection came from, or one of addrs), authenticated by token, after starting the daemons
 * of its subtree; after wu_rte_init. Returns wired's exit status. */
WU_EXPORT int wu_rte_daemon_main(const wu_rte_daemon_args_t *args);

#endif
