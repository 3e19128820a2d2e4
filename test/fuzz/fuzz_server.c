/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_server.c -- fuzz target for the server's switchyard and command handlers
 * (pmix/server/wu_server_switch.c, _cmds.c, _fence.c, _data.c), reached the way a hostile
 * client reaches them: over a real socket to a real in-process server. libFuzzer calls
 * LLVMFuzzerTestOneInput; replay.c calls the same entry point for the seeds in
 * test/fuzz/corpus/server/ under make check.
 *
 * One server per process (PMIx_server_init with a small host module whose upcalls answer at
 * once, namespace FZ_NS: 4 ranks, 0 and 1 local clients of this uid, 2 and 3 on "other nodes").
 * Per input, a new connection:
 *   input  = frame { FZ_SEP frame }   (FZ_SEP is the 4 bytes "WUFZ")
 *   frame  = command byte, then the command's body (sent as one ptl frame: the byte packed as
 *            PMIX_UINT8 as a client packs it, then the body bytes as they are)
 * When the first frame is a CONNECT it is the handshake itself; otherwise the harness connects
 * as rank 0 first. After the frames a FINALIZE; its answer (or the server closing the
 * connection) ends the input. An input whose first byte is FZ_RAW instead goes to the socket
 * unframed, before any handshake (frame headers and the unauthenticated path).
 *
 * An input whose first byte is FZ_OPMIX speaks as a process on OpenPMIx's own library does
 * (docs/openpmix-wire.md; pmix/server/wu_server_opmix*.c), to the loopback TCP listener of
 * PMIX_SERVER_URI41:
 *   input  = FZ_OPMIX, options (FZ_OX_*), frame { FZ_SEP frame }
 *   frame  = an OpenPMIx request payload as it is: a bfrops buffer of the chosen buffer type
 *            that starts with the command (non-described FINALIZE: 02 05)
 * The harness does the framing: first a valid handshake as rank FZ_OX_RANK (16-byte header of
 * 8 x 0xff and the body's length in host order; psec native with this process's uid and gid,
 * the namespace and rank, "4.2.2", "v41", the buffer type, "hash") and its answer (status and
 * index), then each frame behind a 16-byte header (index, tag 1, 2, ..., length, in network
 * order), then a FINALIZE. With FZ_OX_HELLO the first frame is the handshake's body instead,
 * sent as it is behind a handshake header. A dropped connection is followed by a fresh Wireup
 * and OpenPMIx client, which must both be served.
 *
 * The server must survive: every input ends with a well-formed request answered (the
 * FINALIZE, or, when the server dropped the connection, a fresh CONNECT + FINALIZE). No answer
 * within REPLY_WAIT seconds aborts, so libFuzzer reports the input (a crash of the server
 * thread ends the process anyway). The process never finalizes the server: the cleanup paths
 * a fuzzed JOB_CONTROL registers run only when the namespace is deregistered. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw */
#endif
#include "mca/ptl/ptl.h"
#include "opal/util/wu_argv.h"
#include "pmix/common/wu_obfr.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "test/fuzz/fuzz.h"

#include "pmix.h"
#include "pmix_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define REPLY_WAIT  20  /* seconds a live server may take to answer (sanitizers, loaded CI) */
#define TAG_FINAL   999 /* tag of the closing FINALIZE; the fuzzed frames use 1, 2, ... */
#define MAX_FRAMES  16
#define MAX_RETRIES 400 /* CONNECTs refused because the last connection is not gone yet */

static char uri[512], cred[128];
static struct sockaddr_in ouri_addr; /* the OpenPMIx listener (PMIX_SERVER_URI41) */
static const wu_ptl_module_t *ptl;

/* ---- a host whose upcalls answer at once ------------------------------------------------ */

static pmix_status_t host_abort(const pmix_proc_t *p, void *obj, int status, const char msg[],
                                pmix_proc_t procs[], size_t nprocs, pmix_op_cbfunc_t cbfunc,
                                void *cbdata)
{
    (void)p, (void)obj, (void)status, (void)msg, (void)procs, (void)nprocs, (void)cbfunc;
    (void)cbdata;
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t host_fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                                void *cbdata)
{
    (void)procs, (void)nprocs, (void)info, (void)ninfo;
    /* this node's data is everyone's; they are the host's, freed once the server has them */
    cbfunc(PMIX_SUCCESS, data, ndata, cbdata, free, data);
    return PMIX_SUCCESS;
}

static pmix_status_t host_dmodex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                 pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    (void)proc, (void)info, (void)ninfo, (void)cbfunc, (void)cbdata;
    return PMIX_ERR_NOT_FOUND;
}

static pmix_status_t host_jobctl(const pmix_proc_t *p, const pmix_proc_t targets[], size_t nt,
                                 const pmix_info_t dirs[], size_t nd, pmix_info_cbfunc_t cbfunc,
                                 void *cbdata)
{
    (void)p, (void)targets, (void)nt, (void)dirs, (void)nd;
    cbfunc(PMIX_SUCCESS, NULL, 0, cbdata, NULL, NULL);
    return PMIX_SUCCESS;
}

static pmix_status_t host_query(pmix_proc_t *p, pmix_query_t *q, size_t nq,
                                pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    (void)p, (void)q, (void)nq, (void)cbfunc, (void)cbdata;
    return PMIX_ERR_NOT_FOUND;
}

static pmix_status_t host_notify(pmix_status_t code, const pmix_proc_t *source,
                                 pmix_data_range_t range, pmix_info_t info[], size_t ninfo,
                                 pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)code, (void)source, (void)range, (void)info, (void)ninfo, (void)cbfunc, (void)cbdata;
    return PMIX_OPERATION_SUCCEEDED;
}

/* the data service: publishing is refused as a duplicate, a lookup finds one datum */
static pmix_status_t host_publish(const pmix_proc_t *p, const pmix_info_t info[], size_t ninfo,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)p, (void)info, (void)ninfo, (void)cbfunc, (void)cbdata;
    return PMIX_ERR_DUPLICATE_KEY;
}

static pmix_status_t host_lookup(const pmix_proc_t *p, char **keys, const pmix_info_t info[],
                                 size_t ninfo, pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    pmix_pdata_t pd;
    (void)info, (void)ninfo;
    PMIX_PDATA_CONSTRUCT(&pd);
    pd.proc = *p;
    PMIX_LOAD_KEY(pd.key, keys[0]);
    PMIX_VALUE_LOAD(&pd.value, "fz", PMIX_STRING);
    cbfunc(NULL == keys[1] ? PMIX_SUCCESS : PMIX_ERR_PARTIAL_SUCCESS, &pd, 1, cbdata);
    PMIX_PDATA_DESTRUCT(&pd);
    return PMIX_SUCCESS;
}

static pmix_status_t host_unpublish(const pmix_proc_t *p, char **keys, const pmix_info_t info[],
                                    size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)p, (void)keys, (void)info, (void)ninfo, (void)cbfunc, (void)cbdata;
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t host_connect(const pmix_proc_t procs[], size_t nprocs,
                                  const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                  void *cbdata)
{
    (void)procs, (void)nprocs, (void)info, (void)ninfo, (void)cbfunc, (void)cbdata;
    return PMIX_OPERATION_SUCCEEDED;
}

/* a spawn "starts" a job at once: the answer path with a namespace */
static pmix_status_t host_spawn(const pmix_proc_t *p, const pmix_info_t job_info[], size_t ninfo,
                                const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                                void *cbdata)
{
    (void)p, (void)job_info, (void)ninfo, (void)apps, (void)napps;
    cbfunc(PMIX_SUCCESS, "fz.child", cbdata);
    return PMIX_SUCCESS;
}

/* no log upcall: LOG goes to the server's own plog path */
static pmix_server_module_t host = {
    .abort = host_abort,
    .fence_nb = host_fence,
    .direct_modex = host_dmodex,
    .job_control = host_jobctl,
    .query = host_query,
    .notify_event = host_notify,
    .publish = host_publish,
    .lookup = host_lookup,
    .unpublish = host_unpublish,
    .connect = host_connect,
    .disconnect = host_connect,
    .spawn = host_spawn,
};

static void die(const char *what)
{
    fprintf(stderr, "fuzz_server: %s\n", what);
    abort();
}

static char tmpdir[4096]; /* the server's PMIX_SERVER_TMPDIR, made here (in $TMPDIR) */

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (FTW_DP == flag || FTW_D == flag) {
        (void)rmdir(path);
    } else {
        (void)unlink(path);
    }
    return 0;
}

/* At exit: remove the temporary directory and the directory of the server's socket, which
 * ptl/usock makes in $TMPDIR (else /tmp) whatever PMIX_SERVER_TMPDIR says. The server is not finalized (its
 * threads may be busy with the last input); only its files go. */
static void remove_files(void)
{
    const char *path = 0 == strncmp(uri, "usock:", 6) ? uri + 6 : NULL;
    if (NULL != path && '/' == path[0]) {
        char dir[sizeof uri];
        char *slash;
        snprintf(dir, sizeof dir, "%.*s", (int)strcspn(path, ";"), path);
        if (NULL != (slash = strrchr(dir, '/')) && slash != dir) {
            *slash = '\0';
            (void)nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
        }
    }
    if ('\0' != tmpdir[0]) {
        (void)nftw(tmpdir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
    }
}

static void reg_done(pmix_status_t status, void *cbdata)
{
    *(volatile int *)cbdata = PMIX_SUCCESS == status ? 1 : -1;
}

/* "<nspace>.<rank>;tcp4://<address>:<port>", the URI OpenPMIx's clients are given */
static void ouri_parse(const char *ouri)
{
    const char *addr = NULL != ouri ? strstr(ouri, ";tcp4://") : NULL;
    const char *colon = NULL != addr ? strrchr(addr, ':') : NULL;
    char host[64];
    if (NULL == colon || colon - (addr + 8) >= (ptrdiff_t)sizeof host) {
        die("setup_fork gave no PMIX_SERVER_URI41 with a tcp4 address");
    }
    snprintf(host, sizeof host, "%.*s", (int)(colon - (addr + 8)), addr + 8);
    ouri_addr.sin_family = AF_INET;
    ouri_addr.sin_port = htons((uint16_t)atoi(colon + 1));
    if (1 != inet_pton(AF_INET, host, &ouri_addr.sin_addr)) {
        die("PMIX_SERVER_URI41 has no IPv4 address");
    }
}

static void server_start(void)
{
    const char *base = getenv("TMPDIR");
    char tmpl[sizeof tmpdir], **env = NULL, *scheme;
    pmix_info_t info[2];
    pmix_nspace_t nsname;
    pmix_proc_t p;
    uint32_t size = 4;
    volatile int done = 0;

    /* no site parameters; LOG output never reaches the system log */
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    setenv("PMIX_MCA_plog", "stdfd", 1);
    /* a handshake naming a namespace not registered waits this long, well within REPLY_WAIT */
    setenv("PMIX_MCA_server_connect_wait", "2", 1);
    snprintf(tmpl, sizeof tmpl, "%s/wu-fuzz-XXXXXX",
             NULL != base && '/' == base[0] && strlen(base) < 4000 ? base : "/tmp");
    if (NULL == mkdtemp(tmpl)) {
        die("cannot make a temporary directory");
    }
    snprintf(tmpdir, sizeof tmpdir, "%s", tmpl);
    atexit(remove_files);
    PMIX_INFO_CONSTRUCT(&info[0]);
    PMIx_Info_load(&info[0], PMIX_SERVER_TMPDIR, tmpl, PMIX_STRING);
    if (PMIX_SUCCESS != PMIx_server_init(&host, info, 1)) {
        die("PMIx_server_init failed");
    }
    PMIX_INFO_DESTRUCT(&info[0]);
    for (pmix_rank_t r = 0; r < 2; r++) {
        PMIX_LOAD_PROCID(&p, FZ_NS, r);
        if (PMIX_SUCCESS != PMIx_server_register_client(&p, getuid(), getgid(), NULL, NULL, NULL)) {
            die("register_client failed");
        }
    }
    PMIX_LOAD_NSPACE(nsname, FZ_NS);
    PMIX_INFO_CONSTRUCT(&info[0]);
    PMIX_INFO_CONSTRUCT(&info[1]);
    PMIx_Info_load(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIx_Info_load(&info[1], PMIX_HOSTNAME, "fuzzhost", PMIX_STRING);
    if (PMIX_SUCCESS != PMIx_server_register_nspace(nsname, 2, info, 2, reg_done, (void *)&done)) {
        die("register_nspace failed");
    }
    for (int i = 0; 0 == done && i < REPLY_WAIT * 1000; i++) {
        usleep(1000);
    }
    if (1 != done) {
        die("register_nspace did not complete");
    }
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIX_LOAD_PROCID(&p, FZ_NS, 0);
    if (PMIX_SUCCESS != PMIx_server_setup_fork(&p, &env) ||
        NULL == wu_getenv(WU_PROTO_URI_ENV, env)) {
        die("setup_fork gave no server URI");
    }
    snprintf(uri, sizeof uri, "%s", wu_getenv(WU_PROTO_URI_ENV, env));
    ouri_parse(wu_getenv("PMIX_SERVER_URI41", env));
    snprintf(cred, sizeof cred, "%s",
             NULL != wu_getenv("WU_PSEC_TOKEN", env) ? wu_getenv("WU_PSEC_TOKEN", env) : "");
    wu_argv_free(env);
    scheme = strndup(uri, strcspn(uri, ":"));
    ptl = wu_ptl_base_module(scheme);
    free(scheme);
    if (NULL == ptl) {
        die("no ptl module for the server URI");
    }
}

/* ---- raw protocol client ----------------------------------------------------------------- */

static int sock_open(void)
{
    int fd = -1;
    if (WU_SUCCESS != ptl->connect(uri, &fd)) {
        die("cannot connect to the server");
    }
    return fd;
}

static void write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w < 0 && EINTR == errno) {
            continue;
        }
        if (w <= 0) {
            return; /* the server closed the connection: the reader sees it */
        }
        c += w;
        n -= (size_t)w;
    }
}

/* A frame whose header (hlen bytes, Wireup's or OpenPMIx's) gets the tag and the length at
 * bytes 4 and 8, in network order. */
static void put_frame(int fd, uint8_t *hdr, size_t hlen, uint32_t tag, const void *payload,
                      size_t len)
{
    uint32_t be;
    be = htonl(tag);
    memcpy(hdr + 4, &be, 4);
    be = htonl((uint32_t)len);
    memcpy(hdr + 8, &be, 4);
    write_all(fd, hdr, hlen);
    write_all(fd, payload, len);
}

static void send_frame(int fd, uint32_t tag, const void *payload, size_t len)
{
    uint8_t hdr[WU_PTL_HDR_SIZE] = {WU_PTL_WIRE_MAGIC, WU_PTL_WIRE_VERSION, 0, 0};
    put_frame(fd, hdr, sizeof hdr, tag, payload, len);
}

/* read exactly n bytes before the deadline: 1, 0 when the server closed, aborts on timeout */
static int read_all(int fd, void *p, size_t n, time_t deadline)
{
    char *c = p;
    while (n > 0) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        ssize_t r;
        if (time(NULL) > deadline) {
            die("the server neither answered nor closed the connection");
        }
        if (poll(&pfd, 1, 100) <= 0) {
            continue;
        }
        r = recv(fd, c, n, 0);
        if (r < 0 && EINTR == errno) {
            continue;
        }
        if (r <= 0) {
            return 0;
        }
        c += r;
        n -= (size_t)r;
    }
    return 1;
}

/* Wait for the reply to tag, skipping others (events), on a connection whose frames have
 * hlen-byte headers: Wireup's, or OpenPMIx's of buffer type btype (0: Wireup's); both hold the
 * tag and the length at bytes 4 and 8 in network order. 1 and the reply's status, or 0 when the
 * server closed. */
static int wait_reply_of(int fd, size_t hlen, int btype, uint32_t tag, pmix_status_t *status)
{
    time_t deadline = time(NULL) + REPLY_WAIT;
    for (;;) {
        uint8_t hdr[WU_PTL_FOREIGN_HDR_SIZE]; /* the larger */
        uint32_t t, len;
        char *body;
        wu_buffer_t b;
        int32_t one = 1;
        int rc;
        if (!read_all(fd, hdr, hlen, deadline)) {
            return 0;
        }
        memcpy(&t, hdr + 4, 4);
        memcpy(&len, hdr + 8, 4);
        t = ntohl(t);
        len = ntohl(len);
        if (NULL == (body = malloc(len > 0 ? len : 1))) {
            die("out of memory");
        }
        if (!read_all(fd, body, len, deadline)) {
            free(body);
            return 0;
        }
        wu_buffer_construct(&b);
        b.base = body;
        b.used = b.cap = len;
        rc = 0 == btype ? wu_unpack(&b, status, &one, PMIX_STATUS)
                        : wu_obfr_unpack(&b, btype, status, &one, PMIX_STATUS);
        free(body);
        if (NULL != getenv("WU_FUZZ_VERBOSE")) {
            fprintf(stderr, "fuzz_server: reply to %u: %s\n", t,
                    PMIX_SUCCESS == rc ? PMIx_Error_string(*status) : "(no status)");
        }
        if (t == tag) {
            if (PMIX_SUCCESS != rc) {
                die("a reply without a status");
            }
            return 1;
        }
    }
}

static int wait_reply(int fd, uint32_t tag, pmix_status_t *status)
{
    return wait_reply_of(fd, WU_PTL_HDR_SIZE, 0, tag, status);
}

/* Send one request (command byte + body) with tag. */
static void request(int fd, uint32_t tag, uint8_t cmd, const void *body, size_t len)
{
    wu_buffer_t b;
    wu_buffer_construct(&b);
    if (PMIX_SUCCESS != wu_pack(&b, &cmd, 1, PMIX_UINT8) ||
        PMIX_SUCCESS != wu_buffer_put(&b, body, len)) {
        die("out of memory");
    }
    send_frame(fd, tag, b.base, b.used);
    wu_buffer_destruct(&b);
}

/* A new connection that has completed a valid CONNECT as rank 0. */
static int connect_rank0(void)
{
    const char *ver = WU_PROTO_VERSION;
    char *mode = NULL;
    pmix_byte_object_t bo = {.bytes = cred, .size = strlen(cred)};
    pmix_proc_t p;
    pid_t pid = getpid();
    pmix_status_t st = PMIX_ERROR;
    wu_buffer_t b;

    PMIX_LOAD_PROCID(&p, FZ_NS, 0);
    wu_buffer_construct(&b);
    if (PMIX_SUCCESS != wu_pack(&b, &ver, 1, PMIX_STRING) ||
        PMIX_SUCCESS != wu_pack(&b, &mode, 1, PMIX_STRING) ||
        PMIX_SUCCESS != wu_pack(&b, &bo, 1, PMIX_BYTE_OBJECT) ||
        PMIX_SUCCESS != wu_pack(&b, &p, 1, PMIX_PROC) ||
        PMIX_SUCCESS != wu_pack(&b, &pid, 1, PMIX_PID)) {
        die("cannot pack a CONNECT");
    }
    for (int i = 0; i < MAX_RETRIES; i++) {
        int fd = sock_open();
        request(fd, 1, WU_CMD_CONNECT, b.base, b.used);
        if (wait_reply(fd, 1, &st) && PMIX_SUCCESS == st) {
            wu_buffer_destruct(&b);
            return fd;
        }
        close(fd);
        if (PMIX_ERR_EXISTS != st) {
            break;
        }
        usleep(5000); /* the server has not yet seen the last connection end */
    }
    fprintf(stderr, "fuzz_server: a valid CONNECT failed: %s\n", PMIx_Error_string(st));
    abort();
}

/* End a connection with a FINALIZE: 1 if answered, 0 if the server had closed it. */
static int finish(int fd)
{
    pmix_status_t st;
    int answered;
    request(fd, TAG_FINAL, WU_CMD_FINALIZE, NULL, 0);
    answered = wait_reply(fd, TAG_FINAL, &st);
    close(fd);
    return answered;
}

/* Raw bytes, no handshake: then wait until the server drops the connection or we time out
 * waiting for more (it must not crash either way). */
static void raw(const uint8_t *p, size_t n)
{
    int fd = sock_open();
    char sink[4096];
    time_t deadline = time(NULL) + REPLY_WAIT;
    write_all(fd, p, n);
    shutdown(fd, SHUT_WR);
    while (time(NULL) <= deadline) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (poll(&pfd, 1, 100) > 0 && recv(fd, sink, sizeof sink, 0) <= 0) {
            break;
        }
    }
    close(fd);
}

/* ---- a client on OpenPMIx's library ----------------------------------------------------- */
static int ox_open(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), err = fd < 0 ? errno : 0;
    if (fd >= 0 && 0 != connect(fd, (const struct sockaddr *)&ouri_addr, sizeof ouri_addr)) {
        struct pollfd pfd = {.fd = fd, .events = POLLOUT};
        socklen_t elen = sizeof err;
        err = errno;
        /* interrupted (libFuzzer's timer signal): the connection goes on, wait for it */
        if (EINTR == err) {
            if (poll(&pfd, 1, REPLY_WAIT * 1000) <= 0) {
                err = ETIMEDOUT;
            } else if (0 != getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen)) {
                err = errno;
            }
        }
    }
    if (0 != err) {
        fprintf(stderr, "fuzz_server: connect: %s\n", strerror(err));
        die("cannot connect to the OpenPMIx listener");
    }
    return fd;
}

/* The handshake's header and body (as OpenPMIx 4.2.2 sends it, its extra byte included). */
static void ox_send_hello(int fd, const void *body, size_t len)
{
    uint8_t hdr[WU_PTL_FOREIGN_HDR_SIZE];
    uint32_t n = (uint32_t)len; /* host order, the only such field */
    memset(hdr, 0xff, 8);
    memcpy(hdr + 8, &n, 4);
    memset(hdr + 12, 0, 4);
    write_all(fd, hdr, sizeof hdr);
    write_all(fd, body, len);
}

static void ox_valid_hello(int fd, uint8_t btype)
{
    uint8_t body[128], *p = body;
    uint32_t ids[2] = {(uint32_t)getuid(), (uint32_t)getgid()};
    uint32_t ncred = htonl(sizeof ids), rank = htonl(FZ_OX_RANK);
#define PUT(src, n) (memcpy(p, (src), (n)), p += (n))
    PUT("native", 7);
    PUT(&ncred, 4);
    PUT(ids, sizeof ids); /* psec native: uid and gid in host order */
    PUT("", 1);           /* process type: a client */
    PUT(FZ_NS, sizeof FZ_NS);
    PUT(&rank, 4);
    PUT("4.2.2", 6);
    PUT("v41", 4);
    PUT(&btype, 1);
    PUT("hash", 5);
    PUT("", 1);
#undef PUT
    ox_send_hello(fd, body, (size_t)(p - body));
}

/* The handshake's answer: 1 and the index when the status is 0; 0 when the server closed. */
static int ox_answer(int fd, uint32_t *index)
{
    uint32_t a[2];
    if (!read_all(fd, a, sizeof a, time(NULL) + REPLY_WAIT)) {
        return 0;
    }
    if (0 != a[0]) {
        die("an OpenPMIx handshake answered with an error status");
    }
    *index = ntohl(a[1]);
    return 1;
}

/* A new connection that has completed a valid OpenPMIx handshake as rank FZ_OX_RANK. The
 * server refuses it by closing while the rank's last connection is not gone yet: retry. */
static int ox_connect(uint8_t btype, uint32_t *index)
{
    for (int i = 0; i < MAX_RETRIES; i++) {
        int fd = ox_open();
        ox_valid_hello(fd, btype);
        if (ox_answer(fd, index)) {
            return fd;
        }
        close(fd);
        usleep(5000);
    }
    die("a valid OpenPMIx handshake was refused");
    return -1;
}

static void ox_frame(int fd, uint32_t index, uint32_t tag, const void *payload, size_t len)
{
    uint8_t hdr[WU_PTL_FOREIGN_HDR_SIZE] = {0};
    uint32_t be = htonl(index);
    memcpy(hdr, &be, 4);
    put_frame(fd, hdr, sizeof hdr, tag, payload, len);
}

/* End an OpenPMIx connection with a FINALIZE: 1 if answered, 0 if the server had closed it. */
static int ox_finish(int fd, uint8_t btype, uint32_t index)
{
    uint8_t cmd = 5; /* PMIX_FINALIZE_CMD */
    pmix_status_t st;
    wu_buffer_t b;
    int answered;
    wu_buffer_construct(&b);
    if (PMIX_SUCCESS != wu_obfr_pack(&b, btype, &cmd, 1, PMIX_COMMAND)) {
        die("cannot pack a FINALIZE");
    }
    ox_frame(fd, index, TAG_FINAL, b.base, b.used);
    wu_buffer_destruct(&b);
    answered = wait_reply_of(fd, WU_PTL_FOREIGN_HDR_SIZE, btype, TAG_FINAL, &st);
    close(fd);
    return answered;
}

/* the first FZ_SEP in [s, end), or NULL */
static const uint8_t *find_sep(const uint8_t *s, const uint8_t *end)
{
    for (; end - s >= 4; s++) {
        if (0 == memcmp(s, FZ_SEP, 4)) {
            return s;
        }
    }
    return NULL;
}

/* Split [s, end) at FZ_SEP into at most MAX_FRAMES frames (the last takes the rest). */
static size_t split(const uint8_t *s, const uint8_t *end, const uint8_t **start, size_t *len)
{
    size_t nf = 0;
    while (nf < MAX_FRAMES) {
        const uint8_t *sep = nf + 1 < MAX_FRAMES ? find_sep(s, end) : NULL;
        start[nf] = s;
        len[nf++] = (size_t)((NULL != sep ? sep : end) - s);
        if (NULL == sep) {
            break;
        }
        s = sep + 4;
    }
    return nf;
}

/* An FZ_OPMIX input (after its first byte). */
static void openpmix(const uint8_t *data, size_t size)
{
    const uint8_t *start[MAX_FRAMES];
    size_t len[MAX_FRAMES], nf, first = 0;
    uint8_t opts = size > 0 ? data[0] : 0;
    uint8_t btype = 0 != (opts & FZ_OX_FDESC) ? WU_OBFR_FULLY_DESC : WU_OBFR_NON_DESC;
    uint32_t index = 0;
    int fd, fd2;

    nf = size > 1 ? split(data + 1, data + size, start, len) : 0;
    if (0 != (opts & FZ_OX_HELLO) && nf > 0) {
        fd = ox_open();
        ox_send_hello(fd, start[0], len[0]);
        first = 1;
        if (!ox_answer(fd, &index)) {
            close(fd); /* refused: the server must still serve both kinds of client */
            fd = -1;
        }
    } else {
        fd = ox_connect(btype, &index);
    }
    for (size_t i = first; fd >= 0 && i < nf; i++) {
        if (len[i] > 0) {
            ox_frame(fd, index, (uint32_t)i + 1, start[i], len[i]);
        }
    }
    if (fd >= 0 && ox_finish(fd, btype, index)) {
        return;
    }
    fd2 = connect_rank0();
    if (!finish(fd2)) {
        die("the server dropped a valid FINALIZE");
    }
    fd2 = ox_connect(btype, &index);
    if (!ox_finish(fd2, btype, index)) {
        die("the server dropped an OpenPMIx client's valid FINALIZE");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *start[MAX_FRAMES], *end = data + size;
    size_t len[MAX_FRAMES], nf;
    int fd;

    if (NULL == ptl) {
        server_start();
    }
    if (0 == size) {
        return 0;
    }
    if (FZ_OPMIX == data[0]) {
        openpmix(data + 1, size - 1);
        return 0;
    }
    if (FZ_RAW == data[0]) {
        raw(data + 1, size - 1);
        fd = connect_rank0(); /* still serving? */
        if (!finish(fd)) {
            die("the server dropped a valid FINALIZE");
        }
        return 0;
    }
    nf = split(data, end, start, len); /* at FZ_SEP; the last frame takes the rest */
    if (WU_CMD_CONNECT == data[0]) {
        fd = sock_open(); /* the first frame is the handshake */
    } else {
        fd = connect_rank0();
    }
    for (size_t i = 0; i < nf; i++) {
        if (len[i] > 0) {
            request(fd, (uint32_t)i + 1, start[i][0], start[i] + 1, len[i] - 1);
        }
    }
    if (!finish(fd)) {
        /* dropped: the server must still take a new client */
        fd = connect_rank0();
        if (!finish(fd)) {
            die("the server dropped a valid FINALIZE");
        }
    }
    return 0;
}
