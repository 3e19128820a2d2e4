/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_misc.c -- PMIx_Abort, PMIx_Job_control(_nb) and PMIx_Log(_nb) of the client.
 *
 * Abort: a connected client asks the server (WU_CMD_ABORT) and waits, at most
 * WU_CLIENT_HANDSHAKE_TIMEOUT, for the host to have acted; a singleton prints the message and
 * terminates itself with the status, as the Standard asks when no host is there to do it.
 *
 * Job control: forwarded to the server, which handles the cleanup registrations and hands the
 * rest to its host (wrun signals, kills and terminates: pmix/rte/wu_rte_jobctl.c). A singleton
 * handles PMIX_REGISTER_CLEANUP(_DIR) itself (the paths are removed at its last PMIx_Finalize)
 * and refuses other directives: it has no host. Success is
 * reported as PMIX_SUCCESS, never PMIX_OPERATION_SUCCEEDED (Open MPI treats that as an error).
 *
 * Log: a connected client sends the request to its server (WU_CMD_LOG), which hands it to its
 * host (the launcher logs it through its plog modules: its stdout and stderr, the syslog; many
 * ranks' identical Open MPI help messages are printed once) or logs it through its own. A
 * singleton logs through plog here. The Open MPI help message (PMIX_LOG_MSG, a byte object in
 * opal's buffer format) is printed on stderr: it is the only explanation the user gets of an
 * early MPI failure. */
#include "mca/plog/base/plog_base.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_path.h"
#include "opal/util/wu_show_help.h"
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_ompi_help.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- abort ----------------------------------------------------------------------------- */

typedef struct {
    int status;
    const char *msg;
    const pmix_proc_t *procs;
    size_t nprocs;
} abort_t;

static void abort_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    (void)reply;
    wu_wait_call_done(cbdata, status);
}

static void abort_fn(wu_wait_call_t *call)
{
    abort_t *a = call->cbdata;
    wu_buffer_t b;
    int rc = wu_client_msg_start(&b, WU_CMD_ABORT);
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &a->status, 1, PMIX_STATUS);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &a->msg, 1, PMIX_STRING);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, a->procs, a->nprocs, PMIX_PROC);
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
    } else {
        rc = wu_client_request(&b, WU_CLIENT_HANDSHAKE_TIMEOUT, abort_reply, call);
    }
    if (PMIX_SUCCESS != rc) {
        wu_wait_call_done(call, rc);
    }
}

static void print_abort(int status, const char *msg)
{
    wu_show_help("help-wu-client.txt", "abort", true, status, wu_client.myproc.nspace,
                 (unsigned)wu_client.myproc.rank, NULL != msg ? msg : "(no message)");
}

pmix_status_t PMIx_Abort(int status, const char msg[], pmix_proc_t procs[], size_t nprocs)
{
    abort_t a = {status, msg, procs, nprocs};
    int rc;
    if (NULL == procs && 0 < nprocs) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (wu_client.singleton) {
        for (size_t i = 0; i < nprocs; i++) {
            if (!PMIX_CHECK_NSPACE(procs[i].nspace, wu_client.myproc.nspace) ||
                (0 != procs[i].rank && PMIX_RANK_WILDCARD != procs[i].rank)) {
                return PMIX_ERR_BAD_PARAM; /* nobody else to abort */
            }
        }
        print_abort(status, msg);
        fflush(NULL);
        _exit(status);
    }
    rc = wu_client_wait_call(abort_fn, &a);
    if (PMIX_ERR_UNREACH == rc || PMIX_ERR_LOST_CONNECTION == rc) {
        print_abort(status, msg); /* the host will not show it: do it here */
    }
    return rc;
}

/* ---- job control ----------------------------------------------------------------------- */

/* Removing files for a singleton happens without a host to check anything: only paths under
 * the temporary directories, never one of them itself, never a "." or ".." component. */
static bool has_dot_component(const char *path)
{
    for (const char *c = path; NULL != c; c = strchr(c + 1, '/')) {
        const char *n = c + 1;
        if (('.' == n[0] && ('/' == n[1] || '\0' == n[1])) ||
            ('.' == n[0] && '.' == n[1] && ('/' == n[2] || '\0' == n[2]))) {
            return true;
        }
    }
    return false;
}

static const char *cleanup_refusal(const char *path)
{
    const char *roots[] = {wu_tmpdir(), "/tmp", "/dev/shm", NULL};
    if (NULL == path || '/' != path[0] || has_dot_component(path)) {
        return "not an absolute path without \".\" or \"..\" components";
    }
    for (int i = 0; NULL != roots[i]; i++) {
        size_t n = strlen(roots[i]);
        while (n > 1 && '/' == roots[i][n - 1]) {
            n--;
        }
        if (n > 1 && 0 == strncmp(path, roots[i], n) && '/' == path[n] && '\0' != path[n + 1]) {
            return NULL;
        }
    }
    return "a process without a PMIx server only removes paths below the temporary directory";
}

static int remember_cleanup(const char *path, bool recursive)
{
    char **grown;
    bool *rgrown;
    const char *why = cleanup_refusal(path);
    if (NULL != why) {
        wu_show_help("help-wu-client.txt", "cleanup-refused", true, NULL != path ? path : "", why);
        return PMIX_ERR_BAD_PARAM;
    }
    grown = realloc(wu_client.cleanup, (wu_client.ncleanup + 1) * sizeof *grown);
    if (NULL == grown) {
        return PMIX_ERR_NOMEM;
    }
    wu_client.cleanup = grown;
    rgrown = realloc(wu_client.cleanup_recursive, (wu_client.ncleanup + 1) * sizeof *rgrown);
    if (NULL == rgrown) {
        return PMIX_ERR_NOMEM;
    }
    wu_client.cleanup_recursive = rgrown;
    if (NULL == (grown[wu_client.ncleanup] = strdup(path))) {
        return PMIX_ERR_NOMEM;
    }
    rgrown[wu_client.ncleanup++] = recursive;
    return PMIX_SUCCESS;
}

void wu_client_run_cleanup(void)
{
    for (size_t i = 0; i < wu_client.ncleanup; i++) {
        const char *p = wu_client.cleanup[i];
        struct stat st;
        if (0 == lstat(p, &st)) {
            if (S_ISDIR(st.st_mode)) {
                if (wu_client.cleanup_recursive[i]) {
                    (void)wu_path_rm_tree(p);
                } else {
                    (void)rmdir(p);
                }
            } else {
                (void)unlink(p);
            }
        }
        free(wu_client.cleanup[i]);
    }
    free(wu_client.cleanup);
    free(wu_client.cleanup_recursive);
    wu_client.cleanup = NULL;
    wu_client.cleanup_recursive = NULL;
    wu_client.ncleanup = 0;
}

typedef struct {
    pmix_proc_t *targets;
    size_t ntargets;
    pmix_info_t *dirs;
    size_t ndirs;
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
} jc_t;

static void jc_finish(jc_t *j, int status)
{
    if (NULL != j->cbfunc) {
        j->cbfunc(status, NULL, 0, j->cbdata, NULL, NULL);
    }
    if (NULL != j->targets) {
        PMIX_PROC_FREE(j->targets, j->ntargets);
    }
    if (NULL != j->dirs) {
        PMIX_INFO_FREE(j->dirs, j->ndirs);
    }
    free(j);
}

static void jc_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    (void)reply;
    jc_finish(cbdata, PMIX_OPERATION_SUCCEEDED == status ? PMIX_SUCCESS : status);
}

static void jc_fn(void *arg)
{
    jc_t *j = arg;
    wu_buffer_t b;
    int rc;
    if (WU_CLIENT_SINGLETON == wu_client.mode) {
        bool rec = wu_info_flag(j->dirs, j->ndirs, PMIX_CLEANUP_RECURSIVE);
        rc = PMIX_SUCCESS;
        for (size_t i = 0; i < j->ndirs && PMIX_SUCCESS == rc; i++) {
            const pmix_value_t *v = &j->dirs[i].value;
            bool dir = PMIX_CHECK_KEY(&j->dirs[i], PMIX_REGISTER_CLEANUP_DIR);
            if (dir || PMIX_CHECK_KEY(&j->dirs[i], PMIX_REGISTER_CLEANUP)) {
                rc = PMIX_STRING == v->type ? remember_cleanup(v->data.string, dir && rec)
                                            : PMIX_ERR_BAD_PARAM;
            }
        }
        jc_finish(j, rc);
        return;
    }
    rc = wu_client_msg_start(&b, WU_CMD_JOB_CONTROL);
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, j->targets, j->ntargets, PMIX_PROC);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, j->dirs, j->ndirs, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
    } else {
        rc = wu_client_request(&b, 0, jc_reply, j);
    }
    if (PMIX_SUCCESS != rc) {
        jc_finish(j, rc);
    }
}

static bool singleton_directive_ok(const pmix_info_t *d)
{
    return PMIX_CHECK_KEY(d, PMIX_REGISTER_CLEANUP) ||
           PMIX_CHECK_KEY(d, PMIX_REGISTER_CLEANUP_DIR) ||
           PMIX_CHECK_KEY(d, PMIX_CLEANUP_RECURSIVE);
}

pmix_status_t PMIx_Job_control_nb(const pmix_proc_t targets[], size_t ntargets,
                                  const pmix_info_t directives[], size_t ndirs,
                                  pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    jc_t *j;
    int rc;
    if ((NULL == targets && 0 < ntargets) || NULL == directives || 0 == ndirs) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (wu_client.singleton) {
        for (size_t i = 0; i < ndirs; i++) {
            if (!singleton_directive_ok(&directives[i])) {
                return PMIX_ERR_NOT_SUPPORTED; /* no host to carry it out */
            }
        }
    }
    if (NULL == (j = calloc(1, sizeof *j))) {
        return PMIX_ERR_NOMEM;
    }
    if (0 < ntargets) {
        PMIX_PROC_CREATE(j->targets, ntargets);
        if (NULL == j->targets) {
            free(j);
            return PMIX_ERR_NOMEM;
        }
        memcpy(j->targets, targets, ntargets * sizeof *targets);
        j->ntargets = ntargets;
    }
    PMIX_INFO_CREATE(j->dirs, ndirs);
    if (NULL == j->dirs) {
        j->cbfunc = NULL;
        jc_finish(j, PMIX_ERR_NOMEM);
        return PMIX_ERR_NOMEM;
    }
    j->ndirs = ndirs;
    for (size_t i = 0; i < ndirs; i++) {
        (void)wu_info_copy(&j->dirs[i], &directives[i]);
    }
    j->cbfunc = cbfunc;
    j->cbdata = cbdata;
    if (PMIX_SUCCESS != (rc = wu_client_shift(jc_fn, j))) {
        j->cbfunc = NULL;
        jc_finish(j, rc);
    }
    return rc;
}

static void jc_blk_done(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                        pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    (void)info;
    (void)ninfo;
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    wu_wait_release(cbdata, status);
}

pmix_status_t PMIx_Job_control(const pmix_proc_t targets[], size_t ntargets,
                               const pmix_info_t directives[], size_t ndirs, pmix_info_t **results,
                               size_t *nresults)
{
    wu_wait_t w;
    int rc;
    if (NULL != results) {
        *results = NULL;
    }
    if (NULL != nresults) {
        *nresults = 0;
    }
    if (wu_client_ready() && wu_progress_in_thread(wu_client.pt)) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    wu_wait_init(&w);
    rc = PMIx_Job_control_nb(targets, ntargets, directives, ndirs, jc_blk_done, &w);
    if (PMIX_SUCCESS == rc) {
        rc = wu_wait_for(&w, 0);
    }
    wu_wait_destroy(&w);
    return rc;
}

/* ---- log ------------------------------------------------------------------------------- */

typedef struct {
    pmix_info_t *data, *dirs;
    size_t ndata, ndirs;
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} log_t;

static int log_fn(void *arg)
{
    log_t *l = arg;
    if (!wu_client.plog_open) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    return wu_plog_base_log_request(&wu_client.myproc, l->data, l->ndata, l->dirs, l->ndirs,
                                    wu_ompi_help_render, NULL);
}

static void log_free(log_t *l)
{
    if (NULL != l->data) {
        PMIX_INFO_FREE(l->data, l->ndata);
    }
    if (NULL != l->dirs) {
        PMIX_INFO_FREE(l->dirs, l->ndirs);
    }
    free(l);
}

static void log_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    log_t *l = cbdata;
    (void)reply;
    if (NULL != l->cbfunc) {
        l->cbfunc(status, l->cbdata);
    }
    log_free(l);
}

/* A connected client's request goes to its server. */
static int log_to_server(log_t *l)
{
    wu_buffer_t b;
    int rc = wu_client_msg_start(&b, WU_CMD_LOG);
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, l->data, l->ndata, PMIX_INFO);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, l->dirs, l->ndirs, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
        return rc;
    }
    return wu_client_request(&b, 0, log_reply, l);
}

static void log_nb_fn(void *arg)
{
    log_t *l = arg;
    int rc;
    if (WU_CLIENT_CONNECTED == wu_client.mode && PMIX_SUCCESS == log_to_server(l)) {
        return; /* log_reply finishes */
    }
    rc = log_fn(l);
    if (NULL != l->cbfunc) {
        l->cbfunc(rc, l->cbdata);
    }
    log_free(l);
}

static pmix_info_t *info_dup(const pmix_info_t *src, size_t n)
{
    pmix_info_t *out;
    if (0 == n) {
        return NULL;
    }
    PMIX_INFO_CREATE(out, n);
    for (size_t i = 0; NULL != out && i < n; i++) {
        (void)wu_info_copy(&out[i], &src[i]);
    }
    return out;
}

pmix_status_t PMIx_Log_nb(const pmix_info_t data[], size_t ndata, const pmix_info_t directives[],
                          size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    log_t *l;
    int rc;
    if (NULL == data || 0 == ndata || (NULL == directives && 0 < ndirs)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == (l = calloc(1, sizeof *l))) {
        return PMIX_ERR_NOMEM;
    }
    l->data = info_dup(data, ndata);
    l->ndata = ndata;
    l->dirs = info_dup(directives, ndirs);
    l->ndirs = ndirs;
    l->cbfunc = cbfunc;
    l->cbdata = cbdata;
    if (NULL == l->data || (0 < ndirs && NULL == l->dirs)) {
        log_free(l);
        return PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != (rc = wu_client_shift(log_nb_fn, l))) {
        log_free(l);
    }
    return rc;
}

static void log_blk_done(pmix_status_t status, void *cbdata)
{
    wu_wait_release(cbdata, status);
}

pmix_status_t PMIx_Log(const pmix_info_t data[], size_t ndata, const pmix_info_t directives[],
                       size_t ndirs)
{
    wu_wait_t w;
    pmix_status_t rc;
    if (wu_client_ready() && wu_progress_in_thread(wu_client.pt)) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    wu_wait_init(&w);
    rc = PMIx_Log_nb(data, ndata, directives, ndirs, log_blk_done, &w);
    if (PMIX_SUCCESS == rc) {
        rc = wu_wait_for(&w, 0);
    }
    wu_wait_destroy(&w);
    return rc;
}
