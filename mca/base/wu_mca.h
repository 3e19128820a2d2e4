/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_mca.h -- components, frameworks and selection: the only MCA header code outside mca/base needs.
 *
 * A framework (mca/<fw>/) decides one kind of thing (how to store data, how to log, how to launch)
 * and declares one wu_mca_framework_t. A component (mca/<fw>/<comp>/) is one way of doing it and
 * declares one wu_mca_component_t with WU_MCA_COMPONENT: names, a default priority, a parameter
 * table, an optional query() that returns a module (its operations) or declines, and optional
 * open/close. Components are linked into libpmix or loaded as DSOs wu_mca_<fw>_<comp>.so; the
 * base finds both and treats them alike.
 *
 * Opening a framework selects among its components in one fixed order: the user's include or
 * ^exclude list (parameter <fw>) -> query() (WU_ERR_NOT_AVAILABLE declines, WU_ERR_FATAL stops)
 * -> sort by effective priority (parameter <fw>_<comp>_priority) -> open() the chosen ones.
 * WU_MCA_SELECT_ONE frameworks keep the best; WU_MCA_SELECT_ALL keep every willing module in
 * priority order, and their dispatch lets a module pass a call on with WU_ERR_TAKE_NEXT. A
 * component with a negative priority runs only when the user names it. Every decision is logged
 * on the framework's stream at WU_VERB_COMPONENT (PMIX_MCA_<fw>_base_verbose=component). */
#ifndef WU_MCA_H
#define WU_MCA_H

#include "mca/base/wu_mca_param.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_output.h"

#include <stdbool.h>
#include <stdint.h>

/* Layout version of wu_mca_component_t; a DSO built against another layout is refused. */
#define WU_MCA_ABI 1u

typedef struct wu_mca_component {
    uint32_t abi;                 /* WU_MCA_ABI; checked before anything else is read */
    const char *framework, *name; /* must match the DSO file name wu_mca_<fw>_<name>.so */
    uint32_t fw_version;          /* WU_<FW>_VERSION of the framework header it was built with */
    int priority;                 /* default priority; negative: only when named explicitly */
    const char *description;      /* one line for wireup-info */
    const wu_mca_param_t *params; /* WU_PARAM_END-terminated; registered as <fw>_<name>_<param> */
    /* Optional. Return WU_SUCCESS with *module set (and *priority adjusted if wanted), or
     * WU_ERR_NOT_AVAILABLE with *reason (static text) to decline, or WU_ERR_FATAL to stop the
     * selection. NULL means: always available, module = .module. */
    int (*query)(const void **module, int *priority, const char **reason);
    int (*open)(void);   /* optional, called once the component is selected */
    void (*close)(void); /* optional, called for opened components at framework close */
    const void *module;  /* the framework's operations table, if query is NULL */
} wu_mca_component_t;

/* A DSO component's struct is what the loader looks up, so it is exported; one linked into a
 * library (WU_MCA_LINKED_IN, set for the objects of libpmix and libwireup-rte) is reached through
 * its framework's static list only and stays hidden, so the library exports the same names
 * whichever way its components are built. */
#ifdef WU_MCA_LINKED_IN
#define WU_MCA_COMPONENT_VISIBILITY
#else
#define WU_MCA_COMPONENT_VISIBILITY WU_EXPORT
#endif

#define WU_MCA_COMPONENT(fw, nm, ...)                                                       \
    WU_MCA_COMPONENT_VISIBILITY const wu_mca_component_t wu_mca_##fw##_##nm##_component = { \
        .abi = WU_MCA_ABI,                                                                  \
        .framework = #fw,                                                                   \
        .name = #nm,                                                                        \
        .fw_version = WU_##fw##_VERSION,                                                    \
        __VA_ARGS__}

typedef enum { WU_MCA_SELECT_ONE, WU_MCA_SELECT_ALL } wu_mca_select_mode_t;

/* What became of one component when its framework was opened. */
typedef enum {
    WU_MCA_COMP_KNOWN,      /* found, framework not opened yet */
    WU_MCA_COMP_EXCLUDED,   /* left out by the user's selection list */
    WU_MCA_COMP_DECLINED,   /* query() said it cannot run here */
    WU_MCA_COMP_NOT_CHOSEN, /* available, but another won (SELECT_ONE) */
    WU_MCA_COMP_SELECTED,   /* active */
    WU_MCA_COMP_FAILED      /* open() failed */
} wu_mca_comp_status_t;

typedef struct wu_mca_comp_entry {
    const wu_mca_component_t *component;
    char *dso_path; /* NULL for components linked in */
    wu_mca_comp_status_t status;
    const char *reason; /* why excluded/declined/failed (static text) */
    int priority;       /* effective priority (after param and query) */
    int priority_param; /* the <fw>_<comp>_priority variable */
    const void *module;
    bool opened;
    bool named;       /* the user's include list names it */
    void *dso_handle; /* lt_dlhandle of a DSO component */
} wu_mca_comp_entry_t;

typedef struct wu_mca_framework {
    /* declared by the framework */
    const char *name;
    const char *description;
    uint32_t version;
    wu_mca_select_mode_t mode;
    const wu_mca_param_t *params; /* optional, registered as <fw>_base_<name> */
    /* components linked into the library beside the framework, NULL-terminated (generated by
     * autogen.pl as wu_mca_<fw>_static_components; WU_MCA_FRAMEWORK sets it); NULL: none */
    const struct wu_mca_component *const *statics;
    /* state kept by mca/base */
    bool registered;
    int refcount;
    int output; /* stream for verbose messages, level from <fw>_base_verbose */
    int verbose;
    char *selection;             /* the <fw> parameter (include/exclude list) */
    wu_mca_comp_entry_t **comps; /* every known component, in discovery order */
    size_t ncomps;
    wu_mca_comp_entry_t **active; /* selected, best first */
    size_t nactive;
} wu_mca_framework_t;

/* The list of components linked in with framework fw (generated in mca/base/wu_mca_static_list*.c). */
#define WU_MCA_STATIC_DECL(fw) \
    extern const wu_mca_component_t *const wu_mca_##fw##_static_components[]

/* Declare a framework (in mca/<fw>/base/<fw>_base_frame.c). After the description come the mode
 * and, optionally, more members: WU_MCA_FRAMEWORK(ptl, "...", WU_MCA_SELECT_ALL, .params = p).
 * A framework declared by hand must set .statics = wu_mca_<fw>_static_components itself. */
#define WU_MCA_FRAMEWORK(fw, desc, ...)                                                       \
    WU_MCA_STATIC_DECL(fw);                                                                   \
    wu_mca_framework_t wu_mca_##fw##_framework = {.name = #fw,                                \
                                                  .description = (desc),                      \
                                                  .version = WU_##fw##_VERSION,               \
                                                  .statics = wu_mca_##fw##_static_components, \
                                                  .mode = __VA_ARGS__}

/* Bring up / down the MCA base: output, parameters (files read once), component repository.
 * Refcounted. */
WU_EXPORT int wu_mca_base_open(void);
WU_EXPORT void wu_mca_base_close(void);

/* Make a framework known (its parameters and every component's parameters registered, its
 * DSOs looked for). Built-in frameworks are registered by wu_mca_base_open; a framework that is
 * not part of libpmix (those of libwireup-rte, tests, out-of-tree code) registers itself with
 * this; wu_mca_framework_open does it too. */
WU_EXPORT int wu_mca_framework_register(wu_mca_framework_t *fw);
/* Select the framework's components (see above). Refcounted: a second open is a no-op.
 * Errors are reported to the user here (help message) and returned as WU_ERR_SILENT. */
WU_EXPORT int wu_mca_framework_open(wu_mca_framework_t *fw);
WU_EXPORT void wu_mca_framework_close(wu_mca_framework_t *fw);
/* A framework known to the base, by name; NULL if none. */
WU_EXPORT wu_mca_framework_t *wu_mca_framework_find(const char *name);
/* Every known framework, NULL-terminated, in registration order. */
WU_EXPORT wu_mca_framework_t **wu_mca_frameworks(void);

/* Add one component by hand (tests: fake components). Before the framework is opened. */
WU_EXPORT int wu_mca_framework_add_component(wu_mca_framework_t *fw, const wu_mca_component_t *c);

/* Module of the i-th active component (best first); NULL past the end. */
static inline const void *wu_mca_active_module(const wu_mca_framework_t *fw, size_t i)
{
    return i < fw->nactive ? fw->active[i]->module : NULL;
}

/* DSOs that were found but refused, for wireup-info. */
typedef struct wu_mca_dso_failure {
    const char *path;
    const char *reason;
} wu_mca_dso_failure_t;
WU_EXPORT size_t wu_mca_dso_failures(const wu_mca_dso_failure_t **list);

/* Components in the source tree, "fw/comp", whether built or not (for messages). */
const char *const *wu_mca_tree_component_list(void);
WU_EXPORT const char *wu_mca_comp_status_name(wu_mca_comp_status_t s);

/* Verbose message on a framework's stream: WU_MCA_VERBOSE(fw, WU_VERB_INFO, "plog:stdfd: ...") */
#define WU_MCA_VERBOSE(fw, level, ...) wu_output_verbose((level), (fw)->output, __VA_ARGS__)

#endif
