/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pmi_dpm.c -- what MPICH's dynamic processes need from a node's PMI server: the name
 * service of MPI_Publish_name / MPI_Lookup_name / MPI_Unpublish_name (PMI-1 publish_name,
 * lookup_name, unpublish_name; PMI-2 name-publish, name-lookup, name-unpublish). Rte thread.
 *
 * Names go to the launcher's data service (wu_rte_pubsub.h), as PMIx_Publish's data do: in the
 * session range, so that the processes of two wrun jobs of the same user meet there
 * (MPI_Comm_connect/accept), for as long as the publishing job runs. A lookup of a name not
 * published fails at once, as under Hydra.
 *
 * A spawn becomes a PMIx_Spawn request of the launcher's (wu_rte_children.c): one application
 * per command, with its arguments and the MPI_Info keys "host" (or "hosts") and "wdir"; the
 * preput values (MPICH's PARENT_ROOT_PORT_NAME) travel in each application's environment as
 * WU_PMI_PREPUT_<i>=KEY=VALUE, which the new job's PMI server on every node loads into its
 * key-value space before its processes start. They get PMI_SPAWNED=1, and PMI-2's fullinit
 * names the spawning job.
 *
 * Answers come when the service or the launch answers; a request remembers its process by
 * namespace and rank, so a process gone by then is skipped. */
#include "pmix/rte/svc/wu_rte_pmi.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_argv.h"
#include "pmix/rte/svc/wu_rte_pubsub.h"
#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char nspace[PMIX_MAX_NSLEN + 1];
    uint32_t rank;
    wu_pmi_wire_t wire;
    char *thrid;
    char cmd[32]; /* the answer's command */
} later_t;

/* The connection later waits for, or NULL when its process or job is gone. */
static pmi_conn_t *later_conn(const later_t *l)
{
    rte_job_t *job = wu_rte_job_find(l->nspace);
    int32_t lidx;
    if (NULL == job || NULL == job->pmi || l->rank >= job->np ||
        (lidx = job->procs[l->rank].lidx) < 0 || (uint32_t)lidx >= job->pmi->n ||
        job->pmi->conns[lidx].fd < 0) {
        return NULL;
    }
    return &job->pmi->conns[lidx];
}

static void later_free(later_t *l)
{
    free(l->thrid);
    free(l);
}

/* Answer l with st (and the port of a lookup). */
static void later_answer(later_t *l, pmix_status_t st, const char *port)
{
    pmi_conn_t *c = later_conn(l);
    wu_pmi_out_t o;
    if (NULL == c) {
        later_free(l);
        return;
    }
    if (PMIX_SUCCESS != st) {
        wu_rte_pmi_fail(c, l->wire, l->thrid, l->cmd, PMIx_Error_string(st));
        later_free(l);
        return;
    }
    wu_rte_pmi_answer_begin(&o, l->wire, l->thrid, l->cmd);
    if (NULL != port) {
        wu_pmi_out_add(&o, "port", port);
        if (WU_PMI_V2 == l->wire) {
            wu_pmi_out_add(&o, "found", "TRUE");
        }
    }
    wu_pmi_out_add(&o, "rc", "0");
    if (WU_PMI_V1 == l->wire) {
        wu_pmi_out_add(&o, "msg", "success");
    }
    wu_rte_pmi_send(c, &o);
    later_free(l);
}

static void op_done(pmix_status_t st, void *cbdata)
{
    later_answer(cbdata, st, NULL);
}

static void lookup_done(pmix_status_t st, pmix_pdata_t data[], size_t ndata, void *cbdata)
{
    const char *port = NULL;
    if (PMIX_SUCCESS == st && 1 == ndata && PMIX_STRING == data[0].value.type &&
        NULL != data[0].value.data.string) {
        port = data[0].value.data.string;
    } else if (PMIX_SUCCESS == st) {
        st = PMIX_ERR_NOT_FOUND;
    }
    later_answer(cbdata, st, port);
}

void wu_rte_pmi_names(pmi_conn_t *c, const wu_pmi_msg_t *m)
{
    bool v1 = WU_PMI_V1 == m->wire;
    const char *cmd = m->cmd, *thrid = wu_pmi_find(m, 0, "thrid");
    const char *name = wu_pmi_find(m, 0, v1 ? "service" : "name");
    const char *port = wu_pmi_find(m, 0, "port");
    uint32_t op;
    const char *ans;
    later_t *l;
    pmix_proc_t proc;
    pmix_info_t info[2];
    char *keys[2] = {NULL, NULL};
    pmix_status_t rc;

    if (0 == strcmp(cmd, v1 ? "publish_name" : "name-publish")) {
        op = WU_RTE_RPC_PUBLISH;
        ans = v1 ? "publish_result" : "name-publish-response";
    } else if (0 == strcmp(cmd, v1 ? "lookup_name" : "name-lookup")) {
        op = WU_RTE_RPC_LOOKUP;
        ans = v1 ? "lookup_result" : "name-lookup-response";
    } else {
        op = WU_RTE_RPC_UNPUBLISH;
        ans = v1 ? "unpublish_result" : "name-unpublish-response";
    }
    if (NULL == name || strlen(name) > PMIX_MAX_KEYLEN ||
        (WU_RTE_RPC_PUBLISH == op && NULL == port)) {
        wu_rte_pmi_fail(c, m->wire, thrid, ans,
                        NULL == name   ? "a service name is required"
                        : NULL == port ? "a port is required"
                                       : "the service name is too long");
        return;
    }
    if (NULL == (l = calloc(1, sizeof *l)) ||
        (NULL != thrid && NULL == (l->thrid = strdup(thrid)))) {
        free(l);
        wu_rte_pmi_fail(c, m->wire, thrid, ans, "out of memory");
        return;
    }
    PMIX_LOAD_NSPACE(l->nspace, c->pmi->job->nspace);
    l->rank = c->rank;
    l->wire = m->wire;
    snprintf(l->cmd, sizeof l->cmd, "%s", ans);
    PMIX_LOAD_PROCID(&proc, c->pmi->job->nspace, c->rank);
    keys[0] = (char *)name;
    if (WU_RTE_RPC_PUBLISH == op) {
        pmix_data_range_t range = PMIX_RANGE_SESSION;
        PMIX_INFO_CONSTRUCT(&info[0]);
        PMIX_INFO_CONSTRUCT(&info[1]);
        PMIx_Info_load(&info[0], name, port, PMIX_STRING);
        PMIx_Info_load(&info[1], PMIX_RANGE, &range, PMIX_DATA_RANGE);
        rc = wu_rte_pubsub_request(op, &proc, NULL, info, 2, op_done, NULL, l);
        PMIX_INFO_DESTRUCT(&info[0]);
        PMIX_INFO_DESTRUCT(&info[1]);
    } else {
        pmix_data_range_t range = PMIX_RANGE_SESSION;
        PMIX_INFO_CONSTRUCT(&info[0]);
        PMIx_Info_load(&info[0], PMIX_RANGE, &range, PMIX_DATA_RANGE);
        rc = wu_rte_pubsub_request(op, &proc, keys, info, 1,
                                   WU_RTE_RPC_LOOKUP == op ? NULL : op_done,
                                   WU_RTE_RPC_LOOKUP == op ? lookup_done : NULL, l);
        PMIX_INFO_DESTRUCT(&info[0]);
    }
    if (PMIX_SUCCESS != rc) {
        later_free(l);
        wu_rte_pmi_fail(c, m->wire, thrid, ans, PMIx_Error_string(rc));
    }
}

/* --- spawn ----------------------------------------------------------------------------------- */

/* The most commands, preput values and info keys one spawn may carry. */
#define SPAWN_MAX_CMDS 64
#define SPAWN_MAX_KEYS 256

typedef struct {
    later_t l;
    uint32_t nprocs; /* in all, for PMI-1's errcodes */
} spawn_later_t;

static void spawn_done(pmix_status_t st, pmix_nspace_t nspace, void *cbdata)
{
    spawn_later_t *s = cbdata;
    pmi_conn_t *c = later_conn(&s->l);
    wu_pmi_out_t o;
    if (NULL != c && PMIX_SUCCESS != st) {
        wu_rte_pmi_fail(c, s->l.wire, s->l.thrid, s->l.cmd, PMIx_Error_string(st));
    } else if (NULL != c) {
        wu_rte_pmi_answer_begin(&o, s->l.wire, s->l.thrid, s->l.cmd);
        wu_pmi_out_add(&o, "rc", "0");
        if (WU_PMI_V2 == s->l.wire) {
            wu_pmi_out_add(&o, "jobid", nspace);
            wu_pmi_out_add(&o, "nerrs", "0");
        } else if (s->nprocs <= WU_PMI_MSG_MAX / 4) {
            /* (beyond, left out: MPICH then takes every code for 0) */
            char *codes = malloc(2 * (size_t)s->nprocs + 1);
            if (NULL != codes) {
                char *q = codes; /* "0,0,...": one per process */
                for (uint32_t i = 0; i < s->nprocs; i++) {
                    if (i > 0) {
                        *q++ = ',';
                    }
                    *q++ = '0';
                }
                *q = '\0';
                wu_pmi_out_add(&o, "errcodes", codes);
                free(codes);
            }
        }
        wu_rte_pmi_send(c, &o);
    }
    free(s->l.thrid);
    free(s);
}

/* Does key name the numbered attribute prefix<N>? */
static bool numbered(const char *key, const char *prefix)
{
    size_t n = strlen(prefix);
    if (0 != strncmp(key, prefix, n) || '\0' == key[n]) {
        return false;
    }
    for (key += n; '\0' != *key; key++) {
        if (*key < '0' || *key > '9') {
            return false;
        }
    }
    return true;
}

/* When kv is the key half of a numbered pair (<kp>N), the value of its partner <vp>N among the
 * attributes from `from` on; else NULL. */
static const char *pair_value(const wu_pmi_msg_t *m, size_t from, const wu_pmi_kv_t *kv,
                              const char *kp, const char *vp)
{
    char vkey[64];
    if (NULL == kv->key || NULL == kv->val || !numbered(kv->key, kp) ||
        (size_t)snprintf(vkey, sizeof vkey, "%s%s", vp, kv->key + strlen(kp)) >= sizeof vkey) {
        return NULL;
    }
    return wu_pmi_find(m, from, vkey);
}

/* The preput values (pk/pv prefixes), as "WU_PMI_PREPUT_<i>=key=value" entries in *env. */
static pmix_status_t add_preputs(const wu_pmi_msg_t *m, size_t from, size_t to, const char *pk,
                                 const char *pv, char ***env)
{
    size_t k = 0;
    for (size_t i = from; i < to; i++) {
        const wu_pmi_kv_t *kv = &m->kv[i];
        char name[32], *val;
        const char *v;
        if (NULL == kv->key || NULL == kv->val || !numbered(kv->key, pk)) {
            continue;
        }
        if (NULL == (v = pair_value(m, from, kv, pk, pv)) || ++k > SPAWN_MAX_KEYS) {
            return NULL == v ? PMIX_ERR_BAD_PARAM : PMIX_ERR_OUT_OF_RESOURCE;
        }
        snprintf(name, sizeof name, "WU_PMI_PREPUT_%zu", k - 1);
        if (WU_SUCCESS != wu_asprintf(&val, "%s=%s", kv->val, v)) {
            return PMIX_ERR_NOMEM;
        }
        if (WU_SUCCESS != wu_setenv(name, val, true, env)) {
            free(val);
            return PMIX_ERR_NOMEM;
        }
        free(val);
    }
    return PMIX_SUCCESS;
}

/* One command of the spawn (the attributes from..to): app, with the job's preputs. */
static pmix_status_t make_app(const wu_pmi_msg_t *m, size_t from, size_t to, char **pre,
                              pmix_app_t *app, uint32_t *np)
{
    bool v1 = WU_PMI_V1 == m->wire;
    const char *cmd = wu_pmi_find(m, from, v1 ? "execname" : "subcmd");
    long n = 0;
    pmix_info_t *info;
    size_t ninfo = 0;
    if (NULL == cmd || !wu_pmi_find_long(m, from, v1 ? "nprocs" : "maxprocs", 1, 1 << 20, &n) ||
        NULL == (app->cmd = strdup(cmd)) || WU_SUCCESS != wu_argv_append(&app->argv, cmd)) {
        return NULL == cmd || 0 == n ? PMIX_ERR_BAD_PARAM : PMIX_ERR_NOMEM;
    }
    app->maxprocs = (int)n;
    *np += (uint32_t)n;
    for (size_t i = from; i < to; i++) {
        const wu_pmi_kv_t *kv = &m->kv[i];
        if (NULL != kv->key && NULL != kv->val && numbered(kv->key, v1 ? "arg" : "argv") &&
            WU_SUCCESS != wu_argv_append(&app->argv, kv->val)) {
            return PMIX_ERR_NOMEM;
        }
    }
    if (NULL != pre && NULL == (app->env = wu_argv_copy(pre))) {
        return PMIX_ERR_NOMEM;
    }
    /* MPI_Info keys the launcher acts on: host (hosts), wdir */
    const char *host = NULL, *wdir = NULL;
    for (size_t i = from; i < to; i++) {
        const wu_pmi_kv_t *kv = &m->kv[i];
        const char *v = v1 ? pair_value(m, from, kv, "info_key_", "info_val_")
                           : pair_value(m, from, kv, "infokey", "infoval");
        if (NULL == v) {
            continue;
        }
        if (0 == strcmp(kv->val, "host") || 0 == strcmp(kv->val, "hosts")) {
            host = v;
        } else if (0 == strcmp(kv->val, "wdir")) {
            wdir = v;
        }
    }
    ninfo = (NULL != host ? 1u : 0u) + (NULL != wdir ? 1u : 0u);
    if (0 < ninfo) {
        PMIX_INFO_CREATE(info, ninfo);
        if (NULL == info) {
            return PMIX_ERR_NOMEM;
        }
        app->info = info;
        app->ninfo = ninfo;
        if (NULL != host) {
            PMIx_Info_load(&info[0], PMIX_HOST, host, PMIX_STRING);
        }
        if (NULL != wdir) {
            PMIx_Info_load(&info[ninfo - 1], PMIX_WDIR, wdir, PMIX_STRING);
        }
    }
    return PMIX_SUCCESS;
}

void wu_rte_pmi_spawn(pmi_conn_t *c, const wu_pmi_msg_t *m)
{
    bool v1 = WU_PMI_V1 == m->wire;
    const char *thrid = wu_pmi_find(m, 0, "thrid");
    const char *ans = v1 ? "spawn_result" : "spawn-response";
    size_t seg[SPAWN_MAX_CMDS + 1], nseg = 0;
    char **pre = NULL;
    pmix_app_t *apps = NULL;
    spawn_later_t *s = NULL;
    pmix_proc_t proc;
    pmix_status_t rc = PMIX_SUCCESS;
    for (size_t i = 0; i < m->nkv && PMIX_SUCCESS == rc; i++) {
        if (NULL == m->kv[i].key) {
            if (nseg == SPAWN_MAX_CMDS) {
                rc = PMIX_ERR_OUT_OF_RESOURCE;
            } else {
                seg[nseg++] = i;
            }
        }
    }
    seg[nseg] = m->nkv;
    if (PMIX_SUCCESS == rc && 0 == nseg) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    /* the preputs: PMI-1 in the (first) segment, PMI-2 before the first */
    if (PMIX_SUCCESS == rc) {
        rc = v1 ? add_preputs(m, seg[0], seg[1], "preput_key_", "preput_val_", &pre)
                : add_preputs(m, 0, seg[0], "ppkey", "ppval", &pre);
    }
    if (PMIX_SUCCESS == rc) {
        PMIX_APP_CREATE(apps, nseg);
        s = calloc(1, sizeof *s);
        rc = NULL == apps || NULL == s ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    }
    for (size_t k = 0; k < nseg && PMIX_SUCCESS == rc; k++) {
        rc = make_app(m, seg[k], seg[k + 1], pre, &apps[k], &s->nprocs);
    }
    if (PMIX_SUCCESS == rc && NULL != thrid && NULL == (s->l.thrid = strdup(thrid))) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS == rc) {
        PMIX_LOAD_NSPACE(s->l.nspace, c->pmi->job->nspace);
        s->l.rank = c->rank;
        s->l.wire = m->wire;
        snprintf(s->l.cmd, sizeof s->l.cmd, "%s", ans);
        PMIX_LOAD_PROCID(&proc, c->pmi->job->nspace, c->rank);
        rc = wu_rte_children_spawn(&proc, NULL, 0, apps, nseg, spawn_done, s);
    }
    if (NULL != apps) {
        PMIX_APP_FREE(apps, nseg);
    }
    wu_argv_free(pre);
    if (PMIX_SUCCESS != rc) {
        if (NULL != s) {
            free(s->l.thrid);
            free(s);
        }
        wu_rte_pmi_fail(c, m->wire, thrid, ans, PMIx_Error_string(rc));
    }
}
