/* SPDX-License-Identifier: BSD-3-Clause */
/* check_rte_relay.c -- the relay a wired runs for the daemons it starts (wu_rte_relay.c), over
 * loopback TCP with fake children: HELLO is accepted only with the token, only from the first
 * daemon of a chunk and only once; a child's messages go up wrapped with its node, deeper
 * daemons' FWD_UP as they are once their origin is checked; a child that lies about an origin
 * is dropped and its chunk reported GONE; FWD_DOWN reaches the child whose chunk holds the
 * destination, or every child; closing the relay closes the children without a GONE. With
 * heartbeats of 1 s and 2 misses, a child that sends nothing is closed after 2-3 s and its chunk
 * reported GONE as stopped answering, while one that sends BEAT stays and gets the relay's.
 * The fence combining of a relay (wu_rte_relay_coll.c, no network): contributions of the branch
 * go up in one FENCE_AGG once complete; of a fence with a timeout the first contribution goes up
 * at once and the rest combined; a node without participant or an unknown job are not held; an
 * ended participant sends up what is held, a failed FENCE_DONE drops it; a child relay's FENCE_AGG is taken pair by pair and refused for a node outside its
 * chunk. */
#include "mca/ptl/ptl.h"
#include "opal/event/wu_wait.h"
#include "opal/util/wu_argv.h"
#include "opal/util/wu_time.h"
#include "pmix/rte/dist/wu_rte_beat.h"
#include "pmix/rte/dist/wu_rte_relay.h"
#include "test/support/wu_test.h"
#include "pmix.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TOKEN "00112233445566778899aabbccddeeff"

static wu_progress_t *pt;

/* What the relay sent up: FWD_UP envelopes, decoded. */
typedef struct {
    uint32_t type, origin, inner;
    char *p;
    size_t n;
} up_t;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static up_t ups[32];
static int nups;

static void on_up(uint32_t type, const void *payload, size_t len, void *arg)
{
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)payload, .size = len};
    uint32_t skip;
    up_t u = {.type = type};
    (void)arg;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_embed(&m, &bo));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_get_fwd(&m, &u.origin, &skip, &u.inner, &u.p, &u.n));
    ck_assert_uint_eq(WU_DMSG_ALL, skip);
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    pthread_mutex_lock(&lock);
    ck_assert_int_lt(nups, 32);
    ups[nups++] = u;
    pthread_mutex_unlock(&lock);
}

/* Wait (10 s at most) until n messages went up; how many did. */
static int wait_ups(int n)
{
    int got = 0;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&lock);
        got = nups;
        pthread_mutex_unlock(&lock);
        if (got >= n) {
            break;
        }
        usleep(10000);
    }
    return got;
}

/* A fake child daemon. */
typedef struct {
    wu_ptl_conn_t *c;
    bool closed;
    int nrecv;
    uint32_t tag;
    char *last;
    size_t lastlen;
} child_t;

static void child_recv(wu_ptl_conn_t *c, uint32_t tag, uint16_t flags, const void *p, size_t len,
                       void *cbdata)
{
    child_t *k = cbdata;
    (void)c;
    (void)flags;
    pthread_mutex_lock(&lock);
    free(k->last);
    k->last = malloc(len + 1);
    if (len > 0) { /* BEAT has no payload (p may be NULL) */
        memcpy(k->last, p, len);
    }
    k->lastlen = len;
    k->tag = tag;
    k->nrecv++;
    pthread_mutex_unlock(&lock);
}

static void child_closed(wu_ptl_conn_t *c, int status, void *cbdata)
{
    child_t *k = cbdata;
    (void)c;
    (void)status;
    pthread_mutex_lock(&lock);
    k->closed = true;
    pthread_mutex_unlock(&lock);
}

static void child_connect(child_t *k, unsigned port)
{
    char uri[64];
    memset(k, 0, sizeof *k);
    snprintf(uri, sizeof uri, "tcp4://127.0.0.1:%u", port);
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_connect(pt, uri, child_recv, child_closed, k, &k->c));
}

static void child_send(child_t *k, uint32_t type, wu_dmsg_t *m)
{
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_send(k->c, type, 0, m->base_ptr, m->bytes_used));
    PMIX_DATA_BUFFER_DESTRUCT(m);
}

static void hello(child_t *k, const char *token, uint32_t node, wu_dmsg_t *m)
{
    PMIX_DATA_BUFFER_CONSTRUCT(m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_str(m, WU_DMSG_VERSION));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_str(m, token));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_u32(m, node));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_str(m, "host"));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_i32(m, 4242));
    (void)k;
}

static bool wait_closed(child_t *k)
{
    bool closed = false;
    for (int i = 0; i < 1000 && !closed; i++) {
        pthread_mutex_lock(&lock);
        closed = k->closed;
        pthread_mutex_unlock(&lock);
        if (!closed) {
            usleep(10000);
        }
    }
    return closed;
}

static int wait_recv(child_t *k, int n)
{
    int got = 0;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&lock);
        got = k->nrecv;
        pthread_mutex_unlock(&lock);
        if (got >= n) {
            break;
        }
        usleep(10000);
    }
    return got;
}

static void child_free(child_t *k)
{
    if (NULL != k->c) {
        wu_ptl_close(k->c);
        (void)wait_closed(k);
        wu_ptl_conn_release(k->c);
    }
    free(k->last);
}

/* The subtree: nodes 5, 6, 7 with radix 2: chunks {5, 6} and {7}. */
static const uint32_t tnodes[] = {5, 6, 7};
static wu_rte_tree_t tree;
static wu_rte_relay_t *relay;
static unsigned port;

/* The relay with heartbeats every `beat` seconds (0: none), 2 misses. */
static void setup_beat(const char *beat)
{
    setenv("PMIX_MCA_mca_base_user_param_file", "", 1);
    setenv("PMIX_MCA_mca_base_system_param_file", "", 1);
    setenv("PMIX_MCA_rte_base_heartbeat_interval", beat, 1);
    setenv("PMIX_MCA_rte_base_heartbeat_misses", "2", 1);
    ck_assert_int_eq(WU_SUCCESS, wu_mca_base_open());
    ck_assert_int_eq(WU_SUCCESS, wu_rte_beat_register());
    ck_assert_int_eq(WU_SUCCESS, wu_ptl_base_open());
    pt = wu_progress_start("relay-test");
    ck_assert_ptr_nonnull(pt);
    memset(&tree, 0, sizeof tree);
    tree.n = 3;
    tree.nodes = malloc(sizeof tnodes);
    memcpy(tree.nodes, tnodes, sizeof tnodes);
    tree.starts = calloc(3, sizeof *tree.starts);
    tree.lens = calloc(3, sizeof *tree.lens);
    tree.nchunks = wu_rte_tree_chunks(3, 2, tree.starts, tree.lens);
    ck_assert_uint_eq(2, tree.nchunks);
    for (int i = 0; i < 3; i++) {
        char h[16];
        snprintf(h, sizeof h, "node%u", tnodes[i]);
        ck_assert_int_eq(WU_SUCCESS, wu_argv_append(&tree.hosts, h));
    }
    ck_assert_int_eq(WU_SUCCESS, wu_rte_relay_open(pt, TOKEN, on_up, NULL, &relay, &port));
    ck_assert_uint_gt(port, 0);
    ck_assert_int_eq(WU_SUCCESS, wu_rte_relay_set_tree(relay, &tree));
    nups = 0;
}

static void setup(void)
{
    setup_beat("0");
}

static void setup_1s(void)
{
    setup_beat("1");
}

static void teardown(void)
{
    wu_rte_relay_close(relay, 0);
    wu_rte_tree_free(&tree);
    wu_progress_stop(pt);
    for (int i = 0; i < nups; i++) {
        free(ups[i].p);
    }
    wu_ptl_base_close();
    wu_mca_base_close();
}

/* Hello from node as child k; true if accepted (it went up). */
static bool say_hello(child_t *k, const char *token, uint32_t node)
{
    wu_dmsg_t m;
    int before;
    pthread_mutex_lock(&lock);
    before = nups;
    pthread_mutex_unlock(&lock);
    child_connect(k, port);
    hello(k, token, node, &m);
    child_send(k, WU_DMSG_HELLO, &m);
    for (int i = 0; i < 1000; i++) { /* accepted (it went up) or refused (closed) */
        bool done;
        pthread_mutex_lock(&lock);
        done = nups > before || k->closed;
        pthread_mutex_unlock(&lock);
        if (done) {
            break;
        }
        usleep(10000);
    }
    if (wait_ups(before) > before) {
        ck_assert_uint_eq(WU_DMSG_FWD_UP, ups[before].type);
        ck_assert_uint_eq(node, ups[before].origin);
        ck_assert_uint_eq(WU_DMSG_HELLO, ups[before].inner);
        return true;
    }
    return false;
}

START_TEST(hello_checks)
{
    child_t bad_token, not_first, first, again, not_hello;
    wu_dmsg_t m;
    ck_assert(!say_hello(&bad_token, "ffffffffffffffffffffffffffffffff", 5));
    ck_assert(wait_closed(&bad_token));
    /* node 6 is started by node 5, not by us */
    ck_assert(!say_hello(&not_first, TOKEN, 6));
    ck_assert(wait_closed(&not_first));
    /* a first frame that is not HELLO */
    child_connect(&not_hello, port);
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_u32(&m, 5));
    child_send(&not_hello, WU_DMSG_OUTPUT, &m);
    ck_assert(wait_closed(&not_hello));
    ck_assert(say_hello(&first, TOKEN, 5));
    ck_assert(!say_hello(&again, TOKEN, 5)); /* once */
    ck_assert(wait_closed(&again));
    ck_assert(!first.closed);
    ck_assert_int_eq(1, nups);
    child_free(&bad_token);
    child_free(&not_first);
    child_free(&not_hello);
    child_free(&again);
    child_free(&first);
}
END_TEST

typedef struct {
    uint32_t dest;
    wu_dmsg_t *env;
} down_t;

static void down_in_pt(wu_wait_call_t *call)
{
    down_t *d = call->cbdata;
    wu_rte_relay_down(relay, d->dest, d->env->base_ptr, d->env->bytes_used);
    wu_wait_call_done(call, WU_SUCCESS);
}

/* FWD_DOWN to dest through the relay, as our parent would send it. */
static void down(uint32_t dest, wu_dmsg_t *env)
{
    down_t d = {.dest = dest, .env = env};
    PMIX_DATA_BUFFER_CONSTRUCT(env);
    ck_assert_int_eq(PMIX_SUCCESS,
                     wu_dmsg_put_fwd(env, dest, WU_DMSG_ALL, WU_DMSG_SIGNAL, "sig", 3));
    ck_assert_int_eq(WU_SUCCESS, wu_progress_shift_wait(pt, down_in_pt, &d, 0));
}

START_TEST(forwarding)
{
    child_t a, b;
    wu_dmsg_t m, env;
    ck_assert(say_hello(&a, TOKEN, 5));
    ck_assert(say_hello(&b, TOKEN, 7));
    /* a's own message: wrapped with its node */
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_str(&m, "out"));
    child_send(&a, WU_DMSG_OUTPUT, &m);
    ck_assert_int_eq(3, wait_ups(3));
    ck_assert_uint_eq(5, ups[2].origin);
    ck_assert_uint_eq(WU_DMSG_OUTPUT, ups[2].inner);
    /* node 6's message, relayed by a: passed on as it is */
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_fwd(&m, 6, WU_DMSG_ALL, WU_DMSG_EXITED, "x", 1));
    child_send(&a, WU_DMSG_FWD_UP, &m);
    ck_assert_int_eq(4, wait_ups(4));
    ck_assert_uint_eq(6, ups[3].origin);
    ck_assert_uint_eq(WU_DMSG_EXITED, ups[3].inner);
    ck_assert_uint_eq(1, ups[3].n);
    /* down: node 6 is reached through a, node 7 is b, everyone is both */
    down(6, &env);
    ck_assert_int_eq(1, wait_recv(&a, 1));
    ck_assert_uint_eq(WU_DMSG_FWD_DOWN, a.tag);
    ck_assert_uint_eq(env.bytes_used, a.lastlen);
    ck_assert(0 == memcmp(env.base_ptr, a.last, a.lastlen));
    PMIX_DATA_BUFFER_DESTRUCT(&env);
    down(7, &env);
    ck_assert_int_eq(1, wait_recv(&b, 1));
    PMIX_DATA_BUFFER_DESTRUCT(&env);
    down(WU_DMSG_ALL, &env);
    ck_assert_int_eq(2, wait_recv(&a, 2));
    ck_assert_int_eq(2, wait_recv(&b, 2));
    PMIX_DATA_BUFFER_DESTRUCT(&env);
    down(9, &env); /* nobody's: dropped */
    usleep(100000);
    ck_assert_int_eq(2, a.nrecv);
    ck_assert_int_eq(2, b.nrecv);
    PMIX_DATA_BUFFER_DESTRUCT(&env);
    child_free(&a);
    child_free(&b);
}
END_TEST

START_TEST(lying_child)
{
    child_t a, b;
    wu_dmsg_t m;
    char *why = NULL;
    ck_assert(say_hello(&a, TOKEN, 5));
    ck_assert(say_hello(&b, TOKEN, 7));
    /* a claims to relay for node 7, which is not in its chunk */
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_fwd(&m, 7, WU_DMSG_ALL, WU_DMSG_EXITED, "x", 1));
    child_send(&a, WU_DMSG_FWD_UP, &m);
    ck_assert(wait_closed(&a));
    /* a's chunk (nodes 5 and 6) is gone, each with a reason */
    ck_assert_int_eq(4, wait_ups(4));
    for (int i = 2; i < 4; i++) {
        wu_dmsg_t g;
        pmix_byte_object_t bo = {.bytes = ups[i].p, .size = ups[i].n};
        ck_assert_uint_eq(WU_DMSG_GONE, ups[i].inner);
        ck_assert_uint_eq(3 == i ? 6 : 5, ups[i].origin);
        PMIX_DATA_BUFFER_CONSTRUCT(&g);
        ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_embed(&g, &bo));
        ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_get_str(&g, &why));
        ck_assert_ptr_nonnull(strstr(why, 3 == i ? "the daemon of node5, was lost"
                                                 : "its parent in the launch tree"));
        free(why);
        PMIX_DATA_BUFFER_DESTRUCT(&g);
    }
    ck_assert(!b.closed);
    child_free(&a);
    child_free(&b);
}
END_TEST

START_TEST(closing)
{
    child_t a;
    ck_assert(say_hello(&a, TOKEN, 7));
    wu_rte_relay_close(relay, 0.2); /* a does not close by itself: closed after the wait */
    relay = NULL;
    ck_assert(wait_closed(&a));
    usleep(100000);
    ck_assert_int_eq(1, nups); /* no GONE for a child we closed */
    child_free(&a);
}
END_TEST

START_TEST(silent_child)
{
    child_t a, b;
    double t0, took = 0;
    char *why = NULL;
    wu_dmsg_t g;
    pmix_byte_object_t bo;
    ck_assert(say_hello(&a, TOKEN, 5)); /* a says nothing more */
    ck_assert(say_hello(&b, TOKEN, 7));
    t0 = wu_time_now();
    for (int i = 0; i < 40; i++) { /* b beats every 0.1 s for 4 s */
        ck_assert_int_eq(WU_SUCCESS, wu_ptl_send(b.c, WU_DMSG_BEAT, 0, NULL, 0));
        pthread_mutex_lock(&lock);
        if (a.closed && 0 == took) {
            took = wu_time_now() - t0;
        }
        pthread_mutex_unlock(&lock);
        usleep(100000);
    }
    ck_assert(wait_closed(&a));
    ck_assert_msg(took > 1.5 && took < 3.5, "a closed after %.1f s", took);
    ck_assert(!b.closed);
    /* b got the relay's beats, and nothing of them went up */
    ck_assert_int_ge(wait_recv(&b, 3), 3);
    ck_assert_uint_eq(WU_DMSG_BEAT, b.tag);
    ck_assert_int_eq(4, wait_ups(4));
    ck_assert_uint_eq(WU_DMSG_GONE, ups[2].inner);
    ck_assert_uint_eq(5, ups[2].origin);
    bo = (pmix_byte_object_t){.bytes = ups[2].p, .size = ups[2].n};
    PMIX_DATA_BUFFER_CONSTRUCT(&g);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_embed(&g, &bo));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_get_str(&g, &why));
    ck_assert_msg(NULL != strstr(why, "its daemon stopped answering its parent in the launch tree"),
                  "%s", why);
    free(why);
    PMIX_DATA_BUFFER_DESTRUCT(&g);
    ck_assert_uint_eq(6, ups[3].origin);
    child_free(&a);
    child_free(&b);
}
END_TEST

/* The bookkeeping: lost once, after the limit only, bytes that came count; a late tick; the
 * text. */
START_TEST(beat_bookkeeping)
{
    wu_rte_beat_peer_t p = {.heard = 100.0, .rx = 50};
    char buf[96];
    ck_assert(!wu_rte_beat_lost(&p, 50, 110.0, 10.0));
    ck_assert(!wu_rte_beat_lost(&p, 50, 200.0, 0));    /* no check */
    ck_assert(!wu_rte_beat_lost(&p, 60, 109.0, 10.0)); /* bytes came: heard at 109 */
    ck_assert(!wu_rte_beat_lost(&p, 60, 119.0, 10.0));
    ck_assert(wu_rte_beat_lost(&p, 60, 119.4, 10.0));
    ck_assert(!wu_rte_beat_lost(&p, 60, 130.0, 10.0)); /* said once */
    ck_assert_str_eq("stopped answering, no message for 10 s",
                     wu_rte_beat_why(&p, buf, sizeof buf));
    ck_assert(!wu_rte_beat_late(10.0, 12.9, 2.0));
    ck_assert(wu_rte_beat_late(10.0, 13.1, 2.0));
    ck_assert_uint_eq(30, WU_DMSG_BEAT); /* appended: the other numbers never change */
}
END_TEST

/* ---- fence combining ------------------------------------------------------------------- */

/* What went up from the combiner. */
static uint32_t cup_type[16];
static uint32_t cup_count[16]; /* FENCE_AGG: pairs; FWD_UP: its origin */
static int32_t cup_tmo[16];    /* FENCE_AGG: its timeout, else -1 */
static int ncup;

static void on_cup(uint32_t type, const void *payload, size_t len, void *arg)
{
    wu_dmsg_t m;
    pmix_byte_object_t bo = {.bytes = (char *)payload, .size = len};
    char *sig = NULL, *blob = NULL;
    size_t n = 0;
    int32_t tmo = -1;
    uint32_t v = 0, skip, inner;
    (void)arg;
    PMIX_DATA_BUFFER_CONSTRUCT(&m);
    ck_assert_int_eq(PMIX_SUCCESS, PMIx_Data_embed(&m, &bo));
    if (WU_DMSG_FENCE_AGG == type) {
        ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_get_bytes(&m, &sig, &n));
        ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_get_i32(&m, &tmo));
        ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_get_u32(&m, &v));
        ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_get_bytes(&m, &blob, &n));
    } else {
        ck_assert_uint_eq(WU_DMSG_FWD_UP, type);
        ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_get_fwd(&m, &v, &skip, &inner, &blob, &n));
        ck_assert_uint_eq(WU_DMSG_FENCE, inner);
    }
    free(sig);
    free(blob);
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    ck_assert_int_lt(ncup, 16);
    cup_type[ncup] = type;
    cup_tmo[ncup] = WU_DMSG_FENCE_AGG == type ? tmo : -1;
    cup_count[ncup++] = v;
}

/* The signature of a fence of rank `only` of "job" (PMIX_RANK_WILDCARD: every rank). */
static char *job_sig(pmix_rank_t only, size_t *siglen)
{
    pmix_proc_t p;
    char *sig = NULL;
    PMIX_LOAD_PROCID(&p, "job", only);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_fence_sig(&p, 1, &sig, siglen));
    return sig;
}

/* A FENCE payload: every rank of "job" (wildcard) or rank `only`, some data, a timeout. */
static void fence_msg(wu_dmsg_t *m, pmix_rank_t only, int32_t timeout)
{
    size_t siglen = 0;
    char *sig = job_sig(only, &siglen);
    PMIX_DATA_BUFFER_CONSTRUCT(m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_bytes(m, sig, siglen));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_bytes(m, "data", 4));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_i32(m, timeout));
    free(sig);
}

/* The job: ranks 0-5, two on each of the branch's nodes 5, 6, 7 (map nodes 1, 2, 3 of a map
 * whose node 0 is the relay's own, with ranks 6-7). */
static wu_rte_jm_proc_t jprocs[8];
static wu_rte_jobmap_t jmap = {.np = 8, .nnodes = 8, .procs = jprocs};
static wu_rte_rcolls_t *rc;

static void rc_setup(void)
{
    setup();
    for (uint32_t r = 0; r < 8; r++) {
        jprocs[r].node = r < 6 ? 5 + r / 2 : 0;
    }
    rc = wu_rte_rcolls_new(&tree, on_cup, NULL);
    ck_assert_ptr_nonnull(rc);
    ncup = 0;
}

static void rc_teardown(void)
{
    wu_rte_rcolls_free(rc);
    teardown();
}

static bool give(uint32_t node, pmix_rank_t only, int32_t timeout)
{
    wu_dmsg_t m;
    bool held;
    fence_msg(&m, only, timeout);
    held = wu_rte_rcolls_fence(rc, node, m.base_ptr, m.bytes_used);
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    return held;
}

START_TEST(combine_complete)
{
    ck_assert(!give(5, PMIX_RANK_WILDCARD, 0)); /* the job is not known yet */
    ck_assert_int_eq(WU_SUCCESS, wu_rte_rcolls_set_job(rc, "job", &jmap));
    ck_assert(give(5, PMIX_RANK_WILDCARD, 0));
    ck_assert(give(6, PMIX_RANK_WILDCARD, 0));
    ck_assert_int_eq(0, ncup);
    ck_assert(give(7, PMIX_RANK_WILDCARD, 0));
    ck_assert_int_eq(1, ncup);
    ck_assert_uint_eq(WU_DMSG_FENCE_AGG, cup_type[0]);
    ck_assert_uint_eq(3, cup_count[0]);
    /* rank 2 lives on node 6 only: node 5 hosts no participant */
    ck_assert(!give(5, 2, 0));
    ck_assert(give(6, 2, 0));
    ck_assert_int_eq(2, ncup);
    ck_assert_uint_eq(1, cup_count[1]);
    ck_assert(!give(9, PMIX_RANK_WILDCARD, 0)); /* not of the branch */
}
END_TEST

START_TEST(combine_timeout)
{
    ck_assert_int_eq(WU_SUCCESS, wu_rte_rcolls_set_job(rc, "job", &jmap));
    /* the first contribution goes up alone, so that wrun's timer starts with it */
    ck_assert(!give(5, PMIX_RANK_WILDCARD, 5));
    ck_assert(give(6, PMIX_RANK_WILDCARD, 5));
    ck_assert(give(7, PMIX_RANK_WILDCARD, 5));
    ck_assert_int_eq(1, ncup);
    ck_assert_uint_eq(WU_DMSG_FENCE_AGG, cup_type[0]);
    ck_assert_uint_eq(2, cup_count[0]);
    ck_assert_int_eq(5, cup_tmo[0]);
    /* another timeout than the first's goes up alone, and what is held follows when complete */
    ck_assert(!give(5, PMIX_RANK_WILDCARD, 3));
    ck_assert(give(6, PMIX_RANK_WILDCARD, 3));
    ck_assert(!give(7, PMIX_RANK_WILDCARD, 0));
    ck_assert_int_eq(2, ncup);
    ck_assert_uint_eq(1, cup_count[1]);
    ck_assert_int_eq(3, cup_tmo[1]);
    /* a branch with one node that takes part: nothing to hold */
    ck_assert(!give(6, 2, 4));
    ck_assert(!give(6, 2, 4));
    ck_assert_int_eq(2, ncup);
}
END_TEST

/* A FENCE_DONE payload for every rank of "job", with status st. */
static void done_msg(wu_dmsg_t *m, pmix_status_t st)
{
    size_t siglen = 0;
    char *sig = job_sig(PMIX_RANK_WILDCARD, &siglen);
    PMIX_DATA_BUFFER_CONSTRUCT(m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_bytes(m, sig, siglen));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_i32(m, st));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_bytes(m, NULL, 0));
    free(sig);
}

START_TEST(combine_flush)
{
    wu_dmsg_t done;
    ck_assert_int_eq(WU_SUCCESS, wu_rte_rcolls_set_job(rc, "job", &jmap));
    /* a FENCE_DONE that failed for the set drops the oldest collection held (its nodes have the
     * failure); a successful one does not */
    ck_assert(give(5, PMIX_RANK_WILDCARD, 0));
    ck_assert(give(6, PMIX_RANK_WILDCARD, 0));
    done_msg(&done, PMIX_SUCCESS);
    wu_rte_rcolls_done(rc, done.base_ptr, done.bytes_used);
    ck_assert(give(5, PMIX_RANK_WILDCARD, 0)); /* node 5's next fence of the set */
    PMIX_DATA_BUFFER_DESTRUCT(&done);
    ck_assert_int_eq(0, ncup);
    done_msg(&done, PMIX_ERR_TIMEOUT);
    wu_rte_rcolls_done(rc, done.base_ptr, done.bytes_used);
    PMIX_DATA_BUFFER_DESTRUCT(&done);
    ck_assert_int_eq(0, ncup);
    /* the next one is whole with nodes 6 and 7: the dropped contributions are not in it */
    ck_assert(give(6, PMIX_RANK_WILDCARD, 0));
    ck_assert(give(7, PMIX_RANK_WILDCARD, 0));
    ck_assert_int_eq(1, ncup);
    ck_assert_uint_eq(3, cup_count[0]);
    /* rank 4 (node 7) ends: what nodes 5 and 6 gave goes up at once */
    ck_assert(give(5, PMIX_RANK_WILDCARD, 0));
    ck_assert(give(6, PMIX_RANK_WILDCARD, 0));
    wu_rte_rcolls_rank_ended(rc, 7); /* the relay's own node: not of the branch */
    ck_assert_int_eq(1, ncup);
    wu_rte_rcolls_rank_ended(rc, 4);
    ck_assert_int_eq(2, ncup);
    ck_assert_uint_eq(2, cup_count[1]);
    /* a later fence with an ended participant is not held either */
    ck_assert(give(5, PMIX_RANK_WILDCARD, 0));
    ck_assert_int_eq(3, ncup);
    ck_assert_uint_eq(1, cup_count[2]);
    /* nor one waiting for a node that is gone */
    wu_rte_rcolls_node_gone(rc, 6);
    ck_assert(give(5, 0, 0)); /* rank 0 alone: complete at once */
    ck_assert_int_eq(4, ncup);
}
END_TEST

/* A child relay's FENCE_AGG: the set, no timeout, and pairs for the nodes given. */
static void agg_msg(wu_dmsg_t *m, const uint32_t *nodes, uint32_t n)
{
    wu_dmsg_t pairs;
    size_t siglen = 0;
    char *sig = job_sig(PMIX_RANK_WILDCARD, &siglen);
    PMIX_DATA_BUFFER_CONSTRUCT(&pairs);
    for (uint32_t i = 0; i < n; i++) {
        ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_u32(&pairs, nodes[i]));
        ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_bytes(&pairs, "d", 1));
    }
    PMIX_DATA_BUFFER_CONSTRUCT(m);
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_bytes(m, sig, siglen));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_i32(m, 0));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_u32(m, n));
    ck_assert_int_eq(PMIX_SUCCESS, wu_dmsg_put_bytes(m, pairs.base_ptr, pairs.bytes_used));
    PMIX_DATA_BUFFER_DESTRUCT(&pairs);
    free(sig);
}

START_TEST(combine_agg)
{
    wu_dmsg_t m;
    const uint32_t chunk0[] = {5, 6}, lie[] = {7};
    ck_assert_int_eq(WU_SUCCESS, wu_rte_rcolls_set_job(rc, "job", &jmap));
    agg_msg(&m, chunk0, 2);
    ck_assert(wu_rte_rcolls_agg(rc, 0, m.base_ptr, m.bytes_used));
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    ck_assert_int_eq(0, ncup);
    agg_msg(&m, lie, 1); /* node 7 is chunk 1's, not chunk 0's */
    ck_assert(!wu_rte_rcolls_agg(rc, 0, m.base_ptr, m.bytes_used));
    ck_assert(wu_rte_rcolls_agg(rc, 1, m.base_ptr, m.bytes_used));
    PMIX_DATA_BUFFER_DESTRUCT(&m);
    ck_assert_int_eq(1, ncup);
    ck_assert_uint_eq(3, cup_count[0]);
    ck_assert(!wu_rte_rcolls_agg(rc, 0, "junk", 4));
}
END_TEST

static Suite *relay_suite(void)
{
    Suite *s = suite_create("rte_relay");
    TCase *tc = tcase_create("relay");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, hello_checks);
    tcase_add_test(tc, forwarding);
    tcase_add_test(tc, lying_child);
    tcase_add_test(tc, closing);
    suite_add_tcase(s, tc);
    TCase *tcb = tcase_create("heartbeat");
    tcase_set_timeout(tcb, 30);
    tcase_add_checked_fixture(tcb, setup_1s, teardown);
    tcase_add_test(tcb, silent_child);
    tcase_add_test(tcb, beat_bookkeeping);
    suite_add_tcase(s, tcb);
    TCase *tcc = tcase_create("combine");
    tcase_add_checked_fixture(tcc, rc_setup, rc_teardown);
    tcase_add_test(tcc, combine_complete);
    tcase_add_test(tcc, combine_timeout);
    tcase_add_test(tcc, combine_flush);
    tcase_add_test(tcc, combine_agg);
    suite_add_tcase(s, tcc);
    return s;
}

WU_TEST_MAIN(relay_suite)
