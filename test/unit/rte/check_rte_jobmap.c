/* SPDX-License-Identifier: BSD-3-Clause */
/* check_rte_jobmap.c -- the job map: spreading ranks over nodes by slot, by node and per node,
 * oversubscription, local and node ranks, and the strings registration derives from it; the
 * host lists users give (-H merging, hostfiles and their errors, -H as a hostfile filter) and
 * the default number of processes over them. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "pmix/rte/wu_rte.h"
#include "pmix/rte/wu_rte_internal.h"
#include "pmix/rte/map/wu_rte_jobmap.h"

#include "test/support/wu_test.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const wu_rte_jm_host_t three[] = {{"n0", 2}, {"n1", 2}, {"n2", 3}};

/* Ranks of each node as the proc list string: "0,1;2,3". */
static const struct {
    const char *what;
    uint32_t np;
    wu_rte_jm_span_t span;
    uint32_t ppr;
    bool over;
    const char *procs; /* wu_rte_jobmap_proc_list */
    const char *nodes; /* wu_rte_jobmap_node_list */
    bool oversubscribed;
} cases[] = {
    {"by slot, fits", 5, WU_RTE_JM_BYSLOT, 0, false, "0,1;2,3;4", "n0,n1,n2", false},
    {"by slot, one node", 2, WU_RTE_JM_BYSLOT, 0, false, "0,1", "n0", false},
    {"by slot, all slots", 7, WU_RTE_JM_BYSLOT, 0, false, "0,1;2,3;4,5,6", "n0,n1,n2", false},
    {"by node", 5, WU_RTE_JM_BYNODE, 0, false, "0,3;1,4;2", "n0,n1,n2", false},
    {"by node, skipping full", 7, WU_RTE_JM_BYNODE, 0, false, "0,3;1,4;2,5,6", "n0,n1,n2", false},
    {"by slot, oversubscribed", 9, WU_RTE_JM_BYSLOT, 0, true, "0,1,7;2,3,8;4,5,6", "n0,n1,n2",
     true},
    {"ppr 1", 3, WU_RTE_JM_PPR, 1, false, "0;1;2", "n0,n1,n2", false},
    {"ppr 2, fewer ranks", 3, WU_RTE_JM_PPR, 2, false, "0,1;2", "n0,n1", false},
    {"ppr 4 over the slots", 8, WU_RTE_JM_PPR, 4, true, "0,1,2,3;4,5,6,7", "n0,n1", true},
    {"ppr 1 on every node (--pernode)", 3, WU_RTE_JM_PPR, 1, false, "0;1;2", "n0,n1,n2", false},
    {"by node, oversubscribed", 9, WU_RTE_JM_BYNODE, 0, true, "0,3,7;1,4,8;2,5,6", "n0,n1,n2",
     true},
    {"by node, one rank", 1, WU_RTE_JM_BYNODE, 0, false, "0", "n0", false},
};

START_TEST(spreads)
{
    wu_rte_jm_opts_t o = {
        .span = cases[_i].span, .ppr = cases[_i].ppr, .oversubscribe = cases[_i].over};
    wu_rte_jobmap_t *map = NULL;
    char *procs, *nodes;

    ck_assert_int_eq(WU_SUCCESS, wu_rte_jobmap_build(three, 3, cases[_i].np, &o, &map, NULL));
    procs = wu_rte_jobmap_proc_list(map);
    nodes = wu_rte_jobmap_node_list(map);
    ck_assert_msg(0 == strcmp(procs, cases[_i].procs), "%s: procs %s, want %s", cases[_i].what,
                  procs, cases[_i].procs);
    ck_assert_msg(0 == strcmp(nodes, cases[_i].nodes), "%s: nodes %s, want %s", cases[_i].what,
                  nodes, cases[_i].nodes);
    ck_assert_int_eq(cases[_i].oversubscribed, map->oversubscribed);
    /* every rank's node, local rank and node rank agree with the node's rank list */
    for (uint32_t r = 0; r < map->np; r++) {
        const wu_rte_jm_node_t *n = &map->nodes[map->procs[r].node];
        ck_assert_uint_eq(r, n->ranks[map->procs[r].local_rank]);
        ck_assert_uint_eq(map->procs[r].local_rank, map->procs[r].node_rank);
        ck_assert_ptr_eq(n, wu_rte_jobmap_node(map, n->name));
        ck_assert_uint_eq(map->procs[r].node, n->id);
    }
    free(procs);
    free(nodes);
    wu_rte_jobmap_free(map);
}
END_TEST

START_TEST(refuses)
{
    wu_rte_jm_opts_t o = {.span = WU_RTE_JM_BYSLOT};
    wu_rte_jobmap_t *map = (wu_rte_jobmap_t *)0x1;
    wu_rte_jm_host_t dup[] = {{"a", 1}, {"a", 1}}, zero[] = {{"a", 0}}, noname[] = {{NULL, 1}};
    char *why = NULL;

    /* more ranks than slots without oversubscription: the reason says so */
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE, wu_rte_jobmap_build(three, 3, 8, &o, &map, &why));
    ck_assert_ptr_nonnull(why);
    ck_assert_ptr_nonnull(strstr(why, "8 processes do not fit in the 7 slots of 3 nodes"));
    free(why);
    o.span = WU_RTE_JM_PPR;
    o.ppr = 2;
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE, wu_rte_jobmap_build(three, 3, 7, &o, &map, &why));
    ck_assert_ptr_nonnull(strstr(why, "fewer than the 7 asked for"));
    free(why);
    o.ppr = 3; /* more than n0's 2 slots */
    ck_assert_int_eq(WU_ERR_OUT_OF_RESOURCE, wu_rte_jobmap_build(three, 3, 3, &o, &map, &why));
    ck_assert_ptr_nonnull(strstr(why, "3 processes per node exceed the 2 slots of node n0"));
    free(why);
    o.ppr = 0;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(three, 3, 1, &o, &map, NULL));
    o.span = WU_RTE_JM_BYSLOT;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(dup, 2, 1, &o, &map, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(zero, 1, 1, &o, &map, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(noname, 1, 1, &o, &map, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(three, 3, 0, &o, &map, NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_jobmap_build(three, 0, 1, &o, &map, NULL));
    ck_assert_ptr_null(wu_rte_jobmap_node(NULL, "n0"));
}
END_TEST

START_TEST(peers_string)
{
    wu_rte_jm_opts_t o = {.span = WU_RTE_JM_BYNODE};
    wu_rte_jm_host_t big[] = {{"x", 1000}, {"y", 1000}};
    wu_rte_jobmap_t *map = NULL;
    char *p;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_jobmap_build(big, 2, 2000, &o, &map, NULL));
    p = wu_rte_jobmap_peers(wu_rte_jobmap_node(map, "y"));
    ck_assert_ptr_nonnull(p);
    ck_assert(0 == strncmp(p, "1,3,5,", 6));
    ck_assert_ptr_nonnull(strstr(p, ",1997,1999"));
    ck_assert_uint_eq('9', p[strlen(p) - 1]);
    free(p);
    wu_rte_jobmap_free(map);
}
END_TEST

/* ---- host lists ------------------------------------------------------------------------------ */

/* The list as "name:slots[+]" items ('+' when the count was given), comma-separated. */
static void hosts_are(const wu_rte_hostlist_t *l, const char *want)
{
    char got[512] = "";
    size_t len = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        len += (size_t)snprintf(got + len, sizeof got - len, "%s%s:%u%s", 0 == i ? "" : ",",
                                l->ent[i].name, l->ent[i].slots, l->ent[i].slots_given ? "+" : "");
    }
    ck_assert_str_eq(want, got);
}

/* This node's name as the lists store it. */
static const char *me(void)
{
    static char host[256];
    if (0 != gethostname(host, sizeof host - 1)) {
        snprintf(host, sizeof host, "localhost");
    }
    return host;
}

START_TEST(host_args)
{
    wu_rte_hostlist_t l = {0};
    char want[600];

    ck_assert_int_eq(WU_SUCCESS, wu_rte_hosts_parse_arg(&l, "a,b:4", NULL));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_hosts_parse_arg(&l, "c:2,a", NULL));
    /* a named again adds its slot; the count of b is given */
    hosts_are(&l, "a:2,b:4+,c:2+");
    ck_assert_int_eq(WU_SUCCESS, wu_rte_hosts_parse_arg(&l, "a:3,,b", NULL));
    hosts_are(&l, "a:5+,b:5+,c:2+");
    /* errors leave the list as it was */
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_hosts_parse_arg(&l, "d,a:0", NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_hosts_parse_arg(&l, "d:x", NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_hosts_parse_arg(&l, "d:70000", NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_hosts_parse_arg(&l, ":2", NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_hosts_parse_arg(&l, "", NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_hosts_parse_arg(&l, ",", NULL));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_hosts_parse_arg(&l, "d:-1", NULL));
    hosts_are(&l, "a:5+,b:5+,c:2+");
    wu_rte_hosts_free(&l);
    /* this node's names are one host */
    ck_assert(wu_rte_host_is_local("localhost"));
    ck_assert(wu_rte_host_is_local(me()));
    ck_assert(!wu_rte_host_is_local("no-such-host.invalid"));
    ck_assert(!wu_rte_host_is_local(""));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_hosts_parse_arg(&l, "localhost:2,x", NULL));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_hosts_parse_arg(&l, me(), NULL));
    snprintf(want, sizeof want, "%s:3+,x:1", me());
    hosts_are(&l, want);
    wu_rte_hosts_free(&l);
}
END_TEST

static char hostfile[64];
static const char *write_hostfile(const char *text);

/* One check of host names for -H and hostfiles: nothing that a launch agent could take as an
 * option, or a shell or ssh as syntax, is a host; both sources say so in the same words. */
static const char *bad_names[] = {
    "-oProxyCommand=/tmp/x",
    "-l",
    ".hidden",
    "a;touch x",
    "a b",
    "$(id)",
    "a`b`",
    "h|x",
    "a&b",
    "a'b",
    "a\"b",
    "a\\b",
    "a/b",
    "@h",
    "u@",
    "-u@h",
    "u@-h",
    "a@b@c",
    "h\tt",
};

START_TEST(host_names)
{
    wu_rte_hostlist_t l = {0};
    char *why = NULL, *fwhy = NULL, text[128];
    const char *name = bad_names[_i];
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_host_name_check(name, &why));
    ck_assert_ptr_nonnull(why);
    ck_assert_msg(NULL != strstr(why, "is not a host name: use letters, digits"), "why: %s", why);
    free(why);
    why = NULL;
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_hosts_parse_arg(&l, name, &why));
    ck_assert_ptr_nonnull(why);
    ck_assert_uint_eq(0, l.n);
    if (NULL == strpbrk(name, " \t=,:")) {
        /* the same words from a hostfile's line (after FILE:LINE: ) */
        snprintf(text, sizeof text, "good1\n%s slots=2\n", name);
        ck_assert_int_eq(WU_ERR_BAD_PARAM,
                         wu_rte_hosts_parse_file(&l, write_hostfile(text), &fwhy));
        ck_assert_ptr_nonnull(fwhy);
        ck_assert_msg(NULL != strstr(fwhy, ":2: ") && 0 == strcmp(strstr(fwhy, ":2: ") + 4, why),
                      "hostfile: %s, -H: %s", fwhy, why);
        free(fwhy);
        unlink(hostfile);
        wu_rte_hosts_free(&l);
    }
    free(why);
}
END_TEST

START_TEST(host_names_good)
{
    const char *good[] = {"node1",      "n-2.example.org", "a_b", "198.18.0.3",
                          "user@node2", "u.s-e_r@h",       "x"};
    char long_name[300];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        ck_assert_msg(WU_SUCCESS == wu_rte_host_name_check(good[i], NULL), "%s", good[i]);
    }
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_host_name_check(long_name, NULL));
    long_name[255] = '\0';
    ck_assert_int_eq(WU_SUCCESS, wu_rte_host_name_check(long_name, NULL));
}
END_TEST

/* Write text to a new temporary hostfile (its name in hostfile). */
static const char *write_hostfile(const char *text)
{
    int fd;
    snprintf(hostfile, sizeof hostfile, "/tmp/wu_hostfile_XXXXXX");
    fd = mkstemp(hostfile);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq((ssize_t)strlen(text), write(fd, text, strlen(text)));
    close(fd);
    return hostfile;
}

START_TEST(hostfile_good)
{
    wu_rte_hostlist_t l = {0};
    char *why = (char *)"stale";
    const char *f = write_hostfile("# the cluster\n"
                                   "n1 slots=4\n"
                                   "\n"
                                   "   n2\tslots=2 max_slots=8   # a comment\n"
                                   "n3\n"
                                   "n1 slots=2\r\n"
                                   "n4 max-slots=3\n"
                                   "  # only a comment\n"
                                   "n5 slots=1");
    ck_assert_int_eq(WU_SUCCESS, wu_rte_hosts_parse_file(&l, f, &why));
    ck_assert_ptr_null(why);
    /* n3 and n4 have no count: 0, this node's count later */
    hosts_are(&l, "n1:6+,n2:2+,n3:0,n4:0,n5:1+");
    ck_assert_uint_eq(8, l.ent[1].max_slots);
    ck_assert_uint_eq(3, l.ent[3].max_slots);
    unlink(f);
    wu_rte_hosts_free(&l);
}
END_TEST

/* Bad hostfiles: the message names the file and the line. */
static const struct {
    const char *text;
    const char *why; /* after "FILE:" */
} bad_files[] = {
    {"n1\nn2 slots=x\n", "2: slots=x is not a count from 1 to 65535"},
    {"n1 slots=0\n", "1: slots=0 is not a count"},
    {"# c\n\nn1 cpus=2\n", "3: unknown keyword 'cpus' (valid: slots, max_slots)"},
    {"n1 4\n", "1: '4' is not a keyword=value setting"},
    {"slots=2 n1\n", "1: 'slots=2' is not a host name"},
    {"n1 slots=4 max_slots=2\n", "1: max_slots=2 is less than slots=4"},
    {"n1 slots=\n", "1: slots= is not a count"},
    {"# nothing\n\n", " the file names no host"},
};

START_TEST(hostfile_bad)
{
    wu_rte_hostlist_t l = {0};
    char *why = NULL, want[256];
    const char *f = write_hostfile(bad_files[_i].text);
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_hosts_parse_file(&l, f, &why));
    ck_assert_ptr_nonnull(why);
    snprintf(want, sizeof want, "%s:%s", f, bad_files[_i].why);
    ck_assert_msg(0 == strncmp(why, want, strlen(want)), "why: %s, want %s", why, want);
    free(why);
    unlink(f);
    wu_rte_hosts_free(&l);
}
END_TEST

START_TEST(hostfile_missing)
{
    wu_rte_hostlist_t l = {0};
    char *why = NULL;
    ck_assert_int_eq(WU_ERR_NOT_FOUND,
                     wu_rte_hosts_parse_file(&l, "/nonexistent/wu_hostfile", &why));
    ck_assert_ptr_nonnull(why);
    ck_assert_str_eq("cannot read /nonexistent/wu_hostfile: No such file or directory", why);
    free(why);
    ck_assert_uint_eq(0, l.n);
}
END_TEST

/* -H with --hostfile: -H picks hosts of the file (file order), and may give their counts. */
START_TEST(host_filter)
{
    wu_rte_hostlist_t file = {0}, sel = {0};
    const char *missing = NULL, *f = write_hostfile("n1 slots=4\nn2\nn3 slots=2\n");
    wu_rte_jm_host_t *jm;

    ck_assert_int_eq(WU_SUCCESS, wu_rte_hosts_parse_file(&file, f, NULL));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_hosts_parse_arg(&sel, "n3,n2:3,n9", NULL));
    ck_assert_int_eq(WU_ERR_NOT_FOUND, wu_rte_hosts_filter(&file, &sel, &missing));
    ck_assert_str_eq("n9", missing);
    hosts_are(&file, "n1:4+,n2:0,n3:2+"); /* unchanged */
    wu_rte_hosts_free(&sel);
    ck_assert_int_eq(WU_SUCCESS, wu_rte_hosts_parse_arg(&sel, "n3,n2:3", NULL));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_hosts_filter(&file, &sel, &missing));
    hosts_are(&file, "n2:3+,n3:2+");
    jm = wu_rte_hosts_jm(&file);
    ck_assert_ptr_nonnull(jm);
    ck_assert_str_eq("n2", jm[0].name);
    ck_assert_uint_eq(3, jm[0].slots);
    ck_assert_uint_eq(2, jm[1].slots);
    free(jm);
    ck_assert_ptr_null(wu_rte_hosts_jm(&(wu_rte_hostlist_t){0}));
    unlink(f);
    wu_rte_hosts_free(&file);
    wu_rte_hosts_free(&sel);
}
END_TEST

/* -np not given: one per slot of every host (a host without a count has this node's), or ppr
 * per node. This node has 4 cores of 2 hwthreads (synthetic). */
static const struct {
    wu_rte_jm_host_t hosts[3];
    uint32_t nhosts;
    wu_rte_jm_span_t span;
    uint32_t ppr;
    const char *map_by;
    uint32_t np;
} np_cases[] = {
    {{{"a", 2}, {"b", 3}}, 2, WU_RTE_JM_BYSLOT, 0, NULL, 5},
    {{{"a", 2}, {"b", 0}}, 2, WU_RTE_JM_BYSLOT, 0, NULL, 6},
    {{{"a", 0}, {"b", 0}}, 2, WU_RTE_JM_BYSLOT, 0, "hwthread", 16},
    {{{"a", 2}, {"b", 3}, {"c", 1}}, 3, WU_RTE_JM_PPR, 2, NULL, 6},
    {{{"a", 2}, {"b", 3}}, 2, WU_RTE_JM_BYSLOT, 0, "ppr:3:node", 6},
    {{{"a", 2}, {"b", 3}}, 2, WU_RTE_JM_BYSLOT, 0, "node", 5},
    {{{"localhost", 1}, {"x", 0}}, 2, WU_RTE_JM_PPR, 1, NULL, 2},
    {{{0}}, 0, WU_RTE_JM_PPR, 3, NULL, 3}, /* this node alone, --npernode 3 */
    {{{0}}, 0, WU_RTE_JM_BYSLOT, 0, NULL, 4},
};

START_TEST(default_np)
{
    wu_rte_spec_t app = {.hosts = np_cases[_i].hosts,
                         .nhosts = np_cases[_i].nhosts,
                         .span = np_cases[_i].span,
                         .ppr = np_cases[_i].ppr,
                         .map_by = np_cases[_i].map_by};
    uint32_t np = 0;
    ck_assert_int_eq(0, setenv("HWLOC_SYNTHETIC", "package:1 core:4 pu:2", 1));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_default_np(&app, &np));
    ck_assert_uint_eq(np_cases[_i].np, np);
}
END_TEST

/* The launch tree: chunks of daemons, each started by its first, and the --spawn spec. */
START_TEST(launch_tree)
{
    uint32_t starts[10], lens[10], n;
    /* 10 daemons, radix 3: chunks of 4, 3, 3 */
    n = wu_rte_tree_chunks(10, 3, starts, lens);
    ck_assert_uint_eq(3, n);
    ck_assert_uint_eq(0, starts[0]);
    ck_assert_uint_eq(4, lens[0]);
    ck_assert_uint_eq(4, starts[1]);
    ck_assert_uint_eq(3, lens[1]);
    ck_assert_uint_eq(7, starts[2]);
    ck_assert_uint_eq(3, lens[2]);
    /* radix 0, or at least the count: flat, one each */
    ck_assert_uint_eq(4, wu_rte_tree_chunks(4, 0, starts, lens));
    ck_assert_uint_eq(1, lens[3]);
    ck_assert_uint_eq(4, wu_rte_tree_chunks(4, 64, starts, lens));
    /* radix 1: a chain */
    ck_assert_uint_eq(1, wu_rte_tree_chunks(5, 1, starts, lens));
    ck_assert_uint_eq(5, lens[0]);
    ck_assert_uint_eq(0, wu_rte_tree_chunks(0, 2, starts, lens));
}
END_TEST

START_TEST(launch_tree_spec)
{
    uint32_t nodes[] = {2, 7, 11}, *got = NULL, n = 0;
    char *hosts[] = {"node2", "n-7.lab", "x_11", NULL}, **ghosts = NULL;
    char *spec = wu_rte_tree_spec(nodes, hosts, 3);
    ck_assert_str_eq("2:node2,7:n-7.lab,11:x_11", spec);
    ck_assert_int_eq(WU_SUCCESS, wu_rte_tree_parse(spec, &got, &ghosts, &n));
    ck_assert_uint_eq(3, n);
    for (uint32_t i = 0; i < 3; i++) {
        ck_assert_uint_eq(nodes[i], got[i]);
        ck_assert_str_eq(hosts[i], ghosts[i]);
    }
    free(spec);
    free(got);
    wu_argv_free(ghosts);
    /* what a command line could carry that is not a spec */
    const char *bad[] = {"2",       ":node2",       "2:",           "x:node2",
                         "2:no de", "2:a;rm -rf /", "99999999999:a"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_tree_parse(bad[i], &got, &ghosts, &n));
        ck_assert_ptr_null(got);
        ck_assert_ptr_null(ghosts);
    }
}
END_TEST

/* in_list: kv is an entry of list */
static bool in_list(char **list, const char *kv)
{
    for (char **e = list; NULL != e && NULL != *e; e++) {
        if (0 == strcmp(*e, kv)) {
            return true;
        }
    }
    return false;
}

/* The variables for the daemons: small ones on the command line, a WU_* one over 4 KiB or past
 * 64 KiB in all in LAUNCH, one needed at start over 32 KiB refused by name. */
START_TEST(spawn_env)
{
    char big[5001], huge[40001], kv[40100], **cmd = NULL, **later = NULL, *toobig = NULL;
    size_t total = 0;
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    memset(huge, 'y', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    ck_assert_int_eq(0, setenv("WU_T_SMALL", "abc", 1));
    ck_assert_int_eq(0, setenv("WU_T_BIG", big, 1));
    ck_assert_int_eq(0, setenv("PMIX_MCA_t_mid", big, 1));
    ck_assert_int_eq(WU_SUCCESS, wu_rte_spawn_env(&cmd, &later, &toobig));
    ck_assert_ptr_null(toobig);
    ck_assert(in_list(cmd, "WU_T_SMALL=abc"));
    snprintf(kv, sizeof kv, "WU_T_BIG=%s", big);
    ck_assert(in_list(later, kv) && !in_list(cmd, kv));
    snprintf(kv, sizeof kv, "PMIX_MCA_t_mid=%s", big);
    ck_assert(in_list(cmd, kv) && !in_list(later, kv));
    wu_argv_free(cmd);
    wu_argv_free(later);
    /* 20 of 4000 characters: the command line takes what fits in 64 KiB, LAUNCH the rest */
    ck_assert_int_eq(0, unsetenv("WU_T_BIG"));
    big[4000] = '\0';
    for (int i = 0; i < 20; i++) {
        snprintf(kv, sizeof kv, "WU_T_A%d", i);
        ck_assert_int_eq(0, setenv(kv, big, 1));
    }
    ck_assert_int_eq(WU_SUCCESS, wu_rte_spawn_env(&cmd, &later, &toobig));
    ck_assert_int_gt(wu_argv_count(later), 0);
    for (char **e = cmd; NULL != e && NULL != *e; e++) {
        total += strlen(*e) + 3;
    }
    ck_assert_uint_le(total, WU_RTE_ENV_CMD_MAX);
    for (int i = 0; i < 20; i++) {
        snprintf(kv, sizeof kv, "WU_T_A%d=%s", i, big);
        ck_assert(in_list(cmd, kv) != in_list(later, kv));
    }
    wu_argv_free(cmd);
    wu_argv_free(later);
    /* a parameter of 40000 characters: wired needs it at start, refused by its name */
    ck_assert_int_eq(0, setenv("PMIX_MCA_t_huge", huge, 1));
    ck_assert_int_eq(WU_ERR_BAD_PARAM, wu_rte_spawn_env(&cmd, &later, &toobig));
    ck_assert_str_eq("PMIX_MCA_t_huge", toobig);
    ck_assert_ptr_null(cmd);
    ck_assert_ptr_null(later);
    free(toobig);
    unsetenv("PMIX_MCA_t_huge");
    unsetenv("PMIX_MCA_t_mid");
    unsetenv("WU_T_SMALL");
    for (int i = 0; i < 20; i++) {
        snprintf(kv, sizeof kv, "WU_T_A%d", i);
        unsetenv(kv);
    }
}
END_TEST

static Suite *jobmap_suite(void)
{
    Suite *s = suite_create("rte_jobmap");
    TCase *tc = tcase_create("jobmap");
    TCase *th = tcase_create("hosts");
    tcase_add_loop_test(tc, spreads, 0, sizeof cases / sizeof cases[0]);
    tcase_add_test(tc, refuses);
    tcase_add_test(tc, peers_string);
    tcase_add_test(tc, launch_tree);
    tcase_add_test(tc, launch_tree_spec);
    tcase_add_test(tc, spawn_env);
    suite_add_tcase(s, tc);
    tcase_add_test(th, host_args);
    tcase_add_loop_test(th, host_names, 0, sizeof bad_names / sizeof bad_names[0]);
    tcase_add_test(th, host_names_good);
    tcase_add_test(th, hostfile_good);
    tcase_add_loop_test(th, hostfile_bad, 0, sizeof bad_files / sizeof bad_files[0]);
    tcase_add_test(th, hostfile_missing);
    tcase_add_test(th, host_filter);
    tcase_add_loop_test(th, default_np, 0, sizeof np_cases / sizeof np_cases[0]);
    suite_add_tcase(s, th);
    return s;
}

WU_TEST_MAIN(jobmap_suite)
