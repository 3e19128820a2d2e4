/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_log.c -- the host's log upcall: what the job's processes send through PMIx_Log reaches
 * the user through the launcher's plog modules (its stdout and stderr, the syslog, ...), each
 * message prefixed with its sender. An Open MPI help message (PMIX_LOG_MSG) is logged the first
 * time it comes; when more ranks send the same one (same help file and topic), only a count is
 * kept and the end of the job says "N more processes sent help message FILE / TOPIC", as mpirun
 * does, so that a failure of every rank gives one readable explanation instead of N copies.
 *
 * Called on the server's thread; the summary on the launcher's main thread after the job: one
 * mutex guards the table.
 *
 * What plog writes to the launcher's own stdout and stderr does not block the thread that logs
 * (a reader that stops reading would stall the server): the launcher's fd writer copies the
 * text to the rte thread, which queues it behind the job's output (wu_rte_iof.c). */
#include "mca/plog/base/plog_base.h"
#include "opal/class/wu_list.h"
#include "pmix/common/wu_ompi_help.h"
#include "pmix/rte/svc/wu_rte_svc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    wu_list_item_t super;
    char *file, *topic;
    unsigned more; /* senders after the first */
} seen_t;

static void seen_destruct(seen_t *s)
{
    free(s->file);
    free(s->topic);
}

static WU_CLASS_INSTANCE(seen_t, wu_list_item_t, NULL, seen_destruct);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static wu_list_t *seen; /* newest first; made with the first message */

/* First time this file/topic is sent? (Else count it.) Out of memory: print it anyway. */
static bool first_time(const char *file, const char *topic)
{
    seen_t *s;
    bool first = true;
    pthread_mutex_lock(&lock);
    if (NULL == seen) {
        seen = WU_NEW(wu_list_t);
    }
    if (NULL != seen) {
        WU_LIST_FOREACH(s, seen, seen_t)
        {
            if (0 == strcmp(s->file, file) && 0 == strcmp(s->topic, topic)) {
                s->more++;
                first = false;
                break;
            }
        }
    }
    if (first && NULL != seen && NULL != (s = WU_NEW(seen_t))) {
        s->file = strdup(file);
        s->topic = strdup(topic);
        if (NULL == s->file || NULL == s->topic) {
            WU_RELEASE(s);
        } else {
            wu_list_prepend(seen, &s->super);
        }
    }
    pthread_mutex_unlock(&lock);
    return first;
}

/* The plog renderer of help messages: the text the first time, nothing (counted) afterwards. */
static int render_once(const pmix_info_t *item, const char **text, void *ctx)
{
    const char *str[4];
    int rc = wu_ompi_help_render(item, text, ctx);
    /* file, topic, text: the launcher's aggregation applies */
    if (WU_SUCCESS == rc && wu_ompi_help_item(item, str, 4) >= 3 && !first_time(str[0], str[1])) {
        *text = NULL;
    }
    return rc;
}

void wu_rte_log_upcall(const pmix_proc_t *client, const pmix_info_t data[], size_t ndata,
                       const pmix_info_t directives[], size_t ndirs, pmix_op_cbfunc_t cbfunc,
                       void *cbdata)
{
    pmix_status_t rc =
        wu_plog_base_log_request(client, data, ndata, directives, ndirs, render_once, NULL);
    if (NULL != cbfunc) {
        cbfunc(rc, cbdata);
    }
}

typedef struct {
    int fd;
    size_t len;
    char text[];
} logline_t;

static void logline_in_rte(void *arg)
{
    logline_t *l = arg;
    wu_rte_write_text(l->fd, l->text, l->len);
    free(l);
}

/* plog's fd writer in the launcher (any thread). */
static bool queue_line(int fd, const char *text, size_t len)
{
    wu_progress_t *pt = wu_rte_progress();
    logline_t *l;
    if ((STDOUT_FILENO != fd && STDERR_FILENO != fd) || NULL == pt) {
        return false;
    }
    if (wu_progress_in_thread(pt)) {
        return wu_rte_iof_message(fd, text, len);
    }
    if (NULL == (l = malloc(sizeof *l + len))) {
        return false;
    }
    l->fd = fd;
    l->len = len;
    memcpy(l->text, text, len);
    if (WU_SUCCESS != wu_progress_shift(pt, logline_in_rte, l)) {
        free(l);
        return false;
    }
    return true;
}

void wu_rte_log_start(void)
{
    wu_plog_base_set_fd_writer(queue_line);
}

void wu_rte_log_stop(void)
{
    wu_plog_base_set_fd_writer(NULL);
}

static void wu_rte_log_summary(void)
{
    seen_t *s;
    pthread_mutex_lock(&lock);
    while (NULL != seen && NULL != (s = (seen_t *)wu_list_remove_first(seen))) {
        if (s->more > 0) {
            wu_rte_say("help-aggregated", wu_rte_tool, s->more, 1 == s->more ? "" : "es", s->file,
                       s->topic);
        }
        WU_RELEASE(s);
    }
    if (NULL != seen) {
        WU_RELEASE(seen);
    }
    pthread_mutex_unlock(&lock);
}

static void observe_output_done(rte_job_t *job)
{
    if (!job->child) {
        wu_rte_log_summary(); /* after the launcher's job's output */
    }
}

int wu_rte_log_attach(void)
{
    static const rte_job_observer_t observer = {.job_output_done = observe_output_done};
    return wu_rte_job_observe(&observer);
}
