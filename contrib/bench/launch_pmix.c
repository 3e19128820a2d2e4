/* SPDX-License-Identifier: BSD-3-Clause */
/* launch_pmix.c -- the smallest useful PMIx job, timed end to end by contrib/bench/launch:
 * PMIx_Init, a Get of PMIX_JOB_SIZE, one PMIx_Fence (no data), PMIx_Finalize. Rank 0 prints
 *   launch_pmix: N procs
 * so the script can tell a completed job from one that exited 0 without doing its work.
 * Uses nothing but <pmix.h>: the same source builds against OpenPMIx (and runs under mpirun). */
#include <pmix.h>

#include <stdint.h>
#include <stdio.h>

int main(void)
{
    pmix_proc_t me, wild;
    pmix_value_t *v = NULL;
    pmix_status_t rc;
    uint32_t size;

    if ((rc = PMIx_Init(&me, NULL, 0)) != PMIX_SUCCESS) {
        fprintf(stderr, "launch_pmix: PMIx_Init failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if ((rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v)) != PMIX_SUCCESS) {
        fprintf(stderr, "launch_pmix rank %u: Get(PMIX_JOB_SIZE) failed: %s\n", me.rank,
                PMIx_Error_string(rc));
        goto out;
    }
    size = (v->type == PMIX_UINT32) ? v->data.uint32 : 0;
    PMIX_VALUE_RELEASE(v);
    if ((rc = PMIx_Fence(NULL, 0, NULL, 0)) != PMIX_SUCCESS) {
        fprintf(stderr, "launch_pmix rank %u: PMIx_Fence failed: %s\n", me.rank,
                PMIx_Error_string(rc));
        goto out;
    }
    if (me.rank == 0) {
        printf("launch_pmix: %u procs\n", size);
    }
out:
    PMIx_Finalize(NULL, 0);
    return rc == PMIX_SUCCESS ? 0 : 1;
}
