/* SPDX-License-Identifier: BSD-3-Clause */
/* pnet_tcp.c -- pnet component "tcp". At the head it tells a job which IP interfaces the launch
 * node offers, reserves the job a port range out of a configured pool, and makes a random key
 * for the job; on each node it checks what it is handed back and passes it to the local
 * processes in their environment (docs/pnet.md). Port ranges stay reserved until the job is
 * forgotten (deregistered), so two running jobs never share one. */
#include "mca/pnet/pnet.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>

#define HELP      "help-pnet-tcp.txt"
#define KEY_BYTES 16

static bool include_loopback = false;
static char *ports = "";
static unsigned ports_per_job = 16;

/* One job: what the head made for it, and what this node was handed for its processes. */
typedef struct job {
    struct job *next;
    char nspace[PMIX_MAX_NSLEN + 1];
    char key[2 * KEY_BYTES + 1]; /* "" until setup_app */
    unsigned lo, hi;             /* reserved ports; 0 when none */
    char **vars;                 /* "NAME=value" for fork_env; NULL until setup_local */
} job_t;

/* setup_app and setup_local run in the server's thread, fork_env in the host's */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static job_t *jobs = NULL;
static int out = -1;

static job_t *find_job(const char *nspace, bool add)
{
    job_t *j;
    for (j = jobs; NULL != j; j = j->next) {
        if (0 == strncmp(j->nspace, nspace, PMIX_MAX_NSLEN)) {
            return j;
        }
    }
    if (add && NULL != (j = calloc(1, sizeof *j))) {
        snprintf(j->nspace, sizeof j->nspace, "%s", nspace);
        j->next = jobs;
        jobs = j;
    }
    return j;
}

/* ---- what the head contributes ------------------------------------------------------------ */

static int prefix_of(const struct sockaddr *mask, int family)
{
    const unsigned char *b;
    size_t len;
    int bits = 0;
    if (NULL == mask) {
        return AF_INET == family ? 32 : 128;
    }
    if (AF_INET == family) {
        b = (const unsigned char *)&((const struct sockaddr_in *)(const void *)mask)->sin_addr;
        len = 4;
    } else {
        b = (const unsigned char *)&((const struct sockaddr_in6 *)(const void *)mask)->sin6_addr;
        len = 16;
    }
    for (size_t i = 0; i < len; i++) {
        for (unsigned char m = 0x80; 0 != m && 0 != (b[i] & m); m >>= 1) {
            bits++;
        }
    }
    return bits;
}

/* The usable interfaces as "name=addr/prefix,..." (malloc'd; "" when there is none). */
static int list_ifaces(bool with_loopback, char **list)
{
    struct ifaddrs *all;
    char **items = NULL;
    int rc = WU_SUCCESS;

    if (0 != getifaddrs(&all)) {
        wu_show_help(HELP, "no-ifaces", true, strerror(errno));
        return WU_ERR_SYS;
    }
    for (const struct ifaddrs *i = all; NULL != i && WU_SUCCESS == rc; i = i->ifa_next) {
        char addr[INET6_ADDRSTRLEN], item[IF_NAMESIZE + INET6_ADDRSTRLEN + 8];
        int fam = NULL != i->ifa_addr ? i->ifa_addr->sa_family : AF_UNSPEC;
        const void *a;
        if ((AF_INET != fam && AF_INET6 != fam) || 0 == (i->ifa_flags & IFF_UP) ||
            (0 != (i->ifa_flags & IFF_LOOPBACK) && !with_loopback) ||
            '\0' != i->ifa_name[strcspn(i->ifa_name, ",=")]) {
            continue; /* a name with our separators would make the list ambiguous */
        }
        a = AF_INET == fam
                ? (const void *)&((const struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr
                : (const void *)&((const struct sockaddr_in6 *)(void *)i->ifa_addr)->sin6_addr;
        if (NULL == inet_ntop(fam, a, addr, sizeof addr) ||
            (int)sizeof item <= snprintf(item, sizeof item, "%s=%s/%d", i->ifa_name, addr,
                                         prefix_of(i->ifa_netmask, fam))) {
            continue;
        }
        rc = wu_argv_append(&items, item);
    }
    freeifaddrs(all);
    if (WU_SUCCESS == rc) {
        *list = NULL != items ? wu_argv_join(items, ',') : strdup("");
        rc = NULL != *list ? WU_SUCCESS : WU_ERR_NOMEM;
    }
    wu_argv_free(items);
    return rc;
}

static int random_key(char *hex)
{
    unsigned char raw[KEY_BYTES];
    for (size_t got = 0; got < sizeof raw;) {
        ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
        if (n < 0 && EINTR != errno) {
            wu_show_help(HELP, "no-random", true, strerror(errno));
            return WU_ERR_SYS;
        }
        got += n > 0 ? (size_t)n : 0;
    }
    for (size_t i = 0; i < sizeof raw; i++) {
        snprintf(hex + 2 * i, 3, "%02x", raw[i]);
    }
    return WU_SUCCESS;
}

/* "lo-hi" with 1 <= lo <= hi <= 65535 */
static bool parse_range(const char *s, unsigned *lo, unsigned *hi)
{
    char *end;
    unsigned long a, b;
    if (NULL == s || '-' == s[0] || '+' == s[0]) {
        return false;
    }
    a = strtoul(s, &end, 10);
    if (end == s || '-' != *end || '-' == end[1] || '+' == end[1]) {
        return false;
    }
    s = end + 1;
    b = strtoul(s, &end, 10);
    if (end == s || '\0' != *end || 0 == a || a > b || b > 65535) {
        return false;
    }
    *lo = (unsigned)a;
    *hi = (unsigned)b;
    return true;
}

/* Give j the first free slot of ports_per_job ports of the pool; lock held. */
static int reserve_ports(job_t *j)
{
    unsigned plo, phi, nslots, held = 0;
    if ('\0' == ports[0] || 0 != j->lo) {
        return WU_SUCCESS; /* no pool, or reserved by an earlier call for this job */
    }
    if (!parse_range(ports, &plo, &phi)) {
        wu_show_help(HELP, "bad-pool", true, ports);
        return WU_ERR_BAD_PARAM;
    }
    nslots = 0 == ports_per_job ? 0 : (phi - plo + 1) / ports_per_job;
    if (0 == nslots) {
        wu_show_help(HELP, "pool-too-small", true, ports, ports_per_job);
        return WU_ERR_BAD_PARAM;
    }
    for (unsigned s = 0; s < nslots; s++) {
        unsigned lo = plo + s * ports_per_job;
        const job_t *o = jobs;
        while (NULL != o && o->lo != lo) {
            o = o->next;
        }
        if (NULL == o) {
            j->lo = lo;
            j->hi = lo + ports_per_job - 1;
            return WU_SUCCESS;
        }
        held++;
    }
    wu_show_help(HELP, "pool-exhausted", true, j->nspace, ports, ports_per_job, held);
    return WU_ERR_OUT_OF_RESOURCE;
}

static int tcp_setup_app(const char *nspace, const pmix_info_t *info, size_t ninfo,
                         pmix_info_t **outp, size_t *nout)
{
    char *ifaces = NULL, key[2 * KEY_BYTES + 1], range[16] = "";
    job_t *j;
    int rc;

    (void)info; /* what tcp contributes does not depend on the job's shape */
    (void)ninfo;
    rc = list_ifaces(include_loopback, &ifaces);
    if (WU_SUCCESS == rc && '\0' == ifaces[0] && !include_loopback) {
        free(ifaces); /* only loopback is up: then that is what the processes can use */
        ifaces = NULL;
        rc = list_ifaces(true, &ifaces);
    }
    if (WU_SUCCESS != rc) {
        return rc;
    }
    pthread_mutex_lock(&lock);
    if (NULL == (j = find_job(nspace, true))) {
        rc = WU_ERR_NOMEM;
    } else if ('\0' == j->key[0]) {
        rc = random_key(j->key);
    }
    if (WU_SUCCESS == rc && WU_SUCCESS == (rc = reserve_ports(j)) && 0 != j->lo) {
        snprintf(range, sizeof range, "%u-%u", j->lo, j->hi);
    }
    if (WU_SUCCESS == rc) {
        memcpy(key, j->key, sizeof key);
    }
    pthread_mutex_unlock(&lock);
    if (WU_SUCCESS == rc) {
        *nout = '\0' != range[0] ? 3 : 2;
        PMIX_INFO_CREATE(*outp, *nout);
        if (NULL == *outp) {
            rc = WU_ERR_NOMEM;
        } else {
            PMIx_Info_load(&(*outp)[0], WU_PNET_TCP_IFACES, ifaces, PMIX_STRING);
            PMIx_Info_load(&(*outp)[1], WU_PNET_TCP_KEY, key, PMIX_STRING);
            if ('\0' != range[0]) {
                PMIx_Info_load(&(*outp)[2], WU_PNET_TCP_PORTS, range, PMIX_STRING);
            }
            wu_output_verbose(WU_VERB_INFO, out, "pnet:tcp: job %s: interfaces %s, ports %s",
                              nspace, ifaces, '\0' != range[0] ? range : "none");
        }
    }
    free(ifaces);
    return rc;
}

/* ---- what a node does with it ------------------------------------------------------------- */

/* "name=addr/prefix,..." as list_ifaces writes it ("" included) */
static bool ifaces_ok(const char *list)
{
    char **items = wu_argv_split(list, ',');
    bool ok = NULL != items || '\0' == list[0];
    for (int i = 0; ok && NULL != items && NULL != items[i]; i++) {
        char *eq = strchr(items[i], '='), *slash = strrchr(items[i], '/'), *end;
        unsigned char buf[sizeof(struct in6_addr)];
        unsigned long pfx;
        int fam;
        if (NULL == eq || eq == items[i] || NULL == slash || slash < eq) {
            ok = false;
            break;
        }
        *slash = '\0';
        fam = NULL != strchr(eq + 1, ':') ? AF_INET6 : AF_INET;
        pfx = strtoul(slash + 1, &end, 10);
        ok = 1 == inet_pton(fam, eq + 1, buf) && end != slash + 1 && '\0' == *end &&
             pfx <= (AF_INET == fam ? 32u : 128u);
    }
    wu_argv_free(items);
    return ok;
}

static bool key_ok(const char *key)
{
    return 2 * KEY_BYTES == strlen(key) && 2 * KEY_BYTES == strspn(key, "0123456789abcdef");
}

static int tcp_setup_local(const char *nspace, const pmix_info_t *info, size_t ninfo)
{
    static const struct {
        const char *key, *env;
    } ours[] = {{WU_PNET_TCP_IFACES, WU_PNET_TCP_IFACES_ENV},
                {WU_PNET_TCP_PORTS, WU_PNET_TCP_PORTS_ENV},
                {WU_PNET_TCP_KEY, WU_PNET_TCP_KEY_ENV}};
    char **vars = NULL;
    job_t *j;
    int rc = WU_SUCCESS;

    for (size_t i = 0; i < ninfo && WU_SUCCESS == rc; i++) {
        const char *v = PMIX_STRING == info[i].value.type ? info[i].value.data.string : NULL;
        unsigned lo, hi;
        size_t k = 0;
        char *var = NULL;
        while (k < sizeof ours / sizeof ours[0] &&
               0 != strncmp(info[i].key, ours[k].key, PMIX_MAX_KEYLEN)) {
            k++;
        }
        if (k == sizeof ours / sizeof ours[0]) {
            continue; /* not ours */
        }
        if (NULL == v || (0 == k && !ifaces_ok(v)) || (1 == k && !parse_range(v, &lo, &hi)) ||
            (2 == k && !key_ok(v))) {
            wu_show_help(HELP, "bad-info", true, nspace, ours[k].key,
                         NULL != v ? v : "(not a string)");
            rc = WU_ERR_BAD_PARAM;
        } else if (WU_SUCCESS == (rc = wu_asprintf(&var, "%s=%s", ours[k].env, v))) {
            rc = wu_argv_append(&vars, var);
            free(var);
        }
    }
    if (WU_SUCCESS != rc || NULL == vars) {
        wu_argv_free(vars);
        return WU_SUCCESS == rc ? WU_ERR_TAKE_NEXT : rc; /* nothing of ours: nothing to do */
    }
    pthread_mutex_lock(&lock);
    if (NULL != (j = find_job(nspace, true))) {
        wu_argv_free(j->vars);
        j->vars = vars;
        vars = NULL;
    }
    pthread_mutex_unlock(&lock);
    wu_argv_free(vars);
    return NULL != j ? WU_SUCCESS : WU_ERR_NOMEM;
}

static int tcp_fork_env(const char *nspace, char ***vars)
{
    const job_t *j;
    int rc = WU_SUCCESS;
    pthread_mutex_lock(&lock);
    if (NULL != (j = find_job(nspace, false))) {
        for (int i = 0; NULL != j->vars && NULL != j->vars[i] && WU_SUCCESS == rc; i++) {
            rc = wu_argv_append(vars, j->vars[i]);
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static void tcp_forget(const char *nspace)
{
    pthread_mutex_lock(&lock);
    for (job_t **p = &jobs; NULL != *p; p = &(*p)->next) {
        if (0 == strncmp((*p)->nspace, nspace, PMIX_MAX_NSLEN)) {
            job_t *j = *p;
            *p = j->next;
            wu_argv_free(j->vars);
            free(j);
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

static int tcp_open(void)
{
    const wu_mca_framework_t *fw = wu_mca_framework_find("pnet");
    out = NULL != fw ? fw->output : -1;
    return WU_SUCCESS;
}

static void tcp_close(void)
{
    pthread_mutex_lock(&lock);
    while (NULL != jobs) {
        job_t *j = jobs;
        jobs = j->next;
        wu_argv_free(j->vars);
        free(j);
    }
    pthread_mutex_unlock(&lock);
}

static const wu_pnet_module_t tcp_module = {
    .setup_app = tcp_setup_app,
    .setup_local = tcp_setup_local,
    .fork_env = tcp_fork_env,
    .forget = tcp_forget,
};

static const wu_mca_param_t tcp_params[] = {
    WU_PARAM_BOOL("include_loopback", &include_loopback, WU_INFO_LVL_4,
                  "List loopback interfaces too (they are listed anyway when no other is up)"),
    WU_PARAM_STRING("ports", &ports, WU_INFO_LVL_3,
                    "Pool of ports \"lo-hi\" out of which each job gets its own range "
                    "(wu.pnet.tcp.ports); empty: no ports are reserved"),
    WU_PARAM_UNSIGNED("ports_per_job", &ports_per_job, WU_INFO_LVL_3,
                      "Number of ports of the pool each job gets"),
    WU_PARAM_END};

WU_MCA_COMPONENT(pnet, tcp, .priority = 20, .params = tcp_params, .open = tcp_open,
                 .close = tcp_close,
                 .description = "IP interfaces of the launch node, a port range and a key per job",
                 .module = &tcp_module);
