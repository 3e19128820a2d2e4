/* SPDX-License-Identifier: BSD-3-Clause */
/* wrun_client.c -- a small PMIx client that wrun_basic.sh runs under wrun to check what wrun
 * does with PMIx processes: `wrun_client MODE [RANK [STATUS]]`
 *   info          print "rank R of N nspace S lrank L nrank M local P peers Q" and finalize
 *   fence         init, fence, finalize (prints "fenced R")
 *   abort R S     rank R calls PMIx_Abort(S) after a fence; the others wait in a second fence
 *   nofin R       rank R exits 0 without PMIx_Finalize; the others wait in a fence
 *   exit R S      rank R exits S after init (without finalize); the others wait in a fence */
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int get_u32(const pmix_proc_t *p, const char *key, uint32_t *out)
{
    pmix_value_t *v = NULL;
    if (PMIX_SUCCESS != PMIx_Get(p, key, NULL, 0, &v) || NULL == v) {
        return -1;
    }
    if (PMIX_UINT32 == v->type) {
        *out = v->data.uint32;
    } else if (PMIX_UINT16 == v->type) {
        *out = v->data.uint16;
    } else {
        PMIX_VALUE_RELEASE(v);
        return -1;
    }
    PMIX_VALUE_RELEASE(v);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "info";
    uint32_t target = argc > 2 ? (uint32_t)atoi(argv[2]) : 0;
    int status = argc > 3 ? atoi(argv[3]) : 0;
    pmix_proc_t me, wild;
    pmix_status_t rc;

    if (PMIX_SUCCESS != (rc = PMIx_Init(&me, NULL, 0))) {
        fprintf(stderr, "PMIx_Init failed: %s\n", PMIx_Error_string(rc));
        return 2;
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if (0 == strcmp(mode, "info")) {
        uint32_t size = 0, lsize = 0, lrank = 99, nrank = 99;
        pmix_value_t *peers = NULL;
        get_u32(&wild, PMIX_JOB_SIZE, &size);
        get_u32(&wild, PMIX_LOCAL_SIZE, &lsize);
        get_u32(&me, PMIX_LOCAL_RANK, &lrank);
        get_u32(&me, PMIX_NODE_RANK, &nrank);
        PMIx_Get(&wild, PMIX_LOCAL_PEERS, NULL, 0, &peers);
        printf("rank %u of %u nspace %s lrank %u nrank %u local %u peers %s\n", me.rank, size,
               me.nspace, lrank, nrank, lsize,
               NULL != peers && PMIX_STRING == peers->type ? peers->data.string : "?");
        if (NULL != peers) {
            PMIX_VALUE_RELEASE(peers);
        }
    } else if (0 == strcmp(mode, "fence")) {
        rc = PMIx_Fence(NULL, 0, NULL, 0);
        printf("fenced %u %s\n", me.rank, PMIx_Error_string(rc));
    } else {
        rc = PMIx_Fence(NULL, 0, NULL, 0); /* everybody is connected */
        if (me.rank == target) {
            if (0 == strcmp(mode, "abort")) {
                PMIx_Abort(status, "test abort", NULL, 0);
                sleep(30); /* wrun must kill us */
                return 3;
            }
            fflush(stdout);
            _exit(0 == strcmp(mode, "exit") ? status : 0);
        }
        /* the others wait until the job is taken down */
        rc = PMIx_Fence(NULL, 0, NULL, 0);
        fprintf(stderr, "rank %u: second fence returned %s\n", me.rank, PMIx_Error_string(rc));
        sleep(30);
        return 4;
    }
    fflush(stdout);
    rc = PMIx_Finalize(NULL, 0);
    return PMIX_SUCCESS == rc ? 0 : 5;
}
