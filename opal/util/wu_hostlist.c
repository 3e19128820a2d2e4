/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_hostlist.c -- expanding compact node lists ("node[1-3,7]") and count lists ("4(x3),2");
 * the notations are described in wu_hostlist.h. */
#include "opal/util/wu_hostlist.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 255 /* longer than any host name */
#define NUM_MAX_LEN  18  /* digits of one number in a group */

typedef struct {
    char **names;
    size_t n, cap, max;
    char **why;
} out_t;

/* rc, with *why "msg" or "msg: 'arg'". */
static int fail(char **why, int rc, const char *msg, const char *arg)
{
    if (NULL != why && NULL == *why) {
        if (NULL == arg) {
            *why = strdup(msg);
        } else {
            (void)wu_asprintf(why, "%s: '%s'", msg, arg);
        }
    }
    return rc;
}

static int emit(out_t *o, const char *name)
{
    if (o->n >= o->max) {
        char lim[32];
        snprintf(lim, sizeof lim, "%zu", o->max);
        return fail(o->why, WU_ERR_OUT_OF_RESOURCE, "more names than the limit", lim);
    }
    for (const char *p = name; '\0' != *p; p++) {
        if (!isalnum((unsigned char)*p) && '.' != *p && '-' != *p && '_' != *p) {
            return fail(o->why, WU_ERR_BAD_PARAM, "not a host name", name);
        }
    }
    if ('\0' == *name) {
        return fail(o->why, WU_ERR_BAD_PARAM, "an empty name", NULL);
    }
    if (o->n + 1 >= o->cap) {
        size_t cap = 0 == o->cap ? 16 : 2 * o->cap;
        char **more = realloc(o->names, cap * sizeof *more);
        if (NULL == more) {
            return WU_ERR_NOMEM;
        }
        o->names = more;
        o->cap = cap;
    }
    if (NULL == (o->names[o->n] = strdup(name))) {
        return WU_ERR_NOMEM;
    }
    o->names[++o->n] = NULL;
    return WU_SUCCESS;
}

/* A number of a group: digits only, at most NUM_MAX_LEN of them. */
static bool number(const char *s, size_t len, unsigned long long *v)
{
    if (0 == len || len > NUM_MAX_LEN) {
        return false;
    }
    *v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i])) {
            return false;
        }
        *v = *v * 10 + (unsigned long long)(s[i] - '0');
    }
    return true;
}

/* Every name of item[0..len) with the prefix buf[0..blen): text up to the next group, then one
 * name per number of the group, each followed by the rest of the item. */
static int expand_item(out_t *o, char *buf, size_t blen, const char *item, size_t len)
{
    const char *open = memchr(item, '[', len), *close, *el;
    size_t pre = NULL != open ? (size_t)(open - item) : len;
    int rc = WU_SUCCESS;

    if (blen + pre > NAME_MAX_LEN) {
        return fail(o->why, WU_ERR_BAD_PARAM, "a name longer than 255 characters", NULL);
    }
    memcpy(buf + blen, item, pre);
    blen += pre;
    if (NULL == open) {
        buf[blen] = '\0';
        return memchr(item, ']', len) ? fail(o->why, WU_ERR_BAD_PARAM, "a ']' without '['", NULL)
                                      : emit(o, buf);
    }
    close = memchr(open, ']', len - pre);
    if (NULL == close || close == open + 1) {
        return fail(o->why, WU_ERR_BAD_PARAM, "an unclosed or empty '['", NULL);
    }
    for (el = open + 1; el < close && WU_SUCCESS == rc;) {
        const char *comma = memchr(el, ',', (size_t)(close - el)), *dash;
        const char *eend = NULL != comma ? comma : close;
        unsigned long long lo, hi;
        size_t width;
        dash = memchr(el, '-', (size_t)(eend - el));
        width = (size_t)((NULL != dash ? dash : eend) - el);
        if (!number(el, width, &lo) ||
            (NULL != dash && !number(dash + 1, (size_t)(eend - dash - 1), &hi))) {
            return fail(o->why, WU_ERR_BAD_PARAM, "a bad number or range in '[...]'", NULL);
        }
        if (NULL == dash) {
            hi = lo;
        }
        if (hi < lo) {
            return fail(o->why, WU_ERR_BAD_PARAM, "a range that goes down in '[...]'", NULL);
        }
        for (unsigned long long v = lo; v <= hi && WU_SUCCESS == rc; v++) {
            int k = snprintf(buf + blen, NUM_MAX_LEN + 1, "%0*llu", (int)width, v);
            rc = expand_item(o, buf, blen + (size_t)k, close + 1, len - (size_t)(close + 1 - item));
        }
        el = NULL != comma ? comma + 1 : close;
        if (NULL != comma && comma + 1 == close) {
            return fail(o->why, WU_ERR_BAD_PARAM, "a ',' before ']'", NULL);
        }
    }
    return rc;
}

int wu_hostlist_expand(const char *expr, size_t max, char ***names, size_t *n, char **why)
{
    char buf[NAME_MAX_LEN + NUM_MAX_LEN + 2];
    out_t o = {.max = max, .why = why};
    const char *item;
    int rc = WU_SUCCESS, depth = 0;

    *names = NULL;
    *n = 0;
    if (NULL != why) {
        *why = NULL;
    }
    if (NULL == expr || '\0' == *expr) {
        return fail(why, WU_ERR_BAD_PARAM, "an empty list", NULL);
    }
    /* items end at the commas outside brackets */
    item = expr;
    for (const char *p = expr; WU_SUCCESS == rc; p++) {
        if ('[' == *p && 0 != depth++) {
            rc = fail(why, WU_ERR_BAD_PARAM, "a '[' inside '[...]'", NULL);
        } else if (']' == *p && 0 == depth--) {
            rc = fail(why, WU_ERR_BAD_PARAM, "a ']' without '['", NULL);
        } else if ((',' == *p && 0 == depth) || '\0' == *p) {
            rc = 0 != depth ? fail(why, WU_ERR_BAD_PARAM, "an unclosed '['", NULL)
                            : expand_item(&o, buf, 0, item, (size_t)(p - item));
            item = p + 1;
            if ('\0' == *p) {
                break;
            }
        }
    }
    if (WU_SUCCESS != rc) {
        wu_argv_free(o.names);
        return rc;
    }
    *names = o.names;
    *n = o.n;
    return WU_SUCCESS;
}

int wu_hostlist_counts(const char *expr, size_t max, uint32_t vmax, uint32_t **counts, size_t *n,
                       char **why)
{
    uint32_t *v = NULL;
    size_t k = 0, cap = 0;
    const char *p = expr;

    *counts = NULL;
    *n = 0;
    if (NULL != why) {
        *why = NULL;
    }
    if (NULL == p || '\0' == *p) {
        return fail(why, WU_ERR_BAD_PARAM, "an empty list", NULL);
    }
    while (true) {
        unsigned long val, rep = 1;
        char *end;
        if (!isdigit((unsigned char)*p)) {
            break;
        }
        errno = 0;
        val = strtoul(p, &end, 10);
        if (0 != errno || 0 == val || val > vmax) {
            break;
        }
        p = end;
        if (0 == strncmp(p, "(x", 2)) {
            if (!isdigit((unsigned char)p[2])) {
                break;
            }
            rep = strtoul(p + 2, &end, 10);
            if (0 != errno || 0 == rep || ')' != *end) {
                break;
            }
            p = end + 1;
        }
        if (rep > max - k) {
            free(v);
            return fail(why, WU_ERR_OUT_OF_RESOURCE, "more values than the limit", NULL);
        }
        if (k + rep > cap) {
            size_t ncap = k + rep > 2 * cap ? k + rep : 2 * cap;
            uint32_t *more = realloc(v, ncap * sizeof *more);
            if (NULL == more) {
                free(v);
                return WU_ERR_NOMEM;
            }
            v = more;
            cap = ncap;
        }
        while (rep-- > 0) {
            v[k++] = (uint32_t)val;
        }
        if ('\0' == *p) {
            *counts = v;
            *n = k;
            return WU_SUCCESS;
        }
        if (',' != *p++) {
            break;
        }
    }
    free(v);
    return fail(why, WU_ERR_BAD_PARAM, "not a list of counts such as 4(x3),2", expr);
}
