/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_rte_pubsub.c -- the data service (wu_rte_pubsub.h): the store on the head node with its
 * waiting lookups, and the ends that take data away. Everything runs on the rte thread. Data of
 * the session and global ranges are also written to the rendezvous directory (wu_rte_rdv.h)
 * for other wrun instances, and looked for there. The requests that reach the store are
 * wu_rte_pubsub_req.c's. */
#include "opal/class/wu_list.h"
#include "opal/util/wu_argv.h"
#include "pmix/rte/svc/wu_rte_pubsub_int.h"
#include "pmix/rte/svc/wu_rte_rdv.h"
#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lookups waiting for keys, at most (beyond it PMIX_WAIT is refused: PMIX_ERR_OUT_OF_RESOURCE). */
#define MAX_WAITING 4096
/* Values published, at most (PMIX_ERR_OUT_OF_RESOURCE beyond). */
#define MAX_ENTRIES 65536

typedef struct {
    wu_list_item_t super;
    char key[PMIX_MAX_KEYLEN + 1];
    pmix_value_t value;
    who_t owner;
    pmix_data_range_t range;
    pmix_persistence_t persist;
    uint32_t *auids, nauids; /* PMIX_ACCESS_USERIDS, PMIX_ACCESS_GRPIDS (none given: anyone) */
    uint32_t *agids, nagids;
    bool shared; /* also in the rendezvous directory */
} entry_t;

typedef struct {
    wu_list_item_t super;
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

static void entry_destruct(entry_t *e)
{
    PMIX_VALUE_DESTRUCT(&e->value);
    free(e->auids);
    free(e->agids);
}

static WU_CLASS_INSTANCE(entry_t, wu_list_item_t, NULL, entry_destruct);

static void waiter_destruct(waiter_t *wt)
{
    if (NULL != wt->timer) {
        (void)wu_progress_timer_cancel(wt->timer);
    }
    wu_argv_free(wt->keys);
}

static WU_CLASS_INSTANCE(waiter_t, wu_list_item_t, NULL, waiter_destruct);

/* The data published (newest first) and the lookups waiting (newest first), made with the
 * first of either. */
static wu_list_t *entries, *waiters;

/* entries and waiters are there (false: out of memory). */
static bool store_ready(void)
{
    if (NULL == entries) {
        entries = WU_NEW(wu_list_t);
    }
    if (NULL == waiters) {
        waiters = WU_NEW(wu_list_t);
    }
    return NULL != entries && NULL != waiters;
}

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
 * which may read as any of them (its MPI_Publish_name publishes in the session). A global
 * lookup sees the session's data too (the session lies inside it); a session lookup sees its
 * own range only. */
static bool look_wider(pmix_data_range_t range)
{
    return PMIX_RANGE_SESSION != range;
}

/* Another wrun's datum key for a lookup in range (rendezvous directory): a global lookup finds
 * one published in the session range too. */
static pmix_status_t rdv_lookup(const char *key, pmix_data_range_t range, uint32_t uid,
                                pmix_proc_t *owner, pmix_value_t *value)
{
    pmix_status_t rc = wu_rte_rdv_lookup(key, range, uid, owner, value);
    if (PMIX_SUCCESS != rc && PMIX_RANGE_GLOBAL == range) {
        rc = wu_rte_rdv_lookup(key, PMIX_RANGE_SESSION, uid, owner, value);
    }
    return rc;
}

static bool rdv_has(const char *key, pmix_data_range_t range, uint32_t uid)
{
    return wu_rte_rdv_has(key, range, uid) ||
           (PMIX_RANGE_GLOBAL == range && wu_rte_rdv_has(key, PMIX_RANGE_SESSION, uid));
}

/* ---- the store ---------------------------------------------------------------------------- */

/* Unlink and free e; its shared copy goes too unless it is to outlive this wrun
 * (PMIX_PERSIST_INDEF at the end). */
static void entry_drop(entry_t *e, bool wrun_ends)
{
    wu_list_remove(entries, &e->super);
    if (e->shared && !(wrun_ends && PMIX_PERSIST_INDEF == e->persist)) {
        wu_rte_rdv_unpublish(e->key, e->range);
    }
    WU_RELEASE(e);
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
pmix_status_t wu_rte_ps_publish(const who_t *w, const pmix_info_t *info, size_t n)
{
    wu_list_t fresh; /* in the order of info */
    entry_t *e;
    dirs_t d;
    size_t ndata = 0;
    pmix_status_t rc = read_dirs(info, n, &d, false);
    if (!store_ready()) {
        return PMIX_ERR_NOMEM;
    }
    WU_CONSTRUCT(&fresh, wu_list_t);
    for (size_t i = 0; PMIX_SUCCESS == rc && i < n; i++) {
        if (is_directive(info[i].key)) {
            continue;
        }
        WU_LIST_FOREACH(e, entries, entry_t)
        {
            if (PMIX_SUCCESS == rc && clashes(e, info[i].key, d.range, w)) {
                rc = PMIX_ERR_DUPLICATE_KEY;
            }
        }
        WU_LIST_FOREACH(e, &fresh, entry_t)
        {
            if (PMIX_SUCCESS == rc && 0 == strcmp(e->key, info[i].key)) {
                rc = PMIX_ERR_DUPLICATE_KEY; /* the same key twice in one call */
            }
        }
        if (PMIX_SUCCESS == rc && wu_list_length(entries) + ++ndata > MAX_ENTRIES) {
            rc = PMIX_ERR_OUT_OF_RESOURCE;
        }
        if (PMIX_SUCCESS == rc && NULL == (e = WU_NEW(entry_t))) {
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
        wu_list_append(&fresh, &e->super);
        if (PMIX_SUCCESS != (rc = PMIx_Value_xfer(&e->value, &info[i].value)) ||
            PMIX_SUCCESS != (rc = copy_ids(d.auids, &e->auids, &e->nauids)) ||
            PMIX_SUCCESS != (rc = copy_ids(d.agids, &e->agids, &e->nagids))) {
            break;
        }
    }
    if (PMIX_SUCCESS == rc && wu_list_is_empty(&fresh)) {
        rc = PMIX_ERR_BAD_PARAM; /* directives only: nothing to publish */
    }
    /* the session and global ranges are shared with the other wrun instances */
    WU_LIST_FOREACH(e, &fresh, entry_t)
    {
        if (PMIX_SUCCESS == rc &&
            (PMIX_RANGE_SESSION == e->range || PMIX_RANGE_GLOBAL == e->range)) {
            rc = wu_rte_rdv_publish(e->key, e->range, e->persist, &e->owner.proc, e->owner.uid,
                                    &e->value);
            e->shared = PMIX_SUCCESS == rc;
            if (PMIX_ERR_NOT_AVAILABLE == rc) {
                rc = PMIX_SUCCESS; /* no rendezvous directory: this wrun's jobs only */
            }
        }
    }
    if (PMIX_SUCCESS != rc) {
        while (NULL != (e = (entry_t *)wu_list_remove_first(&fresh))) {
            if (e->shared) {
                wu_rte_rdv_unpublish(e->key, e->range);
            }
            WU_RELEASE(e);
        }
        WU_DESTRUCT(&fresh);
        return rc;
    }
    while (NULL != (e = (entry_t *)wu_list_remove_last(&fresh))) {
        wu_list_prepend(entries, &e->super); /* the first of info first */
    }
    WU_DESTRUCT(&fresh);
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
        entry_t *e = NULL;
        bool found = false;
        /* the lookup's own range first, then (look_wider) the others */
        for (int wide = 0; wide < 2 && !found && (0 == wide || look_wider(range)); wide++) {
            WU_LIST_FOREACH(e, entries, entry_t)
            {
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
                entry_drop(e, false);
            }
        } else if ((PMIX_RANGE_SESSION == range || PMIX_RANGE_GLOBAL == range) &&
                   PMIX_SUCCESS ==
                       rdv_lookup(keys[k], range, w->uid, &out[n].proc, &out[n].value)) {
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

/* How many of the keys w could get now, taking nothing (FIRST_READ data stay). */
static size_t available(const who_t *w, char **keys, size_t nkeys, pmix_data_range_t range)
{
    size_t n = 0;
    for (size_t k = 0; k < nkeys; k++) {
        bool here = false;
        const entry_t *e;
        WU_LIST_FOREACH(e, entries, entry_t)
        {
            here = here || ((e->range == range || look_wider(range)) &&
                            0 == strcmp(e->key, keys[k]) && in_range(e, w) && may_read(e, w));
        }
        if (!here && (PMIX_RANGE_SESSION == range || PMIX_RANGE_GLOBAL == range)) {
            here = rdv_has(keys[k], range, w->uid);
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
    waiter_t *wt, *next;
    if (NULL == waiters) {
        return;
    }
    WU_LIST_FOREACH_SAFE(wt, next, waiters, waiter_t)
    {
        if (waiter_try(wt)) {
            wu_list_remove(waiters, &wt->super);
            WU_RELEASE(wt);
        }
    }
    wu_rte_rdv_watch(!wu_list_is_empty(waiters), wake_waiters);
}

static void waiter_timeout(void *arg)
{
    waiter_t *wt = arg;
    wt->timed_out = true;
    wake_waiters();
}

void wu_rte_ps_lookup(const who_t *w, char **keys, const pmix_info_t *info, size_t n,
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
    if (PMIX_SUCCESS == rc && !store_ready()) {
        rc = PMIX_ERR_NOMEM;
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
    if (wu_list_length(waiters) >= MAX_WAITING) {
        done(PMIX_ERR_OUT_OF_RESOURCE, NULL, 0, arg);
        return;
    }
    if (NULL == (wt = WU_NEW(waiter_t)) || NULL == (wt->keys = wu_argv_copy(keys))) {
        if (NULL != wt) {
            WU_RELEASE(wt);
        }
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
        WU_RELEASE(wt);
        done(PMIX_ERR_NOMEM, NULL, 0, arg);
        return;
    }
    wu_list_prepend(waiters, &wt->super);
    wu_rte_rdv_watch(true, wake_waiters);
}

pmix_status_t wu_rte_ps_unpublish(const who_t *w, char **keys, const pmix_info_t *info, size_t n)
{
    dirs_t d;
    bool have_range = false;
    size_t gone = 0, others = 0;
    entry_t *e, *next;
    pmix_status_t rc = read_dirs(info, n, &d, true);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (!store_ready()) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        have_range = have_range || PMIX_CHECK_KEY(&info[i], PMIX_RANGE);
    }
    WU_LIST_FOREACH_SAFE(e, next, entries, entry_t)
    {
        bool named = NULL == keys;
        for (size_t k = 0; !named && NULL != keys[k]; k++) {
            named = 0 == strcmp(keys[k], e->key);
        }
        /* named keys: in the range given, else the default one; everything: in every range
         * unless one is given */
        bool other_range = (have_range || NULL != keys) && e->range != d.range;
        if (!named || other_range || !in_range(e, w)) {
            continue;
        }
        if (!PMIX_CHECK_PROCID(&e->owner.proc, &w->proc)) {
            others++; /* only its publisher may take it back */
        } else {
            entry_drop(e, false);
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
    entry_t *e, *next;
    if (NULL == entries) {
        return;
    }
    WU_LIST_FOREACH_SAFE(e, next, entries, entry_t)
    {
        if (match(e, arg)) {
            entry_drop(e, any_data == match);
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
    waiter_t *wt, *next;
    if (NULL == waiters) {
        return;
    }
    WU_LIST_FOREACH_SAFE(wt, next, waiters, waiter_t)
    {
        if (match(&wt->who, arg)) {
            wu_list_remove(waiters, &wt->super);
            wt->done(status, NULL, 0, wt->arg);
            WU_RELEASE(wt);
        }
    }
    wu_rte_rdv_watch(!wu_list_is_empty(waiters), wake_waiters);
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
