/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_tools.c -- both sides of test/e2e/openpmix_tools.sh, built against OpenPMIx's headers:
 *
 *   job DIR CODE     a rank of a job under wrun (on Wireup's library): registers a handler for
 *                    event CODE, rank 0 publishes "e2e-tools-key" (its namespace as the value),
 *                    fences, writes DIR/ready.<rank> ("NSPACE WRUNPID"), waits (at most 60 s) for the event and
 *                    prints "tools rank R: event CODE from NSPACE:RANK", then waits (at most
 *                    60 s) to be killed and prints "tools rank R: not killed" (exit 1) if it
 *                    is not.
 *   query PID NSPACE a tool (on OpenPMIx's library, connecting to wrun by its pid, as pquery
 *                    --pid does): queries the namespaces, NSPACE's size and process table and
 *                    prints "namespaces LIST", "size N", "proc R pid P state S host H".
 *   lookup PID KEY   a tool looking KEY up (what plookup does, whose 4.2.2 crashes before it
 *                    asks); prints "lookup: STATUS" and "KEY = VALUE (by NSPACE:RANK)".
 *   kill PID NSPACE  a tool asking for PMIX_JOB_CTRL_KILL of every rank of NSPACE (what
 *                    OpenPMIx's pctrl does, which Debian 12's 4.2.2 lacks); prints
 *                    "kill: STATUS". */
#include <pmix.h>
#include <pmix_tool.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile int got_event = 0;
static pmix_proc_t ev_source;

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                     size_t ninfo, pmix_info_t results[], size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)status;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    if (NULL != source) {
        ev_source = *source;
    }
    got_event = 1;
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

static int job(const char *dir, int code)
{
    pmix_proc_t me;
    pmix_status_t rc, st = code;
    char path[4096], tmp[4096];
    FILE *f;

    if (PMIX_SUCCESS != (rc = PMIx_Init(&me, NULL, 0))) {
        fprintf(stderr, "tools: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    rc = PMIx_Register_event_handler(&st, 1, NULL, 0, on_event, NULL, NULL);
    if (rc < 0) {
        fprintf(stderr, "tools rank %u: register: %s\n", me.rank, PMIx_Error_string(rc));
        return 1;
    }
    if (0 == me.rank) {
        pmix_info_t data;
        PMIX_INFO_LOAD(&data, "e2e-tools-key", me.nspace, PMIX_STRING);
        if (PMIX_SUCCESS != (rc = PMIx_Publish(&data, 1))) {
            fprintf(stderr, "tools rank 0: publish: %s\n", PMIx_Error_string(rc));
            return 1;
        }
        PMIX_INFO_DESTRUCT(&data);
    }
    if (PMIX_SUCCESS != (rc = PMIx_Fence(NULL, 0, NULL, 0))) {
        fprintf(stderr, "tools rank %u: fence: %s\n", me.rank, PMIx_Error_string(rc));
        return 1;
    }
    snprintf(tmp, sizeof tmp, "%s/.ready.%u", dir, me.rank);
    snprintf(path, sizeof path, "%s/ready.%u", dir, me.rank);
    if (NULL == (f = fopen(tmp, "w")) || fprintf(f, "%s %d\n", me.nspace, (int)getppid()) < 0 ||
        0 != fclose(f) || 0 != rename(tmp, path)) {
        fprintf(stderr, "tools rank %u: cannot write %s\n", me.rank, path);
        return 1;
    }
    for (int i = 0; i < 600 && !got_event; i++) {
        usleep(100000);
    }
    if (!got_event) {
        printf("tools rank %u: no event\n", me.rank);
        return 1;
    }
    printf("tools rank %u: event %d from %s:%u\n", me.rank, code, ev_source.nspace, ev_source.rank);
    fflush(stdout);
    sleep(60);
    printf("tools rank %u: not killed\n", me.rank);
    (void)PMIx_Finalize(NULL, 0);
    return 1;
}

static pmix_status_t tool_init(const char *pidstr, pmix_proc_t *me)
{
    pmix_info_t info;
    pid_t pid = (pid_t)atoi(pidstr);
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info, PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    rc = PMIx_tool_init(me, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (PMIX_SUCCESS != rc) {
        printf("tool_init: %s\n", PMIx_Error_string(rc));
    }
    return rc;
}

static int query(const char *pid, const char *nspace)
{
    pmix_proc_t me;
    pmix_query_t *q;
    pmix_info_t *res = NULL;
    size_t nres = 0;
    pmix_status_t rc;

    if (PMIX_SUCCESS != tool_init(pid, &me)) {
        return 1;
    }
    PMIX_QUERY_CREATE(q, 2);
    PMIX_ARGV_APPEND(rc, q[0].keys, PMIX_QUERY_NAMESPACES);
    PMIX_ARGV_APPEND(rc, q[1].keys, PMIX_QUERY_PROC_TABLE);
    PMIX_ARGV_APPEND(rc, q[1].keys, PMIX_JOB_SIZE);
    PMIX_QUERY_QUALIFIERS_CREATE(&q[1], 1);
    PMIX_INFO_LOAD(&q[1].qualifiers[0], PMIX_NSPACE, nspace, PMIX_STRING);
    rc = PMIx_Query_info(q, 2, &res, &nres);
    printf("query: %s\n", PMIx_Error_string(rc));
    for (size_t i = 0; i < nres; i++) {
        const pmix_value_t *v = &res[i].value;
        if (PMIX_CHECK_KEY(&res[i], PMIX_QUERY_NAMESPACES) && PMIX_STRING == v->type) {
            printf("namespaces %s\n", v->data.string);
        } else if (PMIX_CHECK_KEY(&res[i], PMIX_JOB_SIZE)) {
            uint32_t n = 0;
            PMIX_VALUE_GET_NUMBER(rc, v, n, uint32_t);
            printf("size %u\n", n);
        } else if (PMIX_CHECK_KEY(&res[i], PMIX_QUERY_PROC_TABLE) && PMIX_DATA_ARRAY == v->type &&
                   PMIX_PROC_INFO == v->data.darray->type) {
            const pmix_proc_info_t *pi = v->data.darray->array;
            for (size_t k = 0; k < v->data.darray->size; k++) {
                printf("proc %u pid %d state %d host %s\n", pi[k].proc.rank, (int)pi[k].pid,
                       (int)pi[k].state, NULL != pi[k].hostname ? pi[k].hostname : "-");
            }
        } else {
            printf("other %s\n", res[i].key);
        }
    }
    (void)PMIx_tool_finalize();
    return PMIX_SUCCESS == rc ? 0 : 1;
}

static int kill_job(const char *pid, const char *nspace)
{
    pmix_proc_t me, target;
    pmix_info_t dir;
    pmix_info_t *res = NULL;
    size_t nres = 0;
    pmix_status_t rc;

    if (PMIX_SUCCESS != tool_init(pid, &me)) {
        return 1;
    }
    PMIX_LOAD_PROCID(&target, nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&dir, PMIX_JOB_CTRL_KILL, NULL, PMIX_BOOL);
    rc = PMIx_Job_control(&target, 1, &dir, 1, &res, &nres);
    printf("kill: %s\n", PMIx_Error_string(rc));
    (void)PMIx_tool_finalize();
    return PMIX_SUCCESS == rc ? 0 : 1;
}

static int lookup(const char *pid, const char *key)
{
    pmix_proc_t me;
    pmix_pdata_t pd;
    pmix_status_t rc;

    if (PMIX_SUCCESS != tool_init(pid, &me)) {
        return 1;
    }
    PMIX_PDATA_CONSTRUCT(&pd);
    PMIX_LOAD_KEY(pd.key, key);
    rc = PMIx_Lookup(&pd, 1, NULL, 0);
    printf("lookup: %s\n", PMIx_Error_string(rc));
    if (PMIX_SUCCESS == rc && PMIX_STRING == pd.value.type) {
        printf("%s = %s (by %s:%u)\n", pd.key, pd.value.data.string, pd.proc.nspace, pd.proc.rank);
    }
    PMIX_PDATA_DESTRUCT(&pd);
    (void)PMIx_tool_finalize();
    return PMIX_SUCCESS == rc ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (4 == argc && 0 == strcmp(argv[1], "job")) {
        return job(argv[2], atoi(argv[3]));
    }
    if (4 == argc && 0 == strcmp(argv[1], "query")) {
        return query(argv[2], argv[3]);
    }
    if (4 == argc && 0 == strcmp(argv[1], "lookup")) {
        return lookup(argv[2], argv[3]);
    }
    if (4 == argc && 0 == strcmp(argv[1], "kill")) {
        return kill_job(argv[2], argv[3]);
    }
    fprintf(stderr, "usage: e2e_tools job DIR CODE | query|kill PID NSPACE | lookup PID KEY\n");
    return 2;
}
