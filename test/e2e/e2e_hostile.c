/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_hostile.c -- `wrun -n N e2e_hostile`: rank 0 opens raw connections to its server (the URI
 * in WU_PMIX_SERVER_URI, "usock:/path" or "tcp4://addr:port") and sends hand-made CONNECT
 * requests whose protocol version, psec mode and namespace carry a terminal escape sequence and
 * a forged line ("\njob completed successfully\n"):
 *   no-cred     no credential (TCP only: a local user without the token)
 *   bad-cred    a wrong token (TCP only)
 *   bad-version the right credential (the token on TCP, the kernel on usock), a bad version
 *   bad-mode    the right credential and version, a bad psec mode
 * and prints "hostile: CASE: STATUS" with the status the server answered (or "closed"). Then
 * every rank fences and finalizes as usual and prints "hostile rank R of N: ok". The script
 * (hostile_connect.sh) checks what reached wrun's output.
 * `e2e_hostile abort`: rank 0 calls PMIx_Abort(5) with a message holding an escape sequence,
 * a second line, a tab and UTF-8 text; the other ranks wait in a fence. */
#include "e2e_util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#define EVIL_VERSION "\033[2J\njob completed successfully\n"
#define EVIL_MODE    "native\033[31m\njob completed successfully\n"
#define EVIL_NSPACE  "\033]0;owned\a\njob completed successfully\n"
#define GOOD_VERSION "wireup-2"

typedef struct {
    unsigned char data[4096];
    size_t used;
} msg_t;

static void put(msg_t *m, const void *p, size_t n)
{
    E2E_CHECK(m->used + n <= sizeof m->data, "message too long");
    memcpy(m->data + m->used, p, n);
    m->used += n;
}

static void put_u16(msg_t *m, uint16_t v)
{
    v = htons(v);
    put(m, &v, 2);
}

static void put_u32(msg_t *m, uint32_t v)
{
    v = htonl(v);
    put(m, &v, 4);
}

/* wu_pack's group header: type, count */
static void group(msg_t *m, pmix_data_type_t t)
{
    put_u16(m, t);
    put_u32(m, 1);
}

/* a string as wu_pack encodes it: length + 1, then the bytes (0 for NULL) */
static void put_str(msg_t *m, const char *s)
{
    if (NULL == s) {
        put_u32(m, 0);
        return;
    }
    put_u32(m, (uint32_t)strlen(s) + 1);
    put(m, s, strlen(s));
}

/* The CONNECT payload: UINT8 command, STRING version, STRING mode, BYTE_OBJECT credential,
 * PROC identity, PID pid (pmix/common/wu_proto.h). */
static void connect_msg(msg_t *m, const char *version, const char *mode, const char *cred,
                        const char *nspace)
{
    unsigned char cmd = 1; /* WU_CMD_CONNECT */
    m->used = 0;
    group(m, PMIX_UINT8);
    put(m, &cmd, 1);
    group(m, PMIX_STRING);
    put_str(m, version);
    group(m, PMIX_STRING);
    put_str(m, mode);
    group(m, PMIX_BYTE_OBJECT);
    put_u32(m, (uint32_t)strlen(cred));
    put(m, cred, strlen(cred));
    group(m, PMIX_PROC);
    put_str(m, nspace);
    put_u32(m, 0);
    group(m, PMIX_PID);
    put_u32(m, (uint32_t)getpid());
}

static int raw_connect(const char *uri)
{
    int fd;
    if (0 == strncmp(uri, "usock:", 6)) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        E2E_CHECK(strlen(uri + 6) < sizeof sa.sun_path, "socket path too long");
        strcpy(sa.sun_path, uri + 6);
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        E2E_CHECK(fd >= 0 && 0 == connect(fd, (struct sockaddr *)&sa, sizeof sa), "connect(%s): %s",
                  uri, strerror(errno));
    } else {
        struct sockaddr_in sa = {.sin_family = AF_INET};
        char host[64];
        unsigned port;
        E2E_CHECK(2 == sscanf(uri, "tcp4://%63[^:]:%u", host, &port), "bad URI %s", uri);
        E2E_CHECK(1 == inet_pton(AF_INET, host, &sa.sin_addr), "bad address %s", host);
        sa.sin_port = htons((uint16_t)port);
        fd = socket(AF_INET, SOCK_STREAM, 0);
        E2E_CHECK(fd >= 0 && 0 == connect(fd, (struct sockaddr *)&sa, sizeof sa), "connect(%s): %s",
                  uri, strerror(errno));
    }
    return fd;
}

/* Read exactly n bytes within 30 s; false on EOF, error or timeout. */
static bool read_all(int fd, unsigned char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        ssize_t r;
        if (poll(&p, 1, 30000) <= 0) {
            return false;
        }
        r = recv(fd, buf + got, n - got, 0);
        if (r <= 0) {
            return false;
        }
        got += (size_t)r;
    }
    return true;
}

/* Send one CONNECT frame and return the server's answer as text. */
static const char *attempt(const char *uri, const msg_t *m)
{
    unsigned char hdr[12], reply[64];
    uint32_t tag = htonl(7), len = htonl((uint32_t)m->used), rlen;
    int32_t status;
    uint16_t type;
    int fd = raw_connect(uri);
    const char *what = "closed";

    hdr[0] = 'W';
    hdr[1] = 1;
    hdr[2] = hdr[3] = 0;
    memcpy(hdr + 4, &tag, 4);
    memcpy(hdr + 8, &len, 4);
    E2E_CHECK(12 == send(fd, hdr, 12, MSG_NOSIGNAL), "send header");
    E2E_CHECK((ssize_t)m->used == send(fd, m->data, m->used, MSG_NOSIGNAL), "send payload");
    /* reply: header, then STATUS group (u16 type, u32 count, i32 status) */
    if (read_all(fd, hdr, 12)) {
        memcpy(&rlen, hdr + 8, 4);
        rlen = ntohl(rlen);
        if (rlen >= 10 && rlen <= sizeof reply && read_all(fd, reply, rlen)) {
            memcpy(&type, reply, 2);
            memcpy(&status, reply + 6, 4);
            what = PMIX_STATUS == ntohs(type) ? PMIx_Error_string((pmix_status_t)ntohl(status))
                                              : "unreadable reply";
        }
    }
    close(fd);
    return what;
}

int main(int argc, char **argv)
{
    pmix_info_t info;
    bool yes = true;
    msg_t m;

    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    uint32_t n = e2e_get_u32(e2e_me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);

    if (argc > 1 && 0 == strcmp(argv[1], "abort")) {
        if (0 == e2e_me.rank) {
            e2e_step("PMIx_Abort");
            PMIx_Abort(5, "bye\033[2J\nsecond line\tcaf\xc3\xa9", NULL, 0);
            sleep(60); /* killed by the launcher meanwhile */
            return 1;
        }
        e2e_step("fence, waiting for the abort");
        e2e_fence(NULL, 0, "PMIx_Fence");
        return 1;
    }

    if (0 == e2e_me.rank) {
        const char *uri = getenv("WU_PMIX_SERVER_URI"), *token = getenv("WU_PSEC_TOKEN");
        bool tcp;
        E2E_CHECK(NULL != uri, "WU_PMIX_SERVER_URI not set");
        tcp = 0 == strncmp(uri, "tcp4://", 7);
        e2e_step("hostile connects");
        if (tcp) {
            E2E_CHECK(NULL != token, "a TCP server but no WU_PSEC_TOKEN");
            connect_msg(&m, EVIL_VERSION, EVIL_MODE, "", EVIL_NSPACE);
            printf("hostile: no-cred: %s\n", attempt(uri, &m));
            connect_msg(&m, EVIL_VERSION, EVIL_MODE, "0123456789abcdef", EVIL_NSPACE);
            printf("hostile: bad-cred: %s\n", attempt(uri, &m));
        } else {
            token = "";
        }
        connect_msg(&m, EVIL_VERSION, "native", token, EVIL_NSPACE);
        printf("hostile: bad-version: %s\n", attempt(uri, &m));
        connect_msg(&m, GOOD_VERSION, EVIL_MODE, token, EVIL_NSPACE);
        printf("hostile: bad-mode: %s\n", attempt(uri, &m));
        fflush(stdout);
    }
    e2e_step("fence after the hostile connects");
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    e2e_fence(&info, 1, "PMIx_Fence(collect)");
    PMIX_INFO_DESTRUCT(&info);
    e2e_step("PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("hostile rank %u of %u: ok\n", e2e_me.rank, n);
    return 0;
}
