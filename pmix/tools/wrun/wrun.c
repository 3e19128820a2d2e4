/* SPDX-License-Identifier: BSD-3-Clause */
/* wrun.c -- the wrun launcher: `wrun -n N [options] [--] prog [args]` runs N copies of prog on
 * this node under Wireup's PMIx server and exits with the job's status (rules in
 * pmix/rte/wu_rte.h). The command line follows mpirun's habits (launcher-conventions.md 3.1):
 * single-dash long options are accepted as well. */
#include "mca/base/wu_mca.h"
#include "mca/pmdl/pmdl.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"
#include "pmix.h"
#include "pmix/rte/wu_rte.h"

#include <errno.h>
#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WRUN_MAX_NP 65535 /* local ranks are 16-bit */
#define EXIT_USAGE  1

typedef struct {
    wu_rte_app_t app;
    char **mca_keys, **mca_vals; /* --mca, in order (repeats are joined with ',') */
} opts_t;

static int usage_error(const char *topic, const char *a1, const char *a2)
{
    wu_show_help(NULL != strstr(topic, "option") || NULL != strstr(topic, "argument")
                     ? "help-wu-util.txt"
                     : "help-wrun.txt",
                 topic, false, a1, a2);
    return EXIT_USAGE;
}

static void print_text(FILE *f, const char *topic)
{
    const char *t = wu_help_lookup("help-wrun.txt", topic);
    if (NULL != t) {
        fputs(t, f);
    }
}

/* Is a the option name, given with one or two dashes? */
static bool is_opt(const char *a, const char *name)
{
    return '-' == a[0] && (0 == strcmp(a + 1, name) || ('-' == a[1] && 0 == strcmp(a + 2, name)));
}

/* "--np=4" style: the value after '=' when a names option name, else NULL. */
static const char *opt_value(const char *a, const char *name)
{
    size_t n = strlen(name);
    const char *p = '-' == a[1] ? a + 2 : a + 1;
    if ('-' != a[0] || 0 != strncmp(p, name, n) || '=' != p[n]) {
        return NULL;
    }
    return p + n + 1;
}

static int parse_np(const char *s, uint32_t *np)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (0 != errno || end == s || '\0' != *end || v < 1 || v > WRUN_MAX_NP) {
        return WU_ERR_BAD_PARAM;
    }
    *np = (uint32_t)v;
    return WU_SUCCESS;
}

static int add_mca(opts_t *o, const char *k, const char *v)
{
    for (int i = 0; NULL != o->mca_keys && NULL != o->mca_keys[i]; i++) {
        if (0 == strcmp(o->mca_keys[i], k)) { /* a repeated key is comma-joined, as mpirun */
            char *joined = NULL;
            if (WU_SUCCESS != wu_asprintf(&joined, "%s,%s", o->mca_vals[i], v)) {
                return WU_ERR_NOMEM;
            }
            free(o->mca_vals[i]);
            o->mca_vals[i] = joined;
            return WU_SUCCESS;
        }
    }
    if (WU_SUCCESS != wu_argv_append(&o->mca_keys, k)) {
        return WU_ERR_NOMEM;
    }
    return wu_argv_append(&o->mca_vals, v);
}

/* Returns -1 to go on, else the exit code. */
static int parse(int argc, char **argv, opts_t *o)
{
    static const char *const np_names[] = {"n", "np", "c"};
    bool have_np = false;
    int i;

    o->app.np = 1;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        bool np_opt = false;
        if ('-' != a[0] || '\0' == a[1]) {
            break; /* the program */
        }
        if (0 == strcmp(a, "--")) {
            i++;
            break;
        }
        for (size_t k = 0; k < WU_NELEMS(np_names) && !np_opt; k++) {
            np_opt = is_opt(a, np_names[k]) || NULL != (v = opt_value(a, np_names[k]));
        }
        if (np_opt) {
            if (NULL == v) {
                if (i + 1 >= argc) {
                    return usage_error("missing-argument", "wrun", a);
                }
                v = argv[++i];
            }
            if (WU_SUCCESS != parse_np(v, &o->app.np)) {
                return usage_error("bad-np", v, a);
            }
            have_np = true;
        } else if (is_opt(a, "h") || is_opt(a, "help")) {
            print_text(stdout, "usage");
            return 0;
        } else if (is_opt(a, "V") || is_opt(a, "version")) {
            printf("wrun (Wireup) %s\n%s\n", WU_VERSION, PMIx_Get_version());
            return 0;
        } else if (is_opt(a, "mca") || is_opt(a, "gmca")) {
            if (i + 2 >= argc) {
                return usage_error("missing-argument", "wrun", a);
            }
            if ('\0' == argv[i + 1][0] || NULL != strchr(argv[i + 1], '=')) {
                return usage_error("bad-mca", argv[i + 1], a);
            }
            if (WU_SUCCESS != add_mca(o, argv[i + 1], argv[i + 2])) {
                return EXIT_USAGE;
            }
            i += 2;
        } else if (is_opt(a, "x")) {
            const char *val;
            char *kv = NULL;
            if (i + 1 >= argc) {
                return usage_error("missing-argument", "wrun", a);
            }
            v = argv[++i];
            if ('\0' == v[0] || '=' == v[0]) {
                return usage_error("bad-x", v, a);
            }
            if (NULL == strchr(v, '=')) { /* -x NAME: export wrun's value */
                if (NULL == (val = getenv(v))) {
                    continue; /* not set here: nothing to export, as mpirun */
                }
                if (WU_SUCCESS != wu_asprintf(&kv, "%s=%s", v, val)) {
                    return EXIT_USAGE;
                }
            } else if (NULL == (kv = strdup(v))) {
                return EXIT_USAGE;
            }
            if (WU_SUCCESS != wu_argv_append(&o->app.env_set, kv)) {
                free(kv);
                return EXIT_USAGE;
            }
            free(kv);
        } else if (is_opt(a, "wdir") || is_opt(a, "wd")) {
            if (i + 1 >= argc) {
                return usage_error("missing-argument", "wrun", a);
            }
            o->app.cwd = argv[++i];
        } else if (is_opt(a, "tag-output")) {
            o->app.tag_output = true;
        } else if (is_opt(a, "keep-library-path")) {
            o->app.keep_lib_path = true;
        } else {
            return usage_error("unknown-option", "wrun", a);
        }
    }
    (void)have_np;
    if (i >= argc) {
        return usage_error("no-program", "wrun", NULL);
    }
    o->app.argv = argv + i;
    return -1;
}

/* --mca k v, before the frameworks open: for wrun itself (pls and the server read it). */
static void mca_for_wrun(const opts_t *o)
{
    for (int i = 0; NULL != o->mca_keys && NULL != o->mca_keys[i]; i++) {
        (void)wu_mca_param_set_cmdline(o->mca_keys[i], o->mca_vals[i]);
    }
}

/* --mca k v, once pmdl is open: for the job, as the variable its reader expects: OMPI_MCA_k for
 * a parameter of a programming model (Open MPI's btl, pml, ...), else PMIX_MCA_k. */
static int mca_for_job(opts_t *o)
{
    for (int i = 0; NULL != o->mca_keys && NULL != o->mca_keys[i]; i++) {
        const char *prefix = wu_pmdl_base_mca_prefix(o->mca_keys[i]);
        char *kv = NULL;
        if (WU_SUCCESS != wu_asprintf(&kv, "%s%s=%s", NULL != prefix ? prefix : "PMIX_MCA_",
                                      o->mca_keys[i], o->mca_vals[i]) ||
            WU_SUCCESS != wu_argv_append(&o->app.env_set, kv)) {
            free(kv);
            return WU_ERR_NOMEM;
        }
        free(kv);
    }
    return WU_SUCCESS;
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
    (void)what;
    (void)arg;
    wu_rte_interrupt((int)sig);
}

int main(int argc, char **argv)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct event *sev[WU_NELEMS(sigs)] = {NULL};
    opts_t o;
    int status = 1, rc;

    memset(&o, 0, sizeof o);
    if ((rc = parse(argc, argv, &o)) >= 0) {
        goto out;
    }
    /* a reader of our output that goes away must not kill us (and leave the job behind) */
    signal(SIGPIPE, SIG_IGN);
    mca_for_wrun(&o);
    if (WU_SUCCESS != wu_rte_init("wrun")) {
        rc = 1;
        goto out;
    }
    if (WU_SUCCESS != mca_for_job(&o)) {
        wu_rte_finalize();
        rc = 1;
        goto out;
    }
    for (size_t i = 0; i < WU_NELEMS(sigs); i++) {
        sev[i] = evsignal_new(wu_progress_base(wu_rte_progress()), sigs[i], on_signal, NULL);
        if (NULL != sev[i]) {
            event_add(sev[i], NULL);
        }
    }
    (void)wu_rte_run(&o.app, &status);
    for (size_t i = 0; i < WU_NELEMS(sigs); i++) {
        if (NULL != sev[i]) {
            event_del(sev[i]);
            event_free(sev[i]);
        }
    }
    wu_rte_finalize();
    rc = status;
out:
    wu_argv_free(o.mca_keys);
    wu_argv_free(o.mca_vals);
    wu_argv_free(o.app.env_set);
    return rc;
}
