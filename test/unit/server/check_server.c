/* SPDX-License-Identifier: BSD-3-Clause */
/* check_server.c -- the PMIx server library driven by a test host and raw protocol clients:
 * init/finalize, registration order, setup_fork, connect/commit/fence/get/finalize with the
 * host's upcalls, refused credentials and connections, bad peers, query, abort, log, and
 * cleanup at deregistration. Fences and data across nodes: check_server_fence.c. */
#include "test/unit/server/srv_test.h"
#include "opal/util/wu_argv.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* ---- tests ------------------------------------------------------------------------------- */

START_TEST(test_init_finalize_twice)
{
    char **env = NULL;
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, NS, 0);
    /* the fixture's server is up: a second init is refused, finalize and init again work */
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_server_init(&host, NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_finalize());
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_server_finalize());
    ck_assert_int_eq(PMIX_ERR_INIT, PMIx_server_setup_fork(&p, &env));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_init(NULL, NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_finalize());
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_init(&host, NULL, 0));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_setup_fork(&p, &env));
    ck_assert_ptr_nonnull(wu_getenv("PMIX_SERVER_TMPDIR", env));
    ck_assert(wu_path_is_dir(wu_getenv("PMIX_SERVER_TMPDIR", env)));
    wu_argv_free(env);
    /* teardown finalizes this one */
}
END_TEST

/* Wireup's, then what a process on OpenPMIx's own library looks for (server_openpmix) */
static const char *const fork_vars[] = {
    "PMIX_NAMESPACE",   "PMIX_RANK",       WU_PROTO_URI_ENV,        "PMIX_SECURITY_MODE",
    "PMIX_HOSTNAME",    "PMIX_VERSION",    "PMIX_SERVER_TMPDIR",    "PMIX_SERVER_URI41",
    "PMIX_SERVER_URI4", "PMIX_GDS_MODULE", "PMIX_BFROP_BUFFER_TYPE"};

START_TEST(test_setup_fork_env)
{
    char **env = NULL, *dir;
    pmix_proc_t p;
    int n = (int)(sizeof fork_vars / sizeof fork_vars[0]);
    PMIX_LOAD_PROCID(&p, NS, 3);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_setup_fork(&p, &env));
    ck_assert_int_eq(n, wu_argv_count(env));
    for (int i = 0; i < n; i++) {
        ck_assert_msg(NULL != wu_getenv(fork_vars[i], env), "%s missing", fork_vars[i]);
    }
    for (int i = 0; NULL != env[i]; i++) {
        ck_assert_msg(0 != strncmp(env[i], "PMIX_SERVER_URI=", 16) &&
                          0 != strncmp(env[i], "PMIX_SERVER_URI2", 16) &&
                          0 != strncmp(env[i], "PMIX_SERVER_URI3", 16),
                      "%s set", env[i]);
    }
    /* OpenPMIx's URI: the server's name, then its loopback TCP listener */
    ck_assert_str_eq(wu_getenv("PMIX_SERVER_URI41", env), wu_getenv("PMIX_SERVER_URI4", env));
    ck_assert_ptr_nonnull(strstr(wu_getenv("PMIX_SERVER_URI41", env), ";tcp4://127.0.0.1:"));
    ck_assert_str_eq("hash", wu_getenv("PMIX_GDS_MODULE", env));
    ck_assert_str_eq(NS, wu_getenv("PMIX_NAMESPACE", env));
    ck_assert_str_eq("3", wu_getenv("PMIX_RANK", env));
    ck_assert_str_eq(WU_PMIX_COMPAT_VERSION, wu_getenv("PMIX_VERSION", env));
    ck_assert_str_eq("native", wu_getenv("PMIX_SECURITY_MODE", env));
    ck_assert(0 == strncmp("usock:", wu_getenv(WU_PROTO_URI_ENV, env), 6));
    /* the session directory lives in the PMIX_SERVER_TMPDIR given to init */
    dir = strdup(wu_getenv("PMIX_SERVER_TMPDIR", env));
    ck_assert(0 == strncmp(tmp, dir, strlen(tmp)));
    wu_argv_free(env);
    /* with remote connections, tcp listens too and the token is handed out */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_finalize());
    ck_assert(!wu_path_exists(dir));
    free(dir);
    {
        pmix_info_t info[2];
        bool yes = true;
        env = NULL;
        PMIX_INFO_CONSTRUCT(&info[0]);
        PMIX_INFO_CONSTRUCT(&info[1]);
        PMIx_Info_load(&info[0], PMIX_SERVER_REMOTE_CONNECTIONS, &yes, PMIX_BOOL);
        PMIx_Info_load(&info[1], PMIX_SERVER_TMPDIR, tmp, PMIX_STRING);
        ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_init(&host, info, 2));
        PMIX_INFO_DESTRUCT(&info[0]);
        PMIX_INFO_DESTRUCT(&info[1]);
    }
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_setup_fork(&p, &env));
    ck_assert_int_eq(n + 1, wu_argv_count(env));
    ck_assert_ptr_nonnull(wu_getenv("WU_PSEC_TOKEN", env));
    wu_argv_free(env);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_server_setup_fork(NULL, &env));
}
END_TEST

/* register_client before register_nspace; a CONNECT waits for the namespace */
START_TEST(test_register_order)
{
    cli_t c;
    pmix_proc_t p;
    char **env = NULL;
    uint32_t size = 1, tag, nl = 0;
    pmix_info_t info;
    wu_wait_t w;
    PMIX_LOAD_PROCID(&p, NS, 0);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_register_client(&p, getuid(), getgid(),
                                                               &server_object_tag, NULL, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_setup_fork(&p, &env));
    snprintf(uri, sizeof uri, "%s", wu_getenv(WU_PROTO_URI_ENV, env));
    wu_argv_free(env);
    cli_open(&c);
    {
        wu_buffer_t b;
        const char *ver = WU_PROTO_VERSION;
        char *mode = NULL;
        pmix_byte_object_t cred = PMIX_BYTE_OBJECT_STATIC_INIT;
        pid_t pid = getpid();
        msg_start(&b, WU_CMD_CONNECT);
        wu_pack(&b, &ver, 1, PMIX_STRING);
        wu_pack(&b, &mode, 1, PMIX_STRING);
        wu_pack(&b, &cred, 1, PMIX_BYTE_OBJECT);
        wu_pack(&b, &p, 1, PMIX_PROC);
        wu_pack(&b, &pid, 1, PMIX_PID);
        tag = cli_send(&c, &b);
    }
    usleep(100000); /* the CONNECT is waiting now */
    PMIX_INFO_CONSTRUCT(&info);
    PMIx_Info_load(&info, PMIX_JOB_SIZE, &size, PMIX_UINT32);
    wu_wait_init(&w);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_register_nspace(nsname, 1, &info, 1, op_done, &w));
    ck_assert_int_eq(PMIX_SUCCESS, wu_wait_for(&w, TMO));
    wu_wait_destroy(&w);
    PMIX_INFO_DESTRUCT(&info);
    {
        wu_buffer_t r;
        pmix_info_t *ri = NULL;
        size_t n = 0;
        int32_t one = 1;
        ck_assert_int_eq(PMIX_SUCCESS, cli_reply(&c, tag, &r));
        ck_assert_int_eq(PMIX_SUCCESS, wu_proto_unpack_list(&r, (void **)&ri, &n, PMIX_INFO));
        ck_assert_uint_eq(1, n);
        PMIX_INFO_FREE(ri, n);
        ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&r, &nl, &one, PMIX_UINT32));
        ck_assert_uint_eq(1, nl);
        wu_buffer_destruct(&r);
    }
    ck_assert_int_eq(1, n_connected);
    cli_close(&c);
}
END_TEST

/* CONNECT -> COMMIT -> FENCE(collect) -> GET own and job-level keys -> FINALIZE */
START_TEST(test_full_flow)
{
    cli_t c;
    uint32_t nl = 0, v = 0, tag;
    wu_buffer_t r;
    pmix_byte_object_t bo;
    int32_t one = 1;
    bool seen = false;
    register_job(1, 1, getuid());
    cli_open(&c);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&c, 0, &nl));
    ck_assert_uint_eq(1, nl);
    ck_assert_int_eq(PMIX_SUCCESS, cli_commit(&c, "lk", 7, "rk", 8));
    tag = cli_fence_send(&c, true, 0);
    ck_assert_int_eq(PMIX_SUCCESS, cli_reply(&c, tag, &r));
    ck_assert_int_eq(PMIX_SUCCESS, wu_unpack(&r, &bo, &one, PMIX_BYTE_OBJECT));
    {
        wu_buffer_t blob;
        pmix_proc_t p;
        pmix_info_t *info;
        size_t n;
        wu_buffer_construct(&blob);
        wu_buffer_put(&blob, bo.bytes, bo.size);
        while (PMIX_SUCCESS == wu_proto_blob_next(&blob, &p, &info, &n)) {
            ck_assert_uint_eq(0, p.rank);
            for (size_t i = 0; i < n; i++) {
                seen = seen || PMIX_CHECK_KEY(&info[i], "lk");
            }
            PMIX_INFO_FREE(info, n);
        }
        wu_buffer_destruct(&blob);
    }
    ck_assert(seen);
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    wu_buffer_destruct(&r);
    ck_assert_int_eq(PMIX_SUCCESS, cli_get_u32(&c, cli_get_send(&c, 0, "lk", false), &v));
    ck_assert_uint_eq(7, v);
    ck_assert_int_eq(
        PMIX_SUCCESS,
        cli_get_u32(&c, cli_get_send(&c, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, false), &v));
    ck_assert_uint_eq(1, v);
    ck_assert_int_eq(PMIX_SUCCESS,
                     cli_get_u32(&c, cli_get_send(&c, PMIX_RANK_WILDCARD, "usr.size", false), &v));
    ck_assert_uint_eq(42, v);
    /* remote-scope data is not visible on the node; optional: no wait */
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, cli_get_u32(&c, cli_get_send(&c, 0, "rk", true), &v));
    {
        wu_buffer_t b;
        msg_start(&b, WU_CMD_FINALIZE);
        ck_assert_int_eq(PMIX_SUCCESS, cli_call(&c, &b, NULL));
    }
    ck_assert_int_eq(1, n_connected);
    ck_assert_int_eq(1, n_finalized);
    ck_assert_int_eq(0, n_bad_object);
    cli_close(&c);
}
END_TEST

START_TEST(test_wrong_uid_refused)
{
    cli_t c;
    register_job(1, 1, getuid() + 1);
    wu_test_help_capture();
    cli_open(&c);
    ck_assert_int_eq(PMIX_ERR_INVALID_CRED, cli_connect(&c, 0, NULL));
    pthread_mutex_lock(&c.lock);
    ck_assert(cli_wait_locked(&c, is_closed, 0)); /* and dropped */
    pthread_mutex_unlock(&c.lock);
    ck_assert_ptr_nonnull(strstr(wu_test_help_captured(), NS ":0"));
    ck_assert_int_eq(0, n_connected);
    cli_close(&c);
}
END_TEST

/* Bytes written on a plain socket to the server's usock path. */
static void raw_send(const void *bytes, size_t n)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    char buf[64];
    ck_assert_int_ge(fd, 0);
    ck_assert(0 == strncmp(uri, "usock:", 6));
    ck_assert_uint_lt(strlen(uri + 6), sizeof sa.sun_path);
    memcpy(sa.sun_path, uri + 6, strlen(uri + 6) + 1);
    ck_assert_int_eq(0, connect(fd, (struct sockaddr *)&sa, sizeof sa));
    ck_assert_int_eq((ssize_t)n, write(fd, bytes, n));
    /* the server closes its end: read returns 0 (EOF) */
    ck_assert_int_le(read(fd, buf, sizeof buf), 0);
    close(fd);
}

START_TEST(test_bad_peers)
{
    static const unsigned char garbage[] = "GET / HTTP/1.0\r\n\r\n this is not a frame";
    unsigned char badhdr[12] = {0x57, 9, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
    cli_t c;
    wu_buffer_t b;
    uint32_t v = 0;
    register_job(1, 1, getuid());
    raw_send(garbage, sizeof garbage);
    raw_send(badhdr, sizeof badhdr);
    /* a first message that is not CONNECT, and one with an unknown command: dropped */
    for (int k = 0; k < 2; k++) {
        cli_open(&c);
        msg_start(&b, 0 == k ? WU_CMD_FENCE : 200);
        ck_assert_int_eq(PMIX_ERR_LOST_CONNECTION, cli_call(&c, &b, NULL));
        cli_close(&c);
    }
    /* an empty payload: no command byte */
    cli_open(&c);
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_send(c.conn, 5, 0, NULL, 0));
    ck_assert_int_eq(PMIX_ERR_LOST_CONNECTION, cli_reply(&c, 5, NULL));
    cli_close(&c);
    /* a good client: unknown commands and malformed requests get BAD_PARAM, it survives */
    cli_open(&c);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&c, 0, NULL));
    msg_start(&b, 77);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, cli_call(&c, &b, NULL));
    msg_start(&b, WU_CMD_GET);
    wu_pack(&b, &v, 1, PMIX_UINT32); /* not a proc */
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, cli_call(&c, &b, NULL));
    msg_start(&b, WU_CMD_FINALIZE);
    wu_pack(&b, &v, 1, PMIX_UINT32); /* trailing bytes */
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, cli_call(&c, &b, NULL));
    msg_start(&b, WU_CMD_ABORT);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, cli_call(&c, &b, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, cli_commit(&c, "lk", 1, "rk", 2));
    ck_assert_int_eq(PMIX_SUCCESS, cli_get_u32(&c, cli_get_send(&c, 0, "lk", false), &v));
    ck_assert_uint_eq(1, v);
    /* a second CONNECT of the same proc on another connection */
    {
        cli_t d;
        cli_open(&d);
        ck_assert_int_eq(PMIX_ERR_EXISTS, cli_connect(&d, 0, NULL));
        cli_close(&d);
    }
    cli_close(&c);
}
END_TEST

START_TEST(test_cleanup_dir)
{
    cli_t a;
    char d1[600], d2[600], path[700];
    pmix_info_t dirs[3];
    bool yes = true;
    wu_buffer_t b;
    FILE *f;
    wu_wait_t w;
    register_job(1, 1, getuid());
    snprintf(d1, sizeof d1, "%s/rec.XXXXXX", tmp);
    snprintf(d2, sizeof d2, "%s/flat.XXXXXX", tmp);
    ck_assert_ptr_nonnull(mkdtemp(d1));
    ck_assert_ptr_nonnull(mkdtemp(d2));
    snprintf(path, sizeof path, "%s/sub", d1);
    ck_assert_int_eq(0, mkdir(path, 0700));
    snprintf(path, sizeof path, "%s/sub/file", d1);
    ck_assert_ptr_nonnull(f = fopen(path, "w"));
    fclose(f);
    snprintf(path, sizeof path, "%s/file", d2);
    ck_assert_ptr_nonnull(f = fopen(path, "w"));
    fclose(f);
    /* a link to something outside must not be followed */
    snprintf(path, sizeof path, "%s/link", d1);
    ck_assert_int_eq(0, symlink(tmp, path));
    cli_open(&a);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&a, 0, NULL));
    for (int i = 0; i < 3; i++) {
        PMIX_INFO_CONSTRUCT(&dirs[i]);
    }
    PMIx_Info_load(&dirs[0], PMIX_REGISTER_CLEANUP_DIR, d1, PMIX_STRING);
    PMIx_Info_load(&dirs[1], PMIX_CLEANUP_RECURSIVE, &yes, PMIX_BOOL);
    msg_start(&b, WU_CMD_JOB_CONTROL);
    wu_proto_pack_list(&b, NULL, 0, PMIX_PROC);
    wu_proto_pack_list(&b, dirs, 2, PMIX_INFO);
    ck_assert_int_eq(PMIX_SUCCESS, cli_call(&a, &b, NULL));
    PMIx_Info_load(&dirs[2], PMIX_REGISTER_CLEANUP_DIR, d2, PMIX_STRING);
    msg_start(&b, WU_CMD_JOB_CONTROL);
    wu_proto_pack_list(&b, NULL, 0, PMIX_PROC);
    wu_proto_pack_list(&b, &dirs[2], 1, PMIX_INFO);
    ck_assert_int_eq(PMIX_SUCCESS, cli_call(&a, &b, NULL));
    for (int i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&dirs[i]);
    }
    cli_close(&a);
    wu_wait_init(&w);
    PMIx_server_deregister_nspace(nsname, op_done, &w);
    ck_assert_int_eq(PMIX_SUCCESS, wu_wait_for(&w, TMO));
    wu_wait_destroy(&w);
    ck_assert(!wu_path_exists(d1));
    ck_assert(!wu_path_exists(d2));
    ck_assert(wu_path_is_dir(tmp)); /* the link's target survived */
}
END_TEST

START_TEST(test_query_abort)
{
    cli_t a;
    wu_buffer_t b, r;
    pmix_query_t q;
    pmix_status_t st = 3;
    char *msg = "bye", *keys[] = {PMIX_QUERY_NAMESPACES, PMIX_QUERY_PROC_TABLE, NULL};
    pmix_info_t *info = NULL;
    size_t n = 0;
    register_job(1, 1, getuid());
    cli_open(&a);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&a, 0, NULL));
    memset(&q, 0, sizeof q);
    q.keys = keys;
    msg_start(&b, WU_CMD_QUERY);
    wu_proto_pack_list(&b, &q, 1, PMIX_QUERY);
    ck_assert_int_eq(PMIX_SUCCESS, cli_call(&a, &b, &r));
    ck_assert_int_eq(PMIX_SUCCESS, wu_proto_unpack_list(&r, (void **)&info, &n, PMIX_INFO));
    ck_assert_uint_eq(2, n);
    ck_assert_str_eq(NS, info[0].value.data.string);
    ck_assert_int_eq(PMIX_DATA_ARRAY, info[1].value.type);
    ck_assert_uint_eq(1, info[1].value.data.darray->size);
    ck_assert_int_eq(getpid(), ((pmix_proc_info_t *)info[1].value.data.darray->array)[0].pid);
    PMIX_INFO_FREE(info, n);
    wu_buffer_destruct(&r);
    /* the host has no abort upcall */
    msg_start(&b, WU_CMD_ABORT);
    wu_pack(&b, &st, 1, PMIX_STATUS);
    wu_pack(&b, &msg, 1, PMIX_STRING);
    wu_proto_pack_list(&b, NULL, 0, PMIX_PROC);
    ck_assert_int_eq(PMIX_ERR_NOT_SUPPORTED, cli_call(&a, &b, NULL));
    cli_close(&a);
}
END_TEST

/* The host refuses the connection in client_connected. */
START_TEST(test_host_refuses)
{
    cli_t c;
    register_job(1, 1, getuid());
    host_refuse_connect = true;
    cli_open(&c);
    ck_assert_int_eq(PMIX_ERR_NO_PERMISSIONS, cli_connect(&c, 0, NULL));
    pthread_mutex_lock(&c.lock);
    ck_assert(cli_wait_locked(&c, is_closed, 0));
    pthread_mutex_unlock(&c.lock);
    cli_close(&c);
    /* the refusal left the client registered: it may try again */
    host_refuse_connect = false;
    cli_open(&c);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&c, 0, NULL));
    ck_assert_int_eq(2, n_connected);
    cli_close(&c);
}
END_TEST

/* LOG without a host log upcall goes to plog; deregister_client drops the connection. */
START_TEST(test_log_and_deregister)
{
    cli_t c;
    wu_buffer_t b;
    pmix_info_t d;
    pmix_proc_t p;
    register_job(1, 1, getuid());
    cli_open(&c);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&c, 0, NULL));
    PMIX_INFO_CONSTRUCT(&d);
    PMIx_Info_load(&d, PMIX_LOG_STDERR, "check_server: a logged line", PMIX_STRING);
    msg_start(&b, WU_CMD_LOG);
    wu_proto_pack_list(&b, &d, 1, PMIX_INFO);
    wu_proto_pack_list(&b, NULL, 0, PMIX_INFO);
    PMIX_INFO_DESTRUCT(&d);
    ck_assert_int_eq(PMIX_SUCCESS, cli_call(&c, &b, NULL));
    PMIX_LOAD_PROCID(&p, NS, 0);
    PMIx_server_deregister_client(&p, NULL, NULL); /* waits */
    pthread_mutex_lock(&c.lock);
    ck_assert(cli_wait_locked(&c, is_closed, 0));
    pthread_mutex_unlock(&c.lock);
    cli_close(&c);
    /* unknown now */
    cli_open(&c);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, cli_connect(&c, 0, NULL));
    cli_close(&c);
}
END_TEST

/* issue 15: a host that is not a client (Open MPI's mpirun) keeps data of its own with
 * PMIx_Store_internal and reads it back with PMIx_Get; its clients read it too, and the host
 * reads what they committed and what it registered. What the node does not hold is NOT_FOUND at
 * once (nothing is asked of the host). */
static void nb_got(pmix_status_t status, pmix_value_t *kv, void *cbdata)
{
    wu_wait_t *w = cbdata;
    ck_assert_ptr_nonnull(kv);
    ck_assert_int_eq(PMIX_STRING, kv->type);
    ck_assert_str_eq("tcp://198.18.0.1:1", kv->data.string);
    wu_wait_release(w, status);
}

START_TEST(issue_15_server_store_get)
{
    pmix_proc_t me, p;
    pmix_value_t v, *got = NULL;
    cli_t c;
    uint32_t u = 0;
    wu_wait_t w;
    register_job(2, 1, getuid());
    PMIX_LOAD_PROCID(&me, "host-ns", 0);
    PMIX_VALUE_LOAD(&v, "tcp://198.18.0.1:1", PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Store_internal(&me, "host.uri", &v));
    PMIX_VALUE_DESTRUCT(&v);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get(&me, "host.uri", NULL, 0, &got));
    ck_assert_int_eq(PMIX_STRING, got->type);
    ck_assert_str_eq("tcp://198.18.0.1:1", got->data.string);
    PMIX_VALUE_RELEASE(got);
    wu_wait_init(&w);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get_nb(&me, "host.uri", NULL, 0, nb_got, &w));
    ck_assert_int_eq(PMIX_SUCCESS, wu_wait_for(&w, TMO));
    wu_wait_destroy(&w);
    /* registered job data, and a key nobody has */
    PMIX_LOAD_PROCID(&p, NS, PMIX_RANK_WILDCARD);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get(&p, "usr.size", NULL, 0, &got));
    ck_assert_uint_eq(42, got->data.uint32);
    PMIX_VALUE_RELEASE(got);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, PMIx_Get(&me, "host.none", NULL, 0, &got));
    ck_assert_ptr_null(got);
    /* rank 1 is on no node here: NOT_FOUND, not a wait for the host */
    PMIX_LOAD_PROCID(&p, NS, 1);
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, PMIx_Get(&p, "rk", NULL, 0, &got));
    /* no key: all of the proc's data (ORTE reads its daemons' so) */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get(&me, NULL, NULL, 0, &got));
    ck_assert_int_eq(PMIX_DATA_ARRAY, got->type);
    ck_assert_int_eq(PMIX_INFO, got->data.darray->type);
    ck_assert_uint_eq(1, got->data.darray->size);
    ck_assert_str_eq("host.uri", ((pmix_info_t *)got->data.darray->array)[0].key);
    PMIX_VALUE_RELEASE(got);
    ck_assert_int_eq(PMIX_ERR_BAD_PARAM, PMIx_Get(&me, "", NULL, 0, &got));
    /* a client's commit reads back in the server */
    cli_open(&c);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&c, 0, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, cli_commit(&c, "lk", 5, "rk", 6));
    PMIX_LOAD_PROCID(&p, NS, 0);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get(&p, "lk", NULL, 0, &got));
    ck_assert_uint_eq(5, got->data.uint32);
    PMIX_VALUE_RELEASE(got);
    /* and the client reads a value the host stored for another proc of its job */
    PMIX_LOAD_PROCID(&p, NS, 1);
    u = 7;
    PMIX_VALUE_LOAD(&v, &u, PMIX_UINT32);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Store_internal(&p, "host.port", &v));
    u = 0;
    ck_assert_int_eq(PMIX_SUCCESS, cli_get_u32(&c, cli_get_send(&c, 1, "host.port", false), &u));
    ck_assert_uint_eq(7, u);
    cli_close(&c);
}
END_TEST

/* issue 15: the clients' socket is in the directory the host named (PMIX_SERVER_TMPDIR, else
 * PMIX_SYSTEM_TMPDIR); a directory too deep for a socket's path falls back to the temporary
 * directory; nothing is left in the host's directory after finalize. */
static void socket_dir_uri(const char *key, const char *dir, char *out, size_t len)
{
    pmix_info_t info;
    pmix_proc_t p;
    char **env = NULL;
    PMIX_LOAD_PROCID(&p, NS, 0);
    PMIX_INFO_CONSTRUCT(&info);
    PMIx_Info_load(&info, key, dir, PMIX_STRING);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_init(&host, &info, 1));
    PMIX_INFO_DESTRUCT(&info);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_setup_fork(&p, &env));
    ck_assert_ptr_nonnull(wu_getenv(WU_PROTO_URI_ENV, env));
    snprintf(out, len, "%s", wu_getenv(WU_PROTO_URI_ENV, env));
    wu_argv_free(env);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_finalize());
}

START_TEST(issue_15_socket_in_host_dir)
{
    char want[700], got[700], deep[700];
    size_t n;
    DIR *d;
    struct dirent *e;
    register_job(1, 1, getuid());
    snprintf(want, sizeof want, "usock:%s/wu-ptl.", tmp);
    ck_assert_msg(0 == strncmp(uri, want, strlen(want)), "uri %s", uri);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_finalize());
    socket_dir_uri(PMIX_SYSTEM_TMPDIR, tmp, got, sizeof got);
    ck_assert_msg(0 == strncmp(got, want, strlen(want)), "uri %s", got);
    /* 120 bytes of directory: no room for a socket in it */
    n = (size_t)snprintf(deep, sizeof deep, "%s/", tmp);
    while (n < 120) {
        deep[n++] = 'd';
    }
    deep[n] = '\0';
    ck_assert_int_eq(0, mkdir(deep, 0700));
    socket_dir_uri(PMIX_SERVER_TMPDIR, deep, got, sizeof got);
    ck_assert_msg(0 == strncmp(got, "usock:/", 7) && NULL == strstr(got, deep), "uri %s", got);
    /* the host's directories hold nothing of ours any more */
    ck_assert_int_eq(0, rmdir(deep));
    ck_assert_ptr_nonnull(d = opendir(tmp));
    while (NULL != (e = readdir(d))) {
        ck_assert_msg(0 != strncmp(e->d_name, "wu-", 3), "%s left in %s", e->d_name, tmp);
    }
    closedir(d);
    /* teardown finalizes one */
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_init(&host, NULL, 0));
}
END_TEST

/* issue 15: a host that registers job-level maps only (and per-process data for some ranks,
 * as Slurm does) gets for its clients what OpenPMIx derives from the maps; what the host gave
 * itself stays as it gave it. Read back with the server process's own PMIx_Get. */
static void expect_u(const char *ns, pmix_rank_t r, const char *key, uint32_t want)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;
    uint32_t got;
    PMIX_LOAD_PROCID(&p, ns, r);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get(&p, key, NULL, 0, &v));
    got = PMIX_UINT16 == v->type      ? v->data.uint16
          : PMIX_PROC_RANK == v->type ? v->data.rank
                                      : v->data.uint32;
    ck_assert_msg(want == got, "%s of rank %u: %u, not %u", key, r, got, want);
    PMIX_VALUE_RELEASE(v);
}

static void expect_s(const char *ns, pmix_rank_t r, const char *key, const char *want)
{
    pmix_proc_t p;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&p, ns, r);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Get(&p, key, NULL, 0, &v));
    ck_assert_int_eq(PMIX_STRING, v->type);
    ck_assert_str_eq(want, v->data.string);
    PMIX_VALUE_RELEASE(v);
}

START_TEST(issue_15_maps_only_host)
{
    char host[256], nodes[600], *nmap = NULL, *pmap = NULL;
    pmix_info_t job[5], pd[2];
    pmix_data_array_t arr = {.type = PMIX_INFO, .size = 2, .array = pd};
    pmix_nspace_t ns;
    uint32_t three = 3;
    uint16_t seven = 7;
    pmix_rank_t zero = 0;
    wu_wait_t w;
    ck_assert_int_eq(0, gethostname(host, sizeof host));
    snprintf(nodes, sizeof nodes, "%s,othernode", host);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_generate_regex(nodes, &nmap));
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_generate_ppn("0,2;1", &pmap));
    PMIx_Info_load(&job[0], PMIX_NODE_MAP, nmap, PMIX_STRING);
    PMIx_Info_load(&job[1], PMIX_PROC_MAP, pmap, PMIX_STRING);
    PMIx_Info_load(&job[2], PMIX_JOB_SIZE, &three, PMIX_UINT32);
    PMIx_Info_load(&pd[0], PMIX_RANK, &zero, PMIX_PROC_RANK);
    PMIx_Info_load(&pd[1], PMIX_LOCAL_RANK, &seven, PMIX_UINT16); /* the host's own value */
    PMIx_Info_load(&job[3], PMIX_PROC_DATA, &arr, PMIX_DATA_ARRAY);
    PMIx_Info_load(&job[4], PMIX_UNIV_SIZE, &three, PMIX_UINT32);
    PMIX_LOAD_NSPACE(ns, "maps-only");
    wu_wait_init(&w);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_register_nspace(ns, 2, job, 5, op_done, &w));
    ck_assert_int_eq(PMIX_SUCCESS, wu_wait_for(&w, TMO));
    wu_wait_destroy(&w);
    /* per process: node, node id, local and node rank; rank 0's local rank is the host's */
    expect_s("maps-only", 0, PMIX_HOSTNAME, host);
    expect_u("maps-only", 0, PMIX_LOCAL_RANK, 7);
    expect_u("maps-only", 0, PMIX_NODE_RANK, 0);
    expect_s("maps-only", 1, PMIX_HOSTNAME, "othernode");
    expect_u("maps-only", 1, PMIX_NODEID, 1);
    expect_u("maps-only", 1, PMIX_LOCAL_RANK, 0);
    expect_s("maps-only", 2, PMIX_HOSTNAME, host);
    expect_u("maps-only", 2, PMIX_NODEID, 0);
    expect_u("maps-only", 2, PMIX_LOCAL_RANK, 1);
    expect_u("maps-only", 2, PMIX_NODE_RANK, 1);
    /* the job: nodes, and this node's peers */
    expect_s("maps-only", PMIX_RANK_WILDCARD, PMIX_NODE_LIST, nodes);
    expect_u("maps-only", PMIX_RANK_WILDCARD, PMIX_NUM_NODES, 2);
    expect_u("maps-only", PMIX_RANK_WILDCARD, PMIX_MAX_PROCS, 3);
    expect_s("maps-only", PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS, "0,2");
    expect_u("maps-only", PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE, 2);
    expect_u("maps-only", PMIX_RANK_WILDCARD, PMIX_LOCALLDR, 0);
    for (int i = 0; i < 5; i++) {
        PMIX_INFO_DESTRUCT(&job[i]); /* job[3] holds a copy of pd */
    }
    /* a node map without a proc map still gives the node list (Open MPI 4.1's mpirun) */
    PMIx_Info_load(&job[0], PMIX_NODE_MAP, nmap, PMIX_STRING);
    PMIX_LOAD_NSPACE(ns, "node-map-only");
    wu_wait_init(&w);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_server_register_nspace(ns, 0, job, 1, op_done, &w));
    ck_assert_int_eq(PMIX_SUCCESS, wu_wait_for(&w, TMO));
    wu_wait_destroy(&w);
    expect_s("node-map-only", PMIX_RANK_WILDCARD, PMIX_NODE_LIST, nodes);
    PMIX_INFO_DESTRUCT(&job[0]);
    free(nmap);
    free(pmap);
}
END_TEST

/* issue 10: the server runs with whichever single ptl module is selected; it hands out that
 * module's URI (and a token where the kernel cannot identify peers), and a client connected
 * through it gets its data. */
static const struct {
    const char *sel, *scheme;
    bool token;
} one_ptl[] = {{"usock", "usock:", false}, {"tcp", "tcp4://", true}};

START_TEST(issue_10_one_ptl_module)
{
    cli_t c;
    uint32_t v = 0;
    setenv("PMIX_MCA_ptl", one_ptl[_i].sel, 1);
    srv_setup();
    register_job(1, 1, getuid());
    ck_assert_msg(0 == strncmp(uri, one_ptl[_i].scheme, strlen(one_ptl[_i].scheme)), "uri %s", uri);
    ck_assert(one_ptl[_i].token == ('\0' != cli_cred[0]));
    cli_open(&c);
    ck_assert_int_eq(PMIX_SUCCESS, cli_connect(&c, 0, NULL));
    ck_assert_int_eq(PMIX_SUCCESS, cli_commit(&c, "lk", 5, "rk", 6));
    ck_assert_int_eq(PMIX_SUCCESS, cli_get_u32(&c, cli_get_send(&c, 0, "lk", false), &v));
    ck_assert_uint_eq(5, v);
    cli_close(&c);
    if (one_ptl[_i].token) { /* without the token, the peer is refused */
        cli_cred[0] = '\0';
        cli_open(&c);
        ck_assert_int_ne(PMIX_SUCCESS, cli_connect(&c, 0, NULL));
        cli_close(&c);
    }
    srv_teardown();
    unsetenv("PMIX_MCA_ptl");
}
END_TEST

static Suite *server_suite(void)
{
    Suite *s = suite_create("server");
    TCase *tc = tcase_create("server");
    tcase_add_checked_fixture(tc, srv_setup, srv_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_init_finalize_twice);
    tcase_add_test(tc, test_setup_fork_env);
    tcase_add_test(tc, test_register_order);
    tcase_add_test(tc, test_full_flow);
    tcase_add_test(tc, test_wrong_uid_refused);
    tcase_add_test(tc, test_bad_peers);
    tcase_add_test(tc, test_cleanup_dir);
    tcase_add_test(tc, test_query_abort);
    tcase_add_test(tc, test_host_refuses);
    tcase_add_test(tc, issue_15_server_store_get);
    tcase_add_test(tc, issue_15_socket_in_host_dir);
    tcase_add_test(tc, issue_15_maps_only_host);
    tcase_add_test(tc, test_log_and_deregister);
    suite_add_tcase(s, tc);
    tc = tcase_create("one_ptl");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, issue_10_one_ptl_module, 0, sizeof one_ptl / sizeof one_ptl[0]);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(server_suite)
