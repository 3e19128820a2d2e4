/* SPDX-License-Identifier: BSD-3-Clause */
/* srv_test.c -- what the server suites share: a test host (upcalls that count, check the
 * server_object and answer from another thread), raw protocol clients that hand-pack
 * wu_proto.h frames and send them over ptl, and the fixture (a server per test). */
#include "test/unit/server/srv_test.h"
#include "mca/psec/psec.h"
#include "opal/util/wu_argv.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the test host ----------------------------------------------------------------------- */

int server_object_tag;
bool host_refuse_connect, host_hold_fence, host_inline;
_Atomic int n_released, n_release_deadlock;
pmix_modex_cbfunc_t held_fence_cb;
void *held_fence_cbdata; /* its address is the server_object of every client */
_Atomic int n_connected, n_finalized, n_bad_object, n_fence_nb, n_dmodex;

static void *later_thread(void *arg);

/* Calls a host cbfunc from another thread, as a real host would. */
typedef struct {
    pmix_op_cbfunc_t op;
    pmix_modex_cbfunc_t modex;
    void *cbdata;
    char *data;
    size_t ndata;
} later_t;

/* As Slurm's collectives: the answer goes to the server's cbfunc with the host's lock held, and
 * the release function takes that lock (not recursive: taking it twice is EDEADLK). */
static pthread_mutex_t host_lock;

static void host_lock_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&host_lock, &a);
    pthread_mutexattr_destroy(&a);
}

static void release_locked(void *data)
{
    int rc = pthread_mutex_lock(&host_lock);
    if (0 == rc) {
        free(data);
        pthread_mutex_unlock(&host_lock);
    } else {
        n_release_deadlock++;
        free(data);
    }
    n_released++;
}

static void modex_inline(pmix_modex_cbfunc_t cb, void *cbdata, char *data, size_t ndata)
{
    ck_assert_int_eq(0, pthread_mutex_lock(&host_lock));
    cb(PMIX_SUCCESS, data, ndata, cbdata, release_locked, data);
    pthread_mutex_unlock(&host_lock);
}

static void call_later(later_t *l)
{
    pthread_t t;
    ck_assert_int_eq(0, pthread_create(&t, NULL, later_thread, l));
    pthread_detach(t);
}

static void *later_thread(void *arg)
{
    later_t *l = arg;
    usleep(10000);
    if (NULL != l->op) {
        l->op(PMIX_SUCCESS, l->cbdata);
    } else if (host_inline) {
        modex_inline(l->modex, l->cbdata, l->data, l->ndata);
    } else {
        l->modex(PMIX_SUCCESS, l->data, l->ndata, l->cbdata, free, l->data);
    }
    free(l);
    return NULL;
}

/* As Slurm's: PMIX_SUCCESS and no callback (the server passes none, as OpenPMIx 4.2 does). */
static pmix_status_t host_connected(const pmix_proc_t *proc, void *obj, pmix_op_cbfunc_t cbfunc,
                                    void *cbdata)
{
    (void)proc;
    n_connected++;
    if (obj != &server_object_tag || NULL != cbfunc || NULL != cbdata) {
        n_bad_object++;
    }
    return host_refuse_connect ? PMIX_ERR_NO_PERMISSIONS : PMIX_SUCCESS;
}

static pmix_status_t host_finalized(const pmix_proc_t *proc, void *obj, pmix_op_cbfunc_t cbfunc,
                                    void *cbdata)
{
    (void)proc;
    (void)cbfunc;
    (void)cbdata;
    n_finalized++;
    if (obj != &server_object_tag) {
        n_bad_object++;
    }
    return PMIX_OPERATION_SUCCEEDED;
}

int host_late_from;
char host_required_key[PMIX_MAX_KEYLEN + 1];

/* A blob holding "rk" = 4242 for NS rank 1 (a proc on "another node"), and "late" = 77 from
 * the host_late_from'th direct modex on (0: never). */
void remote_blob(char **data, size_t *ndata)
{
    wu_buffer_t b;
    pmix_proc_t p;
    pmix_info_t info[2];
    uint32_t v = 4242, late = 77;
    size_t n = 1;
    wu_buffer_construct(&b);
    PMIX_LOAD_PROCID(&p, NS, 1);
    PMIX_INFO_CONSTRUCT(&info[0]);
    PMIX_INFO_CONSTRUCT(&info[1]);
    PMIx_Info_load(&info[0], "rk", &v, PMIX_UINT32);
    if (0 < host_late_from && n_dmodex >= host_late_from) {
        PMIx_Info_load(&info[n++], "late", &late, PMIX_UINT32);
    }
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_blob_add(&b, &p, info, n));
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    *data = b.base;
    *ndata = b.used;
}

static pmix_status_t host_fence_nb(const pmix_proc_t procs[], size_t nprocs,
                                   const pmix_info_t info[], size_t ninfo, char *data, size_t ndata,
                                   pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    later_t *l = calloc(1, sizeof *l);
    (void)procs;
    (void)nprocs;
    (void)info;
    (void)ninfo;
    free(data); /* the host's (as with OpenPMIx) */
    (void)ndata;
    n_fence_nb++;
    if (host_hold_fence) {
        /* keep the request: the test answers it after PMIx_server_finalize */
        free(l);
        held_fence_cb = cbfunc;
        held_fence_cbdata = cbdata;
        return PMIX_SUCCESS;
    }
    l->modex = cbfunc;
    l->cbdata = cbdata;
    remote_blob(&l->data, &l->ndata);
    if (host_inline) { /* answered inside the upcall, as Slurm does for a node-local fence */
        modex_inline(cbfunc, cbdata, l->data, l->ndata);
        free(l);
        return PMIX_SUCCESS;
    }
    call_later(l);
    return PMIX_SUCCESS;
}

static pmix_status_t host_dmodex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                 pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    later_t *l = calloc(1, sizeof *l);
    ck_assert_uint_eq(1, proc->rank);
    host_required_key[0] = '\0';
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_REQUIRED_KEY) && PMIX_STRING == info[i].value.type) {
            PMIX_LOAD_KEY(host_required_key, info[i].value.data.string);
        }
    }
    n_dmodex++;
    l->modex = cbfunc;
    l->cbdata = cbdata;
    remote_blob(&l->data, &l->ndata);
    call_later(l);
    return PMIX_SUCCESS;
}

pmix_server_module_t host = {
    .client_connected = host_connected,
    .client_finalized = host_finalized,
    .fence_nb = host_fence_nb,
    .direct_modex = host_dmodex,
};

/* ---- raw protocol clients ----------------------------------------------------------------- */

wu_progress_t *cpt; /* the clients' progress thread */
char uri[512];
char cli_cred[128];

static void cli_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *p, size_t len,
                     void *cbdata)
{
    cli_t *cl = cbdata;
    (void)c;
    ck_assert_uint_eq(WU_PROTO_FLAG_REPLY, flags);
    pthread_mutex_lock(&cl->lock);
    ck_assert_int_lt(cl->ngot, 16);
    cl->got_tag[cl->ngot] = tag;
    wu_buffer_construct(&cl->got[cl->ngot]);
    wu_buffer_put(&cl->got[cl->ngot], p, len);
    cl->ngot++;
    pthread_cond_broadcast(&cl->cond);
    pthread_mutex_unlock(&cl->lock);
}

static void cli_closed(wu_ptl_conn_t *c, int status, void *cbdata)
{
    cli_t *cl = cbdata;
    (void)c;
    (void)status;
    pthread_mutex_lock(&cl->lock);
    cl->closed = true;
    pthread_cond_broadcast(&cl->cond);
    pthread_mutex_unlock(&cl->lock);
}

void cli_open(cli_t *cl)
{
    memset(cl, 0, sizeof *cl);
    pthread_mutex_init(&cl->lock, NULL);
    pthread_cond_init(&cl->cond, NULL);
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_connect(cpt, uri, cli_recv, cli_closed, cl, &cl->conn));
}

/* Wait (up to TMO) until pred holds; lock held. */
bool cli_wait_locked(cli_t *cl, bool (*pred)(cli_t *, uint32_t), uint32_t arg)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += (time_t)TMO;
    while (!pred(cl, arg)) {
        if (0 != pthread_cond_timedwait(&cl->cond, &cl->lock, &ts)) {
            return pred(cl, arg);
        }
    }
    return true;
}

static bool has_reply(cli_t *cl, uint32_t tag)
{
    for (int i = 0; i < cl->ngot; i++) {
        if (cl->got_tag[i] == tag) {
            return true;
        }
    }
    return cl->closed;
}

bool is_closed(cli_t *cl, uint32_t unused)
{
    (void)unused;
    return cl->closed;
}

void cli_close(cli_t *cl)
{
    wu_ptl_close(cl->conn);
    pthread_mutex_lock(&cl->lock);
    ck_assert(cli_wait_locked(cl, is_closed, 0));
    pthread_mutex_unlock(&cl->lock);
    wu_ptl_conn_release(cl->conn);
    for (int i = 0; i < cl->ngot; i++) {
        wu_buffer_destruct(&cl->got[i]);
    }
    pthread_mutex_destroy(&cl->lock);
    pthread_cond_destroy(&cl->cond);
}

/* Start a request: the command byte. */
void msg_start(wu_buffer_t *b, uint8_t cmd)
{
    wu_buffer_construct(b);
    ck_assert_int_eq(PMIX_SUCCESS, wu_pack(b, &cmd, 1, PMIX_UINT8));
}

uint32_t cli_send(cli_t *cl, wu_buffer_t *b)
{
    uint32_t tag = ++cl->next_tag;
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_send(cl->conn, tag, 0, b->base, b->used));
    wu_buffer_destruct(b);
    return tag;
}

/* Wait for the reply to tag: its status, the rest left in *rest (caller destructs). Returns
 * PMIX_ERR_LOST_CONNECTION if the connection closed first. */
pmix_status_t cli_reply(cli_t *cl, uint32_t tag, wu_buffer_t *rest)
{
    pmix_status_t st = PMIX_ERR_LOST_CONNECTION;
    int32_t one = 1;
    pthread_mutex_lock(&cl->lock);
    ck_assert_msg(cli_wait_locked(cl, has_reply, tag), "no reply to tag %u", tag);
    for (int i = 0; i < cl->ngot; i++) {
        if (cl->got_tag[i] == tag) {
            ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&cl->got[i], &st, &one, PMIX_STATUS));
            if (NULL != rest) {
                *rest = cl->got[i];
                wu_buffer_construct(&cl->got[i]);
            }
            cl->got_tag[i] = 0;
            break;
        }
    }
    pthread_mutex_unlock(&cl->lock);
    return st;
}

pmix_status_t cli_call(cli_t *cl, wu_buffer_t *b, wu_buffer_t *rest)
{
    return cli_reply(cl, cli_send(cl, b), rest);
}

pmix_status_t cli_connect(cli_t *cl, pmix_rank_t rank, uint32_t *nlocal)
{
    wu_buffer_t b, r;
    const char *ver = WU_PROTO_VERSION;
    char *mode = NULL;
    pmix_byte_object_t cred = {.bytes = cli_cred, .size = strlen(cli_cred)};
    pmix_proc_t p, srv;
    pid_t pid = getpid();
    pmix_status_t st;

    PMIX_LOAD_PROCID(&p, NS, rank);
    msg_start(&b, WU_CMD_CONNECT);
    wu_pack(&b, &ver, 1, PMIX_STRING);
    wu_pack(&b, &mode, 1, PMIX_STRING);
    wu_pack(&b, &cred, 1, PMIX_BYTE_OBJECT);
    wu_pack(&b, &p, 1, PMIX_PROC);
    wu_pack(&b, &pid, 1, PMIX_PID);
    st = cli_call(cl, &b, &r);
    if (PMIX_SUCCESS == st) {
        pmix_info_t *info = NULL;
        size_t n = 0;
        int32_t one = 1;
        uint32_t nl = 0;
        bool has_size = false;
        ck_assert_int_eq(PMIX_SUCCESS, wu_proto_unpack_list(&r, (void **)&info, &n, PMIX_INFO));
        for (size_t i = 0; i < n; i++) {
            has_size = has_size || PMIX_CHECK_KEY(&info[i], PMIX_JOB_SIZE);
        }
        ck_assert(has_size);
        PMIX_INFO_FREE(info, n);
        ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&r, &nl, &one, PMIX_UINT32));
        ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&r, &srv, &one, PMIX_PROC));
        ck_assert_uint_eq(0, wu_buffer_remaining(&r));
        if (NULL != nlocal) {
            *nlocal = nl;
        }
    }
    wu_buffer_destruct(&r);
    return st;
}

pmix_status_t cli_commit(cli_t *cl, const char *lkey, uint32_t lval, const char *rkey,
                         uint32_t rval)
{
    wu_buffer_t b;
    pmix_info_t l, r;
    pmix_status_t st, ok = PMIX_SUCCESS;
    PMIX_INFO_CONSTRUCT(&l);
    PMIX_INFO_CONSTRUCT(&r);
    PMIx_Info_load(&l, lkey, &lval, PMIX_UINT32);
    PMIx_Info_load(&r, rkey, &rval, PMIX_UINT32);
    msg_start(&b, WU_CMD_COMMIT);
    wu_pack(&b, &ok, 1, PMIX_STATUS);
    wu_proto_pack_list(&b, &l, 1, PMIX_INFO);
    wu_proto_pack_list(&b, &r, 1, PMIX_INFO);
    wu_proto_pack_list(&b, NULL, 0, PMIX_INFO); /* no key in both scopes */
    st = cli_call(cl, &b, NULL);
    PMIX_INFO_DESTRUCT(&l);
    PMIX_INFO_DESTRUCT(&r);
    return st;
}

/* Send a FENCE over the whole job (empty participant list). */
uint32_t cli_fence_send(cli_t *cl, bool collect, int timeout)
{
    wu_buffer_t b;
    pmix_info_t d[2];
    size_t nd = 0;
    PMIX_INFO_CONSTRUCT(&d[0]);
    PMIX_INFO_CONSTRUCT(&d[1]);
    if (collect) {
        PMIx_Info_load(&d[nd++], PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    }
    if (timeout > 0) {
        PMIx_Info_load(&d[nd++], PMIX_TIMEOUT, &timeout, PMIX_INT);
    }
    msg_start(&b, WU_CMD_FENCE);
    wu_proto_pack_list(&b, NULL, 0, PMIX_PROC);
    wu_proto_pack_list(&b, d, nd, PMIX_INFO);
    PMIX_INFO_DESTRUCT(&d[0]);
    PMIX_INFO_DESTRUCT(&d[1]);
    return cli_send(cl, &b);
}

uint32_t cli_get_send(cli_t *cl, pmix_rank_t rank, const char *key, bool optional)
{
    wu_buffer_t b;
    pmix_proc_t p;
    pmix_info_t d;
    PMIX_LOAD_PROCID(&p, NS, rank);
    PMIX_INFO_CONSTRUCT(&d);
    PMIx_Info_load(&d, PMIX_OPTIONAL, &optional, PMIX_BOOL);
    msg_start(&b, WU_CMD_GET);
    wu_pack(&b, &p, 1, PMIX_PROC);
    wu_pack(&b, &key, 1, PMIX_STRING);
    wu_proto_pack_list(&b, &d, 1, PMIX_INFO);
    PMIX_INFO_DESTRUCT(&d);
    return cli_send(cl, &b);
}

/* The uint32 value of a successful GET reply, or the error status. */
pmix_status_t cli_get_u32(cli_t *cl, uint32_t tag, uint32_t *out)
{
    wu_buffer_t r;
    pmix_status_t st = cli_reply(cl, tag, &r);
    if (PMIX_SUCCESS == st) {
        pmix_value_t v;
        pmix_info_t *job = NULL;
        size_t njob = 0;
        int32_t one = 1;
        memset(&v, 0, sizeof v);
        ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&r, &v, &one, PMIX_VALUE));
        ck_assert_int_eq(PMIX_UINT32, v.type);
        *out = v.data.uint32;
        PMIx_Value_destruct(&v);
        ck_assert_int_eq(PMIX_SUCCESS, wu_proto_unpack_list(&r, (void **)&job, &njob, PMIX_INFO));
        ck_assert_uint_eq(0, njob); /* own namespace: no job data attached */
        ck_assert_uint_eq(0, wu_buffer_remaining(&r));
    }
    wu_buffer_destruct(&r);
    return st;
}

/* ---- fixture ----------------------------------------------------------------------------- */

char tmp[512];
pmix_nspace_t nsname; /* NS in the API's array type */

void op_done(pmix_status_t status, void *cbdata)
{
    wu_wait_release(cbdata, status);
}

/* Register NS with job size `size`, `nlocal` local procs and clients 0..nlocal-1 (uid uid_of0
 * for rank 0), and fill uri from setup_fork. */
void register_job(uint32_t size, int nlocal, uid_t uid_of0)
{
    pmix_info_t info[2];
    wu_wait_t w;
    char **env = NULL;
    uint32_t usz = 42;
    for (int r = 0; r < nlocal; r++) {
        pmix_proc_t p;
        PMIX_LOAD_PROCID(&p, NS, (pmix_rank_t)r);
        ck_assert_int_eq(PMIX_SUCCESS,
                         PMIx_server_register_client(&p, 0 == r ? uid_of0 : getuid(), getgid(),
                                                     &server_object_tag, NULL, NULL));
    }
    PMIX_INFO_CONSTRUCT(&info[0]);
    PMIX_INFO_CONSTRUCT(&info[1]);
    PMIx_Info_load(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIx_Info_load(&info[1], "usr.size", &usz, PMIX_UINT32);
    wu_wait_init(&w);
    ck_assert_int_eq(PMIX_SUCCESS,
                     PMIx_server_register_nspace(nsname, nlocal, info, 2, op_done, &w));
    ck_assert_int_eq(PMIX_SUCCESS, wu_wait_for(&w, TMO));
    wu_wait_destroy(&w);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    {
        pmix_proc_t p;
        PMIX_LOAD_PROCID(&p, NS, 0);
        ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_setup_fork(&p, &env));
    }
    ck_assert_ptr_nonnull(wu_getenv(WU_PROTO_URI_ENV, env));
    snprintf(uri, sizeof uri, "%s", wu_getenv(WU_PROTO_URI_ENV, env));
    snprintf(cli_cred, sizeof cli_cred, "%s",
             NULL != wu_getenv(WU_PSEC_TOKEN_ENV, env) ? wu_getenv(WU_PSEC_TOKEN_ENV, env) : "");
    wu_argv_free(env);
}

void srv_setup(void)
{
    pmix_info_t info;
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    PMIX_LOAD_NSPACE(nsname, NS);
    host_refuse_connect = host_hold_fence = host_inline = false;
    n_released = n_release_deadlock = 0;
    host_lock_init();
    held_fence_cb = NULL;
    held_fence_cbdata = NULL;
    n_connected = n_finalized = n_bad_object = n_fence_nb = n_dmodex = 0;
    host_late_from = 0;
    wu_test_tmpdir_make("check_server", tmp, sizeof tmp);
    PMIX_INFO_CONSTRUCT(&info);
    PMIx_Info_load(&info, PMIX_SERVER_TMPDIR, tmp, PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_init(&host, &info, 1));
    PMIX_INFO_DESTRUCT(&info);
    cpt = wu_progress_start("test-clients");
    ck_assert_ptr_nonnull(cpt);
}

void srv_teardown(void)
{
    wu_progress_stop(cpt);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_finalize());
    wu_test_tmpdir_remove(tmp);
}
