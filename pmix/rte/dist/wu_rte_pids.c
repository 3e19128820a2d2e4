/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pids.c -- the pids of a multi-node job's ranks on every node, for the proc tables the
 * PMIx server answers (PMIX_QUERY_PROC_TABLE): a rank of this node is the server's client, one
 * of another node is known only from its daemon.
 *
 * Once a node's ranks are started, its launcher sends their pids (PIDS: a count, then rank and
 * pid pairs): a daemon to wrun, which records them and passes them on to every other daemon;
 * wrun sends its own node's the same way. The table is filled on the rte thread and read by the
 * server's thread (wu_server_set_pid_hook); it lives until wu_rte_finalize, so that a reader
 * never meets a freed one. It holds the launcher's job (a spawned job's pids are not kept). */
#include "pmix/rte/dist/wu_rte_dmsg.h"
#include "pmix/rte/dist/wu_rte_dist.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char nspace[PMIX_MAX_NSLEN + 1];
    uint32_t np;
    atomic_int pid[]; /* per rank, 0: not known */
} pid_table_t;

static _Atomic(pid_table_t *) table = NULL;

void wu_rte_pids_start(const char *nspace, uint32_t np)
{
    pid_table_t *t;
    if (NULL != atomic_load(&table)) {
        return; /* the launcher's job's (the first); spawned jobs are not kept */
    }
    t = calloc(1, sizeof *t + (size_t)np * sizeof t->pid[0]);
    if (NULL == t) {
        return; /* the proc tables then lack other nodes' pids */
    }
    snprintf(t->nspace, sizeof t->nspace, "%s", nspace);
    t->np = np;
    atomic_store(&table, t);
}

pmix_status_t wu_rte_pids_local(const rte_job_t *job, wu_dmsg_t *m)
{
    pid_table_t *t = atomic_load(&table);
    uint32_t n = 0;
    pmix_status_t rc;
    for (uint32_t i = 0; NULL != job->pls && i < job->nlocal; i++) {
        n += job->pls->procs[i].pid > 0 ? 1 : 0;
    }
    rc = wu_dmsg_put_u32(m, n);
    for (uint32_t i = 0; NULL != job->pls && i < job->nlocal && PMIX_SUCCESS == rc; i++) {
        pid_t pid = job->pls->procs[i].pid;
        uint32_t rank = job->lranks[i];
        if (pid <= 0) {
            continue; /* it could not be started */
        }
        if (NULL != t && rank < t->np && PMIX_CHECK_NSPACE(t->nspace, job->nspace)) {
            atomic_store(&t->pid[rank], (int)pid);
        }
        rc = wu_dmsg_put_u32(m, rank);
        rc = PMIX_SUCCESS == rc ? wu_dmsg_put_i32(m, (int32_t)pid) : rc;
    }
    return rc;
}

bool wu_rte_pids_apply(wu_dmsg_t *m, const char *nspace, rte_job_t *job, uint32_t node)
{
    pid_table_t *t = atomic_load(&table);
    const wu_rte_jobmap_t *map = NULL != job ? job->map : NULL;
    uint32_t n = 0;
    if (PMIX_SUCCESS != wu_dmsg_get_u32(m, &n)) {
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t rank = 0;
        int32_t pid = 0;
        if (PMIX_SUCCESS != wu_dmsg_get_u32(m, &rank) || PMIX_SUCCESS != wu_dmsg_get_i32(m, &pid) ||
            pid <= 0 ||
            (NULL != map &&
             (rank >= map->np || (UINT32_MAX != node && map->procs[rank].node != node)))) {
            return false; /* not what a daemon of ours sends */
        }
        if (NULL != t && rank < t->np && PMIX_CHECK_NSPACE(t->nspace, nspace)) {
            atomic_store(&t->pid[rank], (int)pid);
        }
        if (NULL != job && 0 == job->procs[rank].pid) {
            job->procs[rank].pid = (pid_t)pid; /* started (wu_rte_run_child waits for it) */
        }
    }
    return true;
}

pid_t wu_rte_pids_lookup(const char *nspace, pmix_rank_t rank)
{
    pid_table_t *t = atomic_load(&table);
    if (NULL == t || rank >= t->np || 0 != strncmp(nspace, t->nspace, PMIX_MAX_NSLEN)) {
        return 0;
    }
    return (pid_t)atomic_load(&t->pid[rank]);
}

void wu_rte_pids_free(void)
{
    free(atomic_exchange(&table, NULL));
}
