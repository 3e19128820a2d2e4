/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_chatty.c -- a process that writes many lines to its stdout, for test/e2e/iof.sh (wrun's
 * output forwarding when the reader is slow, stopped or gone). Not a PMIx client.
 *
 * Usage: e2e_chatty DIR COUNT
 * Writes its pid to DIR/pid.<rank> (PMIX_RANK), then COUNT lines (0: without end) of exactly
 * 100 bytes, "R:<rank> N:<7-digit line number> " and x's, through a stdio buffer of an odd
 * size, so that lines reach the pipe cut at arbitrary places. A write error ends it (exit 1);
 * a broken pipe kills it with SIGPIPE, as any program in a pipeline. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    static char obuf[8191];
    const char *rank = getenv("PMIX_RANK");
    unsigned long count;
    char path[4096], line[128], pad[101];
    FILE *f;

    if (3 != argc) {
        fprintf(stderr, "usage: e2e_chatty DIR COUNT\n");
        return 2;
    }
    if (NULL == rank) {
        rank = "0";
    }
    count = strtoul(argv[2], NULL, 10);
    snprintf(path, sizeof path, "%s/pid.%s", argv[1], rank);
    if (NULL == (f = fopen(path, "w")) || fprintf(f, "%ld\n", (long)getpid()) < 0 ||
        0 != fclose(f)) {
        perror(path);
        return 1;
    }
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    memset(pad, 'x', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    for (unsigned long n = 1; 0 == count || n <= count; n++) {
        int len = snprintf(line, sizeof line, "R:%s N:%07lu ", rank, n % 10000000);
        if (len < 0 || len > 99 || printf("%s%.*s\n", line, 99 - len, pad) < 0) {
            return 1;
        }
    }
    return 0 == fflush(stdout) ? 0 : 1;
}
