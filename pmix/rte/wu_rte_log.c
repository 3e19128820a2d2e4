/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_log.c -- the host's log upcall: what the job's processes send through PMIx_Log reaches
 * the user. An Open MPI help message (PMIX_LOG_MSG) is printed on stderr the first time it
 * comes; when more ranks send the same one (same help file and topic), only a count is kept and
 * the end of the job says "N more processes sent help message FILE / TOPIC", as mpirun does, so
 * that a failure of every rank gives one readable explanation instead of N copies. Plain
 * stdout/stderr messages are written as they come, prefixed with their sender.
 *
 * Called on the server's thread; the summary on the launcher's main thread after the job: one
 * mutex guards the table. */
#include "opal/util/wu_argv.h"
#include "pmix/common/wu_ompi_help.h"
#include "pmix/rte/wu_rte_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct seen {
    struct seen *next;
    char *file, *topic;
    unsigned more; /* senders after the first */
} seen_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static seen_t *seen;

static void write_all(int fd, const char *s)
{
    size_t len = strlen(s);
    while (len > 0) {
        ssize_t n = write(fd, s, len);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            return;
        }
        s += n;
        len -= (size_t)n;
    }
}

/* First time this file/topic is sent? (Else count it.) Out of memory: print it anyway. */
static bool first_time(const char *file, const char *topic)
{
    seen_t *s;
    bool first = true;
    pthread_mutex_lock(&lock);
    for (s = seen; NULL != s; s = s->next) {
        if (0 == strcmp(s->file, file) && 0 == strcmp(s->topic, topic)) {
            s->more++;
            first = false;
            break;
        }
    }
    if (first && NULL != (s = calloc(1, sizeof *s))) {
        s->file = strdup(file);
        s->topic = strdup(topic);
        if (NULL == s->file || NULL == s->topic) {
            free(s->file);
            free(s->topic);
            free(s);
        } else {
            s->next = seen;
            seen = s;
        }
    }
    pthread_mutex_unlock(&lock);
    return first;
}

static void print_help_msg(const pmix_byte_object_t *bo)
{
    const char *str[4];
    size_t n = wu_ompi_help_strings(bo, str, 4);
    const char *text;
    if (0 == n) {
        return;
    }
    text = str[n - 1];
    /* file, topic, text: the launcher's aggregation applies */
    if (n >= 3 && !first_time(str[0], str[1])) {
        return;
    }
    write_all(STDERR_FILENO, text);
    if ('\0' != text[0] && '\n' != text[strlen(text) - 1]) {
        write_all(STDERR_FILENO, "\n");
    }
}

void wu_rte_log_upcall(const pmix_proc_t *client, const pmix_info_t data[], size_t ndata,
                       const pmix_info_t directives[], size_t ndirs, pmix_op_cbfunc_t cbfunc,
                       void *cbdata)
{
    (void)directives;
    (void)ndirs;
    for (size_t i = 0; i < ndata; i++) {
        const pmix_info_t *d = &data[i];
        char *line = NULL;
        if (PMIX_CHECK_KEY(d, PMIX_LOG_MSG) && PMIX_BYTE_OBJECT == d->value.type) {
            print_help_msg(&d->value.data.bo);
        } else if (PMIX_STRING == d->value.type && NULL != d->value.data.string &&
                   (PMIX_CHECK_KEY(d, PMIX_LOG_STDERR) || PMIX_CHECK_KEY(d, PMIX_LOG_STDOUT)) &&
                   WU_SUCCESS == wu_asprintf(&line, "[%s:%u] %s\n", client->nspace,
                                             (unsigned)client->rank, d->value.data.string)) {
            write_all(PMIX_CHECK_KEY(d, PMIX_LOG_STDOUT) ? STDOUT_FILENO : STDERR_FILENO, line);
            free(line);
        }
    }
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
}

void wu_rte_log_summary(void)
{
    seen_t *s, *next;
    pthread_mutex_lock(&lock);
    for (s = seen; NULL != s; s = next) {
        next = s->next;
        if (s->more > 0) {
            wu_rte_say("help-aggregated", wu_rte_tool, s->more, 1 == s->more ? "" : "es", s->file,
                       s->topic);
        }
        free(s->file);
        free(s->topic);
        free(s);
    }
    seen = NULL;
    pthread_mutex_unlock(&lock);
}
