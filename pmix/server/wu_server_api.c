/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_api.c -- the PMIx_server_* entry points: init and finalize, namespace and client
 * registration, the child environment (setup_fork), and the node/proc map generators.
 *
 * Registration calls copy their arguments and shift into the progress thread. Their cbfunc is
 * always called there once the work is done, whatever the outcome, when the call returned
 * PMIX_SUCCESS (or for the void deregistration calls). With a NULL cbfunc a call made outside
 * the progress thread waits for the work (up to a minute) before returning.
 *
 * PMIx_server_setup_application and PMIx_server_setup_local_support: wu_server_setup.c. */
#include "mca/plog/plog.h"
#include "mca/pnet/pnet.h"
#include "mca/psec/psec.h"
#include "opal/event/wu_wait.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_output.h"
#include "opal/util/wu_path.h"
#include "opal/util/wu_session_dir.h"
#include "opal/util/wu_show_help.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_regex.h"
#include "pmix/event/wu_event.h"
#include "pmix/server/wu_server.h"

#include "pmix.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define API_WAIT 60.0

static int verbose = WU_VERB_ERROR;
static const wu_mca_param_t server_params[] = {
    WU_PARAM_INT("verbose", &verbose, WU_INFO_LVL_5,
                 "Verbosity of the PMIx server library (0: errors only ... 100: everything)"),
    WU_PARAM_INT_RANGE("connect_wait", &wu_srv_connect_wait, 1, 3600, WU_INFO_LVL_6,
                       "Seconds a connecting client may wait for the host to register it"),
    WU_PARAM_BOOL("openpmix", &wu_srv_openpmix, WU_INFO_LVL_4,
                  "Accept clients that run on OpenPMIx's own library (containers, RPATH builds): "
                  "a loopback TCP listener and the PMIX_SERVER_URI41/URI4 variables for them"),
    WU_PARAM_INT_RANGE("event_cache_size", &wu_srv_event_cache_size, 0, 65536, WU_INFO_LVL_5,
                       "Environment events the server keeps for the handlers its clients register "
                       "later, the oldest pushed out by the newest (0: none)"),
    WU_PARAM_INT_RANGE("event_hold_max", &wu_srv_event_hold_max, 0, 65536, WU_INFO_LVL_5,
                       "Job-specific events the server holds for its clients that have not "
                       "connected yet; past it the oldest is dropped, with a message (0: none)"),
    WU_PARAM_END};

/* ---- the call helper ------------------------------------------------------------------------- */

typedef struct call call_t;
struct call {
    pmix_status_t (*run)(call_t *c); /* progress thread */
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
    _Atomic int refs; /* the progress thread's and, for a blocking call, the caller's */
    bool waiting;
    wu_wait_t wait;
    char nspace[PMIX_MAX_NSLEN + 1];
    pmix_proc_t proc;
    int nlocal;
    pmix_info_t *info;
    size_t ninfo;
    uid_t uid;
    gid_t gid;
    void *object;
};

static void call_unref(call_t *c)
{
    if (1 != atomic_fetch_sub(&c->refs, 1)) {
        return;
    }
    if (NULL != c->info) {
        PMIX_INFO_FREE(c->info, c->ninfo);
    }
    wu_wait_destroy(&c->wait);
    free(c);
}

static void call_fn(void *arg)
{
    call_t *c = arg;
    pmix_status_t rc = wu_srv.stopping ? PMIX_ERR_INIT : c->run(c);
    if (NULL != c->cbfunc) {
        c->cbfunc(rc, c->cbdata);
    }
    if (c->waiting) {
        wu_wait_release(&c->wait, rc);
    }
    call_unref(c);
}

typedef struct {
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
    pmix_status_t rc;
} fail_t;

static void fail_fn(void *arg)
{
    fail_t f = *(fail_t *)arg;
    free(arg);
    f.cbfunc(f.rc, f.cbdata);
}

/* The failure of a call that returns nothing, to its cbfunc: from the progress thread, not
 * inside the host's call; only a server that is not running (or out of memory) calls it here. */
static void op_fail_later(pmix_op_cbfunc_t cbfunc, void *cbdata, pmix_status_t rc)
{
    fail_t *f;
    if (NULL == cbfunc) {
        return;
    }
    if (wu_srv.initialized && NULL != (f = malloc(sizeof *f))) {
        f->cbfunc = cbfunc;
        f->cbdata = cbdata;
        f->rc = rc;
        if (WU_SUCCESS == wu_progress_shift(wu_srv.pt, fail_fn, f)) {
            return;
        }
        free(f);
    }
    cbfunc(rc, cbdata);
}

/* Run c in the progress thread; c is owned by this call from here on. With no cbfunc and
 * outside the progress thread, wait for the result. */
static pmix_status_t call_submit(call_t *c)
{
    pmix_status_t rc;
    bool waiting;
    if (!wu_srv.initialized) {
        call_unref(c);
        return PMIX_ERR_INIT;
    }
    waiting = c->waiting = NULL == c->cbfunc && !wu_progress_in_thread(wu_srv.pt);
    if (waiting) {
        atomic_fetch_add(&c->refs, 1);
    }
    if (PMIX_SUCCESS != wu_progress_shift(wu_srv.pt, call_fn, c)) {
        if (waiting) {
            atomic_fetch_sub(&c->refs, 1);
        }
        call_unref(c);
        return PMIX_ERR_INIT;
    }
    if (!waiting) {
        return PMIX_SUCCESS; /* c may be gone already */
    }
    rc = wu_wait_for(&c->wait, API_WAIT); /* WU_ERR_TIMEOUT is PMIX_ERR_TIMEOUT */
    call_unref(c);
    return rc;
}

static call_t *call_new(pmix_status_t (*run)(call_t *), pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    call_t *c = calloc(1, sizeof *c);
    if (NULL != c) {
        atomic_init(&c->refs, 1);
        wu_wait_init(&c->wait);
        c->run = run;
        c->cbfunc = cbfunc;
        c->cbdata = cbdata;
    }
    return c;
}

static bool nspace_ok(const char *nspace)
{
    return NULL != nspace && '\0' != nspace[0] &&
           strnlen(nspace, PMIX_MAX_NSLEN + 1) <= PMIX_MAX_NSLEN;
}

/* ---- init / finalize ------------------------------------------------------------------------- */

static const pmix_info_t *find_info(const pmix_info_t *info, size_t ninfo, const char *key)
{
    return NULL == info ? NULL : wu_info_find(info, ninfo, key);
}

static const char *info_string(const pmix_info_t *info, size_t ninfo, const char *key)
{
    const pmix_info_t *i = find_info(info, ninfo, key);
    return NULL != i && PMIX_STRING == i->value.type ? i->value.data.string : NULL;
}

/* Is key among the infos and true (a bool without a value counts as true)? */
static bool info_true(const pmix_info_t *info, size_t ninfo, const char *key)
{
    const pmix_info_t *i = find_info(info, ninfo, key);
    return NULL != i && PMIX_INFO_TRUE(i);
}

static void teardown_state(void)
{
    wu_srv_rendezvous_remove();
    wu_pnet_base_close();
    while (NULL != wu_srv.clients) {
        wu_srv_client_t *cl = wu_srv.clients;
        wu_srv.clients = cl->next;
        wu_srv_client_free(cl);
    }
    while (NULL != wu_srv.nspaces) {
        wu_srv_nspace_t *ns = wu_srv.nspaces;
        wu_srv.nspaces = ns->next;
        wu_srv_nspace_free(ns);
    }
    wu_srv_stores_release();
    wu_srv_events_close();
    wu_srv_monitors_close();
    if (NULL != wu_srv.session_dir) {
        (void)wu_session_dir_remove(wu_srv.session_dir);
        free(wu_srv.session_dir);
        wu_srv.session_dir = NULL;
    }
    wu_srv.gds = NULL;
    wu_psec_base_close();
    wu_ptl_base_close();
    wu_gds_base_close();
    wu_plog_base_close();
    if (wu_srv.out > 0) {
        wu_output_close(wu_srv.out);
    }
    wu_srv.out = -1;
    wu_mca_base_close();
    wu_output_finalize();
}

static void close_listeners(void)
{
    wu_ptl_base_close_listeners(wu_srv.listeners);
    wu_srv.listeners = NULL;
    wu_ptl_listener_close(wu_srv.olistener);
    wu_srv.olistener = NULL;
    free(wu_srv.ouri);
    wu_srv.ouri = NULL;
}

/* The URI clients on OpenPMIx's library are given: a TCP listener's (one of ours, else one
 * opened on the loopback for them), after the server's name. */
static int open_foreign(void)
{
    const char *uri = NULL;
    wu_ptl_listener_t *l;
    for (size_t i = 0; NULL != (l = wu_ptl_listeners_at(wu_srv.listeners, i)); i++) {
        if (0 == strncmp(wu_ptl_listener_uri(l), "tcp4://", 7)) {
            uri = wu_ptl_listener_uri(l);
            break;
        }
    }
    if (NULL == uri && NULL != wu_ptl_base_module("tcp4")) {
        pmix_info_t addr;
        int rc;
        PMIX_INFO_LOAD(&addr, WU_PTL_TCP_ADDR, "127.0.0.1", PMIX_STRING);
        rc = wu_ptl_listen_with(wu_srv.pt, "tcp", &addr, 1, &wu_srv_listener_cbs, NULL,
                                &wu_srv.olistener);
        PMIX_INFO_DESTRUCT(&addr);
        if (WU_SUCCESS != rc) {
            return rc;
        }
        uri = wu_ptl_listener_uri(wu_srv.olistener);
    }
    if (NULL != uri) {
        return wu_asprintf(&wu_srv.ouri, "%s.%u;%s", wu_srv.me.nspace, wu_srv.me.rank, uri);
    }
    return WU_SUCCESS;
}

/* Listen with every ptl module the attributes call for; the best listener's URI is handed out,
 * and a psec token too when a listener's peers carry no kernel identity. */
static int open_listeners(const pmix_info_t info[], size_t ninfo)
{
    int rc = wu_ptl_base_listen_all(wu_srv.pt, info, ninfo, &wu_srv_listener_cbs, NULL,
                                    &wu_srv.listeners);
    if (WU_ERR_NOT_FOUND == rc) {
        wu_show_help(WU_SRV_HELP, "no-listener", true);
        return WU_ERR_SILENT;
    }
    if (WU_SUCCESS != rc) {
        return rc;
    }
    if (wu_ptl_listeners_anonymous(wu_srv.listeners) &&
        WU_SUCCESS != (rc = wu_psec_base_server_token(&wu_srv.token))) {
        return rc;
    }
    wu_srv.uri = wu_ptl_listener_uri(wu_ptl_listeners_at(wu_srv.listeners, 0));
    return wu_srv_openpmix ? open_foreign() : WU_SUCCESS;
}

pmix_status_t PMIx_server_init(pmix_server_module_t *module, pmix_info_t info[], size_t ninfo)
{
    const char *s, *tmpdir;
    const pmix_info_t *r;
    wu_ptl_listener_t *l;
    int rc;

    if (wu_srv.initialized) {
        return PMIX_ERR_INIT; /* one server per process */
    }
    if (NULL == info && ninfo > 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    memset(&wu_srv, 0, sizeof wu_srv);
    wu_srv.out = -1;
    if (NULL != module) {
        /* the upcalls of PMIx 4.x only: a host built against 4.x headers has no session_control
         * member, and reading one would read past its table (see pmix_server.h) */
        memcpy(&wu_srv.host, module, offsetof(pmix_server_module_t, session_control));
    }
    wu_output_init();
    if (WU_SUCCESS != (rc = wu_mca_base_open())) {
        wu_output_finalize();
        return PMIX_ERR_INIT;
    }
    (void)wu_mca_param_register_table("server", NULL, server_params);
    wu_srv.out = wu_output_open("server: ");
    wu_output_set_verbosity(wu_srv.out, verbose);
    if (WU_SUCCESS != wu_plog_base_open() || WU_SUCCESS != wu_gds_base_open() ||
        WU_SUCCESS != wu_ptl_base_open() || WU_SUCCESS != wu_psec_base_open() ||
        NULL == (wu_srv.gds = wu_gds_base_module()) || PMIX_SUCCESS != wu_srv_stores_create() ||
        PMIX_SUCCESS != wu_srv_events_open()) {
        teardown_state();
        return PMIX_ERR_INIT;
    }
    /* identity */
    if (NULL != (s = info_string(info, ninfo, PMIX_HOSTNAME)) ||
        NULL != (s = info_string(info, ninfo, PMIX_SERVER_HOSTNAME))) {
        snprintf(wu_srv.hostname, sizeof wu_srv.hostname, "%s", s);
    } else if (0 != gethostname(wu_srv.hostname, sizeof wu_srv.hostname - 1)) {
        snprintf(wu_srv.hostname, sizeof wu_srv.hostname, "localhost");
    }
    if (NULL != (s = info_string(info, ninfo, PMIX_SERVER_NSPACE)) && nspace_ok(s)) {
        PMIX_LOAD_NSPACE(wu_srv.me.nspace, s);
    } else {
        char buf[PMIX_MAX_NSLEN + 64];
        snprintf(buf, sizeof buf, "wireup-server.%s.%d", wu_srv.hostname, (int)getpid());
        PMIX_LOAD_NSPACE(wu_srv.me.nspace, buf);
    }
    r = find_info(info, ninfo, PMIX_SERVER_RANK);
    wu_srv.me.rank = (NULL != r && PMIX_PROC_RANK == r->value.type) ? r->value.data.rank
                     : (NULL != r && PMIX_UINT32 == r->value.type)  ? r->value.data.uint32
                                                                    : 0;
    if (WU_SUCCESS != wu_pnet_base_open()) {
        teardown_state();
        return PMIX_ERR_INIT;
    }
    /* session directory */
    tmpdir = info_string(info, ninfo, PMIX_SERVER_TMPDIR);
    if (NULL == tmpdir) {
        tmpdir = getenv("PMIX_SERVER_TMPDIR");
    }
    if (NULL != tmpdir && '\0' == tmpdir[0]) {
        tmpdir = NULL;
    }
    if (WU_SUCCESS != (rc = wu_session_dir_create(tmpdir, "wu-server", &wu_srv.session_dir))) {
        wu_show_help(WU_SRV_HELP, "no-session-dir", true, NULL == tmpdir ? wu_tmpdir() : tmpdir,
                     wu_strerror(rc));
        teardown_state();
        return PMIX_ERR_INIT;
    }
    if (NULL == (wu_srv.pt = wu_progress_start("server"))) {
        teardown_state();
        return PMIX_ERR_INIT;
    }
    if (WU_SUCCESS != open_listeners(info, ninfo)) {
        close_listeners();
        wu_progress_stop(wu_srv.pt);
        wu_srv.pt = NULL;
        teardown_state();
        return PMIX_ERR_INIT;
    }
    for (size_t i = 0; NULL != (l = wu_ptl_listeners_at(wu_srv.listeners, i)); i++) {
        wu_output_verbose(WU_VERB_INFO, wu_srv.out, "server: %s:%u listening on %s%s",
                          wu_srv.me.nspace, wu_srv.me.rank, wu_ptl_listener_uri(l),
                          0 == i ? " (handed to clients)" : "");
    }
    /* rendezvous files for OpenPMIx's tools, when the host asks for them */
    if (wu_srv_openpmix && (info_true(info, ninfo, PMIX_SERVER_TOOL_SUPPORT) ||
                            info_true(info, ninfo, PMIX_SERVER_SESSION_SUPPORT) ||
                            info_true(info, ninfo, PMIX_SERVER_SYSTEM_SUPPORT))) {
        s = info_string(info, ninfo, PMIX_SYSTEM_TMPDIR);
        (void)wu_srv_rendezvous_write(info_true(info, ninfo, PMIX_SERVER_TOOL_SUPPORT),
                                      info_true(info, ninfo, PMIX_SERVER_SESSION_SUPPORT),
                                      info_true(info, ninfo, PMIX_SERVER_SYSTEM_SUPPORT),
                                      NULL != s ? s : getenv("PMIX_SYSTEM_TMPDIR"));
    }
    wu_srv.initialized = true;
    wu_event_rt_set(WU_EVENT_SERVER, &wu_srv_event_rt);
    wu_self_hooks_set(&wu_srv_self_hooks);
    return PMIX_SUCCESS;
}

static void stop_fn(wu_wait_call_t *w)
{
    wu_srv.stopping = true;
    wu_event_release_all();
    wu_srv_pconn_fail_all(PMIX_ERR_INIT);
    wu_srv_fence_fail_all(PMIX_ERR_INIT);
    wu_srv_get_fail_all(PMIX_ERR_INIT);
    wu_srv_dmx_fail_all(PMIX_ERR_INIT);
    wu_srv_ops_orphan();
    wu_srv_opmix_groups_free();
    wu_wait_call_done(w, WU_SUCCESS);
}

pmix_status_t PMIx_server_finalize(void)
{
    if (!wu_srv.initialized) {
        return PMIX_ERR_INIT;
    }
    if (wu_progress_in_thread(wu_srv.pt)) {
        return PMIX_ERR_NOT_SUPPORTED; /* from an upcall: it would wait for itself */
    }
    if (WU_SUCCESS != wu_progress_shift_wait(wu_srv.pt, stop_fn, NULL, API_WAIT)) {
        return PMIX_ERR_TIMEOUT;
    }
    wu_srv.initialized = false;
    wu_event_rt_set(WU_EVENT_SERVER, NULL);
    wu_self_hooks_set(NULL);
    close_listeners();
    wu_srv.uri = NULL;
    wu_progress_stop(wu_srv.pt); /* runs what is still queued, then the thread ends */
    wu_srv.pt = NULL;
    teardown_state();
    memset(&wu_srv.host, 0, sizeof wu_srv.host);
    return PMIX_SUCCESS;
}

/* ---- namespaces ------------------------------------------------------------------------------ */

static pmix_status_t register_nspace_run(call_t *c)
{
    wu_srv_nspace_t *ns = wu_srv_nspace_get(c->nspace);
    const pmix_info_t *sz;
    long long v;
    pmix_status_t rc;

    if (NULL == ns) {
        return PMIX_ERR_NOMEM;
    }
    if (ns->registered) {
        (void)wu_srv.gds->purge_nspace(wu_srv.store, ns->name); /* a new registration */
    }
    /* what hosts registering maps only leave out */
    if (PMIX_SUCCESS == (rc = wu_srv_derive(ns->name, &c->info, &c->ninfo))) {
        rc = wu_srv.gds->register_nspace(wu_srv.store, ns->name, c->info, c->ninfo);
    }
    if (NULL != ns->info) {
        PMIX_INFO_FREE(ns->info, ns->ninfo);
    }
    ns->info = c->info; /* kept for CONNECT replies */
    ns->ninfo = c->ninfo;
    c->info = NULL;
    c->ninfo = 0;
    if (ns->jobseg >= 0) {
        close(ns->jobseg);
        ns->jobseg = -1;
    }
    if (PMIX_SUCCESS == rc && NULL != wu_srv.gds->job_seg_make) {
        /* the per-process data once on this node, for the clients that map it */
        pmix_status_t seg = wu_srv.gds->job_seg_make(ns->info, ns->ninfo, &ns->jobseg);
        if (PMIX_SUCCESS != seg) {
            ns->jobseg = -1;
        }
        wu_output_verbose(WU_VERB_DEBUG, wu_srv.out, "server: per-process data of %s %s", ns->name,
                          PMIX_SUCCESS == seg ? "laid out as a shared segment"
                                              : "sent to each client");
    }
    ns->nlocalprocs = c->nlocal;
    sz = wu_info_find(ns->info, ns->ninfo, PMIX_JOB_SIZE);
    ns->has_size = NULL != sz && wu_srv_info_int(sz, &v) && v >= 0;
    ns->size = ns->has_size ? (uint32_t)v : 0;
    ns->registered = true;
    wu_output_verbose(WU_VERB_INFO, wu_srv.out, "server: registered %s (%d local procs): %s",
                      ns->name, ns->nlocalprocs, PMIx_Error_string(rc));
    wu_srv_pconn_retry();
    return rc;
}

pmix_status_t PMIx_server_register_nspace(const pmix_nspace_t nspace, int nlocalprocs,
                                          pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                          void *cbdata)
{
    call_t *c;
    if (!wu_srv.initialized) {
        return PMIX_ERR_INIT;
    }
    if (!nspace_ok(nspace) || (NULL == info && ninfo > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (c = call_new(register_nspace_run, cbfunc, cbdata))) {
        return PMIX_ERR_NOMEM;
    }
    PMIX_LOAD_NSPACE(c->nspace, nspace);
    c->nlocal = nlocalprocs;
    if (ninfo > 0) {
        PMIX_INFO_CREATE(c->info, ninfo);
        if (NULL == c->info) {
            call_unref(c);
            return PMIX_ERR_NOMEM;
        }
        c->ninfo = ninfo;
        for (size_t i = 0; i < ninfo; i++) {
            pmix_status_t rc = wu_info_copy(&c->info[i], &info[i]);
            if (PMIX_SUCCESS != rc) {
                call_unref(c);
                return rc;
            }
        }
    }
    return call_submit(c);
}

static pmix_status_t deregister_nspace_run(call_t *c)
{
    wu_srv_nspace_t *ns = wu_srv_nspace_find(c->nspace);
    wu_pnet_base_forget(c->nspace); /* e.g. its reserved ports become free */
    if (NULL == ns) {
        return PMIX_SUCCESS;
    }
    wu_srv_cleanup_run(ns);
    for (wu_srv_client_t **pp = &wu_srv.clients; NULL != *pp;) {
        wu_srv_client_t *cl = *pp;
        if (!PMIX_CHECK_NSPACE(cl->proc.nspace, c->nspace)) {
            pp = &cl->next;
            continue;
        }
        *pp = cl->next;
        if (NULL != cl->conn) {
            wu_ptl_close(cl->conn);
        }
        wu_srv_fence_proc_gone(&cl->proc, false);
        wu_srv_data_gone(&cl->proc, WU_PROTO_ERR_TERMINATED);
        wu_srv_event_forget(&cl->proc);
        wu_srv_monitor_forget(&cl->proc);
        wu_srv_client_free(cl);
    }
    wu_srv_stores_purge(c->nspace);
    for (wu_srv_nspace_t **pp = &wu_srv.nspaces; NULL != *pp; pp = &(*pp)->next) {
        if (*pp == ns) {
            *pp = ns->next;
            break;
        }
    }
    wu_srv_nspace_free(ns);
    return PMIX_SUCCESS;
}

void PMIx_server_deregister_nspace(const pmix_nspace_t nspace, pmix_op_cbfunc_t cbfunc,
                                   void *cbdata)
{
    call_t *c;
    pmix_status_t rc;
    if (!wu_srv.initialized || !nspace_ok(nspace)) {
        rc = wu_srv.initialized ? PMIX_ERR_BAD_PARAM : PMIX_ERR_INIT;
    } else if (NULL == (c = call_new(deregister_nspace_run, cbfunc, cbdata))) {
        rc = PMIX_ERR_NOMEM;
    } else {
        PMIX_LOAD_NSPACE(c->nspace, nspace);
        rc = call_submit(c);
        if (PMIX_SUCCESS == rc || NULL == cbfunc) {
            return; /* cbfunc runs (or nobody listens) */
        }
    }
    op_fail_later(cbfunc, cbdata, rc);
}

/* ---- clients --------------------------------------------------------------------------------- */

static pmix_status_t register_client_run(call_t *c)
{
    wu_srv_client_t *cl = wu_srv_client_find(&c->proc);
    if (NULL == wu_srv_nspace_get(c->proc.nspace)) {
        return PMIX_ERR_NOMEM;
    }
    if (NULL == cl) {
        if (NULL == (cl = calloc(1, sizeof *cl))) {
            return PMIX_ERR_NOMEM;
        }
        cl->proc = c->proc;
        cl->state = WU_SRV_CL_REGISTERED;
        cl->next = wu_srv.clients;
        wu_srv.clients = cl;
    }
    cl->uid = c->uid;
    cl->gid = c->gid;
    cl->server_object = c->object;
    wu_srv_pconn_retry();
    return PMIX_SUCCESS;
}

pmix_status_t PMIx_server_register_client(const pmix_proc_t *proc, uid_t uid, gid_t gid,
                                          void *server_object, pmix_op_cbfunc_t cbfunc,
                                          void *cbdata)
{
    call_t *c;
    if (!wu_srv.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == proc || !nspace_ok(proc->nspace) || PMIX_RANK_VALID < proc->rank) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (c = call_new(register_client_run, cbfunc, cbdata))) {
        return PMIX_ERR_NOMEM;
    }
    c->proc = *proc;
    c->uid = uid;
    c->gid = gid;
    c->object = server_object;
    return call_submit(c);
}

static pmix_status_t deregister_client_run(call_t *c)
{
    for (wu_srv_client_t **pp = &wu_srv.clients; NULL != *pp; pp = &(*pp)->next) {
        wu_srv_client_t *cl = *pp;
        if (PMIX_CHECK_PROCID(&cl->proc, &c->proc)) {
            wu_srv_fence_proc_gone(&cl->proc, false);
            *pp = cl->next;
            if (NULL != cl->conn) {
                wu_ptl_close(cl->conn);
            }
            wu_srv_data_gone(&c->proc, WU_PROTO_ERR_TERMINATED);
            wu_srv_event_forget(&c->proc);
            wu_srv_monitor_forget(&c->proc);
            wu_srv_client_free(cl);
            return PMIX_SUCCESS;
        }
    }
    return PMIX_SUCCESS;
}

void PMIx_server_deregister_client(const pmix_proc_t *proc, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    call_t *c;
    pmix_status_t rc;
    if (!wu_srv.initialized || NULL == proc) {
        rc = wu_srv.initialized ? PMIX_ERR_BAD_PARAM : PMIX_ERR_INIT;
    } else if (NULL == (c = call_new(deregister_client_run, cbfunc, cbdata))) {
        rc = PMIX_ERR_NOMEM;
    } else {
        c->proc = *proc;
        rc = call_submit(c);
        if (PMIX_SUCCESS == rc || NULL == cbfunc) {
            return;
        }
    }
    op_fail_later(cbfunc, cbdata, rc);
}

/* ---- the child's environment ----------------------------------------------------------------- */

pmix_status_t PMIx_server_setup_fork(const pmix_proc_t *proc, char ***env)
{
    char rank[16], version[32];
    const char *mode = wu_psec_base_mode();
    int rc = WU_SUCCESS;

    if (!wu_srv.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == proc || NULL == env || !nspace_ok(proc->nspace) || PMIX_RANK_VALID < proc->rank) {
        return PMIX_ERR_BAD_PARAM;
    }
    snprintf(rank, sizeof rank, "%u", proc->rank);
    /* the OpenPMIx release whose texts the library gives (--with-pmix-compat) */
    snprintf(version, sizeof version, "%s", WU_PMIX_COMPAT_VERSION);
    char ns[PMIX_MAX_NSLEN + 1];
    PMIX_LOAD_NSPACE(ns, proc->nspace);
    if (WU_SUCCESS != (rc = wu_setenv("PMIX_NAMESPACE", ns, true, env)) ||
        WU_SUCCESS != (rc = wu_setenv("PMIX_RANK", rank, true, env)) ||
        WU_SUCCESS != (rc = wu_setenv(WU_PROTO_URI_ENV, wu_srv.uri, true, env)) ||
        WU_SUCCESS != (rc = wu_setenv(WU_PSEC_MODE_ENV, NULL != mode ? mode : "", true, env)) ||
        WU_SUCCESS != (rc = wu_setenv("PMIX_HOSTNAME", wu_srv.hostname, true, env)) ||
        WU_SUCCESS != (rc = wu_setenv("PMIX_VERSION", version, true, env)) ||
        WU_SUCCESS != (rc = wu_setenv("PMIX_SERVER_TMPDIR", wu_srv.session_dir, true, env))) {
        return WU_ERR_NOMEM == rc ? PMIX_ERR_NOMEM : PMIX_ERR_BAD_PARAM;
    }
    if (NULL != wu_srv.token &&
        WU_SUCCESS != (rc = wu_setenv(WU_PSEC_TOKEN_ENV, wu_srv.token, true, env))) {
        return WU_ERR_NOMEM == rc ? PMIX_ERR_NOMEM : PMIX_ERR_BAD_PARAM;
    }
    /* a process on OpenPMIx's library finds this server as it finds OpenPMIx's (4.x and 5.x
     * read URI41 or URI4) and picks what Wireup speaks: the hash data store, non-described
     * buffers, psec native (PMIX_SECURITY_MODE above) */
    if (NULL != wu_srv.ouri &&
        (WU_SUCCESS != (rc = wu_setenv("PMIX_SERVER_URI41", wu_srv.ouri, true, env)) ||
         WU_SUCCESS != (rc = wu_setenv("PMIX_SERVER_URI4", wu_srv.ouri, true, env)) ||
         WU_SUCCESS != (rc = wu_setenv("PMIX_GDS_MODULE", "hash", true, env)) ||
         WU_SUCCESS !=
             (rc = wu_setenv("PMIX_BFROP_BUFFER_TYPE", "PMIX_BFROP_BUFFER_NON_DESC", true, env)))) {
        return WU_ERR_NOMEM == rc ? PMIX_ERR_NOMEM : PMIX_ERR_BAD_PARAM;
    }
    /* what pnet's setup_local_support kept for the job's processes */
    if (WU_SUCCESS != (rc = wu_pnet_base_setup_fork(ns, env))) {
        return WU_ERR_NOMEM == rc ? PMIX_ERR_NOMEM : PMIX_ERR_BAD_PARAM;
    }
    return PMIX_SUCCESS;
}

/* ---- maps ------------------------------------------------------------------------------------ */

pmix_status_t PMIx_generate_regex(const char *input, char **regex)
{
    if (NULL == regex) {
        return PMIX_ERR_BAD_PARAM;
    }
    *regex = NULL;
    return wu_regex_nodes_encode(input, regex);
}

pmix_status_t PMIx_generate_ppn(const char *input, char **ppn)
{
    if (NULL == ppn) {
        return PMIX_ERR_BAD_PARAM;
    }
    *ppn = NULL;
    return wu_regex_ppn_encode(input, ppn);
}
