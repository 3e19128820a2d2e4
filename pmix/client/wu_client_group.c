/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_group.c -- the process-group API (PMIx_Group_*).
 *
 * PMIx_Group_construct and PMIx_Group_destruct are collectives of the members, run by the
 * server (wu_proto.h WU_CMD_GROUP_CONSTRUCT, _DESTRUCT) and, across nodes, its host; the
 * construct's results (PMIX_GROUP_CONTEXT_ID when PMIX_GROUP_ASSIGN_CONTEXT_ID asked for one,
 * PMIX_GROUP_MEMBERSHIP) are the same at every member. This process remembers the groups it
 * is in (their members, for the destruct and for PMIx_Query_info's PMIX_QUERY_GROUP_NAMES and
 * PMIX_QUERY_GROUP_MEMBERSHIP). A singleton has no server: a group of itself alone is made
 * here, any other is PMIX_ERR_UNREACH. Invite, join and leave: wu_client_group_invite.c. When
 * another member leaves (PMIX_GROUP_LEFT, a handler registered with the first group), it is
 * dropped from the group's members here. */
#include "pmix/client/wu_client.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_value.h"
#include "opal/util/wu_argv.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- the groups this process is in ------------------------------------------------------ */

typedef struct group {
    struct group *next;
    char name[PMIX_MAX_NSLEN + 1];
    pmix_proc_t *members;
    size_t nmembers;
} group_t;

static pthread_mutex_t groups_lock = PTHREAD_MUTEX_INITIALIZER;
static group_t *groups;

static group_t *find_locked(const char *name)
{
    for (group_t *g = groups; NULL != g; g = g->next) {
        if (0 == strcmp(g->name, name)) {
            return g;
        }
    }
    return NULL;
}

static bool left_handler; /* registered (progress thread) */

/* PMIX_GROUP_LEFT: the source is no longer a member of the group the event names. */
static void on_left(size_t ref, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                    size_t ninfo, pmix_info_t *results, size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    const pmix_info_t *id = wu_info_find(info, ninfo, PMIX_GROUP_ID);
    group_t *g;
    (void)ref, (void)status, (void)results, (void)nresults;
    pthread_mutex_lock(&groups_lock);
    if (NULL != id && PMIX_STRING == id->value.type && NULL != id->value.data.string &&
        NULL != (g = find_locked(id->value.data.string))) {
        size_t k = 0;
        for (size_t i = 0; i < g->nmembers; i++) {
            if (!PMIX_CHECK_PROCID(&g->members[i], source)) {
                g->members[k++] = g->members[i];
            }
        }
        g->nmembers = k;
    }
    pthread_mutex_unlock(&groups_lock);
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata); /* the application's handlers too */
    }
}

void wu_client_group_set(const char *name, const pmix_proc_t *members, size_t n)
{
    group_t *g = calloc(1, sizeof *g);
    pmix_status_t code = PMIX_GROUP_LEFT;
    if (NULL == g || NULL == (g->members = malloc(n * sizeof *members))) {
        free(g);
        return; /* the group works; only its destruct will not find it */
    }
    wu_client_group_forget(name);
    PMIX_LOAD_NSPACE(g->name, name);
    memcpy(g->members, members, n * sizeof *members);
    g->nmembers = n;
    pthread_mutex_lock(&groups_lock);
    g->next = groups;
    groups = g;
    pthread_mutex_unlock(&groups_lock);
    if (!left_handler && !wu_client.singleton) {
        /* (from the progress thread the call returns the handler's reference at once) */
        left_handler = 0 <= PMIx_Register_event_handler(&code, 1, NULL, 0, on_left, NULL, NULL);
    }
}

void wu_client_group_forget(const char *name)
{
    pthread_mutex_lock(&groups_lock);
    for (group_t **pg = &groups; NULL != *pg; pg = &(*pg)->next) {
        if (0 == strcmp((*pg)->name, name)) {
            group_t *g = *pg;
            *pg = g->next;
            free(g->members);
            free(g);
            break;
        }
    }
    pthread_mutex_unlock(&groups_lock);
}

int wu_client_group_names(char ***names)
{
    int rc = PMIX_SUCCESS;
    *names = NULL;
    pthread_mutex_lock(&groups_lock);
    for (group_t *g = groups; NULL != g && PMIX_SUCCESS == rc; g = g->next) {
        rc = WU_SUCCESS == wu_argv_append(names, g->name) ? PMIX_SUCCESS : PMIX_ERR_NOMEM;
    }
    pthread_mutex_unlock(&groups_lock);
    return rc;
}

int wu_client_group_members(const char *name, pmix_proc_t **members, size_t *n)
{
    group_t *g;
    int rc = PMIX_ERR_NOT_FOUND;
    *members = NULL;
    *n = 0;
    pthread_mutex_lock(&groups_lock);
    if (NULL != (g = find_locked(name))) {
        PMIX_PROC_CREATE(*members, g->nmembers);
        rc = NULL == *members ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
        if (NULL != *members) {
            memcpy(*members, g->members, g->nmembers * sizeof **members);
            *n = g->nmembers;
        }
    }
    pthread_mutex_unlock(&groups_lock);
    return rc;
}

int wu_client_group_expand(const pmix_proc_t *procs, size_t n, pmix_proc_t **out, size_t *nout)
{
    size_t total = 0, k = 0;
    bool any = false;
    int rc = PMIX_SUCCESS;
    *out = NULL;
    *nout = 0;
    pthread_mutex_lock(&groups_lock);
    for (size_t i = 0; i < n; i++) {
        group_t *g = find_locked(procs[i].nspace);
        any = any || NULL != g;
        total += NULL == g || PMIX_RANK_WILDCARD != procs[i].rank ? 1 : g->nmembers;
    }
    if (any && 0 < total) {
        PMIX_PROC_CREATE(*out, total);
        rc = NULL == *out ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    }
    for (size_t i = 0; any && PMIX_SUCCESS == rc && i < n; i++) {
        group_t *g = find_locked(procs[i].nspace);
        if (NULL == g) {
            (*out)[k++] = procs[i];
        } else if (PMIX_RANK_WILDCARD == procs[i].rank) {
            memcpy(*out + k, g->members, g->nmembers * sizeof **out);
            k += g->nmembers;
        } else if (procs[i].rank < g->nmembers) {
            (*out)[k++] = g->members[procs[i].rank]; /* a group's rank r: its r-th member */
        } else {
            rc = PMIX_ERR_BAD_PARAM;
        }
    }
    pthread_mutex_unlock(&groups_lock);
    if (PMIX_SUCCESS != rc && NULL != *out) {
        PMIX_PROC_FREE(*out, total);
        *out = NULL;
    }
    *nout = PMIX_SUCCESS == rc ? k : 0;
    return any ? rc : PMIX_ERR_NOT_FOUND;
}

void wu_client_groups_clear(void)
{
    left_handler = false; /* finalize drops the handlers */
    pthread_mutex_lock(&groups_lock);
    while (NULL != groups) {
        group_t *g = groups;
        groups = g->next;
        free(g->members);
        free(g);
    }
    pthread_mutex_unlock(&groups_lock);
}

/* ---- a request ------------------------------------------------------------------------------ */

typedef struct {
    int cmd;
    char name[PMIX_MAX_NSLEN + 1];
    pmix_proc_t *procs;
    size_t nprocs;
    pmix_info_t *info;
    size_t ninfo;
    pmix_info_cbfunc_t infofn; /* construct */
    pmix_op_cbfunc_t opfn;     /* destruct */
    void *cbdata;
} grp_req_t;

static void req_free(grp_req_t *r)
{
    free(r->procs);
    if (NULL != r->info) {
        PMIX_INFO_FREE(r->info, r->ninfo);
    }
    free(r);
}

static void finish(grp_req_t *r, pmix_status_t status, pmix_info_t *res, size_t nres)
{
    if (PMIX_SUCCESS == status) {
        if (WU_CMD_GROUP_CONSTRUCT == r->cmd) {
            wu_client_group_set(r->name, r->procs, r->nprocs);
        } else {
            wu_client_group_forget(r->name);
        }
    }
    if (NULL != r->infofn) {
        r->infofn(status, res, nres, r->cbdata, NULL, NULL);
    } else if (NULL != r->opfn) {
        r->opfn(status, r->cbdata);
    }
    req_free(r);
}

static void grp_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    grp_req_t *r = cbdata;
    pmix_info_t *res = NULL;
    size_t nres = 0;
    if (PMIX_SUCCESS == status && WU_CMD_GROUP_CONSTRUCT == r->cmd &&
        (NULL == reply ||
         PMIX_SUCCESS != wu_proto_unpack_list(reply, (void **)&res, &nres, PMIX_INFO) ||
         0 != wu_buffer_remaining(reply))) {
        status = PMIX_ERR_UNPACK_FAILURE;
    }
    finish(r, status, res, nres);
    if (NULL != res) {
        PMIX_INFO_FREE(res, nres);
    }
}

static void grp_send(void *arg)
{
    grp_req_t *r = arg;
    const char *name = r->name;
    wu_buffer_t b;
    int rc = wu_client_msg_start(&b, r->cmd);
    rc = PMIX_SUCCESS == rc ? wu_pack(&b, &name, 1, PMIX_STRING) : rc;
    rc = PMIX_SUCCESS == rc ? wu_proto_pack_list(&b, r->procs, r->nprocs, PMIX_PROC) : rc;
    rc = PMIX_SUCCESS == rc ? wu_proto_pack_list(&b, r->info, r->ninfo, PMIX_INFO) : rc;
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
    } else {
        rc = wu_client_request(&b, 0, grp_reply, r);
    }
    if (PMIX_SUCCESS != rc) {
        finish(r, rc, NULL, 0);
    }
}

/* A singleton's group of itself alone: its results made here (progress thread). */
static void grp_alone(void *arg)
{
    grp_req_t *r = arg;
    static size_t ctx;
    pmix_info_t res[2];
    pmix_data_array_t members = {.type = PMIX_PROC, .size = r->nprocs, .array = r->procs};
    size_t n = 0;
    if (WU_CMD_GROUP_CONSTRUCT != r->cmd) {
        finish(r, PMIX_SUCCESS, NULL, 0);
        return;
    }
    if (wu_info_flag(r->info, r->ninfo, PMIX_GROUP_ASSIGN_CONTEXT_ID)) {
        size_t id = ++ctx;
        PMIX_INFO_LOAD(&res[n++], PMIX_GROUP_CONTEXT_ID, &id, PMIX_SIZE);
    }
    PMIX_INFO_CONSTRUCT(&res[n]);
    PMIX_LOAD_KEY(res[n].key, PMIX_GROUP_MEMBERSHIP);
    res[n].value.type = PMIX_DATA_ARRAY;
    res[n].value.data.darray = &members; /* lent to the callback */
    n++;
    finish(r, PMIX_SUCCESS, res, n);
    res[n - 1].value.type = PMIX_UNDEF;
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&res[i]);
    }
}

static bool is_me(const pmix_proc_t *p)
{
    return PMIX_CHECK_NSPACE(p->nspace, wu_client.myproc.nspace) &&
           (p->rank == wu_client.myproc.rank || PMIX_RANK_WILDCARD == p->rank);
}

/* Check, copy and send; r is freed on failure. */
static pmix_status_t start(grp_req_t *r, const char grp[], const pmix_proc_t procs[], size_t nprocs,
                           const pmix_info_t info[], size_t ninfo)
{
    pmix_status_t rc = PMIX_SUCCESS;
    bool alone = true, mine = false;
    for (size_t i = 0; i < nprocs; i++) {
        alone = alone && is_me(&procs[i]);
        mine = mine || is_me(&procs[i]);
    }
    if (NULL == grp || '\0' == grp[0] || strlen(grp) > PMIX_MAX_NSLEN || NULL == procs ||
        0 == nprocs || (NULL == info && 0 < ninfo)) {
        rc = PMIX_ERR_BAD_PARAM;
    } else if (!wu_client_ready()) {
        rc = PMIX_ERR_INIT;
    } else if (!mine) {
        rc = PMIX_ERR_BAD_PARAM; /* a member constructs its group */
    } else if (wu_client.singleton && !alone) {
        rc = PMIX_ERR_UNREACH;
    } else if (NULL == (r->procs = malloc(nprocs * sizeof *procs))) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS == rc) {
        PMIX_LOAD_NSPACE(r->name, grp);
        memcpy(r->procs, procs, nprocs * sizeof *procs);
        r->nprocs = nprocs;
        rc = wu_info_dup(&r->info, &r->ninfo, info, ninfo);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_client_shift(wu_client.singleton ? grp_alone : grp_send, r);
    }
    if (PMIX_SUCCESS != rc) {
        req_free(r);
    }
    return rc;
}

pmix_status_t PMIx_Group_construct_nb(const char grp[], const pmix_proc_t procs[], size_t nprocs,
                                      const pmix_info_t info[], size_t ninfo,
                                      pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    grp_req_t *r = calloc(1, sizeof *r);
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    r->cmd = WU_CMD_GROUP_CONSTRUCT;
    r->infofn = cbfunc;
    r->cbdata = cbdata;
    return start(r, grp, procs, nprocs, info, ninfo);
}

pmix_status_t PMIx_Group_destruct_nb(const char grp[], const pmix_info_t info[], size_t ninfo,
                                     pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    grp_req_t *r;
    pmix_proc_t *members = NULL;
    size_t n = 0;
    pmix_status_t rc;
    if (NULL == grp) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = wu_client_group_members(grp, &members, &n))) {
        return rc; /* not a group of this process */
    }
    if (NULL == (r = calloc(1, sizeof *r))) {
        PMIX_PROC_FREE(members, n);
        return PMIX_ERR_NOMEM;
    }
    r->cmd = WU_CMD_GROUP_DESTRUCT;
    r->opfn = cbfunc;
    r->cbdata = cbdata;
    rc = start(r, grp, members, n, info, ninfo);
    PMIX_PROC_FREE(members, n);
    return rc;
}

/* ---- the blocking forms ------------------------------------------------------------------ */

pmix_status_t PMIx_Group_construct(const char grp[], const pmix_proc_t procs[], size_t nprocs,
                                   const pmix_info_t directives[], size_t ndirs,
                                   pmix_info_t **results, size_t *nresults)
{
    wu_client_blk_t b;
    pmix_status_t rc = wu_client_blk_begin(&b, results, nresults);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    return wu_client_blk_wait(
        &b, PMIx_Group_construct_nb(grp, procs, nprocs, directives, ndirs, wu_client_blk_info, &b));
}

pmix_status_t PMIx_Group_destruct(const char grp[], const pmix_info_t info[], size_t ninfo)
{
    wu_client_blk_t b;
    pmix_status_t rc = wu_client_blk_begin(&b, NULL, NULL);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    return wu_client_blk_wait(&b, PMIx_Group_destruct_nb(grp, info, ninfo, wu_client_blk_op, &b));
}
