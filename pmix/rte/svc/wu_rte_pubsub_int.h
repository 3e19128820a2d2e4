/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pubsub_int.h -- shared by the two parts of the data service: the store on the head
 * (wu_rte_pubsub.c) and the requests that reach it (wu_rte_pubsub_req.c). Rte thread. */
#ifndef WU_RTE_PUBSUB_INT_H
#define WU_RTE_PUBSUB_INT_H

#include "pmix/rte/svc/wu_rte_pubsub.h"
#include "pmix/rte/svc/wu_rte_svc.h"
#include "pmix.h"

#include <stdint.h>

/* Who asks: the process, its node's name (jobs map their nodes differently), its user and
 * group. */
typedef struct {
    pmix_proc_t proc;
    char node[256];
    uint32_t uid, gid;
} who_t;

typedef void (*lookup_done_fn)(pmix_status_t st, pmix_pdata_t *pd, size_t n, void *arg);

/* The store's operations for w, with the request's keys and directives: publish every datum of
 * info (all or none); look keys up, done(arg) called with what was found (maybe later: PMIX_WAIT);
 * unpublish keys. */
pmix_status_t wu_rte_ps_publish(const who_t *w, const pmix_info_t *info, size_t n);
void wu_rte_ps_lookup(const who_t *w, char **keys, const pmix_info_t *info, size_t n,
                      lookup_done_fn done, void *arg);
pmix_status_t wu_rte_ps_unpublish(const who_t *w, char **keys, const pmix_info_t *info, size_t n);

#endif
