/* SPDX-License-Identifier: BSD-3-Clause */
/* replay.c -- runs a fuzz target's seed corpus as a regression test in make check, with the
 * normal compiler and without libFuzzer: every file of test/fuzz/corpus/<FUZZ_CORPUS>/ (or of
 * the files and directories given as arguments) goes once through LLVMFuzzerTestOneInput, the
 * same entry point libFuzzer drives. A target that aborts, crashes or spends more than
 * INPUT_LIMIT seconds on one input (a hang) fails the test; under the sanitizer build so does any
 * memory error. TAP output, one line per input. */
#include "test/fuzz/fuzz.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INPUT_LIMIT 120 /* seconds; a hang is killed by SIGALRM */

static int nrun;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    long n;

    if (NULL == f || 0 != fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
        0 != fseek(f, 0, SEEK_SET) || NULL == (data = malloc(n > 0 ? (size_t)n : 1)) ||
        (size_t)n != fread(data, 1, (size_t)n, f)) {
        printf("not ok %d - %s: cannot read it\n", ++nrun, path);
        free(data);
        if (NULL != f) {
            fclose(f);
        }
        return;
    }
    fclose(f);
    printf("# %s\n", path);
    fflush(stdout); /* a crash below must not lose the lines before it */
    alarm(INPUT_LIMIT);
    LLVMFuzzerTestOneInput(data, (size_t)n);
    alarm(0);
    free(data);
    printf("ok %d - %s\n", ++nrun, path);
}

/* the regular files of dir, in name order; 0 if dir is not a directory */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0;

    if (NULL == d) {
        return 0;
    }
    while (NULL != (e = readdir(d))) {
        char **nn;
        if ('.' == e->d_name[0] || NULL == (nn = realloc(names, (n + 1) * sizeof *names))) {
            continue;
        }
        names = nn;
        if (NULL != (names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2))) {
            sprintf(names[n++], "%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return 1;
}

int main(int argc, char **argv)
{
    const char *src = getenv("WU_TEST_SRCDIR");
    char dir[4096];

    if (argc < 2) {
        snprintf(dir, sizeof dir, "%s/test/fuzz/corpus/%s", NULL != src ? src : WU_TEST_SRCDIR,
                 FUZZ_CORPUS);
        if (!run_dir(dir)) {
            printf("Bail out! no corpus at %s\n", dir);
            return 1;
        }
    }
    for (int i = 1; i < argc; i++) {
        if (!run_dir(argv[i])) {
            run_file(argv[i]);
        }
    }
    printf("1..%d\n", nrun);
    return 0;
}
