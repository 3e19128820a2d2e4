/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_jobinfo.c -- run under `wrun -n N e2e_jobinfo N`: identity, reference-counted
 * Init/Finalize, and every job key Open MPI 4.1 reads (docs/architecture.md)
 * with its exact type and value, for the own rank and for every peer. Single node.
 * E2E_OPENPMIX_SERVER=1 (the ranks run under an OpenPMIx server, e.g. Open MPI's mpirun): the
 * host's own choices are accepted -- PMIX_MAX_PROCS and PMIX_UNIV_SIZE are its slot count (at
 * least 1), pmix.lpeers may list the ranks in another order, and all five PMIX_SERVER_URI*
 * variables are set. */
#include "e2e_util.h"

#include <stdint.h>

static void check_identity(const pmix_proc_t *p, const char *what)
{
    const char *ns = getenv("PMIX_NAMESPACE");
    const char *rk = getenv("PMIX_RANK");
    E2E_CHECK(ns != NULL && rk != NULL, "%s: PMIX_NAMESPACE/PMIX_RANK not in the environment",
              what);
    E2E_CHECK(strcmp(p->nspace, ns) == 0, "%s: nspace '%s' differs from PMIX_NAMESPACE '%s'", what,
              p->nspace, ns);
    E2E_CHECK(p->rank == (pmix_rank_t)strtoul(rk, NULL, 10),
              "%s: rank %u differs from PMIX_RANK %s", what, p->rank, rk);
}

/* lpeers lists ranks 0..n-1: in order, or with any_order (an OpenPMIx server lists them in
 * its mapper's order, PRRTE e.g. "0,2,1,3", and numbers its node ranks in that order) each
 * once in some order */
static void check_peers_string(const char *lpeers, uint32_t n, bool any_order)
{
    char want[4096];
    size_t off = 0;
    for (uint32_t r = 0; r < n && off < sizeof(want); r++) {
        off += (size_t)snprintf(want + off, sizeof(want) - off, r ? ",%u" : "%u", r);
    }
    E2E_CHECK(lpeers != NULL, "pmix.lpeers is a NULL string");
    if (any_order && 0 != strcmp(lpeers, want)) {
        uint64_t seen = 0;
        uint32_t count = 0;
        const char *p = lpeers;
        E2E_CHECK(n <= 64, "pmix.lpeers of %u ranks: only 64 checked in any order", n);
        while (*p != '\0') {
            char *end;
            unsigned long r = strtoul(p, &end, 10);
            E2E_CHECK(end != p && r < n && !(seen & (UINT64_C(1) << r)) &&
                          (*end == ',' || *end == '\0'),
                      "pmix.lpeers is '%s', expected ranks 0..%u each once", lpeers, n - 1);
            seen |= UINT64_C(1) << r;
            count++;
            p = *end == ',' ? end + 1 : end;
        }
        E2E_CHECK(count == n, "pmix.lpeers is '%s', expected %u ranks", lpeers, n);
        return;
    }
    E2E_CHECK(strcmp(lpeers, want) == 0, "pmix.lpeers is '%s', expected '%s'", lpeers, want);
}

int main(int argc, char **argv)
{
    pmix_proc_t me2;
    char host[256];
    uint32_t n;

    if (argc != 2) {
        fprintf(stderr, "usage: %s <expected job size>\n", argv[0]);
        return 2;
    }
    n = (uint32_t)strtoul(argv[1], NULL, 10);
    if (gethostname(host, sizeof(host)) != 0) {
        perror("gethostname");
        return 2;
    }
    host[sizeof(host) - 1] = '\0';

    e2e_step("PMIx_Initialized before init");
    E2E_CHECK(!PMIx_Initialized(), "PMIx_Initialized() is true before PMIx_Init");
    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    E2E_CHECK(PMIx_Initialized(), "PMIx_Initialized() is false after PMIx_Init");
    check_identity(&e2e_me, "first PMIx_Init");
    E2E_CHECK(e2e_me.rank < n, "rank %u out of range for job size %u", e2e_me.rank, n);

    e2e_step("second PMIx_Init");
    memset(&me2, 0, sizeof(me2));
    E2E_RC(PMIx_Init(&me2, NULL, 0), "second PMIx_Init");
    E2E_CHECK(PMIX_CHECK_PROCID(&me2, &e2e_me), "second PMIx_Init gave %s:%u, first %s:%u",
              me2.nspace, me2.rank, e2e_me.nspace, e2e_me.rank);
    e2e_step("first of two PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "first of two PMIx_Finalize");
    E2E_CHECK(PMIx_Initialized(), "PMIx_Initialized() false after the first of two Finalizes");

    const char *ns = e2e_me.nspace;
    pmix_rank_t me = e2e_me.rank;

    e2e_step("job-level keys");
    uint32_t v32 = e2e_get_u32(ns, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    E2E_CHECK(v32 == n, "pmix.job.size = %u, expected %u", v32, n);
    const char *foreign = getenv("E2E_OPENPMIX_SERVER");
    bool opmix = NULL != foreign && 0 == strcmp(foreign, "1");
    v32 = e2e_get_u32(ns, PMIX_RANK_WILDCARD, PMIX_MAX_PROCS);
    E2E_CHECK(v32 == n || (opmix && v32 >= 1), "pmix.max.size = %u, expected %u", v32, n);
    v32 = e2e_get_u32(ns, PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE);
    E2E_CHECK(v32 == n || (opmix && v32 >= 1), "pmix.univ.size = %u, expected %u", v32, n);
    v32 = e2e_get_u32(ns, PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE);
    E2E_CHECK(v32 == n, "pmix.local.size = %u, expected %u (one node)", v32, n);
    v32 = e2e_get_u32(ns, PMIX_RANK_WILDCARD, PMIX_NUM_NODES);
    E2E_CHECK(v32 == 1, "pmix.num.nodes = %u, expected 1", v32);
    char *s = e2e_get_str(ns, PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS);
    check_peers_string(s, n, opmix);
    char *lpeers = s;

    e2e_step("proc-level keys of every rank");
    for (pmix_rank_t r = 0; r < n; r++) {
        uint16_t v16 = e2e_get_u16(ns, r, PMIX_LOCAL_RANK);
        E2E_CHECK(v16 == r, "pmix.lrank of rank %u = %u, expected %u", r, v16, r);
        v16 = e2e_get_u16(ns, r, PMIX_NODE_RANK);
        uint16_t want16 = (uint16_t)r;
        if (opmix) { /* its position in pmix.lpeers */
            char *pos = lpeers, *end;
            for (want16 = 0; strtoul(pos, &end, 10) != r && *end == ',';) {
                pos = end + 1;
                want16++;
            }
        }
        E2E_CHECK(v16 == want16, "pmix.nrank of rank %u = %u, expected %u", r, v16, want16);
        v32 = e2e_get_u32(ns, r, PMIX_NODEID);
        E2E_CHECK(v32 == 0, "pmix.nodeid of rank %u = %u, expected 0", r, v32);
        v32 = e2e_get_u32(ns, r, PMIX_APPNUM);
        E2E_CHECK(v32 == 0, "pmix.appnum of rank %u = %u, expected 0", r, v32);
        s = e2e_get_str(ns, r, PMIX_HOSTNAME);
        E2E_CHECK(s != NULL && strcmp(s, host) == 0, "pmix.hname of rank %u = '%s', expected '%s'",
                  r, s ? s : "(null)", host);
        free(s);
    }

    free(lpeers);

    e2e_step("environment of a launched client");
    const char *ev = getenv("PMIX_HOSTNAME");
    E2E_CHECK(ev != NULL && strcmp(ev, host) == 0, "PMIX_HOSTNAME in the environment is '%s'",
              ev ? ev : "(unset)");
    E2E_CHECK(getenv("PMIX_VERSION") != NULL, "PMIX_VERSION not in the environment");
    /* for processes on OpenPMIx's own library: the URI of the versions Wireup speaks (4.x,
     * 5.x), "<server nspace>.<rank>;tcp4://<address>:<port>", and none of the older ones */
    const char *u41 = getenv("PMIX_SERVER_URI41"), *u4 = getenv("PMIX_SERVER_URI4");
    E2E_CHECK(getenv("PMIX_SERVER_URI") == NULL && (opmix || (getenv("PMIX_SERVER_URI3") == NULL &&
                                                              getenv("PMIX_SERVER_URI2") == NULL &&
                                                              getenv("PMIX_SERVER_URI21") == NULL)),
              "an OpenPMIx PMIX_SERVER_URI* variable of a version before 4 is set");
    E2E_CHECK((NULL == u41 && NULL == u4) ||
                  (NULL != u41 && NULL != u4 && 0 == strcmp(u41, u4) &&
                   NULL != strstr(u41, ";tcp4://") && NULL != strchr(u41, '.')),
              "PMIX_SERVER_URI41 '%s' and PMIX_SERVER_URI4 '%s' are not one OpenPMIx URI",
              u41 ? u41 : "(unset)", u4 ? u4 : "(unset)");

    e2e_step("fence before the last Finalize");
    e2e_fence(NULL, 0, "PMIx_Fence");
    e2e_step("last PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "last PMIx_Finalize");
    E2E_CHECK(!PMIx_Initialized(), "PMIx_Initialized() still true after the last Finalize");
    printf("jobinfo rank %u of %u: ok\n", me, n);
    return 0;
}
