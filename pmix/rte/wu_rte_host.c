/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_host.c -- the host side of the embedded PMIx server: its init with our host module,
 * and the upcalls (the registration of jobs is wu_rte_reg.c's).
 *
 * Upcalls arrive on the server's thread. client_connected and client_finalized only set a flag
 * of the process record (their server_object) and complete at once (PMIX_OPERATION_SUCCEEDED):
 * the client gets its answer without waiting for the rte thread, which may be busy launching,
 * and the flag is set before the client can exit. abort is shifted to the rte progress thread,
 * where the job state lives, and completed with its cbfunc from there (in wired it goes to the
 * head node). fence_nb and direct_modex run only for procs of other nodes (the server completes
 * fences within the node itself): in wrun they go to the daemons (wu_rte_dvm.c), in wired to
 * the head node (wu_rte_daemon.c). job_control is wu_rte_jobctl.c's. */
#include "pmix/rte/dist/wu_rte_dmsg.h"
#include "pmix/rte/wu_rte_internal.h"
#include "pmix/rte/svc/wu_rte_pubsub.h"
#include "pmix/rte/svc/wu_rte_connect.h"
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

static void upcall_in_rte(void *arg)
{
    upcall_t *u = arg;

    switch (u->kind) {
    case UP_ABORT:
        /* answer first, so the caller of PMIx_Abort is not killed while it waits */
        if (NULL != u->cbfunc) {
            u->cbfunc(PMIX_SUCCESS, u->cbdata);
            u->cbfunc = NULL;
        }
        wu_rte_job_abort(&u->proc, u->status, u->msg);
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

static void h_lost(const pmix_proc_t *proc, void *server_object)
{
    (void)proc;
    if (NULL != server_object) {
        wu_rte_proc_lost(server_object);
    }
}

static pmix_status_t h_abort(const pmix_proc_t *proc, void *server_object, int status,
                             const char msg[], pmix_proc_t procs[], size_t nprocs,
                             pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    /* procs names whom to abort; we end the whole job either way, as mpirun does */
    (void)server_object;
    (void)procs;
    (void)nprocs;
    if (wu_rte_daemon_mode) {
        /* wired: the head node decides (the caller's answer comes at once) */
        pmix_status_t rc = wu_rte_daemon_abort(proc, status, msg);
        return PMIX_SUCCESS == rc ? PMIX_OPERATION_SUCCEEDED : rc;
    }
    return shift_upcall(UP_ABORT, proc, status, msg, cbfunc, cbdata);
}

/* A fence with participants on other nodes (server thread): wired forwards it to the head
 * node, the head node collects it. data is ours to free (each path copies what it keeps). */
static pmix_status_t fence_route(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                 size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                                 void *cbdata)
{
    int timeout = 0;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_TIMEOUT) && PMIX_INT == info[i].value.type &&
            info[i].value.data.integer > 0) {
            timeout = info[i].value.data.integer;
        }
    }
    if (wu_rte_connect_foreign(procs, nprocs)) {
        /* processes of other wrun instances take part: met like a connect's */
        return wu_rte_connect_fence(procs, nprocs, data, ndata, timeout, cbfunc, cbdata);
    }
    if (wu_rte_daemon_mode) {
        return wu_rte_daemon_fence(procs, nprocs, data, ndata, timeout, cbfunc, cbdata);
    }
    return wu_rte_dvm_fence(procs, nprocs, data, ndata, timeout, cbfunc, cbdata);
}

static pmix_status_t h_fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                             size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                             void *cbdata)
{
    pmix_status_t rc = fence_route(procs, nprocs, info, ninfo, data, ndata, cbfunc, cbdata);
    free(data);
    return rc;
}

/* Data of a proc on another node (server thread). */
static pmix_status_t h_dmodex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                              pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    (void)info;
    (void)ninfo;
    if (wu_rte_daemon_mode) {
        return wu_rte_daemon_dmodex(proc, cbfunc, cbdata);
    }
    return wu_rte_dvm_dmodex(proc, cbfunc, cbdata);
}

/* An event of a local client whose range may reach other nodes (server thread): the nodes of
 * the job get it (the server has delivered it to this node's clients already). */
static pmix_status_t h_notify(pmix_status_t code, const pmix_proc_t *source,
                              pmix_data_range_t range, pmix_info_t info[], size_t ninfo,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_status_t rc;
    (void)cbfunc;
    (void)cbdata;
    if (PMIX_RANGE_RM == range) {
        return PMIX_ERR_NOT_SUPPORTED; /* no resource manager above us */
    }
    rc = wu_rte_event_spread(code, source, range, info, ninfo);
    return PMIX_SUCCESS == rc ? PMIX_OPERATION_SUCCEEDED : rc;
}

/* --- server ---------------------------------------------------------------------------------- */

int wu_rte_server_init(void)
{
    pmix_server_module_t module;
    pmix_info_t *info;
    pmix_rank_t rank = 0;
    char nspace[PMIX_MAX_NSLEN + 1];
    bool tools;
    pmix_status_t rc;

    memset(&module, 0, sizeof module);
    module.client_connected = h_connected;
    module.client_connected2 = h_connected2;
    module.client_finalized = h_finalized;
    module.abort = h_abort;
    module.fence_nb = h_fence;
    module.direct_modex = h_dmodex;
    module.notify_event = h_notify;
    module.log = wu_rte_log_upcall;
    module.job_control = wu_rte_jobctl_upcall;
    module.spawn = wu_rte_children_spawn;
    wu_rte_pubsub_module(&module);
    wu_rte_connect_init(&module);
    wu_server_set_lost_hook(h_lost);
    wu_server_set_pid_hook(wu_rte_pids_lookup);

    snprintf(nspace, sizeof nspace, "%s.%.64s.%d", wu_rte_tool, wu_rte_hostname, (int)getpid());
    PMIX_INFO_CREATE(info, 4);
    if (NULL == info) {
        return WU_ERR_NOMEM;
    }
    PMIx_Info_load(&info[0], PMIX_SERVER_NSPACE, nspace, PMIX_STRING);
    PMIx_Info_load(&info[1], PMIX_SERVER_RANK, &rank, PMIX_PROC_RANK);
    /* wrun, like OpenPMIx's launchers, can be found by tools (pps, pquery...): by its pid, its
     * server's namespace, or as the session's server; wired cannot */
    tools = !wu_rte_daemon_mode;
    PMIx_Info_load(&info[2], PMIX_SERVER_TOOL_SUPPORT, &tools, PMIX_BOOL);
    PMIx_Info_load(&info[3], PMIX_SERVER_SESSION_SUPPORT, &tools, PMIX_BOOL);
    rc = PMIx_server_init(&module, info, 4);
    PMIX_INFO_FREE(info, 4);
    if (PMIX_SUCCESS != rc) {
        wu_show_help("help-wu-rte.txt", "server-init-failed", true, wu_rte_tool,
                     PMIx_Error_string(rc));
        return WU_ERR_SILENT;
    }
    return WU_SUCCESS;
}

void wu_rte_server_finalize(void)
{
    (void)PMIx_server_finalize();
    wu_rte_pids_free(); /* its reader, the server, is gone */
}
