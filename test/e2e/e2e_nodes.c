/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_nodes.c -- `wrun -H a,b,c -np N e2e_nodes NNODES`: what a client sees of a job that spans
 * nodes (public PMIx API only; also built against OpenPMIx's headers by multinode.sh).
 *   - its node: PMIX_NUM_NODES is NNODES; PMIX_HOSTNAME, PMIX_NODEID, PMIX_LOCAL_RANK,
 *     PMIX_NODE_RANK, PMIX_LOCAL_SIZE and PMIX_LOCAL_PEERS agree with PMIx_Resolve_peers of its
 *     host; PMIx_Resolve_nodes lists NNODES nodes, as the job-level PMIX_NODE_LIST does, and
 *     Resolve_peers of all of them together cover every rank exactly once; printed as "nodes rank R host H nodeid I local L/S peers P";
 *   - direct modex: each rank Puts and Commits a key, then Gets the next rank's without a fence
 *     (it may live on another node: the request goes to that node's server);
 *   - a collecting fence with 64 KiB per rank, every peer's blob checked byte for byte;
 *   - PMIX_QUERY_PROC_TABLE after it lists every rank with the host and the pid that rank
 *     Put before the fence (the pids of other nodes come from their daemons);
 *   - an event of range namespace notified by rank 0 is seen by every other rank, on every node.
 * Prints "nodes rank R: ok" at the end. */
#include "e2e_util.h"

#include <stdint.h>

#define BLOB       (64 * 1024)
#define EVENT_CODE (PMIX_EXTERNAL_ERR_BASE - 7)

static volatile int event_seen = 0;
static volatile pmix_rank_t event_from = PMIX_RANK_INVALID;

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                     size_t ninfo, pmix_info_t results[], size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    if (EVENT_CODE == status) {
        event_from = source->rank;
        event_seen = 1;
    }
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

static void on_registered(pmix_status_t status, size_t ref, void *cbdata)
{
    (void)ref;
    *(volatile int *)cbdata = PMIX_SUCCESS == status ? 1 : -1;
}

static uint32_t get_u32(const char *key, pmix_rank_t rank)
{
    pmix_status_t st;
    pmix_value_t *v = e2e_get(e2e_me.nspace, rank, key, NULL, 0, &st);
    uint32_t out = 0;
    E2E_CHECK(NULL != v, "Get %s: %s", key, PMIx_Error_string(st));
    switch (v->type) {
    case PMIX_UINT32:
        out = v->data.uint32;
        break;
    case PMIX_UINT16:
        out = v->data.uint16;
        break;
    default:
        e2e_fail("Get %s: unexpected type %d", key, (int)v->type);
    }
    PMIX_VALUE_RELEASE(v);
    return out;
}

static char *get_str(const char *key, pmix_rank_t rank)
{
    pmix_status_t st;
    pmix_value_t *v = e2e_get(e2e_me.nspace, rank, key, NULL, 0, &st);
    char *out;
    E2E_CHECK(NULL != v && PMIX_STRING == v->type && NULL != v->data.string, "Get %s: %s", key,
              PMIx_Error_string(st));
    out = strdup(v->data.string);
    PMIX_VALUE_RELEASE(v);
    return out;
}

/* Ranks of "0,3,5" into a bitmap of size n; returns how many. */
static unsigned mark_ranks(const pmix_proc_t *procs, size_t nprocs, unsigned char *seen, uint32_t n)
{
    unsigned count = 0;
    for (size_t i = 0; i < nprocs; i++) {
        E2E_CHECK(procs[i].rank < n, "rank %u out of range", procs[i].rank);
        seen[procs[i].rank]++;
        count++;
    }
    return count;
}

/* PMIX_QUERY_PROC_TABLE of our job: every rank once, with the host and pid it has (its
 * PMIX_HOSTNAME, and its "nodes.pid" put before the collecting fence). */
static void check_proc_table(uint32_t size)
{
    pmix_query_t q;
    pmix_info_t *res = NULL;
    size_t nres = 0;
    const pmix_data_array_t *da = NULL;
    pmix_status_t st;
    PMIX_QUERY_CONSTRUCT(&q);
    q.keys = calloc(2, sizeof(char *));
    E2E_CHECK(NULL != q.keys && NULL != (q.keys[0] = strdup(PMIX_QUERY_PROC_TABLE)),
              "out of memory");
    PMIX_INFO_CREATE(q.qualifiers, 1);
    q.nqual = 1;
    PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_NSPACE, e2e_me.nspace, PMIX_STRING);
    st = PMIx_Query_info(&q, 1, &res, &nres);
    PMIX_QUERY_DESTRUCT(&q);
    E2E_CHECK(PMIX_SUCCESS == st, "PMIx_Query_info(proc table): %s", PMIx_Error_string(st));
    for (size_t i = 0; i < nres; i++) {
        if (PMIX_CHECK_KEY(&res[i], PMIX_QUERY_PROC_TABLE) &&
            PMIX_DATA_ARRAY == res[i].value.type) {
            da = res[i].value.data.darray;
        }
    }
    E2E_CHECK(NULL != da && PMIX_PROC_INFO == da->type && size == da->size,
              "proc table: no array of %u PMIX_PROC_INFO", size);
    for (size_t i = 0; i < da->size; i++) {
        const pmix_proc_info_t *pi = &((const pmix_proc_info_t *)da->array)[i];
        pmix_value_t *pid, *host;
        E2E_CHECK(pi->proc.rank < size, "proc table: rank %u", pi->proc.rank);
        pid = e2e_get(e2e_me.nspace, pi->proc.rank, "nodes.pid", NULL, 0, &st);
        host = e2e_get(e2e_me.nspace, pi->proc.rank, PMIX_HOSTNAME, NULL, 0, &st);
        E2E_CHECK(NULL != pid && NULL != host && PMIX_STRING == host->type, "rank %u's data",
                  pi->proc.rank);
        E2E_CHECK(pid->data.int32 == (int32_t)pi->pid,
                  "proc table: rank %u has pid %ld, it says it is %d", pi->proc.rank, (long)pi->pid,
                  pid->data.int32);
        E2E_CHECK(NULL != pi->hostname && 0 == strcmp(pi->hostname, host->data.string),
                  "proc table: rank %u on '%s', it is on '%s'", pi->proc.rank,
                  NULL != pi->hostname ? pi->hostname : "(none)", host->data.string);
        PMIX_VALUE_RELEASE(pid);
        PMIX_VALUE_RELEASE(host);
    }
    PMIX_INFO_FREE(res, nres);
}

int main(int argc, char **argv)
{
    uint32_t nnodes = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 0, size, nn, lrank, lsize,
             nodeid;
    char *host, *peers, *nodes = NULL, key[64];
    pmix_proc_t *procs = NULL, wild;
    size_t nprocs = 0;
    unsigned char *seen;
    pmix_info_t collect;
    pmix_value_t val;
    pmix_byte_object_t bo;
    char *blob;
    pmix_status_t code = EVENT_CODE;
    volatile int registered = 0;
    bool flag = true;

    e2e_step("init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    size = get_u32(PMIX_JOB_SIZE, PMIX_RANK_WILDCARD);
    nn = get_u32(PMIX_NUM_NODES, PMIX_RANK_WILDCARD);
    E2E_CHECK(0 == nnodes || nn == nnodes, "PMIX_NUM_NODES is %u, expected %u", nn, nnodes);

    e2e_step("node data");
    host = get_str(PMIX_HOSTNAME, e2e_me.rank);
    nodeid = get_u32(PMIX_NODEID, e2e_me.rank);
    lrank = get_u32(PMIX_LOCAL_RANK, e2e_me.rank);
    E2E_CHECK(lrank == get_u32(PMIX_NODE_RANK, e2e_me.rank), "node rank differs from local rank");
    lsize = get_u32(PMIX_LOCAL_SIZE, PMIX_RANK_WILDCARD);
    peers = get_str(PMIX_LOCAL_PEERS, PMIX_RANK_WILDCARD);
    {
        char myhost[256] = "";
        gethostname(myhost, sizeof myhost - 1);
        E2E_CHECK(0 == strcmp(myhost, host), "PMIX_HOSTNAME %s but running on %s", host, myhost);
    }
    E2E_RC(PMIx_Resolve_peers(host, e2e_me.nspace, &procs, &nprocs), "Resolve_peers(own host)");
    E2E_CHECK(nprocs == lsize && lrank < lsize, "Resolve_peers(%s) gave %zu procs, LOCAL_SIZE %u",
              host, nprocs, lsize);
    {
        /* LOCAL_PEERS is the same set, in the same order */
        char list[4096] = "";
        for (size_t i = 0; i < nprocs; i++) {
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%u", i > 0 ? "," : "",
                     procs[i].rank);
        }
        E2E_CHECK(0 == strcmp(list, peers), "LOCAL_PEERS %s but Resolve_peers %s", peers, list);
    }
    PMIX_PROC_FREE(procs, nprocs);

    e2e_step("resolve every node");
    E2E_RC(PMIx_Resolve_nodes(e2e_me.nspace, &nodes), "Resolve_nodes");
    seen = calloc(size, 1);
    E2E_CHECK(NULL != seen && NULL != nodes, "out of memory");
    {
        unsigned count = 0, total = 0;
        char *save = NULL, *copy = strdup(nodes);
        for (char *n = strtok_r(copy, ",", &save); NULL != n; n = strtok_r(NULL, ",", &save)) {
            E2E_RC(PMIx_Resolve_peers(n, e2e_me.nspace, &procs, &nprocs), "Resolve_peers(node)");
            total += mark_ranks(procs, nprocs, seen, size);
            PMIX_PROC_FREE(procs, nprocs);
            count++;
        }
        free(copy);
        E2E_CHECK(0 == nnodes || count == nnodes, "Resolve_nodes gave %u nodes (%s)", count, nodes);
        /* the job-level node list names the same nodes in the same order */
        copy = e2e_get_str(e2e_me.nspace, PMIX_RANK_WILDCARD, PMIX_NODE_LIST);
        E2E_CHECK(NULL != copy && 0 == strcmp(copy, nodes), "PMIX_NODE_LIST '%s', nodes '%s'",
                  NULL != copy ? copy : "(null)", nodes);
        free(copy);
        E2E_CHECK(total == size, "the nodes' peers add up to %u ranks, not %u", total, size);
        for (uint32_t r = 0; r < size; r++) {
            E2E_CHECK(1 == seen[r], "rank %u is on %d nodes", r, seen[r]);
        }
    }
    e2e_note("nodes rank %u host %s nodeid %u local %u/%u peers %s", e2e_me.rank, host, nodeid,
             lrank, lsize, peers);

    e2e_step("register the event handler");
    E2E_RC(PMIx_Register_event_handler(&code, 1, NULL, 0, on_event, on_registered,
                                       (void *)&registered),
           "PMIx_Register_event_handler");
    while (0 == registered) {
        usleep(1000);
    }
    E2E_CHECK(1 == registered, "the event handler was refused");

    e2e_step("direct modex");
    snprintf(key, sizeof key, "nodes.early");
    val.type = PMIX_UINT32;
    val.data.uint32 = 1000 + e2e_me.rank;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, key, &val), "Put early");
    E2E_RC(PMIx_Commit(), "Commit early");
    {
        pmix_rank_t next = (e2e_me.rank + 1) % size;
        pmix_status_t st;
        pmix_value_t *v = e2e_get(e2e_me.nspace, next, key, NULL, 0, &st);
        E2E_CHECK(NULL != v && PMIX_UINT32 == v->type && 1000 + next == v->data.uint32,
                  "direct modex of rank %u's key: %s", next, PMIx_Error_string(st));
        PMIX_VALUE_RELEASE(v);
    }

    e2e_step("collecting fence, 64 KiB per rank");
    blob = malloc(BLOB);
    E2E_CHECK(NULL != blob, "out of memory");
    for (size_t i = 0; i < BLOB; i++) {
        blob[i] = (char)(i * 7 + e2e_me.rank);
    }
    bo.bytes = blob;
    bo.size = BLOB;
    val.type = PMIX_BYTE_OBJECT;
    val.data.bo = bo;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "nodes.blob", &val), "Put blob");
    val.type = PMIX_INT32;
    val.data.int32 = (int32_t)getpid();
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "nodes.pid", &val), "Put pid");
    E2E_RC(PMIx_Commit(), "Commit blob");
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &flag, PMIX_BOOL);
    PMIX_LOAD_PROCID(&wild, e2e_me.nspace, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Fence(&wild, 1, &collect, 1), "PMIx_Fence(collect)");
    for (uint32_t r = 0; r < size; r++) {
        pmix_status_t st;
        pmix_value_t *v = e2e_get(e2e_me.nspace, r, "nodes.blob", NULL, 0, &st);
        E2E_CHECK(NULL != v && PMIX_BYTE_OBJECT == v->type && BLOB == v->data.bo.size,
                  "rank %u's blob: %s", r, PMIx_Error_string(st));
        for (size_t i = 0; i < BLOB; i++) {
            E2E_CHECK((char)(i * 7 + r) == v->data.bo.bytes[i], "rank %u's blob differs at %zu", r,
                      i);
        }
        PMIX_VALUE_RELEASE(v);
    }

    e2e_step("proc table");
    check_proc_table(size);

    e2e_step("namespace event from rank 0");
    if (0 == e2e_me.rank) {
        E2E_RC(PMIx_Notify_event(EVENT_CODE, &e2e_me, PMIX_RANGE_NAMESPACE, NULL, 0, NULL, NULL),
               "PMIx_Notify_event");
    } else {
        double until = e2e_now() + 20;
        while (!event_seen && e2e_now() < until) {
            usleep(2000);
        }
        E2E_CHECK(event_seen && 0 == event_from, "no event from rank 0 within 20 s (seen %d)",
                  event_seen);
    }
    e2e_step("final fence");
    E2E_RC(PMIx_Fence(&wild, 1, NULL, 0), "PMIx_Fence");
    e2e_step("finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("nodes rank %u: ok\n", e2e_me.rank);
    free(blob);
    free(seen);
    free(nodes);
    free(host);
    free(peers);
    return 0;
}
