/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_resolve.c -- `wrun -n N e2e_resolve`: PMIx_Resolve_peers / PMIx_Resolve_nodes as
 * the PMIx Standard and docs/architecture.md specify, for what a single-node wrun job has:
 * own namespace with the own host, a NULL node (the local node), a node the namespace does not
 * use (success, NULL, 0), an unknown namespace (PMIX_ERR_INVALID_NAMESPACE), a NULL namespace
 * (every proc on the node). */
#include "e2e_util.h"

static void check_all_ranks(const pmix_proc_t *procs, size_t np, const char *ns, uint32_t n,
                            const char *what)
{
    E2E_CHECK(np == n, "%s: %zu procs, expected %u", what, np, n);
    E2E_CHECK(procs != NULL, "%s: NULL array with %zu procs", what, np);
    for (uint32_t r = 0; r < n; r++) {
        size_t hits = 0;
        for (size_t i = 0; i < np; i++) {
            if (procs[i].rank == r && PMIX_CHECK_NSPACE(procs[i].nspace, ns)) {
                hits++;
            }
        }
        E2E_CHECK(hits == 1, "%s: rank %u of %s appears %zu times", what, r, ns, hits);
    }
}

int main(void)
{
    pmix_proc_t *procs;
    size_t np;
    char *nodes;
    char host[256];
    pmix_nspace_t bogus;

    gethostname(host, sizeof(host));
    host[sizeof(host) - 1] = '\0';
    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    const char *ns = e2e_me.nspace;
    uint32_t n = e2e_get_u32(ns, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    PMIX_LOAD_NSPACE(bogus, "e2e.no.such.nspace");

    e2e_step("Resolve_peers(own host, own nspace)");
    procs = NULL;
    np = 99;
    E2E_RC(PMIx_Resolve_peers(host, ns, &procs, &np), "Resolve_peers(own host)");
    check_all_ranks(procs, np, ns, n, "Resolve_peers(own host)");
    PMIX_PROC_FREE(procs, np);

    e2e_step("Resolve_peers(NULL node, own nspace)");
    procs = NULL;
    np = 99;
    E2E_RC(PMIx_Resolve_peers(NULL, ns, &procs, &np), "Resolve_peers(NULL node)");
    check_all_ranks(procs, np, ns, n, "Resolve_peers(NULL node = local node)");
    PMIX_PROC_FREE(procs, np);

    e2e_step("Resolve_peers(own host, NULL nspace)");
    procs = NULL;
    np = 99;
    E2E_RC(PMIx_Resolve_peers(host, NULL, &procs, &np), "Resolve_peers(NULL nspace)");
    check_all_ranks(procs, np, ns, n, "Resolve_peers(NULL nspace = all procs on the node)");
    PMIX_PROC_FREE(procs, np);

    e2e_step("Resolve_peers(unknown host, own nspace)");
    procs = (pmix_proc_t *)&np; /* must be overwritten with NULL */
    np = 99;
    E2E_RC(PMIx_Resolve_peers("e2e-no-such-host.invalid", ns, &procs, &np),
           "Resolve_peers(unknown host)");
    E2E_CHECK(procs == NULL && np == 0,
              "Resolve_peers(unknown host): procs %p nprocs %zu, expected NULL and 0",
              (void *)procs, np);

    e2e_step("Resolve_peers(own host, unknown nspace)");
    procs = NULL;
    np = 0;
    E2E_RC_IS(PMIx_Resolve_peers(host, bogus, &procs, &np), PMIX_ERR_INVALID_NAMESPACE,
              "Resolve_peers(unknown nspace)");
    E2E_CHECK(procs == NULL && np == 0, "Resolve_peers(unknown nspace) returned procs");

    e2e_step("Resolve_nodes(own nspace)");
    nodes = NULL;
    E2E_RC(PMIx_Resolve_nodes(ns, &nodes), "Resolve_nodes(own nspace)");
    E2E_CHECK(nodes != NULL && strcmp(nodes, host) == 0,
              "Resolve_nodes(own nspace) = '%s', expected '%s'", nodes ? nodes : "(null)", host);
    free(nodes);

    e2e_step("Resolve_nodes(unknown nspace)");
    nodes = NULL;
    E2E_RC_IS(PMIx_Resolve_nodes(bogus, &nodes), PMIX_ERR_INVALID_NAMESPACE,
              "Resolve_nodes(unknown nspace)");
    E2E_CHECK(nodes == NULL, "Resolve_nodes(unknown nspace) returned '%s'", nodes);

    e2e_step("final fence");
    e2e_fence(NULL, 0, "PMIx_Fence");
    e2e_step("PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("resolve rank %u of %u: ok\n", e2e_me.rank, n);
    return 0;
}
