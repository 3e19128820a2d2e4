/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_group.c -- the process-group API (PMIx_Group_*): placeholders returning
 * PMIX_ERR_NOT_SUPPORTED until groups are implemented (see wu_client_stubs.c for the
 * conventions). */
#include "pmix.h"

/* Stubs keep their parameter names for documentation; most are unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* wu-api: stub issue=later */
pmix_status_t PMIx_Group_construct(const char grp[], const pmix_proc_t procs[], size_t nprocs,
                                   const pmix_info_t directives[], size_t ndirs,
                                   pmix_info_t **results, size_t *nresults)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Group_construct_nb(const char grp[], const pmix_proc_t procs[], size_t nprocs,
                                      const pmix_info_t info[], size_t ninfo,
                                      pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Group_invite(const char grp[], const pmix_proc_t procs[], size_t nprocs,
                                const pmix_info_t info[], size_t ninfo, pmix_info_t **results,
                                size_t *nresult)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Group_invite_nb(const char grp[], const pmix_proc_t procs[], size_t nprocs,
                                   const pmix_info_t info[], size_t ninfo,
                                   pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Group_join(const char grp[], const pmix_proc_t *leader, pmix_group_opt_t opt,
                              const pmix_info_t info[], size_t ninfo, pmix_info_t **results,
                              size_t *nresult)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Group_join_nb(const char grp[], const pmix_proc_t *leader, pmix_group_opt_t opt,
                                 const pmix_info_t info[], size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                 void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Group_leave(const char grp[], const pmix_info_t info[], size_t ninfo)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Group_leave_nb(const char grp[], const pmix_info_t info[], size_t ninfo,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Group_destruct(const char grp[], const pmix_info_t info[], size_t ninfo)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

/* wu-api: stub issue=later */
pmix_status_t PMIx_Group_destruct_nb(const char grp[], const pmix_info_t info[], size_t ninfo,
                                     pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
