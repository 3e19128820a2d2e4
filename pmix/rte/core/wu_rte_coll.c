/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_coll.c -- the runtime's collective engine (wu_rte_coll.h): sets of open collections in
 * the order they were opened, their slots, contributions and timeouts. */
#include "pmix/rte/core/wu_rte_coll.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_error.h"

#include <stdlib.h>
#include <string.h>

static void coll_construct(wu_rte_coll_t *c)
{
    c->set = NULL;
    c->kind = 0;
    c->key = NULL;
    c->keylen = 0;
    c->nslots = c->nexpect = c->nfrom = 0;
    c->expect = c->from = NULL;
    c->sealed = false;
    c->data = NULL;
    c->ndata = 0;
    c->timeout = 0;
    c->timer = NULL;
}

static void coll_destruct(wu_rte_coll_t *c)
{
    (void)wu_progress_timer_cancel(c->timer);
    free(c->key);
    free(c->expect);
    free(c->from);
    free(c->data);
}

WU_CLASS_INSTANCE(wu_rte_coll_t, wu_list_item_t, coll_construct, coll_destruct);

int wu_rte_colls_init(wu_rte_colls_t *s, wu_progress_t *pt, wu_rte_coll_expired_fn expired)
{
    s->open = WU_NEW(wu_list_t);
    s->pt = pt;
    s->expired = expired;
    return NULL != s->open ? WU_SUCCESS : WU_ERR_NOMEM;
}

void wu_rte_colls_fini(wu_rte_colls_t *s)
{
    wu_rte_coll_t *c;
    while (NULL != s->open && NULL != (c = wu_rte_colls_first(s))) {
        wu_rte_coll_close(c);
    }
    if (NULL != s->open) {
        WU_RELEASE(s->open);
    }
}

wu_rte_coll_t *wu_rte_colls_first(const wu_rte_colls_t *s)
{
    return NULL != s->open ? (wu_rte_coll_t *)wu_list_first(s->open) : NULL;
}

wu_rte_coll_t *wu_rte_colls_next(const wu_rte_colls_t *s, const wu_rte_coll_t *c)
{
    return (wu_rte_coll_t *)wu_list_next(s->open, &c->super);
}

bool wu_rte_coll_is(const wu_rte_coll_t *c, int kind, const char *key, size_t keylen)
{
    return c->kind == kind && c->keylen == keylen && 0 == memcmp(c->key, key, keylen);
}

wu_rte_coll_t *wu_rte_coll_match(const wu_rte_colls_t *s, int kind, const char *key, size_t keylen,
                                 uint32_t slot)
{
    for (wu_rte_coll_t *c = wu_rte_colls_first(s); NULL != c; c = wu_rte_colls_next(s, c)) {
        if (!c->sealed && wu_rte_coll_is(c, kind, key, keylen) &&
            (slot >= c->nslots || !c->from[slot])) {
            return c;
        }
    }
    return NULL;
}

int wu_rte_coll_open(wu_rte_colls_t *s, wu_rte_coll_t *c, int kind, const char *key, size_t keylen,
                     uint32_t nslots)
{
    size_t n = nslots > 0 ? nslots : 1;
    if (NULL == s->open) {
        WU_RELEASE(c);
        return WU_ERR_NOMEM;
    }
    c->kind = kind;
    c->nslots = nslots;
    if (NULL == (c->expect = calloc(n, sizeof *c->expect)) ||
        NULL == (c->from = calloc(n, sizeof *c->from)) ||
        NULL == (c->key = malloc(keylen > 0 ? keylen : 1))) {
        WU_RELEASE(c);
        return WU_ERR_NOMEM;
    }
    if (keylen > 0) {
        memcpy(c->key, key, keylen);
    }
    c->keylen = keylen;
    c->set = s;
    wu_list_append(s->open, &c->super);
    return WU_SUCCESS;
}

void wu_rte_coll_expect(wu_rte_coll_t *c, uint32_t slot)
{
    if (slot < c->nslots && !c->expect[slot]) {
        c->expect[slot] = true;
        c->nexpect++;
    }
}

bool wu_rte_coll_waits_for(const wu_rte_coll_t *c, uint32_t slot)
{
    return slot < c->nslots && c->expect[slot] && !c->from[slot];
}

int wu_rte_coll_add(wu_rte_coll_t *c, uint32_t slot, const char *data, size_t ndata)
{
    if (!wu_rte_coll_waits_for(c, slot)) {
        return WU_ERR_BAD_PARAM;
    }
    if (ndata > 0) {
        char *more = realloc(c->data, c->ndata + ndata);
        if (NULL == more) {
            return WU_ERR_NOMEM;
        }
        memcpy(more + c->ndata, data, ndata);
        c->data = more;
        c->ndata += ndata;
    }
    c->from[slot] = true;
    c->nfrom++;
    return WU_SUCCESS;
}

bool wu_rte_coll_complete(const wu_rte_coll_t *c)
{
    return c->nfrom >= c->nexpect;
}

static void expired(void *arg)
{
    wu_rte_coll_t *c = arg;
    c->set->expired(c);
}

void wu_rte_coll_arm(wu_rte_coll_t *c, int seconds)
{
    if (seconds > 0 && NULL == c->timer && NULL != c->set && NULL != c->set->pt &&
        NULL != c->set->expired) {
        c->timeout = seconds;
        c->timer = wu_progress_timer(c->set->pt, (double)seconds, expired, c);
    }
}

char *wu_rte_coll_missing(const wu_rte_coll_t *c, char *(*name)(uint32_t slot, void *arg),
                          void *arg, char sep)
{
    char **items = NULL, *s;
    for (uint32_t k = 0; k < c->nslots; k++) {
        if (wu_rte_coll_waits_for(c, k) && NULL != (s = name(k, arg))) {
            (void)wu_argv_append(&items, s);
            free(s);
        }
    }
    s = NULL != items ? wu_argv_join(items, sep) : NULL;
    wu_argv_free(items);
    return s;
}

void wu_rte_coll_close(wu_rte_coll_t *c)
{
    if (NULL == c) {
        return;
    }
    if (NULL != c->set) {
        wu_list_remove(c->set->open, &c->super);
        c->set = NULL;
    }
    WU_RELEASE(c);
}
