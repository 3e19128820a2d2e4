/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_spawn.c -- PMIx_Spawn under wrun (issue 14).
 *
 *   e2e_spawn parent DIR [HOST]  rank 0 spawns 2 children (this program, "child") with an
 *                          environment variable and DIR as working directory (and PMIX_HOST
 *                          HOST); parents and children connect; each side reads the other's job
 *                          data and what rank 0 of the other committed; the children check
 *                          PMIX_PARENT_ID, PMIX_SPAWNED, their variable and directory, and that
 *                          they run on HOST
 *   e2e_spawn badexe [HOST]  spawning a program that does not exist (on HOST) fails, the job
 *                          goes on
 *   e2e_spawn nohost       spawning onto a host that is not one of the job's is refused, and so
 *                          is a name no host can have (-oProxyCommand=false)
 *                          (PMIX_ERR_BAD_PARAM)
 *   e2e_spawn failchild [HOST]  a child that exits 3 (on HOST) ends the parent's job too
 *   e2e_spawn sep          the same with PMIX_REPORT_CHILD_SEP: the parent's job goes on
 *   e2e_spawn notify       the last rank spawns such a child with PMIX_NOTIFY_JOB_EVENTS too:
 *                          it hears PMIX_LAUNCH_COMPLETE and PMIX_EVENT_JOB_END (exit code 3) of
 *                          the new namespace, the other ranks hear neither
 * Each process prints "spawn MODE: rank R ok" at the end. */
#include "e2e_util.h"

static char prog[4096];

static bool notify; /* spawn with PMIX_NOTIFY_JOB_EVENTS */

static pmix_status_t spawn(const char *mode, int np, const char *dir, bool sep, const char *host,
                           char *ns)
{
    pmix_app_t app;
    pmix_info_t info[3];
    size_t ninfo = 0;
    char *argv[] = {prog, (char *)mode, NULL};
    char where[300];
    char *env[] = {"WU_SPAWN_TEST=42", where, NULL};
    pmix_status_t rc;
    snprintf(where, sizeof where, "WU_SPAWN_HOST=%s", NULL != host ? host : "");
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(prog);
    app.argv = argv;
    app.env = env;
    app.maxprocs = np;
    if (NULL != dir) {
        app.cwd = strdup(dir);
    }
    if (sep) {
        bool yes = true;
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_REPORT_CHILD_SEP, &yes, PMIX_BOOL);
    }
    if (NULL != host) {
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_HOST, host, PMIX_STRING);
    }
    if (notify) {
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_NOTIFY_JOB_EVENTS, &notify, PMIX_BOOL);
    }
    rc = PMIx_Spawn(info, ninfo, &app, 1, ns);
    app.argv = NULL;
    app.env = NULL;
    PMIX_APP_DESTRUCT(&app);
    for (size_t i = 0; i < ninfo; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    return rc;
}

static void put_commit(const char *key, const char *val)
{
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, val, PMIX_STRING);
    E2E_RC(PMIx_Put(PMIX_GLOBAL, key, &v), key);
    PMIX_VALUE_DESTRUCT(&v);
    E2E_RC(PMIx_Commit(), "PMIx_Commit");
}

/* Connect with the other job (all of it) and check its size and what its rank 0 committed. */
static void meet(const char *other, uint32_t want_size, const char *key, const char *want)
{
    pmix_proc_t both[2];
    pmix_value_t *v;
    pmix_status_t st;
    PMIX_LOAD_PROCID(&both[0], e2e_me.nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&both[1], other, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Connect(both, 2, NULL, 0), "PMIx_Connect of parents and children");
    v = e2e_get(other, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, NULL, 0, &st);
    E2E_RC(st, "Get of the other job's size");
    E2E_CHECK(0 == want_size ? v->data.uint32 > 0 : v->data.uint32 == want_size,
              "the other job has %u ranks, not %u", v->data.uint32, want_size);
    e2e_free_value(v);
    v = e2e_get(other, 0, key, NULL, 0, &st);
    E2E_RC(st, key);
    E2E_CHECK(PMIX_STRING == v->type && 0 == strcmp(want, v->data.string), "%s: '%s'", key,
              v->data.string);
    e2e_free_value(v);
    E2E_RC(PMIx_Disconnect(both, 2, NULL, 0), "PMIx_Disconnect");
}

static void parent(const char *dir, const char *host, uint32_t size)
{
    char ns[PMIX_MAX_NSLEN + 1] = "";
    pmix_value_t v;
    e2e_step("spawn");
    put_commit("wu.parent", "from the parent");
    if (0 == e2e_me.rank) {
        E2E_RC(spawn("child", 2, dir, false, host, ns), "PMIx_Spawn");
        E2E_CHECK('\0' != ns[0] && 0 != strcmp(ns, e2e_me.nspace), "the new namespace '%s'", ns);
        /* the other ranks learn it */
        PMIX_VALUE_LOAD(&v, ns, PMIX_STRING);
        E2E_RC(PMIx_Put(PMIX_GLOBAL, "wu.child.ns", &v), "Put of the namespace");
        PMIX_VALUE_DESTRUCT(&v);
        E2E_RC(PMIx_Commit(), "PMIx_Commit");
    }
    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence");
    if (0 != e2e_me.rank) {
        pmix_value_t *got;
        pmix_status_t st;
        got = e2e_get(e2e_me.nspace, 0, "wu.child.ns", NULL, 0, &st);
        E2E_RC(st, "Get of the children's namespace");
        snprintf(ns, sizeof ns, "%s", got->data.string);
        e2e_free_value(got);
    }
    e2e_step("meet the children");
    meet(ns, 2, "wu.child", "from a child");
    (void)size;
}

static void child(void)
{
    pmix_value_t *v;
    pmix_status_t st;
    pmix_proc_t *par;
    char cwd[4096];
    const char *var = getenv("WU_SPAWN_TEST"), *host = getenv("WU_SPAWN_HOST");
    char me[256] = "";
    e2e_step("child: what it was given");
    E2E_CHECK(NULL != var && 0 == strcmp(var, "42"), "WU_SPAWN_TEST is '%s'",
              NULL != var ? var : "(unset)");
    (void)gethostname(me, sizeof me - 1);
    E2E_CHECK(NULL == host || '\0' == host[0] || 0 == strncmp(me, host, strlen(host)),
              "the child runs on %s, not on %s (PMIX_HOST)", me, NULL != host ? host : "");
    E2E_CHECK(NULL != getcwd(cwd, sizeof cwd) && NULL != strstr(cwd, "spawn-wdir"),
              "the working directory is %s", cwd);
    v = e2e_get(e2e_me.nspace, e2e_me.rank, PMIX_PARENT_ID, NULL, 0, &st);
    E2E_RC(st, "Get of PMIX_PARENT_ID");
    E2E_CHECK(PMIX_PROC == v->type && NULL != v->data.proc && 0 == v->data.proc->rank,
              "PMIX_PARENT_ID: type %d", v->type);
    par = v->data.proc;
    v->data.proc = NULL;
    e2e_free_value(v);
    v = e2e_get(e2e_me.nspace, PMIX_RANK_WILDCARD, PMIX_SPAWNED, NULL, 0, &st);
    E2E_RC(st, "Get of PMIX_SPAWNED");
    E2E_CHECK(PMIX_BOOL == v->type && v->data.flag, "PMIX_SPAWNED is not true");
    e2e_free_value(v);
    put_commit("wu.child", "from a child");
    e2e_step("child: meet the parents");
    meet(par->nspace, 0, "wu.parent", "from the parent");
    PMIX_PROC_FREE(par, 1);
}

/* What the job events said: the namespace of PMIX_LAUNCH_COMPLETE, and of PMIX_EVENT_JOB_END
 * (its affected proc) with its exit code. */
static char launched_ns[PMIX_MAX_NSLEN + 1], ended_ns[PMIX_MAX_NSLEN + 1];
static volatile int nlaunched, nended, end_code = -1;

static void on_job_event(size_t ref, pmix_status_t status, const pmix_proc_t *source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)ref, (void)source, (void)results, (void)nresults;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_LAUNCH_COMPLETE == status && PMIX_CHECK_KEY(&info[i], PMIX_NSPACE) &&
            PMIX_STRING == info[i].value.type) {
            snprintf(launched_ns, sizeof launched_ns, "%s", info[i].value.data.string);
        } else if (PMIX_EVENT_JOB_END == status &&
                   PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) &&
                   PMIX_PROC == info[i].value.type) {
            snprintf(ended_ns, sizeof ended_ns, "%s", info[i].value.data.proc->nspace);
        } else if (PMIX_EVENT_JOB_END == status && PMIX_CHECK_KEY(&info[i], PMIX_EXIT_CODE) &&
                   PMIX_INT == info[i].value.type) {
            end_code = info[i].value.data.integer;
        }
    }
    __atomic_add_fetch(PMIX_LAUNCH_COMPLETE == status ? &nlaunched : &nended, 1, __ATOMIC_RELEASE);
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

/* The last rank spawns a child that exits 3 with PMIX_NOTIFY_JOB_EVENTS (and
 * PMIX_REPORT_CHILD_SEP): it hears PMIX_LAUNCH_COMPLETE and PMIX_EVENT_JOB_END of that job, with
 * exit code 3; the other ranks hear neither (the events' range is the parent). */
static void notified(uint32_t size)
{
    pmix_status_t codes[] = {PMIX_LAUNCH_COMPLETE, PMIX_EVENT_JOB_END};
    char ns[PMIX_MAX_NSLEN + 1] = "";
    bool me = e2e_me.rank == size - 1;
    e2e_step("register for job events");
    E2E_CHECK(0 <= PMIx_Register_event_handler(codes, 2, NULL, 0, on_job_event, NULL, NULL),
              "PMIx_Register_event_handler");
    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence (registered)");
    if (me) {
        e2e_step("spawn with PMIX_NOTIFY_JOB_EVENTS");
        notify = true;
        E2E_RC(spawn("exit3", 1, NULL, true, NULL, ns), "PMIx_Spawn");
        for (int i = 0; i < 300 && 0 == __atomic_load_n(&nended, __ATOMIC_ACQUIRE); i++) {
            usleep(100000);
        }
        E2E_CHECK(1 == nlaunched && 0 == strcmp(launched_ns, ns),
                  "PMIX_LAUNCH_COMPLETE %d times, of '%s' (spawned '%s')", nlaunched, launched_ns,
                  ns);
        E2E_CHECK(1 == nended && 0 == strcmp(ended_ns, ns) && 3 == end_code,
                  "PMIX_EVENT_JOB_END %d times, of '%s' (spawned '%s'), exit code %d", nended,
                  ended_ns, ns, end_code);
    }
    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence (heard)");
    if (!me) {
        E2E_CHECK(0 == nlaunched && 0 == nended, "another rank heard the parent's job events");
    }
}

int main(int argc, char **argv)
{
    pmix_value_t *v;
    pmix_proc_t wild;
    uint32_t size;
    char ns[PMIX_MAX_NSLEN + 1];
    const char *mode = argc > 1 ? argv[1] : "";
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (NULL == realpath(argv[0], prog)) {
        snprintf(prog, sizeof prog, "%s", argv[0]);
    }
    e2e_step("init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    PMIX_LOAD_PROCID(&wild, e2e_me.nspace, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v), "Get job size");
    size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    if (0 == strcmp(mode, "parent") && argc > 2) {
        parent(argv[2], argc > 3 ? argv[3] : NULL, size);
    } else if (0 == strcmp(mode, "child")) {
        child();
    } else if (0 == strcmp(mode, "badexe")) {
        e2e_step("badexe");
        snprintf(prog, sizeof prog, "/nonexistent/wu-no-such-program");
        E2E_CHECK(PMIX_SUCCESS != spawn("x", 1, NULL, false, argc > 2 ? argv[2] : NULL, ns),
                  "spawning a missing program succeeded");
    } else if (0 == strcmp(mode, "nohost")) {
        e2e_step("nohost");
        E2E_RC_IS(spawn("x", 1, NULL, false, "wu-no-such-host", ns), PMIX_ERR_BAD_PARAM,
                  "PMIx_Spawn onto a host the job does not have");
        E2E_RC_IS(spawn("x", 1, NULL, false, "-oProxyCommand=false", ns), PMIX_ERR_BAD_PARAM,
                  "PMIx_Spawn onto a host named like an ssh option");
    } else if (0 == strcmp(mode, "failchild") || 0 == strcmp(mode, "sep")) {
        e2e_step("spawn a failing child");
        E2E_RC(spawn("exit3", 1, NULL, 0 == strcmp(mode, "sep"), argc > 2 ? argv[2] : NULL, ns),
               "PMIx_Spawn");
        /* failchild: the child's failure ends this job (a signal ends this sleep); sep: not */
        sleep(0 == strcmp(mode, "sep") ? 3 : 60);
    } else if (0 == strcmp(mode, "notify")) {
        notified(size);
    } else if (0 == strcmp(mode, "exit3")) {
        PMIx_Finalize(NULL, 0);
        return 3;
    } else {
        e2e_fail("usage: e2e_spawn parent DIR [HOST] | badexe [HOST] | nohost | failchild [HOST] | "
                 "sep | notify");
    }
    e2e_step("finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("spawn %s: rank %u ok\n", mode, e2e_me.rank);
    return 0;
}
