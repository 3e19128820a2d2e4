/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_client_data.c -- PMIx_Put, PMIx_Commit, PMIx_Store_internal, PMIx_Get and PMIx_Get_nb.
 *
 * Put stores the value in the client's own store at once (so the process's own Get sees it, and
 * the gds reserved-key rule of RFC0009 refuses undefined "pmix" keys) and stages it per scope;
 * Commit sends the staged local-scope (PMIX_LOCAL, PMIX_GLOBAL) and remote-scope (PMIX_REMOTE,
 * PMIX_GLOBAL) sets to the server, a value in both scopes once. PMIX_INTERNAL puts stay in this
 * process. A commit too large for the transport fails with PMIX_ERR_OUT_OF_RESOURCE and a
 * message naming the limit; its data are dropped, and the server is told, so that peers asking
 * for them get that error rather than wait.
 *
 * Get follows RFC0009: exactly one local lookup -- job-level data under PMIX_RANK_WILDCARD,
 * process data under its rank, node data (PMIX_NODE_INFO, or a PMIX_HOSTNAME / PMIX_NODEID
 * qualifier; the own node if none names one) and application data (PMIX_APP_INFO or a
 * PMIX_APPNUM qualifier; the own application if none) in their tables; a node key
 * (PMIX_LOCAL_PROCS, ...) a process's data lack is read from its node's. When that misses and
 * the data belongs to a peer (another rank, or another namespace's job-level data not cached
 * yet) the server is asked, unless PMIX_OPTIONAL (or, under Wireup's server, PMIX_IMMEDIATE)
 * says not to (PMIX_ERR_NOT_FOUND then); an OpenPMIx server is asked with PMIX_IMMEDIATE too.
 * The reply's value is cached, and so is the job-level data of a foreign namespace that comes
 * with it, so later job-level Gets about that namespace are local. A proc of NULL, an empty
 * namespace or rank PMIX_RANK_UNDEF mean the caller's namespace and its job-level data. A
 * NULL key with PMIX_RANK_WILDCARD returns all job-level data of the namespace as a
 * PMIX_DATA_ARRAY of PMIX_INFO (the Standard's "all values of the proc"; for a single rank this
 * library cannot list them and says PMIX_ERR_NOT_SUPPORTED).
 *
 * PMIx_Get does the local lookup in the caller's thread, under the store's read lock
 * (wu_client.store_lock), and shifts to the progress thread only to ask the server; so many
 * threads read at once, and a Get answered locally costs a hash lookup and a copy. PMIx_Put
 * stores and stages in the caller's thread too (the store's write lock, then
 * wu_client.stage_lock), and PMIx_Commit packs the staged data there and sends the request
 * from there as well, or hands it to the progress thread when something shifted earlier is
 * still on its way (wu_client_may_send_here); it never waits for the answer, only for room
 * when commits pile up (commit_wait_room). The progress thread holds the store's lock for
 * writing while it changes the store (a fence's data, a reply cached) and for reading while it
 * looks something up. PMIx_Get_nb always completes on the progress thread. */
#include "opal/util/wu_error.h"
#include "pmix/client/wu_client.h"
#include "opal/util/wu_show_help.h"
#include "opal/util/wu_time.h"
#include "pmix/common/wu_pack.h"
#include "pmix/common/wu_proto.h"
#include "pmix/common/wu_self.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- staged puts ----------------------------------------------------------------------- */

static int stage(int k, const char *key, const pmix_value_t *val)
{
    int rc;
    if (NULL == wu_client.staged[k] &&
        PMIX_SUCCESS != (rc = wu_client.gds->store_create(&wu_client.staged[k]))) {
        return rc;
    }
    return wu_client.gds->put(wu_client.staged[k], wu_client.myproc.nspace, wu_client.myproc.rank,
                              key, val);
}

/* Free the staged puts (stage_lock held). */
static void staged_clear(void)
{
    for (int k = 0; k < 2; k++) {
        if (NULL != wu_client.staged[k]) {
            wu_client.gds->store_release(wu_client.staged[k]);
            wu_client.staged[k] = NULL;
        }
    }
}

void wu_client_staged_clear(void)
{
    pthread_mutex_lock(&wu_client.stage_lock);
    staged_clear();
    pthread_mutex_unlock(&wu_client.stage_lock);
}

/* In the caller's thread: the value goes into the store (for this process's own Gets), then is
 * staged per scope for the next commit. */
pmix_status_t PMIx_Put(pmix_scope_t scope, const char key[], pmix_value_t *val)
{
    int rc;
    if (!wu_key_ok(key) || NULL == val || scope > PMIX_INTERNAL) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    wu_client_store_wrlock();
    rc = wu_client.gds->put(wu_client.store, wu_client.myproc.nspace, wu_client.myproc.rank, key,
                            val);
    wu_client_store_unlock();
    if (PMIX_SUCCESS != rc || PMIX_INTERNAL == scope) {
        return rc;
    }
    /* PMIX_SCOPE_UNDEF is taken as PMIX_GLOBAL, the widest */
    pthread_mutex_lock(&wu_client.stage_lock);
    if (PMIX_REMOTE != scope) {
        rc = stage(0, key, val);
    }
    if (PMIX_SUCCESS == rc && PMIX_LOCAL != scope) {
        rc = stage(1, key, val);
    }
    pthread_mutex_unlock(&wu_client.stage_lock);
    return rc;
}

/* ---- commit ---------------------------------------------------------------------------- */

/* Signalled at every commit's answer: under an OpenPMIx server PMIx_Commit waits for them. */
static pthread_mutex_t answered_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t answered = PTHREAD_COND_INITIALIZER;

/* The server's answer to a commit, which under Wireup's server nobody waits for (PMIx_Commit
 * returned when the data went out): a refusal is said; a connection lost meanwhile is said by
 * its own means. */
static void commit_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    (void)reply;
    (void)cbdata;
    pthread_mutex_lock(&answered_lock);
    atomic_fetch_sub(&wu_client.commits_out, 1);
    pthread_cond_broadcast(&answered);
    pthread_mutex_unlock(&answered_lock);
    if (PMIX_SUCCESS != status && PMIX_ERR_LOST_CONNECTION != status &&
        PMIX_ERR_UNREACH != status) {
        wu_show_help("help-wu-client.txt", "commit-refused", true, wu_client.myproc.nspace,
                     wu_client.myproc.rank, PMIx_Error_string(status));
    }
}

/* Send a commit request (counted in commits_out until its answer). */
static int commit_request(wu_buffer_t *b)
{
    int rc;
    atomic_fetch_add(&wu_client.commits_out, 1);
    if (PMIX_SUCCESS !=
        (rc = wu_client_request_opt(b, 0, commit_reply, NULL, WU_CLIENT_REQ_ANY_THREAD))) {
        atomic_fetch_sub(&wu_client.commits_out, 1); /* commit_reply will not run */
    }
    return rc;
}

/* Is key staged in the local scope with the value val has in the remote scope (a PMIX_GLOBAL
 * put)? Such a value is sent once, in the local-scope list. */
static bool staged_global(const char *key, const pmix_value_t *val)
{
    const pmix_value_t *lcl = NULL;
    return NULL != wu_client.staged[0] &&
           PMIX_SUCCESS == wu_client.gds->fetch_view(wu_client.staged[0], wu_client.myproc.nspace,
                                                     wu_client.myproc.rank, key, &lcl) &&
           PMIX_EQUAL == PMIx_Value_compare((pmix_value_t *)lcl, (pmix_value_t *)val);
}

typedef struct {
    wu_proto_list_t list;
    int k;       /* the scope walked: 0 local, 1 remote */
    bool global; /* remote scope: pack the global keys (named, BOOL true), else the others */
} staged_walk_t;

static pmix_status_t staged_one(const char *key, const pmix_value_t *val, void *ctx)
{
    staged_walk_t *w = ctx;
    pmix_value_t yes = {.type = PMIX_BOOL, .data.flag = true};
    if (1 == w->k && staged_global(key, val) != w->global) {
        return PMIX_SUCCESS;
    }
    return wu_proto_list_add(key, w->global ? &yes : val, &w->list);
}

/* One list of the COMMIT, key by key from the staged store of scope k (empty when !data). */
static int pack_staged(wu_buffer_t *b, int k, bool global, bool data)
{
    staged_walk_t w = {.k = k, .global = global};
    int rc = wu_proto_list_begin(&w.list, b);
    if (PMIX_SUCCESS == rc && data && NULL != wu_client.staged[k]) {
        rc = wu_client.gds->each_proc(wu_client.staged[k], wu_client.myproc.nspace,
                                      wu_client.myproc.rank, staged_one, &w);
        rc = PMIX_ERR_NOT_FOUND == rc ? PMIX_SUCCESS : rc; /* nothing staged */
    }
    return PMIX_SUCCESS == rc ? wu_proto_list_end(&w.list) : rc;
}

/* The COMMIT request: status, then the three lists of wu_proto.h (empty after a failure). */
static int commit_pack(wu_buffer_t *b, pmix_status_t status)
{
    bool ok = PMIX_SUCCESS == status;
    int rc = wu_client_msg_start(b, WU_CMD_COMMIT);
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(b, &status, 1, PMIX_STATUS);
    }
    if (PMIX_SUCCESS == rc) {
        rc = pack_staged(b, 0, false, ok);
    }
    if (PMIX_SUCCESS == rc) {
        rc = pack_staged(b, 1, false, ok);
    }
    if (PMIX_SUCCESS == rc) {
        rc = pack_staged(b, 1, true, ok);
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(b);
    }
    return rc;
}

/* Progress thread: send the packed commit handed over (a connection lost meanwhile is said by
 * its own means). */
static void commit_send(void *arg)
{
    wu_buffer_t *b = arg;
    (void)commit_request(b);
    free(b);
    atomic_fetch_sub(&wu_client.commits_out, 1); /* its count as handed over */
}

/* Commits a loop may have on their way before the next one waits: this many sent or handed
 * over and not answered by the server yet, or this many bytes of frames not written to the
 * socket yet (a server that reads slower than the loop commits). The first bounds what a
 * later fence of this process waits behind at the server, the second the memory. */
#define COMMITS_OUT_MAX     64
#define COMMITS_BACKLOG_MAX ((size_t)4 << 20)

/* Wait (not on the progress thread, which must do the sending) until the commits before this
 * one are within the bounds, the connection is lost, or WU_CLIENT_HANDSHAKE_TIMEOUT passed
 * (a server that stopped reading: the commit goes anyway, as a blocking write would not). */
static void commit_wait_room(void)
{
    double start = 0;
    if (wu_progress_in_thread(wu_client.pt)) {
        return;
    }
    while ((atomic_load(&wu_client.commits_out) >= COMMITS_OUT_MAX ||
            wu_ptl_conn_backlog(wu_client.conn) > COMMITS_BACKLOG_MAX) &&
           !atomic_load(&wu_client.lost)) {
        double now = wu_time_now();
        if (0 == start) {
            start = now;
        } else if (now - start > WU_CLIENT_HANDSHAKE_TIMEOUT) {
            break;
        }
        usleep(100);
    }
}

/* Hand the request in b to the progress thread (b is emptied). */
static int commit_hand_over(wu_buffer_t *b)
{
    wu_buffer_t *c = malloc(sizeof *c);
    int rc;
    if (NULL == c) {
        wu_buffer_destruct(b);
        return PMIX_ERR_NOMEM;
    }
    *c = *b;
    wu_buffer_construct(b);
    atomic_fetch_add(&wu_client.commits_out, 1);
    if (PMIX_SUCCESS != (rc = wu_client_shift(commit_send, c))) {
        atomic_fetch_sub(&wu_client.commits_out, 1);
        wu_buffer_destruct(c);
        free(c);
    }
    return rc;
}

/* Under an OpenPMIx server: wait (not on the progress thread, which reads the answers) until
 * every commit sent is answered, the connection is lost, or WU_CLIENT_HANDSHAKE_TIMEOUT passed.
 * OpenPMIx's client waits so too, and its servers depend on it: a fence request sent before the
 * commit's answer arrived was answered only some 40 ms later (the server's answer held back
 * until the client acknowledged the one before, which it does late when it sends nothing). */
static void commit_wait_answered(void)
{
    double start = wu_time_now();
    if (wu_progress_in_thread(wu_client.pt)) {
        return;
    }
    pthread_mutex_lock(&answered_lock);
    while (atomic_load(&wu_client.commits_out) > 0 && !atomic_load(&wu_client.lost) &&
           wu_time_now() - start < WU_CLIENT_HANDSHAKE_TIMEOUT) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000; /* looks at the loss and the time 10 times a second */
        if (until.tv_nsec >= 1000 * 1000 * 1000) {
            until.tv_sec++;
            until.tv_nsec -= 1000 * 1000 * 1000;
        }
        (void)pthread_cond_timedwait(&answered, &answered_lock, &until);
    }
    pthread_mutex_unlock(&answered_lock);
}

/* The commit is packed in the caller's thread and sent from there or handed to the progress
 * thread; under Wireup's server PMIx_Commit returns without waiting for the answer, under an
 * OpenPMIx server once it came (commit_wait_answered). Either way the request takes its place
 * in the connection's order, and the server reads this client's messages in order, so a fence
 * or a Get this process starts later finds the data stored. */
pmix_status_t PMIx_Commit(void)
{
    wu_buffer_t b;
    int rc;
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    commit_wait_room();
    /* Packed and sent (or handed over) under one hold of stage_lock: a commit that took
     * another thread's staged puts reaches the server before that thread's next commit and
     * fence, which then follow it in the connection's order. */
    pthread_mutex_lock(&wu_client.stage_lock);
    if (wu_client.singleton || atomic_load(&wu_client.lost)) {
        /* nobody to send them to (the data is in the store), or no server any more */
        staged_clear();
        pthread_mutex_unlock(&wu_client.stage_lock);
        return wu_client.singleton ? PMIX_SUCCESS : PMIX_ERR_UNREACH;
    }
    rc = commit_pack(&b, PMIX_SUCCESS);
    /* Either way the staged data are dropped, so that a later commit of other data can work */
    staged_clear();
    if (PMIX_SUCCESS == rc && !wu_client_msg_fits(&b)) {
        wu_buffer_destruct(&b);
        rc = PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (PMIX_SUCCESS == rc) {
        /* from here when nothing this thread shifted before is still on its way */
        rc = wu_client_may_send_here() ? commit_request(&b) : commit_hand_over(&b);
    } else if (PMIX_SUCCESS == commit_pack(&b, rc)) {
        /* after a failure the server learns of it, so that peers waiting for this process's
         * data get the error instead of waiting on */
        (void)commit_hand_over(&b);
    }
    pthread_mutex_unlock(&wu_client.stage_lock);
    if (PMIX_SUCCESS == rc && wu_client.opmix) {
        commit_wait_answered();
    }
    return rc;
}

/* A server process that is not a client (a host such as mpirun's) keeps and reads its own data
 * in the server (wu_self.h): the hooks, or NULL. */
static const wu_self_hooks_t *server_self(void)
{
    return wu_client_ready() ? NULL : wu_self_hooks();
}

/* The proc a server process asks about: NULL is the server itself. */
static pmix_proc_t self_target(const pmix_proc_t *proc)
{
    pmix_proc_t p;
    if (NULL != proc) {
        return *proc;
    }
    PMIX_LOAD_PROCID(&p, "", PMIX_RANK_UNDEF);
    return p;
}

/* ---- store internal -------------------------------------------------------------------- */

typedef struct {
    const pmix_proc_t *proc;
    const char *key;
    const pmix_value_t *val;
} store_t;

static int store_fn(void *arg)
{
    store_t *s = arg;
    const char *ns = '\0' == s->proc->nspace[0] ? wu_client.myproc.nspace : s->proc->nspace;
    int rc;
    wu_client_store_wrlock();
    rc = wu_client.gds->put(wu_client.store, ns, s->proc->rank, s->key, s->val);
    wu_client_store_unlock();
    return rc;
}

pmix_status_t PMIx_Store_internal(const pmix_proc_t *proc, const char key[], pmix_value_t *val)
{
    store_t s = {proc, key, val};
    const wu_self_hooks_t *self;
    if (NULL == proc || !wu_key_ok(key) || NULL == val ||
        PMIX_MAX_NSLEN < strnlen(proc->nspace, PMIX_MAX_NSLEN + 1) ||
        (!PMIX_RANK_IS_VALID(proc->rank) && PMIX_RANK_WILDCARD != proc->rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL != (self = server_self())) {
        return self->store(proc, key, val);
    }
    return wu_client_call(store_fn, &s);
}

/* ---- get ------------------------------------------------------------------------------- */

typedef void (*get_done_fn_t)(int status, pmix_value_t *val, void *cbdata);

typedef struct {
    pmix_proc_t proc;
    char key[PMIX_MAX_KEYLEN + 1];
    bool nullkey;
    pmix_info_t *info;
    size_t ninfo;
    get_done_fn_t done; /* takes ownership of val */
    void *cbdata;
} get_req_t;

static void get_finish(get_req_t *g, int status, pmix_value_t *val)
{
    g->done(status, val, g->cbdata);
    if (NULL != g->info) {
        PMIX_INFO_FREE(g->info, g->ninfo);
    }
    free(g);
}

/* All job-level data of nspace as one PMIX_DATA_ARRAY of PMIX_INFO. */
static int get_all_job(const char *nspace, pmix_value_t **out)
{
    pmix_info_t *info;
    size_t n;
    int rc = wu_client.gds->export_proc(wu_client.store, nspace, PMIX_RANK_WILDCARD, &info, &n);
    return PMIX_SUCCESS != rc ? rc : wu_value_info_array(info, n, out);
}

static bool qual_u32(const pmix_info_t *i, uint32_t *out)
{
    if (NULL == i) {
        return false;
    }
    switch (i->value.type) {
    case PMIX_UINT32:
        *out = i->value.data.uint32;
        return true;
    case PMIX_UINT16:
        *out = i->value.data.uint16;
        return true;
    case PMIX_INT:
        *out = (uint32_t)i->value.data.integer;
        return i->value.data.integer >= 0;
    case PMIX_PROC_RANK:
        *out = i->value.data.rank;
        return true;
    default:
        return false;
    }
}

/* Keys that describe a node: asked of one process, they are answered from the data of the node
 * it runs on when its own data lack them (as OpenPMIx does; PMIx 5 programs ask for
 * PMIX_LOCAL_PROCS with their own rank). */
static bool node_key(const char *key)
{
    static const char *const keys[] = {
        PMIX_LOCAL_PEERS,      PMIX_LOCAL_PROCS,       PMIX_LOCAL_CPUSETS,
        PMIX_LOCAL_SIZE,       PMIX_NODE_SIZE,         PMIX_LOCALLDR,
        PMIX_HOSTNAME_ALIASES, PMIX_AVAIL_PHYS_MEMORY, PMIX_NODE_OVERSUBSCRIBED};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (0 == strcmp(key, keys[i])) {
            return true;
        }
    }
    return false;
}

/* A node key of process rank of ns from the data of its node (found by its PMIX_HOSTNAME). */
static int fetch_node_of(const char *ns, pmix_rank_t rank, const char *key, pmix_value_t **val)
{
    pmix_value_t *host = NULL;
    int rc = wu_client.gds->fetch(wu_client.store, ns, rank, PMIX_HOSTNAME, &host);
    if (PMIX_SUCCESS == rc) {
        rc = PMIX_STRING == host->type && NULL != host->data.string
                 ? wu_client.gds->fetch_node(wu_client.store, ns, host->data.string,
                                             WU_GDS_NODEID_NONE, key, val)
                 : PMIX_ERR_NOT_FOUND;
    }
    if (NULL != host) {
        PMIX_VALUE_RELEASE(host);
    }
    return rc;
}

/* The one local lookup. *ask says whether a miss may be answered by the server. */
static int get_local(get_req_t *g, pmix_value_t **val, bool *ask)
{
    const pmix_info_t *host = wu_info_find(g->info, g->ninfo, PMIX_HOSTNAME);
    const pmix_info_t *nodeid = wu_info_find(g->info, g->ninfo, PMIX_NODEID);
    const pmix_info_t *appnum = wu_info_find(g->info, g->ninfo, PMIX_APPNUM);
    const char *ns = g->proc.nspace;
    bool mine = 0 == strcmp(ns, wu_client.myproc.nspace);
    int rc;

    *ask = false;
    if (g->nullkey) {
        return PMIX_RANK_WILDCARD == g->proc.rank ? get_all_job(ns, val) : PMIX_ERR_NOT_SUPPORTED;
    }
    if (wu_info_flag(g->info, g->ninfo, PMIX_NODE_INFO) || NULL != host || NULL != nodeid) {
        uint32_t id = WU_GDS_NODEID_NONE;
        const char *name = NULL;
        if (NULL != host && PMIX_STRING == host->value.type && NULL != host->value.data.string) {
            name = host->value.data.string;
        } else if (!qual_u32(nodeid, &id)) {
            name = wu_client.hostname; /* no node named: this process's node */
        }
        return wu_client.gds->fetch_node(wu_client.store, ns, name, id, g->key, val);
    }
    if (wu_info_flag(g->info, g->ninfo, PMIX_APP_INFO) || NULL != appnum) {
        uint32_t app = 0;
        if (!qual_u32(appnum, &app)) {
            pmix_value_t *mine_v = NULL;
            if (PMIX_SUCCESS == wu_client.gds->fetch(wu_client.store, wu_client.myproc.nspace,
                                                     wu_client.myproc.rank, PMIX_APPNUM, &mine_v) &&
                PMIX_UINT32 == mine_v->type) {
                app = mine_v->data.uint32;
            }
            if (NULL != mine_v) {
                PMIX_VALUE_RELEASE(mine_v);
            }
        }
        return wu_client.gds->fetch_app(wu_client.store, ns, app, g->key, val);
    }
    /* only a peer's data can come from the server */
    if (PMIX_RANK_WILDCARD == g->proc.rank) {
        *ask = !mine && !wu_client.gds->has_proc(wu_client.store, ns, PMIX_RANK_WILDCARD);
    } else {
        *ask = !(mine && g->proc.rank == wu_client.myproc.rank);
    }
    /* PMIX_OPTIONAL: this process's store only; so PMIX_IMMEDIATE under Wireup's server, whose
     * fences bring the peers' data. Under an OpenPMIx server PMIX_IMMEDIATE still asks it
     * (it answers at once from what it holds): Open MPI 5's sm BTL reads a local peer's
     * endpoint so, and an OpenPMIx server's fence does not bring the local peers' data */
    if (wu_info_flag(g->info, g->ninfo, PMIX_OPTIONAL) ||
        (!wu_client.opmix && wu_info_flag(g->info, g->ninfo, PMIX_IMMEDIATE))) {
        *ask = false;
    } else if (*ask && wu_client.opmix && 0 == strncmp(g->key, "pmix", 4) &&
               wu_client.gds->has_proc(wu_client.store, ns, PMIX_RANK_WILDCARD)) {
        /* an OpenPMIx server gave a known namespace's reserved keys with its job data, and
         * would wait for one it lacks: not found (as OpenPMIx's own client answers) */
        *ask = false;
    } else if (*ask && wu_info_flag(g->info, g->ninfo, PMIX_GET_REFRESH_CACHE)) {
        return PMIX_ERR_NOT_FOUND; /* skip the cache: ask the server again */
    }
    rc = wu_client.gds->fetch(wu_client.store, ns, g->proc.rank, g->key, val);
    if (PMIX_ERR_NOT_FOUND == rc && PMIX_RANK_WILDCARD != g->proc.rank && node_key(g->key)) {
        rc = fetch_node_of(ns, g->proc.rank, g->key, val);
    }
    if (PMIX_ERR_NOT_FOUND != rc) {
        *ask = false;
    }
    return rc;
}

static void get_reply(int status, wu_buffer_t *reply, void *cbdata)
{
    get_req_t *g = cbdata;
    pmix_value_t *v = NULL, *cur = NULL;
    pmix_info_t *job = NULL;
    size_t njob = 0;
    int32_t one = 1;

    if (PMIX_SUCCESS == status) {
        if (NULL == (v = calloc(1, sizeof *v))) {
            status = PMIX_ERR_NOMEM;
        } else {
            status = wu_unpack(reply, v, &one, PMIX_VALUE);
        }
    }
    if (PMIX_SUCCESS == status) {
        status = wu_proto_unpack_list(reply, (void **)&job, &njob, PMIX_INFO);
    }
    if (PMIX_SUCCESS == status) {
        const char *ns = g->proc.nspace;
        wu_client_store_wrlock();
        if (0 != strcmp(ns, wu_client.myproc.nspace)) {
            /* RFC0009: the foreign namespace's job-level data came along: cache it (none
             * came with a proc's value: the namespace stays unknown, ask again next time) */
            if (0 < njob || PMIX_RANK_WILDCARD == g->proc.rank) {
                (void)wu_client.gds->import_job(wu_client.store, ns, job, njob);
            }
        }
        if (PMIX_RANK_WILDCARD == g->proc.rank) {
            pmix_info_t one_info;
            memset(&one_info, 0, sizeof one_info);
            PMIX_LOAD_KEY(one_info.key, g->key);
            one_info.value = *v;
            (void)wu_client.gds->import_job(wu_client.store, ns, &one_info, 1);
        } else if (!wu_info_flag(g->info, g->ninfo, PMIX_GET_REFRESH_CACHE) &&
                   PMIX_SUCCESS ==
                       wu_client.gds->fetch(wu_client.store, ns, g->proc.rank, g->key, &cur)) {
            /* A value reached the store while g was asked for (a fence's data, or another
             * thread's Get): it stays, and the caller gets it rather than the reply, which can
             * be older than a fence's data that overtook it. So a later Get never sees an older
             * value than this one. A refresh of the cache (PMIX_GET_REFRESH_CACHE) replaces it. */
            PMIX_VALUE_RELEASE(v);
            v = cur;
        } else if (!wu_gds_base_key_reserved(g->key)) {
            (void)wu_client.gds->put(wu_client.store, ns, g->proc.rank, g->key, v);
        }
        wu_client_store_unlock();
    }
    if (NULL != job) {
        PMIX_INFO_FREE(job, njob);
    }
    if (PMIX_SUCCESS != status && NULL != v) {
        PMIX_VALUE_RELEASE(v);
        v = NULL;
    }
    get_finish(g, status, v);
}

static int get_ask(get_req_t *g)
{
    wu_buffer_t b;
    const char *key = g->key;
    double t = wu_client_timeout(g->info, g->ninfo);
    int rc = wu_client_msg_start(&b, WU_CMD_GET);
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &g->proc, 1, PMIX_PROC);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_pack(&b, &key, 1, PMIX_STRING);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wu_proto_pack_list(&b, g->info, g->ninfo, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc) {
        wu_buffer_destruct(&b);
        return rc;
    }
    return wu_client_request(&b, t > 0 ? t + WU_CLIENT_TIMEOUT_GRACE : 0, get_reply, g);
}

/* Progress thread: look up, else ask. */
static void get_fn(void *arg)
{
    get_req_t *g = arg;
    pmix_value_t *v = NULL;
    bool ask;
    int rc;
    wu_client_store_rdlock();
    rc = get_local(g, &v, &ask);
    wu_client_store_unlock();
    if (PMIX_ERR_NOT_FOUND == rc && ask) {
        if (WU_CLIENT_CONNECTED != wu_client.mode) {
            rc = WU_CLIENT_LOST == wu_client.mode ? PMIX_ERR_UNREACH : rc;
        } else if (PMIX_SUCCESS == (rc = get_ask(g))) {
            return; /* get_reply finishes it */
        }
    }
    get_finish(g, rc, v);
}

/* Check a Get's arguments and set g's proc (the defaults applied), key and nullkey; g->info is
 * left alone. */
static int get_args(const pmix_proc_t *proc, const char *key, const pmix_info_t info[],
                    size_t ninfo, get_req_t *g)
{
    if ((NULL != key && !wu_key_ok(key)) || (NULL == info && 0 < ninfo) ||
        (NULL != proc && PMIX_MAX_NSLEN < strnlen(proc->nspace, PMIX_MAX_NSLEN + 1))) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL != proc && !PMIX_RANK_IS_VALID(proc->rank) && PMIX_RANK_WILDCARD != proc->rank &&
        PMIX_RANK_UNDEF != proc->rank) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!wu_client_ready()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == proc || '\0' == proc->nspace[0]) {
        PMIX_LOAD_NSPACE(g->proc.nspace, wu_client.myproc.nspace);
    } else {
        PMIX_LOAD_NSPACE(g->proc.nspace, proc->nspace);
    }
    g->proc.rank = NULL == proc || PMIX_RANK_UNDEF == proc->rank ? PMIX_RANK_WILDCARD : proc->rank;
    g->nullkey = NULL == key;
    if (NULL != key) {
        PMIX_LOAD_KEY(g->key, key);
    }
    return PMIX_SUCCESS;
}

static int get_new(const pmix_proc_t *proc, const char *key, const pmix_info_t info[], size_t ninfo,
                   get_done_fn_t done, void *cbdata, get_req_t **out)
{
    get_req_t *g = calloc(1, sizeof *g);
    int rc;
    if (NULL == g) {
        return PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != (rc = get_args(proc, key, info, ninfo, g))) {
        free(g);
        return rc;
    }
    if (0 < ninfo) {
        PMIX_INFO_CREATE(g->info, ninfo);
        if (NULL == g->info) {
            free(g);
            return PMIX_ERR_NOMEM;
        }
        g->ninfo = ninfo;
        for (size_t i = 0; i < ninfo; i++) {
            (void)wu_info_copy(&g->info[i], &info[i]);
        }
    }
    g->done = done;
    g->cbdata = cbdata;
    *out = g;
    return PMIX_SUCCESS;
}

typedef struct {
    pmix_value_cbfunc_t cbfunc;
    void *cbdata;
} get_nb_t;

static void get_nb_done(int status, pmix_value_t *val, void *cbdata)
{
    get_nb_t nb = *(get_nb_t *)cbdata;
    free(cbdata);
    nb.cbfunc(status, val, nb.cbdata);
    if (NULL != val) {
        PMIX_VALUE_RELEASE(val);
    }
}

pmix_status_t PMIx_Get_nb(const pmix_proc_t *proc, const char key[], const pmix_info_t info[],
                          size_t ninfo, pmix_value_cbfunc_t cbfunc, void *cbdata)
{
    get_nb_t *nb;
    get_req_t *g = NULL;
    const wu_self_hooks_t *self;
    int rc;
    if (NULL == cbfunc) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL != (self = server_self())) {
        pmix_proc_t p = self_target(proc);
        return NULL == key || wu_key_ok(key) ? self->get_nb(&p, key, cbfunc, cbdata)
                                             : PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (nb = malloc(sizeof *nb))) {
        return PMIX_ERR_NOMEM;
    }
    nb->cbfunc = cbfunc;
    nb->cbdata = cbdata;
    rc = get_new(proc, key, info, ninfo, get_nb_done, nb, &g);
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS != (rc = wu_client_shift(get_fn, g))) {
        PMIX_INFO_FREE(g->info, g->ninfo);
        free(g);
    }
    if (PMIX_SUCCESS != rc) {
        free(nb);
    }
    return rc;
}

typedef struct {
    wu_wait_t wait;
    pmix_value_t *val;
} get_blk_t;

static void get_blk_done(int status, pmix_value_t *val, void *cbdata)
{
    get_blk_t *b = cbdata;
    b->val = val;
    wu_wait_release(&b->wait, status);
}

/* The lookup in the caller's thread: PMIX_ERR_NOT_FOUND with *ask set when the server must be
 * asked, else the answer. Under store_lock, so that the store does not change during the
 * lookup (a Put of another thread, or the progress thread storing data). */
static int get_here(const pmix_proc_t *proc, const char *key, const pmix_info_t info[],
                    size_t ninfo, pmix_value_t **val, bool *ask)
{
    get_req_t q;
    int rc;
    *ask = false;
    memset(&q, 0, sizeof q);
    if (PMIX_SUCCESS != (rc = get_args(proc, key, info, ninfo, &q))) {
        return rc;
    }
    q.info = (pmix_info_t *)info; /* only read */
    q.ninfo = ninfo;
    wu_client_store_rdlock();
    rc = get_local(&q, val, ask);
    wu_client_store_unlock();
    return rc;
}

pmix_status_t PMIx_Get(const pmix_proc_t *proc, const char key[], const pmix_info_t info[],
                       size_t ninfo, pmix_value_t **val)
{
    get_blk_t b = {.val = NULL};
    get_req_t *g = NULL;
    const wu_self_hooks_t *self;
    bool ask, in_pt;
    int rc;
    if (NULL == val) {
        return PMIX_ERR_BAD_PARAM;
    }
    *val = NULL;
    if (NULL != (self = server_self())) {
        pmix_proc_t p = self_target(proc);
        return NULL == key || wu_key_ok(key) ? self->get(&p, key, val) : PMIX_ERR_BAD_PARAM;
    }
    in_pt = wu_client_ready() && wu_progress_in_thread(wu_client.pt);
    /* what the process holds is answered here, without a shift to the progress thread */
    rc = get_here(proc, key, info, ninfo, val, &ask);
    if (PMIX_ERR_NOT_FOUND != rc || !ask) {
        return rc;
    }
    if (in_pt) {
        /* called from a callback: the thread cannot wait for the server's answer */
        return WU_CLIENT_CONNECTED == wu_client.mode ? PMIX_ERR_WOULD_BLOCK : rc;
    }
    wu_wait_init(&b.wait);
    rc = get_new(proc, key, info, ninfo, get_blk_done, &b, &g);
    if (PMIX_SUCCESS == rc) {
        if (PMIX_SUCCESS != (rc = wu_client_shift(get_fn, g))) {
            PMIX_INFO_FREE(g->info, g->ninfo);
            free(g);
        } else {
            rc = wu_wait_for(&b.wait, 0); /* ends: reply, timeout timer or lost connection */
            *val = b.val;
        }
    }
    wu_wait_destroy(&b.wait);
    return rc;
}
