/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_stubs.c -- placeholders for the server API not implemented yet.
 *
 * Status-returning functions return PMIX_ERR_NOT_SUPPORTED without calling their callback. The
 * two void deregistration calls cannot return a status, so they report PMIX_ERR_NOT_SUPPORTED
 * through their callback (when given) before returning, so a host waiting for it cannot hang.
 * Markers ("wu-api: stub issue=N") feed contrib/api-status.sh. */
#include "pmix.h"
#include "pmix_server.h"
/* Stubs keep their parameter names for documentation; most are unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* wu-api: stub issue=4 */
pmix_status_t PMIx_server_init(pmix_server_module_t *module, pmix_info_t info[], size_t ninfo)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=4 */
pmix_status_t PMIx_server_finalize(void)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=4 */
pmix_status_t PMIx_generate_regex(const char *input, char **regex)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=4 */
pmix_status_t PMIx_generate_ppn(const char *input, char **ppn)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=4 */
pmix_status_t PMIx_server_register_nspace(const pmix_nspace_t nspace, int nlocalprocs,
                                          pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                          void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=4 */
void PMIx_server_deregister_nspace(const pmix_nspace_t nspace, pmix_op_cbfunc_t cbfunc,
                                   void *cbdata)
{
    /* No status can be returned: report through the callback so a host waiting for
     * it does not hang. */
    if (NULL != cbfunc) {
        cbfunc(PMIX_ERR_NOT_SUPPORTED, cbdata);
    }
}

/* wu-api: stub issue=4 */
pmix_status_t PMIx_server_register_client(const pmix_proc_t *proc, uid_t uid, gid_t gid,
                                          void *server_object, pmix_op_cbfunc_t cbfunc,
                                          void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=4 */
void PMIx_server_deregister_client(const pmix_proc_t *proc, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    /* No status can be returned: report through the callback so a host waiting for
     * it does not hang. */
    if (NULL != cbfunc) {
        cbfunc(PMIX_ERR_NOT_SUPPORTED, cbdata);
    }
}

/* wu-api: stub issue=4 */
pmix_status_t PMIx_server_setup_fork(const pmix_proc_t *proc, char ***env)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=4 */
pmix_status_t PMIx_server_dmodex_request(const pmix_proc_t *proc, pmix_dmodex_response_fn_t cbfunc,
                                         void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_server_setup_application(const pmix_nspace_t nspace, pmix_info_t info[],
                                            size_t ninfo, pmix_setup_application_cbfunc_t cbfunc,
                                            void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_server_setup_local_support(const pmix_nspace_t nspace, pmix_info_t info[],
                                              size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

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
