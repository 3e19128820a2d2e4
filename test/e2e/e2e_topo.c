/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_topo.c -- PMIx_Load_topology and PMIx_Compute_distances in a process launched by wrun.
 *
 * usage: e2e_topo PUS PACKAGES
 * The topology must be the one the launcher registered (PMIX_HWLOC_XML_V2): wrun runs under
 * HWLOC_SYNTHETIC, which this program removes from its environment before loading, so a
 * topology it discovered itself would be this machine's and not have PUS PUs in PACKAGES
 * packages. Loading twice gives the same topology; destructing the caller's struct leaves it
 * usable. Distances to network devices from the process's binding, on the node's topology and
 * on the loaded one, agree. Prints "topo rank R: ok" on success. */
#include "e2e_util.h"
#include "../support/wu_test_hwloc_lsan.h"

#include <hwloc.h>

int main(int argc, char **argv)
{
    pmix_topology_t a = PMIX_TOPOLOGY_STATIC_INIT, b = PMIX_TOPOLOGY_STATIC_INIT;
    pmix_device_distance_t *d1 = NULL, *d2 = NULL;
    pmix_device_type_t net = PMIX_DEVTYPE_NETWORK;
    size_t n1 = 0, n2 = 0;
    pmix_info_t info;
    int pus, packs;

    if (argc != 3) {
        fprintf(stderr, "usage: e2e_topo PUS PACKAGES\n");
        return 2;
    }
    pus = atoi(argv[1]);
    packs = atoi(argv[2]);
    e2e_step("init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    unsetenv("HWLOC_SYNTHETIC");

    e2e_step("load");
    E2E_RC(PMIx_Load_topology(&a), "PMIx_Load_topology");
    E2E_CHECK(NULL != a.source && 0 == strncmp("hwloc", a.source, 5), "source '%s'",
              NULL != a.source ? a.source : "(null)");
    E2E_CHECK(pus == hwloc_get_nbobjs_by_type(a.topology, HWLOC_OBJ_PU) &&
                  packs == hwloc_get_nbobjs_by_type(a.topology, HWLOC_OBJ_PACKAGE),
              "not the registered topology: %d PUs in %d packages, want %d in %d",
              hwloc_get_nbobjs_by_type(a.topology, HWLOC_OBJ_PU),
              hwloc_get_nbobjs_by_type(a.topology, HWLOC_OBJ_PACKAGE), pus, packs);

    e2e_step("load again");
    E2E_RC(PMIx_Load_topology(&b), "PMIx_Load_topology (again)");
    E2E_CHECK(a.topology == b.topology, "a second load gave another topology");
    PMIx_Topology_destruct(&a);
    E2E_CHECK(pus == hwloc_get_nbobjs_by_type(b.topology, HWLOC_OBJ_PU),
              "the topology changed after PMIx_Topology_destruct of a caller's struct");

    e2e_step("distances");
    PMIX_INFO_LOAD(&info, PMIX_DEVICE_TYPE, &net, PMIX_DEVTYPE);
    E2E_RC(PMIx_Compute_distances(NULL, NULL, &info, 1, &d1, &n1), "PMIx_Compute_distances(NULL)");
    E2E_RC(PMIx_Compute_distances(&b, NULL, &info, 1, &d2, &n2), "PMIx_Compute_distances(topo)");
    E2E_CHECK(n1 == n2, "%zu distances on the node's topology, %zu on the loaded one", n1, n2);
    for (size_t i = 0; i < n1; i++) {
        E2E_CHECK(PMIX_DEVTYPE_NETWORK == d1[i].type && NULL != d1[i].uuid &&
                      NULL != d1[i].osname && d1[i].mindist <= d1[i].maxdist &&
                      0 == strcmp(d1[i].osname, d2[i].osname) && d1[i].mindist == d2[i].mindist &&
                      d1[i].maxdist == d2[i].maxdist,
                  "device %zu (%s): type %lu, distances %u-%u and %u-%u", i,
                  NULL != d1[i].osname ? d1[i].osname : "(null)", (unsigned long)d1[i].type,
                  d1[i].mindist, d1[i].maxdist, d2[i].mindist, d2[i].maxdist);
    }
    PMIX_DEVICE_DIST_FREE(d1, n1);
    PMIX_DEVICE_DIST_FREE(d2, n2);
    PMIX_INFO_DESTRUCT(&info);
    PMIx_Topology_destruct(&b);

    e2e_step("finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("topo rank %u: ok (%zu network devices)\n", e2e_me.rank, n1);
    return 0;
}
