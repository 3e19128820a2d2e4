/* SPDX-License-Identifier: BSD-3-Clause */
/* pnet_base_frame.c -- the pnet framework declaration and its dispatch to every active module. */
#include "mca/pnet/pnet.h"
#include "opal/util/wu_argv.h"
#include "pmix/common/wu_value.h"

#include <stdlib.h>
#include <string.h>

WU_MCA_FRAMEWORK(pnet, "Network preparation of a job at launch (interfaces, ports, keys)",
                 WU_MCA_SELECT_ALL);

int wu_pnet_base_open(void)
{
    return wu_mca_framework_open(&wu_mca_pnet_framework);
}

void wu_pnet_base_close(void)
{
    wu_mca_framework_close(&wu_mca_pnet_framework);
}

static const wu_pnet_module_t *module_at(size_t i)
{
    return wu_mca_active_module(&wu_mca_pnet_framework, i);
}

/* Append the n infos of add to *all (deep copies); add is left to the caller. */
static int append(pmix_info_t **all, size_t *nall, const pmix_info_t *add, size_t n)
{
    pmix_info_t *grown;
    if (0 == n) {
        return WU_SUCCESS;
    }
    PMIX_INFO_CREATE(grown, *nall + n);
    if (NULL == grown) {
        return WU_ERR_NOMEM;
    }
    for (size_t i = 0; i < *nall + n; i++) {
        const pmix_info_t *from = i < *nall ? &(*all)[i] : &add[i - *nall];
        pmix_status_t rc = wu_info_copy(&grown[i], from);
        if (PMIX_SUCCESS != rc) {
            PMIX_INFO_FREE(grown, *nall + n);
            return rc;
        }
        grown[i].flags &= ~PMIX_INFO_ARRAY_END; /* xfer copies it from the end of add */
    }
    grown[*nall + n - 1].flags |= PMIX_INFO_ARRAY_END;
    if (NULL != *all) {
        PMIX_INFO_FREE(*all, *nall);
    }
    *all = grown;
    *nall += n;
    return WU_SUCCESS;
}

int wu_pnet_base_setup_app(const char *nspace, const pmix_info_t *info, size_t ninfo,
                           pmix_info_t **out, size_t *nout)
{
    const wu_pnet_module_t *m;
    pmix_info_t *all = NULL;
    size_t nall = 0;
    int rc = WU_SUCCESS;

    if (NULL == nspace || NULL == out || NULL == nout || (NULL == info && ninfo > 0)) {
        return WU_ERR_BAD_PARAM;
    }
    *out = NULL;
    *nout = 0;
    for (size_t i = 0; WU_SUCCESS == rc && NULL != (m = module_at(i)); i++) {
        pmix_info_t *add = NULL;
        size_t nadd = 0;
        if (NULL == m->setup_app) {
            continue;
        }
        rc = m->setup_app(nspace, info, ninfo, &add, &nadd);
        if (WU_ERR_TAKE_NEXT == rc) {
            rc = WU_SUCCESS;
        } else if (WU_SUCCESS == rc) {
            rc = append(&all, &nall, add, nadd);
        }
        if (NULL != add) {
            PMIX_INFO_FREE(add, nadd);
        }
    }
    if (WU_SUCCESS != rc) {
        if (NULL != all) {
            PMIX_INFO_FREE(all, nall);
        }
        wu_pnet_base_forget(nspace); /* nothing reserved for a job that will not start */
        return rc;
    }
    WU_MCA_VERBOSE(&wu_mca_pnet_framework, WU_VERB_INFO, "pnet:base: %zu infos for job %s", nall,
                   nspace);
    *out = all;
    *nout = nall;
    return WU_SUCCESS;
}

int wu_pnet_base_setup_local(const char *nspace, const pmix_info_t *info, size_t ninfo)
{
    const wu_pnet_module_t *m;
    if (NULL == nspace || (NULL == info && ninfo > 0)) {
        return WU_ERR_BAD_PARAM;
    }
    for (size_t i = 0; NULL != (m = module_at(i)); i++) {
        int rc = NULL == m->setup_local ? WU_SUCCESS : m->setup_local(nspace, info, ninfo);
        if (WU_SUCCESS != rc && WU_ERR_TAKE_NEXT != rc) {
            return rc;
        }
    }
    return WU_SUCCESS;
}

/* Set each "NAME=value" of vars in *env. */
static int set_vars(char **vars, char ***env)
{
    for (int i = 0; NULL != vars && NULL != vars[i]; i++) {
        char *eq = strchr(vars[i], '=');
        int rc;
        if (NULL == eq || eq == vars[i]) {
            return WU_ERR_BAD_FORMAT;
        }
        *eq = '\0';
        rc = wu_setenv(vars[i], eq + 1, true, env);
        *eq = '=';
        if (WU_SUCCESS != rc) {
            return rc;
        }
    }
    return WU_SUCCESS;
}

int wu_pnet_base_setup_fork(const char *nspace, char ***env)
{
    const wu_pnet_module_t *m;
    if (NULL == nspace || NULL == env) {
        return WU_ERR_BAD_PARAM;
    }
    for (size_t i = 0; NULL != (m = module_at(i)); i++) {
        char **vars = NULL;
        int rc = NULL == m->fork_env ? WU_SUCCESS : m->fork_env(nspace, &vars);
        if (WU_SUCCESS == rc) {
            rc = set_vars(vars, env);
        }
        wu_argv_free(vars);
        if (WU_SUCCESS != rc && WU_ERR_TAKE_NEXT != rc) {
            return rc;
        }
    }
    return WU_SUCCESS;
}

void wu_pnet_base_forget(const char *nspace)
{
    const wu_pnet_module_t *m;
    if (NULL == nspace) {
        return;
    }
    for (size_t i = 0; NULL != (m = module_at(i)); i++) {
        if (NULL != m->forget) {
            m->forget(nspace);
        }
    }
}
