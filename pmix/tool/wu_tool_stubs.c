/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_tool_stubs.c -- placeholders for the tool and IOF API (see
 * pmix/client/wu_client_stubs.c for the conventions). */
#include "pmix.h"
#include "pmix_tool.h"
/* Stubs keep their parameter names for documentation; most are unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* wu-api: stub issue=later */
pmix_status_t PMIx_tool_init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_tool_finalize(void)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_tool_attach_to_server(pmix_proc_t *myproc, pmix_proc_t *server,
                                         pmix_info_t info[], size_t ninfo)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_tool_disconnect(const pmix_proc_t *server)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_tool_get_servers(pmix_proc_t *servers[], size_t *nservers)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_tool_set_server(const pmix_proc_t *server, pmix_info_t info[], size_t ninfo)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_tool_connect_to_server(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_IOF_pull(const pmix_proc_t procs[], size_t nprocs,
                            const pmix_info_t directives[], size_t ndirs,
                            pmix_iof_channel_t channel, pmix_iof_cbfunc_t cbfunc,
                            pmix_hdlr_reg_cbfunc_t regcbfunc, void *regcbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_IOF_deregister(size_t iofhdlr, const pmix_info_t directives[], size_t ndirs,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_IOF_push(const pmix_proc_t targets[], size_t ntargets, pmix_byte_object_t *bo,
                            const pmix_info_t directives[], size_t ndirs, pmix_op_cbfunc_t cbfunc,
                            void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* PMIx 5: whether this tool is connected to a server. No tool can initialize yet
 * (PMIx_tool_init above), so none is connected. */
/* wu-api: partial issue=33: always false until the tool side (PMIx_tool_init) exists */
bool PMIx_tool_is_connected(void)
{
    return false;
}

/* PMIx 5: a tool that serves its own clients hands over its server module. Only an initialized
 * tool may, and none can initialize yet. */
/* wu-api: partial issue=33: answers PMIX_ERR_INIT until the tool side (PMIx_tool_init) exists */
pmix_status_t PMIx_tool_set_server_module(pmix_server_module_t *module)
{
    return NULL == module ? PMIX_ERR_BAD_PARAM : PMIX_ERR_INIT;
}
