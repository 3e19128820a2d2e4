/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_mca_internal.h -- what the files of mca/base share and nobody else needs. */
#ifndef WU_MCA_INTERNAL_H
#define WU_MCA_INTERNAL_H

#include "mca/base/wu_mca.h"

/* Stream of the repository and parameter system (mca_base_verbose). */
extern int wu_mca_base_output;
/* none, error, component, warn, info, trace, debug, max */
extern const wu_param_enum_t wu_mca_verbose_names[];

int wu_mca_comp_register_params(wu_mca_framework_t *fw, wu_mca_comp_entry_t *e);

#endif
