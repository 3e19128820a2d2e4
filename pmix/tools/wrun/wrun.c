/* SPDX-License-Identifier: BSD-3-Clause */
/* wrun.c -- the wrun launcher: `wrun -n N [options] [--] prog [args]` runs N copies of prog
 * under Wireup's PMIx server and exits with the job's status (rules in pmix/rte/wu_rte.h). The
 * placement options (-H, --hostfile, --map-by, --npernode) describe the nodes and how ranks
 * spread over them; the job map is computed over all of them, and the runtime starts the wired
 * daemons of the other nodes. The command line follows mpirun's habits:
 * long options take one or two dashes, and "--name=value" works for options with one value.
 * Every option is one row of the table below; nothing is launched before the whole command line
 * has been checked. */
#include "mca/base/wu_mca.h"
#include "mca/pls/pls.h"
#include "mca/pmdl/pmdl.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"
#include "pmix.h"
#include "pmix/rte/wu_rte.h"
#include "pmix/rte/map/wu_rte_map.h"

#include <errno.h>
#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define WRUN_MAX_NP 65535 /* local ranks are 16-bit */
#define EXIT_USAGE  1
#define DONE_OK     0  /* an option that ends the run successfully (--help, --version) */
#define GO_ON       -1 /* parse result: launch */

typedef struct {
    wu_rte_spec_t app;
    wu_rte_ctx_t *cur;           /* the application context being parsed (MPMD: one per ':') */
    char **mca_keys, **mca_vals; /* --mca, in order (repeats are joined with ',') */
    wu_rte_hostlist_t hosts;     /* -H, every occurrence appended */
    wu_rte_hostlist_t filehosts; /* --hostfile / --machinefile, or the allocation */
    char *alloc_from;            /* the allocation's description, when filehosts is it */
    wu_rte_jm_host_t *jm;        /* the hosts handed to the runtime (app.hosts) */
    uint32_t npernode;           /* --npernode N, --pernode; 0: not given */
} opts_t;

/* An option handler: returns GO_ON, or the exit code to stop with. */
typedef int (*opt_fn_t)(opts_t *o, const char *opt, char *const *args);

typedef struct {
    const char *names; /* '|'-separated names, each usable with one or two dashes */
    int nargs;         /* values the option takes: 0, 1 or 2 */
    opt_fn_t fn;
} wrun_opt_t;

static int usage_error(const char *topic, const char *a1, const char *a2)
{
    wu_show_help(NULL != strstr(topic, "option") || NULL != strstr(topic, "argument")
                     ? "help-wu-util.txt"
                     : "help-wrun.txt",
                 topic, false, a1, a2);
    return EXIT_USAGE;
}

static int parse_uint(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (0 != errno || end == s || '\0' != *end || v < lo || v > hi) {
        return WU_ERR_BAD_PARAM;
    }
    *out = v;
    return WU_SUCCESS;
}

/* --- the options ----------------------------------------------------------------------------- */

static int o_np(opts_t *o, const char *opt, char *const *a)
{
    long v;
    if (WU_SUCCESS != parse_uint(a[0], 1, WRUN_MAX_NP, &v)) {
        return usage_error("bad-np", a[0], opt);
    }
    o->cur->np = (uint32_t)v;
    return GO_ON;
}

static int o_help(opts_t *o, const char *opt, char *const *a)
{
    const char *t = wu_help_lookup("help-wrun.txt", "usage");
    (void)o, (void)opt, (void)a;
    if (NULL != t) {
        fputs(t, stdout);
    }
    return DONE_OK;
}

static int o_version(opts_t *o, const char *opt, char *const *a)
{
    (void)o, (void)opt, (void)a;
    printf("wrun (Wireup) %s\n%s\n", WU_VERSION, PMIx_Get_version());
    return DONE_OK;
}

static int o_mca(opts_t *o, const char *opt, char *const *a)
{
    if ('\0' == a[0][0] || NULL != strchr(a[0], '=')) {
        return usage_error("bad-mca", a[0], opt);
    }
    for (int i = 0; NULL != o->mca_keys && NULL != o->mca_keys[i]; i++) {
        if (0 == strcmp(o->mca_keys[i], a[0])) { /* a repeated key is comma-joined, as mpirun */
            char *joined = NULL;
            if (WU_SUCCESS != wu_asprintf(&joined, "%s,%s", o->mca_vals[i], a[1])) {
                return EXIT_USAGE;
            }
            free(o->mca_vals[i]);
            o->mca_vals[i] = joined;
            return GO_ON;
        }
    }
    if (WU_SUCCESS != wu_argv_append(&o->mca_keys, a[0]) ||
        WU_SUCCESS != wu_argv_append(&o->mca_vals, a[1])) {
        return EXIT_USAGE;
    }
    return GO_ON;
}

static int o_x(opts_t *o, const char *opt, char *const *a)
{
    const char *v = a[0], *val;
    char *kv = NULL;
    int rc;
    if ('\0' == v[0] || '=' == v[0]) {
        return usage_error("bad-x", v, opt);
    }
    if (NULL == strchr(v, '=')) { /* -x NAME: export wrun's value */
        if (NULL == (val = getenv(v))) {
            return GO_ON; /* not set here: nothing to export, as mpirun */
        }
        rc = wu_asprintf(&kv, "%s=%s", v, val);
    } else {
        rc = NULL != (kv = strdup(v)) ? WU_SUCCESS : WU_ERR_NOMEM;
    }
    if (WU_SUCCESS == rc) {
        rc = wu_argv_append(&o->cur->env_set, kv);
    }
    free(kv);
    return WU_SUCCESS == rc ? GO_ON : EXIT_USAGE;
}

static int o_wdir(opts_t *o, const char *opt, char *const *a)
{
    (void)opt;
    o->cur->cwd = a[0];
    return GO_ON;
}

/* --prefix DIR: absolute, as it names a directory on the other nodes */
static int o_prefix(opts_t *o, const char *opt, char *const *a)
{
    if ('/' != a[0][0]) {
        return usage_error("bad-prefix", a[0], opt);
    }
    o->app.prefix = a[0];
    return GO_ON;
}

static int o_output_dir(opts_t *o, const char *opt, char *const *a)
{
    if ('\0' == a[0][0]) {
        return usage_error("bad-value", a[0], opt);
    }
    o->app.output_dir = a[0];
    return GO_ON;
}

static int o_stdin(opts_t *o, const char *opt, char *const *a)
{
    long v;
    if (0 == strcasecmp(a[0], "all")) {
        o->app.stdin_target = WU_RTE_STDIN_ALL;
    } else if (0 == strcasecmp(a[0], "none")) {
        o->app.stdin_target = WU_RTE_STDIN_NONE;
    } else if (WU_SUCCESS == parse_uint(a[0], 0, WRUN_MAX_NP - 1, &v)) {
        o->app.stdin_target = (int)v;
    } else {
        return usage_error("bad-stdin", a[0], opt);
    }
    return GO_ON;
}

static int o_timeout(opts_t *o, const char *opt, char *const *a)
{
    char *end;
    double v;
    errno = 0;
    v = strtod(a[0], &end);
    if (0 != errno || end == a[0] || '\0' != *end || !(v > 0) || v > 1e9) {
        return usage_error("bad-timeout", a[0], opt);
    }
    o->app.timeout = v;
    return GO_ON;
}

/* --map-by and --bind-to are checked at once, so a bad value stops wrun before anything runs. */
static int check_policy(opts_t *o, const char *opt)
{
    wu_rte_policy_t pol;
    char *why = NULL;
    if (WU_SUCCESS != wu_rte_map_parse(o->app.map_by, o->app.bind_to, &pol, &why)) {
        fprintf(stderr, "wrun: %s (option %s)\n", NULL != why ? why : "bad value", opt);
        free(why);
        return EXIT_USAGE;
    }
    return GO_ON;
}

static int o_map_by(opts_t *o, const char *opt, char *const *a)
{
    o->app.map_by = a[0];
    return check_policy(o, opt);
}

static int o_bind_to(opts_t *o, const char *opt, char *const *a)
{
    o->app.bind_to = a[0];
    return check_policy(o, opt);
}

/* -H host[:slots],...: appended to what earlier -H gave; a host named again adds its slots. */
static int o_host(opts_t *o, const char *opt, char *const *a)
{
    char *why = NULL;
    int rc = wu_rte_hosts_parse_arg(&o->hosts, a[0], &why);
    if (WU_ERR_BAD_PARAM == rc && NULL != why) {
        /* a name no host can have: said as for a hostfile's */
        fprintf(stderr, "wrun: %s (option %s)\n", why, opt);
        free(why);
        return EXIT_USAGE;
    }
    if (WU_ERR_BAD_PARAM == rc) {
        return usage_error("bad-host", a[0], opt);
    }
    return WU_SUCCESS == rc ? GO_ON : EXIT_USAGE;
}

/* --hostfile FILE: Open MPI's syntax (wu_rte_jobmap.h); a bad line stops wrun with FILE:LINE. */
static int o_hostfile(opts_t *o, const char *opt, char *const *a)
{
    char *why = NULL;
    int rc = wu_rte_hosts_parse_file(&o->filehosts, a[0], &why);
    if (WU_SUCCESS != rc) {
        fprintf(stderr, "wrun: %s (option %s)\n", NULL != why ? why : wu_strerror(rc), opt);
        free(why);
        return EXIT_USAGE;
    }
    return GO_ON;
}

/* --npernode N, -N N; --pernode is --npernode 1. */
static int o_npernode(opts_t *o, const char *opt, char *const *a)
{
    long v;
    if (WU_SUCCESS != parse_uint(a[0], 1, WRUN_MAX_NP, &v)) {
        return usage_error("bad-npernode", a[0], opt);
    }
    o->npernode = (uint32_t)v;
    return GO_ON;
}

static int o_pernode(opts_t *o, const char *opt, char *const *a)
{
    (void)opt, (void)a;
    o->npernode = 1;
    return GO_ON;
}

/* Flags: a handler per field would be noise, so the flag options name their field. */
#define FLAG_FN(name, field)                                    \
    static int name(opts_t *o, const char *opt, char *const *a) \
    {                                                           \
        (void)opt, (void)a;                                     \
        o->app.field = true;                                    \
        return GO_ON;                                           \
    }
FLAG_FN(o_tag, tag_output)
FLAG_FN(o_timestamp, timestamp_output)
FLAG_FN(o_merge, merge_stderr)
FLAG_FN(o_keep_lib, keep_lib_path)
FLAG_FN(o_oversubscribe, oversubscribe)
FLAG_FN(o_report_bindings, report_bindings)
FLAG_FN(o_display_map, display_map)

static const wrun_opt_t options[] = {
    {"n|np|c", 1, o_np},
    {"h|help", 0, o_help},
    {"V|version", 0, o_version},
    {"mca|gmca", 2, o_mca},
    {"x", 1, o_x},
    {"wdir|wd", 1, o_wdir},
    {"tag-output", 0, o_tag},
    {"timestamp-output", 0, o_timestamp},
    {"merge-stderr-to-stdout", 0, o_merge},
    {"output-filename", 1, o_output_dir},
    {"stdin", 1, o_stdin},
    {"timeout", 1, o_timeout},
    {"keep-library-path", 0, o_keep_lib},
    {"H|host|hosts", 1, o_host},
    {"hostfile|machinefile", 1, o_hostfile},
    {"prefix", 1, o_prefix},
    {"npernode|N", 1, o_npernode},
    {"pernode", 0, o_pernode},
    {"oversubscribe", 0, o_oversubscribe},
    {"map-by", 1, o_map_by},
    {"bind-to", 1, o_bind_to},
    {"report-bindings", 0, o_report_bindings},
    {"display-map", 0, o_display_map},
};

/* The option a names (with one or two dashes, "=value" allowed when it takes one value), or
 * NULL. *inline_val receives the value after '=', if any. */
static const wrun_opt_t *find_opt(const char *a, const char **inline_val)
{
    const char *p = '-' == a[1] ? a + 2 : a + 1;
    size_t plen = strcspn(p, "=");
    *inline_val = NULL;
    for (size_t i = 0; i < WU_NELEMS(options); i++) {
        const char *n = options[i].names;
        while ('\0' != *n) {
            size_t nlen = strcspn(n, "|");
            if (nlen == plen && 0 == strncmp(n, p, nlen) &&
                ('\0' == p[plen] || 1 == options[i].nargs)) {
                if ('=' == p[plen]) {
                    *inline_val = p + plen + 1;
                }
                return &options[i];
            }
            n += nlen + ('|' == n[nlen]);
        }
    }
    return NULL;
}

/* Parse one application context: options, then its program and arguments up to the next ':'
 * (which is replaced by NULL to end its argv). *i is where it starts; on GO_ON it is left after
 * the ':' or at argc. */
static int parse_ctx(int argc, char **argv, int *i, opts_t *o)
{
    for (; *i < argc; (*i)++) {
        const char *a = argv[*i], *val;
        const wrun_opt_t *opt;
        char *vals[2];
        int rc;
        if ('-' != a[0] || '\0' == a[1]) {
            break; /* the program */
        }
        if (0 == strcmp(a, "--")) {
            (*i)++;
            break;
        }
        if (NULL == (opt = find_opt(a, &val))) {
            return usage_error("unknown-option", "wrun", a);
        }
        if (NULL != val) {
            vals[0] = (char *)val;
        } else {
            if (*i + opt->nargs >= argc) {
                return usage_error("missing-argument", "wrun", a);
            }
            for (int k = 0; k < opt->nargs; k++) {
                vals[k] = argv[*i + 1 + k];
            }
            *i += opt->nargs;
        }
        if (GO_ON != (rc = opt->fn(o, a, vals))) {
            return rc;
        }
    }
    if (*i >= argc || 0 == strcmp(argv[*i], ":")) {
        return usage_error("no-program", "wrun", NULL);
    }
    o->cur->argv = argv + *i;
    while (*i < argc && 0 != strcmp(argv[*i], ":")) {
        (*i)++;
    }
    if (*i < argc) {
        argv[(*i)++] = NULL; /* the end of this context's arguments */
        if (*i >= argc) {
            return usage_error("no-program", "wrun", NULL); /* a ':' with nothing after it */
        }
    }
    return GO_ON;
}

/* Without a hostfile, inside a resource manager's allocation (pls says, once open): its nodes
 * and slots stand for the hostfile, as with mpirun. Returns GO_ON or the exit code. */
static int allocation(opts_t *o)
{
    wu_pls_node_t *nodes = NULL;
    uint32_t n = 0;
    char *why = NULL;
    int rc;

    if (o->filehosts.n > 0) {
        return GO_ON;
    }
    rc = wu_pls_base_allocation(&nodes, &n, &why);
    if (WU_ERR_NOT_FOUND == rc) {
        return GO_ON;
    }
    if (WU_SUCCESS == rc &&
        WU_SUCCESS != wu_asprintf(&o->alloc_from, "slots as the %s allocation gives them",
                                  wu_pls_base_component_name(NULL))) {
        rc = WU_ERR_NOMEM;
    }
    for (uint32_t i = 0; WU_SUCCESS == rc && i < n; i++) {
        char *arg = NULL;
        rc = wu_asprintf(&arg, "%s:%u", nodes[i].name, nodes[i].slots);
        rc = WU_SUCCESS == rc ? wu_rte_hosts_parse_arg(&o->filehosts, arg, &why) : rc;
        free(arg);
    }
    wu_pls_nodes_free(nodes, n);
    if (WU_SUCCESS != rc) {
        wu_show_help("help-wrun.txt", "bad-allocation", true,
                     NULL != why ? why : "its nodes could not be read");
        free(why);
        return EXIT_USAGE;
    }
    o->app.hosts_from = o->alloc_from;
    return GO_ON;
}

/* The hosts and the spreading of the job, once every option is read and the frameworks are
 * open: -H alone, --hostfile (or the allocation) alone, or -H as a filter of the hostfile (Open
 * MPI's rule: each -H host must be in the file; its count, if given, replaces the file's);
 * --npernode. Returns GO_ON or the exit code. */
static int placement(opts_t *o)
{
    wu_rte_hostlist_t *use = &o->hosts;
    wu_rte_policy_t pol;

    if (o->filehosts.n > 0) {
        const char *missing = NULL;
        if (o->hosts.n > 0 &&
            WU_SUCCESS != wu_rte_hosts_filter(&o->filehosts, &o->hosts, &missing)) {
            return NULL != o->alloc_from ? usage_error("host-not-in-allocation", missing,
                                                       wu_pls_base_component_name(NULL))
                                         : usage_error("host-not-in-hostfile", missing, NULL);
        }
        use = &o->filehosts;
    }
    if (use->n > 0) {
        if (NULL == (o->jm = wu_rte_hosts_jm(use))) {
            return EXIT_USAGE;
        }
        o->app.hosts = o->jm;
        o->app.nhosts = use->n;
    }
    if (o->npernode > 0) {
        /* checked by --map-by already: only the spreading can conflict */
        if (WU_SUCCESS == wu_rte_map_parse(o->app.map_by, NULL, &pol, NULL) &&
            WU_RTE_JM_BYSLOT != pol.span) {
            return usage_error("npernode-conflict", o->app.map_by, NULL);
        }
        o->app.span = WU_RTE_JM_PPR;
        o->app.ppr = o->npernode;
    }
    return GO_ON;
}

/* -np not given: 1 on this node alone (wrun's habit), else one per slot of the hosts or N per
 * node with --npernode / ppr:N:node (mpirun's rule, wu_rte_default_np). After wu_rte_init. */
static int default_np(opts_t *o)
{
    wu_rte_policy_t pol;
    bool spread = WU_RTE_JM_PPR == o->app.span ||
                  (WU_SUCCESS == wu_rte_map_parse(o->app.map_by, NULL, &pol, NULL) &&
                   WU_RTE_JM_PPR == pol.span);
    uint32_t np = 0;
    for (uint32_t c = 0; c < o->app.nctx; c++) {
        if (0 != o->app.ctx[c].np) {
            continue;
        }
        if (0 == np && !(o->app.nhosts > 0 || spread)) {
            np = 1;
        } else if (0 == np) {
            int rc = wu_rte_default_np(&o->app, &np);
            if (WU_SUCCESS != rc) {
                return rc;
            }
        }
        o->app.ctx[c].np = np; /* each context without -np gets as many (mpirun's rule) */
    }
    return WU_SUCCESS;
}

/* Returns GO_ON to launch, else the exit code. */
static int parse(int argc, char **argv, opts_t *o)
{
    int i = 1, rc = GO_ON;
    o->app.stdin_target = 0; /* as mpirun: rank 0 reads wrun's stdin */
    while (GO_ON == rc && i < argc) {
        wu_rte_ctx_t *more = realloc(o->app.ctx, (o->app.nctx + 1) * sizeof *more);
        if (NULL == more) {
            return EXIT_USAGE;
        }
        o->app.ctx = more;
        o->cur = &o->app.ctx[o->app.nctx++];
        memset(o->cur, 0, sizeof *o->cur);
        o->cur->np = 0; /* not given: set once the hosts are known (see default_np) */
        rc = parse_ctx(argc, argv, &i, o);
    }
    if (GO_ON == rc && 0 == o->app.nctx) {
        rc = usage_error("no-program", "wrun", NULL);
    }
    return rc;
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
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGTSTP, SIGCONT};
    struct event *sev[WU_NELEMS(sigs)] = {NULL};
    opts_t o;
    int status = 1, rc;

    wu_rte_watchdog_dispatch(argc, argv); /* returns unless this is wrun's watchdog */
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
    if (GO_ON != (rc = allocation(&o)) || GO_ON != (rc = placement(&o))) {
        wu_rte_finalize();
        goto out;
    }
    if (WU_SUCCESS != mca_for_job(&o) || WU_SUCCESS != default_np(&o)) {
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
    for (uint32_t c = 0; c < o.app.nctx; c++) {
        wu_argv_free(o.app.ctx[c].env_set);
    }
    free(o.app.ctx);
    free(o.jm);
    free(o.alloc_from);
    wu_rte_hosts_free(&o.hosts);
    wu_rte_hosts_free(&o.filehosts);
    return rc;
}
