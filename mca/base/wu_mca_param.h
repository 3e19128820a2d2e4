/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_mca_param.h -- the MCA parameter registry.
 *
 * A parameter is declared in a table (wu_mca_param_t) next to the variable that holds it; the
 * variable's initial content is the default. Registering the table names each parameter
 * <fw>_<comp>_<name> (or <fw>_base_<name>, or a bare name for project-wide ones), looks its value
 * up by precedence and writes it into the variable:
 *
 *     command line (wu_mca_param_set_cmdline, e.g. wrun --mca) > environment PMIX_MCA_<name>
 *       > user file ~/.pmix/mca-params.conf > system file $sysconfdir/pmix-mca-params.conf > default
 *
 * Each value remembers where it came from (and the file and line for file values), which is what
 * wireup-info shows. A value that does not parse for the parameter's type is reported once with a
 * clear message and ignored (the next source down applies). Names nobody registers are a warning
 * (wu_mca_param_report_unknown), never an error. String values are owned by the registry: treat
 * the char * in your variable as const; it stays valid until wu_mca_param_finalize. */
#ifndef WU_MCA_PARAM_H
#define WU_MCA_PARAM_H

#include "opal/util/wu_macros.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    WU_PARAM_TYPE_INT,
    WU_PARAM_TYPE_UNSIGNED,
    WU_PARAM_TYPE_SIZE, /* size_t; accepts k/m/g suffixes (powers of 1024) */
    WU_PARAM_TYPE_BOOL, /* bool; 1/0 true/false yes/no on/off enabled/disabled */
    WU_PARAM_TYPE_STRING,
    WU_PARAM_TYPE_ENUM /* int holding one of the named values */
} wu_param_type_t;

/* Sources, lowest precedence first. */
typedef enum {
    WU_PARAM_SRC_DEFAULT,
    WU_PARAM_SRC_SYSFILE,
    WU_PARAM_SRC_USERFILE,
    WU_PARAM_SRC_ENV,
    WU_PARAM_SRC_CMDLINE,
    WU_PARAM_SRC_API /* set by the program itself */
} wu_param_source_t;

/* Named values: the only values of an ENUM, optional aliases for an INT. {NULL, 0}-terminated. */
typedef struct {
    const char *name;
    int value;
} wu_param_enum_t;

/* Info levels (as Open MPI): 1-3 for users running jobs, 4-6 tuning, 7-9 internals. */
enum {
    WU_INFO_LVL_1 = 1,
    WU_INFO_LVL_2,
    WU_INFO_LVL_3,
    WU_INFO_LVL_4,
    WU_INFO_LVL_5,
    WU_INFO_LVL_6,
    WU_INFO_LVL_7,
    WU_INFO_LVL_8,
    WU_INFO_LVL_9
};

#define WU_PARAM_FLAG_RANGE 0x1 /* INT/UNSIGNED/SIZE: value must lie in [min, max] */

/* One row of a component's or framework's parameter table. */
typedef struct wu_mca_param {
    const char *name;
    wu_param_type_t type;
    void *storage; /* int *, unsigned *, size_t *, bool *, char ** (STRING), int * (ENUM) */
    int level;
    const char *help;
    const wu_param_enum_t *enums;
    unsigned flags;
    int64_t min, max;
} wu_mca_param_t;

#define WU_PARAM_INT(n, p, lvl, h)                                                                 \
    {                                                                                              \
        .name = (n), .type = WU_PARAM_TYPE_INT, .storage = (int *)(p), .level = (lvl), .help = (h) \
    }
#define WU_PARAM_INT_RANGE(n, p, lo, hi, lvl, h)                                       \
    {                                                                                  \
        .name = (n), .type = WU_PARAM_TYPE_INT, .storage = (int *)(p), .level = (lvl), \
        .help = (h), .flags = WU_PARAM_FLAG_RANGE, .min = (lo), .max = (hi)            \
    }
#define WU_PARAM_UNSIGNED(n, p, lvl, h)                                                          \
    {                                                                                            \
        .name = (n), .type = WU_PARAM_TYPE_UNSIGNED, .storage = (unsigned *)(p), .level = (lvl), \
        .help = (h)                                                                              \
    }
#define WU_PARAM_SIZE(n, p, lvl, h)                                                        \
    {                                                                                      \
        .name = (n), .type = WU_PARAM_TYPE_SIZE, .storage = (size_t *)(p), .level = (lvl), \
        .help = (h)                                                                        \
    }
#define WU_PARAM_BOOL(n, p, lvl, h)                                                      \
    {                                                                                    \
        .name = (n), .type = WU_PARAM_TYPE_BOOL, .storage = (bool *)(p), .level = (lvl), \
        .help = (h)                                                                      \
    }
#define WU_PARAM_STRING(n, p, lvl, h)                                                       \
    {                                                                                       \
        .name = (n), .type = WU_PARAM_TYPE_STRING, .storage = (char **)(p), .level = (lvl), \
        .help = (h)                                                                         \
    }
#define WU_PARAM_ENUM(n, p, e, lvl, h)                                                \
    {                                                                                 \
        .name = (n), .type = WU_PARAM_TYPE_ENUM, .storage = (int *)(p), .enums = (e), \
        .level = (lvl), .help = (h)                                                   \
    }
#define WU_PARAM_END \
    {                \
        .name = NULL \
    }

/* A registered parameter, as wireup-info and tests see it (read only). */
typedef struct wu_mca_param_var {
    char *full_name;     /* e.g. "plog_stdfd_with_rank" */
    char *framework;     /* "plog", or NULL for project-wide parameters */
    char *component;     /* "stdfd", "base", or NULL */
    wu_mca_param_t decl; /* copy of the declaration (name, type, storage, level, help, ...) */
    char *default_str;   /* the default, formatted */
    void *default_ptr;   /* STRING: the variable's original pointer, restored at finalize */
    wu_param_source_t source;
    char *source_file; /* for file sources */
    int source_line;
    char *value_str; /* STRING: the current value (what the variable points to) */
} wu_mca_param_var_t;

/* Set up the registry and read the parameter files once. Refcounted; safe to call again. */
int wu_mca_param_init(void);
void wu_mca_param_finalize(void);

/* Register one parameter / a WU_PARAM_END-terminated table. fw and comp may be NULL (comp NULL:
 * <fw>_<name>; both NULL: <name>). Registering a name again rebinds it to the new variable and
 * writes the current value there. WU_ERR_BAD_PARAM for an empty name or help text, an unknown
 * type, an ENUM without values, or a default that is not valid for the type. */
int wu_mca_param_register(const char *fw, const char *comp, const wu_mca_param_t *p);
WU_EXPORT int wu_mca_param_register_table(const char *fw, const char *comp,
                                          const wu_mca_param_t *table);

/* Forget every parameter of one component (restoring its string variables to their defaults).
 * Must be called before the code holding the variables is unloaded (DSO components). */
void wu_mca_param_forget(const char *fw, const char *comp);

/* Command-line values (wrun --mca k v): stored, and applied now if k is registered. A key given
 * twice is comma-joined, as mpirun does. */
WU_EXPORT int wu_mca_param_set_cmdline(const char *name, const char *value);
/* Set from the program (source "api"). WU_ERR_NOT_FOUND if not registered, WU_ERR_BAD_PARAM if
 * the value does not parse. */
int wu_mca_param_set(const char *name, const char *value);

/* Lookup; NULL if not registered. Iterate with index 0..wu_mca_param_count()-1. */
WU_EXPORT const wu_mca_param_var_t *wu_mca_param_find(const char *full_name);
WU_EXPORT int wu_mca_param_count(void);
WU_EXPORT const wu_mca_param_var_t *wu_mca_param_at(int index);

/* The current value formatted for people (malloc'd; caller frees). */
WU_EXPORT char *wu_mca_param_value_string(const wu_mca_param_var_t *v);
WU_EXPORT const char *wu_mca_param_source_name(wu_param_source_t s);
WU_EXPORT const char *wu_mca_param_type_name(wu_param_type_t t);

/* Parse a string for a declaration's type into *out (an int64 for numbers/bools/enums).
 * WU_ERR_BAD_PARAM with a reason in *why (static text) when it does not fit. */
int wu_mca_param_parse(const wu_mca_param_t *decl, const char *s, int64_t *out, const char **why);

/* Warn about PMIX_MCA_* environment variables and file keys that no registered parameter has.
 * Returns how many were found; each is printed once (to stderr) when print is true. */
WU_EXPORT int wu_mca_param_report_unknown(bool print);

/* The files in use (after PMIX_MCA_mca_base_param_file_* overrides). */
const char *wu_mca_param_user_file(void);
const char *wu_mca_param_system_file(void);

#endif
