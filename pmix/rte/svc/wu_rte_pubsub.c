/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pubsub.c -- the data service (wu_rte_pubsub.h): the host upcalls of wrun and wired,
 * and the store on the head node with its waiting lookups. Everything but the upcalls runs on
 * the rte thread. Data of the session and global ranges are also written to the rendezvous
 * directory (wu_rte_rdv.h) for other wrun instances, and looked for there. */
#include "pmix/rte/svc/wu_rte_pubsub.h"
#include "opal/util/wu_argv.h"
#include "pmix/rte/svc/wu_rte_svc.h"
#include "pmix/rte/svc/wu_rte_rdv.h"
#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lookups waiting for keys, at most (beyond it PMIX_WAIT is refused: PMIX_ERR_OUT_OF_RESOURCE). */
#define MAX_WAITING 4096
/* Values published, at most (PMIX_ERR_OUT_OF_RESOURCE beyond). */
#define MAX_ENTRIES 65536

/* Who asks: the process, its node's name (jobs map their nodes differently), its user and
 * group. */
typedef struct {
    pmix_proc_t proc;
    char node[256];
    uint32_t uid, gid;
} who_t;

typedef struct entry {
    struct entry *next;
    char key[PMIX_MAX_KEYLEN + 1];
    pmix_value_t value;
    who_t owner;
    pmix_data_range_t range;
    pmix_persistence_t persist;
    uint32_t *auids, nauids; /* PMIX_ACCESS_USERIDS, PMIX_ACCESS_GRPIDS (none given: anyone) */
    uint32_t *agids, nagids;
    bool shared; /* also in the rendezvous directory */
} entry_t;

typedef void (*lookup_done_fn)(pmix_status_t st, pmix_pdata_t *pd, size_t n, void *arg);

typedef struct waiter {
    struct waiter *next;
    who_t who;
    char **keys;
    size_t nkeys;
    pmix_data_range_t range;
    size_t want; /* keys that must be found */
    wu_timer_t *timer;
    bool timed_out;
    lookup_done_fn done;
    void *arg;
} waiter_t;

static entry_t *entries;
static size_t nentries;
static waiter_t *waiters;
static size_t nwaiters;

/* The directives a request carries. */
typedef struct {
    pmix_data_range_t range;
    pmix_persistence_t persist;
    int timeout;       /* seconds, 0: none */
    bool wait;         /* PMIX_WAIT given */
    size_t wait_count; /* its count (0: every key) */
    uint32_t uid, gid;
    const pmix_data_array_t *auids, *agids;
} dirs_t;

/* A non-negative integer value (of any integer type, a range or a persistence). */
static bool info_uint(const pmix_value_t *v, unsigned long long *out)
{
    long long n = 0;
    pmix_status_t st;
    if (PMIX_DATA_RANGE == v->type || PMIX_PERSIST == v->type) {
        *out = v->data.uint8;
        return true;
    }
    if (PMIX_FLOAT == v->type || PMIX_DOUBLE == v->type) {
        return false;
    }
    PMIX_VALUE_GET_NUMBER(st, v, n, long long);
    if (PMIX_SUCCESS != st || n < 0) {
        return false;
    }
    *out = (unsigned long long)n;
    return true;
}

/* Is key a directive of these calls (never data to publish)? Every key of the reserved "pmix"
 * prefix is: the Standard's attributes are not data. */
static bool is_directive(const char *key)
{
    return 0 == strncmp(key, "pmix", 4);
}

/* lenient: a range that names no range means the default instead of an error. Open MPI 5.0's
 * MPI_Lookup_name (and MPI_Unpublish_name) without an info "range" pass whatever their range
 * variable holds (255 or garbage), which OpenPMIx's hosts take as the default range. Lookup and
 * unpublish (which touches the caller's own data only) are lenient; publish refuses a range it
 * cannot honour. */
static pmix_status_t read_dirs(const pmix_info_t *info, size_t n, dirs_t *d, bool lenient)
{
    memset(d, 0, sizeof *d);
    d->range = PMIX_RANGE_SESSION;
    d->persist = PMIX_PERSIST_APP;
    for (size_t i = 0; i < n; i++) {
        const pmix_value_t *v = &info[i].value;
        unsigned long long u = 0;
        if (PMIX_CHECK_KEY(&info[i], PMIX_RANGE)) {
            bool known = info_uint(v, &u) && u <= PMIX_RANGE_PROC_LOCAL;
            if (!known && !lenient) {
                return PMIX_ERR_BAD_PARAM;
            }
            d->range = !known || PMIX_RANGE_UNDEF == u ? PMIX_RANGE_SESSION : (pmix_data_range_t)u;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_PERSISTENCE)) {
            if (!info_uint(v, &u) || u > PMIX_PERSIST_SESSION) {
                return PMIX_ERR_BAD_PARAM;
            }
            d->persist = (pmix_persistence_t)u;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_TIMEOUT)) {
            if (!info_uint(v, &u)) {
                return PMIX_ERR_BAD_PARAM;
            }
            d->timeout = u > 1000000000ull ? 1000000000 : (int)u;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_WAIT)) {
            /* a count of keys (0: all), or a flag (Open MPI passes true) */
            if (PMIX_BOOL == v->type) {
                d->wait = v->data.flag;
            } else if (info_uint(v, &u)) {
                d->wait = true;
                d->wait_count = (size_t)u;
            } else {
                return PMIX_ERR_BAD_PARAM;
            }
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_USERID) && info_uint(v, &u)) {
            d->uid = (uint32_t)u;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_GRPID) && info_uint(v, &u)) {
            d->gid = (uint32_t)u;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_ACCESS_USERIDS) ||
                   PMIX_CHECK_KEY(&info[i], PMIX_ACCESS_GRPIDS)) {
            if (PMIX_DATA_ARRAY != v->type || NULL == v->data.darray ||
                (0 < v->data.darray->size && PMIX_UINT32 != v->data.darray->type)) {
                return PMIX_ERR_BAD_PARAM;
            }
            if (PMIX_CHECK_KEY(&info[i], PMIX_ACCESS_USERIDS)) {
                d->auids = v->data.darray;
            } else {
                d->agids = v->data.darray;
            }
        }
    }
    if (PMIX_RANGE_CUSTOM == d->range || PMIX_RANGE_RM == d->range) {
        if (lenient) {
            d->range = PMIX_RANGE_SESSION; /* as for a range that names none */
            return PMIX_SUCCESS;
        }
        return PMIX_ERR_NOT_SUPPORTED; /* no custom member lists; nothing above wrun */
    }
    return PMIX_SUCCESS;
}

/* Does a lookup in range look beyond that range's own data when it has none? A lookup in a
 * range narrower than the session (namespace, node, process) then sees what the asker may see
 * of the other ranges: Open MPI 5's MPI_Lookup_name passes whatever its range variable holds,
 * which may read as any of them. Session and global lookups see their own range only. */
static bool look_wider(pmix_data_range_t range)
{
    return PMIX_RANGE_SESSION != range && PMIX_RANGE_GLOBAL != range;
}

/* ---- the store ---------------------------------------------------------------------------- */

static void entry_free(entry_t *e)
{
    PMIX_VALUE_DESTRUCT(&e->value);
    free(e->auids);
    free(e->agids);
    free(e);
}

/* Unlink and free *pe; its shared copy goes too unless it is to outlive this wrun
 * (PMIX_PERSIST_INDEF at the end). */
static void entry_drop(entry_t **pe, bool wrun_ends)
{
    entry_t *e = *pe;
    *pe = e->next;
    if (e->shared && !(wrun_ends && PMIX_PERSIST_INDEF == e->persist)) {
        wu_rte_rdv_unpublish(e->key, e->range);
    }
    entry_free(e);
    nentries--;
}

/* Is w inside the range of e? */
static bool in_range(const entry_t *e, const who_t *w)
{
    switch (e->range) {
    case PMIX_RANGE_NAMESPACE:
        return PMIX_CHECK_NSPACE(e->owner.proc.nspace, w->proc.nspace);
    case PMIX_RANGE_LOCAL:
        return 0 == strcmp(e->owner.node, w->node);
    case PMIX_RANGE_PROC_LOCAL:
        return PMIX_CHECK_PROCID(&e->owner.proc, &w->proc);
    default:
        return true;
    }
}

/* Does publishing key into range by w clash with e (the same key in the same range, and w
 * inside it)? */
static bool clashes(const entry_t *e, const char *key, pmix_data_range_t range, const who_t *w)
{
    return e->range == range && 0 == strcmp(e->key, key) && in_range(e, w);
}

static bool id_listed(const uint32_t *ids, uint32_t n, uint32_t id)
{
    for (uint32_t i = 0; i < n; i++) {
        if (ids[i] == id) {
            return true;
        }
    }
    return false;
}

static bool may_read(const entry_t *e, const who_t *w)
{
    if (0 == e->nauids && 0 == e->nagids) {
        return true;
    }
    return id_listed(e->auids, e->nauids, w->uid) || id_listed(e->agids, e->nagids, w->gid);
}

static pmix_status_t copy_ids(const pmix_data_array_t *d, uint32_t **ids, uint32_t *n)
{
    *ids = NULL;
    *n = 0;
    if (NULL == d || 0 == d->size) {
        return PMIX_SUCCESS;
    }
    if (NULL == (*ids = malloc(d->size * sizeof **ids))) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(*ids, d->array, d->size * sizeof **ids);
    *n = (uint32_t)d->size;
    return PMIX_SUCCESS;
}

static void wake_waiters(void);

/* Publish every datum of info (all or none). */
static pmix_status_t do_publish(const who_t *w, const pmix_info_t *info, size_t n)
{
    entry_t *fresh = NULL, *e;
    dirs_t d;
    size_t ndata = 0;
    pmix_status_t rc = read_dirs(info, n, &d, false);
    for (size_t i = 0; PMIX_SUCCESS == rc && i < n; i++) {
        if (is_directive(info[i].key)) {
            continue;
        }
        for (e = entries; NULL != e && PMIX_SUCCESS == rc; e = e->next) {
            if (clashes(e, info[i].key, d.range, w)) {
                rc = PMIX_ERR_DUPLICATE_KEY;
            }
        }
        for (e = fresh; NULL != e && PMIX_SUCCESS == rc; e = e->next) {
            if (0 == strcmp(e->key, info[i].key)) {
                rc = PMIX_ERR_DUPLICATE_KEY; /* the same key twice in one call */
            }
        }
        if (PMIX_SUCCESS == rc && nentries + ++ndata > MAX_ENTRIES) {
            rc = PMIX_ERR_OUT_OF_RESOURCE;
        }
        if (PMIX_SUCCESS == rc && NULL == (e = calloc(1, sizeof *e))) {
            rc = PMIX_ERR_NOMEM;
        }
        if (PMIX_SUCCESS != rc) {
            break;
        }
        PMIX_LOAD_KEY(e->key, info[i].key);
        e->owner = *w;
        e->owner.uid = d.uid;
        e->owner.gid = d.gid;
        e->range = d.range;
        e->persist = d.persist;
        e->next = fresh;
        fresh = e;
        if (PMIX_SUCCESS != (rc = PMIx_Value_xfer(&e->value, &info[i].value)) ||
            PMIX_SUCCESS != (rc = copy_ids(d.auids, &e->auids, &e->nauids)) ||
            PMIX_SUCCESS != (rc = copy_ids(d.agids, &e->agids, &e->nagids))) {
            break;
        }
    }
    if (PMIX_SUCCESS == rc && NULL == fresh) {
        rc = PMIX_ERR_BAD_PARAM; /* directives only: nothing to publish */
    }
    /* the session and global ranges are shared with the other wrun instances */
    for (e = fresh; NULL != e && PMIX_SUCCESS == rc; e = e->next) {
        if (PMIX_RANGE_SESSION == e->range || PMIX_RANGE_GLOBAL == e->range) {
            rc = wu_rte_rdv_publish(e->key, e->range, e->persist, &e->owner.proc, e->owner.uid,
                                    &e->value);
            e->shared = PMIX_SUCCESS == rc;
            if (PMIX_ERR_NOT_AVAILABLE == rc) {
                rc = PMIX_SUCCESS; /* no rendezvous directory: this wrun's jobs only */
            }
        }
    }
    if (PMIX_SUCCESS != rc) {
        while (NULL != fresh) {
            e = fresh;
            fresh = e->next;
            if (e->shared) {
                wu_rte_rdv_unpublish(e->key, e->range);
            }
            entry_free(e);
        }
        return rc;
    }
    while (NULL != fresh) {
        e = fresh;
        fresh = e->next;
        e->next = entries;
        entries = e;
        nentries++;
    }
    wake_waiters();
    return PMIX_SUCCESS;
}

/* Look the keys up for w in range: found ones into *pd (*npd of them), and how many were found
 * but are not for w. FIRST_READ data found are removed. */
static pmix_status_t find_keys(const who_t *w, char **keys, size_t nkeys, pmix_data_range_t range,
                               pmix_pdata_t **pd, size_t *npd, size_t *denied)
{
    pmix_pdata_t *out;
    size_t n = 0;
    *pd = NULL;
    *npd = 0;
    *denied = 0;
    PMIX_PDATA_CREATE(out, nkeys);
    if (NULL == out) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t k = 0; k < nkeys; k++) {
        entry_t **pe = NULL, *e = NULL;
        bool found = false;
        /* the lookup's own range first, then (look_wider) the others */
        for (int wide = 0; wide < 2 && !found && (0 == wide || look_wider(range)); wide++) {
            for (pe = &entries; NULL != *pe; pe = &(*pe)->next) {
                e = *pe;
                if ((wide || e->range == range) && 0 == strcmp(e->key, keys[k]) && in_range(e, w)) {
                    if (!may_read(e, w)) {
                        *denied += !wide;
                        continue;
                    }
                    found = true;
                    break;
                }
            }
        }
        if (found) {
            out[n].proc = e->owner.proc;
            PMIX_LOAD_KEY(out[n].key, e->key);
            if (PMIX_SUCCESS != PMIx_Value_xfer(&out[n].value, &e->value)) {
                PMIX_PDATA_FREE(out, nkeys);
                return PMIX_ERR_NOMEM;
            }
            n++;
            if (PMIX_PERSIST_FIRST_READ == e->persist) {
                entry_drop(pe, false);
            }
        } else if ((PMIX_RANGE_SESSION == range || PMIX_RANGE_GLOBAL == range) &&
                   PMIX_SUCCESS ==
                       wu_rte_rdv_lookup(keys[k], range, w->uid, &out[n].proc, &out[n].value)) {
            PMIX_LOAD_KEY(out[n].key, keys[k]); /* another wrun's */
            n++;
        }
    }
    *pd = out;
    *npd = n;
    return PMIX_SUCCESS;
}

static void release_pdata(pmix_pdata_t *pd, size_t cap)
{
    if (NULL != pd) {
        PMIX_PDATA_FREE(pd, cap);
    }
}

static pmix_status_t lookup_status(size_t found, size_t nkeys, size_t denied)
{
    if (found == nkeys) {
        return PMIX_SUCCESS;
    }
    if (found > 0) {
        return PMIX_ERR_PARTIAL_SUCCESS;
    }
    return denied > 0 ? PMIX_ERR_NO_PERMISSIONS : PMIX_ERR_NOT_FOUND;
}

static void waiter_free(waiter_t *wt)
{
    if (NULL != wt->timer) {
        (void)wu_progress_timer_cancel(wt->timer);
    }
    wu_argv_free(wt->keys);
    free(wt);
}

/* How many of the keys w could get now, taking nothing (FIRST_READ data stay). */
static size_t available(const who_t *w, char **keys, size_t nkeys, pmix_data_range_t range)
{
    size_t n = 0;
    for (size_t k = 0; k < nkeys; k++) {
        bool here = false;
        for (const entry_t *e = entries; NULL != e && !here; e = e->next) {
            here = (e->range == range || look_wider(range)) && 0 == strcmp(e->key, keys[k]) &&
                   in_range(e, w) && may_read(e, w);
        }
        if (!here && (PMIX_RANGE_SESSION == range || PMIX_RANGE_GLOBAL == range)) {
            here = wu_rte_rdv_has(keys[k], range, w->uid);
        }
        n += here;
    }
    return n;
}

/* Answer a lookup from what is there now. */
static void answer_now(const who_t *w, char **keys, size_t nkeys, pmix_data_range_t range,
                       pmix_status_t short_status, size_t want, lookup_done_fn done, void *arg)
{
    pmix_pdata_t *pd;
    size_t n, denied;
    pmix_status_t rc = find_keys(w, keys, nkeys, range, &pd, &n, &denied);
    if (PMIX_SUCCESS != rc) {
        done(rc, NULL, 0, arg);
        return;
    }
    if (n < want) {
        rc = 0 < n ? PMIX_ERR_PARTIAL_SUCCESS : short_status;
    } else {
        rc = lookup_status(n, nkeys, denied);
    }
    done(rc, pd, n, arg);
    release_pdata(pd, nkeys);
}

/* Try wt again: answer it when enough keys are there, or its time is up. true: answered. */
static bool waiter_try(waiter_t *wt)
{
    if (!wt->timed_out && available(&wt->who, wt->keys, wt->nkeys, wt->range) < wt->want) {
        return false;
    }
    answer_now(&wt->who, wt->keys, wt->nkeys, wt->range, PMIX_ERR_TIMEOUT, wt->want, wt->done,
               wt->arg);
    return true;
}

static void wake_waiters(void)
{
    waiter_t **pw = &waiters;
    while (NULL != *pw) {
        waiter_t *wt = *pw;
        if (waiter_try(wt)) {
            *pw = wt->next;
            nwaiters--;
            waiter_free(wt);
        } else {
            pw = &wt->next;
        }
    }
    wu_rte_rdv_watch(NULL != waiters, wake_waiters);
}

static void waiter_timeout(void *arg)
{
    waiter_t *wt = arg;
    wt->timed_out = true;
    wake_waiters();
}

static void do_lookup(const who_t *w, char **keys, const pmix_info_t *info, size_t n,
                      lookup_done_fn done, void *arg)
{
    dirs_t d;
    size_t nkeys = 0;
    waiter_t *wt = NULL;
    who_t me = *w;
    pmix_status_t rc = read_dirs(info, n, &d, true);
    while (NULL != keys && NULL != keys[nkeys]) {
        nkeys++;
    }
    if (PMIX_SUCCESS == rc && 0 == nkeys) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != rc) {
        done(rc, NULL, 0, arg);
        return;
    }
    me.uid = d.uid;
    me.gid = d.gid;
    if (d.wait && (0 == d.wait_count || d.wait_count > nkeys)) {
        d.wait_count = nkeys; /* PMIX_WAIT without a count: every key */
    }
    if (!d.wait || available(&me, keys, nkeys, d.range) >= d.wait_count) {
        answer_now(&me, keys, nkeys, d.range, PMIX_ERR_NOT_FOUND, d.wait_count, done, arg);
        return;
    }
    if (nwaiters >= MAX_WAITING) {
        done(PMIX_ERR_OUT_OF_RESOURCE, NULL, 0, arg);
        return;
    }
    if (NULL == (wt = calloc(1, sizeof *wt)) || NULL == (wt->keys = wu_argv_copy(keys))) {
        free(wt);
        done(PMIX_ERR_NOMEM, NULL, 0, arg);
        return;
    }
    wt->who = me;
    wt->nkeys = nkeys;
    wt->range = d.range;
    wt->want = d.wait_count;
    wt->done = done;
    wt->arg = arg;
    if (d.timeout > 0 &&
        NULL == (wt->timer = wu_progress_timer(wu_rte_progress(), d.timeout, waiter_timeout, wt))) {
        waiter_free(wt);
        done(PMIX_ERR_NOMEM, NULL, 0, arg);
        return;
    }
    wt->next = waiters;
    waiters = wt;
    nwaiters++;
    wu_rte_rdv_watch(true, wake_waiters);
}

static pmix_status_t do_unpublish(const who_t *w, char **keys, const pmix_info_t *info, size_t n)
{
    dirs_t d;
    bool have_range = false;
    size_t gone = 0, others = 0;
    pmix_status_t rc = read_dirs(info, n, &d, true);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    for (size_t i = 0; i < n; i++) {
        have_range = have_range || PMIX_CHECK_KEY(&info[i], PMIX_RANGE);
    }
    for (entry_t **pe = &entries; NULL != *pe;) {
        entry_t *e = *pe;
        bool named = NULL == keys;
        for (size_t k = 0; !named && NULL != keys[k]; k++) {
            named = 0 == strcmp(keys[k], e->key);
        }
        /* named keys: in the range given, else the default one; everything: in every range
         * unless one is given */
        bool other_range = (have_range || NULL != keys) && e->range != d.range;
        if (!named || other_range || !in_range(e, w)) {
            pe = &e->next;
        } else if (!PMIX_CHECK_PROCID(&e->owner.proc, &w->proc)) {
            others++; /* only its publisher may take it back */
            pe = &e->next;
        } else {
            entry_drop(pe, false);
            gone++;
        }
    }
    if (0 < gone || NULL == keys) {
        return PMIX_SUCCESS;
    }
    return 0 < others ? PMIX_ERR_NO_PERMISSIONS : PMIX_ERR_NOT_FOUND;
}

/* ---- ends --------------------------------------------------------------------------------- */

static bool any_data(const entry_t *e, const void *arg)
{
    (void)e;
    (void)arg;
    return true;
}

static void drop_where(bool (*match)(const entry_t *e, const void *arg), const void *arg)
{
    for (entry_t **pe = &entries; NULL != *pe;) {
        if (match(*pe, arg)) {
            entry_drop(pe, any_data == match);
        } else {
            pe = &(*pe)->next;
        }
    }
}

static bool proc_data(const entry_t *e, const void *arg)
{
    const pmix_proc_t *p = arg;
    return PMIX_PERSIST_PROC == e->persist && PMIX_CHECK_PROCID(&e->owner.proc, p);
}

static bool job_data(const entry_t *e, const void *arg)
{
    return (PMIX_PERSIST_PROC == e->persist || PMIX_PERSIST_APP == e->persist ||
            PMIX_PERSIST_FIRST_READ == e->persist) &&
           PMIX_CHECK_NSPACE(e->owner.proc.nspace, (const char *)arg);
}

/* The lookups of who match() are answered with status. */
static void end_waiters(bool (*match)(const who_t *w, const void *arg), const void *arg,
                        pmix_status_t status)
{
    for (waiter_t **pw = &waiters; NULL != *pw;) {
        waiter_t *wt = *pw;
        if (match(&wt->who, arg)) {
            *pw = wt->next;
            nwaiters--;
            wt->done(status, NULL, 0, wt->arg);
            waiter_free(wt);
        } else {
            pw = &wt->next;
        }
    }
    wu_rte_rdv_watch(NULL != waiters, wake_waiters);
}

static bool waiter_proc(const who_t *w, const void *arg)
{
    const pmix_proc_t *p = arg;
    return PMIX_CHECK_PROCID(&w->proc, p);
}

static bool waiter_job(const who_t *w, const void *arg)
{
    return PMIX_CHECK_NSPACE(w->proc.nspace, (const char *)arg);
}

static bool waiter_any(const who_t *w, const void *arg)
{
    (void)w;
    (void)arg;
    return true;
}

void wu_rte_pubsub_proc_ended(const pmix_proc_t *proc)
{
    drop_where(proc_data, proc);
    end_waiters(waiter_proc, proc, PMIX_ERR_PROC_TERM_WO_SYNC);
}

void wu_rte_pubsub_job_ended(const char *nspace)
{
    drop_where(job_data, nspace);
    end_waiters(waiter_job, nspace, PMIX_ERR_PROC_TERM_WO_SYNC);
}

void wu_rte_pubsub_finalize(void)
{
    drop_where(any_data, NULL);
    end_waiters(waiter_any, NULL, PMIX_ERR_INIT);
    wu_rte_rdv_finalize();
}

/* ---- requests: from this node's server, or from a daemon (head), or to the head (wired) ---- */

typedef struct {
    uint32_t op; /* WU_RTE_RPC_* */
    pmix_proc_t proc;
    char **keys;
    pmix_info_t *info;
    size_t ninfo;
    pmix_op_cbfunc_t opcb;
    pmix_lookup_cbfunc_t lookupcb;
    void *cbdata;
    wu_rte_rpc_t *call; /* a daemon's request being served, or NULL */
} req_t;

static void req_free(req_t *r)
{
    wu_argv_free(r->keys);
    if (NULL != r->info) {
        PMIX_INFO_FREE(r->info, r->ninfo);
    }
    free(r);
}

/* The answer of a request: to the server's callback here, or back down to its daemon. */
static void req_answer(req_t *r, pmix_status_t st, pmix_pdata_t *pd, size_t n)
{
    if (NULL != r->call) {
        wu_dmsg_t m;
        pmix_status_t rc = PMIX_SUCCESS;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        if (WU_RTE_RPC_LOOKUP == r->op) {
            rc = wu_dmsg_put_u32(&m, (uint32_t)n);
            if (PMIX_SUCCESS == rc && 0 < n) {
                rc = PMIx_Data_pack(NULL, &m, pd, (int32_t)n, PMIX_PDATA);
            }
        }
        wu_rte_rpc_answer(r->call, PMIX_SUCCESS == rc ? st : rc, &m);
    } else if (WU_RTE_RPC_LOOKUP == r->op) {
        if (NULL != r->lookupcb) {
            r->lookupcb(st, pd, n, r->cbdata);
        }
    } else if (NULL != r->opcb) {
        r->opcb(st, r->cbdata);
    }
    req_free(r);
}

static void lookup_answer(pmix_status_t st, pmix_pdata_t *pd, size_t n, void *arg)
{
    req_answer(arg, st, pd, n);
}

/* The head serves r for w. */
static void head_run(req_t *r, const who_t *w)
{
    switch (r->op) {
    case WU_RTE_RPC_PUBLISH:
        req_answer(r, do_publish(w, r->info, r->ninfo), NULL, 0);
        break;
    case WU_RTE_RPC_LOOKUP:
        do_lookup(w, r->keys, r->info, r->ninfo, lookup_answer, r);
        break;
    default:
        req_answer(r, do_unpublish(w, r->keys, r->info, r->ninfo), NULL, 0);
        break;
    }
}

static pmix_status_t pack_req(const req_t *r, wu_dmsg_t *m)
{
    pmix_status_t rc = wu_dmsg_put_proc(m, &r->proc);
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_argv(m, r->keys) : rc;
    rc = PMIX_SUCCESS == rc ? wu_dmsg_put_u32(m, (uint32_t)r->ninfo) : rc;
    if (PMIX_SUCCESS == rc && 0 < r->ninfo) {
        rc = PMIx_Data_pack(NULL, m, r->info, (int32_t)r->ninfo, PMIX_INFO);
    }
    return rc;
}

/* wired: the head's answer to r. */
static void rpc_done(pmix_status_t st, wu_dmsg_t *payload, void *arg)
{
    req_t *r = arg;
    pmix_pdata_t *pd = NULL;
    uint32_t n = 0;
    if (WU_RTE_RPC_LOOKUP == r->op && NULL != payload &&
        (PMIX_SUCCESS == st || PMIX_ERR_PARTIAL_SUCCESS == st)) {
        int32_t cnt;
        if (PMIX_SUCCESS != wu_dmsg_get_u32(payload, &n) || n > 65536) {
            st = PMIX_ERR_UNPACK_FAILURE;
            n = 0;
        } else if (0 < n) {
            PMIX_PDATA_CREATE(pd, n);
            cnt = (int32_t)n;
            if (NULL == pd ||
                PMIX_SUCCESS != PMIx_Data_unpack(NULL, payload, pd, &cnt, PMIX_PDATA)) {
                st = NULL == pd ? PMIX_ERR_NOMEM : PMIX_ERR_UNPACK_FAILURE;
            }
        }
    }
    r->call = NULL;
    req_answer(r, st, PMIX_SUCCESS == st || PMIX_ERR_PARTIAL_SUCCESS == st ? pd : NULL,
               PMIX_SUCCESS == st || PMIX_ERR_PARTIAL_SUCCESS == st ? n : 0);
    if (NULL != pd) {
        PMIX_PDATA_FREE(pd, n);
    }
}

/* rte thread: a request of this node's server. */
static void req_in_rte(void *arg)
{
    req_t *r = arg;
    who_t w = {.proc = r->proc};
    snprintf(w.node, sizeof w.node, "%s", wu_rte_hostname);
    if (wu_rte_daemon_mode) {
        wu_dmsg_t m;
        pmix_status_t rc;
        PMIX_DATA_BUFFER_CONSTRUCT(&m);
        if (PMIX_SUCCESS != (rc = pack_req(r, &m))) {
            PMIX_DATA_BUFFER_DESTRUCT(&m);
            req_answer(r, rc, NULL, 0);
            return;
        }
        wu_rte_rpc_call(r->op, &m, rpc_done, r);
        return;
    }
    head_run(r, &w);
}

static void pubsub_serve(wu_rte_rpc_t *call, uint32_t op, wu_dmsg_t *args)
{
    req_t *r = calloc(1, sizeof *r);
    uint32_t ninfo = 0;
    who_t w;
    pmix_status_t rc = NULL == r ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    if (PMIX_SUCCESS == rc) {
        r->op = op;
        r->call = call;
        rc = wu_dmsg_get_proc(args, &r->proc);
        rc = PMIX_SUCCESS == rc ? wu_dmsg_get_argv(args, &r->keys) : rc;
        rc = PMIX_SUCCESS == rc ? wu_dmsg_get_u32(args, &ninfo) : rc;
        if (PMIX_SUCCESS == rc && ninfo > 4096) {
            rc = PMIX_ERR_BAD_PARAM;
        }
        if (PMIX_SUCCESS == rc && 0 < ninfo) {
            int32_t cnt = (int32_t)ninfo;
            PMIX_INFO_CREATE(r->info, ninfo);
            r->ninfo = NULL != r->info ? ninfo : 0;
            rc = NULL == r->info ? PMIX_ERR_NOMEM
                                 : PMIx_Data_unpack(NULL, args, r->info, &cnt, PMIX_INFO);
        }
    }
    if (PMIX_SUCCESS != rc) {
        if (NULL != r) {
            req_free(r);
        }
        wu_rte_rpc_answer(call, rc, NULL);
        return;
    }
    w.proc = r->proc;
    /* a daemon's clients run on its node */
    snprintf(w.node, sizeof w.node, "%s", wu_rte_rpc_host(call));
    w.uid = w.gid = 0;
    head_run(r, &w);
}

/* The upcalls (server thread): a copy of the request goes to the rte thread. */
static pmix_status_t shift_req(uint32_t op, const pmix_proc_t *proc, char **keys,
                               const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t opcb,
                               pmix_lookup_cbfunc_t lookupcb, void *cbdata)
{
    req_t *r = calloc(1, sizeof *r);
    if (NULL == r || NULL == proc) {
        free(r);
        return PMIX_ERR_NOMEM;
    }
    r->op = op;
    r->proc = *proc;
    r->opcb = opcb;
    r->lookupcb = lookupcb;
    r->cbdata = cbdata;
    if (NULL != keys && NULL == (r->keys = wu_argv_copy(keys))) {
        req_free(r);
        return PMIX_ERR_NOMEM;
    }
    if (0 < ninfo) {
        PMIX_INFO_CREATE(r->info, ninfo);
        if (NULL == r->info) {
            req_free(r);
            return PMIX_ERR_NOMEM;
        }
        r->ninfo = ninfo;
        for (size_t i = 0; i < ninfo; i++) {
            if (PMIX_SUCCESS != PMIx_Info_xfer(&r->info[i], &info[i])) {
                req_free(r);
                return PMIX_ERR_NOMEM;
            }
        }
    }
    if (WU_SUCCESS != wu_progress_shift(wu_rte_progress(), req_in_rte, r)) {
        req_free(r);
        return PMIX_ERR_INIT;
    }
    return PMIX_SUCCESS;
}

pmix_status_t wu_rte_pubsub_request(uint32_t op, const pmix_proc_t *proc, char **keys,
                                    const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t opcb,
                                    pmix_lookup_cbfunc_t lookupcb, void *cbdata)
{
    return shift_req(op, proc, keys, info, ninfo, opcb, lookupcb, cbdata);
}

static pmix_status_t h_publish(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                               pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return shift_req(WU_RTE_RPC_PUBLISH, proc, NULL, info, ninfo, cbfunc, NULL, cbdata);
}

static pmix_status_t h_lookup(const pmix_proc_t *proc, char **keys, const pmix_info_t info[],
                              size_t ninfo, pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    return shift_req(WU_RTE_RPC_LOOKUP, proc, keys, info, ninfo, NULL, cbfunc, cbdata);
}

static pmix_status_t h_unpublish(const pmix_proc_t *proc, char **keys, const pmix_info_t info[],
                                 size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return shift_req(WU_RTE_RPC_UNPUBLISH, proc, keys, info, ninfo, cbfunc, NULL, cbdata);
}

void wu_rte_pubsub_module(pmix_server_module_t *m)
{
    m->publish = h_publish;
    m->lookup = h_lookup;
    m->unpublish = h_unpublish;
}

static void observe_job_ended(rte_job_t *job)
{
    if (!wu_rte_daemon_mode) { /* (wired keeps no data: its requests go to the head node) */
        wu_rte_pubsub_job_ended(job->nspace); /* its PMIX_PERSIST_APP data go */
    }
}

int wu_rte_pubsub_attach(void)
{
    static const rte_job_observer_t observer = {.proc_ended = wu_rte_pubsub_proc_ended,
                                                .job_ended = observe_job_ended};
    int rc = wu_rte_job_observe(&observer);
    rc = WU_SUCCESS == rc ? wu_rte_rpc_handle(WU_RTE_RPC_PUBLISH, pubsub_serve) : rc;
    rc = WU_SUCCESS == rc ? wu_rte_rpc_handle(WU_RTE_RPC_LOOKUP, pubsub_serve) : rc;
    return WU_SUCCESS == rc ? wu_rte_rpc_handle(WU_RTE_RPC_UNPUBLISH, pubsub_serve) : rc;
}
