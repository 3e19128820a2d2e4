/* SPDX-License-Identifier: BSD-3-Clause */
/* e2e_pubsub.c -- PMIx_Publish, PMIx_Lookup and PMIx_Unpublish under wrun (issue 14).
 *
 *   e2e_pubsub rules        (3 ranks or more) the Standard's rules within one job: publisher
 *                           and value, duplicate keys (refused in a range, allowed in another),
 *                           ranges, unpublishing someone else's key, partial and missing
 *                           lookups, first-read data, PMIX_WAIT for data published later (also
 *                           Lookup_nb), PMIX_TIMEOUT, unpublishing everything, bad arguments
 *   e2e_pubsub meet a|b     two separate jobs meet: a publishes, b looks it up (waiting), b
 *                           answers, a looks that up; each checks the other's namespace
 *   e2e_pubsub absent KEY   the key is not found (a job's data went with it)
 *   e2e_pubsub keep KEY     publish KEY with PMIX_PERSIST_INDEF (it outlives the job)
 *   e2e_pubsub find KEY     KEY is found, published by another job (its value names it)
 *   e2e_pubsub alone        a singleton (no wrun): no data service, PMIX_ERR_NOT_SUPPORTED
 * Each rank prints "pubsub MODE: rank R ok" at the end. */
#include "e2e_util.h"

#define KEY_WAIT_TIMEOUT 30

static void publish_str(const char *key, const char *val, const pmix_info_t *dirs, size_t nd,
                        pmix_status_t want)
{
    pmix_info_t info[4];
    E2E_CHECK(nd < 4, "too many directives");
    PMIX_INFO_LOAD(&info[0], key, val, PMIX_STRING);
    for (size_t i = 0; i < nd; i++) {
        PMIX_INFO_XFER(&info[1 + i], &dirs[i]);
    }
    E2E_RC_IS(PMIx_Publish(info, 1 + nd), want, key);
    for (size_t i = 0; i < 1 + nd; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

/* Look key up with the directives; on success check the value and the publisher. */
static pmix_status_t lookup(const char *key, const pmix_info_t *dirs, size_t nd, const char *val,
                            const pmix_proc_t *from)
{
    pmix_pdata_t pd;
    pmix_status_t rc;
    PMIX_PDATA_CONSTRUCT(&pd);
    PMIX_LOAD_KEY(pd.key, key);
    rc = PMIx_Lookup(&pd, 1, dirs, nd);
    if (PMIX_SUCCESS == rc) {
        E2E_CHECK(PMIX_STRING == pd.value.type, "%s: a value of type %d", key, pd.value.type);
        if (NULL != val) {
            E2E_CHECK(0 == strcmp(val, pd.value.data.string), "%s: '%s' instead of '%s'", key,
                      pd.value.data.string, val);
        }
        if (NULL != from) {
            E2E_CHECK(PMIX_CHECK_PROCID(&pd.proc, from), "%s: published by %s:%u, not %s:%u", key,
                      pd.proc.nspace, pd.proc.rank, from->nspace, from->rank);
        }
    } else {
        E2E_CHECK(PMIX_UNDEF == pd.value.type, "%s: %s but a value", key, PMIx_Error_string(rc));
    }
    PMIX_PDATA_DESTRUCT(&pd);
    return rc;
}

static void fence(void)
{
    E2E_RC(PMIx_Fence(NULL, 0, NULL, 0), "PMIx_Fence");
}

typedef struct {
    volatile int done;
    pmix_status_t status;
    char value[64];
    pmix_proc_t from;
} nb_t;

static void nb_lookup_cb(pmix_status_t status, pmix_pdata_t pdata[], size_t ndata, void *cbdata)
{
    nb_t *nb = cbdata;
    nb->status = status;
    if (PMIX_SUCCESS == status && 1 == ndata && PMIX_STRING == pdata[0].value.type) {
        snprintf(nb->value, sizeof nb->value, "%s", pdata[0].value.data.string);
        nb->from = pdata[0].proc;
    }
    __atomic_store_n(&nb->done, 1, __ATOMIC_RELEASE);
}

static void nb_op_cb(pmix_status_t status, void *cbdata)
{
    nb_t *nb = cbdata;
    nb->status = status;
    __atomic_store_n(&nb->done, 1, __ATOMIC_RELEASE);
}

static void nb_wait(nb_t *nb)
{
    while (!__atomic_load_n(&nb->done, __ATOMIC_ACQUIRE)) {
        usleep(1000); /* the step's watchdog bounds it */
    }
}

static void rules(uint32_t size)
{
    pmix_proc_t r0, r1;
    pmix_info_t d[3];
    pmix_data_range_t nsr = PMIX_RANGE_NAMESPACE, pl = PMIX_RANGE_PROC_LOCAL,
                      glob = PMIX_RANGE_GLOBAL;
    pmix_persistence_t first = PMIX_PERSIST_FIRST_READ;
    bool yes = true;
    int one = 1, wait_to = KEY_WAIT_TIMEOUT;
    double t0;
    nb_t nb;

    E2E_CHECK(size >= 3, "needs 3 ranks or more, has %u", size);
    PMIX_LOAD_PROCID(&r0, e2e_me.nspace, 0);
    PMIX_LOAD_PROCID(&r1, e2e_me.nspace, 1);

    e2e_step("publish");
    if (0 == e2e_me.rank) {
        publish_str("wu.svc", "from-0", NULL, 0, PMIX_SUCCESS);
        PMIX_INFO_LOAD(&d[0], PMIX_PERSISTENCE, &first, PMIX_PERSIST);
        publish_str("wu.first", "once", d, 1, PMIX_SUCCESS);
        PMIX_INFO_LOAD(&d[0], PMIX_RANGE, &pl, PMIX_DATA_RANGE);
        publish_str("wu.mine", "private", d, 1, PMIX_SUCCESS);
    }
    fence();

    e2e_step("lookup what rank 0 published");
    E2E_RC(lookup("wu.svc", NULL, 0, "from-0", &r0), "Lookup wu.svc");
    /* the session lies inside the global range (Open MPI 5's MPI_Lookup_name may pass it) */
    PMIX_INFO_LOAD(&d[0], PMIX_RANGE, &glob, PMIX_DATA_RANGE);
    E2E_RC(lookup("wu.svc", d, 1, "from-0", &r0), "Lookup wu.svc in the global range");
    fence(); /* before rank 1 publishes wu.svc in the namespace range */

    e2e_step("duplicates");
    if (1 == e2e_me.rank) {
        publish_str("wu.svc", "from-1", NULL, 0, PMIX_ERR_DUPLICATE_KEY);
        PMIX_INFO_LOAD(&d[0], PMIX_RANGE, &nsr, PMIX_DATA_RANGE);
        publish_str("wu.svc", "ns-1", d, 1, PMIX_SUCCESS); /* another range: allowed */
        /* only its publisher may unpublish a key */
        char *k[] = {"wu.svc", NULL};
        E2E_RC_IS(PMIx_Unpublish(k, NULL, 0), PMIX_ERR_NO_PERMISSIONS, "Unpublish of rank 0's");
    }
    fence();
    PMIX_INFO_LOAD(&d[0], PMIX_RANGE, &nsr, PMIX_DATA_RANGE);
    E2E_RC(lookup("wu.svc", d, 1, "ns-1", &r1), "Lookup wu.svc in the namespace range");
    E2E_RC(lookup("wu.svc", NULL, 0, "from-0", &r0), "Lookup wu.svc in the session range");

    e2e_step("partial and missing lookups");
    {
        pmix_pdata_t pd[2];
        PMIX_PDATA_CONSTRUCT(&pd[0]);
        PMIX_PDATA_CONSTRUCT(&pd[1]);
        PMIX_LOAD_KEY(pd[0].key, "wu.svc");
        PMIX_LOAD_KEY(pd[1].key, "wu.none");
        E2E_RC_IS(PMIx_Lookup(pd, 2, NULL, 0), PMIX_ERR_PARTIAL_SUCCESS, "Lookup of 2, 1 there");
        E2E_CHECK(PMIX_STRING == pd[0].value.type && PMIX_UNDEF == pd[1].value.type,
                  "partial lookup: types %d and %d", pd[0].value.type, pd[1].value.type);
        PMIX_PDATA_DESTRUCT(&pd[0]);
        PMIX_PDATA_DESTRUCT(&pd[1]);
    }
    t0 = e2e_now();
    E2E_RC_IS(lookup("wu.none", NULL, 0, NULL, NULL), PMIX_ERR_NOT_FOUND, "Lookup of wu.none");
    E2E_CHECK(e2e_now() - t0 < 5, "a lookup without PMIX_WAIT waited %.1f s", e2e_now() - t0);

    e2e_step("a process-local range");
    PMIX_INFO_LOAD(&d[0], PMIX_RANGE, &pl, PMIX_DATA_RANGE);
    E2E_RC_IS(lookup("wu.mine", d, 1, "private", &r0),
              0 == e2e_me.rank ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND, "Lookup of wu.mine");

    e2e_step("first read");
    fence();
    if (2 == e2e_me.rank) {
        E2E_RC(lookup("wu.first", NULL, 0, "once", &r0), "first Lookup of wu.first");
        E2E_RC_IS(lookup("wu.first", NULL, 0, NULL, NULL), PMIX_ERR_NOT_FOUND,
                  "second Lookup of wu.first");
    }
    fence();

    e2e_step("PMIX_WAIT with a timeout");
    if (1 == e2e_me.rank) {
        PMIX_INFO_LOAD(&d[0], PMIX_WAIT, &yes, PMIX_BOOL);
        PMIX_INFO_LOAD(&d[1], PMIX_TIMEOUT, &one, PMIX_INT);
        t0 = e2e_now();
        E2E_RC_IS(lookup("wu.never", d, 2, NULL, NULL), PMIX_ERR_TIMEOUT, "waiting Lookup");
        E2E_CHECK(e2e_now() - t0 > 0.9 && e2e_now() - t0 < 10,
                  "PMIX_TIMEOUT 1 s: the lookup returned after %.2f s", e2e_now() - t0);
    }

    e2e_step("PMIX_WAIT for data published later");
    memset(&nb, 0, sizeof nb);
    if (2 == e2e_me.rank) {
        char *k[] = {"wu.late", NULL};
        PMIX_INFO_LOAD(&d[0], PMIX_WAIT, &yes, PMIX_BOOL);
        PMIX_INFO_LOAD(&d[1], PMIX_TIMEOUT, &wait_to, PMIX_INT);
        E2E_RC(PMIx_Lookup_nb(k, d, 2, nb_lookup_cb, &nb), "Lookup_nb wu.late");
    }
    fence(); /* rank 2 waits already */
    if (0 == e2e_me.rank) {
        publish_str("wu.late", "late", NULL, 0, PMIX_SUCCESS);
    }
    if (2 == e2e_me.rank) {
        nb_wait(&nb);
        E2E_RC(nb.status, "the waiting Lookup_nb");
        E2E_CHECK(0 == strcmp(nb.value, "late") && PMIX_CHECK_PROCID(&nb.from, &r0),
                  "waiting Lookup_nb: '%s' from %s:%u", nb.value, nb.from.nspace, nb.from.rank);
    }
    fence();

    e2e_step("unpublish everything");
    if (0 == e2e_me.rank) {
        memset(&nb, 0, sizeof nb);
        E2E_RC(PMIx_Unpublish_nb(NULL, NULL, 0, nb_op_cb, &nb), "Unpublish_nb of everything");
        nb_wait(&nb);
        E2E_RC(nb.status, "Unpublish_nb of everything");
    }
    fence();
    E2E_RC_IS(lookup("wu.svc", NULL, 0, NULL, NULL), PMIX_ERR_NOT_FOUND, "Lookup after unpublish");
    E2E_RC_IS(lookup("wu.late", NULL, 0, NULL, NULL), PMIX_ERR_NOT_FOUND, "Lookup after unpublish");
    PMIX_INFO_LOAD(&d[0], PMIX_RANGE, &nsr, PMIX_DATA_RANGE);
    E2E_RC(lookup("wu.svc", d, 1, "ns-1", &r1), "rank 1's data stay");

    e2e_step("bad arguments");
    E2E_RC_IS(PMIx_Publish(NULL, 0), PMIX_ERR_BAD_PARAM, "Publish of nothing");
    PMIX_INFO_LOAD(&d[0], PMIX_RANGE, &nsr, PMIX_DATA_RANGE);
    E2E_RC_IS(PMIx_Publish(d, 1), PMIX_ERR_BAD_PARAM, "Publish of directives only");
    E2E_RC_IS(PMIx_Lookup(NULL, 0, NULL, 0), PMIX_ERR_BAD_PARAM, "Lookup of nothing");
    fence();
}

/* a: publish, await b's answer, publish the acknowledgment, wait for b to end; b: await a,
 * answer, await the ack */
static void meet(const char *side)
{
    pmix_proc_t from;
    char *v;
    e2e_step("meet");
    if (0 != e2e_me.rank) {
        return;
    }
    if (0 == strcmp(side, "a")) {
        publish_str("wu.meet.a", e2e_me.nspace, NULL, 0, PMIX_SUCCESS);
        v = e2e_await_str("wu.meet.b", KEY_WAIT_TIMEOUT, &from);
        E2E_CHECK(0 != strcmp(v, e2e_me.nspace) && 0 == strcmp(v, from.nspace),
                  "wu.meet.b: '%s' from %s", v, from.nspace);
        publish_str("wu.meet.ack", v, NULL, 0, PMIX_SUCCESS);
        /* stay until b has ended (its data go with it): b reads the ack before it ends, and
         * the ack goes when this job ends */
        e2e_step("meet: b to end");
        while (PMIX_SUCCESS == lookup("wu.meet.b", NULL, 0, NULL, NULL)) {
            usleep(50 * 1000);
        }
    } else {
        v = e2e_await_str("wu.meet.a", KEY_WAIT_TIMEOUT, &from);
        E2E_CHECK(0 != strcmp(v, e2e_me.nspace) && 0 == strcmp(v, from.nspace),
                  "wu.meet.a: '%s' from %s", v, from.nspace);
        /* the same key in the same range from another job: refused */
        publish_str("wu.meet.a", e2e_me.nspace, NULL, 0, PMIX_ERR_DUPLICATE_KEY);
        publish_str("wu.meet.b", e2e_me.nspace, NULL, 0, PMIX_SUCCESS);
        free(v);
        v = e2e_await_str("wu.meet.ack", KEY_WAIT_TIMEOUT, &from);
        E2E_CHECK(0 == strcmp(v, e2e_me.nspace), "wu.meet.ack: '%s'", v);
    }
    free(v);
}

int main(int argc, char **argv)
{
    pmix_value_t *v;
    pmix_proc_t wild, from;
    pmix_status_t st;
    uint32_t size;
    const char *mode = argc > 1 ? argv[1] : "";

    setvbuf(stdout, NULL, _IOLBF, 0);
    e2e_step("init");
    E2E_RC(PMIx_Init(&e2e_me, NULL, 0), "PMIx_Init");
    PMIX_LOAD_PROCID(&wild, e2e_me.nspace, PMIX_RANK_WILDCARD);
    E2E_RC(PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v), "Get job size");
    size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);

    if (0 == strcmp(mode, "rules")) {
        rules(size);
    } else if (0 == strcmp(mode, "meet") && argc > 2) {
        meet(argv[2]);
    } else if (0 == strcmp(mode, "absent") && argc > 2) {
        e2e_step("absent");
        E2E_RC_IS(lookup(argv[2], NULL, 0, NULL, NULL), PMIX_ERR_NOT_FOUND, argv[2]);
    } else if (0 == strcmp(mode, "keep") && argc > 2) {
        pmix_info_t d;
        pmix_persistence_t indef = PMIX_PERSIST_INDEF;
        e2e_step("keep");
        PMIX_INFO_LOAD(&d, PMIX_PERSISTENCE, &indef, PMIX_PERSIST);
        if (0 == e2e_me.rank) {
            publish_str(argv[2], e2e_me.nspace, &d, 1, PMIX_SUCCESS);
        }
    } else if (0 == strcmp(mode, "find") && argc > 2) {
        char *got;
        e2e_step("find");
        got = e2e_await_str(argv[2], KEY_WAIT_TIMEOUT, &from);
        E2E_CHECK(0 == strcmp(got, from.nspace) && 0 != strcmp(got, e2e_me.nspace),
                  "%s: '%s' published by %s", argv[2], got, from.nspace);
        free(got);
    } else if (0 == strcmp(mode, "alone")) {
        pmix_info_t i;
        e2e_step("alone");
        PMIX_INFO_LOAD(&i, "wu.alone", "x", PMIX_STRING);
        E2E_RC_IS(PMIx_Publish(&i, 1), PMIX_ERR_NOT_SUPPORTED, "a singleton's Publish");
        E2E_RC_IS(lookup("wu.alone", NULL, 0, NULL, NULL), PMIX_ERR_NOT_SUPPORTED,
                  "a singleton's Lookup");
        PMIX_INFO_DESTRUCT(&i);
    } else {
        e2e_fail("usage: e2e_pubsub rules | meet a|b | absent KEY | keep KEY | find KEY | alone");
    }
    e2e_step("finalize");
    st = PMIx_Finalize(NULL, 0);
    E2E_RC(st, "PMIx_Finalize");
    printf("pubsub %s: rank %u ok\n", mode, e2e_me.rank);
    return 0;
}
