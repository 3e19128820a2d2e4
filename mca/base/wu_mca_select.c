/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_mca_select.c -- opening a framework: the user's selection list, query, priority order,
 * select one or all, and closing. The one place that fixes the order of these steps. */
#include "mca/base/wu_mca.h"
#include "mca/base/wu_mca_internal.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parsed form of the <fw> parameter. */
typedef struct {
    char **names; /* NULL: no list given */
    bool exclude;
} selection_t;

/* Where the <fw> parameter's value came from, for messages: "PMIX_MCA_plog=foo (environment)". */
static void describe_source(const wu_mca_framework_t *fw, char *buf, size_t len)
{
    const wu_mca_param_var_t *v = wu_mca_param_find(fw->name);
    const char *val = fw->selection ? fw->selection : "";
    if (NULL == v) {
        snprintf(buf, len, "%s=%s", fw->name, val);
        return;
    }
    switch (v->source) {
    case WU_PARAM_SRC_ENV:
        snprintf(buf, len, "PMIX_MCA_%s=%s (environment)", fw->name, val);
        break;
    case WU_PARAM_SRC_USERFILE:
    case WU_PARAM_SRC_SYSFILE:
        snprintf(buf, len, "\"%s = %s\" (%s, line %d)", fw->name, val,
                 v->source_file ? v->source_file : "?", v->source_line);
        break;
    case WU_PARAM_SRC_CMDLINE:
        snprintf(buf, len, "--mca %s %s (command line)", fw->name, val);
        break;
    default:
        snprintf(buf, len, "%s=%s (%s)", fw->name, val, wu_mca_param_source_name(v->source));
        break;
    }
}

/* Names of the components of fw we have, as "a, b, c" (malloc'd). */
static char *known_list(const wu_mca_framework_t *fw)
{
    char **names = NULL, *s;
    for (size_t i = 0; i < fw->ncomps; i++) {
        wu_argv_append(&names, fw->comps[i]->component->name);
    }
    s = names ? wu_argv_join(names, ',') : strdup("(none)");
    for (char *c = s; NULL != c && NULL != (c = strchr(c, ',')); c++) {
        *c = ' '; /* "a b c" reads better in a sentence than "a,b,c" */
    }
    wu_argv_free(names);
    return s;
}

static bool in_tree(const wu_mca_framework_t *fw, const char *name)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", fw->name, name);
    for (const char *const *t = wu_mca_tree_component_list(); NULL != *t; t++) {
        if (0 == strcmp(*t, buf)) {
            return true;
        }
    }
    return false;
}

static wu_mca_comp_entry_t *entry_by_name(wu_mca_framework_t *fw, const char *name)
{
    for (size_t i = 0; i < fw->ncomps; i++) {
        if (0 == strcmp(fw->comps[i]->component->name, name)) {
            return fw->comps[i];
        }
    }
    return NULL;
}

/* Parse and check the selection list; reports problems itself. */
static int parse_selection(wu_mca_framework_t *fw, selection_t *sel)
{
    char where[1024];
    const char *s = fw->selection;
    int rc = WU_SUCCESS;

    sel->names = NULL;
    sel->exclude = false;
    if (NULL == s || '\0' == s[0]) {
        return WU_SUCCESS;
    }
    describe_source(fw, where, sizeof where);
    if ('^' == s[0]) {
        sel->exclude = true;
        s++;
    }
    if (NULL != strchr(s, '^')) {
        wu_show_help("help-wu-mca.txt", "bad-selection-syntax", true, fw->name, where);
        return WU_ERR_SILENT;
    }
    sel->names = wu_argv_split(s, ',');
    for (int i = 0; NULL != sel->names && NULL != sel->names[i]; i++) {
        char *n = wu_string_trim(sel->names[i]);
        memmove(sel->names[i], n, strlen(n) + 1);
        if (NULL != entry_by_name(fw, sel->names[i])) {
            continue;
        }
        char *known = known_list(fw);
        const char *note = in_tree(fw, sel->names[i])
                               ? "That component exists in Wireup's sources but was not built into "
                                 "this installation (see wireup-info for how it was configured)."
                               : "Check the spelling; wireup-info lists the components of every "
                                 "framework.";
        if (sel->exclude) {
            wu_output_verbose(WU_VERB_WARN, fw->output,
                              "%s:base: %s excludes unknown component \"%s\" (known: %s)", fw->name,
                              where, sel->names[i], known);
        } else {
            wu_show_help("help-wu-mca.txt", "unknown-component", true, fw->name, sel->names[i],
                         where, known, note);
            rc = WU_ERR_SILENT;
        }
        free(known);
    }
    if (0 == wu_argv_count(sel->names)) {
        wu_show_help("help-wu-mca.txt", "bad-selection-syntax", true, fw->name, where);
        rc = WU_ERR_SILENT;
    }
    return rc;
}

static bool listed(const selection_t *sel, const char *name)
{
    for (int i = 0; NULL != sel->names && NULL != sel->names[i]; i++) {
        if (0 == strcmp(sel->names[i], name)) {
            return true;
        }
    }
    return false;
}

static int by_priority(const void *a, const void *b)
{
    const wu_mca_comp_entry_t *x = *(wu_mca_comp_entry_t *const *)a;
    const wu_mca_comp_entry_t *y = *(wu_mca_comp_entry_t *const *)b;
    if (x->priority != y->priority) {
        return x->priority > y->priority ? -1 : 1;
    }
    return strcmp(x->component->name, y->component->name);
}

/* One line per component that could not be used, for error messages (malloc'd). */
static char *status_report(const wu_mca_framework_t *fw, bool only_named)
{
    char *out = strdup(""), *next;
    for (size_t i = 0; NULL != out && i < fw->ncomps; i++) {
        const wu_mca_comp_entry_t *e = fw->comps[i];
        if (only_named && !e->named) {
            continue;
        }
        next = NULL;
        (void)wu_asprintf(&next, "%s  %s: %s%s%s\n", out, e->component->name,
                          wu_mca_comp_status_name(e->status), e->reason ? " - " : "",
                          e->reason ? e->reason : "");
        free(out);
        out = next;
    }
    return out;
}

static void close_entries(wu_mca_framework_t *fw)
{
    for (size_t i = 0; i < fw->ncomps; i++) {
        wu_mca_comp_entry_t *e = fw->comps[i];
        if (e->opened && NULL != e->component->close) {
            e->component->close();
        }
        e->opened = false;
        e->module = NULL;
        e->status = WU_MCA_COMP_KNOWN;
        e->reason = NULL;
        e->named = false;
    }
    free(fw->active);
    fw->active = NULL;
    fw->nactive = 0;
}

static int select_components(wu_mca_framework_t *fw, const selection_t *sel)
{
    wu_mca_comp_entry_t **cand = calloc(fw->ncomps + 1, sizeof(*cand));
    size_t ncand = 0;
    bool named_failed = false, any_named = false;
    int rc = WU_SUCCESS;

    if (NULL == cand) {
        return WU_ERR_NOMEM;
    }
    for (size_t i = 0; i < fw->ncomps; i++) {
        wu_mca_comp_entry_t *e = fw->comps[i];
        const wu_mca_component_t *c = e->component;
        const char *reason = NULL;
        int qrc;
        e->named = !sel->exclude && listed(sel, c->name);
        any_named |= e->named;
        if (NULL != sel->names && sel->exclude == listed(sel, c->name)) {
            e->status = WU_MCA_COMP_EXCLUDED;
            e->reason =
                sel->exclude ? "excluded by the selection list" : "not in the selection list";
            wu_output_verbose(WU_VERB_COMPONENT, fw->output, "%s:base: %s: %s", fw->name, c->name,
                              e->reason);
            continue;
        }
        e->priority = e->priority_param;
        if (e->priority < 0 && !e->named) {
            e->status = WU_MCA_COMP_EXCLUDED;
            e->reason = "runs only when named in the selection list";
            wu_output_verbose(WU_VERB_COMPONENT, fw->output, "%s:base: %s: %s", fw->name, c->name,
                              e->reason);
            continue;
        }
        e->module = c->module;
        qrc = NULL == c->query ? WU_SUCCESS : c->query(&e->module, &e->priority, &reason);
        if (WU_ERR_FATAL == qrc) {
            e->status = WU_MCA_COMP_DECLINED;
            e->reason = reason ? reason : "fatal error";
            wu_output_verbose(WU_VERB_ERROR, fw->output, "%s:base: %s stopped the selection: %s",
                              fw->name, c->name, e->reason);
            free(cand);
            return WU_ERR_FATAL;
        }
        if (WU_SUCCESS != qrc || NULL == e->module) {
            e->status = WU_MCA_COMP_DECLINED;
            e->reason = reason
                            ? reason
                            : (WU_SUCCESS == qrc ? "it provided no module" : "not available here");
            named_failed |= e->named;
            wu_output_verbose(WU_VERB_COMPONENT, fw->output, "%s:base: %s declined: %s", fw->name,
                              c->name, e->reason);
            continue;
        }
        wu_output_verbose(WU_VERB_COMPONENT, fw->output, "%s:base: %s available, priority %d",
                          fw->name, c->name, e->priority);
        cand[ncand++] = e;
    }
    qsort(cand, ncand, sizeof(*cand), by_priority);

    for (size_t i = 0; i < ncand; i++) {
        wu_mca_comp_entry_t *e = cand[i];
        if (WU_MCA_SELECT_ONE == fw->mode && fw->nactive > 0) {
            e->status = WU_MCA_COMP_NOT_CHOSEN;
            e->reason = "a component with a higher priority was selected";
            continue;
        }
        if (NULL != e->component->open && WU_SUCCESS != e->component->open()) {
            e->status = WU_MCA_COMP_FAILED;
            e->reason = "its open() failed";
            named_failed |= e->named;
            wu_output_verbose(WU_VERB_COMPONENT, fw->output, "%s:base: %s failed to open", fw->name,
                              e->component->name);
            continue;
        }
        e->opened = true;
        e->status = WU_MCA_COMP_SELECTED;
        fw->active = realloc(fw->active, (fw->nactive + 1) * sizeof(*fw->active));
        if (NULL == fw->active) {
            fw->nactive = 0;
            free(cand);
            return WU_ERR_NOMEM;
        }
        fw->active[fw->nactive++] = e;
        wu_output_verbose(WU_VERB_COMPONENT, fw->output, "%s:base: selected %s (priority %d)",
                          fw->name, e->component->name, e->priority);
    }
    free(cand);

    /* A component the user asked for must run: for select-one frameworks, one of those named;
     * for select-all frameworks, each of them. */
    if (any_named && ((WU_MCA_SELECT_ALL == fw->mode && named_failed) ||
                      (WU_MCA_SELECT_ONE == fw->mode && 0 == fw->nactive))) {
        char where[1024], *report = status_report(fw, true);
        describe_source(fw, where, sizeof where);
        wu_show_help("help-wu-mca.txt", "named-component-unavailable", true, fw->name, where,
                     report ? report : "");
        free(report);
        rc = WU_ERR_SILENT;
    } else if (WU_MCA_SELECT_ONE == fw->mode && 0 == fw->nactive) {
        char *report = status_report(fw, false);
        wu_show_help("help-wu-mca.txt", "no-component", true, fw->name, report ? report : "");
        free(report);
        rc = WU_ERR_SILENT;
    }
    return rc;
}

int wu_mca_framework_open(wu_mca_framework_t *fw)
{
    selection_t sel;
    int rc;
    if (NULL == fw) {
        return WU_ERR_BAD_PARAM;
    }
    if (!fw->registered && WU_SUCCESS != (rc = wu_mca_framework_register(fw))) {
        return rc;
    }
    if (fw->refcount++ > 0) {
        return WU_SUCCESS;
    }
    wu_output_set_verbosity(fw->output, fw->verbose);
    rc = parse_selection(fw, &sel);
    if (WU_SUCCESS == rc) {
        rc = select_components(fw, &sel);
    }
    wu_argv_free(sel.names);
    if (WU_SUCCESS != rc) {
        close_entries(fw);
        fw->refcount = 0;
    }
    return rc;
}

void wu_mca_framework_close(wu_mca_framework_t *fw)
{
    if (NULL == fw || fw->refcount <= 0 || --fw->refcount > 0) {
        return;
    }
    close_entries(fw);
}
