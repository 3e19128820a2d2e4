/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_regex.c -- encode and decode Wireup's node maps and proc maps (format in wu_regex.h). */
#include "pmix/common/wu_regex.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANKS    (1u << 24)
#define MAX_NUMWIDTH 18

/* A growing string. */
typedef struct {
    char *s;
    size_t len, cap;
    bool nomem;
} sbuf_t;

static void sb_add(sbuf_t *b, const char *s, size_t n)
{
    if (b->nomem) {
        return;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = 2 * (b->len + n + 1) + 16;
        char *p = realloc(b->s, cap);
        if (NULL == p) {
            b->nomem = true;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void sb_str(sbuf_t *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

static pmix_status_t sb_done(sbuf_t *b, char **out)
{
    if (b->nomem) {
        free(b->s);
        return PMIX_ERR_NOMEM;
    }
    if (NULL == b->s) {
        sb_add(b, "", 0);
        if (b->nomem) {
            return PMIX_ERR_NOMEM;
        }
    }
    *out = b->s;
    return PMIX_SUCCESS;
}

/* Split a name into prefix length and trailing number; false if it has no trailing digits or
 * too many. */
static bool split_num(const char *name, size_t *plen, size_t *width, unsigned long long *num)
{
    size_t len = strlen(name), i = len;
    while (i > 0 && isdigit((unsigned char)name[i - 1])) {
        i--;
    }
    if (i == len || len - i > MAX_NUMWIDTH) {
        return false;
    }
    *plen = i;
    *width = len - i;
    *num = strtoull(name + i, NULL, 10);
    return true;
}

pmix_status_t wu_regex_nodes_encode(const char *list, char **out)
{
    char **names;
    sbuf_t b = {0};
    int n;

    if (NULL == list || NULL == out || NULL != strpbrk(list, "[]")) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (names = wu_argv_split(list, ','))) {
        return PMIX_ERR_NOMEM;
    }
    n = wu_argv_count(names);
    sb_str(&b, WU_REGEX_TAG);
    for (int i = 0; i < n;) {
        size_t plen, width, plen2, width2;
        unsigned long long first, num;
        int j = i + 1;
        char tmp[96];
        if (i > 0) {
            sb_str(&b, ",");
        }
        if (split_num(names[i], &plen, &width, &first)) {
            /* extend the run while the prefix and width match and the numbers count up */
            while (j < n && split_num(names[j], &plen2, &width2, &num) && plen2 == plen &&
                   width2 == width && 0 == strncmp(names[i], names[j], plen) &&
                   num == first + (unsigned long long)(j - i)) {
                j++;
            }
        }
        if (j - i >= 2) {
            sb_add(&b, names[i], plen);
            snprintf(tmp, sizeof tmp, "[%zu:%llu-%llu]", width, first,
                     first + (unsigned long long)(j - i - 1));
            sb_str(&b, tmp);
        } else {
            sb_str(&b, names[i]);
        }
        i = j;
    }
    wu_argv_free(names);
    return sb_done(&b, out);
}

/* Parse a decimal rank below PMIX_RANK_VALID at *p (advanced). */
static bool parse_rank(const char **p, unsigned long *out)
{
    char *end;
    if (!isdigit((unsigned char)**p)) {
        return false;
    }
    errno = 0;
    *out = strtoul(*p, &end, 10);
    if (0 != errno || *out >= PMIX_RANK_VALID) {
        return false;
    }
    *p = end;
    return true;
}

pmix_status_t wu_regex_ranks_expand(const char *list, pmix_rank_t **ranks, size_t *n)
{
    pmix_rank_t *r = NULL;
    size_t cnt = 0, cap = 0;
    const char *p = list;

    if (NULL == list || NULL == ranks || NULL == n) {
        return PMIX_ERR_BAD_PARAM;
    }
    *ranks = NULL;
    *n = 0;
    while ('\0' != *p) {
        unsigned long a, b;
        if (!parse_rank(&p, &a)) {
            goto bad;
        }
        b = a;
        if ('-' == *p) {
            p++;
            if (!parse_rank(&p, &b) || b < a) {
                goto bad;
            }
        }
        if ('\0' != *p && ',' != *p) {
            goto bad;
        }
        if (',' == *p && '\0' == p[1]) {
            goto bad;
        }
        if (b - a + 1 > MAX_RANKS - cnt) {
            goto bad;
        }
        if (cnt + (b - a + 1) > cap) {
            size_t ncap = 2 * (cnt + (b - a + 1));
            pmix_rank_t *nr = realloc(r, ncap * sizeof *r);
            if (NULL == nr) {
                free(r);
                return PMIX_ERR_NOMEM;
            }
            r = nr;
            cap = ncap;
        }
        for (unsigned long v = a; v <= b; v++) {
            r[cnt++] = (pmix_rank_t)v;
        }
        if (',' == *p) {
            p++;
        }
    }
    *ranks = r;
    *n = cnt;
    return PMIX_SUCCESS;
bad:
    free(r);
    return PMIX_ERR_BAD_PARAM;
}

/* Append ranks r[0..n) as ranges ("0-3,8") to b. */
static void ranks_compress(sbuf_t *b, const pmix_rank_t *r, size_t n)
{
    char tmp[48];
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && r[j] == r[j - 1] + 1) {
            j++;
        }
        if (j - i >= 2) {
            snprintf(tmp, sizeof tmp, "%s%u-%u", i > 0 ? "," : "", r[i], r[j - 1]);
        } else {
            snprintf(tmp, sizeof tmp, "%s%u", i > 0 ? "," : "", r[i]);
        }
        sb_str(b, tmp);
        i = j;
    }
}

pmix_status_t wu_regex_ranks_compress(const pmix_rank_t *ranks, size_t n, char **out)
{
    sbuf_t b = {0};
    if (NULL == out || (NULL == ranks && n > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    ranks_compress(&b, ranks, n);
    return sb_done(&b, out);
}

pmix_status_t wu_regex_ppn_encode(const char *list, char **out)
{
    char **nodes;
    sbuf_t b = {0};
    pmix_status_t rc = PMIX_SUCCESS;

    if (NULL == list || NULL == out) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (nodes = wu_argv_split_with_empty(list, ';'))) {
        return PMIX_ERR_NOMEM;
    }
    sb_str(&b, WU_REGEX_TAG);
    for (int i = 0; NULL != nodes[i]; i++) {
        pmix_rank_t *r;
        size_t n;
        if (PMIX_SUCCESS != (rc = wu_regex_ranks_expand(nodes[i], &r, &n))) {
            break;
        }
        if (i > 0) {
            sb_str(&b, ";");
        }
        ranks_compress(&b, r, n);
        free(r);
    }
    wu_argv_free(nodes);
    if (PMIX_SUCCESS != rc) {
        free(b.s);
        return rc;
    }
    return sb_done(&b, out);
}

static const char *untag(const char *map)
{
    return 0 == strncmp(map, WU_REGEX_TAG, strlen(WU_REGEX_TAG)) ? map + strlen(WU_REGEX_TAG) : map;
}

/* Expand one node-map item, plain or "prefix[w:a-b]", appending to *nodes. */
static pmix_status_t expand_node(const char *item, char ***nodes)
{
    const char *lb = strchr(item, '['), *p;
    unsigned long width, a, b;
    char *end;

    if (NULL == lb) {
        if (NULL != strchr(item, ']')) {
            return PMIX_ERR_BAD_PARAM;
        }
        return WU_SUCCESS == wu_argv_append(nodes, item) ? PMIX_SUCCESS : PMIX_ERR_NOMEM;
    }
    p = lb + 1;
    errno = 0;
    width = strtoul(p, &end, 10);
    if (end == p || ':' != *end || 0 == width || width > MAX_NUMWIDTH) {
        return PMIX_ERR_BAD_PARAM;
    }
    p = end + 1;
    a = strtoul(p, &end, 10);
    if (end == p || '-' != *end) {
        return PMIX_ERR_BAD_PARAM;
    }
    p = end + 1;
    b = strtoul(p, &end, 10);
    if (end == p || ']' != end[0] || '\0' != end[1] || b < a || b - a >= MAX_RANKS || 0 != errno) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (unsigned long v = a; v <= b; v++) {
        char *name = NULL;
        int rc = wu_asprintf(&name, "%.*s%0*lu", (int)(lb - item), item, (int)width, v);
        if (WU_SUCCESS != rc || WU_SUCCESS != wu_argv_append(nodes, name)) {
            free(name);
            return PMIX_ERR_NOMEM;
        }
        free(name);
    }
    return PMIX_SUCCESS;
}

pmix_status_t wu_regex_nodes_decode(const char *map, char ***nodes)
{
    char **items, **res = NULL;
    pmix_status_t rc = PMIX_SUCCESS;

    if (NULL == map || NULL == nodes) {
        return PMIX_ERR_BAD_PARAM;
    }
    *nodes = NULL;
    if (NULL == (items = wu_argv_split(untag(map), ','))) {
        return PMIX_ERR_NOMEM;
    }
    for (int i = 0; NULL != items[i] && PMIX_SUCCESS == rc; i++) {
        rc = expand_node(items[i], &res);
    }
    wu_argv_free(items);
    if (PMIX_SUCCESS == rc && NULL == res && NULL == (res = calloc(1, sizeof *res))) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != rc) {
        wu_argv_free(res);
        return rc;
    }
    *nodes = res;
    return PMIX_SUCCESS;
}

pmix_status_t wu_regex_node_list(const char *map, char **list)
{
    char **nodes = NULL;
    pmix_status_t rc;
    if (NULL == list) {
        return PMIX_ERR_BAD_PARAM;
    }
    *list = NULL;
    if (PMIX_SUCCESS != (rc = wu_regex_nodes_decode(map, &nodes))) {
        return rc;
    }
    if (NULL != nodes[0] && NULL == (*list = wu_argv_join(nodes, ','))) {
        rc = PMIX_ERR_NOMEM;
    }
    wu_argv_free(nodes);
    return rc;
}

pmix_status_t wu_regex_ppn_decode(const char *map, char ***per_node)
{
    char **items, **res = NULL;
    pmix_status_t rc = PMIX_SUCCESS;

    if (NULL == map || NULL == per_node) {
        return PMIX_ERR_BAD_PARAM;
    }
    *per_node = NULL;
    if (NULL == (items = wu_argv_split_with_empty(untag(map), ';'))) {
        return PMIX_ERR_NOMEM;
    }
    for (int i = 0; NULL != items[i] && PMIX_SUCCESS == rc; i++) {
        pmix_rank_t *r = NULL;
        size_t n = 0;
        sbuf_t b = {0};
        char *s = NULL;
        if (PMIX_SUCCESS != (rc = wu_regex_ranks_expand(items[i], &r, &n))) {
            break;
        }
        for (size_t k = 0; k < n; k++) {
            char t[16];
            snprintf(t, sizeof t, "%s%u", 0 == k ? "" : ",", r[k]);
            sb_str(&b, t);
        }
        free(r);
        if (PMIX_SUCCESS == (rc = sb_done(&b, &s)) && WU_SUCCESS != wu_argv_append(&res, s)) {
            rc = PMIX_ERR_NOMEM;
        }
        free(s);
    }
    wu_argv_free(items);
    if (PMIX_SUCCESS == rc && NULL == res && NULL == (res = calloc(1, sizeof *res))) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != rc) {
        wu_argv_free(res);
        return rc;
    }
    *per_node = res;
    return PMIX_SUCCESS;
}
