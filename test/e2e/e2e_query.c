/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_query.c -- `wrun -n N e2e_query DIR`: PMIx_Query_info (the ABI versions before and after
 * PMIx_Init, namespaces, job size, proc table) and PMIx_Job_control_nb cleanup registration. DIR is the test's private temporary
 * directory: rank 0 creates DIR/cleanme/ (with a file inside) and DIR/cleanfile and registers
 * them with PMIX_REGISTER_CLEANUP_DIR (+ PMIX_CLEANUP_RECURSIVE) and PMIX_REGISTER_CLEANUP; the
 * script checks that both are gone after the job and DIR itself is not. Every rank also logs
 * "e2e-log-marker from rank R" with PMIx_Log_nb to the PMIX_LOG_STDERR channel. */
#include "e2e_util.h"

#include <pthread.h>
#include <sys/stat.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static bool cb_done;
static pmix_status_t cb_status;

static void jc_cb(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                  pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    (void)info;
    (void)ninfo;
    (void)cbdata;
    pthread_mutex_lock(&lock);
    cb_status = status;
    cb_done = true;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
    if (release_fn != NULL) {
        release_fn(release_cbdata);
    }
}

static void log_cb(pmix_status_t status, void *cbdata)
{
    (void)cbdata;
    pthread_mutex_lock(&lock);
    cb_status = status;
    cb_done = true;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
}

/* wait (30 s at most) for the callback and check its status */
static void wait_cb(const char *what)
{
    struct timespec ts;
    int rc = 0;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 30;
    pthread_mutex_lock(&lock);
    while (!cb_done && rc == 0) {
        rc = pthread_cond_timedwait(&cond, &lock, &ts);
    }
    pthread_mutex_unlock(&lock);
    E2E_CHECK(cb_done, "%s: callback not called within 30 s", what);
    E2E_RC(cb_status, what);
}

static void job_control(const pmix_info_t *dirs, size_t ndirs, const char *what)
{
    cb_done = false;
    pmix_status_t st = PMIx_Job_control_nb(NULL, 0, dirs, ndirs, jc_cb, NULL);
    if (st == PMIX_OPERATION_SUCCEEDED) {
        return;
    }
    E2E_RC(st, what);
    wait_cb(what);
}

static const pmix_info_t *find_info(const pmix_info_t *info, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++) {
        if (PMIX_CHECK_KEY(&info[i], key)) {
            return &info[i];
        }
    }
    return NULL;
}

static void query(const char *key, const char *ns, pmix_info_t **res, size_t *nres)
{
    pmix_query_t q;
    PMIX_QUERY_CONSTRUCT(&q);
    q.keys = calloc(2, sizeof(char *));
    E2E_CHECK(q.keys != NULL && (q.keys[0] = strdup(key)) != NULL, "out of memory");
    if (ns != NULL) {
        PMIX_INFO_CREATE(q.qualifiers, 1);
        q.nqual = 1;
        PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_NSPACE, ns, PMIX_STRING);
    }
    *res = NULL;
    *nres = 0;
    pmix_status_t st = PMIx_Query_info(&q, 1, res, nres);
    PMIX_QUERY_DESTRUCT(&q);
    if (st != PMIX_SUCCESS) {
        e2e_fail("PMIx_Query_info(%s) returned %s (%d)", key, PMIx_Error_string(st), st);
    }
    E2E_CHECK(find_info(*res, *nres, key) != NULL, "PMIx_Query_info(%s): key not in the answer",
              key);
}

/* Both ABI versions are answered, as strings of "MAJOR.MINOR" items (before PMIx_Init too). */
static void query_abi(void)
{
    static const char *const keys[] = {PMIX_QUERY_STABLE_ABI_VERSION,
                                       PMIX_QUERY_PROVISIONAL_ABI_VERSION};
    pmix_query_t q;
    pmix_info_t *res = NULL;
    size_t nres = 0;
    PMIX_QUERY_CONSTRUCT(&q);
    q.keys = calloc(3, sizeof(char *));
    E2E_CHECK(q.keys != NULL && (q.keys[0] = strdup(keys[0])) != NULL &&
                  (q.keys[1] = strdup(keys[1])) != NULL,
              "out of memory");
    E2E_RC(PMIx_Query_info(&q, 1, &res, &nres), "PMIx_Query_info(ABI versions)");
    PMIX_QUERY_DESTRUCT(&q);
    for (size_t k = 0; k < 2; k++) {
        const pmix_info_t *it = find_info(res, nres, keys[k]);
        unsigned major, minor;
        E2E_CHECK(it != NULL && it->value.type == PMIX_STRING && it->value.data.string != NULL &&
                      2 == sscanf(it->value.data.string, "%u.%u", &major, &minor),
                  "%s: not answered as \"MAJOR.MINOR\"", keys[k]);
    }
    PMIX_INFO_FREE(res, nres);
}

int main(int argc, char **argv)
{
    pmix_info_t *res, dirs[2];
    size_t nres;
    char host[256], path[4096];
    bool yes = true;

    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    gethostname(host, sizeof(host));
    host[sizeof(host) - 1] = '\0';
    e2e_step("query the ABI versions before PMIx_Init");
    query_abi();
    e2e_step("PMIx_Init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    const char *ns = e2e_me.nspace;
    uint32_t n = e2e_get_u32(ns, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);

    e2e_step("query namespaces");
    query(PMIX_QUERY_NAMESPACES, NULL, &res, &nres);
    const pmix_info_t *it = find_info(res, nres, PMIX_QUERY_NAMESPACES);
    E2E_CHECK(it->value.type == PMIX_STRING && it->value.data.string != NULL, "namespaces: type %s",
              PMIx_Data_type_string(it->value.type));
    bool found = false;
    char *list = strdup(it->value.data.string), *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        found |= strcmp(tok, ns) == 0;
    }
    E2E_CHECK(found, "own namespace %s not in '%s'", ns, it->value.data.string);
    free(list);
    PMIX_INFO_FREE(res, nres);

    e2e_step("query the ABI versions");
    query_abi();

    e2e_step("query job size");
    query(PMIX_JOB_SIZE, ns, &res, &nres);
    it = find_info(res, nres, PMIX_JOB_SIZE);
    E2E_CHECK(it->value.type == PMIX_UINT32 && it->value.data.uint32 == n,
              "job size query: type %s value %u, expected UINT32 %u",
              PMIx_Data_type_string(it->value.type), it->value.data.uint32, n);
    PMIX_INFO_FREE(res, nres);

    e2e_step("query proc table");
    query(PMIX_QUERY_PROC_TABLE, ns, &res, &nres);
    it = find_info(res, nres, PMIX_QUERY_PROC_TABLE);
    E2E_CHECK(it->value.type == PMIX_DATA_ARRAY && it->value.data.darray != NULL,
              "proc table: type %s", PMIx_Data_type_string(it->value.type));
    const pmix_data_array_t *da = it->value.data.darray;
    E2E_CHECK(da->type == PMIX_PROC_INFO && da->size == n,
              "proc table: array of %zu %s, expected %u PMIX_PROC_INFO", da->size,
              PMIx_Data_type_string(da->type), n);
    const pmix_proc_info_t *pi = (const pmix_proc_info_t *)da->array;
    for (uint32_t r = 0; r < n; r++) {
        size_t hits = 0;
        for (size_t i = 0; i < da->size; i++) {
            if (pi[i].proc.rank != r) {
                continue;
            }
            hits++;
            E2E_CHECK(PMIX_CHECK_NSPACE(pi[i].proc.nspace, ns), "proc table: nspace %s",
                      pi[i].proc.nspace);
            E2E_CHECK(pi[i].hostname != NULL && strcmp(pi[i].hostname, host) == 0,
                      "proc table: rank %u on host '%s'", r,
                      pi[i].hostname ? pi[i].hostname : "(null)");
            if (r == e2e_me.rank) {
                E2E_CHECK(pi[i].pid == getpid(), "proc table: own pid %ld, expected %ld",
                          (long)pi[i].pid, (long)getpid());
            }
        }
        E2E_CHECK(hits == 1, "proc table: rank %u appears %zu times", r, hits);
    }
    PMIX_INFO_FREE(res, nres);

    if (e2e_me.rank == 0) {
        e2e_step("register cleanup");
        snprintf(path, sizeof(path), "%s/cleanme", argv[1]);
        E2E_CHECK(mkdir(path, 0700) == 0, "mkdir %s failed", path);
        snprintf(path, sizeof(path), "%s/cleanme/sub", argv[1]);
        E2E_CHECK(mkdir(path, 0700) == 0, "mkdir %s failed", path);
        snprintf(path, sizeof(path), "%s/cleanme/sub/file", argv[1]);
        FILE *f = fopen(path, "w");
        E2E_CHECK(f != NULL && fputs("x\n", f) >= 0 && fclose(f) == 0, "cannot write %s", path);
        snprintf(path, sizeof(path), "%s/cleanme", argv[1]);
        PMIX_INFO_LOAD(&dirs[0], PMIX_REGISTER_CLEANUP_DIR, path, PMIX_STRING);
        PMIX_INFO_LOAD(&dirs[1], PMIX_CLEANUP_RECURSIVE, &yes, PMIX_BOOL);
        job_control(dirs, 2, "Job_control_nb(REGISTER_CLEANUP_DIR)");
        PMIX_INFO_DESTRUCT(&dirs[0]);
        PMIX_INFO_DESTRUCT(&dirs[1]);
        snprintf(path, sizeof(path), "%s/cleanfile", argv[1]);
        f = fopen(path, "w");
        E2E_CHECK(f != NULL && fclose(f) == 0, "cannot create %s", path);
        PMIX_INFO_LOAD(&dirs[0], PMIX_REGISTER_CLEANUP, path, PMIX_STRING);
        job_control(dirs, 1, "Job_control_nb(REGISTER_CLEANUP)");
        PMIX_INFO_DESTRUCT(&dirs[0]);
    }

    e2e_step("PMIx_Log_nb to stderr");
    {
        char line[128];
        pmix_info_t data;
        snprintf(line, sizeof(line), "e2e-log-marker from rank %u", e2e_me.rank);
        PMIX_INFO_LOAD(&data, PMIX_LOG_STDERR, line, PMIX_STRING);
        cb_done = false;
        pmix_status_t st = PMIx_Log_nb(&data, 1, NULL, 0, log_cb, NULL);
        if (st == PMIX_SUCCESS) {
            wait_cb("PMIx_Log_nb");
        } else if (st != PMIX_OPERATION_SUCCEEDED) {
            e2e_fail("PMIx_Log_nb returned %s (%d)", PMIx_Error_string(st), st);
        }
        PMIX_INFO_DESTRUCT(&data);
    }

    e2e_step("final fence");
    e2e_fence(NULL, 0, "PMIx_Fence");
    e2e_step("PMIx_Finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("query rank %u of %u: ok\n", e2e_me.rank, n);
    return 0;
}
