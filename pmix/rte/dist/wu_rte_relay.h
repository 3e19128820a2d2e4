/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_relay.h -- a wired's connections to the daemons it started in the launch tree, whose
 * messages it relays between them and its own parent (wu_rte_relay.c). */
#ifndef WU_RTE_RELAY_H
#define WU_RTE_RELAY_H

#include "mca/ptl/ptl.h"
#include "pmix/rte/dist/wu_rte_dmsg.h"
#include "pmix/rte/dist/wu_rte_dist.h"

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

/* pt's thread, once the job is known: the map, for combining its fences. */
void wu_rte_relay_set_job(wu_rte_relay_t *r, const char *nspace, const wu_rte_jobmap_t *map);

/* wu_rte_relay_coll.c: the fences of a relay's branch, combined (the relay's thread). */
typedef struct wu_rte_rcolls wu_rte_rcolls_t;
/* For the branch tree (which outlives it); FENCE_AGG and relayed FENCE go to up. */
wu_rte_rcolls_t *wu_rte_rcolls_new(const wu_rte_tree_t *tree, wu_rte_relay_up_fn up, void *arg);
void wu_rte_rcolls_free(wu_rte_rcolls_t *c);
int wu_rte_rcolls_set_job(wu_rte_rcolls_t *c, const char *nspace, const wu_rte_jobmap_t *map);
/* A FENCE payload of map node `node`: true if held (or sent up combined), false if it is to go
 * on as it came. */
bool wu_rte_rcolls_fence(wu_rte_rcolls_t *c, uint32_t node, const void *p, size_t n);
/* A FENCE_AGG payload of the child relay of chunk `chunk`; false if it does not decode or names
 * a node outside that chunk (what was read before is handled). */
bool wu_rte_rcolls_agg(wu_rte_rcolls_t *c, uint32_t chunk, const void *p, size_t n);
/* A rank of the branch ended, a node of it is gone: fences it blocks go up as they are. */
void wu_rte_rcolls_rank_ended(wu_rte_rcolls_t *c, uint32_t rank);
void wu_rte_rcolls_node_gone(wu_rte_rcolls_t *c, uint32_t node);
/* A FENCE_DONE payload on its way down: if it failed, what is held of its set goes up. */
void wu_rte_rcolls_done(wu_rte_rcolls_t *c, const void *p, size_t n);

#endif
