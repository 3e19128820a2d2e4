/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_output.c -- output streams: a fixed table of stream slots under one mutex, and a formatter
 * that builds each message (prefix on every line, final newline) into one buffer for one write. */
#include "opal/util/wu_output.h"
#include "opal/util/wu_fork_lock.h"
#include "opal/util/wu_error.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

typedef struct {
    bool used;
    int verbosity;
    int fd;       /* -1: stderr, looked up at each write so a dup2() onto 2 is honoured */
    char *prefix; /* NULL: none */
} stream_t;

WU_FORK_SAFE_MUTEX(lock)
static int refcount;
static stream_t streams[WU_OUTPUT_MAX_STREAMS] = {
    [0] = {.used = true, .verbosity = WU_VERB_ERROR, .fd = -1, .prefix = NULL},
};

static const struct {
    const char *name;
    int level;
} level_names[] = {
    /* ascending order: wu_output_verbosity_name() depends on it */
    {"none", WU_VERB_NONE},   {"error", WU_VERB_ERROR}, {"component", WU_VERB_COMPONENT},
    {"warn", WU_VERB_WARN},   {"info", WU_VERB_INFO},   {"trace", WU_VERB_TRACE},
    {"debug", WU_VERB_DEBUG}, {"max", WU_VERB_MAX},
};

/* Caller holds the lock. */
static stream_t *get_stream(int id)
{
    if (id < 0 || id >= WU_OUTPUT_MAX_STREAMS || !streams[id].used) {
        return NULL;
    }
    return &streams[id];
}

static void reset_stream(stream_t *s, bool used)
{
    free(s->prefix);
    s->prefix = NULL;
    s->used = used;
    s->verbosity = WU_VERB_ERROR;
    s->fd = -1;
}

int wu_output_init(void)
{
    lock_take();
    refcount++;
    pthread_mutex_unlock(&lock);
    return WU_SUCCESS;
}

void wu_output_finalize(void)
{
    lock_take();
    if (refcount > 0 && 0 == --refcount) {
        for (int i = 1; i < WU_OUTPUT_MAX_STREAMS; i++) {
            reset_stream(&streams[i], false);
        }
        reset_stream(&streams[0], true);
    }
    pthread_mutex_unlock(&lock);
}

int wu_output_open(const char *prefix)
{
    char *copy = NULL;
    int id = WU_ERR_OUT_OF_RESOURCE;

    if (NULL != prefix && '\0' != prefix[0] && NULL == (copy = strdup(prefix))) {
        return WU_ERR_NOMEM;
    }
    lock_take();
    for (int i = 1; i < WU_OUTPUT_MAX_STREAMS; i++) {
        if (!streams[i].used) {
            reset_stream(&streams[i], true);
            streams[i].prefix = copy;
            copy = NULL;
            id = i;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    free(copy); /* only when no slot was free */
    return id;
}

void wu_output_close(int stream)
{
    if (0 == stream) {
        return;
    }
    lock_take();
    stream_t *s = get_stream(stream);
    if (NULL != s) {
        reset_stream(s, false);
    }
    pthread_mutex_unlock(&lock);
}

void wu_output_set_verbosity(int stream, int level)
{
    if (level < WU_VERB_NONE) {
        level = WU_VERB_NONE;
    } else if (level > WU_VERB_MAX) {
        level = WU_VERB_MAX;
    }
    lock_take();
    stream_t *s = get_stream(stream);
    if (NULL != s) {
        s->verbosity = level;
    }
    pthread_mutex_unlock(&lock);
}

int wu_output_get_verbosity(int stream)
{
    int v = WU_VERB_NONE;
    lock_take();
    stream_t *s = get_stream(stream);
    if (NULL != s) {
        v = s->verbosity;
    }
    pthread_mutex_unlock(&lock);
    return v;
}

bool wu_output_check(int level, int stream)
{
    return level >= 0 && level <= wu_output_get_verbosity(stream);
}

int wu_output_set_fd(int stream, int fd)
{
    int rc = WU_ERR_BAD_PARAM;
    if (fd < -1) {
        return rc;
    }
    lock_take();
    stream_t *s = get_stream(stream);
    if (NULL != s) {
        s->fd = fd;
        rc = WU_SUCCESS;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int wu_output_write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) { /* 0 cannot happen for len > 0; never spin on it */
            if (0 == n) {
                errno = EIO;
            }
            return WU_ERR_SYS;
        }
        buf += n;
        len -= (size_t)n;
    }
    return WU_SUCCESS;
}

/* Copy text to out putting prefix (plen bytes) before every line and a newline at the end if text
 * lacks one; returns the number of bytes written. With out == NULL only counts. */
static size_t compose(char *out, const char *prefix, size_t plen, const char *text, size_t tlen)
{
    size_t n = 0;
    bool at_line_start = true;

    for (size_t i = 0; i < tlen; i++) {
        if (at_line_start && plen > 0) {
            if (NULL != out) {
                memcpy(out + n, prefix, plen);
            }
            n += plen;
        }
        if (NULL != out) {
            out[n] = text[i];
        }
        n++;
        at_line_start = ('\n' == text[i]);
    }
    if (0 == tlen || '\n' != text[tlen - 1]) {
        if (0 == tlen && plen > 0) { /* an empty message still shows its prefix */
            if (NULL != out) {
                memcpy(out + n, prefix, plen);
            }
            n += plen;
        }
        if (NULL != out) {
            out[n] = '\n';
        }
        n++;
    }
    return n;
}

/* Format and emit one message; level < 0 means "always" (wu_output). */
static void emit(int level, int stream, const char *fmt, va_list ap)
{
    char small[512], *text = small, *msg = NULL;
    int fd, tlen;
    size_t plen, mlen;
    va_list ap2;

    if (NULL == fmt) {
        return;
    }
    lock_take();
    stream_t *s = get_stream(stream);
    if (NULL == s || (level >= 0 && (s->verbosity < 0 || level > s->verbosity))) {
        pthread_mutex_unlock(&lock);
        return;
    }
    /* Format under the lock: the prefix cannot be freed meanwhile, and the write order of
     * one process's messages follows their call order. */
    va_copy(ap2, ap);
    tlen = vsnprintf(small, sizeof small, fmt, ap);
    if (tlen < 0) {
        va_end(ap2);
        pthread_mutex_unlock(&lock);
        return;
    }
    if ((size_t)tlen >= sizeof small) {
        text = malloc((size_t)tlen + 1);
        if (NULL == text) {
            text = small; /* out of memory: print what fits, truncated */
            tlen = (int)sizeof small - 1;
        } else {
            vsnprintf(text, (size_t)tlen + 1, fmt, ap2);
        }
    }
    va_end(ap2);

    plen = NULL == s->prefix ? 0 : strlen(s->prefix);
    mlen = compose(NULL, s->prefix, plen, text, (size_t)tlen);
    msg = malloc(mlen);
    fd = s->fd < 0 ? STDERR_FILENO : s->fd;
    if (NULL != msg) {
        compose(msg, s->prefix, plen, text, (size_t)tlen);
        (void)wu_output_write_all(fd, msg, mlen);
    } else { /* out of memory: the text alone, still in one piece */
        (void)wu_output_write_all(fd, text, (size_t)tlen);
    }
    pthread_mutex_unlock(&lock);
    free(msg);
    if (text != small) {
        free(text);
    }
}

void wu_output(int stream, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(-1, stream, fmt, ap);
    va_end(ap);
}

void wu_output_verbose(int level, int stream, const char *fmt, ...)
{
    va_list ap;
    if (level < 0) {
        return;
    }
    va_start(ap, fmt);
    emit(level, stream, fmt, ap);
    va_end(ap);
}

void wu_output_vverbose(int level, int stream, const char *fmt, va_list ap)
{
    if (level >= 0) {
        emit(level, stream, fmt, ap);
    }
}

int wu_output_verbosity_parse(const char *s, int *level)
{
    const char *end;
    size_t len;

    if (NULL == s || NULL == level) {
        return WU_ERR_BAD_PARAM;
    }
    while (isspace((unsigned char)*s)) {
        s++;
    }
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1])) {
        end--;
    }
    len = (size_t)(end - s);
    if (0 == len) {
        return WU_ERR_BAD_PARAM;
    }
    if (isdigit((unsigned char)s[0])) {
        int v = 0;
        for (const char *p = s; p < end; p++) {
            if (!isdigit((unsigned char)*p)) {
                return WU_ERR_BAD_PARAM;
            }
            v = v * 10 + (*p - '0');
            if (v > WU_VERB_MAX) {
                return WU_ERR_BAD_PARAM;
            }
        }
        *level = v;
        return WU_SUCCESS;
    }
    if (7 == len && 0 == strncasecmp(s, "warning", len)) {
        *level = WU_VERB_WARN;
        return WU_SUCCESS;
    }
    for (size_t i = 0; i < WU_NELEMS(level_names); i++) {
        if (strlen(level_names[i].name) == len && 0 == strncasecmp(s, level_names[i].name, len)) {
            *level = level_names[i].level;
            return WU_SUCCESS;
        }
    }
    return WU_ERR_BAD_PARAM;
}

const char *wu_output_verbosity_name(int level)
{
    const char *name = level_names[0].name;
    for (size_t i = 0; i < WU_NELEMS(level_names); i++) {
        if (level_names[i].level <= level) {
            name = level_names[i].name;
        }
    }
    return name;
}
