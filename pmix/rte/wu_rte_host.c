/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_host.c -- the host side of the embedded PMIx server: its init with our host module,
 * the registration of a job (every key Open MPI 4.1 reads, ompi-4.1-contract.md 4.2) and of its
 * clients, the child environment, and the upcalls.
 *
 * Upcalls arrive on the server's thread. client_connected and client_finalized only set a flag
 * of the process record (their server_object) and complete at once (PMIX_OPERATION_SUCCEEDED):
 * the client gets its answer without waiting for the rte thread, which may be busy launching,
 * and the flag is set before the client can exit. abort is shifted to the rte progress thread,
 * where the job state lives, and completed with its cbfunc from there. On one node there is
 * nobody to exchange data with, so fence_nb and direct_modex are NULL: the server completes
 * local fences itself. */
#include "pmix/rte/wu_rte_internal.h"
#include "pmix/server/wu_server_host.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_path.h"
#include "opal/util/wu_show_help.h"
#include "pmix/common/wu_value.h"
#include "pmix.h"
#include "pmix_server.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool have_server = false;

bool wu_rte_have_server(void)
{
    return have_server;
}

/* --- waiting for a server call's cbfunc ------------------------------------------------------ */

/* Shared by the waiter and the callback, so a waiter that gives up does not free it under a
 * late callback. */
typedef struct {
    wu_wait_t w;
    atomic_int refs;
} opwait_t;

static opwait_t *opw_new(void)
{
    opwait_t *o = calloc(1, sizeof *o);
    if (NULL != o) {
        wu_wait_init(&o->w);
        atomic_init(&o->refs, 2);
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

static void op_cb(pmix_status_t status, void *cbdata)
{
    opwait_t *o = cbdata;
    wu_wait_release(&o->w, status);
    opw_put(o);
}

/* rc is what the call returned; wait for its cbfunc when it promised one. */
static int opw_finish(opwait_t *o, pmix_status_t rc, double timeout)
{
    if (PMIX_SUCCESS != rc) {
        opw_put(o); /* the callback will not come */
        opw_put(o);
        return PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc;
    }
    rc = wu_wait_for(&o->w, timeout);
    opw_put(o);
    return rc;
}

#define SERVER_OP_TIMEOUT 60.0 /* seconds; a server call that takes longer is broken */

/* --- upcalls --------------------------------------------------------------------------------- */

typedef enum { UP_ABORT } up_kind_t;

typedef struct {
    up_kind_t kind;
    pmix_proc_t proc;
    int status;
    char *msg;
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} upcall_t;

static rte_proc_t *find_proc(const pmix_proc_t *p)
{
    rte_job_t *job = wu_rte_job;
    if (NULL == job || 0 != strncmp(job->nspace, p->nspace, PMIX_MAX_NSLEN) || p->rank >= job->np) {
        return NULL;
    }
    return &job->procs[p->rank];
}

static void upcall_in_rte(void *arg)
{
    upcall_t *u = arg;
    rte_proc_t *p = find_proc(&u->proc);
    int st;

    switch (u->kind) {
    case UP_ABORT:
        wu_rte_say("abort", wu_rte_tool, u->proc.rank, u->proc.nspace, u->status,
                   NULL != u->msg && '\0' != u->msg[0] ? ": " : "", NULL != u->msg ? u->msg : "");
        /* the exit status keeps the low 8 bits, but a non-zero status never becomes 0 */
        st = u->status & 0xff;
        if (0 == st && 0 != u->status) {
            st = 1;
        }
        /* answer first, so the caller of PMIx_Abort is not killed while it waits */
        if (NULL != u->cbfunc) {
            u->cbfunc(PMIX_SUCCESS, u->cbdata);
            u->cbfunc = NULL;
        }
        if (NULL != wu_rte_job && NULL != p) {
            wu_rte_job_fail(wu_rte_job, st);
        }
        break;
    }
    if (NULL != u->cbfunc) {
        u->cbfunc(PMIX_SUCCESS, u->cbdata);
    }
    free(u->msg);
    free(u);
}

static pmix_status_t shift_upcall(up_kind_t kind, const pmix_proc_t *proc, int status,
                                  const char *msg, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    upcall_t *u = calloc(1, sizeof *u);
    if (NULL == u || NULL == proc) {
        free(u);
        return PMIX_ERR_NOMEM;
    }
    u->kind = kind;
    u->proc = *proc;
    u->status = status;
    u->cbfunc = cbfunc;
    u->cbdata = cbdata;
    if (NULL != msg && NULL == (u->msg = strdup(msg))) {
        free(u);
        return PMIX_ERR_NOMEM;
    }
    if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), upcall_in_rte, u)) {
        free(u->msg);
        free(u);
        return PMIX_ERR_INIT; /* shutting down */
    }
    return PMIX_SUCCESS;
}

/* client_connected and client_finalized only mark the process (its server_object) */
static pmix_status_t mark(atomic_bool *flag)
{
    atomic_store(flag, true);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t h_connected(const pmix_proc_t *proc, void *server_object,
                                 pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    rte_proc_t *p = server_object;
    (void)proc;
    (void)cbfunc;
    (void)cbdata;
    return NULL != p ? mark(&p->connected) : PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t h_connected2(const pmix_proc_t *proc, void *server_object, pmix_info_t info[],
                                  size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)info;
    (void)ninfo;
    return h_connected(proc, server_object, cbfunc, cbdata);
}

static pmix_status_t h_finalized(const pmix_proc_t *proc, void *server_object,
                                 pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    rte_proc_t *p = server_object;
    (void)proc;
    (void)cbfunc;
    (void)cbdata;
    return NULL != p ? mark(&p->finalized) : PMIX_OPERATION_SUCCEEDED;
}

/* The server saw p's connection end without PMIx_Finalize (server thread): remember in which
 * order, so that the process that died first is the one whose status the job gets. */
static void h_lost(const pmix_proc_t *proc, void *server_object)
{
    static atomic_uint seq = 0;
    rte_proc_t *p = server_object;
    (void)proc;
    if (NULL != p) {
        atomic_store(&p->lost_seq, atomic_fetch_add(&seq, 1) + 1);
    }
}

static pmix_status_t h_abort(const pmix_proc_t *proc, void *server_object, int status,
                             const char msg[], pmix_proc_t procs[], size_t nprocs,
                             pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    /* procs names whom to abort; with one job on one node we end the whole job either way, as
     * mpirun does */
    (void)server_object;
    (void)procs;
    (void)nprocs;
    return shift_upcall(UP_ABORT, proc, status, msg, cbfunc, cbdata);
}

/* --- server ---------------------------------------------------------------------------------- */

int wu_rte_server_init(void)
{
    pmix_server_module_t module;
    pmix_info_t *info;
    pmix_rank_t rank = 0;
    char nspace[PMIX_MAX_NSLEN + 1];
    pmix_status_t rc;

    memset(&module, 0, sizeof module);
    module.client_connected = h_connected;
    module.client_connected2 = h_connected2;
    module.client_finalized = h_finalized;
    module.abort = h_abort;
    module.log = wu_rte_log_upcall;
    wu_server_set_lost_hook(h_lost);

    snprintf(nspace, sizeof nspace, "%s.%.64s.%d", wu_rte_tool, wu_rte_hostname, (int)getpid());
    PMIX_INFO_CREATE(info, 2);
    if (NULL == info) {
        return WU_ERR_NOMEM;
    }
    PMIx_Info_load(&info[0], PMIX_SERVER_NSPACE, nspace, PMIX_STRING);
    PMIx_Info_load(&info[1], PMIX_SERVER_RANK, &rank, PMIX_PROC_RANK);
    rc = PMIx_server_init(&module, info, 2);
    PMIX_INFO_FREE(info, 2);
    if (PMIX_ERR_NOT_SUPPORTED == rc) {
        /* a library without the server side: run programs without PMIx (they will be
         * singletons), so launching still works */
        wu_output_verbose(WU_VERB_WARN, 0,
                          "%s: no PMIx server in this build; processes run "
                          "without PMIx",
                          wu_rte_tool);
        return WU_SUCCESS;
    }
    if (PMIX_SUCCESS != rc) {
        wu_show_help("help-wu-rte.txt", "server-init-failed", true, wu_rte_tool,
                     PMIx_Error_string(rc));
        return WU_ERR_SILENT;
    }
    have_server = true;
    return WU_SUCCESS;
}

void wu_rte_server_finalize(void)
{
    if (have_server) {
        (void)PMIx_server_finalize();
        have_server = false;
    }
}

/* --- job registration ------------------------------------------------------------------------ */

/* An empty array of n infos for a PMIX_DATA_ARRAY value; NULL: no memory. */
static pmix_data_array_t *info_array(size_t n)
{
    pmix_data_array_t *d;
    PMIX_DATA_ARRAY_CREATE(d, n, PMIX_INFO);
    if (NULL != d && NULL == d->array) {
        free(d);
        d = NULL;
    }
    return d;
}

/* info = key: d (an array of infos), which info then owns. */
static void load_array(pmix_info_t *info, const char *key, pmix_data_array_t *d)
{
    PMIX_LOAD_KEY(info->key, key);
    info->value.type = PMIX_DATA_ARRAY;
    info->value.data.darray = d;
}

/* Per-process data: PMIX_RANK first (the Standard's rule for PMIX_PROC_DATA). */
static pmix_data_array_t *proc_data(const rte_job_t *job, uint32_t r)
{
    const wu_rte_proc_place_t *pl = NULL != job->place ? &job->place->procs[r] : NULL;
    const size_t n = (NULL != job->nsdir ? 9 : 8) + (NULL != pl ? 2 : 0);
    size_t k = 8;
    pmix_data_array_t *d = info_array(n);
    pmix_info_t *a;
    if (NULL == d) {
        return NULL;
    }
    a = d->array;
    wu_info_rank(&a[0], PMIX_RANK, r);
    wu_info_rank(&a[1], PMIX_GLOBAL_RANK, r);
    wu_info_rank(&a[2], PMIX_APP_RANK, job->procs[r].ctx_rank);
    /* one node: local and node ranks equal the rank; the contract wants them as UINT16 */
    wu_info_u16(&a[3], PMIX_LOCAL_RANK, (uint16_t)r);
    wu_info_u16(&a[4], PMIX_NODE_RANK, (uint16_t)r);
    wu_info_u32(&a[5], PMIX_NODEID, 0);
    PMIx_Info_load(&a[6], PMIX_HOSTNAME, wu_rte_hostname, PMIX_STRING);
    wu_info_u32(&a[7], PMIX_APPNUM, job->procs[r].ctx);
    if (NULL != job->nsdir) {
        char *pdir = NULL;
        if (WU_SUCCESS != wu_asprintf(&pdir, "%s/%u", job->nsdir, r)) {
            PMIX_DATA_ARRAY_FREE(d);
            return NULL;
        }
        PMIx_Info_load(&a[k++], PMIX_PROCDIR, pdir, PMIX_STRING);
        free(pdir);
    }
    if (NULL != pl) {
        /* an unbound rank's values are NULL strings, as ORTE registers them (Open MPI then
         * treats it as unbound) */
        PMIx_Info_load(&a[k++], PMIX_CPUSET, pl->cpulist, PMIX_STRING);
        PMIx_Info_load(&a[k++], PMIX_LOCALITY_STRING, pl->locstr, PMIX_STRING);
    }
    return d;
}

/* What a client may ask about application context c (PMIX_APP_INFO_ARRAY). */
static pmix_data_array_t *app_data(const rte_job_t *job, uint32_t c)
{
    const wu_rte_ctx_t *ctx = &job->app->ctx[c];
    const size_t n = NULL != ctx->cwd ? 4 : 3;
    pmix_data_array_t *d = info_array(n);
    pmix_info_t *a;
    if (NULL == d) {
        return NULL;
    }
    a = d->array;
    wu_info_u32(&a[0], PMIX_APPNUM, c);
    wu_info_u32(&a[1], PMIX_APP_SIZE, job->ctx_size[c]);
    wu_info_rank(&a[2], PMIX_APPLDR, job->ctx_first[c]);
    if (NULL != ctx->cwd) {
        PMIx_Info_load(&a[3], PMIX_WDIR, ctx->cwd, PMIX_STRING);
    }
    return d;
}

/* The job-level and per-process data of job: every key of ompi-4.1-contract.md 4.2 that has a
 * meaning for an unbound single-node job, and the nextra job-level infos of extra (pnet's). */
static int job_info(rte_job_t *job, const pmix_info_t *extra, size_t nextra, pmix_info_t **out,
                    size_t *nout)
{
    char *xml = NULL;
    const bool have_xml = NULL != job->topo && WU_SUCCESS == wu_rte_topo_xml(job->topo, &xml);
    const uint32_t napps = job->app->nctx;
    /* one context: its data at job level too (what single-program clients ask for) */
    const size_t njob =
        (NULL != job->nsdir ? 21 : 18) + (have_xml ? 1 : 0) - 3 + (napps > 1 ? (size_t)napps : 3);
    size_t n = njob + nextra + job->np, k = 0;
    bool rmclean = true;
    char *peers = NULL, *regex = NULL, *ppn = NULL;
    char **ranks = NULL;
    pmix_info_t *info;
    pmix_status_t rc;
    int ret = WU_ERR_NOMEM;

    for (uint32_t r = 0; r < job->np; r++) {
        char s[16];
        snprintf(s, sizeof s, "%u", r);
        if (WU_SUCCESS != wu_argv_append(&ranks, s)) {
            goto out;
        }
    }
    if (NULL == (peers = wu_argv_join(ranks, ','))) {
        goto out;
    }
    if (PMIX_SUCCESS != (rc = PMIx_generate_regex(wu_rte_hostname, &regex)) ||
        PMIX_SUCCESS != (rc = PMIx_generate_ppn(peers, &ppn))) {
        wu_show_help("help-wu-rte.txt", "register-failed", true, wu_rte_tool, job->nspace,
                     "PMIx_generate_regex/ppn", PMIx_Error_string(rc));
        ret = WU_ERR_SILENT;
        goto out;
    }
    PMIX_INFO_CREATE(info, n);
    if (NULL == info) {
        goto out;
    }
    PMIx_Info_load(&info[k++], PMIX_JOBID, job->nspace, PMIX_STRING);
    wu_info_u32(&info[k++], PMIX_JOB_SIZE, job->np);
    wu_info_u32(&info[k++], PMIX_UNIV_SIZE, job->np);
    wu_info_u32(&info[k++], PMIX_MAX_PROCS, job->np);
    wu_info_u32(&info[k++], PMIX_LOCAL_SIZE, job->np);
    wu_info_u32(&info[k++], PMIX_NODE_SIZE, job->np);
    wu_info_u32(&info[k++], PMIX_NUM_NODES, 1);
    wu_info_u32(&info[k++], PMIX_JOB_NUM_APPS, napps);
    if (1 == napps) {
        wu_info_u32(&info[k++], PMIX_APPNUM, 0);
        wu_info_u32(&info[k++], PMIX_APP_SIZE, job->np);
        wu_info_rank(&info[k++], PMIX_APPLDR, 0);
    } else {
        for (uint32_t c = 0; c < napps; c++) {
            pmix_data_array_t *d = app_data(job, c);
            if (NULL == d) {
                PMIX_INFO_FREE(info, n);
                goto out;
            }
            load_array(&info[k++], PMIX_APP_INFO_ARRAY, d);
        }
    }
    wu_info_rank(&info[k++], PMIX_LOCALLDR, 0);
    wu_info_u32(&info[k++], PMIX_NODEID, 0);
    PMIx_Info_load(&info[k++], PMIX_HOSTNAME, wu_rte_hostname, PMIX_STRING);
    PMIx_Info_load(&info[k++], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    PMIx_Info_load(&info[k++], PMIX_NODE_MAP, regex, PMIX_STRING);
    PMIx_Info_load(&info[k++], PMIX_PROC_MAP, ppn, PMIX_STRING);
    PMIx_Info_load(&info[k++], PMIX_MAPBY, "BYSLOT:NOOVERSUBSCRIBE", PMIX_STRING);
    if (NULL != job->nsdir) {
        /* the job's session directory is ours, and we remove it: Open MPI puts its own session
         * directories there instead of /tmp/ompi.<host>.<uid>, and leaves their removal to us */
        PMIx_Info_load(&info[k++], PMIX_TMPDIR, wu_server_session_dir(), PMIX_STRING);
        PMIx_Info_load(&info[k++], PMIX_NSDIR, job->nsdir, PMIX_STRING);
        PMIx_Info_load(&info[k++], PMIX_TDIR_RMCLEAN, &rmclean, PMIX_BOOL);
    }
    if (have_xml) { /* clients need not discover the topology themselves */
        PMIx_Info_load(&info[k++], PMIX_HWLOC_XML_V2, xml, PMIX_STRING);
    }
    for (size_t i = 0; i < nextra; i++, k++) {
        if (PMIX_SUCCESS != PMIx_Info_xfer(&info[k], &extra[i])) {
            PMIX_INFO_FREE(info, n);
            goto out;
        }
        info[k].flags &= ~PMIX_INFO_ARRAY_END; /* not the end here */
    }
    for (uint32_t r = 0; r < job->np; r++, k++) {
        pmix_data_array_t *d = proc_data(job, r);
        if (NULL == d) {
            PMIX_INFO_FREE(info, n);
            goto out;
        }
        load_array(&info[k], PMIX_PROC_DATA, d);
    }
    *out = info;
    *nout = n;
    ret = WU_SUCCESS;
out:
    free(xml);
    wu_argv_free(ranks);
    free(peers);
    free(regex);
    free(ppn);
    return ret;
}

/* --- network preparation (pnet) --------------------------------------------------------- */

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
    op_cb(status, np->o);
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
    if (NULL == np || NULL == (np->o = opw_new())) {
        free(np);
        return WU_ERR_NOMEM;
    }
    PMIX_INFO_CONSTRUCT(&in);
    wu_info_u32(&in, PMIX_JOB_SIZE, job->np);
    rc = PMIx_server_setup_application(job->nspace, &in, 1, netprep_cb, np);
    rc = opw_finish(np->o, rc, SERVER_OP_TIMEOUT);
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
    opwait_t *o = opw_new();
    int rc;
    if (NULL == o) {
        return WU_ERR_NOMEM;
    }
    rc = PMIx_server_setup_local_support(job->nspace, net, nnet, op_cb, o);
    rc = opw_finish(o, rc, SERVER_OP_TIMEOUT);
    if (PMIX_SUCCESS != rc) {
        wu_show_help("help-wu-rte.txt", "pnet-failed", true, wu_rte_tool, job->nspace,
                     "PMIx_server_setup_local_support", PMIx_Error_string(rc));
        return WU_ERR_SILENT;
    }
    return WU_SUCCESS;
}

int wu_rte_register_job(rte_job_t *job)
{
    pmix_info_t *info = NULL, *net = NULL;
    size_t ninfo = 0, nnet = 0;
    opwait_t *o;
    int rc;

    if (!have_server) {
        return WU_SUCCESS;
    }
    if (NULL != wu_server_session_dir() &&
        (WU_SUCCESS != wu_asprintf(&job->nsdir, "%s/%s", wu_server_session_dir(), job->nspace) ||
         0 != mkdir(job->nsdir, 0700))) {
        free(job->nsdir); /* not fatal: the processes then choose their own directories */
        job->nsdir = NULL;
    }
    if (WU_SUCCESS != (rc = netprep_app(job, &net, &nnet))) {
        return rc;
    }
    rc = job_info(job, net, nnet, &info, &ninfo);
    if (WU_SUCCESS == rc && NULL == (o = opw_new())) {
        PMIX_INFO_FREE(info, ninfo);
        rc = WU_ERR_NOMEM;
    }
    if (WU_SUCCESS != rc) {
        if (NULL != net) {
            PMIX_INFO_FREE(net, nnet);
        }
        return rc;
    }
    rc = PMIx_server_register_nspace(job->nspace, (int)job->np, info, ninfo, op_cb, o);
    rc = opw_finish(o, rc, SERVER_OP_TIMEOUT);
    if (PMIX_ERR_TIMEOUT != rc && WU_ERR_TIMEOUT != rc) {
        PMIX_INFO_FREE(info, ninfo); /* else the server may still read it: leave it */
    }
    if (PMIX_SUCCESS != rc) {
        if (NULL != net) {
            PMIX_INFO_FREE(net, nnet);
        }
        wu_show_help("help-wu-rte.txt", "register-failed", true, wu_rte_tool, job->nspace,
                     "PMIx_server_register_nspace", PMIx_Error_string(rc));
        return WU_ERR_SILENT;
    }
    rc = netprep_local(job, net, nnet);
    if (NULL != net) {
        PMIX_INFO_FREE(net, nnet);
    }
    if (WU_SUCCESS != rc) {
        return rc;
    }
    for (uint32_t r = 0; r < job->np; r++) {
        pmix_proc_t proc;
        PMIX_LOAD_NSPACE(proc.nspace, job->nspace);
        proc.rank = r;
        if (NULL == (o = opw_new())) {
            return WU_ERR_NOMEM;
        }
        rc = PMIx_server_register_client(&proc, getuid(), getgid(), &job->procs[r], op_cb, o);
        rc = opw_finish(o, rc, SERVER_OP_TIMEOUT);
        if (PMIX_SUCCESS != rc) {
            wu_show_help("help-wu-rte.txt", "register-failed", true, wu_rte_tool, job->nspace,
                         "PMIx_server_register_client", PMIx_Error_string(rc));
            return WU_ERR_SILENT;
        }
        job->procs[r].registered = true;
    }
    return WU_SUCCESS;
}

void wu_rte_deregister_job(rte_job_t *job)
{
    opwait_t *o;
    if (!have_server) {
        return;
    }
    for (uint32_t r = 0; r < job->np; r++) {
        pmix_proc_t proc;
        if (!job->procs[r].registered) {
            continue;
        }
        PMIX_LOAD_NSPACE(proc.nspace, job->nspace);
        proc.rank = r;
        if (NULL != (o = opw_new())) {
            PMIx_server_deregister_client(&proc, op_cb, o);
            (void)opw_finish(o, PMIX_SUCCESS, SERVER_OP_TIMEOUT);
        }
        job->procs[r].registered = false;
    }
    if (NULL != (o = opw_new())) {
        PMIx_server_deregister_nspace(job->nspace, op_cb, o);
        (void)opw_finish(o, PMIX_SUCCESS, SERVER_OP_TIMEOUT);
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
    if (!have_server) {
        return WU_SUCCESS;
    }
    PMIX_LOAD_NSPACE(proc.nspace, job->nspace);
    proc.rank = rank;
    rc = PMIx_server_setup_fork(&proc, env);
    if (PMIX_SUCCESS != rc) {
        wu_show_help("help-wu-rte.txt", "register-failed", true, wu_rte_tool, job->nspace,
                     "PMIx_server_setup_fork", PMIx_Error_string(rc));
        return WU_ERR_SILENT;
    }
    return WU_SUCCESS;
}
