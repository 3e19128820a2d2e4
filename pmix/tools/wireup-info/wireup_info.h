/* SPDX-License-Identifier: BSD-3-Clause */
/* wireup_info.h -- shared state of the wireup-info tool. */
#ifndef WIREUP_INFO_H
#define WIREUP_INFO_H

#include "mca/base/wu_mca.h"

#include <stdbool.h>

extern bool wi_parsable;
extern int wi_level;

/* Print one "label: value" fact (human) or "key:value" line (parsable). */
void wi_fact(const char *key, const char *label, const char *fmt, ...) WU_PRINTF(3, 4);
/* Show the components of fw and what selection made of them. */
void wi_show_components(const wu_mca_framework_t *fw);
/* Show the parameters of fw (NULL: all) and component comp (NULL: all). Returns how many. */
int wi_show_params(const char *fw, const char *comp);

#endif
