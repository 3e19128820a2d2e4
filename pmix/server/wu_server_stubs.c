/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_stubs.c -- placeholders for the server API not implemented yet.
 *
 * Each returns PMIX_ERR_NOT_SUPPORTED without calling its callback.
 * Markers ("wu-api: stub issue=N") feed contrib/api-status.sh. */
#include "pmix.h"
#include "pmix_server.h"
/* Stubs keep their parameter names for documentation; most are unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* wu-api: stub issue=later */
pmix_status_t PMIx_server_IOF_deliver(const pmix_proc_t *source, pmix_iof_channel_t channel,
                                      const pmix_byte_object_t *bo, const pmix_info_t info[],
                                      size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_server_collect_inventory(pmix_info_t directives[], size_t ndirs,
                                            pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_server_deliver_inventory(pmix_info_t info[], size_t ninfo,
                                            pmix_info_t directives[], size_t ndirs,
                                            pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Register_attributes(char *function, char *attrs[])
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_server_generate_locality_string(const pmix_cpuset_t *cpuset, char **locality)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_server_generate_cpuset_string(const pmix_cpuset_t *cpuset, char **cpuset_string)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_server_define_process_set(const pmix_proc_t *members, size_t nmembers,
                                             const char *pset_name)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_server_delete_process_set(char *pset_name)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_server_register_resources(pmix_info_t info[], size_t ninfo,
                                             pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_server_deregister_resources(pmix_info_t info[], size_t ninfo,
                                               pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
