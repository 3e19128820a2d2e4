/* SPDX-License-Identifier: BSD-3-Clause */
/* ctest_model.h -- what the host (check_client_server) and its clients (client_prog) share to
 * check PMIX_MODEL_DECLARED: registering a handler and waiting for the registration, and a
 * default handler that notes whether the event reached it (it must not). */
#ifndef CTEST_MODEL_H
#define CTEST_MODEL_H

#include "pmix.h"

#include <stdatomic.h>
#include <unistd.h>

static _Atomic int ctest_default_saw_model;

static void ctest_default_hdlr(size_t id, pmix_status_t status, const pmix_proc_t *source,
                               pmix_info_t info[], size_t ninfo, pmix_info_t results[],
                               size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                               void *cbdata)
{
    (void)id;
    (void)source;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    if (PMIX_MODEL_DECLARED == status) {
        ctest_default_saw_model = 1;
    }
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void ctest_reg_done(pmix_status_t status, size_t ref, void *cbdata)
{
    (void)ref;
    *(_Atomic int *)cbdata = PMIX_SUCCESS == status ? 0 : 1;
}

/* Register fn for code (NULL: a default handler); 0 once registered, else not 0 (10 s at most). */
static int ctest_register(pmix_status_t *code, pmix_notification_fn_t fn)
{
    _Atomic int reg = -1;
    PMIx_Register_event_handler(code, NULL != code ? 1 : 0, NULL, 0, fn, ctest_reg_done,
                                (void *)&reg);
    for (int i = 0; i < 10000 && -1 == reg; i++) {
        usleep(1000);
    }
    return reg;
}

#endif
