/* SPDX-License-Identifier: BSD-3-Clause */
/* wu_server_self.c -- PMIx_Store_internal and PMIx_Get called by the server process itself.
 *
 * A host that is not also a client (Open MPI's mpirun and orted, a resource manager's step
 * daemon) may keep data of its own in the server: ORTE stores its daemons' contact URIs with
 * PMIx_Store_internal right after PMIx_server_init and reads them back with PMIx_Get. Such a
 * store goes into what the host registered (so the server's clients can read it too), and such a
 * Get is answered from what this node holds: registered data, local commits, data fetched from
 * other nodes. Nothing is asked of the host: what is not here is PMIX_ERR_NOT_FOUND. All run on
 * the server's progress thread, where the stores live; PMIx_Get_nb's callback is called there.
 * The client layer reaches them through wu_self.h's hooks, set while the server runs. */
#include "pmix/server/wu_server.h"
#include "pmix/common/wu_self.h"
#include "pmix.h"

#include <stdlib.h>
#include <string.h>

typedef struct self {
    pmix_proc_t proc;
    const char *key;
    const pmix_value_t *in;
    pmix_value_t *out;
    pmix_status_t (*fn)(struct self *s);
    pmix_status_t status;
    bool ran;
} self_t;

/* An empty namespace is the server's own, and so is rank PMIX_RANK_UNDEF there. */
static void self_proc(self_t *s, const pmix_proc_t *proc)
{
    s->proc = *proc;
    if ('\0' == s->proc.nspace[0]) {
        PMIX_LOAD_NSPACE(s->proc.nspace, wu_srv.me.nspace);
        if (PMIX_RANK_UNDEF == s->proc.rank) {
            s->proc.rank = wu_srv.me.rank;
        }
    }
}

static pmix_status_t store_here(self_t *s)
{
    pmix_status_t rc = wu_srv.gds->put(wu_srv.store, s->proc.nspace, s->proc.rank, s->key, s->in);
    if (PMIX_SUCCESS == rc) {
        wu_srv_data_changed(&s->proc); /* a client's GET may wait for it */
    }
    return rc;
}

static pmix_status_t get_here(self_t *s)
{
    if (NULL == s->key) { /* everything of the proc (ORTE asks so for its daemons' data) */
        return wu_srv_export_copy(&s->proc, &s->out);
    }
    return wu_srv_lookup_copy(&s->proc, s->key, &s->out);
}

static void run_fn(wu_wait_call_t *call)
{
    self_t *s = call->cbdata;
    s->status = s->fn(s);
    s->ran = true;
    wu_wait_call_done(call, WU_SUCCESS);
}

/* fn on the progress thread: at once when called from it (an upcall), else shifted there. */
static pmix_status_t run(pmix_status_t (*fn)(self_t *), self_t *s)
{
    if (wu_progress_in_thread(wu_srv.pt)) {
        return fn(s);
    }
    s->fn = fn;
    if (WU_SUCCESS != wu_progress_shift_wait(wu_srv.pt, run_fn, s, 0) || !s->ran) {
        return PMIX_ERR_INIT; /* the progress thread is stopping */
    }
    return s->status;
}

static pmix_status_t self_store(const pmix_proc_t *proc, const char *key, const pmix_value_t *val)
{
    self_t s = {.key = key, .in = val};
    self_proc(&s, proc);
    return run(store_here, &s);
}

static pmix_status_t self_get(const pmix_proc_t *proc, const char *key, pmix_value_t **val)
{
    self_t s = {.key = key};
    pmix_status_t rc;
    self_proc(&s, proc);
    rc = run(get_here, &s);
    *val = PMIX_SUCCESS == rc ? s.out : NULL;
    if (PMIX_SUCCESS != rc && NULL != s.out) {
        PMIX_VALUE_RELEASE(s.out);
    }
    return rc;
}

typedef struct {
    self_t s;
    char key[PMIX_MAX_KEYLEN + 1];
    pmix_value_cbfunc_t cbfunc;
    void *cbdata;
} self_nb_t;

static void get_nb_fn(void *arg)
{
    self_nb_t *nb = arg;
    pmix_status_t rc = get_here(&nb->s);
    nb->cbfunc(rc, PMIX_SUCCESS == rc ? nb->s.out : NULL, nb->cbdata);
    if (NULL != nb->s.out) {
        PMIX_VALUE_RELEASE(nb->s.out);
    }
    free(nb);
}

static pmix_status_t self_get_nb(const pmix_proc_t *proc, const char *key,
                                 pmix_value_cbfunc_t cbfunc, void *cbdata)
{
    self_nb_t *nb = calloc(1, sizeof *nb);
    if (NULL == nb) {
        return PMIX_ERR_NOMEM;
    }
    self_proc(&nb->s, proc);
    /* the key outlives the call: it is copied beside the request */
    if (NULL != key) {
        PMIX_LOAD_KEY(nb->key, key);
        nb->s.key = nb->key;
    }
    nb->cbfunc = cbfunc;
    nb->cbdata = cbdata;
    if (WU_SUCCESS != wu_progress_shift(wu_srv.pt, get_nb_fn, nb)) {
        free(nb);
        return PMIX_ERR_INIT;
    }
    return PMIX_SUCCESS;
}

const wu_self_hooks_t wu_srv_self_hooks = {
    .store = self_store, .get = self_get, .get_nb = self_get_nb};
