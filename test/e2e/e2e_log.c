/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_log.c -- every rank sends the same help message the way Open MPI 4.1's show_help does
 * before its runtime is up: PMIx_Log_nb with PMIX_LOG_MSG, a byte object of (u32 1, string)
 * fields -- help file, topic, a one-byte flag, the rendered text -- and waits for the callback.
 * test/e2e/log.sh checks that wrun prints the text once and counts the others.
 * With the argument "channels", each rank logs a line to PMIX_LOG_STDERR and to PMIX_LOG_SYSLOG
 * (both must succeed), and asks for a channel nobody has (PMIX_ERR_NOT_SUPPORTED); log.sh checks
 * where the lines went. With "flood DIR", each rank writes its pid to DIR/pid.RANK and then logs
 * 200-byte lines to PMIX_LOG_STDOUT until it is killed (iof.sh: wrun's log writes must not
 * block it when its stdout reader stops). Public PMIx API only. */
#include "e2e_util.h"

#include <arpa/inet.h>
#include <stdint.h>

static size_t put_u32(unsigned char *p, uint32_t v)
{
    v = htonl(v);
    memcpy(p, &v, 4);
    return 4;
}

static size_t put_str(unsigned char *p, const char *s)
{
    size_t n = put_u32(p, 1);
    uint32_t len = (uint32_t)strlen(s) + 1;
    n += put_u32(p + n, len);
    memcpy(p + n, s, len);
    return n + len;
}

static volatile int done = 0;
static volatile pmix_status_t done_rc = PMIX_ERROR;

static void cb(pmix_status_t status, void *cbdata)
{
    (void)cbdata;
    done_rc = status;
    done = 1;
}

static int channels(void)
{
    char line[128];
    pmix_info_t info;

    snprintf(line, sizeof line, "e2e-stderr-marker rank %u", e2e_me.rank);
    PMIX_INFO_LOAD(&info, PMIX_LOG_STDERR, line, PMIX_STRING);
    E2E_RC(PMIx_Log(&info, 1, NULL, 0), "PMIx_Log(PMIX_LOG_STDERR)");
    PMIX_INFO_DESTRUCT(&info);
    snprintf(line, sizeof line, "e2e-syslog-marker rank %u", e2e_me.rank);
    PMIX_INFO_LOAD(&info, PMIX_LOG_SYSLOG, line, PMIX_STRING);
    E2E_RC(PMIx_Log(&info, 1, NULL, 0), "PMIx_Log(PMIX_LOG_SYSLOG)");
    PMIX_INFO_DESTRUCT(&info);
    PMIX_INFO_LOAD(&info, "e2e.carrier.pigeon", "nobody carries this", PMIX_STRING);
    E2E_RC_IS(PMIx_Log(&info, 1, NULL, 0), PMIX_ERR_NOT_SUPPORTED, "PMIx_Log(unknown channel)");
    PMIX_INFO_DESTRUCT(&info);
    printf("e2e_log rank %u: channels ok\n", e2e_me.rank);
    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    return 0;
}

static int flood(const char *dir)
{
    char line[256], path[4096];
    pmix_info_t info;
    FILE *f;

    snprintf(path, sizeof path, "%s/pid.%u", dir, e2e_me.rank);
    E2E_CHECK(NULL != (f = fopen(path, "w")), "cannot write %s", path);
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
    for (unsigned long n = 0;; n++) {
        snprintf(line, sizeof line, "e2e-flood rank %u line %09lu %0160d", e2e_me.rank, n, 0);
        PMIX_INFO_LOAD(&info, PMIX_LOG_STDOUT, line, PMIX_STRING);
        pmix_status_t rc = PMIx_Log(&info, 1, NULL, 0);
        PMIX_INFO_DESTRUCT(&info);
        if (PMIX_SUCCESS != rc) {
            return 1; /* the server went away: the job is ending */
        }
    }
}

int main(int argc, char **argv)
{
    unsigned char buf[512];
    size_t n = 0;
    pmix_info_t info;
    pmix_byte_object_t bo;

    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    if (argc > 1 && 0 == strcmp(argv[1], "channels")) {
        return channels();
    }
    if (argc > 2 && 0 == strcmp(argv[1], "flood")) {
        return flood(argv[2]);
    }
    n += put_str(buf + n, "help-e2e-test.txt");
    n += put_str(buf + n, "no-such-thing");
    n += put_u32(buf + n, 1);
    buf[n++] = 1; /* have_output */
    n += put_str(buf + n, "e2e: the thing you asked for does not exist.\n");
    bo.bytes = (char *)buf;
    bo.size = n;
    PMIX_INFO_LOAD(&info, PMIX_LOG_MSG, &bo, PMIX_BYTE_OBJECT);
    E2E_RC(PMIx_Log_nb(&info, 1, NULL, 0, cb, NULL), "PMIx_Log_nb");
    for (int i = 0; i < 10000 && !done; i++) {
        usleep(1000);
    }
    E2E_CHECK(done, "the PMIx_Log_nb callback never came");
    E2E_RC(done_rc, "PMIx_Log_nb callback status");
    /* bo points at buf: only the info's own copy is freed */
    PMIX_INFO_DESTRUCT(&info);
    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence");
    E2E_RC(PMIx_Finalize(NULL, 0), "PMIx_Finalize");
    return 0;
}
