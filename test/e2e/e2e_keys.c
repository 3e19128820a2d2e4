/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_keys.c -- `wrun ... e2e_keys KEY...`: each rank prints what PMIx_Get returns for each KEY,
 * one line "keys rank R: KEY=VALUE" (VALUE "(not found)" when the key is not there). A KEY
 * asks the job-level data (PMIX_RANK_WILDCARD); "proc:KEY" asks the rank's own data. Strings,
 * unsigned integers, ranks and booleans are printed; other types by their type name. Scripts
 * compare the lines with what the launcher's options say. Public PMIx API only. */
#include "e2e_util.h"

#include <inttypes.h>

static void print_value(pmix_rank_t me, const char *key, const pmix_value_t *v)
{
    printf("keys rank %u: %s=", me, key);
    switch (v->type) {
    case PMIX_STRING:
        printf("%s", NULL == v->data.string ? "(null)" : v->data.string);
        break;
    case PMIX_UINT32:
        printf("%" PRIu32, v->data.uint32);
        break;
    case PMIX_UINT16:
        printf("%u", (unsigned)v->data.uint16);
        break;
    case PMIX_PROC_RANK:
        printf("%u", (unsigned)v->data.rank);
        break;
    case PMIX_BOOL:
        printf("%s", v->data.flag ? "true" : "false");
        break;
    default:
        printf("(%s)", PMIx_Data_type_string(v->type));
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    pmix_status_t st;
    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    for (int i = 1; i < argc; i++) {
        const bool own = 0 == strncmp(argv[i], "proc:", 5);
        const char *key = own ? argv[i] + 5 : argv[i];
        pmix_value_t *v;
        e2e_step(argv[i]);
        v = e2e_get(e2e_me.nspace, own ? e2e_me.rank : PMIX_RANK_WILDCARD, key, NULL, 0, &st);
        if (NULL == v) {
            E2E_CHECK(PMIX_ERR_NOT_FOUND == st, "Get(%s) returned %s", key, PMIx_Error_string(st));
            printf("keys rank %u: %s=(not found)\n", e2e_me.rank, argv[i]);
        } else {
            print_value(e2e_me.rank, argv[i], v);
            e2e_free_value(v);
        }
    }
    fflush(stdout);
    e2e_step("PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    return 0;
}
