/* SPDX-License-Identifier: BSD-3-Clause */
/* openpmix_traffic.c -- the requests recorded for the openpmix-* seeds of fuzz_server
 * (docs/fuzzing.md): built against OpenPMIx's own headers and library, run as 2 ranks under
 * wrun --keep-library-path; rank 0 also publishes, looks up, registers for and notifies an
 * event, queries, unpublishes and logs. Not built by make. */
#include <pmix.h>

static void evh(size_t id, pmix_status_t st, const pmix_proc_t *src, pmix_info_t info[], size_t ni,
                pmix_info_t res[], size_t nr, pmix_event_notification_cbfunc_fn_t cb, void *cbd)
{
    (void)id;
    (void)st;
    (void)src;
    (void)info;
    (void)ni;
    (void)res;
    (void)nr;
    if (NULL != cb) {
        cb(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbd);
    }
}

int main(void)
{
    pmix_proc_t me, p;
    pmix_value_t v, *val = NULL;
    pmix_info_t info[2], *res;
    size_t nres;
    pmix_pdata_t pd;
    pmix_query_t q;
    pmix_status_t codes[1] = {PMIX_ERR_PROC_ABORTED};
    bool t = true;
    if (PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        return 1;
    }
    v.type = PMIX_STRING;
    v.data.string = "hello";
    PMIx_Put(PMIX_GLOBAL, "fz.key", &v);
    v.type = PMIX_UINT32;
    v.data.uint32 = 7;
    PMIx_Put(PMIX_LOCAL, "fz.loc", &v);
    PMIx_Commit();
    PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, &t, PMIX_BOOL);
    PMIx_Fence(NULL, 0, info, 1);
    PMIX_LOAD_PROCID(&p, me.nspace, 1 - me.rank);
    if (PMIX_SUCCESS == PMIx_Get(&p, "fz.key", NULL, 0, &val)) {
        PMIX_VALUE_RELEASE(val);
    }
    if (0 == me.rank) {
        PMIX_INFO_LOAD(&info[0], "fz.pub", "svc", PMIX_STRING);
        PMIx_Publish(info, 1);
        PMIX_PDATA_CONSTRUCT(&pd);
        PMIX_LOAD_KEY(pd.key, "fz.pub");
        PMIx_Lookup(&pd, 1, NULL, 0);
        PMIX_PDATA_DESTRUCT(&pd);
        PMIx_Register_event_handler(codes, 1, NULL, 0, evh, NULL, NULL);
        PMIx_Notify_event(-150, NULL, PMIX_RANGE_NAMESPACE, NULL, 0, NULL, NULL);
        PMIX_QUERY_CONSTRUCT(&q);
        q.keys = (char *[]){PMIX_QUERY_NAMESPACES, NULL};
        PMIx_Query_info(&q, 1, &res, &nres);
        PMIx_Unpublish((char *[]){"fz.pub", NULL}, NULL, 0);
        PMIX_INFO_LOAD(&info[0], PMIX_LOG_STDERR, "fz log\n", PMIX_STRING);
        PMIx_Log(info, 1, NULL, 0);
    }
    PMIx_Fence(NULL, 0, NULL, 0);
    PMIx_Finalize(NULL, 0);
    return 0;
}
