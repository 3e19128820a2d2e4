/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_children.c -- jobs started by PMIx_Spawn (MPI_Comm_spawn): the host's spawn upcall.
 *
 * A process of the launcher's job (on any node: wired passes the request up, wu_rte_rpc.h)
 * asks for a new job. The head node runs it as the launcher runs its own, in a thread of its
 * own (wu_rte_run_child: map, register, start, wait, release): on this node, or on the hosts
 * PMIX_HOST names among the launcher's job's hosts, where the head starts daemons of the new
 * job's own (a wired per node and job, as for the launcher's job). Its processes get the
 * applications' environments, the launcher's options (output handling, oversubscription),
 * PMIX_PARENT_ID and PMIX_SPAWNED, and the parent gets the new namespace once they run. They
 * are not bound unless PMIX_BINDTO asks. The job directives honoured: PMIX_MAPBY, PMIX_BINDTO,
 * PMIX_HOST, PMIX_WDIR, PMIX_PREFIX, PMIX_REPORT_CHILD_SEP, PMIX_NOTIFY_COMPLETION (the parent
 * gets PMIX_EVENT_JOB_END with PMIX_JOB_TERM_STATUS and PMIX_EXIT_CODE when the job ends) and
 * PMIX_NOTIFY_JOB_EVENTS (PMIX_LAUNCH_COMPLETE as well); others are passed over.
 *
 * How such a job ends follows mpirun: a child that fails ends its parent's job as well (and so
 * the launcher), unless it was started with PMIX_REPORT_CHILD_SEP; the parent's job failing
 * ends its children; the launcher waits for every child to end before it exits. The list of
 * children lives on the rte thread; the main thread joins their threads at the end. */
#include "opal/util/wu_argv.h"
#include "opal/util/wu_escape.h"
#include "opal/util/wu_path.h"
#include "opal/class/wu_list.h"
#include "pmix/rte/svc/wu_rte_svc.h"
#include "pmix/rte/dist/wu_rte_rpc.h"
#include "pmix.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    wu_list_item_t super;
    rte_job_t *job;
    pthread_t thread;
    bool ended;    /* its thread is done with it (it may still need joining) */
    bool answered; /* the requester got its answer */
    pmix_spawn_cbfunc_t cbfunc;
    void *cbdata;
    wu_rte_rpc_t *call;   /* or a daemon's request */
    pmix_nspace_t nspace; /* the job's (it outlives the job) */
    pmix_proc_t parent;   /* who asked */
    bool started;         /* it ran */
    bool notify_start;    /* PMIX_NOTIFY_JOB_EVENTS: PMIX_LAUNCH_COMPLETE to the parent */
    bool notify_end;      /* PMIX_NOTIFY_COMPLETION or _JOB_EVENTS: PMIX_EVENT_JOB_END */
    int status;           /* how it ended (set by its thread) */
} child_t;

static WU_CLASS_INSTANCE(child_t, wu_list_item_t, NULL, NULL);

/* The children, newest first (rte thread; made with the first). */
static wu_list_t *children;

/* Iterate over the children: FOR_CHILDREN(c) { ... } */
#define FOR_CHILDREN(c)                                                               \
    for (c = NULL != children ? (child_t *)wu_list_first(children) : NULL; NULL != c; \
         c = (child_t *)wu_list_next(children, &c->super))

rte_job_t *wu_rte_child_find(const char *nspace)
{
    child_t *c;
    FOR_CHILDREN(c)
    {
        if (!c->ended && PMIX_CHECK_NSPACE(c->job->nspace, nspace)) {
            return c->job;
        }
    }
    return NULL;
}

/* ---- the job's description ------------------------------------------------------------------ */

static void spec_free(wu_rte_spec_t *s)
{
    if (NULL == s) {
        return;
    }
    for (uint32_t i = 0; i < s->nctx; i++) {
        wu_argv_free(s->ctx[i].argv);
        wu_argv_free(s->ctx[i].env_set);
        free((char *)s->ctx[i].cwd);
    }
    free(s->ctx);
    for (uint32_t i = 0; i < s->nhosts; i++) {
        free((char *)s->hosts[i].name);
    }
    free((wu_rte_jm_host_t *)s->hosts);
    free((char *)s->map_by);
    free((char *)s->bind_to);
    free((char *)s->prefix);
    free(s);
}

static const pmix_info_t *find(const pmix_info_t *info, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++) {
        if (PMIX_CHECK_KEY(&info[i], key)) {
            return &info[i];
        }
    }
    return NULL;
}

/* Is key given, and true? */
static bool flag(const pmix_info_t *info, size_t n, const char *key)
{
    const pmix_info_t *i = find(info, n, key);
    return NULL != i && PMIX_INFO_TRUE(i);
}

static const char *str_of(const pmix_info_t *i)
{
    return NULL != i && PMIX_STRING == i->value.type ? i->value.data.string : NULL;
}

/* Do names a and b name the same host (their first labels match)? */
static bool same_host(const char *a, const char *b)
{
    size_t la = strcspn(a, "."), lb = strcspn(b, ".");
    return la == lb && 0 == strncmp(a, b, la);
}

/* Add the hosts named in list (comma-separated, "name" or "name:slots") to s's hosts, once
 * each: this node, or one of the launcher's job (mine, NULL: this node only), whose slots it
 * gets unless the list gives some. PMIX_ERR_NOT_FOUND names the first other host in *bad. */
static pmix_status_t add_hosts(wu_rte_spec_t *s, const wu_rte_spec_t *mine, const char *list,
                               char **bad)
{
    char **h = wu_argv_split(list, ',');
    pmix_status_t rc = NULL == h ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    for (size_t i = 0; PMIX_SUCCESS == rc && NULL != h[i]; i++) {
        char *colon = strchr(h[i], ':'), *end = NULL;
        const char *name = NULL;
        char *why = NULL;
        uint32_t slots = 0;
        wu_rte_jm_host_t *more;
        if (NULL != colon) {
            unsigned long v;
            *colon = '\0';
            v = strtoul(colon + 1, &end, 10);
            slots = '\0' == colon[1] || '\0' != *end || v > 1000000 ? 0 : (uint32_t)v;
        }
        if ('\0' == h[i][0]) {
            continue;
        }
        if (WU_SUCCESS != wu_rte_host_name_check(h[i], &why)) {
            wu_rte_say("spawn-bad-host", wu_rte_tool, NULL != why ? why : "?");
            free(why);
            rc = PMIX_ERR_BAD_PARAM;
            break;
        }
        if (0 == strcmp(h[i], "localhost") || same_host(h[i], wu_rte_hostname)) {
            name = wu_rte_hostname;
        }
        for (uint32_t k = 0; NULL == name && NULL != mine && k < mine->nhosts; k++) {
            if (same_host(h[i], mine->hosts[k].name)) {
                name = mine->hosts[k].name;
                slots = 0 == slots ? mine->hosts[k].slots : slots;
            }
        }
        if (NULL == name) {
            *bad = strdup(h[i]);
            rc = PMIX_ERR_NOT_FOUND;
            break;
        }
        for (uint32_t k = 0; NULL != name && k < s->nhosts; k++) {
            name = 0 == strcmp(s->hosts[k].name, name) ? NULL : name; /* named before */
        }
        if (NULL == name) {
            continue;
        }
        more = realloc((wu_rte_jm_host_t *)s->hosts, (s->nhosts + 1) * sizeof *more);
        if (NULL == more) {
            rc = PMIX_ERR_NOMEM;
            break;
        }
        s->hosts = more;
        more[s->nhosts] = (wu_rte_jm_host_t){.name = strdup(name), .slots = slots};
        if (NULL == more[s->nhosts].name) {
            rc = PMIX_ERR_NOMEM;
            break;
        }
        s->nhosts++;
    }
    wu_argv_free(h);
    return rc;
}

/* The new job's description from the request; PMIX_ERR_BAD_PARAM for a host the launcher's
 * job does not have (said to the user). The hosts PMIX_HOST names, over every application,
 * are the job's (none: this node only). */
static pmix_status_t make_spec(const pmix_info_t *info, size_t ninfo, const pmix_app_t *apps,
                               size_t napps, wu_rte_spec_t **out, bool *independent)
{
    const wu_rte_spec_t *mine = NULL != wu_rte_job ? wu_rte_job->app : NULL;
    wu_rte_spec_t *s = calloc(1, sizeof *s);
    const char *v;
    if (NULL == s || NULL == (s->ctx = calloc(napps, sizeof *s->ctx))) {
        free(s);
        return PMIX_ERR_NOMEM;
    }
    s->nctx = (uint32_t)napps;
    s->stdin_target = WU_RTE_STDIN_NONE; /* the launcher's stdin stays with its own job */
    if (NULL != mine) {
        s->tag_output = mine->tag_output;
        s->timestamp_output = mine->timestamp_output;
        s->merge_stderr = mine->merge_stderr;
        s->output_dir = mine->output_dir;
        s->oversubscribe = mine->oversubscribe;
        s->keep_lib_path = mine->keep_lib_path;
    }
    *independent = flag(info, ninfo, PMIX_REPORT_CHILD_SEP);
    if (NULL != (v = str_of(find(info, ninfo, PMIX_MAPBY))) && NULL == (s->map_by = strdup(v))) {
        spec_free(s);
        return PMIX_ERR_NOMEM;
    }
    /* binding only when asked: each job binds from the first core, blind to the cores the
     * launcher's job (busy-polling in MPI_Comm_spawn) holds on the same node */
    v = str_of(find(info, ninfo, PMIX_BINDTO));
    if (NULL == (s->bind_to = strdup(NULL != v ? v : "none"))) {
        spec_free(s);
        return PMIX_ERR_NOMEM;
    }
    if (NULL != (v = str_of(find(info, ninfo, PMIX_PREFIX))) && NULL == (s->prefix = strdup(v))) {
        spec_free(s);
        return PMIX_ERR_NOMEM;
    }
    for (size_t a = 0; a < napps; a++) {
        wu_rte_ctx_t *c = &s->ctx[a];
        const pmix_app_t *app = &apps[a];
        const char *host = str_of(find(app->info, app->ninfo, PMIX_HOST));
        const char *wdir = str_of(find(app->info, app->ninfo, PMIX_WDIR));
        if (NULL == host) {
            host = str_of(find(info, ninfo, PMIX_HOST));
        }
        if (NULL != host) {
            char *bad = NULL;
            pmix_status_t rc = add_hosts(s, mine, host, &bad);
            if (PMIX_ERR_NOT_FOUND == rc) {
                char *safe = wu_str_escape_dup(NULL != bad ? bad : "?", 256, 0);
                wu_rte_say("spawn-unknown-host", wu_rte_tool, NULL != safe ? safe : "?");
                free(safe);
                rc = PMIX_ERR_BAD_PARAM;
            }
            free(bad);
            if (PMIX_SUCCESS != rc) {
                spec_free(s);
                return rc;
            }
        }
        if (NULL == wdir) {
            wdir = NULL != app->cwd && '\0' != app->cwd[0] ? app->cwd
                                                           : str_of(find(info, ninfo, PMIX_WDIR));
        }
        c->np = app->maxprocs > 0 ? (uint32_t)app->maxprocs : 0;
        /* the argument vector starts with the program (as Open MPI passes it); a bare command
         * is the whole of it */
        c->argv = NULL != app->argv && NULL != app->argv[0] ? wu_argv_copy(app->argv) : NULL;
        if (NULL == c->argv && WU_SUCCESS != wu_argv_append(&c->argv, app->cmd)) {
            spec_free(s);
            return PMIX_ERR_NOMEM;
        }
        if (NULL != app->cmd && 0 != strcmp(c->argv[0], app->cmd)) {
            free(c->argv[0]); /* cmd names the program to run */
            c->argv[0] = strdup(app->cmd);
        }
        c->env_set = NULL != app->env ? wu_argv_copy(app->env) : NULL;
        c->cwd = NULL != wdir ? strdup(wdir) : NULL;
        if (NULL == c->argv[0] || (NULL != app->env && NULL == c->env_set) ||
            (NULL != wdir && NULL == c->cwd)) {
            spec_free(s);
            return PMIX_ERR_NOMEM;
        }
    }
    *out = s;
    return PMIX_SUCCESS;
}

/* ---- running it ----------------------------------------------------------------------------- */

static void event_done(pmix_status_t status, void *cbdata)
{
    (void)status;
    (void)cbdata;
}

/* rte thread: tell the process that spawned c about its job (code: PMIX_LAUNCH_COMPLETE or
 * PMIX_EVENT_JOB_END, with the exit code), wherever it runs: this node's clients here, the
 * other nodes' through their daemons; the custom range lets only the parent's handlers see it. */
static void tell_parent(const child_t *c, pmix_status_t code)
{
    pmix_info_t info[6];
    pmix_proc_t job;
    pmix_status_t term = (pmix_status_t)c->status;
    size_t n = 0;
    PMIX_LOAD_PROCID(&job, c->nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info[n++], PMIX_EVENT_CUSTOM_RANGE, &c->parent, PMIX_PROC);
    PMIX_INFO_LOAD(&info[n++], PMIX_EVENT_AFFECTED_PROC, &job, PMIX_PROC);
    PMIX_INFO_LOAD(&info[n++], PMIX_NSPACE, c->nspace, PMIX_STRING);
    if (PMIX_EVENT_JOB_END == code) {
        PMIX_INFO_LOAD(&info[n++], PMIX_JOB_TERM_STATUS, &term, PMIX_STATUS);
        PMIX_INFO_LOAD(&info[n++], PMIX_EXIT_CODE, &c->status, PMIX_INT);
    }
    (void)PMIx_Notify_event(code, &job, PMIX_RANGE_CUSTOM, info, n, event_done, NULL);
    (void)wu_rte_event_spread(code, &job, PMIX_RANGE_CUSTOM, info, n); /* none sent on one node */
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

typedef struct {
    child_t *c;
    int rc;
} answer_t;

/* rte thread: tell the requester how the start went. */
static void answer_in_rte(void *arg)
{
    answer_t *a = arg;
    child_t *c = a->c;
    pmix_status_t st = WU_SUCCESS == a->rc         ? PMIX_SUCCESS
                       : WU_ERR_NOT_FOUND == a->rc ? PMIX_ERR_JOB_EXE_NOT_FOUND
                                                   : PMIX_ERR_JOB_FAILED_TO_LAUNCH;
    bool ended = WU_ERR_SILENT == a->rc; /* from ended_in_rte: the job is gone */
    free(a);
    if (c->answered) {
        return;
    }
    c->answered = true;
    c->started = PMIX_SUCCESS == st;
    if (!ended) {
        c->job->starting = false; /* from now on its failure is its parent's too */
        if (c->started && c->job->status_set && 0 != c->job->status && !c->job->independent &&
            NULL != wu_rte_job) {
            wu_rte_job_fail(wu_rte_job, c->job->status); /* it failed meanwhile */
        }
    }
    if (c->started && c->notify_start) {
        tell_parent(c, PMIX_LAUNCH_COMPLETE);
    }
    if (NULL != c->call) {
        wu_dmsg_t m;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        if (PMIX_SUCCESS == st) {
            st = wu_dmsg_put_str(&m, c->job->nspace);
        }
        wu_rte_rpc_answer(c->call, st, &m);
        c->call = NULL;
    } else if (NULL != c->cbfunc) {
        pmix_nspace_t ns;
        PMIX_LOAD_NSPACE(ns, PMIX_SUCCESS == st ? c->job->nspace : "");
        c->cbfunc(st, ns, c->cbdata);
    }
}

static void launched(rte_job_t *job, int rc, void *arg)
{
    answer_t *a = malloc(sizeof *a);
    (void)job;
    if (NULL == a) {
        return; /* the requester waits until the job's end frees it: out of memory is rare */
    }
    a->c = arg;
    a->rc = rc;
    if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), answer_in_rte, a)) {
        free(a);
    }
}

/* children_wait's call while every child left still runs: completed when one ends (rte
 * thread). */
static wu_wait_call_t *ended_waiter = NULL;

static void take_ended(wu_wait_call_t *call);

static void ended_in_rte(void *arg)
{
    child_t *c = arg;
    if (c->started && c->notify_end) {
        tell_parent(c, PMIX_EVENT_JOB_END);
    }
    answer_t *a = malloc(sizeof *a);
    if (NULL != a) {
        a->c = c;
        a->rc = WU_ERR_SILENT; /* never started: the requester learns it now */
        answer_in_rte(a);
    }
    c->ended = true;
    if (NULL != ended_waiter) {
        wu_wait_call_t *call = ended_waiter;
        ended_waiter = NULL;
        take_ended(call);
    }
}

static void *runner(void *arg)
{
    child_t *c = arg;
    wu_rte_spec_t *spec = c->job->own_app;
    c->status = wu_rte_run_child(c->job, launched, c); /* frees the job */
    spec_free(spec);
    if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), ended_in_rte, c)) {
        c->ended = true; /* the rte thread is gone: nobody else reads it */
    }
    return NULL;
}

/* rte thread: start a child job for proc; answer through cbfunc or call. */
static void start_child(const pmix_proc_t *proc, const pmix_info_t *info, size_t ninfo,
                        const pmix_app_t *apps, size_t napps, pmix_spawn_cbfunc_t cbfunc,
                        void *cbdata, wu_rte_rpc_t *call)
{
    wu_rte_spec_t *spec = NULL;
    child_t *c = NULL;
    bool independent = false;
    uint32_t np = 0;
    pmix_status_t st = NULL == wu_rte_job || wu_rte_job->terminating
                           ? PMIX_ERR_JOB_TERMINATED /* the session is ending */
                           : make_spec(info, ninfo, apps, napps, &spec, &independent);
    if (PMIX_SUCCESS == st && UINT32_MAX == wu_rte_job->mynode) {
        /* the children would run outside the job's hosts, where no server of the job's runs */
        wu_rte_say("spawn-no-head", wu_rte_tool, wu_rte_hostname);
        st = PMIX_ERR_NOT_SUPPORTED;
    }
    if (PMIX_SUCCESS == st && WU_SUCCESS != wu_rte_spec_check(spec, &np)) {
        st = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == st && NULL == children && NULL == (children = WU_NEW(wu_list_t))) {
        st = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS == st && NULL == (c = WU_NEW(child_t))) {
        st = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS == st && NULL == (c->job = wu_rte_job_new(spec, np))) {
        st = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS == st) {
        c->job->child = true;
        c->job->starting = true;
        c->job->spawned = true;
        c->job->parent = *proc;
        c->job->independent = independent;
        c->job->own_app = spec;
        PMIX_LOAD_NSPACE(c->nspace, c->job->nspace);
        c->parent = *proc;
        c->notify_start = flag(info, ninfo, PMIX_NOTIFY_JOB_EVENTS);
        c->notify_end = c->notify_start || flag(info, ninfo, PMIX_NOTIFY_COMPLETION);
        c->cbfunc = cbfunc;
        c->cbdata = cbdata;
        c->call = call;
        if (0 != pthread_create(&c->thread, NULL, runner, c)) {
            st = PMIX_ERR_OUT_OF_RESOURCE;
        }
    }
    if (PMIX_SUCCESS != st) {
        if (NULL != c && NULL != c->job) {
            wu_rte_job_discard(c->job); /* never set up */
        }
        if (NULL != c) {
            WU_RELEASE(c);
        }
        spec_free(spec);
        if (NULL != call) {
            wu_rte_rpc_answer(call, st, NULL);
        } else if (NULL != cbfunc) {
            pmix_nspace_t ns;
            PMIX_LOAD_NSPACE(ns, "");
            cbfunc(st, ns, cbdata);
        }
        return;
    }
    wu_list_prepend(children, &c->super);
}

/* ---- requests --------------------------------------------------------------------------------- */

typedef struct {
    pmix_proc_t proc;
    pmix_info_t *info;
    size_t ninfo;
    pmix_app_t *apps;
    size_t napps;
    pmix_spawn_cbfunc_t cbfunc;
    void *cbdata;
} sreq_t;

static void sreq_free(sreq_t *r)
{
    if (NULL != r->info) {
        PMIX_INFO_FREE(r->info, r->ninfo);
    }
    if (NULL != r->apps) {
        PMIX_APP_FREE(r->apps, r->napps);
    }
    free(r);
}

static pmix_status_t pack_req(const sreq_t *r, wu_dmsg_t *m)
{
    pmix_status_t rc = wu_dmsg_put_proc(m, &r->proc);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(m, (uint32_t)r->ninfo) : rc;
    if (PMIX_SUCCESS == rc && 0 < r->ninfo) {
        rc = PMIx_Data_pack(NULL, m, r->info, (int32_t)r->ninfo, PMIX_INFO);
    }
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(m, (uint32_t)r->napps) : rc;
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Data_pack(NULL, m, r->apps, (int32_t)r->napps, PMIX_APP);
    }
    return rc;
}

/* wired: the head's answer. */
static void rpc_done(pmix_status_t st, wu_dmsg_t *payload, void *arg)
{
    sreq_t *r = arg;
    char *ns = NULL;
    pmix_nspace_t nspace;
    if (PMIX_SUCCESS == st &&
        (NULL == payload || PMIX_SUCCESS != wu_dmsg_get_str(payload, &ns) || NULL == ns)) {
        st = PMIX_ERR_UNPACK_FAILURE;
    }
    PMIX_LOAD_NSPACE(nspace, PMIX_SUCCESS == st ? ns : "");
    r->cbfunc(st, nspace, r->cbdata);
    free(ns);
    sreq_free(r);
}

static void sreq_in_rte(void *arg)
{
    sreq_t *r = arg;
    if (wu_rte_daemon_mode) {
        wu_dmsg_t m;
        pmix_status_t rc;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        if (PMIX_SUCCESS != (rc = pack_req(r, &m))) {
            pmix_nspace_t ns;
            PMIX_DATA_BUFFER_DESTRUCT(&m);
            PMIX_LOAD_NSPACE(ns, "");
            r->cbfunc(rc, ns, r->cbdata);
            sreq_free(r);
            return;
        }
        wu_rte_rpc_call(WU_RTE_RPC_SPAWN, &m, rpc_done, r);
        return;
    }
    start_child(&r->proc, r->info, r->ninfo, r->apps, r->napps, r->cbfunc, r->cbdata, NULL);
    sreq_free(r);
}

/* Deep copies of n apps into dst (made with PMIX_APP_CREATE), through the public API. */
static pmix_status_t copy_apps(pmix_app_t *dst, const pmix_app_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        void *one = NULL;
        pmix_status_t rc = PMIx_Data_copy(&one, (void *)&src[i], PMIX_APP);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
        dst[i] = *(pmix_app_t *)one; /* its fields are dst's now */
        free(one);
    }
    return PMIX_SUCCESS;
}

pmix_status_t wu_rte_children_spawn(const pmix_proc_t *proc, const pmix_info_t job_info[],
                                    size_t ninfo, const pmix_app_t apps[], size_t napps,
                                    pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    sreq_t *r = calloc(1, sizeof *r);
    pmix_status_t rc = NULL == r ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    if (PMIX_SUCCESS == rc) {
        r->proc = *proc;
        r->cbfunc = cbfunc;
        r->cbdata = cbdata;
        PMIX_APP_CREATE(r->apps, napps);
        r->napps = NULL != r->apps ? napps : 0;
        rc = NULL == r->apps ? PMIX_ERR_NOMEM : copy_apps(r->apps, apps, napps);
    }
    if (PMIX_SUCCESS == rc && 0 < ninfo) {
        PMIX_INFO_CREATE(r->info, ninfo);
        r->ninfo = NULL != r->info ? ninfo : 0;
        for (size_t i = 0; PMIX_SUCCESS == rc && i < r->ninfo; i++) {
            rc = PMIx_Info_xfer(&r->info[i], &job_info[i]);
        }
        rc = NULL == r->info ? PMIX_ERR_NOMEM : rc;
    }
    if (PMIX_SUCCESS == rc && WU_SUCCESS != wu_progress_shift(wu_rte_progress(), sreq_in_rte, r)) {
        rc = PMIX_ERR_INIT;
    }
    if (PMIX_SUCCESS != rc && NULL != r) {
        sreq_free(r);
    }
    return rc;
}

static void children_serve(wu_rte_rpc_t *call, uint32_t op, wu_dmsg_t *args)
{
    (void)op;
    pmix_proc_t proc;
    uint32_t ninfo = 0, napps = 0;
    int32_t cnt;
    pmix_info_t *info = NULL;
    pmix_app_t *apps = NULL;
    pmix_status_t rc = wu_dmsg_get_proc(args, &proc);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(args, &ninfo) : rc;
    if (PMIX_SUCCESS == rc && ninfo > 4096) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == rc && 0 < ninfo) {
        PMIX_INFO_CREATE(info, ninfo);
        cnt = (int32_t)ninfo;
        rc = NULL == info ? PMIX_ERR_NOMEM : PMIx_Data_unpack(NULL, args, info, &cnt, PMIX_INFO);
    }
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(args, &napps) : rc;
    if (PMIX_SUCCESS == rc && (0 == napps || napps > 4096)) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == rc) {
        PMIX_APP_CREATE(apps, napps);
        cnt = (int32_t)napps;
        rc = NULL == apps ? PMIX_ERR_NOMEM : PMIx_Data_unpack(NULL, args, apps, &cnt, PMIX_APP);
    }
    if (PMIX_SUCCESS == rc) {
        start_child(&proc, info, ninfo, apps, napps, NULL, NULL, call);
    } else {
        wu_rte_rpc_answer(call, rc, NULL);
    }
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
    if (NULL != apps) {
        PMIX_APP_FREE(apps, napps);
    }
}

/* ---- ends ---------------------------------------------------------------------------------- */

static void children_fail(int status)
{
    child_t *c;
    FOR_CHILDREN(c)
    {
        if (!c->ended && !c->job->independent && !c->job->terminating) {
            wu_rte_job_fail(c->job, 0 != status ? status : 1);
        }
    }
}

static void children_signal(int sig)
{
    child_t *c;
    FOR_CHILDREN(c)
    {
        if (!c->ended && NULL != c->job->pls) {
            (void)wu_pls_signal_job(c->job->pls, SIGTSTP == sig ? SIGSTOP : sig);
        }
        if (!c->ended && NULL != c->job->role && NULL != c->job->role->signal) {
            c->job->role->signal(c->job, SIGTSTP == sig ? SIGSTOP : sig); /* on other nodes */
        }
    }
}

/* rte thread: a child whose thread is done, unlinked, and whether any other still runs; while
 * children run and none has ended, the call waits (ended_waiter) for the next end. */
static void take_ended(wu_wait_call_t *call)
{
    child_t *c, *found = NULL;
    bool running = false;
    FOR_CHILDREN(c)
    {
        if (c->ended) {
            found = c;
            break;
        }
    }
    if (NULL != found) {
        wu_list_remove(children, &found->super);
    }
    FOR_CHILDREN(c)
    {
        running = running || !c->ended;
    }
    if (NULL == found && running) {
        ended_waiter = call;
        return;
    }
    *(child_t **)call->cbdata = found;
    wu_wait_call_done(call, running ? 1 : 0);
}

static void children_wait(void)
{
    for (;;) {
        child_t *c = NULL;
        int running = wu_progress_shift_wait(wu_rte_progress(), take_ended, &c, 0);
        if (NULL != c) {
            (void)pthread_join(c->thread, NULL);
            WU_RELEASE(c);
            continue;
        }
        if (running <= 0) {
            return; /* no child left (take_ended waits while one runs) */
        }
    }
}

static void observe_failed(rte_job_t *job, int status)
{
    if (job->child && !job->independent && !job->starting && 0 != status && NULL != wu_rte_job &&
        !wu_rte_job->child) {
        /* a spawned job that fails ends its parent's job too, as mpirun does */
        wu_rte_job_fail(wu_rte_job, status);
    } else if (!job->child) {
        children_fail(status); /* and the launcher's job ends its children */
    }
}

static void observe_signalled(rte_job_t *job, int sig)
{
    (void)job; /* (the launcher's job: its children get the signal too) */
    children_signal(sig);
}

static void observe_finishing(rte_job_t *job)
{
    if (!job->child) {
        children_wait(); /* before the launcher's job goes: its children have ended */
    }
}

int wu_rte_children_attach(void)
{
    static const rte_job_observer_t observer = {.job_failed = observe_failed,
                                                .job_signalled = observe_signalled,
                                                .job_finishing = observe_finishing};
    int rc = wu_rte_job_observe(&observer);
    wu_rte_job_set_finder(wu_rte_child_find);
    return WU_SUCCESS == rc ? wu_rte_rpc_handle(WU_RTE_RPC_SPAWN, children_serve) : rc;
}
