/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_mapinfo.c -- a client that prints its view of the job, one line per key, sorted by the
 * caller: the job-level keys, each rank's per-process keys, the node's keys, and what
 * PMIx_Resolve_peers / PMIx_Resolve_nodes say. A key the library does not have prints as
 * NOT_FOUND. Values print with their type, so the view under two libraries (or two hosts) can be
 * compared line for line (e2e_maphost.c, maphost.sh); only the line starting with '#' (the
 * library's version) differs by design. Public API only. */
#include <pmix.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pmix_proc_t me;

static void show(const char *who, const char *key, pmix_status_t rc, const pmix_value_t *v)
{
    if (PMIX_SUCCESS != rc) {
        printf("%u %s %s: %s\n", me.rank, who, key,
               PMIX_ERR_NOT_FOUND == rc ? "NOT_FOUND" : PMIx_Error_string(rc));
        return;
    }
    switch (v->type) {
    case PMIX_STRING:
        printf("%u %s %s: string %s\n", me.rank, who, key, v->data.string);
        break;
    case PMIX_UINT32:
        printf("%u %s %s: uint32 %" PRIu32 "\n", me.rank, who, key, v->data.uint32);
        break;
    case PMIX_UINT16:
        printf("%u %s %s: uint16 %u\n", me.rank, who, key, (unsigned)v->data.uint16);
        break;
    case PMIX_PROC_RANK:
        printf("%u %s %s: rank %u\n", me.rank, who, key, v->data.rank);
        break;
    case PMIX_INT:
        printf("%u %s %s: int %d\n", me.rank, who, key, v->data.integer);
        break;
    case PMIX_BOOL:
        printf("%u %s %s: bool %d\n", me.rank, who, key, (int)v->data.flag);
        break;
    case PMIX_PROC:
        printf("%u %s %s: proc %s:%u\n", me.rank, who, key, v->data.proc->nspace,
               v->data.proc->rank);
        break;
    default:
        printf("%u %s %s: type %s\n", me.rank, who, key, PMIx_Data_type_string(v->type));
    }
}

static void get(const pmix_proc_t *p, const char *who, const char *key, pmix_info_t *info,
                size_t ninfo)
{
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(p, key, info, ninfo, &v);
    show(who, key, rc, v);
    if (NULL != v) {
        PMIX_VALUE_RELEASE(v);
    }
}

int main(void)
{
    static const char *const jobkeys[] = {PMIX_JOB_SIZE,    PMIX_UNIV_SIZE, PMIX_LOCAL_SIZE,
                                          PMIX_LOCAL_PEERS, PMIX_NODE_LIST, PMIX_NUM_NODES,
                                          PMIX_LOCALLDR,    PMIX_JOBID,     PMIX_MAX_PROCS,
                                          PMIX_APPNUM,      PMIX_SPAWNED,   NULL};
    static const char *const prockeys[] = {
        PMIX_LOCAL_RANK, PMIX_NODE_RANK,   PMIX_HOSTNAME, PMIX_NODEID,
        PMIX_APPNUM,     PMIX_GLOBAL_RANK, PMIX_APP_RANK, NULL};
    static const char *const nodekeys[] = {PMIX_LOCAL_PEERS, PMIX_LOCAL_SIZE, PMIX_NODE_SIZE,
                                           PMIX_LOCALLDR, NULL};
    pmix_proc_t p, *peers = NULL;
    pmix_value_t *v = NULL;
    pmix_info_t ninfo[2];
    char host[256], *nodes = NULL, who[32];
    uint32_t size = 0;
    size_t npeers = 0;
    pmix_status_t rc;

    if (PMIX_SUCCESS != (rc = PMIx_Init(&me, NULL, 0))) {
        fprintf(stderr, "mapinfo: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    gethostname(host, sizeof host);
    host[sizeof host - 1] = '\0';
    printf("# rank %u library %s\n", me.rank, PMIx_Get_version()); /* not compared */
    PMIX_LOAD_PROCID(&p, me.nspace, PMIX_RANK_WILDCARD);
    for (int i = 0; NULL != jobkeys[i]; i++) {
        get(&p, "job", jobkeys[i], NULL, 0);
    }
    if (PMIX_SUCCESS == PMIx_Get(&p, PMIX_JOB_SIZE, NULL, 0, &v) && PMIX_UINT32 == v->type) {
        size = v->data.uint32;
    }
    if (NULL != v) {
        PMIX_VALUE_RELEASE(v);
    }
    for (uint32_t r = 0; r < size && r < 64; r++) {
        PMIX_LOAD_PROCID(&p, me.nspace, r);
        snprintf(who, sizeof who, "rank%u", r);
        for (int i = 0; NULL != prockeys[i]; i++) {
            get(&p, who, prockeys[i], NULL, 0);
        }
    }
    /* the node's own data, asked by hostname */
    PMIX_INFO_LOAD(&ninfo[0], PMIX_NODE_INFO, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&ninfo[1], PMIX_HOSTNAME, host, PMIX_STRING);
    PMIX_LOAD_PROCID(&p, me.nspace, PMIX_RANK_WILDCARD);
    for (int i = 0; NULL != nodekeys[i]; i++) {
        get(&p, "node", nodekeys[i], ninfo, 2);
    }
    PMIX_INFO_DESTRUCT(&ninfo[0]);
    PMIX_INFO_DESTRUCT(&ninfo[1]);
    rc = PMIx_Resolve_peers(host, me.nspace, &peers, &npeers);
    printf("%u resolve peers: %s %zu", me.rank, PMIx_Error_string(rc), npeers);
    for (size_t i = 0; i < npeers; i++) {
        printf(" %u", peers[i].rank);
    }
    printf("\n");
    if (NULL != peers) {
        PMIX_PROC_FREE(peers, npeers);
    }
    rc = PMIx_Resolve_nodes(me.nspace, &nodes);
    printf("%u resolve nodes: %s %s\n", me.rank, PMIx_Error_string(rc),
           NULL == nodes ? "(none)" : (0 == strcmp(nodes, host) ? "this host" : nodes));
    free(nodes);
    fflush(stdout);
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "mapinfo: PMIx_Fence: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    PMIx_Finalize(NULL, 0);
    return 0;
}
