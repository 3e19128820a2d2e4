/* SPDX-License-Identifier: BSD-3-Clause */
/* plog_stdfd.c -- plog component writing log messages to the process's stdout or stderr. */
#include "mca/plog/plog.h"
#include "opal/util/wu_argv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool with_source = true;
static bool with_time = false;

static int stdfd_log(const wu_plog_entry_t *e)
{
    int fd = 0 == strcmp(e->channel, "stdout") ? STDOUT_FILENO : STDERR_FILENO;
    char stamp[64] = "", *line = NULL;
    size_t mlen = strlen(e->message);
    const char *nl = (mlen > 0 && '\n' == e->message[mlen - 1]) ? "" : "\n";
    int rc;

    if (with_time) {
        struct tm tm;
        time_t t = e->timestamp ? e->timestamp : time(NULL);
        localtime_r(&t, &tm);
        strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S ", &tm);
    }
    /* one write per message so concurrent writers do not interleave within a line */
    if (WU_SUCCESS != wu_asprintf(&line, "%s%s%s%s%s%s", stamp,
                                  (with_source && e->source) ? "[" : "",
                                  (with_source && e->source) ? e->source : "",
                                  (with_source && e->source) ? "] " : "", e->message, nl)) {
        return WU_ERR_NOMEM;
    }
    rc = wu_plog_base_write_fd(fd, line, strlen(line));
    free(line);
    return rc;
}

static const wu_plog_module_t stdfd_module = {
    .channels = (const char *const[]){"stdout", "stderr", NULL},
    .log = stdfd_log,
};

static const wu_mca_param_t stdfd_params[] = {
    WU_PARAM_BOOL("with_source", &with_source, WU_INFO_LVL_4,
                  "Prefix each message with the process that logged it, as [nspace:rank]"),
    WU_PARAM_BOOL("with_time", &with_time, WU_INFO_LVL_4,
                  "Prefix each message with the local date and time it was logged"),
    WU_PARAM_END};

WU_MCA_COMPONENT(plog, stdfd, .priority = 10, .params = stdfd_params,
                 .description = "Writes log messages to stdout or stderr", .module = &stdfd_module);
