/* SPDX-License-Identifier: BSD-3-Clause */
/* exchange.c -- the example of the README's run command: `wrun -n 4 contrib/examples/exchange`.
 * Each rank puts a value, commits, fences with PMIX_COLLECT_DATA, gets every peer's value and
 * prints one line; rank 0 then prints a summary. Public PMIx API only. */
#include <pmix.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY "example.greeting"

static int fail(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "exchange: %s failed: %s\n", what, PMIx_Error_string(rc));
    return 1;
}

int main(void)
{
    pmix_proc_t me, peer, wild;
    pmix_value_t val, *got;
    pmix_info_t info;
    pmix_status_t rc;
    char greeting[128];
    bool collect = true;
    uint32_t n;

    if ((rc = PMIx_Init(&me, NULL, 0)) != PMIX_SUCCESS) {
        return fail("PMIx_Init", rc);
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if ((rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &got)) != PMIX_SUCCESS) {
        return fail("PMIx_Get(job size)", rc);
    }
    n = got->data.uint32;
    PMIX_VALUE_RELEASE(got);

    /* publish one string, visible to every rank */
    snprintf(greeting, sizeof(greeting), "greetings from rank %u", me.rank);
    PMIX_VALUE_CONSTRUCT(&val);
    val.type = PMIX_STRING;
    val.data.string = greeting;
    if ((rc = PMIx_Put(PMIX_GLOBAL, KEY, &val)) != PMIX_SUCCESS) {
        return fail("PMIx_Put", rc);
    }
    if ((rc = PMIx_Commit()) != PMIX_SUCCESS) {
        return fail("PMIx_Commit", rc);
    }
    /* wait for everybody, bringing every rank's data along */
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) {
        return fail("PMIx_Fence", rc);
    }

    /* read every peer's value */
    uint32_t good = 0;
    for (uint32_t r = 0; r < n; r++) {
        char want[128];
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        if ((rc = PMIx_Get(&peer, KEY, NULL, 0, &got)) != PMIX_SUCCESS) {
            return fail("PMIx_Get(peer)", rc);
        }
        snprintf(want, sizeof(want), "greetings from rank %u", r);
        if (got->type == PMIX_STRING && strcmp(got->data.string, want) == 0) {
            good++;
        }
        PMIX_VALUE_RELEASE(got);
    }
    if (good != n) {
        printf("rank %u of %u: got the right value from %u of %u ranks\n", me.rank, n, good, n);
    } else {
        printf("rank %u of %u: got \"greetings from rank <r>\" from every peer\n", me.rank, n);
    }
    fflush(stdout);

    /* a second fence so that rank 0's summary comes after every rank's line */
    if ((rc = PMIx_Fence(NULL, 0, NULL, 0)) != PMIX_SUCCESS) {
        return fail("PMIx_Fence", rc);
    }
    if (me.rank == 0) {
        printf("summary: %u ranks in namespace %s exchanged data through %s\n", n, me.nspace,
               PMIx_Get_version());
    }
    if ((rc = PMIx_Finalize(NULL, 0)) != PMIX_SUCCESS) {
        return fail("PMIx_Finalize", rc);
    }
    return good == n ? 0 : 1;
}
