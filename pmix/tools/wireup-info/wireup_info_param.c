/* SPDX-License-Identifier: BSD-3-Clause */
/* wireup_info_param.c -- wireup-info's listing of components and parameters. */
#include "pmix/tools/wireup-info/wireup_info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wi_show_components(const wu_mca_framework_t *fw)
{
    const wu_mca_param_var_t *sel = wu_mca_param_find(fw->name);
    if (wi_parsable) {
        printf("mca:%s:selection:%s\n", fw->name, fw->selection ? fw->selection : "");
        printf("mca:%s:selection:source:%s\n", fw->name,
               sel ? wu_mca_param_source_name(sel->source) : "default");
    } else if (NULL != fw->selection && '\0' != fw->selection[0]) {
        printf("%24s: %s = \"%s\" (from %s)\n", "Selection", fw->name, fw->selection,
               sel ? wu_mca_param_source_name(sel->source) : "default");
    }
    if (0 == fw->ncomps) {
        wi_fact("mca:none", "MCA", "%s: no components", fw->name);
    }
    for (size_t i = 0; i < fw->ncomps; i++) {
        const wu_mca_comp_entry_t *e = fw->comps[i];
        const char *how = e->dso_path ? "dso" : "built in";
        if (wi_parsable) {
            printf("mca:%s:%s:type:%s\n", fw->name, e->component->name,
                   e->dso_path ? "dso" : "static");
            if (e->dso_path) {
                printf("mca:%s:%s:path:%s\n", fw->name, e->component->name, e->dso_path);
            }
            printf("mca:%s:%s:priority:%d\n", fw->name, e->component->name, e->priority_param);
            printf("mca:%s:%s:status:%s\n", fw->name, e->component->name,
                   wu_mca_comp_status_name(e->status));
            if (e->reason) {
                printf("mca:%s:%s:reason:%s\n", fw->name, e->component->name, e->reason);
            }
        } else {
            char label[64];
            snprintf(label, sizeof label, "MCA %s", fw->name);
            printf("%24s: %s (%s%s%s, priority %d) %s%s%s\n", label, e->component->name, how,
                   e->dso_path ? " " : "", e->dso_path ? e->dso_path : "", e->priority_param,
                   wu_mca_comp_status_name(e->status), e->reason ? ": " : "",
                   e->reason ? e->reason : "");
        }
    }
}

static bool matches(const wu_mca_param_var_t *v, const char *fw, const char *comp)
{
    if (NULL != fw) {
        /* project-wide parameters named like a framework (the selection list "plog") belong to it */
        bool is_sel = NULL == v->framework && 0 == strcmp(v->full_name, fw);
        if (!is_sel && (NULL == v->framework || 0 != strcmp(v->framework, fw))) {
            return false;
        }
        if (is_sel) {
            return NULL == comp || 0 == strcmp(comp, "base");
        }
    }
    if (NULL != comp) {
        const char *c = v->component ? v->component : "base";
        return 0 == strcmp(c, comp);
    }
    return true;
}

int wi_show_params(const char *fw, const char *comp)
{
    int n = 0;
    for (int i = 0; i < wu_mca_param_count(); i++) {
        const wu_mca_param_var_t *v = wu_mca_param_at(i);
        char *val, src[1024];
        if (!matches(v, fw, comp) || v->decl.level > wi_level) {
            continue;
        }
        n++;
        val = wu_mca_param_value_string(v);
        if (v->source_file) {
            snprintf(src, sizeof src, "%s %s:%d", wu_mca_param_source_name(v->source),
                     v->source_file, v->source_line);
        } else if (WU_PARAM_SRC_ENV == v->source) {
            snprintf(src, sizeof src, "environment PMIX_MCA_%s", v->full_name);
        } else {
            snprintf(src, sizeof src, "%s", wu_mca_param_source_name(v->source));
        }
        if (wi_parsable) {
            const char *scope = v->framework ? v->framework : v->full_name;
            const char *c = v->component ? v->component : "base";
            printf("mca:%s:%s:param:%s:value:%s\n", scope, c, v->full_name, val ? val : "");
            printf("mca:%s:%s:param:%s:source:%s\n", scope, c, v->full_name,
                   wu_mca_param_source_name(v->source));
            if (v->source_file) {
                printf("mca:%s:%s:param:%s:source_file:%s:%d\n", scope, c, v->full_name,
                       v->source_file, v->source_line);
            }
            printf("mca:%s:%s:param:%s:type:%s\n", scope, c, v->full_name,
                   wu_mca_param_type_name(v->decl.type));
            printf("mca:%s:%s:param:%s:default:%s\n", scope, c, v->full_name,
                   v->default_str ? v->default_str : "");
            printf("mca:%s:%s:param:%s:level:%d\n", scope, c, v->full_name, v->decl.level);
            printf("mca:%s:%s:param:%s:help:%s\n", scope, c, v->full_name, v->decl.help);
            for (const wu_param_enum_t *e = v->decl.enums; e && e->name; e++) {
                printf("mca:%s:%s:param:%s:enumerator:%d:%s\n", scope, c, v->full_name, e->value,
                       e->name);
            }
        } else {
            char label[96];
            snprintf(label, sizeof label, "MCA %s%s%s", v->framework ? v->framework : v->full_name,
                     v->component ? " " : "", v->component ? v->component : "");
            printf("%24s: parameter \"%s\" (current value: \"%s\", data source: %s, level: %d, "
                   "type: %s)\n",
                   label, v->full_name, val ? val : "", src, v->decl.level,
                   wu_mca_param_type_name(v->decl.type));
            printf("%24s  %s\n", "", v->decl.help);
            if (NULL != v->decl.enums) {
                printf("%24s  Valid values:", "");
                for (const wu_param_enum_t *e = v->decl.enums; e->name; e++) {
                    printf(" %s(%d)", e->name, e->value);
                }
                printf("\n");
            }
        }
        free(val);
    }
    return n;
}
