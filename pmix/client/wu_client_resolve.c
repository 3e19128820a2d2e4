/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_resolve.c -- PMIx_Resolve_peers and PMIx_Resolve_nodes.
 *
 * The rules (docs/architecture.md, "Resolving") are applied by gds to the
 * data this client holds: unknown namespace -> PMIX_ERR_INVALID_NAMESPACE; a node the namespace
 * does not use -> PMIX_SUCCESS, NULL, 0; a namespace without nodes -> PMIX_SUCCESS, NULL; the
 * node's PMIX_LOCAL_PEERS when the host gave it. Beyond the seed: when PMIX_LOCAL_PEERS is
 * absent the peers are rebuilt, by gds from per-rank hostnames, else here from the job's
 * PMIX_NODE_MAP and PMIX_PROC_MAP (pmix/common/wu_regex.h); only when neither exists is the
 * answer PMIX_ERR_DATA_VALUE_NOT_FOUND. The node list likewise falls back to PMIX_NODE_MAP.
 *
 * The client's knowledge is its own job plus the namespaces whose job-level data it cached.
 * Asked about another namespace, a connected client first fetches that namespace's job-level
 * data from the server (an RFC0009 Get of its PMIX_JOB_SIZE) and then answers locally. A NULL or
 * empty nspace means every namespace the client knows; a NULL nodename means this node. */
#include "opal/util/wu_argv.h"
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_regex.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *node;   /* resolve_peers only */
    const char *nspace; /* NULL: all known */
    bool peers;
    pmix_proc_t *procs;
    size_t nprocs;
    char *nodes;
} res_t;

/* A job-level string of nspace, or NULL. */
static char *job_string(const char *ns, const char *key)
{
    pmix_value_t *v = NULL;
    char *s = NULL;
    if (PMIX_SUCCESS == wu_client.gds->fetch(wu_client.store, ns, PMIX_RANK_WILDCARD, key, &v) &&
        PMIX_STRING == v->type && NULL != v->data.string) {
        s = strdup(v->data.string);
    }
    if (NULL != v) {
        PMIX_VALUE_RELEASE(v);
    }
    return s;
}

/* Peers of ns on node from the maps: PMIX_ERR_DATA_VALUE_NOT_FOUND without usable maps. */
static int peers_from_maps(const char *ns, const char *node, pmix_proc_t **procs, size_t *n)
{
    char *nmap = job_string(ns, PMIX_NODE_MAP), *pmap = job_string(ns, PMIX_PROC_MAP);
    char **nodes = NULL, **ppn = NULL;
    pmix_rank_t *ranks = NULL;
    size_t nranks = 0;
    int rc = PMIX_ERR_DATA_VALUE_NOT_FOUND, idx = -1;

    if (NULL == nmap || NULL == pmap || PMIX_SUCCESS != wu_regex_nodes_decode(nmap, &nodes) ||
        PMIX_SUCCESS != wu_regex_ppn_decode(pmap, &ppn) ||
        wu_argv_count(nodes) != wu_argv_count(ppn)) {
        goto out;
    }
    for (int i = 0; NULL != nodes[i]; i++) {
        if (0 == strcmp(nodes[i], node)) {
            idx = i;
            break;
        }
    }
    *procs = NULL;
    *n = 0;
    rc = PMIX_SUCCESS;
    if (idx < 0 || '\0' == ppn[idx][0]) {
        goto out; /* the node is not the namespace's, or has no process */
    }
    if (PMIX_SUCCESS != (rc = wu_regex_ranks_expand(ppn[idx], &ranks, &nranks))) {
        goto out;
    }
    PMIX_PROC_CREATE(*procs, nranks);
    if (NULL == *procs) {
        rc = PMIX_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < nranks; i++) {
        PMIX_LOAD_PROCID(&(*procs)[i], ns, ranks[i]);
    }
    *n = nranks;
out:
    free(ranks);
    wu_argv_free(nodes);
    wu_argv_free(ppn);
    free(nmap);
    free(pmap);
    return rc;
}

static int peers_one(const char *ns, const char *node, pmix_proc_t **procs, size_t *n)
{
    int rc = wu_client.gds->resolve_peers(wu_client.store, ns, node, procs, n);
    if (PMIX_ERR_DATA_VALUE_NOT_FOUND == rc || (PMIX_SUCCESS == rc && 0 == *n)) {
        pmix_proc_t *mp = NULL;
        size_t mn = 0;
        int mrc = peers_from_maps(ns, node, &mp, &mn);
        if (PMIX_ERR_DATA_VALUE_NOT_FOUND != mrc) {
            if (NULL != *procs) {
                PMIX_PROC_FREE(*procs, *n);
            }
            *procs = mp;
            *n = mn;
            rc = mrc;
        }
    }
    return rc;
}

/* The job's nodes in the order of its node list (PMIX_NODE_LIST), else of its node map, as
 * OpenPMIx's client lists them (the store's order is that of arrival: an OpenPMIx server sends
 * the own node's data first); the store's list where neither is there or the map does not
 * decode. */
static int nodes_one(const char *ns, char **list)
{
    char *nlist = job_string(ns, PMIX_NODE_LIST), *nmap;
    if (NULL != nlist && '\0' != nlist[0]) {
        *list = nlist;
        return PMIX_SUCCESS;
    }
    free(nlist);
    *list = NULL;
    nmap = job_string(ns, PMIX_NODE_MAP);
    if (NULL != nmap && PMIX_ERR_NOMEM == wu_regex_node_list(nmap, list)) {
        free(nmap);
        return PMIX_ERR_NOMEM;
    }
    free(nmap);
    if (NULL != *list) {
        return PMIX_SUCCESS;
    }
    return wu_client.gds->resolve_nodes(wu_client.store, ns, list);
}

/* Append one namespace's answer to r (all-namespaces mode). */
static int merge_peers(res_t *r, pmix_proc_t *p, size_t n)
{
    pmix_proc_t *grown;
    if (0 == n) {
        return PMIX_SUCCESS;
    }
    grown = realloc(r->procs, (r->nprocs + n) * sizeof *grown);
    if (NULL == grown) {
        PMIX_PROC_FREE(p, n);
        return PMIX_ERR_NOMEM;
    }
    memcpy(grown + r->nprocs, p, n * sizeof *p);
    r->procs = grown;
    r->nprocs += n;
    free(p);
    return PMIX_SUCCESS;
}

static int merge_nodes(char ***all, const char *list)
{
    char **names = wu_argv_split(list, ',');
    for (int i = 0; NULL != names && NULL != names[i]; i++) {
        bool seen = false;
        for (int j = 0; NULL != *all && NULL != (*all)[j]; j++) {
            seen = seen || 0 == strcmp((*all)[j], names[i]);
        }
        if (!seen && WU_SUCCESS != wu_argv_append(all, names[i])) {
            wu_argv_free(names);
            return PMIX_ERR_NOMEM;
        }
    }
    wu_argv_free(names);
    return PMIX_SUCCESS;
}

/* Answer from the store (progress thread). */
static int res_local_locked(res_t *r)
{
    char **all = NULL, **known = NULL;
    int rc = PMIX_SUCCESS;
    bool any_missing = false, any = false;

    if (NULL != r->nspace) {
        return r->peers ? peers_one(r->nspace, r->node, &r->procs, &r->nprocs)
                        : nodes_one(r->nspace, &r->nodes);
    }
    if (PMIX_SUCCESS != wu_client.gds->job_nspaces(wu_client.store, &known)) {
        return PMIX_ERR_NOMEM;
    }
    for (char **ns = known; NULL != ns && NULL != *ns && PMIX_SUCCESS == rc; ns++) {
        pmix_proc_t *p = NULL;
        size_t n = 0;
        char *list = NULL;
        int one = r->peers ? peers_one(*ns, r->node, &p, &n) : nodes_one(*ns, &list);
        if (PMIX_ERR_DATA_VALUE_NOT_FOUND == one) {
            any_missing = true;
            continue;
        }
        if (PMIX_SUCCESS != one) {
            continue; /* a namespace this client cannot describe adds nothing */
        }
        any = true;
        if (r->peers) {
            rc = merge_peers(r, p, n);
        } else if (NULL != list) {
            rc = merge_nodes(&all, list);
            free(list);
        }
    }
    if (PMIX_SUCCESS == rc && !r->peers && NULL != all) {
        r->nodes = wu_argv_join(all, ',');
        rc = NULL == r->nodes ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    }
    wu_argv_free(all);
    wu_argv_free(known);
    if (PMIX_SUCCESS == rc && !any && any_missing) {
        rc = PMIX_ERR_DATA_VALUE_NOT_FOUND;
    }
    return rc;
}

/* The answer from the store, read under its lock. */
static int res_local(res_t *r)
{
    int rc;
    wu_client_store_rdlock();
    rc = res_local_locked(r);
    wu_client_store_unlock();
    return rc;
}

static void fetched(int status, wu_buffer_t *reply, void *cbdata)
{
    wu_wait_call_t *call = cbdata;
    res_t *r = call->cbdata;
    if (PMIX_SUCCESS == status) {
        pmix_value_t v;
        pmix_info_t *job = NULL;
        size_t njob = 0;
        int32_t one = 1;
        memset(&v, 0, sizeof v);
        if (PMIX_SUCCESS == wu_unpack(reply, &v, &one, PMIX_VALUE) &&
            PMIX_SUCCESS == wu_proto_unpack_list(reply, (void **)&job, &njob, PMIX_INFO)) {
            /* on failure the namespace stays unknown and res_local says so */
            wu_client_store_wrlock();
            (void)wu_client.gds->import_job(wu_client.store, r->nspace, job, njob);
            wu_client_store_unlock();
        }
        PMIx_Value_destruct(&v);
        if (NULL != job) {
            PMIX_INFO_FREE(job, njob);
        }
    }
    /* whatever the server said, the store now answers (unknown: INVALID_NAMESPACE) */
    wu_wait_call_done(call, res_local(r));
}

static void res_fn(wu_wait_call_t *call)
{
    res_t *r = call->cbdata;
    bool known = false;
    if (NULL != r->nspace) {
        wu_client_store_rdlock();
        known = wu_client.gds->has_proc(wu_client.store, r->nspace, PMIX_RANK_WILDCARD);
        wu_client_store_unlock();
    }
    if (NULL != r->nspace && WU_CLIENT_CONNECTED == wu_client.mode && !known) {
        wu_buffer_t b;
        pmix_proc_t p;
        const char *key = PMIX_JOB_SIZE;
        int rc;
        PMIX_LOAD_PROCID(&p, r->nspace, PMIX_RANK_WILDCARD);
        rc = wu_client_msg_start(&b, WU_CMD_GET);
        if (PMIX_SUCCESS == rc) {
            rc = wu_pack(&b, &p, 1, PMIX_PROC);
        }
        if (PMIX_SUCCESS == rc) {
            rc = wu_pack(&b, &key, 1, PMIX_STRING);
        }
        if (PMIX_SUCCESS == rc) {
            /* an OpenPMIx server would wait for a namespace it does not know to appear: asked
             * not to, it says NOT_FOUND at once (as its own client never asks it) */
            pmix_info_t now;
            PMIX_INFO_LOAD(&now, PMIX_IMMEDIATE, NULL, PMIX_BOOL);
            rc = wu_proto_pack_list(&b, &now, wu_client.opmix ? 1 : 0, PMIX_INFO);
        }
        if (PMIX_SUCCESS != rc) {
            wu_buffer_destruct(&b);
        } else if (PMIX_SUCCESS ==
                   wu_client_request(&b, WU_CLIENT_HANDSHAKE_TIMEOUT, fetched, call)) {
            return;
        }
    }
    wu_wait_call_done(call, res_local(r));
}

static int local_fn(void *arg)
{
    return res_local(arg);
}

static int resolve(res_t *r)
{
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (wu_progress_in_thread(wu_client.pt)) {
        return wu_client_call(local_fn, r); /* from a callback: what is known here */
    }
    return wu_client_wait_call(res_fn, r);
}

pmix_status_t PMIx_Resolve_peers(const char *nodename, const pmix_nspace_t nspace,
                                 pmix_proc_t **procs, size_t *nprocs)
{
    res_t r = {.peers = true};
    int rc;
    if (NULL == procs || NULL == nprocs) {
        return PMIX_ERR_BAD_PARAM;
    }
    *procs = NULL;
    *nprocs = 0;
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    r.node = NULL != nodename ? nodename : wu_client.hostname;
    r.nspace = NULL != nspace && '\0' != nspace[0] ? nspace : NULL;
    rc = resolve(&r);
    if (PMIX_SUCCESS == rc && 0 < r.nprocs) {
        *procs = r.procs;
        *nprocs = r.nprocs;
    } else if (NULL != r.procs) {
        PMIX_PROC_FREE(r.procs, r.nprocs);
    }
    return rc;
}

pmix_status_t PMIx_Resolve_nodes(const pmix_nspace_t nspace, char **nodelist)
{
    res_t r = {.peers = false};
    int rc;
    if (NULL == nodelist) {
        return PMIX_ERR_BAD_PARAM;
    }
    *nodelist = NULL;
    r.nspace = NULL != nspace && '\0' != nspace[0] ? nspace : NULL;
    rc = resolve(&r);
    if (PMIX_SUCCESS == rc) {
        *nodelist = r.nodes;
    } else {
        free(r.nodes);
    }
    return rc;
}
