/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_spawn.c -- starting wired daemons on other nodes, shared by wrun (which starts the
 * first level of the launch tree) and wired (which starts the daemons of its subtree): the
 * tree's shape, its spec on wired's command line, wired's command line itself, what a daemon
 * takes from our environment, and the agents' output.
 *
 * The launch tree: the daemons one parent must see started, in order, are cut into at most
 * routed_radix chunks as even as possible; the first daemon of each chunk is started by the
 * parent (ssh from its node) and starts the rest of its chunk the same way. Radix 0 (or a radix
 * of at least the count) is a flat launch: the parent starts every one. Whoever starts a daemon
 * gives it its own port and addresses: a daemon connects to its parent in the tree (wrun for
 * the first level), which relays its messages (wu_rte_relay.c). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "opal/util/wu_argv.h"
#include "opal/util/wu_escape.h"
#include "mca/ptl/ptl.h"
#include "pmix.h"
#include "pmix/rte/dist/wu_rte_dist.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

uint32_t wu_rte_tree_chunks(uint32_t n, uint32_t radix, uint32_t *starts, uint32_t *lens)
{
    uint32_t k = 0 == radix || radix >= n ? n : radix, at = 0;
    for (uint32_t i = 0; i < k; i++) {
        lens[i] = n / k + (i < n % k ? 1 : 0);
        starts[i] = at;
        at += lens[i];
    }
    return k;
}

char *wu_rte_tree_spec(const uint32_t *nodes, char *const *hosts, uint32_t n)
{
    char *s = strdup(""), *t;
    for (uint32_t i = 0; i < n && NULL != s; i++) {
        t = NULL;
        if (WU_SUCCESS != wu_asprintf(&t, "%s%s%u:%s", s, 0 == i ? "" : ",", nodes[i], hosts[i])) {
            t = NULL;
        }
        free(s);
        s = t;
    }
    return s;
}

int wu_rte_tree_parse(const char *spec, uint32_t **nodes, char ***hosts, uint32_t *n)
{
    char **items = wu_argv_split(spec, ',');
    uint32_t count = (uint32_t)wu_argv_count(items);
    int rc = NULL == items ? WU_ERR_BAD_PARAM : WU_SUCCESS;
    *nodes = NULL;
    *hosts = NULL;
    *n = 0;
    if (WU_SUCCESS == rc && NULL == (*nodes = calloc(count, sizeof **nodes))) {
        rc = WU_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < count && WU_SUCCESS == rc; i++) {
        char *colon = strchr(items[i], ':'), *end;
        unsigned long v;
        if (NULL == colon || colon == items[i] ||
            WU_SUCCESS != wu_rte_host_name_check(colon + 1, NULL)) {
            rc = WU_ERR_BAD_PARAM;
            break;
        }
        *colon = '\0';
        v = strtoul(items[i], &end, 10);
        if ('\0' != *end || v >= UINT32_MAX) {
            rc = WU_ERR_BAD_PARAM;
            break;
        }
        (*nodes)[i] = (uint32_t)v;
        rc = wu_argv_append(hosts, colon + 1);
    }
    wu_argv_free(items);
    if (WU_SUCCESS != rc) {
        free(*nodes);
        wu_argv_free(*hosts);
        *nodes = NULL;
        *hosts = NULL;
        return rc;
    }
    *n = count;
    return WU_SUCCESS;
}

/* Variables a daemon takes from its starter's environment (ssh passes none): our parameters and
 * the sanitizers' settings, so that wired behaves as wrun was asked to. */
static bool forwarded_var(const char *kv)
{
    static const char *const prefixes[] = {
        "PMIX_MCA_", "WU_", "ASAN_OPTIONS=", "UBSAN_OPTIONS=", "LSAN_OPTIONS=", "TMPDIR=", NULL};
    for (const char *const *p = prefixes; NULL != *p; p++) {
        if (0 == strncmp(kv, *p, strlen(*p))) {
            return true;
        }
    }
    /* a sanitizer runtime preloaded into every program (the test suite's sanitizer runs) */
    return 0 == strncmp(kv, "LD_PRELOAD=", 11) && NULL != strstr(kv, "libasan");
}

/* Variables wired uses from the moment it starts, before wrun can send it anything: its
 * parameters (registered at start, those that reach wrun among them), the sanitizers'
 * settings and runtime, and where its session directory goes. */
static bool needed_at_start(const char *kv)
{
    return 0 != strncmp(kv, "WU_", 3);
}

/* kv's length on the agent's command line, quoted for the remote shell (a quote: 4 bytes) */
static size_t quoted_len(const char *kv)
{
    size_t n = 3;
    for (const char *c = kv; '\0' != *c; c++) {
        n += '\'' == *c ? 4 : 1;
    }
    return n;
}

int wu_rte_spawn_env(char ***cmdline, char ***later, char **toobig)
{
    size_t total = 0;
    int rc = WU_SUCCESS;
    *cmdline = NULL;
    *later = NULL;
    *toobig = NULL;
    /* first those needed at start: all on the command line, or none fits */
    for (char **e = environ; NULL != e && NULL != *e && WU_SUCCESS == rc; e++) {
        size_t len = quoted_len(*e);
        if (!forwarded_var(*e) || !needed_at_start(*e)) {
            continue;
        }
        if (len > WU_RTE_ENV_ARG_MAX_START || total + len > WU_RTE_ENV_CMD_MAX) {
            const char *eq = strchr(*e, '=');
            *toobig = strndup(*e, NULL != eq ? (size_t)(eq - *e) : strlen(*e));
            rc = NULL != *toobig ? WU_ERR_BAD_PARAM : WU_ERR_NOMEM;
            break;
        }
        total += len;
        rc = wu_argv_append(cmdline, *e);
    }
    /* then the others: on the command line while they fit, else in LAUNCH */
    for (char **e = environ; NULL != e && NULL != *e && WU_SUCCESS == rc; e++) {
        size_t len = quoted_len(*e);
        if (!forwarded_var(*e) || needed_at_start(*e)) {
            continue;
        }
        if (len <= WU_RTE_ENV_ARG_MAX && total + len <= WU_RTE_ENV_CMD_MAX) {
            total += len;
            rc = wu_argv_append(cmdline, *e);
        } else {
            rc = wu_argv_append(later, *e);
        }
    }
    if (WU_SUCCESS != rc) {
        wu_argv_free(*cmdline);
        wu_argv_free(*later);
        *cmdline = NULL;
        *later = NULL;
    }
    return rc;
}

char *wu_rte_wired_path(const char *prefix)
{
    char exe[4096], *slash, *path = NULL;
    ssize_t n;
    if (NULL != prefix) {
        (void)wu_asprintf(&path, "%s/bin/wired", prefix);
        return path;
    }
    /* next to the running program (wrun or wired; in a build tree, past libtool's .libs) */
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        if (NULL != (slash = strrchr(exe, '/'))) {
            *slash = '\0';
        }
        if (NULL != (slash = strrchr(exe, '/')) && 0 == strcmp(slash, "/.libs")) {
            *slash = '\0';
        }
        if (WU_SUCCESS == wu_asprintf(&path, "%s/wired", exe) && 0 == access(path, X_OK)) {
            return path;
        }
        free(path);
        path = NULL;
    }
    (void)wu_asprintf(&path, "%s/wired", WU_BINDIR);
    return path;
}

int wu_rte_spawn_proc(wu_pls_proc_t *p, const char *wired, uint32_t node, const char *host,
                      unsigned port, const char *addrs, uint32_t radix, const char *subtree,
                      const char *prefix)
{
    char snode[16], sport[16], sradix[16];
    int rc;
    snprintf(snode, sizeof snode, "%u", node);
    snprintf(sport, sizeof sport, "%u", port);
    snprintf(sradix, sizeof sradix, "%u", radix);
    p->argv = wu_argv_copy((char *const[]){(char *)wired, "--node", snode, "--port", sport,
                                           "--addrs", (char *)addrs, NULL});
    p->host = strdup(host);
    rc = NULL != p->argv && NULL != p->host ? WU_SUCCESS : WU_ERR_NOMEM;
    if (WU_SUCCESS == rc && NULL != subtree && '\0' != *subtree) {
        rc = wu_argv_append(&p->argv, "--radix");
        rc = WU_SUCCESS == rc ? wu_argv_append(&p->argv, sradix) : rc;
        rc = WU_SUCCESS == rc ? wu_argv_append(&p->argv, "--spawn") : rc;
        rc = WU_SUCCESS == rc ? wu_argv_append(&p->argv, subtree) : rc;
        if (NULL != prefix) { /* for the daemons it starts */
            rc = WU_SUCCESS == rc ? wu_argv_append(&p->argv, "--prefix") : rc;
            rc = WU_SUCCESS == rc ? wu_argv_append(&p->argv, prefix) : rc;
        }
    }
    if (WU_SUCCESS == rc) {
        /* the variables too large for the command line reach the daemon in LAUNCH */
        char **later = NULL, *toobig = NULL;
        rc = wu_rte_spawn_env(&p->remote_env, &later, &toobig);
        wu_argv_free(later);
        free(toobig);
    }
    /* the agent runs without a preloaded sanitizer runtime (wired gets it in remote_env) */
    if (WU_SUCCESS == rc && NULL != getenv("LD_PRELOAD")) {
        char **env = wu_argv_copy(environ);
        rc = NULL != env ? wu_unsetenv("LD_PRELOAD", &env) : WU_ERR_NOMEM;
        p->env = env;
    }
    return rc;
}

void wu_rte_agent_lines(const char *name, const char *data, size_t len)
{
    while (len > 0) {
        const char *nl = memchr(data, '\n', len);
        size_t k = NULL != nl ? (size_t)(nl - data) + 1 : len;
        /* the line without its newline (nor the carriage returns of ssh's CRLF), terminal
         * controls escaped */
        size_t linelen = NULL != nl ? k - 1 : k;
        char *raw, *line = NULL, *safe;
        while (linelen > 0 && '\r' == data[linelen - 1]) {
            linelen--;
        }
        raw = strndup(data, linelen);
        safe = NULL != raw ? wu_str_escape_dup(raw, linelen, WU_ESC_KEEP_UTF8) : NULL;
        if (NULL != safe && WU_SUCCESS == wu_asprintf(&line, "[%s] %s\n", name, safe)) {
            wu_rte_write_text(STDERR_FILENO, line, strlen(line));
        }
        free(line);
        free(safe);
        free(raw);
        data += k;
        len -= k;
    }
}

int wu_rte_tree_make(wu_rte_tree_t *t, const uint32_t *nodes, char *const *hosts, uint32_t n,
                     const wu_rte_tree_args_t *a)
{
    int rc = WU_SUCCESS;
    memset(t, 0, sizeof *t);
    t->n = n;
    if (0 == n) {
        return WU_SUCCESS;
    }
    if (NULL == (t->nodes = calloc(n, sizeof *t->nodes)) ||
        NULL == (t->starts = calloc(n, sizeof *t->starts)) ||
        NULL == (t->lens = calloc(n, sizeof *t->lens))) {
        rc = WU_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < n && WU_SUCCESS == rc; i++) {
        t->nodes[i] = nodes[i];
        rc = wu_argv_append(&t->hosts, hosts[i]);
    }
    t->nchunks = WU_SUCCESS == rc ? wu_rte_tree_chunks(n, a->radix, t->starts, t->lens) : 0;
    if (WU_SUCCESS == rc &&
        (NULL == (t->agents =
                      wu_pls_job_new("wired", t->nchunks, (char *const[]){(char *)a->wired, NULL},
                                     wu_rte_progress())) ||
         (NULL != a->prefix && NULL == (t->agents->prefix = strdup(a->prefix))) ||
         NULL == (t->agents->secret = strdup(a->secret)))) { /* pls hands it to them */
        rc = WU_ERR_NOMEM;
    }
    for (uint32_t c = 0; c < t->nchunks && WU_SUCCESS == rc; c++) {
        uint32_t first = t->starts[c];
        char *sub = wu_rte_tree_spec(t->nodes + first + 1, t->hosts + first + 1, t->lens[c] - 1);
        rc = NULL == sub
                 ? WU_ERR_NOMEM
                 : wu_rte_spawn_proc(&t->agents->procs[c], a->wired, t->nodes[first],
                                     t->hosts[first], a->port, a->addrs, a->radix, sub, a->prefix);
        free(sub);
    }
    if (WU_SUCCESS != rc) {
        wu_rte_tree_free(t);
    }
    return rc;
}

uint32_t wu_rte_tree_index(const wu_rte_tree_t *t, uint32_t node)
{
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->nodes[i] == node) {
            return i;
        }
    }
    return UINT32_MAX;
}

uint32_t wu_rte_tree_chunk_of(const wu_rte_tree_t *t, uint32_t node)
{
    uint32_t i = wu_rte_tree_index(t, node);
    for (uint32_t c = 0; UINT32_MAX != i && c < t->nchunks; c++) {
        if (i >= t->starts[c] && i < t->starts[c] + t->lens[c]) {
            return c;
        }
    }
    return UINT32_MAX;
}

uint32_t wu_rte_tree_first(const wu_rte_tree_t *t, uint32_t c)
{
    return t->nodes[t->starts[c]];
}

void wu_rte_tree_free(wu_rte_tree_t *t)
{
    if (NULL != t->agents) {
        wu_pls_job_free(t->agents);
    }
    free(t->nodes);
    wu_argv_free(t->hosts);
    free(t->starts);
    free(t->lens);
    memset(t, 0, sizeof *t);
}

/* This node's IPv4 addresses but loopback, comma-separated (where daemons may call back; they
 * try the address their ssh connection came from first). */
char *wu_rte_node_addrs(void)
{
    struct ifaddrs *ifs = NULL;
    char **list = NULL, *joined;
    if (0 == getifaddrs(&ifs)) {
        for (struct ifaddrs *i = ifs; NULL != i; i = i->ifa_next) {
            char buf[INET_ADDRSTRLEN];
            if (NULL == i->ifa_addr || AF_INET != i->ifa_addr->sa_family) {
                continue;
            }
            inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, buf, sizeof buf);
            if (0 != strncmp(buf, "127.", 4)) {
                (void)wu_argv_append(&list, buf);
            }
        }
        freeifaddrs(ifs);
    }
    joined = NULL != list ? wu_argv_join(list, ',') : strdup("-");
    wu_argv_free(list);
    return joined;
}

int wu_rte_listen_tcp(wu_progress_t *pt, const wu_ptl_listener_cbs_t *cbs, void *cbdata,
                      wu_ptl_listener_t **out, unsigned *port)
{
    pmix_info_t where;
    const char *uri, *colon;
    int rc;
    PMIx_Info_load(&where, WU_PTL_TCP_ADDR, "0.0.0.0", PMIX_STRING);
    rc = wu_ptl_listen_with(pt, "tcp", &where, 1, cbs, cbdata, out);
    PMIX_INFO_DESTRUCT(&where);
    if (WU_SUCCESS != rc) {
        *out = NULL;
        return rc;
    }
    uri = wu_ptl_listener_uri(*out);
    colon = NULL != uri ? strrchr(uri, ':') : NULL;
    *port = NULL != colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
    if (0 == *port) {
        wu_ptl_listener_close(*out);
        *out = NULL;
        return WU_ERR_NOT_FOUND;
    }
    return WU_SUCCESS;
}
