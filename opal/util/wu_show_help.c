/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_show_help.c -- lookup in the compiled-in help catalog, rendering of framed messages, and
 * aggregation of repeated file+topic pairs (a table of what was printed, with repeat counts). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* vasprintf, program_invocation_short_name */
#endif
#include "opal/util/wu_show_help.h"
#include "opal/util/wu_error.h"
#include "opal/util/wu_fork_lock.h"
#include "opal/util/wu_output.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define DASHES "--------------------------------------------------------------------------\n"
/* Distinct file+topic pairs remembered for aggregation; beyond that, messages are just printed
 * (relayed messages could otherwise grow the table without bound). */
#define MAX_SEEN 1024

typedef struct {
    char *file, *topic;
    unsigned long repeats; /* suppressed since the last flush */
} seen_t;

WU_FORK_SAFE_MUTEX(lock)
static int aggregate = -1; /* -1: not decided yet, read the environment on first use */
static int out_fd = -1;    /* -1: stderr */
static seen_t *seen;
static size_t nseen, capseen;

static const char *program_name(void)
{
    const char *p = program_invocation_short_name;
    return (NULL != p && '\0' != p[0]) ? p : "wireup";
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return NULL == slash ? path : slash + 1;
}

const char *wu_help_lookup(const char *file, const char *topic)
{
    if (NULL == file || NULL == topic) {
        return NULL;
    }
    file = base_name(file);
    for (const wu_help_entry_t *e = wu_help_catalog; NULL != e->file; e++) {
        if (0 == strcmp(e->file, file) && 0 == strcmp(e->topic, topic)) {
            return e->text;
        }
    }
    return NULL;
}

/* Frame body (which may lack its final newline) with dashes, after the optional header. */
static char *frame(const char *body, bool want_error_header)
{
    char host[256] = "unknown host", *header = NULL, *out = NULL;
    size_t blen = strlen(body);
    const char *nl = (blen > 0 && '\n' == body[blen - 1]) ? "" : "\n";
    int rc;

    if (want_error_header) {
        if (0 != gethostname(host, sizeof host)) {
            strcpy(host, "unknown host");
        }
        host[sizeof host - 1] = '\0';
        if (asprintf(&header, "Error in %s (PID %ld) on host %s:\n", program_name(), (long)getpid(),
                     host) < 0) {
            return NULL;
        }
    }
    rc = asprintf(&out, "%s%s%s%s%s", DASHES, NULL == header ? "" : header, body, nl, DASHES);
    free(header);
    return rc < 0 ? NULL : out;
}

char *wu_show_help_vstring(const char *file, const char *topic, bool want_error_header, va_list ap)
{
    const char *text = wu_help_lookup(file, topic);
    char *body = NULL, *out;
    int rc;

    if (NULL == text) {
        rc = asprintf(&body,
                      "Wireup was asked to show the help message [%s] of help file\n"
                      "\"%s\", but the compiled-in help catalog has no such message.\n"
                      "\n"
                      "This is a bug in Wireup: the message was never added to the catalog,\n"
                      "or its help file is not listed in WU_HELP_FILES. Please report it,\n"
                      "together with the command that led here.\n",
                      NULL == topic ? "(null)" : topic, NULL == file ? "(null)" : base_name(file));
    } else {
        /* The catalog texts are the formats: this is what the catalog is for. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        rc = vasprintf(&body, text, ap);
#pragma GCC diagnostic pop
    }
    if (rc < 0) {
        return NULL;
    }
    out = frame(body, want_error_header);
    free(body);
    return out;
}

char *wu_show_help_string(const char *file, const char *topic, bool want_error_header, ...)
{
    va_list ap;
    char *out;
    va_start(ap, want_error_header);
    out = wu_show_help_vstring(file, topic, want_error_header, ap);
    va_end(ap);
    return out;
}

/* Caller holds the lock. */
static bool aggregating(void)
{
    if (aggregate < 0) {
        const char *v = getenv("PMIX_MCA_base_help_aggregate");
        aggregate = !(NULL != v && (0 == strcmp(v, "0") || 0 == strcasecmp(v, "false") ||
                                    0 == strcasecmp(v, "no") || 0 == strcasecmp(v, "off")));
    }
    return aggregate > 0;
}

/* Caller holds the lock. True if file+topic was printed before (and counts the repeat);
 * otherwise remembers it, if it can. */
static bool is_repeat(const char *file, const char *topic)
{
    seen_t *grown;

    for (size_t i = 0; i < nseen; i++) {
        if (0 == strcmp(seen[i].file, file) && 0 == strcmp(seen[i].topic, topic)) {
            seen[i].repeats++;
            return true;
        }
    }
    if (nseen >= MAX_SEEN) {
        return false;
    }
    if (nseen == capseen) {
        size_t cap = 0 == capseen ? 16 : 2 * capseen;
        if (NULL == (grown = realloc(seen, cap * sizeof *seen))) {
            return false;
        }
        seen = grown;
        capseen = cap;
    }
    seen[nseen].file = strdup(file);
    seen[nseen].topic = strdup(topic);
    seen[nseen].repeats = 0;
    if (NULL == seen[nseen].file || NULL == seen[nseen].topic) {
        free(seen[nseen].file);
        free(seen[nseen].topic);
        return false;
    }
    nseen++;
    return false;
}

/* Print msg unless it repeats file+topic under aggregation. */
static int print_aggregated(const char *file, const char *topic, const char *msg)
{
    int rc = WU_SUCCESS;

    lock_take();
    if (!aggregating() || !is_repeat(file, topic)) {
        rc = wu_output_write_all(out_fd < 0 ? STDERR_FILENO : out_fd, msg, strlen(msg));
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int wu_show_help(const char *file, const char *topic, bool want_error_header, ...)
{
    va_list ap;
    char *msg;
    int rc;

    va_start(ap, want_error_header);
    msg = wu_show_help_vstring(file, topic, want_error_header, ap);
    va_end(ap);
    if (NULL == msg) {
        return WU_ERR_NOMEM;
    }
    rc = print_aggregated(NULL == file ? "(null)" : base_name(file),
                          NULL == topic ? "(null)" : topic, msg);
    free(msg);
    if (WU_SUCCESS == rc && (NULL == file || NULL == topic)) {
        rc = WU_ERR_BAD_PARAM;
    }
    return rc;
}

int wu_show_help_norender(const char *file, const char *topic, const char *rendered_text)
{
    size_t len;
    char *msg;
    int rc;

    if (NULL == file || NULL == topic || NULL == rendered_text) {
        return WU_ERR_BAD_PARAM;
    }
    len = strlen(rendered_text);
    if (len > 0 && '\n' == rendered_text[len - 1]) {
        return print_aggregated(base_name(file), topic, rendered_text);
    }
    if (NULL == (msg = malloc(len + 2))) {
        return WU_ERR_NOMEM;
    }
    memcpy(msg, rendered_text, len);
    msg[len] = '\n';
    msg[len + 1] = '\0';
    rc = print_aggregated(base_name(file), topic, msg);
    free(msg);
    return rc;
}

/* Caller holds the lock. */
static void flush_locked(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bool any = false;

    if (NULL == f) {
        return;
    }
    for (size_t i = 0; i < nseen; i++) {
        if (0 == seen[i].repeats) {
            continue;
        }
        fprintf(f, "%s: help message %s / %s was reported %lu more %s, not shown\n", program_name(),
                seen[i].file, seen[i].topic, seen[i].repeats,
                1 == seen[i].repeats ? "time" : "times");
        seen[i].repeats = 0;
        any = true;
    }
    if (any) {
        fprintf(f,
                "%s: to see every repeat, set the MCA parameter base_help_aggregate=0 "
                "(environment: PMIX_MCA_base_help_aggregate=0)\n",
                program_name());
    }
    if (0 == fclose(f) && any) {
        (void)wu_output_write_all(out_fd < 0 ? STDERR_FILENO : out_fd, buf, len);
    }
    free(buf);
}

void wu_show_help_flush(void)
{
    lock_take();
    flush_locked();
    pthread_mutex_unlock(&lock);
}

void wu_show_help_set_aggregate(bool on)
{
    lock_take();
    if (!on) {
        flush_locked();
        for (size_t i = 0; i < nseen; i++) {
            free(seen[i].file);
            free(seen[i].topic);
        }
        free(seen);
        seen = NULL;
        nseen = capseen = 0;
    }
    aggregate = on ? 1 : 0;
    pthread_mutex_unlock(&lock);
}

void wu_show_help_set_fd(int fd)
{
    lock_take();
    out_fd = fd < 0 ? -1 : fd;
    pthread_mutex_unlock(&lock);
}
