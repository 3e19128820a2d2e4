/* SPDX-License-Identifier: BSD-3-Clause */
/* plog_base_request.c -- a whole PMIx_Log request through the plog modules: the one table from
 * log keys to channels, the request's directives, and the status PMIx_Log reports (plog.h). */
#include "mca/plog/base/plog_base.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* Every data key PMIx_Log understands, and the channel it asks for. */
static const struct {
    const char *key, *channel;
} channels[] = {
    {PMIX_LOG_STDERR, "stderr"},        {PMIX_LOG_STDOUT, "stdout"},
    {PMIX_LOG_SYSLOG, "syslog"},        {PMIX_LOG_LOCAL_SYSLOG, "syslog"},
    {PMIX_LOG_GLOBAL_SYSLOG, "syslog"}, {PMIX_LOG_MSG, "stderr"}, /* Open MPI's help messages */
    {PMIX_LOG_EMAIL, "email"},
};

const char *wu_plog_base_channel(const char *key)
{
    for (size_t i = 0; NULL != key && i < sizeof channels / sizeof channels[0]; i++) {
        if (0 == strncmp(key, channels[i].key, PMIX_MAX_KEYLEN)) {
            return channels[i].channel;
        }
    }
    return NULL;
}

static const pmix_info_t *find(const pmix_info_t *info, size_t n, const char *key)
{
    for (size_t i = 0; NULL != info && i < n; i++) {
        if (PMIX_CHECK_KEY(&info[i], key)) {
            return &info[i];
        }
    }
    return NULL;
}

/* Log one data item; true if it was. */
static bool log_item(const pmix_info_t *d, wu_plog_entry_t e, wu_plog_render_fn_t render, void *ctx)
{
    int rc;
    if (NULL == (e.channel = wu_plog_base_channel(d->key))) {
        WU_MCA_VERBOSE(&wu_mca_plog_framework, WU_VERB_INFO, "plog:base: %s names no log channel",
                       d->key);
        return false;
    }
    if (PMIX_STRING == d->value.type) {
        e.message = d->value.data.string;
    } else if (NULL == render || WU_SUCCESS != render(d, &e.message, ctx)) {
        return false; /* not a message we can write */
    } else if (NULL == e.message) {
        return true; /* the renderer took care of it */
    } else {
        e.source = NULL; /* rendered text stands as it is */
    }
    if (NULL == e.message) {
        return false;
    }
    rc = wu_plog_base_log(&e);
    if (WU_SUCCESS != rc) {
        WU_MCA_VERBOSE(&wu_mca_plog_framework, WU_VERB_INFO,
                       "plog:base: %s (channel %s) not logged: %s", d->key, e.channel,
                       wu_strerror(rc));
    }
    return WU_SUCCESS == rc;
}

pmix_status_t wu_plog_base_log_request(const pmix_proc_t *source, const pmix_info_t data[],
                                       size_t ndata, const pmix_info_t dirs[], size_t ndirs,
                                       wu_plog_render_fn_t render, void *ctx)
{
    const pmix_info_t *src = find(dirs, ndirs, PMIX_LOG_SOURCE);
    const pmix_info_t *pri = find(dirs, ndirs, PMIX_LOG_SYSLOG_PRI);
    const pmix_info_t *ts = find(dirs, ndirs, PMIX_LOG_TIMESTAMP);
    const pmix_info_t *gen = find(dirs, ndirs, PMIX_LOG_GENERATE_TIMESTAMP);
    const pmix_info_t *once = find(dirs, ndirs, PMIX_LOG_ONCE);
    bool only_one = NULL != once && PMIX_INFO_TRUE(once);
    char who[PMIX_MAX_NSLEN + 16];
    wu_plog_entry_t e = {.severity = -1};
    size_t done = 0;

    if (NULL == data || 0 == ndata || (NULL == dirs && ndirs > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL != src && PMIX_PROC == src->value.type && NULL != src->value.data.proc) {
        source = src->value.data.proc;
    }
    if (NULL != source) {
        char ns[PMIX_MAX_NSLEN + 1];
        PMIX_LOAD_NSPACE(ns, source->nspace);
        snprintf(who, sizeof who, "%s:%u", ns, (unsigned)source->rank);
        e.source = who;
    }
    if (NULL != pri && PMIX_INT == pri->value.type) {
        e.severity = pri->value.data.integer;
    }
    if (NULL != ts && PMIX_TIME == ts->value.type) {
        e.timestamp = ts->value.data.time;
    } else if (NULL != gen && PMIX_INFO_TRUE(gen)) {
        e.timestamp = time(NULL);
    }
    for (size_t i = 0; i < ndata && !(only_one && done > 0); i++) {
        done += log_item(&data[i], e, render, ctx) ? 1 : 0;
    }
    if (0 == done) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    return only_one || done == ndata ? PMIX_SUCCESS : PMIX_ERR_PARTIAL_SUCCESS;
}
