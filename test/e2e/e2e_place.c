/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_place.c -- what a process learns of its placement (test/e2e/mapping.sh): it prints one line
 *   place rank=R cpuset=<PMIX_CPUSET or none> locstr=<PMIX_LOCALITY_STRING or none> xml=yes|no
 *         affinity=<the cpus it may run on, as a list> appnum=<PMIX_APPNUM> apprank=<PMIX_APP_RANK>
 * (test/e2e/mapping.sh, and mpmd.sh for the application contexts)
 * When it has a locality string, PMIx_Get_relative_locality of it with itself must give the node,
 * the core and the hardware thread, and with rank 0's (when that has one) at least the node;
 * otherwise the process fails.
 * Public PMIx API only. */
#define _GNU_SOURCE /* sched_getaffinity */
#include "e2e_util.h"

#include <sched.h>

/* A string value of proc's key, "none" when it is not there or NULL. */
static char *get_str(const pmix_proc_t *proc, const char *key)
{
    pmix_value_t *v = NULL;
    char *s = NULL;
    if (PMIX_SUCCESS == PMIx_Get(proc, key, NULL, 0, &v) && NULL != v) {
        if (PMIX_STRING == v->type && NULL != v->data.string) {
            s = strdup(v->data.string);
        }
        PMIX_VALUE_RELEASE(v);
    }
    return NULL != s ? s : strdup("none");
}

int main(void)
{
    pmix_proc_t wild;
    cpu_set_t set;
    char aff[1024] = "";
    size_t len = 0;
    int lo = -1;

    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    PMIX_LOAD_PROCID(&wild, e2e_me.nspace, PMIX_RANK_WILDCARD);
    char *cpuset = get_str(&e2e_me, PMIX_CPUSET);
    char *locstr = get_str(&e2e_me, PMIX_LOCALITY_STRING);
    char *xml = get_str(&wild, "pmix.hwlocxml2");
    /* the affinity as a list of ranges */
    E2E_CHECK(0 == sched_getaffinity(0, sizeof set, &set), "sched_getaffinity");
    for (int c = 0; c <= CPU_SETSIZE; c++) {
        bool in = c < CPU_SETSIZE && CPU_ISSET(c, &set);
        if (in && lo < 0) {
            lo = c;
        } else if (!in && lo >= 0) {
            len += (size_t)snprintf(aff + len, sizeof aff - len, "%s%d", len > 0 ? "," : "", lo);
            if (c - 1 > lo) {
                len += (size_t)snprintf(aff + len, sizeof aff - len, "-%d", c - 1);
            }
            lo = -1;
        }
    }
    if (0 != strcmp(locstr, "none")) {
        pmix_proc_t zero;
        pmix_locality_t l = 0;
        const pmix_locality_t self =
            PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_CORE | PMIX_LOCALITY_SHARE_HWTHREAD;
        char *other;
        E2E_RC(PMIx_Get_relative_locality(locstr, locstr, &l), "PMIx_Get_relative_locality");
        E2E_CHECK(self == (l & self), "relative locality of %s with itself is 0x%x", locstr,
                  (unsigned)l);
        PMIX_LOAD_PROCID(&zero, e2e_me.nspace, 0);
        other = get_str(&zero, PMIX_LOCALITY_STRING);
        if (0 != strcmp(other, "none")) {
            E2E_RC(PMIx_Get_relative_locality(locstr, other, &l), "PMIx_Get_relative_locality");
            E2E_CHECK(0 != (l & PMIX_LOCALITY_SHARE_NODE),
                      "relative locality of %s with rank 0's %s is 0x%x", locstr, other,
                      (unsigned)l);
        }
        free(other);
    }
    uint32_t appnum = e2e_get_u32(e2e_me.nspace, e2e_me.rank, PMIX_APPNUM);
    pmix_value_t *v = NULL;
    unsigned apprank = 9999;
    if (PMIX_SUCCESS == PMIx_Get(&e2e_me, PMIX_APP_RANK, NULL, 0, &v) &&
        PMIX_PROC_RANK == v->type) {
        apprank = v->data.rank;
    }
    if (NULL != v) {
        PMIX_VALUE_RELEASE(v);
    }
    printf("place rank=%u cpuset=%s locstr=%s xml=%s affinity=%s appnum=%u apprank=%u\n",
           e2e_me.rank, cpuset, locstr, 0 == strncmp(xml, "<?xml", 5) ? "yes" : "no", aff, appnum,
           apprank);
    fflush(stdout);
    free(cpuset);
    free(locstr);
    free(xml);
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    return 0;
}
