/* SPDX-License-Identifier: BSD-3-Clause */
/* wired.c -- the per-node daemon of multi-node jobs. wrun starts it on every other node of a
 * job through ssh: `wired --node K --port P --addrs A,B`, the job's secret token on its
 * standard input (or, from a launch system whose tasks have none, in WU_DAEMON_SECRET). It connects back to wrun, hosts the PMIx server of its node's processes,
 * starts them and reports their output and ends (pmix/rte/wu_rte_daemon.c). It is not meant to
 * be run by hand. */
#include "mca/pls/pls.h"
#include "opal/util/wu_error.h"
#include "pmix/rte/wu_rte.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Seconds to wait for the token on standard input. */
#define TOKEN_WAIT_MS 30000

static void usage(FILE *f)
{
    fprintf(f, "Usage: wired --node K --port P [--addrs A,B,...] [--radix R --spawn K:HOST,...]\n"
               "             [--prefix DIR]\n"
               "The per-node daemon of Wireup's multi-node jobs. wrun starts it on each node\n"
               "through ssh and hands it the job's token on its standard input; see wired(1).\n");
}

/* One line (the token) from stdin, waiting at most TOKEN_WAIT_MS. */
static int read_token(char *buf, size_t len)
{
    size_t n = 0;
    while (n + 1 < len) {
        struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
        ssize_t r;
        int pr = poll(&p, 1, TOKEN_WAIT_MS);
        if (pr < 0 && EINTR == errno) {
            continue;
        }
        if (pr <= 0) {
            return -1;
        }
        r = read(STDIN_FILENO, buf + n, 1);
        if (r < 0 && EINTR == errno) {
            continue;
        }
        if (r <= 0) {
            break;
        }
        if ('\n' == buf[n]) {
            break;
        }
        n++;
    }
    buf[n] = '\0';
    return n > 0 ? 0 : -1;
}

static unsigned long number(const char *s, unsigned long max, bool *ok)
{
    char *end;
    unsigned long v;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (0 != errno || end == s || '\0' != *end || v > max) {
        *ok = false;
    }
    return v;
}

static void on_term(int sig)
{
    (void)sig; /* the rte decides: wu_rte_interrupt is not for daemons; the head tells us */
}

int main(int argc, char *argv[])
{
    unsigned long node = 0, port = 0, radix = 0;
    const char *addrs = NULL, *spawn = NULL, *prefix = NULL;
    bool ok = true, have_node = false, have_port = false;
    char token[128];
    int status;

    wu_rte_watchdog_dispatch(argc, argv); /* returns unless this is wired's watchdog */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (0 == strcmp(a, "-h") || 0 == strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        }
        if (i + 1 >= argc) {
            ok = false;
            break;
        }
        if (0 == strcmp(a, "--node")) {
            node = number(argv[++i], UINT32_MAX - 1, &ok);
            have_node = true;
        } else if (0 == strcmp(a, "--port")) {
            port = number(argv[++i], 65535, &ok);
            have_port = true;
        } else if (0 == strcmp(a, "--addrs")) {
            addrs = argv[++i];
        } else if (0 == strcmp(a, "--radix")) {
            radix = number(argv[++i], 1000000, &ok);
        } else if (0 == strcmp(a, "--spawn")) {
            spawn = argv[++i];
        } else if (0 == strcmp(a, "--prefix")) {
            prefix = argv[++i];
        } else {
            ok = false;
        }
    }
    if (!ok || !have_node || !have_port || 0 == port) {
        usage(stderr);
        return 1;
    }
    if (NULL != getenv(WU_PLS_SECRET_ENV)) {
        /* a launch system that starts its tasks without a standard input handed it so; no
         * process of ours sees it after this */
        ok = strlen(getenv(WU_PLS_SECRET_ENV)) < sizeof token;
        snprintf(token, sizeof token, "%s", getenv(WU_PLS_SECRET_ENV));
        unsetenv(WU_PLS_SECRET_ENV);
        if (!ok || '\0' == token[0]) {
            fprintf(stderr, "wired: the token in %s is empty or too long\n", WU_PLS_SECRET_ENV);
            return 1;
        }
    } else if (0 != read_token(token, sizeof token)) {
        fprintf(stderr, "wired: no token on standard input (wired is started by wrun)\n");
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    /* ssh's hang-up when wrun goes away: the closed connection says it, and we clean up */
    signal(SIGHUP, on_term);
    if (WU_SUCCESS != wu_rte_init("wired")) {
        return 1;
    }
    status = wu_rte_daemon_main(&(wu_rte_daemon_args_t){.node = (uint32_t)node,
                                                        .port = (unsigned)port,
                                                        .addrs = addrs,
                                                        .token = token,
                                                        .radix = (uint32_t)radix,
                                                        .spawn = spawn,
                                                        .prefix = prefix});
    wu_rte_finalize();
    return status;
}
