/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_stubs.c -- placeholders for the client API not implemented yet.
 *
 * Every function here is exported so that programs built against OpenPMIx 4.2 link and load.
 * Each returns PMIX_ERR_NOT_SUPPORTED at once; a non-blocking one does so without calling its
 * callback (the PMIx rule for a refused request). The marker comment before each definition
 * ("wu-api: stub issue=N") names the issue that replaces it and feeds contrib/api-status.sh:
 * delete the marker together with the stub when the real function lands. */
#include "pmix.h"

/* Stubs keep their parameter names for documentation; most are unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* wu-api: stub issue=later */
pmix_status_t PMIx_Allocation_request(pmix_alloc_directive_t directive, pmix_info_t *info,
                                      size_t ninfo, pmix_info_t **results, size_t *nresults)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Allocation_request_nb(pmix_alloc_directive_t directive, pmix_info_t *info,
                                         size_t ninfo, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

void PMIx_Progress(void)
{
    /* Wireup progresses on its own thread: nothing to do. */
}

/* PMIx 5. The Standard lets an implementation without a scheduler or system controller to ask
 * answer PMIX_ERR_NOT_SUPPORTED; a process that is not initialized gets PMIX_ERR_INIT. */
/* wu-api: partial issue=later: answers PMIX_ERR_NOT_SUPPORTED (as the Standard allows): no Wireup host is a scheduler, and requests are not passed on to a host's session_control upcall */
pmix_status_t PMIx_Session_control(uint32_t sessionID, const pmix_info_t directives[], size_t ndirs,
                                   pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    if (NULL == directives && 0 < ndirs) {
        return PMIX_ERR_BAD_PARAM;
    }
    return PMIx_Initialized() ? PMIX_ERR_NOT_SUPPORTED : PMIX_ERR_INIT;
}
