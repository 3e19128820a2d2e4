/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_jobmap.c -- computing the job map (which node runs which ranks) and the strings the
 * registration derives from it, and reading the hosts a user names (-H, hostfiles). The rules
 * are in wu_rte_jobmap.h. */
#include "pmix/rte/map/wu_rte_jobmap.h"

#include "opal/util/wu_argv.h"
#include "opal/util/wu_escape.h"
#include "opal/util/wu_error.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HOST_MAX_SLOTS 65535 /* local ranks are 16-bit: no node takes more */

void wu_rte_jobmap_free(wu_rte_jobmap_t *map)
{
    if (NULL == map) {
        return;
    }
    for (uint32_t i = 0; i < map->nnodes; i++) {
        free(map->nodes[i].name);
        free(map->nodes[i].ranks);
    }
    free(map->nodes);
    free(map->procs);
    free(map->mapby);
    free(map->rankby);
    free(map->bindto);
    free(map);
}

static bool hosts_ok(const wu_rte_jm_host_t *hosts, uint32_t nhosts)
{
    for (uint32_t i = 0; i < nhosts; i++) {
        if (NULL == hosts[i].name || '\0' == hosts[i].name[0] || 0 == hosts[i].slots) {
            return false;
        }
        for (uint32_t j = 0; j < i; j++) {
            if (0 == strcmp(hosts[i].name, hosts[j].name)) {
                return false;
            }
        }
    }
    return true;
}

/* WU_ERR_OUT_OF_RESOURCE with the reason in *why (if why is not NULL). */
static int no_room(char **why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int no_room(char **why, const char *fmt, ...)
{
    va_list ap;
    if (NULL != why) {
        va_start(ap, fmt);
        if (WU_SUCCESS != wu_vasprintf(why, fmt, ap)) {
            *why = NULL;
        }
        va_end(ap);
    }
    return WU_ERR_OUT_OF_RESOURCE;
}

/* Which host each rank goes to (host[r]), by the spreading rules. */
static int assign(const wu_rte_jm_host_t *hosts, uint32_t nhosts, uint32_t np,
                  const wu_rte_jm_opts_t *o, uint32_t *host, char **why)
{
    uint64_t total = 0;
    uint32_t *used = calloc(nhosts, sizeof *used);
    uint32_t r = 0;

    if (NULL == used) {
        return WU_ERR_NOMEM;
    }
    for (uint32_t h = 0; h < nhosts; h++) {
        total += hosts[h].slots;
    }
    if (WU_RTE_JM_PPR == o->span) {
        if ((uint64_t)o->ppr * nhosts < np) {
            free(used);
            return no_room(why,
                           "%u processes per node on %u node%s place %llu processes, fewer "
                           "than the %u asked for",
                           o->ppr, nhosts, 1 == nhosts ? "" : "s",
                           (unsigned long long)o->ppr * nhosts, np);
        }
        for (uint32_t h = 0; h < nhosts && !o->oversubscribe; h++) {
            if (o->ppr > hosts[h].slots && (uint64_t)h * o->ppr < np) {
                free(used);
                return no_room(why, "%u processes per node exceed the %u slot%s of node %s", o->ppr,
                               hosts[h].slots, 1 == hosts[h].slots ? "" : "s", hosts[h].name);
            }
        }
        for (uint32_t h = 0; h < nhosts && r < np; h++) {
            for (uint32_t k = 0; k < o->ppr && r < np; k++) {
                host[r++] = h;
            }
        }
        free(used);
        return WU_SUCCESS;
    }
    if (np > total && !o->oversubscribe) {
        free(used);
        return no_room(why, "%u processes do not fit in the %llu slot%s of %u node%s", np,
                       (unsigned long long)total, 1 == total ? "" : "s", nhosts,
                       1 == nhosts ? "" : "s");
    }
    if (WU_RTE_JM_BYSLOT == o->span) {
        for (uint32_t h = 0; h < nhosts && r < np; h++) {
            for (uint32_t k = 0; k < hosts[h].slots && r < np; k++) {
                host[r++] = h;
                used[h]++;
            }
        }
    } else {
        bool placed = true;
        while (r < np && placed) {
            placed = false;
            for (uint32_t h = 0; h < nhosts && r < np; h++) {
                if (used[h] < hosts[h].slots) {
                    host[r++] = h;
                    used[h]++;
                    placed = true;
                }
            }
        }
    }
    /* oversubscribed: what is left goes round the nodes one at a time */
    for (uint32_t h = 0; r < np; h = (h + 1) % nhosts) {
        host[r++] = h;
    }
    free(used);
    return WU_SUCCESS;
}

int wu_rte_jobmap_build(const wu_rte_jm_host_t *hosts, uint32_t nhosts, uint32_t np,
                        const wu_rte_jm_opts_t *opts, wu_rte_jobmap_t **out, char **why)
{
    wu_rte_jobmap_t *map = NULL;
    uint32_t *host = NULL, *nodeof = NULL, *count = NULL;
    int rc = WU_ERR_NOMEM;

    if (NULL != why) {
        *why = NULL;
    }
    if (NULL == out || NULL == hosts || NULL == opts || 0 == nhosts || 0 == np ||
        (WU_RTE_JM_PPR == opts->span && 0 == opts->ppr) || !hosts_ok(hosts, nhosts)) {
        return WU_ERR_BAD_PARAM;
    }
    *out = NULL;
    if (NULL == (host = calloc(np, sizeof *host)) ||
        NULL == (nodeof = calloc(nhosts, sizeof *nodeof)) ||
        NULL == (count = calloc(nhosts, sizeof *count)) || NULL == (map = calloc(1, sizeof *map)) ||
        NULL == (map->procs = calloc(np, sizeof *map->procs)) ||
        NULL == (map->nodes = calloc(nhosts, sizeof *map->nodes))) {
        goto out;
    }
    if (WU_SUCCESS != (rc = assign(hosts, nhosts, np, opts, host, why))) {
        goto out;
    }
    map->np = np;
    for (uint32_t r = 0; r < np; r++) {
        count[host[r]]++;
    }
    rc = WU_ERR_NOMEM;
    for (uint32_t h = 0; h < nhosts; h++) {
        wu_rte_jm_node_t *n;
        if (0 == count[h]) {
            continue; /* a node without a rank is not part of the job */
        }
        nodeof[h] = map->nnodes;
        n = &map->nodes[map->nnodes++];
        n->id = nodeof[h];
        n->slots = hosts[h].slots;
        if (NULL == (n->name = strdup(hosts[h].name)) ||
            NULL == (n->ranks = calloc(count[h], sizeof *n->ranks))) {
            goto out;
        }
        map->oversubscribed = map->oversubscribed || count[h] > hosts[h].slots;
    }
    for (uint32_t r = 0; r < np; r++) {
        wu_rte_jm_node_t *n = &map->nodes[nodeof[host[r]]];
        map->procs[r].node = n->id;
        map->procs[r].local_rank = n->nlocal;
        map->procs[r].node_rank = n->nlocal;
        n->ranks[n->nlocal++] = r;
    }
    *out = map;
    map = NULL;
    rc = WU_SUCCESS;
out:
    wu_rte_jobmap_free(map);
    free(host);
    free(nodeof);
    free(count);
    return rc;
}

const wu_rte_jm_node_t *wu_rte_jobmap_node(const wu_rte_jobmap_t *map, const char *name)
{
    for (uint32_t i = 0; NULL != map && NULL != name && i < map->nnodes; i++) {
        if (0 == strcmp(map->nodes[i].name, name)) {
            return &map->nodes[i];
        }
    }
    return NULL;
}

char *wu_rte_jobmap_peers(const wu_rte_jm_node_t *node)
{
    size_t cap = 11 * (size_t)node->nlocal + 1, len = 0;
    char *s = malloc(cap);
    if (NULL == s) {
        return NULL;
    }
    s[0] = '\0';
    for (uint32_t i = 0; i < node->nlocal; i++) {
        len += (size_t)snprintf(s + len, cap - len, "%s%u", 0 == i ? "" : ",", node->ranks[i]);
    }
    return s;
}

char *wu_rte_jobmap_node_list(const wu_rte_jobmap_t *map)
{
    char **names = NULL, *s;
    for (uint32_t i = 0; i < map->nnodes; i++) {
        if (WU_SUCCESS != wu_argv_append(&names, map->nodes[i].name)) {
            wu_argv_free(names);
            return NULL;
        }
    }
    s = wu_argv_join(names, ',');
    wu_argv_free(names);
    return s;
}

char *wu_rte_jobmap_proc_list(const wu_rte_jobmap_t *map)
{
    char **lists = NULL, *s = NULL;
    for (uint32_t i = 0; i < map->nnodes; i++) {
        char *one = wu_rte_jobmap_peers(&map->nodes[i]);
        int rc = NULL == one ? WU_ERR_NOMEM : wu_argv_append(&lists, one);
        free(one);
        if (WU_SUCCESS != rc) {
            wu_argv_free(lists);
            return NULL;
        }
    }
    s = wu_argv_join(lists, ';');
    wu_argv_free(lists);
    return s;
}

/* ---- host lists ------------------------------------------------------------------------------ */

/* This node's hostname into buf ("localhost" when it cannot be had). */
static void my_hostname(char *buf, size_t len)
{
    if (0 != gethostname(buf, len - 1)) {
        snprintf(buf, len, "localhost");
    }
    buf[len - 1] = '\0';
}

bool wu_rte_host_is_local(const char *name)
{
    char host[256];
    size_t nshort, hshort;

    if (NULL == name || '\0' == name[0]) {
        return false;
    }
    if (0 == strcmp(name, "localhost") || 0 == strcmp(name, "127.0.0.1") ||
        0 == strcmp(name, "::1")) {
        return true;
    }
    my_hostname(host, sizeof host);
    if (0 == strcmp(name, host)) {
        return true;
    }
    /* "node1" and "node1.example.org" are the same node when one of them has no domain */
    nshort = strcspn(name, ".");
    hshort = strcspn(host, ".");
    if ('\0' != name[nshort] && '\0' != host[hshort]) {
        return false; /* two different full names */
    }
    return nshort == hshort && 0 == strncmp(name, host, nshort);
}

/* Is s, up to end, a name part: allowed characters only, not empty, not starting with '-' or '.'? */
static bool name_part_ok(const char *s, const char *end)
{
    if (s == end || '-' == *s || '.' == *s) {
        return false;
    }
    for (; s < end; s++) {
        if (!isalnum((unsigned char)*s) && '.' != *s && '-' != *s && '_' != *s) {
            return false;
        }
    }
    return true;
}

int wu_rte_host_name_check(const char *name, char **why)
{
    const char *at = NULL != name ? strchr(name, '@') : NULL, *host = NULL != at ? at + 1 : name;
    char *safe;
    if (NULL != name && strlen(name) <= 255 && (NULL == at || name_part_ok(name, at)) &&
        name_part_ok(host, host + strlen(host))) {
        return WU_SUCCESS;
    }
    if (NULL != why) {
        safe = wu_str_escape_dup(NULL != name ? name : "", 64, 0);
        if (NULL == safe ||
            WU_SUCCESS != wu_asprintf(why,
                                      "'%s' is not a host name: use letters, digits, '.', '-' and "
                                      "'_' (and \"user@\" before it), not starting with '-' or '.'",
                                      safe)) {
            *why = NULL;
        }
        free(safe);
    }
    return WU_ERR_BAD_PARAM;
}

/* Add slots to the entry of name (a new one at the end if there is none). given: the count was
 * given (-H host:N, slots=N); max: max_slots (0: none). Names are checked by the callers. */
static int hosts_add(wu_rte_hostlist_t *l, const char *name, uint32_t slots, bool given,
                     uint32_t max)
{
    char host[256];
    wu_rte_hostent_t *grown;

    if (wu_rte_host_is_local(name)) {
        my_hostname(host, sizeof host);
        name = host;
    }
    for (uint32_t i = 0; i < l->n; i++) {
        wu_rte_hostent_t *e = &l->ent[i];
        if (0 == strcmp(e->name, name)) {
            e->slots = e->slots + slots > HOST_MAX_SLOTS ? HOST_MAX_SLOTS : e->slots + slots;
            e->slots_given = e->slots_given || given;
            e->max_slots += max;
            return WU_SUCCESS;
        }
    }
    if (NULL == (grown = realloc(l->ent, (l->n + 1) * sizeof *grown))) {
        return WU_ERR_NOMEM;
    }
    l->ent = grown;
    grown[l->n] = (wu_rte_hostent_t){.slots = slots, .slots_given = given, .max_slots = max};
    if (NULL == (grown[l->n].name = strdup(name))) {
        return WU_ERR_NOMEM;
    }
    l->n++;
    return WU_SUCCESS;
}

/* A count from 1 to HOST_MAX_SLOTS, the whole of s. */
static bool parse_count(const char *s, uint32_t *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (0 != errno || end == s || '\0' != *end || v < 1 || v > HOST_MAX_SLOTS ||
        !isdigit((unsigned char)s[0])) {
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

int wu_rte_hosts_parse_arg(wu_rte_hostlist_t *l, const char *arg, char **why)
{
    char **items;
    int rc = WU_SUCCESS;

    if (NULL != why) {
        *why = NULL;
    }
    /* empty items ("a,,b", "a,") are skipped, but there must be a host */
    if (NULL == l || NULL == arg || NULL == (items = wu_argv_split(arg, ','))) {
        return WU_ERR_BAD_PARAM;
    }
    /* check every item first, so that a bad value leaves the list as it was */
    for (int i = 0; NULL != items[i] && WU_SUCCESS == rc; i++) {
        char *colon = strchr(items[i], ':');
        uint32_t n;
        if (items[i] == colon || '\0' == items[i][0] ||
            (NULL != colon && !parse_count(colon + 1, &n))) {
            rc = WU_ERR_BAD_PARAM;
        } else if (NULL != colon) {
            *colon = '\0';
            rc = wu_rte_host_name_check(items[i], why);
            *colon = ':';
        } else {
            rc = wu_rte_host_name_check(items[i], why);
        }
    }
    if (NULL == items[0]) {
        rc = WU_ERR_BAD_PARAM;
    }
    for (int i = 0; NULL != items[i] && WU_SUCCESS == rc; i++) {
        char *colon = strchr(items[i], ':');
        uint32_t n = 1; /* counts only if the host also has a count (see wu_rte_hosts_jm) */
        if (NULL != colon) {
            *colon = '\0';
            (void)parse_count(colon + 1, &n);
        }
        rc = hosts_add(l, items[i], n, NULL != colon, 0);
    }
    wu_argv_free(items);
    return rc;
}

/* A problem with a hostfile: rc, with "FILE:LINE: what" in *why. */
static int WU_PRINTF(5, 6)
    file_error(char **why, int rc, const char *path, unsigned line, const char *fmt, ...)
{
    char *what = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (WU_SUCCESS != wu_vasprintf(&what, fmt, ap)) {
        what = NULL;
    }
    va_end(ap);
    if (NULL != why) {
        if (0 == line) {
            (void)wu_asprintf(why, "%s: %s", path, NULL != what ? what : "unusable");
        } else {
            (void)wu_asprintf(why, "%s:%u: %s", path, line, NULL != what ? what : "bad line");
        }
    }
    free(what);
    return rc;
}

/* One line of a hostfile, comment removed: "host [slots=N] [max_slots=M]". */
static int file_line(wu_rte_hostlist_t *l, char *text, const char *path, unsigned line, char **why)
{
    char *save = NULL, *host = strtok_r(text, " \t\r\v\f", &save), *word, *bad = NULL;
    uint32_t slots = 0, max = 0;
    int rc;
    bool given = false;

    if (NULL == host) {
        return WU_SUCCESS; /* blank */
    }
    if (NULL != strchr(host, '=')) {
        return file_error(why, WU_ERR_BAD_PARAM, path, line,
                          "'%s' is not a host name (a line starts with the host)", host);
    }
    if (WU_SUCCESS != wu_rte_host_name_check(host, &bad)) {
        rc = file_error(why, WU_ERR_BAD_PARAM, path, line, "%s",
                        NULL != bad ? bad : "not a host name");
        free(bad);
        return rc;
    }
    while (NULL != (word = strtok_r(NULL, " \t\r\v\f", &save))) {
        char *eq = strchr(word, '=');
        uint32_t *into;
        if (NULL == eq) {
            return file_error(why, WU_ERR_BAD_PARAM, path, line,
                              "'%s' is not a keyword=value setting (slots=N or max_slots=N)", word);
        }
        *eq = '\0';
        if (0 == strcmp(word, "slots")) {
            into = &slots;
            given = true;
        } else if (0 == strcmp(word, "max_slots") || 0 == strcmp(word, "max-slots")) {
            into = &max;
        } else {
            return file_error(why, WU_ERR_BAD_PARAM, path, line,
                              "unknown keyword '%s' (valid: slots, max_slots)", word);
        }
        if (!parse_count(eq + 1, into)) {
            return file_error(why, WU_ERR_BAD_PARAM, path, line,
                              "%s=%s is not a count from 1 to %d", word, eq + 1, HOST_MAX_SLOTS);
        }
    }
    if (0 != max && given && max < slots) {
        return file_error(why, WU_ERR_BAD_PARAM, path, line, "max_slots=%u is less than slots=%u",
                          max, slots);
    }
    return hosts_add(l, host, slots, given, max);
}

int wu_rte_hosts_parse_file(wu_rte_hostlist_t *l, const char *path, char **why)
{
    FILE *f;
    char *text = NULL;
    size_t cap = 0;
    unsigned line = 0;
    uint32_t before;
    int rc = WU_SUCCESS;

    if (NULL != why) {
        *why = NULL;
    }
    if (NULL == l || NULL == path) {
        return WU_ERR_BAD_PARAM;
    }
    before = l->n;
    if (NULL == (f = fopen(path, "r"))) {
        int err = errno;
        if (NULL != why) {
            (void)wu_asprintf(why, "cannot read %s: %s", path, strerror(err));
        }
        return WU_ERR_NOT_FOUND;
    }
    while (WU_SUCCESS == rc && -1 != getline(&text, &cap, f)) {
        line++;
        text[strcspn(text, "#\n")] = '\0';
        rc = file_line(l, text, path, line, why);
    }
    if (WU_SUCCESS == rc && ferror(f)) {
        int err = errno;
        rc = file_error(why, WU_ERR_NOT_FOUND, path, 0, "cannot read it: %s", strerror(err));
    }
    if (WU_SUCCESS == rc && before == l->n) {
        rc = file_error(why, WU_ERR_BAD_PARAM, path, 0, "the file names no host");
    }
    free(text);
    fclose(f);
    return rc;
}

int wu_rte_hosts_filter(wu_rte_hostlist_t *file, const wu_rte_hostlist_t *sel, const char **missing)
{
    uint32_t kept = 0;

    for (uint32_t s = 0; s < sel->n; s++) {
        uint32_t f = 0;
        while (f < file->n && 0 != strcmp(file->ent[f].name, sel->ent[s].name)) {
            f++;
        }
        if (f == file->n) {
            if (NULL != missing) {
                *missing = sel->ent[s].name;
            }
            return WU_ERR_NOT_FOUND;
        }
    }
    for (uint32_t f = 0; f < file->n; f++) {
        const wu_rte_hostent_t *pick = NULL;
        for (uint32_t s = 0; s < sel->n && NULL == pick; s++) {
            if (0 == strcmp(file->ent[f].name, sel->ent[s].name)) {
                pick = &sel->ent[s];
            }
        }
        if (NULL == pick) {
            free(file->ent[f].name);
            continue;
        }
        file->ent[kept] = file->ent[f];
        if (pick->slots_given) {
            file->ent[kept].slots = pick->slots;
            file->ent[kept].slots_given = true;
        }
        kept++;
    }
    file->n = kept;
    return WU_SUCCESS;
}

wu_rte_jm_host_t *wu_rte_hosts_jm(const wu_rte_hostlist_t *l)
{
    wu_rte_jm_host_t *h;
    if (NULL == l || 0 == l->n || NULL == (h = calloc(l->n, sizeof *h))) {
        return NULL;
    }
    for (uint32_t i = 0; i < l->n; i++) {
        h[i].name = l->ent[i].name;
        /* a host never given a count has as many slots as this node has cores (0), as in a
         * hostfile: `-H a,b,c -np 6` fills 2-core nodes with 2 ranks each (Open MPI would count
         * 1 slot); once a count is given, each plain mention adds one slot, as in Open MPI */
        h[i].slots = l->ent[i].slots_given ? l->ent[i].slots : 0;
    }
    return h;
}

void wu_rte_hosts_free(wu_rte_hostlist_t *l)
{
    if (NULL == l) {
        return;
    }
    for (uint32_t i = 0; i < l->n; i++) {
        free(l->ent[i].name);
    }
    free(l->ent);
    l->ent = NULL;
    l->n = 0;
}
