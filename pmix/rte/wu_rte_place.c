/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_place.c -- placing a job before it starts: the topology, the slot check (-H slots or
 * one per core, --oversubscribe), the job map over the nodes (wu_rte_jobmap.h: today this
 * launcher's node only) with the policy strings it registers, the node-level map and binding
 * of wu_rte_map.c applied to the pls processes, and what --display-map and --report-bindings
 * print.
 *
 * Bindings are applied only when the topology is this machine's: with HWLOC_SYNTHETIC or
 * HWLOC_XMLFILE the map is computed, registered and reported (that is what such topologies are
 * for: reproducible tests and what-if runs), but the processes are not pinned to cpus that may
 * not exist here. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"
#include "pmix/rte/wu_rte_internal.h"

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

/* The job map over this launcher's node, and the policy as the registration states it (ORTE's
 * forms: "BYCORE:NOOVERSUBSCRIBE", "SLOT", "CORE:IF-SUPPORTED[:OVERLOAD-ALLOWED]"). slots is
 * what the node offers (the -H count when given); the node-level check has passed, so
 * over says whether more ranks than slots are allowed. */
static int build_jobmap(rte_job_t *job, const wu_rte_policy_t *pol, bool over, uint32_t slots)
{
    const wu_rte_spec_t *app = job->app;
    const wu_rte_jm_host_t me = {wu_rte_hostname, app->host_slots > 0 ? app->host_slots : slots};
    const wu_rte_jm_opts_t opts = {.span = WU_RTE_JM_BYSLOT,
                                   .oversubscribe = over || pol->oversubscribe};
    char *why = NULL, m[32], b[32];
    int rc = wu_rte_jobmap_build(&me, 1, job->np, &opts, &job->map, &why);

    if (WU_SUCCESS != rc) {
        fprintf(stderr, "%s: %s\n", wu_rte_tool, NULL != why ? why : wu_strerror(rc));
        free(why);
        return WU_ERR_SILENT;
    }
    job->mynode = 0;
    if (WU_SUCCESS != wu_asprintf(&job->map->mapby, "BY%s:%s",
                                  upper(wu_rte_mapby_name(pol->map), m, sizeof m),
                                  opts.oversubscribe ? "OVERSUBSCRIBE" : "NOOVERSUBSCRIBE") ||
        NULL == (job->map->rankby = strdup("SLOT")) ||
        WU_SUCCESS != wu_asprintf(&job->map->bindto, "%s:IF-SUPPORTED%s",
                                  upper(wu_rte_bindto_name(job->place->bind), b, sizeof b),
                                  job->place->oversubscribed ? ":OVERLOAD-ALLOWED" : "")) {
        return WU_ERR_NOMEM;
    }
    return WU_SUCCESS;
}

int wu_rte_place_job(rte_job_t *job)
{
    const wu_rte_spec_t *app = job->app;
    wu_rte_policy_t pol;
    char *why = NULL;
    bool over = app->oversubscribe;
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
    if (app->host_slots > 0) {
        /* the user counted the slots: they decide whether the node is oversubscribed */
        if (job->np > app->host_slots && !over && !pol.oversubscribe) {
            wu_show_help("help-wu-map.txt", "not-enough-slots", true, job->np, app->ctx[0].argv[0],
                         wu_rte_tool, "slot given with -H", app->host_slots, app->host_slots);
            return WU_ERR_SILENT;
        }
        over = over || job->np > slots;
    }
    if (NULL != job->map) {
        /* a daemon: the head node sent the map; place this node's ranks on its cores */
        uint32_t nlocal = job->map->nodes[job->mynode].nlocal;
        rc = wu_rte_map(job->topo, nlocal, &pol, over || nlocal > slots, &job->place);
        return WU_ERR_OUT_OF_RESOURCE == rc ? WU_SUCCESS : rc;
    }
    rc = wu_rte_map(job->topo, job->np, &pol, over, &job->place);
    if (WU_ERR_OUT_OF_RESOURCE == rc) {
        bool ht = WU_RTE_MAP_HWTHREAD == pol.map;
        wu_show_help("help-wu-map.txt", "not-enough-slots", true, job->np, app->ctx[0].argv[0],
                     wu_rte_tool, ht ? "hardware thread" : "core", slots, slots);
        return WU_ERR_SILENT;
    }
    if (WU_SUCCESS != rc || WU_SUCCESS != (rc = build_jobmap(job, &pol, over, slots))) {
        return rc;
    }
    if (app->display_map) {
        char *text = wu_rte_map_display(job->topo, job->place, wu_rte_hostname);
        if (NULL != text) {
            fputs(text, stdout);
            fflush(stdout);
            free(text);
        }
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
        line = wu_rte_map_binding_str(job->topo, job->place, job->map->procs[r].local_rank,
                                      wu_rte_hostname, (int)job->pls->procs[i].pid);
        if (NULL != line) {
            fprintf(stderr, "%s\n", line);
            free(line);
        }
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

bool wu_rte_job_remote(const rte_job_t *job)
{
    for (uint32_t n = 0; NULL != job->map && n < job->map->nnodes; n++) {
        if (n != job->mynode && job->map->nodes[n].nlocal > 0) {
            return true;
        }
    }
    return false;
}
