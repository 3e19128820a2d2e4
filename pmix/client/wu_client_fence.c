/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_fence.c -- PMIx_Fence, PMIx_Connect and PMIx_Disconnect (and their _nb forms): the
 * client's collectives.
 *
 * A fence goes to the server (wu_proto.h WU_CMD_FENCE) with its participants and directives;
 * the server completes it when every participant has entered. With PMIX_COLLECT_DATA the reply
 * carries a blob with the participants' committed data, which is stored here under each proc so
 * later Gets are local. PMIX_TIMEOUT is the server's to enforce; a local timer a little later
 * bounds the wait should the server stay silent. A singleton's only possible participant is
 * itself: its fence completes at once.
 *
 * PMIx_Connect is a collective of the same kind (WU_CMD_CONNECT_PROCS) over the procs it names,
 * of any namespaces: its reply is that of a collecting fence, every participant's data (the
 * server has learnt the other namespaces' job data meanwhile), so that later Gets about them are
 * answered here or by the server. PMIx_Disconnect (WU_CMD_DISCONNECT_PROCS) is one without
 * data. */
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void (*fence_done_fn_t)(int status, void *cbdata);

typedef struct {
    uint8_t cmd; /* WU_CMD_FENCE, WU_CMD_CONNECT_PROCS, WU_CMD_DISCONNECT_PROCS */
    pmix_proc_t *procs;
    size_t nprocs;
    pmix_info_t *info;
    size_t ninfo;
    bool collect;
    bool blocking; /* PMIx_Fence: done releases a wait, in any thread */
    fence_done_fn_t done;
    void *cbdata;
} fence_req_t;

static void fence_free(fence_req_t *f)
{
    if (NULL != f->procs) {
        PMIX_PROC_FREE(f->procs, f->nprocs);
    }
    if (NULL != f->info) {
        PMIX_INFO_FREE(f->info, f->ninfo);
    }
    free(f);
}

static void fence_finish(fence_req_t *f, int status)
{
    f->done(status, f->cbdata);
    fence_free(f);
}

/* The data came as a shared segment (wu_proto.h): its namespace follows the empty blob, and the
 * frame brought the memfd. */
static int attach_segment(wu_buffer_t *reply)
{
    char *ns = NULL;
    int32_t one = 1;
    int fd = wu_ptl_conn_take_fd(wu_client.conn), rc;
    if (fd < 0) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    rc = wu_unpack(reply, &ns, &one, PMIX_STRING);
    if (PMIX_SUCCESS == rc && (NULL == ns || NULL == wu_client.gds->seg_attach)) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    if (PMIX_SUCCESS == rc) {
        wu_client_store_wrlock();
        rc = wu_client.gds->seg_attach(wu_client.store, ns, fd, wu_client.myproc.rank);
        wu_client_store_unlock();
    }
    close(fd);
    free(ns);
    return rc;
}

static void fence_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    fence_req_t *f = cbdata;
    if (PMIX_SUCCESS == status && f->collect) {
        pmix_byte_object_t bo = {NULL, 0};
        /* read in place: the blob can be large, and the reply outlives this call */
        status = wu_unpack_bo_view(reply, &bo);
        if (PMIX_SUCCESS == status && 0 == bo.size && 0 < wu_buffer_remaining(reply)) {
            status = attach_segment(reply);
        } else if (PMIX_SUCCESS == status) {
            status = wu_client_store_blob(&bo);
        }
    }
    fence_finish(f, status);
}

/* Send the fence request: on the progress thread, or in the caller's thread of a blocking fence
 * (fence_start). */
static void fence_fn(void *arg)
{
    fence_req_t *f = arg;
    wu_buffer_t b;
    double t;
    int rc;
    if (wu_client.singleton) {
        fence_finish(f, PMIX_SUCCESS); /* participants were checked: only this process */
        return;
    }
    rc = wu_client_msg_start(&b, f->cmd);
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, f->procs, f->nprocs, PMIX_PROC);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, f->info, f->ninfo, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
        fence_finish(f, rc);
        return;
    }
    t = wu_client_timeout(f->info, f->ninfo);
    rc = wu_client_request_opt(&b, t > 0 ? t + WU_CLIENT_TIMEOUT_GRACE : 0, fence_reply, f,
                               f->blocking ? WU_CLIENT_REQ_ANY_THREAD : 0);
    if (PMIX_SUCCESS != rc) {
        fence_finish(f, rc);
    }
}

/* A singleton may only fence with itself. */
static bool singleton_participants_ok(const pmix_proc_t procs[], size_t nprocs)
{
    for (size_t i = 0; i < nprocs; i++) {
        if (!PMIX_CHECK_NSPACE(procs[i].nspace, wu_client.myproc.nspace) ||
            (0 != procs[i].rank && PMIX_RANK_WILDCARD != procs[i].rank)) {
            return false;
        }
    }
    return true;
}

/* A blocking fence without PMIX_TIMEOUT sends its request from the caller's thread when it may
 * (wu_client_may_send_here): one thread hop less. Its reply completes it in the caller's thread
 * when the caller reads it there (wu_client_await), else on the progress thread. */
static int fence_start(uint8_t cmd, const pmix_proc_t procs[], size_t nprocs,
                       const pmix_info_t info[], size_t ninfo, bool blocking, fence_done_fn_t done,
                       void *cbdata)
{
    fence_req_t *f;
    int rc;
    if ((NULL == procs && 0 < nprocs) || (NULL == info && 0 < ninfo) ||
        (WU_CMD_FENCE != cmd && (NULL == procs || 0 == nprocs))) {
        return PMIX_ERR_BAD_PARAM; /* a connect names its participants */
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (wu_client.singleton && !singleton_participants_ok(procs, nprocs)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (f = calloc(1, sizeof *f))) {
        return PMIX_ERR_NOMEM;
    }
    if (0 < nprocs &&
        PMIX_ERR_NOT_FOUND != (rc = wu_client_group_expand(procs, nprocs, &f->procs, &f->nprocs))) {
        if (PMIX_SUCCESS != rc) {
            fence_free(f);
            return rc; /* a group's rank it does not have, or no memory */
        }
    } else if (0 < nprocs) {
        PMIX_PROC_CREATE(f->procs, nprocs);
        if (NULL == f->procs) {
            fence_free(f);
            return PMIX_ERR_NOMEM;
        }
        memcpy(f->procs, procs, nprocs * sizeof *procs);
        f->nprocs = nprocs;
    }
    if (0 < ninfo) {
        PMIX_INFO_CREATE(f->info, ninfo);
        if (NULL == f->info) {
            fence_free(f);
            return PMIX_ERR_NOMEM;
        }
        f->ninfo = ninfo;
        for (size_t i = 0; i < ninfo; i++) {
            (void)wu_info_copy(&f->info[i], &info[i]);
        }
    }
    f->cmd = cmd;
    f->collect = WU_CMD_CONNECT_PROCS == cmd ||
                 (WU_CMD_FENCE == cmd && wu_info_flag(info, ninfo, PMIX_COLLECT_DATA));
    f->blocking = blocking;
    f->done = done;
    f->cbdata = cbdata;
    if (blocking && 0 == wu_client_timeout(info, ninfo) && wu_client_may_send_here()) {
        fence_fn(f);
        return PMIX_SUCCESS;
    }
    if (PMIX_SUCCESS != (rc = wu_client_shift(fence_fn, f))) {
        fence_free(f);
    }
    return rc;
}

typedef struct {
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} fence_nb_t;

static void fence_nb_done(int status, void *cbdata)
{
    fence_nb_t nb = *(fence_nb_t *)cbdata;
    free(cbdata);
    if (NULL != nb.cbfunc) {
        nb.cbfunc(status, nb.cbdata);
    }
}

static pmix_status_t collective_nb(uint8_t cmd, const pmix_proc_t procs[], size_t nprocs,
                                   const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                   void *cbdata)
{
    fence_nb_t *nb = malloc(sizeof *nb);
    int rc;
    if (NULL == nb) {
        return PMIX_ERR_NOMEM;
    }
    nb->cbfunc = cbfunc;
    nb->cbdata = cbdata;
    if (PMIX_SUCCESS !=
        (rc = fence_start(cmd, procs, nprocs, info, ninfo, false, fence_nb_done, nb))) {
        free(nb);
    }
    return rc;
}

static void fence_blk_done(int status, void *cbdata)
{
    wu_wait_release(cbdata, status);
}

static pmix_status_t collective(uint8_t cmd, const pmix_proc_t procs[], size_t nprocs,
                                const pmix_info_t info[], size_t ninfo)
{
    wu_wait_t w;
    int rc;
    if (wu_client_ready() && wu_progress_in_thread(wu_client.pt)) {
        return PMIX_ERR_WOULD_BLOCK; /* from a callback: the thread cannot wait for itself */
    }
    wu_wait_init(&w);
    rc = fence_start(cmd, procs, nprocs, info, ninfo, true, fence_blk_done, &w);
    if (PMIX_SUCCESS == rc) {
        wu_client_await(&w);     /* reads the reply in this thread when it can */
        rc = wu_wait_for(&w, 0); /* ends: reply, timeout timer or lost connection */
    }
    wu_wait_destroy(&w);
    return rc;
}

pmix_status_t PMIx_Fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                            size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return collective_nb(WU_CMD_FENCE, procs, nprocs, info, ninfo, cbfunc, cbdata);
}

pmix_status_t PMIx_Fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                         size_t ninfo)
{
    return collective(WU_CMD_FENCE, procs, nprocs, info, ninfo);
}

pmix_status_t PMIx_Connect_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return collective_nb(WU_CMD_CONNECT_PROCS, procs, nprocs, info, ninfo, cbfunc, cbdata);
}

pmix_status_t PMIx_Connect(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                           size_t ninfo)
{
    return collective(WU_CMD_CONNECT_PROCS, procs, nprocs, info, ninfo);
}

pmix_status_t PMIx_Disconnect_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                 size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return collective_nb(WU_CMD_DISCONNECT_PROCS, procs, nprocs, info, ninfo, cbfunc, cbdata);
}

pmix_status_t PMIx_Disconnect(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo)
{
    return collective(WU_CMD_DISCONNECT_PROCS, procs, nprocs, info, ninfo);
}
