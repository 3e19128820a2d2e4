/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_query.c -- PMIx_Query_info and PMIx_Query_info_nb.
 *
 * Each key of each query is answered here when this process knows the answer, and the rest go
 * to the server in one WU_CMD_QUERY. Answered here: PMIX_QUERY_SUPPORTED_KEYS,
 * PMIX_QUERY_ATTRIBUTE_SUPPORT (the client functions this library implements and, per
 * function, the attributes it honours, as comma-separated lists), any job-level key such as
 * PMIX_JOB_SIZE found in the store for the namespace of the PMIX_NSPACE qualifier (default: own;
 * PMIX_QUERY_REFRESH_CACHE skips the store), the versions of the Standard's ABI this library
 * implements (PMIX_QUERY_STABLE_ABI_VERSION, PMIX_QUERY_PROVISIONAL_ABI_VERSION; also before
 * PMIx_Init, in the blocking form, for a query of nothing else, as OpenPMIx 4.2), and for a
 * singleton also PMIX_QUERY_NAMESPACES and the (local) proc table. A connected client asks the
 * server for the namespaces and proc tables, which only the host knows.
 *
 * Results are a flat array of infos, one per answered key, each under the key that was asked
 * (the layout of the WU_CMD_QUERY reply). Status: PMIX_SUCCESS when every key was answered,
 * PMIX_QUERY_PARTIAL_SUCCESS when some were, PMIX_ERR_NOT_FOUND when none. */
#include "opal/util/wu_argv.h"
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void (*query_done_fn_t)(int status, pmix_info_t *info, size_t n, void *cbdata);

typedef struct {
    pmix_query_t *queries; /* deep copies */
    size_t nqueries;
    pmix_info_t *res;
    size_t nres, cap;
    size_t asked;
    query_done_fn_t done; /* takes ownership of the results */
    void *cbdata;
} query_req_t;

static const char *const client_functions =
    "PMIx_Init,PMIx_Initialized,PMIx_Finalize,PMIx_Abort,PMIx_Put,PMIx_Commit,PMIx_Fence,"
    "PMIx_Fence_nb,PMIx_Get,PMIx_Get_nb,PMIx_Store_internal,PMIx_Resolve_peers,"
    "PMIx_Resolve_nodes,PMIx_Query_info,PMIx_Query_info_nb,PMIx_Log,PMIx_Log_nb,"
    "PMIx_Job_control,PMIx_Job_control_nb";

#define QUERY_KEYS                                                                              \
    PMIX_QUERY_SUPPORTED_KEYS "," PMIX_QUERY_ATTRIBUTE_SUPPORT "," PMIX_QUERY_NAMESPACES        \
                              "," PMIX_QUERY_PROC_TABLE "," PMIX_QUERY_LOCAL_PROC_TABLE         \
                              "," PMIX_JOB_SIZE "," PMIX_NSPACE "," PMIX_QUERY_REFRESH_CACHE    \
                              "," PMIX_QUERY_STABLE_ABI_VERSION                                 \
                              "," PMIX_QUERY_PROVISIONAL_ABI_VERSION "," PMIX_QUERY_GROUP_NAMES \
                              "," PMIX_QUERY_GROUP_MEMBERSHIP

/* The versions of the Standard's stable and provisional ABI this library implements, as lists
 * of "MAJOR.MINOR": the answer of the OpenPMIx generation configure chose (--with-pmix-compat):
 * "0.0" as 4.2 answers, "5.0" as 5.0 does (this library has both ABIs). These two keys are
 * answered before PMIx_Init too. */
static const struct {
    const char *key, *answer;
} abi_keys[] = {
    {PMIX_QUERY_STABLE_ABI_VERSION, WU_PMIX_ABI_VERSION},
    {PMIX_QUERY_PROVISIONAL_ABI_VERSION, WU_PMIX_ABI_VERSION},
};

static const char *abi_answer(const char *key)
{
    for (size_t i = 0; i < sizeof abi_keys / sizeof abi_keys[0]; i++) {
        if (0 == strcmp(key, abi_keys[i].key)) {
            return abi_keys[i].answer;
        }
    }
    return NULL;
}

static const struct {
    const char *fn, *attrs;
} client_attrs[] = {
    {"PMIx_Init", ""},
    {"PMIx_Finalize", PMIX_EMBED_BARRIER},
    {"PMIx_Fence", PMIX_COLLECT_DATA "," PMIX_TIMEOUT},
    {"PMIx_Fence_nb", PMIX_COLLECT_DATA "," PMIX_TIMEOUT},
    {"PMIx_Get",
     PMIX_OPTIONAL "," PMIX_IMMEDIATE "," PMIX_TIMEOUT "," PMIX_GET_REFRESH_CACHE "," PMIX_NODE_INFO
                   "," PMIX_APP_INFO "," PMIX_HOSTNAME "," PMIX_NODEID "," PMIX_APPNUM},
    {"PMIx_Get_nb",
     PMIX_OPTIONAL "," PMIX_IMMEDIATE "," PMIX_TIMEOUT "," PMIX_GET_REFRESH_CACHE "," PMIX_NODE_INFO
                   "," PMIX_APP_INFO "," PMIX_HOSTNAME "," PMIX_NODEID "," PMIX_APPNUM},
    {"PMIx_Log", PMIX_LOG_STDERR "," PMIX_LOG_STDOUT "," PMIX_LOG_SYSLOG "," PMIX_LOG_LOCAL_SYSLOG
                                 "," PMIX_LOG_GLOBAL_SYSLOG "," PMIX_LOG_MSG "," PMIX_LOG_ONCE
                                 "," PMIX_LOG_SOURCE "," PMIX_LOG_SYSLOG_PRI "," PMIX_LOG_TIMESTAMP
                                 "," PMIX_LOG_GENERATE_TIMESTAMP},
    {"PMIx_Job_control",
     PMIX_REGISTER_CLEANUP "," PMIX_REGISTER_CLEANUP_DIR "," PMIX_CLEANUP_RECURSIVE},
    {"PMIx_Query_info", QUERY_KEYS},
};

static pmix_info_t *res_slot(query_req_t *q)
{
    if (q->nres == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 8;
        pmix_info_t *grown = realloc(q->res, cap * sizeof *grown);
        if (NULL == grown) {
            return NULL;
        }
        q->res = grown;
        q->cap = cap;
    }
    PMIX_INFO_CONSTRUCT(&q->res[q->nres]);
    return &q->res[q->nres++];
}

static bool answer_string(query_req_t *q, const char *key, const char *s)
{
    pmix_info_t *i = res_slot(q);
    if (NULL == i) {
        return false;
    }
    PMIx_Info_load(i, key, s, PMIX_STRING);
    return true;
}

static bool answer_attrs(query_req_t *q, const pmix_query_t *qry)
{
    const pmix_info_t *which = wu_info_find(qry->qualifiers, qry->nqual, PMIX_CLIENT_ATTRIBUTES);
    pmix_info_t *arr, *slot;
    pmix_data_array_t da;
    size_t n = 0;
    if (NULL == which || PMIX_STRING != which->value.type || NULL == which->value.data.string) {
        return answer_string(q, PMIX_QUERY_ATTRIBUTE_SUPPORT, client_functions);
    }
    PMIX_INFO_CREATE(arr, sizeof client_attrs / sizeof client_attrs[0]);
    if (NULL == arr) {
        return false;
    }
    for (size_t k = 0; k < sizeof client_attrs / sizeof client_attrs[0]; k++) {
        char **want = wu_argv_split(which->value.data.string, ',');
        for (int j = 0; NULL != want && NULL != want[j]; j++) {
            if (0 == strcmp(want[j], client_attrs[k].fn)) {
                PMIx_Info_load(&arr[n++], client_attrs[k].fn, client_attrs[k].attrs, PMIX_STRING);
                break;
            }
        }
        wu_argv_free(want);
    }
    da.type = PMIX_INFO;
    da.size = n;
    da.array = arr;
    if (NULL != (slot = res_slot(q))) {
        PMIx_Info_load(slot, PMIX_QUERY_ATTRIBUTE_SUPPORT, &da, PMIX_DATA_ARRAY);
    }
    PMIX_INFO_FREE(arr, sizeof client_attrs / sizeof client_attrs[0]);
    return NULL != slot;
}

static bool answer_proc_table(query_req_t *q, const char *key)
{
    pmix_proc_info_t pi;
    pmix_data_array_t da = {.type = PMIX_PROC_INFO, .size = 1, .array = &pi};
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    pmix_info_t *slot = res_slot(q);
    if (NULL == slot) {
        return false;
    }
    exe[n > 0 ? n : 0] = '\0';
    memset(&pi, 0, sizeof pi);
    pi.proc = wu_client.myproc;
    pi.hostname = wu_client.hostname;
    pi.executable_name = n > 0 ? exe : "unknown";
    pi.pid = getpid();
    pi.state = PMIX_PROC_STATE_RUNNING;
    PMIx_Info_load(slot, key, &da, PMIX_DATA_ARRAY); /* deep copy */
    return true;
}

static const char *qual_nspace(const pmix_query_t *qry)
{
    const pmix_info_t *ns = wu_info_find(qry->qualifiers, qry->nqual, PMIX_NSPACE);
    if (NULL != ns && PMIX_STRING == ns->value.type && NULL != ns->value.data.string &&
        '\0' != ns->value.data.string[0]) {
        return ns->value.data.string;
    }
    return wu_client.myproc.nspace;
}

/* The groups this process is in (a DATA_ARRAY of STRING), or the members of the one named by
 * the qualifier PMIX_GROUP_ID (a DATA_ARRAY of PROC): what this process knows, answered here. */
static bool answer_group(query_req_t *q, const pmix_query_t *qry, const char *key)
{
    const pmix_info_t *id = wu_info_find(qry->qualifiers, qry->nqual, PMIX_GROUP_ID);
    pmix_data_array_t *da;
    pmix_info_t *slot;
    if (0 == strcmp(key, PMIX_QUERY_GROUP_NAMES)) {
        char **names = NULL;
        size_t n;
        if (PMIX_SUCCESS != wu_client_group_names(&names)) {
            return false;
        }
        n = wu_argv_count(names);
        PMIX_DATA_ARRAY_CREATE(da, n, PMIX_STRING);
        if (NULL == da) {
            wu_argv_free(names);
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            ((char **)da->array)[i] = names[i]; /* taken */
        }
        free(names);
    } else {
        pmix_proc_t *m = NULL;
        size_t n = 0;
        if (NULL == id || PMIX_STRING != id->value.type || NULL == id->value.data.string ||
            PMIX_SUCCESS != wu_client_group_members(id->value.data.string, &m, &n)) {
            return false;
        }
        PMIX_DATA_ARRAY_CREATE(da, 0, PMIX_PROC);
        if (NULL == da) {
            PMIX_PROC_FREE(m, n);
            return false;
        }
        da->array = m;
        da->size = n;
    }
    if (NULL == (slot = res_slot(q))) {
        PMIX_DATA_ARRAY_FREE(da);
        return false;
    }
    PMIX_LOAD_KEY(slot->key, key);
    slot->value.type = PMIX_DATA_ARRAY;
    slot->value.data.darray = da;
    return true;
}

/* Answer one key here if possible. */
static bool answer_local(query_req_t *q, const pmix_query_t *qry, const char *key)
{
    bool single = WU_CLIENT_SINGLETON == wu_client.mode;
    const char *ns = qual_nspace(qry);
    pmix_value_t *v = NULL;
    const char *abi = abi_answer(key);
    bool found;
    if (NULL != abi) {
        return answer_string(q, key, abi);
    }
    if (0 == strcmp(key, PMIX_QUERY_SUPPORTED_KEYS)) {
        return answer_string(q, key, QUERY_KEYS);
    }
    if (0 == strcmp(key, PMIX_QUERY_ATTRIBUTE_SUPPORT)) {
        return answer_attrs(q, qry);
    }
    if (0 == strcmp(key, PMIX_QUERY_NAMESPACES)) {
        char **names = NULL, *all = NULL;
        bool ok = false;
        int rc = PMIX_ERR_NOT_FOUND;
        if (single) {
            wu_client_store_rdlock();
            rc = wu_client.gds->job_nspaces(wu_client.store, &names);
            wu_client_store_unlock();
        }
        if (PMIX_SUCCESS == rc && NULL != (all = wu_argv_join(names, ','))) {
            ok = answer_string(q, key, all);
        }
        free(all);
        wu_argv_free(names);
        return ok;
    }
    if (0 == strcmp(key, PMIX_QUERY_GROUP_NAMES) || 0 == strcmp(key, PMIX_QUERY_GROUP_MEMBERSHIP)) {
        return answer_group(q, qry, key);
    }
    if (0 == strcmp(key, PMIX_QUERY_PROC_TABLE) || 0 == strcmp(key, PMIX_QUERY_LOCAL_PROC_TABLE)) {
        return single && 0 == strcmp(ns, wu_client.myproc.nspace) && answer_proc_table(q, key);
    }
    if (0 == strncmp(key, "pmix.qry", 8) ||
        wu_info_flag(qry->qualifiers, qry->nqual, PMIX_QUERY_REFRESH_CACHE)) {
        return false;
    }
    wu_client_store_rdlock();
    found = PMIX_SUCCESS == wu_client.gds->fetch(wu_client.store, ns, PMIX_RANK_WILDCARD, key, &v);
    wu_client_store_unlock();
    if (found) {
        pmix_info_t *slot = res_slot(q);
        if (NULL != slot) {
            PMIX_LOAD_KEY(slot->key, key);
            (void)PMIx_Value_xfer(&slot->value, v);
        }
        PMIX_VALUE_RELEASE(v);
        return NULL != slot;
    }
    return false;
}

static void query_free(query_req_t *q)
{
    if (NULL != q->queries) {
        PMIX_QUERY_FREE(q->queries, q->nqueries);
    }
    if (NULL != q->res) {
        for (size_t i = 0; i < q->nres; i++) {
            PMIX_INFO_DESTRUCT(&q->res[i]);
        }
        free(q->res);
    }
    free(q);
}

static void query_finish(query_req_t *q, int status)
{
    pmix_info_t *res = q->res;
    size_t n = q->nres;
    if (PMIX_SUCCESS == status) {
        status = 0 == n          ? PMIX_ERR_NOT_FOUND
                 : n >= q->asked ? PMIX_SUCCESS
                                 : PMIX_QUERY_PARTIAL_SUCCESS;
    } else if (0 < n) {
        status = PMIX_QUERY_PARTIAL_SUCCESS; /* the server failed, local answers stand */
    }
    q->res = NULL;
    q->nres = 0;
    q->done(status, res, n, q->cbdata);
    query_free(q);
}

static void query_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    query_req_t *q = cbdata;
    pmix_info_t *info = NULL;
    size_t n = 0;
    if (PMIX_SUCCESS == status) {
        status = wu_proto_unpack_list(reply, (void **)&info, &n, PMIX_INFO);
    }
    for (size_t i = 0; PMIX_SUCCESS == status && i < n; i++) {
        pmix_info_t *slot = res_slot(q);
        if (NULL == slot) {
            status = PMIX_ERR_NOMEM;
            break;
        }
        (void)wu_info_copy(slot, &info[i]);
    }
    if (NULL != info) {
        PMIX_INFO_FREE(info, n);
    }
    /* a server that answers nothing the client could not is not an error of the query */
    query_finish(q, PMIX_ERR_NOT_FOUND == status || PMIX_ERR_NOT_SUPPORTED == status ? PMIX_SUCCESS
                                                                                     : status);
}

static void query_fn(void *arg)
{
    query_req_t *q = arg;
    pmix_query_t *rest = NULL;
    size_t nrest = 0;
    wu_buffer_t b;
    int rc;

    PMIX_QUERY_CREATE(rest, q->nqueries);
    if (NULL == rest) {
        query_finish(q, PMIX_ERR_NOMEM);
        return;
    }
    for (size_t i = 0; i < q->nqueries; i++) {
        pmix_query_t *qry = &q->queries[i];
        char **keys = NULL;
        for (char **k = qry->keys; NULL != k && NULL != *k; k++) {
            q->asked++;
            if (!answer_local(q, qry, *k)) {
                (void)wu_argv_append(&keys, *k);
            }
        }
        if (NULL != keys) {
            rest[nrest].keys = keys;
            if (0 < qry->nqual) {
                PMIX_INFO_CREATE(rest[nrest].qualifiers, qry->nqual);
                for (size_t j = 0; NULL != rest[nrest].qualifiers && j < qry->nqual; j++) {
                    (void)wu_info_copy(&rest[nrest].qualifiers[j], &qry->qualifiers[j]);
                }
                rest[nrest].nqual = NULL != rest[nrest].qualifiers ? qry->nqual : 0;
            }
            nrest++;
        }
    }
    if (0 == nrest || WU_CLIENT_CONNECTED != wu_client.mode) {
        PMIX_QUERY_FREE(rest, q->nqueries);
        query_finish(q, PMIX_SUCCESS);
        return;
    }
    rc = wu_client_msg_start(&b, WU_CMD_QUERY);
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, rest, nrest, PMIX_QUERY);
    }
    PMIX_QUERY_FREE(rest, q->nqueries);
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
    } else {
        rc = wu_client_request(&b, 0, query_reply, q);
    }
    if (PMIX_SUCCESS != rc) {
        query_finish(q, rc);
    }
}

static int query_start(pmix_query_t queries[], size_t nqueries, query_done_fn_t done, void *cbdata)
{
    query_req_t *q;
    int rc;
    if (NULL == queries || 0 == nqueries) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < nqueries; i++) {
        if (NULL == queries[i].keys || NULL == queries[i].keys[0] ||
            (NULL == queries[i].qualifiers && 0 < queries[i].nqual)) {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == (q = calloc(1, sizeof *q))) {
        return PMIX_ERR_NOMEM;
    }
    PMIX_QUERY_CREATE(q->queries, nqueries);
    if (NULL == q->queries) {
        free(q);
        return PMIX_ERR_NOMEM;
    }
    q->nqueries = nqueries;
    for (size_t i = 0; i < nqueries; i++) {
        q->queries[i].keys = wu_argv_copy(queries[i].keys);
        if (0 < queries[i].nqual) {
            PMIX_INFO_CREATE(q->queries[i].qualifiers, queries[i].nqual);
            for (size_t j = 0; NULL != q->queries[i].qualifiers && j < queries[i].nqual; j++) {
                (void)wu_info_copy(&q->queries[i].qualifiers[j], &queries[i].qualifiers[j]);
            }
            q->queries[i].nqual = NULL != q->queries[i].qualifiers ? queries[i].nqual : 0;
        }
    }
    q->done = done;
    q->cbdata = cbdata;
    if (PMIX_SUCCESS != (rc = wu_client_shift(query_fn, q))) {
        query_free(q);
    }
    return rc;
}

typedef struct {
    pmix_info_t *info;
    size_t n;
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
} query_nb_t;

static void query_nb_release(void *arg)
{
    query_nb_t *nb = arg;
    if (NULL != nb->info) {
        PMIX_INFO_FREE(nb->info, nb->n);
    }
    free(nb);
}

static void query_nb_done(int status, pmix_info_t *info, size_t n, void *cbdata)
{
    query_nb_t *nb = cbdata;
    nb->info = info;
    nb->n = n;
    nb->cbfunc(status, info, n, nb->cbdata, query_nb_release, nb);
}

/* wu-api: partial issue=later: namespaces, proc tables, job data, groups; no allocations, status */
pmix_status_t PMIx_Query_info_nb(pmix_query_t queries[], size_t nqueries, pmix_info_cbfunc_t cbfunc,
                                 void *cbdata)
{
    query_nb_t *nb;
    int rc;
    if (NULL == cbfunc) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (nb = calloc(1, sizeof *nb))) {
        return PMIX_ERR_NOMEM;
    }
    nb->cbfunc = cbfunc;
    nb->cbdata = cbdata;
    if (PMIX_SUCCESS != (rc = query_start(queries, nqueries, query_nb_done, nb))) {
        free(nb);
    }
    return rc;
}

typedef struct {
    wu_wait_t wait;
    pmix_info_t *info;
    size_t n;
} query_blk_t;

static void query_blk_done(int status, pmix_info_t *info, size_t n, void *cbdata)
{
    query_blk_t *b = cbdata;
    b->info = info;
    b->n = n;
    wu_wait_release(&b->wait, status);
}

/* Before PMIx_Init only the ABI versions are known; a query of anything else is refused. */
static int query_pre_init(pmix_query_t queries[], size_t nqueries, pmix_info_t **results,
                          size_t *nresults)
{
    query_req_t q = {.res = NULL, .nres = 0, .cap = 0};
    if (NULL == queries || 0 == nqueries) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < nqueries; i++) {
        if (NULL == queries[i].keys || NULL == queries[i].keys[0]) {
            return PMIX_ERR_BAD_PARAM;
        }
        for (char **k = queries[i].keys; NULL != *k; k++) {
            if (NULL == abi_answer(*k)) {
                return PMIX_ERR_INIT;
            }
        }
    }
    for (size_t i = 0; i < nqueries; i++) {
        for (char **k = queries[i].keys; NULL != *k; k++) {
            if (!answer_string(&q, *k, abi_answer(*k))) {
                for (size_t j = 0; j < q.nres; j++) {
                    PMIX_INFO_DESTRUCT(&q.res[j]);
                }
                free(q.res);
                return PMIX_ERR_NOMEM;
            }
        }
    }
    *results = q.res;
    *nresults = q.nres;
    return PMIX_SUCCESS;
}

/* wu-api: partial issue=later: namespaces, proc tables, job data, groups; no allocations, status */
pmix_status_t PMIx_Query_info(pmix_query_t queries[], size_t nqueries, pmix_info_t **results,
                              size_t *nresults)
{
    query_blk_t b = {.info = NULL, .n = 0};
    int rc;
    if (NULL == results || NULL == nresults) {
        return PMIX_ERR_BAD_PARAM;
    }
    *results = NULL;
    *nresults = 0;
    if (wu_client_ready() && wu_progress_in_thread(wu_client.pt)) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    if (!wu_client_ready()) {
        return query_pre_init(queries, nqueries, results, nresults);
    }
    wu_wait_init(&b.wait);
    rc = query_start(queries, nqueries, query_blk_done, &b);
    if (PMIX_SUCCESS == rc) {
        rc = wu_wait_for(&b.wait, 0);
        if (0 < b.n) {
            *results = b.info;
            *nresults = b.n;
        } else {
            free(b.info);
        }
    }
    wu_wait_destroy(&b.wait);
    return rc;
}
