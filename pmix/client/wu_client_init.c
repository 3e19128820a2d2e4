/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_init.c -- PMIx_Init, PMIx_Initialized and PMIx_Finalize of the client library.
 *
 * Init is reference counted (Open MPI calls it again to declare its programming model, then
 * Finalize at once): the first call sets everything up, later ones return the same identity,
 * and only the last Finalize tears down. A call that declares a programming model
 * (PMIX_PROGRAMMING_MODEL, PMIX_MODEL_LIBRARY_NAME, PMIX_MODEL_LIBRARY_VERSION,
 * PMIX_THREADING_MODEL) raises PMIX_MODEL_DECLARED in this process, for the handlers registered
 * for that code (not the default ones), those registered later included (the last declaration
 * lasts, wu_event_deliver_lasting); the first call also tells the server, whose process's
 * handlers hear of it when the connection is accepted. The first call either connects to the server named in
 * the environment (PMIX_NAMESPACE, PMIX_RANK, WU_PMIX_SERVER_URI; see wu_proto.h for the
 * CONNECT handshake; with PMIX_SERVER_URI41 or PMIX_SERVER_URI4 in place of the last, an
 * OpenPMIx server, wu_client_opmix.c) or, when none of them is set, makes this process a singleton with a
 * one-process job registered in its own store. A partial environment is refused: it means a
 * launcher this library cannot talk to. */
#include "mca/plog/plog.h"
#include "mca/psec/psec.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_show_help.h"
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"
#include "pmix/event/wu_event.h"

#include "mca/base/wu_mca_param.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- singleton ------------------------------------------------------------------------- */

/* Point info at an info array as a PMIX_DATA_ARRAY (no copy; never destructed itself). */
static void load_array(pmix_info_t *i, const char *key, pmix_data_array_t *d, pmix_info_t *a,
                       size_t n)
{
    d->type = PMIX_INFO;
    d->size = n;
    d->array = a;
    PMIX_LOAD_KEY(i->key, key);
    i->value.type = PMIX_DATA_ARRAY;
    i->value.data.darray = d;
}

/* The job of a singleton: one process, one node, one application (RFC0009 layout: job data
 * under the wildcard rank, per-process data under rank 0, node and app data in their tables). */
static int register_singleton(void)
{
    pmix_info_t job[13], proc[10], node[6], app[3];
    pmix_data_array_t dproc, dnode, dapp;
    const char *host = wu_client.hostname, *ns = wu_client.myproc.nspace;
    size_t nj = 0, np = 0, nn = 0, na = 0;
    int rc;

    memset(job, 0, sizeof job);
    memset(proc, 0, sizeof proc);
    memset(node, 0, sizeof node);
    memset(app, 0, sizeof app);
    wu_info_u32(&job[nj++], PMIX_JOB_SIZE, 1);
    wu_info_u32(&job[nj++], PMIX_UNIV_SIZE, 1);
    wu_info_u32(&job[nj++], PMIX_MAX_PROCS, 1);
    wu_info_u32(&job[nj++], PMIX_LOCAL_SIZE, 1);
    wu_info_u32(&job[nj++], PMIX_NUM_NODES, 1);
    wu_info_u32(&job[nj++], PMIX_JOB_NUM_APPS, 1);
    PMIx_Info_load(&job[nj++], PMIX_LOCAL_PEERS, "0", PMIX_STRING);
    PMIx_Info_load(&job[nj++], PMIX_NSPACE, ns, PMIX_STRING);
    PMIx_Info_load(&job[nj++], PMIX_JOBID, ns, PMIX_STRING);
    PMIx_Info_load(&job[nj++], PMIX_NODE_LIST, host, PMIX_STRING);

    wu_info_rank(&proc[np++], PMIX_RANK, 0); /* names the rank (gds does not store it) */
    wu_info_rank(&proc[np++], PMIX_RANK, 0); /* the rank's own data */
    wu_info_u16(&proc[np++], PMIX_LOCAL_RANK, 0);
    wu_info_u16(&proc[np++], PMIX_NODE_RANK, 0);
    wu_info_u32(&proc[np++], PMIX_APPNUM, 0);
    wu_info_rank(&proc[np++], PMIX_GLOBAL_RANK, 0);
    wu_info_rank(&proc[np++], PMIX_APP_RANK, 0);
    wu_info_u32(&proc[np++], PMIX_NODEID, 0);
    PMIx_Info_load(&proc[np++], PMIX_HOSTNAME, host, PMIX_STRING);

    PMIx_Info_load(&node[nn++], PMIX_HOSTNAME, host, PMIX_STRING);
    wu_info_u32(&node[nn++], PMIX_NODEID, 0);
    PMIx_Info_load(&node[nn++], PMIX_LOCAL_PEERS, "0", PMIX_STRING);
    wu_info_u32(&node[nn++], PMIX_LOCAL_SIZE, 1);
    wu_info_u32(&node[nn++], PMIX_NODE_SIZE, 1);

    wu_info_u32(&app[na++], PMIX_APPNUM, 0);
    wu_info_u32(&app[na++], PMIX_APP_SIZE, 1);

    /* the three arrays point at stack memory: they are not destructed below */
    load_array(&job[nj++], PMIX_PROC_DATA, &dproc, proc, np);
    load_array(&job[nj++], PMIX_NODE_INFO_ARRAY, &dnode, node, nn);
    load_array(&job[nj++], PMIX_APP_INFO_ARRAY, &dapp, app, na);
    rc = wu_client.gds->register_nspace(wu_client.store, ns, job, nj);
    for (size_t i = 0; i < nj - 3; i++) {
        PMIX_INFO_DESTRUCT(&job[i]);
    }
    for (size_t i = 0; i < np; i++) {
        PMIX_INFO_DESTRUCT(&proc[i]);
    }
    for (size_t i = 0; i < nn; i++) {
        PMIX_INFO_DESTRUCT(&node[i]);
    }
    for (size_t i = 0; i < na; i++) {
        PMIX_INFO_DESTRUCT(&app[i]);
    }
    return rc;
}

/* ---- connecting ------------------------------------------------------------------------ */

static void connect_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    wu_wait_call_t *call = cbdata;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    uint32_t nlocal = 0;
    int32_t one = 1;
    /* the per-process data as a shared segment, when the server sent one with the reply */
    int fd = PMIX_SUCCESS == status ? wu_ptl_conn_take_fd(wu_client.conn) : -1;
    if (fd >= 0 && NULL == wu_client.gds->job_seg_attach) {
        status = PMIX_ERR_UNPACK_FAILURE; /* not asked for */
    } else if (fd >= 0) {
        status = wu_client.gds->job_seg_attach(wu_client.store, wu_client.myproc.nspace, fd);
    }
    if (fd >= 0) {
        close(fd);
    }
    if (PMIX_SUCCESS == status) {
        status = wu_proto_unpack_list(reply, (void **)&info, &ninfo, PMIX_INFO);
        if (PMIX_SUCCESS == status) {
            status = wu_unpack(reply, &nlocal, &one, PMIX_UINT32);
        }
        if (PMIX_SUCCESS == status) {
            one = 1;
            status = wu_unpack(reply, &wu_client.server, &one, PMIX_PROC);
        }
        if (PMIX_SUCCESS == status) {
            status = wu_client.gds->register_nspace(wu_client.store, wu_client.myproc.nspace, info,
                                                    ninfo);
        }
        if (NULL != info) {
            PMIX_INFO_FREE(info, ninfo);
        }
    }
    if (PMIX_SUCCESS == status) {
        /* the own namespace's job-level data is here now, even if the server sent none */
        status = wu_client.gds->import_job(wu_client.store, wu_client.myproc.nspace, NULL, 0);
    }
    /* the unpacked info arrays (over 500 bytes per info, per rank's data) are free again: give
     * their pages back rather than keep them dirty in every process of the job */
    (void)malloc_trim(0);
    wu_wait_call_done(call, status);
}

/* What CONNECT says besides the identity: the programming model declared (infos). */
typedef struct {
    const pmix_info_t *model;
    size_t nmodel;
} connect_args_t;

static void connect_fn(wu_wait_call_t *call)
{
    const connect_args_t *args = call->cbdata;
    wu_buffer_t b;
    pmix_byte_object_t cred = {NULL, 0};
    const char *mode = wu_psec_base_mode();
    const char *version = WU_PROTO_VERSION;
    pid_t pid = getpid();
    /* fence data and the registered per-process data in shared segments, when the selected gds
     * maps them and the connection can pass their descriptors */
    bool fds = NULL != wu_client.gds && wu_ptl_conn_passes_fds(wu_client.conn);
    uint32_t caps = (fds && NULL != wu_client.gds->seg_attach ? WU_PROTO_CAP_SEGMENTS : 0) |
                    (fds && NULL != wu_client.gds->job_seg_attach ? WU_PROTO_CAP_JOB_SEGMENT : 0);
    int rc;

    wu_client.mode = WU_CLIENT_CONNECTED;
    if (wu_client.opmix) {
        /* to an OpenPMIx server, the handshake was made: this asks for the job data (REQ) */
        rc = wu_client_msg_start(&b, WU_CMD_CONNECT);
        if (PMIX_SUCCESS == rc) {
            rc = wu_client_request(&b, WU_CLIENT_HANDSHAKE_TIMEOUT, connect_reply, call);
        } else {
            wu_buffer_destruct(&b);
        }
        if (PMIX_SUCCESS != rc) {
            wu_wait_call_done(call, rc);
        }
        return;
    }
    rc = wu_psec_base_create_cred(wu_ptl_conn_fd(wu_client.conn), &cred.bytes, &cred.size);
    if (WU_SUCCESS != rc) {
        wu_wait_call_done(call, PMIX_ERR_INVALID_CRED);
        return;
    }
    rc = wu_client_msg_start(&b, WU_CMD_CONNECT);
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &version, 1, PMIX_STRING);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &mode, 1, PMIX_STRING);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &cred, 1, PMIX_BYTE_OBJECT);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &wu_client.myproc, 1, PMIX_PROC);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &pid, 1, PMIX_PID);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &caps, 1, PMIX_UINT32);
    }
    if (PMIX_SUCCESS == rc && args->nmodel > 0) {
        rc = wu_proto_pack_list(&b, args->model, args->nmodel, PMIX_INFO);
    }
    free(cred.bytes);
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
        wu_wait_call_done(call, rc);
        return;
    }
    rc = wu_client_request(&b, WU_CLIENT_HANDSHAKE_TIMEOUT, connect_reply, call);
    if (PMIX_SUCCESS != rc) {
        wu_wait_call_done(call, rc);
    }
}

/* Use the security mode the server advertises unless the user chose one. */
static void choose_psec_mode(void)
{
    const char *mode = getenv(WU_PSEC_MODE_ENV);
    const wu_mca_param_var_t *v = wu_mca_param_find("psec");
    if (NULL != mode && '\0' != mode[0] && NULL != v && WU_PARAM_SRC_DEFAULT == v->source) {
        (void)wu_mca_param_set("psec", mode);
    }
}

static int parse_rank(const char *s, pmix_rank_t *rank)
{
    char *end;
    unsigned long r;
    errno = 0;
    r = strtoul(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || '\0' != *end || 0 != errno || r >= PMIX_RANK_VALID) {
        return PMIX_ERR_BAD_PARAM;
    }
    *rank = (pmix_rank_t)r;
    return PMIX_SUCCESS;
}

/* Connections tried again when the server closed one before it answered. */
#define CONNECT_RETRIES 4

/* Progress thread: drop a connection that ended before the server answered (its closed
 * callback has run), so that a new one can be made as if none had been. */
static void forget_conn(wu_wait_call_t *call)
{
    wu_ptl_conn_release(wu_client.conn);
    wu_client.conn = NULL;
    wu_client.mode = WU_CLIENT_SINGLETON;
    pthread_mutex_lock(&wu_client.req_lock);
    atomic_store(&wu_client.lost, false);
    pthread_mutex_unlock(&wu_client.req_lock);
    wu_wait_call_done(call, PMIX_SUCCESS);
}

static int connect_to_server(const char *ns, const char *rank, const char *uri,
                             const connect_args_t *args)
{
    int rc;
    if (strlen(ns) > PMIX_MAX_NSLEN || PMIX_SUCCESS != parse_rank(rank, &wu_client.myproc.rank)) {
        wu_show_help("help-wu-client.txt", "bad-identity", true, ns, rank);
        return PMIX_ERR_BAD_PARAM;
    }
    PMIX_LOAD_NSPACE(wu_client.myproc.nspace, ns);
    if (WU_SUCCESS != wu_ptl_base_open()) {
        return PMIX_ERR_INIT;
    }
    wu_client.ptl_open = true;
    if (!wu_client.opmix) {
        choose_psec_mode();
        if (WU_SUCCESS != wu_psec_base_open()) {
            return PMIX_ERR_INIT;
        }
        wu_client.psec_open = true;
    }
    for (int attempt = 0;; attempt++) {
        if (wu_client.opmix) {
            /* an OpenPMIx server (wu_client_opmix.c): its handshake is made here */
            rc = wu_client_opmix_connect(uri);
            if (PMIX_SUCCESS != rc) {
                wu_show_help("help-wu-client.txt", "connect-failed", true, uri,
                             PMIx_Error_string(rc));
                return PMIX_ERR_UNREACH;
            }
        } else if (WU_SUCCESS != (rc = wu_ptl_connect(wu_client.pt, uri, wu_client_recv,
                                                      wu_client_closed, NULL, &wu_client.conn))) {
            wu_show_help("help-wu-client.txt", "connect-failed", true, uri, wu_strerror(rc));
            return PMIX_ERR_UNREACH;
        }
        rc = wu_progress_shift_wait(wu_client.pt, connect_fn, (void *)args, 0);
        if (PMIX_ERR_LOST_CONNECTION != rc || attempt >= CONNECT_RETRIES) {
            break;
        }
        /* closed before any answer: a listener busy with a flood of unauthenticated peers may
         * displace a connection whose handshake it has not read yet (mca/ptl/ptl.h); connect
         * again after a short pause */
        (void)wu_progress_shift_wait(wu_client.pt, forget_conn, NULL, 0);
        usleep((useconds_t)(20000u << attempt));
    }
    if (PMIX_SUCCESS != rc) {
        wu_show_help("help-wu-client.txt", "handshake-failed", true, uri, ns, rank,
                     PMIx_Error_string(rc));
        return rc;
    }
    return PMIX_SUCCESS;
}

/* ---- init / finalize ------------------------------------------------------------------- */

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return NULL != v && '\0' != v[0] ? v : NULL;
}

static void close_fn(wu_wait_call_t *call)
{
    wu_client_staged_clear();
    pthread_mutex_lock(&wu_client.spare_lock);
    wu_buffer_destruct(&wu_client.spare);
    pthread_mutex_unlock(&wu_client.spare_lock);
    if (NULL != wu_client.conn) {
        wu_ptl_close(wu_client.conn); /* its closed callback fails what is still pending */
    }
    wu_wait_call_done(call, PMIX_SUCCESS);
}

/* Undo setup, whatever part of it was done. Called with the lock held. */
static void teardown(void)
{
    if (NULL != wu_client.pt) {
        (void)wu_progress_shift_wait(wu_client.pt, close_fn, NULL, 0);
        wu_progress_stop(wu_client.pt); /* runs the closed callback first */
        wu_client.pt = NULL;
    }
    wu_ptl_conn_release(wu_client.conn);
    wu_client.conn = NULL;
    wu_client_fail_pending(PMIX_ERR_LOST_CONNECTION); /* none left; kept for safety */
    if (NULL != wu_client.gds) {
        wu_client.gds->store_release(wu_client.store);
        wu_client.store = NULL;
        wu_client.gds = NULL;
        wu_gds_base_close();
    }
    if (wu_client.psec_open) {
        wu_psec_base_close();
    }
    if (wu_client.ptl_open) {
        wu_ptl_base_close();
    }
    if (wu_client.plog_open) {
        wu_plog_base_close();
    }
    wu_client.psec_open = wu_client.ptl_open = wu_client.plog_open = false;
    wu_client_topo_release();
    wu_client_groups_clear();
    wu_mca_base_close();
}

static int setup(const connect_args_t *args)
{
    const char *ns = env("PMIX_NAMESPACE"), *rank = env("PMIX_RANK");
    const char *uri = env(WU_PROTO_URI_ENV), *host = env("PMIX_HOSTNAME");
    int rc;

    /* no server of Wireup's, but one of OpenPMIx's (4.1-compatible, as 4.2 and 5.0 announce
     * themselves): talk its protocol (wu_client_opmix.c) */
    wu_client.opmix = false;
    if (NULL == uri && NULL != ns && NULL != (uri = env("PMIX_SERVER_URI41"))) {
        wu_client.opmix = true;
    } else if (NULL == uri && NULL != ns && NULL != (uri = env("PMIX_SERVER_URI4"))) {
        wu_client.opmix = true;
    }

    if ((NULL != ns || NULL != rank || NULL != uri) &&
        (NULL == ns || NULL == rank || NULL == uri)) {
        wu_show_help("help-wu-client.txt", "partial-env", true, NULL != ns ? ns : "(unset)",
                     NULL != rank ? rank : "(unset)", WU_PROTO_URI_ENV,
                     NULL != uri ? uri : "(unset)");
        return PMIX_ERR_UNREACH;
    }
    memset(wu_client.hostname, 0, sizeof wu_client.hostname);
    if (NULL != host) {
        snprintf(wu_client.hostname, sizeof wu_client.hostname, "%s", host);
    } else if (0 != gethostname(wu_client.hostname, sizeof wu_client.hostname - 1)) {
        snprintf(wu_client.hostname, sizeof wu_client.hostname, "localhost");
    }
    if (WU_SUCCESS != wu_mca_base_open()) {
        return PMIX_ERR_INIT;
    }
    if (WU_SUCCESS != wu_gds_base_open()) {
        wu_mca_base_close();
        return PMIX_ERR_INIT;
    }
    wu_client.gds = wu_gds_base_module();
    if (PMIX_SUCCESS != wu_client.gds->store_create(&wu_client.store)) {
        teardown();
        return PMIX_ERR_NOMEM;
    }
    /* without any plog module PMIx_Log reports every channel unsupported */
    wu_client.plog_open = WU_SUCCESS == wu_plog_base_open();
    wu_client.next_tag = 0;
    wu_client.pending = NULL;
    atomic_store(&wu_client.lost, false);
    atomic_store(&wu_client.commits_out, 0);
    atomic_store(&wu_client.shifted, 0);
    if (NULL == (wu_client.pt = wu_progress_start("wu-client"))) {
        teardown();
        return PMIX_ERR_INIT;
    }
    wu_client.singleton = false;
    if (NULL == ns) {
        wu_client.mode = WU_CLIENT_SINGLETON;
        wu_client.singleton = true;
        snprintf(wu_client.myproc.nspace, sizeof wu_client.myproc.nspace, "singleton.%.200s.%ld",
                 wu_client.hostname, (long)getpid());
        wu_client.myproc.rank = 0;
        rc = register_singleton();
    } else {
        rc = connect_to_server(ns, rank, uri, args);
    }
    if (PMIX_SUCCESS != rc) {
        teardown();
    }
    return rc;
}

/* In a child of fork the library is not initialized: the parent's thread is not there. */
static void forked_child(void)
{
    atomic_store(&wu_client.live, NULL);
}

static void watch_fork(void)
{
    (void)pthread_atfork(NULL, NULL, forked_child);
}

/* A programming model declared: PMIX_MODEL_DECLARED for this process's handlers, those
 * registered later included (python3-pmix and OpenPMIx's hybrid example register theirs after
 * PMIx_Init). Progress thread. */
typedef struct {
    pmix_info_t *info;
    size_t ninfo;
} model_decl_t;

static void model_declare(void *arg)
{
    model_decl_t *m = arg;
    (void)wu_event_deliver_lasting(PMIX_MODEL_DECLARED, &wu_client.myproc, PMIX_RANGE_PROC_LOCAL,
                                   m->info, m->ninfo);
    PMIX_INFO_FREE(m->info, m->ninfo);
    free(m);
}

pmix_status_t PMIx_Init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo)
{
    static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
    pmix_info_t *model = NULL;
    /* a programming model declared: told to the server in CONNECT (the infos without the
     * event's last, PMIX_EVENT_NON_DEFAULT), and to this process's handlers below */
    size_t nmodel = wu_model_event_info(info, ninfo, &model);
    connect_args_t args = {.model = model, .nmodel = nmodel > 0 ? nmodel - 1 : 0};
    int rc = PMIX_SUCCESS;
    pthread_mutex_lock(&wu_client.lock);
    if (wu_client.refs > 0 && wu_client.pid != getpid()) {
        /* inherited across fork: the parent's thread and connection are not ours to use */
        wu_client.refs = 0;
        wu_client_store_lock_reset(); /* it may have been held across fork */
        wu_client.pt = NULL;
        wu_client.conn = NULL;
        wu_client.store = NULL;
        wu_client.gds = NULL;
        wu_client.pending = NULL;
        wu_client.staged[0] = wu_client.staged[1] = NULL; /* the parent's */
        wu_client.plog_open = wu_client.ptl_open = wu_client.psec_open = false;
    }
    if (0 == wu_client.refs) {
        memset(&wu_client.myproc, 0, sizeof wu_client.myproc);
        rc = setup(&args);
        if (PMIX_SUCCESS == rc) {
            wu_client.pid = getpid();
            wu_event_rt_set(WU_EVENT_CLIENT, &wu_client_event_rt);
        }
    }
    if (PMIX_SUCCESS == rc) {
        wu_client.refs++;
        (void)pthread_once(&fork_once, watch_fork);
        atomic_store_explicit(&wu_client.live, wu_client.pt, memory_order_release);
        if (NULL != proc) {
            *proc = wu_client.myproc;
        }
    }
    pthread_mutex_unlock(&wu_client.lock);
    if (PMIX_SUCCESS == rc && nmodel > 0) {
        /* to the handlers registered for it, now and later (Open MPI's declares itself with a
         * second PMIx_Init and finalizes at once: the event must not be waited for) */
        model_decl_t *m = calloc(1, sizeof *m);
        if (NULL != m) {
            m->info = model;
            m->ninfo = nmodel;
            model = NULL;
            if (PMIX_SUCCESS != wu_client_shift(model_declare, m)) {
                model = m->info;
                free(m);
            }
        }
    }
    if (NULL != model) {
        PMIX_INFO_FREE(model, nmodel);
    }
    return rc;
}

int PMIx_Initialized(void)
{
    return wu_client_ready() ? 1 : 0;
}

static void finalize_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    (void)reply;
    wu_wait_call_done(cbdata, status);
}

static void finalize_fn(wu_wait_call_t *call)
{
    wu_buffer_t b;
    int rc;
    wu_event_release_all(); /* a finalizing client hears no more events */
    wu_client_run_cleanup();
    if (WU_CLIENT_CONNECTED != wu_client.mode) {
        wu_wait_call_done(call, PMIX_SUCCESS);
        return;
    }
    rc = wu_client_msg_start(&b, WU_CMD_FINALIZE);
    if (PMIX_SUCCESS == rc) {
        rc = wu_client_request(&b, WU_CLIENT_HANDSHAKE_TIMEOUT, finalize_reply, call);
    } else {
        wu_buffer_destruct(&b);
    }
    if (PMIX_SUCCESS != rc) {
        wu_wait_call_done(call, rc);
    }
}

pmix_status_t PMIx_Finalize(const pmix_info_t info[], size_t ninfo)
{
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (wu_progress_in_thread(wu_client.pt)) {
        return PMIX_ERR_WOULD_BLOCK; /* from a callback: the thread cannot stop itself */
    }
    if (wu_info_flag(info, ninfo, PMIX_EMBED_BARRIER) && 1 == wu_client.refs) {
        (void)PMIx_Fence(NULL, 0, NULL, 0);
    }
    pthread_mutex_lock(&wu_client.lock);
    if (wu_client.refs <= 0) {
        pthread_mutex_unlock(&wu_client.lock);
        return PMIX_ERR_INIT;
    }
    if (--wu_client.refs > 0) {
        pthread_mutex_unlock(&wu_client.lock);
        return PMIX_SUCCESS;
    }
    /* the last one: tell the server (a lost or silent server does not fail a local finalize) */
    (void)wu_progress_shift_wait(wu_client.pt, finalize_fn, NULL, 0);
    atomic_store(&wu_client.live, NULL);
    teardown();
    wu_event_rt_set(WU_EVENT_CLIENT, NULL);
    pthread_mutex_unlock(&wu_client.lock);
    return PMIX_SUCCESS;
}
