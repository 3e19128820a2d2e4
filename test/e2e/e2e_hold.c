/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_hold.c -- `wrun -n N e2e_hold DIR`: a rank that names its server before it connects, for
 * the tests that attack the server's socket from outside the job (test/e2e/hostile.sh,
 * fd_limit.sh). Writes DIR/wrun.pid (its parent, wrun) and then DIR/uri.<rank> (its
 * WU_PMIX_SERVER_URI), waits (at most 100 s) for the file DIR/go, then does PMIx_Init,
 * Fence and Finalize, prints "hold rank R: init S s" (the seconds PMIx_Init took) and
 * "hold rank R: ok". */
#include "e2e_util.h"

#include <stdbool.h>
#include <sys/stat.h>

/* Write text to path through a temporary file (of this process: ranks may write the same name),
 * so a reader never sees it half written. */
static void put_file(const char *dir, const char *name, const char *text)
{
    char tmp[4096], path[4096];
    FILE *f;
    snprintf(tmp, sizeof tmp, "%s/.%s.%ld.tmp", dir, name, (long)getpid());
    snprintf(path, sizeof path, "%s/%s", dir, name);
    E2E_CHECK(NULL != (f = fopen(tmp, "w")), "cannot write %s", tmp);
    E2E_CHECK(fprintf(f, "%s\n", text) >= 0 && 0 == fclose(f), "cannot write %s", tmp);
    E2E_CHECK(0 == rename(tmp, path), "cannot rename %s", tmp);
}

int main(int argc, char **argv)
{
    const char *uri = getenv("WU_PMIX_SERVER_URI"), *rank = getenv("PMIX_RANK");
    char name[64], text[64], go[4096];
    struct stat st;
    pmix_proc_t all;
    struct timespec t0, t1;

    E2E_CHECK(2 == argc, "usage: e2e_hold DIR");
    E2E_CHECK(NULL != uri && NULL != rank, "not started by wrun (no server URI or rank)");
    snprintf(text, sizeof text, "%ld", (long)getppid());
    put_file(argv[1], "wrun.pid", text);
    snprintf(name, sizeof name, "uri.%s", rank);
    put_file(argv[1], name, uri);
    e2e_watchdog_secs = 100;
    e2e_step("wait for go");
    snprintf(go, sizeof go, "%s/go", argv[1]);
    while (0 != stat(go, &st)) {
        usleep(50 * 1000);
    }
    e2e_watchdog_secs = 60;
    e2e_step("init");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    e2e_step("fence");
    PMIX_LOAD_PROCID(&all, e2e_me.nspace, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Fence(&all, 1, NULL, 0), "PMIx_Fence");
    e2e_step("finalize");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    printf("hold rank %u: init %.3f s\n", e2e_me.rank,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    printf("hold rank %u: ok\n", e2e_me.rank);
    return 0;
}
