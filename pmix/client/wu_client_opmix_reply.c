/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_opmix_reply.c -- the other half of wu_client_opmix.c (see there): what an OpenPMIx
 * server sends this client, read back as what a Wireup server would have sent. The job data of
 * the REQ reply become the registration of a CONNECT reply (per-rank blobs as PMIX_PROC_DATA,
 * and the session's and the own node's values also as job-level ones, where an OpenPMIx client
 * finds them too); the byte objects of a GET reply are stored, and the value asked for is the
 * reply; a fence's and a connect's reply get the empty blob of a collective whose data come
 * later (a connect's other namespaces' job data are stored, as a spawn's new job's); lists
 * (lookup, query, credentials) are rewritten in Wireup's form; a group's results are made from
 * the context id and (5.x) members; events (tag 0) become Wireup's NOTIFY messages. */
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_obfr.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include <stdlib.h>
#include <string.h>

/* The keys of the REQ reply with a meaning of their own (PMIX_PROC_BLOB, PMIX_MAP_BLOB). */
#define PROC_BLOB "pmix.pblob"
#define MAP_BLOB  "pmix.mblob"

/* Said on the ptl framework's stream (ptl_base_verbose): this is about the transport. */
#define say(...) WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_WARN, "client:opmix: " __VA_ARGS__)

/* ---- replies: OpenPMIx's layout in, Wireup's out ---------------------------------------- */

/* Append info (key, value moved) to *arr of *n. */
static int info_push(pmix_info_t **arr, size_t *n, const char *key, pmix_value_t *val)
{
    pmix_info_t *grown = realloc(*arr, (*n + 1) * sizeof **arr);
    if (NULL == grown) {
        return PMIX_ERR_NOMEM;
    }
    *arr = grown;
    PMIX_INFO_CONSTRUCT(&grown[*n]);
    PMIX_LOAD_KEY(grown[*n].key, key);
    grown[*n].value = *val;
    memset(val, 0, sizeof *val); /* moved */
    val->type = PMIX_UNDEF;
    (*n)++;
    return PMIX_SUCCESS;
}

/* Read the KVALs up to the end of b into infos appended to *arr. */
static int kvals_read(wu_buffer_t *b, int bt, pmix_info_t **arr, size_t *n)
{
    int rc = PMIX_SUCCESS;
    while (PMIX_SUCCESS == rc && wu_buffer_remaining(b) > 0) {
        wu_obfr_kval_t kv = {NULL, NULL};
        int32_t one = 1;
        if (PMIX_SUCCESS != (rc = wu_obfr_unpack(b, bt, &kv, &one, PMIX_KVAL))) {
            break;
        }
        if (NULL == kv.key || NULL == kv.value || strlen(kv.key) > PMIX_MAX_KEYLEN) {
            rc = PMIX_ERR_UNPACK_FAILURE;
        } else {
            rc = info_push(arr, n, kv.key, kv.value);
        }
        wu_obfr_free(&kv, 1, PMIX_KVAL);
    }
    return rc;
}

/* A view of a byte object's bytes as a buffer to read. */
static void view(wu_buffer_t *b, const pmix_byte_object_t *bo)
{
    wu_buffer_construct(b);
    b->base = bo->bytes;
    b->used = b->cap = bo->size;
}

/* A per-rank blob of job data (PROC_RANK, then KVALs): *rank, and its values as *data (n). */
static int pblob_read(const pmix_value_t *v, int bt, pmix_rank_t *rank, pmix_info_t **data,
                      size_t *n)
{
    wu_buffer_t b;
    int32_t one = 1;
    int rc;
    *data = NULL;
    *n = 0;
    if (PMIX_BYTE_OBJECT != v->type) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    view(&b, &v->data.bo);
    if (PMIX_SUCCESS == (rc = wu_obfr_unpack(&b, bt, rank, &one, PMIX_PROC_RANK))) {
        rc = kvals_read(&b, bt, data, n);
    }
    if (PMIX_SUCCESS != rc && NULL != *data) {
        PMIX_INFO_FREE(*data, *n);
        *data = NULL;
    }
    return rc;
}

/* A per-rank blob of the REQ reply as Wireup's PMIX_PROC_DATA info (PMIX_RANK first, then the
 * rank's values), appended to *job. */
static int pblob_to_proc_data(const pmix_value_t *v, int bt, pmix_info_t **job, size_t *njob)
{
    pmix_info_t *data = NULL, *all = NULL;
    size_t n = 0, nall = 0;
    pmix_rank_t rank = 0;
    pmix_value_t rv, arr;
    pmix_data_array_t *da;
    int rc = pblob_read(v, bt, &rank, &data, &n);
    memset(&rv, 0, sizeof rv);
    rv.type = PMIX_PROC_RANK;
    rv.data.rank = rank;
    if (PMIX_SUCCESS == rc) {
        rc = info_push(&all, &nall, PMIX_RANK, &rv);
    }
    for (size_t i = 0; PMIX_SUCCESS == rc && i < n; i++) {
        rc = info_push(&all, &nall, data[i].key, &data[i].value);
    }
    if (NULL != data) {
        PMIX_INFO_FREE(data, n);
    }
    if (PMIX_SUCCESS == rc && NULL == (da = calloc(1, sizeof *da))) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != rc) {
        if (NULL != all) {
            PMIX_INFO_FREE(all, nall);
        }
        return rc;
    }
    da->type = PMIX_INFO;
    da->size = nall;
    da->array = all;
    memset(&arr, 0, sizeof arr);
    arr.type = PMIX_DATA_ARRAY;
    arr.data.darray = da;
    rc = info_push(job, njob, PMIX_PROC_DATA, &arr);
    if (PMIX_SUCCESS != rc) {
        PMIX_VALUE_DESTRUCT(&arr);
    }
    return rc;
}

/* The job data of another namespace (KVALs up to the end of in, as a REQ reply's), which a
 * spawn's or a connect's reply carries: stored, per-rank blobs under their ranks. */
static int job_import(wu_buffer_t *in, int bt, const char *nspace)
{
    pmix_info_t *kv = NULL, *job = NULL;
    size_t nkv = 0, njob = 0;
    int rc = kvals_read(in, bt, &kv, &nkv);
    if (PMIX_CHECK_NSPACE(nspace, wu_client.myproc.nspace)) {
        rc = PMIX_SUCCESS; /* the own job's data came at init */
        nkv = 0;
    }
    wu_client_store_wrlock();
    for (size_t i = 0; PMIX_SUCCESS == rc && i < nkv; i++) {
        if (PMIX_CHECK_KEY(&kv[i], PROC_BLOB)) {
            pmix_info_t *data;
            size_t n;
            pmix_rank_t rank;
            if (PMIX_SUCCESS == (rc = pblob_read(&kv[i].value, bt, &rank, &data, &n))) {
                rc = wu_client.gds->take_proc(wu_client.store, nspace, rank, data, n);
                if (NULL != data) {
                    PMIX_INFO_FREE(data, n);
                }
            }
        } else if (!PMIX_CHECK_KEY(&kv[i], MAP_BLOB) &&
                   !PMIX_CHECK_KEY(&kv[i], PMIX_QUALIFIED_VALUE)) {
            rc = info_push(&job, &njob, kv[i].key, &kv[i].value);
        }
    }
    if (PMIX_SUCCESS == rc && nkv > 0) {
        rc = wu_client.gds->import_job(wu_client.store, nspace, job, njob);
    }
    wu_client_store_unlock();
    if (NULL != kv) {
        PMIX_INFO_FREE(kv, nkv);
    }
    if (NULL != job) {
        PMIX_INFO_FREE(job, njob);
    }
    return rc;
}

/* Is key among the n infos? */
static bool has_key(const pmix_info_t *info, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++) {
        if (PMIX_CHECK_KEY(&info[i], key)) {
            return true;
        }
    }
    return false;
}

/* The infos of an info array value, or NULL. */
static const pmix_info_t *info_array(const pmix_value_t *v, size_t *n)
{
    if (PMIX_DATA_ARRAY != v->type || NULL == v->data.darray || PMIX_INFO != v->data.darray->type ||
        NULL == v->data.darray->array) {
        return NULL;
    }
    *n = v->data.darray->size;
    return v->data.darray->array;
}

/* Is the node array a (n infos) this process's node? */
static bool own_node(const pmix_info_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (PMIX_CHECK_KEY(&a[i], PMIX_HOSTNAME) && PMIX_STRING == a[i].value.type &&
            NULL != a[i].value.data.string &&
            0 == strcmp(a[i].value.data.string, wu_client.hostname)) {
            return true;
        }
    }
    return false;
}

/* This process's application number, from its own rank's data among the n infos (0 if
 * absent). */
static uint32_t own_appnum(const pmix_info_t *job, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t m = 0;
        const pmix_info_t *d = info_array(&job[i].value, &m);
        if (NULL == d || !PMIX_CHECK_KEY(&job[i], PMIX_PROC_DATA) || 0 == m ||
            PMIX_PROC_RANK != d[0].value.type || wu_client.myproc.rank != d[0].value.data.rank) {
            continue;
        }
        for (size_t k = 1; k < m; k++) {
            if (PMIX_CHECK_KEY(&d[k], PMIX_APPNUM) && PMIX_UINT32 == d[k].value.type) {
                return d[k].value.data.uint32;
            }
        }
    }
    return 0;
}

/* Is the app array a (n infos) that of application appnum? */
static bool app_is(const pmix_info_t *a, size_t n, uint32_t appnum)
{
    for (size_t i = 0; i < n; i++) {
        if (PMIX_CHECK_KEY(&a[i], PMIX_APPNUM) && PMIX_UINT32 == a[i].value.type) {
            return a[i].value.data.uint32 == appnum;
        }
    }
    return 0 == appnum;
}

/* An OpenPMIx client answers a job-level Get of a key its job data lack from its own
 * application's data (PMIX_WDIR, PMIX_APP_ARGV...), the session's, then its own node's (the
 * hash server moves such keys there: PMIX_UNIV_SIZE, PMIX_LOCAL_SIZE, PMIX_LOCAL_PEERS...).
 * Copy those into the job-level set, where Wireup's store looks. */
static int lift_job_keys(pmix_info_t **job, size_t *njob)
{
    static const char *const arrays[] = {PMIX_APP_INFO_ARRAY, PMIX_SESSION_INFO_ARRAY,
                                         PMIX_NODE_INFO_ARRAY};
    size_t nj = *njob;
    uint32_t app = own_appnum(*job, nj);
    int rc = PMIX_SUCCESS;
    for (int pass = 0; pass < 3; pass++) {
        for (size_t i = 0; PMIX_SUCCESS == rc && i < nj; i++) {
            size_t n = 0;
            const pmix_info_t *a = info_array(&(*job)[i].value, &n);
            if (NULL == a || !PMIX_CHECK_KEY(&(*job)[i], arrays[pass]) ||
                (0 == pass && !app_is(a, n, app)) || (2 == pass && !own_node(a, n))) {
                continue;
            }
            for (size_t k = 0; PMIX_SUCCESS == rc && k < n; k++) {
                pmix_value_t v;
                if (PMIX_CHECK_KEY(&a[k], PMIX_HOSTNAME) || PMIX_CHECK_KEY(&a[k], PMIX_NODEID) ||
                    PMIX_CHECK_KEY(&a[k], PMIX_APPNUM) || has_key(*job, *njob, a[k].key)) {
                    continue;
                }
                if (PMIX_SUCCESS == (rc = PMIx_Value_xfer(&v, &a[k].value))) {
                    rc = info_push(job, njob, a[k].key, &v);
                    if (PMIX_SUCCESS != rc) {
                        PMIX_VALUE_DESTRUCT(&v);
                    }
                }
                a = info_array(&(*job)[i].value, &n); /* *job may have moved */
            }
        }
    }
    return rc;
}

/* REQ: STRING nspace, KVALs to the end -- Wireup's CONNECT reply: list of INFO (the
 * registration, per-rank blobs as PMIX_PROC_DATA), UINT32 local procs, PROC the server. */
static int conv_req(wu_buffer_t *in, int bt, wu_buffer_t *out)
{
    char *ns = NULL;
    pmix_info_t *kv = NULL, *job = NULL;
    size_t nkv = 0, njob = 0;
    uint32_t nlocal = 0;
    int32_t one = 1;
    int rc = wu_obfr_unpack(in, bt, &ns, &one, PMIX_STRING);
    if (PMIX_SUCCESS == rc && (NULL == ns || !PMIX_CHECK_NSPACE(ns, wu_client.myproc.nspace))) {
        say("the job data of the server name namespace %s, not %s", NULL != ns ? ns : "(none)",
            wu_client.myproc.nspace);
        rc = PMIX_ERR_INVALID_NAMESPACE;
    }
    free(ns);
    if (PMIX_SUCCESS == rc) {
        rc = kvals_read(in, bt, &kv, &nkv);
    }
    for (size_t i = 0; PMIX_SUCCESS == rc && i < nkv; i++) {
        WU_MCA_VERBOSE(&wu_mca_ptl_framework, WU_VERB_TRACE, "client:opmix: job data: %s (%s)",
                       kv[i].key, PMIx_Data_type_string(kv[i].value.type));
        if (PMIX_CHECK_KEY(&kv[i], PROC_BLOB)) {
            rc = pblob_to_proc_data(&kv[i].value, bt, &job, &njob);
        } else if (PMIX_CHECK_KEY(&kv[i], MAP_BLOB) ||
                   PMIX_CHECK_KEY(&kv[i], PMIX_QUALIFIED_VALUE)) {
            say("ignoring %s in the job data", kv[i].key); /* not sent to hash clients of 4.2 */
        } else {
            if (PMIX_CHECK_KEY(&kv[i], PMIX_LOCAL_SIZE) && PMIX_UINT32 == kv[i].value.type) {
                nlocal = kv[i].value.data.uint32;
            }
            rc = info_push(&job, &njob, kv[i].key, &kv[i].value);
        }
    }
    if (PMIX_SUCCESS == rc) {
        rc = lift_job_keys(&job, &njob);
    }
    if (PMIX_SUCCESS == rc &&
        PMIX_SUCCESS == (rc = wu_proto_pack_list(out, job, njob, PMIX_INFO)) &&
        PMIX_SUCCESS == (rc = wu_pack(out, &nlocal, 1, PMIX_UINT32))) {
        rc = wu_pack(out, &wu_client.server, 1, PMIX_PROC);
    }
    if (NULL != kv) {
        PMIX_INFO_FREE(kv, nkv);
    }
    if (NULL != job) {
        PMIX_INFO_FREE(job, njob);
    }
    return rc;
}

/* One byte object of a GET reply (PROC, then KVALs): stored (but this process's own data), and
 * the value of ox's key for ox's proc copied to *found. Store's write lock held. */
static int get_bo(const wu_client_ox_t *ox, const pmix_byte_object_t *bo, int bt,
                  pmix_value_t **found)
{
    wu_buffer_t b;
    pmix_proc_t proc;
    pmix_info_t *kv = NULL;
    size_t n = 0;
    int32_t one = 1;
    int rc;
    view(&b, bo);
    if (PMIX_SUCCESS != (rc = wu_obfr_unpack(&b, bt, &proc, &one, PMIX_PROC)) ||
        PMIX_SUCCESS != (rc = kvals_read(&b, bt, &kv, &n))) {
        if (NULL != kv) {
            PMIX_INFO_FREE(kv, n);
        }
        return rc;
    }
    if (PMIX_RANK_UNDEF == proc.rank) {
        proc.rank = ox->proc.rank; /* "the rank asked for" */
    }
    for (size_t i = 0; i < n && NULL == *found; i++) {
        if (!PMIX_CHECK_KEY(&kv[i], ox->key) || proc.rank != ox->proc.rank ||
            !PMIX_CHECK_NSPACE(proc.nspace, ox->proc.nspace)) {
            continue;
        }
        if (NULL == (*found = calloc(1, sizeof **found))) {
            rc = PMIX_ERR_NOMEM;
        } else if (PMIX_SUCCESS != (rc = PMIx_Value_xfer(*found, &kv[i].value))) {
            free(*found);
            *found = NULL;
        }
    }
    if (PMIX_RANK_WILDCARD == proc.rank) {
        if (!PMIX_CHECK_NSPACE(proc.nspace, wu_client.myproc.nspace)) {
            (void)wu_client.gds->import_job(wu_client.store, proc.nspace, kv, n);
        }
    } else if (!(proc.rank == wu_client.myproc.rank &&
                 PMIX_CHECK_NSPACE(proc.nspace, wu_client.myproc.nspace))) {
        for (size_t i = 0; i < n; i++) {
            /* a refused (reserved) key is skipped */
            (void)wu_client.gds->take_info(wu_client.store, proc.nspace, proc.rank, &kv[i]);
        }
    }
    PMIX_INFO_FREE(kv, n);
    return rc;
}

/* GET: BYTE_OBJECTs to the end -- Wireup's: VALUE, list of INFO (empty: stored here). */
static int conv_get(const wu_client_ox_t *ox, wu_buffer_t *in, int bt, wu_buffer_t *out,
                    pmix_status_t *status)
{
    pmix_value_t *found = NULL;
    int rc = PMIX_SUCCESS;
    wu_client_store_wrlock();
    while (PMIX_SUCCESS == rc && wu_buffer_remaining(in) > 0) {
        pmix_byte_object_t bo = {NULL, 0};
        int32_t one = 1;
        if (PMIX_SUCCESS == (rc = wu_obfr_unpack(in, bt, &bo, &one, PMIX_BYTE_OBJECT))) {
            rc = get_bo(ox, &bo, bt, &found);
        }
        free(bo.bytes);
    }
    wu_client_store_unlock();
    if (PMIX_SUCCESS == rc && NULL == found) {
        *status = PMIX_ERR_NOT_FOUND;
    } else if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = wu_pack(out, found, 1, PMIX_VALUE))) {
        rc = wu_proto_pack_list(out, NULL, 0, PMIX_INFO);
    }
    if (NULL != found) {
        PMIX_VALUE_RELEASE(found);
    }
    return rc;
}

/* An OpenPMIx "list of X" (SIZE n, then n elements; nothing left: none) as Wireup's. */
static int copy_list(wu_buffer_t *in, int bt, wu_buffer_t *out, pmix_data_type_t t)
{
    void *arr = NULL;
    size_t n = 0;
    int rc = PMIX_SUCCESS;
    if (wu_buffer_remaining(in) > 0) {
        rc = wu_obfr_unpack_list(in, bt, &arr, &n, t);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(out, arr, n, t);
    }
    if (NULL != arr) {
        wu_obfr_free(arr, n, t);
        free(arr);
    }
    return rc;
}

/* CONNECT: BYTE_OBJECTs to the end, each a namespace (STRING) and its job data -- stored;
 * Wireup's reply: the empty blob of a collective whose data come later with GETs. */
static int conv_connect(wu_buffer_t *in, int bt, wu_buffer_t *out)
{
    pmix_byte_object_t none = {NULL, 0};
    int rc = PMIX_SUCCESS;
    while (PMIX_SUCCESS == rc && wu_buffer_remaining(in) > 0) {
        pmix_byte_object_t bo = {NULL, 0};
        wu_buffer_t b;
        char *ns = NULL;
        int32_t one = 1;
        if (PMIX_SUCCESS != (rc = wu_obfr_unpack(in, bt, &bo, &one, PMIX_BYTE_OBJECT))) {
            break;
        }
        view(&b, &bo);
        if (PMIX_SUCCESS == (rc = wu_obfr_unpack(&b, bt, &ns, &one, PMIX_STRING))) {
            rc = NULL == ns || strlen(ns) > PMIX_MAX_NSLEN ? PMIX_ERR_UNPACK_FAILURE
                                                           : job_import(&b, bt, ns);
        }
        free(ns);
        free(bo.bytes);
    }
    return PMIX_SUCCESS == rc ? wu_pack(out, &none, 1, PMIX_BYTE_OBJECT) : rc;
}

/* SPAWN: STRING the new namespace, its job data to the end (stored) -- Wireup's: the STRING. */
static int conv_spawn(wu_buffer_t *in, int bt, wu_buffer_t *out)
{
    char *ns = NULL;
    int32_t one = 1;
    int rc = wu_obfr_unpack(in, bt, &ns, &one, PMIX_STRING);
    if (PMIX_SUCCESS == rc && (NULL == ns || strlen(ns) > PMIX_MAX_NSLEN)) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS != job_import(in, bt, ns)) {
        say("the job data of the spawned namespace %s could not be read", ns);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(out, &ns, 1, PMIX_STRING);
    }
    free(ns);
    return rc;
}

/* GROUP_CONSTRUCT: 5.x the members (a list of PROC), then (4.x: perhaps) SIZE the context id --
 * Wireup's: list of INFO results, PMIX_GROUP_CONTEXT_ID if sent, PMIX_GROUP_MEMBERSHIP if sent
 * (OpenPMIx's 4.x client gives the context id alone too). */
static int conv_group(wu_buffer_t *in, int bt, wu_buffer_t *out)
{
    pmix_proc_t *members = NULL;
    size_t n = 0, ctx = 0, nres = 0;
    pmix_info_t res[2];
    pmix_data_array_t da;
    int32_t one = 1;
    int rc = PMIX_SUCCESS;
    if (wu_client.omajor >= 5) {
        rc = wu_obfr_unpack_list(in, bt, (void **)&members, &n, PMIX_PROC);
    }
    if (PMIX_SUCCESS == rc && wu_buffer_remaining(in) > 0 &&
        PMIX_SUCCESS == (rc = wu_obfr_unpack(in, bt, &ctx, &one, PMIX_SIZE))) {
        PMIX_INFO_LOAD(&res[nres], PMIX_GROUP_CONTEXT_ID, &ctx, PMIX_SIZE);
        nres++;
    }
    if (PMIX_SUCCESS == rc && wu_client.omajor >= 5) {
        da.type = PMIX_PROC;
        da.size = n;
        da.array = members;
        PMIX_INFO_CONSTRUCT(&res[nres]);
        PMIX_LOAD_KEY(res[nres].key, PMIX_GROUP_MEMBERSHIP);
        res[nres].value.type = PMIX_DATA_ARRAY;
        res[nres].value.data.darray = &da; /* lent */
        nres++;
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(out, res, nres, PMIX_INFO);
    }
    free(members);
    return rc;
}

int wu_client_opmix_reply(const wu_client_ox_t *ox, const void *payload, size_t len,
                          pmix_status_t *status, wu_buffer_t *out)
{
    wu_buffer_t in;
    int bt = wu_client.obtype;
    int32_t one = 1;
    int rc;
    wu_buffer_construct(&in);
    in.base = (char *)payload; /* a read-only view */
    in.used = in.cap = len;
    *status = PMIX_SUCCESS;
    if (WU_CMD_CONNECT == ox->wcmd) {
        return conv_req(&in, bt, out); /* the one reply without a status */
    }
    if (PMIX_SUCCESS != (rc = wu_obfr_unpack(&in, bt, status, &one, PMIX_STATUS))) {
        return rc;
    }
    if (PMIX_ERR_PARTIAL_SUCCESS == *status &&
        (WU_CMD_LOOKUP == ox->wcmd || WU_CMD_QUERY == ox->wcmd)) {
        /* what was found follows, as with a success */
    } else if (PMIX_SUCCESS != *status) {
        return PMIX_SUCCESS;
    }
    switch (ox->wcmd) {
    case WU_CMD_GET:
        return conv_get(ox, &in, bt, out, status);
    case WU_CMD_FENCE: {
        /* the data of the peers come with GETs: an empty blob */
        pmix_byte_object_t none = {NULL, 0};
        return wu_pack(out, &none, 1, PMIX_BYTE_OBJECT);
    }
    case WU_CMD_CONNECT_PROCS:
        return conv_connect(&in, bt, out);
    case WU_CMD_SPAWN:
        return conv_spawn(&in, bt, out);
    case WU_CMD_GROUP_CONSTRUCT:
        return conv_group(&in, bt, out);
    case WU_CMD_LOOKUP:
        return copy_list(&in, bt, out, PMIX_PDATA);
    case WU_CMD_QUERY:
    case WU_CMD_VALIDATE_CRED:
        return copy_list(&in, bt, out, PMIX_INFO);
    case WU_CMD_GET_CRED: {
        pmix_byte_object_t cred = {NULL, 0};
        if (PMIX_SUCCESS == (rc = wu_obfr_unpack(&in, bt, &cred, &one, PMIX_BYTE_OBJECT)) &&
            PMIX_SUCCESS == (rc = wu_pack(out, &cred, 1, PMIX_BYTE_OBJECT))) {
            rc = copy_list(&in, bt, out, PMIX_INFO);
        }
        free(cred.bytes);
        return rc;
    }
    default:
        return PMIX_SUCCESS; /* the status is the whole reply */
    }
}

/* ---- the server's own messages ---------------------------------------------------------- */

void wu_client_opmix_event(const void *payload, size_t len)
{
    wu_buffer_t in, out;
    int bt = wu_client.obtype;
    uint8_t cmd = 0, wcmd = WU_CMD_NOTIFY;
    pmix_status_t code = 0;
    pmix_proc_t source;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    pmix_data_range_t range = PMIX_RANGE_SESSION;
    int32_t one = 1;
    int rc;
    wu_buffer_construct(&in);
    in.base = (char *)payload;
    in.used = in.cap = len;
    wu_buffer_construct(&out);
    rc = wu_obfr_unpack(&in, bt, &cmd, &one, PMIX_COMMAND);
    if (PMIX_SUCCESS == rc && WU_OCMD_NOTIFY != cmd) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    one = 1;
    if (PMIX_SUCCESS == rc &&
        PMIX_SUCCESS == (rc = wu_obfr_unpack(&in, bt, &code, &one, PMIX_STATUS))) {
        one = 1;
        rc = wu_obfr_unpack(&in, bt, &source, &one, PMIX_PROC);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_obfr_unpack_list(&in, bt, (void **)&info, &ninfo, PMIX_INFO);
    }
    if (PMIX_SUCCESS == rc && wu_buffer_remaining(&in) > 0) {
        one = 1;
        rc = wu_obfr_unpack(&in, bt, &range, &one, PMIX_DATA_RANGE);
    }
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = wu_pack(&out, &wcmd, 1, PMIX_UINT8))) {
        rc = wu_event_pack(&out, code, &source, range, info, ninfo);
    }
    if (NULL != info) {
        wu_obfr_free(info, ninfo, PMIX_INFO);
        free(info);
    }
    if (PMIX_SUCCESS == rc) {
        wu_client_event_recv(out.base, out.used);
    } else {
        say("a message of the server could not be read (%s)", PMIx_Error_string(rc));
        wu_client_event_comm_failure();
    }
    wu_buffer_destruct(&out);
}
