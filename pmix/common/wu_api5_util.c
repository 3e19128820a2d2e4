/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_api5_util.c -- the PMIx 5 argv, environment, key, namespace, process-name and info-flag
 * functions. Each is the library form of the pmix_common.h helper or macro of the same name
 * (pmix_argv_*, pmix_setenv, PMIX_CHECK_KEY, PMIX_INFO_REQUIRED, ...), so programs built against
 * either header generation get the same answers. */
#include <stdlib.h>
#include <string.h>

#include "pmix.h"

/* ---- argv and environment ---- */

pmix_status_t PMIx_Argv_append_nosize(char ***argv, const char *arg)
{
    return pmix_argv_append_nosize(argv, arg);
}

pmix_status_t PMIx_Argv_prepend_nosize(char ***argv, const char *arg)
{
    return pmix_argv_prepend_nosize(argv, arg);
}

pmix_status_t PMIx_Argv_append_unique_nosize(char ***argv, const char *arg)
{
    return pmix_argv_append_unique_nosize(argv, arg);
}

void PMIx_Argv_free(char **argv)
{
    pmix_argv_free(argv);
}

char **PMIx_Argv_split_inter(const char *src_string, int delimiter, bool include_empty)
{
    return pmix_argv_split_inter(src_string, delimiter, include_empty);
}

char **PMIx_Argv_split_with_empty(const char *src_string, int delimiter)
{
    return pmix_argv_split_with_empty(src_string, delimiter);
}

char **PMIx_Argv_split(const char *src_string, int delimiter)
{
    return pmix_argv_split(src_string, delimiter);
}

int PMIx_Argv_count(char **a)
{
    return pmix_argv_count(a);
}

char *PMIx_Argv_join(char **argv, int delimiter)
{
    return pmix_argv_join(argv, delimiter);
}

char **PMIx_Argv_copy(char **argv)
{
    return pmix_argv_copy(argv);
}

pmix_status_t PMIx_Setenv(const char *name, const char *value, bool overwrite, char ***env)
{
    return pmix_setenv(name, value, overwrite, env);
}

/* ---- keys, namespaces, process names ---- */

bool PMIx_Check_key(const char *key, const char *str)
{
    if (NULL == key || NULL == str) {
        return false;
    }
    return 0 == strncmp(key, str, PMIX_MAX_KEYLEN);
}

bool PMIx_Check_reserved_key(const char *key)
{
    return NULL != key && PMIX_CHECK_RESERVED_KEY(key);
}

void PMIx_Load_key(pmix_key_t key, const char *src)
{
    if (NULL != key) {
        PMIX_LOAD_KEY(key, src);
    }
}

void PMIx_Load_nspace(pmix_nspace_t nspace, const char *str)
{
    if (NULL != nspace) {
        PMIX_LOAD_NSPACE(nspace, str);
    }
}

bool PMIx_Check_nspace(const char *key1, const char *key2)
{
    return PMIX_CHECK_NSPACE(key1, key2);
}

bool PMIx_Nspace_invalid(const char *nspace)
{
    return PMIX_NSPACE_INVALID(nspace);
}

bool PMIx_Check_rank(pmix_rank_t a, pmix_rank_t b)
{
    return PMIX_CHECK_RANK(a, b);
}

bool PMIx_Check_procid(const pmix_proc_t *a, const pmix_proc_t *b)
{
    if (NULL == a || NULL == b) {
        return false;
    }
    return PMIX_CHECK_PROCID(a, b);
}

bool PMIx_Procid_invalid(const pmix_proc_t *p)
{
    return NULL == p || PMIX_PROCID_INVALID(p);
}

void PMIx_Load_procid(pmix_proc_t *p, const char *ns, pmix_rank_t rk)
{
    if (NULL != p) {
        PMIX_LOAD_PROCID(p, ns, rk);
    }
}

void PMIx_Xfer_procid(pmix_proc_t *dst, const pmix_proc_t *src)
{
    if (NULL != dst && NULL != src && dst != src) {
        PMIX_XFER_PROCID(dst, src);
    }
}

void PMIx_Multicluster_nspace_construct(pmix_nspace_t target, pmix_nspace_t cluster,
                                        pmix_nspace_t nspace)
{
    if (NULL != target && NULL != cluster && NULL != nspace) {
        PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(target, cluster, nspace);
    }
}

void PMIx_Multicluster_nspace_parse(pmix_nspace_t target, pmix_nspace_t cluster,
                                    pmix_nspace_t nspace)
{
    if (NULL != target && NULL != cluster && NULL != nspace) {
        PMIX_MULTICLUSTER_NSPACE_PARSE(target, cluster, nspace);
    }
}

/* ---- info flags and booleans ---- */

void PMIx_Info_required(pmix_info_t *p)
{
    if (NULL != p) {
        PMIX_INFO_REQUIRED(p);
    }
}

void PMIx_Info_optional(pmix_info_t *p)
{
    if (NULL != p) {
        PMIX_INFO_OPTIONAL(p);
    }
}

bool PMIx_Info_is_required(const pmix_info_t *p)
{
    return NULL != p && PMIX_INFO_IS_REQUIRED(p);
}

bool PMIx_Info_is_optional(const pmix_info_t *p)
{
    return NULL != p && PMIX_INFO_IS_OPTIONAL(p);
}

void PMIx_Info_processed(pmix_info_t *p)
{
    if (NULL != p) {
        PMIX_INFO_PROCESSED(p);
    }
}

bool PMIx_Info_was_processed(const pmix_info_t *p)
{
    return NULL != p && PMIX_INFO_WAS_PROCESSED(p);
}

void PMIx_Info_set_end(pmix_info_t *p)
{
    if (NULL != p) {
        PMIX_INFO_SET_END(p);
    }
}

bool PMIx_Info_is_end(const pmix_info_t *p)
{
    return NULL != p && PMIX_INFO_IS_END(p);
}

void PMIx_Info_qualifier(pmix_info_t *p)
{
    if (NULL != p) {
        PMIX_INFO_SET_QUALIFIER(p);
    }
}

bool PMIx_Info_is_qualifier(const pmix_info_t *p)
{
    return NULL != p && PMIX_INFO_IS_QUALIFIER(p);
}

void PMIx_Info_persistent(pmix_info_t *p)
{
    if (NULL != p) {
        PMIX_INFO_SET_PERSISTENT(p);
    }
}

bool PMIx_Info_is_persistent(const pmix_info_t *p)
{
    return NULL != p && PMIX_INFO_IS_PERSISTENT(p);
}

pmix_boolean_t PMIx_Value_true(const pmix_value_t *v)
{
    return NULL == v ? PMIX_NON_BOOL : pmix_check_true(v);
}

pmix_boolean_t PMIx_Info_true(const pmix_info_t *p)
{
    return NULL == p ? PMIX_NON_BOOL : pmix_check_true(&p->value);
}
