/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_cmds.c -- the requests that mostly go to the host: ABORT, JOB_CONTROL (cleanup
 * registration is handled here; a tool, which has no job, may not register any), QUERY (namespaces, job size, proc tables and the query keys
 * answered here; the rest goes to the host), LOG (the host's log upcall, else plog) and SPAWN
 * (the host's spawn upcall). */
#include "mca/plog/base/plog_base.h"
#include "pmix/common/wu_ompi_help.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_output.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/server/wu_server.h"

#include "pmix.h"

#include <stdlib.h>
#include <string.h>

/* The query keys this server answers itself (PMIX_QUERY_ATTRIBUTE_SUPPORT's answer). */
#define SRV_QUERY_KEYS                                                \
    PMIX_QUERY_NAMESPACES "," PMIX_JOB_SIZE "," PMIX_QUERY_PROC_TABLE \
                          "," PMIX_QUERY_LOCAL_PROC_TABLE "," PMIX_QUERY_ATTRIBUTE_SUPPORT

static void status_done(wu_srv_op_t *op)
{
    wu_srv_reply(op->conn, op->tag, op->status, NULL);
}

/* ---- ABORT ----------------------------------------------------------------------------------- */

int wu_srv_cmd_abort(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    wu_srv_client_t *cl = wu_srv_client_find(&peer->proc);
    pmix_status_t status = 0, rc = PMIX_ERR_BAD_PARAM;
    char *msg = NULL;
    pmix_proc_t *procs = NULL;
    size_t nprocs = 0;
    wu_srv_op_t *op;

    if (PMIX_SUCCESS != wu_srv_unpack1(b, &status, PMIX_STATUS) ||
        PMIX_SUCCESS != wu_srv_unpack1(b, &msg, PMIX_STRING) ||
        PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&procs, &nprocs, PMIX_PROC) ||
        0 != wu_buffer_remaining(b)) {
        goto out;
    }
    if (NULL == cl) {
        rc = PMIX_ERR_NOT_FOUND;
    } else if (NULL == wu_srv.host.abort) {
        rc = PMIX_ERR_NOT_SUPPORTED;
    } else if (NULL == (op = wu_srv_op_new(status_done, peer->conn, tag))) {
        rc = PMIX_ERR_NOMEM;
    } else {
        op->proc = peer->proc;
        rc = wu_srv.host.abort(&op->proc, cl->server_object, status, msg, procs, nprocs,
                               wu_srv_op_cb, op);
        wu_srv_op_started(op, rc);
        rc = PMIX_SUCCESS;
    }
out:
    free(msg);
    free(procs);
    return rc;
}

/* ---- JOB_CONTROL ----------------------------------------------------------------------------- */

static pmix_status_t add_cleanup(wu_srv_nspace_t *ns, const char *paths, bool dir, bool recursive,
                                 uid_t owner)
{
    char **list = wu_argv_split(paths, ',');
    if (NULL == list) {
        return PMIX_ERR_NOMEM;
    }
    for (int i = 0; NULL != list[i]; i++) {
        wu_srv_cleanup_t *c;
        if ('/' != list[i][0]) {
            wu_argv_free(list);
            return PMIX_ERR_BAD_PARAM; /* relative: relative to what? */
        }
        if (NULL == (c = calloc(1, sizeof *c)) || NULL == (c->path = strdup(list[i]))) {
            free(c);
            wu_argv_free(list);
            return PMIX_ERR_NOMEM;
        }
        c->dir = dir;
        c->recursive = recursive;
        c->owner = owner;
        c->next = ns->cleanups;
        ns->cleanups = c;
    }
    wu_argv_free(list);
    return PMIX_SUCCESS;
}

static void jobctl_done(wu_srv_op_t *op)
{
    wu_srv_reply(op->conn, op->tag, op->status, NULL);
}

int wu_srv_cmd_job_control(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    wu_srv_client_t *cl = wu_srv_client_find(&peer->proc);
    wu_srv_nspace_t *ns = wu_srv_nspace_find(peer->proc.nspace);
    pmix_proc_t *targets = NULL;
    pmix_info_t *dirs = NULL;
    size_t ntargets = 0, ndirs = 0, nother = 0;
    bool recursive = false;
    pmix_status_t rc = PMIX_ERR_BAD_PARAM;

    if (PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&targets, &ntargets, PMIX_PROC) ||
        PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&dirs, &ndirs, PMIX_INFO) ||
        0 != wu_buffer_remaining(b)) {
        goto out;
    }
    if ((NULL == cl || NULL == ns) && !peer->tool) {
        rc = PMIX_ERR_NOT_FOUND;
        goto out;
    }
    for (size_t i = 0; i < ndirs; i++) {
        if (PMIX_CHECK_KEY(&dirs[i], PMIX_CLEANUP_RECURSIVE)) {
            recursive = PMIX_INFO_TRUE(&dirs[i]);
        }
    }
    rc = PMIX_SUCCESS;
    for (size_t i = 0; i < ndirs && PMIX_SUCCESS == rc; i++) {
        bool file = PMIX_CHECK_KEY(&dirs[i], PMIX_REGISTER_CLEANUP);
        bool dir = PMIX_CHECK_KEY(&dirs[i], PMIX_REGISTER_CLEANUP_DIR);
        if ((file || dir) && (NULL == cl || NULL == ns)) {
            rc = PMIX_ERR_NOT_SUPPORTED; /* a tool: no job of its own to clean up after */
        } else if (file || dir) {
            if (PMIX_STRING != dirs[i].value.type || NULL == dirs[i].value.data.string) {
                rc = PMIX_ERR_BAD_PARAM;
            } else {
                rc = add_cleanup(ns, dirs[i].value.data.string, dir, recursive, cl->uid);
            }
        } else if (!PMIX_CHECK_KEY(&dirs[i], PMIX_CLEANUP_RECURSIVE)) {
            nother++;
        }
    }
    if (PMIX_SUCCESS == rc && nother > 0) {
        wu_srv_op_t *op;
        if (NULL == wu_srv.host.job_control) {
            rc = PMIX_ERR_NOT_SUPPORTED;
        } else if (NULL == (op = wu_srv_op_new(jobctl_done, peer->conn, tag))) {
            rc = PMIX_ERR_NOMEM;
        } else {
            op->proc = peer->proc;
            rc = wu_srv.host.job_control(&op->proc, targets, ntargets, dirs, ndirs,
                                         wu_srv_op_info_cb, op);
            wu_srv_op_started(op, rc);
            rc = PMIX_SUCCESS; /* answered by jobctl_done, whatever the host said */
            goto out;
        }
    }
    if (PMIX_SUCCESS == rc) {
        wu_srv_reply(peer->conn, tag, PMIX_SUCCESS, NULL);
    }
out:
    free(targets);
    if (NULL != dirs) {
        PMIX_INFO_FREE(dirs, ndirs);
    }
    return rc;
}

/* ---- QUERY ----------------------------------------------------------------------------------- */

typedef struct {
    pmix_info_t *res;
    size_t n, cap;
} results_t;

static pmix_info_t *res_slot(results_t *r)
{
    if (r->n == r->cap) {
        size_t cap = 2 * r->cap + 4;
        pmix_info_t *na;
        PMIX_INFO_CREATE(na, cap);
        if (NULL == na) {
            return NULL;
        }
        for (size_t i = 0; i < r->n; i++) {
            na[i] = r->res[i]; /* move */
        }
        free(r->res);
        r->res = na;
        r->cap = cap;
    }
    return &r->res[r->n++];
}

static void res_free(results_t *r)
{
    if (NULL != r->res) {
        PMIX_INFO_FREE(r->res, r->cap);
    }
    r->res = NULL;
    r->n = r->cap = 0;
}

static const char *qual_nspace(const pmix_query_t *q, const pmix_proc_t *requester)
{
    const pmix_info_t *ns = wu_info_find(q->qualifiers, q->nqual, PMIX_NSPACE);
    if (NULL != ns && PMIX_STRING == ns->value.type && NULL != ns->value.data.string) {
        return ns->value.data.string;
    }
    return requester->nspace;
}

static bool proc_table(results_t *r, const char *key, const char *nspace, bool local_only)
{
    wu_srv_nspace_t *ns = wu_srv_nspace_find(nspace);
    pmix_proc_info_t *pi;
    pmix_data_array_t da;
    pmix_info_t *slot;
    size_t n = 0, cap;

    if (NULL == ns || !ns->registered) {
        return false;
    }
    cap = (!local_only && ns->has_size) ? ns->size : 0;
    cap += wu_srv_nspace_nclients(nspace);
    PMIX_PROC_INFO_CREATE(pi, cap > 0 ? cap : 1);
    if (NULL == pi) {
        return false;
    }
    for (pmix_rank_t rk = 0; !local_only && ns->has_size && rk < ns->size; rk++) {
        pmix_proc_t p;
        pmix_value_t *v = NULL;
        PMIX_LOAD_PROCID(&p, nspace, rk);
        pi[n].proc = p;
        pi[n].state = PMIX_PROC_STATE_RUNNING;
        pi[n].pid = wu_srv_host_pid(nspace, rk); /* a client of ours: its own below */
        if (PMIX_SUCCESS == wu_srv.gds->fetch(wu_srv.store, nspace, rk, PMIX_HOSTNAME, &v)) {
            if (PMIX_STRING == v->type && NULL != v->data.string) {
                pi[n].hostname = strdup(v->data.string);
            }
            PMIX_VALUE_RELEASE(v);
        }
        n++;
    }
    for (wu_srv_client_t *cl = wu_srv.clients; NULL != cl; cl = cl->next) {
        size_t k;
        if (!PMIX_CHECK_NSPACE(cl->proc.nspace, nspace)) {
            continue;
        }
        for (k = 0; k < n && pi[k].proc.rank != cl->proc.rank; k++) {
        }
        if (k == n) {
            pi[n++].proc = cl->proc;
        }
        free(pi[k].hostname);
        pi[k].hostname = strdup(wu_srv.hostname);
        if (cl->pid <= 0) {
            /* a client that did not say (OpenPMIx's clients do not): the host's record, which
             * may have come after the client connected */
            cl->pid = wu_srv_host_pid(cl->proc.nspace, cl->proc.rank);
        }
        pi[k].pid = cl->pid > 0 ? cl->pid : 0;
        pi[k].state = WU_SRV_CL_CONNECTED == cl->state    ? PMIX_PROC_STATE_CONNECTED
                      : WU_SRV_CL_FINALIZED == cl->state  ? PMIX_PROC_STATE_TERMINATED
                      : WU_SRV_CL_TERMINATED == cl->state ? PMIX_PROC_STATE_TERM_WO_SYNC
                                                          : PMIX_PROC_STATE_RUNNING;
    }
    da.type = PMIX_PROC_INFO;
    da.size = n;
    da.array = pi;
    slot = res_slot(r);
    if (NULL != slot) {
        PMIx_Info_load(slot, key, &da, PMIX_DATA_ARRAY); /* deep copy */
    }
    PMIX_PROC_INFO_FREE(pi, cap > 0 ? cap : 1);
    return NULL != slot;
}

/* Answer key of q here if possible. */
static bool query_one(results_t *r, const pmix_query_t *q, const char *key, const pmix_proc_t *req)
{
    const char *nspace = qual_nspace(q, req);
    pmix_info_t *slot;

    if (0 == strcmp(key, PMIX_QUERY_NAMESPACES)) {
        char **names = NULL, *all;
        for (wu_srv_nspace_t *ns = wu_srv.nspaces; NULL != ns; ns = ns->next) {
            if (ns->registered) {
                (void)wu_argv_append(&names, ns->name);
            }
        }
        all = wu_argv_join(names, ',');
        wu_argv_free(names);
        if (NULL == all || NULL == (slot = res_slot(r))) {
            free(all);
            return false;
        }
        PMIx_Info_load(slot, key, all, PMIX_STRING);
        free(all);
        return true;
    }
    if (0 == strcmp(key, PMIX_QUERY_ATTRIBUTE_SUPPORT)) {
        if (NULL == (slot = res_slot(r))) {
            return false;
        }
        PMIx_Info_load(slot, key, SRV_QUERY_KEYS, PMIX_STRING);
        return true;
    }
    if (0 == strcmp(key, PMIX_QUERY_PROC_TABLE) || 0 == strcmp(key, PMIX_QUERY_LOCAL_PROC_TABLE)) {
        return proc_table(r, key, nspace, 0 == strcmp(key, PMIX_QUERY_LOCAL_PROC_TABLE));
    }
    if (0 == strcmp(key, PMIX_JOB_SIZE)) {
        wu_srv_nspace_t *ns = wu_srv_nspace_find(nspace);
        if (NULL == ns || !ns->has_size || NULL == (slot = res_slot(r))) {
            return false;
        }
        PMIx_Info_load(slot, key, &ns->size, PMIX_UINT32);
        return true;
    }
    return false;
}

static void query_done(wu_srv_op_t *op)
{
    wu_buffer_t body;
    pmix_status_t rc;
    /* op->info: the host's answers; the ones answered here were packed into op->data */
    wu_buffer_construct(&body);
    if (PMIX_SUCCESS == op->status || PMIX_QUERY_PARTIAL_SUCCESS == op->status ||
        PMIX_ERR_NOT_FOUND == op->status) {
        results_t r = {0};
        if (NULL != op->data) {
            wu_buffer_t mine;
            pmix_info_t *info = NULL;
            size_t n = 0;
            wu_buffer_construct(&mine);
            mine.base = op->data;
            mine.used = mine.cap = op->ndata;
            if (PMIX_SUCCESS == wu_proto_unpack_list(&mine, (void **)&info, &n, PMIX_INFO)) {
                for (size_t i = 0; i < n; i++) {
                    pmix_info_t *slot = res_slot(&r);
                    if (NULL != slot) {
                        (void)wu_info_copy(slot, &info[i]);
                    }
                }
                PMIX_INFO_FREE(info, n);
            }
        }
        for (size_t i = 0; i < op->ninfo; i++) {
            pmix_info_t *slot = res_slot(&r);
            if (NULL != slot) {
                (void)wu_info_copy(slot, &op->info[i]);
            }
        }
        rc = 0 == r.n ? PMIX_ERR_NOT_FOUND : wu_proto_pack_list(&body, r.res, r.n, PMIX_INFO);
        res_free(&r);
    } else {
        rc = op->status;
    }
    wu_srv_reply(op->conn, op->tag, rc, PMIX_SUCCESS == rc ? &body : NULL);
    wu_buffer_destruct(&body);
}

int wu_srv_cmd_query(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    pmix_query_t *qs = NULL, *rest = NULL;
    size_t nq = 0, nrest = 0;
    results_t r = {0};
    wu_buffer_t body;
    pmix_status_t rc = PMIX_ERR_BAD_PARAM;

    wu_buffer_construct(&body);
    if (PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&qs, &nq, PMIX_QUERY) ||
        0 != wu_buffer_remaining(b) || 0 == nq) {
        goto out;
    }
    PMIX_QUERY_CREATE(rest, nq);
    if (NULL == rest) {
        rc = PMIX_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < nq; i++) {
        char **keys = NULL;
        for (size_t k = 0; NULL != qs[i].keys && NULL != qs[i].keys[k]; k++) {
            if (!query_one(&r, &qs[i], qs[i].keys[k], &peer->proc)) {
                (void)wu_argv_append(&keys, qs[i].keys[k]);
            }
        }
        if (NULL != keys) {
            rest[nrest].keys = keys;
            if (qs[i].nqual > 0) {
                PMIX_INFO_CREATE(rest[nrest].qualifiers, qs[i].nqual);
                for (size_t j = 0; NULL != rest[nrest].qualifiers && j < qs[i].nqual; j++) {
                    (void)wu_info_copy(&rest[nrest].qualifiers[j], &qs[i].qualifiers[j]);
                }
                rest[nrest].nqual = NULL != rest[nrest].qualifiers ? qs[i].nqual : 0;
            }
            nrest++;
        }
    }
    if (nrest > 0 && NULL != wu_srv.host.query) {
        /* ask the host for the rest; what was answered here travels in op->data */
        wu_srv_op_t *op = wu_srv_op_new(query_done, peer->conn, tag);
        if (NULL == op) {
            rc = PMIX_ERR_NOMEM;
            goto out;
        }
        op->proc = peer->proc;
        if (r.n > 0 && PMIX_SUCCESS == wu_proto_pack_list(&body, r.res, r.n, PMIX_INFO)) {
            op->data = body.base;
            op->ndata = body.used;
            wu_buffer_construct(&body); /* moved */
        }
        rc = wu_srv.host.query(&op->proc, rest, nrest, wu_srv_op_info_cb, op);
        if (PMIX_SUCCESS != rc && PMIX_OPERATION_SUCCEEDED != rc) {
            rc = PMIX_ERR_NOT_FOUND; /* the host knows no more: answer with what we have */
        }
        /* query_done reads op->data (ours) and op->info (the host's) */
        wu_srv_op_started(op, rc);
        rc = PMIX_SUCCESS;
        goto out;
    }
    if (0 == r.n) {
        rc = PMIX_ERR_NOT_FOUND;
        goto out;
    }
    if (PMIX_SUCCESS == (rc = wu_proto_pack_list(&body, r.res, r.n, PMIX_INFO))) {
        wu_srv_reply(peer->conn, tag, PMIX_SUCCESS, &body);
    }
out:
    wu_buffer_destruct(&body);
    res_free(&r);
    if (NULL != qs) {
        PMIX_QUERY_FREE(qs, nq);
    }
    if (NULL != rest) {
        PMIX_QUERY_FREE(rest, nq);
    }
    return rc;
}

/* ---- LOG ------------------------------------------------------------------------------------- */

static void log_done(wu_srv_op_t *op)
{
    wu_srv_reply(op->conn, op->tag, op->status, NULL);
}

int wu_srv_cmd_log(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    pmix_info_t *data = NULL, *dirs = NULL;
    size_t ndata = 0, ndirs = 0;
    pmix_status_t rc = PMIX_ERR_BAD_PARAM;

    if (PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&data, &ndata, PMIX_INFO) ||
        PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&dirs, &ndirs, PMIX_INFO) ||
        0 != wu_buffer_remaining(b)) {
        goto out;
    }
    if (NULL != wu_srv.host.log) {
        wu_srv_op_t *op = wu_srv_op_new(log_done, peer->conn, tag);
        if (NULL == op) {
            rc = PMIX_ERR_NOMEM;
            goto out;
        }
        op->proc = peer->proc;
        /* a void upcall: it always calls back */
        wu_srv.host.log(&op->proc, data, ndata, dirs, ndirs, wu_srv_op_cb, op);
        rc = PMIX_SUCCESS;
        goto out;
    }
    /* no host to hand it to: log it here */
    rc = wu_plog_base_log_request(&peer->proc, data, ndata, dirs, ndirs, wu_ompi_help_render, NULL);
    if (PMIX_SUCCESS == rc) {
        wu_srv_reply(peer->conn, tag, PMIX_SUCCESS, NULL);
    }
out:
    if (NULL != data) {
        PMIX_INFO_FREE(data, ndata);
    }
    if (NULL != dirs) {
        PMIX_INFO_FREE(dirs, ndirs);
    }
    return rc;
}

/* ---- SPAWN ----------------------------------------------------------------------------------- */

static void spawn_done(wu_srv_op_t *op)
{
    wu_buffer_t body;
    const char *ns = op->data;
    if (PMIX_SUCCESS != op->status) {
        wu_srv_reply(op->conn, op->tag, op->status, NULL);
        return;
    }
    wu_buffer_construct(&body);
    if (PMIX_SUCCESS != wu_pack(&body, &ns, 1, PMIX_STRING)) {
        wu_srv_reply(op->conn, op->tag, PMIX_ERR_NOMEM, NULL);
    } else {
        wu_srv_reply(op->conn, op->tag, PMIX_SUCCESS, &body);
    }
    wu_buffer_destruct(&body);
}

int wu_srv_cmd_spawn(wu_srv_peer_t *peer, uint32_t tag, wu_buffer_t *b)
{
    wu_srv_client_t *cl = wu_srv_client_find(&peer->proc);
    pmix_info_t *info = NULL;
    pmix_app_t *apps = NULL;
    size_t ninfo = 0, napps = 0;
    wu_srv_op_t *op;
    pmix_status_t rc = PMIX_ERR_BAD_PARAM;

    if (PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&info, &ninfo, PMIX_INFO) ||
        PMIX_SUCCESS != wu_proto_unpack_list(b, (void **)&apps, &napps, PMIX_APP) ||
        0 != wu_buffer_remaining(b) || 0 == napps) {
        goto out;
    }
    for (size_t i = 0; i < napps; i++) {
        if (NULL == apps[i].cmd || '\0' == apps[i].cmd[0] || apps[i].maxprocs < 0) {
            goto out;
        }
    }
    if (NULL == cl) {
        rc = PMIX_ERR_NOT_FOUND;
    } else if (NULL == wu_srv.host.spawn) {
        rc = PMIX_ERR_NOT_SUPPORTED; /* nobody to start a job */
    } else if (NULL == (op = wu_srv_op_new(spawn_done, peer->conn, tag))) {
        rc = PMIX_ERR_NOMEM;
    } else {
        op->proc = peer->proc;
        op->req_info = info; /* kept until the host answers */
        op->nreq_info = ninfo;
        op->req_apps = apps;
        op->nreq_apps = napps;
        info = NULL;
        apps = NULL;
        rc = wu_srv.host.spawn(&op->proc, op->req_info, op->nreq_info, op->req_apps, op->nreq_apps,
                               wu_srv_op_spawn_cb, op);
        wu_srv_op_started(op, rc);
        rc = PMIX_SUCCESS;
    }
out:
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
    if (NULL != apps) {
        PMIX_APP_FREE(apps, napps);
    }
    return rc;
}
