/* SPDX-License-Identifier: BSD-3-Clause */
/* check_rte_map.c -- the mapper of pmix/rte on synthetic topologies, so every expectation is
 * exact on any machine: policy parsing, slot counting and oversubscription, placement and the
 * default binding rules, cpu lists, locality strings, the --report-bindings line byte for byte,
 * the --display-map table, XML export, and the not-enough-slots message. */
#include "opal/util/wu_argv.h"
#include "pmix/rte/map/wu_rte_map.h"
#include "test/support/wu_test.h"

#include <stdlib.h>
#include <string.h>

/* 2 packages x 4 cores x 2 hwthreads; one NUMA node, no caches. Core c has PUs 2c and 2c+1. */
#define TOPO_A "package:2 core:4 pu:2"
/* 2 packages, each with one NUMA node and one L3; per core one L2 and one L1. */
#define TOPO_B "package:2 numa:1 l3:1 l2:4 l1:1 core:1 pu:2"

static wu_rte_topo_t *synth(const char *desc)
{
    wu_rte_topo_t *t = NULL;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_topo_load_synthetic(desc, &t));
    ck_assert_ptr_nonnull(t);
    return t;
}

/* Map with the given policy strings; returns the placement (NULL when rc says so). */
static wu_rte_placement_t *map(wu_rte_topo_t *t, uint32_t np, const char *mapby, const char *bindto,
                               bool oversub, int want_rc)
{
    wu_rte_policy_t pol;
    wu_rte_placement_t *p = NULL;
    char *why = NULL;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_map_parse(mapby, bindto, &pol, &why));
    ck_assert_ptr_null(why);
    ck_assert_int_eq(want_rc, wu_rte_map(t, np, &pol, oversub, &p));
    if (WU_SUCCESS == want_rc) {
        ck_assert_ptr_nonnull(p);
    } else {
        ck_assert_ptr_null(p);
    }
    return p;
}

/* Every rank's cpu list, space separated, "-" for an unbound rank. */
static char *cpulists(const wu_rte_placement_t *p)
{
    char **v = NULL, *s;
    for (uint32_t r = 0; r < p->np; r++) {
        char *l = NULL;
        ck_assert_int_eq(WU_SUCCESS, wu_rte_map_cpulist(p, r, &l));
        ck_assert_int_eq(WU_SUCCESS, wu_argv_append(&v, NULL == l ? "-" : l));
        /* unbound exactly when there is no cpuset and no locality */
        ck_assert((NULL == l) == (NULL == p->procs[r].cpuset));
        ck_assert((NULL == l) == (NULL == p->procs[r].locstr));
        free(l);
    }
    s = wu_argv_join(v, ' ');
    wu_argv_free(v);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* ---- parsing --------------------------------------------------------------------------------- */

static const struct {
    const char *mapby, *bindto;
    int rc;
    wu_rte_mapby_t map;
    bool given, oversub;
    wu_rte_bindto_t bind;
    const char *why1, *why2; /* substrings of the message on failure */
} parse_cases[] = {
    {NULL, NULL, WU_SUCCESS, WU_RTE_MAP_SLOT, false, false, WU_RTE_BIND_DEFAULT, NULL, NULL},
    {"", "", WU_SUCCESS, WU_RTE_MAP_SLOT, false, false, WU_RTE_BIND_DEFAULT, NULL, NULL},
    {"slot", "hwthread", WU_SUCCESS, WU_RTE_MAP_SLOT, true, false, WU_RTE_BIND_HWTHREAD, NULL,
     NULL},
    {"Socket", "SOCKET", WU_SUCCESS, WU_RTE_MAP_PACKAGE, true, false, WU_RTE_BIND_PACKAGE, NULL,
     NULL},
    {"package", "Package", WU_SUCCESS, WU_RTE_MAP_PACKAGE, true, false, WU_RTE_BIND_PACKAGE, NULL,
     NULL},
    {"core:OVERSUBSCRIBE", "none", WU_SUCCESS, WU_RTE_MAP_CORE, true, true, WU_RTE_BIND_NONE, NULL,
     NULL},
    {"HWTHREAD:oversubscribe", NULL, WU_SUCCESS, WU_RTE_MAP_HWTHREAD, true, true,
     WU_RTE_BIND_DEFAULT, NULL, NULL},
    {"numa", "numa", WU_SUCCESS, WU_RTE_MAP_NUMA, true, false, WU_RTE_BIND_NUMA, NULL, NULL},
    {"core:oversubscribe,nooversubscribe", "core", WU_SUCCESS, WU_RTE_MAP_CORE, true, false,
     WU_RTE_BIND_CORE, NULL, NULL},
    {NULL, "core", WU_SUCCESS, WU_RTE_MAP_SLOT, false, false, WU_RTE_BIND_CORE, NULL, NULL},
    {"nodes", NULL, WU_ERR_BAD_PARAM, 0, 0, 0, 0, "'nodes'",
     "slot, core, package (or socket), numa, hwthread, node, ppr:N:node"},
    {"ppr:2", NULL, WU_ERR_BAD_PARAM, 0, 0, 0, 0, "ppr:2", "ppr:2:node"},
    {"ppr:0:node", NULL, WU_ERR_BAD_PARAM, 0, 0, 0, 0, "ppr:0:node", "a count and an object"},
    {"ppr:x:node", NULL, WU_ERR_BAD_PARAM, 0, 0, 0, 0, "ppr:x:node", "a count"},
    {"ppr:2:package", NULL, WU_ERR_BAD_PARAM, 0, 0, 0, 0, "ppr:N:package is not supported yet",
     "ppr:N:node"},
    {"ppr:2:board", NULL, WU_ERR_BAD_PARAM, 0, 0, 0, 0, "ppr:2:board", "ppr:2:node"},
    {"node:bogus", NULL, WU_ERR_BAD_PARAM, 0, 0, 0, 0, "'bogus'", "OVERSUBSCRIBE"},
    {"cores", "core", WU_ERR_BAD_PARAM, 0, 0, 0, 0, "'cores'", "--map-by"},
    {"core:PE=2", NULL, WU_ERR_BAD_PARAM, 0, 0, 0, 0, "'PE=2'", "OVERSUBSCRIBE"},
    {"core:", NULL, WU_ERR_BAD_PARAM, 0, 0, 0, 0, "''", "valid modifiers"},
    {":OVERSUBSCRIBE", NULL, WU_ERR_BAD_PARAM, 0, 0, 0, 0, "':OVERSUBSCRIBE'", "hwthread"},
    {"core", "l3cache", WU_ERR_BAD_PARAM, 0, 0, 0, 0, "'l3cache'",
     "none, core, package (or socket), numa, hwthread"},
    {NULL, "socket:overload-allowed", WU_ERR_BAD_PARAM, 0, 0, 0, 0, "--bind-to", "none"},
};

START_TEST(parse_policies)
{
    wu_rte_policy_t pol;
    char *why = (char *)"stale";
    int rc = wu_rte_map_parse(parse_cases[_i].mapby, parse_cases[_i].bindto, &pol, &why);
    ck_assert_int_eq(parse_cases[_i].rc, rc);
    if (WU_SUCCESS == rc) {
        ck_assert_ptr_null(why);
        ck_assert_int_eq(parse_cases[_i].map, pol.map);
        ck_assert_int_eq(parse_cases[_i].given, pol.map_given);
        ck_assert_int_eq(parse_cases[_i].oversub, pol.oversubscribe);
        ck_assert_int_eq(parse_cases[_i].bind, pol.bind);
    } else {
        ck_assert_ptr_nonnull(why);
        ck_assert_msg(NULL != strstr(why, parse_cases[_i].why1), "why: %s", why);
        ck_assert_msg(NULL != strstr(why, parse_cases[_i].why2), "why: %s", why);
        ck_assert_ptr_null(strchr(why, '\n'));
        free(why);
        /* and without a message wanted */
        ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_map_parse(parse_cases[_i].mapby,
                                                            parse_cases[_i].bindto, &pol, NULL));
    }
}
END_TEST

/* ---- mapping and binding on TOPO_A ------------------------------------------------------------ */

static const struct {
    uint32_t np;
    const char *mapby, *bindto;
    bool oversub; /* the --oversubscribe flag */
    int rc;
    wu_rte_bindto_t bind; /* as applied */
    const char *cpus;     /* per rank */
} map_cases[] = {
    /* defaults: core for np <= 2, package above, none when oversubscribed */
    {1, NULL, NULL, false, WU_SUCCESS, WU_RTE_BIND_CORE, "0-1"},
    {2, NULL, NULL, false, WU_SUCCESS, WU_RTE_BIND_CORE, "0-1 2-3"},
    {4, NULL, NULL, false, WU_SUCCESS, WU_RTE_BIND_PACKAGE, "0-7 0-7 0-7 0-7"},
    {8, NULL, NULL, false, WU_SUCCESS, WU_RTE_BIND_PACKAGE, "0-7 0-7 0-7 0-7 8-15 8-15 8-15 8-15"},
    {9, NULL, NULL, false, WU_ERR_OUT_OF_RESOURCE, 0, NULL},
    {9, NULL, NULL, true, WU_SUCCESS, WU_RTE_BIND_NONE, "- - - - - - - - -"},
    {9, "core:OVERSUBSCRIBE", NULL, false, WU_SUCCESS, WU_RTE_BIND_NONE, "- - - - - - - - -"},
    {9, "core:NOOVERSUBSCRIBE", NULL, false, WU_ERR_OUT_OF_RESOURCE, 0, NULL},
    {9, "core", "core", false, WU_ERR_OUT_OF_RESOURCE, 0, NULL},
    /* explicit binding while oversubscribed: ranks share cores */
    {9, "core:oversubscribe", "core", false, WU_SUCCESS, WU_RTE_BIND_CORE,
     "0-1 2-3 4-5 6-7 8-9 10-11 12-13 14-15 0-1"},
    {16, "core", "hwthread", true, WU_SUCCESS, WU_RTE_BIND_HWTHREAD,
     "0 2 4 6 8 10 12 14 1 3 5 7 9 11 13 15"},
    /* a given map-by object is the default binding */
    {4, "core", NULL, false, WU_SUCCESS, WU_RTE_BIND_CORE, "0-1 2-3 4-5 6-7"},
    {4, "package", NULL, false, WU_SUCCESS, WU_RTE_BIND_PACKAGE, "0-7 8-15 0-7 8-15"},
    {4, "hwthread", NULL, false, WU_SUCCESS, WU_RTE_BIND_HWTHREAD, "0 1 2 3"},
    {4, "numa", NULL, false, WU_SUCCESS, WU_RTE_BIND_NUMA, "0-15 0-15 0-15 0-15"},
    {2, "slot", NULL, false, WU_SUCCESS, WU_RTE_BIND_CORE, "0-1 2-3"},
    {3, "slot", NULL, false, WU_SUCCESS, WU_RTE_BIND_PACKAGE, "0-7 0-7 0-7"},
    /* package/socket deal round-robin, each rank on the next free core of its package */
    {3, "socket", "core", false, WU_SUCCESS, WU_RTE_BIND_CORE, "0-1 8-9 2-3"},
    {4, "package", "hwthread", false, WU_SUCCESS, WU_RTE_BIND_HWTHREAD, "0 8 2 10"},
    {9, "package:OVERSUBSCRIBE", "core", false, WU_SUCCESS, WU_RTE_BIND_CORE,
     "0-1 8-9 2-3 10-11 4-5 12-13 6-7 14-15 0-1"},
    /* hwthread: 16 slots */
    {16, "hwthread", NULL, false, WU_SUCCESS, WU_RTE_BIND_HWTHREAD,
     "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"},
    {17, "hwthread", NULL, false, WU_ERR_OUT_OF_RESOURCE, 0, NULL},
    {4, "hwthread", "core", false, WU_SUCCESS, WU_RTE_BIND_CORE, "0-1 0-1 2-3 2-3"},
    {4, "SLOT", "none", false, WU_SUCCESS, WU_RTE_BIND_NONE, "- - - -"},
    {1, "core", "package", false, WU_SUCCESS, WU_RTE_BIND_PACKAGE, "0-7"},
};

START_TEST(map_topo_a)
{
    wu_rte_topo_t *t = synth(TOPO_A);
    wu_rte_placement_t *p = map(t, map_cases[_i].np, map_cases[_i].mapby, map_cases[_i].bindto,
                                map_cases[_i].oversub, map_cases[_i].rc);
    if (NULL != p) {
        char *s = cpulists(p);
        ck_assert_str_eq(map_cases[_i].cpus, s);
        ck_assert_int_eq(map_cases[_i].bind, p->bind);
        ck_assert_uint_eq(map_cases[_i].np, p->np);
        ck_assert_uint_eq(
            NULL != map_cases[_i].mapby && 0 == strncasecmp("hwthread", map_cases[_i].mapby, 8) ? 16
                                                                                                : 8,
            p->nslots);
        ck_assert_int_eq(p->np > p->nslots, p->oversubscribed);
        free(s);
        wu_rte_placement_free(p);
    }
    wu_rte_topo_free(t);
}
END_TEST

START_TEST(map_bad_args)
{
    wu_rte_topo_t *t = synth(TOPO_A);
    wu_rte_policy_t pol;
    wu_rte_placement_t *p = (wu_rte_placement_t *)&pol;
    char *l = (char *)"stale";
    ck_assert_int_eq(WU_SUCCESS, wu_rte_map_parse(NULL, NULL, &pol, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_map(t, 0, &pol, false, &p));
    ck_assert_ptr_null(p);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_map(NULL, 1, &pol, false, &p));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_map(t, 1, NULL, false, &p));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_map(t, 1, &pol, false, NULL));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_map(t, 2, &pol, false, &p));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_map_cpulist(p, 2, &l));
    ck_assert_ptr_null(l);
    ck_assert_ptr_null(wu_rte_map_binding_str(t, p, 2, 2, "h", 1));
    wu_rte_placement_free(p);
    wu_rte_placement_free(NULL);
    wu_rte_topo_free(t);
    wu_rte_topo_free(NULL);
}
END_TEST

/* ---- locality strings --------------------------------------------------------------------- */

/* One rank of a job mapped on a synthetic topology, and the text expected for it. */
typedef struct {
    const char *topo;
    uint32_t np;
    const char *mapby, *bindto;
    uint32_t rank;
    const char *want; /* NULL: none (unbound) */
} rank_case_t;

/* Load the case's topology into *t and map its job. */
static wu_rte_placement_t *map_case(const rank_case_t *c, wu_rte_topo_t **t)
{
    *t = synth(c->topo);
    return map(*t, c->np, c->mapby, c->bindto, false, WU_SUCCESS);
}

static const rank_case_t loc_cases[] = {
    {TOPO_A, 1, NULL, NULL, 0, "NM0:SK0:CR0:HT0-1"},
    {TOPO_A, 4, NULL, NULL, 3, "NM0:SK0:CR0-3:HT0-7"},
    {TOPO_A, 4, "package", "core", 1, "NM0:SK1:CR4:HT8-9"},
    {TOPO_A, 4, "hwthread", NULL, 3, "NM0:SK0:CR1:HT3"},
    {TOPO_A, 4, NULL, "none", 0, NULL},
    {TOPO_B, 1, NULL, NULL, 0, "NM0:SK0:L30:L20:L10:CR0:HT0-1"},
    {TOPO_B, 6, "core", NULL, 5, "NM1:SK1:L31:L25:L15:CR5:HT10-11"},
    {TOPO_B, 8, NULL, NULL, 7, "NM1:SK1:L31:L24-7:L14-7:CR4-7:HT8-15"},
    {TOPO_B, 4, "hwthread", NULL, 3, "NM0:SK0:L30:L21:L11:CR1:HT3"},
    {TOPO_B, 2, "numa", NULL, 1, "NM1:SK1:L31:L24-7:L14-7:CR4-7:HT8-15"},
};

START_TEST(locality_strings)
{
    wu_rte_topo_t *t;
    wu_rte_placement_t *p = map_case(&loc_cases[_i], &t);
    const char *got = p->procs[loc_cases[_i].rank].locstr;
    if (NULL == loc_cases[_i].want) {
        ck_assert_ptr_null(got);
    } else {
        ck_assert_ptr_nonnull(got);
        ck_assert_str_eq(loc_cases[_i].want, got);
    }
    wu_rte_placement_free(p);
    wu_rte_topo_free(t);
}
END_TEST

/* ---- --report-bindings -------------------------------------------------------------------- */

static const rank_case_t report_cases[] = {
    {TOPO_A, 1, NULL, NULL, 0,
     "[node1:4242] MCW rank 0 bound to socket 0[core 0[hwt 0-1]]: [BB/../../..][../../../..]"},
    {TOPO_A, 4, "package", "core", 1,
     "[node1:4242] MCW rank 1 bound to socket 1[core 4[hwt 0-1]]: [../../../..][BB/../../..]"},
    {TOPO_A, 4, "hwthread", NULL, 3,
     "[node1:4242] MCW rank 3 bound to socket 0[core 1[hwt 1]]: [../.B/../..][../../../..]"},
    {TOPO_A, 8, NULL, NULL, 5,
     "[node1:4242] MCW rank 5 bound to socket 1[core 4[hwt 0-1]], socket 1[core 5[hwt 0-1]], "
     "socket 1[core 6[hwt 0-1]], socket 1[core 7[hwt 0-1]]: [../../../..][BB/BB/BB/BB]"},
    {TOPO_A, 4, NULL, "none", 2,
     "[node1:4242] MCW rank 2 is not bound (or bound to all available processors)"},
    /* bound to the only NUMA node, i.e. to everything: reads as not bound, as in ORTE */
    {TOPO_A, 4, "numa", NULL, 0,
     "[node1:4242] MCW rank 0 is not bound (or bound to all available processors)"},
    {"core:3 pu:4", 2, "hwthread", NULL, 1,
     "[node1:4242] MCW rank 1 bound to socket 0[core 0[hwt 1]]: [.B../..../....]"},
};

START_TEST(report_bindings)
{
    wu_rte_topo_t *t;
    wu_rte_placement_t *p = map_case(&report_cases[_i], &t);
    char *line =
        wu_rte_map_binding_str(t, p, report_cases[_i].rank, report_cases[_i].rank, "node1", 4242);
    ck_assert_ptr_nonnull(line);
    ck_assert_str_eq(report_cases[_i].want, line);
    free(line);
    wu_rte_placement_free(p);
    wu_rte_topo_free(t);
}
END_TEST

/* The spreading part of --map-by: node and ppr:N:node, with modifiers; on the node by slot. */
START_TEST(parse_spread)
{
    wu_rte_policy_t pol;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_map_parse(NULL, NULL, &pol, NULL));
    ck_assert_int_eq(WU_RTE_JM_BYSLOT, pol.span);
    ck_assert_int_eq(WU_SUCCESS, wu_rte_map_parse("NODE", NULL, &pol, NULL));
    ck_assert_int_eq(WU_RTE_JM_BYNODE, pol.span);
    ck_assert_int_eq(WU_RTE_MAP_SLOT, pol.map);
    ck_assert(!pol.map_given); /* the default binding stays the rule of np */
    ck_assert_int_eq(WU_SUCCESS, wu_rte_map_parse("node:OVERSUBSCRIBE", NULL, &pol, NULL));
    ck_assert(pol.oversubscribe);
    ck_assert_int_eq(WU_SUCCESS, wu_rte_map_parse("ppr:3:node", "core", &pol, NULL));
    ck_assert_int_eq(WU_RTE_JM_PPR, pol.span);
    ck_assert_uint_eq(3, pol.ppr);
    ck_assert(!pol.oversubscribe);
    ck_assert_int_eq(WU_RTE_BIND_CORE, pol.bind);
    ck_assert_int_eq(WU_SUCCESS, wu_rte_map_parse("ppr:2:node:oversubscribe", NULL, &pol, NULL));
    ck_assert_uint_eq(2, pol.ppr);
    ck_assert(pol.oversubscribe);
}
END_TEST

/* Split text into lines (empty ones kept). */
static char **lines_of(const char *text)
{
    char **l = wu_argv_split_with_empty(text, '\n');
    ck_assert_ptr_nonnull(l);
    return l;
}

START_TEST(display_map)
{
    static const wu_rte_jm_host_t hosts[] = {{"node1", 8}, {"node2", 8}};
    const wu_rte_jm_opts_t o = {.span = WU_RTE_JM_BYNODE};
    wu_rte_topo_t *t = synth(TOPO_A);
    wu_rte_placement_t *p = map(t, 2, "socket", "core", false, WU_SUCCESS);
    wu_rte_jobmap_t *jm = NULL;
    const uint32_t apps[] = {0, 0, 1};
    char *s, **lines;

    /* ranks 0 and 2 on node1 (local ranks 0, 1), rank 1 on node2 */
    ck_assert_int_eq(WU_SUCCESS, wu_rte_jobmap_build(hosts, 2, 3, &o, &jm, NULL));
    s = wu_rte_map_display(t, p, jm, 0, "job.1", apps);
    ck_assert_ptr_nonnull(s);
    lines = lines_of(s);
    ck_assert_str_eq("", lines[0]);
    ck_assert_str_eq(" Data for JOB [job.1] offset 0 Total slots allocated 16", lines[1]);
    ck_assert_str_eq(" ========================   JOB MAP   ========================", lines[3]);
    ck_assert_str_eq(" Data for node: node1\tNum slots: 8\tMax slots: 0\tNum procs: 2", lines[5]);
    ck_assert_str_eq(" \tProcess OMPI jobid: [job.1] App: 0 Process rank: 0 Bound: "
                     "socket 0[core 0[hwt 0-1]]:[BB/../../..][../../../..]",
                     lines[6]);
    ck_assert_str_eq(" \tProcess OMPI jobid: [job.1] App: 1 Process rank: 2 Bound: "
                     "socket 1[core 4[hwt 0-1]]:[../../../..][BB/../../..]",
                     lines[7]);
    ck_assert_str_eq(" Data for node: node2\tNum slots: 8\tMax slots: 0\tNum procs: 1", lines[9]);
    ck_assert_str_eq(" \tProcess OMPI jobid: [job.1] App: 0 Process rank: 1 Bound: N/A", lines[10]);
    ck_assert_str_eq(" =============================================================", lines[12]);
    ck_assert_int_eq(14, wu_argv_count(lines)); /* ... and the final newline */
    wu_argv_free(lines);
    free(s);
    wu_rte_placement_free(p);

    /* unbound ranks of this node; no rank here at all (no topology, no placement) */
    p = map(t, 2, NULL, "none", false, WU_SUCCESS);
    s = wu_rte_map_display(t, p, jm, 0, "j", NULL);
    ck_assert_ptr_nonnull(strstr(s, "Process rank: 2 Bound: UNBOUND\n"));
    free(s);
    s = wu_rte_map_display(NULL, NULL, jm, UINT32_MAX, "j", NULL);
    ck_assert_ptr_nonnull(strstr(s, "Process rank: 0 Bound: N/A\n"));
    ck_assert_ptr_nonnull(strstr(s, "Process rank: 1 Bound: N/A\n"));
    free(s);
    ck_assert_ptr_null(wu_rte_map_display(t, p, NULL, 0, "j", NULL));
    wu_rte_placement_free(p);
    wu_rte_jobmap_free(jm);
    wu_rte_topo_free(t);
}
END_TEST

/* ---- topology --------------------------------------------------------------------------------- */

START_TEST(xml_roundtrip)
{
    wu_rte_topo_t *t = synth(TOPO_B), *back = NULL;
    wu_rte_placement_t *p1, *p2;
    char *xml = NULL, *l1, *l2;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_topo_xml(t, &xml));
    ck_assert_ptr_nonnull(xml);
    ck_assert_ptr_nonnull(strstr(xml, "<topology version=\"2.0\">"));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_topo_load_xml(xml, &back));
    ck_assert_uint_eq(8, wu_rte_topo_slots(back, NULL));
    /* the same placement and text from the reloaded copy */
    p1 = map(t, 8, NULL, NULL, false, WU_SUCCESS);
    p2 = map(back, 8, NULL, NULL, false, WU_SUCCESS);
    for (uint32_t r = 0; r < 8; r++) {
        ck_assert_str_eq(p1->procs[r].locstr, p2->procs[r].locstr);
        l1 = wu_rte_map_binding_str(t, p1, r, r, "h", 1);
        l2 = wu_rte_map_binding_str(back, p2, r, r, "h", 1);
        ck_assert_str_eq(l1, l2);
        free(l1);
        free(l2);
    }
    wu_rte_placement_free(p1);
    wu_rte_placement_free(p2);
    wu_rte_topo_free(back);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_topo_load_xml("<not xml", &back));
    ck_assert_ptr_null(back);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_topo_xml(t, NULL));
    free(xml);
    wu_rte_topo_free(t);
}
END_TEST

static const struct {
    const char *synthetic, *xmlfile;
    int rc;
    uint32_t cores, pus;
} env_cases[] = {
    {TOPO_A, NULL, WU_SUCCESS, 8, 16},
    {"core:3 pu:1", NULL, WU_SUCCESS, 3, 3},
    {"package:2 numa:2 core:3 pu:4", NULL, WU_SUCCESS, 12, 48},
    {"bogus:7", NULL, WU_ERR_BAD_PARAM, 0, 0},
    {TOPO_A, "/nonexistent/wireup-topology.xml", WU_ERR_BAD_PARAM, 0, 0},
};

START_TEST(load_from_environment)
{
    wu_rte_topo_t *t = NULL;
    wu_rte_policy_t hw = {.map = WU_RTE_MAP_HWTHREAD};
    /* forked test: the environment change stays in this test */
    ck_assert_int_eq(0, setenv("HWLOC_SYNTHETIC", env_cases[_i].synthetic, 1));
    if (NULL != env_cases[_i].xmlfile) {
        ck_assert_int_eq(0, setenv("HWLOC_XMLFILE", env_cases[_i].xmlfile, 1));
    } else {
        ck_assert_int_eq(0, unsetenv("HWLOC_XMLFILE"));
    }
    ck_assert_int_eq(env_cases[_i].rc, wu_rte_topo_load(&t));
    if (WU_SUCCESS == env_cases[_i].rc) {
        ck_assert_uint_eq(env_cases[_i].cores, wu_rte_topo_slots(t, NULL));
        ck_assert_uint_eq(env_cases[_i].pus, wu_rte_topo_slots(t, &hw));
        ck_assert_ptr_nonnull(wu_rte_topo_hwloc(t));
        wu_rte_topo_free(t);
    } else {
        ck_assert_ptr_null(t);
    }
}
END_TEST

/* This machine's own topology: whatever it is, mapping one rank per core works. */
START_TEST(load_this_machine)
{
    wu_rte_topo_t *t = NULL;
    wu_rte_policy_t pol;
    wu_rte_placement_t *p = NULL;
    uint32_t n;
    ck_assert_int_eq(0, unsetenv("HWLOC_SYNTHETIC"));
    ck_assert_int_eq(0, unsetenv("HWLOC_XMLFILE"));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_topo_load(&t));
    n = wu_rte_topo_slots(t, NULL);
    ck_assert_uint_gt(n, 0);
    ck_assert_int_eq(WU_SUCCESS, wu_rte_map_parse("core", NULL, &pol, NULL));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_map(t, n, &pol, false, &p));
    for (uint32_t r = 0; r < n; r++) {
        ck_assert_ptr_nonnull(p->procs[r].cpulist);
    }
    wu_rte_placement_free(p);
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE, wu_rte_map(t, n + 1, &pol, false, &p));
    wu_rte_topo_free(t);
}
END_TEST

/* ---- messages ------------------------------------------------------------------------------- */

START_TEST(not_enough_slots_text)
{
    char *s = wu_show_help_string("help-wu-map.txt", "not-enough-slots", false, 9u, "./ring",
                                  "wrun", "core", 8u, 8u);
    ck_assert_ptr_nonnull(s);
    ck_assert_msg(NULL != strstr(s, "There are not enough slots available in the system to "
                                    "satisfy the 9\nslots that were requested by the "
                                    "application:\n\n  ./ring\n"),
                  "%s", s);
    ck_assert_ptr_nonnull(strstr(s, "wrun counts one slot per core of this node and found 8"));
    ck_assert_ptr_nonnull(strstr(s, "--oversubscribe"));
    ck_assert_ptr_nonnull(strstr(s, "--map-by core:OVERSUBSCRIBE"));
    ck_assert_ptr_null(strstr(s, "is missing"));
    free(s);
    s = wu_show_help_string("help-wu-map.txt", "topology-failed", false, "wrun", "bad parameter");
    ck_assert_ptr_nonnull(strstr(s, "wrun could not learn the processor layout"));
    free(s);
}
END_TEST

static Suite *rte_map_suite(void)
{
    Suite *s = suite_create("rte_map");
    TCase *tc = tcase_create("policy");
    tcase_add_loop_test(tc, parse_policies, 0, sizeof parse_cases / sizeof parse_cases[0]);
    suite_add_tcase(s, tc);

    tc = tcase_create("map");
    tcase_add_loop_test(tc, map_topo_a, 0, sizeof map_cases / sizeof map_cases[0]);
    tcase_add_test(tc, map_bad_args);
    tcase_add_loop_test(tc, locality_strings, 0, sizeof loc_cases / sizeof loc_cases[0]);
    suite_add_tcase(s, tc);

    tc = tcase_create("text");
    tcase_add_loop_test(tc, report_bindings, 0, sizeof report_cases / sizeof report_cases[0]);
    tcase_add_test(tc, display_map);
    tcase_add_test(tc, parse_spread);
    tcase_add_test(tc, not_enough_slots_text);
    suite_add_tcase(s, tc);

    tc = tcase_create("topology");
    tcase_add_test(tc, xml_roundtrip);
    tcase_add_loop_test(tc, load_from_environment, 0, sizeof env_cases / sizeof env_cases[0]);
    tcase_add_test(tc, load_this_machine);
    suite_add_tcase(s, tc);
    return s;
}

WU_TEST_MAIN(rte_map_suite)
