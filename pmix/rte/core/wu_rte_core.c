/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_core.c -- the runtime's bottom layer: this process's identity, the rte progress
 * thread, messages to stderr (through the sink of the layer that queues the job's output), and
 * where this launcher's libpmix.so.2 is. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include "pmix/rte/core/wu_rte_core.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"
#include "pmix.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *wu_rte_tool = "wrun";
char wu_rte_hostname[256] = "localhost";
bool wu_rte_daemon_mode = false;

static wu_progress_t *progress = NULL;
static wu_rte_text_sink_fn text_sink = NULL;

void wu_rte_core_identify(const char *tool)
{
    wu_rte_tool = NULL != tool ? tool : "wrun";
    if (0 != gethostname(wu_rte_hostname, sizeof wu_rte_hostname - 1)) {
        snprintf(wu_rte_hostname, sizeof wu_rte_hostname, "localhost");
    }
    wu_rte_hostname[sizeof wu_rte_hostname - 1] = '\0';
}

int wu_rte_core_start(void)
{
    if (NULL == (progress = wu_progress_start("wu-rte"))) {
        return WU_ERR_SILENT;
    }
    return WU_SUCCESS;
}

void wu_rte_core_stop(void)
{
    if (NULL != progress) {
        wu_progress_stop(progress);
        progress = NULL;
    }
}

wu_progress_t *wu_rte_progress(void)
{
    return progress;
}

void wu_rte_core_set_text_sink(wu_rte_text_sink_fn sink)
{
    text_sink = sink;
}

void wu_rte_write_text(int fd, const char *text, size_t len)
{
    size_t off = 0;
    if (NULL != text_sink && wu_progress_in_thread(progress) && text_sink(fd, text, len)) {
        return;
    }
    while (off < len) {
        ssize_t n = write(fd, text + off, len - off);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        off += (size_t)n;
    }
}

void wu_rte_say(const char *topic, ...)
{
    const char *fmt = wu_help_lookup("help-wu-rte.txt", topic);
    char *line = NULL;
    va_list ap;
    if (NULL == fmt) {
        return;
    }
    va_start(ap, topic);
    if (WU_SUCCESS == wu_vasprintf(&line, fmt, ap)) {
        wu_rte_write_text(STDERR_FILENO, line, strlen(line));
    }
    va_end(ap);
    free(line);
}

/* --- where libpmix.so.2 is ------------------------------------------------------------------ */

/* Does dir hold libpmix.so.2? Then keep a copy of it in *found. */
static bool has_lib(const char *dir, char **found)
{
    char *path = NULL;
    bool ok = WU_SUCCESS == wu_asprintf(&path, "%s/libpmix.so.2", dir) && 0 == access(path, R_OK);
    free(path);
    if (ok) {
        *found = realpath(dir, NULL);
    }
    return ok && NULL != *found;
}

const char *wu_rte_libdir(void)
{
    static char *libdir = NULL;
    static bool looked = false;
    char exe[4096], *slash, *cand = NULL;
    ssize_t n;
    if (looked) {
        return libdir;
    }
    looked = true;
    {
        /* the library this process runs on: the launcher links it (dynamically, or it is a
         * test program with the code linked in, and then the object found is the program) */
        Dl_info dli;
        char *dir;
        if (0 != dladdr((void *)PMIx_Get_version, &dli) && NULL != dli.dli_fname &&
            NULL != (dir = strdup(dli.dli_fname))) {
            char *sl = strrchr(dir, '/');
            if (NULL != sl) {
                *sl = '\0';
            }
            bool ok = NULL != sl && has_lib(dir, &libdir);
            free(dir);
            if (ok) {
                return libdir;
            }
        }
    }
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        if (NULL != (slash = strrchr(exe, '/'))) {
            *slash = '\0';
        }
        if (WU_SUCCESS == wu_asprintf(&cand, "%s/.libs", exe) && has_lib(cand, &libdir)) {
            free(cand);
            return libdir;
        }
        free(cand);
        cand = NULL;
        if (WU_SUCCESS == wu_asprintf(&cand, "%s/../lib", exe) && has_lib(cand, &libdir)) {
            free(cand);
            return libdir;
        }
        free(cand);
    }
    (void)has_lib(WU_LIBDIR, &libdir);
    return libdir;
}
