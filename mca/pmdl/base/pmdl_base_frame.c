/* SPDX-License-Identifier: BSD-3-Clause */
/* pmdl_base_frame.c -- the pmdl framework declaration and its dispatch. */
#include "mca/pmdl/pmdl.h"

WU_MCA_FRAMEWORK(pmdl, "Programming-model environment of launched processes (Open MPI, ...)",
                 WU_MCA_SELECT_ALL);

int wu_pmdl_base_open(void)
{
    return wu_mca_framework_open(&wu_mca_pmdl_framework);
}

void wu_pmdl_base_close(void)
{
    wu_mca_framework_close(&wu_mca_pmdl_framework);
}

int wu_pmdl_base_setup_env(const wu_pmdl_proc_t *p, char ***env)
{
    const wu_pmdl_module_t *m;
    if (NULL == p || NULL == env) {
        return WU_ERR_BAD_PARAM;
    }
    for (size_t i = 0; NULL != (m = wu_mca_active_module(&wu_mca_pmdl_framework, i)); i++) {
        int rc = m->setup_env(p, env);
        if (WU_SUCCESS != rc && WU_ERR_TAKE_NEXT != rc) {
            return rc;
        }
    }
    return WU_SUCCESS;
}

bool wu_pmdl_base_wants_pmi(const wu_pmdl_proc_t *p)
{
    const wu_pmdl_module_t *m;
    for (size_t i = 0; NULL != p && NULL != (m = wu_mca_active_module(&wu_mca_pmdl_framework, i));
         i++) {
        if (NULL != m->wants_pmi && m->wants_pmi(p)) {
            return true;
        }
    }
    return false;
}

const char *wu_pmdl_base_mca_prefix(const char *name)
{
    const wu_pmdl_module_t *m;
    if (NULL == name) {
        return NULL;
    }
    for (size_t i = 0; NULL != (m = wu_mca_active_module(&wu_mca_pmdl_framework, i)); i++) {
        const char *prefix = NULL != m->mca_prefix ? m->mca_prefix(name) : NULL;
        if (NULL != prefix) {
            return prefix;
        }
    }
    return NULL;
}
