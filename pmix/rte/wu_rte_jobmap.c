/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_jobmap.c -- computing the job map (which node runs which ranks) and the strings the
 * registration derives from it. The rules are in wu_rte_jobmap.h. */
#include "pmix/rte/wu_rte_jobmap.h"

#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
