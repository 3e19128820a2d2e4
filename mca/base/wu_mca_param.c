/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_mca_param.c -- the MCA parameter registry: registration, sources and precedence, parsing. */
#include "mca/base/wu_mca_param.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_keyval.h"
#include "opal/util/wu_path.h"
#include "opal/util/wu_show_help.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ENV_PREFIX "PMIX_MCA_"

extern char **environ;

typedef struct {
    char *key, *value, *file;
    int line;
} entry_t;

typedef struct {
    entry_t *v;
    size_t n, cap;
} entries_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int refcount;
static wu_mca_param_var_t **vars;
static int nvars, capvars;
static entries_t user_entries, sys_entries, cmdline_entries;
static char *user_file, *system_file;

static const char *const source_names[] = {"default",     "file (system)", "file (user)",
                                           "environment", "command line",  "api"};
static const char *const type_names[] = {"int", "unsigned", "size", "bool", "string", "enum"};

const char *wu_mca_param_source_name(wu_param_source_t s)
{
    return (unsigned)s < WU_NELEMS(source_names) ? source_names[s] : "unknown";
}

const char *wu_mca_param_type_name(wu_param_type_t t)
{
    return (unsigned)t < WU_NELEMS(type_names) ? type_names[t] : "unknown";
}

/* ---------------------------------------------------------------- entries (files, cmdline) */

static entry_t *entries_find(entries_t *e, const char *key)
{
    /* the last occurrence wins within one file, as a later line overrides an earlier one */
    for (size_t i = e->n; i > 0; i--) {
        if (0 == strcmp(e->v[i - 1].key, key)) {
            return &e->v[i - 1];
        }
    }
    return NULL;
}

static int entries_add(entries_t *e, const char *key, const char *value, const char *file, int line)
{
    if (e->n == e->cap) {
        size_t ncap = e->cap ? 2 * e->cap : 16;
        entry_t *nv = realloc(e->v, ncap * sizeof(*nv));
        if (NULL == nv) {
            return WU_ERR_NOMEM;
        }
        e->v = nv;
        e->cap = ncap;
    }
    e->v[e->n].key = strdup(key);
    e->v[e->n].value = strdup(value);
    e->v[e->n].file = file ? strdup(file) : NULL;
    e->v[e->n].line = line;
    if (NULL == e->v[e->n].key || NULL == e->v[e->n].value || (file && !e->v[e->n].file)) {
        free(e->v[e->n].key);
        free(e->v[e->n].value);
        free(e->v[e->n].file);
        return WU_ERR_NOMEM;
    }
    e->n++;
    return WU_SUCCESS;
}

static void entries_free(entries_t *e)
{
    for (size_t i = 0; i < e->n; i++) {
        free(e->v[i].key);
        free(e->v[i].value);
        free(e->v[i].file);
    }
    free(e->v);
    memset(e, 0, sizeof(*e));
}

static void file_entry_cb(const char *key, const char *value, const char *file, int line, void *ctx)
{
    (void)entries_add(ctx, key, value, file, line);
}

/* ---------------------------------------------------------------- parsing */

static int parse_int64(const char *s, int64_t *out, bool allow_neg)
{
    char *end;
    long long v;
    if (NULL == s || '\0' == *s) {
        return WU_ERR_BAD_PARAM;
    }
    while (' ' == *s || '\t' == *s) {
        s++;
    }
    if (!allow_neg && '-' == *s) {
        return WU_ERR_BAD_PARAM;
    }
    errno = 0;
    v = strtoll(s, &end, 0);
    if (0 != errno || end == s) {
        return WU_ERR_BAD_PARAM;
    }
    while (' ' == *end || '\t' == *end) {
        end++;
    }
    *out = v;
    return '\0' == *end ? WU_SUCCESS : WU_ERR_BAD_FORMAT;
}

static const wu_param_enum_t *enum_by_name(const wu_param_enum_t *e, const char *s)
{
    for (; NULL != e && NULL != e->name; e++) {
        if (0 == strcasecmp(e->name, s)) {
            return e;
        }
    }
    return NULL;
}

static const wu_param_enum_t *enum_by_value(const wu_param_enum_t *e, int64_t v)
{
    for (; NULL != e && NULL != e->name; e++) {
        if (e->value == v) {
            return e;
        }
    }
    return NULL;
}

int wu_mca_param_parse(const wu_mca_param_t *d, const char *s, int64_t *out, const char **why)
{
    static const char *const yes[] = {"1", "true", "yes", "on", "enabled", "y", "t"};
    static const char *const no[] = {"0", "false", "no", "off", "disabled", "n", "f"};
    const wu_param_enum_t *e;
    int64_t v = 0;
    int rc;

    *why = NULL;
    if (NULL == s) {
        *why = "no value";
        return WU_ERR_BAD_PARAM;
    }
    switch (d->type) {
    case WU_PARAM_TYPE_STRING:
        *out = 0;
        return WU_SUCCESS;
    case WU_PARAM_TYPE_BOOL:
        for (size_t i = 0; i < WU_NELEMS(yes); i++) {
            if (0 == strcasecmp(s, yes[i])) {
                *out = 1;
                return WU_SUCCESS;
            }
            if (0 == strcasecmp(s, no[i])) {
                *out = 0;
                return WU_SUCCESS;
            }
        }
        if (WU_SUCCESS == parse_int64(s, &v, true)) {
            *out = (0 != v);
            return WU_SUCCESS;
        }
        *why = "expected true/false, yes/no, on/off or 1/0";
        return WU_ERR_BAD_PARAM;
    case WU_PARAM_TYPE_ENUM:
        if (NULL != (e = enum_by_name(d->enums, s))) {
            *out = e->value;
            return WU_SUCCESS;
        }
        if (WU_SUCCESS == parse_int64(s, &v, true) && NULL != enum_by_value(d->enums, v)) {
            *out = v;
            return WU_SUCCESS;
        }
        *why = "not one of the allowed values";
        return WU_ERR_BAD_PARAM;
    case WU_PARAM_TYPE_INT:
        if (NULL != (e = enum_by_name(d->enums, s))) {
            *out = e->value;
            return WU_SUCCESS;
        }
        if (WU_SUCCESS != parse_int64(s, &v, true)) {
            *why =
                d->enums ? "expected an integer or one of the named values" : "expected an integer";
            return WU_ERR_BAD_PARAM;
        }
        if (v < INT_MIN || v > INT_MAX) {
            *why = "out of range for an int";
            return WU_ERR_BAD_PARAM;
        }
        break;
    case WU_PARAM_TYPE_UNSIGNED:
        if (WU_SUCCESS != parse_int64(s, &v, false) || v < 0) {
            *why = "expected a non-negative integer";
            return WU_ERR_BAD_PARAM;
        }
        if (v > UINT_MAX) {
            *why = "out of range for an unsigned int";
            return WU_ERR_BAD_PARAM;
        }
        break;
    case WU_PARAM_TYPE_SIZE: {
        char *end;
        unsigned long long u;
        while (' ' == *s) {
            s++;
        }
        errno = 0;
        if ('-' == *s || !('0' <= *s && *s <= '9')) {
            *why = "expected a size such as 4096, 64k, 16m or 2g";
            return WU_ERR_BAD_PARAM;
        }
        u = strtoull(s, &end, 0);
        rc = 0;
        switch (*end) {
        case 'k':
        case 'K':
            rc = 10;
            end++;
            break;
        case 'm':
        case 'M':
            rc = 20;
            end++;
            break;
        case 'g':
        case 'G':
            rc = 30;
            end++;
            break;
        default:
            break;
        }
        if ('b' == *end || 'B' == *end) {
            end++;
        }
        if (0 != errno || '\0' != *end || (rc && u > (UINT64_MAX >> rc)) ||
            (u << rc) > (unsigned long long)INT64_MAX) {
            *why = "expected a size such as 4096, 64k, 16m or 2g";
            return WU_ERR_BAD_PARAM;
        }
        v = (int64_t)(u << rc);
        break;
    }
    default:
        *why = "unknown parameter type";
        return WU_ERR_BAD_PARAM;
    }
    if ((d->flags & WU_PARAM_FLAG_RANGE) && (v < d->min || v > d->max)) {
        *why = "out of the allowed range";
        return WU_ERR_VALUE_OUT_OF_BOUNDS;
    }
    *out = v;
    return WU_SUCCESS;
}

/* ---------------------------------------------------------------- values */

static char *format_num(const wu_mca_param_t *d, int64_t v)
{
    char buf[64];
    const wu_param_enum_t *e;
    switch (d->type) {
    case WU_PARAM_TYPE_BOOL:
        return strdup(v ? "true" : "false");
    case WU_PARAM_TYPE_ENUM:
        e = enum_by_value(d->enums, v);
        if (NULL != e) {
            return strdup(e->name);
        }
        break;
    default:
        break;
    }
    snprintf(buf, sizeof buf, "%" PRId64, v);
    return strdup(buf);
}

static int64_t storage_get(const wu_mca_param_t *d)
{
    switch (d->type) {
    case WU_PARAM_TYPE_INT:
    case WU_PARAM_TYPE_ENUM:
        return *(int *)d->storage;
    case WU_PARAM_TYPE_UNSIGNED:
        return *(unsigned *)d->storage;
    case WU_PARAM_TYPE_SIZE:
        return (int64_t) * (size_t *)d->storage;
    case WU_PARAM_TYPE_BOOL:
        return *(bool *)d->storage;
    default:
        return 0;
    }
}

static void storage_set(const wu_mca_param_t *d, int64_t v)
{
    switch (d->type) {
    case WU_PARAM_TYPE_INT:
    case WU_PARAM_TYPE_ENUM:
        *(int *)d->storage = (int)v;
        break;
    case WU_PARAM_TYPE_UNSIGNED:
        *(unsigned *)d->storage = (unsigned)v;
        break;
    case WU_PARAM_TYPE_SIZE:
        *(size_t *)d->storage = (size_t)v;
        break;
    case WU_PARAM_TYPE_BOOL:
        *(bool *)d->storage = (0 != v);
        break;
    default:
        break;
    }
}

/* Put a value (already known to parse) into the variable. */
static int apply(wu_mca_param_var_t *v, const char *s, wu_param_source_t src, const char *file,
                 int line)
{
    int64_t num = 0;
    const char *why;
    char *nf = NULL;
    if (WU_SUCCESS != wu_mca_param_parse(&v->decl, s, &num, &why)) {
        return WU_ERR_BAD_PARAM;
    }
    if (NULL != file && NULL == (nf = strdup(file))) {
        return WU_ERR_NOMEM;
    }
    if (WU_PARAM_TYPE_STRING == v->decl.type) {
        char *ns = NULL;
        if (NULL != s && NULL == (ns = strdup(s))) {
            free(nf);
            return WU_ERR_NOMEM;
        }
        free(v->value_str);
        v->value_str = ns;
        *(char **)v->decl.storage = ns;
    } else {
        storage_set(&v->decl, num);
    }
    free(v->source_file);
    v->source_file = nf;
    v->source_line = line;
    v->source = src;
    return WU_SUCCESS;
}

static void report_bad(const wu_mca_param_var_t *v, const char *value, wu_param_source_t src,
                       const char *file, int line, const char *why)
{
    char where[PATH_MAX + 64];
    if (WU_PARAM_SRC_ENV == src) {
        snprintf(where, sizeof where, "environment variable %s%s", ENV_PREFIX, v->full_name);
    } else if (NULL != file) {
        snprintf(where, sizeof where, "%s, line %d", file, line);
    } else {
        snprintf(where, sizeof where, "%s", wu_mca_param_source_name(src));
    }
    wu_show_help("help-wu-mca.txt", "bad-param-value", true, value, v->full_name, where,
                 why ? why : "invalid", wu_mca_param_type_name(v->decl.type));
}

/* Find the highest-precedence valid value for v and store it; called with the lock held. */
static void resolve(wu_mca_param_var_t *v)
{
    char envname[512];
    const char *why;
    int64_t num;
    const char *s;
    entry_t *e;

    struct {
        wu_param_source_t src;
        entries_t *from;
    } order[] = {{WU_PARAM_SRC_CMDLINE, &cmdline_entries},
                 {WU_PARAM_SRC_ENV, NULL},
                 {WU_PARAM_SRC_USERFILE, &user_entries},
                 {WU_PARAM_SRC_SYSFILE, &sys_entries}};

    for (size_t i = 0; i < WU_NELEMS(order); i++) {
        const char *file = NULL;
        int line = 0;
        if (NULL == order[i].from) {
            snprintf(envname, sizeof envname, "%s%s", ENV_PREFIX, v->full_name);
            if (NULL == (s = getenv(envname))) {
                continue;
            }
        } else {
            if (NULL == (e = entries_find(order[i].from, v->full_name))) {
                continue;
            }
            s = e->value;
            file = e->file;
            line = e->line;
        }
        if (WU_SUCCESS != wu_mca_param_parse(&v->decl, s, &num, &why)) {
            report_bad(v, s, order[i].src, file, line, why);
            continue;
        }
        if (WU_SUCCESS == apply(v, s, order[i].src, file, line)) {
            return;
        }
    }
    (void)apply(v, v->default_str, WU_PARAM_SRC_DEFAULT, NULL, 0);
}

/* ---------------------------------------------------------------- registry */

static wu_mca_param_var_t *find_locked(const char *name)
{
    for (int i = 0; i < nvars; i++) {
        if (0 == strcmp(vars[i]->full_name, name)) {
            return vars[i];
        }
    }
    return NULL;
}

static char *make_name(const char *fw, const char *comp, const char *name)
{
    char *s = NULL;
    if (NULL != fw && NULL != comp) {
        (void)wu_asprintf(&s, "%s_%s_%s", fw, comp, name);
    } else if (NULL != fw) {
        (void)wu_asprintf(&s, "%s_%s", fw, name);
    } else {
        s = strdup(name);
    }
    return s;
}

static void var_free(wu_mca_param_var_t *v)
{
    if (NULL == v) {
        return;
    }
    if (WU_PARAM_TYPE_STRING == v->decl.type && NULL != v->decl.storage &&
        *(char **)v->decl.storage == v->value_str) {
        *(char **)v->decl.storage = v->default_ptr;
    }
    free(v->full_name);
    free(v->framework);
    free(v->component);
    free(v->default_str);
    free(v->source_file);
    free(v->value_str);
    free(v);
}

int wu_mca_param_register(const char *fw, const char *comp, const wu_mca_param_t *p)
{
    wu_mca_param_var_t *v;
    char *name;
    int64_t num;
    const char *why;

    if (NULL == p || NULL == p->name || '\0' == p->name[0] || NULL == p->storage ||
        NULL == p->help || '\0' == p->help[0] || (unsigned)p->type > WU_PARAM_TYPE_ENUM ||
        (WU_PARAM_TYPE_ENUM == p->type && (NULL == p->enums || NULL == p->enums[0].name))) {
        return WU_ERR_BAD_PARAM;
    }
    if (NULL == (name = make_name(fw, comp, p->name))) {
        return WU_ERR_NOMEM;
    }
    pthread_mutex_lock(&lock);
    v = find_locked(name);
    if (NULL != v) {
        /* re-registration: rebind to the (possibly new) variable and write the value there */
        free(name);
        if (v->decl.type != p->type) {
            pthread_mutex_unlock(&lock);
            return WU_ERR_EXISTS;
        }
        v->decl = *p;
        resolve(v);
        pthread_mutex_unlock(&lock);
        return WU_SUCCESS;
    }
    v = calloc(1, sizeof(*v));
    if (NULL == v) {
        pthread_mutex_unlock(&lock);
        free(name);
        return WU_ERR_NOMEM;
    }
    v->full_name = name;
    v->framework = fw ? strdup(fw) : NULL;
    v->component = comp ? strdup(comp) : NULL;
    v->decl = *p;
    if (WU_PARAM_TYPE_STRING == p->type) {
        v->default_ptr = *(char **)p->storage;
        v->default_str = v->default_ptr ? strdup(v->default_ptr) : NULL;
    } else {
        v->default_str = format_num(p, storage_get(p));
        if (NULL == v->default_str ||
            WU_SUCCESS != wu_mca_param_parse(p, v->default_str, &num, &why)) {
            pthread_mutex_unlock(&lock);
            var_free(v);
            return WU_ERR_BAD_PARAM; /* a default the parameter itself would refuse */
        }
    }
    if (nvars == capvars) {
        int ncap = capvars ? 2 * capvars : 64;
        wu_mca_param_var_t **nv = realloc(vars, (size_t)ncap * sizeof(*nv));
        if (NULL == nv) {
            pthread_mutex_unlock(&lock);
            var_free(v);
            return WU_ERR_NOMEM;
        }
        vars = nv;
        capvars = ncap;
    }
    vars[nvars++] = v;
    resolve(v);
    pthread_mutex_unlock(&lock);
    return WU_SUCCESS;
}

void wu_mca_param_forget(const char *fw, const char *comp)
{
    int kept = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nvars; i++) {
        wu_mca_param_var_t *v = vars[i];
        if (NULL != v->framework && NULL != v->component && NULL != fw && NULL != comp &&
            0 == strcmp(v->framework, fw) && 0 == strcmp(v->component, comp)) {
            var_free(v);
        } else {
            vars[kept++] = v;
        }
    }
    nvars = kept;
    pthread_mutex_unlock(&lock);
}

int wu_mca_param_register_table(const char *fw, const char *comp, const wu_mca_param_t *table)
{
    int rc;
    for (; NULL != table && NULL != table->name; table++) {
        if (WU_SUCCESS != (rc = wu_mca_param_register(fw, comp, table))) {
            return rc;
        }
    }
    return WU_SUCCESS;
}

int wu_mca_param_set_cmdline(const char *name, const char *value)
{
    entry_t *e;
    wu_mca_param_var_t *v;
    int rc = WU_SUCCESS;
    if (NULL == name || '\0' == *name || NULL == value) {
        return WU_ERR_BAD_PARAM;
    }
    pthread_mutex_lock(&lock);
    if (NULL != (e = entries_find(&cmdline_entries, name))) {
        char *joined = NULL;
        if (WU_SUCCESS != wu_asprintf(&joined, "%s,%s", e->value, value)) {
            pthread_mutex_unlock(&lock);
            return WU_ERR_NOMEM;
        }
        free(e->value);
        e->value = joined;
    } else {
        rc = entries_add(&cmdline_entries, name, value, NULL, 0);
    }
    if (WU_SUCCESS == rc && NULL != (v = find_locked(name))) {
        resolve(v);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int wu_mca_param_set(const char *name, const char *value)
{
    wu_mca_param_var_t *v;
    int rc;
    pthread_mutex_lock(&lock);
    v = NULL == name ? NULL : find_locked(name);
    rc = NULL == v ? WU_ERR_NOT_FOUND : apply(v, value, WU_PARAM_SRC_API, NULL, 0);
    pthread_mutex_unlock(&lock);
    return rc;
}

const wu_mca_param_var_t *wu_mca_param_find(const char *full_name)
{
    const wu_mca_param_var_t *v;
    if (NULL == full_name) {
        return NULL;
    }
    pthread_mutex_lock(&lock);
    v = find_locked(full_name);
    pthread_mutex_unlock(&lock);
    return v;
}

int wu_mca_param_count(void)
{
    return nvars;
}

const wu_mca_param_var_t *wu_mca_param_at(int index)
{
    return (index >= 0 && index < nvars) ? vars[index] : NULL;
}

char *wu_mca_param_value_string(const wu_mca_param_var_t *v)
{
    if (WU_PARAM_TYPE_STRING == v->decl.type) {
        return strdup(v->value_str ? v->value_str : "");
    }
    return format_num(&v->decl, storage_get(&v->decl));
}

/* ---------------------------------------------------------------- init, unknown names */

static void read_files(void)
{
    const char *s;
    char *home;
    s = getenv(ENV_PREFIX "mca_base_system_param_file");
    system_file = strdup(s ? s : WU_SYSCONFDIR "/pmix-mca-params.conf");
    s = getenv(ENV_PREFIX "mca_base_user_param_file");
    if (NULL != s) {
        user_file = strdup(s);
    } else if (NULL != (home = wu_path_home())) {
        user_file = wu_path_join(home, ".pmix", "mca-params.conf", NULL);
        free(home);
    }
    if (NULL != system_file && '\0' != *system_file) {
        (void)wu_keyval_parse(system_file, file_entry_cb, &sys_entries);
    }
    if (NULL != user_file && '\0' != *user_file) {
        (void)wu_keyval_parse(user_file, file_entry_cb, &user_entries);
    }
}

const char *wu_mca_param_user_file(void)
{
    return user_file;
}

const char *wu_mca_param_system_file(void)
{
    return system_file;
}

int wu_mca_param_init(void)
{
    static char *sysf_param, *userf_param;
    static const wu_mca_param_t self[] = {
        WU_PARAM_STRING("system_param_file", &sysf_param, WU_INFO_LVL_9,
                        "System-wide parameter file (set only through the environment)"),
        WU_PARAM_STRING("user_param_file", &userf_param, WU_INFO_LVL_9,
                        "Per-user parameter file (set only through the environment)"),
        WU_PARAM_END};
    pthread_mutex_lock(&lock);
    if (refcount++ > 0) {
        pthread_mutex_unlock(&lock);
        return WU_SUCCESS;
    }
    read_files();
    pthread_mutex_unlock(&lock);
    sysf_param = system_file;
    userf_param = user_file;
    return wu_mca_param_register_table("mca", "base", self);
}

void wu_mca_param_finalize(void)
{
    pthread_mutex_lock(&lock);
    if (refcount <= 0 || --refcount > 0) {
        pthread_mutex_unlock(&lock);
        return;
    }
    for (int i = 0; i < nvars; i++) {
        var_free(vars[i]);
    }
    free(vars);
    vars = NULL;
    nvars = capvars = 0;
    entries_free(&user_entries);
    entries_free(&sys_entries);
    entries_free(&cmdline_entries);
    free(user_file);
    free(system_file);
    user_file = system_file = NULL;
    pthread_mutex_unlock(&lock);
}

int wu_mca_param_report_unknown(bool print)
{
    int n = 0;
    pthread_mutex_lock(&lock);
    for (char **e = environ; NULL != e && NULL != *e; e++) {
        char name[512];
        const char *eq;
        size_t len;
        if (0 != strncmp(*e, ENV_PREFIX, strlen(ENV_PREFIX))) {
            continue;
        }
        eq = strchr(*e, '=');
        len = eq ? (size_t)(eq - *e) - strlen(ENV_PREFIX) : 0;
        if (0 == len || len >= sizeof name) {
            continue;
        }
        memcpy(name, *e + strlen(ENV_PREFIX), len);
        name[len] = '\0';
        if (NULL == find_locked(name)) {
            n++;
            if (print) {
                fprintf(stderr,
                        "wireup: warning: environment variable %s%s names no known parameter "
                        "(ignored; see wireup-info --param all all)\n",
                        ENV_PREFIX, name);
            }
        }
    }
    entries_t *files[] = {&user_entries, &sys_entries};
    for (size_t f = 0; f < WU_NELEMS(files); f++) {
        for (size_t i = 0; i < files[f]->n; i++) {
            if (NULL == find_locked(files[f]->v[i].key)) {
                n++;
                if (print) {
                    fprintf(stderr, "wireup: warning: %s:%d: parameter %s is not known (ignored)\n",
                            files[f]->v[i].file, files[f]->v[i].line, files[f]->v[i].key);
                }
            }
        }
    }
    pthread_mutex_unlock(&lock);
    return n;
}
