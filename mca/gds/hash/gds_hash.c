/* SPDX-License-Identifier: BSD-3-Clause */
/* gds_hash.c -- gds component keeping every namespace's data in wu_hash_tables in process memory.
 *
 * A store maps namespace name -> job. A job holds a table rank -> key table (the key table of
 * PMIX_RANK_WILDCARD is the job-level data), an array of nodes (in first-registration order, each
 * with optional hostname and node id and its own key table) and a table appnum -> key table. A
 * key table maps key -> malloc'd pmix_value_t owned by the table. */
#include "mca/gds/gds.h"
#include "opal/class/wu_hash_table.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_show_help.h"

#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gds_node {
    char *hostname; /* NULL if only the id is known */
    uint32_t nodeid;
    bool has_id;
    wu_hash_table_t *kv;
} gds_node_t;

typedef struct gds_job {
    wu_hash_table_t *ranks; /* u64 rank -> key table */
    wu_hash_table_t *apps;  /* u64 appnum -> key table */
    gds_node_t **nodes;
    size_t nnodes, nodes_cap;
    uint64_t seq; /* creation order in the store, for job_nspaces */
    char name[PMIX_MAX_NSLEN + 1];
} gds_job_t;

struct wu_gds_store {
    wu_hash_table_t *jobs; /* nspace -> gds_job_t */
    uint64_t next_seq;
};

/* ---- key tables -------------------------------------------------------------------------- */

static void kv_free(wu_hash_table_t *kv)
{
    void *it = NULL, *v;
    if (NULL == kv) {
        return;
    }
    while (WU_SUCCESS == wu_hash_table_next_str(kv, &it, NULL, &v)) {
        PMIx_Value_destruct(v);
        free(v);
    }
    wu_hash_table_remove_all(kv);
    WU_RELEASE(kv);
}

static void table_of_kv_free(wu_hash_table_t *t)
{
    void *it = NULL, *v;
    if (NULL == t) {
        return;
    }
    while (WU_SUCCESS == wu_hash_table_next_u64(t, &it, NULL, &v)) {
        kv_free(v);
    }
    wu_hash_table_remove_all(t);
    WU_RELEASE(t);
}

/* Put val under key. With take, val's contents move into the table (val is left empty,
 * PMIX_UNDEF, on success; untouched on failure) instead of being copied. */
static pmix_status_t kv_put(wu_hash_table_t *kv, const char *key, pmix_value_t *val, bool take)
{
    pmix_value_t *copy = calloc(1, sizeof *copy), *old = NULL;
    pmix_status_t rc = PMIX_SUCCESS;
    if (NULL == copy) {
        return PMIX_ERR_NOMEM;
    }
    if (take) {
        *copy = *val;
    } else if (PMIX_SUCCESS != (rc = PMIx_Value_xfer(copy, val))) {
        PMIx_Value_destruct(copy);
        free(copy);
        return rc;
    }
    (void)wu_hash_table_get_str(kv, key, (void **)&old);
    if (WU_SUCCESS != wu_hash_table_set_str(kv, key, copy)) {
        if (!take) {
            PMIx_Value_destruct(copy);
        }
        free(copy);
        return PMIX_ERR_NOMEM;
    }
    if (take) {
        memset(val, 0, sizeof *val);
        val->type = PMIX_UNDEF;
    }
    if (NULL != old) {
        PMIx_Value_destruct(old);
        free(old);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t kv_get(const wu_hash_table_t *kv, const char *key, pmix_value_t **val)
{
    pmix_value_t *found = NULL, *copy;
    pmix_status_t rc;
    if (NULL == kv || WU_SUCCESS != wu_hash_table_get_str(kv, key, (void **)&found)) {
        return PMIX_ERR_NOT_FOUND;
    }
    copy = calloc(1, sizeof *copy);
    if (NULL == copy) {
        return PMIX_ERR_NOMEM;
    }
    rc = PMIx_Value_xfer(copy, found);
    if (PMIX_SUCCESS != rc) {
        PMIx_Value_destruct(copy);
        free(copy);
        return rc;
    }
    *val = copy;
    return PMIX_SUCCESS;
}

/* The key table under u64 id in t; created if create is set. NULL if absent or out of memory. */
static wu_hash_table_t *kv_of(wu_hash_table_t *t, uint64_t id, bool create)
{
    wu_hash_table_t *kv = NULL;
    if (WU_SUCCESS == wu_hash_table_get_u64(t, id, (void **)&kv) || !create) {
        return kv;
    }
    kv = WU_NEW(wu_hash_table_t);
    if (NULL != kv && WU_SUCCESS != wu_hash_table_set_u64(t, id, kv)) {
        WU_RELEASE(kv);
    }
    return kv;
}

/* ---- jobs and nodes ---------------------------------------------------------------------- */

static void job_free(gds_job_t *job)
{
    table_of_kv_free(job->ranks);
    table_of_kv_free(job->apps);
    for (size_t i = 0; i < job->nnodes; i++) {
        kv_free(job->nodes[i]->kv);
        free(job->nodes[i]->hostname);
        free(job->nodes[i]);
    }
    free(job->nodes);
    free(job);
}

static gds_job_t *job_find(wu_gds_store_t *s, const char *nspace, bool create)
{
    gds_job_t *job = NULL;
    if (WU_SUCCESS == wu_hash_table_get_str(s->jobs, nspace, (void **)&job) || !create) {
        return job;
    }
    job = calloc(1, sizeof *job);
    if (NULL == job) {
        return NULL;
    }
    job->ranks = WU_NEW(wu_hash_table_t);
    job->apps = WU_NEW(wu_hash_table_t);
    job->seq = s->next_seq++;
    snprintf(job->name, sizeof job->name, "%s", nspace);
    if (NULL == job->ranks || NULL == job->apps ||
        WU_SUCCESS != wu_hash_table_set_str(s->jobs, nspace, job)) {
        job_free(job);
        return NULL;
    }
    return job;
}

static gds_node_t *node_find(gds_job_t *job, const char *hostname, uint32_t nodeid, bool has_id)
{
    for (size_t i = 0; i < job->nnodes; i++) {
        gds_node_t *n = job->nodes[i];
        if (NULL != hostname && NULL != n->hostname && 0 == strcmp(hostname, n->hostname)) {
            return n;
        }
        if (has_id && n->has_id && nodeid == n->nodeid) {
            return n;
        }
    }
    return NULL;
}

static gds_node_t *node_add(gds_job_t *job)
{
    gds_node_t *n;
    if (job->nnodes == job->nodes_cap) {
        size_t cap = job->nodes_cap ? 2 * job->nodes_cap : 4;
        gds_node_t **grown = realloc(job->nodes, cap * sizeof *grown);
        if (NULL == grown) {
            return NULL;
        }
        job->nodes = grown;
        job->nodes_cap = cap;
    }
    n = calloc(1, sizeof *n);
    if (NULL == n || NULL == (n->kv = WU_NEW(wu_hash_table_t))) {
        free(n);
        return NULL;
    }
    job->nodes[job->nnodes++] = n;
    return n;
}

/* ---- argument checks --------------------------------------------------------------------- */

static bool str_ok(const char *s, size_t max)
{
    return NULL != s && '\0' != s[0] && strnlen(s, max + 1) <= max;
}

static bool args_ok(const wu_gds_store_t *s, const char *nspace, const char *key)
{
    return NULL != s && str_ok(nspace, PMIX_MAX_NSLEN) &&
           (NULL == key || str_ok(key, PMIX_MAX_KEYLEN));
}

static bool rank_ok(pmix_rank_t rank)
{
    return PMIX_RANK_IS_VALID(rank) || PMIX_RANK_WILDCARD == rank;
}

/* ---- module operations ------------------------------------------------------------------- */

static pmix_status_t hash_store_create(wu_gds_store_t **store)
{
    wu_gds_store_t *s;
    if (NULL == store) {
        return PMIX_ERR_BAD_PARAM;
    }
    s = calloc(1, sizeof *s);
    if (NULL == s || NULL == (s->jobs = WU_NEW(wu_hash_table_t))) {
        free(s);
        return PMIX_ERR_NOMEM;
    }
    *store = s;
    return PMIX_SUCCESS;
}

static void hash_store_release(wu_gds_store_t *s)
{
    void *it = NULL, *job;
    if (NULL == s) {
        return;
    }
    while (WU_SUCCESS == wu_hash_table_next_str(s->jobs, &it, NULL, &job)) {
        job_free(job);
    }
    wu_hash_table_remove_all(s->jobs);
    WU_RELEASE(s->jobs);
    free(s);
}

static pmix_status_t kv_set(wu_hash_table_t *kv, const char *key, const pmix_value_t *val)
{
    return kv_put(kv, key, (pmix_value_t *)val, false); /* not taken: only read */
}

/* Store without the reserved-key rule (host data, imports); take as in kv_put. */
static pmix_status_t store_kv(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank,
                              const char *key, pmix_value_t *val, bool take)
{
    gds_job_t *job;
    wu_hash_table_t *kv;
    if (!args_ok(s, nspace, key) || NULL == key || NULL == val || !rank_ok(rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (job = job_find(s, nspace, true)) || NULL == (kv = kv_of(job->ranks, rank, true))) {
        return PMIX_ERR_NOMEM;
    }
    return kv_put(kv, key, val, take);
}

/* put and take_info: the reserved-key rule, then the store. */
static pmix_status_t put_checked(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank,
                                 const char *key, pmix_value_t *val, bool take)
{
    if (args_ok(s, nspace, key) && NULL != key && wu_gds_base_key_reserved(key)) {
        char rankstr[16];
        if (PMIX_RANK_WILDCARD == rank) {
            snprintf(rankstr, sizeof rankstr, "*");
        } else {
            snprintf(rankstr, sizeof rankstr, "%u", (unsigned)rank);
        }
        wu_show_help("help-gds-hash.txt", "reserved-key", true, key, nspace, rankstr);
        return PMIX_ERR_BAD_PARAM;
    }
    return store_kv(s, nspace, rank, key, val, take);
}

static pmix_status_t hash_put(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank,
                              const char *key, const pmix_value_t *val)
{
    return put_checked(s, nspace, rank, key, (pmix_value_t *)val, false); /* only read */
}

static pmix_status_t hash_put_info(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank,
                                   const pmix_info_t *info)
{
    if (NULL == info) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (strnlen(info->key, sizeof info->key) == sizeof info->key) {
        return PMIX_ERR_BAD_PARAM; /* not terminated */
    }
    return hash_put(s, nspace, rank, info->key, &info->value);
}

static pmix_status_t hash_take_info(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank,
                                    pmix_info_t *info)
{
    if (NULL == info || strnlen(info->key, sizeof info->key) == sizeof info->key) {
        return PMIX_ERR_BAD_PARAM;
    }
    return put_checked(s, nspace, rank, info->key, &info->value, true);
}

static pmix_status_t hash_fetch(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank,
                                const char *key, pmix_value_t **val)
{
    gds_job_t *job;
    if (NULL != val) {
        *val = NULL;
    }
    if (!args_ok(s, nspace, key) || NULL == key || NULL == val || !rank_ok(rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (job = job_find(s, nspace, false))) {
        return PMIX_ERR_NOT_FOUND;
    }
    return kv_get(kv_of(job->ranks, rank, false), key, val);
}

static pmix_status_t hash_fetch_view(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank,
                                     const char *key, const pmix_value_t **val)
{
    gds_job_t *job;
    wu_hash_table_t *kv;
    void *found = NULL;
    if (NULL != val) {
        *val = NULL;
    }
    if (!args_ok(s, nspace, key) || NULL == key || NULL == val || !rank_ok(rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (job = job_find(s, nspace, false)) ||
        NULL == (kv = kv_of(job->ranks, rank, false)) ||
        WU_SUCCESS != wu_hash_table_get_str(kv, key, &found)) {
        return PMIX_ERR_NOT_FOUND;
    }
    *val = found;
    return PMIX_SUCCESS;
}

static pmix_status_t hash_fetch_node(wu_gds_store_t *s, const char *nspace, const char *hostname,
                                     uint32_t nodeid, const char *key, pmix_value_t **val)
{
    gds_job_t *job;
    gds_node_t *node = NULL;
    if (NULL != val) {
        *val = NULL;
    }
    if (!args_ok(s, nspace, key) || NULL == key || NULL == val ||
        (NULL == hostname && WU_GDS_NODEID_NONE == nodeid)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL != (job = job_find(s, nspace, false))) {
        node = NULL != hostname ? node_find(job, hostname, 0, false)
                                : node_find(job, NULL, nodeid, true);
    }
    return NULL == node ? PMIX_ERR_NOT_FOUND : kv_get(node->kv, key, val);
}

static pmix_status_t hash_fetch_app(wu_gds_store_t *s, const char *nspace, uint32_t appnum,
                                    const char *key, pmix_value_t **val)
{
    gds_job_t *job;
    if (NULL != val) {
        *val = NULL;
    }
    if (!args_ok(s, nspace, key) || NULL == key || NULL == val) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (job = job_find(s, nspace, false))) {
        return PMIX_ERR_NOT_FOUND;
    }
    return kv_get(kv_of(job->apps, appnum, false), key, val);
}

static bool hash_has_nspace(wu_gds_store_t *s, const char *nspace)
{
    return args_ok(s, nspace, NULL) && NULL != job_find(s, nspace, false);
}

/* The info array inside a PMIX_DATA_ARRAY-of-PMIX_INFO value, or NULL if it is not one. */
static const pmix_info_t *info_array(const pmix_value_t *v, size_t *n)
{
    if (PMIX_DATA_ARRAY != v->type || NULL == v->data.darray || PMIX_INFO != v->data.darray->type ||
        (NULL == v->data.darray->array && 0 != v->data.darray->size)) {
        return NULL;
    }
    *n = v->data.darray->size;
    return v->data.darray->array;
}

static bool key_is(const pmix_info_t *info, const char *key)
{
    return 0 == strncmp(info->key, key, PMIX_MAX_KEYLEN);
}

static bool info_u32(const pmix_info_t *info, uint32_t *out)
{
    switch (info->value.type) {
    case PMIX_UINT32:
        *out = info->value.data.uint32;
        return true;
    case PMIX_PROC_RANK:
        *out = info->value.data.rank;
        return true;
    case PMIX_UINT16:
        *out = info->value.data.uint16;
        return true;
    case PMIX_INT:
        *out = (uint32_t)info->value.data.integer;
        return info->value.data.integer >= 0;
    default:
        return false;
    }
}

static pmix_status_t load_proc_data(wu_gds_store_t *s, const char *nspace, const pmix_info_t *a,
                                    size_t n)
{
    uint32_t rank;
    if (n < 1 || !key_is(&a[0], PMIX_RANK) || !info_u32(&a[0], &rank) || !rank_ok(rank)) {
        wu_show_help("help-gds-hash.txt", "bad-array", true, "PMIX_PROC_DATA", nspace,
                     "the first element must be PMIX_RANK with a valid rank");
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 1; i < n; i++) {
        pmix_status_t rc = store_kv(s, nspace, rank, a[i].key, (pmix_value_t *)&a[i].value, false);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

static pmix_status_t load_node(gds_job_t *job, const char *nspace, const pmix_info_t *a, size_t n)
{
    const char *host = NULL;
    uint32_t id = 0;
    bool has_id = false;
    gds_node_t *node;
    for (size_t i = 0; i < n; i++) {
        if (key_is(&a[i], PMIX_HOSTNAME) && PMIX_STRING == a[i].value.type &&
            NULL != a[i].value.data.string && '\0' != a[i].value.data.string[0]) {
            host = a[i].value.data.string;
        } else if (key_is(&a[i], PMIX_NODEID) && info_u32(&a[i], &id)) {
            has_id = true;
        }
    }
    if (NULL == host && !has_id) {
        wu_show_help("help-gds-hash.txt", "bad-array", true, "PMIX_NODE_INFO_ARRAY", nspace,
                     "it names no node (PMIX_HOSTNAME or PMIX_NODEID)");
        return PMIX_ERR_BAD_PARAM;
    }
    node = node_find(job, host, id, has_id);
    if (NULL == node && NULL == (node = node_add(job))) {
        return PMIX_ERR_NOMEM;
    }
    if (NULL != host && NULL == node->hostname && NULL == (node->hostname = strdup(host))) {
        return PMIX_ERR_NOMEM;
    }
    if (has_id) {
        node->nodeid = id;
        node->has_id = true;
    }
    for (size_t i = 0; i < n; i++) {
        pmix_status_t rc;
        if (!str_ok(a[i].key, PMIX_MAX_KEYLEN)) {
            return PMIX_ERR_BAD_PARAM;
        }
        if (PMIX_SUCCESS != (rc = kv_set(node->kv, a[i].key, &a[i].value))) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

static pmix_status_t load_app(gds_job_t *job, const pmix_info_t *a, size_t n)
{
    uint32_t appnum = 0;
    wu_hash_table_t *kv;
    for (size_t i = 0; i < n; i++) {
        if (key_is(&a[i], PMIX_APPNUM)) {
            if (!info_u32(&a[i], &appnum)) {
                return PMIX_ERR_BAD_PARAM;
            }
        }
    }
    if (NULL == (kv = kv_of(job->apps, appnum, true))) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        pmix_status_t rc;
        if (!str_ok(a[i].key, PMIX_MAX_KEYLEN)) {
            return PMIX_ERR_BAD_PARAM;
        }
        if (PMIX_SUCCESS != (rc = kv_set(kv, a[i].key, &a[i].value))) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

static pmix_status_t hash_register_nspace(wu_gds_store_t *s, const char *nspace,
                                          const pmix_info_t info[], size_t ninfo)
{
    gds_job_t *job;
    if (!args_ok(s, nspace, NULL) || (NULL == info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (job = job_find(s, nspace, true))) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ninfo; i++) {
        const pmix_info_t *a;
        size_t n = 0;
        pmix_status_t rc;
        bool pdata = key_is(&info[i], PMIX_PROC_DATA),
             ndata = key_is(&info[i], PMIX_NODE_INFO_ARRAY),
             adata = key_is(&info[i], PMIX_APP_INFO_ARRAY);
        if (pdata || ndata || adata) {
            if (NULL == (a = info_array(&info[i].value, &n))) {
                wu_show_help("help-gds-hash.txt", "bad-array", true, info[i].key, nspace,
                             "its value is not a PMIX_DATA_ARRAY of PMIX_INFO");
                return PMIX_ERR_BAD_PARAM;
            }
            rc = pdata   ? load_proc_data(s, nspace, a, n)
                 : ndata ? load_node(job, nspace, a, n)
                         : load_app(job, a, n);
        } else if (!str_ok(info[i].key, PMIX_MAX_KEYLEN)) {
            rc = PMIX_ERR_BAD_PARAM;
        } else {
            rc = store_kv(s, nspace, PMIX_RANK_WILDCARD, info[i].key,
                          (pmix_value_t *)&info[i].value, false);
        }
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

static pmix_status_t hash_purge_nspace(wu_gds_store_t *s, const char *nspace)
{
    gds_job_t *job;
    if (!args_ok(s, nspace, NULL)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (job = job_find(s, nspace, false))) {
        return PMIX_ERR_NOT_FOUND;
    }
    wu_hash_table_remove_str(s->jobs, nspace);
    job_free(job);
    return PMIX_SUCCESS;
}

static pmix_status_t hash_export_proc(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank,
                                      pmix_info_t **info, size_t *ninfo)
{
    gds_job_t *job;
    wu_hash_table_t *kv;
    pmix_info_t *out;
    size_t n = 0;
    void *it = NULL, *v;
    const char *key;
    if (!args_ok(s, nspace, NULL) || NULL == info || NULL == ninfo || !rank_ok(rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    *info = NULL;
    *ninfo = 0;
    if (NULL == (job = job_find(s, nspace, false))) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (NULL == (kv = kv_of(job->ranks, rank, false))) {
        /* a namespace known without job-level data still answers with an empty set */
        return PMIX_RANK_WILDCARD == rank ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
    }
    if (0 == wu_hash_table_count(kv)) {
        return PMIX_SUCCESS;
    }
    out = calloc(wu_hash_table_count(kv), sizeof *out);
    if (NULL == out) {
        return PMIX_ERR_NOMEM;
    }
    while (WU_SUCCESS == wu_hash_table_next_str(kv, &it, &key, &v)) {
        pmix_status_t rc;
        snprintf(out[n].key, sizeof out[n].key, "%s", key);
        rc = PMIx_Value_xfer(&out[n].value, v);
        n++;
        if (PMIX_SUCCESS != rc) {
            PMIX_INFO_FREE(out, n);
            return rc;
        }
    }
    *info = out;
    *ninfo = n;
    return PMIX_SUCCESS;
}

static pmix_status_t
hash_each_proc(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank,
               pmix_status_t (*fn)(const char *key, const pmix_value_t *val, void *ctx), void *ctx)
{
    gds_job_t *job;
    wu_hash_table_t *kv;
    void *it = NULL, *v;
    const char *key;
    if (!args_ok(s, nspace, NULL) || NULL == fn || !rank_ok(rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (job = job_find(s, nspace, false))) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (NULL == (kv = kv_of(job->ranks, rank, false))) {
        return PMIX_RANK_WILDCARD == rank ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
    }
    while (WU_SUCCESS == wu_hash_table_next_str(kv, &it, &key, &v)) {
        pmix_status_t rc = fn(key, v, ctx);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

static pmix_status_t hash_import_job(wu_gds_store_t *s, const char *nspace,
                                     const pmix_info_t info[], size_t ninfo)
{
    gds_job_t *job;
    if (!args_ok(s, nspace, NULL) || (NULL == info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (job = job_find(s, nspace, true)) ||
        NULL == kv_of(job->ranks, PMIX_RANK_WILDCARD, true)) {
        return PMIX_ERR_NOMEM; /* the table is made even for an empty set: has_proc sees it */
    }
    for (size_t i = 0; i < ninfo; i++) {
        pmix_status_t rc;
        if (!str_ok(info[i].key, PMIX_MAX_KEYLEN)) {
            return PMIX_ERR_BAD_PARAM;
        }
        rc = store_kv(s, nspace, PMIX_RANK_WILDCARD, info[i].key, (pmix_value_t *)&info[i].value,
                      false);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

static pmix_status_t hash_take_proc(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank,
                                    pmix_info_t info[], size_t n)
{
    gds_job_t *job;
    if (!args_ok(s, nspace, NULL) || !rank_ok(rank) || (NULL == info && 0 != n)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (job = job_find(s, nspace, true)) || NULL == kv_of(job->ranks, rank, true)) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        pmix_status_t rc = hash_take_info(s, nspace, rank, &info[i]);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

static bool hash_has_proc(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank)
{
    gds_job_t *job;
    if (!args_ok(s, nspace, NULL) || !rank_ok(rank) || NULL == (job = job_find(s, nspace, false))) {
        return false;
    }
    return NULL != kv_of(job->ranks, rank, false);
}

static pmix_status_t hash_purge_key(wu_gds_store_t *s, const char *nspace, pmix_rank_t rank,
                                    const char *key)
{
    gds_job_t *job;
    wu_hash_table_t *kv;
    void *v = NULL;
    if (!args_ok(s, nspace, key) || !PMIX_RANK_IS_VALID(rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (job = job_find(s, nspace, false)) ||
        NULL == (kv = kv_of(job->ranks, rank, false)) ||
        WU_SUCCESS != wu_hash_table_get_str(kv, key, &v)) {
        return PMIX_ERR_NOT_FOUND;
    }
    wu_hash_table_remove_str(kv, key);
    PMIx_Value_destruct(v);
    free(v);
    return PMIX_SUCCESS;
}

static int cmp_job_seq(const void *a, const void *b)
{
    const gds_job_t *x = *(gds_job_t *const *)a, *y = *(gds_job_t *const *)b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static pmix_status_t hash_job_nspaces(wu_gds_store_t *s, char ***names)
{
    size_t n = 0, cap;
    gds_job_t **jobs;
    void *it = NULL, *v;
    pmix_status_t rc = PMIX_SUCCESS;

    if (NULL == s || NULL == names) {
        return PMIX_ERR_BAD_PARAM;
    }
    *names = NULL;
    cap = wu_hash_table_count(s->jobs);
    if (0 == cap) {
        return PMIX_SUCCESS;
    }
    if (NULL == (jobs = calloc(cap, sizeof *jobs))) {
        return PMIX_ERR_NOMEM;
    }
    while (n < cap && WU_SUCCESS == wu_hash_table_next_str(s->jobs, &it, NULL, &v)) {
        gds_job_t *job = v;
        if (NULL != kv_of(job->ranks, PMIX_RANK_WILDCARD, false)) {
            jobs[n++] = job;
        }
    }
    qsort(jobs, n, sizeof *jobs, cmp_job_seq);
    for (size_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        if (WU_SUCCESS != wu_argv_append(names, jobs[i]->name)) {
            wu_argv_free(*names);
            *names = NULL;
            rc = PMIX_ERR_NOMEM;
        }
    }
    free(jobs);
    return rc;
}

static int cmp_rank(const void *a, const void *b)
{
    pmix_rank_t x = ((const pmix_proc_t *)a)->rank, y = ((const pmix_proc_t *)b)->rank;
    return x < y ? -1 : x > y;
}

/* Parse a "0,1,5" rank list into procs of nspace. */
static pmix_status_t parse_peers(const char *nspace, const char *list, pmix_proc_t **procs,
                                 size_t *nprocs)
{
    size_t n = 1, k = 0;
    pmix_proc_t *out;
    const char *p = list;
    for (const char *c = list; '\0' != *c; c++) {
        n += ',' == *c;
    }
    out = calloc(n, sizeof *out);
    if (NULL == out) {
        return PMIX_ERR_NOMEM;
    }
    while (k < n) {
        char *end;
        unsigned long r;
        if (*p < '0' || *p > '9') {
            free(out);
            return PMIX_ERR_BAD_PARAM;
        }
        r = strtoul(p, &end, 10);
        if (r >= PMIX_RANK_VALID || (',' != *end && '\0' != *end)) {
            free(out);
            return PMIX_ERR_BAD_PARAM;
        }
        snprintf(out[k].nspace, sizeof out[k].nspace, "%s", nspace);
        out[k++].rank = (pmix_rank_t)r;
        p = '\0' == *end ? end : end + 1;
    }
    *procs = out;
    *nprocs = n;
    return PMIX_SUCCESS;
}

/* PMIX_LOCAL_PEERS missing: ranks whose PMIX_HOSTNAME (or, for ranks without one, PMIX_NODEID)
 * names this node. */
static pmix_status_t rebuild_peers(gds_job_t *job, const char *nspace, const gds_node_t *node,
                                   pmix_proc_t **procs, size_t *nprocs)
{
    void *it = NULL, *v;
    uint64_t rank;
    bool any = false;
    size_t n = 0, cap = 0;
    pmix_proc_t *out = NULL;
    while (WU_SUCCESS == wu_hash_table_next_u64(job->ranks, &it, &rank, &v)) {
        pmix_value_t *h = NULL, *id = NULL;
        bool match = false;
        if (PMIX_RANK_WILDCARD == rank) {
            continue;
        }
        if (WU_SUCCESS == wu_hash_table_get_str(v, PMIX_HOSTNAME, (void **)&h) &&
            PMIX_STRING == h->type && NULL != h->data.string) {
            any = true;
            match = NULL != node->hostname && 0 == strcmp(h->data.string, node->hostname);
        } else if (WU_SUCCESS == wu_hash_table_get_str(v, PMIX_NODEID, (void **)&id) &&
                   PMIX_UINT32 == id->type) {
            any = true;
            match = node->has_id && id->data.uint32 == node->nodeid;
        }
        if (!match) {
            continue;
        }
        if (n == cap) {
            pmix_proc_t *grown;
            cap = cap ? 2 * cap : 8;
            if (NULL == (grown = realloc(out, cap * sizeof *grown))) {
                free(out);
                return PMIX_ERR_NOMEM;
            }
            out = grown;
        }
        memset(&out[n], 0, sizeof out[n]);
        snprintf(out[n].nspace, sizeof out[n].nspace, "%s", nspace);
        out[n++].rank = (pmix_rank_t)rank;
    }
    if (!any) {
        free(out);
        return PMIX_ERR_DATA_VALUE_NOT_FOUND;
    }
    if (0 == n) {
        free(out);
        out = NULL;
    } else {
        qsort(out, n, sizeof *out, cmp_rank);
    }
    *procs = out;
    *nprocs = n;
    return PMIX_SUCCESS;
}

static pmix_status_t hash_resolve_peers(wu_gds_store_t *s, const char *nspace, const char *node,
                                        pmix_proc_t **procs, size_t *nprocs)
{
    gds_job_t *job;
    gds_node_t *nd;
    pmix_value_t *peers = NULL;
    if (!args_ok(s, nspace, NULL) || NULL == node || NULL == procs || NULL == nprocs) {
        return PMIX_ERR_BAD_PARAM;
    }
    *procs = NULL;
    *nprocs = 0;
    if (NULL == (job = job_find(s, nspace, false))) {
        return PMIX_ERR_INVALID_NAMESPACE;
    }
    if (NULL == (nd = node_find(job, node, 0, false))) {
        return PMIX_SUCCESS; /* the node is not assigned to this namespace */
    }
    if (WU_SUCCESS != wu_hash_table_get_str(nd->kv, PMIX_LOCAL_PEERS, (void **)&peers)) {
        return rebuild_peers(job, nspace, nd, procs, nprocs);
    }
    if (PMIX_STRING != peers->type) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == peers->data.string || '\0' == peers->data.string[0]) {
        return PMIX_SUCCESS; /* node assigned, no process mapped to it */
    }
    return parse_peers(nspace, peers->data.string, procs, nprocs);
}

static pmix_status_t hash_resolve_nodes(wu_gds_store_t *s, const char *nspace, char **nodelist)
{
    gds_job_t *job;
    size_t len = 0;
    char *out, *p;
    if (!args_ok(s, nspace, NULL) || NULL == nodelist) {
        return PMIX_ERR_BAD_PARAM;
    }
    *nodelist = NULL;
    if (NULL == (job = job_find(s, nspace, false))) {
        return PMIX_ERR_INVALID_NAMESPACE;
    }
    for (size_t i = 0; i < job->nnodes; i++) {
        if (NULL != job->nodes[i]->hostname) {
            len += strlen(job->nodes[i]->hostname) + 1;
        }
    }
    if (0 == len) {
        return PMIX_SUCCESS;
    }
    if (NULL == (out = malloc(len))) {
        return PMIX_ERR_NOMEM;
    }
    p = out;
    for (size_t i = 0; i < job->nnodes; i++) {
        const char *h = job->nodes[i]->hostname;
        if (NULL != h) {
            size_t l = strlen(h);
            if (p != out) {
                *p++ = ',';
            }
            memcpy(p, h, l);
            p += l;
        }
    }
    *p = '\0';
    *nodelist = out;
    return PMIX_SUCCESS;
}

static const wu_gds_module_t hash_module = {
    .name = "hash",
    .store_create = hash_store_create,
    .store_release = hash_store_release,
    .put = hash_put,
    .put_info = hash_put_info,
    .take_info = hash_take_info,
    .fetch = hash_fetch,
    .fetch_view = hash_fetch_view,
    .fetch_node = hash_fetch_node,
    .fetch_app = hash_fetch_app,
    .has_nspace = hash_has_nspace,
    .register_nspace = hash_register_nspace,
    .purge_nspace = hash_purge_nspace,
    .export_proc = hash_export_proc,
    .each_proc = hash_each_proc,
    .import_job = hash_import_job,
    .take_proc = hash_take_proc,
    .has_proc = hash_has_proc,
    .job_nspaces = hash_job_nspaces,
    .resolve_peers = hash_resolve_peers,
    .resolve_nodes = hash_resolve_nodes,
    .purge_key = hash_purge_key,
};

WU_MCA_COMPONENT(gds, hash, .priority = 10, .module = &hash_module,
                 .description = "Keeps PMIx data in hash tables in process memory");
