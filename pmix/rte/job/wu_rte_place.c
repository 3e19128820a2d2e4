/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_place.c -- placing a job before it starts: the topology, the nodes the job may use
 * (-H, --hostfile; this node alone when none is given) with their slots, the job map over them
 * (wu_rte_jobmap.h: by slot, by node, ppr, --oversubscribe) with the policy strings it
 * registers, the node-level map and binding of wu_rte_map.c for the ranks on this node,
 * applied to their pls processes, and what --display-map and --report-bindings print.
 *
 * The launcher sees only this node's cores: a host given without a slot count is taken to have
 * as many as this node (the nodes are assumed alike). In wired the map comes from the head node
 * and only the node-level placement is done here.
 *
 * Bindings are applied only when the topology is this machine's: with HWLOC_SYNTHETIC or
 * HWLOC_XMLFILE the map is computed, registered and reported (that is what such topologies are
 * for: reproducible tests and what-if runs), but the processes are not pinned to cpus that may
 * not exist here. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"
#include "pmix/rte/job/wu_rte_job.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "core" -> "CORE" into buf. */
static const char *upper(const char *s, char *buf, size_t len)
{
    size_t i = 0;
    for (; '\0' != s[i] && i + 1 < len; i++) {
        buf[i] = (char)toupper((unsigned char)s[i]);
    }
    buf[i] = '\0';
    return buf;
}

/* How the ranks spread over the nodes: the spec's span (--npernode), else --map-by's. */
static void spread(const wu_rte_spec_t *app, const wu_rte_policy_t *pol, wu_rte_jm_opts_t *o)
{
    o->span = app->span;
    o->ppr = app->ppr;
    if (WU_RTE_JM_BYSLOT == o->span) {
        o->span = pol->span;
        o->ppr = pol->ppr;
    }
    o->oversubscribe = app->oversubscribe || pol->oversubscribe;
}

/* The job's hosts with every count known: this node's names become wu_rte_hostname, slots 0
 * become this node's slots, and a host named twice gets the sum of its slots. No hosts in the
 * spec: this node alone. *given: some count came from the user; *guessed: some host has this
 * node's count. free() *out (names borrowed). */
static int job_hosts(const wu_rte_spec_t *app, uint32_t slots, wu_rte_jm_host_t **out, uint32_t *n,
                     bool *given, bool *guessed)
{
    uint32_t nh = NULL == app->hosts ? 0 : app->nhosts;
    wu_rte_jm_host_t *h = calloc(nh > 0 ? nh : 1, sizeof *h);

    *out = h;
    *n = 0;
    *given = *guessed = false;
    if (NULL == h) {
        return WU_ERR_NOMEM;
    }
    if (0 == nh) {
        h[0] = (wu_rte_jm_host_t){wu_rte_hostname, slots};
        *n = 1;
        return WU_SUCCESS;
    }
    for (uint32_t i = 0; i < nh; i++) {
        const char *name = app->hosts[i].name;
        uint32_t s = 0 == app->hosts[i].slots ? slots : app->hosts[i].slots, k = 0;
        if (NULL == name || '\0' == name[0]) {
            return WU_ERR_BAD_PARAM;
        }
        *given = *given || 0 != app->hosts[i].slots;
        *guessed = *guessed || 0 == app->hosts[i].slots;
        if (wu_rte_host_is_local(name)) {
            name = wu_rte_hostname;
        }
        while (k < *n && 0 != strcmp(h[k].name, name)) {
            k++;
        }
        if (k == *n) {
            h[(*n)++] = (wu_rte_jm_host_t){name, 0};
        }
        h[k].slots = h[k].slots + s > UINT16_MAX ? UINT16_MAX : h[k].slots + s;
    }
    return WU_SUCCESS;
}

int wu_rte_default_np(const wu_rte_spec_t *app, uint32_t *np)
{
    wu_rte_policy_t pol;
    wu_rte_topo_t *topo = NULL;
    wu_rte_jm_opts_t o;
    wu_rte_jm_host_t *hosts = NULL;
    uint32_t nh = 0;
    uint64_t total = 0;
    bool given, guessed;
    int rc;

    *np = 1;
    if (WU_SUCCESS != (rc = wu_rte_map_parse(app->map_by, app->bind_to, &pol, NULL))) {
        return rc;
    }
    if (WU_SUCCESS != (rc = wu_rte_topo_load(&topo))) {
        wu_show_help("help-wu-map.txt", "topology-failed", true, wu_rte_tool, wu_strerror(rc));
        return WU_ERR_SILENT;
    }
    spread(app, &pol, &o);
    rc = job_hosts(app, wu_rte_topo_slots(topo, &pol), &hosts, &nh, &given, &guessed);
    wu_rte_topo_free(topo);
    for (uint32_t i = 0; WU_SUCCESS == rc && i < nh; i++) {
        total += WU_RTE_JM_PPR == o.span ? o.ppr : hosts[i].slots;
    }
    free(hosts);
    if (WU_SUCCESS == rc) {
        *np = total > UINT16_MAX ? UINT16_MAX : (uint32_t)(total > 0 ? total : 1);
    }
    return rc;
}

/* The ranks do not fit: mpirun's message, for this node alone or for the hosts given. */
static void not_enough_slots(const rte_job_t *job, const wu_rte_policy_t *pol,
                             const wu_rte_jm_host_t *hosts, uint32_t nh, uint32_t slots, bool given,
                             bool guessed)
{
    const wu_rte_spec_t *app = job->app;
    const char *unit = WU_RTE_MAP_HWTHREAD == pol->map ? "hardware thread" : "core";
    unsigned long long total = 0;
    char *from = NULL;

    if (NULL == app->hosts || 0 == app->nhosts) {
        wu_show_help("help-wu-map.txt", "not-enough-slots", true, job->np, app->ctx[0].argv[0],
                     wu_rte_tool, unit, slots, slots);
        return;
    }
    for (uint32_t i = 0; i < nh; i++) {
        total += hosts[i].slots;
    }
    if (guessed) {
        (void)wu_asprintf(&from, "%sa host without a slot count has this node's %u %ss",
                          given ? "counts as given; " : "", slots, unit);
    } else {
        from = strdup(NULL != app->hosts_from ? app->hosts_from
                                              : "as given with -H or in the hostfile");
    }
    wu_show_help("help-wu-map.txt", "not-enough-slots-nodes", true, job->np, app->ctx[0].argv[0],
                 wu_rte_tool, nh, 1 == nh ? "" : "s", total, NULL != from ? from : "");
    free(from);
}

/* The job map over the job's hosts; job->mynode is this node's index in it, UINT32_MAX when
 * no rank runs here. */
static int build_jobmap(rte_job_t *job, const wu_rte_policy_t *pol, const wu_rte_jm_opts_t *opts,
                        uint32_t slots)
{
    wu_rte_jm_host_t *hosts = NULL;
    uint32_t nh = 0;
    char *why = NULL;
    bool given = false, guessed = false;
    int rc = job_hosts(job->app, slots, &hosts, &nh, &given, &guessed);

    if (WU_SUCCESS == rc) {
        rc = wu_rte_jobmap_build(hosts, nh, job->np, opts, &job->map, &why);
    }
    if (WU_ERR_OUT_OF_RESOURCE == rc && WU_RTE_JM_PPR != opts->span) {
        not_enough_slots(job, pol, hosts, nh, slots, given, guessed);
        rc = WU_ERR_SILENT;
    } else if (WU_SUCCESS != rc) {
        fprintf(stderr, "%s: %s\n", wu_rte_tool, NULL != why ? why : wu_strerror(rc));
        rc = WU_ERR_SILENT;
    }
    free(why);
    free(hosts);
    if (WU_SUCCESS != rc) {
        return rc;
    }
    job->mynode = UINT32_MAX;
    for (uint32_t i = 0; i < job->map->nnodes; i++) {
        if (0 == strcmp(job->map->nodes[i].name, wu_rte_hostname)) {
            job->mynode = i;
        }
    }
    return WU_SUCCESS;
}

/* The policy as the registration states it (ORTE's forms: "BYCORE:NOOVERSUBSCRIBE",
 * "BYNODE:...", "PPR:2:NODE:...", "SLOT", "CORE:IF-SUPPORTED[:OVERLOAD-ALLOWED]"). over: more
 * ranks than slots is allowed or happens on this node. */
static int policy_strings(rte_job_t *job, const wu_rte_policy_t *pol, const wu_rte_jm_opts_t *opts,
                          bool over)
{
    const char *ov = over ? "OVERSUBSCRIBE" : "NOOVERSUBSCRIBE";
    wu_rte_bindto_t bind = NULL != job->place ? job->place->bind : pol->bind;
    char m[32], b[32];
    int rc;

    if (WU_RTE_JM_PPR == opts->span) {
        rc = wu_asprintf(&job->map->mapby, "PPR:%u:NODE:%s", opts->ppr, ov);
    } else if (WU_RTE_JM_BYNODE == opts->span) {
        rc = wu_asprintf(&job->map->mapby, "BYNODE:%s", ov);
    } else {
        rc = wu_asprintf(&job->map->mapby, "BY%s:%s",
                         upper(wu_rte_mapby_name(pol->map), m, sizeof m), ov);
    }
    if (WU_SUCCESS != rc || NULL == (job->map->rankby = strdup("SLOT")) ||
        WU_SUCCESS !=
            wu_asprintf(
                &job->map->bindto, "%s:IF-SUPPORTED%s",
                upper(WU_RTE_BIND_DEFAULT == bind ? "none" : wu_rte_bindto_name(bind), b, sizeof b),
                NULL != job->place && job->place->oversubscribed ? ":OVERLOAD-ALLOWED" : "")) {
        return WU_ERR_NOMEM;
    }
    return WU_SUCCESS;
}

bool wu_rte_job_remote(const rte_job_t *job)
{
    for (uint32_t i = 0; NULL != job->map && i < job->map->nnodes; i++) {
        if (i != job->mynode) {
            return true;
        }
    }
    return false;
}

/* --display-map: the whole job's map, bindings of this node's ranks. */
static void display_map(const rte_job_t *job)
{
    uint32_t *apps = calloc(job->np, sizeof *apps);
    char *text;
    if (NULL == apps) {
        return;
    }
    for (uint32_t r = 0; r < job->np; r++) {
        apps[r] = job->procs[r].ctx;
    }
    text = wu_rte_map_display(job->topo, job->place, job->map, job->mynode, job->nspace, apps);
    if (NULL != text) {
        fputs(text, stdout);
        fflush(stdout);
        free(text);
    }
    free(apps);
}

int wu_rte_place_job(rte_job_t *job)
{
    const wu_rte_spec_t *app = job->app;
    wu_rte_policy_t pol;
    wu_rte_jm_opts_t opts;
    char *why = NULL;
    bool over;
    uint32_t slots;
    int rc;

    if (WU_SUCCESS != (rc = wu_rte_map_parse(app->map_by, app->bind_to, &pol, &why))) {
        fprintf(stderr, "%s: %s\n", wu_rte_tool, NULL != why ? why : wu_strerror(rc));
        free(why);
        return WU_ERR_SILENT;
    }
    if (WU_SUCCESS != (rc = wu_rte_topo_load(&job->topo))) {
        wu_show_help("help-wu-map.txt", "topology-failed", true, wu_rte_tool, wu_strerror(rc));
        return WU_ERR_SILENT;
    }
    job->bind_for_real = 0 != hwloc_topology_is_thissystem(wu_rte_topo_hwloc(job->topo));
    slots = wu_rte_topo_slots(job->topo, &pol);
    if (NULL != job->map) {
        /* wired: the head node sent the map; place this node's ranks on its cores (the head
         * did the slot check) */
        uint32_t nlocal = job->map->nodes[job->mynode].nlocal;
        return wu_rte_map(job->topo, nlocal, &pol, true, &job->place);
    }
    spread(app, &pol, &opts);
    if (WU_SUCCESS != (rc = build_jobmap(job, &pol, &opts, slots))) {
        return rc;
    }
    over = opts.oversubscribe;
    if (UINT32_MAX != job->mynode) {
        /* the slot check is done (the user's counts decide): the node-level map does not
         * refuse, it only knows whether the cores are oversubscribed */
        rc = wu_rte_map(job->topo, job->map->nodes[job->mynode].nlocal, &pol, true, &job->place);
        if (WU_SUCCESS != rc) {
            return rc;
        }
        over = over || job->place->oversubscribed;
    }
    if (WU_SUCCESS != (rc = policy_strings(job, &pol, &opts, over))) {
        return rc;
    }
    if (app->display_map) {
        display_map(job);
    }
    return WU_SUCCESS;
}

void wu_rte_place_report(rte_job_t *job)
{
    if (!job->app->report_bindings || NULL == job->place) {
        return;
    }
    for (uint32_t i = 0; NULL != job->pls && i < job->nlocal; i++) {
        char *line;
        uint32_t r = job->lranks[i];
        if (0 == job->pls->procs[i].pid) {
            continue; /* it could not be started (reported elsewhere) */
        }
        /* the line names the rank; the placement is indexed by local rank */
        line = wu_rte_map_binding_str(job->topo, job->place, job->map->procs[r].local_rank, r,
                                      wu_rte_hostname, (int)job->pls->procs[i].pid);
        if (NULL != line && NULL != job->role && NULL != job->role->notice) {
            char *nl = NULL;
            if (WU_SUCCESS == wu_asprintf(&nl, "%s\n", line)) {
                job->role->notice(nl); /* wrun prints it, with the other nodes' lines */
            }
            free(nl);
        } else if (NULL != line) {
            fprintf(stderr, "%s\n", line);
        }
        free(line);
    }
    fflush(stderr);
}

void wu_rte_place_free(rte_job_t *job)
{
    wu_rte_placement_free(job->place);
    job->place = NULL;
    wu_rte_topo_free(job->topo);
    job->topo = NULL;
    wu_rte_jobmap_free(job->map);
    job->map = NULL;
}
