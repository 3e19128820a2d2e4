/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_fabric_stubs.c -- placeholders for the fabric API (see wu_client_stubs.c for the
 * conventions). The topology functions are in wu_client_topo.c. */
#include "pmix.h"

/* Stubs keep their parameter names for documentation; most are unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* wu-api: stub issue=later */
pmix_status_t PMIx_Fabric_register(pmix_fabric_t *fabric, const pmix_info_t directives[],
                                   size_t ndirs)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Fabric_register_nb(pmix_fabric_t *fabric, const pmix_info_t directives[],
                                      size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Fabric_update(pmix_fabric_t *fabric)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Fabric_update_nb(pmix_fabric_t *fabric, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Fabric_deregister(pmix_fabric_t *fabric)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Fabric_deregister_nb(pmix_fabric_t *fabric, pmix_op_cbfunc_t cbfunc,
                                        void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
