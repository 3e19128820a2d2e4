/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_connect_xchg.c -- the connect service's exchange with other wrun instances: once
 * every server of this wrun has joined a collective whose participants include other wruns'
 * namespaces, this wrun writes a file to the rendezvous directory (wu_rte_rdv.h) with its
 * namespace, its job data and every node's contribution, and reads the other wruns' files of
 * the same collective until one speaks for each foreign namespace. Files are named by the
 * collective's kind, participant set and sequence number (the n-th collective of a set meets
 * the others' n-th) and by the writing wrun. Everything runs on the rte thread. */
#include "opal/class/wu_hash_table.h"
#include "opal/util/wu_argv.h"
#include "pmix/rte/svc/wu_rte_connect_int.h"
#include "pmix/rte/svc/wu_rte_rdv.h"
#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per participant set: how many collectives of it this wrun has run (the rendezvous files of
 * the n-th are the n-th of every wrun taking part). */
static wu_hash_table_t *seqnos; /* the hash of a set -> its count, made with the first */

static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ c[i]) * 1099511628211ull;
    }
    return h;
}

static uint32_t next_seq(uint64_t hash)
{
    void *n = NULL;
    uintptr_t seq;
    if (NULL == seqnos && NULL == (seqnos = WU_NEW(wu_hash_table_t))) {
        return 0;
    }
    (void)wu_hash_table_get_u64(seqnos, hash, &n);
    seq = (uintptr_t)n + 1;
    return WU_SUCCESS == wu_hash_table_set_u64(seqnos, hash, (void *)seq) ? (uint32_t)seq : 0;
}

static void theirs_destruct(theirs_t *t)
{
    for (size_t i = 0; NULL != t->ns && NULL != t->ns[i]; i++) {
        if (NULL != t->job[i]) {
            PMIX_INFO_FREE(t->job[i], t->njob[i]);
        }
    }
    wu_argv_free(t->ns);
    free(t->job);
    free(t->njob);
    for (size_t i = 0; i < t->nparts; i++) {
        free(t->host[i]);
        free(t->lblob[i]);
        free(t->rblob[i]);
    }
    free(t->host);
    free(t->lblob);
    free(t->rblob);
    free(t->nl);
    free(t->nr);
    free(t->name);
}

WU_CLASS_INSTANCE(theirs_t, wu_list_item_t, NULL, theirs_destruct);

/* Our file: the namespaces we speak for, their job data, every node's contribution. */
static pmix_status_t write_mine(cx_t *c)
{
    rte_job_t *job = wu_rte_job;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    char *ns[2] = {NULL, NULL};
    wu_dmsg_t m;
    pmix_status_t rc;
    if (NULL == job) {
        return PMIX_ERR_INIT;
    }
    ns[0] = job->nspace;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = wu_dmsg_put_argv(&m, ns);
    if (PMIX_SUCCESS == rc && K_CONNECT == c->super.kind) {
        rc = wu_rte_reg_portable_info(job, &info, &ninfo);
    }
    rc = PMIX_SUCCESS == rc ? wu_rte_cx_put_infos(&m, info, ninfo) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(&m, c->super.nfrom) : rc;
    for (uint32_t n = 0; n < c->super.nslots && PMIX_SUCCESS == rc; n++) {
        const part_t *p = &c->parts[n];
        if (c->super.from[n]) {
            rc = wu_dmsg_put_str(&m, p->host);
            rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, p->lblob, p->nl) : rc;
            rc = PMIX_SUCCESS == rc ? wu_dmsg_put_bytes(&m, p->rblob, p->nr) : rc;
        }
    }
    if (NULL != info) {
        PMIX_INFO_FREE(info, ninfo);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_rte_rdv_put(c->mine, m.base_ptr, m.bytes_used);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    return rc;
}

/* Read another wrun's file into a theirs_t. */
static theirs_t *read_theirs(const char *name, const char *p, size_t n)
{
    theirs_t *t = WU_NEW(theirs_t);
    pmix_byte_object_t bo = {.bytes = (char *)p, .size = n};
    uint32_t np = 0;
    size_t nns;
    wu_dmsg_t m;
    pmix_status_t rc = NULL == t ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    rc = PMIX_SUCCESS == rc ? PMIx_Data_embed(&m, &bo) : rc;
    rc = PMIX_SUCCESS == rc && NULL == (t->name = strdup(name)) ? PMIX_ERR_NOMEM : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_argv(&m, &t->ns) : rc;
    if (PMIX_SUCCESS == rc && (NULL == t->ns || NULL == t->ns[0])) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == rc) {
        nns = (size_t)wu_argv_count(t->ns);
        t->job = calloc(nns, sizeof *t->job);
        t->njob = calloc(nns, sizeof *t->njob);
        rc = NULL == t->job || NULL == t->njob ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
        /* the job data of its first namespace (one namespace per wrun so far) */
        rc = PMIX_SUCCESS == rc ? wu_rte_cx_get_infos(&m, &t->job[0], &t->njob[0]) : rc;
    }
    rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(&m, &np) : rc;
    if (PMIX_SUCCESS == rc && np > 65536) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == rc && 0 < np) {
        t->host = calloc(np, sizeof *t->host);
        t->lblob = calloc(np, sizeof *t->lblob);
        t->rblob = calloc(np, sizeof *t->rblob);
        t->nl = calloc(np, sizeof *t->nl);
        t->nr = calloc(np, sizeof *t->nr);
        rc = NULL == t->host || NULL == t->lblob || NULL == t->rblob || NULL == t->nl ||
                     NULL == t->nr
                 ? PMIX_ERR_NOMEM
                 : PMIX_SUCCESS;
    }
    for (uint32_t i = 0; i < np && PMIX_SUCCESS == rc; i++) {
        t->nparts = i + 1;
        rc = wu_dmsg_get_str(&m, &t->host[i]);
        rc = PMIX_SUCCESS == rc ? wu_dmsg_get_bytes(&m, &t->lblob[i], &t->nl[i]) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_get_bytes(&m, &t->rblob[i], &t->nr[i]) : rc;
    }
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    if (PMIX_SUCCESS != rc && NULL != t) {
        WU_RELEASE(t);
        return NULL;
    }
    return t;
}

static bool scan_one(const char *name, const char *p, size_t n, void *arg)
{
    cx_t *c = arg;
    theirs_t *t;
    WU_LIST_FOREACH(t, &c->theirs, theirs_t)
    {
        if (0 == strcmp(t->name, name)) {
            return true; /* read already */
        }
    }
    if (NULL != (t = read_theirs(name, p, n))) {
        wu_list_prepend(&c->theirs, &t->super);
    }
    return true;
}

/* Do the files read so far speak for every foreign namespace of c? */
static bool covered(const cx_t *c)
{
    for (size_t i = 0; NULL != c->foreign[i]; i++) {
        bool found = false;
        const theirs_t *t;
        WU_LIST_FOREACH(t, &c->theirs, theirs_t)
        {
            for (size_t k = 0; NULL != t->ns[k] && !found; k++) {
                found = PMIX_CHECK_NSPACE(t->ns[k], c->foreign[i]);
            }
        }
        if (!found) {
            return false;
        }
    }
    return true;
}

static void exchange_try(cx_t *c)
{
    wu_rte_rdv_scan(c->prefix, scan_one, c);
    if (covered(c)) {
        wu_rte_cx_finish(c, PMIX_SUCCESS);
    }
}

static void watch_changed(void)
{
    wu_rte_colls_t *set = wu_rte_cx_colls();
    wu_rte_coll_t *c = NULL != set ? wu_rte_colls_first(set) : NULL;
    while (NULL != c) {
        wu_rte_coll_t *next = wu_rte_colls_next(set, c); /* c may finish */
        if (((cx_t *)c)->exchanging) {
            exchange_try((cx_t *)c);
        }
        c = next;
    }
}

void wu_rte_cx_exchange_start(cx_t *c)
{
    static const char letter[] = {'c', 'd', 'f', 'g', 'e'}; /* by kind */
    uint8_t kind = (uint8_t)c->super.kind;
    uint64_t h = fnv(c->super.key, c->super.keylen, 1469598103934665603ull);
    uint32_t seq;
    h = fnv(&kind, sizeof kind, h);
    seq = next_seq(h);
    snprintf(c->prefix, sizeof c->prefix, "x%c.%016llx.%u.", letter[kind], (unsigned long long)h,
             seq);
    snprintf(c->mine, sizeof c->mine, "%s%016llx", c->prefix,
             (unsigned long long)fnv(wu_rte_job->nspace, strlen(wu_rte_job->nspace),
                                     1469598103934665603ull));
    if (1 < seq) {
        /* the others have finished the collective before (this one needs them all) */
        char old[128];
        snprintf(old, sizeof old, "x%c.%016llx.%u.%016llx", letter[kind], (unsigned long long)h,
                 seq - 1,
                 (unsigned long long)fnv(wu_rte_job->nspace, strlen(wu_rte_job->nspace),
                                         1469598103934665603ull));
        wu_rte_rdv_remove(old);
    }
    if (PMIX_SUCCESS != write_mine(c)) {
        wu_rte_cx_finish(c, PMIX_ERR_NOT_SUPPORTED); /* no rendezvous: other wruns cannot be met */
        return;
    }
    c->exchanging = true;
    c->super.sealed = true; /* complete here: nothing joins it any more */
    wu_rte_rdv_watch(true, watch_changed);
    exchange_try(c);
}

uint64_t wu_rte_cx_exchange_ctxid(const cx_t *c)
{
    return (UINT64_C(1) << 63) | fnv(c->prefix, strlen(c->prefix), 1469598103934665603ull);
}

void wu_rte_cx_exchange_rewatch(void)
{
    wu_rte_colls_t *set = wu_rte_cx_colls();
    wu_rte_rdv_watch(false, watch_changed);
    for (wu_rte_coll_t *o = NULL != set ? wu_rte_colls_first(set) : NULL; NULL != o;
         o = wu_rte_colls_next(set, o)) {
        if (((cx_t *)o)->exchanging) {
            wu_rte_rdv_watch(true, watch_changed);
            break;
        }
    }
}

void wu_rte_cx_exchange_forget(void)
{
    if (NULL != seqnos) {
        WU_RELEASE(seqnos);
    }
}
