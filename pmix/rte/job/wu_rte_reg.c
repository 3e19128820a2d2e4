/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_reg.c -- what the embedded PMIx server is told about a job, all of it derived from the
 * job map (wu_rte_jobmap.h) and the node-level placement: what the network components want the
 * job to know (PMIx_server_setup_application), one PMIx_server_register_nspace with the
 * job-level data, the data of every node (PMIX_NODE_INFO_ARRAY) and of every process
 * (PMIX_PROC_DATA), this node's network preparation (PMIx_server_setup_local_support), then the
 * job's local clients, registered together and waited for once; and the child environment
 * (PMIx_server_setup_fork).
 *
 * Job-level keys that describe "this node" (LOCAL_SIZE, LOCAL_PEERS, LOCALLDR, NODEID,
 * HOSTNAME) are this launcher's node's, the node whose server registers the job; every node's
 * own values are in its node array, so a client can resolve any node of the job. Keys and
 * types follow what Open MPI 4.1 reads (LOCAL_RANK and NODE_RANK as UINT16; an unbound rank's
 * CPUSET and LOCALITY_STRING as NULL strings, as ORTE registers them). */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_path.h"
#include "opal/util/wu_show_help.h"
#include "pmix/common/wu_value.h"
#include "pmix/rte/job/wu_rte_job.h"
#include "pmix/server/wu_server_host.h"

#include "pmix.h"
#include "pmix_server.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SERVER_OP_TIMEOUT 60.0 /* seconds; a server call that takes longer is broken */

/* --- waiting for the cbfuncs of a batch of server calls -------------------------------------- */

/* Shared by the waiter and the callbacks, so a waiter that gives up does not free it under a
 * late callback. The wait is released when every call of the batch has answered, with the
 * first error seen. */
typedef struct {
    wu_wait_t w;
    atomic_int refs; /* the waiter's and one per call still to answer */
    atomic_int left; /* calls still to answer */
    atomic_int first_error;
} opwait_t;

static opwait_t *opw_new(int ncalls)
{
    opwait_t *o = calloc(1, sizeof *o);
    if (NULL != o) {
        wu_wait_init(&o->w);
        atomic_init(&o->refs, ncalls + 1);
        atomic_init(&o->left, ncalls);
        atomic_init(&o->first_error, PMIX_SUCCESS);
    }
    return o;
}

static void opw_put(opwait_t *o)
{
    if (1 == atomic_fetch_sub(&o->refs, 1)) {
        wu_wait_destroy(&o->w);
        free(o);
    }
}

/* One call of the batch answered status. */
static void opw_done(opwait_t *o, pmix_status_t status)
{
    int none = PMIX_SUCCESS;
    if (PMIX_SUCCESS != status && PMIX_OPERATION_SUCCEEDED != status) {
        (void)atomic_compare_exchange_strong(&o->first_error, &none, status);
    }
    if (1 == atomic_fetch_sub(&o->left, 1)) {
        wu_wait_release(&o->w, atomic_load(&o->first_error));
    }
    opw_put(o);
}

static void op_cb(pmix_status_t status, void *cbdata)
{
    opw_done(cbdata, status);
}

/* rc is what one call returned: anything but PMIX_SUCCESS means its cbfunc will not come. */
static void opw_started(opwait_t *o, pmix_status_t rc)
{
    if (PMIX_SUCCESS != rc) {
        opw_done(o, rc);
    }
}

/* Wait for the whole batch; the first error, or PMIX_ERR_TIMEOUT. */
static int opw_wait(opwait_t *o)
{
    int rc = wu_wait_for(&o->w, SERVER_OP_TIMEOUT);
    opw_put(o);
    return rc;
}

/* --- network preparation (pnet) ------------------------------------------------------------- */

/* The result of PMIx_server_setup_application; left to leak if its callback is late. */
typedef struct {
    opwait_t *o;
    pmix_info_t *info;
    size_t ninfo;
} netprep_t;

static void netprep_cb(pmix_status_t status, pmix_info_t info[], size_t ninfo,
                       void *provided_cbdata, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    netprep_t *np = provided_cbdata;
    if (PMIX_SUCCESS == status && ninfo > 0) {
        PMIX_INFO_CREATE(np->info, ninfo);
        np->ninfo = NULL != np->info ? ninfo : 0;
        status = NULL != np->info ? PMIX_SUCCESS : PMIX_ERR_NOMEM;
        for (size_t i = 0; i < np->ninfo && PMIX_SUCCESS == status; i++) {
            status = PMIx_Info_xfer(&np->info[i], &info[i]);
        }
    }
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, cbdata); /* the server may free its copy */
    }
    opw_done(np->o, status);
}

/* What the network components want the job to know (job-level infos, *net), made at the head;
 * the job's size is all they are told about it. */
static int netprep_app(rte_job_t *job, pmix_info_t **net, size_t *nnet)
{
    netprep_t *np = calloc(1, sizeof *np);
    pmix_info_t in;
    int rc;

    *net = NULL;
    *nnet = 0;
    if (NULL == np || NULL == (np->o = opw_new(1))) {
        free(np);
        return WU_ERR_NOMEM;
    }
    PMIX_INFO_CONSTRUCT(&in);
    wu_info_u32(&in, PMIX_JOB_SIZE, job->np);
    opw_started(np->o, PMIx_server_setup_application(job->nspace, &in, 1, netprep_cb, np));
    rc = opw_wait(np->o);
    PMIX_INFO_DESTRUCT(&in);
    if (PMIX_ERR_TIMEOUT == rc || WU_ERR_TIMEOUT == rc) {
        np = NULL; /* the callback may still write it */
    } else if (PMIX_SUCCESS == rc) {
        *net = np->info;
        *nnet = np->ninfo;
    } else if (NULL != np->info) {
        PMIX_INFO_FREE(np->info, np->ninfo);
    }
    free(np);
    if (PMIX_SUCCESS != rc) {
        wu_show_help("help-wu-rte.txt", "pnet-failed", true, wu_rte_tool, job->nspace,
                     "PMIx_server_setup_application", PMIx_Error_string(rc));
        return WU_ERR_SILENT;
    }
    return WU_SUCCESS;
}

/* Let this node's network components prepare for the job's processes (before they fork). */
static int netprep_local(rte_job_t *job, pmix_info_t *net, size_t nnet)
{
    opwait_t *o = opw_new(1);
    int rc;
    if (NULL == o) {
        return WU_ERR_NOMEM;
    }
    opw_started(o, PMIx_server_setup_local_support(job->nspace, net, nnet, op_cb, o));
    if (PMIX_SUCCESS != (rc = opw_wait(o))) {
        wu_show_help("help-wu-rte.txt", "pnet-failed", true, wu_rte_tool, job->nspace,
                     "PMIx_server_setup_local_support", PMIx_Error_string(rc));
        return WU_ERR_SILENT;
    }
    return WU_SUCCESS;
}

/* --- building the registration --------------------------------------------------------------- */

/* An info list and the first error made while filling it. */
typedef struct {
    void *list;
    pmix_status_t rc;
} ilist_t;

static void ilist_start(ilist_t *l)
{
    l->list = PMIx_Info_list_start();
    l->rc = NULL == l->list ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

static void add(ilist_t *l, const char *key, const void *val, pmix_data_type_t type)
{
    if (PMIX_SUCCESS == l->rc) {
        l->rc = PMIx_Info_list_add(l->list, key, val, type);
    }
}

static void add_u32(ilist_t *l, const char *key, uint32_t v)
{
    add(l, key, &v, PMIX_UINT32);
}

static void add_u16(ilist_t *l, const char *key, uint32_t v)
{
    uint16_t s = (uint16_t)v;
    add(l, key, &s, PMIX_UINT16);
}

static void add_rank(ilist_t *l, const char *key, uint32_t v)
{
    pmix_rank_t r = v;
    add(l, key, &r, PMIX_PROC_RANK);
}

/* A string the caller made (NULL: it was out of memory), freed here. */
static void add_own_str(ilist_t *l, const char *key, char *s)
{
    if (NULL == s && PMIX_SUCCESS == l->rc) {
        l->rc = PMIX_ERR_NOMEM;
    }
    add(l, key, s, PMIX_STRING);
    free(s);
}

/* Free the infos of an array made by PMIx_Info_list_convert. */
static void free_infos(pmix_data_array_t *d)
{
    pmix_info_t *infos = d->array;
    if (NULL != infos) {
        PMIX_INFO_FREE(infos, d->size);
    }
    d->array = NULL;
    d->size = 0;
}

/* Add sub as an array of infos under key, and release sub. */
static void add_array(ilist_t *l, const char *key, ilist_t *sub)
{
    pmix_data_array_t d = {.type = PMIX_INFO, .size = 0, .array = NULL};
    if (PMIX_SUCCESS == l->rc) {
        l->rc = sub->rc;
    }
    if (PMIX_SUCCESS == l->rc) {
        l->rc = PMIx_Info_list_convert(sub->list, &d);
    }
    add(l, key, &d, PMIX_DATA_ARRAY);
    free_infos(&d);
    PMIx_Info_list_release(sub->list);
}

/* Per-process data: PMIX_RANK first (the Standard's rule for PMIX_PROC_DATA). */
static void proc_data(ilist_t *l, const rte_job_t *job, uint32_t r)
{
    const wu_rte_jm_proc_t *mp = &job->map->procs[r];
    const wu_rte_jm_node_t *node = &job->map->nodes[mp->node];
    const bool here = mp->node == job->mynode;
    ilist_t p;

    ilist_start(&p);
    add_rank(&p, PMIX_RANK, r);
    add_rank(&p, PMIX_GLOBAL_RANK, r);
    add_rank(&p, PMIX_APP_RANK, job->procs[r].ctx_rank);
    add_u16(&p, PMIX_LOCAL_RANK, mp->local_rank);
    add_u16(&p, PMIX_NODE_RANK, mp->node_rank);
    add_u32(&p, PMIX_NODEID, node->id);
    add(&p, PMIX_HOSTNAME, node->name, PMIX_STRING);
    add_u32(&p, PMIX_APPNUM, job->procs[r].ctx);
    if (job->spawned) {
        /* also per process: Open MPI asks for it with its own rank */
        add(&p, PMIX_PARENT_ID, &job->parent, PMIX_PROC);
    }
    if (here && NULL != job->nsdir) {
        char *pdir = NULL;
        (void)wu_asprintf(&pdir, "%s/%u", job->nsdir, r);
        add_own_str(&p, PMIX_PROCDIR, pdir);
    }
    if (here && NULL != job->place) {
        /* the node-level placement is indexed by local rank; an unbound rank's values are
         * NULL strings, as ORTE registers them (Open MPI then treats it as unbound) */
        const wu_rte_proc_place_t *pl = &job->place->procs[mp->local_rank];
        add(&p, PMIX_CPUSET, pl->cpulist, PMIX_STRING);
        add(&p, PMIX_LOCALITY_STRING, pl->locstr, PMIX_STRING);
    }
    add_array(l, PMIX_PROC_DATA, &p);
}

/* What a client may ask about node n (PMIX_NODE_INFO_ARRAY). */
static void node_data(ilist_t *l, const wu_rte_jm_node_t *n)
{
    ilist_t d;
    ilist_start(&d);
    add(&d, PMIX_HOSTNAME, n->name, PMIX_STRING);
    add_u32(&d, PMIX_NODEID, n->id);
    add_u32(&d, PMIX_LOCAL_SIZE, n->nlocal);
    add_u32(&d, PMIX_NODE_SIZE, n->nlocal);
    add_rank(&d, PMIX_LOCALLDR, n->ranks[0]);
    add_own_str(&d, PMIX_LOCAL_PEERS, wu_rte_jobmap_peers(n));
    add_array(l, PMIX_NODE_INFO_ARRAY, &d);
}

/* What a client may ask about application context c (PMIX_APP_INFO_ARRAY). */
static void app_data(ilist_t *l, const rte_job_t *job, uint32_t c)
{
    const wu_rte_ctx_t *ctx = &job->app->ctx[c];
    ilist_t a;
    ilist_start(&a);
    add_u32(&a, PMIX_APPNUM, c);
    add_u32(&a, PMIX_APP_SIZE, job->ctx_size[c]);
    add_rank(&a, PMIX_APPLDR, job->ctx_first[c]);
    if (NULL != ctx->cwd) {
        add(&a, PMIX_WDIR, ctx->cwd, PMIX_STRING);
    }
    add_array(l, PMIX_APP_INFO_ARRAY, &a);
}

/* PMIX_NODE_MAP / PMIX_PROC_MAP: the node names and the ranks per node, in PMIx's regex form. */
static void maps(ilist_t *l, const rte_job_t *job)
{
    char *nodes = wu_rte_jobmap_node_list(job->map), *procs = wu_rte_jobmap_proc_list(job->map);
    char *nregex = NULL, *pregex = NULL;
    pmix_status_t rc = NULL == nodes || NULL == procs ? PMIX_ERR_NOMEM : PMIX_SUCCESS;

    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = PMIx_generate_regex(nodes, &nregex))) {
        rc = PMIx_generate_ppn(procs, &pregex);
    }
    if (PMIX_SUCCESS == l->rc) {
        l->rc = rc;
    }
    add(l, PMIX_NODE_LIST, nodes, PMIX_STRING);
    add(l, PMIX_NODE_MAP, nregex, PMIX_STRING);
    add(l, PMIX_PROC_MAP, pregex, PMIX_STRING);
    free(nodes);
    free(procs);
    free(nregex);
    free(pregex);
}

/* The job-level, node and per-process data of job: every key of Open MPI 4.1's list, and the
 * nnet job-level infos of net (pnet's). */
static pmix_status_t job_info(rte_job_t *job, const pmix_info_t *net, size_t nnet,
                              pmix_data_array_t *out)
{
    const wu_rte_jobmap_t *map = job->map;
    const wu_rte_jm_node_t *me = &map->nodes[job->mynode];
    const uint32_t napps = job->app->nctx;
    bool rmclean = true;
    char *xml = NULL;
    ilist_t l;

    ilist_start(&l);
    add(&l, PMIX_JOBID, job->nspace, PMIX_STRING);
    add_u32(&l, PMIX_JOB_SIZE, job->np);
    add_u32(&l, PMIX_UNIV_SIZE, job->np);
    add_u32(&l, PMIX_MAX_PROCS, job->np);
    add_u32(&l, PMIX_NUM_NODES, map->nnodes);
    add_u32(&l, PMIX_JOB_NUM_APPS, napps);
    if (1 == napps) {
        /* one context: its data at job level too (what single-program clients ask for) */
        add_u32(&l, PMIX_APPNUM, 0);
        add_u32(&l, PMIX_APP_SIZE, job->np);
        add_rank(&l, PMIX_APPLDR, 0);
    } else {
        for (uint32_t c = 0; c < napps; c++) {
            app_data(&l, job, c);
        }
    }
    maps(&l, job);
    if (job->spawned) {
        bool spawned = true;
        add(&l, PMIX_PARENT_ID, &job->parent, PMIX_PROC);
        add(&l, PMIX_SPAWNED, &spawned, PMIX_BOOL);
    }
    add(&l, PMIX_MAPBY, map->mapby, PMIX_STRING);
    add(&l, PMIX_RANKBY, map->rankby, PMIX_STRING);
    add(&l, PMIX_BINDTO, map->bindto, PMIX_STRING);
    /* this node */
    add_u32(&l, PMIX_LOCAL_SIZE, me->nlocal);
    add_u32(&l, PMIX_NODE_SIZE, me->nlocal);
    add_rank(&l, PMIX_LOCALLDR, me->ranks[0]);
    add_u32(&l, PMIX_NODEID, me->id);
    add(&l, PMIX_HOSTNAME, me->name, PMIX_STRING);
    add_own_str(&l, PMIX_LOCAL_PEERS, wu_rte_jobmap_peers(me));
    if (NULL != job->nsdir) {
        /* the job's session directory is ours, and we remove it: Open MPI puts its own session
         * directories there instead of /tmp/ompi.<host>.<uid>, and leaves their removal to us */
        add(&l, PMIX_TMPDIR, wu_server_session_dir(), PMIX_STRING);
        add(&l, PMIX_NSDIR, job->nsdir, PMIX_STRING);
        add(&l, PMIX_TDIR_RMCLEAN, &rmclean, PMIX_BOOL);
    }
    if (NULL != job->topo && WU_SUCCESS == wu_rte_topo_xml(job->topo, &xml)) {
        add(&l, PMIX_HWLOC_XML_V2, xml, PMIX_STRING); /* clients need not discover it */
        free(xml);
    }
    for (size_t i = 0; i < nnet && PMIX_SUCCESS == l.rc; i++) {
        l.rc = PMIx_Info_list_xfer(l.list, &net[i]);
    }
    for (uint32_t i = 0; i < map->nnodes; i++) {
        node_data(&l, &map->nodes[i]);
    }
    for (uint32_t r = 0; r < job->np; r++) {
        proc_data(&l, job, r);
    }
    if (PMIX_SUCCESS == l.rc) {
        l.rc = PMIx_Info_list_convert(l.list, out);
    }
    PMIx_Info_list_release(l.list);
    return l.rc;
}

/* Keys of a registration that describe the node it is made for, not the job. */
static bool node_key(const char *key)
{
    static const char *const keys[] = {
        PMIX_LOCAL_SIZE,  PMIX_NODE_SIZE, PMIX_LOCALLDR, PMIX_NODEID,       PMIX_HOSTNAME,
        PMIX_LOCAL_PEERS, PMIX_TMPDIR,    PMIX_NSDIR,    PMIX_TDIR_RMCLEAN, PMIX_HWLOC_XML_V2};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (0 == strcmp(key, keys[i])) {
            return true;
        }
    }
    return false;
}

int wu_rte_reg_portable_info(rte_job_t *job, pmix_info_t **info, size_t *n)
{
    pmix_data_array_t d = {.type = PMIX_INFO, .size = 0, .array = NULL};
    uint32_t mynode = job->mynode;
    pmix_info_t *all, *out;
    size_t k = 0;
    pmix_status_t rc;
    if (UINT32_MAX == job->mynode) {
        job->mynode = 0; /* some node's keys: left out below */
    }
    rc = job_info(job, NULL, 0, &d);
    job->mynode = mynode;
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    all = d.array;
    PMIX_INFO_CREATE(out, d.size > 0 ? d.size : 1);
    if (NULL == out) {
        free_infos(&d);
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < d.size; i++) {
        if (!node_key(all[i].key) && !PMIX_CHECK_KEY(&all[i], PMIX_PROCDIR)) {
            if (PMIX_SUCCESS != (rc = PMIx_Info_xfer(&out[k++], &all[i]))) {
                break;
            }
        }
    }
    free_infos(&d);
    if (PMIX_SUCCESS != rc) {
        PMIX_INFO_FREE(out, d.size > 0 ? d.size : 1);
        return rc;
    }
    *info = out;
    *n = k;
    return PMIX_SUCCESS;
}

/* --- the server calls ------------------------------------------------------------------------ */

static int failed(const rte_job_t *job, const char *call, pmix_status_t rc)
{
    wu_show_help("help-wu-rte.txt", "register-failed", true, wu_rte_tool, job->nspace, call,
                 PMIx_Error_string(rc));
    return WU_ERR_SILENT;
}

int wu_rte_register_job(rte_job_t *job)
{
    pmix_data_array_t info = {.type = PMIX_INFO, .size = 0, .array = NULL};
    const wu_rte_jm_node_t *me = &job->map->nodes[job->mynode];
    pmix_info_t *net = NULL;
    size_t nnet = 0;
    opwait_t *o;
    int rc;

    if (NULL != wu_server_session_dir() &&
        (WU_SUCCESS != wu_asprintf(&job->nsdir, "%s/%s", wu_server_session_dir(), job->nspace) ||
         0 != mkdir(job->nsdir, 0700))) {
        free(job->nsdir); /* not fatal: the processes then choose their own directories */
        job->nsdir = NULL;
    }
    if (WU_SUCCESS != (rc = netprep_app(job, &net, &nnet))) {
        return rc;
    }
    rc = job_info(job, net, nnet, &info);
    if (PMIX_SUCCESS != rc) {
        if (NULL != net) {
            PMIX_INFO_FREE(net, nnet);
        }
        return failed(job, "building the job's information", rc);
    }
    if (NULL == (o = opw_new(1))) {
        free_infos(&info);
        if (NULL != net) {
            PMIX_INFO_FREE(net, nnet);
        }
        return WU_ERR_NOMEM;
    }
    opw_started(o, PMIx_server_register_nspace(job->nspace, (int)me->nlocal, info.array, info.size,
                                               op_cb, o));
    rc = opw_wait(o);
    if (PMIX_ERR_TIMEOUT != rc && WU_ERR_TIMEOUT != rc) {
        free_infos(&info); /* else the server may still read it: leave it */
    }
    if (PMIX_SUCCESS == rc) {
        rc = netprep_local(job, net, nnet);
    } else {
        rc = failed(job, "PMIx_server_register_nspace", rc);
    }
    if (NULL != net) {
        PMIX_INFO_FREE(net, nnet);
    }
    if (WU_SUCCESS != rc) {
        return rc;
    }
    /* the clients of this node, all at once: one wait for the batch */
    if (NULL == (o = opw_new((int)me->nlocal))) {
        return WU_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < me->nlocal; i++) {
        uint32_t r = me->ranks[i];
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, job->nspace, r);
        job->procs[r].registered = true; /* deregistered at the end even if this failed */
        opw_started(
            o, PMIx_server_register_client(&proc, getuid(), getgid(), &job->procs[r], op_cb, o));
    }
    rc = opw_wait(o);
    return PMIX_SUCCESS == rc ? WU_SUCCESS : failed(job, "PMIx_server_register_client", rc);
}

void wu_rte_deregister_job(rte_job_t *job)
{
    opwait_t *o;
    int n = 0;
    for (uint32_t r = 0; r < job->np; r++) {
        n += job->procs[r].registered ? 1 : 0;
    }
    /* deregister_client has no status to give: its cbfunc only says it is done */
    if (n > 0 && NULL != (o = opw_new(n))) {
        for (uint32_t r = 0; r < job->np; r++) {
            pmix_proc_t proc;
            if (job->procs[r].registered) {
                PMIX_LOAD_PROCID(&proc, job->nspace, r);
                PMIx_server_deregister_client(&proc, op_cb, o);
                job->procs[r].registered = false;
            }
        }
        (void)opw_wait(o);
    }
    if (NULL != (o = opw_new(1))) {
        PMIx_server_deregister_nspace(job->nspace, op_cb, o);
        (void)opw_wait(o);
    }
    if (NULL != job->nsdir) {
        (void)wu_path_rm_tree(job->nsdir); /* every process of the job has ended */
        free(job->nsdir);
        job->nsdir = NULL;
    }
}

int wu_rte_setup_fork(rte_job_t *job, uint32_t rank, char ***env)
{
    pmix_proc_t proc;
    pmix_status_t rc;
    PMIX_LOAD_PROCID(&proc, job->nspace, rank);
    rc = PMIx_server_setup_fork(&proc, env);
    return PMIX_SUCCESS == rc ? WU_SUCCESS : failed(job, "PMIx_server_setup_fork", rc);
}
