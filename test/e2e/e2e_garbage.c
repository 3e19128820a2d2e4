/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_garbage.c -- `wrun -n N e2e_garbage`: rank 0 opens raw connections to the server socket
 * named by WU_PMIX_SERVER_URI ("usock:/path") and sends junk (random bytes, a frame header
 * announcing 4 GiB, a valid header with a bogus first command, a truncated frame, a silent
 * connection kept open); then every rank still does Put/Commit/Fence(collect)/Get fine.
 * Exits 77 when the server does not listen on a usock URI. */
#include "e2e_util.h"

#include <arpa/inet.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

static int raw_connect(const char *path)
{
    struct sockaddr_un sa;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    E2E_CHECK(fd >= 0, "socket() failed");
    memset(&sa, 0, sizeof(sa));
    sa.sun_family = AF_UNIX;
    E2E_CHECK(strlen(path) < sizeof(sa.sun_path), "socket path too long: %s", path);
    strcpy(sa.sun_path, path);
    E2E_CHECK(connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0, "connect(%s) failed", path);
    return fd;
}

/* write all of buf, ignoring a peer that already hung up (EPIPE/ECONNRESET) */
static void send_junk(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = send(fd, p, len, MSG_NOSIGNAL);
        if (w <= 0) {
            return;
        }
        p += w;
        len -= (size_t)w;
    }
}

static void header(unsigned char *h, uint32_t tag, uint32_t len)
{
    uint32_t t = htonl(tag), l = htonl(len);
    h[0] = 'W';
    h[1] = 1;
    h[2] = 0;
    h[3] = 0;
    memcpy(h + 4, &t, 4);
    memcpy(h + 8, &l, 4);
}

static int garbage(const char *path)
{
    unsigned char buf[4096];
    int fd, quiet;

    /* 1. random bytes */
    srand((unsigned)getpid());
    for (size_t i = 0; i < sizeof(buf); i++) {
        buf[i] = (unsigned char)rand();
    }
    fd = raw_connect(path);
    send_junk(fd, buf, sizeof(buf));
    close(fd);
    /* 2. a header announcing 4 GiB - 1 */
    fd = raw_connect(path);
    header(buf, 1, 0xffffffffu);
    send_junk(fd, buf, 12);
    memset(buf, 0xab, 64);
    send_junk(fd, buf, 64);
    close(fd);
    /* 3. a valid header whose payload is not a CONNECT (nor valid packed data) */
    fd = raw_connect(path);
    header(buf, 7, 16);
    memset(buf + 12, 0x06, 16);
    send_junk(fd, buf, 28);
    usleep(100 * 1000);
    close(fd);
    /* 4. a wrong magic and version */
    fd = raw_connect(path);
    memcpy(buf, "GET / HTTP/1.0\r\n\r\n", 18);
    send_junk(fd, buf, 18);
    close(fd);
    /* 5. a truncated frame: header for 1000 bytes, 10 sent, then hang up */
    fd = raw_connect(path);
    header(buf, 3, 1000);
    memset(buf + 12, 0, 10);
    send_junk(fd, buf, 22);
    close(fd);
    /* 6. a connection that says nothing and stays open during the exchange */
    quiet = raw_connect(path);
    return quiet;
}

int main(void)
{
    pmix_value_t v, *got;
    pmix_info_t info;
    bool yes = true;
    int quiet = -1;

    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    const char *ns = e2e_me.nspace;
    uint32_t n = e2e_get_u32(ns, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);

    if (e2e_me.rank == 0) {
        const char *uri = getenv("WU_PMIX_SERVER_URI");
        E2E_CHECK(uri != NULL, "WU_PMIX_SERVER_URI not set");
        if (strncmp(uri, "usock:", 6) != 0) {
            printf("server URI '%s' is not usock: skipped\n", uri);
            return 77;
        }
        e2e_step("sending junk to the server socket");
        quiet = garbage(uri + 6);
        e2e_note("sent junk on 5 connections, 1 silent connection open");
    }
    e2e_step("put/commit/fence after the junk");
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_UINT32;
    v.data.uint32 = 700u + e2e_me.rank;
    E2E_RC(PMIx_Put(PMIX_GLOBAL, "e2e.g", &v), "Put");
    E2E_RC(PMIx_Commit(), "Commit");
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    e2e_fence(&info, 1, "PMIx_Fence(collect)");
    PMIX_INFO_DESTRUCT(&info);
    for (pmix_rank_t r = 0; r < n; r++) {
        got = e2e_get_typed(ns, r, "e2e.g", PMIX_UINT32, NULL, 0);
        E2E_CHECK(got->data.uint32 == 700u + r, "e2e.g of %u = %u", r, got->data.uint32);
        e2e_free_value(got);
    }
    e2e_step("second fence");
    e2e_fence(NULL, 0, "PMIx_Fence");
    if (quiet >= 0) {
        close(quiet);
    }
    e2e_step("PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("garbage rank %u of %u: ok\n", e2e_me.rank, n);
    return 0;
}
