/* SPDX-License-Identifier: BSD-3-Clause */
/* ptl_tcp.c -- ptl component: TCP over IPv4, on the loopback address and an ephemeral port by
 * default, named "tcp4://<address>:<port>". For tools and, later, remote peers. A server listens
 * on it when it asks for remote connections (PMIX_SERVER_REMOTE_CONNECTIONS), when the user's ptl
 * selection names tcp, or when no better module listens -- never with PMIX_TCP_DISABLE_IPV4 --
 * and on the port PMIX_TCP_IPV4_PORT gives, if any. */
#include "mca/ptl/ptl.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define TCP_PREFIX "tcp4://"

static char *listen_addr = "127.0.0.1";
/* A full TCP accept queue drops new connection requests (the peer tries again after 1 s, then
 * 3 s...): deep enough that a flood of pending connections leaves room for the job's own */
static int backlog = 4096;

static void nodelay(int s)
{
    int one = 1;
    (void)setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static int tcp_listen(const wu_ptl_listen_req_t *req, int *fd, char **uri, void **state)
{
    struct sockaddr_in sa = {.sin_family = AF_INET};
    socklen_t slen = sizeof sa;
    char host[INET_ADDRSTRLEN];
    int s, one = 1;
    const pmix_info_t *where = wu_ptl_req_info(req, WU_PTL_TCP_ADDR);
    const char *addr =
        NULL != where && PMIX_STRING == where->value.type && NULL != where->value.data.string
            ? where->value.data.string
            : (NULL != listen_addr ? listen_addr : "127.0.0.1");
    const pmix_info_t *remote = wu_ptl_req_info(req, PMIX_SERVER_REMOTE_CONNECTIONS);
    const pmix_info_t *off = wu_ptl_req_info(req, PMIX_TCP_DISABLE_IPV4);
    const pmix_info_t *port = wu_ptl_req_info(req, PMIX_TCP_IPV4_PORT);

    if ((NULL != off && PMIX_INFO_TRUE(off)) ||
        (!req->named && !req->alone && !(NULL != remote && PMIX_INFO_TRUE(remote)))) {
        return WU_ERR_TAKE_NEXT;
    }
    if (NULL != port && PMIX_INT == port->value.type) {
        if (port->value.data.integer < 0 || port->value.data.integer > 65535) {
            wu_show_help("help-ptl-tcp.txt", "bad-port", true, port->value.data.integer);
            return WU_ERR_BAD_PARAM;
        }
        sa.sin_port = htons((uint16_t)port->value.data.integer);
    }
    if (1 != inet_pton(AF_INET, addr, &sa.sin_addr)) {
        wu_show_help("help-ptl-tcp.txt", "bad-address", true, addr);
        return WU_ERR_BAD_PARAM;
    }
    s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s < 0 || 0 != setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
        0 != bind(s, (struct sockaddr *)&sa, sizeof sa) || 0 != listen(s, backlog) ||
        0 != getsockname(s, (struct sockaddr *)&sa, &slen)) {
        wu_show_help("help-ptl-tcp.txt", "listen-failed", true, addr, strerror(errno));
        if (s >= 0) {
            close(s);
        }
        return WU_ERR_SYS;
    }
    nodelay(s); /* accepted connections inherit it: answers go out without Nagle's wait */
    inet_ntop(AF_INET, &sa.sin_addr, host, sizeof host);
    if (WU_SUCCESS != wu_asprintf(uri, TCP_PREFIX "%s:%u", host, (unsigned)ntohs(sa.sin_port))) {
        close(s);
        return WU_ERR_NOMEM;
    }
    *fd = s;
    *state = NULL;
    return WU_SUCCESS;
}

static void tcp_unlisten(void *state)
{
    (void)state;
}

/* "tcp4://a.b.c.d:port" -> sa. */
static int parse_uri(const char *uri, struct sockaddr_in *sa)
{
    char host[INET_ADDRSTRLEN];
    const char *h, *colon;
    char *end;
    unsigned long port;
    if (0 != strncmp(uri, TCP_PREFIX, strlen(TCP_PREFIX))) {
        return WU_ERR_BAD_PARAM;
    }
    h = uri + strlen(TCP_PREFIX);
    if (NULL == (colon = strrchr(h, ':')) || (size_t)(colon - h) >= sizeof host) {
        return WU_ERR_BAD_PARAM;
    }
    memcpy(host, h, (size_t)(colon - h));
    host[colon - h] = '\0';
    errno = 0;
    port = strtoul(colon + 1, &end, 10);
    if ('\0' == colon[1] || '\0' != *end || 0 != errno || 0 == port || port > 65535) {
        return WU_ERR_BAD_PARAM;
    }
    memset(sa, 0, sizeof *sa);
    sa->sin_family = AF_INET;
    sa->sin_port = htons((uint16_t)port);
    return 1 == inet_pton(AF_INET, host, &sa->sin_addr) ? WU_SUCCESS : WU_ERR_BAD_PARAM;
}

static int tcp_connect(const char *uri, int *fd)
{
    struct sockaddr_in sa;
    int s, rc;
    if (WU_SUCCESS != parse_uri(uri, &sa)) {
        return WU_ERR_BAD_PARAM;
    }
    if ((s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
        return WU_ERR_SYS;
    }
    do {
        rc = connect(s, (struct sockaddr *)&sa, sizeof sa);
    } while (0 != rc && EINTR == errno);
    if (0 != rc) {
        rc = ECONNREFUSED == errno ? WU_ERR_NOT_FOUND : WU_ERR_SYS;
        close(s);
        return rc;
    }
    nodelay(s);
    *fd = s;
    return WU_SUCCESS;
}

static const wu_ptl_module_t tcp_module = {
    .scheme = "tcp4",
    .anonymous = true,
    .listen = tcp_listen,
    .unlisten = tcp_unlisten,
    .connect = tcp_connect,
};

static const wu_mca_param_t tcp_params[] = {
    WU_PARAM_STRING("listen_addr", &listen_addr, WU_INFO_LVL_4,
                    "IPv4 address a server listens on (default: the loopback address)"),
    WU_PARAM_INT_RANGE("backlog", &backlog, 1, 65535, WU_INFO_LVL_6,
                       "Length of the queue of connections waiting to be accepted (the kernel "
                       "caps it at net.core.somaxconn); when it is full, a new connection's "
                       "request is dropped and its peer tries again only after 1 s"),
    WU_PARAM_END};

WU_MCA_COMPONENT(ptl, tcp, .priority = 10, .params = tcp_params,
                 .description = "TCP over IPv4 (loopback by default)", .module = &tcp_module);
