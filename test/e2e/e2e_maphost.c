/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_maphost.c -- a minimal PMIx host, as resource managers write them (OpenPMIx's
 * examples/server.c, Slurm's mpi/pmix): it registers a job with job-level maps only (PMIX_NODE_MAP,
 * PMIX_PROC_MAP, PMIX_LOCAL_PEERS, sizes; no per-process data), forks its clients and waits for
 * them. Its upcalls behave like Slurm's: client_connected returns PMIX_SUCCESS and never calls
 * back; fence_nb answers inside the upcall while holding a lock that its release function takes
 * again. Built against either library's headers (public API only), so the same host runs on
 * OpenPMIx and on Wireup and its clients' view of the job can be compared.
 *
 *   e2e_maphost N PROGRAM [ARGS...]   exit 0 when every client exited 0 */
#include <pmix_server.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NSPACE "maphost"

static pthread_mutex_t coll_lock = PTHREAD_MUTEX_INITIALIZER; /* not recursive */

static void release_fn(void *cbdata)
{
    pthread_mutex_lock(&coll_lock); /* deadlocks if called inside fence_nb's callback */
    free(cbdata);
    pthread_mutex_unlock(&coll_lock);
}

static pmix_status_t connected(const pmix_proc_t *proc, void *server_object,
                               pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)proc;
    (void)server_object;
    (void)cbfunc;
    (void)cbdata;
    return PMIX_SUCCESS; /* and no callback */
}

static pmix_status_t finalized(const pmix_proc_t *proc, void *server_object,
                               pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)proc;
    (void)server_object;
    (void)cbfunc;
    (void)cbdata;
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    char *copy = NULL; /* data are the host's: kept as a copy, freed below */
    (void)procs;
    (void)nprocs;
    (void)info;
    (void)ninfo;
    if (ndata > 0 && NULL == (copy = malloc(ndata))) {
        free(data);
        return PMIX_ERR_NOMEM;
    }
    if (ndata > 0) {
        memcpy(copy, data, ndata);
    }
    free(data);
    /* one node: every contribution is here already */
    pthread_mutex_lock(&coll_lock);
    cbfunc(PMIX_SUCCESS, copy, ndata, cbdata, release_fn, copy);
    pthread_mutex_unlock(&coll_lock);
    return PMIX_SUCCESS;
}

static pmix_status_t abort_fn(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    (void)procs;
    (void)nprocs;
    (void)cbfunc;
    (void)cbdata;
    fprintf(stderr, "maphost: rank %u aborted with status %d: %s\n", proc->rank, status,
            NULL == msg ? "" : msg);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_server_module_t module = {.client_connected = connected,
                                      .client_finalized = finalized,
                                      .abort = abort_fn,
                                      .fence_nb = fence_nb};

static void op_done(pmix_status_t status, void *cbdata)
{
    (void)status;
    *(volatile int *)cbdata = 1;
}

static void wait_flag(volatile int *flag, const char *what)
{
    for (int i = 0; i < 10000 && !*flag; i++) {
        usleep(1000);
    }
    if (!*flag) {
        fprintf(stderr, "maphost: %s did not complete in 10 s\n", what);
        exit(1);
    }
}

/* A malloc'd copy of our environment, which PMIx_server_setup_fork extends. */
static char **env_copy(void)
{
    extern char **environ;
    size_t n = 0;
    char **env;
    while (NULL != environ[n]) {
        n++;
    }
    if (NULL == (env = calloc(n + 1, sizeof *env))) {
        exit(1);
    }
    for (size_t i = 0; i < n; i++) {
        if (NULL == (env[i] = strdup(environ[i]))) {
            exit(1);
        }
    }
    return env;
}

int main(int argc, char **argv)
{
    pmix_info_t job[7];
    pmix_nspace_t ns;
    char host[256], ranks[4096] = "", *regex = NULL, *ppn = NULL, **env;
    uint32_t n, zero = 0;
    pid_t pids[64];
    volatile int reg = 0, dereg = 0;
    int bad = 0;
    size_t off = 0;

    if (argc < 3 || 0 == (n = (uint32_t)strtoul(argv[1], NULL, 10)) || n > 64) {
        fprintf(stderr, "usage: e2e_maphost N(1..64) PROGRAM [ARGS...]\n");
        return 2;
    }
    if (0 != gethostname(host, sizeof host)) {
        return 2;
    }
    host[sizeof host - 1] = '\0';
    if (PMIX_SUCCESS != PMIx_server_init(&module, NULL, 0)) {
        fprintf(stderr, "maphost: PMIx_server_init failed\n");
        return 1;
    }
    for (uint32_t r = 0; r < n; r++) {
        off += (size_t)snprintf(ranks + off, sizeof ranks - off, r ? ",%u" : "%u", r);
    }
    if (PMIX_SUCCESS != PMIx_generate_regex(host, &regex) ||
        PMIX_SUCCESS != PMIx_generate_ppn(ranks, &ppn)) {
        fprintf(stderr, "maphost: PMIx_generate_regex/ppn failed\n");
        return 1;
    }
    /* what examples/server.c registers: job-level data only */
    PMIX_INFO_LOAD(&job[0], PMIX_UNIV_SIZE, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&job[1], PMIX_SPAWNED, &zero, PMIX_UINT32);
    PMIX_INFO_LOAD(&job[2], PMIX_LOCAL_SIZE, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&job[3], PMIX_LOCAL_PEERS, ranks, PMIX_STRING);
    PMIX_INFO_LOAD(&job[4], PMIX_NODE_MAP, regex, PMIX_STRING);
    PMIX_INFO_LOAD(&job[5], PMIX_PROC_MAP, ppn, PMIX_STRING);
    PMIX_INFO_LOAD(&job[6], PMIX_JOB_SIZE, &n, PMIX_UINT32);
    PMIX_LOAD_NSPACE(ns, NSPACE);
    if (PMIX_SUCCESS != PMIx_server_register_nspace(ns, (int)n, job, 7, op_done, (void *)&reg)) {
        fprintf(stderr, "maphost: PMIx_server_register_nspace failed\n");
        return 1;
    }
    wait_flag(&reg, "register_nspace");
    for (uint32_t r = 0; r < n; r++) {
        pmix_proc_t p;
        volatile int creg = 0;
        PMIX_LOAD_PROCID(&p, NSPACE, r);
        if (PMIX_SUCCESS !=
            PMIx_server_register_client(&p, getuid(), getgid(), NULL, op_done, (void *)&creg)) {
            fprintf(stderr, "maphost: PMIx_server_register_client failed\n");
            return 1;
        }
        wait_flag(&creg, "register_client");
        env = env_copy();
        if (PMIX_SUCCESS != PMIx_server_setup_fork(&p, &env)) {
            fprintf(stderr, "maphost: PMIx_server_setup_fork failed\n");
            return 1;
        }
        if (0 == (pids[r] = fork())) {
            execve(argv[2], argv + 2, env);
            perror(argv[2]);
            _exit(127);
        }
        for (char **e = env; NULL != *e; e++) {
            free(*e);
        }
        free(env);
    }
    for (uint32_t r = 0; r < n; r++) {
        int st;
        if (pids[r] < 0 || waitpid(pids[r], &st, 0) < 0 || !WIFEXITED(st) || 0 != WEXITSTATUS(st)) {
            fprintf(stderr, "maphost: rank %u failed\n", r);
            bad = 1;
        }
    }
    PMIx_server_deregister_nspace(ns, op_done, (void *)&dereg);
    wait_flag(&dereg, "deregister_nspace");
    for (int i = 0; i < 7; i++) {
        PMIX_INFO_DESTRUCT(&job[i]);
    }
    free(regex);
    free(ppn);
    PMIx_server_finalize();
    return bad;
}
