/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_relay.h -- a wired's connections to the daemons it started in the launch tree, whose
 * messages it relays between them and its own parent (wu_rte_relay.c). */
#ifndef WU_RTE_RELAY_H
#define WU_RTE_RELAY_H

#include "mca/ptl/ptl.h"
#include "pmix/rte/wu_rte_dmsg.h"
#include "pmix/rte/wu_rte_internal.h"

typedef struct wu_rte_relay wu_rte_relay_t;
/* Send a message (type, payload) to our parent; rte thread. */
typedef void (*wu_rte_relay_up_fn)(uint32_t type, const void *payload, size_t len, void *arg);

/* Not from pt's thread: listen for our children (HELLO with token), on *port; callbacks (up
 * among them) run on pt's thread. */
int wu_rte_relay_open(wu_progress_t *pt, const char *token, wu_rte_relay_up_fn up, void *arg,
                      wu_rte_relay_t **out, unsigned *port);
/* Not from pt's thread, before tree's agents start: the children to accept (tree outlives r). */
int wu_rte_relay_set_tree(wu_rte_relay_t *r, const wu_rte_tree_t *tree);
/* pt's thread: pass a FWD_DOWN envelope (as received) on towards map node dest, or to every
 * child (WU_DMSG_ALL). */
void wu_rte_relay_down(wu_rte_relay_t *r, uint32_t dest, const void *env, size_t len);
/* Has chunk's first daemon connected? (pt's thread) */
bool wu_rte_relay_connected(const wu_rte_relay_t *r, uint32_t chunk);
/* Not from pt's thread: wait up to `wait` seconds for the children to close, close the rest and free r
 * (NULL: no-op). */
void wu_rte_relay_close(wu_rte_relay_t *r, double wait);

#endif
