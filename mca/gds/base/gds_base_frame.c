/* SPDX-License-Identifier: BSD-3-Clause */
/* gds_base_frame.c -- the gds framework declaration and the helpers every component shares. */
#include "mca/gds/gds.h"

#include "pmix.h"

#include <string.h>

WU_MCA_FRAMEWORK(gds, "Data store of the PMIx client and server (job, proc, node data)",
                 WU_MCA_SELECT_ONE);

int wu_gds_base_open(void)
{
    return wu_mca_framework_open(&wu_mca_gds_framework);
}

void wu_gds_base_close(void)
{
    wu_mca_framework_close(&wu_mca_gds_framework);
}

const wu_gds_module_t *wu_gds_base_module(void)
{
    return wu_mca_active_module(&wu_mca_gds_framework, 0);
}

bool wu_gds_base_key_reserved(const char *key)
{
    const char *name;
    if (NULL == key || 0 != strncmp(key, "pmix", 4)) {
        return false;
    }
    /* PMIx_Get_attribute_name gives the attribute's name for a defined key, the key otherwise */
    name = PMIx_Get_attribute_name(key);
    return NULL == name || name == key || 0 == strcmp(name, key);
}
